#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <noether/joints/time_profile.hpp>

using namespace noether;

TEST_CASE("time profiles: constant, table (linear, constant beyond its ends), sine, damped harmonic") {
  CHECK(evaluate(ConstantProfile{2.5}, 7.0) == 2.5);
  const TableProfile table{{0.0, 1.0, 3.0}, {0.0, 2.0, -2.0}};
  CHECK(evaluate(table, -1.0) == 0.0);
  CHECK(evaluate(table, 0.5) == 1.0);
  CHECK(evaluate(table, 1.0) == 2.0);
  CHECK(evaluate(table, 2.0) == 0.0);
  CHECK(evaluate(table, 10.0) == -2.0);
  CHECK(evaluate(SineProfile{2.0, 3.0, 0.5, 1.0}, 0.2) == doctest::Approx(1.0 + 2.0 * std::sin(0.6 + 0.5)).epsilon(1e-15));
  // The damped oscillator q'' + 2 zeta w q' + w^2 q = 0 from q0 = 1, v0 = 0.
  const double zeta = 0.1, w = 2.0, wd = w * std::sqrt(1 - zeta * zeta);
  const DampedHarmonicProfile free_motion{zeta * w, wd, 1.0, zeta * w / wd};
  const auto q = [&](double t) { return evaluate(free_motion, t); };
  const double t = 1.3, d = 1e-4;
  const double acceleration = (q(t + d) - 2 * q(t) + q(t - d)) / (d * d), velocity = (q(t + d) - q(t - d)) / (2 * d);
  CHECK(std::abs(acceleration + 2 * zeta * w * velocity + w * w * q(t)) < 1e-6);
  CHECK(std::abs((q(d) - q(-d)) / (2 * d)) < 1e-8);
}

TEST_CASE("a directed load scales its direction by the profile, and bad profiles are refused naming the owner") {
  const TimeFunction load = directed_load(Eigen::Vector2d(1.0, -2.0), SineProfile{1.0, 1.0, 0.0, 0.0}, "force 'f'");
  CHECK(load(std::asin(0.5)).isApprox(Eigen::Vector2d(0.5, -1.0)));
  CHECK_THROWS_WITH_AS(check_time_profile(TableProfile{{0.0, 0.0}, {1.0, 2.0}}, "force 'f'"),
                       doctest::Contains("force 'f': the table's times must increase strictly"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(check_time_profile(TableProfile{{0.0}, {}}, "force 'f'"),
                       doctest::Contains("as many values as times"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(directed_load(Eigen::Vector2d(1, 0), ConstantProfile{std::numeric_limits<double>::quiet_NaN()}, "force 'f'"),
                       doctest::Contains("not finite"), std::invalid_argument);
}

TEST_CASE("profile rates: central differences of the smooth profiles, a table's slope from the right at a knot and 0 beyond its ends") {
  const std::vector<TimeProfile> smooth{ConstantProfile{2.5}, SineProfile{2.0, 3.0, 0.5, 1.0},
                                        DampedHarmonicProfile{0.3, 2.0, 1.0, -0.4}, RampProfile{-1.5, 0.2}};
  const double d = 1e-5;
  for (const TimeProfile& f : smooth)
    for (double t : {-0.7, 0.0, 1.3}) {
      const double central = (evaluate(f, t + d) - evaluate(f, t - d)) / (2 * d);
      CHECK(evaluate_rate(f, t) == doctest::Approx(central).epsilon(1e-8).scale(1.0));
    }
  CHECK(evaluate(RampProfile{-1.5, 0.2}, 2.0) == 0.2 - 3.0);
  const TableProfile table{{0.0, 1.0, 3.0}, {0.0, 2.0, -2.0}};
  CHECK(evaluate_rate(table, -1.0) == 0.0);
  CHECK(evaluate_rate(table, 0.0) == 2.0);   // the knot: the segment that starts there
  CHECK(evaluate_rate(table, 0.5) == 2.0);
  CHECK(evaluate_rate(table, 1.0) == -2.0);  // the knot between the two segments
  CHECK(evaluate_rate(table, 2.5) == -2.0);
  CHECK(evaluate_rate(table, 3.0) == 0.0);   // from the last time on, f is constant
  CHECK(evaluate_rate(TableProfile{{1.0}, {4.0}}, 1.0) == 0.0);
}

TEST_CASE("a ramp profile with a non-finite rate is refused naming its owner") {
  CHECK_THROWS_WITH_AS(check_time_profile(RampProfile{std::numeric_limits<double>::infinity(), 0.0}, "drive 'crank'"),
                       doctest::Contains("drive 'crank': a profile value is not finite"), std::invalid_argument);
}

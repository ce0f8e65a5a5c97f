/// The constrained-particles scenario [DiscreteDerivativesEM]: every discrete gradient conserves the
/// energy; the scaled midpoint also both momenta, the average vector field the linear one only,
/// Gonzalez's and the partitioned one neither (the runner's invariant drifts).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>

#include <noether/apps/runner.hpp>

using namespace noether;

TEST_CASE("constrained-particles: energy for every discrete gradient, momenta as conditions (14) say") {
  const std::array<const char*, 4> names{"scaled-midpoint", "avf", "gonzalez", "partitioned"};
  for (std::size_t kind = 0; kind < names.size(); ++kind) {
    CAPTURE(names[kind]);
    RunOptions options;
    options.scenario = "constrained-particles";
    options.configure().t_end = 2.0;
    options.threads = 1;
    options.overrides = {{"derivative", static_cast<double>(kind)}};
    const RunOutcome r = run(options);
    const RunStatistics& s = r.statistics;
    REQUIRE(r.ok());
    REQUIRE(s.invariant_drifts.size() == 2);
    const double linear = s.invariant_drifts[0].second, angular = s.invariant_drifts[1].second;
    MESSAGE(std::string(names[kind]), ": energy change ", std::abs(s.energy_final - s.energy_initial), ", linear momentum drift ",
            linear, ", angular momentum drift ", angular);
    CHECK(s.invariant_drifts[0].first == "linear_momentum");
    CHECK(std::abs(s.energy_final - s.energy_initial) <= 1e-12);
    CHECK(s.constraint_max_abs <= 1e-12);
    CHECK((linear <= 1e-12) == (kind <= 1));  // scaled midpoint, average vector field
    CHECK((angular <= 1e-12) == (kind == 0));  // scaled midpoint only
    CHECK((linear <= 1e-12 || linear >= 1e-7));  // a drift is a real one, far above rounding
    CHECK((angular <= 1e-12 || angular >= 1e-7));
  }
}

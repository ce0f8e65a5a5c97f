/// [KinonBetschSchneider2023, Sec. 5.1]: the gyroscopic top in steady precession. The analytic
/// reference is the constant height l cos(alpha0) = 0.0375 m of the centre of mass (eq. 66 makes
/// the precession
/// steady); energy and the vertical angular momentum about the fixed tip are first integrals.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <noether/apps/scenarios/top.hpp>
#include <noether/engine/measures.hpp>
#include "support/run_and_measure.hpp"

using namespace noether;
using namespace noether::testing;

namespace {

/// max over steps of |z_com - l cos(alpha0)| (the paper's data) at step h up to t_end.
double height_error(const std::string& stepper, double h, double t_end) {
  const GyroscopicTopParameters paper;
  const Model model = build_gyroscopic_top(paper);
  const double height = steady_precession_height(paper);
  double worst = 0.0;
  run_and_measure(model, stepper, h, t_end, [&](const State&, const State& after, const Stepper&) {
    worst = std::max(worst, std::abs(model.probes.front().position(after)(2) - height));
  });
  return worst;
}

/// |z_com(t) - l cos(alpha0)| at the end time t ([KinonBetschSchneider2023, eq. (69)] without the
/// division by the height).
double final_height_error(const std::string& stepper, double h, double t) {
  const GyroscopicTopParameters paper;
  const Model model = build_gyroscopic_top(paper);
  double last = 0.0;
  run_and_measure(model, stepper, h, t, [&](const State&, const State& after, const Stepper&) {
    last = std::abs(model.probes.front().position(after)(2) - steady_precession_height(paper));
  });
  return last;
}

}  // namespace

TEST_CASE("top: mass and moments are the cone's, from its density and dimensions (not rounded constants)") {
  const GyroscopicTopParameters paper;
  const ConeInertia cone = cone_inertia(paper);
  // m = rho pi r^2 a / 3 = 0.225 pi; J1 = 3/80 m (4 r^2 + a^2) = J3 = 3/10 m r^2 = 7.5e-4 m for r = a/2.
  CHECK(cone.mass == doctest::Approx(0.225 * M_PI).epsilon(1e-15));
  CHECK(cone.mass == doctest::Approx(0.706858347057703).epsilon(1e-14));
  CHECK(cone.transverse_inertia == doctest::Approx(7.5e-4 * 0.225 * M_PI).epsilon(1e-15));
  CHECK(cone.axial_inertia == doctest::Approx(5.30143760293278e-4).epsilon(1e-14));
  CHECK(cone.tip_distance == doctest::Approx(0.075).epsilon(1e-15));
  // The scenario's parameters are the cone's; its body carries these values.
  const Scenario& top = find_scenario("top");
  const ModelDescription d = top.describe(resolve_parameters(top, {{"radius", 0.04}}));
  const auto& body = std::get<RigidBodyDescription>(d.bodies.front());
  const ConeInertia narrow = cone_inertia({.radius = 0.04});
  CHECK(body.properties.mass == narrow.mass);
  CHECK(body.properties.inertia(0, 0) == narrow.transverse_inertia);
  CHECK(body.properties.inertia(2, 2) == narrow.axial_inertia);
  CHECK(narrow.axial_inertia < narrow.transverse_inertia);
}

TEST_CASE("top: the paper's data give omega_s = 135.6/s, the centre of mass at 0.0375 m and consistent velocities") {
  const GyroscopicTopParameters paper;
  CHECK(steady_precession_spin_rate(paper) == doctest::Approx(135.6).epsilon(5e-4));  // the paper, after eq. (66)
  CHECK(steady_precession_height(paper) == doctest::Approx(0.0375).epsilon(1e-12));
  const Model model = build_gyroscopic_top(paper);
  REQUIRE(model.probes.size() == 1);
  CHECK(model.probes.front().name == "com");
  const Vector com = model.probes.front().position(model.initial);
  CHECK(com(2) == doctest::Approx(0.0375).epsilon(1e-12));
  CHECK(constraint_residual(*model.system, model.initial.q) <= 1e-15);
  CHECK(velocity_constraint_residual(*model.system, model.initial.q, model.initial.v) <= 1e-13);
}

TEST_CASE(
    "top with ggl-vi: the centre of mass stays at l cos(alpha0) up to a first-order error (KinonBetschSchneider2023, Fig. 9-10)") {
  // The paper's measure (eq. 69): the error at one early time, here t = 0.01 s (5 steps at h = 0.002).
  const double early_coarse = final_height_error("ggl-vi", 0.002, 0.01);
  const double early_fine = final_height_error("ggl-vi", 0.001, 0.01);
  const double early_finer = final_height_error("ggl-vi", 0.0005, 0.01);
  MESSAGE("|z_com - 0.0375| at t = 0.01 s: ", early_coarse, ", ", early_fine, ", ", early_finer,
          " at h = 0.002, 0.001, 0.0005; ratios ", early_coarse / early_fine, ", ", early_fine / early_finer);
  CHECK(early_coarse / early_fine == doctest::Approx(2.0).epsilon(0.05));
  CHECK(early_fine / early_finer == doctest::Approx(2.0).epsilon(0.05));

  // The largest deviation over the paper's 2 s. At h = 0.002 the spin turns the top by
  // omega_s h = 0.27 rad per step, so the h^2 term is still visible: the ratio for h -> h/2 is
  // 3.1 (measured), then 2.5 for 0.001 -> 0.0005 and 2.2 for 0.0005 -> 0.00025, tending to 2.
  const double coarse = height_error("ggl-vi", 0.002, 2.0), fine = height_error("ggl-vi", 0.001, 2.0);
  const double finer = height_error("ggl-vi", 0.0005, 2.0);
  MESSAGE("max |z_com - 0.0375| over 2 s: ", coarse, " (", coarse / 0.0375, " relative) at h = 0.002, ", fine,
          " at h = 0.001, ", finer, " at h = 0.0005; ratios ", coarse / fine, ", ", fine / finer);
  CHECK(coarse <= 0.05 * 0.0375);
  CHECK(fine / finer < coarse / fine);                       // the ratio falls towards the first-order 2 ...
  CHECK(fine / finer == doctest::Approx(2.0).epsilon(0.3));  // ... and is within 30 % of it at h = 0.001
}

TEST_CASE("top with livens-em and em-ggl: energy and the vertical angular momentum about the tip are conserved") {
  const Model model = build_gyroscopic_top({});
  const System& system = *model.system;
  for (const std::string stepper_name : {"livens-em", "em-ggl"}) {
    CAPTURE(stepper_name);
    double energy0 = 0, momentum0 = 0, energy_drift = 0, momentum_drift = 0;
    bool first = true;
    run_and_measure(model, stepper_name, 0.002, 2.0, [&](const State& before, const State& after, const Stepper& stepper) {
      if (first) {
        energy0 = stepper.conserved_energy(before);
        momentum0 = momenta(system, before.q, before.v).angular(2);
        first = false;
      }
      energy_drift = std::max(energy_drift, std::abs(stepper.conserved_energy(after) - energy0));
      momentum_drift =
          std::max(momentum_drift, std::abs(momenta(system, after.q, after.v).angular(2) - momentum0));
    });
    MESSAGE(stepper_name, ": energy ", energy0, ", max drift ", energy_drift, "; L3 about the tip ", momentum0,
            ", max drift ", momentum_drift);
    CHECK(energy_drift <= 1e-10 * std::abs(energy0));
    CHECK(momentum_drift <= 1e-10 * std::abs(momentum0));
  }
}

TEST_CASE("top with livens-em and em-ggl: the height error is second order") {
  for (const std::string stepper_name : {"livens-em", "em-ggl"}) {
    CAPTURE(stepper_name);
    const double coarse = height_error(stepper_name, 0.002, 2.0), fine = height_error(stepper_name, 0.001, 2.0);
    MESSAGE(stepper_name, ": max |z_com - 0.0375| over 2 s ", coarse, " at h = 0.002, ", fine, " at h = 0.001, ratio ",
            coarse / fine);
    CHECK(coarse / fine == doctest::Approx(4.0).epsilon(0.1));
  }
}

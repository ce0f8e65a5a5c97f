/// A hanging chain of slender rods: no axial inertia, so M is singular (rank 6 of 12 per rod).
/// Only the Livens stepper, which never inverts M, integrates it; a spin gauge per rod fixes the
/// massless directors without touching the motion of the massive ones.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <noether/apps/scenarios/rod_chain3d.hpp>
#include "support/run_and_measure.hpp"

using namespace noether;
using namespace noether::testing;

namespace {

/// Offsets of the rods' blocks ("rod1", ...), each phi (3), d1, d2, d3.
std::vector<Index> rod_offsets(const System& system) {
  std::vector<Index> offsets;
  for (const CoordinateBlock& block : system.blocks()) offsets.push_back(block.offset);
  return offsets;
}

}  // namespace

TEST_CASE("rod-chain3d: the initial state meets every constraint, velocities included") {
  const Model model = build_rod_chain3d({});
  const System& system = *model.system;
  CHECK(system.num_coordinates() == 5 * 12);
  CHECK(system.num_multipliers() == 5 * (6 + 1 + 3));  // orthonormality, gauge, spherical joint
  CHECK(constraint_residual(system, model.initial.q) <= 1e-15);
  CHECK(velocity_constraint_residual(system, model.initial.q, model.initial.v) <= 1e-15);
  CHECK_THROWS_WITH_AS(build_scenario("rod-chain3d", {{"n", 2.5}}),
                       doctest::Contains("scenario 'rod-chain3d': parameter 'n' must be a whole number from 1 to 100000, got 2.5"), std::invalid_argument);
}

TEST_CASE("rod-chain3d: livens-em conserves the energy of the slender-rod chain (singular M)") {
  const Model model = build_scenario("rod-chain3d");
  const System& system = *model.system;
  const std::vector<Index> rods = rod_offsets(system);
  double energy0 = 0, energy_drift = 0, max_g = 0, max_axis_along_gauge = 0, tip_y_min = 0, tip_y_max = 0;
  bool first = true;
  run_and_measure(model, "livens-em", 0.01, 5.0, [&](const State& before, const State& after, const Stepper& stepper) {
    if (first) energy0 = stepper.conserved_energy(before);
    first = false;
    energy_drift = std::max(energy_drift, std::abs(stepper.conserved_energy(after) - energy0));
    max_g = std::max(max_g, constraint_residual(system, after.q));
    for (Index offset : rods) max_axis_along_gauge = std::max(max_axis_along_gauge, std::abs(after.q(offset + 10)));
    const double tip_y = model.probes.front().position(after)(1);
    tip_y_min = std::min(tip_y_min, tip_y);
    tip_y_max = std::max(tip_y_max, tip_y);
  });
  MESSAGE("5 rods, 5 s at h = 0.01: energy ", energy0, ", max drift ", energy_drift, ", max |g| ", max_g,
          ", max |d3.e2| ", max_axis_along_gauge, ", tip y in [", tip_y_min, ", ", tip_y_max, "]");
  CHECK(energy_drift <= 1e-10 * std::abs(energy0));
  CHECK(max_g <= 1e-9);
  CHECK(tip_y_max - tip_y_min >= 0.1);  // a 3D motion, not a planar one
  CHECK(max_axis_along_gauge <= 0.9);   // the gauge d1.e2 = 0 stayed regular (singular at |d3.e2| = 1)
}

TEST_CASE("rod-chain3d: ggl-vi and em-ggl refuse the singular mass matrix and point to livens-em") {
  const Model model = build_scenario("rod-chain3d");
  for (const std::string stepper : {"ggl-vi", "em-ggl"}) {
    CAPTURE(stepper);
    const std::string expected = stepper +
                                 " needs a constant invertible mass matrix, but inertia 'rod1.inertia' "
                                 "is singular (rank 6 of 12); use livens-em";
    CHECK_THROWS_WITH_AS(find_stepper(stepper).make(*model.system, StepperOptions{}), doctest::Contains(expected.c_str()),
                         StepperRefusal);
  }
}

TEST_CASE("rod-chain3d: the spin gauge is workless: gauges d1.e2 = 0 and d1.e1 = 0 give the same phi and d3") {
  // Both gauges leave the massive coordinates (phi, d3) to the same equations (rod_chain3d.hpp):
  // the multipliers of the massless directors' constraints vanish, so the runs may differ by
  // round-off at most (they agree to the bit with KLU).
  RodChainParameters e2_gauge, e1_gauge;
  e1_gauge.gauge_normal = Eigen::Vector3d::UnitX();
  const Model a = build_rod_chain3d(e2_gauge), b = build_rod_chain3d(e1_gauge);
  const std::vector<Index> rods = rod_offsets(*a.system);
  Vector final_a, final_b;
  run_and_measure(a, "livens-em", 0.01, 1.0, [&](const State&, const State& after, const Stepper&) { final_a = after.q; });
  run_and_measure(b, "livens-em", 0.01, 1.0, [&](const State&, const State& after, const Stepper&) { final_b = after.q; });
  double massive_difference = 0, massless_difference = 0;
  for (Index offset : rods) {
    massive_difference = std::max({massive_difference, max_abs(final_a.segment(offset, 3) - final_b.segment(offset, 3)),
                                   max_abs(final_a.segment(offset + 9, 3) - final_b.segment(offset + 9, 3))});
    massless_difference =
        std::max(massless_difference, max_abs(final_a.segment(offset + 3, 6) - final_b.segment(offset + 3, 6)));
  }
  MESSAGE("after 1 s: max difference of phi, d3 ", massive_difference, "; of the gauged d1, d2 ", massless_difference);
  CHECK(massive_difference <= 1e-10);
  CHECK(massless_difference >= 0.1);  // the gauges did place d1, d2 differently
}

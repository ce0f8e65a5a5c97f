/// Steps through the singular configurations of the N-four-bar (every crank horizontal: the
/// constraint Jacobian loses rank in every cell at once). A node of a step at such an instant
/// leaves the multipliers along the lost rank to rounding, and Newton stalls or fails there; the
/// steppers take such a step again split at a third (take_step_off_singular_nodes,
/// steppers/stepper.hpp), then, where the step's end lies there, with Newton's updates kept off the
/// near null space (NewtonSolver::solve_off_near_null_space); a failure names the singular
/// configuration (with_rank_loss).
///
/// The step sizes put a node of a step next to the first crossing, t1 = 0.721581025 s for n = 40
/// (the closed form of benchmarks/work_precision/parallelogram.hpp): h = (t1 + 7e-7) / 2309.5
/// puts the middle of step 2310 (lobatto4's node q_mid) 7e-7 s after it; h = t1 / 577.5875 puts
/// the end of em-ggl4's fourth substep (at 0.5855 of the step) 2.5e-6 s before it;
/// h = (t1 + 7e-7) / 4618 puts the end of lobatto4's step 4618 7e-7 s after it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <work_precision/parallelogram.hpp>

#include <noether/apps/runner.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/steppers/livens_em.hpp>

using namespace noether;

namespace {

/// lobatto4's step whose middle node lies 7e-7 s after the first crossing is step 2310.
constexpr double kLobattoStep = 0.000312440669;
/// em-ggl4's step whose fourth substep ends 2.5e-6 s before the first crossing is step 578.
constexpr double kCompositionStep = 0.0012492947;

/// lobatto4's step 4618 ends 7e-7 s after the first crossing.
constexpr double kLobattoEndStep = 0.00015625416302;

/// nfourbar n = 40 by `stepper` with step h for `steps` steps, one thread.
RunOptions nfourbar_run(const std::string& stepper, double h, int steps) {
  RunOptions options;
  options.scenario = "nfourbar";
  options.configure().stepper = stepper;
  options.configure().h = h;
  options.configure().t_end = steps * h;
  options.threads = 1;
  options.overrides = {{"n", 40}};
  return options;
}

/// The run's largest energy change in one step, relative to its energy.
double largest_energy_step(const RunStatistics& stats) {
  return stats.energy_max_abs_increment / std::abs(stats.energy_initial);
}

/// livens-em on the double four-bar (the parallelogram of two cells) with step h for `steps` steps:
/// |B0(t_end) - B0 exact| and the largest change of the energy in one step.
struct DoubleFourbarRun {
  double error, largest_energy_step;
};
DoubleFourbarRun double_fourbar_run(double h, int steps) {
  const Scenario& scenario = find_scenario("double-fourbar");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  LivensEnergyMomentum stepper(*model.system, {});
  State state = model.initial;
  stepper.initialize(state);
  int stalled = 0, refined = 0;
  double energy = stepper.conserved_energy(state), largest_energy_step = 0.0;
  for (int n = 0; n < steps; ++n) {
    const StepReport report = stepper.step(state, h);
    stalled += report.stalled_residual > 0.0;
    refined += report.refinements > 0;
    const double next = stepper.conserved_energy(state);
    largest_energy_step = std::max(largest_energy_step, std::abs(next - energy));
    energy = next;
  }
  const System& system = *model.system;
  const auto q = [&](const char* label) { return state.q(system.find_coordinate(label).value()); };
  const Eigen::Vector2d b0(q("B1.phi.x") + 0.5 * q("B1.d1.x"), q("B1.phi.y") + 0.5 * q("B1.d1.y"));
  MESSAGE("h = ", h, ": stalled ", stalled, ", refined ", refined, ", energy ", energy);
  return {(b0 - work_precision::ParallelogramMotion(2).top_of_first_crank(state.t)).norm(), largest_energy_step};
}

}  // namespace

TEST_CASE("lobatto4 passes the N-four-bar's singular configuration 7e-7 s before a step's end") {
  // The splits keep the step's end, where every attempt failed (Newton at 2e-10 after 8 halvings).
  // The last attempt keeps Newton's updates off the near null space of the step's tangent.
  const RunOutcome r = run(nfourbar_run("lobatto4", kLobattoEndStep, 4630));
  const RunStatistics& stats = r.statistics;
  MESSAGE(r.ending.error.substr(0, 600), "; refined ", stats.refined_steps, ", stalled ", stats.newton_stalled_steps,
          ", largest energy step ", largest_energy_step(stats));
  REQUIRE(r.ok());
  CHECK(stats.newton_stalled_steps == 0);
  // The step through the crossing changes the energy by 2e-12 of it (its multipliers along the
  // lost rank are the warm start's), the others by 5e-14 of it at most.
  CHECK(largest_energy_step(stats) <= 1e-11);
}

TEST_CASE("livens-em's error on the double four-bar falls as h halves through a singular configuration at a step's end") {
  // Steps 73150 of h and 146300 of h/2 end 6e-8 s before the first crossing (t = 0.7143555): the
  // second stalled and was accepted, and the error at t = 0.75 grew from 4.3e-11 to 7.2e-10 as h
  // halved. Second order, it falls by 4 (3.2 measured: 4.5e-11 to 1.4e-11).
  const double h = 9.765625e-6;
  const double coarse = double_fourbar_run(h, 76800).error, fine = double_fourbar_run(h / 2, 153600).error;
  MESSAGE("B0 error at t = 0.75: ", coarse, " with h, ", fine, " with h/2");
  CHECK(fine <= coarse / 2);
}

TEST_CASE("lobatto4 passes the N-four-bar's singular configuration 7e-7 s from a step's middle node") {
  // Halving kept the failed step's middle as a node of its halves at every depth: Newton stalled at
  // a scaled residual of 1e-11 to 1e-10 there and the run failed at step 2310 after 8 halvings.
  const RunOutcome r = run(nfourbar_run("lobatto4", kLobattoStep, 2320));
  const RunStatistics& stats = r.statistics;
  MESSAGE(r.ending.error, "; refined ", stats.refined_steps, ", stalled ", stats.newton_stalled_steps,
          ", largest energy step ", largest_energy_step(stats));
  REQUIRE(r.ok());
  CHECK(stats.newton_stalled_steps == 0);
  // lobatto4 does not conserve the energy, but its steps change it by about 1e-14 of it here.
  CHECK(largest_energy_step(stats) <= 1e-13);
}

TEST_CASE("a Newton failure next to a singular configuration says that the mechanism is there") {
  // Without refinement and with 6 iterations lobatto4 fails at step 2310, whose start (1.6e-4 s
  // before the crossing) has a constraint Jacobian of full rank: the rank is looked at in the
  // step's middle too, where the crossing is.
  RunOptions options = nfourbar_run("lobatto4", kLobattoStep, 2320);
  options.configure().max_refinement_depth = 0;
  options.configure().newton.max_iterations = 6;
  const RunOutcome r = run(options);
  MESSAGE(r.ending.error.substr(0, 1500));
  REQUIRE_FALSE(r.ok());
  CHECK(r.statistics.steps == 2309);
  const std::string& error = r.ending.error;
  CHECK(error.find("the mechanism is at or near a singular configuration at t = 0.72158") != std::string::npos);
  CHECK(error.find("(the failing step's middle, predicted from the last good state at t = ") != std::string::npos);
  CHECK(error.find("the constraint Jacobian is (nearly) rank deficient (rank ") != std::string::npos);
  CHECK(error.find("a slightly different h") != std::string::npos);
}

TEST_CASE("em-ggl4 passes the N-four-bar's singular configuration 2.5e-6 s from a substep's end without a stalled step") {
  // The composition's inner node stays where it is when its substeps are halved; Newton stalled
  // there and the step changed the energy by 1.3e-12 of it. Split at a third, the composition's
  // nodes move off the crossing: no stalled step, and no energy step above 2.3e-13 of it.
  const RunOutcome r = run(nfourbar_run("em-ggl4", kCompositionStep, 600));
  const RunStatistics& stats = r.statistics;
  MESSAGE("refined ", stats.refined_steps, ", stalled ", stats.newton_stalled_steps, ", largest energy step ",
          largest_energy_step(stats));
  REQUIRE(r.ok());
  CHECK(stats.newton_stalled_steps == 0);
  CHECK(largest_energy_step(stats) <= 5e-13);
}

TEST_CASE("issue 40's runs of lobatto4 and em-ggl4 through nfourbar n = 40's singular configurations over 20 s" *
          doctest::test_suite("long")) {
  // lobatto4 at h = 3.125e-4 failed at t = 11.0719 (the crossing at 11.07203 lies 0.4978 of step
  // 35431 in: its middle node 7e-7 s away), then, split at a third, stalled at 2.6871875, whose end
  // lies 4.5e-6 s after the crossing at 2.687183; at h = 1.5625e-4 it failed at t = 11.0719 in
  // every attempt, step 70861 ending 7e-7 s after the crossing. Both complete without a stalled
  // step, their steps at those ends taken off the near null space (energy steps 4.9e-12 and
  // 1.9e-12 of the energy).
  for (const double h : {0.0003125, 0.00015625}) {
    const RunOutcome lobatto = run(nfourbar_run("lobatto4", h, static_cast<int>(std::lround(20.0 / h))));
    MESSAGE("lobatto4, h = ", h, ": ", lobatto.ending.error.substr(0, 600), "; stalled ",
            lobatto.statistics.newton_stalled_steps, ", largest energy step ", largest_energy_step(lobatto.statistics));
    REQUIRE(lobatto.ok());
    CHECK(lobatto.statistics.newton_stalled_steps == 0);
    CHECK(largest_energy_step(lobatto.statistics) <= 1e-11);
  }
  // em-ggl4 at h = 1.25e-3 stalled twice, once at the crossing at 15.00323 (its fourth substep's
  // end 2.5e-6 s before it) with an energy step of 2.9e-8, 4.6e-11 of the energy.
  const RunOutcome composition = run(nfourbar_run("em-ggl4", 0.00125, 16000));
  const RunStatistics& stats = composition.statistics;
  MESSAGE("em-ggl4: ", composition.ending.error, "; stalled ", stats.newton_stalled_steps, ", largest energy step ",
          largest_energy_step(stats));
  REQUIRE(composition.ok());
  CHECK(stats.newton_stalled_steps == 0);
  CHECK(largest_energy_step(stats) <= 1e-12);
}

TEST_CASE("livens-em takes the double four-bar through its first singular configuration alike whatever the rounding") {
  // Changing h by 1e-12 of it moves no node of the 76 800 steps to t = 0.75 by more than 1e-12 s,
  // but changes the rounding of every step. With g(q1) as the constraint rows, the multipliers
  // along the rank lost at the crossing (t = 0.714) took rounding's values, the energy jumped by
  // up to 1.5e-9 in one step and the B0 errors at t = 0.75 were 4.6e-11, 1.5e-10 and 1.3e-11: a
  // factor 11 apart. The rows Gbar dq + g(q0) / 100 (livens_em.hpp) hold the energy steps at its
  // rounding (2.5e-13 at most, of an energy of 35.8) and the errors within 14 % of each other.
  const double h = 9.765625e-6;
  double smallest = std::numeric_limits<double>::infinity(), largest = 0.0;
  for (const double change : {0.0, 1e-12, 2e-12}) {
    const DoubleFourbarRun r = double_fourbar_run(h * (1.0 + change), 76800);
    MESSAGE("h (1 + ", change, "): B0 error ", r.error, ", largest energy step ", r.largest_energy_step);
    CHECK(r.largest_energy_step <= 1e-12);
    smallest = std::min(smallest, r.error);
    largest = std::max(largest, r.error);
  }
  CHECK(largest <= 1.5 * smallest);
}

TEST_CASE("livens-em refines a warm start that meets the tolerance at a small step") {
  // At h = 2.44e-6 the warm start of steps 2 and 3 met the tolerance (scaled residual 4.4e-14,
  // max|R| 8e-11); accepted, they changed the energy by 1.9e-10 and 3.7e-10, and the error at
  // t = 0.75 grew to 3.2e-10. A scheme with a warm start refines it once (scheme_newton_options).
  const DoubleFourbarRun r = double_fourbar_run(2.44140625e-6, 10);
  MESSAGE("largest energy step ", r.largest_energy_step);
  CHECK(r.largest_energy_step <= 1e-12);
}

/// The slider-crank, its crank's angle prescribed by a driven revolute joint (apps/scenarios/
/// slider_crank.cpp): every stepper that takes rheonomic constraints follows the closed-form
/// slider position and keeps the discrete energy balance E_{n+1} - E_n = W_n (W_n the drive's
/// work) to Newton tolerance; the drive's reaction is the inverse-dynamics torque; the others
/// refuse the drive by name. And a driven joint with a constant profile moves as a fixed joint.
/// With drive=torque a PD motor turns the crank over several turns: it tracks theta0 + omega t
/// (its error wrapped into (-pi, pi]) with every stepper that takes actuators, with their balance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/reaction.hpp>
#include <noether/solvers/initial_values.hpp>
#include <noether/steppers/stepper_registry.hpp>
#include "support/finite_differences.hpp"
#include "support/run_and_measure.hpp"

using namespace noether;
using namespace noether::testing;

namespace {

/// The steppers with an exact discrete energy balance, and those that take drives without one.
const std::vector<std::string> kBalanceDrives{"livens-em", "em-ggl", "livens-em4", "livens-em6", "em-ggl4", "em-ggl6"};
const std::vector<std::string> kTakeDrives{"livens-em", "em-ggl", "livens-em4", "livens-em6", "em-ggl4",
                                           "em-ggl6",   "ggl-vi", "midpoint-vi", "evi",        "lobatto4"};
constexpr double r = 0.1, l = 0.3, omega = 2 * std::numbers::pi;

double closed_form_x(double theta) { return r * std::cos(theta) + std::sqrt(l * l - r * r * std::sin(theta) * std::sin(theta)); }

/// The kinetic energy per omega^2 (the effective inertia about the crank pivot) at crank angle
/// theta, from the closed-form kinematics of uniform bars of 1 kg and a slider of 1 kg that does
/// not turn: crank J = r^2/3 about the pivot; rod: its centre's speed and its angular rate.
double effective_inertia(double theta) {
  const double s = std::sin(theta), c = std::cos(theta), root = std::sqrt(l * l - r * r * s * s);
  const double x_rate = -r * s * (1.0 + r * c / root);                      // dx/dtheta
  const Eigen::Vector2d tip_rate(-r * s, r * c), slider_rate(x_rate, 0.0);  // d/dtheta
  const double rod_rate = -r * c / root;                                    // dbeta/dtheta, l sin(beta) = -r sin(theta)
  return r * r / 3.0 + (0.5 * (tip_rate + slider_rate)).squaredNorm() + l * l / 12.0 * rod_rate * rod_rate +
         x_rate * x_rate;
}

/// Inverse dynamics at constant omega: tau omega = dT/dt = 1/2 J'(theta) omega^3.
double drive_torque(double theta) {
  const double d = 1e-5;
  return 0.5 * (effective_inertia(theta + d) - effective_inertia(theta - d)) / (2 * d) * omega * omega;
}

double slider_x(const System& system, const State& state) {
  return state.q(system.block(system.find_block("slider")).offset);
}

/// The crank's angle from the world x axis (its d1), in (-pi, pi].
double crank_angle(const System& system, const State& state) {
  const Index d1 = system.block(system.find_block("crank")).offset + 2;
  return std::atan2(state.q(d1 + 1), state.q(d1));
}

}  // namespace

TEST_CASE("slider-crank: the slider follows the closed form with every stepper that takes drives, and E_{n+1} - E_n = "
          "W_n with the energy-consistent ones") {
  const Model model = build_scenario("slider-crank");
  const System& system = *model.system;
  for (const std::string& name : kTakeDrives) {
    CAPTURE(name);
    const auto stepper = find_stepper(name).make(system, {});
    State state = model.initial;
    stepper->initialize(state);
    double position_error = 0.0, balance = 0.0, work = 0.0, energy_scale = 0.0;
    double energy = stepper->conserved_energy(state);
    for (int n = 0; n < 100; ++n) {
      const StepReport report = stepper->step(state, 0.01);
      const double next = stepper->conserved_energy(state);
      balance = std::max(balance, std::abs(next - energy - report.work));
      energy_scale = std::max(energy_scale, std::abs(next));
      work += std::abs(report.work);
      energy = next;
      position_error = std::max(position_error, std::abs(slider_x(system, state) - closed_form_x(omega * state.t)));
    }
    CHECK(position_error < 1e-13);  // the motion is prescribed: the slider's position only waits for Newton
    CHECK(work > 0.1 * energy_scale);  // the drive does work: the balance is not met by a run at rest
    if (std::find(kBalanceDrives.begin(), kBalanceDrives.end(), name) != kBalanceDrives.end()) {
      CHECK(balance < 1e-13 * energy_scale * 10);  // Newton's relative tolerance 1e-13, over a handful of terms
    } else {
      // Their energy error against the impulses' work (measured 6.8e-5 J ggl-vi, 1.4e-5 J midpoint-vi
      // and evi, 2.2e-9 J lobatto4): small against the drive's work of a step (up to 0.03 J), so the
      // sign and size of the reported work are the drive's.
      CHECK(balance < 1e-3 * energy_scale);
    }
  }
}

TEST_CASE("slider-crank: the drive's reaction torque is the inverse-dynamics torque, and the drive's work its power") {
  const Model model = build_scenario("slider-crank");
  const System& system = *model.system;
  const double h = 1e-3;
  for (const std::string& name : {std::string("livens-em"), std::string("em-ggl")}) {
    CAPTURE(name);
    const auto stepper = find_stepper(name).make(system, {});
    State state = model.initial;
    stepper->initialize(state);
    // Per step: the reaction's and the work's deviations from the torque at the step's midpoint
    // (the step's multipliers act over the step).
    std::vector<double> torque_error, power_error;
    double torque_max = 0.0;
    for (int n = 0; n < 1000; ++n) {
      const double expected = drive_torque(omega * (state.t + 0.5 * h));
      const StepReport report = stepper->step(state, h);
      const std::vector<Reaction> reactions = joint_reactions(system, state);
      REQUIRE(reactions.back().joint == "crank");
      torque_error.push_back(reactions.back().moment.z() - expected);
      power_error.push_back(report.work / h - expected * omega);
      torque_max = std::max(torque_max, std::abs(expected));
    }
    // livens-em does not impose the velocity constraints: its multipliers alternate about the
    // torque from step to step by O(h) (2.8e-4 N m at h = 1e-3, half that at h/2), and the mean of
    // two steps is the torque; em-ggl's multiplier of each step is.
    const bool pairs = name == "livens-em";
    double largest_torque = 0.0, largest_power = 0.0;
    for (std::size_t n = 1; n < torque_error.size(); ++n) {
      const double torque = pairs ? 0.5 * (torque_error[n] + torque_error[n - 1]) : torque_error[n];
      const double power = pairs ? 0.5 * (power_error[n] + power_error[n - 1]) : power_error[n];
      largest_torque = std::max(largest_torque, std::abs(torque));
      largest_power = std::max(largest_power, std::abs(power));
    }
    MESSAGE(name << ": torque error " << largest_torque << ", power error " << largest_power << ", max torque "
                 << torque_max);
    CHECK(torque_max > 0.4);                        // 0.44 N m for these bars at one turn per second
    CHECK(largest_torque < 2e-5 * torque_max);      // O(h^2)
    CHECK(largest_power < 2e-4 * torque_max * omega);
  }
}

TEST_CASE("slider-crank: a stepper that does not take drives refuses, naming itself and the driven joint") {
  const Model model = build_scenario("slider-crank");
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    if (std::find(kTakeDrives.begin(), kTakeDrives.end(), info.name) != kTakeDrives.end()) {
      CHECK_NOTHROW(info.make(*model.system, {}));
      continue;
    }
    const std::string refusal =
        info.name + " does not take time-dependent constraints g(q, t) = 0, but constraint 'crank' is one";
    CHECK_THROWS_WITH_AS(info.make(*model.system, {}), doctest::Contains(refusal.c_str()), StepperRefusal);
  }
}

namespace {

/// Two bars under gravity: A hinged to the ground at its end, B held to A at A's other end at the
/// relative angle `angle`, by a planar fixed joint or by a driven revolute joint of constant profile.
Model two_bars(bool driven, double angle) {
  ModelDescription d;
  const auto planar = [](double x, double y) { return Vector(Eigen::Vector2d(x, y)); };
  const PlanarBodyProperties bar{1.0, Eigen::Vector2d::Zero(), 1.0 / 12.0};
  const Eigen::Vector2d end(1.0, 0.0);
  const Eigen::Vector2d b_centre = end + 0.5 * Eigen::Vector2d(std::cos(angle), std::sin(angle));
  d.bodies = {PlanarBodyDescription{"A", bar, {0.5, 0.0, 0.0}, {}},
              PlanarBodyDescription{"B", bar, {b_centre.x(), b_centre.y(), angle}, {}}};
  d.joints = {{"pivot", &joint_kinds::revolute_planar, {"", planar(0, 0), {}, {}}, {"A", planar(-0.5, 0), {}, {}}}};
  if (driven) {
    d.drives = {DriveDescription{"elbow", DriveKind::revolute, {"A", planar(0.5, 0), {}, {}}, {"B", planar(-0.5, 0), {}, {}},
                                 {ConstantProfile{angle}}}};
  } else {
    // u_A . n_B = 0 with u_A = (-sin f, cos f), n_B = planar_normal((0, -1)) = d1_B: the drive row
    // s cos f - c sin f = (cos f d2_A - sin f d1_A) . d1_B of a constant profile.
    d.joints.push_back({"elbow", &joint_kinds::fixed_planar, {"A", planar(0.5, 0), planar(-std::sin(angle), std::cos(angle)), {}},
                        {"B", planar(-0.5, 0), planar(0, -1), {}}});
  }
  d.forces = {GravityDescription{{}, planar(0, -9.81)}};
  return build_model(d);
}

}  // namespace

TEST_CASE("a driven revolute joint of constant profile moves as a fixed joint at that angle") {
  const double angle = 0.4;
  const Model fixed = two_bars(false, angle), driven = two_bars(true, angle);
  for (const std::string& name : kTakeDrives) {
    CAPTURE(name);
    const RunMeasures a = run_and_measure(fixed, name, 0.01, 1.0), b = run_and_measure(driven, name, 0.01, 1.0);
    const Vector moved = a.final_state.q - fixed.initial.q;
    CHECK(moved.cwiseAbs().maxCoeff() > 0.1);  // the compound pendulum swings
    CHECK((a.final_state.q - b.final_state.q).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(b.constraints.position < 1e-13);
  }
}

TEST_CASE("slider-crank: initial values are checked and projected at the state's time") {
  const Model model = build_scenario("slider-crank");
  const System& system = *model.system;
  const auto stepper = find_stepper("em-ggl").make(system, {});
  State state = model.initial;
  stepper->initialize(state);
  for (int n = 0; n < 10; ++n) stepper->step(state, 0.01);
  CHECK_NOTHROW(require_consistent_initial_values(system, state, "test"));  // at t = 0.1
  State at_zero = state;
  at_zero.t = 0.0;  // the same configuration is off the drive at t = 0
  CHECK_THROWS_WITH_AS(require_consistent_initial_values(system, at_zero, "test"),
                       doctest::Contains("the initial positions are off the constraints: constraint 'crank' row 2"),
                       InconsistentInitialValues);
  // Projected at t = 0.1 from a disturbed configuration and velocity: onto g(q, t) = 0, G v + g_t = 0.
  State disturbed = state;
  disturbed.q += 1e-4 * testing::random_vector(disturbed.q.size(), 5);
  disturbed.v += 1e-2 * testing::random_vector(disturbed.v.size(), 6);
  const InitialProjection projection = project_initial_state(system, disturbed);
  CHECK(projection.positions.row >= 0);
  CHECK(std::abs(slider_x(system, disturbed) - closed_form_x(omega * 0.1)) < 1e-12);
  CHECK(velocity_violation(system, disturbed.q, disturbed.v, disturbed.t).row < 0);
  CHECK(std::abs(disturbed.v(system.block(system.find_block("slider")).offset) - state.v(system.block(system.find_block("slider")).offset)) < 1e-10);
}

TEST_CASE("slider-crank, drive=torque: the PD motor turns the crank three times on theta = omega t, the slider near the "
          "closed form, with the energy balance of every stepper that takes actuators, and sem-vi refuses the motor") {
  const Scenario& scenario = find_scenario("slider-crank");
  const Model model = scenario.build(resolve_parameters(scenario, {{"drive", 1.0}}));  // torque: kp 400, kd 4
  const System& system = *model.system;
  const double pi = std::numbers::pi, h = 0.01;
  int taken = 0;
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    std::unique_ptr<Stepper> stepper;
    try {
      stepper = info.make(system, {});
    } catch (const StepperRefusal& refusal) {
      CHECK(info.name == "sem-vi");
      CHECK(std::string(refusal.what()).find("sem-vi: takes no actuators, and the system has actuator 'crank_motor'") == 0);
      continue;
    }
    ++taken;
    State state = model.initial;
    stepper->initialize(state);
    double energy = stepper->conserved_energy(state), angle = crank_angle(system, state), turn = 0.0;
    double tracking = 0.0, position_error = 0.0, balance = 0.0, energy_scale = 0.0, increment = 0.0;
    for (int n = 0; n < 300; ++n) {
      const StepReport report = stepper->step(state, h);
      const double next = stepper->conserved_energy(state), next_angle = crank_angle(system, state);
      balance = std::max(balance, std::abs(next - energy - report.work));
      increment = std::max(increment, std::abs(next - energy));
      energy_scale = std::max(energy_scale, std::abs(next));
      turn += std::remainder(next_angle - angle, 2 * pi);
      // The measured angle in (-pi, pi] against omega t, which runs to 6 pi: equal modulo 2 pi.
      tracking = std::max(tracking, std::abs(std::remainder(next_angle - omega * state.t, 2 * pi)));
      position_error = std::max(position_error, std::abs(slider_x(system, state) - closed_form_x(omega * state.t)));
      energy = next;
      angle = next_angle;
    }
    MESSAGE(info.name, ": turn ", turn, ", max tracking error ", tracking, " rad, slider ", position_error,
            " m from the closed form, max|E(n+1) - E(n) - W(n)| ", balance, " of max|E| ", energy_scale);
    CHECK(std::abs(turn - 6 * pi) < 2e-3);  // three turns, up to the tracking error at the end
    // The steady error of the PD law, torque / kp (0.44 N m / 400): measured 1.10e-3 rad and 9.4e-5 m (ggl-vi
    // 9.7e-5 m); the closed form's slope r = 0.1 m per rad bounds the slider's error by r times the angle's.
    CHECK(tracking < 1.2e-3);
    CHECK(position_error < 1.2e-4);
    CHECK(increment > 1e-3 * energy_scale);  // the motor does work that matters
    // Newton's tolerance (1e-13 on rows scaled to their terms) on energies of size max|E|.
    if (info.conserves_energy) CHECK(balance <= 1e-12 * energy_scale);
  }
  CHECK(taken == 10);  // all but sem-vi
}

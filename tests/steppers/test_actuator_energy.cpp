/// Actuators in the steppers: the discrete energy balance E(n+1) - E(n) = W(n) of every stepper that
/// takes them, with W(n) the actuators' work u (x(q1) - x(q0)); a constant torque's total work against
/// its closed form tau (theta_end - theta_0); and the clear refusal of every stepper that does not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <utility>

#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/joints/hinge_angle.hpp>
#include <noether/joints/joint_actuator.hpp>
#include <noether/joints/revolute_planar.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {
namespace {

/// A planar bar of length 1 m and 1 kg hanging from a pivot at the origin (revolute to the ground),
/// started at 0.4 rad from the downward vertical, under gravity, with a motor at the pivot.
Model motor_pendulum(ActuatorLawDescription law) {
  ModelDescription d;
  const double l = 1.0, angle = -std::numbers::pi / 2 + 0.4;  // d1 from the pivot towards the bar's end
  const Eigen::Vector2d axis(std::cos(angle), std::sin(angle));
  d.bodies = {PlanarBodyDescription{"bar", {1.0, Eigen::Vector2d::Zero(), l * l / 12.0}, {0.5 * l * axis.x(), 0.5 * l * axis.y(), angle}, {}}};
  d.joints = {{"pivot", &joint_kinds::revolute_planar, {"", Vector(Eigen::Vector2d(0, 0)), {}, {}},
               {"bar", Vector(Eigen::Vector2d(-l / 2, 0)), {}, {}}}};
  d.forces = {GravityDescription{{}, Vector(Eigen::Vector2d(0, -9.81))}};
  d.actuators = {ActuatorDescription{"motor", HingeDescription{"", {}, {}, "bar", {}}, std::move(law)}};
  return build_model(d);
}

/// The absolute angle of the bar (from the world x axis to its d1).
double bar_angle(const Model& model, const State& state) {
  const System& system = *model.system;
  const Index first = system.block(system.find_block("bar")).offset;
  const BodyRef bar{system.find_block("bar"), BodyKinematics(BodyKind::planar_director), "bar"};
  return HingeAngle::planar_from_ground(bar).angle(state.q.segment(first, 6));
}

struct Balance {
  double residual_max = 0.0, increment_max = 0.0, energy_scale = 0.0, work_total = 0.0;
  double turn = 0.0;  ///< sum of the bar's angle increments (unwrapped), for the pendulum
};

/// `steps` steps of `stepper` from the model's initial state: the balance's largest residual.
Balance measure(Stepper& stepper, const Model& model, double h, int steps, bool pendulum) {
  State state = model.initial;
  stepper.initialize(state);
  Balance b;
  double energy = stepper.conserved_energy(state), angle = pendulum ? bar_angle(model, state) : 0.0;
  for (int n = 0; n < steps; ++n) {
    const StepReport report = stepper.step(state, h);
    const double next = stepper.conserved_energy(state);
    b.residual_max = std::max(b.residual_max, std::abs(next - energy - report.work));
    b.increment_max = std::max(b.increment_max, std::abs(next - energy));
    b.energy_scale = std::max(b.energy_scale, std::abs(next));
    b.work_total += report.work;
    if (pendulum) {
      const double next_angle = bar_angle(model, state);
      b.turn += std::remainder(next_angle - angle, 2 * std::numbers::pi);
      angle = next_angle;
    }
    energy = next;
  }
  return b;
}

/// Every stepper of the registry on `model`: those that take actuators and conserve their energy keep
/// the balance to Newton's tolerance, those that do not conserve it (evi, midpoint-vi, ggl-vi, lobatto4) report its
/// residual, their energy error; `extra` checks the measure of every one that takes them; the others
/// refuse the model naming the actuator.
template <class Extra>
void check_every_stepper(const Model& model, double h, int steps, bool pendulum, Extra extra) {
  int taken = 0;
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    std::unique_ptr<Stepper> stepper;
    try {
      stepper = info.make(*model.system, {});
    } catch (const StepperRefusal& refusal) {
      CHECK(std::string(refusal.what()).find(info.name + ": takes no actuators, and the system has actuator") == 0);
      continue;
    }
    ++taken;
    const Balance b = measure(*stepper, model, h, steps, pendulum);
    MESSAGE(info.name, ": max|E(n+1) - E(n) - W(n)| = ", b.residual_max, ", max|E(n+1) - E(n)| = ", b.increment_max,
            ", W total ", b.work_total, ", max|E| ", b.energy_scale);
    CHECK(b.increment_max >= 1e-6 * b.energy_scale);  // the actuators do work that matters
    // Newton's tolerance (1e-13 on rows scaled to their terms) on energies of size max|E|.
    if (info.conserves_energy) CHECK(b.residual_max <= 1e-12 * b.energy_scale);
    extra(b);
  }
  CHECK(taken == 10);  // all but sem-vi: livens-em, em-ggl, their compositions, evi, midpoint-vi, ggl-vi, lobatto4
}

TEST_CASE("a constant motor torque on a pendulum: its work is tau times the turn, and the energy balance holds") {
  const double tau = 8.0;  // beyond m g l/2 = 4.9 N m: the bar goes over the top, its angle across +-pi
  const Model model = motor_pendulum(ProfileLawDescription{ConstantProfile{tau}});
  check_every_stepper(model, 0.01, 150, true, [&](const Balance& b) {
    // W = sum tau (theta(n+1) - theta(n)) = tau (theta_end - theta_0): the closed form of a constant torque's work.
    CHECK(std::abs(b.turn) > 2 * std::numbers::pi);
    CHECK(std::abs(b.work_total - tau * b.turn) <= 1e-12 * std::abs(tau * b.turn));
  });
}

TEST_CASE("a PD motor on a pendulum tracking a table: the energy balance holds and the tracking error is small") {
  const TableProfile reference{{0.0, 0.5, 1.0, 1.5}, {0.0, 0.8, 0.5, 0.5}};
  const Model model = motor_pendulum(PdLawDescription{400.0, 30.0, reference});
  check_every_stepper(model, 0.005, 300, true, [](const Balance&) {});
}

TEST_CASE("the robot arm: every stepper that takes actuators keeps its energy balance") {
  const Scenario& scenario = find_scenario("robot-arm");
  const Model model = build_model(scenario.describe(resolve_parameters(scenario, {})));
  check_every_stepper(model, scenario.run_defaults.h, 100, false, [](const Balance&) {});
}

/// A planar slider on a prismatic joint to the ground along (0.6, 0.8), under gravity, pushed along
/// the slide by a PD force towards r(t) = 0.2 sin(3 t): a scene file, as a user writes it.
constexpr const char* kSlider = R"({"noether_scene": 1, "name": "slider",
  "bodies": [{"type": "planar", "name": "slider", "mass": 2.0, "inertia": 0.1, "position": [0, 0]}],
  "joints": [{"type": "prismatic_planar", "name": "rail", "point_a": [0, 0], "axis_a": [0.6, 0.8],
              "body_b": "slider", "axis_b": [0.6, 0.8]}],
  "forces": [{"type": "gravity", "acceleration": [0, -9.81]}],
  "actuators": [{"type": "prismatic", "name": "push", "axis_a": [0.6, 0.8], "body_b": "slider",
                 "law": {"type": "pd", "kp": 300, "kd": 20,
                         "reference": {"type": "sine", "amplitude": 0.2, "angular_frequency": 3}}}],
  "run": {"h": 0.005, "t_end": 1}})";

TEST_CASE("a force along a prismatic joint from a scene file: the energy balance holds, the scene reads back") {
  const Scene scene = parse_scene(kSlider, "slider.json");
  CHECK(scene_json(parse_scene(scene_json(scene), "again.json")) == scene_json(scene));
  check_every_stepper(build_model(scene.model), 0.005, 200, false, [](const Balance&) {});
}

TEST_CASE("a scene's bad actuator law is refused at its JSON path, naming the value") {
  const auto with = [](const std::string& from, const std::string& to) {
    std::string text = kSlider;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  const auto refusal = [](const std::string& text) {
    try {
      parse_scene(text, "slider.json");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal(with("\"kp\": 300", "\"kp\": -300")).find("/actuators/0/law/kp") != std::string::npos);
  const std::string table = R"("reference": {"type": "table", "times": [0, 1, 0.5], "values": [0, 1, 2]})";
  const std::string out_of_order = refusal(with(R"("reference": {"type": "sine", "amplitude": 0.2, "angular_frequency": 3})", table));
  CHECK(out_of_order.find("/actuators/0/law/reference") != std::string::npos);
  CHECK(out_of_order.find("must increase strictly") != std::string::npos);
  CHECK(refusal(with("\"type\": \"pd\"", "\"type\": \"pid\"")).find("/actuators/0/law/type") != std::string::npos);
  const std::string long_axis = refusal(with("\"name\": \"push\", \"axis_a\": [0.6, 0.8]", "\"name\": \"push\", \"axis_a\": [1, 1]"));
  CHECK(long_axis.find("/actuators/0") != std::string::npos);
  CHECK(long_axis.find("unit length") != std::string::npos);
}

/// docs/api.md's motor: a planar link on a pivot (no gravity), driven by `law`; its end state after 100 steps of
/// livens-em, the largest residual of its energy balance and its total work.
struct ApiMotorRun {
  State state;
  double residual = 0.0, work = 0.0;
};
ApiMotorRun run_api_motor(const ActuatorLaw& law) {
  Mechanism m;
  // Turning about the pivot at 3 rad/s: the controller brakes it.
  const BodyRef link = m.add_planar_body("link", {1.0, Eigen::Vector2d::Zero(), 1.0 / 12}, {0.5, 0, 0}, {0, 1.5, 3.0});
  m.add(make_revolute_planar_to_ground("pivot", Eigen::Vector2d(0, 0), link, Eigen::Vector2d(-0.5, 0)));
  const auto angle = std::make_shared<HingeCoordinate>(HingeAngle::planar_from_ground(link));
  m.add(std::make_shared<JointActuator>("motor", angle, law));
  State state = m.initial_state();
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(m.system(), {});
  stepper->initialize(state);
  ApiMotorRun run;
  double energy = stepper->conserved_energy(state);
  for (int n = 0; n < 100; ++n) {
    const double work = stepper->step(state, 0.01).work, next = stepper->conserved_energy(state);
    run.residual = std::max(run.residual, std::abs(next - energy - work));
    run.work += work;
    energy = next;
  }
  run.state = state;
  return run;
}

TEST_CASE("a user's controller through the C++ API: with its derivatives, or by the finite-difference fallback") {
  // docs/api.md's saturated controller u = 2 tanh(-10 x - x_dot), with its exact partial derivatives.
  const ActuatorLaw exact = [](double, double x, double rate) {
    const double s = std::tanh(-10 * x - rate), ds = 1 - s * s;
    return ActuatorJet{2 * s, -20 * ds, -2 * ds};
  };
  const ActuatorLaw differenced = finite_difference_law(
      [](double, double x, double rate) { return 2 * std::tanh(-10 * x - rate); }, "motor");
  const ApiMotorRun with_derivatives = run_api_motor(exact), by_differences = run_api_motor(differenced);
  const double gap = (with_derivatives.state.q - by_differences.state.q).cwiseAbs().maxCoeff();
  MESSAGE("energy balance residuals ", with_derivatives.residual, " and ", by_differences.residual, "; work ",
          with_derivatives.work, "; largest difference of q ", gap);
  CHECK(with_derivatives.work < -0.1);  // the controller brakes the link (kinetic energy 1.5 J at the start)
  CHECK(with_derivatives.residual <= 1e-14);
  CHECK(by_differences.residual <= 1e-14);
  // The derivatives enter Newton's tangent only: both solve the same step equations to its tolerance.
  CHECK(gap <= 1e-12);
}

TEST_CASE("a user's controller that returns a non-finite torque stops the step, naming the actuator") {
  Model model = motor_pendulum(ProfileLawDescription{ConstantProfile{0.0}});
  const BodyRef bar{model.system->find_block("bar"), BodyKinematics(BodyKind::planar_director), "bar"};
  const ActuatorLaw broken = [](double t, double, double) {
    return ActuatorJet{t > 0.02 ? std::nan("") : 1.0, 0.0, 0.0};
  };
  model.system->add(std::make_shared<JointActuator>(
      "broken", std::make_shared<HingeCoordinate>(HingeAngle::planar_from_ground(bar)), broken));
  const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(*model.system, {});
  State state = model.initial;
  stepper->initialize(state);
  stepper->step(state, 0.01);  // t_mid = 0.005: finite
  CHECK_THROWS_WITH(stepper->step(state, 0.03), doctest::Contains("actuator 'broken'"));
}

}  // namespace
}  // namespace noether

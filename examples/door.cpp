/// A door on two hinges (docs/api.md): choosing a stepper by name, limiting the threads, setting
/// Newton's tolerance, and dropping the constraint equations that two hinges on one axis repeat.
/// The door turns at 1 rad/s about the vertical axis of its hinges; gravity is parallel to that
/// axis, so the energy and the angular momentum about it stay constant.
/// Usage: example_door [STEPPER] (a name `noether list` prints; livens-em by default). Exits with 1
/// unless the stepper keeps both (T + V, and J_z) to 1e-9 and the dropped equations stay met.
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <noether/noether.hpp>

using namespace noether;

namespace {

/// A door of 20 kg, 0.8 m wide (body axis d1), 0.04 m thick (d2) and 2 m high (d3), its hinged
/// edge on the world's z axis, hung by two revolute joints at heights 0.2 and 1.8 m.
Mechanism door_on_two_hinges() {
  const double m = 20, width = 0.8, thickness = 0.04, height = 2;
  const Eigen::Vector3d squares(width * width, thickness * thickness, height * height);
  const Eigen::Vector3d moments = m / 12 * Eigen::Vector3d(squares(1) + squares(2), squares(0) + squares(2),
                                                           squares(0) + squares(1));
  const RigidBodyProperties door{m, Eigen::Vector3d::Zero(), moments.asDiagonal()};
  const Eigen::Vector3d centre(width / 2, 0, height / 2), spin(0, 0, 1);

  Mechanism mechanism;
  const BodyRef body = mechanism.add_rigid_body("door", door, {centre}, {spin.cross(centre), spin});
  const Eigen::Vector3d axis(0, 0, 1);
  for (const double z : {0.2, 1.8}) {
    const std::string name = z < 1 ? "lower hinge" : "upper hinge";
    mechanism.add(make_revolute_to_ground(name, Eigen::Vector3d(0, 0, z), axis, body,
                                          Eigen::Vector3d(-width / 2, 0, z - height / 2), axis));
  }
  mechanism.add(std::make_shared<Gravity>("door.gravity", body, m, Eigen::Vector3d::Zero(), Eigen::Vector3d(0, 0, -9.81)));
  return mechanism;
}

int run(const std::string& stepper_name) {
  const ThreadLimit one_thread(1);

  const Mechanism mechanism = door_on_two_hinges();
  State state = mechanism.initial_state();

  const ConstraintRank redundancy = structural_redundancy(mechanism.system(), state.q);
  std::vector<Index> dropped;
  for (const DependentEquation& equation : redundancy.dependent) {
    std::printf("dropped: %s\n", describe_dependency(mechanism.system(), equation).c_str());
    dropped.push_back(equation.row);
  }
  const std::unique_ptr<System> system = without_equations(mechanism.system(), dropped);

  StepperOptions options;
  options.newton.residual_tolerance = 1e-12;  // relative: each row within 1e-12 of its terms' magnitude
  const std::unique_ptr<Stepper> stepper = find_stepper(stepper_name).make(*system, options);
  stepper->initialize(state);

  const BodyRef& door = mechanism.bodies()[0];
  const auto energy = [&] { return kinetic_energy(*system, state.q, state.v) + potential_energy(*system, state.q); };
  const double energy0 = energy();
  const double spin0 = body_momenta(*system, door, state.q, state.v).angular.z();
  for (int n = 0; n < 200; ++n) stepper->step(state, 0.01);

  const double energy_error = std::abs(energy() - energy0) / std::abs(energy0);
  const double spin_error = std::abs(body_momenta(*system, door, state.q, state.v).angular.z() - spin0) / spin0;
  Vector g(mechanism.system().num_multipliers());
  calc_constraint_values(mechanism.system(), state.q, g);  // every equation, the dropped ones too
  std::printf("%.*s, t = %g: %d of %d equations dropped; relative errors: energy %.1e, angular momentum %.1e; "
              "max |g| %.1e\n",
              static_cast<int>(stepper->name().size()), stepper->name().data(), state.t, static_cast<int>(dropped.size()), static_cast<int>(g.size()),
              energy_error, spin_error, max_abs(g));
  return energy_error <= 1e-9 && spin_error <= 1e-9 && max_abs(g) <= 1e-10 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc > 1 ? argv[1] : "livens-em");
  } catch (const std::exception& error) {  // an unknown name, a refusal, a failed step
    std::fprintf(stderr, "example_door: %s\n", error.what());
    return 1;
  }
}

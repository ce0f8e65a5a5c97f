#pragma once
/// Building mechanisms in a few lines: bodies from physical data and initial poses, then joints
/// and forces, then a System and its initial State for a stepper.
///
///   Mechanism mechanism;
///   const BodyRef top = mechanism.add_rigid_body("top", {m, c, J_c}, {position, R}, {velocity, omega});
///   mechanism.add(std::make_shared<SomeJoint>(..., top, ...));
///   LivensEnergyMomentum stepper(mechanism.system(), StepperOptions{});
///   State state = mechanism.initial_state();
///   stepper.initialize(state);
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <noether/bodies/body_properties.hpp>
#include <noether/bodies/kinematics.hpp>
#include <noether/engine/system.hpp>
#include <noether/engine/state.hpp>

namespace noether {

/// Placement of a 3D body: its origin phi in world coordinates and the rotation R whose columns
/// are the body axes in world coordinates (d_i = R e_i).
struct Pose3d {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();

  /// R from a unit quaternion (a non-unit one gives a non-orthonormal R, which add_rigid_body rejects).
  static Pose3d from_quaternion(const Eigen::Vector3d& position, const Eigen::Quaterniond& orientation) {
    return {position, orientation.toRotationMatrix()};
  }
};

/// Velocity of a 3D body: phi' = velocity (of the body origin) and d_i' = angular_velocity x d_i
/// (angular velocity in world axes).
struct Twist3d {
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();
};

/// Placement of a planar body: origin (x, y), d_1 = (cos angle, sin angle), d_2 = (-sin angle, cos angle).
struct PlanarPose {
  double x = 0.0, y = 0.0, angle = 0.0;
};

/// Velocity of a planar body: phi' = (vx, vy), d_i' = omega e_z x d_i.
struct PlanarTwist {
  double vx = 0.0, vy = 0.0, omega = 0.0;
};

/// What an add_*_body call adds besides the body's block and its initial values.
enum class BodyElements {
  own,   ///< the body's inertia and, for a director body, its orthonormality constraint
  none,  ///< nothing: a ghost, the block of a body another process owns, which its elements touch
         ///< (docs/distributed.md, "The partitioned model")
};

/// Owns a System being built and the initial (q0, v0), which grow as bodies are added.
/// Each body adds a block named after it, a DirectorInertia "<name>.inertia" and, for director
/// bodies, a DirectorOrthonormality "<name>.orthonormality". Every add validates its data before
/// touching the system and throws std::invalid_argument naming the body and the value.
///
/// Lifetimes: the System is owned by a std::shared_ptr, which a stepper made on system() shares
/// (engine/system.hpp): the stepper keeps working after the Mechanism is destroyed. A BodyRef
/// belongs to its Mechanism: another Mechanism's System refuses an element built from it. While
/// a stepper made on system() lives, every add throws std::logic_error (System::add).
///
/// Threads: a Mechanism is built by one thread; its system() is then shared read-only.
class Mechanism {
 public:
  Mechanism();

  /// A 3D director body: block of 12 "phi.x", ..., "d3.z"; rotation must be orthonormal with
  /// det R = +1 (max |R^T R - I| <= 1e-12).
  BodyRef add_rigid_body(std::string name, const RigidBodyProperties& properties, const Pose3d& pose = {},
                         const Twist3d& twist = {}, BodyElements elements = BodyElements::own);
  /// A planar director body: block of 6 "phi.x", "phi.y", "d1.x", "d1.y", "d2.x", "d2.y".
  BodyRef add_planar_body(std::string name, const PlanarBodyProperties& properties, const PlanarPose& pose = {},
                          const PlanarTwist& twist = {}, BodyElements elements = BodyElements::own);
  /// A point mass in space: block "x", "y", "z".
  BodyRef add_point_mass(std::string name, double mass, const Eigen::Vector3d& position,
                         const Eigen::Vector3d& velocity = Eigen::Vector3d::Zero(),
                         BodyElements elements = BodyElements::own);
  /// A point mass in the plane: block "x", "y".
  BodyRef add_planar_point_mass(std::string name, double mass, const Eigen::Vector2d& position,
                                const Eigen::Vector2d& velocity = Eigen::Vector2d::Zero(),
                                BodyElements elements = BodyElements::own);
  /// A block of further coordinates (not a body) with its initial values q0, v0 (one per name).
  BlockId add_coordinates(std::string name, std::vector<std::string> coordinate_names, const Vector& q0,
                          const Vector& v0);

  /// Joints, forces and any other elements: System::add.
  void add(std::shared_ptr<const Inertia> element) { live_system().add(std::move(element)); }
  void add(std::shared_ptr<const Potential> element) { live_system().add(std::move(element)); }
  void add(std::shared_ptr<const Constraint> element) { live_system().add(std::move(element)); }
  void add(std::shared_ptr<const Dissipation> element) { live_system().add(std::move(element)); }
  void add(std::shared_ptr<const ExternalLoad> element) { live_system().add(std::move(element)); }
  void add(std::shared_ptr<const Actuator> element) { live_system().add(std::move(element)); }

  const System& system() const;
  /// The bodies in the order they were added.
  std::span<const BodyRef> bodies() const { return bodies_; }
  /// {step 0, t 0, q0, v0}; p and lambda are left for the stepper's initialize().
  State initial_state() const;
  /// Hands the system over (e.g. to a scenario Model); the Mechanism is empty afterwards and
  /// every further call but initial_state() and bodies() throws std::logic_error.
  std::shared_ptr<System> release_system();

 private:
  /// Adds the block and, with BodyElements::own, the inertia and (for director bodies) the
  /// orthonormality constraint. Its coordinates are named as BodyKinematics::coordinate_names says.
  BodyRef add_body(std::string name, BodyKind kind, Matrix mass_coefficients, const Vector& q0, const Vector& v0,
                   BodyElements elements, MassPositivity positivity = MassPositivity::everywhere);
  /// The body's inertia and, for a director body, its orthonormality constraint.
  void add_own_elements(const std::string& name, BlockId block, const BodyKinematics& kinematics,
                        Matrix mass_coefficients, MassPositivity positivity);
  void append_initial_values(const Vector& q0, const Vector& v0);
  System& live_system();

  std::shared_ptr<System> system_;  ///< shared, so that steppers made on system() may outlive the Mechanism
  /// The initial q and v, body after body: vectors, whose growth is amortized (an Eigen vector
  /// resized per body would copy the whole of it each time, quadratic in the bodies).
  std::vector<double> q0_, v0_;
  std::vector<BodyRef> bodies_;
};

}  // namespace noether

#pragma once
/// A mechanism as data: bodies, inertias, joints, constraints, forces, probes and invariants, each
/// naming a library element and its data. build_model (model_builder.hpp) turns it into a Model by
/// calling the library's constructors in the description's order; every built-in scenario produces
/// one, and a scene file (docs/scenes.md) is one in JSON. The equations stay in the elements.
///
/// Bodies are referred to by name. Two-sided entries (joints, springs, dampers, hinges) have a side
/// A and a side B; an empty body_a means the ground, and side A's data (points, axes) are then world
/// coordinates. Points and axes of a body are in its body coordinates (x = phi + X_i d_i).
#include <string>
#include <variant>
#include <vector>

#include <Eigen/Core>

#include <noether/apps/model/conserved_momenta.hpp>
#include <noether/apps/model/joint_kinds.hpp>
#include <noether/bodies/body_properties.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/engine/discrete_gradients.hpp>
#include <noether/joints/quadratic_joint.hpp>
#include <noether/joints/time_profile.hpp>

namespace noether {

// ---- bodies --------------------------------------------------------------------------------

/// A 3D director body (Mechanism::add_rigid_body): block of 12, inertia, orthonormality.
struct RigidBodyDescription {
  std::string name;
  RigidBodyProperties properties;
  Pose3d pose;
  Twist3d twist;
};

/// A planar director body (Mechanism::add_planar_body): block of 6.
struct PlanarBodyDescription {
  std::string name;
  PlanarBodyProperties properties;
  PlanarPose pose;
  PlanarTwist twist;
};

/// A point mass in the plane (position and velocity of 2 entries) or in space (3).
struct PointMassDescription {
  std::string name;
  double mass = 0.0;
  Vector position, velocity;
};

/// A point mass in spherical coordinates q = (r, theta, phi), block "r", "theta", "phi", with the
/// inertia of bodies/spherical_point_mass.hpp.
struct SphericalPointMassDescription {
  std::string name;
  double mass = 0.0;
  Eigen::Vector3d position = Eigen::Vector3d::Zero(), velocity = Eigen::Vector3d::Zero();
};

/// Generalized coordinates without inertia of their own (MassMatrixDescription gives it).
struct CoordinatesDescription {
  std::string name;
  std::vector<std::string> coordinates;
  Vector position, velocity;  ///< one entry per coordinate
};

using BodyDescription = std::variant<RigidBodyDescription, PlanarBodyDescription, PointMassDescription,
                                     SphericalPointMassDescription, CoordinatesDescription>;

const std::string& name_of(const BodyDescription& body);

// ---- inertias ------------------------------------------------------------------------------

/// T = 1/2 v.M v over the coordinates of the listed bodies, concatenated (ConstantInertia).
struct MassMatrixDescription {
  std::string name;
  std::vector<std::string> bodies;
  Matrix matrix;
};

// ---- joints and constraints ----------------------------------------------------------------

/// A joint of a library kind (joint_kinds::revolute, ...) or a registered one (joint_kinds.hpp): its
/// kind says which attachment data its sides take and which numbers follow them.
struct JointDescription {
  std::string name;
  const JointKind* kind = &joint_kinds::spherical;
  JointSide a, b;
  std::vector<double> numbers = {};  ///< one per kind->numbers, in their order (distance: the length)
};

/// g_k(q) = c_k + l_k.q + 1/2 q^T H_k q on the listed bodies' coordinates (QuadraticJoint).
struct QuadraticConstraintDescription {
  std::string name;
  std::vector<std::string> bodies;
  std::vector<QuadraticEquation> equations;
};

/// Phi = sum_k a_k |r_first - r_second|^(2 p_k) - value = 0 on point masses (DistancePowerConstraint).
struct DistancePowerConstraintDescription {
  struct Term {
    std::string first, second;  ///< bodies of the list
    double coefficient = 1.0;
    int power = 1;
  };
  std::string name;
  std::vector<std::string> bodies;
  std::vector<Term> terms;
  double value = 0.0;
  DiscreteGradientKind derivative = DiscreteGradientKind::scaled_midpoint;
};

using ConstraintDescription = std::variant<QuadraticConstraintDescription, DistancePowerConstraintDescription>;

// ---- drives (prescribed motion) -------------------------------------------------------------

/// A prescribed motion, a rheonomic constraint g(q, t) = 0 (engine/constraint.hpp):
///   revolute   a revolute joint whose angle is profiles[0] (joints/driven_revolute.hpp); planar
///              bodies: the sides' points; 3D: points and axes;
///   prismatic  a prismatic joint whose slide is profiles[0] (joints/driven_prismatic.hpp); planar:
///              points and axes; 3D: joint frames (point, axis, normal);
///   point      body B's point follows the world trajectory profiles (one per component; side A
///              unused; joints/prescribed_point.hpp).
/// A driven joint replaces the plain joint of its kind (it holds that joint's rows).
enum class DriveKind { revolute, prismatic, point };
struct DriveDescription {
  std::string name;
  DriveKind kind = DriveKind::revolute;
  JointSide a, b;
  std::vector<TimeProfile> profiles;
};

// ---- forces --------------------------------------------------------------------------------

/// Uniform gravity: a Gravity element "<body>.gravity" on each listed body (empty: every director
/// body and Cartesian point mass, in the order of the bodies), with its mass and centre of mass.
struct GravityDescription {
  std::vector<std::string> bodies;
  Vector acceleration;
};

/// The two points of a spring or damper (ForcePointPair); an empty body_a is the ground.
struct PointPairDescription {
  std::string body_a;
  Vector point_a;
  std::string body_b;
  Vector point_b;
};

/// linear: W = 1/2 stiffness (L - rest_length)^2; green_strain: W = 1/2 stiffness eps^2 with the
/// Green strain eps = (L^2 - rest_length^2)/(2 rest_length^2) (stiffness = EA). PointSpring.
enum class SpringLawKind { linear, green_strain };
struct SpringDescription {
  std::string name;
  PointPairDescription points;
  SpringLawKind law = SpringLawKind::linear;
  double stiffness = 0.0, rest_length = 0.0;
};

/// PointDamper (the full relative velocity) or, axial, AxialPointDamper (the elongation rate).
struct DamperDescription {
  std::string name;
  PointPairDescription points;
  double damping = 0.0;
  bool axial = false;
};

/// The hinge angle a rotational spring or damper acts on (HingeAngle): planar bodies need no data
/// (the angle from d1 of A, or the world x axis, to d1 of B); 3D bodies give u_a, w_a (orthonormal,
/// normal to the hinge axis, on A or in the world) and u_b (unit, normal to the axis, on B).
struct HingeDescription {
  std::string body_a;
  Vector u_a, w_a;
  std::string body_b;
  Vector u_b;
};

/// RotationalSpring with w = 1/2 stiffness (theta - rest_angle)^2.
struct RotationalSpringDescription {
  std::string name;
  HingeDescription hinge;
  double stiffness = 0.0, rest_angle = 0.0;
};

/// RotationalDamper: G = 1/2 damping theta'^2.
struct RotationalDamperDescription {
  std::string name;
  HingeDescription hinge;
  double damping = 0.0;
};

/// PointForce F(t) = force * profile(t) at a body point (world frame).
struct PointForceDescription {
  std::string name, body;
  Vector point, force;
  TimeProfile profile = ConstantProfile{1.0};
};

/// BodyTorque M(t) = torque * profile(t) (3 entries in 3D, 1 planar).
struct TorqueDescription {
  std::string name, body;
  Vector torque;
  TimeProfile profile = ConstantProfile{1.0};
};

/// PolynomialPotential V = sum_k c_k (x - center)^k of the coordinate `coordinate` of a body.
struct PolynomialPotentialDescription {
  std::string name, body, coordinate;
  double center = 0.0;
  std::vector<double> coefficients;
};

/// ConstantDamping F = -C v over the coordinates of the listed bodies, concatenated.
struct DampingMatrixDescription {
  std::string name;
  std::vector<std::string> bodies;
  Matrix matrix;
};

using ForceDescription =
    std::variant<GravityDescription, SpringDescription, DamperDescription, RotationalSpringDescription,
                 RotationalDamperDescription, PointForceDescription, TorqueDescription, PolynomialPotentialDescription,
                 DampingMatrixDescription>;

// ---- actuators -----------------------------------------------------------------------------

/// The slide of a point of body B from a point of body A along A's unit axis (SlideCoordinate); an
/// empty body_a: the point and axis are fixed in the world.
struct SlideDescription {
  std::string body_a;
  Vector point_a, axis_a;
  std::string body_b;
  Vector point_b;
};

/// u(t) = the profile's value (profile_law).
struct ProfileLawDescription {
  TimeProfile profile;
};

/// u = -kp (x - r(t)) - kd (x_dot - r'(t)) (pd_law; for a hinge x - r taken into (-pi, pi]).
struct PdLawDescription {
  double kp = 0.0, kd = 0.0;
  TimeProfile reference;
};

using ActuatorLawDescription = std::variant<ProfileLawDescription, PdLawDescription>;

/// A JointActuator: a torque about a hinge (HingeDescription, its angle measured from zero_angle,
/// HingeAngle::shifted) or a force along a slide, by a law. Each actuator reports its law at every
/// output state, u(t, x, D x v), as the probe "actuator:<name>", and a PD actuator its tracking error
/// x - r(t) (coordinate_difference: for a hinge in (-pi, pi]) as "tracking_error:<name>".
struct ActuatorDescription {
  std::string name;
  std::variant<HingeDescription, SlideDescription> coordinate;
  ActuatorLawDescription law;
  double zero_angle = 0.0;  ///< hinges only
};

// ---- what a run reports --------------------------------------------------------------------

/// The world position of a body point (director body: point in body coordinates; point mass: empty
/// or zero; spherical point mass: empty, its Cartesian position).
struct PointProbeDescription {
  std::string name, body;
  Vector point;
};

/// A known function of time (a closed-form solution, say), written as NAME.x.
struct ProfileProbeDescription {
  std::string name;
  TimeProfile profile;
};

using ProbeDescription = std::variant<PointProbeDescription, ProfileProbeDescription>;

/// Momentum maps of the translations and rotations of the listed bodies (empty: all), from the
/// stepper's momenta p: linear L = sum of p over the bodies' positions (phi, or a point mass);
/// angular J = sum_a x_a x p_a over every vector of the bodies' coordinates (phi, d1, ... or the
/// point), about the world origin (its z component in the plane). Director bodies and Cartesian
/// point masses of one dimension.
enum class Momentum { linear, angular };
struct InvariantDescription {
  std::string name;
  Momentum momentum = Momentum::linear;
  std::vector<std::string> bodies;
};

struct ModelDescription {
  std::vector<BodyDescription> bodies;
  std::vector<MassMatrixDescription> inertias;
  std::vector<JointDescription> joints;
  std::vector<ConstraintDescription> constraints;
  std::vector<DriveDescription> drives;  ///< built after the constraints
  std::vector<ForceDescription> forces;
  std::vector<ActuatorDescription> actuators;
  std::vector<ProbeDescription> probes;
  std::vector<InvariantDescription> invariants;
  ConservedMomenta conserved_momenta;  ///< the momentum components the run reports (Model)
};

}  // namespace noether

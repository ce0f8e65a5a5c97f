#include <noether/bodies/mechanism.hpp>

#include <cmath>
#include <initializer_list>
#include <stdexcept>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include <noether/bodies/director_constraint.hpp>
#include <noether/bodies/director_inertia.hpp>
#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// Largest |R^T R - I| a pose rotation may have: round-off of rotations built from angles or
/// quaternions is ~1e-16, typed-in truncated entries are far above.
constexpr double kOrthonormalityTolerance = 1e-12;

void check_pose(const std::string& body, const Pose3d& pose, const Twist3d& twist) {
  if (!pose.position.allFinite() || !pose.rotation.allFinite() || !twist.velocity.allFinite() ||
      !twist.angular_velocity.allFinite())
    throw std::invalid_argument("body " + quote(body) + ": the pose or twist has a non-finite entry");
  const double defect = (pose.rotation.transpose() * pose.rotation - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff();
  if (defect > kOrthonormalityTolerance)
    throw std::invalid_argument("body " + quote(body) + ": the pose rotation is not orthonormal (max |R^T R - I| = " +
                                format_number(defect) + "); give a rotation matrix, e.g. a unit quaternion's toRotationMatrix()");
  if (pose.rotation.determinant() < 0.0)
    throw std::invalid_argument("body " + quote(body) +
                                ": the pose rotation is a reflection (det R = -1); give a proper rotation");
}

void check_finite(const std::string& body, std::initializer_list<double> values) {
  for (double value : values)
    if (!std::isfinite(value))
      throw std::invalid_argument("body " + quote(body) + ": the pose or twist has a non-finite entry");
}

}  // namespace

Mechanism::Mechanism() : system_(std::make_shared<System>()) {}

BodyRef Mechanism::add_rigid_body(std::string name, const RigidBodyProperties& properties, const Pose3d& pose,
                                  const Twist3d& twist, BodyElements elements) {
  Matrix coefficients = director_mass_coefficients(name, properties);
  check_pose(name, pose, twist);
  Vector q0(12), v0(12);
  q0.head<3>() = pose.position;
  v0.head<3>() = twist.velocity;
  for (Index i = 0; i < 3; ++i) {
    q0.segment<3>(3 * (i + 1)) = pose.rotation.col(i);
    v0.segment<3>(3 * (i + 1)) = twist.angular_velocity.cross(pose.rotation.col(i));
  }
  return add_body(std::move(name), BodyKind::director3d, std::move(coefficients), q0, v0, elements,
                  mass_positivity(properties));
}

BodyRef Mechanism::add_planar_body(std::string name, const PlanarBodyProperties& properties, const PlanarPose& pose,
                                   const PlanarTwist& twist, BodyElements elements) {
  Matrix coefficients = director_mass_coefficients(name, properties);
  check_finite(name, {pose.x, pose.y, pose.angle, twist.vx, twist.vy, twist.omega});
  const double c = std::cos(pose.angle), s = std::sin(pose.angle), w = twist.omega;
  Vector q0(6), v0(6);
  q0 << pose.x, pose.y, c, s, -s, c;
  v0 << twist.vx, twist.vy, -w * s, w * c, -w * c, -w * s;  // d_i' = omega (-d_i.y, d_i.x)
  return add_body(std::move(name), BodyKind::planar_director, std::move(coefficients), q0, v0, elements);
}

BodyRef Mechanism::add_point_mass(std::string name, double mass, const Eigen::Vector3d& position,
                                  const Eigen::Vector3d& velocity, BodyElements elements) {
  Matrix coefficients = point_mass_coefficients(name, mass);
  if (!position.allFinite() || !velocity.allFinite())
    throw std::invalid_argument("body " + quote(name) + ": the position or velocity has a non-finite entry");
  return add_body(std::move(name), BodyKind::point_mass3d, std::move(coefficients), position, velocity, elements);
}

BodyRef Mechanism::add_planar_point_mass(std::string name, double mass, const Eigen::Vector2d& position,
                                         const Eigen::Vector2d& velocity, BodyElements elements) {
  Matrix coefficients = point_mass_coefficients(name, mass);
  if (!position.allFinite() || !velocity.allFinite())
    throw std::invalid_argument("body " + quote(name) + ": the position or velocity has a non-finite entry");
  return add_body(std::move(name), BodyKind::point_mass2d, std::move(coefficients), position, velocity, elements);
}

BlockId Mechanism::add_coordinates(std::string name, std::vector<std::string> coordinate_names, const Vector& q0,
                                   const Vector& v0) {
  const auto size = static_cast<Index>(coordinate_names.size());
  if (q0.size() != size || v0.size() != size)
    throw std::invalid_argument("coordinates " + quote(name) + ": " + std::to_string(size) + " names but q0 has " +
                                std::to_string(q0.size()) + " and v0 " + std::to_string(v0.size()) + " entries");
  const BlockId block = live_system().add_block(std::move(name), std::move(coordinate_names));
  append_initial_values(q0, v0);
  return block;
}

BodyRef Mechanism::add_body(std::string name, BodyKind kind, Matrix mass_coefficients, const Vector& q0,
                            const Vector& v0, BodyElements elements, MassPositivity positivity) {
  const BodyKinematics kinematics(kind);
  const BlockId block = live_system().add_block(name, kinematics.coordinate_names());
  append_initial_values(q0, v0);
  if (elements == BodyElements::own) add_own_elements(name, block, kinematics, std::move(mass_coefficients), positivity);
  bodies_.push_back(BodyRef{block, kinematics, std::move(name)});
  return bodies_.back();
}

void Mechanism::add_own_elements(const std::string& name, BlockId block, const BodyKinematics& kinematics,
                                 Matrix mass_coefficients, MassPositivity positivity) {
  system_->add(std::make_shared<DirectorInertia>(name + ".inertia", block, kinematics.dimension(),
                                                 std::move(mass_coefficients), positivity));
  if (kinematics.has_directors())
    system_->add(std::make_shared<DirectorOrthonormality>(name + ".orthonormality", block, kinematics.dimension()));
}

void Mechanism::append_initial_values(const Vector& q0, const Vector& v0) {
  q0_.insert(q0_.end(), q0.begin(), q0.end());
  v0_.insert(v0_.end(), v0.begin(), v0.end());
}

const System& Mechanism::system() const {
  if (!system_)
    throw std::logic_error("mechanism: the system was released; keep the pointer release_system() returned");
  return *system_;
}

System& Mechanism::live_system() {
  if (!system_) throw std::logic_error("mechanism: the system was released; build a new Mechanism to add elements");
  return *system_;
}

State Mechanism::initial_state() const {
  State state;
  state.q = Eigen::Map<const Vector>(q0_.data(), static_cast<Index>(q0_.size()));
  state.v = Eigen::Map<const Vector>(v0_.data(), static_cast<Index>(v0_.size()));
  return state;
}

std::shared_ptr<System> Mechanism::release_system() {
  if (!system_) throw std::logic_error("mechanism: the system was released already");
  return std::move(system_);
}

}  // namespace noether

#include <noether/apps/scene_element_reader.hpp>

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>

#include <Eigen/Geometry>

#include <noether/apps/scene_names.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

using namespace scene_names;

const ParameterRange kPositive = ParameterRange::positive(), kNonnegative = ParameterRange::nonnegative();

Vector or_zero(Vector v, Index size) { return v.size() == 0 ? Vector(Vector::Zero(size)) : v; }

/// The orientation of a rigid body: at most one of rotation (rows of R), quaternion (w, x, y, z;
/// normalized), axis_angle {axis, angle}; the identity when none is given.
Eigen::Matrix3d read_orientation(JsonObject& o) {
  const bool rotation = o.has("rotation"), quaternion = o.has("quaternion"), axis_angle = o.has("axis_angle");
  if (rotation + quaternion + axis_angle > 1)
    throw JsonInputError(o.path(), "give the orientation once: rotation, quaternion or axis_angle");
  if (rotation) return o.matrix("rotation", "the rotation matrix, rows; its columns are d1, d2, d3", 3, 3);
  if (quaternion) {
    const Vector w = o.vector("quaternion", "w, x, y, z", 4);
    if (w.norm() < 1e-12) throw JsonInputError(o.path("quaternion"), "a rotation needs a non-zero quaternion");
    return Eigen::Quaterniond(w(0), w(1), w(2), w(3)).normalized().toRotationMatrix();
  }
  if (axis_angle) {
    JsonObject a = o.object("axis_angle", "an axis and an angle");
    const Vector axis = a.vector("axis", "the rotation axis (world)", 3);
    const double angle = a.number("angle", "the angle in radians");
    a.finish();
    if (axis.norm() < 1e-12) throw JsonInputError(o.path("axis_angle") + "/axis", "the rotation axis must not be zero");
    return Eigen::AngleAxisd(angle, Eigen::Vector3d(axis.normalized())).toRotationMatrix();
  }
  return Eigen::Matrix3d::Identity();
}

/// J_c as a 3 x 3 matrix (rows) or its principal moments [J1, J2, J3].
Eigen::Matrix3d read_inertia(JsonObject& o) {
  const nlohmann::json& value = o.at("inertia", "J about the centre of mass: 3 x 3 rows, or [J1, J2, J3]");
  if (value.is_array() && !value.empty() && value[0].is_number())
    return Eigen::Vector3d(json_vector(value, o.path("inertia"), 3)).asDiagonal();
  return o.matrix("inertia", "J about the centre of mass", 3, 3);
}

BodyDescription read_body(JsonObject& o) {
  const std::string name = o.text("name", "the body's name");
  const std::string type = o.choice("type", kBodyTypes);
  o.describe_as("a body of type " + type);
  if (type == "rigid") {
    RigidBodyDescription b{name, {}, {}, {}};
    b.properties.mass = o.number("mass", "kg", kPositive);
    b.properties.center_of_mass = or_zero(o.vector_or_empty("center_of_mass", 3), 3);
    b.properties.inertia = read_inertia(o);
    b.pose.position = or_zero(o.vector_or_empty("position", 3), 3);
    b.pose.rotation = read_orientation(o);
    b.twist.velocity = or_zero(o.vector_or_empty("velocity", 3), 3);
    b.twist.angular_velocity = or_zero(o.vector_or_empty("angular_velocity", 3), 3);
    return b;
  }
  if (type == "planar") {
    PlanarBodyDescription b{name, {}, {}, {}};
    b.properties.mass = o.number("mass", "kg", kPositive);
    b.properties.center_of_mass = or_zero(o.vector_or_empty("center_of_mass", 2), 2);
    b.properties.inertia = o.number("inertia", "J about the centre of mass", kNonnegative);
    const Vector position = or_zero(o.vector_or_empty("position", 2), 2), velocity = or_zero(o.vector_or_empty("velocity", 2), 2);
    b.pose = {position(0), position(1), o.number_or("angle", 0.0)};
    b.twist = {velocity(0), velocity(1), o.number_or("angular_velocity", 0.0)};
    return b;
  }
  if (type == "point_mass") {
    PointMassDescription b{name, o.number("mass", "kg", kPositive), o.vector("position", "2 or 3 coordinates"), {}};
    b.velocity = or_zero(o.vector_or_empty("velocity", b.position.size()), b.position.size());
    return b;
  }
  if (type == "spherical_point_mass") {
    SphericalPointMassDescription b{name, o.number("mass", "kg", kPositive), {}, {}};
    b.position = o.vector("position", "r, theta, phi", 3);
    b.velocity = or_zero(o.vector_or_empty("velocity", 3), 3);
    return b;
  }
  CoordinatesDescription b{name, o.texts("coordinates", "the coordinates' names"), {}, {}};
  const auto n = static_cast<Index>(b.coordinates.size());
  b.position = o.vector("position", "one value per coordinate", n);
  b.velocity = or_zero(o.vector_or_empty("velocity", n), n);
  return b;
}

MassMatrixDescription read_inertia_entry(JsonObject& o) {
  return {o.text("name", "the element's name"), o.texts("bodies", "the bodies whose coordinates M spans"),
          o.matrix("matrix", "M, rows")};
}

/// An attachment datum a joint kind's side takes: absent, optional or required.
Vector read_datum(JsonObject& o, const std::string& key, Takes takes, const std::string& meaning) {
  if (takes == Takes::no) return {};
  return takes == Takes::optional ? o.vector_or_empty(key) : o.vector(key, meaning);
}

/// One side of a joint: body_x (absent for side A: the ground) and the point_x, axis_x, normal_x
/// its kind takes.
JointSide read_side(JsonObject& o, char side, const JointSideData& takes) {
  const std::string s(1, side);
  JointSide j;
  if (side == 'a') j.body = o.text_or("body_a", "");
  else j.body = o.text("body_b", "the body of side B");
  j.point = read_datum(o, "point_" + s, takes.point, "the joint point of side " + s);
  j.axis = read_datum(o, "axis_" + s, takes.axis, "the joint axis of side " + s);
  j.normal = read_datum(o, "normal_" + s, takes.normal, "the frame's second direction on side " + s);
  return j;
}

ParameterRange range_of(NumberSign sign) {
  switch (sign) {
    case NumberSign::positive: return kPositive;
    case NumberSign::nonnegative: return kNonnegative;
    case NumberSign::any: break;
  }
  return ParameterRange::any();
}

/// A joint of any of joint_kinds::all(), its keys as its descriptor lists them.
JointDescription read_joint(JsonObject& o) {
  JointDescription j;
  j.name = o.text("name", "the joint's name");
  const std::vector<const JointKind*> kinds = joint_kinds::all();
  std::vector<std::string_view> names;
  for (const JointKind* kind : kinds) names.push_back(kind->name);
  const std::string type = o.choice("type", names);
  o.describe_as("a joint of type " + type);
  j.kind = kinds[static_cast<std::size_t>(std::find(names.begin(), names.end(), type) - names.begin())];
  j.a = read_side(o, 'a', j.kind->a);
  j.b = read_side(o, 'b', j.kind->b);
  for (const JointNumber& n : j.kind->numbers) j.numbers.push_back(o.number(n.key, n.meaning, range_of(n.sign)));
  return j;
}

QuadraticEquation read_equation(JsonObject& e) {
  QuadraticEquation q;
  q.constant = e.number_or("constant", 0.0);
  q.linear = e.vector_or_empty("linear");
  if (e.has("hessian")) q.hessian = e.matrix("hessian", "the symmetric Hessian, rows");
  return q;
}

ConstraintDescription read_constraint(JsonObject& o) {
  const std::string name = o.text("name", "the constraint's name");
  const std::string type = o.choice("type", kConstraintTypes);
  const std::vector<std::string> bodies = o.texts("bodies", "the bodies whose coordinates it acts on");
  if (type == "quadratic") {
    QuadraticConstraintDescription c{name, bodies, {}};
    o.each("equations", "an equation", [&](JsonObject& e, std::size_t) { c.equations.push_back(read_equation(e)); });
    const Eigen::Index n = [&] {
      Eigen::Index size = 0;
      for (const QuadraticEquation& q : c.equations) size = std::max<Eigen::Index>({size, q.linear.size(), q.hessian.rows()});
      return size;
    }();
    for (QuadraticEquation& q : c.equations) {  // absent parts are zero
      if (q.linear.size() == 0) q.linear = Vector::Zero(n);
      if (q.hessian.size() == 0) q.hessian = Matrix::Zero(n, n);
    }
    return c;
  }
  DistancePowerConstraintDescription c{name, bodies, {}, o.number("value", "c, the constant subtracted"), {}};
  const auto derivatives = derivative_names();
  c.derivative = kDerivativeKinds[index_of(derivatives, o.choice("derivative", derivatives, derivatives[0]))];
  o.each("terms", "a term", [&](JsonObject& t, std::size_t) {
    const std::vector<std::string> between = t.texts("between", "the two bodies");
    if (between.size() != 2) throw JsonInputError(t.path("between"), "names exactly two bodies");
    c.terms.push_back({between[0], between[1], t.number_or("coefficient", 1.0),
                       static_cast<int>(t.number("power", "p >= 1", ParameterRange::count(1, 64)))});
  });
  return c;
}

TimeProfile read_profile(JsonObject& o, std::string_view key) {
  if (!o.has(key)) return ConstantProfile{1.0};
  const nlohmann::json& value = o.at(key, "a profile");
  if (value.is_number()) return ConstantProfile{json_number(value, o.path(key), ParameterRange::any())};
  JsonObject p = o.object(key, "a profile");
  const std::string type = p.choice("type", kProfileTypes);
  TimeProfile profile;
  if (type == "constant") profile = ConstantProfile{p.number("value", "f")};
  if (type == "table") {
    const Vector times = p.vector("times", "increasing times"), values = p.vector("values", "one value per time");
    profile = TableProfile{{times.data(), times.data() + times.size()}, {values.data(), values.data() + values.size()}};
  }
  if (type == "sine")
    profile = SineProfile{p.number("amplitude", "A"), p.number("angular_frequency", "w, rad/s"), p.number_or("phase", 0.0),
                          p.number_or("offset", 0.0)};
  if (type == "damped_harmonic")
    profile = DampedHarmonicProfile{p.number("decay", "d, 1/s"), p.number("angular_frequency", "w, rad/s"),
                                    p.number("cosine_amplitude", "A"), p.number("sine_amplitude", "B")};
  if (type == "ramp") profile = RampProfile{p.number("rate", "the rate df/dt"), p.number_or("offset", 0.0)};
  p.finish();
  check_time_profile(profile, p.path());
  return profile;
}

/// A required profile (a drive's, an actuator law's): read_profile defaults a missing one to 1.
TimeProfile read_required_profile(JsonObject& o, std::string_view key, const std::string& meaning) {
  if (!o.has(key)) throw JsonInputError(o.path(key), "is missing: " + meaning);
  return read_profile(o, key);
}

/// A prescribed motion (DriveDescription): its type, the sides as a joint's (point, axis, normal,
/// each optional: the library names what a kind lacks), and its profiles: `profile` for a driven
/// joint, profile_x, profile_y (, profile_z: present for 3D) for a point.
DriveDescription read_drive(JsonObject& o) {
  DriveDescription d;
  d.name = o.text("name", "the drive's name");
  const std::string type = o.choice("type", kDriveTypes);
  o.describe_as("a drive of type " + type);
  d.kind = static_cast<DriveKind>(std::find(kDriveTypes.begin(), kDriveTypes.end(), type) - kDriveTypes.begin());
  const JointSideData any{Takes::optional, Takes::optional, Takes::optional};
  d.a = read_side(o, 'a', d.kind == DriveKind::point ? JointSideData{} : any);
  d.b = read_side(o, 'b', any);
  if (d.kind != DriveKind::point) {
    d.profiles.push_back(read_required_profile(
        o, "profile", d.kind == DriveKind::revolute ? "the angle f(t), rad" : "the displacement f(t)"));
    return d;
  }
  for (std::size_t k = 0; k < kTrajectoryKeys.size(); ++k)
    if (k < 2 || o.has(kTrajectoryKeys[k]))
      d.profiles.push_back(read_required_profile(o, kTrajectoryKeys[k], "the point's world coordinate in time"));
  return d;
}

PointPairDescription read_pair(JsonObject& o) {
  PointPairDescription p;
  p.body_a = o.text_or("body_a", "");
  p.point_a = o.vector_or_empty("point_a");
  p.body_b = o.text("body_b", "the body of side B");
  p.point_b = o.vector_or_empty("point_b");
  return p;
}

HingeDescription read_hinge(JsonObject& o) {
  HingeDescription h;
  h.body_a = o.text_or("body_a", "");
  h.u_a = o.vector_or_empty("u_a");
  h.w_a = o.vector_or_empty("w_a");
  h.body_b = o.text("body_b", "the body of side B");
  h.u_b = o.vector_or_empty("u_b");
  return h;
}

ForceDescription read_force(JsonObject& o) {
  const std::string type = o.choice("type", kForceTypes);
  o.describe_as("a force of type " + type);
  if (type == "gravity") return GravityDescription{o.texts_or_empty("bodies"), o.vector("acceleration", "g, world frame")};
  const std::string name = o.text("name", "the element's name");
  if (type == "spring") {
    SpringDescription s{name, read_pair(o), {}, 0.0, 0.0};
    s.law = value_named<SpringLawKind>(kSpringLaws, o.choice("law", kSpringLaws, kSpringLaws[0]));
    s.stiffness = o.number("stiffness", "k (linear) or EA (green_strain)", kNonnegative);
    s.rest_length = o.number("rest_length", "L0", s.law == SpringLawKind::linear ? kNonnegative : kPositive);
    return s;
  }
  if (type == "damper") {
    DamperDescription d{name, read_pair(o), o.number("damping", "eta", kNonnegative), false};
    d.axial = o.boolean_or("axial", false);
    return d;
  }
  if (type == "rotational_spring")
    return RotationalSpringDescription{name, read_hinge(o), o.number("stiffness", "k", kNonnegative),
                                       o.number_or("rest_angle", 0.0)};
  if (type == "rotational_damper")
    return RotationalDamperDescription{name, read_hinge(o), o.number("damping", "eta", kNonnegative)};
  if (type == "force") {
    PointForceDescription f{name, o.text("body", "the body it acts on"), o.vector_or_empty("point"),
                            o.vector("force", "F, world frame"), {}};
    f.profile = read_profile(o, "profile");
    return f;
  }
  if (type == "torque") {
    TorqueDescription t{name, o.text("body", "the body it acts on"), o.vector("torque", "M, world frame"), {}};
    t.profile = read_profile(o, "profile");
    return t;
  }
  if (type == "polynomial") {
    PolynomialPotentialDescription p{name, o.text("body", "the body"), o.text("coordinate", "the coordinate's name"),
                                     o.number_or("center", 0.0), {}};
    const Vector c = o.vector("coefficients", "c0, c1, ...");
    if (c.size() == 0) throw JsonInputError(o.path("coefficients"), "needs at least one coefficient");
    p.coefficients.assign(c.data(), c.data() + c.size());
    return p;
  }
  return DampingMatrixDescription{name, o.texts("bodies", "the bodies whose coordinates C spans"),
                                  o.matrix("matrix", "C, rows")};
}

ActuatorLawDescription read_actuator_law(JsonObject& o) {
  JsonObject law = o.object("law", "the actuator's law");
  const std::string type = law.choice("type", kActuatorLaws);
  law.describe_as("an actuator law of type " + type);
  ActuatorLawDescription out;
  if (type == "profile") out = ProfileLawDescription{read_required_profile(law, "profile", "u(t), the torque or force")};
  else
    out = PdLawDescription{law.number("kp", "the position gain", kNonnegative), law.number("kd", "the rate gain", kNonnegative),
                           read_required_profile(law, "reference", "r(t), the reference of the coordinate")};
  law.finish();
  return out;
}

ActuatorDescription read_actuator(JsonObject& o) {
  const std::string type = o.choice("type", kActuatorTypes);
  o.describe_as("an actuator of type " + type);
  ActuatorDescription a;
  a.name = o.text("name", "the actuator's name");
  if (type == "revolute") {
    a.coordinate = read_hinge(o);
    a.zero_angle = o.number_or("zero_angle", 0.0);
  } else {
    a.coordinate = SlideDescription{o.text_or("body_a", ""), o.vector_or_empty("point_a"),
                                    o.vector("axis_a", "the unit axis of the slide, on A or in the world"),
                                    o.text("body_b", "the body of side B"), o.vector_or_empty("point_b")};
  }
  a.law = read_actuator_law(o);
  return a;
}

ProbeDescription read_probe(JsonObject& o) {
  const std::string name = o.text("name", "the probe's name (its columns NAME.x, ...)");
  if (o.choice("type", kProbeTypes, "point") == "profile")
    return ProfileProbeDescription{name, read_profile(o, "profile")};
  return PointProbeDescription{name, o.text("body", "the body"), o.vector_or_empty("point")};
}

InvariantDescription read_invariant(JsonObject& o) {
  const std::string type = o.choice("type", kMomenta);
  return {o.text_or("name", type), value_named<Momentum>(kMomenta, type), o.texts_or_empty("bodies")};
}

/// The axes named in key ("x", "y", "z"), as flags.
std::array<bool, 3> read_axes(JsonObject& o, std::string_view key) {
  std::array<bool, 3> axes{};
  const std::vector<std::string> names = o.texts_or_empty(key);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::size_t axis = index_of(kAxes, names[i]);
    if (axis == kAxes.size())
      throw JsonInputError(o.path(key) + "/" + std::to_string(i), "expected an axis x, y or z, got " + quote(names[i]));
    axes[axis] = true;
  }
  return axes;
}

}  // namespace

ConservedMomenta read_conserved_momenta(JsonObject& o) {
  ConservedMomenta c;
  c.linear = read_axes(o, "linear");
  c.angular = read_axes(o, "angular");
  if (o.has("about")) c.about = o.vector("about", "the point the angular momentum is taken about", 3);
  return c;
}

namespace {

/// value as the alternative of `kind`'s list, which must be its type.
template <SceneListKind kind, class T>
SceneElement as_element(T value) {
  return SceneElement(std::in_place_index<static_cast<std::size_t>(kind)>, std::move(value));
}

}  // namespace

SceneElement read_element_of(SceneListKind kind, JsonObject& o) {
  using enum SceneListKind;
  switch (kind) {
    case bodies: return as_element<bodies>(read_body(o));
    case inertias: return as_element<inertias>(read_inertia_entry(o));
    case joints: return as_element<joints>(read_joint(o));
    case constraints: return as_element<constraints>(read_constraint(o));
    case drives: return as_element<drives>(read_drive(o));
    case forces: return as_element<forces>(read_force(o));
    case actuators: return as_element<actuators>(read_actuator(o));
    case probes: return as_element<probes>(read_probe(o));
    case invariants: return as_element<invariants>(read_invariant(o));
  }
  throw std::logic_error("read_element_of: a list kind out of range");
}

}  // namespace noether

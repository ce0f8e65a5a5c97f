/// Reading scene files (scene_file.hpp): every key of docs/scenes.md into a Scene, each error at
/// its JSON path. The names of kinds are scene_names.hpp's, which the writer shares; a joint's
/// keys are its kind's descriptor's (apps/model/joint_kinds.hpp).
#include <noether/apps/scene_file.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <variant>

#include <Eigen/Geometry>

#include <noether/apps/json_reader.hpp>
#include <noether/apps/mechanisms/memory_budget.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/run_settings.hpp>
#include <noether/apps/scene_elements.hpp>
#include <noether/apps/scene_names.hpp>
#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>
#include <noether/steppers/stepper_registry.hpp>

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

ConservedMomenta read_conserved_momenta(JsonObject& o) {
  ConservedMomenta c;
  c.linear = read_axes(o, "linear");
  c.angular = read_axes(o, "angular");
  if (o.has("about")) c.about = o.vector("about", "the point the angular momentum is taken about", 3);
  return c;
}

/// An object of a scene file that holds run settings: its path (the part of a RunSetting::scene_key
/// before the setting's own key), what it holds (for messages) and whether a scene must give it
/// ("run": h and t_end have no default).
struct SettingsObject {
  std::string_view path, what;
  bool required;
};
constexpr std::array<SettingsObject, 3> kSettingsObjects{{{"/run", "the run settings", true},
                                                          {"/run/newton", "Newton's settings", false},
                                                          {"/output", "the output settings", false}}};

/// The objects along the settings' scene keys, each opened when a setting in it is first read:
/// "/run/newton/tolerance" is the key "tolerance" of "/run/newton", the key "newton" of "/run". An
/// optional object the file leaves out reads as empty, so that its settings take their defaults.
class SettingsObjects {
 public:
  explicit SettingsObjects(JsonObject& root) : root_(root) {}

  /// The object that holds the setting's key.
  JsonObject& of(const RunSetting& setting) {
    return at(setting.scene_key.substr(0, setting.scene_key.rfind('/')));
  }

  /// Refuses the keys no setting named, innermost object first.
  void finish() const {
    for (auto o = opened_.rbegin(); o != opened_.rend(); ++o) o->second.finish();
  }

 private:
  JsonObject& at(std::string_view path) {
    if (path.empty()) return root_;
    if (const auto found = opened_.find(path); found != opened_.end()) return found->second;
    const auto object = std::find_if(kSettingsObjects.begin(), kSettingsObjects.end(),
                                     [&](const SettingsObject& o) { return o.path == path; });
    if (object == kSettingsObjects.end())
      throw std::logic_error("no scene object '" + std::string(path) + "' for run settings: add it to kSettingsObjects");
    JsonObject& parent = at(path.substr(0, path.rfind('/')));
    const std::string_view key = path.substr(path.rfind('/') + 1);
    static const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json& value = object->required || parent.has(key) ? parent.at(key, object->what) : empty;
    return opened_.emplace(std::string(path), JsonObject(value, parent.path(key), std::string(object->what))).first->second;
  }

  JsonObject& root_;
  std::map<std::string, JsonObject, std::less<>> opened_;  // by path: "/run" before "/run/newton"
};

/// The last part of a setting's scene key ("/run/newton/tolerance": "tolerance"), the key within
/// its object.
std::string_view key_of(const RunSetting& setting) {
  return setting.scene_key.substr(setting.scene_key.rfind('/') + 1);
}

/// The whole-number setting named `name`, in the setting's range; `value` when absent.
int read_whole(SettingsObjects& objects, std::string_view name, int value) {
  const RunSetting& setting = run_setting(name);
  const ParameterRange& range = setting.values.range;
  return objects.of(setting).whole_or(key_of(setting), value, static_cast<int>(range.low), static_cast<int>(range.high));
}

/// The number setting named `name`, in the setting's range; `value` when absent.
double read_number(SettingsObjects& objects, std::string_view name, double value) {
  const RunSetting& setting = run_setting(name);
  return objects.of(setting).number_or(key_of(setting), value, setting.values.range);
}

/// The number setting named `name`, in the setting's range; required.
double read_required_number(SettingsObjects& objects, std::string_view name, std::string_view meaning) {
  const RunSetting& setting = run_setting(name);
  return objects.of(setting).number(key_of(setting), meaning, setting.values.range);
}

/// The choice setting named `name`; `value` when absent.
std::string read_choice(SettingsObjects& objects, std::string_view name, std::string_view value) {
  const RunSetting& setting = run_setting(name);
  return objects.of(setting).choice(key_of(setting), setting.values.choices, value);
}

/// The stepper's own parameters, those it declares (SchemeParameter).
void read_scheme_parameters(SettingsObjects& objects, RunConfiguration& run) {
  const RunSetting& setting = run_setting("stepper_parameters");
  JsonObject& parent = objects.of(setting);
  if (!parent.has(key_of(setting))) return;
  JsonObject p = parent.object(key_of(setting), "stepper " + run.stepper);
  for (const SchemeParameter& declared : find_stepper(run.stepper).parameters)
    if (p.has(declared.name)) run.scheme_parameters[std::string(declared.name)] = p.number(declared.name, declared.meaning);
  p.finish();
}

/// The run settings, each at its scene key; those absent keep RunConfiguration's defaults.
RunConfiguration read_run(SettingsObjects& objects) {
  RunConfiguration run;
  const RunSetting& stepper = run_setting("stepper");
  std::vector<std::string_view> stepper_names;
  for (const StepperInfo& s : steppers()) stepper_names.push_back(s.name);
  run.stepper = objects.of(stepper).choice(key_of(stepper), stepper_names, run.stepper);
  read_scheme_parameters(objects, run);
  run.solver = *parse_linear_solver_kind(read_choice(objects, "solver", to_string(run.solver)));
  run.ordering = *parse_fill_ordering(read_choice(objects, "ordering", to_string(run.ordering)));
  run.h = read_required_number(objects, "h", "the time step");
  run.t_end = read_required_number(objects, "t_end", "the end time");
  run.max_steps = read_whole(objects, "max_steps", run.max_steps);
  run.newton.modified = read_choice(objects, "newton_method", newton_method_name(run.newton)) == "modified";
  run.newton.residual_tolerance = read_number(objects, "newton_tolerance", run.newton.residual_tolerance);
  run.newton.max_iterations = read_whole(objects, "newton_max_iterations", run.newton.max_iterations);
  run.newton.refresh_contraction = read_number(objects, "newton_refresh", run.newton.refresh_contraction);
  run.max_refinement_depth = read_whole(objects, "refine_depth", run.max_refinement_depth);
  run.redundancy = read_choice(objects, "redundant", redundancy_name(run.redundancy)) == "drop"
                       ? RunConfiguration::Redundancy::drop
                       : RunConfiguration::Redundancy::refuse;
  return run;
}

/// The output settings into scene, each at its scene key; those absent keep Scene's defaults.
void read_output(SettingsObjects& objects, Scene& scene) {
  scene.output_every = read_whole(objects, "every", scene.output_every);
  const RunSetting& vtk = run_setting("vtk");
  scene.output_vtk = objects.of(vtk).boolean_or(key_of(vtk), scene.output_vtk);  // true or false in a scene
  scene.output_reactions = read_choice(objects, "reactions", scene.output_reactions ? "on" : "off") == "on";
  const RunSetting& directory = run_setting("output_directory");
  JsonObject& output = objects.of(directory);
  if (!output.has(key_of(directory))) return;
  const std::string path = output.text(key_of(directory), "the output directory");
  if (path.empty())
    throw JsonInputError(output.path(key_of(directory)), "an empty text names no directory; give one (\"out\"), or "
                                                         "leave the key out to write files only where --out says");
  scene.output_directory = path;
}

/// value as the alternative of `kind`'s list, which must be its type.
template <SceneListKind kind, class T>
SceneElement as_element(T value) {
  return SceneElement(std::in_place_index<static_cast<std::size_t>(kind)>, std::move(value));
}

/// An element of a list of `kind`, read.
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

/// The scene's lists, each element read as the parser completes it (ElementTaker) and handed to
/// `elements`, so that the document of a large scene is never held whole: 0.6 KB per 3D bar of
/// description instead of 6 KB of JSON, or less where elements keeps less. The first element
/// refused is kept, and reported once the format version is known to be this program's
/// (finish()): a scene of another version is refused as such, not for its first body.
class SceneLists {
 public:
  explicit SceneLists(SceneElements& elements) : elements_(elements) {}

  ElementTaker taker() {
    return {[](std::string_view key) { return find(key) != nullptr; },
            [this](std::string_view key, std::size_t index, const nlohmann::json& element) { take(*find(key), index, element); }};
  }

  /// Names each list's key as known to the scene's root, refusing one that is not an array (its
  /// elements were not taken); then rethrow_refused().
  void finish(JsonObject& root) const {
    for (const SceneListName& list : kSceneLists) root.array(list.key, list.what);
    rethrow_refused();
  }
  /// Rethrows the first element refused, if any.
  void rethrow_refused() const {
    if (refused_) std::rethrow_exception(refused_);
  }

 private:
  static const SceneListName* find(std::string_view key) {
    const auto at = std::ranges::find(kSceneLists, key, &SceneListName::key);
    return at == kSceneLists.end() ? nullptr : &*at;
  }

  void take(const SceneListName& list, std::size_t index, const nlohmann::json& element) {
    if (refused_ || !elements_.reads(list.kind, index)) return;
    try {
      JsonObject::read_element(element, "", list.key, index, list.what, [&](JsonObject& o) {
        elements_.add(index, read_element_of(list.kind, o));
      });
    } catch (const std::invalid_argument&) {
      refused_ = std::current_exception();
    }
  }

  SceneElements& elements_;
  std::exception_ptr refused_;
};

/// The rest of `scene` from its document, whose lists `lists` has read into scene.model as they
/// were parsed.
void read_scene(const nlohmann::json& document, const std::string& origin, const SceneLists& lists, Scene& scene) {
  JsonObject root(document, "", "a scene");
  const double version = root.number("noether_scene", "the format version, 1");
  if (version != kSceneFormatVersion)
    throw JsonInputError(root.path("noether_scene"), "this program reads scene format " +
                                                          std::to_string(kSceneFormatVersion) + ", got " + format_exact(version));
  lists.finish(root);
  scene.name = root.text_or("name", std::filesystem::path(origin).stem().string());
  if (const std::string hidden = hidden_character(scene.name); root.has("name") && !hidden.empty())
    throw JsonInputError(root.path("name"), "the scene's name " + quote(scene.name) + " holds " + hidden +
                                                "; a name must not contain a control or Unicode format character or a "
                                                "byte that is not UTF-8 (the printed summary shows it)");
  scene.description = root.text_or("description", "");
  ModelDescription& m = scene.model;
  if (root.has("conserved_momenta")) {
    JsonObject momenta = root.object("conserved_momenta", "the momentum components the run reports");
    m.conserved_momenta = read_conserved_momenta(momenta);
    momenta.finish();
  }
  SettingsObjects settings(root);
  scene.run = read_run(settings);
  read_output(settings, scene);
  settings.finish();
  root.finish();
}

/// Bounds on the bytes of memory that reading a scene file takes per byte of its text, with a
/// margin of about two over what a process of a run over two took as it read the chain3d,
/// chain2d and nfourbar scenes of 55 to 92 MB (docs/distributed.md, "Scene files over parts"):
/// the text and the description read from it, 2.4 to 3.5 bytes per byte beyond the process's own
/// 40 MB (the document is never whole: SceneLists), or, outlined, the text and the outline, 1.4 to 1.6.
constexpr double kSceneBytesPerTextByte = 8.0;
constexpr double kOutlinedSceneBytesPerTextByte = 3.0;

/// Refuses a scene too large for the memory the run's processes may use before it is built, as the
/// generated scenarios are (apps/mechanisms/memory_budget.hpp): the generators' measured peak per
/// bar of building and stepping, a 3D bar's for each rigid body and a planar bar's for any other
/// body (a point mass or a block of coordinates needs less; the estimate errs on the safe side).
void require_memory_for_scene(double rigid, double others) {
  const double bodies = rigid + others;
  require_memory_for_model(bodies, rigid * k3dBarPeakBytes + others * kPlanarBarPeakBytes,
                           "the model of " + std::to_string(std::llround(bodies)) + " bodies",
                           std::to_string(std::lround(k3dBarPeakBytes / 1e3)) + " KB per rigid body, " +
                               std::to_string(std::lround(kPlanarBarPeakBytes / 1e3)) + " KB per other body");
}

void require_memory_for_scene(const ModelDescription& m) {
  const auto rigid = static_cast<double>(std::count_if(m.bodies.begin(), m.bodies.end(), [](const BodyDescription& b) {
    return std::holds_alternative<RigidBodyDescription>(b);
  }));
  require_memory_for_scene(rigid, static_cast<double>(m.bodies.size()) - rigid);
}

/// "/joints/3/body_b" for the entry and field of a ModelDescriptionError ("terms[1]" -> "terms/1").
std::string json_path(const ModelDescriptionError& e) {
  std::string field = e.field();
  for (char& c : field)
    if (c == '[' || c == '.') c = '/';
  std::erase(field, ']');
  return "/" + e.section() + "/" + std::to_string(e.index()) + (field.empty() ? "" : "/" + field);
}

/// Refuses to read a scene of `bytes` bytes of JSON that would not fit in memory: checked before
/// parsing, since a document that runs out of memory part-way cannot be destroyed (its destructor
/// allocates), and ends the program.
void require_memory_for_text(std::uintmax_t bytes, const std::string& origin, SceneBuild build) {
  const double per_byte = build == SceneBuild::outlined ? kOutlinedSceneBytesPerTextByte : kSceneBytesPerTextByte;
  require_memory(per_byte * static_cast<double>(bytes),
                 "reading the scene " + quote(origin) + " (" + std::to_string(bytes / 1000000) + " MB of JSON)",
                 std::to_string(static_cast<int>(per_byte)) + " bytes per byte of JSON");
}

/// A scene's mechanism as a run over parts reads it: its outline, and each process's part read
/// again from `text` (ScenePartElements), which the model's copies keep.
PartedModel parted_scene(std::shared_ptr<const std::string> text, const std::string& origin, SceneOutline outline) {
  auto kept = std::make_shared<const SceneOutline>(std::move(outline));
  return {kept->outline, [text = std::move(text), origin, kept](const PartSelection& selection) {
            ScenePartElements elements(*kept, selection);
            SceneLists lists(elements);
            parse_json(*text, origin, lists.taker());  // the root's other keys were read with the outline
            try {
              lists.rethrow_refused();
            } catch (const std::invalid_argument& e) {
              throw std::invalid_argument(origin + ": " + e.what());
            }
            return elements.finish();
          }};
}

/// With SceneBuild::outlined, the scene's outline in place of its description (Scene::parted).
void outline_scene(SceneOutliner& outliner, std::shared_ptr<const std::string> text, const std::string& origin, Scene& scene) {
  SceneOutline outline = outliner.finish();
  require_memory_for_scene(outline.rigid_bodies, outline.other_bodies);
  outline.model_wide.conserved_momenta = scene.model.conserved_momenta;
  scene.model = outline.model_wide;
  scene.parted = parted_scene(std::move(text), origin, std::move(outline));
}

/// The scene of `text`; `owner`, when not null, holds it (an outlined scene keeps it).
Scene read_scene_text(std::string_view text, std::shared_ptr<const std::string> owner, const std::string& origin,
                      SceneBuild build) {
  require_memory_for_text(text.size(), origin, build);
  Scene scene;
  SceneDescription whole(scene.model);
  SceneOutliner outliner;
  SceneLists lists(build == SceneBuild::outlined ? static_cast<SceneElements&>(outliner) : whole);
  std::optional<nlohmann::json> document(parse_json(text, origin, lists.taker()));
  try {
    read_scene(*document, origin, lists, scene);
    document.reset();  // freed before the model is built, so that the two never lie side by side
    try {
      if (build == SceneBuild::outlined) {
        outline_scene(outliner, owner ? std::move(owner) : std::make_shared<const std::string>(text), origin, scene);
      } else {
        require_memory_for_scene(scene.model);
        if (build == SceneBuild::whole) scene.built = std::make_shared<const Model>(build_model(scene.model));
      }
    } catch (const ModelDescriptionError& e) {
      throw JsonInputError(json_path(e), e.message());
    }
    try {
      check_run_configuration(scene.run);
    } catch (const std::invalid_argument& e) {
      throw JsonInputError("/run", e.what());
    }
    return scene;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(origin + ": " + e.what());
  }
}

}  // namespace

Scene parse_scene(std::string_view text, const std::string& origin, SceneBuild build) {
  return read_scene_text(text, nullptr, origin, build);
}

Scene load_scene(const std::filesystem::path& path, SceneBuild build) {
  const std::string what = "cannot read the scene file " + quote(path.string());
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw std::invalid_argument(what + ": it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(what + " (" + std::strerror(errno) + ")");
  // A file too large is refused before it is read (not a pipe, whose size is known only after). The
  // text is read into a string of the file's size: a growing buffer (a stringstream's) would hold up
  // to three times the text at once as it doubles.
  std::string text;
  std::error_code no_size;
  if (const std::uintmax_t bytes = std::filesystem::file_size(path, no_size); !no_size) {
    require_memory_for_text(bytes, path.string(), build);
    text.reserve(static_cast<std::size_t>(bytes));
  }
  std::array<char, 1 << 16> buffer;
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) text.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw std::invalid_argument(what + " (" + std::strerror(errno) + ")");
  auto owned = std::make_shared<const std::string>(std::move(text));
  return read_scene_text(*owned, owned, path.string(), build);
}

bool is_scene_file_name(std::string_view argument) { return argument.ends_with(".json"); }

}  // namespace noether

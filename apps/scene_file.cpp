#include <noether/apps/scene_file.hpp>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <Eigen/Geometry>

#include <noether/apps/json_reader.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/engine/format.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::array<std::string_view, 5> kBodyTypes{"rigid", "planar", "point_mass", "spherical_point_mass",
                                                     "coordinates"};
constexpr std::array<std::string_view, 11> kJointTypes{"spherical",     "revolute",        "universal",
                                                       "cylindrical",   "prismatic",       "fixed",
                                                       "distance",      "perpendicular",   "revolute_planar",
                                                       "prismatic_planar", "fixed_planar"};
constexpr std::array<std::string_view, 9> kForceTypes{"gravity", "spring", "damper", "rotational_spring",
                                                      "rotational_damper", "force", "torque", "polynomial",
                                                      "damping_matrix"};
constexpr std::array<std::string_view, 4> kProfileTypes{"constant", "table", "sine", "damped_harmonic"};
constexpr std::array<std::string_view, 4> kDerivatives{"scaled-midpoint", "avf", "gonzalez", "partitioned"};
constexpr std::array<DiscreteGradientKind, 4> kDerivativeKinds{
    DiscreteGradientKind::scaled_midpoint, DiscreteGradientKind::average_vector_field, DiscreteGradientKind::gonzalez,
    DiscreteGradientKind::partitioned};

template <std::size_t N>
std::size_t index_of(const std::array<std::string_view, N>& names, std::string_view name) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

const ParameterRange kPositive = ParameterRange::positive(), kNonnegative = ParameterRange::nonnegative();

// ================================ reading ================================================

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

/// One side of a joint: body_x (absent: the ground), point_x and, as the type needs, axis_x, normal_x.
JointSide read_side(JsonObject& o, char side, bool point, bool axis, bool normal) {
  const std::string s(1, side);
  JointSide j;
  if (side == 'a') j.body = o.text_or("body_a", "");
  else j.body = o.text("body_b", "the body of side B");
  if (point) j.point = o.vector_or_empty("point_" + s);
  if (axis) j.axis = o.vector("axis_" + s, "the joint axis of side " + s);
  if (normal) j.normal = o.vector("normal_" + s, "the frame's second direction on side " + s);
  return j;
}

JointDescription read_joint(JsonObject& o) {
  JointDescription j;
  j.name = o.text("name", "the joint's name");
  const std::string type = o.choice("type", kJointTypes);
  o.describe_as("a joint of type " + type);
  j.type = static_cast<JointType>(index_of(kJointTypes, type));
  const bool point = j.type != JointType::perpendicular;
  const bool frame = j.type == JointType::prismatic || j.type == JointType::fixed;
  const bool axis = frame || j.type == JointType::revolute || j.type == JointType::universal ||
                    j.type == JointType::cylindrical || j.type == JointType::perpendicular ||
                    j.type == JointType::prismatic_planar || j.type == JointType::fixed_planar;
  j.a = read_side(o, 'a', point, axis, frame);
  j.b = read_side(o, 'b', point, axis, frame);
  if (j.type == JointType::distance) j.length = o.number("length", "the distance kept", kPositive);
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
  const std::string type = o.choice("type", std::array<std::string_view, 2>{"quadratic", "distance_power"});
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
  c.derivative = kDerivativeKinds[index_of(kDerivatives, o.choice("derivative", kDerivatives, "scaled-midpoint"))];
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
  p.finish();
  check_time_profile(profile, p.path());
  return profile;
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
    s.law = o.choice("law", std::array<std::string_view, 2>{"linear", "green_strain"}, "linear") == "linear"
                ? SpringLawKind::linear
                : SpringLawKind::green_strain;
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

ProbeDescription read_probe(JsonObject& o) {
  const std::string name = o.text("name", "the probe's name (its columns NAME.x, ...)");
  if (o.choice("type", std::array<std::string_view, 2>{"point", "profile"}, "point") == "profile")
    return ProfileProbeDescription{name, read_profile(o, "profile")};
  return PointProbeDescription{name, o.text("body", "the body"), o.vector_or_empty("point")};
}

InvariantDescription read_invariant(JsonObject& o) {
  const std::string type = o.choice("type", std::array<std::string_view, 2>{"linear_momentum", "angular_momentum"});
  return {o.text_or("name", type), type == "linear_momentum" ? Momentum::linear : Momentum::angular,
          o.texts_or_empty("bodies")};
}

/// The axes named in key ("x", "y", "z"), as flags.
std::array<bool, 3> read_axes(JsonObject& o, std::string_view key) {
  std::array<bool, 3> axes{};
  const std::vector<std::string> names = o.texts_or_empty(key);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] != "x" && names[i] != "y" && names[i] != "z")
      throw JsonInputError(o.path(key) + "/" + std::to_string(i), "expected an axis x, y or z, got '" + names[i] + "'");
    axes[static_cast<std::size_t>(names[i][0] - 'x')] = true;
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

void read_newton(JsonObject& o, NewtonOptions& newton) {
  newton.modified = o.choice("method", std::array<std::string_view, 2>{"full", "modified"}, "full") == "modified";
  newton.residual_tolerance = o.number_or("tolerance", newton.residual_tolerance, newton_tolerance_range());
  newton.max_iterations = o.whole_or("max_iterations", newton.max_iterations, 1, 1000);
  newton.refresh_contraction = o.number_or("refresh", newton.refresh_contraction, ParameterRange::between(0.0, 1.0));
}

RunConfiguration read_run(JsonObject& o) {
  RunConfiguration run;
  std::vector<std::string_view> stepper_names;
  for (const StepperInfo& s : steppers()) stepper_names.push_back(s.name);
  run.stepper = o.choice("stepper", stepper_names, run.stepper);
  if (o.has("stepper_parameters")) {
    JsonObject p = o.object("stepper_parameters", "stepper " + run.stepper);
    for (const SchemeParameter& declared : find_stepper(run.stepper).parameters)
      if (p.has(declared.name)) run.scheme_parameters[std::string(declared.name)] = p.number(declared.name, declared.meaning);
    p.finish();
  }
  const std::string solver = o.choice("solver", std::array<std::string_view, 3>{"klu", "umfpack", "eigen"}, "klu");
  run.solver = *parse_linear_solver_kind(solver);
  run.h = o.number("h", "the time step", kPositive);
  run.t_end = o.number("t_end", "the end time", kNonnegative);
  if (o.has("newton")) {
    JsonObject newton = o.object("newton", "Newton's settings");
    read_newton(newton, run.newton);
    newton.finish();
  }
  run.max_refinement_depth = o.whole_or("refine_depth", run.max_refinement_depth, 0, 30);
  run.redundancy = o.choice("redundant", std::array<std::string_view, 2>{"drop", "refuse"}, "drop") == "drop"
                       ? RunConfiguration::Redundancy::drop
                       : RunConfiguration::Redundancy::refuse;
  return run;
}

/// A list of the document, each element read by read(element) into `out`.
template <class T, class Read>
void read_list(JsonObject& root, std::string_view key, std::string_view what, std::vector<T>& out, Read read) {
  root.each(key, what, [&](JsonObject& element, std::size_t) { out.push_back(read(element)); });
}

Scene read_scene(const nlohmann::json& document, const std::string& origin) {
  JsonObject root(document, "", "a scene");
  const double version = root.number("noether_scene", "the format version, 1");
  if (version != kSceneFormatVersion)
    throw JsonInputError(root.path("noether_scene"), "this program reads scene format " +
                                                          std::to_string(kSceneFormatVersion) + ", got " + format_number(version));
  Scene scene;
  scene.name = root.text_or("name", std::filesystem::path(origin).stem().string());
  scene.description = root.text_or("description", "");
  ModelDescription& m = scene.model;
  read_list(root, "bodies", "a body", m.bodies, read_body);
  read_list(root, "inertias", "a mass matrix", m.inertias, read_inertia_entry);
  read_list(root, "joints", "a joint", m.joints, read_joint);
  read_list(root, "constraints", "a constraint", m.constraints, read_constraint);
  read_list(root, "forces", "a force element", m.forces, read_force);
  read_list(root, "probes", "a probe", m.probes, read_probe);
  read_list(root, "invariants", "an invariant", m.invariants, read_invariant);
  if (root.has("conserved_momenta")) {
    JsonObject momenta = root.object("conserved_momenta", "the momentum components the run reports");
    m.conserved_momenta = read_conserved_momenta(momenta);
    momenta.finish();
  }
  JsonObject run = root.object("run", "the run settings");
  scene.run = read_run(run);
  run.finish();
  if (root.has("output")) {
    JsonObject output = root.object("output", "the output settings");
    scene.output_every = output.whole_or("every", 1, 1, std::numeric_limits<int>::max());
    scene.output_vtk = output.boolean_or("vtk", true);
    if (output.has("directory")) scene.output_directory = output.text("directory", "the output directory");
    output.finish();
  }
  root.finish();
  return scene;
}

/// "/joints/3/body_b" for the entry and field of a ModelDescriptionError ("terms[1]" -> "terms/1").
std::string json_path(const ModelDescriptionError& e) {
  std::string field = e.field();
  for (char& c : field)
    if (c == '[' || c == '.') c = '/';
  std::erase(field, ']');
  return "/" + e.section() + "/" + std::to_string(e.index()) + (field.empty() ? "" : "/" + field);
}

// ================================ writing ================================================

Json vector_json(const Vector& v) {
  Json a = Json::array();
  for (Index i = 0; i < v.size(); ++i) a.push_back(v(i));
  return a;
}

Json matrix_json(const Matrix& m) {
  Json rows = Json::array();
  for (Index i = 0; i < m.rows(); ++i) rows.push_back(vector_json(m.row(i).transpose()));
  return rows;
}

/// Sets key to the vector unless it is empty (an absent optional point).
void put(Json& j, const char* key, const Vector& v) {
  if (v.size() != 0) j[key] = vector_json(v);
}

Json body_fields(const RigidBodyDescription& b) {
  return {{"type", "rigid"},
          {"mass", b.properties.mass},
          {"center_of_mass", vector_json(b.properties.center_of_mass)},
          {"inertia", matrix_json(b.properties.inertia)},
          {"position", vector_json(b.pose.position)},
          {"rotation", matrix_json(b.pose.rotation)},
          {"velocity", vector_json(b.twist.velocity)},
          {"angular_velocity", vector_json(b.twist.angular_velocity)}};
}

Json body_fields(const PlanarBodyDescription& b) {
  return {{"type", "planar"},
          {"mass", b.properties.mass},
          {"center_of_mass", vector_json(b.properties.center_of_mass)},
          {"inertia", b.properties.inertia},
          {"position", {b.pose.x, b.pose.y}},
          {"angle", b.pose.angle},
          {"velocity", {b.twist.vx, b.twist.vy}},
          {"angular_velocity", b.twist.omega}};
}

Json body_fields(const PointMassDescription& b) {
  return {{"type", "point_mass"}, {"mass", b.mass}, {"position", vector_json(b.position)}, {"velocity", vector_json(b.velocity)}};
}

Json body_fields(const SphericalPointMassDescription& b) {
  return {{"type", "spherical_point_mass"}, {"mass", b.mass}, {"position", vector_json(b.position)},
          {"velocity", vector_json(b.velocity)}};
}

Json body_fields(const CoordinatesDescription& c) {
  return {{"type", "coordinates"}, {"coordinates", c.coordinates}, {"position", vector_json(c.position)},
          {"velocity", vector_json(c.velocity)}};
}

Json body_json(const BodyDescription& body) {
  Json j{{"name", name_of(body)}};
  j.update(std::visit([](const auto& b) { return body_fields(b); }, body));
  return j;
}

Json joint_json(const JointDescription& d) {
  Json j{{"name", d.name}, {"type", kJointTypes[static_cast<std::size_t>(d.type)]}};
  for (const auto& [side, s] : {std::pair{"a", &d.a}, std::pair{"b", &d.b}}) {
    const std::string suffix = std::string("_") + side;
    if (!s->body.empty()) j["body" + suffix] = s->body;
    put(j, ("point" + suffix).c_str(), s->point);
    put(j, ("axis" + suffix).c_str(), s->axis);
    put(j, ("normal" + suffix).c_str(), s->normal);
  }
  if (d.type == JointType::distance) j["length"] = d.length;
  return j;
}

Json constraint_json(const ConstraintDescription& constraint) {
  if (const auto* q = std::get_if<QuadraticConstraintDescription>(&constraint)) {
    Json equations = Json::array();
    for (const QuadraticEquation& e : q->equations)
      equations.push_back({{"constant", e.constant}, {"linear", vector_json(e.linear)}, {"hessian", matrix_json(e.hessian)}});
    return {{"name", q->name}, {"type", "quadratic"}, {"bodies", q->bodies}, {"equations", equations}};
  }
  const auto& p = std::get<DistancePowerConstraintDescription>(constraint);
  Json terms = Json::array();
  for (const auto& t : p.terms)
    terms.push_back({{"between", {t.first, t.second}}, {"coefficient", t.coefficient}, {"power", t.power}});
  const auto kind = static_cast<std::size_t>(std::find(kDerivativeKinds.begin(), kDerivativeKinds.end(), p.derivative) -
                                             kDerivativeKinds.begin());
  return {{"name", p.name}, {"type", "distance_power"}, {"bodies", p.bodies}, {"terms", terms},
          {"value", p.value}, {"derivative", kDerivatives[kind]}};
}

Json profile_json(const TimeProfile& profile) {
  if (const auto* c = std::get_if<ConstantProfile>(&profile)) return {{"type", "constant"}, {"value", c->value}};
  if (const auto* t = std::get_if<TableProfile>(&profile))
    return {{"type", "table"}, {"times", t->times}, {"values", t->values}};
  if (const auto* s = std::get_if<SineProfile>(&profile))
    return {{"type", "sine"}, {"amplitude", s->amplitude}, {"angular_frequency", s->angular_frequency},
            {"phase", s->phase}, {"offset", s->offset}};
  const auto& d = std::get<DampedHarmonicProfile>(profile);
  return {{"type", "damped_harmonic"}, {"decay", d.decay}, {"angular_frequency", d.angular_frequency},
          {"cosine_amplitude", d.cosine_amplitude}, {"sine_amplitude", d.sine_amplitude}};
}

void put_pair(Json& j, const PointPairDescription& p) {
  if (!p.body_a.empty()) j["body_a"] = p.body_a;
  put(j, "point_a", p.point_a);
  j["body_b"] = p.body_b;
  put(j, "point_b", p.point_b);
}

void put_hinge(Json& j, const HingeDescription& h) {
  if (!h.body_a.empty()) j["body_a"] = h.body_a;
  put(j, "u_a", h.u_a);
  put(j, "w_a", h.w_a);
  j["body_b"] = h.body_b;
  put(j, "u_b", h.u_b);
}

Json force_json(const ForceDescription& force) {
  Json j;
  std::visit(
      [&](const auto& f) {
        using T = std::decay_t<decltype(f)>;
        j["type"] = kForceTypes[force.index()];
        if constexpr (std::is_same_v<T, GravityDescription>) {
          if (!f.bodies.empty()) j["bodies"] = f.bodies;
          j["acceleration"] = vector_json(f.acceleration);
        } else {
          j["name"] = f.name;
        }
        if constexpr (std::is_same_v<T, SpringDescription>) {
          put_pair(j, f.points);
          j.update({{"law", f.law == SpringLawKind::linear ? "linear" : "green_strain"},
                    {"stiffness", f.stiffness}, {"rest_length", f.rest_length}});
        } else if constexpr (std::is_same_v<T, DamperDescription>) {
          put_pair(j, f.points);
          j.update({{"damping", f.damping}, {"axial", f.axial}});
        } else if constexpr (std::is_same_v<T, RotationalSpringDescription>) {
          put_hinge(j, f.hinge);
          j.update({{"stiffness", f.stiffness}, {"rest_angle", f.rest_angle}});
        } else if constexpr (std::is_same_v<T, RotationalDamperDescription>) {
          put_hinge(j, f.hinge);
          j["damping"] = f.damping;
        } else if constexpr (std::is_same_v<T, PointForceDescription>) {
          j["body"] = f.body;
          put(j, "point", f.point);
          j.update({{"force", vector_json(f.force)}, {"profile", profile_json(f.profile)}});
        } else if constexpr (std::is_same_v<T, TorqueDescription>) {
          j.update({{"body", f.body}, {"torque", vector_json(f.torque)}, {"profile", profile_json(f.profile)}});
        } else if constexpr (std::is_same_v<T, PolynomialPotentialDescription>) {
          j.update({{"body", f.body}, {"coordinate", f.coordinate}, {"center", f.center}, {"coefficients", f.coefficients}});
        } else if constexpr (std::is_same_v<T, DampingMatrixDescription>) {
          j.update({{"bodies", f.bodies}, {"matrix", matrix_json(f.matrix)}});
        }
      },
      force);
  return j;
}

Json probe_json(const ProbeDescription& probe) {
  if (const auto* p = std::get_if<ProfileProbeDescription>(&probe))
    return {{"name", p->name}, {"type", "profile"}, {"profile", profile_json(p->profile)}};
  const auto& p = std::get<PointProbeDescription>(probe);
  Json j{{"name", p.name}, {"body", p.body}};
  put(j, "point", p.point);
  return j;
}

Json invariant_json(const InvariantDescription& i) {
  Json j{{"name", i.name}, {"type", i.momentum == Momentum::linear ? "linear_momentum" : "angular_momentum"}};
  if (!i.bodies.empty()) j["bodies"] = i.bodies;
  return j;
}

Json axes_json(const std::array<bool, 3>& axes) {
  Json a = Json::array();
  for (std::size_t i = 0; i < 3; ++i)
    if (axes[i]) a.push_back(std::string(1, static_cast<char>('x' + i)));
  return a;
}

Json conserved_momenta_json(const ConservedMomenta& c) {
  return {{"linear", axes_json(c.linear)}, {"angular", axes_json(c.angular)}, {"about", vector_json(c.about)}};
}

Json run_json(const RunConfiguration& run) {
  Json j{{"stepper", run.stepper}};
  if (!run.scheme_parameters.empty()) {
    j["stepper_parameters"] = Json::object();
    for (const auto& [name, value] : run.scheme_parameters) j["stepper_parameters"][name] = value;
  }
  j.update({{"solver", std::string(to_string(run.solver))},
            {"h", run.h},
            {"t_end", run.t_end},
            {"newton",
             {{"method", std::string(newton_method_name(run.newton))},
              {"tolerance", run.newton.residual_tolerance},
              {"max_iterations", run.newton.max_iterations},
              {"refresh", run.newton.refresh_contraction}}},
            {"refine_depth", run.max_refinement_depth},
            {"redundant", std::string(redundancy_name(run.redundancy))}});
  return j;
}

bool is_flat(const Json& j) {
  return std::all_of(j.begin(), j.end(), [](const Json& e) { return e.is_primitive(); });
}

/// JSON text with 2-space indentation where arrays of numbers or texts stay on one line (a point,
/// a matrix row): scalars are nlohmann's dump, which writes numbers that read back as the same doubles.
void write_pretty(const Json& j, int indent, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent + 2), ' '), end_pad(static_cast<std::size_t>(indent), ' ');
  if (j.is_primitive()) {
    out += j.dump();
  } else if (j.is_array() && is_flat(j)) {
    out += "[";
    for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + j[i].dump();
    out += "]";
  } else if (j.empty()) {
    out += j.is_array() ? "[]" : "{}";
  } else {
    out += j.is_array() ? "[\n" : "{\n";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      out += (first ? "" : ",\n") + pad;
      if (j.is_object()) out += Json(it.key()).dump() + ": ";
      write_pretty(*it, indent + 2, out);
      first = false;
    }
    out += "\n" + end_pad + (j.is_array() ? "]" : "}");
  }
}

template <class T, class Write>
void write_list(Json& root, const char* key, const std::vector<T>& list, Write write) {
  if (list.empty()) return;
  Json a = Json::array();
  for (const T& element : list) a.push_back(write(element));
  root[key] = std::move(a);
}

}  // namespace

Scene parse_scene(std::string_view text, const std::string& origin) {
  const nlohmann::json document = parse_json(text, origin);
  try {
    Scene scene = read_scene(document, origin);
    try {
      build_model(scene.model);
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

Scene load_scene(const std::filesystem::path& path) {
  const std::string what = "cannot read the scene file '" + path.string() + "'";
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw std::invalid_argument(what + ": it is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(what + " (" + std::strerror(errno) + ")");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::invalid_argument(what + " (" + std::strerror(errno) + ")");
  return parse_scene(text.str(), path.string());
}

std::string scene_json(const Scene& scene) {
  Json root{{"noether_scene", kSceneFormatVersion}, {"name", scene.name}};
  if (!scene.description.empty()) root["description"] = scene.description;
  const ModelDescription& m = scene.model;
  write_list(root, "bodies", m.bodies, body_json);
  write_list(root, "inertias", m.inertias, [](const MassMatrixDescription& i) {
    return Json{{"name", i.name}, {"bodies", i.bodies}, {"matrix", matrix_json(i.matrix)}};
  });
  write_list(root, "joints", m.joints, joint_json);
  write_list(root, "constraints", m.constraints, constraint_json);
  write_list(root, "forces", m.forces, force_json);
  write_list(root, "probes", m.probes, probe_json);
  write_list(root, "invariants", m.invariants, invariant_json);
  if (!m.conserved_momenta.empty()) root["conserved_momenta"] = conserved_momenta_json(m.conserved_momenta);
  root["run"] = run_json(scene.run);
  Json output{{"every", scene.output_every}, {"vtk", scene.output_vtk}};
  if (scene.output_directory) output["directory"] = scene.output_directory->string();
  root["output"] = output;
  std::string text;
  write_pretty(root, 0, text);
  return text + "\n";
}

bool is_scene_file_name(std::string_view argument) { return argument.ends_with(".json"); }

}  // namespace noether

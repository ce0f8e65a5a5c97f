/// Writing scene files (scene_file.hpp): a Scene as the JSON that reads back into the same bits,
/// the names of kinds from scene_names.hpp, which the reader shares, and a joint's keys from its
/// kind's descriptor (apps/model/joint_kinds.hpp).
#include <noether/apps/scene_file.hpp>

#include <algorithm>
#include <tuple>
#include <type_traits>

#include <nlohmann/json.hpp>

#include <noether/apps/run_settings.hpp>
#include <noether/apps/scene_names.hpp>

namespace noether {
namespace {

using Json = nlohmann::ordered_json;
using namespace scene_names;

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
  return {{"mass", b.properties.mass},
          {"center_of_mass", vector_json(b.properties.center_of_mass)},
          {"inertia", matrix_json(b.properties.inertia)},
          {"position", vector_json(b.pose.position)},
          {"rotation", matrix_json(b.pose.rotation)},
          {"velocity", vector_json(b.twist.velocity)},
          {"angular_velocity", vector_json(b.twist.angular_velocity)}};
}

Json body_fields(const PlanarBodyDescription& b) {
  return {{"mass", b.properties.mass},
          {"center_of_mass", vector_json(b.properties.center_of_mass)},
          {"inertia", b.properties.inertia},
          {"position", {b.pose.x, b.pose.y}},
          {"angle", b.pose.angle},
          {"velocity", {b.twist.vx, b.twist.vy}},
          {"angular_velocity", b.twist.omega}};
}

Json body_fields(const PointMassDescription& b) {
  return {{"mass", b.mass}, {"position", vector_json(b.position)}, {"velocity", vector_json(b.velocity)}};
}

Json body_fields(const SphericalPointMassDescription& b) {
  return {{"mass", b.mass}, {"position", vector_json(b.position)},
          {"velocity", vector_json(b.velocity)}};
}

Json body_fields(const CoordinatesDescription& c) {
  return {{"coordinates", c.coordinates}, {"position", vector_json(c.position)},
          {"velocity", vector_json(c.velocity)}};
}

Json body_json(const BodyDescription& body) {
  Json j{{"name", name_of(body)}, {"type", name_in(kBodyTypes, body)}};
  j.update(std::visit([](const auto& b) { return body_fields(b); }, body));
  return j;
}

/// The keys of the joint's kind (joint_kinds.hpp), in its order; a datum not given is left out.
Json joint_json(const JointDescription& d) {
  Json j{{"name", d.name}, {"type", d.kind->name}};
  for (const auto& [side, s, takes] : {std::tuple{"a", &d.a, d.kind->a}, std::tuple{"b", &d.b, d.kind->b}}) {
    const std::string suffix = std::string("_") + side;
    if (!s->body.empty()) j["body" + suffix] = s->body;
    if (takes.point != Takes::no) put(j, ("point" + suffix).c_str(), s->point);
    if (takes.axis != Takes::no) put(j, ("axis" + suffix).c_str(), s->axis);
    if (takes.normal != Takes::no) put(j, ("normal" + suffix).c_str(), s->normal);
  }
  for (std::size_t i = 0; i < d.kind->numbers.size(); ++i) j[std::string(d.kind->numbers[i].key)] = d.numbers.at(i);
  return j;
}

Json constraint_json(const ConstraintDescription& constraint) {
  if (const auto* q = std::get_if<QuadraticConstraintDescription>(&constraint)) {
    Json equations = Json::array();
    for (const QuadraticEquation& e : q->equations)
      equations.push_back({{"constant", e.constant}, {"linear", vector_json(e.linear)}, {"hessian", matrix_json(e.hessian)}});
    return {{"name", q->name}, {"type", name_in(kConstraintTypes, constraint)}, {"bodies", q->bodies}, {"equations", equations}};
  }
  const auto& p = std::get<DistancePowerConstraintDescription>(constraint);
  Json terms = Json::array();
  for (const auto& t : p.terms)
    terms.push_back({{"between", {t.first, t.second}}, {"coefficient", t.coefficient}, {"power", t.power}});
  return {{"name", p.name}, {"type", name_in(kConstraintTypes, constraint)}, {"bodies", p.bodies}, {"terms", terms},
          {"value", p.value}, {"derivative", to_string(p.derivative)}};
}

Json profile_json(const TimeProfile& profile) {
  const std::string_view type = name_in(kProfileTypes, profile);
  if (const auto* c = std::get_if<ConstantProfile>(&profile)) return {{"type", type}, {"value", c->value}};
  if (const auto* t = std::get_if<TableProfile>(&profile))
    return {{"type", type}, {"times", t->times}, {"values", t->values}};
  if (const auto* s = std::get_if<SineProfile>(&profile))
    return {{"type", type}, {"amplitude", s->amplitude}, {"angular_frequency", s->angular_frequency},
            {"phase", s->phase}, {"offset", s->offset}};
  if (const auto* r = std::get_if<RampProfile>(&profile))
    return {{"type", type}, {"rate", r->rate}, {"offset", r->offset}};
  const auto& d = std::get<DampedHarmonicProfile>(profile);
  return {{"type", type}, {"decay", d.decay}, {"angular_frequency", d.angular_frequency},
          {"cosine_amplitude", d.cosine_amplitude}, {"sine_amplitude", d.sine_amplitude}};
}

/// A drive's keys as read_drive reads them; a datum not given is left out.
Json drive_json(const DriveDescription& d) {
  Json j{{"name", d.name}, {"type", kDriveTypes[static_cast<std::size_t>(d.kind)]}};
  for (const auto& [side, s] : {std::pair{"a", &d.a}, std::pair{"b", &d.b}}) {
    const std::string suffix = std::string("_") + side;
    if (!s->body.empty()) j["body" + suffix] = s->body;
    put(j, ("point" + suffix).c_str(), s->point);
    put(j, ("axis" + suffix).c_str(), s->axis);
    put(j, ("normal" + suffix).c_str(), s->normal);
  }
  if (d.kind != DriveKind::point) {
    j["profile"] = profile_json(d.profiles.at(0));
    return j;
  }
  for (std::size_t k = 0; k < d.profiles.size(); ++k) j[std::string(kTrajectoryKeys.at(k))] = profile_json(d.profiles[k]);
  return j;
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

Json actuator_law_json(const ActuatorLawDescription& law) {
  if (const auto* p = std::get_if<ProfileLawDescription>(&law))
    return {{"type", name_in(kActuatorLaws, law)}, {"profile", profile_json(p->profile)}};
  const auto& pd = std::get<PdLawDescription>(law);
  return {{"type", name_in(kActuatorLaws, law)}, {"kp", pd.kp}, {"kd", pd.kd}, {"reference", profile_json(pd.reference)}};
}

Json actuator_json(const ActuatorDescription& a) {
  Json j{{"name", a.name}, {"type", name_in(kActuatorTypes, a.coordinate)}};
  if (const auto* h = std::get_if<HingeDescription>(&a.coordinate)) {
    put_hinge(j, *h);
    j["zero_angle"] = a.zero_angle;
  } else {
    const auto& s = std::get<SlideDescription>(a.coordinate);
    if (!s.body_a.empty()) j["body_a"] = s.body_a;
    put(j, "point_a", s.point_a);
    j["axis_a"] = vector_json(s.axis_a);
    j["body_b"] = s.body_b;
    put(j, "point_b", s.point_b);
  }
  j["law"] = actuator_law_json(a.law);
  return j;
}

Json force_json(const ForceDescription& force) {
  Json j;
  std::visit(
      [&](const auto& f) {
        using T = std::decay_t<decltype(f)>;
        j["type"] = name_in(kForceTypes, force);
        if constexpr (std::is_same_v<T, GravityDescription>) {
          if (!f.bodies.empty()) j["bodies"] = f.bodies;
          j["acceleration"] = vector_json(f.acceleration);
        } else {
          j["name"] = f.name;
        }
        if constexpr (std::is_same_v<T, SpringDescription>) {
          put_pair(j, f.points);
          j.update({{"law", name_in(kSpringLaws, f.law)},
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
    return {{"name", p->name}, {"type", name_in(kProbeTypes, probe)}, {"profile", profile_json(p->profile)}};
  const auto& p = std::get<PointProbeDescription>(probe);
  Json j{{"name", p.name}, {"body", p.body}};
  put(j, "point", p.point);
  return j;
}

Json invariant_json(const InvariantDescription& i) {
  Json j{{"name", i.name}, {"type", name_in(kMomenta, i.momentum)}};
  if (!i.bodies.empty()) j["bodies"] = i.bodies;
  return j;
}

Json axes_json(const std::array<bool, 3>& axes) {
  Json a = Json::array();
  for (std::size_t i = 0; i < 3; ++i)
    if (axes[i]) a.push_back(kAxes[i]);
  return a;
}

Json conserved_momenta_json(const ConservedMomenta& c) {
  return {{"linear", axes_json(c.linear)}, {"angular", axes_json(c.angular)}, {"about", vector_json(c.about)}};
}

/// root[the scene key of the run setting `name`] = value (RunSetting::scene_key, a JSON pointer).
void put_setting(Json& root, std::string_view name, Json value) {
  root[Json::json_pointer(std::string(run_setting(name).scene_key))] = std::move(value);
}

/// The run settings into root's "run" object, each under its scene key.
void write_run(Json& root, const RunConfiguration& run) {
  put_setting(root, "stepper", run.stepper);
  if (!run.scheme_parameters.empty()) {
    Json parameters = Json::object();
    for (const auto& [name, value] : run.scheme_parameters) parameters[name] = value;
    put_setting(root, "stepper_parameters", std::move(parameters));
  }
  put_setting(root, "solver", std::string(to_string(run.solver)));
  put_setting(root, "ordering", std::string(to_string(run.ordering)));
  put_setting(root, "h", run.h);
  put_setting(root, "t_end", run.t_end);
  put_setting(root, "max_steps", run.max_steps);
  put_setting(root, "newton_method", std::string(newton_method_name(run.newton)));
  put_setting(root, "newton_tolerance", run.newton.residual_tolerance);
  put_setting(root, "newton_max_iterations", run.newton.max_iterations);
  put_setting(root, "newton_refresh", run.newton.refresh_contraction);
  put_setting(root, "refine_depth", run.max_refinement_depth);
  put_setting(root, "redundant", std::string(redundancy_name(run.redundancy)));
}

/// The output settings into root's "output" object, each under its scene key.
void write_output(Json& root, const Scene& scene) {
  put_setting(root, "every", scene.output_every);
  put_setting(root, "vtk", scene.output_vtk);
  put_setting(root, "reactions", std::string(scene.output_reactions ? "on" : "off"));
  if (scene.output_directory) put_setting(root, "output_directory", scene.output_directory->string());
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
  write_list(root, "drives", m.drives, drive_json);
  write_list(root, "forces", m.forces, force_json);
  write_list(root, "actuators", m.actuators, actuator_json);
  write_list(root, "probes", m.probes, probe_json);
  write_list(root, "invariants", m.invariants, invariant_json);
  if (!m.conserved_momenta.empty()) root["conserved_momenta"] = conserved_momenta_json(m.conserved_momenta);
  write_run(root, scene.run);
  write_output(root, scene);
  std::string text;
  write_pretty(root, 0, text);
  return text + "\n";
}

}  // namespace noether

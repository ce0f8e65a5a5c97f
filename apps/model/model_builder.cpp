#include <noether/apps/model/model_builder.hpp>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include <Eigen/Geometry>

#include <noether/apps/model/body_probe.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/model/output_columns.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/bodies/spherical_point_mass.hpp>
#include <noether/engine/quote.hpp>
#include <noether/joints/applied_loads.hpp>
#include <noether/joints/distance_power_constraint.hpp>
#include <noether/joints/driven_prismatic.hpp>
#include <noether/joints/driven_revolute.hpp>
#include <noether/joints/prescribed_point.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/joints/joint_actuator.hpp>
#include <noether/joints/point_damper.hpp>
#include <noether/joints/point_spring.hpp>
#include <noether/joints/polynomial_potential.hpp>
#include <noether/joints/rotational_spring_damper.hpp>
#include <noether/joints/viscous_damper.hpp>

namespace noether {

ModelDescriptionError::ModelDescriptionError(std::string section, std::size_t index, std::string field,
                                             const std::string& message)
    : std::invalid_argument(section + "[" + std::to_string(index) + "]" + (field.empty() ? "" : "." + field) + ": " +
                            message),
      section_(std::move(section)), index_(index), field_(std::move(field)), message_(message) {}

namespace {

/// A refusal of one field of the entry being built; Builder::entry adds the entry.
class FieldError : public std::invalid_argument {
 public:
  FieldError(std::string field, const std::string& message)
      : std::invalid_argument(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

enum class BodyClass { rigid, planar, point_mass, spherical, coordinates };

/// A body as the builder placed it.
struct PlacedBody {
  BodyClass kind;
  BlockId block;
  Index size;
  std::optional<BodyRef> ref;      ///< director bodies and Cartesian point masses
  double mass = 0.0;               ///< for gravity
  Vector centre_of_mass;           ///< body coordinates (zero for a point mass)
  std::vector<std::string> coordinates;
  bool ghost = false;              ///< its block alone: another process's body (PartSelection)
};

const char* kind_name(BodyClass kind) {
  switch (kind) {
    case BodyClass::rigid: return "a rigid body";
    case BodyClass::planar: return "a planar body";
    case BodyClass::point_mass: return "a point mass";
    case BodyClass::spherical: return "a point mass in spherical coordinates";
    case BodyClass::coordinates: return "a block of generalized coordinates";
  }
  return "a body";
}

/// v, or the zero vector of `dimension` entries when v is empty (an attachment at the origin).
Vector or_origin(const Vector& v, Index dimension) { return v.size() == 0 ? Vector(Vector::Zero(dimension)) : v; }

/// "B1, B2, B3" or "bar0, bar1, bar2 ... bar999 (1000 bodies)".
std::string list_of(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::string list;
  const std::size_t shown = names.size() <= 8 ? names.size() : 3;
  for (std::size_t i = 0; i < shown; ++i) list += (i ? ", " : "") + names[i];
  if (shown < names.size()) list += " ... " + names.back() + " (" + std::to_string(names.size()) + " bodies)";
  return list;
}

class Builder {
 public:
  /// Builds the whole description, or with `part` (its description the one given) the bodies and
  /// entries it builds.
  explicit Builder(const ModelDescription& description, const PartDescription* part = nullptr)
      : d_(description), part_(part) {}

  Mechanism build() {
    for (std::size_t i = 0; i < d_.bodies.size(); ++i) {
      const std::size_t number = body_number(i);
      keyed(kBodiesSection, number, [&] { entry("bodies", number, [&] { add_body(d_.bodies[i], role(i)); }); });
    }
    each(EntryList::inertias, "inertias", d_.inertias, [&](const auto& m) { add_inertia(m); });
    each(EntryList::joints, "joints", d_.joints, [&](const auto& j) { mechanism_.add(make_joint(j)); });
    each(EntryList::constraints, "constraints", d_.constraints,
         [&](const auto& c) { std::visit([&](const auto& k) { add_constraint(k); }, c); });
    each(EntryList::drives, "drives", d_.drives, [&](const auto& r) { mechanism_.add(make_drive(r)); });
    each(EntryList::forces, "forces", d_.forces, [&](const auto& f) { std::visit([&](const auto& g) { add_force(g); }, f); });
    each(EntryList::actuators, "actuators", d_.actuators, [&](const auto& a) { add_actuator(a); });
    return std::move(mechanism_);
  }

  /// A part's invariants (build_mechanism_part), one per described invariant: over the listed
  /// bodies the part owns (invariant's owned_only); a listed name the part does not hold is
  /// another process's body (part_description checked the names against the whole's).
  std::vector<Invariant> part_invariants(const System& system) const {
    std::vector<Invariant> invariants;
    for (std::size_t i = 0; i < d_.invariants.size(); ++i)
      entry("invariants", i, [&] { invariants.push_back(invariant(d_.invariants[i], system, true)); });
    return invariants;
  }

  /// The whole-order key of each constraint built so far (build_mechanism_part).
  const std::vector<ConstraintKey>& constraint_keys() const { return constraint_keys_; }

  /// The probes a part evaluates, in the description's order, one per described probe: a point
  /// probe on a body the part owns, a probe of time alone where `bodiless` (the part of process 0,
  /// which owns the entries on no body). The others have no position, and the dimension of their
  /// body where the part places it (a ghost), else 0: their owner's values are added to them.
  std::vector<Probe> part_probes(const System& system, bool bodiless) const {
    std::vector<Probe> probes;
    for (std::size_t i = 0; i < d_.probes.size(); ++i)
      entry("probes", i, [&] {
        probes.push_back(std::visit([&](const auto& p) { return probe(p, system, bodiless); }, d_.probes[i]));
      });
    return probes;
  }

  /// The probes and invariants, on the built system with its conserved momenta: each probe's
  /// columns and each invariant's drift under a name of its own.
  void complete(Model& model) const {
    for (std::size_t i = 0; i < d_.probes.size(); ++i)
      entry("probes", i, [&] {
        std::visit([](const auto& p) { require_column_name("probe", p.name); }, d_.probes[i]);  // heads NAME.x, ...
        add_probe(model, std::visit([&](const auto& p) { return probe(p, *model.system); }, d_.probes[i]));
      });
    for (std::size_t i = 0; i < d_.actuators.size(); ++i) entry("actuators", i, [&] { add_actuator_probes(i, model); });
    for (std::size_t i = 0; i < d_.invariants.size(); ++i)
      entry("invariants", i, [&] {
        require_distinct_invariant(model.invariants, d_.invariants[i].name);
        model.invariants.push_back(invariant(d_.invariants[i], *model.system));
      });
  }

 private:
  /// Runs f, turning a refusal into a ModelDescriptionError naming the entry.
  template <class F>
  static void entry(const char* section, std::size_t index, F&& f) {
    try {
      f();
    } catch (const ModelDescriptionError&) {
      throw;
    } catch (const FieldError& e) {
      throw ModelDescriptionError(section, index, e.field(), e.what());
    } catch (const std::invalid_argument& e) {
      throw ModelDescriptionError(section, index, "", e.what());
    }
  }

  // ---- the part built ---------------------------------------------------------------------

  BodyRole role(std::size_t body) const { return part_ ? part_->roles[body] : BodyRole::owned; }
  bool builds(EntryList list, std::size_t index) const { return !part_ || part_->built(list, index); }
  /// Body i's and entry i's numbers in the whole description, which keys and refusals name.
  std::size_t body_number(std::size_t i) const { return part_ ? static_cast<std::size_t>(part_->body_numbers[i]) : i; }
  std::size_t entry_number(EntryList list, std::size_t i) const {
    return part_ ? static_cast<std::size_t>(part_->entry_numbers[static_cast<std::size_t>(list)][i]) : i;
  }

  /// add(entries[i]) for each entry of `list` the part builds, a refusal naming the entry.
  template <class Entries, class F>
  void each(EntryList list, const char* section, const Entries& entries, F&& add) {
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (!builds(list, i)) continue;
      const std::size_t number = entry_number(list, i);
      keyed(section_of(list), number, [&] { entry(section, number, [&] { add(entries[i]); }); });
    }
  }

  /// The key section of a body's own constraints and of each entry list's (ConstraintKey).
  static constexpr Index kBodiesSection = 0;
  static Index section_of(EntryList list) { return 1 + static_cast<Index>(list); }

  /// add(), then the key (section, index) for each constraint it built.
  template <class F>
  void keyed(Index section, std::size_t index, F&& add) {
    const std::size_t before = mechanism_.system().constraints().size();
    add();
    const std::size_t after = mechanism_.system().constraints().size();
    for (std::size_t k = before; k < after; ++k) constraint_keys_.push_back({section, static_cast<Index>(index)});
  }

  // ---- names -----------------------------------------------------------------------------

  const PlacedBody& body(const std::string& name, const std::string& field) const {
    const auto found = index_.find(name);
    if (found == index_.end()) throw FieldError(field, "no body named " + quote(name) + "; bodies are " + list_of(names_));
    return bodies_[found->second];
  }

  /// A body joints and force elements attach to (director body or Cartesian point mass).
  const BodyRef& attachable(const std::string& name, const std::string& field) const {
    const PlacedBody& b = body(name, field);
    if (!b.ref)
      throw FieldError(field, "body " + quote(name) + " is " + kind_name(b.kind) +
                                  "; this attaches to director bodies and Cartesian point masses only");
    return *b.ref;
  }

  /// The blocks of the bodies an element spans (its mass matrix, equations or damping over their
  /// coordinates concatenated): each body once, since a body listed twice would count twice (its mass
  /// doubled) where the element means it once.
  std::vector<BlockId> blocks(const std::vector<std::string>& names, const std::string& field) const {
    std::vector<BlockId> list;
    for (std::size_t i = 0; i < names.size(); ++i) {
      const auto first = std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i]);
      if (first != names.begin() + static_cast<std::ptrdiff_t>(i))
        throw FieldError(field + "[" + std::to_string(i) + "]",
                         "body '" + names[i] + "' is listed twice (also at " + field + "[" +
                             std::to_string(first - names.begin()) + "]); list each body once: the element spans "
                             "the listed bodies' coordinates, and a body listed twice would count twice");
      list.push_back(body(names[i], field).block);
    }
    return list;
  }

  // ---- bodies ----------------------------------------------------------------------------

  void place(const std::string& name, PlacedBody placed) {
    if (!index_.emplace(name, bodies_.size()).second)
      throw FieldError("name", "a body named " + quote(name) + " is defined already; body names must be unique");
    names_.push_back(name);
    bodies_.push_back(std::move(placed));
  }

  void require_unique(const std::string& name) const {
    if (index_.contains(name))
      throw FieldError("name", "a body named " + quote(name) + " is defined already; body names must be unique");
  }

  /// The body's block, and with its own elements unless it is a ghost.
  void add_body(const BodyDescription& description, BodyRole role) {
    require_unique(name_of(description));
    const BodyElements elements = role == BodyRole::ghost ? BodyElements::none : BodyElements::own;
    std::visit([&](const auto& b) { add(b, elements); }, description);
    bodies_.back().ghost = role == BodyRole::ghost;
  }

  void add(const RigidBodyDescription& b, BodyElements elements) {
    const BodyRef ref = mechanism_.add_rigid_body(b.name, b.properties, b.pose, b.twist, elements);
    place(b.name, {BodyClass::rigid, ref.block, 12, ref, b.properties.mass, b.properties.center_of_mass, {}});
  }
  void add(const PlanarBodyDescription& b, BodyElements elements) {
    const BodyRef ref = mechanism_.add_planar_body(b.name, b.properties, b.pose, b.twist, elements);
    place(b.name, {BodyClass::planar, ref.block, 6, ref, b.properties.mass, b.properties.center_of_mass, {}});
  }
  void add(const PointMassDescription& b, BodyElements elements) {
    const Index dim = b.position.size();
    if (dim != 2 && dim != 3)
      throw FieldError("position", "a point mass moves in the plane (2 entries) or in space (3), got " +
                                       std::to_string(dim) + " entries");
    if (b.velocity.size() != dim)
      throw FieldError("velocity", "needs " + std::to_string(dim) + " entries like the position, got " +
                                       std::to_string(b.velocity.size()));
    const BodyRef ref = dim == 3 ? mechanism_.add_point_mass(b.name, b.mass, b.position, b.velocity, elements)
                                 : mechanism_.add_planar_point_mass(b.name, b.mass, b.position, b.velocity, elements);
    place(b.name, {BodyClass::point_mass, ref.block, dim, ref, b.mass, Vector::Zero(dim), {}});
  }
  void add(const SphericalPointMassDescription& b, BodyElements elements) {
    MassFunction inertia = spherical_point_mass(b.mass);
    const BlockId block = mechanism_.add_coordinates(b.name, {"r", "theta", "phi"}, b.position, b.velocity);
    if (elements == BodyElements::own)
      mechanism_.add(std::make_shared<ConfigurationInertia>(b.name + ".inertia", std::vector{block}, 3, std::move(inertia)));
    place(b.name, {BodyClass::spherical, block, 3, std::nullopt, b.mass, Vector(), {"r", "theta", "phi"}});
  }
  void add(const CoordinatesDescription& b, BodyElements) {
    const BlockId block = mechanism_.add_coordinates(b.name, b.coordinates, b.position, b.velocity);
    place(b.name, {BodyClass::coordinates, block, static_cast<Index>(b.coordinates.size()), std::nullopt, 0.0, Vector(),
                   b.coordinates});
  }

  void add_inertia(const MassMatrixDescription& m) {
    mechanism_.add(std::make_shared<ConstantInertia>(m.name, blocks(m.bodies, "bodies"), m.matrix));
  }

  // ---- joints and constraints ------------------------------------------------------------

  /// The joint by its kind's constructor (joint_kinds.hpp), the bodies resolved and the points defaulted.
  std::shared_ptr<Constraint> make_joint(const JointDescription& j) const {
    if (j.kind == nullptr) throw FieldError("type", "the joint has no kind");
    const BodyRef& b = attachable(j.b.body, "body_b");
    const BodyRef* a = j.a.body.empty() ? nullptr : &attachable(j.a.body, "body_a");
    if (j.numbers.size() != j.kind->numbers.size()) {
      std::string keys;
      for (const JointNumber& n : j.kind->numbers) keys += (keys.empty() ? "" : ", ") + std::string(n.key);
      throw std::invalid_argument("a " + std::string(j.kind->name) + " joint takes " +
                                  (keys.empty() ? "no numbers" : "the numbers " + keys) + ", got " +
                                  std::to_string(j.numbers.size()));
    }
    const Index dim = b.kinematics.dimension();
    return j.kind->make({j.name, a, b, or_origin(j.a.point, dim), or_origin(j.b.point, dim), j.a, j.b, j.numbers});
  }

  /// The driven joint or prescribed point of the drive's kind, the bodies resolved and the points
  /// defaulted (DriveDescription).
  std::shared_ptr<Constraint> make_drive(const DriveDescription& d) const {
    const BodyRef& b = attachable(d.b.body, "body_b");
    const Index dim = b.kinematics.dimension();
    refuse_unused_data(d, dim);
    if (d.kind == DriveKind::point) return make_prescribed_point(d.name, b, or_origin(d.b.point, dim), d.profiles);
    if (d.profiles.size() != 1)
      throw FieldError("profile", "a driven joint takes one profile, got " + std::to_string(d.profiles.size()));
    const BodyRef* a = d.a.body.empty() ? nullptr : &attachable(d.a.body, "body_a");
    const Vector X_a = or_origin(d.a.point, dim), X_b = or_origin(d.b.point, dim);
    const TimeProfile& f = d.profiles.front();
    if (d.kind == DriveKind::revolute) {
      if (dim == 2)
        return a ? make_driven_revolute_planar(d.name, *a, X_a, b, X_b, f)
                 : make_driven_revolute_planar_to_ground(d.name, X_a, b, X_b, f);
      return a ? make_driven_revolute(d.name, *a, X_a, d.a.axis, b, X_b, d.b.axis, f)
               : make_driven_revolute_to_ground(d.name, X_a, d.a.axis, b, X_b, d.b.axis, f);
    }
    if (dim == 2)
      return a ? make_driven_prismatic_planar(d.name, *a, X_a, d.a.axis, b, X_b, d.b.axis, f)
               : make_driven_prismatic_planar_to_ground(d.name, X_a, d.a.axis, b, X_b, d.b.axis, f);
    const JointFrame frame_a{X_a, d.a.axis, d.a.normal}, frame_b{X_b, d.b.axis, d.b.normal};
    return a ? make_driven_prismatic(d.name, *a, frame_a, b, frame_b, f)
             : make_driven_prismatic_to_ground(d.name, frame_a, b, frame_b, f);
  }

  /// A datum the drive's kind does not read is refused, not ignored: a point drive's side A and its
  /// axes; a planar revolute drive's axes; normals but for a 3D prismatic drive.
  static void refuse_unused_data(const DriveDescription& d, Index dim) {
    const auto refuse = [&](bool given, const char* field, const char* why) {
      if (given) throw FieldError(field, std::string("a ") + why + " takes no " + field + "; leave it out");
    };
    const bool point = d.kind == DriveKind::point, planar_revolute = d.kind == DriveKind::revolute && dim == 2;
    const bool frames = d.kind == DriveKind::prismatic && dim == 3;
    refuse(point && !d.a.body.empty(), "body_a", "point drive (it prescribes a body's point in the world)");
    refuse(point && d.a.point.size() > 0, "point_a", "point drive");
    refuse((point || planar_revolute) && d.a.axis.size() > 0, "axis_a", "point drive or planar revolute drive");
    refuse((point || planar_revolute) && d.b.axis.size() > 0, "axis_b", "point drive or planar revolute drive");
    refuse(!frames && d.a.normal.size() > 0, "normal_a", "drive other than a 3D prismatic one");
    refuse(!frames && d.b.normal.size() > 0, "normal_b", "drive other than a 3D prismatic one");
  }

  void add_constraint(const QuadraticConstraintDescription& c) {
    mechanism_.add(std::make_shared<QuadraticJoint>(c.name, blocks(c.bodies, "bodies"), c.equations));
  }

  void add_constraint(const DistancePowerConstraintDescription& c) {
    std::vector<BlockId> points;
    Index dimension = 0;
    for (const std::string& name : c.bodies) {
      const PlacedBody& p = body(name, "bodies");
      if (p.kind != BodyClass::point_mass)
        throw FieldError("bodies", "body " + quote(name) + " is " + kind_name(p.kind) + "; the constraint acts on point masses");
      if (dimension != 0 && p.size != dimension)
        throw FieldError("bodies", "the point masses must share one dimension; " + quote(name) + " differs");
      dimension = p.size;
      points.push_back(p.block);
    }
    const auto position = [&](const std::string& name, const std::string& field) {
      const auto at = std::find(c.bodies.begin(), c.bodies.end(), name);
      if (at == c.bodies.end()) throw FieldError(field, quote(name) + " is not among the constraint's bodies");
      return static_cast<Index>(at - c.bodies.begin());
    };
    std::vector<DistancePowerTerm> terms;
    for (std::size_t k = 0; k < c.terms.size(); ++k) {
      const std::string field = "terms[" + std::to_string(k) + "]";
      terms.push_back({position(c.terms[k].first, field), position(c.terms[k].second, field), c.terms[k].coefficient,
                       c.terms[k].power});
    }
    mechanism_.add(std::make_shared<DistancePowerConstraint>(c.name, points, dimension, terms, c.value, c.derivative));
  }

  // ---- forces ----------------------------------------------------------------------------

  /// On the bodies listed, or on every body that takes it when none is (without a name lookup each);
  /// in a part, on its own bodies alone (a listed body it does not hold is another process's).
  void add_force(const GravityDescription& g) {
    const auto add = [&](const std::string& name, const PlacedBody& p) {
      if (p.ghost) return;
      mechanism_.add(std::make_shared<Gravity>(name + ".gravity", *p.ref, p.mass, p.centre_of_mass, g.acceleration));
    };
    for (const std::string& name : g.bodies) {
      if (part_ && !index_.contains(name)) continue;
      attachable(name, "bodies");
      add(name, body(name, "bodies"));
    }
    if (!g.bodies.empty()) return;
    for (std::size_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i].kind == BodyClass::spherical)
        throw FieldError("bodies", "body " + quote(names_[i]) + " is " + kind_name(bodies_[i].kind) +
                                       ", on which gravity is not linear; list the bodies gravity acts on");
    for (std::size_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i].ref) add(names_[i], bodies_[i]);
  }

  ForcePointPair pair(const PointPairDescription& p) const {
    const BodyRef& b = attachable(p.body_b, "body_b");
    const Index dim = b.kinematics.dimension();
    if (p.body_a.empty()) return ForcePointPair(b, or_origin(p.point_b, dim), or_origin(p.point_a, dim));
    return ForcePointPair(attachable(p.body_a, "body_a"), or_origin(p.point_a, dim), b, or_origin(p.point_b, dim));
  }

  void add_force(const SpringDescription& s) {
    SpringLaw law = s.law == SpringLawKind::linear ? linear_spring_law(s.stiffness, s.rest_length)
                                                         : green_strain_spring_law(s.stiffness, s.rest_length);
    mechanism_.add(std::make_shared<PointSpring>(s.name, pair(s.points), std::move(law)));
  }

  void add_force(const DamperDescription& d) {
    if (d.axial) mechanism_.add(std::make_shared<AxialPointDamper>(d.name, pair(d.points), d.damping));
    else mechanism_.add(std::make_shared<PointDamper>(d.name, pair(d.points), d.damping));
  }

  HingeAngle hinge(const HingeDescription& h) const {
    const BodyRef& b = attachable(h.body_b, "body_b");
    const bool ground = h.body_a.empty();
    const BodyRef* a = ground ? nullptr : &attachable(h.body_a, "body_a");
    if (b.kinematics.dimension() == 2) {
      if (h.u_a.size() + h.w_a.size() + h.u_b.size() != 0)
        throw FieldError("u_a", "a planar hinge measures the angle between the bodies' d1 and takes no directions");
      return ground ? HingeAngle::planar_from_ground(b) : HingeAngle::planar(*a, b);
    }
    return ground ? HingeAngle::from_ground(h.u_a, h.w_a, b, h.u_b) : HingeAngle::between(*a, h.u_a, h.w_a, b, h.u_b);
  }

  void add_force(const RotationalSpringDescription& s) {
    mechanism_.add(std::make_shared<RotationalSpring>(s.name, hinge(s.hinge).shifted(s.rest_angle),
                                                      torsion_spring_law(s.stiffness)));
  }

  void add_force(const RotationalDamperDescription& d) {
    mechanism_.add(std::make_shared<RotationalDamper>(d.name, hinge(d.hinge), d.damping));
  }

  void add_force(const PointForceDescription& f) {
    const BodyRef& b = attachable(f.body, "body");
    mechanism_.add(std::make_shared<PointForce>(f.name, b, or_origin(f.point, b.kinematics.dimension()),
                                                directed_load(f.force, f.profile, "force " + quote(f.name))));
  }

  void add_force(const TorqueDescription& t) {
    mechanism_.add(std::make_shared<BodyTorque>(t.name, attachable(t.body, "body"),
                                                directed_load(t.torque, t.profile, "torque " + quote(t.name))));
  }

  void add_force(const PolynomialPotentialDescription& p) {
    const PlacedBody& b = body(p.body, "body");
    const std::vector<std::string> names =
        b.coordinates.empty() ? mechanism_.system().block(b.block).coordinate_names : b.coordinates;
    const auto at = std::find(names.begin(), names.end(), p.coordinate);
    if (at == names.end()) {
      std::string known;
      for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
      throw FieldError("coordinate", "body " + quote(p.body) + " has no coordinate " + quote(p.coordinate) + "; it has " + known);
    }
    mechanism_.add(std::make_shared<PolynomialPotential>(p.name, b.block, b.size, static_cast<Index>(at - names.begin()),
                                                         p.center, p.coefficients));
  }

  void add_force(const DampingMatrixDescription& c) {
    mechanism_.add(std::make_shared<ConstantDamping>(c.name, blocks(c.bodies, "bodies"), c.matrix));
  }

  // ---- actuators --------------------------------------------------------------------------

  std::shared_ptr<const JointCoordinate> coordinate(const ActuatorDescription& a) const {
    if (const auto* h = std::get_if<HingeDescription>(&a.coordinate))
      return std::make_shared<HingeCoordinate>(hinge(*h).shifted(a.zero_angle));
    const auto& s = std::get<SlideDescription>(a.coordinate);
    if (a.zero_angle != 0.0) throw FieldError("zero_angle", "a slide has no angle; give zero_angle for hinges only");
    const BodyRef& b = attachable(s.body_b, "body_b");
    const Index dim = b.kinematics.dimension();
    if (s.body_a.empty()) return std::make_shared<SlideCoordinate>(
        SlideCoordinate::from_ground(or_origin(s.point_a, dim), s.axis_a, b, or_origin(s.point_b, dim)));
    const BodyRef& a_ref = attachable(s.body_a, "body_a");
    return std::make_shared<SlideCoordinate>(
        SlideCoordinate::between(a_ref, or_origin(s.point_a, dim), s.axis_a, b, or_origin(s.point_b, dim)));
  }

  static ActuatorLaw law(const ActuatorDescription& a, const JointCoordinate& along) {
    const std::string owner = "actuator " + quote(a.name);
    if (const auto* p = std::get_if<ProfileLawDescription>(&a.law)) return profile_law(p->profile, owner);
    const auto& pd = std::get<PdLawDescription>(a.law);
    return pd_law(along, pd.kp, pd.kd, pd.reference, owner);
  }

  void add_actuator(const ActuatorDescription& a) {
    std::shared_ptr<const JointCoordinate> along = coordinate(a);
    ActuatorLaw u = law(a, *along);
    auto made = std::make_shared<JointActuator>(a.name, std::move(along), std::move(u));
    actuators_.push_back(made);
    mechanism_.add(std::shared_ptr<const Actuator>(std::move(made)));
  }

  /// Actuator i's probes (ActuatorDescription): "actuator:<name>" and, for PD, "tracking_error:<name>".
  void add_actuator_probes(std::size_t i, Model& model) const {
    const ActuatorDescription& a = d_.actuators[i];
    const std::shared_ptr<const JointActuator> motor = actuators_[i];
    const std::vector<Index> dofs = model.system->actuators()[i].dofs;
    const auto local = [dofs](const Vector& x) {
      Vector out(static_cast<Index>(dofs.size()));
      for (std::size_t k = 0; k < dofs.size(); ++k) out(static_cast<Index>(k)) = x(dofs[k]);
      return out;
    };
    const auto add = [&](Probe probe) {
      require_column_name("actuator", probe.name);
      add_probe(model, std::move(probe));
    };
    add({"actuator:" + a.name, 1,
         [motor, local](const State& s) {
           return Vector(Vector::Constant(1, motor->value_at(s.t, local(s.q), local(s.v))));
         },
         true});
    if (const auto* pd = std::get_if<PdLawDescription>(&a.law))
      add({"tracking_error:" + a.name, 1,
           [motor, local, r = pd->reference](const State& s) {
             const JointCoordinate& x = motor->coordinate();
             const double error = coordinate_difference(x.value(local(s.q)), evaluate(r, s.t), x.period());
             return Vector(Vector::Constant(1, error));
           },
           true});
  }

  /// Appends `probe` to the model's, refusing a name whose columns another probe, a coordinate or a
  /// momentum heads already.
  static void add_probe(Model& model, Probe probe) {
    if (const std::string clash =
            probe_name_clash(*model.system, model.probes, model.conserved_momenta, probe.name, probe.dimension);
        !clash.empty())
      throw FieldError("name", clash);
    model.probes.push_back(std::move(probe));
  }

  // ---- probes and invariants -------------------------------------------------------------

  /// An invariant's name keys its drift in summary.json (invariant_drifts) and names a line of the
  /// printed summary: no hidden character (engine/quote.hpp), and not an earlier invariant's.
  static void require_distinct_invariant(const std::vector<Invariant>& earlier, const std::string& name) {
    if (const std::string hidden = hidden_character(name); !hidden.empty())
      throw FieldError("name", "invariant " + quote(name) + ": a name must not contain a control or Unicode format " +
                                   "character or a byte that is not UTF-8, and it holds " + hidden);
    const auto same = std::find_if(earlier.begin(), earlier.end(), [&](const Invariant& i) { return i.name == name; });
    if (same != earlier.end())
      throw FieldError("name", "invariant " + std::to_string(same - earlier.begin()) + " is named " + quote(name) +
                                   " too (an invariant without a name is named after its type); its drift is reported "
                                   "under its name in summary.json: give each invariant its own name");
  }

  /// Whether the part places the body `name` as its own (not a ghost, not another process's).
  bool owns(const std::string& name) const {
    const auto placed = index_.find(name);
    return placed != index_.end() && !bodies_[placed->second].ghost;
  }

  /// A part's probe (part_probes): built where the part evaluates it, else its name and dimension.
  Probe probe(const PointProbeDescription& p, const System& system, bool) const {
    const auto placed = index_.find(p.body);
    if (placed != index_.end() && !bodies_[placed->second].ghost) return probe(p, system);
    Probe absent{p.name, 0, {}};
    if (placed != index_.end())
      absent.dimension = bodies_[placed->second].kind == BodyClass::spherical
                             ? 3
                             : attachable(p.body, "body").kinematics.dimension();
    return absent;
  }
  static Probe probe(const ProfileProbeDescription& p, const System& system, bool bodiless) {
    if (bodiless) return probe(p, system);
    return {p.name, 1, {}};
  }

  Probe probe(const PointProbeDescription& p, const System& system) const {
    const PlacedBody& b = body(p.body, "body");
    if (b.kind == BodyClass::spherical) {
      if (p.point.size() != 0) throw FieldError("point", "a point mass in spherical coordinates takes no point");
      const Index offset = system.block(b.block).offset;
      return {p.name, 3, [offset](const State& s) { return Vector(spherical_to_cartesian(s.q.segment(offset, 3))); }};
    }
    const BodyRef& ref = attachable(p.body, "body");
    return body_point_probe(p.name, system, ref, or_origin(p.point, ref.kinematics.dimension()));
  }

  static Probe probe(const ProfileProbeDescription& p, const System&) {
    check_time_profile(p.profile, "probe " + quote(p.name));
    return {p.name, 1, [profile = p.profile](const State& s) { return Vector(Vector::Constant(1, evaluate(profile, s.t))); }};
  }

  /// The invariant over the bodies it lists (every body when it lists none); with `owned_only` (a
  /// part's) over those of them the part owns: their sum over the parts is the whole's, and a
  /// part that owns none gets an invariant of no value (an empty vector).
  Invariant invariant(const InvariantDescription& description, const System& system, bool owned_only = false) const {
    std::vector<std::string> listed = description.bodies;
    if (listed.empty())
      for (const BodyDescription& body : d_.bodies) listed.push_back(name_of(body));
    if (owned_only) std::erase_if(listed, [&](const std::string& name) { return !owns(name); });
    if (listed.empty()) return {description.name, [](const State&) { return Vector(); }};
    struct Part {
      Index offset, vectors;  ///< first coordinate, dimension-vectors in the block (phi, d1, ... or the point)
    };
    std::vector<Part> parts;
    Index dim = 0;
    for (const std::string& name : listed) {
      const BodyRef& ref = attachable(name, "bodies");
      if (dim != 0 && ref.kinematics.dimension() != dim) throw FieldError("bodies", "the bodies must share one dimension");
      dim = ref.kinematics.dimension();
      parts.push_back({system.block(ref.block).offset, ref.kinematics.size() / dim});
    }
    if (description.momentum == Momentum::linear)
      return {description.name, [parts, dim](const State& s) {
                Vector total = Vector::Zero(dim);
                for (const Part& part : parts) total += s.p.segment(part.offset, dim);
                return total;
              }};
    return {description.name, [parts, dim](const State& s) {
              Vector total = Vector::Zero(dim == 3 ? 3 : 1);
              for (const Part& part : parts)
                for (Index k = 0; k < part.vectors; ++k) {
                  const Index at = part.offset + k * dim;
                  if (dim == 3)
                    total += Eigen::Vector3d(s.q.segment<3>(at)).cross(Eigen::Vector3d(s.p.segment<3>(at)));
                  else
                    total(0) += s.q(at) * s.p(at + 1) - s.q(at + 1) * s.p(at);
                }
              return total;
            }};
  }

  const ModelDescription& d_;
  const PartDescription* part_;  ///< null: the whole description
  Mechanism mechanism_;
  std::vector<std::shared_ptr<const JointActuator>> actuators_;  ///< in the order of d_.actuators
  std::vector<PlacedBody> bodies_;
  std::vector<ConstraintKey> constraint_keys_;  ///< one per constraint built, in its order
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace

const std::string& name_of(const BodyDescription& body) {
  return std::visit([](const auto& b) -> const std::string& { return b.name; }, body);
}

Mechanism build_mechanism(const ModelDescription& description) { return Builder(description).build(); }

MechanismPart build_mechanism_part(const PartDescription& part, bool bodiless) {
  Builder builder(part.description, &part);
  MechanismPart built{builder.build(), {}, {}, {}};
  built.constraint_keys = builder.constraint_keys();
  built.probes = builder.part_probes(built.mechanism.system(), bodiless);
  built.invariants = builder.part_invariants(built.mechanism.system());
  return built;
}

Model build_model(const ModelDescription& description) {
  Builder builder(description);
  Mechanism mechanism = builder.build();
  Model model;
  model.initial = mechanism.initial_state();
  model.system = mechanism.release_system();
  model.conserved_momenta = description.conserved_momenta;
  builder.complete(model);
  return model;
}

}  // namespace noether

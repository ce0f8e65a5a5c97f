#include <noether/apps/vtk_drawing.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

#include <noether/engine/partition.hpp>

namespace noether {
namespace {

/// v, or the origin of `dimension` components when v is empty (an attachment's default).
Vector or_origin(const Vector& v, Index dimension) { return v.size() == 0 ? Vector(Vector::Zero(dimension)) : v; }

/// The layout of a body the drawing shows; nullopt for the others.
std::optional<BodyKind> drawn_kind(const BodyDescription& body) {
  if (std::holds_alternative<RigidBodyDescription>(body)) return BodyKind::director3d;
  if (std::holds_alternative<PlanarBodyDescription>(body)) return BodyKind::planar_director;
  if (const auto* point = std::get_if<PointMassDescription>(&body))
    return point->position.size() == 3 ? BodyKind::point_mass3d : BodyKind::point_mass2d;
  return std::nullopt;
}

/// sqrt(tr J_c / m) (sqrt(J_c / m) in the plane), or 1 when that is 0 or not finite.
double radius_of_gyration(const BodyDescription& body) {
  double r = 0.0;
  if (const auto* b = std::get_if<RigidBodyDescription>(&body)) r = std::sqrt(b->properties.inertia.trace() / b->properties.mass);
  if (const auto* b = std::get_if<PlanarBodyDescription>(&body)) r = std::sqrt(b->properties.inertia / b->properties.mass);
  return std::isfinite(r) && r > 0.0 ? r : 1.0;
}

/// Per body name, the largest |X| of the points on it the description names.
std::unordered_map<std::string, double> attachment_radii(const ModelDescription& d) {
  std::unordered_map<std::string, double> radius;
  const auto note = [&](const std::string& body, const Vector& point) {
    if (!body.empty() && point.size() > 0) radius[body] = std::max(radius[body], point.norm());
  };
  for (const JointDescription& j : d.joints) {
    note(j.a.body, j.a.point);
    note(j.b.body, j.b.point);
  }
  for (const ForceDescription& force : d.forces) {
    const auto pair = [&](const PointPairDescription& p) {
      note(p.body_a, p.point_a);
      note(p.body_b, p.point_b);
    };
    if (const auto* f = std::get_if<SpringDescription>(&force)) pair(f->points);
    if (const auto* f = std::get_if<DamperDescription>(&force)) pair(f->points);
    if (const auto* f = std::get_if<PointForceDescription>(&force)) note(f->body, f->point);
  }
  for (const ProbeDescription& probe : d.probes)
    if (const auto* p = std::get_if<PointProbeDescription>(&probe)) note(p->body, p->point);
  return radius;
}

/// The body probe i of the model's probes names (the description's probes come first, in order);
/// "" for a probe of no body.
const std::string& probe_body(const ModelDescription& description, std::size_t i) {
  static const std::string none;
  if (i >= description.probes.size()) return none;
  const auto* point = std::get_if<PointProbeDescription>(&description.probes[i]);
  return point ? point->body : none;
}

/// Item i's number in the whole description: numbers[i] (a part's), or i when none are given.
std::size_t whole_number(std::span<const Index> numbers, std::size_t i) {
  return numbers.empty() ? i : static_cast<std::size_t>(numbers[i]);
}

}  // namespace

DrawnPart DrawnPart::of(const System& system, const Distribution& processes) {
  return {processes.rank(), noether::block_processes(system, processes.ranks()), {}, {}};
}

VtkDrawing::VtkDrawing(const ModelDescription& description, const Model& model, const DrawnPart& part)
    : rank_(part.rank) {
  BlockPlaces places;
  const std::span<const CoordinateBlock> blocks = model.system->blocks();
  for (std::size_t b = 0; b < blocks.size(); ++b)
    places.emplace(blocks[b].name,
                   BlockPlace{blocks[b].offset, part.block_processes.empty() ? part.rank : part.block_processes[b]});
  add_bodies(description, places, part.body_numbers);
  add_joints(description, part.joint_numbers);
  add_probes(description, model, places);
}

Index VtkDrawing::add_point(PlacedPoint point) {
  placed_.push_back(std::move(point));
  return static_cast<Index>(placed_.size() - 1);
}

void VtkDrawing::add_vertex(Index point, VtkCellKind kind, std::size_t index) {
  vertices_.push_back(point);
  vertex_kind_.push_back(static_cast<std::int32_t>(kind));
  vertex_index_.push_back(static_cast<std::int32_t>(index));
}

void VtkDrawing::add_line(Index from, Index to, VtkCellKind kind, std::size_t index) {
  lines_.insert(lines_.end(), {from, to});
  line_kind_.push_back(static_cast<std::int32_t>(kind));
  line_index_.push_back(static_cast<std::int32_t>(index));
}

VtkDrawing::PlacedPoint VtkDrawing::point_on(const std::string& name, const Vector& point, Index dimension) const {
  if (name.empty()) return {or_origin(point, dimension), 0, Matrix(dimension, 0)};
  const DrawnBody& body = bodies_.at(name);
  const Index d = body.kinematics.dimension();
  return {Vector::Zero(d), body.offset, body.kinematics.point_map(or_origin(point, d))};
}

void VtkDrawing::add_bodies(const ModelDescription& description, const BlockPlaces& places, std::span<const Index> numbers) {
  const std::unordered_map<std::string, double> radii = attachment_radii(description);
  for (std::size_t i = 0; i < description.bodies.size(); ++i) {
    const BodyDescription& body = description.bodies[i];
    const std::optional<BodyKind> kind = drawn_kind(body);
    if (!kind) continue;
    const std::string& name = name_of(body);
    const auto radius = radii.find(name);
    const double length = radius != radii.end() && radius->second > 0.0 ? radius->second : radius_of_gyration(body);
    const auto place = places.find(name);
    if (place == places.end()) continue;  // another process's part, whose bodies this one's elements do not touch
    const DrawnBody& drawn =
        bodies_.emplace(name, DrawnBody{place->second.offset, BodyKinematics(*kind), length, place->second.process})
            .first->second;
    if (drawn.process != rank_) continue;  // another process's part: its joints' points may lie on it
    const Index dimension = drawn.kinematics.dimension();
    const Index centre = add_point(point_on(name, Vector::Zero(dimension), dimension));
    const std::size_t number = whole_number(numbers, i);
    add_vertex(centre, VtkCellKind::body_centre, number);
    if (!drawn.kinematics.has_directors()) continue;
    for (Index axis = 0; axis < dimension; ++axis) {
      const Index tip = add_point(point_on(name, length * Vector::Unit(dimension, axis), dimension));
      add_line(centre, tip, static_cast<VtkCellKind>(static_cast<int>(VtkCellKind::director_1) + axis), number);
    }
  }
}

void VtkDrawing::add_joints(const ModelDescription& description, std::span<const Index> numbers) {
  for (std::size_t i = 0; i < description.joints.size(); ++i) {
    const JointDescription& joint = description.joints[i];
    const auto b = bodies_.find(joint.b.body);
    const bool drawable = b != bodies_.end() && (joint.a.body.empty() || bodies_.contains(joint.a.body));
    if (!drawable || joint.kind->b.point == Takes::no) continue;  // a joint without a point: nothing to draw
    const auto a = bodies_.find(joint.a.body);
    const DrawnBody& first = a != bodies_.end() && a->second.offset < b->second.offset ? a->second : b->second;
    if (first.process != rank_) continue;
    const Index dimension = b->second.kinematics.dimension();
    const std::size_t number = whole_number(numbers, i);
    const Index point_b = add_point(point_on(joint.b.body, joint.b.point, dimension));
    add_vertex(point_b, VtkCellKind::joint_point, number);
    if (joint.kind->drawn_as_segment)
      add_line(add_point(point_on(joint.a.body, joint.a.point, dimension)), point_b, VtkCellKind::joint_segment, number);
  }
}

void VtkDrawing::add_probes(const ModelDescription& description, const Model& model, const BlockPlaces& places) {
  for (std::size_t i = 0; i < model.probes.size(); ++i) {
    const Probe& probe = model.probes[i];
    if (probe.dimension < 2) continue;
    const std::string& body = probe_body(description, i);
    const auto place = places.find(body);
    if (body.empty() ? rank_ != 0 : place == places.end() || place->second.process != rank_) continue;
    add_vertex(static_cast<Index>(placed_.size() + probes_.size()), VtkCellKind::probe, i);
    probes_.push_back(&probe);
  }
}

void VtkDrawing::draw(const State& state, double energy, double constraint_residual, VtkPolyData& data) const {
  data.points.assign(3 * num_points(), 0.0);
  double* x = data.points.data();
  for (const PlacedPoint& p : placed_) {
    Eigen::Map<Vector> position(x, p.fixed.size());
    position.noalias() = p.map * state.q.segment(p.offset, p.map.cols());
    position += p.fixed;
    x += 3;
  }
  for (const Probe* probe : probes_) {
    const Vector position = probe->position(state);
    std::copy(position.data(), position.data() + std::min<Index>(position.size(), 3), x);
    x += 3;
  }
  data.vertices = vertices_;
  data.lines = lines_;
  const auto concatenated = [](const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
    std::vector<std::int32_t> both(a);
    both.insert(both.end(), b.begin(), b.end());
    return both;
  };
  data.cell_data = {{"kind", 1, concatenated(vertex_kind_, line_kind_)}, {"index", 1, concatenated(vertex_index_, line_index_)}};
  data.field_data = {{"TimeValue", 1, std::vector<double>{state.t}},
                     {"step", 1, std::vector<std::int64_t>{state.step}},
                     {"energy", 1, std::vector<double>{energy}},
                     {"constraint_residual", 1, std::vector<double>{constraint_residual}}};
}

}  // namespace noether

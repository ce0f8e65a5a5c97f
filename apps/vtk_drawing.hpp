#pragma once
/// What the motion files (vtk/step_*.vtp) draw of a model, as points and cells whose places follow
/// the state (docs/output.md, "vtk/ and motion.pvd"):
///   - a 3D director body: its centre phi (a vertex) and its directors as three segments from phi
///     to phi + l d_i; a planar body the same with d1, d2 (z = 0); a point mass: a vertex;
///   - a joint that has a point: the point of its side B (a vertex); a distance joint also the
///     segment between its two points;
///   - a probe of 2 or 3 components: a vertex.
/// Left out: bodies that are no director bodies or Cartesian point masses (a point mass in
/// spherical coordinates, generalized coordinates: only their probes show them), perpendicular
/// joints (no point), constraints that are not joints.
/// The director length l of a body is the largest distance from phi of the points on it that the
/// model names (joints, springs, dampers, point loads, probes); a body without any gets its radius
/// of gyration, sqrt(tr J_c / m) (sqrt(J_c / m) in the plane), or 1 when that is 0.
/// Over several processes each draws its part (DrawnPart), one piece of each drawing.
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <noether/apps/model/model.hpp>
#include <noether/apps/model/model_description.hpp>
#include <noether/apps/vtk_writer.hpp>
#include <noether/bodies/kinematics.hpp>
#include <noether/engine/distribution.hpp>

namespace noether {

/// The cell data "kind" of each cell.
enum class VtkCellKind : std::int32_t {
  body_centre = 0,
  director_1 = 1,
  director_2 = 2,
  director_3 = 3,
  joint_point = 4,
  joint_segment = 5,
  probe = 6
};

/// What one process of a run over several draws (docs/output.md, "Over several processes"): the
/// bodies whose coordinate blocks it owns under the run's partition, the one its distributed
/// assembly uses (block_processes, engine/partition.hpp), and what is drawn with them: a joint by
/// the process of the body whose coordinates come first (the process that assembles the joint's
/// term: the one of its smallest coordinate), a probe by its body's process. The processes' parts
/// share no cell, and together they draw what one process draws.
struct DrawnPart {
  int rank = 0;
  /// The process of each coordinate block of the system (System::blocks() order); empty: the
  /// whole model (one process, rank 0).
  std::vector<int> block_processes;
  /// Each body's and each joint's number in the whole description (the "index" of its cells) when
  /// the description drawn is a part's (PartDescription: its body_numbers and the joints' entry
  /// numbers); empty: its index in the description drawn. Read while the drawing is made.
  std::span<const Index> body_numbers, joint_numbers;

  /// The part of processes.rank() of system, the system the run steps (its structure sets the
  /// partition).
  static DrawnPart of(const System& system, const Distribution& processes);
};

class VtkDrawing {
 public:
  /// The drawing of `part` of model, which description built (build_model), and which must outlive
  /// it (the whole model by default). A joint's point on a body of another process's part is
  /// placed from that body's coordinates in the state. Over parts model is this process's part
  /// (build_model_part: its own and its ghost bodies, block_processes naming their processes).
  VtkDrawing(const ModelDescription& description, const Model& model, const DrawnPart& part = {});

  /// data becomes the drawing at state: its points; the cells and their data "kind" (VtkCellKind)
  /// and "index" (the body's, joint's or probe's index in its list of the description); field
  /// data TimeValue (t), step, energy and constraint_residual (max|g(q)| at state).
  void draw(const State& state, double energy, double constraint_residual, VtkPolyData& data) const;

  std::size_t num_points() const { return placed_.size() + probes_.size(); }

 private:
  /// A point affine in one body's coordinates, x = fixed + map q[offset, offset + map.cols()), of
  /// 2 or 3 components (a point of the ground: map without columns).
  struct PlacedPoint {
    Vector fixed;
    Index offset;
    Matrix map;
  };
  /// A body drawn, by this process or another: its block's offset, its layout, the length of its
  /// directors, the process that draws it.
  struct DrawnBody {
    Index offset;
    BodyKinematics kinematics;
    double director_length;
    int process;
  };
  /// A coordinate block's offset and process, by the block's name (a body's).
  struct BlockPlace {
    Index offset;
    int process;
  };
  using BlockPlaces = std::unordered_map<std::string, BlockPlace>;
  Index add_point(PlacedPoint point);
  void add_vertex(Index point, VtkCellKind kind, std::size_t index);
  void add_line(Index from, Index to, VtkCellKind kind, std::size_t index);
  /// The point `point` (body coordinates) of the body `name`, or of the ground when name is empty.
  PlacedPoint point_on(const std::string& name, const Vector& point, Index dimension) const;
  void add_bodies(const ModelDescription& description, const BlockPlaces& places, std::span<const Index> numbers);
  void add_joints(const ModelDescription& description, std::span<const Index> numbers);
  void add_probes(const ModelDescription& description, const Model& model, const BlockPlaces& places);

  int rank_;
  std::unordered_map<std::string, DrawnBody> bodies_;
  std::vector<PlacedPoint> placed_;
  std::vector<const Probe*> probes_;
  std::vector<std::int64_t> vertices_, lines_;
  /// Per cell, vertices first: its kind and index.
  std::vector<std::int32_t> vertex_kind_, vertex_index_, line_kind_, line_index_;
};

}  // namespace noether

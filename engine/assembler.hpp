#pragma once
/// Deterministic parallel assembly of a global residual and sparse tangent from local units.
///
/// Once per topology the plan computes the compressed-column pattern, for every unit the global
/// slot of each of its structural local entries, and a schedule: chunks of units, colored so that
/// chunks of one color share no unknown (engine/assembly_schedule.hpp). Each assembly then, color
/// after color, runs the chunks of the color in parallel; each unit of a chunk is evaluated into
/// per-thread scratch and its entries are added straight into the global residual and matrix (the
/// first contribution to a matrix entry assigns it, so the matrix is never zeroed as a whole). No
/// two concurrent units touch the same entry, and every entry receives its contributions in the
/// fixed order of the schedule, so the residual and matrix values are bitwise identical for 1, 2
/// or any number of threads.
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "engine/sparse_pattern.hpp"
#include "engine/assembly_schedule.hpp"

namespace noether {

/// A dense rectangular sub-block of a unit's local matrix, in local row/column numbering. The unit
/// writes all rows x cols values; `structure` (rows x cols, optional) marks the entries that can be
/// nonzero: the others never enter the global pattern, and the unit must leave them zero.
struct LocalBlock {
  Index row_begin = 0;
  Index rows = 0;
  Index col_begin = 0;
  Index cols = 0;
  Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> structure = {};  ///< empty: every entry
};

/// One contributor to the global system: global unknown indices of its local rows/columns
/// (`dofs`, which may repeat an index: the contributions then add) and the dense local blocks it
/// writes. The local residual covers all of `dofs`.
struct UnitLayout {
  std::vector<Index> dofs;
  std::vector<LocalBlock> blocks;
};

/// Where a block of a unit's local matrix lives in the unit's scratch buffer (column-major).
struct BlockShape {
  Index offset = 0;
  Index rows = 0;
  Index cols = 0;
};

/// Where a unit writes during one assembly: zeroed before the unit's evaluation, so units
/// accumulate with add_ methods.
class UnitOutput {
 public:
  UnitOutput(double* residual, Index size, double* matrix, std::span<const BlockShape> blocks, bool with_matrix)
      : residual_(residual, size), matrix_(matrix), blocks_(blocks), with_matrix_(with_matrix) {}

  Eigen::Map<Vector>& residual() { return residual_; }
  /// Local block k as declared in the unit's layout (rows x cols, column-major).
  Eigen::Map<Matrix> block(std::size_t k) {
    return Eigen::Map<Matrix>(matrix_ + blocks_[k].offset, blocks_[k].rows, blocks_[k].cols);
  }
  /// False when only the residual is wanted: units may then skip their tangent work.
  bool with_matrix() const { return with_matrix_; }

 private:
  Eigen::Map<Vector> residual_;
  double* matrix_;
  std::span<const BlockShape> blocks_;
  bool with_matrix_;
};

/// A structural local entry of a unit and where it goes: position in the unit's local matrix
/// buffer (its blocks, column-major, one after the other) and slot in the global value array.
struct ScatterEntry {
  Index local;
  Index slot;
};

/// The topology-dependent part of assembly: pattern, scatter maps and schedule. Built once.
class AssemblyPlan {
 public:
  /// n: number of global unknowns. Every diagonal entry is part of the pattern (structurally),
  /// whether or not a unit writes it. Throws std::invalid_argument for a dof outside [0, n) or a
  /// block outside its unit's dofs.
  /// The layouts are not kept: an assembly reads only the plan's flat arrays.
  AssemblyPlan(Index n, const std::vector<UnitLayout>& units);

  const CscPattern& pattern() const { return pattern_; }
  Index num_units() const { return static_cast<Index>(visits_.size()) - 1; }
  const AssemblySchedule& schedule() const { return schedule_; }

 private:
  friend class Assembler;
  void build_pattern(const std::vector<UnitLayout>& units);
  void build_visit_data(const std::vector<UnitLayout>& units);

  CscPattern pattern_;
  AssemblySchedule schedule_;
  /// What an assembly reads of the unit at visiting position k (schedule_.units[k]); the ranges of
  /// unit k end where those of unit k + 1 begin (visits_ ends with a sentinel).
  struct Visit {
    Index unit;
    Index residual_begin;  ///< into residual_rows_ and the assembler's residual buffer
    Index scatter_begin;   ///< into scatter_
    Index first_add;       ///< scatter entries before it assign their slot, the others add
    Index block_begin;     ///< into block_shapes_
    Index matrix_size;     ///< doubles of the unit's local matrix
  };
  // All laid out in visiting order, so that an assembly streams through memory.
  std::vector<Visit> visits_;            ///< units + 1 entries
  std::vector<Index> residual_rows_;     ///< the units' dofs, concatenated
  std::vector<ScatterEntry> scatter_;    ///< structural local entries, concatenated
  std::vector<BlockShape> block_shapes_; ///< the units' blocks, concatenated
  std::vector<Index> unwritten_slots_;   ///< pattern slots no unit writes (diagonal entries only)
  Index max_matrix_size_ = 0;
};

/// Owns the per-unit residual buffers and per-thread matrix scratch for one plan, and runs assemblies.
class Assembler {
 public:
  explicit Assembler(AssemblyPlan plan);

  const AssemblyPlan& plan() const { return plan_; }
  const CscPattern& pattern() const { return plan_.pattern(); }

  /// Overwrites residual (n) and, when values is non-empty, the matrix values (pattern().nnz()).
  /// eval(Index unit, UnitOutput& out) is called once per unit, concurrently for units of
  /// different chunks of one color.
  template <class Eval>
  void assemble(Eval&& eval, VectorRef residual, std::span<double> values);

  /// The unit whose contribution to residual row `row` had the largest magnitude in the last
  /// assembly (-1 when no unit writes that row). Used to name the element behind a bad residual.
  Index largest_contributor(Index row) const;

 private:
  /// Output of the unit at visiting position k: its slice of the residual buffer and the scratch.
  UnitOutput output_of(std::size_t k, bool with_matrix, std::vector<double>& matrix_scratch);
  /// Adds the local residual and (when values is non-empty) the structural matrix entries of the
  /// unit at visiting position k.
  void scatter(std::size_t k, const std::vector<double>& matrix_scratch, VectorRef residual, std::span<double> values) const;
  /// Zeroes the residual and the matrix slots no unit writes (the others are assigned first).
  void clear(VectorRef residual, std::span<double> values) const;

  AssemblyPlan plan_;
  std::vector<double> residual_buffer_;  ///< local residuals, in visiting order
  tbb::enumerable_thread_specific<std::vector<double>> matrix_scratch_;
};

template <class Eval>
void Assembler::assemble(Eval&& eval, VectorRef residual, std::span<double> values) {
  const bool with_matrix = !values.empty();
  clear(residual, values);
  const AssemblySchedule& schedule = plan_.schedule();
  auto run_chunk = [&](Index chunk, std::vector<double>& scratch) {
    const auto c = static_cast<std::size_t>(chunk);
    for (auto k = static_cast<std::size_t>(schedule.chunk_starts[c]); k < static_cast<std::size_t>(schedule.chunk_starts[c + 1]); ++k) {
      UnitOutput out = output_of(k, with_matrix, scratch);
      eval(plan_.visits_[k].unit, out);
      scatter(k, scratch, residual, values);
    }
  };
  for (Index color = 0; color < schedule.num_colors(); ++color) {
    const tbb::blocked_range<Index> chunks(schedule.color_starts[static_cast<std::size_t>(color)],
                                           schedule.color_starts[static_cast<std::size_t>(color) + 1]);
    tbb::parallel_for(chunks, [&](const tbb::blocked_range<Index>& range) {
      std::vector<double>& scratch = matrix_scratch_.local();
      for (Index k = range.begin(); k != range.end(); ++k) run_chunk(schedule.chunks[static_cast<std::size_t>(k)], scratch);
    });
  }
}

}  // namespace noether

#pragma once
/// Deterministic parallel assembly of a global residual and sparse tangent from local units.
///
/// Once per topology the plan computes the compressed-column pattern and, for every global entry,
/// the list of local buffer positions that contribute to it (in unit order). Each assembly then
///  1. evaluates every unit in parallel into its own buffers (no sharing, no atomics), and
///  2. fills every global entry by summing its contributors in that fixed order, in parallel
///     over entries.
/// Floating-point sums are therefore formed in the same order whatever the thread count, and the
/// residual and matrix values are bitwise identical for 1, 2 or any number of threads.
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "engine/sparse_pattern.hpp"

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

/// Where a unit writes during one assembly: zeroed before the unit's evaluation, so units
/// accumulate with add_ methods.
class UnitOutput {
 public:
  UnitOutput(double* residual, Index size, double* matrix, std::span<const LocalBlock> blocks,
             std::span<const Index> block_offsets, bool with_matrix)
      : residual_(residual, size), matrix_(matrix), blocks_(blocks), block_offsets_(block_offsets),
        with_matrix_(with_matrix) {}

  Eigen::Map<Vector>& residual() { return residual_; }
  /// Local block k as declared in the unit's layout (rows x cols, column-major).
  Eigen::Map<Matrix> block(std::size_t k) {
    return Eigen::Map<Matrix>(matrix_ + block_offsets_[k], blocks_[k].rows, blocks_[k].cols);
  }
  /// False when only the residual is wanted: units may then skip their tangent work.
  bool with_matrix() const { return with_matrix_; }

 private:
  Eigen::Map<Vector> residual_;
  double* matrix_;
  std::span<const LocalBlock> blocks_;
  std::span<const Index> block_offsets_;
  bool with_matrix_;
};

/// The topology-dependent part of assembly: pattern and contributor maps. Built once.
class AssemblyPlan {
 public:
  /// n: number of global unknowns. Every diagonal entry is part of the pattern (structurally),
  /// whether or not a unit writes it. Throws std::invalid_argument for a dof outside [0, n) or a
  /// block outside its unit's dofs.
  AssemblyPlan(Index n, std::vector<UnitLayout> units);

  const CscPattern& pattern() const { return pattern_; }
  Index num_units() const { return static_cast<Index>(units_.size()); }
  const UnitLayout& unit(Index u) const { return units_[static_cast<std::size_t>(u)]; }

 private:
  friend class Assembler;
  std::vector<UnitLayout> units_;
  CscPattern pattern_;
  std::vector<Index> residual_offsets_;  ///< per unit, into the residual buffer; size units + 1
  std::vector<Index> matrix_offsets_;    ///< per unit, into the matrix buffer; size units + 1
  std::vector<Index> block_offsets_;     ///< per block of all units, relative to its unit's matrix offset
  std::vector<Index> unit_first_block_;  ///< per unit, index into block_offsets_; size units + 1
  std::vector<Index> slot_starts_;       ///< per pattern slot: range into slot_sources_
  std::vector<Index> slot_sources_;      ///< matrix-buffer positions, unit order
  std::vector<Index> row_starts_;        ///< per global row: range into row_sources_
  std::vector<Index> row_sources_;       ///< residual-buffer positions, unit order
};

/// Owns the per-unit buffers for one plan and runs assemblies.
class Assembler {
 public:
  explicit Assembler(AssemblyPlan plan);

  const AssemblyPlan& plan() const { return plan_; }
  const CscPattern& pattern() const { return plan_.pattern(); }

  /// Overwrites residual (n) and, when values is non-empty, the matrix values (pattern().nnz()).
  /// eval(Index unit, UnitOutput& out) is called once per unit, concurrently for different units.
  template <class Eval>
  void assemble(Eval&& eval, VectorRef residual, std::span<double> values);

  /// The unit whose contribution to residual row `row` had the largest magnitude in the last
  /// assembly (-1 when no unit writes that row). Used to name the element behind a bad residual.
  Index largest_contributor(Index row) const;

 private:
  UnitOutput output_of(Index u, bool with_matrix);
  void reduce(VectorRef residual, std::span<double> values) const;

  AssemblyPlan plan_;
  std::vector<double> residual_buffer_;
  std::vector<double> matrix_buffer_;
};

template <class Eval>
void Assembler::assemble(Eval&& eval, VectorRef residual, std::span<double> values) {
  const bool with_matrix = !values.empty();
  tbb::parallel_for(tbb::blocked_range<Index>(0, plan_.num_units()), [&](const tbb::blocked_range<Index>& range) {
    for (Index u = range.begin(); u != range.end(); ++u) {
      UnitOutput out = output_of(u, with_matrix);
      eval(u, out);
    }
  });
  reduce(residual, values);
}

}  // namespace noether

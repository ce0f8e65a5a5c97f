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
///
/// The assembler owns the matrix values. Blocks a unit declares constant (LocalBlock::constant:
/// mass matrices, Jacobians of linear constraints) are not rewritten at every assembly. Their sum
/// is written once, by the first assembly with a matrix and the first after invalidate_constants(); later
/// assemblies evaluate and write only the entries with a varying contribution (an entry with both
/// is the stored constant sum plus the varying ones), and call units whose blocks are all constant
/// for their residual alone.
#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <noether/engine/sparse_pattern.hpp>
#include <noether/engine/assembly_schedule.hpp>
#include <noether/engine/distribution.hpp>
#include <noether/engine/parallel_ranges.hpp>

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
  /// The unit writes the same values into this block at every assembly until the assembler's
  /// constants are invalidated (Assembler::invalidate_constants), whatever the unknowns.
  bool constant = false;
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

/// Where a unit writes its part of the terms of a global unknown (Assembler with global sums): a
/// system with one unknown s beyond the sparse ones, on which every row may depend, and one
/// equation phi beyond their rows, a sum over the units; each unit writes the column dR/ds of its local rows and the row dphi/dx of its local unknowns
/// (both the local residual's size, zeroed; read with the matrix only), and adds to the scalar
/// sums its scheme defines (phi, dphi/ds, ...; zeroed, always read).
struct UnitGlobalTerms {
  double* column = nullptr;
  double* row = nullptr;
  std::span<double> sums = {};
};

/// Where a unit writes during one assembly: zeroed before the unit's evaluation, so units
/// accumulate with add_ methods.
class UnitOutput {
 public:
  UnitOutput(double* residual, double* scale, double* floor, Index size, double* matrix,
             std::span<const BlockShape> blocks, bool with_matrix, std::span<double> workspace,
             UnitGlobalTerms global = {})
      : residual_(residual, size), scale_(scale, size), floor_(floor, size), matrix_(matrix), blocks_(blocks),
        with_matrix_(with_matrix), workspace_(workspace), global_column_(global.column, global.column ? size : 0),
        global_row_(global.row, global.row ? size : 0), global_sums_(global.sums) {}

  Eigen::Map<Vector>& residual() { return residual_; }
  /// The magnitude of the terms that make up each local residual entry (>= 0, same size), for a
  /// unit whose entries are differences of larger terms; a unit that leaves an entry's scale
  /// smaller than the entry's magnitude counts the magnitude (Assembler::assemble with a scale).
  Eigen::Map<Vector>& scale() { return scale_; }
  /// The rounding floor of each local residual entry (>= 0, same size): how far from 0 rounding
  /// errors alone can leave it, where its terms may all vanish (a body at rest).
  Eigen::Map<Vector>& floor() { return floor_; }
  /// Local block k as declared in the unit's layout (rows x cols, column-major).
  Eigen::Map<Matrix> block(std::size_t k) {
    return Eigen::Map<Matrix>(matrix_ + blocks_[k].offset, blocks_[k].rows, blocks_[k].cols);
  }
  /// False when only the residual is wanted (also when every block of the unit is constant and
  /// already in the matrix): units may then skip their tangent work.
  bool with_matrix() const { return with_matrix_; }
  /// The calling thread's workspace (Assembler's workspace_size doubles): scratch for the unit's
  /// evaluation, with nothing carried from one unit to the next.
  std::span<double> workspace() const { return workspace_; }
  /// Assemblies with global sums only (UnitGlobalTerms; empty otherwise): d(local residual)/ds, dphi/d(local
  /// unknowns), and the unit's part of each global sum.
  Eigen::Map<Vector>& global_column() { return global_column_; }
  Eigen::Map<Vector>& global_row() { return global_row_; }
  std::span<double> global_sums() const { return global_sums_; }

 private:
  Eigen::Map<Vector> residual_, scale_, floor_;
  double* matrix_;
  std::span<const BlockShape> blocks_;
  bool with_matrix_;
  std::span<double> workspace_;
  Eigen::Map<Vector> global_column_, global_row_;
  std::span<double> global_sums_;
};

/// The global unknown's terms of an assembly (Assembler::assemble with them): the units' columns and
/// rows summed into column and row (n each, written only with the matrix) and their sums, each
/// added up over the units in the schedule's order (so bitwise the same for any thread count).
struct GlobalTermsOutput {
  VectorRef column;
  VectorRef row;
  std::span<double> sums;
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
  /// The layouts are not kept: an assembly reads only the plan's flat arrays. ids: the number an
  /// assembly passes its evaluation for units[k] (ids[k]; k when ids is empty, else units.size()
  /// entries), so that a plan of some units of a larger list (the terms one process owns,
  /// engine/distribution.hpp) names them as the list does.
  AssemblyPlan(Index n, const std::vector<UnitLayout>& units, std::vector<Index> ids = {});

  const CscPattern& pattern() const { return pattern_; }
  Index num_units() const { return static_cast<Index>(visits_.size()) - 1; }
  const AssemblySchedule& schedule() const { return schedule_; }

 private:
  friend class Assembler;
  void build_pattern(const std::vector<UnitLayout>& units);
  void build_visit_data(const std::vector<UnitLayout>& units, const std::vector<Index>& ids);

  CscPattern pattern_;
  AssemblySchedule schedule_;
  /// What an assembly reads of the unit at visiting position k (schedule_.units[k]); the ranges of
  /// unit k end where those of unit k + 1 begin (visits_ ends with a sentinel).
  ///
  /// The unit's entries of varying blocks, scatter_[scatter_begin, next.scatter_begin), come in
  /// three runs: before first_mixed the first contribution to a slot without constant part
  /// (assigns), up to first_add the first varying contribution to a slot with a constant part
  /// (assigns that part, mixed_constants[mixed_begin + i], plus the value), then the others (add).
  /// Its entries of constant blocks, constant_scatter_[constant_begin, next.constant_begin):
  /// before first_constant_add the first constant contribution to a slot (assigns), then adds.
  struct Visit {
    Index unit;
    Index residual_begin;      ///< into residual_rows_
    Index scatter_begin;       ///< into scatter_
    Index first_mixed;
    Index first_add;
    Index mixed_begin;         ///< into mixed_slots_ and the assembler's mixed constants
    Index constant_begin;      ///< into constant_scatter_
    Index first_constant_add;
    Index block_begin;         ///< into block_shapes_
    Index matrix_size;         ///< doubles of the unit's local matrix
    bool matrix_varies;        ///< the unit has a block that is not constant
  };
  // All laid out in visiting order, so that an assembly streams through memory.
  std::vector<Visit> visits_;                  ///< units + 1 entries
  std::vector<Index> residual_rows_;           ///< the units' dofs, concatenated
  std::vector<ScatterEntry> scatter_;          ///< structural local entries of varying blocks
  std::vector<ScatterEntry> constant_scatter_; ///< structural local entries of constant blocks
  std::vector<Index> mixed_slots_;             ///< slots with constant and varying contributions
  std::vector<BlockShape> block_shapes_;       ///< the units' blocks, concatenated
  Index max_matrix_size_ = 0;    ///< doubles of the largest unit's local matrix
  Index max_residual_size_ = 0;  ///< of the largest unit's local residual
};

/// A unit's local residual and matrix, written by its evaluation, then scattered, and the
/// workspace of its evaluation (with its global terms, for an assembler with global sums); one per thread.
/// `outputs` holds, for a unit of `size` local rows, its residual, scale and floor (size each) and
/// then its local matrix, one after the other, so that one fill zeroes the three vectors.
struct UnitScratch {
  std::vector<double> outputs, workspace, global_column, global_row, global_sums;
  double* residual() { return outputs.data(); }
  double* scale(Index size) { return outputs.data() + size; }
  double* floor(Index size) { return outputs.data() + 2 * size; }
  double* matrix(Index size) { return outputs.data() + 3 * size; }
  const double* residual() const { return outputs.data(); }
  const double* scale(Index size) const { return outputs.data() + size; }
  const double* floor(Index size) const { return outputs.data() + 2 * size; }
  const double* matrix(Index size) const { return outputs.data() + 3 * size; }
};

/// Owns the matrix and the per-thread scratch for one plan, and runs assemblies. Threads: an
/// assembly runs on the worker threads itself; one Assembler is one caller's at a time.
///
/// In a distributed system (engine/distribution.hpp) the plan holds the units this process owns;
/// an assembly adds `start` on rank 0 alone, then sums the residual, scale, floor and global terms
/// over the processes (Distribution::sum, one call per assembly), so that they are the whole
/// system's on every process, while the matrix values() are this process's part (the
/// contributions of its units on its plan's pattern). Every process must assemble alike: the sum
/// is collective.
class Assembler {
 public:
  /// workspace_size: doubles of each thread's workspace (UnitOutput::workspace), allocated once.
  /// global_sums > 0 makes an assembler of a global unknown: every unit gets a UnitGlobalTerms with that many sums
  /// (and must then be assembled with a GlobalTermsOutput). distribution: the processes that
  /// assemble the system together (must outlive this), or nullptr for one process.
  explicit Assembler(AssemblyPlan plan, Index workspace_size = 0, int global_sums = 0,
                     const Distribution* distribution = nullptr);

  const AssemblyPlan& plan() const { return plan_; }
  const CscPattern& pattern() const { return plan_.pattern(); }

  /// Overwrites residual (n) with the sum of the units' residuals and, when with_matrix, the
  /// matrix values(). eval(Index unit, UnitOutput& out) is called once per unit, concurrently for
  /// units of different chunks of one color (twice when the constant blocks are written: once for
  /// them, once for the rest).
  template <class Eval>
  void assemble(Eval&& eval, VectorRef residual, bool with_matrix);
  /// The same with residual = start + the sum of the units' residuals (start: n, terms no unit
  /// owns). Costs no more than the other: the residual is overwritten either way.
  template <class Eval>
  void assemble(Eval&& eval, ConstVectorRef start, VectorRef residual, bool with_matrix);
  /// The same, and for Newton's stopping test, entry by entry: scale (n) = |start| + the sum over
  /// the units of max(|unit residual|, unit scale), the magnitude of the terms that make up each
  /// residual entry; floor (n) = the sum of the units' floors. Same order of additions as the
  /// residual, so bitwise the same for any number of threads.
  template <class Eval>
  void assemble(Eval&& eval, ConstVectorRef start, VectorRef residual, VectorRef scale, VectorRef floor,
                bool with_matrix);
  /// The same for an assembler with global sums, with the global terms (GlobalTermsOutput): global.sums (global_sums
  /// entries) is overwritten always, global.column and global.row when with_matrix. Every unit is
  /// then evaluated with the matrix when with_matrix, its constant blocks included (the global
  /// terms may vary where the blocks do not); only varying blocks are scattered, as always.
  template <class Eval>
  void assemble(Eval&& eval, ConstVectorRef start, VectorRef residual, VectorRef scale, VectorRef floor,
                bool with_matrix, GlobalTermsOutput& global);

  /// The matrix of the last assembly with a matrix, in pattern order (pattern().nnz()).
  std::span<const double> values() const { return values_; }

  /// The per-thread scratch areas made so far: one for each thread that has taken part in an
  /// assembly, so never more than the threads that exist (ThreadLimit, engine/thread_limit.hpp).
  std::size_t workspaces() const { return scratch_.size(); }

  /// The constant blocks will change: the next assembly with a matrix writes them again.
  void invalidate_constants() { constants_written_ = false; }

  /// The unit whose contribution to residual row `row` has the largest magnitude (a NaN counts as
  /// largest; -1 when no unit writes that row), by evaluating the units that write it with eval,
  /// residual only, one after the other. Used to name the element behind a bad residual.
  template <class Eval>
  Index largest_contributor(Eval&& eval, Index row) const;

  /// A unit whose output holds a non-finite value, found by evaluating every unit with eval, with
  /// its matrix, one after the other in the order of the assembly.
  struct NonFinite {
    Index unit = -1;       ///< -1 when every output is finite
    bool in_matrix = false;  ///< in its matrix (else in its residual)
    double value = 0.0;     ///< the first such value
  };
  template <class Eval>
  NonFinite first_non_finite(Eval&& eval) const;

 private:
  /// Calls body(k, scratch) for every visiting position k: colors in order, the chunks of a
  /// color concurrently, the units of a chunk in order; scratch is the calling thread's.
  template <class Body>
  void for_each_visit(Body&& body);
  /// residual = 0 (start null) or *start, then adds the units' residuals, and the scale when
  /// `scale` is not null; see assemble.
  template <class Eval>
  void assemble_onto(const ConstVectorRef* start, Eval& eval, VectorRef residual, VectorRef* scale,
                     VectorRef* floor, bool with_matrix, GlobalTermsOutput* global = nullptr);
  /// Output of the unit at visiting position k into scratch (zeroed; the matrix only when with_matrix).
  UnitOutput output_of(std::size_t k, bool with_matrix, UnitScratch& scratch) const;
  /// Adds the local residual and (when with_matrix) writes the entries of varying blocks of the
  /// unit at visiting position k.
  /// With scale (not null), also adds max(|local residual|, local scale) and the local floor into
  /// *scale and *floor (see assemble).
  void scatter(std::size_t k, const UnitScratch& scratch, VectorRef residual, VectorRef* scale, VectorRef* floor,
               bool with_matrix);
  /// The global terms' part of scatter: the unit's column and row into global (when with_matrix), its
  /// sums into visit_sums_ (added up in visiting order after the pass).
  void scatter_global_terms(std::size_t k, const UnitScratch& scratch, GlobalTermsOutput& global, bool with_matrix);
  /// global.sums = the units' sums added up in visiting order.
  void reduce_global_sums(GlobalTermsOutput& global) const;
  /// Sums the outputs of an assembly over the processes of a distributed system, in one call
  /// (Distribution::sum); nothing in one process.
  void sum_over_processes(VectorRef residual, VectorRef* scale, VectorRef* floor, GlobalTermsOutput* global,
                          bool with_matrix);
  /// Writes the entries of constant blocks of the unit at visiting position k into values_.
  void scatter_constants(std::size_t k, const UnitScratch& scratch);
  /// Writes the sum of the constant blocks into values_: every slot without a varying contribution
  /// gets its final value, the mixed slots' constant parts go to mixed_constants_.
  template <class Eval>
  void write_constants(Eval& eval);
  /// Copies the constant parts of the mixed slots out of values_ (after write_constants' pass).
  void keep_mixed_constants();

  AssemblyPlan plan_;
  std::vector<double> values_;           ///< the matrix, pattern order
  std::vector<double> mixed_constants_;  ///< constant part of plan_.mixed_slots_
  bool constants_written_ = false;       ///< values_ holds the current constant blocks
  int global_sums_ = 0;                  ///< sums per unit (0: no global unknown)
  std::vector<double> visit_sums_;       ///< global_sums_ per visiting position
  const Distribution* distribution_;     ///< nullptr in one process
  std::vector<double> process_sums_;     ///< what sum_over_processes sends, packed
  UnitScratch empty_scratch_;            ///< sized for the largest unit, copied for each thread
  tbb::enumerable_thread_specific<UnitScratch> scratch_;
};

template <class Body>
void Assembler::for_each_visit(Body&& body) {
  const AssemblySchedule& schedule = plan_.schedule();
  auto run_chunk = [&](Index chunk, UnitScratch& scratch) {
    const auto c = static_cast<std::size_t>(chunk);
    for (auto k = static_cast<std::size_t>(schedule.chunk_starts[c]); k < static_cast<std::size_t>(schedule.chunk_starts[c + 1]); ++k)
      body(k, scratch);
  };
  for (Index color = 0; color < schedule.num_colors(); ++color) {
    const tbb::blocked_range<Index> chunks(schedule.color_starts[static_cast<std::size_t>(color)],
                                           schedule.color_starts[static_cast<std::size_t>(color) + 1]);
    tbb::parallel_for(chunks, [&](const tbb::blocked_range<Index>& range) {
      UnitScratch& scratch = scratch_.local();
      for (Index k = range.begin(); k != range.end(); ++k) run_chunk(schedule.chunks[static_cast<std::size_t>(k)], scratch);
    });
  }
}

// Here rather than in assembler.cpp so that every assembly loop inlines it (docs/notebook.md,
// "A unit's outputs zeroed at once").
inline UnitOutput Assembler::output_of(std::size_t k, bool with_matrix, UnitScratch& scratch) const {
  const AssemblyPlan::Visit& visit = plan_.visits_[k];
  const AssemblyPlan::Visit& next = plan_.visits_[k + 1];
  const Index size = next.residual_begin - visit.residual_begin;
  std::fill_n(scratch.outputs.begin(), 3 * size, 0.0);
  if (with_matrix) std::fill_n(scratch.outputs.begin() + 3 * size, visit.matrix_size, 0.0);
  const std::span<const BlockShape> blocks(plan_.block_shapes_.data() + visit.block_begin,
                                           static_cast<std::size_t>(next.block_begin - visit.block_begin));
  UnitGlobalTerms global;
  if (global_sums_ > 0) {
    std::fill_n(scratch.global_column.begin(), size, 0.0);
    std::fill_n(scratch.global_row.begin(), size, 0.0);
    std::fill(scratch.global_sums.begin(), scratch.global_sums.end(), 0.0);
    global = {scratch.global_column.data(), scratch.global_row.data(), scratch.global_sums};
  }
  return UnitOutput(scratch.residual(), scratch.scale(size), scratch.floor(size), size, scratch.matrix(size),
                    blocks, with_matrix, scratch.workspace, global);
}

template <class Eval>
void Assembler::write_constants(Eval& eval) {
  for_each_visit([&](std::size_t k, UnitScratch& scratch) {
    if (plan_.visits_[k].constant_begin == plan_.visits_[k + 1].constant_begin) return;
    UnitOutput out = output_of(k, true, scratch);
    eval(plan_.visits_[k].unit, out);
    scatter_constants(k, scratch);
  });
  keep_mixed_constants();
  constants_written_ = true;
}

template <class Eval>
void Assembler::assemble(Eval&& eval, VectorRef residual, bool with_matrix) {
  assemble_onto(nullptr, eval, residual, nullptr, nullptr, with_matrix);
}

template <class Eval>
void Assembler::assemble(Eval&& eval, ConstVectorRef start, VectorRef residual, bool with_matrix) {
  assemble_onto(&start, eval, residual, nullptr, nullptr, with_matrix);
}

template <class Eval>
void Assembler::assemble(Eval&& eval, ConstVectorRef start, VectorRef residual, VectorRef scale, VectorRef floor,
                         bool with_matrix) {
  assemble_onto(&start, eval, residual, &scale, &floor, with_matrix);
}

template <class Eval>
void Assembler::assemble(Eval&& eval, ConstVectorRef start, VectorRef residual, VectorRef scale, VectorRef floor,
                         bool with_matrix, GlobalTermsOutput& global) {
  assemble_onto(&start, eval, residual, &scale, &floor, with_matrix, &global);
}

template <class Eval>
void Assembler::assemble_onto(const ConstVectorRef* start, Eval& eval, VectorRef residual, VectorRef* scale,
                              VectorRef* floor, bool with_matrix, GlobalTermsOutput* global) {
  if ((global != nullptr) != (global_sums_ > 0))
    throw std::logic_error(global_sums_ > 0 ? "an assembler with global sums needs a GlobalTermsOutput"
                                            : "a GlobalTermsOutput given to an assembler without global sums");
  if (global && global->sums.size() != static_cast<std::size_t>(global_sums_))
    throw std::invalid_argument("the global terms hold " + std::to_string(global->sums.size()) + " sums, the assembler " +
                                std::to_string(global_sums_));
  if (with_matrix && !constants_written_) write_constants(eval);
  if (distribution_ && distribution_->rank() != 0) start = nullptr;
  for_each_index_range(residual.size(), [&](Index begin, Index end) {
    const Index size = end - begin;
    if (start) residual.segment(begin, size) = start->segment(begin, size);
    else residual.segment(begin, size).setZero();
    if (scale) scale->segment(begin, size) = residual.segment(begin, size).cwiseAbs();
    if (floor) floor->segment(begin, size).setZero();
    if (global && with_matrix) {
      global->column.segment(begin, size).setZero();
      global->row.segment(begin, size).setZero();
    }
  });
  for_each_visit([&](std::size_t k, UnitScratch& scratch) {
    const bool unit_matrix = with_matrix && (plan_.visits_[k].matrix_varies || global);
    UnitOutput out = output_of(k, unit_matrix, scratch);
    eval(plan_.visits_[k].unit, out);
    scatter(k, scratch, residual, scale, floor, unit_matrix && plan_.visits_[k].matrix_varies);
    if (global) scatter_global_terms(k, scratch, *global, unit_matrix);
  });
  if (global) reduce_global_sums(*global);
  if (distribution_) sum_over_processes(residual, scale, floor, global, with_matrix);
}

template <class Eval>
Index Assembler::largest_contributor(Eval&& eval, Index row) const {
  UnitScratch scratch = empty_scratch_;
  Index best_unit = -1;
  double best = -1.0;
  for (std::size_t k = 0; k + 1 < plan_.visits_.size(); ++k) {
    const auto begin = plan_.residual_rows_.begin() + plan_.visits_[k].residual_begin;
    const auto end = plan_.residual_rows_.begin() + plan_.visits_[k + 1].residual_begin;
    if (std::find(begin, end, row) == end) continue;
    UnitOutput out = output_of(k, false, scratch);
    eval(plan_.visits_[k].unit, out);
    for (auto i = begin; i != end; ++i) {
      const double magnitude = std::abs(scratch.residual()[i - begin]);
      if (*i == row && !(magnitude <= best)) {  // a NaN wins
        best = magnitude;
        best_unit = plan_.visits_[k].unit;
      }
    }
  }
  return best_unit;
}

template <class Eval>
Assembler::NonFinite Assembler::first_non_finite(Eval&& eval) const {
  UnitScratch scratch = empty_scratch_;
  const auto first_bad = [](const double* values, Index size) {
    return std::find_if(values, values + size, [](double a) { return !std::isfinite(a); });
  };
  for (std::size_t k = 0; k + 1 < plan_.visits_.size(); ++k) {
    UnitOutput out = output_of(k, true, scratch);
    eval(plan_.visits_[k].unit, out);
    const Index residual_size = plan_.visits_[k + 1].residual_begin - plan_.visits_[k].residual_begin;
    if (const double* bad = first_bad(scratch.residual(), residual_size); bad != scratch.residual() + residual_size)
      return {plan_.visits_[k].unit, false, *bad};
    const Index matrix_size = plan_.visits_[k].matrix_size;
    const double* matrix = scratch.matrix(residual_size);
    if (const double* bad = first_bad(matrix, matrix_size); bad != matrix + matrix_size)
      return {plan_.visits_[k].unit, true, *bad};
  }
  return {};
}

}  // namespace noether

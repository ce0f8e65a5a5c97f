#include <noether/engine/assembler.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>

namespace noether {
namespace {

void check_layout(const UnitLayout& unit, Index u, Index n) {
  const auto local = static_cast<Index>(unit.dofs.size());
  for (Index dof : unit.dofs)
    if (dof < 0 || dof >= n)
      throw std::invalid_argument("assembly unit " + std::to_string(u) + " refers to unknown " + std::to_string(dof) +
                                  " of a system with " + std::to_string(n) + " unknowns");
  for (const LocalBlock& b : unit.blocks) {
    if (b.structure.size() != 0 && (b.structure.rows() != b.rows || b.structure.cols() != b.cols))
      throw std::invalid_argument("assembly unit " + std::to_string(u) + " declares a block structure of the wrong size");
    if (b.row_begin < 0 || b.col_begin < 0 || b.rows < 0 || b.cols < 0 || b.row_begin + b.rows > local ||
        b.col_begin + b.cols > local)
      throw std::invalid_argument("assembly unit " + std::to_string(u) + " declares a block outside its " +
                                  std::to_string(local) + " local unknowns");
  }
}

/// Calls f(local_position, row, col, constant) for every structural entry of the unit's blocks,
/// in the order of its local matrix buffer; (row, col) are global, constant is the block's flag.
template <class F>
void for_each_structural_entry(const UnitLayout& unit, F&& f) {
  Index position = 0;
  for (const LocalBlock& b : unit.blocks) {
    const bool dense = b.structure.size() == 0;
    for (Index j = 0; j < b.cols; ++j)
      for (Index i = 0; i < b.rows; ++i, ++position)
        if (dense || b.structure(i, j))
          f(position, unit.dofs[static_cast<std::size_t>(b.row_begin + i)],
            unit.dofs[static_cast<std::size_t>(b.col_begin + j)], b.constant);
  }
}

}  // namespace

AssemblyPlan::AssemblyPlan(Index n, const std::vector<UnitLayout>& units, std::vector<Index> ids) {
  if (n < 0) throw std::invalid_argument("an assembly needs a non-negative number of unknowns");
  const auto count = static_cast<Index>(units.size());
  if (!ids.empty() && ids.size() != units.size())
    throw std::invalid_argument("an assembly plan of " + std::to_string(count) + " units given " +
                                std::to_string(ids.size()) + " unit ids");
  if (ids.empty()) {
    ids.resize(units.size());
    std::iota(ids.begin(), ids.end(), Index{0});
  }
  for (Index u = 0; u < count; ++u) check_layout(units[static_cast<std::size_t>(u)], u, n);
  pattern_.n = n;
  build_pattern(units);
  schedule_ = make_assembly_schedule(
      n, count, [&](Index u) { return std::span<const Index>(units[static_cast<std::size_t>(u)].dofs); },
      default_units_per_chunk(count));
  build_visit_data(units, ids);
}

/// Rows of each column by counting: bucket every structural entry (and the diagonal) by column,
/// then sort and deduplicate each column's rows. Needs one Index per contribution, temporarily.
void AssemblyPlan::build_pattern(const std::vector<UnitLayout>& units) {
  const auto n = static_cast<std::size_t>(pattern_.n);
  std::vector<Index>& starts = pattern_.column_starts;
  starts.assign(n + 1, 0);
  for (std::size_t j = 0; j < n; ++j) ++starts[j + 1];
  for (const UnitLayout& unit : units)
    for_each_structural_entry(unit, [&](Index, Index, Index col, bool) { ++starts[static_cast<std::size_t>(col) + 1]; });
  std::partial_sum(starts.begin(), starts.end(), starts.begin());

  std::vector<Index> rows(static_cast<std::size_t>(starts[n]));
  std::vector<Index> cursor(starts.begin(), starts.end() - 1);
  for (std::size_t j = 0; j < n; ++j) rows[static_cast<std::size_t>(cursor[j]++)] = static_cast<Index>(j);
  for (const UnitLayout& unit : units)
    for_each_structural_entry(unit, [&](Index, Index row, Index col, bool) {
      rows[static_cast<std::size_t>(cursor[static_cast<std::size_t>(col)]++)] = row;
    });
  cursor = {};

  // Each column's rows once (the last column that listed a row, in last_column), then sorted: the
  // units repeat most entries, and sorting only the distinct ones costs a fraction of sorting all.
  std::vector<Index> last_column(n, -1);
  auto kept = rows.begin();
  Index column_begin = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const auto first_kept = kept;
    for (auto row = rows.begin() + column_begin, last = rows.begin() + starts[j + 1]; row != last; ++row) {
      Index& last_listed = last_column[static_cast<std::size_t>(*row)];
      if (last_listed == static_cast<Index>(j)) continue;
      last_listed = static_cast<Index>(j);
      *kept++ = *row;
    }
    std::sort(first_kept, kept);
    column_begin = starts[j + 1];
    starts[j + 1] = static_cast<Index>(kept - rows.begin());
  }
  rows.resize(static_cast<std::size_t>(kept - rows.begin()));
  rows.shrink_to_fit();
  pattern_.row_indices = std::move(rows);
}

/// The per-unit data an assembly reads, laid out in visiting order so that it streams. Each unit's
/// scatter entries list first those that are the first contribution to their slot (in visiting
/// order; they assign), then the others (they add), so that no assembly needs to zero the matrix;
/// entries of constant blocks are listed apart (Visit).
void AssemblyPlan::build_visit_data(const std::vector<UnitLayout>& units, const std::vector<Index>& ids) {
  // Per slot: whether a constant block covers it, and whether a constant and a varying entry have
  // been listed for it yet. Bytes, not std::vector<bool>: this pass visits every structural entry.
  enum : std::uint8_t { kHasConstant = 1, kConstantWritten = 2, kVaryingWritten = 4 };
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(pattern_.nnz()), 0);
  for (const UnitLayout& layout : units) {
    if (std::ranges::none_of(layout.blocks, &LocalBlock::constant)) continue;
    for_each_structural_entry(layout, [&](Index, Index row, Index col, bool constant) {
      if (constant) flags[static_cast<std::size_t>(pattern_.find(row, col))] |= kHasConstant;
    });
  }
  // The arrays whose lengths are known are sized before they are filled, and the others are
  // shrunk after: they live as long as the stepper, and one grown entry by entry keeps up to
  // twice the room.
  std::size_t residual_entries = 0, blocks = 0;
  for (Index u : schedule_.units) {
    residual_entries += units[static_cast<std::size_t>(u)].dofs.size();
    blocks += units[static_cast<std::size_t>(u)].blocks.size();
  }
  visits_.reserve(schedule_.units.size() + 1);
  residual_rows_.reserve(residual_entries);
  block_shapes_.reserve(blocks);
  std::vector<ScatterEntry> mixed, adds, constant_adds;
  for (Index u : schedule_.units) {
    const UnitLayout& layout = units[static_cast<std::size_t>(u)];
    Visit visit{ids[static_cast<std::size_t>(u)], static_cast<Index>(residual_rows_.size()), static_cast<Index>(scatter_.size()), 0, 0,
                static_cast<Index>(mixed_slots_.size()), static_cast<Index>(constant_scatter_.size()), 0,
                static_cast<Index>(block_shapes_.size()), 0, false};
    residual_rows_.insert(residual_rows_.end(), layout.dofs.begin(), layout.dofs.end());
    for (const LocalBlock& b : layout.blocks) {
      block_shapes_.push_back({visit.matrix_size, b.rows, b.cols});
      visit.matrix_size += b.rows * b.cols;
      visit.matrix_varies = visit.matrix_varies || !b.constant;
    }
    max_matrix_size_ = std::max(max_matrix_size_, visit.matrix_size);
    max_residual_size_ = std::max(max_residual_size_, static_cast<Index>(layout.dofs.size()));
    mixed.clear();
    adds.clear();
    constant_adds.clear();
    for_each_structural_entry(layout, [&](Index position, Index row, Index col, bool constant) {
      const Index slot = pattern_.find(row, col);
      std::uint8_t& flag = flags[static_cast<std::size_t>(slot)];
      const std::uint8_t written = constant ? kConstantWritten : kVaryingWritten;
      const bool first = (flag & written) == 0;
      flag |= written;
      if (constant) (first ? constant_scatter_ : constant_adds).push_back({position, slot});
      else if (!first) adds.push_back({position, slot});
      else if ((flag & kHasConstant) != 0) mixed.push_back({position, slot});
      else scatter_.push_back({position, slot});
    });
    visit.first_constant_add = static_cast<Index>(constant_scatter_.size());
    constant_scatter_.insert(constant_scatter_.end(), constant_adds.begin(), constant_adds.end());
    visit.first_mixed = static_cast<Index>(scatter_.size());
    for (const ScatterEntry& e : mixed) mixed_slots_.push_back(e.slot);
    scatter_.insert(scatter_.end(), mixed.begin(), mixed.end());
    visit.first_add = static_cast<Index>(scatter_.size());
    scatter_.insert(scatter_.end(), adds.begin(), adds.end());
    visits_.push_back(visit);
  }
  visits_.push_back({-1, static_cast<Index>(residual_rows_.size()), static_cast<Index>(scatter_.size()), 0, 0,
                     static_cast<Index>(mixed_slots_.size()), static_cast<Index>(constant_scatter_.size()), 0,
                     static_cast<Index>(block_shapes_.size()), 0, false});
  scatter_.shrink_to_fit();
  constant_scatter_.shrink_to_fit();
  mixed_slots_.shrink_to_fit();
}

Assembler::Assembler(AssemblyPlan plan, Index workspace_size, int global_sums, const Distribution* distribution)
    : plan_(std::move(plan)),
      values_(static_cast<std::size_t>(plan_.pattern().nnz()), 0.0),  // slots no unit writes stay 0
      mixed_constants_(plan_.mixed_slots_.size()),
      global_sums_(global_sums),
      visit_sums_(static_cast<std::size_t>(plan_.num_units() * global_sums)),
      distribution_(distribution),
      empty_scratch_{std::vector<double>(static_cast<std::size_t>(3 * plan_.max_residual_size_ + plan_.max_matrix_size_)),
                     std::vector<double>(static_cast<std::size_t>(workspace_size)),
                     std::vector<double>(static_cast<std::size_t>(global_sums > 0 ? plan_.max_residual_size_ : 0)),
                     std::vector<double>(static_cast<std::size_t>(global_sums > 0 ? plan_.max_residual_size_ : 0)),
                     std::vector<double>(static_cast<std::size_t>(global_sums))},
      scratch_(empty_scratch_) {
  if (global_sums < 0) throw std::invalid_argument("an assembler's global sums must be >= 0, got " + std::to_string(global_sums));
}

void Assembler::sum_over_processes(VectorRef residual, VectorRef* scale, VectorRef* floor, GlobalTermsOutput* global,
                                   bool with_matrix) {
  std::vector<VectorRef*> parts{&residual};
  if (scale) parts.insert(parts.end(), {scale, floor});
  if (global && with_matrix) parts.insert(parts.end(), {&global->column, &global->row});
  const Index sums = global ? static_cast<Index>(global->sums.size()) : 0;
  process_sums_.resize(static_cast<std::size_t>(static_cast<Index>(parts.size()) * residual.size() + sums));
  double* packed = process_sums_.data();
  for (VectorRef* part : parts) packed = std::copy_n(part->data(), part->size(), packed);
  if (global) std::copy(global->sums.begin(), global->sums.end(), packed);
  distribution_->sum(process_sums_);
  const double* summed = process_sums_.data();
  for (VectorRef* part : parts) {
    std::copy_n(summed, part->size(), part->data());
    summed += part->size();
  }
  if (global) std::copy_n(summed, sums, global->sums.begin());
}

void Assembler::scatter_global_terms(std::size_t k, const UnitScratch& scratch, GlobalTermsOutput& global, bool with_matrix) {
  std::copy(scratch.global_sums.begin(), scratch.global_sums.end(),
            visit_sums_.begin() + static_cast<std::ptrdiff_t>(k) * global_sums_);
  if (!with_matrix) return;
  const AssemblyPlan::Visit& visit = plan_.visits_[k];
  const Index* rows = plan_.residual_rows_.data() + visit.residual_begin;
  const Index size = plan_.visits_[k + 1].residual_begin - visit.residual_begin;
  for (Index i = 0; i < size; ++i) {
    global.column(rows[i]) += scratch.global_column[static_cast<std::size_t>(i)];
    global.row(rows[i]) += scratch.global_row[static_cast<std::size_t>(i)];
  }
}

void Assembler::reduce_global_sums(GlobalTermsOutput& global) const {
  std::fill(global.sums.begin(), global.sums.end(), 0.0);
  for (std::size_t k = 0; k + 1 < plan_.visits_.size(); ++k)
    for (std::size_t j = 0; j < global.sums.size(); ++j)
      global.sums[j] += visit_sums_[k * global.sums.size() + j];
}

void Assembler::scatter(std::size_t k, const UnitScratch& scratch, VectorRef residual, VectorRef* scale,
                        VectorRef* floor, bool with_matrix) {
  const AssemblyPlan::Visit& visit = plan_.visits_[k];
  const AssemblyPlan::Visit& next = plan_.visits_[k + 1];
  const Index* rows = plan_.residual_rows_.data() + visit.residual_begin;
  const Index size = next.residual_begin - visit.residual_begin;
  const double* unit_residual = scratch.residual();
  if (scale) {
    double* scale_out = scale->data();
    double* floor_out = floor->data();
    const double* unit_scale = scratch.scale(size);
    const double* unit_floor = scratch.floor(size);
    for (Index i = 0; i < size; ++i) {
      const double value = unit_residual[i];
      residual(rows[i]) += value;
      scale_out[rows[i]] += std::max(std::abs(value), unit_scale[i]);
      floor_out[rows[i]] += unit_floor[i];
    }
  } else {
    for (Index i = 0; i < size; ++i) residual(rows[i]) += unit_residual[i];
  }
  if (!with_matrix) return;
  const double* matrix = scratch.matrix(size);
  const auto local = [&](const ScatterEntry& e) { return matrix[e.local]; };
  const auto slot = [&](const ScatterEntry& e) -> double& { return values_[static_cast<std::size_t>(e.slot)]; };
  const ScatterEntry* entries = plan_.scatter_.data();
  for (Index i = visit.scatter_begin; i < visit.first_mixed; ++i) slot(entries[i]) = local(entries[i]);
  const double* constant = mixed_constants_.data() + visit.mixed_begin;
  for (Index i = visit.first_mixed; i < visit.first_add; ++i)
    slot(entries[i]) = constant[i - visit.first_mixed] + local(entries[i]);
  for (Index i = visit.first_add; i < next.scatter_begin; ++i) slot(entries[i]) += local(entries[i]);
}

void Assembler::scatter_constants(std::size_t k, const UnitScratch& scratch) {
  const AssemblyPlan::Visit& visit = plan_.visits_[k];
  const AssemblyPlan::Visit& next = plan_.visits_[k + 1];
  const ScatterEntry* entries = plan_.constant_scatter_.data();
  const double* matrix = scratch.matrix(next.residual_begin - visit.residual_begin);
  const auto local = [&](const ScatterEntry& e) { return matrix[e.local]; };
  const auto slot = [&](const ScatterEntry& e) -> double& { return values_[static_cast<std::size_t>(e.slot)]; };
  for (Index i = visit.constant_begin; i < visit.first_constant_add; ++i) slot(entries[i]) = local(entries[i]);
  for (Index i = visit.first_constant_add; i < next.constant_begin; ++i) slot(entries[i]) += local(entries[i]);
}

void Assembler::keep_mixed_constants() {
  for (std::size_t i = 0; i < plan_.mixed_slots_.size(); ++i)
    mixed_constants_[i] = values_[static_cast<std::size_t>(plan_.mixed_slots_[i])];
}

}  // namespace noether

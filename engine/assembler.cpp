#include "engine/assembler.hpp"

#include <algorithm>
#include <cmath>
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

/// Calls f(local_position, row, col) for every structural entry of the unit's blocks, in the
/// order of its local matrix buffer; (row, col) are global.
template <class F>
void for_each_structural_entry(const UnitLayout& unit, F&& f) {
  Index position = 0;
  for (const LocalBlock& b : unit.blocks) {
    const bool dense = b.structure.size() == 0;
    for (Index j = 0; j < b.cols; ++j)
      for (Index i = 0; i < b.rows; ++i, ++position)
        if (dense || b.structure(i, j))
          f(position, unit.dofs[static_cast<std::size_t>(b.row_begin + i)],
            unit.dofs[static_cast<std::size_t>(b.col_begin + j)]);
  }
}

}  // namespace

AssemblyPlan::AssemblyPlan(Index n, const std::vector<UnitLayout>& units) {
  if (n < 0) throw std::invalid_argument("an assembly needs a non-negative number of unknowns");
  const auto count = static_cast<Index>(units.size());
  for (Index u = 0; u < count; ++u) check_layout(units[static_cast<std::size_t>(u)], u, n);
  pattern_.n = n;
  build_pattern(units);
  schedule_ = make_assembly_schedule(n, count, [&](Index u) { return std::span<const Index>(units[static_cast<std::size_t>(u)].dofs); });
  build_visit_data(units);
}

/// Rows of each column by counting: bucket every structural entry (and the diagonal) by column,
/// then sort and deduplicate each column's rows. Needs one Index per contribution, temporarily.
void AssemblyPlan::build_pattern(const std::vector<UnitLayout>& units) {
  const auto n = static_cast<std::size_t>(pattern_.n);
  std::vector<Index>& starts = pattern_.column_starts;
  starts.assign(n + 1, 0);
  for (std::size_t j = 0; j < n; ++j) ++starts[j + 1];
  for (const UnitLayout& unit : units)
    for_each_structural_entry(unit, [&](Index, Index, Index col) { ++starts[static_cast<std::size_t>(col) + 1]; });
  std::partial_sum(starts.begin(), starts.end(), starts.begin());

  std::vector<Index> rows(static_cast<std::size_t>(starts[n]));
  std::vector<Index> cursor(starts.begin(), starts.end() - 1);
  for (std::size_t j = 0; j < n; ++j) rows[static_cast<std::size_t>(cursor[j]++)] = static_cast<Index>(j);
  for (const UnitLayout& unit : units)
    for_each_structural_entry(unit, [&](Index, Index row, Index col) {
      rows[static_cast<std::size_t>(cursor[static_cast<std::size_t>(col)]++)] = row;
    });
  cursor = {};

  auto kept = rows.begin();
  Index column_begin = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const auto first = rows.begin() + column_begin, last = rows.begin() + starts[j + 1];
    std::sort(first, last);
    column_begin = starts[j + 1];
    kept = std::copy(first, std::unique(first, last), kept);
    starts[j + 1] = static_cast<Index>(kept - rows.begin());
  }
  rows.resize(static_cast<std::size_t>(kept - rows.begin()));
  rows.shrink_to_fit();
  pattern_.row_indices = std::move(rows);
}

/// The per-unit data an assembly reads, laid out in visiting order so that it streams. Each unit's
/// scatter entries list first those that are the first contribution to their slot (in visiting
/// order; they assign), then the others (they add), so that no assembly needs to zero the matrix.
void AssemblyPlan::build_visit_data(const std::vector<UnitLayout>& units) {
  std::vector<bool> written(static_cast<std::size_t>(pattern_.nnz()), false);
  std::vector<ScatterEntry> adds;
  for (Index u : schedule_.units) {
    const UnitLayout& layout = units[static_cast<std::size_t>(u)];
    Visit visit{u, static_cast<Index>(residual_rows_.size()), static_cast<Index>(scatter_.size()), 0,
                static_cast<Index>(block_shapes_.size()), 0};
    residual_rows_.insert(residual_rows_.end(), layout.dofs.begin(), layout.dofs.end());
    for (const LocalBlock& b : layout.blocks) {
      block_shapes_.push_back({visit.matrix_size, b.rows, b.cols});
      visit.matrix_size += b.rows * b.cols;
    }
    max_matrix_size_ = std::max(max_matrix_size_, visit.matrix_size);
    adds.clear();
    for_each_structural_entry(layout, [&](Index position, Index row, Index col) {
      const Index slot = pattern_.find(row, col);
      if (written[static_cast<std::size_t>(slot)]) {
        adds.push_back({position, slot});
      } else {
        written[static_cast<std::size_t>(slot)] = true;
        scatter_.push_back({position, slot});
      }
    });
    visit.first_add = static_cast<Index>(scatter_.size());
    scatter_.insert(scatter_.end(), adds.begin(), adds.end());
    visits_.push_back(visit);
  }
  visits_.push_back({-1, static_cast<Index>(residual_rows_.size()), static_cast<Index>(scatter_.size()), 0,
                     static_cast<Index>(block_shapes_.size()), 0});
  scatter_.shrink_to_fit();
  for (Index slot = 0; slot < pattern_.nnz(); ++slot)
    if (!written[static_cast<std::size_t>(slot)]) unwritten_slots_.push_back(slot);
}

Assembler::Assembler(AssemblyPlan plan)
    : plan_(std::move(plan)),
      residual_buffer_(plan_.residual_rows_.size()),
      matrix_scratch_(std::vector<double>(static_cast<std::size_t>(plan_.max_matrix_size_))) {}

UnitOutput Assembler::output_of(std::size_t k, bool with_matrix, std::vector<double>& matrix_scratch) {
  const AssemblyPlan::Visit& visit = plan_.visits_[k];
  const AssemblyPlan::Visit& next = plan_.visits_[k + 1];
  double* residual = residual_buffer_.data() + visit.residual_begin;
  const Index size = next.residual_begin - visit.residual_begin;
  std::fill(residual, residual + size, 0.0);
  if (with_matrix) std::fill_n(matrix_scratch.begin(), visit.matrix_size, 0.0);
  const std::span<const BlockShape> blocks(plan_.block_shapes_.data() + visit.block_begin,
                                           static_cast<std::size_t>(next.block_begin - visit.block_begin));
  return UnitOutput(residual, size, matrix_scratch.data(), blocks, with_matrix);
}

void Assembler::scatter(std::size_t k, const std::vector<double>& matrix_scratch, VectorRef residual,
                        std::span<double> values) const {
  const AssemblyPlan::Visit& visit = plan_.visits_[k];
  const AssemblyPlan::Visit& next = plan_.visits_[k + 1];
  for (Index i = visit.residual_begin; i < next.residual_begin; ++i)
    residual(plan_.residual_rows_[static_cast<std::size_t>(i)]) += residual_buffer_[static_cast<std::size_t>(i)];
  if (values.empty()) return;
  const auto local = [&](const ScatterEntry& e) { return matrix_scratch[static_cast<std::size_t>(e.local)]; };
  for (Index i = visit.scatter_begin; i < visit.first_add; ++i) {
    const ScatterEntry& e = plan_.scatter_[static_cast<std::size_t>(i)];
    values[static_cast<std::size_t>(e.slot)] = local(e);
  }
  for (Index i = visit.first_add; i < next.scatter_begin; ++i) {
    const ScatterEntry& e = plan_.scatter_[static_cast<std::size_t>(i)];
    values[static_cast<std::size_t>(e.slot)] += local(e);
  }
}

void Assembler::clear(VectorRef residual, std::span<double> values) const {
  residual.setZero();
  if (values.empty()) return;
  for (Index slot : plan_.unwritten_slots_) values[static_cast<std::size_t>(slot)] = 0.0;
}

Index Assembler::largest_contributor(Index row) const {
  Index best_unit = -1;
  double best = -1.0;
  for (std::size_t k = 0; k + 1 < plan_.visits_.size(); ++k)
    for (Index i = plan_.visits_[k].residual_begin; i < plan_.visits_[k + 1].residual_begin; ++i) {
      const double magnitude = std::abs(residual_buffer_[static_cast<std::size_t>(i)]);
      if (plan_.residual_rows_[static_cast<std::size_t>(i)] == row && !(magnitude <= best)) {  // a NaN wins
        best = magnitude;
        best_unit = plan_.visits_[k].unit;
      }
    }
  return best_unit;
}

}  // namespace noether

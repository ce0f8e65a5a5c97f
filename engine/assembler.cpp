#include "engine/assembler.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace noether {
namespace {

/// A contribution of buffer position `source` to global entry (row, col).
struct Contribution {
  std::int64_t key;  ///< col * n + row: sorting by key orders column-major, rows ascending
  Index source;
};

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

/// Sorts contributions (stable, so sources of one entry stay in unit order) and returns them.
void sort_by_entry(std::vector<Contribution>& contributions) {
  std::stable_sort(contributions.begin(), contributions.end(),
                   [](const Contribution& a, const Contribution& b) { return a.key < b.key; });
}

}  // namespace

AssemblyPlan::AssemblyPlan(Index n, std::vector<UnitLayout> units) : units_(std::move(units)) {
  if (n < 0) throw std::invalid_argument("an assembly needs a non-negative number of unknowns");
  const auto num_units = units_.size();
  residual_offsets_.assign(num_units + 1, 0);
  matrix_offsets_.assign(num_units + 1, 0);
  unit_first_block_.assign(num_units + 1, 0);
  std::vector<Contribution> entries;
  std::vector<Contribution> rows;
  const std::int64_t n64 = n;
  for (std::size_t u = 0; u < num_units; ++u) {
    const UnitLayout& unit = units_[u];
    check_layout(unit, static_cast<Index>(u), n);
    Index position = matrix_offsets_[u];
    for (const LocalBlock& b : unit.blocks) {
      block_offsets_.push_back(position - matrix_offsets_[u]);
      const bool dense = b.structure.size() == 0;
      for (Index j = 0; j < b.cols; ++j)
        for (Index i = 0; i < b.rows; ++i, ++position) {
          if (!dense && !b.structure(i, j)) continue;
          const std::int64_t row = unit.dofs[static_cast<std::size_t>(b.row_begin + i)];
          const std::int64_t col = unit.dofs[static_cast<std::size_t>(b.col_begin + j)];
          entries.push_back({col * n64 + row, position});
        }
    }
    for (std::size_t i = 0; i < unit.dofs.size(); ++i)
      rows.push_back({unit.dofs[i], residual_offsets_[u] + static_cast<Index>(i)});
    residual_offsets_[u + 1] = residual_offsets_[u] + static_cast<Index>(unit.dofs.size());
    matrix_offsets_[u + 1] = position;
    unit_first_block_[u + 1] = static_cast<Index>(block_offsets_.size());
  }
  for (Index i = 0; i < n; ++i) entries.push_back({static_cast<std::int64_t>(i) * n64 + i, -1});
  sort_by_entry(entries);
  sort_by_entry(rows);

  pattern_.n = n;
  pattern_.column_starts.assign(static_cast<std::size_t>(n) + 1, 0);
  slot_starts_.push_back(0);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const bool new_entry = k == 0 || entries[k].key != entries[k - 1].key;
    if (new_entry) {
      if (k != 0) slot_starts_.push_back(static_cast<Index>(slot_sources_.size()));
      const auto col = static_cast<Index>(entries[k].key / n64);
      pattern_.row_indices.push_back(static_cast<Index>(entries[k].key % n64));
      ++pattern_.column_starts[static_cast<std::size_t>(col) + 1];
    }
    if (entries[k].source >= 0) slot_sources_.push_back(entries[k].source);
  }
  slot_starts_.push_back(static_cast<Index>(slot_sources_.size()));
  for (std::size_t j = 0; j < static_cast<std::size_t>(n); ++j)
    pattern_.column_starts[j + 1] += pattern_.column_starts[j];

  row_starts_.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const Contribution& r : rows) {
    ++row_starts_[static_cast<std::size_t>(r.key) + 1];
    row_sources_.push_back(r.source);
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) row_starts_[i + 1] += row_starts_[i];
}

Assembler::Assembler(AssemblyPlan plan)
    : plan_(std::move(plan)),
      residual_buffer_(static_cast<std::size_t>(plan_.residual_offsets_.back())),
      matrix_buffer_(static_cast<std::size_t>(plan_.matrix_offsets_.back())) {}

UnitOutput Assembler::output_of(Index u, bool with_matrix) {
  const auto uu = static_cast<std::size_t>(u);
  double* residual = residual_buffer_.data() + plan_.residual_offsets_[uu];
  const Index size = plan_.residual_offsets_[uu + 1] - plan_.residual_offsets_[uu];
  double* matrix = matrix_buffer_.data() + plan_.matrix_offsets_[uu];
  std::fill(residual, residual + size, 0.0);
  if (with_matrix) std::fill(matrix, matrix_buffer_.data() + plan_.matrix_offsets_[uu + 1], 0.0);
  const auto first_block = static_cast<std::size_t>(plan_.unit_first_block_[uu]);
  const auto num_blocks = static_cast<std::size_t>(plan_.unit_first_block_[uu + 1]) - first_block;
  return UnitOutput(residual, size, matrix, plan_.units_[uu].blocks,
                    std::span<const Index>(plan_.block_offsets_).subspan(first_block, num_blocks), with_matrix);
}

Index Assembler::largest_contributor(Index row) const {
  Index best_source = -1;
  double best = -1.0;
  for (Index k = plan_.row_starts_[static_cast<std::size_t>(row)]; k < plan_.row_starts_[static_cast<std::size_t>(row) + 1]; ++k) {
    const Index source = plan_.row_sources_[static_cast<std::size_t>(k)];
    const double magnitude = std::abs(residual_buffer_[static_cast<std::size_t>(source)]);
    if (!(magnitude <= best)) {  // a NaN contribution wins
      best = magnitude;
      best_source = source;
    }
  }
  if (best_source < 0) return -1;
  const auto it = std::upper_bound(plan_.residual_offsets_.begin(), plan_.residual_offsets_.end(), best_source);
  return static_cast<Index>(it - plan_.residual_offsets_.begin()) - 1;
}

void Assembler::reduce(VectorRef residual, std::span<double> values) const {
  const Index n = plan_.pattern_.n;
  tbb::parallel_for(tbb::blocked_range<Index>(0, n), [&](const tbb::blocked_range<Index>& range) {
    for (Index i = range.begin(); i != range.end(); ++i) {
      double sum = 0.0;
      for (Index k = plan_.row_starts_[static_cast<std::size_t>(i)]; k < plan_.row_starts_[static_cast<std::size_t>(i) + 1]; ++k)
        sum += residual_buffer_[static_cast<std::size_t>(plan_.row_sources_[static_cast<std::size_t>(k)])];
      residual(i) = sum;
    }
  });
  if (values.empty()) return;
  tbb::parallel_for(tbb::blocked_range<Index>(0, plan_.pattern_.nnz()), [&](const tbb::blocked_range<Index>& range) {
    for (Index s = range.begin(); s != range.end(); ++s) {
      double sum = 0.0;
      for (Index k = plan_.slot_starts_[static_cast<std::size_t>(s)]; k < plan_.slot_starts_[static_cast<std::size_t>(s) + 1]; ++k)
        sum += matrix_buffer_[static_cast<std::size_t>(plan_.slot_sources_[static_cast<std::size_t>(k)])];
      values[static_cast<std::size_t>(s)] = sum;
    }
  });
}

}  // namespace noether

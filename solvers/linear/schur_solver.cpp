/// The per-process KLU and interface Schur complement solver (schur_solver.hpp).
#include <noether/solvers/linear/schur_solver.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

namespace noether {
namespace {

constexpr Index kNone = -1;
/// The Schur share's columns solved together: KLU passes over its factors once for up to four
/// right sides (klu_solve's nrhs), and reading the factors, not the arithmetic, bounds a solve's
/// time. Two, as many as a solve's right side and solution take: the buffer costs nothing more.
constexpr std::size_t kColumnsPerSolve = 2;

}  // namespace

SchurSolver::SchurSolver(const Distribution* processes, std::span<const int> unknown_owners, FillOrdering ordering,
                         std::span<const Index> global_numbers)
    : processes_(processes), owners_(unknown_owners.begin(), unknown_owners.end()),
      global_numbers_(global_numbers.begin(), global_numbers.end()), interior_(ordering) {}

void SchurSolver::analyze_pattern(const CscPattern& pattern) {
  if (owners_.empty()) owners_.assign(static_cast<std::size_t>(pattern.n), 0);
  if (static_cast<Index>(owners_.size()) != pattern.n)
    throw LinearSolverError("schur: the unknowns' owners name " + std::to_string(owners_.size()) +
                            " unknowns, the pattern has " + std::to_string(pattern.n));
  if (!whole_vectors() && static_cast<Index>(global_numbers_.size()) != pattern.n)
    throw LinearSolverError("schur: the unknowns' global numbers name " + std::to_string(global_numbers_.size()) +
                            " unknowns, the pattern has " + std::to_string(pattern.n));
  n_ = pattern.n;
  factorized_ = false;
  profile_ = {};
  split_pattern(pattern);
  if (!interior_unknowns_.empty()) interior_.analyze_pattern(interior_pattern_);
  const auto size = interior_unknowns_.size();
  interior_values_.resize(interior_slots_.size());
  columns_.assign(kColumnsPerSolve * size, 0.0);
  interface_side_.resize(2 * static_cast<std::size_t>(interface_size()));
  rhs_ = {columns_.data(), size};
  solution_ = {columns_.data() + size, size};
  to_values_.resize(to_interface_.size());
  from_values_.resize(from_interface_.size());
  schur_.resize(interface_size(), interface_size());
}

/// Local numbers: interior unknown i is local[i] in I_r, interface unknown i is local[i] in G;
/// entries touching another process's interior are not this process's (their values are 0 here).
void SchurSolver::split_pattern(const CscPattern& pattern) {
  interior_unknowns_.clear();
  interface_.clear();
  std::vector<Index> local(static_cast<std::size_t>(n_), kNone);
  for (Index i = 0; i < n_; ++i) {
    const int owner = owners_[static_cast<std::size_t>(i)];
    if (owner == rank()) {
      local[static_cast<std::size_t>(i)] = static_cast<Index>(interior_unknowns_.size());
      interior_unknowns_.push_back(i);
    } else if (owner == kSharedUnknown) {
      interface_.push_back(i);
    }
  }
  number_interface();
  for (std::size_t k = 0; k < interface_.size(); ++k)
    local[static_cast<std::size_t>(interface_[k])] = interface_places_[k];
  const auto kind = [&](Index i) { return owners_[static_cast<std::size_t>(i)]; };
  interior_pattern_ = CscPattern{};
  interior_pattern_.n = static_cast<Index>(interior_unknowns_.size());
  interior_pattern_.column_starts.assign(1, 0);
  interior_slots_.clear();
  to_interface_.clear();
  from_interface_.clear();
  interface_block_.clear();
  for (Index j = 0; j < n_; ++j) {
    const bool column_interior = kind(j) == rank(), column_shared = kind(j) == kSharedUnknown;
    for (Index k = pattern.column_starts[static_cast<std::size_t>(j)];
         k < pattern.column_starts[static_cast<std::size_t>(j) + 1]; ++k) {
      const Index i = pattern.row_indices[static_cast<std::size_t>(k)];
      const bool row_interior = kind(i) == rank(), row_shared = kind(i) == kSharedUnknown;
      const Index li = local[static_cast<std::size_t>(i)], lj = local[static_cast<std::size_t>(j)];
      if (row_interior && column_interior) {
        interior_pattern_.row_indices.push_back(li);
        interior_slots_.push_back(k);
      } else if (row_interior && column_shared) {
        to_interface_.push_back({k, li, lj});
      } else if (row_shared && column_interior) {
        from_interface_.push_back({k, li, lj});
      } else if (row_shared && column_shared) {
        interface_block_.push_back({k, li, lj});
      }
    }
    if (column_interior) interior_pattern_.column_starts.push_back(static_cast<Index>(interior_slots_.size()));
  }
  touched_columns_.clear();
  for (const BlockEntry& e : to_interface_) touched_columns_.push_back(e.col);
  std::ranges::sort(touched_columns_);
  touched_columns_.erase(std::unique(touched_columns_.begin(), touched_columns_.end()), touched_columns_.end());
}

/// G's order: the global numbers of the interface unknowns of every process (an all-gather: the
/// counts, then the numbers at each process's offset, one sum), ascending, each once; each held
/// here gets its place, and the lowest process holding it adds its right side (solve_system).
void SchurSolver::number_interface() {
  const auto number = [&](Index i) { return whole_vectors() ? i : global_numbers_[static_cast<std::size_t>(i)]; };
  const auto held_here = static_cast<Index>(interface_.size());
  const std::vector<Index> counts =
      processes_ ? counts_of_processes(*processes_, held_here) : std::vector<Index>{held_here};
  std::vector<Index> offsets(counts.size() + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), offsets.begin() + 1);
  std::vector<double> numbers(static_cast<std::size_t>(offsets.back()), 0.0);
  const auto mine = static_cast<std::size_t>(offsets[static_cast<std::size_t>(rank())]);
  for (std::size_t k = 0; k < interface_.size(); ++k) numbers[mine + k] = static_cast<double>(number(interface_[k]));
  sum(numbers);
  // (global number, lowest process holding it), sorted: the first of each number is its lowest holder.
  std::vector<std::pair<Index, int>> held;
  held.reserve(numbers.size());
  for (int r = 0; r < ranks(); ++r)
    for (auto k = static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]);
         k < static_cast<std::size_t>(offsets[static_cast<std::size_t>(r) + 1]); ++k)
      held.emplace_back(static_cast<Index>(numbers[k]), r);
  std::ranges::sort(held);
  std::vector<Index> order;
  std::vector<int> lowest;
  for (const auto& [global, process] : held)
    if (order.empty() || order.back() != global) {
      order.push_back(global);
      lowest.push_back(process);
    }
  interface_size_ = static_cast<Index>(order.size());
  interface_places_.clear();
  adds_right_side_.clear();
  for (std::size_t k = 0; k < interface_.size(); ++k) {
    const auto place = static_cast<Index>(std::ranges::lower_bound(order, number(interface_[k])) - order.begin());
    interface_places_.push_back(place);
    if (lowest[static_cast<std::size_t>(place)] == rank()) adds_right_side_.push_back(k);
  }
}

FactorizationStatus SchurSolver::factorize(std::span<const double> values) {
  if (n_ == 0 && values.empty()) return {};
  factorized_ = false;
  for (std::size_t k = 0; k < interior_slots_.size(); ++k)
    interior_values_[k] = values[static_cast<std::size_t>(interior_slots_[k])];
  FactorizationStatus status = agreed_status(interior_unknowns_.empty() ? FactorizationStatus{}
                                                                        : interior_.factorize(interior_values_));
  if (!status.ok) return status;
  for (std::size_t k = 0; k < to_interface_.size(); ++k) to_values_[k] = values[static_cast<std::size_t>(to_interface_[k].slot)];
  for (std::size_t k = 0; k < from_interface_.size(); ++k)
    from_values_[k] = values[static_cast<std::size_t>(from_interface_[k].slot)];
  add_schur_share(values);
  sum({schur_.data(), static_cast<std::size_t>(schur_.size())});
  if (interface_size() > 0) {
    schur_lu_.compute(schur_);
    const Eigen::VectorXd pivots = schur_lu_.matrixLU().diagonal();
    if (!pivots.allFinite() || (pivots.array() == 0.0).any())
      return {false, "schur: the interface's Schur complement (" + std::to_string(interface_size()) +
                         " unknowns shared by the processes' parts) is singular"};
  }
  if (profile_.solver.empty()) update_profile();  // the first factorization's figures (factorization_profile)
  factorized_ = true;
  return {};
}

FactorizationStatus SchurSolver::agreed_status(const FactorizationStatus& mine) {
  const bool one = ranks() == 1;
  const int from = one ? (mine.ok ? -1 : 0) : first_process_with(*processes_, !mine.ok);
  if (from < 0) return {};
  // The first failed process's message, to every process, so that each reports the same words.
  const std::string message = one ? mine.message : text_of_process(*processes_, from, mine.message);
  return {false, "schur: the interior of process " + std::to_string(from) + ": " + message};
}

void SchurSolver::add_schur_share(std::span<const double> values) {
  const auto value = [&](const BlockEntry& e) { return values[static_cast<std::size_t>(e.slot)]; };
  schur_.setZero();
  for (const BlockEntry& e : interface_block_) schur_(e.row, e.col) += value(e);
  const std::size_t size = interior_unknowns_.size();
  if (size == 0) return;
  const std::size_t width = columns_.size() / size;
  for (std::size_t first = 0; first < touched_columns_.size(); first += width) {
    const std::span<const Index> chunk(touched_columns_.data() + first, std::min(width, touched_columns_.size() - first));
    std::fill_n(columns_.begin(), chunk.size() * size, 0.0);
    for (const BlockEntry& e : to_interface_)
      if (const auto at = std::ranges::lower_bound(chunk, e.col); at != chunk.end() && *at == e.col)
        columns_[static_cast<std::size_t>(at - chunk.begin()) * size + static_cast<std::size_t>(e.row)] = value(e);
    interior_.solve_in_place({columns_.data(), chunk.size() * size}, static_cast<Index>(chunk.size()));
    for (std::size_t j = 0; j < chunk.size(); ++j)
      for (const BlockEntry& e : from_interface_)
        schur_(e.row, chunk[j]) -= value(e) * columns_[j * size + static_cast<std::size_t>(e.col)];
  }
}

void SchurSolver::update_profile() {
  const FactorizationProfile part = interior_.factorization_profile();
  const double g = static_cast<double>(interface_size());
  std::vector<double> totals{static_cast<double>(part.factor_entries), std::isnan(part.flops) ? 0.0 : part.flops};
  sum(totals);
  profile_.solver = "schur";
  profile_.ordering = part.ordering;
  profile_.reason = std::to_string(ranks()) + " processes' interiors factored by KLU (process " +
                    std::to_string(rank()) + ": " + (part.reason.empty() ? part.ordering : part.reason) +
                    "), the interface of " + std::to_string(interface_size()) +
                    " unknowns by its dense Schur complement";
  profile_.factor_entries = static_cast<Index>(totals[0] + g * g);
  profile_.flops = totals[1] + 2.0 * g * g * g / 3.0;
}

void SchurSolver::solve_system(bool transposed, std::span<const double> b, std::span<double> x) {
  if (!factorized_) throw LinearSolverError("schur: solve called without a successful factorization");
  check_solve_sizes("schur", n_, b, x);
  const auto solve_interior = [&] {
    if (interior_unknowns_.empty()) return;
    if (transposed)
      interior_.solve_transposed(rhs_, solution_);
    else
      interior_.solve(rhs_, solution_);
  };
  // The blocks as this solve reads them: A(G, I_r) and A(I_r, G), or their transposes' roles.
  const std::vector<BlockEntry>& into = transposed ? to_interface_ : from_interface_;
  const std::vector<BlockEntry>& out_of = transposed ? from_interface_ : to_interface_;
  const std::vector<double>& into_values = transposed ? to_values_ : from_values_;
  const std::vector<double>& out_of_values = transposed ? from_values_ : to_values_;
  const auto interface_index = [&](const BlockEntry& e, bool of_into) { return of_into != transposed ? e.row : e.col; };
  const auto interior_index = [&](const BlockEntry& e, bool of_into) { return of_into != transposed ? e.col : e.row; };

  for (std::size_t k = 0; k < interior_unknowns_.size(); ++k) rhs_[k] = b[static_cast<std::size_t>(interior_unknowns_[k])];
  solve_interior();
  // [-sum_r A(G, I_r) y_r ; b(G)], summed together: b(G) from one holder of each entry (exact).
  const auto g = static_cast<std::size_t>(interface_size());
  std::ranges::fill(interface_side_, 0.0);
  for (std::size_t k = 0; k < into.size(); ++k)
    interface_side_[static_cast<std::size_t>(interface_index(into[k], true))] -=
        into_values[k] * solution_[static_cast<std::size_t>(interior_index(into[k], true))];
  for (const std::size_t k : adds_right_side_)
    interface_side_[g + static_cast<std::size_t>(interface_places_[k])] = b[static_cast<std::size_t>(interface_[k])];
  sum(interface_side_);
  Eigen::Map<Eigen::VectorXd> interface_side(interface_side_.data(), interface_size());
  interface_side += Eigen::Map<const Eigen::VectorXd>(interface_side_.data() + g, interface_size());
  Eigen::VectorXd x_interface;
  if (interface_size() > 0)
    x_interface = transposed ? Eigen::VectorXd(schur_lu_.transpose().solve(interface_side))
                             : Eigen::VectorXd(schur_lu_.solve(interface_side));
  for (std::size_t k = 0; k < out_of.size(); ++k)
    rhs_[static_cast<std::size_t>(interior_index(out_of[k], false))] -=
        out_of_values[k] * x_interface(interface_index(out_of[k], false));
  solve_interior();

  // Whole vectors: each entry from the one process that has it (the others add zeros: exact).
  // Over parts: every unknown held here, the interface's as every holder has it.
  if (whole_vectors()) std::ranges::fill(x, 0.0);
  for (std::size_t k = 0; k < interior_unknowns_.size(); ++k) x[static_cast<std::size_t>(interior_unknowns_[k])] = solution_[k];
  if (!whole_vectors() || rank() == 0)
    for (std::size_t k = 0; k < interface_.size(); ++k)
      x[static_cast<std::size_t>(interface_[k])] = x_interface(interface_places_[k]);
  if (whole_vectors()) sum(x);
}

}  // namespace noether

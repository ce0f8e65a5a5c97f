#include <noether/solvers/linear/klu_solver.hpp>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <noether/engine/format.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/solvers/linear/lu_column_ordering.hpp>
#include <noether/solvers/linear/nested_dissection.hpp>

namespace noether {

namespace {

/// inverse[order[k]] = k; throws unless order is a permutation of [0, n).
std::vector<Index> inverse_permutation(std::span<const Index> order, Index n, const char* what) {
  if (static_cast<Index>(order.size()) != n)
    throw std::invalid_argument(std::string("permute_csc: ") + what + " holds " + std::to_string(order.size()) +
                                " entries, expected " + std::to_string(n));
  std::vector<Index> inverse(static_cast<std::size_t>(n), -1);
  for (Index k = 0; k < n; ++k) {
    const Index i = order[static_cast<std::size_t>(k)];
    if (i < 0 || i >= n || inverse[static_cast<std::size_t>(i)] != -1)
      throw std::invalid_argument(std::string("permute_csc: ") + what + "[" + std::to_string(k) + "] = " +
                                  std::to_string(i) + " is out of range or repeated: not a permutation of 0.." +
                                  std::to_string(n - 1));
    inverse[static_cast<std::size_t>(i)] = k;
  }
  return inverse;
}

}  // namespace

PermutedCsc permute_csc(const CscPattern& pattern, std::span<const Index> rows, std::span<const Index> columns) {
  const Index n = pattern.n;
  const std::vector<Index> new_row = inverse_permutation(rows, n, "rows");
  inverse_permutation(columns, n, "columns");  // only to check it: B's columns are visited in order
  PermutedCsc b;
  b.column_starts.reserve(static_cast<std::size_t>(n) + 1);
  b.row_indices.reserve(static_cast<std::size_t>(pattern.nnz()));
  b.source_slot.reserve(static_cast<std::size_t>(pattern.nnz()));
  b.column_starts.push_back(0);
  std::vector<std::pair<Index, Index>> column;  // (row of B, slot of A)
  for (const Index source_column : columns) {
    column.clear();
    for (Index slot = pattern.column_starts[static_cast<std::size_t>(source_column)];
         slot < pattern.column_starts[static_cast<std::size_t>(source_column) + 1]; ++slot)
      column.emplace_back(new_row[static_cast<std::size_t>(pattern.row_indices[static_cast<std::size_t>(slot)])], slot);
    std::sort(column.begin(), column.end());
    for (const auto& [row, slot] : column) {
      b.row_indices.push_back(row);
      b.source_slot.push_back(slot);
    }
    b.column_starts.push_back(static_cast<Index>(b.row_indices.size()));
  }
  return b;
}

void gather_permuted_values(const PermutedCsc& layout, std::span<const double> values,
                            std::span<double> permuted_values) {
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  for_each_index_range(static_cast<Index>(layout.source_slot.size()), [&](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) permuted_values[at(k)] = values[at(layout.source_slot[at(k)])];
  });
}

namespace {

/// A refactorization whose cheap condition estimate min|U_ii| / max|U_ii| falls below this
/// fraction of the one of the last fresh (pivoting) factorization is redone with pivoting: the old
/// pivot sequence has gone bad for the new values.
constexpr double kMaxConditionDeterioration = 1e-3;

/// Nested dissection replaces the first candidate only when its trial factorization takes less
/// than 1 / kNestedDissectionGain of the first's flops. The trial measures one matrix; later matrices
/// pivot on their own values, and an ordering that wins by a little on the first may lose on them,
/// while the grids, where nested dissection pays, gain several times that (docs/performance.md,
/// 'Nested-dissection orderings').
constexpr double kNestedDissectionGain = 1.5;

/// Nested dissection is tried only where the first candidate's factorization takes at least this
/// many flops (about a millisecond). Below, METIS's analysis and the trial's refactorization cost
/// several factorizations (grid2d k = 10, 1.5e6 flops: 6 ms of analysis against 1.3 ms per
/// factorization), more than a short run gains, for matrices whose factors are small anyway.
constexpr double kNestedDissectionMinFlops = 1e6;

/// order_columns_for_lu's method name for CHOLMOD's nested dissection of A^T A.
constexpr std::string_view kCholmodNestedDissection = "nested dissection";

/// klu_common::ordering: KLU's AMD of A + A^T for each diagonal block, or common.user_order.
constexpr int kKluAmd = 0;
constexpr int kKluUserOrder = 3;

std::string klu_status(int status) {
  switch (status) {
    case KLU_SINGULAR: return "the matrix is singular";
    case KLU_OUT_OF_MEMORY: return "out of memory";
    case KLU_INVALID: return "invalid matrix";
    case KLU_TOO_LARGE: return "matrix too large";
    default: return "KLU status " + std::to_string(status);
  }
}

/// What order_block did during one klu_analyze.
struct BlockOrderings {
  bool nested_dissection = false;  ///< order the blocks by nested_dissection_order, not order_columns_for_lu
  std::string method;       ///< the method for the largest block
  Index largest_block = 0;  ///< its size
  std::string failure;      ///< why it failed, if it did
};

/// KLU's user_order callback for one diagonal block (n x n, zero-free diagonal after BTF): in
/// perm, the column ordering of order_columns_for_lu, or the nested dissection of the block's
/// B + B^T (BlockOrderings::nested_dissection); KLU orders the block's rows alike. A connected
/// mechanism's Newton matrix is one block, which BTF leaves in the stepper's body-wise numbering
/// (checked on the chains and nfourbar: the block KLU passes is the matrix itself), so the "given"
/// candidate is that numbering. Returns -1 (no fill estimate: KLU sizes L and U as for COLAMD), or
/// 0 on failure with the message kept for find_candidate; nothing is thrown through KLU's C code.
int order_block(int n, int column_starts[], int row_indices[], int perm[], klu_common* common) {
  auto& record = *static_cast<BlockOrderings*>(common->user_data);
  try {
    const std::span<const Index> starts(column_starts, static_cast<std::size_t>(n) + 1);
    const std::span<const Index> rows(row_indices, static_cast<std::size_t>(column_starts[n]));
    const LuColumnOrdering ordering = record.nested_dissection
                                          ? LuColumnOrdering{nested_dissection_order(n, starts, rows), "nd"}
                                          : order_columns_for_lu(n, starts, rows);
    std::copy(ordering.columns.begin(), ordering.columns.end(), perm);
    if (n > static_cast<int>(record.largest_block)) {
      record.largest_block = static_cast<Index>(n);
      record.method = ordering.method;
    }
    return -1;
  } catch (const std::exception& e) {
    record.failure = e.what();
    return 0;
  }
}

/// OrderingRecord::reason of an automatic choice: each trial's flops, and which second candidate
/// the first's flops per factor entry called for.
std::string automatic_choice_reason(const std::vector<KluSolver::OrderingTrial>& trials, double flops_per_entry) {
  std::string reason = "fewest flops in a trial factorization of the first matrix:";
  for (const KluSolver::OrderingTrial& t : trials)
    reason += " " + (t.method.empty() ? std::string("(unordered)") : t.method) + " " +
              (t.factorized ? format_number(t.flops) : std::string("singular"));
  if (flops_per_entry <= kWideFrontFlopsPerEntry) return reason;
  reason += " (amd not tried: " + format_number(flops_per_entry) + " flops per factor entry, above " +
            format_number(kWideFrontFlopsPerEntry) + "; ";
  if (trials.front().method == kCholmodNestedDissection)
    return reason + "nd not tried: the first candidate is a nested dissection already)";
  if (trials.front().flops < kNestedDissectionMinFlops)
    return reason + "nd not tried: below " + format_number(kNestedDissectionMinFlops) + " flops)";
  return reason + "nd kept only with " + format_number(kNestedDissectionGain) + " times fewer)";
}

/// Nonzeros of L + U without L's unit diagonal (lnz and unz both count the diagonal).
Index entries_of(const klu_numeric& numeric, Index n) { return numeric.lnz + numeric.unz - n; }

}  // namespace

KluSolver::KluSolver(FillOrdering ordering) : ordering_option_(ordering) {
  klu_defaults(&common_);
  common_.user_order = &order_block;
  // No row scaling, and no re-check of the pattern at each factorization (klu_analyze checked it;
  // only the values change). KLU's default scaling (by each row's largest magnitude) costs a pass
  // over the matrix at every factorization, a large share of a refactorization of the planar
  // mechanisms, and the Newton matrices do not need it: without it the Newton iterations per step,
  // the share of fresh (pivoting) factorizations and the test suite (singular four-bar
  // configurations, singular mass matrices) stay the same (docs/notebook.md, 'KLU without row
  // scaling'). Fresh factorizations are unscaled too, so that klu_rcond compares like with like.
  common_.scale = -1;
}

KluSolver::~KluSolver() = default;

KluSolver::Candidate KluSolver::find_candidate(const CscPattern& pattern, FillOrdering ordering) {
  std::vector<Index> column_starts = pattern.column_starts, row_indices = pattern.row_indices;  // KLU: non-const
  BlockOrderings blocks;
  blocks.nested_dissection = ordering == FillOrdering::nested_dissection;
  const int klu_ordering = ordering == FillOrdering::amd ? kKluAmd : kKluUserOrder;
  common_.ordering = klu_ordering;
  common_.user_data = &blocks;
  common_.btf = 1;
  const Symbolic symbolic(klu_analyze(pattern.n, column_starts.data(), row_indices.data(), &common_),
                          detail::KluFree{&common_});
  common_.user_data = nullptr;
  if (!symbolic) {
    ordering_.failure = blocks.failure;
    throw LinearSolverError("klu: symbolic analysis failed: " +
                            (blocks.failure.empty() ? klu_status(common_.status) : "ordering: " + blocks.failure));
  }
  Candidate candidate;
  candidate.source = ordering;
  if (klu_ordering == kKluAmd) {
    candidate.largest_block = symbolic->maxblock;
    if (symbolic->maxblock > 1) candidate.method = "amd";  // KLU orders no block of size 1
  } else {
    candidate.largest_block = blocks.largest_block;
    candidate.method = blocks.method;
  }
  candidate.row_order.assign(symbolic->P, symbolic->P + pattern.n);
  candidate.column_order.assign(symbolic->Q, symbolic->Q + pattern.n);
  candidate.several_blocks = symbolic->nblocks > 1;
  return candidate;
}

void KluSolver::analyze_pattern(const CscPattern& pattern) {
  factors_ = {};
  factorized_ = false;
  ordering_chosen_ = false;
  ordering_ = {};
  profile_ = {};
  candidates_.clear();
  pattern_ = &pattern;
  work_.assign(static_cast<std::size_t>(pattern.n), 0.0);
  analysed_.clear();
  candidates_.push_back(find_candidate(pattern, ordering_option_));
}

void KluSolver::add_candidate(FillOrdering ordering) {
  if (std::find(analysed_.begin(), analysed_.end(), ordering) != analysed_.end()) return;
  analysed_.push_back(ordering);
  Candidate candidate = find_candidate(*pattern_, ordering);
  const Candidate& first = candidates_.front();
  if (candidate.row_order != first.row_order || candidate.column_order != first.column_order)
    candidates_.push_back(std::move(candidate));
}

std::vector<std::string> KluSolver::candidate_methods() const {
  std::vector<std::string> methods;
  for (const Candidate& c : candidates_) methods.push_back(c.method);
  return methods;
}

KluSolver::Factors KluSolver::lay_out(std::size_t k) {
  const Candidate& candidate = candidates_[k];
  Factors f;
  f.layout = permute_csc(*pattern_, candidate.row_order, candidate.column_order);
  f.values.assign(f.layout.row_indices.size(), 0.0);
  // One block: KLU eliminates A(P, Q) as a whole, and so will B. Several: B is block upper
  // triangular, and BTF on it again keeps the off-diagonal blocks out of the factors.
  common_.btf = candidate.several_blocks ? 1 : 0;
  f.symbolic = Symbolic(klu_analyze_given(pattern_->n, f.layout.column_starts.data(), f.layout.row_indices.data(),
                                          nullptr, nullptr, &common_),
                        detail::KluFree{&common_});
  if (!f.symbolic)
    throw LinearSolverError("klu: symbolic analysis of the reordered matrix failed: " + klu_status(common_.status));
  return f;
}

FactorizationStatus KluSolver::factor_fresh(Factors& f) {
  f.numeric.reset();
  f.numeric = Numeric(klu_factor(f.layout.column_starts.data(), f.layout.row_indices.data(), f.values.data(),
                                 f.symbolic.get(), &common_),
                      detail::KluFree{&common_});
  const int status = common_.status;
  if (!f.numeric || status == KLU_SINGULAR) {
    f.numeric.reset();
    if (status == KLU_OUT_OF_MEMORY) throw LinearSolverError("klu: out of memory in factorization");
    return {false, "klu: " + klu_status(status)};
  }
  klu_rcond(f.symbolic.get(), f.numeric.get(), &common_);
  f.fresh_rcond = common_.rcond;
  return {};
}

FactorizationStatus KluSolver::factor_candidate(std::size_t k, std::span<const double> values) {
  factors_ = {};  // before the new ones: one set of factors at a time
  factors_ = lay_out(k);
  gather_permuted_values(factors_.layout, values, factors_.values);
  return factor_fresh(factors_);
}

FactorizationStatus KluSolver::choose_ordering(std::span<const double> values) {
  ordering_.method.clear();
  ordering_.largest_block = 0;
  ordering_.reason.clear();
  ordering_.trials.clear();
  // trials[k] records candidates_[k].
  const auto trial = [&](std::size_t k) {
    const FactorizationStatus status = factor_candidate(k, values);
    OrderingTrial record{.method = candidates_[k].method, .factorized = status.ok};
    if (status.ok) {
      klu_flops(factors_.symbolic.get(), factors_.numeric.get(), &common_);
      record.flops = common_.flops;
      record.factor_entries = entries_of(*factors_.numeric, size());
    }
    ordering_.trials.push_back(record);
    return status;
  };
  const FactorizationStatus first = trial(0);
  if (!first.ok) return first;
  const double flops_per_entry =
      ordering_.trials[0].flops / static_cast<double>(std::max<Index>(ordering_.trials[0].factor_entries, 1));
  // KLU's AMD is tried only when the first candidate's factors have narrow fronts
  // (kWideFrontFlopsPerEntry), nested dissection only when they are wide. AMD orders for diagonal
  // pivots; where the pivoting leaves the diagonal across wide fronts, AMD's factors fill in by far
  // more, and the trial alone would cost many factorizations. Narrow fronts leave nested dissection
  // nothing to gain: a chain's separators are as small as its fronts already are.
  const bool narrow_fronts = flops_per_entry <= kWideFrontFlopsPerEntry;
  // The fewest flops win, the first candidate (order_columns_for_lu's) on ties; nested dissection
  // needs more than kNestedDissectionGain times fewer.
  chosen_ = 0;
  std::size_t factored = 0;  // the candidate whose factors factors_ holds
  // Where the first candidate is CHOLMOD's nested dissection of A^T A already, METIS's of A + A^T
  // has nothing to add: ordering for diagonal pivots, it fills in as much or more once the pivoting
  // leaves the diagonal (grid2d k = 60: 6.9e8 flops against 6.6e8; k = 100: 6.6e9 against 3.3e9),
  // and its trial would cost two more factorizations of the largest matrices.
  const bool dissected = candidates_.front().method == kCholmodNestedDissection;
  const bool small = ordering_.trials[0].flops < kNestedDissectionMinFlops;
  if (ordering_option_ == FillOrdering::automatic && (narrow_fronts || !(dissected || small))) {
    // Only this choice's second candidate: one an earlier choice added (after forget_factorization,
    // from a matrix of other fronts) is not tried, as a resumed run, which analyses afresh, has none.
    const FillOrdering second = narrow_fronts ? FillOrdering::amd : FillOrdering::nested_dissection;
    add_candidate(second);
    const double gain = narrow_fronts ? 1.0 : kNestedDissectionGain;
    for (std::size_t k = 1; k < candidates_.size(); ++k) {
      if (candidates_[k].source != second) continue;
      factored = k;
      if (trial(k).ok && gain * ordering_.trials[k].flops < ordering_.trials[chosen_].flops) chosen_ = k;
    }
  }
  // The winner's factorization again, as in its trial (same inputs, same factors).
  if (factored != chosen_ && !factor_candidate(chosen_, values).ok)
    throw LinearSolverError("klu: the factorization of the chosen ordering failed on the values of its trial");
  ordering_chosen_ = true;
  ordering_.method = candidates_[chosen_].method;
  ordering_.largest_block = candidates_[chosen_].largest_block;
  ordering_.reason = ordering_option_ == FillOrdering::automatic
                         ? automatic_choice_reason(ordering_.trials, flops_per_entry)
                         : "--ordering " + std::string(to_string(ordering_option_)) + ": " +
                               format_number(ordering_.trials[0].flops) + " flops";
  profile_ = {.solver = "klu",
              .ordering = ordering_.method,
              .reason = ordering_.reason,
              .factor_entries = ordering_.trials[chosen_].factor_entries,
              .flops = ordering_.trials[chosen_].flops};
  return {};
}

FactorizationStatus KluSolver::factorize(std::span<const double> values) {
  if (candidates_.empty()) throw LinearSolverError("klu: factorize called before analyze_pattern");
  if (values.size() != pattern_->row_indices.size())
    throw LinearSolverError("klu: expected " + std::to_string(pattern_->row_indices.size()) + " values, got " +
                            std::to_string(values.size()));
  factorized_ = false;
  if (!ordering_chosen_) {
    const FactorizationStatus status = choose_ordering(values);
    factorized_ = status.ok;
    return status;
  }
  gather_permuted_values(factors_.layout, values, factors_.values);
  const bool refactored =
      factors_.numeric && klu_refactor(factors_.layout.column_starts.data(), factors_.layout.row_indices.data(),
                                       factors_.values.data(), factors_.symbolic.get(), factors_.numeric.get(),
                                       &common_) != 0;
  const bool pivots_fine = refactored && klu_rcond(factors_.symbolic.get(), factors_.numeric.get(), &common_) != 0 &&
                           common_.rcond > kMaxConditionDeterioration * factors_.fresh_rcond;
  if (!pivots_fine) {
    const FactorizationStatus status = factor_fresh(factors_);
    factorized_ = status.ok;
    return status;
  }
  ++refactorizations_;
  factorized_ = true;
  return {};
}

void KluSolver::forget_factorization() {
  factors_.numeric.reset();
  factorized_ = false;
  ordering_chosen_ = false;
}

Index KluSolver::factor_entries() const { return factors_.numeric ? entries_of(*factors_.numeric, size()) : 0; }

void KluSolver::gather_into_work(std::span<const double> from, const std::vector<Index>& order) {
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  for_each_index_range(size(), [&](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) work_[at(k)] = from[at(order[at(k)])];
  });
}

void KluSolver::scatter_work(std::span<double> to, const std::vector<Index>& order) const {
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  for_each_index_range(size(), [&](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) to[at(order[at(k)])] = work_[at(k)];
  });
}

void KluSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!factorized_) throw LinearSolverError("klu: solve called without a successful factorization");
  check_solve_sizes("klu", size(), b, x);
  const Candidate& order = candidates_[chosen_];
  // A x = b  <=>  B y = b(P) with x(Q) = y.
  gather_into_work(b, order.row_order);
  if (!klu_solve(factors_.symbolic.get(), factors_.numeric.get(), size(), 1, work_.data(), &common_))
    throw LinearSolverError("klu: solve failed: " + klu_status(common_.status));
  scatter_work(x, order.column_order);
}

void KluSolver::solve_in_place(std::span<double> columns, Index count) {
  if (!factorized_) throw LinearSolverError("klu: solve called without a successful factorization");
  if (count < 0 || columns.size() != static_cast<std::size_t>(size()) * static_cast<std::size_t>(count))
    throw LinearSolverError("klu: " + std::to_string(count) + " right sides of " + std::to_string(size()) +
                            " entries do not fill a buffer of " + std::to_string(columns.size()));
  if (count == 0) return;
  const Candidate& order = candidates_[chosen_];
  const auto column = [&](Index c) {
    return columns.subspan(static_cast<std::size_t>(c) * work_.size(), work_.size());
  };
  // solve()'s steps, the columns side by side: each b becomes b(P), all are solved in one call,
  // and each y goes back to x(Q) = y.
  for (Index c = 0; c < count; ++c) {
    gather_into_work(column(c), order.row_order);
    std::ranges::copy(work_, column(c).begin());
  }
  if (!klu_solve(factors_.symbolic.get(), factors_.numeric.get(), size(), count, columns.data(), &common_))
    throw LinearSolverError("klu: solve failed: " + klu_status(common_.status));
  for (Index c = 0; c < count; ++c) {
    std::ranges::copy(column(c), work_.begin());
    scatter_work(column(c), order.column_order);
  }
}

void KluSolver::solve_transposed(std::span<const double> b, std::span<double> x) {
  if (!factorized_) throw LinearSolverError("klu: solve_transposed called without a successful factorization");
  check_solve_sizes("klu", size(), b, x);
  const Candidate& order = candidates_[chosen_];
  // A^T x = b  <=>  B^T y = b(Q) with x(P) = y, since B(k, l) = A(P_k, Q_l).
  gather_into_work(b, order.column_order);
  if (!klu_tsolve(factors_.symbolic.get(), factors_.numeric.get(), size(), 1, work_.data(), &common_))
    throw LinearSolverError("klu: transposed solve failed: " + klu_status(common_.status));
  scatter_work(x, order.row_order);
}

}  // namespace noether

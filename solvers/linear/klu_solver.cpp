#include <noether/solvers/linear/klu_solver.hpp>

#include <algorithm>

#include <noether/engine/parallel_ranges.hpp>
#include <noether/solvers/linear/lu_column_ordering.hpp>

namespace noether {
namespace {

/// A refactorization whose cheap condition estimate min|U_ii| / max|U_ii| falls below this
/// fraction of the one of the last fresh (pivoting) factorization is redone with pivoting: the old
/// pivot sequence has gone bad for the new values.
constexpr double kMaxConditionDeterioration = 1e-3;

std::string klu_status(const klu_common& common) {
  switch (common.status) {
    case KLU_SINGULAR: return "the matrix is singular";
    case KLU_OUT_OF_MEMORY: return "out of memory";
    case KLU_INVALID: return "invalid matrix";
    case KLU_TOO_LARGE: return "matrix too large";
    default: return "KLU status " + std::to_string(common.status);
  }
}

/// KLU's user_order callback for one diagonal block (n x n, zero-free diagonal after BTF): the
/// column ordering of order_columns_for_lu in perm. A connected mechanism's Newton matrix is one
/// block, which BTF leaves in the stepper's body-wise numbering (checked on the chains and
/// nfourbar: the block KLU passes is the matrix itself), so the "given" candidate is that
/// numbering. Returns -1 (no fill estimate: KLU sizes L and U as for COLAMD), or 0 on failure with
/// the message kept for analyze_pattern; nothing is thrown through KLU's C code.
int order_block(int n, int column_starts[], int row_indices[], int perm[], klu_common* common) {
  auto& record = *static_cast<KluSolver::OrderingRecord*>(common->user_data);
  try {
    const auto starts = static_cast<std::size_t>(n) + 1;
    const LuColumnOrdering ordering =
        order_columns_for_lu(n, {column_starts, starts}, {row_indices, static_cast<std::size_t>(column_starts[n])});
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

}  // namespace

KluSolver::KluSolver() {
  klu_defaults(&common_);
  common_.ordering = 3;  // order_block: COLAMD, the given order or nested dissection, whichever needs fewer flops.
                         // Not AMD on A + A^T (KLU's default): it assumes diagonal pivots, which the zero
                         // block of the saddle-point Newton matrices does not have, and fills in badly
  common_.user_order = &order_block;
  common_.user_data = &ordering_;
  // No row scaling, and no re-check of the pattern at each factorization (klu_analyze checked it;
  // only the values change). KLU's default scaling (by each row's largest magnitude) costs a pass
  // over the matrix at every factorization, a large share of a refactorization of the planar
  // mechanisms (docs/performance.md, 'KLU without row scaling'). Without it, the Newton iterations
  // per step and the share of fresh (pivoting) factorizations (livens-em: chain2d, chain3d and
  // nfourbar n = 6 400, chain3d-revolute n = 800, grid2d k = 25 and 50) and the whole test suite
  // (singular four-bar configurations, singular mass matrices) were unchanged. Fresh factorizations
  // are unscaled too, so that klu_rcond compares like with like.
  common_.scale = -1;
}

KluSolver::~KluSolver() {
  free_numeric();
  if (symbolic_) klu_free_symbolic(&symbolic_, &common_);
}

void KluSolver::free_numeric() {
  if (numeric_) klu_free_numeric(&numeric_, &common_);
  numeric_ = nullptr;
  factorized_ = false;
}

void KluSolver::find_elimination_order(const CscPattern& pattern) {
  std::vector<Index> column_starts = pattern.column_starts, row_indices = pattern.row_indices;  // KLU: non-const
  ordering_ = {};
  common_.btf = 1;
  klu_symbolic* symbolic = klu_analyze(pattern.n, column_starts.data(), row_indices.data(), &common_);
  if (!symbolic)
    throw LinearSolverError("klu: symbolic analysis failed: " +
                            (ordering_.failure.empty() ? klu_status(common_) : "ordering: " + ordering_.failure));
  row_order_.assign(symbolic->P, symbolic->P + pattern.n);
  column_order_.assign(symbolic->Q, symbolic->Q + pattern.n);
  // One block: KLU eliminates A(P, Q) as a whole, and so will B. Several: B is block upper
  // triangular, and BTF on it again keeps the off-diagonal blocks out of the factors.
  common_.btf = symbolic->nblocks > 1 ? 1 : 0;
  klu_free_symbolic(&symbolic, &common_);
}

void KluSolver::analyze_pattern(const CscPattern& pattern) {
  free_numeric();
  if (symbolic_) klu_free_symbolic(&symbolic_, &common_);
  find_elimination_order(pattern);
  layout_ = permute_csc(pattern, row_order_, column_order_);
  values_.assign(layout_.row_indices.size(), 0.0);
  work_.assign(static_cast<std::size_t>(pattern.n), 0.0);
  symbolic_ = klu_analyze_given(pattern.n, layout_.column_starts.data(), layout_.row_indices.data(), nullptr,
                                nullptr, &common_);
  if (!symbolic_)
    throw LinearSolverError("klu: symbolic analysis of the reordered matrix failed: " + klu_status(common_));
}

FactorizationStatus KluSolver::factor_fresh() {
  free_numeric();
  numeric_ = klu_factor(layout_.column_starts.data(), layout_.row_indices.data(), values_.data(), symbolic_, &common_);
  if (!numeric_ || common_.status == KLU_SINGULAR) {
    free_numeric();
    if (common_.status == KLU_OUT_OF_MEMORY) throw LinearSolverError("klu: out of memory in factorization");
    return {false, "klu: " + klu_status(common_)};
  }
  klu_rcond(symbolic_, numeric_, &common_);
  fresh_rcond_ = common_.rcond;
  factorized_ = true;
  return {};
}

FactorizationStatus KluSolver::factorize(std::span<const double> values) {
  if (!symbolic_) throw LinearSolverError("klu: factorize called before analyze_pattern");
  if (values.size() != values_.size())
    throw LinearSolverError("klu: expected " + std::to_string(values_.size()) + " values, got " +
                            std::to_string(values.size()));
  gather_permuted_values(layout_, values, values_);
  if (!numeric_) return factor_fresh();
  const bool refactored = klu_refactor(layout_.column_starts.data(), layout_.row_indices.data(), values_.data(),
                                       symbolic_, numeric_, &common_) != 0;
  const bool pivots_fine = refactored && klu_rcond(symbolic_, numeric_, &common_) != 0 &&
                           common_.rcond > kMaxConditionDeterioration * fresh_rcond_;
  if (!pivots_fine) return factor_fresh();
  ++refactorizations_;
  factorized_ = true;
  return {};
}

Index KluSolver::factor_entries() const { return numeric_ ? numeric_->lnz + numeric_->unz - size() : 0; }

void KluSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!factorized_) throw LinearSolverError("klu: solve called without a successful factorization");
  check_solve_sizes("klu", size(), b, x);
  // A x = b  <=>  B y = b(P) with x(Q) = y.
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  for_each_index_range(size(), [&](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) work_[at(k)] = b[at(row_order_[at(k)])];
  });
  if (!klu_solve(symbolic_, numeric_, size(), 1, work_.data(), &common_))
    throw LinearSolverError("klu: solve failed: " + klu_status(common_));
  for_each_index_range(size(), [&](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) x[at(column_order_[at(k)])] = work_[at(k)];
  });
}

void KluSolver::solve_transposed(std::span<const double> b, std::span<double> x) {
  if (!factorized_) throw LinearSolverError("klu: solve_transposed called without a successful factorization");
  check_solve_sizes("klu", size(), b, x);
  // A^T x = b  <=>  B^T y = b(Q) with x(P) = y, since B(k, l) = A(P_k, Q_l).
  const auto at = [](Index k) { return static_cast<std::size_t>(k); };
  for_each_index_range(size(), [&](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) work_[at(k)] = b[at(column_order_[at(k)])];
  });
  if (!klu_tsolve(symbolic_, numeric_, size(), 1, work_.data(), &common_))
    throw LinearSolverError("klu: transposed solve failed: " + klu_status(common_));
  for_each_index_range(size(), [&](Index begin, Index end) {
    for (Index k = begin; k < end; ++k) x[at(row_order_[at(k)])] = work_[at(k)];
  });
}

}  // namespace noether

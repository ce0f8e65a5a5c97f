#include <noether/solvers/linear/lu_column_ordering.hpp>

#include <memory>
#include <optional>
#include <stdexcept>

#include <noether/solvers/linear/cholmod_view.hpp>

namespace noether {
namespace {

/// A cholmod_common started and finished with the object.
struct CholmodSession {
  CholmodSession() { cholmod_start(&common); }
  ~CholmodSession() { cholmod_finish(&common); }
  CholmodSession(const CholmodSession&) = delete;
  CholmodSession& operator=(const CholmodSession&) = delete;
  cholmod_common common{};
};

/// Nested dissection is tried when COLAMD's factor does at least this many flops per nonzero, i.e.
/// when its fronts are dense-ish (grid2d: 200 to 400). Its analysis costs an order of magnitude more
/// than COLAMD's (docs/notebook.md, 'Nested dissection for the grids'), which chains (7 to 50)
/// would pay for a factorization no cheaper, or cheaper by a third at most.
constexpr double kNestedDissectionFlopsPerNonzero = 100.0;

/// Frees CHOLMOD objects with the session's common.
struct CholmodFree {
  cholmod_common* common;
  void operator()(cholmod_sparse* s) const { cholmod_free_sparse(&s, common); }
  void operator()(cholmod_factor* f) const { cholmod_free_factor(&f, common); }
};
using SparsePtr = std::unique_ptr<cholmod_sparse, CholmodFree>;
using AnalysisPtr = std::unique_ptr<cholmod_factor, CholmodFree>;

std::string cholmod_failure(const cholmod_common& common) {
  switch (common.status) {
    case CHOLMOD_OUT_OF_MEMORY: return "out of memory";
    case CHOLMOD_TOO_LARGE: return "the problem is too large";
    case CHOLMOD_NOT_INSTALLED: return "a CHOLMOD module is not installed";
    default: return "CHOLMOD status " + std::to_string(common.status);
  }
}

}  // namespace

LuColumnOrdering order_columns_for_lu(Index n, std::span<const Index> column_starts,
                                      std::span<const Index> row_indices) {
  if (n < 0 || column_starts.size() != static_cast<std::size_t>(n) + 1)
    throw std::invalid_argument("order_columns_for_lu: column_starts must have n + 1 = " + std::to_string(n + 1) +
                                " entries");
  LuColumnOrdering ordering;
  if (n == 0) return ordering;
  CholmodSession session;
  cholmod_common& cc = session.common;
  // Unsymmetric; KLU's blocks may carry unsorted rows.
  cholmod_sparse A = cholmod_view(n, column_starts, row_indices, nullptr, {.stype = 0, .sorted = false});
  // CHOLMOD orders B B^T of an unsymmetric B: B = A^T gives the column ordering of A for A^T A.
  const SparsePtr At(cholmod_transpose(&A, 0, &cc), CholmodFree{&cc});
  if (!At) throw std::runtime_error("order_columns_for_lu: transposing the pattern failed: " + cholmod_failure(cc));

  cc.supernodal = CHOLMOD_SIMPLICIAL;  // only the ordering and its counts are wanted
  struct Candidate {
    AnalysisPtr analysis;
    double flops, nonzeros;
  };
  // Empty when the method is not installed (CHOLMOD built without METIS has no nested dissection).
  const auto analyze = [&](int method) {
    cc.nmethods = 1;
    cc.method[0].ordering = method;
    cc.postorder = method != CHOLMOD_NATURAL;  // the given order itself, not a postordering of it
    AnalysisPtr L(cholmod_analyze(At.get(), &cc), CholmodFree{&cc});
    if (!L && cc.status == CHOLMOD_NOT_INSTALLED) return std::optional<Candidate>();
    if (!L) throw std::runtime_error("order_columns_for_lu: CHOLMOD's analysis failed: " + cholmod_failure(cc));
    return std::optional<Candidate>(Candidate{std::move(L), cc.method[0].fl, cc.method[0].lnz});
  };
  std::optional<Candidate> colamd = analyze(CHOLMOD_COLAMD);
  if (!colamd) throw std::runtime_error("order_columns_for_lu: CHOLMOD has no COLAMD ordering");
  Candidate best = std::move(*colamd);
  ordering.method = "colamd";
  const auto keep_if_cheaper = [&](std::optional<Candidate> candidate, const char* method) {
    if (!candidate || candidate->flops >= best.flops) return;
    best = std::move(*candidate);
    ordering.method = method;
  };
  const bool dense_fronts = best.flops >= kNestedDissectionFlopsPerNonzero * best.nonzeros;
  keep_if_cheaper(analyze(CHOLMOD_NATURAL), "given");
  if (dense_fronts) keep_if_cheaper(analyze(CHOLMOD_NESDIS), "nested dissection");
  const auto* perm = static_cast<const Index*>(best.analysis->Perm);
  ordering.columns.assign(perm, perm + n);
  ordering.predicted_flops = best.flops;
  return ordering;
}

}  // namespace noether

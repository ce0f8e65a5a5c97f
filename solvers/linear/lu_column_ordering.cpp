#include <noether/solvers/linear/lu_column_ordering.hpp>

#include <memory>
#include <optional>
#include <stdexcept>

#include <tbb/parallel_invoke.h>

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

/// Frees CHOLMOD objects with the session that made them, which it keeps alive until then.
struct CholmodFree {
  std::shared_ptr<CholmodSession> session;
  void operator()(cholmod_sparse* s) const { cholmod_free_sparse(&s, &session->common); }
  void operator()(cholmod_factor* f) const { cholmod_free_factor(&f, &session->common); }
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

/// One candidate's symbolic analysis, made in a CHOLMOD session of its own.
struct Candidate {
  AnalysisPtr analysis;  ///< null when the method is not installed
  double flops = 0, nonzeros = 0;
};

/// CHOLMOD's analysis of B B^T (B = At) under one ordering method: its permutation and the flops
/// and nonzeros of that Cholesky factor. No analysis when the method is not installed (CHOLMOD
/// built without METIS has no nested dissection); throws std::runtime_error on other failures.
Candidate analyze(cholmod_sparse& At, int method) {
  const auto session = std::make_shared<CholmodSession>();
  cholmod_common& cc = session->common;
  cc.supernodal = CHOLMOD_SIMPLICIAL;  // only the ordering and its counts are wanted
  cc.nmethods = 1;
  cc.method[0].ordering = method;
  cc.postorder = method != CHOLMOD_NATURAL;  // the given order itself, not a postordering of it
  AnalysisPtr analysis(cholmod_analyze(&At, &cc), CholmodFree{session});
  if (!analysis && cc.status == CHOLMOD_NOT_INSTALLED) return {};
  if (!analysis) throw std::runtime_error("order_columns_for_lu: CHOLMOD's analysis failed: " + cholmod_failure(cc));
  return {std::move(analysis), cc.method[0].fl, cc.method[0].lnz};
}

}  // namespace

LuColumnOrdering order_columns_for_lu(Index n, std::span<const Index> column_starts,
                                      std::span<const Index> row_indices) {
  if (n < 0 || column_starts.size() != static_cast<std::size_t>(n) + 1)
    throw std::invalid_argument("order_columns_for_lu: column_starts must have n + 1 = " + std::to_string(n + 1) +
                                " entries");
  LuColumnOrdering ordering;
  if (n == 0) return ordering;
  const auto session = std::make_shared<CholmodSession>();
  // Unsymmetric; KLU's blocks may carry unsorted rows.
  cholmod_sparse A = cholmod_view(n, column_starts, row_indices, nullptr, {.stype = 0, .sorted = false});
  // CHOLMOD orders B B^T of an unsymmetric B: B = A^T gives the column ordering of A for A^T A.
  const SparsePtr At(cholmod_transpose(&A, 0, &session->common), CholmodFree{session});
  if (!At) throw std::runtime_error("order_columns_for_lu: transposing the pattern failed: " + cholmod_failure(session->common));

  // COLAMD's and the given order's analyses read At alone, each in a session of its own: they run
  // side by side (bit for bit what one after the other gives, in any thread count).
  Candidate colamd, given;
  tbb::parallel_invoke([&] { colamd = analyze(*At, CHOLMOD_COLAMD); }, [&] { given = analyze(*At, CHOLMOD_NATURAL); });
  if (!colamd.analysis) throw std::runtime_error("order_columns_for_lu: CHOLMOD has no COLAMD ordering");
  Candidate best = std::move(colamd);
  ordering.method = "colamd";
  const auto keep_if_cheaper = [&](Candidate candidate, const char* method) {
    if (!candidate.analysis || candidate.flops >= best.flops) return;
    best = std::move(candidate);
    ordering.method = method;
  };
  const bool dense_fronts = best.flops >= kNestedDissectionFlopsPerNonzero * best.nonzeros;
  keep_if_cheaper(std::move(given), "given");
  if (dense_fronts) keep_if_cheaper(analyze(*At, CHOLMOD_NESDIS), "nested dissection");
  const auto* perm = static_cast<const Index*>(best.analysis->Perm);
  ordering.columns.assign(perm, perm + n);
  ordering.predicted_flops = best.flops;
  return ordering;
}

}  // namespace noether

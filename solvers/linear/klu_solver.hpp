#pragma once
/// KLU (sparse LU for circuit-like matrices), with klu_refactor for repeated factorizations, on
/// the matrix laid out again in KLU's elimination order (PermutedCsc).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <klu.h>

#include <noether/engine/sparse_pattern.hpp>
#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// A square sparse matrix A laid out again as B = A(rows, columns), for a backend that factors B
/// and reads it fastest in its own elimination order: the
/// compressed-column pattern of B, B(i, j) = A(rows[i], columns[j]) (n x n, row indices
/// sorted within each column), and where each entry of B comes from: entry k of B is entry
/// source_slot[k] of A's value array.
struct PermutedCsc {
  std::vector<Index> column_starts;  ///< n + 1
  std::vector<Index> row_indices;    ///< nnz
  std::vector<Index> source_slot;    ///< nnz
};

/// Precondition: rows and columns are permutations of [0, pattern.n) (checked: throws
/// std::invalid_argument naming the bad entry).
PermutedCsc permute_csc(const CscPattern& pattern, std::span<const Index> rows, std::span<const Index> columns);

/// permuted_values[k] = values[layout.source_slot[k]] for every entry k of B (both nnz), in
/// parallel; every entry is copied alone, so the result does not depend on the number of threads.
void gather_permuted_values(const PermutedCsc& layout, std::span<const double> values,
                            std::span<double> permuted_values);

namespace detail {

/// Frees KLU's objects with the klu_common they were made with.
struct KluFree {
  klu_common* common = nullptr;
  void operator()(klu_symbolic* s) const { klu_free_symbolic(&s, common); }
  void operator()(klu_numeric* f) const { klu_free_numeric(&f, common); }
};

}  // namespace detail

/// The first factorization uses klu_factor (pivoting chosen from the values); later ones reuse
/// that pivot sequence with klu_refactor, which is cheaper, and fall back to a fresh klu_factor
/// when the cheap condition estimate (klu_rcond) shows the old pivots have gone bad.
///
/// KLU's analysis of a pattern A yields the row and column orders P, Q (block triangular form and
/// fill-reducing ordering) in which it eliminates. The solver then keeps B = A(P, Q) and has KLU
/// factor B in its given order: each factorization first gathers A's values into B's layout, so
/// that KLU reads its columns one after the other instead of jumping through A, which out of the
/// caches costs more than the gather (docs/notebook.md, 'KLU factors the matrix laid out in its own
/// elimination order').
///
/// The ordering (FillOrdering, fixed at construction) is KLU's analysis with one candidate
/// ordering of each diagonal block, or chosen by trial between candidates (automatic):
///  - colamd: order_columns_for_lu's (solvers/linear/lu_column_ordering.hpp: COLAMD, the given
///    order or CHOLMOD's nested dissection of A^T A, judged by the Cholesky bound of A^T A, which
///    holds for any pivoting);
///  - amd: KLU's AMD ordering of A + A^T, which that bound rates far worse on em-ggl's Newton
///    matrices, yet whose pivoted LU there takes fewer flops (docs/notebook.md, 'The fill-reducing
///    ordering, chosen by a trial factorization'): the bound is loose where the pivots stay near
///    the diagonal;
///  - nd: METIS's nested dissection (solvers/linear/nested_dissection.hpp) of B + B^T for each
///    block B that BTF's matching leaves with a zero-free diagonal, used as both row and column
///    order of the block, as KLU uses AMD's.
/// Automatic factors the first matrix under colamd's order, then, when those factors are sparse
/// (at most 15 flops per entry), under amd too, keeping the one of fewest flops (klu_flops; colamd
/// on ties, or when AMD's factorization fails); when they are not (wide fronts: the grids, 3D
/// revolute chains, where AMD's diagonal pivots fill in by far more), under nd instead, keeping nd
/// only when it takes less than 1 / 1.5 of colamd's flops, unless colamd's order is CHOLMOD's
/// nested dissection of A^T A already (the largest grids), which nd, blind to the pivoting, does
/// not beat, or colamd's factorization takes less than 1e6 flops (about a millisecond: METIS's
/// analysis would cost more than it saves). The thresholds keep the trial to one more factorization (where the first candidate
/// wins, two), and METIS's analysis off the chains, whose fronts are narrow.
/// The first factorize after analyze_pattern or forget_factorization makes that choice. Its
/// factorization is the result; later factorizations use that order until the next choice. The
/// choice depends on the pattern and that one matrix alone (KLU, METIS with its fixed seed and the
/// gather are serial or per entry), so a run resumed from a checkpoint, which analyses afresh,
/// chooses as the run that wrote the checkpoint and forgot its factorization there. One set of
/// factors is kept at a time, so that the trial's peak memory is the larger candidate's, not the
/// sum of both.
class KluSolver final : public LinearSolver {
 public:
  explicit KluSolver(FillOrdering ordering = FillOrdering::automatic);
  ~KluSolver() override;
  KluSolver(const KluSolver&) = delete;
  KluSolver& operator=(const KluSolver&) = delete;

  LinearSolverKind kind() const override { return LinearSolverKind::klu; }
  bool needs_symmetric_positive_definite() const override { return false; }
  void analyze_pattern(const CscPattern& pattern) override;
  FactorizationStatus factorize(std::span<const double> values) override;
  void solve(std::span<const double> b, std::span<double> x) override;
  void solve_transposed(std::span<const double> b, std::span<double> x) override;
  /// A X = B for `count` right sides stored one after another in `columns` (size() x count,
  /// column-major), overwritten with the solutions: one pass of KLU over the factors for every
  /// four columns (klu_solve's nrhs) instead of one per column, each column the same bits as
  /// solve() gives it. Throws LinearSolverError as solve does, or for a buffer of another size.
  void solve_in_place(std::span<double> columns, Index count);
  /// The next factorize chooses the ordering again and pivots afresh (klu_factor), as a new
  /// solver's first one does.
  void forget_factorization() override;
  /// ordering()'s method and reason, and the chosen candidate's trial figures, of the last choice
  /// since analyze_pattern (kept across forget_factorization until the next choice replaces it).
  FactorizationProfile factorization_profile() const override { return profile_; }

  /// Numeric factorizations done with klu_refactor (for the benchmarks' phase reports).
  int refactorizations() const { return refactorizations_; }
  /// Nonzeros of L + U of the current factorization, the unit diagonal of L not counted (0 before
  /// the first); KLU stores each with its row index, 12 bytes (the diagonal of U 8).
  Index factor_entries() const;

  /// One candidate ordering's trial factorization.
  struct OrderingTrial {
    std::string method;        ///< "colamd", "given", "nested dissection" (order_columns_for_lu), "amd" or "nd"
    bool factorized = false;   ///< false: KLU found the matrix singular in this order
    double flops = 0.0;        ///< klu_flops of the factorization
    Index factor_entries = 0;  ///< L + U as factor_entries() counts them
  };
  /// The fill-reducing ordering in use and how it was chosen.
  struct OrderingRecord {
    std::string method;       ///< of the largest diagonal block, in the order in use; "" before the first
                              ///< successful factorization (or when all blocks were tiny)
    Index largest_block = 0;  ///< its size
    std::string reason;       ///< why this candidate: the trial's flops of each
    std::vector<OrderingTrial> trials;  ///< of the last choice, in the order tried (AMD's only when tried)
    std::string failure;      ///< why the ordering failed, if it did
  };
  const OrderingRecord& ordering() const { return ordering_; }
  /// The methods of the candidates analysed so far, in the order they are tried: after
  /// analyze_pattern the first (automatic: order_columns_for_lu's); after a trial that tried AMD
  /// or nd, "amd" or "nd" too (unless its order is the same).
  std::vector<std::string> candidate_methods() const;

 private:
  using Symbolic = std::unique_ptr<klu_symbolic, detail::KluFree>;
  using Numeric = std::unique_ptr<klu_numeric, detail::KluFree>;

  /// An elimination order of the analysed pattern, from KLU's analysis with one ordering.
  struct Candidate {
    FillOrdering source = FillOrdering::automatic;  ///< the ordering find_candidate made it with
    std::string method;       ///< as OrderingTrial::method, of its largest block ("" when all were tiny)
    Index largest_block = 0;  ///< that block's size
    std::vector<Index> row_order, column_order;  ///< P, Q: B = A(P, Q)
    bool several_blocks = false;                 ///< B is block upper triangular with more than one block
  };
  /// KLU's factors of B = A(P, Q) under one candidate.
  struct Factors {
    PermutedCsc layout;          ///< B's pattern (KLU takes it non-const)
    std::vector<double> values;  ///< B's values of the last factorize
    Symbolic symbolic;
    Numeric numeric;
    double fresh_rcond = 0.0;  ///< klu_rcond of the last fresh factorization
  };

  /// KLU's analysis of the pattern with the given candidate ordering of its blocks (automatic:
  /// colamd's).
  Candidate find_candidate(const CscPattern& pattern, FillOrdering ordering);
  /// The candidate of `ordering` appended to candidates_, once per analysis (not when it repeats
  /// the first).
  void add_candidate(FillOrdering ordering);
  /// B's layout and KLU's analysis of B for candidates_[k], values not yet gathered.
  Factors lay_out(std::size_t k);
  /// Factors f.values afresh; on failure f holds no numeric factorization.
  FactorizationStatus factor_fresh(Factors& f);
  /// values factored afresh under candidates_[k], into factors_ (the factors it held are freed first).
  FactorizationStatus factor_candidate(std::size_t k, std::span<const double> values);
  /// The trial: values factored under each candidate, the cheapest kept in factors_.
  FactorizationStatus choose_ordering(std::span<const double> values);
  /// Unknowns of the analysed pattern (0 before the first analyze_pattern).
  Index size() const { return static_cast<Index>(work_.size()); }
  /// work_[k] = from[order[k]]: a right side in B's order (order: P for A x = b, Q for A^T x = b).
  void gather_into_work(std::span<const double> from, const std::vector<Index>& order);
  /// to[order[k]] = work_[k]: a solution back in A's order (Q for A x = b, P for A^T x = b).
  void scatter_work(std::span<double> to, const std::vector<Index>& order) const;

  klu_common common_{};
  FillOrdering ordering_option_;
  const CscPattern* pattern_ = nullptr;  ///< the analysed pattern (LinearSolver: alive until the next analysis)
  std::vector<Candidate> candidates_;
  std::vector<FillOrdering> analysed_;  ///< the orderings add_candidate has run for since analyze_pattern
  std::size_t chosen_ = 0;  ///< candidates_[chosen_] is in use when ordering_chosen_
  bool ordering_chosen_ = false;
  Factors factors_;
  std::vector<double> work_;  ///< right-hand side and solution in B's order
  OrderingRecord ordering_;
  FactorizationProfile profile_;
  bool factorized_ = false;
  int refactorizations_ = 0;
};

}  // namespace noether

#pragma once
/// Each process's interior factored by KLU where it lies, the interface between the processes by
/// its Schur complement: the linear solver of systems assembled over several processes whose
/// parts share few unknowns (chains and trees cut into runs of bodies).
///
/// With I_r the unknowns that process r's terms alone touch (unknown_owners[i] = r) and G the
/// others (kSharedUnknown: divide_unknowns, engine/partition.hpp), the matrix A = sum_r A^r of
/// the processes' parts is, in blocks,
///   A(I_r, I_r) = A^r(I_r, I_r),  A(I_r, G) = A^r(I_r, G),  A(G, I_r) = A^r(G, I_r),
///   A(I_r, I_s) = 0 for r != s,   A(G, G) = sum_r A^r(G, G),
/// because a row or column of I_r is written by process r alone. Each process factors its
/// A_rr = A(I_r, I_r) with KLU and adds its share of the interface's Schur complement
///   S = A(G, G) - sum_r A(G, I_r) A_rr^{-1} A(I_r, G)            (|G| x |G|, dense),
/// computed with one KLU solve per column of G its A(I_r, G) touches; the shares are summed over
/// the processes (Distribution::sum, so that each holds the same bits) and every process factors S
/// alike (partial-pivoting LU). A solve of A x = b, with the same b on every process:
///   y_r = A_rr^{-1} b(I_r),  x(G) = S^{-1} (b(G) - sum_r A(G, I_r) y_r),
///   x(I_r) = A_rr^{-1} (b(I_r) - A(I_r, G) x(G)),
/// and x is summed from the processes' pieces (each entry has one nonzero contribution, so the
/// sum is exact); the transposed solve is the same with every block transposed.
///
/// Over parts (global_numbers given: docs/distributed.md, "The partitioned model"), each process
/// holds only its part's unknowns, numbered locally, and names each by its global number: G is
/// then the interface unknowns of every process, ordered by global number (agreed once by an
/// all-gather), b holds at each interface row the total the whole system has there (every holder
/// alike), and x comes back with every unknown this process holds, the interface's from the same
/// S solve on every process: no whole vector is formed or summed.
///
/// Cost per process: its part's KLU factorization, one KLU solve per interface column it touches,
/// and S's LU (2 |G|^3 / 3 flops, on every process); communication: |G|^2 doubles per
/// factorization, |G| + n per solve. It pays where the interface is small against the parts:
/// make_linear_solver's automatic choice takes it for such systems alone.
///
/// Preconditions: each A_rr nonsingular (a process's interior, held by its interface, is a
/// mechanism of its own: divide_unknowns puts the rows of a constraint with a shared coordinate into
/// the interface for this); a failure here is a failed status naming the process, agreed by
/// all. Threads: one caller at a time. In one process (processes nullptr or of one rank), I_0 is
/// every unknown some term touches and the solver is KLU on it.
#include <memory>
#include <span>
#include <vector>

#include <Eigen/Dense>

#include <noether/engine/distribution.hpp>
#include <noether/solvers/linear/klu_solver.hpp>

namespace noether {

class SchurSolver final : public LinearSolver {
 public:
  /// unknown_owners: divide_unknowns' (copied); processes must outlive this (nullptr: one process,
  /// and then unknown_owners may be empty: every unknown is this process's). ordering: of the KLU
  /// factorizations of the parts. global_numbers (copied): empty when every process holds whole
  /// vectors (the replicated model); over parts, each local unknown's number in the whole system,
  /// distinct, and the same on every process that holds it (unknown_owners then names this process
  /// or kSharedUnknown only).
  SchurSolver(const Distribution* processes, std::span<const int> unknown_owners,
              FillOrdering ordering = FillOrdering::automatic, std::span<const Index> global_numbers = {});

  LinearSolverKind kind() const override { return LinearSolverKind::schur; }
  bool needs_symmetric_positive_definite() const override { return false; }
  /// Throws LinearSolverError when unknown_owners does not hold pattern.n entries.
  void analyze_pattern(const CscPattern& pattern) override;
  /// Collective. values: this process's part (pattern order; the others' entries 0 or not read).
  FactorizationStatus factorize(std::span<const double> values) override;
  /// Collective; b the same on every process, as is x on return (over parts: each its part's rows).
  void solve(std::span<const double> b, std::span<double> x) override { solve_system(false, b, x); }
  void solve_transposed(std::span<const double> b, std::span<double> x) override { solve_system(true, b, x); }
  void forget_factorization() override {
    interior_.forget_factorization();
    factorized_ = false;
    profile_ = {};
  }
  /// The parts' ordering (this process's), and the sums over the processes of their factors'
  /// entries and flops with S's, of the first factorization since analyze_pattern or
  /// forget_factorization (as KLU's: the ordering is chosen there).
  FactorizationProfile factorization_profile() const override { return profile_; }

  /// |G|, the interface's unknowns (after analyze_pattern).
  Index interface_size() const { return interface_size_; }

 private:
  /// An entry of the matrix in one of the coupling blocks: its slot in the pattern's values, its
  /// row and column within the block (local interior index or interface index).
  struct BlockEntry {
    Index slot, row, col;
  };
  int rank() const { return processes_ ? processes_->rank() : 0; }
  int ranks() const { return processes_ ? processes_->ranks() : 1; }
  void sum(std::span<double> values) const {
    if (processes_ && processes_->ranks() > 1) processes_->sum(values);
  }
  bool whole_vectors() const { return global_numbers_.empty(); }
  /// Splits the pattern's entries into the interior pattern and the coupling blocks.
  void split_pattern(const CscPattern& pattern);
  /// G's order over the processes, and each held interface unknown's place in it (collective).
  void number_interface();
  /// This process's share of S: A^r(G, G) - A(G, I_r) A_rr^{-1} A(I_r, G), into schur_.
  void add_schur_share(std::span<const double> values);
  /// A failed status when any process's interior failed to factor (agreed by all: collective).
  FactorizationStatus agreed_status(const FactorizationStatus& mine);
  void solve_system(bool transposed, std::span<const double> b, std::span<double> x);
  void update_profile();

  const Distribution* processes_;
  std::vector<int> owners_;
  std::vector<Index> global_numbers_;  ///< over parts; empty for whole vectors
  KluSolver interior_;
  Index n_ = 0;
  std::vector<Index> interior_unknowns_;  ///< I_r, ascending
  std::vector<Index> interface_;          ///< G's unknowns held here, ascending
  std::vector<Index> interface_places_;   ///< each one's place in G
  std::vector<std::size_t> adds_right_side_;  ///< those whose b entry this process adds (their lowest holder)
  Index interface_size_ = 0;              ///< |G|, over all processes
  std::vector<double> interface_side_;    ///< a solve's interface right side and b(G), 2 |G|
  CscPattern interior_pattern_;           ///< A_rr's
  std::vector<Index> interior_slots_;     ///< A_rr's entry k is the pattern's values[interior_slots_[k]]
  std::vector<BlockEntry> to_interface_;  ///< A(I_r, G): row interior, col interface
  std::vector<BlockEntry> from_interface_;  ///< A(G, I_r): row interface, col interior
  std::vector<BlockEntry> interface_block_;  ///< A^r(G, G)
  std::vector<double> to_values_, from_values_;  ///< the last factorize's values of to_interface_, from_interface_
  std::vector<Index> touched_columns_;    ///< the interface columns A(I_r, G) touches, ascending
  std::vector<double> interior_values_;  ///< A_rr's values
  /// Two right sides of the interior's size: two of the Schur share's columns, solved side by side
  /// (KluSolver::solve_in_place), or a solve's right side and solution (rhs_, solution_).
  std::vector<double> columns_;
  std::span<double> rhs_, solution_;
  Eigen::MatrixXd schur_;
  Eigen::PartialPivLU<Eigen::MatrixXd> schur_lu_;
  FactorizationProfile profile_;
  bool factorized_ = false;
};

}  // namespace noether

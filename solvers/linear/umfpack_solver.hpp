#pragma once
/// UMFPACK (unsymmetric multifrontal LU): the default backend for Newton matrices.
#include <vector>

#include <noether/solvers/linear/linear_solver.hpp>

namespace noether {

/// UMFPACK's ordering strategy (Control[UMFPACK_STRATEGY]): automatic chooses from the pattern;
/// symmetric orders A + A^T with AMD and prefers diagonal pivots; unsymmetric orders A^T A with COLAMD.
enum class UmfpackStrategy { automatic, symmetric, unsymmetric };

class UmfpackSolver final : public LinearSolver {
 public:
  explicit UmfpackSolver(UmfpackStrategy strategy = UmfpackStrategy::automatic);
  ~UmfpackSolver() override;
  UmfpackSolver(const UmfpackSolver&) = delete;
  UmfpackSolver& operator=(const UmfpackSolver&) = delete;

  LinearSolverKind kind() const override { return LinearSolverKind::umfpack; }
  bool needs_symmetric_positive_definite() const override { return false; }
  void analyze_pattern(const CscPattern& pattern) override;
  FactorizationStatus factorize(std::span<const double> values) override;
  void solve(std::span<const double> b, std::span<double> x) override;
  void solve_transposed(std::span<const double> b, std::span<double> x) override;

 private:
  void free_numeric();
  void free_symbolic();
  /// x = A^{-1} b (system UMFPACK_A) or A^{-T} b (UMFPACK_At) with the last factorization.
  void solve_system(int system, std::span<const double> b, std::span<double> x);

  const CscPattern* pattern_ = nullptr;
  std::vector<double> values_;  ///< the factorized values (UMFPACK's solve reads the matrix again)
  std::vector<double> control_;
  void* symbolic_ = nullptr;
  void* numeric_ = nullptr;
};

}  // namespace noether

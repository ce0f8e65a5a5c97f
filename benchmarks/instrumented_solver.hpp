#pragma once
/// A LinearSolver that forwards to another and records what the benchmarks report.
#include <cstdint>
#include <memory>
#include <vector>

#include <noether/solvers/linear/linear_solver.hpp>

namespace noether::bench {

/// What an InstrumentedSolver saw. Must outlive the solver (the Newton solver of a stepper owns it).
struct SolverRecord {
  Index n = 0;    ///< unknowns of the analysed pattern
  Index nnz = 0;  ///< stored entries of the analysed pattern
  int analyses = 0;
  double analysis_seconds = 0.0;               ///< sum over analyze_pattern calls
  std::vector<double> factorization_seconds;   ///< one entry per factorize call
  /// When true, every factorized value array is hashed into values_hash (FNV-1a over its bytes);
  /// off for timing runs, as the hash costs a pass over the values.
  bool hash_values = false;
  std::uint64_t values_hash = 14695981039346656037ull;
  const LinearSolver* inner = nullptr;  ///< the wrapped backend (to read backend statistics)
};

class InstrumentedSolver final : public LinearSolver {
 public:
  InstrumentedSolver(std::unique_ptr<LinearSolver> inner, SolverRecord& record);

  LinearSolverKind kind() const override { return inner_->kind(); }
  bool needs_symmetric_positive_definite() const override { return inner_->needs_symmetric_positive_definite(); }
  void analyze_pattern(const CscPattern& pattern) override;
  FactorizationStatus factorize(std::span<const double> values) override;
  void solve(std::span<const double> b, std::span<double> x) override { inner_->solve(b, x); }
  void solve_transposed(std::span<const double> b, std::span<double> x) override {
    inner_->solve_transposed(b, x);
  }
  void forget_factorization() override { inner_->forget_factorization(); }
  FactorizationProfile factorization_profile() const override { return inner_->factorization_profile(); }

 private:
  std::unique_ptr<LinearSolver> inner_;
  SolverRecord& record_;
};

/// FNV-1a of the bytes of `values`, continuing from `hash`.
std::uint64_t hash_bytes(std::span<const double> values, std::uint64_t hash);

}  // namespace noether::bench

/// NewtonSolver::solve_off_near_null_space (solvers/newton.hpp): Newton whose updates leave out
/// the tangent's near-null directions where the residual along them is within the tolerance.
#include <array>
#include <cmath>
#include <span>
#include <string>

#include <doctest/doctest.h>

#include <noether/solvers/newton.hpp>
#include "support/noisy_line.hpp"

using namespace noether;
using testing::NoisyLine;

namespace {

/// R(x) = T x - b for T = [1 1; 1 1 + s]: nearly singular for small s (singular values about 2
/// and s/2, the small one along (1, -1)/sqrt 2 on both sides); scale_i = sum_j |T_ij x_j| + |b_i|.
class NearlySingularPair final : public NewtonSystem {
 public:
  NearlySingularPair(double s, Eigen::Vector2d b) : s_(s), b_(b) {
    pattern_.n = 2;
    pattern_.column_starts = {0, 2, 4};
    pattern_.row_indices = {0, 1, 0, 1};
    values_ = {1.0, 1.0, 1.0, 1.0 + s};
  }
  const CscPattern& pattern() const override { return pattern_; }
  void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor, bool) override {
    floor.setZero();
    residual(0) = x(0) + x(1) - b_(0);
    residual(1) = x(0) + (1.0 + s_) * x(1) - b_(1);
    scale(0) = std::abs(x(0)) + std::abs(x(1)) + std::abs(b_(0));
    scale(1) = std::abs(x(0)) + std::abs((1.0 + s_) * x(1)) + std::abs(b_(1));
  }
  std::span<const double> matrix() const override { return values_; }
  std::string describe_row(Index row) const override { return row == 0 ? "first" : "second"; }

 private:
  double s_;
  Eigen::Vector2d b_;
  CscPattern pattern_;
  std::array<double, 4> values_{};
};

}  // namespace

TEST_CASE("Newton off the near null space keeps x0's component where the equations fix it only within the tolerance") {
  // s = 1e-14: x + y = 2, x + (1 + s) y = 2 + s + delta has the root (1, 1) moved by delta / s along
  // (-1, 1). With delta = 0 the second row at x0 = (1.5, 0.5) is off by 5e-15 (scaled 1.3e-15,
  // within the tolerance 1e-13): full Newton still moves x to (1, 1), 0.5 along the near null
  // direction (to 0.03: the rounding of 1 + s and 2 + s, amplified by 1/s); off it, x stays at x0.
  const double s = 1e-14;
  NearlySingularPair system(s, Eigen::Vector2d(2.0, 2.0 + s));
  NewtonOptions options;
  options.accept_initial_iterate = false;  // so that full Newton updates the start within the tolerance
  NewtonSolver solver(system.pattern(), LinearSolverKind::klu, options);
  Vector x(2);
  x << 1.5, 0.5;
  const NewtonReport full = solver.solve(system, x, "full");
  CHECK(std::abs(x(0) - 1.0) <= 0.1);
  CHECK(full.near_null_directions == 0);
  x << 1.5, 0.5;
  const NewtonReport off = solver.solve_off_near_null_space(system, x, "off");
  CHECK(off.near_null_directions == 1);
  CHECK(x(0) == doctest::Approx(1.5).epsilon(1e-12));
  CHECK(x(1) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(off.stalled_residual == 0.0);
  CHECK(off.history.back().scaled_residual <= 1e-13);
}

TEST_CASE("Newton off the near null space solves a component along it that lies above the tolerance") {
  // The second row off by 1e-12 at x0 (scaled 2.5e-13, above the tolerance): the update solves it,
  // moving x along (-1, 1) by delta / s to the root (1 - 100, 1 + 100) (to 1%: the rounding of
  // 1 + s and of b, amplified by 1/s).
  const double s = 1e-14;
  NearlySingularPair system(s, Eigen::Vector2d(2.0, 2.0 + s + 1e-12));
  NewtonSolver solver(system.pattern(), LinearSolverKind::klu, {});
  Vector x(2);
  x << 1.5, 0.5;
  const NewtonReport off = solver.solve_off_near_null_space(system, x, "off");
  CHECK(off.near_null_directions == 1);
  CHECK(x(0) + x(1) == doctest::Approx(2.0));
  CHECK(x(1) - x(0) == doctest::Approx(200.0).epsilon(1e-2));
}

TEST_CASE("Newton off the near null space fails as Newton does where it cannot converge, saying so") {
  NoisyLine noisy(1e-10, 1.0);  // r between 1e-10 and 3e-10 whatever x
  NewtonSolver solver(noisy.pattern(), LinearSolverKind::klu, {});
  Vector x = Vector::Zero(1);
  CHECK_THROWS_WITH_AS(solver.solve_off_near_null_space(noisy, x, "noisy"),
                       doctest::Contains("no convergence in 30 iterations off the near null space"), NewtonError);
}

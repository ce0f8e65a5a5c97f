#pragma once
/// A one-unknown Newton system with a residual noise of a chosen amplitude, for the tests of
/// Newton's stopping rules (stalls, iteration limits).
#include <cmath>
#include <limits>
#include <span>
#include <string>

#include <noether/solvers/newton.hpp>

namespace noether::testing {

/// R(x) = x - 1 + eta_k (one unknown, scale 1, tangent 1/rate): eta_k stands for the rounding
/// noise of the k-th evaluation (k = 0, 1, ...), amplitude (-1)^k (1 + sin(k)/2), so r stays
/// between amplitude and 3 amplitude once the iterates are near the root. rate < 1 makes each
/// update only that fraction of a Newton step: with amplitude 0, r falls linearly, by the factor
/// 1 - rate per update.
class NoisyLine final : public NewtonSystem {
 public:
  NoisyLine(double amplitude, double rate) : amplitude_(amplitude), tangent_(1.0 / rate) {
    pattern_.n = 1;
    pattern_.column_starts = {0, 1};
    pattern_.row_indices = {0};
  }
  const CscPattern& pattern() const override { return pattern_; }
  void evaluate(ConstVectorRef x, VectorRef residual, VectorRef scale, VectorRef floor, bool) override {
    const int k = evaluations++;
    const double amplitude = k >= louder_from ? louder : amplitude_;
    residual(0) = x(0) - 1.0 + amplitude * (k % 2 == 0 ? 1.0 : -1.0) * (1.0 + 0.5 * std::sin(k));
    scale(0) = 1.0;
    floor(0) = 0.0;
    last_x = x(0);
  }
  std::span<const double> matrix() const override { return {&tangent_, 1}; }
  std::string describe_row(Index) const override { return "line"; }
  bool reads_last_evaluation() const override { return reads_last; }

  bool reads_last = false;
  /// From evaluation louder_from on, the noise has the amplitude `louder` (never, by default).
  int louder_from = std::numeric_limits<int>::max();
  double louder = 0.0;
  int evaluations = 0;
  double last_x = 0.0;

 private:
  CscPattern pattern_;
  double amplitude_;
  double tangent_;
};

}  // namespace noether::testing

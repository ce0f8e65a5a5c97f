#pragma once
/// Newton's convergence over a run, measured from the iterates a stepper reports: the check that a
/// scheme's tangent is exact (tests of a stepper's kernels).
#include <algorithm>
#include <vector>

#include <noether/engine/state.hpp>
#include <noether/steppers/stepper.hpp>

namespace noether::testing {

/// The largest quadratic constant C = r_{k+1} / r_k^2 over Newton's full steps (a fresh tangent,
/// not NewtonIterate::chord) from r_k <= 1e-3 to above rounding (r_{k+1} > 1e-14), over `steps`
/// steps of size h. An exact tangent keeps C near the problem's curvature; a wrong entry makes the
/// contraction linear, r_{k+1} = c r_k, so C = c / r_k >= 1e3 c.
struct QuadraticConvergence {
  double worst = 0.0;      ///< the largest C
  int full_steps = 0;      ///< the Newton steps C was measured on
  int max_iterations = 0;  ///< the most iterations of one step
};

inline QuadraticConvergence measure_quadratic_convergence(Stepper& stepper, State& state, double h, int steps) {
  QuadraticConvergence out;
  for (int n = 0; n < steps; ++n) {
    const StepReport report = stepper.step(state, h);
    const std::vector<NewtonIterate>& history = report.history;
    for (std::size_t k = 0; k + 1 < history.size(); ++k) {
      const double r0 = history[k].scaled_residual, r1 = history[k + 1].scaled_residual;
      if (history[k + 1].chord || r0 > 1e-3 || r1 <= 1e-14) continue;
      out.worst = std::max(out.worst, r1 / (r0 * r0));
      ++out.full_steps;
    }
    out.max_iterations = std::max(out.max_iterations, report.iterations);
  }
  return out;
}

}  // namespace noether::testing

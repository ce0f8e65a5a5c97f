#pragma once
/// Actuators: forces given for each step from both of its ends (a motor's torque, a controller).
#include <noether/engine/element.hpp>

namespace noether {

/// The span of one step: from t0 to t0 + h (h < 0 for a step back, or a composition's substep).
struct StepSpan {
  double t0 = 0.0, h = 0.0;
  /// t0 + h/2, where an actuator reads its time functions.
  double midpoint() const { return t0 + 0.5 * h; }
};

/// A generalized force F(step, q0, q1) on n = local_size() coordinates, stated for each step from
/// its start q0 to its end q1 rather than at a point: its work over the step is W = F.(q1 - q0),
/// and the schemes that take actuators put exactly that into their energy balance. It is the
/// element kind for forces that depend on the motion over the step (a controller's rate (x1 - x0)/h)
/// and for forces written with discrete gradients (tau Dbar x, with Dbar x.(q1 - q0) = x(q1) - x(q0),
/// so that W = tau (x(q1) - x(q0)) exactly): not an ExternalLoad f(t, q), which every scheme
/// evaluates at points of its own choosing, nor a Dissipation F = -C(q) v. Schemes whose equations
/// have no such step force refuse actuators (docs/steppers.md, "Actuators").
class Actuator : public Element {
 public:
  using Element::Element;

  /// f += s * F(step, q0, q1)   (n).
  void add_step_force(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1, double s, VectorRef f) const {
    do_add_step_force(step, q0, q1, s, f);
  }
  /// K += s * dF/dq1 (step, q0, q1)   (n x n).
  void add_step_force_jacobian(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1, double s,
                               MatrixRef K) const {
    do_add_step_force_jacobian(step, q0, q1, s, K);
  }

 protected:
  virtual void do_add_step_force(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1, double s,
                                 VectorRef f) const = 0;
  virtual void do_add_step_force_jacobian(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1, double s,
                                          MatrixRef K) const = 0;
};

}  // namespace noether

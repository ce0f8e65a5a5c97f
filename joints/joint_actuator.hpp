#pragma once
/// Actuators of joints: a motor torque about a hinge, a force along a slide, given as a time
/// profile, a PD controller of the joint's coordinate, or a user's function.
#include <functional>
#include <memory>
#include <string>

#include <noether/engine/actuator.hpp>
#include <noether/joints/joint_coordinate.hpp>
#include <noether/joints/time_profile.hpp>

namespace noether {

/// An actuator law's output u (a torque about a hinge, a force along a slide) with its partial
/// derivatives in the joint coordinate x and its rate x_dot.
struct ActuatorJet {
  double value = 0.0, d_position = 0.0, d_rate = 0.0;
};

/// u(t, x, x_dot) with its partial derivatives (a user's controller). Each call must return finite
/// numbers; a non-finite one stops the step, which names the actuator.
using ActuatorLaw = std::function<ActuatorJet(double t, double x, double rate)>;

/// u = f(t): the profile's value (a motor torque or force prescribed in time). Throws
/// std::invalid_argument, starting with `owner`, for a profile check_time_profile refuses.
ActuatorLaw profile_law(TimeProfile profile, const std::string& owner);

/// PD control of the coordinate `along` towards the reference r(t):
///   u = -kp e - kd (x_dot - r'(t)),   e = coordinate_difference(x, r(t), along.period())
/// (r' from evaluate_rate, joints/time_profile.hpp). For a slide e = x - r. For a hinge angle e is
/// x - r taken into (-pi, pi]: the angle is measured in (-pi, pi] while r(t) may run over many turns
/// (a crank turning at theta0 + omega t), so x - r is the tracking error plus a multiple of 2 pi,
/// and the error alone is what the motor should act on (unwrapped, the motor would turn the crank
/// back by a full turn each time it passed +-pi). The wrap shifts e by a constant: du/dx = -kp. The
/// rate term needs none (the step's rate is its increment over h). It leaves the energy balance
/// exact: the motor's work over a step is u times the step's increment x1 - x0 (JointActuator), not
/// a difference of wrapped values. Only `along`'s period is kept. Throws std::invalid_argument,
/// starting with `owner`, for a gain that is negative or not finite, or a reference
/// check_time_profile refuses.
ActuatorLaw pd_law(const JointCoordinate& along, double kp, double kd, TimeProfile reference, const std::string& owner);

/// u(t, x, x_dot) given without its derivatives: they are taken by central differences, with steps
/// cbrt(eps) max(1, |x|) and cbrt(eps) max(1, |x_dot|) (error O(step^2) ~ 1e-10 relative for a smooth u).
/// They enter Newton's tangent only, not the step equations, so an error there slows Newton, and
/// never changes the solution or its energy balance. Throws std::invalid_argument, starting with
/// `owner`, for an empty function.
ActuatorLaw finite_difference_law(std::function<double(double t, double x, double rate)> u,
                                  const std::string& owner);

/// An actuator along a joint coordinate x (a HingeCoordinate: a torque about the hinge; a
/// SlideCoordinate: a force along the slide). Over a step from (t0, q0) to (t0 + h, q1):
///   F = u Dbar x(q0, q1),   u = law(t0 + h/2, x0 + dx/2, dx/h),   dx = x(q1) - x(q0),
/// so that its work is F.(q1 - q0) = u dx exactly (the discrete gradient, joints/joint_coordinate.hpp).
/// The law reads the step's midpoint time, the mean of the coordinate's ends and the step's
/// discrete rate: with these, a PD law's position term is the discrete gradient of the spring energy
/// 1/2 kp e^2 (e its error, pd_law) for a frozen reference (its work -(energy(x1) - energy(x0))), its
/// rate term does the work -kd dx^2/h <= 0 for a fixed reference (h > 0), and both are second-order
/// accurate, as the midpoint schemes that take actuators. Derivative: dF/dq1 = Dbar x (u_x/2 + u_rate/h) D x(q1)^T +
/// u d Dbar x/dq1.
/// For a hinge x0 is the angle at q0 in (-pi, pi], so the x the law reads (within (-3 pi/2, 3 pi/2])
/// jumps by 2 pi between steps when the hinge passes +-pi: a law of a hinge that turns fully must
/// depend on x modulo 2 pi, as pd_law does; a law of x itself needs the hinge to stay within (-pi, pi).
class JointActuator final : public Actuator {
 public:
  /// Throws std::invalid_argument for a null coordinate or an empty law.
  JointActuator(std::string name, std::shared_ptr<const JointCoordinate> coordinate, ActuatorLaw law);

  Index local_size() const override { return coordinate_->local_size(); }
  std::string singularity(ConstVectorRef q) const override { return coordinate_->singularity(q); }
  const JointCoordinate& coordinate() const { return *coordinate_; }

  /// u over the step from (step.t0, q0) to (step.t0 + step.h, q1): the torque or force it applies.
  double step_value(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1) const;
  /// u at a state: law(t, x(q), D x(q).v), the value a step through it tends to as h -> 0 (for output).
  double value_at(double t, ConstVectorRef q, ConstVectorRef v) const {
    return law_(t, coordinate_->value(q), coordinate_->gradient(q).dot(v)).value;
  }

 protected:
  void do_add_step_force(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1, double s,
                         VectorRef f) const override;
  void do_add_step_force_jacobian(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1, double s,
                                  MatrixRef K) const override;

 private:
  /// The law at the step's midpoint, and dx.
  struct StepLaw {
    ActuatorJet u;
    double increment;
  };
  StepLaw law_at(const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1) const;

  std::shared_ptr<const JointCoordinate> coordinate_;
  ActuatorLaw law_;
};

}  // namespace noether

#pragma once
/// The force terms of the schemes that evaluate forces at the midpoint of the step (livens-em,
/// em-ggl): with q_mid = (q0 + q1)/2, dq = q1 - q0 and t_mid = t0 + h/2,
///
///   dissipation:  R += C(q_mid) dq,         d/dq1: C(q_mid) + 1/2 d(C(q) dq)/dq at q_mid
///   load:         R -= h f(t_mid, q_mid),   d/dq1: -h/2 df/dq at q_mid
///   actuator:     R -= h F(step, q0, q1),   d/dq1: -h dF/dq1   (engine/actuator.hpp)
///
/// so that the work of the dampers over the step is W = -dq.C(q_mid) dq / h and that of a load
/// W = f(t_mid, q_mid).dq, that of an actuator W = F.dq: what the energy balance of these schemes counts, and what their work
/// kernels (midpoint_work) report, from the same point (midpoint_point). Each writes the residual
/// rows of `row` and the block (row, col), col being the field whose unknown is q1 (or dq).
#include <noether/engine/scheme_assembly.hpp>
#include <noether/steppers/scheme_stepper.hpp>

namespace noether {

/// sum over the linear potentials of their constant gradient l (d): Dbar V of a linear potential
/// is l whatever q0 and q1, so these schemes put h l into their step rows (Scheme::add_step_rows)
/// and leave the linear potentials out of the Newton system.
inline Vector linear_potential_gradient(const System& system) {
  Vector gradient = Vector::Zero(system.num_coordinates());
  for (const Placed<Potential>& e : system.potentials())
    if (e.element->nonlinearity() == Nonlinearity::linear)
      for (const Nonzero& l : e.element->quadratic_form()->linear_part().entries())
        gradient(e.dofs[static_cast<std::size_t>(l.col)]) += l.value;
  return gradient;
}

/// The workspace slots the midpoint terms may use (the scheme's own numbering).
struct MidpointSlots {
  int q0, q1, mid, dq;
};

/// Where a midpoint force term is evaluated: q_mid = (q0 + q1)/2 and dq = q1 - q0 of the term
/// (local views), t_mid = t0 + h/2, and h.
struct MidpointPoint {
  LocalVector q_mid, dq;
  double t_mid, h;
};

/// The midpoint of the term's step at the iterate `it` (a scheme's iterate with the step input
/// `in`, the end configuration `q1` (d) and the field `dq` (d)), of size h (in.h for a fixed step).
template <class Term, class Iterate>
MidpointPoint midpoint_point(const Term& t, const Iterate& it, MidpointSlots slots, double h) {
  const LocalVector q1 = t.coordinates(it.q1, slots.q1);
  return {t.midpoint(t.coordinates(it.in.state.q, slots.q0), q1, slots.mid), t.coordinates(it.dq, slots.dq),
          it.in.state.t + 0.5 * h, h};
}

/// A damper's work over the step from its impulse C(q_mid) dq at the midpoint: W = -dq.C(q_mid) dq / h.
inline double damping_work(const MidpointPoint& at, ConstVectorRef impulse) { return -at.dq.dot(impulse) / at.h; }
/// A load's work over the step from its force at the midpoint: W = f(t_mid, q_mid).dq.
inline double load_work(const MidpointPoint& at, ConstVectorRef force) { return force.dot(at.dq); }

/// The damper's work over the step (damping_work), its impulse evaluated.
inline double midpoint_damping_work(const Dissipation& damper, const MidpointPoint& at) {
  Vector impulse = Vector::Zero(at.dq.size());
  damper.add_damping_force(at.q_mid, at.dq, 1.0, impulse);
  return damping_work(at, impulse);
}

/// The load's work over the step (load_work), its force evaluated.
inline double midpoint_load_work(const ExternalLoad& load, const MidpointPoint& at) {
  Vector force = Vector::Zero(at.dq.size());
  load.add_generalized_force(at.t_mid, at.q_mid, 1.0, force);
  return load_work(at, force);
}

template <class Iterate>
void add_midpoint_damping(const DissipationTerm& t, const Iterate& it, MidpointSlots slots, int row, int col,
                          TermOutput& out) {
  const MidpointPoint at = midpoint_point(t, it, slots, it.in.h);
  t.element().add_damping_force(at.q_mid, at.dq, 1.0, out.residual(row));
  if (!out.with_matrix()) return;
  t.element().add_damping_matrix(at.q_mid, 1.0, out.block(row, col));
  t.element().add_damping_force_q_jacobian(at.q_mid, at.dq, 0.5, out.block(row, col));
}

template <class Iterate>
void add_midpoint_load(const LoadTerm& t, const Iterate& it, MidpointSlots slots, int row, int col, TermOutput& out) {
  const MidpointPoint at = midpoint_point(t, it, slots, it.in.h);
  t.element().add_generalized_force(at.t_mid, at.q_mid, -at.h, out.residual(row));
  if (out.with_matrix()) t.element().add_generalized_force_q_jacobian(at.t_mid, at.q_mid, -0.5 * at.h, out.block(row, col));
}

template <class Iterate>
void add_step_actuator(const ActuatorTerm& t, const Iterate& it, MidpointSlots slots, int row, int col,
                       TermOutput& out) {
  const LocalVector q0 = t.coordinates(it.in.state.q, slots.q0), q1 = t.coordinates(it.q1, slots.q1);
  const StepSpan step{it.in.state.t, it.in.h};
  t.element().add_step_force(step, q0, q1, -it.in.h, out.residual(row));
  if (out.with_matrix()) t.element().add_step_force_jacobian(step, q0, q1, -it.in.h, out.block(row, col));
}

/// The work kernels of the terms above (Scheme::work, SchemeAssembly::work); the schemes that are
/// not energy-consistent report the same midpoint work of their steps.
template <class Iterate>
double midpoint_work(const DissipationTerm& t, const Iterate& it, MidpointSlots slots) {
  return midpoint_damping_work(t.element(), midpoint_point(t, it, slots, it.in.h));
}
template <class Iterate>
double midpoint_work(const LoadTerm& t, const Iterate& it, MidpointSlots slots) {
  return midpoint_load_work(t.element(), midpoint_point(t, it, slots, it.in.h));
}
/// An actuator's step force F(step, q0, q1) (n), for its work kernel.
inline Vector step_force(const ActuatorTerm& t, const StepSpan& step, ConstVectorRef q0, ConstVectorRef q1) {
  Vector force = Vector::Zero(t.size());
  t.element().add_step_force(step, q0, q1, 1.0, force);
  return force;
}
/// An actuator's work over the step: W = F(step, q0, q1).dq.
template <class Iterate>
double step_actuator_work(const ActuatorTerm& t, const Iterate& it, MidpointSlots slots) {
  return step_force(t, {it.in.state.t, it.in.h}, t.coordinates(it.in.state.q, slots.q0), t.coordinates(it.q1, slots.q1))
      .dot(t.coordinates(it.dq, slots.dq));
}

}  // namespace noether

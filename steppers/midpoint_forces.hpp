#pragma once
/// The force terms of the schemes that evaluate forces at the midpoint of the step (livens-em,
/// em-ggl): with q_mid = (q0 + q1)/2, dq = q1 - q0 and t_mid = t0 + h/2,
///
///   dissipation:  R += C(q_mid) dq,         d/dq1: C(q_mid) + 1/2 d(C(q) dq)/dq at q_mid
///   load:         R -= h f(t_mid, q_mid),   d/dq1: -h/2 df/dq at q_mid
///
/// so that the work of the dampers over the step is dq.C(q_mid) dq / h and that of a load
/// f(t_mid, q_mid).dq: what the energy balance of these schemes counts. Each writes the residual
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

/// it: a scheme's iterate with the step input `in`, the end configuration `q1` (d) and the field
/// `dq` (d).
template <class Iterate>
void add_midpoint_damping(const DissipationTerm& t, const Iterate& it, MidpointSlots slots, int row, int col,
                          TermOutput& out) {
  const LocalVector q1 = t.coordinates(it.q1, slots.q1);
  const LocalVector q_mid = t.midpoint(t.coordinates(it.in.state.q, slots.q0), q1, slots.mid);
  const LocalVector dq = t.coordinates(it.dq, slots.dq);
  t.element().add_damping_force(q_mid, dq, 1.0, out.residual(row));
  if (!out.with_matrix()) return;
  t.element().add_damping_matrix(q_mid, 1.0, out.block(row, col));
  t.element().add_damping_force_q_jacobian(q_mid, dq, 0.5, out.block(row, col));
}

template <class Iterate>
void add_midpoint_load(const LoadTerm& t, const Iterate& it, MidpointSlots slots, int row, int col, TermOutput& out) {
  const LocalVector q1 = t.coordinates(it.q1, slots.q1);
  const LocalVector q_mid = t.midpoint(t.coordinates(it.in.state.q, slots.q0), q1, slots.mid);
  const double t_mid = it.in.state.t + 0.5 * it.in.h;
  t.element().add_generalized_force(t_mid, q_mid, -it.in.h, out.residual(row));
  if (out.with_matrix()) t.element().add_generalized_force_q_jacobian(t_mid, q_mid, -0.5 * it.in.h, out.block(row, col));
}

}  // namespace noether

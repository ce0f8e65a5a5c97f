#pragma once
/// The constraint rows of the variational integrators in position-momentum form (evi,
/// midpoint-vi, sem-vi): the constrained discrete Euler-Lagrange equation and the constrained
/// discrete Legendre transform of RATTLE ([HairerLubichWanner2006, Sec. VII.1.4]; evi.hpp):
///
///   R_q += G(q0)^T mu,   R_p += G(q1)^T nu,   R_mu = g(q1),   R_nu = G(q1) v1,
///
/// mu = h lambda the impulse of the step, nu the projection of p1 onto G(q1) M^-1 p1 = 0. A
/// rheonomic constraint g(q, t) holds at the nodes at their times (t0, t1): G(q0, t0)^T mu,
/// G(q1, t1)^T nu, g(q1, t1) and, on the velocity level, G(q1, t1) v1 + g_t(q1, t1). None of
/// the rows depends on h but the rounding floor of G(q1) v1 = 0 (steppers/row_scale.hpp). The
/// shapes of these schemes' force terms, which add to R_q and R_p alike, are here too.
#include <string>

#include <noether/engine/scheme_assembly.hpp>
#include <noether/steppers/row_scale.hpp>

namespace noether {

/// The scheme's fields these rows use: dq (the rows R_q, unknowns q1 = q0 + dq), v1 (rows R_p,
/// unknowns v1), mu and nu (the constraint rows and multipliers).
struct RattleFields {
  int dq, v1, mu, nu;
};
/// The workspace slots the rows may use (the scheme's own numbering).
struct RattleSlots {
  int q0, q1, v1, jacobian;
};

/// What row i of field `field` balances (the rows above, for Newton's messages).
inline std::string rattle_row_label(const System& system, RattleFields f, int field, Index i) {
  if (field == f.dq) return "discrete Euler-Lagrange equation of coordinate " + system.coordinate_label(i);
  if (field == f.v1) return "discrete Legendre transform p1 = D_2 L_d of coordinate " + system.coordinate_label(i);
  if (field == f.mu) return system.multiplier_label(i) + ", position level g(q1)";
  return system.multiplier_label(i) + ", velocity level G(q1) v1";
}

/// The blocks of these rows added to shape s, which holds the four fields. Their Jacobians are
/// constant for a linear g (the assembler then writes them once); a nonlinear g adds
/// d(G(q1)^T nu)/dq1 and d(G(q1) v1)/dq1.
inline TermShape rattle_blocks(TermShape s, const Constraint& e, RattleFields f) {
  const bool linear = e.nonlinearity() == Nonlinearity::linear;
  s.block(f.dq, f.mu, Pattern::jacobian_transpose, linear)
      .block(f.mu, f.dq, Pattern::jacobian, linear)
      .block(f.v1, f.nu, Pattern::jacobian_transpose, linear)
      .block(f.nu, f.v1, Pattern::jacobian, linear);
  return linear ? s : s.block(f.v1, f.dq, Pattern::hessian).block(f.nu, f.dq, Pattern::jacobian);
}
/// The term's fields (the four) and blocks for these rows.
inline TermShape rattle_shape(const Constraint& e, RattleFields f) {
  return rattle_blocks(TermShape{f.dq, f.v1, f.mu, f.nu}, e, f);
}

/// The fields and blocks of a force term of these schemes: it adds to R_q and R_p, evaluated at
/// configurations between q0 and q1 = q0 + dq, so both rows depend on dq; a linear potential's
/// gradient is constant (no block).
inline TermShape rattle_shape(const Potential& e, RattleFields f) {
  if (e.nonlinearity() == Nonlinearity::linear) return TermShape{f.dq, f.v1};
  return TermShape{f.dq, f.v1}.block(f.dq, f.dq).block(f.v1, f.dq);
}
inline TermShape rattle_shape(const Dissipation&, RattleFields f) {
  return TermShape{f.dq, f.v1}.block(f.dq, f.dq).block(f.v1, f.dq);
}
inline TermShape rattle_shape(const ExternalLoad&, RattleFields f) {
  return TermShape{f.dq, f.v1}.block(f.dq, f.dq).block(f.v1, f.dq);
}
inline TermShape rattle_shape(const Actuator&, RattleFields f) {
  return TermShape{f.dq, f.v1}.block(f.dq, f.dq).block(f.v1, f.dq);
}

/// The rows and their blocks of constraint term t: q0, q1, v1 (d each) and mu, nu (m each) are
/// the global vectors; h the step, t0 and t1 its times (read by rheonomic constraints only). Exact form: from it, scales and floors of row_scale.hpp; a
/// nonlinear g adds d(G(q1)^T nu)/dq1 and d(G(q1) v1)/dq1. General constraint: G from the element,
/// D^2 g_k one row at a time; scales |G(q1)| |q1| and |G(q1)| |v1|, floors eps |G(q1)| ell and
/// eps |G(q1)| ell/|h|; a rheonomic one (no exact form) adds g_t(q1, t1) and its q-derivative to
/// the velocity rows.
template <class Q0, class Q1, class V1, class Multipliers>
void add_rattle_constraint(const ConstraintTerm& t, const Q0& q0_global, const Q1& q1_global, const V1& v1_global,
                           const Multipliers& mu_global, const Multipliers& nu_global, double h, double t0, double t1,
                           RattleFields f, RattleSlots slots, TermOutput& out) {
  const LocalVector q0 = t.coordinates(q0_global, slots.q0), q1 = t.coordinates(q1_global, slots.q1);
  const LocalVector v1 = t.coordinates(v1_global, slots.v1);
  const LocalVector mu = t.multipliers(mu_global), nu = t.multipliers(nu_global);
  if (const QuadraticFormView* g = t.form()) {
    g->add_jacobian_transpose_product(q0, mu, 1.0, out.residual(f.dq));
    g->add_jacobian_transpose_product(q1, nu, 1.0, out.residual(f.v1));
    g->calc_value(q1, out.residual(f.mu));
    g->add_jacobian_product(q1, v1, 1.0, out.residual(f.nu));
    add_position_constraint_scale(*g, q1, out.scale(f.mu), out.floor(f.mu));
    add_velocity_constraint_scale(*g, q1, v1, q1, h, out.scale(f.nu), out.floor(f.nu));
    if (!out.with_matrix()) return;
    g->add_jacobian(q0, 1.0, out.block(f.dq, f.mu).transpose());
    g->add_jacobian(q1, 1.0, out.block(f.mu, f.dq));
    g->add_jacobian(q1, 1.0, out.block(f.v1, f.nu).transpose());
    g->add_jacobian(q1, 1.0, out.block(f.nu, f.v1));
    if (g->is_linear()) return;
    g->add_hessian_contraction(nu, 1.0, out.block(f.v1, f.dq));
    g->add_hessians_times(v1, 1.0, out.block(f.nu, f.dq).transpose());
    return;
  }
  const Constraint& c = t.element();
  Eigen::Map<Matrix> G = t.workspace().matrix(slots.jacobian, t.equations(), t.size());
  c.calc_jacobian_at(t0, q0, G);
  out.residual(f.dq).noalias() += G.transpose() * mu;
  if (out.with_matrix()) out.block(f.dq, f.mu) = G.transpose();
  c.calc_jacobian_at(t1, q1, G);
  c.calc_value_at(t1, q1, out.residual(f.mu));
  out.residual(f.v1).noalias() += G.transpose() * nu;
  out.residual(f.nu).noalias() = G * v1;
  Vector rate;
  if (c.rheonomic()) {
    rate.resize(t.equations());
    c.calc_rate(t1, q1, rate);
    out.residual(f.nu) += rate;
  }
  const double ell = coordinate_size(q1);
  out.scale(f.mu).noalias() = G.cwiseAbs() * q1.cwiseAbs();
  out.scale(f.nu).noalias() = G.cwiseAbs() * v1.cwiseAbs();
  if (c.rheonomic()) out.scale(f.nu) += rate.cwiseAbs();
  out.floor(f.mu) = G.cwiseAbs().rowwise().sum() * (kRoundingError * ell);
  out.floor(f.nu) = G.cwiseAbs().rowwise().sum() * (kRoundingError * ell / std::abs(h));
  if (!out.with_matrix()) return;
  out.block(f.mu, f.dq) = G;
  out.block(f.v1, f.nu) = G.transpose();
  out.block(f.nu, f.v1) = G;
  c.add_hessian_contraction_at(t1, q1, nu, 1.0, out.block(f.v1, f.dq));
  if (c.rheonomic()) {  // d g_t(q1, t1)/dq1
    Matrix G_t(t.equations(), t.size());
    c.calc_rate_jacobian(t1, q1, G_t);
    out.block(f.nu, f.dq) += G_t;
  }
  Matrix hessian(t.size(), t.size());
  Vector unit = Vector::Zero(t.equations());
  for (Index k = 0; k < t.equations(); ++k) {  // row k of d(G v1)/dq1 = (D^2 g_k v1)^T
    hessian.setZero();
    unit.setZero();
    unit(k) = 1.0;
    c.add_hessian_contraction_at(t1, q1, unit, 1.0, hessian);
    out.block(f.nu, f.dq).row(k) += (hessian * v1).transpose();
  }
}

/// The work of a rheonomic constraint's impulses over the step, mu.g_t(q0, t0) + nu.g_t(q1, t1): each
/// impulse -G^T (mu or nu) at its node times the node's velocity, with G v = -g_t there (the
/// trapezoidal rule of the drive's power lambda.g_t). 0 for a scleronomic constraint.
template <class Q0, class Q1, class Multipliers>
double rattle_constraint_work(const ConstraintTerm& t, const Q0& q0_global, const Q1& q1_global,
                              const Multipliers& mu_global, const Multipliers& nu_global, double t0, double t1,
                              RattleSlots slots) {
  const Constraint& c = t.element();
  if (!c.rheonomic()) return 0.0;
  Vector rate(t.equations());
  c.calc_rate(t0, t.coordinates(q0_global, slots.q0), rate);
  double work = t.multipliers(mu_global).dot(rate);
  c.calc_rate(t1, t.coordinates(q1_global, slots.q1), rate);
  return work + t.multipliers(nu_global).dot(rate);
}

}  // namespace noether

#include <noether/steppers/ggl_vi.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include <noether/engine/exact_form.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/midpoint_forces.hpp>
#include <noether/steppers/row_scale.hpp>
#include <noether/steppers/scheme_stepper_impl.hpp>

namespace noether {

/// The equations of ggl_vi.hpp, as kernels: x = (v^n, u, q^{n+1}, mu, gamma), rows
/// (R_v, R_u, R_q, R_g, R_gv). M is constant (admission), g of degree <= 2: every constraint has
/// its exact form, H = sum_k gamma_k H_k.
struct GglScheme {
  static constexpr std::string_view name = "ggl-vi";
  static constexpr SchemeTraits traits{.order = 1, .rheonomic_constraints = true};
  enum Field { v, u, q, mu, gamma };
  static constexpr std::array fields{FieldKind::coordinates, FieldKind::coordinates, FieldKind::coordinates,
                                     FieldKind::multipliers, FieldKind::multipliers};
  enum Slot { q0_slot, q1_slot, v_slot, u_slot, bar_slot, workspace_slots };

  struct Data {};
  struct Iterate {
    const StepInput& in;
    LocalVector v, u, q1, mu, gamma;  ///< the fields of x
  };

  GglScheme(const System& system, const StepperOptions& options);

  Iterate iterate(const StepInput& in, ConstVectorRef x, Data&) const {
    const Index d = system_.num_coordinates(), m = system_.num_multipliers();
    return {in, segment_view(x, 0, d), segment_view(x, d, d), segment_view(x, 2 * d, d), segment_view(x, 3 * d, m),
            segment_view(x, 3 * d + m, m)};
  }
  /// R_v's -p^n.
  void add_step_rows(const StepInput& in, VectorRef rows) const { rows.head(system_.num_coordinates()) = -in.state.p; }
  /// v^n = v0, u = v0, q^{n+1} = q0 + h v0, mu = h lambda0, gamma = 0.
  Vector initial_guess(const StepInput& in, const StepGuess&) const {
    const State& s = in.state;
    Vector x(3 * system_.num_coordinates() + 2 * system_.num_multipliers());
    x << s.v, s.v, s.q + in.h * s.v, in.h * s.lambda, Vector::Zero(system_.num_multipliers());
    return x;
  }
  /// q = q^{n+1}, v = u = M^{-1} p^{n+1}, p = M u, lambda = mu / h.
  State next_state(const StepInput& in, ConstVectorRef x, const SchemeAssembly<GglScheme>&) const {
    const Index d = system_.num_coordinates();
    State next{in.state.step + 1, in.state.t + in.h, x.segment(2 * d, d), x.segment(d, d), Vector(d),
               x.segment(3 * d, system_.num_multipliers()) / in.h};
    calc_momentum(system_, next.q, next.v, next.p);
    return next;
  }
  /// H = 1/2 p.M^{-1} p + V(q).
  double conserved_energy(const State& state) const;
  std::string row_label(int field, Index i) const;

  TermShape shape(const Inertia&) const {  // M, M, -M, -M, M/h: constant (M/h rewritten for a new h)
    return TermShape{v, u, q}
        .block(v, v, Pattern::mass, true)
        .block(u, v, Pattern::mass, true)
        .block(u, u, Pattern::mass, true)
        .block(q, v, Pattern::mass, true)
        .block(q, q, Pattern::mass, true);
  }
  TermShape shape(const Potential&) const { return TermShape{v}; }
  TermShape shape(const Constraint& e) const {
    const bool linear = e.nonlinearity() == Nonlinearity::linear;  // then every G is L, constant
    TermShape s{v, u, q, mu, gamma};
    s.block(v, mu, Pattern::jacobian_transpose, linear)
        .block(q, gamma, Pattern::jacobian_transpose, linear)
        .block(mu, q, Pattern::jacobian, linear)
        .block(gamma, u, Pattern::jacobian, linear);
    if (linear) return s;
    s.block(u, u, Pattern::hessian)
        .block(u, gamma, Pattern::jacobian_transpose)
        .block(q, v, Pattern::hessian)
        .block(gamma, v, Pattern::jacobian);
    return e.rheonomic() ? s.block(u, v, Pattern::hessian) : s;  // h^2 D^2(gamma.g_t)(qbar)
  }
  TermShape shape(const Dissipation&) const { return TermShape{v}.block(v, v); }
  TermShape shape(const ExternalLoad&) const { return TermShape{v}; }
  TermShape shape(const Actuator&) const { return TermShape{v, q}.block(v, q); }

  void evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ActuatorTerm& t, const Iterate& it, TermOutput& out) const;
  /// An actuator's own work over the step, F.(q^{n+1} - q^n) (engine/actuator.hpp).
  double work(const ActuatorTerm& t, const Iterate& it) const {
    const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
    return step_force(t, {it.in.state.t, it.in.h}, q0, q1).dot(q1 - q0);
  }
  /// The midpoint rule's work of the forces (midpoint_forces.hpp), not the work of this scheme's
  /// forces at t^n, so the energy balance's residual is its energy error (StepReport::work).
  double work(const DissipationTerm& t, const Iterate& it) const {
    return midpoint_damping_work(t.element(), midpoint_point(t, it));
  }
  double work(const LoadTerm& t, const Iterate& it) const {
    return midpoint_load_work(t.element(), midpoint_point(t, it));
  }
  /// A rheonomic constraint's: the work of its impulse at the step's start, mu.g_t(q^n, t^n) (ggl_vi.hpp).
  double work(const ConstraintTerm& t, const Iterate& it) const;
  /// The constraint rows of a rheonomic constraint (ggl_vi.hpp), from its element.
  void evaluate_rheonomic(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;
  /// q_mid and dq = q1 - q0 of a term (workspace slots bar_slot, v_slot), t_mid = t0 + h/2.
  template <class Term>
  static MidpointPoint midpoint_point(const Term& t, const Iterate& it) {
    const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
    Eigen::Map<Vector> dq = t.workspace().vector(v_slot, t.size());
    dq = q1 - q0;
    return {t.midpoint(q0, q1, bar_slot), LocalVector(dq.data(), dq.size()), it.in.state.t + 0.5 * it.in.h, it.in.h};
  }

  const System& system_;
  std::vector<Matrix> inverse_masses_;  ///< M_e^{-1} per inertia element, in system order
};

GglScheme::GglScheme(const System& system, const StepperOptions& options) : system_(system) {
  require_unsymmetric_capable_solver(name, options.solver);
  require_quadratic_constraints(name, system);
  require_one_inertia_per_coordinate(name, system, options);
  inverse_masses_ = invert_masses(name, system);
}

double GglScheme::conserved_energy(const State& state) const {
  double kinetic = 0.0;
  Vector p;
  for (std::size_t i = 0; i < inverse_masses_.size(); ++i) {
    gather(state.p, system_.inertias()[i].dofs, p);
    kinetic += 0.5 * p.dot(inverse_masses_[i] * p);
  }
  return kinetic + potential_energy(system_, state.q);
}

std::string GglScheme::row_label(int field, Index i) const {
  switch (field) {
    case v: return "momentum balance (41b) of coordinate " + system_.coordinate_label(i);
    case u: return "discrete Legendre map (41c) of coordinate " + system_.coordinate_label(i);
    case q: return "position update (41a) of coordinate " + system_.coordinate_label(i);
    case mu: return system_.multiplier_label(i) + ", position level g(q1)";
    default: return system_.multiplier_label(i) + ", velocity level G(qbar) M^-1 p1";
  }
}

/// R_v += M v,  R_u += M (v - u),  R_q += M (q1 - q0)/h - M v; scales: the terms; floors:
/// max|M| eps ell/|h| (steppers/row_scale.hpp).
void GglScheme::evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  const SparseEntries& M = *t.mass();
  const double h = it.in.h;
  const LocalVector v_local = t.coordinates(it.v, v_slot), u_local = t.coordinates(it.u, u_slot);
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const double rounding = rounding_velocity(q1, h);
  auto R_v = out.residual(v), R_u = out.residual(u), R_q = out.residual(q);
  auto S_v = out.scale(v), S_u = out.scale(u), S_q = out.scale(q);
  double largest = 0.0;
  for (const Nonzero& e : M.entries()) {
    const double Mv = e.value * v_local(e.col), Mu = e.value * u_local(e.col);
    const double Mq1 = e.value * q1(e.col) / h, Mq0 = e.value * q0(e.col) / h;
    R_v(e.row) += Mv;
    R_u(e.row) += Mv - Mu;
    R_q(e.row) += e.value * (q1(e.col) - q0(e.col)) / h - Mv;
    S_v(e.row) += std::abs(Mv);
    S_u(e.row) += std::abs(Mv) + std::abs(Mu);
    S_q(e.row) += std::abs(Mq1) + std::abs(Mq0) + std::abs(Mv);
    largest = std::max(largest, std::abs(e.value));
  }
  for (int field : {v, u, q}) out.floor(field).setConstant(largest * rounding);
  if (!out.with_matrix()) return;
  M.add_to(1.0, out.block(v, v));
  M.add_to(1.0, out.block(u, v));
  M.add_to(-1.0, out.block(u, u));
  M.add_to(-1.0, out.block(q, v));
  M.add_to(1.0 / it.in.h, out.block(q, q));
}

/// R_v += h DV(q0)   (constant during the step).
void GglScheme::evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const {
  t.element().add_gradient(t.coordinates(it.in.state.q, q0_slot), it.in.h, out.residual(v));
}

/// R_v += G(q0)^T mu,  R_u -= h H u,  R_q -= G(qbar)^T gamma,  R_g = g(q1),  R_gv = G(qbar) u,
/// qbar = q0 + h v; scales of R_g and R_gv: steppers/row_scale.hpp.
void GglScheme::evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  if (t.element().rheonomic()) return evaluate_rheonomic(t, it, out);
  const QuadraticFormView& g = *t.form();
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector v_local = t.coordinates(it.v, v_slot), u_local = t.coordinates(it.u, u_slot);
  const LocalVector mu_local = t.multipliers(it.mu), gamma_local = t.multipliers(it.gamma);
  Eigen::Map<Vector> q_bar = t.workspace().vector(bar_slot, t.size());
  q_bar = q0 + h * v_local;
  g.add_jacobian_transpose_product(q0, mu_local, 1.0, out.residual(v));
  add_hessian_contraction_product(g, gamma_local, u_local, -h, out.residual(u));
  g.add_jacobian_transpose_product(q_bar, gamma_local, -1.0, out.residual(q));
  g.calc_value(q1, out.residual(mu));
  g.add_jacobian_product(q_bar, u_local, 1.0, out.residual(gamma));
  add_position_constraint_scale(g, q1, out.scale(mu), out.floor(mu));
  add_velocity_constraint_scale(g, LocalVector(q_bar.data(), q_bar.size()), u_local, q1, h, out.scale(gamma),
                                out.floor(gamma));
  if (!out.with_matrix()) return;
  g.add_jacobian(q0, 1.0, out.block(v, mu).transpose());
  g.add_jacobian(q_bar, -1.0, out.block(q, gamma).transpose());
  g.add_jacobian(q1, 1.0, out.block(mu, q));
  g.add_jacobian(q_bar, 1.0, out.block(gamma, u));
  if (g.is_linear()) return;
  g.add_hessian_contraction(gamma_local, -h, out.block(u, u));
  g.add_hessians_times(u_local, -h, out.block(u, gamma));
  g.add_hessian_contraction(gamma_local, -h, out.block(q, v));
  g.add_hessians_times(u_local, h, out.block(gamma, v).transpose());
}

/// A rheonomic constraint (ggl_vi.hpp), with G0 = G(q0, t0), Gbar = G(qbar, t1), H(a) = sum_k a_k
/// D^2 g_k(t1), G_t = D_q g_t(qbar, t1), Hu(u) = [(H_k u)^T]_k = G(u) - G(0) (G is affine in q):
///   R_v += G0^T mu,  R_u -= h (H(gamma) u + G_t^T gamma),  R_q -= Gbar^T gamma,
///   R_g = g(q1, t1),  R_gv = Gbar u + g_t(qbar, t1),
/// and their exact derivatives (qbar = q0 + h v).
void GglScheme::evaluate_rheonomic(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  const Constraint& c = t.element();
  const double h = it.in.h, t0 = it.in.state.t, t1 = t0 + h;
  const Index m = t.equations(), n = t.size();
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector v_local = t.coordinates(it.v, v_slot), u_local = t.coordinates(it.u, u_slot);
  const LocalVector mu_local = t.multipliers(it.mu), gamma_local = t.multipliers(it.gamma);
  const Vector q_bar = q0 + h * v_local;
  Matrix G0(m, n), G_bar(m, n), G_t(m, n), G1(m, n), H = Matrix::Zero(n, n);
  Vector rate(m);
  c.calc_jacobian_at(t0, q0, G0);
  c.calc_jacobian_at(t1, q_bar, G_bar);
  c.calc_rate_jacobian(t1, q_bar, G_t);
  c.calc_jacobian_at(t1, q1, G1);
  c.add_hessian_contraction_at(t1, q_bar, gamma_local, 1.0, H);
  c.calc_rate(t1, q_bar, rate);
  out.residual(v).noalias() += G0.transpose() * mu_local;
  out.residual(u).noalias() -= h * (H * u_local + G_t.transpose() * gamma_local);
  out.residual(q).noalias() -= G_bar.transpose() * gamma_local;
  c.calc_value_at(t1, q1, out.residual(mu));
  out.residual(gamma).noalias() = G_bar * u_local + rate;
  const double ell = kRoundingError * coordinate_size(q1);
  out.scale(mu).noalias() = G1.cwiseAbs() * q1.cwiseAbs();
  out.floor(mu) = G1.cwiseAbs().rowwise().sum() * ell;
  out.scale(gamma).noalias() = G_bar.cwiseAbs() * u_local.cwiseAbs() + rate.cwiseAbs();
  out.floor(gamma) = G_bar.cwiseAbs().rowwise().sum() * (ell / std::abs(h));
  if (!out.with_matrix()) return;
  Matrix G_u(m, n), G_zero(m, n);
  c.calc_jacobian_at(t1, u_local, G_u);
  c.calc_jacobian_at(t1, Vector::Zero(n), G_zero);
  const Matrix Hu = G_u - G_zero;
  out.block(v, mu) = G0.transpose();
  out.block(q, gamma) = -G_bar.transpose();
  out.block(mu, q) = G1;
  out.block(gamma, u) = G_bar;
  out.block(u, u) = -h * H;
  out.block(u, gamma) = -h * (Hu + G_t).transpose();
  out.block(q, v) = -h * H;
  out.block(gamma, v) = h * (Hu + G_t);
  c.add_rate_hessian_contraction(t1, q_bar, gamma_local, -h * h, out.block(u, v));
}

double GglScheme::work(const ConstraintTerm& t, const Iterate& it) const {
  const Constraint& c = t.element();
  if (!c.rheonomic()) return 0.0;
  Vector rate(t.equations());
  c.calc_rate(it.in.state.t, t.coordinates(it.in.state.q, q0_slot), rate);
  return t.multipliers(it.mu).dot(rate);
}

/// R_v += h C(q0) v;  K_vv += h C(q0).
void GglScheme::evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot);
  t.element().add_damping_force(q0, t.coordinates(it.v, v_slot), it.in.h, out.residual(v));
  if (out.with_matrix()) t.element().add_damping_matrix(q0, it.in.h, out.block(v, v));
}

/// R_v -= h f(t0, q0)   (constant during the step).
void GglScheme::evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const {
  t.element().add_generalized_force(it.in.state.t, t.coordinates(it.in.state.q, q0_slot), -it.in.h, out.residual(v));
}

/// R_v -= h F(step, q^n, q^{n+1}): the actuator's force over the step, in the momentum balance
/// where the loads act; K_vq -= h dF/dq^{n+1}.
void GglScheme::evaluate(const ActuatorTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const StepSpan step{it.in.state.t, it.in.h};
  t.element().add_step_force(step, q0, q1, -it.in.h, out.residual(v));
  if (out.with_matrix()) t.element().add_step_force_jacobian(step, q0, q1, -it.in.h, out.block(v, q));
}

template class SchemeStepper<GglScheme>;

}  // namespace noether

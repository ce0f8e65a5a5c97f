#include <noether/steppers/em_ggl.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include <noether/engine/exact_form.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/midpoint_forces.hpp>
#include <noether/steppers/row_scale.hpp>
#include <noether/steppers/scheme_stepper_impl.hpp>

namespace noether {

/// The equations of em_ggl.hpp, as kernels: x = (u1, nu, gamma, dq), q1 = q0 + dq, rows
/// (R_q, R_g, R_gv, R_p). M is constant (admission), g of degree <= 2: every constraint has its
/// exact form, H(a) = sum_k a_k H_k.
struct EmGglScheme {
  static constexpr std::string_view name = "em-ggl";
  static constexpr SchemeTraits traits{
      .order = 2, .conserves_energy = true, .warm_start = true, .rheonomic_constraints = true};
  /// Field dq: the unknowns dq and the rows R_p; u: the unknowns u1 and the rows R_q; nu, gamma:
  /// their unknowns and the rows R_g, R_gv. The diagonal of the Newton matrix then holds 2 M/h and
  /// -M/2. Each body's unknowns come in this order (engine/unknown_ordering.hpp): u1 first, dq
  /// last, the order in which the body's block of the matrix fills in least (of the 24 orders of
  /// the four fields; docs/notebook.md, "em-ggl against livens-em"). The measurement program
  /// benchmarks/experiments/velocity_split.cpp assumes this order and fails when its split no longer fits it.
  enum Field { u, nu, gamma, dq };
  static constexpr std::array fields{FieldKind::coordinates, FieldKind::multipliers, FieldKind::multipliers,
                                     FieldKind::coordinates};
  enum Slot { q0_slot, q1_slot, mid_slot, dq_slot, u0_slot, u1_slot, u_mid_slot, workspace_slots };

  /// q1 = q0 + dq of the current iterate (d).
  struct Data {
    Vector q1;
  };
  struct Iterate {
    const StepInput& in;
    LocalVector dq, u1, nu, gamma;  ///< the fields of x
    const Vector& q1;
  };

  EmGglScheme(const System& system, const StepperOptions& options);

  Iterate iterate(const StepInput& in, ConstVectorRef x, Data& data) const {
    const Index d = system_.num_coordinates(), m = system_.num_multipliers(), dq_offset = d + 2 * m;
    data.q1.resize(d);
    for_each_index_range(d, [&](Index begin, Index end) {
      data.q1.segment(begin, end - begin) =
          in.state.q.segment(begin, end - begin) + x.segment(dq_offset + begin, end - begin);
    });
    return {in, segment_view(x, dq_offset, d), segment_view(x, 0, d), segment_view(x, d, m), segment_view(x, d + m, m),
            data.q1};
  }
  /// R_p's terms that do not depend on x: h DV of the linear potentials.
  void add_step_rows(const StepInput& in, VectorRef rows) const {
    rows.tail(system_.num_coordinates()) = in.h * linear_gradient_;
  }
  /// u1 = v1, nu = h lambda, gamma = 0, dq = h v_mid (v1 and lambda from the warm start).
  Vector initial_guess(const StepInput& in, const StepGuess& guess) const {
    Vector x(2 * system_.num_coordinates() + 2 * system_.num_multipliers());
    x << guess.v1, in.h * guess.lambda, Vector::Zero(system_.num_multipliers()), 0.5 * in.h * (in.state.v + guess.v1);
    return x;
  }
  /// q = q0 + dq, v = u1, p = M u1, lambda = (nu + 2 gamma) / h.
  State next_state(const StepInput& in, ConstVectorRef x, const SchemeAssembly<EmGglScheme>&) const {
    const Index d = system_.num_coordinates(), m = system_.num_multipliers();
    State next{in.state.step + 1, in.state.t + in.h, in.state.q + x.tail(d), x.head(d), Vector(d),
               (x.segment(d, m) + 2.0 * x.segment(d + m, m)) / in.h};
    calc_momentum(system_, next.q, next.v, next.p);
    return next;
  }
  /// H = 1/2 v.M v + V(q).
  double conserved_energy(const State& state) const {
    return kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
  }
  std::string row_label(int field, Index i) const;

  TermShape shape(const Inertia&) const {  // 2M/h, M/h, -M/2: constant (rewritten for a new h)
    return TermShape{dq, u}
        .block(dq, dq, Pattern::mass, true)
        .block(u, dq, Pattern::mass, true)
        .block(u, u, Pattern::mass, true);
  }
  /// The force elements act in R_p, as functions of q1; linear potentials are in the step rows.
  TermShape shape(const Potential& e) const {
    return e.nonlinearity() == Nonlinearity::linear ? TermShape{} : TermShape{dq}.block(dq, dq);
  }
  TermShape shape(const Constraint& e) const {
    const bool linear = e.nonlinearity() == Nonlinearity::linear;  // then every G is L, constant
    TermShape s{dq, u, nu, gamma};
    s.block(dq, nu, Pattern::jacobian_transpose, linear)
        .block(u, gamma, Pattern::jacobian_transpose, linear)
        .block(nu, dq, Pattern::jacobian, linear)
        .block(gamma, u, Pattern::jacobian, linear);
    if (linear) return s;
    return s.block(dq, dq, Pattern::hessian)
        .block(dq, u, Pattern::hessian)
        .block(dq, gamma, Pattern::jacobian_transpose)
        .block(u, dq, Pattern::hessian)
        .block(gamma, dq, Pattern::jacobian);
  }
  TermShape shape(const Dissipation&) const { return TermShape{dq}.block(dq, dq); }
  TermShape shape(const ExternalLoad&) const { return TermShape{dq}.block(dq, dq); }
  TermShape shape(const Actuator&) const { return TermShape{dq}.block(dq, dq); }

  void evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ActuatorTerm& t, const Iterate& it, TermOutput& out) const;
  /// The work of the midpoint force terms, which the energy balance of em_ggl.hpp counts.
  double work(const DissipationTerm& t, const Iterate& it) const {
    return midpoint_work(t, it, {q0_slot, q1_slot, mid_slot, dq_slot});
  }
  double work(const LoadTerm& t, const Iterate& it) const { return midpoint_work(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}); }
  /// The work of a rheonomic constraint's reaction, lambda.dbar + gamma.dbar_v (em_ggl.hpp); 0 for any other.
  double work(const ConstraintTerm& t, const Iterate& it) const;

  /// The constraint rows of a rheonomic constraint (em_ggl.hpp), from its element.
  void evaluate_rheonomic(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;

  double work(const ActuatorTerm& t, const Iterate& it) const {
    return step_actuator_work(t, it, {q0_slot, q1_slot, mid_slot, dq_slot});
  }

  const System& system_;
  Vector linear_gradient_;  ///< sum of DV over the linear potentials (d), from their exact forms
};

EmGglScheme::EmGglScheme(const System& system, const StepperOptions& options)
    : system_(system), linear_gradient_(linear_potential_gradient(system)) {
  require_unsymmetric_capable_solver(name, options.solver);
  require_quadratic_constraints(name, system);
  require_one_inertia_per_coordinate(name, system, options);
  invert_masses(name, system);  // refuses singular or configuration-dependent M
}

std::string EmGglScheme::row_label(int field, Index i) const {
  switch (field) {
    case dq: return "momentum balance (plus twice the position update) of coordinate " + system_.coordinate_label(i);
    case u: return "position update of coordinate " + system_.coordinate_label(i);
    case nu: return system_.multiplier_label(i) + ", position level g(q1)";
    default: return system_.multiplier_label(i) + ", velocity level G(q1) v1";
  }
}

/// R_p += 2 M (dq/h - u0),  R_q += M (dq/h - u_mid); scales: the terms; floors: 2 max|M| eps ell/|h|
/// and max|M| eps ell/|h| (steppers/row_scale.hpp).
void EmGglScheme::evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  const SparseEntries& M = *t.mass();
  const double h = it.in.h;
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  const LocalVector u0 = t.coordinates(it.in.state.v, u0_slot), u1 = t.coordinates(it.u1, u1_slot);
  const double rounding = rounding_velocity(t.coordinates(it.q1, q1_slot), h);
  auto R_p = out.residual(dq), R_q = out.residual(u);
  auto S_p = out.scale(dq), S_q = out.scale(u);
  double largest = 0.0;
  for (const Nonzero& e : M.entries()) {
    const double mean_velocity = dq_local(e.col) / h;
    R_p(e.row) += 2.0 * e.value * (mean_velocity - u0(e.col));
    R_q(e.row) += e.value * (mean_velocity - 0.5 * (u0(e.col) + u1(e.col)));
    const double M_abs = std::abs(e.value), mean_abs = std::abs(mean_velocity), u0_abs = std::abs(u0(e.col));
    S_p(e.row) += 2.0 * M_abs * (mean_abs + u0_abs);
    S_q(e.row) += M_abs * (mean_abs + 0.5 * (u0_abs + std::abs(u1(e.col))));
    largest = std::max(largest, M_abs);
  }
  out.floor(dq).setConstant(2.0 * largest * rounding);
  out.floor(u).setConstant(largest * rounding);
  if (!out.with_matrix()) return;
  M.add_to(2.0 / h, out.block(dq, dq));
  M.add_to(1.0 / h, out.block(u, dq));
  M.add_to(-0.5, out.block(u, u));
}

/// R_p += h Dbar V(q0, q1);  K_pp += h d/dq1 Dbar V.
void EmGglScheme::evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  t.element().add_discrete_gradient(q0, q1, it.in.h, out.residual(dq));
  if (out.with_matrix()) t.element().add_discrete_gradient_jacobian(q0, q1, it.in.h, out.block(dq, dq));
}

/// R_p += G_mid^T nu + h H(gamma) u_mid,  R_q -= G_mid^T gamma,  R_g = g(q1),  R_gv = G(q1) u1, and
/// their blocks, in one walk over the form's entries (engine/exact_form.hpp; G(q) = L + [(H_k q)^T]_k,
/// G_mid = G(q_mid)); scales and floors of R_g and R_gv as steppers/row_scale.hpp states them.
void EmGglScheme::evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  if (t.element().rheonomic()) return evaluate_rheonomic(t, it, out);
  const QuadraticFormView& g = *t.form();
  const double h = it.in.h;
  const bool linear = g.is_linear(), with_matrix = out.with_matrix();
  const LocalVector q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector q_mid =  // G is constant when linear: any point will do
      linear ? q1 : t.midpoint(t.coordinates(it.in.state.q, q0_slot), q1, mid_slot);
  const LocalVector u1 = t.coordinates(it.u1, u1_slot);
  const LocalVector u_mid = linear ? u1 : t.midpoint(t.coordinates(it.in.state.v, u0_slot), u1, u_mid_slot);
  const LocalVector nu_local = t.multipliers(it.nu), gamma_local = t.multipliers(it.gamma);
  auto R_p = out.residual(dq), R_q = out.residual(u);
  auto F_g = out.floor(nu), F_gv = out.floor(gamma);  // sum_j |terms of G(q1)_kj| until the end
  const auto block = [&](bool declared, int row, int col) {
    return declared ? out.block(row, col) : Eigen::Map<Matrix>(nullptr, 0, 0);
  };
  // dR_p/dnu = G_mid^T, dR_q/dgamma = -G_mid^T, dR_g/ddq = dR_gv/du1 = G(q1); nonlinear g:
  // dR_p/ddq = 1/2 H(nu), dR_p/du1 = h/2 H(gamma), dR_p/dgamma_k = h H_k u_mid,
  // dR_q/ddq = -1/2 H(gamma), dR_gv/ddq = [(H_k u1)^T]_k.
  Eigen::Map<Matrix> Gt_nu = block(with_matrix, dq, nu), Gt_gamma = block(with_matrix, u, gamma),
                     G_nu = block(with_matrix, nu, dq), G_gamma = block(with_matrix, gamma, u);
  const bool hessian_blocks = with_matrix && !linear;
  Eigen::Map<Matrix> K_dq = block(hessian_blocks, dq, dq), K_u = block(hessian_blocks, dq, u),
                     Hu_mid = block(hessian_blocks, dq, gamma), K_q = block(hessian_blocks, u, dq),
                     Hu_1 = block(hessian_blocks, gamma, dq);
  walk_form(
      g, q1, {out.residual(nu), out.scale(nu), F_g}, {u1, out.residual(gamma), out.scale(gamma)},
      [&](const Nonzero& l) {  // L(k, j) = l.value, k = l.row, j = l.col
        R_p(l.col) += l.value * nu_local(l.row);
        R_q(l.col) -= l.value * gamma_local(l.row);
        if (!with_matrix) return;
        Gt_nu(l.col, l.row) += l.value;
        Gt_gamma(l.col, l.row) -= l.value;
        G_nu(l.row, l.col) += l.value;
        G_gamma(l.row, l.col) += l.value;
      },
      [&](Index k) {  // H_k(i, j) = e.value, i = e.row, j = e.col
        const double nu_k = nu_local(k), gamma_k = gamma_local(k);
        return [&, k, nu_k, gamma_k](const Nonzero& e, double at_end) {
          const double at_mid = e.value * q_mid(e.col);
          R_p(e.row) += nu_k * at_mid + h * gamma_k * e.value * u_mid(e.col);
          R_q(e.row) -= gamma_k * at_mid;
          if (!with_matrix) return;
          Gt_nu(e.row, k) += at_mid;
          Gt_gamma(e.row, k) -= at_mid;
          G_nu(k, e.row) += at_end;
          G_gamma(k, e.row) += at_end;
          K_dq(e.row, e.col) += 0.5 * nu_k * e.value;
          K_u(e.row, e.col) += 0.5 * h * gamma_k * e.value;
          Hu_mid(e.row, k) += h * e.value * u_mid(e.col);
          K_q(e.row, e.col) -= 0.5 * gamma_k * e.value;
          Hu_1(k, e.col) += e.value * u1(e.row);
        };
      });
  const double ell = kRoundingError * coordinate_size(q1);
  F_gv = F_g * (ell / std::abs(h));
  F_g *= ell;
}

namespace {

/// The time average 1/2 (A(t0) + A(t1)) of a matrix function of time at fixed arguments, each
/// evaluation overwriting its argument.
template <class F>
Matrix time_average(Index rows, Index cols, double t0, double t1, F&& f) {
  Matrix a(rows, cols), b(rows, cols);
  f(t0, a);
  f(t1, b);
  return 0.5 * (a + b);
}

}  // namespace

/// A rheonomic constraint g(q, t), of degree <= 2 in q at each t, with the velocity constraint
/// g_v = G(q, t) u + g_t(q, t) (em_ggl.hpp): with bars the time averages over t0 and t1 at the
/// midpoint, Gbar = avg G(q_mid), H(a) = avg sum_k a_k D^2 g_k, Gbar_t = avg D_q g_t(q_mid),
/// Hu(u) = [(H_k u)^T]_k = G(u) - G(0) (G is affine in q),
///   R_p += Gbar^T nu + h H(gamma) u_mid + h Gbar_t^T gamma,   R_q -= Gbar^T gamma,
///   R_g = g(q1, t1),   R_gv = G(q1, t1) u1 + g_t(q1, t1),
/// and their exact derivatives.
void EmGglScheme::evaluate_rheonomic(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  const Constraint& c = t.element();
  const double h = it.in.h, t0 = it.in.state.t, t1 = t0 + h;
  const Index m = t.equations(), n = t.size();
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector q_mid = t.midpoint(q0, q1, mid_slot);
  const LocalVector u0 = t.coordinates(it.in.state.v, u0_slot), u1 = t.coordinates(it.u1, u1_slot);
  const LocalVector u_mid = t.midpoint(u0, u1, u_mid_slot);
  const LocalVector nu_local = t.multipliers(it.nu), gamma_local = t.multipliers(it.gamma);
  Matrix Gbar(m, n), G1(m, n), Gt1(m, n), H_gamma = Matrix::Zero(n, n);
  c.calc_discrete_gradient_at(t0, t1, q0, q1, Gbar);
  const Matrix Gbar_t =
      time_average(m, n, t0, t1, [&](double s, MatrixRef G) { c.calc_rate_jacobian(s, q_mid, G); });
  c.add_hessian_contraction_at(t0, q_mid, gamma_local, 0.5, H_gamma);
  c.add_hessian_contraction_at(t1, q_mid, gamma_local, 0.5, H_gamma);
  c.calc_jacobian_at(t1, q1, G1);
  c.calc_rate_jacobian(t1, q1, Gt1);
  Vector g_t1(m);
  c.calc_rate(t1, q1, g_t1);
  c.calc_value_at(t1, q1, out.residual(nu));
  out.residual(gamma).noalias() = G1 * u1 + g_t1;
  out.residual(dq).noalias() = Gbar.transpose() * nu_local + h * (H_gamma * u_mid + Gbar_t.transpose() * gamma_local);
  out.residual(u).noalias() = -Gbar.transpose() * gamma_local;
  const double ell = kRoundingError * coordinate_size(q1);
  out.scale(nu).noalias() = G1.cwiseAbs() * q1.cwiseAbs();
  out.scale(gamma).noalias() = G1.cwiseAbs() * u1.cwiseAbs() + g_t1.cwiseAbs();
  out.floor(nu) = G1.cwiseAbs().rowwise().sum() * ell;
  out.floor(gamma) = G1.cwiseAbs().rowwise().sum() * (ell / std::abs(h));
  if (!out.with_matrix()) return;
  const Vector zero = Vector::Zero(n);
  const auto Hu = [&](const LocalVector& a, double s, MatrixRef out_matrix) {  // [(H_k(s) a)^T]_k = G(a) - G(0)
    Matrix G_a(m, n), G_0(m, n);
    c.calc_jacobian_at(s, a, G_a);
    c.calc_jacobian_at(s, zero, G_0);
    out_matrix = G_a - G_0;
  };
  Matrix Hu_mid = time_average(m, n, t0, t1, [&](double s, MatrixRef M) { Hu(u_mid, s, M); });
  Matrix Hu_1(m, n);
  Hu(u1, t1, Hu_1);
  out.block(dq, nu) = Gbar.transpose();
  out.block(u, gamma) = -Gbar.transpose();
  out.block(nu, dq) = G1;
  out.block(gamma, u) = G1;
  out.block(dq, gamma) = h * (Hu_mid + Gbar_t).transpose();
  out.block(gamma, dq) = Hu_1 + Gt1;
  auto K_dq = out.block(dq, dq);
  c.add_discrete_gradient_contraction_jacobian_at(t0, t1, q0, q1, nu_local, 1.0, K_dq);
  c.add_rate_hessian_contraction(t0, q_mid, gamma_local, 0.25 * h, K_dq);
  c.add_rate_hessian_contraction(t1, q_mid, gamma_local, 0.25 * h, K_dq);
  out.block(dq, u) = 0.5 * h * H_gamma;
  out.block(u, dq) = -0.5 * H_gamma;
}

/// lambda.dbar + gamma.dbar_v with lambda = (nu + 2 gamma)/h, dbar_v the t part of g_v's discrete
/// gradient (Constraint::calc_discrete_gradient_at's split, for g_v(q, u, t)).
double EmGglScheme::work(const ConstraintTerm& t, const Iterate& it) const {
  const Constraint& c = t.element();
  if (!c.rheonomic()) return 0.0;
  const double h = it.in.h, t0 = it.in.state.t, t1 = t0 + h;
  const Index m = t.equations(), n = t.size();
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector u0 = t.coordinates(it.in.state.v, u0_slot), u1 = t.coordinates(it.u1, u1_slot);
  Vector dbar(m);
  c.calc_discrete_time_difference(t0, t1, q0, q1, dbar);
  const auto g_v = [&](const LocalVector& q, const LocalVector& v, double s) {
    Matrix G(m, n);
    Vector g_t(m);
    c.calc_jacobian_at(s, q, G);
    c.calc_rate(s, q, g_t);
    return Vector(G * v + g_t);
  };
  const Vector dbar_v = 0.5 * ((g_v(q0, u0, t1) - g_v(q0, u0, t0)) + (g_v(q1, u1, t1) - g_v(q1, u1, t0)));
  const LocalVector nu_local = t.multipliers(it.nu), gamma_local = t.multipliers(it.gamma);
  return (nu_local + 2.0 * gamma_local).dot(dbar) / h + gamma_local.dot(dbar_v);
}

/// The midpoint force terms (steppers/midpoint_forces.hpp), in R_p.
void EmGglScheme::evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const {
  add_midpoint_damping(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}, dq, dq, out);
}
void EmGglScheme::evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const {
  add_midpoint_load(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}, dq, dq, out);
}
void EmGglScheme::evaluate(const ActuatorTerm& t, const Iterate& it, TermOutput& out) const {
  add_step_actuator(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}, dq, dq, out);
}

template class SchemeStepper<EmGglScheme>;

}  // namespace noether

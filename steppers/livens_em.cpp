#include <noether/steppers/livens_em.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include <noether/engine/exact_form.hpp>
#include <noether/engine/gonzalez.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/steppers/midpoint_forces.hpp>
#include <noether/steppers/row_scale.hpp>
#include <noether/steppers/scheme_stepper_impl.hpp>

namespace noether {

/// c, the share of the constraints' value at the step's start that its rows undo (livens_em.hpp).
/// The rounding of q1 = q0 + dq leaves g(q0) at a few eps; with rows Gbar dq + c g(q0) it settles
/// near eps / sqrt(2 c) and adds c lambda.g(q0) ~ eps lambda sqrt(c / 2) to a step's energy
/// change. Of the rates measured on the double four-bar's crossings of singular configurations
/// (0, 1/1000, 1/100, 1/10, 1), 1/100 kept them most accurate and its energy steps at rounding,
/// with |g| within 4e-15 (docs/notebook.md, "The constraint's increment as its rows").
constexpr double kRoundingRelaxation = 0.01;

/// The equations of livens_em.hpp, as kernels: x = (dq, mu), rows (R_q, R_lambda).
struct LivensScheme {
  static constexpr std::string_view name = "livens-em";
  static constexpr SchemeTraits traits{
      .order = 2, .conserves_energy = true, .warm_start = true, .rheonomic_constraints = true};
  enum Field { dq, mu };
  static constexpr std::array fields{FieldKind::coordinates, FieldKind::multipliers};
  enum Slot { q0_slot, q1_slot, mid_slot, dq_slot, v0_slot, v1_slot, gbar_slot, momentum_slot, workspace_slots };

  /// q1 = q0 + dq and v1 = 2 dq/h - v0 of the current iterate (d each).
  struct Data {
    Vector q1, v1;
  };
  struct Iterate {
    const StepInput& in;
    LocalVector dq, mu;  ///< the fields of x
    const Vector& q1;
    const Vector& v1;
  };

  LivensScheme(const System& system, const StepperOptions& options);

  Iterate iterate(const StepInput& in, ConstVectorRef x, Data& data) const {
    const Index d = system_.num_coordinates();
    data.q1.resize(d);
    data.v1.resize(d);
    for_each_index_range(d, [&](Index begin, Index end) {
      const Index size = end - begin;
      data.q1.segment(begin, size) = in.state.q.segment(begin, size) + x.segment(begin, size);
      data.v1.segment(begin, size) = 2.0 / in.h * x.segment(begin, size) - in.state.v.segment(begin, size);
    });
    return {in, segment_view(x, 0, d), segment_view(x, d, system_.num_multipliers()), data.q1, data.v1};
  }
  /// The terms that do not depend on x: R_q's h DV of the linear potentials - 2 p0, and
  /// R_lambda's c g(q0, t0) (livens_em.hpp: the share of the constraints' rounding undone each step).
  void add_step_rows(const StepInput& in, VectorRef rows) const {
    const Index d = system_.num_coordinates();
    rows.head(d) = in.h * linear_gradient_ - 2.0 * in.state.p;
    auto g0 = rows.segment(d, system_.num_multipliers());
    calc_constraint_values(system_, in.state.q, g0, in.state.t);
    g0 *= kRoundingRelaxation;
  }
  /// dq = h v_mid, mu = h lambda.
  Vector initial_guess(const StepInput& in, const StepGuess& guess) const {
    Vector x(system_.num_coordinates() + system_.num_multipliers());
    x << 0.5 * in.h * (in.state.v + guess.v1), in.h * guess.lambda;
    return x;
  }
  State next_state(const StepInput& in, ConstVectorRef x, const SchemeAssembly<LivensScheme>& assembly) const;
  double conserved_energy(const State& state) const {
    return state.p.dot(state.v) - kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
  }
  std::string row_label(int field, Index i) const {
    return field == dq ? "momentum balance of coordinate " + system_.coordinate_label(i) : system_.multiplier_label(i);
  }

  TermShape shape(const Inertia& e) const {
    return TermShape{dq}.block(dq, dq, Pattern::mass, e.has_constant_mass());  // (2/h) M: constant with M
  }
  TermShape shape(const Potential& e) const {  // linear potentials are in the step rows
    return e.nonlinearity() == Nonlinearity::linear ? TermShape{} : TermShape{dq}.block(dq, dq);
  }
  TermShape shape(const Constraint& e) const {
    const bool linear = e.nonlinearity() == Nonlinearity::linear;  // then G is constant
    TermShape s{dq, mu};
    s.block(dq, mu, Pattern::jacobian_transpose, linear).block(mu, dq, Pattern::jacobian, linear);
    return linear ? s : s.block(dq, dq, Pattern::hessian);
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
  /// The work of the midpoint force terms, which the energy balance of livens_em.hpp counts.
  double work(const DissipationTerm& t, const Iterate& it) const {
    return midpoint_work(t, it, {q0_slot, q1_slot, mid_slot, dq_slot});
  }
  double work(const LoadTerm& t, const Iterate& it) const { return midpoint_work(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}); }
  /// The work of a rheonomic constraint's reaction, lambda.dbar (livens_em.hpp); 0 for any other.
  double work(const ConstraintTerm& t, const Iterate& it) const;

  /// The constraint rows of a rheonomic constraint (livens_em.hpp), from its element.
  void evaluate_rheonomic(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;

  double work(const ActuatorTerm& t, const Iterate& it) const {
    return step_actuator_work(t, it, {q0_slot, q1_slot, mid_slot, dq_slot});
  }

  const System& system_;
  Vector linear_gradient_;  ///< sum of DV over the linear potentials (d), from their exact forms
};

namespace {

/// dbar_q += s Dbar_1 T, dbar_v += s Dbar_2 T: Gonzalez's discrete gradient of T between
/// z0 = (q0, v0) and z1 = (q1, v1), for an inertia whose M depends on q.
void add_discrete_kinetic_gradient(const Inertia& inertia, const LocalVector& q0, const LocalVector& q1,
                                   const LocalVector& v0, const LocalVector& v1, double s, VectorRef dbar_q,
                                   VectorRef dbar_v) {
  const Index n = q0.size();
  Vector z0(2 * n), z1(2 * n), grad_mid = Vector::Zero(2 * n), dbar = Vector::Zero(2 * n);
  z0 << q0, v0;
  z1 << q1, v1;
  inertia.add_kinetic_gradient(0.5 * (q0 + q1), 0.5 * (v0 + v1), 1.0, grad_mid.head(n), grad_mid.tail(n));
  add_gonzalez_gradient(z0, z1, inertia.kinetic_energy(q0, v0), inertia.kinetic_energy(q1, v1), grad_mid, s, dbar);
  dbar_q += dbar.head(n);
  dbar_v += dbar.tail(n);
}

/// d/dq1 of (Dbar_1 T, Dbar_2 T) (2n x n), with dv1/dq1 = 2/h.
Matrix discrete_kinetic_gradient_jacobian(const Inertia& inertia, const LocalVector& q0, const LocalVector& q1,
                                          const LocalVector& v0, const LocalVector& v1, double h) {
  const Index n = q0.size();
  Vector z0(2 * n), z1(2 * n), grad_mid = Vector::Zero(2 * n), grad_1 = Vector::Zero(2 * n);
  z0 << q0, v0;
  z1 << q1, v1;
  const Vector q_mid = 0.5 * (q0 + q1), v_mid = 0.5 * (v0 + v1);
  inertia.add_kinetic_gradient(q_mid, v_mid, 1.0, grad_mid.head(n), grad_mid.tail(n));
  inertia.add_kinetic_gradient(q1, v1, 1.0, grad_1.head(n), grad_1.tail(n));
  Matrix hess_mid = Matrix::Zero(2 * n, 2 * n), J = Matrix::Zero(2 * n, 2 * n);
  inertia.add_kinetic_hessian(q_mid, v_mid, 1.0, hess_mid);
  add_gonzalez_jacobian(z0, z1, inertia.kinetic_energy(q0, v0), inertia.kinetic_energy(q1, v1), grad_1, grad_mid,
                        hess_mid, 1.0, J);
  return J.leftCols(n) + (2.0 / h) * J.rightCols(n);
}

}  // namespace

LivensScheme::LivensScheme(const System& system, const StepperOptions& options)
    : system_(system), linear_gradient_(linear_potential_gradient(system)) {
  require_unsymmetric_capable_solver(name, options.solver);
}

/// Constant M: R = (2/h) M dq, K = (2/h) M (2 Dbar_2 T = M (v0 + v1) = 2 M dq/h - ..., whose
/// v0 part is -2 p0's partner in the step rows). Else R = 2 Dbar_2 T - h Dbar_1 T, K = d/dq1 of
/// it. Scale: the terms of (2/h) M dq; floor: 2 max|M| eps ell/|h| (steppers/row_scale.hpp).
void LivensScheme::evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  auto R = out.residual(dq);
  auto scale = out.scale(dq);
  const LocalVector q1 = t.coordinates(it.q1, q1_slot);
  const double s = 2.0 / it.in.h, rounding = 2.0 * rounding_velocity(q1, it.in.h);
  if (const SparseEntries* M = t.mass()) {
    const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
    double largest = 0.0;
    for (const Nonzero& e : M->entries()) {
      R(e.row) += s * e.value * dq_local(e.col);
      scale(e.row) += std::abs(s * e.value * dq_local(e.col));
      largest = std::max(largest, std::abs(e.value));
    }
    out.floor(dq).setConstant(largest * rounding);
    if (out.with_matrix()) M->add_to(s, out.block(dq, dq));
    return;
  }
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot);
  const LocalVector v0 = t.coordinates(it.in.state.v, v0_slot), v1 = t.coordinates(it.v1, v1_slot);
  Vector dbar_q = Vector::Zero(t.size()), dbar_v = Vector::Zero(t.size());
  add_discrete_kinetic_gradient(t.element(), q0, q1, v0, v1, 1.0, dbar_q, dbar_v);
  R = 2.0 * dbar_v - it.in.h * dbar_q;
  Matrix M1 = Matrix::Zero(t.size(), t.size());
  t.element().add_mass_matrix(q1, std::abs(s), M1);
  scale.noalias() = M1.cwiseAbs() * (q1 - q0).cwiseAbs();
  out.floor(dq).setConstant(M1.cwiseAbs().maxCoeff() * rounding / std::abs(s));
  if (!out.with_matrix()) return;
  const Matrix J = discrete_kinetic_gradient_jacobian(t.element(), q0, q1, v0, v1, it.in.h);
  out.block(dq, dq) = 2.0 * J.bottomRows(t.size()) - it.in.h * J.topRows(t.size());
}

/// R += h Dbar V(q0, q1);  K += h d/dq1 Dbar V.
void LivensScheme::evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  t.element().add_discrete_gradient(q0, q1, it.in.h, out.residual(dq));
  if (out.with_matrix()) t.element().add_discrete_gradient_jacobian(q0, q1, it.in.h, out.block(dq, dq));
}

/// R_q += Gbar^T mu, R_lambda = Gbar dq (the step rows add c g(q0)); blocks (dq, mu) Gbar^T, (mu, dq) G(q1) (= d(Gbar dq)/dq1
/// for both discrete gradients), (dq, dq) d(Gbar^T mu)/dq1.
/// Degree <= 2, from the exact form in one walk over its entries at q1 (engine/exact_form.hpp):
/// Gbar = G(q_mid), d(Gbar^T mu)/dq1 = 1/2 sum_k mu_k H_k (the walk leaves out g(q1)).
/// General: Gonzalez's Gbar, row by row. Scale of R_lambda: the terms of Gbar dq; floor:
/// eps ell times the terms of G (steppers/row_scale.hpp), the rows' rounding where dq vanishes.
void LivensScheme::evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q1 = t.coordinates(it.q1, q1_slot), mu_local = t.multipliers(it.mu);
  auto R_q = out.residual(dq);
  auto R_lambda = out.residual(mu);
  const QuadraticFormView* g = t.form();
  if (!g && t.element().rheonomic()) return evaluate_rheonomic(t, it, out);
  if (!g) {
    const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot);
    Eigen::Map<Matrix> Gbar = t.workspace().matrix(gbar_slot, t.equations(), t.size());
    t.element().calc_discrete_gradient(q0, q1, Gbar);
    const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
    R_lambda.noalias() = Gbar * dq_local;
    out.scale(mu).noalias() = Gbar.cwiseAbs() * dq_local.cwiseAbs();
    out.floor(mu) = Gbar.cwiseAbs().rowwise().sum() * (kRoundingError * coordinate_size(q1));
    R_q.noalias() = Gbar.transpose() * mu_local;
    if (!out.with_matrix()) return;
    out.block(dq, mu) = Gbar.transpose();
    t.element().calc_jacobian(q1, out.block(mu, dq));
    t.element().add_discrete_gradient_contraction_jacobian(q0, q1, mu_local, 1.0, out.block(dq, dq));
    return;
  }
  const bool linear = g->is_linear(), with_matrix = out.with_matrix();
  const LocalVector q_mid =  // G is constant when linear: any point will do
      linear ? q1 : t.midpoint(t.coordinates(it.in.state.q, q0_slot), q1, mid_slot);
  const auto block = [&](bool declared, int row, int col) {
    return declared ? out.block(row, col) : Eigen::Map<Matrix>(nullptr, 0, 0);
  };
  Eigen::Map<Matrix> Gbar_t = block(with_matrix, dq, mu), G1 = block(with_matrix, mu, dq);
  Eigen::Map<Matrix> K = block(with_matrix && !linear, dq, dq);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  auto scale = out.scale(mu);
  auto floor = out.floor(mu);  // sum_j |terms of G(q1)_kj| until the end
  R_lambda.setZero();
  scale.setZero();
  walk_form(
      *g, q1, JacobianMagnitude{floor},
      [&](const Nonzero& l) {  // L(k, j) = l.value, k = l.row, j = l.col
        const double term = l.value * dq_local(l.col);
        R_lambda(l.row) += term;
        scale(l.row) += std::abs(term);
        R_q(l.col) += l.value * mu_local(l.row);
        if (!with_matrix) return;
        Gbar_t(l.col, l.row) += l.value;
        G1(l.row, l.col) += l.value;
      },
      [&](Index k) {  // H_k(i, j) = e.value, i = e.row, j = e.col
        const double mu_k = mu_local(k);
        return [&, k, mu_k](const Nonzero& e, double at_end) {
          const double at_mid = e.value * q_mid(e.col), term = at_mid * dq_local(e.row);
          R_lambda(k) += term;
          scale(k) += std::abs(term);
          R_q(e.row) += mu_k * at_mid;
          if (!with_matrix) return;
          Gbar_t(e.row, k) += at_mid;
          G1(k, e.row) += at_end;
          K(e.row, e.col) += 0.5 * mu_k * e.value;
        };
      });
  floor *= kRoundingError * coordinate_size(q1);
}

/// A rheonomic constraint: R_q += Gbar^T mu, R_lambda = Gbar dq + dbar, with Gbar and dbar the q
/// and t parts of its discrete gradient over (q0, t0) -> (q1, t1) (Constraint::calc_discrete_gradient_at,
/// calc_discrete_time_difference); blocks (dq, mu) Gbar^T, (mu, dq) G(q1, t1), (dq, dq)
/// d(Gbar^T mu)/dq1. Scale: the terms of Gbar dq and |dbar|; floor as the general path.
void LivensScheme::evaluate_rheonomic(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  const Constraint& c = t.element();
  const double t0 = it.in.state.t, t1 = t0 + it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector mu_local = t.multipliers(it.mu);
  Eigen::Map<Matrix> Gbar = t.workspace().matrix(gbar_slot, t.equations(), t.size());
  c.calc_discrete_gradient_at(t0, t1, q0, q1, Gbar);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  auto R_lambda = out.residual(mu);
  c.calc_discrete_time_difference(t0, t1, q0, q1, R_lambda);
  out.scale(mu) = R_lambda.cwiseAbs();
  R_lambda.noalias() += Gbar * dq_local;
  out.scale(mu).noalias() += Gbar.cwiseAbs() * dq_local.cwiseAbs();
  out.floor(mu) = Gbar.cwiseAbs().rowwise().sum() * (kRoundingError * coordinate_size(q1));
  out.residual(dq).noalias() = Gbar.transpose() * mu_local;
  if (!out.with_matrix()) return;
  out.block(dq, mu) = Gbar.transpose();
  c.calc_jacobian_at(t1, q1, out.block(mu, dq));
  c.add_discrete_gradient_contraction_jacobian_at(t0, t1, q0, q1, mu_local, 1.0, out.block(dq, dq));
}

/// lambda.dbar with lambda = mu/h: the reaction -Gbar^T lambda over dq = q1 - q0 does
/// -lambda.Gbar dq = lambda.dbar + c lambda.g(q0, t0), by the rows Gbar dq + dbar + c g(q0, t0) = 0;
/// the second term is rounding (livens_em.hpp) and not counted.
double LivensScheme::work(const ConstraintTerm& t, const Iterate& it) const {
  if (!t.element().rheonomic()) return 0.0;
  const double t0 = it.in.state.t, t1 = t0 + it.in.h;
  Eigen::Map<Vector> dbar = t.workspace().vector(gbar_slot, t.equations());
  t.element().calc_discrete_time_difference(t0, t1, t.coordinates(it.in.state.q, q0_slot),
                                             t.coordinates(it.q1, q1_slot), dbar);
  return t.multipliers(it.mu).dot(dbar) / it.in.h;
}

/// The midpoint force terms (steppers/midpoint_forces.hpp), in the momentum balance R_q.
void LivensScheme::evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const {
  add_midpoint_damping(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}, dq, dq, out);
}
void LivensScheme::evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const {
  add_midpoint_load(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}, dq, dq, out);
}
void LivensScheme::evaluate(const ActuatorTerm& t, const Iterate& it, TermOutput& out) const {
  add_step_actuator(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}, dq, dq, out);
}

/// q1 = q0 + dq, v1 = 2 dq/h - v0, p1 = 2 Dbar_2 T(z0, z1) - p0, lambda = mu/h.
State LivensScheme::next_state(const StepInput& in, ConstVectorRef x, const SchemeAssembly<LivensScheme>& assembly) const {
  const Index d = system_.num_coordinates();
  const auto dq_field = x.head(d);
  State next{in.state.step + 1, in.state.t + in.h, in.state.q + dq_field, 2.0 / in.h * dq_field - in.state.v,
             -in.state.p, x.tail(system_.num_multipliers()) / in.h};
  assembly.for_each(TermKind::inertia, [&](const InertiaTerm& t) {
    const LocalVector v0 = t.coordinates(in.state.v, v0_slot), v1 = t.coordinates(next.v, v1_slot);
    Eigen::Map<Vector> grad_v = t.workspace().vector(momentum_slot, t.size());
    grad_v.setZero();
    if (const SparseEntries* M = t.mass()) {  // 2 M v_mid = M (v0 + v1)
      for (const Nonzero& e : M->entries()) grad_v(e.row) += e.value * (v0(e.col) + v1(e.col));
    } else {
      Vector grad_q = Vector::Zero(t.size());
      add_discrete_kinetic_gradient(t.element(), t.coordinates(in.state.q, q0_slot), t.coordinates(next.q, q1_slot),
                                    v0, v1, 2.0, grad_q, grad_v);
    }
    t.add_at_coordinates(grad_v, next.p);
  });
  return next;
}

template class SchemeStepper<LivensScheme>;

}  // namespace noether

#include <noether/steppers/em_ggl.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include <noether/engine/measures.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/midpoint_forces.hpp>
#include <noether/steppers/row_scale.hpp>
#include <noether/steppers/scheme_stepper_impl.hpp>

namespace noether {

/// The equations of em_ggl.hpp, as kernels: x = (dq, u1, mu, gamma), q1 = q0 + dq, rows
/// (R_q, R_u, R_g, R_gv). M is constant (admission), g of degree <= 2: every constraint has its
/// exact form, H(a) = sum_k a_k H_k.
struct EmGglScheme {
  static constexpr std::string_view name = "em-ggl";
  static constexpr bool warm_start = true;
  enum Field { q, u, mu, gamma };
  static constexpr std::array fields{FieldKind::coordinates, FieldKind::coordinates, FieldKind::multipliers,
                                     FieldKind::multipliers};
  enum Slot { q0_slot, q1_slot, mid_slot, dq_slot, u0_slot, u1_slot, u_mid_slot, workspace_slots };

  /// q1 = q0 + dq of the current iterate (d).
  struct Data {
    Vector q1;
  };
  struct Iterate {
    const StepInput& in;
    LocalVector dq, u1, mu, gamma;  ///< the fields of x
    const Vector& q1;
  };

  EmGglScheme(const System& system, const StepperOptions& options);

  Iterate iterate(const StepInput& in, ConstVectorRef x, Data& data) const {
    const Index d = system_.num_coordinates(), m = system_.num_multipliers();
    data.q1.resize(d);
    for_each_index_range(d, [&](Index begin, Index end) {
      data.q1.segment(begin, end - begin) = in.state.q.segment(begin, end - begin) + x.segment(begin, end - begin);
    });
    return {in, segment_view(x, 0, d), segment_view(x, d, d), segment_view(x, 2 * d, m), segment_view(x, 2 * d + m, m),
            data.q1};
  }
  void add_step_rows(const StepInput&, VectorRef) const {}
  /// dq = h v_mid, u1 = v1, mu = h lambda, gamma = 0 (v1 and lambda from the warm start).
  Vector initial_guess(const StepInput& in, const StepGuess& guess) const {
    Vector x(2 * system_.num_coordinates() + 2 * system_.num_multipliers());
    x << 0.5 * in.h * (in.state.v + guess.v1), guess.v1, in.h * guess.lambda, Vector::Zero(system_.num_multipliers());
    return x;
  }
  /// q = q0 + dq, v = u1, p = M u1, lambda = mu / h.
  State next_state(const StepInput& in, ConstVectorRef x, const SchemeAssembly<EmGglScheme>&) const {
    const Index d = system_.num_coordinates();
    State next{in.state.step + 1, in.state.t + in.h, in.state.q + x.segment(0, d), x.segment(d, d), Vector(d),
               x.segment(2 * d, system_.num_multipliers()) / in.h};
    calc_momentum(system_, next.q, next.v, next.p);
    return next;
  }
  /// H = 1/2 v.M v + V(q).
  double conserved_energy(const State& state) const {
    return kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
  }
  std::string row_label(int field, Index i) const;

  TermShape shape(const Inertia&) const {  // M/h, -M/2, M: constant (M/h rewritten for a new h)
    return TermShape{q, u}
        .block(q, q, Pattern::mass, true)
        .block(q, u, Pattern::mass, true)
        .block(u, u, Pattern::mass, true);
  }
  /// The force elements act in the momentum balance R_u, as functions of q1.
  TermShape shape(const Potential&) const { return TermShape{u, q}.block(u, q); }
  TermShape shape(const Constraint& e) const {
    const bool linear = e.nonlinearity() == Nonlinearity::linear;  // then every G is L, constant
    TermShape s{q, u, mu, gamma};
    s.block(q, gamma, Pattern::jacobian_transpose, linear)
        .block(u, mu, Pattern::jacobian_transpose, linear)
        .block(mu, q, Pattern::jacobian, linear)
        .block(gamma, u, Pattern::jacobian, linear);
    if (linear) return s;
    return s.block(q, q, Pattern::hessian)
        .block(u, q, Pattern::hessian)
        .block(u, u, Pattern::hessian)
        .block(u, gamma, Pattern::jacobian_transpose)
        .block(gamma, q, Pattern::jacobian);
  }
  TermShape shape(const Dissipation&) const { return TermShape{u, q}.block(u, q); }
  TermShape shape(const ExternalLoad&) const { return TermShape{u, q}.block(u, q); }

  void evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const;

  const System& system_;
};

EmGglScheme::EmGglScheme(const System& system, const StepperOptions& options) : system_(system) {
  require_unsymmetric_capable_solver(name, options.solver);
  require_quadratic_constraints(name, system);
  require_one_inertia_per_coordinate(name, system);
  invert_masses(name, system);  // refuses singular or configuration-dependent M
}

std::string EmGglScheme::row_label(int field, Index i) const {
  switch (field) {
    case q: return "position update of coordinate " + system_.coordinate_label(i);
    case u: return "momentum balance of coordinate " + system_.coordinate_label(i);
    case mu: return system_.multiplier_label(i) + ", position level g(q1)";
    default: return system_.multiplier_label(i) + ", velocity level G(q1) v1";
  }
}

/// R_q += M (dq/h - u_mid),  R_u += M (u1 - u0); scales: the terms; floors: max|M| eps ell/|h|
/// (steppers/row_scale.hpp).
void EmGglScheme::evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  const SparseEntries& M = *t.mass();
  const LocalVector dq = t.coordinates(it.dq, dq_slot);
  const LocalVector u0 = t.coordinates(it.in.state.v, u0_slot), u1 = t.coordinates(it.u1, u1_slot);
  const double rounding = rounding_velocity(t.coordinates(it.q1, q1_slot), it.in.h);
  auto R_q = out.residual(q), R_u = out.residual(u);
  auto S_q = out.scale(q), S_u = out.scale(u);
  double largest = 0.0;
  for (const Nonzero& e : M.entries()) {
    R_q(e.row) += e.value * (dq(e.col) / it.in.h - 0.5 * (u0(e.col) + u1(e.col)));
    R_u(e.row) += e.value * (u1(e.col) - u0(e.col));
    const double M_abs = std::abs(e.value), u0_abs = std::abs(u0(e.col)), u1_abs = std::abs(u1(e.col));
    S_q(e.row) += M_abs * (std::abs(dq(e.col)) / std::abs(it.in.h) + 0.5 * (u0_abs + u1_abs));
    S_u(e.row) += M_abs * (u0_abs + u1_abs);
    largest = std::max(largest, M_abs);
  }
  out.floor(q).setConstant(largest * rounding);
  out.floor(u).setConstant(largest * rounding);
  if (!out.with_matrix()) return;
  M.add_to(1.0 / it.in.h, out.block(q, q));
  M.add_to(-0.5, out.block(q, u));
  M.add_to(1.0, out.block(u, u));
}

/// R_u += h Dbar V(q0, q1);  K_uq += h d/dq1 Dbar V.
void EmGglScheme::evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  t.element().add_discrete_gradient(q0, q1, it.in.h, out.residual(u));
  if (out.with_matrix()) t.element().add_discrete_gradient_jacobian(q0, q1, it.in.h, out.block(u, q));
}

/// R_q -= G_mid^T gamma,  R_u += G_mid^T mu + h H(gamma) u_mid,  R_g = g(q1),  R_gv = G(q1) u1;
/// scales of R_g and R_gv: steppers/row_scale.hpp.
void EmGglScheme::evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  const QuadraticFormView& g = *t.form();
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector q_mid = t.midpoint(q0, q1, mid_slot);
  const LocalVector u1 = t.coordinates(it.u1, u1_slot);
  const LocalVector u_mid = t.midpoint(t.coordinates(it.in.state.v, u0_slot), u1, u_mid_slot);
  const LocalVector mu_local = t.multipliers(it.mu), gamma_local = t.multipliers(it.gamma);
  g.add_jacobian_transpose_product(q_mid, gamma_local, -1.0, out.residual(q));
  auto R_u = out.residual(u);
  g.add_jacobian_transpose_product(q_mid, mu_local, 1.0, R_u);
  for (Index k = 0; k < t.equations(); ++k)
    for (const Nonzero& e : g.hessian(k)) R_u(e.row) += h * gamma_local(k) * e.value * u_mid(e.col);
  g.calc_value(q1, out.residual(mu));
  g.add_jacobian_product(q1, u1, 1.0, out.residual(gamma));
  add_position_constraint_scale(g, q1, out.scale(mu), out.floor(mu));
  add_velocity_constraint_scale(g, q1, u1, q1, h, out.scale(gamma), out.floor(gamma));
  if (!out.with_matrix()) return;
  g.add_jacobian(q_mid, -1.0, out.block(q, gamma).transpose());
  g.add_jacobian(q_mid, 1.0, out.block(u, mu).transpose());
  g.add_jacobian(q1, 1.0, out.block(mu, q));
  g.add_jacobian(q1, 1.0, out.block(gamma, u));
  if (g.is_linear()) return;
  g.add_hessian_contraction(gamma_local, -0.5, out.block(q, q));
  g.add_hessian_contraction(mu_local, 0.5, out.block(u, q));
  g.add_hessian_contraction(gamma_local, 0.5 * h, out.block(u, u));
  g.add_hessians_times(u_mid, h, out.block(u, gamma));
  g.add_hessians_times(u1, 1.0, out.block(gamma, q).transpose());
}

/// The midpoint force terms (steppers/midpoint_forces.hpp), in the momentum balance R_u.
void EmGglScheme::evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const {
  add_midpoint_damping(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}, u, q, out);
}
void EmGglScheme::evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const {
  add_midpoint_load(t, it, {q0_slot, q1_slot, mid_slot, dq_slot}, u, q, out);
}

template class SchemeStepper<EmGglScheme>;

}  // namespace noether

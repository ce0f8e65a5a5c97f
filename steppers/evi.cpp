#include <noether/steppers/evi.hpp>

#include <Eigen/Cholesky>
#include <array>
#include <cmath>
#include <numbers>

#include <noether/engine/format.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/steppers/exponential_interpolation.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/row_scale.hpp>
#include <noether/steppers/scheme_stepper_impl.hpp>

namespace noether {

/// The equations of evi.hpp, as kernels: x = (dq, mu), rows (R_q, R_g). A node j of the step has
/// q^j = g1 q0 + g2 q1 and h v^j = g2_rate dq + sum_rate q0 (InterpolationNode).
struct ExponentialScheme {
  static constexpr std::string_view name = "evi";
  static constexpr std::array parameters{
      SchemeParameter{"S", 2, "quadrature points per step: 1 (midpoint) or 2 to 64 (Gauss-Lobatto, end points included)"},
      SchemeParameter{"omega", 0, "frequency of the exponential interpolation, u = omega h, >= 0 (0: linear)"}};
  static constexpr bool warm_start = true;
  enum Field { dq, mu };
  static constexpr std::array fields{FieldKind::coordinates, FieldKind::multipliers};
  enum Slot { q0_slot, q1_slot, dq_slot, node_q_slot, node_v_slot, jacobian_slot, workspace_slots };

  /// The nodes of the step being solved and q1 = q0 + dq of the current iterate (d).
  struct Data {
    double h = 0.0;
    std::vector<InterpolationNode> nodes;
    Vector q1;
  };
  struct Iterate {
    const StepInput& in;
    LocalVector dq, mu;  ///< the fields of x
    const Vector& q1;
    const std::vector<InterpolationNode>& nodes;
  };

  ExponentialScheme(const System& system, const StepperOptions& options);

  Iterate iterate(const StepInput& in, ConstVectorRef x, Data& data) const {
    const Index d = system_.num_coordinates();
    if (data.h != in.h || data.nodes.empty()) {
      data.nodes = nodes(in.h);
      data.h = in.h;
    }
    data.q1.resize(d);
    for_each_index_range(d, [&](Index begin, Index end) {
      data.q1.segment(begin, end - begin) = in.state.q.segment(begin, end - begin) + x.segment(begin, end - begin);
    });
    return {in, segment_view(x, 0, d), segment_view(x, d, system_.num_multipliers()), data.q1, data.nodes};
  }
  /// R_q's -p0.
  void add_step_rows(const StepInput& in, VectorRef rows) const { rows.head(system_.num_coordinates()) = -in.state.p; }
  /// dq = h (v0 + v1)/2, mu = h lambda (v1 and lambda from the warm start). Throws
  /// std::invalid_argument when |omega h| >= pi.
  Vector initial_guess(const StepInput& in, const StepGuess& guess) const;
  State next_state(const StepInput& in, ConstVectorRef x, const SchemeAssembly<ExponentialScheme>& assembly) const;
  /// H = p.v - T(q, v) + V(q), = 1/2 p.M^{-1} p + V for the states the scheme makes (v = M^{-1} p).
  double conserved_energy(const State& state) const;
  std::string row_label(int field, Index i) const {
    return field == dq ? "discrete Euler-Lagrange equation of coordinate " + system_.coordinate_label(i)
                       : system_.multiplier_label(i) + ", position level g(q1)";
  }

  TermShape shape(const Inertia& e) const {  // constant M: sum_j w_j h g1'_j g2'_j M, constant with h
    return TermShape{dq}.block(dq, dq, Pattern::mass, e.has_constant_mass());
  }
  TermShape shape(const Potential& e) const {
    return e.nonlinearity() == Nonlinearity::linear ? TermShape{dq} : TermShape{dq}.block(dq, dq);
  }
  TermShape shape(const Constraint& e) const {  // G(q0)^T is constant during a step, G when linear
    const bool linear = e.nonlinearity() == Nonlinearity::linear;
    return TermShape{dq, mu}
        .block(dq, mu, Pattern::jacobian_transpose, linear)
        .block(mu, dq, Pattern::jacobian, linear);
  }
  TermShape shape(const Dissipation&) const { return TermShape{dq}.block(dq, dq); }
  TermShape shape(const ExternalLoad&) const { return TermShape{dq}.block(dq, dq); }

  void evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const;

  /// The interpolation at the nodes for a step of h.
  std::vector<InterpolationNode> nodes(double h) const { return exponential_interpolation(rule_, omega_ * h); }

  const System& system_;
  QuadratureRule rule_;
  double omega_;
};

namespace {

/// The rule of S points (evi.hpp): the midpoint for S = 1, Gauss-Lobatto for S >= 2.
QuadratureRule quadrature_of(double points) {
  if (points == 1.0) return {{0.5}, {1.0}};
  if (!(points >= 2.0 && points <= 64.0 && points == std::floor(points))) {
    std::string message = "evi: S (quadrature points per step) must be a whole number from 1 to 64, got ";
    message += format_number(points);
    throw std::invalid_argument(message);
  }
  return lobatto_rule(static_cast<int>(points));
}

double checked_frequency(double omega) {
  if (!(std::isfinite(omega) && omega >= 0.0)) {
    std::string message = "evi: omega (the interpolation's frequency) must be finite and >= 0, got ";
    message += format_number(omega);
    throw std::invalid_argument(message);
  }
  return omega;
}

/// q^j = g1 q0 + g2 q1 of a term at a node, in workspace slot node_q_slot.
template <class T>
LocalVector node_configuration(const T& term, const LocalVector& q0, const LocalVector& q1,
                               const InterpolationNode& node) {
  Eigen::Map<Vector> q = term.workspace().vector(ExponentialScheme::node_q_slot, term.size());
  q = node.g1 * q0 + node.g2 * q1;
  return {q.data(), q.size()};
}

/// q^j and v^j = (g2_rate dq + sum_rate q0)/h of a term at a node (slots node_q_slot, node_v_slot).
struct NodeState {
  LocalVector q, v;
};
template <class T>
NodeState node_state(const T& term, const LocalVector& q0, const LocalVector& q1, const LocalVector& dq,
                     const InterpolationNode& node, double h) {
  Eigen::Map<Vector> v = term.workspace().vector(ExponentialScheme::node_v_slot, term.size());
  v = (node.g2_rate / h) * dq + (node.sum_rate / h) * q0;
  return {node_configuration(term, q0, q1, node), LocalVector(v.data(), v.size())};
}

/// next.v = M(q1)^{-1} next.p at an inertia term's coordinates. Throws StepperRefusal when M(q1)
/// is singular (LDLT pivots below 1e-12 of the largest, as invert_mass).
void solve_velocity(const InertiaTerm& t, State& next) {
  const Index n = t.size();
  if (n == 0) return;
  Matrix M = Matrix::Zero(n, n);
  t.element().add_mass_matrix(t.coordinates(next.q, ExponentialScheme::q1_slot), 1.0, M);
  const Eigen::LDLT<Matrix> ldlt(M);
  const Vector pivots = ldlt.vectorD();
  if (ldlt.info() != Eigen::Success || (pivots.array() <= 1e-12 * pivots.cwiseAbs().maxCoeff()).any()) {
    std::string message = "evi needs an invertible mass matrix for v = M(q)^-1 p, but inertia '";
    message += t.element().name();
    message += "' is singular or indefinite at t = ";
    message += format_number(next.t);
    message += "; use livens-em, which never inverts M";
    throw StepperRefusal(message);
  }
  t.add_at_coordinates(ldlt.solve(Vector(t.coordinates(next.p, ExponentialScheme::node_v_slot))), next.v);
}

}  // namespace

ExponentialScheme::ExponentialScheme(const System& system, const StepperOptions& options)
    : system_(system), rule_(quadrature_of(scheme_parameter(options, parameters[0]))),
      omega_(checked_frequency(scheme_parameter(options, parameters[1]))) {
  require_unsymmetric_capable_solver(name, options.solver);
  require_one_inertia_per_coordinate(name, system);
  for (const Placed<Inertia>& e : system.inertias())
    if (e.element->has_constant_mass()) invert_mass(name, *e.element);
}

Vector ExponentialScheme::initial_guess(const StepInput& in, const StepGuess& guess) const {
  if (!(std::abs(omega_ * in.h) < std::numbers::pi)) {
    std::string message = "evi: the interpolation needs |omega h| < pi (sin(omega h) != 0), got omega = ";
    message += format_number(omega_);
    message += " and h = ";
    message += format_number(in.h);
    message += "; take |h| < pi/omega = ";
    message += format_number(std::numbers::pi / omega_);
    message += " or a smaller omega";
    throw std::invalid_argument(message);
  }
  Vector x(system_.num_coordinates() + system_.num_multipliers());
  x << 0.5 * in.h * (in.state.v + guess.v1), in.h * guess.lambda;
  return x;
}

double ExponentialScheme::conserved_energy(const State& state) const {
  return state.p.dot(state.v) - kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
}

/// Constant M: R_q += -sum_j w_j h g1'_j M v^j = M (c_dq dq + c_q0 q0)/h with c_dq = -sum_j w_j
/// g1_rate_j g2_rate_j (1 for omega = 0) and c_q0 = -sum_j w_j g1_rate_j sum_rate_j (0 for omega = 0);
/// K = c_dq/h M. Scale: the terms; floor: max|M| eps ell/|h| (steppers/row_scale.hpp).
/// M(q): R_q += -sum_j w_j (h g1_j dT/dq + g1_rate_j dT/dv)(q^j, v^j), K = its derivative in dq
/// (dq^j/ddq = g2_j, dv^j/ddq = g2_rate_j/h) from the Hessian of T.
void ExponentialScheme::evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  auto R = out.residual(dq);
  auto scale = out.scale(dq);
  const double rounding = rounding_velocity(q1, h);
  if (const SparseEntries* M = t.mass()) {
    double c_dq = 0.0, c_q0 = 0.0, largest = 0.0;
    for (const InterpolationNode& n : it.nodes) {
      c_dq -= n.weight * n.g1_rate * n.g2_rate;
      c_q0 -= n.weight * n.g1_rate * n.sum_rate;
    }
    for (const Nonzero& e : M->entries()) {
      const double from_dq = e.value * c_dq / h * dq_local(e.col), from_q0 = e.value * c_q0 / h * q0(e.col);
      R(e.row) += from_dq + from_q0;
      scale(e.row) += std::abs(from_dq) + std::abs(from_q0);
      largest = std::max(largest, std::abs(e.value));
    }
    out.floor(dq).setConstant(largest * rounding);
    if (out.with_matrix()) M->add_to(c_dq / h, out.block(dq, dq));
    return;
  }
  const Index n = t.size();
  Vector grad_q(n), grad_v(n);
  Matrix hessian(2 * n, 2 * n);
  for (const InterpolationNode& node : it.nodes) {
    const NodeState at = node_state(t, q0, q1, dq_local, node, h);
    grad_q.setZero();
    grad_v.setZero();
    t.element().add_kinetic_gradient(at.q, at.v, 1.0, grad_q, grad_v);
    R -= node.weight * (h * node.g1 * grad_q + node.g1_rate * grad_v);
    scale += node.weight * (h * std::abs(node.g1) * grad_q.cwiseAbs() + std::abs(node.g1_rate) * grad_v.cwiseAbs());
    if (!out.with_matrix()) continue;
    hessian.setZero();
    t.element().add_kinetic_hessian(at.q, at.v, 1.0, hessian);
    const auto d_grad_q = node.g2 * hessian.topLeftCorner(n, n) + node.g2_rate / h * hessian.topRightCorner(n, n);
    const auto d_grad_v = node.g2 * hessian.bottomLeftCorner(n, n) + node.g2_rate / h * hessian.bottomRightCorner(n, n);
    out.block(dq, dq) -= node.weight * (h * node.g1 * d_grad_q + node.g1_rate * d_grad_v);
  }
  Matrix M1 = Matrix::Zero(n, n);
  t.element().add_mass_matrix(q1, 1.0, M1);
  out.floor(dq).setConstant(M1.cwiseAbs().maxCoeff() * rounding);
}

/// R_q += h sum_j w_j g1_j DV(q^j);  K += h sum_j w_j g1_j g2_j D^2 V(q^j) (none for linear V).
void ExponentialScheme::evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  const bool linear = t.element().nonlinearity() == Nonlinearity::linear;
  for (const InterpolationNode& node : it.nodes) {
    if (node.g1 == 0.0) continue;  // the node tau = 1
    const NodeState at = node_state(t, q0, q1, dq_local, node, h);
    t.element().add_gradient(at.q, h * node.weight * node.g1, out.residual(dq));
    if (out.with_matrix() && !linear) t.element().add_hessian(at.q, h * node.weight * node.g1 * node.g2, out.block(dq, dq));
  }
}

/// R_q += G(q0)^T mu, R_g = g(q1); blocks G(q0)^T and G(q1). Exact form: from it, with the scale
/// and floor of g(q1) of steppers/row_scale.hpp. General: from the element, scale |G(q1)| |q1|,
/// floor eps |G(q1)| ell.
void ExponentialScheme::evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector mu_local = t.multipliers(it.mu);
  if (const QuadraticFormView* g = t.form()) {
    g->add_jacobian_transpose_product(q0, mu_local, 1.0, out.residual(dq));
    g->calc_value(q1, out.residual(mu));
    add_position_constraint_scale(*g, q1, out.scale(mu), out.floor(mu));
    if (!out.with_matrix()) return;
    g->add_jacobian(q0, 1.0, out.block(dq, mu).transpose());
    g->add_jacobian(q1, 1.0, out.block(mu, dq));
    return;
  }
  Eigen::Map<Matrix> G = t.workspace().matrix(jacobian_slot, t.equations(), t.size());
  t.element().calc_jacobian(q0, G);
  out.residual(dq).noalias() += G.transpose() * mu_local;
  if (out.with_matrix()) out.block(dq, mu) = G.transpose();
  t.element().calc_jacobian(q1, G);
  t.element().calc_value(q1, out.residual(mu));
  out.scale(mu).noalias() = G.cwiseAbs() * q1.cwiseAbs();
  out.floor(mu) = G.cwiseAbs().rowwise().sum() * (kRoundingError * coordinate_size(q1));
  if (out.with_matrix()) out.block(mu, dq) = G;
}

/// R_q += h sum_j w_j g1_j C(q^j) v^j;  K += sum_j w_j g1_j (g2_rate_j C(q^j) + h g2_j d(C v)/dq).
void ExponentialScheme::evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  for (const InterpolationNode& node : it.nodes) {
    if (node.g1 == 0.0) continue;  // the node tau = 1
    const NodeState at = node_state(t, q0, q1, dq_local, node, h);
    t.element().add_damping_force(at.q, at.v, h * node.weight * node.g1, out.residual(dq));
    if (!out.with_matrix()) continue;
    t.element().add_damping_matrix(at.q, node.weight * node.g1 * node.g2_rate, out.block(dq, dq));
    t.element().add_damping_force_q_jacobian(at.q, at.v, h * node.weight * node.g1 * node.g2, out.block(dq, dq));
  }
}

/// R_q -= h sum_j w_j g1_j f(t^j, q^j);  K -= h sum_j w_j g1_j g2_j df/dq, t^j = t0 + tau_j h.
void ExponentialScheme::evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  for (const InterpolationNode& node : it.nodes) {
    if (node.g1 == 0.0) continue;  // the node tau = 1
    const NodeState at = node_state(t, q0, q1, dq_local, node, h);
    const double t_node = it.in.state.t + node.tau * h;
    t.element().add_generalized_force(t_node, at.q, -h * node.weight * node.g1, out.residual(dq));
    if (out.with_matrix())
      t.element().add_generalized_force_q_jacobian(t_node, at.q, -h * node.weight * node.g1 * node.g2,
                                                    out.block(dq, dq));
  }
}

/// p1 = D_2 L_d + f_d^+, term by term at the nodes of the step:
///   inertia   sum_j w_j (h g2_j dT/dq + g2_rate_j dT/dv)(q^j, v^j)   (constant M: M (p_dq dq + p_q0 q0)/h)
///   potential -h sum_j w_j g2_j DV(q^j),   damper -h sum_j w_j g2_j C(q^j) v^j,   load h sum_j w_j g2_j f(t^j, q^j);
/// then v1 = M(q1)^{-1} p1 per inertia element, lambda = mu/h.
State ExponentialScheme::next_state(const StepInput& in, ConstVectorRef x,
                                    const SchemeAssembly<ExponentialScheme>& assembly) const {
  const Index d = system_.num_coordinates();
  const double h = in.h;
  const std::vector<InterpolationNode> step_nodes = nodes(h);
  const Vector dq_field = x.head(d);
  State next{in.state.step + 1, in.state.t + h, in.state.q + dq_field, Vector::Zero(d), Vector::Zero(d),
             x.tail(system_.num_multipliers()) / h};
  assembly.for_each(TermKind::inertia, [&](const InertiaTerm& t) {
    const LocalVector q0 = t.coordinates(in.state.q, q0_slot), q1 = t.coordinates(next.q, q1_slot);
    const LocalVector dq_local = t.coordinates(dq_field, dq_slot);
    const Index n = t.size();
    Vector p1 = Vector::Zero(n), grad_q(n), grad_v(n);
    for (const InterpolationNode& node : step_nodes) {
      const NodeState at = node_state(t, q0, q1, dq_local, node, h);
      grad_q.setZero();
      grad_v.setZero();
      t.element().add_kinetic_gradient(at.q, at.v, 1.0, grad_q, grad_v);
      p1 += node.weight * (h * node.g2 * grad_q + node.g2_rate * grad_v);
    }
    t.add_at_coordinates(p1, next.p);
  });
  assembly.for_each(TermKind::potential, [&](const PotentialTerm& t) {
    const LocalVector q0 = t.coordinates(in.state.q, q0_slot), q1 = t.coordinates(next.q, q1_slot);
    Vector p1 = Vector::Zero(t.size());
    for (const InterpolationNode& node : step_nodes)
      if (node.g2 != 0.0) t.element().add_gradient(node_configuration(t, q0, q1, node), -h * node.weight * node.g2, p1);
    t.add_at_coordinates(p1, next.p);
  });
  assembly.for_each(TermKind::dissipation, [&](const DissipationTerm& t) {
    const LocalVector q0 = t.coordinates(in.state.q, q0_slot), q1 = t.coordinates(next.q, q1_slot);
    const LocalVector dq_local = t.coordinates(dq_field, dq_slot);
    Vector p1 = Vector::Zero(t.size());
    for (const InterpolationNode& node : step_nodes) {
      const NodeState at = node_state(t, q0, q1, dq_local, node, h);
      if (node.g2 != 0.0) t.element().add_damping_force(at.q, at.v, -h * node.weight * node.g2, p1);
    }
    t.add_at_coordinates(p1, next.p);
  });
  assembly.for_each(TermKind::load, [&](const LoadTerm& t) {
    const LocalVector q0 = t.coordinates(in.state.q, q0_slot), q1 = t.coordinates(next.q, q1_slot);
    Vector p1 = Vector::Zero(t.size());
    for (const InterpolationNode& node : step_nodes)
      if (node.g2 != 0.0)
        t.element().add_generalized_force(in.state.t + node.tau * h, node_configuration(t, q0, q1, node),
                                          h * node.weight * node.g2, p1);
    t.add_at_coordinates(p1, next.p);
  });
  assembly.for_each(TermKind::inertia, [&](const InertiaTerm& t) { solve_velocity(t, next); });
  return next;
}

std::span<const SchemeParameter> evi_parameters() { return ExponentialScheme::parameters; }

template class SchemeStepper<ExponentialScheme>;

}  // namespace noether

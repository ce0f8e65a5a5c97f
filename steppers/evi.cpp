#include <noether/steppers/evi.hpp>

#include <array>
#include <cmath>
#include <numbers>

#include <noether/engine/format.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/steppers/exponential_interpolation.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/rattle_constraint.hpp>
#include <noether/steppers/midpoint_forces.hpp>
#include <noether/steppers/row_scale.hpp>
#include <noether/steppers/scheme_stepper_impl.hpp>

namespace noether {

/// The equations of evi.hpp, as kernels: x = (dq, v1, mu, nu), rows (R_q, R_p, R_g, R_nu). A
/// node j of the step has q^j = g1 q0 + g2 q1 and h v^j = g2_rate dq + sum_rate q0
/// (InterpolationNode); R_q takes the node terms weighted by g1 (D_1), R_p by g2 (D_2).
struct ExponentialScheme {
  static constexpr std::string_view name = "evi";
  static constexpr std::array parameters{
      SchemeParameter{"S", 2, "quadrature points per step: 1 (midpoint) or 2 to 64 (Gauss-Lobatto, end points included)"},
      SchemeParameter{"omega", 0, "frequency of the exponential interpolation, u = omega h, >= 0 (0: linear)"}};
  static constexpr SchemeTraits traits{
      .order = 2, .parameters = parameters, .warm_start = true, .rheonomic_constraints = true};
  enum Field { dq, v1, mu, nu };
  static constexpr std::array fields{FieldKind::coordinates, FieldKind::coordinates, FieldKind::multipliers,
                                     FieldKind::multipliers};
  enum Slot { q0_slot, q1_slot, dq_slot, v1_slot, node_q_slot, node_v_slot, gradient_slot, jacobian_slot,
              workspace_slots };

  /// The nodes of the step being solved and q1 = q0 + dq of the current iterate (d).
  struct Data {
    double h = 0.0;
    std::vector<InterpolationNode> nodes;
    Vector q1;
  };
  struct Iterate {
    const StepInput& in;
    LocalVector dq, v1, mu, nu;  ///< the fields of x
    const Vector& q1;
    const std::vector<InterpolationNode>& nodes;
  };

  /// stepper: the name the refusals give (MidpointScheme's for it).
  ExponentialScheme(const System& system, const StepperOptions& options, std::string_view stepper = name);

  Iterate iterate(const StepInput& in, ConstVectorRef x, Data& data) const {
    const Index d = system_.num_coordinates(), m = system_.num_multipliers();
    if (data.h != in.h || data.nodes.empty()) {
      data.nodes = exponential_interpolation(rule_, omega_ * in.h);
      data.h = in.h;
    }
    data.q1.resize(d);
    for_each_index_range(d, [&](Index begin, Index end) {
      data.q1.segment(begin, end - begin) = in.state.q.segment(begin, end - begin) + x.segment(begin, end - begin);
    });
    return {in, segment_view(x, 0, d), segment_view(x, d, d), segment_view(x, 2 * d, m), segment_view(x, 2 * d + m, m),
            data.q1, data.nodes};
  }
  /// R_q's -p0.
  void add_step_rows(const StepInput& in, VectorRef rows) const { rows.head(system_.num_coordinates()) = -in.state.p; }
  /// dq = h (v0 + v1)/2, v1, mu = h lambda (v1 and lambda from the warm start), nu = 0. Throws
  /// std::invalid_argument when |omega h| >= pi.
  Vector initial_guess(const StepInput& in, const StepGuess& guess) const;
  /// q = q0 + dq, v = v1, p = M(q1) v1, lambda = mu / h.
  template <class Assembly>
  State next_state(const StepInput& in, ConstVectorRef x, const Assembly&) const {
    const Index d = system_.num_coordinates();
    State next{in.state.step + 1, in.state.t + in.h, in.state.q + x.head(d), x.segment(d, d), Vector(d),
               x.segment(2 * d, system_.num_multipliers()) / in.h};
    calc_momentum(system_, next.q, next.v, next.p);
    return next;
  }
  /// H = p.v - T(q, v) + V(q), = 1/2 v.M v + V for the states the scheme makes (p = M v).
  double conserved_energy(const State& state) const {
    return state.p.dot(state.v) - kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
  }
  std::string row_label(int field, Index i) const;

  TermShape shape(const Inertia& e) const {  // constant M: the four blocks are constant for a given h
    const bool constant = e.has_constant_mass();
    return TermShape{dq, v1}
        .block(dq, dq, Pattern::mass, constant)
        .block(v1, dq, Pattern::mass, constant)
        .block(v1, v1, Pattern::mass, constant);
  }
  /// Constraints and forces: the shapes of rattle_constraint.hpp.
  template <class Element>
  TermShape shape(const Element& e) const {
    return rattle_shape(e, {dq, v1, mu, nu});
  }

  void evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ActuatorTerm& t, const Iterate& it, TermOutput& out) const;
  /// The midpoint rule's work of the forces (midpoint_forces.hpp): not the work of this scheme's
  /// S-point forcing, so the energy balance's residual is its energy error (StepReport::work).
  double work(const DissipationTerm& t, const Iterate& it) const {
    return midpoint_work(t, it, {q0_slot, q1_slot, node_q_slot, dq_slot});
  }
  double work(const LoadTerm& t, const Iterate& it) const { return midpoint_work(t, it, {q0_slot, q1_slot, node_q_slot, dq_slot}); }
  /// A rheonomic constraint's: its impulses' work (rattle_constraint_work).
  double work(const ConstraintTerm& t, const Iterate& it) const {
    return rattle_constraint_work(t, it.in.state.q, it.q1, it.mu, it.nu, it.in.state.t, it.in.state.t + it.in.h,
                                  {q0_slot, q1_slot, v1_slot, jacobian_slot});
  }
  /// An actuator's own work over the step, F.(q1 - q0) (engine/actuator.hpp).
  double work(const ActuatorTerm& t, const Iterate& it) const {
    return step_actuator_work(t, it, {q0_slot, q1_slot, node_q_slot, dq_slot});
  }
  void evaluate_general_inertia(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;

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
    message += format_exact(points);
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

/// The largest h > 0 with omega h < pi in floating point (omega > 0): pi/omega, or the doubles just below
/// it where omega (pi/omega) rounds to pi or above.
double largest_step(double omega) {
  double h = std::numbers::pi / omega;
  while (!(omega * h < std::numbers::pi)) h = std::nextafter(h, 0.0);
  return h;
}

}  // namespace

ExponentialScheme::ExponentialScheme(const System& system, const StepperOptions& options, std::string_view stepper)
    : system_(system), rule_(quadrature_of(scheme_parameter(options, parameters[0]))),
      omega_(checked_frequency(scheme_parameter(options, parameters[1]))) {
  require_unsymmetric_capable_solver(stepper, options.solver);
  require_one_inertia_per_coordinate(stepper, system, options);
  for (const Placed<Inertia>& e : system.inertias())
    if (e.element->has_constant_mass()) invert_mass(stepper, *e.element);
}

Vector ExponentialScheme::initial_guess(const StepInput& in, const StepGuess& guess) const {
  if (!(std::abs(omega_ * in.h) < std::numbers::pi)) {
    std::string message = "evi: the interpolation needs |omega h| < pi (sin(omega h) != 0), got omega = ";
    message += format_exact(omega_);
    message += " and h = ";
    message += format_exact(in.h);
    message += "; take |h| < pi/omega, strictly: |h| <= ";
    message += format_exact(largest_step(omega_));
    message += ", or a smaller omega";
    throw std::invalid_argument(message);
  }
  const Index m = system_.num_multipliers();
  Vector x(2 * system_.num_coordinates() + 2 * m);
  x << 0.5 * in.h * (in.state.v + guess.v1), guess.v1, in.h * guess.lambda, Vector::Zero(m);
  return x;
}

std::string ExponentialScheme::row_label(int field, Index i) const {
  return rattle_row_label(system_, {dq, v1, mu, nu}, field, i);
}

/// Constant M, with c_ab = sum_j w_j a_j b_j over the nodes:
///   R_q += M (c_dq dq + c_q0 q0)/h,   c_dq = -c(g1_rate, g2_rate) (1 for omega = 0), c_q0 = -c(g1_rate, sum_rate) (0);
///   R_p += M v1 - M (p_dq dq + p_q0 q0)/h,   p_dq = c(g2_rate, g2_rate) (1), p_q0 = c(g2_rate, sum_rate) (0);
/// blocks c_dq/h M, -p_dq/h M and M. Scales: the terms; floors: max|M| eps ell/|h| (row_scale.hpp).
/// M(q): the node sums of dT/dq and dT/dv (evaluate_general_inertia).
void ExponentialScheme::evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  const SparseEntries* M = t.mass();
  if (!M) return evaluate_general_inertia(t, it, out);
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot), v1_local = t.coordinates(it.v1, v1_slot);
  double c_dq = 0.0, c_q0 = 0.0, p_dq = 0.0, p_q0 = 0.0, largest = 0.0;
  for (const InterpolationNode& n : it.nodes) {
    c_dq -= n.weight * n.g1_rate * n.g2_rate;
    c_q0 -= n.weight * n.g1_rate * n.sum_rate;
    p_dq += n.weight * n.g2_rate * n.g2_rate;
    p_q0 += n.weight * n.g2_rate * n.sum_rate;
  }
  auto R_q = out.residual(dq), R_p = out.residual(v1);
  auto S_q = out.scale(dq), S_p = out.scale(v1);
  for (const Nonzero& e : M->entries()) {
    const double Mdq = e.value * dq_local(e.col) / h, Mq0 = e.value * q0(e.col) / h, Mv = e.value * v1_local(e.col);
    R_q(e.row) += c_dq * Mdq + c_q0 * Mq0;
    R_p(e.row) += Mv - p_dq * Mdq - p_q0 * Mq0;
    S_q(e.row) += std::abs(c_dq * Mdq) + std::abs(c_q0 * Mq0);
    S_p(e.row) += std::abs(Mv) + std::abs(p_dq * Mdq) + std::abs(p_q0 * Mq0);
    largest = std::max(largest, std::abs(e.value));
  }
  for (int field : {dq, v1}) out.floor(field).setConstant(largest * rounding_velocity(q1, h));
  if (!out.with_matrix()) return;
  M->add_to(c_dq / h, out.block(dq, dq));
  M->add_to(-p_dq / h, out.block(v1, dq));
  M->add_to(1.0, out.block(v1, v1));
}

/// M(q): R_q += -sum_j w_j (h g1_j dT/dq + g1_rate_j dT/dv)(q^j, v^j),
///       R_p += M(q1) v1 - sum_j w_j (h g2_j dT/dq + g2_rate_j dT/dv)(q^j, v^j),
/// blocks from the Hessian of T (dq^j/ddq = g2_j, dv^j/ddq = g2_rate_j/h; d(M(q1) v1)/dq1 its v-q block).
void ExponentialScheme::evaluate_general_inertia(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot), v1_local = t.coordinates(it.v1, v1_slot);
  const Index n = t.size();
  auto R_q = out.residual(dq), R_p = out.residual(v1);
  Vector grad_q = Vector::Zero(n), grad_v = Vector::Zero(n);
  Matrix hessian = Matrix::Zero(2 * n, 2 * n);
  t.element().add_kinetic_gradient(q1, v1_local, 1.0, grad_q, grad_v);
  R_p += grad_v;
  out.scale(v1) += grad_v.cwiseAbs();
  if (out.with_matrix()) {
    t.element().add_kinetic_hessian(q1, v1_local, 1.0, hessian);
    out.block(v1, v1) += hessian.bottomRightCorner(n, n);
    out.block(v1, dq) += hessian.bottomLeftCorner(n, n);
  }
  for (const InterpolationNode& node : it.nodes) {
    const NodeState at = node_state(t, q0, q1, dq_local, node, h);
    grad_q.setZero();
    grad_v.setZero();
    t.element().add_kinetic_gradient(at.q, at.v, 1.0, grad_q, grad_v);
    R_q -= node.weight * (h * node.g1 * grad_q + node.g1_rate * grad_v);
    R_p -= node.weight * (h * node.g2 * grad_q + node.g2_rate * grad_v);
    out.scale(dq) += node.weight * (h * std::abs(node.g1) * grad_q.cwiseAbs() + std::abs(node.g1_rate) * grad_v.cwiseAbs());
    out.scale(v1) += node.weight * (h * std::abs(node.g2) * grad_q.cwiseAbs() + std::abs(node.g2_rate) * grad_v.cwiseAbs());
    if (!out.with_matrix()) continue;
    hessian.setZero();
    t.element().add_kinetic_hessian(at.q, at.v, 1.0, hessian);
    const Matrix d_grad_q = node.g2 * hessian.topLeftCorner(n, n) + node.g2_rate / h * hessian.topRightCorner(n, n);
    const Matrix d_grad_v = node.g2 * hessian.bottomLeftCorner(n, n) + node.g2_rate / h * hessian.bottomRightCorner(n, n);
    out.block(dq, dq) -= node.weight * (h * node.g1 * d_grad_q + node.g1_rate * d_grad_v);
    out.block(v1, dq) -= node.weight * (h * node.g2 * d_grad_q + node.g2_rate * d_grad_v);
  }
  Matrix M1 = Matrix::Zero(n, n);
  t.element().add_mass_matrix(q1, 1.0, M1);
  for (int field : {dq, v1}) out.floor(field).setConstant(M1.cwiseAbs().maxCoeff() * rounding_velocity(q1, h));
}

/// R_q += h sum_j w_j g1_j DV(q^j), R_p += h sum_j w_j g2_j DV(q^j); blocks h sum_j w_j g1_j g2_j
/// D^2 V(q^j) and h sum_j w_j g2_j^2 D^2 V(q^j) (none for linear V).
void ExponentialScheme::evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const bool linear = t.element().nonlinearity() == Nonlinearity::linear;
  Eigen::Map<Vector> gradient = t.workspace().vector(gradient_slot, t.size());
  for (const InterpolationNode& node : it.nodes) {
    const LocalVector at = node_configuration(t, q0, q1, node);
    gradient.setZero();
    t.element().add_gradient(at, 1.0, gradient);
    out.residual(dq) += (h * node.weight * node.g1) * gradient;
    out.residual(v1) += (h * node.weight * node.g2) * gradient;
    if (!out.with_matrix() || linear) continue;
    if (node.g1 != 0.0) t.element().add_hessian(at, h * node.weight * node.g1 * node.g2, out.block(dq, dq));
    if (node.g2 != 0.0) t.element().add_hessian(at, h * node.weight * node.g2 * node.g2, out.block(v1, dq));
  }
}

/// The constraint rows of RATTLE (steppers/rattle_constraint.hpp).
void ExponentialScheme::evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  add_rattle_constraint(t, it.in.state.q, it.q1, it.v1, it.mu, it.nu, it.in.h, it.in.state.t,
                        it.in.state.t + it.in.h, {dq, v1, mu, nu}, {q0_slot, q1_slot, v1_slot, jacobian_slot}, out);
}

/// R_q += h sum_j w_j g1_j C(q^j) v^j and R_p += h sum_j w_j g2_j C(q^j) v^j (-f_d^-, -f_d^+ of
/// F = -C v); blocks sum_j w_j g_j (g2_rate_j C(q^j) + h g2_j d(C v)/dq), g = g1, g2.
void ExponentialScheme::evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot);
  for (const InterpolationNode& node : it.nodes) {
    const NodeState at = node_state(t, q0, q1, dq_local, node, h);
    for (const auto& [field, g] : {std::pair{dq, node.g1}, std::pair{v1, node.g2}}) {
      if (g == 0.0) continue;
      t.element().add_damping_force(at.q, at.v, h * node.weight * g, out.residual(field));
      if (!out.with_matrix()) continue;
      t.element().add_damping_matrix(at.q, node.weight * g * node.g2_rate, out.block(field, dq));
      t.element().add_damping_force_q_jacobian(at.q, at.v, h * node.weight * g * node.g2, out.block(field, dq));
    }
  }
}

/// R_q -= h sum_j w_j g1_j f(t^j, q^j) and R_p -= h sum_j w_j g2_j f(t^j, q^j), t^j = t0 + tau_j h;
/// blocks -h sum_j w_j g_j g2_j df/dq, g = g1, g2.
void ExponentialScheme::evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  for (const InterpolationNode& node : it.nodes) {
    const LocalVector at = node_configuration(t, q0, q1, node);
    const double t_node = it.in.state.t + node.tau * h;
    for (const auto& [field, g] : {std::pair{dq, node.g1}, std::pair{v1, node.g2}}) {
      if (g == 0.0) continue;
      t.element().add_generalized_force(t_node, at, -h * node.weight * g, out.residual(field));
      if (out.with_matrix())
        t.element().add_generalized_force_q_jacobian(t_node, at, -h * node.weight * g * node.g2, out.block(field, dq));
    }
  }
}

/// An actuator's step force F(q0, q1) acts over the step as a force constant in time: by
/// Lagrange-d'Alembert its forcing is R_q -= h G1 F, R_p -= h G2 F with G = sum_j w_j g_j (the
/// load's rows above with f = F at every node); blocks -h G dF/dq1.
void ExponentialScheme::evaluate(const ActuatorTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  double G1 = 0.0, G2 = 0.0;
  for (const InterpolationNode& node : it.nodes) {
    G1 += node.weight * node.g1;
    G2 += node.weight * node.g2;
  }
  const StepSpan step{it.in.state.t, h};
  for (const auto& [field, G] : {std::pair{dq, G1}, std::pair{v1, G2}}) {
    t.element().add_step_force(step, q0, q1, -h * G, out.residual(field));
    if (out.with_matrix()) t.element().add_step_force_jacobian(step, q0, q1, -h * G, out.block(field, dq));
  }
}

/// evi with S = 1 and omega = 0 (evi.hpp, MidpointVariationalIntegrator), under its own name and
/// without parameters.
struct MidpointScheme : ExponentialScheme {
  static constexpr std::string_view name = "midpoint-vi";
  static constexpr SchemeTraits traits{.order = 2, .warm_start = true, .rheonomic_constraints = true};
  MidpointScheme(const System& system, const StepperOptions& options)
      : ExponentialScheme(system, midpoint_options(options), name) {}

  static StepperOptions midpoint_options(StepperOptions options) {
    options.scheme_parameters = {{"S", 1.0}, {"omega", 0.0}};
    return options;
  }
};

template class SchemeStepper<ExponentialScheme>;
template class SchemeStepper<MidpointScheme>;

}  // namespace noether

#include <noether/steppers/lobatto4.hpp>

#include <array>
#include <cmath>

#include <noether/engine/measures.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/rattle_constraint.hpp>
#include <noether/steppers/midpoint_forces.hpp>
#include <noether/steppers/row_scale.hpp>
#include <noether/steppers/scheme_stepper_impl.hpp>

namespace noether {
namespace {

/// The three nodes of a step (c = 0, 1/2, 1) and what the scheme's equations need of them.
enum Node { start, mid, end };
constexpr std::array<double, 3> kNodeTimes{0.0, 0.5, 1.0};
/// Lobatto's (Simpson's) weights w_i.
constexpr std::array<double, 3> kWeights{1.0 / 6.0, 4.0 / 6.0, 1.0 / 6.0};
/// kSlopes[i][k] = l_k'(c_i): the slope at node i of the quadratic Lagrange basis function of node k,
/// so that h V_i = sum_k kSlopes[i][k] Q_k (each row sums to 0).
constexpr std::array<std::array<double, 3>, 3> kSlopes{{{-3.0, 4.0, -1.0}, {-1.0, 0.0, 1.0}, {1.0, -4.0, 3.0}}};

/// A_ik = sum_j w_j l_i'(c_j) l_k'(c_j): D_{Q_i} of the kinetic part of L_d is sum_k A_ik M Q_k / h
/// (A = [7 -8 1; -8 16 -8; 1 -8 7]/3).
constexpr std::array<std::array<double, 3>, 3> kKineticCoupling = [] {
  std::array<std::array<double, 3>, 3> a{};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j) a[i][k] += kWeights[j] * kSlopes[j][i] * kSlopes[j][k];
  return a;
}();

}  // namespace

/// The equations of lobatto4.hpp, as kernels: x = (dq, dq_mid, v1, mu, mu_mid, nu), rows (R_0,
/// R_mid, R_p, R_g, R_gmid, R_nu). Node i's equation is the rows of field row_field[i]; its
/// unknown, Q_i - q0, the field unknown_field[i] (dq_mid, dq; q0 is given).
struct LobattoScheme {
  static constexpr std::string_view name = "lobatto4";
  static constexpr SchemeTraits traits{.order = 4, .warm_start = true, .rheonomic_constraints = true};
  enum Field { dq, dq_mid, v1, mu, mu_mid, nu };
  static constexpr std::array fields{FieldKind::coordinates, FieldKind::coordinates, FieldKind::coordinates,
                                     FieldKind::multipliers, FieldKind::multipliers, FieldKind::multipliers};
  static constexpr std::array<int, 3> row_field{dq, dq_mid, v1};
  /// The field of node i's unknown increment Q_i - q0 (none for q0, which is given).
  static constexpr std::array<int, 3> unknown_field{-1, dq_mid, dq};
  enum Slot { q0_slot, q_mid_slot, q1_slot, dq_slot, dq_mid_slot, v1_slot, velocity_slot, jacobian_slot,
              workspace_slots };

  /// q_mid = q0 + dq_mid and q1 = q0 + dq of the current iterate (d each).
  struct Data {
    Vector q_mid, q1;
  };
  struct Iterate {
    const StepInput& in;
    LocalVector dq, dq_mid, v1, mu, mu_mid, nu;  ///< the fields of x
    const Vector& q_mid;
    const Vector& q1;
  };

  LobattoScheme(const System& system, const StepperOptions& options);

  Iterate iterate(const StepInput& in, ConstVectorRef x, Data& data) const {
    const Index d = system_.num_coordinates(), m = system_.num_multipliers();
    data.q_mid.resize(d);
    data.q1.resize(d);
    for_each_index_range(d, [&](Index begin, Index end) {
      const auto q0 = in.state.q.segment(begin, end - begin);
      data.q1.segment(begin, end - begin) = q0 + x.segment(begin, end - begin);
      data.q_mid.segment(begin, end - begin) = q0 + x.segment(d + begin, end - begin);
    });
    return {in,
            segment_view(x, 0, d),
            segment_view(x, d, d),
            segment_view(x, 2 * d, d),
            segment_view(x, 3 * d, m),
            segment_view(x, 3 * d + m, m),
            segment_view(x, 3 * d + 2 * m, m),
            data.q_mid,
            data.q1};
  }
  /// R_0's -p0.
  void add_step_rows(const StepInput& in, VectorRef rows) const { rows.head(system_.num_coordinates()) = -in.state.p; }
  /// The quadratic with q'(t0) = v0 and q'(t0 + h) = v1: dq = h (v0 + v1)/2, dq_mid = h (3 v0 + v1)/8;
  /// mu = h w_0 lambda, mu_mid = h w_mid lambda, nu = h w_1 lambda (v1 and lambda from the warm
  /// start; nu takes up the end node's share of the constraint impulse).
  Vector initial_guess(const StepInput& in, const StepGuess& guess) const {
    const Index m = system_.num_multipliers();
    const double h = in.h;
    Vector x(3 * system_.num_coordinates() + 3 * m);
    x << 0.5 * h * (in.state.v + guess.v1), 0.125 * h * (3.0 * in.state.v + guess.v1), guess.v1,
        h * kWeights[start] * guess.lambda, h * kWeights[mid] * guess.lambda, h * kWeights[end] * guess.lambda;
    return x;
  }
  /// q = q0 + dq, v = v1, p = M v1, lambda = mu_mid / (h w_mid).
  template <class Assembly>
  State next_state(const StepInput& in, ConstVectorRef x, const Assembly&) const {
    const Index d = system_.num_coordinates(), m = system_.num_multipliers();
    State next{in.state.step + 1, in.state.t + in.h, in.state.q + x.head(d), x.segment(2 * d, d), Vector(d),
               x.segment(3 * d + m, m) / (in.h * kWeights[mid])};
    calc_momentum(system_, next.q, next.v, next.p);
    return next;
  }
  /// H = 1/2 v.M v + V.
  double conserved_energy(const State& state) const {
    return kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
  }
  std::string row_label(int field, Index i) const;

  /// Constant M: every block of the inertia rows is a multiple of M, constant for a given h.
  TermShape shape(const Inertia&) const {
    TermShape s{dq, dq_mid, v1};
    for (int row : row_field) s.block(row, dq_mid, Pattern::mass, true).block(row, dq, Pattern::mass, true);
    return s.block(v1, v1, Pattern::mass, true);
  }
  /// A potential or load at node i enters row_field[i] only, through Q_i (none for linear V).
  TermShape shape(const Potential& e) const {
    if (e.nonlinearity() == Nonlinearity::linear) return TermShape{dq, dq_mid, v1};
    return TermShape{dq, dq_mid, v1}.block(dq_mid, dq_mid).block(v1, dq);
  }
  TermShape shape(const ExternalLoad&) const { return TermShape{dq, dq_mid, v1}.block(dq_mid, dq_mid).block(v1, dq); }
  /// An actuator's step force depends on q1 alone among the unknowns: every node's row has a block in dq.
  TermShape shape(const Actuator&) const {
    return TermShape{dq, dq_mid, v1}.block(dq, dq).block(dq_mid, dq).block(v1, dq);
  }
  /// A damper at node i reads V_i, which depends on both unknown nodes.
  TermShape shape(const Dissipation&) const {
    TermShape s{dq, dq_mid, v1};
    for (int row : row_field) s.block(row, dq_mid).block(row, dq);
    return s;
  }
  /// RATTLE's rows at q0 and q1 (rattle_constraint.hpp) and g(q_mid), G(q_mid)^T mu_mid.
  TermShape shape(const Constraint& e) const {
    const bool linear = e.nonlinearity() == Nonlinearity::linear;
    TermShape s = rattle_blocks(TermShape{dq, dq_mid, v1, mu, mu_mid, nu}, e, {dq, v1, mu, nu});
    s.block(dq_mid, mu_mid, Pattern::jacobian_transpose, linear).block(mu_mid, dq_mid, Pattern::jacobian, linear);
    return linear ? s : s.block(dq_mid, dq_mid, Pattern::hessian);
  }

  void evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ActuatorTerm& t, const Iterate& it, TermOutput& out) const;
  /// An actuator's own work over the step, F.(q1 - q0) (engine/actuator.hpp).
  double work(const ActuatorTerm& t, const Iterate& it) const {
    return step_actuator_work(t, it, {q0_slot, q1_slot, velocity_slot, dq_slot});
  }
  /// The midpoint rule's work of the forces (midpoint_forces.hpp): not the work of this scheme's
  /// Lobatto quadrature, so the energy balance's residual is its energy error (StepReport::work).
  double work(const DissipationTerm& t, const Iterate& it) const {
    return midpoint_work(t, it, {q0_slot, q1_slot, velocity_slot, dq_slot});
  }
  double work(const LoadTerm& t, const Iterate& it) const { return midpoint_work(t, it, {q0_slot, q1_slot, velocity_slot, dq_slot}); }
  /// A rheonomic constraint's: its impulses' work at the three nodes, mu.g_t(q0, t0) +
  /// mu_mid.g_t(q_mid, t_mid) + nu.g_t(q1, t1) (lobatto4.hpp).
  double work(const ConstraintTerm& t, const Iterate& it) const;

  /// Q_i of a term (slots q0_slot, q_mid_slot, q1_slot).
  template <class T>
  LocalVector node_configuration(const T& t, const Iterate& it, int node) const {
    if (node == start) return t.coordinates(it.in.state.q, q0_slot);
    return node == mid ? t.coordinates(it.q_mid, q_mid_slot) : t.coordinates(it.q1, q1_slot);
  }

  const System& system_;
};

LobattoScheme::LobattoScheme(const System& system, const StepperOptions& options) : system_(system) {
  require_unsymmetric_capable_solver(name, options.solver);
  require_one_inertia_per_coordinate(name, system, options);
  invert_masses(name, system);  // refuses singular or configuration-dependent M
}

std::string LobattoScheme::row_label(int field, Index i) const {
  if (field == dq_mid) return "discrete Euler-Lagrange equation of q_mid, coordinate " + system_.coordinate_label(i);
  if (field == mu_mid) return system_.multiplier_label(i) + ", position level g(q_mid)";
  return rattle_row_label(system_, {dq, v1, mu, nu}, field, i);
}

/// R_i += -(A_i,mid M dq_mid + A_i,1 M dq)/h (the q0 terms cancel: each row of A sums to 0), and
/// R_p += M v1; blocks -A_i,k/h M and M. Scales: the terms; floors: max|M| eps ell/|h| (row_scale.hpp).
void LobattoScheme::evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  const SparseEntries& M = *t.mass();
  const double h = it.in.h;
  const LocalVector q1 = t.coordinates(it.q1, q1_slot), v1_local = t.coordinates(it.v1, v1_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot), dq_mid_local = t.coordinates(it.dq_mid, dq_mid_slot);
  double largest = 0.0;
  for (int node : {start, mid, end}) {
    const double a_mid = -kKineticCoupling[node][mid] / h, a_end = -kKineticCoupling[node][end] / h;
    auto R = out.residual(row_field[node]), S = out.scale(row_field[node]);
    for (const Nonzero& e : M.entries()) {
      const double from_mid = a_mid * e.value * dq_mid_local(e.col), from_end = a_end * e.value * dq_local(e.col);
      R(e.row) += from_mid + from_end;
      S(e.row) += std::abs(from_mid) + std::abs(from_end);
    }
    if (out.with_matrix()) {
      M.add_to(a_mid, out.block(row_field[node], dq_mid));
      M.add_to(a_end, out.block(row_field[node], dq));
    }
  }
  auto R_p = out.residual(v1), S_p = out.scale(v1);
  for (const Nonzero& e : M.entries()) {
    R_p(e.row) += e.value * v1_local(e.col);
    S_p(e.row) += std::abs(e.value * v1_local(e.col));
    largest = std::max(largest, std::abs(e.value));
  }
  for (int field : row_field) out.floor(field).setConstant(largest * rounding_velocity(q1, h));
  if (out.with_matrix()) M.add_to(1.0, out.block(v1, v1));
}

/// R_i += h w_i DV(Q_i); blocks h w_mid D^2 V(q_mid) and h w_1 D^2 V(q1) (none for linear V).
void LobattoScheme::evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const bool linear = t.element().nonlinearity() == Nonlinearity::linear;
  for (int node : {start, mid, end}) {
    const LocalVector at = node_configuration(t, it, node);
    t.element().add_gradient(at, h * kWeights[node], out.residual(row_field[node]));
    if (out.with_matrix() && !linear && node != start)
      t.element().add_hessian(at, h * kWeights[node], out.block(row_field[node], unknown_field[node]));
  }
}

/// RATTLE's rows (rattle_constraint.hpp), and R_mid += G(q_mid)^T mu_mid, R_gmid = g(q_mid) with
/// their blocks G(q_mid)^T, G(q_mid) and, for a nonlinear g, sum_k mu_mid,k D^2 g_k(q_mid).
void LobattoScheme::evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
  const double t0 = it.in.state.t, t_mid = t0 + 0.5 * it.in.h;
  add_rattle_constraint(t, it.in.state.q, it.q1, it.v1, it.mu, it.nu, it.in.h, t0, t0 + it.in.h, {dq, v1, mu, nu},
                        {q0_slot, q1_slot, v1_slot, jacobian_slot}, out);
  const LocalVector q_mid = t.coordinates(it.q_mid, q_mid_slot), multipliers = t.multipliers(it.mu_mid);
  if (const QuadraticFormView* g = t.form()) {
    g->add_jacobian_transpose_product(q_mid, multipliers, 1.0, out.residual(dq_mid));
    g->calc_value(q_mid, out.residual(mu_mid));
    add_position_constraint_scale(*g, q_mid, out.scale(mu_mid), out.floor(mu_mid));
    if (!out.with_matrix()) return;
    g->add_jacobian(q_mid, 1.0, out.block(dq_mid, mu_mid).transpose());
    g->add_jacobian(q_mid, 1.0, out.block(mu_mid, dq_mid));
    if (!g->is_linear()) g->add_hessian_contraction(multipliers, 1.0, out.block(dq_mid, dq_mid));
    return;
  }
  const Constraint& c = t.element();
  Eigen::Map<Matrix> G = t.workspace().matrix(jacobian_slot, t.equations(), t.size());
  c.calc_jacobian_at(t_mid, q_mid, G);
  c.calc_value_at(t_mid, q_mid, out.residual(mu_mid));
  out.residual(dq_mid).noalias() += G.transpose() * multipliers;
  out.scale(mu_mid).noalias() = G.cwiseAbs() * q_mid.cwiseAbs();
  out.floor(mu_mid) = G.cwiseAbs().rowwise().sum() * (kRoundingError * coordinate_size(q_mid));
  if (!out.with_matrix()) return;
  out.block(dq_mid, mu_mid) = G.transpose();
  out.block(mu_mid, dq_mid) = G;
  c.add_hessian_contraction_at(t_mid, q_mid, multipliers, 1.0, out.block(dq_mid, dq_mid));
}

double LobattoScheme::work(const ConstraintTerm& t, const Iterate& it) const {
  const Constraint& c = t.element();
  if (!c.rheonomic()) return 0.0;
  const double t0 = it.in.state.t, h = it.in.h;
  Vector rate(t.equations());
  c.calc_rate(t0 + 0.5 * h, t.coordinates(it.q_mid, q_mid_slot), rate);
  return rattle_constraint_work(t, it.in.state.q, it.q1, it.mu, it.nu, t0, t0 + h,
                                {q0_slot, q1_slot, v1_slot, jacobian_slot}) +
         t.multipliers(it.mu_mid).dot(rate);
}

/// R_i += h w_i C(Q_i) V_i (-f_i of F = -C v), h V_i = l_mid'(c_i) dq_mid + l_1'(c_i) dq; blocks
/// w_i l_k'(c_i) C(Q_i) for both unknown nodes k, and h w_i d(C v)/dq(Q_i, V_i) for node i's own.
void LobattoScheme::evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot), dq_mid_local = t.coordinates(it.dq_mid, dq_mid_slot);
  Eigen::Map<Vector> velocity = t.workspace().vector(velocity_slot, t.size());
  for (int node : {start, mid, end}) {
    const int row = row_field[node];
    const LocalVector at = node_configuration(t, it, node);
    velocity = (kSlopes[node][mid] / h) * dq_mid_local + (kSlopes[node][end] / h) * dq_local;
    const LocalVector v(velocity.data(), velocity.size());
    t.element().add_damping_force(at, v, h * kWeights[node], out.residual(row));
    if (!out.with_matrix()) continue;
    t.element().add_damping_matrix(at, kWeights[node] * kSlopes[node][mid], out.block(row, dq_mid));
    t.element().add_damping_matrix(at, kWeights[node] * kSlopes[node][end], out.block(row, dq));
    if (node != start)
      t.element().add_damping_force_q_jacobian(at, v, h * kWeights[node], out.block(row, unknown_field[node]));
  }
}

/// R_i -= h w_i f(t0 + c_i h, Q_i); blocks -h w_i df/dq at the unknown nodes.
void LobattoScheme::evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  for (int node : {start, mid, end}) {
    const LocalVector at = node_configuration(t, it, node);
    const double time = it.in.state.t + kNodeTimes[node] * h;
    t.element().add_generalized_force(time, at, -h * kWeights[node], out.residual(row_field[node]));
    if (out.with_matrix() && node != start)
      t.element().add_generalized_force_q_jacobian(time, at, -h * kWeights[node],
                                                   out.block(row_field[node], unknown_field[node]));
  }
}

/// An actuator's step force F(q0, q1), constant over the step: R_i -= h w_i F at each node (the
/// load's rows with f = F); blocks -h w_i dF/dq1. A force of the whole step is a midpoint quantity,
/// so an actuated motion is second order, not fourth.
void LobattoScheme::evaluate(const ActuatorTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.in.h;
  const LocalVector q0 = t.coordinates(it.in.state.q, q0_slot), q1 = t.coordinates(it.q1, q1_slot);
  const StepSpan step{it.in.state.t, h};
  for (int node : {start, mid, end}) {
    t.element().add_step_force(step, q0, q1, -h * kWeights[node], out.residual(row_field[node]));
    if (out.with_matrix())
      t.element().add_step_force_jacobian(step, q0, q1, -h * kWeights[node], out.block(row_field[node], dq));
  }
}

template class SchemeStepper<LobattoScheme>;

}  // namespace noether

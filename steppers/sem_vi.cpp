#include <noether/steppers/sem_vi.hpp>

#include <array>
#include <cmath>

#include <noether/engine/format.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/rattle_constraint.hpp>
#include <noether/steppers/midpoint_forces.hpp>
#include <noether/steppers/row_scale.hpp>
#include <noether/steppers/scheme_stepper_impl.hpp>

namespace noether {

/// The equations of sem_vi.hpp, as kernels: x = (dq, v1, mu, nu, h), rows (R_q, R_p, R_g, R_nu,
/// R_E). Each kernel writes its rows and blocks, its column dR/dh (TermOutput::global_column) and
/// its part of R_E: the sums below and the row dR_E/d dq (TermOutput::global_row).
struct SymplecticEnergyMomentumScheme {
  static constexpr std::string_view name = "sem-vi";
  enum Field { dq, v1, mu, nu };
  static constexpr std::array fields{FieldKind::coordinates, FieldKind::coordinates, FieldKind::multipliers,
                                     FieldKind::multipliers};
  /// The border sums: R_E's terms E(q_mid, v) - 1/2 W, their derivative in h, magnitude and
  /// rounding floor, and the work W.
  enum Sum { energy, energy_rate, energy_scale, energy_floor, work_sum, sum_count };
  /// Its own step size (the global unknown, with the sums above), the tangent's condition estimated
  /// (it grows like 1/h^2), the steps that jump to another root rejected (rejection). No warm start:
  /// the extrapolation assumes equal steps. Order 2: midpoint-vi's, in the steps it takes.
  static constexpr SchemeTraits traits{.order = 2,
                                       .conserves_energy = true,
                                       .adaptive_step = true,
                                       .estimates_condition = true,
                                       .rejects_solutions = true,
                                       .global_sums = sum_count};
  enum Slot { q0_slot, q1_slot, dq_slot, v1_slot, mid_slot, velocity_slot, force_slot, jacobian_slot,
              workspace_slots };

  struct Data {
    Vector q1;
  };
  struct Iterate {
    const StepInput& in;
    LocalVector dq, v1, mu, nu;  ///< the fields of x
    double h;                    ///< the step size of the iterate (x's last entry)
    const Vector& q1;            ///< q0 + dq
  };

  SymplecticEnergyMomentumScheme(const System& system, const StepperOptions& options) : system_(system) {
    require_unsymmetric_capable_solver(name, options.solver);
    require_one_inertia_per_coordinate(name, system, options);
    for (const Placed<Inertia>& e : system.inertias())
      if (e.element->has_constant_mass()) invert_mass(name, *e.element);
  }

  Iterate iterate(const StepInput& in, ConstVectorRef x, Data& data) const {
    const Index d = system_.num_coordinates(), m = system_.num_multipliers();
    data.q1.resize(d);
    for_each_index_range(d, [&](Index begin, Index end) {
      data.q1.segment(begin, end - begin) = in.state.q.segment(begin, end - begin) + x.segment(begin, end - begin);
    });
    return {in,           segment_view(x, 0, d),     segment_view(x, d, d), segment_view(x, 2 * d, m),
            segment_view(x, 2 * d + m, m), x(2 * d + 2 * m), data.q1};
  }
  /// R_q's -p0.
  void add_step_rows(const StepInput& in, VectorRef rows) const { rows.head(system_.num_coordinates()) = -in.state.p; }
  /// dq = h v0, v1 = v0, mu = h lambda_0, nu = 0, h: the guess.
  Vector initial_guess(const StepInput& in, const StepGuess& guess) const {
    const Index m = system_.num_multipliers();
    Vector x(2 * system_.num_coordinates() + 2 * m + 1);
    x << in.h * in.state.v, guess.v1, in.h * guess.lambda, Vector::Zero(m), in.h;
    return x;
  }
  /// R_E = E(q_mid, v) - 1/2 W - E_k; in the first step (no E_k) h - h_asked.
  GlobalEquation global_equation(const StepInput& in, double h, std::span<const double> sums) const {
    const double E_k = in.state.discrete_energy;
    if (std::isnan(E_k)) return {h - in.h, 1.0, std::abs(in.h), 0.0, false};
    return {sums[energy] - E_k, sums[energy_rate], sums[energy_scale] + std::abs(E_k), sums[energy_floor], true};
  }
  std::string global_label() const {
    return "the step's discrete energy balance E(q_mid, v) - 1/2 W = E_k (sem-vi's row of h)";
  }
  /// A step whose h has not the sign of the one asked goes the wrong way in time; one more than
  /// kMaxStepRatio times the guess, or less than its inverse, has jumped to another root of the
  /// energy balance (the step size changes by a fraction of a percent per step while the motion
  /// goes on; docs/sem_vi.md, 'When a step has no solution').
  std::string rejection(const StepInput& in, ConstVectorRef x) const {
    const double h = x(x.size() - 1), ratio = h / in.h;
    if (ratio > 0.0 && ratio <= kMaxStepRatio && ratio >= 1.0 / kMaxStepRatio) return "";
    const std::string met = "the discrete energy balance is met by h = " + format_number(h);
    const std::string where = " from t = " + format_number(in.state.t) + " keeps the discrete energy " +
                              format_number(in.state.discrete_energy) +
                              " (docs/sem_vi.md, 'When a step has no solution')";
    if (ratio <= 0.0)
      return met + ", not of the sign of the first guess " + format_number(in.h) + ": no step " +
             (in.h > 0.0 ? "forward" : "back") + " in time near the guess" + where;
    return met + ", " + format_number(ratio) + " times the first guess " + format_number(in.h) +
           ": a jump to another root of the balance, not the motion's next step; no step near the guess" + where;
  }
  static constexpr double kMaxStepRatio = 4.0;
  /// q = q0 + dq, v = v1, p = M(q1) v1, lambda = mu / h, t = t0 + h, E_{k+1} = E - 1/2 W + W.
  template <class Assembly>
  State next_state(const StepInput& in, ConstVectorRef x, const Assembly&, std::span<const double> sums) const {
    const Index d = system_.num_coordinates(), m = system_.num_multipliers();
    const double h = x(2 * d + 2 * m);
    State next{in.state.step + 1, in.state.t + h, in.state.q + x.head(d), x.segment(d, d), Vector(d),
               x.segment(2 * d, m) / h, sums[energy] + sums[work_sum]};
    calc_momentum(system_, next.q, next.v, next.p);
    return next;
  }
  /// E_k, NaN before the first step.
  double conserved_energy(const State& state) const { return state.discrete_energy; }
  std::string row_label(int field, Index i) const;

  TermShape shape(const Inertia&) const {
    return TermShape{dq, v1}.block(dq, dq, Pattern::mass).block(v1, dq, Pattern::mass).block(v1, v1, Pattern::mass);
  }
  /// Constraints and forces: the shapes of rattle_constraint.hpp.
  template <class Element>
  TermShape shape(const Element& e) const {
    return rattle_shape(e, {dq, v1, mu, nu});
  }

  void evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate_general_inertia(const InertiaTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const ConstraintTerm& t, const Iterate& it, TermOutput& out) const {
    add_rattle_constraint(t, it.in.state.q, it.q1, it.v1, it.mu, it.nu, it.h, it.in.state.t, it.in.state.t + it.h,
                          {dq, v1, mu, nu}, {q0_slot, q1_slot, v1_slot, jacobian_slot}, out);
  }
  void evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const;
  void evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const;
  /// W = F_mid.dq of sem_vi.hpp, as the kernels above add it to the sum `work`.
  double work(const DissipationTerm& t, const Iterate& it) const;
  double work(const LoadTerm& t, const Iterate& it) const;

  const System& system_;
};

namespace {

using Scheme = SymplecticEnergyMomentumScheme;

/// q_mid = q0 + dq/2 of a term (workspace slot mid_slot).
template <class T>
LocalVector midpoint_of(const T& t, const Scheme::Iterate& it) {
  const LocalVector q0 = t.coordinates(it.in.state.q, Scheme::q0_slot);
  Eigen::Map<Vector> mid = t.workspace().vector(Scheme::mid_slot, t.size());
  mid = q0 + 0.5 * t.coordinates(it.dq, Scheme::dq_slot);
  return {mid.data(), mid.size()};
}

/// What a force term reads: q_mid (midpoint_of), the term's dq, and its force vector (workspace
/// slot force_slot) set to zero for the element to add to.
struct MidpointForce {
  LocalVector q_mid, dq;
  Eigen::Map<Vector> force;
};

template <class T>
MidpointForce midpoint_force(const T& t, const Scheme::Iterate& it) {
  Eigen::Map<Vector> force = t.workspace().vector(Scheme::force_slot, t.size());
  force.setZero();
  return {midpoint_of(t, it), t.coordinates(it.dq, Scheme::dq_slot), force};
}

/// Where the force kernels evaluate a term: q_mid (midpoint_of), dq, t_mid = t0 + h/2 and the
/// iterate's h.
template <class T>
MidpointPoint sem_midpoint(const T& t, const Scheme::Iterate& it) {
  return {midpoint_of(t, it), t.coordinates(it.dq, Scheme::dq_slot), it.in.state.t + 0.5 * it.h, it.h};
}

}  // namespace

std::string SymplecticEnergyMomentumScheme::row_label(int field, Index i) const {
  return rattle_row_label(system_, {dq, v1, mu, nu}, field, i);
}

/// Constant M, v = dq/h: R_q += M v, R_p += M v1 - M v; blocks M/h, -M/h, M; dR/dh -+ M v/h;
/// R_E += T = 1/2 v.M v, dR_E/d dq = M v/h, dR_E/dh = -2T/h. Floors: max|M| eps ell/|h|
/// (row_scale.hpp), and for R_E that momentum times |v|. M(q): evaluate_general_inertia.
void SymplecticEnergyMomentumScheme::evaluate(const InertiaTerm& t, const Iterate& it, TermOutput& out) const {
  const SparseEntries* M = t.mass();
  if (!M) return evaluate_general_inertia(t, it, out);
  const double h = it.h;
  const LocalVector q1 = t.coordinates(it.q1, q1_slot);
  const LocalVector dq_local = t.coordinates(it.dq, dq_slot), v1_local = t.coordinates(it.v1, v1_slot);
  auto R_q = out.residual(dq), R_p = out.residual(v1);
  auto S_q = out.scale(dq), S_p = out.scale(v1);
  double kinetic = 0.0, largest = 0.0;
  for (const Nonzero& e : M->entries()) {
    const double Mv = e.value * dq_local(e.col) / h, Mv1 = e.value * v1_local(e.col);
    R_q(e.row) += Mv;
    R_p(e.row) += Mv1 - Mv;
    S_q(e.row) += std::abs(Mv);
    S_p(e.row) += std::abs(Mv1) + std::abs(Mv);
    kinetic += 0.5 * dq_local(e.row) / h * Mv;
    largest = std::max(largest, std::abs(e.value));
  }
  const double rounding = largest * rounding_velocity(q1, h);
  for (int field : {dq, v1}) out.floor(field).setConstant(rounding);
  out.global_sum(energy) += kinetic;
  out.global_sum(energy_rate) -= 2.0 * kinetic / h;
  out.global_sum(energy_scale) += std::abs(kinetic);
  out.global_sum(energy_floor) += rounding * dq_local.cwiseAbs().maxCoeff() / std::abs(h);
  if (!out.with_matrix()) return;
  M->add_to(1.0 / h, out.block(dq, dq));
  M->add_to(-1.0 / h, out.block(v1, dq));
  M->add_to(1.0, out.block(v1, v1));
  auto column_q = out.global_column(dq), column_p = out.global_column(v1), row = out.global_row(dq);
  for (const Nonzero& e : M->entries()) {
    const double Mv_h = e.value * dq_local(e.col) / (h * h);
    column_q(e.row) -= Mv_h;
    column_p(e.row) += Mv_h;
    row(e.row) += Mv_h;
  }
}

/// M(q), with dT/dq, dT/dv at (q_mid, v) and H = D^2 T there (2n x 2n, ordered (q, v)):
///   R_q += -h/2 dT/dq + dT/dv,   R_p += M(q1) v1 - h/2 dT/dq - dT/dv,
///   d/d dq: -h/2 (1/2 H_qq + H_qv/h) +- (1/2 H_vq + H_vv/h), and d(M(q1) v1)/dq1 in R_p;
///   dR/dh = -1/2 dT/dq + 1/2 H_qv v -+ H_vv v/h;   R_E += T, dR_E/d dq = 1/2 dT/dq + dT/dv/h,
///   dR_E/dh = -v.dT/dv/h.
void SymplecticEnergyMomentumScheme::evaluate_general_inertia(const InertiaTerm& t, const Iterate& it,
                                                              TermOutput& out) const {
  const double h = it.h;
  const Index n = t.size();
  const LocalVector q1 = t.coordinates(it.q1, q1_slot), v1_local = t.coordinates(it.v1, v1_slot);
  const LocalVector q_mid = midpoint_of(t, it);
  Eigen::Map<Vector> v = t.workspace().vector(velocity_slot, n);
  v = t.coordinates(it.dq, dq_slot) / h;
  const Inertia& inertia = t.element();
  Vector T_q = Vector::Zero(n), T_v = Vector::Zero(n), grad_q1 = Vector::Zero(n), p1 = Vector::Zero(n);
  inertia.add_kinetic_gradient(q_mid, v, 1.0, T_q, T_v);
  inertia.add_kinetic_gradient(q1, v1_local, 1.0, grad_q1, p1);
  out.residual(dq) += -0.5 * h * T_q + T_v;
  out.residual(v1) += p1 - 0.5 * h * T_q - T_v;
  out.scale(dq) += 0.5 * std::abs(h) * T_q.cwiseAbs() + T_v.cwiseAbs();
  out.scale(v1) += p1.cwiseAbs() + 0.5 * std::abs(h) * T_q.cwiseAbs() + T_v.cwiseAbs();
  Matrix M1 = Matrix::Zero(n, n);
  inertia.add_mass_matrix(q1, 1.0, M1);
  const double rounding = M1.cwiseAbs().maxCoeff() * rounding_velocity(q1, h);
  for (int field : {dq, v1}) out.floor(field).setConstant(rounding);
  const double kinetic = inertia.kinetic_energy(q_mid, v), rate = -v.dot(T_v) / h;
  out.global_sum(energy) += kinetic;
  out.global_sum(energy_rate) += rate;
  out.global_sum(energy_scale) += std::abs(kinetic);
  out.global_sum(energy_floor) += rounding * v.cwiseAbs().maxCoeff();
  if (!out.with_matrix()) return;
  Matrix H = Matrix::Zero(2 * n, 2 * n), H1 = Matrix::Zero(2 * n, 2 * n);
  inertia.add_kinetic_hessian(q_mid, v, 1.0, H);
  inertia.add_kinetic_hessian(q1, v1_local, 1.0, H1);
  const auto H_qq = H.topLeftCorner(n, n), H_qv = H.topRightCorner(n, n);
  const auto H_vq = H.bottomLeftCorner(n, n), H_vv = H.bottomRightCorner(n, n);
  const Matrix d_T_q = 0.5 * H_qq + H_qv / h, d_T_v = 0.5 * H_vq + H_vv / h;
  out.block(dq, dq) += -0.5 * h * d_T_q + d_T_v;
  out.block(v1, dq) += H1.bottomLeftCorner(n, n) - 0.5 * h * d_T_q - d_T_v;
  out.block(v1, v1) += H1.bottomRightCorner(n, n);
  const Vector common = -0.5 * T_q + 0.5 * (H_qv * v), inertial = H_vv * v / h;
  out.global_column(dq) += common - inertial;
  out.global_column(v1) += common + inertial;
  out.global_row(dq) += 0.5 * T_q + T_v / h;
}

/// R_q += h/2 DV(q_mid), R_p += h/2 DV(q_mid); blocks h/4 D^2 V (none for linear V); dR/dh =
/// 1/2 DV; R_E += V(q_mid), dR_E/d dq = 1/2 DV; R_E's floor eps |DV| ell.
void SymplecticEnergyMomentumScheme::evaluate(const PotentialTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.h;
  auto [q_mid, dq_local, gradient] = midpoint_force(t, it);
  const Potential& potential = t.element();
  potential.add_gradient(q_mid, 1.0, gradient);
  out.residual(dq) += 0.5 * h * gradient;
  out.residual(v1) += 0.5 * h * gradient;
  const double V = potential.energy(q_mid);
  out.global_sum(energy) += V;
  out.global_sum(energy_scale) += std::abs(V);
  out.global_sum(energy_floor) += kRoundingError * gradient.cwiseAbs().sum() * coordinate_size(q_mid);
  if (!out.with_matrix()) return;
  if (potential.nonlinearity() != Nonlinearity::linear) {
    potential.add_hessian(q_mid, 0.25 * h, out.block(dq, dq));
    potential.add_hessian(q_mid, 0.25 * h, out.block(v1, dq));
  }
  out.global_column(dq) += 0.5 * gradient;
  out.global_column(v1) += 0.5 * gradient;
  out.global_row(dq) += 0.5 * gradient;
}

/// F = -C(q) v: R_q += 1/2 C(q_mid) dq, R_p += 1/2 C(q_mid) dq; blocks 1/2 C + 1/4 d(C dq)/dq;
/// W = -dq.C dq/h, so R_E += 1/2 dq.C dq/h with dR_E/d dq = C dq/h + 1/(4h) (d(C dq)/dq)^T dq and
/// dR_E/dh = -1/2 dq.C dq/h^2; the rows do not depend on h.
void SymplecticEnergyMomentumScheme::evaluate(const DissipationTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.h;
  auto [q_mid, dq_local, Cdq] = midpoint_force(t, it);
  const Dissipation& damper = t.element();
  damper.add_damping_force(q_mid, dq_local, 1.0, Cdq);
  out.residual(dq) += 0.5 * Cdq;
  out.residual(v1) += 0.5 * Cdq;
  const double W = damping_work({q_mid, dq_local, it.in.state.t + 0.5 * h, h}, Cdq);  // <= 0 for C >= 0
  out.global_sum(energy) += -0.5 * W;
  out.global_sum(energy_rate) += 0.5 * W / h;
  out.global_sum(energy_scale) += 0.5 * std::abs(W);
  out.global_sum(work_sum) += W;
  if (!out.with_matrix()) return;
  for (int field : {dq, v1}) {
    damper.add_damping_matrix(q_mid, 0.5, out.block(field, dq));
    damper.add_damping_force_q_jacobian(q_mid, dq_local, 0.25, out.block(field, dq));
  }
  out.global_row(dq) += Cdq / h;
  if (!damper.has_constant_damping()) {
    Matrix K = Matrix::Zero(t.size(), t.size());
    damper.add_damping_force_q_jacobian(q_mid, dq_local, 1.0, K);
    out.global_row(dq) += K.transpose() * dq_local / (4.0 * h);
  }
}

/// f = f(t0 + h/2, q_mid): R_q -= h/2 f, R_p -= h/2 f; blocks -h/4 df/dq; dR/dh = -1/2 f (without
/// df/dt, sem_vi.hpp); W = f.dq, R_E -= 1/2 W with dR_E/d dq = -1/2 f - 1/4 (df/dq)^T dq.
void SymplecticEnergyMomentumScheme::evaluate(const LoadTerm& t, const Iterate& it, TermOutput& out) const {
  const double h = it.h, t_mid = it.in.state.t + 0.5 * h;
  auto [q_mid, dq_local, f] = midpoint_force(t, it);
  const ExternalLoad& load = t.element();
  load.add_generalized_force(t_mid, q_mid, 1.0, f);
  out.residual(dq) -= 0.5 * h * f;
  out.residual(v1) -= 0.5 * h * f;
  const double W = load_work({q_mid, dq_local, t_mid, h}, f);
  out.global_sum(energy) -= 0.5 * W;
  out.global_sum(energy_scale) += 0.5 * std::abs(W);
  out.global_sum(work_sum) += W;
  if (!out.with_matrix()) return;
  for (int field : {dq, v1}) load.add_generalized_force_q_jacobian(t_mid, q_mid, -0.25 * h, out.block(field, dq));
  out.global_column(dq) -= 0.5 * f;
  out.global_column(v1) -= 0.5 * f;
  out.global_row(dq) -= 0.5 * f;
  if (load.depends_on_configuration()) {
    Matrix K = Matrix::Zero(t.size(), t.size());
    load.add_generalized_force_q_jacobian(t_mid, q_mid, 1.0, K);
    out.global_row(dq) -= 0.25 * K.transpose() * dq_local;
  }
}

double SymplecticEnergyMomentumScheme::work(const DissipationTerm& t, const Iterate& it) const {
  return midpoint_damping_work(t.element(), sem_midpoint(t, it));
}

double SymplecticEnergyMomentumScheme::work(const LoadTerm& t, const Iterate& it) const {
  return midpoint_load_work(t.element(), sem_midpoint(t, it));
}

template class SchemeStepper<SymplecticEnergyMomentumScheme>;

}  // namespace noether

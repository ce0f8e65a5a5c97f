#include <noether/steppers/em_ggl.hpp>

#include <noether/engine/measures.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/livens_em.hpp>
#include <noether/steppers/step_system.hpp>

namespace noether {
namespace {

enum class UnitKind { inertia, potential, constraint, dissipation, load };
struct UnitRef {
  UnitKind kind;
  std::size_t index;
};

/// Offsets of the fields of x = (dq, u1, mu, gamma), q1 = q0 + dq: d + d + m + m.
struct Fields {
  Index d, m;
  Index q() const { return 0; }
  Index u() const { return d; }
  Index mu() const { return 2 * d; }
  Index gamma() const { return 2 * d + m; }
  Index size() const { return 2 * d + 2 * m; }
};

std::vector<Index> concatenate(std::vector<Index> a, const std::vector<Index>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

/// The Newton system of one em-ggl step; rows (R_q, R_u, R_g, R_gv) on the fields (q, u, mu, gamma).
class EnergyMomentumGgl::StepSystem final : public StepSystemBase {
 public:
  StepSystem(const System& system, std::vector<Matrix> masses)
      : system_(system), fields_{system.num_coordinates(), system.num_multipliers()}, masses_(std::move(masses)) {
    make_plan();
  }


  void evaluate_natural(ConstVectorRef x, VectorRef residual, bool with_matrix) override {
    q1_.resize(fields_.d);
    for_each_index_range(fields_.d, [&](Index begin, Index end) {
      q1_.segment(begin, end - begin) = state_->q.segment(begin, end - begin) + x.segment(fields_.q() + begin, end - begin);
    });
    assembler().assemble([&](Index u, UnitOutput& out) { evaluate_unit(u, x, out); }, residual, with_matrix);
  }

 private:
  std::string row_label(Index row) const override {
    const Index d = fields_.d;
    if (row < fields_.u()) return "position update of coordinate " + system_.coordinate_label(row);
    if (row < fields_.mu()) return "momentum balance of coordinate " + system_.coordinate_label(row - d);
    if (row < fields_.gamma()) return system_.multiplier_label(row - fields_.mu()) + ", position level g(q1)";
    return system_.multiplier_label(row - fields_.gamma()) + ", velocity level G(q1) v1";
  }

  void add_unit(UnitLayout layout, std::string owner, UnitKind kind, std::size_t index) {
    units_.add(std::move(layout), std::move(owner));
    refs_.push_back({kind, index});
  }

  /// Units whose residual lives in the momentum balance and whose tangent is d/dq1: local dofs
  /// (u-field rows, q-field columns), one n x n block.
  UnitLayout momentum_unit(const std::vector<Index>& dofs, Index n) const {
    return {concatenate(shifted(dofs, fields_.u()), shifted(dofs, fields_.q())), {{0, n, n, n}}};
  }

  /// Adds the units to units_ and builds the assembly.
  void make_plan() {
    for (std::size_t i = 0; i < system_.inertias().size(); ++i) {
      const auto& e = system_.inertias()[i];
      const Index n = e.element->local_size();
      // M/h, -M/2, M: constant (a new h has them rewritten: StepSystemBase::set_step).
      add_unit({concatenate(shifted(e.dofs, fields_.q()), shifted(e.dofs, fields_.u())),
                {{0, n, 0, n, {}, true}, {0, n, n, n, {}, true}, {n, n, n, n, {}, true}}},
               "inertia '" + e.element->name() + "'", UnitKind::inertia, i);
    }
    for (std::size_t i = 0; i < system_.potentials().size(); ++i) {
      const auto& e = system_.potentials()[i];
      add_unit(momentum_unit(e.dofs, e.element->local_size()), "potential '" + e.element->name() + "'",
               UnitKind::potential, i);
    }
    for (std::size_t i = 0; i < system_.constraints().size(); ++i) add_constraint_unit(i);
    for (std::size_t i = 0; i < system_.dissipations().size(); ++i) {
      const auto& e = system_.dissipations()[i];
      add_unit(momentum_unit(e.dofs, e.element->local_size()), "dissipation '" + e.element->name() + "'",
               UnitKind::dissipation, i);
    }
    for (std::size_t i = 0; i < system_.external_loads().size(); ++i) {
      const auto& e = system_.external_loads()[i];
      add_unit(momentum_unit(e.dofs, e.element->local_size()), "external load '" + e.element->name() + "'",
               UnitKind::load, i);
    }
    using enum FieldKind;
    set_plan(system_, {coordinates, coordinates, multipliers, multipliers});
  }

  /// Local unknowns q, u (n each), mu, gamma (m each) at 0, n, 2n, 2n + m; blocks in the order
  /// evaluate_constraint writes them, the last five only for quadratic constraints.
  void add_constraint_unit(std::size_t i) {
    const auto& e = system_.constraints()[i];
    const Index n = e.element->local_size(), m = e.element->num_equations();
    std::vector<Index> dofs = concatenate(shifted(e.dofs, fields_.q()), shifted(e.dofs, fields_.u()));
    dofs = concatenate(dofs, index_range(e.first_multiplier, m, fields_.mu()));
    dofs = concatenate(dofs, index_range(e.first_multiplier, m, fields_.gamma()));
    const Index q = 0, u = n, mu = 2 * n, gamma = 2 * n + m;
    std::vector<LocalBlock> blocks{{q, n, gamma, m}, {u, n, mu, m}, {mu, m, q, n}, {gamma, m, u, n}};
    if (e.element->nonlinearity() != Nonlinearity::linear)
      blocks.insert(blocks.end(), {{q, n, q, n}, {u, n, q, n}, {u, n, u, n}, {u, n, gamma, m}, {gamma, m, q, n}});
    add_unit({std::move(dofs), std::move(blocks)}, "constraint '" + e.element->name() + "'", UnitKind::constraint, i);
  }

  void evaluate_unit(Index u, ConstVectorRef x, UnitOutput& out) const override {
    const UnitRef ref = refs_[static_cast<std::size_t>(u)];
    switch (ref.kind) {
      case UnitKind::inertia: return evaluate_inertia(ref.index, x, out);
      case UnitKind::potential: return evaluate_potential(system_.potentials()[ref.index], out);
      case UnitKind::constraint: return evaluate_constraint(system_.constraints()[ref.index], x, out);
      case UnitKind::dissipation: return evaluate_dissipation(system_.dissipations()[ref.index], x, out);
      case UnitKind::load: return evaluate_load(system_.external_loads()[ref.index], out);
    }
  }

  /// q0, q1, u0, u1 of an element.
  void gather_step(const std::vector<Index>& dofs, ConstVectorRef x, Vector& q0, Vector& q1, Vector& u0,
                   Vector& u1) const {
    gather(state_->q, dofs, q0);
    gather(q1_, dofs, q1);
    gather(state_->v, dofs, u0);
    gather(x.segment(fields_.u(), fields_.d), dofs, u1);
  }

  /// R_q += M (q1 - q0)/h - M u_mid,  R_u += M (u1 - u0).
  void evaluate_inertia(std::size_t i, ConstVectorRef x, UnitOutput& out) const {
    const Matrix& M = masses_[i];
    const Index n = M.rows();
    Vector q0, q1, u0, u1;
    gather_step(system_.inertias()[i].dofs, x, q0, q1, u0, u1);
    Vector dq;
    gather(x.segment(fields_.q(), fields_.d), system_.inertias()[i].dofs, dq);
    out.residual().head(n) = M * (dq / h_ - 0.5 * (u0 + u1));
    out.residual().tail(n) = M * (u1 - u0);
    if (!out.with_matrix()) return;
    out.block(0) = M / h_;
    out.block(1) = -0.5 * M;
    out.block(2) = M;
  }

  /// R_u += h Dbar V(q0, q1).
  void evaluate_potential(const Placed<Potential>& e, UnitOutput& out) const {
    const Index n = e.element->local_size();
    Vector q0, q1;
    gather(state_->q, e.dofs, q0);
    gather(q1_, e.dofs, q1);
    e.element->add_discrete_gradient(q0, q1, h_, out.residual().head(n));
    if (out.with_matrix()) e.element->add_discrete_gradient_jacobian(q0, q1, h_, out.block(0));
  }

  /// R_q -= G_mid^T gamma,  R_u += G_mid^T mu + h H(gamma) u_mid,  R_g = g(q1),  R_gv = G(q1) u1,
  /// H(a) = sum_k a_k D^2 g_k (constant).
  void evaluate_constraint(const Placed<Constraint>& e, ConstVectorRef x, UnitOutput& out) const {
    const Constraint& c = *e.element;
    const Index n = c.local_size(), m = c.num_equations();
    Vector q0, q1, u0, u1;
    gather_step(e.dofs, x, q0, q1, u0, u1);
    const Vector mu = x.segment(fields_.mu() + e.first_multiplier, m);
    const Vector gamma = x.segment(fields_.gamma() + e.first_multiplier, m);
    const Vector q_mid = 0.5 * (q0 + q1), u_mid = 0.5 * (u0 + u1);
    Matrix G_mid(m, n), G1(m, n), H_gamma = Matrix::Zero(n, n);
    c.calc_jacobian(q_mid, G_mid);
    c.calc_jacobian(q1, G1);
    c.add_hessian_contraction(q_mid, gamma, 1.0, H_gamma);
    auto r = out.residual();
    r.segment(0, n) = -G_mid.transpose() * gamma;
    r.segment(n, n) = G_mid.transpose() * mu + h_ * (H_gamma * u_mid);
    c.calc_value(q1, r.segment(2 * n, m));
    r.segment(2 * n + m, m) = G1 * u1;
    if (!out.with_matrix()) return;
    out.block(0) = -G_mid.transpose();
    out.block(1) = G_mid.transpose();
    out.block(2) = G1;
    out.block(3) = G1;
    if (c.nonlinearity() == Nonlinearity::linear) return;
    out.block(4) = -0.5 * H_gamma;
    c.add_hessian_contraction(q_mid, mu, 0.5, out.block(5));
    out.block(6) = 0.5 * h_ * H_gamma;
    out.block(7) = h_ * hessians_times(c, q_mid, u_mid);
    out.block(8) = hessians_times(c, q1, u1).transpose();
  }

  /// R_u += C(q_mid)(q1 - q0);  d/dq1 = C(q_mid) + 1/2 d(C(q) dq)/dq at q_mid.
  void evaluate_dissipation(const Placed<Dissipation>& e, ConstVectorRef x, UnitOutput& out) const {
    const Index n = e.element->local_size();
    Vector q0, q1;
    gather(state_->q, e.dofs, q0);
    gather(q1_, e.dofs, q1);
    Vector dq;
    gather(x.segment(fields_.q(), fields_.d), e.dofs, dq);
    const Vector q_mid = 0.5 * (q0 + q1);
    e.element->add_damping_force(q_mid, dq, 1.0, out.residual().head(n));
    if (!out.with_matrix()) return;
    e.element->add_damping_matrix(q_mid, 1.0, out.block(0));
    e.element->add_damping_force_q_jacobian(q_mid, dq, 0.5, out.block(0));
  }

  /// R_u -= h f(t_mid, q_mid);  d/dq1 = -h/2 df/dq.
  void evaluate_load(const Placed<ExternalLoad>& e, UnitOutput& out) const {
    const Index n = e.element->local_size();
    Vector q0, q1;
    gather(state_->q, e.dofs, q0);
    gather(q1_, e.dofs, q1);
    const Vector q_mid = 0.5 * (q0 + q1);
    const double t_mid = state_->t + 0.5 * h_;
    e.element->add_generalized_force(t_mid, q_mid, -h_, out.residual().head(n));
    if (out.with_matrix()) e.element->add_generalized_force_q_jacobian(t_mid, q_mid, -0.5 * h_, out.block(0));
  }

  const System& system_;
  Fields fields_;
  std::vector<Matrix> masses_;
  std::vector<UnitRef> refs_;
  Vector q1_;  ///< q0 + dq of the last evaluate
};

EnergyMomentumGgl::EnergyMomentumGgl(const System& system, const StepperOptions& options) : system_(system) {
  require_unsymmetric_capable_solver(name(), options.solver);
  require_quadratic_constraints(name(), system);
  require_one_inertia_per_coordinate(name(), system);
  invert_masses(name(), system);  // refuses singular or configuration-dependent M
  step_system_ = std::make_unique<StepSystem>(system, constant_masses(system));
  newton_ = std::make_unique<NewtonSolver>(step_system_->pattern(), options.solver, options.newton);
}

EnergyMomentumGgl::~EnergyMomentumGgl() = default;

void EnergyMomentumGgl::initialize(State& state) const {
  check_initial_state(system_, state, name());
  initialize_momentum(system_, state);
}

NewtonReport EnergyMomentumGgl::step(State& state, double h) {
  check_step_input(system_, state, h, name());
  const Fields f{system_.num_coordinates(), system_.num_multipliers()};
  const StepGuess guess = predictor_.predict(state, h);
  Vector x(f.size());
  x << 0.5 * h * (state.v + guess.v1), guess.v1, h * guess.lambda, Vector::Zero(f.m);  // dq = h v_mid
  step_system_->set_step(state, h);
  const NewtonReport report = step_system_->solve(*newton_, x, describe_step(state, h));
  State after{state.step + 1, state.t + h, state.q + x.segment(f.q(), f.d), x.segment(f.u(), f.d), Vector(f.d),
              x.segment(f.mu(), f.m) / h};
  calc_momentum(system_, after.q, after.v, after.p);
  predictor_.record(state, after, h);
  state = std::move(after);
  return report;
}

double EnergyMomentumGgl::conserved_energy(const State& state) const {
  check_state_sizes(system_, state, name());
  return kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
}

}  // namespace noether

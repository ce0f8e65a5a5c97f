#include "solvers/livens_em.hpp"

#include "engine/gonzalez.hpp"
#include "engine/structure.hpp"
#include "engine/measures.hpp"
#include "solvers/step_system.hpp"

namespace noether {
namespace {

enum class UnitKind { block, inertia, potential, constraint, dissipation, load };
struct UnitRef {
  UnitKind kind;
  std::size_t index;
};

/// Local quantities of one element at one Newton iterate.
struct LocalStep {
  Vector q0, q1, dq, v0, v1;
};

/// Per-thread work space of the unit evaluations: sized on first use, so the Newton loop does not
/// allocate (the buffers hold no state between units).
struct Scratch {
  LocalStep step;
  Vector mu;
  Matrix Gbar;
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

}  // namespace

void require_unsymmetric_capable_solver(std::string_view stepper, LinearSolverKind kind) {
  if (kind == LinearSolverKind::cholmod)
    throw StepperRefusal(std::string(stepper) +
                         ": CHOLMOD needs a symmetric positive definite matrix, and this stepper's Newton "
                         "matrix is unsymmetric and indefinite; choose --solver umfpack, klu or eigen "
                         "(CHOLMOD serves the SPD projection of initial values)");
}

/// The Newton system of one Livens step, x = (dq, mu) with q1 = q0 + dq.
class LivensEnergyMomentum::StepSystem final : public StepSystemBase {
 public:
  explicit StepSystem(const System& system)
      : system_(system), constant_masses_(constant_mass_matrices(system)),
        linear_jacobians_(linear_constraint_jacobians(system)) {
    make_plan();
  }

  void evaluate_natural(ConstVectorRef x, VectorRef residual, std::span<double> values) override {
    const Index d = system_.num_coordinates();
    dq_ = x.head(d);
    q1_ = state_->q + dq_;
    v1_ = 2.0 / h_ * dq_ - state_->v;
    assembler().assemble([&](Index u, UnitOutput& out) { evaluate_unit(u, x, out); }, residual, values);
  }

  /// p1 = 2 Dbar_2 T(z0, z1) - p0 at the converged step (q1, v1 from the last evaluate).
  void calc_new_momentum(VectorRef p1) const {
    p1 = -state_->p;
    LocalStep s;
    Vector grad_q, grad_v;
    for (const Placed<Inertia>& e : system_.inertias()) {
      gather_step(e.dofs, s);
      grad_v.setZero(s.q0.size());
      add_discrete_kinetic_gradient(*e.element, s, 2.0, nullptr, &grad_v);
      for (std::size_t i = 0; i < e.dofs.size(); ++i) p1(e.dofs[i]) += grad_v(static_cast<Index>(i));
    }
  }
  const Vector& new_velocity() const { return v1_; }
  const Vector& new_position() const { return q1_; }

 private:
  std::string row_label(Index row) const override {
    const Index d = system_.num_coordinates();
    return row < d ? "momentum balance of coordinate " + system_.coordinate_label(row) : system_.multiplier_label(row - d);
  }

  /// Adds the units to units_ and builds the assembly.
  void make_plan() {
    const Index d = system_.num_coordinates();
    auto square = [](Index n) { return std::vector<LocalBlock>{{0, n, 0, n}}; };
    for (std::size_t b = 0; b < system_.blocks().size(); ++b) {
      const CoordinateBlock& block = system_.blocks()[b];
      units_.add({index_range(block.offset, block.size(), 0), {}}, "coordinate block '" + block.name + "'");
      refs_.push_back({UnitKind::block, b});
    }
    for (std::size_t i = 0; i < system_.inertias().size(); ++i) {
      const auto& e = system_.inertias()[i];
      const Index n = e.element->local_size();
      units_.add({e.dofs, {{0, n, 0, n, mass_structure(*e.element)}}}, "inertia '" + e.element->name() + "'");
      refs_.push_back({UnitKind::inertia, i});
    }
    for (std::size_t i = 0; i < system_.potentials().size(); ++i) {
      const auto& e = system_.potentials()[i];
      const Index n = e.element->local_size();
      LocalBlock block{0, n, 0, n};
      if (e.element->nonlinearity() == Nonlinearity::linear) block.structure = Structure::Constant(n, n, false);
      units_.add({e.dofs, {block}}, "potential '" + e.element->name() + "'");
      refs_.push_back({UnitKind::potential, i});
    }
    for (std::size_t i = 0; i < system_.constraints().size(); ++i) {
      const auto& e = system_.constraints()[i];
      const Index n = e.element->local_size();
      const Index m = e.element->num_equations();
      std::vector<Index> dofs = e.dofs;
      const std::vector<Index> rows = index_range(e.first_multiplier, m, d);
      dofs.insert(dofs.end(), rows.begin(), rows.end());
      const Structure G = jacobian_structure(*e.element);
      std::vector<LocalBlock> blocks{{0, n, n, m, G.transpose()}, {n, m, 0, n, G}};
      if (e.element->nonlinearity() != Nonlinearity::linear)
        blocks.push_back({0, n, 0, n, hessian_structure(*e.element)});
      units_.add({std::move(dofs), std::move(blocks)}, "constraint '" + e.element->name() + "'");
      refs_.push_back({UnitKind::constraint, i});
    }
    for (std::size_t i = 0; i < system_.dissipations().size(); ++i) {
      const auto& e = system_.dissipations()[i];
      units_.add({e.dofs, square(e.element->local_size())}, "dissipation '" + e.element->name() + "'");
      refs_.push_back({UnitKind::dissipation, i});
    }
    for (std::size_t i = 0; i < system_.external_loads().size(); ++i) {
      const auto& e = system_.external_loads()[i];
      units_.add({e.dofs, square(e.element->local_size())}, "external load '" + e.element->name() + "'");
      refs_.push_back({UnitKind::load, i});
    }
    set_plan(system_, {FieldKind::coordinates, FieldKind::multipliers});
  }

  void gather_step(const std::vector<Index>& dofs, LocalStep& s) const {
    gather(state_->q, dofs, s.q0);
    gather(q1_, dofs, s.q1);
    gather(dq_, dofs, s.dq);
    gather(state_->v, dofs, s.v0);
    gather(v1_, dofs, s.v1);
  }

  /// grad_q += s Dbar_1 T, grad_v += s Dbar_2 T (either may be null), Dbar T between z0 and z1.
  static void add_discrete_kinetic_gradient(const Inertia& inertia, const LocalStep& st, double s,
                                            Vector* grad_q, Vector* grad_v) {
    const Index n = st.q0.size();
    const Vector q_mid = 0.5 * (st.q0 + st.q1);
    const Vector v_mid = 0.5 * (st.v0 + st.v1);
    if (inertia.has_constant_mass()) {
      if (grad_v) {
        Matrix M = Matrix::Zero(n, n);
        inertia.add_mass_matrix(q_mid, 1.0, M);
        *grad_v += s * (M * v_mid);
      }
      return;
    }
    Vector z0(2 * n), z1(2 * n), grad_mid = Vector::Zero(2 * n), dbar = Vector::Zero(2 * n);
    z0 << st.q0, st.v0;
    z1 << st.q1, st.v1;
    inertia.add_kinetic_gradient(q_mid, v_mid, 1.0, grad_mid.head(n), grad_mid.tail(n));
    add_gonzalez_gradient(z0, z1, inertia.kinetic_energy(st.q0, st.v0), inertia.kinetic_energy(st.q1, st.v1),
                          grad_mid, s, dbar);
    if (grad_q) *grad_q += dbar.head(n);
    if (grad_v) *grad_v += dbar.tail(n);
  }

  void evaluate_unit(Index u, ConstVectorRef x, UnitOutput& out) const {
    const UnitRef ref = refs_[static_cast<std::size_t>(u)];
    switch (ref.kind) {
      case UnitKind::block: {
        const CoordinateBlock& block = system_.blocks()[ref.index];
        out.residual() = -2.0 * state_->p.segment(block.offset, block.size());
        return;
      }
      case UnitKind::inertia: return evaluate_inertia(ref.index, out);
      case UnitKind::potential: return evaluate_potential(system_.potentials()[ref.index], out);
      case UnitKind::constraint: return evaluate_constraint(ref.index, x, out);
      case UnitKind::dissipation: return evaluate_dissipation(system_.dissipations()[ref.index], out);
      case UnitKind::load: return evaluate_load(system_.external_loads()[ref.index], out);
    }
  }

  /// R += 2 Dbar_2 T - h Dbar_1 T;  K += d/dq1 of it, with dv1/dq1 = 2/h.
  void evaluate_inertia(std::size_t i, UnitOutput& out) const {
    const Placed<Inertia>& e = system_.inertias()[i];
    const Inertia& inertia = *e.element;
    if (inertia.has_constant_mass()) {
      const Matrix& M = constant_masses_[i];
      Vector& dq = scratch().step.dq;
      gather(dq_, e.dofs, dq);
      out.residual().noalias() = (2.0 / h_) * (M * dq);
      if (out.with_matrix()) out.block(0) = (2.0 / h_) * M;
      return;
    }
    LocalStep s;
    gather_step(e.dofs, s);
    const Index n = s.q0.size();
    Vector dbar_q = Vector::Zero(n), dbar_v = Vector::Zero(n);
    add_discrete_kinetic_gradient(inertia, s, 1.0, &dbar_q, &dbar_v);
    out.residual() = 2.0 * dbar_v - h_ * dbar_q;
    if (!out.with_matrix()) return;
    Vector z0(2 * n), z1(2 * n), grad_mid = Vector::Zero(2 * n), grad_1 = Vector::Zero(2 * n);
    z0 << s.q0, s.v0;
    z1 << s.q1, s.v1;
    const Vector q_mid = 0.5 * (s.q0 + s.q1), v_mid = 0.5 * (s.v0 + s.v1);
    inertia.add_kinetic_gradient(q_mid, v_mid, 1.0, grad_mid.head(n), grad_mid.tail(n));
    inertia.add_kinetic_gradient(s.q1, s.v1, 1.0, grad_1.head(n), grad_1.tail(n));
    Matrix hess_mid = Matrix::Zero(2 * n, 2 * n), J = Matrix::Zero(2 * n, 2 * n);
    inertia.add_kinetic_hessian(q_mid, v_mid, 1.0, hess_mid);
    add_gonzalez_jacobian(z0, z1, inertia.kinetic_energy(s.q0, s.v0), inertia.kinetic_energy(s.q1, s.v1), grad_1,
                          grad_mid, hess_mid, 1.0, J);
    const Matrix dz1_rows = J.leftCols(n) + (2.0 / h_) * J.rightCols(n);  // d(Dbar T)/dq1, 2n x n
    out.block(0) = 2.0 * dz1_rows.bottomRows(n) - h_ * dz1_rows.topRows(n);
  }

  void evaluate_potential(const Placed<Potential>& e, UnitOutput& out) const {
    Vector q0, q1_local;
    gather(state_->q, e.dofs, q0);
    gather(q1_, e.dofs, q1_local);
    e.element->add_discrete_gradient(q0, q1_local, h_, out.residual());
    if (out.with_matrix()) e.element->add_discrete_gradient_jacobian(q0, q1_local, h_, out.block(0));
  }

  /// R_q += Gbar^T mu, R_lambda = g(q1); blocks: (q, lambda) Gbar^T, (lambda, q) G(q1), (q, q) d(Gbar^T mu)/dq1.
  /// Linear constraints use their Jacobian computed once (linear_jacobians_): Gbar = G(q1) = G.
  void evaluate_constraint(std::size_t i, ConstVectorRef x, UnitOutput& out) const {
    const Placed<Constraint>& e = system_.constraints()[i];
    const Constraint& c = *e.element;
    const Index n = c.local_size(), m = c.num_equations();
    const Index d = system_.num_coordinates();
    Scratch& w = scratch();
    gather(state_->q, e.dofs, w.step.q0);
    gather(q1_, e.dofs, w.step.q1);
    w.mu = x.segment(d + e.first_multiplier, m);
    const bool linear = c.nonlinearity() == Nonlinearity::linear;
    if (!linear) {
      w.Gbar.resize(m, n);
      c.calc_discrete_gradient(w.step.q0, w.step.q1, w.Gbar);
    }
    const Matrix& Gbar = linear ? linear_jacobians_[i] : w.Gbar;
    out.residual().head(n).noalias() = Gbar.transpose() * w.mu;
    c.calc_value(w.step.q1, out.residual().tail(m));
    if (!out.with_matrix()) return;
    out.block(0) = Gbar.transpose();
    if (linear) {
      out.block(1) = Gbar;
      return;
    }
    c.calc_jacobian(w.step.q1, out.block(1));
    c.add_discrete_gradient_contraction_jacobian(w.step.q0, w.step.q1, w.mu, 1.0, out.block(2));
  }

  /// R += C(q_mid)(q1 - q0);  K += C(q_mid) + 1/2 d(C(q) dq)/dq at q_mid.
  void evaluate_dissipation(const Placed<Dissipation>& e, UnitOutput& out) const {
    Vector q0, q1_local, dq;
    gather(state_->q, e.dofs, q0);
    gather(q1_, e.dofs, q1_local);
    gather(dq_, e.dofs, dq);
    const Vector q_mid = 0.5 * (q0 + q1_local);
    e.element->add_damping_force(q_mid, dq, 1.0, out.residual());
    if (!out.with_matrix()) return;
    e.element->add_damping_matrix(q_mid, 1.0, out.block(0));
    e.element->add_damping_force_q_jacobian(q_mid, dq, 0.5, out.block(0));
  }

  /// R -= h f(t_mid, q_mid);  K -= h/2 df/dq.
  void evaluate_load(const Placed<ExternalLoad>& e, UnitOutput& out) const {
    Vector q0, q1_local;
    gather(state_->q, e.dofs, q0);
    gather(q1_, e.dofs, q1_local);
    const Vector q_mid = 0.5 * (q0 + q1_local);
    const double t_mid = state_->t + 0.5 * h_;
    e.element->add_generalized_force(t_mid, q_mid, -h_, out.residual());
    if (out.with_matrix()) e.element->add_generalized_force_q_jacobian(t_mid, q_mid, -0.5 * h_, out.block(0));
  }

  /// M of each constant-mass inertia element (empty matrix otherwise), computed once.
  static std::vector<Matrix> constant_mass_matrices(const System& system) {
    std::vector<Matrix> masses;
    for (const Placed<Inertia>& e : system.inertias()) {
      const Index n = e.element->local_size();
      masses.emplace_back();
      if (!e.element->has_constant_mass()) continue;
      masses.back().setZero(n, n);
      e.element->add_mass_matrix(Vector::Zero(n), 1.0, masses.back());
    }
    return masses;
  }

  /// G of each linear constraint (empty matrix otherwise), computed once.
  static std::vector<Matrix> linear_constraint_jacobians(const System& system) {
    std::vector<Matrix> jacobians;
    for (const Placed<Constraint>& e : system.constraints()) {
      const Index n = e.element->local_size(), m = e.element->num_equations();
      jacobians.emplace_back();
      if (e.element->nonlinearity() != Nonlinearity::linear) continue;
      jacobians.back().resize(m, n);
      e.element->calc_jacobian(Vector::Zero(n), jacobians.back());
    }
    return jacobians;
  }

  const System& system_;
  std::vector<UnitRef> refs_;
  std::vector<Matrix> constant_masses_;
  std::vector<Matrix> linear_jacobians_;
  Vector dq_, q1_, v1_;  ///< of the last evaluate
};

LivensEnergyMomentum::LivensEnergyMomentum(const System& system, const StepperOptions& options)
    : system_(system), step_system_(std::make_unique<StepSystem>(system)) {
  require_unsymmetric_capable_solver(name(), options.solver);
  newton_ = std::make_unique<NewtonSolver>(step_system_->pattern(), options.solver, options.newton);
}

LivensEnergyMomentum::~LivensEnergyMomentum() = default;

void LivensEnergyMomentum::initialize(State& state) const { initialize_momentum(system_, state); }

NewtonReport LivensEnergyMomentum::step(State& state, double h) {
  const Index d = system_.num_coordinates();
  const Index m = system_.num_multipliers();
  Vector x(d + m);
  x.head(d) = h * state.v;
  x.tail(m) = h * state.lambda;
  step_system_->set_step(state, h);
  const NewtonReport report = step_system_->solve(*newton_, x, describe_step(state, h));
  Vector p1(d);
  step_system_->calc_new_momentum(p1);
  state.v = step_system_->new_velocity();
  state.q = step_system_->new_position();
  state.p = p1;
  state.lambda = x.tail(m) / h;
  state.t += h;
  ++state.step;
  return report;
}

double LivensEnergyMomentum::conserved_energy(const State& state) const {
  return state.p.dot(state.v) - kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
}

}  // namespace noether

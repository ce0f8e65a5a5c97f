#include <noether/steppers/ggl_vi.hpp>

#include <noether/engine/measures.hpp>
#include <noether/steppers/livens_em.hpp>
#include <noether/steppers/ggl_support.hpp>
#include <noether/steppers/step_system.hpp>

namespace noether {
namespace {

enum class UnitKind { block, inertia, potential, constraint, dissipation, load };
struct UnitRef {
  UnitKind kind;
  std::size_t index;
};

struct Fields {
  Index d, m;
  Index v() const { return 0; }
  Index u() const { return d; }
  Index q() const { return 2 * d; }
  Index mu() const { return 3 * d; }
  Index gamma() const { return 3 * d + m; }
  Index size() const { return 3 * d + 2 * m; }
};

}  // namespace

/// The Newton system of one GGL-VI step, x = (v^n, u, q^{n+1}, mu, gamma); rows (R_v, R_u, R_q, R_g, R_gv).
class GglVariationalIntegrator::StepSystem final : public StepSystemBase {
 public:
  StepSystem(const System& system, std::vector<Matrix> masses)
      : system_(system), fields_{system.num_coordinates(), system.num_multipliers()}, masses_(std::move(masses)) {
    make_plan();
  }


  void evaluate_natural(ConstVectorRef x, VectorRef residual, bool with_matrix) override {
    assembler().assemble([&](Index u, UnitOutput& out) { evaluate_unit(u, x, out); }, residual, with_matrix);
  }

 private:
  std::string row_label(Index row) const override {
    const Index d = fields_.d;
    if (row < fields_.u()) return "momentum balance (41b) of coordinate " + system_.coordinate_label(row);
    if (row < fields_.q()) return "discrete Legendre map (41c) of coordinate " + system_.coordinate_label(row - d);
    if (row < fields_.mu()) return "position update (41a) of coordinate " + system_.coordinate_label(row - 2 * d);
    if (row < fields_.gamma()) return system_.multiplier_label(row - fields_.mu()) + ", position level g(q1)";
    return system_.multiplier_label(row - fields_.gamma()) + ", velocity level G(qbar) M^-1 p1";
  }

  /// The element's coordinate dofs in the fields v, u and q, concatenated (3n).
  std::vector<Index> coordinate_fields(const std::vector<Index>& dofs) const {
    std::vector<Index> out = shifted(dofs, fields_.v());
    for (Index offset : {fields_.u(), fields_.q()}) {
      const std::vector<Index> more = shifted(dofs, offset);
      out.insert(out.end(), more.begin(), more.end());
    }
    return out;
  }

  /// Adds the units to units_ and builds the assembly.
  void make_plan() {
    for (std::size_t b = 0; b < system_.blocks().size(); ++b) {
      const CoordinateBlock& block = system_.blocks()[b];
      add_unit({index_range(block.offset, block.size(), fields_.v()), {}}, "coordinate block '" + block.name + "'",
               UnitKind::block, b);
    }
    for (std::size_t i = 0; i < system_.inertias().size(); ++i) {
      const auto& e = system_.inertias()[i];
      const Index n = e.element->local_size();
      // M, M, -M, -M, M/h: constant (a new h has them rewritten: StepSystemBase::set_step).
      std::vector<LocalBlock> blocks{{0, n, 0, n, {}, true}, {n, n, 0, n, {}, true}, {n, n, n, n, {}, true},
                                     {2 * n, n, 0, n, {}, true}, {2 * n, n, 2 * n, n, {}, true}};
      add_unit({coordinate_fields(e.dofs), std::move(blocks)}, "inertia '" + e.element->name() + "'",
               UnitKind::inertia, i);
    }
    for (std::size_t i = 0; i < system_.potentials().size(); ++i) {
      const auto& e = system_.potentials()[i];
      add_unit({e.dofs, {}}, "potential '" + e.element->name() + "'", UnitKind::potential, i);
    }
    for (std::size_t i = 0; i < system_.constraints().size(); ++i) add_constraint_unit(i);
    for (std::size_t i = 0; i < system_.dissipations().size(); ++i) {
      const auto& e = system_.dissipations()[i];
      const Index n = e.element->local_size();
      add_unit({e.dofs, {{0, n, 0, n}}}, "dissipation '" + e.element->name() + "'", UnitKind::dissipation, i);
    }
    for (std::size_t i = 0; i < system_.external_loads().size(); ++i) {
      const auto& e = system_.external_loads()[i];
      add_unit({e.dofs, {}}, "external load '" + e.element->name() + "'", UnitKind::load, i);
    }
    using enum FieldKind;
    set_plan(system_, {coordinates, coordinates, coordinates, multipliers, multipliers});
  }

  void add_unit(UnitLayout layout, std::string owner, UnitKind kind, std::size_t index) {
    units_.add(std::move(layout), std::move(owner));
    refs_.push_back({kind, index});
  }

  /// Local unknowns (v, u, q: n each; mu, gamma: m each) at offsets 0, n, 2n, 3n, 3n + m. Blocks in
  /// the order evaluate_constraint writes them; the last four only for quadratic constraints.
  void add_constraint_unit(std::size_t i) {
    const auto& e = system_.constraints()[i];
    const Index n = e.element->local_size(), m = e.element->num_equations();
    std::vector<Index> dofs = coordinate_fields(e.dofs);
    for (Index offset : {fields_.mu(), fields_.gamma()}) {
      const std::vector<Index> rows = index_range(e.first_multiplier, m, offset);
      dofs.insert(dofs.end(), rows.begin(), rows.end());
    }
    const Index v = 0, u = n, q = 2 * n, mu = 3 * n, gamma = 3 * n + m;
    std::vector<LocalBlock> blocks{{v, n, mu, m}, {q, n, gamma, m}, {mu, m, q, n}, {gamma, m, u, n}};
    if (e.element->nonlinearity() != Nonlinearity::linear)
      blocks.insert(blocks.end(), {{u, n, u, n}, {u, n, gamma, m}, {q, n, v, n}, {gamma, m, v, n}});
    add_unit({std::move(dofs), std::move(blocks)}, "constraint '" + e.element->name() + "'", UnitKind::constraint, i);
  }

  void evaluate_unit(Index u, ConstVectorRef x, UnitOutput& out) const override {
    const UnitRef ref = refs_[static_cast<std::size_t>(u)];
    switch (ref.kind) {
      case UnitKind::block: {
        const CoordinateBlock& block = system_.blocks()[ref.index];
        out.residual() = -state_->p.segment(block.offset, block.size());
        return;
      }
      case UnitKind::inertia: return evaluate_inertia(ref.index, x, out);
      case UnitKind::potential: return evaluate_potential(system_.potentials()[ref.index], out);
      case UnitKind::constraint: return evaluate_constraint(system_.constraints()[ref.index], x, out);
      case UnitKind::dissipation: return evaluate_dissipation(system_.dissipations()[ref.index], x, out);
      case UnitKind::load: return evaluate_load(system_.external_loads()[ref.index], out);
    }
  }

  /// R_v += M v,  R_u += M (v - u),  R_q += M (q1 - q0)/h - M v.
  void evaluate_inertia(std::size_t i, ConstVectorRef x, UnitOutput& out) const {
    const auto& e = system_.inertias()[i];
    const Matrix& M = masses_[i];
    const Index n = M.rows();
    Vector v, u, q1, q0;
    gather(x.segment(fields_.v(), fields_.d), e.dofs, v);
    gather(x.segment(fields_.u(), fields_.d), e.dofs, u);
    gather(x.segment(fields_.q(), fields_.d), e.dofs, q1);
    gather(state_->q, e.dofs, q0);
    const Vector Mv = M * v;
    out.residual().segment(0, n) = Mv;
    out.residual().segment(n, n) = Mv - M * u;
    out.residual().segment(2 * n, n) = M * (q1 - q0) / h_ - Mv;
    if (!out.with_matrix()) return;
    out.block(0) = M;
    out.block(1) = M;
    out.block(2) = -M;
    out.block(3) = -M;
    out.block(4) = M / h_;
  }

  /// R_v += h DV(q0)   (constant during the step).
  void evaluate_potential(const Placed<Potential>& e, UnitOutput& out) const {
    Vector q0;
    gather(state_->q, e.dofs, q0);
    e.element->add_gradient(q0, h_, out.residual());
  }

  /// R_v += G(q0)^T mu,  R_u -= h H u,  R_q -= G(qbar)^T gamma,  R_g = g(q1),  R_gv = G(qbar) u,
  /// H = sum_k gamma_k D^2 g_k, qbar = q0 + h v.
  void evaluate_constraint(const Placed<Constraint>& e, ConstVectorRef x, UnitOutput& out) const {
    const Constraint& c = *e.element;
    const Index n = c.local_size(), m = c.num_equations();
    Vector v, u, q1, q0;
    gather(x.segment(fields_.v(), fields_.d), e.dofs, v);
    gather(x.segment(fields_.u(), fields_.d), e.dofs, u);
    gather(x.segment(fields_.q(), fields_.d), e.dofs, q1);
    gather(state_->q, e.dofs, q0);
    const Vector mu = x.segment(fields_.mu() + e.first_multiplier, m);
    const Vector gamma = x.segment(fields_.gamma() + e.first_multiplier, m);
    const Vector q_bar = q0 + h_ * v;
    Matrix G0(m, n), G_bar(m, n), H = Matrix::Zero(n, n);
    c.calc_jacobian(q0, G0);
    c.calc_jacobian(q_bar, G_bar);
    c.add_hessian_contraction(q_bar, gamma, 1.0, H);
    auto r = out.residual();
    r.segment(0, n) = G0.transpose() * mu;
    r.segment(n, n) = -h_ * (H * u);
    r.segment(2 * n, n) = -G_bar.transpose() * gamma;
    c.calc_value(q1, r.segment(3 * n, m));
    r.segment(3 * n + m, m) = G_bar * u;
    if (!out.with_matrix()) return;
    out.block(0) = G0.transpose();
    out.block(1) = -G_bar.transpose();
    c.calc_jacobian(q1, out.block(2));
    out.block(3) = G_bar;
    if (c.nonlinearity() == Nonlinearity::linear) return;
    const Matrix Hu = hessians_times(c, q_bar, u);
    out.block(4) = -h_ * H;
    out.block(5) = -h_ * Hu;
    out.block(6) = -h_ * H;
    out.block(7) = h_ * Hu.transpose();
  }

  /// R_v += h C(q0) v;  K_vv += h C(q0).
  void evaluate_dissipation(const Placed<Dissipation>& e, ConstVectorRef x, UnitOutput& out) const {
    Vector q0, v;
    gather(state_->q, e.dofs, q0);
    gather(x.segment(fields_.v(), fields_.d), e.dofs, v);
    e.element->add_damping_force(q0, v, h_, out.residual());
    if (out.with_matrix()) e.element->add_damping_matrix(q0, h_, out.block(0));
  }

  /// R_v -= h f(t0, q0)   (constant during the step).
  void evaluate_load(const Placed<ExternalLoad>& e, UnitOutput& out) const {
    Vector q0;
    gather(state_->q, e.dofs, q0);
    e.element->add_generalized_force(state_->t, q0, -h_, out.residual());
  }

  const System& system_;
  Fields fields_;
  std::vector<Matrix> masses_;
  std::vector<UnitRef> refs_;
};

GglVariationalIntegrator::GglVariationalIntegrator(const System& system, const StepperOptions& options)
    : system_(system) {
  require_unsymmetric_capable_solver(name(), options.solver);
  require_quadratic_constraints(name(), system);
  require_one_inertia_per_coordinate(name(), system);
  inverse_masses_ = invert_masses(name(), system);
  step_system_ = std::make_unique<StepSystem>(system, constant_masses(system));
  newton_ = std::make_unique<NewtonSolver>(step_system_->pattern(), options.solver, options.newton);
}

GglVariationalIntegrator::~GglVariationalIntegrator() = default;

void GglVariationalIntegrator::initialize(State& state) const {
  check_initial_state(system_, state, name());
  initialize_momentum(system_, state);
}

NewtonReport GglVariationalIntegrator::step(State& state, double h) {
  check_step_input(system_, state, h, name());
  const Fields f{system_.num_coordinates(), system_.num_multipliers()};
  Vector x(f.size());
  x << state.v, state.v, state.q + h * state.v, h * state.lambda, Vector::Zero(f.m);
  step_system_->set_step(state, h);
  const NewtonReport report = step_system_->solve(*newton_, x, describe_step(state, h));
  state.q = x.segment(f.q(), f.d);
  state.v = x.segment(f.u(), f.d);
  calc_momentum(system_, state.q, state.v, state.p);
  state.lambda = x.segment(f.mu(), f.m) / h;
  state.t += h;
  ++state.step;
  return report;
}

double GglVariationalIntegrator::conserved_energy(const State& state) const {
  check_state_sizes(system_, state, name());
  double kinetic = 0.0;
  Vector p;
  for (std::size_t i = 0; i < inverse_masses_.size(); ++i) {
    gather(state.p, system_.inertias()[i].dofs, p);
    kinetic += 0.5 * p.dot(inverse_masses_[i] * p);
  }
  return kinetic + potential_energy(system_, state.q);
}

}  // namespace noether

#include <noether/steppers/livens_em.hpp>

#include <algorithm>
#include <memory_resource>
#include <optional>
#include <span>
#include <vector>

#include <noether/engine/gonzalez.hpp>
#include <noether/engine/structure.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/steppers/sparse_constant_data.hpp>
#include <noether/steppers/step_system.hpp>

namespace noether {
namespace {

/// What a unit evaluates. The kinds with constant data (constant_inertia, quadratic_constraint) are
/// evaluated from the stepper's own copy of that data, without calls on the element.
enum class UnitKind {
  constant_inertia, inertia, quadratic_constraint, constraint, potential, dissipation, load
};
/// What the evaluation of a unit reads first; for the kinds with constant data, all but that data.
struct UnitRef {
  UnitKind kind;
  Index size;              ///< n, the element's number of local coordinates
  std::size_t index;       ///< into the system's list of that kind (blocks, inertias, ...)
  Index runs_begin;        ///< the element's dofs are dof_runs_[runs_begin, runs_end)
  Index runs_end;
  Index multipliers = -1;  ///< constraints: position of mu_0 in x (d + the first multiplier row)
};

/// The global coordinates [first, first + size). An element's dofs are a few such runs (one per
/// coordinate block it touches), so its local values are a view (one run) or a few segment copies.
struct DofRun {
  Index first, size;
};

/// Appends the runs of dofs (in order, consecutive dofs merged) to runs.
void append_runs(std::span<const Index> dofs, std::vector<DofRun>& runs) {
  for (std::size_t i = 0; i < dofs.size(); ++i) {
    if (i > 0 && dofs[i] == dofs[i - 1] + 1) ++runs.back().size;
    else runs.push_back({dofs[i], 1});
  }
}

/// Per-thread work space of the unit evaluations, one buffer per local quantity. The buffers only
/// grow, so the Newton loop does not allocate once every unit size has been seen; they hold no
/// state between units. A view of a buffer stays valid until the buffer is viewed at a larger size.
struct Scratch {
  std::vector<double> q0, q1, q_mid, dq, v0, v1, Gbar;
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

/// The first `size` values of `buffer` (grown if shorter).
Eigen::Map<Vector> view(std::vector<double>& buffer, Index size) {
  if (buffer.size() < static_cast<std::size_t>(size)) buffer.resize(static_cast<std::size_t>(size));
  return {buffer.data(), size};
}
Eigen::Map<Matrix> view(std::vector<double>& buffer, Index rows, Index cols) {
  return {view(buffer, rows * cols).data(), rows, cols};
}

/// A view of local values: a segment of a global vector, or a scratch buffer. (Unlike
/// ConstVectorRef, which carries a Vector for temporaries, it has nothing to construct or free.)
using LocalVector = Eigen::Map<const Vector>;

/// x at the n dofs given by runs: a view into x for a single run, else gathered into `buffer`.
LocalVector local_values(const Vector& x, std::span<const DofRun> runs, Index n, std::vector<double>& buffer) {
  if (runs.size() == 1) return {x.data() + runs[0].first, n};
  Eigen::Map<Vector> local = view(buffer, n);
  Index offset = 0;
  for (const DofRun& run : runs) {
    local.segment(offset, run.size) = x.segment(run.first, run.size);
    offset += run.size;
  }
  return {local.data(), n};
}

/// global at the n dofs given by runs += local (n): the counterpart of local_values.
void add_at_dofs(const Vector& local, std::span<const DofRun> runs, VectorRef global) {
  Index offset = 0;
  for (const DofRun& run : runs) {
    global.segment(run.first, run.size) += local.segment(offset, run.size);
    offset += run.size;
  }
}

/// (a + b)/2 in `buffer`.
LocalVector midpoint(const LocalVector& a, const LocalVector& b, std::vector<double>& buffer) {
  Eigen::Map<Vector> mid = view(buffer, a.size());
  mid = 0.5 * (a + b);
  return {mid.data(), mid.size()};
}

/// Local quantities of one element at one Newton iterate (views into global vectors or scratch).
struct LocalStep {
  LocalVector q0, q1, dq, v0, v1;
};

}  // namespace

void require_unsymmetric_capable_solver(std::string_view stepper, LinearSolverKind kind) {
  if (kind == LinearSolverKind::cholmod)
    throw StepperRefusal(std::string(stepper) +
                         ": CHOLMOD needs a symmetric positive definite matrix, and this stepper's Newton "
                         "matrix is unsymmetric and indefinite; choose --solver klu (the default), umfpack or eigen "
                         "(CHOLMOD serves the SPD projection of initial values)");
}

/// The Newton system of one Livens step, x = (dq, mu) with q1 = q0 + dq.
///
/// Constant data is read once, as lists of nonzeros: M of constant-mass inertias, and c, L, H_k of
/// constraints of degree <= 2 (solvers/sparse_constant_data.hpp). The gradients of the linear
/// potentials are summed once into constant_gradient_; with -2 p0 it forms the part of R_q that
/// does not depend on the unknowns, placed once per step (prepare_step) as the start of every
/// assembly (no unit of its own).
class LivensEnergyMomentum::StepSystem final : public StepSystemBase {
 public:
  explicit StepSystem(const System& system)
      : system_(system), constant_masses_(constant_mass_matrices(system, constant_data_)),
        quadratic_constraints_(sparse_quadratic_constraints(system, constant_data_)),
        constant_gradient_(linear_potential_gradient(system)) {
    make_plan();
  }

  void evaluate_natural(ConstVectorRef x, VectorRef residual, bool with_matrix) override {
    const Index d = system_.num_coordinates();
    q1_.resize(d);
    v1_.resize(d);
    for_each_index_range(d, [&](Index begin, Index end) {
      const Index size = end - begin;
      q1_.segment(begin, size) = state_->q.segment(begin, size) + x.segment(begin, size);
      v1_.segment(begin, size) = 2.0 / h_ * x.segment(begin, size) - state_->v.segment(begin, size);
    });
    assembler().assemble([&](Index u, UnitOutput& out) { evaluate_unit(u, x, out); }, state_rows_, residual,
                         with_matrix);
  }

  /// The rows of the residual that do not depend on the unknowns: h grad V of the linear
  /// potentials - 2 p0 in the momentum rows of R_q; the assembly starts from them.
  void prepare_step() override {
    place_at_coordinate_rows([&](Index i) { return h_ * constant_gradient_(i) - 2.0 * state_->p(i); }, state_rows_);
  }

  /// p1 = 2 Dbar_2 T(z0, z1) - p0 at the converged step (q1, v1 from the last evaluate).
  /// The dofs are read from the units' runs (dof_runs_), which lie in visiting order, rather than
  /// from each element's own list.
  void calc_new_momentum(VectorRef p1) const {
    p1 = -state_->p;
    Scratch& w = scratch();
    Vector grad_v;
    for (const UnitRef& ref : refs_) {
      if (ref.kind != UnitKind::constant_inertia && ref.kind != UnitKind::inertia) continue;
      grad_v.setZero(ref.size);
      if (ref.kind == UnitKind::constant_inertia) {  // 2 M v_mid = M (v0 + v1)
        const LocalVector v0 = local_values(state_->v, ref, w.v0), v1 = local_values(v1_, ref, w.v1);
        for (const SparseEntries::Entry& m : constant_masses_[ref.index].entries())
          grad_v(m.row) += m.value * (v0(m.col) + v1(m.col));
      } else {
        add_discrete_kinetic_gradient(*system_.inertias()[ref.index].element, local_step(ref), 2.0, nullptr, &grad_v);
      }
      add_at_dofs(grad_v, runs_of(ref), p1);
    }
  }
  const Vector& new_velocity() const { return v1_; }
  const Vector& new_position() const { return q1_; }

 private:
  std::string row_label(Index row) const override {
    const Index d = system_.num_coordinates();
    return row < d ? "momentum balance of coordinate " + system_.coordinate_label(row) : system_.multiplier_label(row - d);
  }

  /// multipliers: see UnitRef.
  void add_unit(UnitLayout layout, std::string owner, UnitKind kind, std::size_t index,
                std::span<const Index> element_dofs, Index multipliers = -1) {
    units_.add(std::move(layout), std::move(owner));
    const auto runs_begin = static_cast<Index>(dof_runs_.size());
    append_runs(element_dofs, dof_runs_);
    refs_.push_back({kind, static_cast<Index>(element_dofs.size()), index, runs_begin,
                     static_cast<Index>(dof_runs_.size()), multipliers});
  }

  /// Adds the units to units_ in the order of their smallest coordinate, which is the order in which
  /// the assembly visits them (engine/assembly_schedule.hpp): refs_ and the data of the elements
  /// (in system order, which follows the bodies) are then read in sequence. Builds the assembly.
  void make_plan() {
    struct Planned {
      Index first_coordinate;
      UnitKind kind;
      std::size_t index;
    };
    std::vector<Planned> planned;
    auto plan = [&](UnitKind kind, std::size_t index, std::span<const Index> dofs) {
      planned.push_back({dofs.empty() ? 0 : *std::min_element(dofs.begin(), dofs.end()), kind, index});
    };
    for (std::size_t i = 0; i < system_.inertias().size(); ++i) {
      const auto& e = system_.inertias()[i];
      plan(e.element->has_constant_mass() ? UnitKind::constant_inertia : UnitKind::inertia, i, e.dofs);
    }
    for (std::size_t i = 0; i < system_.potentials().size(); ++i)  // linear ones are in constant_gradient_
      if (system_.potentials()[i].element->nonlinearity() != Nonlinearity::linear)
        plan(UnitKind::potential, i, system_.potentials()[i].dofs);
    for (std::size_t i = 0; i < system_.constraints().size(); ++i)
      plan(quadratic_constraints_[i] ? UnitKind::quadratic_constraint : UnitKind::constraint, i,
           system_.constraints()[i].dofs);
    for (std::size_t i = 0; i < system_.dissipations().size(); ++i)
      plan(UnitKind::dissipation, i, system_.dissipations()[i].dofs);
    for (std::size_t i = 0; i < system_.external_loads().size(); ++i)
      plan(UnitKind::load, i, system_.external_loads()[i].dofs);
    std::stable_sort(planned.begin(), planned.end(),
                     [](const Planned& a, const Planned& b) { return a.first_coordinate < b.first_coordinate; });
    for (const Planned& p : planned) add_unit(p.kind, p.index);
    set_plan(system_, {FieldKind::coordinates, FieldKind::multipliers});
  }

  /// Adds the unit of block or element `index` of the given kind.
  void add_unit(UnitKind kind, std::size_t index) {
    auto square = [](Index n) { return std::vector<LocalBlock>{{0, n, 0, n}}; };
    switch (kind) {
      case UnitKind::constant_inertia:
      case UnitKind::inertia: {
        const auto& e = system_.inertias()[index];
        const Index n = e.element->local_size();
        // (2/h) M is constant for a constant M (h changes invalidate it: StepSystemBase::set_step).
        return add_unit({e.dofs, {{0, n, 0, n, mass_structure(*e.element), kind == UnitKind::constant_inertia}}},
                        "inertia '" + e.element->name() + "'", kind, index, e.dofs);
      }
      case UnitKind::quadratic_constraint:
      case UnitKind::constraint: return add_constraint_unit(kind, index);
      case UnitKind::potential: {
        const auto& e = system_.potentials()[index];
        return add_unit({e.dofs, square(e.element->local_size())}, "potential '" + e.element->name() + "'", kind,
                        index, e.dofs);
      }
      case UnitKind::dissipation: {
        const auto& e = system_.dissipations()[index];
        return add_unit({e.dofs, square(e.element->local_size())}, "dissipation '" + e.element->name() + "'", kind,
                        index, e.dofs);
      }
      case UnitKind::load: {
        const auto& e = system_.external_loads()[index];
        return add_unit({e.dofs, square(e.element->local_size())}, "external load '" + e.element->name() + "'",
                        kind, index, e.dofs);
      }
    }
  }

  /// A constraint's unit: its coordinates and multiplier rows, blocks (q, lambda) Gbar^T, (lambda, q) G
  /// and, unless linear, (q, q).
  void add_constraint_unit(UnitKind kind, std::size_t index) {
    const auto& e = system_.constraints()[index];
    const Index n = e.element->local_size(), m = e.element->num_equations();
    std::vector<Index> dofs = e.dofs;
    const std::vector<Index> rows = index_range(e.first_multiplier, m, system_.num_coordinates());
    dofs.insert(dofs.end(), rows.begin(), rows.end());
    const Structure G = jacobian_structure(*e.element);
    const bool constant_jacobian = kind == UnitKind::quadratic_constraint && quadratic_constraints_[index]->is_linear();
    std::vector<LocalBlock> blocks{{0, n, n, m, G.transpose(), constant_jacobian}, {n, m, 0, n, G, constant_jacobian}};
    if (e.element->nonlinearity() != Nonlinearity::linear) blocks.push_back({0, n, 0, n, hessian_structure(*e.element)});
    add_unit({std::move(dofs), std::move(blocks)}, "constraint '" + e.element->name() + "'", kind, index, e.dofs,
             system_.num_coordinates() + e.first_multiplier);
  }

  /// The runs of dofs of the unit's element.
  std::span<const DofRun> runs_of(const UnitRef& ref) const {
    return {dof_runs_.data() + ref.runs_begin, dof_runs_.data() + ref.runs_end};
  }

  /// x at the dofs of the unit's element, in `buffer` unless a view suffices.
  LocalVector local_values(const Vector& x, const UnitRef& ref, std::vector<double>& buffer) const {
    return noether::local_values(x, runs_of(ref), ref.size, buffer);
  }

  /// q0, q1, dq, v0, v1 at the dofs of the unit's element, in this thread's scratch.
  LocalStep local_step(const UnitRef& ref) const {
    Scratch& w = scratch();
    return {local_values(state_->q, ref, w.q0), local_values(q1_, ref, w.q1), local_values(natural_x(), ref, w.dq),
            local_values(state_->v, ref, w.v0), local_values(v1_, ref, w.v1)};
  }

  /// grad_q += s Dbar_1 T, grad_v += s Dbar_2 T (either may be null), Dbar T between z0 and z1:
  /// Gonzalez's discrete gradient in z = (q, v), for an inertia whose M depends on q.
  static void add_discrete_kinetic_gradient(const Inertia& inertia, const LocalStep& st, double s,
                                            Vector* grad_q, Vector* grad_v) {
    const Index n = st.q0.size();
    const Vector q_mid = 0.5 * (st.q0 + st.q1);
    const Vector v_mid = 0.5 * (st.v0 + st.v1);
    Vector z0(2 * n), z1(2 * n), grad_mid = Vector::Zero(2 * n), dbar = Vector::Zero(2 * n);
    z0 << st.q0, st.v0;
    z1 << st.q1, st.v1;
    inertia.add_kinetic_gradient(q_mid, v_mid, 1.0, grad_mid.head(n), grad_mid.tail(n));
    add_gonzalez_gradient(z0, z1, inertia.kinetic_energy(st.q0, st.v0), inertia.kinetic_energy(st.q1, st.v1),
                          grad_mid, s, dbar);
    if (grad_q) *grad_q += dbar.head(n);
    if (grad_v) *grad_v += dbar.tail(n);
  }

  void evaluate_unit(Index u, ConstVectorRef x, UnitOutput& out) const override {
    const UnitRef& ref = refs_[static_cast<std::size_t>(u)];
    switch (ref.kind) {
      case UnitKind::constant_inertia: return evaluate_constant_inertia(ref, out);
      case UnitKind::inertia: return evaluate_inertia(ref, out);
      case UnitKind::quadratic_constraint: return evaluate_quadratic_constraint(ref, x, out);
      case UnitKind::constraint: return evaluate_constraint(ref, x, out);
      case UnitKind::potential: return evaluate_potential(ref, out);
      case UnitKind::dissipation: return evaluate_dissipation(ref, out);
      case UnitKind::load: return evaluate_load(ref, out);
    }
  }

  /// evaluate_inertia for a constant M: Dbar_1 T = 0 and Dbar_2 T = M v_mid = M dq/h, so
  /// R = (2/h) M dq, K = (2/h) M.
  void evaluate_constant_inertia(const UnitRef& ref, UnitOutput& out) const {
    const LocalVector dq = local_values(natural_x(), ref, scratch().dq);
    const double s = 2.0 / h_;
    Eigen::Map<Vector>& R = out.residual();
    if (!out.with_matrix()) {
      for (const SparseEntries::Entry& e : constant_masses_[ref.index].entries()) R(e.row) += s * e.value * dq(e.col);
      return;
    }
    Eigen::Map<Matrix> K = out.block(0);
    for (const SparseEntries::Entry& e : constant_masses_[ref.index].entries()) {
      R(e.row) += s * e.value * dq(e.col);
      K(e.row, e.col) += s * e.value;
    }
  }

  /// R += 2 Dbar_2 T - h Dbar_1 T;  K += d/dq1 of it, with dv1/dq1 = 2/h. Dbar T: Gonzalez's
  /// discrete gradient of T in z = (q, v).
  void evaluate_inertia(const UnitRef& ref, UnitOutput& out) const {
    const Placed<Inertia>& e = system_.inertias()[ref.index];
    const Inertia& inertia = *e.element;
    const LocalStep s = local_step(ref);
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

  /// R += h Dbar V(q0, q1);  K += h d/dq1 Dbar V.
  void evaluate_potential(const UnitRef& ref, UnitOutput& out) const {
    const Placed<Potential>& e = system_.potentials()[ref.index];
    Scratch& w = scratch();
    const LocalVector q0 = local_values(state_->q, ref, w.q0);
    const LocalVector q1 = local_values(q1_, ref, w.q1);
    e.element->add_discrete_gradient(q0, q1, h_, out.residual());
    if (out.with_matrix()) e.element->add_discrete_gradient_jacobian(q0, q1, h_, out.block(0));
  }

  /// mu = h lambda of the constraint (m), a view into x.
  static LocalVector multipliers(const UnitRef& ref, Index m, ConstVectorRef x) {
    return {x.data() + ref.multipliers, m};
  }

  /// evaluate_constraint for degree <= 2, from the sparse constant data: Gbar = G(q_mid),
  /// d(Gbar^T mu)/dq1 = 1/2 sum_k mu_k H_k.
  void evaluate_quadratic_constraint(const UnitRef& ref, ConstVectorRef x, UnitOutput& out) const {
    const SparseQuadraticConstraint& c = *quadratic_constraints_[ref.index];
    const Index n = ref.size, m = c.num_equations();
    Scratch& w = scratch();
    const LocalVector q1 = local_values(q1_, ref, w.q1);
    const LocalVector q_mid =  // G is constant when linear: any point will do
        c.is_linear() ? q1 : midpoint(local_values(state_->q, ref, w.q0), q1, w.q_mid);
    const LocalVector mu = multipliers(ref, m, x);
    auto R_q = out.residual().head(n);
    auto R_lambda = out.residual().tail(m);
    if (!out.with_matrix()) {
      c.calc_value(q1, R_lambda);
      c.add_jacobian_transpose_product(q_mid, mu, R_q);
      return;
    }
    // The same sums in one pass over the entries, which also writes the blocks.
    R_lambda = c.constant_part();
    Eigen::Map<Matrix> Gbar_t = out.block(0), G1 = out.block(1);
    for (const SparseEntries::Entry& t : c.linear_part().entries()) {  // L(k, j) = t.value, k = t.row, j = t.col
      R_lambda(t.row) += t.value * q1(t.col);
      R_q(t.col) += t.value * mu(t.row);
      Gbar_t(t.col, t.row) += t.value;
      G1(t.row, t.col) += t.value;
    }
    if (c.is_linear()) return;
    Eigen::Map<Matrix> K = out.block(2);
    for (Index k = 0; k < m; ++k) {
      double form = 0.0;  // q1^T H_k q1
      for (const SparseEntries::Entry& t : c.hessian(k)) {  // H_k(i, j) = t.value, i = t.row, j = t.col
        const double at_mid = t.value * q_mid(t.col), at_end = t.value * q1(t.col);
        form += q1(t.row) * at_end;
        R_q(t.row) += mu(k) * at_mid;
        Gbar_t(t.row, k) += at_mid;
        G1(k, t.row) += at_end;
        K(t.row, t.col) += 0.5 * mu(k) * t.value;
      }
      R_lambda(k) += 0.5 * form;
    }
  }

  /// R_q += Gbar^T mu, R_lambda = g(q1); blocks: (q, lambda) Gbar^T, (lambda, q) G(q1), (q, q) d(Gbar^T mu)/dq1.
  /// Gbar: Gonzalez's, row by row.
  void evaluate_constraint(const UnitRef& ref, ConstVectorRef x, UnitOutput& out) const {
    const Placed<Constraint>& e = system_.constraints()[ref.index];
    const Constraint& c = *e.element;
    const Index n = c.local_size(), m = c.num_equations();
    const LocalVector mu = multipliers(ref, m, x);
    Scratch& w = scratch();
    const LocalVector q0 = local_values(state_->q, ref, w.q0);
    const LocalVector q1 = local_values(q1_, ref, w.q1);
    Eigen::Map<Matrix> Gbar = view(w.Gbar, m, n);
    c.calc_discrete_gradient(q0, q1, Gbar);
    c.calc_value(q1, out.residual().tail(m));
    out.residual().head(n).noalias() = Gbar.transpose() * mu;
    if (!out.with_matrix()) return;
    out.block(0) = Gbar.transpose();
    c.calc_jacobian(q1, out.block(1));
    c.add_discrete_gradient_contraction_jacobian(q0, q1, mu, 1.0, out.block(2));
  }

  /// R += C(q_mid)(q1 - q0);  K += C(q_mid) + 1/2 d(C(q) dq)/dq at q_mid.
  void evaluate_dissipation(const UnitRef& ref, UnitOutput& out) const {
    const Placed<Dissipation>& e = system_.dissipations()[ref.index];
    Scratch& w = scratch();
    const LocalVector q0 = local_values(state_->q, ref, w.q0);
    const LocalVector q1 = local_values(q1_, ref, w.q1);
    const LocalVector q_mid = midpoint(q0, q1, w.q_mid);
    const LocalVector dq = local_values(natural_x(), ref, w.dq);
    e.element->add_damping_force(q_mid, dq, 1.0, out.residual());
    if (!out.with_matrix()) return;
    e.element->add_damping_matrix(q_mid, 1.0, out.block(0));
    e.element->add_damping_force_q_jacobian(q_mid, dq, 0.5, out.block(0));
  }

  /// R -= h f(t_mid, q_mid);  K -= h/2 df/dq.
  void evaluate_load(const UnitRef& ref, UnitOutput& out) const {
    const Placed<ExternalLoad>& e = system_.external_loads()[ref.index];
    Scratch& w = scratch();
    const LocalVector q0 = local_values(state_->q, ref, w.q0);
    const LocalVector q1 = local_values(q1_, ref, w.q1);
    const LocalVector q_mid = midpoint(q0, q1, w.q_mid);
    const double t_mid = state_->t + 0.5 * h_;
    e.element->add_generalized_force(t_mid, q_mid, -h_, out.residual());
    if (out.with_matrix()) e.element->add_generalized_force_q_jacobian(t_mid, q_mid, -0.5 * h_, out.block(0));
  }

  /// M of each constant-mass inertia element (no entries otherwise), computed once.
  static std::vector<SparseEntries> constant_mass_matrices(const System& system, Arena& arena) {
    std::vector<SparseEntries> masses;
    for (const Placed<Inertia>& e : system.inertias()) {
      const Index n = e.element->local_size();
      if (!e.element->has_constant_mass()) {
        masses.emplace_back();
        continue;
      }
      Matrix M = Matrix::Zero(n, n);
      e.element->add_mass_matrix(Vector::Zero(n), 1.0, M);
      masses.emplace_back(M, arena);
    }
    return masses;
  }

  /// The constant data of each constraint of degree <= 2 (nothing for general ones), computed once.
  static std::vector<std::optional<SparseQuadraticConstraint>> sparse_quadratic_constraints(
      const System& system, Arena& arena) {
    std::vector<std::optional<SparseQuadraticConstraint>> constraints;
    for (const Placed<Constraint>& e : system.constraints()) {
      constraints.emplace_back();
      if (is_at_most_quadratic(e.element->nonlinearity())) constraints.back().emplace(*e.element, arena);
    }
    return constraints;
  }

  /// sum of DV over the linear potentials (constant; d), computed once.
  static Vector linear_potential_gradient(const System& system) {
    Vector gradient = Vector::Zero(system.num_coordinates()), local;
    for (const Placed<Potential>& e : system.potentials()) {
      if (e.element->nonlinearity() != Nonlinearity::linear) continue;
      const Index n = e.element->local_size();
      local.setZero(n);
      e.element->add_gradient(Vector::Zero(n), 1.0, local);
      for (Index k = 0; k < n; ++k) gradient(e.dofs[static_cast<std::size_t>(k)]) += local(k);
    }
    return gradient;
  }

  const System& system_;
  std::vector<UnitRef> refs_;
  std::vector<DofRun> dof_runs_;  ///< of every unit's element, in unit order (UnitRef::runs_begin)
  Arena constant_data_;  ///< holds the entries of the two below (alike elements share one copy)
  std::vector<SparseEntries> constant_masses_;
  std::vector<std::optional<SparseQuadraticConstraint>> quadratic_constraints_;
  Vector constant_gradient_;
  Vector state_rows_;  ///< of the current step (prepare_step), Newton order
  Vector q1_, v1_;     ///< of the last evaluate; dq is natural_x()'s head
};

LivensEnergyMomentum::LivensEnergyMomentum(const System& system, const StepperOptions& options)
    : system_(system), step_system_(std::make_unique<StepSystem>(system)) {
  require_unsymmetric_capable_solver(name(), options.solver);
  newton_ = std::make_unique<NewtonSolver>(step_system_->pattern(), options.solver, options.newton);
}

LivensEnergyMomentum::~LivensEnergyMomentum() = default;

void LivensEnergyMomentum::initialize(State& state) const {
  check_initial_state(system_, state, name());
  initialize_momentum(system_, state);
}

NewtonReport LivensEnergyMomentum::step(State& state, double h) {
  check_step_input(system_, state, h, name());
  const Index d = system_.num_coordinates();
  const Index m = system_.num_multipliers();
  const StepGuess guess = predictor_.predict(state, h);
  Vector x(d + m);
  x.head(d) = 0.5 * h * (state.v + guess.v1);  // dq = h v_mid
  x.tail(m) = h * guess.lambda;
  step_system_->set_step(state, h);
  const NewtonReport report = step_system_->solve(*newton_, x, describe_step(state, h));
  State after{state.step + 1, state.t + h, step_system_->new_position(), step_system_->new_velocity(), Vector(d),
              x.tail(m) / h};
  step_system_->calc_new_momentum(after.p);
  predictor_.record(state, after, h);
  state = std::move(after);
  return report;
}

double LivensEnergyMomentum::conserved_energy(const State& state) const {
  check_state_sizes(system_, state, name());
  return state.p.dot(state.v) - kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
}

}  // namespace noether

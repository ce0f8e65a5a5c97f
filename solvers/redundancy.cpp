#include <noether/solvers/redundancy.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <noether/engine/measures.hpp>
#include <noether/engine/quote.hpp>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <SuiteSparseQR.hpp>

namespace noether {
namespace {

using RowMajorSparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;

/// G(q) (m x d) of all constraints of the system, sparse (entries of a dof an element lists twice add).
RowMajorSparse jacobian(const System& system, ConstVectorRef q) {
  std::vector<Eigen::Triplet<double>> entries;
  Vector q_local;
  Matrix G;
  for (const Placed<Constraint>& e : system.constraints()) {
    gather(q, e.dofs, q_local);
    G.resize(e.element->num_equations(), e.element->local_size());
    e.element->calc_jacobian(q_local, G);
    for (Index k = 0; k < G.rows(); ++k)
      for (Index j = 0; j < G.cols(); ++j)
        if (G(k, j) != 0.0) entries.emplace_back(e.first_multiplier + k, e.dofs[static_cast<std::size_t>(j)], G(k, j));
  }
  RowMajorSparse out(system.num_multipliers(), system.num_coordinates());
  out.setFromTriplets(entries.begin(), entries.end());
  return out;
}

/// G(q)^T (d x m) in compressed columns with 64-bit indices (SuiteSparseQR's), each column scaled
/// to unit 2-norm (zero columns stay zero).
struct ScaledJacobianTranspose {
  std::vector<SuiteSparse_long> starts{0}, rows;
  std::vector<double> values;
};

ScaledJacobianTranspose scaled_jacobian_transpose(const System& system, ConstVectorRef q) {
  const RowMajorSparse G = jacobian(system, q);
  ScaledJacobianTranspose A;
  for (Index r = 0; r < G.outerSize(); ++r) {
    const double norm = G.row(r).norm();
    for (RowMajorSparse::InnerIterator it(G, r); it; ++it) {
      A.rows.push_back(it.col());
      A.values.push_back(it.value() / norm);
    }
    A.starts.push_back(static_cast<SuiteSparse_long>(A.rows.size()));
  }
  return A;
}

/// Backward substitution R11 c = b over the leading rank x rank block of the upper triangular R
/// (compressed columns): overwrites b (rank) with c.
void solve_upper(const cholmod_sparse& R, SuiteSparse_long rank, std::vector<double>& b) {
  const auto* p = static_cast<const SuiteSparse_long*>(R.p);
  const auto* i = static_cast<const SuiteSparse_long*>(R.i);
  const auto* x = static_cast<const double*>(R.x);
  for (SuiteSparse_long j = rank - 1; j >= 0; --j) {
    double diagonal = 0.0;
    for (SuiteSparse_long k = p[j]; k < p[j + 1]; ++k)
      if (i[k] == j) diagonal = x[k];
    b[static_cast<std::size_t>(j)] /= diagonal;
    for (SuiteSparse_long k = p[j]; k < p[j + 1]; ++k)
      if (i[k] < j) b[static_cast<std::size_t>(i[k])] -= x[k] * b[static_cast<std::size_t>(j)];
  }
}

/// Column `column` of R above row `rank` (the dead column's R12 part), dense.
std::vector<double> upper_part(const cholmod_sparse& R, SuiteSparse_long column, SuiteSparse_long rank) {
  std::vector<double> b(static_cast<std::size_t>(rank), 0.0);
  const auto* p = static_cast<const SuiteSparse_long*>(R.p);
  const auto* i = static_cast<const SuiteSparse_long*>(R.i);
  const auto* x = static_cast<const double*>(R.x);
  for (SuiteSparse_long k = p[column]; k < p[column + 1]; ++k)
    if (i[k] < rank) b[static_cast<std::size_t>(i[k])] = x[k];
  return b;
}

/// Frees SuiteSparseQR's outputs and CHOLMOD's workspace whichever way the scope is left.
struct QrOutputs {
  cholmod_common common{};
  cholmod_sparse* R = nullptr;
  SuiteSparse_long* E = nullptr;
  std::size_t columns = 0;
  QrOutputs() { cholmod_l_start(&common); }
  ~QrOutputs() {
    if (R) cholmod_l_free_sparse(&R, &common);
    if (E) cholmod_l_free(columns, sizeof(SuiteSparse_long), E, &common);
    cholmod_l_finish(&common);
  }
  QrOutputs(const QrOutputs&) = delete;
  QrOutputs& operator=(const QrOutputs&) = delete;
};

}  // namespace

ConstraintRank constraint_rank(const System& system, ConstVectorRef q, double tolerance) {
  if (q.size() != system.num_coordinates())
    throw std::invalid_argument("constraint_rank: q holds " + std::to_string(q.size()) + " entries, the system has " +
                                std::to_string(system.num_coordinates()) + " coordinates");
  ConstraintRank result;
  result.equations = system.num_multipliers();
  if (result.equations == 0) return result;
  ScaledJacobianTranspose A = scaled_jacobian_transpose(system, q);
  cholmod_sparse view{};
  view.nrow = static_cast<std::size_t>(system.num_coordinates());
  view.ncol = static_cast<std::size_t>(result.equations);
  view.nzmax = A.rows.size();
  view.p = A.starts.data();
  view.i = A.rows.data();
  view.x = A.values.data();
  view.itype = CHOLMOD_LONG;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = 1;
  view.packed = 1;
  QrOutputs qr;
  qr.columns = view.ncol;
  const SuiteSparse_long rank = SuiteSparseQR<double>(SPQR_ORDERING_DEFAULT, tolerance, result.equations, &view,
                                                      &qr.R, &qr.E, &qr.common);
  if (rank < 0 || !qr.R) throw std::runtime_error("constraint_rank: SuiteSparseQR failed (status " +
                                                  std::to_string(qr.common.status) + ")");
  result.rank = static_cast<Index>(rank);
  const auto original = [&](SuiteSparse_long k) { return static_cast<Index>(qr.E ? qr.E[k] : k); };
  for (SuiteSparse_long dead = rank; dead < result.equations; ++dead) {
    std::vector<double> c = upper_part(*qr.R, dead, rank);
    solve_upper(*qr.R, rank, c);
    const double largest = c.empty() ? 0.0 : std::abs(*std::max_element(c.begin(), c.end(), [](double a, double b) {
      return std::abs(a) < std::abs(b);
    }));
    DependentEquation equation{original(dead), {}};
    for (SuiteSparse_long k = 0; k < rank; ++k)
      if (std::abs(c[static_cast<std::size_t>(k)]) > 1e-8 * largest) equation.depends_on.push_back(original(k));
    std::sort(equation.depends_on.begin(), equation.depends_on.end());
    result.dependent.push_back(std::move(equation));
  }
  return result;
}

namespace {

/// The rows of `rows` (global multiplier rows) that belong to constraint e, in its local numbering.
std::vector<Index> local_rows(const Placed<Constraint>& e, const std::vector<Index>& rows) {
  std::vector<Index> local;
  for (Index r : rows)
    if (r >= e.first_multiplier && r < e.first_multiplier + e.element->num_equations())
      local.push_back(r - e.first_multiplier);
  return local;
}

/// y - G^T (G G^T)^{-1} G y: the part of y tangent to the constraints of G (full row rank).
Vector tangent_part(const RowMajorSparse& G, const Vector& y) {
  const Eigen::SparseMatrix<double> GGt = G * G.transpose();
  const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(GGt);
  return y - G.transpose() * ldlt.solve(G * y);
}

/// q near q0 on the constraints of `system` (full row rank there), a step of relative size 1e-3
/// along a fixed direction tangent to them, projected back by Gauss-Newton.
Vector nearby_configuration(const System& system, ConstVectorRef q0) {
  Vector direction(q0.size());
  for (Index i = 0; i < q0.size(); ++i) direction(i) = std::sin(1.0 + 2.3 * i);  // fixed, generic
  direction = tangent_part(jacobian(system, q0), direction);
  Vector q = q0 + 1e-3 * std::max(1.0, q0.cwiseAbs().maxCoeff()) / direction.cwiseAbs().maxCoeff() * direction;
  Vector g(system.num_multipliers());
  for (int iteration = 0; iteration < 8; ++iteration) {
    calc_constraint_values(system, q, g);
    if (g.cwiseAbs().maxCoeff() <= 1e-13) break;
    const RowMajorSparse G = jacobian(system, q);
    const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(Eigen::SparseMatrix<double>(G * G.transpose()));
    q -= G.transpose() * ldlt.solve(g);
  }
  return q;
}

}  // namespace

ConstraintRank structural_redundancy(const System& system, ConstVectorRef q, double tolerance) {
  const ConstraintRank at_q = constraint_rank(system, q, tolerance);
  if (at_q.dependent.empty()) return at_q;
  std::vector<Index> rows;
  for (const DependentEquation& e : at_q.dependent) rows.push_back(e.row);
  const Vector nearby = nearby_configuration(*without_equations(system, rows), q);
  return constraint_rank(system, nearby, tolerance);
}

std::unique_ptr<System> without_equations(const System& system, const std::vector<Index>& rows) {
  std::unique_ptr<System> out = system.blocks_only();
  for (const Placed<Inertia>& e : system.inertias()) out->add(e.element);
  for (const Placed<Potential>& e : system.potentials()) out->add(e.element);
  for (const Placed<Constraint>& e : system.constraints()) {
    const std::vector<Index> dropped = local_rows(e, rows);
    if (dropped.empty()) {
      out->add(e.element);
      continue;
    }
    std::vector<Index> kept;
    for (Index k = 0; k < e.element->num_equations(); ++k)
      if (std::find(dropped.begin(), dropped.end(), k) == dropped.end()) kept.push_back(k);
    if (kept.empty()) continue;
    std::vector<Index> ascending = dropped;
    std::sort(ascending.begin(), ascending.end());
    std::string name = e.element->name() + (ascending.size() == 1 ? " without row" : " without rows");
    for (const Index row : ascending) {
      name += ' ';
      name += std::to_string(row);
    }
    out->add(std::make_shared<SelectedRows>(std::move(name), e.element, std::move(kept)));
  }
  for (const Placed<Dissipation>& e : system.dissipations()) out->add(e.element);
  for (const Placed<ExternalLoad>& e : system.external_loads()) out->add(e.element);
  for (const Placed<Actuator>& e : system.actuators()) out->add(e.element);
  return out;
}

namespace {

/// The kept functions of a form, as a form of their own.
QuadraticForm selected_form(const std::string& owner, const QuadraticFormView& full, const std::vector<Index>& kept) {
  const Index n = full.num_coordinates(), m = static_cast<Index>(kept.size());
  Vector constant(m);
  Matrix linear = Matrix::Zero(m, n);
  std::vector<Matrix> hessians;
  for (Index k = 0; k < m; ++k) {
    const Index row = kept[static_cast<std::size_t>(k)];
    constant(k) = full.constant_part()(row);
    for (const Nonzero& l : full.linear_part().entries())
      if (l.row == row) linear(k, l.col) = l.value;
    Matrix H = Matrix::Zero(n, n);
    for (const Nonzero& h : full.hessian(row)) H(h.row, h.col) = h.value;
    hessians.push_back(std::move(H));
  }
  return QuadraticForm(owner, constant, linear, hessians);
}

std::vector<BlockId> blocks_of(const Constraint& c) { return {c.blocks().begin(), c.blocks().end()}; }

}  // namespace

SelectedRows::SelectedRows(std::string name, std::shared_ptr<const Constraint> full, std::vector<Index> kept)
    : Constraint(std::move(name), blocks_of(*full)), full_(std::move(full)), kept_(std::move(kept)) {
  for (std::size_t k = 0; k < kept_.size(); ++k)
    if (kept_[k] < 0 || kept_[k] >= full_->num_equations() || (k > 0 && kept_[k] <= kept_[k - 1]))
      throw std::invalid_argument("constraint " + quote(this->name()) + ": kept rows must be ascending rows of " +
                                  quote(full_->name()) + " (0 to " + std::to_string(full_->num_equations() - 1) + ")");
  if (const QuadraticFormView* form = full_->quadratic_form())
    form_.emplace(selected_form("constraint " + quote(this->name()), *form, kept_));
}

void SelectedRows::do_calc_value(ConstVectorRef q, VectorRef g) const {
  Vector all(full_->num_equations());
  full_->calc_value(q, all);
  for (std::size_t k = 0; k < kept_.size(); ++k) g(static_cast<Index>(k)) = all(kept_[k]);
}

void SelectedRows::do_calc_jacobian(ConstVectorRef q, MatrixRef G) const {
  Matrix all(full_->num_equations(), full_->local_size());
  full_->calc_jacobian(q, all);
  for (std::size_t k = 0; k < kept_.size(); ++k) G.row(static_cast<Index>(k)) = all.row(kept_[k]);
}

void SelectedRows::do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const {
  Vector all = Vector::Zero(full_->num_equations());
  for (std::size_t k = 0; k < kept_.size(); ++k) all(kept_[k]) = lambda(static_cast<Index>(k));
  full_->add_hessian_contraction(q, all, s, K);
}

std::string describe_rank_loss(const System& system, ConstVectorRef q, double tolerance) {
  const ConstraintRank rank = constraint_rank(system, q, tolerance);
  if (rank.dependent.empty()) return {};
  std::string text = "the constraint Jacobian is (nearly) rank deficient (rank " + std::to_string(rank.rank) + " of " +
                     std::to_string(rank.equations) + "):";
  for (const DependentEquation& e : rank.dependent) {
    text += ' ';
    text += describe_dependency(system, e);
    text += ';';
  }
  text.pop_back();
  return text;
}

std::string describe_dependency(const System& system, const DependentEquation& equation) {
  std::string text = system.multiplier_label(equation.row) + " depends on";
  if (equation.depends_on.empty()) return text + " nothing: its row of G vanishes";
  // Labels read "<element> row <k>": the rows of one element are listed together.
  std::vector<std::pair<std::string, std::string>> groups;  // (element, "k1, k2, ...")
  for (Index row : equation.depends_on) {
    const std::string label = system.multiplier_label(row);
    const std::size_t split = label.rfind(" row ");
    const std::string element = label.substr(0, split), index = label.substr(split + 5);
    if (!groups.empty() && groups.back().first == element) groups.back().second += ", " + index;
    else groups.emplace_back(element, index);
  }
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const bool several = groups[k].second.find(',') != std::string::npos;
    text += k == 0 ? " " : ", ";  // "; " separates dependencies (describe_rank_loss, describe_redundancy)
    text += groups[k].first;
    text += several ? " rows " : " row ";
    text += groups[k].second;
  }
  return text;
}

std::string describe_redundancy(const System& system, const ConstraintRank& redundancy) {
  const std::size_t count = redundancy.dependent.size();
  std::string text = std::to_string(count) + (count == 1 ? " constraint equation depends" : " constraint equations depend") +
                     " on the others along the motion:";
  for (const DependentEquation& e : redundancy.dependent) {
    text += ' ';
    text += describe_dependency(system, e);
    text += ';';
  }
  text.pop_back();
  return text;
}

}  // namespace noether

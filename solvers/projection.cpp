#include <noether/solvers/projection.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include <Eigen/SparseCholesky>

#include <noether/engine/measures.hpp>

namespace noether {
namespace {

/// Upper bound on the smallest eigenvalue of the Jacobi-scaled G G^T below which the rows of G
/// count as linearly dependent: their angle to the span of the others is then below ~1e-6 rad,
/// and corrections would be amplified by ~1e6 or more (by 1/eps for exact dependence).
constexpr double kMinScaledEigenvalue = 1e-12;

std::string format(double value) {
  std::ostringstream out;
  out.precision(3);
  out << std::scientific << value;
  return out.str();
}

std::string format_history(const std::vector<double>& history) {
  std::string out;
  for (double r : history) out += " " + format(r);
  return out;
}

Index argmax_abs(ConstVectorRef x) {
  Index worst = 0;
  for (Index i = 1; i < x.size(); ++i)
    if (!(std::abs(x(i)) <= std::abs(x(worst)))) worst = i;  // NaN wins, so it gets named
  return worst;
}

void check_size(const char* what, ConstVectorRef x, Index expected) {
  if (x.size() != expected)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(x.size()) + " entries; the system has " +
                                std::to_string(expected) + " coordinates");
}

}  // namespace

ConstraintProjector::ConstraintProjector(const System& system, ProjectionOptions options)
    : system_use_(system, "a ConstraintProjector"), system_(system), options_(options), m_(system.num_multipliers()),
      linear_solver_(make_linear_solver(options.solver)) {
  if (!(options_.tolerance > 0.0))
    throw std::invalid_argument("projection tolerance must be positive, got " + format(options_.tolerance));
  if (options_.max_iterations < 1)
    throw std::invalid_argument("projection needs max_iterations >= 1, got " + std::to_string(options_.max_iterations));
  build_jacobian_structure();
  build_product_pattern(linear_solver_->needs_symmetric_positive_definite());
  values_.assign(static_cast<std::size_t>(pattern_.nnz()), 0.0);
  if (m_ > 0) linear_solver_->analyze_pattern(pattern_);
}

ConstraintProjector::~ConstraintProjector() = default;

void ConstraintProjector::build_jacobian_structure() {
  g_row_starts_.assign(1, 0);
  for (const Placed<Constraint>& e : system_.constraints()) {
    std::vector<Index> distinct = e.dofs;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::vector<Index> offsets;
    for (Index dof : e.dofs)
      offsets.push_back(static_cast<Index>(std::lower_bound(distinct.begin(), distinct.end(), dof) - distinct.begin()));
    g_local_offsets_.push_back(std::move(offsets));
    for (Index k = 0; k < e.element->num_equations(); ++k) {
      g_columns_.insert(g_columns_.end(), distinct.begin(), distinct.end());
      g_row_starts_.push_back(static_cast<Index>(g_columns_.size()));
    }
  }
  g_values_.assign(g_columns_.size(), 0.0);
}

void ConstraintProjector::build_product_pattern(bool upper_triangle_only) {
  const auto constraints = system_.constraints();
  const std::size_t num_elements = constraints.size();
  std::vector<std::vector<Index>> elements_of_coordinate(static_cast<std::size_t>(system_.num_coordinates()));
  std::vector<Index> owner_of_row;
  for (std::size_t e = 0; e < num_elements; ++e) {
    const Index first = constraints[e].first_multiplier;
    for (Index col = g_row_starts_[static_cast<std::size_t>(first)]; col < g_row_starts_[static_cast<std::size_t>(first) + 1]; ++col)
      elements_of_coordinate[static_cast<std::size_t>(g_columns_[static_cast<std::size_t>(col)])].push_back(static_cast<Index>(e));
    owner_of_row.insert(owner_of_row.end(), static_cast<std::size_t>(constraints[e].element->num_equations()),
                        static_cast<Index>(e));
  }
  std::vector<std::vector<Index>> coupled(num_elements);
  for (const std::vector<Index>& sharing : elements_of_coordinate)
    for (Index a : sharing) coupled[static_cast<std::size_t>(a)].insert(coupled[static_cast<std::size_t>(a)].end(), sharing.begin(), sharing.end());
  for (std::vector<Index>& list : coupled) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }

  pattern_.n = m_;
  pattern_.column_starts.assign(1, 0);
  product_starts_.assign(1, 0);
  for (Index j = 0; j < m_; ++j) {
    for (Index b : coupled[static_cast<std::size_t>(owner_of_row[static_cast<std::size_t>(j)])]) {
      const Placed<Constraint>& other = constraints[static_cast<std::size_t>(b)];
      for (Index i = other.first_multiplier; i < other.first_multiplier + other.element->num_equations(); ++i) {
        if (upper_triangle_only && i > j) break;
        pattern_.row_indices.push_back(i);
        // Common coordinates of rows i and j: a merge of their sorted column lists.
        Index pi = g_row_starts_[static_cast<std::size_t>(i)], pj = g_row_starts_[static_cast<std::size_t>(j)];
        const Index end_i = g_row_starts_[static_cast<std::size_t>(i) + 1], end_j = g_row_starts_[static_cast<std::size_t>(j) + 1];
        while (pi < end_i && pj < end_j) {
          const Index ci = g_columns_[static_cast<std::size_t>(pi)], cj = g_columns_[static_cast<std::size_t>(pj)];
          if (ci < cj) ++pi;
          else if (cj < ci) ++pj;
          else {
            product_pairs_.push_back(pi++);
            product_pairs_.push_back(pj++);
          }
        }
        product_starts_.push_back(static_cast<Index>(product_pairs_.size() / 2));
      }
    }
    pattern_.column_starts.push_back(pattern_.nnz());
  }
}

void ConstraintProjector::calc_jacobian_values(ConstVectorRef q) {
  std::fill(g_values_.begin(), g_values_.end(), 0.0);
  Vector q_local;
  Matrix G;
  const auto constraints = system_.constraints();
  for (std::size_t e = 0; e < constraints.size(); ++e) {
    const Placed<Constraint>& c = constraints[e];
    gather(q, c.dofs, q_local);
    G.resize(c.element->num_equations(), q_local.size());
    c.element->calc_jacobian_at(options_.time, q_local, G);
    const std::vector<Index>& offsets = g_local_offsets_[e];
    for (Index k = 0; k < G.rows(); ++k) {
      const Index base = g_row_starts_[static_cast<std::size_t>(c.first_multiplier + k)];
      for (Index j = 0; j < G.cols(); ++j)
        g_values_[static_cast<std::size_t>(base + offsets[static_cast<std::size_t>(j)])] += G(k, j);
    }
    if (!G.allFinite()) {
      Index row = 0, col = 0;
      (!G.array().isFinite()).cast<int>().maxCoeff(&row, &col);
      throw ProjectionError("the constraint Jacobian G has a non-finite entry in " +
                            system_.multiplier_label(c.first_multiplier + row) + " at coordinate " +
                            system_.coordinate_label(c.dofs[static_cast<std::size_t>(col)]));
    }
  }
}

void ConstraintProjector::factorize(const char* what, int iteration) {
  for (Index s = 0; s < pattern_.nnz(); ++s) {
    double sum = 0.0;
    for (Index k = product_starts_[static_cast<std::size_t>(s)]; k < product_starts_[static_cast<std::size_t>(s) + 1]; ++k)
      sum += g_values_[static_cast<std::size_t>(product_pairs_[2 * static_cast<std::size_t>(k)])] *
             g_values_[static_cast<std::size_t>(product_pairs_[2 * static_cast<std::size_t>(k) + 1])];
    values_[static_cast<std::size_t>(s)] = sum;
  }
  Vector sqrt_diagonal(m_);
  for (Index j = 0; j < m_; ++j) {
    const double d = values_[static_cast<std::size_t>(pattern_.find(j, j))];
    if (!(d > 0.0)) fail_rank(what, iteration, "");
    sqrt_diagonal(j) = std::sqrt(d);
  }
  const FactorizationStatus status = linear_solver_->factorize(values_);
  if (!status.ok) fail_rank(what, iteration, status.message);
  // Inverse iteration on S = D^{-1/2} (G G^T) D^{-1/2}: |S^{-1} x| <= 1/lambda_min(S) for unit x,
  // so 1/|S^{-1} x| bounds lambda_min(S) from above.
  std::mt19937 generator(2024);
  Vector x(m_), y(m_);
  for (Index i = 0; i < m_; ++i) x(i) = static_cast<double>(generator()) / 4294967296.0 - 0.5;
  x.normalize();
  double eigenvalue_bound = 0.0;
  for (int sweep = 0; sweep < 2; ++sweep) {
    solve(Vector(sqrt_diagonal.cwiseProduct(x)), y);
    x = sqrt_diagonal.cwiseProduct(y);
    eigenvalue_bound = 1.0 / x.norm();
    x *= eigenvalue_bound;
  }
  if (!(eigenvalue_bound > kMinScaledEigenvalue))
    fail_rank(what, iteration, "scaled smallest eigenvalue at most " + format(eigenvalue_bound));
}

void ConstraintProjector::fail_rank(const char* what, int iteration, const std::string& backend_message) const {
  // Natural-order LDL^T: pivot k is the squared distance of row k of G from the span of rows
  // 0..k-1, so the first small pivot (relative to the diagonal) names a row that repeats others.
  using SparseMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, Index>;
  const SparseMatrix A = Eigen::Map<const SparseMatrix>(m_, m_, pattern_.nnz(), pattern_.column_starts.data(),
                                                        pattern_.row_indices.data(), values_.data());
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Upper, Eigen::NaturalOrdering<Index>> ldlt(A);
  const Vector pivots = ldlt.vectorD();
  Index column = -1;
  double relative_pivot = 0.0;
  for (Index k = 0; k < m_; ++k) {
    const double diagonal = A.coeff(k, k);
    const double relative = diagonal > 0.0 ? pivots(k) / diagonal : 0.0;
    if (column < 0 || !(relative > kMinScaledEigenvalue) || relative < relative_pivot) {
      column = k;
      relative_pivot = relative;
    }
    if (!(relative > kMinScaledEigenvalue)) break;  // also stops at Eigen's exactly zero pivot
  }
  throw ProjectionError(std::string(what) + ", iteration " + std::to_string(iteration) +
                        ": G G^T is not positive definite: the constraints are redundant or the configuration is "
                        "singular (column " + std::to_string(column) + ": " + system_.multiplier_label(column) +
                        " depends on the rows before it, relative pivot " + format(relative_pivot) + ")" +
                        (backend_message.empty() ? "" : "; " + backend_message));
}

void ConstraintProjector::add_rates(ConstVectorRef q, Vector& gv) const {
  Vector q_local, rate;
  for (const Placed<Constraint>& c : system_.constraints()) {
    if (!c.element->rheonomic()) continue;
    gather(q, c.dofs, q_local);
    rate.resize(c.element->num_equations());
    c.element->calc_rate(options_.time, q_local, rate);
    gv.segment(c.first_multiplier, rate.size()) += rate;
  }
}

void ConstraintProjector::apply_transpose(const Vector& y, Vector& x) const {
  x.setZero(system_.num_coordinates());
  for (Index r = 0; r < m_; ++r)
    for (Index k = g_row_starts_[static_cast<std::size_t>(r)]; k < g_row_starts_[static_cast<std::size_t>(r) + 1]; ++k)
      x(g_columns_[static_cast<std::size_t>(k)]) += g_values_[static_cast<std::size_t>(k)] * y(r);
}

void ConstraintProjector::apply(ConstVectorRef x, Vector& y) const {
  y.resize(m_);
  for (Index r = 0; r < m_; ++r) {
    double sum = 0.0;
    for (Index k = g_row_starts_[static_cast<std::size_t>(r)]; k < g_row_starts_[static_cast<std::size_t>(r) + 1]; ++k)
      sum += g_values_[static_cast<std::size_t>(k)] * x(g_columns_[static_cast<std::size_t>(k)]);
    y(r) = sum;
  }
}

void ConstraintProjector::solve(const Vector& b, Vector& x) {
  x.resize(m_);
  linear_solver_->solve(std::span<const double>(b.data(), static_cast<std::size_t>(m_)),
                        std::span<double>(x.data(), static_cast<std::size_t>(m_)));
}

bool ConstraintProjector::met(ConstVectorRef residuals, double largest) const {
  if (options_.row_tolerances.size() != m_) return largest <= options_.tolerance;
  return (residuals.cwiseAbs().array() <= options_.row_tolerances.array()).all();
}

std::string ConstraintProjector::tolerance_text(const char* what) const {
  if (options_.row_tolerances.size() == m_) return std::string("its row tolerances for ") + what;
  return std::string("max") + what + " <= " + format(options_.tolerance);
}

ProjectionReport ConstraintProjector::project_positions(VectorRef q) {
  check_size("q", q, system_.num_coordinates());
  ProjectionReport report;
  Vector g(m_), y, correction;
  if (m_ == 0) return report;  // nothing to project onto
  // The rank is checked at q even when q is on the constraints already.
  calc_jacobian_values(q);
  factorize("position projection", 0);
  ++report.factorizations;
  for (;;) {
    calc_constraint_values(system_, q, g, options_.time);
    const double residual = max_abs(g);
    report.history.push_back(residual);
    if (met(g, residual)) return report;
    const std::string worst = m_ > 0 ? system_.multiplier_label(argmax_abs(g)) : "";
    if (!std::isfinite(residual))
      throw ProjectionError("position projection, iteration " + std::to_string(report.iterations) +
                            ": g(q) is not finite in " + worst);
    if (report.iterations == options_.max_iterations)
      throw ProjectionError("position projection did not reach " + tolerance_text("|g|") + " in " +
                            std::to_string(options_.max_iterations) + " iterations; max|g| history" +
                            format_history(report.history) + "; largest |g| in " + worst);
    if (report.iterations > 0) {
      calc_jacobian_values(q);
      factorize("position projection", report.iterations);
      ++report.factorizations;
    }
    solve(g, y);
    apply_transpose(y, correction);
    q -= correction;
    ++report.iterations;
  }
}

ProjectionReport ConstraintProjector::project_velocities(ConstVectorRef q, VectorRef v) {
  check_size("q", q, system_.num_coordinates());
  check_size("v", v, system_.num_coordinates());
  ProjectionReport report;
  if (m_ == 0) return report;  // nothing to project onto
  calc_jacobian_values(q);
  factorize("velocity projection", 0);  // the rank is checked whatever v is, v = 0 included
  ++report.factorizations;
  Vector gv, y, correction;
  for (;;) {
    apply(v, gv);
    add_rates(q, gv);
    const double residual = max_abs(gv);
    report.history.push_back(residual);
    if (met(gv, residual)) return report;
    const std::string worst = system_.multiplier_label(argmax_abs(gv));
    if (!std::isfinite(residual))
      throw ProjectionError("velocity projection: G v is not finite in " + worst);
    if (report.iterations == options_.max_iterations)
      throw ProjectionError("velocity projection did not reach " + tolerance_text("|G v|") + " in " +
                            std::to_string(options_.max_iterations) + " sweeps; max|G v| history" +
                            format_history(report.history) + "; largest |G v| in " + worst);
    solve(gv, y);
    apply_transpose(y, correction);
    v -= correction;
    ++report.iterations;
  }
}

ProjectionReport project_positions(const System& system, VectorRef q, const ProjectionOptions& options) {
  ConstraintProjector projector(system, options);
  return projector.project_positions(q);
}

ProjectionReport project_velocities(const System& system, ConstVectorRef q, VectorRef v,
                                    const ProjectionOptions& options) {
  ConstraintProjector projector(system, options);
  return projector.project_velocities(q, v);
}

}  // namespace noether

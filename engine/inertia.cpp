#include <noether/engine/inertia.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <Eigen/Eigenvalues>

#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {

namespace {

/// Local sizes up to this (a 3D director body has 12 coordinates) keep M on the stack.
constexpr Index kStackMassSize = 12;

/// f(M(q)) for an inertia's M(q) (n x n), built on the stack for small n.
template <class F>
auto with_mass_matrix(const Inertia& inertia, ConstVectorRef q, F&& f) {
  const Index n = inertia.local_size();
  const auto build = [&](auto M) {  // M: a zero n x n matrix
    inertia.add_mass_matrix(q, 1.0, M);
    return f(M);
  };
  using StackMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kStackMassSize, kStackMassSize>;
  if (n <= kStackMassSize) return build(StackMatrix(StackMatrix::Zero(n, n)));
  return build(Matrix(Matrix::Zero(n, n)));
}

/// The refusal of a mass check: "<kind> '<name>': <what><why>".
[[noreturn]] void refuse_mass(std::string_view kind, std::string_view name, const char* what, const std::string& why) {
  throw std::invalid_argument(std::string(kind) + " " + quote(name) + ": " + what + why);
}

}  // namespace

void check_positive_semidefinite_mass(std::string_view kind, std::string_view name, const char* what,
                                      const Matrix& mass) {
  const auto refuse = [&](const std::string& why) { refuse_mass(kind, name, what, why); };
  if (mass.rows() != mass.cols() || mass.rows() == 0)
    refuse(" must be square and non-empty, got " + std::to_string(mass.rows()) + " x " + std::to_string(mass.cols()));
  if (!mass.allFinite()) refuse(" has a non-finite entry");
  const double largest = mass.cwiseAbs().maxCoeff();
  if ((mass - mass.transpose()).cwiseAbs().maxCoeff() > 1e-14 * (1.0 + largest)) refuse(" must be symmetric");
  const double smallest = Eigen::SelfAdjointEigenSolver<Matrix>(mass, Eigen::EigenvaluesOnly).eigenvalues()(0);
  if (smallest < -1e-12 * largest)
    refuse(" has the negative eigenvalue " + format_number(smallest) +
           "; a mass matrix is positive semidefinite (it may be singular: livens-em takes that)");
}

void check_entry_magnitudes(std::string_view kind, std::string_view name, const char* what, ConstMatrixRef mass) {
  const auto refuse = [&](Index i, Index j, const std::string& refusal) {
    refuse_mass(kind, name, what, " entry (" + std::to_string(i) + ", " + std::to_string(j) + ") " + refusal);
  };
  for (Index j = 0; j < mass.cols(); ++j)
    for (Index i = 0; i < mass.rows(); ++i) {
      const double entry = mass(i, j);
      if (is_subnormal(entry)) refuse(i, j, subnormal_refusal(entry, true));
      if (std::isfinite(entry) && beyond_double_range(entry)) refuse(i, j, overflow_refusal(entry));
    }
}

namespace {

/// mass, once check_entry_magnitudes and check_positive_semidefinite_mass accept it (in this order:
/// the eigenvalues of entries beyond the range overflow).
const Matrix& checked_mass(const std::string& name, const Matrix& mass) {
  check_entry_magnitudes("inertia", name, "the mass matrix", mass);
  check_positive_semidefinite_mass("inertia", name, "the mass matrix", mass);
  return mass;
}

}  // namespace

ConstantMassInertia::ConstantMassInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass)
    : ConstantMassInertia(name, std::move(blocks), checked_mass(name, mass), MassPositivity::everywhere) {}

ConstantMassInertia::ConstantMassInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass,
                                         MassPositivity positivity)
    : Inertia(std::move(name), std::move(blocks)), local_size_(static_cast<Index>(mass.rows())), mass_(mass),
      positivity_(positivity) {}

std::optional<Momenta> Inertia::momenta(ConstVectorRef q, ConstVectorRef v, const Eigen::Vector3d& about) const {
  const RigidMotionLayout* layout = rigid_motion_layout();
  if (!layout) return std::nullopt;
  if (layout->size() != local_size())
    throw std::logic_error("inertia " + quote(name()) + ": its rigid motion layout describes " +
                           std::to_string(layout->size()) + " coordinates, the element has " +
                           std::to_string(local_size()));
  const auto momenta_of = [&](auto p) {  // p: a zero n-vector, to hold M(q) v
    if (const SparseEntries* constant = constant_mass())
      constant->add_product(v, 1.0, p);  // the nonzeros alone: 48 of a director body's 144 entries
    else
      with_mass_matrix(*this, q, [&](const auto& M) { return p.noalias() = M * v; });
    return layout->momenta(q, p, about);
  };
  using StackVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kStackMassSize, 1>;
  const Index n = local_size();
  if (n <= kStackMassSize) return momenta_of(StackVector(StackVector::Zero(n)));
  return momenta_of(Vector(Vector::Zero(n)));
}

double Inertia::kinetic_energy(ConstVectorRef q, ConstVectorRef v) const {
  return with_mass_matrix(*this, q, [&](const auto& M) { return 0.5 * v.dot(M * v); });
}

void Inertia::add_kinetic_gradient(ConstVectorRef q, ConstVectorRef v, double s, VectorRef grad_q,
                                   VectorRef grad_v) const {
  const Index n = local_size();
  Matrix M = Matrix::Zero(n, n);
  do_add_mass_matrix(q, 1.0, M);
  grad_v.noalias() += s * (M * v);
  do_add_kinetic_gradient_q(q, v, s, grad_q);
}

void Inertia::add_kinetic_hessian(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef H) const {
  const Index n = local_size();
  do_add_mass_matrix(q, s, H.bottomRightCorner(n, n));
  if (has_constant_mass()) return;
  Matrix H_qq = Matrix::Zero(n, n);
  Matrix H_qv = Matrix::Zero(n, n);
  do_add_kinetic_hessian_q(q, v, s, H_qq, H_qv);
  H.topLeftCorner(n, n) += H_qq;
  H.topRightCorner(n, n) += H_qv;
  H.bottomLeftCorner(n, n) += H_qv.transpose();
}

}  // namespace noether

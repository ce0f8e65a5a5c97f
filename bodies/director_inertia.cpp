#include <noether/bodies/director_inertia.hpp>

#include <stdexcept>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include <noether/engine/format.hpp>

namespace noether {

namespace {

/// kron(Mbar, I_dim) after the checks DirectorInertia documents.
Matrix checked_director_mass(const std::string& name, Index dimension, const Matrix& coefficients) {
  const std::string who = "inertia '" + name + "': ";
  if (dimension != 2 && dimension != 3)
    throw std::invalid_argument(who + "dimension is " + std::to_string(dimension) + "; give 2 or 3");
  if (coefficients.rows() == 0 || coefficients.rows() != coefficients.cols())
    throw std::invalid_argument(who + "the mass coefficients Mbar must be square and non-empty, got " +
                                std::to_string(coefficients.rows()) + " x " + std::to_string(coefficients.cols()));
  if (!coefficients.allFinite()) throw std::invalid_argument(who + "the mass coefficients have a non-finite entry");
  if ((coefficients - coefficients.transpose()).cwiseAbs().maxCoeff() > 1e-14 * coefficients.cwiseAbs().maxCoeff())
    throw std::invalid_argument(who + "the mass coefficients Mbar must be symmetric");
  const double smallest = Eigen::SelfAdjointEigenSolver<Matrix>(coefficients).eigenvalues()(0);
  if (smallest < -1e-12 * coefficients.cwiseAbs().maxCoeff())
    throw std::invalid_argument(who + "the mass coefficients Mbar have the negative eigenvalue " +
                                format_number(smallest) + "; a mass matrix is positive semi-definite");
  const Index k = static_cast<Index>(coefficients.rows());
  Matrix M = Matrix::Zero(dimension * k, dimension * k);
  for (Index b = 0; b < k; ++b)
    for (Index a = 0; a < k; ++a)
      M.block(dimension * a, dimension * b, dimension, dimension).diagonal().setConstant(coefficients(a, b));
  return M;
}

}  // namespace

DirectorInertia::DirectorInertia(std::string name, BlockId block, Index dimension, Matrix mass_coefficients)
    : ConstantMassInertia(name, {block}, checked_director_mass(name, dimension, mass_coefficients)),
      dimension_(dimension), coefficients_(std::move(mass_coefficients)) {}

Eigen::Vector3d DirectorInertia::point(ConstVectorRef x, Index a) const {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  p.head(dimension_) = x.segment(dimension_ * a, dimension_);
  return p;
}

Eigen::Vector3d DirectorInertia::linear_momentum(ConstVectorRef v) const {
  const Index k = static_cast<Index>(coefficients_.rows());
  Eigen::Vector3d L = Eigen::Vector3d::Zero();
  for (Index b = 0; b < k; ++b) L += coefficients_(0, b) * point(v, b);
  return L;
}

Eigen::Vector3d DirectorInertia::angular_momentum(ConstVectorRef q, ConstVectorRef v) const {
  const Index k = static_cast<Index>(coefficients_.rows());
  Eigen::Vector3d J = Eigen::Vector3d::Zero();
  for (Index a = 0; a < k; ++a) {
    Eigen::Vector3d p_a = Eigen::Vector3d::Zero();  // sum_b Mbar_ab x_b'
    for (Index b = 0; b < k; ++b) p_a += coefficients_(a, b) * point(v, b);
    J += point(q, a).cross(p_a);
  }
  return J;
}

}  // namespace noether

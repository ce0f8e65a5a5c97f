#include <noether/bodies/director_inertia.hpp>

#include <stdexcept>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include <noether/engine/format.hpp>

namespace noether {

DirectorInertia::DirectorInertia(std::string name, BlockId block, Index dimension, Matrix mass_coefficients)
    : Inertia(std::move(name), {block}), dimension_(dimension), coefficients_(std::move(mass_coefficients)) {
  const std::string who = "inertia '" + this->name() + "': ";
  if (dimension_ != 2 && dimension_ != 3)
    throw std::invalid_argument(who + "dimension is " + std::to_string(dimension_) + "; give 2 or 3");
  if (coefficients_.rows() == 0 || coefficients_.rows() != coefficients_.cols())
    throw std::invalid_argument(who + "the mass coefficients Mbar must be square and non-empty, got " +
                                std::to_string(coefficients_.rows()) + " x " + std::to_string(coefficients_.cols()));
  if (!coefficients_.allFinite()) throw std::invalid_argument(who + "the mass coefficients have a non-finite entry");
  if ((coefficients_ - coefficients_.transpose()).cwiseAbs().maxCoeff() > 1e-14 * coefficients_.cwiseAbs().maxCoeff())
    throw std::invalid_argument(who + "the mass coefficients Mbar must be symmetric");
  const double smallest = Eigen::SelfAdjointEigenSolver<Matrix>(coefficients_).eigenvalues()(0);
  if (smallest < -1e-12 * coefficients_.cwiseAbs().maxCoeff())
    throw std::invalid_argument(who + "the mass coefficients Mbar have the negative eigenvalue " +
                                format_number(smallest) + "; a mass matrix is positive semi-definite");
}

void DirectorInertia::do_add_mass_matrix(ConstVectorRef, double s, MatrixRef M) const {
  const Index k = static_cast<Index>(coefficients_.rows());
  for (Index b = 0; b < k; ++b)
    for (Index a = 0; a < k; ++a)
      if (coefficients_(a, b) != 0.0)
        M.block(dimension_ * a, dimension_ * b, dimension_, dimension_).diagonal().array() += s * coefficients_(a, b);
}

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

#include <noether/bodies/director_inertia.hpp>

#include <stdexcept>

#include <Eigen/Eigenvalues>

#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {

namespace {

/// Relative tolerance of the symmetry and semi-definiteness checks (as body_properties.cpp's).
constexpr double kRelativeTolerance = 1e-12;

/// The smallest eigenvalue of a symmetric matrix (fixed-size or dynamic: a 3 x 3 one stays on the
/// stack).
template <class SymmetricMatrix>
double smallest_eigenvalue(const SymmetricMatrix& symmetric) {
  return Eigen::SelfAdjointEigenSolver<SymmetricMatrix>(symmetric, Eigen::EigenvaluesOnly).eigenvalues()(0);
}

/// What a refusal of inertia `name` starts with: made only for a refusal (a model checks every
/// body).
std::string owner(const std::string& name) { return "inertia " + quote(name) + ": "; }

/// Throws unless the kinetic energy of orthonormal-director motions is positive: m > 0 and
/// J_c = tr(E_c) I - E_c positive semidefinite (DirectorInertia's admitted_motions).
void check_admitted_motions(const std::string& name, Index dimension, const Matrix& coefficients) {
  if (dimension != 3 || coefficients.rows() != 4)
    throw std::invalid_argument(owner(name) + "a mass matrix positive only on the admitted motions is for 3D "
                                              "director bodies (4 x 4 mass coefficients); got dimension " +
                                std::to_string(dimension) + " and " + std::to_string(coefficients.rows()) +
                                " coefficients");
  const double m = coefficients(0, 0);
  if (!(m > 0.0)) throw std::invalid_argument(owner(name) + "the mass Mbar_00 is " + format_number(m) + "; give m > 0");
  const Eigen::Vector3d mc = coefficients.block<3, 1>(1, 0);
  const Eigen::Matrix3d euler_c = coefficients.block<3, 3>(1, 1) - mc * mc.transpose() / m;
  const Eigen::Matrix3d inertia_c = euler_c.trace() * Eigen::Matrix3d::Identity() - euler_c;
  const double smallest = smallest_eigenvalue(inertia_c);
  if (smallest < -kRelativeTolerance * inertia_c.cwiseAbs().maxCoeff())
    throw std::invalid_argument(owner(name) + "the inertia tensor about the centre of mass has the negative principal "
                                              "moment " + format_number(smallest) +
                                "; the kinetic energy of a rotation must not be negative");
}

/// kron(Mbar, I_dim) after the checks DirectorInertia documents.
Matrix checked_director_mass(const std::string& name, Index dimension, const Matrix& coefficients,
                             MassPositivity positivity) {
  if (dimension != 2 && dimension != 3)
    throw std::invalid_argument(owner(name) + "dimension is " + std::to_string(dimension) + "; give 2 or 3");
  if (coefficients.rows() == 0 || coefficients.rows() != coefficients.cols())
    throw std::invalid_argument(owner(name) + "the mass coefficients Mbar must be square and non-empty, got " +
                                std::to_string(coefficients.rows()) + " x " + std::to_string(coefficients.cols()));
  if (!coefficients.allFinite()) throw std::invalid_argument(owner(name) + "the mass coefficients have a non-finite entry");
  if ((coefficients - coefficients.transpose()).cwiseAbs().maxCoeff() > 1e-14 * coefficients.cwiseAbs().maxCoeff())
    throw std::invalid_argument(owner(name) + "the mass coefficients Mbar must be symmetric");
  check_entry_magnitudes("inertia", name, "the mass coefficients Mbar", coefficients);
  if (positivity == MassPositivity::admitted_motions) {
    check_admitted_motions(name, dimension, coefficients);
  } else {
    const double smallest = smallest_eigenvalue(coefficients);
    if (smallest < -kRelativeTolerance * coefficients.cwiseAbs().maxCoeff())
      throw std::invalid_argument(owner(name) + "the mass coefficients Mbar have the negative eigenvalue " +
                                  format_number(smallest) + "; a mass matrix is positive semi-definite");
  }
  const Index k = static_cast<Index>(coefficients.rows());
  Matrix M = Matrix::Zero(dimension * k, dimension * k);
  for (Index b = 0; b < k; ++b)
    for (Index a = 0; a < k; ++a)
      M.block(dimension * a, dimension * b, dimension, dimension).diagonal().setConstant(coefficients(a, b));
  return M;
}

}  // namespace

DirectorInertia::DirectorInertia(std::string name, BlockId block, Index dimension, Matrix mass_coefficients,
                                 MassPositivity positivity)
    : ConstantMassInertia(name, {block}, checked_director_mass(name, dimension, mass_coefficients, positivity),
                          positivity),
      dimension_(dimension), coefficients_(std::move(mass_coefficients)),
      layout_(RigidMotionLayout::body(dimension, static_cast<Index>(coefficients_.rows()) - 1)) {}

}  // namespace noether

#include <noether/bodies/body_properties.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// Relative tolerance of the symmetry and semi-definiteness checks: round-off of inertia
/// tensors rotated into body axes is far below it, typing errors are far above it.
constexpr double kRelativeTolerance = 1e-12;

[[noreturn]] void reject(const std::string& body, const std::string& what) {
  throw std::invalid_argument("body " + quote(body) + ": " + what);
}

/// "(x, y[, z])" (a stream, not string concatenation: GCC 12 warns falsely on "(" + std::string&&).
template <int n>
std::string str(const Eigen::Matrix<double, n, 1>& v) {
  std::ostringstream out;
  out << '(' << v(0);
  for (int i = 1; i < n; ++i) out << ", " << v(i);
  out << ')';
  return out.str();
}

void check_mass(const std::string& body, double mass) {
  if (!std::isfinite(mass) || mass <= 0.0)
    reject(body, "mass is " + format_number(mass) + "; give a finite, positive mass");
  if (is_subnormal(mass)) reject(body, "the mass " + subnormal_refusal(mass, false));
  if (beyond_double_range(mass)) reject(body, "the mass " + overflow_refusal(mass));
}

/// Checks the principal moments of a symmetric, finite J_c against `requirement`
/// (InertiaRequirement).
void check_principal_moments(const std::string& body, const Eigen::Matrix3d& inertia, InertiaRequirement requirement) {
  const Eigen::Vector3d moments = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(inertia).eigenvalues();
  const double tolerance = kRelativeTolerance * moments.cwiseAbs().maxCoeff();
  if (requirement == InertiaRequirement::positive_definite) {
    if (!(moments(0) > tolerance))
      reject(body, "the inertia tensor is not positive definite: principal moments " + str(moments) +
                       "; a model body (InertiaRequirement::positive_definite) needs every moment > 0");
    return;
  }
  if (moments(0) < -tolerance)
    reject(body, "the inertia tensor is not positive semi-definite: principal moments " + str(moments) +
                     "; give J_c about the centre of mass in body axes");
  if (moments(2) > moments(0) + moments(1) + tolerance)
    reject(body, "the principal moments " + str(moments) +
                     " violate the triangle inequality J_i <= J_j + J_k; no mass distribution has them. For a "
                     "model body (the free rigid body of Hairer, Lubich and Wanner, say) set "
                     "requirement = InertiaRequirement::positive_definite");
}

}  // namespace

Eigen::Matrix4d director_mass_coefficients(const std::string& body, const RigidBodyProperties& properties) {
  const double m = properties.mass;
  const Eigen::Vector3d& c = properties.center_of_mass;
  const Eigen::Matrix3d& J = properties.inertia;
  check_mass(body, m);
  if (!c.allFinite()) reject(body, "the centre of mass " + str(c) + " is not finite");
  if (!J.allFinite()) reject(body, "the inertia tensor has a non-finite entry");
  check_entry_magnitudes("body", body, "the inertia tensor", J);
  const double asymmetry = (J - J.transpose()).cwiseAbs().maxCoeff();
  if (asymmetry > kRelativeTolerance * J.cwiseAbs().maxCoeff())
    reject(body, "the inertia tensor is not symmetric (max |J - J^T| = " + format_number(asymmetry) + ")");
  const Eigen::Matrix3d J_sym = 0.5 * (J + J.transpose());
  check_principal_moments(body, J_sym, properties.requirement);

  const Eigen::Matrix3d euler_c = 0.5 * J_sym.trace() * Eigen::Matrix3d::Identity() - J_sym;
  Eigen::Matrix4d coefficients;
  coefficients(0, 0) = m;
  coefficients.block<1, 3>(0, 1) = m * c.transpose();
  coefficients.block<3, 1>(1, 0) = m * c;
  coefficients.block<3, 3>(1, 1) = euler_c + m * c * c.transpose();
  return coefficients;
}

MassPositivity mass_positivity(const RigidBodyProperties& properties) {
  return properties.requirement == InertiaRequirement::physical ? MassPositivity::everywhere
                                                                : MassPositivity::admitted_motions;
}

Eigen::Matrix3d director_mass_coefficients(const std::string& body, const PlanarBodyProperties& properties) {
  const double m = properties.mass;
  const Eigen::Vector2d& c = properties.center_of_mass;
  check_mass(body, m);
  if (!c.allFinite()) reject(body, "the centre of mass " + str(c) + " is not finite");
  if (!std::isfinite(properties.inertia) || properties.inertia < 0.0)
    reject(body, "the moment of inertia is " + format_number(properties.inertia) + "; give a finite J_c >= 0");
  if (is_subnormal(properties.inertia))
    reject(body, "the moment of inertia " + subnormal_refusal(properties.inertia, true));
  if (beyond_double_range(properties.inertia))
    reject(body, "the moment of inertia " + overflow_refusal(properties.inertia));

  Eigen::Matrix3d coefficients;
  coefficients(0, 0) = m;
  coefficients.block<1, 2>(0, 1) = m * c.transpose();
  coefficients.block<2, 1>(1, 0) = m * c;
  coefficients.block<2, 2>(1, 1) = 0.5 * properties.inertia * Eigen::Matrix2d::Identity() + m * c * c.transpose();
  return coefficients;
}

Eigen::Matrix<double, 1, 1> point_mass_coefficients(const std::string& body, double mass) {
  check_mass(body, mass);
  return Eigen::Matrix<double, 1, 1>::Constant(mass);
}

}  // namespace noether

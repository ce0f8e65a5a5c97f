#include <noether/steppers/ggl_support.hpp>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include <noether/engine/quote.hpp>
#include <noether/engine/system_part.hpp>

namespace noether {
namespace {

/// Pivots of the LDLT of M below this fraction of the largest one count as zero.
constexpr double kRelativePivotTolerance = 1e-12;

/// M^{-1} of a symmetric M that may be indefinite (MassPositivity::admitted_motions), from its
/// eigenvalues; refuses a singular one (|eigenvalue| <= kRelativePivotTolerance of the largest).
Matrix invert_indefinite(const std::string& what, const Matrix& M) {
  const Eigen::SelfAdjointEigenSolver<Matrix> eigen(M);
  const Vector& values = eigen.eigenvalues();
  const double threshold = kRelativePivotTolerance * values.cwiseAbs().maxCoeff();
  const auto rank = static_cast<Index>((values.array().abs() > threshold).count());
  if (rank < M.rows())
    throw StepperRefusal(what + "is singular (rank " + std::to_string(rank) + " of " + std::to_string(M.rows()) +
                         "); use livens-em, which never inverts M");
  return eigen.eigenvectors() * values.cwiseInverse().asDiagonal() * eigen.eigenvectors().transpose();
}

}  // namespace

Matrix invert_mass(std::string_view stepper, const Inertia& inertia) {
  const std::string what = std::string(stepper) + " needs a constant invertible mass matrix, but inertia " +
                           quote(inertia.name()) + " ";
  if (!inertia.has_constant_mass())
    throw StepperRefusal(what + "depends on the configuration; use livens-em, which takes configuration-dependent "
                                "and singular M");
  const Index n = inertia.local_size();
  Matrix M = Matrix::Zero(n, n);
  inertia.constant_mass()->add_to(1.0, M);
  if (inertia.mass_positivity() == MassPositivity::admitted_motions) return invert_indefinite(what, M);
  const Eigen::LDLT<Matrix> ldlt(M);
  const Vector pivots = ldlt.vectorD();
  const double threshold = kRelativePivotTolerance * (n > 0 ? pivots.cwiseAbs().maxCoeff() : 0.0);
  if ((pivots.array() < -threshold).any())
    throw StepperRefusal(what + "is indefinite: a mass matrix is positive semidefinite; check the element's mass data");
  const auto rank = static_cast<Index>((pivots.array() > threshold).count());
  if (ldlt.info() != Eigen::Success || rank < n)
    throw StepperRefusal(what + "is singular (rank " + std::to_string(rank) + " of " + std::to_string(n) +
                         "); use livens-em, which never inverts M");
  return ldlt.solve(Matrix::Identity(n, n));
}

void require_quadratic_constraints(std::string_view stepper, const System& system) {
  for (const Placed<Constraint>& e : system.constraints())
    if (!e.element->rheonomic() && !is_at_most_quadratic(e.element->nonlinearity()))
      throw StepperRefusal(std::string(stepper) + " needs constraints of degree <= 2 (constant D^2 g, no third "
                           "derivatives), but constraint " + quote(e.element->name()) + " is of general nonlinearity; "
                           "use livens-em, which takes any constraint");
}

void require_one_inertia_per_coordinate(std::string_view stepper, const System& system, const StepperOptions& options) {
  std::vector<int> owner(static_cast<std::size_t>(system.num_coordinates()), -1);
  const auto inertias = system.inertias();
  for (std::size_t i = 0; i < inertias.size(); ++i)
    for (Index dof : inertias[i].dofs) {
      int& o = owner[static_cast<std::size_t>(dof)];
      if (o >= 0)
        throw StepperRefusal(std::string(stepper) + " inverts M per inertia element, but coordinate " +
                             system.coordinate_label(dof) + " belongs to inertias " +
                             quote(inertias[static_cast<std::size_t>(o)].element->name()) + " and " +
                             quote(inertias[i].element->name()) + "; merge them into one inertia element, "
                             "or use livens-em, which never inverts M");
      o = static_cast<int>(i);
    }
  const auto ghost = [&](Index dof) {
    return options.part && options.distribution &&
           options.part->coordinate_owners[static_cast<std::size_t>(dof)] != options.distribution->rank();
  };
  for (Index dof = 0; dof < system.num_coordinates(); ++dof)
    if (owner[static_cast<std::size_t>(dof)] < 0 && !ghost(dof))
      throw StepperRefusal(std::string(stepper) + " needs an invertible mass matrix, but coordinate " +
                           system.coordinate_label(dof) +
                           " has no inertia element; give it a mass, or use livens-em, which never inverts M");
}

std::vector<Matrix> invert_masses(std::string_view stepper, const System& system) {
  std::vector<Matrix> inverses;
  for (const Placed<Inertia>& e : system.inertias()) inverses.push_back(invert_mass(stepper, *e.element));
  return inverses;
}

}  // namespace noether

#pragma once
/// Shared by the steppers that need M^{-1} (ggl-vi, em-ggl, evi) or constant constraint
/// Hessians: the admission checks (each throws StepperRefusal naming the stepper, the element and
/// the alternative).
#include <string_view>
#include <vector>

#include <noether/steppers/stepper.hpp>

namespace noether {

/// Constraints of degree <= 2 only (D^2 g_k constant, so no third derivatives are needed; a rheonomic
/// constraint is of degree <= 2 at every t, Constraint::rheonomic).
void require_quadratic_constraints(std::string_view stepper, const System& system);
/// Every coordinate in exactly one inertia element, so M^{-1} is block diagonal per element. Over
/// parts (options.part) a ghost coordinate is in none here: its inertia is in its owner's part,
/// which checks it.
void require_one_inertia_per_coordinate(std::string_view stepper, const System& system, const StepperOptions& options);
/// M^{-1} of one inertia element; refuses a configuration-dependent, singular (LDLT pivots below
/// 1e-12 of the largest) or indefinite mass matrix. An element whose M is positive only on the
/// motions its body's constraints admit (MassPositivity::admitted_motions: a director body of a
/// model inertia tensor) may be indefinite; its M^{-1} comes from the eigenvalues, which must not
/// vanish (below 1e-12 of the largest). evi uses it as its admission check.
Matrix invert_mass(std::string_view stepper, const Inertia& inertia);
/// M_e^{-1} per inertia element, in system order; refuses configuration-dependent, singular
/// (LDLT pivots below 1e-12 of the largest) or indefinite mass matrices.
std::vector<Matrix> invert_masses(std::string_view stepper, const System& system);

}  // namespace noether

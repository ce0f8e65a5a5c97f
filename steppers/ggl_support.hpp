#pragma once
/// Shared by the GGL-family steppers (ggl-vi, em-ggl), which need M^{-1} and constant constraint
/// Hessians: the admission checks (each throws StepperRefusal naming the stepper, the element and
/// the alternative) and the Hessian-vector products of quadratic constraints.
#include <string_view>
#include <vector>

#include <noether/steppers/stepper.hpp>

namespace noether {

/// Constraints of degree <= 2 only (D^2 g_k constant, so no third derivatives are needed).
void require_quadratic_constraints(std::string_view stepper, const System& system);
/// Every coordinate in exactly one inertia element, so M^{-1} is block diagonal per element.
void require_one_inertia_per_coordinate(std::string_view stepper, const System& system);
/// M_e^{-1} per inertia element, in system order; refuses configuration-dependent, singular
/// (LDLT pivots below 1e-12 of the largest) or indefinite mass matrices.
std::vector<Matrix> invert_masses(std::string_view stepper, const System& system);
/// M_e per inertia element, in system order (constant masses only).
std::vector<Matrix> constant_masses(const System& system);
/// Column k = D^2 g_k u   (n x m); D^2 g_k is constant for constraints of degree <= 2.
Matrix hessians_times(const Constraint& c, ConstVectorRef q, ConstVectorRef u);

}  // namespace noether

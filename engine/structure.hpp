#pragma once
/// Structural nonzeros of element matrices, read off the elements' exact forms: for a
/// constant mass matrix and for constraints of degree <= 2 the structure does not depend on q.
/// Steppers pass them to the assembly so that entries that are zero for every q never enter the
/// sparse pattern (a director body's 12 x 12 mass block has 12 to 48 nonzeros, not 144).
#include <noether/engine/constraint.hpp>
#include <noether/engine/inertia.hpp>

namespace noether {

using Structure = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;

/// n x n: M != 0 for a constant mass matrix; all true when M depends on q.
Structure mass_structure(const Inertia& inertia);
/// m x n: entries of G(q) that can be nonzero. Linear: G != 0. Quadratic: G(q) = G(0) + [H_k q]^T,
/// so (k, j) is structural where G(0)_kj != 0 or row j of H_k has a nonzero. General: all true.
Structure jacobian_structure(const Constraint& constraint);
/// n x n: union over k of H_k != 0 (quadratic), all false (linear), all true (general).
Structure hessian_structure(const Constraint& constraint);

}  // namespace noether

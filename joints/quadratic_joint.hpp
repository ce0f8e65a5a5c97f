#pragma once
/// The element behind every joint of the library: a constraint whose equations are polynomials
/// of degree <= 2 in the joint's local coordinates. Director bodies and point masses are linear in
/// their coordinates (bodies/kinematics.hpp), so point coincidences are linear and products of a
/// body-fixed direction with a point or another direction are bilinear. The Hessians are constant
/// and the midpoint Jacobian is the exact discrete gradient (engine/constraint.hpp).
#include <memory>
#include <vector>

#include <noether/engine/constraint.hpp>

namespace noether {

/// One scalar equation g(q) = constant + linear.q + 1/2 q^T hessian q on n local coordinates
/// (linear: n; hessian: n x n, symmetric, or empty (0 x 0) for an equation linear in q: a joint's
/// point coincidences, which would otherwise carry an n x n zero matrix each).
struct QuadraticEquation {
  double constant = 0.0;
  Vector linear;
  Matrix hessian;
};

/// An affine vector function of the joint's local coordinates, y(q) = map q + offset
/// (map: dim x n, offset: dim): a body-fixed point or direction, or a constant of the ground.
struct AffineVector {
  Matrix map;
  Vector offset;
};

/// y - z, with the same sizes.
AffineVector operator-(const AffineVector& y, const AffineVector& z);

/// The equation g(q) = weight * u(q).v(q) + constant. Expanding u = U q + u0, v = V q + v0:
///   hessian = weight (U^T V + V^T U),  linear = weight (U^T v0 + V^T u0),
///   constant = weight u0.v0 + constant.
QuadraticEquation dot_equation(const AffineVector& u, const AffineVector& v, double weight = 1.0,
                               double constant = 0.0);

/// The dim linear equations y_k(q) = 0, one per component of y (empty Hessians).
std::vector<QuadraticEquation> component_equations(const AffineVector& y);

/// A holonomic constraint of m quadratic equations on the blocks it names:
///   g_k(q) = c_k + l_k.q + 1/2 q^T H_k q,   G = L + [ (H_k q)^T ]_k  (m x n),
///   sum_k lambda_k D^2 g_k = sum_k lambda_k H_k  (constant).
/// The equations are its exact form (engine/exact_form.hpp); nonlinearity() is linear when every
/// H_k vanishes, quadratic otherwise.
class QuadraticJoint final : public QuadraticConstraint {
 public:
  /// Throws std::invalid_argument (naming the joint) if there are no equations or their sizes
  /// disagree, or a Hessian is not symmetric. reaction: where the joint reports its reaction
  /// (engine/reaction.hpp), or null for none.
  QuadraticJoint(std::string name, std::vector<BlockId> blocks, const std::vector<QuadraticEquation>& equations,
                 std::shared_ptr<const ReactionSite> reaction = nullptr);

 protected:
  const ReactionSite* do_reaction_site() const override { return reaction_.get(); }

 private:
  std::shared_ptr<const ReactionSite> reaction_;
};

}  // namespace noether

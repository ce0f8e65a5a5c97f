#include <noether/apps/scenarios/planar_rod.hpp>

namespace noether {

ConstraintFunction planar_rod_constraint(double length, bool grounded) {
  ConstraintFunction f;
  f.num_equations = 1;
  f.nonlinearity = Nonlinearity::quadratic;
  const auto relative = [grounded](ConstVectorRef q) -> Eigen::Vector2d {
    return grounded ? Eigen::Vector2d(q(0), q(1)) : Eigen::Vector2d(q(2) - q(0), q(3) - q(1));
  };
  f.value = [=](ConstVectorRef q) { return Vector::Constant(1, 0.5 * (relative(q).squaredNorm() - length * length)); };
  f.jacobian = [=](ConstVectorRef q) {
    const Eigen::Vector2d r = relative(q);
    Matrix G(1, grounded ? 2 : 4);
    if (grounded) G << r.x(), r.y();
    else G << -r.x(), -r.y(), r.x(), r.y();
    return G;
  };
  f.hessian_contraction = [grounded](ConstVectorRef, ConstVectorRef lambda) {
    if (grounded) return Matrix(lambda(0) * Matrix::Identity(2, 2));
    Matrix H(4, 4);
    H << Matrix::Identity(2, 2), -Matrix::Identity(2, 2), -Matrix::Identity(2, 2), Matrix::Identity(2, 2);
    return Matrix(lambda(0) * H);
  };
  return f;
}

}  // namespace noether

#include "engine/gonzalez.hpp"

namespace noether {

bool gonzalez_correction_negligible(ConstVectorRef x, ConstVectorRef y) {
  // The computed numerator f(y) - f(x) - Df(z).w carries a rounding error ~eps |f|, so the
  // computed correction c w is off by ~eps |f| / |w| and c by ~eps |f| / |w|^2: at |w| = 1e-12
  // that is 1e-4 |f| in the gradient and 1e8 |f| in its Jacobian. Below |w| ~ 1e-6 the midpoint
  // gradient's own defect |D^3 f| |w|^3 / 24 is already at round-off, so the correction is dropped.
  const double w2 = (y - x).squaredNorm();
  return w2 <= 1e-12 * (1.0 + x.squaredNorm() + y.squaredNorm());
}

void add_gonzalez_gradient(ConstVectorRef x, ConstVectorRef y, double f_x, double f_y,
                           ConstVectorRef grad_mid, double s, VectorRef out) {
  out.noalias() += s * grad_mid;
  if (gonzalez_correction_negligible(x, y)) return;
  const Vector w = y - x;
  const double c = (f_y - f_x - grad_mid.dot(w)) / w.squaredNorm();
  out.noalias() += (s * c) * w;
}

void add_gonzalez_jacobian(ConstVectorRef x, ConstVectorRef y, double f_x, double f_y,
                           ConstVectorRef grad_y, ConstVectorRef grad_mid, ConstMatrixRef hess_mid,
                           double s, MatrixRef K) {
  K.noalias() += (0.5 * s) * hess_mid;
  if (gonzalez_correction_negligible(x, y)) return;
  const Vector w = y - x;
  const double w2 = w.squaredNorm();
  const double c = (f_y - f_x - grad_mid.dot(w)) / w2;
  const Vector dc_dy = (grad_y - grad_mid - 0.5 * (hess_mid * w) - 2.0 * c * w) / w2;
  K.diagonal().array() += s * c;
  K.noalias() += s * w * dc_dy.transpose();
}

}  // namespace noether

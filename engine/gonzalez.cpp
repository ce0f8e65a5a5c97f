#include "engine/gonzalez.hpp"

namespace noether {

bool gonzalez_correction_negligible(ConstVectorRef x, ConstVectorRef y) {
  const double w2 = (y - x).squaredNorm();
  return w2 <= 1e-28 * (1.0 + x.squaredNorm() + y.squaredNorm());
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

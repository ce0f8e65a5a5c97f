#include <noether/engine/gonzalez.hpp>

#include <cmath>
#include <limits>

namespace noether {

std::optional<double> gonzalez_coefficient(double f_x, double f_y, ConstVectorRef grad_mid, ConstVectorRef w) {
  const double linear = grad_mid.dot(w);
  const double numerator = f_y - f_x - linear;
  const double noise = 4.0 * std::numeric_limits<double>::epsilon() * (std::abs(f_x) + std::abs(f_y) + std::abs(linear));
  const double w2 = w.squaredNorm();
  if (w2 == 0.0 || std::abs(numerator) <= noise) return std::nullopt;
  return numerator / w2;
}

void add_gonzalez_gradient(ConstVectorRef x, ConstVectorRef y, double f_x, double f_y,
                           ConstVectorRef grad_mid, double s, VectorRef out) {
  out.noalias() += s * grad_mid;
  const Vector w = y - x;
  if (const auto c = gonzalez_coefficient(f_x, f_y, grad_mid, w)) out.noalias() += (s * *c) * w;
}

void add_gonzalez_jacobian(ConstVectorRef x, ConstVectorRef y, double f_x, double f_y,
                           ConstVectorRef grad_y, ConstVectorRef grad_mid, ConstMatrixRef hess_mid,
                           double s, MatrixRef K) {
  K.noalias() += (0.5 * s) * hess_mid;
  const Vector w = y - x;
  const auto c = gonzalez_coefficient(f_x, f_y, grad_mid, w);
  if (!c) return;
  const Vector dc_dy = (grad_y - grad_mid - 0.5 * (hess_mid * w) - 2.0 * *c * w) / w.squaredNorm();
  K.diagonal().array() += s * *c;
  K.noalias() += s * w * dc_dy.transpose();
}

}  // namespace noether

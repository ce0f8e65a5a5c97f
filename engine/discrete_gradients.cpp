#include <noether/engine/discrete_gradients.hpp>

#include <array>
#include <cmath>
#include <limits>

#include <noether/engine/gonzalez.hpp>

namespace noether {
namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
/// Relative increment below which the partitioned gradient takes its Taylor form (as
/// scalar_discrete_derivative_gap in engine/discrete_derivative.hpp, for the same balance).
constexpr double kPartitionedGap = 1e-5;

/// 4-point Gauss-Legendre nodes and weights on [0, 1].
constexpr std::array<double, 4> kGaussNodes{0.5 - 0.5 * 0.8611363115940526, 0.5 - 0.5 * 0.3399810435848563,
                                            0.5 + 0.5 * 0.3399810435848563, 0.5 + 0.5 * 0.8611363115940526};
constexpr std::array<double, 4> kGaussWeights{0.5 * 0.3478548451374538, 0.5 * 0.6521451548625461,
                                              0.5 * 0.6521451548625461, 0.5 * 0.3478548451374538};

Vector gradient_at(const ScalarField& f, ConstVectorRef q) {
  Vector g(q.size());
  f.gradient(q, g);
  return g;
}

Matrix hessian_at(const ScalarField& f, ConstVectorRef q) {
  Matrix H(q.size(), q.size());
  f.hessian(q, H);
  return H;
}

/// rho = (f(y) - f(x)) / (Df(z).w) and Df(z), or rho = 1 where Df(z).w is at rounding level.
struct Scaling {
  Vector grad_mid;
  double denominator = 0.0, rho = 1.0;
  bool scaled = false;
};
Scaling scaling(const ScalarField& f, ConstVectorRef x, ConstVectorRef y) {
  Scaling s{gradient_at(f, 0.5 * (x + y))};
  const Vector w = y - x;
  const double f_x = f.value(x), f_y = f.value(y);
  s.denominator = s.grad_mid.dot(w);
  const double noise = 4.0 * kEpsilon * (std::abs(f_x) + std::abs(f_y) + s.grad_mid.norm() * w.norm());
  if (std::abs(s.denominator) <= noise) return s;
  s.rho = (f_y - f_x) / s.denominator;
  s.scaled = true;
  return s;
}

/// z_i of the partitioned gradient: the first i coordinates of y, the others of x.
Vector partition_point(ConstVectorRef x, ConstVectorRef y, Index i) {
  Vector z = x;
  z.head(i) = y.head(i);
  return z;
}

bool partitioned_taylor(ConstVectorRef x, ConstVectorRef y, Index i) {
  return std::abs(y(i) - x(i)) <= kPartitionedGap * (std::abs(x(i)) + std::abs(y(i))) || y(i) == x(i);
}

void add_partitioned_gradient(const ScalarField& f, ConstVectorRef x, ConstVectorRef y, double s, VectorRef out) {
  for (Index i = 0; i < x.size(); ++i) {
    const Vector before = partition_point(x, y, i), after = partition_point(x, y, i + 1);
    if (partitioned_taylor(x, y, i))
      out(i) += s * gradient_at(f, 0.5 * (before + after))(i);
    else
      out(i) += s * (f.value(after) - f.value(before)) / (y(i) - x(i));
  }
}

/// Row i of d/dy Dbar: (Df(z_i) - Df(z_{i-1}))_j / w_i for j < i, (Df_i(z_i) - Dbar_i) / w_i for j = i;
/// Taylor form: D^2 f(c_i) row i for j < i, 1/2 D^2 f_ii(c_i) for j = i, c_i the midpoint.
void add_partitioned_jacobian(const ScalarField& f, ConstVectorRef x, ConstVectorRef y, double s, MatrixRef K) {
  for (Index i = 0; i < x.size(); ++i) {
    const Vector before = partition_point(x, y, i), after = partition_point(x, y, i + 1);
    if (partitioned_taylor(x, y, i)) {
      const Matrix H = hessian_at(f, 0.5 * (before + after));
      K.row(i).head(i) += s * H.row(i).head(i);
      K(i, i) += 0.5 * s * H(i, i);
      continue;
    }
    const double w_i = y(i) - x(i), dbar_i = (f.value(after) - f.value(before)) / w_i;
    const Vector g_after = gradient_at(f, after), g_before = gradient_at(f, before);
    K.row(i).head(i) += s * (g_after.head(i) - g_before.head(i)).transpose() / w_i;
    K(i, i) += s * (g_after(i) - dbar_i) / w_i;
  }
}

}  // namespace

std::string_view to_string(DiscreteGradientKind kind) {
  switch (kind) {
    case DiscreteGradientKind::scaled_midpoint: return "scaled-midpoint";
    case DiscreteGradientKind::average_vector_field: return "avf";
    case DiscreteGradientKind::gonzalez: return "gonzalez";
    case DiscreteGradientKind::partitioned: return "partitioned";
  }
  return "";
}

void add_discrete_gradient(DiscreteGradientKind kind, const ScalarField& f, ConstVectorRef x, ConstVectorRef y,
                           double s, VectorRef out) {
  switch (kind) {
    case DiscreteGradientKind::scaled_midpoint: {
      const Scaling scaled = scaling(f, x, y);
      out += (s * scaled.rho) * scaled.grad_mid;
      return;
    }
    case DiscreteGradientKind::average_vector_field:
      for (std::size_t g = 0; g < kGaussNodes.size(); ++g)
        out += (s * kGaussWeights[g]) * gradient_at(f, x + kGaussNodes[g] * (y - x));
      return;
    case DiscreteGradientKind::gonzalez:
      add_gonzalez_gradient(x, y, f.value(x), f.value(y), gradient_at(f, 0.5 * (x + y)), s, out);
      return;
    case DiscreteGradientKind::partitioned: add_partitioned_gradient(f, x, y, s, out); return;
  }
}

void add_discrete_gradient_jacobian(DiscreteGradientKind kind, const ScalarField& f, ConstVectorRef x,
                                    ConstVectorRef y, double s, MatrixRef K) {
  const Vector z = 0.5 * (x + y);
  switch (kind) {
    case DiscreteGradientKind::scaled_midpoint: {  // rho/2 D^2 f(z) + Df(z) (drho/dy)^T
      const Scaling scaled = scaling(f, x, y);
      const Matrix H = hessian_at(f, z);
      K += (0.5 * s * scaled.rho) * H;
      if (!scaled.scaled) return;
      const Vector drho = (gradient_at(f, y) - scaled.rho * (0.5 * H * (y - x) + scaled.grad_mid)) / scaled.denominator;
      K += s * scaled.grad_mid * drho.transpose();
      return;
    }
    case DiscreteGradientKind::average_vector_field:
      for (std::size_t g = 0; g < kGaussNodes.size(); ++g)
        K += (s * kGaussWeights[g] * kGaussNodes[g]) * hessian_at(f, x + kGaussNodes[g] * (y - x));
      return;
    case DiscreteGradientKind::gonzalez:
      add_gonzalez_jacobian(x, y, f.value(x), f.value(y), gradient_at(f, y), gradient_at(f, z), hessian_at(f, z), s,
                            K);
      return;
    case DiscreteGradientKind::partitioned: add_partitioned_jacobian(f, x, y, s, K); return;
  }
}

}  // namespace noether

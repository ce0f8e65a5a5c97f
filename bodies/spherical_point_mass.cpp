#include <noether/bodies/spherical_point_mass.hpp>

#include <cmath>
#include <stdexcept>

#include <noether/engine/format.hpp>

namespace noether {
namespace {

Matrix diagonal(const Eigen::Vector3d& d) { return Matrix(Vector(d).asDiagonal()); }

}  // namespace

Eigen::Vector3d spherical_to_cartesian(ConstVectorRef q) {
  const double r = q(0), theta = q(1), phi = q(2);
  return {r * std::sin(theta) * std::cos(phi), r * std::sin(theta) * std::sin(phi), r * std::cos(theta)};
}

MassFunction spherical_point_mass(double m) {
  if (!(m > 0.0) || !std::isfinite(m))
    throw std::invalid_argument("a point mass in spherical coordinates needs a finite mass > 0, got " + format_number(m));
  if (is_subnormal(m))
    throw std::invalid_argument("a point mass in spherical coordinates: its mass " + subnormal_refusal(m, false));
  if (beyond_double_range(m))
    throw std::invalid_argument("a point mass in spherical coordinates: its mass " + overflow_refusal(m));
  MassFunction f;
  f.mass = [m](ConstVectorRef q) {
    const double r = q(0), s = std::sin(q(1));
    return diagonal({m, m * r * r, m * r * r * s * s});
  };
  f.mass_derivative = [m](ConstVectorRef q, Index i) {
    const double r = q(0), s = std::sin(q(1)), c = std::cos(q(1));
    Eigen::Vector3d d = Eigen::Vector3d::Zero();
    if (i == 0) d << 0, 2 * m * r, 2 * m * r * s * s;
    if (i == 1) d << 0, 0, 2 * m * r * r * s * c;
    return diagonal(d);
  };
  f.mass_second_derivative = [m](ConstVectorRef q, Index i, Index j) {
    const double r = q(0), s = std::sin(q(1)), c = std::cos(q(1));
    Eigen::Vector3d d = Eigen::Vector3d::Zero();
    if (i == 0 && j == 0) d << 0, 2 * m, 2 * m * s * s;
    if ((i == 0 && j == 1) || (i == 1 && j == 0)) d << 0, 0, 4 * m * r * s * c;
    if (i == 1 && j == 1) d << 0, 0, 2 * m * r * r * (c * c - s * s);
    return diagonal(d);
  };
  return f;
}

}  // namespace noether

#include "parallelogram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace noether::work_precision {

double jacobi_amplitude(double u, double k) {
  if (!(k >= 0.0 && k < 1.0)) throw std::invalid_argument("jacobi_amplitude: the modulus must be in [0, 1)");
  // F(psi + j pi, k) = F(psi, k) + 2 j K(k): reduce u to [-K, K], where psi lies in [-pi/2, pi/2],
  // and solve there for |u| (F is odd).
  const double quarter = std::comp_ellint_1(k);
  const double turns = std::round(u / (2.0 * quarter));
  const double reduced = u - 2.0 * quarter * turns;
  const double target = std::abs(reduced);
  // F is increasing and convex on [0, pi/2] (F' = 1/sqrt(1 - k^2 sin^2 psi)); Newton from the chord.
  double psi = target / quarter * (std::numbers::pi / 2);
  for (int iteration = 0; iteration < 60; ++iteration) {
    const double s = std::sin(psi);
    const double change = (std::ellint_1(k, psi) - target) * std::sqrt(1.0 - k * k * s * s);
    psi = std::clamp(psi - change, 0.0, std::numbers::pi / 2);
    if (std::abs(change) <= 4 * std::numeric_limits<double>::epsilon()) break;
  }
  return std::copysign(psi, reduced) + std::numbers::pi * turns;
}

ParallelogramMotion::ParallelogramMotion(Index cells, double top_speed, const BarProperties& bars)
    : length_(bars.length) {
  const double n = static_cast<double>(cells), m = bars.mass, l = bars.length, g = bars.gravity;
  const double inertia = m * l * l * (n + (n + 1.0) / 3.0);
  const double c = m * g * l * (n + (n + 1.0) / 2.0);
  const double rate = top_speed / l;  // |theta'(0)|
  const double energy = 0.5 * inertia * rate * rate + c;  // at theta = pi/2
  if (!(energy > c)) throw std::invalid_argument("ParallelogramMotion: the cranks must turn over the top (top_speed != 0)");
  k_ = std::sqrt(2.0 * c / (energy + c));
  lambda_ = std::sqrt((energy + c) / (2.0 * inertia));
  quarter_period_ = std::comp_ellint_1(k_);
  if (top_speed < 0) lambda_ = -lambda_;  // turning the other way: psi increases
}

double ParallelogramMotion::crank_angle(double t) const {
  return 2.0 * jacobi_amplitude(quarter_period_ - lambda_ * t, k_) - std::numbers::pi / 2;
}

Eigen::Vector2d ParallelogramMotion::top_of_first_crank(double t) const {
  const double theta = crank_angle(t);
  return length_ * Eigen::Vector2d(std::cos(theta), std::sin(theta));
}

}  // namespace noether::work_precision

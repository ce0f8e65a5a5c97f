#include <noether/joints/polynomial_potential.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <noether/engine/format.hpp>
#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// The exact form of V of degree <= 2 in q: V = c + l.q + 1/2 q^T H q with, for x = q(i),
/// V = c0 + c1 (x - x0) + c2 (x - x0)^2.
QuadraticForm exact_form(const std::string& name, Index size, Index i, double x0, const std::vector<double>& c) {
  const double c1 = c.size() > 1 ? c[1] : 0.0, c2 = c.size() > 2 ? c[2] : 0.0;
  Matrix linear = Matrix::Zero(1, size);
  linear(0, i) = c1 - 2.0 * c2 * x0;
  std::vector<Matrix> hessians;
  if (c2 != 0.0) {
    hessians.push_back(Matrix::Zero(size, size));
    hessians.back()(i, i) = 2.0 * c2;
  }
  return QuadraticForm("polynomial potential " + quote(name), Vector::Constant(1, c[0] - c1 * x0 + c2 * x0 * x0),
                       linear, hessians);
}

}  // namespace

PolynomialPotential::PolynomialPotential(std::string name, BlockId block, Index block_size, Index coordinate,
                                         double center, std::vector<double> coefficients)
    : Potential(name, {block}), size_(block_size), coordinate_(coordinate), center_(center),
      coefficients_(std::move(coefficients)) {
  const std::string label = "polynomial potential " + quote(name);
  if (coordinate < 0 || coordinate >= block_size)
    throw std::invalid_argument(label + ": coordinate " + std::to_string(coordinate) + " is not one of the block's " +
                                std::to_string(block_size));
  if (coefficients_.empty()) throw std::invalid_argument(label + ": needs at least one coefficient");
  if (!std::isfinite(center)) throw std::invalid_argument(label + ": the centre x0 must be finite, got " + format_number(center));
  for (std::size_t k = 0; k < coefficients_.size(); ++k)
    if (!std::isfinite(coefficients_[k]))
      throw std::invalid_argument(label + ": coefficient c" + std::to_string(k) + " must be finite, got " +
                                  format_number(coefficients_[k]));
  if (coefficients_.size() <= 3) form_.emplace(exact_form(name, size_, coordinate_, center_, coefficients_));
}

double PolynomialPotential::do_energy(ConstVectorRef q) const {
  const double u = offset(q);
  double value = 0.0;
  for (auto c = coefficients_.rbegin(); c != coefficients_.rend(); ++c) value = value * u + *c;
  return value;
}

void PolynomialPotential::do_add_gradient(ConstVectorRef q, double s, VectorRef g) const {
  const double u = offset(q);
  double slope = 0.0;
  for (std::size_t k = coefficients_.size() - 1; k >= 1; --k) slope = slope * u + static_cast<double>(k) * coefficients_[k];
  g(coordinate_) += s * slope;
}

void PolynomialPotential::do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const {
  const double u = offset(q);
  double curvature = 0.0;
  for (std::size_t k = coefficients_.size() - 1; k >= 2; --k)
    curvature = curvature * u + static_cast<double>(k * (k - 1)) * coefficients_[k];
  K(coordinate_, coordinate_) += s * curvature;
}

PolynomialPotential::DividedDifference PolynomialPotential::divided_difference(double u_a, double u_b) const {
  // S_1 = 1, S_{k+1} = u_b S_k + u_a^k; dS_1 = 0, dS_{k+1} = S_k + u_b dS_k (d/du_b).
  DividedDifference sum{0.0, 0.0};
  double S = 1.0, dS = 0.0, power_a = 1.0;
  for (std::size_t k = 1; k < coefficients_.size(); ++k) {
    sum.value += coefficients_[k] * S;
    sum.derivative_b += coefficients_[k] * dS;
    power_a *= u_a;
    dS = S + u_b * dS;
    S = u_b * S + power_a;
  }
  return sum;
}

void PolynomialPotential::add_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, double s, VectorRef g) const {
  g(coordinate_) += s * divided_difference(offset(q_a), offset(q_b)).value;
}

void PolynomialPotential::add_discrete_gradient_jacobian(ConstVectorRef q_a, ConstVectorRef q_b, double s,
                                                         MatrixRef K) const {
  K(coordinate_, coordinate_) += s * divided_difference(offset(q_a), offset(q_b)).derivative_b;
}

}  // namespace noether

#include <noether/joints/distance_power_constraint.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <noether/engine/quote.hpp>

namespace noether {

DistancePowerConstraint::DistancePowerConstraint(std::string name, std::vector<BlockId> points, Index dimension,
                                                 std::vector<DistancePowerTerm> terms, double c,
                                                 DiscreteGradientKind kind)
    : Constraint(std::move(name), std::move(points)), dimension_(dimension), terms_(std::move(terms)), c_(c),
      kind_(kind) {
  const auto fail = [&](const std::string& what) {
    std::string message = "constraint ";
    message += quote(this->name());
    message += ": ";
    message += what;
    throw std::invalid_argument(message);
  };
  if (terms_.empty()) fail("no terms; give at least one a |r_i - r_j|^(2p)");
  const auto count = static_cast<Index>(blocks().size());
  for (std::size_t k = 0; k < terms_.size(); ++k) {
    const DistancePowerTerm& t = terms_[k];
    if (t.first < 0 || t.second < 0 || t.first >= count || t.second >= count || t.first == t.second)
      fail("term " + std::to_string(k) + " joins points " + std::to_string(t.first) + " and " +
           std::to_string(t.second) + "; give two different points of 0 to " + std::to_string(count - 1));
    if (t.power < 1) fail("term " + std::to_string(k) + " has power " + std::to_string(t.power) + "; give 1 or more");
  }
}

double DistancePowerConstraint::term_value(const DistancePowerTerm& t, ConstVectorRef q) const {
  const Vector d = q.segment(t.first * dimension_, dimension_) - q.segment(t.second * dimension_, dimension_);
  return t.coefficient * std::pow(d.squaredNorm(), t.power);
}

void DistancePowerConstraint::add_term_gradient(const DistancePowerTerm& t, ConstVectorRef q, double s,
                                                VectorRef g) const {
  const Vector d = q.segment(t.first * dimension_, dimension_) - q.segment(t.second * dimension_, dimension_);
  const Vector df = (2.0 * t.coefficient * t.power * std::pow(d.squaredNorm(), t.power - 1)) * d;
  g.segment(t.first * dimension_, dimension_) += s * df;
  g.segment(t.second * dimension_, dimension_) -= s * df;
}

void DistancePowerConstraint::add_term_hessian(const DistancePowerTerm& t, ConstVectorRef q, double s,
                                               MatrixRef K) const {
  const Index D = dimension_, i = t.first * D, j = t.second * D;
  const Vector d = q.segment(i, D) - q.segment(j, D);
  const double r2 = d.squaredNorm(), scale = 2.0 * t.coefficient * t.power;
  Matrix H = (scale * std::pow(r2, t.power - 1)) * Matrix::Identity(D, D);
  if (t.power > 1) H += (scale * (2.0 * t.power - 2.0) * std::pow(r2, t.power - 2)) * d * d.transpose();
  K.block(i, i, D, D) += s * H;
  K.block(j, j, D, D) += s * H;
  K.block(i, j, D, D) -= s * H;
  K.block(j, i, D, D) -= s * H;
}

void DistancePowerConstraint::do_calc_value(ConstVectorRef q, VectorRef g) const {
  g(0) = -c_;
  for (const DistancePowerTerm& t : terms_) g(0) += term_value(t, q);
}

void DistancePowerConstraint::do_calc_jacobian(ConstVectorRef q, MatrixRef G) const {
  Vector gradient = Vector::Zero(q.size());
  for (const DistancePowerTerm& t : terms_) add_term_gradient(t, q, 1.0, gradient);
  G.row(0) = gradient.transpose();
}

void DistancePowerConstraint::do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s,
                                                         MatrixRef K) const {
  for (const DistancePowerTerm& t : terms_) add_term_hessian(t, q, s * lambda(0), K);
}

ScalarField DistancePowerConstraint::field(int k) const {
  const auto each = [this, k](auto&& f) {
    if (k >= 0) return f(terms_[static_cast<std::size_t>(k)]);
    for (const DistancePowerTerm& t : terms_) f(t);
  };
  return {[this, k, each](ConstVectorRef q) {
            double value = k >= 0 ? 0.0 : -c_;
            each([&](const DistancePowerTerm& t) { value += term_value(t, q); });
            return value;
          },
          [each, this](ConstVectorRef q, VectorRef g) {
            g.setZero();
            each([&](const DistancePowerTerm& t) { add_term_gradient(t, q, 1.0, g); });
          },
          [each, this](ConstVectorRef q, MatrixRef H) {
            H.setZero();
            each([&](const DistancePowerTerm& t) { add_term_hessian(t, q, 1.0, H); });
          }};
}

void DistancePowerConstraint::do_calc_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, MatrixRef Gbar) const {
  Vector gradient = Vector::Zero(q_a.size());
  if (kind_ == DiscreteGradientKind::scaled_midpoint)
    for (std::size_t k = 0; k < terms_.size(); ++k)
      add_discrete_gradient(kind_, field(static_cast<int>(k)), q_a, q_b, 1.0, gradient);
  else
    add_discrete_gradient(kind_, field(-1), q_a, q_b, 1.0, gradient);
  Gbar.row(0) = gradient.transpose();
}

void DistancePowerConstraint::do_add_discrete_gradient_contraction_jacobian(ConstVectorRef q_a, ConstVectorRef q_b,
                                                                            ConstVectorRef lambda, double s,
                                                                            MatrixRef K) const {
  if (kind_ == DiscreteGradientKind::scaled_midpoint)
    for (std::size_t k = 0; k < terms_.size(); ++k)
      add_discrete_gradient_jacobian(kind_, field(static_cast<int>(k)), q_a, q_b, s * lambda(0), K);
  else
    add_discrete_gradient_jacobian(kind_, field(-1), q_a, q_b, s * lambda(0), K);
}

}  // namespace noether

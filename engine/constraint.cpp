#include <noether/engine/constraint.hpp>

#include <stdexcept>
#include <string>

#include <noether/engine/gonzalez.hpp>
#include <noether/engine/quote.hpp>

namespace noether {

QuadraticConstraint::QuadraticConstraint(std::string name, std::vector<BlockId> blocks, Index local_size,
                                         QuadraticForm form)
    : QuadraticConstraint(std::move(name), std::move(blocks), local_size,
                          std::make_shared<const QuadraticForm>(std::move(form))) {}

QuadraticConstraint::QuadraticConstraint(std::string name, std::vector<BlockId> blocks, Index local_size,
                                         std::shared_ptr<const QuadraticForm> form)
    : Constraint(std::move(name), std::move(blocks)), local_size_(local_size), form_(std::move(form)) {
  if (!form_) throw std::invalid_argument("constraint " + quote(this->name()) + ": no form given");
  if (form_->num_functions() == 0) throw std::invalid_argument("constraint " + quote(this->name()) + ": no equations");
  if (form_->num_coordinates() != local_size_)
    throw std::invalid_argument("constraint " + quote(this->name()) + ": its equations are of " +
                                std::to_string(form_->num_coordinates()) + " coordinates, the constraint has " +
                                std::to_string(local_size_));
}

void QuadraticConstraint::do_calc_jacobian(ConstVectorRef q, MatrixRef G) const {
  G.setZero();
  form_->add_jacobian(q, 1.0, G);
}

void Constraint::do_calc_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, MatrixRef Gbar) const {
  const Vector q_mid = 0.5 * (q_a + q_b);
  do_calc_jacobian(q_mid, Gbar);
  if (is_at_most_quadratic(nonlinearity())) return;
  const Index m = num_equations();
  Vector g_a(m), g_b(m);
  do_calc_value(q_a, g_a);
  do_calc_value(q_b, g_b);
  const Vector w = q_b - q_a;
  for (Index k = 0; k < m; ++k)
    if (const auto c = gonzalez_coefficient(g_a(k), g_b(k), Gbar.row(k).transpose(), w)) Gbar.row(k) += *c * w.transpose();
}

void Constraint::do_add_discrete_gradient_contraction_jacobian(ConstVectorRef q_a, ConstVectorRef q_b,
                                                            ConstVectorRef lambda, double s,
                                                            MatrixRef K) const {
  if (nonlinearity() == Nonlinearity::linear) return;
  const Vector q_mid = 0.5 * (q_a + q_b);
  if (nonlinearity() == Nonlinearity::quadratic) {
    do_add_hessian_contraction(q_mid, lambda, 0.5 * s, K);
    return;
  }
  const Index m = num_equations();
  const Index n = q_a.size();
  Vector g_a(m), g_b(m);
  Matrix G_mid(m, n), G_b(m, n);
  do_calc_value(q_a, g_a);
  do_calc_value(q_b, g_b);
  do_calc_jacobian(q_mid, G_mid);
  do_calc_jacobian(q_b, G_b);
  Vector unit = Vector::Zero(m);
  Matrix hess_mid(n, n);
  for (Index k = 0; k < m; ++k) {
    if (lambda(k) == 0.0) continue;
    unit.setZero();
    unit(k) = 1.0;
    hess_mid.setZero();
    do_add_hessian_contraction(q_mid, unit, 1.0, hess_mid);
    add_gonzalez_jacobian(q_a, q_b, g_a(k), g_b(k), G_b.row(k).transpose(), G_mid.row(k).transpose(),
                          hess_mid, s * lambda(k), K);
  }
}

void Constraint::calc_discrete_gradient_at(double t_a, double t_b, ConstVectorRef q_a, ConstVectorRef q_b,
                                           MatrixRef Gbar) const {
  const Vector q_mid = 0.5 * (q_a + q_b);
  Matrix G_b(num_equations(), q_a.size());
  calc_jacobian_at(t_a, q_mid, Gbar);
  calc_jacobian_at(t_b, q_mid, G_b);
  Gbar = 0.5 * (Gbar + G_b);
}

void Constraint::calc_discrete_time_difference(double t_a, double t_b, ConstVectorRef q_a, ConstVectorRef q_b,
                                               VectorRef dbar) const {
  const Index m = num_equations();
  Vector g_aa(m), g_ab(m), g_ba(m), g_bb(m);  // g_xy = g(q_x, t_y)
  calc_value_at(t_a, q_a, g_aa);
  calc_value_at(t_b, q_a, g_ab);
  calc_value_at(t_a, q_b, g_ba);
  calc_value_at(t_b, q_b, g_bb);
  dbar = 0.5 * ((g_ab - g_aa) + (g_bb - g_ba));
}

void Constraint::add_discrete_gradient_contraction_jacobian_at(double t_a, double t_b, ConstVectorRef q_a,
                                                               ConstVectorRef q_b, ConstVectorRef lambda, double s,
                                                               MatrixRef K) const {
  const Vector q_mid = 0.5 * (q_a + q_b);  // the Hessians are constant in q at each t
  add_hessian_contraction_at(t_a, q_mid, lambda, 0.25 * s, K);
  add_hessian_contraction_at(t_b, q_mid, lambda, 0.25 * s, K);
}

}  // namespace noether

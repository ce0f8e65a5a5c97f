#include <noether/engine/potential.hpp>

#include <noether/engine/gonzalez.hpp>

namespace noether {

void Potential::add_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, double s, VectorRef g) const {
  const Vector q_mid = 0.5 * (q_a + q_b);
  if (is_at_most_quadratic(nonlinearity())) {
    do_add_gradient(q_mid, s, g);
    return;
  }
  Vector grad_mid = Vector::Zero(q_a.size());
  do_add_gradient(q_mid, 1.0, grad_mid);
  add_gonzalez_gradient(q_a, q_b, do_energy(q_a), do_energy(q_b), grad_mid, s, g);
}

void Potential::add_discrete_gradient_jacobian(ConstVectorRef q_a, ConstVectorRef q_b, double s,
                                               MatrixRef K) const {
  const Index n = q_a.size();
  const Vector q_mid = 0.5 * (q_a + q_b);
  if (is_at_most_quadratic(nonlinearity())) {
    do_add_hessian(q_mid, 0.5 * s, K);
    return;
  }
  Vector grad_mid = Vector::Zero(n);
  Vector grad_b = Vector::Zero(n);
  Matrix hess_mid = Matrix::Zero(n, n);
  do_add_gradient(q_mid, 1.0, grad_mid);
  do_add_gradient(q_b, 1.0, grad_b);
  do_add_hessian(q_mid, 1.0, hess_mid);
  add_gonzalez_jacobian(q_a, q_b, do_energy(q_a), do_energy(q_b), grad_b, grad_mid, hess_mid, s, K);
}

}  // namespace noether

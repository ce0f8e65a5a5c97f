#include <noether/engine/inertia.hpp>

namespace noether {

namespace {

/// Local sizes up to this (a 3D director body has 12 coordinates) keep M on the stack.
constexpr Index kStackMassSize = 12;

}  // namespace

ConstantMassInertia::ConstantMassInertia(std::string name, std::vector<BlockId> blocks, const Matrix& mass)
    : Inertia(std::move(name), std::move(blocks)), local_size_(static_cast<Index>(mass.rows())), mass_(mass) {}

double Inertia::kinetic_energy(ConstVectorRef q, ConstVectorRef v) const {
  const Index n = local_size();
  const auto half_v_M_v = [&](auto M) {  // M: a zero n x n matrix
    do_add_mass_matrix(q, 1.0, M);
    return 0.5 * v.dot(M * v);
  };
  using StackMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kStackMassSize, kStackMassSize>;
  if (n <= kStackMassSize) return half_v_M_v(StackMatrix(StackMatrix::Zero(n, n)));
  return half_v_M_v(Matrix(Matrix::Zero(n, n)));
}

void Inertia::add_kinetic_gradient(ConstVectorRef q, ConstVectorRef v, double s, VectorRef grad_q,
                                   VectorRef grad_v) const {
  const Index n = local_size();
  Matrix M = Matrix::Zero(n, n);
  do_add_mass_matrix(q, 1.0, M);
  grad_v.noalias() += s * (M * v);
  do_add_kinetic_gradient_q(q, v, s, grad_q);
}

void Inertia::add_kinetic_hessian(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef H) const {
  const Index n = local_size();
  do_add_mass_matrix(q, s, H.bottomRightCorner(n, n));
  if (has_constant_mass()) return;
  Matrix H_qq = Matrix::Zero(n, n);
  Matrix H_qv = Matrix::Zero(n, n);
  do_add_kinetic_hessian_q(q, v, s, H_qq, H_qv);
  H.topLeftCorner(n, n) += H_qq;
  H.topRightCorner(n, n) += H_qv;
  H.bottomLeftCorner(n, n) += H_qv.transpose();
}

}  // namespace noether

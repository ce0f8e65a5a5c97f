#include <noether/engine/dissipation.hpp>

namespace noether {

void Dissipation::add_damping_force(ConstVectorRef q, ConstVectorRef v, double s, VectorRef f) const {
  const Index n = local_size();
  Matrix C = Matrix::Zero(n, n);
  do_add_damping_matrix(q, 1.0, C);
  f.noalias() += s * (C * v);
}

}  // namespace noether

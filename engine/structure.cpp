#include <noether/engine/structure.hpp>

namespace noether {
namespace {

Structure nonzeros(const Matrix& A) { return A.array() != 0.0; }

/// H_k = D^2 g_k (constant for a quadratic constraint), n x n.
Matrix hessian_row(const Constraint& c, Index k) {
  const Index n = c.local_size();
  Matrix H = Matrix::Zero(n, n);
  c.add_hessian_contraction(Vector::Zero(n), Vector::Unit(c.num_equations(), k), 1.0, H);
  return H;
}

}  // namespace

Structure mass_structure(const Inertia& inertia) {
  const Index n = inertia.local_size();
  if (!inertia.has_constant_mass()) return Structure::Constant(n, n, true);
  Matrix M = Matrix::Zero(n, n);
  inertia.add_mass_matrix(Vector::Zero(n), 1.0, M);
  return nonzeros(M);
}

Structure jacobian_structure(const Constraint& c) {
  const Index n = c.local_size(), m = c.num_equations();
  if (c.nonlinearity() == Nonlinearity::general) return Structure::Constant(m, n, true);
  Matrix G0(m, n);
  c.calc_jacobian(Vector::Zero(n), G0);
  Structure s = nonzeros(G0);
  if (c.nonlinearity() == Nonlinearity::linear) return s;
  for (Index k = 0; k < m; ++k) {
    const Structure h = nonzeros(hessian_row(c, k));
    s.row(k) = s.row(k).array() || h.rowwise().any().transpose().array();
  }
  return s;
}

Structure hessian_structure(const Constraint& c) {
  const Index n = c.local_size();
  if (c.nonlinearity() == Nonlinearity::general) return Structure::Constant(n, n, true);
  Structure s = Structure::Constant(n, n, false);
  if (c.nonlinearity() == Nonlinearity::linear) return s;
  for (Index k = 0; k < c.num_equations(); ++k) s = s.array() || nonzeros(hessian_row(c, k)).array();
  return s;
}

}  // namespace noether

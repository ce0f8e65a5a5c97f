#include <noether/engine/structure.hpp>

namespace noether {
namespace {

/// Marks the entries of `entries` in s.
void mark(const SparseEntries& entries, Structure& s) {
  for (const Nonzero& e : entries.entries()) s(e.row, e.col) = true;
}

}  // namespace

Structure mass_structure(const Inertia& inertia) {
  const Index n = inertia.local_size();
  const SparseEntries* mass = inertia.constant_mass();
  if (!mass) return Structure::Constant(n, n, true);
  Structure s = Structure::Constant(n, n, false);
  mark(*mass, s);
  return s;
}

Structure jacobian_structure(const Constraint& c) {
  const Index n = c.local_size(), m = c.num_equations();
  const QuadraticFormView* form = c.quadratic_form();
  if (!form) return Structure::Constant(m, n, true);
  Structure s = Structure::Constant(m, n, false);
  mark(form->linear_part(), s);
  for (Index k = 0; k < m; ++k)  // G(q)_kj has H_k q in column j = the rows of H_k
    for (const Nonzero& e : form->hessian(k)) s(k, e.row) = true;
  return s;
}

Structure hessian_structure(const Constraint& c) {
  const Index n = c.local_size();
  const QuadraticFormView* form = c.quadratic_form();
  if (!form) return Structure::Constant(n, n, true);
  Structure s = Structure::Constant(n, n, false);
  for (Index k = 0; k < c.num_equations(); ++k)
    for (const Nonzero& e : form->hessian(k)) s(e.row, e.col) = true;
  return s;
}

}  // namespace noether

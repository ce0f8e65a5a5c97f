#pragma once
/// One pass over the entries of a quadratic form (engine/exact_form.hpp) at a configuration q,
/// for the kernels that read a constraint's form: the walk evaluates the rows every such scheme
/// writes, f(q) = 0 and optionally Df(q) u = 0, with their scales and the factor of their floors,
/// and hands each entry to the scheme's visitor, which adds what its other rows and blocks need
/// (G^T mu in a momentum balance, the blocks G and G^T, the Hessian contraction) in the same pass.
///
/// With f_k(q) = c_k + L_k.q + 1/2 q^T H_k q and Df(q) = L + [(H_k q)^T]_k  (m x n):
///
///   value_k     = f_k(q)
///   scale_k     = |c_k| + sum_j |L_kj q_j| + 1/2 sum_ij |q_i H_k,ij q_j|    (the terms of f_k(q))
///   magnitude_k = sum_j |L_kj| + sum_ij |H_k,ij q_j|                       (the terms of Df(q)_k.)
///   product value_k = (Df(q) u)_k,   product scale_k = sum_j |terms of Df(q)_kj u_j|
///
/// The floor of a row is its magnitude times a rounding length that the scheme's rule states
/// (steppers/row_scale.hpp); the walk leaves that factor to the scheme, so that one magnitude can
/// serve rows of different floors (g(q1) = 0 and G(q1) v1 = 0).
///
/// Order, fixed so that the rows are the same bits on every run and thread count: the entries of L
/// as stored, then H_0's, H_1's, ... as stored; a function's quadratic term is summed over H_k's
/// entries before it is halved and added to value_k and scale_k. value, magnitude and the product
/// rows sum in the order of the form's own calc_value, add_jacobian_product_magnitude and
/// add_jacobian_product. The visitor sees each entry after the walk's rows have taken it. A linear
/// form has no Hessian entries: the walk ends after L.
///
/// The visitor is two callables, inlined (no per-entry indirect call):
///   on_linear(const Nonzero& l)     L_kj = l.value, k = l.row, j = l.col
///   on_function(Index k)            before H_k's entries; returns the visitor of those entries,
///                                   which may hold what depends on k alone (a multiplier lambda_k):
///     (const Nonzero& e, double Hq)   H_k,ij = e.value, i = e.row, j = e.col,
///                                     Hq = H_k,ij q_j (its term of Df(q)_ki)
#include <cmath>
#include <type_traits>

#include <noether/engine/exact_form.hpp>

namespace noether {

/// The rows f(q) = 0 of a form (m each): value and scale are overwritten, magnitude is added to.
struct FormRows {
  Eigen::Map<Vector> value;      ///< = f(q)
  Eigen::Map<Vector> scale;      ///< = the magnitude of the terms of f(q)
  Eigen::Map<Vector> magnitude;  ///< += the magnitude of the terms of Df(q), row by row
};

/// The rows Df(q) u = 0 of a form, at the walk's q: u (n); value and scale (m each) are added to.
struct FormProductRows {
  Eigen::Map<const Vector> u;
  Eigen::Map<Vector> value;  ///< += Df(q) u
  Eigen::Map<Vector> scale;  ///< += the magnitude of the terms of Df(q) u
};

namespace detail {

struct NoProductRows {};

template <class Q, class Product, class OnLinear, class OnFunction>
void walk_form(const QuadraticFormView& f, const Q& q, FormRows rows, [[maybe_unused]] Product product,
               OnLinear& on_linear, OnFunction& on_function) {
  constexpr bool with_product = !std::is_same_v<Product, NoProductRows>;
  auto &value = rows.value, &scale = rows.scale, &magnitude = rows.magnitude;
  value = f.constant_part();
  scale = value.cwiseAbs();
  for (const Nonzero& l : f.linear_part().entries()) {
    const double term = l.value * q(l.col);
    value(l.row) += term;
    scale(l.row) += std::abs(term);
    magnitude(l.row) += std::abs(l.value);
    if constexpr (with_product) {
      product.value(l.row) += l.value * product.u(l.col);
      product.scale(l.row) += std::abs(l.value * product.u(l.col));
    }
    on_linear(l);
  }
  if (f.is_linear()) return;
  for (Index k = 0; k < f.num_functions(); ++k) {
    double form = 0.0, form_magnitude = 0.0;  // q^T H_k q and the magnitude of its terms
    auto on_entry = on_function(k);
    for (const Nonzero& e : f.hessian(k)) {
      const double Hq = e.value * q(e.col);
      form += q(e.row) * Hq;
      form_magnitude += std::abs(q(e.row) * Hq);
      magnitude(k) += std::abs(Hq);
      if constexpr (with_product) {
        product.value(k) += product.u(e.row) * Hq;
        product.scale(k) += std::abs(product.u(e.row) * Hq);
      }
      on_entry(e, Hq);
    }
    value(k) += 0.5 * form;
    scale(k) += 0.5 * form_magnitude;
  }
}

}  // namespace detail

/// Walks f's entries once at q (n): the rows f(q) = 0 into `rows`, each entry to the visitor.
template <class Q, class OnLinear, class OnFunction>
void walk_form(const QuadraticFormView& f, const Q& q, FormRows rows, OnLinear&& on_linear, OnFunction&& on_function) {
  detail::walk_form(f, q, rows, detail::NoProductRows{}, on_linear, on_function);
}

/// The same walk, with the rows Df(q) u = 0 into `product` as well.
template <class Q, class OnLinear, class OnFunction>
void walk_form(const QuadraticFormView& f, const Q& q, FormRows rows, FormProductRows product, OnLinear&& on_linear,
               OnFunction&& on_function) {
  detail::walk_form(f, q, rows, product, on_linear, on_function);
}

/// r += s * sum_k lambda_k H_k u   (lambda: m; u, r: n): the Hessian contraction of f times u, from
/// H_0's entries, H_1's, ... in turn.
template <class L, class U, class R>
void add_hessian_contraction_product(const QuadraticFormView& f, const L& lambda, const U& u, double s, R&& r) {
  for (Index k = 0; k < f.num_functions(); ++k)
    for (const Nonzero& e : f.hessian(k)) r(e.row) += s * lambda(k) * e.value * u(e.col);
}

}  // namespace noether

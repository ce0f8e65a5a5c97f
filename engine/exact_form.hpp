#pragma once
/// The exact form of an element that is linear or quadratic in its coordinates, stated once by the
/// element at construction: a constant matrix as its nonzeros, or m functions of degree <= 2 as
/// their constant, linear and Hessian parts. Every consumer (structure analysis, steppers) reads
/// it; nothing re-derives an element by evaluating it at chosen points.
///
/// Views (SparseEntries, QuadraticFormView) evaluate; owners (ConstantMatrix, QuadraticForm) are
/// views that hold their arrays. An Arena stores copies of views' arrays once each, so that alike
/// elements (all the bars of a chain) share one copy and an assembly reads it from cache.
///
/// The walk (walk_form, at the end) is the kernels' one pass over a quadratic form's entries.
#include <cmath>
#include <cstddef>
#include <memory_resource>
#include <span>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include <noether/engine/types.hpp>

namespace noether {

/// A nonzero entry of a constant matrix.
struct Nonzero {
  Index row, col;
  double value;
};

/// A constant rows x cols matrix A as its nonzero entries (column by column). A view: the entries
/// live in a ConstantMatrix or an Arena. The add_ methods accumulate into vectors and matrices of
/// matching size.
class SparseEntries {
 public:
  SparseEntries() = default;
  explicit SparseEntries(std::span<const Nonzero> entries) : entries_(entries) {}

  std::span<const Nonzero> entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

  /// y += s * A x   (x: cols, y: rows).
  template <class X, class Y>
  void add_product(const X& x, double s, Y&& y) const {
    for (const Nonzero& e : entries_) y(e.row) += s * e.value * x(e.col);
  }
  /// y += s * A^T x   (x: rows, y: cols).
  template <class X, class Y>
  void add_transpose_product(const X& x, double s, Y&& y) const {
    for (const Nonzero& e : entries_) y(e.col) += s * e.value * x(e.row);
  }
  /// K += s * A   (rows x cols).
  template <class K>
  void add_to(double s, K&& k) const {
    for (const Nonzero& e : entries_) k(e.row, e.col) += s * e.value;
  }

 private:
  std::span<const Nonzero> entries_;
};

/// Owns the nonzeros of a constant matrix (and is their SparseEntries view).
class ConstantMatrix : public SparseEntries {
 public:
  /// The nonzeros of A, column by column.
  explicit ConstantMatrix(const Matrix& A);
  ConstantMatrix(ConstantMatrix&&) = default;  // the view keeps pointing at the moved buffer
  ConstantMatrix(const ConstantMatrix&) = delete;
  ConstantMatrix& operator=(const ConstantMatrix&) = delete;

 private:
  ConstantMatrix(std::vector<Nonzero> entries);
  std::vector<Nonzero> storage_;
};

/// m functions of degree <= 2 of n coordinates, as a view of their parts:
///
///   f_k(q) = c_k + L_k.q + 1/2 q^T H_k q,   Df(q) = L + [(H_k q)^T]_k  (m x n),   D^2 f_k = H_k,
///
/// c (m), L (m x n) and each H_k (n x n, symmetric) as nonzeros. A constraint's g (m equations), a
/// potential's V (m = 1). Linear when every H_k vanishes.
class QuadraticFormView {
 public:
  QuadraticFormView() = default;
  QuadraticFormView(Index num_coordinates, std::span<const double> constant, SparseEntries linear,
                    std::span<const Nonzero> hessian_entries, std::span<const Index> hessian_begin)
      : num_coordinates_(num_coordinates), constant_(constant), linear_(linear), hessian_entries_(hessian_entries),
        hessian_begin_(hessian_begin) {}

  Index num_functions() const { return static_cast<Index>(constant_.size()); }
  Index num_coordinates() const { return num_coordinates_; }
  bool is_linear() const { return hessian_entries_.empty(); }
  /// c (m).
  Eigen::Map<const Vector> constant_part() const { return {constant_.data(), num_functions()}; }
  /// L (m x n).
  const SparseEntries& linear_part() const { return linear_; }
  /// The nonzeros of H_k (n x n).
  std::span<const Nonzero> hessian(Index k) const {
    const auto index = static_cast<std::size_t>(k);
    return hessian_entries_.subspan(static_cast<std::size_t>(hessian_begin_[index]),
                                    static_cast<std::size_t>(hessian_begin_[index + 1] - hessian_begin_[index]));
  }
  /// The raw arrays (for copying into an Arena).
  std::span<const double> constant_array() const { return constant_; }
  std::span<const Nonzero> hessian_array() const { return hessian_entries_; }
  std::span<const Index> hessian_begin_array() const { return hessian_begin_; }

  /// f(q), overwrites f (m).
  template <class Q, class F>
  void calc_value(const Q& q, F&& f) const {
    f = constant_part();
    linear_.add_product(q, 1.0, f);
    for (Index k = 0; k < num_functions(); ++k) f(k) += 0.5 * quadratic_term(k, q);
  }
  /// q^T H_k q.
  template <class Q>
  double quadratic_term(Index k, const Q& q) const {
    double form = 0.0;
    for (const Nonzero& e : hessian(k)) form += q(e.row) * (e.value * q(e.col));
    return form;
  }
  /// G += s * Df(q)   (m x n).
  template <class Q, class G>
  void add_jacobian(const Q& q, double s, G&& g) const {
    linear_.add_to(s, g);
    for (Index k = 0; k < num_functions(); ++k)
      for (const Nonzero& e : hessian(k)) g(k, e.row) += s * e.value * q(e.col);
  }
  /// r += s * Df(q) u   (u: n, r: m).
  template <class Q, class U, class R>
  void add_jacobian_product(const Q& q, const U& u, double s, R&& r) const {
    linear_.add_product(u, s, r);
    for (Index k = 0; k < num_functions(); ++k)
      for (const Nonzero& e : hessian(k)) r(k) += s * u(e.row) * (e.value * q(e.col));
  }
  /// r += s * Df(q)^T lambda   (lambda: m, r: n).
  template <class Q, class L, class R>
  void add_jacobian_transpose_product(const Q& q, const L& lambda, double s, R&& r) const {
    linear_.add_transpose_product(lambda, s, r);
    for (Index k = 0; k < num_functions(); ++k)
      for (const Nonzero& e : hessian(k)) r(e.row) += s * lambda(k) * (e.value * q(e.col));
  }
  /// out_k += |c_k| + sum_j |L_kj q_j| + 1/2 sum_ij |q_i H_k,ij q_j|: the magnitude of the terms
  /// that make up f_k(q)   (out: m).
  template <class Q, class Out>
  void add_value_magnitude(const Q& q, Out&& out) const {
    for (Index k = 0; k < num_functions(); ++k) out(k) += std::abs(constant_[static_cast<std::size_t>(k)]);
    for (const Nonzero& l : linear_.entries()) out(l.row) += std::abs(l.value * q(l.col));
    for (Index k = 0; k < num_functions(); ++k)
      for (const Nonzero& e : hessian(k)) out(k) += 0.5 * std::abs(q(e.row) * (e.value * q(e.col)));
  }
  /// out_k += sum_j |L_kj| a_j + sum_ij a_i |H_k,ij q_j|, for a >= 0: the magnitude of the terms
  /// that make up (Df(q) u)_k when |u| <= a   (a: n, out: m).
  template <class Q, class A, class Out>
  void add_jacobian_product_magnitude(const Q& q, const A& a, Out&& out) const {
    for (const Nonzero& l : linear_.entries()) out(l.row) += std::abs(l.value) * a(l.col);
    for (Index k = 0; k < num_functions(); ++k)
      for (const Nonzero& e : hessian(k)) out(k) += a(e.row) * std::abs(e.value * q(e.col));
  }
  /// K += s * sum_k lambda_k H_k   (n x n).
  template <class L, class K>
  void add_hessian_contraction(const L& lambda, double s, K&& k_out) const {
    for (Index k = 0; k < num_functions(); ++k)
      for (const Nonzero& e : hessian(k)) k_out(e.row, e.col) += s * lambda(k) * e.value;
  }
  /// Column k of out += s * H_k u   (out: n x m).
  template <class U, class Out>
  void add_hessians_times(const U& u, double s, Out&& out) const {
    for (Index k = 0; k < num_functions(); ++k)
      for (const Nonzero& e : hessian(k)) out(e.row, k) += s * e.value * u(e.col);
  }

 private:
  Index num_coordinates_ = 0;              ///< n
  std::span<const double> constant_;       ///< c (m)
  SparseEntries linear_;                    ///< L (m x n)
  std::span<const Nonzero> hessian_entries_;  ///< the nonzeros of H_0, H_1, ... in turn
  std::span<const Index> hessian_begin_;    ///< H_k's entries: [begin[k], begin[k + 1]) (m + 1)
};

/// Owns the arrays of a QuadraticFormView (and is that view).
class QuadraticForm : public QuadraticFormView {
 public:
  /// c (m), L (m x n), and the Hessians: hessians[k] is H_k (n x n, symmetric), or an empty matrix
  /// for H_k = 0; hessians may be empty altogether (a linear form). Throws std::invalid_argument
  /// naming `owner` when the sizes disagree, an entry is not finite or an H_k is not symmetric.
  QuadraticForm(std::string_view owner, const Vector& constant, const Matrix& linear,
                const std::vector<Matrix>& hessians = {});
  QuadraticForm(QuadraticForm&&) = default;  // the view keeps pointing at the moved buffers
  QuadraticForm(const QuadraticForm&) = delete;
  QuadraticForm& operator=(const QuadraticForm&) = delete;

 private:
  std::vector<double> constant_storage_;
  std::vector<Nonzero> linear_storage_, hessian_storage_;
  std::vector<Index> begin_storage_;
};

/// Storage for copies of constant arrays that keeps every distinct array once: identical arrays
/// share one copy, so an assembly over many alike elements reads its constant data from cache
/// instead of streaming a copy per element. Frees everything at once.
class Arena {
 public:
  /// The stored copy of `bytes` (an earlier one when the same bytes were stored before), aligned
  /// for any type; valid as long as the arena.
  const std::byte* intern(std::span<const std::byte> bytes);

  /// A copy of `values` in the arena (shared with any equal array stored before).
  template <class T>
  std::span<const T> copy(std::span<const T> values) {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    if (values.empty()) return {};
    return {reinterpret_cast<const T*>(intern(std::as_bytes(values))), values.size()};
  }
  /// Copies of the arrays of a view, valid as long as the arena.
  SparseEntries copy(const SparseEntries& entries) { return SparseEntries(copy(entries.entries())); }
  QuadraticFormView copy(const QuadraticFormView& form);

 private:
  std::pmr::monotonic_buffer_resource memory_;
  std::unordered_set<std::string_view> stored_;  ///< views of the stored copies
};

// The walk: one pass over the entries of a quadratic form (above) at a configuration q,
// for the kernels that read a constraint's form: the walk evaluates the rows every such scheme
// writes, f(q) = 0 and optionally Df(q) u = 0, with their scales and the factor of their floors,
// and hands each entry to the scheme's visitor, which adds what its other rows and blocks need
// (G^T mu in a momentum balance, the blocks G and G^T, the Hessian contraction) in the same pass.
//
// With f_k(q) = c_k + L_k.q + 1/2 q^T H_k q and Df(q) = L + [(H_k q)^T]_k  (m x n):
//
//   value_k     = f_k(q)
//   scale_k     = |c_k| + sum_j |L_kj q_j| + 1/2 sum_ij |q_i H_k,ij q_j|    (the terms of f_k(q))
//   magnitude_k = sum_j |L_kj| + sum_ij |H_k,ij q_j|                       (the terms of Df(q)_k.)
//   product value_k = (Df(q) u)_k,   product scale_k = sum_j |terms of Df(q)_kj u_j|
//
// The floor of a row is its magnitude times a rounding length that the scheme's rule states
// (steppers/row_scale.hpp); the walk leaves that factor to the scheme, so that one magnitude can
// serve rows of different floors (g(q1) = 0 and G(q1) v1 = 0).
//
// Order, fixed so that the rows are the same bits on every run and thread count: the entries of L
// as stored, then H_0's, H_1's, ... as stored; a function's quadratic term is summed over H_k's
// entries before it is halved and added to value_k and scale_k. value, magnitude and the product
// rows sum in the order of the form's own calc_value, add_jacobian_product_magnitude and
// add_jacobian_product. The visitor sees each entry after the walk's rows have taken it. A linear
// form has no Hessian entries: the walk ends after L.
//
// The visitor is two callables, inlined (no per-entry indirect call):
//   on_linear(const Nonzero& l)     L_kj = l.value, k = l.row, j = l.col
//   on_function(Index k)            before H_k's entries; returns the visitor of those entries,
//                                   which may hold what depends on k alone (a multiplier lambda_k):
//     (const Nonzero& e, double Hq)   H_k,ij = e.value, i = e.row, j = e.col,
//                                     Hq = H_k,ij q_j (its term of Df(q)_ki)

/// The rows f(q) = 0 of a form (m each): value and scale are overwritten, magnitude is added to.
struct FormRows {
  Eigen::Map<Vector> value;      ///< = f(q)
  Eigen::Map<Vector> scale;      ///< = the magnitude of the terms of f(q)
  Eigen::Map<Vector> magnitude;  ///< += the magnitude of the terms of Df(q), row by row
};

/// What a walk that leaves out the rows f(q) = 0 still gives: magnitude (m) is added to.
struct JacobianMagnitude {
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

/// Rows: FormRows, or JacobianMagnitude to leave f(q) out.
template <class Q, class Rows, class Product, class OnLinear, class OnFunction>
void walk_form(const QuadraticFormView& f, const Q& q, Rows rows, [[maybe_unused]] Product product,
               OnLinear& on_linear, OnFunction& on_function) {
  constexpr bool with_product = !std::is_same_v<Product, NoProductRows>;
  constexpr bool with_value = std::is_same_v<Rows, FormRows>;
  auto& magnitude = rows.magnitude;
  if constexpr (with_value) {
    rows.value = f.constant_part();
    rows.scale = rows.value.cwiseAbs();
  }
  for (const Nonzero& l : f.linear_part().entries()) {
    if constexpr (with_value) {
      const double term = l.value * q(l.col);
      rows.value(l.row) += term;
      rows.scale(l.row) += std::abs(term);
    }
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
      if constexpr (with_value) {
        form += q(e.row) * Hq;
        form_magnitude += std::abs(q(e.row) * Hq);
      }
      magnitude(k) += std::abs(Hq);
      if constexpr (with_product) {
        product.value(k) += product.u(e.row) * Hq;
        product.scale(k) += std::abs(product.u(e.row) * Hq);
      }
      on_entry(e, Hq);
    }
    if constexpr (with_value) {
      rows.value(k) += 0.5 * form;
      rows.scale(k) += 0.5 * form_magnitude;
    }
  }
}

}  // namespace detail

/// Walks f's entries once at q (n): the rows f(q) = 0 into `rows`, each entry to the visitor.
template <class Q, class OnLinear, class OnFunction>
void walk_form(const QuadraticFormView& f, const Q& q, FormRows rows, OnLinear&& on_linear, OnFunction&& on_function) {
  detail::walk_form(f, q, rows, detail::NoProductRows{}, on_linear, on_function);
}

/// The same walk without the rows f(q) = 0: for a kernel whose rows are not f(q), only the
/// magnitude of Df(q)'s terms (a rounding floor) into `rows`.
template <class Q, class OnLinear, class OnFunction>
void walk_form(const QuadraticFormView& f, const Q& q, JacobianMagnitude rows, OnLinear&& on_linear,
               OnFunction&& on_function) {
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

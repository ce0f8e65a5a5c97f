/// The walk over a quadratic form's entries (walk_form, engine/exact_form.hpp): its rows against
/// the form's own operations and the dense formulas, the entries it hands the visitor, and which
/// rows it overwrites and which it adds to.
#include <doctest/doctest.h>

#include <vector>

#include <noether/engine/exact_form.hpp>
#include "support/finite_differences.hpp"

using namespace noether;
using noether::testing::random_matrix_with_zeros;
using noether::testing::random_vector;

namespace {

constexpr Index n = 5, m = 3;

/// c, L and H_k (H_1 = 0) of a random form of m functions of n coordinates.
struct FormParts {
  Vector c = random_vector(m, 30);
  Matrix L = random_matrix_with_zeros(m, n, 31);
  std::vector<Matrix> H = hessians();

  static std::vector<Matrix> hessians() {
    std::vector<Matrix> hessians;
    for (Index k = 0; k < m; ++k) {
      const Matrix A = random_matrix_with_zeros(n, n, 32 + static_cast<unsigned>(k));
      hessians.push_back(k == 1 ? Matrix(Matrix::Zero(n, n)) : Matrix(A + A.transpose()));
    }
    return hessians;
  }
  const Matrix& hessian(Index k) const { return H[static_cast<std::size_t>(k)]; }
};

/// The walk's outputs, in vectors of their own.
struct Walked {
  Vector value = Vector::Zero(m), scale = Vector::Zero(m), magnitude = Vector::Zero(m);
  Vector product = Vector::Zero(m), product_scale = Vector::Zero(m);
  FormRows rows() {
    return {Eigen::Map<Vector>(value.data(), m), Eigen::Map<Vector>(scale.data(), m),
            Eigen::Map<Vector>(magnitude.data(), m)};
  }
  FormProductRows product_rows(const Vector& u) {
    return {Eigen::Map<const Vector>(u.data(), u.size()), Eigen::Map<Vector>(product.data(), m),
            Eigen::Map<Vector>(product_scale.data(), m)};
  }
};

const auto ignore_linear = [](const Nonzero&) {};
const auto ignore_hessian = [](Index) { return [](const Nonzero&, double) {}; };

}  // namespace

TEST_CASE("the form walk gives f(q), Df(q) u and Df's magnitude bit for bit as the form's operations do") {
  const FormParts parts;
  const QuadraticForm form("test form", parts.c, parts.L, parts.H);
  const Vector q = random_vector(n, 40), u = random_vector(n, 41);
  Walked walked;
  walk_form(form, q, walked.rows(), walked.product_rows(u), ignore_linear, ignore_hessian);

  // The walk sums in the order of the form's own operations (entries of L, then of H_0, H_1, ...).
  Vector value(m), product = Vector::Zero(m), product_scale = Vector::Zero(m), magnitude = Vector::Zero(m);
  form.calc_value(q, value);
  form.add_jacobian_product(q, u, 1.0, product);
  form.add_jacobian_product_magnitude(q, u.cwiseAbs(), product_scale);
  form.add_jacobian_product_magnitude(q, Vector::Ones(n), magnitude);
  CHECK(walked.value == value);
  CHECK(walked.product == product);
  CHECK(walked.product_scale == product_scale);
  CHECK(walked.magnitude == magnitude);
  // The walk sums a function's quadratic terms before it halves them and adds them to the scale;
  // add_value_magnitude adds each halved term: the same sum of at most 31 nonnegative terms in
  // another order, so the two differ by at most 31 eps of the sum.
  Vector scale = Vector::Zero(m);
  form.add_value_magnitude(q, scale);
  CHECK((walked.scale - scale).cwiseAbs().maxCoeff() <= 31 * 2.3e-16 * scale.maxCoeff());

  // And the dense formulas, to rounding.
  for (Index k = 0; k < m; ++k) {
    CAPTURE(k);
    const Matrix& H = parts.hessian(k);
    const Vector G_k = parts.L.row(k).transpose() + H * q;
    CHECK(std::abs(walked.value(k) - (parts.c(k) + parts.L.row(k).dot(q) + 0.5 * q.dot(H * q))) <= 1e-14);
    CHECK(std::abs(walked.product(k) - G_k.dot(u)) <= 1e-14);
    const double jacobian_terms = parts.L.row(k).cwiseAbs().sum() + (H * q.asDiagonal()).cwiseAbs().sum();
    CHECK(std::abs(walked.magnitude(k) - jacobian_terms) <= 1e-14);
    const double terms = std::abs(parts.c(k)) + (parts.L.row(k).transpose().cwiseProduct(q)).cwiseAbs().sum() +
                         0.5 * (q.asDiagonal() * H * q.asDiagonal()).cwiseAbs().sum();
    CHECK(std::abs(walked.scale(k) - terms) <= 1e-14);
  }
}

TEST_CASE("the form walk hands the visitor every entry once, L's first, then H_k's with H_k,ij q_j for k in turn") {
  const FormParts parts;
  const QuadraticForm form("test form", parts.c, parts.L, parts.H);
  const Vector q = random_vector(n, 40), lambda = random_vector(m, 42);
  Walked walked;
  Matrix G = Matrix::Zero(m, n), K = Matrix::Zero(n, n);
  std::size_t linear_entries = 0, hessian_entries = 0;
  std::vector<Index> functions;
  walk_form(
      form, q, walked.rows(),
      [&](const Nonzero& l) {
        CHECK(functions.empty());
        ++linear_entries;
        G(l.row, l.col) += l.value;
      },
      [&](Index k) {
        functions.push_back(k);
        const double lambda_k = lambda(k);
        return [&, k, lambda_k](const Nonzero& e, double Hq) {
          CHECK(Hq == e.value * q(e.col));
          ++hessian_entries;
          G(k, e.row) += Hq;
          K(e.row, e.col) += lambda_k * e.value;
        };
      });
  CHECK(functions == std::vector<Index>{0, 1, 2});  // each function once, in turn, H_1 = 0 too
  CHECK(linear_entries == static_cast<std::size_t>((parts.L.array() != 0.0).count()));
  std::size_t expected_hessian_entries = 0;
  for (const Matrix& H : parts.H) expected_hessian_entries += static_cast<std::size_t>((H.array() != 0.0).count());
  CHECK(hessian_entries == expected_hessian_entries);
  // G(q) and sum_k lambda_k H_k built from the visits are the form's, bit for bit.
  Matrix G_form = Matrix::Zero(m, n), K_form = Matrix::Zero(n, n);
  form.add_jacobian(q, 1.0, G_form);
  form.add_hessian_contraction(lambda, 1.0, K_form);
  CHECK(G == G_form);
  CHECK(K == K_form);
}

TEST_CASE("the form walk overwrites f(q) and its scale and adds to the magnitude and the product rows") {
  const FormParts parts;
  const QuadraticForm form("test form", parts.c, parts.L, parts.H);
  const Vector q = random_vector(n, 40), u = random_vector(n, 41);
  Walked fresh, used;
  walk_form(form, q, fresh.rows(), fresh.product_rows(u), ignore_linear, ignore_hessian);
  used.value.setConstant(7.0);
  used.scale.setConstant(7.0);
  used.magnitude.setConstant(1.0);
  used.product.setConstant(2.0);
  used.product_scale.setConstant(3.0);
  walk_form(form, q, used.rows(), used.product_rows(u), ignore_linear, ignore_hessian);
  CHECK(used.value == fresh.value);
  CHECK(used.scale == fresh.scale);
  CHECK((used.magnitude - fresh.magnitude - Vector::Ones(m)).cwiseAbs().maxCoeff() <= 1e-14);
  CHECK((used.product - fresh.product - Vector::Constant(m, 2.0)).cwiseAbs().maxCoeff() <= 1e-14);
  CHECK((used.product_scale - fresh.product_scale - Vector::Constant(m, 3.0)).cwiseAbs().maxCoeff() <= 1e-14);
}

TEST_CASE("the walk of a linear form visits only L: f = c + L q, magnitude the row sums of |L|") {
  const FormParts parts;
  const QuadraticForm form("linear form", parts.c, parts.L);
  REQUIRE(form.is_linear());
  const Vector q = random_vector(n, 40);
  Walked walked;
  int hessian_visits = 0;
  walk_form(form, q, walked.rows(), ignore_linear, [&](Index) {
    ++hessian_visits;
    return [](const Nonzero&, double) {};
  });
  CHECK(hessian_visits == 0);
  CHECK((walked.value - (parts.c + parts.L * q)).cwiseAbs().maxCoeff() <= 1e-14);
  CHECK((walked.magnitude - parts.L.cwiseAbs().rowwise().sum()).cwiseAbs().maxCoeff() <= 1e-14);
  CHECK((walked.scale - (parts.c.cwiseAbs() + parts.L.cwiseAbs() * q.cwiseAbs())).cwiseAbs().maxCoeff() <= 1e-14);
}

TEST_CASE("the Hessian contraction's product adds s sum_k lambda_k H_k u, a negative s as subtracting |s| does") {
  const FormParts parts;
  const QuadraticForm form("test form", parts.c, parts.L, parts.H);
  const Vector u = random_vector(n, 41), lambda = random_vector(m, 42), r0 = random_vector(n, 43);
  Vector r = r0;
  add_hessian_contraction_product(form, lambda, u, -2.0, r);
  Vector expected = r0;
  for (Index k = 0; k < m; ++k) expected -= 2.0 * lambda(k) * parts.hessian(k) * u;
  CHECK((r - expected).cwiseAbs().maxCoeff() <= 1e-14);
  // A negative s gives the bits of subtracting with |s|: the form the kernels' rows are written in.
  Vector subtracted = r0;
  for (Index k = 0; k < m; ++k)
    for (const Nonzero& e : form.hessian(k)) subtracted(e.row) -= 2.0 * lambda(k) * e.value * u(e.col);
  CHECK(r == subtracted);
}

/// The exact forms elements of degree <= 2 state (engine/exact_form.hpp): their evaluations, the
/// forms the joints and bodies state against their equations written out, and the arena that
/// keeps alike elements' forms once.
#include <doctest/doctest.h>

#include <noether/bodies/director_constraint.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/joint_library.hpp>
#include "support/joint_checks.hpp"
#include <noether/engine/exact_form.hpp>
#include <noether/joints/function_potential.hpp>

using namespace noether;
using namespace noether::joint_testing;
using noether::testing::random_matrix_with_zeros;
using noether::testing::random_vector;

namespace {

std::vector<std::shared_ptr<const Constraint>> constraints_of_degree_two() {
  const BodyRef a = body(0, BodyKind::director3d, "A"), b = body(1, BodyKind::director3d, "B");
  const BodyRef pa = body(2, BodyKind::planar_director, "PA"), pb = body(3, BodyKind::planar_director, "PB");
  const Vector X_a = vec({0.3, -0.7, 0.2}), X_b = vec({-0.5, 0.1, 0.9});
  const Vector u = vec({0.2, 1.0, -0.4}), w = vec({-0.6, 0.3, 0.8});
  const Vector Y_a = vec({0.4, -0.3}), Y_b = vec({-0.6, 0.2}), s = vec({0.8, 0.6}), t = vec({-0.3, 1.0});
  return {std::make_shared<DirectorOrthonormality>("orthonormality-3d", BlockId{0}, 3),
          std::make_shared<DirectorOrthonormality>("orthonormality-2d", BlockId{0}, 2),
          make_spherical("spherical", a, X_a, b, X_b),
          make_revolute("revolute", a, X_a, u, b, X_b, w),
          make_distance("distance", a, X_a, b, X_b, 1.7),
          make_revolute_planar("revolute-planar", pa, Y_a, pb, Y_b),
          make_prismatic_planar("prismatic-planar", pa, Y_a, s, pb, Y_b, t)};
}

double relative_error(const Matrix& value, const Matrix& reference) {
  return (value - reference).cwiseAbs().maxCoeff() / std::max(1.0, reference.cwiseAbs().maxCoeff());
}

}  // namespace

TEST_CASE("sparse entries: products and sums equal those of the dense matrix") {
  const Matrix A = random_matrix_with_zeros(5, 7, 11);
  const ConstantMatrix entries(A);
  CHECK(entries.entries().size() == static_cast<std::size_t>((A.array() != 0.0).count()));
  const Vector x = random_vector(7, 12), y = random_vector(5, 13);
  const Vector r0 = random_vector(5, 14), c0 = random_vector(7, 15);
  const Matrix K0 = random_matrix_with_zeros(5, 7, 16);

  Vector r = r0, c = c0;
  Matrix K = K0;
  entries.add_product(x, 0.5, r);
  entries.add_transpose_product(y, -2.0, c);
  entries.add_to(3.0, K);
  CHECK(relative_error(r, r0 + 0.5 * A * x) <= 1e-15);
  CHECK(relative_error(c, c0 - 2.0 * A.transpose() * y) <= 1e-15);
  CHECK(relative_error(K, K0 + 3.0 * A) <= 1e-15);
}

TEST_CASE("a quadratic form evaluates f, Df, Df u, Df^T lambda, the Hessian contraction and H_k u from its parts") {
  const Index n = 5, m = 3;
  const Vector c = random_vector(m, 30);
  const Matrix L = random_matrix_with_zeros(m, n, 31);
  std::vector<Matrix> H;
  for (Index k = 0; k < m; ++k) {
    const Matrix A = random_matrix_with_zeros(n, n, 32 + static_cast<unsigned>(k));
    H.push_back(k == 1 ? Matrix() : Matrix(A + A.transpose()));  // H_1 = 0
  }
  const QuadraticForm form("test form", c, L, H);
  CHECK(form.num_functions() == m);
  CHECK(form.num_coordinates() == n);
  CHECK_FALSE(form.is_linear());
  const Vector q = random_vector(n, 40), u = random_vector(n, 41), lambda = random_vector(m, 42);
  const auto hessian = [&](Index k) { return H[static_cast<std::size_t>(k)].size() ? H[static_cast<std::size_t>(k)] : Matrix(Matrix::Zero(n, n)); };
  Vector f_expected(m);
  Matrix G_expected(m, n);
  for (Index k = 0; k < m; ++k) {
    f_expected(k) = c(k) + L.row(k).dot(q) + 0.5 * q.dot(hessian(k) * q);
    G_expected.row(k) = L.row(k) + (hessian(k) * q).transpose();
  }
  Vector f(m);
  form.calc_value(q, f);
  CHECK(relative_error(f, f_expected) <= 1e-14);
  Matrix G = Matrix::Zero(m, n);
  form.add_jacobian(q, 1.0, G);
  CHECK(relative_error(G, G_expected) <= 1e-14);
  Vector Gu = Vector::Zero(m), Gt_lambda = Vector::Zero(n);
  form.add_jacobian_product(q, u, 2.0, Gu);
  form.add_jacobian_transpose_product(q, lambda, -1.0, Gt_lambda);
  CHECK(relative_error(Gu, 2.0 * G_expected * u) <= 1e-14);
  CHECK(relative_error(Gt_lambda, -G_expected.transpose() * lambda) <= 1e-14);
  Matrix K = Matrix::Zero(n, n), Hu = Matrix::Zero(n, m);
  form.add_hessian_contraction(lambda, 0.5, K);
  form.add_hessians_times(u, 1.0, Hu);
  Matrix K_expected = Matrix::Zero(n, n);
  for (Index k = 0; k < m; ++k) {
    K_expected += 0.5 * lambda(k) * hessian(k);
    CHECK(relative_error(Hu.col(k), hessian(k) * u) <= 1e-14);
  }
  CHECK(relative_error(K, K_expected) <= 1e-14);
}

TEST_CASE("a quadratic form refuses parts of mismatched sizes, non-finite entries and unsymmetric Hessians") {
  const Matrix L = Matrix::Ones(2, 3);
  CHECK_THROWS_WITH_AS(QuadraticForm("joint 'j'", Vector::Zero(3), L), doctest::Contains("joint 'j'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(QuadraticForm("f", Vector::Zero(2), L, {Matrix::Identity(2, 2), Matrix()}),
                       doctest::Contains("Hessian 0"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(QuadraticForm("f", Vector::Zero(2), L, {Matrix{{0, 1, 0}, {0, 0, 0}, {0, 0, 0}}, Matrix()}),
                       doctest::Contains("not symmetric"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(QuadraticForm("f", Vector::Constant(2, std::nan("")), L), doctest::Contains("non-finite"),
                       std::invalid_argument);
}

TEST_CASE("every joint and body constraint of degree <= 2 states its form, of its sizes") {
  // That the form is right (G = Dg, D^2 g_k = H_k against finite differences) is tested for every
  // joint in tests/joints/test_joint_derivatives.cpp: the constraint evaluates from it.
  for (const auto& constraint : constraints_of_degree_two()) {
    CAPTURE(constraint->name());
    const QuadraticFormView* form = constraint->quadratic_form();
    REQUIRE(form != nullptr);
    CHECK(form->num_functions() == constraint->num_equations());
    CHECK(form->num_coordinates() == constraint->local_size());
    CHECK(form->is_linear() == (constraint->nonlinearity() == Nonlinearity::linear));
  }
}

TEST_CASE("the director orthonormality form is 1/2 (d_i.d_i - 1) and d_i.d_j, row by row") {
  const DirectorOrthonormality constraint("body", BlockId{0}, 3);
  const Vector q = random_vector(12, 50);
  const auto d = [&](Index i) { return q.segment(3 * (i + 1), 3); };
  const Vector expected{{0.5 * (d(0).dot(d(0)) - 1.0), 0.5 * (d(1).dot(d(1)) - 1.0), 0.5 * (d(2).dot(d(2)) - 1.0),
                         d(0).dot(d(1)), d(0).dot(d(2)), d(1).dot(d(2))}};
  CHECK(relative_error(value_of(constraint, q), expected) <= 1e-15);
}

TEST_CASE("user functions declared quadratic are read into a form at construction that reproduces them anywhere") {
  ConstraintFunction circle;  // g = 1/2 (x^2 + y^2) - 2 x + 3
  circle.value = [](ConstVectorRef q) { return Vector::Constant(1, 0.5 * q.squaredNorm() - 2.0 * q(0) + 3.0); };
  circle.jacobian = [](ConstVectorRef q) { return Matrix{{q(0) - 2.0, q(1)}}; };
  circle.hessian_contraction = [](ConstVectorRef, ConstVectorRef lambda) { return Matrix(lambda(0) * Matrix::Identity(2, 2)); };
  circle.nonlinearity = Nonlinearity::quadratic;
  const FunctionConstraint constraint("circle", {BlockId{0}}, 2, circle);
  REQUIRE(constraint.quadratic_form() != nullptr);
  const Vector point = random_vector(2, 60);
  Vector g(1);
  constraint.quadratic_form()->calc_value(point, g);
  CHECK(std::abs(g(0) - circle.value(point)(0)) <= 1e-14);

  circle.nonlinearity = Nonlinearity::general;
  CHECK(FunctionConstraint("general", {BlockId{0}}, 2, circle).quadratic_form() == nullptr);

  ConstraintFunction wrong = circle;  // declares two equations, returns one
  wrong.num_equations = 2;
  wrong.nonlinearity = Nonlinearity::quadratic;
  CHECK_THROWS_WITH_AS(FunctionConstraint("wrong", {BlockId{0}}, 2, wrong),
                       doctest::Contains("constraint 'wrong': ConstraintFunction::value returned 1 entry, expected 2 entries"), std::invalid_argument);

  PotentialFunction spring;  // V = (x - 1)^2
  spring.energy = [](ConstVectorRef q) { return (q(0) - 1.0) * (q(0) - 1.0); };
  spring.gradient = [](ConstVectorRef q) { return Vector::Constant(1, 2.0 * (q(0) - 1.0)); };
  spring.hessian = [](ConstVectorRef) { return Matrix::Constant(1, 1, 2.0); };
  spring.nonlinearity = Nonlinearity::quadratic;
  const FunctionPotential potential("spring", {BlockId{0}}, 1, spring);
  REQUIRE(potential.quadratic_form() != nullptr);
  Vector V(1);
  potential.quadratic_form()->calc_value(Vector::Constant(1, 3.0), V);
  CHECK(V(0) == 4.0);
}

TEST_CASE("the arena keeps equal arrays once: alike elements share their forms, others do not") {
  Arena arena;
  const ConstantMatrix A(random_matrix_with_zeros(5, 7, 21)), B(random_matrix_with_zeros(5, 7, 22));
  const SparseEntries a1 = arena.copy(A), a2 = arena.copy(A), b = arena.copy(B);
  CHECK(a1.entries().data() == a2.entries().data());
  CHECK(a1.entries().data() != b.entries().data());

  // Two bodies' orthonormality constraints are alike: one copy, and both still evaluate correctly.
  const DirectorOrthonormality first("first", BlockId{0}, 3), second("second", BlockId{1}, 3);
  const QuadraticFormView c1 = arena.copy(*first.quadratic_form()), c2 = arena.copy(*second.quadratic_form());
  CHECK(c1.hessian(0).data() == c2.hessian(0).data());
  const Vector q = random_vector(first.local_size(), 23);
  Vector g1(c1.num_functions()), g2(c2.num_functions()), g(first.num_equations());
  c1.calc_value(q, g1);
  c2.calc_value(q, g2);
  first.calc_value(q, g);
  CHECK(g1 == g);
  CHECK(g1 == g2);

  // Equal bytes of different types may share storage; what is read back is unchanged either way.
  const std::vector<Index> zeros_as_index{0, 0};
  const std::vector<double> zero_as_double{0.0};
  const std::span<const Index> i = arena.copy(std::span<const Index>(zeros_as_index));
  const std::span<const double> d = arena.copy(std::span<const double>(zero_as_double));
  CHECK(i[0] == 0);
  CHECK(i[1] == 0);
  CHECK(d[0] == 0.0);
}

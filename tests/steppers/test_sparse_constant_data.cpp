/// The sparse constant data a stepper reads once from elements of degree <= 2 reproduces the
/// elements' own values and derivatives.
#include <doctest/doctest.h>

#include <noether/bodies/director_constraint.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/joint_library.hpp>
#include "joints/test_joint_support.hpp"
#include <noether/steppers/sparse_constant_data.hpp>

using namespace noether;
using namespace noether::joint_testing;
using noether::testing::random_vector;

namespace {

/// A random rows x cols matrix with every third entry exactly zero.
Matrix sparse_matrix(Index rows, Index cols, unsigned seed) {
  Matrix A = Eigen::Map<const Matrix>(random_vector(rows * cols, seed).data(), rows, cols);
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i)
      if ((i + 2 * j) % 3 == 0) A(i, j) = 0.0;
  return A;
}

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
  const Matrix A = sparse_matrix(5, 7, 11);
  Arena arena;
  const SparseEntries entries(A, arena);
  CHECK(entries.entries().size() == static_cast<std::size_t>((A.array() != 0.0).count()));
  const Vector x = random_vector(7, 12), y = random_vector(5, 13);
  const Vector r0 = random_vector(5, 14), c0 = random_vector(7, 15);
  const Matrix K0 = sparse_matrix(5, 7, 16);

  Vector r = r0, c = c0;
  Matrix K = K0;
  entries.add_product(x, 0.5, r);
  entries.add_transpose_product(y, -2.0, c);
  entries.add_to(3.0, K);
  CHECK(relative_error(r, r0 + 0.5 * A * x) <= 1e-15);
  CHECK(relative_error(c, c0 - 2.0 * A.transpose() * y) <= 1e-15);
  CHECK(relative_error(K, K0 + 3.0 * A) <= 1e-15);
}

TEST_CASE("sparse quadratic constraints reproduce g, G and the Hessian contraction of every kind of joint") {
  unsigned seed = 200;
  Arena arena;
  for (const auto& constraint : constraints_of_degree_two()) {
    CAPTURE(constraint->name());
    const Index n = constraint->local_size(), m = constraint->num_equations();
    const SparseQuadraticConstraint sparse(*constraint, arena);
    CHECK(sparse.num_equations() == m);
    CHECK(sparse.is_linear() == (constraint->nonlinearity() == Nonlinearity::linear));
    const Vector q = random_vector(n, seed), lambda = random_vector(m, seed + 1);
    seed += 10;

    Vector g(m);
    sparse.calc_value(q, g);
    CHECK(relative_error(g, value_of(*constraint, q)) <= 1e-14);

    const Matrix G = jacobian_of(*constraint, q);
    Matrix G_sparse = Matrix::Zero(m, n);
    sparse.add_jacobian(q, G_sparse);
    CHECK(relative_error(G_sparse, G) <= 1e-14);

    Vector r = Vector::Zero(n);
    sparse.add_jacobian_transpose_product(q, lambda, r);
    CHECK(relative_error(r, G.transpose() * lambda) <= 1e-14);

    Matrix H = Matrix::Zero(n, n), H_sparse = Matrix::Zero(n, n);
    constraint->add_hessian_contraction(q, lambda, 0.5, H);
    sparse.add_hessian_contraction(lambda, 0.5, H_sparse);
    CHECK(relative_error(H_sparse, H) <= 1e-14);
  }
}

TEST_CASE("a sparse quadratic constraint refuses a constraint of general nonlinearity") {
  ConstraintFunction cubic;
  cubic.value = [](ConstVectorRef q) { return Vector::Constant(1, q(0) * q(0) * q(0)); };
  cubic.jacobian = [](ConstVectorRef q) { return Matrix::Constant(1, 1, 3.0 * q(0) * q(0)); };
  cubic.hessian_contraction = [](ConstVectorRef q, ConstVectorRef lambda) {
    return Matrix::Constant(1, 1, 6.0 * q(0) * lambda(0));
  };
  const FunctionConstraint constraint("cubic", {BlockId{0}}, 1, cubic);
  Arena arena;
  CHECK_THROWS_WITH_AS(SparseQuadraticConstraint(constraint, arena), doctest::Contains("constraint 'cubic'"),
                       std::invalid_argument);
}

TEST_CASE("the arena keeps equal arrays once: alike elements share their constant data, others do not") {
  Arena arena;
  const Matrix A = sparse_matrix(5, 7, 21), B = sparse_matrix(5, 7, 22);
  const SparseEntries a1(A, arena), a2(A, arena), b(B, arena);
  CHECK(a1.entries().data() == a2.entries().data());
  CHECK(a1.entries().data() != b.entries().data());

  // Two bodies' orthonormality constraints are alike: one copy, and both still evaluate correctly.
  const DirectorOrthonormality first("first", BlockId{0}, 3), second("second", BlockId{1}, 3);
  const SparseQuadraticConstraint c1(first, arena), c2(second, arena);
  CHECK(c1.hessian(0).data() == c2.hessian(0).data());
  const Vector q = random_vector(first.local_size(), 23);
  Vector g1(c1.num_equations()), g2(c2.num_equations()), g(first.num_equations());
  c1.calc_value(q, g1);
  c2.calc_value(q, g2);
  first.calc_value(q, g);
  CHECK(relative_error(g1, g) <= 1e-14);
  CHECK(g1 == g2);

  // Equal bytes of different types may share storage; what is read back is unchanged either way.
  const std::vector<Index> zeros_as_index{0, 0};
  const std::vector<double> zero_as_double{0.0};
  const std::span<const Index> i = copy_to(arena, zeros_as_index);
  const std::span<const double> d = copy_to(arena, zero_as_double);
  CHECK(i[0] == 0);
  CHECK(i[1] == 0);
  CHECK(d[0] == 0.0);
}

#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/viscous_damper.hpp>
#include "support/finite_differences.hpp"

using namespace noether;

namespace {

const std::vector<BlockId> kOneBlock{BlockId{0}};

double max_abs_difference(const Matrix& a, const Matrix& b) { return (a - b).cwiseAbs().maxCoeff(); }

// ---- potentials -------------------------------------------------------------------------------

/// V = sin(q0 q1) + q0^2 exp(0.3 q2) + 1 / (1 + q1^2): general nonlinearity, exact derivatives.
std::shared_ptr<const Potential> general_potential() {
  PotentialFunction f;
  f.energy = [](ConstVectorRef q) {
    return std::sin(q(0) * q(1)) + q(0) * q(0) * std::exp(0.3 * q(2)) + 1.0 / (1.0 + q(1) * q(1));
  };
  f.gradient = [](ConstVectorRef q) {
    const double c = std::cos(q(0) * q(1)), e = std::exp(0.3 * q(2)), d = 1.0 + q(1) * q(1);
    return Vector(Eigen::Vector3d(q(1) * c + 2.0 * q(0) * e, q(0) * c - 2.0 * q(1) / (d * d), 0.3 * q(0) * q(0) * e));
  };
  f.hessian = [](ConstVectorRef q) {
    const double s = std::sin(q(0) * q(1)), c = std::cos(q(0) * q(1)), e = std::exp(0.3 * q(2));
    const double d = 1.0 + q(1) * q(1);
    Matrix H(3, 3);
    H(0, 0) = -q(1) * q(1) * s + 2.0 * e;
    H(0, 1) = H(1, 0) = c - q(0) * q(1) * s;
    H(0, 2) = H(2, 0) = 0.6 * q(0) * e;
    H(1, 1) = -q(0) * q(0) * s + (6.0 * q(1) * q(1) - 2.0) / (d * d * d);
    H(1, 2) = H(2, 1) = 0.0;
    H(2, 2) = 0.09 * q(0) * q(0) * e;
    return H;
  };
  return std::make_shared<FunctionPotential>("general", kOneBlock, 3, f);
}

/// V = 1/2 q.K q + b.q, declared quadratic.
std::shared_ptr<const Potential> quadratic_potential(const Matrix& K, const Vector& b) {
  PotentialFunction f;
  f.nonlinearity = Nonlinearity::quadratic;
  f.energy = [=](ConstVectorRef q) { return 0.5 * q.dot(K * q) + b.dot(q); };
  f.gradient = [=](ConstVectorRef q) { return Vector(K * q + b); };
  f.hessian = [=](ConstVectorRef) { return K; };
  return std::make_shared<FunctionPotential>("quadratic", kOneBlock, static_cast<Index>(b.size()), f);
}

Vector gradient_of(const Potential& V, const Vector& q) {
  Vector g = Vector::Zero(q.size());
  V.add_gradient(q, 1.0, g);
  return g;
}

Vector discrete_gradient_of(const Potential& V, const Vector& qa, const Vector& qb) {
  Vector g = Vector::Zero(qa.size());
  V.add_discrete_gradient(qa, qb, 1.0, g);
  return g;
}

// ---- constraints ------------------------------------------------------------------------------

/// g = (x^3 + sin y, x y z - exp(z) / 2) on q = (x, y, z): general nonlinearity.
std::shared_ptr<const Constraint> general_constraint() {
  ConstraintFunction f;
  f.num_equations = 2;
  f.value = [](ConstVectorRef q) {
    return Vector(Eigen::Vector2d(std::pow(q(0), 3) + std::sin(q(1)), q(0) * q(1) * q(2) - 0.5 * std::exp(q(2))));
  };
  f.jacobian = [](ConstVectorRef q) {
    Matrix G(2, 3);
    G << 3.0 * q(0) * q(0), std::cos(q(1)), 0.0, q(1) * q(2), q(0) * q(2), q(0) * q(1) - 0.5 * std::exp(q(2));
    return G;
  };
  f.hessian_contraction = [](ConstVectorRef q, ConstVectorRef lambda) {
    Matrix H0 = Matrix::Zero(3, 3), H1 = Matrix::Zero(3, 3);
    H0(0, 0) = 6.0 * q(0);
    H0(1, 1) = -std::sin(q(1));
    H1 << 0.0, q(2), q(1), q(2), 0.0, q(0), q(1), q(0), -0.5 * std::exp(q(2));
    return Matrix(lambda(0) * H0 + lambda(1) * H1);
  };
  return std::make_shared<FunctionConstraint>("general", kOneBlock, 3, f);
}

/// g = 1/2 (|q|^2 - 1) on q = (x, y): a grounded rod, quadratic.
std::shared_ptr<const Constraint> rod_constraint() {
  ConstraintFunction f;
  f.nonlinearity = Nonlinearity::quadratic;
  f.value = [](ConstVectorRef q) { return Vector::Constant(1, 0.5 * (q.squaredNorm() - 1.0)); };
  f.jacobian = [](ConstVectorRef q) { return Matrix(q.transpose()); };
  f.hessian_contraction = [](ConstVectorRef, ConstVectorRef lambda) { return Matrix(lambda(0) * Matrix::Identity(2, 2)); };
  return std::make_shared<FunctionConstraint>("rod", kOneBlock, 2, f);
}

Vector value_of(const Constraint& c, const Vector& q) {
  Vector g(c.num_equations());
  c.calc_value(q, g);
  return g;
}

Matrix jacobian_of(const Constraint& c, const Vector& q) {
  Matrix G(c.num_equations(), q.size());
  c.calc_jacobian(q, G);
  return G;
}

Matrix discrete_gradient_of(const Constraint& c, const Vector& qa, const Vector& qb) {
  Matrix Gbar(c.num_equations(), qa.size());
  c.calc_discrete_gradient(qa, qb, Gbar);
  return Gbar;
}

// ---- inertias ---------------------------------------------------------------------------------

/// Planar two-link arm: M(q) = [a + 2 b cos q1, c + b cos q1; c + b cos q1, c], depending on q1 only.
std::shared_ptr<const Inertia> two_link_arm_inertia() {
  const double a = 3.0, b = 0.8, c = 1.1;
  MassFunction f;
  f.mass = [=](ConstVectorRef q) {
    const double k = std::cos(q(1));
    return Matrix{{a + 2.0 * b * k, c + b * k}, {c + b * k, c}};
  };
  f.mass_derivative = [=](ConstVectorRef q, Index i) {
    const double s = std::sin(q(1));
    return i == 0 ? Matrix(Matrix::Zero(2, 2)) : Matrix{{-2.0 * b * s, -b * s}, {-b * s, 0.0}};
  };
  f.mass_second_derivative = [=](ConstVectorRef q, Index i, Index j) {
    const double k = std::cos(q(1));
    return (i == 1 && j == 1) ? Matrix{{-2.0 * b * k, -b * k}, {-b * k, 0.0}} : Matrix(Matrix::Zero(2, 2));
  };
  return std::make_shared<ConfigurationInertia>("arm", kOneBlock, 2, f);
}

/// The spring pendulum's M(q) = m diag(1, r^2, r^2 sin^2 theta), taken from its scenario.
std::shared_ptr<const Inertia> spring_pendulum_inertia() {
  const Scenario& scenario = find_scenario("spring-pendulum");
  static const Model model = scenario.build(resolve_parameters(scenario, {{"m", 1.7}}));
  return model.system->inertias()[0].element;
}

/// dT/dz stacked (q, v) through add_kinetic_gradient.
Vector kinetic_gradient_of(const Inertia& inertia, const Vector& z) {
  const Index n = inertia.local_size();
  Vector grad = Vector::Zero(2 * n);
  inertia.add_kinetic_gradient(z.head(n), z.tail(n), 1.0, grad.head(n), grad.tail(n));
  return grad;
}

void check_inertia_derivatives(const Inertia& inertia, const Vector& z) {
  const Index n = inertia.local_size();
  const auto T = [&](const Vector& zz) { return inertia.kinetic_energy(zz.head(n), zz.tail(n)); };
  const Vector grad = kinetic_gradient_of(inertia, z);
  const Vector grad_fd = testing::central_difference_gradient(T, z, 1e-5);
  CHECK(max_abs_difference(grad, grad_fd) <= 1e-8 * (1.0 + grad.cwiseAbs().maxCoeff()));

  Matrix H = Matrix::Zero(2 * n, 2 * n);
  inertia.add_kinetic_hessian(z.head(n), z.tail(n), 1.0, H);
  const Matrix H_fd = testing::central_difference_jacobian([&](const Vector& zz) { return kinetic_gradient_of(inertia, zz); },
                                                           z, 1e-5);
  CHECK(max_abs_difference(H, H_fd) <= 1e-8 * (1.0 + H.cwiseAbs().maxCoeff()));
  CHECK(max_abs_difference(H, H.transpose()) <= 1e-14 * (1.0 + H.cwiseAbs().maxCoeff()));
  Matrix M = Matrix::Zero(n, n);
  inertia.add_mass_matrix(z.head(n), 1.0, M);
  CHECK(H.bottomRightCorner(n, n) == M);  // H_vv = M(q)
  CHECK(std::abs(inertia.kinetic_energy(z.head(n), z.tail(n)) - 0.5 * z.tail(n).dot(M * z.tail(n))) <= 1e-14);
}

}  // namespace

TEST_CASE("FunctionPotential, general: gradient, Hessian, discrete gradient identity and its Jacobian") {
  const auto V = general_potential();
  CHECK(V->nonlinearity() == Nonlinearity::general);
  for (unsigned seed = 0; seed < 8; ++seed) {
    CAPTURE(seed);
    const Vector qa = testing::random_vector(3, 10 + seed, 1.0), qb = testing::random_vector(3, 20 + seed, 1.0);
    const auto energy = [&](const Vector& q) { return V->energy(q); };
    CHECK(max_abs_difference(gradient_of(*V, qa), testing::central_difference_gradient(energy, qa)) <= 1e-8);
    Matrix H = Matrix::Zero(3, 3);
    V->add_hessian(qa, 1.0, H);
    CHECK(max_abs_difference(H, testing::central_difference_jacobian([&](const Vector& q) { return gradient_of(*V, q); }, qa)) <=
          1e-8);

    const Vector dbar = discrete_gradient_of(*V, qa, qb);
    CHECK(std::abs(dbar.dot(qb - qa) - (V->energy(qb) - V->energy(qa))) <= 1e-14 * (1.0 + std::abs(V->energy(qa))));
    Matrix K = Matrix::Zero(3, 3);
    V->add_discrete_gradient_jacobian(qa, qb, 1.0, K);
    const Matrix K_fd = testing::central_difference_jacobian([&](const Vector& q) { return discrete_gradient_of(*V, qa, q); },
                                                             qb, 1e-5);
    CHECK(max_abs_difference(K, K_fd) <= 1e-7 * (1.0 + K.cwiseAbs().maxCoeff()));
    CHECK(discrete_gradient_of(*V, qa, qa) == gradient_of(*V, qa));  // Dbar V(q, q) = DV(q)
  }
}

TEST_CASE("FunctionPotential, quadratic: the midpoint gradient is exact and its Jacobian is K/2") {
  const Matrix K{{3.0, -1.0, 0.5}, {-1.0, 2.0, 0.0}, {0.5, 0.0, 1.0}};
  const Vector b = Vector(Eigen::Vector3d(0.3, -0.2, 1.0));
  const auto V = quadratic_potential(K, b);
  const Vector qa = testing::random_vector(3, 31, 2.0), qb = testing::random_vector(3, 32, 2.0);
  const Vector dbar = discrete_gradient_of(*V, qa, qb);
  CHECK(dbar == gradient_of(*V, Vector(0.5 * (qa + qb))));
  CHECK(std::abs(dbar.dot(qb - qa) - (V->energy(qb) - V->energy(qa))) <= 1e-14 * (1.0 + std::abs(V->energy(qa))));
  Matrix J = Matrix::Constant(3, 3, 1.0);
  V->add_discrete_gradient_jacobian(qa, qb, 2.0, J);  // accumulates: J = 1 + 2 * K/2
  CHECK(max_abs_difference(J, Matrix(Matrix::Constant(3, 3, 1.0) + K)) == 0.0);
}

TEST_CASE("FunctionConstraint, general: G and the Hessian contraction match finite differences") {
  const auto c = general_constraint();
  CHECK(c->num_equations() == 2);
  const Vector lambda = Vector(Eigen::Vector2d(0.7, -1.3));
  for (unsigned seed = 0; seed < 6; ++seed) {
    CAPTURE(seed);
    const Vector q = testing::random_vector(3, 40 + seed, 1.0);
    CHECK(max_abs_difference(jacobian_of(*c, q),
                             testing::central_difference_jacobian([&](const Vector& x) { return value_of(*c, x); }, q)) <= 1e-8);
    Matrix H = Matrix::Zero(3, 3);
    c->add_hessian_contraction(q, lambda, 1.0, H);
    const Matrix H_fd = testing::central_difference_jacobian(
        [&](const Vector& x) { return Vector(jacobian_of(*c, x).transpose() * lambda); }, q);
    CHECK(max_abs_difference(H, H_fd) <= 1e-8);
  }
}

TEST_CASE("FunctionConstraint, general: Gbar row identity, Gbar(q, q) = G(q), contraction Jacobian vs FD") {
  const auto c = general_constraint();
  for (unsigned seed = 0; seed < 8; ++seed) {
    CAPTURE(seed);
    const Vector qa = testing::random_vector(3, 50 + seed, 1.0), qb = testing::random_vector(3, 60 + seed, 1.0);
    const Matrix Gbar = discrete_gradient_of(*c, qa, qb);
    const Vector defect = Gbar * (qb - qa) - (value_of(*c, qb) - value_of(*c, qa));
    CHECK(defect.cwiseAbs().maxCoeff() <= 1e-14 * (1.0 + value_of(*c, qa).cwiseAbs().maxCoeff()));
    CHECK(discrete_gradient_of(*c, qa, qa) == jacobian_of(*c, qa));

    // Both multipliers, and one zero multiplier (that row is skipped).
    for (const Vector& lambda : {Vector(Eigen::Vector2d(0.7, -1.3)), Vector(Eigen::Vector2d(0.0, 2.1))}) {
      Matrix K = Matrix::Zero(3, 3);
      c->add_discrete_gradient_contraction_jacobian(qa, qb, lambda, 1.0, K);
      const Matrix K_fd = testing::central_difference_jacobian(
          [&](const Vector& q) { return Vector(discrete_gradient_of(*c, qa, q).transpose() * lambda); }, qb, 1e-5);
      CHECK(max_abs_difference(K, K_fd) <= 1e-7 * (1.0 + K.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("FunctionConstraint, quadratic and linear: midpoint Gbar is exact, Hessian terms as declared") {
  const auto rod = rod_constraint();
  const Vector qa = Vector(Eigen::Vector2d(0.6, -0.9)), qb = Vector(Eigen::Vector2d(-0.2, 1.3));
  const Matrix Gbar = discrete_gradient_of(*rod, qa, qb);
  CHECK(Gbar == jacobian_of(*rod, Vector(0.5 * (qa + qb))));
  CHECK(std::abs((Gbar * (qb - qa))(0) - (value_of(*rod, qb) - value_of(*rod, qa))(0)) <= 1e-15);
  Matrix K = Matrix::Zero(2, 2);
  rod->add_discrete_gradient_contraction_jacobian(qa, qb, Vector::Constant(1, 3.0), 1.0, K);
  CHECK(K == Matrix(1.5 * Matrix::Identity(2, 2)));  // d/dq_b (G(q_mid)^T lambda) = lambda I / 2

  // A linear constraint needs no Hessian contraction, and none is asked for.
  ConstraintFunction f;
  f.nonlinearity = Nonlinearity::linear;
  f.value = [](ConstVectorRef q) { return Vector::Constant(1, q(0) - 2.0 * q(1)); };
  f.jacobian = [](ConstVectorRef) { return Matrix{{1.0, -2.0}}; };
  const FunctionConstraint linear("slider", kOneBlock, 2, f);
  Matrix untouched = Matrix::Constant(2, 2, 5.0);
  linear.add_hessian_contraction(qa, Vector::Ones(1), 1.0, untouched);
  linear.add_discrete_gradient_contraction_jacobian(qa, qb, Vector::Ones(1), 1.0, untouched);
  CHECK(untouched == Matrix::Constant(2, 2, 5.0));
  CHECK(discrete_gradient_of(linear, qa, qb) == Matrix{{1.0, -2.0}});
}

TEST_CASE("ConstantInertia: T, dT/dz and D^2 T over z = (q, v), with a singular mass matrix") {
  const Matrix M{{1.0, 0.0, 0.0}, {0.0, 2.0, 2.0}, {0.0, 2.0, 2.0}};  // singular, as in [KinonBetsch2023, Table 1]
  const ConstantInertia inertia("masses", kOneBlock, M);
  CHECK(inertia.has_constant_mass());
  Matrix stated = Matrix::Zero(3, 3);  // the exact form the element states
  inertia.constant_mass()->add_to(1.0, stated);
  CHECK(stated == M);
  CHECK(inertia.local_size() == 3);
  const Vector z = testing::random_vector(6, 70, 1.0);
  check_inertia_derivatives(inertia, z);
  Matrix H = Matrix::Zero(6, 6);
  inertia.add_kinetic_hessian(z.head(3), z.tail(3), 1.0, H);
  CHECK(H.topRows(3).isZero());  // T does not depend on q
  CHECK(kinetic_gradient_of(inertia, z).head(3).isZero());
}

TEST_CASE("ConfigurationInertia: dT/dz and D^2 T vs finite differences (two-link arm, spring pendulum)") {
  const auto arm = two_link_arm_inertia();
  CHECK_FALSE(arm->has_constant_mass());
  for (unsigned seed = 0; seed < 5; ++seed) {
    CAPTURE(seed);
    check_inertia_derivatives(*arm, testing::random_vector(4, 80 + seed, 1.5));
  }
  const auto pendulum = spring_pendulum_inertia();
  for (unsigned seed = 0; seed < 5; ++seed) {
    CAPTURE(seed);
    Vector z = testing::random_vector(6, 90 + seed, 1.0);
    z(0) += 1.5;  // r > 0
    check_inertia_derivatives(*pendulum, z);
  }
}

TEST_CASE("ConstantDamping: f = C v accumulates with s, no q-dependence") {
  const Matrix C{{2.0, -0.5}, {-0.5, 1.0}};
  const ConstantDamping damping("damper", kOneBlock, C);
  CHECK(damping.has_constant_damping());
  CHECK(damping.local_size() == 2);
  const Vector q = Vector(Eigen::Vector2d(0.3, 0.1)), v = Vector(Eigen::Vector2d(1.0, -2.0));
  Vector f = Vector::Ones(2);
  damping.add_damping_force(q, v, -3.0, f);
  CHECK(f == Vector(Vector::Ones(2) - 3.0 * (C * v)));
  Matrix D = Matrix::Zero(2, 2);
  damping.add_damping_matrix(q, 0.5, D);
  CHECK(D == Matrix(0.5 * C));
  Matrix K = Matrix::Constant(2, 2, 7.0);
  damping.add_damping_force_q_jacobian(q, v, 1.0, K);
  CHECK(K == Matrix::Constant(2, 2, 7.0));
}

TEST_CASE("generic elements refuse bad definitions with their name in the message") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(ConstantInertia("m", kOneBlock, Matrix::Zero(2, 3)), doctest::Contains("inertia 'm'"),
                       std::invalid_argument);
  CHECK_THROWS_AS(ConstantInertia("m", kOneBlock, Matrix(0, 0)), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ConstantInertia("m", kOneBlock, Matrix{{1.0, 0.5}, {0.0, 1.0}}), doctest::Contains("symmetric"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ConstantInertia("m", kOneBlock, Matrix{{1.0, 0.0}, {0.0, -1.0}}),
                       doctest::Contains("negative eigenvalue -1"), std::invalid_argument);
  // Indefinite with a non-negative diagonal: eigenvalues 3 and -1.
  CHECK_THROWS_WITH_AS(ConstantInertia("m", kOneBlock, Matrix{{1.0, 2.0}, {2.0, 1.0}}),
                       doctest::Contains("negative eigenvalue -1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ConstantInertia("m", kOneBlock, Matrix{{nan, 0.0}, {0.0, 1.0}}), doctest::Contains("non-finite"),
                       std::invalid_argument);
  CHECK_NOTHROW(ConstantInertia("m", kOneBlock, Matrix::Zero(2, 2)));  // singular is allowed

  MassFunction incomplete;
  incomplete.mass = [](ConstVectorRef) { return Matrix(Matrix::Identity(1, 1)); };
  CHECK_THROWS_WITH_AS(ConfigurationInertia("arm", kOneBlock, 1, incomplete), doctest::Contains("inertia 'arm'"),
                       std::invalid_argument);
  CHECK_THROWS_AS(ConfigurationInertia("arm", kOneBlock, 0, MassFunction{}), std::invalid_argument);

  CHECK_THROWS_WITH_AS(FunctionPotential("spring", kOneBlock, 1, PotentialFunction{}), doctest::Contains("potential 'spring'"),
                       std::invalid_argument);

  ConstraintFunction g;
  g.value = [](ConstVectorRef q) { return Vector(q.head(1)); };
  g.jacobian = [](ConstVectorRef) { return Matrix{{1.0}}; };
  CHECK_THROWS_WITH_AS(FunctionConstraint("pin", kOneBlock, 1, g), doctest::Contains("constraint 'pin': a nonlinear"),
                       std::invalid_argument);
  g.nonlinearity = Nonlinearity::linear;
  CHECK_NOTHROW(FunctionConstraint("pin", kOneBlock, 1, g));
  g.num_equations = 0;
  CHECK_THROWS_WITH_AS(FunctionConstraint("pin", kOneBlock, 1, g), doctest::Contains("num_equations must be positive"),
                       std::invalid_argument);
  g.num_equations = 1;
  g.jacobian = nullptr;
  CHECK_THROWS_WITH_AS(FunctionConstraint("pin", kOneBlock, 1, g), doctest::Contains("give g and its Jacobian"),
                       std::invalid_argument);

  CHECK_THROWS_WITH_AS(ConstantDamping("d", kOneBlock, Matrix::Zero(1, 2)), doctest::Contains("damping 'd'"),
                       std::invalid_argument);
  CHECK_THROWS_AS(ConstantDamping("d", kOneBlock, Matrix{{1.0, 0.2}, {0.0, 1.0}}), std::invalid_argument);
  CHECK_THROWS_AS(ConstantDamping("d", kOneBlock, Matrix{{nan}}), std::invalid_argument);

  CHECK_THROWS_WITH_AS(ConstantInertia("", kOneBlock, Matrix::Identity(1, 1)), doctest::Contains("non-empty name"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ConstantInertia("lonely", {}, Matrix::Identity(1, 1)),
                       doctest::Contains("element 'lonely' touches no coordinate block"), std::invalid_argument);
}

TEST_CASE("ConstantInertia refuses a subnormal entry of M, naming the element, the entry and the value, and accepts 0") {
  CHECK_THROWS_WITH_AS(ConstantInertia("masses", kOneBlock, Matrix{{1.0, 0.0}, {0.0, 1e-320}}),
                       "inertia 'masses': the mass matrix entry (1, 1) must be a normal number, at least "
                       "2.2250738585072014e-308 (or 0), got 1e-320 (a subnormal value keeps too few digits for the "
                       "equations)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(ConstantInertia("masses", kOneBlock, Matrix{{1.0, -1e-320}, {-1e-320, 1.0}}),
                       doctest::Contains("entry (1, 0) must be a normal number, at least 2.2250738585072014e-308 in "
                                         "magnitude (or 0), got -1e-320"),
                       std::invalid_argument);
  // A singular M (livens-em takes it) and the smallest normal entries are accepted.
  CHECK(ConstantInertia("masses", kOneBlock, Matrix{{1.0, 0.0}, {0.0, 0.0}}).local_size() == 2);
  const double smallest = std::numeric_limits<double>::min();
  CHECK(ConstantInertia("masses", kOneBlock, Matrix{{smallest, 0.0}, {0.0, smallest}}).local_size() == 2);
}

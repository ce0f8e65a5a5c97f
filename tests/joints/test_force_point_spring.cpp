#include <doctest/doctest.h>

#include <cmath>

#include "support/force_checks.hpp"
#include <noether/joints/function_potential.hpp>
#include <noether/joints/point_spring.hpp>

using namespace noether;
using namespace noether::testing;

namespace {

const BodyRef point_a{BlockId{0}, BodyKinematics(BodyKind::point_mass3d), "a"};
const BodyRef point_b{BlockId{1}, BodyKinematics(BodyKind::point_mass3d), "b"};
const BodyRef rod_a{BlockId{0}, BodyKinematics(BodyKind::director3d), "rod a"};
const BodyRef bar_b{BlockId{1}, BodyKinematics(BodyKind::planar_director), "bar b"};
const BodyRef body_b{BlockId{1}, BodyKinematics(BodyKind::director3d), "body b"};

/// w(L) = k/4 (L - L0)^2 + c (L - L0)^4 as a user energy of the length.
ScalarJet quartic_energy_of_length(double L) {
  const double k = 3.0, c = 5.0, L0 = 0.8, e = L - L0;
  return {0.25 * k * e * e + c * e * e * e * e, 0.5 * k * e + 4 * c * e * e * e, 0.5 * k + 12 * c * e * e};
}

/// Two configurations of two 3D point masses about 1 apart.
Vector two_points(unsigned seed) {
  Vector q = random_vector(6, seed, 0.3);
  q.tail(3) += Eigen::Vector3d(1.0, 0.2, -0.1);
  return q;
}

}  // namespace

TEST_CASE("spring laws: W(pi) and its derivatives against central differences") {
  for (const auto& [label, law] :
       {std::pair{std::string("linear"), linear_spring_law(7.0, 0.9)},
        std::pair{std::string("linear, zero rest length"), linear_spring_law(7.0, 0.0)},
        std::pair{std::string("Green strain"), green_strain_spring_law(300.0, 1.0)},
        std::pair{std::string("of length"), spring_law_of_length(quartic_energy_of_length)}}) {
    const std::string& law_name = label;  // CAPTURE's lambda cannot capture a structured binding in clang 14
    CAPTURE(law_name);
    const double pi = 1.3, step = 1e-6;
    const ScalarJet jet = law(pi), plus = law(pi + step), minus = law(pi - step);
    CHECK(jet.first == doctest::Approx((plus.value - minus.value) / (2 * step)).epsilon(1e-8));
    CHECK(jet.second == doctest::Approx((plus.first - minus.first) / (2 * step)).epsilon(1e-7));
  }
  const double L = 1.2;
  CHECK(linear_spring_law(7.0, 0.9)(L * L).value == doctest::Approx(0.5 * 7.0 * 0.3 * 0.3).epsilon(1e-14));
  CHECK(spring_law_of_length(quartic_energy_of_length)(L * L).value ==
        doctest::Approx(quartic_energy_of_length(L).value).epsilon(1e-15));
  CHECK_THROWS_AS(linear_spring_law(-1.0, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(green_strain_spring_law(1.0, 0.0), std::invalid_argument);
}

TEST_CASE("point spring between point masses: derivatives, discrete gradient identity and its Jacobian") {
  for (const auto& [label, law] :
       {std::pair{std::string("linear"), linear_spring_law(40.0, 0.7)},
        std::pair{std::string("Green strain"), green_strain_spring_law(300.0, 1.0)},
        std::pair{std::string("of length"), spring_law_of_length(quartic_energy_of_length)}}) {
    const std::string& law_name = label;  // CAPTURE's lambda cannot capture a structured binding in clang 14
    CAPTURE(law_name);
    const PointSpring spring("spring", ForcePointPair(point_a, Vector::Zero(3), point_b, Vector::Zero(3)), law);
    CHECK(spring.local_size() == 6);
    const Vector q_a = two_points(1), q_b = two_points(2);
    CHECK(spring.squared_length(q_a) == doctest::Approx((q_a.head(3) - q_a.tail(3)).squaredNorm()));
    check_potential_derivatives(spring, q_a);
    check_discrete_gradient(spring, q_a, q_b);
  }
}

TEST_CASE("point spring on director bodies and to the ground: derivatives and discrete gradient") {
  SUBCASE("3D director body to 3D director body") {
    const PointSpring spring("s",
                             ForcePointPair(rod_a, Eigen::Vector3d(0.5, 0.1, 0), body_b, Eigen::Vector3d(-0.3, 0, 0.2)),
                             green_strain_spring_law(50.0, 0.5));
    check_potential_derivatives(spring, random_vector(24, 3));
    check_discrete_gradient(spring, random_vector(24, 3), random_vector(24, 4));
  }
  SUBCASE("planar director to the ground") {
    const PointSpring spring("s", ForcePointPair(bar_b, Eigen::Vector2d(0.5, 0), Eigen::Vector2d(2.0, 1.0)),
                             linear_spring_law(10.0, 0.5));
    CHECK(spring.local_size() == 6);
    check_potential_derivatives(spring, random_vector(6, 5));
    check_discrete_gradient(spring, random_vector(6, 5), random_vector(6, 6));
  }
}

TEST_CASE("point spring discrete gradient stays consistent when the squared lengths nearly meet") {
  const PointSpring spring("spring", ForcePointPair(point_a, Vector::Zero(3), point_b, Vector::Zero(3)),
                           linear_spring_law(40.0, 0.7));
  const Vector q_a = two_points(1);
  for (double size : {1e-3, 1e-6, 1e-9, 1e-13}) {  // quotient branch, then Taylor branch
    const Vector q_b = q_a + size * random_vector(6, 9);
    const Vector q_mid = 0.5 * (q_a + q_b);
    CAPTURE(size);
    check_discrete_gradient_identity(spring, q_a, q_b);
    // Dbar V = DV(q_mid) + O(|q_b - q_a|^2), d/dq_b Dbar V = 1/2 D^2 V(q_mid) + O(|q_b - q_a|).
    CHECK(relative_difference(discrete_gradient_of(spring, q_a, q_b), gradient_of(spring, q_mid)) <
          100 * size * size + 1e-13);
    CHECK(relative_difference(discrete_gradient_jacobian_of(spring, q_a, q_b), 0.5 * hessian_of(spring, q_mid)) <
          100 * size + 1e-9);
  }
}

TEST_CASE("invariant discrete gradient conserves linear and angular momentum, Cartesian Gonzalez does not") {
  const PointSpring spring("spring", ForcePointPair(point_a, Vector::Zero(3), point_b, Vector::Zero(3)),
                           green_strain_spring_law(300.0, 1.0));
  const Vector q_a = two_points(11), q_b = two_points(12);
  const Vector q_mid = 0.5 * (q_a + q_b);
  const std::vector<BodyKind> kinds{BodyKind::point_mass3d, BodyKind::point_mass3d};

  const Vector invariant = discrete_gradient_of(spring, q_a, q_b);
  const NetLoad invariant_net = net_load(kinds, q_mid, invariant);
  const double scale = invariant.norm();
  MESSAGE("invariant form: |sum F| ", invariant_net.force.norm(), ", |sum x_mid x F| ", invariant_net.moment.norm(),
          " (force scale ", scale, ")");
  CHECK(invariant_net.force.norm() <= 1e-14 * scale);
  CHECK(invariant_net.moment.norm() <= 1e-14 * scale);

  // The same V through the engine's default discrete gradient (Gonzalez in the Cartesian coordinates).
  const FunctionPotential cartesian(
      "cartesian spring", {BlockId{0}, BlockId{1}}, 6,
      {[&](ConstVectorRef q) { return spring.energy(q); }, [&](ConstVectorRef q) { return gradient_of(spring, q); },
       [&](ConstVectorRef q) { return hessian_of(spring, q); }, Nonlinearity::general});
  const Vector gonzalez = discrete_gradient_of(cartesian, q_a, q_b);
  const NetLoad gonzalez_net = net_load(kinds, q_mid, gonzalez);
  MESSAGE("Cartesian Gonzalez: |sum F| ", gonzalez_net.force.norm(), ", |sum x_mid x F| ", gonzalez_net.moment.norm());
  CHECK(std::abs(gonzalez.dot(q_b - q_a) - (spring.energy(q_b) - spring.energy(q_a))) < 1e-12 * scale);
  CHECK(gonzalez_net.moment.norm() > 1e-3 * scale);
}

TEST_CASE("invariant discrete gradient conserves momentum between director bodies (DiscreteDerivativesEM eq. 13-14)") {
  const PointSpring spring("s",
                           ForcePointPair(rod_a, Eigen::Vector3d(0.5, 0.1, 0), body_b, Eigen::Vector3d(-0.3, 0, 0.2)),
                           linear_spring_law(50.0, 0.5));
  const Vector q_a = random_vector(24, 21), q_b = random_vector(24, 22);
  const Vector f = discrete_gradient_of(spring, q_a, q_b);
  const NetLoad net = net_load({BodyKind::director3d, BodyKind::director3d}, 0.5 * (q_a + q_b), f);
  MESSAGE("|sum F| ", net.force.norm(), ", |sum q_mid x F| ", net.moment.norm(), " (force scale ", f.norm(), ")");
  CHECK(net.force.norm() <= 1e-14 * f.norm());
  CHECK(net.moment.norm() <= 1e-14 * f.norm());
}

TEST_CASE("point pair rejects mismatched bodies") {
  const BodyRef planar{BlockId{1}, BodyKinematics(BodyKind::planar_director), "bar"};
  CHECK_THROWS_AS(ForcePointPair(point_a, Vector::Zero(3), planar, Vector::Zero(2)), std::invalid_argument);
  CHECK_THROWS_AS(ForcePointPair(point_a, Vector::Zero(3), point_a, Vector::Zero(3)), std::invalid_argument);
  CHECK_THROWS_AS(ForcePointPair(point_a, Vector::Zero(3), Vector::Zero(2)), std::invalid_argument);
  CHECK_THROWS_AS(ForcePointPair(point_a, Vector::Ones(3), Vector::Zero(3)), std::invalid_argument);
}

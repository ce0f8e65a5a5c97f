#include <doctest/doctest.h>

#include "support/force_checks.hpp"
#include <noether/joints/point_damper.hpp>

using namespace noether;
using namespace noether::testing;

namespace {

const BodyRef bar{BlockId{0}, BodyKinematics(BodyKind::planar_director), "B4"};
const BodyRef rod_a{BlockId{0}, BodyKinematics(BodyKind::director3d), "rod a"};
const BodyRef body_b{BlockId{1}, BodyKinematics(BodyKind::director3d), "body b"};

}  // namespace

TEST_CASE("KinonBetschSchneider2023 four-bar damper: C = eta J^T J from G = 1/2 eta |v_rel|^2 (eq. 77-80)") {
  // P1 = (0, 0) on the ground against x = phi4 + l/2 d1^(4), the point P5 on bar B4 (eq. 78a).
  const double eta = 0.5, l = 1.0;
  const PointDamper damper("P1-P5", ForcePointPair(bar, Eigen::Vector2d(l / 2, 0.0), Eigen::Vector2d::Zero()), eta);
  CHECK(damper.has_constant_damping());
  const Matrix I = Matrix::Identity(2, 2), O = Matrix::Zero(2, 2);
  Matrix expected(6, 6);
  expected << I, l / 2 * I, O, l / 2 * I, l * l / 4 * I, O, O, O, O;
  const Vector q = random_vector(6, 1);
  CHECK(relative_difference(damping_matrix_of(damper, q), eta * expected) < 1e-15);
  const Vector v = random_vector(6, 2);
  const Vector v_rel = v.head(2) + l / 2 * v.segment(2, 2);
  CHECK(v.dot(damping_force_of(damper, q, v)) == doctest::Approx(eta * v_rel.squaredNorm()).epsilon(1e-14));
  check_damping(damper, q, v);
}

TEST_CASE("axial point damper: C(q) = eta J^T e e^T J, its q-derivative, power and momentum") {
  const ForcePointPair points(rod_a, Eigen::Vector3d(0.5, 0.1, 0.0), body_b, Eigen::Vector3d(-0.3, 0.0, 0.2));
  const AxialPointDamper damper("dashpot", points, 0.8);
  CHECK_FALSE(damper.has_constant_damping());
  const Vector q = random_vector(24, 3), v = random_vector(24, 4);
  check_damping(damper, q, v);
  const Vector r = points.separation(q), v_rel = points.jacobian() * v;
  const double elongation_rate = r.normalized().dot(v_rel);
  CHECK(v.dot(damping_force_of(damper, q, v)) ==
        doctest::Approx(0.8 * elongation_rate * elongation_rate).epsilon(1e-13));
  const Vector f = damping_force_of(damper, q, v);
  const NetLoad net = net_load({BodyKind::director3d, BodyKind::director3d}, q, f);
  CHECK(net.force.norm() <= 1e-14 * f.norm());
  CHECK(net.moment.norm() <= 1e-14 * f.norm());
  CHECK_THROWS_AS(AxialPointDamper("bad", points, -1.0), std::invalid_argument);
  CHECK_THROWS_WITH_AS(AxialPointDamper("tiny", points, -1e-9),
                       "damper 'tiny': damping constant -1e-09 must be finite and non-negative", std::invalid_argument);
}

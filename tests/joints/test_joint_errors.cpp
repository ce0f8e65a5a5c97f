/// Bad input to the joint factories: each throws std::invalid_argument naming the joint.
#include <limits>

#include <noether/joints/joint_library.hpp>
#include "support/joint_checks.hpp"

using namespace noether;
using namespace noether::joint_testing;

namespace {

const BodyRef A = body(0, BodyKind::director3d, "A"), B = body(1, BodyKind::director3d, "B");
const BodyRef P = body(2, BodyKind::planar_director, "P"), Q = body(3, BodyKind::planar_director, "Q");
const BodyRef m3 = body(4, BodyKind::point_mass3d, "m3"), m2 = body(5, BodyKind::point_mass2d, "m2");
const Vector X = vec({0.1, 0.2, 0.3}), axis = vec({0, 0, 1}), zero3 = Vector::Zero(3);
const Vector Y = vec({0.1, 0.2}), axis2 = vec({1, 0}), zero2 = Vector::Zero(2);

}  // namespace

TEST_CASE("joint factories reject zero or non-finite axes, naming the joint") {
  CHECK_THROWS_WITH_AS(make_revolute("hinge", A, X, zero3, B, X, axis), doctest::Contains("revolute joint 'hinge': axis_a"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_universal_to_ground("cardan", X, axis, B, X, zero3),
                       doctest::Contains("universal joint 'cardan': axis_b must be a finite, nonzero direction"),
                       std::invalid_argument);
  const Vector not_finite = vec({std::numeric_limits<double>::quiet_NaN(), 0, 1});
  CHECK_THROWS_WITH_AS(make_cylindrical("sleeve", A, X, not_finite, B, X, axis), doctest::Contains("cylindrical joint 'sleeve'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_prismatic_planar("slider", P, Y, zero2, Q, Y, axis2), doctest::Contains("planar prismatic joint 'slider'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_fixed_planar_to_ground("weld", Y, axis2, Q, Y, zero2), doctest::Contains("planar fixed joint 'weld'"),
                       std::invalid_argument);
}

TEST_CASE("an axis of any finite nonzero length is its direction, where its squared length overflows or underflows too") {
  // A scene's axis (0, 1e300, 0) or (0, 1e-300, 0) was refused as "must be a nonzero direction":
  // |N|^2 is inf or 0 there. Normalized from N / max|N_i|, each is the y axis, to the bit.
  const Vector y = vec({0, 1, 0});
  const std::shared_ptr<Constraint> unit = make_revolute("hinge", A, X, y, B, X, y);
  const Vector q = Vector::LinSpaced(unit->local_size(), -1.0, 2.0);
  for (const double length : {1e300, 1e-300, 1e-20, 0.5}) {
    CAPTURE(length);
    const std::shared_ptr<Constraint> scaled = make_revolute("hinge", A, X, length * y, B, X, length * y);
    CHECK(value_of(*scaled, q) == value_of(*unit, q));
    CHECK(jacobian_of(*scaled, q) == jacobian_of(*unit, q));
  }
  const Vector diagonal = vec({1, 1, 0});
  const std::shared_ptr<Constraint> huge_and_tiny = make_revolute("hinge", A, X, 1e300 * diagonal, B, X, 1e-300 * diagonal);
  CHECK(value_of(*huge_and_tiny, q) == value_of(*make_revolute("hinge", A, X, diagonal, B, X, diagonal), q));
}

TEST_CASE("joint frames reject a normal along the axis") {
  const JointFrame good{X, axis, vec({1, 0, 0})}, bad{X, axis, vec({0, 0, -2})};
  CHECK_THROWS_WITH_AS(make_prismatic("rail", A, good, B, bad), doctest::Contains("prismatic joint 'rail': the frame_b normal"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_fixed_to_ground("weld", bad, B, good), doctest::Contains("fixed joint 'weld'"), std::invalid_argument);
}

TEST_CASE("joint factories reject bodies of the wrong dimension") {
  CHECK_THROWS_WITH_AS(make_revolute("hinge", A, X, axis, P, Y, axis2),
                       doctest::Contains("revolute joint 'hinge': body 'P' is 2D, but a revolute joint needs 3D bodies"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_revolute_planar("pin", P, Y, B, X), doctest::Contains("planar revolute joint 'pin': body 'B' is 3D"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_spherical_to_ground("ball", X, P, Y), doctest::Contains("spherical joint 'ball': body 'P' is 2D"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_distance("rod", P, Y, B, X, 1.0), doctest::Contains("distance joint 'rod': body 'P' is 2D"),
                       std::invalid_argument);
}

TEST_CASE("joint factories reject attachment data of the wrong size") {
  CHECK_THROWS_WITH_AS(make_spherical("ball", A, Y, B, X), doctest::Contains("spherical joint 'ball': the attachment point on body 'A' needs 3"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_revolute_planar_to_ground("pin", X, Q, Y), doctest::Contains("planar revolute joint 'pin': the ground point needs 2"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_revolute("hinge", A, X, axis2, B, X, axis), doctest::Contains("revolute joint 'hinge': axis_a needs 3"),
                       std::invalid_argument);
}

TEST_CASE("joints that need orientation reject point masses, and point masses attach at X = 0") {
  CHECK_THROWS_WITH_AS(make_revolute("hinge", A, X, axis, m3, zero3, axis),
                       doctest::Contains("revolute joint 'hinge': body 'm3' is a point mass"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_fixed_planar_to_ground("weld", Y, axis2, m2, zero2, axis2),
                       doctest::Contains("planar fixed joint 'weld': body 'm2' is a point mass"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_universal("cardan", m3, zero3, axis, B, X, axis), doctest::Contains("body 'm3' is a point mass"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_spherical("ball", A, X, m3, X), doctest::Contains("spherical joint 'ball': body 'm3' is a point mass; attach it at X = 0"),
                       std::invalid_argument);
  CHECK_NOTHROW(make_spherical("ball", A, X, m3, zero3));
}

TEST_CASE("joints reject a body joined to itself and a non-positive distance") {
  CHECK_THROWS_WITH_AS(make_spherical("ball", A, X, A, zero3), doctest::Contains("spherical joint 'ball': connects body 'A' to itself"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_distance("rod", A, X, B, X, 0.0), doctest::Contains("distance joint 'rod': the length must be positive"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(make_distance_to_ground("rod", X, B, X, -1.0), doctest::Contains("distance joint 'rod'"), std::invalid_argument);
}

TEST_CASE("QuadraticJoint rejects equations of unequal sizes and non-symmetric Hessians") {
  const QuadraticEquation good{0.0, Vector::Ones(3), Matrix::Zero(3, 3)};
  const QuadraticEquation short_one{0.0, Vector::Ones(2), Matrix::Zero(2, 2)};
  Matrix skew = Matrix::Zero(3, 3);
  skew(0, 1) = 1.0;
  const QuadraticEquation unsymmetric{0.0, Vector::Ones(3), skew};
  CHECK_THROWS_WITH_AS(QuadraticJoint("q", {BlockId{0}}, {good, short_one}), doctest::Contains("joint 'q': equation 1"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(QuadraticJoint("q", {BlockId{0}}, {good, unsymmetric}), doctest::Contains("not symmetric"),
                       std::invalid_argument);
  CHECK_THROWS_AS(QuadraticJoint("q", {BlockId{0}}, {}), std::invalid_argument);
  CHECK(QuadraticJoint("q", {BlockId{0}}, {good}).nonlinearity() == Nonlinearity::linear);
}

/// Derivative checks of every joint of the library and every ground variant (see check_derivatives).
#include <algorithm>

#include <noether/joints/joint_library.hpp>
#include "support/joint_checks.hpp"

using namespace noether;
using namespace noether::joint_testing;

namespace {

struct Case {
  std::shared_ptr<Constraint> joint;
  Nonlinearity nonlinearity;
};

/// Every joint family with generic attachment data (random points, skew axes), body to body and
/// body to ground, plus point-mass variants where the family allows them.
std::vector<Case> all_joints() {
  const BodyRef a = body(0, BodyKind::director3d, "A"), b = body(1, BodyKind::director3d, "B");
  const BodyRef pa = body(2, BodyKind::planar_director, "PA"), pb = body(3, BodyKind::planar_director, "PB");
  const BodyRef m3 = body(4, BodyKind::point_mass3d, "m3"), m2 = body(5, BodyKind::point_mass2d, "m2");
  const Vector X_a = vec({0.3, -0.7, 0.2}), X_b = vec({-0.5, 0.1, 0.9}), x_0 = vec({1.0, 2.0, -0.5});
  const Vector u = vec({0.2, 1.0, -0.4}), w = vec({-0.6, 0.3, 0.8});
  const JointFrame f_a{X_a, u, w}, f_b{X_b, w, vec({1.0, 0.0, 0.0})}, f_0{x_0, vec({0.0, 0.0, 1.0}), u};
  const Vector Y_a = vec({0.4, -0.3}), Y_b = vec({-0.6, 0.2}), y_0 = vec({1.5, -0.5});
  const Vector s = vec({0.8, 0.6}), t = vec({-0.3, 1.0});
  const Vector zero3 = Vector::Zero(3), zero2 = Vector::Zero(2);
  const auto linear = Nonlinearity::linear, quadratic = Nonlinearity::quadratic;
  return {
      {make_spherical("spherical", a, X_a, b, X_b), linear},
      {make_spherical_to_ground("spherical-ground", x_0, b, X_b), linear},
      {make_spherical("spherical-point-mass", a, X_a, m3, zero3), linear},
      {make_revolute("revolute", a, X_a, u, b, X_b, w), quadratic},
      {make_revolute_to_ground("revolute-ground", x_0, u, b, X_b, w), linear},
      {make_universal("universal", a, X_a, u, b, X_b, w), quadratic},
      {make_universal_to_ground("universal-ground", x_0, u, b, X_b, w), linear},
      {make_perpendicular("perpendicular", a, u, b, w), quadratic},
      {make_perpendicular_to_ground("perpendicular-ground", u, b, w), linear},
      {make_perpendicular("perpendicular-planar", pa, s, pb, t), quadratic},
      {make_cylindrical("cylindrical", a, X_a, u, b, X_b, w), quadratic},
      {make_cylindrical_to_ground("cylindrical-ground", x_0, u, b, X_b, w), linear},
      {make_prismatic("prismatic", a, f_a, b, f_b), quadratic},
      {make_prismatic_to_ground("prismatic-ground", f_0, b, f_b), linear},
      {make_fixed("fixed", a, f_a, b, f_b), quadratic},
      {make_fixed_to_ground("fixed-ground", f_0, b, f_b), linear},
      {make_distance("distance", a, X_a, b, X_b, 1.7), quadratic},
      {make_distance_to_ground("distance-ground", x_0, b, X_b, 1.7), quadratic},
      {make_distance("distance-point-masses", m3, zero3, b, X_b, 0.9), quadratic},
      {make_distance_to_ground("distance-planar-ground", y_0, m2, zero2, 0.9), quadratic},
      {make_revolute_planar("revolute-planar", pa, Y_a, pb, Y_b), linear},
      {make_revolute_planar_to_ground("revolute-planar-ground", y_0, pb, Y_b), linear},
      {make_revolute_planar_to_ground("revolute-planar-point-mass", y_0, m2, zero2), linear},
      {make_prismatic_planar("prismatic-planar", pa, Y_a, s, pb, Y_b, t), quadratic},
      {make_prismatic_planar_to_ground("prismatic-planar-ground", y_0, s, pb, Y_b, t), linear},
      {make_fixed_planar("fixed-planar", pa, Y_a, s, pb, Y_b, t), quadratic},
      {make_fixed_planar_to_ground("fixed-planar-ground", y_0, s, pb, Y_b, t), linear},
  };
}

}  // namespace

TEST_CASE("every joint: Jacobian, Hessian contraction and discrete gradient against finite differences") {
  unsigned seed = 100;
  DerivativeErrors worst;
  for (const Case& c : all_joints()) {
    CAPTURE(c.joint->name());
    const DerivativeErrors e = check_derivatives(*c.joint, c.nonlinearity, seed);
    worst = {std::max(worst.jacobian, e.jacobian), std::max(worst.hessian, e.hessian),
             std::max(worst.identity, e.identity), std::max(worst.identity_jacobian, e.identity_jacobian)};
    seed += 10;
  }
  MESSAGE("worst relative errors over ", all_joints().size(), " joints: Jacobian ", worst.jacobian, ", Hessian ",
          worst.hessian, ", discrete gradient identity ", worst.identity, ", its Jacobian ", worst.identity_jacobian);
}

TEST_CASE("joints report their sizes and blocks") {
  const BodyRef a = body(7, BodyKind::director3d, "A"), b = body(3, BodyKind::director3d, "B");
  const auto revolute = make_revolute("hinge", a, Vector::Zero(3), vec({0, 0, 1}), b, vec({1, 0, 0}), vec({0, 0, 1}));
  CHECK(revolute->name() == "hinge");
  CHECK(revolute->num_equations() == 5);
  CHECK(revolute->local_size() == 24);
  REQUIRE(revolute->blocks().size() == 2);
  CHECK(revolute->blocks()[0] == BlockId{7});
  CHECK(revolute->blocks()[1] == BlockId{3});
  const auto ground = make_revolute_to_ground("pivot", Vector::Zero(3), vec({0, 0, 1}), b, vec({1, 0, 0}), vec({0, 0, 1}));
  CHECK(ground->local_size() == 12);
  REQUIRE(ground->blocks().size() == 1);
  CHECK(ground->blocks()[0] == BlockId{3});
}

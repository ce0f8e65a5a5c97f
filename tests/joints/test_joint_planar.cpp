/// Invariants of the planar joints (and the planar distance joint), body to body and body to
/// ground: allowed motions keep g = 0, forbidden ones do not, and the DOF count (check_invariants).
#include <cmath>

#include <noether/joints/joint_library.hpp>
#include "support/joint_checks.hpp"

using namespace noether;
using namespace noether::joint_testing;

namespace {

const BodyRef A = body(0, BodyKind::planar_director, "A");
const BodyRef B = body(1, BodyKind::planar_director, "B");
const Vector Y_a = vec({0.4, -0.3}), Y_b = vec({-0.6, 0.2});
const Vector s = vec({0.8, 0.6}), t = vec({-0.3, 1.0});
const Vector e1 = vec({1, 0}), e2 = vec({0, 1});

Pose pose_of_a(bool to_ground) { return to_ground ? ground_pose(2) : Pose{vec({1.1, -0.4}), rotation2d(0.8)}; }
std::optional<BodyKinematics> kinematics_of_a(bool to_ground) {
  return to_ground ? std::nullopt : std::optional<BodyKinematics>(A.kinematics);
}
double angle_of(const Vector& v) { return std::atan2(v(1), v(0)); }
/// Orientation of B that turns its axis t onto the world image of A's axis s.
Matrix aligned_b(const Pose& pa) { return pa.R * rotation2d(angle_of(s) - angle_of(t)); }

}  // namespace

TEST_CASE("planar revolute joint: turns about the joint point, 1 relative DOF") {
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_revolute_planar_to_ground("revolute-planar-ground", Y_a, B, Y_b)
                                 : make_revolute_planar("revolute-planar", A, Y_a, B, Y_b);
    const Vector c = pa.point(Y_a);
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pose_placing(Y_b, c, rotation2d(-2.0))},
                     {planar_rotation_about("turn", c)},
                     {translation_along("shift e1", e1), translation_along("shift e2", e2),
                      planar_rotation_about("turn about another point", c + e1)},
                     1);
  }
}

TEST_CASE("planar revolute joint of a point mass to the ground: 0 relative DOF") {
  const BodyRef m = body(0, BodyKind::point_mass2d, "m");
  const auto joint = make_revolute_planar_to_ground("revolute-planar-point-mass", Y_a, m, Vector::Zero(2));
  check_invariants({*joint, std::nullopt, m.kinematics, ground_pose(2), {Y_a, Matrix::Identity(2, 2)}},
                   {planar_rotation_about("turn about the pivot", Y_a)}, {translation_along("shift", s)}, 0);
}

TEST_CASE("planar prismatic joint: slides along its axis only, 1 relative DOF, also turned half a turn") {
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_prismatic_planar_to_ground("prismatic-planar-ground", Y_a, s, B, Y_b, t)
                                 : make_prismatic_planar("prismatic-planar", A, Y_a, s, B, Y_b, t);
    const Vector axis = pa.direction(s.normalized()), on_line = pa.point(Y_a) + 0.6 * axis;
    const Pose pb = pose_placing(Y_b, on_line, aligned_b(pa));
    const std::vector<Motion> allowed{translation_along("slide", axis)};
    const std::vector<Motion> forbidden{planar_rotation_about("turn", on_line),
                                        translation_along("shift across", planar_normal(axis))};
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pb}, allowed, forbidden, 1);
    const Pose turned = pb.rotated(on_line, rotation2d(3.14159265358979323846));
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, turned}, allowed, forbidden, 1);
  }
}

TEST_CASE("planar fixed joint: no relative motion, 0 relative DOF") {
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_fixed_planar_to_ground("fixed-planar-ground", Y_a, s, B, Y_b, t)
                                 : make_fixed_planar("fixed-planar", A, Y_a, s, B, Y_b, t);
    const Vector c = pa.point(Y_a);
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pose_placing(Y_b, c, aligned_b(pa))}, {},
                     {planar_rotation_about("turn", c), translation_along("shift e1", e1), translation_along("shift e2", e2)},
                     0);
  }
}

TEST_CASE("planar distance joint: 2 relative DOF between bodies, 1 for a point mass on the ground") {
  const double length = 1.3;
  const Pose pa = pose_of_a(false);
  const auto joint = make_distance("distance-planar", A, Y_a, B, Y_b, length);
  const Vector c = pa.point(Y_a), x_b = c + length * s.normalized();
  check_invariants({*joint, A.kinematics, B.kinematics, pa, pose_placing(Y_b, x_b, rotation2d(0.3))},
                   {planar_rotation_about("swing", c), planar_rotation_about("turn about the point of B", x_b)},
                   {translation_along("stretch", s)}, 2);

  const BodyRef m = body(0, BodyKind::point_mass2d, "m");
  const auto pendulum = make_distance_to_ground("distance-planar-ground", Y_a, m, Vector::Zero(2), length);
  check_invariants({*pendulum, std::nullopt, m.kinematics, ground_pose(2), {x_b - c + Y_a, Matrix::Identity(2, 2)}},
                   {planar_rotation_about("swing", Y_a)}, {translation_along("stretch", s)}, 1);
}

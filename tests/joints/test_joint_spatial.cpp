/// Invariants of the 3D joints, body to body and body to ground: the motions a joint allows keep
/// g = 0, the ones it forbids do not, and stacked with the bodies' orthonormality constraints the
/// joint removes exactly the expected degrees of freedom (see check_invariants).
#include <noether/joints/joint_library.hpp>
#include "support/joint_checks.hpp"

using namespace noether;
using namespace noether::joint_testing;

namespace {

const BodyRef A = body(0, BodyKind::director3d, "A");
const BodyRef B = body(1, BodyKind::director3d, "B");
const Vector X_a = vec({0.3, -0.7, 0.2}), X_b = vec({-0.5, 0.1, 0.9});
const Vector u = vec({0.2, 1.0, -0.4}), w = vec({-0.6, 0.3, 0.8});
const Vector e1 = vec({1, 0, 0}), e2 = vec({0, 1, 0}), e3 = vec({0, 0, 1});

/// The pose of A for the two variants: a generic pose, or the world frame when A is the ground
/// (the ground's data is then the body data read in world coordinates).
Pose pose_of_a(bool to_ground) { return to_ground ? ground_pose(3) : Pose{vec({0.4, -1.2, 2.0}), random_rotation(5)}; }
std::optional<BodyKinematics> kinematics_of_a(bool to_ground) {
  return to_ground ? std::nullopt : std::optional<BodyKinematics>(A.kinematics);
}

/// Orientation of B that maps its frame F_b onto the world image of A's frame F_a turned by T:
/// R_B F_b = R_A F_a T.
Matrix orientation_b(const Pose& pa, const Matrix& F_a, const Matrix& T, const Matrix& F_b) {
  return pa.R * F_a * T * F_b.transpose();
}

}  // namespace

TEST_CASE("spherical joint: any rotation about the joint point, 3 relative DOF") {
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_spherical_to_ground("spherical-ground", X_a, B, X_b)
                                 : make_spherical("spherical", A, X_a, B, X_b);
    const Vector c = pa.point(X_a);
    const Pose pb = pose_placing(X_b, c, random_rotation(6));
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pb},
                     {rotation_about("about e1", c, e1), rotation_about("about e2", c, e2),
                      rotation_about("about (1,2,3)", c, vec({1, 2, 3}))},
                     {translation_along("shift e1", e1), translation_along("shift e3", e3),
                      rotation_about("about a point off the joint", c + e2, e1)},
                     3);
  }
}

TEST_CASE("spherical joint with a point mass: the mass sits at the joint point, 0 relative DOF") {
  const BodyRef m = body(1, BodyKind::point_mass3d, "m");
  const Pose pa = pose_of_a(false);
  const auto joint = make_spherical("spherical-point-mass", A, X_a, m, Vector::Zero(3));
  const Vector c = pa.point(X_a);
  check_invariants({*joint, A.kinematics, m.kinematics, pa, {c, Matrix::Identity(3, 3)}},
                   {rotation_about("about the joint point", c, u)}, {translation_along("shift", w)}, 0);
}

TEST_CASE("revolute joint: turns about its axis only, 1 relative DOF, also with flipped axes") {
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_revolute_to_ground("revolute-ground", X_a, u, B, X_b, w)
                                 : make_revolute("revolute", A, X_a, u, B, X_b, w);
    const Vector c = pa.point(X_a);
    const Matrix F_a = frame_from(u, e1);
    const Vector axis = pa.R * F_a.col(0), across = pa.R * F_a.col(1);
    const Pose pb = pose_placing(X_b, c, orientation_b(pa, F_a, rotation(e1, 0.7), frame_from(w, e2)));
    const std::vector<Motion> allowed{rotation_about("about the hinge axis", c, axis)};
    const std::vector<Motion> forbidden{rotation_about("tilt across the axis", c, across),
                                        rotation_about("tilt about the other normal", c, cross(axis, across)),
                                        translation_along("slide along the axis", axis),
                                        translation_along("shift across", across)};
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pb}, allowed, forbidden, 1);
    const Pose flipped = pb.rotated(c, rotation(across, 3.14159265358979323846));
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, flipped}, allowed, forbidden, 1);
  }
}

TEST_CASE("universal joint: turns about both pins, 2 relative DOF") {
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_universal_to_ground("universal-ground", X_a, u, B, X_b, w)
                                 : make_universal("universal", A, X_a, u, B, X_b, w);
    const Vector c = pa.point(X_a);
    const Matrix F_a = frame_from(u, e1), F_b = frame_from(w, e2);
    const Pose pb = pose_placing(X_b, c, orientation_b(pa, F_a, rotation(e3, 1.5707963267948966), F_b));
    const Vector pin_a = pa.R * F_a.col(0), pin_b = pb.R * F_b.col(0);
    const Motion both{"about pin B, then about pin A", [=](const Pose& p, double t) {
                        return p.rotated(c, rotation(pin_b, 1.7 * t)).rotated(c, rotation(pin_a, t));
                      }};
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pb},
                     {rotation_about("about pin A", c, pin_a), rotation_about("about pin B", c, pin_b), both},
                     {rotation_about("about the cross of the pins", c, cross(pin_a, pin_b)),
                      translation_along("shift along pin A", pin_a)},
                     2);
  }
}

TEST_CASE("perpendicular joint: any translation, rotations that keep the axes perpendicular, 5 relative DOF") {
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_perpendicular_to_ground("perpendicular-ground", u, B, w)
                                 : make_perpendicular("perpendicular", A, u, B, w);
    const Matrix F_a = frame_from(u, e1), F_b = frame_from(w, e2);
    const Pose pb = pose_placing(X_b, vec({0.5, 0.2, -0.3}), orientation_b(pa, F_a, rotation(e3, 1.5707963267948966), F_b));
    const Vector axis_a = pa.R * F_a.col(0), axis_b = pb.R * F_b.col(0), c = pb.point(X_b);
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pb},
                     {translation_along("shift", vec({1, -2, 0.5})), rotation_about("about axis A", c, axis_a),
                      rotation_about("about axis B", c, axis_b)},
                     {rotation_about("about the cross of the axes", c, cross(axis_a, axis_b))}, 5);
  }
}

TEST_CASE("cylindrical joint: slides along and turns about its axis, 2 relative DOF") {
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_cylindrical_to_ground("cylindrical-ground", X_a, u, B, X_b, w)
                                 : make_cylindrical("cylindrical", A, X_a, u, B, X_b, w);
    const Matrix F_a = frame_from(u, e1);
    const Vector axis = pa.R * F_a.col(0), across = pa.R * F_a.col(2);
    const Vector c = pa.point(X_a), on_line = c + 0.6 * axis;
    const Pose pb = pose_placing(X_b, on_line, orientation_b(pa, F_a, rotation(e1, -0.4), frame_from(w, e2)));
    const Motion screw{"screw", [=](const Pose& p, double t) { return p.rotated(c, rotation(axis, t)).translated(0.3 * t * axis); }};
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pb},
                     {rotation_about("about the axis line", c, axis), translation_along("along the axis", axis), screw},
                     {translation_along("shift across", across), rotation_about("tilt", on_line, across),
                      rotation_about("about a parallel line", c + across, axis)},
                     2);
  }
}

TEST_CASE("prismatic joint: slides along its axis only, 1 relative DOF") {
  const JointFrame f_a{X_a, u, w}, f_b{X_b, w, e1};
  const Matrix E_a = frame_from(u, w), E_b = frame_from(w, e1);
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_prismatic_to_ground("prismatic-ground", f_a, B, f_b)
                                 : make_prismatic("prismatic", A, f_a, B, f_b);
    const Vector axis = pa.R * E_a.col(0), normal = pa.R * E_a.col(1);
    const Vector on_line = pa.point(X_a) - 0.8 * axis;
    const Pose pb = pose_placing(X_b, on_line, orientation_b(pa, E_a, Matrix::Identity(3, 3), E_b));
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pb},
                     {translation_along("along the axis", axis)},
                     {rotation_about("about the axis", on_line, axis), rotation_about("about the normal", on_line, normal),
                      rotation_about("about the binormal", on_line, cross(axis, normal)),
                      translation_along("shift along the normal", normal)},
                     1);
  }
}

TEST_CASE("fixed joint: no relative motion, 0 relative DOF") {
  const JointFrame f_a{X_a, u, w}, f_b{X_b, w, e1};
  const Matrix E_a = frame_from(u, w), E_b = frame_from(w, e1);
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_fixed_to_ground("fixed-ground", f_a, B, f_b) : make_fixed("fixed", A, f_a, B, f_b);
    const Vector c = pa.point(X_a);
    const Pose pb = pose_placing(X_b, c, orientation_b(pa, E_a, Matrix::Identity(3, 3), E_b));
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pb}, {},
                     {rotation_about("about e1", c, pa.R * E_a.col(0)), rotation_about("about e2", c, pa.R * E_a.col(1)),
                      rotation_about("about e3", c, pa.R * E_a.col(2)), translation_along("shift", w)},
                     0);
  }
}

TEST_CASE("distance joint: the points keep their distance, 5 relative DOF") {
  const double length = 1.7;
  for (bool to_ground : {false, true}) {
    const Pose pa = pose_of_a(to_ground);
    const auto joint = to_ground ? make_distance_to_ground("distance-ground", X_a, B, X_b, length)
                                 : make_distance("distance", A, X_a, B, X_b, length);
    const Vector c = pa.point(X_a), rod = length * u.normalized(), x_b = c + rod;
    const Pose pb = pose_placing(X_b, x_b, random_rotation(8));
    check_invariants({*joint, kinematics_of_a(to_ground), B.kinematics, pa, pb},
                     {rotation_about("swing about the point of A", c, w), rotation_about("swing about e3", c, e3),
                      rotation_about("turn about the point of B", x_b, vec({0.3, -0.2, 1.0}))},
                     {translation_along("stretch", rod), rotation_about("swing about another point", c + w, e1)}, 5);
  }
}

TEST_CASE("distance joint between a point mass and a body: 5 relative DOF") {
  const BodyRef m = body(0, BodyKind::point_mass3d, "m");
  const auto joint = make_distance("distance-point-mass", m, Vector::Zero(3), B, X_b, 0.9);
  const Pose pm{vec({1.0, 0.5, -0.2}), Matrix::Identity(3, 3)};
  const Pose pb = pose_placing(X_b, pm.phi + 0.9 * w.normalized(), random_rotation(9));
  check_invariants({*joint, m.kinematics, B.kinematics, pm, pb}, {rotation_about("swing", pm.phi, e2)},
                   {translation_along("stretch", w)}, 5);
}

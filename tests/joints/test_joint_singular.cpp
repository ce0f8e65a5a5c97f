/// The singular configurations named in the joints' doc comments: there the joint Jacobian, stacked
/// with the bodies' orthonormality constraints, loses rank (the reference
/// configurations of the same joints have full rank: test_joint_spatial.cpp, test_joint_planar.cpp).
#include <noether/joints/joint_library.hpp>
#include "support/joint_checks.hpp"

using namespace noether;
using namespace noether::joint_testing;

namespace {

const BodyRef A = body(0, BodyKind::director3d, "A"), B = body(1, BodyKind::director3d, "B");
const Vector X_a = vec({0.3, -0.7, 0.2}), X_b = vec({-0.5, 0.1, 0.9});
const Vector u = vec({0.2, 1.0, -0.4}), w = vec({-0.6, 0.3, 0.8});
const Vector e1 = vec({1, 0, 0}), e2 = vec({0, 1, 0}), e3 = vec({0, 0, 1});
const double quarter_turn = 1.5707963267948966;
const Pose pa{vec({0.4, -1.2, 2.0}), random_rotation(5)};

/// Rank deficiency of the stacked Jacobian with B's frame F_b turned to R_A F_a T, points coinciding.
Index rank_loss(const Constraint& joint, const Matrix& F_a, const Matrix& T, const Matrix& F_b) {
  const Pose pb = pose_placing(X_b, pa.point(X_a), pa.R * F_a * T * F_b.transpose());
  const Matrix stacked = stacked_jacobian({joint, A.kinematics, B.kinematics, pa, pb}, stack(pa.q(A.kinematics), pb.q(B.kinematics)));
  return static_cast<Index>(stacked.rows()) - numerical_rank(stacked);
}

}  // namespace

TEST_CASE("revolute and cylindrical joints lose one rank at perpendicular axes") {
  const Matrix F_a = frame_from(u, e1), F_b = frame_from(w, e2);
  const auto revolute = make_revolute("revolute", A, X_a, u, B, X_b, w);
  const auto cylindrical = make_cylindrical("cylindrical", A, X_a, u, B, X_b, w);
  CHECK(rank_loss(*revolute, F_a, Matrix::Identity(3, 3), F_b) == 0);
  CHECK(rank_loss(*revolute, F_a, rotation(e2, quarter_turn), F_b) == 1);
  CHECK(rank_loss(*cylindrical, F_a, rotation(e3, quarter_turn), F_b) == 1);
}

TEST_CASE("universal joint loses one rank at parallel pins (gimbal lock)") {
  const auto universal = make_universal("universal", A, X_a, u, B, X_b, w);
  const Matrix F_a = frame_from(u, e1), F_b = frame_from(w, e2);
  CHECK(rank_loss(*universal, F_a, rotation(e3, quarter_turn), F_b) == 0);
  CHECK(rank_loss(*universal, F_a, Matrix::Identity(3, 3), F_b) == 1);
}

TEST_CASE("prismatic and fixed joints lose rank at a relative quarter turn about a frame axis") {
  const JointFrame f_a{X_a, u, w}, f_b{X_b, w, e1};
  const Matrix E_a = frame_from(u, w), E_b = frame_from(w, e1);
  const auto prismatic = make_prismatic("prismatic", A, f_a, B, f_b);
  const auto fixed = make_fixed("fixed", A, f_a, B, f_b);
  // The orientation rows E_A^T E_B (1,2), (1,3), (2,3) have, for a turn theta about e1, e2, e3, a
  // determinant (against the relative rotation) of -cos(theta), -cos(theta)^2, -cos(theta): a quarter
  // turn about e2 loses two ranks, about e1 or e3 one.
  const std::vector<std::pair<Vector, Index>> turns{{e1, 1}, {e2, 2}, {e3, 1}};
  for (const auto& [axis, loss] : turns) {
    const Vector turn_axis = axis;  // CAPTURE's lambda cannot capture a structured binding in clang 14
    CAPTURE(turn_axis.transpose());
    CHECK(rank_loss(*fixed, E_a, rotation(axis, 0.5), E_b) == 0);
    CHECK(rank_loss(*fixed, E_a, rotation(axis, quarter_turn), E_b) == loss);
    CHECK(rank_loss(*prismatic, E_a, rotation(axis, quarter_turn), E_b) == loss);
  }
}

TEST_CASE("planar prismatic and fixed joints lose one rank at a relative quarter turn") {
  const BodyRef pa2 = body(0, BodyKind::planar_director, "A"), pb2 = body(1, BodyKind::planar_director, "B");
  const Vector Y_a = vec({0.4, -0.3}), Y_b = vec({-0.6, 0.2}), axis = vec({1, 0});
  const auto prismatic = make_prismatic_planar("prismatic-planar", pa2, Y_a, axis, pb2, Y_b, axis);
  const auto fixed = make_fixed_planar("fixed-planar", pa2, Y_a, axis, pb2, Y_b, axis);
  const Pose a_pose{vec({1.1, -0.4}), rotation2d(0.8)};
  for (double angle : {0.0, quarter_turn}) {
    const Pose b_pose = pose_placing(Y_b, a_pose.point(Y_a), a_pose.R * rotation2d(angle));
    const Index expected_loss = angle == 0.0 ? 0 : 1;
    for (const Constraint* joint : {prismatic.get(), fixed.get()}) {
      const Assembled s{*joint, pa2.kinematics, pb2.kinematics, a_pose, b_pose};
      const Matrix stacked = stacked_jacobian(s, s.q());
      CHECK(static_cast<Index>(stacked.rows()) - numerical_rank(stacked) == expected_loss);
    }
  }
}

TEST_CASE("distance joint: the Jacobian vanishes only where the two points meet") {
  const auto distance = make_distance("distance", A, X_a, B, X_b, 1.0);
  const Pose pb = pose_placing(X_b, pa.point(X_a), random_rotation(3));
  CHECK(largest_abs(jacobian_of(*distance, stack(pa.q(A.kinematics), pb.q(B.kinematics)))) == doctest::Approx(0.0));
  const Pose apart = pb.translated(0.1 * e1);
  CHECK(largest_abs(jacobian_of(*distance, stack(pa.q(A.kinematics), apart.q(B.kinematics)))) >= 0.09);
}

#pragma once
/// Equation blocks shared by the joint families (built on JointBodies) and the small geometric
/// helpers they use.
#include <array>
#include <vector>

#include <noether/joints/joint_bodies.hpp>

namespace noether {

/// Two unit vectors (n1, n2) completing a unit 3-vector `axis` to the right-handed orthonormal
/// triad (axis, n1, n2). Deterministic: n1 is built from the coordinate axis least aligned with `axis`.
std::array<Vector, 2> axis_normal_pair(const Vector& axis);
/// The planar vector u turned by +90 degrees: (-u_2, u_1).
Vector planar_normal(const Vector& u);
/// The joint frame of a unit axis, in the coordinates the axis is given in, one axis per column:
/// 3D (axis, n1, n2) with (n1, n2) = axis_normal_pair(axis), right-handed; 2D (axis,
/// planar_normal(axis)).
Matrix axis_frame(const Vector& axis);

/// x_B(X_b) - x_A(X_a) = 0: dim linear equations (a point of A, or a world point, coincides with a
/// point of B). Full rank dim in every configuration.
std::vector<QuadraticEquation> coincidence_equations(const JointBodies& bodies, const Vector& X_a, const Vector& X_b);

/// a_A . n1_B = 0,  a_A . n2_B = 0  (2 bilinear, 3D): the unit axis a of A stays parallel to the
/// axis of B normal to the unit vectors n1, n2 of B. Rank 2 for a_A = +-(n1 x n2)_B; singular when
/// a_A lies in the plane of n1_B, n2_B (axes perpendicular).
std::vector<QuadraticEquation> parallel_axes_equations(const JointBodies& bodies, const Vector& a,
                                                       const Vector& n1, const Vector& n2);

/// e1_A . f2_B = 0,  e1_A . f3_B = 0,  e2_A . f3_B = 0  (3 bilinear, 3D): the orthonormal frame
/// axes e of A and f of B stay aligned (entries (1,2), (1,3), (2,3) of E_A^T E_B vanish). Full rank at
/// E_A = E_B; singular at a relative quarter turn about any frame axis (rank loss 1 about e1 or e3,
/// 2 about e2).
std::vector<QuadraticEquation> aligned_frames_equations(const JointBodies& bodies, const std::array<Vector, 3>& e,
                                                        const std::array<Vector, 3>& f);

/// A 3D prismatic joint between frame_a on A and frame_b on B (axes e of A, f of B): `equations`,
/// e2_A . (x_B - x_A) = 0, e3_A . (x_B - x_A) = 0 (frame_b's origin on frame_a's first axis) and
/// the frames aligned (aligned_frames_equations); `slide`, e1_A . (x_B - x_A), the coordinate they
/// leave free; `axes_b`, f as columns (3 x 3, the reaction's frame). Throws as frame_axes for frames
/// that are not orthonormal.
struct PrismaticEquations {
  std::vector<QuadraticEquation> equations;
  QuadraticEquation slide;
  Matrix axes_b;
};
PrismaticEquations prismatic_equations(const JointBodies& bodies, const JointFrame& frame_a, const JointFrame& frame_b);

/// Appends `more` to `equations`.
void append(std::vector<QuadraticEquation>& equations, std::vector<QuadraticEquation> more);

}  // namespace noether

#pragma once
/// Physical data of rigid bodies and the director mass coefficients derived from it.
///
/// A director body places its material points at x(X) = phi + X_i d_i, phi the body origin and
/// X the body coordinates of the point. With x_0 = phi, x_i = d_i and Xhat = (1, X) the kinetic
/// energy is T = 1/2 sum_ab Mbar_ab x_a'.x_b', Mbar_ab = int rho Xhat_a Xhat_b dV, that is
///
///   Mbar = [[ m,     m c^T ],      E_o = int rho X X^T dV = E_c + m c c^T   (Euler tensor about
///           [ m c,   E_o   ]],           the body origin), E_c = 1/2 tr(J_c) I - J_c,
///
/// and the mass matrix of q = (x_0, x_1, ...) is M = kron(Mbar, I_dim).
#include <string>

#include <Eigen/Core>

#include <noether/engine/inertia.hpp>

namespace noether {

/// Which inertia tensors J_c a 3D body accepts.
///
/// The principal moments of a distribution of mass satisfy J_i <= J_j + J_k (E_c = 1/2 tr(J_c) I - J_c,
/// the Euler tensor, is positive semidefinite: E_i = int rho X_i^2 dV). Model problems need not:
/// the free rigid body of [HairerLubichWanner2006] has J = (2, 1, 2/3), and 2 > 1 + 2/3, so
/// E_1 = -1/6. The director equations take such a body all the same: with orthonormal directors
/// (d_i' = omega x d_i) the kinetic energy is 1/2 m |v_c|^2 + 1/2 omega.J_c omega whatever the sign
/// of E_1, so it is positive on every motion the body's orthonormality constraints admit, which
/// is all the scheme needs (its Newton matrix, and M^{-1} where a stepper inverts M, stay regular);
/// only off those motions, which the solution never takes, is M indefinite.
enum class InertiaRequirement {
  /// J_c positive semidefinite with J_i <= J_j + J_k (relative 1e-12): some distribution of mass has it.
  physical,
  /// Any symmetric positive definite J_c (a model body); the mass matrix is then positive only on
  /// the motions orthonormal directors admit (MassPositivity::admitted_motions).
  positive_definite,
};

/// A 3D rigid body as users describe it. All quantities in body axes (the axes the directors
/// d_1, d_2, d_3 carry); the body origin phi need not be the centre of mass.
struct RigidBodyProperties {
  double mass = 0.0;                                         ///< m > 0
  Eigen::Vector3d center_of_mass = Eigen::Vector3d::Zero();  ///< c, from the body origin
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();         ///< J_c about the centre of mass, symmetric
  /// What J_c must be: physical unless a model body is meant (see InertiaRequirement).
  InertiaRequirement requirement = InertiaRequirement::physical;
};

/// A planar rigid body (moving in the xy-plane) as users describe it.
struct PlanarBodyProperties {
  double mass = 0.0;                                         ///< m > 0
  Eigen::Vector2d center_of_mass = Eigen::Vector2d::Zero();  ///< c, from the body origin, body axes
  double inertia = 0.0;                                      ///< J_c >= 0 about the centre of mass
};

/// Mbar (4 x 4) of a 3D director body, from (m, c, J_c) as in the file comment.
/// Accepts singular data (a slender rod along d_1, J_c = diag(0, J, J), gives E_2 = E_3 = 0 at
/// the centre of mass). Throws std::invalid_argument naming `body` and the offending value when
/// m <= 0, a value is not finite, m or an entry of J_c is subnormal (nonzero, below
/// 2.2250738585072014e-308 in magnitude: engine/format.hpp, is_subnormal), J_c is not symmetric (relative 1e-12), or the principal
/// moments do not meet properties.requirement: physical, negative or violating the triangle
/// inequality J_i <= J_j + J_k (both relative 1e-12; the message says how to enter a model body);
/// positive_definite, a principal moment <= 1e-12 of the largest.
Eigen::Matrix4d director_mass_coefficients(const std::string& body, const RigidBodyProperties& properties);

/// Where the kinetic energy of a body of these properties is positive: everywhere for a physical
/// J_c, on the motions of orthonormal directors for a model one (InertiaRequirement).
MassPositivity mass_positivity(const RigidBodyProperties& properties);

/// Mbar (3 x 3) of a planar director body. In the plane only tr(E_c) = J_c enters the motion
/// (T_rot = 1/2 omega^2 tr(E_c) for orthonormal directors); we take the isotropic
/// E_c = J_c/2 I ([KinonBetschSchneider2023, Sec. 5.2]), so M is regular whenever J_c > 0, and
/// E_o = E_c + m c c^T.
/// Throws std::invalid_argument naming `body` when m <= 0, J_c < 0, m or J_c is subnormal, or a
/// value is not finite.
Eigen::Matrix3d director_mass_coefficients(const std::string& body, const PlanarBodyProperties& properties);

/// Mbar = [m] (1 x 1) of a point mass; throws std::invalid_argument naming `body` unless
/// 0 < m < infinity and m is a normal number.
Eigen::Matrix<double, 1, 1> point_mass_coefficients(const std::string& body, double mass);

}  // namespace noether

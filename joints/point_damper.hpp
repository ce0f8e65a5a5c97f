#pragma once
/// Viscous dampers between two points (a body-fixed point and another body's point or the ground).
#include <noether/engine/dissipation.hpp>
#include <noether/joints/force_point_pair.hpp>

namespace noether {

/// The viscous element of [KinonBetschSchneider2023, Sec. 5.2, eq. (77)]: Rayleigh function
/// G = 1/2 eta v_rel.v_rel with v_rel = d/dt (x_a - x_b) = J v the full relative velocity of the
/// two points, so
///   C = eta J^T J   (n x n, constant, positive semi-definite),   F = -C v.
/// For x_a = phi + l/2 d1 against a ground point, J = [I, l/2 I, 0] and C = eta [I, l/2 I, 0; l/2 I, l^2/4 I, 0;
/// 0, 0, 0] (planar layout phi, d1, d2). The extracted eq. (80) prints this matrix with negative signs and
/// its second block row in third place; eq. (77) and C >= 0 (eq. 55) fix it as written here.
/// Dissipated power v.C v = eta |v_rel|^2 >= 0.
class PointDamper final : public Dissipation {
 public:
  /// Throws std::invalid_argument for a negative or non-finite eta.
  PointDamper(std::string name, const ForcePointPair& points, double damping);

  Index local_size() const override { return static_cast<Index>(damping_matrix_.rows()); }
  bool has_constant_damping() const override { return true; }

 protected:
  void do_add_damping_matrix(ConstVectorRef, double s, MatrixRef C) const override {
    C.noalias() += s * damping_matrix_;
  }
  void do_add_damping_force_q_jacobian(ConstVectorRef, ConstVectorRef, double, MatrixRef) const override {}

 private:
  Matrix damping_matrix_;  ///< eta J^T J
};

/// A dashpot damping only the elongation rate: G = 1/2 eta (e.v_rel)^2, e = r/|r|, r = x_a - x_b = J q + r_0:
///   C(q) = eta J^T e e^T J = eta J^T r r^T J / (r.r)   (n x n, positive semi-definite),
///   d(C(q) v)/dq = eta J^T [ ((r.u) I + r u^T) / (r.r) - 2 (r.u) r r^T / (r.r)^2 ] J,   u = J v.
/// Dissipated power eta (e.v_rel)^2 >= 0. Precondition r != 0. C(q) v is a multiple of J^T r, so the
/// damping forces on the two points are equal, opposite and along r: they conserve linear and angular
/// momentum (also at the midpoint where the Livens step evaluates them).
class AxialPointDamper final : public Dissipation {
 public:
  AxialPointDamper(std::string name, ForcePointPair points, double damping);

  Index local_size() const override { return points_.local_size(); }
  bool has_constant_damping() const override { return false; }
  /// At r = 0, where the axis e = r/|r| is undefined.
  std::string singularity(ConstVectorRef q) const override;

 protected:
  void do_add_damping_matrix(ConstVectorRef q, double s, MatrixRef C) const override;
  void do_add_damping_force_q_jacobian(ConstVectorRef q, ConstVectorRef v, double s, MatrixRef K) const override;

 private:
  ForcePointPair points_;
  double damping_;
};

}  // namespace noether

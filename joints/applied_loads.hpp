#pragma once
/// Prescribed loads on one body: a force at a body-fixed point and a torque, both given in time.
#include <functional>

#include <noether/bodies/kinematics.hpp>
#include <noether/engine/external_load.hpp>

namespace noether {

/// A world-frame vector given as a function of time.
using TimeFunction = std::function<Vector(double t)>;

/// A force F(t) (world frame, dimension() entries) at the body-fixed point X of a body:
///   f(t) = P(X)^T F(t)   (n = the body's block size), independent of q,
/// so that f.q' = F.x'(X): its power is the force's power at the material point.
class PointForce final : public ExternalLoad {
 public:
  PointForce(std::string name, const BodyRef& body, const Vector& X, TimeFunction force);

  Index local_size() const override { return static_cast<Index>(point_map_.cols()); }
  bool depends_on_configuration() const override { return false; }

 protected:
  void do_add_generalized_force(double t, ConstVectorRef q, double s, VectorRef f) const override;
  void do_add_generalized_force_q_jacobian(double, ConstVectorRef, double, MatrixRef) const override {}

 private:
  Matrix point_map_;  ///< P(X), dimension() x n
  TimeFunction force_;
};

/// Omega(q) with omega = Omega(q) v, the angular velocity of a director body:
///   3D:     omega = 1/2 sum_i d_i x d_i'          (Omega 3 x 12: [0, 1/2 [d1]x, 1/2 [d2]x, 1/2 [d3]x]),
///   planar: omega = 1/2 sum_i d_i x d_i'  (scalar cross a x b = a_x b_y - a_y b_x; Omega 1 x 6).
/// For a rigid motion (d_i' = omega x d_i, orthonormal d_i) it returns omega exactly. Linear in q.
/// Throws std::invalid_argument for a point mass.
Matrix angular_velocity_map(const BodyKinematics& kinematics, ConstVectorRef q);

/// A torque M(t) on a director body (3 entries in 3D, 1 planar), through the virtual work M.delta theta:
///   f(t, q) = Omega(q)^T M(t):   f_phi = 0,   f_{d_i} = 1/2 M x d_i   (3D),   f_{d_i} = 1/2 M R d_i  (planar,
///   R the rotation by +90 degrees),
/// so f.q' = M.omega for rigid motion (3D: sum_i 1/2 (M x d_i).(omega x d_i) = 1/2 (3 - 1) M.omega).
///   df/dq: blocks (d_i, d_i) = 1/2 [M]x (3D) or 1/2 M R (planar); zero elsewhere   (n x n).
class BodyTorque final : public ExternalLoad {
 public:
  /// Throws std::invalid_argument for a point mass (it has no orientation).
  BodyTorque(std::string name, const BodyRef& body, TimeFunction torque);

  Index local_size() const override { return kinematics_.size(); }
  bool depends_on_configuration() const override { return true; }

 protected:
  void do_add_generalized_force(double t, ConstVectorRef q, double s, VectorRef f) const override;
  void do_add_generalized_force_q_jacobian(double t, ConstVectorRef q, double s, MatrixRef K) const override;

 private:
  /// M(t), checked to have 3 (3D) or 1 (planar) entries.
  Vector torque_at(double t) const;
  /// d(Omega(q)^T M)/d d_i, the same for every director   (dimension() x dimension()).
  Matrix director_block(const Vector& torque) const;

  BodyKinematics kinematics_;
  TimeFunction torque_;
};

}  // namespace noether

#pragma once
/// The element behind the driven joints (driven_revolute.hpp, driven_prismatic.hpp,
/// prescribed_point.hpp): a rheonomic constraint g(q, t) = 0 whose rows are sums of quadratic
/// equations of the joint's coordinates with coefficients that depend on time.
#include <functional>
#include <memory>
#include <vector>

#include <noether/engine/constraint.hpp>
#include <noether/joints/quadratic_joint.hpp>

namespace noether {

/// A coefficient's value c(t) and rate c'(t) at one time.
struct ValueRate {
  double value = 0.0, rate = 0.0;
};
/// t -> (c(t), c'(t)).
using TimeCoefficient = std::function<ValueRate(double)>;

/// One term c(t) e(q) of a row; an empty coefficient is the constant 1.
struct DrivenTerm {
  QuadraticEquation equation;
  TimeCoefficient coefficient;
};

/// The rheonomic constraint g_k(q, t) = sum_i c_ki(t) e_ki(q), each e_ki of degree <= 2 in q:
///   G_k = sum_i c_ki (l_ki + H_ki q),  sum_k lambda_k D^2 g_k = sum_k lambda_k sum_i c_ki H_ki,
///   dg_k/dt = sum_i c'_ki e_ki(q),   D_q dg_k/dt = sum_i c'_ki (l_ki + H_ki q),   D_q^2 dg_k/dt = sum_i c'_ki H_ki.
/// A plain joint's rows are terms without coefficient; a drive adds the rows that move with time.
/// Of degree <= 2 in q at every fixed t, as Constraint::rheonomic() requires; no exact form.
class DrivenJoint final : public Constraint {
 public:
  /// rows: each a non-empty list of terms on `local_size` coordinates (an empty Hessian is a zero
  /// one, QuadraticEquation). Throws std::invalid_argument
  /// naming the joint when there are no rows, a row has no terms or a term's sizes disagree.
  DrivenJoint(std::string name, std::vector<BlockId> blocks, Index local_size, std::vector<std::vector<DrivenTerm>> rows,
              std::shared_ptr<const ReactionSite> reaction);

  Index local_size() const override { return local_size_; }
  Index num_equations() const override { return static_cast<Index>(rows_.size()); }

 protected:
  const ReactionSite* do_reaction_site() const override { return reaction_.get(); }
  bool do_rheonomic() const override { return true; }
  void do_calc_value(ConstVectorRef q, VectorRef g) const override { do_calc_value_at(0.0, q, g); }
  void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const override { do_calc_jacobian_at(0.0, q, G); }
  void do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const override {
    do_add_hessian_contraction_at(0.0, q, lambda, s, K);
  }
  void do_calc_value_at(double t, ConstVectorRef q, VectorRef g) const override;
  void do_calc_jacobian_at(double t, ConstVectorRef q, MatrixRef G) const override;
  void do_add_hessian_contraction_at(double t, ConstVectorRef q, ConstVectorRef lambda, double s,
                                     MatrixRef K) const override;
  void do_calc_rate(double t, ConstVectorRef q, VectorRef g_t) const override;
  void do_calc_rate_jacobian(double t, ConstVectorRef q, MatrixRef G_t) const override;
  void do_add_rate_hessian_contraction(double t, ConstVectorRef q, ConstVectorRef lambda, double s,
                                       MatrixRef K) const override;

 private:
  /// out(k) = sum_i w(c_ki) e_ki(q) and J(k, :) = sum_i w(c_ki) De_ki(q), w picking value or rate.
  template <class Weight>
  void sum_rows(double t, ConstVectorRef q, Weight weight, VectorRef* out, MatrixRef* J) const;
  /// K += s sum_k lambda_k sum_i w(c_ki) H_ki.
  template <class Weight>
  void add_hessians(double t, ConstVectorRef lambda, Weight weight, double s, MatrixRef K) const;

  Index local_size_;
  std::vector<std::vector<DrivenTerm>> rows_;
  std::shared_ptr<const ReactionSite> reaction_;
};

}  // namespace noether

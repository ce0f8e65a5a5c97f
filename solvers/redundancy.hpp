#pragma once
/// Constraint equations that depend on others: found by a rank-revealing sparse QR.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <noether/engine/system.hpp>

namespace noether {

/// A constraint row that is a combination of others at the configuration examined.
struct DependentEquation {
  Index row;                      ///< its global multiplier row
  std::vector<Index> depends_on;  ///< the independent rows it combines (nonzero coefficients), ascending
};

/// The rank of the constraint Jacobian G(q) (m x d) and the rows beyond it.
struct ConstraintRank {
  Index equations = 0;  ///< m
  Index rank = 0;
  std::vector<DependentEquation> dependent;  ///< m - rank of them
};

/// The rank of G(q) and which rows depend on the others, by SuiteSparseQR's rank-revealing QR
/// (Heath's method) of G(q)^T with every column (a row of G) scaled to unit length: a column whose
/// norm, after the Householder reflections of the columns before it, falls below `tolerance` is
/// dependent, and its coefficients on the independent ones solve R11 c = R12. Rows of G differ in
/// units (a point coincidence in length, an axis equation in none); the scaling makes the test one
/// of angles between rows. Throws std::invalid_argument for q of the wrong size, std::runtime_error
/// when SuiteSparseQR fails (out of memory).
ConstraintRank constraint_rank(const System& system, ConstVectorRef q, double tolerance = 1e-9);

/// The dependent rows of G at q that stay dependent along the motion (structural redundancy, as
/// in the Bricard linkage), told apart from rows that depend on others only at q (an instantaneous
/// singular configuration, as a four-bar passing its flat position): the rows found at q are
/// examined again at a configuration q' on the constraints near q, reached from q by a step of
/// relative size 1e-3 along a direction tangent to the other rows' constraints and projected back
/// onto them (Gauss-Newton). Only rows dependent at q' too are returned.
ConstraintRank structural_redundancy(const System& system, ConstVectorRef q, double tolerance = 1e-9);

/// A system with the same blocks and elements but without the given constraint rows: a constraint
/// that loses rows is replaced by SelectedRows of it (named "<name> without row <k>", or "<name>
/// without rows <k> <l> ..." in ascending order for several: element names hold no commas), one
/// that loses all is left out. Coordinates are numbered as in `system`, multipliers anew.
std::unique_ptr<System> without_equations(const System& system, const std::vector<Index>& rows);

/// The rows `kept` (ascending, local numbering) of another constraint. Of degree <= 2 when it is,
/// with the kept functions of its exact form.
class SelectedRows final : public Constraint {
 public:
  SelectedRows(std::string name, std::shared_ptr<const Constraint> full, std::vector<Index> kept);
  Index local_size() const override { return full_->local_size(); }
  Index num_equations() const override { return static_cast<Index>(kept_.size()); }

 protected:
  const QuadraticFormView* do_quadratic_form() const override { return form_ ? &*form_ : nullptr; }
  void do_calc_value(ConstVectorRef q, VectorRef g) const override;
  void do_calc_jacobian(ConstVectorRef q, MatrixRef G) const override;
  void do_add_hessian_contraction(ConstVectorRef q, ConstVectorRef lambda, double s, MatrixRef K) const override;
  /// The full constraint's: the kept rows carry the reaction the dropped ones would have shared.
  const ReactionSite* do_reaction_site() const override { return full_->reaction_site(); }

 private:
  std::shared_ptr<const Constraint> full_;
  std::vector<Index> kept_;
  std::optional<QuadraticForm> form_;
};

/// "" when the rows of G(q) are independent up to angles of `tolerance`, else "the constraint
/// Jacobian is (nearly) rank deficient (rank r of m): <each dependency>": what to say when Newton
/// fails next to such a configuration (its cause is then the rows named, not the element with
/// the largest residual entry).
std::string describe_rank_loss(const System& system, ConstVectorRef q, double tolerance = 1e-6);

/// "constraint 'J6' row 2 depends on constraint 'J1' rows 0, 1, 2, constraint 'J2' rows 0, 3": the
/// dependency in the system's labels, the rows of one element together.
std::string describe_dependency(const System& system, const DependentEquation& equation);

/// "2 constraint equations depend on the others along the motion: <each describe_dependency>,
/// separated by "; "": the dependent rows of a structural_redundancy, as the refusals of the
/// steppers and of `noether run --redundant refuse` name them. Precondition: at least one
/// dependent row.
std::string describe_redundancy(const System& system, const ConstraintRank& redundancy);

}  // namespace noether

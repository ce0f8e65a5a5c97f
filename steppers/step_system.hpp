#pragma once
/// The part every stepper's Newton system shares: the assembler over its units, who owns each
/// unit (for error messages), and the step being solved.
#include <optional>
#include <string>

#include <noether/engine/assembler.hpp>
#include <noether/engine/parallel_ranges.hpp>
#include <noether/engine/state.hpp>
#include <noether/engine/unknown_ordering.hpp>
#include <noether/solvers/newton.hpp>
#include <noether/steppers/unit_table.hpp>

namespace noether {

/// Newton's unknowns are the stepper's natural unknown vector (its fields one after the other,
/// e.g. x = (dq, mu)) in body-wise order (engine/unknown_ordering.hpp): the Newton matrix of a
/// chain is then block tridiagonal, and a unit's rows and columns lie close together. Derived
/// steppers work in natural order throughout; the base class permutes x on the way in, and maps
/// the units' dofs, so residual and matrix come out in Newton order.
class StepSystemBase : public NewtonSystem {
 public:
  const CscPattern& pattern() const override { return assembler().pattern(); }
  void evaluate(ConstVectorRef x, VectorRef residual, bool with_matrix) final;
  std::span<const double> matrix() const final { return assembler().values(); }
  std::string describe_row(Index row) const final;
  /// The step to solve next: from `state` (kept by reference until the next set_step) by h.
  /// Constant blocks may depend on h (LocalBlock::constant): a new h has them written again.
  void set_step(const State& state, double h) {
    state_ = &state;
    if (h != h_) assembler().invalidate_constants();
    h_ = h;
    prepare_step();
  }
  /// Runs newton on this system from x, given and returned in natural order (size pattern().n).
  NewtonReport solve(NewtonSolver& newton, VectorRef x, const std::string& context);

 protected:
  /// R(x) and, when with_matrix, dR/dx at x in natural order; the units write residual and the
  /// assembler's values (Newton order) through assembler().
  virtual void evaluate_natural(ConstVectorRef x, VectorRef residual, bool with_matrix) = 0;
  /// Unit u's contribution at x (natural order), as the assembly of the last evaluate_natural
  /// computed it (that evaluate_natural's x, with the data it prepared).
  virtual void evaluate_unit(Index u, ConstVectorRef x, UnitOutput& out) const = 0;
  /// What natural residual row `row` balances, e.g. "momentum balance of coordinate bar3.phi.x".
  virtual std::string row_label(Index row) const = 0;
  /// Builds the assembly from the units added to units_ (dofs in natural order of an unknown
  /// vector with the given fields); called once by the derived constructor.
  void set_plan(const System& system, const std::vector<FieldKind>& fields);
  /// Per-step data of the derived system, called by set_step once state_ and h_ are set.
  virtual void prepare_step() {}
  /// rows (pattern().n, Newton order): term(i) in the row of every coordinate i of the system (the
  /// first unknowns of the natural order), 0 in the others; term(i) depends on i alone. For terms
  /// no unit owns, as the start of an assembly (Assembler::assemble).
  template <class Term>
  void place_at_coordinate_rows(Term&& term, Vector& rows) const {
    rows.setZero(static_cast<Index>(position_.size()));
    for_each_index_range(num_coordinates_, [&](Index begin, Index end) {
      for (Index i = begin; i < end; ++i) rows(position_[static_cast<std::size_t>(i)]) = term(i);
    });
  }
  /// x of the last evaluate, natural order.
  const Vector& natural_x() const { return natural_x_; }
  /// newton[position(i)] = natural[i], and back; both of size pattern().n.
  void to_newton_order(ConstVectorRef natural, VectorRef newton) const;
  void to_natural_order(ConstVectorRef newton, VectorRef natural) const;
  Assembler& assembler() { return *assembler_; }
  const Assembler& assembler() const { return *assembler_; }

  UnitTable units_;
  const State* state_ = nullptr;
  double h_ = 0.0;

 private:
  std::optional<Assembler> assembler_;
  Index num_coordinates_ = 0;
  std::vector<Index> position_;  ///< natural index -> Newton index
  std::vector<Index> natural_;   ///< Newton index -> natural index
  Vector natural_x_;             ///< x of the last evaluate, natural order (describe_row re-evaluates there)
};

/// The initial state of a momentum-based stepper: p = M(q) v, lambda = 0.
void initialize_momentum(const System& system, State& state);

}  // namespace noether

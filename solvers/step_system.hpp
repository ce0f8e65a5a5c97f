#pragma once
/// The part every stepper's Newton system shares: the assembler over its units, who owns each
/// unit (for error messages), and the step being solved.
#include <optional>
#include <string>

#include "engine/assembler.hpp"
#include "engine/state.hpp"
#include "solvers/newton.hpp"
#include "solvers/unit_table.hpp"

namespace noether {

class StepSystemBase : public NewtonSystem {
 public:
  const CscPattern& pattern() const override { return assembler().pattern(); }
  std::string describe_row(Index row) const override { return units_.describe_row(assembler(), row, row_label(row)); }
  /// The step to solve next: from `state` (kept by reference until the next set_step) by h.
  void set_step(const State& state, double h) {
    state_ = &state;
    h_ = h;
  }

 protected:
  /// What residual row `row` balances, e.g. "momentum balance of coordinate bar3.phi.x".
  virtual std::string row_label(Index row) const = 0;
  /// Builds the assembly from the units added to units_; called once by the derived constructor.
  void set_plan(Index num_unknowns) { assembler_.emplace(AssemblyPlan(num_unknowns, units_.take_layouts())); }
  Assembler& assembler() { return *assembler_; }
  const Assembler& assembler() const { return *assembler_; }

  UnitTable units_;
  const State* state_ = nullptr;
  double h_ = 0.0;

 private:
  std::optional<Assembler> assembler_;
};

/// The initial state of a momentum-based stepper: p = M(q) v, lambda = 0.
void initialize_momentum(const System& system, State& state);

}  // namespace noether

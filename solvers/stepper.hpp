#pragma once
/// Time steppers: one step of a structure-preserving scheme on a System.
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/state.hpp"
#include "engine/system.hpp"
#include "solvers/newton.hpp"

namespace noether {

/// A stepper refuses a system (or a solver) outside what its scheme treats; the message says
/// what is missing and what to use instead.
class StepperRefusal : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct StepperOptions {
  /// The Newton matrices' linear solver. KLU by default: on the steppers' saddle-point matrices it
  /// factors faster than UMFPACK (about 10x on chains, 1.5 to 4x on grids of closed loops) and
  /// refactorizes new values in place (docs/performance.md).
  LinearSolverKind solver = LinearSolverKind::klu;
  NewtonOptions newton;
};

class Stepper {
 public:
  virtual ~Stepper() = default;
  virtual std::string_view name() const = 0;

  /// Completes a user-given state (q, v at t) into the scheme's initial state: sets p and
  /// sizes lambda. q and v should satisfy the constraints (see engine projection helpers).
  virtual void initialize(State& state) const = 0;

  /// Advances state by h (step += 1, t += h). On a NewtonError the state is left unchanged.
  virtual NewtonReport step(State& state, double h) = 0;

  /// The energy the scheme conserves (or balances against dissipation), at state:
  /// for Livens-type schemes the generalized energy p.v - T(q, v) + V(q).
  virtual double conserved_energy(const State& state) const = 0;
};

/// "step 812, t = 8.12": names a step in NewtonError contexts.
std::string describe_step(const State& state, double h);

}  // namespace noether

#pragma once
/// What a run prepares before its outputs are opened (apps/runner.cpp): the system it steps
/// (without the constraint equations that depend on the others, --redundant), the stepper made on
/// it, and the initial state projected onto its constraints.
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <noether/apps/model/model.hpp>
#include <noether/apps/run_configuration.hpp>
#include <noether/engine/distribution.hpp>
#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>
#include <noether/solvers/initial_values.hpp>
#include <noether/steppers/stepper.hpp>

namespace noether {

class RunParts;

/// The model's initial state projected onto the constraints of the system stepped
/// (project_initial_state) and the projection's report, or the exception it threw.
struct ProjectedStart {
  State state;
  InitialProjection report;
  std::exception_ptr error;

  ProjectedStart(const System& stepped, State initial);
};

/// The system the run steps, the stepper made on it and the projected initial state, all made
/// before any output is written, so that a scheme parameter the stepper refuses is a usage error.
/// A StepperRefusal (of the system, or the redundant equations under --redundant refuse) is kept in
/// `refusal` instead, as the error it is, and a failed projection in `start`: the run throws them
/// once its outputs are open, and ends failed with both files.
struct PreparedStepper {
  std::unique_ptr<System> reduced;  ///< the system without its dependent equations, when some were dropped
  std::unique_ptr<Stepper> stepper;
  std::optional<StepperRefusal> refusal;
  /// The equations dropped as dependent on the others (describe_dependency), when some were.
  std::vector<std::string> dropped_equations;
  /// Unless the run resumes (`project` false), or the dependent equations were refused.
  std::optional<ProjectedStart> start;

  /// Over parts (parts non-null, model its part) the dependent equations are not looked for and
  /// the initial state is not projected: both would factor the whole constraint Jacobian in one
  /// process. The stepper's initialize refuses initial values off the constraints instead, and
  /// dependent equations make the factorization fail.
  PreparedStepper(const Model& model, const RunConfiguration& run, std::shared_ptr<const Distribution> distribution,
                  bool project, const RunParts* parts);
  const System& system(const Model& model) const { return reduced ? *reduced : *model.system; }

 private:
  /// In one process the stepper of the whole model is made on another thread while this one looks
  /// for dependent equations, which most models have none of, and projects the initial state: all
  /// only read the model, and the stepper is the same bit for bit in any thread count. When
  /// equations were dropped it was made for nothing, and the stepper of the reduced system is
  /// made after. The search's exception comes first, as when they ran one after the other.
  void prepare_beside(const Model& model, const std::function<std::unique_ptr<Stepper>(const System&)>& make,
                      const std::function<void()>& reduce_and_project);
};

/// Throws StepperRefusal when the projected initial positions violate an equation dropped as
/// dependent on the others: the equations have no common solution there (the model is
/// over-constrained, not redundant), and the dropped one would stay violated the whole run.
void require_dropped_equations_met(const Model& model, const State& state);

}  // namespace noether

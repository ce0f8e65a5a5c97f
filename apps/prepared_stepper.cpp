#include <noether/apps/prepared_stepper.hpp>

#include <utility>

#include <tbb/task_group.h>

#include <noether/apps/run_parts.hpp>
#include <noether/engine/format.hpp>
#include <noether/solvers/redundancy.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {
namespace {

/// The model's system without the equations that depend on the others along the motion
/// (Redundancy::drop; `dropped` lists them), or nullptr when there are none. Throws StepperRefusal
/// naming them under Redundancy::refuse.
std::unique_ptr<System> without_redundancy(const Model& model, const RunConfiguration& run,
                                           std::vector<std::string>& dropped) {
  const ConstraintRank redundancy = structural_redundancy(*model.system, model.initial.q);
  if (redundancy.dependent.empty()) return nullptr;
  if (run.redundancy == RunConfiguration::Redundancy::refuse) {
    const std::string them = redundancy.dependent.size() == 1 ? "it" : "them";
    throw StepperRefusal(describe_redundancy(*model.system, redundancy) + ". Run with --redundant drop (the default), " +
                         "which drops " + them + " from the step equations and still reports " + them + ", or remove " +
                         them + " from the model");
  }
  std::vector<Index> rows;
  for (const DependentEquation& e : redundancy.dependent) {
    rows.push_back(e.row);
    dropped.push_back(describe_dependency(*model.system, e));
  }
  return without_equations(*model.system, rows);
}

/// Runs task() on another thread, when one is free, while here() runs on this one, and returns
/// when both have: setup's independent parts side by side. What communicates with other processes
/// belongs in here(), on the thread that called (MPI is initialized for it alone). here()'s
/// exception is rethrown; task()'s is returned (null when it threw none), for the caller to weigh
/// against what here() did.
template <class Task, class Here>
std::exception_ptr run_beside(Task task, Here here) {
  std::exception_ptr task_error;
  tbb::task_group group;
  group.run([&] {
    try {
      task();
    } catch (...) {
      task_error = std::current_exception();
    }
  });
  try {
    here();
  } catch (...) {
    group.wait();
    throw;
  }
  group.wait();
  return task_error;
}

}  // namespace

void require_dropped_equations_met(const Model& model, const State& state) {
  const ConstraintViolation v = position_violation(*model.system, state.q);
  if (v.row < 0) return;
  throw StepperRefusal("the projected initial positions violate " + model.system->multiplier_label(v.row) +
                       ", dropped as dependent on the others, by " + format_number(v.residual) +
                       " (round-off allows " + format_number(v.tolerance) +
                       "): the constraints have no common solution near the initial values; correct the joints "
                       "that contradict each other");
}

ProjectedStart::ProjectedStart(const System& stepped, State initial) : state(std::move(initial)) {
  try {
    report = project_initial_state(stepped, state);
  } catch (...) {
    error = std::current_exception();
  }
}

PreparedStepper::PreparedStepper(const Model& model, const RunConfiguration& run,
                                 std::shared_ptr<const Distribution> distribution, bool project, const RunParts* parts) {
  StepperOptions options = run.stepper_options();
  // without_redundancy looks for them: the stepper need not look again.
  options.redundant_equations = StepperOptions::RedundantEquations::allow;
  options.distribution = std::move(distribution);
  if (parts) options.part = parts->system_part();
  const auto make = [&](const System& system) { return find_stepper(run.stepper).make(system, options); };
  const auto reduce_and_project = [&] {
    reduced = without_redundancy(model, run, dropped_equations);
    if (project) start.emplace(system(model), model.initial);
  };
  try {
    if (parts) {
      stepper = make(*model.system);
    } else if (options.distribution) {  // both communicate, in the same order on every process
      reduce_and_project();
      stepper = make(system(model));
    } else {
      prepare_beside(model, make, reduce_and_project);
    }
  } catch (const StepperRefusal& e) {
    refusal = e;
  }
}

void PreparedStepper::prepare_beside(const Model& model,
                                     const std::function<std::unique_ptr<Stepper>(const System&)>& make,
                                     const std::function<void()>& reduce_and_project) {
  std::unique_ptr<Stepper> whole;
  const std::exception_ptr whole_error = run_beside([&] { whole = make(*model.system); }, reduce_and_project);
  if (reduced) {
    whole.reset();
    stepper = make(*reduced);
    return;
  }
  if (whole_error) std::rethrow_exception(whole_error);
  stepper = std::move(whole);
}

}  // namespace noether

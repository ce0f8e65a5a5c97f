#include <noether/steppers/stepper.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>

#include <noether/engine/format.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/quote.hpp>
#include <noether/solvers/redundancy.hpp>
#include <noether/solvers/initial_values.hpp>

namespace noether {

std::string describe_step(const State& state, double h) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "step %d (t = %.6g -> %.6g)", state.step + 1, state.t, state.t + h);
  return buffer;
}

std::string describe_adaptive_step(const State& state, double h) {
  char buffer[112];
  std::snprintf(buffer, sizeof buffer, "step %d (from t = %.6g, first guess h = %.6g)", state.step + 1, state.t, h);
  return buffer;
}

namespace {

/// Throws unless `field` holds `expected` entries; `hint` follows the message when given.
void require_size(std::string_view stepper, const char* field, const Vector& values, Index expected,
                  const char* what, const char* hint = nullptr) {
  if (values.size() == expected) return;
  throw std::invalid_argument(std::string(stepper) + ": state." + field + " holds " + std::to_string(values.size()) +
                              (values.size() == 1 ? " entry" : " entries") + ", the system has " +
                              std::to_string(expected) + " " + what + (hint ? std::string("; ") + hint : std::string()));
}

/// Throws naming the first non-finite entry of `field`, labelled by label(i).
template <class Label>
void require_finite(std::string_view stepper, const char* field, const Vector& values, Label&& label) {
  for (Index i = 0; i < values.size(); ++i)
    if (!std::isfinite(values(i)))
      throw std::invalid_argument(std::string(stepper) + ": state." + field + " is not finite at " + label(i) + " (" +
                                  format_number(values(i)) + ")");
}

void require_finite_time(std::string_view stepper, const State& state) {
  if (!std::isfinite(state.t))
    throw std::invalid_argument(std::string(stepper) + ": state.t must be finite, got " + format_number(state.t));
}

}  // namespace

class Stepper::ExclusiveCall {
 public:
  ExclusiveCall(Stepper& stepper, const char* call) : running_(stepper.running_) {
    const char* other = nullptr;
    if (!running_.compare_exchange_strong(other, call, std::memory_order_acquire))
      throw std::logic_error(std::string(stepper.name()) + ": " + call + "() called while " + other +
                             "() runs on this stepper: a Stepper is one thread's at a time; make one stepper per "
                             "thread (several may step one System)");
  }
  ~ExclusiveCall() { running_.store(nullptr, std::memory_order_release); }
  ExclusiveCall(const ExclusiveCall&) = delete;
  ExclusiveCall& operator=(const ExclusiveCall&) = delete;

 private:
  std::atomic<const char*>& running_;
};

Stepper::Stepper(const System& system, std::string_view name, StepperOptions::RedundantEquations redundant)
    : system_use_(system, "stepper '" + std::string(name) + "'"), redundant_equations_(redundant) {}

Stepper::~Stepper() = default;

void Stepper::initialize(State& state) const {
  State initialized = state;
  do_initialize(initialized);
  if (redundant_equations_ == StepperOptions::RedundantEquations::refuse)
    require_no_redundancy(system_use_.system(), initialized.q, name());
  state = std::move(initialized);
}

StepReport Stepper::step(State& state, double h) {
  const ExclusiveCall call(*this, "step");
  check_step_input(system_use_.system(), state, h, name());
  return do_step(state, h);
}

StepperHistory Stepper::checkpoint() {
  const ExclusiveCall call(*this, "checkpoint");
  return do_checkpoint();
}

void Stepper::restore_history(const StepperHistory& history) {
  const ExclusiveCall call(*this, "restore_history");
  do_restore_history(history);
}

void require_no_redundancy(const System& system, ConstVectorRef q, std::string_view stepper) {
  const ConstraintRank redundancy = structural_redundancy(system, q);
  if (redundancy.dependent.empty()) return;
  const bool one = redundancy.dependent.size() == 1;
  throw StepperRefusal(std::string(stepper) + ": " + describe_redundancy(system, redundancy) +
                       ". Every step's Newton matrix would be singular: drop " + (one ? "it" : "them") +
                       " with structural_redundancy and without_equations (<noether/solvers/redundancy.hpp>) and make "
                       "the stepper on the system without_equations returns, or remove " + (one ? "it" : "them") +
                       " from the model (StepperOptions::redundant_equations = RedundantEquations::allow steps the "
                       "system as it is)");
}

std::string undefined_element(const System& system, ConstVectorRef q) {
  Vector local;
  std::string found;
  const auto scan = [&](const char* kind, const auto& placed_elements) {
    for (const auto& placed : placed_elements) {
      if (!found.empty()) return;
      gather(q, placed.dofs, local);
      if (std::string why = placed.element->singularity(local); !why.empty())
        found = std::string(kind) + " " + quote(placed.element->name()) + ": " + why;
    }
  };
  scan("inertia", system.inertias());
  scan("potential", system.potentials());
  scan("constraint", system.constraints());
  scan("dissipation", system.dissipations());
  scan("external load", system.external_loads());
  scan("actuator", system.actuators());
  return found;
}

void check_initial_state(const System& system, const State& state, std::string_view stepper) {
  const Index d = system.num_coordinates();
  require_size(stepper, "q", state.q, d, "coordinates");
  require_size(stepper, "v", state.v, d, "coordinates");
  const auto coordinate = [&](Index i) { return system.coordinate_label(i); };
  require_finite(stepper, "q", state.q, coordinate);
  require_finite(stepper, "v", state.v, coordinate);
  require_finite_time(stepper, state);
  if (const std::string undefined = undefined_element(system, state.q); !undefined.empty())
    throw std::invalid_argument(std::string(stepper) + ": at the initial positions, " + undefined);
  require_consistent_initial_values(system, state, stepper);
}

void check_state_sizes(const System& system, const State& state, std::string_view stepper) {
  const Index d = system.num_coordinates();
  require_size(stepper, "q", state.q, d, "coordinates");
  require_size(stepper, "v", state.v, d, "coordinates");
  require_size(stepper, "p", state.p, d, "coordinates", "call initialize(state) first");
  require_size(stepper, "lambda", state.lambda, system.num_multipliers(), "constraint equations",
               "call initialize(state) first");
}

void check_step_input(const System& system, const State& state, double h, std::string_view stepper) {
  if (!std::isfinite(h) || h == 0.0)
    throw std::invalid_argument(std::string(stepper) + ": the time step h must be finite and non-zero, got " +
                                format_number(h));
  check_state_sizes(system, state, stepper);
  const auto coordinate = [&](Index i) { return system.coordinate_label(i); };
  require_finite(stepper, "q", state.q, coordinate);
  require_finite(stepper, "v", state.v, coordinate);
  require_finite(stepper, "p", state.p, coordinate);
  require_finite(stepper, "lambda", state.lambda, [&](Index r) { return system.multiplier_label(r); });
  require_finite_time(stepper, state);
}

void add_newton_work(NewtonReport& total, const NewtonReport& part) {
  total.iterations += part.iterations;
  total.factorizations += part.factorizations;
  total.evaluations += part.evaluations;
  total.matrix_evaluations += part.matrix_evaluations;
  total.timings.assembly += part.timings.assembly;
  total.timings.factorization += part.timings.factorization;
  total.timings.solve += part.timings.solve;
  total.history = part.history;
  total.stalled_residual = std::max(total.stalled_residual, part.stalled_residual);
  total.near_null_directions = std::max(total.near_null_directions, part.near_null_directions);
  if (std::isnan(total.condition_estimate) || part.condition_estimate > total.condition_estimate)
    total.condition_estimate = part.condition_estimate;
}

StepReport take_step_off_singular_nodes(State& state, double h, const std::function<StepReport(State&, double)>& take,
                                        const std::function<StepReport(State&, double)>& take_off_near_null_space) {
  State whole = state;
  std::optional<NewtonError> failure;
  StepReport report;
  try {
    report = take(whole, h);
    if (report.stalled_residual == 0.0) {
      state = std::move(whole);
      return report;
    }
  } catch (const NewtonError& e) {
    if (e.cause() == NewtonError::Cause::rejected) throw;
    failure = e;
    report.iterations += static_cast<int>(e.history().size()) - 1;  // the iterates after the start
  }
  for (double first : {1.0 / 3.0, 2.0 / 3.0}) {
    State split = state;
    StepReport parts;
    parts.substeps = 0;
    parts.smallest_substep = std::abs(h);
    try {
      for (double part : {first * h, h - first * h}) {
        const StepReport r = take(split, part);
        add_newton_work(parts, r);
        parts.work += r.work;
        parts.substeps += r.substeps;
        parts.refinements += r.refinements;
        parts.smallest_substep = std::min(parts.smallest_substep, r.smallest_substep);
      }
    } catch (const NewtonError& e) {
      if (e.cause() == NewtonError::Cause::rejected) throw;
      report.iterations += parts.iterations + static_cast<int>(e.history().size()) - 1;
      continue;
    }
    if (parts.stalled_residual > 0.0) {
      report.iterations += parts.iterations;
      continue;
    }
    parts.iterations += report.iterations;
    parts.refinements += report.refinements + 1;
    parts.step_size = h;
    split.step = state.step + 1;
    split.t = state.t + h;
    state = std::move(split);
    return parts;
  }
  if (take_off_near_null_space) {
    State settled = state;
    try {
      StepReport off = take_off_near_null_space(settled, h);
      if (off.stalled_residual == 0.0) {
        off.iterations += report.iterations;
        off.refinements += report.refinements;
        state = std::move(settled);
        return off;
      }
      report.iterations += off.iterations;
    } catch (const NewtonError& e) {
      if (e.cause() == NewtonError::Cause::rejected) throw;
      report.iterations += static_cast<int>(e.history().size()) - 1;
    }
  }
  if (failure) throw *failure;
  state = std::move(whole);
  return report;
}

void check_stepper_options(const StepperOptions& options) {
  if (options.max_refinement_depth < 0 || options.max_refinement_depth > 30)
    throw std::invalid_argument("the step refinement depth (max_refinement_depth) must be 0 (off) to 30, got " +
                                std::to_string(options.max_refinement_depth));
  if (options.part && !options.distribution)
    throw std::invalid_argument("a stepper over a part of a system (StepperOptions::part) needs the processes that "
                                "hold the others (StepperOptions::distribution)");
  if (options.part && options.redundant_equations == StepperOptions::RedundantEquations::refuse)
    throw std::invalid_argument("the redundancy check factors the whole constraint Jacobian in one process, and this "
                                "stepper holds a part of the system: check the whole system first and set "
                                "redundant_equations to allow");
}


void agree_on_refusal(const Distribution* parts, std::exception_ptr refusal) {
  if (!parts) {
    if (refusal) std::rethrow_exception(refusal);
    return;
  }
  const ProcessError first = first_error(*parts, refusal);
  if (refusal) std::rethrow_exception(refusal);
  if (first.process >= 0)
    throw StepperRefusal("process " + std::to_string(first.process) + " refused its part of the system: " + first.words);
}

const Distribution* part_processes(const StepperOptions& options) {
  return options.part ? options.distribution.get() : nullptr;
}

void check_scheme_parameters(std::string_view stepper, std::span<const SchemeParameter> declared,
                             const StepperOptions& options) {
  for (const auto& [name, value] : options.scheme_parameters) {
    std::string known;
    bool found = false;
    for (const SchemeParameter& p : declared) {
      found = found || p.name == name;
      known += known.empty() ? "" : ", ";
      known += p.name;
    }
    if (found) continue;
    std::string message(stepper);
    message += " has no parameter ";
    message += quote(name);
    message += known.empty() ? "; it takes none" : "; its parameters: " + known;
    throw std::invalid_argument(message);
  }
}

double scheme_parameter(const StepperOptions& options, const SchemeParameter& parameter) {
  const auto given = options.scheme_parameters.find(parameter.name);
  return given == options.scheme_parameters.end() ? parameter.default_value : given->second;
}

void require_unsymmetric_capable_solver(std::string_view stepper, LinearSolverKind kind) {
  if (kind == LinearSolverKind::cholmod)
    throw StepperRefusal(std::string(stepper) +
                         ": CHOLMOD needs a symmetric positive definite matrix, and this stepper's Newton "
                         "matrix is unsymmetric and indefinite; choose --solver auto (the default), klu, umfpack or eigen "
                         "(CHOLMOD serves the SPD projection of initial values)");
}

const System& require_coordinates(const System& system, std::string_view stepper) {
  if (system.num_coordinates() == 0)
    throw StepperRefusal(std::string(stepper) +
                         ": the system has no coordinates; add bodies (Mechanism) or coordinate blocks "
                         "(System::add_block) with their elements before making a stepper");
  return system;
}

void refuse_rheonomic_constraints(const System& system, std::string_view stepper) {
  for (const Placed<Constraint>& e : system.constraints())
    if (e.element->rheonomic())
      throw StepperRefusal(std::string(stepper) + " does not take time-dependent constraints g(q, t) = 0, but constraint " +
                           quote(e.element->name()) + " is one (a driven joint or prescribed motion): its step "
                           "equations have no discrete treatment of the drive; use livens-em or em-ggl (their "
                           "energy balance counts the drive's work exactly), their compositions, ggl-vi, midpoint-vi, "
                           "evi or lobatto4");
}

const System& refuse_actuators(const System& system, std::string_view stepper) {
  if (system.actuators().empty()) return system;
  throw StepperRefusal(std::string(stepper) + ": takes no actuators, and the system has actuator " +
                       quote(system.actuators().front().element->name()) +
                       ": an actuator is a force over a step from q0 to q1 whose work F.(q1 - q0) enters the energy "
                       "balance, and this scheme has no kernel for such a term; use livens-em, em-ggl, their compositions "
                       "(livens-em4, livens-em6, em-ggl4, em-ggl6), evi, midpoint-vi, ggl-vi or lobatto4, which take them");
}

void check_initial_masses(const System& system, ConstVectorRef q, std::string_view stepper) {
  Vector q_local;
  for (const Placed<Inertia>& e : system.inertias()) {
    const Inertia& inertia = *e.element;
    if (inertia.has_constant_mass() || inertia.mass_positivity() != MassPositivity::everywhere) continue;
    gather(q, e.dofs, q_local);
    Matrix M = Matrix::Zero(inertia.local_size(), inertia.local_size());
    inertia.add_mass_matrix(q_local, 1.0, M);
    try {
      check_positive_semidefinite_mass("inertia", inertia.name(), "M(q) at the initial configuration", M);
    } catch (const std::invalid_argument& error) {
      throw StepperRefusal(std::string(stepper) + ": " + error.what());
    }
  }
}

NewtonError with_rank_loss(const System& system, const State& last_good, double h, const NewtonError& error) {
  if (error.cause() == NewtonError::Cause::rejected) return error;
  // Times with ten digits: the failing substep may be shorter than format_number's resolution.
  const auto time = [](double t) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", t);
    return std::string(buffer);
  };
  std::string rank_loss, where;
  for (double fraction : {0.0, 0.5, 1.0}) {  // the failing step's start, middle and end
    rank_loss = describe_rank_loss(system, last_good.q + (fraction * h) * last_good.v);
    if (rank_loss.empty()) continue;
    where = "at t = " + time(last_good.t + fraction * h) +
            (fraction == 0.0 ? " (the last good state)"
                             : " (the failing step's " + std::string(fraction == 0.5 ? "middle" : "end") +
                                   ", predicted from the last good state at t = " + time(last_good.t) + ")");
    break;
  }
  if (rank_loss.empty()) return error;
  if (error.cause() == NewtonError::Cause::singular_matrix)
    return NewtonError(error.context(),
                       error.reason() + " because constraint equations depend on others: " + where + ", " + rank_loss +
                           "; remove the dependent equations (structural_redundancy and without_equations in "
                           "<noether/solvers/redundancy.hpp> find and drop them)",
                       error.history(), "", error.worst_value(), error.worst_scale(), error.cause());
  return NewtonError(error.context(), error.reason(), error.history(),
                     error.worst_row() + "; the mechanism is at or near a singular configuration " + where + ": " + rank_loss +
                         ". Newton cannot settle the multipliers along the lost rank at a node of a step there: take a "
                         "slightly different h, so that no step ends at this instant (step refinement, --refine-depth "
                         "> 0, moves the nodes inside a step, not its end)",
                     error.worst_value(), error.worst_scale(), error.cause());
}

void initialize_momentum(const System& system, State& state) {
  state.p.resize(system.num_coordinates());
  calc_momentum(system, state.q, state.v, state.p);
  state.lambda = Vector::Zero(system.num_multipliers());
}

}  // namespace noether

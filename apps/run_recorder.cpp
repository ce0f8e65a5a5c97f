#include <noether/apps/run_recorder.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <iostream>
#include <stdexcept>

#include <noether/engine/format.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/stepper_registry.hpp>

namespace noether {

RunRecorder::RunRecorder(const Model& model, const RunOptions& options, std::int64_t total_steps,
                         const RunParts* parts)
    : system_(*model.system),
      parts_(parts),
      invariants_(model.invariants),
      probes_(model.probes),
      conserved_momenta_(model.conserved_momenta),
      output_every_(options.output_every),
      writes_rows_(options.output_dir.has_value()),
      initial_t_(model.initial.t),
      g_(system_.num_multipliers()),
      gv_(system_.num_multipliers()) {
  statistics_.momenta_about = conserved_momenta_.about;
  for (std::size_t i = 0; i < probes_.size(); ++i) {
    all_probes_.push_back(i);
    if (probes_[i].summarized) summarized_probes_.push_back(i);
  }
  for (const std::string& name : conserved_momenta_.names()) statistics_.conserved_momenta.push_back({name});
  if (options.progress) progress_.emplace(std::cout, total_steps);
}

void RunRecorder::sum_over_parts(std::span<double> values) const {
  if (parts_) parts_->processes().sum(values);
}

void RunRecorder::sum_over_parts(std::vector<Vector>& values) const {
  if (!parts_) return;
  std::vector<double> summed;
  for (const Vector& value : values) summed.insert(summed.end(), value.begin(), value.end());
  sum_over_parts(summed);
  std::size_t next = 0;
  for (Vector& value : values)
    for (double& x : value) x = summed[next++];
}

std::vector<Vector> RunRecorder::positions(const State& state, std::span<const std::size_t> which) const {
  std::vector<Vector> found;
  for (const std::size_t i : which) {
    const Probe& probe = probes_[i];
    found.push_back(probe.position ? probe.position(state) : Vector(Vector::Zero(probe.dimension)));
  }
  sum_over_parts(found);
  return found;
}

std::vector<Vector> RunRecorder::invariant_values(const State& state) const {
  std::vector<Vector> values;
  for (const Invariant& invariant : invariants_) values.push_back(invariant.value(state));
  if (!parts_) return values;
  for (std::size_t i = 0; i < values.size(); ++i)  // a part that owns none of an invariant's bodies adds zeros
    if (values[i].size() == 0) values[i] = Vector::Zero(parts_->invariant_sizes()[i]);
  sum_over_parts(values);
  return values;
}

std::vector<double> RunRecorder::momentum_values(const State& state) const {
  Momenta m = momenta(system_, state.q, state.v, conserved_momenta_.about);
  if (parts_) {
    std::array<double, 6> summed{m.linear(0), m.linear(1), m.linear(2), m.angular(0), m.angular(1), m.angular(2)};
    sum_over_parts(summed);
    m.linear = {summed[0], summed[1], summed[2]};
    m.angular = {summed[3], summed[4], summed[5]};
  }
  return conserved_momenta_.values(m);
}

void RunRecorder::record_projection(const InitialProjection& projection, std::string note) {
  statistics_.initial_projection = projection;
  statistics_.initial_projection_note = std::move(note);
}

void RunRecorder::record_initial(const State& state, double energy) {
  statistics_.energy_initial = statistics_.energy_final = energy;
  statistics_.energy_max_abs_increment = 0.0;
  statistics_.work_total = statistics_.energy_balance_max_abs = 0.0;
  statistics_.constraint_max_abs = statistics_.velocity_constraint_max_abs = 0.0;
  statistics_.invariant_drifts.clear();
  invariants_initial_ = invariant_values(state);
  for (const Invariant& invariant : invariants_) statistics_.invariant_drifts.emplace_back(invariant.name, 0.0);
  statistics_.probe_maxima.clear();
  for (const std::size_t i : summarized_probes_) statistics_.probe_maxima.emplace_back(probes_[i].name, 0.0);
  if (!statistics_.conserved_momenta.empty()) {
    const std::vector<double> values = momentum_values(state);
    for (std::size_t i = 0; i < values.size(); ++i) {
      statistics_.conserved_momenta[i].initial = values[i];
      statistics_.conserved_momenta[i].drift = 0.0;
    }
  }
  measure(state, {.energy = energy, .work = 0.0});
  started_ = true;
}

void RunRecorder::record_step(const State& state, double energy, const StepReport& report) {
  record_refinement(state, report.step_size, report);
  RunStatistics& s = statistics_;
  s.newton_iterations_total += report.iterations;
  s.newton_factorizations_total += report.factorizations;
  if (report.stalled_residual > 0.0) {
    ++s.newton_stalled_steps;
    s.newton_stalled_residual_max = std::max(s.newton_stalled_residual_max, report.stalled_residual);
  }
  if (s.newton_evaluations) {
    s.newton_evaluations->residuals += report.evaluations;
    s.newton_evaluations->with_matrix += report.matrix_evaluations;
  }
  s.phase_seconds.assembly += report.timings.assembly;
  s.phase_seconds.factorization += report.timings.factorization;
  s.phase_seconds.solve += report.timings.solve;
  s.newton_iterations_max = std::max(s.newton_iterations_max, report.iterations);
  const auto keep = [](double& kept, double value, auto better) {
    if (std::isnan(kept) || better(value, kept)) kept = value;
  };
  keep(s.step_size_min, report.step_size, std::less<>());
  keep(s.step_size_max, report.step_size, std::greater<>());
  if (!std::isnan(report.condition_estimate))
    keep(s.condition_estimate_max, report.condition_estimate, std::greater<>());
  const double balance = record_balance(energy, report.work);
  if (std::isnan(s.energy_initial)) {
    // A scheme whose energy its first step defines (sem-vi): the energy starts there.
    s.energy_initial = energy;
  } else {
    s.energy_max_abs_increment = std::max(s.energy_max_abs_increment, std::abs(energy - s.energy_final));
  }
  s.energy_final = energy;
  measure(state, {energy, s.work_total, balance, report.step_size, report.condition_estimate});
  s.steps = state.step;
  if (progress_) progress_->update(state.step, state.t, report.iterations);
}

double RunRecorder::record_balance(double energy, double work) {
  RunStatistics& s = statistics_;
  s.work_total += work;
  const double balance = energy - s.energy_final - work;
  if (!std::isnan(balance)) s.energy_balance_max_abs = std::max(s.energy_balance_max_abs, std::abs(balance));
  return balance;
}

void RunRecorder::record_refinement(const State& state, double h, const StepReport& report) {
  // Refined: a Newton failure split a step of the scheme. A composition's substeps are its scheme,
  // so its step counts as refined by its own refinements, not by taking more than one substep.
  const bool refined = report.refinements > 0;
  const double smallest = refined ? report.smallest_substep : std::abs(h);
  statistics_.smallest_substep =
      std::min(std::isnan(statistics_.smallest_substep) ? smallest : statistics_.smallest_substep, smallest);
  if (!refined) return;
  ++statistics_.refined_steps;
  if (statistics_.refinements.size() < RunStatistics::kMaxListedRefinements)
    statistics_.refinements.push_back({state.step, state.t - h, report.substeps, report.smallest_substep});
}

void RunRecorder::record_last_good() {
  if (!started_ || alone_ || last_row_step_ == last_good_.step) return;
  calc_constraint_values(system_, last_good_.q, g_, last_good_.t);  // g_ may hold a later state's, refused as not finite
  write_outputs(last_good_, last_);
}

void RunRecorder::write_outputs(const State& state, const RowMeasures& measures) {
  if (alone_) return;
  if (vtk_) {
    double g_max = max_abs(g_);
    if (parts_) parts_->processes().max(std::span<double>(&g_max, 1));
    // The drawing first: a drawing that cannot be written leaves no row of its state behind it.
    vtk_->write(state, measures.energy, g_max);
  }
  if (writes_rows_) write_row(state, measures);
  last_row_step_ = state.step;
}

void RunRecorder::write_row(const State& state, const RowMeasures& measures) {
  RowValues values;
  values.probes = probe_positions(state);
  values.total_energy = kinetic_energy(system_, state.q, state.v) + potential_energy(system_, state.q);
  sum_over_parts(std::span<double>(&values.total_energy, 1));
  if (!conserved_momenta_.empty()) values.momenta = momentum_values(state);
  if (reactions_) values.reactions = reactions_->values(state);
  if (parts_ && reactions_) values.reactions = parts_->whole_reactions(values.reactions);
  if (!parts_) {
    if (csv_) csv_->write_row(state, g_, measures, values);
    return;
  }
  // q's values, then g's, brought to rank 0 as it writes the row, every process taking both
  // (also when rank 0 cannot write the row, or writes none).
  bool q_brought = false, g_brought = false;
  const TimeseriesCsv::ValueSource q = [&](const std::function<void(double)>& value) {
    q_brought = true;
    parts_->for_each_value(false, state.q, value);
  };
  const TimeseriesCsv::ValueSource g = [&](const std::function<void(double)>& value) {
    g_brought = true;
    parts_->for_each_value(true, g_, value);
  };
  const auto bring_the_rest = [&] {
    const std::function<void(double)> nothing = [](double) {};
    if (!q_brought) q(nothing);
    if (!g_brought) g(nothing);
  };
  if (csv_) {
    try {
      csv_->write_row(state.t, q, g, measures, values);
    } catch (...) {
      bring_the_rest();
      throw;
    }
  }
  bring_the_rest();
}

std::pair<std::int64_t, double> RunRecorder::unfinished_step() const {
  if (!started_) return {0, initial_t_};
  return {statistics_.steps + 1, statistics_.t_reached};
}

void RunRecorder::finish() {
  if (progress_) progress_->finish();
}

RunRecorder::Continuation RunRecorder::continuation() const {
  return {invariants_initial_, last_.energy, last_.h, last_.condition, last_.balance, last_row_step_};
}

void RunRecorder::resume(const State& state, const RunStatistics& saved, const Continuation& continuation) {
  statistics_ = saved;
  if (statistics_.probe_maxima.size() != summarized_probes_.size())
    throw std::runtime_error("the checkpoint holds the maxima of " + std::to_string(statistics_.probe_maxima.size()) +
                             " summarized probes, the model has " + std::to_string(summarized_probes_.size()) +
                             "; resume it with the model it was written for");
  statistics_.momenta_about = conserved_momenta_.about;  // the model's, which a checkpoint does not save
  invariants_initial_ = continuation.invariants_initial;
  last_ = {continuation.energy_last, statistics_.work_total, continuation.balance_last, continuation.step_size_last,
           continuation.condition_last};
  last_row_step_ = continuation.last_row_step;
  calc_constraint_values(system_, state.q, g_, state.t);  // the last state's row, should the run stop before its next
  calc_velocity_constraint_values(system_, state.q, state.v, gv_, state.t);
  started_ = true;
}

void RunRecorder::measure_probe_maxima(const State& state) {
  if (summarized_probes_.empty()) return;
  const std::vector<Vector> summarized = positions(state, summarized_probes_);
  for (std::size_t i = 0; i < summarized_probes_.size(); ++i) {
    double& largest = statistics_.probe_maxima[i].second;
    largest = std::max(largest, max_abs(summarized[i]));
  }
}

void RunRecorder::measure_momenta(const State& state) {
  if (statistics_.conserved_momenta.empty()) return;
  const std::vector<double> values = momentum_values(state);
  for (std::size_t i = 0; i < values.size(); ++i) {
    RunStatistics::ConservedMomentum& c = statistics_.conserved_momenta[i];
    c.final = values[i];
    c.drift = std::max(c.drift, std::abs(values[i] - c.initial));
  }
}

void RunRecorder::require_finite_measures(const State& state, double g_max, double gv_max, double energy) {
  const char* what = !std::isfinite(g_max)    ? "constraint residual g(q)"
                     : !std::isfinite(gv_max) ? "velocity constraint residual G(q) v"
                     : std::isinf(energy) ? "energy"
                                          : nullptr;
  if (!what) return;
  throw std::runtime_error("the " + std::string(what) + " of the state at step " + std::to_string(state.step) +
                           " (t = " + format_number(state.t) +
                           ") is not finite: the motion left the range of double precision; check the initial "
                           "values and parameters (a velocity or a mass of an absurd size)");
}

void RunRecorder::measure(const State& state, const RowMeasures& measures) {
  calc_constraint_residuals(system_, state.q, state.v, g_, gv_, state.t);
  std::array<double, 2> largest{max_abs(g_), max_abs(gv_)};  // NaN or infinite when an entry is
  if (parts_) parts_->processes().max(largest);
  const auto [g_max, gv_max] = largest;
  statistics_.constraint_max_abs = std::max(statistics_.constraint_max_abs, g_max);
  statistics_.velocity_constraint_max_abs = std::max(statistics_.velocity_constraint_max_abs, gv_max);
  require_finite_measures(state, g_max, gv_max, measures.energy);
  const std::vector<Vector> invariants = invariant_values(state);
  for (std::size_t i = 0; i < invariants.size(); ++i) {
    double& drift = statistics_.invariant_drifts[i].second;
    drift = std::max(drift, max_abs(invariants[i] - invariants_initial_[i]));
  }
  measure_probe_maxima(state);
  measure_momenta(state);
  if (state.step % output_every_ == 0) write_outputs(state, measures);
  last_ = measures;
  last_good_ = state;
  statistics_.t_reached = state.t;
}

}  // namespace noether

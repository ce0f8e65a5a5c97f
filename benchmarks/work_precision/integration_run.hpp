#pragma once
/// What one timed integration of a comparison case from the release to t_end gave, in either
/// engine. Shared by the Simbody side (compiled as C++17: Simbody 3.7's headers do not compile as
/// C++20) and the rest of the benchmark, so it uses Eigen and the standard library only.
#include <string>
#include <vector>

#include <Eigen/Core>

namespace noether::work_precision {

struct IntegrationRun {
  /// The probe at t_end k/samples, k = 1 .. samples (the last at t_end); after a failure, at the
  /// sample times reached before it.
  std::vector<Eigen::Vector3d> probe;
  /// Wall-clock seconds; run_noether and SimbodyMechanism::run say what they cover.
  double seconds = 0.0;
  /// The part of `seconds` before the first step: Noether's stepper construction (assembly plan,
  /// pattern analysis) and initialize; Simbody's integrator construction and initialize.
  double setup_seconds = 0.0;
  /// Steps taken: Noether's steps of h (a composed stepper's substeps and refined steps not counted
  /// apart), Simbody's successful integrator steps.
  long steps = 0;
  /// Noether: steps that Newton could not take whole and were refined (halved); Simbody: failed
  /// step attempts (error test, convergence, projection).
  long retries = 0;
  /// Noether: steps with a Newton solve accepted stalled (NewtonReport::stalled_residual, near a
  /// singular configuration); Simbody: 0.
  long stalled_steps = 0;
  /// Empty when t_end was reached; otherwise why not (the engine's message, or the time limit).
  std::string failure;
  /// The run was abandoned at its time limit.
  bool timed_out = false;
};

/// What a run's seconds count: the wall clock, or the CPU time of the process (on a machine shared
/// with other work, where the wall clock carries their load; for a run on one thread the two agree
/// on a quiet machine).
enum class TimeMeasure { wall, cpu };

/// Seconds since construction, as `measure` counts them.
class RunClock {
 public:
  explicit RunClock(TimeMeasure measure);
  double elapsed() const;

 private:
  TimeMeasure measure_;
  double start_;
};

/// "abandoned: over the time limit of S s at t = T".
std::string abandoned_message(double time_limit, double t);

}  // namespace noether::work_precision

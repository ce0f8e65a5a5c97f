#pragma once
/// A one-line progress display for a terminal, redrawn in place with a carriage return.
#include <chrono>
#include <cstdint>
#include <ostream>

namespace noether {

class ProgressLine {
 public:
  ProgressLine(std::ostream& out, std::int64_t total_steps);

  /// Redraws "step n/N  t = ...  Newton iterations k", at most ten times a second and
  /// always for the last step.
  void update(std::int64_t step, double t, int newton_iterations);
  /// Ends the line (when anything was drawn) so that later output starts on a fresh line.
  void finish();

 private:
  std::ostream& out_;
  std::int64_t total_steps_;
  std::chrono::steady_clock::time_point last_draw_;
  bool drawn_ = false;
};

}  // namespace noether

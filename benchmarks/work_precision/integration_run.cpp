#include "integration_run.hpp"

#include <time.h>

namespace noether::work_precision {
namespace {

double now(TimeMeasure measure) {
  timespec t{};
  clock_gettime(measure == TimeMeasure::cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

RunClock::RunClock(TimeMeasure measure) : measure_(measure), start_(now(measure)) {}

double RunClock::elapsed() const { return now(measure_) - start_; }

std::string abandoned_message(double time_limit, double t) {
  std::string message = "abandoned: over the time limit of ";
  message += std::to_string(time_limit);
  message += " s at t = ";
  message += std::to_string(t);
  return message;
}

}  // namespace noether::work_precision

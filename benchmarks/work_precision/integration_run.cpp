#include "integration_run.hpp"

namespace noether::work_precision {

std::string abandoned_message(double time_limit, double t) {
  std::string message = "abandoned: over the time limit of ";
  message += std::to_string(time_limit);
  message += " s at t = ";
  message += std::to_string(t);
  return message;
}

}  // namespace noether::work_precision

#include <noether/joints/linear_damper.hpp>

#include <stdexcept>
#include <string>

namespace noether {

LinearDamper::LinearDamper(std::string name, std::vector<BlockId> blocks, Index size, const Matrix& C)
    : Dissipation(std::move(name), std::move(blocks)), damping_(C) {
  std::string problem;
  if (C.rows() != size || C.cols() != size)
    problem = "C is " + std::to_string(C.rows()) + " x " + std::to_string(C.cols()) + ", the damper has " +
              std::to_string(size) + " coordinates";
  else if (!C.allFinite())
    problem = "C is not finite";
  else if (C != C.transpose())
    problem = "C is not symmetric; give (C + C^T)/2, a skew part does no work and is a gyroscopic force";
  if (problem.empty()) return;
  std::string message = "damper '";
  message += this->name();
  message += "': ";
  message += problem;
  throw std::invalid_argument(message);
}

}  // namespace noether

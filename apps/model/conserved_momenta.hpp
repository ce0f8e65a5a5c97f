#pragma once
/// The components of the linear and angular momentum a model declares conserved, which the run
/// reports (summary.json `conserved_momenta`, timeseries.csv columns): the model declares them,
/// from its symmetries, rather than the engine inferring them, because an element's invariance
/// under a rigid motion is not something the element interfaces state (a grounded joint or gravity
/// keeps some components and not others). The values come from the engine's momentum map
/// (engine/measures.hpp, momenta): L and J of the bodies at (q, v), J about `about`.
#include <array>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <noether/engine/rigid_motion.hpp>

namespace noether {

struct ConservedMomenta {
  std::array<bool, 3> linear{};   ///< L_x, L_y, L_z
  std::array<bool, 3> angular{};  ///< J_x, J_y, J_z (about `about`)
  Eigen::Vector3d about = Eigen::Vector3d::Zero();

  bool empty() const;
  /// "linear_momentum.x", ..., "angular_momentum.z", for the components declared, in that order.
  std::vector<std::string> names() const;
  /// Their values in m (same order as names()).
  std::vector<double> values(const Momenta& m) const;
};

}  // namespace noether

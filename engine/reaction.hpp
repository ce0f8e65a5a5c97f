#pragma once
/// Joint reactions: the force and moment a constraint exerts on the body it reports (a joint's
/// second body), from the multipliers of a step.
///
/// Every scheme's momentum balance carries the constraint force as -G^T lambda (p1 - p0 = ...
/// - h G^T lambda, steppers/*.hpp), so the generalized force a constraint exerts on its local
/// coordinates is f = -G(q)^T lambda (n entries; lambda its m rows). The element's ReactionSite
/// turns the part of f on the reported body's coordinates into a force and a moment (a wrench);
/// the engine knows neither the body's layout nor the joint's frame.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <noether/engine/state.hpp>
#include <noether/engine/types.hpp>

namespace noether {

class System;

/// A wrench on one body. force: world components (planar: (fx, fy, 0)); moment: world components
/// about the reporting point (planar: (0, 0, mz)). dimension: 2 or 3; has_moment: false for a body
/// without orientation (a point mass: the moment is zero and not reported). has_frame: the joint
/// has a frame on the body, and force_in_frame / moment_in_frame are the same vectors in its axes
/// (planar: the force in the frame's two axes, the moment mz unchanged).
struct Reaction {
  std::string joint;
  Index dimension = 3;
  bool has_moment = true;
  Eigen::Vector3d force = Eigen::Vector3d::Zero();
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  bool has_frame = false;
  Eigen::Vector3d force_in_frame = Eigen::Vector3d::Zero();
  Eigen::Vector3d moment_in_frame = Eigen::Vector3d::Zero();
};

/// What a constraint reports its reaction on: one of its blocks (a body) and how a generalized
/// force on that block's coordinates is a wrench about the constraint's point on it.
class ReactionSite {
 public:
  virtual ~ReactionSite() = default;
  /// The index, in Element::blocks(), of the block the reaction acts on.
  virtual Index block_position() const = 0;
  /// The reaction's name, dimension, has_moment and has_frame, its vectors zero: what every
  /// calc_reaction of the site reports (the columns of an output, known before any state).
  virtual Reaction layout() const = 0;
  /// The wrench of the generalized force f on the block's coordinates q (both of the block's
  /// size), with name, dimension, moment and frame filled as Reaction states.
  virtual Reaction calc_reaction(ConstVectorRef q, ConstVectorRef f) const = 0;
};

/// The reaction of every constraint that has a ReactionSite, in the system's constraint order, at
/// the configuration q (num_coordinates()) with the multipliers lambda (num_multipliers(), in the
/// sign of the steppers: the force on the coordinates is -G(q)^T lambda). Throws
/// std::invalid_argument naming the sizes when q or lambda has the wrong size. t: the time of q, at
/// which a rheonomic constraint's G(q, t) is taken (the others do not read it). A driven joint's
/// reaction holds the force or torque its drive needs (joints/driven_revolute.hpp).
std::vector<Reaction> joint_reactions(const System& system, ConstVectorRef q, ConstVectorRef lambda, double t = 0.0);

/// The layout() of every constraint that has a ReactionSite, in the order joint_reactions reports.
std::vector<Reaction> reaction_layouts(const System& system);

/// joint_reactions at a stepper's state: reads state.q (q_{n+1}) and state.lambda (the
/// multipliers of the step that led to it; zero in an initial state, which has no step). The
/// reaction is the step's where state.lambda is the step's constraint force (livens-em, em-ggl,
/// ggl-vi, lobatto4, their compositions); evi, midpoint-vi and sem-vi keep only RATTLE's first
/// half-impulse mu / h there, and give about half of it (docs/output.md, "Joint reactions").
std::vector<Reaction> joint_reactions(const System& system, const State& state);

}  // namespace noether

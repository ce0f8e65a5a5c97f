#pragma once
/// The joints' reaction columns of timeseries.csv (`--reactions on`, docs/output.md "Joint
/// reactions"): reaction:<joint>.<component> per joint and component, and their values at a state.
#include <string>
#include <vector>

#include <noether/engine/reaction.hpp>
#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>

namespace noether {

class ReactionColumns {
 public:
  /// The columns of `model`'s joints (reaction_layouts, its constraint order), whose values are
  /// read off `stepped`: the system the stepper steps (model, or model without its dropped
  /// equations), whose multipliers the states hold. Both must outlive this object.
  ReactionColumns(const System& model, const System& stepped);

  /// Each column's name, in order.
  std::vector<std::string> labels() const;
  /// Each column's value at state (joint_reactions of the stepped system: q_{n+1} and the step's
  /// multipliers). A joint whose equations were all dropped as dependent carries none (0: the
  /// kept equations carry its share).
  std::vector<double> values(const State& state) const;
  /// Each joint's number of columns (reaction_components of its layout), in order.
  std::vector<Index> counts() const;
  /// Each joint's constraint, its index in the model's constraints().
  const std::vector<std::size_t>& constraints() const { return constraints_; }

 private:
  const System& stepped_;
  std::vector<Reaction> layouts_;        ///< of the model: the columns' joints
  std::vector<std::size_t> constraints_;  ///< of each layout
};

}  // namespace noether

#include <noether/engine/reaction.hpp>

#include <stdexcept>

#include <noether/engine/system.hpp>

namespace noether {

std::vector<Reaction> joint_reactions(const System& system, ConstVectorRef q, ConstVectorRef lambda, double t) {
  if (q.size() != system.num_coordinates() || lambda.size() != system.num_multipliers())
    throw std::invalid_argument("joint_reactions: q has " + std::to_string(q.size()) + " entries and lambda " +
                                std::to_string(lambda.size()) + ", but the system has " +
                                std::to_string(system.num_coordinates()) + " coordinates and " +
                                std::to_string(system.num_multipliers()) + " multipliers");
  std::vector<Reaction> reactions;
  Vector q_local;
  for (const Placed<Constraint>& placed : system.constraints()) {
    const ReactionSite* site = placed.element->reaction_site();
    if (!site) continue;
    gather(q, placed.dofs, q_local);
    const Index m = placed.element->num_equations();
    Matrix G(m, q_local.size());
    placed.element->calc_jacobian_at(t, q_local, G);
    const Vector f = -G.transpose() * lambda.segment(placed.first_multiplier, m);
    const std::span<const BlockId> blocks = placed.element->blocks();
    Index offset = 0;
    for (Index k = 0; k < site->block_position(); ++k) offset += system.block(blocks[k]).size();
    const Index size = system.block(blocks[site->block_position()]).size();
    reactions.push_back(site->calc_reaction(q_local.segment(offset, size), f.segment(offset, size)));
  }
  return reactions;
}

std::vector<Reaction> reaction_layouts(const System& system) {
  std::vector<Reaction> layouts;
  for (const Placed<Constraint>& placed : system.constraints())
    if (const ReactionSite* site = placed.element->reaction_site()) layouts.push_back(site->layout());
  return layouts;
}

std::vector<Reaction> joint_reactions(const System& system, const State& state) {
  return joint_reactions(system, state.q, state.lambda, state.t);
}

}  // namespace noether

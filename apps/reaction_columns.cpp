#include <noether/apps/reaction_columns.hpp>

#include <noether/apps/model/output_columns.hpp>

namespace noether {

ReactionColumns::ReactionColumns(const System& model, const System& stepped) : stepped_(stepped) {
  const auto placed = model.constraints();
  for (std::size_t c = 0; c < placed.size(); ++c)
    if (const ReactionSite* site = placed[c].element->reaction_site()) {
      layouts_.push_back(site->layout());
      constraints_.push_back(c);
    }
}

std::vector<std::string> ReactionColumns::labels() const {
  std::vector<std::string> names;
  for (const Reaction& layout : layouts_)
    for (const ReactionComponent& c : reaction_components(layout)) names.push_back(reaction_column(layout.joint, c.name));
  return names;
}

std::vector<double> ReactionColumns::values(const State& state) const {
  // The stepped system keeps the model's joints in order, less those whose every equation was dropped.
  const std::vector<Reaction> reactions = joint_reactions(stepped_, state);
  std::vector<double> values;
  auto next = reactions.begin();
  for (const Reaction& layout : layouts_) {
    const bool stepped = next != reactions.end() && next->joint == layout.joint;
    for (const ReactionComponent& c : reaction_components(stepped ? *next : layout)) values.push_back(c.value);
    if (stepped) ++next;
  }
  return values;
}

std::vector<Index> ReactionColumns::counts() const {
  std::vector<Index> counts;
  for (const Reaction& layout : layouts_) counts.push_back(static_cast<Index>(reaction_components(layout).size()));
  return counts;
}

}  // namespace noether

#include <noether/apps/model/output_columns.hpp>

#include <algorithm>
#include <array>
#include <vector>

#include <noether/engine/quote.hpp>

namespace noether {

std::string coordinate_column(std::string_view label) {
  std::string column(kCoordinateColumnPrefix);
  column += label;
  return column;
}

std::string probe_column(std::string_view probe, Index axis) {
  static constexpr std::array<char, 3> axes{'x', 'y', 'z'};
  std::string column(probe);
  column += '.';
  column += axes.at(static_cast<std::size_t>(axis));
  return column;
}

std::string probe_name_clash(const System& system, std::span<const Probe> earlier, const ConservedMomenta& momenta,
                             const std::string& name, Index dimension) {
  const auto same = std::find_if(earlier.begin(), earlier.end(), [&](const Probe& p) { return p.name == name; });
  if (same != earlier.end())
    return "probe " + std::to_string(same - earlier.begin()) + " is named " + quote(name) +
           " too; a probe's name heads its columns (" + escaped(probe_column(name, 0)) +
           ", ...) and its entry in final_state.json: give each probe its own name";
  const std::vector<std::string> momentum_columns = momenta.names();
  for (Index axis = 0; axis < dimension; ++axis) {
    const std::string column = probe_column(name, axis);
    const std::string_view label = std::string_view(column).substr(kCoordinateColumnPrefix.size());
    const std::string what =
        column.starts_with(kCoordinateColumnPrefix) && system.find_coordinate(label) ? "the coordinate " + escaped(label)
        : std::find(momentum_columns.begin(), momentum_columns.end(), column) != momentum_columns.end()
            ? std::string("the conserved momentum component")
            : std::string();
    if (!what.empty())
      return "probe " + quote(name) + " would write the column " + escaped(column) + ", which " + what +
             " heads already; rename the probe";
  }
  return "";
}

std::vector<ReactionComponent> reaction_components(const Reaction& reaction) {
  std::vector<ReactionComponent> components{{"fx", reaction.force(0)}, {"fy", reaction.force(1)}};
  if (reaction.dimension == 3) components.push_back({"fz", reaction.force(2)});
  if (!reaction.has_moment) return components;
  if (reaction.dimension == 3) {
    components.push_back({"mx", reaction.moment(0)});
    components.push_back({"my", reaction.moment(1)});
  }
  components.push_back({"mz", reaction.moment(2)});
  return components;
}

std::string reaction_column(std::string_view joint, std::string_view component) {
  return "reaction:" + std::string(joint) + "." + std::string(component);
}

}  // namespace noether

#include <noether/apps/scene_elements.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <noether/apps/model/model_builder.hpp>

namespace noether {
namespace {

static_assert(std::variant_size_v<SceneElement> == kSceneLists.size(), "one alternative per list");

/// The description's list of T's.
template <class T>
std::vector<T>& list_in(ModelDescription& m) {
  if constexpr (std::is_same_v<T, BodyDescription>) return m.bodies;
  else if constexpr (std::is_same_v<T, MassMatrixDescription>) return m.inertias;
  else if constexpr (std::is_same_v<T, JointDescription>) return m.joints;
  else if constexpr (std::is_same_v<T, ConstraintDescription>) return m.constraints;
  else if constexpr (std::is_same_v<T, DriveDescription>) return m.drives;
  else if constexpr (std::is_same_v<T, ForceDescription>) return m.forces;
  else if constexpr (std::is_same_v<T, ActuatorDescription>) return m.actuators;
  else if constexpr (std::is_same_v<T, ProbeDescription>) return m.probes;
  else return m.invariants;
}

/// The entry list of a list kind from inertias to actuators (EntryList's order follows
/// SceneListKind's from inertias on).
EntryList entry_list_of(SceneListKind kind) { return static_cast<EntryList>(static_cast<int>(kind) - 1); }

bool is_entry_list(SceneListKind kind) { return kind != SceneListKind::bodies && kind < SceneListKind::probes; }

bool holds(const std::vector<Index>& ascending, Index value) { return std::ranges::binary_search(ascending, value); }

}  // namespace

void SceneDescription::add(std::size_t, SceneElement element) {
  std::visit([&](auto& e) { list_in<std::decay_t<decltype(e)>>(model_).push_back(std::move(e)); }, element);
}

void SceneOutliner::add(std::size_t index, SceneElement element) {
  const auto kind = static_cast<SceneListKind>(element.index());
  std::visit(
      [&](auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, BodyDescription>) {
          body_names_.push_back(name_of(e));
          body_sizes_.push_back(coordinates_of(e));
          (std::holds_alternative<RigidBodyDescription>(e) ? outline_.rigid_bodies : outline_.other_bodies) += 1;
        } else if constexpr (std::is_same_v<T, ProbeDescription> || std::is_same_v<T, InvariantDescription>) {
          list_in<T>(outline_.model_wide).push_back(std::move(e));
        } else {
          if (!builds_one_element(e)) outline_.gravity.push_back(static_cast<Index>(index));
          add_entry(entry_list_of(kind), e);
        }
      },
      element);
}

template <class Entry>
void SceneOutliner::add_entry(EntryList list, const Entry& entry) {
  EntryNames& e = entries_[static_cast<std::size_t>(list)];
  for (const std::string* name : entry_body_names(entry)) e.names.push_back(*name);
  e.starts.push_back(static_cast<Index>(e.names.size()));
}

SceneOutline SceneOutliner::finish() {
  const BodyIndex index(body_names_);
  for (const Index size : body_sizes_) outline_.outline.add_body(size);
  std::vector<Index> bodies;
  for (const SceneListName& list : kSceneLists) {
    if (!is_entry_list(list.kind)) continue;
    const EntryNames& e = entries_[static_cast<std::size_t>(entry_list_of(list.kind))];
    for (std::size_t i = 0; i + 1 < e.starts.size(); ++i) {
      bodies.clear();
      try {
        for (auto n = e.starts[i]; n < e.starts[i + 1]; ++n) bodies.push_back(index[e.names[static_cast<std::size_t>(n)]]);
      } catch (const std::invalid_argument& error) {
        throw ModelDescriptionError(std::string(list.key), i, "", error.what());
      }
      const auto entry = static_cast<Index>(i);
      if (list.kind == SceneListKind::forces && holds(outline_.gravity, entry)) continue;
      outline_.outline.add_element(entry_list_of(list.kind), entry, bodies);
    }
  }
  require_listed_bodies(index, outline_.model_wide);
  return std::move(outline_);
}

ScenePartElements::ScenePartElements(const SceneOutline& outline, const PartSelection& selection)
    : selection_(selection), gravity_(outline.gravity), sizes_(outline.outline.block_sizes()) {
  part_.description = outline.model_wide;
  offsets_.reserve(sizes_.size());
  for (const Index size : sizes_) {
    offsets_.push_back(part_.whole_coordinates);
    part_.whole_coordinates += size;
  }
}

bool ScenePartElements::reads(SceneListKind list, std::size_t index) const {
  const auto i = static_cast<Index>(index);
  if (list == SceneListKind::bodies) return selection_.bodies[index] != BodyRole::absent;
  if (!is_entry_list(list)) return false;  // the model-wide items: the outline's
  return (list == SceneListKind::forces && holds(gravity_, i)) ||
         holds(selection_.described[static_cast<std::size_t>(entry_list_of(list))], i);
}

void ScenePartElements::add(std::size_t index, SceneElement element) {
  const auto kind = static_cast<SceneListKind>(element.index());
  const auto i = static_cast<Index>(index);
  std::visit(
      [&](auto& e) {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, ProbeDescription> || std::is_same_v<T, InvariantDescription>) {
          throw std::logic_error("ScenePartElements: " + std::string(kSceneLists[element.index()].what) +
                                 " handed over, which reads() declines (the outline holds them)");
        } else {
          if constexpr (std::is_same_v<T, BodyDescription>) {
            part_.roles.push_back(selection_.bodies[index]);
            part_.body_numbers.push_back(i);
            part_.body_offsets.push_back(offsets_[index]);
          } else {
            const auto l = static_cast<std::size_t>(entry_list_of(kind));
            part_.entry_numbers[l].push_back(i);
            part_.builds[l].push_back(!builds_one_element(e) || holds(selection_.built[l], i));
          }
          list_in<T>(part_.description).push_back(std::move(e));
        }
      },
      element);
}

PartDescription ScenePartElements::finish() { return std::move(part_); }

}  // namespace noether

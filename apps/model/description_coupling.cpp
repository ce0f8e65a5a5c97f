#include <noether/apps/model/description_coupling.hpp>

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// The given names; an empty one (the ground) left out.
EntryBodyNames sides(std::initializer_list<const std::string*> names) {
  EntryBodyNames kept;
  for (const std::string* name : names)
    if (!name->empty()) kept.push_back(name);
  return kept;
}

EntryBodyNames listed(const std::vector<std::string>& names) {
  EntryBodyNames all;
  for (const std::string& name : names) all.push_back(&name);
  return all;
}

/// Visits each entry of `list` in order that builds one element, with its bodies' indices; the
/// bodies of the others (gravity) must exist all the same.
template <class Entries, class Visit>
void walk_list(const BodyIndex& index, EntryList list, const Entries& entries, const Visit& visit) {
  std::vector<Index> blocks;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    blocks.clear();
    for (const std::string* name : entry_body_names(entries[i])) blocks.push_back(index[*name]);
    if (builds_one_element(entries[i])) visit(list, i, std::span<const Index>(blocks));
  }
}

}  // namespace

EntryBodyNames entry_body_names(const MassMatrixDescription& inertia) { return listed(inertia.bodies); }
EntryBodyNames entry_body_names(const JointDescription& joint) { return sides({&joint.a.body, &joint.b.body}); }
EntryBodyNames entry_body_names(const ConstraintDescription& constraint) {
  return std::visit([](const auto& k) { return listed(k.bodies); }, constraint);
}
EntryBodyNames entry_body_names(const DriveDescription& drive) { return sides({&drive.a.body, &drive.b.body}); }

EntryBodyNames entry_body_names(const ForceDescription& force) {
  return std::visit(
      [](const auto& f) {
        using T = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<T, GravityDescription> || std::is_same_v<T, DampingMatrixDescription>)
          return listed(f.bodies);
        else if constexpr (std::is_same_v<T, SpringDescription> || std::is_same_v<T, DamperDescription>)
          return sides({&f.points.body_a, &f.points.body_b});
        else if constexpr (std::is_same_v<T, RotationalSpringDescription> || std::is_same_v<T, RotationalDamperDescription>)
          return sides({&f.hinge.body_a, &f.hinge.body_b});
        else
          return sides({&f.body});
      },
      force);
}

EntryBodyNames entry_body_names(const ActuatorDescription& actuator) {
  return std::visit([](const auto& c) { return sides({&c.body_a, &c.body_b}); }, actuator.coordinate);
}

BodyIndex::BodyIndex(std::span<const std::string> names) {
  index_.reserve(names.size());
  for (const std::string& name : names) add(name);
}

BodyIndex::BodyIndex(const std::vector<BodyDescription>& bodies) {
  index_.reserve(bodies.size());
  for (const BodyDescription& body : bodies) add(name_of(body));
}

void BodyIndex::add(const std::string& name) {
  if (!index_.emplace(name, static_cast<Index>(index_.size())).second)
    throw std::invalid_argument("two bodies are named " + quote(name) + "; body names must be unique");
}

Index BodyIndex::operator[](const std::string& name) const {
  const auto found = index_.find(name);
  if (found == index_.end()) throw std::invalid_argument("no body named " + quote(name) + " in the model");
  return found->second;
}

Index coordinates_of(const BodyDescription& body) {
  return std::visit(
      [](const auto& b) -> Index {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, RigidBodyDescription>) return 12;
        else if constexpr (std::is_same_v<T, PlanarBodyDescription>) return 6;
        else if constexpr (std::is_same_v<T, PointMassDescription>) return b.position.size();
        else if constexpr (std::is_same_v<T, SphericalPointMassDescription>) return 3;
        else return static_cast<Index>(b.coordinates.size());
      },
      body);
}

void for_each_entry_element(const ModelDescription& d,
                            const std::function<void(EntryList, std::size_t, std::span<const Index>)>& visit) {
  const BodyIndex index(d.bodies);
  walk_list(index, EntryList::inertias, d.inertias, visit);
  walk_list(index, EntryList::joints, d.joints, visit);
  walk_list(index, EntryList::constraints, d.constraints, visit);
  walk_list(index, EntryList::drives, d.drives, visit);
  walk_list(index, EntryList::forces, d.forces, visit);
  walk_list(index, EntryList::actuators, d.actuators, visit);
}

void DescriptionOutline::add_element(EntryList list, Index index, std::span<const Index> bodies) {
  const auto code = static_cast<std::uint8_t>(list);
  if (!entries_.empty() && (code < lists_.back() || (code == lists_.back() && index <= entries_.back())))
    throw std::invalid_argument("an outline's elements follow the entry lists' order: entry " + std::to_string(index) +
                                " of list " + std::to_string(code) + " came after entry " + std::to_string(entries_.back()) +
                                " of list " + std::to_string(lists_.back()));
  for (const Index b : bodies)
    if (b < 0 || b >= static_cast<Index>(sizes_.size()))
      throw std::invalid_argument("an outline's element touches body " + std::to_string(b) + " of " +
                                  std::to_string(sizes_.size()) + " added");
  lists_.push_back(code);
  entries_.push_back(index);
  bodies_.insert(bodies_.end(), bodies.begin(), bodies.end());
  starts_.push_back(static_cast<Index>(bodies_.size()));
}

BlockCoupling DescriptionOutline::coupling() const {
  BlockCoupling coupling;
  for (const Index size : sizes_) coupling.add_block(size);
  for (std::size_t e = 0; e < num_elements(); ++e) coupling.add_element(bodies(e));
  return coupling;
}

DescriptionOutline outline_of(const ModelDescription& description) {
  DescriptionOutline outline;
  for (const BodyDescription& body : description.bodies) outline.add_body(coordinates_of(body));
  for_each_entry_element(description, [&](EntryList list, std::size_t index, std::span<const Index> bodies) {
    outline.add_element(list, static_cast<Index>(index), bodies);
  });
  return outline;
}

BlockCoupling description_coupling(const ModelDescription& description) { return outline_of(description).coupling(); }

}  // namespace noether

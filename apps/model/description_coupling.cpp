#include <noether/apps/model/description_coupling.hpp>

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// Resolves the bodies an entry names to their description indices and hands each entry's list on.
class EntryWalk {
 public:
  using Visit = std::function<void(EntryList, std::size_t, std::span<const Index>)>;

  EntryWalk(const ModelDescription& description, const Visit& visit) : visit_(visit) {
    index_.reserve(description.bodies.size());
    for (const BodyDescription& body : description.bodies)
      if (!index_.emplace(name_of(body), static_cast<Index>(index_.size())).second)
        throw std::invalid_argument("two bodies are named " + quote(name_of(body)) + "; body names must be unique");
  }

  /// An element on the named bodies, in order; an empty name (the ground) touches none.
  void element(std::initializer_list<const std::string*> bodies) {
    blocks_.clear();
    for (const std::string* name : bodies)
      if (!name->empty()) blocks_.push_back(block(*name));
    visit_(list_, index_in_list_, blocks_);
  }
  void element(const std::vector<std::string>& bodies) {
    blocks_.clear();
    for (const std::string& name : bodies) blocks_.push_back(block(name));
    visit_(list_, index_in_list_, blocks_);
  }
  /// The bodies exist; no element is visited.
  void resolve(const std::vector<std::string>& bodies) const {
    for (const std::string& name : bodies) block(name);
  }

  /// The entry that element() reports next.
  void at(EntryList list, std::size_t index) {
    list_ = list;
    index_in_list_ = index;
  }

 private:
  Index block(const std::string& name) const {
    const auto found = index_.find(name);
    if (found == index_.end()) throw std::invalid_argument("no body named " + quote(name) + " in the model");
    return found->second;
  }

  const Visit& visit_;
  std::unordered_map<std::string, Index> index_;
  std::vector<Index> blocks_;
  EntryList list_ = EntryList::inertias;
  std::size_t index_in_list_ = 0;
};

void walk(EntryWalk& w, const ConstraintDescription& constraint) {
  std::visit([&](const auto& k) { w.element(k.bodies); }, constraint);
}

void walk(EntryWalk& w, const ForceDescription& force) {
  std::visit(
      [&](const auto& f) {
        using T = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<T, GravityDescription>) {
          w.resolve(f.bodies);  // one element per body, each on its body alone: no join
        } else if constexpr (std::is_same_v<T, SpringDescription> || std::is_same_v<T, DamperDescription>) {
          w.element({&f.points.body_a, &f.points.body_b});
        } else if constexpr (std::is_same_v<T, RotationalSpringDescription> ||
                             std::is_same_v<T, RotationalDamperDescription>) {
          w.element({&f.hinge.body_a, &f.hinge.body_b});
        } else if constexpr (std::is_same_v<T, DampingMatrixDescription>) {
          w.element(f.bodies);
        } else {
          w.element({&f.body});
        }
      },
      force);
}

void walk(EntryWalk& w, const ActuatorDescription& actuator) {
  std::visit([&](const auto& coordinate) { w.element({&coordinate.body_a, &coordinate.body_b}); }, actuator.coordinate);
}

/// Visits each entry of `list` in order: element(entry) reports its bodies.
template <class Entries, class F>
void walk_list(EntryWalk& w, EntryList list, const Entries& entries, F&& element) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    w.at(list, i);
    element(entries[i]);
  }
}

}  // namespace

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
  EntryWalk w(d, visit);
  walk_list(w, EntryList::inertias, d.inertias, [&](const MassMatrixDescription& m) { w.element(m.bodies); });
  walk_list(w, EntryList::joints, d.joints, [&](const JointDescription& j) { w.element({&j.a.body, &j.b.body}); });
  walk_list(w, EntryList::constraints, d.constraints, [&](const ConstraintDescription& k) { walk(w, k); });
  walk_list(w, EntryList::drives, d.drives, [&](const DriveDescription& r) { w.element({&r.a.body, &r.b.body}); });
  walk_list(w, EntryList::forces, d.forces, [&](const ForceDescription& f) { walk(w, f); });
  walk_list(w, EntryList::actuators, d.actuators, [&](const ActuatorDescription& a) { walk(w, a); });
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

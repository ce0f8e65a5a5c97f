#pragma once
/// The coupling of a described model's bodies (engine/partition.hpp), read off its description
/// before anything is built: so each process of a run can know the cut of the model, and which
/// bodies and entries are its own, without building the whole (docs/distributed.md, "The
/// partitioned model").
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

#include <noether/apps/model/model_description.hpp>
#include <noether/engine/partition.hpp>

namespace noether {

/// The lists of a description whose entries build one element each, in the builder's order.
enum class EntryList { inertias, joints, constraints, drives, forces, actuators };
inline constexpr std::size_t kEntryLists = 6;  ///< the members of EntryList

/// Calls visit(list, index, bodies) for each entry that builds one element, in the builder's order
/// (model_builder.hpp), with the description indices of the bodies its element touches, side A's
/// before side B's (a ground side touches none). Gravity, which builds one element on each body
/// it acts on, is left out; the bodies it lists must exist all the same. Throws
/// std::invalid_argument for a body name the description does not hold, or holds twice.
void for_each_entry_element(const ModelDescription& description,
                            const std::function<void(EntryList list, std::size_t index, std::span<const Index> bodies)>& visit);

/// The names of the bodies that an entry's element touches, in the order for_each_entry_element
/// reports them (side A's before side B's; a ground side's empty name left out; a list of bodies
/// as listed). For gravity, which builds no element that joins bodies, the bodies it lists. The
/// pointers are into the entry.
using EntryBodyNames = std::vector<const std::string*>;
EntryBodyNames entry_body_names(const MassMatrixDescription& inertia);
EntryBodyNames entry_body_names(const JointDescription& joint);
EntryBodyNames entry_body_names(const ConstraintDescription& constraint);
EntryBodyNames entry_body_names(const DriveDescription& drive);
EntryBodyNames entry_body_names(const ForceDescription& force);
EntryBodyNames entry_body_names(const ActuatorDescription& actuator);

/// Whether an entry builds one element (for_each_entry_element visits it): all but gravity.
template <class Entry>
bool builds_one_element(const Entry& entry) {
  if constexpr (std::is_same_v<Entry, ForceDescription>) return !std::holds_alternative<GravityDescription>(entry);
  else return true;
}

/// Each body's description index by its name, body names unique.
class BodyIndex {
 public:
  /// Throws std::invalid_argument "two bodies are named 'x'; body names must be unique".
  explicit BodyIndex(std::span<const std::string> names);
  explicit BodyIndex(const std::vector<BodyDescription>& bodies);
  /// Throws std::invalid_argument "no body named 'x' in the model".
  Index operator[](const std::string& name) const;
  bool contains(const std::string& name) const { return index_.contains(name); }

 private:
  void add(const std::string& name);
  std::unordered_map<std::string, Index> index_;
};

/// The number of coordinates of a described body's block (Mechanism's block of its kind).
Index coordinates_of(const BodyDescription& body);

/// What a run over parts reads of the whole model before any process describes its part: each
/// body's number of coordinates and, for each entry that builds one element, the bodies that
/// element touches, in for_each_entry_element's order (entry lists in EntryList order, each list
/// in its order). 41 bytes per bar of a chain, where its description takes 0.58 KB (a 3D bar): what
/// lets a generator describe a process's part alone (apps/model/description_sink.hpp).
class DescriptionOutline {
 public:
  /// The next body, of `coordinates` coordinates.
  void add_body(Index coordinates) { sizes_.push_back(coordinates); }
  /// The element of entry `index` of `list`, touching `bodies` (description indices, side A's
  /// before side B's). Throws std::invalid_argument when (list, index) does not follow the last
  /// element's, or a body is not among those added.
  void add_element(EntryList list, Index index, std::span<const Index> bodies);

  std::span<const Index> block_sizes() const { return sizes_; }
  std::size_t num_elements() const { return entries_.size(); }
  EntryList list(std::size_t element) const { return static_cast<EntryList>(lists_[element]); }
  Index entry(std::size_t element) const { return entries_[element]; }
  std::span<const Index> bodies(std::size_t element) const {
    return std::span<const Index>(bodies_).subspan(static_cast<std::size_t>(starts_[element]),
                                                   static_cast<std::size_t>(starts_[element + 1] - starts_[element]));
  }
  /// The blocks (one per body) and the elements' joins: description_coupling.
  BlockCoupling coupling() const;

 private:
  std::vector<Index> sizes_;
  std::vector<std::uint8_t> lists_;
  std::vector<Index> entries_;
  std::vector<Index> starts_{0};  ///< element e's bodies are bodies_[starts_[e], starts_[e + 1])
  std::vector<Index> bodies_;
};

/// The outline of a described model. Throws as for_each_entry_element does.
DescriptionOutline outline_of(const ModelDescription& description);

/// One block per body (the description's order, which is the built system's block order) of its
/// number of coordinates, and one element per element the entries build (for_each_entry_element).
/// Equal to block_coupling of build_model(description)'s system in the pairs it joins
/// (tests/apps/test_description_coupling.cpp): outline_of(description).coupling(). Throws as
/// for_each_entry_element does.
BlockCoupling description_coupling(const ModelDescription& description);

}  // namespace noether

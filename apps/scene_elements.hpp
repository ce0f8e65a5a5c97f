#pragma once
/// What becomes of the elements of a scene file's lists as the reader hands them over, each read
/// as the parser completes it (scene_reader.cpp): a whole description keeps every one
/// (SceneDescription); a run over parts first outlines the model (SceneOutliner), and each process
/// then reads again the elements of its part alone (ScenePartElements), so that no process holds
/// the whole description (docs/distributed.md, "Scene files over parts").
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_description.hpp>
#include <noether/apps/model/model_part.hpp>

namespace noether {

/// The lists of a scene's root: the bodies, the entry lists (EntryList's, in its order), and the
/// model-wide probes and invariants. The order of SceneElement's alternatives.
enum class SceneListKind { bodies, inertias, joints, constraints, drives, forces, actuators, probes, invariants };

/// One element of a list, as read: the alternative of its list's kind.
using SceneElement = std::variant<BodyDescription, MassMatrixDescription, JointDescription, ConstraintDescription,
                                  DriveDescription, ForceDescription, ActuatorDescription, ProbeDescription,
                                  InvariantDescription>;

/// A list's key in the scene's root (the section a ModelDescriptionError names) and what its
/// elements are, for messages.
struct SceneListName {
  SceneListKind kind;
  std::string_view key, what;
};
inline constexpr std::array<SceneListName, 9> kSceneLists{{{SceneListKind::bodies, "bodies", "a body"},
                                                           {SceneListKind::inertias, "inertias", "a mass matrix"},
                                                           {SceneListKind::joints, "joints", "a joint"},
                                                           {SceneListKind::constraints, "constraints", "a constraint"},
                                                           {SceneListKind::drives, "drives", "a drive"},
                                                           {SceneListKind::forces, "forces", "a force element"},
                                                           {SceneListKind::actuators, "actuators", "an actuator"},
                                                           {SceneListKind::probes, "probes", "a probe"},
                                                           {SceneListKind::invariants, "invariants", "an invariant"}}};

/// Where the reader hands the elements of a scene's lists, each list in its order (the lists
/// themselves in the file's order, which is free).
class SceneElements {
 public:
  virtual ~SceneElements() = default;
  /// Whether element `index` of `list` is read at all: one not read is neither checked nor handed over.
  virtual bool reads(SceneListKind list, std::size_t index) const = 0;
  /// Element `index` of its list (the alternative's kind), as read.
  virtual void add(std::size_t index, SceneElement element) = 0;
};

/// Keeps every element in `model`: the whole description.
class SceneDescription final : public SceneElements {
 public:
  explicit SceneDescription(ModelDescription& model) : model_(model) {}
  bool reads(SceneListKind, std::size_t) const override { return true; }
  void add(std::size_t index, SceneElement element) override;

 private:
  ModelDescription& model_;
};

/// What a run over parts keeps of a scene's mechanism before each process reads its part: the
/// outline (41 bytes per bar where the description takes 0.58 KB per 3D bar), the gravity forces
/// (which every part holds), and the model-wide items.
struct SceneOutline {
  DescriptionOutline outline;
  std::vector<Index> gravity;  ///< the forces that are gravity, ascending
  /// The probes, invariants and conserved momenta, which every part holds; no body or entry.
  ModelDescription model_wide;
  double rigid_bodies = 0, other_bodies = 0;  ///< the bodies of each kind the memory estimate counts
};

/// Outlines a scene as its elements come: each body's name and number of coordinates, the names of
/// each entry's bodies (entry_body_names), resolved once the last body is known, since a file may
/// give its joints before its bodies. Every element is read, so checked as the whole's would be.
class SceneOutliner final : public SceneElements {
 public:
  bool reads(SceneListKind, std::size_t) const override { return true; }
  void add(std::size_t index, SceneElement element) override;
  /// The outline, equal to outline_of of the whole description. Throws ModelDescriptionError
  /// naming the entry (its list's key and index) for a body name no body holds, and
  /// std::invalid_argument for two bodies of one name, as build_model refuses them.
  SceneOutline finish();

 private:
  /// The bodies' names of one list's entries: entry e's are names[starts[e], starts[e + 1]).
  struct EntryNames {
    std::vector<std::string> names;
    std::vector<Index> starts{0};
  };
  template <class Entry>
  void add_entry(EntryList list, const Entry& entry);

  std::vector<std::string> body_names_;
  std::vector<Index> body_sizes_;
  std::array<EntryNames, kEntryLists> entries_;  ///< by EntryList
  SceneOutline outline_;
};

/// Keeps the elements of one process's part: the bodies and entries `selection` keeps (of the
/// outline's model), gravity wherever, and the outline's model-wide items; what part_description
/// copies out of the whole description, read from the scene instead (tests compare the two).
class ScenePartElements final : public SceneElements {
 public:
  ScenePartElements(const SceneOutline& outline, const PartSelection& selection);
  /// The part's bodies and entries; no probe or invariant (the outline's model-wide items).
  bool reads(SceneListKind list, std::size_t index) const override;
  /// Throws std::logic_error for a probe or an invariant, which reads() declines.
  void add(std::size_t index, SceneElement element) override;
  /// The part, once the scene's elements are handed over.
  PartDescription finish();

 private:
  const PartSelection& selection_;
  const std::vector<Index>& gravity_;
  std::span<const Index> sizes_;
  std::vector<Index> offsets_;  ///< each body's first coordinate in the whole
  PartDescription part_;
};

}  // namespace noether

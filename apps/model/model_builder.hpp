#pragma once
/// ModelDescription -> Model: the one builder behind the built-in scenarios and scene files. It
/// calls the library's constructors (Mechanism, the joint factories, the force elements) in the
/// description's order; two equal descriptions give bitwise equal models.
#include <compare>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <noether/apps/model/model.hpp>
#include <noether/apps/model/model_description.hpp>
#include <noether/bodies/mechanism.hpp>

namespace noether {

struct PartDescription;  // apps/model/model_part.hpp

/// An entry of a description that the library refuses or whose names do not resolve: the list it is
/// in ("bodies", "joints", ...), its index there, the field at fault (empty when the entry as a
/// whole is) and why. what() reads "joints[3].body_b: no body named 'bar7'; bodies are bar1 ... bar6".
class ModelDescriptionError : public std::invalid_argument {
 public:
  ModelDescriptionError(std::string section, std::size_t index, std::string field, const std::string& message);

  const std::string& section() const { return section_; }
  std::size_t index() const { return index_; }
  const std::string& field() const { return field_; }
  /// The reason alone, without the entry.
  const std::string& message() const { return message_; }

 private:
  std::string section_;
  std::size_t index_;
  std::string field_, message_;
};

/// The bodies, inertias, joints, constraints and forces of `description` in a Mechanism, in that
/// order and each list in its order. Throws ModelDescriptionError for an entry the library refuses
/// (with its message), a duplicate or unknown name, or a body of a kind the entry cannot use.
Mechanism build_mechanism(const ModelDescription& description);

/// Where a constraint stands in the whole model's order: the builder makes the bodies' own
/// constraints body by body (section 0, the body's index), then each entry list's in turn (section
/// 1 + EntryList, the entry's index), so keys sort as the whole's constraints stand; one entry's
/// constraints share a key and stand in one part, in the order the part holds them.
struct ConstraintKey {
  Index section = 0;
  Index index = 0;
  friend auto operator<=>(const ConstraintKey&, const ConstraintKey&) = default;
};

/// What build_mechanism_part builds: the part's mechanism, the whole-order key of each of its
/// constraints (ConstraintKey, their order), its probes (Builder's part_probes: one per
/// described probe, a position only where the part evaluates it) and its invariants (an empty
/// value where it owns none of the listed bodies).
struct MechanismPart {
  Mechanism mechanism;
  std::vector<ConstraintKey> constraint_keys;
  std::vector<Probe> probes;
  std::vector<Invariant> invariants;  ///< one per described invariant, over the listed bodies the part owns
};

/// build_mechanism of the bodies and entries a part's description builds (model_part.hpp): an owned
/// body with its own elements, a ghost body's block alone, gravity on the owned bodies; the probes
/// on its owned bodies, and with `bodiless` (process 0's part) those of time alone. Keys and
/// refusals name the whole's numbers of the part's bodies and entries.
MechanismPart build_mechanism_part(const PartDescription& part, bool bodiless);

/// build_mechanism, then the probes and invariants: the Model a run integrates, with the bodies'
/// initial positions and velocities as its initial state.
Model build_model(const ModelDescription& description);

}  // namespace noether

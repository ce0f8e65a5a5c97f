#pragma once
/// Where a generator puts the description of a mechanism, item by item, so that one generator
/// gives the whole description, its outline, or one process's part alone (docs/distributed.md,
/// "Generators of a part"): a process of a run over parts then never holds the whole description,
/// whose bodies and joints take some 0.58 KB per 3D bar.
#include <functional>
#include <initializer_list>
#include <memory>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_description.hpp>
#include <noether/apps/model/model_part.hpp>

namespace noether {

/// What a generator gives its bodies and joints to, in the description's order.
class DescriptionSink {
 public:
  virtual ~DescriptionSink() = default;
  /// The next body.
  virtual void body(BodyDescription body) = 0;
  /// The next joint, whose sides are the bodies numbered `bodies` in the order given (side A's
  /// before side B's; none for the ground): the numbers its names resolve to, stated beside them
  /// so that no sink needs every body's name (tests/apps/test_description_sink.cpp compares them).
  virtual void joint(JointDescription joint, std::initializer_list<Index> bodies) = 0;
  /// The model-wide items, which every part holds: gravity (the only force a generator gives, on
  /// every body or the bodies it lists), probes, invariants and conserved momenta. Its bodies and
  /// entry lists other than forces stay empty: those go through body() and joint().
  virtual ModelDescription& model_wide() = 0;
};

/// A generator of a description: it gives every body and joint, in order, to the sink.
using DescriptionGenerator = std::function<void(DescriptionSink&)>;

/// The whole description.
ModelDescription described(const DescriptionGenerator& generate);
/// Its outline (DescriptionOutline), without holding more than one body or joint at a time.
DescriptionOutline outlined(const DescriptionGenerator& generate);
/// The description of the part that `selection` (of outlined(generate)) keeps:
/// part_description(described(generate), selection), without holding the whole. Throws
/// std::invalid_argument for a model-wide force that is not gravity or a model-wide body or entry.
PartDescription part_described(const DescriptionGenerator& generate, const PartSelection& selection);

/// A model as a run over parts reads it (apps/run_parts.hpp): the whole's outline, and the
/// description of the part that a selection of it keeps.
struct PartedModel {
  DescriptionOutline outline;
  std::function<PartDescription(const PartSelection&)> part;
};
/// Of a generator: the outline and each part generated, the whole never held.
PartedModel parted(DescriptionGenerator generate);
/// Of a whole description, which each part is copied out of (part_description).
PartedModel parted(std::shared_ptr<const ModelDescription> description);

}  // namespace noether

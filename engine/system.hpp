#pragma once
/// A mechanical system: coordinate blocks plus the elements acting on them.
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <noether/engine/actuator.hpp>
#include <noether/engine/constraint.hpp>
#include <noether/engine/dissipation.hpp>
#include <noether/engine/external_load.hpp>
#include <noether/engine/inertia.hpp>
#include <noether/engine/potential.hpp>

namespace noether {

/// A named group of consecutive coordinates (a body, or any group the user chooses).
struct CoordinateBlock {
  std::string name;
  std::vector<std::string> coordinate_names;  ///< one per coordinate, used in output columns
  Index offset = 0;                           ///< first global coordinate index
  Index size() const { return static_cast<Index>(coordinate_names.size()); }
  /// "block.coordinate" of its coordinate `local` (0 <= local < size()): System::coordinate_label.
  std::string label(Index local) const {
    std::string text;
    append_label(text, local);
    return text;
  }
  /// label(local) appended to `text`: a list of a model's labels made without a string each.
  void append_label(std::string& text, Index local) const {
    text.append(name).append(".").append(coordinate_names[static_cast<std::size_t>(local)]);
  }
};

/// An element placed in a system: the global indices of its local coordinates (blocks
/// concatenated in the element's order) and, for constraints, its first multiplier row.
template <class ElementKind>
struct Placed {
  std::shared_ptr<const ElementKind> element;
  std::vector<Index> dofs;
  Index first_multiplier = 0;
};

class System;

/// A claim on a System by an object that sizes itself from the System when made (a Stepper, a
/// ConstraintProjector): while one lives, the System's add functions refuse, since that object
/// would not see what they add (a stepper's equations would leave a new element out while
/// conserved_energy counted it). It shares the ownership of the System when a std::shared_ptr
/// owns it; a System owned otherwise must outlive it.
class SystemUse {
 public:
  /// `holder` names the claimant in the refusals ("stepper 'livens-em'").
  SystemUse(const System& system, std::string holder);
  ~SystemUse();
  SystemUse(const SystemUse&) = delete;
  SystemUse& operator=(const SystemUse&) = delete;

  const System& system() const { return system_; }

 private:
  std::shared_ptr<const System> owner_;  ///< null when no std::shared_ptr owns the system
  const System& system_;
  std::string holder_;
};

/// The model of a mechanism. Immutable topology once built; steppers and assemblers read it.
/// Coordinates are numbered block by block in the order the blocks were added; constraint
/// multipliers in the order the constraints were added.
///
/// Building, then using: blocks and elements are added first, then steppers (and
/// ConstraintProjectors) are made on the System. While one of those lives (SystemUse), add_block
/// and add throw std::logic_error naming what was added and who uses the System.
///
/// Threads (the model/data rule): a System is shared read-only by any number of threads and of
/// steppers, each stepper and each State being one thread's at a time; elements are immutable and
/// keep no scratch (engine/element.hpp). Adding is building: one thread, before any use.
///
/// Ownership: a stepper (and a ConstraintProjector) shares the ownership of its System when a
/// std::shared_ptr owns the System (Mechanism's system is so owned, and one made with
/// std::make_shared<System>()), so it keeps working after the Mechanism or the last other pointer
/// is gone. A System owned otherwise (a local variable, a std::unique_ptr) must outlive every
/// stepper made on it.
///
/// Identity: every System has a serial number, stamped into the BlockIds add_block returns (and so
/// into the BodyRefs of a Mechanism). A System refuses a BlockId stamped by another one; a copy of
/// a System (and blocks_only()) keeps the serial number: the same blocks, the same handles.
class System : public std::enable_shared_from_this<System> {
 public:
  System();
  /// A System with this one's coordinate blocks (the same BlockIds) and no elements: a variant of
  /// the model built from the same handles (solvers/redundancy.hpp drops equations this way).
  std::unique_ptr<System> blocks_only() const;

  /// Adds a block with one named coordinate per entry of coordinate_names, each labelled
  /// "block.coordinate" (coordinate_label), a label that heads an output column and keys a value of
  /// final_state.json. Throws std::invalid_argument naming both things that collide for an empty or
  /// duplicate name, a coordinate named twice, or a label another block's coordinate has (a block
  /// "bar.phi" with a coordinate "x" beside a block "bar" with "phi.x": both "bar.phi.x");
  /// std::logic_error while a stepper or projector uses the system (SystemUse).
  BlockId add_block(std::string name, std::vector<std::string> coordinate_names);
  /// Adds a block of `size` coordinates named "0", "1", ...
  BlockId add_block(std::string name, Index size);

  /// Each add checks that the element is not null, that its blocks exist in this system (a BlockId
  /// of another System is refused), that their sizes add up to its local_size(), and that its name
  /// is unique; throws std::invalid_argument naming it. While a stepper or projector uses the
  /// system (SystemUse), throws std::logic_error naming the element and the user instead.
  void add(std::shared_ptr<const Inertia> element);
  void add(std::shared_ptr<const Potential> element);
  void add(std::shared_ptr<const Constraint> element);
  void add(std::shared_ptr<const Dissipation> element);
  void add(std::shared_ptr<const ExternalLoad> element);
  void add(std::shared_ptr<const Actuator> element);

  Index num_coordinates() const { return num_coordinates_; }
  Index num_multipliers() const { return num_multipliers_; }
  std::span<const CoordinateBlock> blocks() const { return blocks_; }
  /// Throws std::out_of_range for an id it does not have, std::invalid_argument for the id of
  /// another System.
  const CoordinateBlock& block(BlockId id) const;
  /// The block named `name`; std::out_of_range when there is none.
  BlockId find_block(const std::string& name) const;
  /// "block.coordinate" for global coordinate i (binary search over the blocks).
  std::string coordinate_label(Index i) const;
  /// The global coordinate whose coordinate_label is `label`, if any (a lookup of each block name
  /// the label starts with, then a search of that block's coordinates).
  std::optional<Index> find_coordinate(std::string_view label) const;

  std::span<const Placed<Inertia>> inertias() const { return inertias_; }
  std::span<const Placed<Potential>> potentials() const { return potentials_; }
  std::span<const Placed<Constraint>> constraints() const { return constraints_; }
  std::span<const Placed<Dissipation>> dissipations() const { return dissipations_; }
  std::span<const Placed<ExternalLoad>> external_loads() const { return external_loads_; }
  std::span<const Placed<Actuator>> actuators() const { return actuators_; }

  /// "constraint 'P4' row 1" for global multiplier row r (binary search over the constraints).
  std::string multiplier_label(Index r) const;

 private:
  friend class SystemUse;

  /// The SystemUse claims alive on one System. A copy of a System is a new System that no one
  /// uses yet: copying does not carry the claims over. Assigning to a System in use throws
  /// std::logic_error (declared first among the members, so that nothing is assigned then).
  struct Users {
    Users() = default;
    Users(const Users&) {}
    Users& operator=(const Users&);
    mutable std::mutex mutex;
    mutable std::vector<const std::string*> holders;  ///< SystemUse::holder_ of each claim alive, oldest first
  };

  /// Throws std::logic_error unless no one uses the system: "<kind> '<name>' added to a system
  /// that stepper 'livens-em' uses ...", naming the claim made last (a composition, not its base).
  void require_unused(std::string_view kind, std::string_view name) const;
  /// Checks a new element and takes its name (unique): its coordinates, its blocks' in order.
  std::vector<Index> place(const Element* element);
  /// The coordinates of element's blocks, in order; throws std::invalid_argument for a block
  /// this system does not have or a size other than the element's local_size().
  std::vector<Index> placed_dofs(const Element& element) const;
  /// id names a block of this system: its serial number is this system's (or 0) and its index exists.
  bool has_block(BlockId id) const;
  /// For an id has_block refuses: "block id 3 of another system: ...".
  std::string why_not_a_block(BlockId id) const;
  /// Why the block `name` with these coordinates cannot be added: a coordinate named twice, or
  /// a label ("name.coordinate") that a coordinate of another block has; empty when none.
  std::string label_clash(const std::string& name, const std::vector<std::string>& coordinate_names) const;
  /// The index of the block named `name`, if any.
  std::optional<Index> block_index(std::string_view name) const;

  Users users_;
  std::uint64_t serial_;
  std::vector<CoordinateBlock> blocks_;
  /// Hashes a std::string and a std::string_view alike, so that a view finds a key without a copy.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, Index, NameHash, std::equal_to<>> block_index_;
  /// How many blocks have a '.' in their name: only then can two labels collide.
  Index dotted_block_names_ = 0;
  std::unordered_set<std::string> element_names_;
  std::vector<Placed<Inertia>> inertias_;
  std::vector<Placed<Potential>> potentials_;
  std::vector<Placed<Constraint>> constraints_;
  std::vector<Placed<Dissipation>> dissipations_;
  std::vector<Placed<ExternalLoad>> external_loads_;
  std::vector<Placed<Actuator>> actuators_;
  Index num_coordinates_ = 0;
  Index num_multipliers_ = 0;
};

/// Throws std::invalid_argument naming `what` ("coordinate block", "element", ...) unless name can
/// head an output column: not empty, and without a comma or a double quote, which would split or
/// shift the columns of a CSV file such as timeseries.csv, and without a hidden character
/// (hidden_character, engine/quote.hpp: a control character such as a newline, a tab, ESC or
/// U+0085, a Unicode format character, a byte that is not UTF-8), which a header would carry to
/// the terminal or hide in it.
void require_column_name(const std::string& what, const std::string& name);

/// Gathers x[dofs] into local (resized to dofs.size()).
void gather(ConstVectorRef x, std::span<const Index> dofs, Vector& local);

}  // namespace noether

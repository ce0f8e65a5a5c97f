#pragma once
/// A process's part of a described model (docs/distributed.md, "The partitioned model", stage 2):
/// the bodies it owns, the ghost bodies its elements touch, and the elements of the entries it
/// owns, numbered locally, with the global numbers of its coordinates. A run over several processes
/// builds each process's part instead of the whole model (stage 3).
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/model/model_description.hpp>
#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>

namespace noether {

class Distribution;
struct SystemPart;

/// What a process builds of a described body.
enum class BodyRole : std::uint8_t {
  absent,  ///< nothing: another process's body that none of this process's elements touches
  owned,   ///< its block and its own elements (inertia, orthonormality, gravity)
  ghost,   ///< its block alone (BodyElements::none): another process's body this one's elements touch
};

/// Which bodies and entries of a whole description one process builds, in the whole's numbers.
struct PartSelection {
  std::vector<BodyRole> bodies;  ///< one per body of the description
  /// Each list's entries built here (EntryList order), ascending. Gravity entries are not decided
  /// here: the part puts gravity on its owned bodies.
  std::array<std::vector<Index>, kEntryLists> built;
  /// Each list's entries the part's description holds, ascending: those built here and those
  /// touching a body this process owns (whose attachment points size its bodies' drawings).
  std::array<std::vector<Index>, kEntryLists> described;
};

/// The part of process `rank` when body b belongs to process body_processes[b] (one entry per
/// body of the outline, as block_processes(outline.coupling(), ranks) gives): its bodies are
/// owned; an entry belongs to the process of its smallest body (in the description's order: the
/// rule of the terms, engine/partition.hpp), an entry on no body to process 0; the other bodies
/// the owned entries touch are ghosts. Throws std::invalid_argument when body_processes is not one
/// per body.
PartSelection select_part(const DescriptionOutline& outline, std::span<const int> body_processes, int rank);
/// select_part of outline_of(description). Throws as for_each_entry_element does.
PartSelection select_part(const ModelDescription& description, std::span<const int> body_processes, int rank);

/// Refuses a probe or invariant of model_wide naming a body that `bodies` does not hold
/// (ModelDescriptionError naming it), as build_model refuses it: a part's builder takes such a
/// name for another process's body.
void require_listed_bodies(const BodyIndex& bodies, const ModelDescription& model_wide);

/// The description of a process's part: the bodies and entries its selection keeps (each list in
/// the whole's order) and the whole's model-wide items (gravity, probes, invariants, conserved
/// momenta), with the number in the whole of each kept item. What a process holds of a model
/// instead of its whole description (a generator describes it alone: description_sink.hpp).
struct PartDescription {
  ModelDescription description;
  std::vector<BodyRole> roles;        ///< each body of description: owned or ghost
  std::vector<Index> body_numbers;    ///< each body of description: its number in the whole
  std::vector<Index> body_offsets;    ///< each body of description: the whole model's first coordinate of its block
  Index whole_coordinates = 0;        ///< the whole model's number of coordinates
  /// Each entry of each list of description (EntryList order): its number in the whole's list.
  std::array<std::vector<Index>, kEntryLists> entry_numbers;
  /// Each entry of each list of description: built here (else only described, touching an owned
  /// body). A gravity entry is built wherever it is held.
  std::array<std::vector<bool>, kEntryLists> builds;

  bool built(EntryList list, std::size_t index) const { return builds[static_cast<std::size_t>(list)][index]; }
};

/// The part of `description` that `selection` (of this description) keeps, copied. Throws
/// ModelDescriptionError for a probe or invariant naming a body the description does not hold
/// (the part's builder takes a name it does not hold for another process's body).
PartDescription part_description(const ModelDescription& description, const PartSelection& selection);

/// A process's part of a model: its System (the part's blocks in the description's order, numbered
/// from 0; the elements of its owned bodies and entries; multiplier rows numbered from 0 in the
/// order of the whole model's, each part's rows to be numbered after the lower ranks' in a run, an
/// exclusive prefix sum of the parts' counts) and its initial state (q, v of its blocks).
struct ModelPart {
  std::shared_ptr<System> system;
  State initial;
  std::vector<Index> bodies;          ///< the description index of each block of system (blocks() order)
  std::vector<Index> global_offsets;  ///< the whole model's first coordinate of each block
  std::vector<bool> ghosts;           ///< each block: a ghost body's
  Index global_coordinates = 0;       ///< the whole model's number of coordinates
  std::vector<ConstraintKey> constraint_keys;  ///< each constraint of system: its place in the whole's order
  /// One per described probe (build_mechanism_part): a position where this part evaluates it.
  std::vector<Probe> probes;
  /// One per described invariant, over the listed bodies this part owns: summed over the parts,
  /// the whole's (an empty value where the part owns none).
  std::vector<Invariant> invariants;
};

/// The whole model's number of each multiplier row of `part` (its System's order), the rows
/// ordered as the whole model orders them (ConstraintKey). Collective: the processes' keys and
/// row counts reach every process (one Distribution::sum of three values per constraint).
std::vector<Index> whole_multiplier_rows(const Distribution& processes, const ModelPart& part);

/// Each of a part's coordinates (its System's order): its number in the whole model and the process
/// that owns it (its body's, body_processes as given to build_model_part): what a GhostExchange
/// over the parts' coordinates is made from (engine/ghost_exchange.hpp).
struct PartCoordinates {
  std::vector<Index> global;
  std::vector<int> owner;
};
PartCoordinates part_coordinates(const ModelPart& part, std::span<const int> body_processes);

/// How `part` sits in the whole, for a stepper over parts (StepperOptions::part): its coordinates'
/// global numbers and owners (part_coordinates), the whole's d, its rows numbered after the lower
/// processes' (engine/system_part.hpp, which a caller includes). Collective (make_system_part).
SystemPart system_part(const Distribution& processes, const ModelPart& part, std::span<const int> body_processes);

/// build_model's system and initial state restricted to a part's description: with one process
/// (every body owned) the whole model's system, element for element. Probes are built where the
/// part evaluates them (a point probe by its body's owner, a probe of time by process 0 = `rank`
/// 0), invariants over the bodies the part owns. A part checks the entries it builds: an entry
/// another process owns is refused there. Throws ModelDescriptionError as build_model does, naming
/// the entry by its number in the whole description.
ModelPart build_model_part(const PartDescription& part, int rank);
/// build_model_part of part_description(description, select_part(description, body_processes, rank)).
ModelPart build_model_part(const ModelDescription& description, std::span<const int> body_processes, int rank);

}  // namespace noether

#include <noether/apps/run_parts.hpp>

#include <algorithm>
#include <iterator>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include <noether/apps/model/model_builder.hpp>
#include <noether/engine/partition.hpp>
#include <noether/engine/quote.hpp>
#include <noether/engine/system_part.hpp>

namespace noether {
namespace {

/// What a run over parts does not report yet, refused before the part is built: an actuator the
/// part describes (the process of its bodies refuses it, naming it; the others agree).
void require_reported_over_parts(const ModelDescription& part) {
  if (!part.actuators.empty())
    throw std::invalid_argument("the model has actuators (" + part.actuators.front().name +
                                "), whose probes a run over parts (--parts on) does not evaluate yet: run it with "
                                "--parts off");
}

/// Every probe's dimension on every process: its evaluator's (the largest over the processes:
/// the others have 0, or their ghost body's). A point probe that no process places (0 on every
/// one: its body is in no part, so in no description, the part's builder taking a name it does
/// not hold for another process's) is refused on every process, as build_model refuses it.
void agree_probe_dimensions(const Distribution& processes, std::vector<Probe>& probes,
                            const std::vector<ProbeDescription>& described) {
  std::vector<double> dimensions;
  for (const Probe& probe : probes) dimensions.push_back(static_cast<double>(probe.dimension));
  processes.max(dimensions);
  for (std::size_t i = 0; i < probes.size(); ++i) {
    probes[i].dimension = static_cast<Index>(dimensions[i]);
    const auto* point = std::get_if<PointProbeDescription>(&described[i]);
    if (point && probes[i].dimension == 0)
      throw ModelDescriptionError("probes", i, "body", "no body named " + quote(point->body));
  }
}

/// This process's part and its description; an entry refused in one part (build_model_part), or
/// a part without a body of its own (more processes than the coupling graph's blocks: a stepper
/// has no part to step), is refused on every process (agreed_over_parts).
ModelPart agreed_part(const Distribution& processes, PartedModel& model, std::span<const int> body_processes,
                      std::optional<PartDescription>& description) {
  ModelPart part;
  agreed_over_parts(processes, [&] {
    const PartSelection selection = select_part(model.outline, body_processes, processes.rank());
    if (std::ranges::none_of(selection.bodies, [](BodyRole role) { return role == BodyRole::owned; }))
      throw std::invalid_argument("a run over parts on " + std::to_string(processes.ranks()) + " processes leaves process " +
                                  std::to_string(processes.rank()) + " without a body of the model's " +
                                  std::to_string(body_processes.size()) +
                                  " (each process owns a block of bodies that the joints couple): run it on fewer "
                                  "processes, or with --parts off");
    description = model.part(selection);
    model.part = nullptr;  // what describes the parts (a scene's text) goes before the part is built
    require_reported_over_parts(description->description);
    part = build_model_part(*description, processes.rank());
  });
  return part;
}

/// Each invariant's size on every process: its value's at zero momenta where the part owns bodies
/// it lists (their dimension), the largest over the processes (a part that owns none has 0).
std::vector<Index> agreed_invariant_sizes(const Distribution& processes, const ModelPart& part) {
  State zero = part.initial;
  zero.p = Vector::Zero(zero.q.size());
  std::vector<double> sizes;
  for (const Invariant& invariant : part.invariants) sizes.push_back(static_cast<double>(invariant.value(zero).size()));
  processes.max(sizes);
  return {sizes.begin(), sizes.end()};
}

/// values(i), or NaN for an empty values (labels alone).
double value_or_nan(ConstVectorRef values, Index i) {
  return values.size() == 0 ? std::numeric_limits<double>::quiet_NaN() : values(i);
}

}  // namespace

void agreed_over_parts(const Distribution& processes, const std::function<void()>& task) {
  std::exception_ptr error;
  try {
    task();
  } catch (const std::invalid_argument&) {
    error = std::current_exception();
  }
  const ProcessError first = first_error(processes, error);
  if (error) std::rethrow_exception(error);
  if (first.process >= 0) throw std::invalid_argument("process " + std::to_string(first.process) + ": " + first.words);
}

RunParts::RunParts(std::shared_ptr<const Distribution> processes, PartedModel parted)
    : processes_(std::move(processes)) {
  const std::vector<int> body_processes = noether::block_processes(parted.outline.coupling(), processes_->ranks());
  ModelPart part = agreed_part(*processes_, parted, body_processes, description_);
  agree_probe_dimensions(*processes_, part.probes, description_->description.probes);
  system_part_ = std::make_shared<const SystemPart>(noether::system_part(*processes_, part, body_processes));
  const SystemPart& numbers = *system_part_;
  std::vector<Index> owned_numbers;
  for (std::size_t i = 0; i < numbers.coordinate_owners.size(); ++i)
    if (numbers.coordinate_owners[i] == processes_->rank()) {
      owned_.push_back(static_cast<Index>(i));
      owned_numbers.push_back(numbers.coordinate_numbers[i]);
    }
  coordinates_.emplace(*processes_, std::move(owned_numbers), numbers.whole_coordinates);
  rows_in_whole_ = whole_multiplier_rows(*processes_, part);
  rows_.emplace(*processes_, rows_in_whole_, numbers.whole_multipliers);
  invariant_sizes_ = agreed_invariant_sizes(*processes_, part);
  model_.system = std::move(part.system);
  model_.initial = std::move(part.initial);
  model_.probes = std::move(part.probes);
  model_.invariants = std::move(part.invariants);
  model_.conserved_momenta = description_->description.conserved_momenta;
}

const PartDescription& RunParts::description() const {
  if (!description_) throw std::logic_error("the part's description was freed before it was read");
  return *description_;
}

std::vector<int> RunParts::block_processes() const {
  std::vector<int> processes;
  for (const CoordinateBlock& block : model_.system->blocks())
    processes.push_back(system_part_->coordinate_owners[static_cast<std::size_t>(block.offset)]);
  return processes;
}

void RunParts::for_each_entry(bool rows, ConstVectorRef values, const PartGather::Visit& visit) const {
  const System& system = *model_.system;
  if (rows) {
    const auto constraints = system.constraints();
    // A row's label, of the constraint whose rows hold it: the last to start at or before it.
    const auto label = [&](std::size_t row, std::string& texts) {
      const auto at = std::ranges::upper_bound(constraints, static_cast<Index>(row), {},
                                               [](const Placed<Constraint>& c) { return c.first_multiplier; });
      append_constraint_row_label(texts, *std::prev(at)->element, static_cast<Index>(row) - std::prev(at)->first_multiplier);
    };
    return rows_->for_each(label, [&](std::size_t row) { return value_or_nan(values, static_cast<Index>(row)); }, visit);
  }
  const auto blocks = system.blocks();
  const auto label = [&](std::size_t k, std::string& texts) {
    const Index i = owned_[k];
    const auto at = std::ranges::upper_bound(blocks, i, {}, [](const CoordinateBlock& b) { return b.offset; });
    std::prev(at)->append_label(texts, i - std::prev(at)->offset);
  };
  coordinates_->for_each(label, [&](std::size_t k) { return value_or_nan(values, owned_[k]); }, visit);
}

void RunParts::for_each_value(bool rows, ConstVectorRef values, const std::function<void(double)>& value) const {
  const PartGather::Visit visit = [&](const std::string&, double x) { value(x); };
  if (rows) return rows_->for_each({}, [&](std::size_t row) { return values(static_cast<Index>(row)); }, visit);
  coordinates_->for_each({}, [&](std::size_t k) { return values(owned_[k]); }, visit);
}

void PartStateEntries::for_each(Kind kind, const Visit& visit) const {
  if (static_cast<int>(kind) != next_)
    throw std::logic_error("PartStateEntries: kind " + std::to_string(static_cast<int>(kind)) + " asked for, " +
                           std::to_string(next_) + " next: every process brings them in the same order");
  ++next_;
  const Vector& values = kind == Kind::q ? state_.q : kind == Kind::v ? state_.v : kind == Kind::p ? state_.p : state_.lambda;
  parts_.for_each_entry(kind == Kind::lambda, values, visit);
}

Index PartLabels::coordinates() const { return parts_.whole_coordinate_count(); }

Index PartLabels::constraint_rows() const { return parts_.whole_row_count(); }

void PartLabels::for_each_coordinate(const Visit& visit) const { bring(false, visit); }

void PartLabels::for_each_constraint_row(const Visit& visit) const { bring(true, visit); }

void PartLabels::bring(bool rows, const Visit& visit) const {
  if (next_ != (rows ? 1 : 0))
    throw std::logic_error(std::string("PartLabels: the ") + (rows ? "rows'" : "coordinates'") +
                           " labels asked for out of order: every process brings the coordinates' then the rows'");
  ++next_;
  parts_.for_each_entry(rows, Vector(), [&](const std::string& label, double) { visit(label); });
}

void PartLabels::finish() const {
  const Visit nothing = [](const std::string&) {};
  if (next_ == 0) bring(false, nothing);
  if (next_ == 1) bring(true, nothing);
}

void PartStateEntries::finish() const {
  for (int kind = next_; kind <= static_cast<int>(Kind::lambda); ++kind)
    for_each(static_cast<Kind>(kind), [](const std::string&, double) {});
}

void RunParts::number_reactions(const ReactionColumns& columns) {
  const std::vector<Index> counts = columns.counts();
  const auto placed = model_.system->constraints();
  std::vector<SortKey> keys;  // each joint's constraint's first row in the whole
  for (const std::size_t c : columns.constraints())
    keys.push_back({static_cast<double>(rows_in_whole_[static_cast<std::size_t>(placed[c].first_multiplier)]), 0.0});
  const KeyOrderNumbers columns_in_whole = number_in_key_order(*processes_, keys, counts);
  std::vector<Index> held;
  for (std::size_t k = 0; k < counts.size(); ++k)
    for (Index c = 0; c < counts[k]; ++c) held.push_back(columns_in_whole.first[k] + c);
  reactions_.emplace(*processes_, std::move(held), columns_in_whole.total);
}

std::vector<std::string> RunParts::reaction_labels(const ReactionColumns& columns) const {
  return reactions_->gather(columns.labels());
}

std::vector<double> RunParts::whole_reactions(std::span<const double> values) const {
  const Vector whole = reactions_->gather(values);
  return {whole.begin(), whole.end()};
}

}  // namespace noether

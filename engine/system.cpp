#include <noether/engine/system.hpp>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <utility>

#include <noether/engine/quote.hpp>

namespace noether {

namespace {

/// The serial number of the next System made (0 is no System's: hand-made BlockIds carry it).
std::atomic<std::uint64_t> next_serial{1};

}  // namespace

System::System() : serial_(next_serial.fetch_add(1, std::memory_order_relaxed)) {}

SystemUse::SystemUse(const System& system, std::string holder)
    : owner_(system.weak_from_this().lock()), system_(system), holder_(std::move(holder)) {
  const std::lock_guard lock(system_.users_.mutex);
  system_.users_.holders.push_back(&holder_);
}

SystemUse::~SystemUse() {
  const std::lock_guard lock(system_.users_.mutex);
  std::vector<const std::string*>& holders = system_.users_.holders;
  holders.erase(std::find(holders.begin(), holders.end(), &holder_));
}

System::Users& System::Users::operator=(const Users&) {
  const std::lock_guard lock(mutex);
  if (!holders.empty())
    throw std::logic_error("a System that " + *holders.back() + " uses cannot be assigned to: the " +
                           "steppers and projectors made on a System size themselves from it when made");
  return *this;
}

void System::require_unused(std::string_view kind, std::string_view name) const {
  const std::lock_guard lock(users_.mutex);
  if (users_.holders.empty()) return;
  const std::size_t others = users_.holders.size() - 1;
  throw std::logic_error(std::string(kind) + " '" + std::string(name) + "' added to a system that " +
                         *users_.holders.back() + " uses" +
                         (others == 0 ? std::string() : " (and " + std::to_string(others) + " more)") +
                         ": a stepper sizes its equations from the system when made, and would leave it out; add " +
                         "every block and element before making the steppers (or make new ones after adding)");
}

std::unique_ptr<System> System::blocks_only() const {
  auto out = std::make_unique<System>();
  out->serial_ = serial_;
  for (const CoordinateBlock& b : blocks_) out->add_block(b.name, b.coordinate_names);
  return out;
}

void require_column_name(const std::string& what, const std::string& name) {
  if (name.empty()) throw std::invalid_argument("a " + what + " needs a non-empty name");
  std::string found = hidden_character(name);
  for (const char c : name)
    if (found.empty() && (c == ',' || c == '"')) found = c == ',' ? "a comma" : "a double quote";
  if (!found.empty())
    throw std::invalid_argument(what + " " + quote(name) + ": a name must not contain a comma, a double quote, a " +
                                "control character (a newline, a tab, ESC, U+0085), a Unicode format character " +
                                "(U+200B, U+202E) or a byte that is not UTF-8, and it holds " + found +
                                ": names head the columns of the output files");
}

BlockId System::add_block(std::string name, std::vector<std::string> coordinate_names) {
  require_unused("coordinate block", name);
  require_column_name("coordinate block", name);
  const std::string coordinate_of = "coordinate of block " + quote(name);  // once per block, not per coordinate
  for (const std::string& coordinate : coordinate_names) require_column_name(coordinate_of, coordinate);
  if (coordinate_names.empty())
    throw std::invalid_argument("coordinate block " + quote(name) + " has no coordinates; give it at least one");
  if (block_index_.contains(name))
    throw std::invalid_argument("a coordinate block named " + quote(name) + " exists already; choose another name");
  if (const std::string clash = label_clash(name, coordinate_names); !clash.empty())
    throw std::invalid_argument(clash);
  const auto index = static_cast<Index>(blocks_.size());
  block_index_.emplace(name, index);
  if (name.find('.') != std::string::npos) ++dotted_block_names_;
  CoordinateBlock block{std::move(name), std::move(coordinate_names), num_coordinates_};
  num_coordinates_ += block.size();
  blocks_.push_back(std::move(block));
  return BlockId{index, serial_};
}

BlockId System::add_block(std::string name, Index size) {
  if (size <= 0)
    throw std::invalid_argument("coordinate block " + quote(name) + " has size " + std::to_string(size) +
                                "; a block needs at least one coordinate");
  std::vector<std::string> names;
  for (Index i = 0; i < size; ++i) names.push_back(std::to_string(i));
  return add_block(std::move(name), std::move(names));
}

bool System::has_block(BlockId id) const {
  return (id.system == 0 || id.system == serial_) && id.value >= 0 && id.value < static_cast<Index>(blocks_.size());
}

std::string System::why_not_a_block(BlockId id) const {
  if (id.system != 0 && id.system != serial_)
    return "block id " + std::to_string(id.value) +
           " of another system: a BlockId or BodyRef belongs to the System or Mechanism that made it";
  return "block id " + std::to_string(id.value) + ", which this system does not have";
}

const CoordinateBlock& System::block(BlockId id) const {
  if (has_block(id)) return blocks_[static_cast<std::size_t>(id.value)];
  if (id.system != 0 && id.system != serial_)
    throw std::invalid_argument("no coordinate block here: " + why_not_a_block(id));
  throw std::out_of_range("no coordinate block with id " + std::to_string(id.value));
}

std::optional<Index> System::block_index(std::string_view name) const {
  const auto found = block_index_.find(name);
  if (found == block_index_.end()) return std::nullopt;
  return found->second;
}

BlockId System::find_block(const std::string& name) const {
  if (const std::optional<Index> index = block_index(name)) return BlockId{*index, serial_};
  throw std::out_of_range("no coordinate block named " + quote(name));
}

std::optional<Index> System::find_coordinate(std::string_view label) const {
  for (std::size_t dot = label.find('.'); dot != std::string_view::npos; dot = label.find('.', dot + 1)) {
    const std::optional<Index> index = block_index(label.substr(0, dot));
    if (!index) continue;
    const CoordinateBlock& b = blocks_[static_cast<std::size_t>(*index)];
    const auto at = std::find(b.coordinate_names.begin(), b.coordinate_names.end(), label.substr(dot + 1));
    if (at != b.coordinate_names.end()) return b.offset + static_cast<Index>(at - b.coordinate_names.begin());
  }
  return std::nullopt;
}

std::string System::label_clash(const std::string& name, const std::vector<std::string>& coordinate_names) const {
  std::vector<std::string_view> names(coordinate_names.begin(), coordinate_names.end());
  std::sort(names.begin(), names.end());
  if (const auto twice = std::adjacent_find(names.begin(), names.end()); twice != names.end())
    return "coordinate block " + quote(name) + " names its coordinate " + quote(*twice) + " twice: each label " +
           escaped(name + "." + std::string(*twice)) + " heads one output column; name each coordinate once";
  const auto clash = [&](const std::string& coordinate, const CoordinateBlock& other, const std::string& theirs) {
    return "the coordinate " + quote(coordinate) + " of block " + quote(name) + " and the coordinate " + quote(theirs) +
           " of block " + quote(other.name) + " have one label, " + escaped(name + "." + coordinate) +
           ", which would head two output columns; rename one of the blocks";
  };
  // name = P.X with a block P: its coordinate "X.c" has the label of this block's "c".
  for (std::size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
    const std::optional<Index> index = block_index(std::string_view(name).substr(0, dot));
    if (!index) continue;
    const CoordinateBlock& other = blocks_[static_cast<std::size_t>(*index)];
    const std::string prefix = name.substr(dot + 1) + ".";
    for (const std::string& theirs : other.coordinate_names)
      if (theirs.starts_with(prefix) &&
          std::binary_search(names.begin(), names.end(), std::string_view(theirs).substr(prefix.size())))
        return clash(theirs.substr(prefix.size()), other, theirs);
  }
  if (dotted_block_names_ == 0) return "";
  // A coordinate Y.c of this block has the label of the coordinate c of a block name.Y.
  for (const std::string& coordinate : coordinate_names)
    for (std::size_t dot = coordinate.find('.'); dot != std::string::npos; dot = coordinate.find('.', dot + 1)) {
      const std::optional<Index> index = block_index(name + "." + coordinate.substr(0, dot));
      if (!index) continue;
      const CoordinateBlock& other = blocks_[static_cast<std::size_t>(*index)];
      const std::string theirs = coordinate.substr(dot + 1);
      if (std::find(other.coordinate_names.begin(), other.coordinate_names.end(), theirs) != other.coordinate_names.end())
        return clash(coordinate, other, theirs);
    }
  return "";
}

std::string System::coordinate_label(Index i) const {
  if (i < 0 || i >= num_coordinates_) throw std::out_of_range("no coordinate " + std::to_string(i));
  const auto after = std::upper_bound(blocks_.begin(), blocks_.end(), i,
                                      [](Index value, const CoordinateBlock& b) { return value < b.offset; });
  const CoordinateBlock& b = *(after - 1);
  return b.label(i - b.offset);
}

std::string System::multiplier_label(Index r) const {
  if (r < 0 || r >= num_multipliers_) throw std::out_of_range("no multiplier row " + std::to_string(r));
  const auto after = std::upper_bound(constraints_.begin(), constraints_.end(), r,
                                      [](Index value, const Placed<Constraint>& c) { return value < c.first_multiplier; });
  const Placed<Constraint>& c = *(after - 1);
  return "constraint " + quote(c.element->name()) + " row " + std::to_string(r - c.first_multiplier);
}

std::vector<Index> System::place(const Element* element_pointer) {
  if (!element_pointer) throw std::invalid_argument("System::add was given a null element");
  const Element& element = *element_pointer;
  require_unused("element", element.name());
  require_column_name("element", element.name());
  // The name is taken by the one lookup that finds it free, and given back if the element is refused below.
  if (!element_names_.insert(element.name()).second)
    throw std::invalid_argument("an element named " + quote(element.name()) + " exists already; element names are unique");
  try {
    return placed_dofs(element);
  } catch (...) {
    element_names_.erase(element.name());
    throw;
  }
}

std::vector<Index> System::placed_dofs(const Element& element) const {
  std::size_t size = 0;
  for (BlockId id : element.blocks()) {
    if (!has_block(id)) throw std::invalid_argument("element " + quote(element.name()) + " refers to " + why_not_a_block(id));
    size += static_cast<std::size_t>(blocks_[static_cast<std::size_t>(id.value)].size());
  }
  if (static_cast<Index>(size) != element.local_size())
    throw std::invalid_argument("element " + quote(element.name()) + " expects " + std::to_string(element.local_size()) +
                                " coordinates but its blocks hold " + std::to_string(size));
  // Sized before it is filled: every element keeps its list for the life of the model, and one
  // grown entry by entry would keep up to twice the room.
  std::vector<Index> dofs;
  dofs.reserve(size);
  for (BlockId id : element.blocks()) {
    const CoordinateBlock& b = blocks_[static_cast<std::size_t>(id.value)];
    for (Index i = 0; i < b.size(); ++i) dofs.push_back(b.offset + i);
  }
  return dofs;
}

void System::add(std::shared_ptr<const Inertia> element) {
  auto dofs = place(element.get());
  inertias_.push_back({std::move(element), std::move(dofs), 0});
}
void System::add(std::shared_ptr<const Potential> element) {
  auto dofs = place(element.get());
  potentials_.push_back({std::move(element), std::move(dofs), 0});
}
void System::add(std::shared_ptr<const Constraint> element) {
  if (element && element->num_equations() <= 0)
    throw std::invalid_argument("constraint " + quote(element->name()) + " has no equations");
  auto dofs = place(element.get());
  const Index first = num_multipliers_;
  num_multipliers_ += element->num_equations();
  constraints_.push_back({std::move(element), std::move(dofs), first});
}
void System::add(std::shared_ptr<const Dissipation> element) {
  auto dofs = place(element.get());
  dissipations_.push_back({std::move(element), std::move(dofs), 0});
}
void System::add(std::shared_ptr<const ExternalLoad> element) {
  auto dofs = place(element.get());
  external_loads_.push_back({std::move(element), std::move(dofs), 0});
}
void System::add(std::shared_ptr<const Actuator> element) {
  auto dofs = place(element.get());
  actuators_.push_back({std::move(element), std::move(dofs), 0});
}

void gather(ConstVectorRef x, std::span<const Index> dofs, Vector& local) {
  local.resize(static_cast<Index>(dofs.size()));
  for (std::size_t i = 0; i < dofs.size(); ++i) local(static_cast<Index>(i)) = x(dofs[i]);
}

}  // namespace noether

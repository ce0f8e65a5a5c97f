#include <noether/apps/output_labels.hpp>

#include <array>
#include <charconv>

namespace noether {

std::string constraint_row_label(const Constraint& constraint, Index row) {
  std::string text;
  append_constraint_row_label(text, constraint, row);
  return text;
}

void append_constraint_row_label(std::string& text, const Constraint& constraint, Index row) {
  std::array<char, 24> digits{};
  char* end = std::to_chars(digits.data(), digits.data() + digits.size(), row).ptr;
  text.append(constraint.name()).append("[");
  text.append(digits.data(), static_cast<std::size_t>(end - digits.data())).append("]");
}

void SystemLabels::for_each_coordinate(const Visit& visit) const {
  for (const CoordinateBlock& b : system_.blocks())
    for (Index i = 0; i < b.size(); ++i) visit(b.label(i));
}

void SystemLabels::for_each_constraint_row(const Visit& visit) const {
  for (const Placed<Constraint>& c : system_.constraints())
    for (Index row = 0; row < c.element->num_equations(); ++row) visit(constraint_row_label(*c.element, row));
}

void ListedLabels::for_each_coordinate(const Visit& visit) const {
  for (const std::string& label : coordinates_) visit(label);
}

void ListedLabels::for_each_constraint_row(const Visit& visit) const {
  for (const std::string& label : rows_) visit(label);
}

std::vector<std::string> coordinate_labels(const System& system) {
  std::vector<std::string> labels;
  labels.reserve(static_cast<std::size_t>(system.num_coordinates()));
  SystemLabels(system).for_each_coordinate([&](const std::string& label) { labels.push_back(label); });
  return labels;
}

std::vector<std::string> constraint_row_labels(const System& system) {
  std::vector<std::string> labels;
  labels.reserve(static_cast<std::size_t>(system.num_multipliers()));
  SystemLabels(system).for_each_constraint_row([&](const std::string& label) { labels.push_back(label); });
  return labels;
}

}  // namespace noether

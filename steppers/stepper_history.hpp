#pragma once
/// What a stepper keeps between steps that changes its next steps, as named arrays of numbers
/// (Stepper::history): saved by a checkpoint and restored into a stepper made alike on the same
/// system, so that the steps after the restore are bitwise those the saved stepper would take.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <noether/engine/types.hpp>

namespace noether {

class StepperHistory {
 public:
  using Entries = std::map<std::string, std::vector<double>, std::less<>>;

  StepperHistory() = default;
  explicit StepperHistory(Entries entries) : entries_(std::move(entries)) {}

  /// Sets the entry `key` (replacing one of that name).
  void put(std::string_view key, std::vector<double> values);
  void put(std::string_view key, ConstVectorRef values);
  void put(std::string_view key, double value) { put(key, std::vector<double>{value}); }

  /// The entry `key`; throws std::invalid_argument "the stepper history has no entry 'key'" when
  /// there is none, or, for number, when it does not hold exactly one value.
  const std::vector<double>& values(std::string_view key) const;
  Vector vector(std::string_view key) const;
  double number(std::string_view key) const;

  const Entries& entries() const { return entries_; }
  bool operator==(const StepperHistory&) const = default;

 private:
  Entries entries_;
};

}  // namespace noether

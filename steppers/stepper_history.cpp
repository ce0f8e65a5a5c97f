#include <noether/steppers/stepper_history.hpp>

#include <stdexcept>

#include <noether/engine/quote.hpp>

namespace noether {

void StepperHistory::put(std::string_view key, std::vector<double> values) {
  entries_.insert_or_assign(std::string(key), std::move(values));
}

void StepperHistory::put(std::string_view key, ConstVectorRef values) {
  put(key, std::vector<double>(values.data(), values.data() + values.size()));
}

const std::vector<double>& StepperHistory::values(std::string_view key) const {
  const auto entry = entries_.find(key);
  if (entry == entries_.end())
    throw std::invalid_argument("the stepper history has no entry " + quote(key));
  return entry->second;
}

Vector StepperHistory::vector(std::string_view key) const {
  const std::vector<double>& v = values(key);
  return Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size()));
}

double StepperHistory::number(std::string_view key) const {
  const std::vector<double>& v = values(key);
  if (v.size() != 1)
    throw std::invalid_argument("the stepper history entry " + quote(key) + " holds " +
                                std::to_string(v.size()) + " values, expected one");
  return v.front();
}

}  // namespace noether

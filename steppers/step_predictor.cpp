#include <noether/steppers/step_predictor.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// The polynomial through (times[i], values[i]), i < samples (at most 3), at `target`; fewer of
/// the latest samples when the weights of all would add up in magnitude to more than
/// StepPredictor::kMaxWeightSum (samples are ordered newest first).
Vector extrapolate(int samples, const std::array<double, 3>& times, const std::array<Vector, 3>& values, double target) {
  for (int count = samples; count > 1; --count) {
    std::array<double, 3> weights{};
    double weight_sum = 0.0;
    for (int i = 0; i < count; ++i) {
      weights[i] = 1.0;
      for (int j = 0; j < count; ++j)
        if (j != i) weights[i] *= (target - times[j]) / (times[i] - times[j]);
      weight_sum += std::abs(weights[i]);
    }
    if (!(weight_sum <= StepPredictor::kMaxWeightSum)) continue;  // also catches coinciding times
    Vector guess = weights[0] * values[0];
    for (int i = 1; i < count; ++i) guess += weights[i] * values[i];
    return guess;
  }
  return values[0];
}

/// a and b hold the same entries, bit for bit (one memcmp: Eigen's == compares entry by entry at
/// several times the cost; docs/notebook.md, "Newton's vector passes").
bool same_bits(const Vector& a, const Vector& b) {
  return a.size() == b.size() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0);
}

/// prefix followed by name and, when index >= 0, the index (built piece by piece: GCC 12 warns
/// falsely, -Wrestrict, on a chain of string additions).
std::string entry_name(std::string_view prefix, std::string_view name, int index = -1) {
  std::string key(prefix);
  key += name;
  if (index >= 0) key += std::to_string(index);
  return key;
}

}  // namespace

bool StepPredictor::continues_last_step(const State& state) const {
  return followed_steps_ > 0 && same_bits(state.q, result_q_) && same_bits(state.v, velocities_[0]) &&
         same_bits(state.lambda, multipliers_[0]);
}

StepGuess StepPredictor::predict(const State& state, double h) const {
  if (!continues_last_step(state)) return {state.v, state.lambda};
  // Times in units of h: exact for steps of one size, so that their weights are the integers above.
  const double h0 = sizes_[0] / h, h1 = sizes_[1] / h, h2 = sizes_[2] / h;
  const std::array<double, 3> velocity_times{0.0, -h0, -h0 - h1};
  const std::array<double, 3> multiplier_times{-0.5 * h0, -h0 - 0.5 * h1, -h0 - h1 - 0.5 * h2};
  return {extrapolate(std::min(followed_steps_ + 1, 3), velocity_times, velocities_, 1.0),
          extrapolate(std::min(followed_steps_, 3), multiplier_times, multipliers_, 0.5)};
}

void StepPredictor::record(const State& before, const State& after, double h) {
  if (continues_last_step(before)) {
    ++followed_steps_;
    sizes_ = {h, sizes_[0], sizes_[1]};
    std::swap(velocities_[2], velocities_[1]);  // v_{-1} becomes v_{-2}; v_0 (= before.v) becomes v_{-1}
    std::swap(velocities_[1], velocities_[0]);
    std::swap(multipliers_[2], multipliers_[1]);
    std::swap(multipliers_[1], multipliers_[0]);
  } else {
    followed_steps_ = 1;
    sizes_ = {h, 0.0, 0.0};
    velocities_[1] = before.v;
  }
  result_q_ = after.q;
  velocities_[0] = after.v;
  multipliers_[0] = after.lambda;
}

void StepPredictor::save(StepperHistory& history, std::string_view prefix) const {
  history.put(entry_name(prefix, "followed_steps"), static_cast<double>(followed_steps_));
  history.put(entry_name(prefix, "sizes"), std::vector<double>(sizes_.begin(), sizes_.end()));
  history.put(entry_name(prefix, "q"), result_q_);
  for (std::size_t i = 0; i < 3; ++i) {
    history.put(entry_name(prefix, "v", static_cast<int>(i)), velocities_[i]);
    history.put(entry_name(prefix, "lambda", static_cast<int>(i)), multipliers_[i]);
  }
}

void StepPredictor::restore(const StepperHistory& history, std::string_view prefix, Index coordinates,
                            Index multipliers) {
  const double followed = history.number(entry_name(prefix, "followed_steps"));
  const std::vector<double>& sizes = history.values(entry_name(prefix, "sizes"));
  if (!(followed >= 0.0 && followed <= 1e9 && followed == std::floor(followed)) || sizes.size() != sizes_.size())
    throw std::invalid_argument("the stepper history entries " + quote(entry_name(prefix, "followed_steps")) + " and " +
                                quote(entry_name(prefix, "sizes")) + " must hold a whole count >= 0 and 3 step sizes");
  followed_steps_ = static_cast<int>(followed);
  std::copy(sizes.begin(), sizes.end(), sizes_.begin());
  result_q_ = history.vector(entry_name(prefix, "q"));
  for (std::size_t i = 0; i < 3; ++i) {
    velocities_[i] = history.vector(entry_name(prefix, "v", static_cast<int>(i)));
    multipliers_[i] = history.vector(entry_name(prefix, "lambda", static_cast<int>(i)));
  }
  if (followed_steps_ == 0) return;
  const auto require_size = [&](const Vector& sample, Index size, const std::string& key) {
    if (sample.size() != size)
      throw std::invalid_argument("the stepper history entry " + quote(key) + " holds " +
                                  std::to_string(sample.size()) + " values, expected " + std::to_string(size));
  };
  require_size(result_q_, coordinates, entry_name(prefix, "q"));
  for (int i = 0; i < std::min(followed_steps_ + 1, 3); ++i)
    require_size(velocities_[static_cast<std::size_t>(i)], coordinates, entry_name(prefix, "v", i));
  for (int i = 0; i < std::min(followed_steps_, 3); ++i)
    require_size(multipliers_[static_cast<std::size_t>(i)], multipliers, entry_name(prefix, "lambda", i));
}

}  // namespace noether

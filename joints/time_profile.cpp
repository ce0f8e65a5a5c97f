#include <noether/joints/time_profile.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <stdexcept>

#include <noether/engine/format.hpp>

namespace noether {
namespace {

void require_finite(const std::string& owner, std::initializer_list<double> values) {
  for (double v : values)
    if (!std::isfinite(v)) throw std::invalid_argument(owner + ": a profile value is not finite (" + format_number(v) + ")");
}

void check_table(const TableProfile& table, const std::string& owner) {
  if (table.times.empty() || table.times.size() != table.values.size())
    throw std::invalid_argument(owner + ": a table needs as many values as times, at least one, got " +
                                std::to_string(table.times.size()) + " times and " +
                                std::to_string(table.values.size()) + " values");
  for (std::size_t i = 0; i < table.times.size(); ++i) {
    require_finite(owner, {table.times[i], table.values[i]});
    if (i > 0 && !(table.times[i] > table.times[i - 1]))
      throw std::invalid_argument(owner + ": the table's times must increase strictly, but time " + std::to_string(i) +
                                  " (" + format_number(table.times[i]) + ") follows " + format_number(table.times[i - 1]));
  }
}

double interpolate(const TableProfile& table, double t) {
  const auto after = std::upper_bound(table.times.begin(), table.times.end(), t);
  if (after == table.times.begin()) return table.values.front();
  if (after == table.times.end()) return table.values.back();
  const auto i = static_cast<std::size_t>(after - table.times.begin());
  const double s = (t - table.times[i - 1]) / (table.times[i] - table.times[i - 1]);
  return table.values[i - 1] + s * (table.values[i] - table.values[i - 1]);
}

/// The slope of the segment [times[i - 1], times[i]) that holds t; 0 outside the table.
double slope(const TableProfile& table, double t) {
  const auto after = std::upper_bound(table.times.begin(), table.times.end(), t);
  if (after == table.times.begin() || after == table.times.end()) return 0.0;
  const auto i = static_cast<std::size_t>(after - table.times.begin());
  return (table.values[i] - table.values[i - 1]) / (table.times[i] - table.times[i - 1]);
}

}  // namespace

void check_time_profile(const TimeProfile& profile, const std::string& owner) {
  if (const auto* c = std::get_if<ConstantProfile>(&profile)) require_finite(owner, {c->value});
  if (const auto* table = std::get_if<TableProfile>(&profile)) check_table(*table, owner);
  if (const auto* s = std::get_if<SineProfile>(&profile))
    require_finite(owner, {s->amplitude, s->angular_frequency, s->phase, s->offset});
  if (const auto* d = std::get_if<DampedHarmonicProfile>(&profile))
    require_finite(owner, {d->decay, d->angular_frequency, d->cosine_amplitude, d->sine_amplitude});
  if (const auto* r = std::get_if<RampProfile>(&profile)) require_finite(owner, {r->rate, r->offset});
}

double evaluate(const TimeProfile& profile, double t) {
  if (const auto* c = std::get_if<ConstantProfile>(&profile)) return c->value;
  if (const auto* table = std::get_if<TableProfile>(&profile)) return interpolate(*table, t);
  if (const auto* s = std::get_if<SineProfile>(&profile))
    return s->offset + s->amplitude * std::sin(s->angular_frequency * t + s->phase);
  if (const auto* r = std::get_if<RampProfile>(&profile)) return r->offset + r->rate * t;
  const auto& d = std::get<DampedHarmonicProfile>(profile);
  const double w = d.angular_frequency;
  return std::exp(-d.decay * t) * (d.cosine_amplitude * std::cos(w * t) + d.sine_amplitude * std::sin(w * t));
}

double evaluate_rate(const TimeProfile& profile, double t) {
  if (std::holds_alternative<ConstantProfile>(profile)) return 0.0;
  if (const auto* table = std::get_if<TableProfile>(&profile)) return slope(*table, t);
  if (const auto* s = std::get_if<SineProfile>(&profile))
    return s->amplitude * s->angular_frequency * std::cos(s->angular_frequency * t + s->phase);
  if (const auto* r = std::get_if<RampProfile>(&profile)) return r->rate;
  const auto& d = std::get<DampedHarmonicProfile>(profile);
  const double w = d.angular_frequency, c = std::cos(w * t), sn = std::sin(w * t);
  return std::exp(-d.decay * t) * ((w * d.sine_amplitude - d.decay * d.cosine_amplitude) * c -
                                   (w * d.cosine_amplitude + d.decay * d.sine_amplitude) * sn);
}

TimeFunction directed_load(const Vector& direction, TimeProfile profile, const std::string& owner) {
  check_time_profile(profile, owner);
  if (!direction.allFinite()) throw std::invalid_argument(owner + ": the load direction has a non-finite entry");
  return [direction, profile = std::move(profile)](double t) { return Vector(direction * evaluate(profile, t)); };
}

}  // namespace noether

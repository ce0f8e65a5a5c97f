#pragma once
/// Scalar functions of time that scale prescribed loads (PointForce, BodyTorque), feed probes and
/// prescribe motions (driven joints): constant, a table, a sine, a damped harmonic, a ramp. Values, not callbacks, so a scene file can name them.
#include <string>
#include <variant>
#include <vector>

#include <noether/joints/applied_loads.hpp>

namespace noether {

/// f(t) = value.
struct ConstantProfile {
  double value = 0.0;
};

/// f(t) = the piecewise linear interpolation of (times[i], values[i]), constant beyond the ends.
/// times strictly increasing, at least one point, as many values as times.
struct TableProfile {
  std::vector<double> times, values;
};

/// f(t) = offset + amplitude sin(angular_frequency t + phase).
struct SineProfile {
  double amplitude = 0.0, angular_frequency = 0.0, phase = 0.0, offset = 0.0;
};

/// f(t) = exp(-decay t) (cosine_amplitude cos(angular_frequency t) + sine_amplitude sin(angular_frequency t)):
/// the free motion of a damped (decay > 0) or amplified (decay < 0) linear oscillator.
struct DampedHarmonicProfile {
  double decay = 0.0, angular_frequency = 0.0, cosine_amplitude = 0.0, sine_amplitude = 0.0;
};

/// f(t) = offset + rate t: a constant rate (a crank turning at rate rad/s).
struct RampProfile {
  double rate = 0.0, offset = 0.0;
};

using TimeProfile = std::variant<ConstantProfile, TableProfile, SineProfile, DampedHarmonicProfile, RampProfile>;

/// Throws std::invalid_argument, starting with `owner`, when a number is not finite or a table is
/// empty, of unequal lengths or not strictly increasing in time.
void check_time_profile(const TimeProfile& profile, const std::string& owner);

/// f(t) (the profile must pass check_time_profile).
double evaluate(const TimeProfile& profile, double t);

/// f'(t), the rate of f (the profile must pass check_time_profile). A table's is piecewise
/// constant: the slope of the segment [times[i], times[i+1]) that holds t, so at a knot the slope
/// of the segment that starts there (the rate from the right; f itself is only continuous there),
/// and 0 before the first and from the last time on (where f is constant).
double evaluate_rate(const TimeProfile& profile, double t);

/// t -> direction * f(t): a world-frame load of fixed direction scaled by a profile (PointForce,
/// BodyTorque). Checks the profile (owner names it in errors) and that direction is finite.
TimeFunction directed_load(const Vector& direction, TimeProfile profile, const std::string& owner);

}  // namespace noether

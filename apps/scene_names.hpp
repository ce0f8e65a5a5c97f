#pragma once
/// The names scene files give to kinds (docs/scenes.md), shared by the reader (scene_reader.cpp)
/// and the writer (scene_writer.cpp): each table lists the names in the order of the alternatives
/// of the variant, or the values of the enum, it stands for, so that a kind and its name are
/// stated once. Joint kinds name themselves (JointKind::name, apps/model/joint_kinds.hpp).
#include <algorithm>
#include <array>
#include <string_view>
#include <type_traits>
#include <variant>

#include <noether/apps/model/model_description.hpp>
#include <noether/engine/discrete_gradients.hpp>

namespace noether::scene_names {

/// BodyDescription's alternatives.
inline constexpr std::array<std::string_view, 5> kBodyTypes{"rigid", "planar", "point_mass", "spherical_point_mass",
                                                            "coordinates"};
/// ConstraintDescription's alternatives.
inline constexpr std::array<std::string_view, 2> kConstraintTypes{"quadratic", "distance_power"};
/// ForceDescription's alternatives.
inline constexpr std::array<std::string_view, 9> kForceTypes{
    "gravity", "spring", "damper", "rotational_spring", "rotational_damper", "force", "torque", "polynomial",
    "damping_matrix"};
/// TimeProfile's alternatives.
inline constexpr std::array<std::string_view, 5> kProfileTypes{"constant", "table", "sine", "damped_harmonic",
                                                               "ramp"};
/// ActuatorDescription::coordinate's alternatives (a hinge, a slide): the joint kind it drives.
inline constexpr std::array<std::string_view, 2> kActuatorTypes{"revolute", "prismatic"};
/// ActuatorLawDescription's alternatives.
inline constexpr std::array<std::string_view, 2> kActuatorLaws{"profile", "pd"};
/// ProbeDescription's alternatives.
inline constexpr std::array<std::string_view, 2> kProbeTypes{"point", "profile"};
/// DriveKind's values, in its order.
inline constexpr std::array<std::string_view, 3> kDriveTypes{"revolute", "prismatic", "point"};
/// A point drive's profile keys, one per world component.
inline constexpr std::array<std::string_view, 3> kTrajectoryKeys{"profile_x", "profile_y", "profile_z"};
/// SpringLawKind's values.
inline constexpr std::array<std::string_view, 2> kSpringLaws{"linear", "green_strain"};
/// Momentum's values (an invariant's type).
inline constexpr std::array<std::string_view, 2> kMomenta{"linear_momentum", "angular_momentum"};
/// The axes of conserved_momenta, x, y, z: flags 0, 1, 2.
inline constexpr std::array<std::string_view, 3> kAxes{"x", "y", "z"};
/// The discrete gradients a distance_power constraint takes, named by to_string(DiscreteGradientKind).
inline constexpr std::array<DiscreteGradientKind, 4> kDerivativeKinds{
    DiscreteGradientKind::scaled_midpoint, DiscreteGradientKind::average_vector_field, DiscreteGradientKind::gonzalez,
    DiscreteGradientKind::partitioned};

static_assert(kBodyTypes.size() == std::variant_size_v<BodyDescription>);
static_assert(kConstraintTypes.size() == std::variant_size_v<ConstraintDescription>);
static_assert(kForceTypes.size() == std::variant_size_v<ForceDescription>);
static_assert(kProfileTypes.size() == std::variant_size_v<TimeProfile>);
static_assert(kProbeTypes.size() == std::variant_size_v<ProbeDescription>);
static_assert(kActuatorTypes.size() == std::variant_size_v<decltype(ActuatorDescription::coordinate)>);
static_assert(kActuatorLaws.size() == std::variant_size_v<ActuatorLawDescription>);

/// The names of kDerivativeKinds, in their order.
inline std::array<std::string_view, kDerivativeKinds.size()> derivative_names() {
  std::array<std::string_view, kDerivativeKinds.size()> names;
  std::transform(kDerivativeKinds.begin(), kDerivativeKinds.end(), names.begin(),
                 [](DiscreteGradientKind k) { return to_string(k); });
  return names;
}

/// The position of `name` in `names` (names.size() when absent).
template <std::size_t N>
std::size_t index_of(const std::array<std::string_view, N>& names, std::string_view name) {
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

/// The enum value named `name`, one of `names` (the table of that enum).
template <class Enum, std::size_t N>
  requires std::is_enum_v<Enum>
Enum value_named(const std::array<std::string_view, N>& names, std::string_view name) {
  return static_cast<Enum>(index_of(names, name));
}

/// The name of an enum's value in its table.
template <std::size_t N, class Enum>
  requires std::is_enum_v<Enum>
std::string_view name_in(const std::array<std::string_view, N>& names, Enum value) {
  return names[static_cast<std::size_t>(value)];
}

/// The name of the alternative a variant holds, in the variant's table.
template <std::size_t N, class... T>
std::string_view name_in(const std::array<std::string_view, N>& names, const std::variant<T...>& value) {
  static_assert(N == sizeof...(T), "one name per alternative");
  return names[value.index()];
}

}  // namespace noether::scene_names

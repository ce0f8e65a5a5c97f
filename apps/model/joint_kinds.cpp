#include <noether/apps/model/joint_kinds.hpp>

#include <algorithm>
#include <array>
#include <mutex>
#include <stdexcept>

#include <noether/engine/quote.hpp>
#include <noether/joints/joint_library.hpp>

namespace noether {
namespace {

constexpr Takes kOptional = Takes::optional, kRequired = Takes::required;
/// The sides of the library's families: a point; a point and an axis; a joint frame; an axis.
constexpr JointSideData kPoint{.point = kOptional};
constexpr JointSideData kPointAxis{.point = kOptional, .axis = kRequired};
constexpr JointSideData kFrame{.point = kOptional, .axis = kRequired, .normal = kRequired};
constexpr JointSideData kAxis{.axis = kRequired};

constexpr std::array kLength{JointNumber{"length", "the distance kept", NumberSign::positive}};

}  // namespace

namespace joint_kinds {

constinit const JointKind spherical{
    .name = "spherical", .a = kPoint, .b = kPoint, .freedom = "3 rotations",
    .make = [](const JointEnds& e) { return e.points(make_spherical_to_ground, make_spherical); }};
constinit const JointKind revolute{
    .name = "revolute", .a = kPointAxis, .b = kPointAxis, .freedom = "rotation about the axis",
    .make = [](const JointEnds& e) { return e.axes(make_revolute_to_ground, make_revolute); }};
constinit const JointKind universal{
    .name = "universal", .a = kPointAxis, .b = kPointAxis, .keys_note = "(the two pins, perpendicular)",
    .freedom = "2 rotations",
    .make = [](const JointEnds& e) { return e.axes(make_universal_to_ground, make_universal); }};
constinit const JointKind cylindrical{
    .name = "cylindrical", .a = kPointAxis, .b = kPointAxis, .freedom = "slide along and turn about the axis",
    .make = [](const JointEnds& e) { return e.axes(make_cylindrical_to_ground, make_cylindrical); }};
constinit const JointKind prismatic{
    .name = "prismatic", .a = kFrame, .b = kFrame, .keys_note = "(joint frames)", .freedom = "slide along the axis",
    .make = [](const JointEnds& e) { return e.frames(make_prismatic_to_ground, make_prismatic); }};
constinit const JointKind fixed{
    .name = "fixed", .a = kFrame, .b = kFrame, .keys_note = "(joint frames)", .freedom = "none",
    .make = [](const JointEnds& e) { return e.frames(make_fixed_to_ground, make_fixed); }};
constinit const JointKind distance{
    .name = "distance", .a = kPoint, .b = kPoint, .numbers = kLength, .freedom = "all but the distance",
    .drawn_as_segment = true, .make = [](const JointEnds& e) {
      const double length = e.numbers[0];
      return e.ground() ? make_distance_to_ground(e.name, e.point_a, e.b, e.point_b, length)
                        : make_distance(e.name, *e.a, e.point_a, e.b, e.point_b, length);
    }};
constinit const JointKind perpendicular{
    .name = "perpendicular", .a = kAxis, .b = kAxis,
    .freedom = "all but one rotation (the axes stay perpendicular)", .make = [](const JointEnds& e) {
      return e.ground() ? make_perpendicular_to_ground(e.name, e.side_a.axis, e.b, e.side_b.axis)
                        : make_perpendicular(e.name, *e.a, e.side_a.axis, e.b, e.side_b.axis);
    }};
constinit const JointKind revolute_planar{
    .name = "revolute_planar", .a = kPoint, .b = kPoint, .freedom = "rotation",
    .make = [](const JointEnds& e) { return e.points(make_revolute_planar_to_ground, make_revolute_planar); }};
constinit const JointKind prismatic_planar{
    .name = "prismatic_planar", .a = kPointAxis, .b = kPointAxis, .freedom = "slide along the axis",
    .make = [](const JointEnds& e) { return e.axes(make_prismatic_planar_to_ground, make_prismatic_planar); }};
constinit const JointKind fixed_planar{
    .name = "fixed_planar", .a = kPointAxis, .b = kPointAxis, .freedom = "none",
    .make = [](const JointEnds& e) { return e.axes(make_fixed_planar_to_ground, make_fixed_planar); }};

}  // namespace joint_kinds

namespace {

constexpr std::array<const JointKind*, 11> kLibrary{
    &joint_kinds::spherical,     &joint_kinds::revolute,        &joint_kinds::universal,        &joint_kinds::cylindrical,
    &joint_kinds::prismatic,     &joint_kinds::fixed,           &joint_kinds::distance,         &joint_kinds::perpendicular,
    &joint_kinds::revolute_planar, &joint_kinds::prismatic_planar, &joint_kinds::fixed_planar};

/// The registered kinds, in the order of their registration, and the lock that guards them.
struct Registry {
  std::mutex lock;
  std::vector<const JointKind*> kinds;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

namespace joint_kinds {

std::span<const JointKind* const> library() { return kLibrary; }

std::vector<const JointKind*> all() {
  std::vector<const JointKind*> kinds(kLibrary.begin(), kLibrary.end());
  Registry& r = registry();
  const std::lock_guard guard(r.lock);
  kinds.insert(kinds.end(), r.kinds.begin(), r.kinds.end());
  return kinds;
}

const JointKind* find(std::string_view name) {
  for (const JointKind* kind : all())
    if (kind->name == name) return kind;
  return nullptr;
}

}  // namespace joint_kinds

JointKindRegistration::JointKindRegistration(const JointKind& kind) : kind_(kind) {
  if (kind.make == nullptr)
    throw std::invalid_argument("joint kind " + quote(kind.name) + " has no constructor");
  Registry& r = registry();
  const std::lock_guard guard(r.lock);
  const auto named = [&](const JointKind* k) { return k->name == kind.name; };
  if (std::any_of(kLibrary.begin(), kLibrary.end(), named) || std::any_of(r.kinds.begin(), r.kinds.end(), named))
    throw std::invalid_argument("a joint kind named " + quote(kind.name) + " exists already");
  r.kinds.push_back(&kind);
}

JointKindRegistration::~JointKindRegistration() {
  Registry& r = registry();
  const std::lock_guard guard(r.lock);
  std::erase(r.kinds, &kind_);
}

}  // namespace noether

#pragma once
/// Joint kinds as descriptions, scene files and drawings know them: one descriptor (JointKind) per
/// kind states its scene-file name, the attachment data each side takes, the numbers it takes, its
/// line of documentation, how it is drawn and the library constructor it calls. build_model, the
/// scene reader and writer (apps/scene_reader.cpp, apps/scene_writer.cpp) and the VTK drawing read
/// these descriptors and name no kind; tests/apps/test_joint_kind_docs.cpp checks the joint part of
/// docs/scene.schema.json and the joint table of docs/scenes.md against them. The library's kinds
/// are joint_kinds::spherical ... joint_kinds::fixed_planar; a kind defined elsewhere (an
/// application's, a test's) reaches scene files through a JointKindRegistration.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <noether/bodies/kinematics.hpp>
#include <noether/engine/constraint.hpp>
#include <noether/joints/joint_bodies.hpp>

namespace noether {

/// One side of a joint: a body (empty: the ground) and the attachment data its kind takes, in body
/// coordinates (world coordinates on the ground). An empty vector is a datum not given.
struct JointSide {
  std::string body;
  Vector point, axis, normal;
};

/// Whether a side of a joint kind takes a datum: not at all, optionally (a point not given is the
/// body origin, or the world origin on the ground) or necessarily.
enum class Takes { no, optional, required };

/// The attachment data one side of a joint kind takes: its scene-file keys point_a, axis_a,
/// normal_a on side A (point_b, ... on side B).
struct JointSideData {
  Takes point = Takes::no, axis = Takes::no, normal = Takes::no;
};

/// The values a joint kind's number accepts (beyond being finite).
enum class NumberSign { any, positive, nonnegative };

/// A number a joint kind takes besides its sides (the distance joint's length): its scene-file key,
/// what it means (in a "missing key" message) and its sign.
struct JointNumber {
  std::string_view key = {}, meaning = {};
  NumberSign sign = NumberSign::any;
};

/// A joint as its kind's constructor receives it: the bodies resolved (a: null for the ground), the
/// points of the sides with the origin for a point not given, and the numbers in the order of
/// JointKind::numbers.
struct JointEnds {
  const std::string& name;
  const BodyRef* a;
  const BodyRef& b;
  Vector point_a, point_b;
  const JointSide &side_a, &side_b;
  std::span<const double> numbers;

  bool ground() const { return a == nullptr; }

  /// The library's two constructors of a family whose sides are a point each:
  /// to_ground(name, point_a, b, point_b) or between(name, a, point_a, b, point_b).
  template <class ToGround, class Between>
  std::shared_ptr<Constraint> points(ToGround to_ground, Between between) const {
    return ground() ? to_ground(name, point_a, b, point_b) : between(name, *a, point_a, b, point_b);
  }
  /// ... a point and an axis each: to_ground(name, point_a, axis_a, b, point_b, axis_b), or between.
  template <class ToGround, class Between>
  std::shared_ptr<Constraint> axes(ToGround to_ground, Between between) const {
    return ground() ? to_ground(name, point_a, side_a.axis, b, point_b, side_b.axis)
                    : between(name, *a, point_a, side_a.axis, b, point_b, side_b.axis);
  }
  /// ... a joint frame each (JointFrame{point, axis, normal}): to_ground(name, frame_a, b, frame_b), or between.
  template <class ToGround, class Between>
  std::shared_ptr<Constraint> frames(ToGround to_ground, Between between) const {
    const JointFrame frame_a{point_a, side_a.axis, side_a.normal}, frame_b{point_b, side_b.axis, side_b.normal};
    return ground() ? to_ground(name, frame_a, b, frame_b) : between(name, *a, frame_a, b, frame_b);
  }
};

/// A joint kind, described once. The scene-file keys of a joint of this kind are name, type,
/// body_a, the data of `a` (suffix _a), body_b, the data of `b` (suffix _b) and the numbers, read
/// and written in that order; body_a absent is the ground.
struct JointKind {
  std::string_view name;  ///< the scene file's "type"
  JointSideData a = {}, b = {};
  std::span<const JointNumber> numbers = {};
  /// docs/scenes.md's joint table: what follows the keys ("(joint frames)"; may be empty), and the
  /// relative motion the joint leaves ("3 rotations").
  std::string_view keys_note = {}, freedom = {};
  /// The VTK drawing (docs/output.md): a segment from A's point to B's, or B's point alone (nothing
  /// when side B takes no point).
  bool drawn_as_segment = false;
  /// The library's constructor for the resolved joint; its refusals are std::invalid_argument.
  std::shared_ptr<Constraint> (*make)(const JointEnds& ends) = nullptr;
};

namespace joint_kinds {

/// The library's joint kinds (joints/joint_library.hpp).
extern const JointKind spherical, revolute, universal, cylindrical, prismatic, fixed, distance, perpendicular,
    revolute_planar, prismatic_planar, fixed_planar;

/// The library's kinds, in the order of docs/scenes.md.
std::span<const JointKind* const> library();

/// The kinds scene files accept: the library's, then the registered ones in the order of their
/// registration.
std::vector<const JointKind*> all();

/// The kind named `name` among all(); null when there is none.
const JointKind* find(std::string_view name);

}  // namespace joint_kinds

/// Makes a kind defined outside the library one of joint_kinds::all() for the registration's lifetime.
/// The kind must outlive the registration and every description naming it. Throws
/// std::invalid_argument when its name is taken or it has no constructor. Registrations are
/// guarded by a lock; a scene read while one ends may see the kind or not.
class JointKindRegistration {
 public:
  explicit JointKindRegistration(const JointKind& kind);
  ~JointKindRegistration();
  JointKindRegistration(const JointKindRegistration&) = delete;
  JointKindRegistration& operator=(const JointKindRegistration&) = delete;

 private:
  const JointKind& kind_;
};

}  // namespace noether

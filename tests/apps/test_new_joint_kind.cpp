/// A new joint kind, written in this file and touching no other: its equation (a point on a plane)
/// and its descriptor (apps/model/joint_kinds.hpp), registered for the test. Through the
/// descriptor alone scene files read it, write it back, build it and run it
/// (docs/architecture.md, "Adding a joint kind").
#include <array>
#include <cmath>
#include <memory>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/model/joint_kinds.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/scene_file.hpp>
#include "support/temp_dir.hpp"

using namespace noether;

namespace {

/// A point of B stays on the plane through point_a of A (or a world point) normal to n_A at the
/// signed distance `offset`:
///   g = n_A . (x_B(X_b) - x_A(X_a)) - offset,   n_A = axis_a / |axis_a|   (1 bilinear; linear to the ground).
/// Between two bodies A gives a direction, so both must be director bodies; to the ground B may be a point mass.
std::shared_ptr<Constraint> make_plane(const JointEnds& e) {
  const JointFamily family{"plane joint", e.b.kinematics.dimension(), !e.ground()};
  const JointBodies bodies = e.ground() ? JointBodies(e.name, family, e.b) : JointBodies(e.name, family, *e.a, e.b);
  const AffineVector n = bodies.direction_a(bodies.unit(e.side_a.axis, "axis_a"));
  return bodies.make_joint({dot_equation(n, bodies.point_b(e.point_b) - bodies.point_a(e.point_a), 1.0, -e.numbers[0])},
                           e.point_b);
}

constexpr std::array kOffset{JointNumber{"offset", "the plane's signed distance from point_a along axis_a", NumberSign::any}};

/// Side A gives the plane (a point and its normal), side B a point; one number, the offset.
const JointKind kPlane{.name = "plane",
                       .a = {.point = Takes::optional, .axis = Takes::required},
                       .b = {.point = Takes::optional},
                       .numbers = kOffset,
                       .freedom = "all but the distance to the plane",
                       .make = make_plane};

/// A point mass of 2 kg sliding under gravity on the plane through (0, 0, 1) normal to
/// n = (0, 3, 4)/5 at offset 0.25, started on it, (1, 0.15, 1.2), with a velocity along it, (0.5, 0.8, -0.6).
const char* const kSlope = R"({
  "noether_scene": 1,
  "name": "slope",
  "bodies": [{"name": "bob", "type": "point_mass", "mass": 2.0, "position": [1.0, 0.15, 1.2], "velocity": [0.5, 0.8, -0.6]}],
  "joints": [{"name": "slope", "type": "plane", "point_a": [0.0, 0.0, 1.0], "axis_a": [0.0, 3.0, 4.0], "body_b": "bob",
              "offset": 0.25}],
  "forces": [{"type": "gravity", "acceleration": [0.0, 0.0, -9.81]}],
  "probes": [{"name": "bob", "body": "bob"}],
  "run": {"stepper": "livens-em", "h": 0.01, "t_end": 1.0}
})";

/// The message parse_scene gives for the document, or "(accepted)".
std::string refusal(const nlohmann::json& document) {
  try {
    parse_scene(document.dump(), "slope.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("a registered joint kind is read, written back, built and refused like the library's") {
  const JointKindRegistration registration(kPlane);
  const Scene scene = parse_scene(kSlope, "slope.json");
  REQUIRE(scene.model.joints.size() == 1);
  const JointDescription& joint = scene.model.joints[0];
  CHECK(joint.kind == &kPlane);
  CHECK(joint.numbers == std::vector<double>{0.25});
  // Written with the descriptor's keys in its order (no body_a: the ground; no point_b: the origin).
  const std::string text = scene_json(scene);
  const nlohmann::json written = nlohmann::json::parse(text)["joints"][0];
  CHECK(written == nlohmann::json::parse(
                       R"({"name": "slope", "type": "plane", "point_a": [0.0, 0.0, 1.0], "axis_a": [0.0, 3.0, 4.0],
                           "body_b": "bob", "offset": 0.25})"));
  CHECK(text.find(R"("type": "plane",)") < text.find(R"("offset": 0.25)"));
  CHECK(scene_json(parse_scene(text, "again.json")) == text);
  const Model model = build_model(scene.model);
  CHECK(model.system->num_multipliers() == 1);
  ModelDescription without_offset = scene.model;  // a description written in C++ checks its numbers
  without_offset.joints[0].numbers.clear();
  CHECK_THROWS_WITH_AS(build_model(without_offset), "joints[0]: a plane joint takes the numbers offset, got 0",
                       ModelDescriptionError);

  const nlohmann::json document = nlohmann::json::parse(kSlope);
  nlohmann::json no_axis = document, axis_b = document, no_offset = document;
  no_axis["joints"][0].erase("axis_a");
  axis_b["joints"][0]["axis_b"] = {0.0, 0.0, 1.0};
  no_offset["joints"][0].erase("offset");
  CHECK(refusal(no_axis) == "slope.json: /joints/0: missing key 'axis_a' (the joint axis of side a)");
  CHECK(refusal(axis_b) == "slope.json: /joints/0: unknown key 'axis_b' (did you mean 'axis_a'?); a joint of type plane "
                           "takes: name, type, body_a, point_a, axis_a, body_b, point_b, offset");
  CHECK(refusal(no_offset) ==
        "slope.json: /joints/0: missing key 'offset' (the plane's signed distance from point_a along axis_a)");
  nlohmann::json zero_axis = document;
  zero_axis["joints"][0]["axis_a"] = {0.0, 0.0, 0.0};
  CHECK(refusal(zero_axis).starts_with("slope.json: /joints/0: plane joint 'slope': axis_a"));
}

TEST_CASE("a registered joint kind runs from a scene file: a point sliding on an inclined plane") {
  const JointKindRegistration registration(kPlane);
  testing::TempDir dir("new_joint_kind");
  RunOptions options;
  options.scene = SceneSource{"slope.json", std::make_shared<const Scene>(parse_scene(kSlope, "slope.json"))};
  options.output_dir = dir.path;
  options.threads = 1;
  CHECK(run(options).ok());
  const auto summary = nlohmann::json::parse(testing::read_file(dir.path / "summary.json"));
  CHECK(summary["steps"] == 100);
  // Newton stops at its scaled residual 1e-13 (2.2e-13 measured for |g|); a scheme that lost the
  // constraint would leave O(h^2 |a|) = 1e-3.
  CHECK(summary["constraint_max_abs"].get<double>() <= 1e-12);
  // On the plane the acceleration is gravity less its normal part, a = g - (g.n) n = (0, 4.7088, -3.5316),
  // constant: x(t) = x0 + v0 t + a t^2 / 2. livens-em's midpoint rule is exact for a constant
  // acceleration; what remains is Newton's tolerance over 100 steps (1.3e-12 measured), where a
  // first-order error would be O(h |a|) = 0.05.
  const double t = summary["t_reached"].get<double>();
  const Eigen::Vector3d x0(1.0, 0.15, 1.2), v0(0.5, 0.8, -0.6), a(0.0, 9.81 * 0.8 * 0.6, -9.81 + 9.81 * 0.8 * 0.8);
  const Eigen::Vector3d expected = x0 + v0 * t + 0.5 * a * t * t;
  const auto probe = nlohmann::json::parse(testing::read_file(dir.path / "final_state.json"))["probes"]["bob"];
  REQUIRE(probe.size() == 3);
  for (int k = 0; k < 3; ++k) CHECK(std::abs(probe[k].get<double>() - expected(k)) <= 1e-11);
}

TEST_CASE("a joint kind's registration ends with its scope, and a name is registered once") {
  {
    const JointKindRegistration registration(kPlane);
    CHECK(joint_kinds::find("plane") == &kPlane);
    CHECK_THROWS_WITH_AS(JointKindRegistration{kPlane}, "a joint kind named 'plane' exists already", std::invalid_argument);
  }
  CHECK(joint_kinds::find("plane") == nullptr);
  CHECK(refusal(nlohmann::json::parse(kSlope)).starts_with("slope.json: /joints/0/type: unknown value 'plane'; accepted: spherical,"));
  const JointKind revolute_again{.name = "revolute", .make = make_plane};
  CHECK_THROWS_WITH_AS(JointKindRegistration{revolute_again}, "a joint kind named 'revolute' exists already",
                       std::invalid_argument);
}

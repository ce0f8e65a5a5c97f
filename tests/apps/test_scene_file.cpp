/// Scene files (apps/scene_file.hpp, docs/scenes.md): every scenario round-trips through JSON to the
/// same description, every element kind of the format loads and runs, and every error names its
/// JSON path and what is expected.
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/cli_arguments.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/scene_export.hpp>
#include <noether/apps/scene_file.hpp>
#include "support/temp_dir.hpp"

using namespace noether;
namespace fs = std::filesystem;

namespace {

const fs::path kExamples = fs::path(NOETHER_SOURCE_DIR) / "examples" / "scenes";

bool bitwise_equal(const Vector& a, const Vector& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

/// The example scene as a JSON document, to break in one place.
nlohmann::json example(const std::string& name) {
  return nlohmann::json::parse(testing::read_file(kExamples / (name + ".json")));
}

/// The message parse_scene gives for `document`, or "(accepted)".
std::string refusal(const nlohmann::json& document) {
  try {
    parse_scene(document.dump(), "broken.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

/// A scene with every element kind the exported scenarios and the examples leave out: the prismatic,
/// cylindrical, fixed and planar prismatic and fixed joints, linear and Green-strain springs, an
/// axial damper, point forces with table and constant profiles, a planar torque, a planar rotational
/// spring and damper, a quaternion and a principal inertia, momentum invariants. All joints hold at
/// the initial state (frames aligned), and the velocities are the ones each joint allows.
const char* const kEveryKind = R"({
  "noether_scene": 1,
  "name": "every-kind",
  "bodies": [
    {"name": "slider", "type": "rigid", "mass": 2.0, "inertia": [0.1, 0.2, 0.25], "velocity": [1.0, 0.0, 0.0]},
    {"name": "sleeve", "type": "rigid", "mass": 1.0, "inertia": [[0.1, 0.0, 0.0], [0.0, 0.1, 0.0], [0.0, 0.0, 0.1]],
     "position": [0.0, 1.0, 0.0], "quaternion": [1.0, 0.0, 0.0, 0.0],
     "velocity": [-0.5, 0.0, 0.0], "angular_velocity": [2.0, 0.0, 0.0]},
    {"name": "weld", "type": "rigid", "mass": 1.0, "inertia": [0.1, 0.1, 0.1], "position": [0.0, 2.0, 0.0]},
    {"name": "p1", "type": "planar", "mass": 1.0, "inertia": 0.1, "velocity": [0.3, 0.0]},
    {"name": "p2", "type": "planar", "mass": 1.0, "inertia": 0.1, "position": [0.0, 1.0]},
    {"name": "arm", "type": "planar", "mass": 1.0, "inertia": 0.1, "position": [2.5, 0.0], "velocity": [0.0, 0.5],
     "angular_velocity": 1.0},
    {"name": "puppet", "type": "rigid", "mass": 1.0, "inertia": [0.1, 0.1, 0.1], "position": [0.0, 3.0, 0.0],
     "velocity": [0.2, 0.0, 0.0]}
  ],
  "joints": [
    {"name": "rail", "type": "prismatic", "point_a": [0.0, 0.0, 0.0], "axis_a": [1.0, 0.0, 0.0], "normal_a": [0.0, 1.0, 0.0],
     "body_b": "slider", "axis_b": [1.0, 0.0, 0.0], "normal_b": [0.0, 1.0, 0.0]},
    {"name": "shaft", "type": "cylindrical", "point_a": [0.0, 1.0, 0.0], "axis_a": [1.0, 0.0, 0.0],
     "body_b": "sleeve", "axis_b": [1.0, 0.0, 0.0]},
    {"name": "weld", "type": "fixed", "point_a": [0.0, 2.0, 0.0], "axis_a": [1.0, 0.0, 0.0], "normal_a": [0.0, 1.0, 0.0],
     "body_b": "weld", "axis_b": [1.0, 0.0, 0.0], "normal_b": [0.0, 1.0, 0.0]},
    {"name": "track", "type": "prismatic_planar", "point_a": [0.0, 0.0], "axis_a": [1.0, 0.0], "body_b": "p1", "axis_b": [1.0, 0.0]},
    {"name": "mount", "type": "fixed_planar", "point_a": [0.0, 1.0], "axis_a": [1.0, 0.0], "body_b": "p2", "axis_b": [1.0, 0.0]}
  ],
  "drives": [
    {"name": "motor", "type": "revolute", "point_a": [2.0, 0.0], "body_b": "arm", "point_b": [-0.5, 0.0],
     "profile": {"type": "ramp", "rate": 1.0}},
    {"name": "strings", "type": "point", "body_b": "puppet", "profile_x": {"type": "ramp", "rate": 0.2, "offset": 0.0},
     "profile_y": 3.0, "profile_z": {"type": "table", "times": [0.0, 1.0], "values": [0.0, 0.0]}}
  ],
  "forces": [
    {"name": "coil", "type": "spring", "body_a": "slider", "body_b": "sleeve", "stiffness": 10.0, "rest_length": 0.5},
    {"name": "band", "type": "spring", "law": "green_strain", "point_a": [2.0, 0.0, 0.0], "body_b": "slider",
     "stiffness": 5.0, "rest_length": 1.0},
    {"name": "dashpot", "type": "damper", "axial": true, "body_a": "slider", "body_b": "sleeve", "damping": 0.2},
    {"name": "push", "type": "force", "body": "p1", "point": [0.5, 0.0], "force": [1.0, 0.0],
     "profile": {"type": "table", "times": [0.0, 0.05, 0.1], "values": [0.0, 1.0, 0.0]}},
    {"name": "lift", "type": "force", "body": "slider", "force": [0.0, 0.0, 1.0], "profile": 2.0},
    {"name": "twist", "type": "torque", "body": "p1", "torque": [0.5], "profile": {"type": "constant", "value": 1.0}},
    {"name": "hinge.spring", "type": "rotational_spring", "body_a": "p2", "body_b": "p1", "stiffness": 1.0, "rest_angle": 0.1},
    {"name": "hinge.damper", "type": "rotational_damper", "body_a": "p2", "body_b": "p1", "damping": 0.1}
  ],
  "probes": [{"name": "slider.end", "body": "slider", "point": [0.5, 0.0, 0.0]}],
  "invariants": [{"type": "linear_momentum", "bodies": ["sleeve"]}, {"name": "L", "type": "angular_momentum", "bodies": ["weld"]}],
  "run": {"stepper": "livens-em", "h": 0.01, "t_end": 0.1, "newton": {"method": "modified", "refresh": 0.5}},
  "output": {"every": 2}
})";

}  // namespace

TEST_CASE("every scenario exports to a scene that loads into the same model, and writes the same text again") {
  for (const Scenario& scenario : scenarios()) {
    CAPTURE(scenario.name);
    RunOptions options;
    options.scenario = scenario.name;
    const Scene exported = export_scene(options);
    const std::string text = scene_json(exported);
    const Scene loaded = parse_scene(text, scenario.name + ".json");
    CHECK(scene_json(loaded) == text);
    const Model a = scenario.build(resolve_parameters(scenario, {})), b = build_model(loaded.model);
    CHECK(a.system->num_coordinates() == b.system->num_coordinates());
    CHECK(a.system->num_multipliers() == b.system->num_multipliers());
    CHECK(bitwise_equal(a.initial.q, b.initial.q));
    CHECK(bitwise_equal(a.initial.v, b.initial.v));
    CHECK(a.probes.size() == b.probes.size());
    CHECK(loaded.run.h == scenario.run_defaults.h);
    CHECK(loaded.run.t_end == scenario.run_defaults.t_end);
  }
}

TEST_CASE("an exported scene keeps the scene's output settings") {
  // Found beside issue 40: a scene with "output": {"vtk": false} was exported with "vtk": true.
  RunArguments a;
  a.scenario = NOETHER_SOURCE_DIR "/tests/apps/scenes/pendulum_without_vtk.json";
  const Scene exported = export_scene(to_run_options(a));
  CHECK_FALSE(exported.output_vtk);
  CHECK_FALSE(parse_scene(scene_json(exported), "exported.json").output_vtk);
  a.scenario = "double-pendulum";
  CHECK(export_scene(to_run_options(a)).output_vtk);
}

TEST_CASE("the settings given over a scene already read are those given over its file") {
  // The Python module's mechanisms are scenes read from text (to_run_options with a SceneSource).
  const std::string path = NOETHER_SOURCE_DIR "/tests/apps/scenes/pendulum_without_vtk.json";
  RunArguments a;
  a.scenario = path;
  a.settings["t_end"] = "0.5";
  a.settings["stepper"] = "evi";
  a.assignments = {"S=3"};
  const RunOptions from_file = to_run_options(a);
  const RunOptions from_scene = to_run_options(a, SceneSource{"", std::make_shared<const Scene>(load_scene(path))});
  CHECK(scene_json(export_scene(from_scene)) == scene_json(export_scene(from_file)));
  CHECK(from_scene.settings->t_end == 0.5);
  CHECK(from_scene.settings->scheme_parameters.at("S") == 3);
  CHECK_FALSE(from_scene.write_motion);  // the scene's output setting, as from its file
  a.assignments = {"m=2"};
  CHECK_THROWS_WITH_AS(to_run_options(a, SceneSource{"", from_file.scene->scene}),
                       "--set m=2: a scene file has no parameters to set; edit its mechanism (--set takes only the "
                       "stepper's parameters here)",
                       std::invalid_argument);
}

TEST_CASE("a scene with every element kind loads, round-trips and runs") {
  const Scene scene = parse_scene(kEveryKind, "every-kind.json");
  CHECK(scene.model.bodies.size() == 7);
  CHECK(scene.model.joints.size() == 5);
  CHECK(scene.model.drives.size() == 2);
  CHECK(scene.model.forces.size() == 8);
  CHECK(scene.run.newton.modified);
  CHECK(scene.output_every == 2);
  CHECK(scene_json(parse_scene(scene_json(scene), "again.json")) == scene_json(scene));
  testing::TempDir dir("every_kind");
  RunOptions options;
  options.scene = SceneSource{"every-kind.json", std::make_shared<const Scene>(scene)};
  options.output_dir = dir.path;
  options.threads = 1;
  const RunOutcome r = run(options);
  CHECK(r.ok());
  CHECK(r.ending.error.empty());
  CHECK_FALSE(r.statistics.initial_projection.projected());
  CHECK(r.statistics.steps == 10);
  CHECK(r.statistics.constraint_max_abs <= 1e-12);
  REQUIRE(r.statistics.invariant_drifts.size() == 2);
  CHECK(r.statistics.invariant_drifts[1].first == "L");
  CHECK(r.statistics.invariant_drifts[1].second == 0.0);  // the welded body keeps its (zero) angular momentum
  const auto summary = nlohmann::json::parse(testing::read_file(dir.path / "summary.json"));
  CHECK(summary["scenario"] == "every-kind");
  CHECK(summary["scene"] == "every-kind.json");
  CHECK(summary["initial_projection"]["projected"] == false);
}

TEST_CASE("the example scenes load and the double four-bar is the scenario's damped run") {
  for (const char* name : {"pendulum", "double_fourbar", "spatial_double_pendulum"}) {
    CAPTURE(name);
    CHECK_NOTHROW(load_scene(kExamples / (std::string(name) + ".json")));
  }
  const Scene scene = load_scene(kExamples / "double_fourbar.json");
  const Scenario& scenario = find_scenario("double-fourbar");
  const Model a = build_model(scene.model), b = scenario.build(resolve_parameters(scenario, {{"damping", 0.5}}));
  CHECK(bitwise_equal(a.initial.q, b.initial.q));
  CHECK(bitwise_equal(a.initial.v, b.initial.v));
  CHECK(a.system->dissipations().size() == 2);
}

TEST_CASE("scene errors name the JSON path and what is expected") {
  struct Case {
    std::string what;
    nlohmann::json document;
    std::string message;
  };
  const nlohmann::json fourbar = example("double_fourbar"), pendulum = example("pendulum");
  const auto with = [](nlohmann::json d, const nlohmann::json::json_pointer& at, const nlohmann::json& value) {
    d[at] = value;
    return d;
  };
  const auto without = [](nlohmann::json d, const nlohmann::json::json_pointer& at) {
    d[at.parent_pointer()].erase(at.back());
    return d;
  };
  using P = nlohmann::json::json_pointer;
  const std::vector<Case> cases{
      {"unknown body", with(fourbar, P("/joints/3/body_b"), "bar7"),
       "broken.json: /joints/3/body_b: no body named 'bar7'; bodies are B1, B2, B3, B4, B5"},
      {"unknown key", with(pendulum, P("/bodies/0/mas"), 1.0),
       "broken.json: /bodies/0: unknown key 'mas' (did you mean 'mass'?); a body of type planar takes: name, type, mass,"},
      {"unknown top-level key", with(pendulum, P("/gravity"), 9.81), "broken.json: /: unknown key 'gravity'; a scene takes: "},
      {"negative mass", with(pendulum, P("/bodies/0/mass"), -1.0), "broken.json: /bodies/0/mass: must be > 0, got -1"},
      {"a key of another joint type", with(pendulum, P("/joints/0/axis_a"), {0, 1}),
       "/joints/0: unknown key 'axis_a'; a joint of type revolute_planar takes: name, type, body_a, point_a, body_b, point_b"},
      {"zero mass", with(pendulum, P("/bodies/0/mass"), 0.0), "broken.json: /bodies/0/mass: must be > 0, got 0"},
      {"subnormal mass", with(pendulum, P("/bodies/0/mass"), 1e-320),
       "/bodies/0/mass: must be a normal number, at least 2.2250738585072014e-308, got 1e-320"},
      {"subnormal inertia", with(pendulum, P("/bodies/0/inertia"), 1e-320),
       "/bodies/0/inertia: must be a normal number, at least 2.2250738585072014e-308 (or 0), got 1e-320"},
      {"negative inertia", with(pendulum, P("/bodies/0/inertia"), -0.1), "/bodies/0/inertia: must be >= 0, got -0.1"},
      {"zero length", with(with(pendulum, P("/joints/0/type"), "distance"), P("/joints/0/length"), 0.0),
       "/joints/0/length: must be > 0, got 0"},
      {"negative stiffness",
       with(pendulum, P("/forces/1"), {{"name", "s"}, {"type", "spring"}, {"body_b", "bar"}, {"stiffness", -3}, {"rest_length", 1}}),
       "/forces/1/stiffness: must be >= 0, got -3"},
      {"negative damping", with(fourbar, P("/forces/1/damping"), -0.5), "/forces/1/damping: must be >= 0, got -0.5"},
      {"unknown joint type", with(pendulum, P("/joints/0/type"), "hinge"),
       "/joints/0/type: unknown value 'hinge'; accepted: spherical, revolute, universal,"},
      {"wrong kind of value", with(pendulum, P("/bodies/0/position"), "origin"),
       "/bodies/0/position: expects 2 numbers, got the text \"origin\""},
      {"wrong length", with(pendulum, P("/bodies/0/position"), {1, 2, 3}), "/bodies/0/position: expects 2 numbers, got an array of 3"},
      {"missing key", without(pendulum, P("/run/h")), "broken.json: /run: missing key 'h' (the time step)"},
      {"zero time step", with(pendulum, P("/run/h"), 0.0), "/run/h: must be > 0, got 0"},
      {"Newton tolerance 1e300", with(pendulum, P("/run/newton"), {{"tolerance", 1e300}}),
       "/run/newton/tolerance: must be in (0, 0.001], got 1e+300"},
      {"unknown stepper", with(pendulum, P("/run/stepper"), "rk4"), "/run/stepper: unknown value 'rk4'; accepted: livens-em,"},
      {"CHOLMOD", with(pendulum, P("/run/solver"), "cholmod"), "/run/solver: unknown value 'cholmod'; accepted: auto, klu, umfpack, eigen, schur, mumps"},
      {"unknown ordering", with(pendulum, P("/run/ordering"), "metis"),
       "/run/ordering: unknown value 'metis'; accepted: auto, nd, amd, colamd"},
      {"an ordering Eigen does not take", with(with(pendulum, P("/run/solver"), "eigen"), P("/run/ordering"), "nd"),
       "/run: --ordering: the ordering nd applies to klu, umfpack, schur and auto; eigen orders by its own rules"},
      {"parameter of another stepper", with(pendulum, P("/run/stepper_parameters"), {{"S", 3}}),
       "/run/stepper_parameters: unknown key 'S'; stepper livens-em takes none"},
      {"duplicate body", with(fourbar, P("/bodies/1/name"), "B1"), "/bodies/1/name: a body named 'B1' is defined already"},
      {"two orientations",
       with(with(example("spatial_double_pendulum"), P("/bodies/0/quaternion"), {1, 0, 0, 0}), P("/bodies/0/rotation"),
            {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}),
       "/bodies/0: give the orientation once: rotation, quaternion or axis_angle"},
      {"the library's refusal", with(example("spatial_double_pendulum"), P("/bodies/0/inertia"), {1.0, 0.1, 0.1}),
       "broken.json: /bodies/0: body 'arm': the principal moments (0.1, 0.1, 1) violate the triangle inequality"},
      {"a joint of the wrong dimension", with(pendulum, P("/joints/0/type"), "spherical"), "broken.json: /joints/0: spherical joint 'pivot'"},
      {"version", with(pendulum, P("/noether_scene"), 2), "broken.json: /noether_scene: this program reads scene format 1, got 2"},
      // The lists are read as they are parsed; a refused element waits for the version's check.
      {"version and a refused body", with(with(pendulum, P("/noether_scene"), 2), P("/bodies/0/mass"), -1.0),
       "broken.json: /noether_scene: this program reads scene format 1, got 2"},
      {"a list that is not an array", with(pendulum, P("/joints"), {{"name", "pivot"}}),
       "broken.json: /joints: expects an array of objects (each a joint), got an object"},
      {"an element that is not an object", with(pendulum, P("/bodies/0"), 3), "broken.json: /bodies/0: expects a body (a JSON object), got a number"},
      {"a drive's table out of order",
       with(pendulum, P("/drives"), nlohmann::json::parse(R"([{"name": "motor", "type": "revolute", "body_b": "bar",
            "profile": {"type": "table", "times": [0.0, 2.0, 1.0], "values": [0.0, 1.0, 2.0]}}])")),
       "broken.json: /drives/0/profile: the table's times must increase strictly, but time 2 (1) follows 2"},
      {"an axis a planar revolute drive does not read",
       with(pendulum, P("/drives"), nlohmann::json::parse(R"([{"name": "motor", "type": "revolute", "body_b": "bar",
            "axis_b": [1.0, 0.0], "profile": 0.0}])")),
       "broken.json: /drives/0/axis_b: a point drive or planar revolute drive takes no axis_b; leave it out"},
      {"a drive without its profile",
       with(pendulum, P("/drives"), nlohmann::json::parse(R"([{"name": "motor", "type": "revolute", "body_b": "bar"}])")),
       "broken.json: /drives/0/profile: is missing: the angle f(t), rad"},
      // Issue 40: "cannot create the output directory ''", without the path in the file.
      {"empty output directory", with(pendulum, P("/output/directory"), ""),
       "broken.json: /output/directory: an empty text names no directory; give one (\"out\"), or leave the key out to "
       "write files only where --out says"},
      {"a version near 1", with(pendulum, P("/noether_scene"), 1.0000001),
       "broken.json: /noether_scene: this program reads scene format 1, got 1.0000001"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const std::string message = refusal(c.document);
    CAPTURE(message);
    CHECK(message.find(c.message) != std::string::npos);
  }
  CHECK(refusal(pendulum) == "(accepted)");
}

TEST_CASE("a scene read for a run over parts is not built: the library's refusal waits for the part that builds it") {
  using P = nlohmann::json::json_pointer;
  nlohmann::json broken = example("spatial_double_pendulum");
  broken[P("/bodies/0/inertia")] = {1.0, 0.1, 0.1};  // the triangle inequality, which the body refuses
  const Scene outlined = parse_scene(broken.dump(), "broken.json", SceneBuild::outlined);
  CHECK_FALSE(outlined.built);
  REQUIRE(outlined.parted);
  CHECK(outlined.parted->outline.block_sizes().size() == 2);
  CHECK_THROWS_WITH_AS(parse_scene(broken.dump(), "broken.json"), doctest::Contains("triangle inequality"),
                       std::invalid_argument);
  // What the JSON says is still read and checked as it is read.
  broken[P("/bodies/0/name")] = 3;
  CHECK_THROWS_WITH_AS(parse_scene(broken.dump(), "broken.json", SceneBuild::outlined),
                       doctest::Contains("broken.json: /bodies/0/name"), std::invalid_argument);
}

TEST_CASE("output names that two things would share are refused at the JSON path, naming both") {
  // Issue 40: each of these ran, and the outputs kept one of two values under one name.
  const nlohmann::json pendulum = example("pendulum");
  const auto with = [](nlohmann::json d, const std::string& at, const nlohmann::json& value) {
    d[nlohmann::json::json_pointer(at)] = value;
    return d;
  };
  // A point mass "bar.phi" beside the planar body "bar": two columns q:bar.phi.x.
  CHECK(refusal(with(pendulum, "/bodies/1", {{"name", "bar.phi"}, {"type", "point_mass"}, {"mass", 1.0}, {"position", {0, 0}}})) ==
        "broken.json: /bodies/1: the coordinate 'x' of block 'bar.phi' and the coordinate 'phi.x' of block 'bar' have one "
        "label, bar.phi.x, which would head two output columns; rename one of the blocks");
  CHECK(refusal(with(pendulum, "/bodies/1",
                     {{"name", "c"}, {"type", "coordinates"}, {"coordinates", {"a", "a"}}, {"position", {0, 0}}})) ==
        "broken.json: /bodies/1: coordinate block 'c' names its coordinate 'a' twice: each label c.a heads one output "
        "column; name each coordinate once");
  CHECK(refusal(with(pendulum, "/probes/1", {{"name", "tip"}, {"body", "bar"}})) ==
        "broken.json: /probes/1/name: probe 0 is named 'tip' too; a probe's name heads its columns (tip.x, ...) and its "
        "entry in final_state.json: give each probe its own name");
  CHECK(refusal(with(pendulum, "/probes/0/name", "q:bar.phi")) ==
        "broken.json: /probes/0/name: probe 'q:bar.phi' would write the column q:bar.phi.x, which the coordinate "
        "bar.phi.x heads already; rename the probe");
  CHECK(refusal(with(with(pendulum, "/probes/0/name", "linear_momentum"), "/conserved_momenta", {{"linear", {"y"}}})) ==
        "broken.json: /probes/0/name: probe 'linear_momentum' would write the column linear_momentum.y, which the "
        "conserved momentum component heads already; rename the probe");
  CHECK(refusal(with(pendulum, "/invariants", {{{"type", "linear_momentum"}}, {{"type", "linear_momentum"}}})) ==
        "broken.json: /invariants/1/name: invariant 0 is named 'linear_momentum' too (an invariant without a name is "
        "named after its type); its drift is reported under its name in summary.json: give each invariant its own name");
  // What is not a collision stays accepted: a probe "bar.phi" (columns bar.phi.x, no "q:"), a
  // point mass "bar.d3" (a planar body has no d3), momenta and probes of other names.
  CHECK(refusal(with(with(pendulum, "/probes/0/name", "bar.phi"), "/bodies/1",
                     {{"name", "bar.d3"}, {"type", "point_mass"}, {"mass", 1.0}, {"position", {0, 0}}})) == "(accepted)");
}

TEST_CASE("names with hidden characters are refused, and every message shows them escaped") {
  // Issue 40: U+0085 was accepted, a NUL cut the message short, ESC sequences reached the terminal.
  const nlohmann::json pendulum = example("pendulum");
  const auto renamed = [&](const std::string& name) {
    nlohmann::json d = pendulum;
    d["bodies"][0]["name"] = d["joints"][0]["body_b"] = d["probes"][0]["body"] = name;
    return refusal(d);
  };
  const std::string rule = "': a name must not contain a comma, a double quote, a control character";
  CHECK(renamed("a\u0085b").starts_with("broken.json: /bodies/0: coordinate block 'a\\u0085b" + rule));
  CHECK(renamed("a\u202eb").starts_with("broken.json: /bodies/0: coordinate block 'a\\u202eb" + rule));
  const std::string nul = renamed(std::string("a\0b", 3));
  CHECK(nul.starts_with("broken.json: /bodies/0: coordinate block 'a\\u0000b" + rule));
  CHECK(nul.ends_with("and it holds \\u0000: names head the columns of the output files"));  // not cut at the NUL
  // A name that is never accepted, only looked up, is escaped in the message too.
  nlohmann::json d = pendulum;
  d["joints"][0]["body_b"] = "\x1b[2J\x1b[31mbar";
  CHECK(refusal(d) == "broken.json: /joints/0/body_b: no body named '\\u001b[2J\\u001b[31mbar'; bodies are bar");
  d = pendulum;
  d["run"]["stepper"] = "rk\x1b[0m";
  CHECK(refusal(d).starts_with("broken.json: /run/stepper: unknown value 'rk\\u001b[0m'; accepted: "));
  d = pendulum;
  d["name"] = "pendulum\u0085";
  CHECK(refusal(d).starts_with("broken.json: /name: the scene's name 'pendulum\\u0085' holds \\u0085; a name must not"));
}

TEST_CASE("a key given twice in an object is refused at its JSON path") {
  // Issue 40: nlohmann keeps the last of the values ("mass": 7.0, "mass": 1.0 ran with 1 kg); a
  // body's "name" given twice left the joint's body "bar" unknown.
  const std::string text = testing::read_file(kExamples / "pendulum.json");
  const auto edited = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    REQUIRE(t.find(from) != std::string::npos);
    return t.replace(t.find(from), from.size(), to);
  };
  const auto refusal_of = [](const std::string& scene) -> std::string {
    try {
      parse_scene(scene, "twice.json");
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(accepted)";
  };
  const std::string rest = " is given twice in this object; give it once (a JSON reader keeps one of the two values)";
  CHECK(refusal_of(edited("\"mass\": 1.0", "\"mass\": 7.0, \"mass\": 1.0")) == "twice.json: /bodies/0/mass: the key 'mass'" + rest);
  CHECK(refusal_of(edited("{\"name\": \"bar\"", "{\"name\": \"bar\", \"name\": \"baz\"")) ==
        "twice.json: /bodies/0/name: the key 'name'" + rest);
  CHECK(refusal_of(edited("\n}", ",\n  \"run\": {\"h\": 0.02, \"t_end\": 1.0}\n}")) == "twice.json: /run: the key 'run'" + rest);
  CHECK(refusal_of(edited("\"point\": [0.5, 0.0]", "\"point\": [0.5, 0.0], \"body\": \"bar\"")) ==
        "twice.json: /probes/0/body: the key 'body'" + rest);
  // Inside any object, known to the reader or not; the key escaped as a JSON Pointer and for the terminal.
  CHECK(refusal_of(edited("\"noether_scene\": 1,", "\"noether_scene\": 1, \"x\": [{}, {\"a/b~\\u001b\": 1, \"a/b~\\u001b\": 2}],")) ==
        "twice.json: /x/1/a~1b~0\\u001b: the key 'a/b~\\u001b'" + rest);
  CHECK(refusal_of(text) == "(accepted)");
}

TEST_CASE("invalid JSON is refused with its line and column") {
  CHECK_THROWS_WITH_AS(parse_scene("{\n  \"noether_scene\": 1,\n  \"bodies\": [\n    {\"name\": \"a\",}\n  ]\n}\n", "bad.json"),
                       doctest::Contains("bad.json: line 4, column 18: not valid JSON (syntax error"), std::invalid_argument);
  // Found by the fuzzer (fuzz/scene_fuzzer.cpp): nlohmann throws out_of_range, not a parse error.
  CHECK_THROWS_WITH_AS(parse_scene(R"({"noether_scene": 1, "run": {"h": 0.000416666666666e6667, "t_end": 1}})", "big.json"),
                       doctest::Contains("big.json: line 1, column 35: not valid JSON (number overflow parsing "
                                         "'0.000416666666666e6667': beyond the largest double, 1.8e308)"),
                       std::invalid_argument);
  // The reliability table's "mass": 1e999: the line and column of the number (not of the text "1e999" before it).
  CHECK_THROWS_WITH_AS(parse_scene("{\n  \"noether_scene\": 1,\n  \"bodies\": [\n    {\"name\": \"1e999\",\n"
                                   "     \"mass\": 1e999}]}\n", "inf.json"),
                       doctest::Contains("inf.json: line 5, column 14: not valid JSON (number overflow parsing '1e999'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_scene("", "empty.json"), doctest::Contains("empty.json: line 1, column 1: not valid JSON"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(load_scene("no/such/scene.json"),
                       "cannot read the scene file 'no/such/scene.json' (No such file or directory)", std::invalid_argument);
  // A directory opens as a stream that reads nothing, which would say "line 1, column 1: not valid JSON".
  CHECK_THROWS_WITH_AS(load_scene(NOETHER_SOURCE_DIR "/examples/scenes"),
                       (std::string("cannot read the scene file '") + NOETHER_SOURCE_DIR "/examples/scenes': it is a directory").c_str(),
                       std::invalid_argument);
}

namespace {

/// Every object key in a JSON document (for the schema: the names under "properties").
void collect_keys(const nlohmann::json& j, bool schema, std::set<std::string>& keys) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (schema && key == "properties")
        for (const auto& [name, unused] : value.items()) keys.insert(name);
      if (!schema) keys.insert(key);
      collect_keys(value, schema, keys);
    }
  } else if (j.is_array()) {
    for (const auto& element : j) collect_keys(element, schema, keys);
  }
}

}  // namespace

TEST_CASE("the schema names exactly the keys the loader reads and the scenes write") {
  std::set<std::string> schema_keys, scene_keys;
  collect_keys(nlohmann::json::parse(testing::read_file(fs::path(NOETHER_SOURCE_DIR) / "docs" / "scene.schema.json")), true,
               schema_keys);
  const auto add = [&](const Scene& scene) { collect_keys(nlohmann::json::parse(scene_json(scene)), false, scene_keys); };
  for (const Scenario& scenario : scenarios()) {
    RunOptions options;
    options.scenario = scenario.name;
    options.configure().stepper = "evi";  // a stepper with parameters: "stepper_parameters"
    options.configure().scheme_parameters = {{"S", 2.0}};
    add(export_scene(options));
  }
  for (const auto& file : fs::directory_iterator(kExamples)) add(load_scene(file.path()));
  Scene every_kind = parse_scene(kEveryKind, "every-kind.json");
  every_kind.output_directory = "out";
  add(every_kind);
  // Keys the loader reads as alternatives of what the writer writes (it writes rotations as matrices).
  for (const char* alternative : {"quaternion", "axis_angle", "axis", "angle"}) scene_keys.insert(alternative);
  for (const std::string& key : scene_keys) {
    CAPTURE(key);
    CHECK((schema_keys.contains(key) || key == "S"));  // S: a stepper parameter, "additionalProperties" in the schema
  }
  for (const std::string& key : schema_keys) {
    CAPTURE(key);
    CHECK(scene_keys.contains(key));
  }
}

TEST_CASE("a run whose initial values cannot be projected onto the constraints fails, naming the row") {
  // The bar's free end is always 1 m from the pivot: a distance of 2 m to the pivot cannot be met.
  nlohmann::json document = example("pendulum");
  document["joints"].push_back(
      {{"name", "tether"}, {"type", "distance"}, {"point_a", {0.0, 0.0}}, {"body_b", "bar"}, {"point_b", {0.5, 0.0}}, {"length", 2.0}});
  RunOptions options;
  options.scene = SceneSource{"tethered.json", std::make_shared<const Scene>(parse_scene(document.dump(), "tethered.json"))};
  options.threads = 1;
  const RunOutcome r = run(options);
  CHECK_FALSE(r.ok());
  CHECK(r.statistics.steps == 0);
  CHECK(r.ending.error.find("the initial values are off the constraints and cannot be projected onto them: position projection") == 0);
  CHECK(r.ending.error.find("constraint '") != std::string::npos);
}

TEST_CASE("a joint that repeats two rows of another: dropped by default, under --redundant refuse named row by row") {
  // A fixed_planar joint that agrees with the pivot: its point rows 0 and 1 repeat the pivot's.
  nlohmann::json document = example("pendulum");
  document["joints"].push_back({{"name", "fix"}, {"type", "fixed_planar"}, {"point_a", {0.0, 0.0}}, {"axis_a", {1.0, 0.0}},
                                {"body_b", "bar"}, {"point_b", {-0.5, 0.0}}, {"axis_b", {1.0, 0.0}}});
  RunOptions options;
  options.scene = SceneSource{"fixed_twice.json", std::make_shared<const Scene>(parse_scene(document.dump(), "fixed_twice.json"))};
  options.threads = 1;
  options.configure().t_end = 0.03;
  const RunOutcome dropped = run(options);
  CHECK(dropped.ok());
  REQUIRE(dropped.dropped_equations.size() == 2);
  CHECK(dropped.dropped_equations[0] == "constraint 'fix' row 0 depends on constraint 'pivot' row 0");
  CHECK(dropped.dropped_equations[1] == "constraint 'fix' row 1 depends on constraint 'pivot' row 1");
  options.configure().redundancy = RunConfiguration::Redundancy::refuse;
  const RunOutcome refused = run(options);
  CHECK_FALSE(refused.ok());
  CHECK(refused.ending.failure.cause == FailureCause::refused);
  CHECK(refused.statistics.steps == 0);
  CHECK(refused.ending.error == "2 constraint equations depend on the others along the motion: constraint 'fix' row 0 "
                                "depends on constraint 'pivot' row 0; constraint 'fix' row 1 depends on constraint "
                                "'pivot' row 1. Run with --redundant drop (the default), which drops them from the step "
                                "equations and still reports them, or remove them from the model");
}

TEST_CASE("a run whose constraints have no common solution is refused, not run with an equation dropped") {
  // The bar (1 m) pinned at both ends to points 10 m apart: at the initial values G has a dependent
  // row; dropped as redundant, the projection would stretch d1 to 9.5 and the run complete, ok,
  // with max|g| = 49.5 (scripts/reliability_table.py's case).
  nlohmann::json document = example("pendulum");
  document["joints"].push_back(
      {{"name", "pin2"}, {"type", "revolute_planar"}, {"point_a", {10.0, 0.0}}, {"body_b", "bar"}, {"point_b", {0.5, 0.0}}});
  RunOptions options;
  options.scene = SceneSource{"pinned_twice.json", std::make_shared<const Scene>(parse_scene(document.dump(), "pinned_twice.json"))};
  options.threads = 1;
  options.configure().t_end = 0.03;
  const RunOutcome r = run(options);
  CHECK_FALSE(r.ok());
  CHECK(r.ending.failure.cause == FailureCause::refused);
  CHECK(r.statistics.steps == 0);
  CAPTURE(r.ending.error);
  CHECK(r.ending.error.starts_with("the projected initial positions violate constraint 'bar.orthonormality' row 0, dropped as "
                            "dependent on the others, by 49.5"));
}

namespace {

/// The outcome of running `document` (parse_scene of its text) for `t_end`, into a fresh directory.
RunOutcome run_scene(const nlohmann::json& document, const std::string& directory, double t_end = 0.03) {
  testing::TempDir dir(directory);
  RunOptions options;
  options.scene = SceneSource{"s.json", std::make_shared<const Scene>(parse_scene(document.dump(), "s.json"))};
  options.configure().t_end = t_end;
  options.output_dir = dir.path;
  options.threads = 1;
  return run(options);
}

}  // namespace

TEST_CASE("initial positions of an absurd size are refused as beyond what the projection can meet, not projected") {
  // `position: [1e308, 0]`: the warning said the positions were projected onto the constraints, then
  // the stepper refused |g| = 0.5, advising project_initial_state "as noether run does".
  nlohmann::json pendulum = example("pendulum");
  pendulum["bodies"][0]["position"] = {1e308, 0.0};
  const RunOutcome r = run_scene(pendulum, "scene_absurd_position");
  CHECK(r.ending.failure.cause == FailureCause::refused);
  CHECK(r.ending.error.starts_with("the initial values are off the constraints and cannot be projected onto them: the "
                                   "position projection from the initial bar.phi.x = 1e+308 cannot meet them within "
                                   "round-off: after it, constraint 'pivot' row 0 has |g| = 0.5 (round-off allows "));
  CHECK(r.ending.error.find("give initial positions of moderate size near the constraints") != std::string::npos);
  // 10 m off is projected, with the warning, and runs.
  pendulum["bodies"][0]["position"] = {10.5, 0.0};
  const RunOutcome far = run_scene(pendulum, "scene_far_position");
  CHECK(far.ok());
  CHECK(far.statistics.initial_projection.projected());
}

TEST_CASE("a body listed twice by one inertia, constraint or damping entry is refused at its JSON path") {
  // An `inertias` entry listing body 'y' twice doubled its mass silently.
  const nlohmann::json scene = nlohmann::json::parse(R"({"noether_scene": 1,
    "bodies": [{"name": "y", "type": "coordinates", "coordinates": ["c"], "position": [0.0]}],
    "inertias": [{"name": "m", "bodies": ["y", "y"], "matrix": [[1, 0], [0, 1]]}],
    "run": {"h": 0.01, "t_end": 0.03}})");
  CHECK(refusal(scene) == "broken.json: /inertias/0/bodies/1: body 'y' is listed twice (also at bodies[0]); list each body "
                          "once: the element spans the listed bodies' coordinates, and a body listed twice would count "
                          "twice");
}

TEST_CASE("a coordinate nothing acts on is named when the Newton matrix is singular") {
  // A `coordinates` body without inertia failed as "klu: the matrix is singular", the largest
  // residual entry in another coordinate.
  const nlohmann::json scene = nlohmann::json::parse(R"({"noether_scene": 1,
    "bodies": [{"name": "x", "type": "coordinates", "coordinates": ["a", "b"], "position": [0.1, 0.2]}],
    "inertias": [{"name": "m", "bodies": ["x"], "matrix": [[1, 0], [0, 0]]}],
    "forces": [{"name": "pot", "type": "polynomial", "body": "x", "coordinate": "a", "coefficients": [0, 0, 1]}],
    "run": {"h": 0.01, "t_end": 0.03}})");
  const RunOutcome r = run_scene(scene, "scene_massless_coordinate");
  CHECK(r.ending.failure.cause == FailureCause::newton);
  CHECK(r.ending.error.find("the Newton matrix could not be factorized (klu: the matrix is singular): the column of "
                            "coordinate x.b is zero, no equation of the step depends on that unknown (a coordinate "
                            "without mass, stiffness, damping or constraint: give it an inertia)") != std::string::npos);
}

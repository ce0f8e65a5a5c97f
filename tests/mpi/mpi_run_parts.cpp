// The program's run over parts (RunOptions::parts, docs/distributed.md "Stage 4"): each process
// builds and steps its part, and the outputs rank 0 writes are those of the run in which every
// process holds the whole model, to rounding: the same columns and keys in the same order, the same
// rows (the joints' reactions too), values within a tolerance (the sums at the rows that parts share
// add in another order), the same Newton iterations. PartGather, which brings the whole state to rank 0, is tested first; a
// checkpoint over parts (one file per process) resumes to the bytes of the run never stopped.
#include <atomic>
#include <csignal>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <noether/apps/checkpoint.hpp>
#include <noether/apps/mechanisms/generators.hpp>
#include <noether/apps/model/description_sink.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/output_labels.hpp>
#include <noether/apps/part_gather.hpp>
#include <noether/apps/run_parts.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/scene_copy.hpp>
#include <noether/apps/scene_export.hpp>
#include <noether/apps/scene_file.hpp>

#include "mpi/mpi_world.hpp"
#include "support/failing_file_calls.hpp"
#include "support/run_output_files.hpp"

using namespace noether;
using namespace noether::testing;
namespace fs = std::filesystem;

namespace {

/// A directory every process of the job names alike, fresh (rank 0 empties it before the others go on).
fs::path shared_directory(const std::string& name) {
  const fs::path path = fs::current_path() / (name + "_np" + std::to_string(world().ranks()));
  if (world().rank() == 0) fs::remove_all(path);
  world().any(false);
  return path;
}

std::string text_of(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The rows of a timeseries.csv: its header, then its values.
struct Table {
  std::string header;
  std::vector<std::vector<double>> rows;
};
Table table_of(const fs::path& file) {
  std::ifstream in(file);
  Table table;
  std::getline(in, table.header);
  for (std::string line; std::getline(in, line);) {
    std::vector<double> row;
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::stod(cell));
    table.rows.push_back(std::move(row));
  }
  return table;
}

/// a and b within `tolerance` relative to the larger magnitude (and absolute below 1), NaN alike.
bool close(double a, double b, double tolerance) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::abs(a - b) <= tolerance * std::max({1.0, std::abs(a), std::abs(b)});
}

/// Every number of two JSON values of the same shape within tolerance, keys in the same order.
void check_close(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b, double tolerance,
                 const std::string& where) {
  CAPTURE(where);
  REQUIRE(a.type() == b.type());
  if (a.is_number()) {
    CHECK(close(a.get<double>(), b.get<double>(), tolerance));
  } else if (a.is_object()) {
    REQUIRE(a.size() == b.size());
    for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y) {
      REQUIRE(x.key() == y.key());
      check_close(x.value(), y.value(), tolerance, where + "." + x.key());
    }
  } else if (a.is_array()) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) check_close(a[i], b[i], tolerance, where + "[" + std::to_string(i) + "]");
  } else {
    CHECK(a == b);
  }
}

RunOptions run_options(const std::string& scenario, ParameterValues values, const std::string& stepper,
                       const fs::path& out, bool parts) {
  RunOptions options = options_for(scenario, out);
  options.overrides = std::move(values);
  options.configure().stepper = stepper;
  options.configure().solver = LinearSolverKind::schur;
  options.configure().t_end = 8 * options.configure().h;
  options.output_every = 3;
  options.write_motion = false;
  options.write_reactions = true;  // each joint's on its part, in the whole's order
  options.distribution = world_slot();
  options.parts = parts ? PartsChoice::on : PartsChoice::off;
  return options;
}

/// The run over parts against the run of the whole model on the same processes.
void check_outputs_agree(const std::string& scenario, ParameterValues values, const std::string& stepper) {
  CAPTURE(scenario);
  CAPTURE(stepper);
  const fs::path whole_dir = shared_directory("run_whole_" + scenario), parts_dir = shared_directory("run_parts_" + scenario);
  const RunOutcome whole = run(run_options(scenario, values, stepper, whole_dir, false));
  const RunOutcome parts = run(run_options(scenario, values, stepper, parts_dir, true));
  REQUIRE(whole.ok());
  REQUIRE(parts.ok());
  CHECK_FALSE(whole.plan.parts);
  CHECK(parts.plan.parts);
  CHECK(parts.statistics.steps == whole.statistics.steps);
  CHECK(parts.statistics.newton_iterations_total == whole.statistics.newton_iterations_total);
  CHECK(close(parts.statistics.energy_final, whole.statistics.energy_final, 1e-12));
  REQUIRE(parts.statistics.invariant_drifts.size() == whole.statistics.invariant_drifts.size());
  for (std::size_t i = 0; i < whole.statistics.invariant_drifts.size(); ++i) {
    CHECK(parts.statistics.invariant_drifts[i].first == whole.statistics.invariant_drifts[i].first);
    CHECK(close(parts.statistics.invariant_drifts[i].second, whole.statistics.invariant_drifts[i].second, 1e-12));
  }
  CHECK(parts.statistics.constraint_max_abs < 1e-10);  // round-off in both
  CHECK(whole.statistics.constraint_max_abs < 1e-10);
  if (world().rank() != 0) return;  // rank 0 alone writes the files
  const Table a = table_of(whole_dir / "timeseries.csv"), b = table_of(parts_dir / "timeseries.csv");
  CHECK(a.header == b.header);
  REQUIRE(a.rows.size() == b.rows.size());
  CHECK(a.rows.size() == 3);  // steps 0, 3 and 6 of 8
  for (std::size_t r = 0; r < a.rows.size(); ++r) {
    REQUIRE(a.rows[r].size() == b.rows[r].size());
    for (std::size_t c = 0; c < a.rows[r].size(); ++c) {
      CAPTURE(r);
      CAPTURE(c);
      // Every value under 1 (g: round-off alone, about 1e-15) is held to 1e-10 absolutely.
      CHECK(close(a.rows[r][c], b.rows[r][c], 1e-10));
    }
  }
  check_close(nlohmann::ordered_json::parse(text_of(whole_dir / "final_state.json")),
              nlohmann::ordered_json::parse(text_of(parts_dir / "final_state.json")), 1e-10, "final_state");
  const auto summary = nlohmann::json::parse(text_of(parts_dir / "summary.json"));
  CHECK(summary["parts"] == true);
  CHECK(summary["status"] == "completed");
  CHECK(summary["initial_projection"]["position_violation"].is_null());  // not projected over parts: not measured
}

/// This process's entries of a whole of `whole`, every ranks-th, in reverse (the order held is not
/// the whole's): entry i with value(i) and text(i).
struct HeldEntries {
  std::vector<Index> numbers;
  std::vector<double> values;
  std::vector<std::string> texts;
};

template <class Value, class Text>
HeldEntries held_in_reverse(Index whole, Value value, Text text) {
  HeldEntries held;
  for (Index i = whole - 1; i >= 0; --i)
    if (i % world().ranks() == world().rank()) {
      held.numbers.push_back(i);
      held.values.push_back(value(i));
      held.texts.push_back(text(i));
    }
  return held;
}

}  // namespace

TEST_CASE("PartGather puts each process's entries in their places at rank 0, values and texts") {
  const int rank = world().rank();
  const Index whole = 17;
  const auto [numbers, values, texts] = held_in_reverse(
      whole, [](Index i) { return 0.5 * static_cast<double>(i) - 3.0; },
      [](Index i) { return std::string(static_cast<std::size_t>(i), 'a' + static_cast<char>(i % 26)) + "\xc3\xa9.x"; });
  const PartGather gather(world(), numbers, whole);
  CHECK(gather.held() == static_cast<Index>(numbers.size()));
  const Vector gathered = gather.gather(values);
  const std::vector<std::string> labels = gather.gather(texts);
  if (rank != 0) {
    CHECK(gathered.size() == 0);
    CHECK(labels.empty());
    return;
  }
  REQUIRE(gathered.size() == whole);
  REQUIRE(labels.size() == static_cast<std::size_t>(whole));
  for (Index i = 0; i < whole; ++i) {
    CHECK(gathered(i) == 0.5 * static_cast<double>(i) - 3.0);
    CHECK(labels[static_cast<std::size_t>(i)] ==
          std::string(static_cast<std::size_t>(i), 'a' + static_cast<char>(i % 26)) + "\xc3\xa9.x");
  }
}

TEST_CASE("PartGather::for_each visits every process's entries at rank 0 in the whole's order, a chunk at a time") {
  const int rank = world().rank();
  const Index whole = 2 * PartGather::kChunk + 17;  // three chunks, the last short
  const HeldEntries held = held_in_reverse(  // not a structured binding: a lambda below reads it
      whole, [](Index i) { return 0.25 * static_cast<double>(i); }, [](Index i) {
        std::string text = "e";  // appended: GCC 12's -Wrestrict misreads "e" + std::string
        text += std::to_string(i);
        return text;
      });
  const PartGather gather(world(), held.numbers, whole);
  Index visited = 0;
  bool in_order = true;
  const auto text_of = [&](std::size_t k, std::string& texts) { texts += held.texts[k]; };
  const auto value_of = [&](std::size_t k) { return held.values[k]; };
  gather.for_each(text_of, value_of, [&](const std::string& text, double value) {
    in_order = in_order && text == "e" + std::to_string(visited) && value == 0.25 * static_cast<double>(visited);
    ++visited;
  });
  CHECK(visited == (rank == 0 ? whole : 0));
  CHECK(in_order);
  visited = 0;  // the values alone, each with an empty text
  gather.for_each({}, value_of, [&](const std::string& text, double value) {
    in_order = in_order && text.empty() && value == 0.25 * static_cast<double>(visited);
    ++visited;
  });
  CHECK(visited == (rank == 0 ? whole : 0));
  CHECK(in_order);
  // A visit that throws at rank 0 is rethrown there once every chunk is brought: the other
  // processes are not left waiting in the next chunk's exchange.
  Index before_throw = 0;
  const auto throwing = [&](const std::string&, double) {
    if (++before_throw == PartGather::kChunk + 3) throw std::runtime_error("the disk is full");
  };
  if (rank == 0) CHECK_THROWS_WITH_AS(gather.for_each(text_of, value_of, throwing), "the disk is full", std::runtime_error);
  else CHECK_NOTHROW(gather.for_each(text_of, value_of, throwing));
  CHECK(before_throw == (rank == 0 ? PartGather::kChunk + 3 : 0));  // no visit after the exception
  CHECK_FALSE(world().any(false));  // every process is at the same collective call again
}

TEST_CASE("PartGather refuses entries held twice or left unheld, at rank 0") {
  const std::vector<Index> twice{0};  // every process holds entry 0
  if (world().rank() == 0)
    CHECK_THROWS_WITH_AS(PartGather(world(), twice, world().ranks()), doctest::Contains("another process holds too"),
                         std::invalid_argument);
  else
    CHECK_NOTHROW(PartGather(world(), twice, world().ranks()));
  const std::vector<Index> own{world().rank()};
  const std::string unheld =
      "hold " + std::to_string(world().ranks()) + " of the whole's " + std::to_string(world().ranks() + 1);
  if (world().rank() == 0)
    CHECK_THROWS_WITH_AS(PartGather(world(), own, world().ranks() + 1), doctest::Contains(unheld.c_str()),
                         std::invalid_argument);
  else
    CHECK_NOTHROW(PartGather(world(), own, world().ranks() + 1));
}

TEST_CASE("a run over parts writes what the run of the whole model writes, to rounding") {
  check_outputs_agree("chain3d", {{"n", 8}}, "livens-em");
  check_outputs_agree("chain2d", {{"n", 10}}, "em-ggl");
  check_outputs_agree("nfourbar", {{"n", 5}}, "livens-em");
  check_outputs_agree("double-fourbar", {}, "ggl-vi");
  check_outputs_agree("constrained-particles", {}, "livens-em");  // invariants over the particles each part owns
}

TEST_CASE("--parts auto runs a generated scenario over parts and any other model whole") {
  RunOptions generated = run_options("chain2d", {{"n", 10}}, "em-ggl", {}, false);
  generated.parts = PartsChoice::automatic;
  CHECK(runs_over_parts(generated));
  CHECK(plan_run(generated).parts);
  RunOptions other = run_options("double-fourbar", {}, "ggl-vi", {}, false);
  other.parts = PartsChoice::automatic;
  CHECK_FALSE(runs_over_parts(other));
  other.parts = PartsChoice::on;
  CHECK(runs_over_parts(other));
  generated.parts = PartsChoice::off;
  CHECK_FALSE(runs_over_parts(generated));
  RunOptions scene = other;  // a scene file is never generated, whatever mechanism it holds
  scene.scenario.clear();
  scene.overrides.clear();
  scene.parts = PartsChoice::automatic;
  const std::string text = scene_json(export_scene(generated));
  scene.scene = SceneSource{"chain2d.json", std::make_shared<const Scene>(parse_scene(text, "chain2d.json"))};
  CHECK_FALSE(runs_over_parts(scene));
  generated.distribution = nullptr;  // one process: the whole model, whatever the choice
  generated.parts = PartsChoice::on;
  CHECK_FALSE(runs_over_parts(generated));
}

TEST_CASE("a scene read without its model built runs over parts as the scenario it was exported from") {
  for (const int checkpoint_every : {4, 0}) {
    CAPTURE(checkpoint_every);
    const std::string run_name = "parts_scenario_" + std::to_string(checkpoint_every);
    const fs::path scenario_dir = shared_directory(run_name), scene_dir = shared_directory("parts_scene_" + run_name);
    RunOptions scenario = run_options("chain3d", {{"n", 8}}, "livens-em", scenario_dir, true);
    scenario.checkpoint_every = checkpoint_every;  // a checkpoint forgets the factorization: both runs write them
    RunOptions scene = scenario;
    scene.scenario.clear();
    scene.overrides.clear();
    const std::string text = scene_json(export_scene(scenario));
    scene.scene = SceneSource{"chain3d.json", std::make_shared<const Scene>(
                                                  parse_scene(text, "chain3d.json", SceneBuild::outlined))};
    REQUIRE(scene.scene->scene->parted);
    scene.output_dir = scene_dir;
    REQUIRE(run(scenario).ok());
    const RunOutcome outcome = run(scene);
    REQUIRE(outcome.ok());
    CHECK(outcome.plan.parts);
    if (world().rank() == 0) {  // rank 0 writes both
      CHECK(text_of(scene_dir / "timeseries.csv") == text_of(scenario_dir / "timeseries.csv"));
      CHECK(text_of(scene_dir / "final_state.json") == text_of(scenario_dir / "final_state.json"));
    }
    if (checkpoint_every == 0) continue;
    // Its checkpoints name the copy of the scene's text that the run wrote into its directory.
    const std::string checkpoint_text = text_of(scene_dir / Checkpoint::kFileName);
    const Checkpoint checkpoint = parse_checkpoint(checkpoint_text, "checkpoint.json");
    CHECK(checkpoint.options.parts == PartsChoice::on);
    REQUIRE(checkpoint.options.scene);
    CHECK(checkpoint.options.scene->copy == scene_copy_of(text));
    CHECK_FALSE(checkpoint.options.scene->scene);  // read from the copy by read_checkpoint
    CHECK(text_of(scene_dir / SceneCopy::kFileName) == text);
    CHECK(checkpoint_text.find("\"bodies\"") == std::string::npos);
    // Another process's part holds no options either.
    if (world().rank() > 0) {
      const std::string part = text_of(scene_dir / part_checkpoint_name(world().rank()));
      CHECK(part.find("\"state\"") != std::string::npos);
      CHECK(part.find("\"options\"") == std::string::npos);
    }
  }
}

/// Counts the writes of a run's files, and those made while a scene, or its text, was still held.
class SceneWatchingCalls : public FileCalls {
 public:
  SceneWatchingCalls(std::weak_ptr<const Scene> scene, std::weak_ptr<const std::string> text)
      : scene_(std::move(scene)), text_(std::move(text)) {}
  ssize_t write(int fd, const void* data, std::size_t size) const override {
    ++writes_;
    if (!scene_.expired()) ++with_scene_;
    if (!text_.expired()) ++with_text_;
    return FileCalls::write(fd, data, size);
  }
  int writes() const { return writes_; }
  int writes_with_scene() const { return with_scene_; }
  int writes_with_text() const { return with_text_; }

 private:
  std::weak_ptr<const Scene> scene_;
  std::weak_ptr<const std::string> text_;
  mutable int writes_ = 0, with_scene_ = 0, with_text_ = 0;
};

TEST_CASE("a run over parts keeps of a scene only its part, process 0 its text until the checkpoints' copy is written") {
  for (const int checkpoint_every : {0, 4}) {
    CAPTURE(checkpoint_every);
    const fs::path dir = shared_directory("parts_scene_left_" + std::to_string(checkpoint_every));
    RunOptions options = run_options("chain3d", {{"n", 8}}, "livens-em", dir, true);
    options.write_motion = true;  // every process writes its pieces of the drawings
    options.checkpoint_every = checkpoint_every;
    const std::string text = scene_json(export_scene(options));
    options.scenario.clear();
    options.overrides.clear();
    auto scene = std::make_shared<const Scene>(parse_scene(text, "chain3d.json", SceneBuild::outlined));
    const SceneWatchingCalls calls(scene, scene->text);
    options.scene = SceneSource{"chain3d.json", std::move(scene)};
    options.file_calls = &calls;
    REQUIRE(run(std::move(options)).ok());  // the run's options alone hold the scene
    CHECK(calls.writes() > 0);
    CHECK(calls.writes_with_scene() == 0);  // every file is written once the part is built
    // Process 0 of a run that writes checkpoints holds the text until it has written the copy
    // (with the outputs opened before it), not through the steps' rows and checkpoints after it.
    if (world().rank() == 0 && checkpoint_every > 0) {
      CHECK(calls.writes_with_text() > 0);
      CHECK(calls.writes_with_text() < calls.writes());
    } else {
      CHECK(calls.writes_with_text() == 0);
    }
  }
}

TEST_CASE("a final_state.json that rank 0 cannot write fails its run, and leaves no process waiting") {
  const fs::path dir = shared_directory("parts_final_state_unwritten");
  // 200 bars: q alone is more than the 64 KB piece the file is written in, so the disk fills
  // while q's entries are being brought, and the other kinds must still be brought.
  RunOptions options = run_options("chain3d", {{"n", 200}}, "livens-em", dir, true);
  options.write_reactions = false;
  testing::FailingFileCalls full;
  full.target = "final_state";
  full.budget = 1000;
  if (world().rank() == 0) options.file_calls = &full;
  const RunOutcome outcome = run(options);
  if (world().rank() == 0) {
    CHECK(full.injected);
    CHECK(outcome.ending.status == RunStatus::failed);
    CHECK(outcome.ending.failure.cause == FailureCause::output);
    CHECK(outcome.ending.error.find("final_state") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "final_state.json"));
  } else {
    CHECK(outcome.ok());
  }
  CHECK_FALSE(world().any(false));
}

TEST_CASE("a run over parts refuses a process without a body") {
  const fs::path out = shared_directory("run_parts_refused");
  // One body for two or three processes: a process would have no part to step.
  const RunOptions options = run_options("top", {}, "livens-em", out, true);
  CHECK_THROWS_WITH_AS(run(options), doctest::Contains("without a body of the model's 1"), std::invalid_argument);
  CHECK_FALSE(fs::exists(out / "summary.json"));  // refused before the outputs are opened
}

TEST_CASE("a run over parts refuses a generated probe on no body of the model, on every process") {
  // A generated part is not checked against the whole's names (no process holds them all): the
  // probe's dimension, agreed over the processes, shows that no part placed its body.
  const PartedModel model = parted([](DescriptionSink& sink) {
    generate_chain2d(6, {}, sink);
    sink.model_wide().probes.push_back(PointProbeDescription{"lost", "nowhere", Vector::Zero(2)});
  });
  CHECK_THROWS_WITH_AS(RunParts(world_slot(), model), "probes[0].body: no body named 'nowhere'", ModelDescriptionError);
  const PartedModel found = parted([](DescriptionSink& sink) {
    generate_chain2d(6, {}, sink);
    sink.model_wide().probes.push_back(PointProbeDescription{"tip", "bar5", Vector::Zero(2)});
  });
  CHECK(RunParts(world_slot(), found).model().probes.at(0).dimension == 2);
}

TEST_CASE("PartLabels brings the whole model's labels to rank 0 in its order, the coordinates' first") {
  const auto generate = [](DescriptionSink& sink) { generate_chain3d(7, ChainJoint::spherical, 0.1, {}, sink); };
  const RunParts parts(world_slot(), parted(generate));
  const Model whole = build_model(described(generate));
  std::vector<std::string> coordinates, rows;
  const PartLabels labels(parts);
  CHECK(labels.coordinates() == whole.system->num_coordinates());
  CHECK(labels.constraint_rows() == whole.system->num_multipliers());
  CHECK_THROWS_AS(labels.for_each_constraint_row([](const std::string&) {}), std::logic_error);  // before the coordinates'
  labels.for_each_coordinate([&](const std::string& label) { coordinates.push_back(label); });
  labels.for_each_constraint_row([&](const std::string& label) { rows.push_back(label); });
  labels.finish();  // nothing left to bring
  if (world().rank() == 0) {
    CHECK(coordinates == coordinate_labels(*whole.system));
    CHECK(rows == constraint_row_labels(*whole.system));
  } else {
    CHECK(coordinates.empty());
    CHECK(rows.empty());
  }
  const PartLabels unread(parts);
  unread.finish();  // another process's part in a header rank 0 writes: every exchange, no visit
  CHECK_FALSE(world().any(false));
}

TEST_CASE("a run over parts refuses actuators on every process, naming the actuator and --parts off") {
  const fs::path out = shared_directory("run_parts_actuator");
  // The slider-crank's motor, described by the process of the crank alone; the others agree.
  const RunOptions options = run_options("slider-crank", {{"drive", 1}}, "livens-em", out, true);
  CHECK_THROWS_WITH_AS(run(options), doctest::Contains("the model has actuators (crank_motor), whose probes a run over parts"),
                       std::invalid_argument);
  CHECK_FALSE(fs::exists(out / "summary.json"));
}

TEST_CASE("a Newton failure over parts says that dependent equations were not looked for, naming --parts off") {
  // One Newton iteration cannot reach the tolerance: the first step fails, over parts and not.
  for (const bool parts : {true, false}) {
    CAPTURE(parts);
    const fs::path out = shared_directory(parts ? "newton_parts" : "newton_whole");
    RunOptions options = run_options("chain3d", {{"n", 8}}, "livens-em", out, parts);
    options.configure().newton.max_iterations = 1;
    options.configure().max_refinement_depth = 0;
    const RunOutcome outcome = run(options);
    REQUIRE_FALSE(outcome.ok());
    CHECK(outcome.ending.failure.cause == FailureCause::newton);
    CHECK((outcome.ending.error.find("run it with --parts off") != std::string::npos) == parts);
  }
}

namespace {

/// The real system calls, raising the interrupt flag (as a SIGTERM's handler does) at the
/// `fsyncs`-th fsync: a stop right after a checkpoint of rank 0's (every process stops after the
/// same step: they agree on the lowest rank's signal).
class InterruptingFileCalls : public FileCalls {
 public:
  InterruptingFileCalls(std::atomic<int>& flag, int fsyncs) : flag_(flag), fsyncs_to_go_(fsyncs) {}
  int fsync(int fd) const override {
    if (--fsyncs_to_go_ == 0) flag_ = SIGTERM;
    return FileCalls::fsync(fd);
  }

 private:
  std::atomic<int>& flag_;
  mutable int fsyncs_to_go_;
};

}  // namespace

TEST_CASE("a run over parts stopped after a checkpoint resumes on as many processes to the bytes of the run never stopped") {
  for (const bool from_scene : {false, true}) {
    CAPTURE(from_scene);
    const std::string run_name = from_scene ? "run_parts_scene_" : "run_parts_";
    const fs::path reference_dir = shared_directory(run_name + "reference"), stopped_dir = shared_directory(run_name + "stopped");
    RunOptions options = run_options("chain3d", {{"n", 9}}, "livens-em", reference_dir, true);
    options.configure().t_end = 12 * options.configure().h;
    options.output_every = 2;
    options.checkpoint_every = 4;
    if (from_scene) {  // read as `noether run` reads it over parts
      const std::string text = scene_json(export_scene(options));
      options.scenario.clear();
      options.overrides.clear();
      options.scene = SceneSource{"chain3d.json",
                                  std::make_shared<const Scene>(parse_scene(text, "chain3d.json", SceneBuild::outlined))};
    }
    const RunOutcome reference = run(options);
    REQUIRE(reference.ok());

    std::atomic<int> flag{0};
    // Rank 0's third fsync: the first checkpoint's (after step 4); from a scene its fifth, after
    // the two of the scene's copy (the file and its directory).
    const InterruptingFileCalls calls(flag, from_scene ? 5 : 3);
    options.output_dir = stopped_dir;
    if (world().rank() == 0) {
      options.interrupt = &flag;
      options.file_calls = &calls;
    }
    const RunOutcome stopped = run(options);
    REQUIRE(stopped.ending.status == RunStatus::interrupted);
    CHECK(stopped.statistics.steps < 12);
    if (world().rank() > 0) CHECK(fs::exists(stopped_dir / part_checkpoint_name(world().rank())));
    world().any(false);  // every process's files are written before any reads them

    if (from_scene) {  // a copy of the scene that is not the one the run wrote is refused
      const fs::path copy = stopped_dir / SceneCopy::kFileName;
      const std::string written = text_of(copy);
      world().any(false);  // every process has read it
      if (world().rank() == 0) std::ofstream(copy, std::ios::binary) << written.substr(0, written.size() - 1) << ' ';
      world().any(false);
      CHECK_THROWS_WITH_AS(read_checkpoint(stopped_dir), doctest::Contains("scene.json' is not the scene"),
                           CheckpointError);
      world().any(false);
      if (world().rank() == 0) std::ofstream(copy, std::ios::binary) << written;
      world().any(false);
    }
    // As `noether resume` reads it: a scene read outlined, from its copy, on every process.
    const Checkpoint checkpoint = read_checkpoint(stopped_dir);
    CHECK(checkpoint.processes == world().ranks());
    if (from_scene) CHECK(checkpoint.options.scene->scene->parted.has_value());
    RunOptions resumed = checkpoint.options;
    CHECK(resumed.parts == PartsChoice::on);
    resumed.output_dir = stopped_dir;
    resumed.resume = &checkpoint;
    resumed.distribution = world_slot();
    const RunOutcome result = run(resumed);
    REQUIRE(result.ok());
    CHECK(result.statistics.newton_iterations_total == reference.statistics.newton_iterations_total);
    if (world().rank() == 0) {
      CHECK(text_of(stopped_dir / "timeseries.csv") == text_of(reference_dir / "timeseries.csv"));
      CHECK(text_of(stopped_dir / "final_state.json") == text_of(reference_dir / "final_state.json"));
    }
  }
}

TEST_CASE("a checkpoint over parts is refused with a process's part missing, or without parts") {
  const fs::path dir = shared_directory("run_parts_checkpoint_refused");
  RunOptions options = run_options("chain3d", {{"n", 9}}, "livens-em", dir, true);
  options.checkpoint_every = 4;
  std::atomic<int> flag{0};
  const InterruptingFileCalls calls(flag, 3);
  if (world().rank() == 0) {
    options.interrupt = &flag;
    options.file_calls = &calls;
  }
  REQUIRE(run(options).ending.status == RunStatus::interrupted);
  world().any(false);
  const Checkpoint checkpoint = read_checkpoint(dir);
  RunOptions resumed = checkpoint.options;
  resumed.output_dir = dir;
  resumed.resume = &checkpoint;
  resumed.distribution = world_slot();
  resumed.parts = PartsChoice::off;  // the whole model on every process: the parts' states are not the whole's
  CHECK_THROWS_WITH_AS(run(resumed), doctest::Contains("was written by a run over parts on"), CheckpointError);
  resumed.parts = PartsChoice::on;
  const int last = world().ranks() - 1;
  const fs::path last_part = dir / part_checkpoint_name(last);
  // A part whose state its run would not have saved (checked against checkpoint.json's options,
  // since a part's file holds none): its last row one step off.
  if (world().rank() == last) {
    nlohmann::json part = nlohmann::json::parse(text_of(last_part));
    part["recorder"]["last_row_step"] = part["recorder"]["last_row_step"].get<int>() + 1;
    std::ofstream(last_part) << part.dump();
  }
  world().any(false);
  CHECK_THROWS_WITH_AS(run(resumed), doctest::Contains("/recorder/last_row_step"), std::invalid_argument);
  if (world().rank() == last) fs::remove(last_part);
  world().any(false);
  const std::string missing = "has no part of process " + std::to_string(last);
  CHECK_THROWS_WITH_AS(run(resumed), doctest::Contains(missing.c_str()), std::invalid_argument);
}

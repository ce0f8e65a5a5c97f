/// The parts of a drawing that the processes of a run over several draw (DrawnPart), checked in
/// one process by drawing every rank's part: together they are the whole drawing, cell for cell
/// and bit for bit, each cell in one part; a body is drawn by the process that owns its block, a
/// joint by the process that assembles its term. The .pvtp index and the files a run over several
/// leaves. The runs themselves: tests/mpi/check_mpi_vtk.py, tests/mpi/mpi_vtk_series.cpp.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/model_source.hpp>
#include <noether/apps/runner.hpp>
#include <noether/apps/vtk_drawing.hpp>
#include <noether/apps/vtk_series.hpp>
#include <noether/engine/partition.hpp>
#include "support/run_output_files.hpp"
#include "support/temp_dir.hpp"

using namespace noether;
using namespace noether::testing;

namespace {

/// A cell of a drawing by its data (kind, index), with the coordinates of its points.
using Cells = std::multimap<std::pair<std::int32_t, std::int32_t>, std::vector<double>>;

Cells cells_of(const VtkPolyData& data) {
  const auto& kind = std::get<std::vector<std::int32_t>>(data.cell_data.at(0).values);
  const auto& index = std::get<std::vector<std::int32_t>>(data.cell_data.at(1).values);
  const auto coordinates = [&](std::int64_t point) {
    return std::vector<double>(data.points.begin() + 3 * point, data.points.begin() + 3 * point + 3);
  };
  Cells cells;
  std::size_t cell = 0;
  for (const std::int64_t point : data.vertices) {
    cells.emplace(std::pair(kind[cell], index[cell]), coordinates(point));
    ++cell;
  }
  for (std::size_t k = 0; k < data.lines.size(); k += 2, ++cell) {
    std::vector<double> both = coordinates(data.lines[k]);
    const std::vector<double> to = coordinates(data.lines[k + 1]);
    both.insert(both.end(), to.begin(), to.end());
    cells.emplace(std::pair(kind[cell], index[cell]), both);
  }
  return cells;
}

struct DrawnModel {
  ModelDescription description;
  Model model;
};

DrawnModel drawn_model(const std::string& scenario, ParameterValues overrides = {}) {
  ModelDescription description = describe(ScenarioSource{scenario, resolve_parameters(find_scenario(scenario), overrides)});
  Model model = build_model(description);
  return {std::move(description), std::move(model)};
}

/// A state that is not the initial one, so that every coordinate moves every point.
State moved_state(const Model& model) {
  State state = model.initial;
  for (Index i = 0; i < state.q.size(); ++i) state.q(i) += 1e-3 * static_cast<double>(i % 7 + 1);
  state.t = 0.25;
  state.step = 25;
  return state;
}

/// The process of the element of `system` named `name` (a joint's constraint), as the assembly
/// places its term: the process of its smallest coordinate.
int term_process(const System& system, const std::string& name, const std::vector<int>& coordinate_process) {
  for (const auto& placed : system.constraints())
    if (placed.element->name() == name)
      return coordinate_process[static_cast<std::size_t>(*std::ranges::min_element(placed.dofs))];
  FAIL("no constraint named " << name);
  return -1;
}

}  // namespace

TEST_CASE("the processes' parts of a drawing are the whole drawing, each cell in one part, drawn where its term is") {
  const std::vector<std::pair<std::string, ParameterValues>> scenarios = {
      {"chain2d", {{"n", 7}}}, {"chain3d", {{"n", 5}}}, {"nfourbar", {{"n", 4}}}, {"double-pendulum", {}}, {"top", {}}};
  for (const auto& [scenario, overrides] : scenarios)
    for (const int ranks : {2, 3}) {
      const std::string& name = scenario;  // CAPTURE's lambda cannot capture a structured binding in clang 14
      CAPTURE(name);
      CAPTURE(ranks);
      const DrawnModel m = drawn_model(scenario, overrides);
      const System& system = *m.model.system;
      const State state = moved_state(m.model);
      VtkPolyData data;
      VtkDrawing(m.description, m.model).draw(state, 1.5, 2e-15, data);
      const Cells whole = cells_of(data);
      const std::vector<int> block_process = block_processes(system, ranks);
      const std::vector<int> coordinate_process = coordinate_processes(system, ranks);
      Cells joined;
      for (int rank = 0; rank < ranks; ++rank) {
        VtkDrawing(m.description, m.model, {rank, block_process, {}, {}}).draw(state, 1.5, 2e-15, data);
        CHECK(data.field_data.size() == 4);  // each piece carries the drawing's time, step, energy, residual
        const Cells part = cells_of(data);
        for (const auto& [key, points] : part) {
          const auto [kind, index] = key;
          if (kind <= static_cast<int>(VtkCellKind::director_3)) {
            const std::string& body = name_of(m.description.bodies[static_cast<std::size_t>(index)]);
            const auto b = std::ranges::find(system.blocks(), body, &CoordinateBlock::name) - system.blocks().begin();
            CHECK(block_process[static_cast<std::size_t>(b)] == rank);
          } else if (kind != static_cast<int>(VtkCellKind::probe)) {
            CHECK(term_process(system, m.description.joints[static_cast<std::size_t>(index)].name, coordinate_process) ==
                  rank);
          }
        }
        joined.insert(part.begin(), part.end());
      }
      CHECK(joined == whole);
    }
}

TEST_CASE("a part's own description draws what the whole description draws of that part, cell for cell") {
  // A run over parts draws from its part's description (PartDescription), which holds the part's
  // bodies, the joints it builds and those touching its own bodies (their points size the bars),
  // numbered as in the whole. The grid's couplers are where that matters: a coupler's joints may
  // both be built by the process of the verticals below it.
  const std::vector<std::pair<std::string, ParameterValues>> scenarios = {
      {"grid2d", {{"k", 3}}}, {"chain3d", {{"n", 5}}}, {"double-pendulum", {}}};
  for (const auto& [scenario, overrides] : scenarios)
    for (const int ranks : {2, 3}) {
      const std::string& name = scenario;
      CAPTURE(name);
      CAPTURE(ranks);
      const DrawnModel m = drawn_model(scenario, overrides);
      const State state = moved_state(m.model);
      const std::vector<int> block_process = block_processes(*m.model.system, ranks);
      for (int rank = 0; rank < ranks; ++rank) {
        CAPTURE(rank);
        VtkPolyData data;
        VtkDrawing(m.description, m.model, {rank, block_process, {}, {}}).draw(state, 1.5, 2e-15, data);
        const Cells from_whole = cells_of(data);
        const PartDescription described = part_description(m.description, select_part(m.description, block_process, rank));
        ModelPart part = build_model_part(described, rank);
        State part_state = part.initial;
        const std::vector<Index> global = part_coordinates(part, block_process).global;
        for (std::size_t i = 0; i < global.size(); ++i) part_state.q(static_cast<Index>(i)) = state.q(global[i]);
        std::vector<int> part_processes;
        for (const Index body : part.bodies) part_processes.push_back(block_process[static_cast<std::size_t>(body)]);
        const Model part_model{part.system, part.initial, std::move(part.probes)};
        const DrawnPart drawn{rank, part_processes, described.body_numbers,
                              described.entry_numbers[static_cast<std::size_t>(EntryList::joints)]};
        VtkDrawing(described.description, part_model, drawn).draw(part_state, 1.5, 2e-15, data);
        CHECK(cells_of(data) == from_whole);
      }
    }
}

TEST_CASE("a .pvtp index declares the pieces' point and cell arrays and names each piece in order") {
  const DrawnModel m = drawn_model("double-pendulum");
  VtkPolyData data;
  VtkDrawing(m.description, m.model).draw(m.model.initial, 0.0, 0.0, data);
  const std::vector<std::string> pieces = {VtkSeries::piece_name(7, 0), VtkSeries::piece_name(7, 1)};
  const std::string index = pvtp_file(data, pieces);
  CHECK(pieces == std::vector<std::string>{"step_00000007_0.vtp", "step_00000007_1.vtp"});
  CHECK(VtkSeries::index_name(7) == "vtk/step_00000007.pvtp");
  CHECK(attribute_values(index, "Source") == pieces);
  CHECK(attribute_values(index, "Name") == std::vector<std::string>{"kind", "index", "Points"});
  CHECK(attribute_values(index, "type") == std::vector<std::string>{"PPolyData", "Int32", "Int32", "Float64"});
  CHECK(index.find("GhostLevel=\"0\"") != std::string::npos);
}

TEST_CASE("a run removes the drawings a run over several processes left in vtk/, and nothing else") {
  TempDir dir("vtk_parts_previous");
  std::filesystem::create_directories(dir.path / "vtk");
  for (const char* name : {"step_00000000.pvtp", "step_00000000_0.vtp", "step_00000000_12.vtp", "step_00000099_1.vtp.tmp",
                           "step_00000099.pvtp.tmp", "step_x_1.vtp", "step_00000001_.vtp", "notes.txt"})
    std::ofstream(dir.path / "vtk" / name) << "previous\n";
  RunOptions options = options_for("double-pendulum", dir.path);
  options.configure().t_end = 0.02;
  REQUIRE(run(options).ok());
  CHECK(entry_names(dir.path / "vtk") == std::vector<std::string>{"notes.txt", "step_00000000.vtp", "step_00000001.vtp",
                                                                  "step_00000001_.vtp", "step_00000002.vtp", "step_x_1.vtp"});
}

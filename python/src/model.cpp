/// State and Model: what a stepper advances and what it is made on.
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/apps/scene_file.hpp>
#include <noether/engine/quote.hpp>

#include "bindings.hpp"
#include "user_functions.hpp"

namespace noether::python {
namespace {

/// A read-only copy of v: a step may move a State's storage, so no view of it would stay valid.
py::array_t<double> read_only_copy(const Vector& v) {
  py::array_t<double> array(v.size(), v.data());
  array.attr("flags").attr("writeable") = false;
  return array;
}

/// A property of State: its vector `member`, a read-only copy; assigning copies the array in.
template <Vector State::*member>
void vector_property(py::class_<State>& state, const char* name, const char* doc) {
  state.def_property(
      name, [](const State& s) { return read_only_copy(s.*member); },
      [](State& s, const Vector& value) { s.*member = value; }, doc);
}

void bind_state(py::module_& m) {
  py::class_<State> state(m, "State",
                          "The state a stepper advances: step, t, and the vectors q, v, p and multipliers "
                          "(read-only copies; assign a whole array to change one). copy() gives an "
                          "independent State.");
  state.def(py::init<>())
      .def_readwrite("step", &State::step, "the number of steps taken from the initial state")
      .def_readwrite("t", &State::t, "the time")
      .def_readwrite("discrete_energy", &State::discrete_energy,
                     "sem-vi's discrete energy E_k of the extended state; NaN for the other steppers' states")
      .def("copy", [](const State& s) { return State(s); }, "an independent copy of this state")
      .def("__copy__", [](const State& s) { return State(s); })
      .def("__deepcopy__", [](const State& s, const py::dict&) { return State(s); }, py::arg("memo"))
      .def("__repr__", [](const State& s) {
        return "<noether.State step " + std::to_string(s.step) + ", t " + std::to_string(s.t) + ", " +
               std::to_string(s.q.size()) + " coordinates, " + std::to_string(s.lambda.size()) + " multipliers>";
      });
  vector_property<&State::q>(state, "q", "the coordinates (num_coordinates)");
  vector_property<&State::v>(state, "v", "the velocities (num_coordinates)");
  vector_property<&State::p>(state, "p", "the scheme's momenta (num_coordinates; set by initialize)");
  vector_property<&State::lambda>(state, "multipliers",
                                  "the constraint multipliers of the step that led to the state (num_multipliers; "
                                  "zero after initialize)");
}

/// The labels of the coordinates or of the multipliers (q:<block>.<coordinate>, <constraint>[row]).
template <class Label>
std::vector<std::string> labels(Index count, Label label) {
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(count));
  for (Index i = 0; i < count; ++i) out.push_back(label(i));
  return out;
}

/// The model of scenario `name` with parameters given as numbers or, for a choice, its name
/// (as `--set key=value` takes them): resolve_parameters checks them before anything is built.
ModelHandle scenario_model(const std::string& name, const py::dict& parameters) {
  const Scenario& scenario = find_scenario(name);
  ParameterValues overrides;
  for (const auto& [key, value] : parameters) {
    const std::string k = py::str(key);
    overrides[k] = py::isinstance<py::str>(value) ? parse_parameter_value(scenario, k, value.cast<std::string>())
                                                  : value.cast<double>();
  }
  const ParameterValues values = resolve_parameters(scenario, overrides);
  py::gil_scoped_release unlocked;
  return std::make_shared<Model>(scenario.build(values));
}

const Probe& find_probe(const Model& model, const std::string& name) {
  for (const Probe& probe : model.probes)
    if (probe.name == name) return probe;
  std::string known;
  for (const Probe& probe : model.probes) known += (known.empty() ? "" : ", ") + probe.name;
  throw std::invalid_argument("no probe named " + quote(name) + "; probes: " + (known.empty() ? "none" : known));
}

void bind_model_class(py::module_& m) {
  ModelClass model_class(m, "Model",
                         "A system with its initial state and probes: what a Stepper steps. Made from a "
                         "Mechanism (noether.Model(mechanism)), a scene file or a scenario.");
  model_class
      .def_static(
          "from_scene_text",
          [](const std::string& text, const std::string& origin) {
            py::gil_scoped_release unlocked;
            return std::make_shared<Model>(*parse_scene(text, origin).built);
          },
          py::arg("text"), py::arg("origin"), "the model of a scene file's JSON text; errors name origin and the JSON path")
      .def_static(
          "from_scene_file",
          [](const std::filesystem::path& path) {
            py::gil_scoped_release unlocked;
            return std::make_shared<Model>(*load_scene(path).built);
          },
          py::arg("path"), "the model of a scene file (docs/scenes.md)")
      .def_static("from_scenario", &scenario_model, py::arg("name"), py::arg("parameters") = py::dict(),
                  "the model of a built-in scenario (noether list) with parameters as `--set` takes them")
      .def_property_readonly("num_coordinates", [](const Model& model) { return model.system->num_coordinates(); })
      .def_property_readonly("num_multipliers", [](const Model& model) { return model.system->num_multipliers(); })
      .def_property_readonly(
          "coordinate_labels",
          [](const Model& model) {
            return labels(model.system->num_coordinates(), [&](Index i) { return model.system->coordinate_label(i); });
          },
          "each coordinate's label, <block>.<coordinate>")
      .def_property_readonly(
          "multiplier_labels",
          [](const Model& model) {
            return labels(model.system->num_multipliers(), [&](Index r) { return model.system->multiplier_label(r); });
          },
          "each constraint row's label")
      .def_property_readonly(
          "probe_names",
          [](const Model& model) {
            std::vector<std::string> names;
            for (const Probe& probe : model.probes) names.push_back(probe.name);
            return names;
          })
      .def("initial_state", [](const Model& model) { return model.initial; },
           "a copy of the initial state (q, v at t = 0; p and the multipliers are set by Stepper.initialize)")
      .def(
          "probe",
          [](const Model& model, const std::string& name, const State& state) -> Vector {
            return find_probe(model, name).position(state);
          },
          py::arg("name"), py::arg("state"), "the probe's position at state (2 or 3 entries; 1 for a profile probe)")
      .def("__repr__", [](const Model& model) {
        return "<noether.Model " + std::to_string(model.system->num_coordinates()) + " coordinates, " +
               std::to_string(model.system->num_multipliers()) + " constraint equations>";
      });
  bind_user_functions(model_class);
}

}  // namespace

void bind_model(py::module_& m) {
  bind_state(m);
  bind_model_class(m);
}

}  // namespace noether::python

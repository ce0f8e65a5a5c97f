/// Steppers made by name from the registry, with the run settings a stepper takes, and the
/// measures of a state.
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <Python.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <noether/apps/run_settings.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/quote.hpp>
#include <noether/engine/reaction.hpp>
#include <noether/solvers/initial_values.hpp>
#include <noether/solvers/linear/blas_threads.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include "bindings.hpp"

namespace noether::python {
namespace {

/// The run settings (run_settings()) whose values a stepper is made with (StepperOptions); the
/// others (h, t_end, outputs, ...) are a run's, given to noether.run.
constexpr std::array<std::string_view, 7> kStepperSettings{
    "solver", "ordering", "newton_tolerance", "newton_max_iterations", "newton_method", "newton_refresh", "refine_depth"};

/// The configuration of a stepper named `name` with the settings' texts converted by their rows,
/// as `noether run` converts its options, and checked by check_run_configuration (with a step and
/// end time it accepts: a stepper has neither).
RunConfiguration stepper_configuration(const std::string& name, const std::map<std::string, std::string>& settings,
                                       const std::map<std::string, double, std::less<>>& parameters) {
  RunOptions options = default_run_options();
  options.configure().stepper = name;
  for (const RunSetting& setting : run_settings()) {
    const auto given = settings.find(std::string(setting.name));
    if (given == settings.end()) continue;
    if (std::find(kStepperSettings.begin(), kStepperSettings.end(), setting.name) == kStepperSettings.end())
      throw std::invalid_argument(std::string(setting.name) + " is a setting of a run (noether.run), not of a Stepper");
    setting.apply(setting, given->second, options);
  }
  for (const auto& [key, text] : settings)
    if (std::none_of(run_settings().begin(), run_settings().end(), [&](const RunSetting& s) { return s.name == key; }))
      throw std::invalid_argument("no stepper setting named " + quote(key) + "; a Stepper takes " + [] {
        std::string list;
        for (std::string_view s : kStepperSettings) list += std::string(s) + ", ";
        return list + "and the stepper's own parameters (parameters={...})";
      }());
  RunConfiguration configuration = *options.settings;
  configuration.scheme_parameters = parameters;
  configuration.h = 1.0;
  configuration.t_end = 0.0;
  check_run_configuration(configuration);
  return configuration;
}

/// A stepper with the model it steps (the model's System outlives it).
struct PyStepper {
  ModelHandle model;
  std::unique_ptr<Stepper> stepper;
};

py::dict report_dict(const StepReport& report) {
  py::dict d;
  d["iterations"] = report.iterations;
  d["factorizations"] = report.factorizations;
  d["evaluations"] = report.evaluations;
  d["substeps"] = report.substeps;
  d["refinements"] = report.refinements;
  d["smallest_substep"] = report.smallest_substep;
  d["step_size"] = report.step_size;
  d["stalled_residual"] = report.stalled_residual;
  d["condition_estimate"] = report.condition_estimate;
  d["work"] = report.work;
  return d;
}

/// n steps of h from state, the GIL released during each; Python's signal handlers run between
/// steps (PyErr_CheckSignals, with the GIL taken back briefly), so Ctrl-C stops the loop after the
/// step in progress, with state at the last step completed. Returns the steps taken. The BLAS runs
/// one thread meanwhile, as in `noether run` (BlasThreadLimit: the same bits as the program's run;
/// numpy's count is given back after).
long advance(PyStepper& self, State& state, double h, long n) {
  if (n < 0) throw std::invalid_argument("advance: n must be >= 0, got " + std::to_string(n));
  const BlasThreadLimit blas_thread_limit;
  for (long k = 0; k < n; ++k) {
    {
      py::gil_scoped_release unlocked;
      self.stepper->step(state, h);
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  return n;
}

void bind_stepper_class(py::module_& m) {
  m.def(
      "stepper_settings",
      [] { return std::vector<std::string>(kStepperSettings.begin(), kStepperSettings.end()); },
      "the names of the run settings a Stepper takes");
  py::class_<PyStepper>(m, "Stepper",
                        "A stepper of the registry (noether.steppers()) made on a model, with the run settings "
                        "a stepper takes (stepper_settings()) as texts by name, and the stepper's own parameters.")
      .def(py::init([](ModelHandle model, const std::string& name, const std::map<std::string, std::string>& settings,
                       const std::map<std::string, double, std::less<>>& parameters) {
             const RunConfiguration configuration = stepper_configuration(name, settings, parameters);
             const StepperOptions options = configuration.stepper_options();
             py::gil_scoped_release unlocked;
             std::unique_ptr<Stepper> stepper = find_stepper(name).make(*model->system, options);
             return PyStepper{std::move(model), std::move(stepper)};
           }),
           py::arg("model"), py::arg("name") = "livens-em", py::arg("settings") = std::map<std::string, std::string>{},
           py::arg("parameters") = std::map<std::string, double, std::less<>>{})
      .def_property_readonly("name", [](const PyStepper& self) { return std::string(self.stepper->name()); })
      .def_property_readonly("model", [](const PyStepper& self) { return self.model; })
      .def(
          "initialize", [](const PyStepper& self, State& state) { self.stepper->initialize(state); },
          py::arg("state"), py::call_guard<py::gil_scoped_release>(),
          "completes the state (momenta p, multipliers) after checking it; refuses initial values off the "
          "constraints (noether.StepperRefusal; noether.project puts them on)")
      .def(
          "step",
          [](PyStepper& self, State& state, double h) {
            const BlasThreadLimit blas_thread_limit;  // as advance
            return self.stepper->step(state, h);
          },
          py::arg("state"), py::arg("h"), py::call_guard<py::gil_scoped_release>(),
          "one step of h in place; returns its StepReport. A failed step raises noether.NewtonError and leaves "
          "state as it was")
      .def("advance", &advance, py::arg("state"), py::arg("h"), py::arg("n"),
           "n steps of h in place, the GIL released during each, Ctrl-C honoured between steps; returns n")
      .def(
          "conserved_energy", [](const PyStepper& self, const State& state) { return self.stepper->conserved_energy(state); },
          py::arg("state"), py::call_guard<py::gil_scoped_release>(),
          "the energy the scheme conserves (without dampers and loads) at state");
  py::class_<StepReport>(m, "StepReport", "What one step took (Newton's iterations, substeps, the step size) and the work W_n done on the system over it.")
      .def_readonly("iterations", &StepReport::iterations)
      .def_readonly("factorizations", &StepReport::factorizations)
      .def_readonly("substeps", &StepReport::substeps)
      .def_readonly("refinements", &StepReport::refinements)
      .def_readonly("step_size", &StepReport::step_size)
      .def_readonly("condition_estimate", &StepReport::condition_estimate)
      .def_readonly("work", &StepReport::work,
                    "W, the discrete work of dampers, loads and drives over the step: conserved_energy(after) - "
                    "conserved_energy(before) = W to Newton's tolerance for an energy-consistent scheme")
      .def("as_dict", &report_dict);
}

py::dict reaction_dict(const Reaction& r) {
  py::dict d;
  d["joint"] = r.joint;
  d["dimension"] = r.dimension;
  d["has_moment"] = r.has_moment;
  d["force"] = Eigen::Vector3d(r.force);
  d["moment"] = Eigen::Vector3d(r.moment);
  d["has_frame"] = r.has_frame;
  if (r.has_frame) {
    d["force_in_frame"] = Eigen::Vector3d(r.force_in_frame);
    d["moment_in_frame"] = Eigen::Vector3d(r.moment_in_frame);
  }
  return d;
}

void bind_measures(py::module_& m) {
  const auto released = py::call_guard<py::gil_scoped_release>();
  m.def("kinetic_energy", [](const Model& model, const State& s) { return kinetic_energy(*model.system, s.q, s.v); },
        py::arg("model"), py::arg("state"), released, "T(q, v) = 1/2 v.M(q) v");
  m.def("potential_energy", [](const Model& model, const State& s) { return potential_energy(*model.system, s.q); },
        py::arg("model"), py::arg("state"), released, "V(q), the sum over the potentials");
  m.def(
      "constraint_values",
      [](const Model& model, const State& s) {
        Vector g(model.system->num_multipliers());
        calc_constraint_values(*model.system, s.q, g, s.t);
        return g;
      },
      py::arg("model"), py::arg("state"), released, "g(q, t) at the state's time (num_multipliers)");
  m.def(
      "velocity_constraint_values",
      [](const Model& model, const State& s) {
        Vector gv(model.system->num_multipliers());
        calc_velocity_constraint_values(*model.system, s.q, s.v, gv, s.t);
        return gv;
      },
      py::arg("model"), py::arg("state"), released,
      "G(q, t) v + g_t(q, t) at the state's time (num_multipliers; g_t: rheonomic constraints only)");
  m.def(
      "momenta",
      [](const Model& model, const State& s, const Eigen::Vector3d& about) {
        Momenta result;
        {
          py::gil_scoped_release unlocked;
          result = noether::momenta(*model.system, s.q, s.v, about);
        }
        py::dict d;
        d["linear"] = Eigen::Vector3d(result.linear);
        d["angular"] = Eigen::Vector3d(result.angular);
        return d;
      },
      py::arg("model"), py::arg("state"), py::arg("about") = Eigen::Vector3d::Zero().eval(),
      "{'linear': L, 'angular': J about `about`} of the whole system; ValueError naming an inertia without a "
      "momentum map");
  m.def(
      "joint_reactions",
      [](const Model& model, const State& s) {
        std::vector<Reaction> reactions;
        {
          py::gil_scoped_release unlocked;
          reactions = noether::joint_reactions(*model.system, s);
        }
        py::list out;
        for (const Reaction& r : reactions) out.append(reaction_dict(r));
        return out;
      },
      py::arg("model"), py::arg("state"),
      "each joint's force and moment on its second body at state (q and the step's multipliers), as dicts: "
      "joint, force, moment (world, about the joint's point on the body), force_in_frame and moment_in_frame "
      "where the joint has a frame (docs/api.md, Joint reactions)");
  m.def(
      "project",
      [](const Model& model, State& s) {
        std::string description;
        {
          py::gil_scoped_release unlocked;
          description = describe(*model.system, project_initial_state(*model.system, s));
        }
        return description;
      },
      py::arg("model"), py::arg("state"),
      "moves q, then v, onto the constraints by the minimum-norm correction (values already on them stay "
      "bitwise), as `noether run` does before its first step; returns what it did in words ('' when nothing)");
  m.def(
      "steppers",
      [] {
        py::list out;
        for (const StepperInfo& s : steppers()) {
          py::dict d;
          d["name"] = s.name;
          d["description"] = s.description;
          d["order"] = s.order;
          d["conserves_energy"] = s.conserves_energy;
          d["adaptive_step_size"] = s.adaptive_step_size;
          py::dict parameters;
          for (const SchemeParameter& p : s.parameters) parameters[py::str(std::string(p.name))] = p.default_value;
          d["parameters"] = parameters;
          out.append(d);
        }
        return out;
      },
      "the steppers of the registry, as `noether list` prints them");
}

}  // namespace

void bind_stepper(py::module_& m) {
  bind_stepper_class(m);
  bind_measures(m);
}

}  // namespace noether::python

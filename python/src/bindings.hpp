#pragma once
/// The parts of the module noether._noether (docs/python.md), one function each, called in order
/// by module.cpp. What Python sees of each C++ type:
/// - the vectors of a State (q, v, p, multipliers) are copies, read-only: a step may move the
///   State's storage, so no view of it would stay valid; assigning one (state.q = ...) copies in;
/// - results computed on request (measures, reactions, probes) are new arrays that own the vector
///   the C++ function returned (moved, not copied);
/// - arrays passed in (a State's vectors, a user function's results) are copied into the C++ side,
///   which owns what it keeps; any sequence of numbers converts.
/// Every call that may evaluate the elements (a step, initialize, an energy) releases the GIL, so
/// that Python user functions, called from the engine's worker threads, can take it.
#include <memory>

#include <pybind11/pybind11.h>

#include <noether/apps/model/model.hpp>

namespace noether::python {

namespace py = pybind11;

/// A model as Python holds it: shared by the steppers made on it (their System is its system).
using ModelHandle = std::shared_ptr<Model>;
using ModelClass = py::class_<Model, ModelHandle>;

/// noether.Error and its subclasses, and the translation of the library's exceptions: a bad value
/// (std::invalid_argument) is a ValueError, a refusal or a failed step a noether.Error.
void bind_errors(py::module_& m);
/// State, Model (from a scene's text, a scene file or a scenario), the user functions.
void bind_model(py::module_& m);
/// Stepper (any of the registry's), StepReport, the measures of a state.
void bind_stepper(py::module_& m);
/// The run settings' table and the run of `noether run`.
void bind_run(py::module_& m);

}  // namespace noether::python

/// The library's exceptions as Python's, with their messages.
#include <exception>
#include <stdexcept>

#include <noether/apps/output_directory.hpp>
#include <noether/solvers/initial_values.hpp>
#include <noether/solvers/linear/linear_solver.hpp>
#include <noether/solvers/newton.hpp>
#include <noether/solvers/projection.hpp>
#include <noether/steppers/stepper.hpp>

#include "bindings.hpp"

namespace noether::python {
namespace {

/// A new exception class noether.<name> derived from base, added to m.
py::handle new_exception(py::module_& m, const char* name, py::handle base, const char* doc) {
  const std::string qualified = std::string("noether.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(type));  // the module keeps the reference
  return type;
}

}  // namespace

void bind_errors(py::module_& m) {
  static const py::handle error =
      new_exception(m, "Error", PyExc_RuntimeError,
                    "Noether refused something or could not do it: a stepper's refusal of a system, initial "
                    "values or a step's settings, a failed step, an output that could not be written, a system "
                    "changed while a stepper uses it. The message is the C++ library's.");
  static const py::handle refusal = new_exception(
      m, "StepperRefusal", error,
      "A stepper cannot treat the system or its initial values (StepperRefusal, InconsistentInitialValues); "
      "the message names the element and what to do instead.");
  static const py::handle newton = new_exception(
      m, "NewtonError", error,
      "A step whose Newton iteration failed after every refinement; the state is left as it was.");
  // The specific before the general: std::invalid_argument (a bad value: ValueError) before
  // std::logic_error, its base. What is caught here by none is pybind11's to translate.
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const py::builtin_exception&) {
      throw;  // pybind11's own (a cast error: TypeError)
    } catch (const NewtonError& e) {
      PyErr_SetString(newton.ptr(), e.what());
    } catch (const StepperRefusal& e) {
      PyErr_SetString(refusal.ptr(), e.what());
    } catch (const InconsistentInitialValues& e) {
      PyErr_SetString(refusal.ptr(), e.what());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::out_of_range&) {
      throw;  // IndexError
    } catch (const std::logic_error& e) {  // a System changed while a stepper uses it, a call while a step runs
      PyErr_SetString(error.ptr(), e.what());
    } catch (const ProjectionError& e) {
      PyErr_SetString(error.ptr(), e.what());
    } catch (const LinearSolverError& e) {
      PyErr_SetString(error.ptr(), e.what());
    } catch (const OutputError& e) {
      PyErr_SetString(error.ptr(), e.what());
    }
  });
}

}  // namespace noether::python

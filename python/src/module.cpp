/// The extension module noether._noether; the package noether (python/noether/) wraps it.
#include "bindings.hpp"

PYBIND11_MODULE(_noether, m) {
  m.doc() = "Noether's C++ engine: models, steppers, measures and runs (docs/python.md)";
  noether::python::bind_errors(m);
  noether::python::bind_model(m);
  noether::python::bind_stepper(m);
  noether::python::bind_run(m);
}

#pragma once
/// Potentials, loads and actuator laws written in Python (docs/python.md, "User functions"):
/// Model.add_potential, Model.add_load and Model.add_actuator add a FunctionPotential, a PythonLoad
/// or a JointActuator whose functions call Python.
///
/// A result that does not convert is refused naming the element, the function, the result and what
/// it must be (TypeError: no number or array of numbers; ValueError: numbers of the wrong shape),
/// and reaches the caller of the step as a Python exception raised in the function does.
///
/// The engine calls them from its worker threads, several at once: each call takes the GIL (every
/// binding that may evaluate elements releases it), so Python functions run one at a time. A
/// derivative not given is a central difference of the function it derives (a gradient from V,
/// a Hessian or load Jacobian from the gradient or load), with the step of
/// central_difference_step: its error is about 1e-10 relative for the gradient and 1e-5 for a
/// Hessian made from a differenced gradient; Gonzalez's discrete gradient still balances the energy
/// exactly (V(q1) - V(q0) = DbarV.(q1 - q0) whatever the gradient's error), and Newton's tangent
/// needs no more.
#include <noether/engine/types.hpp>

#include "bindings.hpp"

namespace noether::python {

/// The step of the central difference in coordinate i at x: cbrt(machine epsilon) (1 + |x_i|),
/// which balances the truncation error h^2 f''' / 6 against the rounding error eps f / h.
double central_difference_step(double x);

/// Model.add_potential, Model.add_load, Model.add_actuator.
void bind_user_functions(ModelClass& model);

}  // namespace noether::python

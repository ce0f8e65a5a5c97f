#pragma once
/// Newton options for the tests that check a step's invariants (energy, momenta) to round-off.
#include <noether/steppers/stepper.hpp>

namespace noether::testing {

/// The default residual tolerance (1e-13) and an increment tolerance of 1e-13 instead of the
/// default 1e-10, so that the error Newton leaves in a step lies below what those checks resolve.
inline StepperOptions tight_newton() {
  StepperOptions options;
  options.newton.residual_tolerance = 1e-13;
  options.newton.increment_tolerance = 1e-13;
  return options;
}

}  // namespace noether::testing

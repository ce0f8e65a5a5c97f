/// User callbacks that return a vector or matrix of the wrong size: each is an error naming the
/// element, the callback, the size returned and the size expected, whether the element is
/// evaluated directly or by a stepper, never a read past the end of a buffer (without the check, a
/// FunctionConstraint returning one entry for two equations is a heap-buffer-overflow read under
/// AddressSanitizer).
#include <functional>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include <noether/bodies/generic_inertia.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

const std::vector<BlockId> kOneBlock{BlockId{0}};

/// The circle 1/2 (|q|^2 - 1) = 0 in the plane: one equation.
ConstraintFunction circle() {
  ConstraintFunction f;
  f.num_equations = 1;
  f.value = [](ConstVectorRef q) { return Vector::Constant(1, 0.5 * (q.squaredNorm() - 1.0)); };
  f.jacobian = [](ConstVectorRef q) { return Matrix(q.transpose()); };
  f.hessian_contraction = [](ConstVectorRef, ConstVectorRef l) { return Matrix(l(0) * Matrix::Identity(2, 2)); };
  return f;
}

/// V = 1/4 |q|^4.
PotentialFunction quartic() {
  return {.energy = [](ConstVectorRef q) { return 0.25 * q.squaredNorm() * q.squaredNorm(); },
          .gradient = [](ConstVectorRef q) { return Vector(q.squaredNorm() * q); },
          .hessian = [](ConstVectorRef q) { return Matrix(q.squaredNorm() * Matrix::Identity(2, 2) + 2.0 * q * q.transpose()); }};
}

/// The message of the std::invalid_argument livens-em (which takes every element kind) throws
/// when it makes a stepper on `system`, initializes (q, v) = ((1, 0), (0, 1)) and takes one step;
/// "" if none.
std::string message_of_step(const System& system) {
  State state{.q = Vector::Unit(2, 0), .v = Vector::Unit(2, 1)};
  try {
    const std::unique_ptr<Stepper> stepper = find_stepper("livens-em").make(system, StepperOptions{});
    stepper->initialize(state);
    stepper->step(state, 0.01);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return {};
}

/// message_of_step on a unit mass in the plane (block "p") with `element` added.
template <class ElementPointer>
std::string message_of_step(ElementPointer element) {
  System system;
  system.add_block("p", {"x", "y"});
  system.add(std::make_shared<ConstantInertia>("mass", kOneBlock, Matrix::Identity(2, 2)));
  system.add(element);
  return message_of_step(system);
}

}  // namespace

TEST_CASE("a FunctionConstraint whose functions return the wrong size is an error naming it") {
  ConstraintFunction f = circle();
  f.num_equations = 2;  // the Jacobian has its two rows, the value one entry
  f.jacobian = [](ConstVectorRef q) { return Matrix(Matrix(q.transpose()).replicate(2, 1)); };
  CHECK(message_of_step(std::make_shared<FunctionConstraint>("circle", kOneBlock, 2, f)) ==
        "constraint 'circle': ConstraintFunction::value returned 1 entry, expected 2 entries");
  f = circle();
  f.jacobian = [](ConstVectorRef q) { return Matrix(q); };  // 2 x 1 instead of 1 x 2
  CHECK(message_of_step(std::make_shared<FunctionConstraint>("circle", kOneBlock, 2, f)) ==
        "constraint 'circle': ConstraintFunction::jacobian returned a 2 x 1 matrix, expected 1 x 2");
  f = circle();
  f.hessian_contraction = [](ConstVectorRef, ConstVectorRef l) { return Matrix(l(0) * Matrix::Identity(3, 3)); };
  CHECK(message_of_step(std::make_shared<FunctionConstraint>("circle", kOneBlock, 2, f)) ==
        "constraint 'circle': ConstraintFunction::hessian_contraction returned a 3 x 3 matrix, expected 2 x 2");
  // Declared quadratic: the exact form is read at construction, where the sizes are checked too.
  f = circle();
  f.num_equations = 2;
  f.nonlinearity = Nonlinearity::quadratic;
  CHECK_THROWS_WITH_AS(FunctionConstraint("circle", kOneBlock, 2, f),
                       "constraint 'circle': ConstraintFunction::value returned 1 entry, expected 2 entries",
                       std::invalid_argument);
  // Evaluated directly.
  f = circle();
  f.num_equations = 2;
  const FunctionConstraint direct("circle", kOneBlock, 2, f);
  Vector g(2);
  CHECK_THROWS_AS(direct.calc_value(Vector::Unit(2, 0), g), std::invalid_argument);
}

TEST_CASE("a FunctionPotential whose gradient or Hessian has the wrong size is an error naming it") {
  PotentialFunction f = quartic();
  f.gradient = [](ConstVectorRef q) { return Vector(q.head(1)); };
  CHECK(message_of_step(std::make_shared<FunctionPotential>("quartic", kOneBlock, 2, f)) ==
        "potential 'quartic': PotentialFunction::gradient returned 1 entry, expected 2 entries");
  f = quartic();
  f.hessian = [](ConstVectorRef) { return Matrix(Matrix::Identity(2, 3)); };
  CHECK(message_of_step(std::make_shared<FunctionPotential>("quartic", kOneBlock, 2, f)) ==
        "potential 'quartic': PotentialFunction::hessian returned a 2 x 3 matrix, expected 2 x 2");
}

TEST_CASE("a ConfigurationInertia whose mass functions return the wrong size is an error naming it") {
  const auto with = [](MassFunction f) {
    System system;
    system.add_block("p", {"x", "y"});
    system.add(std::make_shared<ConfigurationInertia>("pendulum", kOneBlock, 2, std::move(f)));
    return message_of_step(system);
  };
  // M(q) = (1 + |q|^2) I.
  const MassFunction good{.mass = [](ConstVectorRef q) { return Matrix((1.0 + q.squaredNorm()) * Matrix::Identity(2, 2)); },
                          .mass_derivative = [](ConstVectorRef q, Index i) { return Matrix(2.0 * q(i) * Matrix::Identity(2, 2)); },
                          .mass_second_derivative = [](ConstVectorRef, Index i, Index j) {
                            return Matrix((i == j ? 2.0 : 0.0) * Matrix::Identity(2, 2));
                          }};
  CHECK(with(good).empty());
  MassFunction f = good;
  f.mass = [](ConstVectorRef) { return Matrix(Matrix::Identity(1, 1)); };
  CHECK(with(f) == "inertia 'pendulum': MassFunction::mass returned a 1 x 1 matrix, expected 2 x 2");
  f = good;
  f.mass_derivative = [](ConstVectorRef, Index) { return Matrix(Matrix::Zero(3, 2)); };
  CHECK(with(f) == "inertia 'pendulum': MassFunction::mass_derivative returned a 3 x 2 matrix, expected 2 x 2");
  f = good;
  f.mass_second_derivative = [](ConstVectorRef, Index, Index) { return Matrix(Matrix::Zero(2, 1)); };
  CHECK(with(f) == "inertia 'pendulum': MassFunction::mass_second_derivative returned a 2 x 1 matrix, expected 2 x 2");
}

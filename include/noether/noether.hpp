#pragma once
/// The public API of Noether::noether in one include: systems and the element interfaces, director
/// bodies and mechanisms with the state of their bodies, the joint and force library, Newton's
/// options, initial values and redundant constraints, every stepper with the registry that makes
/// them by name, the measures of a state, the scaling generators, and model descriptions with
/// their builder. Link Noether::noether; include this, or single headers (<noether/LAYER/FILE.hpp>)
/// to build faster. What it leaves out (the engine's assembly, the linear back-ends, the scheme
/// kernels, the built-in scenarios of Noether::scenarios) and why: docs/api.md.

// Systems, the element interfaces, states and what is measured on them.
#include <noether/engine/discrete_derivative.hpp>
#include <noether/engine/discrete_gradients.hpp>
#include <noether/engine/exact_form.hpp>
#include <noether/engine/gonzalez.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/reaction.hpp>
#include <noether/engine/rigid_motion.hpp>
#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>
#include <noether/engine/thread_limit.hpp>
#include <noether/engine/types.hpp>

// Bodies: physical data, director bodies and point masses, mechanisms, a body's state.
#include <noether/bodies/body_properties.hpp>
#include <noether/bodies/body_state.hpp>
#include <noether/bodies/director_constraint.hpp>
#include <noether/bodies/director_inertia.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/bodies/kinematics.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/bodies/spherical_point_mass.hpp>

// Joints and forces.
#include <noether/joints/applied_loads.hpp>
#include <noether/joints/distance_power_constraint.hpp>
#include <noether/joints/driven_joint.hpp>
#include <noether/joints/driven_prismatic.hpp>
#include <noether/joints/driven_revolute.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/joints/hinge_angle.hpp>
#include <noether/joints/joint_actuator.hpp>
#include <noether/joints/joint_coordinate.hpp>
#include <noether/joints/joint_library.hpp>
#include <noether/joints/point_damper.hpp>
#include <noether/joints/point_spring.hpp>
#include <noether/joints/polynomial_potential.hpp>
#include <noether/joints/prescribed_point.hpp>
#include <noether/joints/quadratic_joint.hpp>
#include <noether/joints/rotational_spring_damper.hpp>
#include <noether/joints/time_profile.hpp>
#include <noether/joints/viscous_damper.hpp>

// Newton's options and errors, initial values, redundant constraint equations.
#include <noether/solvers/initial_values.hpp>
#include <noether/solvers/linear/linear_solver.hpp>
#include <noether/solvers/linear/make_linear_solver.hpp>
#include <noether/solvers/linear/nested_dissection.hpp>
#include <noether/solvers/newton.hpp>
#include <noether/solvers/projection.hpp>
#include <noether/solvers/redundancy.hpp>

// The steppers, and the registry that makes any of them by name.
#include <noether/steppers/composition.hpp>
#include <noether/steppers/em_ggl.hpp>
#include <noether/steppers/evi.hpp>
#include <noether/steppers/ggl_vi.hpp>
#include <noether/steppers/livens_em.hpp>
#include <noether/steppers/lobatto4.hpp>
#include <noether/steppers/sem_vi.hpp>
#include <noether/steppers/stepper.hpp>
#include <noether/steppers/stepper_history.hpp>
#include <noether/steppers/stepper_registry.hpp>

// Model descriptions and their builder (what scene files hold), the scaling generators.
#include <noether/apps/mechanisms/generators.hpp>
#include <noether/apps/model/body_probe.hpp>
#include <noether/apps/model/model_builder.hpp>

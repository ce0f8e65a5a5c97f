#pragma once
/// Everything a user of Noether::noether needs: systems and their elements, director bodies and
/// mechanisms, the joint and force library, the steppers and their options, the measures of a
/// state, the rule for initial values, the scaling generators, and model descriptions with their
/// builder. Link Noether::noether; include this, or the single headers (<noether/LAYER/FILE.hpp>)
/// to build faster.
#include <noether/engine/measures.hpp>
#include <noether/engine/state.hpp>
#include <noether/engine/system.hpp>

#include <noether/bodies/body_properties.hpp>
#include <noether/bodies/director_constraint.hpp>
#include <noether/bodies/director_inertia.hpp>
#include <noether/bodies/generic_inertia.hpp>
#include <noether/bodies/mechanism.hpp>
#include <noether/bodies/spherical_point_mass.hpp>

#include <noether/joints/applied_loads.hpp>
#include <noether/joints/function_constraint.hpp>
#include <noether/joints/function_potential.hpp>
#include <noether/joints/gravity.hpp>
#include <noether/joints/hinge_angle.hpp>
#include <noether/joints/joint_library.hpp>
#include <noether/joints/point_damper.hpp>
#include <noether/joints/point_spring.hpp>
#include <noether/joints/polynomial_potential.hpp>
#include <noether/joints/rotational_spring_damper.hpp>
#include <noether/joints/time_profile.hpp>
#include <noether/joints/viscous_damper.hpp>

#include <noether/solvers/initial_values.hpp>
#include <noether/solvers/projection.hpp>
#include <noether/steppers/em_ggl.hpp>
#include <noether/steppers/ggl_vi.hpp>
#include <noether/steppers/livens_em.hpp>
#include <noether/steppers/stepper_registry.hpp>

#include <noether/apps/mechanisms/generators.hpp>
#include <noether/apps/model/model_builder.hpp>

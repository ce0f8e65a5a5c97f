#pragma once
/// The joint library: every joint family, each a QuadraticJoint built by a make_* factory.
#include <noether/joints/cylindrical.hpp>
#include <noether/joints/distance.hpp>
#include <noether/joints/fixed.hpp>
#include <noether/joints/fixed_planar.hpp>
#include <noether/joints/perpendicular.hpp>
#include <noether/joints/prismatic.hpp>
#include <noether/joints/prismatic_planar.hpp>
#include <noether/joints/revolute.hpp>
#include <noether/joints/revolute_planar.hpp>
#include <noether/joints/spherical.hpp>
#include <noether/joints/universal.hpp>

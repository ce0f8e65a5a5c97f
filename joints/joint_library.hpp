#pragma once
/// The joint library: every joint family, each a QuadraticJoint built by a make_* factory.
#include "joints/cylindrical.hpp"
#include "joints/distance.hpp"
#include "joints/fixed.hpp"
#include "joints/fixed_planar.hpp"
#include "joints/prismatic.hpp"
#include "joints/prismatic_planar.hpp"
#include "joints/revolute.hpp"
#include "joints/revolute_planar.hpp"
#include "joints/spherical.hpp"
#include "joints/universal.hpp"

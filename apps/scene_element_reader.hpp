#pragma once
/// Reading the elements of a scene file's lists (docs/scenes.md: bodies, inertias, joints,
/// constraints, drives, forces, actuators, probes, invariants) and its conserved momenta, each
/// error a JsonInputError at its JSON path. The names of kinds are scene_names.hpp's, which the
/// writer shares; a joint's keys are its kind's descriptor's (apps/model/joint_kinds.hpp).
#include <noether/apps/json_reader.hpp>
#include <noether/apps/scene_elements.hpp>

namespace noether {

/// An element of a list of `kind`, read from o (its keys checked by the caller's finish()).
SceneElement read_element_of(SceneListKind kind, JsonObject& o);

/// The scene's "conserved_momenta" object.
ConservedMomenta read_conserved_momenta(JsonObject& o);

}  // namespace noether

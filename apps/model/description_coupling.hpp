#pragma once
/// The coupling of a described model's bodies (engine/partition.hpp), read off its description
/// before anything is built: so each process of a run can know the cut of the model, and which
/// bodies and entries are its own, without building the whole (docs/distributed.md, "The
/// partitioned model").
#include <noether/apps/model/model_description.hpp>
#include <noether/engine/partition.hpp>

namespace noether {

/// One block per body (the description's order, which is the built system's block order) of its
/// number of coordinates, and one element per element the entries build, touching the bodies each
/// names, its side A's before its side B's (a ground side touches none). Equal to block_coupling of
/// build_model(description)'s system in the pairs it joins (tests/apps/test_description_coupling.cpp).
/// Throws std::invalid_argument for a body name the description does not hold.
BlockCoupling description_coupling(const ModelDescription& description);

}  // namespace noether

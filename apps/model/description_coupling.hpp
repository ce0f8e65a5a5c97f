#pragma once
/// The coupling of a described model's bodies (engine/partition.hpp), read off its description
/// before anything is built: so each process of a run can know the cut of the model, and which
/// bodies and entries are its own, without building the whole (docs/distributed.md, "The
/// partitioned model").
#include <cstddef>
#include <functional>
#include <span>

#include <noether/apps/model/model_description.hpp>
#include <noether/engine/partition.hpp>

namespace noether {

/// The lists of a description whose entries build one element each, in the builder's order.
enum class EntryList { inertias, joints, constraints, drives, forces, actuators };
inline constexpr std::size_t kEntryLists = 6;  ///< the members of EntryList

/// Calls visit(list, index, bodies) for each entry that builds one element, in the builder's order
/// (model_builder.hpp), with the description indices of the bodies its element touches, side A's
/// before side B's (a ground side touches none). Gravity, which builds one element on each body
/// it acts on, is left out; the bodies it lists must exist all the same. Throws
/// std::invalid_argument for a body name the description does not hold, or holds twice.
void for_each_entry_element(const ModelDescription& description,
                            const std::function<void(EntryList list, std::size_t index, std::span<const Index> bodies)>& visit);

/// The number of coordinates of a described body's block (Mechanism's block of its kind).
Index coordinates_of(const BodyDescription& body);

/// One block per body (the description's order, which is the built system's block order) of its
/// number of coordinates, and one element per element the entries build (for_each_entry_element).
/// Equal to block_coupling of build_model(description)'s system in the pairs it joins
/// (tests/apps/test_description_coupling.cpp). Throws as for_each_entry_element does.
BlockCoupling description_coupling(const ModelDescription& description);

}  // namespace noether

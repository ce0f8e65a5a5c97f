#pragma once
/// Body-wise ordering of a stepper's unknowns.
#include <span>
#include <vector>

#include <noether/engine/system.hpp>

namespace noether {

/// What a field of a stepper's unknown vector is indexed by: the coordinates (d entries, e.g. dq,
/// v, u) or the constraint multipliers (m entries, e.g. mu, gamma).
enum class FieldKind { coordinates, multipliers };

/// Positions of the unknowns of a vector made of consecutive fields of the given kinds (the
/// natural order: field after field) in body-wise order: coordinate block ("body") after coordinate
/// block, and within block b, field after field, the entries that belong to b: its coordinates, and
/// the multiplier rows of the constraints whose last coordinate lies in b. Returns position (size
/// sum of the field sizes) with x_body_wise[position[i]] = x_natural[i]. On a chain of bodies this
/// makes the Newton matrix block tridiagonal, one block per body.
std::vector<Index> body_wise_positions(const System& system, std::span<const FieldKind> fields);

}  // namespace noether

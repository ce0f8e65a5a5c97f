#pragma once
/// Whole-system quantities evaluated from a state: energies and constraint residuals.
/// Each runs over the elements in parallel, in fixed blocks of consecutive elements: a sum adds
/// each block's terms in element order and then the block sums in block order, so every result is
/// bitwise the same for any number of threads.
#include <noether/engine/system.hpp>

namespace noether {

/// T(q, v) = sum over inertia elements of 1/2 v.M(q) v.
double kinetic_energy(const System& system, ConstVectorRef q, ConstVectorRef v);
/// V(q) = sum over potential elements.
double potential_energy(const System& system, ConstVectorRef q);
/// g(q), overwrites g (num_multipliers()).
void calc_constraint_values(const System& system, ConstVectorRef q, VectorRef g);
/// G(q) v, the velocity-level constraints, overwrites gv (num_multipliers()).
void calc_velocity_constraint_values(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef gv);
/// p = M(q) v   (num_coordinates()), overwrites p.
void calc_momentum(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef p);
/// Largest |entry| of a vector, 0 for an empty one, NaN when an entry is NaN.
double max_abs(ConstVectorRef x);

}  // namespace noether

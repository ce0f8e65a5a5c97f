#pragma once
/// Whole-system quantities evaluated from a state: energies, momenta and constraint residuals.
/// Each runs over the elements in parallel, in fixed blocks of consecutive elements: a sum adds
/// each block's terms in element order and then the block sums in block order, so every result is
/// bitwise the same for any number of threads.
#include <noether/engine/system.hpp>

namespace noether {

/// T(q, v) = sum over inertia elements of 1/2 v.M(q) v.
double kinetic_energy(const System& system, ConstVectorRef q, ConstVectorRef v);
/// V(q) = sum over potential elements.
double potential_energy(const System& system, ConstVectorRef q);
/// g(q, t), overwrites g (num_multipliers()); t matters for rheonomic constraints only
/// (Constraint::rheonomic; their time-free values are those at t = 0).
void calc_constraint_values(const System& system, ConstVectorRef q, VectorRef g, double t = 0.0);
/// G(q, t) v + g_t(q, t), the velocity-level constraints, overwrites gv (num_multipliers()); g_t,
/// the rate of a rheonomic constraint, is not added for the others (G v alone).
void calc_velocity_constraint_values(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef gv,
                                     double t = 0.0);
/// g(q, t) and G(q, t) v + g_t together, the same values as the two functions above, in one walk
/// over the constraints (each gathers its coordinates once): what a run measures at every step.
void calc_constraint_residuals(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef g, VectorRef gv,
                               double t = 0.0);
/// p = M(q) v   (num_coordinates()), overwrites p.
void calc_momentum(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef p);
/// The linear momentum L and the angular momentum J about the point `about` of the system at
/// (q, v) (num_coordinates() each): the sum of its inertia elements' momentum maps
/// (Inertia::momenta, engine/rigid_motion.hpp). For bodies: L = sum of m v_c, J = sum of
/// (x_c - about) x m v_c + J_c omega, in R^3 (planar systems: L_z = 0, only J_z non-zero).
/// Throws std::invalid_argument naming the first inertia element that cannot say how rigid
/// motions move its coordinates (inertia_without_momenta): the momenta are then not defined.
Momenta momenta(const System& system, ConstVectorRef q, ConstVectorRef v,
                const Eigen::Vector3d& about = Eigen::Vector3d::Zero());
/// The first inertia element (in system order) without a momentum map, or nullptr when the
/// momenta of the system are defined.
const Inertia* inertia_without_momenta(const System& system);
/// Largest |entry| of a vector, 0 for an empty one, NaN when an entry is NaN.
double max_abs(ConstVectorRef x);

}  // namespace noether

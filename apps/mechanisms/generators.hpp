#pragma once
/// Mechanism generators for scaling studies (docs/performance.md): chains and lattices of uniform bars.
/// Every bar is a director body with its centre of mass at the body origin and its axis along d1;
/// bar ends are the body points X = (-l/2, 0[, 0]) and (l/2, 0[, 0]).
#include <Eigen/Core>

#include <noether/apps/model/model_description.hpp>
#include <noether/bodies/mechanism.hpp>

namespace noether {

class DescriptionSink;  // apps/model/description_sink.hpp

struct BarProperties {
  double mass = 1.0;
  double length = 1.0;
  double gravity = 9.81;  ///< acceleration in -y (planar) or -z (3D)
};

/// Each generator gives the mechanism to a DescriptionSink (generate_*: its whole description, its
/// outline or one process's part, apps/model/description_sink.hpp), as a description (the
/// scenarios run it, `noether export` writes it) and, through build_mechanism, as a Mechanism
/// (make_*; the benchmarks build those).

/// Planar chain of n bars on revolute joints along +x from the ground pivot at the origin, bar 0
/// pinned there; released horizontally at rest. Bars "bar0" ... "bar<n-1>".
void generate_chain2d(Index n, const BarProperties& bars, DescriptionSink& sink);
ModelDescription chain2d_description(Index n, const BarProperties& bars = {});
Mechanism make_chain2d(Index n, const BarProperties& bars = {});

enum class ChainJoint { spherical, revolute };

/// 3D chain of n rigid bars (square section of side length/20) along +x from a ground joint at the
/// origin, gravity in -z, released horizontally with a small out-of-plane velocity.
/// spherical: every joint spherical; the chain starts in a rigid rotation about the vertical axis
///   through the pivot, the free tip moving at `tip_speed` in +y.
/// revolute: hinge axes alternate y (joints 0, 2, ...) and z (joints 1, 3, ...), so the chain
///   moves in 3D; bars beyond the first z hinge start rotating about it, the tip at `tip_speed`
///   (a single bar starts at rest).
void generate_chain3d(Index n, ChainJoint joint, double tip_speed, const BarProperties& bars, DescriptionSink& sink);
ModelDescription chain3d_description(Index n, ChainJoint joint, double tip_speed = 0.1, const BarProperties& bars = {});
Mechanism make_chain3d(Index n, ChainJoint joint, double tip_speed = 0.1, const BarProperties& bars = {});

/// A lattice of `rows` x `columns` square cells of bars with planar revolute joints: per row,
/// columns + 1 vertical bars ("v<i>_<j>", row j = 1..rows) standing on the row below (row 1 on
/// ground pivots one bar length apart at y = 0) and `columns` horizontal couplers ("h<i>_<j>")
/// joining their tops. Each row adds one degree of freedom and no redundant constraint. Initial
/// state: squares, the verticals rotating with angular velocity -top_speed/l (a shear in which the
/// top of the first vertical of row 1, probe B0, moves at top_speed in +x), gravity in -y. The
/// configurations with horizontal bars are singular (rank loss), passed every half turn.
/// nfourbar(n) = lattice(n, 1) (the IFToMM N-four-bar); grid2d(k) = lattice(k, k).
/// The first body added is v0_1, so mechanism.bodies()[0] carries probe B0 at X = (l/2, 0).
void generate_bar_lattice(Index columns, Index rows, double top_speed, const BarProperties& bars, DescriptionSink& sink);
ModelDescription bar_lattice_description(Index columns, Index rows, double top_speed = 1.0, const BarProperties& bars = {});
Mechanism make_bar_lattice(Index columns, Index rows, double top_speed = 1.0, const BarProperties& bars = {});

/// Bars of make_bar_lattice(columns, rows): per row columns + 1 verticals and columns couplers.
inline double bar_lattice_size(double columns, double rows) { return rows * (2.0 * columns + 1.0); }

}  // namespace noether

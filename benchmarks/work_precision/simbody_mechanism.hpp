#pragma once
/// The scaling mechanisms of apps/mechanisms/generators.hpp rebuilt in Simbody, with the same bars
/// (mass, length, inertia about the centre), joints, gravity, initial state and probe, and their
/// timed integration by Simbody's integrators. Compiled as C++17 (Simbody 3.7's headers do not
/// compile as C++20), so this header names no Simbody or Noether type.
#include <memory>
#include <string_view>

#include <Eigen/Core>

#include "integration_run.hpp"

namespace noether::work_precision {

enum class MechanismKind { chain2d, chain3d, nfourbar };

/// The mechanism and its parameters, as the Noether scenario has them.
struct MechanismSpec {
  MechanismKind kind = MechanismKind::chain2d;
  long n = 1;  ///< bars of a chain; cells of nfourbar (n + 1 cranks, n couplers)
  double mass = 1.0, length = 1.0, gravity = 9.81;  ///< of every bar (BarProperties)
  double tip_speed = 0.1;  ///< chain3d: initial speed of the free tip in +y
  double top_speed = 1.0;  ///< nfourbar: initial speed of the cranks' tops in +x
};

/// The integrators of Simbody compared: "rk-merson" (RungeKuttaMersonIntegrator, explicit, order
/// 4 with a 5th-order error estimate), "cpodes" (CPodesIntegrator as Simbody makes it by default:
/// BDF with Newton iteration) and "cpodes-adams" (CPODES' Adams method with functional iteration,
/// its choice for non-stiff problems without constraints).
inline constexpr std::string_view kSimbodyIntegrators[] = {"rk-merson", "cpodes", "cpodes-adams"};

/// One mechanism as a Simbody system in joint coordinates:
/// - chain2d: n Pin mobilizers (hinges about z) in a chain, bars along +x at rest, gravity -y;
/// - chain3d: n Ball mobilizers (quaternions), bars of square section l/20 along +x, the whole
///   chain turning about the vertical z through the pivot with its tip at tip_speed in +y, gravity -z;
/// - nfourbar: the n + 1 cranks on Pins to the ground, coupler i on a Pin at the top of crank i,
///   closed by a Constraint::PointOnLine that holds its right end on the hinge line (along z) at
///   the top of crank i + 1: the planar revolute joint's two equations. Cranks upright turning at
///   -top_speed/l, couplers level and translating at top_speed in +x, gravity -y.
/// A bar's inertia about its centre is the generator's: thin rods in the plane (m l^2/12 about z
/// and y, none about the axis); the 3D bar's principal moments of its square section.
/// The topology is realized on construction (model building, outside any timing).
class SimbodyMechanism {
 public:
  explicit SimbodyMechanism(const MechanismSpec& spec);
  ~SimbodyMechanism();
  SimbodyMechanism(const SimbodyMechanism&) = delete;
  SimbodyMechanism& operator=(const SimbodyMechanism&) = delete;

  /// Constructs `integrator` (one of kSimbodyIntegrators) on the system with setAccuracy(accuracy)
  /// (the constraint tolerance follows it, Simbody's default) and final time t_end, initializes it
  /// with the release state and steps to t_end, stopping at t_end k/samples, k = 1 .. samples
  /// (interpolated and projected there, Simbody's defaults; the state at t_end is a step's). Timed:
  /// constructing and initializing the integrator and the stepping; not timed: building the
  /// system and realizing its topology, reading the probe. A run over `time_limit` seconds (as
  /// `measure` counts them) is abandoned. The probe: chains, the free end of the last bar; nfourbar, B0, the top of the
  /// first crank; world coordinates, z = 0 for the planar mechanisms.
  IntegrationRun run(std::string_view integrator, double accuracy, double t_end, int samples, double time_limit,
                     TimeMeasure measure) const;

 private:
  struct Model;
  std::unique_ptr<Model> model_;
};

}  // namespace noether::work_precision

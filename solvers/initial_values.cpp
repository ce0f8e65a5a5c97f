#include <noether/solvers/initial_values.hpp>

#include <cmath>
#include <limits>
#include <tuple>
#include <string>

#include <noether/engine/format.hpp>
#include <noether/engine/measures.hpp>

namespace noether {
namespace {

constexpr double kRelative = 1e-10, kAbsolute = 1e-14;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// Row residuals r (m) and their tolerances t (m).
struct Rows {
  Vector residual, tolerance;
};

/// The position rows g(q, t) and the velocity rows G(q, t) v + g_t(q, t) of every constraint.
struct ConstraintRows {
  Rows positions, velocities;
};

/// The position rows at q and, given v, the velocity rows at time t (without v, velocities is
/// empty), in one walk over the constraints: each Jacobian is evaluated once for both, the dearest
/// part of checking an initial state.
ConstraintRows rows_of(const System& system, ConstVectorRef q, const ConstVectorRef* v, double t) {
  const Index m = system.num_multipliers();
  ConstraintRows rows{{Vector(m), Vector(m)}, v ? Rows{Vector(m), Vector(m)} : Rows{}};
  Vector q_local, v_local, g, rate;
  Matrix G, magnitude;  // reused: most constraints of a model have one size
  for (const Placed<Constraint>& placed : system.constraints()) {
    const Constraint& c = *placed.element;
    const Index k = c.num_equations(), n = c.local_size(), first = placed.first_multiplier;
    gather(q, placed.dofs, q_local);
    G.setZero(k, n);
    c.calc_jacobian_at(t, q_local, G);
    magnitude = G.cwiseAbs();
    g.resize(k);
    c.calc_value_at(t, q_local, g);
    rows.positions.residual.segment(first, k) = g;
    rows.positions.tolerance.segment(first, k) =
        kRelative * (magnitude * q_local.cwiseAbs()) + kAbsolute * magnitude.rowwise().sum();
    if (!v) continue;
    gather(*v, placed.dofs, v_local);
    rows.velocities.residual.segment(first, k) = G * v_local;
    rows.velocities.tolerance.segment(first, k) =
        kRelative * (magnitude * v_local.cwiseAbs()) + kAbsolute * magnitude.rowwise().sum();
    if (c.rheonomic()) {
      rate.resize(k);
      c.calc_rate(t, q_local, rate);
      rows.velocities.residual.segment(first, k) += rate;
      rows.velocities.tolerance.segment(first, k) += kRelative * rate.cwiseAbs();
    }
  }
  return rows;
}

ConstraintViolation worst_of(const Rows& rows) {
  ConstraintViolation worst;
  double worst_ratio = 1.0;
  for (Index i = 0; i < rows.residual.size(); ++i) {
    const double r = std::abs(rows.residual(i)), t = rows.tolerance(i);
    worst.largest = std::max(worst.largest, r);
    const double ratio = t > 0.0 ? r / t : (r > 0.0 ? kInfinity : 0.0);
    if (ratio > worst_ratio || std::isnan(r)) {
      worst_ratio = std::isnan(r) ? kInfinity : ratio;
      worst = {i, r, t, worst.largest};
    }
  }
  return worst;
}

/// The largest |after - before| and where (-1 when nothing moved).
std::pair<double, Index> largest_change(const Vector& before, const Vector& after) {
  Index at = -1;
  double largest = 0.0;
  for (Index i = 0; i < before.size(); ++i)
    if (std::abs(after(i) - before(i)) > largest) {
      largest = std::abs(after(i) - before(i));
      at = i;
    }
  return {largest, at};
}

std::string violation_text(const System& system, const ConstraintViolation& v, const char* symbol) {
  return system.multiplier_label(v.row) + " has " + symbol + " = " + format_number(v.residual) +
         " (round-off allows " + format_number(v.tolerance) + ")";
}

/// Throws ProjectionError unless q, projected from `start`, meets the rule at q itself: the projection
/// stops at a hundredth of the tolerances at `start`, which are 1e-10 of its coordinates; from
/// coordinates of an absurd size (a position 1e308) that is no bound at q, and the stepper would
/// refuse q.
void require_projection_met(const System& system, const Vector& start, ConstVectorRef q, double t) {
  const ConstraintViolation after = worst_of(rows_of(system, q, nullptr, t).positions);
  if (after.row < 0) return;
  Index largest = 0;
  start.cwiseAbs().maxCoeff(&largest);
  throw ProjectionError("the position projection from the initial " + system.coordinate_label(largest) + " = " +
                        format_number(start(largest)) + " cannot meet them within round-off: after it, " +
                        violation_text(system, after, "|g|") + "; the projection's round-off at that size (1e-10 "
                        "of the coordinates) exceeds the constraints' scale: give initial positions of moderate "
                        "size near the constraints");
}

}  // namespace

ConstraintViolation position_violation(const System& system, ConstVectorRef q, double t) {
  return worst_of(rows_of(system, q, nullptr, t).positions);
}

ConstraintViolation velocity_violation(const System& system, ConstVectorRef q, ConstVectorRef v, double t) {
  return worst_of(rows_of(system, q, &v, t).velocities);
}

void require_consistent_initial_values(const System& system, const State& state, std::string_view who) {
  const auto hint = [](const ConstraintViolation& v) -> std::string {
    if (!std::isfinite(v.residual))  // q and v are finite (check_initial_state): the functions are at fault
      return "; a residual that is not finite at finite initial values is a fault of the constraint's functions (or "
             "of values of an absurd size), which no projection mends";
    return "; project them first with project_initial_state (<noether/solvers/initial_values.hpp>), as noether run does";
  };
  const ConstVectorRef v_state = state.v;
  const ConstraintRows rows = rows_of(system, state.q, &v_state, state.t);
  const ConstraintViolation p = worst_of(rows.positions);
  if (p.row >= 0)
    throw InconsistentInitialValues(std::string(who) + ": the initial positions are off the constraints: " +
                                    violation_text(system, p, "|g|") + hint(p));
  const ConstraintViolation v = worst_of(rows.velocities);
  if (v.row >= 0)
    throw InconsistentInitialValues(std::string(who) + ": the initial velocities are off the constraints: " +
                                    violation_text(system, v, "|G v|") + hint(v));
}

InitialProjection project_initial_state(const System& system, State& state, ProjectionOptions options) {
  InitialProjection report;
  options.time = state.t;
  const ConstVectorRef v_state = state.v;
  ConstraintRows rows = rows_of(system, state.q, &v_state, state.t);
  report.positions = worst_of(rows.positions);
  if (report.positions.row >= 0) {
    const Vector before = state.q;
    options.row_tolerances = 0.01 * rows.positions.tolerance;
    ConstraintProjector(system, options).project_positions(state.q);
    std::tie(report.position_correction, report.position_coordinate) = largest_change(before, state.q);
    require_projection_met(system, before, state.q, state.t);
    rows = rows_of(system, state.q, &v_state, state.t);  // the velocities' rows at the projected q
  }
  report.velocities = worst_of(rows.velocities);
  if (report.velocities.row >= 0) {
    const Vector before = state.v;
    options.row_tolerances = 0.01 * rows.velocities.tolerance;
    ConstraintProjector(system, options).project_velocities(state.q, state.v);
    std::tie(report.velocity_correction, report.velocity_coordinate) = largest_change(before, state.v);
  }
  return report;
}

std::string describe(const System& system, const InitialProjection& p) {
  std::string text;
  const auto part = [&](const char* what, const ConstraintViolation& v, double correction, Index at, const char* d) {
    if (v.row < 0) return;
    text += (text.empty() ? "the initial " : "; the initial ") + std::string(what) + " violated " +
            system.multiplier_label(v.row) + " by " + format_number(v.residual) +
            " (max over the constraints " + format_number(v.largest) + "); projected onto the constraints, max |" + d +
            "| = " + format_number(correction) + (at >= 0 ? " at " + system.coordinate_label(at) : "");
  };
  part("positions", p.positions, p.position_correction, p.position_coordinate, "dq");
  part(p.positions.row >= 0 ? "velocities (at the projected positions)" : "velocities", p.velocities, p.velocity_correction,
       p.velocity_coordinate, "dv");
  return text;
}

}  // namespace noether

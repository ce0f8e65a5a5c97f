#include <noether/apps/mechanisms/generators.hpp>

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include <noether/joints/gravity.hpp>
#include <noether/joints/revolute.hpp>
#include <noether/joints/revolute_planar.hpp>
#include <noether/joints/spherical.hpp>

namespace noether {
namespace {

void require_count(const char* what, Index n) {
  if (n < 1) throw std::invalid_argument(std::string(what) + " must be at least 1, got " + std::to_string(n));
}

PlanarBodyProperties planar_bar(const BarProperties& bar) {
  return {bar.mass, Eigen::Vector2d::Zero(), bar.mass * bar.length * bar.length / 12.0};
}

/// A bar of square section side b = l/20 along its d1 axis.
RigidBodyProperties spatial_bar(const BarProperties& bar) {
  const double l = bar.length, b = l / 20.0, m = bar.mass;
  const Eigen::Vector3d principal(m * 2.0 * b * b / 12.0, m * (l * l + b * b) / 12.0, m * (l * l + b * b) / 12.0);
  return {m, Eigen::Vector3d::Zero(), principal.asDiagonal()};
}

Vector planar_point(double x, double y) { return Vector(Eigen::Vector2d(x, y)); }
Vector spatial_point(double x, double y, double z) { return Vector(Eigen::Vector3d(x, y, z)); }

void add_planar_gravity(Mechanism& m, const BodyRef& body, const BarProperties& bar) {
  m.add(std::make_shared<Gravity>(body.name + ".gravity", body, bar.mass, planar_point(0, 0), planar_point(0, -bar.gravity)));
}

void add_spatial_gravity(Mechanism& m, const BodyRef& body, const BarProperties& bar) {
  m.add(std::make_shared<Gravity>(body.name + ".gravity", body, bar.mass, spatial_point(0, 0, 0),
                                  spatial_point(0, 0, -bar.gravity)));
}

}  // namespace

Mechanism make_chain2d(Index n, const BarProperties& bars) {
  require_count("chain2d: the number of bars n", n);
  Mechanism m;
  const double l = bars.length;
  const Vector left = planar_point(-l / 2, 0), right = planar_point(l / 2, 0);
  std::optional<BodyRef> previous;
  for (Index i = 0; i < n; ++i) {
    const BodyRef bar = m.add_planar_body("bar" + std::to_string(i), planar_bar(bars), {(i + 0.5) * l, 0.0, 0.0});
    add_planar_gravity(m, bar, bars);
    if (i == 0) m.add(make_revolute_planar_to_ground("pivot", planar_point(0, 0), bar, left));
    else m.add(make_revolute_planar("joint" + std::to_string(i), *previous, right, bar, left));
    previous = bar;
  }
  return m;
}

Mechanism make_chain3d(Index n, ChainJoint joint, double tip_speed, const BarProperties& bars) {
  require_count("chain3d: the number of bars n", n);
  Mechanism m;
  const double l = bars.length;
  const Vector left = spatial_point(-l / 2, 0, 0), right = spatial_point(l / 2, 0, 0);
  const Eigen::Vector3d y_axis = Eigen::Vector3d::UnitY(), z_axis = Eigen::Vector3d::UnitZ();
  const double spin_radius = static_cast<double>(joint == ChainJoint::spherical ? n : n - 1) * l;
  const double spin = spin_radius > 0 ? tip_speed / spin_radius : 0.0;
  std::optional<BodyRef> previous;
  for (Index i = 0; i < n; ++i) {
    const Eigen::Vector3d centre((i + 0.5) * l, 0, 0);
    // spherical: rigid rotation about the vertical through the pivot; revolute: about the first z hinge (x = l).
    const Eigen::Vector3d spin_point = joint == ChainJoint::spherical ? Eigen::Vector3d::Zero() : Eigen::Vector3d(l, 0, 0);
    const bool spinning = joint == ChainJoint::spherical || i >= 1;
    const Eigen::Vector3d omega = spinning ? Eigen::Vector3d(spin * z_axis) : Eigen::Vector3d::Zero();
    const Twist3d twist{omega.cross(centre - spin_point), omega};
    const BodyRef bar = m.add_rigid_body("bar" + std::to_string(i), spatial_bar(bars), {centre, Eigen::Matrix3d::Identity()}, twist);
    add_spatial_gravity(m, bar, bars);
    const std::string name = i == 0 ? "pivot" : "joint" + std::to_string(i);
    const Vector axis = (i % 2 == 0) ? Vector(y_axis) : Vector(z_axis);
    if (joint == ChainJoint::spherical) {
      if (i == 0) m.add(make_spherical_to_ground(name, spatial_point(0, 0, 0), bar, left));
      else m.add(make_spherical(name, *previous, right, bar, left));
    } else {
      if (i == 0) m.add(make_revolute_to_ground(name, spatial_point(0, 0, 0), axis, bar, left, axis));
      else m.add(make_revolute(name, *previous, right, axis, bar, left, axis));
    }
    previous = bar;
  }
  return m;
}

Mechanism make_bar_lattice(Index columns, Index rows, double top_speed, const BarProperties& bars) {
  require_count("lattice: the number of columns", columns);
  require_count("lattice: the number of rows", rows);
  Mechanism m;
  const double l = bars.length, omega = -top_speed / l;
  const Vector bottom = planar_point(-l / 2, 0), top = planar_point(l / 2, 0);
  std::vector<BodyRef> below;  // the verticals of the row underneath (empty for row 1: the ground)
  for (Index j = 1; j <= rows; ++j) {
    std::vector<BodyRef> verticals;
    for (Index i = 0; i <= columns; ++i) {
      const std::string id = std::to_string(i) + "_" + std::to_string(j);
      const double vx = (j - 0.5) * top_speed;  // centre of a vertical in the shear motion
      const BodyRef bar = m.add_planar_body("v" + id, planar_bar(bars), {i * l, (j - 0.5) * l, M_PI / 2}, {vx, 0.0, omega});
      add_planar_gravity(m, bar, bars);
      if (j == 1) m.add(make_revolute_planar_to_ground("ground" + id, planar_point(i * l, 0), bar, bottom));
      else m.add(make_revolute_planar("stack" + id, below[static_cast<std::size_t>(i)], top, bar, bottom));
      verticals.push_back(bar);
    }
    for (Index i = 0; i < columns; ++i) {
      const std::string id = std::to_string(i) + "_" + std::to_string(j);
      const BodyRef bar = m.add_planar_body("h" + id, planar_bar(bars), {(i + 0.5) * l, j * l, 0.0}, {j * top_speed, 0.0, 0.0});
      add_planar_gravity(m, bar, bars);
      m.add(make_revolute_planar("left" + id, verticals[static_cast<std::size_t>(i)], top, bar, bottom));
      m.add(make_revolute_planar("right" + id, verticals[static_cast<std::size_t>(i) + 1], top, bar, top));
    }
    below = std::move(verticals);
  }
  return m;
}

}  // namespace noether

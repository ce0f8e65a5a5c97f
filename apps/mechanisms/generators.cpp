#include <noether/apps/mechanisms/generators.hpp>

#include <cmath>
#include <stdexcept>
#include <string>

#include <noether/apps/model/description_sink.hpp>
#include <noether/apps/model/model_builder.hpp>

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

/// A joint of `kind` between body a (empty: the ground) and body b at the given points and axes.
JointDescription joint(std::string name, const JointKind* kind, std::string a, Vector point_a, std::string b, Vector point_b,
                       Vector axis_a = {}, Vector axis_b = {}) {
  return {std::move(name), kind, {std::move(a), std::move(point_a), std::move(axis_a), {}},
          {std::move(b), std::move(point_b), std::move(axis_b), {}}};
}

/// "<prefix><i>_<j>", the name of a lattice bar (built by appending: GCC 12 warns falsely on
/// "literal" + std::string chains, -Wrestrict).
std::string lattice_name(const char* prefix, Index i, Index j) {
  std::string name(prefix);
  name.append(std::to_string(i)).append("_").append(std::to_string(j));
  return name;
}

/// Gravity along -y (planar) or -z (3D) on every bar.
GravityDescription gravity(Index dimension, const BarProperties& bars) {
  return {{}, dimension == 2 ? planar_point(0, -bars.gravity) : spatial_point(0, 0, -bars.gravity)};
}

}  // namespace

void generate_chain2d(Index n, const BarProperties& bars, DescriptionSink& sink) {
  require_count("chain2d: the number of bars n", n);
  const double l = bars.length;
  const Vector left = planar_point(-l / 2, 0), right = planar_point(l / 2, 0);
  for (Index i = 0; i < n; ++i) {
    const std::string name = "bar" + std::to_string(i);
    sink.body(PlanarBodyDescription{name, planar_bar(bars), {(i + 0.5) * l, 0.0, 0.0}, {}});
    if (i == 0) sink.joint(joint("pivot", &joint_kinds::revolute_planar, "", planar_point(0, 0), name, left), {0});
    else
      sink.joint(joint("joint" + std::to_string(i), &joint_kinds::revolute_planar, "bar" + std::to_string(i - 1), right, name, left),
                 {i - 1, i});
  }
  sink.model_wide().forces.push_back(gravity(2, bars));
}

void generate_chain3d(Index n, ChainJoint joint_kind, double tip_speed, const BarProperties& bars, DescriptionSink& sink) {
  require_count("chain3d: the number of bars n", n);
  const double l = bars.length;
  const Vector left = spatial_point(-l / 2, 0, 0), right = spatial_point(l / 2, 0, 0);
  const Eigen::Vector3d y_axis = Eigen::Vector3d::UnitY(), z_axis = Eigen::Vector3d::UnitZ();
  const bool spherical = joint_kind == ChainJoint::spherical;
  const double spin_radius = static_cast<double>(spherical ? n : n - 1) * l;
  const double spin = spin_radius > 0 ? tip_speed / spin_radius : 0.0;
  for (Index i = 0; i < n; ++i) {
    const Eigen::Vector3d centre((i + 0.5) * l, 0, 0);
    // spherical: rigid rotation about the vertical through the pivot; revolute: about the first z hinge (x = l).
    const Eigen::Vector3d spin_point = spherical ? Eigen::Vector3d::Zero() : Eigen::Vector3d(l, 0, 0);
    const bool spinning = spherical || i >= 1;
    const Eigen::Vector3d omega = spinning ? Eigen::Vector3d(spin * z_axis) : Eigen::Vector3d::Zero();
    const std::string name = "bar" + std::to_string(i), previous = i == 0 ? "" : "bar" + std::to_string(i - 1);
    sink.body(RigidBodyDescription{name, spatial_bar(bars), {centre, Eigen::Matrix3d::Identity()},
                                   {omega.cross(centre - spin_point), omega}});
    const std::string joint_name = i == 0 ? "pivot" : "joint" + std::to_string(i);
    const Vector point_a = i == 0 ? spatial_point(0, 0, 0) : right;
    const Vector axis = (i % 2 == 0) ? Vector(y_axis) : Vector(z_axis);
    JointDescription j = spherical ? joint(joint_name, &joint_kinds::spherical, previous, point_a, name, left)
                                   : joint(joint_name, &joint_kinds::revolute, previous, point_a, name, left, axis, axis);
    if (i == 0) sink.joint(std::move(j), {0});
    else sink.joint(std::move(j), {i - 1, i});
  }
  sink.model_wide().forces.push_back(gravity(3, bars));
}

void generate_bar_lattice(Index columns, Index rows, double top_speed, const BarProperties& bars, DescriptionSink& sink) {
  require_count("lattice: the number of columns", columns);
  require_count("lattice: the number of rows", rows);
  const double l = bars.length, omega = -top_speed / l;
  const Vector bottom = planar_point(-l / 2, 0), top = planar_point(l / 2, 0);
  const Index per_row = 2 * columns + 1;  // verticals v0..v<columns>, then couplers h0..h<columns-1>
  const auto vertical = [&](Index i, Index j) { return (j - 1) * per_row + i; };
  for (Index j = 1; j <= rows; ++j) {
    for (Index i = 0; i <= columns; ++i) {
      const std::string name = lattice_name("v", i, j);
      const double vx = (j - 0.5) * top_speed;  // centre of a vertical in the shear motion
      sink.body(PlanarBodyDescription{name, planar_bar(bars), {i * l, (j - 0.5) * l, M_PI / 2}, {vx, 0.0, omega}});
      if (j == 1)
        sink.joint(joint(lattice_name("ground", i, j), &joint_kinds::revolute_planar, "", planar_point(i * l, 0), name, bottom),
                   {vertical(i, j)});
      else
        sink.joint(joint(lattice_name("stack", i, j), &joint_kinds::revolute_planar, lattice_name("v", i, j - 1), top, name, bottom),
                   {vertical(i, j - 1), vertical(i, j)});
    }
    for (Index i = 0; i < columns; ++i) {
      const std::string name = lattice_name("h", i, j);
      const Index coupler = vertical(columns, j) + 1 + i;
      sink.body(PlanarBodyDescription{name, planar_bar(bars), {(i + 0.5) * l, j * l, 0.0}, {j * top_speed, 0.0, 0.0}});
      sink.joint(joint(lattice_name("left", i, j), &joint_kinds::revolute_planar, lattice_name("v", i, j), top, name, bottom),
                 {vertical(i, j), coupler});
      sink.joint(joint(lattice_name("right", i, j), &joint_kinds::revolute_planar, lattice_name("v", i + 1, j), top, name, top),
                 {vertical(i + 1, j), coupler});
    }
  }
  sink.model_wide().forces.push_back(gravity(2, bars));
}

ModelDescription chain2d_description(Index n, const BarProperties& bars) {
  return described([&](DescriptionSink& sink) { generate_chain2d(n, bars, sink); });
}

ModelDescription chain3d_description(Index n, ChainJoint joint, double tip_speed, const BarProperties& bars) {
  return described([&](DescriptionSink& sink) { generate_chain3d(n, joint, tip_speed, bars, sink); });
}

ModelDescription bar_lattice_description(Index columns, Index rows, double top_speed, const BarProperties& bars) {
  return described([&](DescriptionSink& sink) { generate_bar_lattice(columns, rows, top_speed, bars, sink); });
}

Mechanism make_chain2d(Index n, const BarProperties& bars) { return build_mechanism(chain2d_description(n, bars)); }

Mechanism make_chain3d(Index n, ChainJoint joint, double tip_speed, const BarProperties& bars) {
  return build_mechanism(chain3d_description(n, joint, tip_speed, bars));
}

Mechanism make_bar_lattice(Index columns, Index rows, double top_speed, const BarProperties& bars) {
  return build_mechanism(bar_lattice_description(columns, rows, top_speed, bars));
}

}  // namespace noether

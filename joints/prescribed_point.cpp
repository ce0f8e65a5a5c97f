#include <noether/joints/prescribed_point.hpp>

#include <stdexcept>

#include <noether/joints/driven_joint.hpp>

namespace noether {

std::shared_ptr<Constraint> make_prescribed_point(const std::string& name, const BodyRef& b, const Vector& X_b,
                                                  std::vector<TimeProfile> trajectory) {
  const Index dim = b.kinematics.dimension();
  const JointFamily family{"prescribed point", dim, false};
  const JointBodies bodies(name, family, b);
  if (static_cast<Index>(trajectory.size()) != dim)
    throw std::invalid_argument(bodies.label() + ": needs one profile per component (" + std::to_string(dim) +
                                "), got " + std::to_string(trajectory.size()));
  std::vector<QuadraticEquation> components = component_equations(bodies.point_b(X_b));
  const Index n = bodies.size();
  std::vector<std::vector<DrivenTerm>> rows;
  const char* axis_names = "xyz";
  for (Index k = 0; k < dim; ++k) {
    TimeProfile& r = trajectory[static_cast<std::size_t>(k)];
    check_time_profile(r, bodies.label() + ": the profile of component " + axis_names[k]);
    TimeCoefficient minus_r = [r = std::move(r)](double t) { return ValueRate{-evaluate(r, t), -evaluate_rate(r, t)}; };
    rows.push_back({{std::move(components[static_cast<std::size_t>(k)]), {}},
                    {QuadraticEquation{1.0, Vector::Zero(n), Matrix::Zero(n, n)}, std::move(minus_r)}});
  }
  return std::make_shared<DrivenJoint>(name, bodies.blocks(), n, std::move(rows), bodies.reaction_site(X_b));
}

}  // namespace noether

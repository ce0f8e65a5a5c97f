/// The example of [Kosmas2020, Sec. IV]: the planar double pendulum in Cartesian coordinates
/// (masses and lengths 1, released horizontal), 100 steps of h = 0.1, 0.01, 0.001; the maximum
/// energy error max_n |H_n - H_0| and constraint error max_n max|g(q_n)| of evi with S = 1 and 3
/// (omega = 0, and omega = 3, about sqrt(g/l)), beside the classical 4-stage Runge-Kutta method
/// [HairerLubichWanner2006, Sec. II.1] on the index-1 form of the equations: each stage solves
///
///   [M  G^T] [a     ]   [-DV(q)               ]
///   [G  0  ] [lambda] = [-(v^T D^2 g_k v)_k    ]     (G a + dG/dt v = 0, the second derivative of g),
///
/// with no projection, so g drifts at the method's truncation error. Everything the RK method
/// evaluates comes from the elements (M, DV, G, D^2 g), as the steppers take it.
///
///   example_evi_double_pendulum > docs/evi/double_pendulum.csv     (scripts/evi_example.sh plots it)
#include <cstdio>
#include <string>

#include <Eigen/Dense>

#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/measures.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

/// The accelerations of the index-1 equations at (q, v) (d), for a constant M.
Vector acceleration(const System& system, const Matrix& mass, const Vector& q, const Vector& v) {
  const Index d = system.num_coordinates(), m = system.num_multipliers();
  Matrix kkt = Matrix::Zero(d + m, d + m);
  Vector rhs = Vector::Zero(d + m);
  kkt.topLeftCorner(d, d) = mass;
  for (const Placed<Potential>& e : system.potentials()) {
    Vector q_local(static_cast<Index>(e.dofs.size())), gradient = Vector::Zero(q_local.size());
    for (std::size_t i = 0; i < e.dofs.size(); ++i) q_local(static_cast<Index>(i)) = q(e.dofs[i]);
    e.element->add_gradient(q_local, -1.0, gradient);
    for (std::size_t i = 0; i < e.dofs.size(); ++i) rhs(e.dofs[i]) += gradient(static_cast<Index>(i));
  }
  Index row = d;
  for (const Placed<Constraint>& e : system.constraints()) {
    const Index n = static_cast<Index>(e.dofs.size()), rows = e.element->num_equations();
    Vector q_local(n), v_local(n);
    for (Index i = 0; i < n; ++i) {
      q_local(i) = q(e.dofs[static_cast<std::size_t>(i)]);
      v_local(i) = v(e.dofs[static_cast<std::size_t>(i)]);
    }
    Matrix G(rows, n);
    e.element->calc_jacobian(q_local, G);
    for (Index k = 0; k < rows; ++k) {
      Matrix hessian = Matrix::Zero(n, n);
      e.element->add_hessian_contraction(q_local, Vector::Unit(rows, k), 1.0, hessian);
      rhs(row + k) = -v_local.dot(hessian * v_local);
      for (Index i = 0; i < n; ++i) {
        kkt(row + k, e.dofs[static_cast<std::size_t>(i)]) += G(k, i);
        kkt(e.dofs[static_cast<std::size_t>(i)], row + k) += G(k, i);
      }
    }
    row += rows;
  }
  return kkt.partialPivLu().solve(rhs).head(d);
}

struct Errors {
  double energy = 0.0, constraint = 0.0;
};

/// max |H - H0| and max|g| over 100 steps of the classical Runge-Kutta method.
Errors runge_kutta(const Model& model, double h) {
  const System& system = *model.system;
  Matrix mass = Matrix::Zero(system.num_coordinates(), system.num_coordinates());
  for (const Placed<Inertia>& e : system.inertias()) {
    const auto n = static_cast<Index>(e.dofs.size());
    Matrix local = Matrix::Zero(n, n);
    e.element->constant_mass()->add_to(1.0, local);
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j)
        mass(e.dofs[static_cast<std::size_t>(i)], e.dofs[static_cast<std::size_t>(j)]) += local(i, j);
  }
  const auto energy = [&](const Vector& q, const Vector& v) {
    return 0.5 * v.dot(mass * v) + potential_energy(system, q);
  };
  Vector q = model.initial.q, v = model.initial.v, g(system.num_multipliers());
  const double energy0 = energy(q, v);
  Errors errors;
  for (int n = 0; n < 100; ++n) {
    const Vector a1 = acceleration(system, mass, q, v), v1 = v;
    const Vector v2 = v + 0.5 * h * a1, a2 = acceleration(system, mass, q + 0.5 * h * v1, v2);
    const Vector v3 = v + 0.5 * h * a2, a3 = acceleration(system, mass, q + 0.5 * h * v2, v3);
    const Vector v4 = v + h * a3, a4 = acceleration(system, mass, q + h * v3, v4);
    q += h / 6 * (v1 + 2 * v2 + 2 * v3 + v4);
    v += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
    calc_constraint_values(system, q, g);
    errors.energy = std::max(errors.energy, std::abs(energy(q, v) - energy0));
    errors.constraint = std::max(errors.constraint, max_abs(g));
  }
  return errors;
}

/// The same for evi with S points and frequency omega.
Errors exponential(const Model& model, double h, double points, double omega) {
  StepperOptions options;
  options.scheme_parameters = {{"S", points}, {"omega", omega}};
  const std::unique_ptr<Stepper> stepper = find_stepper("evi").make(*model.system, options);
  State state = model.initial;
  stepper->initialize(state);
  const double energy0 = stepper->conserved_energy(state);
  Vector g(model.system->num_multipliers());
  Errors errors;
  for (int n = 0; n < 100; ++n) {
    stepper->step(state, h);
    calc_constraint_values(*model.system, state.q, g);
    errors.energy = std::max(errors.energy, std::abs(stepper->conserved_energy(state) - energy0));
    errors.constraint = std::max(errors.constraint, max_abs(g));
  }
  return errors;
}

}  // namespace

int main() {
  const Scenario& scenario = find_scenario("double-pendulum");
  const Model model = scenario.build(resolve_parameters(scenario, {}));
  std::printf("h,method,max_energy_error,max_constraint_error\n");
  for (double h : {0.1, 0.01, 0.001}) {
    const Errors rk = runge_kutta(model, h);
    std::printf("%g,RK4 (index 1),%.3e,%.3e\n", h, rk.energy, rk.constraint);
    for (double omega : {0.0, 3.0})
      for (double points : {1.0, 3.0}) {
        const Errors e = exponential(model, h, points, omega);
        std::printf("%g,evi S=%g omega=%g,%.3e,%.3e\n", h, points, omega, e.energy, e.constraint);
      }
  }
}

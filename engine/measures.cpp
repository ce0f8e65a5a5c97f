#include "engine/measures.hpp"

namespace noether {

double kinetic_energy(const System& system, ConstVectorRef q, ConstVectorRef v) {
  double sum = 0.0;
  Vector q_local, v_local;
  for (const Placed<Inertia>& e : system.inertias()) {
    gather(q, e.dofs, q_local);
    gather(v, e.dofs, v_local);
    sum += e.element->kinetic_energy(q_local, v_local);
  }
  return sum;
}

double potential_energy(const System& system, ConstVectorRef q) {
  double sum = 0.0;
  Vector q_local;
  for (const Placed<Potential>& e : system.potentials()) {
    gather(q, e.dofs, q_local);
    sum += e.element->energy(q_local);
  }
  return sum;
}

void calc_constraint_values(const System& system, ConstVectorRef q, VectorRef g) {
  Vector q_local;
  for (const Placed<Constraint>& e : system.constraints()) {
    gather(q, e.dofs, q_local);
    e.element->calc_value(q_local, g.segment(e.first_multiplier, e.element->num_equations()));
  }
}

void calc_velocity_constraint_values(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef gv) {
  Vector q_local, v_local;
  Matrix G;
  for (const Placed<Constraint>& e : system.constraints()) {
    gather(q, e.dofs, q_local);
    gather(v, e.dofs, v_local);
    G.resize(e.element->num_equations(), q_local.size());
    e.element->calc_jacobian(q_local, G);
    gv.segment(e.first_multiplier, e.element->num_equations()) = G * v_local;
  }
}

void calc_momentum(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef p) {
  p.setZero();
  Vector q_local, v_local;
  Matrix M;
  for (const Placed<Inertia>& e : system.inertias()) {
    gather(q, e.dofs, q_local);
    gather(v, e.dofs, v_local);
    M.setZero(q_local.size(), q_local.size());
    e.element->add_mass_matrix(q_local, 1.0, M);
    const Vector p_local = M * v_local;
    for (std::size_t i = 0; i < e.dofs.size(); ++i) p(e.dofs[i]) += p_local(static_cast<Index>(i));
  }
}

double max_abs(ConstVectorRef x) { return x.size() == 0 ? 0.0 : x.cwiseAbs().maxCoeff<Eigen::PropagateNaN>(); }

}  // namespace noether

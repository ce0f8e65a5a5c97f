#include <noether/engine/measures.hpp>

#include <algorithm>
#include <span>
#include <stdexcept>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// Elements per block of the parallel loops below. Fixed, so that the blocks, and the order in
/// which a sum adds their partial sums, do not depend on the number of threads.
constexpr std::size_t kElementsPerBlock = 256;

/// One task's buffers for an element's local coordinates, velocities and Jacobian. They grow to
/// the largest element seen and are then reused, so elements of different sizes cost no allocation.
struct LocalScratch {
  Vector q, v;
  Matrix jacobian;
};

/// x[dofs], written to the head of buffer (grown when shorter than dofs).
Eigen::Map<const Vector> gather_into(ConstVectorRef x, std::span<const Index> dofs, Vector& buffer) {
  const auto size = static_cast<Index>(dofs.size());
  if (buffer.size() < size) buffer.resize(size);
  for (Index i = 0; i < size; ++i) buffer(i) = x(dofs[static_cast<std::size_t>(i)]);
  return {buffer.data(), size};
}

/// The rows x cols top-left corner of buffer (grown when smaller), for an element to overwrite.
Eigen::Block<Matrix> corner_of(Matrix& buffer, Index rows, Index cols) {
  if (buffer.rows() < rows || buffer.cols() < cols)
    buffer.resize(std::max<Index>(rows, buffer.rows()), std::max<Index>(cols, buffer.cols()));
  return buffer.topLeftCorner(rows, cols);
}

/// Calls visit(i_begin, i_end, scratch) on the fixed blocks of [0, count), concurrently; scratch
/// is the calling task's own.
template <class Visit>
void for_each_block(std::size_t count, Visit&& visit) {
  const std::size_t blocks = (count + kElementsPerBlock - 1) / kElementsPerBlock;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks), [&](const tbb::blocked_range<std::size_t>& range) {
    LocalScratch scratch;
    for (std::size_t b = range.begin(); b != range.end(); ++b)
      visit(b * kElementsPerBlock, std::min(count, (b + 1) * kElementsPerBlock), scratch);
  });
}

/// Sum over elements of term(element, scratch) (a T, starting from T{}): each fixed block adds its
/// elements' terms in element order, then the block sums are added in block order. Bitwise the
/// same for any number of threads; for fewer than kElementsPerBlock elements, the plain sum in
/// element order.
template <class T, class ElementKind, class Term>
T sum_over(std::span<const Placed<ElementKind>> elements, Term&& term) {
  std::vector<T> block_sums((elements.size() + kElementsPerBlock - 1) / kElementsPerBlock, T{});
  for_each_block(elements.size(), [&](std::size_t begin, std::size_t end, LocalScratch& scratch) {
    T sum{};
    for (std::size_t i = begin; i < end; ++i) sum += term(elements[i], scratch);
    block_sums[begin / kElementsPerBlock] = sum;
  });
  T total{};
  for (const T& block_sum : block_sums) total += block_sum;
  return total;
}

}  // namespace

double kinetic_energy(const System& system, ConstVectorRef q, ConstVectorRef v) {
  return sum_over<double>(system.inertias(), [&](const Placed<Inertia>& e, LocalScratch& s) {
    return e.element->kinetic_energy(gather_into(q, e.dofs, s.q), gather_into(v, e.dofs, s.v));
  });
}

double potential_energy(const System& system, ConstVectorRef q) {
  return sum_over<double>(system.potentials(), [&](const Placed<Potential>& e, LocalScratch& s) {
    return e.element->energy(gather_into(q, e.dofs, s.q));
  });
}

void calc_constraint_values(const System& system, ConstVectorRef q, VectorRef g, double t) {
  const std::span<const Placed<Constraint>> constraints = system.constraints();
  for_each_block(constraints.size(), [&](std::size_t begin, std::size_t end, LocalScratch& s) {
    for (std::size_t i = begin; i < end; ++i) {
      const Placed<Constraint>& e = constraints[i];
      e.element->calc_value_at(t, gather_into(q, e.dofs, s.q),
                               g.segment(e.first_multiplier, e.element->num_equations()));
    }
  });
}

namespace {

/// G(q, t) v + g_t(q, t) of constraint e at its local coordinates q_local, into its rows of gv
/// (g_t for a rheonomic constraint only).
void calc_velocity_rows(const Placed<Constraint>& e, const Eigen::Map<const Vector>& q_local, ConstVectorRef v,
                        double t, LocalScratch& s, VectorRef gv) {
  const Index rows = e.element->num_equations();
  const auto cols = static_cast<Index>(e.dofs.size());
  Eigen::Block<Matrix> jacobian = corner_of(s.jacobian, rows, cols);
  e.element->calc_jacobian_at(t, q_local, jacobian);
  gv.segment(e.first_multiplier, rows).noalias() = jacobian * gather_into(v, e.dofs, s.v);
  if (e.element->rheonomic()) {
    Vector rate(rows);
    e.element->calc_rate(t, q_local, rate);
    gv.segment(e.first_multiplier, rows) += rate;
  }
}

}  // namespace

void calc_velocity_constraint_values(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef gv,
                                     double t) {
  const std::span<const Placed<Constraint>> constraints = system.constraints();
  for_each_block(constraints.size(), [&](std::size_t begin, std::size_t end, LocalScratch& s) {
    for (std::size_t i = begin; i < end; ++i)
      calc_velocity_rows(constraints[i], gather_into(q, constraints[i].dofs, s.q), v, t, s, gv);
  });
}

void calc_constraint_residuals(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef g, VectorRef gv,
                               double t) {
  const std::span<const Placed<Constraint>> constraints = system.constraints();
  for_each_block(constraints.size(), [&](std::size_t begin, std::size_t end, LocalScratch& s) {
    for (std::size_t i = begin; i < end; ++i) {
      const Placed<Constraint>& e = constraints[i];
      const Eigen::Map<const Vector> q_local = gather_into(q, e.dofs, s.q);
      e.element->calc_value_at(t, q_local, g.segment(e.first_multiplier, e.element->num_equations()));
      calc_velocity_rows(e, q_local, v, t, s, gv);
    }
  });
}

void calc_momentum(const System& system, ConstVectorRef q, ConstVectorRef v, VectorRef p) {
  p.setZero();
  Vector q_local, v_local, p_local;  // reused: no allocation per element once they fit the largest
  Matrix M;
  for (const Placed<Inertia>& e : system.inertias()) {
    gather(q, e.dofs, q_local);
    gather(v, e.dofs, v_local);
    M.setZero(q_local.size(), q_local.size());
    e.element->add_mass_matrix(q_local, 1.0, M);
    p_local.noalias() = M * v_local;
    for (std::size_t i = 0; i < e.dofs.size(); ++i) p(e.dofs[i]) += p_local(static_cast<Index>(i));
  }
}

const Inertia* inertia_without_momenta(const System& system) {
  for (const Placed<Inertia>& e : system.inertias())
    if (!e.element->rigid_motion_layout()) return e.element.get();
  return nullptr;
}

Momenta momenta(const System& system, ConstVectorRef q, ConstVectorRef v, const Eigen::Vector3d& about) {
  if (const Inertia* inertia = inertia_without_momenta(system))
    throw std::invalid_argument("the momenta of the system are not defined: inertia " + quote(inertia->name()) +
                                " does not say how rigid motions move its coordinates (a generic mass matrix); "
                                "build bodies with Mechanism (director bodies, point masses) to have them");
  return sum_over<Momenta>(system.inertias(), [&](const Placed<Inertia>& e, LocalScratch& s) {
    return *e.element->momenta(gather_into(q, e.dofs, s.q), gather_into(v, e.dofs, s.v), about);
  });
}

double max_abs(ConstVectorRef x) { return x.size() == 0 ? 0.0 : x.cwiseAbs().maxCoeff<Eigen::PropagateNaN>(); }

}  // namespace noether

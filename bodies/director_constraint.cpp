#include <noether/bodies/director_constraint.hpp>

#include <stdexcept>

namespace noether {

DirectorOrthonormality::DirectorOrthonormality(std::string name, BlockId block, Index dimension)
    : Constraint(std::move(name), {block}), dimension_(dimension) {
  if (dimension_ != 2 && dimension_ != 3)
    throw std::invalid_argument("constraint '" + this->name() + "': dimension is " + std::to_string(dimension_) +
                                "; give 2 or 3");
  for (Index i = 0; i < dimension_; ++i) pairs_.emplace_back(i, i);
  for (Index i = 0; i < dimension_; ++i)
    for (Index j = i + 1; j < dimension_; ++j) pairs_.emplace_back(i, j);
}

void DirectorOrthonormality::do_calc_value(ConstVectorRef q, VectorRef g) const {
  for (Index k = 0; k < num_equations(); ++k) {
    const auto [i, j] = pairs_[static_cast<std::size_t>(k)];
    const double product = q.segment(director_offset(i), dimension_).dot(q.segment(director_offset(j), dimension_));
    g(k) = (i == j) ? 0.5 * (product - 1.0) : product;
  }
}

void DirectorOrthonormality::do_calc_jacobian(ConstVectorRef q, MatrixRef G) const {
  G.setZero();
  for (Index k = 0; k < num_equations(); ++k) {
    const auto [i, j] = pairs_[static_cast<std::size_t>(k)];
    G.row(k).segment(director_offset(i), dimension_) += q.segment(director_offset(j), dimension_).transpose();
    if (i != j)
      G.row(k).segment(director_offset(j), dimension_) += q.segment(director_offset(i), dimension_).transpose();
  }
}

void DirectorOrthonormality::do_add_hessian_contraction(ConstVectorRef, ConstVectorRef lambda, double s,
                                                        MatrixRef K) const {
  for (Index k = 0; k < num_equations(); ++k) {
    const auto [i, j] = pairs_[static_cast<std::size_t>(k)];
    const double weight = s * lambda(k);
    K.block(director_offset(i), director_offset(j), dimension_, dimension_).diagonal().array() += weight;
    if (i != j) K.block(director_offset(j), director_offset(i), dimension_, dimension_).diagonal().array() += weight;
  }
}

}  // namespace noether

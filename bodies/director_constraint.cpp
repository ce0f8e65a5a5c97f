#include <noether/bodies/director_constraint.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <noether/engine/quote.hpp>

namespace noether {

namespace {

/// The rows (i, i) for i = 1..dim, then (i, j) for i < j: g = 1/2 (d_i.d_i - 1) or d_i.d_j, with
/// d_i at local coordinates dim (i + 1) ... (phi first). dimension 2 or 3.
QuadraticForm make_orthonormality_form(Index dimension) {
  std::vector<std::pair<Index, Index>> pairs;
  for (Index i = 0; i < dimension; ++i) pairs.emplace_back(i, i);
  for (Index i = 0; i < dimension; ++i)
    for (Index j = i + 1; j < dimension; ++j) pairs.emplace_back(i, j);
  const Index n = dimension * (dimension + 1), m = static_cast<Index>(pairs.size());
  const auto director = [&](Index i) { return dimension * (i + 1); };
  Vector constants = Vector::Zero(m);
  std::vector<Matrix> hessians;
  for (Index k = 0; k < m; ++k) {
    const auto [i, j] = pairs[static_cast<std::size_t>(k)];
    Matrix H = Matrix::Zero(n, n);
    H.block(director(i), director(j), dimension, dimension).diagonal().array() += 1.0;
    if (i != j) H.block(director(j), director(i), dimension, dimension).diagonal().array() += 1.0;
    else constants(k) = -0.5;
    hessians.push_back(std::move(H));
  }
  return QuadraticForm("a body's orthonormality", constants, Matrix::Zero(m, n), hessians);
}

/// The one form of every body of the dimension, made on first use: the same for each body.
std::shared_ptr<const QuadraticForm> orthonormality_form(const std::string& name, Index dimension) {
  if (dimension != 2 && dimension != 3)
    throw std::invalid_argument("constraint " + quote(name) + ": dimension is " + std::to_string(dimension) +
                                "; give 2 or 3");
  static const auto planar = std::make_shared<const QuadraticForm>(make_orthonormality_form(2));
  static const auto spatial = std::make_shared<const QuadraticForm>(make_orthonormality_form(3));
  return dimension == 2 ? planar : spatial;
}

}  // namespace

DirectorOrthonormality::DirectorOrthonormality(std::string name, BlockId block, Index dimension)
    : QuadraticConstraint(name, {block}, dimension * (dimension + 1), orthonormality_form(name, dimension)) {}

}  // namespace noether

#include <noether/engine/exact_form.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace noether {
namespace {

/// The number of nonzero entries of A: the storage of a form is sized exactly before it is filled,
/// since a vector grown entry by entry keeps up to twice the room, in every element of a model.
std::size_t count_nonzeros(const Matrix& A) { return static_cast<std::size_t>((A.array() != 0.0).count()); }

/// Appends the nonzeros of A (column by column) to entries.
void append_nonzeros(const Matrix& A, std::vector<Nonzero>& entries) {
  for (Index j = 0; j < A.cols(); ++j)
    for (Index i = 0; i < A.rows(); ++i)
      if (A(i, j) != 0.0) entries.push_back({i, j, A(i, j)});
}

std::vector<Nonzero> nonzeros(const Matrix& A) {
  std::vector<Nonzero> entries;
  entries.reserve(count_nonzeros(A));
  append_nonzeros(A, entries);
  return entries;
}

void check_form(std::string_view owner, const Vector& c, const Matrix& L, const std::vector<Matrix>& H) {
  const auto fail = [&](const std::string& what) {
    throw std::invalid_argument(std::string(owner) + ": its quadratic form " + what);
  };
  if (L.rows() != c.size())
    fail("has " + std::to_string(c.size()) + " constants but " + std::to_string(L.rows()) + " linear rows");
  if (!H.empty() && static_cast<Index>(H.size()) != c.size())
    fail("has " + std::to_string(H.size()) + " Hessians for " + std::to_string(c.size()) + " functions");
  if (!c.allFinite() || !L.allFinite()) fail("has a non-finite constant or linear entry");
  for (std::size_t k = 0; k < H.size(); ++k) {
    if (H[k].size() == 0) continue;
    if (H[k].rows() != L.cols() || H[k].cols() != L.cols())
      fail("has a Hessian " + std::to_string(k) + " that is not " + std::to_string(L.cols()) + " x " +
           std::to_string(L.cols()));
    if (!H[k].allFinite()) fail("has a non-finite entry in Hessian " + std::to_string(k));
    if (H[k] != H[k].transpose()) fail("has a Hessian " + std::to_string(k) + " that is not symmetric");
  }
}

}  // namespace

ConstantMatrix::ConstantMatrix(const Matrix& A) : ConstantMatrix(nonzeros(A)) {}

ConstantMatrix::ConstantMatrix(std::vector<Nonzero> entries)
    : SparseEntries(std::span<const Nonzero>(entries)), storage_(std::move(entries)) {}

QuadraticForm::QuadraticForm(std::string_view owner, const Vector& constant, const Matrix& linear,
                             const std::vector<Matrix>& hessians) {
  check_form(owner, constant, linear, hessians);
  constant_storage_.assign(constant.begin(), constant.end());
  linear_storage_.reserve(count_nonzeros(linear));
  append_nonzeros(linear, linear_storage_);
  std::size_t hessian_entries = 0;
  for (const Matrix& H : hessians) hessian_entries += count_nonzeros(H);
  hessian_storage_.reserve(hessian_entries);
  begin_storage_.reserve(static_cast<std::size_t>(constant.size()) + 1);
  begin_storage_.push_back(0);
  for (Index k = 0; k < constant.size(); ++k) {
    const auto index = static_cast<std::size_t>(k);
    if (index < hessians.size()) append_nonzeros(hessians[index], hessian_storage_);
    begin_storage_.push_back(static_cast<Index>(hessian_storage_.size()));
  }
  static_cast<QuadraticFormView&>(*this) =
      QuadraticFormView(static_cast<Index>(linear.cols()), constant_storage_, SparseEntries(linear_storage_), hessian_storage_, begin_storage_);
}

const std::byte* Arena::intern(std::span<const std::byte> bytes) {
  const std::string_view key(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (const auto found = stored_.find(key); found != stored_.end())
    return reinterpret_cast<const std::byte*>(found->data());
  auto* stored = static_cast<std::byte*>(memory_.allocate(bytes.size(), alignof(std::max_align_t)));
  std::copy(bytes.begin(), bytes.end(), stored);
  stored_.emplace(reinterpret_cast<const char*>(stored), bytes.size());
  return stored;
}

QuadraticFormView Arena::copy(const QuadraticFormView& form) {
  return QuadraticFormView(form.num_coordinates(), copy(form.constant_array()), copy(form.linear_part()), copy(form.hessian_array()),
                           copy(form.hessian_begin_array()));
}

}  // namespace noether

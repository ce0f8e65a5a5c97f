#pragma once
/// Checks of what user callbacks return (FunctionConstraint, FunctionPotential, ConfigurationInertia):
/// a vector or matrix of the wrong size is an error that names the element, the callback, the size
/// returned and the size expected, never a read or write past the end of a buffer. One comparison
/// per call: nothing next to the call of a std::function that allocates its result.
#include <string_view>

#include <noether/engine/types.hpp>

namespace noether {

/// Names the element and the callback in an error: kind "constraint", name "circle", callback
/// "ConstraintFunction::jacobian" (views: the text is built only when a check fails).
struct CallbackSite {
  std::string_view kind, name, callback;
};

/// Throws std::invalid_argument: "constraint 'circle': ConstraintFunction::jacobian returned a 2 x 3
/// matrix, expected 1 x 3".
[[noreturn]] void throw_wrong_result_shape(const CallbackSite& site, Index rows, Index cols, Index expected_rows,
                                           Index expected_cols, bool is_vector);

/// value, once it holds `size` entries (else throw_wrong_result_shape).
inline const Vector& checked_result(const CallbackSite& site, const Vector& value, Index size) {
  if (value.size() != size) [[unlikely]]
    throw_wrong_result_shape(site, static_cast<Index>(value.size()), 1, size, 1, true);
  return value;
}

/// value, once it is rows x cols (else throw_wrong_result_shape).
inline const Matrix& checked_result(const CallbackSite& site, const Matrix& value, Index rows, Index cols) {
  if (value.rows() != rows || value.cols() != cols) [[unlikely]]
    throw_wrong_result_shape(site, static_cast<Index>(value.rows()), static_cast<Index>(value.cols()), rows, cols, false);
  return value;
}

}  // namespace noether

#pragma once
/// The Gonzalez (corrected midpoint) discrete gradient and its Jacobian, for any scalar function
/// of a vector. Elements whose function is of degree <= 2 use the midpoint gradient instead (it
/// is already exact); every other element gets directionality from these functions.
#include <optional>

#include <noether/engine/types.hpp>

namespace noether {

/// The correction coefficient c = (f(y) - f(x) - Df(z).w) / |w|^2, z = (x + y)/2, w = y - x, or
/// nothing when the numerator is at rounding-noise level (|num| <= 4 eps (|f(x)| + |f(y)| + |Df(z).w|),
/// which includes w = 0). The correction is then not representable: the midpoint gradient
/// satisfies the directionality condition to that same rounding level and is used instead. This
/// test is independent of the coordinates' scale, unlike a threshold on |w|.
std::optional<double> gonzalez_coefficient(double f_x, double f_y, ConstVectorRef grad_mid, ConstVectorRef w);

/// out += s * Dbar f(x, y), with
///   Dbar f(x, y) = Df(z) + [(f(y) - f(x) - Df(z).w) / |w|^2] w,   z = (x + y)/2,  w = y - x.
/// Satisfies Dbar f(x, y).(y - x) = f(y) - f(x) up to round-off.
/// Sizes: all vectors n. Inputs: f_x = f(x), f_y = f(y), grad_mid = Df(z).
void add_gonzalez_gradient(ConstVectorRef x, ConstVectorRef y, double f_x, double f_y,
                           ConstVectorRef grad_mid, double s, VectorRef out);

/// K += s * d/dy Dbar f(x, y)   (n x n, not symmetric in general):
///   d/dy Dbar = 1/2 D^2f(z) + c I + w (dc/dy)^T,   c = (f(y) - f(x) - Df(z).w) / |w|^2,
///   dc/dy = [Df(y) - Df(z) - 1/2 D^2f(z) w - 2 c w] / |w|^2;
/// 1/2 D^2 f(z) alone where gonzalez_coefficient gives nothing.
/// Inputs: f_x, f_y, grad_y = Df(y), grad_mid = Df(z), hess_mid = D^2 f(z).
void add_gonzalez_jacobian(ConstVectorRef x, ConstVectorRef y, double f_x, double f_y,
                           ConstVectorRef grad_y, ConstVectorRef grad_mid, ConstMatrixRef hess_mid,
                           double s, MatrixRef K);

}  // namespace noether

#pragma once
/// The Gonzalez (corrected midpoint) discrete gradient and its Jacobian, for any scalar function
/// of a vector. Elements whose function is of degree <= 2 use the midpoint gradient instead (it
/// is already exact); every other element gets directionality from these two functions.
#include "engine/types.hpp"

namespace noether {

/// Whether y - x is too short for the Gonzalez correction to be formed: |w|^2 below
/// 1e-12 (1 + |x|^2 + |y|^2). The midpoint gradient is returned there: its defect in the
/// discrete-gradient identity, D^3 f(z)[w, w, w] / 24, is at round-off, while the computed
/// correction would be dominated by rounding (an error ~eps |f| / |w| in the gradient and
/// ~eps |f| / |w|^2 in its Jacobian).
bool gonzalez_correction_negligible(ConstVectorRef x, ConstVectorRef y);

/// out += s * Dbar f(x, y), with
///   Dbar f(x, y) = Df(z) + [(f(y) - f(x) - Df(z).w) / |w|^2] w,   z = (x + y)/2,  w = y - x.
/// Satisfies Dbar f(x, y).(y - x) = f(y) - f(x) exactly up to round-off.
/// Sizes: all vectors n. Inputs: f_x = f(x), f_y = f(y), grad_mid = Df(z).
void add_gonzalez_gradient(ConstVectorRef x, ConstVectorRef y, double f_x, double f_y,
                           ConstVectorRef grad_mid, double s, VectorRef out);

/// K += s * d/dy Dbar f(x, y)   (n x n, not symmetric in general):
///   d/dy Dbar = 1/2 D^2f(z) + c I + w (dc/dy)^T,   c = (f(y) - f(x) - Df(z).w) / |w|^2,
///   dc/dy = [Df(y) - Df(z) - 1/2 D^2f(z) w - 2 c w] / |w|^2.
/// Inputs: f_x, f_y, grad_y = Df(y), grad_mid = Df(z), hess_mid = D^2 f(z).
void add_gonzalez_jacobian(ConstVectorRef x, ConstVectorRef y, double f_x, double f_y,
                           ConstVectorRef grad_y, ConstVectorRef grad_mid, ConstMatrixRef hess_mid,
                           double s, MatrixRef K);

}  // namespace noether

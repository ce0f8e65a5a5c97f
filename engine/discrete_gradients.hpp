#pragma once
/// Four discrete gradients of a scalar function f of n coordinates [DiscreteDerivativesEM, Sec. 4]:
/// each satisfies the directionality condition Dbar f(x, y).(y - x) = f(y) - f(x) (its eq. (13)),
/// so each makes an energy-momentum scheme conserve energy; they differ in the symmetries they keep
/// (its eq. (14)). With z = (x + y)/2, w = y - x:
///
///   scaled midpoint   Dbar = rho Df(z),   rho = (f(y) - f(x)) / (Df(z).w)
///   average vector field (collocation)   Dbar = int_0^1 Df(x + s w) ds
///   Gonzalez (corrected midpoint)   Dbar = Df(z) + [(f(y) - f(x) - Df(z).w) / |w|^2] w   (engine/gonzalez.hpp)
///   partitioned (coordinate increments)   Dbar_i = (f(z_i) - f(z_{i-1})) / w_i,
///                                          z_i = (y_1 .. y_i, x_{i+1} .. x_n)
///
/// Symmetries: for f invariant under translations and rotations of particle positions, the
/// midpoint gradient Df(z) satisfies sum_i Dbar_i = 0 and sum_i r_i,mid x Dbar_i = 0 (eq. (14)), and
/// so does rho Df(z): the scaled midpoint keeps linear and angular momentum. The average vector
/// field keeps the first (each Df(x + s w) sums to zero) but not the second (r_mid is not
/// x + s w); Gonzalez's correction is along w, and the partitioned one depends on the coordinate
/// order: neither keeps either in general (tests/engine/test_discrete_gradients.cpp measures it).
///
/// The scaled midpoint's 0/0: rho is undefined when Df(z).w = 0. Where Df(z).w is at the rounding
/// level of the terms (|Df(z).w| <= 4 eps (|f(x)| + |f(y)| + |Df(z)| |w|), including w = 0), rho = 1
/// (the midpoint gradient) is used; directionality then holds to O(|w|^3). A constraint with
/// f(x) = f(y) = 0 makes rho = 0 whenever Df(z).w != 0, and the constraint force vanishes: apply
/// the scaled midpoint to the terms of f one by one (a split f = sum_k f_k whose terms change over
/// a step), not to f (joints/distance_power_constraint.hpp does).
///
/// The average vector field is evaluated by 4-point Gauss-Legendre quadrature: exact for
/// polynomials f of degree <= 8, to the quadrature error otherwise. The partitioned gradient
/// uses, where |w_i| <= 1e-5 (|x_i| + |y_i|), the Taylor form Df_i at the midpoint of z_{i-1}
/// and z_i (its directionality error O(w_i^3)).
#include <functional>
#include <string_view>

#include <noether/engine/types.hpp>

namespace noether {

enum class DiscreteGradientKind { scaled_midpoint, average_vector_field, gonzalez, partitioned };

/// "scaled-midpoint", "avf", "gonzalez", "partitioned".
std::string_view to_string(DiscreteGradientKind kind);

/// A scalar function of n coordinates with its first two derivatives.
struct ScalarField {
  std::function<double(ConstVectorRef q)> value;
  std::function<void(ConstVectorRef q, VectorRef gradient)> gradient;  ///< overwrites (n)
  std::function<void(ConstVectorRef q, MatrixRef hessian)> hessian;    ///< overwrites (n x n)
};

/// out += s * Dbar f(x, y)   (n).
void add_discrete_gradient(DiscreteGradientKind kind, const ScalarField& f, ConstVectorRef x, ConstVectorRef y,
                           double s, VectorRef out);

/// K += s * d/dy Dbar f(x, y)   (n x n).
void add_discrete_gradient_jacobian(DiscreteGradientKind kind, const ScalarField& f, ConstVectorRef x,
                                    ConstVectorRef y, double s, MatrixRef K);

}  // namespace noether

#pragma once
/// The discrete derivative of a scalar function of one scalar: the building block of invariant-based
/// discrete gradients [DiscreteDerivativesEM]. A potential V(q) = W(pi(q)) written through a quadratic
/// invariant pi gets Dbar V(q_a, q_b) = Dpi(q_mid)^T Wbar(pi(q_a), pi(q_b)), which is directional
/// because Dpi(q_mid).(q_b - q_a) = pi(q_b) - pi(q_a) holds exactly for quadratic pi.
#include <functional>

#include <noether/engine/types.hpp>

namespace noether {

/// A scalar function's value and first two derivatives at one point.
struct ScalarJet {
  double value = 0.0;
  double first = 0.0;
  double second = 0.0;
};

/// A scalar function of one scalar, returning W(x), W'(x), W''(x).
using ScalarFunction = std::function<ScalarJet(double x)>;

/// Wbar(a, b) and its partial derivative in b.
struct ScalarDiscreteDerivative {
  double value = 0.0;         ///< Wbar, with Wbar (b - a) = W(b) - W(a)
  double derivative_b = 0.0;  ///< d Wbar / d b
};

/// Relative gap |b - a| / (|a| + |b|) below which scalar_discrete_derivative uses its midpoint
/// Taylor form. It balances the two errors in dWbar/db: cancellation in the quotient,
/// ~ eps / gap^2 relative, against truncation of the Taylor form, ~ gap; both are ~1e-5 here.
inline constexpr double scalar_discrete_derivative_gap = 1e-5;

/// The difference quotient of W between a and b and its derivative in b:
///   Wbar = (W(b) - W(a)) / (b - a),   dWbar/db = (W'(b) - Wbar) / (b - a).
/// When |b - a| <= scalar_discrete_derivative_gap (|a| + |b|) (including a == b) the midpoint
/// Taylor form Wbar = W'(m), dWbar/db = W''(m)/2, m = (a + b)/2, is used instead: its error in
/// Wbar (b - a) = W(b) - W(a) is W'''(m) (b - a)^3 / 24, below round-off of W at that gap.
/// W is evaluated at a and b (quotient) or at m (Taylor form).
ScalarDiscreteDerivative scalar_discrete_derivative(const ScalarFunction& W, double a, double b);

}  // namespace noether

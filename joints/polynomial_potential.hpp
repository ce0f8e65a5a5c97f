#pragma once
/// A potential that is a polynomial of one coordinate: springs of generalized coordinates, the
/// double well, the strain energy of a radial coordinate.
#include <optional>
#include <vector>

#include <noether/engine/potential.hpp>

namespace noether {

/// V(q) = sum_{k=0}^{K} c_k u^k,  u = x - x0,  x = q(coordinate), of one coordinate of a block of
/// n = block_size coordinates (the others do not enter). Expanding about x0 (the rest length of a
/// spring, say) keeps V accurate where it is small. Evaluated by Horner's scheme:
///   DV = V'(u) e_x,   D^2 V = V''(u) e_x e_x^T   (n, n x n).
/// Discrete gradient: in one variable every discrete gradient is the divided difference, here
/// computed without cancellation from u_a, u_b,
///   Dbar V = sum_k c_k S_k(u_a, u_b) e_x,   S_k = sum_{j=0}^{k-1} u_a^j u_b^{k-1-j}   (S_k(u, u) = k u^{k-1}),
/// so Dbar V.(q_b - q_a) = V(q_b) - V(q_a) up to rounding at every distance of q_a, q_b, and it tends
/// to DV(q_a) as q_b -> q_a. d/du_b: sum_k c_k dS_k/du_b, with S_{k+1} = u_b S_k + u_a^k.
/// Of degree K <= 2 it states its exact form (quadratic_form()).
class PolynomialPotential final : public Potential {
 public:
  /// Throws std::invalid_argument naming the potential for a coordinate outside 0 .. block_size - 1,
  /// no coefficients, or a coefficient or x0 that is not finite.
  PolynomialPotential(std::string name, BlockId block, Index block_size, Index coordinate, double center,
                      std::vector<double> coefficients);

  Index local_size() const override { return size_; }
  /// c_0 ... c_K.
  const std::vector<double>& coefficients() const { return coefficients_; }

  void add_discrete_gradient(ConstVectorRef q_a, ConstVectorRef q_b, double s, VectorRef g) const override;
  void add_discrete_gradient_jacobian(ConstVectorRef q_a, ConstVectorRef q_b, double s, MatrixRef K) const override;

 protected:
  const QuadraticFormView* do_quadratic_form() const override { return form_ ? &*form_ : nullptr; }
  double do_energy(ConstVectorRef q) const override;
  void do_add_gradient(ConstVectorRef q, double s, VectorRef g) const override;
  void do_add_hessian(ConstVectorRef q, double s, MatrixRef K) const override;

 private:
  /// u = q(coordinate) - x0.
  double offset(ConstVectorRef q) const { return q(coordinate_) - center_; }
  /// sum_k c_k S_k(u_a, u_b) and its derivative in u_b.
  struct DividedDifference {
    double value, derivative_b;
  };
  DividedDifference divided_difference(double u_a, double u_b) const;

  Index size_, coordinate_;
  double center_;
  std::vector<double> coefficients_;
  std::optional<QuadraticForm> form_;
};

}  // namespace noether

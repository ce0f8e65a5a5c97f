#!/usr/bin/env python3
"""Would an order-4 one-step scheme beat livens-em4 on a chain? A dense prototype, not part of Noether.

Two schemes on a planar chain released horizontally at rest, gravity 9.81 in -y, end time 1 s:
n point masses (1 kg each, links of 1 m, the first pinned at the origin; error of the last mass)
or, with --model bars, n director bars as chain2d's (BarChain; error of the free end):

* livens-em4: Suzuki's five substeps [Suzuki1990], each as two half-steps, of the livens-em step
  [KinonBetsch2023] for constant M, quadratic g and linear V (steppers/livens_em.hpp):
      M 2 dq/h - 2 p0 + h DV + G(q0 + dq/2)^T mu = 0,   g(q0 + dq) = 0,   p1 = 2 M dq/h - p0.
* lobatto: the Galerkin variational integrator with quadratic q(t) through q0, qm, q1 and the
  three-point Lobatto rule (nodes 0, 1/2, 1; weights 1/6, 4/6, 1/6), the constraints held at every
  node: for L = 1/2 v^T M v - V(q) the Lobatto IIIA-IIIB pair for holonomic constraints, of order 4
  [Jay1996] (derived here from the discrete action; the script's runs show the order). With
  L_d = h sum_j w_j L(q(c_j), q'(c_j)) and multipliers L0, Lm:
      p0 + D_q0 L_d - G(q0)^T L0 = 0,   D_qm L_d - G(qm)^T Lm = 0,   g(qm) = 0,   g(q1) = 0,
  then p1 = D_q1 L_d projected onto G(q1) M^-1 p1 = 0 (the projection changes no later position:
  the next step's L0 absorbs any G^T component of p0).

Both are solved by full Newton with exact Jacobians (scipy's sparse LU), stopping when the largest
residual entry is below 1e-11. The script prints each scheme's error against a livens-em4 run with
512 steps (--reference-steps), its Newton iterations per step, the unknowns and the nonzeros of its
Newton matrix.

    apt-get install python3-numpy python3-scipy
    python3 benchmarks/experiments/lobatto_prototype.py --bodies 4 8 16
    python3 benchmarks/experiments/lobatto_prototype.py --model bars --bodies 4 8 16 --steps 16 23 32 45 64 90 128
"""
import argparse

import numpy as np
from scipy import sparse
from scipy.sparse.linalg import spsolve

GRAVITY = 9.81
WEIGHTS = np.array([1.0, 4.0, 1.0]) / 6.0
# l_i'(c_j) of the quadratic Lagrange basis on the nodes 0, 1/2, 1: row i (q0, qm, q1), column j.
BASIS_SLOPES = np.array([[-3.0, -1.0, 1.0], [4.0, 0.0, -4.0], [-1.0, 1.0, 3.0]])


class PointChain:
    """n point masses on unit links: g_k = |x_k - x_{k-1}|^2 - 1 (x_{-1} = 0), V = g0 sum y_k."""

    def __init__(self, bodies):
        self.n, self.d, self.m = bodies, 2 * bodies, bodies
        self.M = sparse.identity(self.d, format="csc")
        self.gradient_v = np.tile([0.0, GRAVITY], bodies)

    def initial_positions(self):
        return np.array([[k + 1.0, 0.0] for k in range(self.n)]).ravel()

    def probe(self, q):
        return q[-2:]

    def links(self, q):
        x = q.reshape(self.n, 2)
        return x - np.vstack([[0.0, 0.0], x[:-1]])

    def g(self, q):
        return (self.links(q) ** 2).sum(axis=1) - 1.0

    def jacobian(self, q):
        r, G = self.links(q), np.zeros((self.n, self.d))
        for k in range(self.n):
            G[k, 2 * k:2 * k + 2] = 2.0 * r[k]
            if k > 0:
                G[k, 2 * k - 2:2 * k] = -2.0 * r[k]
        return sparse.csr_matrix(G)

    def hessian_contraction(self, multipliers):
        """sum_k multipliers_k D^2 g_k (d x d, constant in q)."""
        H = np.zeros((self.d, self.d))
        for k, m in enumerate(multipliers):
            block = 2.0 * m * np.eye(2)
            H[2 * k:2 * k + 2, 2 * k:2 * k + 2] += block
            if k > 0:
                H[2 * k - 2:2 * k, 2 * k - 2:2 * k] += block
                H[2 * k:2 * k + 2, 2 * k - 2:2 * k] -= block
                H[2 * k - 2:2 * k, 2 * k:2 * k + 2] -= block
        return sparse.csr_matrix(H)


class BarChain:
    """n planar director bars [KinonBetsch2023] (q = (phi, d1, d2) per bar, phi the centre), 1 kg
    and 1 m, thin rods (J = m l^2/12 about the centre, split as E1 = E2 = J/2 on the directors),
    joined end to end, the first pinned at the origin: per bar d1.d1 - 1, d2.d2 - 1, d1.d2 and the
    joint phi_k - d1_k/2 - (phi_{k-1} + d1_{k-1}/2) = 0 (the ground for k = 0); V = g0 sum phi_y."""

    def __init__(self, bodies):
        self.n, self.d, self.m = bodies, 6 * bodies, 5 * bodies
        self.M = sparse.diags(np.tile([1.0, 1.0, 1.0 / 24.0, 1.0 / 24.0, 1.0 / 24.0, 1.0 / 24.0], bodies), format="csc")
        self.gradient_v = np.tile([0.0, GRAVITY, 0.0, 0.0, 0.0, 0.0], bodies)

    def initial_positions(self):
        return np.concatenate([[k + 0.5, 0.0, 1.0, 0.0, 0.0, 1.0] for k in range(self.n)])

    def probe(self, q):
        return q[-6:-4] + 0.5 * q[-4:-2]

    def g(self, q):
        values = []
        for k in range(self.n):
            phi, d1, d2 = q[6 * k:6 * k + 2], q[6 * k + 2:6 * k + 4], q[6 * k + 4:6 * k + 6]
            joint = phi - 0.5 * d1 - (q[6 * k - 6:6 * k - 4] + 0.5 * q[6 * k - 4:6 * k - 2] if k > 0 else 0.0)
            values += [d1 @ d1 - 1.0, d2 @ d2 - 1.0, d1 @ d2, joint[0], joint[1]]
        return np.array(values)

    def jacobian(self, q):
        G, eye = np.zeros((self.m, self.d)), np.eye(2)
        for k in range(self.n):
            r, c = 5 * k, 6 * k
            d1, d2 = q[c + 2:c + 4], q[c + 4:c + 6]
            G[r, c + 2:c + 4] = 2.0 * d1
            G[r + 1, c + 4:c + 6] = 2.0 * d2
            G[r + 2, c + 2:c + 4], G[r + 2, c + 4:c + 6] = d2, d1
            G[r + 3:r + 5, c:c + 2], G[r + 3:r + 5, c + 2:c + 4] = eye, -0.5 * eye
            if k > 0:
                G[r + 3:r + 5, c - 6:c - 4], G[r + 3:r + 5, c - 4:c - 2] = -eye, -0.5 * eye
        return sparse.csr_matrix(G)

    def hessian_contraction(self, multipliers):
        H, eye = np.zeros((self.d, self.d)), np.eye(2)
        for k in range(self.n):
            a, b, c = multipliers[5 * k:5 * k + 3]
            d1, d2 = slice(6 * k + 2, 6 * k + 4), slice(6 * k + 4, 6 * k + 6)
            H[d1, d1] += 2.0 * a * eye
            H[d2, d2] += 2.0 * b * eye
            H[d1, d2] += c * eye
            H[d2, d1] += c * eye
        return sparse.csr_matrix(H)


class NewtonFailed(RuntimeError):
    pass


def newton(equations, x, counts, tolerance=1e-11, max_iterations=30):
    """x with max|R(x)| < tolerance; equations(x) returns (R, dR/dx). counts: [iterations, nonzeros]."""
    for _ in range(max_iterations):
        residual, jacobian = equations(x)
        if np.max(np.abs(residual)) < tolerance:
            return x
        counts[0] += 1
        counts[1] = max(counts[1], jacobian.count_nonzero())
        x = x - spsolve(jacobian.tocsc(), residual)
    raise NewtonFailed(f"no convergence, max|R| = {np.max(np.abs(residual)):.3e}")


def livens_em_step(chain, q0, p0, h, counts):
    d, m, M = chain.d, chain.m, chain.M

    def equations(x):
        dq, mu = x[:d], x[d:]
        q_mid, q1 = q0 + 0.5 * dq, q0 + dq
        residual = np.concatenate([M @ (2.0 * dq / h) - 2.0 * p0 + h * chain.gradient_v
                                   + chain.jacobian(q_mid).T @ mu, chain.g(q1)])
        jacobian = sparse.bmat([[2.0 / h * M + 0.5 * chain.hessian_contraction(mu), chain.jacobian(q_mid).T],
                                [chain.jacobian(q1), None]])
        return residual, jacobian

    x = newton(equations, np.concatenate([h * spsolve(M, p0), np.zeros(m)]), counts)
    return q0 + x[:d], 2.0 * M @ x[:d] / h - p0


def lobatto_step(chain, q0, p0, h, counts):
    d, n, M = chain.d, chain.m, chain.M
    # d(D_qi L_d)/d q_k = sum_j w_j l_i'(c_j) l_k'(c_j) M / h for the kinetic part; V is linear.
    coupling = (BASIS_SLOPES * WEIGHTS) @ BASIS_SLOPES.T / h

    def node_gradients(nodes):
        slopes = [sum(BASIS_SLOPES[k, j] * nodes[k] for k in range(3)) / h for j in range(3)]
        return [sum(WEIGHTS[j] * BASIS_SLOPES[i, j] * (M @ slopes[j]) for j in range(3))
                - h * WEIGHTS[i] * chain.gradient_v for i in range(3)]

    def equations(x):
        qm, q1, l0, lm = x[:d], x[d:2 * d], x[2 * d:2 * d + n], x[2 * d + n:]
        D = node_gradients([q0, qm, q1])
        residual = np.concatenate([p0 + D[0] - chain.jacobian(q0).T @ l0, D[1] - chain.jacobian(qm).T @ lm,
                                   chain.g(qm), chain.g(q1)])
        jacobian = sparse.bmat([
            [coupling[0, 1] * M, coupling[0, 2] * M, -chain.jacobian(q0).T, None],
            [coupling[1, 1] * M - chain.hessian_contraction(lm), coupling[1, 2] * M, None, -chain.jacobian(qm).T],
            [chain.jacobian(qm), None, None, None],
            [None, chain.jacobian(q1), None, None]])
        return residual, jacobian

    v0 = spsolve(M, p0)
    x = newton(equations, np.concatenate([q0 + 0.5 * h * v0, q0 + h * v0, np.zeros(2 * n)]), counts)
    q1 = x[d:2 * d]
    p1 = node_gradients([q0, x[:d], q1])[2]
    G = chain.jacobian(q1)
    M_inverse_Gt = sparse.csc_matrix(spsolve(M, G.T.tocsc()))
    projection = spsolve((G @ M_inverse_Gt).tocsc(), G @ spsolve(M, p1))
    return q1, p1 - G.T @ projection


def suzuki_fractions():
    outer = 1.0 / (4.0 - 4.0 ** (1.0 / 3.0))
    return [outer, outer, 1.0 - 4.0 * outer, outer, outer]


def livens_em4_step(chain, q, p, h, counts):
    for fraction in suzuki_fractions():
        for _ in range(2):
            q, p = livens_em_step(chain, q, p, 0.5 * fraction * h, counts)
    return q, p


def tip_at_end(chain, step, steps, counts):
    q, p = chain.initial_positions(), np.zeros(chain.d)
    for _ in range(steps):
        q, p = step(chain, q, p, 1.0 / steps, counts)
    return chain.probe(q)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bodies", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--steps", type=int, nargs="+", default=[8, 11, 16, 23, 32, 45, 64])
    parser.add_argument("--reference-steps", type=int, default=512, help="livens-em4's steps for the reference")
    parser.add_argument("--model", choices=["points", "bars"], default="points",
                        help="point masses on links, or director bars on revolute joints")
    args = parser.parse_args()
    for bodies in args.bodies:
        chain = PointChain(bodies) if args.model == "points" else BarChain(bodies)
        reference = tip_at_end(chain, livens_em4_step, args.reference_steps, [0, 0])
        kind = "point masses" if args.model == "points" else "director bars (probe: the free end)"
        print(f"chain of {bodies} {kind} (reference: livens-em4, {args.reference_steps} steps)")
        print("| steps | livens-em4 error | its Newton iterations per livens-em step | lobatto error "
              "| its Newton iterations per step | error ratio lobatto / livens-em4 |")
        print("|---:|---:|---:|---:|---:|---:|")
        shapes = {}
        for steps in args.steps:
            row = [str(steps)]
            errors = []
            for name, step, substeps in (("livens-em4", livens_em4_step, 10), ("lobatto", lobatto_step, 1)):
                counts = [0, 0]
                try:
                    error = np.linalg.norm(tip_at_end(chain, step, steps, counts) - reference)
                    row += [f"{error:.2e}", f"{counts[0] / (steps * substeps):.2f}"]
                    errors.append(error)
                    shapes[name] = counts[1]
                except NewtonFailed:
                    row += ["Newton fails", "-"]
                    errors.append(float("nan"))
            row.append(f"{errors[1] / errors[0]:.1f}")
            print("| " + " | ".join(row) + " |")
        d, m = chain.d, chain.m
        print(f"unknowns per Newton system: livens-em {d + m}, lobatto {2 * (d + m)}; "
              f"nonzeros of the Newton matrix: livens-em {shapes.get('livens-em4')}, lobatto {shapes.get('lobatto')}\n")


if __name__ == "__main__":
    main()

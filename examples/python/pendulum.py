"""The pendulum of README.md, "The first mechanism", from Python: a uniform bar of 1 kg and 1 m
hinged at one end, released horizontally, stepped 5 s by livens-em in a Python loop.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/pendulum.py

Prints the tip, the energy error and the constraint residual at t = 5, as the C++ example does
(examples/first_mechanism.cpp), and exits with 1 unless the energy and the joint hold."""

import sys

import numpy as np

import noether

m = noether.Mechanism("pendulum")
bar = m.add_planar_body(name="bar", mass=1.0, inertia=1 / 12, position=[0.5, 0.0])
m.add_joint("revolute_planar", name="pivot", point_a=[0.0, 0.0], body_b=bar, point_b=[-0.5, 0.0])
m.add_gravity(acceleration=[0.0, -9.81])
m.add_probe(name="tip", body=bar, point=[0.5, 0.0])

model = m.build()
stepper = noether.Stepper(model, "livens-em")
state = model.initial_state()
stepper.initialize(state)
energy0 = stepper.conserved_energy(state)
for n in range(500):
    stepper.step(state, 0.01)

tip = model.probe("tip", state)
energy_error = abs(stepper.conserved_energy(state) - energy0)
residual = np.max(np.abs(noether.constraint_values(model, state)))
print(f"t = {state.t:g}: tip at ({tip[0]:.6f}, {tip[1]:.6f}), energy error {energy_error:.1e}, max |g| {residual:.1e}")
sys.exit(0 if energy_error < 1e-10 and residual < 1e-12 else 1)

"""The damped double four-bar linkage (KinonBetschSchneider2023, Sec. 5.2) from Python: built
entry by entry as examples/scenes/double_fourbar.json, run through its singular (horizontal)
configurations by noether.run, and the largest constraint residual printed per second.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/double_fourbar.py [OUT_DIR]

With OUT_DIR the run writes the output directory `noether run --out OUT_DIR` writes."""

import math
import sys

import numpy as np

import noether

m = noether.Mechanism("double-fourbar")
bars = []
for i in range(3):  # the grounded bars, upright, turning at -1 rad/s
    bars.append(m.add_planar_body(name=f"B{i + 1}", mass=1.0, inertia=1 / 12, position=[i, 0.5], angle=math.pi / 2,
                                  velocity=[0.5, 0.0], angular_velocity=-1.0))
    m.add_joint("revolute_planar", name=f"P{i + 1}", point_a=[i, 0.0], body_b=bars[i], point_b=[-0.5, 0.0])
for i in range(2):  # the couplers, moving at 1 m/s
    bars.append(m.add_planar_body(name=f"B{i + 4}", mass=1.0, inertia=1 / 12, position=[0.5 + i, 1.0], velocity=[1.0, 0.0]))
b1, b2, b3, b4, b5 = bars
top, left = [0.5, 0.0], [-0.5, 0.0]
m.add_joint("revolute_planar", name="P4", body_a=b1, point_a=top, body_b=b4, point_b=left)
m.add_joint("revolute_planar", name="P5.B4", body_a=b2, point_a=top, body_b=b4, point_b=top)
m.add_joint("revolute_planar", name="P5.B5", body_a=b2, point_a=top, body_b=b5, point_b=left)
m.add_joint("revolute_planar", name="P6", body_a=b3, point_a=top, body_b=b5, point_b=top)
m.add_gravity(acceleration=[0.0, -9.81])
m.add_damper(name="damper.P1-P5", point_a=[0.0, 0.0], body_b=b4, point_b=top, damping=0.5)
m.add_damper(name="damper.P2-P6", point_a=[1.0, 0.0], body_b=b5, point_b=top, damping=0.5)
m.add_probe(name="B0", body=b1, point=top)

out = sys.argv[1] if len(sys.argv) > 1 else None
result = noether.run(m, h=0.001, t_end=10.0, out=out)
t = result.timeseries["t"]
g = np.column_stack([column for name, column in result.timeseries.items() if name.startswith("g:")])
worst = np.max(np.abs(g), axis=1)
for second in range(10):
    window = (t > second) & (t <= second + 1)
    print(f"t in ({second}, {second + 1}]: max |g| {worst[window].max():.1e}")
print(f"{result.summary['steps']} steps, energy {result.summary['energy_initial']:.6f} -> "
      f"{result.summary['energy_final']:.6f} (the dampers take the difference)")

"""A parameter sweep from Python: the double four-bar scenario's damping from 0 to 1, each run for
5 s, and the energy left at the end. Draws damping_sweep.png with matplotlib when
python3-matplotlib is installed, else writes damping_sweep.csv.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/damping_sweep.py [OUT_DIR]
"""

import os
import sys

import numpy as np

import noether

out = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out, exist_ok=True)
dampings = np.linspace(0.0, 1.0, 6)
energies = {}
for eta in dampings:
    result = noether.run("double-fourbar", t_end=5.0, every=10, set={"damping": eta})
    energies[eta] = (result.timeseries["t"], result.timeseries["energy"])
    print(f"damping {eta:.1f}: energy {result.summary['energy_initial']:.4f} -> {result.summary['energy_final']:.4f}")

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    path = os.path.join(out, "damping_sweep.csv")
    t = energies[dampings[0]][0]
    columns = np.column_stack([t] + [energies[eta][1] for eta in dampings])
    header = "t," + ",".join(f"energy_damping_{eta:g}" for eta in dampings)
    np.savetxt(path, columns, delimiter=",", header=header, comments="", fmt="%.17g")
    print(f"matplotlib is not installed (apt-get install python3-matplotlib for the figure): wrote {path}")
else:
    fig, ax = plt.subplots(figsize=(6, 4))
    for eta in dampings:
        ax.plot(*energies[eta], label=f"damping {eta:g}")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("energy [J]")
    ax.set_title("double four-bar: energy against damping")
    ax.legend()
    path = os.path.join(out, "damping_sweep.png")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    print(f"wrote {path}")

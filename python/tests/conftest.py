"""The pytest suite of the module noether (docs/python.md), run by ctest's python.pytest with
PYTHONPATH=build/python, NOETHER_CLI (the program of the same build) and NOETHER_SOURCE_DIR."""

import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("NOETHER_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE_DIR


@pytest.fixture(scope="session")
def cli():
    """Runs the program of the same build: cli("run", "pendulum", ...) -> CompletedProcess."""
    program = os.environ.get("NOETHER_CLI", str(SOURCE_DIR / "build" / "bin" / "noether"))
    if not os.path.exists(program):
        pytest.fail(f"the noether program is not at {program}: build it, or set NOETHER_CLI")

    def run(*arguments):
        return subprocess.run([program, *map(str, arguments)], capture_output=True, text=True, check=False)

    return run


def pendulum_mechanism(noether):
    """examples/scenes/pendulum.json, built in Python."""
    m = noether.Mechanism("pendulum", "A uniform bar of 1 kg and 1 m hinged at one end, released horizontally.")
    bar = m.add_planar_body(name="bar", mass=1.0, inertia=0.08333333333333333, position=[0.5, 0.0])
    m.add_joint("revolute_planar", name="pivot", point_a=[0.0, 0.0], body_b=bar, point_b=[-0.5, 0.0])
    m.add_gravity(acceleration=[0.0, -9.81])
    m.add_probe(name="tip", body=bar, point=[0.5, 0.0])
    return m

"""examples/python/ run as a user runs them, each exiting with 0."""

import importlib.util
import os
import subprocess
import sys



def run_example(source_dir, name, *arguments):
    example = source_dir / "examples" / "python" / name
    result = subprocess.run([sys.executable, str(example), *map(str, arguments)], capture_output=True, text=True,
                            env=dict(os.environ), check=False, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_pendulum(source_dir):
    assert "t = 5: tip at (-0.979649, -0.200720)" in run_example(source_dir, "pendulum.py")


def test_double_fourbar(source_dir, tmp_path):
    out = run_example(source_dir, "double_fourbar.py", tmp_path)
    assert "10000 steps" in out and (tmp_path / "timeseries.csv").exists()


def test_damping_sweep(source_dir, tmp_path):
    out = run_example(source_dir, "damping_sweep.py", tmp_path)
    if importlib.util.find_spec("matplotlib") is None:
        assert (tmp_path / "damping_sweep.csv").exists(), out
    else:
        assert (tmp_path / "damping_sweep.png").exists(), out


def test_user_functions(source_dir):
    assert "by central differences" in run_example(source_dir, "user_functions.py")

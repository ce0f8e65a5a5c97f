"""noether.run: the settings of `noether run` from its table, its outputs, its summary and series."""

import json
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import noether
from conftest import pendulum_mechanism


def test_a_scenario_run_writes_the_programs_bytes_and_returns_its_summary_and_series(cli, tmp_path):
    by_cli = cli("run", "double-fourbar", "--t", 1, "--out", tmp_path / "cli")
    assert by_cli.returncode == 0, by_cli.stderr
    result = noether.run("double-fourbar", t_end=1, out=tmp_path / "python")
    for name in ("timeseries.csv", "final_state.json", "motion.pvd"):
        assert (tmp_path / "python" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    written = json.loads((tmp_path / "python" / "summary.json").read_text())
    assert result.summary == written
    assert result.ok and result.status == "completed" and result.summary["steps"] == 1000
    assert result.directory == str(tmp_path / "python")
    series = noether.read_timeseries(tmp_path / "cli" / "timeseries.csv")
    assert set(result.timeseries) == set(series)
    for name, column in series.items():
        np.testing.assert_array_equal(result.timeseries[name], column)
    assert result.timeseries["t"].shape == (1001,) and result.timeseries["t"][-1] == result.summary["t_reached"]


def test_settings_by_name_or_by_option_and_their_checks():
    a = noether.run("double-pendulum", t_end=0.1, stepper="em-ggl", newton_tol=1e-12)
    b = noether.run("double-pendulum", t=0.1, stepper="em-ggl", newton_tolerance=1e-12)
    assert a.directory is None and a.summary["stepper"] == "em-ggl"
    np.testing.assert_array_equal(a.timeseries["energy"], b.timeseries["energy"])
    c = noether.run("double-fourbar", t=0.01, set={"damping": 0.5, "m": 2}, every=5, reactions=True)
    assert c.summary["parameters"]["damping"] == 0.5 and len(c.timeseries["t"]) == 3
    assert any(name.startswith("reaction:") for name in c.timeseries)
    with pytest.raises(ValueError, match=r"--h expects a number|--h"):
        noether.run("double-pendulum", h="fast")
    with pytest.raises(ValueError, match="--max-steps"):
        noether.run("double-pendulum", max_steps=0)
    with pytest.raises(ValueError, match="whole number of steps"):
        noether.run("double-pendulum", h=0.01, t_end=0.015)
    with pytest.raises(TypeError, match="unexpected keyword argument 'tend'"):
        noether.run("double-pendulum", tend=1)
    with pytest.raises(TypeError, match="give it once"):
        noether.run("double-pendulum", t=1, t_end=1)
    with pytest.raises(ValueError, match="scenario"):
        noether.run("no-such-scenario")
    with pytest.raises(TypeError, match="a Model .* is no scene"):
        noether.run(noether.scenario("double-pendulum"))


def test_a_mechanism_runs_as_its_scene_file_does(cli, source_dir, tmp_path):
    by_cli = cli("run", source_dir / "examples" / "scenes" / "pendulum.json", "--out", tmp_path / "cli")
    assert by_cli.returncode == 0, by_cli.stderr
    result = noether.run(pendulum_mechanism(noether), h=0.01, t_end=5.0, out=tmp_path / "python")
    for name in ("timeseries.csv", "final_state.json"):
        assert (tmp_path / "python" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name
    assert result.timeseries["tip.x"][-1] == pytest.approx(-0.979649, abs=1e-6)
    with pytest.raises(ValueError, match="give h and t_end"):
        noether.run(pendulum_mechanism(noether))


def test_a_run_and_a_step_loop_release_the_gil_for_other_threads():
    """Another thread keeps running while the C++ works: its longest pause is a fraction of the
    call (holding the GIL, the call would pause it for all its length)."""
    done = threading.Event()
    longest = [0.0]

    def watch():
        last = time.perf_counter()
        while not done.is_set():
            now = time.perf_counter()
            longest[0] = max(longest[0], now - last)
            last = now

    model = noether.scenario("chain2d", n=300)
    stepper, state = noether.Stepper(model), model.initial_state()
    stepper.initialize(state)
    for work in (lambda: stepper.advance(state, 0.01, 200),
                 lambda: noether.run("chain2d", set={"n": 300}, t_end=2, vtk=False)):
        longest[0] = 0.0
        done.clear()
        thread = threading.Thread(target=watch)
        thread.start()
        start = time.perf_counter()
        work()
        elapsed = time.perf_counter() - start
        done.set()
        thread.join()
        assert elapsed > 0.1 and longest[0] < elapsed / 2, (elapsed, longest[0])


def test_a_failed_run_raises_a_noether_error_carrying_its_result(tmp_path):
    with pytest.raises(noether.Error, match="Newton") as failure:
        noether.run("double-pendulum", h=0.5, t_end=5, newton_max_iterations=1, refine_depth=0, out=tmp_path)
    assert failure.value.result.status == "failed"
    assert json.loads((tmp_path / "summary.json").read_text())["status"] == "failed"


INTERRUPTED = textwrap.dedent("""
    import sys, noether
    try:
        noether.run("chain2d", set={"n": 2000}, t_end=1000, h=0.01, out=sys.argv[1])
    except KeyboardInterrupt:
        print("KeyboardInterrupt")
""")

ADVANCE_INTERRUPTED = textwrap.dedent("""
    import noether
    model = noether.scenario("chain2d", n=2000)
    stepper = noether.Stepper(model)
    state = model.initial_state()
    stepper.initialize(state)
    try:
        print("stepping", flush=True)  # inside the try: the signal may come before advance starts
        stepper.advance(state, 0.01, 10**6)
    except KeyboardInterrupt:
        print("KeyboardInterrupt at step", state.step, flush=True)
""")


def interrupt(script, *arguments, ready):
    """Runs script in a new interpreter, sends SIGINT once `ready` is true, returns its output."""
    process = subprocess.Popen([sys.executable, "-c", script, *map(str, arguments)], stdout=subprocess.PIPE, text=True)
    ready(process)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0, out
    return out


def test_ctrl_c_stops_a_run_after_its_step_with_its_outputs_closed(tmp_path):
    def started(process):
        summary = tmp_path / "summary.json"
        for _ in range(600):
            if (tmp_path / "timeseries.csv.partial").exists() and summary.exists():
                if json.loads(summary.read_text())["status"] == "running":
                    return
            subprocess.run(["sleep", "0.05"], check=True)
        pytest.fail("the run did not start")

    out = interrupt(INTERRUPTED, tmp_path, ready=started)
    assert "KeyboardInterrupt" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["status"] == "interrupted" and "SIGINT" in summary["error"]
    assert (tmp_path / "timeseries.csv").exists() and (tmp_path / "final_state.json").exists()


def test_ctrl_c_stops_a_step_loop_between_steps():
    def stepping(process):
        assert process.stdout.readline().strip() == "stepping"

    out = interrupt(ADVANCE_INTERRUPTED, ready=stepping)
    assert "KeyboardInterrupt at step" in out

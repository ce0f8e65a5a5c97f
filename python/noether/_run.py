"""noether.run: `noether run` from Python, through the program's own run driver."""

import json
import os
import signal
import tempfile
import threading

import numpy as np

from . import _noether, _settings
from ._mechanism import Mechanism


class RunResult:
    """What a run gives back: its summary (summary.json as a dict), its time series (each column
    of timeseries.csv as a numpy array, by its name; read from the file on first use), its status,
    and the output directory when one was asked for (out=...; None otherwise: the run's files are
    then in a temporary directory that lives as long as this result)."""

    def __init__(self, summary, timeseries_path, directory, scratch=None):
        self.summary = summary
        self.directory = directory
        self._timeseries_path = timeseries_path
        self._timeseries = None
        self._scratch = scratch  # the temporary directory, removed with this result

    @property
    def timeseries(self):
        if self._timeseries is None:
            self._timeseries = read_timeseries(self._timeseries_path) if self._timeseries_path else {}
        return self._timeseries

    @property
    def status(self):
        return self.summary["status"]

    @property
    def ok(self):
        return self.summary["ok"]

    def __repr__(self):
        return f"<noether.RunResult {self.summary['scenario']!r} {self.status}: {self.summary['steps']} steps>"


def read_timeseries(path):
    """The columns of a timeseries.csv by name, each a numpy array of its rows."""
    with open(path, encoding="utf-8") as f:
        names = f.readline().rstrip("\n").split(",")
    values = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, dtype=np.float64)
    if values.size == 0:
        values = values.reshape(0, len(names))
    return {name: values[:, i] for i, name in enumerate(names)}


def _mechanism_scene(mechanism, texts):
    """The scene text and origin of a Mechanism run: h and t_end from the settings (the scene
    format requires them; the settings are applied over the scene as for a scene file)."""
    missing = [k for k in ("h", "t_end") if k not in texts]
    if missing:
        raise ValueError(f"{mechanism.origin()} holds no run settings: give {' and '.join(missing)} "
                         "(and any other setting of noether.run)")
    run = {k: float(texts[k]) for k in ("h", "t_end")}
    return mechanism.to_json(**run), mechanism.origin()


def run(source, **settings):
    """Runs source as `noether run` does and returns a RunResult.

    source: a scenario's name (noether.scenarios()), a scene file's path (.json), or a Mechanism
    (then h and t_end are required). settings: the CLI's run settings (noether.run_settings()) by
    name or by option (``t_end=1`` or ``t=1``, ``out="dir"``, ``stepper="em-ggl"``,
    ``set={"n": 100, "S": 3}`` for scenario and stepper parameters, ``vtk=False``).

    With out=DIR the run writes DIR as `noether run --out DIR` does, byte for byte; without, it
    writes into a temporary directory (no VTK drawings unless vtk=True) that the result keeps
    until it is deleted. The time series is read from timeseries.csv when first asked for. The GIL is released while it runs. Called from the main thread,
    SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the run after its step in progress, with its outputs
    closed; the signal then has its usual effect (KeyboardInterrupt for Ctrl-C). A run that fails
    (Newton, a refusal, an output error) raises noether.Error with the summary's error, the
    RunResult as its ``result``. Bad settings raise ValueError (TypeError for a keyword not in the
    table) before anything is written.
    """
    if not isinstance(source, (Mechanism, str, os.PathLike)):
        raise TypeError(f"noether.run takes a scenario's name, a scene file or a Mechanism, got a "
                        f"{type(source).__name__}: a Model (which may hold Python functions) is no scene; step it "
                        "with a Stepper")
    texts, assignments = _settings.to_texts(settings)
    out = texts.get("output_directory")
    scratch = None
    if out is None:
        scratch = tempfile.TemporaryDirectory(prefix="noether-run-")
        texts["output_directory"] = scratch.name
        texts.setdefault("vtk", "off")
    directory = texts["output_directory"]
    catch_signals = threading.current_thread() is threading.main_thread()
    if isinstance(source, Mechanism):
        text, origin = _mechanism_scene(source, texts)
        ending = _noether.run_scene_text(text, origin, texts, assignments, catch_signals)
    else:
        ending = _noether.run_source(os.fspath(source), texts, assignments, catch_signals)
    timeseries = os.path.join(directory, ending["timeseries"]) if ending["timeseries"] else None
    result = RunResult(json.loads(ending["summary"]), timeseries, out, scratch)
    if ending["status"] == "interrupted":
        signal.raise_signal(ending["interrupt_signal"])
    if ending["status"] == "failed":
        error = _noether.Error(ending["error"])
        error.result = result
        raise error
    return result

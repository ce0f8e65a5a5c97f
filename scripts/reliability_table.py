#!/usr/bin/env python3
"""Bad inputs given to Noether, each with the outcome it must get: the table of docs/reliability.md.

    python3 scripts/reliability_table.py [--check] [--write docs/reliability.md]
        [--noether build/bin/noether] [--api build/bin/reliability_api] [--jobs 2] [--work DIR]

Every case runs in its own process (the CLI, or tests/reliability/reliability_api.cpp for the C++
API) with a timeout, and is classified by what it got:

  usage    exit code 2, one line "noether: error: ..." naming the value, nothing written in --out
           (the directory not even created)
  failed   exit code 1, summary.json with "status": "failed", the failure cause (newton, refused,
           output, error) and the error that stderr prints, beside the time series it names; for an
           output error before the run began, no files
  refused  (C++ API) a std::invalid_argument or one of its kind (StepperRefusal,
           InconsistentInitialValues) whose message names the element and the value, or a
           std::logic_error for a call at a time it is not allowed (naming the object and why)
  ok       exit code 0, summary.json "completed" (for a fixed-step run t_reached = t_end = steps h)
           and timeseries.csv of whole rows, one per --every steps; or (C++ API) the calls returned
  interrupted  exit code 128 + the signal (129 SIGHUP, 130 SIGINT, 143 SIGTERM) sent once the run
           writes its rows, summary.json "interrupted" by that signal, timeseries.csv closed (no
           .partial left)
  unprinted    exit code 1 and one line "noether: error: writing to standard output failed (...)"
           after a run that completed (summary.json says so): only the printed summary is lost
  crash    a signal, a sanitizer report, "terminate called", an uncaught exception: always a defect
  hang     no exit within the timeout: always a defect

A case passes when its class is the expected one and its message (the first "noether: error:" line,
the stderr warning, or the exception's message) matches the expected pattern. --check exits 1 when
a case does not pass (the CTest test reliability_table runs it); --write regenerates the Markdown
table. Only python3 from Debian is needed.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 30.0
CRASH_MARKERS = re.compile(r"AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer|runtime error:|"
                           r"terminate called|Segmentation fault|core dumped|Assertion .* failed|what\(\):")


@dataclass
class Case:
    name: str
    area: str             # cli, scene, api
    input: str            # what is given, for the table
    expect: str           # usage, failed, refused, ok
    message: str = ""     # regex the message must match (re.search)
    cause: str = ""       # failed: the failure cause in summary.json
    argv: list = field(default_factory=list)  # cli and scene: the arguments after `noether`
    scene: object = None  # scene: the file's text (str) or a dict to write as JSON
    out: object = "fresh"  # "fresh": --out a new directory; None: no --out; callable(work) -> path
    open: str = ""        # a defect this case shows that is not fixed yet: what is wrong (docs/reliability.md lists it)
    setup: object = None  # callable(case_dir, noether) -> argv or None: prepares the case's directory (its working
                          # directory: a run to resume, a symlink) and gives the arguments (None: argv)
    stdout: str = ""      # "full": stdout on /dev/full; "closed_pipe": a pipe whose reader has gone
    signal: str = ""      # a signal sent once the run's timeseries.csv.partial exists (e.g. "SIGHUP")
    verify: object = None  # callable(case_dir) -> what is wrong after an exit 0 ("" when nothing)
    address_space: int = 0  # bytes: the process's RLIMIT_AS (ulimit -v), 0 for none


def run_args(scenario, *extra, t="0.03"):
    """`run SCENARIO` of a few steps on one thread, plus extra options."""
    args = ["run", scenario, "--threads", "1"]
    if t is not None:
        args += ["--t", t]
    return args + list(extra)


USAGE = r"^noether: error: "
# The exit codes of a run interrupted by a signal (128 + its number), with the signal's name.
INTERRUPTIONS = {129: "SIGHUP", 130: "SIGINT", 143: "SIGTERM"}


def cli_cases():
    c = []

    def add(name, input_, expect, message, argv, **kw):
        c.append(Case(name, "cli", input_, expect, message, argv=argv, **kw))

    add("no_command", "`noether`", "usage", USAGE + "no command given", [], out=None)
    add("unknown_command", "`noether frobnicate`", "usage", "unknown command 'frobnicate'", ["frobnicate"], out=None)
    add("unknown_option", "`--bogus`", "usage", "--bogus", run_args("double-pendulum", "--bogus"))
    add("missing_value", "`--h` followed by `--out DIR`", "usage", "--h: expects a value, got the option --out", run_args("double-pendulum", "--h"))
    add("missing_value_last", "`--t` as the last word", "usage", "--t", ["run", "double-pendulum", "--t"], out=None)
    add("set_missing_value", "`--set --t 1`", "usage", "--set: expects a value, got the option --t", ["run", "double-pendulum", "--set", "--t", "1"])
    add("unknown_scenario", "`run nope`", "usage", "unknown scenario 'nope'", run_args("nope"))
    add("unknown_stepper", "`--stepper rk4`", "usage", "'rk4'", run_args("double-pendulum", "--stepper", "rk4"))
    add("unknown_solver", "`--solver pardiso`", "usage", "pardiso", run_args("double-pendulum", "--solver", "pardiso"))
    add("solver_cholmod", "`--solver cholmod`", "usage", "cholmod", run_args("double-pendulum", "--solver", "cholmod"))
    add("h_not_a_number", "`--h abc`", "usage", "abc", run_args("double-pendulum", "--h", "abc"))
    add("h_nan", "`--h nan`", "usage", "nan", run_args("double-pendulum", "--h", "nan"))
    add("h_inf", "`--h inf`", "usage", "inf", run_args("double-pendulum", "--h", "inf"))
    add("h_negative", "`--h -0.01`", "usage", "-0.01", run_args("double-pendulum", "--h", "-0.01"))
    add("h_zero", "`--h 0`", "usage", r"h.*\b0\b", run_args("double-pendulum", "--h", "0"))
    add("h_huge", "`--h 1e300 --t 0.03`", "usage", r"not a whole number of steps: t_end / h = 3e-302", run_args("double-pendulum", "--h", "1e300"))
    add("h_denormal", "`--h 1e-320 --t 2`", "usage", r"t_end / h = inf steps", run_args("double-pendulum", "--h", "1e-320", t="2"))
    add("h_tiny_many_steps", "`--h 1e-9 --t 2`", "usage", r"2e\+09 steps.*--max-steps", run_args("double-pendulum", "--h", "1e-9", t="2"))
    add("t_not_whole_steps", "`--h 1 --t 0.6`", "usage", "not a whole number of steps", run_args("double-pendulum", "--h", "1", t="0.6"))
    add("t_negative", "`--t -1`", "usage", "-1", run_args("double-pendulum", t="-1"))
    add("t_huge", "`--t 1e300`", "usage", "1e\\+300", run_args("double-pendulum", t="1e300"))
    add("t_inf", "`--t inf`", "usage", "inf", run_args("double-pendulum", t="inf"))
    add("t_zero", "`--t 0`: the initial state only", "ok", "", run_args("double-pendulum", t="0"))
    add("every_zero", "`--every 0`", "usage", "--every.*0", run_args("double-pendulum", "--every", "0"))
    add("every_huge", "`--every 1000000` (more than the steps)", "ok", "", run_args("double-pendulum", "--every", "1000000"))
    add("threads_zero", "`--threads 0`", "usage", "--threads.*0", ["run", "double-pendulum", "--t", "0.03", "--threads", "0"])
    add("threads_negative", "`--threads -4`", "usage", "-4", ["run", "double-pendulum", "--t", "0.03", "--threads", "-4"])
    add("threads_huge", "`--threads 100000`", "ok", "", ["run", "double-pendulum", "--t", "0.03", "--threads", "100000"])
    add("threads_max", "`--threads 2147483647`", "ok", "", ["run", "double-pendulum", "--t", "0.03", "--threads", "2147483647"])
    add("max_steps_exponent", "`--max-steps 1e3`", "ok", "", run_args("double-pendulum", "--max-steps", "1e3"))
    add("threads_overflow", "`--threads 99999999999`", "usage", "--threads expects a whole number from 1 to 2147483647, got '99999999999'",
        ["run", "double-pendulum", "--t", "0.03", "--threads", "99999999999"])
    add("max_steps_exceeded", "`--max-steps 2` for 3 steps", "usage", r"3 steps.*limit of 2", run_args("double-pendulum", "--max-steps", "2"))
    add("max_steps_zero", "`--max-steps 0`", "usage", "--max-steps.*0", run_args("double-pendulum", "--max-steps", "0"))
    add("newton_tol_zero", "`--newton-tol 0`", "usage", r"tolerance.*\(0, 0\.001\].*\b0\b", run_args("double-pendulum", "--newton-tol", "0"))
    add("newton_tol_huge", "`--newton-tol 1e300`", "usage", r"1e\+300", run_args("double-pendulum", "--newton-tol", "1e300"))
    add("newton_tol_nan", "`--newton-tol nan`", "usage", "nan", run_args("double-pendulum", "--newton-tol", "nan"))
    add("newton_iterations_zero", "`--newton-max-iterations 0`", "usage", "0", run_args("double-pendulum", "--newton-max-iterations", "0"))
    add("newton_unknown", "`--newton quasi`", "usage", "quasi", run_args("double-pendulum", "--newton", "quasi"))
    add("refresh_without_modified", "`--newton-refresh 0.5` with full Newton", "usage", "--newton modified",
        run_args("double-pendulum", "--newton-refresh", "0.5"))
    add("refresh_one", "`--newton modified --newton-refresh 1`", "usage", r"strictly between 0 and 1.*got 1$",
        run_args("double-pendulum", "--newton", "modified", "--newton-refresh", "1"))
    add("refine_depth_31", "`--refine-depth 31`", "usage", "31", run_args("double-pendulum", "--refine-depth", "31"))
    add("refine_depth_negative", "`--refine-depth -1`", "usage", "-1", run_args("double-pendulum", "--refine-depth", "-1"))
    add("redundant_unknown", "`--redundant keep`", "usage", "keep", run_args("bricard", "--redundant", "keep"))
    add("redundant_refuse", "`bricard --redundant refuse`", "failed",
        r"1 constraint equation depends on the others along the motion: constraint '[^']+' row \d+ depends on .*\. Run with --redundant drop",
        run_args("bricard", "--redundant", "refuse"), cause="refused")
    add("set_unknown_key", "`double-pendulum --set mass=2`", "usage", r"'mass'.*m1", run_args("double-pendulum", "--set", "mass=2"))
    add("set_without_equals", "`--set m1`", "usage", "m1", run_args("double-pendulum", "--set", "m1"))
    add("set_run_setting", "`--set h=0.1`", "usage", "--h", run_args("double-pendulum", "--set", "h=0.1"))
    add("set_not_a_number", "`--set m1=heavy`", "usage", "heavy", run_args("double-pendulum", "--set", "m1=heavy"))
    add("set_nan", "`--set m1=nan`", "usage", r"'m1'.*nan", run_args("double-pendulum", "--set", "m1=nan"))
    add("set_inf", "`--set l2=inf`", "usage", r"'l2'.*inf", run_args("double-pendulum", "--set", "l2=inf"))
    add("set_other_steppers_key", "`--set S=3` with livens-em", "usage", "evi", run_args("double-pendulum", "--set", "S=3"))
    # One parameter out of range per scenario (docs/scenarios.md lists the ranges).
    for scenario, assignment, key in [
            ("singular-mass-spring", "m1=-1", "m1"), ("singular-mass-spring", "l10=0", "l10"),
            ("spring-pendulum", "l0=-1", "l0"), ("spring-pendulum", "r_0=0", "r_0"),
            ("double-pendulum", "l1=-1", "l1"), ("constrained-particles", "m2=0", "m2"),
            ("double-well", "a=-1", "a"), ("damped-oscillator", "zeta=1", "zeta"), ("damped-oscillator", "k=0", "k"),
            ("top", "density=-2700", "density"), ("double-fourbar", "l=-1", "l"), ("double-fourbar", "damping=-1", "damping"),
            ("rod-chain3d", "n=0", "n"), ("rod-chain3d", "n=2.5", "n"), ("bricard", "side=-0.1", "side"),
            ("chain2d", "n=0", "n"), ("chain3d", "joint=7", "joint"), ("nfourbar", "n=-3", "n"), ("grid2d", "k=0", "k"),
            ("slider-crank", "kp=-1", "kp")]:
        add(f"range_{scenario}_{assignment}", f"`{scenario} --set {assignment}`", "usage",
            f"scenario '{scenario}': parameter '{key}' must be", run_args(scenario, "--set", assignment, t="0"))
    # The slider-crank's drive: prescribed, or a PD motor (an actuator, which sem-vi does not take).
    add("slider_crank_drive_unknown", "`slider-crank --set drive=bogus`", "usage",
        r"--set drive expects one of prescribed, torque, got 'bogus'$", run_args("slider-crank", "--set", "drive=bogus"))
    add("slider_crank_torque", "`slider-crank --set drive=torque` (the crank turned by a PD motor)", "ok", "",
        run_args("slider-crank", "--set", "drive=torque"))
    add("slider_crank_torque_sem_vi", "`slider-crank --set drive=torque --stepper sem-vi`", "failed",
        r"^noether: error: sem-vi: takes no actuators, and the system has actuator 'crank_motor': .*; use livens-em, em-ggl",
        run_args("slider-crank", "--set", "drive=torque", "--stepper", "sem-vi"), cause="refused")
    add("size_beyond_memory", "`chain2d --set n=1e8`", "usage", r"MemAvailable|ulimit|cgroup", run_args("chain2d", "--set", "n=1e8", t="0"))
    # Steppers that need a constant invertible mass matrix, on the scenarios whose M is singular or depends on q.
    for stepper in ["ggl-vi", "em-ggl", "evi", "midpoint-vi", "sem-vi", "em-ggl4", "em-ggl6"]:
        for scenario, inertia, t in [("singular-mass-spring", "masses", "0.2"), ("spring-pendulum", "pendulum.inertia", "0.03"),
                                     ("rod-chain3d", "rod1.inertia", "0.03")]:
            if scenario == "spring-pendulum" and stepper in ("evi", "midpoint-vi", "sem-vi"):
                add(f"mass_{stepper}_{scenario}", f"`{scenario} --stepper {stepper}` (M(q), invertible where it runs)", "ok", "",
                    run_args(scenario, "--stepper", stepper, t=t))
                continue
            add(f"mass_{stepper}_{scenario}", f"`{scenario} --stepper {stepper}`", "failed",
                f"{stepper} needs a constant invertible mass matrix, but inertia '{inertia}' (is singular|depends on the configuration)",
                run_args(scenario, "--stepper", stepper, t=t), cause="refused")
    add("evi_S_zero", "`evi --set S=0`", "usage", r"evi: S .*from 1 to 64, got 0", run_args("double-pendulum", "--stepper", "evi", "--set", "S=0"))
    add("evi_S_fraction", "`evi --set S=2.5`", "usage", r"2\.5", run_args("double-pendulum", "--stepper", "evi", "--set", "S=2.5"))
    add("evi_omega_huge", "`evi --set omega=1e6`", "failed", r"omega", run_args("double-pendulum", "--stepper", "evi", "--set", "omega=1e6"),
        cause="refused")
    add("sem_vi_over_barrier", "`double-well --stepper sem-vi --set q0=0 --set v0=1.5 --t 1` (energy above the barrier: docs/sem_vi.md)",
        "failed", r"Newton failed at step \d+ \(from t = 0\.2", run_args("double-well", "--stepper", "sem-vi", "--set", "q0=0", "--set", "v0=1.5", t="1"),
        cause="newton")
    add("top_omega_overflow", "`top --set omega_p=1e200`", "failed", r"Newton failed at step 1 .*beyond the range of double precision",
        run_args("top", "--set", "omega_p=1e200", t="0.004"), cause="newton")
    add("top_density_overflow", "`top --set density=1e300 --set omega_p=1e14`", "usage",
        r"body 'top': the mass must be below 1e\+150 in magnitude, got 2\.6\d*e\+296: beyond the range of double precision",
        run_args("top", "--set", "density=1e300", "--set", "omega_p=1e14", t="0.004"))
    add("top_momentum_overflow", "`top --set density=1e140 --set omega_p=1e200`", "failed", r"state\.p is not finite",
        run_args("top", "--set", "density=1e140", "--set", "omega_p=1e200", t="0.004"), cause="refused")
    add("gravity_overflow", "`double-pendulum --set gravity=1e308`", "failed", r"max\|x\| = 7.6\d*e\+298: beyond the range of double precision",
        run_args("double-pendulum", "--set", "gravity=1e308"), cause="newton")
    add("velocity_overflow", "`double-pendulum --set omega1_0=1e200`", "failed", r"beyond the range of double precision",
        run_args("double-pendulum", "--set", "omega1_0=1e200"), cause="newton")
    add("stiffness_overflow", "`spring-pendulum --set EA=1e308`", "failed", r"Newton failed at step 1",
        run_args("spring-pendulum", "--set", "EA=1e308"), cause="newton")
    add("denormal_mass", "`constrained-particles --set m1=1e-320`", "usage",
        r"parameter 'm1' must be a normal number, at least 2\.2250738585072014e-308, got 1e-320",
        run_args("constrained-particles", "--set", "m1=1e-320"))
    add("denormal_damping", "`double-fourbar --set damping=1e-320`", "usage",
        r"parameter 'damping' must be a normal number, at least 2\.2250738585072014e-308 \(or 0\), got 1e-320",
        run_args("double-fourbar", "--set", "damping=1e-320"))
    add("newton_tol_denormal", "`--newton-tol 1e-320`", "usage",
        r"--newton-tol\) must be a normal number, at least 2\.2250738585072014e-308, got 1e-320",
        run_args("double-pendulum", "--newton-tol", "1e-320"))
    add("newton_refresh_denormal", "`--newton modified --newton-refresh 1e-320`", "usage",
        r"--newton-refresh\) must be a normal number, at least 2\.2250738585072014e-308, got 1e-320",
        run_args("double-pendulum", "--newton", "modified", "--newton-refresh", "1e-320"))
    add("parameter_before_run_length", "`double-well --set a=-1 --t 0.03` (0.03 is no whole number of steps of 0.05)",
        "usage", r"scenario 'double-well': parameter 'a' must be > 0, got -1$", run_args("double-well", "--set", "a=-1"))
    add("newton_gives_up", "`double-pendulum --h 5 --t 5 --refine-depth 0 --newton-max-iterations 2`", "failed",
        r"Newton|newton", run_args("double-pendulum", "--h", "5", "--refine-depth", "0", "--newton-max-iterations", "2", t="5"),
        cause="newton")
    add("newton_one_iteration", "`--newton-max-iterations 1` (the first Newton iterate meets the tolerance)", "ok", "",
        run_args("double-pendulum", "--newton-max-iterations", "1"))
    add("evi_omega_pi_over_h", "`evi --set omega=314.1592653589793` (pi / h for h = 0.01)", "failed",
        r"got omega = 314\.1592653589793 and h = 0\.01; take \|h\| < pi/omega, strictly: \|h\| <= 0\.009999999999999998",
        run_args("double-pendulum", "--stepper", "evi", "--set", "omega=314.1592653589793"), cause="refused")
    add("export_with_out", "`noether export double-pendulum --out d`", "usage", "--out", ["export", "double-pendulum"], )
    add("export_vtk_off", "`noether export double-pendulum --vtk off`", "usage",
        r"--vtk 'off': noether export writes a scene, not a run's files; it takes the options of run but --threads, "
        r"--parts, --out, --vtk and --checkpoint-every \(give this one to noether run\)$", ["export", "double-pendulum", "--vtk", "off"],
        out=None)
    add("export_newton_iterations_5000", "`noether export double-pendulum --newton-max-iterations 5000`", "usage",
        r"--newton-max-iterations expects a whole number from 1 to 1000, got '5000'$",
        ["export", "double-pendulum", "--newton-max-iterations", "5000"], out=None)
    add("chain3d_joint_fraction", "`chain3d --set joint=0.5`", "usage",
        r"scenario 'chain3d': parameter 'joint' must be one of spherical, revolute, got 0\.5$",
        run_args("chain3d", "--set", "joint=0.5", t="0"))
    add("chain3d_joint_word", "`chain3d --set joint=revolute`", "ok", "", run_args("chain3d", "--set", "joint=revolute"))
    add("plot_through_symlink", "`noether plot D` with D/plots a symlink to a directory outside D", "ok", "",
        ["plot", "D"], out=None, setup=_run_with_symlinked_plots, verify=_nothing_written_outside)
    # --out
    add("out_is_a_file", "`--out FILE` (a regular file)", "failed", r"a_file' \(Not a directory\)",
        run_args("double-pendulum"), out=lambda w: _file(w / "a_file"), cause="output")
    add("out_unwritable", "`--out /proc/noether-out` (cannot be created)", "failed", r"/proc/noether-out",
        run_args("double-pendulum"), out=lambda w: Path("/proc/noether-out"), cause="output")
    add("out_symlink_to_dir", "`--out LINK` (a symlink to a directory)", "ok", "",
        run_args("double-pendulum"), out=lambda w: _symlink(w / "link_to_dir", w / "real_dir", mkdir=True))
    add("out_dangling_symlink", "`--out LINK` (a symlink to nothing)", "failed", r"link_dangling' \(a symlink to '[^']*nowhere', which does not exist\)",
        run_args("double-pendulum"), out=lambda w: _symlink(w / "link_dangling", w / "nowhere"), cause="output")
    add("out_spaces_unicode", "`--out 'dir with spaces/ünïcødé ✓'`", "ok", "",
        run_args("double-pendulum"), out=lambda w: w / "dir with spaces" / "ünïcødé ✓")
    add("out_empty", "`--out ''`", "failed", "output directory ''", run_args("double-pendulum"), out=lambda w: "", cause="output")
    # noether resume: a run of double-pendulum (100 steps of 0.01, a checkpoint every 30) stopped
    # right after its last checkpoint (step 90, t = 0.9000000000000006), its checkpoint edited.
    edited = "`noether resume DIR`, DIR's checkpoint.json edited: "
    add("resume_h_doubled", edited + "`options.h` 0.01 -> 0.02", "usage",
        r"/state/step: is 90, at or past the run's last step, 50 \(t_end = 1, h = 0\.02\)",
        [], out=None, setup=_resume_edited('"h":0.01,', '"h":0.02,'))
    add("resume_t_end_below_state", edited + "`options.t_end` 1 -> 0.5 (below the state's 0.9)", "usage",
        r"/state/step: is 90, at or past the run's last step, 50 \(t_end = 0\.5, h = 0\.01\)",
        [], out=None, setup=_resume_edited('"t_end":1.0,', '"t_end":0.5,'))
    add("resume_key_twice", edited + '`"h":0.01,"h":0.02`', "usage", r"/options/h: the key 'h' is given twice in this object",
        [], out=None, setup=_resume_edited('"h":0.01,', '"h":0.01,"h":0.02,'))
    add("resume_t_shifted", edited + "`state.t` shifted by 5", "usage", r"/state/t: is 5\.9, but step 90 of h = 0\.01 ends at t = 0\.9",
        [], out=None, setup=_resume_edited('"t":0.9000000000000006,', '"t":5.9000000000000006,'))
    add("resume_other_stepper", edited + "`options.stepper` livens-em -> em-ggl", "usage",
        r"gives stepper = \"em-ggl\", but '[^']*summary\.json' says the outputs in '[^']*' were computed with stepper = \"livens-em\"",
        [], out=None, setup=_resume_edited('"stepper":"livens-em"', '"stepper":"em-ggl"'))
    add("resume_other_solver", edited + "`options.solver` auto -> umfpack", "usage",
        r"gives solver = \"umfpack\", but .* computed with solver = \"auto\"",
        [], out=None, setup=_resume_edited('"solver":"auto"', '"solver":"umfpack"'))
    stale = "run A (`--checkpoint-every 30`) completes in DIR; run B into DIR fails at step 1"
    add("resume_after_later_run", "`noether resume DIR`: " + stale, "usage", r"no checkpoint in '[^']*': ",
        [], out=None, setup=_resume_stale(False))
    add("resume_stale_checkpoint", "`noether resume DIR`: " + stale + "; A's checkpoint.json put back", "usage",
        r"checkpoint\.json' belongs to another run \(run_id [0-9a-f]{16}\) than the outputs in",
        [], out=None, setup=_resume_stale(True))
    add("resume_checkpoint_directory", "`noether resume DIR`, DIR/checkpoint.json a directory", "usage",
        r"checkpoint\.json' is a directory, not a file: there is no checkpoint to resume from", [], out=None,
        setup=_resume_checkpoint_directory)
    add("sighup", "SIGHUP to `chain2d --set n=20 --t 10000 --max-steps 1e6` once it writes its rows", "interrupted",
        r"^noether: error: interrupted by SIGHUP after step \d+", ["run", "chain2d", "--set", "n=20", "--t", "10000",
                                                                    "--max-steps", "1e6", "--threads", "1"], signal="SIGHUP")
    add("stdout_full", "`noether run double-pendulum ... > /dev/full`", "unprinted",
        r"writing to standard output failed \(No space left on device\)", run_args("double-pendulum"), stdout="full")
    add("stdout_closed_pipe", "`noether run double-pendulum ... | true` (the reader gone before the summary)", "unprinted",
        r"writing to standard output failed \(Broken pipe\)", run_args("double-pendulum"), stdout="closed_pipe")
    for case in c:
        case.argv = list(case.argv)
    return c


def _run_with_symlinked_plots(case_dir, noether):
    """A run's output directory D whose plots/ is a symlink to the empty directory `outside`."""
    subprocess.run([noether, "run", "double-pendulum", "--t", "0.03", "--threads", "1", "--vtk", "off", "--out",
                    str(case_dir / "D")], capture_output=True, check=True, timeout=TIMEOUT)
    (case_dir / "outside").mkdir()
    (case_dir / "D" / "plots").symlink_to(case_dir / "outside")


def _nothing_written_outside(case_dir):
    written = sorted(p.name for p in (case_dir / "outside").iterdir())
    if written:
        return "wrote through the symlink D/plots into outside/: " + ", ".join(written)
    plots = case_dir / "D" / "plots"
    return "" if plots.is_dir() and not plots.is_symlink() else "D/plots is not a directory of D"


def _file(path):
    path.write_text("not a directory\n")
    return path


def _symlink(link, target, mkdir=False):
    if mkdir:
        target.mkdir(exist_ok=True)
    if not link.is_symlink():
        link.symlink_to(target)
    return link


def _stopped_run(base, noether, out_name="run"):
    """double-pendulum, 100 steps of 0.01 with a checkpoint every 30, into base/out_name, then left as a
    run stopped right after its last checkpoint leaves it: the rows cut there, the summary interrupted."""
    out = base / out_name
    subprocess.run([noether, "run", "double-pendulum", "--t", "1", "--checkpoint-every", "30", "--threads", "1",
                    "--vtk", "off", "--out", str(out)], capture_output=True, check=True, timeout=TIMEOUT)
    length = json.loads((out / "checkpoint.json").read_text())["timeseries_length"]
    with open(out / "timeseries.csv", "r+b") as rows:
        rows.truncate(length)
    summary = out / "summary.json"
    summary.write_text(summary.read_text().replace('"status": "completed"', '"status": "interrupted"'))
    return out


def _resume_edited(old, new):
    """`resume` of a stopped run whose checkpoint.json has `old` replaced by `new`."""
    def setup(base, noether):
        out = _stopped_run(base, noether)
        checkpoint = out / "checkpoint.json"
        text = checkpoint.read_text()
        if old not in text:
            raise RuntimeError(f"the checkpoint holds no {old}")
        checkpoint.write_text(text.replace(old, new, 1))
        return ["resume", str(out)]
    return setup


def _resume_stale(put_back):
    """`resume` of a directory where run A wrote checkpoints and a later run B (none) failed at step 1;
    with put_back, A's checkpoint.json is written back beside B's outputs."""
    def setup(base, noether):
        out = _stopped_run(base, noether)
        a_checkpoint = (out / "checkpoint.json").read_bytes()
        subprocess.run([noether, "run", "double-pendulum", "--t", "1", "--newton-max-iterations", "1", "--refine-depth", "0", "--threads", "1",
                        "--vtk", "off", "--out", str(out)], capture_output=True, timeout=TIMEOUT)
        if put_back:
            (out / "checkpoint.json").write_bytes(a_checkpoint)
        return ["resume", str(out)]
    return setup


def _resume_checkpoint_directory(base, noether):
    out = _stopped_run(base, noether)
    (out / "checkpoint.json").unlink()
    (out / "checkpoint.json").mkdir()
    return ["resume", str(out)]


def pendulum():
    return json.loads((ROOT / "examples/scenes/pendulum.json").read_text())


def spatial():
    return json.loads((ROOT / "examples/scenes/spatial_double_pendulum.json").read_text())


def motor_pendulum():
    return json.loads((ROOT / "examples/scenes/motor_pendulum.json").read_text())


def scene_cases():
    c = []

    def add(name, input_, expect, message, scene, extra=(), **kw):
        argv = ["--threads", "1"] if extra is None else ["--t", "0.03", "--threads", "1", *extra]
        c.append(Case(name, "scene", input_, expect, message, scene=scene, argv=argv, **kw))

    def edit(base, f):
        s = base()
        f(s)
        return s

    def setitem(path, value):
        def f(s):
            d = s
            for k in path[:-1]:
                d = d[k]
            d[path[-1]] = value
        return f

    def delitem(path):
        def f(s):
            d = s
            for k in path[:-1]:
                d = d[k]
            del d[path[-1]]
        return f

    text = (ROOT / "examples/scenes/pendulum.json").read_text()
    add("ok_pendulum", "the example pendulum.json, unchanged", "ok", "", pendulum())
    add("empty_file", "an empty file", "usage", r"s\.json: .*(empty|JSON)", "")
    add("not_json", "`hello`", "usage", r"not valid JSON", "hello\n")
    add("truncated", "pendulum.json cut in the middle", "usage", r"not valid JSON", text[: len(text) // 2])
    add("top_level_array", "`[1, 2]`", "usage", r"object", "[1, 2]\n")
    add("version_2", '`"noether_scene": 2`', "usage", r"/noether_scene.*\b2\b", edit(pendulum, setitem(["noether_scene"], 2)))
    add("version_missing", "no `noether_scene`", "usage", r"noether_scene", edit(pendulum, delitem(["noether_scene"])))
    add("unknown_key_top", 'top-level key `"bodys"`', "usage", r"unknown key 'bodys'", edit(pendulum, setitem(["bodys"], [])))
    add("unknown_key_body", 'body key `"massa"`', "usage", r"/bodies/0: unknown key 'massa'", edit(pendulum, setitem(["bodies", 0, "massa"], 1)))
    add("unknown_key_joint", 'joint key `"axis"` on a revolute_planar', "usage", r"/joints/0: unknown key 'axis'",
        edit(pendulum, setitem(["joints", 0, "axis"], [0, 0, 1])))
    add("unknown_key_run", 'run key `"dt"`', "usage", r"/run: unknown key 'dt'", edit(pendulum, setitem(["run", "dt"], 0.01)))
    add("unknown_key_newton", 'run.newton key `"tol"`', "usage", r"/run/newton: unknown key 'tol'",
        edit(pendulum, setitem(["run", "newton"], {"tol": 1e-10})))
    add("unknown_key_probe", 'probe key `"bodies"`', "usage", r"/probes/0: unknown key 'bodies'", edit(pendulum, setitem(["probes", 0, "bodies"], [])))
    add("wrong_type_mass", '`"mass": "1"`', "usage", r"/bodies/0/mass: .*number", edit(pendulum, setitem(["bodies", 0, "mass"], "1")))
    add("wrong_type_bodies", '`"bodies": {}`', "usage", r"/bodies: .*array", edit(pendulum, setitem(["bodies"], {})))
    add("wrong_type_position", '`"position": [0.5]` on a planar body', "usage", r"/bodies/0/position", edit(pendulum, setitem(["bodies", 0, "position"], [0.5])))
    add("wrong_type_h", '`"h": "0.01"`', "usage", r"/run/h", edit(pendulum, setitem(["run", "h"], "0.01")))
    add("missing_run", "no `run`", "usage", r"run", edit(pendulum, delitem(["run"])))
    add("missing_h", "no `run.h`", "usage", r"/run.*\bh\b", edit(pendulum, delitem(["run", "h"])))
    add("missing_mass", "a body without `mass`", "usage", r"/bodies/0.*mass", edit(pendulum, delitem(["bodies", 0, "mass"])))
    add("missing_joint_type", "a joint without `type`", "usage", r"/joints/0.*type", edit(pendulum, delitem(["joints", 0, "type"])))
    add("duplicate_body", "two bodies named `bar`", "usage", r"bar", edit(pendulum, lambda s: s["bodies"].append(dict(s["bodies"][0]))))
    add("duplicate_element", "two joints named `pivot`", "usage", r"pivot", edit(pendulum, lambda s: s["joints"].append(dict(s["joints"][0]))))
    def rename(name):
        def f(s):
            s["bodies"][0]["name"] = s["joints"][0]["body_b"] = s["probes"][0]["body"] = name
        return f
    add("name_with_comma", "the body named `a,b`", "usage", r"/bodies/0: coordinate block 'a,b': a name must not contain a comma",
        edit(pendulum, rename("a,b")))
    add("name_with_newline", "the body named `a\\nb`", "usage", r"/bodies/0: coordinate block 'a", edit(pendulum, rename("a\nb")))
    add("name_with_quote", 'the joint named `pi"vot`', "usage", r"/joints/0: element 'pi\"vot': a name must not contain",
        edit(pendulum, setitem(["joints", 0, "name"], 'pi"vot')))
    add("probe_name_with_comma", "the probe named `tip,1`", "usage", r"/probes/0: probe 'tip,1': a name must not contain",
        edit(pendulum, setitem(["probes", 0, "name"], "tip,1")))
    add("name_unicode", "the body named `ü bar`", "ok", "", edit(pendulum, rename("ü bar")))
    add("name_with_c1_control", "the body named `a\\u0085b` (U+0085, a C1 control)", "usage",
        r"/bodies/0: coordinate block 'a\\u0085b': a name must not contain .*, and it holds \\u0085: names head",
        edit(pendulum, rename("a\u0085b")))
    add("name_with_nul", "the body named `a\\u0000b` (a NUL)", "usage",
        r"/bodies/0: coordinate block 'a\\u0000b': .*, and it holds \\u0000: names head the columns of the output files$",
        edit(pendulum, rename("a\u0000b")))
    add("name_with_escape", "the body named `a\\u001b[31mb` (an ESC sequence)", "usage",
        r"/bodies/0: coordinate block 'a\\u001b\[31mb': ", edit(pendulum, rename("a\u001b[31mb")))
    add("reference_with_escape", "a joint naming body `\\u001b[2J` (an ESC sequence)", "usage",
        r"/joints/0/body_b: no body named '\\u001b\[2J'; bodies are bar$", edit(pendulum, setitem(["joints", 0, "body_b"], "\u001b[2J")))
    add("name_collides_with_coordinate", "a point mass `bar.phi` beside the planar body `bar` (coordinate `phi.x`)", "usage",
        r"/bodies/1: the coordinate 'x' of block 'bar\.phi' and the coordinate 'phi\.x' of block 'bar' have one label, "
        r"bar\.phi\.x, which would head two output columns",
        edit(pendulum, lambda s: s["bodies"].append({"name": "bar.phi", "type": "point_mass", "mass": 1.0, "position": [0.0, 0.0]})))
    add("coordinates_named_twice", "a `coordinates` body with coordinates `[\"a\", \"a\"]`", "usage",
        r"/bodies/1: coordinate block 'c' names its coordinate 'a' twice",
        edit(pendulum, lambda s: s["bodies"].append({"name": "c", "type": "coordinates", "coordinates": ["a", "a"],
                                                     "position": [0.0, 0.0]})))
    add("probes_named_alike", "two probes named `tip`", "usage", r"/probes/1/name: probe 0 is named 'tip' too",
        edit(pendulum, lambda s: s["probes"].append({"name": "tip", "body": "bar"})))
    add("probe_named_like_a_column", "a probe named `q:bar.phi`", "usage",
        r"/probes/0/name: probe 'q:bar\.phi' would write the column q:bar\.phi\.x, which the coordinate bar\.phi\.x heads",
        edit(pendulum, setitem(["probes", 0, "name"], "q:bar.phi")))
    add("invariants_named_alike", "two `linear_momentum` invariants without names", "usage",
        r"/invariants/1/name: invariant 0 is named 'linear_momentum' too",
        edit(pendulum, setitem(["invariants"], [{"type": "linear_momentum"}, {"type": "linear_momentum"}])))
    add("joint_missing_body", "a joint naming body `bar7`", "usage", r"/joints/0/body_b: no body named 'bar7'",
        edit(pendulum, setitem(["joints", 0, "body_b"], "bar7")))
    add("probe_missing_body", "a probe naming body `nobody`", "usage", r"/probes/0.*nobody", edit(pendulum, setitem(["probes", 0, "body"], "nobody")))
    add("negative_mass", '`"mass": -1`', "usage", r"/bodies/0/mass: must be > 0, got -1", edit(pendulum, setitem(["bodies", 0, "mass"], -1)))
    add("subnormal_mass", '`"mass": 1e-320`', "usage", r"/bodies/0/mass: must be a normal number, at least 2\.2250738585072014e-308, got 1e-320",
        edit(pendulum, setitem(["bodies", 0, "mass"], 1e-320)))
    add("negative_inertia", '`"inertia": -0.1` (planar)', "usage", r"/bodies/0/inertia.*-0\.1", edit(pendulum, setitem(["bodies", 0, "inertia"], -0.1)))
    add("non_spd_inertia", "3D inertia [[1, 2, 0], [2, 1, 0], [0, 0, 1]]", "usage", r"/bodies/0.*arm",
        edit(spatial, setitem(["bodies", 0, "inertia"], [[1, 2, 0], [2, 1, 0], [0, 0, 1]])))
    add("triangle_inequality", "principal moments (0.1, 0.1, 1)", "usage", r"triangle inequality",
        edit(spatial, setitem(["bodies", 0, "inertia"], [0.1, 0.1, 1])))
    add("not_a_rotation", "`rotation` 2 I", "usage", r"/bodies/0.*rotation|orthonormal",
        edit(spatial, lambda s: (s["bodies"][0].pop("axis_angle"), s["bodies"][0].update(rotation=[[2, 0, 0], [0, 2, 0], [0, 0, 2]]))))
    add("nan_via_1e999", '`"mass": 1e999` (beyond the doubles)', "usage", r"s\.json: line 6, column \d+: not valid JSON \(number overflow parsing '1e999'", text.replace('"mass": 1.0', '"mass": 1e999'))
    add("nan_position", '`"position": [1e999, 0]`', "usage", r"s\.json: line 6, column \d+: not valid JSON \(number overflow parsing '1e999'", text.replace('"position": [0.5, 0.0]', '"position": [1e999, 0.0]'))
    add("huge_array", "a position of 1 000 000 entries", "usage", r"/bodies/0/position", edit(pendulum, setitem(["bodies", 0, "position"], [0.0] * 1000000)))
    add("deep_nesting", "100 000 nested arrays in `description`", "usage", r"s\.json", '{"noether_scene": 1, "description": ' + "[" * 100000 + "]" * 100000 + "}")
    add("far_off_constraints", "the bar's position moved by 10 m from its joint", "ok", r"warning: the initial positions violated constraint 'pivot'",
        edit(pendulum, setitem(["bodies", 0, "position"], [10.5, 0.0])))
    add("contradicting_joints", "the bar (1 m) pinned at both ends to points 10 m apart", "failed",
        r"violate constraint 'bar.orthonormality' row 0, dropped as dependent on the others, by 49.5",
        edit(pendulum, lambda s: s["joints"].append({"name": "pin2", "type": "revolute_planar", "point_a": [10.0, 0.0],
                                                     "body_b": "bar", "point_b": [0.5, 0.0]})), cause="refused")
    repeat_pivot = {"name": "fix", "type": "fixed_planar", "point_a": [0, 0], "axis_a": [1, 0], "body_b": "bar",
                    "point_b": [-0.5, 0], "axis_b": [1, 0]}
    add("repeated_joint", "a fixed_planar joint `fix` that agrees with the pivot (its rows 0, 1 repeat the pivot's)", "ok", "",
        edit(pendulum, lambda s: s["joints"].append(dict(repeat_pivot))))
    add("repeated_joint_refuse", "the same with `--redundant refuse`", "failed",
        r"2 constraint equations depend on the others along the motion: constraint 'fix' row 0 depends on "
        r"constraint 'pivot' row 0; constraint 'fix' row 1 depends on constraint 'pivot' row 1\. Run with --redundant drop",
        edit(pendulum, lambda s: s["joints"].append(dict(repeat_pivot))), extra=("--redundant", "refuse"), cause="refused")
    add("unreachable_distance", "a distance joint of 2 m from the pivot to the bar's free end (1 m away)", "failed",
        r"cannot be projected onto them: position projection", edit(pendulum, lambda s: s["joints"].append(
            {"name": "tether", "type": "distance", "point_a": [0.0, 0.0], "body_b": "bar", "point_b": [0.5, 0.0], "length": 2.0})),
        cause="refused")
    add("run_h_huge", '`"h": 1e300` (no --t)', "usage", r"/run: the end time is not a whole number of steps",
        edit(pendulum, setitem(["run", "h"], 1e300)), extra=None)
    add("h_zero", '`"h": 0`', "usage", r"/run/h: must be > 0, got 0", edit(pendulum, setitem(["run", "h"], 0)))
    add("newton_tol_huge", '`"newton": {"tolerance": 1e300}`', "usage", r"/run/newton/tolerance: must be in \(0, 0\.001\], got 1e\+300",
        edit(pendulum, setitem(["run", "newton"], {"tolerance": 1e300})))
    add("unknown_stepper", '`"stepper": "rk4"`', "usage", r"/run/stepper.*rk4", edit(pendulum, setitem(["run", "stepper"], "rk4")))
    add("every_zero", '`"output": {"every": 0}`', "usage", r"/output/every", edit(pendulum, setitem(["output"], {"every": 0})))
    add("output_directory_empty", '`"output": {"directory": ""}`', "usage", r"/output/directory: an empty text names no directory",
        edit(pendulum, setitem(["output"], {"directory": ""})), out=None)
    twice = " is given twice in this object; give it once"
    add("duplicate_key_mass", '`"mass": 7.0, "mass": 1.0`', "usage", r"s\.json: /bodies/0/mass: the key 'mass'" + twice,
        text.replace('"mass": 1.0', '"mass": 7.0, "mass": 1.0'))
    add("duplicate_key_run", "a second `run` object", "usage", r"s\.json: /run: the key 'run'" + twice,
        text.rstrip()[:-1] + ', "run": {"h": 0.02, "t_end": 1.0}}\n')
    add("duplicate_key_name", 'the body\'s `"name"` given twice (`"bar"`, then `"baz"`)', "usage",
        r"s\.json: /bodies/0/name: the key 'name'" + twice, text.replace('{"name": "bar"', '{"name": "bar", "name": "baz"'))
    add("zero_axis", "a revolute joint with axis (0, 0, 0)", "usage", r"/joints/1.*axis",
        edit(spatial, setitem(["joints", 1, "axis_a"], [0, 0, 0])))
    add("no_bodies", "a scene with no bodies, joints, forces or probes", "usage|failed", r"bod|coordinates",
        {"noether_scene": 1, "run": {"h": 0.01, "t_end": 0.03}})
    add("gravity_unknown_body", "gravity on body `ghost`", "usage", r"/forces/0.*ghost",
        edit(pendulum, setitem(["forces", 0, "bodies"], ["ghost"])))
    add("profile_table_unsorted", "a torque profile table with times (1, 0)", "usage", r"/forces/\d+/profile",
        edit(spatial, setitem(["forces", 3, "profile"], {"type": "table", "times": [1, 0], "values": [0, 1]})))
    # Actuators (docs/scenes.md, "actuators"), on motor_pendulum.json's PD motor `motor`.
    add("ok_motor_pendulum", "the example motor_pendulum.json, unchanged", "ok", "", motor_pendulum())
    add("actuator_unknown_body", "motor_pendulum.json's actuator on body `ghost`", "usage",
        r"/actuators/0/body_b: no body named 'ghost'; bodies are bar$",
        edit(motor_pendulum, setitem(["actuators", 0, "body_b"], "ghost")))
    add("actuator_type_unknown", 'motor_pendulum.json\'s actuator of type `"screw"`', "usage",
        r"/actuators/0/type: unknown value 'screw'; accepted: revolute, prismatic$",
        edit(motor_pendulum, setitem(["actuators", 0, "type"], "screw")))
    add("actuator_gain_negative", 'motor_pendulum.json\'s `"kp": -400`', "usage", r"/actuators/0/law/kp: must be >= 0, got -400$",
        edit(motor_pendulum, setitem(["actuators", 0, "law", "kp"], -400)))
    add("actuator_law_unknown", 'motor_pendulum.json\'s law of type `"pid"`', "usage",
        r"/actuators/0/law/type: unknown value 'pid'; accepted: profile, pd$",
        edit(motor_pendulum, setitem(["actuators", 0, "law", "type"], "pid")))
    add("actuator_reference_missing", "motor_pendulum.json's PD law without `reference`", "usage",
        r"/actuators/0/law/reference: is missing: r\(t\), the reference of the coordinate$",
        edit(motor_pendulum, delitem(["actuators", 0, "law", "reference"])))
    add("actuator_reference_unsorted", "motor_pendulum.json's reference table with times (0, 1, 0.5)", "usage",
        r"/actuators/0/law/reference: the table's times must increase strictly, but time 2 \(0\.5\) follows 1$",
        edit(motor_pendulum, setitem(["actuators", 0, "law", "reference"], {"type": "table", "times": [0, 1, 0.5], "values": [0, 1, 2]})))
    add("actuator_profile_overflow", "a motor torque profile 1e308 + 1e308 sin(t + pi/2), beyond the doubles at t = 0 "
        "(the format holds no NaN or infinity: a profile is non-finite only where it is evaluated)", "failed",
        r"Newton failed at step 1 .*: the residual is not finite: actuator 'motor' gives a non-finite residual entry",
        edit(motor_pendulum, setitem(["actuators", 0, "law"], {"type": "profile", "profile": {
            "type": "sine", "amplitude": 1e308, "angular_frequency": 1.0, "phase": 1.5707963267948966, "offset": 1e308}})),
        cause="newton")
    add("actuator_sem_vi", 'motor_pendulum.json with `"stepper": "sem-vi"`', "failed",
        r"^noether: error: sem-vi: takes no actuators, and the system has actuator 'motor': .*; use livens-em, em-ggl",
        edit(motor_pendulum, setitem(["run", "stepper"], "sem-vi")), cause="refused")
    add("absurd_position", '`"position": [1e308, 0]`', "failed",
        r"the position projection from the initial bar\.phi\.x = 1e\+308 cannot meet them within round-off: after it, "
        r"constraint 'pivot' row 0 has \|g\| = 0\.5", edit(pendulum, setitem(["bodies", 0, "position"], [1e308, 0.0])),
        cause="refused")
    add("axis_huge", "a revolute joint with axis (0, 1e300, 0)", "ok", "", edit(spatial, setitem(["joints", 1, "axis_a"], [0, 1e300, 0])),
        extra=["--every", "1"])
    add("axis_tiny", "a revolute joint with axis (0, 1e-300, 0)", "ok", "", edit(spatial, setitem(["joints", 1, "axis_a"], [0, 1e-300, 0])),
        extra=["--every", "1"])
    add("mass_overflow", '`"mass": 1e308`', "usage",
        r"/bodies/0: body 'bar': the mass must be below 1e\+150 in magnitude, got 1e\+308: beyond the range of double precision",
        edit(pendulum, setitem(["bodies", 0, "mass"], 1e308)))
    add("inertia_overflow", '`"inertia": [1e308, 1e308, 1e308]` (3D)', "usage",
        r"/bodies/0: body 'arm': the inertia tensor entry \(0, 0\) must be below 1e\+150 in magnitude, got 1e\+308",
        edit(spatial, setitem(["bodies", 0, "inertia"], [1e308, 1e308, 1e308])))
    add("spring_coincident", "a spring of rest length 0.3 from the world point (0.5, 0) to the bar's origin, there",
        "failed", r"at the initial positions, potential 'sp': the spring's two points coincide \(length 0\)",
        edit(pendulum, lambda s: s["forces"].append({"name": "sp", "type": "spring", "point_a": [0.5, 0.0], "body_b": "bar",
                                                     "point_b": [0.0, 0.0], "stiffness": 10.0, "rest_length": 0.3})),
        cause="refused")
    add("damper_coincident", "an axial damper from the world point (0.5, 0) to the bar's origin, there", "failed",
        r"at the initial positions, dissipation 'dp': the axial damper's two points coincide \(length 0\)",
        edit(pendulum, lambda s: s["forces"].append({"name": "dp", "type": "damper", "point_a": [0.5, 0.0], "body_b": "bar",
                                                     "point_b": [0.0, 0.0], "damping": 1.0, "axial": True})),
        cause="refused")
    coordinates = {"noether_scene": 1,
                   "bodies": [{"name": "x", "type": "coordinates", "coordinates": ["a", "b"], "position": [0.1, 0.2]}],
                   "inertias": [{"name": "m", "bodies": ["x"], "matrix": [[1, 0], [0, 0]]}],
                   "forces": [{"name": "pot", "type": "polynomial", "body": "x", "coordinate": "a", "coefficients": [0, 0, 1]}],
                   "run": {"h": 0.01, "t_end": 0.03}}
    add("massless_coordinate", "a `coordinates` body (a, b) whose inertia gives b no mass, nothing else acting on b", "failed",
        r"klu: the matrix is singular\): the column of coordinate x\.b is zero", coordinates, cause="newton")
    add("inertias_body_twice", "an `inertias` entry listing body `x` twice", "usage",
        r"/inertias/0/bodies/1: body 'x' is listed twice \(also at bodies\[0\]\)",
        dict(coordinates, inertias=[{"name": "m", "bodies": ["x", "x"], "matrix": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]}]))
    many_bodies = {"noether_scene": 1, "run": {"h": 0.01, "t_end": 0.01},
                   "bodies": [{"name": f"b{i}", "type": "planar", "mass": 1, "inertia": 0.1, "position": [0, 0]}
                              for i in range(300000)]}
    add("text_beyond_memory", "300 000 planar bodies (25 MB of JSON) under `ulimit -v 400000`", "usage",
        r"reading the scene '[^']*s\.json' \(25 MB of JSON\) needs about 0\.21 GB \(8 bytes per byte of JSON\), and "
        r"[0-9.]+ GB are available: choose a smaller size \(the limit is the address-space limit", many_bodies,
        address_space=400_000_000)
    add("beyond_memory", "300 000 planar bodies under `ulimit -v 3000000`", "usage",
        r"s\.json: the model of 300000 bodies needs about 4\.2 GB \(26 KB per rigid body, 14 KB per other body\), and [0-9.]+ GB "
        r"are available: choose a smaller size \(the limit is the address-space limit RLIMIT_AS \(ulimit -v\)\)",
        many_bodies, address_space=3_000_000_000)
    add("missing_file", "`noether run missing.json`", "usage", r"cannot read the scene file '[^']*missing\.json' \(No such file or directory\)", None)
    add("directory_named_json", "`noether run DIR.json` (a directory)", "usage", r"dir\.json': it is a directory", "DIRECTORY")
    return c


def api_cases(api):
    listed = [json.loads(line) for line in subprocess.run([api, "--list"], capture_output=True, text=True, check=True).stdout.splitlines()]
    expectations = {
        "function_constraint_wrong_size": ("refused", r"constraint 'circle': ConstraintFunction::value returned 1 entry, expected 2 entries"),
        "function_potential_wrong_size": ("refused", r"potential 'quartic': PotentialFunction::gradient returned 1 entry, expected 2"),
        "function_potential_nan": ("failed", r"potential 'quartic' gives a non-finite residual entry \(nan\)"),
        "function_constraint_nan": ("refused", r"constraint 'circle' row 0 has \|g\| = nan .*which no projection mends"),
        "function_potential_inf_at_start": ("failed", r"potential 'quartic' gives a non-finite residual entry"),
        "sem_vi_at_rest": ("ok", r"step to t = 0.01"),
        "actuator_profile_nan": ("refused", r"^actuator 'motor': the profile u\(t\): a profile value is not finite \(nan\)$"),
        "actuator_pd_reference_inf": ("refused", r"^actuator 'motor': the reference r\(t\): a profile value is not finite \(inf\)$"),
        "actuator_pd_gain_negative": ("refused", r"^actuator 'motor': the gain kd = -1 must be finite and non-negative$"),
        "actuator_law_nan": ("failed", r"^Newton failed at step 1 .*: the residual is not finite: actuator 'motor' gives a "
                             r"non-finite residual entry \(nan\)"),
        "constant_inertia_nan": ("refused", r"inertia 'mass': the mass matrix has a non-finite entry"),
        "planar_body_nan_inertia": ("refused", r"body 'bar': the moment of inertia is nan"),
        "function_constraint_missing_function": ("refused", r"constraint 'circle'.*Jacobian"),
        "function_potential_size_mismatch": ("refused", r"quartic.*3"),
        "constant_inertia_indefinite": ("refused", r"inertia 'mass'.*(semidefinite|negative)"),
        "constant_inertia_nonsymmetric": ("refused", r"inertia 'mass'.*symmetric"),
        "rigid_body_negative_mass": ("refused", r"bar.*-1"),
        "rigid_body_triangle_inequality": ("refused", r"bar.*triangle inequality"),
        "rigid_body_nan_position": ("refused", r"bar.*(nan|finite)"),
        "rigid_body_not_a_rotation": ("refused", r"bar.*(orthonormal|rotation)"),
        "point_mass_zero": ("refused", r"ball.*\b0\b"),
        "rigid_body_subnormal_mass": ("refused", r"body 'bar': the mass must be a normal number, at least 2\.2250738585072014e-308, got 1e-320"),
        "planar_body_subnormal_inertia": ("refused", r"body 'bar': the moment of inertia must be a normal number, at least 2\.2250738585072014e-308 \(or 0\), got 1e-320"),
        "constant_inertia_subnormal": ("refused", r"inertia 'mass': the mass matrix entry \(1, 1\) must be a normal number, at least 2\.2250738585072014e-308 \(or 0\), got 1e-320"),
        "duplicate_block_name": ("refused", r"'p'"),
        "colliding_coordinate_labels": ("refused", r"^the coordinate 'x' of block 'bar\.phi' and the coordinate 'phi\.x' of "
                                                   r"block 'bar' have one label, bar\.phi\.x, which would head two output columns"),
        "coordinate_named_twice": ("refused", r"^coordinate block 'c' names its coordinate 'a' twice"),
        "name_with_nul": ("refused", r"^coordinate block 'a\\u0000b': .*names head the columns of the output files$"),
        "duplicate_element_name": ("refused", r"'quartic'"),
        "null_element": ("refused", r"null"),
        "block_of_another_mechanism": ("refused", r"element 'foreign' refers to block id \d+ of another system"),
        "step_after_mechanism_destroyed": ("ok", r"stepped to step 3"),
        "initial_q_nan": ("refused", r"state.q is not finite at bar1.phi.y \(nan\)"),
        "initial_v_inf": ("refused", r"em-ggl: state.v is not finite at bar0.phi.x \(inf\)"),
        "initial_off_constraints": ("refused", r"initial positions are off the constraints: constraint '[^']+' row \d+ has \|g\| = 0.001"),
        "step_before_initialize": ("refused", r"call initialize\(state\) first"),
        "state_q_wrong_size": ("refused", r"state.q holds 17 entries, the system has 18 coordinates"),
        "state_lambda_wrong_size": ("refused", r"ggl-vi: state.lambda holds 0 entries"),
        "state_t_inf": ("refused", r"state.t must be finite, got inf"),
        "h_zero": ("refused", r"the time step h must be finite and non-zero, got 0"),
        "h_nan": ("refused", r"midpoint-vi: the time step h must be finite and non-zero, got nan"),
        "h_inf": ("refused", r"em-ggl: the time step h must be finite and non-zero, got inf"),
        "h_negative": ("ok", r"step 1 to t = -0.01"),
        "h_huge": ("failed", r"step 1 \(t = 0 -> 1e\+06\)"),
        "solver_cholmod": ("refused", r"livens-em: CHOLMOD needs a symmetric positive definite matrix"),
        "newton_tolerance_zero": ("refused", r"tolerance.*\b0\b"),
        "newton_max_iterations_zero": ("refused", r"iterations.*\b0\b"),
        "refine_depth_31": ("refused", r"31"),
        "unknown_scheme_parameter": ("refused", r"livens-em.*'S'"),
        "evi_S_zero": ("refused", r"evi.*S.*\b0\b"),
        "evi_S_fraction": ("refused", r"evi.*2\.5"),
        "ggl_vi_singular_mass": ("refused", r"ggl-vi needs a constant invertible mass matrix, but inertia 'mass' is singular"),
        "projection_far_off": ("ok", r"projected, max\|dq\| = "),
        "add_after_stepper": ("refused", r"element 'late' added to a system that stepper 'livens-em' uses: a stepper sizes "
                              r"its equations from the system when made, and would leave it out"),
        "step_from_two_threads": ("refused", r"^livens-em: step\(\) called while step\(\) runs on this stepper: a Stepper is "
                                  r"one thread's at a time; make one stepper per thread"),
        "thread_limit_huge": ("ok", r"bounded at \d+ threads, the cores available"),
    }
    cases = []
    for entry in listed:
        name = entry["case"]
        if name.startswith("mass_function_indefinite/"):
            # Every stepper of the registry: one that needs a constant M refuses M(q) when made, one that
            # takes M(q) refuses the indefinite M(q) at the initial configuration.
            expected = ("refused", "^" + re.escape(name.split("/")[1]) + r" needs a constant invertible mass matrix, but "
                        r"inertia 'pendulum' depends on the configuration|inertia 'pendulum': M\(q\) at the initial "
                        r"configuration has the negative eigenvalue -1")
        elif name.startswith("velocity_overflow/"):
            expected = ("failed", r"gives a non-finite residual entry \(inf\) at an iterate of max\|x\| = .*beyond the range of double precision")
        elif name.startswith("bricard_not_dropped/"):
            expected = ("refused", "^" + re.escape(name.split("/")[1]) + r": 1 constraint equation depends on the others along "
                        r"the motion: constraint 'J\d' row \d depends on .*\. Every step's Newton matrix would be singular: drop it with "
                        r"structural_redundancy and without_equations")
        elif name.startswith("empty_system/"):
            expected = ("refused", name.split("/")[1] + r": the system has no coordinates")
        else:
            expected = expectations.pop(name, ("unknown", ""))
        cases.append(Case(name, "api", entry["input"], expected[0], expected[1], argv=[api, name], out=None,
                          open=expected[2] if len(expected) > 2 else ""))
    for name in expectations:
        cases.append(Case(name, "api", "(listed here, not by reliability_api --list)", "missing", "", argv=[api, name], out=None))
    return cases


@dataclass
class Result:
    got: str              # usage, failed, refused, ok, crash, hang, other
    rc: object
    first_line: str       # the first line of stderr (CLI) or the exception's message (API)
    message: str          # the line the expectation is matched against
    summary: str          # "-" when no summary.json, else its status (and failure cause)
    detail: str = ""


def prepare(case, work, noether):
    """The argv to run and the output directory (or None)."""
    base = work / case.area / case.name.replace("/", "_")
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    given = case.setup(base, noether) if case.setup else None
    argv = list(case.argv) if given is None else given
    if case.area == "scene":
        path = base / "s.json"
        if case.scene is None:
            path = base / "missing.json"
        elif case.scene == "DIRECTORY":
            path = base / "dir.json"
            path.mkdir()
        elif isinstance(case.scene, str):
            path.write_text(case.scene)
        else:
            path.write_text(json.dumps(case.scene))
        argv = ["run", str(path)] + argv
    out = None
    if case.out == "fresh":
        out = base / "out"
    elif callable(case.out):
        out = case.out(base)
    if out is not None:
        argv += ["--out", str(out)]
    return argv, out


def execute(case, command, out, cwd):
    """Runs command as the case asks (its stdout, its signal); a CompletedProcess (stdout b"" when not
    captured). Raises subprocess.TimeoutExpired."""
    if case.signal:
        # The signal's default action restored (an ignored one, under nohup, would stay ignored).
        command = ["env", "--default-signal=" + case.signal.removeprefix("SIG")] + command
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd) as p:
            deadline = time.monotonic() + TIMEOUT
            while not (Path(out) / "timeseries.csv.partial").exists() and p.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            p.send_signal(signal.Signals[case.signal])
            try:
                stdout, stderr = p.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                p.kill()
                raise
            return subprocess.CompletedProcess(command, p.returncode, stdout, stderr)
    if case.stdout == "full":
        with open("/dev/full", "wb") as full:
            p = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, timeout=TIMEOUT, cwd=cwd)
    elif case.stdout == "closed_pipe":  # the child starts with SIGPIPE at its default action, as from a shell
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            p = subprocess.run(command, stdout=write_end, stderr=subprocess.PIPE, timeout=TIMEOUT, cwd=cwd)
        finally:
            os.close(write_end)
    else:
        return subprocess.run(command, capture_output=True, timeout=TIMEOUT, cwd=cwd, preexec_fn=limits(case))
    p.stdout = b""
    return p


def limits(case):
    """The function that sets the case's resource limits in the child (None when it sets none)."""
    if not case.address_space:
        return None
    import resource
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (case.address_space, resource.RLIM_INFINITY))


def run(case, noether, work):
    argv, out = prepare(case, work, noether)
    command = argv if case.area == "api" else [noether] + argv
    case_dir = work / case.area / case.name.replace("/", "_")
    try:
        p = execute(case, command, out, case_dir)
    except subprocess.TimeoutExpired:
        return Result("hang", None, "", "", "-", f"no exit after {TIMEOUT:.0f} s")
    stdout = p.stdout.decode("utf-8", "replace")
    stderr = p.stderr.decode("utf-8", "replace")
    lines = stderr.splitlines()
    first = lines[0] if lines else ""
    if p.returncode < 0 or CRASH_MARKERS.search(stderr) or (p.returncode >= 128 and p.returncode not in INTERRUPTIONS):
        sig = f"signal {signal.Signals(-p.returncode).name}" if p.returncode < 0 else f"exit {p.returncode}"
        return Result("crash", p.returncode, first, first, "-", sig)
    if case.area == "api":
        try:
            line = json.loads(stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return Result("other", p.returncode, first, first, "-", "no JSON line: " + stdout[:200])
        if line["outcome"] == "returned":
            return Result("ok", p.returncode, "", line["detail"], "-", line["detail"])
        refusal = line["exception"] in ("std::invalid_argument", "StepperRefusal", "InconsistentInitialValues", "std::logic_error")
        got = "refused" if refusal else "failed"
        return Result(got, p.returncode, line["message"], line["message"], "-", line["exception"])
    summary = None
    summary_text = "-"
    summary_path = Path(out) / "summary.json" if out else None  # "" (--out '') names no directory
    if summary_path is not None and summary_path.is_file():
        try:
            summary = json.loads(summary_path.read_text())
            summary_text = summary.get("status", "?")
            if summary.get("failure"):
                summary_text += f" ({summary['failure'].get('cause')})"
        except ValueError:
            summary_text = "unreadable"
    error_lines = [l for l in lines if l.startswith("noether: error: ")]
    warning_lines = [l for l in lines if l.startswith("noether: warning: ")]
    message = error_lines[0] if error_lines else (warning_lines[0] if warning_lines else first)
    if p.returncode == 2:
        if case.out == "fresh" and Path(out).exists():
            return Result("other", 2, first, message, summary_text, "a usage error that created the output directory")
        got = "usage" if summary is None and len(error_lines) == 1 and lines[0] == error_lines[0] else "other"
        return Result(got, 2, first, message, summary_text, "" if got == "usage" else "usage exit with a summary or without one error line")
    if p.returncode in INTERRUPTIONS:
        name = INTERRUPTIONS[p.returncode]
        if summary is None or summary.get("status") != "interrupted" or summary.get("interrupted_by") != name:
            return Result("other", p.returncode, first, message, summary_text, f"exit {p.returncode} without a summary interrupted by {name}")
        if summary.get("timeseries") != "timeseries.csv" or (Path(out) / "timeseries.csv.partial").exists():
            return Result("other", p.returncode, first, message, summary_text, "an interrupted run that left its time series partial")
        return Result("interrupted", p.returncode, first, message, summary_text, name)
    if p.returncode == 1:
        unprinted = bool(error_lines) and error_lines[0].startswith("noether: error: writing to standard output failed")
        if unprinted and len(error_lines) == 1 and (out is None or (summary or {}).get("status") == "completed"):
            return Result("unprinted", 1, first, message, summary_text, "stdout")
        if summary is None and case.cause == "output":
            return Result("failed", 1, first, message, summary_text, "output")
        if summary is None or summary.get("status") != "failed":
            return Result("other", 1, first, message, summary_text, "exit 1 without a failed summary")
        cause = summary["failure"]["cause"]
        if not error_lines or summary.get("error", "") not in error_lines[0]:
            return Result("other", 1, first, message, summary_text, "the summary's error is not the one on stderr")
        series = summary.get("timeseries")
        if cause != "output" and (series is None or not (Path(out) / series).is_file()):
            return Result("other", 1, first, message, summary_text, f"a failed run without its time series ({series})")
        return Result("failed", 1, first, message, summary_text, cause)
    if p.returncode == 0:
        problem = case.verify(case_dir) if case.verify else ""
        if problem:
            return Result("other", 0, first, message, summary_text, problem)
        if out is not None:
            if summary is None or summary.get("status") != "completed" or summary.get("ok") is not True:
                return Result("other", 0, first, message, summary_text, "exit 0 without a completed summary")
            claims = summary_claims_too_much(summary) or time_series_disagrees(summary, Path(out), every_of(case))
            if claims:
                return Result("other", 0, first, message, summary_text, claims)
        return Result("ok", 0, first, message, summary_text, f"{summary['steps']} steps" if summary else "")
    return Result("other", p.returncode, first, message, summary_text, f"exit {p.returncode}")


def summary_claims_too_much(summary):
    """A completed fixed-step run must have reached t_end in t_end / h steps."""
    if summary.get("stepper") == "sem-vi":
        return "" if summary["t_reached"] >= summary["t_end"] else "completed before t_end"
    h, t_end, steps, t_reached = summary["h"], summary["t_end"], summary["steps"], summary["t_reached"]
    if t_reached is None or abs(t_reached - t_end) > 1e-9 * max(1.0, abs(t_end)) or abs(steps * h - t_end) > 1e-9 * max(1.0, abs(t_end)):
        return f"completed with steps {steps}, t_reached {t_reached} for t_end {t_end}, h {h}"
    return ""


def every_of(case):
    """--every of the case (1 when not given)."""
    return int(float(case.argv[case.argv.index("--every") + 1])) if "--every" in case.argv else 1


def time_series_disagrees(summary, out, every):
    """The time series of a completed run: whole rows, steps 0, every, 2 every, ... (docs/output.md), the
    last at t_reached when steps is a multiple of every."""
    path = out / str(summary.get("timeseries"))
    if summary.get("timeseries") != "timeseries.csv" or not path.is_file():
        return f"completed without timeseries.csv (summary names {summary.get('timeseries')})"
    text = path.read_text()
    rows = text.splitlines()
    if not text.endswith("\n") or len(rows) < 2:
        return "timeseries.csv ends in a torn row or has no rows"
    if len(rows) - 1 != summary["steps"] // every + 1:
        return f"timeseries.csv has {len(rows) - 1} rows for {summary['steps']} steps written every {every}"
    last_t = float(rows[-1].split(",")[0])
    if summary["steps"] % every == 0 and abs(last_t - summary["t_reached"]) > 1e-12 * max(1.0, abs(last_t)):
        return f"timeseries.csv ends at t = {last_t}, the summary says t_reached {summary['t_reached']}"
    return ""


def passes(case, result):
    expected = case.expect.split("|")
    if result.got not in expected:
        return False
    if case.cause and result.got == "failed" and case.area != "api" and result.detail != case.cause:
        return False
    return not case.message or re.search(case.message, result.message) is not None


# Defects the table found and that are fixed, each with the test that failed before the fix.
FIXED = [
    ("scene/name_with_comma", "a body named `a,b` (or with a quote or a newline) ran, ok, and wrote the header "
     "`q:a,b.phi.x` into timeseries.csv: one column more than each row, every later column misnamed", "refused where the "
     "name is given (System::add_block and add, the scene's probes): `require_column_name`", "`names that would split "
     "or shift output columns are refused` (tests/engine/test_system.cpp)"),
    ("api/function_constraint_nan", "a FunctionConstraint that is NaN at the initial values was refused with the advice "
     "to project them first (project_initial_state), which cannot mend a NaN", "'a residual that is not finite at finite "
     "initial values is a fault of the constraint's functions ...'", "`a constraint that is not finite at the initial "
     "values is refused as such` (tests/solvers/test_initial_values.cpp)"),
    ("api/velocity_overflow/livens-em", "Stepper::step of a 3D chain at a tip speed of 1e200 m/s (every stepper) returned "
     "a state with g(q) = inf and no error: rows inf / inf = NaN in the scaled residual were replaced by later finite "
     "rows, so Newton took the predictor as converged (0 iterations); `noether run` caught it only after the step",
     "NewtonError naming the overflow", "`a step whose residual overflows fails, whatever rows follow the non-finite one`"
     " (tests/steppers/test_error_blame.cpp)"),
    ("cli/h_huge", "`--h 1e300 --t 0.03` completed 0 steps with ok true and t_reached 0 (t_end / h = 3e-302 passed as "
     "0 steps within rounding)", "refused: 0 steps reach t_end only when t_end = 0", "`the run length is a whole number of steps h`"
     " (tests/apps/test_runner.cpp)"),
    ("scene/contradicting_joints", "a bar pinned at both ends to points 10 m apart ran, completed, ok true, with "
     "max|g| = 49.5: the contradicting row was dropped as redundant and the projection stretched the bar's director",
     "refused (cause refused) when a dropped equation is not met after the projection", "`a run whose constraints have no "
     "common solution is refused` (tests/apps/test_scene_file.cpp)"),
    ("scene/nan_via_1e999", "a number beyond the doubles (`1e999`) was 'not valid JSON here', with no line or column",
     "its line and column, from nlohmann's SAX interface", "`invalid JSON is refused with its line and column`"),
    ("scene/directory_named_json", "a directory given as the scene was 'line 1, column 1: not valid JSON'; a missing "
     "file gave no reason", "'it is a directory'; the system's reason (No such file or directory)", "`invalid JSON is "
     "refused with its line and column`"),
    ("cli/missing_value", "`--h --t 1`: CLI11 took `--t` as the value of --h and said 'The following argument was not "
     "expected: 1'", "'--h: expects a value, got the option --t'", "this table (cli/missing_value, cli/set_missing_value)"),
    ("cli/max_steps_exponent", "`--max-steps 1e3` was 'expects a whole number >= 1, got 1e3'; `--threads 99999999999` "
     "'expects a whole number >= 1'", "exponent form accepted; the int range named", "`whole-number options take digits "
     "or exponent form` (tests/apps/test_cli_arguments.cpp)"),
    ("cli/out_dangling_symlink", "`--out` naming a dangling symlink: 'cannot create the output directory ... (File exists)'",
     "'(a symlink to '...', which does not exist)'", "`an output directory that cannot be made or opened is named with "
     "the reason` (tests/apps/test_output_directory.cpp)"),
    ("cli/gravity_overflow", "`--set gravity=1e308` or `omega1_0=1e200`: 'constraint 'rod1' gives a non-finite "
     "residual entry', blaming the joint where the overflow of the state showed", "the iterate's size and 'beyond the "
     "range of double precision ... check the initial values and parameters'", "`values beyond the range of double "
     "precision are reported as such` (tests/steppers/test_error_blame.cpp)"),
    ("api/empty_system/livens-em4", "the compositions (livens-em4, -em6, em-ggl4, -6) refused an empty system or an "
     "indefinite M(q) in the name of their base ('livens-em: ...')", "named by the stepper chosen", "`a composition's "
     "refusals name it, not its base` (tests/steppers/test_composition.cpp)"),
    ("cli/denormal_mass", "`constrained-particles --set m1=1e-320`: in range (> 0), and Newton failed at step 2 with no "
     "word of the mass", "refused: a range that starts at 0 (a magnitude: mass, length, stiffness, damping, tolerance; "
     "scenario parameters, scene files, --newton-tol) takes 0 or a normal number, and the message names the smallest",
     "`every scenario refuses a subnormal mass, length, stiffness or damping by name` (tests/apps/test_scenario_parameters.cpp)"),
    ("api/mass_function_indefinite/em-ggl4", "em-ggl4 and em-ggl6 refused a configuration-dependent or singular M as "
     "'em-ggl needs a constant invertible mass matrix' (the base's constructor)", "'em-ggl4 needs ...': every refusal of "
     "the base's constructor is worded for the composition", "`a composition's refusals name it, not its base` "
     "(tests/steppers/test_composition.cpp)"),
    ("cli/parameter_before_run_length", "`double-well --set a=-1 --t 0.03`: 'the end time is not a whole number of "
     "steps', not the bad parameter", "the scenario's parameters are checked before the run settings",
     "`a run checks the scenario's parameters before its run settings` (tests/apps/test_scenario_parameters.cpp)"),
    ("api/rigid_body_subnormal_mass", "the C++ API took a subnormal mass or moment of inertia (1e-320) that scene files "
     "and `--set` refuse: Mechanism::add_rigid_body, add_planar_body, add_point_mass, add_planar_point_mass, "
     "spherical_point_mass, ConstantInertia, DirectorInertia", "refused, naming the body or element, the entry and the "
     "value, in the scene files' wording (`subnormal_refusal`, engine/format.hpp); 0 stays accepted where it was",
     "`mechanism: a subnormal mass or moment of inertia is refused with the body's name and the value` "
     "(tests/bodies/test_mechanism.cpp), `ConstantInertia refuses a subnormal entry of M ...` "
     "(tests/engine/test_generic_elements.cpp), tests/bodies/test_director_inertia.cpp, test_spherical_point_mass.cpp"),
    ("cli/resume_h_doubled", "`noether resume` of a checkpoint whose `h` (0.01 -> 0.02) or `t_end` (below the state's "
     "time) was edited, whose `state.t` was shifted by 5, or with `\"h\":0.01,\"h\":0.02`, exited 0: status completed, ok "
     "true, t_reached 0.9 of t_end 1 (or 6 of 1), the rows after the checkpoint cut", "refused (exit 2) at the JSON path: "
     "a state at or past its run's last step, a t other than step x h beyond rounding, a key twice in one object "
     "(`parse_json`, apps/json_reader.hpp)", "`a checkpoint whose state its run would not have saved is "
     "refused at its JSON path` (tests/apps/test_checkpoint.cpp), cli.resume (e)"),
    ("cli/resume_other_solver", "a checkpoint whose stepper, solver or stepper parameter differs from the run's resumed "
     "silently, the summary naming settings that computed only part of the rows", "refused (exit 2): every setting of "
     "summary.json but threads must be the checkpoint's ('gives solver = \"umfpack\", but ... computed with solver = "
     "\"auto\"')", "`resume refuses a checkpoint whose settings are not those its directory's summary names`, cli.resume (e)"),
    ("cli/resume_stale_checkpoint", "run A with checkpoints, then run B into the same DIR without them, killed: `noether "
     "resume DIR` continued A's checkpoint over B's rows, cut them and wrote completed", "a new run removes an earlier "
     "run's checkpoint.json as it starts; a checkpoint names its run (`run_id`, also in summary.json) and one of another "
     "run is refused as such", "`a new run removes an earlier run's checkpoint, and resume refuses a checkpoint of another "
     "run` (tests/apps/test_checkpoint.cpp), cli.resume (e)"),
    ("cli/resume_checkpoint_directory", "DIR/checkpoint.json a directory: 'basic_filebuf::underflow error reading the "
     "file: Is a directory', exit 1", "'...checkpoint.json' is a directory, not a file: ...', exit 2", "`a checkpoint.json "
     "that is a directory is refused naming it`, cli.resume (e)"),
    ("cli/sighup", "SIGHUP ended the run at once: exit 129, summary.json running, timeseries.csv.partial left",
     "a request to stop, as SIGTERM: after the step, the files closed, interrupted_by SIGHUP, exit 129", "`SIGHUP (the "
     "terminal closed) ends the run as SIGTERM does ...` (tests/apps/test_run_outputs.cpp), cli.interrupt"),
    ("cli/stdout_full", "the printed summary into `/dev/full` exited 0 without a word; into a closed pipe the program died "
     "of SIGPIPE (exit 141) after a completed run", "stdout flushed and checked: 'writing to standard output failed (No "
     "space left on device)' or '(Broken pipe)', exit 1; SIGPIPE ignored", "cli.interrupt"),
    ("cli/newton_refresh_denormal", "`--newton modified --newton-refresh 1e-320` was accepted (0 < 1e-320 < 1), where a "
     "scene file's `\"refresh\": 1e-320` is refused", "refused as `--newton-tol 1e-320` is: one range, "
     "`newton_refresh_range()`, for the command line and scene files", "`bad run options are rejected with "
     "std::invalid_argument naming the value` (tests/apps/test_runner.cpp), cli.newton_refresh_subnormal"),
    ("scene/name_collides_with_coordinate", "a point mass `bar.phi` beside a planar body `bar` ran, ok, and wrote two "
     "columns `q:bar.phi.x` and the key `bar.phi.x` twice into final_state.json (a JSON reader keeps one value); so did a "
     "`coordinates` body with coordinates `[\"a\", \"a\"]`, two probes named `tip`, a probe named `q:bar.phi` and two "
     "invariants of one name (summary.json's invariant_drifts)", "refused where the names are made, naming both: "
     "System::add_block (a coordinate label another block's coordinate has, a coordinate named twice), the model "
     "builder's probes and invariants (`probe_name_clash`, apps/model/output_columns.hpp)", "`coordinate labels that "
     "would head one output column twice are refused, naming both coordinates` (tests/engine/test_system.cpp), `output "
     "names that two things would share are refused at the JSON path, naming both` (tests/apps/test_scene_file.cpp)"),
    ("cli/export_newton_iterations_5000", "`noether export double-pendulum --newton-max-iterations 5000` wrote a scene "
     "that `noether run` refused (/run/newton/max_iterations: 1 to 1000)", "refused by export with run's range: one "
     "range per setting, the table of run settings", "`export refuses the issue's --newton-max-iterations 5000, which run "
     "refuses` (tests/apps/test_run_settings.cpp), cli.export_newton_iterations_beyond_run"),
    ("cli/plot_through_symlink", "`noether plot D` with D/plots a symlink to a directory outside D wrote its six files "
     "there and exited 0", "plots/ is replaced by a directory of D, as vtk/ is (OutputDirectory's subdirectory, never "
     "reached through a symlink)", "cli.plot (tests/apps/check_plot.sh)"),
    ("scene/duplicate_key_mass", "a key given twice in an object was accepted, the last value winning (`\"mass\": 7.0, "
     "\"mass\": 1.0` ran with 1 kg; a second `run`; a body's `name` twice then failed as \"no body named 'bar'\")",
     "refused at the key's JSON path (`parse_json`, apps/json_reader.cpp, for scene files and checkpoints)",
     "`a key given twice in an object is refused at its JSON path` (tests/apps/test_scene_file.cpp)"),
    ("scene/name_with_c1_control", "a name holding U+0085 (a C1 control) or another Unicode format character was "
     "accepted; a NUL in a name cut the message short at the NUL; ESC sequences in names reached the terminal through "
     "the messages", "refused as control characters are (`require_column_name`); every message quotes names and given "
     "texts with `quote` (engine/quote.hpp), hidden characters escaped as \\u0085, \\u0000, \\u001b",
     "`quote keeps printable text and writes every hidden character as an escape` (tests/engine/test_quote.cpp), `names "
     "that would split or shift output columns are refused, naming them` (tests/engine/test_system.cpp), `names with "
     "hidden characters are refused, and every message shows them escaped` (tests/apps/test_scene_file.cpp)"),
    ("scene/output_directory_empty", "`\"output\": {\"directory\": \"\"}` failed with \"cannot create the output directory "
     "''\", without the JSON path", "a usage error at /output/directory", "`scene errors name the JSON path and what is "
     "expected` (tests/apps/test_scene_file.cpp)"),
    ("cli/chain3d_joint_fraction", "`chain3d --set joint=0.5`: \"must be a whole number from 0 to 1\", though the "
     "parameter's values are spherical and revolute", "\"must be one of spherical, revolute, got 0.5\" "
     "(ScenarioParameter::refusal)", "`a choice parameter takes its names, and a refusal names them` "
     "(tests/apps/test_scenario_parameters.cpp)"),
    ("cli/export_vtk_off", "`noether export double-pendulum --vtk off`: \"The following arguments were not expected: off "
     "--vtk\", though docs/cli.md said export takes every run option but --threads and --out", "refused by name, with "
     "the options export does not take (those of the table not `exported`: --threads, --out, --vtk, "
     "--checkpoint-every), which docs/cli.md now lists", "`export refuses by name exactly the options docs/cli.md says "
     "it does not take` (tests/apps/test_run_settings.cpp), cli.export_vtk_refused"),
    ("cli/threads_max", "`--threads N` cost time and memory in proportion to N (TBB sized its worker pool by the bound: "
     "1.34 GB and 8.5 s for 0.03 s of double-pendulum at N = 10^7); N = 2147483647 took no step in 60 s", "the bound is "
     "capped at the cores available (`ThreadLimit`, `capped_threads`, engine/thread_limit.hpp), for the CLI and the C++ "
     "API; summary.json's `threads` is the count used", "`a thread count beyond the cores runs on the cores available, "
     "which summary.json reports` (tests/apps/test_runner.cpp), `a thread limit beyond the cores is capped at them, and so "
     "are the assembler's workspaces` (tests/engine/test_thread_limit.cpp)"),
    ("api/add_after_stepper", "an element added to a System after a stepper was made on it was half used: the steps left "
     "it out, conserved_energy counted it", "std::logic_error naming the element and the stepper that uses the system, "
     "and what to do (add everything before making the steppers); a ConstraintProjector uses its system likewise",
     "`while a stepper lives, its System refuses further blocks and elements, naming them and the stepper` "
     "(tests/steppers/test_stepper_use.cpp)"),
    ("api/step_from_two_threads", "one Stepper stepped from two threads corrupted the heap (`malloc(): unsorted double "
     "linked list corrupted`, SIGSEGV)", "the second call throws std::logic_error naming the stepper and the call that "
     "runs (step, checkpoint and restore_history are guarded by one atomic flag); the thread-safety contract of every "
     "public class in docs/api.md", "`one stepper stepped from two threads: the second call throws naming the stepper, "
     "the first step completes` (tests/steppers/test_stepper_use.cpp)"),
    ("api/bricard_not_dropped/livens-em", "a Bricard linkage stepped through the C++ API without dropping its redundant "
     "equation accepted 104 stalled steps, its energy error grew to 7.8 J by t = 1.75 and it failed at t = 2.02 (other "
     "steppers: 0.55 to 3.46 s)", "initialize refuses it (StepperRefusal) naming the row, what it depends on and the calls "
     "that drop it (structural_redundancy, without_equations), unless StepperOptions::redundant_equations allows it",
     "`a Bricard linkage stepped through the API is refused at initialize, naming its redundant row and the calls that drop "
     "it` (tests/solvers/test_redundancy.cpp)"),
    ("scene/repeated_joint", "a fixed_planar joint agreeing with the pivot exited 2 with \"element 'fix without row 0, 1': "
     "a name must not contain a comma\"", "its two rows dropped (`fix without rows 0 1`); under `--redundant refuse` the "
     "refusal names both rows, what each depends on and `--redundant drop`", "`a joint that repeats two rows of another: "
     "dropped by default, under --redundant refuse named row by row` (tests/apps/test_scene_file.cpp)"),
    ("scene/absurd_position", "`\"position\": [1e308, 0]`: the warning said the positions were projected onto the "
     "constraints, then the stepper refused |g| = 0.5 and advised project_initial_state, 'as noether run does'",
     "refused (cause refused) once: 'the position projection from the initial bar.phi.x = 1e+308 cannot meet them within "
     "round-off ...; give initial positions of moderate size near the constraints'", "`initial positions of an absurd "
     "size are refused as beyond what the projection can meet, not projected` (tests/apps/test_scene_file.cpp)"),
    ("scene/axis_huge", "an axis (0, 1e300, 0) or (0, 1e-300, 0) was refused as 'must be a nonzero direction, got (0 "
     "1e+300 0)': |N|^2 overflows or underflows", "accepted as the y axis, normalized through N / max|N_i| (docs/scenes.md, "
     "joints)", "`an axis of any finite nonzero length is its direction, where its squared length overflows or underflows "
     "too` (tests/joints/test_joint_errors.cpp)"),
    ("scene/mass_overflow", "`\"mass\": 1e308` was blamed on the gravity element ('its quadratic form has a non-finite "
     "constant or linear entry'); an inertia of 1e308 was 'a non-finite entry' or a Newton failure of the inertia",
     "refused naming the body and the value: 'the mass must be below 1e+150 in magnitude, got 1e+308: beyond the range of "
     "double precision' (`overflow_refusal`, engine/format.hpp, the wording of cli/gravity_overflow)", "`mechanism: a mass "
     "or moment of inertia beyond the range of double precision is refused with the body's name and the value` "
     "(tests/bodies/test_mechanism.cpp)"),
    ("scene/spring_coincident", "a spring of rest length 0.3 between coincident points, or an axial damper there: "
     "'non-finite residual entry (-nan)', nothing said of the zero length", "refused at the initial state naming the "
     "element and that its two points coincide (`Element::singularity`); a step that meets it names it", "`a spring or "
     "axial damper whose two points coincide is refused at the start, and named when a step meets it` "
     "(tests/steppers/test_error_blame.cpp)"),
    ("scene/massless_coordinate", "a coordinate without mass or anything acting on it: 'klu: the matrix is singular', "
     "the largest residual entry in another coordinate", "'the column of coordinate x.b is zero, no equation of the step "
     "depends on that unknown (... give it an inertia)'", "`a coordinate nothing acts on is named when the Newton matrix "
     "is singular` (tests/apps/test_scene_file.cpp)"),
    ("scene/inertias_body_twice", "an `inertias` entry listing one body twice ran, its mass silently doubled",
     "refused at /inertias/0/bodies/1 naming the body", "`a body listed twice by one inertia, constraint or damping entry "
     "is refused at its JSON path` (tests/apps/test_scene_file.cpp)"),
    ("scene/beyond_memory", "a scene of 10^6 bodies under `ulimit -v 3000000` ended in 'std::bad_alloc' after 22 s; "
     "scene files had no memory estimate", "refused before it is built with the generators' estimate per body and the "
     "limit that binds; a std::bad_alloc while reading or building a model says what ran out and what to do",
     "`a scene file gets the generators' memory estimate, and a refusal before it is built` "
     "(tests/apps/test_memory_budget.cpp)"),
    ("scene/text_beyond_memory", "a scene file of 25 MB under `ulimit -v 400000`: 'terminate called after throwing an "
     "instance of std::bad_alloc' (the JSON document that ran out of memory part-way cannot be destroyed)", "refused "
     "before parsing: about 8 bytes of memory per byte of JSON (20 while the document was held whole)", "this table (scene/text_beyond_memory)"),
    ("cli/newton_one_iteration", "`--newton-max-iterations 1` could never succeed: 'no convergence in 1 iterations' with "
     "the history at 1.5e-30 (the increment test needs one more iteration)", "an iterate within the tolerance at the "
     "iteration limit is returned", "`Newton alone: an iterate within the tolerance at the iteration limit is returned, so "
     "one iteration can succeed` (tests/solvers/test_newton.cpp)"),
    ("cli/evi_omega_pi_over_h", "evi with omega = pi/h: 'take |h| < pi/omega = 0.01' to a run of h = 0.01", "'take |h| < "
     "pi/omega, strictly: |h| <= 0.009999999999999998', the largest h it takes", "`evi's refusal of |omega h| >= pi gives "
     "a bound the step can take` (tests/steppers/test_evi.cpp)"),
]

# Found and left: not a wrong outcome, or another engineer's area.
NOTICED = [
    "cli/every_huge: with `--every 1000000` a completed run of 3 steps writes only the initial row: the final state "
    "is in no row (docs/output.md says so: rows are the multiples of N). The final state is vtk19's area.",
    "cli/out_is_a_file, cli/out_unwritable, cli/out_empty: an --out that cannot be created exits 1 (cause output, no "
    "file written) as docs/cli.md says, where a usage error (2) would also fit: the run has not begun.",
]


def markdown(cases, results, command, work):
    lines = ["# Reliability: bad inputs and what they get", "",
             "Generated by `scripts/reliability_table.py` (do not edit by hand); regenerate with", "",
             f"    {command}", "", f"(last run {time.strftime('%Y-%m-%d', time.gmtime())}, against `build/bin/noether` and "
             "`build/bin/reliability_api` of a Release build).", "",
             "The test `reliability_table` runs the same cases with `--check`: it fails when a case gets another",
             "class than the one expected, a message that does not match, a crash (signal, sanitizer report,",
             "\"terminate called\") or a hang (no exit in 30 s). Classes: **usage** = exit code 2, one line",
             "`noether: error: ...` naming the value, nothing written (the `--out` directory not created);",
             "**failed** = exit code 1, `summary.json` `\"status\": \"failed\"` with the cause (`refused`, `newton`,",
             "`output`, `error`) and the error stderr prints, beside its time series (an `--out` that cannot be made:",
             "no files); **refused** (C++ API) = a `std::invalid_argument` (or `StepperRefusal`,",
             "`InconsistentInitialValues`) naming the element and the value, or a `std::logic_error` for a call made",
             "when it is not allowed (an element added to a system in use, a stepper stepped from two threads);",
             "**ok** = exit code 0 with a completed",
             "summary whose `t_reached` is `t_end` = steps h and a time series of whole rows, one per `--every`",
             "steps (C++ API: the calls returned); **interrupted** = exit code 128 + the signal sent once the run",
             "writes its rows, `summary.json` interrupted by it, `timeseries.csv` closed; **unprinted** = exit code 1",
             "and one line \"writing to standard output failed\" after a run that completed. CLI cases run `noether run SCENARIO --threads 1 --t 0.03 --out DIR` plus the input",
             "unless the input says otherwise; scene cases `noether run s.json --t 0.03 --threads 1 --out DIR`, the file",
             "being `examples/scenes/pendulum.json` (or `spatial_double_pendulum.json`, `motor_pendulum.json`) with the change the input names;",
             "API cases are the functions of `tests/reliability/reliability_api.cpp`. WORK is the script's work directory.", ""]
    counts = {}
    for case, result in zip(cases, results):
        counts[case.area] = counts.get(case.area, 0) + 1
    failing = [c.name for c, r in zip(cases, results) if not passes(c, r)]
    lines.append(f"{len(cases)} cases: {counts.get('cli', 0)} CLI, {counts.get('scene', 0)} scene files, "
                 f"{counts.get('api', 0)} C++ API; {len(cases) - len(failing)} as expected"
                 + (f", {len(failing)} not: {', '.join(failing)}." if failing else "."))
    lines += ["", "## Defects found by these cases and fixed", "", "| case | what it got before | what it gets | test |",
              "|---|---|---|---|"]
    lines += [f"| {name} | {cell(before)} | {cell(after)} | {cell(test)} |" for name, before, after, test in FIXED]
    lines += ["", "## Open", "", "Defects the cases show that are not fixed yet (each case expects what it gets today,",
              "so that a change is seen; the reproduction is the case's input):", ""]
    by_text = {}
    for c in cases:
        if c.open:
            by_text.setdefault(c.open, []).append(c)
    for text, group in by_text.items():
        names = ", ".join(f"{c.area}/{c.name}" for c in group)
        lines.append(f"- **{names}** ({cell(group[0].input)}): {text}")
    if not by_text:
        lines.append("None.")
    lines += ["", "Noticed and left alone:", ""] + [f"- {n}" for n in NOTICED]
    for area, title in [("cli", "The command line"), ("scene", "Scene files"), ("api", "The C++ API")]:
        lines += ["", f"## {title}", "", "| case | input | expected | got | exit | summary.json | message |", "|---|---|---|---|---|---|---|"]
        for case, result in zip(cases, results):
            if case.area != area:
                continue
            got = result.got if passes(case, result) else f"**{result.got}** (expected {case.expect})"
            if case.open:
                got += " (open defect)"
            if result.got == "failed" and case.area != "api":
                got += f" ({result.detail})"
            elif case.area == "api" and result.got in ("refused", "failed"):
                got += f" ({result.detail})"
            message = (result.message if result.message else result.detail).replace(str(work), "WORK")
            lines.append(f"| {case.name} | {cell(case.input)} | {case.expect} | {got} | {'' if result.rc is None else result.rc} | "
                         f"{result.summary} | {cell(shorten(message))} |")
    return "\n".join(lines) + "\n"


def shorten(text, limit=220):
    return text if len(text) <= limit else text[: limit - 3] + "..."


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--noether", default=str(ROOT / "build/bin/noether"))
    parser.add_argument("--api", default=str(ROOT / "build/bin/reliability_api"), help="'none': skip the API cases")
    parser.add_argument("--work", default=str(ROOT / "build/reliability_table"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--check", action="store_true", help="exit 1 unless every case gets what it expects")
    parser.add_argument("--write", help="write the Markdown table to this file")
    parser.add_argument("--only", help="run only the cases whose name contains this")
    parser.add_argument("--sanitized", action="store_true",
                        help="the program is built with AddressSanitizer: leave out the cases under an address-space "
                             "limit (ASan reserves terabytes of address space for its shadow memory at start, which "
                             "ulimit -v forbids: the program dies before main)")
    args = parser.parse_args()
    work = Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    cases = cli_cases() + scene_cases() + (api_cases(args.api) if args.api != "none" else [])
    names = [c.area + "/" + c.name for c in cases]
    if len(set(names)) != len(names):
        sys.exit("case names repeat: " + ", ".join(sorted({n for n in names if names.count(n) > 1})))
    if args.only:
        cases = [c for c in cases if args.only in c.name]
    if args.sanitized:
        left_out = [c.area + "/" + c.name for c in cases if c.address_space]
        cases = [c for c in cases if not c.address_space]
        if left_out:
            print("left out under AddressSanitizer (an address-space limit):", ", ".join(left_out))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda c: run(c, args.noether, work), cases))
    bad = 0
    for case, result in zip(cases, results):
        ok = passes(case, result)
        bad += not ok
        if not ok or not args.check:
            print(f"{'PASS' if ok else 'FAIL'} {case.area}/{case.name}: expected {case.expect} /{case.message}/, got {result.got} "
                  f"(rc {result.rc}, summary {result.summary}, {result.detail}): {result.message}")
    print(f"{len(cases)} cases, {len(cases) - bad} as expected, {bad} not")
    if args.write:
        command = "python3 scripts/reliability_table.py --write docs/reliability.md"
        Path(args.write).write_text(markdown(cases, results, command, work))
    return 1 if args.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())

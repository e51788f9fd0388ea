"""Shared timing and reporting helpers for the funcgrad benchmark scripts.

The measurement model used by every benchmark:

* each *case* is a zero-argument callable doing one unit of work
  (e.g. one ``grad(f)(x)`` call);
* each case is calibrated once so that a timed loop of ``number`` calls lasts
  about ``target_seconds``;
* ``rounds`` rounds are then run, and inside each round every case runs its
  timed loop once, in turn (A, B, C, A, B, C, ...).  Interleaving spreads slow
  drifts of the machine (frequency scaling, noisy neighbours) over all cases
  instead of penalising whichever ran last;
* a case's figure is the median of its per-round seconds-per-call.

Public API::

    run_round_robin(cases, rounds, target_seconds, clock=time.perf_counter)
                                -> {name: [sec/call, ...]}
    summarize(samples)          -> {"median": .., "min": .., "max": .., ...}
    ratios_to_fastest(values)   -> {name: value / min(values)}
    markdown_table(rows, columns) -> str
    fmt(value, digits=3)        -> str
    machine_info()              -> dict (platform, CPU model, cores, threads env)
    package_version(name)       -> str | None
    now_iso()                   -> str (UTC, ISO 8601)
    write_json(path, payload)   -> Path
"""

from __future__ import annotations

import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

THREAD_ENV_VARS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")

# The benchmarks time compiled code and compile times, so a jitted function compiles on
# its first call here (fg.jit's default evaluates the first calls eagerly while it compiles
# in the background; benchmarks/startup.py times that first call as a user meets it).
os.environ.setdefault("FUNCGRAD_JIT_WAIT", "1")
# Likewise the CPU kernels build on first use here instead of loading in a background
# thread: the timed rows are steady state, and the loader's second or so after a process's
# first call (twins computing, Numba importing on the other thread) would land in
# whichever row is timed first; benchmarks/startup.py times first calls with the default.
os.environ.setdefault("FUNCGRAD_KERNELS", "wait")


def single_thread_env() -> None:
    """``setdefault`` the BLAS/OpenMP thread counts to 1.

    Only effective if called before numpy (or any BLAS user) is imported.
    """
    for var in THREAD_ENV_VARS:
        os.environ.setdefault(var, "1")


# --------------------------------------------------------------------------
# Timing
# --------------------------------------------------------------------------


def _time_loop(
    fn: Callable[[], Any], number: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Seconds taken by ``number`` back-to-back calls of ``fn``, read on ``clock``."""
    loop = range(number)
    t0 = clock()
    for _ in loop:
        fn()
    return clock() - t0


def calibrate(
    fn: Callable[[], Any],
    target_seconds: float,
    clock: Callable[[], float] = time.perf_counter,
) -> int:
    """Number of calls of ``fn`` that takes roughly ``target_seconds`` (>= 1)."""
    number = 1
    while True:
        elapsed = _time_loop(fn, number, clock)
        # Estimate from a loop of at least a fifth of the target (or a call
        # that is on its own already that long).
        if elapsed >= target_seconds / 5:
            return max(1, round(number * target_seconds / elapsed))
        number *= 2 if elapsed > 0 else 10


def run_round_robin(
    cases: Mapping[str, Callable[[], Any]],
    rounds: int = 15,
    target_seconds: float = 0.05,
    *,
    warmup: int = 1,
    collect_garbage: bool = True,
    progress: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, list[float]]:
    """Time ``cases`` interleaved round-robin; return seconds per call.

    ``cases`` maps a name to a zero-argument callable.  Each callable is
    called ``warmup`` times, then calibrated so that one timed loop lasts
    about ``target_seconds``.  Then, ``rounds`` times, each case in turn runs
    its timed loop.  The result maps each name to its ``rounds`` samples of
    seconds per call, in round order.

    With ``collect_garbage`` a ``gc.collect()`` runs (untimed) before every
    timed loop, so one case does not pay for the garbage of the previous one;
    the garbage collector stays enabled inside the loop, as in real use.
    ``progress``, if given, is called with a short message after each round.
    ``clock`` reads the time: wall time by default; ``time.process_time``
    (CPU time of this process, all its threads) is far less disturbed by
    other processes on a busy machine, and equals wall time for a
    single-threaded, CPU-bound call on an idle one.
    """
    numbers: dict[str, int] = {}
    for name, fn in cases.items():
        for _ in range(warmup):
            fn()
        numbers[name] = calibrate(fn, target_seconds, clock)

    samples: dict[str, list[float]] = {name: [] for name in cases}
    for r in range(rounds):
        for name, fn in cases.items():
            if collect_garbage:
                gc.collect()
            n = numbers[name]
            samples[name].append(_time_loop(fn, n, clock) / n)
        if progress is not None:
            progress(f"round {r + 1}/{rounds}")
    return samples


def summarize(samples: Sequence[float]) -> dict[str, float]:
    """Median, min, max and relative interquartile spread of ``samples``."""
    data = sorted(samples)
    med = statistics.median(data)
    if len(data) >= 2:
        q1, _, q3 = statistics.quantiles(data, n=4, method="inclusive")
    else:
        q1 = q3 = med
    return {
        "median": med,
        "min": data[0],
        "max": data[-1],
        "iqr_rel": (q3 - q1) / med if med else math.nan,
        "n": len(data),
    }


def ratios_to_fastest(values: Mapping[str, float]) -> dict[str, float]:
    """Each value divided by the smallest one (1.0 = fastest)."""
    best = min(values.values())
    return {name: v / best for name, v in values.items()}


# --------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------


def fmt(value: Any, digits: int = 3) -> str:
    """Format a number with ``digits`` significant digits, no exponent for
    ordinary magnitudes; non-numbers are ``str()``-ed."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude >= 6 or magnitude < -4:
        return f"{value:.{digits - 1}e}"
    decimals = max(0, digits - 1 - magnitude)
    return f"{value:.{decimals}f}"


def _is_number(cell: Any) -> bool:
    return isinstance(cell, (int, float)) and not isinstance(cell, bool)


def markdown_table(
    rows: Sequence[Mapping[str, Any]] | Sequence[Sequence[Any]],
    columns: Sequence[str],
) -> str:
    """Render ``rows`` as a GitHub-flavoured Markdown table.

    ``rows`` are mappings keyed by column name (missing keys render empty)
    or sequences in ``columns`` order.  Numbers go through :func:`fmt`;
    a column holding any number is right-aligned.
    """
    table = [
        [row.get(c, "") for c in columns] if isinstance(row, Mapping) else list(row)
        for row in rows
    ]
    numeric = [any(_is_number(r[i]) for r in table) for i in range(len(columns))]
    text = [[fmt(cell) if _is_number(cell) else str(cell) for cell in r] for r in table]
    widths = [max([len(c)] + [len(r[i]) for r in text]) for i, c in enumerate(columns)]

    def line(cells: Sequence[str]) -> str:
        return (
            "| "
            + " | ".join(
                cell.rjust(w) if num else cell.ljust(w)
                for cell, w, num in zip(cells, widths, numeric, strict=True)
            )
            + " |"
        )

    rule = (
        "|"
        + "|".join(
            "-" * (w + 1) + ":" if num else "-" * (w + 2)
            for w, num in zip(widths, numeric, strict=True)
        )
        + "|"
    )
    return "\n".join([line(columns), rule] + [line(r) for r in text])


def _cpu_model() -> str | None:
    try:
        out = subprocess.run(
            ["lscpu"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
        for ln in out.splitlines():
            if ln.strip().lower().startswith("model name"):
                return ln.split(":", 1)[1].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.lower().startswith("model name"):
                return ln.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def machine_info() -> dict[str, Any]:
    """Description of the machine and interpreter the benchmark ran on."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        usable = os.cpu_count()
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpu_usable": usable,
        "python": sys.version.split()[0],
        "python_implementation": platform.python_implementation(),
        "thread_env": {v: os.environ.get(v) for v in THREAD_ENV_VARS},
    }


def package_version(name: str) -> str | None:
    """Installed distribution version, falling back to ``module.__version__``."""
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        module = sys.modules.get(name)
        return getattr(module, "__version__", None)


def now_iso() -> str:
    """Current UTC time, ISO 8601, to the second."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def write_json(path: str | os.PathLike[str], payload: Any) -> Path:
    """Write ``payload`` as indented JSON (creating parent folders)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2, default=str) + "\n")
    return path


def warm_or_count(runs, warm_calls, count=None, calls=10):
    """Call each of ``runs`` (name -> function) ``warm_calls`` times, then take the suite's
    garbage-collector setting (the heap so far frozen: not scanned by each collection).
    With ``count`` (a name), call that run ``calls`` times inside ``functools.reduce``,
    the frame ``valgrind --toggle-collect=functools_reduce`` counts, and return True."""
    import functools
    for fn in runs.values():
        for _ in range(warm_calls):
            fn()
    gc.collect()
    gc.freeze()
    if not count:
        return False
    fn = runs[count]
    functools.reduce(lambda acc, _: (fn(), acc)[1], range(calls), 0)
    return True

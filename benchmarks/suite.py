"""The benchmark suite: funcgrad side by side with JAX, PyTorch and HIPS autograd.

Workloads (issue 11; float64 unless said, every library computes the same function)

  W1  small: grad of sum(sin x cos x + exp(-x^2) + log1p(x^2) + tanh x / (1 + x^2)),
      16 elements (µs per call)
  W2  deep chain: 8 elements, 200 steps of y = sin(y)*0.5 + y*0.9, grad of sum
      (µs per call and per primitive)
  W3  MLP, float32: batch 128, 784 -> 256 -> 10, tanh, softmax cross-entropy
      through logsumexp, params a dict; forward and value_and_grad (ms, and
      the ratio grad/forward)
  W4  large elementwise: 1e6 elements, sum(exp(sin x) cos^2 x + sqrt(1 + x^2)),
      forward and grad, with the memory-streaming and compute floors
  W5  Hessian of Rosenbrock at n = 100 and 400, and hvp
  W6  Jacobian of tanh(A @ x), A 200x200: jacfwd and jacrev
  W7  first call, each in a fresh process (benchmarks/startup.py), its own table:
      import time; the first grad of W1; the first value_and_grad of W3; and for
      funcgrad.jit the time from W3's first call until compiled code is in use
      (funcgrad with a cold and a warm kernel cache); always wall time
  W8  FFT and linear algebra (issues 19-20, benchmarks/w8.py): grad of
      sum(|fft x|^2 w) at n = 4096, and at 200x200 grad through svd (sum of
      singular values), eigh (sum(w * eigvalsh)), expm and solve (no issue-11
      targets: ratios only)

Libraries: funcgrad eager (code written with funcgrad.numpy, and plain-NumPy
code), funcgrad.jit (once fg.jit exists), JAX eager and jax.jit, PyTorch eager
and torch.func, HIPS autograd, and a hand-written NumPy reference.  A library
that is not installed is skipped with a note.  See workloads.py for exactly
what each library runs.

How it measures
  * Before any timing, every library's result is checked against the
    reference (closed form, or NumPy in float64); a wrong result is reported
    WRONG (an exception: ERROR) and not timed.
  * Per task, the libraries are timed round-robin (A, B, C, A, B, C, ...):
    each timed loop lasts ~target-ms, and each figure is the median over the
    rounds (benchmarks/_timing.py).
  * The clock is the CPU time of the benchmarking process (all its threads)
    by default: every run here is single-threaded and CPU-bound, so on an
    idle machine it equals wall time, and on a shared, busy one it is barely
    disturbed by the other processes (wall time there is inflated several
    times over, and unevenly).  --clock wall measures elapsed time.  W7 is
    always wall time (a first call is a wait; funcgrad loads its kernels in
    a background thread meanwhile), with CPU time in the JSON.
  * Ratios are to the fastest peer (jax, jax.jit, torch, torch.func,
    autograd): below 1 means faster than every peer.
  * The report judges issue 11's, issue 21's and issue 24's targets
    (benchmarks/targets.py); issue 21's ratios between two libraries of one
    task are medians of per-round ratios (each round's pair ran seconds apart).
  * Single-threaded everywhere: OMP/MKL/OpenBLAS/Numba threads = 1 (set
    before any import), XLA without its multi-threaded Eigen,
    torch.set_num_threads(1).  JAX runs in float64 (jax_enable_x64), W3's
    arrays are float32 in every library.

Run
  make bench          # full: 15 rounds of 50 ms per case, W7 x7 (about 15 minutes)
  make bench-quick    # 5 rounds of 15 ms, W7 with 2 repetitions (about 5 minutes)
  python benchmarks/suite.py [--quick] [--only W1,W7] [--libs funcgrad,jax]
                             [--rounds R] [--target-ms MS] [--startup-reps N]
                             [--size full|tiny] [--out-dir DIR] [--name NAME]
                             [--clock cpu|wall] [--no-plot] [--update-readme]

Output: a Markdown table on stdout, and benchmarks/results/<name>.md, .json
(machine, date, versions, every sample) and .png (benchmarks/plot.py).
"""
from __future__ import annotations

import os

# Single-threaded for every library; must precede the first numpy/jax/torch import.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
             "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_ENABLE_X64", "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")

import argparse  # noqa: E402
import gc  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Callable  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if __package__:  # python -m benchmarks.suite, or imported by the tests
    from . import startup, workloads as wl
    from .targets import (first_call_targets, overhead_targets, targets,
                          targets_markdown)
    from ._timing import (fmt, machine_info, markdown_table, now_iso, package_version,
                          run_round_robin, summarize, write_json)
else:  # python benchmarks/suite.py: benchmarks/ is sys.path[0]
    import startup  # type: ignore[no-redef]
    import workloads as wl  # type: ignore[no-redef]
    from targets import (first_call_targets,  # type: ignore[no-redef]
                         overhead_targets, targets, targets_markdown)
    from _timing import (fmt, machine_info, markdown_table, now_iso,  # type: ignore
                         package_version, run_round_robin, summarize, write_json)
    # An installed funcgrad (pip install -e .) wins; the work tree is a fallback.
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))

RESULTS_DIR = ROOT / "benchmarks" / "results"
README = ROOT / "README.md"
ALL_WORKLOADS = ["W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8"]
UNIT_SCALE = {"µs": 1e6, "ms": 1e3, "s": 1.0}
#: --clock: CPU time of this process (default) or wall time
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
MODES = {  # rounds, target seconds per timed loop, W7 repetitions
    "quick": (5, 0.015, 2),
    "full": (15, 0.05, 7),
}


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _loadavg() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def _error_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


def prepare(task: wl.Task, libs: list[str]) -> tuple[dict[str, Callable], dict[str, dict]]:
    """Build and check every library for ``task``.

    Returns ``(cases, records)``: the zero-argument callables of the
    libraries whose result is right, and a record (status: ok, skipped, n/a,
    ERROR or WRONG, with the reason or error) for every library asked for.
    """
    cases: dict[str, Callable[[], Any]] = {}
    records: dict[str, dict[str, Any]] = {}
    for label in libs:
        if task.reference_only and label != wl.REF:
            continue
        rec: dict[str, Any] = {}
        records[label] = rec
        builder = task.builders.get(label)
        if builder is None:
            rec.update(status="n/a", reason="no such operation in this library")
            continue
        try:
            lib = wl.load(label)
            fn = builder(lib)
        except wl.Skip as exc:
            rec.update(status="skipped", reason=str(exc))
            continue
        except wl.NotApplicable as exc:
            rec.update(status="n/a", reason=str(exc))
            continue
        except Exception as exc:  # noqa: BLE001 -- a half-built library
            rec.update(status="ERROR", error=f"setup: {_error_line(exc)}")
            _say(f"  {task.label} / {label}: setup failed: {_error_line(exc)}")
            continue
        try:
            got = fn()
        except Exception as exc:  # noqa: BLE001
            rec.update(status="ERROR", error=_error_line(exc))
            _say(f"  {task.label} / {label}: ERROR {_error_line(exc)}")
            traceback.print_exc(limit=-3, file=sys.stderr)
            continue
        problem = wl.compare(got, task.expected, task.rtol, task.atol_rel, task.dtype)
        if problem is not None:
            rec.update(status="WRONG", error=problem)
            _say(f"  {task.label} / {label}: WRONG result ({problem}); not timed")
            continue
        rec["status"] = "ok"
        cases[label] = fn
    return cases, records


def run_task(task: wl.Task, libs: list[str], rounds: int, target: float,
             clock: str = "cpu") -> dict[str, Any]:
    t0 = time.perf_counter()
    cases, records = prepare(task, libs)
    # run_round_robin collects garbage before every timed loop; with jax and torch loaded a
    # full collection takes 0.1-0.5 s, so freeze what exists now (imports, prepared cases)
    # and let the collections scan only what the timed calls allocate.
    t1 = time.perf_counter()
    gc.collect()
    gc.freeze()
    try:
        samples = (run_round_robin(cases, rounds, target, clock=CLOCKS[clock])
                   if cases else {})
    finally:
        gc.unfreeze()
    for label, s in samples.items():
        stats = summarize(s)
        records[label].update(median_s=stats["median"], stats_s=stats, samples_s=s)
    result = {
        "key": task.key, "workload": task.workload, "label": task.label,
        "unit": task.unit, "note": task.note, "primitives": task.primitives,
        "reference_only": task.reference_only, "libraries": records,
    }
    _add_ratios(result)
    _say(f"{task.label}: {len(cases)} checked in {t1 - t0:.1f} s, timed in "
         f"{time.perf_counter() - t1:.1f} s")
    return result


def _add_ratios(result: dict[str, Any]) -> None:
    """Ratio of every timed library to the fastest peer."""
    libs = result["libraries"]
    peers = {k: r["median_s"] for k, r in libs.items() if k in wl.PEERS and "median_s" in r}
    fastest = min(peers, key=peers.get) if peers else None
    result["fastest_peer"] = fastest
    for rec in libs.values():
        if fastest is not None and "median_s" in rec:
            rec["ratio_to_fastest_peer"] = rec["median_s"] / peers[fastest]


_UNTIL_COMPILED = "W7 W3 funcgrad.jit: first call until compiled code is in use, "
#: W7's rows: key -> (label, unit, workload of the script, its field, cold cache)
W7_ROWS = {
    "W7.import": ("W7 import (fresh process)", "ms", "W1", "import", False),
    "W7.first_grad.warm": ("W7 first grad of W1, warm kernel cache", "ms", "W1",
                           "first_grad", False),
    "W7.first_grad.cold": ("W7 first grad of W1, cold kernel cache", "ms", "W1",
                           "first_grad", True),
    "W7.w3_first_call.warm": ("W7 first value_and_grad of W3, warm kernel cache", "ms",
                              "W3", "first_call", False),
    "W7.w3_first_call.cold": ("W7 first value_and_grad of W3, cold kernel cache", "ms",
                              "W3", "first_call", True),
    "W7.w3_until_compiled.warm": (_UNTIL_COMPILED + "warm cache", "s", "W3",
                                  "until_compiled", False),
    "W7.w3_until_compiled.cold": (_UNTIL_COMPILED + "cold cache", "s", "W3",
                                  "until_compiled", True),
}
_COLD_NOTE = ("NUMBA_CACHE_DIR and FUNCGRAD_CACHE_DIR = a new empty folder: every kernel "
              "compiles")


def startup_results(measured: dict[str, Any]) -> list[dict[str, Any]]:
    """W7's measurements (benchmarks/startup.py) as rows shaped like the timed tasks.

    The figure is always wall time (``perf_counter``): for a first call, what the user
    waits.  The process's CPU time, which also counts funcgrad's background loading and
    compiling threads, is kept beside it (``cpu_samples_s``).
    """
    runs = measured["runs"]
    out = []
    for key, (label, unit, workload, field, cold) in W7_ROWS.items():
        libs: dict[str, dict[str, Any]] = {}
        for run in runs.values():
            column = wl.REF if run["label"] == "numpy" else run["label"]
            if run["cold"] != cold or run.get("workload", "W1") != workload:
                continue
            if key == "W7.import" and run["label"] in ("funcgrad (np)", "funcgrad.jit"):
                continue  # the same import as funcgrad (fnp)
            if key != "W7.import" and run["label"] == "numpy":
                continue
            if field + "_s" not in run:
                continue  # e.g. until_compiled: only funcgrad.jit has it
            rec: dict[str, Any] = {"status": run["status"]}
            for k in ("reason", "error", "numba_loaded_by_import"):
                if run.get(k) is not None:
                    rec[k] = run[k]
            if run["status"] == "ok" and run[field + "_s"]:
                samples = run[field + "_s"]
                stats = summarize(samples)
                rec.update(median_s=stats["median"], stats_s=stats, samples_s=samples,
                           clock="wall", cpu_samples_s=run.get(field + "_cpu_s", []))
                if field == "until_compiled" and run.get("compiled_call_s"):
                    rec["compiled_call_samples_s"] = run["compiled_call_s"]
            libs[column] = rec
        if not libs:
            continue
        result = {"key": key, "workload": "W7", "label": label, "unit": unit,
                  "note": _COLD_NOTE if cold else "", "primitives": None,
                  "reference_only": False, "libraries": libs}
        _add_ratios(result)
        out.append(result)
    return out


# --------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------


def _ratio(r: float) -> str:
    if r < 1:
        return f"{r:.2f}×"
    if r < 10:
        return f"{r:.1f}×"
    return f"{r:.0f}×"


def _cell(rec: dict[str, Any] | None, scale: float, per: float = 1.0,
          with_ratio: bool = True) -> str:
    if rec is None:
        return ""
    if "median_s" not in rec:
        return {"skipped": "—", "n/a": "n/a"}.get(rec["status"], rec["status"])
    text = fmt(rec["median_s"] * scale / per)
    if with_ratio and "ratio_to_fastest_peer" in rec:
        text += f" ({_ratio(rec['ratio_to_fastest_peer'])})"
    return text


def _columns(results: list[dict[str, Any]]) -> list[str]:
    """Libraries with at least one non-skipped cell, in table order."""
    used = set()
    for res in results:
        for label, rec in res["libraries"].items():
            if rec["status"] != "skipped":
                used.add(label)
    return [c for c in wl.LIBRARIES if c in used]


def _derived_rows(res: dict[str, Any], results: list[dict[str, Any]], columns):
    """Extra rows: W2 per primitive, W3 grad/forward."""
    if res["primitives"]:
        row = {"task": f"{res['workload']} grad, per primitive ({res['primitives']})",
               "unit": "µs"}
        for c in columns:
            row[c] = _cell(res["libraries"].get(c), 1e6, res["primitives"], False)
        row["fastest peer"] = ""
        return [row]
    if res["key"] == "W3.value_and_grad":
        fwd = next((r for r in results if r["key"] == "W3.forward"), None)
        if fwd is None:
            return []
        row = {"task": "W3 value_and_grad / forward", "unit": "ratio"}
        for c in columns:
            g, f = res["libraries"].get(c, {}), fwd["libraries"].get(c, {})
            if c == wl.TORCH_FUNC:
                f = fwd["libraries"].get(wl.TORCH, {})  # its forward is torch's
            row[c] = (f"{g['median_s'] / f['median_s']:.2f}"
                      if "median_s" in g and "median_s" in f else "")
        row["fastest peer"] = ""
        return [row]
    return []


def table(results: list[dict[str, Any]]) -> str:
    columns = _columns(results)
    rows = []
    for res in results:
        scale = UNIT_SCALE[res["unit"]]
        row = {"task": res["label"], "unit": res["unit"]}
        for c in columns:
            row[c] = _cell(res["libraries"].get(c), scale)
        fastest = res.get("fastest_peer")
        row["fastest peer"] = fastest or ""
        rows.append(row)
        rows.extend(_derived_rows(res, results, columns))
    return markdown_table(rows, ["task", "unit"] + columns + ["fastest peer"])


def notes(results: list[dict[str, Any]]) -> list[str]:
    """Skipped libraries, n/a cells, errors and wrong results, once each."""
    seen: dict[tuple[str, str], list[str]] = {}
    for res in results:
        for label, rec in res["libraries"].items():
            if rec["status"] == "ok":
                continue
            why = rec.get("reason") or rec.get("error") or ""
            seen.setdefault((f"{label}: {rec['status']}", why), []).append(res["label"])
    out = []
    for (what, why), where in seen.items():
        if len(where) > 2:  # name the workloads rather than every row
            by_label = {r["label"]: r["workload"] for r in results}
            where = list(dict.fromkeys(by_label[w] for w in where))
        out.append(f"- {what} — {why} [{', '.join(where)}]")
    return out


CLOCK_TEXT = {
    "cpu": "Clock: CPU time of the benchmarking process (all its threads; "
           "`time.process_time`), which for these single-threaded runs equals wall time "
           "on an idle machine and is barely disturbed by other processes on a busy one "
           "(`--clock wall` for elapsed time); the first-call table (W7) is always wall "
           "time.",
    "wall": "Clock: wall time (`time.perf_counter`).",
}

FIRST_CALL_TEXT = (
    "Each figure is one fresh `python` process (benchmarks/startup.py), median of {reps}. "
    "Clock: wall time (`time.perf_counter`) whatever `--clock` says, since a first call is "
    "a wait: funcgrad's first calls compute on its kernels' NumPy twins while a background "
    "thread imports Numba and loads or compiles the kernels, and the process's CPU time "
    "(kept in the JSON, `cpu_samples_s`) would charge that thread's work to the call. "
    "W1: import and the first `grad` (the transform built and called once). W3: the first "
    "`value_and_grad` of the suite's MLP, built and called once; `funcgrad.jit` with its "
    "defaults (the first call runs eagerly while a background thread compiles), and the "
    "time from that call until `block_until_compiled()` returns (compiled code in use; "
    "the JSON has the compiled call's time, `compiled_call_samples_s`). Ratios are to "
    "the fastest peer in the same row; the `reference` import is `import numpy` alone. "
    "Cells as in the table above (— = not installed, ERROR/WRONG = failed). A loaded "
    "machine inflates wall times: see the load average above.")


def _load_line(payload: dict[str, Any]) -> str:
    load = payload.get("load_average_1min") or {}
    if load.get("start") is None:
        return "Load average: unknown."
    cores = payload["machine"]["cpu_usable"] or 1
    text = (f"Load average (1 min): {load['start']:g} at the start, {load['end']:g} at the "
            f"end")
    if max(load["start"], load["end"]) > cores:
        text += (f": more runnable processes than the {cores} cores, so other work on the "
                 "machine competed for them")
        if payload["config"].get("clock") == "wall":
            text += ", which inflates and scatters these wall times; compare ratios"
    return text + "."


def report(payload: dict[str, Any]) -> str:
    """The whole Markdown report: header, table, notes, targets."""
    m = payload["machine"]
    cfg = payload["config"]
    lines = [
        f"Date: {payload['date']}. Machine: {m['cpu_model']}, {m['cpu_usable']} cores "
        f"(one thread per library), Python {m['python']}, {m['platform']}.",
        f"Command: `{cfg['command']}` ({cfg['rounds']} rounds of ~{cfg['target_ms']:g} ms "
        f"per case, W7: {cfg['startup_reps']} fresh processes per library; "
        f"{payload['elapsed_s']:.0f} s in all).",
        CLOCK_TEXT[cfg.get("clock", "wall")],
        _load_line(payload),
        "Versions: " + ", ".join(f"{k} {v}" for k, v in payload["versions"].items() if v)
        + ".",
    ]
    timed = [r for r in payload["results"] if r["workload"] != "W7"]
    if timed:
        lines += [
            "",
            table(timed),
            "",
            "Cells: median time per call in the row's unit, and in brackets the ratio to "
            "the fastest peer (jax, jax.jit, torch, torch.func, autograd; below 1 = faster "
            "than all of them). `reference` is hand-written NumPy (closed-form derivatives) "
            "or a floor, not ranked. — = not installed / not available, n/a = the library "
            "has no such operation, WRONG/ERROR = failed the check against the reference "
            "and not timed.",
        ]
    row_notes = [f"- {r['label']}: {r['note']}" for r in payload["results"]
                 if r["note"] and r["workload"] != "W7"]
    if row_notes:
        lines += ["", "Row notes:", *row_notes]
    nts = notes(payload["results"])
    if nts:
        lines += ["", "Not timed:", *nts]
    if payload["targets"]:
        lines += ["", "Targets (issue 11):", "", targets_markdown(payload["targets"])]
    if payload.get("overhead_targets"):
        lines += ["", "Overhead targets (issue 21):", "",
                  targets_markdown(payload["overhead_targets"])]
    first = [r for r in payload["results"] if r["workload"] == "W7"]
    if first:
        lines += ["", "First call (W7, fresh processes):", "", FIRST_CALL_TEXT.format(
            reps=cfg["startup_reps"]), "", table(first), ""]
        lines += [f"- {r['label']}: {r['note']}" for r in first if r["note"]]
        if payload.get("startup_numba"):
            lines += ["", payload["startup_numba"]]
    if payload.get("first_call_targets"):
        lines += ["", "First-call targets (issue 24):", "",
                  targets_markdown(payload["first_call_targets"])]
    return "\n".join(lines)


# The README shows the headline of the report: one row per timed task (no floors, no
# derived rows, no cold-cache row) and the libraries a reader compares first; the whole
# report is benchmarks/results/suite.md, which docs/benchmarks.md includes.
HEADLINE_COLUMNS = [wl.FG, wl.FG_JIT, wl.JAX, wl.JAX_JIT, wl.TORCH, wl.AUTOGRAD]

README_INTRO = """\
`make bench` runs the benchmark suite against JAX, PyTorch and HIPS autograd (workloads
W1-W8; the whole report, its plot and the method are in
[docs/benchmarks.md](docs/benchmarks.md)). Headline rows of the latest run, median time per
call and, in brackets, the ratio to the fastest of JAX, jax.jit, PyTorch, torch.func and
autograd (below 1: faster than all of them):
"""


def headline(payload: dict[str, Any]) -> str:
    """The README's table: the timed tasks, for the libraries of ``HEADLINE_COLUMNS``."""
    results = [r for r in payload["results"]
               if not r["reference_only"]
               and any("median_s" in r["libraries"].get(c, {}) for c in HEADLINE_COLUMNS)]
    columns = [c for c in HEADLINE_COLUMNS if any(c in r["libraries"] for r in results)]
    rows = []
    for res in results:
        row = {"task": res["label"], "unit": res["unit"]}
        for c in columns:
            row[c] = _cell(res["libraries"].get(c), UNIT_SCALE[res["unit"]])
        rows.append(row)
    m = payload["machine"]
    return (f"Run of {payload['date'][:10]} (`{payload['config']['command']}`) on "
            f"{m['cpu_model']}, {m['cpu_usable']} cores (figures move between machines: "
            f"read the ratios):\n\n"
            + markdown_table(rows, ["task", "unit"] + columns))


def update_readme(payload: dict[str, Any], path: Path = README) -> None:
    """Replace (or append) the ``## Benchmarks`` section of the README with the headline."""
    text = path.read_text()
    section = "## Benchmarks\n\n" + README_INTRO + "\n" + headline(payload) + "\n"
    match = re.search(r"^## Benchmarks[ \t]*\n", text, re.MULTILINE)
    if match:
        nxt = re.search(r"^## ", text[match.end():], re.MULTILINE)
        end = match.end() + nxt.start() if nxt else len(text)
        tail = text[end:]
        text = text[:match.start()] + section.rstrip() + "\n" + ("\n" + tail if tail else "")
    else:
        text = text.rstrip() + "\n\n" + section.rstrip() + "\n"
    path.write_text(text)


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def _select_libs(spec: str | None) -> list[str]:
    if not spec:
        return list(wl.LIBRARIES)
    chosen: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        if part in wl.GROUPS:
            chosen += wl.GROUPS[part]
        elif part in wl.LIBRARIES:
            chosen.append(part)
        else:
            raise SystemExit(f"unknown library {part!r}: use one of "
                             f"{sorted(wl.GROUPS) + wl.LIBRARIES}")
    return [lib for lib in wl.LIBRARIES if lib in chosen]


def _versions(libs: list[str]) -> dict[str, str | None]:
    out = {"numpy": np.__version__}
    for dist in dict.fromkeys(wl.DISTRIBUTION[lib] for lib in libs):
        if dist != "numpy":
            out[dist] = package_version(dist)
    out["numba"] = package_version("numba")
    return out


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="5 rounds of ~15 ms per case, W7 x2 (about 5 minutes)")
    p.add_argument("--only", help="comma-separated workloads, e.g. W1,W3,W7 (default all)")
    p.add_argument("--libs", help="comma-separated libraries or groups "
                   "(funcgrad, jax, torch, autograd, reference; default all)")
    p.add_argument("--rounds", type=int, help="rounds per task (default 15, quick 5)")
    p.add_argument("--target-ms", type=float, help="length of one timed loop (50, quick 15)")
    p.add_argument("--startup-reps", type=int, help="W7 processes per library (7, quick 2)")
    p.add_argument("--size", choices=sorted(wl.SIZES), default="full",
                   help="problem sizes: the issue's (full) or tiny (smoke test)")
    p.add_argument("--out-dir", type=Path, default=RESULTS_DIR)
    p.add_argument("--name", help="output file stem (default suite, quick: suite-quick)")
    p.add_argument("--no-plot", action="store_true", help="skip the PNG")
    p.add_argument("--update-readme", action="store_true",
                   help="write the headline table into README.md's Benchmarks section")
    p.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                   help="cpu (default): CPU time of the process, robust to other work on "
                   "the machine; wall: elapsed time")
    p.add_argument("--command", help="the command recorded in the report "
                   "(default: this script's command line)")
    args = p.parse_args(argv)

    mode = "quick" if args.quick else "full"
    d_rounds, d_target, d_reps = MODES[mode]
    rounds = args.rounds or d_rounds
    target = (args.target_ms / 1e3) if args.target_ms else d_target
    reps = args.startup_reps or d_reps
    name = args.name or ("suite-quick" if args.quick else "suite")
    libs = _select_libs(args.libs)
    only = [w.strip().upper() for w in args.only.split(",")] if args.only else ALL_WORKLOADS
    unknown = [w for w in only if w not in ALL_WORKLOADS]
    if unknown:
        p.error(f"unknown workloads {unknown}: choose from {ALL_WORKLOADS}")
    size = wl.SIZES[args.size]
    command = args.command or "python benchmarks/suite.py" + "".join(f" {a}" for a in argv)

    t_start = time.perf_counter()
    load_start = _loadavg()
    _say(f"benchmark suite ({mode}, {args.size} sizes): {rounds} rounds x ~{target * 1e3:g} "
         f"ms; workloads {','.join(only)}; libraries {', '.join(libs)}")
    results: list[dict[str, Any]] = []
    for w in only:
        if w == "W7":
            continue
        for task in wl.WORKLOADS[w](size):
            results.append(run_task(task, libs, rounds, target, args.clock))
    startup_note = None
    if "W7" in only:
        labels = ([lib for lib in libs if lib != wl.REF]
                  + (["numpy"] if wl.REF in libs else []))
        t0 = time.perf_counter()
        measured = startup.measure(labels, reps, size=args.size)
        results.extend(startup_results(measured))
        _say(f"W7 start-up: {reps} repetitions in {time.perf_counter() - t0:.1f} s")
        loaded = [r.get("numba_loaded_by_import") for r in measured["runs"].values()
                  if r["label"] == wl.FG and r["status"] == "ok"]
        if loaded:
            startup_note = ("`import funcgrad` " + ("imports" if any(loaded) else
                            "does not import") + " Numba.")

    elapsed = time.perf_counter() - t_start
    payload: dict[str, Any] = {
        "benchmark": "suite",
        "date": now_iso(),
        "machine": machine_info(),
        "config": {"mode": mode, "size": args.size, "rounds": rounds,
                   "target_ms": target * 1e3, "startup_reps": reps, "workloads": only,
                   "clock": args.clock,
                   "libraries": libs, "command": command},
        "versions": _versions(libs),
        "elapsed_s": elapsed,
        "load_average_1min": {"start": load_start, "end": _loadavg()},
        "results": results,
        "startup_numba": startup_note,
    }
    payload["targets"] = targets(results)
    payload["overhead_targets"] = overhead_targets(results)
    payload["first_call_targets"] = first_call_targets(results)
    text = report(payload)
    print(text)

    args.out_dir.mkdir(parents=True, exist_ok=True)
    md = args.out_dir / f"{name}.md"
    md.write_text(f"# funcgrad benchmark suite ({mode})\n\n{text}\n")
    _say(f"wrote {md}")
    _say(f"wrote {write_json(args.out_dir / f'{name}.json', payload)}")
    if not args.no_plot:
        if __package__:
            from . import plot
        else:
            import plot  # type: ignore[no-redef]
        png, why = plot.plot(payload, args.out_dir / f"{name}.png")
        _say(f"wrote {png}" if png else f"no plot: {why}")
    if args.update_readme:
        update_readme(payload)
        _say(f"updated the Benchmarks section of {README}")
    _say(f"done in {time.perf_counter() - t_start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

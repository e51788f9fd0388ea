"""W7, first calls: start-up and first-call latency, each in a fresh process.

One tool for everything a user waits for before the first result: the suite's W7 rows
(funcgrad beside JAX, PyTorch and HIPS autograd, :func:`measure`) and funcgrad's own
cold/warm kernel-cache table (``python benchmarks/startup.py``, :func:`main`).

Every measurement is a new ``python`` subprocess running a short script that times, with
``time.perf_counter`` (wall time: what the user waits) and ``time.process_time`` (CPU
time of the whole process, all its threads; kept in the JSON):

* ``import``: importing the library (NumPy included: it is not imported before), from
  nothing;
* ``first grad`` (W1): building the transform and its first call on W1 (16 float64
  elements), including any tracing and compilation (``jax.jit``) and, for funcgrad,
  compiling or loading its Numba kernels;
* ``first value_and_grad`` (W3, the MLP of benchmarks/workloads.py, built by the suite's
  own builders, so the work is the W3 row's): building the transform (and the library's
  arrays) and its first call.  ``funcgrad.jit`` runs with its defaults: the first call
  is evaluated eagerly while a background thread compiles; the script then calls
  ``block_until_compiled()``, and ``until compiled`` is the time from the start of the
  first call until compiled code is in use (then five compiled calls, the fastest is
  ``compiled_call_s``, and its result is checked as well).

Wall time, not CPU time, is the figure for these rows: funcgrad's first calls run on its
kernels' NumPy twins while a background thread imports Numba and loads (or compiles) the
kernels, so the process's CPU time counts work nobody waits for.

funcgrad runs twice per repetition: with its caches *warm* (Numba's kernel cache and
funcgrad's generated-source cache, where they are, primed by one untimed run first) and
*cold* (``NUMBA_CACHE_DIR`` and ``FUNCGRAD_CACHE_DIR`` pointing into a new, empty
temporary folder: a fresh install).  The peers have no on-disk cache in play (JAX's
persistent compilation cache is off by default), so they run once per repetition.
``numpy`` alone gives the import baseline.  Repetitions are interleaved round-robin;
figures are medians.  Each script checks its result against the closed form (W1) or the
suite's float64 reference (W3) and says if it is wrong.

Run (funcgrad alone, cold and warm, every figure printed)
    python benchmarks/startup.py [--reps 2] [--only import w1 w1ready w4 warmup w3 w3jit]
                                 [--kernels background|wait]

    ``w1ready``: from the start of W1's first ``grad`` until every kernel it asked for is
    loaded and in use (the background loader is done; with ``--kernels wait`` that is the
    first grad itself); ``w4``: the first ``grad`` of W4 (1e6 float64); ``warmup``:
    ``fg.warmup()`` (every kernel, float64 and float32); ``w3``/``w3jit``: W3's first
    ``value_and_grad``, eager and ``fg.jit`` (``w3jit`` prints the first call and, after
    ``/``, the time until compiled code is in use).  ``--kernels`` sets
    ``FUNCGRAD_KERNELS`` (default: the library's default, background loading).  Run it
    from the root of the tree to measure (the children import ``funcgrad`` from there).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent

_TEMPLATE = """\
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
{imports}
t1, c1 = time.perf_counter(), time.process_time()
numba_loaded = "numba" in sys.modules
import numpy as np
x_np = np.linspace(-1.0, 1.0, 16)
{setup}
def f(x):
    return xp.sum(xp.sin(x) * xp.cos(x) + xp.exp(-x * x) + xp.log1p(x * x)
                  + xp.tanh(x) / (1 + x * x))
out = {{"import_s": t1 - t0, "import_cpu_s": c1 - c0,
        "numba_loaded_by_import": numba_loaded}}
if {has_grad}:
    t2, c2 = time.perf_counter(), time.process_time()
{first}
    t3, c3 = time.perf_counter(), time.process_time()
    out["first_grad_s"] = t3 - t2
    out["first_grad_cpu_s"] = c3 - c2
    g = np.asarray({to_numpy}, dtype=np.float64)
    t, q = np.tanh(x_np), 1 + x_np * x_np
    ref = (np.cos(2 * x_np) - 2 * x_np * np.exp(-x_np * x_np) + 2 * x_np / q
           + (1 - t * t) / q - 2 * x_np * t / (q * q))
    out["grad_ok"] = bool(g.shape == ref.shape and np.allclose(g, ref, rtol=1e-9, atol=0))
print("W7RESULT " + json.dumps(out))
"""

# W3 through the suite's own task and builders (benchmarks/workloads.py, importable from
# the tree's root, the child's folder).  The reference is computed before the clock starts.
_W3_TEMPLATE = """\
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
{imports}
t1, c1 = time.perf_counter(), time.process_time()
from benchmarks import workloads as wl
task = wl.w3(wl.SIZES[{size!r}])[1]
lib = wl.load({label!r})
t2, c2 = time.perf_counter(), time.process_time()
run = task.builders[{label!r}](lib)
got = run()
t3, c3 = time.perf_counter(), time.process_time()
out = {{"import_s": t1 - t0, "import_cpu_s": c1 - c0,
        "first_call_s": t3 - t2, "first_call_cpu_s": c3 - c2}}
problem = wl.compare(got, task.expected, task.rtol, task.atol_rel, task.dtype)
jitted = getattr(run, "jitted", None)
if jitted is not None and problem is None:
    jitted.block_until_compiled()
    t4, c4 = time.perf_counter(), time.process_time()
    out["until_compiled_s"] = t4 - t2
    out["until_compiled_cpu_s"] = c4 - c2
    calls = []
    for _ in range(5):
        t5 = time.perf_counter()
        got = run()
        calls.append(time.perf_counter() - t5)
    out["compiled_call_s"] = min(calls)
    problem = wl.compare(got, task.expected, task.rtol, task.atol_rel, task.dtype)
out["grad_ok"] = problem is None
if problem is not None:
    out["problem"] = problem
print("W7RESULT " + json.dumps(out))
"""

# label -> (imports, setup, first-call lines (indented 4), result expression)
_FG_IMPORTS = "import funcgrad as fg\nimport funcgrad.numpy as fnp"
_JAX_IMPORTS = "import jax\njax.config.update('jax_enable_x64', True)\nimport jax.numpy as jnp"
SCRIPTS: dict[str, tuple[str, str, str | None, str]] = {
    "numpy": ("import numpy", "", None, ""),
    "funcgrad (fnp)": (_FG_IMPORTS, "xp = fnp\nx = x_np", "    g = fg.grad(f)(x)", "g"),
    "funcgrad (np)": (_FG_IMPORTS, "xp = np\nx = x_np", "    g = fg.grad(f)(x)", "g"),
    "funcgrad.jit": (_FG_IMPORTS, "xp = fnp\nx = x_np", "    g = fg.jit(fg.grad(f))(x)",
                     "g"),
    "jax": (_JAX_IMPORTS, "xp = jnp\nx = jnp.asarray(x_np)",
            "    g = jax.grad(f)(x).block_until_ready()", "g"),
    "jax.jit": (_JAX_IMPORTS, "xp = jnp\nx = jnp.asarray(x_np)",
                "    g = jax.jit(jax.grad(f))(x).block_until_ready()", "g"),
    "torch": ("import torch\ntorch.set_num_threads(1)",
              "xp = torch\nx = torch.tensor(x_np)",
              "    a = x.detach().requires_grad_()\n    g = torch.autograd.grad(f(a), a)[0]",
              "g.detach().numpy()"),
    "torch.func": ("import torch\ntorch.set_num_threads(1)",
                   "xp = torch\nx = torch.tensor(x_np)",
                   "    g = torch.func.grad(f)(x)", "g.detach().numpy()"),
    "autograd": ("import autograd\nimport autograd.numpy as anp", "xp = anp\nx = x_np",
                 "    g = autograd.grad(f)(x)", "g"),
}
#: the Python module each script needs (skipped with a note when missing)
REQUIRES = {"numpy": "numpy", "funcgrad (fnp)": "funcgrad", "funcgrad (np)": "funcgrad",
            "funcgrad.jit": "funcgrad", "jax": "jax", "jax.jit": "jax", "torch": "torch",
            "torch.func": "torch", "autograd": "autograd"}
FUNCGRAD = ("funcgrad (fnp)", "funcgrad (np)", "funcgrad.jit")
#: W3's first value_and_grad is measured for these labels (torch.func and funcgrad (np)
#: would add fresh processes without a new question)
W3_LABELS = ("funcgrad (fnp)", "funcgrad.jit", "jax", "jax.jit", "torch", "autograd")
#: what each workload's script measures: its result field (``<field>_s``, ``_cpu_s``)
FIELD = {"W1": "first_grad", "W3": "first_call"}


def script(label: str, workload: str = "W1", size: str = "full") -> str:
    """The fresh process's program for ``label`` (a library column) on ``workload``."""
    imports, setup, first, result = SCRIPTS[label]
    if workload == "W3":
        return _W3_TEMPLATE.format(imports=imports, label=label, size=size)
    return _TEMPLATE.format(imports=imports, setup=setup, has_grad=first is not None,
                            first=first or "    pass", to_numpy=result or "None")


def _child_env(cold_cache_dir: str | None, kernels: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                "NUMBA_NUM_THREADS"):
        env.setdefault(var, "1")
    env.setdefault("JAX_PLATFORMS", "cpu")
    env.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")
    # Start-up as users meet it: Python's bytecode cache is written by the first (untimed)
    # run and read afterwards, as for every installed library (pip compiles theirs at
    # install).  Without this, a shell that sets PYTHONDONTWRITEBYTECODE made funcgrad's
    # import time its source compile time, while the peers' came from their caches.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # fg.jit as users meet it (first calls eager, compiled in the background): the suite
    # sets FUNCGRAD_JIT_WAIT=1 for itself (benchmarks/_timing.py), and children inherit it.
    env.pop("FUNCGRAD_JIT_WAIT", None)
    # Kernel loading as users meet it unless asked (the suite waits for itself: _timing).
    env.pop("FUNCGRAD_KERNELS", None)
    if kernels is not None:
        env["FUNCGRAD_KERNELS"] = kernels
    if cold_cache_dir is not None:
        # a fresh install: no Numba machine code, no generated kernel sources
        env["NUMBA_CACHE_DIR"] = os.path.join(cold_cache_dir, "numba")
        env["FUNCGRAD_CACHE_DIR"] = os.path.join(cold_cache_dir, "funcgrad")
    return env


def _run_child(program: str, cold: bool, timeout: float, kernels: str | None,
               python: str | os.PathLike[str] | None,
               cwd: str | os.PathLike[str] | None) -> dict[str, Any]:
    if cold:
        # Measured, leave at once: a normal exit first lets funcgrad's loader finish the
        # kernel it is compiling, into a cache deleted next (W1's cold process: 3.8 s
        # instead of 1 s, load ~6 on 2 cores); os._exit skips that wait and any teardown.
        program += "\nsys.stdout.flush()\nimport os\nos._exit(0)\n"
    with tempfile.TemporaryDirectory(prefix="funcgrad-cold-cache-") as tmp:
        env = _child_env(tmp if cold else None, kernels)
        try:
            proc = subprocess.run([str(python or sys.executable), "-c", program],
                                  cwd=cwd or ROOT, env=env,
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {timeout} s"}
    return parse_output(proc.stdout, proc.stderr, proc.returncode)


def parse_output(stdout: str, stderr: str = "", returncode: int = 0) -> dict[str, Any]:
    """A child's ``W7RESULT {json}`` line as a dict, or ``{"error": ...}`` naming the
    exit status and the last line of its error output."""
    for line in stdout.splitlines():
        if line.startswith("W7RESULT "):
            return json.loads(line[len("W7RESULT "):])
    tail = (stderr.strip().splitlines() or ["no output"])[-1]
    return {"error": f"exit {returncode}: {tail[:200]}"}


def run_once(label: str, cold: bool = False, timeout: float = 300,
             python: str | os.PathLike[str] | None = None,
             cwd: str | os.PathLike[str] | None = None, *, workload: str = "W1",
             size: str = "full", kernels: str | None = None) -> dict[str, Any]:
    """One fresh process; returns its measurements (or ``{"error": ...}``).

    The process runs ``python`` (default: this interpreter) in ``cwd`` (default: this
    tree's root), so ``import funcgrad`` finds that folder's ``funcgrad`` first;
    benchmarks/compare.py points both at another tree.
    """
    return _run_child(script(label, workload, size), cold, timeout, kernels, python, cwd)


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _funcgrad_has_jit() -> bool:
    import funcgrad

    return hasattr(funcgrad, "jit")


def _new_run(label: str, workload: str, cold: bool) -> dict[str, Any]:
    rec: dict[str, Any] = {"label": label, "workload": workload, "cold": cold,
                           "import_s": [], "import_cpu_s": []}
    field = FIELD[workload]
    rec[field + "_s"], rec[field + "_cpu_s"] = [], []
    if workload == "W3" and label == "funcgrad.jit":
        rec.update(until_compiled_s=[], until_compiled_cpu_s=[], compiled_call_s=[])
    if not _installed(REQUIRES[label]):
        rec.update(status="skipped", reason=f"{REQUIRES[label]} not installed")
    elif label == "funcgrad.jit" and not _funcgrad_has_jit():
        rec.update(status="skipped", reason="funcgrad has no `jit` yet (fg.jit does not exist)")
    else:
        rec["status"] = "ok"
    return rec


def measure(labels: list[str], reps: int, progress: Callable[[str], None] | None = None,
            workloads: tuple[str, ...] = ("W1", "W3"), size: str = "full"
            ) -> dict[str, Any]:
    """Round-robin ``reps`` repetitions of every start-up script.

    Returns ``{"runs": {run name: {"label", "workload", "cold", "status", samples...}}}``:
    one run per label and workload (warm cache), plus ``"... cold"`` for funcgrad; W3
    runs only for :data:`W3_LABELS`.  ``size`` is W3's (benchmarks/workloads.py's SIZES).
    """
    runs: dict[str, dict[str, Any]] = {}
    for workload in workloads:
        for label in labels:
            if workload == "W3" and label not in W3_LABELS:
                continue
            for cold in ([False, True] if label in FUNCGRAD else [False]):
                name = ("" if workload == "W1" else "W3 ") + label + (" cold" if cold else "")
                runs[name] = _new_run(label, workload, cold)
    # prime funcgrad's warm caches once, untimed (the peers' files are already in the OS
    # cache when the suite has run W1-W6)
    for rec in runs.values():
        if rec["status"] == "ok" and not rec["cold"] and rec["label"] in FUNCGRAD:
            first = run_once(rec["label"], workload=rec["workload"], size=size)
            if "error" in first:
                rec.update(status="ERROR", error=first["error"])
    for r in range(reps):
        for rec in runs.values():
            if rec["status"] == "ok":
                # W3's cold fg.jit waits for a whole compile: ~70 s at load 7 on 2 cores
                _record(rec, run_once(rec["label"], cold=rec["cold"],
                                      timeout=900 if rec["workload"] == "W3" else 300,
                                      workload=rec["workload"], size=size))
        if progress is not None:
            progress(f"W7 repetition {r + 1}/{reps}")
    return {"runs": runs, "reps": reps}


def _record(rec: dict[str, Any], got: dict[str, Any]) -> None:
    """Add one process's figures to its run (or mark the run ERROR / WRONG)."""
    if "error" in got:
        rec.update(status="ERROR", error=got["error"])
    elif got.get("grad_ok") is False:
        what = "first grad differs from the closed form" if rec["workload"] == "W1" \
            else f"first value_and_grad differs from the reference: {got.get('problem')}"
        rec.update(status="WRONG", error=what)
    else:
        for key, samples in rec.items():
            if key.endswith("_s") and key in got:
                samples.append(got[key])
        if "numba_loaded_by_import" in got:
            rec["numba_loaded_by_import"] = got["numba_loaded_by_import"]


# --------------------------------------------------------------------------
# funcgrad alone, cold and warm: python benchmarks/startup.py
# --------------------------------------------------------------------------

_FG_CHILD = """\
import json, sys, time
what = {what!r}
t0 = time.perf_counter()
import funcgrad as fg, funcgrad.numpy as xp
import numpy as np
t1 = time.perf_counter()
out = {{"import_s": t1 - t0}}
if what != "import":
    if what == "w4":
        x = np.linspace(-3.0, 3.0, 10**6)
        f = lambda v: xp.sum(xp.exp(xp.sin(v)) * xp.cos(v) ** 2 + xp.sqrt(1 + v * v))
    else:
        x = np.linspace(-1.0, 1.0, 16)
        f = lambda x: xp.sum(xp.sin(x) * xp.cos(x) + xp.exp(-x * x) + xp.log1p(x * x)
                             + xp.tanh(x) / (1 + x * x))
    t2 = time.perf_counter()
    if what == "warmup":
        fg.warmup()
    else:
        fg.grad(f)(x)
    if what == "w1ready":
        from funcgrad.kernels.cpu import _lazy
        while getattr(_lazy, "_requests", None):  # the loader is at work
            time.sleep(0.001)
    out["first_s"] = time.perf_counter() - t2
print("W7RESULT " + json.dumps(out))
"""

LABELS = {"import": "import funcgrad", "w1": "first grad of W1 (16 float64)",
          "w1ready": "W1's kernels loaded and in use",
          "w4": "first grad of W4 (1e6 float64)", "warmup": "fg.warmup()",
          "w3": "first value_and_grad of W3 (MLP), eager",
          "w3jit": "W3, fg.jit: first call / until compiled"}


def funcgrad_once(what: str, cold: bool, kernels: str | None = None) -> str:
    """One fresh process measuring ``what`` (a key of :data:`LABELS`); its figure in
    seconds as text, or the error."""
    if what in ("w3", "w3jit"):
        label = "funcgrad.jit" if what == "w3jit" else "funcgrad (fnp)"
        got = run_once(label, cold, 900, workload="W3", kernels=kernels)
        key = "first_call_s"
    else:
        got = _run_child(_FG_CHILD.format(what=what), cold, 600, kernels, None, None)
        key = "import_s" if what == "import" else "first_s"
    if "error" in got or got.get("grad_ok") is False:
        return got.get("error") or f"WRONG: {got.get('problem')}"
    text = f"{got[key]:.3g}"
    if what == "w3jit":
        text += f" / {got['until_compiled_s']:.3g}"
    return text


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="funcgrad's first calls in fresh processes, "
                                "with a cold and a warm kernel cache (see the module's "
                                "docstring; the suite's W7 runs the peers too)")
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--only", nargs="+", default=list(LABELS), choices=list(LABELS))
    p.add_argument("--kernels", choices=["background", "wait"], default=None)
    args = p.parse_args(argv)
    results: dict[str, dict[str, list[str]]] = {w: {"cold": [], "warm": []}
                                                for w in args.only}
    for w in args.only:  # untimed: a cold run writes into its own folder, not the default
        funcgrad_once(w, False, args.kernels)
    for _ in range(args.reps):
        for w in args.only:
            results[w]["cold"].append(funcgrad_once(w, True, args.kernels))
            results[w]["warm"].append(funcgrad_once(w, False, args.kernels))
    print("| fresh process (wall time, s) | cold cache | warm cache |")
    print("|---|---:|---:|")
    for w, r in results.items():
        print(f"| {LABELS[w]} | {', '.join(r['cold'])} | {', '.join(r['warm'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""W7, start-up: ``import`` time and the first ``grad`` of W1, each in a fresh process.

Every measurement is a new ``python`` subprocess running a short script that
times, with ``time.perf_counter``:

* ``import``: importing the library (NumPy included: it is not imported
  before), from nothing;
* ``first grad``: building the transform and its first call on W1 (16
  float64 elements), including any tracing and compilation (``jax.jit``)
  and, for funcgrad, compiling or loading its Numba kernels.

funcgrad runs twice per repetition: with its Numba kernel cache *warm* (the
default cache, in ``__pycache__`` beside the kernel modules, primed by one
untimed run first) and *cold* (``NUMBA_CACHE_DIR`` pointing at a new, empty
temporary folder, so every kernel compiles).  The peers have no on-disk kernel
cache in play (JAX's persistent compilation cache is off by default), so they
run once per repetition.  ``numpy`` alone gives the import baseline.
Repetitions are interleaved round-robin; figures are medians.  Both the wall
time (``perf_counter``) and the CPU time of the child (``process_time``) are
recorded; the suite reports the one its ``--clock`` names.  Each script
checks its gradient against the closed form and says if it is wrong.
"""
from __future__ import annotations

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

# label -> (imports, setup, first-call lines (indented 4), result expression)
_FG_IMPORTS = "import funcgrad as fg\nimport funcgrad.numpy as fnp"
SCRIPTS: dict[str, tuple[str, str, str | None, str]] = {
    "numpy": ("import numpy", "", None, ""),
    "funcgrad (fnp)": (_FG_IMPORTS, "xp = fnp\nx = x_np", "    g = fg.grad(f)(x)", "g"),
    "funcgrad (np)": (_FG_IMPORTS, "xp = np\nx = x_np", "    g = fg.grad(f)(x)", "g"),
    "funcgrad.jit": (_FG_IMPORTS, "xp = fnp\nx = x_np", "    g = fg.jit(fg.grad(f))(x)",
                     "g"),
    "jax": ("import jax\njax.config.update('jax_enable_x64', True)\nimport jax.numpy as jnp",
            "xp = jnp\nx = jnp.asarray(x_np)",
            "    g = jax.grad(f)(x).block_until_ready()", "g"),
    "jax.jit": ("import jax\njax.config.update('jax_enable_x64', True)\nimport jax.numpy as jnp",
                "xp = jnp\nx = jnp.asarray(x_np)",
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


def script(label: str) -> str:
    imports, setup, first, result = SCRIPTS[label]
    return _TEMPLATE.format(imports=imports, setup=setup, has_grad=first is not None,
                            first=first or "    pass", to_numpy=result or "None")


def _child_env(cold_cache_dir: str | None) -> dict[str, str]:
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
    if cold_cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cold_cache_dir
    return env


def run_once(label: str, cold: bool = False, timeout: float = 300,
             python: str | os.PathLike[str] | None = None,
             cwd: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """One fresh process; returns its measurements (or ``{"error": ...}``).

    The process runs ``python`` (default: this interpreter) in ``cwd`` (default: this
    tree's root), so ``import funcgrad`` finds that folder's ``funcgrad`` first;
    benchmarks/compare.py points both at another tree.
    """
    with tempfile.TemporaryDirectory(prefix="funcgrad-cold-numba-") as tmp:
        env = _child_env(tmp if cold else None)
        try:
            proc = subprocess.run([str(python or sys.executable), "-c", script(label)],
                                  cwd=cwd or ROOT, env=env,
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {timeout} s"}
    for line in proc.stdout.splitlines():
        if line.startswith("W7RESULT "):
            return json.loads(line[len("W7RESULT "):])
    tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
    return {"error": f"exit {proc.returncode}: {tail[:200]}"}


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _funcgrad_has_jit() -> bool:
    import funcgrad

    return hasattr(funcgrad, "jit")


def measure(labels: list[str], reps: int,
            progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Round-robin ``reps`` repetitions of every start-up script.

    Returns ``{"runs": {run name: {"label", "cold", "status", samples...}}}``:
    one run per label (warm cache), plus ``"<label> cold"`` for funcgrad.
    """
    runs: dict[str, dict[str, Any]] = {}
    for label in labels:
        variants = [False, True] if label in FUNCGRAD else [False]
        for cold in variants:
            name = label + (" cold" if cold else "")
            rec: dict[str, Any] = {"label": label, "cold": cold, "import_s": [],
                                   "import_cpu_s": [], "first_grad_s": [],
                                   "first_grad_cpu_s": []}
            if not _installed(REQUIRES[label]):
                rec.update(status="skipped", reason=f"{REQUIRES[label]} not installed")
            elif label == "funcgrad.jit" and not _funcgrad_has_jit():
                rec.update(status="skipped",
                           reason="funcgrad has no `jit` yet (fg.jit does not exist)")
            else:
                rec["status"] = "ok"
            runs[name] = rec
    # prime funcgrad's warm kernel cache once, untimed (the peers' files are already in
    # the OS cache when the suite has run W1-W6)
    for name, rec in runs.items():
        if rec["status"] == "ok" and not rec["cold"] and rec["label"] in FUNCGRAD:
            first = run_once(rec["label"])
            if "error" in first:
                rec.update(status="ERROR", error=first["error"])
    for r in range(reps):
        for name, rec in runs.items():
            if rec["status"] != "ok":
                continue
            got = run_once(rec["label"], cold=rec["cold"])
            if "error" in got:
                rec.update(status="ERROR", error=got["error"])
                continue
            if got.get("grad_ok") is False:
                rec.update(status="WRONG", error="first grad differs from the closed form")
                continue
            for key in ("import_s", "import_cpu_s", "first_grad_s", "first_grad_cpu_s"):
                if key in got:
                    rec[key].append(got[key])
            rec["numba_loaded_by_import"] = got["numba_loaded_by_import"]
        if progress is not None:
            progress(f"W7 repetition {r + 1}/{reps}")
    return {"runs": runs, "reps": reps}

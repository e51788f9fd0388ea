"""Compile time of ``fg.jit(fg.grad(chain))`` as the chain grows, against ``jax.jit`` (issue 24).

What it measures
    ``chain(x) = sum(y_n)``, ``y_{k+1} = sin(y_k) * 0.5 + y_k * 0.9``, on 64 float64
    elements: 4 operations per step, so ``--ops 200,800,3200`` are 50, 200 and 800
    steps.  For each size, each library's first call of the jitted gradient in a fresh
    process (trace, optimise, generate, compile, run once):

    cold   funcgrad with empty ``FUNCGRAD_CACHE_DIR`` and ``NUMBA_CACHE_DIR``; JAX with
           no persistent compilation cache (its default): nothing compiled before.
    warm   funcgrad again, in a new process, with the folders the cold run filled
           (Numba loads the machine code instead of compiling).

    The one-time initialisation of each library (Numba's and XLA's first compilation of
    anything) is timed apart, by a trivial jitted call made first, and not included.
    Both wall-clock and CPU seconds (``time.process_time``: all the process's threads)
    are reported: on a shared machine wall-clock time swings with the load, CPU time
    much less.  The gradients are checked against each other (rtol 1e-12).

    Growth: the ratio of the cold times of successive sizes (4x the operations each):
    4.0 is linear, 16 quadratic.

Run
    python benchmarks/jit_compile.py [--ops 200,800,3200] [--libs funcgrad,jax] [--out PATH]

Prints a Markdown table and writes ``benchmarks/results/jit_compile.json``.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
if __package__:
    from ._timing import machine_info, markdown_table, now_iso, package_version, write_json
else:
    sys.path.insert(0, str(HERE))
    from _timing import (machine_info, markdown_table, now_iso,  # type: ignore[no-redef]
                         package_version, write_json)

N = 64
OPS_PER_STEP = 4  # sin, multiply, multiply, add

_FUNCGRAD = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    import funcgrad as fg
    steps = {steps}
    fg.jit(lambda x: x + 1.0, wait=True)(np.zeros(2))  # Numba's one-time initialisation
    def chain(x):
        y = x
        for _ in range(steps):
            y = np.sin(y) * 0.5 + y * 0.9
        return np.sum(y)
    x = np.linspace(-1, 1, {n})
    c0, w0 = time.process_time(), time.perf_counter()
    g = fg.jit(fg.grad(chain), wait=True)(x)
    c1, w1 = time.process_time(), time.perf_counter()
    print(json.dumps({{"wall_s": w1 - w0, "cpu_s": c1 - c0, "grad": g.tolist()}}))
""")

_JAX = textwrap.dedent("""
    import json, os, time
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import numpy as np
    steps = {steps}
    jax.jit(lambda x: x + 1.0)(jnp.zeros(2)).block_until_ready()  # XLA's initialisation
    def chain(x):
        y = x
        for _ in range(steps):
            y = jnp.sin(y) * 0.5 + y * 0.9
        return jnp.sum(y)
    x = np.linspace(-1, 1, {n})
    c0, w0 = time.process_time(), time.perf_counter()
    g = jax.jit(jax.grad(chain))(x).block_until_ready()
    c1, w1 = time.process_time(), time.perf_counter()
    print(json.dumps({{"wall_s": w1 - w0, "cpu_s": c1 - c0, "grad": np.asarray(g).tolist()}}))
""")


def _child(code, env, timeout):
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=HERE.parent)
    if proc.returncode:
        raise RuntimeError(proc.stderr[-3000:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure(ops, libs, timeout):
    """``{(library, run): {"wall_s", "cpu_s", "grad"}}`` for a chain of ``ops`` operations."""
    steps = ops // OPS_PER_STEP
    out = {}
    if "funcgrad" in libs:
        with tempfile.TemporaryDirectory() as fg_cache, tempfile.TemporaryDirectory() as nb:
            env = dict(os.environ, FUNCGRAD_CACHE_DIR=fg_cache, NUMBA_CACHE_DIR=nb)
            env.pop("FUNCGRAD_JIT_WAIT", None)
            code = _FUNCGRAD.format(steps=steps, n=N)
            out[("funcgrad", "cold")] = _child(code, env, timeout)
            out[("funcgrad", "warm")] = _child(code, env, timeout)
    if "jax" in libs:
        out[("jax.jit", "cold")] = _child(_JAX.format(steps=steps, n=N), dict(os.environ),
                                          timeout)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", default="200,800,3200")
    parser.add_argument("--libs", default="funcgrad,jax")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per process")
    parser.add_argument("--out", default=str(HERE / "results" / "jit_compile.json"))
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.ops.split(",")]
    libs = args.libs.split(",")
    results, notes = {}, {}
    for ops in sizes:
        print(f"{ops} operations ...", file=sys.stderr, flush=True)
        try:
            results[ops] = measure(ops, libs, args.timeout)
        except Exception as e:  # report and go on with the other sizes
            notes[ops] = f"{type(e).__name__}: {str(e)[-400:]}"
            results[ops] = {}

    rows = []
    import numpy as np
    for ops in sizes:
        runs = results[ops]
        jax_cold = runs.get(("jax.jit", "cold"))
        fg_cold = runs.get(("funcgrad", "cold"))
        if jax_cold and fg_cold and not np.allclose(fg_cold["grad"], jax_cold["grad"],
                                                    rtol=1e-12, atol=0):
            notes[ops] = "funcgrad and JAX gradients differ"
        for (lib, run), r in runs.items():
            row = {"operations": ops, "library": lib, "run": run,
                   "wall (s)": r["wall_s"], "CPU (s)": r["cpu_s"]}
            if jax_cold:
                row["CPU / jax.jit cold"] = r["cpu_s"] / jax_cold["cpu_s"]
            rows.append(row)
    for lib, run in (("funcgrad", "cold"), ("jax.jit", "cold")):
        prev = None
        for ops in sizes:
            r = results[ops].get((lib, run))
            if r is not None and prev is not None:
                print(f"{lib} {run}: {prev[0]} -> {ops} operations: CPU x"
                      f"{r['cpu_s'] / prev[1]['cpu_s']:.2f} (linear: x{ops / prev[0]:.1f})")
            prev = (ops, r) if r is not None else None
    print(markdown_table(rows, ["operations", "library", "run", "wall (s)", "CPU (s)",
                                "CPU / jax.jit cold"]))
    for ops, note in notes.items():
        print(f"- {ops}: {note}")
    write_json(args.out, {
        "benchmark": "jit_compile", "date": now_iso(), "machine": machine_info(),
        "versions": {p: package_version(p) for p in ("funcgrad", "numba", "numpy", "jax")},
        "command": "python benchmarks/jit_compile.py " + " ".join(
            argv if argv is not None else sys.argv[1:]),
        "elements": N, "rows": rows, "notes": {str(k): v for k, v in notes.items()},
    })


if __name__ == "__main__":
    main()

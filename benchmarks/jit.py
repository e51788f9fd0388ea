"""``fg.jit`` against ``jax.jit``, PyTorch (eager and ``torch.compile``) and funcgrad eager.

Workloads (issue 9)
    W1  ``grad`` of ``sum(sin(x)*cos(x) + exp(-x*x) + log1p(x*x) + tanh(x)/(1+x*x))``,
        16 float64 elements: per-call dispatch overhead dominates.
    W2  200-step chain ``y = sin(y)*0.5 + y*0.9`` (forward), 8 float64 elements.
    W3  MLP 784-256-10, batch 128, float32, ``value_and_grad`` of the mean
        logsumexp cross-entropy: BLAS-bound.
    W4  ``grad`` of ``sum(exp(sin(x))*cos(x)**2 + sqrt(1+x*x))``, 1e6 float64 elements:
        elementwise, memory- and libm-bound.

Each library's result is checked against funcgrad eager (rtol 1e-5 for float32, 1e-9
otherwise) before it is timed; a library that is missing or fails is reported, not timed.
Timing: ``benchmarks/_timing.run_round_robin`` (interleaved rounds, median per call).
Threads: JAX/XLA, PyTorch and Numba's ``prange`` loops use all cores; OpenBLAS (NumPy's and
the one Numba reaches through SciPy) runs single-threaded unless ``--blas-threads N`` (or
``default``: the environment's setting) says otherwise.  On a machine shared with other
work, multithreaded OpenBLAS spin-waits and its timings swing 10-50x (W3 measured 1.3 ms
and 30 ms in consecutive runs); single-threaded it is stable.

Compile time of W1 (``fg.jit(fg.grad(w1))``, first call, in a fresh process): cold (an
empty cache directory) and warm (the directory the cold run filled: Numba loads the
kernels instead of compiling).  Both are reported with and without Numba's one-time
initialisation in the process (measured by a trivial jitted call made first).

Run
    python benchmarks/jit.py [--quick] [--rounds R] [--target-ms MS] [--only W1,W2]
                             [--libs a,b] [--blas-threads N|default] [--no-compile-time]
                             [--out PATH]

Prints a Markdown table and writes ``benchmarks/results/jit.json``.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import traceback
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")


def _blas_threads_from_argv():
    """``--blas-threads N`` (default 1) must act before NumPy loads its BLAS."""
    argv = sys.argv[1:]
    value = "1"
    if "--blas-threads" in argv:
        value = argv[argv.index("--blas-threads") + 1]
    if value != "default":
        for var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = value
    return value


BLAS_THREADS = _blas_threads_from_argv()

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
if __package__:
    from ._timing import (machine_info, markdown_table, now_iso, package_version,  # noqa
                          run_round_robin, summarize, write_json)
else:
    sys.path.insert(0, str(HERE))
    from _timing import (machine_info, markdown_table, now_iso, package_version,  # noqa
                         run_round_robin, summarize, write_json)


# --- the workloads, once per array namespace ----------------------------------------------------

def w1(xp, x):
    return xp.sum(xp.sin(x) * xp.cos(x) + xp.exp(-x * x) + xp.log1p(x * x)
                  + xp.tanh(x) / (1 + x * x))


def w2(xp, y, steps=200):
    for _ in range(steps):
        y = xp.sin(y) * 0.5 + y * 0.9
    return y


def w3(xp, lse, params, x, labels):
    w1_, b1, w2_, b2 = params
    logits = xp.tanh(x @ w1_ + b1) @ w2_ + b2
    return xp.mean(lse(logits) - xp.sum(logits * labels, axis=1))


def w4(xp, x):
    return xp.sum(xp.exp(xp.sin(x)) * xp.cos(x) ** 2 + xp.sqrt(1 + x * x))


def inputs():
    rng = np.random.default_rng(0)
    params = [(rng.standard_normal((784, 256)) * 0.05).astype(np.float32),
              np.zeros(256, np.float32),
              (rng.standard_normal((256, 10)) * 0.05).astype(np.float32),
              np.zeros(10, np.float32)]
    return {
        "W1": (np.linspace(-1.3, 1.4, 16),),
        "W2": (np.linspace(-1.0, 1.0, 8),),
        "W3": (params, rng.standard_normal((128, 784)).astype(np.float32),
               np.eye(10, dtype=np.float32)[rng.integers(0, 10, 128)]),
        "W4": (rng.standard_normal(1_000_000),),
    }


# --- one builder per library: returns {workload: zero-argument callable returning a result} ----

def build_funcgrad(data, jit):
    import funcgrad as fg
    import funcgrad.numpy as fnp

    def wrap(f):
        return fg.jit(f) if jit else f

    lse = lambda a: fnp.logsumexp(a, axis=1)  # noqa: E731
    g1 = wrap(fg.grad(lambda x: w1(fnp, x)))
    g2 = wrap(lambda y: w2(fnp, y))
    g3 = wrap(fg.value_and_grad(lambda p, x, t: w3(fnp, lse, p, x, t)))
    g4 = wrap(fg.grad(lambda x: w4(fnp, x)))
    return {"W1": lambda: g1(*data["W1"]), "W2": lambda: g2(*data["W2"]),
            "W3": lambda: g3(*data["W3"]), "W4": lambda: g4(*data["W4"])}


def build_jax(data):
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    lse = lambda a: jax.nn.logsumexp(a, axis=1)  # noqa: E731
    g1 = jax.jit(jax.grad(lambda x: w1(jnp, x)))
    g2 = jax.jit(lambda y: w2(jnp, y))
    g3 = jax.jit(jax.value_and_grad(lambda p, x, t: w3(jnp, lse, p, x, t)))
    g4 = jax.jit(jax.grad(lambda x: w4(jnp, x)))
    dev = {k: jax.tree_util.tree_map(jnp.asarray, v) for k, v in data.items()}

    def run(fn, args):
        return lambda: jax.block_until_ready(fn(*args))

    return {"W1": run(g1, dev["W1"]), "W2": run(g2, dev["W2"]), "W3": run(g3, dev["W3"]),
            "W4": run(g4, dev["W4"])}


def _torch_fns(torch):
    def g1(x):
        x = x.detach().requires_grad_(True)
        return torch.autograd.grad(w1(torch, x), x)[0]

    def g2(y):
        with torch.no_grad():
            return w2(torch, y)

    def g3(params, x, labels):
        params = [p.detach().requires_grad_(True) for p in params]
        loss = w3(torch, lambda a: torch.logsumexp(a, dim=1), params, x, labels)
        return loss.detach(), torch.autograd.grad(loss, params)

    def g4(x):
        x = x.detach().requires_grad_(True)
        return torch.autograd.grad(w4(torch, x), x)[0]

    return {"W1": g1, "W2": g2, "W3": g3, "W4": g4}


def _torch_data(torch, data):
    return {k: [([torch.from_numpy(p) for p in a] if isinstance(a, list) else
                 torch.from_numpy(a)) for a in v] for k, v in data.items()}


def build_torch(data, compile_=False):
    import torch
    fns = _torch_fns(torch)
    tdata = _torch_data(torch, data)
    if compile_:
        fns = {k: torch.compile(f) for k, f in fns.items()}
    return {k: (lambda f=f, a=tdata[k]: f(*a)) for k, f in fns.items()}


LIBRARIES = {
    "funcgrad.jit": lambda data: build_funcgrad(data, jit=True),
    "jax.jit": build_jax,
    "torch": build_torch,
    "torch.compile": lambda data: build_torch(data, compile_=True),
    "funcgrad (eager)": lambda data: build_funcgrad(data, jit=False),
}


def as_numpy(result):
    import funcgrad as fg
    leaves = fg.tree.leaves(result) if not hasattr(result, "detach") else [result]
    out = []
    for leaf in leaves:
        if hasattr(leaf, "detach"):
            leaf = leaf.detach().numpy()
        out.append(np.asarray(leaf, dtype=np.float64))
    return out


def agrees(got, want, rtol):
    got, want = as_numpy(got), as_numpy(want)
    return len(got) == len(want) and all(
        g.shape == w.shape and np.allclose(g, w, rtol=rtol, atol=rtol * max(1.0, np.abs(w).max()))
        for g, w in zip(got, want))


# --- compile time of W1, in fresh processes -----------------------------------------------------

_COMPILE_CHILD = textwrap.dedent("""
    import json, time
    t0 = time.perf_counter()
    import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    t1 = time.perf_counter()
    fg.jit(lambda x: x + 1.0)(np.zeros(2))   # Numba's one-time initialisation
    t2 = time.perf_counter()
    def w1(x):
        return fnp.sum(fnp.sin(x) * fnp.cos(x) + fnp.exp(-x * x) + fnp.log1p(x * x)
                       + fnp.tanh(x) / (1 + x * x))
    x = np.linspace(-1.3, 1.4, 16)
    g = fg.jit(fg.grad(w1))
    g(x)
    t3 = time.perf_counter()
    print(json.dumps({"import_s": t1 - t0, "numba_init_s": t2 - t1, "w1_first_call_s": t3 - t2}))
""")


def compile_times():
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, FUNCGRAD_CACHE_DIR=cache)
        runs = {}
        for name in ("cold", "warm"):
            proc = subprocess.run([sys.executable, "-c", _COMPILE_CHILD], capture_output=True,
                                  text=True, env=env, timeout=600, cwd=HERE.parent)
            if proc.returncode:
                raise RuntimeError(proc.stderr[-2000:])
            runs[name] = json.loads(proc.stdout.strip().splitlines()[-1])
    return runs


# --- main ------------------------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--target-ms", type=float, default=None)
    parser.add_argument("--only", default="W1,W2,W3,W4")
    parser.add_argument("--libs", default=",".join(LIBRARIES))
    parser.add_argument("--no-compile-time", action="store_true")
    parser.add_argument("--blas-threads", default="1",
                        help="OpenBLAS threads (default 1; 'default' keeps the environment's)")
    parser.add_argument("--out", default=str(HERE / "results" / "jit.json"))
    args = parser.parse_args(argv)
    rounds = args.rounds or (5 if args.quick else 15)
    target = (args.target_ms or (20 if args.quick else 100)) / 1000
    workloads = args.only.split(",")
    libs = args.libs.split(",")

    data = inputs()
    reference = build_funcgrad(data, jit=False)
    want = {w: reference[w]() for w in workloads}
    notes, cases, compile_s = {}, {}, {}
    for lib in libs:
        try:
            fns = LIBRARIES[lib](data)
        except Exception as e:  # a missing or broken library is reported, not timed
            notes[lib] = f"unavailable: {type(e).__name__}: {str(e)[:120]}"
            continue
        for w in workloads:
            rtol = 1e-5 if w == "W3" else 1e-9
            try:
                t0 = time.perf_counter()
                got = fns[w]()
                compile_s[(lib, w)] = time.perf_counter() - t0
                if not agrees(got, want[w], rtol):
                    notes[f"{lib} {w}"] = "WRONG result: not timed"
                    continue
            except Exception as e:
                notes[f"{lib} {w}"] = f"ERROR {type(e).__name__}: {str(e).splitlines()[0][:160]}"
                traceback.print_exc(limit=2, file=sys.stderr)
                continue
            cases[(lib, w)] = fns[w]

    samples = {}
    for w in workloads:
        group = {lib: fn for (lib, ww), fn in cases.items() if ww == w}
        print(f"timing {w}: {', '.join(group)}", file=sys.stderr)
        for lib, s in run_round_robin(group, rounds=rounds, target_seconds=target).items():
            samples[(lib, w)] = s

    rows = []
    for w in workloads:
        jax_t = summarize(samples[("jax.jit", w)])["median"] if ("jax.jit", w) in samples else None
        for lib in libs:
            if (lib, w) not in samples:
                continue
            med = summarize(samples[(lib, w)])["median"]
            rows.append({"workload": w, "library": lib, "median (us)": med * 1e6,
                         "vs jax.jit": med / jax_t if jax_t else "",
                         "first call (s)": compile_s[(lib, w)]})
    print(markdown_table(rows, ["workload", "library", "median (us)", "vs jax.jit",
                                "first call (s)"]))
    for key, note in notes.items():
        print(f"- {key}: {note}")

    compile_report = None
    if not args.no_compile_time:
        compile_report = compile_times()
        for name, r in compile_report.items():
            print(f"W1 fg.jit(fg.grad) first call, {name} cache: {r['w1_first_call_s']:.3f} s "
                  f"(+ Numba initialisation {r['numba_init_s']:.3f} s, import "
                  f"{r['import_s']:.3f} s)")
    write_json(args.out, {
        "benchmark": "jit", "date": now_iso(), "machine": machine_info(),
        "versions": {p: package_version(p) for p in ("funcgrad", "numba", "numpy", "jax",
                                                     "torch")},
        "command": "python benchmarks/jit.py " + " ".join(argv if argv is not None
                                                          else sys.argv[1:]),
        "blas_threads": BLAS_THREADS,
        "rows": rows, "notes": notes, "compile_time_w1": compile_report,
        "samples": {f"{lib} {w}": s for (lib, w), s in samples.items()},
    })


if __name__ == "__main__":
    main()

"""First-call costs of funcgrad's kernels in fresh processes, with a cold and a warm cache.

What it measures
    Each figure is a new ``python`` process timing one thing with ``time.perf_counter``:
    ``import funcgrad``; the first ``grad`` of W1 (16 float64 elements) and of W4 (1e6
    float64), which import Numba and build (or load) the kernels they need; and
    ``fg.warmup()`` (every kernel, float64 and float32); ``w1 ready``: from the start
    of W1's first ``grad`` until every kernel it asked for is loaded and in use (the
    background loader is done; with ``--kernels wait`` that is the first grad itself).
    *cold*: ``NUMBA_CACHE_DIR`` is a new empty folder, so every kernel compiles; *warm*:
    the default cache, primed by the cold run before it.  Repetitions are interleaved;
    all figures are printed.  ``--kernels`` sets ``FUNCGRAD_KERNELS`` (default: the
    library's default, background loading).  Run it from the root of the tree to
    measure (the children import ``funcgrad`` from the current folder).

Run
    python benchmarks/first_call.py [--reps 2] [--only import w1 w1ready w4 warmup]
                                    [--kernels background|wait]
"""
import argparse
import os
import subprocess
import sys
import tempfile

_CHILD = r"""
import sys, time
what = sys.argv[1]
t0 = time.perf_counter()
import funcgrad as fg, funcgrad.numpy as xp
import numpy as np
t1 = time.perf_counter()
if what == "import":
    print(t1 - t0)
    sys.exit()
if what in ("w1", "w1ready"):
    x = np.linspace(-1.0, 1.0, 16)
    f = lambda x: xp.sum(xp.sin(x) * xp.cos(x) + xp.exp(-x * x) + xp.log1p(x * x)
                         + xp.tanh(x) / (1 + x * x))
elif what == "w4":
    x = np.linspace(-3.0, 3.0, 10**6)
    f = lambda v: xp.sum(xp.exp(xp.sin(v)) * xp.cos(v) ** 2 + xp.sqrt(1 + v * v))
t2 = time.perf_counter()
if what == "warmup":
    fg.warmup()
else:
    fg.grad(f)(x)
if what == "w1ready":
    from funcgrad.kernels.cpu import _lazy
    while getattr(_lazy, "_requests", None):  # the loader is at work
        time.sleep(0.001)
print(time.perf_counter() - t2)
"""

LABELS = {"import": "import funcgrad", "w1": "first grad of W1 (16 float64)",
          "w1ready": "W1's kernels loaded and in use",
          "w4": "first grad of W4 (1e6 float64)", "warmup": "fg.warmup()"}


def one(what, cache_dir=None, kernels=None):
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure imports as users have them
    if kernels:
        env["FUNCGRAD_KERNELS"] = kernels
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", _CHILD, what], env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--only", nargs="+", default=list(LABELS), choices=list(LABELS))
    p.add_argument("--kernels", choices=["background", "wait"], default=None)
    args = p.parse_args(argv)
    results = {w: {"cold": [], "warm": []} for w in args.only}
    for _ in range(args.reps):
        for w in args.only:
            with tempfile.TemporaryDirectory() as d:
                results[w]["cold"].append(one(w, d, args.kernels))
            results[w]["warm"].append(one(w, None, args.kernels))
    print("| fresh process | cold cache (s) | warm cache (s) |")
    print("|---|---:|---:|")
    for w, r in results.items():
        cold = ", ".join(f"{v:.3g}" for v in r["cold"])
        warm = ", ".join(f"{v:.3g}" for v in r["warm"])
        print(f"| {LABELS[w]} | {cold} | {warm} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

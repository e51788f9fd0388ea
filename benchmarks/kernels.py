"""Each Numba CPU kernel against the NumPy expression it replaces, at 16 to 1e6 elements.

What it measures
    For the Numba kernels of ``funcgrad.kernels.cpu`` (the fused first-order VJP kernels,
    generated from the primitives' rules, timed through the primitives' VJP rules; the
    reductions, scatter): the time of the NumPy expression a kernel replaces (the rule on
    NumPy, forced with ``config.ufunc_min``/``config.numba_min`` set past the size) and of
    funcgrad's default dispatch (the kernel's ufunc for small arrays, its flat loop for
    large ones), on
    float64 inputs of n elements; printed as ``numpy / funcgrad`` ratios (> 1: funcgrad
    faster).  Forward ``sin``/``cos`` time the primitive's impl (the kernel ufunc itself)
    against ``np.sin``/``np.cos``.  Single-threaded unless ``--threads``.  A cotangent
    ``g`` is a fresh contiguous array, except in rows marked "(bcast g)", where it is one
    value broadcast with zero strides (the cotangent of a sum).

Run
    python benchmarks/kernels.py [--quick] [--sizes 16 100 10000 1000000] [--threads N]

Prints a Markdown table and writes ``benchmarks/results/kernels.json``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

if __package__:
    from ._timing import machine_info, markdown_table, now_iso, run_round_robin, summarize, write_json
else:
    from _timing import (machine_info, markdown_table, now_iso, run_round_robin,  # type: ignore
                         summarize, write_json)

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

import funcgrad  # noqa: E402,F401  (registers the primitives)
from funcgrad.core import REGISTRY  # noqa: E402
from funcgrad.kernels import cpu  # noqa: E402
from funcgrad.kernels.cpu import _lazy, reductions  # noqa: E402
from funcgrad.primitives.elementwise import cos_p, sin_p  # noqa: E402

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "kernels.json"


def _inputs(n, rng):
    x = rng.uniform(0.2, 0.9, n)
    return {"x": x, "g": rng.normal(size=n), "y": rng.uniform(0.2, 0.9, n),
            "gb": np.broadcast_to(np.float64(1.5), (n,))}


def cases(n, rng):
    """(label, kernel callable, args) for arrays of n elements."""
    v = _inputs(n, rng)
    x, g, y, gb = v["x"], v["g"], v["y"], v["gb"]
    out = []
    for name in ("tanh", "sqrt", "sin", "cos", "arcsin", "arctanh", "log1p", "reciprocal",
                 "square", "erf", "expit"):
        prim = REGISTRY[name]
        out.append((f"{name}_vjp", _vjp(prim, 0), (g, x, prim.impl(x))))
    out.append(("sqrt_vjp (bcast g)", _vjp(REGISTRY["sqrt"], 0), (gb, x, np.sqrt(x))))
    out.append(("square_vjp (bcast g)", _vjp(REGISTRY["square"], 0), (gb, x, x * x)))
    out.append(("maximum_vjp_x (relu, y=0)", _vjp(REGISTRY["maximum"], 0),
                (g, x - 0.5, 0.0, np.maximum(x - 0.5, 0.0))))
    for name, i in (("minimum", 1), ("divide", 1), ("hypot", 0), ("logaddexp", 0),
                    ("arctan2", 1)):
        prim = REGISTRY[name]
        out.append((f"{name}_vjp_{'xy'[i]}", _vjp(prim, i), (g, x, y, prim.impl(x, y))))
    out.append(("clip_vjp_x", _vjp(REGISTRY["clip"], 0), (g, x, 0.3, 0.7, np.clip(x, 0.3, 0.7))))
    out.append(("sin (forward)", _forward(sin_p, np.sin), (x * 10,)))
    out.append(("cos (forward)", _forward(cos_p, np.cos), (x * 10,)))
    rows = max(1, n // 100)
    x2 = rng.normal(size=(rows, n // rows))
    lse = reductions._logsumexp_numpy(x2, (1,), False)
    g2 = rng.normal(size=rows)
    out.append(("logsumexp, rows of 100", lambda a: cpu.logsumexp(a, (1,), False), (x2,)))
    out.append(("logsumexp_vjp, rows of 100",
                lambda gg, a, o: _or_rule(cpu.logsumexp_vjp(gg, a, o, (1,), False), gg, a, o),
                (g2, x2, lse)))
    m = np.max(x2, axis=1)
    out.append(("max_vjp, rows of 100",
                lambda gg, a, o: _or_max_rule(cpu.extremum_vjp(gg, a, o, (1,), False), gg, a, o),
                (g2, x2, m)))
    table = np.zeros((max(1, n // 1000), 64))
    idx = rng.integers(0, table.shape[0], max(1, n // 64))
    upd = rng.normal(size=(idx.size, 64))
    out.append(("index_add rows of 64", lambda t, i, u: cpu.index_add(t, (i,), u),
                (table, idx, upd)))
    return out


def _vjp(prim, i):
    """The cotangent of argument ``i`` by the primitive's VJP rule: its fused kernel (what
    funcgrad runs), or with the thresholds raised, the rule on NumPy (what it replaces)."""
    def vjp(g, *args_and_out):
        *args, out = args_and_out
        needs = tuple(k == i for k in range(len(args)))
        return prim.vjp(needs, g, out, *args)[i]
    return vjp


def _or_rule(ct, g, x, out):  # NumPy form of the logsumexp VJP (the differentiable rule's)
    return ct if ct is not None else g[:, None] * np.exp(x - out[:, None])


def _or_max_rule(ct, g, x, out):  # NumPy form of the max VJP (the rule's: ties share)
    if ct is not None:
        return ct
    hit = (x == out[:, None]).astype(x.dtype)
    return g[:, None] * (hit / hit.sum(axis=1, keepdims=True))


def _forward(prim, numpy_ufunc):
    """The primitive's impl (what funcgrad runs), and NumPy's ufunc as its NumPy path."""
    prim.impl(np.ones(2))  # install: the impl becomes the kernel ufunc (one thread)

    def impl(x):
        return (numpy_ufunc if _lazy.config.ufunc_min > x.size else prim.impl)(x)
    return impl


def with_threshold(value, fn, args):
    def run():
        old = _lazy.config.ufunc_min, _lazy.config.numba_min
        _lazy.config.ufunc_min = _lazy.config.numba_min = value
        try:
            return fn(*args)
        finally:
            _lazy.config.ufunc_min, _lazy.config.numba_min = old
    return run


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="3 rounds of ~10 ms")
    p.add_argument("--sizes", type=int, nargs="+", default=[16, 100, 10_000, 1_000_000])
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)
    rounds, target = (3, 0.01) if args.quick else (7, 0.03)
    cpu.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    rows, records = [], []
    for n in args.sizes:
        for label, fn, fargs in cases(n, rng):
            timed = {"numpy": with_threshold(1 << 62, fn, fargs),
                     "funcgrad": lambda fn=fn, fargs=fargs: fn(*fargs)}
            for t in timed.values():  # compile outside the timing
                t()
            samples = run_round_robin(timed, rounds, target)
            med = {k: summarize(s)["median"] for k, s in samples.items()}
            rec = {"kernel": label, "n": n, **{f"{k}_s": v for k, v in med.items()},
                   "numpy_over_funcgrad": med["numpy"] / med["funcgrad"]}
            records.append(rec)
            rows.append({"kernel": label, "n": n, "NumPy µs": med["numpy"] * 1e6,
                         "funcgrad µs": med["funcgrad"] * 1e6,
                         "NumPy/funcgrad": med["numpy"] / med["funcgrad"]})
            print(f"  {label} n={n}", file=sys.stderr, end="\r")
    print(f"\n### Kernels vs NumPy expressions (float64, {args.threads} thread(s))\n")
    print(markdown_table(rows, ["kernel", "n", "NumPy µs", "funcgrad µs", "NumPy/funcgrad"]))
    print(f"\nfuncgrad: its default dispatch (elementwise kernels: the ufunc, the flat loop "
          f"from {_lazy.config.numba_min} elements; rows, reductions and scatter: Numba from "
          f"{_lazy.config.numba_min}); NumPy/funcgrad > 1 means funcgrad is faster.")
    payload = {"benchmark": "kernels", "date": now_iso(), "machine": machine_info(),
               "config": {"sizes": args.sizes, "threads": args.threads, "rounds": rounds,
                          "target_seconds": target, "ufunc_min": _lazy.config.ufunc_min,
                          "numba_min": _lazy.config.numba_min},
               "results": records}
    print(f"\nwrote {write_json(args.out, payload)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

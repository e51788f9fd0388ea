"""W4: ``grad`` of ``sum(exp(sin(x)) * cos(x)**2 + sqrt(1 + x*x))`` on 1e6 float64.

What it measures
    One full gradient call per library, all timed round-robin in the same run
    (``_timing.run_round_robin``; median over the rounds):

    funcgrad              ``fg.grad(f)(x)``, f in plain NumPy, default threads
    funcgrad (1 thread)   the same after ``fg.set_num_threads(1)`` (equal on <= 2 CPUs)
    funcgrad (all CPUs)   the same after ``fg.set_num_threads(os.cpu_count())``
    jax (eager), jax.jit  ``jax.grad(f)``, without and with ``jax.jit``
    torch (eager)         forward, ``.backward()``, read ``.grad`` (torch's default threads)
    torch (eager, 1 thread)  the same after ``torch.set_num_threads(1)``
    autograd              HIPS autograd
    floors (reference rows, not ranked):
      memory floor        ``np.add(a, b, out=c)``: read 2 x 8 MB, write 8 MB
      compute floor       a hand-fused Numba loop of the closed-form gradient, one pass,
                          ``math.sin/cos/exp/sqrt`` (the C library), serial
      compute floor, vec. the same loop with funcgrad's vectorised sin/cos/exp
                          (``kernels/cpu/vmath.py``), serial

    Every gradient is checked against the closed form first (rtol 1e-10).

Run
    python benchmarks/w4.py [--quick] [--n 1000000] [--rounds R]

Prints a Markdown table and writes ``benchmarks/results/w4.json``.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_ENABLE_X64", "1")

import numpy as np  # noqa: E402

if __package__:
    from ._timing import (machine_info, markdown_table, now_iso, package_version,
                          run_round_robin, summarize, write_json)
else:
    from _timing import (machine_info, markdown_table, now_iso, package_version,  # type: ignore
                         run_round_robin, summarize, write_json)

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "w4.json"
RTOL = 1e-10


def closed_form(x):
    s, c = np.sin(x), np.cos(x)
    e = np.exp(s)
    return e * c * (c * c - 2.0 * s) + x / np.sqrt(1.0 + x * x)


def _funcgrad(threads):
    def build():
        import funcgrad as fg

        def f(x):
            return np.sum(np.exp(np.sin(x)) * np.cos(x) ** 2 + np.sqrt(1 + x * x))
        g = fg.grad(f)

        return "funcgrad", _threads(fg.get_num_threads, fg.set_num_threads, threads, g)
    return build


def _threads(get, set_, threads, fn):
    """``fn`` run with the library's thread count set to ``threads`` (None: as it is)."""
    def run(x):
        old = get()
        if threads is not None:
            set_(threads)
        try:
            return fn(x)
        finally:
            set_(old)
    return run


def _jax(jit):
    def build():
        import jax
        import jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)

        def f(x):
            return jnp.sum(jnp.exp(jnp.sin(x)) * jnp.cos(x) ** 2 + jnp.sqrt(1 + x * x))
        g = jax.grad(f)
        if jit:
            g = jax.jit(g)
        return "jax", lambda x: g(x).block_until_ready()
    return build


def _torch(threads=None):
    def build():
        import torch

        def grad(x):
            xt = torch.from_numpy(x).requires_grad_(True)
            torch.sum(torch.exp(torch.sin(xt)) * torch.cos(xt) ** 2
                      + torch.sqrt(1 + xt * xt)).backward()
            return xt.grad.numpy()

        return "torch", _threads(torch.get_num_threads, torch.set_num_threads, threads, grad)
    return build


def _autograd():
    import autograd
    import autograd.numpy as anp

    def f(x):
        return anp.sum(anp.exp(anp.sin(x)) * anp.cos(x) ** 2 + anp.sqrt(1 + x * x))
    return "autograd", autograd.grad(f)


def _memory_floor():
    cache = {}

    def run(x):
        if "b" not in cache:
            cache["b"], cache["c"] = np.ones_like(x), np.empty_like(x)
        return np.add(x, cache["b"], out=cache["c"])
    return "numpy", run


def _hand_fused(vectorised):
    def build():
        import numba
        from numba import njit
        if vectorised:
            from funcgrad.kernels.cpu.vmath import cos as cos_core
            from funcgrad.kernels.cpu.vmath import exp as exp_v
            from funcgrad.kernels.cpu.vmath import sin as sin_core

            @njit(cache=True, error_model="numpy", fastmath={"contract"})
            def loop(x, out):
                for i in range(x.size):
                    xi = x[i]
                    s, c = sin_core(xi), cos_core(xi)
                    e = exp_v(s)
                    out[i] = e * c * (c * c - 2.0 * s) + xi / math.sqrt(1.0 + xi * xi)
        else:
            @njit(cache=True, error_model="numpy")
            def loop(x, out):
                for i in range(x.size):
                    xi = x[i]
                    s, c = math.sin(xi), math.cos(xi)
                    e = math.exp(s)
                    out[i] = e * c * (c * c - 2.0 * s) + xi / math.sqrt(1.0 + xi * xi)

        def run(x):
            out = np.empty_like(x)
            loop(x, out)
            return out
        return "numba", run
    return build


# label, builder, reference only (a floor: not ranked)
LIBRARIES = [
    ("funcgrad", _funcgrad(None), False),
    ("funcgrad (1 thread)", _funcgrad(1), False),
    ("funcgrad (all CPUs)", _funcgrad(os.cpu_count()), False),
    ("jax (eager)", _jax(False), False),
    ("jax.jit", _jax(True), False),
    ("torch (eager)", _torch(), False),
    ("torch (eager, 1 thread)", _torch(1), False),
    ("autograd", _autograd, False),
    ("memory floor: np.add(a, b, out=c)", _memory_floor, True),
    ("compute floor: hand-fused Numba, libm", _hand_fused(False), True),
    ("compute floor: hand-fused Numba, vectorised", _hand_fused(True), True),
]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="5 rounds of ~0.2 s")
    p.add_argument("--n", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)
    rounds = args.rounds or (5 if args.quick else 11)
    target = 0.2 if args.quick else 0.5
    x = np.linspace(-3.0, 3.0, args.n)
    expected = closed_form(x)
    cases, records = {}, {}
    for label, build, reference in LIBRARIES:
        rec = records[label] = {"reference_only": reference}
        try:
            dist, fn = build()
        except ImportError as exc:
            rec.update(status="skipped", error=str(exc))
            print(f"{label}: skipped ({exc})", file=sys.stderr)
            continue
        rec["version"] = package_version(dist)
        got = np.asarray(fn(x))
        if not reference and not np.allclose(got, expected, rtol=RTOL, atol=1e-12):
            rec["status"] = "WRONG"
            print(f"{label}: WRONG gradient", file=sys.stderr)
            continue
        if label.startswith("compute floor") and not np.allclose(got, expected, rtol=RTOL,
                                                                   atol=1e-12):
            rec["status"] = "WRONG"
            continue
        rec["status"] = "ok"
        cases[label] = lambda fn=fn: fn(x)
    samples = run_round_robin(cases, rounds, target,
                              progress=lambda m: print(f"  {m}", file=sys.stderr, end="\r"))
    print(file=sys.stderr)
    med = {k: summarize(s)["median"] for k, s in samples.items()}
    floor = med.get("compute floor: hand-fused Numba, libm")
    fg_ms = med.get("funcgrad")
    rows = []
    for label, rec in records.items():
        if label not in med:
            continue
        rec.update(ms=med[label] * 1e3, samples_seconds=samples[label],
                   stats_seconds=summarize(samples[label]))
        rows.append({"library": label + (" (ref.)" if rec["reference_only"] else ""),
                     "ms": med[label] * 1e3,
                     "÷ funcgrad": med[label] / fg_ms if fg_ms else "",
                     "÷ libm floor": med[label] / floor if floor else ""})
    import funcgrad as fg
    print(f"\n### W4: grad of sum(exp(sin x) cos^2 x + sqrt(1 + x^2)), {args.n} float64 "
          f"(funcgrad threads: {fg.get_num_threads()})\n")
    print(markdown_table(rows, ["library", "ms", "÷ funcgrad", "÷ libm floor"]))
    payload = {"benchmark": "w4", "date": now_iso(), "machine": machine_info(),
               "config": {"n": args.n, "rounds": rounds, "target_seconds": target,
                          "funcgrad_threads": fg.get_num_threads()},
               "versions": {"numpy": np.__version__,
                            **{k: r.get("version") for k, r in records.items()}},
               "results": records}
    print(f"\nwrote {write_json(args.out, payload)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

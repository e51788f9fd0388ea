"""Batched Jacobians against funcgrad's own row-by-row loop (issue 5's 10x target).

What it measures
    ``fg.jacobian(f, strategy=s)`` (one batched pass: ``vmap`` over ``vjp``/``jvp``) and
    ``fg.jacobian(f, strategy=s, vectorize=False)`` (one ``vjp``/``jvp`` per row or column,
    the slow path torch offers) of ``f(x) = tanh(A @ x)``, A n x n (n = 200 by default),
    for the reverse and the forward strategy, timed round-robin (CPU time, median, one
    BLAS thread).
    Both results are checked against the closed form ``(1 - tanh(A x)^2)[:, None] * A``.

Run
    python benchmarks/jacobian_loop.py [--n 200] [--rounds R]
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

# One BLAS thread, as in the suite: multithreaded OpenBLAS spin-waits on a shared machine
# and its timings swing 10x and more (set the variables yourself to measure otherwise).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks._timing import run_round_robin  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=200)
    p.add_argument("--rounds", type=int, default=7)
    args = p.parse_args(argv)
    import funcgrad as fg

    rng = np.random.default_rng(6)
    n = args.n
    A = rng.normal(size=(n, n)) / math.sqrt(n)
    x = rng.normal(size=n)

    def f(v):
        return np.tanh(A @ v)

    expected = (1 - np.tanh(A @ x) ** 2)[:, None] * A
    cases = {}
    for strategy in ("reverse-mode", "forward-mode"):
        for vectorize in (True, False):
            jac = fg.jacobian(f, strategy=strategy, vectorize=vectorize)
            np.testing.assert_allclose(jac(x), expected, rtol=1e-12, atol=1e-12)
            cases[(strategy, vectorize)] = lambda jac=jac: jac(x)
    samples = run_round_robin(cases, rounds=args.rounds, target_seconds=0.1,
                              clock=time.process_time)
    median = {k: float(np.median(v)) * 1e3 for k, v in samples.items()}
    print(f"jacobian of tanh(A @ x), A {n}x{n} (ms per call, median CPU time)")
    print("| strategy | batched | vectorize=False loop | loop / batched |")
    print("|---|---:|---:|---:|")
    for strategy in ("reverse-mode", "forward-mode"):
        b, loop = median[(strategy, True)], median[(strategy, False)]
        print(f"| {strategy} | {b:.3f} | {loop:.2f} | {loop / b:.1f}x |")


if __name__ == "__main__":
    main()

"""Where eager reverse mode spends its time (issue 21): W1 and W3 split into arithmetic,
Python dispatch and tape bookkeeping, by subtraction of timed variants.

    python benchmarks/breakdown.py [--rounds 15] [--opcodes]

Variants, each timed in CPU time (median over interleaved rounds of ~50 ms loops):

- ``numpy forward``: the function in plain NumPy (W3: the hand-written forward pass).
- ``numpy gradient``: hand-written NumPy forward and backward (W1: the closed-form
  gradient; W3: the hand-written backpropagation), the arithmetic floor.
- ``funcgrad forward``: the function on plain arrays through ``funcgrad.numpy``: the
  same kernels, reached through funcgrad's dispatch (front, ``bind``, root interpreter).
- ``taped forward``: ``fg.vjp(f, ...)``: the forward pass recorded on a tape.
- ``gradient``: ``fg.grad`` / ``fg.value_and_grad``, what a user calls.

Rows of the table: arithmetic = numpy gradient; dispatch = funcgrad forward - numpy
forward; tape bookkeeping (forward) = taped forward - funcgrad forward; backward pass
beyond its arithmetic = (gradient - taped forward) - (numpy gradient - numpy forward).
``--opcodes`` adds a deterministic count of the Python bytecodes each part of funcgrad
runs for one gradient (what a loaded machine does not disturb).
"""
import os

# The suite's settings (benchmarks/suite.py), before NumPy is imported: one BLAS thread
# (with the default, OpenBLAS's threads spin against the timed thread's CPU time: W3's
# "arithmetic" read 16.8 ms instead of 2.0 at load 5) and kernels built before timing,
# never their NumPy twins while Numba loads in the background.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
             "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("FUNCGRAD_KERNELS", "wait")

import argparse  # noqa: E402
import collections  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

# appended, so that PYTHONPATH can choose which funcgrad tree is measured
sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import workloads as W  # noqa: E402


def cases():
    import funcgrad as fg
    import funcgrad.numpy as fnp

    x = np.linspace(-1.0, 1.0, 16)
    f1, n1 = W.w1_f(fnp), W.w1_f(np)
    p, x3, y3 = W.w3_data(128, 784, 256, 10)
    f3 = W.w3_loss(W._Namespace(fnp, lse=lambda z: fnp.logsumexp(z, axis=1)))
    g1, g3 = fg.grad(f1), fg.value_and_grad(f3)
    return {
        "W1 grad, 16 elements": {
            "numpy forward": lambda: n1(x),
            "numpy gradient": lambda: W.w1_grad_closed(x),
            "funcgrad forward": lambda: f1(x),
            "taped forward": lambda: fg.vjp(f1, x),
            "gradient": lambda: g1(x)},
        "W3 value_and_grad, MLP f32": {
            "numpy forward": lambda: W.w3_manual(p, x3, y3, grad=False),
            "numpy gradient": lambda: W.w3_manual(p, x3, y3),
            "funcgrad forward": lambda: f3(p, x3, y3),
            "taped forward": lambda: fg.vjp(lambda q: f3(q, x3, y3), p),
            "gradient": lambda: g3(p, x3, y3)},
    }


def timed(variants, rounds, target=0.05):
    for fn in variants.values():  # warm up (kernels load, caches fill)
        for _ in range(5):
            fn()
    per = {k: [] for k in variants}
    for _ in range(rounds):
        for k, fn in variants.items():
            n, t0 = 0, time.process_time()
            while (t := time.process_time() - t0) < target:
                fn()
                n += 1
            per[k].append(t / n)
    return {k: statistics.median(v) for k, v in per.items()}


def opcodes(fn):
    """Bytecodes run for one call, by part (the folder of the code running)."""
    import funcgrad
    import funcgrad.kernels
    root = os.path.dirname(os.path.abspath(funcgrad.__file__)) + os.sep
    kernels = os.path.dirname(os.path.abspath(funcgrad.kernels.__file__)) + os.sep
    parts = (("interpreters" + os.sep, "tape and interpreters"),
             ("core.py", "tape and interpreters"),
             ("primitives" + os.sep, "rules and primitives"),
             ("numpy" + os.sep, "funcgrad.numpy front"))
    counts = collections.Counter()
    memo = {}

    def part(filename):
        path = os.path.abspath(filename)
        if path.startswith(kernels):
            return "kernel dispatch"
        if not path.startswith(root):
            return "user function, NumPy's and Python's own code"
        rel = path[len(root):]
        for prefix, label in parts:
            if rel.startswith(prefix):
                return label
        return "transform API (flatten, checks, pytrees)"

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        if event == "opcode":
            name = frame.f_code.co_filename
            label = memo.get(name)
            if label is None:
                label = memo[name] = part(name)
            counts[label] += 1
        return tracer

    for _ in range(5):
        fn()
    sys.settrace(tracer)
    try:
        fn()
    finally:
        sys.settrace(None)
    return counts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--opcodes", action="store_true")
    args = ap.parse_args(argv)
    print("| workload | arithmetic (NumPy) | dispatch (forward) | tape bookkeeping (forward) "
          "| backward beyond its arithmetic | total | total / NumPy |")
    print("|---|---|---|---|---|---|---|")
    all_cases = cases()
    for name, variants in all_cases.items():
        t = timed(variants, args.rounds)
        us = {k: v * 1e6 for k, v in t.items()}
        back = (us["gradient"] - us["taped forward"]) - (us["numpy gradient"]
                                                          - us["numpy forward"])
        print(f"| {name} | {us['numpy gradient']:.0f} µs | "
              f"{us['funcgrad forward'] - us['numpy forward']:.0f} µs | "
              f"{us['taped forward'] - us['funcgrad forward']:.0f} µs | {back:.0f} µs | "
              f"{us['gradient']:.0f} µs | {us['gradient'] / us['numpy gradient']:.2f} |")
    if args.opcodes:
        print()
        for name, variants in all_cases.items():
            counts = opcodes(variants["gradient"])
            total = sum(counts.values())
            parts = ", ".join(f"{k} {v} ({100 * v / total:.0f}%)"
                              for k, v in counts.most_common())
            print(f"- {name}: {total} bytecodes: {parts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

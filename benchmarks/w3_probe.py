"""W3 under ``fg.jit`` against its five GEMMs alone (issue 21's 1.1x target), small enough to
run in alternation between two trees on a shared machine, and countable by callgrind.

What it measures
    ``fg.jit(fg.value_and_grad(loss))`` of W3 (:mod:`benchmarks.workloads`: 784-256-10
    tanh MLP, softmax cross-entropy, float32, batch 128) once compiled; the five GEMMs
    of its forward and backward passes alone (``x@W1``, ``h@W2``, ``dz@W2.T``,
    ``x.T@da``, ``h.T@dz``, in those layouts: the floor); NumPy's float32 ``tanh`` on
    the 128x256 hidden layer (the jit calls it between kernels to keep eager's bits);
    and the hand-written NumPy reference.

Run
    python benchmarks/w3_probe.py [--rounds 9]
        One JSON line: per case the median over the rounds of the CPU time per call
        (round-robin, ~0.1 s a case a round), in microseconds, the ratios to the GEMMs,
        and the MD5 of the jitted call's value and gradients.  For an A/B, start it in
        turn with ``PYTHONPATH`` at each tree, several rounds, and compare the ratios.
    valgrind --tool=callgrind --separate-threads=yes --collect-atstart=no \\
        --toggle-collect=functools_reduce python benchmarks/w3_probe.py \\
        --count jit|gemms|tanh|reference [--calls N]
        ``N`` calls inside ``functools.reduce`` (instructions per call = the main
        thread's total / N; the main thread's file is the one ending in ``-01``).
        Set ``PYTHONHASHSEED=0``, and ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` to
        the host's (``llvmlite.binding.get_host_cpu_name()`` and
        ``get_host_cpu_features().flatten()``, printed natively): valgrind shows LLVM
        another CPU (``haswell`` on an AMD EPYC), and Numba's disk cache, keyed by the
        CPU, would miss and compile every kernel again, fifty times slower (and not the
        code a user runs).  Before counting, the probe waits until the jit has compiled
        and the kernel loader has nothing queued, but read the main thread's count
        only: Numba's compiler calls ``functools.reduce`` itself
        (``numba/core/analysis.py``, set unions), so without ``--separate-threads`` a
        compile on another thread is counted too (session 12's 0.91M instructions of
        ``operator.or_`` per call: kernels compiling again on a background thread under
        valgrind while the calls were counted; natively that thread is idle).
"""
import argparse
import hashlib
import json
import os
import sys
import time

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

# appended, so that PYTHONPATH can choose which funcgrad tree is measured
sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import workloads as W  # noqa: E402
from benchmarks._timing import warm_or_count  # noqa: E402


def cases():
    """``{name: zero-argument call}`` and the jitted function's first result."""
    import funcgrad as fg
    from funcgrad.kernels.cpu import _lazy
    p, x, y = W.w3_data(128, 784, 256, 10)
    f = fg.jit(fg.value_and_grad(W.w3_loss(W.load(W.FG_JIT).xp)))
    f(p, x, y)
    f.block_until_compiled()
    while _lazy._requests:  # the kernel loader's queue (see the module's docstring)
        time.sleep(0.05)
    out = f(p, x, y)
    _, h, dz, da = W._w3_pass(p, x, y)
    products = ((x, p["W1"]), (h, p["W2"]), (dz, p["W2"].T), (x.T, da), (h.T, dz))
    pre = (x @ p["W1"] + p["b1"]).astype(np.float32)
    return {"jit": lambda: f(p, x, y),
            "gemms": lambda: tuple(a @ b for a, b in products),
            "tanh": lambda: np.tanh(pre),
            "reference": lambda: W.w3_manual(p, x, y)}, out


def md5(out):
    value, grads = out
    h = hashlib.md5(np.asarray(value).tobytes())
    for k in sorted(grads):
        h.update(np.ascontiguousarray(grads[k]).tobytes())
    return h.hexdigest()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--count", choices=["jit", "gemms", "tanh", "reference"],
                   help="callgrind mode")
    p.add_argument("--calls", type=int, default=10)
    args = p.parse_args()
    runs, out = cases()
    if warm_or_count(runs, 3, args.count, args.calls):
        return
    times = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, fn in runs.items():
            n, start = 0, time.process_time()
            while time.process_time() - start < 0.1:
                fn()
                n += 1
            times[name].append((time.process_time() - start) / n)
    med = {name: float(np.median(t)) for name, t in times.items()}
    report = {name: round(m * 1e6, 1) for name, m in med.items()}
    report.update({f"{name}/gemms": round(med[name] / med["gemms"], 3)
                   for name in ("jit", "tanh", "reference")})
    report["load"] = round(os.getloadavg()[0], 1)
    report["md5"] = md5(out)
    print(json.dumps(report))


if __name__ == "__main__":
    main()

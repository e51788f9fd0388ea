"""Eager gradient overhead (issue 21): W1, W2 and the fixed cost of a gradient, small enough
to run in alternation between two trees on a shared machine.

What it measures
    ``fg.grad`` of W1 (16 elements) and W2 (8 elements, 200 steps) of
    :mod:`benchmarks.workloads`, and of ``fnp.sum`` on 16 elements (what every gradient
    pays whatever its function); with ``torch`` the same functions through
    ``torch.autograd.grad`` on a fresh leaf per call (as the suite's ``_torch_grad``);
    with ``fg-tensor`` the same through funcgrad's eager ``Tensor`` and
    ``fg.autograd.grad`` (the functions are ``funcgrad.numpy``'s, on Tensors).  ``torch``
    and ``fg-tensor`` also time ``mlp``: one training step of a small MLP (32 x 16 inputs,
    a tanh layer of 32, float64) with ``SGD`` (``torch.optim``, ``fg.optim``).

Run
    python benchmarks/eager_probe.py fg|fg-tensor|torch [--batches 40]
        One JSON line: for each gradient the best of ``--batches`` batches of CPU time, in
        microseconds (200 calls a batch for the sum, 100 for W1, 4 for W2 and the MLP
        step), and the MD5 of
        the W1 and W2 gradients' bytes (equal across trees: the same bits).  For an A/B,
        start it in turn with ``PYTHONPATH`` at each tree, several rounds, and compare the
        rounds' ratios (results/session8-eager.md).
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \\
        python benchmarks/eager_probe.py fg|fg-tensor --count sum|w1|w2|mlp [--calls N]
        ``N`` gradients inside ``functools.reduce``, after 40 to warm up: callgrind counts
        only those (instructions per gradient = its total / N), the same on a loaded
        machine.  Set ``PYTHONHASHSEED=0``; ``FUNCGRAD_KERNELS=numpy`` avoids Numba's first
        load of the kernels, which takes many minutes under valgrind.
"""
import argparse
import hashlib
import json
import os
import sys
import time

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
os.environ.setdefault("FUNCGRAD_KERNELS", "wait")  # time kernels, not their loading

import numpy as np  # noqa: E402

# appended, so that PYTHONPATH can choose which funcgrad tree is measured
sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import workloads as W  # noqa: E402
from benchmarks._timing import warm_or_count  # noqa: E402

X1, X2 = np.linspace(-1.0, 1.0, 16), np.linspace(-1.0, 1.0, 8)
CALLS_PER_BATCH = {"sum": 200, "w1": 100, "w2": 4, "mlp": 4}


def _leaf_gradient(as_tensor, autograd_grad):
    """``grad(f, x)``: a zero-argument function computing ``f``'s gradient at ``x`` on a
    fresh leaf each call, with a PyTorch-style ``autograd.grad`` (torch's or funcgrad's)."""
    def grad(f, x):
        xt = as_tensor(x)

        def run():
            a = xt.detach().requires_grad_()
            return autograd_grad(f(a), a)[0]
        return run
    return grad


def gradients(lib):
    """``{name: zero-argument function computing one gradient}`` for ``fg`` or ``torch``."""
    if lib == "torch":
        import torch
        torch.set_num_threads(1)

        grad = _leaf_gradient(torch.from_numpy, torch.autograd.grad)
        return {"sum": grad(torch.sum, X1), "w1": grad(W.w1_f(torch), X1),
                "w2": grad(W.w2_f(torch, 200), X2),
                "mlp": mlp_step(torch.tensor, torch.optim.SGD)}
    import funcgrad as fg
    import funcgrad.numpy as fnp
    if lib == "fg-tensor":
        tensor_grad = _leaf_gradient(fg.Tensor, fg.autograd.grad)
        return {"sum": tensor_grad(fnp.sum, X1), "w1": tensor_grad(W.w1_f(fnp), X1),
                "w2": tensor_grad(W.w2_f(fnp, 200), X2),
                "mlp": mlp_step(fg.tensor, fg.optim.SGD)}
    g0, g1, g2 = fg.grad(lambda v: fnp.sum(v)), fg.grad(W.w1_f(fnp)), fg.grad(W.w2_f(fnp, 200))
    return {"sum": lambda: g0(X1), "w1": lambda: g1(X1), "w2": lambda: g2(X2)}


def mlp_step(tensor, SGD):
    """One training step of a small MLP per call, for ``torch`` or ``fg-tensor``
    (``tensor``: the library's ``tensor`` function, ``SGD``: its optimizer)."""
    r = np.random.default_rng(0)
    w1, w2 = r.standard_normal((16, 32)) * 0.3, r.standard_normal((32, 1)) * 0.3
    params = [tensor(v, requires_grad=True) for v in (w1, np.zeros(32), w2, np.zeros(1))]
    x, y = tensor(r.standard_normal((32, 16))), tensor(r.standard_normal((32, 1)))
    opt = SGD(params, lr=0.01)

    def run():
        a, b, c, d = params
        opt.zero_grad()
        loss = (((x @ a + b).tanh() @ c + d - y) ** 2).mean()
        loss.backward()
        opt.step()
        return loss
    return run


def best_cpu_us(fn, calls, batches):
    best = float("inf")
    for _ in range(batches):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, time.process_time() - start)
    return best / calls * 1e6


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("lib", choices=["fg", "fg-tensor", "torch"])
    p.add_argument("--batches", type=int, default=40)
    p.add_argument("--count", choices=sorted(CALLS_PER_BATCH), help="callgrind mode")
    p.add_argument("--calls", type=int, default=10)
    args = p.parse_args()
    runs = gradients(args.lib)
    if warm_or_count(runs, 40, args.count, args.calls):
        return
    out = {name: round(best_cpu_us(fn, CALLS_PER_BATCH[name], args.batches), 2)
           for name, fn in runs.items()}
    out["md5"] = [hashlib.md5(np.asarray(runs[k]()).tobytes()).hexdigest()[:8]
                  for k in ("w1", "w2")]
    print(json.dumps(out))


if __name__ == "__main__":
    main()

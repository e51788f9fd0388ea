"""Peak memory of reverse mode with and without ``fg.checkpoint`` (rematerialisation).

What it measures
    A chain of ``--layers`` blocks (default 100); each block is ``--ops`` elementwise
    operations (default 5: sin, *0.9, cos, +0.1, tanh) on a float64 array of
    ``--size`` elements (default 100 000, i.e. 0.8 MB per array).  The loss is
    ``sum`` of the last block's output.  Two variants:

    plain        ``grad`` of the chain as written: reverse mode keeps every
                 intermediate of every block for the backward pass
                 (about layers * ops arrays);
    checkpoint   each block wrapped in ``fg.checkpoint``: only the blocks' inputs
                 are kept, and one block's intermediates are recomputed at a time
                 during the backward pass (about layers + ops arrays).

    The figure is the peak of Python-tracked memory (``tracemalloc``, which sees
    NumPy's array buffers) during one ``grad(f)(x)`` call, after a warm-up call
    (kernel compilation and caches are not counted), relative to the memory in use
    when the call starts.  Both gradients are checked to agree (rtol 1e-12); the
    wall time of the measured call is printed for information only (tracemalloc
    slows allocation-heavy code, so it is not a speed benchmark).

Run
    python benchmarks/checkpoint_memory.py [--layers N] [--ops K] [--size S] [--out PATH]

Prints both peaks, the ratio and the ideal ratio (layers + ops) / (layers * ops);
with ``--out`` also writes the figures as JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

try:
    import funcgrad as fg
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import funcgrad as fg

_OPS = (np.sin, lambda x: x * 0.9, np.cos, lambda x: x + 0.1, np.tanh)


def make_block(ops: int):
    """One block: ``ops`` elementwise operations (cycling through _OPS)."""
    def block(x):
        for k in range(ops):
            x = _OPS[k % len(_OPS)](x)
        return x
    return block


def make_chain(block, layers: int):
    def f(x):
        for _ in range(layers):
            x = block(x)
        return np.sum(x)
    return f


def peak_bytes(fn, *args):
    """(peak bytes above the starting point, result) of one call of ``fn``."""
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start, _ = tracemalloc.get_traced_memory()
        result = fn(*args)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - start, result


def measure(layers: int = 100, ops: int = 5, size: int = 100_000):
    """Peak memory (bytes) and gradients of the plain and the checkpointed chain."""
    x = np.linspace(-1.0, 1.0, size)
    block = make_block(ops)
    variants = {"plain": make_chain(block, layers),
                "checkpoint": make_chain(fg.checkpoint(block), layers)}
    out = {}
    for name, f in variants.items():
        g = fg.grad(f)
        g(x)  # warm-up: compile kernels, fill caches
        t0 = time.perf_counter()
        peak, grad = peak_bytes(g, x)
        out[name] = {"peak_bytes": peak, "seconds": time.perf_counter() - t0, "grad": grad}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layers", type=int, default=100)
    parser.add_argument("--ops", type=int, default=5, help="elementwise ops per block")
    parser.add_argument("--size", type=int, default=100_000, help="elements per array")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args(argv)

    res = measure(args.layers, args.ops, args.size)
    plain, ckpt = res["plain"], res["checkpoint"]
    if not np.allclose(plain["grad"], ckpt["grad"], rtol=1e-12, atol=0.0):
        print("WRONG: the checkpointed gradient differs from the plain one", file=sys.stderr)
        return 1
    array_mb = args.size * 8 / 1e6
    ratio = ckpt["peak_bytes"] / plain["peak_bytes"]
    ideal = (args.layers + args.ops) / (args.layers * args.ops)
    print(f"grad of a {args.layers}-layer chain, {args.ops} elementwise ops per block, "
          f"float64[{args.size}] ({array_mb:.2f} MB per array)")
    print("| variant    | peak memory (MB) | peak (in arrays) | time (s) |")
    print("|------------|-----------------:|-----------------:|---------:|")
    for name, r in (("plain", plain), ("checkpoint", ckpt)):
        mb = r["peak_bytes"] / 1e6
        print(f"| {name:<10} | {mb:16.1f} | {mb / array_mb:16.1f} | {r['seconds']:8.3f} |")
    print(f"ratio checkpoint / plain: {ratio:.3f}  (ideal (layers + ops) / (layers * ops) = "
          f"{ideal:.3f})")
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({
            "layers": args.layers, "ops": args.ops, "size": args.size,
            "plain_peak_bytes": plain["peak_bytes"], "checkpoint_peak_bytes": ckpt["peak_bytes"],
            "ratio": ratio, "ideal_ratio": ideal,
            "plain_seconds": plain["seconds"], "checkpoint_seconds": ckpt["seconds"],
        }, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Per-operation overhead of reverse-mode ``grad`` on a deep elementwise chain.

What it measures
    x = np.linspace(-1, 1, 8) (float64); ``steps`` times (default 200)
    ``y = sin(y) * 0.5 + y * 0.9``; then ``sum(y)``.  The time of one full
    ``grad(f)(x)`` call (trace/record the forward pass, run the backward pass,
    return the gradient) is reported in microseconds per call and per
    primitive: 4 primitives per step (sin, mul, mul, add), i.e. 800 for the
    default, plus the final sum, which is not counted.  With 8-element arrays
    the arithmetic is negligible, so the figure is the library's bookkeeping
    cost per operation.

Libraries (each optional: a missing one is skipped with a note)
    funcgrad + plain numpy  ``fg.grad(f)(x)``, f uses ``np.sin``/``np.sum``
    funcgrad.numpy          f uses ``fnp.sin``/``fnp.sum``
    autograd                HIPS autograd, ``autograd.grad`` + ``autograd.numpy``
    torch                   eager: ``torch.tensor(x, requires_grad=True)``,
                            forward, ``.backward()``, read ``.grad``; 1 thread
    jax (eager)             ``jax.grad(f)(x)`` without jit, float64
    jax.jit                 ``jax.jit(jax.grad(f))(x)``, reference only
    numpy, hand-written VJP the reference gradient below: the floor set by
                            NumPy's own per-call cost, reference only

Every gradient is first checked against a hand-written reverse pass in NumPy
(``np.allclose``, rtol 1e-10); a library that fails is reported WRONG (or
ERROR if it raised) and is not timed.  The others are timed round-robin
(A, B, C, A, B, C, ...), and each figure is the median over the rounds.

Run
    make bench-chain
    python benchmarks/chain.py [--quick] [--steps N] [--rounds R]
                               [--target-ms MS] [--out PATH]

Prints a Markdown table and writes ``benchmarks/results/chain.json`` (machine,
date, library versions, all samples).
"""

from __future__ import annotations

import os

# Single-threaded BLAS/OpenMP for every library; must precede numpy's import.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_ENABLE_X64", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import traceback  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Callable  # noqa: E402

import numpy as np  # noqa: E402

if __package__:  # python -m benchmarks.chain
    from ._timing import (
        machine_info,
        markdown_table,
        now_iso,
        package_version,
        run_round_robin,
        summarize,
        write_json,
    )
else:  # python benchmarks/chain.py: this folder is sys.path[0]
    from _timing import (  # type: ignore[no-redef]
        machine_info,
        markdown_table,
        now_iso,
        package_version,
        run_round_robin,
        summarize,
        write_json,
    )

ROOT = Path(__file__).resolve().parent.parent
# An installed funcgrad (normally `pip install -e .`, which maps kernels/ to
# funcgrad.kernels) wins; the bare work tree is only a fallback, hence append.
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

N = 8
PRIMS_PER_STEP = 4  # sin, mul, mul, add
RTOL = 1e-10
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "chain.json"


# --------------------------------------------------------------------------
# Reference gradient
# --------------------------------------------------------------------------


def reference_grad(x: np.ndarray, steps: int) -> np.ndarray:
    """Gradient of sum(chain(x)) by a hand-written reverse pass.

    Forward: y_{k+1} = 0.5 sin(y_k) + 0.9 y_k, storing every y_k.
    Backward: the map is elementwise, so the adjoint of y_k is the adjoint of
    y_{k+1} times dy_{k+1}/dy_k = 0.5 cos(y_k) + 0.9, starting from ones.
    """
    ys = [np.asarray(x, dtype=np.float64)]
    for _ in range(steps):
        y = ys[-1]
        ys.append(np.sin(y) * 0.5 + y * 0.9)
    g = np.ones_like(ys[0])
    for y in reversed(ys[:-1]):
        g = g * (0.5 * np.cos(y) + 0.9)
    return g


def _check_reference(x: np.ndarray, steps: int) -> None:
    """Sanity-check the reference against central differences."""

    def chain(v: np.ndarray) -> np.ndarray:
        for _ in range(steps):
            v = np.sin(v) * 0.5 + v * 0.9
        return v

    h = 1e-6  # elementwise chain: one vector perturbation gives every partial
    fd = (chain(x + h) - chain(x - h)) / (2 * h)
    assert np.allclose(reference_grad(x, steps), fd, rtol=1e-6, atol=1e-9)


# --------------------------------------------------------------------------
# Libraries: each builder takes ``steps`` and returns
# ``(distribution name, fn)`` with ``fn(x) -> gradient`` (array-like).
# An ImportError means "not installed" and the library is skipped.
# --------------------------------------------------------------------------


def _funcgrad_numpy(steps: int):
    import funcgrad as fg

    def f(x):
        y = x
        for _ in range(steps):
            y = np.sin(y) * 0.5 + y * 0.9
        return np.sum(y)

    return "funcgrad", fg.grad(f)


def _funcgrad_fnp(steps: int):
    import funcgrad.numpy as fnp

    import funcgrad as fg

    def f(x):
        y = x
        for _ in range(steps):
            y = fnp.sin(y) * 0.5 + y * 0.9
        return fnp.sum(y)

    return "funcgrad", fg.grad(f)


def _autograd(steps: int):
    import autograd
    import autograd.numpy as anp

    def f(x):
        y = x
        for _ in range(steps):
            y = anp.sin(y) * 0.5 + y * 0.9
        return anp.sum(y)

    return "autograd", autograd.grad(f)


def _torch(steps: int):
    import torch

    torch.set_num_threads(1)

    def grad(x):
        xt = torch.tensor(x, requires_grad=True)
        y = xt
        for _ in range(steps):
            y = torch.sin(y) * 0.5 + y * 0.9
        torch.sum(y).backward()
        return xt.grad.numpy()

    return "torch", grad


def _jax_f(steps: int):
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    def f(x):
        y = x
        for _ in range(steps):
            y = jnp.sin(y) * 0.5 + y * 0.9
        return jnp.sum(y)

    return jax, f


def _jax_eager(steps: int):
    jax, f = _jax_f(steps)
    g = jax.grad(f)
    return "jax", lambda x: g(x).block_until_ready()


def _jax_jit(steps: int):
    jax, f = _jax_f(steps)
    g = jax.jit(jax.grad(f))
    return "jax", lambda x: g(x).block_until_ready()


def _numpy_manual(steps: int):
    return "numpy", lambda x: reference_grad(x, steps)


# (label, builder, install hint, reference only?)
LIBRARIES: list[tuple[str, Callable[[int], Any], str, bool]] = [
    ("funcgrad (np)", _funcgrad_numpy, "funcgrad is not importable", False),
    ("funcgrad (fnp)", _funcgrad_fnp, "funcgrad.numpy is not importable", False),
    ("autograd", _autograd, "autograd not installed: pip install autograd", False),
    ("torch (eager)", _torch, "torch not installed: pip install torch", False),
    ("jax (eager)", _jax_eager, "jax not installed: pip install jax", False),
    ("jax.jit", _jax_jit, "jax not installed: pip install jax", True),
    ("numpy, hand-written VJP", _numpy_manual, "", True),
]


def _error_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:200]


def prepare(x: np.ndarray, steps: int, expected: np.ndarray):
    """Build and check every library.

    Returns ``(cases, records)``: ``cases`` maps label -> zero-argument
    callable for the libraries whose gradient is right; ``records`` maps
    label -> JSON record (status, version, error) for all of them.
    """
    cases: dict[str, Callable[[], Any]] = {}
    records: dict[str, dict[str, Any]] = {}
    for label, builder, hint, reference_only in LIBRARIES:
        rec: dict[str, Any] = {"reference_only": reference_only}
        records[label] = rec
        try:
            dist, fn = builder(steps)
        except ImportError as exc:
            print(f"{hint} ({_error_line(exc)}); skipped", file=sys.stderr)
            rec.update(status="skipped", error=_error_line(exc))
            continue
        except Exception as exc:  # noqa: BLE001 -- a half-built library
            print(
                f"{label}: setup failed ({_error_line(exc)}); skipped", file=sys.stderr
            )
            rec.update(status="skipped", error=_error_line(exc))
            continue
        rec["version"] = package_version(dist)
        try:
            got = np.asarray(fn(x.copy()), dtype=np.float64)
        except Exception as exc:  # noqa: BLE001
            print(f"{label}: ERROR computing the gradient:", file=sys.stderr)
            traceback.print_exc(limit=3)
            rec.update(status="ERROR", error=_error_line(exc))
            continue
        # atol=0: the true gradient is ~1e-64, so any absolute tolerance
        # would accept anything (zeros included).
        same_shape = got.shape == expected.shape
        if not (same_shape and np.allclose(got, expected, rtol=RTOL, atol=0)):
            err = float(np.max(np.abs(got / expected - 1))) if same_shape else None
            print(
                f"{label}: WRONG gradient (max rel err {err}, shape {got.shape})",
                file=sys.stderr,
            )
            rec.update(status="WRONG", max_rel_error=err)
            continue
        rec["status"] = "ok"
        cases[label] = lambda fn=fn: fn(x)
    return cases, records


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="5 rounds of ~20 ms")
    p.add_argument("--steps", type=int, default=200, help="chain length (default 200)")
    p.add_argument("--rounds", type=int, help="rounds (default 15, quick 5)")
    p.add_argument(
        "--target-ms",
        type=float,
        help="length of one timed loop (default 50, quick 20)",
    )
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON output path")
    args = p.parse_args(argv)
    if args.steps < 1:
        p.error("--steps must be at least 1")
    rounds = args.rounds or (5 if args.quick else 15)
    target = (args.target_ms or (20.0 if args.quick else 50.0)) / 1e3
    steps = args.steps
    prims = PRIMS_PER_STEP * steps

    x = np.linspace(-1.0, 1.0, N)
    _check_reference(x, steps)
    expected = reference_grad(x, steps)

    cases, records = prepare(x, steps, expected)
    if cases:
        print(
            f"timing {len(cases)} libraries: {rounds} rounds x ~{target * 1e3:.0f} ms, "
            "round-robin",
            file=sys.stderr,
        )
        samples = run_round_robin(
            cases,
            rounds,
            target,
            progress=lambda msg: print(f"  {msg}", file=sys.stderr, end="\r"),
        )
        print(file=sys.stderr)
    else:
        samples = {}

    medians = {label: summarize(s)["median"] for label, s in samples.items()}
    # Ratios are to the fastest ranked library; reference rows (jax.jit, the
    # hand-written NumPy pass) get one against that baseline but never set it.
    ranked = [v for k, v in medians.items() if not records[k]["reference_only"]]
    best = min(ranked or medians.values(), default=None)
    ratios = {k: v / best for k, v in medians.items()} if best else {}

    rows = []
    for label, rec in records.items():
        if label in samples:
            stats = summarize(samples[label])
            us = stats["median"] * 1e6
            rec.update(
                us_per_call=us,
                us_per_primitive=us / prims,
                ratio_to_fastest=ratios.get(label),
                stats_seconds=stats,
                samples_seconds=samples[label],
            )
            rows.append(
                {
                    "library": label + (" (ref.)" if rec["reference_only"] else ""),
                    "µs/call": us,
                    "µs/primitive": us / prims,
                    "ratio": ratios[label],
                }
            )
        elif rec["status"] != "skipped":
            rows.append(
                {
                    "library": label,
                    "µs/call": rec["status"],
                    "µs/primitive": rec["status"],
                    "ratio": "",
                }
            )

    print(
        f"\n### grad of a {steps}-step chain ({prims} primitives, "
        f"{N} float64 elements)\n"
    )
    print(markdown_table(rows, ["library", "µs/call", "µs/primitive", "ratio"]))
    print(
        "\nratio: median time over the fastest eager library's; "
        "(ref.) = reference, not ranked."
    )

    payload = {
        "benchmark": "chain",
        "description": f"grad of sum(chain) with y = sin(y)*0.5 + y*0.9, "
        f"{steps} steps, {N} float64 elements",
        "date": now_iso(),
        "machine": machine_info(),
        "config": {
            "steps": steps,
            "n": N,
            "primitives": prims,
            "rounds": rounds,
            "target_seconds": target,
            "rtol": RTOL,
            "quick": args.quick,
        },
        "versions": {
            "numpy": np.__version__,
            **{k: r.get("version") for k, r in records.items()},
        },
        "results": records,
    }
    print(f"\nwrote {write_json(args.out, payload)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

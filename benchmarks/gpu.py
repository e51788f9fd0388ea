"""The prepared real-GPU check for funcgrad's CUDA backend (issue 4).

One script, sized to fit a short lease on one GPU (about 5 minutes on an H200):

1. **correctness on the device**: every GPU implementation (every primitive of the
   registry, through ``funcgrad.gpu.IMPLS``) against the CPU on small and on
   multi-block sizes; the fused VJP kernels; the warp-shuffle reduction against its
   shared-memory twin (the simulator can only run the twin); grad / jacobian /
   hessian / vmap of whole functions;
2. **timings** (CUDA events, medians): elementwise, fused-rule, reduction and
   matmul kernels at 1e6 and 1e8 elements, each with the achieved memory bandwidth
   as a fraction of the device's peak (and of a plain device-to-device copy); and
   ``grad`` of W4 (``sum(exp(sin x) cos^2 x + sqrt(1 + x^2))``) at 1e6 and 1e8
   elements on the GPU against funcgrad's CPU path.

Results go to ``<out>/gpu.json`` and ``<out>/gpu.md`` (``--out``, default
``benchmarks/results``).  On the lent machine (numba-cuda is installed there)::

    pip install -q --no-deps --no-build-isolation -e . && \\
        PYTHONUNBUFFERED=1 python benchmarks/gpu.py --out $OUT

Other modes:

``--dry-run``       the whole script on the CUDA simulator with tiny sizes (no GPU; checks
                    the script itself)
``--tests``         also run ``tests/gpu_sim`` (the simulator suite) on the real device
``--skip-cpu-1e8``  skip the slowest CPU reference (W4 grad on 1e8 elements)
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if "--dry-run" in sys.argv:  # must precede the first import of Numba
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

import numpy as np  # noqa: E402

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
from funcgrad.core import REGISTRY  # noqa: E402
from funcgrad.primitives.indexing import normalize_index  # noqa: E402

RESULTS = {"checks": [], "timings": [], "errors": []}


def log(*args):
    print(*args, flush=True)


# --- correctness ------------------------------------------------------------------------------

def _compare(label, got, want, rtol, atol):
    from funcgrad.gpu import GpuArray
    if isinstance(want, (list, tuple)):
        ok = all(_compare(f"{label}[{i}]", g, w, rtol, atol)
                 for i, (g, w) in enumerate(zip(got, want)))
        return ok
    want = np.asarray(want)
    host = np.asarray(got)
    ok = isinstance(got, GpuArray) or not hasattr(got, "buf")
    detail = ""
    if host.shape != want.shape or host.dtype != want.dtype:
        ok, detail = False, f"shape/dtype {host.shape} {host.dtype} vs {want.shape} {want.dtype}"
    elif want.dtype.kind in "biu":
        ok = bool(np.array_equal(host, want))
    else:
        with np.errstate(all="ignore"):
            err = np.abs(host - want) - atol - rtol * np.abs(want)
            bad = (err > 0) & ~(np.isnan(host) & np.isnan(want))
            bad |= np.isnan(host) != np.isnan(want)
        ok = not bad.any()
        if not ok:
            detail = f"max excess {np.nanmax(np.where(bad, err, 0)):.3g} at {np.argmax(bad)}"
    RESULTS["checks"].append({"check": label, "ok": bool(ok), "detail": detail})
    if not ok:
        log(f"  MISMATCH {label}: {detail}")
    return ok


def impl(name):
    """The GPU implementation of the primitive called ``name`` (the table is keyed by the
    primitive object)."""
    from funcgrad.gpu import IMPLS
    return IMPLS[REGISTRY[name]]


def check_impl(name, args, params=None, gpu_args=None, rtol=None, atol=None, label=None):
    params = params or {}
    with np.errstate(all="ignore"):
        want = REGISTRY[name].impl(*args, **params)
    if gpu_args is None:
        gpu_args = [fg.device_put(a) if isinstance(a, np.ndarray) else a for a in args]
    got = impl(name)(*gpu_args, **params)
    dtype = np.result_type(*[a.dtype for a in args if hasattr(a, "dtype")])
    f32 = dtype == np.float32
    rtol = rtol if rtol is not None else (3e-5 if f32 else 1e-9)
    atol = atol if atol is not None else (1e-5 if f32 else 1e-9)
    return _compare(label or f"{name} {[np.shape(a) for a in args]} {dtype}", got, want, rtol,
                    atol)


def correctness(scale):
    from funcgrad.gpu import fused_vjp, missing_gpu_primitives
    from funcgrad.kernels.cuda import reduce
    from funcgrad.primitives import scalar as sc
    elementwise = [p for p in REGISTRY.values() if p.elementwise is not None]
    rng = np.random.default_rng(0)
    missing = missing_gpu_primitives()
    RESULTS["checks"].append({"check": "every primitive has a GPU implementation",
                              "ok": not missing, "detail": ", ".join(missing)})
    big = max(8, int(scale))  # multi-block sizes on a real GPU
    domain = {"log": (0.1, 3), "log2": (0.1, 3), "log10": (0.1, 3), "log1p": (-0.5, 3),
              "sqrt": (0.1, 3), "arcsin": (-0.9, 0.9), "arccos": (-0.9, 0.9),
              "arctanh": (-0.9, 0.9), "arccosh": (1.1, 3), "reciprocal": (0.5, 2),
              "power": (0.2, 2), "divide": (0.5, 2), "mod": (0.5, 3)}
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e30])
    for prim in elementwise:
        name = prim.name
        lo, hi = domain.get(name, (-2, 2))
        arity = len(prim.elementwise.lins)
        for dtype in (np.float64, np.float32):
            shapes = {1: [(big,)], 2: [(big // 4, 4), (4,)], 3: [(big // 4, 4), (4,), (1,)]}
            args = [rng.uniform(lo, hi, s).astype(dtype) for s in shapes[arity]]
            if name == "where":
                args[0] = args[0] > 0
            if name == "rint":
                args[0] = np.round(args[0] * 2) / 2
            check_impl(name, args)
            if arity == 1 and name not in ("logical_not",):
                check_impl(name, [specials.astype(dtype)], label=f"{name} specials {dtype}")
        if arity == 2:
            check_impl(name, [rng.uniform(lo, hi, 50), 1.5], label=f"{name} with a scalar")
            if (prim.elementwise.compute == "arith"
                    and sc.body_for(prim.elementwise.scalar, np.int64) is not None):
                ints = np.arange(-20, 20).reshape(8, 5)
                other = np.arange(0, 5) if name == "power" else np.array([1, 2, 3, -2, 7])
                check_impl(name, [ints, other], label=f"{name} int64")
    for prim in elementwise:  # every first-order rule that became one kernel
        decl = prim.elementwise
        for i, lin in enumerate(decl.lins if prim.differentiable else ()):
            if lin is None:
                continue
            for dtype in (np.float64, np.float32):
                args = [rng.uniform(0.2, 0.9, big).astype(dtype) for _ in decl.lins]
                if decl.compute == "select":
                    args[0] = args[0] > 0.5
                out = prim.impl(*args)
                g = rng.standard_normal(big).astype(dtype)
                got = fused_vjp(prim, i, fg.device_put(g), fg.device_put(args),
                                fg.device_put(out))
                if got is None:
                    continue
                with np.errstate(all="ignore"):
                    want = np.broadcast_to(lin(g, *args, out), out.shape).astype(dtype)
                _compare(f"fused {prim.name} argument {i} {dtype.__name__}", got, want,
                         3e-5 if dtype == np.float32 else 1e-9,
                         1e-6 if dtype == np.float32 else 1e-12)
    check_impl("convert_element_type", [rng.standard_normal(big) * 10], {"dtype": np.int32})
    check_impl("convert_element_type", [rng.standard_normal(big)], {"dtype": np.float32})
    check_impl("convert_element_type", [rng.standard_normal(big)], {"dtype": np.bool_})
    # reductions: every layout, long rows (two passes), NaN, bools, ints
    for shape, axes in [((big * 4,), (0,)), ((7, big), (1,)), ((big, 7), (0,)),
                        ((big // 8, 8, 3), (0, 2)), ((3, 5), (1,)), ((64, 64), (0, 1))]:
        x = rng.standard_normal(shape)
        for name in ("reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "logsumexp"):
            for dtype in (np.float64, np.float32):
                xx = (x * (0.01 if name == "reduce_prod" else 1)).astype(dtype)
                check_impl(name, [xx], {"axes": axes, "keepdims": False}, rtol=(
                    1e-4 if dtype == np.float32 else 1e-9))
        check_impl("reduce_sum", [np.round(x * 5).astype(np.int32)], {"axes": axes,
                                                                       "keepdims": True})
        check_impl("reduce_max", [x > 0.5], {"axes": axes, "keepdims": False})
        for name in ("argmax", "argmin", "cumsum", "argsort"):
            key = "axis"
            check_impl(name, [np.round(x, 1)], {key: axes[0]} | (
                {"keepdims": False} if name.startswith("arg") and name != "argsort" else {}),
                rtol=1e-9)
    x = rng.standard_normal((3, big))
    x[1, 5] = np.nan
    check_impl("reduce_max", [x], {"axes": (1,), "keepdims": False}, label="max with NaN")
    check_impl("argmax", [x], {"axis": 1, "keepdims": False}, label="argmax with NaN")
    # the warp-shuffle fast path equals its shared-memory twin
    if not reduce.SIM:
        from numba import cuda
        for op in ("sum", "max", "min"):
            for dtype in (np.float32, np.float64, np.int64):
                x = (rng.standard_normal(big * 8) * 100).astype(dtype)
                d = cuda.to_device(x)
                a = reduce.rows(op, d, 0, 8, big, big, 1, dtype, shuffle=True).copy_to_host()
                b = reduce.rows(op, d, 0, 8, big, big, 1, dtype, shuffle=False).copy_to_host()
                _compare(f"shuffle == shared {op} {np.dtype(dtype)}", fg.device_put(a), b,
                         1e-5 if dtype == np.float32 else 1e-12, 1e-3)
    # structural
    x = rng.standard_normal((4, 5, 6))
    check_impl("transpose", [x], {"perm": (2, 0, 1)})
    check_impl("reshape", [x], {"shape": (20, 6)})
    check_impl("broadcast_to", [x[:, :1]], {"shape": (3, 4, 5, 6)})
    check_impl("concatenate", [x, x[:, :2].astype(np.float32)], {"axis": 1})
    check_impl("split", [x], {"bounds": (1, 3), "axis": 2})
    check_impl("stop_gradient", [x])
    # matmul, einsum
    for (sa, sb) in [((big // 8, 70), (70, 33)), ((3, 1, 17, 9), (4, 9, 20)), ((9,), (9, 5)),
                     ((6, 9), (9,))]:
        for dtype in (np.float64, np.float32):
            check_impl("matmul", [rng.standard_normal(sa).astype(dtype),
                                  rng.standard_normal(sb).astype(dtype)], rtol=(
                1e-4 if dtype == np.float32 else 1e-9))
    check_impl("matmul", [np.arange(12).reshape(3, 4), np.arange(8).reshape(4, 2)])
    check_impl("einsum", [rng.standard_normal((3, 4, 5)), rng.standard_normal((5, 4))],
               {"subscripts": "ijk,kj->ik"})
    check_impl("einsum", [rng.standard_normal((2, 3)), rng.standard_normal((3, 4)),
                          rng.standard_normal((4, 2))], {"subscripts": "ij,jk,kl->il"})
    # gather / scatter (atomics on repeated indices)
    x = rng.standard_normal((big // 4, 4))
    for idx in [(slice(1, None, 3), 2), (np.array([0, 3, 3, 1]),), (slice(None), np.array([1, 1])),
                (rng.integers(0, big // 4, big), slice(None)), (np.array([[0], [2]]),
                                                               np.array([1, 3]))]:
        spec, arrays = normalize_index(idx, x.shape)
        check_impl("gather", [x, *arrays], {"spec": spec}, gpu_args=[fg.device_put(x), *arrays])
        if arrays:
            check_impl("gather", [x, *arrays], {"spec": spec}, gpu_args=[
                fg.device_put(x), *[fg.device_put(np.asarray(a)) for a in arrays]],
                label=f"gather device index {spec}")
        region = x[idx].shape
        u = rng.standard_normal(region)
        check_impl("scatter", [x, u, *arrays], {"spec": spec, "mode": "add"},
                   gpu_args=[fg.device_put(x), fg.device_put(u), *arrays])
        if not arrays:
            check_impl("scatter", [x, u, *arrays], {"spec": spec, "mode": "set"},
                       gpu_args=[fg.device_put(x), fg.device_put(u), *arrays])
    # linear algebra
    for batch, n in [((), 5), ((7,), 3), ((2, 3), 12), ((), 40)]:
        for dtype in (np.float64, np.float32):
            a = (rng.standard_normal(batch + (n, n)) + 2 * np.eye(n) * np.sqrt(n)).astype(dtype)
            spd = (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)
            tol = {"rtol": 2e-3, "atol": 2e-3} if dtype == np.float32 else {"rtol": 1e-8,
                                                                              "atol": 1e-8}
            for name, args in [("inv", [a]), ("det", [a]), ("slogdet", [a]),
                               ("cholesky", [spd]),
                               ("solve", [a, rng.standard_normal(batch + (n, 3)).astype(dtype)])]:
                check_impl(name, args, **tol)
    # whole functions under transforms
    xs = np.linspace(-1.5, 1.3, max(12, big // 16 * 4))
    w = rng.standard_normal((3, xs.size))

    def w4(x):
        return fnp.sum(fnp.exp(fnp.sin(x)) * fnp.cos(x) ** 2 + fnp.sqrt(1 + x * x))

    def mlp(x, w):
        h = fnp.tanh(w @ x)
        return fnp.sum(h ** 2) + fnp.logsumexp(h) - fnp.mean(fnp.abs(x)) * fnp.max(h)

    def small(x):
        return fnp.tanh(x[:4]) * x[4:8] ** 2

    xg, wg = fg.device_put(xs), fg.device_put(w)
    _compare("grad W4", fg.grad(w4)(xg), fg.grad(w4)(xs), 1e-9, 1e-9)
    _compare("grad mlp (2 args)", fg.grad(mlp, argnums=(0, 1))(xg, wg),
             fg.grad(mlp, argnums=(0, 1))(xs, w), 1e-9, 1e-9)
    _compare("jacrev", fg.jacrev(small)(xg[:8]), fg.jacrev(small)(xs[:8]), 1e-9, 1e-9)
    _compare("jacfwd", fg.jacfwd(small)(xg[:8]), fg.jacfwd(small)(xs[:8]), 1e-9, 1e-9)
    _compare("hessian", fg.hessian(lambda x: fnp.sum(small(x)))(xg[:8]),
             fg.hessian(lambda x: fnp.sum(small(x)))(xs[:8]), 1e-9, 1e-9)
    _compare("vmap", fg.vmap(lambda w, x: fnp.tanh(w @ x), in_axes=(0, None))(wg, xg),
             fg.vmap(lambda w, x: fnp.tanh(w @ x), in_axes=(0, None))(w, xs), 1e-9, 1e-9)


# --- timing -------------------------------------------------------------------------------------

def gpu_time(fn, repeat=10, warmup=None):
    """Median seconds of ``fn()`` on the device (CUDA events around each call)."""
    from numba import cuda
    for _ in range(2 if warmup is None and repeat > 1 else (warmup or 0)):
        fn()
    cuda.synchronize()
    times = []
    from funcgrad.kernels.cuda import _config
    for _ in range(repeat):
        if _config.SIM:  # the simulator's events record no time
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
            continue
        start, stop = cuda.event(), cuda.event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1e3)
    return float(np.median(times))


def wall_time(fn, repeat=3, warmup=1):
    for _ in range(warmup if repeat > 1 else 0):
        fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def peak_bandwidth():
    """(theoretical bytes/s from the memory clock and bus, or None; device info)."""
    from numba import cuda
    from funcgrad.kernels.cuda import _config
    if _config.SIM:
        return None, {"device": "CUDA simulator"}
    dev = cuda.get_current_device()
    info = {"device": dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name),
            "compute_capability": list(dev.compute_capability),
            "multiprocessors": dev.MULTIPROCESSOR_COUNT}
    try:
        clock_khz = dev.MEMORY_CLOCK_RATE
        bus_bits = dev.GLOBAL_MEMORY_BUS_WIDTH
        peak = 2 * clock_khz * 1e3 * bus_bits / 8
        info["memory_clock_khz"], info["bus_bits"] = clock_khz, bus_bits
    except Exception:  # noqa: BLE001 - attribute names differ across versions
        peak = None
    if not peak or peak < 1e11:
        peak = 4.8e12 if "H200" in info["device"] else None  # the H200's data-sheet figure
    return peak, info


def record(name, n, seconds, bytes_moved=None, flops=None, peak=None, copy_bw=None, **extra):
    row = {"name": name, "n": n, "ms": seconds * 1e3}
    if bytes_moved:
        bw = bytes_moved / seconds
        row["GB/s"] = bw / 1e9
        if peak:
            row["of_peak"] = bw / peak
        if copy_bw:
            row["of_copy"] = bw / copy_bw
    if flops:
        row["TFLOP/s"] = flops / seconds / 1e12
    row.update(extra)
    RESULTS["timings"].append(row)
    log("  " + "  ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in row.items()))


def timings(sizes, skip_cpu_big, dry):
    from numba import cuda
    from funcgrad.gpu import fused_vjp
    from funcgrad.primitives.elementwise import tanh_p
    peak, info = peak_bandwidth()
    RESULTS["device"] = info
    RESULTS["peak_bandwidth_GBps"] = peak / 1e9 if peak else None
    rng = np.random.default_rng(1)
    repeat = 1 if dry else 10
    for n in sizes:
        n = int(n)
        log(f"\n== n = {n:.0e}")
        x64 = fg.device_put(np.linspace(-3.0, 3.0, n))
        x32 = fg.device_put(np.linspace(-3.0, 3.0, n, dtype=np.float32))
        y64 = fg.device_put(rng.standard_normal(n))
        # the practical peak: a device-to-device copy
        dst = cuda.device_array(n, np.float64)
        copy_s = gpu_time(lambda: dst.copy_to_device(x64.buf), repeat)
        copy_bw = 2 * 8 * n / copy_s
        record("device copy (cuda memcpy D2D) f64", n, copy_s, 16 * n, peak=peak)
        for label, fn, nbytes in [
            ("copy kernel (cast) f64", lambda: impl("convert_element_type")(
                x64, dtype=np.float32), 12 * n),
            ("add f64", lambda: impl("add")(x64, y64), 24 * n),
            ("multiply scalar f32", lambda: impl("multiply")(x32, 2.0), 8 * n),
            ("exp f32", lambda: impl("exp")(x32), 8 * n),
            ("exp f64", lambda: impl("exp")(x64), 16 * n),
            ("tanh f32", lambda: impl("tanh")(x32), 8 * n),
            ("add broadcast (n/1000,1000)+(1000,) f64",
             lambda: impl("add")(impl("reshape")(x64, shape=(n // 1000, 1000)),
                                  x64[:1000]), 16 * n),
        ]:
            record(label, n, gpu_time(fn, repeat), nbytes, peak=peak, copy_bw=copy_bw)
        # fused rule kernel vs the rule's unfused primitives
        t64 = impl("tanh")(x64)
        record("tanh VJP fused f64 (g, y -> g*(1-y^2))", n,
               gpu_time(lambda: fused_vjp(tanh_p, 0, y64, [x64], t64), repeat), 24 * n, peak=peak,
               copy_bw=copy_bw)
        record("tanh VJP unfused f64 (square, subtract, multiply)", n, gpu_time(
            lambda: impl("multiply")(y64, impl("subtract")(1.0, impl("square")(t64))),
            repeat), 24 * n, peak=peak, copy_bw=copy_bw, note="bytes of the fused kernel")
        # reductions
        m = impl("reshape")(x64, shape=(n // 1000, 1000))
        for label, fn, nbytes in [
            ("sum all f64", lambda: impl("reduce_sum")(x64, axes=(0,), keepdims=False), 8 * n),
            ("sum all f32", lambda: impl("reduce_sum")(x32, axes=(0,), keepdims=False), 4 * n),
            ("max all f64", lambda: impl("reduce_max")(x64, axes=(0,), keepdims=False), 8 * n),
            ("sum rows (n/1000,1000) axis 1", lambda: impl("reduce_sum")(
                m, axes=(1,), keepdims=False), 8 * n),
            ("sum cols (n/1000,1000) axis 0", lambda: impl("reduce_sum")(
                m, axes=(0,), keepdims=False), 8 * n),
            ("logsumexp rows axis 1", lambda: impl("logsumexp")(
                m, axes=(1,), keepdims=False), 16 * n),
            ("cumsum f64", lambda: impl("cumsum")(x64, axis=0), 16 * n),
        ]:
            record(label, n, gpu_time(fn, repeat), nbytes, peak=peak, copy_bw=copy_bw)
        from funcgrad.kernels.cuda import reduce as R
        if not R.SIM:
            for shuffle in (True, False):
                record(f"sum all f64 tree, shuffle={shuffle}", n, gpu_time(
                    lambda: R.rows("sum", x64.buf, 0, 1, n, n, 1, np.float64, shuffle=shuffle),
                    repeat), 8 * n, peak=peak, copy_bw=copy_bw)
        # W4 grad: GPU against funcgrad's CPU path
        xs = np.linspace(-3.0, 3.0, n)
        xg = fg.device_put(xs)

        def w4(x):
            return fnp.sum(fnp.exp(fnp.sin(x)) * fnp.cos(x) ** 2 + fnp.sqrt(1 + x * x))
        grad = fg.grad(w4)
        g_gpu = wall_time(lambda: grad(xg), repeat=repeat)
        d2h = wall_time(lambda: np.asarray(xg), repeat=repeat)
        record("W4 grad on GPU (wall, result copied to host by fg.grad)", n, g_gpu)
        record("W4 grad on GPU minus the copy back (device time)", n, max(g_gpu - d2h, 1e-9),
               d2h_ms=d2h * 1e3)
        if not (skip_cpu_big and n >= 1e8):
            g_cpu = wall_time(lambda: grad(xs), repeat=1 if n >= 1e8 else repeat)
            record("W4 grad on CPU (funcgrad, NumPy path)", n, g_cpu, speedup_gpu=g_cpu / g_gpu)
        got = np.asarray(grad(xg))
        s, c = np.sin(xs), np.cos(xs)
        want = np.exp(s) * c * (c * c - 2 * s) + xs / np.sqrt(1 + xs * xs)
        _compare(f"W4 grad on GPU, n={n:.0e}", fg.device_put(got), want, 1e-9, 1e-9)
        del x64, x32, y64, dst, m, xg, t64
    # matmul
    for size in ([8] if dry else [1024, 4096]):
        for dtype in (np.float32, np.float64):
            a = fg.device_put(rng.standard_normal((size, size)).astype(dtype))
            b = fg.device_put(rng.standard_normal((size, size)).astype(dtype))
            t = gpu_time(lambda: impl("matmul")(a, b), 3 if size > 2000 else repeat)
            ha, hb = np.asarray(a), np.asarray(b)
            t_cpu = wall_time(lambda: ha @ hb, repeat=1 if size > 2000 else 3)
            record(f"matmul {size}^3 {np.dtype(dtype).name}", size, t, flops=2 * size ** 3,
                   cpu_blas_ms=t_cpu * 1e3)
    nb, edge = (2, 8) if dry else (64, 128)
    bmm = [fg.device_put(rng.standard_normal((nb, edge, edge)).astype(np.float32))
           for _ in range(2)]
    record(f"batched matmul {nb}x{edge}^3 f32", nb, gpu_time(lambda: impl("matmul")(*bmm),
                                                             repeat), flops=2 * nb * edge ** 3)


# --- main --------------------------------------------------------------------------------------

def versions():
    out = {"python": platform.python_version(), "numpy": np.__version__}
    for name in ("numba", "numba_cuda"):
        try:
            mod = __import__(name)
            out[name] = getattr(mod, "__version__", "?")
        except ImportError:
            out[name] = None
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             timeout=20)
        out["nvidia-smi"] = smi.stdout.strip()
    except Exception:  # noqa: BLE001
        out["nvidia-smi"] = None
    return out


def markdown():
    lines = ["# funcgrad GPU check", "", f"device: {RESULTS.get('device')}",
             f"peak bandwidth (GB/s): {RESULTS.get('peak_bandwidth_GBps')}", ""]
    checks = RESULTS["checks"]
    bad = [c for c in checks if not c["ok"]]
    lines.append(f"correctness: {len(checks) - len(bad)} of {len(checks)} checks passed")
    lines += [f"- FAILED {c['check']}: {c['detail']}" for c in bad]
    lines += ["", "| kernel | n | ms | GB/s | of peak | of copy | TFLOP/s | other |",
              "|---|---|---|---|---|---|---|---|"]
    for r in RESULTS["timings"]:
        other = ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                          for k, v in r.items()
                          if k not in ("name", "n", "ms", "GB/s", "of_peak", "of_copy",
                                       "TFLOP/s"))

        def f(key, fmt="{:.3g}"):
            return fmt.format(r[key]) if key in r else ""
        lines.append(f"| {r['name']} | {r['n']:.0e} | {f('ms')} | {f('GB/s', '{:.0f}')} | "
                     f"{f('of_peak', '{:.0%}')} | {f('of_copy', '{:.0%}')} | {f('TFLOP/s')} | "
                     f"{other} |")
    if RESULTS["errors"]:
        lines += ["", "errors:"] + [f"- {e['phase']}: {e['error']}" for e in RESULTS["errors"]]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--tests", action="store_true")
    parser.add_argument("--skip-cpu-1e8", action="store_true")
    parser.add_argument("--sizes", default=None, help="comma-separated element counts")
    parser.add_argument("--skip-correctness", action="store_true")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    RESULTS["versions"] = versions()
    log("versions:", RESULTS["versions"])
    sizes = [float(s) for s in args.sizes.split(",")] if args.sizes else (
        [1e3] if args.dry_run else [1e6, 1e8])
    start = time.perf_counter()
    phases = [("correctness", lambda: correctness(64 if args.dry_run else 4096)),
              ("timings", lambda: timings(sizes, args.skip_cpu_1e8, args.dry_run))]
    if args.skip_correctness:
        phases = phases[1:]
    if args.tests:
        phases.append(("tests/gpu_sim on the device", run_device_tests))
    for phase, fn in phases:
        log(f"\n=== {phase} ({time.perf_counter() - start:.0f}s)")
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - record, and go on to the next phase
            traceback.print_exc()
            RESULTS["errors"].append({"phase": phase, "error": f"{type(e).__name__}: {e}"})
    RESULTS["seconds"] = time.perf_counter() - start
    (out / "gpu.json").write_text(json.dumps(RESULTS, indent=1, default=str))
    (out / "gpu.md").write_text(markdown())
    log("\n" + markdown())
    bad = [c for c in RESULTS["checks"] if not c["ok"]]
    return 1 if bad or RESULTS["errors"] else 0


def run_device_tests():
    env = dict(os.environ, FUNCGRAD_GPU_TESTS="device")
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                           str(ROOT / "tests" / "gpu_sim")], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=1200)
    log(proc.stdout[-3000:], proc.stderr[-2000:])
    RESULTS["checks"].append({"check": "tests/gpu_sim on the device", "ok": proc.returncode == 0,
                              "detail": proc.stdout.strip().splitlines()[-1] if proc.stdout
                              else proc.stderr[-300:]})


if __name__ == "__main__":
    raise SystemExit(main())

"""The correctness half of the real-GPU check (``benchmarks/gpu.py``): every GPU
implementation against the CPU's, as a list of independent tasks.

Compiling kernels (NVVM for the device, Numba for the CPU reference) is most of the time a
check takes, and one process compiles on one core; so the checks are cut into tasks that
``benchmarks/gpu.py --jobs N`` deals out to N processes (task ``k`` to process ``k % N``).
Each task appends to :data:`RESULTS`; a task that raises is recorded as a failed check
and the next one runs.
"""
from __future__ import annotations

import zlib

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import REGISTRY
from funcgrad.primitives.indexing import normalize_index

RESULTS: dict = {"checks": [], "errors": []}


def log(*args):
    print(*args, flush=True)


def compare(label, got, want, rtol, atol):
    """Record whether ``got`` (a GpuArray, or a list of them) equals ``want`` (the CPU's):
    shape, dtype, values within ``rtol``/``atol``, NaN where NaN."""
    from funcgrad.gpu import GpuArray
    if isinstance(want, (list, tuple)):
        return all([compare(f"{label}[{i}]", g, w, rtol, atol)
                    for i, (g, w) in enumerate(zip(got, want))])
    want = np.asarray(want)
    host = np.asarray(got)
    ok = isinstance(got, GpuArray) or not hasattr(got, "buf")
    detail = "" if ok else f"the result is a {type(got).__name__}, not on the device"
    if host.shape != want.shape or host.dtype != want.dtype:
        ok, detail = False, f"shape/dtype {host.shape} {host.dtype} vs {want.shape} {want.dtype}"
    elif want.dtype.kind in "biu":
        ok = ok and bool(np.array_equal(host, want))
        detail = detail or ("" if ok else "integer values differ")
    else:
        with np.errstate(all="ignore"):
            err = np.abs(host - want) - atol - rtol * np.abs(want)
            bad = (err > 0) & ~(np.isnan(host) & np.isnan(want))
            bad |= np.isnan(host) != np.isnan(want)
        if bad.any():
            ok = False
            k = int(np.argmax(bad.ravel()))
            detail = (f"max excess {np.nanmax(np.where(bad, err, 0)):.3g}; first at flat {k}: "
                      f"gpu {host.ravel()[k]!r} cpu {want.ravel()[k]!r}")
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
    return compare(label or f"{name} {[np.shape(a) for a in args]} {dtype}", got, want, rtol,
                   atol)


# --- the tasks ----------------------------------------------------------------------------------

DOMAIN = {"log": (0.1, 3), "log2": (0.1, 3), "log10": (0.1, 3), "log1p": (-0.5, 3),
          "sqrt": (0.1, 3), "arcsin": (-0.9, 0.9), "arccos": (-0.9, 0.9),
          "arctanh": (-0.9, 0.9), "arccosh": (1.1, 3), "reciprocal": (0.5, 2),
          "power": (0.2, 2), "divide": (0.5, 2), "mod": (0.5, 3)}
SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e30])


def _host_only(name, call):
    """Run ``call``; a TypeError sending the user to the host (primitives whose values come from
    SciPy, or complex cases without a kernel) is the documented answer, recorded as such."""
    try:
        call()
    except TypeError as e:
        if "device_get" not in str(e):
            raise
        RESULTS.setdefault("host_only", []).append(name)
        RESULTS["checks"].append({"check": f"{name}: a clear error sends GPU arrays to the host",
                                  "ok": True, "detail": str(e)[:200]})


def _operands(rng, arity, lo, hi, dtype, big, bits):
    shapes = [(big // 4, 4)] + [(4,), (1,), (4,)][:arity - 1]
    if bits:
        return [rng.integers(0, 20, s).astype(dtype) for s in shapes]
    return [rng.uniform(lo, hi, s).astype(dtype) for s in shapes]


def elementwise(prim, big, rng):
    """One elementwise primitive in float64 and float32 (integers for the bitwise ones), with
    broadcast operands, at NaN/inf/signed zeros, with a Python scalar, and in int64 where it
    has an integer body."""
    from funcgrad.primitives import scalar as sc
    name, decl = prim.name, prim.elementwise
    lo, hi = DOMAIN.get(name, (-2, 2))
    arity = len(decl.lins)
    if not decl.scalar:  # values from SciPy, on the host
        args = [fg.device_put(np.full(3, 0.5))] * arity
        if name == "sph_harm_y":
            args[:2] = [2, 1]  # integer degree and order
        return _host_only(name, lambda: impl(name)(*args))
    bits = isinstance(decl.scalar, dict) and "f" not in decl.scalar
    for dtype in (np.int64, np.int32) if bits else (np.float64, np.float32):
        args = _operands(rng, arity, lo, hi, dtype, big, bits)
        if name == "where":
            args[0] = args[0] > 0
        if name == "rint":
            args[0] = np.round(args[0] * 2) / 2
        _host_only(name, lambda: check_impl(name, args))
        if arity == 1 and not bits:
            _host_only(name, lambda: check_impl(name, [SPECIALS.astype(dtype)],
                                                label=f"{name} specials {dtype}"))
    if arity == 2 and not bits:
        _host_only(name, lambda: check_impl(name, [rng.uniform(lo, hi, 50), 1.5],
                                            label=f"{name} with a scalar"))
        if decl.compute == "arith" and sc.body_for(decl.scalar, np.int64) is not None:
            ints = np.arange(-20, 20).reshape(8, 5)
            other = np.arange(0, 5) if name == "power" else np.array([1, 2, 3, -2, 7])
            check_impl(name, [ints, other], label=f"{name} int64")


def fused(prim, big, rng):
    """Every first-order rule of ``prim`` that became one kernel, against the rule."""
    from funcgrad.gpu import fused_vjp
    decl = prim.elementwise
    for i, lin in enumerate(decl.lins if prim.differentiable else ()):
        if lin is None:
            continue
        for dtype in (np.float64, np.float32):
            args = [rng.uniform(0.2, 0.9, big).astype(dtype) for _ in decl.lins]
            if decl.compute == "select":
                args[0] = args[0] > 0.5
            try:
                with np.errstate(all="ignore"):
                    out = prim.impl(*args)
            except TypeError:  # takes integer orders (sph_harm_y): tests/gpu_sim has it
                RESULTS.setdefault("fused_skipped", []).append(prim.name)
                return
            g = rng.standard_normal(big).astype(dtype)
            got = fused_vjp(prim, i, fg.device_put(g), fg.device_put(args), fg.device_put(out))
            if got is None:
                continue
            with np.errstate(all="ignore"):
                want = np.broadcast_to(lin(g, *args, out), out.shape).astype(dtype)
            compare(f"fused {prim.name} argument {i} {dtype.__name__}", got, want,
                    3e-5 if dtype == np.float32 else 1e-9, 1e-6 if dtype == np.float32 else 1e-12)


def every_primitive_has_an_implementation(big, rng):
    from funcgrad.gpu import missing_gpu_primitives
    missing = missing_gpu_primitives()
    RESULTS["checks"].append({"check": "every primitive has a GPU implementation",
                              "ok": not missing, "detail": ", ".join(missing)})
    check_impl("convert_element_type", [rng.standard_normal(big) * 10], {"dtype": np.int32})
    check_impl("convert_element_type", [rng.standard_normal(big)], {"dtype": np.float32})
    check_impl("convert_element_type", [rng.standard_normal(big)], {"dtype": np.bool_})


def reductions(shape, axes):
    """Every reduction over one layout (long rows take two passes), bools and ints too."""
    def task(big, rng):
        x = rng.standard_normal(shape(big))
        for name in ("reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "logsumexp"):
            for dtype in (np.float64, np.float32):
                xx = (x * (0.01 if name == "reduce_prod" else 1)).astype(dtype)
                check_impl(name, [xx], {"axes": axes, "keepdims": False}, rtol=(
                    1e-4 if dtype == np.float32 else 1e-9))
        check_impl("reduce_sum", [np.round(x * 5).astype(np.int32)], {"axes": axes,
                                                                       "keepdims": True})
        check_impl("reduce_max", [x > 0.5], {"axes": axes, "keepdims": False})
        for name in ("argmax", "argmin", "cumsum", "argsort"):
            check_impl(name, [np.round(x, 1)], {"axis": axes[0]} | (
                {"keepdims": False} if name in ("argmax", "argmin") else {}), rtol=1e-9)
    return task


def reductions_with_nan_and_shuffle(big, rng):
    """NaN propagation, and the warp-shuffle fast path against its shared-memory twin (the
    simulator can only run the twin)."""
    from funcgrad.kernels.cuda import reduce
    x = rng.standard_normal((3, big))
    x[1, 5] = np.nan
    check_impl("reduce_max", [x], {"axes": (1,), "keepdims": False}, label="max with NaN")
    check_impl("argmax", [x], {"axis": 1, "keepdims": False}, label="argmax with NaN")
    if reduce.SIM:
        return
    from numba import cuda
    for op in ("sum", "max", "min"):
        for dtype in (np.float32, np.float64, np.int64):
            x = (rng.standard_normal(big * 8) * 100).astype(dtype)
            d = cuda.to_device(x)
            a = reduce.rows(op, d, 0, 8, big, big, 1, dtype, shuffle=True).copy_to_host()
            b = reduce.rows(op, d, 0, 8, big, big, 1, dtype, shuffle=False).copy_to_host()
            compare(f"shuffle == shared {op} {np.dtype(dtype)}", fg.device_put(a), b,
                    1e-5 if dtype == np.float32 else 1e-12, 1e-3)


def structural_and_products(big, rng):
    x = rng.standard_normal((4, 5, 6))
    check_impl("transpose", [x], {"perm": (2, 0, 1)})
    check_impl("reshape", [x], {"shape": (20, 6)})
    check_impl("broadcast_to", [x[:, :1]], {"shape": (3, 4, 5, 6)})
    check_impl("concatenate", [x, x[:, :2].astype(np.float32)], {"axis": 1})
    check_impl("split", [x], {"bounds": (1, 3), "axis": 2})
    check_impl("stop_gradient", [x])
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


def gather_scatter(big, rng):
    """Basic and advanced indices (host and device index arrays); scatter-add's atomics on
    repeated indices."""
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
        u = rng.standard_normal(x[idx].shape)
        check_impl("scatter", [x, u, *arrays], {"spec": spec, "mode": "add"},
                   gpu_args=[fg.device_put(x), fg.device_put(u), *arrays])
        if not arrays:
            check_impl("scatter", [x, u, *arrays], {"spec": spec, "mode": "set"},
                       gpu_args=[fg.device_put(x), fg.device_put(u), *arrays])


def linalg(batch, n):
    def task(big, rng):
        for dtype in (np.float64, np.float32):
            a = (rng.standard_normal(batch + (n, n)) + 2 * np.eye(n) * np.sqrt(n)).astype(dtype)
            spd = (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)
            tol = {"rtol": 2e-3, "atol": 2e-3} if dtype == np.float32 else {"rtol": 1e-8,
                                                                              "atol": 1e-8}
            for name, args in [("inv", [a]), ("det", [a]), ("slogdet", [a]),
                               ("cholesky", [spd]),
                               ("solve", [a, rng.standard_normal(batch + (n, 3)).astype(dtype)])]:
                check_impl(name, args, **tol)
    return task


def whole_functions(big, rng):
    """grad, jacrev, jacfwd, hessian and vmap of functions on GPU arrays equal the CPU's."""
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
    compare("grad W4", fg.grad(w4)(xg), fg.grad(w4)(xs), 1e-9, 1e-9)
    compare("grad mlp (2 args)", fg.grad(mlp, argnums=(0, 1))(xg, wg),
            fg.grad(mlp, argnums=(0, 1))(xs, w), 1e-9, 1e-9)
    compare("jacrev", fg.jacrev(small)(xg[:8]), fg.jacrev(small)(xs[:8]), 1e-9, 1e-9)
    compare("jacfwd", fg.jacfwd(small)(xg[:8]), fg.jacfwd(small)(xs[:8]), 1e-9, 1e-9)
    compare("hessian", fg.hessian(lambda x: fnp.sum(small(x)))(xg[:8]),
            fg.hessian(lambda x: fnp.sum(small(x)))(xs[:8]), 1e-9, 1e-9)
    compare("vmap", fg.vmap(lambda w, x: fnp.tanh(w @ x), in_axes=(0, None))(wg, xg),
            fg.vmap(lambda w, x: fnp.tanh(w @ x), in_axes=(0, None))(w, xs), 1e-9, 1e-9)


def tasks():
    """``[(label, task(big, rng)), ...]``: the heavier tasks first, so that dealing them out
    in turn spreads them over the processes."""
    heavy = [("every primitive / conversions", every_primitive_has_an_implementation),
             ("reductions with NaN, shuffle", reductions_with_nan_and_shuffle),
             ("structural, matmul, einsum", structural_and_products),
             ("gather/scatter", gather_scatter), ("whole functions", whole_functions)]
    heavy += [(f"linalg {batch} n={n}", linalg(batch, n))
              for batch, n in [((), 5), ((7,), 3), ((2, 3), 12), ((), 40)]]
    heavy += [(f"reductions {label}", reductions(shape, axes)) for label, shape, axes in [
        ("(4n,) axis 0", lambda b: (b * 4,), (0,)), ("(7, n) axis 1", lambda b: (7, b), (1,)),
        ("(n, 7) axis 0", lambda b: (b, 7), (0,)),
        ("(n/8, 8, 3) axes 0,2", lambda b: (b // 8, 8, 3), (0, 2)),
        ("(3, 5) axis 1", lambda b: (3, 5), (1,)), ("(64, 64) all", lambda b: (64, 64), (0, 1))]]
    prims = [p for p in REGISTRY.values() if p.elementwise is not None]
    light = [(f"elementwise {p.name}", _bind(elementwise, p)) for p in prims]
    light += [(f"fused {p.name}", _bind(fused, p)) for p in prims]
    return heavy + light


def _bind(fn, prim):
    return lambda big, rng: fn(prim, big, rng)


def run(selected, big, on_done=None):
    """Run the ``selected`` tasks (labels and functions), each with its own seeded generator;
    ``on_done(label)`` after each."""
    import traceback
    for label, task in selected:
        rng = np.random.default_rng(zlib.crc32(label.encode()))
        try:
            task(big, rng)
        except Exception as e:  # noqa: BLE001 - a broken task is a failed check; go on
            traceback.print_exc()
            RESULTS["checks"].append({"check": label, "ok": False,
                                      "detail": f"raised {type(e).__name__}: {e}"[:500]})
        if on_done is not None:
            on_done(label)

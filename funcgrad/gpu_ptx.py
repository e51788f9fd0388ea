"""Compile every CUDA kernel for a real GPU target without a GPU (typing + lowering).

The simulator runs kernels as Python, so it cannot catch what only Numba's CUDA
compiler rejects (an unsupported function, a type that does not unify).  With
NVVM installed (``pip install 'cuda-toolkit[nvvm,nvrtc]'``, no driver or GPU
needed) this module compiles each kernel variant to PTX for ``cc`` (default: 9.0,
Hopper) on representative signatures: ``python -m funcgrad.gpu_ptx``
(all ~330 variants, a few minutes; ``--quick``: one dtype each; ``--smoke``: one of
each family, seconds).
Must run with the simulator off.
"""
import sys
import time

import numpy as np
from numba import cuda

from .core import REGISTRY
from .gpu.complex_code import DEFINITIONS
from .gpu.elementwise import build_fused, kernel_lines
from .kernels.cuda import _codegen, elementwise, fft, index, linalg, matmul, reduce, scan, sort
from .kernels.cuda._config import SIM
from .primitives import scalar as sc

try:
    from numba.cuda import types as T
    I64 = T.int64
except (ImportError, AttributeError):  # Numba's built-in CUDA target (its cuda.types is
    from numba import types as T      # another module, without the scalar types)
    I64 = T.int64


def _arr(dtype, ndim=1):
    t = getattr(T, "boolean" if np.dtype(dtype).kind == "b" else np.dtype(dtype).name)
    return T.Array(t, ndim, "C")


def _scal(dtype):
    return getattr(T, "boolean" if np.dtype(dtype).kind == "b" else np.dtype(dtype).name)


def _tup(n):
    return T.UniTuple(I64, n)


def elementwise_cases(full=True):
    """(label, kernel, signature) for elementwise kernels: every elementwise primitive's
    scalar definition, and every fused first-order rule, as the GPU generates them."""
    cases = []
    prims = [p for p in REGISTRY.values() if p.elementwise is not None]
    for prim in prims:
        decl = prim.elementwise
        arity = len(decl.lins)
        dtypes = [np.dtype(np.float32), np.dtype(np.float64)]
        if decl.compute == "logic":
            dtypes = [np.dtype(bool)]
        elif sc.body_for(decl.scalar, np.dtype(np.float64)) is None:  # bits: integers only
            dtypes = [np.dtype(t) for t in (np.int64, np.uint8, np.bool_)
                      if sc.body_for(decl.scalar, np.dtype(t)) is not None]
        elif sc.body_for(decl.scalar, np.dtype(np.int64)) is not None:
            dtypes.append(np.dtype(np.int64))
        if not full:
            dtypes = dtypes[:1]
        for dt in dtypes:
            if decl.compute == "select":
                cts = [np.dtype(bool), dt, dt]
            elif decl.compute == "predicate":
                cts = [dt]
            else:
                cts = [dt] * arity
            out = np.dtype(bool) if decl.compute in ("compare", "logic", "predicate") else dt
            lines = kernel_lines(prim, cts)
            patterns = [("C",) * arity]
            if full and prim.name in ("add", "where", "multiply"):
                patterns += [("B",) * arity, ("S",) + ("B",) * (arity - 1)]
            for kinds in patterns:
                for out_kind in (("C", "B") if kinds[0] == "B" else ("C",)):
                    cases.append((f"ew {prim.name} {''.join(kinds)}->{out_kind} {dt}",
                                  elementwise.kernel_for(lines, kinds, out_kind, cts),
                                  _ew_signature(kinds, out_kind, cts, out)))
        if not prim.differentiable:
            continue
        for i in range(arity):
            for dt in dtypes[:2]:
                built = build_fused(prim, i, dt)
                if built is None:
                    continue
                lines, reads = built
                kinds, cts = ("C",) * len(reads), [dt] * len(reads)
                cases.append((f"fused {prim.name}.{i} {dt}",
                              elementwise.kernel_for(lines, kinds, "C", cts),
                              _ew_signature(kinds, "C", cts, dt)))
    cast = elementwise.CAST
    for dt in (np.float32, np.float64, np.int64):
        dt = np.dtype(dt)
        cases.append((f"ew cast C->C {dt}", elementwise.kernel_for(cast, "C", "C", [dt]),
                      _ew_signature("C", "C", [dt], dt)))
    for dt in (np.complex64, np.complex128)[:2 if full else 1]:
        cases += _complex_cases(np.dtype(dt))
    return cases


def _complex_cases(dt):
    """The complex definitions (funcgrad/gpu/complex_code.py), and the complex-to-real cast."""
    cases = []
    for prim in DEFINITIONS:
        decl = prim.elementwise
        arity = len(decl.lins)
        cts = [np.dtype(bool), dt, dt] if decl.compute == "select" else [dt] * arity
        out = np.abs(np.zeros((), dt)).dtype if prim.name in ("abs", "real", "imag") else dt
        if decl.compute in ("compare", "predicate"):
            out = np.dtype(bool)
        kinds = ("C",) * arity
        cases.append((f"ew {prim.name} C->C {dt}",
                      elementwise.kernel_for(kernel_lines(prim, cts), kinds, "C", cts),
                      _ew_signature(kinds, "C", cts, out)))
    real = np.abs(np.zeros((), dt)).dtype
    cases.append((f"ew cast_real C->C {dt}",
                  elementwise.kernel_for(elementwise.CAST_REAL, "C", "C", [dt]),
                  _ew_signature("C", "C", [dt], real)))
    return cases


def _ew_signature(kinds, out_kind, cts, out):
    nd = 1 if set(kinds) <= {"C", "S"} and out_kind == "C" else 3
    sig = [_arr(out), I64, _tup(nd), I64, _tup(nd)]
    for k, kind in enumerate(kinds):
        if kind == "S":
            sig.append(_scal(cts[k]))
        else:
            sig += [_arr(cts[k]), I64, _tup(nd)]
    return tuple(sig)


def other_cases(full=True):
    cases = []
    f32, f64 = np.float32, np.float64
    dtypes = [f32, f64, np.int64, np.uint8] if full else [f32]

    def red_sig(x, acc):
        return (_arr(x), I64, I64, I64, I64, I64, I64, _arr(acc), _arr(f64))
    for op in ("sum", "prod", "max", "min", "lse"):
        for dt in dtypes:
            acc = np.dtype(dt)
            if op == "lse" and acc.kind != "f":
                continue
            cases.append((f"reduce tree {op} {acc}", reduce.tree_kernel(op, acc),
                          red_sig(dt, acc)))
            cases.append((f"reduce thread {op} {acc}", reduce.thread_kernel(op, acc),
                          red_sig(dt, acc)))
            if acc.name in reduce.SHUFFLE_DTYPES:
                cases.append((f"reduce shuffle {op} {acc}",
                              reduce.tree_kernel(op, acc, shuffle=True, threads=256),
                              red_sig(dt, acc)))
    for op in ("argmax", "argmin"):
        for dt in dtypes:
            cases.append((f"{op} {np.dtype(dt)}", reduce.arg_kernel(op, np.dtype(dt)),
                          (_arr(dt), I64, I64, I64, I64, I64, _arr(np.int64))))
    for dt in [f32, f64, np.int64]:
        acc = np.dtype(dt)
        sig = (_arr(dt), I64, I64, I64, I64, I64, _arr(dt))
        cases.append((f"cumsum serial {acc}", _codegen.build(scan._serial_source(acc)), sig))
        cases.append((f"cumsum block {acc}", _codegen.build(scan._block_source(acc, 256)), sig))
    for dt in [f32, f64, np.int64, np.bool_]:
        out = np.dtype(dt)
        kernel = _codegen.build(matmul._source(matmul._acc(out), 16, out.kind == "b"))
        sig = (_arr(dt), I64, I64, I64, _arr(dt), I64, I64, I64, _arr(out), I64, I64, I64, I64,
               _tup(2), _tup(2), _tup(2))
        cases.append((f"matmul {out}", kernel, sig))
    for dt in [f32, f64, np.int32]:
        plan = (_tup(2), _tup(2), _tup(2), T.Array(I64, 2, "C"), _tup(1), _tup(1),
                _arr(np.int32))
        cases.append((f"gather {np.dtype(dt)}", index.gather_kernel,
                      (_arr(dt), I64, _arr(dt), I64) + plan))
        for kname in ("scatter_set_kernel", "scatter_add_kernel", "scatter_atomic_add_kernel"):
            cases.append((f"{kname} {np.dtype(dt)}", getattr(index, kname),
                          (_arr(dt), I64, I64) + plan + (_arr(dt), I64, _tup(2))))
    cases.append(("argsort f64", sort.argsort_kernel,
                  (_arr(f64), I64, I64, I64, I64, I64, _arr(np.int64), _arr(np.int64))))
    for dt in (f32, f64):
        cases.append((f"lu_factor {np.dtype(dt)}", linalg.lu_factor_kernel,
                      (_arr(dt), I64, I64, _arr(np.int64), _arr(np.int32), _arr(np.int32))))
        cases.append((f"lu_solve {np.dtype(dt)}", linalg.lu_solve_kernel,
                      (_arr(dt), _arr(np.int64), _arr(dt), I64, I64, I64)))
        cases.append((f"lu_det {np.dtype(dt)}", linalg.lu_det_kernel,
                      (_arr(dt), _arr(np.int32), I64, I64, _arr(dt), _arr(dt), _arr(dt))))
        cases.append((f"cholesky {np.dtype(dt)}", linalg.cholesky_kernel,
                      (_arr(dt), I64, I64, _arr(np.int32))))
    cases += fft_cases(full)
    return cases


def fft_cases(full=True):
    """The FFT kernels (kernels/cuda/fft.py) for complex64 and complex128 data."""
    cases = []
    for c, r in ((np.complex64, np.float32), (np.complex128, np.float64))[:2 if full else 1]:
        C, R, F64, B = _arr(c), _arr(r), _scal(np.float64), T.boolean
        load = (I64,) * 6 + (C, I64, C, B)
        for label, kernel, sig in (
                ("twiddles", fft._twiddles, (C, I64, F64)),
                ("chirp", fft._chirp, (C, I64, F64)),
                ("stage", fft._stage, (C, C, C, I64, I64, I64, _scal(r))),
                ("load real", fft._load, (R,) + load),
                ("load complex", fft._load, (C,) + load),
                ("load hermitian", fft._load_hermitian, (C,) + load),
                ("filter", fft._filter, (C, C, I64, I64)),
                ("multiply", fft._multiply_rows, (C, C, I64, I64)),
                ("unload", fft._unload, (C, I64, I64, I64, C, _scal(r), C))):
            cases.append((f"fft {label} {np.dtype(c)}", kernel, sig))
    return cases


SMOKE = ("ew add BB->B", "ew divide C->C complex64", "ew cast_real C->C complex64",
         "fft stage complex64", "fft load hermitian complex128", "ew where SBB->C", "fused tanh.0 float32", "ew cbrt C->C float32",
         "ew logaddexp C->C float32", "ew power C->C int64", "reduce tree sum float32",
         "reduce shuffle max float64", "argmax float32", "cumsum block float32", "matmul float32",
         "gather float32", "scatter_atomic_add_kernel float64", "argsort", "lu_factor float64",
         "cholesky float32")


def compile_all(full=True, cc=(9, 0), verbose=False, smoke=False):
    """Compile the kernels to PTX; returns (cases, [(label, error) for each failure]).

    ``smoke``: one or two kernels of each family only (a few seconds)."""
    if SIM:
        raise RuntimeError("the PTX check needs the simulator off (unset NUMBA_ENABLE_CUDASIM)")
    failures = []
    cases = elementwise_cases(full) + other_cases(full)
    if smoke:
        cases = [c for c in cases if c[0].startswith(SMOKE)]
    for label, kernel, sig in cases:
        start = time.perf_counter()
        try:
            cuda.compile_ptx(kernel.py_func, sig, cc=cc)
        except Exception as e:  # noqa: BLE001 - report every failure, keep going
            failures.append((label, f"{type(e).__name__}: {str(e)[:800]}"))
        if verbose:
            print(f"{label:50s} {time.perf_counter() - start:6.2f}s", flush=True)
    return cases, failures


def _probe():
    """None if NVVM can compile here, else why not."""
    def nothing(a):
        a[0] = 1
    try:
        cuda.compile_ptx(nothing, (_arr(np.int64),), cc=(9, 0))
    except Exception as e:  # noqa: BLE001 - NVVM or NVRTC libraries missing
        return f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"
    return None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    why = _probe()
    if why is not None:
        print(f"SKIP: cannot compile CUDA kernels to PTX here ({why}). Install NVVM: "
              f"pip install 'cuda-toolkit[nvvm,nvrtc]==13.*'")
        return 77
    full = "--quick" not in argv
    cases, failures = compile_all(full=full, verbose="-v" in argv, smoke="--smoke" in argv)
    for label, error in failures:
        print(f"FAILED {label}: {error}")
    print(f"{len(cases) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())

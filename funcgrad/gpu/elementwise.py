"""Elementwise operations on the GPU, generated from each primitive's declaration.

Every elementwise primitive declares its scalar definition (statements computing ``r``
from ``x0, x1...``: :mod:`funcgrad.primitives.scalar`) and its linear rules
(:mod:`funcgrad.primitives._elementwise`).  From the definition, :func:`kernel_lines`
writes the CUDA kernel's lines for the operands' compute dtypes; from each first-order
rule, captured once on scalars, :func:`build_fused` writes one kernel computing that
argument's cotangent, which reverse mode reaches through :func:`fused_vjp` (the GPU twin
of the CPU's fused kernels).  No operation is written here by hand.
"""
import numpy as np

from ..kernels._broadcast import broadcast_shapes
from ..core import REGISTRY
from ..primitives import scalar as sc
from .array import GpuArray, backend, new
from .complex_code import complex_body, complex_emitter
from .dispatch import _SCALARS, aval

__all__ = ["elementwise_impls", "kernel_lines", "fused_vjp", "build_fused"]


def _cuda_code():
    """A writer of CUDA scalar code (leaves ``F.<name>``: kernels/cuda/_scalar.py)."""
    return sc.Emitter(lambda name, dtype: f"F.{name}", sc.literal, sc.cast)


_lines: dict = {}  # (primitive, compute dtypes) -> the lines of its CUDA kernel


def kernel_lines(prim, dtypes):
    """The CUDA lines of ``prim``'s scalar definition for operands computed in ``dtypes``.

    >>> from funcgrad.primitives.elementwise import add_p
    >>> kernel_lines(add_p, [np.dtype(np.float64)] * 2)
    ('r = x0 + x1',)
    """
    key = (prim,) + tuple(dtypes)
    lines = _lines.get(key)
    if lines is None:
        decl = prim.elementwise
        body_dtype = dtypes[-1] if decl.compute == "select" else dtypes[0]
        if body_dtype.kind == "c":  # (the declarations' definitions are real: see complex_code)
            body, code = complex_body(prim), complex_emitter()
        else:
            body, code = sc.body_for(decl.scalar, body_dtype), _cuda_code()
        if body is None and not decl.scalar:  # (funcgrad.primitives.special_scipy)
            raise TypeError(f"{prim.name} takes its values from SciPy, on the CPU, and has no "
                            f"GPU kernel: move its arguments to the CPU first "
                            f"(fg.device_get(x))")
        if body is None:
            raise TypeError(f"{prim.name} has no GPU kernel for dtype {body_dtype}")
        lines = _lines[key] = tuple(code.statements(
            body, [f"x{k}" for k in range(len(dtypes))], "r", body_dtype))
    return lines


def _dtype_key(a):
    t = type(a)
    if t is GpuArray:
        return a.dtype
    if t in _SCALARS:
        return t
    return np.dtype(type(a))  # NumPy scalar: a strong dtype


_out_dtypes: dict = {}  # (primitive, operand dtype keys) -> result dtype


def _is_complex(a):
    t = type(a)
    return a.dtype.kind == "c" if t is GpuArray else t is complex or isinstance(
        a, np.complexfloating)


def _elementwise_impl(prim):
    decl = prim.elementwise
    arith = decl.compute == "arith"

    def impl(*args):
        key = (prim,) + tuple(_dtype_key(a) for a in args)
        dtype = _out_dtypes.get(key)
        # (a Python int's range errors depend on its value: no caching then)
        if dtype is None or any(type(a) is int for a in args):
            dtype = _out_dtypes[key] = prim.abstract_eval(*[aval(a) for a in args]).dtype
        shape = broadcast_shapes(*[a.shape for a in args if type(a) is GpuArray])
        ew = backend().ew
        dtypes = [ew.compute_dtype(d) for d in decl.compute_dtypes(
            [a.dtype if type(a) is GpuArray else a for a in args], dtype)]
        if arith and dtype.kind != "c" and any(_is_complex(a) for a in args):
            # a real result of complex operands (abs, real, imag): read them as complex
            dtypes = [np.result_type(dtype, *[_dtype_key(a) for a in args])] * len(args)
        return new(ew.run(kernel_lines(prim, dtypes), dtypes, args, shape, dtype), shape, dtype)
    impl.__name__ = f"gpu_{prim.name}"
    return impl


def elementwise_impls():
    """``{primitive: GPU implementation}`` for every elementwise primitive in the registry."""
    return {prim: _elementwise_impl(prim) for prim in REGISTRY.values()
            if prim.elementwise is not None}


_fused: dict = {}  # (primitive, argument, dtype) -> (lines, reads), or None: no fused kernel


def fused_vjp(prim, i, g, args, out):
    """The cotangent of argument ``i`` of elementwise ``prim`` on GPU arrays by one
    generated kernel (its first-order rule, captured once), or None where the rule should
    run as it is (dtypes other than float32/float64, operands of mixed dtypes).

    >>> from funcgrad.primitives.elementwise import tanh_p
    >>> x = fg.device_put(np.array([0.0, 1.0]))                        # doctest: +SKIP
    >>> fused_vjp(tanh_p, 0, fg.device_put(np.ones(2)), [x], np.tanh(x))   # doctest: +SKIP
    GpuArray([1.        , 0.41997434], device='cuda:0')
    """
    dt = g.dtype
    if dt.kind != "f" or dt.itemsize not in (4, 8):
        return None
    key = (prim, i, dt)
    built = _fused.get(key, False)
    if built is False:
        built = _fused[key] = build_fused(prim, i, dt)
    if built is None:
        return None
    lines, reads = built
    everything = (g, *args, out)
    operands = []
    for k in reads:
        v = everything[k]
        if type(v) is GpuArray:
            if v.dtype != dt:
                return None
        elif type(v) not in (float, int):
            return None
        operands.append(v)
    shape = broadcast_shapes(*[v.shape for v in operands if type(v) is GpuArray])
    return new(backend().ew.run(lines, [dt] * len(reads), operands, shape, dt), shape, dt)


def build_fused(prim, i, dtype):
    """``(lines, reads)`` of the kernel computing argument ``i``'s cotangent of ``prim``
    in ``dtype`` (``reads``: positions in ``(g, *args, out)``), or None where its rule is
    one operation already or calls what the GPU has no scalar code for."""
    decl = prim.elementwise
    lin = decl.lins[i]
    if lin is None:
        return None
    try:
        graph = sc.capture(lin, len(decl.lins) + 2, dtype)
    except NotImplementedError:  # a derivative that raises when asked for: the rule runs
        return None
    if len(graph.eqns) < 2 or len(graph.outvars) != 1 or not all(
            eqn.prim.elementwise is not None and not eqn.outvars[0].aval.shape
            and all(hasattr(x, "aval") or not np.ndim(x) for x in eqn.inputs)
            and sc.body_for(eqn.prim.elementwise.scalar, sc.eqn_compute(eqn)[1]) is not None
            for eqn in graph.eqns):
        return None
    ids = {id(v): k for k, v in enumerate(graph.invars)}
    reads = sorted({ids[id(x)] for e in graph.eqns for x in e.inputs if id(x) in ids})
    params = {id(graph.invars[k]): f"x{j}" for j, k in enumerate(reads)}
    lines, result = _cuda_code().graph(graph, [params.get(id(v), "None") for v in graph.invars],
                                       dtype)
    return tuple(lines) + (f"r = {result}",), tuple(reads)

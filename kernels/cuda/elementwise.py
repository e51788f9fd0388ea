"""Elementwise kernels with NumPy broadcasting, dtype promotion and strided operands.

One table, :data:`OPS`, gives each operation a *category* (which decides the dtype
its inputs are computed in) and a body: Python source computing ``r`` from the
inputs ``x0, x1, ...``, where ``C(v)`` casts a constant to the compute dtype (so a
float32 kernel never silently computes in float64) and ``F.<fn>`` is a leaf of
:mod:`._scalar`.  A body may differ for float and integer compute types
(``{"f": ..., "i": ...}``).

From an operation, its operands' layout kinds and the compute dtype, one kernel is
generated (see :mod:`._codegen`): each operand is ``C`` (contiguous, same shape as
the output: read at ``offset + i``), ``B`` (strided or broadcast: its offset is
accumulated from the output's multi-index with its own strides, 0 on broadcast
axes) or ``S`` (a scalar kernel argument, already cast on the host).  Axes that
every operand walks alike are merged first (:func:`._layout.collapse`), so the
common contiguous case has no index arithmetic at all.

The ``*_vjp`` entries are the fused first-order rule kernels (one pass instead of
the rule's several), with the same signature as the CPU ones in
``funcgrad.kernels.cpu``: ``(g, x, y) -> g * dy/dx``.
"""
import functools

import numpy as np
from numba import cuda

from . import _codegen
from ._config import THREADS, blocks_for
from ._layout import collapse, contiguous_strides, size_of
from ._ops import ARITY, FUSED_VJP, OPS  # noqa: F401 - re-exported


# --- dtypes --------------------------------------------------------------------------------

def _compute_dtype(dtype):
    """float16 is computed in float32 (CUDA's half maths is partial), as NumPy's loops do."""
    dtype = np.dtype(dtype)
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def _sample(x):
    return x if isinstance(x, (bool, int, float, np.generic)) else np.zeros((), x.dtype)


def compute_dtypes(name, operands, out_dtype):
    """The dtype each operand is read as (``None``: as it is)."""
    category = OPS[name][0]
    n = len(operands)
    if category == "arith":
        return [_compute_dtype(out_dtype)] * n
    if category == "cmp":
        return [_compute_dtype(np.result_type(*[_sample(x) for x in operands]))] * n
    if category == "logic":
        return [np.dtype(bool)] * n
    if category == "pred":
        return [_compute_dtype(operands[0].dtype if hasattr(operands[0], "dtype")
                               else np.result_type(operands[0]))]
    if category == "where":
        return [np.dtype(bool), _compute_dtype(out_dtype), _compute_dtype(out_dtype)]
    raise AssertionError(category)


def _body(name, dtype):
    body = OPS[name][1]
    if isinstance(body, dict):
        kind = "f" if dtype.kind == "f" else "i"
        if kind not in body:
            raise TypeError(f"{name} has no GPU kernel for dtype {dtype}")
        body = body[kind]
    return body


def _cast(dtype, expr):
    if dtype.kind == "b":
        return f"({expr} != 0)"
    return f"np.{dtype.name}({expr})"


# --- kernel generation -------------------------------------------------------------------------

def _source(name, kinds, out_kind, dtypes):
    """Source of the kernel for operand kinds (C/B/S per input) and output kind (C/B)."""
    ct = dtypes[0] if name not in ("where",) else dtypes[1]
    params = ["out", "oo", "so", "n", "shape"]
    for k, kind in enumerate(kinds):
        params += [f"a{k}"] if kind == "S" else [f"a{k}", f"o{k}", f"s{k}"]
    lines = [f"def kernel({', '.join(params)}):",
             "    i = cuda.grid(1)",
             "    step = cuda.gridsize(1)",
             "    while i < n:"]
    strided = [k for k, kind in enumerate(kinds) if kind == "B"]
    if strided or out_kind == "B":
        lines.append("        rem = i")
        lines += [f"        p{k} = o{k}" for k in strided]
        if out_kind == "B":
            lines.append("        po = oo")
        lines += ["        for d in range(len(shape) - 1, -1, -1):",
                  "            q = rem % shape[d]",
                  "            rem //= shape[d]"]
        lines += [f"            p{k} += q * s{k}[d]" for k in strided]
        if out_kind == "B":
            lines.append("            po += q * so[d]")
    for k, kind in enumerate(kinds):
        if kind == "S":
            lines.append(f"        x{k} = a{k}")
        elif kind == "C":
            lines.append(f"        x{k} = {_cast(dtypes[k], f'a{k}[o{k} + i]')}")
        else:
            lines.append(f"        x{k} = {_cast(dtypes[k], f'a{k}[p{k}]')}")
    ctor = "np.bool_" if ct.kind == "b" else f"np.{ct.name}"
    body = _body(name, ct).replace("C(", ctor + "(")
    lines += ["        " + line for line in body.splitlines()]
    lines.append("        out[po] = r" if out_kind == "B" else "        out[oo + i] = r")
    lines.append("        i += step")
    return "@cuda.jit(cache=CACHE)\n" + "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=None)
def _kernel_for(name, kinds, out_kind, dtypes):
    return _codegen.build(_source(name, kinds, out_kind, dtypes))


def kernel_for(name, kinds, out_kind, dtypes):
    return _kernel_for(name, tuple(kinds), out_kind, tuple(dtypes))


# --- running -------------------------------------------------------------------------------------

def _broadcast_strides(x, shape):
    lead = len(shape) - len(x.shape)
    strides = [0] * lead
    for d, xd, xs in zip(shape[lead:], x.shape, x.strides):
        strides.append(0 if xd == 1 and d != 1 else xs)
    return strides


def _scalar_arg(x, dtype):
    if dtype.kind == "b":
        return np.bool_(x != 0)
    with np.errstate(over="ignore", invalid="ignore"):
        return dtype.type(x)


def run(name, operands, out_shape, out_dtype, out=None):
    """Compute ``name`` over ``operands`` (strided device arrays or scalars) into a new
    contiguous device buffer of ``out_shape`` (returned), or into ``out`` (an object
    with ``buf``, ``offset``, ``strides``) when given."""
    out_shape = tuple(out_shape)
    out_dtype = np.dtype(out_dtype)
    n = size_of(out_shape)
    if out is None:
        out_buf, out_off, out_strides = cuda.device_array(n, out_dtype), 0, \
            contiguous_strides(out_shape)
    else:
        out_buf, out_off, out_strides = out.buf, out.offset, tuple(out.strides)
    if n == 0:
        return out_buf
    dtypes = compute_dtypes(name, operands, out_dtype)
    arrays = [k for k, x in enumerate(operands) if hasattr(x, "buf")]
    shape, strides = collapse(out_shape, [list(out_strides)] +
                              [_broadcast_strides(operands[k], out_shape) for k in arrays])
    if not shape:
        shape = (1,)
        strides = [(1,)] + [(0,)] * len(arrays)
    out_kind = "C" if len(shape) == 1 and strides[0] == (1,) else "B"
    kinds, args = [], []
    for k, x in enumerate(operands):
        if k in arrays:
            s = strides[1 + arrays.index(k)]
            kind = "C" if out_kind == "C" and s == (1,) else "B"
            kinds.append(kind)
            args += [x.buf, x.offset, s]
        else:
            kinds.append("S")
            args.append(_scalar_arg(x, dtypes[k]))
    kernel = kernel_for(name, kinds, out_kind, dtypes)
    kernel[blocks_for(n), THREADS](out_buf, out_off, strides[0], n, shape, *args)
    return out_buf

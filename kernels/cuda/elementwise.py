"""Elementwise kernels with NumPy broadcasting, dtype promotion and strided operands.

The caller gives the operation as *lines*: Python source computing ``r`` from the inputs
``x0, x1, ...`` already in their compute dtypes, with leaves ``F.<name>`` of
:mod:`._scalar` (funcgrad writes them from a primitive's scalar definition, or from a
captured first-order rule: see :mod:`funcgrad.primitives.scalar`), and the dtype each
input is computed in (:func:`compute_dtype` maps float16 to float32).

From the lines, the operands' layout kinds and the compute dtypes, one kernel is
generated (see :mod:`._codegen`): each operand is ``C`` (contiguous, same shape as
the output: read at ``offset + i``), ``B`` (strided or broadcast: its offset is
accumulated from the output's multi-index with its own strides, 0 on broadcast
axes) or ``S`` (a scalar kernel argument, already cast on the host).  Axes that
every operand walks alike are merged first (:func:`._layout.collapse`), so the
common contiguous case has no index arithmetic at all.
"""
import functools

import numpy as np
from numba import cuda

from . import _codegen
from ._config import THREADS, blocks_for
from ._layout import collapse, contiguous_strides, size_of

CAST = ("r = x0",)
"""The lines of a copy with conversion (the input is read in the output's dtype)."""

CAST_REAL = ("r = x0.real",)
"""The lines of a conversion of complex to real (the input is read in its own dtype; the
store converts the real part, as NumPy's ``astype`` keeps it)."""


def compute_dtype(dtype):
    """float16 is computed in float32 (CUDA's half maths is partial), as NumPy's loops do."""
    dtype = np.dtype(dtype)
    return np.dtype(np.float32) if dtype == np.float16 else dtype


def _cast(dtype, expr):
    if dtype.kind == "b":
        return f"({expr} != 0)"
    return f"np.{dtype.name}({expr})"


# --- kernel generation -------------------------------------------------------------------------

def _source(lines, kinds, out_kind, dtypes):
    """Source of the kernel for operand kinds (C/B/S per input) and output kind (C/B)."""
    params = ["out", "oo", "so", "n", "shape"]
    for k, kind in enumerate(kinds):
        params += [f"a{k}"] if kind == "S" else [f"a{k}", f"o{k}", f"s{k}"]
    out = [f"def kernel({', '.join(params)}):",
           "    i = cuda.grid(1)",
           "    step = cuda.gridsize(1)",
           "    while i < n:"]
    strided = [k for k, kind in enumerate(kinds) if kind == "B"]
    if strided or out_kind == "B":
        out.append("        rem = i")
        out += [f"        p{k} = o{k}" for k in strided]
        if out_kind == "B":
            out.append("        po = oo")
        out += ["        for d in range(len(shape) - 1, -1, -1):",
                "            q = rem % shape[d]",
                "            rem //= shape[d]"]
        out += [f"            p{k} += q * s{k}[d]" for k in strided]
        if out_kind == "B":
            out.append("            po += q * so[d]")
    for k, kind in enumerate(kinds):
        if kind == "S":
            out.append(f"        x{k} = a{k}")
        elif kind == "C":
            out.append(f"        x{k} = {_cast(dtypes[k], f'a{k}[o{k} + i]')}")
        else:
            out.append(f"        x{k} = {_cast(dtypes[k], f'a{k}[p{k}]')}")
    out += ["        " + line for line in lines]
    out.append("        out[po] = r" if out_kind == "B" else "        out[oo + i] = r")
    out.append("        i += step")
    return "@cuda.jit(cache=CACHE)\n" + "\n".join(out) + "\n"


@functools.lru_cache(maxsize=None)
def _kernel_for(lines, kinds, out_kind, dtypes):
    return _codegen.build(_source(lines, kinds, out_kind, dtypes))


def kernel_for(lines, kinds, out_kind, dtypes):
    """The compiled kernel of ``lines`` for operand ``kinds`` and compute ``dtypes``."""
    return _kernel_for(tuple(lines), tuple(kinds), out_kind, tuple(map(np.dtype, dtypes)))


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


def run(lines, dtypes, operands, out_shape, out_dtype, out=None):
    """Compute ``lines`` over ``operands`` (strided device arrays or scalars, read in
    ``dtypes``) into a new contiguous device buffer of ``out_shape`` (returned), or into
    ``out`` (an object with ``buf``, ``offset``, ``strides``) when given."""
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
    dtypes = [np.dtype(d) for d in dtypes]
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
    kernel = kernel_for(lines, kinds, out_kind, dtypes)
    kernel[blocks_for(n), THREADS](out_buf, out_off, strides[0], n, shape, *args)
    return out_buf

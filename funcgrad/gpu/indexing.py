"""Indexing on the GPU: ``gather`` (``x[idx]``) and ``scatter`` (``x.at[idx].set/add/...``).

The host turns an index (the primitive's ``spec`` plus index arrays) into a *plan*
(:func:`_index_plan`): per axis of the indexed region its size, the element stride it
moves in the source and the stride it moves in the broadcast index arrays, a base
offset, and per index array the stride and length of the axis it indexes
(:mod:`funcgrad.kernels.cuda.index` reads it).  Basic indexing (slices, integers,
``None``) is a view and runs no kernel.

Index arrays may stay on the host (NumPy integer arrays, bounds-checked here) or live
on the device (bounds checked by the kernel, which flags an error instead of reading
out of range).
"""
import numpy as np

from ..kernels._broadcast import broadcast_shapes
from ..kernels.cuda._layout import contiguous_strides, size_of
from ..primitives import indexing as _ix
from ..primitives.index_spec import _adjacent
from .array import GpuArray, as_gpu, backend, broadcast_view, new, run_cast, view
from .dispatch import abstract

__all__ = ["indexing_impls"]


def _index_plan(x, spec, arrays):
    """``(ishape, dims, base, isrc, idim)`` of ``x[spec]``: the index arrays' broadcast
    shape, per region axis ``(size, source stride, index stride)``, the base offset, and
    per index array the stride and length of the axis it indexes."""
    ishape = broadcast_shapes(*[np.shape(a) for a in arrays])
    istrides = contiguous_strides(ishape)
    dims = []
    base, axis, placed = x.offset, 0, False
    isrc, idim = [], []
    if not _adjacent(spec):  # NumPy puts separated advanced axes first
        dims += [(d, 0, s) for d, s in zip(ishape, istrides)]
        placed = True
    for e in spec:
        kind = e[0]
        if kind == "s":
            start, stop, step = e[1:]
            n = len(range(start, stop, step))
            dims.append((n, step * x.strides[axis], 0))
            if n:
                base += start * x.strides[axis]
            axis += 1
        elif kind == "i":
            base += e[1] * x.strides[axis]
            axis += 1
        elif kind == "n":
            dims.append((1, 0, 0))
        elif kind == "a":
            if not placed:
                dims += [(d, 0, s) for d, s in zip(ishape, istrides)]
                placed = True
            isrc.append(x.strides[axis])
            idim.append(x.shape[axis])
            axis += 1
    return ishape, dims, base, tuple(isrc), tuple(idim)


def _index_rows(arrays, ishape, idim):
    """The index arrays broadcast to ``ishape`` as the int64 rows of one device array;
    returns it and whether any came from the device (then bounds are checked there)."""
    P = max(size_of(ishape), 1)
    if not any(isinstance(a, GpuArray) for a in arrays):
        rows = np.empty((len(arrays), P), np.int64)
        for k, (a, n) in enumerate(zip(arrays, idim)):
            a = np.asarray(a)
            _check_integer(a)
            if a.size and (a.min() < -n or a.max() >= n):
                bad = a[(a < -n) | (a >= n)].flat[0]
                raise IndexError(f"index {bad} is out of bounds for axis with size {n}")
            rows[k, :size_of(ishape)] = np.broadcast_to(a, ishape).reshape(-1)
        return backend().cuda.to_device(rows), False
    rows = backend().cuda.device_array((len(arrays), P), np.int64)
    flat = GpuArray(rows.reshape(len(arrays) * P), (len(arrays) * P,), np.int64)
    for k, a in enumerate(arrays):
        a = as_gpu(a)
        _check_integer(a)
        if size_of(ishape):
            target = view(flat, ishape, contiguous_strides(ishape), k * P)
            run_cast([broadcast_view(a, ishape)], ishape, np.int64, out=target)
    return rows, True


def _check_integer(a):
    if a.dtype.kind not in "iub":
        raise IndexError(f"arrays used as indices must be of integer type, got {a.dtype}")


def _no_index():
    """A stand-in for absent index arrays: one row of one zero, indexing an axis of
    stride 0 (the kernels take the same arguments either way)."""
    return backend().cuda.to_device(np.zeros((1, 1), np.int64)), (0,), (1,)


def _error_flag():
    return backend().cuda.to_device(np.zeros(1, np.int32))


def _check_index_error(err):
    if err.copy_to_host()[0]:
        raise IndexError("an index is out of bounds for the axis it indexes (found on the GPU)")


def _gather(x, *arrays, spec):
    out = abstract(_ix.gather_p, (x,) + arrays, {"spec": spec})
    ishape, dims, base, isrc, idim = _index_plan(x, spec, arrays)
    rshape = tuple(d[0] for d in dims)
    assert rshape == tuple(out.shape), (rshape, out.shape)
    if not arrays:
        return view(x, rshape, tuple(d[1] for d in dims), base)
    idx, check = _index_rows(arrays, ishape, idim)
    err = _error_flag()
    buf = backend().index.gather(x.buf, base, rshape, tuple(d[1] for d in dims),
                                 tuple(d[2] for d in dims), idx, isrc, idim, err, x.dtype)
    if check:
        _check_index_error(err)
    return new(buf, rshape, x.dtype)


def _scatter(operand, updates, *arrays, spec, mode):
    out_aval = abstract(_ix.scatter_p, (operand, updates) + arrays, {"spec": spec, "mode": mode})
    if out_aval.dtype.kind == "c" and mode in ("min", "max"):
        raise TypeError(f"x.at[...].{mode}() on a complex GPU array: complex numbers have no "
                        f"order on the GPU (NumPy's is lexicographic). Copy the array to the "
                        f"host first (fg.device_get(x)).")
    operand = as_gpu(operand)
    # a fresh contiguous copy in the result dtype, then write into it
    out = new(run_cast([operand], operand.shape, out_aval.dtype), operand.shape, out_aval.dtype)
    updates = as_gpu(updates, out_aval.dtype)
    ishape, dims, base, isrc, idim = _index_plan(out, spec, arrays)
    if arrays:
        idx, check = _index_rows(arrays, ishape, idim)
    else:
        (idx, isrc, idim), check = _no_index(), False
    rshape = tuple(d[0] for d in dims)
    try:
        fits = broadcast_shapes(updates.shape, rshape) == rshape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"shape mismatch: value array of shape {updates.shape} could not be "
                         f"broadcast to indexing result of shape {rshape}")
    u = broadcast_view(updates, rshape)
    err = _error_flag()
    backend().index.scatter(out.buf, base, rshape, tuple(d[1] for d in dims),
                            tuple(d[2] for d in dims), idx, isrc, idim, err, u.buf, u.offset,
                            u.strides, mode, bool(arrays))
    if check:
        _check_index_error(err)
    return out


def indexing_impls():
    return {_ix.gather_p: _gather, _ix.scatter_p: _scatter}

"""Reductions along axes on the GPU (sum, prod, max, min, logsumexp, argmax, argmin) and
the row-wise scans (cumsum, argsort).

Each views its operand as ``M`` rows of ``K`` elements (:func:`rows_layout`) and hands
that to one kernel of ``funcgrad.kernels.cuda``.
"""
import numpy as np

from ..kernels.cuda._layout import collapse, size_of
from ..primitives import elementwise as _ew
from ..primitives import indexing as _ix
from ..primitives import reductions as _red
from ..primitives import structural as _st
from .array import backend, cast, contiguous, new
from .dispatch import IMPLS, abstract
from .structural import reshape, transpose

__all__ = ["rows_layout", "reduce_sum", "reduction_impls"]


def rows_layout(x, axes):
    """``(x, M, K, sm, sk)``: ``x``'s kept axes as M rows, the ``axes`` as K columns
    (row ``m``, element ``k`` at ``offset + m*sm + k*sk``); ``x`` is a transposed copy
    only where its strides cannot be walked that way."""
    kept = [i for i in range(x.ndim) if i not in axes]
    M = size_of([x.shape[i] for i in kept])
    K = size_of([x.shape[i] for i in axes])
    kshape, (kstr,) = collapse([x.shape[i] for i in kept], [[x.strides[i] for i in kept]])
    rshape, (rstr,) = collapse([x.shape[i] for i in axes], [[x.strides[i] for i in axes]])
    if len(kshape) <= 1 and len(rshape) <= 1:
        return x, M, K, (kstr[0] if kstr else 0), (rstr[0] if rstr else 0)
    xt = contiguous(transpose(x, perm=kept + list(axes)))
    return xt, M, K, K, 1


def _reduce(op, x, axes, out_dtype, reduced_shape):
    x, M, K, sm, sk = rows_layout(x, axes)
    buf = backend().reduce.rows(op, x.buf, x.offset, M, K, sm, sk, out_dtype)
    return new(buf, reduced_shape, out_dtype)


def _reduction_impl(prim, op, check_empty=False):
    def impl(x, *, axes, keepdims):
        if check_empty:
            _red._check_nonempty(prim.name, x, axes)
        out = abstract(prim, (x,), {"axes": axes, "keepdims": keepdims})
        if not axes:
            return cast(x, out.dtype)
        return _reduce(op, x, axes, out.dtype, out.shape)
    return impl


reduce_sum = _reduction_impl(_st.reduce_sum_p, "sum")


def _logsumexp(x, *, axes, keepdims):
    _red._check_nonempty("logsumexp", x, axes)
    out = abstract(_red.logsumexp_p, (x,), {"axes": axes, "keepdims": keepdims})
    x = cast(x, out.dtype)
    if not axes:
        return x
    kept_shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    m = _reduce("max", x, axes, out.dtype, kept_shape)
    m = IMPLS[_ew.where_p](IMPLS[_ew.isfinite_p](m), m, 0.0)  # all -inf (or inf): shift by 0
    xr, M, K, sm, sk = rows_layout(x, axes)
    s = backend().reduce.rows("lse", xr.buf, xr.offset, M, K, sm, sk, out.dtype, shift=m.buf)
    lse = IMPLS[_ew.add_p](IMPLS[_ew.log_p](new(s, kept_shape, out.dtype)), m)
    return reshape(lse, shape=out.shape)


def _arg_impl(prim, largest):
    def impl(x, *, axis, keepdims):
        _red._check_nonempty(prim.name, x, (axis,))
        out = abstract(prim, (x,), {"axis": axis, "keepdims": keepdims})
        xr, M, K, sm, sk = rows_layout(x, (axis,))
        buf = backend().reduce.argrows("argmax" if largest else "argmin", xr.buf, xr.offset,
                                       M, K, sm, sk)
        return cast(new(buf, out.shape, np.int64), out.dtype)
    return impl


def _move_last_back(flat, x_shape, axis, dtype):
    """A (kept..., N) contiguous result as a view in ``x``'s axis order."""
    kept = [d for i, d in enumerate(x_shape) if i != axis]
    y = new(flat, tuple(kept) + (x_shape[axis],), dtype)
    perm = list(range(len(kept)))
    perm.insert(axis, len(kept))
    return transpose(y, perm=perm)


def _cumsum(x, *, axis):
    out = abstract(_red.cumsum_p, (x,), {"axis": axis})
    xr, M, N, sm, sk = rows_layout(x, (axis,))
    buf = backend().scan.cumsum_rows(xr.buf, xr.offset, M, N, sm, sk, out.dtype)
    return _move_last_back(buf, x.shape, axis, out.dtype)


def _argsort(x, *, axis):
    out = abstract(_ix.argsort_p, (x,), {"axis": axis})
    xr, M, N, sm, sk = rows_layout(x, (axis,))
    buf = backend().sort.argsort_rows(xr.buf, xr.offset, M, N, sm, sk)
    return cast(_move_last_back(buf, x.shape, axis, np.int64), out.dtype)


def reduction_impls():
    return {
        _st.reduce_sum_p: reduce_sum,
        _red.reduce_prod_p: _reduction_impl(_red.reduce_prod_p, "prod"),
        _red.reduce_max_p: _reduction_impl(_red.reduce_max_p, "max", check_empty=True),
        _red.reduce_min_p: _reduction_impl(_red.reduce_min_p, "min", check_empty=True),
        _red.logsumexp_p: _logsumexp,
        _red.argmax_p: _arg_impl(_red.argmax_p, True),
        _red.argmin_p: _arg_impl(_red.argmin_p, False),
        _red.cumsum_p: _cumsum,
        _ix.argsort_p: _argsort,
    }

"""Linear algebra on the GPU: ``inv``, ``solve``, ``det``, ``slogdet`` (LU with partial
pivoting) and ``cholesky``, for stacks of small matrices (one block per matrix)."""
import numpy as np

from ..kernels._broadcast import broadcast_shapes
from ..kernels.cuda._layout import size_of
from ..primitives import linalg as _la
from .array import GpuArray, as_gpu, backend, broadcast_view, new, run_cast, upload, view
from .dispatch import abstract
from .structural import reshape

__all__ = ["linalg_impls"]


def _stack_copy(a, batch, dtype):
    """``a`` broadcast to ``batch + a.shape[-2:]`` as a new contiguous array of ``dtype``
    (the kernels factor in place)."""
    shape = tuple(batch) + a.shape[-2:]
    return GpuArray(run_cast([broadcast_view(a, shape)], shape, dtype), shape, dtype)


def _lu(a, dtype):
    """``(lu, piv, info, sign, n, B)``: the LU factors of the stack ``a`` in ``dtype``."""
    batch = a.shape[:-2]
    lu = _stack_copy(a, batch, dtype)
    n = a.shape[-1]
    B = size_of(batch)
    piv, info, sign = backend().linalg.lu_factor(lu.buf, n, B)
    return lu, piv, info, sign, n, B


def _failed(info, B):
    """Did any of the ``B`` factorizations report a zero (or non-positive) pivot?"""
    return B and bool(info.copy_to_host()[:B].any())


def _check_nonsingular(info, B):
    if _failed(info, B):
        raise np.linalg.LinAlgError("Singular matrix")


def _solve_into(lu, piv, rhs, n, B):
    backend().linalg.lu_solve(lu.buf, piv, rhs.buf, n, rhs.shape[-1], B)
    return rhs


def _inv(a):
    out = abstract(_la.inv_p, (a,), {})
    lu, piv, info, sign, n, B = _lu(a, out.dtype)
    _check_nonsingular(info, B)
    rhs = _stack_copy(upload(np.eye(n, dtype=out.dtype)), a.shape[:-2], out.dtype)
    return _solve_into(lu, piv, rhs, n, B)


def _solve(a, b):
    out = abstract(_la.solve_p, (a, b), {})
    a, b = as_gpu(a), as_gpu(b)
    vector = b.ndim == 1
    b2 = view(b, b.shape + (1,), b.strides + (0,), b.offset) if vector else b
    if b2.ndim < 2 or b2.shape[-2] != a.shape[-1]:
        raise ValueError(f"solve: a of shape {a.shape} and b of shape {b.shape} do not match: "
                         f"b needs {a.shape[-1]} rows (its {'only' if vector else 'second-to-last'}"
                         f" axis)")
    batch = broadcast_shapes(a.shape[:-2], b2.shape[:-2])
    lu, piv, info, sign, n, B = _lu(broadcast_view(a, batch + a.shape[-2:]), out.dtype)
    _check_nonsingular(info, B)
    x = _solve_into(lu, piv, _stack_copy(b2, batch, out.dtype), n, B)
    return reshape(x, shape=out.shape)


def _solve_lu(a, b):
    """``solve_lu_p`` on the device: the solution as :func:`_solve`.  The factors LAPACK
    would return are of no use here (the device's LU kernels keep their own pivots and
    have no transposed solve), so ``lu`` is ``a`` itself, the pivots are zeros, and
    :func:`_lu_solve` factors ``a`` again: on the GPU a gradient still costs two LUs."""
    _, lu_aval, piv_aval = abstract(_la.solve_lu_p, (a, b), {})
    lu = _stack_copy(as_gpu(a), lu_aval.shape[:-2], lu_aval.dtype)
    return _solve(a, b), lu, upload(np.zeros(piv_aval.shape, piv_aval.dtype))


def _lu_solve(a, lu, piv, b, *, transpose):
    out = abstract(_la.lu_solve_p, (a, lu, piv, b), {"transpose": transpose})
    a = as_gpu(a)
    if transpose:  # (a strided view: _solve copies it into the kernels' layout)
        a = view(a, a.shape[:-2] + a.shape[-1:] + a.shape[-2:-1],
                 tuple(a.strides[:-2]) + (a.strides[-1], a.strides[-2]), a.offset)
    return _solve(broadcast_view(a, out.shape[:-2] + a.shape[-2:]), b)


def _det_parts(a, prim):
    """``(det, sign, logdet)`` of the stack ``a``, in the dtype of ``prim``'s result."""
    out = abstract(prim, (a,), {})
    dtype = (out[0] if isinstance(out, (list, tuple)) else out).dtype
    batch = a.shape[:-2]
    if a.shape[-1] == 0:  # the empty matrix: det 1, sign 1, log|det| 0
        ones = upload(np.ones(batch, dtype))
        return ones, ones, upload(np.zeros(batch, dtype))
    lu, piv, info, sign, n, B = _lu(a, dtype)
    det, sgn, logdet = backend().linalg.lu_det(lu.buf, sign, n, B, dtype)
    return new(det, batch, dtype), new(sgn, batch, dtype), new(logdet, batch, dtype)


def _det(a):
    return _det_parts(a, _la.det_p)[0]


def _slogdet(a):
    _, sign, logdet = _det_parts(a, _la.slogdet_p)
    return sign, logdet


def _cholesky(a):
    out = abstract(_la.cholesky_p, (a,), {})
    batch = a.shape[:-2]
    low = _stack_copy(a, batch, out.dtype)
    B = size_of(batch)
    info = backend().linalg.cholesky(low.buf, a.shape[-1], B)
    if _failed(info, B):
        raise np.linalg.LinAlgError(
            "cholesky: the matrix is not positive definite (Matrix is not positive definite). "
            "Cholesky needs a symmetric positive-definite matrix; add a small multiple of the "
            "identity if it is only semi-definite.")
    return low


def linalg_impls():
    return {_la.inv_p: _inv, _la.solve_p: _solve, _la.det_p: _det, _la.slogdet_p: _slogdet,
            _la.cholesky_p: _cholesky, _la.solve_lu_p: _solve_lu, _la.lu_solve_p: _lu_solve}

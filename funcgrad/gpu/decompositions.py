"""Matrix decompositions on the GPU: ``svd``, ``svdvals``, ``eigh``, ``eigvalsh``, ``qr``
and ``pinv`` run on the device for stacks of small matrices (one thread per matrix, see
:mod:`funcgrad.kernels.cuda.decompositions`); ``eig`` is refused (no GPU kernel for
the nonsymmetric eigenproblem), and so are complex matrices.

Values are NumPy's up to rounding: eigenvalues ascending, singular values descending,
the same shapes for ``full_matrices`` and QR's modes, and QR with LAPACK's Householder
convention (R's diagonal has the sign LAPACK gives it).  The signs of singular and eigen
vectors are not unique and may differ from LAPACK's (Jacobi's choice): use quantities
that do not depend on them (``U @ diag(S) @ Vh``, ``V[:, i] ** 2``, projectors), as the
derivative rules of :mod:`funcgrad.primitives.decompositions` already ask.

>>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp          # doctest: +SKIP
>>> a = fg.device_put(np.array([[2.0, 1.0], [1.0, 2.0]]))               # doctest: +SKIP
>>> np.asarray(fnp.linalg.eigvalsh(a))                                  # doctest: +SKIP
array([1., 3.])
"""
import numpy as np

from ..kernels.cuda._layout import size_of
from ..primitives import decompositions as _dec
from ..primitives import pinv as _pinv_prim
from ..primitives import eig as _eig_prim
from .array import backend, new, upload, view
from .dispatch import abstract
from .linalg import _stack_copy

__all__ = ["decomposition_impls"]


def _kernels():
    """The kernel module, imported on first use (it imports numba.cuda)."""
    from ..kernels.cuda import decompositions
    return decompositions


def _buffer(size, dtype):
    return backend().cuda.device_array(max(size, 1), dtype)


def _swap(x):
    """The last two axes of ``x`` exchanged (a view)."""
    return view(x, x.shape[:-2] + x.shape[-2:][::-1], x.strides[:-2] + x.strides[-2:][::-1],
                x.offset)


def _empty_case(prim, a, params, dtype):
    """A stack with no entries: NumPy's answer on zeros of that shape (identity blocks
    for ``full_matrices`` / ``complete``), there being no data to compute with."""
    out = prim.impl(np.zeros(a.shape, dtype), **params)
    if isinstance(out, (tuple, list)):
        return tuple(upload(o) for o in out)
    return upload(out)


def _scalars(dtype):
    """``one`` and ``eps`` as scalars of ``dtype``, so kernels compute in it."""
    dtype = np.dtype(dtype)
    return dtype.type(1), dtype.type(np.finfo(dtype).eps)


# --- eigh, eigvalsh -----------------------------------------------------------------------

def _eigh_device(a, lower, vectors, dtype):
    """Eigenvalues ascending, and (when ``vectors``) eigenvectors as columns."""
    batch, n = a.shape[:-2], a.shape[-1]
    B = size_of(batch)
    work = _stack_copy(a, batch, dtype)
    w = _buffer(B * n, dtype)
    v = _buffer(B * n * n if vectors else 1, dtype)
    K = _kernels()
    K.launch_per_matrix(K.eigh_kernel, B, work.buf, v, w, n, B, bool(lower), bool(vectors),
                        *_scalars(dtype))
    return new(w, batch + (n,), dtype), new(v, batch + (n, n), dtype) if vectors else None


def _eigh(a, *, lower):
    w_aval, _ = abstract(_dec.eigh_p, (a,), {"lower": lower})
    if a.size == 0:
        return _empty_case(_dec.eigh_p, a, {"lower": lower}, w_aval.dtype)
    return _eigh_device(a, lower, True, w_aval.dtype)


def _eigvalsh(a, *, lower):
    w_aval = abstract(_dec.eigvalsh_p, (a,), {"lower": lower})
    if a.size == 0:
        return _empty_case(_dec.eigvalsh_p, a, {"lower": lower}, w_aval.dtype)
    return _eigh_device(a, lower, False, w_aval.dtype)[0]


# --- svd, svdvals, pinv -------------------------------------------------------------------

def _svd_device(a, full_matrices, vectors, dtype):
    """One-sided Jacobi on the tall one of ``a`` and ``a.T``: ``(u, s, vt, transposed)``
    as new contiguous arrays with ``tall = u @ diag(s) @ vt`` (``u``: (..., M, ku) with
    ``M = max(m, n)``, ``ku = M`` when ``full_matrices`` else ``min(m, n)``)."""
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    transposed = m < n
    tall_m, k = max(m, n), min(m, n)
    ku = tall_m if full_matrices else k
    B = size_of(batch)
    g = _stack_copy(_swap(a) if transposed else a, batch, dtype)
    s = _buffer(B * k, dtype)
    u = _buffer(B * tall_m * ku if vectors else 1, dtype)
    vt = _buffer(B * k * k if vectors else 1, dtype)
    K = _kernels()
    K.launch_per_matrix(K.svd_kernel, B, g.buf, s, u, vt, tall_m, k, ku, B, bool(vectors),
                        *_scalars(dtype))
    return (new(u, batch + (tall_m, ku), dtype), new(s, batch + (k,), dtype),
            new(vt, batch + (k, k), dtype), transposed)


def _svd(a, *, full_matrices):
    params = {"full_matrices": full_matrices}
    _, s_aval, _ = abstract(_dec.svd_p, (a,), params)
    if a.size == 0:
        return _empty_case(_dec.svd_p, a, params, s_aval.dtype)
    u, s, vt, transposed = _svd_device(a, full_matrices, True, s_aval.dtype)
    if transposed:  # a.T = u s vt, so a = vt.T s u.T
        return _swap(vt), s, _swap(u)
    return u, s, vt


def _svdvals(a):
    s_aval = abstract(_dec.svdvals_p, (a,), {})
    if a.size == 0:
        return _empty_case(_dec.svdvals_p, a, {}, s_aval.dtype)
    return _svd_device(a, False, False, s_aval.dtype)[1]


def _pinv(a, *, rcond, hermitian):
    # (hermitian: the front has mirrored a's lower triangle already, so a is symmetric and
    # its SVD gives what NumPy's eigh route gives: the same singular values and cutoff)
    params = {"rcond": rcond, "hermitian": hermitian}
    out = abstract(_pinv_prim.pinv_p, (a,), params)
    if a.size == 0:
        return _empty_case(_pinv_prim.pinv_p, a, params, out.dtype)
    u, s, vt, transposed = _svd_device(a, False, True, out.dtype)
    B = size_of(a.shape[:-2])
    tall_m, k = max(a.shape[-2:]), min(a.shape[-2:])
    p = _buffer(B * tall_m * k, out.dtype)
    K = _kernels()
    K.launch_per_element(K.pinv_kernel, B * tall_m * k, u.buf, s.buf, vt.buf, p, tall_m, k, B,
                         transposed, np.dtype(out.dtype).type(rcond))
    return new(p, out.shape, out.dtype)


# --- qr -----------------------------------------------------------------------------------

def _qr(a, *, complete):
    q_aval, r_aval = abstract(_dec.qr_p, (a,), {"complete": complete})
    dtype = q_aval.dtype
    if a.size == 0:
        return _empty_case(_dec.qr_p, a, {"complete": complete}, dtype)
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    B = size_of(batch)
    kq = q_aval.shape[-1]
    work = _stack_copy(a, batch, dtype)
    tau = _buffer(B * min(m, n), dtype)
    q = _buffer(B * m * kq, dtype)
    r = _buffer(B * kq * n, dtype)
    K = _kernels()
    K.launch_per_matrix(K.qr_kernel, B, work.buf, tau, q, r, m, n, kq, B, np.dtype(dtype).type(1))
    return new(q, q_aval.shape, dtype), new(r, r_aval.shape, dtype)


# --- eig ----------------------------------------------------------------------------------

def _eig(a, **params):
    raise TypeError(
        "eig (numpy.linalg.eig / eigvals) on a GPU array: funcgrad has no GPU kernel for a "
        "general (nonsymmetric) matrix's eigenvalues and eigenvectors, which are complex in "
        "general. Copy the matrix to the host first (fg.device_get(a)); eig and its "
        "derivatives then run on the CPU. For a symmetric matrix use eigh/eigvalsh, which "
        "run on the GPU.")


def decomposition_impls():
    """``{primitive: GPU implementation}`` for the decompositions of
    :mod:`funcgrad.primitives.decompositions` and :mod:`funcgrad.primitives.pinv`.

    >>> sorted(p.name for p in decomposition_impls())          # doctest: +SKIP
    ['eig', 'eigh', 'eigvalsh', 'pinv', 'qr', 'svd', 'svdvals']
    """
    return {_dec.svd_p: _svd, _dec.svdvals_p: _svdvals, _dec.eigh_p: _eigh,
            _dec.eigvalsh_p: _eigvalsh, _dec.qr_p: _qr, _pinv_prim.pinv_p: _pinv,
            _eig_prim.eig_p: _eig}

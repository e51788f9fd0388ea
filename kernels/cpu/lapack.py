"""LAPACK's ``?gesv`` and ``?getrs`` from the library NumPy itself calls: a solve that
keeps its LU factors, and solves with them (transposed too).

NumPy exposes no LU factorization, but its ``numpy.linalg._umath_linalg`` links the
LAPACK it was built with (OpenBLAS in NumPy's wheels, whose symbols are named
``scipy_dgesv_64_`` ...) and calls ``?gesv`` for ``np.linalg.solve``.  ctypes finds the
routines through that module's own handle (``dlsym`` searches the libraries a module
links), so no SciPy is needed, and :func:`gesv` is exactly the call ``np.linalg.solve``
makes: the same routine, on the same Fortran-ordered copies, in the same computation
dtype (float64 for float32, complex128 for complex64, as NumPy's ``_commonType``), so
the solution has NumPy's bits, and LAPACK leaves the factors ``P L U`` of ``a`` in the
copy of ``a`` (``gesv`` is ``getrf`` then ``getrs``, but OpenBLAS's ``gesv`` is not
bit for bit its public ``getrf`` + ``getrs``: measured, it differs in the last bit for
some shapes, so the forward calls ``gesv`` itself).  :func:`getrs` then solves
``a x = b`` or ``a^T x = b`` with the factors: a reverse-mode gradient's transposed
solve without a second factorization, as JAX does.

:func:`available` is False where no such routines are found (a NumPy linked to another
LAPACK under other names): callers keep ``np.linalg.solve`` there.  The integer width
(LP64 or ILP64) is found once by a probe that tells a 4-byte from an 8-byte write of
the pivots.
"""
import ctypes
import sys

import numpy as np

from .._broadcast import broadcast_shapes

__all__ = ["available", "computation_dtype", "gesv", "getrs", "pivot_dtype"]

_COMPUTE = {"f": np.dtype(np.float64), "c": np.dtype(np.complex128)}
_PREFIX = {np.dtype(np.float64): "d", np.dtype(np.complex128): "z"}
# the names tried, in order: NumPy's wheels (scipy-openblas, ILP64), then the plain
# ILP64 and LP64 ones (the probe below tells the integer width of each)
_NAMES = ("scipy_{}_64_", "{}_64_", "scipy_{}_", "{}_")
_routines = None   # ({prefix: (gesv, getrs)}, integer dtype); set on first use


def _load():
    """``({'d': (gesv, getrs), 'z': ...}, integer dtype)``, or ``({}, None)``."""
    global _routines
    if _routines is None:
        _routines = ({}, None)
        if sys.byteorder == "little":  # (the width probe reads the halves of 8 bytes)
            try:
                from numpy.linalg import _umath_linalg
                lib = ctypes.CDLL(_umath_linalg.__file__)
            except (ImportError, OSError, AttributeError):
                lib = None
            if lib is not None:
                _routines = _bind(lib)
    return _routines


def _bind(lib):
    for pattern in _NAMES:
        try:
            found = {p: (getattr(lib, pattern.format(p + "gesv")),
                         getattr(lib, pattern.format(p + "getrs"))) for p in "dz"}
        except AttributeError:
            continue
        pointer = ctypes.c_void_p
        for gesv_fn, getrs_fn in found.values():
            gesv_fn.argtypes = [pointer] * 8
            gesv_fn.restype = None
            # (the trailing size_t: the length of the Fortran character argument)
            getrs_fn.argtypes = [ctypes.c_char_p] + [pointer] * 8 + [ctypes.c_size_t]
            getrs_fn.restype = None
        integer = _probe(found["d"][0])
        if integer is not None:
            return found, integer
    return {}, None


def _probe(gesv_fn):
    """The integer dtype ``gesv_fn`` reads and writes (int32 or int64), or None if it does
    not solve a 2x2 system right.  Every integer is passed in 8 bytes (small positive
    values read the same in 4 on a little-endian machine) with the pivots and ``info``
    full of -1: a 4-byte routine leaves their high halves."""
    a = np.array([[1.0, 2.0], [4.0, 4.0]], order="F")
    b = np.array([3.0, 8.0])
    piv = np.full(2, -1, np.int64)
    n, k, info = (np.full(1, v, np.int64) for v in (2, 1, -1))
    gesv_fn(n.ctypes.data, k.ctypes.data, a.ctypes.data, n.ctypes.data, piv.ctypes.data,
            b.ctypes.data, n.ctypes.data, info.ctypes.data)
    if b.tolist() != [1.0, 1.0]:
        return None
    if info[0] == 0 and piv.tolist() == [2, 2]:
        return np.dtype(np.int64)
    if info[0] == -1 << 32 and piv.tolist() == [2 + (2 << 32), -1]:
        return np.dtype(np.int32)
    return None


def available():
    """Are LAPACK's ``gesv``/``getrs`` reachable (through NumPy's own library)?"""
    return _load()[1] is not None


def pivot_dtype():
    """The integer dtype of the pivots :func:`gesv` returns (LAPACK's: int64 for ILP64)."""
    return _load()[1]


def computation_dtype(dtype):
    """The dtype LAPACK computes in for results of ``dtype``, as ``np.linalg`` does:
    float64 for real, complex128 for complex (float32 and complex64 are computed there
    too and rounded at the end)."""
    return _COMPUTE[np.dtype(dtype).kind]


def _stack(shape, dtype):
    """A new stack of ``shape`` whose matrices are each in Fortran order."""
    return np.empty(shape[:-2] + (shape[-1], shape[-2]), dtype).swapaxes(-1, -2)


def gesv(a, b, out_dtype):
    """``(x, lu, piv)``: the solution of ``a x = b`` (``out_dtype``; ``np.linalg.solve``'s
    bits), and ``a``'s LU factors (Fortran-ordered matrices in the computation dtype)
    and pivots for :func:`getrs`.  ``a`` is (..., n, n), ``b`` (..., n, k): the stacks
    broadcast.  Raises ``LinAlgError("Singular matrix")``
    as NumPy does."""
    routines, integer = _load()
    compute = computation_dtype(out_dtype)
    gesv_fn = routines[_PREFIX[compute]][0]
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    n, k = b.shape[-2:]
    lu = _stack(batch + (n, n), compute)
    lu[...] = a
    x = _stack(batch + (n, k), compute)
    x[...] = b
    piv = np.zeros(batch + (n,), integer)
    if n == 0:  # (LAPACK's leading dimensions are at least 1)
        return np.ascontiguousarray(x, out_dtype), lu, piv
    n_, k_, info = (np.full(1, v, integer) for v in (n, k, 0))
    pn, pk, pinfo = n_.ctypes.data, k_.ctypes.data, info.ctypes.data
    for i in np.ndindex(batch):
        gesv_fn(pn, pk, lu[i].ctypes.data, pn, piv[i].ctypes.data, x[i].ctypes.data, pn,
                pinfo)
        if info[0] > 0:
            raise np.linalg.LinAlgError("Singular matrix")
    return np.ascontiguousarray(x, out_dtype), lu, piv


def getrs(lu, piv, b, transpose, out_dtype):
    """``x`` (``out_dtype``) with ``a x = b``, or ``a^T x = b`` when ``transpose`` (the
    plain transpose, complex too), from ``(lu, piv)`` of :func:`gesv`.  ``lu`` is
    (..., n, n), ``piv`` (..., n), ``b`` (..., n, k): the stacks broadcast."""
    routines, integer = _load()
    compute = lu.dtype
    getrs_fn = routines[_PREFIX[compute]][1]
    batch = broadcast_shapes(lu.shape[:-2], piv.shape[:-1], b.shape[:-2])
    n, k = b.shape[-2:]
    lu = np.broadcast_to(lu, batch + (n, n))
    piv = np.broadcast_to(piv, batch + (n,))
    x = _stack(batch + (n, k), compute)
    x[...] = b
    if n == 0:
        return np.ascontiguousarray(x, out_dtype)
    n_, k_, info = (np.full(1, v, integer) for v in (n, k, 0))
    pn, pk, pinfo = n_.ctypes.data, k_.ctypes.data, info.ctypes.data
    trans = b"T" if transpose else b"N"
    for i in np.ndindex(batch):
        lu_i = np.asfortranarray(lu[i])  # (no copy: gesv's factors are Fortran already)
        piv_i = np.ascontiguousarray(piv[i], integer)
        getrs_fn(trans, pn, pk, lu_i.ctypes.data, pn, piv_i.ctypes.data, x[i].ctypes.data,
                 pn, pinfo, 1)
    return np.ascontiguousarray(x, out_dtype)

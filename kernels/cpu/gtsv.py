"""LAPACK's ``?gtsv``: tridiagonal systems solved by Gaussian elimination with partial
pivoting, ``O(m)`` per system and right-hand side, the routine JAX's CPU
``tridiagonal_solve`` calls (and so its values, bit for bit where the LAPACKs agree).

The routines come from the library NumPy itself links, found as
:mod:`funcgrad.kernels.cpu.lapack` finds ``?gesv`` (through ``numpy.linalg._umath_linalg``;
no SciPy needed), in the operands' own precision: ``sgtsv`` for float32, ``cgtsv`` for
complex64, as JAX.  :func:`available` is False where they are not found: callers solve
another way there.
"""
import ctypes

import numpy as np

from . import lapack

__all__ = ["available", "gtsv"]

_PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d",
           np.dtype(np.complex64): "c", np.dtype(np.complex128): "z"}
_routines = None   # {dtype: gtsv function}; set on first use


def _load():
    global _routines
    if _routines is None:
        _routines = {}
        if lapack.available():
            try:
                from numpy.linalg import _umath_linalg
                lib = ctypes.CDLL(_umath_linalg.__file__)
            except (ImportError, OSError, AttributeError):
                return _routines
            for pattern in lapack._NAMES:
                try:
                    found = {dtype: getattr(lib, pattern.format(p + "gtsv"))
                             for dtype, p in _PREFIX.items()}
                except AttributeError:
                    continue
                for fn in found.values():
                    fn.argtypes = [ctypes.c_void_p] * 8
                    fn.restype = None
                _routines = found
                break
    return _routines


def available():
    """Is LAPACK's ``?gtsv`` reachable (through NumPy's own library)?"""
    return bool(_load())


def gtsv(dl, d, du, b):
    """``(x, singular)``: ``x`` (``b``'s shape and dtype) with ``A x = b`` for each
    tridiagonal ``A`` of sub-diagonal ``dl[..., 1:]``, diagonal ``d`` and super-diagonal
    ``du[..., :-1]`` (JAX's layout: ``dl[..., 0]`` and ``du[..., -1]`` are not read), and
    a boolean array (the batch's shape) of the systems LAPACK found exactly singular
    (their ``x`` is not a solution).  ``dl``, ``d``, ``du`` are (..., m) and ``b``
    (..., m, n), all of one batch shape and of one dtype (float32/64, complex64/128)."""
    fn = _load()[np.dtype(b.dtype)]
    integer = lapack.pivot_dtype()
    batch, (m, n) = b.shape[:-2], b.shape[-2:]
    # every argument is overwritten: Fortran-ordered copies (gtsv leaves x in b's)
    x = np.empty(batch + (n, m), b.dtype).swapaxes(-1, -2)
    x[...] = b
    sub, diag, sup = (np.array(v, b.dtype, order="C") for v in (dl, d, du))
    singular = np.zeros(batch, bool)
    if m == 0 or n == 0:
        return np.ascontiguousarray(x), singular
    m_, n_, info = (np.full(1, v, integer) for v in (m, n, 0))
    pm, pn, pinfo = m_.ctypes.data, n_.ctypes.data, info.ctypes.data
    item = b.dtype.itemsize
    for i in np.ndindex(batch):
        fn(pm, pn, sub[i].ctypes.data + item, diag[i].ctypes.data, sup[i].ctypes.data,
           x[i].ctypes.data, pm, pinfo)
        singular[i] = info[0] != 0
    return np.ascontiguousarray(x), singular

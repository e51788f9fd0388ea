"""SciPy's BLAS and LAPACK look-ups, re-exported in :mod:`funcgrad.scipy.linalg`.

They return SciPy's own Fortran wrappers, which work on plain arrays only: a traced array
(under ``grad``, ``jit`` or ``vmap``) among ``arrays`` raises a ``TypeError`` that names the
differentiable alternative (funcgrad.scipy.linalg's functions), since a routine picked for
it could not take it anyway.
"""
from typing import Any, Optional, Sequence

from ..core import Tracer as _Tracer

__all__ = ["get_blas_funcs", "get_lapack_funcs", "find_best_blas_type"]


def _plain(name: str, arrays: Sequence[Any]) -> None:
    if any(isinstance(a, _Tracer) for a in arrays):
        raise TypeError(
            f"funcgrad.scipy.linalg.{name}: SciPy's BLAS/LAPACK routines take plain arrays, "
            f"not arrays traced by funcgrad (under grad, jit or vmap), and have no "
            f"derivatives: use funcgrad.scipy.linalg's functions (solve, lu_factor, "
            f"cholesky, ...), which differentiate, or pass dtype= instead of the arrays")


def get_blas_funcs(names: Any, arrays: Sequence[Any] = (), dtype: Optional[Any] = None,
                   ilp64: Any = False) -> Any:
    """SciPy's BLAS function(s) for ``names`` and the arrays' (or ``dtype``'s) type, as
    ``scipy.linalg.get_blas_funcs`` (SciPy's wrappers: plain arrays, no derivatives).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> gemm = fsl.get_blas_funcs("gemm", (np.ones((2, 2)),))
    >>> gemm.typecode, gemm(1.0, np.eye(2), np.ones((2, 2)))[0, 0]
    ('d', np.float64(1.0))
    """
    _plain("get_blas_funcs", arrays)
    import scipy.linalg  # (here: importing funcgrad never loads SciPy)
    return scipy.linalg.get_blas_funcs(names, arrays, dtype, ilp64)


def get_lapack_funcs(names: Any, arrays: Sequence[Any] = (), dtype: Optional[Any] = None,
                     ilp64: Any = False) -> Any:
    """SciPy's LAPACK function(s) for ``names`` and the arrays' (or ``dtype``'s) type,
    as ``scipy.linalg.get_lapack_funcs`` (SciPy's wrappers: plain arrays, no
    derivatives).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> getrf = fsl.get_lapack_funcs("getrf", dtype=np.float32)
    >>> getrf.typecode
    's'
    """
    _plain("get_lapack_funcs", arrays)
    import scipy.linalg  # (here: importing funcgrad never loads SciPy)
    return scipy.linalg.get_lapack_funcs(names, arrays, dtype, ilp64)


def find_best_blas_type(arrays: Sequence[Any] = (),
                        dtype: Optional[Any] = None) -> tuple[str, Any, bool]:
    """``(prefix, dtype, prefer_fortran)``: the BLAS/LAPACK type for the arrays (or
    ``dtype``), as ``scipy.linalg.find_best_blas_type``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.find_best_blas_type((np.ones(2, np.complex64), np.ones(2)))[0]
    'z'
    """
    _plain("find_best_blas_type", arrays)
    import scipy.linalg  # (here: importing funcgrad never loads SciPy)
    return scipy.linalg.find_best_blas_type(arrays, dtype)

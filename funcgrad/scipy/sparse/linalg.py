"""``funcgrad.scipy.sparse.linalg``: SciPy's ``scipy.sparse.linalg`` on sparse arrays
(funcgrad's or SciPy's), dense matrices, functions and linear operators, differentiated.

Here: the Krylov solvers ``cg``, ``gmres`` and ``bicgstab``, differentiated implicitly.
``A`` (and the preconditioner ``M``) may be a 2-d array, a function ``v -> A v`` (which
may close over traced values) or an object with a ``matvec`` method, as SciPy's
``LinearOperator``.  Each solve is a ``fg.lax.custom_linear_solve``: its derivative is
that of the exact solution ``A^-1 b`` (another solve, with the transposed operator in
reverse mode), never the derivative of the iterations, and reaches ``b`` and whatever
``A`` holds or closes over.  The iterations are ``fg.lax.while_loop``s, so the solvers
run under ``vmap`` and ``jit`` too.  They stop once ``||b - A x|| <= max(rtol ||b||,
atol)``, SciPy's test; ``info`` is 0 then, else the iteration count (SciPy's convention
for a solve that did not converge).  The iterates themselves are funcgrad's, so ``x``
agrees with SciPy's to the tolerance, not bit for bit.  ``callback`` is not supported
(the loops are traced).

Elsewhere: ``LinearOperator``/``aslinearoperator`` in :mod:`._linop`; ``bicg``, ``cgs``,
``tfqmr``, ``minres``, ``qmr``, ``gcrotmk``, ``lgmres`` (the same machinery) in
:mod:`._krylov_more`; the least-squares ``lsqr`` and ``lsmr`` in :mod:`._lsq`;
the dense routes of ``expm_multiply``, ``expm``, ``inv``, ``norm``, ``spsolve``,
``factorized``, ``splu``, ``onenormest``, ``eigsh``, ``eigs`` and ``svds`` in
:mod:`._dense_ops`; on funcgrad's sparse arrays these run sparse throughout (products,
SciPy's SuperLU and ARPACK, exact derivatives in ``A.data``): ``spsolve``,
``spsolve_triangular``, ``matrix_power``, ``is_sptriangular``, ``spbandwidth`` in
:mod:`._arrays_linalg`, ``splu``/``spilu``, ``eigs``, ``eigsh`` (``M``, ``sigma``, 'BE'),
``svds`` ('SM'), ``expm`` and ``LaplacianNd`` in their own modules (see
benchmarks/results/session24-sparse*.md for what still densifies).
"""
from typing import Any, Callable, Optional, Tuple

from ...typing import Array, ArrayLike
from ._krylov import _bicgstab, _cg, _gmres, _solve

__all__ = ["cg", "gmres", "bicgstab"]


def cg(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
       atol: float = 0.0, maxiter: Optional[int] = None, M: Any = None,
       callback: Optional[Callable[..., Any]] = None) -> Tuple[Array, Array]:
    """``(x, info)`` with ``A x = b`` by conjugate gradients (``scipy.sparse.linalg.cg``),
    ``A`` symmetric (Hermitian) positive definite; differentiable in ``b`` and ``A``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse.linalg as fsl
    >>> a = np.array([[4.0, 1.0], [1.0, 3.0]])
    >>> g = fg.grad(lambda b: fsl.cg(a, b, rtol=1e-12)[0][0])(np.array([1.0, 2.0]))
    >>> np.round(g, 6)  # the first row of a^-1
    array([ 0.272727, -0.090909])
    """
    return _solve("cg", _cg, A, b, x0, rtol, atol, maxiter, M, callback, True)


def bicgstab(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
             atol: float = 0.0, maxiter: Optional[int] = None, M: Any = None,
             callback: Optional[Callable[..., Any]] = None) -> Tuple[Array, Array]:
    """``(x, info)`` with ``A x = b`` by BiCGSTAB (``scipy.sparse.linalg.bicgstab``), any
    nonsingular ``A``; differentiable in ``b`` and ``A``.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> x, info = fsl.bicgstab(np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([3.0, 3.0]))
    >>> np.round(x, 6), int(info)
    (array([1., 1.]), 0)
    """
    return _solve("bicgstab", _bicgstab, A, b, x0, rtol, atol, maxiter, M, callback, False)


def gmres(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
          atol: float = 0.0, restart: Optional[int] = None, maxiter: Optional[int] = None,
          M: Any = None, callback: Optional[Callable[..., Any]] = None,
          callback_type: Optional[str] = None) -> Tuple[Array, Array]:
    """``(x, info)`` with ``A x = b`` by restarted GMRES (``scipy.sparse.linalg.gmres``):
    ``restart`` (default 20) Arnoldi steps per cycle, at most ``maxiter`` cycles (default
    ``10 n``); any nonsingular ``A``; differentiable in ``b`` and ``A``.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> x, info = fsl.gmres(np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([3.0, 3.0]))
    >>> np.round(x, 6), int(info)
    (array([1., 1.]), 0)
    """
    return _solve("gmres", _gmres(20 if restart is None else int(restart)), A, b, x0, rtol,
                  atol, maxiter, M, callback, False)

from ._linop import LinearOperator, aslinearoperator  # noqa: E402
from ._krylov_more import bicg, cgs, gcrotmk, lgmres, minres, qmr, tfqmr  # noqa: E402
from ._lsq import lsmr, lsqr  # noqa: E402
from ._dense_ops import (SuperLU, eigs, eigsh, expm, expm_multiply, factorized,  # noqa: E402
                         inv, norm, onenormest, spsolve, svds)
from ._sparserest_superlu import splu  # noqa: E402

__all__ += ["LinearOperator", "aslinearoperator", "bicg", "cgs", "minres", "lsqr", "lsmr",
            "qmr", "gcrotmk", "lgmres", "tfqmr", "expm_multiply", "expm", "inv", "norm",
            "spsolve", "splu", "SuperLU", "factorized", "eigsh", "eigs", "svds", "onenormest"]
from ._arrays_linalg import (ArpackError, ArpackNoConvergence,  # noqa: E402
                             MatrixRankWarning, is_sptriangular, matrix_power, spbandwidth,
                             spsolve_triangular, use_solver)

from ._lobpcg import lobpcg  # noqa: E402

__all__ += ["spsolve_triangular", "matrix_power", "is_sptriangular", "spbandwidth",
            "use_solver", "MatrixRankWarning", "ArpackError", "ArpackNoConvergence", "lobpcg"]
from ._sparserest_superlu import spilu  # noqa: E402

__all__ += ["spilu"]
from ._sparserest_laplacian import LaplacianNd  # noqa: E402

__all__ += ["LaplacianNd"]
from ._funm_krylov import funm_multiply_krylov  # noqa: E402

__all__ += ["funm_multiply_krylov"]

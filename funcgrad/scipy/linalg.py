"""``funcgrad.scipy.linalg``: SciPy's ``scipy.linalg`` names and signatures,
differentiable, composed of funcgrad's linalg primitives (no new ones).

Here: the decompositions and solvers with SciPy's signatures where they differ from
NumPy's (``cholesky(a, lower=False)`` is *upper* by default, ``eigh(a, b=None, *,
lower=True, eigvals_only=False)``, ``qr(a, mode='full')``, ``svd``, ``pinv(a, *, atol,
rtol)``, ``solve(a, b, assume_a=...)``), ``block_diag``; triangular, LU and Cholesky
solves live in :mod:`._decomp`, ``expm``/``sqrtm``/``solve_sylvester``/``logm``/``funm``
in :mod:`._matfuncs`, ``eig``/``schur``/``pinvh`` in :mod:`._spectral`.  SciPy's
``overwrite_*`` and ``check_finite`` arguments are accepted and ignored (funcgrad never
overwrites inputs).  Stacks of matrices (leading dimensions) are accepted wherever
SciPy 1.17 accepts them, broadcast as SciPy does (:mod:`._linalg_tools`).

The rest of SciPy 1.17's ``scipy.linalg``: the trigonometric and hyperbolic matrix
functions, ``signm``, ``fractional_matrix_power``, ``expm_frechet``, ``expm_cond`` in
:mod:`._matfuncs_more`; ``eigvals``, ``polar``, ``rq``, ``hessenberg``... in
:mod:`._decomp_more`; ``orth``, ``null_space``, ``lstsq``, ``subspace_angles`` in
:mod:`._subspaces`; the Lyapunov and Riccati equations in :mod:`._solvers`; ``ldl`` and
``matrix_balance`` in :mod:`._pivoted`; banded, tridiagonal, Toeplitz and circulant
systems in :mod:`._banded`; the special matrices in :mod:`._special_matrices`; and in
:mod:`._decomp_rest` ``qr_multiply``, ``clarkson_woodruff_transform`` and the
decompositions funcgrad gives SciPy's values of but no derivative (``qz``, ``ordqz``,
``cossin``, ``rsf2csf``, ``qr_update``/``qr_insert``/``qr_delete``).  Not provided:
``get_blas_funcs``, ``get_lapack_funcs``, ``find_best_blas_type`` (LAPACK's own
routines) and the ``blas``/``lapack`` modules.
"""
from typing import Literal, Optional, Sequence, Union, overload

import numpy as np

from ..kernels._broadcast import broadcast_shapes
from .. import numpy as fnp
from ..numpy import linalg as _nla
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike, Axis
from ._decomp import cho_factor, cho_solve, lu, lu_factor, lu_solve, solve_triangular
from ._matfuncs import expm, funm, logm, solve_sylvester, sqrtm
from ._spectral import eig, pinvh, schur
from ._banded import (cho_solve_banded, cholesky_banded, eig_banded, eigh_tridiagonal,
                      eigvals_banded, eigvalsh_tridiagonal, matmul_toeplitz, solve_banded,
                      solve_circulant, solve_toeplitz, solveh_banded)
from ._decomp_more import cdf2rdf, eigvals, hessenberg, orthogonal_procrustes, polar, rq
from ._decomp_rest import (clarkson_woodruff_transform, cossin, ordqz, qr_delete, qr_insert,
                           qr_multiply, qr_update, qz, rsf2csf)
from ._linalg_tools import as_float, over_batch
from ._matfuncs_more import (coshm, cosm, expm_cond, expm_frechet, fractional_matrix_power,
                             signm, sinhm, sinm, tanhm, tanm)
from ._pivoted import ldl, matrix_balance
from . import _qr_pivoting
from ._solvers import (solve_continuous_are, solve_continuous_lyapunov, solve_discrete_are,
                       solve_discrete_lyapunov, solve_lyapunov)
from ._special_matrices import (bandwidth, circulant, companion, convolution_matrix, dft,
                                diagsvd, fiedler, fiedler_companion, hadamard, hankel, helmert,
                                hilbert, invhilbert, invpascal, ishermitian, issymmetric,
                                khatri_rao, leslie, pascal, toeplitz)
from ._subspaces import lstsq, null_space, orth, subspace_angles
from numpy.linalg import LinAlgError  # noqa: F401 - NumPy's, as SciPy's

__all__ = ["solve_triangular", "cho_factor", "cho_solve", "lu_factor", "lu_solve", "lu",
           "expm", "sqrtm", "solve_sylvester", "block_diag", "solve", "inv", "det",
           "cholesky", "eigh", "eigvalsh", "svd", "svdvals", "qr", "pinv", "norm",
           "eig", "schur", "pinvh", "logm", "funm", "LinAlgError"]
__all__ += ["toeplitz", "circulant", "hankel", "hadamard", "leslie", "companion", "helmert",
            "hilbert", "invhilbert", "pascal", "invpascal", "dft", "fiedler",
            "fiedler_companion", "convolution_matrix", "khatri_rao", "diagsvd"]
__all__ += ["cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm", "signm",
            "fractional_matrix_power", "expm_frechet", "expm_cond"]
__all__ += ["eigvals", "polar", "orthogonal_procrustes", "rq", "hessenberg", "cdf2rdf"]
__all__ += ["orth", "null_space", "lstsq", "subspace_angles"]
__all__ += ["solve_continuous_lyapunov", "solve_lyapunov", "solve_discrete_lyapunov",
            "solve_continuous_are", "solve_discrete_are"]
__all__ += ["ldl", "matrix_balance", "bandwidth", "issymmetric", "ishermitian"]
__all__ += ["solve_banded", "solveh_banded", "cholesky_banded", "cho_solve_banded",
            "eig_banded", "eigvals_banded", "eigh_tridiagonal", "eigvalsh_tridiagonal",
            "solve_toeplitz", "matmul_toeplitz", "solve_circulant"]
__all__ += ["qr_multiply", "clarkson_woodruff_transform", "qz", "ordqz", "cossin", "rsf2csf",
            "qr_update", "qr_insert", "qr_delete", "LinAlgWarning"]


class LinAlgWarning(RuntimeWarning):
    """The warning of an ill-conditioned linear algebra problem, as
    ``scipy.linalg.LinAlgWarning`` (funcgrad's own class: importing funcgrad loads no SciPy)."""



def block_diag(*arrs: ArrayLike) -> Array:
    """The block-diagonal matrix of the given blocks (``scipy.linalg.block_diag``): 0-d
    and 1-d inputs are 1 x 1 and 1 x n blocks, and dimensions before the last two are
    batch dimensions, broadcast against each other (SciPy 1.17); differentiable in
    every block.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.block_diag(np.array([[1.0, 2.0]]), 3.0)
    array([[1., 2., 0.],
           [0., 0., 3.]])
    """
    if not arrs:
        return fnp.zeros((1, 0))
    blocks = []
    for x in arrs:
        x = asarray(x)
        blocks.append(fnp.reshape(x, (1,) * (2 - x.ndim) + x.shape) if x.ndim < 2 else x)
    batch = broadcast_shapes(*[b.shape[:-2] for b in blocks])
    dtype = np.result_type(*[b.dtype for b in blocks])
    cols = sum(b.shape[-1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        r, c = b.shape[-2:]
        b = fnp.broadcast_to(fnp.astype(b, dtype), batch + (r, c))
        rows.append(fnp.concatenate([fnp.zeros(batch + (r, left), dtype), b,
                                     fnp.zeros(batch + (r, cols - left - c), dtype)], axis=-1))
        left += c
    return fnp.concatenate(rows, axis=-2)


_ASSUME = (None, "gen", "general", "sym", "symmetric", "her", "hermitian", "pos",
           "positive definite", "diagonal", "tridiagonal", "banded", "upper triangular",
           "lower triangular")


def solve(a: ArrayLike, b: ArrayLike, lower: bool = False, overwrite_a: bool = False,
          overwrite_b: bool = False, check_finite: bool = True, assume_a: Optional[str] = None,
          transposed: bool = False) -> Array:
    """``x`` with ``a @ x == b`` (``scipy.linalg.solve``; ``transposed``: ``a.T @ x ==
    b``).  ``assume_a`` 'sym'/'her'/'pos' read only the ``lower`` (default upper)
    triangle, 'diagonal'/'tridiagonal' only that band, 'upper triangular'/'lower
    triangular' solve triangularly, as SciPy.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([1.0, 1.0]))
    array([0.5 , 0.25])
    """
    a, b = _referenced(a, assume_a, lower, "solve"), as_float(b)
    if assume_a in ("upper triangular", "lower triangular"):
        return solve_triangular(a, b, trans=1 if transposed else 0,
                                lower=assume_a.startswith("lower"))
    if transposed:
        a = fnp.swapaxes(a, -1, -2)
    return _nla.solve(a, b)


def _referenced(a, assume_a, lower, name):
    """``a`` as SciPy's solver for ``assume_a`` reads it: one triangle mirrored for
    'sym'/'her'/'pos', only the band for 'diagonal'/'tridiagonal', only the triangle for
    the triangular kinds; entries it never reads get no derivative."""
    if assume_a not in _ASSUME:
        raise ValueError(f"{name}: assume_a must be one of {_ASSUME}, got {assume_a!r}")
    a = as_float(a)
    if assume_a in ("diagonal", "tridiagonal"):
        width = 0 if assume_a == "diagonal" else 1
        return fnp.triu(fnp.tril(a, width), -width)
    if assume_a in ("upper triangular", "lower triangular"):
        return fnp.tril(a) if assume_a.startswith("lower") else fnp.triu(a)
    if assume_a in ("sym", "symmetric", "her", "hermitian", "pos", "positive definite"):
        tri = fnp.tril(a) if lower else fnp.triu(a)
        strict = fnp.tril(a, -1) if lower else fnp.triu(a, 1)
        other = fnp.swapaxes(strict, -1, -2)
        if assume_a in ("her", "hermitian", "pos", "positive definite"):
            other = fnp.conj(other)
            if np.dtype(a.dtype).kind == "c":  # (LAPACK's Hermitian solvers read the
                # diagonal's real part only: its imaginary part changes nothing)
                tri = tri - 1j * (fnp.imag(a) * np.eye(a.shape[-1]))
        return tri + other
    return a


def inv(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True, *,
        assume_a: Optional[str] = None, lower: bool = False) -> Array:
    """Inverse of a square matrix, or of a stack of them (``scipy.linalg.inv``).
    ``assume_a`` reads ``a`` as :func:`solve` does: 'sym'/'her'/'pos' only the ``lower``
    (default upper) triangle, 'diagonal' only the diagonal, 'upper triangular'/'lower
    triangular' only that triangle.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.inv(np.array([[2.0, 0.0], [0.0, 4.0]]))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    >>> fsl.inv(np.array([[2.0, 9.0], [1.0, 4.0]]), assume_a="sym", lower=True)
    array([[ 0.57142857, -0.14285714],
           [-0.14285714,  0.28571429]])
    """
    return _nla.inv(_referenced(a, assume_a, lower, "inv"))


def det(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """Determinant (``scipy.linalg.det``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> round(float(fsl.det(np.array([[2.0, 1.0], [1.0, 4.0]]))), 12)
    7.0
    """
    return _nla.det(a)


def cholesky(a: ArrayLike, lower: bool = False, overwrite_a: bool = False,
             check_finite: bool = True) -> Array:
    """Cholesky factor of a Hermitian positive-definite matrix: *upper* ``U`` with ``a ==
    U^H @ U`` by default, as SciPy (NumPy's default is lower); ``lower=True``: ``L``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.cholesky(np.array([[4.0, 2.0], [2.0, 2.0]]))
    array([[2., 1.],
           [0., 1.]])

    As SciPy's, only the chosen triangle of ``a`` is read (the upper one by default), and
    of the diagonal only its real part; the derivative is SciPy's too: the other
    triangle's entries get an exact zero.
    """
    return _nla.cholesky(a, upper=not lower)


@overload
def eigh(a: ArrayLike, b: Optional[ArrayLike] = ..., *, lower: bool = ...,
         eigvals_only: Literal[False] = ..., overwrite_a: bool = ..., overwrite_b: bool = ...,
         type: int = ..., check_finite: bool = ...,  # noqa: A002
         subset_by_index: Optional[Sequence[int]] = ...,
         subset_by_value: Optional[Sequence[float]] = ..., driver: Optional[str] = ...
         ) -> tuple[Array, Array]: ...
@overload
def eigh(a: ArrayLike, b: Optional[ArrayLike] = ..., *, lower: bool = ...,
         eigvals_only: Literal[True], overwrite_a: bool = ..., overwrite_b: bool = ...,
         type: int = ..., check_finite: bool = ...,  # noqa: A002
         subset_by_index: Optional[Sequence[int]] = ...,
         subset_by_value: Optional[Sequence[float]] = ..., driver: Optional[str] = ...
         ) -> Array: ...


def eigh(a: ArrayLike, b: Optional[ArrayLike] = None, *, lower: bool = True,
         eigvals_only: bool = False, overwrite_a: bool = False, overwrite_b: bool = False,
         type: int = 1, check_finite: bool = True,  # noqa: A002
         subset_by_index: Optional[Sequence[int]] = None,
         subset_by_value: Optional[Sequence[float]] = None, driver: Optional[str] = None
         ) -> Union[Array, tuple[Array, Array]]:
    """Eigenvalues (ascending) and eigenvectors of a Hermitian ``a`` read from its
    ``lower`` (default) triangle (``scipy.linalg.eigh``); with ``b`` (positive definite)
    the generalized problem ``a v = w b v`` (``type=1``), eigenvectors normalized to ``v^H
    b v = 1`` by the Cholesky reduction; ``type=2`` is ``a b v = w v`` and ``type=3``
    ``b a v = w v`` (normalized as SciPy's: ``v^H b v = 1``, and ``v^H b^-1 v = 1`` for
    type 3).  ``subset_by_index`` (a pair ``(lo, hi)``, inclusive) or ``subset_by_value``
    (a pair: the eigenvalues in ``(lo, hi]``) selects eigenvalues; the selection by value
    reads the eigenvalues, so under ``vmap``/``jit`` it raises (select afterwards there).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.eigh(np.array([[2.0, 0.0], [0.0, 1.0]]), eigvals_only=True)
    array([1., 2.])
    >>> fsl.eigvalsh(np.diag([1.0, 2.0, 3.0]), subset_by_value=(1.0, 3.0))
    array([2., 3.])
    """
    if type not in (1, 2, 3):
        raise ValueError(f"eigh: type must be 1, 2 or 3 (SciPy's), got {type!r}")
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError("eigh: give subset_by_index or subset_by_value, not both")
    uplo = "L" if lower else "U"
    a = as_float(a)
    if b is None:
        w, v = _nla.eigh(a, UPLO=uplo)
    else:
        b = as_float(b)
        # (b's same triangle as a's, as SciPy reads both: Cholesky alone would read b's
        # lower one whatever ``lower`` says, and spread its derivative over both)
        low = _nla.cholesky(_herm(b, lower))
        if type == 1:  # L^-1 A L^-H y = w y, v = L^-H y
            y = solve_triangular(low, _herm(a, lower), lower=True)  # L^-1 A
            c = solve_triangular(low, fnp.conj(fnp.swapaxes(y, -1, -2)), lower=True)
        else:  # types 2 and 3: L^H A L y = w y, v = L^-H y (2) or L y (3)
            c = fnp.conj(fnp.swapaxes(low, -1, -2)) @ _herm(a, lower) @ low
        w, v = _nla.eigh(c, UPLO="L")
        v = low @ v if type == 3 else solve_triangular(low, v, trans=2, lower=True)
    if subset_by_value is not None:
        subset_by_index = _indices_by_value(w, subset_by_value)
    if subset_by_index is not None:
        lo, hi = subset_by_index
        w, v = w[..., lo:hi + 1], v[..., lo:hi + 1]
    return w if eigvals_only else (w, v)


def _indices_by_value(w, bounds):
    """The ``(first, last)`` indices of the ascending eigenvalues in ``(lo, hi]``, as
    SciPy's ``subset_by_value`` (the same for every matrix of a batch)."""
    lo, hi = bounds
    values = concrete_values(w, "eigh(subset_by_value=...)",
                             "Select the eigenvalues afterwards with a mask, or use "
                             "subset_by_index.")
    inside = (values > lo) & (values <= hi)
    counts = inside.sum(axis=-1)
    firsts = np.argmax(inside, axis=-1)
    if np.ndim(counts) and (np.any(counts != counts.flat[0])
                            or np.any(firsts != firsts.flat[0])):
        raise ValueError("eigh(subset_by_value=...): the matrices of the batch have "
                         "different eigenvalues in the interval; select per matrix")
    count, first = int(np.ravel(counts)[0]), int(np.ravel(firsts)[0])
    return (first, first + count - 1) if count else (0, -1)


def _herm(a, lower):
    strict = fnp.tril(a, -1) if lower else fnp.triu(a, 1)
    diag = fnp.real(fnp.diagonal(a, axis1=-2, axis2=-1))
    eye = np.eye(a.shape[-1])
    return strict + fnp.conj(fnp.swapaxes(strict, -1, -2)) + fnp.astype(
        diag[..., None, :] * eye, a.dtype)


def eigvalsh(a: ArrayLike, b: Optional[ArrayLike] = None, *, lower: bool = True,
             overwrite_a: bool = False, overwrite_b: bool = False, type: int = 1,  # noqa: A002
             check_finite: bool = True, subset_by_index: Optional[Sequence[int]] = None,
             subset_by_value: Optional[Sequence[float]] = None, driver: Optional[str] = None
             ) -> Array:
    """``eigh(..., eigvals_only=True)`` (``scipy.linalg.eigvalsh``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.eigvalsh(np.array([[2.0, 0.0], [0.0, 1.0]]))
    array([1., 2.])
    """
    return eigh(a, b, lower=lower, eigvals_only=True, type=type,
                subset_by_index=subset_by_index, subset_by_value=subset_by_value)


def svd(a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True,
        overwrite_a: bool = False, check_finite: bool = True, lapack_driver: str = "gesdd"
        ) -> Union[Array, tuple[Array, Array, Array]]:
    """``U, s, Vh`` with ``a == U @ diag(s) @ Vh`` (``scipy.linalg.svd``); ``s`` alone with
    ``compute_uv=False``.  Derivatives as :func:`funcgrad.numpy.linalg.svd`.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.svd(np.array([[3.0, 0.0], [0.0, 4.0]]), compute_uv=False)
    array([4., 3.])
    """
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f"svd: lapack_driver must be 'gesdd' or 'gesvd', got "
                         f"{lapack_driver!r}")
    out = _nla.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)
    return out if not compute_uv else tuple(out)


def svdvals(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """Singular values, descending (``scipy.linalg.svdvals``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.svdvals(np.array([[3.0, 0.0], [0.0, 4.0]]))
    array([4., 3.])
    """
    return _nla.svdvals(as_float(a))


def qr(a: ArrayLike, overwrite_a: bool = False, lwork: Optional[int] = None, mode: str = "full",
       pivoting: bool = False, check_finite: bool = True
       ) -> Union[Array, tuple[Array, ...]]:
    """``Q, R`` with ``a == Q @ R`` (``scipy.linalg.qr``): ``mode`` 'full' (default,
    square ``Q``), 'economic', 'r' (``(R,)``, a tuple as SciPy's) or 'raw' (SciPy's
    own, values only); ``pivoting=True`` appends ``P`` with ``a[:, P] == Q @ R``
    (LAPACK's column pivoting, differentiable with ``P`` held fixed, see
    :mod:`funcgrad.scipy._qr_pivoting`).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> q, r = fsl.qr(np.array([[3.0], [4.0]]))
    >>> q.shape, r.shape
    ((2, 2), (2, 1))
    """
    return _qr_pivoting.qr(a, mode=mode, pivoting=pivoting, check_finite=check_finite)


@over_batch(("a", 2))
def pinv(a: ArrayLike, *, atol: Optional[float] = None, rtol: Optional[float] = None,
         return_rank: bool = False, check_finite: bool = True
         ) -> Union[Array, tuple[Array, Array]]:
    """Moore-Penrose pseudo-inverse (``scipy.linalg.pinv``): singular values at most
    ``atol + rtol * s.max()`` count as zero (``rtol`` defaults to ``max(M, N) * eps``
    when ``atol`` is not given, else 0).  ``atol`` needs known values (not under
    ``vmap``/``jit``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.pinv(np.array([[2.0, 0.0], [0.0, 0.0]]))
    array([[0.5, 0. ],
           [0. , 0. ]])
    """
    a = as_float(a)
    m, n = a.shape[-2:]
    if rtol is None:
        rtol = max(m, n) * np.finfo(a.dtype).eps if not atol else 0.0
    if atol:
        s = concrete_values(_nla.svdvals(a), "pinv with atol", "Give rtol only.")
        rtol = rtol + atol / max(float(np.max(s)), np.finfo(float).tiny)
    out = _nla.pinv(a, rtol=rtol)
    if return_rank:
        s = _nla.svdvals(a)
        return out, fnp.sum(s > rtol * fnp.max(s, axis=-1, keepdims=True), axis=-1)
    return out


def norm(a: ArrayLike, ord: Union[None, int, float, str] = None,  # noqa: A002
         axis: Axis = None, keepdims: bool = False, check_finite: bool = True) -> Array:
    """Vector and matrix norms as ``scipy.linalg.norm`` (NumPy's ``ord`` values).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> float(fsl.norm(np.array([3.0, 4.0])))
    5.0
    """
    return _nla.norm(a, ord=ord, axis=axis, keepdims=keepdims)


# (session 24: SciPy's BLAS/LAPACK look-ups)
from . import _linalg_blas  # noqa: E402
from ._linalg_blas import (find_best_blas_type, get_blas_funcs,  # noqa: E402,F401
                           get_lapack_funcs)
__all__ += _linalg_blas.__all__

"""Structured systems of ``funcgrad.scipy.linalg``: banded (``solve_banded``,
``solveh_banded``, ``cholesky_banded``, ``cho_solve_banded``, ``eig_banded``,
``eigvals_banded``), tridiagonal (``eigh_tridiagonal``, ``eigvalsh_tridiagonal``),
Toeplitz (``solve_toeplitz``, ``matmul_toeplitz``) and circulant (``solve_circulant``).

SciPy's LAPACK band routines, Levinson recursion and FFT products save time and memory;
funcgrad's versions build the dense matrix (a gather from the band storage, so only the
entries LAPACK reads get a derivative) and use its dense, differentiable ``solve``,
``cholesky`` and ``eigh``: the same values to rounding, derivatives of every order, for
matrices of moderate size.  ``solve_circulant`` keeps SciPy's FFT formulation.
Eigenvectors get SciPy's signs (phases) where the values are known, by constant factors
that change no derivative of a function that does not depend on them.
"""
from typing import Any, Literal, Optional, Union, cast

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..numpy import linalg as _nla
from ..primitives import linalg as _la
from ..typing import Array, ArrayLike
from ._decomp import cho_solve
from ._linalg_tools import adjoint, as_float, over_batch
from ._special_matrices import toeplitz
from ._spectral import _phases

__all__ = ["solve_banded", "solveh_banded", "cholesky_banded", "cho_solve_banded",
           "eig_banded", "eigvals_banded", "eigh_tridiagonal", "eigvalsh_tridiagonal",
           "solve_toeplitz", "matmul_toeplitz", "solve_circulant"]



def _dense(ab, lower_diags, upper_diags):
    """The (n, n) matrix with ``a[i, j] = ab[upper + i - j, j]`` inside the band, 0 outside
    (LAPACK's band storage; the unused corners of ``ab`` are not read)."""
    rows, n = ab.shape
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    k = upper_diags + i - j
    inside = (k >= 0) & (k < rows) & (i - j <= lower_diags) & (j - i <= upper_diags)
    table = np.where(inside, k * n + j, rows * n)
    flat = fnp.concatenate([fnp.reshape(ab, (-1,)), fnp.zeros((1,), ab.dtype)])
    return fnp.take(flat, table)


def _band(a, ab, lower_diags, upper_diags):
    """``a``'s band in the storage of ``ab``, whose unused corners are kept (as LAPACK
    leaves them)."""
    rows, n = ab.shape
    k, j = np.arange(rows)[:, None], np.arange(n)[None, :]
    i = j + k - upper_diags
    inside = (i >= 0) & (i < n)
    flat = fnp.concatenate([fnp.reshape(a, (-1,)), fnp.reshape(ab, (-1,))])
    return fnp.take(flat, np.where(inside, np.clip(i, 0, n - 1) * n + j, n * n + k * n + j))


def _hermitian_band(ab, lower):
    """The Hermitian matrix stored in ``ab`` (``lower``: its lower band, else its upper;
    LAPACK reads the diagonal's real part)."""
    diags = ab.shape[0] - 1
    half = _dense(ab, diags, 0) if lower else _dense(ab, 0, diags)
    strict = fnp.tril(half, -1) if lower else fnp.triu(half, 1)
    diag = fnp.diagonal(half)
    if ab.dtype.kind == "c":
        diag = fnp.astype(fnp.real(diag), ab.dtype)
    return strict + adjoint(strict) + diag[:, None] * np.eye(ab.shape[1], dtype=ab.dtype)


def _check_rhs(name, ab, b):
    if b.ndim == 0 or ab.shape[-1] != b.shape[0]:
        raise ValueError(f"{name}: shapes of ab {ab.shape} and b {b.shape} are not "
                         f"compatible: b needs {ab.shape[-1]} rows")


def solve_banded(l_and_u: tuple[int, int], ab: ArrayLike, b: ArrayLike,
                 overwrite_ab: bool = False, overwrite_b: bool = False,
                 check_finite: bool = True) -> Array:
    """``x`` with ``a @ x == b`` for the banded ``a`` with ``l`` subdiagonals and ``u``
    superdiagonals stored as ``ab[u + i - j, j] == a[i, j]`` (``scipy.linalg.solve_banded``);
    differentiable in ``ab`` (its band) and ``b``; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> ab = np.array([[0.0, 1.0, 1.0], [4.0, 4.0, 4.0], [1.0, 1.0, 0.0]])  # tridiagonal
    >>> fsl.solve_banded((1, 1), ab, np.array([5.0, 6.0, 5.0]))
    array([1., 1., 1.])
    """
    lower_diags, upper_diags = l_and_u
    return _solve_banded(lower_diags, upper_diags, ab, b)


@over_batch(("ab", 2), ("b", "1|2"))
def _solve_banded(lower_diags, upper_diags, ab, b):
    ab, b = as_float(ab), as_float(b)
    _check_rhs("solve_banded", ab, b)
    if lower_diags + upper_diags + 1 != ab.shape[0]:
        raise ValueError(f"solve_banded: invalid numbers of lower and upper diagonals: "
                         f"l + u + 1 ({lower_diags + upper_diags + 1}) does not equal "
                         f"ab.shape[0] ({ab.shape[0]})")
    dtype = np.result_type(ab.dtype, b.dtype)
    if ab.shape[-1] == 1:  # (SciPy's: the diagonal is in row u)
        return fnp.astype(b / ab[upper_diags, 0], dtype)
    a = fnp.astype(_dense(ab, lower_diags, upper_diags), dtype)
    return _la.solve(a, fnp.astype(b, dtype))


@over_batch(("ab", 2), ("b", "1|2"))
def solveh_banded(ab: ArrayLike, b: ArrayLike, overwrite_ab: bool = False,
                  overwrite_b: bool = False, lower: bool = False, check_finite: bool = True
                  ) -> Array:
    """``x`` with ``a @ x == b`` for a Hermitian positive-definite banded ``a`` stored by
    its upper band (``ab[u + i - j, j] == a[i, j]``, ``i <= j``) or with ``lower=True``
    its lower band (``ab[i - j, j]``), as ``scipy.linalg.solveh_banded``: a Cholesky
    solve, differentiable in the stored band and ``b``; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> ab = np.array([[0.0, 1.0, 1.0], [4.0, 4.0, 4.0]])
    >>> fsl.solveh_banded(ab, np.array([5.0, 6.0, 5.0]))
    array([1., 1., 1.])
    """
    ab, b = as_float(ab), as_float(b)
    _check_rhs("solveh_banded", ab, b)
    dtype = np.result_type(ab.dtype, b.dtype)
    a = fnp.astype(_hermitian_band(ab, lower), dtype)
    return cho_solve((_nla.cholesky(a), True), fnp.astype(b, dtype))


@over_batch(("ab", 2))
def cholesky_banded(ab: ArrayLike, overwrite_ab: bool = False, lower: bool = False,
                    check_finite: bool = True) -> Array:
    """The Cholesky factor of a Hermitian positive-definite banded matrix, in the band
    storage it came in (``scipy.linalg.cholesky_banded``): ``U`` with ``a == U^H U`` by
    default, ``L`` with ``a == L L^H`` for ``lower=True``; differentiable; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.cholesky_banded(np.array([[0.0, 2.0], [4.0, 5.0]]))  # [[4, 2], [2, 5]]
    array([[0., 1.],
           [2., 2.]])
    """
    ab = as_float(ab)
    diags = ab.shape[0] - 1
    factor = _nla.cholesky(_hermitian_band(ab, lower), upper=not lower)
    return _band(factor, ab, diags if lower else 0, 0 if lower else diags)


def cho_solve_banded(cb_and_lower: tuple[ArrayLike, bool], b: ArrayLike,
                     overwrite_b: bool = False, check_finite: bool = True) -> Array:
    """``x`` with ``a @ x == b`` from ``cholesky_banded``'s factor ``(cb, lower)``
    (``scipy.linalg.cho_solve_banded``); differentiable in ``cb`` and ``b``; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> ab = np.array([[0.0, 2.0], [4.0, 5.0]])
    >>> fsl.cho_solve_banded((fsl.cholesky_banded(ab), False), np.array([6.0, 7.0]))
    array([1., 1.])
    """
    try:
        cb, lower = cb_and_lower
    except (TypeError, ValueError):
        raise TypeError("cho_solve_banded: the first argument must be the pair (cb, lower) "
                        "of cholesky_banded's factor") from None
    return _cho_solve_banded(cb, b, lower)


@over_batch(("cb", 2), ("b", "1|2"))
def _cho_solve_banded(cb, b, lower):
    cb, b = as_float(cb), as_float(b)
    _check_rhs("cho_solve_banded", cb, b)
    diags = cb.shape[0] - 1
    factor = _dense(cb, diags, 0) if lower else adjoint(_dense(cb, 0, diags))
    dtype = np.result_type(cb.dtype, b.dtype)
    return cho_solve((fnp.astype(factor, dtype), True), fnp.astype(b, dtype))


# --- eigenproblems ----------------------------------------------------------------------------

_SELECT = {"a": 0, "all": 0, 0: 0, "v": 1, "value": 1, 1: 1, "i": 2, "index": 2, 2: 2}


def _selection(name, select, select_range, n):
    """SciPy's ``select``: ``None`` (all), ``("v", lo, hi)`` or ``("i", first, last)``."""
    kind = _SELECT.get(select.lower() if isinstance(select, str) else select)
    if kind is None:
        raise ValueError(f"{name}: invalid argument for select: {select!r}; use 'a', 'v' or "
                         f"'i'")
    if kind == 0:
        return None
    bounds = np.asarray(select_range)
    if bounds.ndim != 1 or bounds.size != 2 or bounds[1] < bounds[0]:
        raise ValueError(f"{name}: select_range must be a 2-element array-like in "
                         f"nondecreasing order")
    if kind == 2:
        if bounds.dtype.kind not in "iu":
            raise ValueError(f"{name}: with select='i', select_range must contain integers, "
                             f"got dtype {bounds.dtype}")
        if bounds[0] < 0 or bounds[1] >= n:
            raise ValueError(f"{name}: select_range out of bounds")
        return ("i", int(bounds[0]), int(bounds[1]))
    return ("v", float(bounds[0]), float(bounds[1]))


def _eigh_selected(name, a, selection, eigvals_only, reference):
    """``eigh`` of the dense ``a``, the selected eigenpairs (LAPACK's ``(lo, hi]`` for
    values), eigenvectors with the signs of ``reference(values)`` (SciPy's) if known."""
    w, v = _nla.eigh(a)
    if selection is not None:
        if selection[0] == "i":
            keep = np.arange(selection[1], selection[2] + 1)
        else:
            known = concrete_values(w, f"{name} with select='v' (how many eigenvalues)",
                                    f"Call {name} outside vmap/jit, or select by index.")
            keep = np.flatnonzero((known > selection[1]) & (known <= selection[2]))
        w, v = w[keep], v[:, keep]
    if eigvals_only:
        return w
    if is_concrete(v) and v.shape[1]:
        _, theirs = reference(concrete_values(a, name, ""))
        v = v * _phases(concrete_values(v, name, ""), theirs)
    return w, v


@over_batch(("a_band", 2))
def eig_banded(a_band: ArrayLike, lower: bool = False, eigvals_only: bool = False,
               overwrite_a_band: bool = False, select: Union[str, int] = "a",
               select_range: Any = None, max_ev: int = 0, check_finite: bool = True
               ) -> Union[Array, tuple[Array, Array]]:
    """Eigenvalues (ascending) and eigenvectors of a Hermitian banded matrix stored by its
    upper (default) or ``lower`` band (``scipy.linalg.eig_banded``); ``select`` 'a' (all),
    'v' (eigenvalues in ``(lo, hi]``) or 'i' (indices ``lo..hi``) with ``select_range``.
    Derivatives as ``eigh``'s; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.eig_banded(np.array([[0.0, 1.0], [2.0, 2.0]]), eigvals_only=True)
    array([1., 3.])
    """
    ab = as_float(a_band)
    if ab.ndim != 2:
        raise ValueError(f"eig_banded: expected a 2-d array, got shape {ab.shape}")
    selection = _selection("eig_banded", select, select_range, ab.shape[1])

    def scipy_result(values):
        import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
        return scipy.linalg.eig_banded(concrete_values(ab, "eig_banded", ""), lower=lower,
                                       select=select, select_range=select_range)

    return _eigh_selected("eig_banded", _hermitian_band(ab, lower), selection, eigvals_only,
                          scipy_result)


def eigvals_banded(a_band: ArrayLike, lower: bool = False, overwrite_a_band: bool = False,
                   select: Union[str, int] = "a", select_range: Any = None,
                   check_finite: bool = True) -> Array:
    """The eigenvalues of a Hermitian banded matrix: ``eig_banded(..., eigvals_only=True)``
    (``scipy.linalg.eigvals_banded``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.eigvals_banded(np.array([[0.0, 1.0], [2.0, 2.0]]))
    array([1., 3.])
    """
    return cast(Array, eig_banded(a_band, lower=lower, eigvals_only=True, select=select,
                                  select_range=select_range))


@over_batch(("d", 1), ("e", 1))
def eigh_tridiagonal(d: ArrayLike, e: ArrayLike, eigvals_only: bool = False,
                     select: Union[str, int] = "a", select_range: Any = None,
                     check_finite: bool = True, tol: float = 0.0,
                     lapack_driver: str = "auto") -> Union[Array, tuple[Array, Array]]:
    """Eigenvalues and eigenvectors of the real symmetric tridiagonal matrix with diagonal
    ``d`` and off-diagonal ``e`` (``scipy.linalg.eigh_tridiagonal``; ``select`` as
    :func:`eig_banded`'s).  Derivatives as ``eigh``'s; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.eigh_tridiagonal(np.array([2.0, 2.0]), np.array([1.0]), eigvals_only=True)
    array([1., 3.])
    """
    d, e = as_float(d), as_float(e)
    for x in (d, e):
        if x.ndim != 1:
            raise ValueError(f"eigh_tridiagonal: expected 1-d arrays, got shape {x.shape}")
        if x.dtype.kind == "c":
            raise TypeError("eigh_tridiagonal: only real arrays are supported (as SciPy's)")
    if d.shape[0] != e.shape[0] + 1:
        raise ValueError(f"eigh_tridiagonal: d ({d.shape[0]}) must have one more element "
                         f"than e ({e.shape[0]})")
    drivers = ("auto", "stemr", "sterf", "stebz", "stev", "stevd")
    if lapack_driver not in drivers:
        raise ValueError(f"eigh_tridiagonal: lapack_driver must be one of {drivers}, got "
                         f"{lapack_driver!r}")
    selection = _selection("eigh_tridiagonal", select, select_range, d.shape[0])
    dtype = np.result_type(d.dtype, e.dtype)
    a = (fnp.diag(fnp.astype(d, dtype)) + fnp.diag(fnp.astype(e, dtype), 1)
         + fnp.diag(fnp.astype(e, dtype), -1))

    def scipy_result(values):
        import scipy.linalg
        return scipy.linalg.eigh_tridiagonal(
            concrete_values(d, "eigh_tridiagonal", ""),
            concrete_values(e, "eigh_tridiagonal", ""), select=select,
            select_range=select_range, lapack_driver=lapack_driver)

    return _eigh_selected("eigh_tridiagonal", a, selection, eigvals_only, scipy_result)


def eigvalsh_tridiagonal(d: ArrayLike, e: ArrayLike, select: Union[str, int] = "a",
                         select_range: Any = None, check_finite: bool = True, tol: float = 0.0,
                         lapack_driver: str = "auto") -> Array:
    """The eigenvalues of a real symmetric tridiagonal matrix: ``eigh_tridiagonal(...,
    eigvals_only=True)`` (``scipy.linalg.eigvalsh_tridiagonal``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.eigvalsh_tridiagonal(np.array([2.0, 2.0]), np.array([1.0]))
    array([1., 3.])
    """
    return cast(Array, eigh_tridiagonal(d, e, eigvals_only=True, select=select,
                                        select_range=select_range,
                                        lapack_driver=lapack_driver))


# --- Toeplitz and circulant --------------------------------------------------------------------

def _toeplitz_parts(c_or_cr):
    if isinstance(c_or_cr, tuple):
        c, r = c_or_cr
        return asarray(c), asarray(r)
    c = asarray(c_or_cr)
    return c, fnp.conj(c)


def _double(*xs):
    """SciPy's Toeplitz dtype: complex128 if any is complex, else float64."""
    dtype = np.complex128 if any(x.dtype.kind == "c" for x in xs) else np.float64
    return [fnp.astype(x, dtype) for x in xs]


def solve_toeplitz(c_or_cr: Union[ArrayLike, tuple[ArrayLike, ArrayLike]], b: ArrayLike,
                   check_finite: bool = True) -> Array:
    """``x`` with ``T @ x == b`` for the Toeplitz matrix ``T = toeplitz(c, r)``
    (``scipy.linalg.solve_toeplitz``; ``r = conj(c)`` when only ``c`` is given): a dense
    solve, differentiable in ``c``, ``r`` and ``b``; float64 or complex128, as SciPy's.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.solve_toeplitz((np.array([2.0, 1.0]), np.array([2.0, 0.0])), np.array([2.0, 3.0]))
    array([1., 1.])
    """
    c, r = _toeplitz_parts(c_or_cr)
    return _solve_toeplitz(c, r, b)


@over_batch(("c", 1), ("r", 1), ("b", "1|2"))
def _solve_toeplitz(c, r, b):
    b = asarray(b)
    if r.shape[0] != c.shape[0] or b.ndim == 0 or b.shape[0] != r.shape[0]:
        raise ValueError(f"solve_toeplitz: incompatible dimensions: c {c.shape}, r "
                         f"{r.shape}, b {b.shape}")
    c, r, b = _double(c, r, b)
    if b.size == 0:
        return np.empty(b.shape, b.dtype)
    return _la.solve(toeplitz(c, r), b)


def matmul_toeplitz(c_or_cr: Union[ArrayLike, tuple[ArrayLike, ArrayLike]], x: ArrayLike,
                    check_finite: bool = False, workers: Optional[int] = None) -> Array:
    """``toeplitz(c, r) @ x`` (``scipy.linalg.matmul_toeplitz``; ``r = conj(c)`` when only
    ``c`` is given; SciPy uses FFTs, this the dense product); differentiable in ``c``,
    ``r`` and ``x``; float64 or complex128, as SciPy's.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.matmul_toeplitz((np.array([1.0, 2.0, 3.0]), np.array([1.0, 4.0])), np.ones(2))
    array([5., 3., 5.])
    """
    c, r = _toeplitz_parts(c_or_cr)
    return _matmul_toeplitz(c, r, x)


@over_batch(("c", 1), ("r", 1), ("x", "1|2"))
def _matmul_toeplitz(c, r, x):
    x = asarray(x)
    if x.ndim == 0 or x.shape[0] != r.shape[0]:
        raise ValueError(f"matmul_toeplitz: incompatible dimensions: r {r.shape}, x "
                         f"{x.shape}")
    c, r, x = _double(c, r, x)
    return toeplitz(c, r) @ x


def solve_circulant(c: ArrayLike, b: ArrayLike, singular: Literal["raise", "lstsq"] = "raise",
                    tol: Optional[float] = None, caxis: int = -1, baxis: int = 0,
                    outaxis: int = 0) -> Array:
    """``x`` with ``circulant(c) @ x == b`` by FFTs (``scipy.linalg.solve_circulant``):
    ``x = ifft(fft(b) / fft(c))``; a (near) singular ``c`` (``|fft(c)| <= tol``) raises,
    or with ``singular='lstsq'`` gives the least-squares solution.  ``caxis``, ``baxis``,
    ``outaxis`` place the vectors in stacked inputs and output.  Differentiable in ``c``
    and ``b``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.solve_circulant(np.array([2.0, 1.0, 1.0]), np.array([1.0, 2.0, 3.0]))
    array([-0.5,  0.5,  1.5])
    """
    if singular not in ("raise", "lstsq"):
        raise ValueError(f"solve_circulant: singular must be 'raise' or 'lstsq', got "
                         f"{singular!r}")
    c, b = asarray(c), asarray(b)
    c = fnp.reshape(c, (1,)) if c.ndim == 0 else c
    b = fnp.reshape(b, (1,)) if b.ndim == 0 else b
    if c.shape[caxis] != b.shape[baxis]:
        raise ValueError(f"solve_circulant: shapes of c {c.shape} and b {b.shape} are "
                         f"incompatible")
    n = c.shape[caxis]
    fc = fnp.fft.fft(fnp.moveaxis(c, caxis, -1), axis=-1)
    size = fnp.abs(fnp.stop_gradient(fc))
    if tol is None:  # (np.linalg.matrix_rank's tolerance, as SciPy)
        tol = fnp.max(size, axis=-1, keepdims=True) * n * np.finfo(np.float64).eps
    near_zero = size <= tol
    if is_concrete(near_zero) and np.any(concrete_values(near_zero, "", "")):
        if singular == "raise":
            raise np.linalg.LinAlgError("solve_circulant: near singular circulant matrix; "
                                        "pass singular='lstsq' for the least-squares "
                                        "solution")
    fb = fnp.fft.fft(fnp.moveaxis(b, baxis, -1), axis=-1)
    if singular == "lstsq":
        q = fnp.where(near_zero, 0.0, fb / fnp.where(near_zero, 1.0, fc))
    else:
        q = fb / fc
    x = fnp.fft.ifft(q, axis=-1)
    if c.dtype.kind != "c" and b.dtype.kind != "c":
        x = fnp.real(x)
    return fnp.moveaxis(x, -1, outaxis) if outaxis != -1 else x

"""``scipy.sparse.linalg`` on sparse operands without densifying: products for the
Krylov solvers and ``LinearOperator``, and ``spsolve``'s sparse direct solve.

``spsolve`` factors with SciPy's SuperLU (called on the concrete values, also under
``jit``/``vmap``, through ``fg.pure_callback``) inside ``fg.lax.custom_linear_solve``: the
derivative is that of ``A^-1 b``, the tangent another solve and the cotangent of ``b`` the
solve with ``A^T``, and the cotangent of ``A.data`` is ``-xbar_i x_j`` read at the stored
positions only (the transpose of the sparse product) -- nothing dense of size ``n^2``."""
import warnings
from typing import Any, Tuple

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...typing import Array, ArrayLike
from ...core import known_value
from ._arrays_base import segment_sum
from ._arrays_core import coerce
from ._arrays_construct import matrix_power_sparse
from ._arrays_formats import ARRAYS

__all__ = ["as_sparse", "sparse_spsolve", "spsolve_triangular", "matrix_power",
           "is_sptriangular", "spbandwidth", "MatrixRankWarning", "use_solver",
           "sparse_norm", "sparse_onenormest", "sparse_expm_multiply", "ArpackError",
           "ArpackNoConvergence"]


class MatrixRankWarning(UserWarning):
    """``scipy.sparse.linalg.MatrixRankWarning``: the matrix is singular (funcgrad's own
    class: importing funcgrad loads no SciPy)."""


def as_sparse(A):
    """``A`` as funcgrad's sparse array if it is a sparse one (funcgrad's or SciPy's), else
    None."""
    return coerce(A)


def _square(name, a):
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"{name}: the matrix must be square, got shape {a.shape}")


def _host_solver(a, dtype, triangular=None, unit_diagonal=False):
    """The callback ``(data, rhs, transposed) -> x`` of a SciPy sparse solve."""
    row, col, shape = a._row, a._col, a.shape

    def host(data, rhs, transposed):
        import scipy.sparse as sp
        import scipy.sparse.linalg as sl
        matrix = sp.csr_array((np.asarray(data), (row, col)), shape=shape)
        if transposed:
            matrix = matrix.T
        rhs = np.asarray(rhs)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if triangular is None:
                x = sl.spsolve(matrix.tocsc(), rhs)
            else:
                lower = triangular != transposed
                x = sl.spsolve_triangular(matrix.tocsr(), rhs, lower=lower,
                                          unit_diagonal=unit_diagonal)
        for w in caught:
            if type(w.message).__name__ == "MatrixRankWarning":
                warnings.warn(str(w.message), MatrixRankWarning, stacklevel=4)
        return np.asarray(x).astype(dtype, copy=False).reshape(rhs.shape)
    return host


def _solve(name, a, b, host):
    from ...callback import pure_callback
    from ...lax import custom_linear_solve
    _square(name, a)
    b = asarray(b)
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError(f"{name}: b must have shape ({a.shape[0]},) or ({a.shape[0]}, K) "
                         f"for a matrix of shape {a.shape}, got {tuple(b.shape)}")
    dtype = np.result_type(a.dtype, b.dtype, np.float32)
    data, b = fnp.astype(a.data, dtype), fnp.astype(b, dtype)
    a = a._like(data)

    def solver(transposed):
        def solve(_, rhs):
            return pure_callback(host, rhs, data, rhs, transposed, vmap_method="sequential")
        return solve
    return custom_linear_solve(lambda v: a @ v, b, solver(False), solver(True))


def sparse_spsolve(A: Any, b: ArrayLike) -> Any:
    """``spsolve`` for a sparse ``A`` (see the module docstring); a sparse ``b`` gives a
    sparse result, as SciPy's."""
    a = as_sparse(A).tocsr()
    sparse_b = as_sparse(b)
    rhs = sparse_b.toarray() if sparse_b is not None else asarray(b)
    dtype = np.result_type(a.dtype, rhs.dtype, np.float32)
    x = _solve("spsolve", a, rhs, _host_solver(a, dtype))
    if sparse_b is not None:
        return sparse_b._kind("csc")(x)
    return x


def spsolve_triangular(A: Any, b: ArrayLike, lower: bool = True, overwrite_A: bool = False,
                       overwrite_b: bool = False, unit_diagonal: bool = False) -> Array:
    """``x`` with ``A x = b`` for the triangular ``A``
    (``scipy.sparse.linalg.spsolve_triangular``): only the ``lower`` (or upper) triangle is read, and with
    ``unit_diagonal`` not the diagonal either.  A sparse direct solve (SciPy's), with
    derivatives in ``A.data`` (at the read entries) and ``b`` as :func:`spsolve`'s.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csr_array(np.array([[2.0, 0.0], [1.0, 1.0]]))
    >>> fsparse.linalg.spsolve_triangular(A, np.array([2.0, 3.0]))
    array([1., 2.])
    """
    a = as_sparse(A)
    if a is None:
        a = _spbase_from_dense(A)
    a = a.tocsr()
    rhs = asarray(b)
    if unit_diagonal:  # (SciPy ignores the stored diagonal then: so must the derivative)
        off = np.nonzero(a._row != a._col)[0]
        diag = np.arange(a.shape[0])
        a = a._kind("coo")._make(fnp.concatenate([fnp.take(a.data, off),
                                                  fnp.ones(a.shape[0], a.dtype)]),
                                 np.concatenate([a._row[off], diag]),
                                 np.concatenate([a._col[off], diag]), a.shape).tocsr()
    keep = np.nonzero(a._col <= a._row if lower else a._col >= a._row)[0]
    a = a._kind("coo")._make(fnp.take(a.data, keep), a._row[keep], a._col[keep],
                             a.shape).tocsr()
    dtype = np.result_type(a.dtype, rhs.dtype, np.float32)
    return _solve("spsolve_triangular", a, rhs,
                  _host_solver(a, dtype, triangular=bool(lower), unit_diagonal=unit_diagonal))


def _spbase_from_dense(A):
    return ARRAYS["csr"](A)


def matrix_power(A: Any, power: int) -> Any:
    """``A`` raised to the integer ``power`` by repeated sparse products
    (``scipy.sparse.linalg.matrix_power``), differentiable in ``A.data``.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csr_array(np.array([[1.0, 1.0], [0.0, 1.0]]))
    >>> fsparse.linalg.matrix_power(A, 3).toarray()
    array([[1., 3.],
           [0., 1.]])
    """
    return matrix_power_sparse(A, power)


def is_sptriangular(A: Any) -> Tuple[bool, bool]:
    """``(lower, upper)``: are all stored entries on or below (above) the diagonal?
    (``scipy.sparse.linalg.is_sptriangular``; the structure, explicit zeros counted.)

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.linalg.is_sptriangular(fsparse.csr_array(np.array([[1.0, 0.0], [2.0, 3.0]])))
    (True, False)
    """
    a = _checked("is_sptriangular", A)
    return bool(np.all(a._col <= a._row)), bool(np.all(a._col >= a._row))


def spbandwidth(A: Any) -> Tuple[int, int]:
    """``(below, above)``: how far the stored entries reach below and above the diagonal
    (``scipy.sparse.linalg.spbandwidth``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.linalg.spbandwidth(fsparse.csr_array(np.array([[1.0, 0.0, 4.0], [2.0, 3.0, 0.0]])))
    (1, 2)
    """
    a = _checked("spbandwidth", A)
    if not a.nnz:
        return 0, 0
    return max(0, int(np.max(a._row - a._col))), max(0, int(np.max(a._col - a._row)))


def _checked(name, A):
    a = as_sparse(A)
    if a is None:
        raise TypeError(f"{name}: expected a sparse array or matrix, got {type(A).__name__}; "
                        f"convert with funcgrad.scipy.sparse.csr_array(A)")
    return a


def use_solver(**kwargs: Any) -> None:
    """SciPy's choice of direct solver (``useUmfpack``, ``assumeSortedIndices``); funcgrad
    always uses SciPy's SuperLU, so this checks the keywords and changes nothing.

    >>> import funcgrad.scipy.sparse.linalg as fsl
    >>> fsl.use_solver(useUmfpack=False)
    """
    unknown = set(kwargs) - {"useUmfpack", "assumeSortedIndices"}
    if unknown:
        raise TypeError(f"use_solver: unexpected keywords {sorted(unknown)} (SciPy takes "
                        f"useUmfpack and assumeSortedIndices)")


# --- norms, without densifying -------------------------------------------------------------

def sparse_norm(a, ord, axis):  # noqa: A002
    """``scipy.sparse.linalg.norm`` of a sparse ``a`` from its summed stored values; None
    for an ``ord``/``axis`` done densely instead."""
    a = a._summed()
    magnitude = fnp.abs(a.data)
    if axis is None:
        if ord in (None, "fro", "f"):
            return fnp.sqrt(fnp.sum(magnitude * magnitude))
        if ord in (1, -1, np.inf, -np.inf):
            by_column = ord in (1, -1)
            sums = segment_sum(magnitude, a._col if by_column else a._row,
                               a.shape[1 if by_column else 0])
            return fnp.max(sums) if ord > 0 else fnp.min(sums)
        return None
    if axis not in (0, 1, -1, -2):
        return None
    along_rows = axis % 2 == 1  # (one norm per row)
    segments, count = (a._row, a.shape[0]) if along_rows else (a._col, a.shape[1])
    if ord in (None, 2):
        return fnp.sqrt(segment_sum(magnitude * magnitude, segments, count))
    if ord == 1:
        return segment_sum(magnitude, segments, count)
    if ord == np.inf:
        return fnp.at(fnp.zeros(count, magnitude.dtype))[segments].max(magnitude)
    if isinstance(ord, (int, float)) and ord > 0:
        return segment_sum(magnitude ** ord, segments, count) ** (1.0 / ord)
    return None


def sparse_onenormest(a, compute_v, compute_w):
    """The exact 1-norm of a sparse ``a`` (its largest column absolute sum)."""
    a = a._summed()
    sums = segment_sum(fnp.abs(a.data), a._col, a.shape[1])
    j = fnp.argmax(sums)
    est = sums[j]
    v = fnp.astype(fnp.arange(a.shape[1]) == j, fnp.real(sums).dtype)
    out = (est,) + ((v,) if compute_v else ()) + ((a @ v,) if compute_w else ())
    return out if len(out) > 1 else est


# --- expm_multiply by sparse products ----------------------------------------------------------

def _concrete_or_none(x):
    value = known_value(x)
    return None if value is None else np.asarray(value)


def sparse_expm_multiply(a, b, t=1.0):
    """``expm(t a) @ b`` for a sparse ``a`` by its products: the Taylor series of
    ``exp(t (a - mu I) / s)`` applied ``s`` times, ``mu`` the mean of the diagonal, ``s``
    the 1-norm of ``t (a - mu I)`` rounded up, each series stopped once two terms fall
    below the dtype's resolution (Al-Mohy and Higham's test, as SciPy's); None when the
    values are abstract (under jit), for the dense route."""
    data, b_value, t_value = values_of_or_none(a), _concrete_or_none(b), _concrete_or_none(t)
    if data is None or b_value is None or t_value is None:
        return None
    n = a.shape[0]
    mu = fnp.sum(a.diagonal()) / n if n else 0.0
    mu_value = np.sum(data[a._row == a._col]) / n if n else 0.0
    # the 1-norm of t (a - mu I), from the concrete values (duplicates summed)
    diag = np.arange(n, dtype=np.int64)
    keys, slots = np.unique(np.concatenate([a._row.astype(np.int64) * n + a._col,
                                            diag * n + diag]), return_inverse=True)
    summed = np.zeros(len(keys), np.result_type(data.dtype, np.float64))
    np.add.at(summed, slots, np.concatenate([data, np.full(n, -mu_value)]))
    column_sums = np.bincount(keys % n if n else keys, np.abs(summed), minlength=n)
    norm = float(column_sums.max()) * float(np.max(np.abs(t_value))) if n else 0.0
    s = max(1, int(np.ceil(norm)))
    tol = 2.0 ** -24 if np.result_type(a.dtype, b.dtype) in (np.float32, np.complex64) else \
        2.0 ** -53

    def product(v):
        return t * (a @ v) - (t * mu) * v

    def inf_norm(v):
        value = _concrete_or_none(v)
        return float(np.max(np.abs(value))) if value is not None and value.size else 0.0

    scale = fnp.exp(t * mu / s)
    out = b
    for _ in range(s):
        series, term = out, out
        previous = inf_norm(term)
        for k in range(1, 200):
            term = product(term) / (s * k)
            current = inf_norm(term)
            series = series + term
            if previous + current <= tol * inf_norm(series):
                break
            previous = current
        out = scale * series
    return out


def values_of_or_none(a):
    return _concrete_or_none(a.data)


class ArpackError(RuntimeError):
    """``scipy.sparse.linalg.ArpackError`` (funcgrad's own class; funcgrad's ``eigsh``,
    ``eigs`` and ``svds`` compute their pairs exactly and do not raise it)."""


class ArpackNoConvergence(ArpackError):
    """``scipy.sparse.linalg.ArpackNoConvergence``: ``eigenvalues`` and ``eigenvectors``
    hold what converged."""

    def __init__(self, msg: str, eigenvalues: Any, eigenvectors: Any) -> None:
        super().__init__(msg)
        self.eigenvalues, self.eigenvectors = eigenvalues, eigenvectors

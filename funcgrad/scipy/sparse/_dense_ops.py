"""The rest of ``scipy.sparse.linalg`` on dense matrices: ``expm_multiply``, ``expm``,
``inv``, ``norm``, ``spsolve``, ``factorized``, ``splu``, ``onenormest``, ``eigsh``,
``eigs`` and ``svds``.

Each works on the dense matrix: an array as given, a sparse array (funcgrad's or
SciPy's) densified (``spsolve`` excepted: see :mod:`._arrays_linalg`), a ``LinearOperator`` as its products with the identity
(``n`` products).  Each is then the dense ``funcgrad.scipy.linalg`` function, with its
derivatives; what SciPy estimates or iterates to (ARPACK's ``k`` eigenpairs, the 1-norm
estimate) is here computed exactly, which is what SciPy converges to.
"""
import warnings
from typing import Any, Callable, Optional, Union

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...typing import Array, ArrayLike
from .. import linalg as _sla
from ._arrays_eigsh import sparse_eigsh, sparse_svds
from ._arrays_linalg import (as_sparse, sparse_expm_multiply, sparse_norm,
                             sparse_onenormest, sparse_spsolve)
from ._krylov import densified
from ._linop import LinearOperator, aslinearoperator

__all__ = ["expm_multiply", "expm", "inv", "norm", "spsolve", "factorized", "splu",
           "SuperLU", "onenormest", "eigsh", "eigs", "svds"]


def _square(name, a):
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"{name}: expected a square matrix, got shape {a.shape}")


def _dense(name, A, square=True):
    """``A``'s dense matrix (float or complex)."""
    if isinstance(A, LinearOperator) or (hasattr(A, "matvec") and hasattr(A, "shape")):
        op = aslinearoperator(A)
        matrix = op.matmat(fnp.eye(op.shape[1], dtype=op.dtype))
    else:
        matrix = asarray(densified(A))
    if matrix.ndim != 2 or (square and matrix.shape[0] != matrix.shape[1]):
        raise ValueError(f"{name}: expected a {'square ' if square else ''}matrix (2-d array, "
                         f"SciPy sparse matrix or LinearOperator), got shape "
                         f"{tuple(matrix.shape)}")
    if matrix.dtype.kind not in "fc":
        matrix = fnp.astype(matrix, np.float64)
    return matrix


def expm(A: Any) -> Any:
    """The matrix exponential of ``A`` (``scipy.sparse.linalg.expm``); differentiable.  A
    dense ``A`` gives a dense result; a sparse one (funcgrad's or SciPy's) a sparse CSR
    (CSC for CSC) result, SciPy's values, never densified: the derivative in ``A.data``
    is the Frechet derivative by sparse scaling and squaring, refused with a clear error
    where the pattern of ``exp(A)`` is too full for that (:mod:`._sparserest_expm`).

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> fsl.expm(np.array([[0.0, 1.0], [0.0, 0.0]]))
    array([[1., 1.],
           [0., 1.]])
    >>> import funcgrad.scipy.sparse as fsparse
    >>> fsl.expm(fsparse.csc_array(np.array([[0.0, 1.0], [0.0, 0.0]]))).data
    array([1., 1., 1.])
    """
    sparse = as_sparse(A)
    if sparse is not None:
        from ._sparserest_expm import sparse_expm
        _square("expm", sparse)
        return sparse_expm(sparse)
    return _sla.expm(_dense("expm", A))


def expm_multiply(A: Any, B: ArrayLike, start: Any = None, stop: Any = None,
                  num: Optional[int] = None, endpoint: Optional[bool] = None,
                  traceA: Any = None) -> Array:
    """``expm(t A) @ B`` (``scipy.sparse.linalg.expm_multiply``): at ``t = 1``, or, given
    any of ``start``, ``stop``, ``num``, ``endpoint``, at each of ``np.linspace(start,
    stop, num, endpoint)`` (defaults 0, 1, 50, True), stacked on a new first axis.
    Computed as the dense ``expm(t A) @ B``, or, for a sparse ``A`` (outside ``jit``), by
    products with it (a Taylor series with scaling, to the dtype's resolution);
    differentiable in ``A``, ``B``, ``start`` and ``stop``.  ``traceA`` is accepted and
    not needed.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse.linalg as fsl
    >>> a = np.array([[0.0, 1.0], [0.0, 0.0]])
    >>> fsl.expm_multiply(a, np.ones(2), start=0.0, stop=1.0, num=3)
    array([[1. , 1. ],
           [1.5, 1. ],
           [2. , 1. ]])
    >>> float(fg.grad(lambda s: fsl.expm_multiply(a * s, np.ones(2))[0])(1.0))
    1.0
    """
    sparse = as_sparse(A)
    if sparse is not None:
        result = _sparse_expm_multiply(sparse, B, start, stop, num, endpoint)
        if result is not None:
            return result
    a = _dense("expm_multiply", A)
    b = asarray(densified(B))
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError(f"expm_multiply: B must have {a.shape[0]} rows (A has shape "
                         f"{tuple(a.shape)}), got shape {tuple(b.shape)}")
    if all(arg is None for arg in (start, stop, num, endpoint)):
        return _sla.expm(a) @ b
    start = 0.0 if start is None else start
    stop = 1.0 if stop is None else stop
    num = 50 if num is None else int(num)
    endpoint = True if endpoint is None else bool(endpoint)
    steps = np.arange(num) / ((num - 1) if endpoint else num) if num > 1 else np.zeros(num)
    return fnp.stack([_sla.expm((start + float(s) * (stop - start)) * a) @ b
                      for s in steps]) if num else fnp.zeros((0,) + tuple(b.shape), b.dtype)


def inv(A: Any) -> Array:
    """The inverse of ``A`` (``scipy.sparse.linalg.inv``): dense for a dense ``A``, and for
    a sparse one, as SciPy's, ``spsolve(A, I)`` as a CSC array; differentiable.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> fsl.inv(np.array([[2.0, 0.0], [0.0, 4.0]]))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    sparse = as_sparse(A)
    if sparse is not None:  # (SciPy's: spsolve(A, I), a sparse result)
        _square("inv", sparse)
        return sparse_spsolve(sparse, sparse._kind("csc")._make(
            fnp.ones(sparse.shape[0], sparse.dtype), np.arange(sparse.shape[0]),
            np.arange(sparse.shape[0]), sparse.shape))
    return _sla.inv(_dense("inv", A))


def _sparse_expm_multiply(a, B, start, stop, num, endpoint):
    """``expm_multiply`` by products with the sparse ``a`` (None under jit: see
    :func:`._arrays_linalg.sparse_expm_multiply`)."""
    _square("expm_multiply", a)
    b = asarray(densified(B))
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise ValueError(f"expm_multiply: B must have {a.shape[0]} rows (A has shape "
                         f"{a.shape}), got shape {tuple(b.shape)}")
    if all(arg is None for arg in (start, stop, num, endpoint)):
        return sparse_expm_multiply(a, b)
    start = 0.0 if start is None else start
    stop = 1.0 if stop is None else stop
    num = 50 if num is None else int(num)
    endpoint = True if endpoint is None else bool(endpoint)
    steps = np.arange(num) / ((num - 1) if endpoint else num) if num > 1 else np.zeros(num)
    results = [sparse_expm_multiply(a, b, start + float(s) * (stop - start)) for s in steps]
    if any(r is None for r in results):
        return None
    return fnp.stack(results) if num else fnp.zeros((0,) + tuple(b.shape), b.dtype)


def norm(x: Any, ord: Union[None, int, float, str] = None,  # noqa: A002
         axis: Any = None) -> Array:
    """The matrix or vector norm of ``x`` (``scipy.sparse.linalg.norm``): Frobenius by
    default, ``ord`` in ``'fro', inf, -inf, 1, -1`` for the matrix, any vector norm along
    an ``axis``; differentiable.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> float(fsl.norm(np.array([[3.0, 0.0], [0.0, 4.0]]))), float(fsl.norm(np.eye(2), 1))
    (5.0, 1.0)
    """
    sparse = as_sparse(x)
    if sparse is not None:
        if axis is None and ord in (2, -2):
            raise NotImplementedError("norm: the spectral norm (ord=2 or -2) is not SciPy "
                                      "sparse's; use svds")
        result = sparse_norm(sparse, ord, axis)
        if result is not None:
            return result
    matrix = _dense("norm", x, square=False)
    if axis is None and ord in (2, -2):
        raise NotImplementedError("norm: the spectral norm (ord=2 or -2) is not SciPy "
                                  "sparse's; use funcgrad.scipy.linalg.norm, or svds")
    return fnp.linalg.norm(matrix, ord=ord, axis=axis)


def spsolve(A: Any, b: ArrayLike, permc_spec: Optional[str] = None,
            use_umfpack: bool = True) -> Array:
    """``x`` with ``A x = b`` (``scipy.sparse.linalg.spsolve``), ``b`` a vector or a matrix
    of right-hand sides, by dense LU for a dense ``A``; differentiable in ``A`` and ``b``.  ``permc_spec``
    and ``use_umfpack`` choose SciPy's sparse orderings and change nothing here.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> fsl.spsolve(np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([3.0, 3.0]))
    array([1., 1.])

    A sparse ``A`` (funcgrad's or SciPy's) is solved sparse, never densified, its derivative
    reaching ``A.data`` at the stored entries (:mod:`._arrays_linalg`).
    """
    if as_sparse(A) is not None:
        return sparse_spsolve(A, b)
    return _sla.solve(_dense("spsolve", A), asarray(densified(b)))


def factorized(A: Any) -> Callable[[ArrayLike], Array]:
    """A function ``b -> A^-1 b`` that reuses one LU factorization of a dense ``A``
    (``scipy.sparse.linalg.factorized``); for a sparse ``A``, :func:`spsolve`'s sparse
    solve on each call.  Differentiable in ``A`` and ``b``.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> solve = fsl.factorized(np.array([[2.0, 1.0], [0.0, 3.0]]))
    >>> solve(np.array([3.0, 3.0]))
    array([1., 1.])
    """
    sparse = as_sparse(A)
    if sparse is not None:  # (a sparse solve per call: SciPy's SuperLU, never densified)
        _square("factorized", sparse)
        return lambda b: sparse_spsolve(sparse, b)
    factors = _sla.lu_factor(_dense("factorized", A))
    return lambda b: _sla.lu_solve(factors, asarray(densified(b)))


class SuperLU:
    """The LU factorization :func:`splu` returns: ``Pr A Pc = L U`` with ``Pr`` the
    permutation matrix whose column ``i`` has its one in row ``perm_r[i]`` (and ``Pc``
    likewise, the identity here: dense LU pivots rows only), ``L`` unit lower and ``U``
    upper triangular, dense arrays; ``solve(rhs, trans='N')`` solves ``A x = rhs``
    (``'T'``: ``A^T``, ``'H'``: ``A^H``).

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> lu = fsl.splu(np.array([[1.0, 2.0], [4.0, 1.0]]))
    >>> lu.perm_r, lu.solve(np.array([3.0, 5.0]))
    (array([1, 0]), array([1., 1.]))
    """

    def __init__(self, matrix):
        p, self._L, self._U = _sla.lu(matrix)
        self.perm_r = np.argmax(np.asarray(fnp.real(_plain(p))), axis=1)
        self.perm_c = np.arange(matrix.shape[0])
        self.shape = tuple(matrix.shape)
        self.nnz = int(np.count_nonzero(_plain(self._L)) + np.count_nonzero(_plain(self._U)))
        self._factors = _sla.lu_factor(matrix)
        self._matrix = matrix

    # (properties, so that SciPy's attribute names are the class's too; the sparse
    # factorization of _sparserest_superlu sets its own)
    @property
    def L(self) -> Any:  # noqa: N802 (SciPy's name)
        """The unit lower triangular factor (differentiable in ``A``)."""
        return self._L

    @property
    def U(self) -> Any:  # noqa: N802 (SciPy's name)
        """The upper triangular factor (differentiable in ``A``)."""
        return self._U

    @property
    def perm_r(self) -> Any:
        """The row permutation: row ``i`` of ``A`` is row ``perm_r[i]`` of ``Pr A``."""
        return self._perm_r

    @perm_r.setter
    def perm_r(self, value: Any) -> None:
        self._perm_r = value

    @property
    def perm_c(self) -> Any:
        """The column permutation (the identity for the dense factorization)."""
        return self._perm_c

    @perm_c.setter
    def perm_c(self, value: Any) -> None:
        self._perm_c = value

    @property
    def shape(self) -> Any:
        """The factored matrix's shape."""
        return self._shape

    @shape.setter
    def shape(self, value: Any) -> None:
        self._shape = value

    @property
    def nnz(self) -> int:
        """The number of stored entries of ``L`` and ``U`` together."""
        return self._nnz

    @nnz.setter
    def nnz(self, value: int) -> None:
        self._nnz = value

    def solve(self, rhs: ArrayLike, trans: str = "N") -> Array:
        """``A^-1 rhs`` (``trans='T'``: ``A^-T rhs``, ``'H'``: ``A^-H rhs``).

        >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
        >>> fsl.splu(np.array([[2.0, 0.0], [1.0, 1.0]])).solve(np.ones(2), trans="T")
        array([0., 1.])
        """
        codes = {"N": 0, "T": 1, "H": 2}
        if trans not in codes:
            raise ValueError(f"SuperLU.solve: trans must be 'N', 'T' or 'H', got {trans!r}")
        return _sla.lu_solve(self._factors, asarray(densified(rhs)), trans=codes[trans])


def _plain(x):
    from ...lax import stop_gradient
    from ...numpy._convert import concrete_values
    return concrete_values(stop_gradient(x), "splu's pivots", "call splu outside vmap/jit")


def splu(A: Any, permc_spec: Optional[str] = None, diag_pivot_thresh: Optional[float] = None,
         relax: Any = None, panel_size: Any = None, options: Any = None) -> SuperLU:
    """The LU factorization of the square ``A`` (``scipy.sparse.linalg.splu``) as a
    :class:`SuperLU`, by dense LU with partial pivoting; ``L``, ``U`` and ``solve`` are
    differentiable in ``A``.  SciPy's ordering and pivoting options are accepted and
    change nothing (``perm_c`` is the identity).

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> lu = fsl.splu(np.array([[1.0, 2.0], [4.0, 1.0]]))
    >>> lu.L, lu.U
    (array([[1.  , 0.  ],
           [0.25, 1.  ]]), array([[4.  , 1.  ],
           [0.  , 1.75]]))
    """
    return SuperLU(_dense("splu", A))


def onenormest(A: Any, t: int = 2, itmax: int = 5, compute_v: bool = False,
               compute_w: bool = False) -> Any:
    """The 1-norm of ``A`` (``scipy.sparse.linalg.onenormest``), its largest column
    absolute sum, computed exactly (SciPy's estimate is a lower bound of it, equal for
    small matrices); with ``compute_v`` also ``v``, the unit vector of that column, and
    with ``compute_w`` ``w = A v``.  Differentiable (where the largest column is unique).

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> fsl.onenormest(np.array([[1.0, 2.0], [0.0, -1.0]]), compute_v=True, compute_w=True)
    (np.float64(3.0), array([0., 1.]), array([ 2., -1.]))
    """
    sparse = as_sparse(A)
    if sparse is not None:
        _square("onenormest", sparse)
        return sparse_onenormest(sparse, compute_v, compute_w)
    a = _dense("onenormest", A)
    sums = fnp.sum(fnp.abs(a), axis=0)
    j = fnp.argmax(sums)
    est = sums[j]
    v = fnp.astype(fnp.arange(a.shape[1]) == j, fnp.real(a).dtype)
    out = (est,) + ((v,) if compute_v else ()) + ((a @ v,) if compute_w else ())
    return out if len(out) > 1 else est


_WHICH_H = ("LM", "SM", "LA", "SA", "BE")
_WHICH = ("LM", "SM", "LR", "SR", "LI", "SI")


def _spectral_key(which, nu):
    """A key whose *largest* entries are the eigenvalues ``which`` asks for."""
    return {"LM": fnp.abs(nu), "SM": -fnp.abs(nu), "LA": fnp.real(nu), "SA": -fnp.real(nu),
            "LR": fnp.real(nu), "SR": -fnp.real(nu), "LI": fnp.abs(fnp.imag(nu)),
            "SI": -fnp.abs(fnp.imag(nu))}[which]


def _top(key, k):
    from ...lax import stop_gradient
    return fnp.argsort(-stop_gradient(key), stable=True)[:k]


def _check_k(name, k, n, limit):
    if int(k) != k or k <= 0:
        raise ValueError(f"{name}: k must be a positive integer, got {k!r}")
    if k >= n - limit:
        warnings.warn(f"{name}: k >= N{' - 1' if limit else ''} for an N x N matrix; all "
                      f"{n} eigenvalues are returned, as SciPy does by calling "
                      f"scipy.linalg.eig{'h' if not limit else ''}", RuntimeWarning,
                      stacklevel=3)
        return n
    return int(k)


def eigsh(A: Any, k: int = 6, M: Any = None, sigma: Optional[float] = None,
          which: str = "LM", v0: Any = None, ncv: Any = None, maxiter: Any = None,
          tol: float = 0, return_eigenvectors: bool = True, Minv: Any = None,
          OPinv: Any = None, mode: str = "normal", rng: Any = None) -> Any:
    """``k`` eigenvalues (ascending) and eigenvectors of the symmetric (Hermitian) ``A``,
    or of ``A x = w M x`` (``scipy.sparse.linalg.eigsh``): ``which`` of ``'LM', 'SM', 'LA',
    'SA'`` (largest/smallest magnitude, algebraic) or ``'BE'`` (from both ends); with
    ``sigma``, ``which`` applies to ``1 / (w - sigma)``, SciPy's shift-invert mode
    (``mode='normal'``; the buckling and Cayley modes are not provided).
    From the dense eigendecomposition, so differentiable as
    ``funcgrad.scipy.linalg.eigh`` (where the chosen eigenvalues are simple); ARPACK's
    options (``v0``, ``ncv``, ``maxiter``, ``tol``, ``Minv``, ``OPinv``, ``rng``) change
    nothing.  A real sparse ``A`` (funcgrad's or SciPy's; ``M`` sparse or None) is not
    densified: ARPACK's pairs (SciPy's, in SciPy's order, ``sigma`` by SciPy's sparse LU
    of ``A - sigma M``) of its symmetric part, with derivatives in ``A.data`` and
    ``M.data`` by sparse solves (an eigenvalue's is ``v_i v_j`` at each stored entry of
    ``A``; :mod:`._arrays_eigsh`).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse.linalg as fsl
    >>> a = np.diag([1.0, -5.0, 3.0, 2.0])
    >>> fsl.eigsh(a, k=2, return_eigenvectors=False)
    array([-5.,  3.])
    >>> fg.grad(lambda a: fsl.eigsh(a, k=1, which="LA")[0][0])(a)[2, 2]
    np.float64(1.0)
    """
    if which not in _WHICH_H:
        raise ValueError(f"eigsh: which must be one of {', '.join(_WHICH_H)}, got {which!r}")
    if mode not in ("normal", "buckling", "cayley"):
        raise ValueError(f"eigsh: mode must be 'normal', 'buckling' or 'cayley', got "
                         f"{mode!r}")
    if sigma is not None and mode != "normal":
        raise NotImplementedError(f"eigsh: mode={mode!r} is not provided; with sigma, only "
                                  f"mode='normal' (eigenvalues nearest sigma) is")
    sparse = as_sparse(A)
    mass = None if M is None else as_sparse(M)
    if (sparse is not None and (M is None or mass is not None)
            and sparse.dtype.kind in "fiub" and sparse.shape[0] == sparse.shape[1]
            and (mass is None or (mass.dtype.kind in "fiub" and mass.shape == sparse.shape))
            and 0 < k < sparse.shape[0]):
        w, v = sparse_eigsh(sparse, int(k), which, v0, ncv, maxiter, tol, sigma, mass)
        return (w, v) if return_eigenvectors else w
    a = _dense("eigsh", A)
    n = a.shape[0]
    k = _check_k("eigsh", k, n, 0)
    w, v = _sla.eigh(a) if M is None else _sla.eigh(a, _dense("eigsh", M))
    nu = w if sigma is None else 1.0 / (w - sigma)
    if which == "BE":
        order = _top(_spectral_key("LA", nu), n)
        chosen = fnp.concatenate([order[:k - k // 2], order[n - k // 2:]]) if k // 2 else \
            order[:k]
    else:
        chosen = _top(_spectral_key(which, nu), k)
    chosen = fnp.sort(chosen)  # (eigh's order: the eigenvalues ascending)
    values = fnp.take(w, chosen)
    if not return_eigenvectors:
        return values
    return values, fnp.take(v, chosen, axis=1)


def eigs(A: Any, k: int = 6, M: Any = None, sigma: Any = None, which: str = "LM",
         v0: Any = None, ncv: Any = None, maxiter: Any = None, tol: float = 0,
         return_eigenvectors: bool = True, Minv: Any = None, OPinv: Any = None,
         OPpart: Any = None, rng: Any = None) -> Any:
    """``k`` eigenvalues (complex) and unit right eigenvectors of the square ``A``, or of
    ``A x = w M x`` (``scipy.sparse.linalg.eigs``): ``which`` of ``'LM', 'SM', 'LR', 'SR',
    'LI', 'SI'`` (largest/smallest magnitude, real part, imaginary part in magnitude), of
    ``1 / (w - sigma)`` with ``sigma``; the first asked for first.  From the dense
    ``funcgrad.scipy.linalg.eig``, with its derivatives (the eigenvalues, and what does not
    depend on each vector's phase); ARPACK's options change nothing.  Of a conjugate
    pair split by ``k`` either member may come, as with ARPACK.  A sparse ``A``
    (funcgrad's or SciPy's, without ``M``) is not densified: ARPACK's pairs (SciPy's, in
    SciPy's order), with derivatives in ``A.data`` from the left eigenvectors and sparse
    bordered solves (:mod:`._sparserest_eigs`: a real eigenvalue's vector has SciPy's
    derivative, a complex one's its phase-free part).

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> fsl.eigs(np.diag([1.0, -5.0, 3.0, 2.0]), k=2, return_eigenvectors=False)
    array([-5.+0.j,  3.+0.j])
    """
    if which not in _WHICH:
        raise ValueError(f"eigs: which must be one of {', '.join(_WHICH)}, got {which!r}")
    sparse = as_sparse(A)
    if (sparse is not None and M is None and sparse.shape[0] == sparse.shape[1]
            and int(k) == k and 0 < k < sparse.shape[0] - 1):
        from ._sparserest_eigs import sparse_eigs
        w, v = sparse_eigs(sparse, int(k), which, sigma, v0, ncv, maxiter, tol)
        return (w, v) if return_eigenvectors else w
    a = _dense("eigs", A)
    n = a.shape[0]
    k = _check_k("eigs", k, n, 1)
    w, v = _sla.eig(a) if M is None else _sla.eig(a, _dense("eigs", M))
    nu = w if sigma is None else 1.0 / (w - sigma)
    chosen = _top(_spectral_key(which, nu), k)
    values = fnp.take(w, chosen)
    if not return_eigenvectors:
        return values
    return values, fnp.take(v, chosen, axis=1)


def svds(A: Any, k: int = 6, ncv: Any = None, tol: float = 0, which: str = "LM",
         v0: Any = None, maxiter: Any = None, return_singular_vectors: Any = True,
         solver: str = "arpack", rng: Any = None, options: Any = None, *,
         random_state: Any = None) -> Any:
    """``(u, s, vh)``: the ``k`` largest (``which='LM'``) or smallest (``'SM'``) singular
    values of ``A``, ascending, and their singular vectors (``scipy.sparse.linalg.svds``);
    ``return_singular_vectors`` False gives ``s`` alone, ``'u'`` or ``'vh'`` leaves the
    other None.  From the dense ``funcgrad.scipy.linalg.svd``, with its derivatives (where
    the chosen singular values are simple and nonzero); the solvers' options change
    nothing.  A real sparse ``A`` is not densified: with ``which='LM'`` the largest
    eigenpairs of ``[[0, A], [A^T, 0]]`` by ARPACK (as sparse ``eigsh``), with ``'SM'``
    SciPy's route (ARPACK on the sparse ``A^T A``, then the SVD of ``A V``), with their
    derivatives in ``A.data``.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> fsl.svds(np.diag([1.0, 4.0, 2.0]), k=2, return_singular_vectors=False)
    array([2., 4.])
    """
    if which not in ("LM", "SM"):
        raise ValueError(f"svds: which must be 'LM' or 'SM', got {which!r}")
    if solver not in ("arpack", "lobpcg", "propack"):
        raise ValueError(f"svds: solver must be 'arpack', 'lobpcg' or 'propack', got "
                         f"{solver!r}")
    if return_singular_vectors not in (True, False, "u", "vh"):
        raise ValueError(f"svds: return_singular_vectors must be True, False, 'u' or 'vh', "
                         f"got {return_singular_vectors!r}")
    sparse = as_sparse(A)
    if sparse is not None and sparse.dtype.kind in "fiub" and \
            int(k) == k and 0 < k < min(sparse.shape):
        from ._sparserest_svds import sparse_svds_smallest
        u, s, vh = (sparse_svds(sparse, int(k), ncv, tol, maxiter) if which == "LM" else
                    sparse_svds_smallest(sparse, int(k), ncv, tol, maxiter))
        if return_singular_vectors is False:
            return s
        return (u if return_singular_vectors != "vh" else None, s,
                vh if return_singular_vectors != "u" else None)
    a = _dense("svds", A, square=False)
    if int(k) != k or not 0 < k < min(a.shape):
        raise ValueError(f"svds: k must be an integer with 0 < k < min(A.shape) = "
                         f"{min(a.shape)}, got {k!r}")
    u, s, vh = _sla.svd(a, full_matrices=False)
    chosen = fnp.sort(_top(s if which == "LM" else -s, int(k)))[::-1]  # (s ascending)
    values = fnp.take(s, chosen)
    if return_singular_vectors is False:
        return values
    left = fnp.take(u, chosen, axis=1) if return_singular_vectors != "vh" else None
    right = fnp.take(vh, chosen, axis=0) if return_singular_vectors != "u" else None
    return left, values, right

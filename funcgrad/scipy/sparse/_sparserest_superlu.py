"""``splu`` and ``spilu`` of a sparse matrix: SciPy's SuperLU objects (their ``L``, ``U``,
``perm_r``, ``perm_c`` and ``nnz`` are SciPy's), wrapped so that ``solve`` is
differentiable and runs under ``jit``/``vmap``.

The factorization is made once, on the concrete values (SciPy's SuperLU is a host object:
a matrix whose values are abstract under ``jit``/``vmap`` cannot be factored; ``spsolve``
can, refactoring per call).  ``solve`` is a ``custom_linear_solve`` whose forward solve is
the factor's (through ``pure_callback``) and whose operator is the matrix the factors
invert: for ``splu`` that is ``A`` itself, so derivatives reach ``A.data`` (read at the
stored entries) and ``rhs``; for ``spilu`` it is ``Pr^T L U Pc^T``, the preconditioner
SciPy's incomplete factors stand for, a constant: its solve is linear in ``rhs`` (exact
derivative), but its derivative in ``A.data`` would have to follow SuperLU's dropping
rules, so a traced ``A.data`` is refused with a clear error."""
from typing import Any, Optional

import numpy as np

from ... import numpy as fnp
from ...core import Tracer
from ...numpy._convert import asarray, concrete_values
from ...typing import Array, ArrayLike
from ._arrays_core import coerce
from ._dense_ops import SuperLU, splu as _dense_splu

__all__ = ["splu", "spilu"]

_FIX = ("Factor it outside jit/vmap and use its solve inside, or use spsolve, which "
        "refactors per call and runs under jit/vmap")


def _host_matrix(name, a):
    """``a`` (square funcgrad CSC) as SciPy's CSC on its concrete values."""
    import scipy.sparse as sp
    data = concrete_values(a.data, f"{name} of a sparse matrix", _FIX)
    return sp.csc_array((data, (a._row, a._col)), shape=a.shape)


def _sparse_input(name, A):
    a = coerce(A)
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"{name}: can only factor square matrices, got shape {a.shape}")
    a = a.tocsc()
    if a.dtype.kind not in "fc":
        a = a.astype(np.float64)
    return a


class _SparseSuperLU(SuperLU):
    """SciPy's ``SuperLU`` of a sparse matrix, ``solve`` differentiable (see the module
    docstring); ``L`` and ``U`` are CSC arrays (SciPy's values), ``Pr A Pc = L U``.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> lu = fsparse.linalg.splu(fsparse.csc_array(np.array([[2.0, 1.0], [0.0, 4.0]])))
    >>> lu.solve(np.array([3.0, 4.0]))
    array([1., 1.])
    """

    def __init__(self, name, a, factor, operator):
        self._name, self._a, self._factor, self._operator = name, a, factor, operator
        self._dtype = np.dtype(factor.L.dtype)
        self.shape = tuple(factor.shape)
        self.nnz = int(factor.nnz)
        self.perm_r = factor.perm_r
        self.perm_c = factor.perm_c

    def _factor_matrix(self, which):
        if isinstance(self._a.data, Tracer):
            raise NotImplementedError(
                f"{self._name}(A).{which}: the factors are SciPy's values, without "
                f"derivatives, and A.data carries one here. Use solve (differentiable in "
                f"A.data), or pass fg.stop_gradient of the values if their derivative is "
                f"not wanted")
        return coerce(getattr(self._factor, which))

    @property
    def L(self) -> Any:  # noqa: N802 (SciPy's name)
        """The unit lower triangular factor, a CSC array (SciPy's values).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csc_array(np.array([[2.0, 0.0], [1.0, 4.0]]))
        >>> fsparse.linalg.splu(A).L.toarray()
        array([[1. , 0. ],
               [0.5, 1. ]])
        """
        return self._factor_matrix("L")

    @property
    def U(self) -> Any:  # noqa: N802 (SciPy's name)
        """The upper triangular factor, a CSC array (SciPy's values).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csc_array(np.array([[2.0, 0.0], [1.0, 4.0]]))
        >>> fsparse.linalg.splu(A).U.toarray()
        array([[2., 0.],
               [0., 4.]])
        """
        return self._factor_matrix("U")

    def solve(self, rhs: ArrayLike, trans: str = "N") -> Array:
        """``x`` with ``A x = rhs`` (``trans='T'``: ``A^T x = rhs``, ``'H'``: ``A^H``),
        ``A`` the factored matrix (for ``spilu``, the preconditioner ``Pr^T L U Pc^T``);
        ``rhs`` of shape ``(N,)`` or ``(N, K)``, castable to the factors' dtype as SciPy
        requires.  Differentiable in ``rhs`` (and, for ``splu``, ``A.data``).

        >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
        >>> lu = fsparse.linalg.splu(fsparse.csc_array(np.array([[2.0, 1.0], [0.0, 4.0]])))
        >>> fg.grad(lambda b: lu.solve(b, trans="T")[1])(np.array([2.0, 3.0]))
        array([-0.125,  0.25 ])
        """
        from ...callback import pure_callback
        from ...lax import custom_linear_solve
        if trans not in ("N", "T", "H"):
            raise ValueError(f"SuperLU.solve: trans must be 'N', 'T' or 'H', got {trans!r}")
        if coerce(rhs) is not None:
            raise TypeError("SuperLU.solve: rhs must be a dense array, as SciPy's; pass "
                            "rhs.toarray()")
        b = asarray(rhs)
        n = self.shape[0]
        if b.ndim not in (1, 2) or b.shape[0] != n:
            raise ValueError(f"SuperLU.solve: rhs must have shape ({n},) or ({n}, K), got "
                             f"{tuple(b.shape)}")
        if not np.can_cast(b.dtype, self._dtype, "safe"):
            raise TypeError(f"SuperLU.solve: rhs of dtype {b.dtype} cannot be cast safely to "
                            f"the factors' {self._dtype} (SciPy refuses it too); cast rhs, "
                            f"or factor A.astype({b.dtype.name})")
        b = fnp.astype(b, self._dtype)
        factor, dtype = self._factor, self._dtype

        def solver(code, conjugate=False):
            def host(r):
                r = np.asarray(r)
                if conjugate:  # (conj(A) x = r: x = conj(A^-1 conj(r)))
                    return np.conj(factor.solve(np.conj(r), trans="N")).astype(dtype)
                return np.asarray(factor.solve(r, trans=code)).astype(dtype)

            def solve(_, r):
                return pure_callback(host, r, r, vmap_method="sequential")
            return solve

        op = self._operator
        if trans == "N":
            return custom_linear_solve(lambda v: op @ v, b, solver("N"), solver("T"))
        if trans == "T" or dtype.kind != "c":
            return custom_linear_solve(lambda v: op.T @ v, b, solver(trans), solver("N"))
        return custom_linear_solve(lambda v: op.conj().T @ v, b, solver("H"),
                                   solver("N", True))


def splu(A: Any, permc_spec: Optional[str] = None, diag_pivot_thresh: Optional[float] = None,
         relax: Any = None, panel_size: Any = None, options: Any = None) -> SuperLU:
    """The LU factorization of the square ``A`` (``scipy.sparse.linalg.splu``).  A sparse
    ``A`` (funcgrad's or SciPy's) is factored sparse by SciPy's SuperLU with the options
    given (``L``, ``U``, ``perm_r``, ``perm_c``, ``nnz`` are SciPy's; ``L`` and ``U`` as
    CSC arrays), and ``solve`` is differentiable in ``A.data`` and ``rhs`` (the derivative
    of ``A^-1 rhs``, by solves with the same factors) and runs under ``jit``/``vmap``;
    ``L`` and ``U`` carry no derivative (asking for them while ``A.data`` is traced
    raises).  ``A`` must have concrete values (not under ``jit``/``vmap``).  A dense ``A``
    is factored by dense LU (:class:`SuperLU`: ``L``, ``U`` and ``solve`` differentiable,
    ``perm_c`` the identity).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csc_array(np.array([[4.0, 1.0], [2.0, 3.0]]))
    >>> b = np.array([1.0, 2.0])
    >>> fsparse.linalg.splu(A).solve(b)
    array([0.1, 0.6])
    >>> def x0(d):
    ...     lu = fsparse.linalg.splu(fsparse.csc_array((d, A.indices, A.indptr), (2, 2)))
    ...     return lu.solve(b)[0]
    >>> g = fg.grad(x0)(A.data)
    >>> np.round(g, 6)  # -x_j (A^-T e_0)_i at each stored entry (i, j)
    array([-0.03,  0.01, -0.18,  0.06])
    """
    if coerce(A) is None:
        return _dense_splu(A, permc_spec, diag_pivot_thresh, relax, panel_size, options)
    import scipy.sparse.linalg as sl
    a = _sparse_input("splu", A)
    factor = sl.splu(_host_matrix("splu", a), permc_spec=permc_spec,
                     diag_pivot_thresh=diag_pivot_thresh, relax=relax,
                     panel_size=panel_size, options=options)
    return _SparseSuperLU("splu", a, factor, a)


def spilu(A: Any, drop_tol: Optional[float] = None, fill_factor: Optional[float] = None,
          drop_rule: Optional[str] = None, permc_spec: Optional[str] = None,
          diag_pivot_thresh: Optional[float] = None, relax: Any = None,
          panel_size: Any = None, options: Any = None) -> SuperLU:
    """The incomplete LU factorization of the square sparse ``A``
    (``scipy.sparse.linalg.spilu``): SciPy's SuperLU with its dropping options, for a
    preconditioner ``M = Pr^T L U Pc^T ~ A``.  ``solve`` applies ``M^-1`` (SciPy's
    values), differentiable in ``rhs`` and under ``jit``/``vmap``; a derivative in
    ``A.data`` is not provided (it would follow SuperLU's dropping rules): with ``A.data``
    traced this raises; apply ``fg.stop_gradient`` to it for a preconditioner (a Krylov
    solver's derivative does not depend on its preconditioner).  A dense ``A`` is made
    sparse first, as SciPy does.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csc_array(np.array([[4.0, 1.0, 0.0], [1.0, 4.0, 1.0], [0.0, 1.0, 4.0]]))
    >>> ilu = fsparse.linalg.spilu(A)
    >>> np.round(ilu.solve(A @ np.ones(3)), 6)  # exact here: no fill-in to drop
    array([1., 1., 1.])
    """
    import scipy.sparse.linalg as sl
    if coerce(A) is None:
        from ._arrays_formats import ARRAYS
        dense = asarray(A)
        if dense.ndim != 2:
            raise ValueError(f"spilu: expected a square matrix, got shape {dense.shape}")
        A = ARRAYS["csc"](concrete_values(dense, "spilu", _FIX))
    a = _sparse_input("spilu", A)
    if isinstance(a.data, Tracer):
        raise NotImplementedError(
            "spilu: A.data carries a derivative, which an incomplete factorization does not "
            "provide (it would follow SuperLU's dropping rules). For a preconditioner apply "
            "fg.stop_gradient to A's values; for a differentiable solve use splu or spsolve")
    factor = sl.spilu(_host_matrix("spilu", a), drop_tol=drop_tol, fill_factor=fill_factor,
                      drop_rule=drop_rule, permc_spec=permc_spec,
                      diag_pivot_thresh=diag_pivot_thresh, relax=relax,
                      panel_size=panel_size, options=options)
    import scipy.sparse as sp
    n = a.shape[0]
    pr = sp.csc_array((np.ones(n), (factor.perm_r, np.arange(n))), shape=(n, n))
    pc = sp.csc_array((np.ones(n), (np.arange(n), factor.perm_c)), shape=(n, n))
    preconditioner = coerce((pr.T @ factor.L @ factor.U @ pc.T).tocsc())
    return _SparseSuperLU("spilu", a, factor, preconditioner)

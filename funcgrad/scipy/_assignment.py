"""``funcgrad.scipy.optimize.nnls`` and ``linear_sum_assignment``: SciPy's answers, with the
derivatives they have (``nnls``'s solution on its free set; an assignment's indices have
none, so the cost it picks is differentiated through ordinary indexing)."""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ._implicit_root import plain

__all__ = ["nnls", "linear_sum_assignment"]


def linear_sum_assignment(cost_matrix: Any, maximize: bool = False) -> Any:
    """SciPy's optimal assignment ``(row_ind, col_ind)`` of ``cost_matrix`` (the Hungarian
    problem: each row to a different column, the total cost least, or greatest with
    ``maximize``). The indices are integers and carry no derivative; the cost they pick,
    ``cost_matrix[row_ind, col_ind].sum()``, is differentiable as indexing is (a
    subgradient, as in JAX/PyTorch's ``argmin``-based losses). Under ``jit``/``vmap``
    SciPy runs through ``fg.pure_callback``.

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import linear_sum_assignment
    >>> cost = np.array([[4, 1, 3], [2, 0, 5], [3, 2, 2]])   # SciPy's example
    >>> row_ind, col_ind = linear_sum_assignment(cost)
    >>> col_ind, int(cost[row_ind, col_ind].sum())
    (array([1, 0, 2]), 5)
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    values = plain(cost_matrix, "linear_sum_assignment")
    shape = np.shape(values)
    if len(shape) != 2:
        raise ValueError("expected a matrix (2-D array), got a %r array" % (shape,))
    k = min(shape)

    def solve(c):
        rows, cols = optimize.linear_sum_assignment(np.asarray(c), maximize=maximize)
        return rows.astype(np.int64), cols.astype(np.int64)

    if isinstance(values, np.ndarray) or np.isscalar(values):
        return solve(values)
    like = np.zeros(k, np.int64)
    return pure_callback(solve, (like, like), values, vmap_method="sequential")


def nnls(A: Any, b: Any, maxiter: Optional[int] = None, *, atol: Optional[float] = None) -> Any:
    """SciPy's non-negative least squares, ``argmin ||A x - b||`` over ``x >= 0``:
    ``(x, rnorm)``.

    Differentiable in ``A`` and ``b`` by the KKT conditions at SciPy's solution: the
    coordinates held at zero stay there (derivative zero), the free ones are the least
    squares solution restricted to them, ``x_F = (A_F^T A_F)^-1 A_F^T b``; under ``jit``
    and ``vmap`` too (SciPy through ``fg.pure_callback``). A free set whose columns are
    linearly dependent raises when a derivative is asked (no unique solution to move).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import nnls
    >>> A = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])   # SciPy's example
    >>> x, rnorm = nnls(A, np.array([2.0, 1.0, 1.0]))
    >>> x, round(float(rnorm), 6)
    (array([1.5, 1. ]), 0.707107)
    >>> x, rnorm = nnls(A, np.array([-1.0, -1.0, -1.0]))
    >>> x, float(rnorm)
    (array([0., 0.]), 1.7320508075688772)
    >>> # x[0] is the mean of b's first two entries while positive: d x[0] / d b = (.5, .5, 0)
    >>> fg.grad(lambda b: nnls(A, b)[0][0])(np.array([2.0, 1.0, 1.0]))
    array([0.5, 0.5, 0. ])
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    A_values, b_values = plain(A, "nnls"), plain(b, "nnls")
    if np.ndim(A_values) != 2 or np.ndim(b_values) != 1:
        raise ValueError(f"nnls: expected a 2-D A and a 1-D b, got shapes {np.shape(A_values)} "
                         f"and {np.shape(b_values)}")
    n = np.shape(A_values)[1]

    def solve(a, rhs):
        # (atol only when given: SciPy 1.17 deprecates it)
        x, _ = optimize.nnls(np.asarray(a, float), np.asarray(rhs, float), maxiter=maxiter,
                             **({} if atol is None else {"atol": atol}))
        return x

    if isinstance(A_values, np.ndarray) and isinstance(b_values, np.ndarray):
        x_plain = solve(A_values, b_values)
        if A is A_values and b is b_values:   # nothing differentiated: SciPy's answer
            return x_plain, float(np.linalg.norm(A_values @ x_plain - b_values))
    else:
        x_plain = pure_callback(solve, np.zeros(n), A_values, b_values,
                                vmap_method="sequential")
    # the KKT system at SciPy's solution: free coordinates solve the normal equations
    # restricted to them, the others are held at zero (an identity row)
    free = fnp.asarray(x_plain) > 0
    A = fnp.asarray(A, dtype=float)
    gram = A.T @ A
    system = fnp.where(free[:, None] & free[None, :], gram, 0.0) + fnp.diag(
        fnp.where(free, 0.0, 1.0))
    values = plain(system, "nnls")
    if isinstance(values, np.ndarray) and np.linalg.cond(values) > 1e12:
        raise ValueError("nnls: the columns of A on the solution's free set are linearly "
                         "dependent, so the solution is not unique and has no derivative; "
                         "pass fg.stop_gradient(A), fg.stop_gradient(b) if none should flow")
    x = fnp.linalg.solve(system, fnp.where(free, A.T @ fnp.asarray(b, dtype=float), 0.0))
    return x, fnp.linalg.norm(A @ x - b)

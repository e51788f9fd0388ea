"""``funcgrad.scipy.optimize.lsq_linear`` and ``isotonic_regression``: SciPy's answers, with
the derivatives they have at them.

``lsq_linear``'s solution is a box-constrained least-squares point: the coordinates a
bound holds (the gradient ``A^T (A x - b)`` pressing them there) stay on it under small
changes of ``A`` and ``b``, and the free ones solve the normal equations restricted to
them, so the derivative is that of ``A_F^T A_F x_F = A_F^T (b - A_H x_H)``.

``isotonic_regression``'s fit is constant on blocks (pool adjacent violators): each block's
value is the weighted mean of its data, a smooth function of ``y`` and ``weights`` as long
as the blocks do not change, which holds where neighbouring blocks' means differ and no
block could be split (every leading part of a block has a mean strictly beyond the
block's, in the order's direction).  At a tie the pooling changes with the direction of a
perturbation, and a derivative asked there raises.
"""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..api import value_and_grad
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ._implicit_minimum import check_optimum
from ._implicit_root import plain, wants_derivative

__all__ = ["lsq_linear", "isotonic_regression"]


def _float_dtype(*values):
    """float32 for float32 data (and nothing wider), else float64 (as SciPy's)."""
    kinds = [np.dtype(v.dtype) if hasattr(v, "dtype") else np.asarray(v).dtype
             for v in values if v is not None]
    return np.dtype(np.float32) if np.result_type(np.float32, *kinds) == np.float32 \
        else np.dtype(np.float64)


def _traced(value):
    return isinstance(value, Tracer) or is_special(value)


def lsq_linear(A: Any, b: Any, bounds: Any = (-np.inf, np.inf), method: str = "trf",
               tol: float = 1e-10, lsq_solver: Optional[str] = None,
               lsmr_tol: Any = None, max_iter: Optional[int] = None, verbose: int = 0, *,
               lsmr_maxiter: Optional[int] = None) -> Any:
    """Solve ``min 0.5 * ||A x - b||**2`` subject to ``lb <= x <= ub`` with
    ``scipy.optimize.lsq_linear``; the solution differentiable in ``A`` and ``b``.

    SciPy's signature and ``OptimizeResult`` (``x``, ``cost``, ``fun`` (the residuals ``A
    x - b``), ``optimality``, ``active_mask``, ``unbounded_sol``, ``nit``, ``status``,
    ``message``, ``success``). ``A`` is a dense array here (a sparse matrix or a
    LinearOperator: call SciPy's). With float32 ``A`` and ``b``, ``x``, ``cost`` and
    ``fun`` are float32.

    **Differentiable** in ``A`` and ``b`` (traced by ``grad``/``jvp``/``vjp``..., or eager
    Tensors that require grad) by the KKT conditions of the box at SciPy's solution: a
    coordinate a bound holds, the gradient pressing it there, stays on its bound
    (derivative zero); the free ones solve the normal equations restricted to them
    (``A_F^T A_F x_F = A_F^T (b - A_H x_H)``); ``cost`` and ``fun`` follow. Raised rather
    than wrong, when a derivative is asked: a search that did not succeed, a coordinate
    on a bound the gradient does not press on (one-sided derivatives only), linearly
    dependent free columns (no unique solution), and traced ``bounds`` (pass them as plain
    numbers). Under ``vmap`` or ``jit`` SciPy runs through ``fg.pure_callback`` and the
    result holds ``x``, ``cost``, ``fun``, ``active_mask``, ``nit``, ``status`` and
    ``success`` as arrays.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import lsq_linear
    >>> A = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> b = np.array([1.0, 2.0, 3.0])
    >>> res = lsq_linear(A, b, bounds=(0.3, 1.0))
    >>> np.round(res.x, 8), res.active_mask
    (array([0.3, 0.3]), array([-1, -1]))
    >>> res = lsq_linear(A, b, bounds=([-1.0, 0.6], [1.0, 1.0]))   # x[1] held at 0.6
    >>> np.round(res.x, 8)
    array([-0.12571429,  0.6       ])
    >>> # x[0] = A[:, 0] @ (b - 0.6 A[:, 1]) / |A[:, 0]|**2: d x[0] / d b = A[:, 0] / 35
    >>> np.round(fg.grad(lambda b: lsq_linear(A, b, bounds=([-1.0, 0.6], [1.0, 1.0])).x[0])(b)
    ...          * 35, 8)
    array([1., 3., 5.])
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    lower, upper = _bounds(bounds)
    A, b = (fnp.asarray(v) if isinstance(v, (list, tuple)) else v for v in (A, b))
    wanted = any(wants_derivative(v) for v in (A, b))
    A_values, b_values = plain(A, "lsq_linear"), plain(b, "lsq_linear")
    if np.ndim(A_values) != 2 or np.ndim(b_values) != 1:
        raise ValueError(f"lsq_linear: expected a 2-D A and a 1-D b, got shapes "
                         f"{np.shape(A_values)} and {np.shape(b_values)}")
    dtype = _float_dtype(A_values, b_values)
    n = np.shape(A_values)[1]

    def solve(a, rhs):
        a, rhs = np.asarray(a, float), np.asarray(rhs, float)
        result = optimize.lsq_linear(a, rhs, bounds=bounds, method=method, tol=tol,
                                     lsq_solver=lsq_solver, lsmr_tol=lsmr_tol,
                                     max_iter=max_iter, verbose=verbose,
                                     lsmr_maxiter=lsmr_maxiter)
        held = None
        if wanted:
            def value_and_gradient(x):
                return value_and_grad(lambda z: 0.5 * fnp.sum((a @ z - rhs) ** 2))(x)
            held = check_optimum(result, optimize.Bounds(lower, upper), value_and_gradient,
                                 "lsq_linear")
        return result, held

    traced = isinstance(A_values, Tracer) or isinstance(b_values, Tracer)
    if not traced:
        result, held = solve(A_values, b_values)
        if not wanted:
            if dtype == np.float32:
                for name in ("x", "fun"):
                    result[name] = np.asarray(result[name], dtype)
                result.cost = dtype.type(result.cost)
            return result
        x_plain = np.asarray(result.x, dtype)
    else:
        def host(a, rhs):
            result, held = solve(a, rhs)
            mask, pinned = held if held is not None else (np.zeros(n, bool), np.zeros(n))
            return (np.asarray(result.x, dtype), np.asarray(result.active_mask, np.int64),
                    np.asarray(result.nit, np.int64), np.asarray(result.status, np.int64),
                    np.asarray(result.success, np.bool_), mask, np.asarray(pinned, dtype))

        like = (np.zeros(n, dtype), np.zeros(n, np.int64), np.zeros((), np.int64),
                np.zeros((), np.int64), np.zeros((), np.bool_), np.zeros(n, bool),
                np.zeros(n, dtype))
        x_plain, active, nit, status, success, mask, pinned = pure_callback(
            host, like, A_values, b_values, vmap_method="sequential")
        result = optimize.OptimizeResult(active_mask=active, nit=nit, status=status,
                                         success=success)
        held = (mask, pinned)
    source_A, source_b = (A, b) if wanted else (A_values, b_values)
    source_A = fnp.astype(fnp.asarray(source_A), dtype)
    source_b = fnp.astype(fnp.asarray(source_b), dtype)
    x = x_plain
    if wanted:
        x = _restricted_solution(source_A, source_b, x_plain, held, dtype)
    result.x = x
    result.fun = source_A @ x - source_b
    result.cost = 0.5 * fnp.sum(result.fun ** 2)
    return result


def _bounds(bounds):
    """``(lower, upper)`` as plain arrays (or scalars), after the check that no bound is
    traced."""
    pair = (bounds.lb, bounds.ub) if hasattr(bounds, "lb") else tuple(bounds)
    if len(pair) != 2:
        raise ValueError("lsq_linear: bounds must be a (lb, ub) pair or a Bounds object")
    if any(_traced(leaf) for value in pair for leaf in
           (value if isinstance(value, (list, tuple)) else [value])):
        raise TypeError("lsq_linear: bounds hold a traced value; funcgrad differentiates "
                        "the solution in A and b only. Pass bounds as plain numbers")
    return tuple(np.asarray(v, float) for v in pair)


def _restricted_solution(A, b, x_plain, held, dtype):
    """SciPy's ``x`` with the derivative of the box's KKT system at it."""
    n = A.shape[1]
    if held is None:   # (no bounds: every coordinate free)
        mask, pinned = np.zeros(n, bool), np.zeros(n, dtype)
    else:
        mask, pinned = held
    free = ~fnp.asarray(mask)
    on_bounds = fnp.where(free, 0.0, fnp.asarray(pinned, dtype=dtype))
    gram = A.T @ A
    system = fnp.where(free[:, None] & free[None, :], gram, 0.0) + fnp.diag(
        fnp.where(free, 0.0, 1.0))
    rhs = fnp.where(free, A.T @ (b - A @ on_bounds), on_bounds)
    fixed = stop_gradient(system)
    if not isinstance(fixed, Tracer):
        values = np.asarray(plain(fixed, "lsq_linear"))
        if not np.all(np.isfinite(values)) or np.linalg.cond(values) * math.sqrt(
                np.finfo(float).eps) >= 1:
            raise ValueError(
                "lsq_linear: the columns of A on the solution's free coordinates are "
                "linearly dependent, so the solution is not unique and has no derivative; "
                "add a ridge row (sqrt(eps) * I under A, zeros under b), or pass "
                "fg.stop_gradient(A), fg.stop_gradient(b) if none should flow")
    solved = fnp.astype(fnp.linalg.solve(system, rhs), dtype)
    return x_plain + (solved - stop_gradient(solved))


def isotonic_regression(y: Any, *, weights: Any = None, increasing: bool = True) -> Any:
    """The weighted least-squares fit to ``y`` that is monotone, by
    ``scipy.optimize.isotonic_regression`` (pool adjacent violators).

    SciPy's signature and ``OptimizeResult``: ``x`` (the fit), ``weights`` (each block's
    total weight) and ``blocks`` (the indices where blocks start, then ``len(y)``). With
    float32 ``y`` (and weights), ``x`` and ``weights`` are float32.

    **Differentiable** in ``y`` and ``weights``: the fit on a block is the weighted mean of
    its data, ``sum(w y) / sum(w)``, so its derivative is that mean's, with the blocks
    held. Raised rather than wrong, when a derivative is asked: a tie, where the blocks
    change with the direction of a perturbation (two neighbouring blocks with equal
    means, or a block whose leading part has its mean: ``y = [1, 1]`` is one). Under
    ``vmap`` or ``jit`` SciPy runs through ``fg.pure_callback`` and the result holds
    ``x`` only (the number of blocks depends on the values).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import isotonic_regression
    >>> res = isotonic_regression([5.0, 1.0, 2.0, 4.0])
    >>> res.x, res.weights, res.blocks
    (array([2.66666667, 2.66666667, 2.66666667, 4.        ]), array([3., 1.]), array([0, 3, 4]))
    >>> # the first block's value is the mean of y[:3]
    >>> fg.grad(lambda y: isotonic_regression(y).x[0])(np.array([5.0, 1.0, 2.0, 4.0]))
    array([0.33333333, 0.33333333, 0.33333333, 0.        ])
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    if isinstance(y, (list, tuple)) and any(_traced(v) for v in y):
        y = fnp.stack([fnp.asarray(v) for v in y])
    if isinstance(weights, (list, tuple)) and any(_traced(v) for v in weights):
        weights = fnp.stack([fnp.asarray(v) for v in weights])
    wanted = wants_derivative(y) or (weights is not None and wants_derivative(weights))
    y_values = plain(y, "isotonic_regression")
    w_values = None if weights is None else plain(weights, "isotonic_regression")
    if np.ndim(y_values) != 1:
        raise ValueError(f"isotonic_regression: y must be 1-D, got shape {np.shape(y_values)}")
    dtype = _float_dtype(y_values, w_values)
    n = np.shape(y_values)[0]

    def solve(data, w):
        result = optimize.isotonic_regression(
            np.asarray(data, float), weights=None if w is None else np.asarray(w, float),
            increasing=increasing)
        if wanted:
            _refuse_ties(np.asarray(data, float),
                         np.ones(n) if w is None else np.asarray(w, float), result.blocks,
                         increasing)
        return result

    if not (isinstance(y_values, Tracer) or isinstance(w_values, Tracer)):
        result = solve(y_values, w_values)
        result.x = np.asarray(result.x, dtype)
        result.weights = np.asarray(result.weights, dtype)
        if not wanted:
            return result
        blocks = np.repeat(np.arange(len(result.blocks) - 1), np.diff(result.blocks))
        x_plain = result.x
    else:
        def host(data, *w):
            result = solve(data, w[0] if w else None)
            ids = np.repeat(np.arange(len(result.blocks) - 1), np.diff(result.blocks))
            return np.asarray(result.x, dtype), ids.astype(np.int64)

        x_plain, blocks = pure_callback(
            host, (np.zeros(n, dtype), np.zeros(n, np.int64)), y_values,
            *(() if w_values is None else (w_values,)), vmap_method="sequential")
        result = optimize.OptimizeResult(x=x_plain)
        if not wanted:
            return result
    data = fnp.astype(fnp.asarray(y), dtype)
    w = fnp.ones(n, dtype) if weights is None else fnp.astype(fnp.asarray(weights), dtype)
    # (segment sums over the blocks: n slots, of which the blocks fill the first ones)
    block_sum = fnp.astype(fnp.bincount(blocks, w * data, length=n), dtype)
    block_weight = fnp.astype(fnp.bincount(blocks, w, length=n), dtype)
    means = fnp.take(block_sum / fnp.where(block_weight > 0, block_weight, 1.0), blocks)
    result.x = x_plain + (means - stop_gradient(means))
    if "blocks" in result:
        count = len(result.blocks) - 1
        result.weights = np.asarray(result.weights, dtype) + (
            block_weight[:count] - stop_gradient(block_weight[:count]))
    return result


def _refuse_ties(y, w, starts, increasing):
    """Raise where the blocks ``starts`` would change under some small change of ``y`` or
    ``w``: a block whose leading part's mean is not strictly beyond the block's, or
    neighbouring blocks with equal means."""
    sign = 1.0 if increasing else -1.0
    scale = 1e-12 * (1.0 + np.max(np.abs(y), initial=0.0))
    means = []
    for start, stop in zip(starts[:-1], starts[1:]):
        wy, ww = np.cumsum(w[start:stop] * y[start:stop]), np.cumsum(w[start:stop])
        mean = wy[-1] / ww[-1]
        means.append(mean)
        # pooled because each leading part is above the mean (increasing): a leading part
        # at the mean is a tie, which a perturbation splits off or keeps
        if np.any(sign * (wy[:-1] / ww[:-1] - mean) <= scale * (stop - start)):
            break
    else:
        if not np.any(sign * np.diff(means) <= scale):
            return
    raise ValueError(
        "isotonic_regression: a derivative was asked at a tie (neighbouring blocks with "
        "equal means, or data within a block equal to its mean at a point where the block "
        "could split): the pooling then depends on the direction of the perturbation, so "
        "the fit has one-sided derivatives only. Pass fg.stop_gradient(y) if no derivative "
        "should flow through the fit")

"""``funcgrad.scipy.optimize.linprog``: SciPy's linear program (HiGHS), its solution
differentiable in ``c``, ``A_ub``, ``b_ub``, ``A_eq`` and ``b_eq`` through the active set
at the optimal vertex.

A vertex of ``{x : A_ub x <= b_ub, A_eq x = b_eq, lb <= x <= ub}`` is where ``n``
linearly independent constraints hold with equality: the equalities, the inequalities
with zero slack and the bounds a coordinate sits on.  When exactly ``n`` hold there
(primal nondegenerate) and every one of them but the equalities has a nonzero multiplier
(dual nondegenerate: the optimum is unique, and no neighbouring vertex is as good), small
changes of the data keep that active set optimal, so ``x*`` is the solution of the
square system ``G x = h`` of those rows, and ``dx* = G^-1 (dh - dG x*)``; ``x*`` does not
move with ``c`` at all.  ``fun = c . x*`` follows (its derivative in ``c`` is ``x*``).
At a degenerate vertex the active set that a perturbation keeps depends on the
perturbation's direction: only one-sided derivatives exist, and asking for one raises.
"""
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ._implicit_root import plain, wants_derivative

__all__ = ["linprog", "SCIPY_OBJECTS"]

# SciPy's own objects re-exported by funcgrad.scipy.optimize as they are (loaded with
# SciPy on first use: see optimize.__getattr__)
SCIPY_OBJECTS = ("linprog_verbose_callback", "show_options")

# (a slack or a multiplier this small, relative to the data's scale, counts as zero:
# HiGHS's nonbasic values are exact, its basic ones accurate to rounding)
_ZERO = 1e-9

_DATA = ("c", "A_ub", "b_ub", "A_eq", "b_eq")


def linprog(c: Any, A_ub: Any = None, b_ub: Any = None, A_eq: Any = None, b_eq: Any = None,
            bounds: Any = (0, None), method: str = "highs",
            callback: Optional[Callable[..., Any]] = None,
            options: Optional[dict[str, Any]] = None, x0: Any = None,
            integrality: Any = None) -> Any:
    """Minimize ``c @ x`` subject to ``A_ub @ x <= b_ub``, ``A_eq @ x == b_eq`` and
    ``bounds``, with ``scipy.optimize.linprog`` (HiGHS); the solution differentiable in the
    problem's data.

    SciPy's signature and ``OptimizeResult`` (``x``, ``fun``, ``slack``, ``con``,
    ``success``, ``status``, ``message``, ``nit``, and HiGHS's ``ineqlin``, ``eqlin``,
    ``lower``, ``upper`` with their ``marginals``). With float32 data (and no float64),
    ``x``, ``fun``, ``slack`` and ``con`` are float32.

    **Differentiable** in ``c``, ``A_ub``, ``b_ub``, ``A_eq`` and ``b_eq`` (traced by
    ``grad``/``jvp``/``vjp``..., or eager Tensors that require grad) through the active
    set at SciPy's optimal vertex: there ``x`` solves the square system of the ``n``
    constraints that hold with equality (the equalities, the inequalities with zero
    slack, the bounds ``x`` sits on), so its derivative is that system's, and ``x`` does
    not move with ``c``; ``fun = c @ x`` (derivative ``x`` in ``c``), ``slack = b_ub -
    A_ub @ x`` and ``con = b_eq - A_eq @ x`` follow. The marginals carry no derivative.
    Raised rather than wrong, when a derivative is asked: a problem not solved to
    optimality (infeasible, unbounded, a limit reached), a degenerate vertex (more than
    ``n`` constraints active, or an active inequality or bound whose multiplier is zero,
    i.e. the optimum is not unique or another vertex ties: one-sided derivatives only),
    fewer than ``n`` independent active constraints (an optimal face, not a vertex),
    ``integrality`` (a mixed-integer solution jumps: use :func:`milp`, whose ``fun`` is
    differentiable in ``c``), and traced ``bounds`` (pass them as plain numbers).

    Under ``vmap`` or ``jit`` SciPy is called through ``fg.pure_callback`` (once per
    example), and the result holds ``x``, ``fun``, ``slack``, ``con``, ``success``,
    ``status`` and ``nit`` as arrays.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import linprog
    >>> c = np.array([-1.0, 4.0])                # SciPy's example
    >>> A = np.array([[-3.0, 1.0], [1.0, 2.0]])
    >>> b = np.array([6.0, 4.0])
    >>> res = linprog(c, A_ub=A, b_ub=b, bounds=[(None, None), (-3, None)])
    >>> res.x, float(res.fun), res.status
    (array([10., -3.]), -22.0, 0)
    >>> # x[0] = b[1] - 2 * x[1] on the active row, x[1] on its bound -3
    >>> fg.grad(lambda b: linprog(c, A_ub=A, b_ub=b, bounds=[(None, None), (-3, None)]).x[0])(b)
    array([0., 1.])
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    given = dict(zip(_DATA, (c, A_ub, b_ub, A_eq, b_eq)))
    _refuse_traced_bounds(bounds)
    wanted = any(wants_derivative(leaf) for value in given.values() if value is not None
                 for leaf in _leaves(value))
    if wanted and integrality is not None and np.any(np.asarray(integrality) != 0):
        raise ValueError(
            "linprog: a derivative was asked of a mixed-integer program (integrality): its "
            "solution jumps from one integer point to another as the data move, so x has "
            "no derivative. Use funcgrad.scipy.optimize.milp, whose fun is differentiable "
            "in c, or pass fg.stop_gradient(...) for the data")
    data: dict[str, Any] = {k: None if v is None else _as_array(v) for k, v in given.items()}
    plain_data: dict[str, Any] = {k: None if v is None else plain(v, "linprog") for k, v in data.items()}
    dtype = _result_dtype(plain_data.values())
    n = int(np.size(plain_data["c"]))
    start = None if x0 is None else plain(x0, "linprog")   # (a guess: no derivative)

    def solve(values):
        """SciPy's result, and (a derivative wanted) the rows of the active set."""
        result = optimize.linprog(*(None if v is None else np.asarray(v, float)
                                    for v in (values[k] for k in _DATA)),
                                  bounds=bounds, method=method, callback=callback,
                                  options=options, x0=start, integrality=integrality)
        rows = _active_rows(result, values, n) if wanted else None
        return result, rows

    traced = [k for k, v in plain_data.items() if isinstance(v, Tracer)]
    if not traced:
        result, rows = solve(plain_data)
        if not wanted:
            return _cast(result, dtype)
        x_plain = np.asarray(result.x, dtype)
    else:
        result, x_plain, rows = _solve_traced(solve, plain_data, traced, n, dtype, wanted)
    if wanted:
        x = _differentiable_x(data, rows, x_plain, dtype)
    else:
        x = x_plain
    result.x = x
    cost = fnp.astype(data["c"], dtype) if wanted else plain_data["c"]
    result.fun = fnp.astype(fnp.sum(fnp.ravel(cost) * x), dtype)
    for name, matrix, rhs in (("slack", "A_ub", "b_ub"), ("con", "A_eq", "b_eq")):
        if data[matrix] is not None:
            source = data if wanted else plain_data
            result[name] = fnp.astype(fnp.ravel(source[rhs]) - source[matrix] @ x, dtype)
        elif traced:
            result[name] = np.zeros(0, dtype)
    return result


def _leaves(value):
    from .. import tree
    return tree.leaves(value, is_special)


def _as_array(value):
    """A list (of numbers, or holding traced ones) as one array; arrays and Tensors as
    given."""
    if isinstance(value, (list, tuple)):
        return fnp.asarray(value)
    return value


def _refuse_traced_bounds(bounds):
    leaves = [bounds.lb, bounds.ub] if hasattr(bounds, "lb") else [bounds]
    if any(isinstance(leaf, Tracer) or is_special(leaf)
           for value in leaves for leaf in _leaves(value)):
        raise TypeError("linprog: bounds hold a traced value; funcgrad differentiates the "
                        "solution in c, A_ub, b_ub, A_eq and b_eq only. Pass bounds as "
                        "plain numbers (a bound that should carry a derivative can be "
                        "written as a row of A_ub and b_ub)")


def _result_dtype(values):
    """float32 for float32 data, else float64 (as SciPy's)."""
    kinds = [np.dtype(v.dtype) if hasattr(v, "dtype") else np.asarray(v).dtype
             for v in values if v is not None]
    dtype = np.result_type(np.float32, *kinds)
    return np.dtype(np.float32) if dtype == np.float32 else np.dtype(np.float64)


def _cast(result, dtype):
    if dtype == np.float64 or result.x is None:
        return result
    for name in ("x", "slack", "con"):
        result[name] = np.asarray(result[name], dtype)
    result.fun = dtype.type(result.fun)
    return result


def _active_rows(result, values, n):
    """The indices, among the rows of ``[A_ub; A_eq; I]``, of the ``n`` constraints active
    at SciPy's vertex, after the checks that the vertex has a derivative."""
    if result.status != 0:
        raise ValueError(
            f"linprog: a derivative was asked, but the problem was not solved to optimality "
            f"({result.message}): there is no optimal vertex to differentiate. Fix the "
            f"problem (or raise options' limits), or pass fg.stop_gradient(...) for the data")
    x = np.asarray(result.x, float)
    a_ub = np.zeros((0, n)) if values["A_ub"] is None else np.asarray(values["A_ub"], float)
    b_ub = np.zeros(0) if values["b_ub"] is None else np.ravel(np.asarray(values["b_ub"], float))
    m_eq = 0 if values["A_eq"] is None else np.shape(values["A_eq"])[0]
    cost = np.ravel(np.asarray(values["c"], float))
    # (a slack counts as zero relative to the sizes of the terms it is the difference of)
    scale_ub = 1.0 + np.abs(b_ub) + np.abs(a_ub) @ np.abs(x)
    active_ub = np.asarray(result.slack) <= _ZERO * scale_ub
    lower = np.asarray(result.lower.residual) <= _ZERO * (1.0 + np.abs(x))
    upper = (np.asarray(result.upper.residual) <= _ZERO * (1.0 + np.abs(x))) & ~lower
    fixed = lower & (np.asarray(result.upper.residual) <= _ZERO * (1.0 + np.abs(x)))
    count = int(active_ub.sum()) + m_eq + int(lower.sum()) + int(upper.sum())
    dual_scale = _ZERO * (1.0 + np.max(np.abs(cost), initial=0.0))
    weak = (active_ub & (np.abs(np.asarray(result.ineqlin.marginals)) <= dual_scale)).any() or (
        lower & ~fixed & (np.abs(np.asarray(result.lower.marginals)) <= dual_scale)).any() or (
        upper & (np.abs(np.asarray(result.upper.marginals)) <= dual_scale)).any()
    if count > n or weak:
        why = (f"{count} constraints are active for {n} unknowns" if count > n else
               "an active inequality or bound has a zero multiplier (the optimum is not "
               "unique, or a neighbouring vertex is as good)")
        raise ValueError(
            f"linprog: the optimal vertex is degenerate ({why}): which constraints stay "
            f"active depends on the direction the data move, so x has one-sided "
            f"derivatives only. Perturb the problem (remove redundant constraints, break "
            f"ties in c), or pass fg.stop_gradient(...) for the data if no derivative "
            f"should flow through the solution")
    rows = np.concatenate([np.flatnonzero(active_ub), a_ub.shape[0] + np.arange(m_eq),
                           a_ub.shape[0] + m_eq + np.flatnonzero(lower | upper)])
    eye = np.eye(n)
    system = np.concatenate([a_ub, np.zeros((m_eq, n)) if m_eq == 0 else
                             np.asarray(values["A_eq"], float), eye])[rows]
    if count < n or np.linalg.cond(system) * np.finfo(float).eps >= 1e-3:
        raise ValueError(
            f"linprog: the solution is not an isolated vertex (its {count} active "
            f"constraints do not determine the {n} unknowns): the optimum is a face along "
            f"which x is not unique, so it has no derivative. Make the optimum unique "
            f"(perturb c), or pass fg.stop_gradient(...) for the data")
    return rows.astype(np.int64)


def _solve_traced(solve, plain_data, traced, n, dtype, wanted):
    """``(result, x, rows)`` with SciPy called through ``pure_callback`` (under vmap/jit)."""
    import scipy.optimize as optimize

    def host(*arrays):
        values = dict(plain_data)
        values.update(zip(traced, arrays))
        result, rows = solve(values)
        x = np.zeros(n) if result.x is None else result.x
        return (np.asarray(x, dtype), np.asarray(result.success, np.bool_),
                np.asarray(result.status, np.int64), np.asarray(result.nit, np.int64),
                np.zeros(n, np.int64) if rows is None else rows)

    like = (np.zeros(n, dtype), np.zeros((), np.bool_), np.zeros((), np.int64),
            np.zeros((), np.int64), np.zeros(n, np.int64))
    x, success, status, nit, rows = pure_callback(host, like,
                                                  *[plain_data[k] for k in traced],
                                                  vmap_method="sequential")
    result = optimize.OptimizeResult(x=x, success=success, status=status, nit=nit)
    return result, x, rows if wanted else None


def _differentiable_x(data, rows, x_plain, dtype):
    """SciPy's ``x`` with the derivative of the active system ``G[rows] x = h[rows]``."""
    c = fnp.ravel(fnp.astype(fnp.asarray(data["c"]), dtype))
    n = c.shape[0]
    matrices = [data["A_ub"], data["A_eq"]]
    rhs = [data["b_ub"], data["b_eq"]]
    parts = [fnp.astype(fnp.asarray(m), dtype) for m in matrices if m is not None]
    rights = [fnp.ravel(fnp.astype(fnp.asarray(b), dtype)) for b in rhs if b is not None]
    # the bounds' rows: x_i = its bound, which is SciPy's x_i there (bounds are constants)
    parts.append(fnp.eye(n, dtype=dtype))
    rights.append(fnp.asarray(x_plain, dtype=dtype))
    system = fnp.take(fnp.concatenate(parts, axis=0), rows, axis=0)
    h = fnp.take(fnp.concatenate(rights), rows)
    solved = fnp.linalg.solve(system, h)
    # SciPy's values, the derivative of the solve (the two agree to rounding)
    return x_plain + (solved - stop_gradient(solved))

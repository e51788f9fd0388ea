"""``funcgrad.scipy.optimize.milp`` and ``quadratic_assignment``: SciPy's answers to
discrete problems, with the one derivative they have.

A mixed-integer program's solution jumps from one point to another as the data move, so
``x`` has no derivative; its optimal value ``fun(c) = min c @ x`` over a fixed feasible
set is a minimum of linear functions of ``c``, whose derivative is the minimizer ``x*``
(Danskin's theorem, where ``x*`` is unique).  The constraints and bounds move the feasible
set of integer points discontinuously: no derivative there.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..callback import pure_callback
from ..core import Tracer, is_special
from ._implicit_root import plain, wants_derivative

__all__ = ["milp", "quadratic_assignment"]


def _traced_leaves(value):
    """The leaves of ``value`` (a LinearConstraint's, a Bounds' too) that are traced."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _traced_leaves(item)]
    parts = [getattr(value, k) for k in ("A", "lb", "ub") if hasattr(value, k)] or [value]
    return [leaf for part in parts for leaf in tree.leaves(part, is_special)
            if isinstance(leaf, Tracer) or is_special(leaf)]


def milp(c: Any, *, integrality: Any = None, bounds: Any = None, constraints: Any = None,
         options: Any = None) -> Any:
    """Minimize ``c @ x`` over integer and continuous ``x`` under linear constraints, with
    ``scipy.optimize.milp`` (HiGHS's branch and cut).

    SciPy's signature and ``OptimizeResult`` (``x``, ``fun``, ``status``, ``message``,
    ``success``, ``mip_node_count``, ``mip_dual_bound``, ``mip_gap``).

    **Differentiable**: ``fun`` in ``c``, with derivative ``x`` (the optimal value is the
    least of the linear functions ``c @ x`` over the feasible points: Danskin's theorem).
    ``x`` is piecewise constant in ``c`` (it jumps between feasible points): it is
    returned as a constant, with derivative zero where it does not jump, as ``round``'s;
    where two points tie, ``fun`` has a kink and its derivative is the ``x`` HiGHS
    returned (a subgradient, as ``max``'s). A derivative asked of a problem that was not
    solved raises. ``integrality``,
    ``bounds`` and ``constraints`` move the feasible set discontinuously: traced values
    there raise. Under ``vmap`` or ``jit`` (``c`` traced) SciPy runs through
    ``fg.pure_callback`` and the result holds ``x``, ``fun``, ``status`` and ``success``.

    >>> import numpy as np, funcgrad as fg
    >>> from scipy.optimize import LinearConstraint
    >>> from funcgrad.scipy.optimize import milp
    >>> c = -np.array([0.0, 1.0])                     # SciPy's example
    >>> A = np.array([[-1, 1], [3, 2], [2, 3]])
    >>> constraint = LinearConstraint(A, -np.inf, [1, 12, 12])
    >>> res = milp(c, constraints=constraint, integrality=np.ones(2))
    >>> res.x, float(res.fun)
    (array([1., 2.]), -2.0)
    >>> fg.grad(lambda c: milp(c, constraints=constraint, integrality=np.ones(2)).fun)(c)
    array([1., 2.])
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    for label, value in (("integrality", integrality), ("bounds", bounds),
                         ("constraints", constraints)):
        if _traced_leaves(value):
            raise TypeError(
                f"milp: {label} holds a traced value, but the set of feasible integer points "
                f"moves discontinuously with it, so the solution has no derivative there. "
                f"Pass {label} as plain numbers (fun is differentiable in c)")
    if isinstance(c, (list, tuple)) and any(isinstance(v, Tracer) or is_special(v)
                                            for v in tree.leaves(c, is_special)):
        c = fnp.stack([fnp.asarray(v) for v in c])
    wanted = wants_derivative(c)
    c_values = plain(c, "milp")

    def solve(cost):
        result = optimize.milp(np.asarray(cost, float), integrality=integrality,
                               bounds=bounds, constraints=constraints, options=options)
        if wanted and result.x is None:
            raise ValueError(f"milp: a derivative in c was asked, but the problem was not "
                             f"solved ({result.message}): there is no optimal value to "
                             f"differentiate. Fix the problem, or pass fg.stop_gradient(c)")
        return result

    n = int(np.size(c_values))
    if not isinstance(c_values, Tracer):
        result = solve(c_values)
        if not wanted:
            return result
        x_plain = np.asarray(result.x)
    else:
        def host(cost):
            result = solve(cost)
            x = np.full(n, np.nan) if result.x is None else np.asarray(result.x, float)
            fun = np.nan if result.fun is None else float(result.fun)
            return (x, np.asarray(fun), np.asarray(result.status, np.int64),
                    np.asarray(result.success, np.bool_))

        like = (np.zeros(n), np.zeros(()), np.zeros((), np.int64), np.zeros((), np.bool_))
        x_plain, fun, status, success = pure_callback(host, like, c_values,
                                                      vmap_method="sequential")
        result = optimize.OptimizeResult(x=x_plain, fun=fun, status=status, success=success)
        if not wanted:
            return result
    result.fun = fnp.sum(fnp.ravel(fnp.asarray(c)) * x_plain)
    result.x = x_plain
    return result


def quadratic_assignment(A: Any, B: Any, method: str = "faq", options: Any = None) -> Any:
    """SciPy's approximate solution of the quadratic assignment (or graph matching)
    problem, ``scipy.optimize.quadratic_assignment``: the permutation ``col_ind`` that
    minimizes (or with ``options={"maximize": True}`` maximizes) ``trace(A.T P B P.T)``.

    SciPy's signature and ``OptimizeResult`` (``col_ind``, ``fun``, ``nit``). The answer is
    a permutation found by a search on the values: ``A`` and ``B`` must be plain numbers,
    and traced ones (``grad``, ``vmap``, ``jit``...) raise.

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import quadratic_assignment
    >>> A = np.array([[0, 5, 8, 6], [5, 0, 5, 1], [8, 5, 0, 2], [6, 1, 2, 0]])
    >>> B = np.array([[0, 1, 8, 4], [1, 0, 5, 2], [8, 5, 0, 5], [4, 2, 5, 0]])
    >>> res = quadratic_assignment(A, B)              # SciPy's example
    >>> res.col_ind, int(res.fun)
    (array([1, 0, 3, 2]), 178)
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    values = []
    for label, value in (("A", A), ("B", B)):
        carries = wants_derivative(value)
        value = plain(value, "quadratic_assignment")
        if carries or isinstance(value, Tracer):
            raise TypeError(
                f"quadratic_assignment: {label} is traced ({'it carries a derivative' if carries else 'under vmap or jit'}), "
                f"but the assignment is a permutation found by a search on concrete values, "
                f"with no derivative. Call it on plain arrays, outside vmap and jit; the "
                f"cost of the permutation it returns, np.sum(A * B[np.ix_(col_ind, "
                f"col_ind)]), can then be differentiated in A and B")
        values.append(value)
    A, B = values
    return optimize.quadratic_assignment(A, B, method=method, options=options)

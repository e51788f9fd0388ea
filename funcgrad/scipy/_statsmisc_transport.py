"""``wasserstein_distance_nd`` of :mod:`funcgrad.scipy.stats` (re-exported there): the
first Wasserstein distance between two empirical distributions of points, by the linear
program of optimal transport, as SciPy's.

The program (HiGHS, through ``scipy.optimize.linprog``) is solved on the values, for an
optimal plan ``P`` (how much mass moves from each ``u_i`` to each ``v_j``) and its dual
potentials ``(f, g)``.  The distance is ``sum P_ij |u_i - v_j|``, and by the envelope
theorem its derivative is that of the costs at the fixed plan (in the points) and the
potentials (in the normalized weights), wherever those are unique.  Where they are not,
the distance has a kink and only one-sided derivatives exist, so asking for a derivative
raises rather than return one of them: in the points when another plan is as cheap (a
second small program checks) or a moved pair of points coincide (the distance's own
kink at 0); in the weights when the plan is degenerate (fewer than ``m + n - 1`` pairs
move mass: equal weights on equally many points always are, the assignment problem).
One-dimensional values are :func:`wasserstein_distance`'s (the CDFs' L1 distance), as in
SciPy.
"""
from typing import Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..primitives.structural import stop_gradient
from ..typing import Array, ArrayLike
from ._implicit_root import wants_derivative
from ._statsresample_moments import wasserstein_distance
from ._statsresample_quantile import values_of

__all__ = ["wasserstein_distance_nd"]

# (a plan entry or reduced cost this small, relative to the problem's scale, counts as 0)
_ZERO = 1e-9


def _points(name, values):
    values = asarray(values)
    if values.dtype.kind in "biu":
        values = fnp.astype(values, np.float64)
    elif values.dtype.kind != "f":
        raise TypeError(f"{name}: the values must be real numbers, got dtype {values.dtype}")
    return values


def _weights(name, weights, m, dtype):
    if weights is None:
        return None
    weights = asarray(weights)
    if weights.shape != (m,):
        raise ValueError(f"{name}: the weights must hold one number per point ({m}), got "
                         f"shape {tuple(weights.shape)}")
    w = values_of(weights)
    if np.any(w < 0) or not 0 < np.sum(w) < np.inf:
        raise ValueError(f"{name}: the weights must be non-negative with a positive, finite "
                         f"sum (None for equal weights)")
    return fnp.astype(weights, dtype) if weights.dtype != dtype else weights


def _transport(cost, p_u, p_v):
    """An optimal plan and the potentials of SciPy's program (HiGHS)."""
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, eye, hstack, kron, vstack
    m, n = cost.shape
    rows = kron(eye(m), csr_matrix(np.ones((1, n))))   # (sum_j P_ij = p_u[i])
    cols = hstack([eye(n)] * m)         # (sum_i P_ij = p_v[j])
    a_eq = vstack([rows, cols]).tocsr()
    b_eq = np.concatenate([p_u, p_v])
    result = linprog(cost.ravel(), A_eq=a_eq, b_eq=b_eq, bounds=(0, None), method="highs")
    if result.status != 0:
        raise RuntimeError(f"wasserstein_distance_nd: the transport program was not "
                           f"solved ({result.message})")
    return result.x.reshape(m, n), result.eqlin.marginals, a_eq, b_eq, result.fun


def _another_plan(cost, plan, a_eq, b_eq, best):
    """Whether a plan as cheap as ``plan`` moves mass where ``plan`` moves none: the
    largest such mass among the optimal plans (a second program), against 0."""
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix
    scale = max(1.0, float(np.abs(cost).max()))
    idle = (plan.ravel() <= _ZERO).astype(np.float64)
    result = linprog(-idle, A_ub=csr_matrix(cost.ravel()[None, :]),
                     b_ub=[best + _ZERO * scale], A_eq=a_eq, b_eq=b_eq,
                     bounds=(0, None), method="highs")
    return result.status == 0 and -result.fun > 1e3 * _ZERO


def wasserstein_distance_nd(u_values: ArrayLike, v_values: ArrayLike,
                            u_weights: Optional[ArrayLike] = None,
                            v_weights: Optional[ArrayLike] = None) -> Array:
    """The first Wasserstein (earth mover's) distance between the empirical distributions
    of the points ``u_values`` (``m`` rows) and ``v_values`` (``n`` rows, as many columns),
    optionally weighted, with Euclidean ground distance, as
    ``scipy.stats.wasserstein_distance_nd``: the cheapest transport of one onto the
    other, by a linear program.  Differentiable in the points and the weights through the
    optimal plan and potentials (see the module's notes: where the distance has a kink,
    asking for a derivative raises).  1-d values give :func:`wasserstein_distance`.

    >>> import numpy as np, funcgrad as fg
    >>> u = np.array([[0.0, 0.0], [1.0, 0.0]])
    >>> v = np.array([[0.0, 1.0], [1.0, 2.0], [3.0, 0.5]])
    >>> round(float(wasserstein_distance_nd(u, v)), 10)
    1.7265289339
    >>> g = fg.grad(wasserstein_distance_nd)(u, v)   # how moving each point of u moves it
    """
    name = "wasserstein_distance_nd"
    u, v = _points(name, u_values), _points(name, v_values)
    if u.ndim > 2 or v.ndim > 2 or u.ndim != v.ndim or u.ndim == 0:
        raise ValueError(f"{name}: the values must both be 1-d, or both 2-d (one point a "
                         f"row), got shapes {tuple(u.shape)} and {tuple(v.shape)}")
    if u.ndim == 1:
        return wasserstein_distance(u, v, u_weights, v_weights)
    if u.shape[1] != v.shape[1]:
        raise ValueError(f"{name}: the points must have as many coordinates (columns), got "
                         f"{u.shape[1]} and {v.shape[1]}")
    if u.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError(f"{name}: each distribution needs at least one point")
    dtype = np.result_type(u.dtype, v.dtype)
    u, v = fnp.astype(u, dtype), fnp.astype(v, dtype)
    m, n = u.shape[0], v.shape[0]
    wu, wv = _weights(name, u_weights, m, dtype), _weights(name, v_weights, n, dtype)
    u_plain, v_plain = values_of(u), values_of(v)
    inf_u, inf_v = np.isinf(u_plain).any(), np.isinf(v_plain).any()
    if inf_u or inf_v:  # (SciPy's answer: one side at infinity is infinitely far)
        return fnp.asarray(np.array(np.nan if inf_u and inf_v else np.inf, dtype))[()]
    p_u = fnp.full((m,), 1.0 / m, dtype=dtype) if wu is None else wu / fnp.sum(wu)
    p_v = fnp.full((n,), 1.0 / n, dtype=dtype) if wv is None else wv / fnp.sum(wv)
    difference = u[:, None, :] - v[None, :, :]
    squared = fnp.sum(fnp.square(difference), axis=-1)
    cost_plain = np.sqrt(values_of(squared).astype(np.float64))
    plan, potentials, a_eq, b_eq, best = _transport(
        cost_plain, values_of(p_u).astype(np.float64), values_of(p_v).astype(np.float64))
    moving = plan > _ZERO
    if wants_derivative(u) or wants_derivative(v):
        if np.any(moving & (cost_plain == 0.0)):
            raise ValueError(f"{name}: a point of u and one of v that exchange mass "
                             f"coincide, where the distance |u_i - v_j| has a kink: no "
                             f"derivative in the points there (pass "
                             f"fg.stop_gradient(...) for them, or move them apart)")
        if _another_plan(cost_plain, plan, a_eq, b_eq, best):
            raise ValueError(f"{name}: the optimal transport plan is not unique here (two "
                             f"plans cost the same), so the distance has a kink in the "
                             f"points: only one-sided derivatives exist; pass "
                             f"fg.stop_gradient(...) for the points")
    weighted = wants_derivative(wu) or wants_derivative(wv)
    if weighted and np.count_nonzero(moving) < m + n - 1:
        raise ValueError(f"{name}: the optimal plan is degenerate (mass moves between "
                         f"{np.count_nonzero(moving)} pairs, fewer than m + n - 1 = "
                         f"{m + n - 1}), so the potentials are not unique and the distance "
                         f"has a kink in the weights: only one-sided derivatives exist; "
                         f"pass fg.stop_gradient(...) for the weights")
    zero = fnp.stop_gradient(fnp.equal(squared, 0.0))
    distance = fnp.where(zero, 0.0, fnp.sqrt(fnp.where(zero, 1.0, squared)))
    out = fnp.sum(plan.astype(dtype) * distance)
    if weighted:  # (the potentials price the marginals: the value's slope in them)
        f, g = potentials[:m].astype(dtype), potentials[m:].astype(dtype)
        out = out + fnp.sum(f * (p_u - stop_gradient(p_u))) + fnp.sum(
            g * (p_v - stop_gradient(p_v)))
    return out

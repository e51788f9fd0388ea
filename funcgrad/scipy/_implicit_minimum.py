"""The derivative of a minimizer in the parameters of its objective, for
``funcgrad.scipy.optimize.minimize`` and ``least_squares``: the root of the objective's
gradient, differentiated by :mod:`._implicit_root`.

At an unconstrained minimum ``x*(theta)`` of ``f(x, theta)`` the gradient in ``x`` is zero
for every ``theta`` nearby, so ``H dx* = -(d2f / dx dtheta) dtheta`` with ``H`` the Hessian
of ``f`` in ``x`` at ``x*``.

Bounds: a coordinate a bound holds at the optimum, the gradient pressing it there (its
KKT multiplier clearly above zero), stays on it while ``theta`` moves a little, so the
root solved is ``x_i - bound_i`` in those coordinates and the gradient in the others (the
KKT conditions of a box); a coordinate on its bound with no such pressure has one-sided
derivatives only, and raises.  General constraints are refused (their KKT system, with
the multipliers, is not implemented).
"""
import math

import numpy as np

from .. import numpy as fnp
from ..api import grad
from ._implicit_root import differentiable_root, refuse_failed

__all__ = ["differentiable_minimum", "check_optimum"]


def differentiable_minimum(fun, x_star, unravel, args, held=None, name="minimize",
                           objective="fun"):
    """``x_star`` (the flat minimizer of ``fun(unravel(x), *args)``) with the derivatives
    the implicit function theorem gives it in ``args`` (and in values ``fun`` closes
    over).  ``held``: ``(mask, pinned)``, the coordinates bounds hold at ``x_star`` and
    their bounds' values, or None; ``name`` and ``objective``: the solver's and what
    ``fun`` is called, for errors."""
    def stationarity(x):
        gradient = grad(lambda z: fun(unravel(z), *args))(x)
        if held is None:
            return gradient
        # the KKT conditions of a box: zero gradient in the free coordinates, the held
        # ones on their (constant) bounds, so their derivative is zero
        mask, pinned = held
        return fnp.where(mask, x - pinned, gradient)

    return differentiable_root(stationarity, x_star, lambda what: (
        f"{name}: the Hessian of {objective} in x at the optimum {what}, so the optimum's "
        f"derivative in args (H^-1 times the mixed derivative, by the implicit function "
        f"theorem) does not exist: the minimum is not isolated ({objective} is flat along "
        f"some direction of x) or it is not twice differentiable there. Make the minimum "
        f"unique (a small ridge term eps * sum(x**2) in {objective}, say), or "
        f"pass fg.stop_gradient(args) if no derivative should flow through the optimum"))


def check_optimum(result, bounds, value_and_gradient, name="minimize"):
    """Raise where ``result`` (SciPy's, on the flat x) has no derivative the implicit rule
    gives; else ``(held, pinned)``: the mask of the coordinates a bound holds at the
    optimum and those bounds' values (None without ``bounds``).
    ``value_and_gradient``: of the objective, on the flat x."""
    if not result.success:
        raise refuse_failed(name, result.message)
    if bounds is None:
        return None
    x = np.asarray(result.x)
    lower, upper = _bound_arrays(bounds, x.size)
    eps = np.finfo(float).eps
    # (interior-point methods, trust-constr's, stop near a bound rather than on it)
    near = lambda b: np.isfinite(b) & (np.abs(x - b) <= math.sqrt(eps)  # noqa: E731
                                       * np.maximum(1.0, np.abs(b)))
    at_lower = near(lower)
    at_upper = near(upper) & ~at_lower
    held = at_lower | at_upper
    if not held.any():
        return held, np.zeros_like(x)
    value, gradient = (np.asarray(v, dtype=float) for v in value_and_gradient(x))
    # A held coordinate stays on its bound while theta moves a little only when the
    # gradient presses it there (strict complementarity: a multiplier clearly above
    # zero); one that is zero to the search's accuracy (the gradient left on the free
    # coordinates) could leave the bound either way: no derivative, only one-sided ones.
    push = np.where(at_lower, gradient, -gradient)
    noise = np.max(np.abs(gradient[~held]), initial=0.0)
    weak = np.flatnonzero(held & (push <= max(math.sqrt(eps) * max(1.0, abs(float(value))),
                                               1e3 * noise)))
    if weak.size:
        raise ValueError(
            f"{name}: the optimum lies on a bound (raveled x index "
            f"{', '.join(map(str, weak[:8].tolist()))}{'...' if weak.size > 8 else ''}) "
            f"where the gradient does not press against it (its multiplier is zero to the "
            f"search's accuracy): the optimum there moves off the bound for some changes of "
            f"args and stays for others, so it has one-sided derivatives only. Move the "
            f"bound, tighten tol if the gradient should press on it, or pass "
            f"fg.stop_gradient(args) if no derivative should flow through the result")
    pinned = np.where(at_lower, lower, np.where(at_upper, upper, 0.0))
    return held, pinned.astype(x.dtype)


def _bound_arrays(bounds, n):
    """``(lower, upper)`` float arrays of length ``n`` from a ``Bounds`` or SciPy's
    sequence of ``(min, max)`` pairs (None: no bound)."""
    if hasattr(bounds, "lb"):
        return (np.broadcast_to(np.asarray(bounds.lb, dtype=float), (n,)),
                np.broadcast_to(np.asarray(bounds.ub, dtype=float), (n,)))
    pairs = [(-np.inf if lo is None else lo, np.inf if hi is None else hi)
             for lo, hi in bounds]
    return (np.asarray([lo for lo, _ in pairs], dtype=float),
            np.asarray([hi for _, hi in pairs], dtype=float))

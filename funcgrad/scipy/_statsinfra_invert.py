"""The inverse of a distribution's CDF where no formula gives it (SciPy finds it by a
bracketing root search too): a search on plain values, safeguarded Newton steps
inside a bracket that otherwise shrinks by bisection (in the logarithm of ``|x|`` while
it spans orders of magnitude); the answer differentiated implicitly (``dx = -(dF/dtheta dtheta - dp) / pdf``),
to any order through ``custom_root``, never through the search."""
import numpy as np

from .. import numpy as fnp
from ..lax import custom_root
from ..numpy._convert import concrete_values
from ..primitives.structural import stop_gradient
from ._implicit_root import wants_derivative

_TINY = np.finfo(np.float64).tiny


def _plain(value):
    return np.asarray(concrete_values(
        stop_gradient(fnp.asarray(value)), "a distribution's numerical inverse CDF",
        "Give the family an _icdf_formula, or call it outside vmap and jit."), dtype=float)


def _middle(lo, hi):
    """Each bracket's next point: 0 across it, the geometric mean while it spans more
    than a factor of 2 on one side of 0, else the midpoint."""
    across = (lo < 0) & (hi > 0)
    positive = lo >= 0
    small, big = np.where(positive, np.maximum(lo, _TINY), np.maximum(-hi, _TINY)), \
        np.where(positive, hi, -lo)
    with np.errstate(divide="ignore", invalid="ignore"):
        geometric = np.exp(0.5 * (np.log(small) + np.log(big)))
    geometric = np.where(positive, geometric, -geometric)
    wide = big > 2 * small
    return np.where(across, 0.0, np.where(wide, geometric, lo / 2 + hi / 2))


def invert(increasing, density, p, support, params_traced):
    """``x`` with ``increasing(x) == p`` (a CDF, or minus a CCDF with ``p`` negated) in
    ``support = (a, b)``; ``density(x)`` its derivative in ``x``.  ``increasing`` and
    ``density`` take traced ``x`` and close over the (possibly traced) parameters."""
    target = _plain(p)
    a, b = (_plain(e) for e in support)
    shape = np.broadcast_shapes(target.shape, a.shape, b.shape)
    target, a, b = (np.broadcast_to(v, shape) for v in (target, a, b))

    def g(x):
        return _plain(increasing(x)) - target

    lo = np.where(np.isfinite(a), a, np.minimum(-1.0, np.where(np.isfinite(b), b - 1, -1.0)))
    hi = np.where(np.isfinite(b), b, np.maximum(1.0, lo + 1.0))
    for _ in range(1100):  # (doubling outwards: the bracket of an unbounded support)
        low_short = ~np.isfinite(a) & (g(lo) > 0)
        high_short = ~np.isfinite(b) & (g(hi) < 0)
        if not (low_short.any() or high_short.any()):
            break
        lo = np.where(low_short, 2 * lo - 1.0, lo)
        hi = np.where(high_short, 2 * hi + 1.0, hi)
    # safeguarded Newton: its step where it stays inside the bracket and at least halves
    # the last one, else the bracket's next point (rtsafe's rule, elementwise)
    x, last = _middle(lo, hi), np.abs(hi - lo)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for _ in range(300):
            gx = g(x)
            below = gx <= 0
            lo, hi = np.where(below, x, lo), np.where(below, hi, x)
            step = gx / _plain(density(x))
            newton = x - step
            take = (np.isfinite(newton) & (newton >= lo) & (newton <= hi)
                    & (np.abs(step) <= 0.5 * last))
            following = np.where(take, newton, _middle(lo, hi))
            last = np.where(take, np.abs(step), np.abs(hi - lo))
            settled = (following == x) | (hi <= np.nextafter(lo, np.inf)) | (gx == 0)
            x = np.where(gx == 0, x, following)
            if np.all(settled | np.isnan(x)):
                break
    x = np.where(np.isnan(target), np.nan, x)
    if not (params_traced or wants_derivative(p)):
        return x

    def residual(y):
        return increasing(y) - p

    def tangent_solve(linear, rhs):  # (elementwise: the Jacobian is diagonal)
        return rhs / linear(fnp.ones_like(rhs))

    return custom_root(residual, x, lambda f, guess: x, tangent_solve)

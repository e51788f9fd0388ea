"""The weighted sample quantile of ``scipy.stats.quantile(..., weights=)`` (SciPy 1.17).

SciPy's definition: with the observations sorted and ``c`` the cumulative weights,
``jg = p W + m`` (``W`` the total weight, ``m`` the method's offset), ``j`` and ``j + 1``
the counts of ``c`` at most ``jg - 1`` and ``jg``, and ``g = jg mod 1``; the quantile is
``(1 - g) y[j] + g y[j+1]``.  Between the points where ``jg`` or ``jg - 1`` crosses a
cumulative weight or ``jg`` an integer, the indices are fixed and the quantile is smooth
in ``x``, ``p`` and the weights (through ``W`` and ``g``).  At those points it jumps for
weights that are not counting numbers (and a weight of 0 is the edge of where an
observation counts), so a derivative asked there raises instead of being one side's.
"""
import numpy as np

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..numpy._convert import concrete_values
from ..primitives.structural import stop_gradient

_STEPS = {"inverted_cdf": 0.0, "averaged_inverted_cdf": 0.0, "closest_observation": -0.5}
_OFFSETS = {"interpolated_inverted_cdf": lambda p: 0.0 * p, "hazen": lambda p: 0.5 + 0.0 * p,
            "weibull": lambda p: p, "linear": lambda p: 1.0 - p,
            "median_unbiased": lambda p: p / 3.0 + 1.0 / 3.0,
            "normal_unbiased": lambda p: p / 4.0 + 3.0 / 8.0}


def _values(v):
    return np.asarray(concrete_values(stop_gradient(v), "quantile's weighted order "
                                      "statistics", "call it outside jit and vmap"))


def _traced(v):
    return isinstance(v, Tracer) or (is_special(v) and getattr(v, "requires_grad", False))


def weighted_quantiles(y, p, w, n, method, any_zero, ignored):
    """The ``p`` quantiles (``batch + (k,)``) of rows ``y`` sorted with their weights
    ``w`` (the first ``n`` of each row count); ``ignored`` marks outputs made NaN later."""
    cw = fnp.cumsum(w, axis=-1)
    last = (np.broadcast_to(np.asarray(n, np.int64), cw.shape[:-1] + (1,)) - 1)
    total = fnp.take_along_axis(cw, np.maximum(last, 0), axis=-1)
    m = _STEPS[method] if method in _STEPS else _OFFSETS[method](p)
    jg = p * total + m
    jgv, cwv = _values(jg), _values(cw)
    # (searchsorted(c, v, 'right') of every row: how many cumulative weights are <= v)
    counted = np.arange(cw.shape[-1]) < np.asarray(n)  # (the weights that count)

    def count(v):
        return np.sum(cwv[..., None, :] <= v[..., :, None], axis=-1).astype(float)
    jp1, j = count(jgv), count(jgv - 1.0)
    if _traced(w) or _traced(p):
        at = cwv[..., None, :]
        on_c = ((at == jgv[..., :, None]) | (at == jgv[..., :, None] - 1.0)) & np.expand_dims(
            counted, -2)
        edge = (on_c.any(-1) | (jgv == np.floor(jgv))) & ~np.asarray(ignored)
        if edge.any() or (_traced(w) and any_zero):
            raise ValueError(
                "quantile: the weighted quantile is not differentiable here: "
                + ("a weight is 0 (the edge of where its observation counts)"
                   if not edge.any() else "p * sum(weights) + m lands on an integer or a "
                   "cumulative weight, where SciPy's definition can jump")
                + "; move p or the weights off it, or stop_gradient the weights")
    g = jg - np.floor(jgv)
    if method in _STEPS:
        gv = jgv - np.floor(jgv)
        if method == "inverted_cdf":
            step = (gv > 0).astype(float)
        elif method == "averaged_inverted_cdf":
            step = (1.0 + (gv > 0)) / 2.0
        else:
            step = 1.0 - ((gv == 0) & (j % 2 == 1))
        g = np.where(jgv < 0, 0.0, step)
    g = fnp.where(j < 0, 0.0 * g, g)
    top = np.asarray(n, float) - 1.0
    low = np.clip(j, 0.0, top).astype(np.int64)
    high = np.clip(jp1, 0.0, top).astype(np.int64)
    return ((1.0 - g) * fnp.take_along_axis(y, low, axis=-1)
            + g * fnp.take_along_axis(y, high, axis=-1))

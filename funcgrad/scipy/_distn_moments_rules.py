"""The generic moments of a univariate distribution, for the families without closed
forms: central moments of the standardized distribution by a double-exponential
quadrature of its density (continuous) or a sum of its masses over a window of the support
(discrete), both written with funcgrad's array operations, so that they differentiate in the
shape parameters like the densities themselves.

The quadrature splits the support ``[a, b]`` at a centre ``m`` (the mean, else the median)
and maps each side onto ``(0, inf)``: ``x = m + w v / (1 + w v / (b - m))`` (``b`` infinite:
``x = m + w v``), with ``v = exp(pi/2 sinh t)`` on an even grid in ``t``, ``w`` the spread.
The trapezoidal rule in ``t`` then converges geometrically for a density analytic inside its
support, with algebraic singularities at the ends and algebraic or faster tails.  ``m`` and
``w`` are concrete (the integral does not depend on them); ``a`` and ``b`` are the traced
support ends, so a support that moves with a shape parameter moves the nodes with it, and
the derivative is the integral's.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..primitives.structural import stop_gradient
from ._distn_support import SHAPED_SUPPORTS, shaped_support

__all__ = ["support", "central", "raw"]

_INF = math.inf

# the double-exponential grid: t in [-4.5, 4.5] (v from 1e-31 to 4e30), step 1/24 (1/12
# left errors of 1e-6 in the normal distribution's kurtosis; 1/24 about 1e-13)
_T = np.arange(-108, 109) / 24.0
_V = np.exp(0.5 * math.pi * np.sinh(_T))
_DV = _V * 0.5 * math.pi * np.cosh(_T) / 24.0

# standardized supports that are constant (SciPy's a and b); the others below
_CONSTANT_SUPPORT = {
    "anglit": (-math.pi / 4, math.pi / 4), "cosine": (-math.pi, math.pi),
    "vonmises_line": (-math.pi, math.pi), "levy_l": (-_INF, 0.0), "weibull_max": (-_INF, 0.0),
    "pareto": (1.0, _INF), "rdist": (-1.0, 1.0), "semicircular": (-1.0, 1.0),
    "wrapcauchy": (0.0, 2 * math.pi),
}
for _name in ("arcsine", "argus", "beta", "bradford", "johnsonsb", "ksone", "powerlaw",
              "trapezoid", "triang", "uniform"):
    _CONSTANT_SUPPORT[_name] = (0.0, 1.0)
for _name in ("cauchy", "crystalball", "dgamma", "dweibull", "exponnorm", "genlogistic",
              "gennorm", "gumbel_l", "gumbel_r", "hypsecant", "jf_skew_t", "johnsonsu",
              "laplace", "laplace_asymmetric", "loggamma", "logistic", "moyal", "nct", "norm",
              "norminvgauss", "pearson3", "powernorm", "skewcauchy", "skewnorm", "t",
              "dlaplace", "skellam"):
    _CONSTANT_SUPPORT[_name] = (-_INF, _INF)
# (SciPy's vonmises has the whole line for its support, but its density is periodic: its
# moments, numerically, are those over one period, [-pi, pi])
_CONSTANT_SUPPORT["vonmises"] = (-math.pi, math.pi)
for _name in ("geom", "logser", "yulesimon", "zipf"):
    _CONSTANT_SUPPORT[_name] = (1.0, _INF)
del _name


def support(dist, shape):
    """``(a, b)``, the support of ``dist``'s standardized distribution at the shape
    parameters ``shape`` (traced where it moves with them)."""
    bounds = getattr(dist, "_bounds", None)
    if dist.name in SHAPED_SUPPORTS and bounds is None:  # (the ends rvs and support use)
        return shaped_support(dist.name, dist.shapes, shape)
    if bounds is not None:  # (a discrete one's, used by its quantiles)
        return bounds(*shape)
    edges = getattr(dist, "_edges", None)
    if edges is not None:  # (rv_histogram)
        return edges[0], edges[-1]
    if dist.name in _CONSTANT_SUPPORT:
        return _CONSTANT_SUPPORT[dist.name]
    return dist._standard_support(shape)  # (the ends rvs and support report: SciPy's a, b)


def _concrete(x, name):
    return np.asarray(concrete_values(stop_gradient(x), f"{name}'s numerical moments",
                                      "call stats/moment outside jit and vmap"), float)


def _centre_and_spread(dist, shape, a, b):
    """Concrete ``(m, w)``: the median and the interquartile range where the family has a
    quantile function, else the mean and the standard deviation where it states them, else
    the middle of a finite support and a quarter of it (``a < m < b`` always).  (The median
    first: a skewed family's bulk, fatiguelife's near 1 with its mean at 400, is where the
    rule should put its nodes.)"""
    plain = [stop_gradient(s) for s in shape]
    a_c, b_c = _concrete(a, dist.name), _concrete(b, dist.name)
    zero = np.zeros(np.broadcast(a_c, b_c, *[_concrete(s, dist.name) for s in shape]).shape)
    m = w = zero + np.nan

    def usable(m, w):
        return np.isfinite(m) & np.isfinite(w) & (w > 0) & (m > a_c) & (m < b_c)
    with np.errstate(all="ignore"):
        if getattr(dist, "_ppf", None) is not None:
            try:
                q = _concrete(dist._ppf(np.array([0.25, 0.5, 0.75]).reshape(
                    (3,) + (1,) * zero.ndim), *plain), dist.name)
                m, w = q[1] + zero, q[2] - q[0] + zero
            except (ArithmeticError, ValueError):  # (a quantile function that fails here)
                pass
        bad = ~usable(m, w)
        if bad.any() and getattr(dist, "_mean", None) is not None and getattr(
                dist, "_var", None) is not None:
            mean = _concrete(dist._mean(*plain), dist.name) + zero
            sd = np.sqrt(_concrete(dist._var(*plain), dist.name)) + zero
            m, w = np.where(bad, mean, m), np.where(bad, sd, w)
            bad = ~usable(m, w)
        finite = np.isfinite(a_c) & np.isfinite(b_c)
        m = np.where(bad, np.where(finite, 0.5 * (a_c + b_c), np.where(
            np.isfinite(a_c), a_c + 1.0, np.where(np.isfinite(b_c), b_c - 1.0, 0.0))), m)
        w = np.where(bad, np.where(finite, 0.25 * (b_c - a_c), 1.0), w)
    return m, w


def _central_from_sums(sums):
    """``(mean offset, [c2, c3, c4])`` from the sums ``M_j`` of ``p d**j`` (``d`` the
    distance from the centre): central moments about the mean ``m + M1/M0``."""
    m0 = sums[0]
    r1, r2, r3, r4 = (s / m0 for s in sums[1:])
    c2 = r2 - r1 * r1
    c3 = r3 - 3.0 * r1 * r2 + 2.0 * r1 ** 3
    c4 = r4 - 4.0 * r1 * r3 + 6.0 * r1 * r1 * r2 - 3.0 * r1 ** 4
    return r1, [c2, c3, c4]


def _raw_from_sums(m, sums, n):
    """``E[X**n] = sum_j C(n, j) m**(n-j) E[d**j]``, ``d = X - m``."""
    return sum(math.comb(n, j) * m ** (n - j) * (sums[j] / sums[0]) for j in range(n + 1))


def _sums(p, d, weight, order):
    return [fnp.sum(p * weight * d ** j, axis=-1) for j in range(order + 1)]


def _expanded(x):
    return fnp.expand_dims(fnp.asarray(x), -1) if getattr(x, "ndim", 0) else x


def _continuous_sums(dist, shape, order):
    """``(m, [M_0 ... M_order])``: the concrete centre and the sums of ``pdf(x) (x -
    m)**j dx`` over the support by the double-exponential rule of the module docstring."""
    a, b = support(dist, shape)
    m_c, w_c = _centre_and_spread(dist, shape, a, b)
    m, w = fnp.expand_dims(m_c, -1), fnp.expand_dims(w_c, -1)
    shape_n = [_expanded(s) for s in shape]
    a_n, b_n = _expanded(a), _expanded(b)
    sums = None
    for end, sign in ((b_n, 1.0), (a_n, -1.0)):
        room = (end - m) * sign  # (> 0; inf for an unbounded side)
        unbounded = fnp.isinf(room)
        inv = fnp.where(unbounded, 0.0, 1.0 / fnp.where(unbounded, 1.0, room))
        wv = w * _V
        grow = 1.0 / (1.0 + wv * inv)
        d = sign * wv * grow  # (the distance from m, exact near m)
        weight = w * _DV * grow * grow
        x = m + d
        inside = fnp.logical_and(fnp.greater(x, a_n), fnp.less(x, b_n))
        with np.errstate(all="ignore"):
            # (the nodes where the density underflows to 0, found on concrete values, are
            # left out before the traced evaluation: its slope there can be inf or NaN, as
            # exponpow's exp(x**b) overflowing, and 0 * NaN would poison the derivative)
            level = _concrete(dist._logpdf(stop_gradient(fnp.where(inside, x, m)), *[
                stop_gradient(s) for s in shape_n]), dist.name)
            inside = fnp.logical_and(inside, level > -740.0)
            safe = fnp.where(inside, x, m)
            p = fnp.where(inside, fnp.exp(dist._logpdf(safe, *shape_n)), 0.0)
        part = _sums(p, d, weight, order)
        sums = part if sums is None else [s + t for s, t in zip(sums, part)]
    return m_c, sums


# discrete families whose masses fall as a power of k (their moments of low order only)
_POWER_TAILS = ("yulesimon", "betanbinom", "zipf")


def _discrete_sums(dist, shape, order, width=40.0, limit=2_000_000):
    """``(m, [M_0 ... M_order])`` of a discrete ``dist``: the sums of ``pmf(k) (k - m)**j``
    over the support within ``width`` standard deviations of the centre ``m`` (plus 30
    points each side; the whole support where finite and smaller)."""
    a, b = support(dist, shape)
    m_c, w_c = _centre_and_spread(dist, shape, a, b)
    m_c = np.round(m_c)
    a_c, b_c = _concrete(a, dist.name), _concrete(b, dist.name)
    start = np.maximum(a_c, np.floor(m_c - width * w_c) - 30.0)
    stop = np.ceil(m_c + width * w_c) + 30.0
    if dist.name in _POWER_TAILS:  # (masses falling as a power of k: a long window)
        stop = np.maximum(stop, start + 200_000.0)
    stop = np.minimum(b_c, stop)
    count = int(np.max(stop - start)) + 1
    if count > limit:
        raise ValueError(f"{dist.name}: its moments here sum over {count} points of the "
                         f"support (more than {limit}); its spread is too wide for the "
                         f"numerical moments, try smaller shape parameters")
    k = fnp.expand_dims(start, -1) + np.arange(float(count))
    inside = fnp.less_equal(k, fnp.expand_dims(stop, -1))
    shape_n = [_expanded(s) for s in shape]
    with np.errstate(over="ignore", under="ignore"):
        p = fnp.where(inside, fnp.exp(dist._logpmf(fnp.where(inside, k, start[..., None]),
                                                   *shape_n)), 0.0)
    return m_c, _sums(p, k - fnp.expand_dims(m_c, -1), 1.0, order)


def _sums_of(dist, shape, order):
    from ._distn_moments_kinked import KINKED, kinked_sums
    if dist.name in KINKED:  # (densities with kinks: the integral split at them)
        return kinked_sums(dist, shape, order)
    if getattr(dist, "_logpmf", None) is not None:
        return _discrete_sums(dist, shape, order)
    return _continuous_sums(dist, shape, order)


def central(dist, shape):
    """``(mean, [c2, c3, c4])``: the mean and central moments of orders 2 to 4 of
    ``dist``'s standardized distribution, numerically (the module docstring)."""
    m, sums = _sums_of(dist, shape, 4)
    offset, moments = _central_from_sums(sums)
    return m + offset, moments


def raw(dist, shape, n):
    """``[E[X**0], ..., E[X**n]]`` of ``dist``'s standardized distribution (``n >= 0`` an
    integer), numerically (the module docstring)."""
    m, sums = _sums_of(dist, shape, n)
    return [_raw_from_sums(m, sums, k) for k in range(n + 1)]

"""``expect`` of the univariate distributions: the expectation of a function, as SciPy's,
differentiable in the distribution's parameters, ``loc``, ``scale`` and the bounds.

Continuous: the range ``[lb, ub]`` is split where SciPy splits it (the quantiles 5% and 95%
of the mass inside it), an infinite piece mapped onto ``[0, 1)`` by ``x = e + s u / (1 -
u)``; on each piece a 21-point Gauss-Kronrod rule bisects, on concrete values, the
subintervals whose error estimate is largest until the total meets ``epsabs``/``epsrel``
(or ``limit`` subintervals).  The integral is then the rule over that final partition, the
nodes mapped with the traced bounds and the integrand evaluated on traced values: its
derivative is the quadrature's over a fixed partition (Leibniz's rule for the bounds comes
with the mapping).  Discrete: SciPy's summation, chunk by chunk outwards from the median
until a chunk adds less than ``tolerance`` per term (or ``maxcount`` terms), on concrete
values; then one traced sum over the terms it took.
"""
import math
import warnings

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..primitives.structural import stop_gradient
from ._quadrature import _KRONROD_W, _KRONROD_X, _GAUSS_W

__all__ = ["expect_continuous", "expect_discrete"]

# the 21 Kronrod nodes on [0, 1] and their Kronrod and Gauss weights
_X = np.concatenate([-np.array(_KRONROD_X), np.array(_KRONROD_X[-2::-1])])
_U = 0.5 * (_X + 1.0)
_WK = 0.5 * np.concatenate([np.array(_KRONROD_W), np.array(_KRONROD_W[-2::-1])])
_WG = np.zeros(21)
_WG[1:10:2] = _GAUSS_W
_WG[19:10:-2] = _GAUSS_W
_WG = 0.5 * _WG


def _plain(x, what):
    return np.asarray(concrete_values(stop_gradient(x), what, "call expect outside jit and "
                                      "vmap (SciPy's expect is not vectorized either)"), float)


def _scalar(x, name, what):
    value = _plain(x, what)
    if value.size != 1:
        raise ValueError(f"{what}: {name} must be a scalar (SciPy's expect is not "
                         f"vectorized); got shape {value.shape}. Loop over the values, or use "
                         f"stats/moment, which broadcast")
    return float(value.reshape(()))


def _applied(func, x, what):
    """``func(x)`` on an array of points, elementwise by a loop where ``func`` takes one
    number only (SciPy calls it with one point at a time)."""
    try:
        out = func(x)
    except (TypeError, ValueError):
        # (Python control flow on the value: `if x > 0` asks an array for its truth)
        out = fnp.stack([fnp.asarray(func(x[i])) for i in range(x.shape[0])])
    out = fnp.asarray(out)
    if out.shape not in ((), x.shape):
        raise ValueError(f"{what}: func returned shape {tuple(out.shape)} for {x.shape[0]} "
                         f"points; give a function of one point that returns one number")
    return out


def _piece(lo, hi, scale):
    """``(map, finite)``: ``x(u)`` and ``dx/du`` for ``u`` in ``[0, 1]`` onto ``[lo, hi]``
    (one end may be infinite: ``x = e + scale u / (1 - u)`` from the finite end ``e``)."""
    lo_inf, hi_inf = math.isinf(_plain(lo, "expect")), math.isinf(_plain(hi, "expect"))
    if lo_inf and hi_inf:
        raise ValueError("expect: a piece infinite at both ends (internal)")
    if hi_inf:
        return lambda u: (lo + scale * u / (1.0 - u), scale / (1.0 - u) ** 2)
    if lo_inf:
        return lambda u: (hi - scale * (1.0 - u) / u, scale / (u * u))
    # (finite: x = lo + (hi - lo) (3u^2 - 2u^3), whose flat ends soften a density's
    # algebraic singularity there, beta's x**(a-1), so that the rule converges quickly)
    return lambda u: (lo + (hi - lo) * (u * u * (3.0 - 2.0 * u)), (hi - lo) * 6.0 * u * (1.0 - u))


def _partition(g, epsabs, epsrel, limit):
    """Concrete subintervals ``(left, right)`` of ``[0, 1]`` by bisecting where the
    Gauss-Kronrod estimate ``g`` (concrete, of arrays of ``u``) is least sure."""
    left, right = np.array([0.0]), np.array([1.0])
    while True:
        width = right - left
        u = left[:, None] + width[:, None] * _U
        values = np.asarray(g(u.ravel()), float).reshape(u.shape)
        kronrod = width * (values @ _WK)
        error = np.abs(kronrod - width * (values @ _WG))
        total, tol = float(np.sum(kronrod)), max(epsabs, epsrel * abs(float(np.sum(kronrod))))
        if not np.isfinite(total) or float(np.sum(error)) <= tol or len(left) >= limit:
            if np.isfinite(total) and float(np.sum(error)) > tol:
                warnings.warn(f"expect: the maximum number of subdivisions ({limit}) has been "
                              f"achieved; the error estimate is {float(np.sum(error)):.3g}. "
                              f"Raise limit=", RuntimeWarning, stacklevel=5)
            return left, right
        # bisect the intervals within a factor 4 of the worst error (one, at a jump of
        # the integrand, as QUADPACK; several where the error is spread), up to `limit`
        order = np.argsort(-error)
        split = order[error[order] >= 0.25 * error[order[0]]][:max(1, limit - len(left))]
        mid = 0.5 * (left[split] + right[split])
        keep = np.ones(len(left), bool)
        keep[split] = False
        left = np.concatenate([left[keep], left[split], mid])
        right = np.concatenate([right[keep], mid, right[split]])


def _integral(integrand, piece, epsabs, epsrel, limit):
    """The integral of ``integrand(x) dx`` over one piece: the partition on concrete
    values, then the rule over it on traced ones."""
    def concrete(u):
        x, dx = piece(u)
        with np.errstate(all="ignore"):
            return _plain(integrand(stop_gradient(x)) * stop_gradient(dx), "expect")
    left, right = _partition(concrete, epsabs, epsrel, limit)
    width = right - left
    u = (left[:, None] + width[:, None] * _U).ravel()
    x, dx = piece(u)
    weight = (width[:, None] * _WK).ravel()
    return fnp.sum(integrand(x) * dx * weight)


def expect_continuous(dist, func, args, loc, scale, lb, ub, conditional, epsabs=1.49e-8,
                      epsrel=1.49e-8, limit=50):
    """SciPy's ``rv_continuous.expect`` (see the module docstring)."""
    from ._distn_moments_rules import support
    what = f"{dist.name}.expect"
    shape, (loc_, scale_), ok = dist._args(tuple(args), {"loc": loc, "scale": scale})
    for name, value in zip(dist.shapes + ("loc", "scale"), list(shape) + [loc_, scale_]):
        _scalar(value, name, what)
    a, b = support(dist, shape)
    lb_given, ub_given = lb, ub
    lb = loc_ + a * scale_ if lb is None else fnp.asarray(lb) * 1.0
    ub = loc_ + b * scale_ if ub is None else fnp.asarray(ub) * 1.0
    lb_c, ub_c = _scalar(lb, "lb", what), _scalar(ub, "ub", what)

    def integrand(x):
        density = dist.pdf(x, *args, loc=loc, scale=scale)
        return (x if func is None else _applied(func, x, what)) * density

    # (the mass of [lb, ub]; an end at the support's is 0 or 1 exactly, not a CDF there,
    # whose derivative at an infinite or boundary point can be NaN: gammainc's at inf)
    upper = 1.0 if ub_given is None or math.isinf(ub_c) else dist.cdf(ub, *args, loc=loc,
                                                                      scale=scale)
    lower = 0.0 if lb_given is None or math.isinf(lb_c) else dist.cdf(lb, *args, loc=loc,
                                                                      scale=scale)
    mass = fnp.asarray(upper - lower)
    # SciPy's split: the quantiles 5% and 95% of the mass inside [lb, ub] (concrete: the
    # integral does not depend on them), so that the body and each tail get their own rule
    cuts = []
    if getattr(dist, "_ppf", None) is not None:
        with np.errstate(all="ignore"):
            low = _plain(dist.cdf(lb_c, *[stop_gradient(s) for s in args], loc=stop_gradient(
                loc), scale=stop_gradient(scale)), what)
            q = low + _plain(mass, what) * np.array([0.05, 0.95])
            cuts = list(_plain(dist.ppf(q, *[stop_gradient(s) for s in args],
                                        loc=stop_gradient(loc), scale=stop_gradient(scale)),
                               what))
    cuts = sorted(c for c in cuts if np.isfinite(c) and lb_c < c < ub_c)
    if not cuts and math.isinf(lb_c) and math.isinf(ub_c):
        cuts = [_plain(loc_, what).item()]
    spread = (cuts[-1] - cuts[0]) if len(cuts) > 1 else _scalar(scale_, "scale", what)
    spread = spread if spread > 0 else 1.0
    ends = [lb] + [float(c) for c in cuts] + [ub]
    total = 0.0
    for lo, hi in zip(ends[:-1], ends[1:]):
        if _plain(lo, what) == _plain(hi, what):
            continue
        total = total + _integral(integrand, _piece(lo, hi, spread), epsabs, epsrel, limit)
    total = fnp.asarray(total)
    if conditional:
        total = total / mass
    return dist._out(total, ok)


def _chunks(start, stop, chunk, step):
    """SciPy's ``_iter_chunked``: ``[start, stop)`` in steps ``step`` (+1 or -1), ``chunk``
    points at a time (``stop`` may be infinite)."""
    x = start
    while (x - stop) * step < 0:
        size = min(chunk, abs(x - stop))
        yield np.arange(x, x + size * step, step)
        x += size * step


def expect_discrete(dist, func, args, loc, lb, ub, conditional, maxcount=1000,
                    tolerance=1e-10, chunksize=32):
    """SciPy's ``rv_discrete.expect`` (see the module docstring)."""
    from ._distn_moments_rules import support
    what = f"{dist.name}.expect"
    shape, (loc_, _), ok = dist._args(tuple(args), {"loc": loc})
    if dist.name != "poisson_binom":
        for name, value in zip(dist.shapes, shape):
            _scalar(value, name, what)
    _scalar(loc_, "loc", what)
    a, b = support(dist, shape)
    lb = a if lb is None else fnp.asarray(lb) - loc_
    ub = b if ub is None else fnp.asarray(ub) - loc_
    lb_c, ub_c = _scalar(lb, "lb", what), _scalar(ub, "ub", what)

    def terms(k, traced):
        plain_shape = shape if traced else [stop_gradient(s) for s in shape]
        where = loc_ if traced else stop_gradient(loc_)
        mass = fnp.exp(dist._logpmf(k, *plain_shape))
        value = (k + where) if func is None else _applied(func, k + where, what)
        return value * mass

    if ub_c - lb_c <= chunksize:
        k = np.arange(lb_c, ub_c + 1.0)
    else:
        with np.errstate(all="ignore"):
            median = float(_plain(dist.ppf(0.5, *[stop_gradient(s) for s in args]), what))
        x0 = min(max(median, lb_c), ub_c)
        taken, count = [], 0
        for step, start, stop in ((1.0, x0, ub_c + 1.0), (-1.0, x0 - 1.0, lb_c - 1.0)):
            for k in _chunks(start, stop, chunksize, step):
                count += k.size
                taken.append(k)
                delta = float(np.sum(_plain(terms(k, False), what)))
                if abs(delta) < tolerance * k.size:
                    break
                if count > maxcount:
                    warnings.warn("expect(): sum did not converge", RuntimeWarning,
                                  stacklevel=4)
                    break
            if count > maxcount:
                break
        k = np.concatenate(taken) if taken else np.zeros(0)
    total = fnp.sum(terms(k, True)) if k.size else fnp.asarray(0.0)
    if conditional:
        # SciPy's: sf(lb - 1) - sf(ub), the mass of [lb, ub]
        # (an end at the support's: 1 or 0 exactly, not sf there, whose derivative at an
        # infinite point can be NaN: gammainc's)
        upper = 1.0 if lb_c <= _scalar(a, "a", what) else dist._sf(lb - 1.0, *shape)
        lower = 0.0 if math.isinf(ub_c) or ub_c >= _scalar(b, "b", what) else dist._sf(
            ub, *shape)
        total = total / (upper - lower)
    return dist._out(fnp.asarray(total), ok)

"""Distributions of :mod:`funcgrad.scipy.stats` whose densities are closed forms with a
modified Bessel function of the second kind (re-exported there): ``norminvgauss`` and
``geninvgauss``.

The log-densities are SciPy's, written with the exponentially scaled ``k1e``/``kve`` so
that a large argument neither overflows nor underflows.  The CDF and SF have no closed
form; SciPy integrates the density with ``quad``.  Here the integral is
:func:`funcgrad.scipy.integrate.tanhsinh`'s (SciPy's elementwise tanh-sinh on concrete
values). Its derivative is the integral's own: the density at the limit in ``x``, and
the integral of the density's derivative in a shape parameter, by tanh-sinh again.  Each
point is integrated over the tail on its own side of the mode (or mean), so that both
tails keep their relative accuracy.  The quantiles invert that CDF numerically
(:mod:`._statsdists_quantiles`, as SciPy's ``brentq``).  The integrals need concrete
values: under ``jit`` or ``vmap``, cdf/sf/ppf/isf (and norminvgauss' entropy) raise a
TypeError that says so; they take arrays at once instead.

``geninvgauss``' normalizing constant is ``K_p(b)``: its derivative in ``p`` is
``kve``'s in its order (quadrature of the integral representation,
:mod:`funcgrad.primitives.special_bessel_order`), so every method differentiates in
``x``, ``p``, ``b``, ``loc`` and ``scale``.  Moments: ``norminvgauss``' mean ``b/g`` and variance ``a**2/g**3`` (``g =
sqrt(a**2 - b**2)``); ``geninvgauss``' ``E X**n = kve(p + n, b) / kve(p, b)``, as SciPy's.
``norminvgauss``' entropy is ``-integral f log f`` over the line, by tanh-sinh
(SciPy integrates it too).  ``geninvgauss``' entropy is ``-integral f log f`` by the
generic rule of :mod:`._distn_entropy`, differentiable in ``p``, ``b`` and ``scale``.
"""
import math

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..lax import stop_gradient
from . import special as sp
from ._distn import _positive, _support, rv_continuous
from ._integrate3_tanhsinh import tanhsinh
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["norminvgauss", "geninvgauss"]

_RTOL = 1e-13  # (SciPy's tanhsinh default is 1e-12 relative; its quad reaches ~1e-14)


def _concrete_limits(name, method, *values):
    if any(isinstance(stop_gradient(v), Tracer) for v in values):
        raise TypeError(f"funcgrad.scipy.stats.{name}.{method} integrates the density "
                        f"numerically (SciPy's tanhsinh, on concrete values): it cannot run "
                        f"under jit or vmap; call it outside them (it takes arrays of x and "
                        f"of the parameters at once)")


def _tail_integral(name, logpdf, centre, low_end):
    """``(cdf, sf)`` of the standardized density ``exp(logpdf)`` on ``(low_end, inf)``.
    ``centre(*shapes)`` gives ``(m, w)``: a point in the bulk and its width.  Each ``z``
    is integrated over the tail on its own side of ``m``, ``1 -`` that for the other
    tail, in the variable ``(t - m)/w`` (tanh-sinh's nodes then sit where the mass is;
    the substitution is exact for any ``m`` and ``w``, so they carry no derivative)."""
    def tails(z, shapes, method):
        # tanhsinh's reverse rule integrates the density's derivative in every argument;
        # a shape that is a constant here is held constant inside (its derivative is 0,
        # rightly), so that no integral (nor a quadrature for kve's order) is computed
        held = [not (isinstance(s, Tracer) or is_special(s)) for s in shapes]
        m, w = [stop_gradient(v) for v in centre(*[stop_gradient(s) for s in shapes])]
        _concrete_limits(name, method, z, m)
        w = fnp.where(fnp.logical_and(fnp.isfinite(w), w > 0), w, 1.0)

        def density(u, m, w, *values):
            m, w = stop_gradient(m), stop_gradient(w)
            values = [stop_gradient(v) if h else v for v, h in zip(values, held)]
            return w * fnp.exp(logpdf(m + w * u, *values))

        left = fnp.less(z, m)
        inside = z if low_end is None else fnp.maximum(z, low_end)
        end = -math.inf if low_end is None else (low_end - m) / w
        lo = fnp.where(left, end, (inside - m) / w)
        hi = fnp.where(left, (inside - m) / w, math.inf)
        # (minlevel 4: at level 3 the error estimate can pass a tail that is 5e-11 off)
        res = tanhsinh(density, lo, hi, args=(m, w) + tuple(shapes), rtol=_RTOL,
                       minlevel=4)
        return left, fnp.asarray(res.integral)

    def cdf(z, *shapes):
        left, part = tails(z, shapes, "cdf")
        return fnp.where(left, part, 1.0 - part)

    def sf(z, *shapes):
        left, part = tails(z, shapes, "sf")
        return fnp.where(left, 1.0 - part, part)
    return cdf, sf


# --- norminvgauss(a, b): the normal variance-mean mixture with an inverse Gaussian ---------------

def _nig_gamma(a, b):
    """``sqrt(a**2 - b**2)`` (1 where ``|b| >= a``: _distn's stand-ins there are a = b = 1,
    and those entries are NaN anyway)."""
    d = a * a - b * b
    return fnp.sqrt(fnp.where(d > 0, d, 1.0))


def _nig_logpdf(z, a, b):
    g = _nig_gamma(a, b)
    root = fnp.sqrt(1.0 + z * z)  # (SciPy's hypot(1, x): z*z overflows only past 1e154)
    root = fnp.where(fnp.isinf(z), fnp.abs(z), root)
    return (fnp.log(a / math.pi) + fnp.log(sp.k1e(a * root)) - fnp.log(root)
            + b * z - a * root + g)


def _nig_entropy(a, b):
    def integrand(t, a, b):
        log_f = _nig_logpdf(t, a, b)
        f = fnp.exp(log_f)
        return fnp.where(f > 0, -f * log_f, 0.0)
    a, b = fnp.broadcast_arrays(fnp.asarray(a), fnp.asarray(b))
    mean = stop_gradient(b / _nig_gamma(a, b))
    _concrete_limits("norminvgauss", "entropy", mean)
    # (two halves, split at the mean: each an integral over a half-line)
    halves = [tanhsinh(integrand, lo, hi, args=(a, b), rtol=_RTOL, minlevel=4).integral
              for lo, hi in ((-math.inf, mean), (mean, math.inf))]
    return fnp.asarray(halves[0]) + fnp.asarray(halves[1])


norminvgauss = rv_continuous(
    "norminvgauss", shapes=("a", "b"),
    _valid=lambda a, b: fnp.logical_and(fnp.greater(a, 0), fnp.less(fnp.abs(b), a)),
    _logpdf=_nig_logpdf,
    _mean=lambda a, b: b / _nig_gamma(a, b),
    _var=lambda a, b: a * a / _nig_gamma(a, b) ** 3,
    _entropy=_nig_entropy)
norminvgauss._cdf, norminvgauss._sf = _tail_integral(
    "norminvgauss", _nig_logpdf, lambda a, b: (b / _nig_gamma(a, b),
                                               a / _nig_gamma(a, b) ** 1.5), None)
norminvgauss._ppf, norminvgauss._isf = numeric_quantiles(norminvgauss, "line")


# --- geninvgauss(p, b): x**(p-1) exp(-b (x + 1/x)/2) / (2 K_p(b)) on x > 0 --------------------

def _gig_log_norm(p, b):
    """``log(2 K_p(b))``: kve's scaling ``exp(b)`` taken out in logs."""
    return math.log(2.0) + fnp.log(sp.kve(p, b)) - b


def _gig_logpdf(z, p, b):
    inside, u = _positive(z)
    log_u = fnp.log(u)
    return _support(inside, (p - 1.0) * log_u - 0.5 * b * (u + 1.0 / u) - _gig_log_norm(p, b))


def _gig_mode(p, b):
    # SciPy's _mode, each form where it does not cancel
    return fnp.where(p < 1, b / (fnp.sqrt((p - 1.0) ** 2 + b * b) + 1.0 - p),
                     (fnp.sqrt((1.0 - p) ** 2 + b * b) - (1.0 - p)) / b)


def _gig_moment(n):
    return lambda p, b: sp.kve(p + n, b) / sp.kve(p, b)


def _gig_var(p, b):
    return _gig_moment(2)(p, b) - _gig_moment(1)(p, b) ** 2


geninvgauss = rv_continuous(
    "geninvgauss", shapes=("p", "b"),
    _valid=lambda p, b: fnp.logical_and(fnp.equal(p, p), fnp.greater(b, 0)),
    _logpdf=_gig_logpdf,
    _mean=_gig_moment(1),
    _var=_gig_var)
geninvgauss._cdf, geninvgauss._sf = _tail_integral(
    "geninvgauss", _gig_logpdf, lambda p, b: (_gig_mode(p, b), fnp.sqrt(_gig_var(p, b))),
    0.0)
geninvgauss._ppf, geninvgauss._isf = numeric_quantiles(geninvgauss, "positive")

norminvgauss.__doc__ = """SciPy's ``norminvgauss`` distribution (parameters: a, b, loc, scale;
``a > 0``, ``|b| < a``), the normal inverse Gaussian.  cdf/sf integrate the density
numerically, differentiably (not under jit or vmap).

>>> import funcgrad as fg
>>> round(float(norminvgauss.cdf(0.0, 1.5, 0.6)), 12)
0.319878373494
>>> float(fg.grad(norminvgauss.cdf)(0.0, 1.5, 0.6)) == float(norminvgauss.pdf(0.0, 1.5, 0.6))
True
"""
geninvgauss.__doc__ = """SciPy's ``geninvgauss`` distribution (parameters: p, b, loc, scale;
``b > 0``), the generalized inverse Gaussian.  cdf/sf integrate the density numerically,
differentiably in ``x``, ``p``, ``b``, ``loc`` and ``scale`` (not under jit or vmap).

>>> import funcgrad as fg
>>> round(float(geninvgauss.cdf(1.0, 2.0, 1.5)), 12), float(geninvgauss.mean(0.5, 2.0))
(0.075225105589, 1.5)
>>> round(float(fg.grad(geninvgauss.sf, 2)(1.0, 2.0, 1.5)), 10)  # d/db
-0.052986808
"""

"""SciPy's ``gausshyper(a, b, c, z)`` (re-exported by :mod:`funcgrad.scipy.stats`), the
Gauss hypergeometric distribution on ``[0, 1]``:

    pdf(x) = x**(a-1) (1-x)**(b-1) (1 + z x)**(-c) / N,
    N = B(a, b) 2F1(c, a; a + b; -z) = integral_0^1 t**(a-1) (1-t)**(b-1) (1 + z t)**(-c) dt.

Values: ``log N`` is SciPy's ``betaln(a, b) + log hyp2f1(c, a, a + b, -z)``.  Its
derivative in ``z`` is ``hyp2f1``'s rule in its argument; ``hyp2f1`` has none in its
parameters, so where ``a``, ``b`` or ``c`` carries a derivative, ``log N``'s derivatives
(all of them, every order) are those of the logarithm of the integral above by tanh-sinh
(:func:`funcgrad.scipy.integrate.tanhsinh`, differentiable in its arguments; the
endpoint singularities of ``a < 1``, ``b < 1`` are what it is made for) added as ``Q -
stop_gradient(Q)``: the value stays SciPy's, bit for bit.

The CDF and SF integrate the unnormalized density by tanh-sinh, from ``0`` up to ``x``
left of the mean and from ``x`` to ``1`` right of it (each tail keeps its relative
accuracy; SciPy integrates the density with ``quad``), divided by ``N``; differentiable
in ``x`` (the density), and in the shapes (the integral of the integrand's derivative).
The quantiles invert that CDF numerically.  Moments: ``E X**n = N(a + n, b, c, z) / N(a,
b, c, z)``, SciPy's ``_munp``.  The entropy is not offered (NotImplementedError).  The
integrals need concrete values: under ``jit`` or ``vmap`` cdf/sf/ppf/isf raise a
TypeError that says so, and a derivative in ``a``, ``b`` or ``c`` raises hyp2f1's
NotImplementedError naming the parameter (logpdf and its derivatives in ``x``, ``z``,
``loc``, ``scale`` run there).
"""
import math

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..lax import stop_gradient
from . import special as sp
from ._distn import _all, rv_continuous
from ._integrate3_tanhsinh import tanhsinh
from ._statsdists4_bessel import _concrete_limits
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["gausshyper"]

_RTOL = 1e-13


def _traced(*values):
    return any(isinstance(v, Tracer) or is_special(v) for v in values)


def _log_integrand(t, a, b, c, z):
    return ((a - 1.0) * fnp.log(t) + (b - 1.0) * fnp.log1p(-t) - c * fnp.log1p(z * t))


def _integral(lo, hi, a, b, c, z):
    """``integral_lo^hi t**(a-1) (1-t)**(b-1) (1 + z t)**(-c) dt`` by tanh-sinh."""
    def integrand(t, a, b, c, z):
        return fnp.exp(_log_integrand(t, a, b, c, z))
    return fnp.asarray(tanhsinh(integrand, lo, hi, args=(a, b, c, z), rtol=_RTOL,
                                minlevel=4).integral)


def _log_norm(a, b, c, z):
    """``log N``: SciPy's value; derivatives in ``a``, ``b``, ``c`` by quadrature."""
    ca, cb, cc = stop_gradient(a), stop_gradient(b), stop_gradient(c)
    if not _traced(a, b, c) or _traced(ca, cb, cc, stop_gradient(z)):
        # (no derivative in a, b, c asked; or under jit/vmap, where the quadrature cannot
        # run: hyp2f1's rule then raises, naming the parameter, if one is asked)
        return sp.betaln(a, b) + fnp.log(sp.hyp2f1(c, a, a + b, -z))
    exact = stop_gradient(sp.betaln(ca, cb) + fnp.log(sp.hyp2f1(cc, ca, ca + cb, -z)))
    quadrature = fnp.log(_integral(0.0, 1.0, a, b, c, z))
    return exact + (quadrature - stop_gradient(quadrature))


def _unit(z):
    return fnp.logical_and(fnp.greater_equal(z, 0), fnp.less_equal(z, 1))


def _logpdf(x, a, b, c, z):
    inside = _unit(x)  # (0 and 1 included, as SciPy's: finite or inf there)
    s = fnp.where(inside, x, 0.5)
    value = (sp.xlogy(a - 1.0, s) + sp.xlog1py(b - 1.0, -s) - c * fnp.log1p(z * s)
             - _log_norm(a, b, c, z))
    return fnp.where(inside, value, -math.inf)


def _moment(n):
    def m(a, b, c, z):
        return fnp.exp(_log_norm(a + n, b, c, z) - _log_norm(a, b, c, z))
    return m


def _var(a, b, c, z):
    return _moment(2)(a, b, c, z) - _moment(1)(a, b, c, z) ** 2


def _tail(upper):
    def f(x, a, b, c, z):
        m = stop_gradient(_moment(1)(*[stop_gradient(s) for s in (a, b, c, z)]))
        method = "sf" if upper else "cdf"
        _concrete_limits("gausshyper", method, x, m)
        inside = fnp.clip(x, 0.0, 1.0)
        left = fnp.less(inside, m)
        lo = fnp.where(left, 0.0, inside)
        hi = fnp.where(left, inside, 1.0)
        part = _integral(lo, hi, a, b, c, z) / fnp.exp(_log_norm(a, b, c, z))
        near = 1.0 - part if upper else part
        far = part if upper else 1.0 - part
        value = fnp.where(left, near, far)
        # (outside the support: the clip's constant ends, the integral over nothing)
        return value
    return f


gausshyper = rv_continuous(
    "gausshyper", shapes=("a", "b", "c", "z"),
    _valid=lambda a, b, c, z: _all(fnp.greater(a, 0), fnp.greater(b, 0), fnp.equal(c, c),
                                   fnp.greater(z, -1)),
    _logpdf=_logpdf, _cdf=_tail(False), _sf=_tail(True), _mean=_moment(1), _var=_var)
gausshyper._ppf, gausshyper._isf = numeric_quantiles(gausshyper, (0.0, 1.0))
gausshyper.__doc__ = """SciPy's ``gausshyper`` distribution (parameters: a, b, c, z, loc,
scale), the Gauss hypergeometric; differentiable in every argument (cdf/sf/ppf/isf and
derivatives in a, b, c integrate numerically: not under jit or vmap).

>>> import funcgrad as fg
>>> round(float(gausshyper.logpdf(0.4, 1.5, 2.5, 0.7, 0.3)), 10)
0.3967738041
>>> round(float(fg.grad(gausshyper.logpdf, 1)(0.4, 1.5, 2.5, 0.7, 0.3)), 8)  # d/da
0.33300918
"""

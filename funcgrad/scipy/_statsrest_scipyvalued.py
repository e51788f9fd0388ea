"""Distributions of :mod:`funcgrad.scipy.stats` whose values are SciPy's own (imported on
the first call; concrete values only, so not under ``jit``/``vmap``): ``landau``,
``levy_stable`` and ``studentized_range`` (re-exported there).  SciPy computes them by
special algorithms (Boost's Landau functions; Nolan's integrals for the stable laws; a
double integral for the studentized range) that funcgrad does not repeat.

Derivatives, once, in the point: the CDF's is the density, the SF's minus it, the
quantile's one over the density at the quantile, all SciPy's; in ``loc`` and ``scale``
by the chain rule through ``(x - loc) / scale``.  Not available, and so raising a clear
error rather than returning a wrong or zero value:

- the derivative of the density itself (a first derivative of pdf/logpdf, or a second
  of the CDF): SciPy offers none (NotImplementedError);
- the derivatives in the shape parameters, ``levy_stable``'s ``alpha`` and ``beta`` and
  ``studentized_range``'s ``k`` and ``df``: a shape that carries a derivative raises
  NotImplementedError naming it and the fix (``fg.stop_gradient``).

``levy_stable`` follows SciPy's parameterization ``"S1"`` by default; set
``levy_stable.parameterization = "S0"`` for the other, as SciPy's attribute.  In
``"S1"`` at ``alpha = 1`` the law is not a location-scale family: SciPy's ``pdf`` and
``cdf`` move the location by ``2 beta scale log(scale) / pi`` there, but its ``logpdf``,
``sf``, ``ppf`` and ``isf`` do not (SciPy 1.17's own inconsistency, kept here method by
method so that every value is SciPy's).  Moments are not offered (NotImplementedError).
The entropies (:mod:`._distn_entropy`): ``landau``'s is SciPy's constant (from mpmath),
plus ``log(scale)``; ``studentized_range``'s is SciPy's value on concrete shapes (no
derivative in them, as its other methods); ``levy_stable``'s raises NotImplementedError
(SciPy 1.17's own fails).
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..custom import custom_jvp
from ..lax import stop_gradient
from ..numpy._convert import concrete_values
from ..typing import Array, ArrayLike
from ._distn import _all, _split, rv_continuous

__all__ = ["landau", "levy_stable", "studentized_range"]

_SCIPY_INSTANCES: dict = {}


def _scipy_distribution(name, parameterization):
    """SciPy's distribution ``name``; ``levy_stable`` as an instance of its own with the
    given parameterization (SciPy's module-level one is left as the user set it)."""
    from scipy import stats
    if name != "levy_stable":
        return getattr(stats, name)
    key = (name, parameterization)
    if key not in _SCIPY_INSTANCES:
        instance = type(stats.levy_stable)(name="levy_stable")
        instance.parameterization = parameterization
        _SCIPY_INSTANCES[key] = instance
    return _SCIPY_INSTANCES[key]


def _values(d, method, z, shapes):
    """SciPy's standardized ``method`` at ``z`` with the shape parameters, in ``z``'s
    float type."""
    what = f"{d.name}.{method} (SciPy's values)"
    fix = "call it outside jit and vmap"
    zc = concrete_values(z, what, fix)
    sc = [concrete_values(s, what, fix) for s in shapes]
    dtype = zc.dtype if zc.dtype.kind == "f" else np.dtype(np.float64)
    theirs = _scipy_distribution(d.name, getattr(d, "parameterization", None))
    with np.errstate(all="ignore"):
        return np.asarray(getattr(theirs, method)(zc, *sc), dtype)


def _no_slope_of_density(name):
    def rule(primals, tangents):
        raise NotImplementedError(
            f"{name}: the derivative of the density (a first derivative of pdf or logpdf, "
            f"or a second one of cdf, sf, ppf or isf) is not available (SciPy has none); "
            f"differentiate cdf, sf, ppf or isf once, or hold the point constant with "
            f"fg.stop_gradient")
    return rule


def _declare(d):
    """The standardized functions of ``d`` from SciPy's methods, each a custom_jvp whose
    rule is its slope in ``z`` (the shapes are constants here: see :func:`_constant`)."""
    def density_method(method):
        @custom_jvp
        def f(z, *shapes):
            return _values(d, method, z, shapes)
        f.defjvp(_no_slope_of_density(d.name))
        return f

    density, log_density = density_method("pdf"), density_method("logpdf")

    def first_order(method, slope):
        @custom_jvp
        def f(z, *shapes):
            return _values(d, method, z, shapes)

        @f.defjvp
        def f_jvp(primals, tangents):
            z, *shapes = primals
            value = f(z, *shapes)
            return value, slope(z, shapes, value) * tangents[0]
        f.__name__ = f"{d.name}_{method}"
        return f

    cdf = first_order("cdf", lambda z, s, value: density(z, *s))
    sf = first_order("sf", lambda z, s, value: -density(z, *s))
    ppf = first_order("ppf", lambda q, s, x: 1.0 / density(x, *s))
    isf = first_order("isf", lambda q, s, x: -1.0 / density(x, *s))

    def constant_shapes(f):
        def g(z, *shapes):
            return f(z, *_constant(d, shapes))
        return g

    d._logpdf = constant_shapes(log_density)
    d._cdf, d._sf = constant_shapes(cdf), constant_shapes(sf)
    d._ppf, d._isf = constant_shapes(ppf), constant_shapes(isf)


def _constant(d, shapes):
    """The shapes as plain values; one that carries a derivative raises (none is offered;
    under jit or vmap SciPy's values need concrete ones, which :func:`_values` says)."""
    out = []
    for name, s in zip(d.shapes, shapes):
        if isinstance(s, Tracer) or is_special(s):
            if not isinstance(stop_gradient(s), Tracer):
                raise NotImplementedError(
                    f"{d.name}: the derivative with respect to its shape parameter {name} is "
                    f"not implemented (SciPy's values have none); differentiate with "
                    f"respect to x, loc and scale only (fg.stop_gradient({name}) marks "
                    f"{name} as a constant)")
            s = stop_gradient(s)
        out.append(s)
    return out


class _LevyStable(rv_continuous):
    """``levy_stable``: SciPy's ``parameterization`` attribute, and SciPy's S1 location
    shift at ``alpha = 1`` in ``pdf`` and ``cdf`` (see the module docstring)."""

    parameterization = "S1"

    def _shifted(self, args, kwds):
        (alpha, beta), (loc, scale) = _split(self.name, self.shapes, args, kwds,
                                             self._defaults)
        if self.parameterization == "S1":
            shift = 2.0 * beta * scale * fnp.log(scale) / np.pi
            loc = loc + fnp.where(fnp.equal(alpha, 1.0), shift, 0.0)
        return alpha, beta, loc, scale

    def pdf(self, x: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The probability density (SciPy's, with its S1 shift at alpha = 1)."""
        return super().pdf(x, *self._shifted(args, kwds))

    def cdf(self, x: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The cumulative distribution function (SciPy's, with its S1 shift at alpha = 1)."""
        return super().cdf(x, *self._shifted(args, kwds))


def _documented(d: Any, doc: str) -> Any:
    d.__doc__ = doc
    return d


landau = _documented(rv_continuous("landau", shapes=()), """SciPy's ``landau`` distribution
(parameters: loc, scale): SciPy's values, cdf/sf/ppf/isf differentiable once in the
point, ``loc`` and ``scale`` (concrete values only).

>>> import funcgrad as fg
>>> round(float(landau.cdf(0.3)), 12)
0.439685615813
>>> float(fg.grad(landau.cdf)(0.3)) == float(landau.pdf(0.3))
True
""")
_declare(landau)

levy_stable = _documented(_LevyStable(
    "levy_stable", shapes=("alpha", "beta"),
    _valid=lambda alpha, beta: _all(fnp.greater(alpha, 0), fnp.less_equal(alpha, 2),
                                    fnp.less_equal(beta, 1), fnp.greater_equal(beta, -1))),
    """SciPy's ``levy_stable`` distribution (parameters: alpha, beta, loc, scale): SciPy's
values, cdf/sf/ppf/isf differentiable once in the point, ``loc`` and ``scale``; a
derivative in ``alpha`` or ``beta`` raises (concrete values only).

>>> import funcgrad as fg
>>> round(float(levy_stable.cdf(0.5, 1.5, 0.3)), 10)
0.6875429388
>>> g = fg.grad(levy_stable.cdf, 4)(0.5, 1.5, 0.3, 0.0, 2.0)  # d/dscale
>>> bool(abs(g + 0.25 * float(levy_stable.pdf(0.5, 1.5, 0.3, 0.0, 2.0))) < 1e-15)
True
""")
_declare(levy_stable)

studentized_range = _documented(rv_continuous(
    "studentized_range", shapes=("k", "df"),
    _valid=lambda k, df: _all(fnp.greater(k, 1), fnp.greater(df, 0))),
    """SciPy's ``studentized_range`` distribution (parameters: k, df, loc, scale): SciPy's
values, cdf/sf/ppf/isf differentiable once in the point, ``loc`` and ``scale``; a
derivative in ``k`` or ``df`` raises (concrete values only).

>>> import funcgrad as fg
>>> round(float(studentized_range.cdf(2.0, 3.0, 10.0)), 10)
0.6294553213
>>> float(fg.grad(studentized_range.cdf)(2.0, 3.0, 10.0)) == float(
...     studentized_range.pdf(2.0, 3.0, 10.0))
True
""")
_declare(studentized_range)

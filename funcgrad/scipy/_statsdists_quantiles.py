"""Quantiles (``ppf``, ``isf``) of :mod:`funcgrad.scipy.stats`' distributions whose CDF
has no closed-form inverse in funcgrad's special functions (``skewnorm``, ``invgauss``,
``exponnorm``, ``cosine``...): the CDF inverted numerically by :mod:`._ppf`'s
safeguarded Newton iteration on the log of the smaller tail, and differentiated by its
implicit-function rule (in ``q`` by ``1 / pdf``, in the shape parameters through the
CDF's own derivatives).

The iteration runs in a variable that spans the support with a finite bracket: ``x``
itself on a bounded support, ``log x`` on ``(0, inf)`` and ``asinh x`` on the whole
line (both reach every float64 in some 60 bisection steps at worst).
"""
import math

import numpy as np

from .. import numpy as fnp
from ._ppf import _finish, _safe_q, _sides, _solve, quantile

__all__ = ["numeric_quantiles"]

# variable u -> (x(u), log |dx/du|, the bracket of u)
_TRANSFORMS = {
    "positive": (fnp.exp, lambda u: u, (-745.0, 709.7)),
    "line": (fnp.sinh, lambda u: fnp.log(fnp.cosh(u)), (-710.4, 710.4)),
}


def numeric_quantiles(d, support):
    """``(ppf, isf)`` for the standardized functions of ``d`` (``_cdf``, ``_sf``,
    ``_logpdf``): ``support`` is ``"positive"`` (``[0, inf)``), ``"line"`` or a pair
    ``(a, b)`` of finite ends."""
    if isinstance(support, tuple):
        x_of, log_jacobian, (lo, hi) = (lambda u: u), (lambda u: 0.0 * u), support
        ends = support
    else:
        x_of, log_jacobian, (lo, hi) = _TRANSFORMS[support]
        ends = (0.0 if support == "positive" else -math.inf, math.inf)

    def values(upper):
        def solve(q, *shapes):
            qs = _safe_q(q)
            lower, log_target = _sides(qs, upper)

            def log_tail(u, low):
                x = x_of(u)
                return fnp.log(fnp.where(low, d._cdf(x, *shapes), d._sf(x, *shapes)))

            def log_density(u):
                return d._logpdf(x_of(u), *shapes) + log_jacobian(u)
            start = 0.5 * (lo + hi) if isinstance(support, tuple) else 0.0
            with np.errstate(all="ignore"):  # (log 0 far out in the bracket)
                u = _solve(start + 0.0 * qs, lo + 0.0 * qs, hi + 0.0 * qs, lower, log_target,
                           log_tail, log_density)
            return _finish(q, x_of(u), *(ends[::-1] if upper else ends))
        return solve

    def ppf(q, *shapes):
        return quantile(d.name, values(False), d._cdf, d._logpdf, q, list(shapes),
                        list(d.shapes))

    def isf(q, *shapes):
        return quantile(d.name, values(True), d._sf, d._logpdf, q, list(shapes),
                        list(d.shapes), upper=True)
    return ppf, isf

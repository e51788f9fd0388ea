"""``quad(..., weight=, wvar=)``: SciPy's weight functions on a finite range, folded into
the integrand and integrated by QAGS, whose extrapolation resolves the algebraic and
logarithmic end singularities of the 'alg' family (the range split in the middle, one
singular end to a piece; SciPy uses QUADPACK's QAWS, QAWO and
QAWC, with modified Clenshaw-Curtis moments: the same values to the tolerances, except
for highly oscillatory 'cos'/'sin', where QAGS needs more subintervals).  A Cauchy
principal value is the subtraction ``PV int f/(x-c) = int (f(x)-f(c))/(x-c) + f(c)
log((b-c)/(c-a))``, split at ``c``.  The weight's parameters (and the limits, which the
'alg' weights depend on) become arguments of the integrand, so ``quad``'s rule
differentiates through them.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..lax import stop_gradient
from ..numpy._convert import asarray

_ALG = {"alg": (False, False), "alg-loga": (True, False), "alg-logb": (False, True),
        "alg-log": (True, True)}


def weighted(func, weight, wvar, a, b, args):
    """``(integrand, lo, hi, args, break points, finish)``: ``quad`` integrates
    ``integrand(x, *args)`` over ``[lo, hi]`` and ``finish(value, abserr)`` is the weighted
    integral of ``func`` over ``[a, b]``."""
    names = ("cos", "sin", *_ALG, "cauchy")
    if weight not in names:
        raise ValueError(f"{weight} not a recognized weighting function (quad's weight must "
                         f"be one of {', '.join(names)})")
    if wvar is None:
        raise ValueError(f"quad: weight={weight!r} needs wvar= (omega for 'cos'/'sin', "
                         f"(alpha, beta) for the 'alg' weights, c for 'cauchy')")
    ends = [float(np.asarray(stop_gradient(x))) if not isinstance(stop_gradient(x), Tracer)
            else 0.0 for x in (a, b)]
    if any(math.isinf(x) for x in ends):
        if weight in ("cos", "sin"):
            raise NotImplementedError(
                f"quad: weight={weight!r} over an infinite interval (SciPy's QAWF Fourier "
                f"integrals) is not available; integrate up to a finite limit, or use "
                f"scipy.integrate.quad")
        raise ValueError("Cannot integrate with this weight over an infinite interval.")
    n = len(args)
    if weight in ("cos", "sin"):
        trig = fnp.cos if weight == "cos" else fnp.sin

        def oscillating(x, *rest):
            return func(x, *rest[:n]) * trig(rest[n] * x)

        return oscillating, a, b, args + (asarray(wvar),), None, lambda v, e: (v, e)
    if weight in _ALG:
        return _algebraic(func, weight, wvar, a, b, args, ends)
    c = asarray(wvar)
    c_value = stop_gradient(c)
    if isinstance(c_value, Tracer) or not min(ends) < float(c_value) < max(ends):
        raise ValueError(f"quad: weight='cauchy' needs wvar=c, a concrete point strictly "
                         f"inside (a, b), got {wvar!r}")

    def subtracted(x, *rest):
        point = rest[n]
        return (func(x, *rest[:n]) - func(point, *rest[:n])) / (x - point)

    term = asarray(func(c, *args)) * fnp.log((b - c) / (c - a))
    return (subtracted, a, b, args + (c,), (float(c_value),),
            lambda v, e: (v + term, e))


def _algebraic(func, weight, wvar, a, b, args, ends):
    """The 'alg' family on ``u = (x - a) / (b - a)`` in ``[0, 1]``: ``(b - a)^(1 + alpha +
    beta)`` times the integral of ``f(a + (b - a) u) u^alpha (1 - u)^beta`` (and the logs,
    ``log(x - a) = log(b - a) + log(u)``).  The limits then enter only smooth places, so
    their derivatives need no (infinite) end terms."""
    try:
        alpha, beta = (asarray(v) for v in wvar)
    except (TypeError, ValueError):
        raise ValueError(f"quad: weight={weight!r} needs wvar=(alpha, beta), the powers of "
                         f"(x - a) and (b - x), got {wvar!r}") from None
    if any(not isinstance(stop_gradient(v), Tracer) and float(stop_gradient(v)) <= -1
           for v in (alpha, beta)):
        raise ValueError(f"quad: weight={weight!r} needs alpha, beta > -1 (else the "
                         f"integral diverges), got wvar={wvar!r}")
    if not ends[0] < ends[1]:
        raise ValueError(f"quad: weight={weight!r} needs a < b, got a={ends[0]}, b={ends[1]}")
    log_a, log_b = _ALG[weight]
    n = len(args)

    def algebraic(u, *rest):
        lo, hi, alpha, beta = rest[n:]
        width = hi - lo
        w = u ** alpha * (1.0 - u) ** beta
        w = w * (fnp.log(width) + fnp.log(u)) if log_a else w
        w = w * (fnp.log(width) + fnp.log(1.0 - u)) if log_b else w
        return func(lo + width * u, *rest[:n]) * w

    scale = (b - a) ** (1.0 + alpha + beta)
    scale_c = abs(float(np.asarray(stop_gradient(scale))))
    # (split in the middle: QAGS extrapolates towards one singular end at a time)
    return (algebraic, fnp.asarray(0.0), fnp.asarray(1.0),
            args + (a, b, alpha, beta), (0.5,), lambda v, e: (scale * v, scale_c * e))

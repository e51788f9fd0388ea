"""``rgamma``, ``betaln`` and ``beta`` of :mod:`funcgrad.scipy.special`, with SciPy's
values at the poles of Gamma.

* ``rgamma = 1/Gamma`` is entire: 0 at ``0, -1, -2, ...`` (also where ``Gamma(1 - x)``
  overflows, ``x <= -171``, and at ``-inf``: SciPy's values), ``-0.0`` at ``-0.0``.
* ``beta(a, b)`` where ``a`` or ``b`` is a non-positive integer follows Cephes' ``beta``
  (SciPy's): ``+inf``, except where the other argument is an integer with ``1 - a - b >
  0``: ``(-1)**b beta(1 - a - b, b)`` (a finite limit, e.g. ``beta(1, -1) = -1``, or
  ``-inf``).  No derivative exists there: it is NaN, never a silent 0.
"""
import functools
import math

import numpy as np

from .. import numpy as fnp
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..numpy._convert import operand as _operand
from ..primitives import special as _sp
from ..primitives import special_scipy as _ss
from ..primitives.structural import stop_gradient as _stop_gradient
from ..typing import Array, ArrayLike
from ._special_real import reject_complex as _reject_complex

__all__ = ["rgamma", "betaln", "beta"]

_INT_MAX = 2.0 ** 31  # (Cephes casts the poles to int: beyond, beta is +inf)


@custom_jvp
def _undefined_slope(x, flag):
    """0 (``x``'s shape) whose derivative in ``x`` is NaN where ``flag > 0`` and 0
    elsewhere, at every order: added to a value computed without derivative (a constant)
    where no derivative exists, so that asking for one gives NaN, not 0."""
    return fnp.zeros_like(x)


@_undefined_slope.defjvp
def _undefined_slope_jvp(primals, tangents):
    x, flag = primals
    at = fnp.greater(flag, 0)
    # (NaN times the stand-in x, not a constant: its own derivative is NaN there too)
    slope = fnp.where(at, math.nan * fnp.where(at, x, 1.0), 0.0)
    return _undefined_slope(x, flag), tangents[0] * slope


def _far_pole(x, far):
    """0 where ``far`` (a pole of Gamma where ``Gamma(1 - x)`` overflows, or ``-inf``),
    with the derivative's limit ``(-1)**n n!`` at ``-n``, which overflows: ``+-inf``."""
    even = fnp.equal(fnp.mod(fnp.where(far, x, 0.0), 2.0), 0.0)
    # (0 off the far poles: an infinite slope there met the zero cotangent of the branch
    # not taken, 0 * inf, and every grad of rgamma warned of an invalid value)
    slope = fnp.where(far, fnp.where(fnp.isinf(x), math.nan,
                                     fnp.where(even, math.inf, -math.inf)), 0.0)
    return _signed_zero(fnp.where(far, x, 0.0), slope)


@custom_jvp
def _signed_zero(x, slope):
    return fnp.zeros_like(x)


@_signed_zero.defjvp
def _signed_zero_jvp(primals, tangents):
    x, slope = primals
    # (times 1 + 0 x: a second derivative NaN, not 0)
    return _signed_zero(x, slope), tangents[0] * (slope * (1.0 + 0.0 * x))


def rgamma(x: ArrayLike) -> Array:
    """``1 / gamma(x)``, an entire function: 0 at the poles of gamma (0, -1, -2, ...), where
    its derivative is ``(-1)**n n!`` at ``-n``, as SciPy's ``rgamma`` (0 also at ``-inf``
    and wherever ``gamma(1 - x)`` overflows at a pole; ``-0.0`` at ``-0.0``).  Of a
    complex ``x`` too (SciPy's values; holomorphic: ``fg.grad(rgamma, holomorphic=True)``).

    >>> import funcgrad as fg
    >>> float(rgamma(3.0)), float(rgamma(-1.0)), float(fg.grad(rgamma)(-2.0))
    (0.5, 0.0, 2.0)
    >>> float(rgamma(-200.0)), float(fg.grad(rgamma)(-200.0))  # (200! overflows)
    (0.0, inf)
    """
    x = fnp.asarray(_operand(x))
    if x.dtype.kind == "c":  # (SciPy's values, its holomorphic derivative)
        return _ss.rgamma_complex(x)
    right = x > 0.5
    # Left of 1/2 the reflection 1/gamma(x) = gamma(1 - x) sin(pi x) / pi has no pole, so
    # every derivative at the zeros comes out right; sin(pi x) is taken from x's distance
    # to the nearest integer, exactly 0 there.  (Double where: no nan from either branch.)
    left_x = fnp.where(right, 0.0, x)
    n = fnp.round(fnp.where(fnp.isinf(left_x), 0.0, left_x))
    g = _sp.gamma(1.0 - left_x)
    # a pole where gamma(1 - x) overflows (x <= -171 in float64, -35 in float32), or -inf:
    # inf * sin(0) would be NaN
    far = fnp.logical_or(fnp.logical_and(fnp.isinf(_stop_gradient(g)), fnp.equal(left_x, n)),
                         fnp.isneginf(left_x))
    near_x = fnp.where(far, 0.5, left_x)
    near_n = fnp.where(far, 0.0, n)
    sign = 1.0 - 2.0 * fnp.mod(near_n, 2.0)
    # (+ 0.0: the zeros at the poles are +0.0, as SciPy's, not the sign's -0.0)
    left = _sp.gamma(1.0 - near_x) * (sign * fnp.sin(math.pi * (near_x - near_n))) / math.pi
    left = fnp.where(far, _far_pole(left_x, far), left + 0.0)
    # -0.0 at -0.0, as SciPy's 1 / -inf: x - 0.0 carrying left's derivatives (-(c - d) is
    # -0.0 for d = c = +0.0, and -0.0 + -0.0 stays -0.0)
    d = left - x
    left = fnp.where(fnp.logical_and(fnp.equal(x, 0.0), fnp.signbit(x)),
                     x - (_stop_gradient(d) - d), left)
    right_x = fnp.where(right, x, 1.0)
    return fnp.where(right, fnp.exp(-_sp.gammaln(right_x)), left)


_ASYMPTOTIC = 1e6           # (Cephes' ASYMP_FACTOR)
_MAXGAM = 171.624376956302725  # (Gamma overflows past it)


def _gamma_sign(v):
    """The sign of Gamma(v) off its poles: -1 where ``floor(v)`` is odd and negative."""
    odd = fnp.not_equal(fnp.mod(fnp.floor(v), 2.0), 0.0)
    return fnp.where(fnp.logical_and(fnp.less(v, 0.0), odd), -1.0, 1.0)


def _log_abs_beta(a, b):
    """``log|B(a, b)|`` off the poles: ``gammaln(a) + gammaln(b) - gammaln(a + b)``, or,
    where one argument ``s`` is beyond 1e6 times the other ``t`` (and above 1e6), Cephes'
    asymptotic ``gammaln(t) - t log(s) + t(1-t)/(2s) + t(1-t)(1-2t)/(12 s**2) - t**2
    (1-t)**2/(12 s**3)``: there ``gammaln(s) - gammaln(s + t)`` is a difference of
    rounded neighbours (``betaln(1e300, 1)`` came out 0, not -690.8)."""
    swap = fnp.less(fnp.abs(a), fnp.abs(b))
    big, small = fnp.where(swap, b, a), fnp.where(swap, a, b)
    far = fnp.logical_and(fnp.greater(fnp.abs(big), _ASYMPTOTIC * fnp.abs(small)),
                          fnp.greater(big, _ASYMPTOTIC))
    # (the double-where idiom: each form sees stand-ins where the other is taken)
    s, t = fnp.where(far, big, 2 * _ASYMPTOTIC), fnp.where(far, small, 1.0)
    t1 = t * (1.0 - t)
    asymptotic = (_sp.gammaln(t) - t * fnp.log(s) + t1 / (2.0 * s)
                  + t1 * (1.0 - 2.0 * t) / (12.0 * s * s) - t1 * t1 / (12.0 * s * s * s))
    na, nb = fnp.where(far, 1.0, a), fnp.where(far, 1.0, b)
    return fnp.where(far, asymptotic, _sp.gammaln(na) + _sp.gammaln(nb) - _sp.gammaln(na + nb))


def _at_poles(a, b, out, of_value):
    """``out`` with SciPy's values ``of_value(beta's pole value)`` where ``a`` or ``b``
    is a non-positive integer, whose derivatives are NaN (see ``_undefined_slope``)."""
    pole_a, pole_b = _non_positive_integer(a), _non_positive_integer(b)
    pole = fnp.logical_or(pole_a, pole_b)
    if isinstance(pole, np.ndarray) and not pole.any():
        return out
    sa, sb = _stop_gradient(a), _stop_gradient(b)
    at_pole = of_value(fnp.where(pole_a, _pole_value(sa, sb), _pole_value(sb, sa)))
    flag = fnp.broadcast_to(fnp.where(pole, 1.0, 0.0), fnp.shape(out))
    undefined = (_undefined_slope(fnp.broadcast_to(a, flag.shape), flag)
                 + _undefined_slope(fnp.broadcast_to(b, flag.shape), flag))
    return fnp.where(pole, at_pole + undefined, out)


def _typed(out, a, b):
    # (where's stand-ins are float64 arrays: back to NumPy 2's type of a and b, so that
    # float32 stays float32)
    dtype = np.result_type(*[x.dtype if hasattr(x, "dtype") else x for x in (a, b)], 1.0)
    return fnp.astype(out, dtype) if out.dtype != dtype else out



# (its complex values' primitive, SciPy's: fronted by rgamma)
rgamma.primitives = (_ss.rgamma_complex.primitive,)  # type: ignore[attr-defined]

def betaln(a: ArrayLike, b: ArrayLike) -> Array:
    """``log|B(a, b)|`` = ``gammaln(a) + gammaln(b) - gammaln(a + b)`` (Cephes' asymptotic
    form where one argument dwarfs the other; at the poles SciPy's ``log|beta|``).

    >>> float(betaln(1.0, 1.0)), round(float(betaln(1e300, 1.0)), 10)
    (0.0, -690.7755278982)

    Real arguments only, as SciPy's (``TypeError`` for complex ones).
    """
    a, b = _operand(a), _operand(b)
    _reject_complex("betaln", "for complex a, b, loggamma(a) + loggamma(b) - "
                    "loggamma(a + b) is holomorphic", a, b)
    pole = fnp.logical_or(_non_positive_integer(a), _non_positive_integer(b))
    safe_a, safe_b = fnp.where(pole, 1.0, a), fnp.where(pole, 1.0, b)
    out = _at_poles(a, b, _log_abs_beta(safe_a, safe_b), lambda v: fnp.log(fnp.abs(v)))
    return _typed(out, a, b)


def _pole_value(p, o):
    """Cephes' ``beta_negint``: ``beta(p, o)`` for a non-positive integer ``p`` (plain
    values, no derivative)."""
    ok = _all(fnp.less(fnp.abs(p), _INT_MAX), fnp.less(fnp.abs(o), _INT_MAX),
              fnp.equal(o, fnp.floor(o)), fnp.greater(1.0 - p - o, 0.0))
    sign = fnp.where(fnp.equal(fnp.mod(fnp.where(ok, o, 0.0), 2.0), 0.0), 1.0, -1.0)
    inner_a = fnp.where(ok, 1.0 - p - o, 1.0)
    positive = fnp.greater(o, 0.0)
    inner = fnp.where(positive, fnp.exp(_log_abs_beta(inner_a, fnp.where(positive, o, 1.0))),
                      math.inf)
    return fnp.where(ok, sign * inner, math.inf)


def _infinite_side(o):
    """``beta(inf, o)`` for ``o`` not a pole (NaN for ``o`` infinite or NaN)."""
    odd = fnp.not_equal(fnp.mod(fnp.floor(fnp.where(fnp.isfinite(o), o, 0.0)), 2.0), 0.0)
    below = fnp.where(odd, -math.inf, math.inf)  # (Gamma(o) < 0 where floor(o) is odd)
    return fnp.where(fnp.isfinite(o), fnp.where(fnp.greater(o, 0.0), 0.0, below), math.nan)


def _all(*masks):
    return functools.reduce(fnp.logical_and, masks)


def _non_positive_integer(v):
    return fnp.logical_and(fnp.less_equal(v, 0.0), fnp.equal(v, fnp.floor(v)))


def beta(a: ArrayLike, b: ArrayLike) -> Array:
    """The beta function ``Gamma(a) Gamma(b) / Gamma(a + b)`` (as ``exp(betaln)`` where
    ``a, b > 0``, the gamma ratio elsewhere).  Where ``a`` or ``b`` is a pole of Gamma
    (0, -1, ...) the values are SciPy's: ``inf``, or a limit where the other argument is
    an integer with ``1 - a - b > 0`` (``beta(1, -1) = -1``); no derivative there (NaN).

    >>> float(beta(2.0, 3.0)) == 1 / 12
    True
    >>> float(beta(-1.0, 2.0)), float(beta(1.0, -1.0)), float(beta(-1.0, -1.0))
    (inf, -1.0, -inf)

    Real arguments only, as SciPy's (``TypeError`` for complex ones).
    """
    a, b = _operand(a), _operand(b)
    _reject_complex("beta", "for complex a, b, exp(loggamma(a) + loggamma(b) - "
                    "loggamma(a + b)) is holomorphic", a, b)
    positive = fnp.logical_and(fnp.greater(a, 0), fnp.greater(b, 0))
    pole = fnp.logical_or(_non_positive_integer(a), _non_positive_integer(b))
    regular = fnp.logical_not(fnp.logical_or(positive, pole))
    # where Gamma of a, b or a + b overflows (or one dwarfs the other), the logs with the
    # signs of the Gammas, as Cephes (beta(700, -0.5) = -93.7, not inf * 0)
    logs = fnp.logical_and(regular, fnp.logical_or(
        fnp.logical_or(fnp.greater(fnp.abs(a), _MAXGAM), fnp.greater(fnp.abs(b), _MAXGAM)),
        fnp.greater(fnp.abs(a + b), _MAXGAM)))
    products = fnp.logical_and(regular, fnp.logical_not(logs))
    # (the double-where idiom: no NaN in any branch)
    by_log = fnp.exp(_log_abs_beta(fnp.where(positive, a, 1.0), fnp.where(positive, b, 1.0)))
    la, lb = fnp.where(logs, a, -0.5), fnp.where(logs, b, 0.25)
    signed = _gamma_sign(la) * _gamma_sign(lb) * _gamma_sign(la + lb) * fnp.exp(
        _log_abs_beta(la, lb))
    # (1/Gamma(a + b) as rgamma, an entire function: at the poles of Gamma(a + b) the
    # value is 0 and the derivative its limit, Gamma(a) Gamma(b) (-1)^n n! at a + b = -n,
    # where dividing by Gamma gave inf / inf**2 = NaN)
    ratio = _sp.gamma(fnp.where(products, a, 0.5)) * _sp.gamma(fnp.where(products, b, 0.5)) * (
        rgamma(fnp.where(products, a + b, 1.0)))
    out = fnp.where(positive, by_log, fnp.where(logs, signed, ratio))
    # (a = inf, b finite and no pole: Cephes' asymptotic form's limit, 0 for b > 0 and
    # the sign of Gamma(b) times inf below; likewise b = inf)
    out = fnp.where(fnp.isposinf(a), _infinite_side(b), fnp.where(fnp.isposinf(b),
                                                                  _infinite_side(a), out))
    return _typed(_at_poles(a, b, out, lambda v: v), a, b)

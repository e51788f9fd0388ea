"""Elementwise primitives of special functions (SciPy's ``scipy.special`` names).

Each is one :func:`~._elementwise.elementwise` declaration, as in :mod:`.elementwise`:
a scalar definition, from which the CPU kernel (no SciPy needed), the GPU kernel and
``jit``'s fused loops are generated, and one linear rule per argument.  Leaves that
Python's ``math`` has (``lgamma``, ``gamma``, ``erf``, ``erfc``) are used directly; the
others are written here as scalar series:

- ``digamma``: reflection for ``x <= 0``, the recurrence up to ``x >= 10``, then the
  asymptotic (Bernoulli) series (error below 1e-16 there);
- ``erfinv``/``erfcinv``: Giles' single-precision approximation refined by three Halley
  steps on ``erf``/``erfc`` (the root is solved in whichever of the two keeps ``1 - y``
  exact);
- ``log_ndtr``: ``log(erfc(-x/sqrt 2)/2)``, ``log1p`` of the tail for ``x > 0`` and
  the asymptotic series for ``x <= -20`` (``-10`` in float32), where ``erfc``
  underflows; its derivative ``phi/Phi`` from that series there too (the Mills ratio);
- ``i0e``/``i1e``: the power series for ``|x| <= 25``, the asymptotic series beyond.

(The incomplete gamma and beta functions and their derivatives in their shapes are in
:mod:`.incomplete`; the Hurwitz ``zeta`` and its derivatives in the exponent in
:mod:`.zeta`.)  A derivative that is not implemented is a linear rule that raises
``NotImplementedError`` when a derivative is asked of that argument: it is never dropped
silently.
"""
import math

import numpy as np

from ..core import _state
from ._elementwise import elementwise
from .elementwise import (abs as _abs, equal, exp, less, maximum, minimum, sign,
                          sqrt, square, where)
from .zeta import zeta  # (digamma's derivative; and special.zeta, as before)

_EMPTY: dict = {}
SQRT_PI = math.sqrt(math.pi)
SQRT_2PI = math.sqrt(2.0 * math.pi)
SQRTH = math.sqrt(0.5)
EPS = 2.220446049250313e-16


def _fn(prim, arity):
    if arity == 1:
        def f(x):
            return _state.interpreter.process(prim, (x,), _EMPTY)
    else:
        def f(x, y):
            return _state.interpreter.process(prim, (x, y), _EMPTY)
    f.primitive = prim
    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = f"Elementwise ``{prim.name}`` (a funcgrad primitive)."
    return f


def _horner(var, coefficients):
    """Source of ``c0 + var*(c1 + var*(c2 + ...))`` with constants ``C(...)``."""
    text = f"C({coefficients[-1]!r})"
    for c in reversed(coefficients[:-1]):
        text = f"C({c!r}) + {var} * ({text})"
    return text


# --- gamma family ---------------------------------------------------------------------------

_DIGAMMA_BODY = f"""x = x0
refl = C(0)
ok = True
if x <= C(0):
    p = F.floor(x)
    if p == x:
        ok = False
        if x == C(0):
            r = -F.copysign(C(F.INF), x)
        else:
            r = C(F.NAN)
    else:
        nz = x - p
        if nz != C(0.5):
            if nz > C(0.5):
                nz = nz - C(1)
            refl = C({math.pi!r}) / F.tan(C({math.pi!r}) * nz)
        x = C(1) - x
if ok:
    s = C(0)
    while x < C(10):
        s = s + C(1) / x
        x = x + C(1)
    z = C(1) / (x * x)
    poly = z * ({_horner("z", [1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760,
                                1 / 12])})
    r = F.log(x) - C(0.5) / x - poly - s - refl"""

# (SciPy's gammaln(-inf) is -inf, where the C library's lgamma gives +inf)
gammaln_p = elementwise("gammaln", None, {"f": "r = x0 if x0 == -C(F.INF) else F.lgamma(x0)"},
                        lambda g, x, y: g * digamma(x))
gamma_p = elementwise("gamma", None, {"f": "r = F.gamma(x0)"},
                      lambda g, x, y: g * (y * digamma(x)))
digamma_p = elementwise("digamma", None, {"f": _DIGAMMA_BODY},
                        lambda g, x, y: g * zeta(2.0, x))


# --- inverse error functions, the normal distribution ----------------------------------------------

# Giles (2010), "Approximating the erfinv function", the single-precision branch pair,
# from w = -log((1 - y)(1 + y)) = -log(c * (2 - c)) with c = 1 - |y| = erfc(x).
_GILES_SMALL = [1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087,
                -4.39150654e-06, -3.5233877e-06, 3.43273939e-07, 2.81022636e-08]
_GILES_LARGE = [2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773,
                -0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257]


def _inverse_erf_body(complement):
    """Scalar code of erfinv (``complement=False``: ``x0 = y``) or erfcinv (``x0 = c``).

    Writes ``y`` (for erf, used when ``|y| <= 0.5``) or ``c = 1 - |y|`` (for erfc), each
    exact, then Giles' guess and three Halley steps: ``f/f'`` divided by ``1 + x f/f'``."""
    if complement:
        setup = """c0 = x0
sgn = C(1)
if c0 > C(1):
    c0 = C(2) - c0
    sgn = C(-1)
use_erf = c0 >= C(0.5)
y = C(1) - c0
c = c0
bad = x0 != x0 or x0 < C(0) or x0 > C(2)
edge = x0 == C(0) or x0 == C(2)"""
    else:
        setup = """y = abs(x0)
sgn = C(1) if x0 >= C(0) else C(-1)
use_erf = y <= C(0.5)
c = C(1) - y
bad = x0 != x0 or y > C(1)
edge = y == C(1)"""
    return setup + f"""
if bad:
    r = C(F.NAN)
elif edge:
    r = sgn * C(F.INF)
else:
    w = -F.log(c * (C(2) - c))
    if w < C(5):
        w = w - C(2.5)
        x = y * ({_horner("w", _GILES_SMALL)})
    elif w < C(16):
        w = F.sqrt(w) - C(3)
        x = y * ({_horner("w", _GILES_LARGE)})
    else:  # erfc(x) ~ exp(-x^2) / (x sqrt(pi)), beyond Giles' range
        t = -F.log(c)
        x = F.sqrt(t - C(0.5) * F.log(t) - C({math.log(SQRT_PI)!r}))
    for _ in range(3):
        d = C({2.0 / SQRT_PI!r}) * F.exp(-x * x)
        if use_erf:
            u = (F.erf(x) - y) / d
        else:
            u = (c - F.erfc(x)) / d
        x = x - u / (C(1) + x * u)
    r = sgn * x"""


# log Phi(x) for x <= -20: -x^2/2 - log(-x) - log(2 pi)/2 + log(1 - 1/x^2 + 3/x^4 - ...)
_LOG_NDTR_SERIES = [1.0] + [(-1) ** k * math.prod(range(1, 2 * k, 2)) for k in range(1, 11)]
_LOG_NDTR = f"""x = x0
lo = C(-20)
if C(1e-300) == C(0):  # float32, where erfc underflows from x = -14 on
    lo = C(-10)
if x > C(0):
    r = F.log1p(C(-0.5) * F.erfc(x * C({SQRTH!r})))
elif x > lo:
    r = F.log(C(0.5) * F.erfc(-x * C({SQRTH!r})))
else:
    z = C(1) / (x * x)
    r = C(-0.5) * x * x - F.log(-x) - C({0.5 * math.log(2 * math.pi)!r}) + F.log(
        {_horner("z", _LOG_NDTR_SERIES)})"""

erfinv_p = elementwise("erfinv", None, {"f": _inverse_erf_body(False)},
                       lambda g, y, x: g * (exp(square(x)) * (SQRT_PI / 2)))
erfcinv_p = elementwise("erfcinv", None, {"f": _inverse_erf_body(True)},
                        lambda g, c, x: g * (exp(square(x)) * (-SQRT_PI / 2)))
def _log_ndtr_lin(g, x, y):
    # d/dx log Phi(x) = phi(x) / Phi(x) = exp(-x^2/2 - log Phi(x)) / sqrt(2 pi): no
    # underflow, but far left the exponent is a difference of two terms near x^2/2 that
    # keeps only their rounding (1e-5 relative at x = -1e6, a factor e at -1e8).  There
    # the Mills ratio's series instead: phi/Phi = -x / (1 - 1/x^2 + 3/x^4 - ...), the
    # series of the value itself (ten terms: 1e-17 from x = -20; float32 from -10).
    start = -10.0 if getattr(x, "dtype", None) == np.float32 else -20.0
    far = less(x, start)
    safe = minimum(x, start)  # (the double where's safe value; minimum keeps float32)
    u = 1.0 / square(safe)
    series = 0.0
    for c in reversed(_LOG_NDTR_SERIES):
        series = series * u + c
    direct = exp(square(x) * -0.5 - y) * (1.0 / SQRT_2PI)
    return g * where(far, -safe / series, direct)


log_ndtr_p = elementwise("log_ndtr", None, {"f": _LOG_NDTR}, _log_ndtr_lin)


# --- modified Bessel functions, exponentially scaled -------------------------------------------

def _bessel_body(order):
    """``i0e`` (order 0) or ``i1e`` (order 1) of ``x0``: the power series
    ``sum (x/2)**(2k+n) / (k! (k+n)!)`` times ``exp(-|x|)`` for ``|x| <= 25``; beyond, the
    asymptotic ``sum (-1)**k a_k(n) / x**k / sqrt(2 pi x)``."""
    mu = 4.0 * order * order
    odd = "C(0.5) * ax" if order else "C(1)"
    return f"""ax = abs(x0)
if ax != ax:
    r = x0
elif ax <= C(25):
    q = C(0.25) * ax * ax
    t = {odd}
    s = t
    k = C(0)
    while t > s * C({EPS / 4!r}):
        k = k + C(1)
        t = t * q / (k * (k + C({order})))
        s = s + t
    r = s * F.exp(-ax)
elif ax == C(F.INF):
    r = C(0)
else:
    t = C(1)
    s = t
    k = C(0)
    while abs(t) > s * C({EPS / 4!r}) and k < C(60):
        k = k + C(1)
        t = -t * (C({mu}) - (C(2) * k - C(1)) * (C(2) * k - C(1))) / (C(8) * k * ax)
        s = s + t
    r = s / F.sqrt(C({2 * math.pi!r}) * ax)""" + ("""
if x0 < C(0):
    r = -r""" if order else "")


# The scaled Bessel functions' derivatives (i0e' = i1e - sign(x) i0e, k0e' = k0e - k1e...)
# are differences of two functions that agree to ~1/(2x): they lose log10(x) digits (1e-8
# at x = 1e8, 3e-4 at 1e12).  Far out they come from the derivative of the asymptotic
# series instead, with a_k = prod_{j<=k} (mu - (2j - 1)^2) / (8^k k!), mu = 4 nu^2:
#   ive'(t) = -sum (-1)^k a_k (k + 1/2) / t^(k+1) / sqrt(2 pi t),
#   kve'(t) = -sum a_k (k + 1/2) / t^(k+1) * sqrt(pi / (2 t)),
# thirteen terms, from t = max(1e3, 10 mu) (each term below 1/80 of the one before).
BESSEL_FAR = 1e3


def far_bessel_derivative(mu, t, first_kind):
    """The derivative of ``ive`` (``first_kind``) or ``kve`` of order ``sqrt(mu)/2`` at
    ``t > 0`` far out, from the asymptotic series (no cancellation)."""
    a, total, power = 1.0, 0.0, 1.0 / t
    for k in range(13):
        if k:
            a = a * ((mu - float((2 * k - 1) ** 2)) / (8.0 * k))
        term = a * (k + 0.5) * power
        total = total - term if first_kind and k % 2 else total + term
        power = power / t
    scale = 1.0 / sqrt(t * (2 * math.pi)) if first_kind else sqrt((math.pi / 2) / t)
    return -scale * total


def _far(x):
    """``(|x| beyond BESSEL_FAR, |x| there and BESSEL_FAR elsewhere)``: the double where's
    safe argument for the series."""
    t = _abs(x)
    # (maximum, not where with a Python number, which would widen float32)
    return less(BESSEL_FAR, t), maximum(t, BESSEL_FAR)


def _i0e_lin(g, x, y):
    far, t = _far(x)  # (i0e is even: its derivative odd)
    return g * where(far, sign(x) * far_bessel_derivative(0.0, t, True), i1e(x) - sign(x) * y)


def _i1e_lin(g, x, y):
    # d/dx i1e = i0e - i1e/x - sign(x) i1e, with the limit 1/2 at x = 0 (double where)
    zero = equal(x, 0.0)
    safe = where(zero, 1.0, x)
    far, t = _far(x)  # (i1e is odd: its derivative even)
    near = where(zero, 0.5, i0e(x) - y / safe - sign(x) * y)
    return g * where(far, far_bessel_derivative(4.0, t, True), near)


i0e_p = elementwise("i0e", None, {"f": _bessel_body(0)}, _i0e_lin)
i1e_p = elementwise("i1e", None, {"f": _bessel_body(1)}, _i1e_lin)

gammaln, gamma, digamma = (_fn(p, 1) for p in (gammaln_p, gamma_p, digamma_p))
erfinv, erfcinv, log_ndtr, i0e, i1e = (_fn(p, 1) for p in (erfinv_p, erfcinv_p, log_ndtr_p,
                                                          i0e_p, i1e_p))
__all__ = ["gammaln", "gamma", "digamma", "zeta", "erfinv", "erfcinv", "log_ndtr", "i0e",
           "i1e"]

"""Elementwise primitives of the regularized incomplete gamma and beta functions and of
their derivatives in the shape parameters.

``gammainc``/``gammaincc`` (``P``, ``Q``) and ``betainc`` (``I_x(a, b)``) are declared as
in :mod:`.special` (a scalar definition, from which every backend's kernel is generated).
Their derivatives in ``x`` are the densities; those in the shapes have no closed form and
are primitives of their own, computed by differentiating the series and continued
fractions that give the values (the route of Boik and Robison-Cox for the beta function,
and of XLA's ``IgammaGradA`` for the gamma function; written here from the maths):

- ``gammainc_da(a, x) = dP/da`` (``dQ/da`` is its negative).  For ``x < a + 1`` the
  series ``P = x**a e**-x sum_n x**n / Gamma(a + n + 1)``, differentiated term by term:
  ``sum_n t_n (log x - digamma(a + n + 1))`` (each term's own digamma, so the ``1/a**2``
  parts of ``P log x`` and ``dP/da`` never cancel for a small ``a``).  Otherwise
  ``Q = x**a e**-x / Gamma(a) h`` with ``h`` Legendre's continued fraction, so
  ``dQ/da = Q (log x - digamma(a) + d log h/da)``: there ``x > a`` and both parts are
  positive.  ``log x - digamma(a)`` is written ``log(x/w) + (log w - digamma(w)) + ...``
  (the recurrence up to ``w >= 10``), no cancellation for ``x`` near a large ``a``.
- ``betainc_da``, ``betainc_db``: on the side of ``x = (a + 1)/(a + b + 2)`` where the
  value's continued fraction converges, ``I = x**p (1-x)**q / (p B(p, q)) / T`` with
  ``d log I/dp = log x + digamma(p + q) - digamma(p + 1) - d log T/dp`` (and in ``q``),
  the other side through ``I_x(a, b) = 1 - I_{1-x}(b, a)``.

The continued fractions' derivatives are carried through the modified Lentz recurrence
(``d log`` of each factor).  Accuracy, against mpmath's differences at 60 digits (session
18): relative 1e-11 (below 1e-10) for shapes up to 1e4 and every ``x`` where the
derivative does not underflow, 2e-10 up to ``MAX_SHAPE = 1e6`` (the prefactor's exponent's
rounding).  Beyond it, or where a sum or fraction has not converged after ``MAX_TERMS``
terms, the kernels give NaN, never a truncated number, and eager calls raise
``FloatingPointError`` saying so.  The derivative in ``x`` of each (the density's
derivative in the shape) is a closed form; the second derivatives in the shapes raise
``NotImplementedError``.
"""
import math

import numpy as np

from ..core import _state
from ._elementwise import elementwise
from .elementwise import equal, exp, log, log1p, where
from .special import EPS, _horner, digamma, gammaln

_EMPTY: dict = {}
MAX_TERMS = 20000
"""The most terms a shape derivative's series or continued fraction may take (NaN after)."""
MAX_SHAPE = 1e6
"""The largest shape parameter with a derivative: the prefactor ``exp(a log x - x -
log Gamma(a))`` carries an absolute error of about ``1e-16 (a log x)`` in its exponent,
so beyond 1e6 the relative error could pass 1e-10 (NaN there instead)."""

_TINY = 1e-30  # Lentz's guard against a zero denominator (a normal float32 too)


# The Taylor coefficients of 1 / Gamma(1 + a) at a = 0 (1, Euler's gamma, ...; mpmath to
# 20 digits): the terms past a**16 are below 1e-19 for a < 0.2.
_RGAMMA1P = (1.0, 0.57721566490153286061, -0.65587807152025388108, -0.042002635034095235529,
             0.1665386113822914895, -0.042197734555544336748, -0.0096219715278769735621,
             0.0072189432466630995424, -0.0011651675918590651121, -0.00021524167411495097282,
             0.00012805028238811618615, -0.000020134854780788238656,
             -1.2504934821426706573e-6, 1.1330272319816958824e-6, -2.0563384169776071035e-7,
             6.1160951044814158179e-9, 5.0020076444692229301e-9)


# Q(a, x) for a < 0.2 and x < a + 1, where Q = 1 - P loses every digit as a -> 0 (P -> 1):
# P = x**a / Gamma(1 + a) (1 + a S), S = sum over n >= 1 of (-x)**n / (n! (a + n)), so
# Q = -expm1(u) - exp(u) a S with u = a log(x) - log Gamma(1 + a), and log Gamma(1 + a) =
# -log1p(a (gamma + ...)) from the series above (1 + a would round a away).  (Cephes'
# and Boost's small-a route; Q(1e-300, 1e-5) is 1.09e-299, not 1 - 1 = 0.)
_GAMMAINCC_SMALL_A = f"""        if a < C(0.2):
            u = a * F.log(x) + F.log1p(a * ({_horner("a", _RGAMMA1P[1:])}))
            t = C(1)
            s = C(0)
            n = C(0)
            d = C(1)
            while abs(d) > abs(s) * C({EPS / 2!r}) and n < C(5000):
                n = n + C(1)
                t = -t * x / n
                d = t / (a + n)
                s = s + d
            r = -F.expm1(u) - F.exp(u) * a * s
        else:
            r = C(1) - s * pre"""


def _gammainc_body(lower):
    """P(a, x) (``lower``) or Q(a, x): the series for ``x < a + 1``, else the continued
    fraction (modified Lentz), times ``x**a exp(-x) / Gamma(a)`` (Numerical Recipes 6.2);
    Q for a small ``a`` below ``a + 1`` by its own series (``_GAMMAINCC_SMALL_A``).
    ``a = inf`` is SciPy's limit: ``P = 0`` below ``x = inf``."""
    p, q = ("C(1)", "C(0)") if lower else ("C(0)", "C(1)")
    return f"""a = x0
x = x1
if a != a or x != x or a < C(0) or x < C(0):
    r = C(F.NAN)
elif a == C(0):
    r = {p} if x > C(0) else C(F.NAN)
elif x == C(0):
    r = {q}
elif a == C(F.INF):
    r = C(F.NAN) if x == C(F.INF) else {q}
elif x == C(F.INF):
    r = {p}
else:
    pre = F.exp(a * F.log(x) - x - F.lgamma(a))
    if x < a + C(1):
        ap = a
        d = C(1) / a
        s = d
        n = C(0)
        while abs(d) > abs(s) * C({EPS / 2!r}) and n < C(5000):
            ap = ap + C(1)
            d = d * x / ap
            s = s + d
            n = n + C(1)
        {"r = s * pre" if lower else _GAMMAINCC_SMALL_A.lstrip()}
    else:
        b = x + C(1) - a
        c = C(1) / C({_TINY!r})
        d = C(1) / b
        h = d
        i = C(0)
        done = False
        while not done and i < C(5000):
            i = i + C(1)
            an = -i * (i - a)
            b = b + C(2)
            d = an * d + b
            if abs(d) < C({_TINY!r}):
                d = C({_TINY!r})
            c = b + an / c
            if abs(c) < C({_TINY!r}):
                c = C({_TINY!r})
            d = C(1) / d
            e = d * c
            h = h * e
            if abs(e - C(1)) < C({EPS!r}):
                done = True
        r = {"C(1) - pre * h" if lower else "pre * h"}"""


def _betacf_step(coefficient):
    return f"""        t = {coefficient}
        d = C(1) + t * d
        if abs(d) < C({_TINY!r}):
            d = C({_TINY!r})
        c = C(1) + t / c
        if abs(c) < C({_TINY!r}):
            c = C({_TINY!r})
        d = C(1) / d
        e = d * c
        h = h * e"""


# I_x(a, b) by its continued fraction (Numerical Recipes 6.4), on the side of
# x = (a + 1) / (a + b + 2) where it converges fast (the other through 1 - I_{1-x}(b, a)).
# (a = 0 or b = inf, b = 0 or a = inf: SciPy's limits, a point mass at x = 0 or at x = 1)
_BETAINC = f"""a = x0
b = x1
x = x2
if a != a or b != b or x != x or a < C(0) or b < C(0) or x < C(0) or x > C(1):
    r = C(F.NAN)
elif (a == C(0) and b == C(0)) or (a == C(F.INF) and b == C(F.INF)):
    r = C(F.NAN)
elif a == C(0) or b == C(F.INF):
    r = C(1) if x > C(0) else C(0)
elif b == C(0) or a == C(F.INF):
    r = C(1) if x == C(1) else C(0)
elif x == C(0):
    r = C(0)
elif x == C(1):
    r = C(1)
else:
    pre = F.exp(F.lgamma(a + b) - F.lgamma(a) - F.lgamma(b) + a * F.log(x) + b * F.log1p(-x))
    swap = x >= (a + C(1)) / (a + b + C(2))
    if swap:
        p = b
        q = a
        y = C(1) - x
    else:
        p = a
        q = b
        y = x
    c = C(1)
    d = C(1) - (p + q) * y / (p + C(1))
    if abs(d) < C({_TINY!r}):
        d = C({_TINY!r})
    d = C(1) / d
    h = d
    m = C(0)
    done = False
    while not done and m < C(5000):
        m = m + C(1)
{_betacf_step("m * (q - m) * y / ((p - C(1) + C(2) * m) * (p + C(2) * m))")}
{_betacf_step("-(p + m) * (p + q + m) * y / ((p + C(2) * m) * (p + C(1) + C(2) * m))")}
        if abs(e - C(1)) < C({EPS!r}):
            done = True
    r = C(1) - pre * h / p if swap else pre * h / p"""


def _gammaln_weak(a):
    """gammaln, a Python float for a Python number (a NumPy float64 would widen float32)."""
    if not isinstance(a, (int, float)):
        return gammaln(a)
    if a <= 0 and (math.isinf(a) or a == math.floor(a)):
        return math.inf  # (the poles, as gammaln's: math.lgamma raises there)
    return math.lgamma(a)


def _power_log(c, v, log_fn, safe):
    """``c * log_fn(v)``, 0 where ``c == 0``: the densities' ``x**0 = 1`` at the ends
    (``0 * log(0)`` was NaN, so the slope of ``gammainc(1, x)`` at ``x = 0``, or of
    ``betainc(a, 1, x)`` at ``x = 1``, was NaN where it is 1 or ``a``).  ``safe`` stands in
    for ``v`` where ``c == 0`` (the double-where idiom: no ``-inf`` in the rule's own
    derivative)."""
    if isinstance(c, (int, float)):
        return 0.0 if c == 0 else c * log_fn(v)
    zero = equal(c, 0.0)
    return where(zero, 0.0, c * log_fn(where(zero, safe, v)))


def _gammainc_density(a, x):
    """d/dx P(a, x) = x**(a-1) exp(-x) / Gamma(a)."""
    return exp(_power_log(a - 1.0, x, log, 1.0) - x - _gammaln_weak(a))


def _betainc_density(a, b, x):
    """d/dx I_x(a, b) = x**(a-1) (1-x)**(b-1) / B(a, b)."""
    return exp(_power_log(a - 1.0, x, log, 1.0) + _power_log(b - 1.0, -x, log1p, 0.0)
               - _gammaln_weak(a) - _gammaln_weak(b) + _gammaln_weak(a + b))


# --- the derivatives in the shape parameters ------------------------------------------------------

# digamma's asymptotic tail: digamma(w) = log(w) - 1/(2w) - sum B_2k / (2k w**2k)
_PSI_TAIL = [1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12]

# the tolerance in the compute dtype (float32 cannot reach float64's)
_TOLERANCE = f"""tol = C({EPS!r})
if C(1e-300) == C(0):
    tol = C(6e-8)"""


def _psi_parts(v, tag):
    """Scalar code splitting ``digamma(v)`` (``v > 0``) as ``log(w{tag}) - tail{tag} -
    acc{tag}``: ``acc`` the recurrence's ``sum 1/(v + k)`` up to ``w = v + k >= 10``,
    ``tail`` the asymptotic series there (below 1e-16), so that ``log(x) - digamma(v)``
    can be written ``log(x / w) + tail + acc`` without cancelling."""
    return f"""w{tag} = {v}
acc{tag} = C(0)
while w{tag} < C(10):
    acc{tag} = acc{tag} + C(1) / w{tag}
    w{tag} = w{tag} + C(1)
z{tag} = C(1) / (w{tag} * w{tag})
tail{tag} = C(0.5) / w{tag} + z{tag} * ({_horner(f"z{tag}", _PSI_TAIL)})"""


def _indent(code, spaces):
    return "\n".join(" " * spaces + line for line in code.splitlines())


_GAMMAINC_DA = f"""a = x0
x = x1
{_TOLERANCE}
if a != a or x != x or a <= C(0) or x < C(0) or a > C({MAX_SHAPE!r}):
    r = C(F.NAN)
elif x == C(0) or x == C(F.INF):
    r = C(0)
else:
    pre = F.exp(a * F.log(x) - x - F.lgamma(a))
    done = False
    if x < a + C(1):
{_indent(_psi_parts("a + C(1)", "1"), 8)}
        lead = F.log(x / w1) + tail1 + acc1
        t = C(1) / a
        s = t * lead
        harmonic = C(0)
        ap = a
        n = C(0)
        while not done and n < C({MAX_TERMS}):
            n = n + C(1)
            ap = ap + C(1)
            t = t * x / ap
            harmonic = harmonic + C(1) / ap
            s = s + t * (lead - harmonic)
            if t * (abs(lead) + harmonic) <= abs(s) * tol:
                done = True
        r = pre * s
    else:
{_indent(_psi_parts("a", "0"), 8)}
        lead = F.log(x / w0) + tail0 + acc0
        b = x + C(1) - a
        d = C(1) / b
        dd = d * d
        c = C(1) / C({_TINY!r})
        dc = C(0)
        h = d
        g = d
        i = C(0)
        while not done and i < C({MAX_TERMS}):
            i = i + C(1)
            an = -i * (i - a)
            b = b + C(2)
            u = an * d + b
            du = i * d + an * dd - C(1)
            if abs(u) < C({_TINY!r}):
                u = C({_TINY!r})
            d = C(1) / u
            dd = -d * d * du
            dc = i / c - (an / c) * (dc / c) - C(1)
            c = b + an / c
            if abs(c) < C({_TINY!r}):
                c = C({_TINY!r})
            e = d * c
            h = h * e
            step = dd / d + dc / c
            g = g + step
            if abs(e - C(1)) < tol and abs(step) <= abs(g) * tol:
                done = True
        r = -pre * h * (lead + g)
    if not done:
        r = C(F.NAN)"""


def _lentz_step(alpha, dalpha_p, dalpha_q, indent=8):
    """One factor of ``T = 1 + alpha_1/(1 + alpha_2/(1 + ...))`` by modified Lentz, with
    the derivatives of ``d`` and ``c`` in ``p`` and ``q`` and the factor's ``d log``
    added to ``gp``, ``gq``."""
    return _indent(f"""al = {alpha}
alp = {dalpha_p}
alq = {dalpha_q}
u = C(1) + al * d
dup = alp * d + al * ddp
duq = alq * d + al * ddq
if abs(u) < C({_TINY!r}):
    u = C({_TINY!r})
d = C(1) / u
ddp = -d * d * dup
ddq = -d * d * duq
dcp = alp / c - (al / c) * (dcp / c)
dcq = alq / c - (al / c) * (dcq / c)
c = C(1) + al / c
if abs(c) < C({_TINY!r}):
    c = C({_TINY!r})
e = d * c
t = t * e
stepp = ddp / d + dcp / c
stepq = ddq / d + dcq / c
gp = gp + stepp
gq = gq + stepq""", indent)


def _betainc_shape_body(wrt_a):
    """d/da (``wrt_a``) or d/db of ``I_x(a, b)``; see the module docstring."""
    even = "m * (q - m) * y / ((p - C(1) + C(2) * m) * (p + C(2) * m))"
    odd = "-(p + m) * (p + q + m) * y / ((p + C(2) * m) * (p + C(1) + C(2) * m))"
    pick = ("r = -dq if swap else dp") if wrt_a else ("r = -dp if swap else dq")
    return f"""a = x0
b = x1
x = x2
{_TOLERANCE}
bad = a != a or b != b or x != x or a <= C(0) or b <= C(0) or x < C(0) or x > C(1)
if bad or a > C({MAX_SHAPE!r}) or b > C({MAX_SHAPE!r}):
    r = C(F.NAN)
elif x == C(0) or x == C(1):
    r = C(0)
else:
    swap = x >= (a + C(1)) / (a + b + C(2))
    if swap:
        p = b
        q = a
        y = C(1) - x
        ly = F.log1p(-x)
        lyc = F.log(x)
    else:
        p = a
        q = b
        y = x
        ly = F.log(x)
        lyc = F.log1p(-x)
    value = F.exp(F.lgamma(p + q) - F.lgamma(p) - F.lgamma(q) + p * ly + q * lyc) / p
{_indent(_psi_parts("p + q", "s"), 4)}
{_indent(_psi_parts("p + C(1)", "p"), 4)}
{_indent(_psi_parts("q", "q"), 4)}
    c = C(1)
    dcp = C(0)
    dcq = C(0)
    d = C(0)
    ddp = C(0)
    ddq = C(0)
    gp = C(0)
    gq = C(0)
    t = C(1)
    m = C(0)
{_lentz_step("-(p + q) * y / (p + C(1))", "-y * (C(1) - q) / ((p + C(1)) * (p + C(1)))",
             "-y / (p + C(1))", 4)}
    done = False
    while not done and m < C({MAX_TERMS}):
        m = m + C(1)
{_lentz_step(even, "-al * (C(1) / (p - C(1) + C(2) * m) + C(1) / (p + C(2) * m))",
             "m * y / ((p - C(1) + C(2) * m) * (p + C(2) * m))")}
        change = abs(e - C(1))
        small = abs(stepp) <= abs(gp) * tol and abs(stepq) <= abs(gq) * tol
{_lentz_step(odd, "al * (C(1) / (p + m) + C(1) / (p + q + m) - C(1) / (p + C(2) * m) "
             "- C(1) / (p + C(1) + C(2) * m))", "al / (p + q + m)")}
        if change < tol and abs(e - C(1)) < tol and small:
            if abs(stepp) <= abs(gp) * tol and abs(stepq) <= abs(gq) * tol:
                done = True
    value = value / t
    # d log I/dp = log y + digamma(p + q) - digamma(p + 1) - d log T/dp, and in q
    dp = value * (ly + F.log(ws / wp) - tails + tailp - accs + accp - gp)
    dq = value * (lyc + F.log(ws / wq) - tails + tailq - accs + accq - gq)
    {pick}
    if not done:
        r = C(F.NAN)"""


def _finite_or_raise(result, function, *args):
    """``result``, after checking (on concrete arrays: under ``jit`` the NaN stays) that it
    is a number wherever the arguments lie in the function's domain (positive shapes,
    ``x >= 0``, and ``x <= 1`` for the beta function)."""
    if not (isinstance(result, (np.ndarray, np.generic)) and np.isnan(result).any()):
        return result
    if not all(isinstance(v, (np.ndarray, np.generic, int, float)) for v in args):
        return result
    *shapes, x = np.broadcast_arrays(*[np.asarray(v, np.float64) for v in args])
    with np.errstate(invalid="ignore"):
        inside = np.logical_and.reduce([s > 0 for s in shapes] + [x >= 0])
        if len(shapes) == 2:
            inside &= x <= 1
    bad = np.isnan(result) & inside
    if bad.any():
        where_bad = tuple(float(v[bad].flat[0]) for v in (*shapes, x))
        raise FloatingPointError(
            f"{function}: the derivative in the shape parameters is not computed at "
            f"{where_bad} (NaN, rather than a number that could be wrong): the shapes must "
            f"lie in (0, {MAX_SHAPE:g}] (beyond, the prefactor loses its accuracy), and "
            f"its series did not converge there in {MAX_TERMS} terms if they do")
    return result


def _second_in_shape(function):
    def lin(g, *args):
        raise NotImplementedError(
            f"{function}: the second derivative with respect to the shape parameters is "
            f"not implemented (the first is); differentiate it with respect to x only, or "
            f"mark the shapes constant with fg.stop_gradient")
    return lin


def _safe_log(v, log_fn, at):
    """``log_fn(v)`` with ``at`` standing in where ``v`` is 0 (the densities are 0 or inf
    there: the double where keeps ``0 * -inf`` out of their products)."""
    return log_fn(where(equal(v, 0.0), at, v))


def _digamma_weak(a):
    """digamma, a Python float for a Python number (an array would widen float32)."""
    return float(digamma(float(a))) if isinstance(a, (int, float)) else digamma(a)


def _gammainc_da_lin_x(g, a, x, out):
    # d/dx dP/da = d/da of the density = density (log x - digamma(a))
    return g * (_gammainc_density(a, x) * (_safe_log(x, log, 1.0) - _digamma_weak(a)))


def _betainc_da_lin_x(g, a, b, x, out):
    return g * (_betainc_density(a, b, x) * (_safe_log(x, log, 1.0) - _digamma_weak(a)
                                               + _digamma_weak(a + b)))


def _betainc_db_lin_x(g, a, b, x, out):
    return g * (_betainc_density(a, b, x) * (_safe_log(-x, log1p, 0.0) - _digamma_weak(b)
                                               + _digamma_weak(a + b)))


gammainc_da_p = elementwise("gammainc_da", None, {"f": _GAMMAINC_DA},
                            _second_in_shape("gammainc(a, x)"), _gammainc_da_lin_x)
betainc_da_p = elementwise("betainc_da", None, {"f": _betainc_shape_body(True)},
                           _second_in_shape("betainc(a, b, x)"),
                           _second_in_shape("betainc(a, b, x)"), _betainc_da_lin_x)
betainc_db_p = elementwise("betainc_db", None, {"f": _betainc_shape_body(False)},
                           _second_in_shape("betainc(a, b, x)"),
                           _second_in_shape("betainc(a, b, x)"), _betainc_db_lin_x)


def gammainc_da(a, x):
    """``dP/da`` of the regularized lower incomplete gamma function ``P(a, x)``,
    elementwise (a funcgrad primitive; NaN outside ``a > 0``, ``x >= 0``).

    >>> round(float(gammainc_da(1.0, 2.0)), 12)  # mpmath: -0.22082542621185950585
    -0.220825426212
    """
    return _finite_or_raise(_state.interpreter.process(gammainc_da_p, (a, x), _EMPTY),
                            "gammainc(a, x)", a, x)


def betainc_da(a, b, x):
    """``d/da`` of the regularized incomplete beta function ``I_x(a, b)``, elementwise.

    >>> round(float(betainc_da(1.0, 1.0, 0.5)), 12)  # I = x**a at b = 1: x**a log x
    -0.34657359028
    """
    return _finite_or_raise(_state.interpreter.process(betainc_da_p, (a, b, x), _EMPTY),
                            "betainc(a, b, x)", a, b, x)


def betainc_db(a, b, x):
    """``d/db`` of the regularized incomplete beta function ``I_x(a, b)``, elementwise.

    >>> round(float(betainc_db(1.0, 1.0, 0.5)), 12)  # I = 1 - (1-x)**b at a = 1
    0.34657359028
    """
    return _finite_or_raise(_state.interpreter.process(betainc_db_p, (a, b, x), _EMPTY),
                            "betainc(a, b, x)", a, b, x)


gammainc_p = elementwise("gammainc", None, {"f": _gammainc_body(True)},
                         lambda g, a, x, out: g * gammainc_da(a, x),
                         lambda g, a, x, out: g * _gammainc_density(a, x))
gammaincc_p = elementwise("gammaincc", None, {"f": _gammainc_body(False)},
                          lambda g, a, x, out: -g * gammainc_da(a, x),
                          lambda g, a, x, out: -g * _gammainc_density(a, x))
betainc_p = elementwise("betainc", None, {"f": _BETAINC},
                        lambda g, a, b, x, out: g * betainc_da(a, b, x),
                        lambda g, a, b, x, out: g * betainc_db(a, b, x),
                        lambda g, a, b, x, out: g * _betainc_density(a, b, x))


def gammainc(a, x):
    """Elementwise ``gammainc`` (a funcgrad primitive).

    >>> round(float(gammainc(1.0, 2.0)), 12)  # 1 - exp(-2)
    0.864664716763
    """
    return _state.interpreter.process(gammainc_p, (a, x), _EMPTY)


def gammaincc(a, x):
    """Elementwise ``gammaincc`` (a funcgrad primitive).

    >>> round(float(gammaincc(1.0, 2.0)), 12)  # exp(-2)
    0.135335283237
    """
    return _state.interpreter.process(gammaincc_p, (a, x), _EMPTY)


def betainc(a, b, x):
    """Elementwise ``betainc`` (a funcgrad primitive).

    >>> round(float(betainc(2.0, 1.0, 0.5)), 12)  # x**2
    0.25
    """
    return _state.interpreter.process(betainc_p, (a, b, x), _EMPTY)


for _f, _p in ((gammainc, gammainc_p), (gammaincc, gammaincc_p), (betainc, betainc_p),
               (gammainc_da, gammainc_da_p), (betainc_da, betainc_da_p),
               (betainc_db, betainc_db_p)):
    _f.primitive = _p  # type: ignore[union-attr]

__all__ = ["gammainc", "gammaincc", "betainc", "gammainc_da", "betainc_da", "betainc_db"]

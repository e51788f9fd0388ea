"""Elementwise primitives of the regularized incomplete gamma and beta functions and of
their derivatives in the shape parameters.

``gammainc``/``gammaincc`` (``P``, ``Q``) and ``betainc`` (``I_x(a, b)``) are declared as
in :mod:`.special`, from the scalar definitions of :mod:`._incomplete_values` (Temme's
uniform expansion near ``x = a`` for a large ``a``, series and continued fractions
elsewhere; every backend's kernel is generated from them).  A value whose sum did not
converge is NaN in the kernels, and the eager functions raise ``FloatingPointError``
naming the region.
Their derivatives in ``x`` are the densities; those in the shapes have no closed form and
are primitives of their own, computed by differentiating the series and continued
fractions that give the values (the route of Boik and Robison-Cox for the beta function,
and of XLA's ``IgammaGradA`` for the gamma function; written here from the maths):

- ``gammainc_da(a, x) = dP/da`` (``dQ/da`` is its negative).  For ``a > 20`` and
  ``|x - a| < 0.3 a`` (where the values use it), Temme's expansion differentiated in
  ``a`` at fixed ``x``: with ``E = exp(-a eta**2/2) / sqrt(2 pi a)``, ``deta/da = -(lambda
  - 1)/(a eta)`` and ``d(a eta**2/2)/da = -log(lambda)``, ``dQ/da = E ((lambda - 1)/eta -
  eta/2 + S (log(lambda) - 1/(2a)) - S_eta (lambda - 1)/(a eta) - S_y / a**2)``, ``S(eta,
  y = 1/a) = sum_k c_k(eta) y**k`` (no cancellation: the bracket is ``1 - eta/2 + ...``).
  Elsewhere, for ``x < a + 1`` the
  series ``P = x**a e**-x sum_n x**n / Gamma(a + n + 1)``, differentiated term by term:
  ``sum_n t_n (log x - digamma(a + n + 1))`` (each term's own digamma, so the ``1/a**2``
  parts of ``P log x`` and ``dP/da`` never cancel for a small ``a``).  Otherwise
  ``Q = x**a e**-x / Gamma(a) h`` with ``h`` Legendre's continued fraction, so
  ``dQ/da = Q (log x - digamma(a) + d log h/da)``: there ``x > a`` and both parts are
  positive.  ``log x - digamma(a)`` is written ``log(x/w) + (log w - digamma(w)) + ...``
  (the recurrence up to ``w >= 10``).  Both take the values' Stirling-form prefactor.
- ``betainc_da``, ``betainc_db``: on the side of ``x = (a + 1)/(a + b + 2)`` where the
  value's continued fraction converges, ``I = x**p (1-x)**q / (p B(p, q)) / T`` with
  ``d log I/dp = log x + digamma(p + q) - digamma(p + 1) - d log T/dp`` (and in ``q``),
  the other side through ``I_x(a, b) = 1 - I_{1-x}(b, a)``; the prefactor as the value's
  (about the mean), and the fraction's odd denominators formed as the value's are.

The continued fractions' derivatives are carried through the modified Lentz recurrence
(``d log`` of each factor).  Accuracy against mpmath (session 19: series of ``dP/da`` at
40+ digits; central differences of the beta function's fraction at 80 digits): ``dP/da``
within 1.4e-13 relative for ``a`` from 25 to 1e9, ``x`` within 30 standard deviations;
``betainc_da/db`` within 1e-12 for shapes up to 1e7 and 3.7e-10 at 1e8 (one shape 1e8, the
other 1..30, ``x`` below the mean).  The beta function's shapes must lie in ``(0, MAX_SHAPE
= 1e8]``; beyond it, or where a sum or fraction has not converged after ``MAX_TERMS``
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
from ._incomplete_values import (BETA_PREFACTOR_AND_SIDE, BETAINC, GAMMA_PREFACTOR, TOLERANCE,
                                 _indent, _log1pmx, betainc_body, gammainc_body,
                                 temme_da_sums)
from .special import _horner, digamma, gammaln

_EMPTY: dict = {}
MAX_TERMS = 20000
"""The most terms a shape derivative's series or continued fraction may take (NaN after)."""
MAX_SHAPE = 1e8
"""The largest shape parameter with a derivative of the beta function: its continued
fraction's derivative accumulates rounding that grows with the larger shape (worst 3.7e-10
relative at 1e8 against mpmath, 1.7e-9 at 1e9, session 19); beyond, NaN (and an error in
eager calls).  The gamma function's has no bound: Temme's expansion only improves."""

_TINY = 1e-30  # Lentz's guard against a zero denominator (a normal float32 too)


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


def _psi_parts(v, tag):
    """Scalar code splitting ``digamma(v)`` (``v > 0``) as ``log(w{tag}) - tail{tag} -
    acc{tag}``: ``acc`` the recurrence's ``sum 1/(v + k)`` up to ``w = v + k >= 10``,
    ``tail`` the asymptotic series there (below 1e-16), so that ``log(x) - digamma(v)``
    can be written ``log(x / w) + tail + acc`` without cancelling."""
    return f"""w{tag} = {v}
acc{tag} = C(0)
n{tag} = C(0)
while w{tag} < C(10):
    acc{tag} = acc{tag} + C(1) / w{tag}
    w{tag} = w{tag} + C(1)
    n{tag} = n{tag} + C(1)
z{tag} = C(1) / (w{tag} * w{tag})
tail{tag} = C(0.5) / w{tag} + z{tag} * ({_horner(f"z{tag}", _PSI_TAIL)})"""


_GAMMAINC_DA = f"""a = x0
x = x1
{TOLERANCE}
if a != a or x != x or a <= C(0) or x < C(0) or a == C(F.INF):
    r = C(F.NAN)
elif x == C(0) or x == C(F.INF):
    r = C(0)
else:
    mu = (x - a) / a
    done = False
    if a > C(20) and abs(mu) < C(0.3):
{_indent(_log1pmx("mu", "lpm"), 8)}
        eta = F.sqrt(-C(2) * lpm)
        if mu < C(0):
            eta = -eta
        ratio = C(1) if eta == C(0) else mu / eta
        y = C(1) / a
{_indent(temme_da_sums(), 8)}
        done = abs(last) <= abs(s) * tol
        dq = (ratio - C(0.5) * eta + s * (F.log1p(mu) - C(0.5) * y) - s_eta * ratio * y
              - s_y * y * y)
        r = -F.exp(a * lpm) / F.sqrt(C({2 * 3.141592653589793!r}) * a) * dq
    elif x < a + C(1):
{_indent(GAMMA_PREFACTOR, 8)}
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
{_indent(GAMMA_PREFACTOR, 8)}
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


def _lentz_step(alpha, dalpha_p, dalpha_q, one_plus=None, keep=False, indent=8, first=False):
    """One factor of ``T = 1 + alpha_1/(1 + alpha_2/(1 + ...))`` by modified Lentz, with
    the derivatives of ``d`` and ``c`` in ``p`` and ``q`` and the factor's ``d log``
    added to ``gp``, ``gq``.  ``keep``: also keep ``dm1 = d - 1``, ``cm1 = c - 1``;
    ``one_plus``: ``1 + alpha`` written without cancellation, the denominators formed
    from it and the previous step's ``dm1``, ``cm1`` (see ``_BETACF_STEPS`` of
    :mod:`._incomplete_values`)."""
    u, c_new = "C(1) + al * d", "C(1) + al / c"
    if one_plus is not None:
        # (the first factor, from d = 0 and c = 1, needs only c's)
        u, c_new = ("C(1)" if first else "onet + al * dm1"), "(onet + cm1) / c"
    lines = [f"al = {alpha}", f"alp = {dalpha_p}", f"alq = {dalpha_q}"]
    if one_plus is not None:
        lines.append(f"onet = {one_plus}")
    lines += [f"u = {u}", "dup = alp * d + al * ddp", "duq = alq * d + al * ddq",
              f"if abs(u) < C({_TINY!r}):", f"    u = C({_TINY!r})"]
    if keep:
        lines.append("dm1 = -al * d / u")
    lines += ["d = C(1) / u", "ddp = -d * d * dup", "ddq = -d * d * duq",
              "dcp = alp / c - (al / c) * (dcp / c)", "dcq = alq / c - (al / c) * (dcq / c)"]
    if keep:
        lines += ["cm1 = al / c", "c = C(1) + cm1"]
    else:
        lines.append(f"c = {c_new}")
    lines += [f"if abs(c) < C({_TINY!r}):", f"    c = C({_TINY!r})"]
    if keep:
        lines.append("    cm1 = c - C(1)")
    lines += ["e = d * c", "t = t * e", "stepp = ddp / d + dcp / c",
              "stepq = ddq / d + dcq / c", "gp = gp + stepp", "gq = gq + stepq"]
    return _indent("\n".join(lines), indent)


def _betainc_shape_body(wrt_a):
    """d/da (``wrt_a``) or d/db of ``I_x(a, b)``; see the module docstring."""
    even = "m * (q - m) * y / ((p - C(1) + C(2) * m) * (p + C(2) * m))"
    odd = "-(p + m) * (p + q + m) * y / ((p + C(2) * m) * (p + C(1) + C(2) * m))"
    # 1 + odd = (1 - y) - y (r - 1), r - 1 = (p (q - 2m - 1) + m (q - 3m - 2)) / (...)
    odd_one_plus = ("yc - y * ((p * (q - C(2) * m - C(1)) + m * (q - C(3) * m - C(2)))"
                    " / ((p + C(2) * m) * (p + C(1) + C(2) * m)))")
    pick = ("r = -dq if swap else dp") if wrt_a else ("r = -dp if swap else dq")
    return f"""a = x0
b = x1
x = x2
{TOLERANCE}
bad = a != a or b != b or x != x or a <= C(0) or b <= C(0) or x < C(0) or x > C(1)
if bad or a > C({MAX_SHAPE!r}) or b > C({MAX_SHAPE!r}):
    r = C(F.NAN)
elif x == C(0) or x == C(1):
    r = C(0)
else:
{_indent(BETA_PREFACTOR_AND_SIDE, 4)}
    ly = F.log1p(-x) if swap else F.log(x)
    lyc = F.log(x) if swap else F.log1p(-x)
    value = pre / p
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
    dm1 = C(0)
    cm1 = C(0)
{_lentz_step("-(p + q) * y / (p + C(1))", "-y * (C(1) - q) / ((p + C(1)) * (p + C(1)))",
             "-y / (p + C(1))", "(p * yc + (C(1) - q * y)) / (p + C(1))", False, 4, True)}
    done = False
    while not done and m < C({MAX_TERMS}):
        m = m + C(1)
{_lentz_step(even, "-al * (C(1) / (p - C(1) + C(2) * m) + C(1) / (p + C(2) * m))",
             "m * y / ((p - C(1) + C(2) * m) * (p + C(2) * m))", None, True)}
        change = abs(e - C(1))
        small = abs(stepp) <= abs(gp) * tol and abs(stepq) <= abs(gq) * tol
{_lentz_step(odd, "al * (C(1) / (p + m) + C(1) / (p + q + m) - C(1) / (p + C(2) * m) "
             "- C(1) / (p + C(1) + C(2) * m))", "al / (p + q + m)", odd_one_plus)}
        if change < tol and abs(e - C(1)) < tol and small:
            if abs(stepp) <= abs(gp) * tol and abs(stepq) <= abs(gq) * tol:
                done = True
    value = value / t
    # d log I/dp = log y + digamma(p + q) - digamma(p + 1) - d log T/dp, and in q; the
    # digammas' logarithms differenced as log1p((ws - wp) / wp), ws - wp = q - 1 plus the
    # difference of the recurrences' step counts (log(ws / wp) would round to eps p / q
    # relative at p >> q, where the terms are O(q / p))
    dp = value * (ly + F.log1p((q - C(1) + (ns - np)) / wp) - tails + tailp - accs + accp - gp)
    dq = value * (lyc + F.log1p((p + (ns - nq)) / wq) - tails + tailq - accs + accq - gq)
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
        inside = np.logical_and.reduce([s > 0 for s in shapes] + [x >= 0] + [
            np.isfinite(s) for s in shapes])
        if len(shapes) == 2:
            inside &= x <= 1
    bad = np.isnan(result) & inside
    if bad.any():
        where_bad = tuple(float(v[bad].flat[0]) for v in (*shapes, x))
        if len(shapes) == 2 and max(where_bad[:2]) > MAX_SHAPE:
            why = (f"the shapes must lie in (0, {MAX_SHAPE:g}] (beyond, the rounding of its "
                   f"continued fraction's derivative would pass 1e-9 relative)")
        else:
            why = f"its series or continued fraction did not converge in {MAX_TERMS} terms"
        raise FloatingPointError(
            f"{function}: the derivative in the shape parameters is not computed at "
            f"{where_bad} (NaN, rather than a number that could be wrong): {why}")
    return result


def _gamma_region(a, x):
    if a > 20 and abs(x - a) < 0.3 * a:
        return "Temme's uniform expansion (a > 20, |x - a| < 0.3 a)"
    return "the series (x < a + 1)" if x < a + 1 else "the continued fraction (x >= a + 1)"


def _value_or_raise(result, function, *args):
    """``result``, after checking (on concrete arrays: under ``jit`` the NaN stays) that it
    is a number wherever the arguments are finite and inside the domain: a NaN there is a
    sum that did not converge, never returned as a number."""
    if not (isinstance(result, (np.ndarray, np.generic)) and np.isnan(result).any()):
        return result
    if not all(isinstance(v, (np.ndarray, np.generic, int, float)) for v in args):
        return result
    *shapes, x, result = np.broadcast_arrays(*[np.asarray(v, np.float64) for v in args],
                                             result)
    with np.errstate(invalid="ignore"):
        inside = np.logical_and.reduce([s > 0 for s in shapes] + [x >= 0] + [
            np.isfinite(v) for v in (*shapes, x)])
        if len(shapes) == 2:
            inside &= x <= 1
    bad = np.isnan(result) & inside
    if bad.any():
        point = tuple(float(v[bad].flat[0]) for v in (*shapes, x))
        region = (_gamma_region(*point) if len(shapes) == 1
                  else "the continued fraction")
        raise FloatingPointError(
            f"{function}: {region} did not converge at {point}; the value is NaN rather "
            f"than a truncated sum that could be wrong.  Please report the point")
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


gammainc_p = elementwise("gammainc", None, {"f": gammainc_body(True)},
                         lambda g, a, x, out: g * gammainc_da(a, x),
                         lambda g, a, x, out: g * _gammainc_density(a, x))
gammaincc_p = elementwise("gammaincc", None, {"f": gammainc_body(False)},
                          lambda g, a, x, out: -g * gammainc_da(a, x),
                          lambda g, a, x, out: -g * _gammainc_density(a, x))
betainc_p = elementwise("betainc", None, {"f": BETAINC},
                        lambda g, a, b, x, out: g * betainc_da(a, b, x),
                        lambda g, a, b, x, out: g * betainc_db(a, b, x),
                        lambda g, a, b, x, out: g * _betainc_density(a, b, x))
betaincc_p = elementwise("betaincc", None, {"f": betainc_body(upper=True)},
                         lambda g, a, b, x, out: -g * betainc_da(a, b, x),
                         lambda g, a, b, x, out: -g * betainc_db(a, b, x),
                         lambda g, a, b, x, out: -g * _betainc_density(a, b, x))


def gammainc(a, x):
    """Elementwise ``gammainc`` (a funcgrad primitive).

    >>> round(float(gammainc(1.0, 2.0)), 12)  # 1 - exp(-2)
    0.864664716763
    """
    return _value_or_raise(_state.interpreter.process(gammainc_p, (a, x), _EMPTY),
                           "gammainc(a, x)", a, x)


def gammaincc(a, x):
    """Elementwise ``gammaincc`` (a funcgrad primitive).

    >>> round(float(gammaincc(1.0, 2.0)), 12)  # exp(-2)
    0.135335283237
    """
    return _value_or_raise(_state.interpreter.process(gammaincc_p, (a, x), _EMPTY),
                           "gammaincc(a, x)", a, x)


def betainc(a, b, x):
    """Elementwise ``betainc`` (a funcgrad primitive).

    >>> round(float(betainc(2.0, 1.0, 0.5)), 12)  # x**2
    0.25
    """
    return _value_or_raise(_state.interpreter.process(betainc_p, (a, b, x), _EMPTY),
                           "betainc(a, b, x)", a, b, x)


def betaincc(a, b, x):
    """Elementwise ``1 - betainc(a, b, x)`` without its cancellation (a funcgrad primitive).

    >>> float(betaincc(2.0, 1.0, 0.5))  # 1 - x**2
    0.75
    """
    return _value_or_raise(_state.interpreter.process(betaincc_p, (a, b, x), _EMPTY),
                           "betaincc(a, b, x)", a, b, x)


for _f, _p in ((gammainc, gammainc_p), (gammaincc, gammaincc_p), (betainc, betainc_p),
               (betaincc, betaincc_p),
               (gammainc_da, gammainc_da_p), (betainc_da, betainc_da_p),
               (betainc_db, betainc_db_p)):
    _f.primitive = _p  # type: ignore[union-attr]

__all__ = ["gammainc", "gammaincc", "betainc", "betaincc", "gammainc_da", "betainc_da",
           "betainc_db"]

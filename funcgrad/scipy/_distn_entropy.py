"""The entropy of a univariate distribution that states none of its own (no ``_entropy``):
SciPy's closed form where SciPy has one, else the same quantity as SciPy's generic
``rv_continuous._entropy`` (``-integral f log f``) or ``rv_discrete._entropy`` (``-sum p
log p``), computed with funcgrad's operations so that it differentiates in the shape
parameters like the density does.

* Continuous: the double-exponential rule of :mod:`._distn_moments_rules` (its grid, its
  concrete centre and spread, its traced support ends), applied to ``-f log f``.  The
  support is cut at the centre and at the points where a family's density has a kink
  (``KNOTS``: crystalball's ``-beta``, irwinhall's integers), and each piece is mapped from
  a cut onto ``(0, inf)``, so that the rule clusters its nodes at the kink on both sides and
  converges geometrically again.  The cuts are concrete: the density is continuous there,
  so Leibniz's boundary terms cancel and the integral's derivative needs none of theirs.
* Discrete: the sum of ``entr(pmf)`` over the finite support, or over a window of 40
  standard deviations about the centre (200000 terms at least for the families whose
  masses fall as a power of ``k``: betanbinom, yulesimon, zipf).
* ``CLOSED``: geom, wrapcauchy, tukeylambda (SciPy's integral of the log of the quantile's
  slope over ``(0, 1)``, by tanh-sinh), truncnorm (written from the family's own log-density, so
  that an infinite end and an interval far in a tail stay finite: SciPy's closed form is NaN
  there, e.g. ``truncnorm.entropy(-inf, 1)``), landau (SciPy's constant, from mpmath).
* ``ksone``, ``kstwo`` (their ``n`` is an integer, with no derivative), and
  ``studentized_range`` (its shapes take no derivative, as its other methods): SciPy's
  values on concrete shape parameters.  For ``n <= 20`` ksone and kstwo are SciPy's
  integral of SciPy's density cut at its kinks (``j/n``, ``j/(2n)``): SciPy's own uncut
  ``quad`` is 1.7e-6 off at ``kstwo(3)``; beyond, SciPy's ``entropy``.
* ``levy_stable`` raises NotImplementedError: SciPy 1.17's own ``levy_stable.entropy``
  fails (TypeError), and its density is itself a numerical integral whose noise (two
  quadratures of it disagree at 5e-7) leaves no entropy that could be trusted to match.

Where SciPy's generic sum or integral stops short the true value is returned (checked with
mpmath): ``kstwobign.entropy()`` is 0.000890322654402674 (SciPy: 0.000890322317...),
``betanbinom.entropy(5, 9.3, 1)`` 1.0548415829305461 (SciPy's sum stops at 1.05484158271),
``crystalball.entropy(2, 3)`` 1.5028381809097847 (SciPy: 1.5028381808806).

Under ``jit`` or ``vmap`` the numerical entropies raise (their nodes and windows are chosen
on concrete values); call ``entropy`` outside them, with arrays of parameters at once.
"""
import math
from typing import Any, Callable, Dict

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..primitives.structural import stop_gradient
from ._distn_moments_rules import _DV, _V, _centre_and_spread, _expanded, support
from ._implicit_root import wants_derivative
from . import special as sp

__all__ = ["standard_entropy", "CLOSED", "KNOTS"]

_LOG_SQRT_2PI_E = 0.5 * math.log(2 * math.pi * math.e)
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


# --- closed forms (SciPy's), as functions of the distribution and its shape parameters ---

def _geom(dist, p):
    # (SciPy's -log p - log1p(-p) (1 - p) / p, with xlog1py: 0 at p = 1, not NaN)
    return -fnp.log(p) - sp.xlog1py(1.0 - p, -p) / p


def _truncnorm(dist, a, b):
    """``log(sqrt(2 pi e) Z) + (a phi(a) - b phi(b)) / (2 Z)``, ``Z = Phi(b) - Phi(a)``:
    ``phi(a) / Z`` is the family's density at ``a`` (its log taken from the tail the
    interval lies in), and ``a phi(a)`` is 0 at an infinite end."""
    z = fnp.clip(0.0, a, b)  # (a point of the support, to read log Z off the log-density)
    log_mass = -dist._logpdf(z, a, b) - 0.5 * z * z - _LOG_SQRT_2PI

    def end_term(e):
        finite = fnp.isfinite(e)
        safe = fnp.where(finite, e, fnp.where(fnp.isfinite(a), a, b))
        safe = fnp.where(fnp.isfinite(safe), safe, 0.0)
        return fnp.where(finite, safe * fnp.exp(dist._logpdf(safe, a, b)), 0.0)
    return _LOG_SQRT_2PI_E + log_mass + 0.5 * (end_term(a) - end_term(b))


# tanh-sinh nodes on (0, 1/2): p = 1/2 / (1 + exp(-pi sinh t)) (no cancellation near 0)
_T = np.arange(-108, 109) / 24.0
_P = 0.5 / (1.0 + np.exp(-math.pi * np.sinh(_T)))
_DP = (0.5 * math.pi * np.cosh(_T) * np.exp(-math.pi * np.sinh(_T))
       / (1.0 + np.exp(-math.pi * np.sinh(_T))) ** 2 / 24.0)


def _tukeylambda(dist, lam):
    """SciPy's ``integral_0^1 log(p**(lam-1) + (1-p)**(lam-1)) dp`` (the log of the
    quantile's slope), twice the integral over ``(0, 1/2)`` by tanh-sinh.  (The density
    itself is the quantile inverted numerically: far in the heavy tails of ``lam < 0`` it
    is not accurate enough for ``-integral f log f``.)"""
    lam = fnp.expand_dims(fnp.asarray(lam), -1)
    log_slope = fnp.logaddexp((lam - 1.0) * np.log(_P), (lam - 1.0) * np.log1p(-_P))
    return 2.0 * fnp.sum(log_slope * _DP, axis=-1)


# name -> the standardized entropy as a function of (dist, *shape parameters)
CLOSED: Dict[str, Callable[..., Any]] = {
    "geom": _geom,
    "wrapcauchy": lambda dist, c: fnp.log(2 * math.pi * (1.0 - c * c)),
    "truncnorm": _truncnorm,
    "tukeylambda": _tukeylambda,
    # SciPy's: computed with mpmath (scipy gh-19145)
    "landau": lambda dist: fnp.asarray(2.37263644000448182),
}


# --- kinks: where a density is continuous but not smooth (concrete, NaN-padded) ----------

def _irwinhall_knots(n):
    # (the density is a spline with knots at the integers; beyond 20 they are smooth enough
    # for the rule, of order n - 2)
    j = np.arange(1.0, 20.0)
    return np.where(j < n[..., None], j, np.nan)


# name -> function of the concrete shape parameters giving the kinks, shape (..., K)
KNOTS: Dict[str, Callable[..., Any]] = {
    "crystalball": lambda beta, m: (-beta + 0.0 * m)[..., None],
    "irwinhall": _irwinhall_knots,
}


def _concrete(dist, values):
    what = f"{dist.name}.entropy (a numerical integral or sum)"
    fix = ("Call entropy outside jit and vmap (it takes arrays of the parameters at "
           "once)")
    return [np.asarray(concrete_values(stop_gradient(v), what, fix), float) for v in values]


# --- continuous: -integral f log f by the double-exponential rule, piece by piece ---------

def _mattering(log_p, weight):
    """The nodes (or terms) whose ``p (1 + |log p|) weight`` is more than 1e-16 of the
    largest along the last axis, on concrete values.  The others change no digit of the
    sum and are left out before the traced evaluation: far out in a tail a density's slope
    in a shape parameter can be NaN (jf_skew_t's at ``|x| > 1e12``), and ``0 * NaN`` would
    poison the derivative."""
    finite = np.isfinite(log_p)
    safe = np.where(finite, log_p, 0.0)
    size = np.where(finite, np.exp(safe) * (1.0 + np.abs(safe)) * np.abs(weight), 0.0)
    return finite & (size > 1e-16 * np.max(size, axis=-1, keepdims=True)) & (size > 0)


def _piece(dist, shape_n, a_n, b_n, start, end, sign, w):
    """``-integral f log f`` from the concrete ``start`` towards ``end`` (traced or
    concrete, ``sign`` its side), mapped as in :mod:`._distn_moments_rules`: ``x = start +
    sign w v / (1 + w v / |end - start|)``.  A piece of length 0 gives 0."""
    room = (end - start) * sign
    unbounded = fnp.isinf(room)
    empty = fnp.less_equal(room, 0.0)
    safe_room = fnp.where(fnp.logical_or(unbounded, empty), 1.0, room)
    inv = fnp.where(unbounded, 0.0, 1.0 / safe_room)
    wv = w * _V
    grow = 1.0 / (1.0 + wv * inv)
    x = start + sign * wv * grow
    weight = fnp.where(empty, 0.0, w * _DV * grow * grow)
    inside = fnp.logical_and(fnp.greater(x, a_n), fnp.less(x, b_n))
    inside = fnp.logical_and(inside, fnp.logical_not(empty))
    with np.errstate(all="ignore"):
        level = np.asarray(concrete_values(dist._logpdf(stop_gradient(fnp.where(
            inside, x, start)), *[stop_gradient(s) for s in shape_n]), "", ""), float)
        scale = np.asarray(concrete_values(stop_gradient(weight), "", ""), float)
        inside = fnp.logical_and(inside, _mattering(level, scale))
        log_f = dist._logpdf(fnp.where(inside, x, start), *shape_n)
        log_f = fnp.where(inside, log_f, 0.0)
        term = fnp.where(inside, -fnp.exp(log_f) * log_f, 0.0)
    return fnp.sum(term * weight, axis=-1)


def _continuous(dist, shape):
    _concrete(dist, shape)
    a, b = support(dist, shape)
    m, w = _centre_and_spread(dist, shape, a, b)
    a_c, b_c = _concrete(dist, (a, b))
    a_c, b_c = a_c + 0.0 * m, b_c + 0.0 * m
    cuts = m[..., None]
    knots = KNOTS.get(dist.name)
    if knots is not None:
        k = np.asarray(knots(*_concrete(dist, shape)), float)
        k = np.broadcast_to(k, m.shape + k.shape[-1:])
        usable = np.isfinite(k) & (k > a_c[..., None]) & (k < b_c[..., None])
        cuts = np.sort(np.concatenate([cuts, np.where(usable, k, m[..., None])], axis=-1),
                       axis=-1)
    shape_n = [_expanded(s) for s in shape]
    a_n, b_n = _expanded(a), _expanded(b)
    w_n = w[..., None]
    # the outer pieces [a, first cut] and [last cut, b] from the cuts outwards; between
    # cuts, from the left one, with a spread no wider than the piece
    total = _piece(dist, shape_n, a_n, b_n, cuts[..., :1], a_n, -1.0, w_n)
    total = total + _piece(dist, shape_n, a_n, b_n, cuts[..., -1:], b_n, 1.0, w_n)
    for i in range(cuts.shape[-1] - 1):
        lo, hi = cuts[..., i:i + 1], cuts[..., i + 1:i + 2]
        width = np.where(hi > lo, np.minimum(w_n, hi - lo), 1.0)
        total = total + _piece(dist, shape_n, a_n, b_n, lo, hi, 1.0, width)
    return total


# --- discrete: -sum p log p ---------------------------------------------------------------

# families whose masses fall as a power of k: a long window
_POWER_TAILS = ("yulesimon", "betanbinom", "zipf")


def _discrete(dist, shape, width=40.0, limit=2_000_000):
    _concrete(dist, shape)
    a, b = support(dist, shape)
    m, w = _centre_and_spread(dist, shape, a, b)
    m = np.round(m)
    a_c, b_c = _concrete(dist, (a, b))
    start = np.maximum(a_c, np.floor(m - width * w) - 30.0)
    stop = np.ceil(m + width * w) + 30.0
    if dist.name in _POWER_TAILS:
        stop = np.maximum(stop, start + 200_000.0)
    stop = np.minimum(b_c, stop)
    count = int(np.max(stop - start)) + 1 if start.size else 1
    if count > limit:
        raise ValueError(f"{dist.name}.entropy sums over {count} points of the support here "
                         f"(more than {limit}); its spread is too wide for the numerical "
                         f"sum, try smaller shape parameters")
    k = start[..., None] + np.arange(float(count))
    inside = k <= stop[..., None]
    shape_n = [_expanded(s) for s in shape]
    with np.errstate(all="ignore"):
        level = np.asarray(concrete_values(dist._logpmf(np.where(inside, k, start[..., None]), *[
            stop_gradient(s) for s in shape_n]), "", ""), float)
        keep = inside & _mattering(level, 1.0)
        log_p = dist._logpmf(np.where(keep, k, m[..., None]), *shape_n)
        log_p = fnp.where(keep, log_p, 0.0)
        total = fnp.sum(fnp.where(keep, -fnp.exp(log_p) * log_p, 0.0), axis=-1)
    if dist.name in _POWER_TAILS:
        total = total + _power_tail(dist, shape, stop, b_c)
    return total


def _power_tail(dist, shape, last, b):
    """``-sum p log p`` over ``k > last`` for masses that fall as a power of ``k``: with
    ``p(k) = C k**-s`` fitted at ``last / 2`` and ``last`` (traced: the derivative comes
    with it), the sum is the integral from ``L = last + 1/2`` (the midpoint rule, exact to
    ``O(p'')``): ``C L**(1-s) / (s-1) (s log L + s/(s-1) - log C)``.  At zipf(2.7) the
    window alone is 1.6e-8 short of the closed form ``log zeta(a) - a zeta'(a)/zeta(a)``;
    with this, 1e-15."""
    half = np.floor(last / 2.0)
    with np.errstate(all="ignore"):
        lp_half = dist._logpmf(half, *shape)
        lp_last = dist._logpmf(last, *shape)
    s = (lp_half - lp_last) / np.log(last / half)
    usable = np.isfinite(last) & (last < b) & (half >= 1.0)
    ok = fnp.logical_and(usable, fnp.greater(s, 1.0))
    s = fnp.where(ok, s, 2.0)
    log_c = fnp.where(ok, lp_last, 0.0) + s * np.log(np.where(usable, last, 1.0))
    log_l = np.log(np.where(usable, last, 1.0) + 0.5)
    tail = fnp.exp(log_c + (1.0 - s) * log_l) / (s - 1.0) * (
        s * log_l + s / (s - 1.0) - log_c)
    return fnp.where(ok, tail, 0.0)


# --- SciPy's values on concrete shape parameters -----------------------------------------

def _kolmogorov(name, n, kinks):
    """ksone's or kstwo's entropy at the concrete counts ``n``: SciPy's integral of
    ``entr(pdf)`` cut at the kinks ``j / (kinks n)`` for ``n <= 20``, else SciPy's."""
    from scipy import integrate, special, stats
    family = getattr(stats, name)

    def one(n):
        if not (n >= 1 and n == math.floor(n)):
            return math.nan
        if n > 20:
            with np.errstate(all="ignore"):
                return float(family.entropy(n))
        low = 0.0 if name == "ksone" else 0.5 / n
        cuts = [j / (kinks * n) for j in range(1, int(kinks * n))]
        ends = [low] + [c for c in cuts if c > low] + [1.0]
        return sum(integrate.quad(lambda x: special.entr(family.pdf(x, n)), lo, hi,
                                  limit=200, epsabs=1e-13, epsrel=1e-12)[0]
                   for lo, hi in zip(ends[:-1], ends[1:]))
    return np.vectorize(one, otypes=[float])(n)


def _scipys(dist, shape):
    """SciPy's entropy at concrete shape parameters that take no derivative."""
    for name, s in zip(dist.shapes, shape):
        if wants_derivative(s):
            kind = ValueError if dist.name in ("ksone", "kstwo") else NotImplementedError
            raise kind(f"{dist.name}.entropy: the derivative with respect to its shape "
                       f"parameter {name} is not available ("
                       + ("an integer count" if kind is ValueError else "SciPy's values have "
                          "none") + f"); differentiate with respect to scale only, or pass "
                       f"fg.stop_gradient({name})")
    values = _concrete(dist, shape)
    if dist.name == "ksone":
        return _kolmogorov("ksone", values[0], 1)
    if dist.name == "kstwo":
        return _kolmogorov("kstwo", values[0], 2)
    from scipy import stats
    with np.errstate(all="ignore"):
        return np.asarray(getattr(stats, dist.name).entropy(*values), float)


_SCIPY_VALUED = ("ksone", "kstwo", "studentized_range")


def standard_entropy(dist: Any, *shape: Any) -> Any:
    """The entropy of ``dist``'s standardized distribution at the shape parameters
    ``shape`` (the module docstring says how).

    >>> import funcgrad.scipy.stats as fst
    >>> from funcgrad.scipy._distn_entropy import standard_entropy
    >>> round(float(standard_entropy(fst.geom, 0.5)), 10)
    1.3862943611
    """
    closed = CLOSED.get(dist.name)
    if closed is not None:
        return closed(dist, *shape)
    if dist.name == "levy_stable":
        raise NotImplementedError(
            "funcgrad.scipy.stats.levy_stable.entropy is not implemented: SciPy 1.17's own "
            "levy_stable.entropy fails (TypeError), and its density is a numerical integral "
            "too noisy (two quadratures of it differ at 5e-7) for an entropy to be trusted; "
            "integrate -pdf*logpdf yourself, e.g. with levy_stable.expect")
    if dist.name in _SCIPY_VALUED:
        return _scipys(dist, list(shape))
    if getattr(dist, "_logpmf", None) is not None:
        return _discrete(dist, list(shape))
    if getattr(dist, "_logpdf", None) is None:
        raise NotImplementedError(f"funcgrad.scipy.stats.{dist.name}.entropy is not "
                                  f"implemented (the family has no density)")
    return _continuous(dist, list(shape))


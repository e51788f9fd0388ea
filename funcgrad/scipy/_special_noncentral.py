"""SciPy's noncentral distribution functions of :mod:`funcgrad.scipy.special`
(re-exported there): ``chndtr`` (noncentral chi-square), ``nctdtr`` (noncentral t) and
``ncfdtr`` (noncentral F), and the tails :mod:`funcgrad.scipy.stats`' ``ncx2``, ``nct``
and ``ncf`` use.

Each is a Poisson mixture of central distribution functions: with ``mu`` half the
noncentrality (``delta**2 / 2`` for the t), ``sum_j exp(-mu) mu**j / j! G_j`` where
``G_j`` is ``gammainc``/``gammaincc`` or ``betainc`` of shapes that grow with ``j``.
Both tails are sums of positive terms (the t's, for a positive noncentrality on the
tail's side), so each keeps its relative accuracy far out; SciPy's (Boost's) sums are
the same series.  The sum runs over a window of ``j`` around where the terms are
largest (between the Poisson mode ``mu`` and the terms' own peak, which moves away from
``mu`` far in a tail), 15 standard deviations and 60 terms beyond each end: the terms
left out are below ``1e-40`` of the largest.  On plain arrays each point gets its own
window (a ``ValueError`` past ``_MAX_TERMS`` terms); under ``jit`` and ``vmap`` the values
are abstract, so the window is ``j < _TRACED_TERMS`` and a point that needs more is NaN.

``nctdtr``'s tail on the side opposite to the noncentrality (``t < 0`` for ``nc > 0``)
sums terms of both signs; where they cancel to below 1e-5 of their size (a value some
1e-5 of the tail's scale or less: ``nctdtr(20, 10, -1)``, ``1 - nctdtr(20, -3, 8)``),
rounding could pass 1e-10 of the value, and the value is NaN instead, except for
``|nc| >= 39``, where the value (below ``Phi(-|nc|)``) and its derivatives are below the
smallest float64 and are 0 (``nctdtr(0.352, 170, -0.51)`` is 9.6e-6280 by mpmath; SciPy's
``nctdtr(1.352, 40, -0.51)`` = 1.5e-176 is wrong: 6.3e-352 by mpmath, 0 here).

Derivatives are those of the series: in the noncentrality through the Poisson weights
(to every order; at a noncentrality of 0, where ``log mu`` is not finite, through the
weights' Taylor form), in ``x``/``t``/``f`` and in the degrees of freedom through
``gammainc``'s and ``betainc``'s rules (the second derivative in a degree of freedom is
theirs to refuse: NotImplementedError).
"""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete, operand as _operand
from ..primitives import elementwise as _ew
from ..primitives import incomplete as _inc, special as _sp
from ..typing import Array, ArrayLike

__all__ = ["chndtr", "nctdtr", "ncfdtr"]

_NAN = math.nan
_TRACED_TERMS = 1000
_MAX_TERMS = 200000
_SQRTH = math.sqrt(0.5)


def _plain(v):
    return np.nan_to_num(np.asarray(concrete_values(v, "", ""), dtype=np.float64),
                         nan=0.0, posinf=0.0, neginf=0.0)


def _window(name, mu, low_peak, high_peak):
    """``(j, unreached)``: the indices to sum, shape ``mu.shape + (n,)`` (each point's own
    window on plain arrays), and a mask of the points whose window ``j`` does not reach
    (traced values only; ``None`` on plain arrays).  ``low_peak``/``high_peak`` are
    functions of ``mu`` (plain or traced) bounding where the terms peak."""
    if all(is_concrete(v) for v in (mu,)) and is_concrete(low_peak(mu)) and is_concrete(
            high_peak(mu)):
        m = _plain(mu)
        low = np.maximum(np.minimum(m, _plain(low_peak(mu))), 0.0)
        high = np.maximum(np.maximum(m, _plain(high_peak(mu))), 0.0)
        margin = 15.0 * np.sqrt(np.maximum(high, 1.0)) + 60.0
        lo = np.floor(np.maximum(low - margin, 0.0))
        count = int(np.max(high + margin - lo, initial=0.0)) + 1
        if count > _MAX_TERMS:
            raise ValueError(f"{name}: the noncentrality {2.0 * float(np.max(m)):.3g} needs "
                             f"{count} terms of the Poisson series (at most {_MAX_TERMS}); "
                             f"there the distribution is close to normal: use its normal "
                             f"approximation")
        return lo[..., None] + np.arange(float(count)), None
    high = fnp.maximum(mu, high_peak(mu))
    unreached = fnp.greater(high + 15.0 * fnp.sqrt(fnp.maximum(high, 1.0)) + 60.0,
                            float(_TRACED_TERMS - 1))
    return np.arange(float(_TRACED_TERMS)), unreached


def _weights(mu, j, shift=0.0):
    """``exp(-mu) mu**j / Gamma(j + 1 + shift)`` (``mu`` with a trailing axis): in logs
    for ``mu > 0``; at ``mu = 0`` by powers of a base that is 1 where ``j = 0`` (the
    double-where idiom: every derivative in ``mu`` there is the Taylor coefficient's,
    not ``0 * log 0``)."""
    positive = fnp.greater(mu, 0)
    m, zero = fnp.where(positive, mu, 1.0), fnp.where(positive, 0.0, mu)
    in_logs = fnp.exp(j * fnp.log(m) - m - _sp.gammaln(j + (1.0 + shift)))
    at_zero = fnp.where(j < 170, fnp.exp(-zero) * fnp.power(fnp.where(j == 0, 1.0, zero), j)
                        * fnp.exp(-_sp.gammaln(fnp.minimum(j, 170.0) + (1.0 + shift))), 0.0)
    return fnp.where(positive, in_logs, at_zero)


def _series(name, mu, low_peak, high_peak, term):
    """``sum_j weights_j(mu) term(j)`` over :func:`_window`'s indices (``term`` gets
    ``j`` and returns the summands with the trailing axis); NaN where the window falls
    short (traced only)."""
    j, unreached = _window(name, mu, low_peak, high_peak)
    total = fnp.sum(term(j, mu[..., None]), axis=-1)
    return total if unreached is None else fnp.where(unreached, _NAN, total)


def _broadcast(*args):
    args = [fnp.asarray(_operand(a)) for a in args]
    shape = np.broadcast_shapes(*[a.shape for a in args])
    return [fnp.broadcast_to(a, shape) for a in args]


def _prepare(*args):
    """The arguments in float64, and the result's dtype: float32 where every argument is
    (SciPy's ``f`` loop), float64 else."""
    args = [_operand(a) for a in args]
    for a in args:
        if np.result_type(a.dtype if hasattr(a, "dtype") else a).kind == "c":
            raise TypeError("complex input is not supported, as in scipy.special; pass a "
                            "real array")
    dtypes = [a.dtype for a in args if hasattr(a, "dtype")]
    single = bool(dtypes) and all(d == np.float32 for d in dtypes)
    return ([fnp.astype(a, np.float64) for a in _broadcast(*args)],
            np.dtype(np.float32 if single else np.float64))


# --- noncentral chi-square ---------------------------------------------------------------------

def ncx2_tail(x, df, nc, upper):
    """The CDF (``upper``: the survival function) of the noncentral chi-square at
    ``x >= 0`` for ``df > 0``, ``nc >= 0`` (no domain checks)."""
    x, df, nc = _broadcast(x, df, nc)
    a, mu = df * 0.5, nc * 0.5
    # (beyond (sqrt(mu + a) + 40)**2 + a the upper tail is below exp(-700): 0 to the last
    # bit, which the capped argument gives too, with the slope 0, and a finite window)
    y = fnp.minimum(x * 0.5, (fnp.sqrt(mu + a) + 40.0) ** 2 + a)

    # (the terms peak near j (a + j) = mu y far in either tail)
    def far(m):
        return 0.5 * (fnp.sqrt(a * a + 4.0 * m * y) - a)

    def term(j, m):
        shape, arg = a[..., None] + j, y[..., None]
        g = _inc.gammaincc(shape, arg) if upper else _inc.gammainc(shape, arg)
        return _weights(m, j) * g
    return _series("chndtr", mu, far, far, term)


def chndtr(x: ArrayLike, df: ArrayLike, nc: ArrayLike) -> Array:
    """The noncentral chi-square CDF with ``df`` degrees of freedom and noncentrality
    ``nc``: ``sum_j Poisson(j; nc/2) chdtr(df + 2j, x)`` (NaN for ``x < 0``, ``df <= 0``,
    ``df = inf`` or ``nc < 0``, as SciPy's; 0 for ``nc = inf``).  Differentiable in ``x``, ``df`` and ``nc``.

    >>> import math, funcgrad as fg
    >>> round(float(chndtr(1.0, 2.0, 0.0)), 14) == round(1 - math.exp(-0.5), 14)
    True
    >>> round(float(fg.grad(chndtr, 2)(1.0, 2.0, 0.0)), 12)  # -pdf of chi2(4) at 1
    -0.151632664928
    """
    (x, df, nc), dtype = _prepare(x, df, nc)
    bad = ~fnp.logical_and(fnp.logical_and(fnp.greater_equal(x, 0), fnp.greater(df, 0)),
                           fnp.logical_and(fnp.greater_equal(nc, 0), fnp.isfinite(df)))
    point_mass = fnp.logical_and(fnp.logical_and(fnp.equal(df, 0), fnp.equal(nc, 0)),
                                 fnp.greater_equal(x, 0))  # (SciPy's df = nc = 0: 1)
    infinite = fnp.logical_or(fnp.isinf(x), fnp.isinf(nc))
    ok = ~(bad | infinite)
    value = ncx2_tail(fnp.where(ok, x, 1.0), fnp.where(ok, df, 1.0), fnp.where(ok, nc, 0.0),
                      False)
    value = fnp.where(infinite, fnp.where(fnp.isinf(nc), 0.0, 1.0), value)
    return fnp.astype(fnp.where(point_mass, 1.0, fnp.where(bad, _NAN, value)), dtype)


# --- noncentral t ------------------------------------------------------------------------------

def _nct_one_side(u, df, d, upper):
    """For ``u >= 0``: ``P(T <= u)`` (``upper``: ``P(T > u)``) of the noncentral t with
    noncentrality ``d``: with ``x = u**2 / (u**2 + df)``, ``p_j`` the Poisson(d**2/2)
    weights and ``q_j = d/sqrt 2 exp(-mu) mu**j / Gamma(j + 3/2)``, the CDF is
    ``Phi(-d) + sum (p_j I_x(j + 1/2, df/2) + q_j I_x(j + 1, df/2)) / 2`` and the
    survival function ``sum (p_j I_{1-x}(df/2, j + 1/2) + q_j I_{1-x}(df/2, j + 1)) / 2``
    (the rest cancels: ``sum q_j = erf(d / sqrt 2)``)."""
    uu = u * u
    # (x = u**2 / (u**2 + df) and 1 - x; past u**2 = df through r = df / u**2, so that
    # u**2 = inf gives 1 and 0, not NaN)
    small = uu <= df
    r = df / fnp.where(small, 1.0, u) ** 2
    x = fnp.where(small, uu / (uu + df), 1.0 / (1.0 + r))
    xc = fnp.where(small, df / (uu + df), r / (1.0 + r))
    half = df * 0.5

    def far(m):
        # (far in the upper tail the terms peak near sqrt(mu df / 2), and below mu + t**2:
        # I_{1-x}(df/2, b) levels off past b = t**2 / 2)
        return fnp.minimum(fnp.sqrt(m * half), m + uu + 10.0)

    def near(m):
        return m * x

    def p_term(j, m):
        h = half[..., None]
        g = (_inc.betainc(h, j + 0.5, xc[..., None]) if upper
             else _inc.betainc(j + 0.5, h, x[..., None]))
        return 0.5 * _weights(m, j) * g

    def q_term(j, m):
        h = half[..., None]
        g = (_inc.betainc(h, j + 1.0, xc[..., None]) if upper
             else _inc.betainc(j + 1.0, h, x[..., None]))
        return 0.5 * _SQRTH * _weights(m, j, 0.5) * g
    mu = d * d * 0.5
    first = _series("nctdtr", mu, near, far, p_term) + (
        0.0 if upper else 0.5 * _ew.erfc(d * _SQRTH))
    second = d * _series("nctdtr", mu, near, far, q_term)
    total = first + second
    # (for a negative d the q terms subtract: where they cancel the rest to below 1e-5 of
    # its size, rounding could pass 1e-10 of the value, which is NaN rather than digits
    # that are not there: far in the tail opposite to the noncentrality.  There the value
    # is E[Phi(-u S + d)] <= Phi(d) (S = sqrt(V/df)), and its derivatives are at most
    # phi(d) times moments of S: for d <= _UNDERFLOW_NC all are below the smallest
    # float64, and 0 is the value to the last bit.  NaN as a factor, not a where: the
    # derivatives are NaN there too, not a constant branch's 0)
    cancelled = fnp.abs(total) < 1e-5 * (first + fnp.abs(second))
    underflow = fnp.logical_and(cancelled, d <= _UNDERFLOW_NC)
    unknown = fnp.logical_and(cancelled, fnp.logical_not(underflow))
    return fnp.where(underflow, 0.0, total * fnp.where(unknown, _NAN, 1.0))


# (Phi(-39) ~ 1e-333, phi(39) ~ 1e-331: below float64's smallest subnormal, 4.9e-324)
_UNDERFLOW_NC = -39.0


_TAYLOR_TERMS = 10


def _nct_near_zero(t, df, nc, upper):
    """The CDF (``upper``: survival function) by its Taylor series at ``t = 0``:
    ``Phi(-nc) + phi(nc) sum_k E[S**(k+1)] He_k(nc) t**(k+1) / (k+1)!`` with ``S =
    sqrt(V / df)``, ``V`` chi-square(df) (from ``T = (Z + nc) / S``: the density's k-th
    derivative at 0 is ``E[S**(k+1) phi^(k)(-nc)]``).  Used at ``t = 0`` only, where the
    series' pieces for each sign of ``t`` meet with a ``|t|`` kink term by term: exact
    derivatives in ``t`` through order 10 there, and in ``df`` and ``nc``."""
    phi = fnp.exp(-0.5 * nc * nc) / math.sqrt(2.0 * math.pi)
    he_before, he = 0.0 * nc, 1.0 + 0.0 * nc
    power, total = t, 0.0 * t
    for k in range(_TAYLOR_TERMS):
        moment = fnp.exp(0.5 * (k + 1) * fnp.log(2.0 / df) + _sp.gammaln(0.5 * (df + k + 1))
                         - _sp.gammaln(0.5 * df))
        total = total + moment * he * power
        he_before, he = he, nc * he - k * he_before
        power = power * t / (k + 2)
    if upper:
        return 0.5 * _ew.erfc(-nc * _SQRTH) - phi * total
    return 0.5 * _ew.erfc(nc * _SQRTH) + phi * total


def nct_tail(t, df, nc, upper):
    """The CDF (``upper``: survival function) of the noncentral t (no domain checks;
    ``df`` finite and positive)."""
    t, df, nc = _broadcast(t, df, nc)
    zero = fnp.equal(t, 0)
    s = fnp.where(zero, 1.0, t)
    positive = fnp.greater_equal(s, 0)
    u = fnp.abs(s)
    d = fnp.where(positive, nc, -nc)
    # (a negative t is the other tail of -T, whose noncentrality is -nc)
    value = fnp.where(positive, _nct_one_side(u, df, d, upper),
                      _nct_one_side(u, df, d, not upper))
    return fnp.where(zero, _nct_near_zero(fnp.where(zero, t, 0.0), df, nc, upper), value)


def nctdtr(df: ArrayLike, nc: ArrayLike, t: ArrayLike) -> Array:
    """The noncentral t CDF with ``df`` degrees of freedom and noncentrality ``nc``
    (``Phi(t - nc)`` for ``df = inf``; NaN for ``df <= 0`` or an infinite ``nc``, as
    SciPy's).  Differentiable in ``df``, ``nc`` and ``t``.

    >>> import funcgrad as fg
    >>> float(nctdtr(3.0, 0.0, 0.0)), round(float(nctdtr(1.0, 0.0, 1.0)), 14)
    (0.5, 0.75)
    >>> round(float(fg.grad(nctdtr, 1)(3.0, 0.0, 0.0)), 14)  # -phi(0)
    -0.39894228040143
    """
    (df, nc, t), dtype = _prepare(df, nc, t)
    normal = fnp.isinf(df)
    bad = fnp.logical_or(~fnp.greater(df, 0), ~fnp.isfinite(nc))
    ok = ~(bad | normal | fnp.isinf(t))
    value = nct_tail(fnp.where(ok, t, 1.0), fnp.where(ok, df, 1.0), fnp.where(ok, nc, 0.0),
                     False)
    value = fnp.where(fnp.isinf(t), fnp.where(fnp.greater(t, 0), 1.0, 0.0), value)
    gauss = 0.5 * _ew.erfc((fnp.where(normal, t, 0.0) - nc) * -_SQRTH)
    return fnp.astype(fnp.where(bad, _NAN, fnp.where(normal, gauss, value)), dtype)


# --- noncentral F ------------------------------------------------------------------------------

def ncf_tail(f, dfn, dfd, nc, upper):
    """The CDF (``upper``: survival function) of the noncentral F at ``f >= 0`` (no domain
    checks): ``sum_j Poisson(j; nc/2) I_x(dfn/2 + j, dfd/2)``, ``x = dfn f / (dfn f +
    dfd)`` (the survival function with ``I_{1-x}(dfd/2, dfn/2 + j)``)."""
    f, dfn, dfd, nc = _broadcast(f, dfn, dfd, nc)
    a, b = dfn * 0.5, dfd * 0.5
    # (x = w / (1 + w), w = dfn f / dfd; past w = 1 through 1/w: w = inf gives 1 and 0)
    w = dfn * f / dfd
    small = w <= 1
    v = 1.0 / fnp.where(small, 1.0, w)
    x = fnp.where(small, w / (1.0 + w), 1.0 / (1.0 + v))
    xc = fnp.where(small, 1.0 / (1.0 + w), v / (1.0 + v))

    def far(m):
        # (far in the upper tail the terms peak near sqrt(mu (a + b)), and below mu + dfn
        # f: I_{1-x}(dfd/2, a + j) levels off past a + j = dfn f / 2)
        return fnp.minimum(fnp.sqrt(m * (a + b)), m + dfn * f + 10.0)

    def near(m):
        return m * x

    def term(j, m):
        if upper:
            g = _inc.betainc(b[..., None], a[..., None] + j, xc[..., None])
        else:
            g = _inc.betainc(a[..., None] + j, b[..., None], x[..., None])
        return _weights(m, j) * g
    return _series("ncfdtr", nc * 0.5, near, far, term)


def ncfdtr(dfn: ArrayLike, dfd: ArrayLike, nc: ArrayLike, f: ArrayLike) -> Array:
    """The noncentral F CDF with ``dfn`` and ``dfd`` degrees of freedom and noncentrality
    ``nc`` (1 at ``f = inf``; NaN for ``f < 0``, ``dfn <= 0``, ``dfd <= 0``, ``nc < 0`` or
    an infinite parameter, as SciPy's).  Differentiable in ``dfn``, ``dfd``, ``nc`` and
    ``f``.

    >>> float(ncfdtr(2.0, 2.0, 0.0, 1.0))  # fdtr(2, 2, 1)
    0.5
    """
    (dfn, dfd, nc, f), dtype = _prepare(dfn, dfd, nc, f)
    bad = ~(fnp.greater(dfn, 0) & fnp.greater(dfd, 0) & fnp.greater_equal(nc, 0)
            & fnp.greater_equal(f, 0) & fnp.isfinite(dfn) & fnp.isfinite(dfd)
            & fnp.isfinite(nc))
    ok = ~(bad | fnp.isinf(f))
    value = ncf_tail(fnp.where(ok, f, 1.0), fnp.where(ok, dfn, 1.0), fnp.where(ok, dfd, 1.0),
                     fnp.where(ok, nc, 0.0), False)
    return fnp.astype(fnp.where(bad, _NAN, fnp.where(fnp.isinf(f), 1.0, value)), dtype)

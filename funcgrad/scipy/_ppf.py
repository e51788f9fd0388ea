"""Quantile functions (``ppf``) of the t, gamma, beta and chi2 distributions.

Values: funcgrad.scipy.special has no inverse of the incomplete gamma or beta functions,
so the CDF is inverted by a safeguarded Newton iteration, in a variable where the root is
well scaled (``log x`` for gamma, ``logit x`` for beta, ``log |t|`` for t) and on whichever
tail probability is the smaller (``q`` or ``1 - q``, the latter exact for ``q >= 0.5``),
so that the relative accuracy holds far in both tails.  A Newton step that leaves the
bracket known so far is replaced by bisection.  On plain arrays the loop stops once the
steps are below rounding; under ``vmap``/``jit`` it runs a fixed number of steps.

Derivatives: by the implicit function theorem on ``cdf(x, s) = q``,
``dx = (dq - d cdf/ds . ds) / pdf(x)``, with ``x`` itself traced so that higher orders
follow.  The shape term goes through the CDF's own rules (``gammainc``/``betainc``'s
derivatives in their shapes); where a CDF has none it raises NotImplementedError naming
``ppf`` and the parameter.  Shape parameters given as plain numbers are constants and
cost nothing.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..numpy._convert import is_concrete
from . import special as sp

_LOG_MIN, _LOG_MAX = -745.2, 709.8  # the finite range of log(x) in float64
_STEPS = 200  # a bound; bisection alone would need ~60
_TRACED_STEPS = 60


def _solve(u0, lo, hi, lower, log_target, log_tail, log_density):
    """The root ``u`` of ``log_tail(u, lower) = log_target`` (the lower tail increasing in
    ``u``, the upper one decreasing); ``log_density(u)`` the log of ``|d tail / du|``."""
    if not is_concrete(u0):  # (under vmap/jit: a fixed count, as one loop, not unrolled)
        from ..lax import fori_loop

        def body(_, state):
            return _step(*state, lower, log_target, log_tail, log_density)
        return fori_loop(0, _TRACED_STEPS, body, (u0, lo, hi))[0]
    u = u0
    for _ in range(_STEPS):
        new, lo, hi = _step(u, lo, hi, lower, log_target, log_tail, log_density)
        step = np.abs(np.asarray(new) - np.asarray(u))
        if not np.any(step > 4e-16 * np.maximum(1.0, np.abs(np.asarray(u)))):
            return new
        u = new
    return u


def _step(u, lo, hi, lower, log_target, log_tail, log_density):
    """One Newton step, or bisection where Newton leaves the bracket; the bracket updated."""
    log_f = log_tail(u, lower)
    g = log_f - log_target
    too_high = fnp.where(lower, g > 0, g < 0)  # the root is below u
    hi = fnp.where(too_high, u, hi)
    lo = fnp.where(too_high, lo, u)
    slope = fnp.exp(log_density(u) - log_f)
    newton = u - fnp.where(lower, g, -g) / slope
    inside = fnp.logical_and(newton > lo, newton < hi)
    new = fnp.where(fnp.logical_and(inside, fnp.isfinite(newton)), newton, 0.5 * (lo + hi))
    new = fnp.where(g == 0, u, new)
    return new, lo, hi


def _sides(q, upper=False):
    """``(lower, log of the smaller tail)``: the lower tail where ``q <= 0.5``; with
    ``upper``, ``q`` is the upper tail's probability (the lower one is ``1 - q``)."""
    if upper:
        lower = q >= 0.5
        return lower, fnp.where(lower, fnp.log1p(-q), fnp.log(q))
    lower = q <= 0.5
    return lower, fnp.where(lower, fnp.log(q), fnp.log1p(-q))


def _finish(q, x, at_zero, at_one):
    """NumPy/SciPy's values at the ends and outside [0, 1]."""
    x = fnp.where(q == 0, at_zero, fnp.where(q == 1, at_one, x))
    return fnp.where(fnp.logical_and(q >= 0, q <= 1), x, math.nan)  # (NaN q too)


def _safe_q(q):
    return fnp.where(fnp.logical_and(q > 0, q < 1), q, 0.5)


# --- gamma -------------------------------------------------------------------------------------

def _gamma_values(q, a, upper=False):
    """The ``q`` quantile of gamma(a); with ``upper``, the point whose upper tail holds
    ``q`` (``isf``: a tiny ``q`` is no ``1 - q`` rounded to 1)."""
    qs = _safe_q(q)
    lower, log_target = _sides(qs, upper)
    # Wilson-Hilferty where it is positive, the small-x series x^a / Gamma(a + 1) else
    z = -sp.ndtri(qs) if upper else sp.ndtri(qs)
    log_lower = fnp.log1p(-qs) if upper else fnp.log(qs)
    wh = a * (1.0 - 1.0 / (9.0 * a) + z / (3.0 * fnp.sqrt(a))) ** 3
    small = (log_lower + sp.gammaln(a + 1.0)) / a
    u0 = fnp.where(wh > 0, fnp.log(fnp.where(wh > 0, wh, 1.0)), small)
    u0 = fnp.clip(fnp.where(fnp.logical_and(lower, small < u0), small, u0), _LOG_MIN, _LOG_MAX)

    def log_tail(u, low):
        x = fnp.exp(u)
        return fnp.log(fnp.where(low, sp.gammainc(a, x), sp.gammaincc(a, x)))

    def log_density(u):  # pdf(x) * x
        return a * u - fnp.exp(u) - sp.gammaln(a)
    u = _solve(u0, _LOG_MIN + 0.0 * u0, _LOG_MAX + 0.0 * u0, lower, log_target, log_tail,
               log_density)
    return _finish(q, fnp.exp(u), *((math.inf, 0.0) if upper else (0.0, math.inf)))


# --- beta --------------------------------------------------------------------------------------

def _beta_values(q, a, b):
    qs = _safe_q(q)
    lower, log_target = _sides(qs)
    # start from the mean's logit, moved by the normal quantile of the logit's spread
    mean = a / (a + b)
    spread = fnp.sqrt(1.0 / a + 1.0 / b)
    u0 = fnp.log(mean) - fnp.log1p(-mean) + sp.ndtri(qs) * spread
    # and from the tails' power laws where they start further out
    low = (fnp.log(qs) + fnp.log(a) + sp.betaln(a, b)) / a
    high = -(fnp.log1p(-qs) + fnp.log(b) + sp.betaln(a, b)) / b
    u0 = fnp.where(fnp.logical_and(lower, low < u0), low, u0)
    u0 = fnp.clip(fnp.where(fnp.logical_and(~lower, high > u0), high, u0), -740.0, 740.0)

    def log_tail(u, low_side):
        x, xc = sp.expit(u), sp.expit(-u)  # (1 - x exact through expit(-u))
        return fnp.log(fnp.where(low_side, sp.betainc(a, b, x), sp.betainc(b, a, xc)))

    def log_density(u):  # pdf(x) * x * (1 - x)
        return a * sp.log_expit(u) + b * sp.log_expit(-u) - sp.betaln(a, b)
    u = _solve(u0, -745.0 + 0.0 * u0, 745.0 + 0.0 * u0, lower, log_target, log_tail,
               log_density)
    return _finish(q, sp.expit(u), 0.0, 1.0)


# --- t -----------------------------------------------------------------------------------------

def _t_values(q, df):
    qs = _safe_q(q)
    centre = fnp.abs(qs - 0.5)  # exact
    tail = fnp.minimum(qs, 1.0 - qs)
    # |F(t) - 1/2| = I_w(1/2, df/2) / 2 and the tail I_{1-w}(df/2, 1/2) / 2, with
    # w = t^2 / (df + t^2) = expit(2 log|t| - log df): the centre near q = 1/2, else the tail
    near = centre < 0.25
    log_target = fnp.where(near, fnp.log(fnp.where(centre > 0, centre, 0.25)), fnp.log(tail))
    z = fnp.abs(sp.ndtri(qs))
    u0 = fnp.log(fnp.where(z > 0, z, 1.0))
    far = (fnp.log(2.0 * tail) + sp.betaln(df * 0.5, 0.5) + fnp.log(df * 0.5)
           + 0.5 * df * fnp.log(df)) / -df  # the power-law tail, t ~ (...)^(-1/df)
    u0 = fnp.clip(fnp.where(fnp.logical_and(~near, far > u0), far, u0), _LOG_MIN, _LOG_MAX)
    log_df = fnp.log(df)

    def log_tail(u, centre_side):
        s = 2.0 * u - log_df
        log_y = sp.log_expit(-s)
        # where y = df / (df + t^2) underflows, I_y(df/2, 1/2) = y^(df/2) / (df/2 B) (1 + O(y))
        far_tail = (0.5 * df * log_y - fnp.log(0.5 * df) - sp.betaln(df * 0.5, 0.5)
                    - math.log(2.0))
        return fnp.where(fnp.logical_and(~centre_side, log_y < -600.0), far_tail, fnp.log(
            0.5 * fnp.where(centre_side, sp.betainc(0.5, df * 0.5, sp.expit(s)),
                            sp.betainc(df * 0.5, 0.5, sp.expit(-s)))))

    def log_density(u):  # pdf(t) * |t|
        return (sp.gammaln((df + 1.0) * 0.5) - sp.gammaln(df * 0.5) - 0.5 * fnp.log(df * math.pi)
                - (df + 1.0) * 0.5 * (fnp.logaddexp(2.0 * u - log_df, 0.0)) + u)
    u = _solve(u0, _LOG_MIN + 0.0 * u0, _LOG_MAX + 0.0 * u0, near, log_target, log_tail,
               log_density)
    u = fnp.where(u >= _LOG_MAX - 1e-9, math.inf, u)  # beyond the largest float
    t = fnp.where(centre > 0, fnp.exp(u), 0.0) * fnp.where(qs < 0.5, -1.0, 1.0)
    return _finish(q, t, -math.inf, math.inf)


# --- the derivative ----------------------------------------------------------------------------

def _constant(x):
    return not isinstance(x, Tracer)


def quantile(name, values, cdf, logpdf, q, shapes, params, upper=False):
    """``values(q, *shapes)`` (plain arrays in, plain out) made differentiable: in ``q`` by
    ``1 / pdf``, in the shapes by ``-(d cdf / d shape) / pdf``.  ``cdf(x, *shapes)`` and
    ``logpdf(x, *shapes)`` are the standardized functions; ``params`` the shapes' names.
    With ``upper`` (an ``isf``), ``cdf`` is the survival function, which falls as ``x``
    grows: both terms change sign."""
    fixed = [_constant(s) for s in shapes]
    # (Python numbers do not widen float32 arrays, as in NumPy 2)
    dtype = np.result_type(*[v.dtype for v in [q, *shapes] if hasattr(v, "dtype")]
                           or [np.float64])
    dtype = dtype if dtype.kind == "f" else np.dtype(np.float64)

    @custom_jvp
    def ppf(q, *traced):
        it = iter(traced)
        # (solved in float64, whose tolerances the iteration uses; float32 in, float32 out)
        with np.errstate(all="ignore"):  # (log 0 and inf at the bracket's far ends)
            x = values(fnp.astype(q, np.float64),
                       *[fnp.astype(s if f else next(it), np.float64)
                         for s, f in zip(shapes, fixed)])
        return fnp.astype(x, dtype)

    @ppf.defjvp
    def _ppf_jvp(primals, tangents):
        q, *traced = primals
        dq, *dtraced = tangents
        x = ppf(q, *traced)
        it = iter(traced)
        full = [s if f else next(it) for s, f in zip(shapes, fixed)]
        density = fnp.exp(logpdf(x, *full))
        if upper:
            density = -density
        dx = dq / density
        moving = [(i, t) for i, t in zip([i for i, f in enumerate(fixed) if not f], dtraced)
                  if not (is_concrete(t) and not np.any(np.asarray(t)))]
        if moving:
            from ..forward_mode import _jvp

            def cdf_of(*moved):
                s = list(full)
                for (i, _), m in zip(moving, moved):
                    s[i] = m
                return cdf(x, *s)
            try:
                _, d_cdf = _jvp(cdf_of, tuple(full[i] for i, _ in moving),
                                tuple(t for _, t in moving), False, "jvp")
            except NotImplementedError as e:
                names = ", ".join(params[i] for i, _ in moving)
                method = "isf" if upper else "ppf"
                raise NotImplementedError(
                    f"{name}.{method}: the derivative with respect to {names} needs the "
                    f"CDF's derivative in {names}, which is not implemented ({e}). Differentiate "
                    f"with respect to q, loc and scale only: pass {names} as plain numbers, "
                    f"or as fg.stop_gradient(...).") from None
            dx = dx - d_cdf / density
        return x, dx

    return ppf(q, *[s for s, f in zip(shapes, fixed) if not f])


def gamma_ppf(cdf, logpdf):
    return lambda q, a: quantile("gamma", _gamma_values, cdf, logpdf, q, [a], ["a"])


def gamma_isf(sf, logpdf):
    return lambda q, a: quantile("gamma", lambda p, s: _gamma_values(p, s, True), sf, logpdf,
                                 q, [a], ["a"], upper=True)


def chi2_isf(sf, logpdf):
    return lambda q, df: quantile("chi2", lambda p, d: 2.0 * _gamma_values(p, d * 0.5, True),
                                  sf, logpdf, q, [df], ["df"], upper=True)


def chi2_ppf(cdf, logpdf):
    return lambda q, df: quantile("chi2", lambda p, d: 2.0 * _gamma_values(p, d * 0.5), cdf,
                                  logpdf, q, [df], ["df"])


def beta_ppf(cdf, logpdf):
    return lambda q, a, b: quantile("beta", _beta_values, cdf, logpdf, q, [a, b], ["a", "b"])


def t_ppf(cdf, logpdf):
    return lambda q, df: quantile("t", _t_values, cdf, logpdf, q, [df], ["df"])

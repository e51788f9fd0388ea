"""How each quantity of the new distribution infrastructure comes from a family's
formulas: the formula itself where the family gives one, else the nearest relation to one
it does give (``pdf = exp(logpdf)``, ``logcdf = log1p(-ccdf)`` where the CDF is near 1,
``icdf(p) = iccdf(1 - p)``, moments of one kind from another...).  Each ``_X_dispatch``
takes the (possibly traced) argument and the parameters by keyword; the wrappers around
them (:mod:`._statsinfra_core`) handle the support, invalid parameters and dtypes.
"""
import math

import numpy as np

from .. import numpy as fnp
from ._implicit_root import wants_derivative
from ._statsinfra_invert import invert

_INF = math.inf


def scalar(out):
    """SciPy's ``res[()]``: a 0-d result is a NumPy scalar (a traced one stays traced)."""
    return out[()] if isinstance(out, np.ndarray) and out.ndim == 0 else out

_MOMENT_KINDS = ("raw", "central", "standardized")


def log1mexp(t):
    """``log(1 - exp(t))`` for ``t <= 0``, accurate at both ends (``-expm1`` near 0,
    ``log1p(-exp)`` far from it); each branch sees only its own inputs."""
    near = fnp.greater(t, -math.log(2.0))
    return fnp.where(near, fnp.log(-fnp.expm1(fnp.where(near, t, -1.0))),
                     fnp.log1p(-fnp.exp(fnp.where(near, -1.0, t))))


def log_interval(lo, hi, lcl, lch, lsl, lsh):
    """The log of the mass between ``lo <= hi`` from the log CDFs (``lcl``, ``lch``) and
    log CCDFs (``lsl``, ``lsh``) there: from whichever tail holds both ends, else one
    minus both tails (no cancellation in either tail)."""
    left = fnp.logical_and(lcl < -1.0, lch < -1.0)
    right = fnp.logical_and(lsl < -1.0, lsh < -1.0)
    with np.errstate(divide="ignore", invalid="ignore"):  # (the empty intervals)
        log_mass = fnp.where(
            left, lch + log1mexp(fnp.minimum(lcl - lch, 0.0)),
            fnp.where(right, lsl + log1mexp(fnp.minimum(lsh - lsl, 0.0)),
                      log1mexp(fnp.minimum(fnp.logaddexp(lcl, lsh), 0.0))))
    # an empty interval has no mass (SciPy gives -1.8e308 there, funcgrad -inf)
    return fnp.where(fnp.equal(lo, hi), -_INF, fnp.minimum(log_mass, 0.0))


def _binomial(n, k):
    return math.comb(n, k)


def recentre(order, moments, old, new):
    """The moment of ``order`` about ``new`` from the moments of orders ``0..order`` about
    ``old`` (the binomial expansion of ``(X - new)**n = ((X - old) + (old - new))**n``)."""
    shift = old - new
    out = 0.0
    for i, m in enumerate(moments[:order + 1]):
        k = order - i
        term = m if k == 0 else m * shift ** k  # (no 0**0: its derivative is 0/0)
        out = out + _binomial(order, i) * term
    return out


class FormulaDispatch:
    """The derivations from formulas; a family defines whichever ``_X_formula`` it has."""

    def _formula(self, name):
        return getattr(self, f"_{name}_formula", None)

    def _need(self, what, *formulas):
        raise NotImplementedError(self._missing(what, formulas))

    # ----- densities and probabilities ------------------------------------------

    def _logpdf_dispatch(self, x, /, **params):
        if self._formula("logpdf"):
            return self._logpdf_formula(x, **params)
        if self._formula("pdf"):
            return fnp.log(self._pdf_formula(x, **params))
        self._need("logpdf", "logpdf", "pdf")

    def _pdf_dispatch(self, x, /, **params):
        if self._formula("pdf"):
            return self._pdf_formula(x, **params)
        if self._formula("logpdf"):
            return fnp.exp(self._logpdf_formula(x, **params))
        self._need("pdf", "logpdf", "pdf")

    def _probability(self, x, params, lower):
        """``cdf`` (``lower``) or ``ccdf`` from whichever formula there is."""
        own, other = ("cdf", "ccdf") if lower else ("ccdf", "cdf")
        if self._formula(own):
            return self._formula(own)(x, **params)
        if self._formula("log" + own):
            return fnp.exp(self._formula("log" + own)(x, **params))
        if self._formula(other):
            return 1.0 - self._formula(other)(x, **params)
        if self._formula("log" + other):
            return -fnp.expm1(self._formula("log" + other)(x, **params))
        self._need(own, "cdf", "ccdf", "logcdf", "logccdf")

    def _cdf_dispatch(self, x, /, **params):
        return self._probability(x, params, True)

    def _ccdf_dispatch(self, x, /, **params):
        return self._probability(x, params, False)

    def _log_probability(self, x, params, lower):
        own, other = ("cdf", "ccdf") if lower else ("ccdf", "cdf")
        if self._formula("log" + own):
            return self._formula("log" + own)(x, **params)
        if self._formula("log" + other):
            return log1mexp(self._formula("log" + other)(x, **params))
        p = self._probability(x, params, lower)
        if not (self._formula(other) or self._formula("log" + other)):
            return fnp.log(p)
        # log(p) loses the tail where p is near 1: there it is log1p(-q) of the
        # complement (double where: neither branch sees the other's inputs)
        big = fnp.greater(p, 0.5)
        q = self._probability(x, params, not lower)
        return fnp.where(big, fnp.log1p(-fnp.where(big, q, 0.5)),
                         fnp.log(fnp.where(big, 0.5, p)))

    def _logcdf_dispatch(self, x, /, **params):
        return self._log_probability(x, params, True)

    def _logccdf_dispatch(self, x, /, **params):
        return self._log_probability(x, params, False)

    def _two(self, method, x, y):
        """``cdf(x, y)`` and its kin: the mass between ``x`` and ``y`` (negative, or its
        log with ``pi*1j``, where ``y < x``, as SciPy's)."""
        x, dx = self._argument(x, method)
        y, dy = self._argument(y, method)
        swap = fnp.less(y, x)
        lo, hi = fnp.where(swap, y, x), fnp.where(swap, x, y)
        a, b = self._support_arrays()
        lo = fnp.where(lo < a, a, fnp.where(lo > b, b, lo))
        hi = fnp.where(hi < a, a, fnp.where(hi > b, b, hi))
        if method in ("cdf", "ccdf"):
            cl, ch = self._masked("cdf", lo), self._masked("cdf", hi)
            sl, sh = self._masked("ccdf", lo), self._masked("ccdf", hi)
            upper = fnp.logical_and(sl < 0.5, sh < 0.5)
            mass = fnp.where(upper, sl - sh, ch - cl)
            mass = fnp.where(mass > 1.0, 1.0, fnp.where(mass < 0.0, 0.0, mass))
            if method == "cdf":
                out = fnp.where(swap, -mass, mass)
            else:  # (both tails added: no cancellation where they are small)
                tails = fnp.minimum(cl + sh, 1.0)
                out = fnp.where(swap, 2.0 - tails, tails)
            return scalar(self._typed(out, np.result_type(dx, dy)))
        lcl, lch = self._masked("logcdf", lo), self._masked("logcdf", hi)
        lsl, lsh = self._masked("logccdf", lo), self._masked("logccdf", hi)
        log_mass = log_interval(lo, hi, lcl, lch, lsl, lsh)
        if method == "logcdf":
            out = fnp.astype(log_mass, np.result_type(log_mass.dtype, np.complex64)) + \
                fnp.where(swap, math.pi * 1j, 0.0)
        else:  # the log of both tails, and of 2 - both tails where swapped
            tails = fnp.minimum(fnp.logaddexp(lcl, lsh), 0.0)
            out = fnp.where(swap, math.log(2.0) + log1mexp(tails - math.log(2.0)), tails)
        out = self._typed(out, np.result_type(dx, dy))
        return scalar(out)

    # ----- inverses -----------------------------------------------------------------

    def _inverse(self, p, params, lower, log):
        """``icdf``/``iccdf`` (``lower``), or ``ilogcdf``/``ilogccdf`` (``log``), from the
        inverse formula the family has."""
        own, other = ("icdf", "iccdf") if lower else ("iccdf", "icdf")
        logown, logother = "ilog" + own[1:], "ilog" + other[1:]
        if log:
            if self._formula(logown):
                return self._formula(logown)(p, **params)
            if self._formula(logother):
                        return self._formula(logother)(log1mexp(p), **params)
            return self._inverse(fnp.exp(p), params, lower, False)
        if self._formula(own):
            return self._formula(own)(p, **params)
        if self._formula(other):
            return self._formula(other)(1.0 - p, **params)
        if self._formula(logown):
            return self._formula(logown)(fnp.log(p), **params)
        if self._formula(logother):
            return self._formula(logother)(fnp.log1p(-p), **params)
        wrapped = type(self)._cdf_dispatch is not FormulaDispatch._cdf_dispatch
        if not (wrapped or any(self._formula(f) for f in ("cdf", "ccdf", "logcdf",
                                                           "logccdf"))):
            self._need(own, "icdf", "iccdf", "ilogcdf", "ilogccdf", "cdf")
        # a root search, as SciPy's, differentiated implicitly
        sign = 1.0 if lower else -1.0
        traced = any(wants_derivative(v) for v in params.values())
        probability = self._cdf_dispatch if lower else self._ccdf_dispatch
        return invert(lambda x: sign * probability(x, **params),
                      lambda x: self._pdf_dispatch(x, **params), sign * p,
                      self._support(**params), traced)

    def _icdf_dispatch(self, p, /, **params):
        return self._inverse(p, params, True, False)

    def _iccdf_dispatch(self, p, /, **params):
        return self._inverse(p, params, False, False)

    def _ilogcdf_dispatch(self, logp, /, **params):
        return self._inverse(logp, params, True, True)

    def _ilogccdf_dispatch(self, logp, /, **params):
        return self._inverse(logp, params, False, True)

    # ----- properties ------------------------------------------------------------------

    def _entropy_dispatch(self, **params):
        if self._formula("entropy"):
            return self._entropy_formula(**params)
        if self._formula("logentropy"):
            return fnp.real(fnp.exp(self._logentropy_formula(**params)))
        self._need("the entropy", "entropy", "logentropy")

    def _logentropy_dispatch(self, **params):
        if self._formula("logentropy"):
            return self._logentropy_formula(**params)
        h = fnp.asarray(self._entropy_dispatch(**params))
        return fnp.log(h + 0j)  # (pi*1j where the entropy is negative, as SciPy's)

    def _median_dispatch(self, **params):
        if self._formula("median"):
            return self._median_formula(**params)
        return self._icdf_dispatch(fnp.asarray(0.5, dtype=self._dtype), **params)

    def _mode_dispatch(self, **params):
        if self._formula("mode"):
            return self._mode_formula(**params)
        self._need("the mode", "mode")

    def _sample_dispatch(self, full_shape, *, rng, **params):
        if self._formula("sample"):
            return self._sample_formula(full_shape, rng=rng, **params)
        # SciPy's inverse transform: the same uniforms, through a differentiable icdf
        uniform = rng.random(size=full_shape, dtype=self._dtype)
        return self._icdf_dispatch(uniform, **params)

    # ----- moments (None where no formula leads to one) --------------------------------

    def _moment_formula(self, kind, order, params):
        formula = self._formula(f"moment_{kind}")
        return None if formula is None else formula(order, **params)

    def _moment_raw(self, order, via, **params):
        m = self._moment_formula("raw", order, params)
        if m is None and order == 0:
            m = 1.0
        if m is None and order >= 1 and via == "all":
            mean = m if order == 1 else self._moment_raw(1, "formula", **params)
            central = [self._moment_central(i, "direct", **params)
                       for i in range(order + 1)]
            if mean is not None and all(m is not None for m in central):
                m = recentre(order, central, mean, 0.0)
        return m

    def _moment_central(self, order, via, **params):
        m = self._moment_formula("central", order, params)
        if m is None and order <= 1:
            return 1.0 if order == 0 else 0.0
        if m is None and via == "all":
            raw = [self._moment_raw(i, "formula", **params) for i in range(order + 1)]
            if all(m is not None for m in raw):
                return recentre(order, raw, 0.0, raw[1])
        if m is None and order > 2 and via in ("all", "direct"):
            s = self._moment_standardized(order, "formula", **params)
            var = self._moment_central(2, via, **params) if s is not None else None
            if var is not None:
                m = s * var ** (order / 2)
        return m

    def _moment_standardized(self, order, via, **params):
        m = self._moment_formula("standardized", order, params)
        if m is None and order <= 2:
            return 0.0 if order == 1 else 1.0
        if m is None and via == "all":
            c = self._moment_central(order, "all", **params)
            var = self._moment_central(2, "all", **params) if c is not None else None
            if var is not None:
                m = c / var ** (order / 2)
        return m

"""Goodness-of-fit tests of :mod:`funcgrad.scipy.stats` (re-exported there) whose
statistics are smooth functions of the sorted data: ``cramervonmises``, ``anderson`` and
``epps_singleton_2samp``, with SciPy's signatures and results.

* ``cramervonmises``: with ``cdf`` a callable written in funcgrad (``fst.norm.cdf``...)
  the statistic and p-value (Csörgő and Faraway's series, as SciPy's, its terms in
  funcgrad's ``kv``) are differentiable in ``rvs`` and ``args``; with ``cdf`` a name, the
  distribution function is SciPy's, so a traced ``rvs`` or ``args`` raises (pass
  ``fst.<name>.cdf`` instead).
* ``anderson``: for ``dist`` 'norm' and 'expon' the statistic (with its fitted
  parameters) is written in funcgrad, and ``method='interpolate'``'s p-value is its
  piecewise-linear interpolation in SciPy's table: differentiable.  The other
  distributions are fitted by SciPy: values only (a traced ``x`` raises).  The critical
  values are constants; ``fit_result`` holds SciPy's fitted values, so reading it on
  traced data raises rather than give a derivative of zero.
* ``epps_singleton_2samp``: the empirical characteristic functions at ``t`` scaled by the
  semi-interquartile range, their covariance's pseudo-inverse (its rank, the degrees of
  freedom, read from the values): differentiable in ``x`` and ``y``.

The series' lengths and the rank are read from the values: not under ``vmap``/``jit``.
"""
import math
import warnings
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import concrete_values
from ..typing import ArrayLike
from . import special as sp
from ._correlation import SignificanceResult
from ._statshyp_counts import _scipy, _traced, _untraced
from ._statshyp_spread import _out, _samples
from ._statstests_summary import iqr

__all__ = ["cramervonmises", "anderson", "epps_singleton_2samp"]


def _values(x, name):
    return concrete_values(x, f"{name} (its series' length and its rank)",
                           "call it outside vmap/jit")


def _series(name, x, term):
    """``sum_k term(x, k)``, each element's terms added until one is below 1e-7 in size
    (SciPy's rule, so that the values agree with SciPy's to rounding)."""
    total = fnp.zeros_like(x)
    active = np.ones(np.shape(x), bool)
    k = 0
    while active.any():
        z = term(x, k)
        total = total + fnp.where(active, z, 0.0)
        active = active & (np.abs(_values(z, name)) >= 1e-7)
        k += 1
    return total


def _cdf_cvm_inf(x):
    """The asymptotic distribution function of the Cramér-von Mises statistic at ``x >
    0`` (Csörgő and Faraway's equation 1.2)."""
    def term(x, k):
        y = 4.0 * k + 1.0
        q = y * y / (16.0 * x)
        scale = math.exp(math.lgamma(k + 0.5) - math.lgamma(k + 1.0)) / math.pi ** 1.5
        return scale / fnp.sqrt(x) * math.sqrt(y) * fnp.exp(-q) * sp.kv(0.25, q)
    return _series("cramervonmises", x, term)


def _ed2(y):
    z = y * y / 4.0
    return fnp.exp(-z) * (y / 2.0) ** 1.5 * (sp.kv(0.25, z) + sp.kv(0.75, z)) / math.sqrt(
        math.pi)


def _ed3(y):
    z = y * y / 4.0
    return fnp.exp(-z) / math.sqrt(math.pi) * (y / 2.0) ** 2.5 * (
        2.0 * sp.kv(0.25, z) + 3.0 * sp.kv(0.75, z) - sp.kv(1.25, z))


def _psi1_mod(x):
    """Csörgő and Faraway's ``psi1`` (equation 1.10) without its ``V(x) / 12`` term."""
    def term(x, k):
        m = 2.0 * k + 1.0
        sx = 2.0 * fnp.sqrt(x)
        y1, y2 = x ** 0.75, x ** 1.25
        g1, g3 = math.gamma(k + 0.5), math.gamma(k + 1.5)
        a = (m * g1 * _ed2((4 * k + 3) / sx) / (9.0 * y1)
             + g1 * _ed3((4 * k + 1) / sx) / (72.0 * y2)
             + 2.0 * (m + 2.0) * g3 * _ed3((4 * k + 5) / sx) / (12.0 * y2)
             + 7.0 * m * g1 * _ed2((4 * k + 1) / sx) / (144.0 * y1)
             + 7.0 * m * g1 * _ed2((4 * k + 5) / sx) / (144.0 * y1))
        return -a / (math.pi * math.gamma(k + 1.0))
    return _series("cramervonmises", x, term)


def _cvm_pvalue(w, n):
    """``1 - cdf(w)`` of the statistic of ``n`` values (equation 1.8: 0 below ``1/(12 n)``
    and 1 from ``n/3`` on), clipped at 0 as SciPy's."""
    inside = np.asarray((_values(w, "cramervonmises") > 1.0 / (12.0 * n))
                        & (_values(w, "cramervonmises") < n / 3.0))
    u = fnp.where(inside, w, 0.1)  # (a point inside, where the series is not asked for)
    cdf = _cdf_cvm_inf(u) * (1.0 + 1.0 / (12.0 * n)) + _psi1_mod(u) / n
    above = np.asarray(_values(w, "cramervonmises") >= n / 3.0)
    cdf = fnp.where(inside, cdf, fnp.where(above, fnp.ones_like(w), fnp.zeros_like(w)))
    return fnp.maximum(1.0 - cdf, 0.0)


class CramerVonMisesResult:
    """:func:`cramervonmises`'s and SciPy's result: ``.statistic`` and ``.pvalue``.

    >>> r = CramerVonMisesResult(0.1, 0.5)
    >>> r
    CramerVonMisesResult(statistic=0.1, pvalue=0.5)
    """

    def __init__(self, statistic: Any, pvalue: Any) -> None:
        self.statistic, self.pvalue = statistic, pvalue

    def __repr__(self) -> str:
        return f"{type(self).__name__}(statistic={self.statistic!r}, pvalue={self.pvalue!r})"


def cramervonmises(rvs: ArrayLike, cdf: Union[str, Callable], args: tuple = (), *,
                   axis: Optional[int] = 0, nan_policy: str = "propagate",
                   keepdims: bool = False) -> CramerVonMisesResult:
    """The one-sample Cramér-von Mises test that ``rvs`` (along ``axis``) comes from the
    distribution function ``cdf`` (a callable, ``cdf(x, *args)``, or the name of one of
    SciPy's distributions), with the p-value of Csörgő and Faraway's finite-sample
    approximation, as ``scipy.stats.cramervonmises``.  With a funcgrad ``cdf``
    (``funcgrad.scipy.stats.norm.cdf``...) both are differentiable in ``rvs`` and ``args``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.stats as fst
    >>> x = np.array([-1.2, -0.4, 0.1, 0.5, 0.9, 1.6])
    >>> res = cramervonmises(x, fst.norm.cdf)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.055863971785, 0.858607593372)
    >>> g = fg.grad(lambda v: cramervonmises(v, fst.norm.cdf, (0.2,)).pvalue)(x)
    """
    if isinstance(cdf, str):
        if _traced(rvs) or _traced(list(args)):
            raise TypeError(f"cramervonmises: cdf={cdf!r} is SciPy's distribution function, "
                            f"without a derivative; pass funcgrad's "
                            f"(funcgrad.scipy.stats.{cdf}.cdf) to differentiate")
        res = _scipy("cramervonmises", rvs, cdf, args, axis=axis, nan_policy=nan_policy,
                     keepdims=keepdims)
        return CramerVonMisesResult(res.statistic, res.pvalue)
    (x,), ndim = _samples("cramervonmises", [rvs], axis, nan_policy, least=1)
    n = x.shape[-1]
    if n <= 1:
        raise ValueError(f"cramervonmises: the sample needs at least two values, got {n}")
    values = fnp.sort(x, axis=-1)
    u = ((2.0 * np.arange(1, n + 1) - 1.0) / (2.0 * n)).astype(x.dtype)
    w = 1.0 / (12.0 * n) + fnp.sum(fnp.square(u - cdf(values, *args)), axis=-1)
    p = _cvm_pvalue(w, float(n))
    return CramerVonMisesResult(_out(w, ndim, axis, keepdims), _out(p, ndim, axis, keepdims))


class _NoDerivative:
    """SciPy's ``fit_result`` of traced data: its fitted values carry no derivative, so
    reading them raises (rather than give a derivative of zero)."""

    def __init__(self, dist):
        self._dist = dist

    def __getattr__(self, name):
        if name.startswith("__"):  # (copy, pickle and friends probe for these)
            raise AttributeError(name)
        raise TypeError(f"anderson: fit_result holds SciPy's fitted values, without a "
                        f"derivative in x; compute the parameters of {self._dist!r} from x "
                        f"with funcgrad (e.g. the mean and std(ddof=1) for 'norm')")

    def __repr__(self):
        return f"<anderson's fit_result of traced data (dist={self._dist!r}): not available>"


def _anderson_norm(y, dist):
    """Anderson and Darling's ``A2`` of the sorted ``y`` against ``dist`` fitted to it."""
    n = y.shape[-1]
    if dist == "norm":
        w = (y - fnp.mean(y)) / fnp.std(y, ddof=1)
        logcdf, logsf = sp.log_ndtr(w), sp.log_ndtr(-w)
    else:
        w = y / fnp.mean(y)
        logcdf, logsf = fnp.log(-fnp.expm1(-w)), -w
    i = np.arange(1, n + 1, dtype=y.dtype)
    return -n - fnp.sum((2.0 * i - 1.0) / n * (logcdf + logsf[::-1]))


def anderson(x: ArrayLike, dist: str = "norm", *, method: Any = None) -> Any:
    """The Anderson-Darling test that ``x`` comes from ``dist`` ('norm', 'expon',
    'logistic', 'gumbel', 'gumbel_l', 'gumbel_r', 'extreme1', 'weibull_min') with fitted
    parameters, as ``scipy.stats.anderson``: without ``method``, SciPy's ``AndersonResult``
    (statistic, critical values, significance levels, ``fit_result``; SciPy's
    FutureWarning included); with ``method='interpolate'`` (or SciPy's
    ``MonteCarloMethod``), the statistic and a p-value.  Differentiable in ``x`` for
    'norm' and 'expon' (the statistic, and the interpolated p-value); the others are
    fitted by SciPy: values only.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([-1.2, -0.4, 0.1, 0.5, 0.9, 1.6, 2.2, 0.3, 6.0])
    >>> res = anderson(x, method="interpolate")
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.611425054602, 0.080080250183)
    >>> g = fg.grad(lambda v: anderson(v, method="interpolate").pvalue)(x)
    """
    ours = dist in ("norm", "expon")
    if np.ndim(x) != 1:
        raise ValueError(f"anderson: x must be 1-d, got shape {np.shape(x)}")
    if not ours:
        _untraced("anderson", f"dist={dist!r} is fitted by SciPy", x=x)
    traced = isinstance(x, Tracer)
    values = concrete_values(x, "anderson (which fits the distribution to the data)",
                             "call it outside vmap/jit") if traced else x
    res = _scipy("anderson", values, dist, method=method)
    if not ours:
        return res
    a = fnp.asarray(x)
    if a.dtype.kind in "biu":
        a = fnp.astype(a, np.float64)
    statistic = _anderson_norm(fnp.sort(fnp.reshape(a, (-1,))), dist)
    if method is None:
        fit = _NoDerivative(dist) if traced else res.fit_result
        return type(res)(statistic, res.critical_values, res.significance_level,
                         fit_result=fit)
    if method == "interpolate":
        # (SciPy's np.interp in its table of critical values: piecewise linear in A2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            table = _scipy("anderson", values, dist)
        levels = np.asarray(table.significance_level, statistic.dtype) / 100
        critical = np.asarray(table.critical_values, statistic.dtype)
        p = fnp.astype(fnp.interp(statistic, critical, levels), statistic.dtype)
        p = _out(p, 0, None, False)
        return SignificanceResult(statistic, p)
    return SignificanceResult(statistic, res.pvalue)


def epps_singleton_2samp(x: ArrayLike, y: ArrayLike, t: Any = (0.4, 0.8), *,
                         axis: Optional[int] = 0, nan_policy: str = "propagate",
                         keepdims: bool = False) -> SignificanceResult:
    """Epps and Singleton's test that ``x`` and ``y`` come from one distribution: the
    difference of their empirical characteristic functions at the points ``t`` (scaled by
    the semi-interquartile range of all the data), weighted by the pseudo-inverse of its
    covariance, p-value by chi2 (with the small-sample correction below 25 values), as
    ``scipy.stats.epps_singleton_2samp``; differentiable in ``x`` and ``y``.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([-1.2, -0.4, 0.1, 0.5, 0.9, 1.6, 2.2, 0.3])
    >>> y = np.array([0.2, 1.1, 2.5, 3.0, 1.7, 0.8, 2.4])
    >>> res = epps_singleton_2samp(x, y)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (3.107921321851, 0.539930254359)
    >>> g = fg.grad(lambda v: epps_singleton_2samp(v, y).pvalue)(x)
    """
    (x, y), ndim = _samples("epps_singleton_2samp", [x, y], axis, nan_policy)
    nx, ny = x.shape[-1], y.shape[-1]
    if nx < 5 or ny < 5:
        raise ValueError(f"epps_singleton_2samp: x and y need at least 5 values each, got "
                         f"{nx} and {ny}")
    t = np.asarray(_values(t, "epps_singleton_2samp") if isinstance(t, Tracer) else t,
                   dtype=x.dtype)
    if t.ndim != 1 or np.any(t <= 0):
        raise ValueError(f"epps_singleton_2samp: t must be 1-d with positive elements, got "
                         f"{t!r}")
    n = nx + ny
    sigma = iqr(fnp.concatenate([x, y], axis=-1), axis=-1, keepdims=True) / 2.0
    ts = t[:, None] / fnp.expand_dims(sigma, -2)  # (..., len(t), 1)

    def features(s):
        angle = ts * fnp.expand_dims(s, -2)
        g = fnp.concatenate([fnp.cos(angle), fnp.sin(angle)], axis=-2)
        mean = fnp.mean(g, axis=-1)
        centred = g - fnp.expand_dims(mean, -1)
        cov = fnp.matmul(centred, fnp.swapaxes(centred, -1, -2)) / s.shape[-1]  # (biased)
        return mean, cov

    mean_x, cov_x = features(x)
    mean_y, cov_y = features(y)
    inverse = fnp.linalg.pinv((n / nx) * cov_x + (n / ny) * cov_y)
    rank = np.linalg.matrix_rank(_values(inverse, "epps_singleton_2samp")).astype(x.dtype)
    d = mean_x - mean_y
    w = n * fnp.sum(d * fnp.squeeze(fnp.matmul(inverse, fnp.expand_dims(d, -1)), -1), -1)
    if max(nx, ny) < 25:
        w = w / (1.0 + n ** -0.45 + 10.1 * (nx ** -1.7 + ny ** -1.7))
    p = sp.chdtrc(rank + fnp.zeros_like(w), w)
    return SignificanceResult(_out(w, ndim, axis, keepdims), _out(p, ndim, axis, keepdims))

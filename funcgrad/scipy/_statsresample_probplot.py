"""Probability plots and Bayesian intervals of :mod:`funcgrad.scipy.stats` (re-exported
there), with SciPy's signatures and results: ``probplot``, ``ppcc_max``, ``mvsdist`` and
``bayes_mvs``.

``probplot``'s theoretical quantiles are differentiable in the shape parameters, the
ordered values and the fitted line in the data; ``ppcc_max``'s shape (the straightest
probability plot) in the data by the implicit function theorem at SciPy's optimum;
``mvsdist``'s distributions and ``bayes_mvs``'s estimates and intervals in the data.
The distributions are funcgrad's, found by SciPy's names (``'norm'``, ``'gamma'``...), or
any object with a ``ppf``; ``'tukeylambda'`` (``ppcc_max``'s default) is written here, its
quantile ``(p**l - (1 - p)**l) / l`` in a form smooth through ``l = 0``.
"""
import math
from collections import namedtuple
from typing import Any, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from . import special as sp
from ._correlation import pearsonr
from ._distn import DISTRIBUTIONS
from ._optlegacy_scalar import brent
from ._statsresample_quantile import values_of
from ._statsresample_transform import _order_statistic_medians
from ._statstests_regress import linregress

__all__ = ["probplot", "ppcc_max", "mvsdist", "bayes_mvs"]

Mean = namedtuple("Mean", ["statistic", "minmax"])
Mean.__doc__ = """:func:`bayes_mvs`'s estimate of the mean, as SciPy's."""
Variance = namedtuple("Variance", ["statistic", "minmax"])
Variance.__doc__ = """:func:`bayes_mvs`'s estimate of the variance, as SciPy's."""
Std_dev = namedtuple("Std_dev", ["statistic", "minmax"])
Std_dev.__doc__ = """:func:`bayes_mvs`'s estimate of the standard deviation, as SciPy's."""


def _tukeylambda_ppf(q, lam):
    """``(q**lam - (1 - q)**lam) / lam`` (``logit(q)`` at 0), as ``t exprel(lam t)``
    differences with ``t = log q``, ``log(1 - q)``: smooth in ``lam`` through 0."""
    low, high = fnp.log(q), fnp.log1p(-q)
    return low * sp.exprel(lam * low) - high * sp.exprel(lam * high)


class _TukeyLambda:
    """The quantile function of Tukey's lambda distribution (``ppcc_max``'s default)."""
    name = "tukeylambda"

    @staticmethod
    def ppf(q, lam, loc=0.0, scale=1.0):
        return loc + scale * _tukeylambda_ppf(asarray(q), lam)


def _distribution(name, dist):
    """``dist`` (a name, or an object with a ``ppf``) as an object with a ``ppf``."""
    if isinstance(dist, str):
        if dist == "tukeylambda":
            return _TukeyLambda
        if dist not in DISTRIBUTIONS:
            raise ValueError(f"{name}: {dist!r} is not a distribution of "
                             f"funcgrad.scipy.stats; pass its name (as SciPy's) or an "
                             f"object with a ppf method")
        return DISTRIBUTIONS[dist]
    if not hasattr(dist, "ppf"):
        raise ValueError(f"{name}: dist must be a distribution's name or an object with a "
                         f"ppf method, got {dist!r}")
    return dist


def probplot(x: ArrayLike, sparams: Any = (), dist: Any = "norm", fit: bool = True,
             plot: Optional[Any] = None, rvalue: bool = False) -> Any:
    """The quantiles of a probability plot of ``x`` against ``dist`` (its quantiles at
    Filliben's order-statistic medians, with shape parameters ``sparams``) and, with
    ``fit``, the least-squares line through it, as ``scipy.stats.probplot``: ``((osm,
    osr), (slope, intercept, r))`` or ``(osm, osr)``; ``plot`` (an object with ``plot``
    and ``text`` methods, e.g. ``matplotlib.pyplot``) draws it.  Differentiable in ``x``
    and ``sparams``.

    >>> import numpy as np, funcgrad as fg
    >>> (osm, osr), (slope, intercept, r) = probplot(np.array([2.0, -1.0, 0.5, 1.0]))
    >>> osr, round(float(slope), 10)
    (array([-1. ,  0.5,  1. ,  2. ]), 1.4522527276)
    """
    x = asarray(x)
    if x.size == 0:
        return ((x, x), (math.nan, math.nan, 0.0)) if fit else (x, x)
    distribution = _distribution("probplot", dist)
    if sparams is None:
        sparams = ()
    if np.isscalar(sparams) or getattr(sparams, "ndim", 1) == 0:
        sparams = (sparams,)
    uniform = _order_statistic_medians(x.size)
    osm = distribution.ppf(uniform, *tuple(sparams))
    osr = fnp.sort(fnp.ravel(x))
    if fit:
        line = linregress(osm, osr)
        slope, intercept, r = line.slope, line.intercept, line.rvalue
    if plot is not None:
        shown_m, shown_r = values_of(osm), values_of(osr)
        plot.plot(shown_m, shown_r, "bo")
        if fit:
            plot.plot(shown_m, float(values_of(slope)) * shown_m
                      + float(values_of(intercept)), "r-")
        for setter, label in (("set_title", "title"), ("set_xlabel", "xlabel"),
                              ("set_ylabel", "ylabel")):
            method = getattr(plot, setter, None) or getattr(plot, label, None)
            if method is not None:
                method({"title": "Probability Plot", "xlabel": "Theoretical quantiles",
                        "ylabel": "Ordered Values"}[label])
        if fit and rvalue:
            lo, hi = shown_m.min(), shown_m.max()
            low_r, high_r = shown_r.min(), shown_r.max()
            plot.text(lo + 0.70 * (hi - lo), low_r + 0.01 * (high_r - low_r),
                      f"$R^2={float(values_of(r)) ** 2:1.4f}$")
    return ((osm, osr), (slope, intercept, r)) if fit else (osm, osr)


def ppcc_max(x: ArrayLike, brack: Sequence[float] = (0.0, 1.0),
             dist: Any = "tukeylambda") -> Array:
    """The shape parameter of ``dist`` whose probability plot of ``x`` is straightest
    (the largest correlation coefficient), as ``scipy.stats.ppcc_max``: SciPy's ``brent``
    from ``brack``; differentiable in ``x`` by the implicit function theorem.

    >>> import numpy as np
    >>> x = np.array([-2.1, -0.9, -0.3, 0.0, 0.2, 0.7, 1.1, 2.5])
    >>> round(float(ppcc_max(x)), 6)
    -0.598596
    """
    distribution = _distribution("ppcc_max", dist)
    x = asarray(x)
    uniform = _order_statistic_medians(x.size)

    def straightness(shape, ordered):
        return 1.0 - pearsonr(distribution.ppf(uniform, shape), ordered).statistic
    return brent(straightness, brack=brack, args=(fnp.sort(fnp.ravel(x)),))


def mvsdist(data: ArrayLike) -> tuple:
    """The Bayesian posterior distributions of the mean, variance and standard deviation
    of the normal population ``data`` comes from (Jeffreys' prior), as
    ``scipy.stats.mvsdist``: frozen funcgrad distributions (``t``, ``invgamma``,
    ``gengamma``; normal approximations beyond 1000 values), differentiable in ``data``.

    >>> import numpy as np
    >>> mean, var, std = mvsdist(np.array([1.0, 2.0, 4.0, 5.0]))
    >>> float(mean.mean()), float(var.mean())
    (3.0, 10.0)
    """
    x = fnp.ravel(asarray(data))
    n = x.shape[0]
    if n < 2:
        raise ValueError("mvsdist: need at least 2 data points")
    if x.dtype.kind != "f":
        x = fnp.astype(x, np.float64)
    mean, var = fnp.mean(x), fnp.var(x)
    if n > 1000:  # (SciPy's normal approximations)
        norm = DISTRIBUTIONS["norm"]
        return (norm(loc=mean, scale=fnp.sqrt(var / n)),
                norm(loc=var, scale=math.sqrt(2.0 / n) * var),
                norm(loc=fnp.sqrt(var), scale=fnp.sqrt(var / (2.0 * n))))
    half = (n - 1) / 2.0
    spread = n * var / 2.0
    return (DISTRIBUTIONS["t"](n - 1, loc=mean, scale=fnp.sqrt(var / (n - 1))),
            DISTRIBUTIONS["invgamma"](half, scale=spread),
            DISTRIBUTIONS["gengamma"](half, -2, scale=fnp.sqrt(spread)))


def bayes_mvs(data: ArrayLike, alpha: float = 0.9) -> tuple:
    """Bayesian estimates of the mean, variance and standard deviation of ``data``'s
    normal population, each its posterior mean and central ``alpha`` credible interval,
    as ``scipy.stats.bayes_mvs``: ``(Mean, Variance, Std_dev)``, each ``(statistic,
    (low, high))``; differentiable in ``data``.

    >>> import numpy as np
    >>> mean, var, std = bayes_mvs(np.array([1.0, 2.0, 4.0, 5.0]))
    >>> float(mean.statistic), [round(float(b), 6) for b in mean.minmax]
    (3.0, [0.851683, 5.148317])
    """
    if not 0 < alpha < 1:
        raise ValueError(f"bayes_mvs: 0 < alpha < 1 is required, got alpha={alpha!r}")
    out = []
    for kind, frozen in zip((Mean, Variance, Std_dev), mvsdist(data)):
        # (SciPy's interval: the quantiles a (1 - alpha)/2 from either end)
        ends = (frozen.ppf((1.0 - alpha) / 2.0), frozen.ppf((1.0 + alpha) / 2.0))
        out.append(kind(frozen.mean(), ends))
    return tuple(out)

"""Correlation tests of :mod:`funcgrad.scipy.stats` (re-exported there): ``pearsonr`` and
``spearmanr``, with SciPy's signatures and result objects (``.statistic``, ``.pvalue``,
unpacking as a pair).

``pearsonr``'s statistic and p-value are differentiable in the data: the statistic is
the cosine of the centred vectors, the p-value the two tails of its null distribution,
``beta(n/2 - 1, n/2 - 1)`` on ``[-1, 1]`` (``betainc`` of ``(1 - |r|)/2``).
``spearmanr``'s statistic is Pearson's of the ranks, a step function of the data: its
derivative is zero almost everywhere (and undefined at ties), and so is the p-value's;
funcgrad returns that zero (the ranks are constants) rather than raise.
"""
import math
from collections import namedtuple
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..primitives.structural import stop_gradient as _stop_gradient
from ..typing import ArrayLike
from . import special as sp
from ._stats_functions import rankdata

__all__ = ["pearsonr", "spearmanr", "PearsonRResult", "SignificanceResult",
           "ConfidenceInterval"]

ConfidenceInterval = namedtuple("ConfidenceInterval", ["low", "high"])
ConfidenceInterval.__doc__ = """A confidence interval ``(low, high)``, as SciPy's."""

_ALTERNATIVES = ("two-sided", "less", "greater")


class SignificanceResult:
    """A test's result, as SciPy's: ``.statistic`` and ``.pvalue``, and unpacking as the
    pair ``statistic, pvalue = result``.

    >>> r = SignificanceResult(0.5, 0.1)
    >>> statistic, pvalue = r
    >>> float(statistic), float(r.pvalue)
    (0.5, 0.1)
    """

    def __init__(self, statistic: Any, pvalue: Any) -> None:
        self.statistic = statistic
        self.pvalue = pvalue

    def __iter__(self):
        return iter((self.statistic, self.pvalue))

    def __getitem__(self, i: int) -> Any:
        return (self.statistic, self.pvalue)[i]

    def __len__(self) -> int:
        return 2

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(statistic={self.statistic!r}, "
                f"pvalue={self.pvalue!r})")


class PearsonRResult(SignificanceResult):
    """:func:`pearsonr`'s result: ``.statistic``, ``.pvalue`` and
    ``.confidence_interval(confidence_level=0.95)`` (Fisher's transformation, as SciPy's
    default), differentiable in the data.

    >>> import numpy as np
    >>> res = pearsonr(np.array([1.0, 2.0, 3.0, 5.0]), np.array([1.0, 3.0, 2.0, 6.0]))
    >>> low, high = res.confidence_interval()
    >>> bool(low < res.statistic < high)
    True
    """

    def __init__(self, statistic: Any, pvalue: Any, n: int, alternative: str) -> None:
        super().__init__(statistic, pvalue)
        self._n, self._alternative = n, alternative

    def confidence_interval(self, confidence_level: float = 0.95,
                            method: Optional[object] = None) -> ConfidenceInterval:
        """The interval of the correlation at ``confidence_level``: ``tanh(arctanh(r) +-
        z / sqrt(n - 3))`` (one-sided for ``alternative='less'``/``'greater'``).  Only the
        Fisher transformation (``method=None``) is available; it needs ``n > 3``."""
        if method is not None:
            raise NotImplementedError("confidence_interval: only method=None (Fisher's "
                                      "transformation) is available; SciPy's bootstrap is not")
        if not 0 < confidence_level < 1:
            raise ValueError(f"confidence_interval: confidence_level must lie in (0, 1), "
                             f"got {confidence_level!r}")
        if self._n <= 3:
            raise ValueError("confidence_interval: Fisher's transformation needs more than "
                             f"3 observations, got {self._n}")
        z = fnp.arctanh(self.statistic)
        se = 1.0 / math.sqrt(self._n - 3)
        if self._alternative == "two-sided":
            h = sp.ndtri(0.5 + confidence_level / 2.0) * se
            return ConfidenceInterval(fnp.tanh(z - h), fnp.tanh(z + h))
        h = sp.ndtri(confidence_level) * se
        if self._alternative == "less":
            return ConfidenceInterval(-1.0 + 0.0 * z, fnp.tanh(z + h))
        return ConfidenceInterval(fnp.tanh(z - h), 1.0 + 0.0 * z)


def _null_tails(r, a, alternative):
    """P-values of a correlation ``r`` whose null distribution is ``beta(a, a)`` on
    ``[-1, 1]``: each tail is ``betainc(a, a, (1 -+ r)/2)`` directly (no ``1 - cdf``)."""
    if alternative == "less":
        return sp.betainc(a, a, (1.0 + r) * 0.5)
    if alternative == "greater":
        return sp.betainc(a, a, (1.0 - r) * 0.5)
    return 2.0 * sp.betainc(a, a, (1.0 - fnp.abs(r)) * 0.5)


def _check_alternative(name, alternative):
    if alternative not in _ALTERNATIVES:
        raise ValueError(f"{name}: alternative must be 'two-sided', 'less' or 'greater', got "
                         f"{alternative!r}")


def pearsonr(x: ArrayLike, y: ArrayLike, *, alternative: str = "two-sided",
             method: Optional[object] = None, axis: Optional[int] = 0) -> PearsonRResult:
    """Pearson's correlation coefficient of ``x`` and ``y`` along ``axis`` and the p-value
    of no correlation (SciPy's ``scipy.stats.pearsonr``; ``method`` other than None, SciPy's
    permutation and Monte Carlo tests, is not available).  Differentiable in ``x`` and
    ``y``, statistic and p-value alike; NaN for a constant input, where the coefficient
    is undefined (SciPy warns and gives NaN too).

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 3.0, 2.0, 5.0])
    >>> res = pearsonr(x, y)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.83152184062, 0.16847815938)
    >>> g = fg.grad(lambda v: pearsonr(v, y).statistic)(x)  # d r / d x
    """
    if method is not None:
        raise NotImplementedError("pearsonr: method must be None (the exact null "
                                  "distribution); SciPy's PermutationMethod, MonteCarloMethod "
                                  "and BootstrapMethod are not available")
    _check_alternative("pearsonr", alternative)
    x, y = fnp.asarray(x), fnp.asarray(y)
    if axis is None:
        x, y, axis = fnp.reshape(x, (-1,)), fnp.reshape(y, (-1,)), 0
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("pearsonr: x and y must have at least one dimension")
    if x.shape[axis] != y.shape[axis]:
        raise ValueError(f"pearsonr: x and y must have the same length along axis {axis}, "
                         f"got {x.shape[axis]} and {y.shape[axis]}")
    n = x.shape[axis]
    if n < 2:
        raise ValueError(f"pearsonr: x and y must have length at least 2, got {n}")
    xm = x - fnp.mean(x, axis=axis, keepdims=True)
    ym = y - fnp.mean(y, axis=axis, keepdims=True)
    # (each centred vector scaled by its norm first, as SciPy: no overflow of the products)
    xn = fnp.sqrt(fnp.sum(xm * xm, axis=axis, keepdims=True))
    yn = fnp.sqrt(fnp.sum(ym * ym, axis=axis, keepdims=True))
    constant = fnp.logical_or(xn == 0, yn == 0)
    r = fnp.sum((xm / fnp.where(constant, 1.0, xn)) * (ym / fnp.where(constant, 1.0, yn)),
                axis=axis, keepdims=True)
    r = fnp.where(constant, math.nan, fnp.clip(r, -1.0, 1.0))
    r = fnp.squeeze(r, axis=axis)
    if n == 2:  # (two points lie on a line: r = +-1, and the test has no power: p = 1)
        return PearsonRResult(r, fnp.where(fnp.isnan(r), math.nan, 1.0 + 0.0 * r), n,
                              alternative)
    a = n / 2.0 - 1.0
    return PearsonRResult(r, _null_tails(r, a, alternative), n, alternative)


def spearmanr(a: ArrayLike, b: Optional[ArrayLike] = None, axis: Optional[int] = 0,
              nan_policy: str = "propagate",
              alternative: str = "two-sided") -> SignificanceResult:
    """Spearman's rank correlation (SciPy's ``scipy.stats.spearmanr``): Pearson's
    coefficient of the ranks (ties averaged), and the p-value of no correlation by the t
    distribution with ``n - 2`` degrees of freedom, as SciPy's.  For two 1-d inputs (or
    one with two columns) a scalar; for more variables, the matrix of every pair.

    The ranks are a step function of the data, so the statistic's derivative (and the
    p-value's) is zero almost everywhere (undefined where two values tie): gradients
    through ``spearmanr`` are zero, on purpose.  For a differentiable surrogate, correlate
    soft ranks yourself.  ``nan_policy`` other than 'propagate' is not available.

    >>> import numpy as np, funcgrad as fg
    >>> res = spearmanr(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([5.0, 6.0, 7.0, 8.0, 7.0]))
    >>> round(float(res.statistic), 12)
    0.820782681668
    >>> fg.grad(lambda v: spearmanr(v, np.arange(5.0)).statistic)(np.array([3.0, 1, 2, 5, 4]))
    array([0., 0., 0., 0., 0.])
    """
    if nan_policy != "propagate":
        raise NotImplementedError(f"spearmanr: nan_policy={nan_policy!r} is not implemented; "
                                  f"use 'propagate' (drop the NaNs first)")
    _check_alternative("spearmanr", alternative)
    if axis is None:
        a = fnp.reshape(fnp.asarray(a), (-1,))
        b = None if b is None else fnp.reshape(fnp.asarray(b), (-1,))

    def columns(v, name):
        """``v`` with its variables as columns (a 1-d ``v`` is one variable)."""
        v = fnp.asarray(v)
        if v.ndim == 1:
            return fnp.reshape(v, (-1, 1))
        if v.ndim != 2:
            raise ValueError(f"spearmanr: {name} must have 1 or 2 dimensions (as SciPy's), "
                             f"got shape {tuple(v.shape)}")
        return fnp.swapaxes(v, 0, 1) if axis == 1 else v

    data = columns(a, "a")
    if b is not None:
        data = fnp.concatenate([data, columns(b, "b")], axis=1)
    n, variables = data.shape
    if variables < 2:
        raise ValueError("spearmanr: give two 1-d samples, or one 2-d array with at least "
                         "two variables (its columns; rows for axis=1)")
    # (the ranks are constants: a step function of the data, derivative 0)
    ranks = fnp.asarray(rankdata(_stop_gradient(data), axis=0),
                        dtype=data.dtype if data.dtype.kind == "f" else np.float64)
    centred = ranks - fnp.mean(ranks, axis=0, keepdims=True)
    norms = fnp.sqrt(fnp.sum(centred * centred, axis=0))
    # (a constant variable, or one with a NaN (propagated), has no correlation: NaN)
    undefined = fnp.logical_or(norms == 0, fnp.any(fnp.isnan(data), axis=0))
    unit = centred / fnp.where(undefined, 1.0, norms)
    rho = fnp.clip(fnp.swapaxes(unit, 0, 1) @ unit, -1.0, 1.0)
    rho = fnp.where(fnp.logical_or(undefined[:, None], undefined[None, :]), math.nan, rho)
    dof = n - 2
    with np.errstate(divide="ignore", invalid="ignore"):
        t = rho * fnp.sqrt(dof / ((rho + 1.0) * (1.0 - rho)))
    pvalue = _t_tails(t, dof, alternative)
    if variables == 2:
        rho, pvalue = rho[0, 1], pvalue[0, 1]
    return SignificanceResult(rho, pvalue)


def _t_tails(t, dof, alternative):
    """The t distribution's tails at ``t`` with ``dof`` degrees of freedom (``|t| = inf``
    at ``|rho| = 1``: p = 0 there, as SciPy's)."""
    if alternative == "less":
        return sp.stdtr(dof, t)
    if alternative == "greater":
        return sp.stdtr(dof, -t)
    return 2.0 * sp.stdtr(dof, -fnp.abs(t))

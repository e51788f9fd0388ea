"""``ecdf`` of :mod:`funcgrad.scipy.stats` (re-exported there): the empirical CDF and
survival function of a sample (uncensored, or right-censored as SciPy's ``CensoredData``),
with SciPy's result, ``evaluate`` and Greenwood confidence intervals.

The ``quantiles`` (the distinct sample values) move with the data: differentiable.  The
``probabilities`` count observations (and ``evaluate``, a step function of ``x``, reads
them): their derivative is 0, and they are float64 as SciPy's.
"""
from dataclasses import dataclass, field
from typing import Any
import warnings

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..primitives.structural import stop_gradient
from ..typing import Array, ArrayLike
from ._statsresample_bootstrap import ConfidenceInterval
from ._statsresample_quantile import values_of
from . import special as sp

__all__ = ["ecdf"]


@dataclass
class EmpiricalDistributionFunction:
    """An empirical CDF or survival function, as SciPy's: ``quantiles`` (the distinct
    sample values), ``probabilities`` (the function there), ``evaluate(x)`` and
    ``confidence_interval(confidence_level=0.95, *, method='linear')``.

    >>> import numpy as np
    >>> cdf = ecdf(np.array([1.0, 2.0, 2.0, 3.0])).cdf
    >>> cdf.evaluate(np.array([0.0, 2.0, 2.5]))
    array([0.  , 0.75, 0.75])
    """
    quantiles: Array
    probabilities: np.ndarray
    _n: Any = field(repr=False)      # the number at risk at each quantile
    _d: Any = field(repr=False)      # the number of events there
    _kind: str = field(repr=False)   # "cdf" or "sf"

    def evaluate(self, x: ArrayLike) -> Array:
        """The function at ``x``: its value at the largest quantile at most ``x`` (before
        the first, 0 for the CDF and 1 for the SF; NaN reads the value past the last, as
        SciPy's).  A step function: its derivative in ``x`` is 0."""
        first = 1.0 if self._kind == "sf" else 0.0
        steps = np.concatenate([[first], np.asarray(self.probabilities), [1.0 - first]])
        edges = np.concatenate([[-np.inf], values_of(self.quantiles)])
        index = fnp.searchsorted(edges, stop_gradient(asarray(x)), side="right")
        return fnp.take(steps, index - 1)

    def confidence_interval(self, confidence_level: float = 0.95, *,
                            method: str = "linear") -> ConfidenceInterval:
        """Greenwood's pointwise interval (``'linear'``) or the exponential Greenwood one
        (``'log-log'``), clipped to [0, 1], as two :class:`EmpiricalDistributionFunction`
        (SciPy's)."""
        if self._n is None:
            raise NotImplementedError("the bounds of a confidence interval have no "
                                      "confidence_interval method")
        method = str(method).lower()
        if method not in ("linear", "log-log"):
            raise ValueError(f"ecdf: method must be 'linear' or 'log-log', got {method!r}")
        level = np.asarray(confidence_level)[()]
        if level.shape or not 0 <= level <= 1:
            raise ValueError(f"ecdf: confidence_level must be a scalar between 0 and 1, got "
                             f"{confidence_level!r}")
        p = np.asarray(self.probabilities)
        sf = p if self._kind == "sf" else 1.0 - p
        n, d = self._n, self._d
        z = float(sp.ndtri(0.5 + level / 2.0))
        with np.errstate(divide="ignore", invalid="ignore"):
            greenwood = np.cumsum(d / (n * (n - d)))
            if method == "linear":
                spread = z * np.sqrt(sf ** 2 * greenwood)
                low, high = p - spread, p + spread
            else:
                spread = z * np.sqrt(greenwood / np.log(sf) ** 2)
                middle = np.log(-np.log(sf))
                low, high = np.exp(-np.exp(middle + spread)), np.exp(-np.exp(middle - spread))
                if self._kind == "cdf":
                    low, high = 1.0 - high, 1.0 - low
        if np.any(np.isnan(low) | np.isnan(high)):
            warnings.warn("ecdf: the confidence interval is undefined at some observations (a "
                          "feature of the formula, as in SciPy)", RuntimeWarning, stacklevel=2)
        return ConfidenceInterval(
            *(EmpiricalDistributionFunction(self.quantiles, np.clip(b, 0.0, 1.0), None, None,
                                            self._kind) for b in (low, high)))


@dataclass
class ECDFResult:
    """:func:`ecdf`'s result, as SciPy's: ``cdf`` and ``sf``, each an
    :class:`EmpiricalDistributionFunction`.

    >>> import numpy as np
    >>> ecdf(np.array([3.0, 1.0])).sf.probabilities
    array([0.5, 0. ])
    """
    cdf: EmpiricalDistributionFunction
    sf: EmpiricalDistributionFunction


def _censored_parts(sample):
    """``(observed times, right-censored times)`` of ``sample``: an array (nothing
    censored) or SciPy's ``CensoredData`` (read, not imported: only right censoring)."""
    def real(x):  # (integers as float64, as SciPy's CensoredData keeps them)
        x = asarray(x)
        return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x
    if not hasattr(sample, "num_censored"):
        return real(sample), None
    if sample.num_censored() == 0:
        return real(sample._uncensored), None
    if sample.num_censored() != np.size(sample._right):
        raise NotImplementedError("ecdf: only uncensored and right-censored data are "
                                  "supported (as SciPy's)")
    return real(sample._uncensored), real(sample._right)


def ecdf(sample: Any) -> ECDFResult:
    """The empirical CDF and survival function of a 1-d ``sample`` (an array, or SciPy's
    ``CensoredData`` with right-censored observations: the Kaplan-Meier estimate), as
    ``scipy.stats.ecdf``.  The ``quantiles`` are differentiable in the data; the
    ``probabilities`` are counts (derivative 0).

    >>> import numpy as np, funcgrad as fg
    >>> res = ecdf(np.array([1.0, 2.0, 2.0, 3.0]))
    >>> res.cdf.quantiles, res.cdf.probabilities
    (array([1., 2., 3.]), array([0.25, 0.75, 1.  ]))
    >>> fg.grad(lambda x: ecdf(x).cdf.quantiles[-1])(np.array([1.0, 3.0, 2.0]))
    array([0., 1., 0.])
    """
    observed, censored = _censored_parts(sample)
    if observed.ndim != 1 or (censored is not None and censored.ndim != 1):
        raise ValueError(f"ecdf: the sample must be 1-d, got shape {tuple(observed.shape)}")
    if observed.dtype.kind not in "biuf":
        raise TypeError(f"ecdf: the sample must be real numbers, got {observed.dtype}")
    times = observed if censored is None else fnp.concatenate([observed, censored])
    if times.shape[0] == 0:
        raise ValueError("ecdf: the sample must not be empty")
    values = values_of(times)
    if np.any(np.isnan(values)):
        raise ValueError("ecdf: the sample contains NaN; drop it first (x[~np.isnan(x)])")
    died = np.concatenate([np.ones(observed.shape[0], int),
                           np.zeros(times.shape[0] - observed.shape[0], int)])
    order = np.argsort(values, kind="stable")
    died = died[order]
    sorted_values = values[order]
    first = np.diff(sorted_values, prepend=-np.inf) > 0      # first of each distinct time
    last = np.diff(sorted_values, append=np.inf) > 0         # last of each distinct time
    quantiles = fnp.take(times, order[first])
    at_risk = np.arange(times.shape[0], 0, -1)[first]
    events = np.diff(np.cumsum(died)[last], prepend=0)
    if censored is None:
        cdf = np.cumsum(events) / times.shape[0]
        sf = 1.0 - cdf
    else:
        sf = np.cumprod((at_risk - events) / at_risk)
        cdf = 1.0 - sf
    return ECDFResult(EmpiricalDistributionFunction(quantiles, cdf, at_risk, events, "cdf"),
                      EmpiricalDistributionFunction(quantiles, sf, at_risk, events, "sf"))

"""The one-sample Kolmogorov-Smirnov test of :mod:`funcgrad.scipy.stats` (re-exported
there): ``ks_1samp`` and ``kstest``, with SciPy's signatures and result.

The statistic, the largest gap between the empirical CDF and ``cdf``, is differentiable in
the data and in the parameters ``cdf`` closes over or takes in ``args`` (at the sample
point where the gap is largest); the one-sided p-values (``ksone``'s survival function),
the two-sided exact one (SciPy's default: ``kstwo``'s, SciPy's values, differentiable
once) and the ``'asymp'`` (``kolmogorov``) and ``'approx'`` ones are differentiable too.
The two-sample test ``ks_2samp``: SciPy's statistic and p-value, step functions of the
data (their derivative is 0 wherever it exists); the location of the gap, a data value,
moves with the data.
"""
import math
from collections import namedtuple
from typing import Any, Callable, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import ArrayLike
from . import special as sp
from ._continuous_more import ksone
from ._correlation import _check_alternative
from ._distn import DISTRIBUTIONS
from ._kstwo import kstwo
from ._stats_summary import _prepare

__all__ = ["ks_1samp", "kstest", "ks_2samp"]


class KstestResult(namedtuple("KstestResult", ["statistic", "pvalue"])):
    """The Kolmogorov-Smirnov test's result, as SciPy's: ``statistic, pvalue``, and
    ``.statistic_location`` (the sample value where the gap is largest) and
    ``.statistic_sign`` (+1 where the empirical CDF is above ``cdf`` there, -1 below).

    >>> import numpy as np
    >>> from funcgrad.scipy.stats import norm
    >>> res = ks_1samp(np.array([-1.0, 0.1, 0.5, 2.0]), norm.cdf, method="asymp")
    >>> float(res.statistic_location), int(res.statistic_sign)
    (0.1, -1)
    """

    statistic_location: Any
    statistic_sign: Any

    def __new__(cls, statistic: Any, pvalue: Any, statistic_location: Any = None,
                statistic_sign: Any = None) -> "KstestResult":
        self = super().__new__(cls, statistic, pvalue)
        self.statistic_location, self.statistic_sign = statistic_location, statistic_sign
        return self


def _gap(cdfvals, x, sign):
    """``(the largest gap D+ (sign +1) or D- (-1), the sample value where it is)``."""
    n = cdfvals.shape[-1]
    dtype = cdfvals.dtype if cdfvals.dtype.kind == "f" else np.float64  # (float32 stays)
    steps = (np.arange(1.0, n + 1) / n if sign > 0 else np.arange(0.0, n) / n).astype(dtype)
    gaps = (steps - cdfvals) if sign > 0 else (cdfvals - steps)
    where = fnp.argmax(gaps, axis=-1, keepdims=True)
    return (fnp.take_along_axis(gaps, where, axis=-1)[..., 0],
            fnp.take_along_axis(x, where, axis=-1)[..., 0])


def ks_1samp(x: ArrayLike, cdf: Callable[..., Any], args: Sequence[Any] = (),
             alternative: str = "two-sided", method: str = "auto", *, axis: int = 0,
             nan_policy: str = "propagate", keepdims: bool = False) -> KstestResult:
    """The one-sample Kolmogorov-Smirnov test of the sample ``x`` (along ``axis``) against
    the continuous distribution function ``cdf(x, *args)`` (a funcgrad one, such as
    ``norm.cdf``, for derivatives), as ``scipy.stats.ks_1samp``.  One-sided
    (``alternative='greater'``/``'less'``): the exact p-value (``ksone``).  Two-sided:
    ``method='exact'`` (the default ``'auto'``: ``kstwo``'s survival function, SciPy's
    values, differentiable once; not under ``jit``/``vmap``), ``'asymp'`` (Kolmogorov's
    limit distribution) or ``'approx'`` (twice the one-sided).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.stats import norm
    >>> x = np.array([-1.0, 0.1, 0.5, 2.0])
    >>> res = ks_1samp(x, norm.cdf, alternative="greater")
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.091344746069, 0.881267541944)
    >>> g = fg.grad(lambda m: ks_1samp(x, lambda v: norm.cdf(v, loc=m),
    ...                                alternative="greater").statistic)(0.0)
    """
    _check_alternative("ks_1samp", alternative)
    if method not in ("auto", "exact", "asymp", "approx"):
        raise ValueError(f"ks_1samp: method must be 'auto', 'exact', 'asymp' or 'approx', "
                         f"got {method!r}")
    ndim = np.ndim(x)
    x, ax = _prepare("ks_1samp", x, axis, nan_policy)
    x = fnp.sort(fnp.moveaxis(x if x.ndim else fnp.reshape(x, (1,)), ax, -1), axis=-1)
    n = x.shape[-1]
    cdfvals = asarray(cdf(x, *args))
    if alternative == "two-sided":
        d_plus, at_plus = _gap(cdfvals, x, +1)
        d_minus, at_minus = _gap(cdfvals, x, -1)
        plus = d_plus > d_minus
        d = fnp.where(plus, d_plus, d_minus)
        location, sign = fnp.where(plus, at_plus, at_minus), fnp.where(plus, 1, -1)
        if method in ("auto", "exact"):
            p = kstwo.sf(d, n)
        elif method == "asymp":
            p = sp.kolmogorov(d * math.sqrt(n))
        else:
            p = 2.0 * ksone.sf(d, n)
        p = fnp.clip(p, 0.0, 1.0)
    else:
        d, location = _gap(cdfvals, x, 1 if alternative == "greater" else -1)
        sign = fnp.full(d.shape, 1 if alternative == "greater" else -1, dtype=np.int8)
        p = ksone.sf(d, n)
    outs = [d, fnp.astype(p, d.dtype), location, fnp.astype(sign, np.int8)]
    if keepdims:
        outs = [fnp.reshape(v, (1,) * ndim) if axis is None else fnp.expand_dims(v, ax)
                for v in outs]
    return KstestResult(*outs)


def kstest(rvs: ArrayLike, cdf: Union[str, Callable[..., Any]], args: Sequence[Any] = (),
           N: int = 20, alternative: str = "two-sided", method: str = "auto", *,
           axis: int = 0, nan_policy: str = "propagate",
           keepdims: bool = False) -> KstestResult:
    """The Kolmogorov-Smirnov test of the sample ``rvs`` against ``cdf``: a function, or
    the name of a distribution of :mod:`funcgrad.scipy.stats` (its ``cdf``, with ``args``
    its parameters), as ``scipy.stats.kstest`` in its one-sample form: see
    :func:`ks_1samp` for the methods.  SciPy's other forms (``rvs`` a name to draw ``N``
    samples from, ``cdf`` a second sample) are not available.

    >>> import numpy as np
    >>> res = kstest(np.array([0.2, 0.9, 1.3, 2.4]), "expon", method="asymp")
    >>> round(float(res.statistic), 12)
    0.343430340259
    """
    if isinstance(rvs, str):
        raise NotImplementedError("kstest: rvs must be the sample (an array); drawing N "
                                  "random values from a named distribution is not available")
    if isinstance(cdf, str):
        distribution = DISTRIBUTIONS.get(cdf)
        if distribution is None:
            raise ValueError(f"kstest: cdf={cdf!r} names no distribution of "
                             f"funcgrad.scipy.stats; pass a function or a distribution's name")
        return ks_1samp(rvs, distribution.cdf, args, alternative, method, axis=axis,
                        nan_policy=nan_policy, keepdims=keepdims)
    if not callable(cdf):  # (a second sample: the two-sample test, as SciPy's)
        return ks_2samp(rvs, cdf, alternative, method, axis=axis, nan_policy=nan_policy,
                        keepdims=keepdims)
    return ks_1samp(rvs, cdf, args, alternative, method, axis=axis, nan_policy=nan_policy,
                    keepdims=keepdims)


def ks_2samp(data1: ArrayLike, data2: ArrayLike, alternative: str = "two-sided",
             method: str = "auto", *, axis: int = 0, nan_policy: str = "propagate",
             keepdims: bool = False) -> KstestResult:
    """The two-sample Kolmogorov-Smirnov test of 1-d samples ``data1`` and ``data2``, as
    ``scipy.stats.ks_2samp`` (whose statistic and p-value these are: SciPy imported on
    the first call; concrete values only).  Both are step functions of the data, so
    their derivative is 0 wherever it exists; ``statistic_location``, the data value
    where the gap is, carries that value's derivative.

    >>> import numpy as np
    >>> res = ks_2samp(np.array([0.1, 0.4, 0.7]), np.array([0.5, 0.8, 0.9, 1.2]))
    >>> float(res.statistic), float(res.statistic_location)
    (0.75, 0.7)
    """
    _check_alternative("ks_2samp", alternative)
    if method not in ("auto", "exact", "asymp"):
        raise ValueError(f"ks_2samp: method must be 'auto', 'exact' or 'asymp', got "
                         f"{method!r}")
    if nan_policy != "propagate" or keepdims:
        raise NotImplementedError("ks_2samp: nan_policy other than 'propagate' and "
                                  "keepdims=True are not available")
    x1, x2 = asarray(data1), asarray(data2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise NotImplementedError("ks_2samp: only 1-d samples are available here; loop (or "
                                  "call SciPy) over the others")
    what, fix = "ks_2samp (a step function of the data)", "call it outside jit and vmap"
    c1 = np.sort(concrete_values(x1, what, fix))
    c2 = np.sort(concrete_values(x2, what, fix))
    from scipy import stats
    res = stats.ks_2samp(c1, c2, alternative=alternative, method=method)
    # the gap's place as SciPy finds it, taken from the sorted traced samples
    both = np.concatenate([c1, c2])
    diffs = (np.searchsorted(c1, both, side="right") / c1.shape[0]
             - np.searchsorted(c2, both, side="right") / c2.shape[0])
    index = int(np.argmin(diffs) if res.statistic_sign < 0 else np.argmax(diffs))
    location = fnp.concatenate([fnp.sort(x1), fnp.sort(x2)])[index]
    return KstestResult(np.float64(res.statistic), res.pvalue, location,
                        np.int8(res.statistic_sign))

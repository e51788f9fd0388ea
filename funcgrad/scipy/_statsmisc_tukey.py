"""Tukey's honestly significant difference test of :mod:`funcgrad.scipy.stats`
(re-exported there): ``tukey_hsd``, with SciPy's signature and result object.

The statistic (the differences of the sample means) and the standard errors are written
in funcgrad, so they and the confidence intervals are differentiable in the data.  The
p-values are SciPy's survival function of the studentized range on the values, whose
derivative in the range is minus SciPy's density there (once: the density's own
derivative is not available, so a second derivative raises).  Its derivative in the
degrees of freedom is not available either: with ``equal_var=False`` (Welch's degrees of
freedom, a function of the data) reading ``pvalue`` or ``confidence_interval()`` of traced
data raises and names the fix; with ``equal_var=True`` they are a count, and everything is
differentiable.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..custom import custom_jvp
from ..numpy._convert import asarray, concrete_values
from ._correlation import ConfidenceInterval

__all__ = ["tukey_hsd"]

_FIX = "call it outside vmap/jit (SciPy's studentized range needs values)"


def _scipy_range(method, x, k, df):
    from scipy import stats
    what = f"tukey_hsd (SciPy's studentized_range.{method})"
    xc = concrete_values(x, what, _FIX)
    dfc = concrete_values(df, what, _FIX)
    dtype = xc.dtype if xc.dtype.kind == "f" else np.float64
    return np.asarray(getattr(stats.studentized_range, method)(xc, k, dfc), dtype)


def _range_density_value(q, k, df):
    return _scipy_range("pdf", q, k, df)


_range_density = custom_jvp(_range_density_value, nondiff_argnums=(1, 2))


@_range_density.defjvp
def _range_density_jvp(k, df, primals, tangents):
    raise NotImplementedError(
        "tukey_hsd: the derivative of the studentized range's density (a second derivative "
        "of the p-value) is not available; differentiate the p-value once")


def _range_sf_value(q, k, df):
    return _scipy_range("sf", q, k, df)


_range_sf = custom_jvp(_range_sf_value, nondiff_argnums=(1, 2))


@_range_sf.defjvp
def _range_sf_jvp(k, df, primals, tangents):
    (q,), (dq,) = primals, tangents
    return _range_sf(q, k, df), -_range_density(q, k, df) * dq


class TukeyHSDResult:
    """:func:`tukey_hsd`'s result, as SciPy's: ``.statistic`` (the matrix of mean
    differences, row minus column), ``.pvalue`` and ``.confidence_interval()``.

    >>> import numpy as np
    >>> res = tukey_hsd(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 5.0]))
    >>> res.statistic
    array([[ 0.        , -1.66666667],
           [ 1.66666667,  0.        ]])
    """

    def __init__(self, statistic: Any, ntreatments: int, df: Any, stand_err: Any,
                 welch_traced: bool) -> None:
        self.statistic = statistic
        self._ntreatments, self._df, self._stand_err = ntreatments, df, stand_err
        self._welch_traced = welch_traced
        self._pvalue: Any = None
        self._ci: Any = None
        self._ci_cl: Any = None

    def _refuse(self, what):
        if self._welch_traced:
            raise TypeError(
                f"tukey_hsd: no derivative of {what} with equal_var=False: Welch's degrees "
                f"of freedom depend on the data, and the studentized range's derivative in "
                f"its degrees of freedom is not available; read {what} on plain values, use "
                f"equal_var=True, or differentiate only .statistic")

    @property
    def pvalue(self) -> Any:
        """The p-value of each comparison: the studentized range's survival function at
        ``|statistic| / standard error`` (SciPy's values; differentiable in the data
        with ``equal_var=True``)."""
        if self._pvalue is None:
            self._refuse("pvalue")
            t = fnp.abs(self.statistic) / self._stand_err
            self._pvalue = _range_sf(t, self._ntreatments, self._df)
        return self._pvalue

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The simultaneous confidence intervals of the mean differences at
        ``confidence_level``: ``statistic +- q * standard error``, ``q`` the studentized
        range's quantile (SciPy's), as SciPy's.

        >>> import numpy as np
        >>> res = tukey_hsd(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 5.0]))
        >>> low, high = res.confidence_interval()
        >>> bool(low[0, 1] < res.statistic[0, 1] < high[0, 1])
        True
        """
        if self._ci is not None and confidence_level == self._ci_cl:
            return self._ci
        if not 0 < confidence_level < 1:
            raise ValueError(f"tukey_hsd: confidence_level must be between 0 and 1, got "
                             f"{confidence_level}")
        self._refuse("confidence_interval()")
        # (one quantile per distinct degrees of freedom: each costs SciPy an integration)
        df = concrete_values(self._df, "tukey_hsd (SciPy's studentized_range.ppf)", _FIX)
        distinct, where = np.unique(df, return_inverse=True)
        critical = _scipy_range("ppf", np.float64(confidence_level), self._ntreatments,
                                distinct)[where.reshape(np.shape(df))]
        radius = critical.astype(np.result_type(self.statistic)) * self._stand_err
        self._ci = ConfidenceInterval(low=self.statistic - radius,
                                      high=self.statistic + radius)
        self._ci_cl = confidence_level
        return self._ci

    def __str__(self) -> str:
        if self._ci is None:
            self.confidence_interval(0.95)
        statistic, pvalue = np.asarray(self.statistic), np.asarray(self.pvalue)
        low, high = np.asarray(self._ci.low), np.asarray(self._ci.high)
        lines = [f"Pairwise Group Comparisons ({self._ci_cl * 100:.1f}% Confidence Interval)",
                 "Comparison  Statistic  p-value  Lower CI  Upper CI"]
        for i, j in np.ndindex(pvalue.shape):
            if i != j:
                lines.append(f" ({i} - {j}) {statistic[i, j]:>10.3f}{pvalue[i, j]:>10.3f}"
                             f"{low[i, j]:>10.3f}{high[i, j]:>10.3f}")
        return "\n".join(lines) + "\n"


def tukey_hsd(*args: Any, equal_var: bool = True) -> TukeyHSDResult:
    """Tukey's honestly significant difference test of every pair of the samples
    ``args`` (one-dimensional, two values or more each), as ``scipy.stats.tukey_hsd``:
    the mean differences, their p-values by the studentized range, and simultaneous
    confidence intervals; ``equal_var=False`` is the Games-Howell test (Welch's standard
    errors and degrees of freedom).  The statistic and intervals are differentiable in the
    data, and so are the p-values with ``equal_var=True`` (see the module's notes).

    >>> import numpy as np, funcgrad as fg
    >>> a, b, c = np.array([24.5, 23.5, 26.4]), np.array([23.5, 26.4, 27.1]), np.array([
    ...     26.4, 27.1, 29.9, 30.2])
    >>> res = tukey_hsd(a, b, c)
    >>> np.round(res.pvalue[0], 6)
    array([1.      , 0.830705, 0.07901 ])
    >>> g = fg.grad(lambda x: tukey_hsd(x, b, c).pvalue[0, 2])(a)
    """
    if len(args) < 2:
        raise ValueError("tukey_hsd: at least two samples (treatments) are required")
    if not isinstance(equal_var, bool):
        raise TypeError(f"tukey_hsd: equal_var must be True or False, got {equal_var!r}")
    samples = []
    for i, arg in enumerate(args):
        a = asarray(arg)
        if a.dtype.kind in "biu":
            a = fnp.astype(a, np.float64)
        elif a.dtype.kind != "f":
            raise TypeError(f"tukey_hsd: sample {i} must hold real numbers, got dtype "
                            f"{a.dtype}")
        if a.ndim != 1:
            raise ValueError(f"tukey_hsd: each sample must be one-dimensional; sample {i} "
                             f"has shape {tuple(a.shape)}")
        if a.shape[0] <= 1:
            raise ValueError(f"tukey_hsd: each sample needs at least two values; sample {i} "
                             f"has {a.shape[0]}")
        if not isinstance(a, Tracer) and np.isinf(np.asarray(a)).any():
            raise ValueError(f"tukey_hsd: sample {i} holds an infinite value; the samples "
                             f"must be finite")
        samples.append(a)
    dtype = np.result_type(*[a.dtype for a in samples])
    samples = [fnp.astype(a, dtype) if a.dtype != dtype else a for a in samples]
    k = len(samples)
    sizes = np.array([a.shape[0] for a in samples], dtype=np.float64)
    means = fnp.stack([fnp.mean(a) for a in samples])
    variances = fnp.stack([fnp.var(a, ddof=1) for a in samples])
    if equal_var:
        total = float(sizes.sum())
        mse = fnp.sum(variances * (sizes - 1.0).astype(dtype)) / (total - k)
        normalize = (1.0 / sizes + 1.0 / sizes[:, None]).astype(dtype)
        stand_err = fnp.sqrt(normalize * mse / 2.0)
        df: Any = np.float64(total - k)
    else:
        per_mean = variances / sizes.astype(dtype)
        row, col = per_mean[:, None], per_mean[None, :]
        stand_err = fnp.sqrt((row + col) / 2.0)
        dof = (sizes - 1.0).astype(dtype)
        df = fnp.square(row + col) / (fnp.square(row) / dof[:, None]
                                      + fnp.square(col) / dof[None, :])
    statistic = means[:, None] - means[None, :]
    welch_traced = not equal_var and any(isinstance(a, Tracer) for a in samples)
    return TukeyHSDResult(statistic, k, df, stand_err, welch_traced)

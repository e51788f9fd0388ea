"""``goodness_of_fit`` of :mod:`funcgrad.scipy.stats` (re-exported there): SciPy's
Monte Carlo goodness-of-fit test (its signature, fits and draws: the same ``rng`` gives
SciPy's null distribution and p-value), with the observed statistic differentiable in the
data.

The statistic (``'ad'``, ``'ks'``, ``'cvm'`` or ``'filliben'``) is recomputed with
funcgrad's distribution of the same name at SciPy's fitted parameters, whose derivative in
the data comes from SciPy's closed form for the normal family (the mean and the ddof=1
standard deviation) and otherwise from the implicit function theorem at SciPy's
maximum-likelihood fit (:func:`._statsresample_fit.fitted`), where SciPy's fit solved the
likelihood equations to 1e-6 (else it raises: ``rv_continuous.fit``'s ``fmin`` stops
near 1e-4); known parameters are constants.  The p-value
counts null values (its derivative is 0) and the null distribution is of samples drawn
from the fit, not of the data.
"""
from collections import namedtuple
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray
from ._statsresample_fit import FitResult, _distributions, fitted
from ._statsresample_quantile import values_of

__all__ = ["goodness_of_fit"]

GoodnessOfFitResult = namedtuple("GoodnessOfFitResult", ["fit_result", "statistic",
                                                         "pvalue", "null_distribution"])
GoodnessOfFitResult.__doc__ = """:func:`goodness_of_fit`'s result, as SciPy's."""


def _anderson_darling(cdf_of, x, n):
    logcdf, logsf = cdf_of("logcdf", x), cdf_of("logsf", x[::-1])
    i = np.arange(1.0, n + 1.0)
    return -n - fnp.sum((2.0 * i - 1.0) / n * (logcdf + logsf))


def _kolmogorov_smirnov(cdf_of, x, n):
    cdf = cdf_of("cdf", x)
    return fnp.maximum(fnp.max(np.arange(1.0, n + 1.0) / n - cdf),
                       fnp.max(cdf - np.arange(0.0, n) / n))


def _cramer_von_mises(cdf_of, x, n):
    u = (2.0 * np.arange(1.0, n + 1.0) - 1.0) / (2.0 * n)
    return 1.0 / (12.0 * n) + fnp.sum((u - cdf_of("cdf", x)) ** 2)


def _filliben(cdf_of, x, n):
    from scipy import stats  # (the medians of the uniform order statistics: constants)
    k = np.arange(1, n + 1)
    m = cdf_of("ppf", stats.beta(k, n + 1 - k).median())
    xc, mc = x - fnp.mean(x), m - fnp.mean(m)
    return fnp.sum(xc * mc) / fnp.sqrt(fnp.sum(xc ** 2) * fnp.sum(mc ** 2))


_STATISTICS = {"ad": _anderson_darling, "ks": _kolmogorov_smirnov, "cvm": _cramer_von_mises,
               "filliben": _filliben}


def goodness_of_fit(dist: Any, data: Any, *, known_params: Optional[dict] = None,
                    fit_params: Optional[dict] = None, guessed_params: Optional[dict] = None,
                    statistic: Union[str, Callable] = "ad", n_mc_samples: int = 9999,
                    rng: Any = None,
                    random_state: Any = None) -> GoodnessOfFitResult:
    """A Monte Carlo test of whether ``data`` comes from the family ``dist`` (its unknown
    parameters fitted), as ``scipy.stats.goodness_of_fit``, run by SciPy on the values
    (the same ``rng`` seed gives SciPy's null distribution and p-value).  The observed
    ``statistic`` (Anderson-Darling ``'ad'``, Kolmogorov-Smirnov ``'ks'``, Cramér-von
    Mises ``'cvm'`` or Filliben's ``'filliben'``) and the fitted parameters are
    differentiable in ``data``; a callable statistic gives SciPy's values only.
    ``random_state`` is SciPy's legacy keyword beside ``rng`` (give one): an int seeds a
    ``numpy.random.RandomState``, as SciPy 1.17 does.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.stats import norm
    >>> x = np.array([-1.2, -0.4, 0.1, 0.3, 0.9, 2.2])
    >>> res = goodness_of_fit(norm, x, n_mc_samples=19, rng=0)
    >>> round(float(res.statistic), 10), res.null_distribution.shape
    (0.1820129113, (19,))
    >>> g = fg.grad(lambda x: goodness_of_fit(norm, x, n_mc_samples=19, rng=0).statistic)(x)
    """
    # (SciPy's own check of the pair: rng=None passed beside random_state would count)
    seeds = ({"rng": rng} if random_state is None or rng is not None else {})
    if random_state is not None:
        seeds["random_state"] = random_state
    import scipy.stats
    ours, theirs = _distributions(dist)
    data = asarray(data)
    if data.ndim != 1:
        raise ValueError(f"goodness_of_fit: data must be 1-d, got shape {tuple(data.shape)}")
    result = scipy.stats.goodness_of_fit(
        theirs, values_of(data).astype(float), known_params=known_params,
        fit_params=fit_params, guessed_params=guessed_params, statistic=statistic,
        n_mc_samples=n_mc_samples, **seeds)
    best = np.asarray(result.fit_result.params, float)
    traced = isinstance(data, Tracer)  # (a flag: no narrowing of data's type)
    if not traced:
        return GoodnessOfFitResult(FitResult(ours, data, result.fit_result, tuple(best)),
                                   result.statistic, result.pvalue, result.null_distribution)
    if callable(statistic):
        raise NotImplementedError("goodness_of_fit: a callable statistic gets SciPy's "
                                  "distribution and values, with no derivative; use 'ad', "
                                  "'ks', 'cvm' or 'filliben', or pass fg.stop_gradient(data)")
    names = list(ours.shapes) + ["loc", "scale"]
    known = set(known_params or ()) | set(fit_params or ())
    free = np.array([name not in known for name in names])
    if ours.name == "norm" and np.any(free):
        # (SciPy's closed-form fit of the normal family: the mean and the ddof=1
        # standard deviation, not the likelihood's ddof=0 one)
        loc = fnp.mean(data) if free[0] else best[0]
        scale = (fnp.std(data, ddof=1) if free[0] else fnp.sqrt(fnp.mean((data - loc) ** 2))
                 ) if free[1] else best[1]
        params = (loc, scale)
    else:
        params = fitted(ours, False, best, free, np.zeros(len(best), bool), data)
    shapes, loc, scale = params[:-2], params[-2], params[-1]

    def cdf_of(method, points):
        return getattr(ours, method)(points, *shapes, loc=loc, scale=scale)
    x = fnp.sort(data)
    observed = _STATISTICS[str(statistic).lower()](cdf_of, x, x.shape[0])
    return GoodnessOfFitResult(FitResult(ours, data, result.fit_result, params), observed,
                               result.pvalue, result.null_distribution)

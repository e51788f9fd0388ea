"""Tests of counts, exact tests and resampling tests of :mod:`funcgrad.scipy.stats`
(re-exported there): ``binomtest``, ``fisher_exact``, ``barnard_exact``,
``boschloo_exact``, ``poisson_means_test``, ``quantile_test``, ``anderson_ksamp``,
``logrank``, ``dunnett`` and ``multiscale_graphcorr``, with SciPy's signatures and result
objects: the values are SciPy's, computed by ``scipy.stats`` (loaded on the first call).

Two kinds of argument:

* data whose ranks alone decide the result (``anderson_ksamp``'s samples, ``logrank``'s
  times, ``quantile_test``'s ``q``): a step function, whose derivative is zero almost
  everywhere; traced data under ``grad`` is read by value and the gradient through the
  result is zero, on purpose;
* everything else (counts, tables, probabilities, the data of ``dunnett`` and
  ``multiscale_graphcorr``, whose statistics move smoothly with it while their p-values
  come from enumeration, integration or permutations): funcgrad gives no derivative, so a
  traced value raises a ``TypeError`` that names the argument, rather than a silent zero.
"""
from typing import Any, Optional

import numpy as np

from ..core import Tracer
from ._statshyp_ranks import _plain

__all__ = ["binomtest", "fisher_exact", "barnard_exact", "boschloo_exact",
           "poisson_means_test", "quantile_test", "anderson_ksamp", "logrank", "dunnett",
           "multiscale_graphcorr"]


def _traced(x):
    if isinstance(x, Tracer):
        return True
    if isinstance(x, (list, tuple)):
        return any(_traced(e) for e in x)
    return False


def _untraced(name, why, **arguments):
    """Raise if an argument carries a derivative that funcgrad cannot give."""
    for arg, value in arguments.items():
        if _traced(value):
            raise TypeError(
                f"{name}: no derivative in {arg} ({why}); call {name} outside the "
                f"differentiated function, on plain values, or pass "
                f"fg.stop_gradient({arg}) where a zero derivative is meant")


def _scipy(name, *args, **kwargs):
    from scipy import stats
    return getattr(stats, name)(*args, **kwargs)


_COUNTS = "its p-value is a sum over integer outcomes, defined only at whole counts"


def binomtest(k: Any, n: Optional[Any] = None, p: float = 0.5,
              alternative: str = "two-sided") -> Any:
    """The exact test that ``k`` successes in ``n`` Bernoulli trials come from success
    probability ``p``, as ``scipy.stats.binomtest``: the result holds ``.statistic``
    (``k / n``), ``.pvalue`` and ``.proportion_ci()``.  The p-value is a sum of
    binomial probabilities over whole counts: no derivative (a traced argument raises).

    >>> res = binomtest(3, 15, 0.1)
    >>> float(res.statistic), round(float(res.pvalue), 12)
    (0.2, 0.184061069106)
    """
    _untraced("binomtest", _COUNTS, k=k, n=n, p=p)
    return _scipy("binomtest", k, n, p, alternative)


def fisher_exact(table: Any, alternative: Optional[str] = None, *,
                 method: Any = None) -> Any:
    """Fisher's exact test of independence in a contingency ``table`` of counts (2 x 2:
    the sample odds ratio and the hypergeometric p-value; larger tables with ``method``),
    as ``scipy.stats.fisher_exact``.  Counts: no derivative (a traced table raises).

    >>> res = fisher_exact([[6, 2], [1, 4]])
    >>> float(res.statistic), round(float(res.pvalue), 12)
    (12.0, 0.102564102564)
    """
    _untraced("fisher_exact", _COUNTS, table=table)
    return _scipy("fisher_exact", table, alternative, method=method)


def barnard_exact(table: Any, alternative: str = "two-sided", pooled: bool = True,
                  n: int = 32) -> Any:
    """Barnard's exact test of a 2 x 2 ``table`` of counts (the nuisance probability
    maximized over ``n`` points), as ``scipy.stats.barnard_exact``.  Counts: no
    derivative (a traced table raises).

    >>> res = barnard_exact([[7, 12], [8, 3]])
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 6)
    (-1.89433807606, 0.068153)
    """
    _untraced("barnard_exact", _COUNTS, table=table)
    return _scipy("barnard_exact", table, alternative, pooled, n)


def boschloo_exact(table: Any, alternative: str = "two-sided", n: int = 32) -> Any:
    """Boschloo's exact test of a 2 x 2 ``table`` of counts (Fisher's p-value as the
    statistic, the nuisance probability maximized over ``n`` points), as
    ``scipy.stats.boschloo_exact``.  Counts: no derivative (a traced table raises).

    >>> res = boschloo_exact([[7, 12], [8, 3]])
    >>> round(float(res.pvalue), 6)
    0.068218
    """
    _untraced("boschloo_exact", _COUNTS, table=table)
    return _scipy("boschloo_exact", table, alternative, n)


def poisson_means_test(k1: Any, n1: Any, k2: Any, n2: Any, *, diff: float = 0,
                       alternative: str = "two-sided") -> Any:
    """The E-test of two Poisson rates from the counts ``k1``, ``k2`` in the exposures
    ``n1``, ``n2`` (difference ``diff`` under the null), as
    ``scipy.stats.poisson_means_test``.  Its p-value sums over counts: no derivative (a
    traced argument raises).

    >>> res = poisson_means_test(0, 100, 3, 100)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (-1.732050807569, 0.088379009455)
    """
    _untraced("poisson_means_test", _COUNTS, k1=k1, n1=n1, k2=k2, n2=n2, diff=diff)
    return _scipy("poisson_means_test", k1, n1, k2, n2, diff=diff, alternative=alternative)


def quantile_test(x: Any, *, q: Any = 0, p: float = 0.5,
                  alternative: str = "two-sided") -> Any:
    """The test that ``q`` is the ``p``-th quantile of ``x``'s population (the count of
    values at or below ``q``, against the binomial distribution), as
    ``scipy.stats.quantile_test``; its result's ``.confidence_interval()`` holds order
    statistics of ``x``.  The statistic and p-value are step functions of ``x`` and
    ``q``; a traced ``q`` is read by value (zero derivative), but ``x`` and ``p`` raise
    (the interval moves with ``x``, the p-value with ``p``).

    >>> import numpy as np
    >>> res = quantile_test(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]), q=2.5)
    >>> int(res.statistic), round(float(res.pvalue), 12)
    (2, 0.453125)
    """
    _untraced("quantile_test", "its confidence interval moves with x and its p-value "
              "with p; funcgrad gives neither derivative", x=x, p=p)
    return _scipy("quantile_test", x, q=_plain(q, "quantile_test"), p=p,
                  alternative=alternative)


def anderson_ksamp(samples: Any, midrank: Any = None, *, variant: Any = None,
                   method: Any = None) -> Any:
    """The k-sample Anderson-Darling test that the ``samples`` come from one distribution
    (``variant`` 'midrank', 'right' or 'continuous'; SciPy's ``midrank`` is deprecated in
    its favour: leaving both out warns as SciPy does), p-value interpolated in SciPy's
    table or by ``method`` (a permutation test), as ``scipy.stats.anderson_ksamp``.  A
    function of ranks: its derivative in the data is zero almost everywhere.

    >>> import numpy as np
    >>> res = anderson_ksamp([np.array([1.0, 2.0, 4.0, 7.0]),
    ...                       np.array([2.5, 3.0, 3.5, 4.5, 5.0])], variant="midrank")
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 6)
    (-0.241799881236, 0.25)
    """
    kwargs = {"method": method}
    if midrank is not None:  # (SciPy's deprecation warning, from SciPy, only if asked)
        kwargs["midrank"] = midrank
    if variant is not None:
        kwargs["variant"] = variant
    return _scipy("anderson_ksamp", _plain(list(samples), "anderson_ksamp"), **kwargs)


def logrank(x: Any, y: Any, alternative: str = "two-sided") -> Any:
    """The log-rank test that two samples of survival times (arrays, or SciPy's
    ``CensoredData``) come from one survival function, as ``scipy.stats.logrank``.  It
    counts events in the order of the times: its derivative is zero almost everywhere.

    >>> import numpy as np
    >>> res = logrank(np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.5, 3.0, 3.5, 4.5, 5.0]))
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (-0.125657401804, 0.900003122942)
    """
    return _scipy("logrank", _plain(x, "logrank"), _plain(y, "logrank"), alternative)


def dunnett(*samples: Any, control: Any, alternative: str = "two-sided",
            rng: Any = None, random_state: Any = None) -> Any:
    """Dunnett's test comparing the mean of each of ``samples`` with that of ``control``
    (p-values from the multivariate t distribution, integrated by SciPy's randomized
    quasi-Monte Carlo: ``rng`` seeds it), as ``scipy.stats.dunnett``.  Its statistics
    move smoothly with the data but its p-values are random integrals: no derivative (a
    traced sample raises).

    >>> import numpy as np
    >>> res = dunnett(np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.5, 3.0, 3.5, 4.5]),
    ...               control=np.array([0.5, 1.0, 1.5, 0.0]), rng=1)
    >>> np.round(res.statistic, 6)
    array([2.360155, 2.252875])
    """
    _untraced("dunnett", "its p-values are quasi-Monte Carlo integrals", samples=samples,
              control=control)
    kwargs = {"random_state": random_state} if random_state is not None else {"rng": rng}
    return _scipy("dunnett", *samples, control=control, alternative=alternative, **kwargs)


def _euclidean_dist(x):
    """The Euclidean distances between the rows of ``x`` (SciPy's default)."""
    x = np.asarray(x, dtype=np.float64)
    x = x.reshape(x.shape[0], -1)
    return np.sqrt(np.sum(np.square(x[:, None, :] - x[None, :, :]), axis=-1))


def multiscale_graphcorr(x: Any, y: Any, compute_distance: Any = _euclidean_dist,
                         reps: int = 1000, workers: Any = 1, is_twosamp: bool = False,
                         random_state: Any = None) -> Any:
    """Multiscale graph correlation (MGC) of ``x`` and ``y`` with its permutation
    p-value (``reps`` permutations), as ``scipy.stats.multiscale_graphcorr``; the result
    also holds ``.mgc_dict``.  Values only: a traced ``x`` or ``y`` raises.

    >>> import numpy as np
    >>> x = np.arange(10.0)
    >>> res = multiscale_graphcorr(x, np.cos(x), reps=0)
    >>> round(float(res.statistic), 6)
    -0.118759
    """
    _untraced("multiscale_graphcorr", "its local correlations are chosen among "
              "neighbourhoods and its p-value is a permutation test", x=x, y=y)
    return _scipy("multiscale_graphcorr", x, y, compute_distance=compute_distance,
                  reps=reps, workers=workers, is_twosamp=is_twosamp,
                  random_state=random_state)

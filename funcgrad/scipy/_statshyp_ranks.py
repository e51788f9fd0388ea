"""Rank and count tests of :mod:`funcgrad.scipy.stats` (re-exported there): ``fligner``,
``kruskal``, ``friedmanchisquare``, ``brunnermunzel``, ``ansari``, ``mood``,
``median_test``, ``cramervonmises_2samp``, ``page_trend_test``, ``bws_test`` and
``chatterjeexi``, with SciPy's signatures and result objects.

Their statistics are functions of the data's ranks (or of counts of values above a
median): step functions of the data, whose derivative is zero almost everywhere
(undefined at ties), and so are their p-values, exact ones by enumeration included.  The
values are SciPy's own, computed by ``scipy.stats`` (loaded on the first call) from the
data's values: on traced data under ``grad`` too, where the result is a constant, so
gradients through it are zero, on purpose; not under ``vmap``/``jit``, where the values
are not known (a ``ConcretizationError`` says so).  SciPy's ``axis``, ``nan_policy``
(``'omit'`` included) and ``keepdims`` all apply.
"""
from typing import Any, Optional

from ..core import Tracer
from ..numpy._convert import concrete_values

__all__ = ["fligner", "kruskal", "friedmanchisquare", "brunnermunzel", "ansari", "mood",
           "median_test", "cramervonmises_2samp", "page_trend_test", "bws_test",
           "chatterjeexi", "ranksums", "tiecorrect"]

_FIX = "call it outside vmap/jit: its derivative is zero, so nothing is lost by passing values"


def _plain(x, name):
    """``x`` with every traced array replaced by its values (lists and tuples walked)."""
    if isinstance(x, Tracer):
        return concrete_values(x, f"{name} (a step function of the data)", _FIX)
    if isinstance(x, (list, tuple)) and any(isinstance(e, (Tracer, list, tuple)) for e in x):
        return type(x)(_plain(e, name) for e in x)
    return x


def _scipy(name, *args, **kwargs):
    """SciPy's ``scipy.stats.<name>`` on the values of the arguments."""
    from scipy import stats
    return getattr(stats, name)(*[_plain(a, name) for a in args],
                                **{k: _plain(v, name) for k, v in kwargs.items()})


def fligner(*samples: Any, center: str = "median", proportiontocut: float = 0.05,
            axis: Optional[int] = 0, nan_policy: str = "propagate",
            keepdims: bool = False) -> Any:
    """The Fligner-Killeen test of equal variances: normal scores of the ranks of the
    absolute deviations from each sample's ``center``, p-value by chi2 with ``k - 1``
    degrees of freedom, as ``scipy.stats.fligner``.  A function of ranks: its derivative
    in the data is zero almost everywhere (gradients through it are 0).

    >>> import numpy as np
    >>> res = fligner(np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.0, 3.0, 3.5, 4.0, 5.0]))
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (2.304819284214, 0.128973280088)
    """
    return _scipy("fligner", *samples, center=center, proportiontocut=proportiontocut,
                  axis=axis, nan_policy=nan_policy, keepdims=keepdims)


def kruskal(*samples: Any, nan_policy: str = "propagate", axis: Optional[int] = 0,
            keepdims: bool = False) -> Any:
    """The Kruskal-Wallis H test that the samples' populations have one median: the rank
    sums of the samples within all the data (with the tie correction), p-value by chi2
    with ``k - 1`` degrees of freedom, as ``scipy.stats.kruskal``.  A function of ranks:
    its derivative in the data is zero almost everywhere.

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 3.0, 5.0, 7.0, 9.0]), np.array([2.0, 4.0, 6.0, 8.0, 10.0])
    >>> res = kruskal(x, y)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.272727272727, 0.601508134441)
    >>> fg.grad(lambda v: kruskal(v, y).statistic)(x)
    array([0., 0., 0., 0., 0.])
    """
    return _scipy("kruskal", *samples, nan_policy=nan_policy, axis=axis, keepdims=keepdims)


def friedmanchisquare(*samples: Any, axis: Optional[int] = 0, nan_policy: str = "propagate",
                      keepdims: bool = False) -> Any:
    """Friedman's test of repeated measurements (at least three ``samples``, one value per
    subject each): the ranks within each subject, summed per sample, p-value by chi2 with
    ``k - 1`` degrees of freedom, as ``scipy.stats.friedmanchisquare``.  A function of
    ranks: its derivative in the data is zero almost everywhere.

    >>> import numpy as np
    >>> res = friedmanchisquare(np.array([72.0, 96, 88, 92, 74, 76, 82]),
    ...                         np.array([120.0, 95, 94, 95, 85, 79, 90]),
    ...                         np.array([76.0, 95, 86, 94, 72, 78, 87]))
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (6.740740740741, 0.034376902799)
    """
    return _scipy("friedmanchisquare", *samples, axis=axis, nan_policy=nan_policy,
                  keepdims=keepdims)


def brunnermunzel(x: Any, y: Any, alternative: str = "two-sided", distribution: str = "t",
                  nan_policy: str = "propagate", *, axis: Optional[int] = 0,
                  keepdims: bool = False) -> Any:
    """The Brunner-Munzel test that a value of ``x`` is as likely to exceed one of ``y``
    as the reverse (without equal variances), from the ranks, p-value by the t
    (``distribution='t'``) or normal distribution, as ``scipy.stats.brunnermunzel``.  A
    function of ranks: its derivative in the data is zero almost everywhere.

    >>> import numpy as np
    >>> res = brunnermunzel(np.array([1.0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 1, 1]),
    ...                     np.array([3.0, 3, 4, 3, 1, 2, 3, 1, 1, 5, 4]))
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (3.137467482303, 0.005786208666)
    """
    return _scipy("brunnermunzel", x, y, alternative=alternative, distribution=distribution,
                  nan_policy=nan_policy, axis=axis, keepdims=keepdims)


def ansari(x: Any, y: Any, alternative: str = "two-sided", *, axis: Optional[int] = 0,
           nan_policy: str = "propagate", keepdims: bool = False) -> Any:
    """The Ansari-Bradley test of equal scale: the sum of ``x``'s ranks counted from the
    nearer end of all the data, p-value exact (samples under 55 values, no ties: SciPy's
    enumeration) or by the normal approximation, as ``scipy.stats.ansari``.  A function of
    ranks: its derivative in the data is zero almost everywhere.

    >>> import numpy as np
    >>> res = ansari(np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.5, 3.0, 3.5, 4.5, 5.0]))
    >>> float(res.statistic), round(float(res.pvalue), 12)
    (8.0, 0.222222222222)
    """
    return _scipy("ansari", x, y, alternative=alternative, axis=axis, nan_policy=nan_policy,
                  keepdims=keepdims)


def mood(x: Any, y: Any, axis: Optional[int] = 0, alternative: str = "two-sided", *,
         nan_policy: str = "propagate", keepdims: bool = False) -> Any:
    """Mood's test of equal scale: the squared distances of ``x``'s ranks from the mean
    rank, standardized (with Mielke's tie correction), p-value by the normal
    distribution, as ``scipy.stats.mood``.  A function of ranks: its derivative in the
    data is zero almost everywhere.

    >>> import numpy as np
    >>> res = mood(np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.5, 3.0, 3.5, 4.5, 5.0]))
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (1.65772493136, 0.097372999255)
    """
    return _scipy("mood", x, y, axis=axis, alternative=alternative, nan_policy=nan_policy,
                  keepdims=keepdims)


def median_test(*samples: Any, ties: str = "below", correction: bool = True,
                lambda_: Any = 1, nan_policy: str = "propagate") -> Any:
    """Mood's median test: the counts of each sample's values above and below the grand
    median, tested by :func:`chi2_contingency`'s statistic (``lambda_``, Yates's
    ``correction``; ``ties`` 'below', 'above' or 'ignore'), as
    ``scipy.stats.median_test``, whose result also holds ``.median`` and ``.table``.
    Counts: the derivative in the data is zero almost everywhere.

    >>> import numpy as np
    >>> res = median_test(np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.5, 3.0, 3.5, 4.5]))
    >>> float(res.median), res.table.tolist()
    (3.25, [[2, 2], [2, 2]])
    """
    return _scipy("median_test", *samples, ties=ties, correction=correction,
                  lambda_=lambda_, nan_policy=nan_policy)


def cramervonmises_2samp(x: Any, y: Any, method: str = "auto", *, axis: Optional[int] = 0,
                         nan_policy: str = "propagate", keepdims: bool = False) -> Any:
    """The two-sample Cramér-von Mises test that ``x`` and ``y`` come from one continuous
    distribution: the squared gaps of their empirical distribution functions (from the
    ranks), p-value exact (``method='auto'``: both samples at most 20 values) or
    asymptotic, as ``scipy.stats.cramervonmises_2samp``.  A function of ranks: its
    derivative in the data is zero almost everywhere.

    >>> import numpy as np
    >>> res = cramervonmises_2samp(np.array([1.0, 2.0, 4.0, 7.0]),
    ...                            np.array([2.5, 3.0, 3.5, 4.5, 5.0]))
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.125925925926, 0.579365079365)
    """
    return _scipy("cramervonmises_2samp", x, y, method=method, axis=axis,
                  nan_policy=nan_policy, keepdims=keepdims)


def page_trend_test(data: Any, ranked: bool = False, predicted_ranks: Any = None,
                    method: str = "auto") -> Any:
    """Page's test of a trend across treatments (the columns of ``data``, one row per
    subject): the ranks within each row weighted by the ``predicted_ranks``, p-value exact
    or asymptotic (``method``), as ``scipy.stats.page_trend_test``.  A function of ranks:
    its derivative in the data is zero almost everywhere.

    >>> import numpy as np
    >>> res = page_trend_test(np.array([[1.0, 2.0, 3.0], [1.5, 1.0, 4.0], [2.0, 3.0, 5.0]]))
    >>> float(res.statistic), round(float(res.pvalue), 12)
    (41.0, 0.032407407407)
    """
    return _scipy("page_trend_test", data, ranked=ranked, predicted_ranks=predicted_ranks,
                  method=method)


def bws_test(x: Any, y: Any, *, alternative: str = "two-sided", method: Any = None) -> Any:
    """The Baumgartner-Weiss-Schindler test that ``x`` and ``y`` come from one
    distribution, from the ranks, p-value by SciPy's permutation test (``method``: its
    ``PermutationMethod``), as ``scipy.stats.bws_test``.  A function of ranks: its
    derivative in the data is zero almost everywhere.

    >>> import numpy as np
    >>> res = bws_test(np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.5, 3.0, 3.5, 4.5, 5.0]))
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.689289351852, 0.563492063492)
    """
    return _scipy("bws_test", x, y, alternative=alternative, method=method)


def chatterjeexi(x: Any, y: Any, *, axis: Optional[int] = 0, y_continuous: bool = False,
                 method: Any = "asymptotic", nan_policy: str = "propagate",
                 keepdims: bool = False) -> Any:
    """Chatterjee's xi correlation of ``x`` and ``y`` (how far ``y`` is a function of
    ``x``), from the ranks of ``y`` in the order of ``x``, with its asymptotic p-value (or
    a permutation test, ``method``), as ``scipy.stats.chatterjeexi``.  A function of
    ranks: its derivative in the data is zero almost everywhere.

    >>> import numpy as np
    >>> x = np.linspace(-1.0, 1.0, 8)
    >>> res = chatterjeexi(x, x ** 2)
    >>> round(float(res.statistic), 12)
    0.370786516854
    """
    return _scipy("chatterjeexi", x, y, axis=axis, y_continuous=y_continuous, method=method,
                  nan_policy=nan_policy, keepdims=keepdims)


def ranksums(x: Any, y: Any, alternative: str = "two-sided", *, axis: Optional[int] = 0,
             nan_policy: str = "propagate", keepdims: bool = False) -> Any:
    """The Wilcoxon rank-sum test that two samples come from one distribution: the rank
    sum of ``x`` within both, normalized, p-value by the normal distribution, as
    ``scipy.stats.ranksums``.  A function of ranks: its derivative in the data is zero
    almost everywhere.

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 3.0, 5.0, 7.0]), np.array([2.0, 4.0, 6.0, 8.0, 10.0])
    >>> round(float(ranksums(x, y).statistic), 12)
    -0.979795897113
    >>> fg.grad(lambda v: ranksums(v, y).statistic)(x)
    array([0., 0., 0., 0.])
    """
    return _scipy("ranksums", x, y, alternative=alternative, axis=axis,
                  nan_policy=nan_policy, keepdims=keepdims)


def tiecorrect(rankvals: Any) -> Any:
    """The tie correction factor of the Mann-Whitney U and Kruskal-Wallis H tests,
    ``1 - sum(t**3 - t) / (n**3 - n)`` over the groups of ``t`` tied ranks, as
    ``scipy.stats.tiecorrect``: a function of which ranks tie, constant in the data.

    >>> import numpy as np
    >>> float(tiecorrect(np.array([1.0, 2.5, 2.5, 4.0])))
    0.9
    """
    return _scipy("tiecorrect", rankvals)

"""``funcgrad.scipy.stats.contingency``: SciPy's contingency-table functions.

``margins``, ``expected_freq`` and ``chi2_contingency`` are written in funcgrad
operations: differentiable in the observed frequencies (Yates's correction, where it
applies, moves each cell by at most 1/2 towards its expected value: piecewise smooth),
with float32 kept.  ``crosstab`` counts, and ``association``, ``relative_risk`` and
``odds_ratio`` take integer counts, as SciPy's: their values are SciPy's (loaded on the
first call); ``crosstab``'s counts are a step function of the data (read by value, zero
derivative).  ``chi2_contingency`` is also :func:`funcgrad.scipy.stats.chi2_contingency`.

>>> import numpy as np, funcgrad as fg
>>> from funcgrad.scipy.stats import contingency
>>> table = np.array([[10.0, 10.0, 20.0], [20.0, 20.0, 20.0]])
>>> contingency.expected_freq(table)
array([[12., 12., 16.],
       [18., 18., 24.]])
>>> g = fg.grad(lambda t: contingency.chi2_contingency(t).pvalue)(table)
"""
from collections import namedtuple
from functools import reduce
from typing import Any, List, Optional

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete
from ...typing import Array, ArrayLike
from .._statshyp_counts import _scipy, _untraced
from .._statshyp_ranks import _plain
from .._statstests_tests import power_divergence

# (the public module: funcgrad.scipy.stats is a module, not a package, so this one is
# registered under its public name, which its functions carry too)

__all__ = ["margins", "expected_freq", "chi2_contingency", "crosstab", "association",
           "relative_risk", "odds_ratio"]


class Chi2ContingencyResult(namedtuple("Chi2ContingencyResult",
                                       ["statistic", "pvalue", "dof", "expected_freq"])):
    """:func:`chi2_contingency`'s result, as SciPy's: ``statistic, pvalue, dof,
    expected_freq = result``, or by name.

    >>> import numpy as np
    >>> res = chi2_contingency(np.array([[10.0, 20.0], [20.0, 10.0]]))
    >>> int(res.dof), res.expected_freq.tolist()
    (1, [[15.0, 15.0], [15.0, 15.0]])
    """


def _table(name, observed):
    observed = asarray(observed)
    if observed.dtype.kind in "biu":
        observed = fnp.astype(observed, np.float64)
    elif observed.dtype.kind != "f":
        raise TypeError(f"{name}: observed must hold real numbers, got dtype "
                        f"{observed.dtype}")
    return observed


def margins(a: ArrayLike) -> List[Array]:
    """The marginal sums of ``a``: for each axis ``k``, the sum over all the others, with
    ``a``'s number of axes (length 1 but along ``k``), as
    ``scipy.stats.contingency.margins``; differentiable.

    >>> import numpy as np
    >>> m0, m1 = margins(np.arange(6.0).reshape(2, 3))
    >>> m0.tolist(), m1.tolist()
    ([[3.0], [12.0]], [[3.0, 5.0, 7.0]])
    """
    a = asarray(a)
    return [fnp.sum(a, axis=tuple(j for j in range(a.ndim) if j != k), keepdims=True)
            for k in range(a.ndim)]


def expected_freq(observed: ArrayLike) -> Array:
    """The frequencies expected under independence, the product of the marginal sums over
    the total to the power ``ndim - 1``, as ``scipy.stats.contingency.expected_freq``;
    differentiable (float32 stays float32).

    >>> import numpy as np
    >>> expected_freq(np.array([[10.0, 10.0, 20.0], [20.0, 20.0, 20.0]])).tolist()
    [[12.0, 12.0, 16.0], [18.0, 18.0, 24.0]]
    """
    observed = _table("expected_freq", observed)
    d = observed.ndim
    return reduce(lambda x, y: x * y, margins(observed)) / fnp.sum(observed) ** (d - 1)


def chi2_contingency(observed: ArrayLike, correction: bool = True, lambda_: Any = None, *,
                     method: Any = None) -> Any:
    """The chi-squared test of independence of the variables of a contingency table
    ``observed`` (any number of axes): Pearson's statistic against
    :func:`expected_freq` (or the Cressie-Read ``lambda_``), with Yates's ``correction``
    for one degree of freedom, p-value by chi2, as ``scipy.stats.chi2_contingency``;
    differentiable in ``observed``.  ``method`` (SciPy's ``PermutationMethod`` or
    ``MonteCarloMethod``) gives SciPy's resampled p-value, on values only (a traced
    table raises: the statistic has a derivative, the resampled p-value none).

    >>> import numpy as np
    >>> res = chi2_contingency(np.array([[10.0, 10.0, 20.0], [20.0, 20.0, 20.0]]))
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12), res.dof
    (2.777777777778, 0.249352208777, 2)
    """
    if method is not None:
        _untraced("chi2_contingency", "the p-value of a resampling method", observed=observed)
        return Chi2ContingencyResult(*_scipy("chi2_contingency", observed, correction,
                                             lambda_, method=method))
    observed = _table("chi2_contingency", observed)
    if observed.size == 0:
        raise ValueError("chi2_contingency: observed is empty (size 0); give a table of "
                         "frequencies")
    if is_concrete(observed):
        values = concrete_values(observed, "chi2_contingency", "")
        if np.any(values < 0):
            raise ValueError("chi2_contingency: all values in observed must be "
                             "nonnegative (they are frequencies)")
    expected = expected_freq(observed)
    if is_concrete(expected):
        zero = np.argwhere(concrete_values(expected, "chi2_contingency", "") == 0)
        if zero.size:
            raise ValueError(f"chi2_contingency: the table of expected frequencies has a "
                             f"zero element at {tuple(int(i) for i in zero[0])} (a row or "
                             f"column of observed sums to 0); drop it")
    dof = expected.size - sum(expected.shape) + expected.ndim - 1
    if dof == 0:  # (one nontrivial axis: observed is expected, as SciPy's)
        return Chi2ContingencyResult(0.0, 1.0, dof, expected)
    if dof == 1 and correction:
        # (Yates: each cell moves 1/2 towards its expected value, never past it)
        gap = expected - observed
        observed = observed + fnp.sign(gap) * fnp.minimum(0.5, fnp.abs(gap))
    statistic, p = power_divergence(observed, expected, ddof=observed.size - 1 - dof,
                                    axis=None, lambda_=lambda_)
    return Chi2ContingencyResult(statistic, p, dof, expected)


def crosstab(*args: Any, levels: Optional[Any] = None, sparse: bool = False) -> Any:
    """The table of counts of each combination of the values of the sequences ``args``
    (with ``levels``, only those values), as ``scipy.stats.contingency.crosstab``: a
    result with ``.elements`` and ``.count``.  Counts: zero derivative in the data.

    >>> res = crosstab(["a", "b", "a", "a"], [1, 1, 2, 2])
    >>> res.count.tolist()
    [[1, 2], [1, 0]]
    """
    from scipy.stats import contingency
    return contingency.crosstab(*[_plain(a, "crosstab") for a in args], levels=levels,
                                sparse=sparse)


def association(observed: Any, method: str = "cramer", correction: bool = False,
                lambda_: Any = None) -> float:
    """Cramér's V, Tschuprow's T or Pearson's contingency coefficient (``method``) of a
    two-way table of integer counts, as ``scipy.stats.contingency.association``.  Integer
    counts: no derivative (a traced table raises).

    >>> import numpy as np
    >>> round(association(np.array([[10, 20], [20, 10]])), 12)
    0.333333333333
    """
    _untraced("association", "it takes integer counts", observed=observed)
    from scipy.stats import contingency
    return contingency.association(observed, method, correction, lambda_)


def relative_risk(exposed_cases: int, exposed_total: int, control_cases: int,
                  control_total: int) -> Any:
    """The relative risk of the exposed group against the control group, from integer
    counts, as ``scipy.stats.contingency.relative_risk`` (its result has
    ``.confidence_interval()``).  Integer counts: no derivative.

    >>> res = relative_risk(27, 122, 44, 487)
    >>> round(float(res.relative_risk), 12)
    2.449515648286
    """
    _untraced("relative_risk", "it takes integer counts", exposed_cases=exposed_cases,
              exposed_total=exposed_total, control_cases=control_cases,
              control_total=control_total)
    from scipy.stats import contingency
    return contingency.relative_risk(exposed_cases, exposed_total, control_cases,
                                     control_total)


def odds_ratio(table: Any, *, kind: str = "conditional") -> Any:
    """The odds ratio of a 2 x 2 table of integer counts (``kind`` 'conditional', the
    conditional maximum likelihood estimate, or 'sample'), as
    ``scipy.stats.contingency.odds_ratio`` (its result has ``.confidence_interval()``).
    Integer counts: no derivative.

    >>> res = odds_ratio([[6, 2], [1, 4]], kind="sample")
    >>> float(res.statistic)
    12.0
    """
    _untraced("odds_ratio", "it takes integer counts", table=table)
    from scipy.stats import contingency
    return contingency.odds_ratio(table, kind=kind)

"""Ordinal association measures of :mod:`funcgrad.scipy.stats` (re-exported there):
``somersd`` and ``weightedtau``, with SciPy's signatures and result objects.

Both statistics count concordant and discordant pairs: of the data's ranks, so they are
step functions of the data, whose derivative is zero almost everywhere (undefined at
ties).  The values are SciPy's, computed by ``scipy.stats`` (loaded on the first call)
from the data's values; traced rankings give a constant (gradients through it are 0, on
purpose), not under ``vmap``/``jit``, where the values are not known (a
``ConcretizationError`` says so).  What is not a ranking raises instead of giving a zero
that would be wrong: ``somersd``'s contingency table (counts, which SciPy requires to be
whole numbers: no derivative), and a ``weigher`` whose weights carry a derivative (SciPy
calls it on plain ranks and needs plain numbers back).
"""
from typing import Any, Callable, Optional


from ..core import Tracer
from ._statshyp_ranks import _plain

__all__ = ["somersd", "weightedtau"]


def somersd(x: Any, y: Optional[Any] = None, alternative: str = "two-sided") -> Any:
    """Somers' D, the asymmetric ordinal association of ``y`` on ``x`` (two rankings of
    equal length, or ``x`` a contingency table of counts and ``y`` None), with the p-value
    of its normal approximation, as ``scipy.stats.somersd``: SciPy's ``SomersDResult``
    (``statistic``, ``pvalue``, ``table``, ``correlation``).  A function of ranks: its
    derivative in rankings is zero almost everywhere (gradients through it are 0); a
    traced table raises (counts have no derivative).

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([2.0, 1.0, 4.0, 3.0, 5.0])
    >>> res = somersd(x, y)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.6, 0.000796230158)
    >>> fg.grad(lambda v: somersd(v, y).statistic)(x)
    array([0., 0., 0., 0., 0.])
    """
    if y is None and isinstance(x, Tracer) and x.ndim == 2:
        raise TypeError("somersd: no derivative in a contingency table x (its entries are "
                        "counts, which SciPy requires to be whole numbers); pass the "
                        "table's values, or fg.stop_gradient(x)")
    from scipy import stats
    return stats.somersd(_plain(x, "somersd"), _plain(y, "somersd"), alternative=alternative)


def _weightedtau_1d(x: Any, y: Any, rank: Any = True, weigher: Optional[Callable] = None,
                    additive: bool = True, **axis_nan: Any) -> Any:
    """``weightedtau`` on the values, by SciPy (its axis, nan_policy and keepdims)."""
    from scipy import stats
    if weigher is not None and not callable(weigher):
        raise TypeError(f"weightedtau: weigher must be a callable of a rank, got {weigher!r}")

    def plain_weigher(r):
        w = weigher(r)
        if isinstance(w, Tracer):
            raise TypeError("weightedtau: the weigher returned a weight that carries a "
                            "derivative (or is not known under vmap/jit); funcgrad gives "
                            "no derivative through SciPy's weighted tau. Return plain "
                            "numbers, e.g. through fg.stop_gradient")
        return w
    values = [_plain(a, "weightedtau") for a in (x, y)]
    rank = rank if isinstance(rank, bool) else _plain(rank, "weightedtau")
    return stats.weightedtau(*values, rank=rank, additive=additive,
                             weigher=None if weigher is None else plain_weigher, **axis_nan)


def weightedtau(x: Any, y: Any, rank: Any = True, weigher: Optional[Callable] = None,
                additive: bool = True, *,
                axis: Optional[int] = None, nan_policy: str = "propagate",
                keepdims: bool = False) -> Any:
    """Vigna's weighted Kendall tau of ``x`` and ``y``: exchanges of pairs weighted by
    ``weigher`` of their ranks (``1 / (r + 1)`` by default, the pair's weights added, or
    multiplied with ``additive=False``), ranks by decreasing value of ``rank`` (``True``:
    lexicographically by ``(x, y)`` and ``(y, x)``, averaging the two), as
    ``scipy.stats.weightedtau``: a ``SignificanceResult`` whose ``pvalue`` is NaN, as
    SciPy's.  A function of the data's order: its derivative in ``x`` and ``y`` is zero
    almost everywhere (gradients through it are 0); a ``weigher`` whose weights carry a
    derivative raises (write the statistic in funcgrad for that).
    ``axis`` (None: the samples raveled), ``nan_policy`` ('propagate', 'omit' or
    'raise') and ``keepdims``: SciPy's, applied by SciPy.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([12.0, 2.0, 1.0, 12.0, 2.0])
    >>> y = np.array([1.0, 4.0, 7.0, 1.0, 0.0])
    >>> round(float(weightedtau(x, y).statistic), 12)
    -0.566949681537
    >>> fg.grad(lambda v: weightedtau(v, y).statistic)(x)
    array([0., 0., 0., 0., 0.])
    """
    return _weightedtau_1d(x, y, rank, weigher, additive, axis=axis, nan_policy=nan_policy,
                           keepdims=keepdims)

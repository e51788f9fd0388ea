"""SciPy's ``rv_histogram`` (re-exported by :mod:`funcgrad.scipy.stats`): the continuous
distribution of a histogram, uniform within each bin.

The density is the normalized bin height, the CDF its piecewise-linear integral and the
quantile function that integral's inverse, all written with funcgrad operations on the
heights and the bin edges, so every method differentiates in ``x``/``q``, ``loc``,
``scale``, the bin heights and the edges (where defined: a density, a step function, has
slope 0 in ``x`` within a bin).  The bins are located with ``searchsorted`` (an index,
not differentiated), which works under ``jit`` and ``vmap`` too.  The survival function is
the sum of the masses above ``x`` (SciPy's is ``1 - cdf``: the same to rounding, and
accurate in the last bins).
"""
import math
import warnings
from typing import Any, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..lax import stop_gradient
from ..numpy._convert import concrete_values, is_concrete
from ._distn import rv_continuous

__all__ = ["rv_histogram"]


class rv_histogram(rv_continuous):
    """A distribution given by a histogram, as ``scipy.stats.rv_histogram``:
    ``histogram = (heights, edges)`` (what ``np.histogram`` returns: ``n`` heights and
    ``n + 1`` increasing edges).  ``density=False`` reads the heights as counts per bin
    (divided by the bin widths), ``True`` as proportional to a density; ``None`` (the
    default) means ``True``, with SciPy's RuntimeWarning when the widths vary.  The
    methods (``pdf``, ``cdf``, ``ppf``, ``mean``, ``entropy``...) take ``loc`` and
    ``scale`` as SciPy's and differentiate in the heights and edges.

    >>> import numpy as np, funcgrad as fg
    >>> edges = np.array([0.0, 1.0, 2.0, 4.0])
    >>> float(rv_histogram((np.array([1.0, 3.0, 4.0]), edges), density=False).cdf(1.5))
    0.3125
    >>> g = fg.grad(lambda h: rv_histogram((h, edges), density=False).cdf(1.5))(
    ...     np.array([1.0, 3.0, 4.0]))
    >>> [float(v) for v in g]  # d/dh of (h0 + h1/2) / (h0 + h1 + h2)
    [0.0859375, 0.0234375, -0.0390625]
    """

    def __init__(self, histogram: Sequence[Any], *args: Any, density: Optional[bool] = None,
                 **kwargs: Any) -> None:
        if len(histogram) != 2:
            raise ValueError("rv_histogram: expected histogram = (heights, edges), a pair "
                             "such as np.histogram returns")
        heights, edges = fnp.asarray(histogram[0]), fnp.asarray(histogram[1])
        if heights.ndim != 1 or edges.ndim != 1 or heights.shape[0] + 1 != edges.shape[0]:
            raise ValueError(f"rv_histogram: {tuple(heights.shape)} heights and "
                             f"{tuple(edges.shape)} edges; give n heights and n + 1 edges")
        if heights.dtype.kind not in "fiu":
            heights = fnp.astype(heights, np.float64)
        widths = edges[1:] - edges[:-1]
        if density is None and is_concrete(widths):
            w = concrete_values(widths, "", "")
            if not np.allclose(w, w[0]):
                warnings.warn("Bin widths are not constant. Assuming `density=True`. "
                              "Specify `density` explicitly to silence this warning.",
                              RuntimeWarning, stacklevel=2)
        elif density is not None and not density:
            heights = heights / widths
        masses = heights * widths
        total = fnp.sum(masses)
        self.name = "rv_histogram"
        self._edges, self._widths = edges, widths
        self._heights = heights / total  # (the density in each bin)
        masses = masses / total
        self._below = fnp.concatenate([fnp.zeros(1, masses.dtype), fnp.cumsum(masses)])
        # (the mass above each edge, summed from the top: no 1 - cdf)
        self._above = fnp.concatenate([fnp.cumsum(masses[::-1])[::-1],
                                       fnp.zeros(1, masses.dtype)])
        self._histogram, self._density = histogram, density
        self.a, self.b = edges[0], edges[-1]

    def _bin(self, z):
        """``(i, z clipped to the edges)``: the bin ``[e_i, e_i+1)`` of ``z`` (the first or
        last outside)."""
        n = self._heights.shape[0]
        i = fnp.clip(fnp.searchsorted(self._edges, z, side="right") - 1, 0, n - 1)
        return i, fnp.clip(z, self._edges[0], self._edges[-1])

    def _logpdf(self, z):
        i, _ = self._bin(z)
        inside = fnp.logical_and(fnp.greater_equal(z, self._edges[0]),
                                 fnp.less(z, self._edges[-1]))
        density = fnp.where(inside, fnp.take(self._heights, i), 0.0)
        positive = fnp.greater(density, 0)
        return fnp.where(positive, fnp.log(fnp.where(positive, density, 1.0)), -math.inf)

    def _cdf(self, z):
        i, zc = self._bin(z)
        return (fnp.take(self._below, i)
                + fnp.take(self._heights, i) * (zc - fnp.take(self._edges, i)))

    def _sf(self, z):
        i, zc = self._bin(z)
        return (fnp.take(self._above, i + 1)
                + fnp.take(self._heights, i) * (fnp.take(self._edges, i + 1) - zc))

    def _ppf(self, q):
        # (the last edge whose CDF is <= q: a run of empty bins is skipped to its end, as
        # np.interp over SciPy's CDF table)
        n = self._heights.shape[0]
        i = fnp.clip(fnp.searchsorted(self._below, q, side="right") - 1, 0, n - 1)
        density = fnp.take(self._heights, i)
        empty = fnp.equal(density, 0)
        step = (q - fnp.take(self._below, i)) / fnp.where(empty, 1.0, density)
        x = fnp.take(self._edges, i) + fnp.where(empty, 0.0, step)
        return fnp.minimum(x, self._edges[-1])

    def _power_mean(self, n):
        e = self._edges
        return fnp.sum(self._heights * (e[1:] ** (n + 1) - e[:-1] ** (n + 1)) / (n + 1))

    def _mean(self):
        return self._power_mean(1)

    def _var(self):
        return self._power_mean(2) - self._power_mean(1) ** 2

    def _entropy(self):
        h = self._heights
        positive = fnp.greater(h, 0)
        return -fnp.sum(fnp.where(positive, h * fnp.log(fnp.where(positive, h, 1.0)), 0.0)
                        * self._widths)

    def _scipy_twin(self) -> Any:
        """SciPy's ``rv_histogram`` of the same histogram (its values), whose ``rvs`` and
        constants the draws' methods use (it warns no second time about the widths)."""
        import scipy.stats
        heights, edges = (concrete_values(stop_gradient(fnp.asarray(v)), "rv_histogram",
                                          "Call it outside vmap and jit.")
                          for v in self._histogram)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return scipy.stats.rv_histogram((heights, edges), density=self._density)

    def __repr__(self) -> str:
        return f"<funcgrad.scipy.stats.rv_histogram with {self._heights.shape[0]} bins>"


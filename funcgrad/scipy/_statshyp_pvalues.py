"""Functions of p-values of :mod:`funcgrad.scipy.stats` (re-exported there):
``combine_pvalues`` and ``false_discovery_control``, differentiable in the p-values (and
Stouffer's weights); and SciPy's warning and error classes (``ConstantInputWarning``,
``NearConstantInputWarning``, ``DegenerateDataWarning``, ``FitError``), re-exported from
``scipy.stats`` on first use (so that ``except``/``pytest.warns`` clauses written for
SciPy's catch them, and importing :mod:`funcgrad.scipy.stats` does not load SciPy).
"""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from . import special as sp
from ._correlation import SignificanceResult
from ._statshyp_spread import _out, _samples

__all__ = ["combine_pvalues", "false_discovery_control"]

# (public names of funcgrad.scipy.stats, served by __getattr__ below)
SCIPY_CLASSES = ["ConstantInputWarning", "NearConstantInputWarning", "DegenerateDataWarning",
                 "FitError"]


def __getattr__(name: str) -> Any:
    # (imported into funcgrad.scipy.stats as its module __getattr__: SciPy's classes
    # themselves, loaded when first asked for)
    if name in SCIPY_CLASSES:
        import scipy.stats
        return getattr(scipy.stats, name)
    raise AttributeError(f"module 'funcgrad.scipy.stats' has no attribute {name!r}")


_METHODS = ("fisher", "pearson", "mudholkar_george", "tippett", "stouffer")


def combine_pvalues(pvalues: ArrayLike, method: str = "fisher",
                    weights: Optional[ArrayLike] = None, *, axis: Optional[int] = 0,
                    nan_policy: str = "propagate",
                    keepdims: bool = False) -> SignificanceResult:
    """One p-value from independent tests of the same hypothesis, by ``method``:
    'fisher' (``-2 sum log p``, chi2 with ``2n`` degrees of freedom), 'pearson' (``2 sum
    log(1 - p)``), 'mudholkar_george' (their difference, by a t distribution), 'tippett'
    (the smallest p) or 'stouffer' (the ``weights``-weighted sum of the normal quantiles
    ``isf(p)``), as ``scipy.stats.combine_pvalues``; differentiable in ``pvalues`` and
    ``weights`` (Tippett's in the smallest p-value).

    >>> import numpy as np, funcgrad as fg
    >>> p = np.array([0.01, 0.2, 0.3])
    >>> res = combine_pvalues(p)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (14.837161805496, 0.021561751325)
    >>> g = fg.grad(lambda q: combine_pvalues(q, method="stouffer").pvalue)(p)
    """
    if method not in _METHODS:
        raise ValueError(f"combine_pvalues: method must be one of {_METHODS}, got "
                         f"{method!r}")
    together = [pvalues] if weights is None else [pvalues, weights]
    arrays, ndim = _samples("combine_pvalues", together, axis, nan_policy, least=1)
    p = arrays[0]
    n = float(p.shape[-1])
    if n == 0:
        raise ValueError("combine_pvalues: at least one p-value is required")
    if method == "fisher":
        statistic = -2.0 * fnp.sum(fnp.log(p), axis=-1)
        pvalue = sp.chdtrc(2.0 * n + fnp.zeros_like(statistic), statistic)
    elif method == "pearson":
        statistic = 2.0 * fnp.sum(fnp.log1p(-p), axis=-1)
        pvalue = sp.chdtr(2.0 * n + fnp.zeros_like(statistic), -statistic)
    elif method == "mudholkar_george":
        statistic = fnp.sum(fnp.log1p(-p) - fnp.log(p), axis=-1)
        nu = 5.0 * n + 4.0
        scaled = statistic * (math.sqrt(3.0 / n) / math.pi * math.sqrt(nu / (nu - 2.0)))
        pvalue = sp.stdtr(nu + fnp.zeros_like(scaled), -scaled)
    elif method == "tippett":
        statistic = fnp.min(p, axis=-1)
        pvalue = -fnp.expm1(n * fnp.log1p(-statistic))  # (beta(1, n)'s cdf, 1 - (1 - p)**n)
    else:
        w = fnp.ones_like(p) if weights is None else fnp.broadcast_to(arrays[1], p.shape)
        statistic = fnp.sum(w * -sp.ndtri(p), axis=-1) / fnp.sqrt(
            fnp.sum(fnp.square(w), axis=-1))
        pvalue = sp.ndtr(-statistic)
    return SignificanceResult(_out(statistic, ndim, axis, keepdims),
                              _out(pvalue, ndim, axis, keepdims))


def false_discovery_control(ps: ArrayLike, *, axis: Optional[int] = 0,
                            method: str = "bh") -> Array:
    """The p-values adjusted to control the false discovery rate, by Benjamini and
    Hochberg (``method='bh'``) or Benjamini and Yekutieli (``'by'``, for dependent tests),
    as ``scipy.stats.false_discovery_control``: along ``axis``, the ``i``-th smallest
    ``p`` times ``m / i``, then the smallest of those at or above it, at most 1.  Each
    adjusted value is one p-value times a constant, so it is differentiable in the
    p-values (the order comes from their values: not under ``vmap``/``jit``).

    >>> import numpy as np, funcgrad as fg
    >>> false_discovery_control(np.array([0.5, 0.6, 0.1, 0.001]))
    array([0.6  , 0.6  , 0.2  , 0.004])
    >>> fg.grad(lambda p: false_discovery_control(p)[0])(np.array([0.5, 0.6, 0.1, 0.001]))
    array([0., 1., 0., 0.])
    """
    if not isinstance(method, str) or method.lower() not in ("bh", "by"):
        raise ValueError(f"false_discovery_control: method must be 'bh' or 'by', got "
                         f"{method!r}")
    ps = asarray(ps)
    if ps.dtype.kind in "biu":
        ps = fnp.astype(ps, np.float64)
    values = concrete_values(ps, "false_discovery_control (which orders the p-values)",
                             "call it outside vmap/jit")
    if values.dtype.kind != "f" or not np.all((values >= 0) & (values <= 1)):
        raise ValueError("false_discovery_control: ps must hold numbers between 0 and 1 "
                         "(and no NaN)")
    if axis is None:
        ps, values, axis = fnp.reshape(ps, (-1,)), values.reshape(-1), 0
    if ps.ndim == 0 or ps.size <= 1 or ps.shape[axis] <= 1:
        return ps
    ps, values = fnp.moveaxis(ps, axis, -1), np.moveaxis(values, axis, -1)
    m = values.shape[-1]
    i = np.arange(1, m + 1, dtype=np.float64)
    scale = m / i * (np.sum(1.0 / i) if method.lower() == "by" else 1.0)
    order = np.argsort(values, axis=-1, kind="stable")
    scaled = np.take_along_axis(values, order, -1) * scale
    # (from the largest down, the running minimum: which sorted place each one takes)
    backwards = scaled[..., ::-1]
    running = np.minimum.accumulate(backwards, axis=-1)
    taken = np.maximum.accumulate(np.where(backwards == running, np.arange(m), 0), axis=-1)
    chosen = (m - 1 - taken)[..., ::-1]
    source = np.take_along_axis(order, chosen, -1)
    back = np.argsort(order, axis=-1)
    source = np.take_along_axis(source, back, -1)
    factor = np.take_along_axis(scale[chosen], back, -1).astype(ps.dtype)
    adjusted = fnp.take_along_axis(ps, source, -1) * factor
    return fnp.moveaxis(fnp.minimum(adjusted, 1.0), -1, axis)

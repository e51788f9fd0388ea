"""Sample statistics of :mod:`funcgrad.scipy.stats` (re-exported there) built on the order
statistics, with SciPy's signatures, differentiable in the data: ``lmoment`` (the
L-moments), ``differential_entropy`` (the spacing estimators), ``energy_distance``
(also in the weights) and ``obrientransform``.

Each is a smooth function of the sorted sample, so its derivative goes to the values
through the sort (exact wherever no two values tie; ``differential_entropy`` is ``-inf``
at a tie, as SciPy's).  ``energy_distance`` at two identical distributions is 0, where
its square root has no slope: the derivative there is 0, a subgradient.
"""
import math
import warnings
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from . import special as sp
from ._stats_summary import _prepare
from ._statsresample_quantile import values_of

__all__ = ["lmoment", "differential_entropy", "energy_distance", "obrientransform",
           "wasserstein_distance"]


def lmoment(sample: ArrayLike, order: Any = None, *, axis: Optional[int] = 0,
            sorted: bool = False, standardize: bool = True,  # noqa: A002 - SciPy's name
            nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """The sample L-moments of ``order`` (1 to 4 by default; the orders along the first
    axis of the result) along ``axis``, those past the second divided by the second
    (``standardize``), as ``scipy.stats.lmoment``; unbiased, from the probability-weighted
    moments of the sorted sample (``sorted=True``: it is already).  Differentiable.

    >>> import numpy as np, funcgrad as fg
    >>> lmoment(np.array([1.0, 2.0, 4.0, 8.0]))
    array([3.75      , 1.91666667, 0.39130435, 0.13043478])
    >>> fg.grad(lambda x: lmoment(x, 2))(np.array([1.0, 2.0, 4.0, 8.0]))
    array([-0.25      , -0.08333333,  0.08333333,  0.25      ])
    """
    name = "lmoment"
    orders = np.arange(1, 5) if order is None else np.asarray(order)
    if (orders.dtype.kind not in "iu" or np.any(orders <= 0) or orders.size == 0
            or orders.ndim > 1):
        raise ValueError(f"{name}: order must be a positive integer or a non-empty 1-d "
                         f"array of them, got {order!r}")
    if sorted not in (True, False) or standardize not in (True, False):
        raise ValueError(f"{name}: sorted and standardize must be True or False")
    ndim = np.ndim(sample)
    x, ax = _prepare(name, sample, axis, nan_policy)
    x = fnp.moveaxis(x, ax, -1)
    y = x if sorted else fnp.sort(x, axis=-1)
    n = y.shape[-1]
    count = int(orders.max())
    r = np.arange(count, dtype=float)
    j = np.arange(n, dtype=float)
    # probability-weighted moments b_r = sum_j C(j, r) y_j / (n C(n - 1, r)); those past
    # the sample's size are 0 (their L-moments NaN)
    with np.errstate(invalid="ignore", divide="ignore"):
        weights = np.asarray(sp.binom(j[None, :], r[:, None])) / np.asarray(
            sp.binom(n - 1.0, r))[:, None] / n
    weights = np.where(r[:, None] < n, weights, 0.0)
    pwm = fnp.matmul(fnp.expand_dims(y, -2), fnp.asarray(weights.T.astype(y.dtype)))[..., 0, :]
    k = np.arange(count, dtype=float)
    shifted = ((-1.0) ** (r[:, None] - k[None, :]) * np.asarray(sp.binom(r[:, None], k[None, :]))
               * np.asarray(sp.binom(r[:, None] + k[None, :], k[None, :])))
    moments = fnp.moveaxis(fnp.matmul(pwm, fnp.asarray(shifted.T.astype(y.dtype))), -1, 0)
    if standardize and count > 2:
        moments = fnp.concatenate([moments[:2], moments[2:] / moments[1:2]], axis=0)
    if n < count:
        moments = fnp.where((np.arange(count) >= n).reshape((-1,) + (1,) * (moments.ndim - 1)),
                            math.nan, moments)
    out = fnp.take(moments, orders - 1, axis=0)
    if keepdims:  # (the reduced axis kept after the orders' one)
        out = (fnp.reshape(out, out.shape[:orders.ndim] + (1,) * ndim) if axis is None
               else fnp.expand_dims(out, orders.ndim + ax % ndim))
    return out


def _spacings(values, m):
    """The sorted sample padded with its ends ``m`` times, and the ``2m`` spacings."""
    first = fnp.broadcast_to(values[..., :1], values.shape[:-1] + (m,))
    last = fnp.broadcast_to(values[..., -1:], values.shape[:-1] + (m,))
    padded = fnp.concatenate([first, values, last], axis=-1)
    return padded, padded[..., 2 * m:] - padded[..., :-2 * m]


def _vasicek(y, m):
    n = y.shape[-1]
    return fnp.mean(fnp.log(n / (2.0 * m) * _spacings(y, m)[1]), axis=-1)


def _van_es(y, m):
    n = y.shape[-1]
    first = fnp.sum(fnp.log((n + 1.0) / m * (y[..., m:] - y[..., :-m])), axis=-1) / (n - m)
    return first + np.sum(1.0 / np.arange(m, n + 1.0)) + math.log(m) - math.log(n + 1.0)


def _ebrahimi(y, m):
    n = y.shape[-1]
    i = np.arange(1.0, n + 1.0)
    c = np.where(i <= m, 1.0 + (i - 1.0) / m, 2.0)
    c = np.where(i >= n - m + 1, 1.0 + (n - i) / m, c)
    return fnp.mean(fnp.log(n * _spacings(y, m)[1] / (c * m)), axis=-1)


def _correa(y, m):
    n = y.shape[-1]
    padded = _spacings(y, m)[0]
    offsets = np.arange(-m, m + 1)[:, None]
    window = fnp.take(padded, np.arange(1, n + 1) + offsets + m - 1, axis=-1)
    centred = window - fnp.mean(window, axis=-2, keepdims=True)
    slope = fnp.sum(centred * offsets, axis=-2) / (n * fnp.sum(centred ** 2, axis=-2))
    return -fnp.mean(fnp.log(slope), axis=-1)


_ENTROPIES = {"vasicek": _vasicek, "van es": _van_es, "ebrahimi": _ebrahimi,
              "correa": _correa}


def differential_entropy(values: ArrayLike, *, window_length: Optional[int] = None,
                         base: Optional[float] = None, axis: Optional[int] = 0,
                         method: str = "auto", nan_policy: str = "propagate",
                         keepdims: bool = False) -> Array:
    """The differential entropy of the continuous distribution ``values`` are drawn from,
    estimated from the sample's spacings (window ``m``, by default ``round(sqrt(n))``), as
    ``scipy.stats.differential_entropy``: methods ``'vasicek'``, ``'van es'``,
    ``'ebrahimi'``, ``'correa'`` and ``'auto'`` (van Es to 10 values, Ebrahimi to 1000,
    Vasicek beyond); in units of ``log(base)``.  Differentiable in the values.

    >>> import numpy as np
    >>> x = np.array([0.3, -1.2, 0.8, 1.5, -0.4, 0.1, 2.2, -0.7])
    >>> round(float(differential_entropy(x)), 10)
    1.5024595317
    """
    name = "differential_entropy"
    method = str(method).lower()
    if method not in _ENTROPIES and method != "auto":
        raise ValueError(f"{name}: method must be one of {set(_ENTROPIES) | {'auto'}}, got "
                         f"{method!r}")
    if base is not None and base <= 0:
        raise ValueError(f"{name}: base must be a positive number or None, got {base!r}")
    ndim = np.ndim(values)
    x, ax = _prepare(name, values, axis, nan_policy)
    x = fnp.moveaxis(x, ax, -1)
    n = x.shape[-1]
    m = math.floor(math.sqrt(n) + 0.5) if window_length is None else window_length
    if not 2 <= 2 * m < n:
        if window_length is None:  # (SciPy's: too small a sample gives NaN, with a warning)
            warnings.warn(f"{name}: the sample is too small (n = {n}); the result is NaN",
                          RuntimeWarning, stacklevel=2)
            out = fnp.full(x.shape[:-1], math.nan, x.dtype)
            return fnp.expand_dims(out, ax if axis is not None else 0) if keepdims and ndim else out
        raise ValueError(f"{name}: the window length ({m}) must be positive and less than "
                         f"half the sample size ({n})")
    if method == "auto":
        method = "van es" if n <= 10 else "ebrahimi" if n <= 1000 else "vasicek"
    out = _ENTROPIES[method](fnp.sort(x, axis=-1), m)
    if base is not None:
        out = out / math.log(base)
    out = fnp.astype(out, x.dtype)
    if keepdims:
        out = (fnp.reshape(out, (1,) * ndim) if axis is None
               else fnp.expand_dims(out, ax))
    return out


def _distribution(name, values, weights):
    values = asarray(values)
    if values.dtype.kind != "f":
        values = fnp.astype(values, np.float64)
    if values.ndim != 1 or values.shape[0] == 0:
        raise ValueError(f"{name}: each distribution must be a non-empty 1-d array of "
                         f"values, got shape {tuple(values.shape)}")
    if weights is None:
        return values, None
    weights = asarray(weights)
    if weights.shape != values.shape:
        raise ValueError(f"{name}: the weights of a distribution must match its values "
                         f"(one each), got {tuple(weights.shape)} for {tuple(values.shape)}")
    w = values_of(weights)
    if np.any(w < 0):
        raise ValueError(f"{name}: all weights must be non-negative")
    if not 0 < np.sum(w) < np.inf:
        raise ValueError(f"{name}: the weights must have a positive, finite sum (None for "
                         f"equal weights)")
    return values, weights


def _cdf_on(values, weights, points):
    """The empirical CDF of ``values`` (``weights``) just right of each of ``points``."""
    plain = values_of(values)
    order = np.argsort(plain)
    index = np.searchsorted(plain[order], points, side="right")
    if weights is None:
        return index / plain.size
    cumulative = fnp.concatenate([fnp.zeros(1, weights.dtype),
                                  fnp.cumsum(fnp.take(weights, order))])
    return fnp.take(cumulative, index) / cumulative[-1]


def _cdf_difference(name, u_values, v_values, u_weights, v_weights):
    """``U - V`` of the two empirical CDFs on each gap between consecutive pooled values,
    and the gaps' widths (SciPy's ``_cdf_distance``'s pieces): the sorting is on values,
    the CDFs and widths traced."""
    u, u_w = _distribution(name, u_values, u_weights)
    v, v_w = _distribution(name, v_values, v_weights)
    both = fnp.concatenate([u, v])
    order = np.argsort(values_of(both), kind="mergesort")
    ordered = fnp.take(both, order)
    points = values_of(ordered)[:-1]
    return _cdf_on(u, u_w, points) - _cdf_on(v, v_w, points), ordered[1:] - ordered[:-1]


def wasserstein_distance(u_values: ArrayLike, v_values: ArrayLike,
                         u_weights: Optional[ArrayLike] = None,
                         v_weights: Optional[ArrayLike] = None) -> Array:
    """The first Wasserstein (earth mover's) distance between two 1-d empirical
    distributions, the L1 distance of their CDFs, as ``scipy.stats.wasserstein_distance``;
    differentiable in the values and the weights.

    >>> import numpy as np, funcgrad as fg
    >>> float(wasserstein_distance(np.array([0.0, 1.0, 3.0]), np.array([5.0, 6.0, 8.0])))
    5.0
    >>> fg.grad(wasserstein_distance)(np.array([0.0, 1.0, 3.0]), np.array([5.0, 6.0, 8.0]))
    array([-0.33333333, -0.33333333, -0.33333333])
    """
    difference, gaps = _cdf_difference("wasserstein_distance", u_values, v_values, u_weights,
                                       v_weights)
    return fnp.sum(fnp.abs(difference) * gaps)


def energy_distance(u_values: ArrayLike, v_values: ArrayLike,
                    u_weights: Optional[ArrayLike] = None,
                    v_weights: Optional[ArrayLike] = None) -> Array:
    """The energy distance between two 1-d empirical distributions (``sqrt(2)`` times the
    L2 distance of their CDFs), as ``scipy.stats.energy_distance``; differentiable in the
    values and the weights.

    >>> import numpy as np, funcgrad as fg
    >>> round(float(energy_distance(np.array([0.0]), np.array([2.0]))), 12)
    2.0
    >>> fg.grad(energy_distance)(np.array([0.0]), np.array([2.0]))
    array([-0.5])
    """
    difference, gaps = _cdf_difference("energy_distance", u_values, v_values, u_weights,
                                       v_weights)
    squared = fnp.sum(difference ** 2 * gaps)
    apart = squared > 0  # (0 for identical distributions: sqrt's slope inf there)
    return math.sqrt(2.0) * fnp.where(apart, fnp.sqrt(fnp.where(apart, squared, 1.0)),
                                      0.0 * squared)


def obrientransform(*samples: ArrayLike) -> Any:
    """O'Brien's transform of each sample (its values' contributions to an unbiased
    variance, whose means are the samples' variances), as ``scipy.stats.obrientransform``:
    one array stacking them when the samples have one shape, else a list of arrays
    (SciPy's object array cannot hold traced values).  Differentiable.

    >>> import numpy as np
    >>> obrientransform(np.array([1.0, 2.0, 3.0, 6.0]))
    array([[ 5.5       ,  0.5       , -1.16666667, 13.83333333]])
    """
    tiny = math.sqrt(np.finfo(float).eps)
    out = []
    for sample in samples:
        a = asarray(sample)
        n = a.shape[0]
        squares = (a - fnp.mean(a)) ** 2
        total = fnp.sum(squares)
        t = ((n - 1.5) * n * squares - 0.5 * total) / ((n - 1) * (n - 2))
        if abs(float(values_of(total / (n - 1) - fnp.mean(t)))) > tiny:
            raise ValueError("obrientransform: lack of convergence (the transformed means "
                             "are not the variances)")
        out.append(t)
    if len({tuple(t.shape) for t in out}) > 1:
        return out
    return fnp.stack(out) if out else np.array([])

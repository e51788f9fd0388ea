"""``quantile`` of :mod:`funcgrad.scipy.stats` (re-exported there), SciPy 1.15's
signature and broadcasting (a ``p`` per slice of ``x``), and the sample quantile kernel
the resampling functions share.

Hyndman and Fan's estimators (``'inverted_cdf'`` ... ``'normal_unbiased'``) interpolate
between two order statistics: differentiable in ``x`` (the derivative goes to the order
statistics used) and, for the continuous ones (4 to 9), in ``p``; the step ones (1 to 3)
are constant in ``p`` between their jumps.  ``'harrell-davis'`` weighs every order
statistic by differences of ``betainc``: differentiable in both.
"""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..primitives.structural import stop_gradient
from ..typing import Array, ArrayLike
from . import special as sp
from ._sigrest_quantile_weights import weighted_quantiles

__all__ = ["quantile"]

_CONTINUOUS = {"interpolated_inverted_cdf": lambda p: 0.0, "hazen": lambda p: 0.5,
               "weibull": lambda p: p, "linear": lambda p: 1.0 - p,
               "median_unbiased": lambda p: p / 3.0 + 1.0 / 3.0,
               "normal_unbiased": lambda p: p / 4.0 + 3.0 / 8.0}
_STEPS = {"inverted_cdf": 0.0, "averaged_inverted_cdf": 0.0, "closest_observation": -0.5}
METHODS = tuple(_STEPS) + tuple(_CONTINUOUS) + ("harrell-davis",)


def values_of(x: Any) -> np.ndarray:
    """``x``'s values, for a choice they make (an order, a count, a bin): under ``jit`` or
    ``vmap`` a clear error says that these statistics need them."""
    return np.asarray(concrete_values(stop_gradient(asarray(x)), "the resampling and "
                                      "binning statistics (their counts and orders)",
                                      "call them outside jit and vmap"))


def sorted_quantiles(y: Any, p: Any, n: Any, method: str) -> Array:
    """The ``p`` quantiles (shape ``batch + (k,)``) of the rows of ``y`` (sorted along the
    last axis, the first ``n`` of each valid: an int or a ``batch + (1,)`` array), by
    ``method``, with SciPy's arithmetic (``j + g = p n + m``, clipped to the sample)."""
    if method == "harrell-davis":
        a = fnp.expand_dims(p * (n + 1.0), -1)
        b = fnp.expand_dims((1.0 - p) * (n + 1.0), -1)
        cuts = np.arange(y.shape[-1] + 1.0)
        at = np.minimum(cuts / np.expand_dims(np.asarray(n, float), -1), 1.0)
        w = sp.betainc(a, b, at)
        w = w[..., 1:] - w[..., :-1]
        return fnp.sum(w * fnp.expand_dims(y, -2), axis=-1)
    m = _STEPS[method] if method in _STEPS else _CONTINUOUS[method](p)
    position = p * n + m
    whole = np.floor(values_of(position))
    g = position - whole
    j = whole - 1.0
    if method in _STEPS:
        above = values_of(g) > 0
        if method == "inverted_cdf":
            step = above.astype(float)
        elif method == "averaged_inverted_cdf":
            step = (1.0 + above) / 2.0
        else:
            step = 1.0 - ((values_of(g) == 0) & (j % 2 == 1))
        g = np.where(values_of(position) < 0, 0.0, step)
    g = fnp.where(j < 0, 0.0 * g, g)
    top = np.asarray(n, float) - 1.0
    low = np.clip(j, 0.0, top).astype(np.int64)
    high = np.clip(whole, 0.0, top).astype(np.int64)
    return ((1.0 - g) * fnp.take_along_axis(y, low, axis=-1)
            + g * fnp.take_along_axis(y, high, axis=-1))


def quantile(x: ArrayLike, p: ArrayLike, *, method: str = "linear", axis: Optional[int] = 0,
             nan_policy: str = "propagate", keepdims: Optional[bool] = None,
             weights: Optional[ArrayLike] = None) -> Array:
    """The ``p`` quantiles of ``x`` along ``axis``, as ``scipy.stats.quantile`` (SciPy
    1.15): ``p`` broadcasts against ``x`` except along ``axis``, where it lists the
    quantiles of each slice; that axis is kept unless there is one quantile per slice
    (``keepdims``).  Methods: Hyndman and Fan's nine and ``'harrell-davis'``; ``p``
    outside [0, 1] gives NaN; ``nan_policy``: 'propagate', 'omit' or 'raise'.
    Differentiable in ``x`` and ``p``.  ``weights`` (SciPy 1.17): frequency weights,
    broadcast against ``x`` (counting numbers act as ``np.repeat(x, weights)``; not with
    'harrell-davis'); the weighted quantile is differentiable in ``x``, ``p`` and
    ``weights`` between its jumps, and raises where a derivative is asked exactly at one
    (``p * sum(weights) + m`` on an integer or a cumulative weight, or a weight of 0).

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([[5.0, 1.0, 3.0, 8.0], [2.0, 4.0, 1.0, 3.0]])
    >>> quantile(x, np.array([[0.25, 0.75], [0.5, 1.0]]), axis=-1)
    array([[2.5 , 5.75],
           [2.5 , 4.  ]])
    >>> fg.grad(lambda p: quantile(np.array([1.0, 2.0, 4.0]), p))(0.75)
    np.float64(4.0)
    """
    name = "quantile"
    if method not in METHODS:
        raise ValueError(f"{name}: method must be one of {METHODS}, got {method!r}")
    if nan_policy not in ("propagate", "omit", "raise"):
        raise ValueError(f"{name}: nan_policy must be 'propagate', 'omit' or 'raise', got "
                         f"{nan_policy!r}")
    if keepdims not in (None, True, False):
        raise ValueError(f"{name}: keepdims must be None, True or False, got {keepdims!r}")
    x, p = asarray(x), asarray(p)
    if x.dtype.kind not in "biuf":
        raise ValueError(f"{name}: x must be real numbers, got {x.dtype}")
    if p.dtype.kind != "f":
        raise ValueError(f"{name}: p must be real floating numbers, got {p.dtype}")
    w = None if weights is None else asarray(weights)
    if w is not None and w.dtype.kind not in "biuf":
        raise ValueError(f"{name}: weights must be real numbers, got {w.dtype}")
    if w is not None and method == "harrell-davis":
        raise ValueError(f"{name}: method='harrell-davis' does not support weights; use "
                         f"one of Hyndman and Fan's methods")
    dtype = np.result_type(x.dtype, p.dtype, *([] if w is None else [w.dtype]), np.float16)
    x, p = fnp.astype(x, dtype), fnp.astype(p, dtype)
    if w is not None:
        try:
            x, w = fnp.broadcast_arrays(x, fnp.astype(w, dtype))
        except ValueError as error:
            raise ValueError(f"{name}: weights must broadcast against x, got shapes "
                             f"{tuple(w.shape)} and {tuple(x.shape)}") from error
    ndim = max(x.ndim, p.ndim)
    flat = axis is None
    if axis is None:
        x, p, axis = fnp.ravel(x), fnp.ravel(p), 0
        w = None if w is None else fnp.ravel(w)
    elif isinstance(axis, bool) or int(axis) != axis or not -ndim <= axis < ndim:
        raise ValueError(f"{name}: axis {axis!r} is not compatible with the shapes of the "
                         f"inputs")
    else:
        axis = int(axis)
    x = fnp.reshape(x, (1,) * (max(ndim, 1) - x.ndim) + x.shape) if not flat else x
    p = fnp.reshape(p, (1,) * (max(ndim, 1) - p.ndim) + p.shape) if not flat else p
    if w is not None and not flat:
        w = fnp.reshape(w, x.shape)
    data = values_of(x)
    if nan_policy == "raise" and np.any(np.isnan(data)):
        raise ValueError(f"{name}: the input contains NaN (nan_policy='raise')")
    if x.shape[axis] == 0:
        shape = list(x.shape)
        shape[axis] = 1
        x = fnp.full(tuple(shape), np.nan, dtype)
        w = None if w is None else fnp.ones(tuple(shape), dtype)
        data = values_of(x)
    w = None if w is None else fnp.moveaxis(w, axis, -1)
    x, p, data = (fnp.moveaxis(x, axis, -1), fnp.moveaxis(p, axis, -1),
                  np.moveaxis(data, axis, -1))
    try:
        lead = np.broadcast_shapes(x.shape[:-1], p.shape[:-1])
    except ValueError as error:
        raise ValueError(f"{name}: x and p must broadcast except along axis; their other "
                         f"axes are {x.shape[:-1]} and {p.shape[:-1]}") from error
    x = fnp.broadcast_to(x, lead + x.shape[-1:])
    p = fnp.broadcast_to(p, lead + p.shape[-1:])
    data = np.broadcast_to(data, lead + data.shape[-1:])
    if w is not None:
        w = fnp.broadcast_to(w, lead + w.shape[-1:])
    if keepdims is False and p.shape[-1] != 1:
        raise ValueError(f"{name}: keepdims may be False only if p has one quantile per "
                         f"slice (its length along axis is 1)")
    keep = p.shape[-1] != 1 if keepdims is None else keepdims
    nans = np.isnan(data)
    n = x.shape[-1]
    if w is None:
        y = fnp.sort(x, axis=-1)  # (NaNs last)
    else:  # (SciPy's: weight-0 observations sort last as inf, before the NaNs, and drop)
        zero = values_of(w) == 0
        order = np.argsort(np.where(zero, np.inf, data), axis=-1)
        y = fnp.take_along_axis(fnp.where(zero, np.inf, x), order, axis=-1)
        w = fnp.take_along_axis(w, order, axis=-1)
        n = n - np.count_nonzero(zero, axis=-1, keepdims=True)
    blank = np.any(nans, axis=-1, keepdims=True)
    if nan_policy == "omit":
        n = (n - np.count_nonzero(nans, axis=-1, keepdims=True)).astype(float)
        blank = n == 0
        n = np.where(blank, x.shape[-1], n)
        if method == "harrell-davis":  # (the NaNs past n weigh 0: keep them out of 0 * NaN)
            y = fnp.where(np.sort(nans, axis=-1), 0.0, y)
    outside = values_of(p)
    outside = (outside < 0) | (outside > 1) | np.isnan(outside)
    inside_p = fnp.where(outside, 0.5, p)
    out = (sorted_quantiles(y, inside_p, n, method) if w is None else
           weighted_quantiles(y, inside_p, w, n, method, zero.any(), outside | blank))
    out = fnp.where(outside | blank, np.nan, out)
    if flat and keep:
        out = fnp.reshape(out, (1,) * (ndim - 1) + out.shape)
        axis = -1
    out = fnp.moveaxis(out, -1, axis)
    if not keep:
        out = fnp.squeeze(out, axis=axis)
    return fnp.astype(out, dtype)

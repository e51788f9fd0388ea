"""More summary functions of :mod:`funcgrad.scipy.stats` (re-exported there), with
SciPy's signatures, written in funcgrad operations so that they are differentiable:
``entropy`` (Shannon's, or Kullback-Leibler's with ``qk``), ``zscore``, ``gmean``,
``hmean``, ``moment`` (central), ``skew``, ``kurtosis`` and ``variation``.

``nan_policy``: ``'propagate'`` (NaN in, NaN out, SciPy's default) and ``'raise'``;
``'omit'`` raises ``NotImplementedError`` (drop the NaNs first, e.g. ``a[~np.isnan(a)]``).
A constant sample has no skewness or kurtosis: NaN, as SciPy's.
"""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from .special import entr as _entr, rel_entr as _rel_entr

__all__ = ["entropy", "zscore", "gmean", "hmean", "moment", "skew", "kurtosis", "variation"]


def check_nan_policy(name, nan_policy):
    """``nan_policy`` is 'propagate' or 'raise' (or a clear error: 'omit' is not
    implemented by the functions that call this)."""
    if nan_policy == "omit":
        raise NotImplementedError(f"{name}: nan_policy='omit' is not implemented; drop the "
                                  f"NaNs first (a[~np.isnan(a)]) or use 'propagate'")
    if nan_policy not in ("propagate", "raise"):
        raise ValueError(f"{name}: nan_policy must be 'propagate', 'raise' or 'omit', got "
                         f"{nan_policy!r}")


def _prepare(name, a, axis, nan_policy):
    """``a`` as a float array and the axis to reduce (``None``: all of ``a``, flattened)."""
    check_nan_policy(name, nan_policy)
    a = asarray(a)
    if a.dtype.kind in "biu":
        a = fnp.astype(a, np.float64)
    if nan_policy == "raise" and isinstance(a, np.ndarray) and np.any(np.isnan(a)):
        raise ValueError(f"{name}: the input contains NaN (nan_policy='raise')")
    if axis is None:
        return fnp.reshape(a, (-1,)), 0
    return a, axis


def _keep(out, a_ndim, axis, keepdims, flattened):
    if not keepdims:
        return out
    if flattened:
        return fnp.reshape(out, (1,) * a_ndim)
    return fnp.expand_dims(out, axis)


def entropy(pk: ArrayLike, qk: Optional[ArrayLike] = None, base: Optional[float] = None,
            axis: int = 0, *, nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """Shannon's entropy ``-sum(pk log pk)`` of the distribution ``pk`` (normalized along
    ``axis``), or with ``qk`` the Kullback-Leibler divergence ``sum(pk log(pk / qk))``; in
    units of ``log(base)`` (nats by default), as ``scipy.stats.entropy``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> round(float(fst.entropy(np.array([1.0, 1.0]), base=2)), 15)
    1.0
    >>> float(fst.entropy(np.array([0.5, 0.5]), np.array([0.5, 0.5])))
    0.0
    """
    ndim = np.ndim(pk)
    pk, ax = _prepare("entropy", pk, None if axis is None else axis, nan_policy)
    pk = pk / fnp.sum(pk, axis=ax, keepdims=True)
    if qk is None:
        terms = _entr(pk)
    else:
        qk, _ = _prepare("entropy", qk, None if axis is None else axis, nan_policy)
        pk, qk = fnp.broadcast_arrays(pk, qk)
        qk = qk / fnp.sum(qk, axis=ax, keepdims=True)
        terms = _rel_entr(pk, qk)
    out = fnp.sum(terms, axis=ax)
    if base is not None:
        out = out / math.log(base)
    return _keep(out, ndim, ax, keepdims, axis is None)


def zscore(a: ArrayLike, axis: Optional[int] = 0, ddof: int = 0,
           nan_policy: str = "propagate") -> Array:
    """``(a - mean) / std(ddof=ddof)`` along ``axis`` (``None``: all of ``a``), as
    ``scipy.stats.zscore``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> fst.zscore(np.array([1.0, 2.0, 3.0]))
    array([-1.22474487,  0.        ,  1.22474487])
    """
    a, _ = _prepare("zscore", a, 0, nan_policy)
    if axis is None:
        return (a - fnp.mean(a)) / fnp.std(a, ddof=ddof)
    return ((a - fnp.mean(a, axis=axis, keepdims=True))
            / fnp.std(a, axis=axis, ddof=ddof, keepdims=True))


def _weighted_mean(values, weights, axis):
    if weights is None:
        return fnp.mean(values, axis=axis)
    weights = fnp.broadcast_to(asarray(weights), values.shape)
    return fnp.sum(values * weights, axis=axis) / fnp.sum(weights, axis=axis)


def gmean(a: ArrayLike, axis: Optional[int] = 0, dtype: Any = None,
          weights: Optional[ArrayLike] = None, *, nan_policy: str = "propagate",
          keepdims: bool = False) -> Array:
    """The geometric mean ``exp(mean(log a))`` (weighted: ``exp(sum(w log a) / sum(w))``),
    as ``scipy.stats.gmean``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.gmean(np.array([1.0, 4.0])))
    2.0
    """
    return _power_mean("gmean", a, axis, dtype, weights, nan_policy, keepdims,
                       fnp.log, fnp.exp)


def hmean(a: ArrayLike, axis: Optional[int] = 0, dtype: Any = None, *,
          weights: Optional[ArrayLike] = None, nan_policy: str = "propagate",
          keepdims: bool = False) -> Array:
    """The harmonic mean ``1 / mean(1 / a)`` (weighted: ``sum(w) / sum(w / a)``), as
    ``scipy.stats.hmean``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.hmean(np.array([1.0, 4.0, 4.0])))
    2.0
    """
    return _power_mean("hmean", a, axis, dtype, weights, nan_policy, keepdims,
                       lambda v: 1.0 / v, lambda m: 1.0 / m)


def _power_mean(name, a, axis, dtype, weights, nan_policy, keepdims, there, back):
    """``back(weighted mean of there(a))``: gmean's log/exp, hmean's reciprocals."""
    ndim = np.ndim(a)
    a, ax = _prepare(name, a, axis, nan_policy)
    if dtype is not None:
        a = fnp.astype(a, dtype)
    if weights is not None and axis is None:
        weights = fnp.reshape(asarray(weights), (-1,))
    out = back(_weighted_mean(there(a), weights, ax))
    return _keep(out, ndim, ax, keepdims, axis is None)


def _central(a, order, axis, center=None):
    mean = fnp.mean(a, axis=axis, keepdims=True) if center is None else center
    return fnp.mean((a - mean) ** order, axis=axis)


def moment(a: ArrayLike, order: int = 1, axis: Optional[int] = 0,
           nan_policy: str = "propagate", *, center: Optional[ArrayLike] = None,
           keepdims: bool = False) -> Array:
    """The ``order``-th central moment ``mean((a - mean(a))**order)`` (about ``center``
    when given), as ``scipy.stats.moment``: 1 for order 0, 0 for order 1.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.moment(np.array([1.0, 2.0, 3.0, 4.0]), order=2))
    1.25
    """
    ndim = np.ndim(a)
    a, ax = _prepare("moment", a, axis, nan_policy)
    if center is None and order in (0, 1):
        out = fnp.mean(a * 0.0, axis=ax) + (1.0 if order == 0 else 0.0)
    else:
        out = _central(a, order, ax, None if center is None else asarray(center))
    return _keep(out, ndim, ax, keepdims, axis is None)


def _standardized(name, a, axis, order, nan_policy):
    a, ax = _prepare(name, a, axis, nan_policy)
    m2 = _central(a, 2, ax)
    mk = _central(a, order, ax)
    # (a constant sample: 0/0, NaN as SciPy's; the double-where idiom keeps it out of
    # the derivatives elsewhere)
    zero = fnp.equal(m2, 0)
    m2 = fnp.where(zero, 1.0, m2)
    return fnp.where(zero, math.nan, mk / m2 ** (order / 2.0)), a.shape[ax], ax


def skew(a: ArrayLike, axis: Optional[int] = 0, bias: bool = True,
         nan_policy: str = "propagate", *, keepdims: bool = False) -> Array:
    """The sample skewness ``m3 / m2**1.5`` (``bias=False``: the adjusted Fisher-Pearson
    coefficient), as ``scipy.stats.skew``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.skew(np.array([1.0, 2.0, 3.0])))
    0.0
    """
    ndim = np.ndim(a)
    g, n, ax = _standardized("skew", a, axis, 3, nan_policy)
    if not bias:
        g = g * (math.sqrt(n * (n - 1.0)) / (n - 2.0)) if n > 2 else g * math.nan
    return _keep(g, ndim, ax, keepdims, axis is None)


def kurtosis(a: ArrayLike, axis: Optional[int] = 0, fisher: bool = True, bias: bool = True,
             nan_policy: str = "propagate", *, keepdims: bool = False) -> Array:
    """The sample kurtosis ``m4 / m2**2``, less 3 with ``fisher=True`` (``bias=False``: the
    unbiased estimator's correction), as ``scipy.stats.kurtosis``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.kurtosis(np.array([1.0, 2.0, 3.0, 4.0]), fisher=False))
    1.64
    """
    ndim = np.ndim(a)
    g, n, ax = _standardized("kurtosis", a, axis, 4, nan_policy)
    if not bias:
        if n > 3:
            g = ((n * n - 1.0) * g - 3.0 * (n - 1.0) ** 2) / ((n - 2.0) * (n - 3.0)) + 3.0
        else:
            g = g * math.nan
    if fisher:
        g = g - 3.0
    return _keep(g, ndim, ax, keepdims, axis is None)


def variation(a: ArrayLike, axis: Optional[int] = 0, nan_policy: str = "propagate",
              ddof: int = 0, *, keepdims: bool = False) -> Array:
    """The coefficient of variation ``std(a, ddof) / mean(a)``, as
    ``scipy.stats.variation``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.variation(np.array([1.0, 3.0])))
    0.5
    """
    ndim = np.ndim(a)
    a, ax = _prepare("variation", a, axis, nan_policy)
    out = fnp.std(a, axis=ax, ddof=ddof) / fnp.mean(a, axis=ax)
    return _keep(out, ndim, ax, keepdims, axis is None)

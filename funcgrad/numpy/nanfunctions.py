"""NumPy's ``nan*`` functions: reductions and order statistics that skip NaNs.

Each replaces the NaNs by the reduction's identity *before* computing (the double-where
idiom), so a NaN entry gets a zero derivative rather than poisoning the others with
``0 * nan``.  All-NaN slices give NaN (nanmean, nanmax, nanmedian...) as NumPy does.
"""
import warnings
from typing import Any

import numpy as _np

from ._convert import (asarray, concrete_values, is_concrete, reduction_axes, scalar_results,
                       write_out)
from .constructors import astype
from .indexing import where as _where
from . import reductions as _reductions
from .reductions import (_mask, all, argmax, argmin, cumprod, cumsum, max, min,
                         prod, sum)
from ._order_statistics import median_along, quantile_along
from .ufuncs import (abs_square, divide, equal, isnan, less_equal, logical_and, logical_not,
                     maximum, sqrt, subtract)
from ..typing import Array, ArrayLike, Axis, DTypeLike

__all__ = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
           "nanargmax", "nanargmin", "nancumsum", "nancumprod", "nanmedian", "nanquantile",
           "nanpercentile"]


def _filled(a, value, dtype=None):
    """``a`` (cast to ``dtype``), with ``value`` where it is NaN, and the NaN mask."""
    a = asarray(a)
    if dtype is not None:
        a = astype(a, dtype)
    if a.dtype.kind not in "fc":
        return a, None
    missing = isnan(a)
    return _where(missing, _np.asarray(value, a.dtype), a), missing


@scalar_results
def nansum(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
           keepdims: bool = False, initial: ArrayLike | None = None, where: bool = True) -> Array:
    """``np.nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=<no value>,
    where=<no value>)``: the sum, NaNs counted as zero (their derivative is 0).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fnp.nansum(np.array([1.0, np.nan, 2.0])))
    3.0
    >>> fg.grad(fnp.nansum)(np.array([1.0, np.nan, 2.0]))
    array([1., 0., 1.])
    """
    if out is not None:
        return write_out("nansum", out, nansum(a, axis, dtype, None, keepdims, initial,
                         where), "unsafe")
    return sum(_filled(a, 0)[0], axis, dtype, keepdims=keepdims, initial=initial, where=where)


@scalar_results
def nanprod(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
            keepdims: bool = False, initial: ArrayLike | None = None, where: bool = True) -> Array:
    """``np.nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=<no value>,
    where=<no value>)``: the product, NaNs counted as one.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.nanprod(np.array([2.0, np.nan, 3.0])))
    6.0
    """
    if out is not None:
        return write_out("nanprod", out, nanprod(a, axis, dtype, None, keepdims, initial,
                         where), "unsafe")
    return prod(_filled(a, 1)[0], axis, dtype, keepdims=keepdims, initial=initial, where=where)


def _without_nans(name, a, dtype):
    """NumPy's dispatch for nanmean, nanvar and nanstd: True when ``a`` cannot hold a NaN
    (its plain reduction then answers, ``dtype=`` included); an inexact ``a`` needs an
    inexact ``dtype``."""
    if a.dtype.kind not in "fc":
        return True
    if dtype is not None and _np.dtype(dtype).kind not in "fc":
        raise TypeError(f"{name}: if a is inexact, then dtype must be inexact (NumPy's "
                        f"rule): got a {a.dtype} array and dtype={_np.dtype(dtype)}; pass a "
                        f"float dtype=, or cast the result")
    return False


def _counted(name, missing, a, where):
    """The elements a mean or variance counts: not NaN, and selected by ``where`` (None
    for all of them)."""
    mask = _mask(name, a, where)
    if missing is None:
        return mask
    kept = logical_not(missing)
    return kept if mask is None else logical_and(kept, mask)


def _count(counted, a, axis, keepdims):
    if counted is None:
        axes = reduction_axes(axis, a.ndim)  # (as the sum it divides)
        n = 1
        for ax in axes:
            n *= a.shape[ax]
        return n
    return sum(counted, axis, keepdims=keepdims)


def _divided(total, n, warning):
    """``total / n``, NaN where ``n <= 0`` without a division by zero (whose
    "invalid value" warnings NumPy does not give, forward or backward), and NumPy's own
    ``warning`` when the counts are known (eagerly, under grad) and one is ``<= 0``; under
    jit or vmap they are not, and the NaN comes silently."""
    if not hasattr(n, "dtype"):  # (a count known from the shape)
        if n <= 0:
            warnings.warn(warning, RuntimeWarning, stacklevel=3)
            return total * _np.nan
        return divide(total, float(n))
    bad = less_equal(n, 0)
    if is_concrete(bad) and _np.any(concrete_values(bad, "", "")):
        warnings.warn(warning, RuntimeWarning, stacklevel=3)
    n = astype(_where(bad, _np.ones((), n.dtype), n), total.dtype)  # (NumPy divides so)
    return _where(bad, _np.asarray(_np.nan, total.dtype), divide(total, n))


@scalar_results
def nanmean(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
            keepdims: bool = False, *, where: bool = True) -> Array:
    """``np.nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=<no
    value>)``: the mean of the values that are not NaN (NaN for an all-NaN slice).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.nanmean)(np.array([1.0, np.nan, 3.0]))
    array([0.5, 0. , 0.5])
    """
    if out is not None:
        return write_out("nanmean", out, nanmean(a, axis, dtype, None, keepdims,
                         where=where), "same_kind")
    a = asarray(a)
    if _without_nans("nanmean", a, dtype):
        return _reductions.mean(a, axis, dtype, keepdims=keepdims, where=where)
    filled, missing = _filled(a, 0, dtype)
    counted = _counted("nanmean", missing, filled, where)
    n = _count(counted, filled, axis, keepdims)
    total = sum(filled, axis, keepdims=keepdims, where=where)  # (NaNs are zeros now)
    return _divided(total, n, "Mean of empty slice")


@scalar_results
def nanvar(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
           ddof: int = 0, keepdims: bool = False, *, where: bool = True,
           mean: ArrayLike | None = None, correction: ArrayLike | None = None) -> Array:
    """``np.nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
    where=<no value>, mean=<no value>, correction=<no value>)``: the variance of the values
    that are not NaN.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.nanvar(np.array([1.0, np.nan, 3.0])))
    1.0
    """
    if out is not None:
        return write_out("nanvar", out, nanvar(a, axis, dtype, None, ddof, keepdims,
                         where=where, mean=mean, correction=correction), "same_kind")
    a = asarray(a)
    if _without_nans("nanvar", a, dtype):
        return _reductions.var(a, axis, dtype, ddof=ddof, keepdims=keepdims, where=where,
                               mean=mean, correction=correction)
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    filled, missing = _filled(a, 0, dtype)
    counted = _counted("nanvar", missing, filled, where)
    if mean is not None:  # (NumPy 2's mean=: the NaN-ignoring mean, with the kept axes)
        m = asarray(mean)
    else:
        n = _count(counted, filled, axis, True)
        # (an empty slice's mean is 0 here, not NaN: its entries are zeroed below either
        # way, and 0 / 0 would warn where NumPy does not)
        n = maximum(n, 1) if hasattr(n, "dtype") else (n or 1)
        m = divide(sum(filled, axis, keepdims=True, where=where), astype(n, filled.dtype)
                   if hasattr(n, "dtype") else float(n))
    centered = subtract(filled, m)
    if counted is not None:  # (zeroed: a NaN mean of an empty slice stays out of the rest)
        centered = _where(counted, centered, _np.zeros((), filled.dtype))
    # |x - mean|**2: a complex array's variance is real, as NumPy's
    total = sum(abs_square(centered), axis, keepdims=keepdims)
    n = _count(counted, filled, axis, keepdims)
    dof = subtract(n, ddof)  # NumPy: NaN where no degree of freedom is left
    result = _divided(total, dof, "Degrees of freedom <= 0 for slice.")
    # a real array summed in a complex dtype= keeps that dtype in NumPy (zero imaginary part)
    if dtype is not None and _np.dtype(dtype).kind == "c" and result.dtype.kind != "c":
        return astype(result, dtype)
    return result


@scalar_results
def nanstd(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
           ddof: int = 0, keepdims: bool = False, *, where: bool = True,
           mean: ArrayLike | None = None, correction: ArrayLike | None = None) -> Array:
    """``np.nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
    where=<no value>, mean=<no value>, correction=<no value>)``: the standard deviation
    of the values that are not NaN (derivative 0 where the spread is 0, as ``std``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.nanstd(np.array([1.0, np.nan, 3.0])))
    1.0
    """
    a = asarray(a)
    if out is not None:  # (NumPy's root: in out)
        return write_out("nanstd", out, nanstd(a, axis, dtype, None, ddof, keepdims,
                                               where=where, mean=mean, correction=correction),
                         "same_kind")
    if _without_nans("nanstd", a, dtype):
        return _reductions.std(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
                               correction=correction)
    v = nanvar(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
               correction=correction)
    flat = equal(v, 0.0)
    return _where(flat, _np.zeros((), v.dtype), sqrt(_where(flat, _np.ones((), v.dtype), v)))


def _nan_extreme(name, reduce, fill, a, axis, keepdims, initial, where_):
    a = asarray(a)
    if where_ is not True and initial is None:
        ufunc = "fmax" if name == "nanmax" else "fmin"
        raise ValueError(f"{name}: reduction operation '{ufunc}' does not have an identity, "
                         f"so to use a where mask one has to specify 'initial' (as NumPy); "
                         f"pass e.g. initial={'-' if name == 'nanmax' else ''}np.inf")
    filled, missing = _filled(a, fill)
    result = reduce(filled, axis, keepdims=keepdims, initial=initial, where=where_)
    if missing is None or initial is not None:  # (NaNs give way to initial, as in fmax)
        return result
    all_missing = all(missing, axis, keepdims=keepdims)
    return _where(all_missing, _np.asarray(_np.nan, a.dtype), result)


@scalar_results
def nanmax(a: ArrayLike, axis: Axis = None, out: Any = None, keepdims: bool = False,
           initial: ArrayLike | None = None, where: bool = True) -> Array:
    """``np.nanmax(a, axis=None, out=None, keepdims=False, initial=<no value>,
    where=<no value>)``: the maximum ignoring NaNs (NaN for an all-NaN slice); tied maxima
    share the derivative.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.nanmax(np.array([1.0, np.nan, 3.0])))
    3.0
    """
    if out is not None:
        return write_out("nanmax", out, nanmax(a, axis, None, keepdims, initial, where), "unsafe")
    return _nan_extreme("nanmax", max, -_np.inf, a, axis, keepdims, initial, where)


@scalar_results
def nanmin(a: ArrayLike, axis: Axis = None, out: Any = None, keepdims: bool = False,
           initial: ArrayLike | None = None, where: bool = True) -> Array:
    """``np.nanmin(a, axis=None, out=None, keepdims=False, initial=<no value>,
    where=<no value>)``: the minimum ignoring NaNs (NaN for an all-NaN slice).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.nanmin(np.array([1.0, np.nan, 3.0])))
    1.0
    """
    if out is not None:
        return write_out("nanmin", out, nanmin(a, axis, None, keepdims, initial, where), "unsafe")
    return _nan_extreme("nanmin", min, _np.inf, a, axis, keepdims, initial, where)


def _nan_arg(name, arg, fill, a, axis, out, keepdims):
    if out is not None:
        raise TypeError(f"{name}: out= is not supported; use the returned value")
    filled, missing = _filled(a, fill)
    if missing is not None and is_concrete(missing):
        m = concrete_values(missing, "", "")
        if (m.all() if axis is None else m.all(axis=axis).any()) and m.size:
            raise ValueError("All-NaN slice encountered")
    return arg(filled, axis, keepdims=keepdims)


def nanargmax(a: ArrayLike, axis: Axis = None, out: Any = None, *,
              keepdims: bool = False) -> Array:
    """``np.nanargmax(a, axis=None, out=None, *, keepdims=<no value>)``: the index of the
    maximum ignoring NaNs (an integer; an all-NaN slice raises ValueError).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> int(fnp.nanargmax(np.array([1.0, np.nan, 3.0])))
    2
    """
    return _nan_arg("nanargmax", argmax, -_np.inf, a, axis, out, keepdims)


def nanargmin(a: ArrayLike, axis: Axis = None, out: Any = None, *,
              keepdims: bool = False) -> Array:
    """``np.nanargmin(a, axis=None, out=None, *, keepdims=<no value>)``: the index of the
    minimum ignoring NaNs.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> int(fnp.nanargmin(np.array([1.0, np.nan, 3.0])))
    0
    """
    return _nan_arg("nanargmin", argmin, _np.inf, a, axis, out, keepdims)


def nancumsum(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None,
              out: Any = None) -> Array:
    """``np.nancumsum(a, axis=None, dtype=None, out=None)``: the cumulative sum, NaNs
    counted as zero.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.nancumsum(np.array([1.0, np.nan, 2.0]))
    array([1., 1., 3.])
    """
    if out is not None:
        return write_out("nancumsum", out, nancumsum(a, axis, dtype), "unsafe")
    return cumsum(_filled(a, 0)[0], axis, dtype)


def nancumprod(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None,
               out: Any = None) -> Array:
    """``np.nancumprod(a, axis=None, dtype=None, out=None)``: the cumulative product, NaNs
    counted as one.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.nancumprod(np.array([2.0, np.nan, 3.0]))
    array([2., 2., 6.])
    """
    if out is not None:
        return write_out("nancumprod", out, nancumprod(a, axis, dtype), "unsafe")
    return cumprod(_filled(a, 1)[0], axis, dtype)


@scalar_results
def nanmedian(a: ArrayLike, axis: Axis = None, out: Any = None, overwrite_input: bool = False,
              keepdims: bool = False) -> Array:
    """``np.nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=<no
    value>)``: the median of the values that are not NaN (NaN for an all-NaN slice);
    differentiated through the sort, like :func:`~funcgrad.numpy.median`.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.nanmedian)(np.array([4.0, np.nan, 1.0, 2.0]))
    array([0., 0., 0., 1.])
    """
    if out is not None:
        return write_out("nanmedian", out, nanmedian(a, axis, None, overwrite_input,
                         keepdims), "unsafe")
    return median_along(a, axis, keepdims, True)


@scalar_results
def nanquantile(a: ArrayLike, q: ArrayLike, axis: Axis = None, out: Any = None,
                overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
                weights: ArrayLike | None = None, interpolation: Any = None) -> Array:
    """``np.nanquantile(a, q, axis=None, out=None, overwrite_input=False,
    method='linear', keepdims=<no value>, *, weights=None, interpolation=None)``:
    :func:`~funcgrad.numpy.quantile` of the values that are not NaN.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.nanquantile(np.array([4.0, np.nan, 1.0, 2.0]), 0.5))
    2.0
    """
    if out is not None:
        return write_out("nanquantile", out, nanquantile(a, q, axis, None, overwrite_input,
                         method, keepdims, weights=weights, interpolation=interpolation),
                         "unsafe")
    return quantile_along("nanquantile", a, q, axis, interpolation or method, keepdims, True,
                          weights=weights)


@scalar_results
def nanpercentile(a: ArrayLike, q: ArrayLike, axis: Axis = None, out: Any = None,
                  overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
                  weights: ArrayLike | None = None, interpolation: Any = None) -> Array:
    """``np.nanpercentile(a, q, axis=None, out=None, overwrite_input=False,
    method='linear', keepdims=<no value>, *, weights=None, interpolation=None)``:
    :func:`~funcgrad.numpy.percentile` of the values that are not NaN.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.nanpercentile(np.array([4.0, np.nan, 1.0, 2.0]), 100))
    4.0
    """
    if out is not None:
        return write_out("nanpercentile", out, nanpercentile(a, q, axis, None,
                         overwrite_input, method, keepdims, weights=weights,
                         interpolation=interpolation), "unsafe")
    return quantile_along("nanpercentile", a, q, axis, interpolation or method, keepdims,
                          True, scale=100.0, weights=weights)


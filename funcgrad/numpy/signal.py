"""Signals and calculus on samples: convolve, correlate, interp, gradient, trapezoid,
ediff1d, cumulative_sum, cumulative_prod, unwrap.

Everything here is composed of differentiable funcgrad operations (gathers, products,
sums), so each function is differentiable in every float argument and works under
``vmap`` and ``jit``.
"""
import builtins
import math
from typing import Any

import numpy as _np

from ._convert import (asarray, concrete_values, is_concrete, normalize_axis, one_axis,
                       operand, write_out)
from .constructors import astype
from .indexing import argsort, take, where
from .manipulation import concatenate, moveaxis, ravel, reshape
from .padding import pad
from .products import matmul
from .reductions import cumprod, cumsum, diff, sum
from .ufuncs import (abs, add, clip, conj, divide, equal, greater, isfinite, isnan, less,
                     less_equal, logical_and, logical_not, logical_or, mod, multiply,
                     subtract)
from ..typing import Array, ArrayLike, Axis, DTypeLike

__all__ = ["convolve", "correlate", "interp", "gradient", "trapezoid", "ediff1d",
           "cumulative_sum", "cumulative_prod", "unwrap"]

_MODES = ("full", "same", "valid")


def _as_1d(a, name, which):
    a = asarray(a)
    if a.ndim == 0:
        a = reshape(a, (1,))
    if a.ndim != 1:
        raise ValueError(f"{name}: object too deep for desired array ({which} must be 1-d, "
                         f"got shape {a.shape})")
    if a.shape[0] == 0:
        raise ValueError(f"{name}: {which} cannot be empty")
    return a


def _check_mode(name, mode):
    if mode not in _MODES:
        raise ValueError(f"{name}: mode must be one of {_MODES}, got {mode!r}")


def _sliding(a, v, mode):
    """``out[k] = sum_j a_padded[k + j] * v[j]`` with NumPy's padding per mode
    (``len(a) >= len(v)``): one gather of windows and one matrix-vector product."""
    n, m = a.shape[0], v.shape[0]
    left = {"full": m - 1, "same": m // 2, "valid": 0}[mode]
    length = {"full": n + m - 1, "same": n, "valid": n - m + 1}[mode]
    right = builtins.max(length + m - 1 - left - n, 0)
    dtype = _np.result_type(a.dtype, v.dtype)
    a, v = astype(a, dtype), astype(v, dtype)
    padded = pad(a, (left, right)) if left or right else a
    windows = take(padded, _np.arange(length)[:, None] + _np.arange(m)[None, :])
    return matmul(windows, v)


def convolve(a: ArrayLike, v: ArrayLike, mode: str = "full") -> Array:
    """``np.convolve(a, v, mode='full')``: the discrete linear convolution of two 1-d
    sequences ('full', 'same' or 'valid'), differentiable in both.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.convolve(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]))
    array([0. , 1. , 2.5, 4. , 1.5])
    >>> fg.grad(lambda v: fnp.convolve(np.array([1.0, 2.0]), v, "valid")[0])(np.ones(2))
    array([2., 1.])
    """
    _check_mode("convolve", mode)
    a, v = _as_1d(a, "convolve", "a"), _as_1d(v, "convolve", "v")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    return _sliding(a, v[::-1], mode)


def correlate(a: ArrayLike, v: ArrayLike, mode: str = "valid") -> Array:
    """``np.correlate(a, v, mode='valid')``: the cross-correlation ``c[k] = sum_n a[n + k]
    * conj(v[n])`` of two 1-d sequences ('valid', 'same' or 'full'), differentiable in both.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.correlate(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]), "full")
    array([0.5, 2. , 3.5, 3. , 0. ])
    """
    _check_mode("correlate", mode)
    a, v = _as_1d(a, "correlate", "a"), _as_1d(v, "correlate", "v")
    if v.shape[0] > a.shape[0]:  # as NumPy: swap, and reverse (and conjugate) the result
        return _conj(_sliding(v, _conj(a), mode))[::-1]
    return _sliding(a, _conj(v), mode)


def _conj(a):
    return conj(a) if a.dtype.kind == "c" else a


def _count_at_most(xp, x):
    """How many of the sorted ``xp`` are ``<= x`` (``np.searchsorted(xp, x, 'right')``):
    NumPy's binary search on concrete values, else one comparison per pair."""
    if is_concrete(xp) and is_concrete(x):
        return _np.searchsorted(concrete_values(xp, "", ""), concrete_values(x, "", ""),
                                side="right")
    column = reshape(x, x.shape + (1,))
    return sum(astype(less_equal(xp, column), _np.intp), -1)


def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: ArrayLike | None = None,
           right: ArrayLike | None = None, period: ArrayLike | None = None) -> Array:
    """``np.interp(x, xp, fp, left=None, right=None, period=None)``: piecewise-linear
    interpolation of the points ``(xp, fp)`` (``xp`` increasing) at ``x``; ``left`` and
    ``right`` (default ``fp[0]`` and ``fp[-1]``) outside, or periodic with ``period``.
    Differentiable in ``x``, ``xp``, ``fp``, ``left`` and ``right`` (at a sample point,
    the slope of the segment to its right, as JAX); float64, complex128 for complex ``fp``,
    as NumPy.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> xp, fp = np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, 3.0])
    >>> fnp.interp(np.array([-1.0, 0.5, 2.0, 4.0]), xp, fp)
    array([0. , 1. , 2.5, 3. ])
    >>> float(fg.grad(lambda x: fnp.interp(x, xp, fp))(2.0))
    0.5
    """
    x, xp, fp = asarray(x), asarray(xp), asarray(fp)
    for name, v in (("x", x), ("xp", xp)):  # (a cast to float would drop the imaginary part)
        if v.dtype.kind == "c":
            raise TypeError(f"interp: {name} must be real (NumPy cannot cast {v.dtype} to "
                            f"float64 either); interpolate at np.real({name})")
    out_dtype = _np.complex128 if _np.iscomplexobj(fp) else _np.float64  # (complex fp: NumPy)
    x, xp, fp = astype(x, _np.float64), astype(xp, _np.float64), astype(fp, out_dtype)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("interp: data points xp and fp must be 1-D sequences")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("interp: fp and xp are not of the same length")
    if xp.shape[0] == 0:
        raise ValueError("interp: array of sample points (xp) is empty")
    if period is not None:
        if is_concrete(operand(period)) and float(concrete_values(operand(period), "", "")) == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(operand(period))
        left = right = None
        x, xp = mod(x, period), mod(xp, period)
        order = argsort(xp)
        xp, fp = take(xp, order), take(fp, order)
        xp = concatenate([subtract(xp[-1:], period), xp, add(xp[0:1], period)])
        fp = concatenate([fp[-1:], fp, fp[0:1]])
    n = xp.shape[0]
    left = fp[0] if left is None else astype(asarray(left), out_dtype)
    right = fp[n - 1] if right is None else astype(asarray(right), out_dtype)
    if n == 1:
        out = where(less(x, xp[0]), left, where(greater(x, xp[0]), right, fp[0]))
        return out
    j = clip(subtract(_count_at_most(xp, x), 1), 0, n - 2)  # x in [xp[j], xp[j + 1])
    below, above = less(x, xp[0]), greater(x, xp[n - 1])
    x_in = where(logical_or(below, above), xp[0], x)  # (x = +-inf: no 0 * inf in the slope)
    inside = _segment(x_in, take(xp, j), take(xp, j + 1), take(fp, j), take(fp, j + 1))
    return where(isnan(x), x, where(below, left, where(above, right, inside)))  # NaN: NaN


def _segment(x, x0, x1, f0, f1):
    """NumPy's value on the segment ``[x0, x1]``: ``f0 + slope * (x - x0)``, from the other
    end when that is NaN (infinite ``fp``), and exactly ``f0`` (``f1`` at the last sample
    point) at the sample points, there still with the segment's slope as derivative, as
    ``jax.numpy.interp`` (the one-sided slope to the right; the last segment's at the end)."""
    width = subtract(x1, x0)
    flat = equal(width, 0.0)  # a repeated sample point, met only at its own x
    slope = where(flat, 0.0, divide(subtract(f1, f0), where(flat, 1.0, width)))
    # Each side computed again with its offset zeroed where its value is NaN (an offset
    # x - x0 = inf times a slope of 0, at an infinite sample point), so that the branch
    # not taken sends no 0 * inf into the derivative.
    d0, d1 = subtract(x, x0), subtract(x, x1)
    use_x0 = logical_not(isnan(add(multiply(slope, d0), f0)))
    use_x1 = logical_not(isnan(add(multiply(slope, d1), f1)))
    from_x0 = add(multiply(slope, where(use_x0, d0, 0.0)), f0)
    from_x1 = add(multiply(slope, where(use_x1, d1, 0.0)), f1)
    value = where(use_x0, from_x0, where(use_x1, from_x1, where(equal(f0, f1), f0, _np.nan)))
    finite = where(isfinite(slope), slope, 0.0)  # no 0 * inf at a sample point
    value = where(equal(x, x0), add(multiply(finite, _offset(x, x0)), f0), value)
    return where(equal(x, x1), add(multiply(finite, _offset(x, x1)), f1), value)


def _offset(x, x0):
    """``x - x0`` where ``x == x0`` is finite: zero, which carries the derivative; else 0
    (``inf - inf`` is NaN where NumPy gives ``fp``, and an infinite offset would send
    0 * inf into the derivative of the branch not taken)."""
    return where(logical_and(equal(x, x0), isfinite(x0)), subtract(x, x0), 0.0)


def gradient(f: ArrayLike, *varargs: ArrayLike, axis: Axis = None, edge_order: int = 1) -> Array:
    """``np.gradient(f, *varargs, axis=None, edge_order=1)``: second-order central
    differences inside, first- or second-order one-sided ones at the edges, with uniform
    spacings or coordinates (``varargs``), as NumPy; differentiable in ``f`` and the
    spacings.  One array per axis (a tuple when several).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.gradient(np.array([1.0, 2.0, 4.0, 7.0]))
    array([1. , 1.5, 2.5, 3. ])
    >>> fnp.gradient(np.array([1.0, 2.0, 4.0, 7.0]), 2.0, edge_order=2)
    array([0.25, 0.75, 1.25, 1.75])
    """
    f = asarray(f)
    axes = normalize_axis(axis, f.ndim) if axis is not None else tuple(range(f.ndim))
    if axis is not None and not isinstance(axis, (int, _np.integer)):
        axes = tuple(one_axis(ax, f.ndim) for ax in axis)
    if len(varargs) == 0:
        dx = [1.0] * len(axes)
    elif len(varargs) == 1 and _np.ndim(varargs[0]) == 0:
        dx = list(varargs) * len(axes)
    elif len(varargs) == len(axes):
        dx = []
        for i, distances in enumerate(varargs):
            distances = asarray(distances)
            if distances.ndim == 0:
                dx.append(distances)
                continue
            if distances.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if distances.shape[0] != f.shape[axes[i]]:
                raise ValueError("when 1d, distances must match the length of the "
                                 "corresponding dimension")
            if distances.dtype.kind in "iu":
                distances = astype(distances, _np.float64)
            step = diff(distances)
            if is_concrete(step):
                values = concrete_values(step, "", "")
                if (values == values[0]).all():
                    step = step[0]
            dx.append(step)
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype if f.dtype.kind in "fc" else _np.dtype(_np.float64)
    if f.dtype.kind in "biu":
        f = astype(f, _np.float64)
    outs = []
    for ax, h in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        outs.append(astype(_gradient_along(f, ax, operand(h), edge_order), otype))
    return outs[0] if len(axes) == 1 else tuple(outs)


def _gradient_along(f, axis, h, edge_order):
    g = moveaxis(f, axis, 0)  # differences along the first axis, then moved back
    uniform = _np.ndim(h) == 0
    if uniform:
        inner = divide(subtract(g[2:], g[:-2]), multiply(2.0, h))
    else:
        shape = (-1,) + (1,) * (g.ndim - 1)
        dx1, dx2 = reshape(h[0:-1], shape), reshape(h[1:], shape)
        a = divide(-dx2, multiply(dx1, add(dx1, dx2)))
        b = divide(subtract(dx2, dx1), multiply(dx1, dx2))
        c = divide(dx1, multiply(dx2, add(dx1, dx2)))
        inner = add(add(multiply(a, g[:-2]), multiply(b, g[1:-1])), multiply(c, g[2:]))
    if edge_order == 1:
        first = divide(subtract(g[1:2], g[0:1]), h if uniform else h[0])
        last = divide(subtract(g[-1:], g[-2:-1]), h if uniform else h[-1])
    else:
        if uniform:
            a, b, c = divide(-1.5, h), divide(2.0, h), divide(-0.5, h)
        else:
            dx1, dx2 = h[0], h[1]
            a = divide(-(multiply(2.0, dx1) + dx2), multiply(dx1, add(dx1, dx2)))
            b = divide(add(dx1, dx2), multiply(dx1, dx2))
            c = divide(-dx1, multiply(dx2, add(dx1, dx2)))
        first = add(add(multiply(a, g[0:1]), multiply(b, g[1:2])), multiply(c, g[2:3]))
        if uniform:
            a, b, c = divide(0.5, h), divide(-2.0, h), divide(1.5, h)
        else:
            dx1, dx2 = h[-2], h[-1]
            a = divide(dx2, multiply(dx1, add(dx1, dx2)))
            b = divide(-add(dx2, dx1), multiply(dx1, dx2))
            c = divide(add(multiply(2.0, dx2), dx1), multiply(dx2, add(dx1, dx2)))
        last = add(add(multiply(a, g[-3:-2]), multiply(b, g[-2:-1])), multiply(c, g[-1:]))
    return moveaxis(concatenate([first, inner, last], 0), 0, axis)


def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: ArrayLike = 1.0,
              axis: Axis = -1) -> Array:
    """``np.trapezoid(y, x=None, dx=1.0, axis=-1)``: the integral of the samples ``y``
    by the trapezoidal rule, at points ``x`` or spacing ``dx``; differentiable in all.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fnp.trapezoid(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 3.0])))
    6.5
    >>> fg.grad(fnp.trapezoid)(np.array([1.0, 2.0, 3.0]))
    array([0.5, 1. , 0.5])
    """
    y = asarray(y)
    axis = one_axis(axis, y.ndim)
    if x is None:
        d = operand(dx)
    else:
        x = asarray(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = reshape(d, tuple(shape))
        else:
            d = diff(x, axis=axis)
    hi = tuple(slice(1, None) if i == axis else slice(None) for i in range(y.ndim))
    lo = tuple(slice(None, -1) if i == axis else slice(None) for i in range(y.ndim))
    return sum(divide(multiply(d, add(y[hi], y[lo])), 2.0), axis)


def ediff1d(ary: ArrayLike, to_end: ArrayLike | None = None,
            to_begin: ArrayLike | None = None) -> Array:
    """``np.ediff1d(ary, to_end=None, to_begin=None)``: the differences of the flattened
    array, with ``to_begin`` and ``to_end`` attached.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.ediff1d(np.array([1.0, 2.0, 4.0]), to_begin=-9.0)
    array([-9.,  1.,  2.])
    """
    a = ravel(asarray(ary))
    parts = []
    for extra, name in ((to_begin, "to_begin"), (to_end, "to_end")):
        if extra is None:
            parts.append(None)
            continue
        extra = ravel(asarray(extra))
        if not _np.can_cast(extra.dtype, a.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the "
                            f"`same_kind` rule.")
        parts.append(astype(extra, a.dtype))
    d = subtract(a[1:], a[:-1])
    pieces = [p for p in (parts[0], d, parts[1]) if p is not None]
    return concatenate(pieces) if len(pieces) > 1 else d


def _cumulative(name, scan, identity, x, axis, dtype, include_initial):
    x = asarray(x)
    if x.ndim == 0:  # (NumPy 2's: a 0-d array scans as a 1-d one of one element)
        x = reshape(x, (1,))
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{name}: axis must be specified for multi-dimensional arrays.")
        axis = 0
    axis = one_axis(axis, x.ndim)
    out = scan(x, axis, dtype)
    if include_initial:
        shape = out.shape[:axis] + (1,) + out.shape[axis + 1:]
        out = concatenate([_np.full(shape, identity, out.dtype), out], axis)
    return out


def cumulative_sum(x: ArrayLike, /, *, axis: Axis = None, dtype: DTypeLike | None = None,
                   out: Any = None, include_initial: bool = False) -> Array:
    """``np.cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False)``: the
    array API's cumulative sum (``axis`` needed beyond 1-d; ``include_initial`` prepends
    0).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.cumulative_sum(np.array([1.0, 2.0, 3.0]), include_initial=True)
    array([0., 1., 3., 6.])
    """
    if out is not None:
        return write_out("cumulative_sum", out, cumulative_sum(x, axis=axis, dtype=dtype,
                         include_initial=include_initial), "unsafe")
    return _cumulative("cumulative_sum", cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x: ArrayLike, /, *, axis: Axis = None, dtype: DTypeLike | None = None,
                    out: Any = None, include_initial: bool = False) -> Array:
    """``np.cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False)``: the
    array API's cumulative product (``include_initial`` prepends 1).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.cumulative_prod(np.array([1.0, 2.0, 3.0]))
    array([1., 2., 6.])
    """
    if out is not None:
        return write_out("cumulative_prod", out, cumulative_prod(x, axis=axis, dtype=dtype,
                         include_initial=include_initial), "unsafe")
    return _cumulative("cumulative_prod", cumprod, 1, x, axis, dtype, include_initial)


def unwrap(p: ArrayLike, discont: ArrayLike | None = None, axis: Axis = -1, *,
           period: ArrayLike = 2 * math.pi) -> Array:
    """``np.unwrap(p, discont=None, axis=-1, *, period=2*pi)``: remove jumps larger than
    ``discont`` by adding multiples of ``period``.  The corrections are piecewise
    constant, so the derivative passes straight through.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.unwrap(np.array([0.0, 3.0, 6.5, 0.5]), period=6.0)
    array([0. , 3. , 0.5, 0.5])
    """
    p = asarray(p)
    axis = one_axis(axis, p.ndim)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = _np.result_type(dd.dtype, period)
    if dtype.kind in "iu":
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = add(mod(subtract(dd, low), period), low)
    if ambiguous:
        ddmod = where(logical_and(equal(ddmod, low), greater(dd, 0)),
                      _np.asarray(high, dtype), ddmod)
    correction = subtract(ddmod, dd)
    correction = where(less(abs(dd), discont), _np.zeros((), correction.dtype), correction)
    p = astype(p, dtype)
    tail = tuple(slice(1, None) if i == axis else slice(None) for i in range(p.ndim))
    head = tuple(slice(0, 1) if i == axis else slice(None) for i in range(p.ndim))
    return concatenate([p[head], add(p[tail], cumsum(correction, axis))], axis)

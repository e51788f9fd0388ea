"""``numpy.pad`` with every mode, differentiable.

Axes are padded one after another, as NumPy does (so a corner takes the value the *later*
axis gives it, and a statistic of a later axis sees the padding of the earlier ones).

* ``'edge'``, ``'wrap'`` and the even ``'reflect'``/``'symmetric'`` copy elements: each axis
  is one gather (``take``) whose index map is NumPy's own padding of ``arange(n)``, so the
  values are NumPy's bit for bit and the derivative scatters back (a repeated element
  collects the cotangents of all its copies).
* ``reflect_type='odd'`` computes ``2 * edge - reflected`` chunk by chunk, as NumPy does
  when the pad is wider than the axis (each chunk mirrors about the edge of the previous
  one), with the same arithmetic, so inf and NaN give what NumPy gives.
* ``'maximum'``, ``'minimum'``, ``'mean'`` and ``'median'`` pad with :func:`max`,
  :func:`min`, :func:`mean` or :func:`median` of the first/last ``stat_length`` elements and
  differentiate as those do (tied maxima share the derivative equally...); the mean is
  taken in ``np.mean``'s dtypes (float16 summed in float32, float32 and complex64 sums
  divided in double precision), and integer arrays get the rounded mean or median (half
  to even), as in NumPy.
* ``'linear_ramp'`` repeats :func:`numpy.linspace`'s arithmetic (its dtype, its global
  ``step == 0`` switch), so it is linear in the edge and in ``end_values``.
* ``'constant'`` accepts traced ``constant_values`` (their derivative is summed over the
  cells they fill); ``'empty'`` fills with zeros.
"""
import builtins
import operator
from typing import Any, Callable, Sequence

import numpy as _np

from ..core import internal
from ._convert import asarray, concrete_values
from .constructors import astype
from .indexing import take, where
from .manipulation import broadcast_to, concatenate, flip
from .reductions import any as _any
from .reductions import max, min, sum
from .statistics import median
from .ufuncs import add, divide, equal, floor, multiply, round, subtract
from ..typing import Array, ArrayLike

__all__ = ["pad"]

_KEYWORDS = {"empty": (), "edge": (), "wrap": (), "constant": ("constant_values",),
             "linear_ramp": ("end_values",), "maximum": ("stat_length",),
             "minimum": ("stat_length",), "mean": ("stat_length",), "median": ("stat_length",),
             "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}
_STATS = {"maximum": max, "minimum": min, "mean": None, "median": median}  # (mean: _mean)


def _traced(x):
    if isinstance(x, (list, tuple)):
        return builtins.any(_traced(e) for e in x)
    return not isinstance(x, (_np.ndarray, _np.generic, int, float, complex, bool, type(None)))


def _cut(a, axis, start, stop, step=None):
    """``a[..., start:stop:step, ...]`` with the slice on ``axis``."""
    return a[(slice(None),) * axis + (slice(start, stop, step),)]


def _with(shape, axis, length):
    return shape[:axis] + (length,) + shape[axis + 1:]


# --- the arguments --------------------------------------------------------------------------

def _broadcast_pairs(x, ndim, name):
    """``x`` (a NumPy array) as ``ndim`` pairs, by NumPy's rules: one value for every side,
    one pair for every axis, else broadcast to ``(ndim, 2)``.  The first two give NumPy
    scalars, the last Python scalars (which NumPy 2 then treats as weakly typed)."""
    if x.ndim < 3 and x.size == 1:
        v = x.ravel()[0]
        return [(v, v)] * ndim
    if x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        v = x.ravel()
        return [(v[0], v[1])] * ndim
    try:
        return [tuple(p) for p in _np.broadcast_to(x, (ndim, 2)).tolist()]
    except ValueError:
        raise ValueError(f"pad: {name} of shape {x.shape} does not fit an array with {ndim} "
                         f"axes; give one value, a (before, after) pair, or one pair per "
                         f"axis (shape ({ndim}, 2))") from None


def _index_pairs(x, ndim, name, fix):
    """Non-negative integer pairs (``pad_width``, ``stat_length``), rounded as NumPy does."""
    if _traced(x):
        x = concrete_values(asarray(x), f"pad's {name}", fix)
    x = _np.round(_np.array(x)).astype(_np.intp, copy=False)
    pairs = _broadcast_pairs(x, ndim, name)
    if builtins.any(v < 0 for p in pairs for v in p):
        raise ValueError(f"pad: {name} can't contain negative values (got {x.tolist()}); "
                         f"give sizes >= 0")
    return [(int(lo), int(hi)) for lo, hi in pairs]


def _widths(pad_width, ndim):
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            if isinstance(width, int):
                width = (width, width)
            elif not (isinstance(width, tuple) and len(width) == 2
                      and builtins.all(isinstance(w, int) for w in width)):
                raise TypeError(f"pad: pad_width[{axis!r}] = {width!r}; a dict's values must "
                                f"be an int or a (before, after) tuple of ints")
            try:
                seq[operator.index(axis)] = width
            except (IndexError, TypeError):
                raise IndexError(f"pad: pad_width has the key {axis!r}, which is not an axis "
                                 f"of an array with {ndim} axes; use keys from {-ndim} to "
                                 f"{ndim - 1}") from None
        pad_width = seq
    check = concrete_values(asarray(pad_width), "pad's pad_width",
                            "Pass the widths as Python ints.") if _traced(pad_width) \
        else _np.asarray(pad_width)
    if check.dtype.kind != "i":
        raise TypeError(f"pad: `pad_width` must be of integral type (signed ints), got dtype "
                        f"{check.dtype}; pass ints such as 2, (1, 2) or ((1, 2), (0, 3))")
    return _index_pairs(check, ndim, "pad_width", "Pass the widths as Python ints.")


def _value_pairs(values, ndim, name):
    """``constant_values``/``end_values`` as ``ndim`` pairs: NumPy or Python scalars, or
    0-d traced arrays (kept traced, so their derivative flows)."""
    if not _traced(values):
        x = _np.array(values)
        if x.dtype.kind not in "biufc":
            raise TypeError(f"pad: {name} must be numbers, got {values!r}")
        return _broadcast_pairs(x, ndim, name)
    x = asarray(values)
    if x.ndim < 3 and x.size == 1:
        v = x.reshape(())
        return [(v, v)] * ndim
    if x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        v = x.reshape((2,))
        return [(v[0], v[1])] * ndim
    try:
        x = broadcast_to(x, (ndim, 2))
    except ValueError:
        raise ValueError(f"pad: {name} of shape {x.shape} does not fit an array with {ndim} "
                         f"axes; give one value, a (before, after) pair, or one pair per "
                         f"axis (shape ({ndim}, 2))") from None
    return [(x[i, 0], x[i, 1]) for i in range(ndim)]


# --- the modes, one axis at a time ----------------------------------------------------------

def _fill(value, shape, dtype):
    """An array of ``shape`` filled with ``value`` cast to ``dtype`` as NumPy's item
    assignment casts it (a traced value stays traced)."""
    if _traced(value):
        return broadcast_to(astype(value, dtype), shape)
    cell = _np.empty((), dtype)
    cell[()] = value
    return _np.full(shape, cell, dtype)


def _join(a, axis, left, right):
    parts = [p for p in (left, a, right) if p is not None]
    return concatenate(parts, axis) if len(parts) > 1 else a


def _constant(a, axis, lo, hi, values):
    # (filled even for no cells: NumPy refuses a Python int out of range on every axis)
    left, right = (_fill(v, _with(a.shape, axis, k), a.dtype) for v, k in zip(values, (lo, hi)))
    return _join(a, axis, left if lo else None, right if hi else None)


def _gather(a, axis, lo, hi, mode):
    """Edge, wrap and even reflections copy elements: one gather along ``axis``."""
    extra = {"reflect_type": "even"} if mode in ("reflect", "symmetric") else {}
    index = _np.pad(_np.arange(a.shape[axis]), (lo, hi), mode, **extra)
    return take(a, index, axis=axis)


def _odd(a, axis, lo, hi, symmetric):
    """Odd reflection: chunks of ``2 * edge - mirrored``, each mirrored about the current
    edge, as long as the already valid part allows (so NumPy's values, chunk by chunk)."""
    period = a.shape[axis]
    if period == 1:  # NumPy's legacy: a single element pads as 'edge'
        return _gather(a, axis, lo, hi, "edge")
    skip = 0 if symmetric else 1  # reflect mirrors about the edge element, without it
    while lo > 0 or hi > 0:
        length = a.shape[axis]
        usable = length // period * period if symmetric else \
            (length - 1) // (period - 1) * (period - 1)
        left = right = None
        if lo > 0:
            n = builtins.min(usable, lo)
            chunk = flip(_cut(a, axis, skip, skip + n), axis)
            left = astype(subtract(multiply(2, _cut(a, axis, 0, 1)), chunk), a.dtype)
            lo -= n
        if hi > 0:
            n = builtins.min(usable, hi)
            chunk = flip(_cut(a, axis, length - skip - n, length - skip), axis)
            right = astype(subtract(multiply(2, _cut(a, axis, length - 1, length)), chunk),
                           a.dtype)
            hi -= n
        a = _join(a, axis, left, right)
    return a


def _ramp_dtype(end, dtype):
    """The dtype ``np.linspace(end, edge)`` computes in (NumPy's own answer)."""
    if isinstance(end, (int, float, complex)):  # a Python scalar: weakly typed
        probe = type(end)(0)
    else:
        probe = _np.zeros((), asarray(end).dtype)[()]
    return _np.linspace(probe, _np.zeros((1,), dtype), 1, endpoint=False).dtype


def _ramp(edge, end, width, axis, dtype):
    """``np.linspace(end, edge, width, endpoint=False, dtype=dtype, axis=axis)`` with
    ``edge`` of length 1 along ``axis``: the same operations in the same dtypes."""
    dt = _ramp_dtype(end, dtype)
    start = astype(end, dt) if _traced(end) else _np.asarray(end, dt)
    delta = subtract(astype(edge, dt), start)
    y = _np.arange(0, width, dtype=dt).reshape(_with((1,) * edge.ndim, axis, width))
    step = divide(delta, width)
    y = where(_any(equal(step, 0)), multiply(divide(y, width), delta), multiply(y, step))
    y = add(y, start)
    if _np.issubdtype(dtype, _np.integer):
        y = floor(y)
    return astype(y, dtype)


def _linear_ramp(a, axis, lo, hi, ends):
    n = a.shape[axis]
    left = _ramp(_cut(a, axis, 0, 1), ends[0], lo, axis, a.dtype) if lo else None
    right = flip(_ramp(_cut(a, axis, n - 1, n), ends[1], hi, axis, a.dtype), axis) \
        if hi else None
    return _join(a, axis, left, right)


def _mean(chunk, axis):
    """``np.mean(chunk, axis, keepdims=True)`` in NumPy's dtypes: the sum in float64 for
    integers, float32 for float16, and divided by the count in double precision (float32
    and complex64 means are rounded from float64/complex128 quotients)."""
    kind, n = chunk.dtype.kind, chunk.shape[axis]
    total = _np.float64 if kind in "biu" else \
        _np.float32 if chunk.dtype == _np.float16 else chunk.dtype
    s = sum(astype(chunk, total), axis=axis, keepdims=True)
    quotient = divide(astype(s, _np.result_type(total, _np.intp)), n) if n else \
        multiply(s, _np.nan)  # (NumPy: 0/0, with a warning)
    return astype(quotient, total)


def _stat(a, axis, start, stop, mode):
    chunk = _cut(a, axis, start, stop)
    value = _mean(chunk, axis) if mode == "mean" else \
        _STATS[mode](chunk, axis=axis, keepdims=True)
    if _np.issubdtype(a.dtype, _np.integer) and mode in ("mean", "median"):
        value = round(value)
    return astype(value, a.dtype)


def _statistic(a, axis, lo, hi, lengths, mode):
    n = a.shape[axis]
    left_n, right_n = (n if k is None or k > n else k for k in lengths)
    if (left_n == 0 or right_n == 0) and mode in ("maximum", "minimum"):
        raise ValueError(f"pad: stat_length of 0 yields no value for padding (mode={mode!r}); "
                         f"give stat_length >= 1 or None (the whole axis)")
    left = broadcast_to(_stat(a, axis, 0, left_n, mode), _with(a.shape, axis, lo)) \
        if lo else None
    right = broadcast_to(_stat(a, axis, n - right_n, n, mode), _with(a.shape, axis, hi)) \
        if hi else None
    return _join(a, axis, left, right)


# --- pad ------------------------------------------------------------------------------------

@internal  # its constants (fills, index maps) may move to a device
def pad(array: ArrayLike, pad_width: int | Sequence[Any] | dict[int, Any],
        mode: str | Callable[..., Any] = "constant", **kwargs: Any) -> Array:
    """``np.pad(array, pad_width, mode='constant', **kwargs)``: pad every axis, with NumPy
    2.4's modes and keywords, differentiable.

    ``pad_width``: ``n``, ``(before, after)``, ``((before_0, after_0), ...)`` or
    ``{axis: n or (before, after)}``.  Modes: ``'constant'`` (``constant_values``, which may
    be traced), ``'edge'``, ``'linear_ramp'`` (``end_values``), ``'maximum'``,
    ``'minimum'``, ``'mean'``, ``'median'`` (``stat_length``: how many elements at each end
    the statistic reads, None for all), ``'reflect'`` and ``'symmetric'``
    (``reflect_type='even'`` or ``'odd'``), ``'wrap'`` and ``'empty'`` (zeros here).
    Pads wider than the axis repeat as NumPy's do, and the dtype is kept.  A callable mode
    works on plain arrays only (NumPy runs it, writing in place).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.pad(np.array([1.0, 2.0]), (1, 2))
    array([0., 1., 2., 0., 0.])
    >>> fnp.pad(np.array([1.0, 2.0, 3.0]), 4, mode="reflect")
    array([1., 2., 3., 2., 1., 2., 3., 2., 1., 2., 3.])
    >>> fnp.pad(np.array([[1, 2], [3, 4]]), {1: (0, 1)}, mode="mean")
    array([[1, 2, 2],
           [3, 4, 4]])
    >>> fnp.pad(np.array([1.0, 2.0, 3.0]), 2, mode="wrap")
    array([2., 3., 1., 2., 3., 1., 2.])
    >>> fg.grad(lambda x: fnp.sum(fnp.pad(x, 2, mode="wrap")))(np.array([1.0, 2.0, 3.0]))
    array([2., 3., 2.])
    >>> float(fg.grad(lambda c: fnp.sum(fnp.pad(np.ones(2), 1, constant_values=c)))(0.5))
    2.0
    """
    a = asarray(array)
    widths = _widths(pad_width, a.ndim)
    if callable(mode):
        if _traced(a) or builtins.any(_traced(v) for v in kwargs.values()):
            raise TypeError("pad: a callable mode writes into the padded array in place, "
                            "which a traced array cannot do; use one of the named modes, or "
                            "build the padding with fnp.concatenate")
        return _np.pad(a, widths, mode, **kwargs)
    if mode not in _KEYWORDS:
        raise ValueError(f"pad: mode {mode!r} is not supported; use one of "
                         f"{', '.join(map(repr, _KEYWORDS))}, or a function")
    unsupported = set(kwargs) - set(_KEYWORDS[mode])
    if unsupported:
        raise ValueError(f"pad: unsupported keyword arguments for mode {mode!r}: "
                         f"{sorted(unsupported)}; mode {mode!r} takes "
                         f"{list(_KEYWORDS[mode]) or 'none'}")
    out = _pad(a, widths, mode, kwargs)
    # a new array, as NumPy's, even when nothing was padded
    return out.copy() if out is a and isinstance(a, _np.ndarray) else out


def _pad(a, widths, mode, kwargs):
    """``a`` padded by ``widths`` (checked pairs) in the named ``mode``."""
    if mode in ("constant", "empty"):
        values = _value_pairs(kwargs.get("constant_values", 0), a.ndim, "constant_values")
        for axis, (lo, hi) in enumerate(widths):
            a = _constant(a, axis, lo, hi, values[axis])
        return a
    if a.size == 0:  # only constant padding can extend an empty axis
        for axis, (lo, hi) in enumerate(widths):
            if a.shape[axis] == 0 and (lo or hi):
                raise ValueError(f"pad: can't extend empty axis {axis} using modes other than "
                                 f"'constant' or 'empty' (got mode={mode!r}); pad it with "
                                 f"mode='constant'")
        return _np.zeros(tuple(n + lo + hi for n, (lo, hi) in zip(a.shape, widths)), a.dtype)
    if mode in _STATS:
        lengths = kwargs.get("stat_length")
        lengths = [(None, None)] * a.ndim if lengths is None else _index_pairs(
            lengths, a.ndim, "stat_length", "Pass stat_length as Python ints.")
        for axis, (lo, hi) in enumerate(widths):
            a = _statistic(a, axis, lo, hi, lengths[axis], mode)
        return a
    if mode == "linear_ramp":
        ends = _value_pairs(kwargs.get("end_values", 0), a.ndim, "end_values")
        for axis, (lo, hi) in enumerate(widths):
            a = _linear_ramp(a, axis, lo, hi, ends[axis])
        return a
    odd = False
    if mode in ("reflect", "symmetric"):
        kind = kwargs.get("reflect_type", "even")
        if kind not in ("even", "odd"):
            raise ValueError(f"pad: reflect_type must be 'even' or 'odd', got {kind!r}")
        odd = kind == "odd"
    for axis, (lo, hi) in enumerate(widths):
        if lo or hi:
            a = _odd(a, axis, lo, hi, mode == "symmetric") if odd else \
                _gather(a, axis, lo, hi, mode)
    return a

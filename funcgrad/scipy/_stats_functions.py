"""The summary functions of :mod:`funcgrad.scipy.stats` (re-exported there): ``sem``
(differentiable), ``rankdata`` and ``mode`` (values).

* ``sem``: ``std(a, ddof) / sqrt(n)`` in funcgrad operations, so differentiable; with
  ``nan_policy='omit'`` the NaNs are left out of both.
* ``rankdata``: the ranks are a step function of the data, so their derivative is zero
  wherever it exists: they are computed from the values (on traced data under ``grad``
  too, where the result is a constant), but not under ``vmap``/``jit``, where the values
  are not known (a ``ConcretizationError`` says so).
* ``mode``: the most common value jumps as ties form or break, so it has no useful
  derivative: on traced values it raises (naming ``stop_gradient``), as ``schur`` does.
"""
from typing import NamedTuple, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike

__all__ = ["sem", "rankdata", "mode"]

_POLICIES = ("propagate", "omit", "raise")


def _policy(name, nan_policy):
    if nan_policy not in _POLICIES:
        raise ValueError(f"{name}: nan_policy must be one of {_POLICIES}, got {nan_policy!r}")


def sem(a: ArrayLike, axis: Optional[int] = 0, ddof: int = 1, nan_policy: str = "propagate",
        *, keepdims: bool = False) -> Array:
    """The standard error of the mean, ``std(a, ddof=ddof) / sqrt(n)`` along ``axis``
    (``None``: all of ``a``), as ``scipy.stats.sem``; differentiable.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.stats as fst
    >>> round(float(fst.sem(np.array([1.0, 2.0, 3.0, 4.0])) ** 2), 12)  # var / n = (5/3) / 4
    0.416666666667
    >>> fg.grad(fst.sem)(np.array([1.0, 3.0]))  # (|x1 - x0| / 2)
    array([-0.5,  0.5])
    """
    _policy("sem", nan_policy)
    a = asarray(a)
    if a.dtype.kind in "biu":
        a = fnp.astype(a, np.float64)
    if axis is None:
        if keepdims:  # (every axis kept, with length 1)
            return fnp.reshape(sem(a, None, ddof, nan_policy), (1,) * a.ndim)
        a, axis = fnp.reshape(a, (-1,)), 0
    if nan_policy == "raise" and isinstance(a, np.ndarray) and np.any(np.isnan(a)):
        raise ValueError("sem: the input contains NaN (nan_policy='raise'); pass "
                         "nan_policy='omit' to leave the NaNs out")
    if nan_policy == "omit":
        n = fnp.sum(fnp.logical_not(fnp.isnan(a)), axis=axis, keepdims=keepdims)
        spread = fnp.nanstd(a, axis=axis, ddof=ddof, keepdims=keepdims)
        return spread / fnp.sqrt(fnp.astype(n, spread.dtype))
    n = a.shape[axis]
    return fnp.std(a, axis=axis, ddof=ddof, keepdims=keepdims) / np.sqrt(
        np.asarray(n, dtype=np.float32 if a.dtype == np.float32 else np.float64))


def _ranks(v, method):
    """The ranks (from 1) of the 1-d ``v`` without NaN, by ``method``."""
    n = v.shape[0]
    order = np.argsort(v, kind="stable")
    if method == "ordinal":
        ranks = np.empty(n, np.int64)
        ranks[order] = np.arange(1, n + 1)
        return ranks
    ordered = v[order]
    starts = np.concatenate([[True], ordered[1:] != ordered[:-1]]) if n else np.zeros(0, bool)
    dense = np.empty(n, np.int64)
    dense[order] = np.cumsum(starts)
    if method == "dense":
        return dense
    bounds = np.concatenate([np.nonzero(starts)[0], [n]])  # each group's first place, and n
    low, high = bounds[dense - 1] + 1, bounds[dense]
    return {"min": low, "max": high}.get(method, 0.5 * (low + high))


def rankdata(a: ArrayLike, method: str = "average", *, axis: Optional[int] = None,
             nan_policy: str = "propagate") -> Array:
    """The ranks of ``a``'s values from 1, ties by ``method`` ('average', 'min', 'max',
    'dense', 'ordinal'), over all of ``a`` (``axis=None``, flattened) or along ``axis``,
    as ``scipy.stats.rankdata``.  Ranks are a step function: their derivative is zero.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> fst.rankdata(np.array([3.0, 1.0, 3.0, 2.0]))
    array([3.5, 1. , 3.5, 2. ])
    >>> fst.rankdata(np.array([3.0, 1.0, 3.0, 2.0]), "dense")
    array([3, 1, 3, 2])
    """
    if method not in ("average", "min", "max", "dense", "ordinal"):
        raise ValueError(f"rankdata: method must be 'average', 'min', 'max', 'dense' or "
                         f"'ordinal', got {method!r}")
    _policy("rankdata", nan_policy)
    values = np.asarray(concrete_values(
        a, "rankdata", "ranks are computed from the values: call rankdata outside vmap/jit "
        "(its derivative is zero, so nothing is lost by passing plain values)"))
    if axis is None:
        values, axis = values.reshape(-1), 0
    moved = np.moveaxis(values, axis, -1)
    lines = (moved.reshape(int(np.prod(moved.shape[:-1])), moved.shape[-1]) if moved.ndim
             else moved.reshape(1, 1))
    exact = method != "average"
    out = np.empty(lines.shape, np.int64 if exact else np.float64)
    nan_lines = []
    for i, line in enumerate(lines):
        missing = np.isnan(line) if line.dtype.kind in "fc" else np.zeros(line.shape, bool)
        if missing.any():
            if nan_policy == "raise":
                raise ValueError("rankdata: the input contains NaN (nan_policy='raise'); "
                                 "pass nan_policy='omit' to rank the other values")
            nan_lines.append((i, missing if nan_policy == "omit" else np.ones_like(missing)))
            line = line[~missing] if nan_policy == "omit" else line[:0]
        if line.size:
            out[i, ~missing if missing.any() else slice(None)] = _ranks(line, method)
    if nan_lines:  # (NaN ranks make the result float, as SciPy's)
        out = out.astype(np.float64)
        for i, where in nan_lines:
            out[i, where] = np.nan
    return np.moveaxis(out.reshape(moved.shape), -1, axis) if values.ndim else out.reshape(())


class ModeResult(NamedTuple):
    """``mode``'s result: the most common value and how many times it occurs."""
    mode: Array
    count: Array  # type: ignore[assignment]  # (SciPy's field name; it hides tuple.count)


def mode(a: ArrayLike, axis: Optional[int] = 0, nan_policy: str = "propagate",
         keepdims: bool = False) -> ModeResult:
    """The most common value along ``axis`` (the smallest of equally common ones) and its
    count, as ``scipy.stats.mode``.  Values only: the mode jumps as ties form or break, so
    it has no derivative, and traced values raise.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> fst.mode(np.array([[1.0, 2.0, 2.0], [3.0, 3.0, 1.0]]), axis=None)
    ModeResult(mode=np.float64(1.0), count=np.int64(2))
    """
    _policy("mode", nan_policy)
    if isinstance(a, Tracer):
        raise NotImplementedError(
            "mode: the most common value jumps where ties form or break, so it has no "
            "derivative; call it on plain arrays (fg.stop_gradient(x) if the value is all "
            "you need, outside vmap/jit)")
    values = np.asarray(a)
    if values.dtype.kind not in "biuf":
        raise TypeError(f"mode: a must be a real numeric array, got dtype {values.dtype}")
    kept = (1,) * max(values.ndim, 1) if axis is None else None  # (keepdims over all axes)
    masked = axis is not None and nan_policy == "omit" and values.dtype.kind == "f" and bool(
        np.isnan(values).any())  # (SciPy's masked-array route: float counts)
    if axis is None:
        values, axis = values.reshape(-1), 0
    if values.ndim == 0:
        values, axis = values.reshape(1), 0
    moved = np.moveaxis(values, axis, -1)
    lines = moved.reshape(int(np.prod(moved.shape[:-1])), moved.shape[-1])
    # (integers keep their type, as SciPy's; an empty input has the NaN mode, a float)
    dtype = np.float64 if values.size == 0 or values.dtype.kind == "b" else values.dtype
    modes, counts = np.empty(lines.shape[0], dtype), np.empty(lines.shape[0], np.int64)
    for i, line in enumerate(lines):
        missing = np.isnan(line) if line.dtype.kind == "f" else np.zeros(line.shape, bool)
        if missing.any() and nan_policy == "raise":
            raise ValueError("mode: the input contains NaN (nan_policy='raise'); pass "
                             "nan_policy='omit' to leave the NaNs out")
        if nan_policy == "omit":
            line, missing = line[~missing], missing[~missing]
        if line.size == 0:
            modes[i], counts[i] = np.nan, 0
            continue
        unique, count = np.unique(line[~missing], return_counts=True)
        best = int(np.argmax(count)) if unique.size else -1
        # (NaNs count as one value, after every number: SciPy's propagate)
        if missing.any() and (best < 0 or missing.sum() > count[best]):
            modes[i], counts[i] = np.nan, missing.sum()
        else:
            modes[i], counts[i] = unique[best], count[best]
    shape = moved.shape[:-1]
    if masked or values.size == 0:
        counts = counts.astype(np.float64)
    out_mode, out_count = modes.reshape(shape), counts.reshape(shape)
    if keepdims:
        out_mode, out_count = ((x.reshape(kept) if kept else np.expand_dims(x, axis))
                               for x in (out_mode, out_count))
    if out_mode.ndim == 0:
        return ModeResult(out_mode[()], out_count[()])
    return ModeResult(out_mode, out_count)

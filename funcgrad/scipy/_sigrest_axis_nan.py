"""SciPy's ``axis``, ``nan_policy`` and ``keepdims`` keywords (its ``_axis_nan_policy``
decorator) for statistics written on 1-d samples: ``theilslopes`` and ``siegelslopes``,
whose samples are paired (a position is one observation of each).

``axis=None`` ravels the samples; an integer applies the statistic to every 1-d slice
along it (the other axes broadcast) and stacks each field of the result; ``keepdims``
keeps that axis with length 1.  ``nan_policy``: 'raise' raises on a NaN, 'omit' drops the
observations with a NaN in any sample, 'propagate' gives NaN in every field of a slice
with a NaN (``nan_outputs``) or leaves it to the statistic.
Slices run one at a time: each keeps its own derivative.
"""
from typing import Any, Callable, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..primitives.structural import stop_gradient


def _values(v):
    return np.asarray(concrete_values(stop_gradient(v), "nan_policy (which observations "
                                      "are NaN)", "call it outside jit and vmap"))


def along_axis(name: str, stat: Callable[..., Any], samples: Sequence[Optional[Any]],
               axis: Optional[int], nan_policy: str, keepdims: bool,
               nan_outputs: bool) -> Any:
    """``stat(*slices)`` (a NamedTuple of scalars) under SciPy's keyword semantics."""
    if nan_policy not in ("propagate", "omit", "raise"):
        raise ValueError(f"{name}: nan_policy must be 'propagate', 'omit' or 'raise', got "
                         f"{nan_policy!r}")
    if keepdims not in (True, False):
        raise ValueError(f"{name}: keepdims must be True or False, got {keepdims!r}")
    given = [i for i, s in enumerate(samples) if s is not None]
    arrays = [asarray(s) for s in samples if s is not None]
    ndim = max(a.ndim for a in arrays)
    if axis is None:
        arrays = [fnp.ravel(a) for a in arrays]
        moved = 0
    else:
        if isinstance(axis, bool) or int(axis) != axis or not -max(ndim, 1) <= axis < max(
                ndim, 1):
            raise ValueError(f"{name}: axis {axis!r} is out of bounds for samples of "
                             f"{ndim} dimensions")
        moved = int(axis) % max(ndim, 1)
        arrays = [fnp.reshape(a, (1,) * (ndim - a.ndim) + tuple(a.shape)) for a in arrays]
        try:
            arrays = list(fnp.broadcast_arrays(*arrays))
        except ValueError as error:
            raise ValueError(f"{name}: the samples must broadcast, got shapes "
                             f"{[tuple(a.shape) for a in arrays]}") from error
        arrays = [fnp.moveaxis(a, moved, -1) for a in arrays]
    lead = tuple(arrays[0].shape[:-1])
    nans = np.zeros(lead + arrays[0].shape[-1:], bool)
    for a in arrays:
        nans |= np.isnan(_values(a))
    if nan_policy == "raise" and nans.any():
        raise ValueError("The input contains nan values")
    results = []
    for index in np.ndindex(*lead):
        parts = [a[index] for a in arrays]
        bad = nans[index]
        if bad.any() and nan_policy == "omit":
            keep = np.flatnonzero(~bad)
            parts = [fnp.take(p, keep) for p in parts]
        call = list(samples)
        for i, p in zip(given, parts):
            call[i] = p
        res = stat(*call)
        if bad.any() and nan_policy == "propagate" and nan_outputs:
            res = type(res)(*[fnp.asarray(np.nan) + 0.0 * fnp.asarray(v) for v in res])
        results.append(res)
    if not lead and axis is None and not keepdims:
        return results[0]
    kind = type(results[0])
    fields = []
    for k in range(len(results[0])):
        stacked = fnp.reshape(fnp.stack([fnp.asarray(r[k]) for r in results]), lead)
        if keepdims:
            stacked = (fnp.reshape(stacked, (1,) * max(ndim, 1)) if axis is None
                       else fnp.expand_dims(stacked, moved))
        fields.append(stacked)
    return kind(*fields)

"""``detrend`` of :mod:`funcgrad.scipy.signal` (re-exported there): the least-squares
constant or line of each segment (between SciPy's break points ``bp``) subtracted, in
closed form (means and the slope ``cov(t, y) / var(t)``), so it costs ``O(n)`` and is
linear in ``data``.
"""
from typing import Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike

__all__ = ["detrend"]

def detrend(data: ArrayLike, axis: int = -1, type: str = "linear",  # noqa: A002 - SciPy's
            bp: Union[int, Sequence[int], ArrayLike] = 0, overwrite_data: bool = False
            ) -> Array:
    """``data`` less its least-squares line (``type='linear'``, one per segment between the
    break points ``bp``) or its mean (``'constant'``) along ``axis``
    (``scipy.signal.detrend``); linear, so differentiable.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.detrend(np.array([1.0, 2.0, 3.0, 5.0])).round(12) + 0.0
    array([ 0.2, -0.1, -0.4,  0.3])
    """
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError(f"detrend: type must be 'linear' or 'constant', got {type!r}")
    data = asarray(data)
    if data.dtype.kind in "biu":
        data = fnp.astype(data, np.float64)
    if type in ("constant", "c"):
        return data - fnp.mean(data, axis=axis, keepdims=True)
    axis = axis % data.ndim if data.ndim else 0
    n = data.shape[axis]
    bps = np.unique(np.concatenate([[0], np.atleast_1d(np.asarray(bp, dtype=np.int64)), [n]]))
    if np.any(bps > n) or np.any(bps < 0):
        raise ValueError(f"detrend: the break points bp must lie between 0 and the length "
                         f"of data along axis ({n}), got {bp!r}")
    pieces = []
    for lo, hi in zip(bps[:-1], bps[1:]):
        segment = fnp.take(data, np.arange(lo, hi), axis=axis)
        shape = [1] * data.ndim
        shape[axis] = hi - lo
        t = np.arange(hi - lo, dtype=np.float64)
        t = (t - t.mean()).reshape(shape)
        var = float(np.sum(t * t))
        t = t.astype(np.float32 if data.dtype in (np.float32, np.complex64) else np.float64)
        centred = segment - fnp.mean(segment, axis=axis, keepdims=True)
        if var > 0:  # (a one-point segment has no slope: its mean alone)
            slope = fnp.sum(centred * t, axis=axis, keepdims=True) / var
            centred = centred - slope * t
        pieces.append(centred)
    return pieces[0] if len(pieces) == 1 else fnp.concatenate(pieces, axis=axis)

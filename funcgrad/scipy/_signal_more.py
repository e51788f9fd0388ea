"""More of :mod:`funcgrad.scipy.signal` (re-exported there): ``convolve2d`` and
``correlate2d`` with SciPy's boundary conditions, and ``detrend``.

* ``convolve2d``/``correlate2d``: ``in1`` is extended past its edges as ``boundary`` says
  (``'fill'`` with ``fillvalue``, ``'wrap'`` periodic, ``'symm'`` mirrored with the edge
  repeated), by ``in2``'s size less one on each side, and the 'valid' convolution of that
  is the 'full' result ('same': its centre, as SciPy).  Differentiable in both inputs
  (and ``fillvalue``).
* ``detrend``: the least-squares constant or line of each segment (between SciPy's break
  points ``bp``) subtracted, in closed form (means and the slope ``cov(t, y) / var(t)``),
  so it costs ``O(n)`` and is linear in ``data``.
"""
from typing import Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike

__all__ = ["convolve2d", "correlate2d", "detrend"]

_BOUNDARIES = {"fill": "constant", "pad": "constant", "wrap": "wrap", "circular": "wrap",
               "symm": "symmetric", "symmetric": "symmetric"}


def _two_d(name, in1, in2, mode, boundary):
    in1, in2 = asarray(in1), asarray(in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError(f"{name}: in1 and in2 should be 2-d arrays, got {in1.ndim}-d and "
                         f"{in2.ndim}-d; for other dimensions use convolve/correlate")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"{name}: mode must be 'full', 'same' or 'valid', got {mode!r}")
    if boundary not in _BOUNDARIES:
        raise ValueError(f"{name}: boundary must be 'fill', 'wrap' or 'symm', got "
                         f"{boundary!r}")
    return in1, in2


def _convolve2d(in1, in2, mode, boundary, fillvalue, flipped=False):
    from .signal import convolve
    if mode == "valid":
        return convolve(in1, in2, mode)
    pads = [(m - 1, m - 1) for m in in2.shape]
    if _BOUNDARIES[boundary] == "constant":
        # (in1 - fillvalue padded with zeros, plus fillvalue: a traced fillvalue keeps its
        # derivative)
        extended = fnp.pad(in1 - fillvalue, pads) + fillvalue
    else:
        extended = fnp.pad(in1, pads, mode=_BOUNDARIES[boundary])
    full = convolve(extended, in2, "valid")
    if mode == "full":
        return full
    # 'same': the centre, rounded down for a convolution and up for a correlation (whose
    # kernel was turned), as SciPy's
    start = [(m - 1 + flipped) // 2 for m in in2.shape]
    return full[start[0]:start[0] + in1.shape[0], start[1]:start[1] + in1.shape[1]]


def convolve2d(in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill",
               fillvalue: Union[float, ArrayLike] = 0) -> Array:
    """The 2-d convolution of ``in1`` and ``in2`` (``scipy.signal.convolve2d``), ``in1``
    extended past its edges as ``boundary`` says ('fill' with ``fillvalue``, 'wrap',
    'symm'); ``mode`` 'full', 'same' or 'valid'.  Differentiable in both.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.convolve2d(np.array([[1.0, 2.0], [3.0, 4.0]]), np.ones((2, 2)), boundary="wrap")
    array([[10., 10., 10.],
           [10., 10., 10.],
           [10., 10., 10.]])
    """
    in1, in2 = _two_d("convolve2d", in1, in2, mode, boundary)
    return _convolve2d(in1, in2, mode, boundary, fillvalue)


def correlate2d(in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill",
                fillvalue: Union[float, ArrayLike] = 0) -> Array:
    """The 2-d cross-correlation of ``in1`` and ``in2`` (``scipy.signal.correlate2d``):
    ``convolve2d`` with ``in2`` turned half a turn and conjugated.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.correlate2d(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 0.0]]))
    array([[0., 1., 2.],
           [0., 3., 4.]])
    """
    in1, in2 = _two_d("correlate2d", in1, in2, mode, boundary)
    rev = fnp.flip(fnp.conj(in2) if in2.dtype.kind == "c" else in2, axis=(0, 1))
    return _convolve2d(in1, rev, mode, boundary, fillvalue, flipped=True)


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

"""Savitzky-Golay smoothing and differentiation for ``funcgrad.scipy.signal``:
``savgol_coeffs`` and ``savgol_filter`` with SciPy's signatures and values.

A Savitzky-Golay filter fits a polynomial of degree ``polyorder`` to each window of
``window_length`` samples by least squares and keeps its ``deriv``-th derivative at the
window's centre.  The fit is linear in the samples, so the filter is a correlation with
fixed weights (:func:`savgol_coeffs`, computed with NumPy from the window's geometry) and
is differentiable in ``x`` through funcgrad's correlation; ``delta`` (the sample
spacing) scales the result by ``delta ** -deriv`` and is differentiable too.  With
``mode='interp'`` (SciPy's default) the first and last ``window_length // 2`` outputs
come instead from one polynomial fitted to the first (last) whole window: again fixed
weights, one small matrix per end.  float32 stays float32.
"""
import math
from typing import Any, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._ndimage_filters import _correlate1d
from ._signal_xp import check_xp_device

__all__ = ["savgol_coeffs", "savgol_filter"]

_MODES = ("mirror", "constant", "nearest", "interp", "wrap")


def _window(window_length, polyorder):
    window_length, polyorder = int(window_length), int(polyorder)
    if window_length < 1:
        raise ValueError(f"window_length must be a positive integer, got {window_length}")
    if polyorder < 0:
        raise ValueError(f"polyorder must be a nonnegative integer, got {polyorder}")
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    return window_length, polyorder


def _derivative_weights(positions, centre, polyorder, deriv):
    """The weights ``W`` (``len(at) x len(positions)``) that map samples at ``positions``
    to the ``deriv``-th derivative, at ``centre`` (an array of abscissae), of their
    least-squares polynomial of degree ``polyorder``; unit spacing.  The abscissae are
    shifted and scaled to [-1, 1] first, so the Vandermonde matrix stays well
    conditioned."""
    middle = (positions[0] + positions[-1]) / 2
    half = max((positions[-1] - positions[0]) / 2, 1.0)
    powers = np.arange(polyorder + 1)
    fit = ((positions - middle) / half)[:, None] ** powers
    u = (centre - middle) / half
    factor = np.array([math.perm(j, deriv) if j >= deriv else 0 for j in powers], float)
    evaluate = factor * u[:, None] ** np.maximum(powers - deriv, 0) / half ** deriv
    return evaluate @ np.linalg.pinv(fit)


def _spaced(y, delta, deriv):
    """``y / delta ** deriv``; a Python number keeps ``y``'s dtype (float32 stays)."""
    if not deriv:
        return y
    return y / (delta if isinstance(delta, (int, float)) else asarray(delta)) ** deriv


def savgol_coeffs(window_length: int, polyorder: int, deriv: int = 0,
                  delta: Union[float, ArrayLike] = 1.0, pos: Optional[int] = None,
                  use: str = "conv", *, xp: Any = None, device: Any = None) -> Array:
    """The weights of a Savitzky-Golay filter (``scipy.signal.savgol_coeffs``): the
    ``deriv``-th derivative at sample ``pos`` (default: the window's centre) of the
    least-squares polynomial of degree ``polyorder`` through ``window_length`` samples
    ``delta`` apart, as a linear combination of them; ``use='conv'`` orders them for a
    convolution (reversed), ``'dot'`` for a dot product with the window.  Differentiable
    in ``delta``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.savgol_coeffs(5, 2), 6)
    array([-0.085714,  0.342857,  0.485714,  0.342857, -0.085714])
    >>> np.round(fss.savgol_coeffs(5, 2, deriv=1, use="dot"), 6) + 0.0
    array([-0.2, -0.1,  0. ,  0.1,  0.2])
    """
    check_xp_device(xp, device, "savgol_coeffs")
    window_length, polyorder = _window(window_length, polyorder)
    deriv = int(deriv)
    if deriv < 0:
        raise ValueError(f"deriv must be a nonnegative integer, got {deriv}")
    at = window_length // 2 - 0.5 * (window_length % 2 == 0) if pos is None else pos
    if not 0 <= at < window_length:
        raise ValueError("pos must be nonnegative and less than window_length.")
    if use not in ("conv", "dot"):
        raise ValueError("`use` must be 'conv' or 'dot'")
    positions = np.arange(window_length, dtype=np.float64)
    weights = _derivative_weights(positions, np.array([float(at)]), polyorder, deriv)[0]
    if deriv > polyorder:  # (the polynomial's derivative of that order is 0)
        weights = np.zeros(window_length)
    if use == "conv":
        weights = weights[::-1]
    return _spaced(weights, delta, deriv)


def savgol_filter(x: ArrayLike, window_length: int, polyorder: int, deriv: int = 0,
                  delta: Union[float, ArrayLike] = 1.0, axis: int = -1, mode: str = "interp",
                  cval: Union[float, ArrayLike] = 0.0) -> Array:
    """``x`` smoothed (or differentiated, ``deriv``) along ``axis`` by a Savitzky-Golay
    filter (``scipy.signal.savgol_filter``): each output is the ``deriv``-th derivative at
    the window's centre of the polynomial of degree ``polyorder`` fitted to the
    ``window_length`` samples around it, ``delta`` apart.  ``mode``: how the signal is
    extended past its ends ('mirror', 'constant' with ``cval``, 'nearest', 'wrap'), or
    'interp': the ends are the polynomial fitted to the first (last) window.
    Differentiable in ``x``, ``delta`` and ``cval``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> x = np.array([2.0, 2.0, 5.0, 2.0, 1.0, 0.0, 1.0, 4.0, 9.0])
    >>> np.round(fss.savgol_filter(x, 5, 2), 5)
    array([1.65714, 3.17143, 3.54286, 2.85714, 0.65714, 0.17143, 1.     , 4.     ,
           9.     ])
    """
    window_length, polyorder = _window(window_length, polyorder)
    if mode not in _MODES:
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.")
    x = asarray(x)
    if x.dtype.kind not in "fc":
        x = fnp.astype(x, np.float64)
    if x.ndim == 0:
        raise ValueError("savgol_filter: x must have at least one axis, got a scalar")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"savgol_filter: axis {axis} is out of bounds for x of shape "
                         f"{tuple(x.shape)}")
    deriv = int(deriv)
    weights = savgol_coeffs(window_length, polyorder, deriv, use="dot")
    # (a convolution with the 'conv' weights: a correlation with these, centred as
    # SciPy's convolve1d centres an even window: one sample to the right)
    origin = -1 if window_length % 2 == 0 else 0
    if mode != "interp":
        return _spaced(_correlate1d(x, weights, axis, mode, cval, origin), delta, deriv)
    if window_length > x.shape[axis]:
        raise ValueError("If mode is 'interp', window_length must be less than or equal "
                         "to the size of x.")
    y = _correlate1d(x, weights, axis, "constant", 0.0, origin)
    y = _fitted_ends(fnp.moveaxis(x, axis, -1), fnp.moveaxis(y, axis, -1), window_length,
                     polyorder, deriv)
    return _spaced(fnp.moveaxis(y, -1, axis), delta, deriv)


@internal  # (the end weights follow x to its device)
def _fitted_ends(x, y, window_length, polyorder, deriv):
    """``y`` (axis last) with its first and last ``window_length // 2`` samples replaced by
    the fit to the first and last whole windows of ``x``."""
    n, half = x.shape[-1], window_length // 2
    positions = np.arange(window_length, dtype=np.float64)
    real = np.float32 if x.dtype in (np.float32, np.complex64) else np.float64
    if deriv > polyorder:
        first = last = np.zeros((half, window_length), real)
    else:
        first = _derivative_weights(positions, positions[:half], polyorder, deriv)
        last = _derivative_weights(positions, positions[window_length - half:], polyorder,
                                   deriv)
    first, last = first.astype(real), last.astype(real)
    return fnp.concatenate([fnp.matmul(x[..., :window_length], first.T),
                            y[..., half:n - half],
                            fnp.matmul(x[..., n - window_length:], last.T)], -1)

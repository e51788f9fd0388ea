"""Convolution helpers for :mod:`funcgrad.scipy.signal` (re-exported there):
``oaconvolve`` and ``choose_conv_method``.

``oaconvolve`` has SciPy's signature and results.  SciPy's overlap-add splits the larger
input into blocks to save memory and time; funcgrad computes the same convolution with
one FFT of the full size along ``axes`` (``rfftn``/``irfftn`` for real inputs), then
takes SciPy's 'same' or 'valid' part, so the values agree to FFT rounding and it is
linear in each input (differentiable in both).  ``choose_conv_method`` returns SciPy's
choice for the concrete arrays (a string, or with ``measure=True`` SciPy's timings of its
own ``convolve``): it describes SciPy's implementations, not a derivative.
"""
import operator
from typing import Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike

__all__ = ["oaconvolve", "choose_conv_method"]


def _axes(in1, in2, mode, axes):
    """SciPy's axes of a frequency-domain convolution (those where neither input has
    length 1), and the inputs swapped when 'valid' needs the larger first."""
    s1, s2 = in1.shape, in2.shape
    if axes is None:
        axes = list(range(in1.ndim))
    else:
        axes = [operator.index(a) for a in np.atleast_1d(axes).tolist()]
        if not axes:
            raise ValueError("oaconvolve: when provided, axes cannot be empty")
        if any(not -in1.ndim <= a < in1.ndim for a in axes):
            raise ValueError(f"oaconvolve: axes {axes} exceed the dimensionality of the "
                             f"input ({in1.ndim})")
        axes = [a % in1.ndim for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError(f"oaconvolve: all axes must be unique, got {axes}")
    axes = sorted(a for a in axes if s1[a] != 1 and s2[a] != 1)
    if not all(s1[a] == s2[a] or 1 in (s1[a], s2[a])
               for a in range(in1.ndim) if a not in axes):
        raise ValueError(f"oaconvolve: incompatible shapes for in1 and in2: {s1} and {s2}")
    if mode == "valid":
        larger = all(s1[a] >= s2[a] for a in axes)
        if not (larger or all(s2[a] >= s1[a] for a in axes)):
            raise ValueError(f"oaconvolve: for 'valid' mode, one must be at least as large "
                             f"as the other in every dimension (shapes {s1} and {s2})")
        if not larger:
            in1, in2 = in2, in1
    return in1, in2, axes


def oaconvolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full",
               axes: Optional[Union[int, Sequence[int]]] = None) -> Array:
    """The convolution of ``in1`` and ``in2`` over ``axes`` (default all; the others
    broadcast) (``scipy.signal.oaconvolve``, SciPy's overlap-add method): ``mode``
    'full', 'same' (``in1``'s shape, centred) or 'valid'.  Values to FFT rounding,
    differentiable in both inputs.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.oaconvolve(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5])), 12) + 0.0
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"oaconvolve: acceptable mode flags are 'valid', 'same', or 'full', "
                         f"not mode={mode!r}")
    x, h = asarray(in1), asarray(in2)
    if x.ndim == h.ndim == 0:
        return x * h
    if x.ndim != h.ndim:
        raise ValueError(f"oaconvolve: in1 and in2 should have the same dimensionality, got "
                         f"shapes {x.shape} and {h.shape}")
    if x.size == 0 or h.size == 0:
        return np.asarray([])
    for label, v in (("in1", x), ("in2", h)):
        if v.dtype.kind not in "biufc":
            raise TypeError(f"oaconvolve: {label} must be numeric, got dtype {v.dtype}")
    dtype = np.result_type(x.dtype, h.dtype, np.float32 if x.dtype.kind in "fc"
                           or h.dtype.kind in "fc" else np.float64)
    shape_same = x.shape
    first, second, axes = _axes(fnp.astype(x, dtype), fnp.astype(h, dtype), mode, axes)
    s1, s2 = first.shape, second.shape
    if not axes:
        full = first * second
    else:
        sizes = [s1[a] + s2[a] - 1 for a in axes]
        if dtype.kind == "c":
            full = fnp.fft.ifftn(fnp.fft.fftn(first, sizes, axes)
                                 * fnp.fft.fftn(second, sizes, axes), sizes, axes)
        else:
            full = fnp.fft.irfftn(fnp.fft.rfftn(first, sizes, axes)
                                  * fnp.fft.rfftn(second, sizes, axes), sizes, axes)
        full = fnp.astype(full, dtype)
    if mode == "full":
        return full
    # ('same' is in1's shape along every axis, as SciPy's: a broadcast axis is cut too)
    lengths = (shape_same if mode == "same" else
               [s1[a] - s2[a] + 1 if a in axes else full.shape[a] for a in range(full.ndim)])
    starts = [(f - k) // 2 for f, k in zip(full.shape, lengths)]
    return full[tuple(slice(b, b + k) for b, k in zip(starts, lengths))]


def choose_conv_method(in1: ArrayLike, in2: ArrayLike, mode: str = "full",
                       measure: bool = False) -> Union[str, tuple]:
    """'fft' or 'direct': SciPy's choice of the faster way to convolve ``in1`` and
    ``in2`` (``scipy.signal.choose_conv_method``: its model of the two methods' costs,
    'direct' for booleans and for integers whose exact convolution would exceed
    float64's precision; with ``measure=True``, ``(method, {method: seconds})`` from
    timing SciPy's ``convolve``).  The arrays' values are needed (plain arrays).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.choose_conv_method(np.ones(10), np.ones(3))
    'direct'
    >>> fss.choose_conv_method(np.ones(9000), np.ones(900))
    'fft'
    """
    import scipy.signal  # (here: importing funcgrad never loads SciPy)
    volume = concrete_values(asarray(in1), "choose_conv_method", "Pass plain arrays.")
    kernel = concrete_values(asarray(in2), "choose_conv_method", "Pass plain arrays.")
    return scipy.signal.choose_conv_method(volume, kernel, mode, measure)

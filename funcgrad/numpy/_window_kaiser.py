"""``np.kaiser``, differentiable in its continuous shape parameter ``beta``.

NumPy's own ``kaiser`` converts ``beta`` with ``float()``, so a traced ``beta`` could
only raise; this twin computes the same formula,
``i0(beta * sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta)`` with ``alpha = (M - 1) / 2``,
from :func:`funcgrad.numpy.i0`, whose derivative ``i1`` carries ``d/dbeta``.
"""
import operator

import numpy as _np

from ..core import Tracer
from ._convert import asarray
from .floatfuncs import i0
from ..typing import Array, ArrayLike


def kaiser(M: int, beta: ArrayLike) -> Array:
    """``np.kaiser(M, beta)``: the Kaiser window of ``M`` points, differentiable in ``beta``.

    ``M`` is a Python integer (it fixes the shape); ``beta`` may be traced.  ``M < 1``
    gives an empty array and ``M == 1`` a single one, as NumPy.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> bool(np.allclose(fnp.kaiser(5, 2.5), np.kaiser(5, 2.5)))
    True
    >>> float(np.round(fg.grad(lambda b: fnp.kaiser(5, b)[1])(2.5), 6))
    -0.108127
    """
    M = operator.index(M)
    if not isinstance(beta, Tracer):  # NumPy's own value, bit for bit
        return _np.kaiser(M, beta)
    b = asarray(beta)
    if b.ndim != 0:
        raise ValueError(f"kaiser: beta must be a scalar, got an array of shape {b.shape}; "
                         "call kaiser once per beta (or vmap over beta)")
    if M < 1:
        return _np.array([], dtype=_np.float64)
    if M == 1:
        return _np.ones(1, dtype=_np.float64)
    alpha = (M - 1) / 2.0
    r = _np.sqrt(1 - ((_np.arange(0, M) - alpha) / alpha) ** 2.0)
    return i0(b * r) / i0(b)


__all__ = ["kaiser"]

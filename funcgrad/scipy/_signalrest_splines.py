"""B-spline filters for :mod:`funcgrad.scipy.signal` (re-exported there): the symmetric
IIR filters ``symiirorder1`` and ``symiirorder2``, the spline coefficients ``cspline1d``,
``qspline1d``, ``cspline2d``, ``qspline2d``, the smoothing ``spline_filter``, the
separable FIR filter ``sepfir2d``, ``order_filter`` and ``gauss_spline``, with SciPy's
signatures and values.

The filters are linear in the signal once their parameters (poles, smoothing ``lamb``,
precision, taps) are fixed; SciPy runs them as recursions with mirror-symmetric starting
values summed to a ``precision`` that depends on the dtype.  That linear map, per axis
length, parameters and dtype, is built here once as a matrix, from SciPy's response to
the identity's columns (kept for lines up to 2048 samples), and applied along the axis
by a product: values equal to SciPy's to rounding, and exact derivatives of every order
in the signal, at ``n**2`` per line of length ``n`` (as :mod:`._ndimage_spline` does for
ndimage's prefilter).  The
parameters are plain numbers: a traced one raises ``TypeError``.  ``order_filter`` is
ndimage's ``rank_filter`` with zeros outside (the gradient goes to the chosen sample),
``gauss_spline`` a closed form, differentiable in ``x``.
"""
import functools
import math
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike

__all__ = ["symiirorder1", "symiirorder2", "cspline1d", "qspline1d", "cspline2d",
           "qspline2d", "spline_filter", "sepfir2d", "order_filter", "gauss_spline"]


def _plain(name, **values):
    out = []
    for label, value in values.items():
        if isinstance(value, Tracer):
            raise TypeError(f"{name}: {label} is a traced value, but the filter is a fixed "
                            f"linear map built from SciPy's response, so it has no "
                            f"derivative in {label}; pass it as a plain value (the filter "
                            f"differentiates in the signal)")
        out.append(value)
    return out


def _key(value):
    """A hashable form of a parameter (a number, or a sequence of taps)."""
    array = np.asarray(value)
    return (array.dtype.str, array.shape, array.tobytes())


# Lines up to this length keep their matrix (at most 32 MB each, 32 of them); longer ones
# rebuild it at each call rather than hold gigabytes.
_CACHED_LENGTH = 2048


def _matrix(kind, n, dtype, *params):
    """The ``n x n`` matrix ``M`` of SciPy's filter ``kind`` on lines of ``n`` samples of
    ``dtype``: the filtered line is ``M @ line``."""
    if n <= _CACHED_LENGTH:
        return _cached_matrix(kind, n, dtype, *params)
    return _built_matrix(kind, n, dtype, *params)


def _built_matrix(kind, n, dtype, *params):
    import scipy.signal as ss  # (here: importing funcgrad never loads SciPy)
    args = [np.frombuffer(p[2], dtype=np.dtype(p[0])).reshape(p[1]) for p in params]
    args = [a.item() if a.ndim == 0 else a for a in args]
    eye = np.eye(n, dtype=dtype)
    try:
        rows = _rows(ss, kind, eye, args)
    except ValueError as error:
        if "did not converge" not in str(error):
            raise
        raise ValueError(f"{kind}: a line of {n} samples is too short for the sums of the "
                         f"mirror-symmetric starting values to reach the precision (SciPy: "
                         f"{error}); use longer lines, a larger precision, or poles "
                         f"nearer zero") from None
    rows = np.asarray(rows)
    rows.setflags(write=False)
    return rows.T


_cached_matrix = functools.lru_cache(maxsize=32)(_built_matrix)


def _rows(ss, kind, eye, args):
    """SciPy's filter ``kind`` applied to each row of ``eye``."""
    if kind == "symiirorder1":
        return ss.symiirorder1(eye, *args)
    if kind == "symiirorder2":
        return ss.symiirorder2(eye, *args)
    if kind in ("cspline1d", "qspline1d"):
        return np.stack([getattr(ss, kind)(line, *args) for line in eye])
    # ("sepfir2d": the row filter alone, the column filter the identity)
    return ss.sepfir2d(eye, args[0], np.ones(1, dtype=args[0].dtype))


def _along(x, matrix, axis):
    """``matrix`` applied to every line of ``x`` along ``axis``."""
    moved = fnp.moveaxis(x, axis, -1)
    return fnp.moveaxis(fnp.matmul(moved, matrix.T.astype(
        np.result_type(matrix.dtype, moved.dtype))), -1, axis)


def _floating(name, signal):
    signal = asarray(signal)
    if signal.dtype.kind in "biu":
        return fnp.astype(signal, np.float64)
    if signal.dtype.kind not in "fc":
        raise TypeError(f"{name}: the signal must be numeric, got dtype {signal.dtype}")
    if signal.dtype == np.float16:
        return fnp.astype(signal, np.float32)
    return signal


def _filtered(kind, signal, axes, *params):
    dtype = np.dtype(signal.dtype)
    out = signal
    for axis in axes:
        matrix = _matrix(kind, signal.shape[axis], dtype.str, *[_key(p) for p in params])
        out = _along(out, matrix, axis)
    return out


def symiirorder1(signal: ArrayLike, c0: complex, z1: complex, precision: float = -1.0
                 ) -> Array:
    """The smoothing IIR filter ``c0 / ((1 - z1 z^-1)(1 - z1 z))`` with mirror-symmetric
    boundaries along the last axis of a 1-d or 2-d ``signal``
    (``scipy.signal.symiirorder1``); ``precision`` bounds the starting sums (default by
    dtype).  Linear in the signal, differentiable in it.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.symiirorder1(np.arange(16.0), 0.5, 0.1)[:3].round(6)
    array([0.068587, 0.624143, 1.235254])
    """
    c0, z1, precision = _plain("symiirorder1", c0=c0, z1=z1, precision=precision)
    signal = _floating("symiirorder1", signal)
    if abs(z1) >= 1:
        raise ValueError(f"symiirorder1: |z1| must be less than 1.0, got {abs(z1)}")
    if signal.ndim not in (1, 2):
        raise ValueError(f"symiirorder1: input must be 1D or 2D, got shape {signal.shape}")
    return _filtered("symiirorder1", signal, (-1,), c0, z1, precision)


def symiirorder2(input: ArrayLike, r: float, omega: float, precision: float = -1.0  # noqa: A002
                 ) -> Array:
    """The smoothing IIR filter with the poles ``r exp(+-i omega)`` and mirror-symmetric
    boundaries along the last axis of a 1-d or 2-d real ``input``
    (``scipy.signal.symiirorder2``).  Linear in the input, differentiable in it.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.symiirorder2(np.arange(40.0), 0.5, 0.3)[:3].round(6)
    array([1.211943, 1.604827, 2.274828])
    """
    r, omega, precision = _plain("symiirorder2", r=r, omega=omega, precision=precision)
    signal = _floating("symiirorder2", input)
    if signal.dtype.kind == "c":
        raise TypeError("symiirorder2: the input must be real (as SciPy's)")
    if r >= 1.0:
        raise ValueError(f"symiirorder2: r must be less than 1.0, got {r}")
    if signal.ndim not in (1, 2):
        raise ValueError(f"symiirorder2: input must be 1D or 2D, got shape {signal.shape}")
    return _filtered("symiirorder2", signal, (-1,), r, omega, precision)


def _one_d(name, signal):
    signal = _floating(name, signal)
    if signal.ndim != 1 or signal.shape[0] == 0:
        raise ValueError(f"{name}: the signal must be a non-empty 1-d array, got shape "
                         f"{signal.shape}")
    return signal


def cspline1d(signal: ArrayLike, lamb: float = 0.0) -> Array:
    """The coefficients of the cubic B-spline through the samples ``signal``, with
    mirror-symmetric boundaries, smoothed by ``lamb`` (``scipy.signal.cspline1d``).
    Linear in the signal, differentiable in it.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> x = np.arange(16.0) ** 2 / 16
    >>> fss.cspline1d(x)[:3].round(6)
    array([-0.007626,  0.038128,  0.230115])
    >>> np.allclose(fss.cspline1d_eval(fss.cspline1d(x), np.arange(16.0)), x)
    True
    """
    (lamb,) = _plain("cspline1d", lamb=lamb)
    signal = _one_d("cspline1d", signal)
    return _filtered("cspline1d", signal, (0,), float(lamb))


def qspline1d(signal: ArrayLike, lamb: float = 0.0) -> Array:
    """The coefficients of the quadratic B-spline through the samples ``signal``, with
    mirror-symmetric boundaries (``scipy.signal.qspline1d``; ``lamb`` must be 0).
    Linear in the signal, differentiable in it.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> x = np.arange(16.0) ** 2 / 16
    >>> fss.qspline1d(x)[:3].round(6)
    array([-0.006472,  0.045305,  0.234644])
    """
    (lamb,) = _plain("qspline1d", lamb=lamb)
    if lamb != 0.0:
        raise ValueError("qspline1d: smoothing quadratic splines are not supported (as in "
                         "SciPy); pass lamb=0")
    signal = _one_d("qspline1d", signal)
    return _filtered("qspline1d", signal, (0,), 0.0)


def _precision(precision, dtype):
    if precision < 0.0 or precision >= 1.0:
        return 1e-3 if dtype in (np.float32, np.complex64) else 1e-6
    return precision


def _two_d(name, signal):
    signal = _floating(name, signal)
    if signal.ndim < 1:
        raise ValueError(f"{name}: the signal must have at least one axis")
    return signal


def cspline2d(signal: ArrayLike, lamb: float = 0.0, precision: float = -1.0) -> Array:
    """The coefficients of the cubic B-spline through a 2-d array of samples, with
    mirror-symmetric boundaries, smoothed by ``lamb`` (``scipy.signal.cspline2d``): the
    1-d filter along the last axis, then along the first.  Linear in the signal,
    differentiable in it.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.allclose(fss.cspline2d(np.ones((16, 16))), 1.0)   # (a constant's coefficients)
    True
    """
    lamb, precision = _plain("cspline2d", lamb=lamb, precision=precision)
    signal = _two_d("cspline2d", signal)
    precision = _precision(precision, signal.dtype)
    if lamb <= 1 / 144.0:
        r = -2 + math.sqrt(3.0)
        return _filtered("symiirorder1", signal, (-1, 0), -r * 6.0, r, precision)
    root = math.sqrt(3 + 144 * lamb)
    xi = 1 - 96 * lamb + 24 * lamb * root
    omega = math.atan(math.sqrt((144 * lamb - 1.0) / xi))
    r = ((24 * lamb - 1 - math.sqrt(xi)) / (24 * lamb)
         * math.sqrt(48 * lamb + 24 * lamb * root) / math.sqrt(xi))
    return _filtered("symiirorder2", signal, (-1, 0), r, omega, precision)


def qspline2d(signal: ArrayLike, lamb: float = 0.0, precision: float = -1.0) -> Array:
    """The coefficients of the quadratic B-spline through a 2-d array of samples, with
    mirror-symmetric boundaries (``scipy.signal.qspline2d``; ``lamb`` must be 0).
    Linear in the signal, differentiable in it.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.allclose(fss.qspline2d(np.ones((16, 16))), 1.0)
    True
    """
    lamb, precision = _plain("qspline2d", lamb=lamb, precision=precision)
    if lamb > 0:
        raise ValueError("qspline2d: lambda must be negative or zero")
    signal = _two_d("qspline2d", signal)
    precision = _precision(precision, signal.dtype)
    r = -3 + 2 * math.sqrt(2.0)
    return _filtered("symiirorder1", signal, (-1, 0), -r * 8.0, r, precision)


def sepfir2d(input: ArrayLike, hrow: ArrayLike, hcol: ArrayLike) -> Array:  # noqa: A002
    """The 2-d array ``input`` filtered by the FIR filter ``hrow`` along its rows and
    ``hcol`` along its columns (odd lengths), with mirror-symmetric boundaries
    (``scipy.signal.sepfir2d``).  Linear in the input, differentiable in it.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.sepfir2d(np.array([[1.0, 2.0, 3.0]]), np.array([1.0, 2.0, 1.0]), np.ones(1))
    array([[ 5.,  8., 11.]])
    """
    hrow, hcol = _plain("sepfir2d", hrow=hrow, hcol=hcol)
    signal = _floating("sepfir2d", input)
    if signal.ndim != 2:
        raise ValueError(f"sepfir2d: input must be a 2-d array, got shape {signal.shape}")
    hrow, hcol = np.asarray(hrow), np.asarray(hcol)
    if hrow.ndim != 1 or hcol.ndim != 1 or hrow.size % 2 == 0 or hcol.size % 2 == 0:
        raise ValueError(f"sepfir2d: hrow and hcol must be 1-d with odd lengths, got shapes "
                         f"{hrow.shape} and {hcol.shape}")
    dtype = np.dtype(signal.dtype)
    hrow, hcol = hrow.astype(dtype), hcol.astype(dtype)
    rows = _matrix("sepfir2d", signal.shape[1], dtype.str, _key(hrow))
    cols = _matrix("sepfir2d", signal.shape[0], dtype.str, _key(hcol))
    return _along(_along(signal, rows, 1), cols, 0)


def spline_filter(Iin: ArrayLike, lmbda: float = 5.0) -> Array:  # noqa: N803
    """A 2-d array smoothed by a cubic B-spline: :func:`cspline2d` with smoothing
    ``lmbda``, then evaluated at the samples (``scipy.signal.spline_filter``).  Linear
    in the array, differentiable in it.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.spline_filter(np.ones((40, 40))).shape
    (40, 40)
    """
    Iin = asarray(Iin)  # noqa: N806
    if Iin.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise TypeError(f"spline_filter: invalid data type for Iin: {Iin.dtype} (float32, "
                        f"float64, complex64 or complex128)")
    intype = Iin.dtype
    if intype == np.complex128:  # (SciPy filters it in single precision)
        Iin = fnp.astype(Iin, np.complex64)  # noqa: N806
    taps = np.array([1.0, 4.0, 1.0], np.float32) / 6.0
    coefficients = cspline2d(Iin, lmbda)
    return fnp.astype(sepfir2d(coefficients, taps, taps), intype)


def order_filter(a: ArrayLike, domain: ArrayLike, rank: int) -> Array:
    """The rank-order filter (``scipy.signal.order_filter``): each output is the
    ``rank``-th smallest of the input values where the mask ``domain`` (odd lengths) is
    non-zero, centred on it, with zeros outside the input.  Its derivative is that of
    the chosen sample.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.order_filter(np.arange(5.0), np.ones(3), 1)
    array([0., 1., 2., 3., 3.])
    """
    from ._ndimage_rank import rank_filter
    (domain,) = _plain("order_filter", domain=domain)
    a, domain = asarray(a), np.asarray(domain)
    if domain.ndim != a.ndim:
        raise ValueError(f"order_filter: the domain and the input must have the same number "
                         f"of dimensions, got {domain.ndim} and {a.ndim}")
    if any(s % 2 == 0 for s in domain.shape):
        raise ValueError(f"order_filter: each dimension of domain must be odd, got "
                         f"{domain.shape}")
    count = int(np.count_nonzero(domain))
    if not 0 <= int(rank) < count:
        raise ValueError(f"order_filter: rank {rank} must be between 0 and the number of "
                         f"non-zero elements of domain ({count}) less one")
    return rank_filter(a, int(rank), footprint=domain != 0, mode="constant")


def gauss_spline(x: ArrayLike, n: Any) -> Array:
    """The Gaussian approximation to the B-spline basis function of order ``n``
    (``scipy.signal.gauss_spline``): ``exp(-x^2 / (2 s)) / sqrt(2 pi s)``, ``s = (n +
    1) / 12``.  Differentiable in ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.gauss_spline(np.array([0.0, 1.0]), 3).round(6)
    array([0.690988, 0.15418 ])
    """
    x = asarray(x)
    variance = (n + 1) / 12.0
    return 1 / fnp.sqrt(2 * math.pi * variance) * fnp.exp(-x ** 2 / 2 / variance)

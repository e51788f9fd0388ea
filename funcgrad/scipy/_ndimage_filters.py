"""Separable filters of ``funcgrad.scipy.ndimage``: ``gaussian_filter1d``,
``gaussian_filter``, ``uniform_filter1d`` and ``uniform_filter``, differentiable in the
input (and ``cval``, and ``sigma`` for a fixed ``radius``).

Each pass along an axis is SciPy's ``correlate1d``: the axis extended past its ends as
``mode`` says (SciPy's ``'reflect'`` is NumPy's ``pad`` mode ``'symmetric'``,
``'mirror'`` is ``'reflect'``, ``'nearest'`` is ``'edge'``), its windows gathered and one
matrix product with the weights sums them.  The Gaussian weights are SciPy's
(``_gaussian_kernel1d``: the sampled Gaussian normalized to sum 1, times the Hermite-like
polynomial of its ``order``-th derivative), computed with funcgrad's operations so that
a traced ``sigma`` keeps its derivative.  The radius, ``int(truncate * sigma + 0.5)``
unless ``radius`` is given, is read from ``sigma``'s value: under ``vmap``/``jit`` a
traced ``sigma`` needs ``radius``.  Integer inputs give float64 results (SciPy's keep
the integer type); float32 stays float32.
"""
import numbers
from typing import Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike

__all__ = ["gaussian_filter1d", "gaussian_filter", "uniform_filter1d", "uniform_filter"]

# SciPy's modes -> np.pad's ('constant' is handled apart: cval may be traced)
_PAD_MODES = {"reflect": "symmetric", "grid-mirror": "symmetric", "mirror": "reflect",
              "nearest": "edge", "wrap": "wrap", "grid-wrap": "wrap",
              "constant": None, "grid-constant": None}


def _float_input(name, input, output):
    if output is not None:
        raise TypeError(f"{name}(..., output=...) would write into an array, but funcgrad's "
                        f"results are new arrays: use the returned value")
    x = asarray(input)
    if x.dtype.kind not in "fc":
        x = fnp.astype(x, np.float64)
    return x


def _real(dtype):
    return np.dtype(np.float32 if dtype in (np.float32, np.complex64) else np.float64)


def _check_mode(name, mode):
    if mode not in _PAD_MODES:
        raise ValueError(f"{name}: mode {mode!r} is not one of {tuple(_PAD_MODES)}")


@internal  # (the weights and window indices follow x to its device)
def _correlate1d(x, weights, axis, mode, cval, origin):
    """SciPy's ``correlate1d``: ``out[i] = sum_j weights[j] x[i + j - w // 2 - origin]``
    along ``axis``, ``x`` extended as ``mode`` says."""
    x = fnp.moveaxis(x, axis, -1)
    n, w = x.shape[-1], weights.shape[0]
    left = w // 2 + origin
    pads = [(0, 0)] * (x.ndim - 1) + [(left, w - 1 - left)]
    if n == 0:
        return fnp.moveaxis(x, -1, axis)
    if _PAD_MODES[mode] is None:  # (x - cval padded with zeros, plus cval: cval may be traced)
        padded = fnp.pad(x - cval, pads) + cval
    else:
        padded = fnp.pad(x, pads, mode=_PAD_MODES[mode])
    windows = fnp.take(padded, np.arange(n)[:, None] + np.arange(w)[None, :], axis=-1)
    if weights.dtype.kind != "c":
        weights = fnp.astype(weights, _real(x.dtype))
    out = fnp.matmul(windows, weights)
    return fnp.moveaxis(out, -1, axis)


def _gaussian_weights(sigma, order, radius, dtype):
    """SciPy's ``_gaussian_kernel1d(sigma, order, radius)``, reversed (the correlation
    weights), of funcgrad operations (differentiable in ``sigma``)."""
    x = np.arange(-radius, radius + 1, dtype=np.float64)
    sigma2 = sigma * sigma
    phi = fnp.exp(-0.5 / sigma2 * x ** 2)
    phi = phi / fnp.sum(phi)
    if order:
        # q: the polynomial with (d/dx)^order phi = q(x) phi, from q0 = 1 by
        # q <- q' + q * p' (p' = -x / sigma^2), on coefficients
        derivative = np.diag(np.arange(1.0, order + 1), 1)
        times_x = np.eye(order + 1, k=-1)
        q = np.eye(order + 1)[0]
        for _ in range(order):
            q = fnp.matmul(derivative, q) - fnp.matmul(times_x, q) / sigma2
        phi = fnp.matmul(x[:, None] ** np.arange(order + 1), q) * phi
    return fnp.astype(phi[::-1], dtype)


def _radius(name, sigma, truncate, radius):
    if radius is None:
        value = float(concrete_values(sigma, f"{name}'s radius (int(truncate * sigma + "
                                              f"0.5))", "Pass radius= explicitly."))
        radius = int(truncate * value + 0.5)
    if not isinstance(radius, numbers.Integral) or radius < 0:
        raise ValueError(f"{name}: radius must be a nonnegative integer, got {radius!r}")
    return int(radius)


def gaussian_filter1d(input: ArrayLike, sigma: Union[float, ArrayLike], axis: int = -1,
                      order: int = 0, output: None = None, mode: str = "reflect",
                      cval: float = 0.0, truncate: float = 4.0, *,
                      radius: Optional[int] = None) -> Array:
    """A 1-d Gaussian filter of standard deviation ``sigma`` along ``axis``
    (``scipy.ndimage.gaussian_filter1d``); ``order`` 1, 2... convolves with that
    derivative of the Gaussian.  ``mode``: 'reflect', 'constant' (``cval``), 'nearest',
    'mirror', 'wrap' (and SciPy's 'grid-' aliases); the kernel reaches ``radius``
    (default ``int(truncate * sigma + 0.5)``) samples each way.  Differentiable in
    ``input``, ``cval`` and ``sigma``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> np.round(fnd.gaussian_filter1d(np.array([0.0, 0.0, 1.0, 0.0, 0.0]), 1.0), 4)
    array([0.0584, 0.2421, 0.3989, 0.2421, 0.0584])
    >>> x = np.array([0.0, 0.0, 1.0, 0.0, 0.0])
    >>> float(np.round(fg.grad(lambda s: fnd.gaussian_filter1d(x, s)[2])(1.0), 4))
    -0.3989
    """
    _check_mode("gaussian_filter1d", mode)
    if not isinstance(order, numbers.Integral) or order < 0:
        raise ValueError(f"gaussian_filter1d: order must be a non-negative integer, got "
                         f"{order!r}")
    x = _float_input("gaussian_filter1d", input, output)
    if not -x.ndim <= axis < max(x.ndim, 1):
        raise ValueError(f"gaussian_filter1d: axis {axis} is out of range for an input of "
                         f"{x.ndim} dimensions")
    r = _radius("gaussian_filter1d", sigma, truncate, radius)
    weights = _gaussian_weights(sigma, int(order), r, _real(x.dtype))
    return _correlate1d(x, weights, axis % x.ndim, mode, cval, 0)


def _axes(name, axes, ndim):
    if axes is None:
        return tuple(range(ndim))
    axes = (axes,) if np.isscalar(axes) else tuple(axes)
    for ax in axes:
        if not isinstance(ax, numbers.Integral) or not -ndim <= ax < ndim:
            raise ValueError(f"{name}: axis {ax!r} is out of range for an input of {ndim} "
                             f"dimensions")
    axes = tuple(int(ax) % ndim for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"{name}: axes must be unique, got {axes}")
    return axes


def _per_axis(name, what, value, n):
    """``value`` repeated per axis, or its entries (SciPy's ``_normalize_sequence``)."""
    if isinstance(value, (list, tuple)):
        values = list(value)
    elif not isinstance(value, str) and getattr(value, "ndim", 0) >= 1:
        values = [value[i] for i in range(value.shape[0])]
    else:
        return [value] * n
    if len(values) != n:
        raise RuntimeError(f"{name}: {what} has {len(values)} entries, but there are {n} "
                           f"axes to filter: give one value or one per axis")
    return values


def gaussian_filter(input: ArrayLike, sigma: Union[float, Sequence[float], ArrayLike],
                    order: Union[int, Sequence[int]] = 0, output: None = None,
                    mode: Union[str, Sequence[str]] = "reflect", cval: float = 0.0,
                    truncate: float = 4.0, *, radius: Union[None, int, Sequence[int]] = None,
                    axes: Union[None, int, Sequence[int]] = None) -> Array:
    """A multidimensional Gaussian filter (``scipy.ndimage.gaussian_filter``): 1-d
    Gaussian filters along each of ``axes`` (default all) in turn, ``sigma``, ``order``,
    ``mode`` and ``radius`` each one value or one per axis; an axis whose ``sigma`` is 0
    is left alone.  Differentiable in ``input``, ``cval`` and ``sigma``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> image = np.zeros((3, 3)); image[1, 1] = 1.0
    >>> np.round(fnd.gaussian_filter(image, 0.5, mode="constant"), 4)
    array([[0.0113, 0.0837, 0.0113],
           [0.0837, 0.6187, 0.0837],
           [0.0113, 0.0837, 0.0113]])
    """
    x = _float_input("gaussian_filter", input, output)
    chosen = _axes("gaussian_filter", axes, x.ndim)
    n = len(chosen)
    sigmas = _per_axis("gaussian_filter", "sigma", sigma, n)
    orders = _per_axis("gaussian_filter", "order", order, n)
    modes = _per_axis("gaussian_filter", "mode", mode, n)
    radii = _per_axis("gaussian_filter", "radius", radius, n)
    for ax, s, o, m, r in zip(chosen, sigmas, orders, modes, radii):
        if is_concrete(s) and float(concrete_values(s, "", "")) <= 1e-15:
            continue  # (as SciPy: no filter along this axis)
        x = gaussian_filter1d(x, s, ax, o, None, m, cval, truncate, radius=r)
    return x


def uniform_filter1d(input: ArrayLike, size: int, axis: int = -1, output: None = None,
                     mode: str = "reflect", cval: float = 0.0, origin: int = 0) -> Array:
    """The mean over windows of ``size`` samples along ``axis``
    (``scipy.ndimage.uniform_filter1d``), centred at ``size // 2 + origin``, the ends
    extended as ``mode`` says (see :func:`gaussian_filter1d`).  Differentiable in
    ``input`` and ``cval``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.uniform_filter1d(np.array([1.0, 2.0, 3.0, 4.0]), 3)
    array([1.33333333, 2.        , 3.        , 3.66666667])
    """
    _check_mode("uniform_filter1d", mode)
    x = _float_input("uniform_filter1d", input, output)
    if not isinstance(size, numbers.Integral) or size < 1:
        raise RuntimeError(f"uniform_filter1d: incorrect filter size {size!r}: it must be a "
                           f"positive integer")
    if not 0 <= size // 2 + origin < size:
        raise ValueError(f"uniform_filter1d: invalid origin {origin} for size {size}: "
                         f"size // 2 + origin must lie in [0, size)")
    if not -x.ndim <= axis < max(x.ndim, 1):
        raise ValueError(f"uniform_filter1d: axis {axis} is out of range for an input of "
                         f"{x.ndim} dimensions")
    weights = np.full(int(size), 1.0 / size, _real(x.dtype))
    return _correlate1d(x, weights, axis % x.ndim, mode, cval, int(origin))


def uniform_filter(input: ArrayLike, size: Union[int, Sequence[int]] = 3, output: None = None,
                   mode: Union[str, Sequence[str]] = "reflect", cval: float = 0.0,
                   origin: Union[int, Sequence[int]] = 0, *,
                   axes: Union[None, int, Sequence[int]] = None) -> Array:
    """A multidimensional mean filter (``scipy.ndimage.uniform_filter``):
    :func:`uniform_filter1d` along each of ``axes`` (default all), ``size``, ``origin``
    and ``mode`` one value or one per axis.  Differentiable in ``input`` and ``cval``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.uniform_filter(np.arange(9.0).reshape(3, 3), 3, mode="nearest")
    array([[1.33333333, 2.        , 2.66666667],
           [3.33333333, 4.        , 4.66666667],
           [5.33333333, 6.        , 6.66666667]])
    """
    x = _float_input("uniform_filter", input, output)
    chosen = _axes("uniform_filter", axes, x.ndim)
    n = len(chosen)
    sizes = _per_axis("uniform_filter", "size", size, n)
    origins = _per_axis("uniform_filter", "origin", origin, n)
    modes = _per_axis("uniform_filter", "mode", mode, n)
    for ax, s, o, m in zip(chosen, sizes, origins, modes):
        if s > 1:
            x = uniform_filter1d(x, int(s), ax, None, m, cval, o)
    return x

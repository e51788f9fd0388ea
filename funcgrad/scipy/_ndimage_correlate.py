"""Linear filters of ``funcgrad.scipy.ndimage`` with given weights: ``correlate1d``,
``convolve1d``, ``correlate``, ``convolve``, and the derivative filters built on them
(``sobel``, ``prewitt``, ``laplace``, ``generic_laplace``, ``generic_gradient_magnitude``,
``gaussian_laplace``, ``gaussian_gradient_magnitude``), differentiable in the input, the
weights and ``cval``.

An N-d correlation pads the input once (as ``mode`` says, see :mod:`._ndimage_filters`)
and sums one shifted slice per weight; a weight that is a known zero is skipped, so a
sparse kernel costs what its nonzeros cost.  As SciPy's, correlation conjugates complex
weights and convolution does not; integer inputs give float64 results (SciPy's keep the
integer type), float32 stays float32.
"""
import numbers
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._ndimage_filters import (_PAD_MODES, _axes, _check_mode, _correlate1d, _float_input,
                               _per_axis, _real, gaussian_filter)

__all__ = ["correlate1d", "convolve1d", "correlate", "convolve", "sobel", "prewitt",
           "laplace", "generic_laplace", "generic_gradient_magnitude", "gaussian_laplace",
           "gaussian_gradient_magnitude"]

Modes = Union[str, Sequence[str]]
Axes = Union[None, int, Sequence[int]]


def _filter_operands(name, input, weights, output):
    """The input and weights in the result's dtype (complex when either is, as SciPy)."""
    x = _float_input(name, input, output)
    w = asarray(weights)
    if w.dtype.kind not in "fc":
        w = fnp.astype(w, np.float64)
    if w.dtype.kind == "c" and x.dtype.kind != "c":
        x = fnp.astype(x, np.promote_types(x.dtype, np.complex64))
    return x, fnp.astype(w, x.dtype if w.dtype.kind == "c" else _real(x.dtype))


def _origin_ok(name, origin, size):
    if not isinstance(origin, numbers.Integral):
        raise TypeError(f"{name}: origin must be an integer (or one per axis), got "
                        f"{origin!r}")
    if not 0 <= size // 2 + origin < size:
        raise ValueError(f"{name}: invalid origin {origin} for a filter of size {size}: "
                         f"size // 2 + origin must lie in [0, size)")
    return int(origin)


def _one_axis(name, axis, ndim):
    if not isinstance(axis, numbers.Integral) or not -ndim <= axis < max(ndim, 1):
        raise ValueError(f"{name}: axis {axis!r} is out of range for an input of {ndim} "
                         f"dimensions")
    return int(axis) % max(ndim, 1)


def correlate1d(input: ArrayLike, weights: ArrayLike, axis: int = -1, output: None = None,
                mode: str = "reflect", cval: float = 0.0, origin: int = 0) -> Array:
    """The 1-d correlation of ``input`` with ``weights`` along ``axis``
    (``scipy.ndimage.correlate1d``): ``out[i] = sum_j weights[j] x[i + j - len(weights)
    // 2 - origin]``, ``x`` extended past its ends as ``mode`` says ('reflect',
    'constant' with ``cval``, 'nearest', 'mirror', 'wrap' and the 'grid-' aliases).
    Differentiable in ``input``, ``weights`` and ``cval``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> fnd.correlate1d(np.array([2.0, 8.0, 0.0, 4.0, 1.0, 9.0, 9.0, 0.0]), [1.0, 3.0])
    array([ 8., 26.,  8., 12.,  7., 28., 36.,  9.])
    >>> fg.grad(lambda w: fnd.correlate1d(np.array([1.0, 2.0, 3.0]), w)[1])(
    ...     np.array([1.0, 1.0, 1.0]))
    array([1., 2., 3.])
    """
    _check_mode("correlate1d", mode)
    x, w = _filter_operands("correlate1d", input, weights, output)
    if w.ndim != 1 or w.shape[0] < 1:
        raise RuntimeError(f"correlate1d: weights must be a non-empty 1-d array, got shape "
                           f"{tuple(w.shape)}")
    origin = _origin_ok("correlate1d", origin, w.shape[0])
    if w.dtype.kind == "c":
        w = fnp.conj(w)
    return _correlate1d(x, w, _one_axis("correlate1d", axis, x.ndim), mode, cval, origin)


def convolve1d(input: ArrayLike, weights: ArrayLike, axis: int = -1, output: None = None,
               mode: str = "reflect", cval: float = 0.0, origin: int = 0) -> Array:
    """The 1-d convolution of ``input`` with ``weights`` along ``axis``
    (``scipy.ndimage.convolve1d``): :func:`correlate1d` with the weights reversed (and,
    for an even length, the centre moved as SciPy's).  Differentiable in ``input``,
    ``weights`` and ``cval``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.convolve1d(np.array([2.0, 8.0, 0.0, 4.0, 1.0, 9.0, 9.0, 0.0]), [1.0, 3.0])
    array([14., 24.,  4., 13., 12., 36., 27.,  0.])
    """
    w = asarray(weights)
    if w.ndim != 1 or w.shape[0] < 1:
        raise RuntimeError(f"convolve1d: weights must be a non-empty 1-d array, got shape "
                           f"{tuple(w.shape)}")
    w = w[::-1]
    if w.dtype.kind == "c":
        w = fnp.conj(w)  # (undoes correlate1d's conjugation)
    origin = -_origin_ok("convolve1d", origin, w.shape[0])
    if not w.shape[0] & 1:
        origin -= 1
    return correlate1d(input, w, axis, output, mode, cval, origin)


@internal  # (the padding and its mask follow x to its device)
def _pad(x, pads, mode, cval):
    if _PAD_MODES[mode] is None:  # (selected by a mask: cval may be traced, and stays exact)
        inside = np.pad(np.ones(x.shape, bool), pads)
        return fnp.where(inside, fnp.pad(x, pads), fnp.astype(fnp.asarray(cval), x.dtype))
    return fnp.pad(x, pads, mode=_PAD_MODES[mode])


def _known_zero(w, index):
    return is_concrete(w) and concrete_values(w, "", "")[index] == 0


def _correlate(name, input, weights, output, mode, cval, origin, axes, flip):
    _check_mode(name, mode)
    x, w = _filter_operands(name, input, weights, output)
    chosen = _axes(name, axes, x.ndim)
    if w.ndim != len(chosen):
        raise RuntimeError(f"{name}: weights have {w.ndim} dimensions but there are "
                           f"{len(chosen)} axes to filter: give weights of one dimension per "
                           f"axis")
    if w.size == 0:
        raise RuntimeError(f"{name}: weights must not be empty, got shape {tuple(w.shape)}")
    # SciPy's order: the weights' dimensions follow the axes sorted, origins the axes given
    by_axis = dict(zip(chosen, _per_axis(name, "origin", origin, len(chosen))))
    chosen = tuple(sorted(chosen))
    origins = [by_axis[ax] for ax in chosen]
    if flip:  # convolve: reversed weights, origins mirrored (and moved for an even length)
        w = w[(slice(None, None, -1),) * w.ndim]
        if w.dtype.kind == "c":
            w = fnp.conj(w)
        origins = [-_origin_ok(name, o, s) - (0 if s & 1 else 1)
                   for o, s in zip(origins, w.shape)]
    origins = [_origin_ok(name, o, s) for o, s in zip(origins, w.shape)]
    if w.dtype.kind == "c":
        w = fnp.conj(w)
    if x.size == 0:
        return x
    pads = [(0, 0)] * x.ndim
    for ax, s, o in zip(chosen, w.shape, origins):
        pads[ax] = (s // 2 + o, s - 1 - (s // 2 + o))
    padded = _pad(x, pads, mode, cval)
    out = None
    for k in np.ndindex(*w.shape):
        if _known_zero(w, k):
            continue
        window = [slice(None)] * x.ndim
        for ax, start in zip(chosen, k):
            window[ax] = slice(start, start + x.shape[ax])
        term = w[k] * padded[tuple(window)]
        out = term if out is None else out + term
    return fnp.zeros_like(x) if out is None else out


def correlate(input: ArrayLike, weights: ArrayLike, output: None = None, mode: str = "reflect",
              cval: float = 0.0, origin: Union[int, Sequence[int]] = 0, *,
              axes: Axes = None) -> Array:
    """The multidimensional correlation of ``input`` with ``weights``
    (``scipy.ndimage.correlate``): ``out[i] = sum_k weights[k] x[i + k - c]``, ``c`` the
    weights' centre ``shape // 2 + origin``, over ``axes`` (default all; ``weights`` has
    one dimension per axis, in increasing order of axis, as SciPy's), ``x`` extended as
    ``mode`` says.  Differentiable in
    ``input``, ``weights`` and ``cval``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.correlate(np.arange(9.0).reshape(3, 3), [[0.0, 1.0], [1.0, 0.0]])
    array([[ 0.,  1.,  3.],
           [ 3.,  4.,  6.],
           [ 9., 10., 12.]])
    """
    return _correlate("correlate", input, weights, output, mode, cval, origin, axes, False)


def convolve(input: ArrayLike, weights: ArrayLike, output: None = None, mode: str = "reflect",
             cval: float = 0.0, origin: Union[int, Sequence[int]] = 0, *,
             axes: Axes = None) -> Array:
    """The multidimensional convolution of ``input`` with ``weights``
    (``scipy.ndimage.convolve``): :func:`correlate` with the weights reversed along each
    axis and the origins mirrored.  Differentiable in ``input``, ``weights`` and ``cval``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> a = np.array([[1.0, 2, 0, 0], [5, 3, 0, 4], [0, 0, 0, 7], [9, 3, 0, 0]])
    >>> fnd.convolve(a, np.array([[1.0, 1, 1], [1, 1, 0], [1, 0, 0]]), mode="constant")
    array([[11., 10.,  7.,  4.],
           [10.,  3., 11., 11.],
           [15., 12., 14.,  7.],
           [12.,  3.,  7.,  0.]])
    """
    return _correlate("convolve", input, weights, output, mode, cval, origin, axes, True)


def _sobel_like(name, smooth, input, axis, output, mode, cval):
    x = _float_input(name, input, output)
    axis = _one_axis(name, axis, x.ndim)
    modes = _per_axis(name, "mode", mode, x.ndim)
    out = correlate1d(x, [-1.0, 0.0, 1.0], axis, None, modes[axis], cval, 0)
    for ax in range(x.ndim):
        if ax != axis:
            out = correlate1d(out, smooth, ax, None, modes[ax], cval, 0)
    return out


def sobel(input: ArrayLike, axis: int = -1, output: None = None, mode: Modes = "reflect",
          cval: float = 0.0) -> Array:
    """The Sobel derivative along ``axis`` (``scipy.ndimage.sobel``): the central
    difference ``[-1, 0, 1]`` along ``axis``, smoothed by ``[1, 2, 1]`` along each other
    axis; ``mode`` one value or one per axis.  Differentiable in ``input`` and ``cval``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.sobel(np.array([[0.0, 0, 1], [0, 0, 1], [0, 0, 1]]), axis=1)
    array([[0., 4., 4.],
           [0., 4., 4.],
           [0., 4., 4.]])
    """
    return _sobel_like("sobel", [1.0, 2.0, 1.0], input, axis, output, mode, cval)


def prewitt(input: ArrayLike, axis: int = -1, output: None = None, mode: Modes = "reflect",
            cval: float = 0.0) -> Array:
    """The Prewitt derivative along ``axis`` (``scipy.ndimage.prewitt``): as
    :func:`sobel`, smoothing with ``[1, 1, 1]``.  Differentiable in ``input`` and ``cval``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.prewitt(np.array([[0.0, 0, 1], [0, 0, 1], [0, 0, 1]]), axis=1)
    array([[0., 3., 3.],
           [0., 3., 3.],
           [0., 3., 3.]])
    """
    return _sobel_like("prewitt", [1.0, 1.0, 1.0], input, axis, output, mode, cval)


def generic_laplace(input: ArrayLike, derivative2: Callable[..., Any], output: None = None,
                    mode: Modes = "reflect", cval: float = 0.0,
                    extra_arguments: Sequence[Any] = (),
                    extra_keywords: Optional[dict] = None, *, axes: Axes = None) -> Array:
    """The sum over ``axes`` (default all) of ``derivative2(input, axis, output, mode,
    cval, *extra_arguments, **extra_keywords)``, a second derivative along ``axis``
    (``scipy.ndimage.generic_laplace``); funcgrad passes ``output=None`` and uses what
    ``derivative2`` returns.  ``mode`` is one value or one per axis.  Differentiable as
    ``derivative2`` is.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> d2 = lambda x, axis, output, mode, cval: fnd.correlate1d(x, [1.0, -2.0, 1.0], axis,
    ...                                                          output, mode, cval)
    >>> fnd.generic_laplace(np.array([[0.0, 1, 4], [1, 2, 5], [4, 5, 8]]), d2)
    array([[ 2.,  3., -2.],
           [ 3.,  4., -1.],
           [-2., -1., -6.]])
    """
    x = _float_input("generic_laplace", input, output)
    chosen = _axes("generic_laplace", axes, x.ndim)
    modes = _per_axis("generic_laplace", "mode", mode, len(chosen))
    keywords = extra_keywords or {}
    if not chosen:
        return x
    out: Any = None
    for ax, m in zip(chosen, modes):
        term = derivative2(x, ax, None, m, cval, *extra_arguments, **keywords)
        out = term if out is None else out + term
    return out


def laplace(input: ArrayLike, output: None = None, mode: Modes = "reflect", cval: float = 0.0,
            *, axes: Axes = None) -> Array:
    """The discrete Laplacian (``scipy.ndimage.laplace``): the second differences
    ``[1, -2, 1]`` summed over ``axes`` (default all).  Differentiable in ``input`` and
    ``cval``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.laplace(np.array([[0.0, 1, 4], [1, 2, 5], [4, 5, 8]]))
    array([[ 2.,  3., -2.],
           [ 3.,  4., -1.],
           [-2., -1., -6.]])
    """
    def derivative2(x, axis, output, mode, cval):
        return correlate1d(x, [1.0, -2.0, 1.0], axis, output, mode, cval, 0)
    return generic_laplace(input, derivative2, output, mode, cval, axes=axes)


def _sigmas_on_all_axes(name, sigma, chosen, ndim):
    """SciPy's: ``sigma`` per chosen axis, 0 (no smoothing) on the others."""
    sigmas = _per_axis(name, "sigma", sigma, len(chosen))
    if len(chosen) == ndim:
        return sigmas
    full: list = [0.0] * ndim
    for s, ax in zip(sigmas, chosen):
        full[ax] = s
    return full


def gaussian_laplace(input: ArrayLike, sigma: Union[float, Sequence[float], ArrayLike],
                     output: None = None, mode: Modes = "reflect", cval: float = 0.0, *,
                     axes: Axes = None, **kwargs: Any) -> Array:
    """The Laplacian of a Gaussian filter (``scipy.ndimage.gaussian_laplace``): the sum
    over ``axes`` of :func:`gaussian_filter` with ``order`` 2 along that axis; ``kwargs``
    (``truncate``, ``radius``) go to it.  Differentiable in ``input``, ``cval`` and
    ``sigma``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> np.round(fnd.gaussian_laplace(np.array([0.0, 0, 1, 0, 0]), 1.0), 4)
    array([ 0.1974,  0.002 , -0.3989,  0.002 ,  0.1974])
    """
    x = _float_input("gaussian_laplace", input, output)
    chosen = _axes("gaussian_laplace", axes, x.ndim)
    sigmas = _sigmas_on_all_axes("gaussian_laplace", sigma, chosen, x.ndim)

    def derivative2(x, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * x.ndim
        order[axis] = 2
        return gaussian_filter(x, sigma, order, output, mode, cval, **kwargs)
    return generic_laplace(x, derivative2, None, mode, cval, (sigmas,), kwargs, axes=chosen)


def _norm(squares):
    """``sqrt(squares)``, whose derivative at 0 is 0 (the subgradient PyTorch's ``norm``
    takes there) rather than an infinity times zero."""
    positive = squares > 0
    return fnp.where(positive, fnp.sqrt(fnp.where(positive, squares, 1.0)), 0.0)


def generic_gradient_magnitude(input: ArrayLike, derivative: Callable[..., Any],
                               output: None = None, mode: Modes = "reflect",
                               cval: float = 0.0, extra_arguments: Sequence[Any] = (),
                               extra_keywords: Optional[dict] = None, *,
                               axes: Axes = None) -> Array:
    """``sqrt(sum over axes of derivative(input, axis, output, mode, cval,
    *extra_arguments, **extra_keywords) ** 2)`` (``scipy.ndimage.generic_gradient_magnitude``);
    funcgrad passes ``output=None`` and uses what ``derivative`` returns.  Where the
    magnitude is 0 its derivative is taken as 0 (PyTorch's ``norm`` convention, not NaN).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> d = lambda x, axis, output, mode, cval: fnd.sobel(x, axis, output, mode, cval)
    >>> fnd.generic_gradient_magnitude(np.array([[0.0, 0, 3], [0, 0, 3], [0, 0, 3]]), d)
    array([[ 0., 12., 12.],
           [ 0., 12., 12.],
           [ 0., 12., 12.]])
    """
    x = _float_input("generic_gradient_magnitude", input, output)
    chosen = _axes("generic_gradient_magnitude", axes, x.ndim)
    modes = _per_axis("generic_gradient_magnitude", "mode", mode, len(chosen))
    keywords = extra_keywords or {}
    if not chosen:
        return x
    total = None
    for ax, m in zip(chosen, modes):
        d = derivative(x, ax, None, m, cval, *extra_arguments, **keywords)
        square = d * fnp.conj(d) if d.dtype.kind == "c" else d * d
        total = square if total is None else total + square
    return _norm(fnp.real(total) if total.dtype.kind == "c" else total)


def gaussian_gradient_magnitude(input: ArrayLike,
                                sigma: Union[float, Sequence[float], ArrayLike],
                                output: None = None, mode: Modes = "reflect",
                                cval: float = 0.0, *, axes: Axes = None,
                                **kwargs: Any) -> Array:
    """The gradient magnitude by Gaussian derivatives
    (``scipy.ndimage.gaussian_gradient_magnitude``): the root of the sum over ``axes`` of
    the squared :func:`gaussian_filter` with ``order`` 1 along that axis (``sigma`` as
    :func:`gaussian_filter` takes it: as SciPy's, a single ``sigma`` smooths the axes not
    in ``axes`` too, unlike :func:`gaussian_laplace`'s).  Differentiable in
    ``input``, ``cval`` and ``sigma``; where the magnitude is 0 its derivative is taken as 0.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> np.round(fnd.gaussian_gradient_magnitude(np.array([0.0, 0, 1, 0, 0]), 1.0), 4)
    array([0.0947, 0.2414, 0.    , 0.2414, 0.0947])
    """
    x = _float_input("gaussian_gradient_magnitude", input, output)

    def derivative(x, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * x.ndim
        order[axis] = 1
        return gaussian_filter(x, sigma, order, output, mode, cval, **kwargs)
    return generic_gradient_magnitude(x, derivative, None, mode, cval, (sigma,), kwargs,
                                      axes=axes)

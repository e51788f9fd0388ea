"""Reductions, scans and differences along axes: sum, mean, max, var, cumsum, argmax..."""
import builtins

import numpy as _np

from ..primitives import elementwise as _ew
from ..primitives import reductions as _red
from ..primitives import structural as _st
from ._convert import asarray, normalize_axis, one_axis
from .constructors import astype
from .manipulation import broadcast_to, concatenate, ravel
from .ufuncs import abs_square, isclose, sqrt
from ..typing import Array, ArrayLike, Axis, DTypeLike

__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin", "all", "any", "var", "std",
           "logsumexp", "cumsum", "cumprod", "argmax", "argmin", "diff", "allclose"]


def _reduction(a, axis, dtype=None):
    a = asarray(a)
    if dtype is not None:
        a = astype(a, dtype)
    return a, normalize_axis(axis, a.ndim)


def _no_extras(name, out=None, where=True, initial=None):
    if out is not None:
        raise TypeError(f"{name}: out= is not supported (funcgrad arrays are immutable); use "
                        f"the returned value")
    if where is not True:
        raise TypeError(f"{name}: where= is not supported; mask the input with "
                        f"fnp.where(mask, x, identity) first")
    if initial is not None:
        raise TypeError(f"{name}: initial= is not supported; combine the result with it")


def _count(a, axes):
    """How many elements a reduction over ``axes`` combines."""
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


def sum(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
        keepdims: bool = False, initial: ArrayLike | None = None, where: bool = True) -> Array:  # noqa: A001
    """Sum over ``axis`` (all axes by default).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.sum(np.array([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    array([4., 6.])
    >>> fg.grad(lambda x: fnp.sum(x * x))(np.array([1.0, 2.0]))
    array([2., 4.])
    """
    _no_extras("sum", out, where, initial)
    a, axes = _reduction(a, axis, dtype)
    if a.dtype.kind == "b":
        a = astype(a, _np.intp)
    return _st.reduce_sum(a, axes, keepdims)


def mean(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
         keepdims: bool = False, where: bool = True) -> Array:
    """Arithmetic mean over ``axis``.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.mean)(np.array([1.0, 2.0, 6.0, 7.0]))
    array([0.25, 0.25, 0.25, 0.25])
    """
    _no_extras("mean", out, where)
    a, axes = _reduction(a, axis, dtype)
    if a.dtype.kind in "biu":
        a = astype(a, _np.float64)
    half = a.dtype == _np.float16 and dtype is None  # summed in float32, as NumPy
    if half:
        a = astype(a, _np.float32)
    n = _count(a, axes)
    result = _st.reduce_sum(a, axes, keepdims) / float(n) if n else \
        _st.reduce_sum(a, axes, keepdims) * _np.nan
    return astype(result, _np.float16) if half else result


def prod(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
         keepdims: bool = False, initial: ArrayLike | None = None, where: bool = True) -> Array:
    """Product over ``axis``; its gradient is exact even with zeros in the input.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.prod)(np.array([2.0, 0.0, 3.0]))
    array([0., 6., 0.])
    """
    _no_extras("prod", out, where, initial)
    a, axes = _reduction(a, axis, dtype)
    return _red.reduce_prod(a, axes, keepdims)


def max(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False,
        initial: ArrayLike | None = None, where: bool = True) -> Array:  # noqa: A001
    """Maximum over ``axis``; tied maxima share the derivative equally.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.max)(np.array([3.0, 1.0, 3.0]))
    array([0.5, 0. , 0.5])
    """
    _no_extras("max", out, where, initial)
    a, axes = _reduction(a, axis)
    return _red.reduce_max(a, axes, keepdims)


def min(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False,
        initial: ArrayLike | None = None, where: bool = True) -> Array:  # noqa: A001
    """Minimum over ``axis``; tied minima share the derivative equally.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.min)(np.array([1.0, 2.0, 1.0]))
    array([0.5, 0. , 0.5])
    """
    _no_extras("min", out, where, initial)
    a, axes = _reduction(a, axis)
    return _red.reduce_min(a, axes, keepdims)


amax, amin = max, min


def _empty_reduction(a, axes, keepdims, identity):
    """The result of reducing over a zero-length axis: the identity, as NumPy gives."""
    if builtins.any(a.shape[ax] == 0 for ax in axes):
        return _np.full(_st._reduced_shape(a.shape, axes, keepdims), identity)
    return None


def all(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:  # noqa: A001
    """Whether every element along ``axis`` is true (not differentiable).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.all(np.array([[1.0, 0.0], [2.0, 3.0]]), axis=1)
    array([False,  True])
    """
    a, axes = _reduction(a, axis)
    empty = _empty_reduction(a, axes, keepdims, True)  # min has no identity; all has True
    if empty is not None:
        return empty
    return _red.reduce_min(astype(a, _np.bool_), axes, keepdims)


def any(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:  # noqa: A001
    """Whether some element along ``axis`` is true (not differentiable).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.any(np.array([[1.0, 0.0], [0.0, 0.0]]), axis=1)
    array([ True, False])
    """
    a, axes = _reduction(a, axis)
    empty = _empty_reduction(a, axes, keepdims, False)
    if empty is not None:
        return empty
    return _red.reduce_max(astype(a, _np.bool_), axes, keepdims)


_mean = mean  # (var's and std's keyword mean= shadows it)


def var(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
        ddof: int = 0, keepdims: bool = False, where: bool = True, *,
        mean: ArrayLike | None = None, correction: int | None = None) -> Array:
    """Variance over ``axis`` (``ddof``, or its array-API name ``correction``, and a
    precomputed ``mean`` with the kept axes, as in NumPy).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.var)(np.array([1.0, 3.0]))
    array([-1.,  1.])
    """
    _no_extras("var", out, where)
    if correction is not None:
        if ddof != 0:
            raise ValueError("var: ddof and correction can't be provided simultaneously; "
                             "give one of them")
        ddof = correction
    a, axes = _reduction(a, axis, dtype)
    centered = a - (_mean(a, axis=axes, keepdims=True) if mean is None else mean)
    n = _count(a, axes)
    return _st.reduce_sum(abs_square(centered), axes, keepdims) / float(builtins.max(n - ddof, 0))


def std(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
        ddof: int = 0, keepdims: bool = False, where: bool = True, *,
        mean: ArrayLike | None = None, correction: int | None = None) -> Array:
    """Standard deviation over ``axis`` (the square root of :func:`var`, same arguments).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.std(np.array([1.0, 3.0])))
    1.0
    """
    v = var(a, axis, dtype, out, ddof, keepdims, where, mean=mean, correction=correction)
    # Where the spread is zero, the derivative is 0 (as PyTorch's and HIPS autograd's), not
    # d sqrt(0) = inf times a zero: the double-where keeps both branches finite.
    flat = _ew.equal(v, 0.0)
    return _ew.where(flat, 0.0, sqrt(_ew.where(flat, 1.0, v)))


def logsumexp(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """``log(sum(exp(a)))`` over ``axis`` without overflow; its gradient is softmax.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fnp.logsumexp(np.array([1000.0, 1000.0])))
    1000.6931471805599
    >>> fg.grad(fnp.logsumexp)(np.array([0.0, 0.0]))
    array([0.5, 0.5])
    """
    a, axes = _reduction(a, axis)
    return _red.logsumexp(a, axes, keepdims)


def cumsum(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None) -> Array:
    """Cumulative sum (over the flattened array when ``axis`` is None).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.cumsum(x)))(np.ones(3))
    array([3., 2., 1.])
    """
    a = asarray(a)
    if dtype is not None:
        a = astype(a, dtype)
    if axis is None:
        a, axis = ravel(a), 0
    return _red.cumsum(a, one_axis(axis, a.ndim))


def cumprod(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None) -> Array:
    """Cumulative product; differentiable (exactly, zeros included) as a log-depth scan.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.cumprod(x)[-1])(np.array([2.0, 0.0, 3.0]))
    array([0., 6., 0.])
    """
    a = asarray(a)
    if dtype is not None:
        a = astype(a, dtype)
    if axis is None:
        a, axis = ravel(a), 0
    axis = one_axis(axis, a.ndim)
    if isinstance(a, _np.ndarray):  # plain arrays only: np.cumprod of a Tensor (or a GPU
        return _np.cumprod(a, axis=axis)  # array) would dispatch back here, forever
    last = a.ndim - 1
    return _st.moveaxis(_red.cumprod_last(_st.moveaxis(a, axis, last)), last, axis)


def argmax(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """Index of the maximum along ``axis`` (of the flattened array when None).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> int(fnp.argmax(np.array([1.0, 5.0, 2.0])))
    1
    """
    a = asarray(a)
    if axis is None:
        return _red.argmax(ravel(a), 0)
    return _red.argmax(a, one_axis(axis, a.ndim), keepdims)


def argmin(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """Index of the minimum along ``axis`` (of the flattened array when None).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> int(fnp.argmin(np.array([1.0, 5.0, 0.5])))
    2
    """
    a = asarray(a)
    if axis is None:
        return _red.argmin(ravel(a), 0)
    return _red.argmin(a, one_axis(axis, a.ndim), keepdims)


def diff(a: ArrayLike, n: int = 1, axis: Axis = -1, prepend: ArrayLike | None = None,
         append: ArrayLike | None = None) -> Array:
    """``n``-th discrete difference along ``axis``, after joining ``prepend`` and
    ``append`` (broadcast to the other axes when scalars) at the ends; booleans differ by
    ``!=``, as NumPy.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.diff(np.array([1.0, 4.0, 9.0, 16.0]), n=2)
    array([2., 2.])
    >>> fnp.diff(np.array([1.0, 4.0, 9.0]), prepend=0.0)
    array([1., 3., 5.])
    """
    if n < 0:
        raise ValueError(f"diff: order must be non-negative but got {n!r}")
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional; pass an "
                         "array with a shape")
    axis = one_axis(axis, a.ndim)
    ends = [(prepend, 0), (append, 1)]
    if builtins.any(e is not None for e, _ in ends):
        parts = [a]
        for end, last in ends:
            if end is None:
                continue
            end = asarray(end)
            if end.ndim == 0:
                end = broadcast_to(end, a.shape[:axis] + (1,) + a.shape[axis + 1:])
            parts.insert(len(parts) if last else 0, end)
        a = concatenate(parts, axis)
    for _ in range(n):
        hi = tuple(slice(1, None) if i == axis else slice(None) for i in range(a.ndim))
        lo = tuple(slice(None, -1) if i == axis else slice(None) for i in range(a.ndim))
        a = (a[hi] != a[lo]) if a.dtype == _np.bool_ else a[hi] - a[lo]
    return a


def allclose(a: ArrayLike, b: ArrayLike, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether ``a`` and ``b`` are close everywhere (``isclose`` reduced with ``all``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.allclose(np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-9]))
    True
    """
    return builtins.bool(all(isclose(a, b, rtol, atol, equal_nan)))

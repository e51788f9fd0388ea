"""Reductions, scans and differences along axes: sum, mean, max, var, cumsum, argmax..."""
import builtins
import functools
import warnings
from typing import Any

import numpy as _np

from ..kernels._broadcast import broadcast_shapes
from ..core import Tracer
from ..primitives import elementwise as _ew
from ..primitives import reductions as _red
from ..primitives import structural as _st
from ._convert import (asarray, normalize_axis, one_axis, reduction_axes, scalar_results,
                       write_out)
from .constructors import astype
from .manipulation import broadcast_to, concatenate, ravel
from .ufuncs import abs_square, add, isclose, maximum, minimum, multiply, sqrt
from ..typing import Array, ArrayLike, Axis, DTypeLike

__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin", "all", "any", "var", "std",
           "logsumexp", "cumsum", "cumprod", "argmax", "argmin", "diff", "allclose"]


def _reduction(a, axis):
    """``a`` as an array and the axes a ufunc reduction (sum, prod, max...) of it takes."""
    a = asarray(a)
    return a, reduction_axes(axis, a.ndim)


@functools.lru_cache(maxsize=None)
def _accumulator(numpy_fn, in_dtype, dtype):
    """The dtype NumPy's ``numpy_fn`` (sum, prod, cumsum, cumprod) computes and returns in
    for an ``in_dtype`` input: ``dtype`` when given, else the input's, booleans and
    integers narrower than the platform's promoted to it."""
    if dtype is not None:
        # NumPy's reductions read dtype= by kind only and refuse a byte-swapped one ('>f8':
        # what mean and var pass for a big-endian input); the result is native-endian anyway
        dtype = dtype.newbyteorder("=")
    with warnings.catch_warnings():  # (complex in, real dtype: NumPy warns on the values)
        warnings.simplefilter("ignore")
        return numpy_fn(_np.zeros(1, in_dtype), dtype=dtype).dtype


def _accumulating(numpy_fn, a, dtype):
    """``a`` cast to the dtype NumPy's ``numpy_fn`` computes in, and that dtype.

    The primitives sum and multiply integers in the platform's int (NumPy's default): the
    result agrees with NumPy's in a narrower ``dtype=`` modulo 2**bits, so casting it back
    with :func:`_finished` wraps exactly as NumPy's does (int8: 100 + 100 is -56)."""
    a = asarray(a)
    acc = _accumulator(numpy_fn, a.dtype, None if dtype is None else _np.dtype(dtype))
    return astype(a, acc), acc


def _finished(result, acc):
    """A reduction's ``result`` in the dtype ``acc`` it was computed for."""
    return result if result.dtype == acc else astype(result, acc)


def _plain_float_axes(a, axis, dtype, out, where):
    """The axes of a sum or mean that needs no conversion, selection or checks beyond
    its axis: of a float array or tracer (not a weak Python number), over every axis or
    one valid int axis, with no dtype=, out= or where=; else None (the general steps)."""
    if (dtype is not None or out is not None or where is not True
            or not (type(a) is _np.ndarray or isinstance(a, Tracer))
            or a.dtype.kind not in "fc" or getattr(a, "weak", False)):
        return None
    ndim = len(a.shape)  # (a tracer's ndim is a property that reads its shape property)
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int and -ndim <= axis < ndim:
        return (axis % ndim,)
    return None



def _count(a, axes):
    """How many elements a reduction over ``axes`` combines."""
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


# --- NumPy's where= and initial= --------------------------------------------------------
# Composed from primitives: the elements where= leaves out are replaced by the reduction's
# identity *before* reducing (the double-where idiom: their cotangent is an exact zero, and
# an inf or NaN among them cannot poison the others); initial= is combined afterwards.

def _mask(name, a, where):
    """``where`` broadcast to ``a``'s shape, or None for NumPy's default ``where=True``."""
    if where is True:
        return None
    where = asarray(where)
    if where.dtype != _np.bool_:
        raise TypeError(f"{name}: where= must be a boolean mask (NumPy casts it to bool with "
                        f"the 'safe' rule), not {where.dtype}; pass e.g. where=(w != 0)")
    try:
        fits = broadcast_shapes(where.shape, a.shape) == a.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"{name}: where= of shape {where.shape} does not broadcast to the "
                         f"array's shape {a.shape}; give a mask of that shape (or one that "
                         f"broadcasts to it)")
    return broadcast_to(where, a.shape)


def _select(a, mask, identity):
    """``a`` where ``mask`` holds, the reduction's ``identity`` (in ``a``'s dtype) elsewhere."""
    return a if mask is None else _ew.where(mask, a, _np.asarray(identity, a.dtype))


def _selected(mask, axes, keepdims, dtype):
    """How many elements ``mask`` selects along ``axes``, in ``dtype`` (mean's divisor)."""
    return astype(_st.reduce_sum(astype(mask, _np.intp), axes, keepdims), dtype)


def _initial(name, initial, dtype):
    """``initial=`` as a 0-d value of the result's ``dtype`` (NumPy casts it so)."""
    initial = asarray(initial)
    if initial.ndim:
        raise ValueError(f"{name}: initial= must be a scalar, not an array of shape "
                         f"{initial.shape}; reduce the array first, then combine the results")
    return initial if initial.dtype == dtype else astype(initial, dtype)


def _extreme_value(name, dtype, top):
    """The identity of max (``top`` False: the lowest value) or min (the highest)."""
    if dtype.kind == "f":
        return _np.inf if top else -_np.inf
    if dtype.kind in "iu":
        info = _np.iinfo(dtype)
        return info.max if top else info.min
    if dtype.kind == "b":
        return top
    raise TypeError(f"{name}: where= is not supported for {dtype} arrays; select the "
                    f"elements first (x[mask])")


def _extremum(name, reduce, combine, ufunc_name, top, a, axis, keepdims, initial, where):
    """max/min with NumPy's ``initial`` and ``where``: the masked-out elements become the
    extreme value of the dtype, then ``combine`` (maximum/minimum) with ``initial``, whose
    ties with the reduced value share the derivative equally, as ties inside a reduction do."""
    a, axes = _reduction(a, axis)
    mask = _mask(name, a, where)
    if initial is None:
        if mask is not None:  # NumPy's rule, even when every slice selects something
            raise ValueError(f"{name}: reduction operation '{ufunc_name}' does not have an "
                             f"identity, so to use a where mask one has to specify "
                             f"'initial' (as NumPy); pass e.g. initial="
                             f"{'' if top else '-'}np.inf")
        return reduce(a, axes, keepdims)
    init = _initial(name, initial, a.dtype)
    shape = _st._reduced_shape(a.shape, axes, keepdims)
    if builtins.any(a.shape[ax] == 0 for ax in axes):  # nothing to reduce: initial itself
        out = broadcast_to(init, shape)
        return out.copy() if isinstance(out, _np.ndarray) else out
    if mask is not None:  # (a complex array has no extreme value, and needs none without)
        a = _select(a, mask, _extreme_value(name, a.dtype, top))
    return combine(reduce(a, axes, keepdims), init)


def sum(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
        keepdims: bool = False, initial: ArrayLike | None = None,
        where: ArrayLike = True) -> Array:  # noqa: A001
    """Sum over ``axis`` (all axes by default), of the elements ``where`` selects, plus
    ``initial``.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.sum(np.array([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    array([4., 6.])
    >>> fg.grad(lambda x: fnp.sum(x * x))(np.array([1.0, 2.0]))
    array([2., 4.])
    >>> fg.grad(lambda x: fnp.sum(x * x, where=x > 1.5, initial=10.0))(np.array([1.0, 2.0]))
    array([0., 4.])
    """
    axes = _plain_float_axes(a, axis, dtype, out, where) if initial is None else None
    if axes is not None:
        # The commonest calls (every axis or one axis of a float array: a loss's last
        # steps): what the steps below come to, without their dozen calls.
        return _st.reduce_sum(a, axes, keepdims)
    if out is not None:  # (NumPy casts into out unsafely)
        return write_out("sum", out, sum(a, axis, dtype, None, keepdims, initial, where), "unsafe")
    a, acc = _accumulating(_np.sum, a, dtype)
    a, axes = _reduction(a, axis)
    result = _finished(_st.reduce_sum(_select(a, _mask("sum", a, where), 0), axes, keepdims),
                       acc)
    return result if initial is None else add(result, _initial("sum", initial, result.dtype))


def mean(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
         keepdims: bool = False, where: ArrayLike = True) -> Array:
    """Arithmetic mean over ``axis``, of the elements ``where`` selects (NaN where it
    selects none, as NumPy).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.mean)(np.array([1.0, 2.0, 6.0, 7.0]))
    array([0.25, 0.25, 0.25, 0.25])
    >>> float(fnp.mean(np.array([1.0, 2.0, 6.0]), where=np.array([True, False, True])))
    3.5
    """
    axes = _plain_float_axes(a, axis, dtype, out, where)
    if axes is not None and a.dtype != _np.float16:  # (the steps below, as for sum)
        n = _count(a, axes)
        total = _st.reduce_sum(a, axes, keepdims)
        return total / float(n) if n else total * _np.nan
    if out is not None:  # (NumPy casts into out unsafely)
        return write_out("mean", out, mean(a, axis, dtype, None, keepdims, where), "unsafe")
    a = asarray(a)
    half = a.dtype == _np.float16 and dtype is None  # summed in float32, as NumPy
    if dtype is None:
        dtype = _np.float64 if a.dtype.kind in "biu" else _np.float32 if half else a.dtype
    a, acc = _accumulating(_np.sum, a, dtype)
    axes = normalize_axis(axis, a.ndim)  # (NumPy's mean takes no axis of a 0-d array)
    mask = _mask("mean", a, where)
    total = _finished(_st.reduce_sum(_select(a, mask, 0), axes, keepdims), acc)
    if acc.kind in "biu":  # NumPy divides an integer total in float64, then casts back
        total = astype(total, _np.float64)
    if mask is not None:
        # NaN where nothing is selected, as NumPy, dividing by NaN rather than by 0: 0 / 0
        # would warn in the forward pass and again in the backward one
        n = _selected(mask, axes, keepdims, total.dtype)
        result = total / _ew.where(_ew.equal(n, 0), _np.asarray(_np.nan, n.dtype), n)
    else:
        n = _count(a, axes)
        result = total / float(n) if n else total * _np.nan
    if half:
        return astype(result, _np.float16)
    return astype(result, acc) if acc.kind in "biu" else result


def prod(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
         keepdims: bool = False, initial: ArrayLike | None = None,
         where: ArrayLike = True) -> Array:
    """Product over ``axis`` (of the elements ``where`` selects, times ``initial``); its
    gradient is exact even with zeros in the input.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.prod)(np.array([2.0, 0.0, 3.0]))
    array([0., 6., 0.])
    >>> float(fnp.prod(np.array([2.0, 5.0, 3.0]), where=np.array([True, False, True])))
    6.0
    """
    if out is not None:  # (NumPy casts into out unsafely)
        return write_out("prod", out, prod(a, axis, dtype, None, keepdims, initial, where),
                         "unsafe")
    a, acc = _accumulating(_np.prod, a, dtype)
    a, axes = _reduction(a, axis)
    result = _finished(_red.reduce_prod(_select(a, _mask("prod", a, where), 1), axes,
                                        keepdims), acc)
    return result if initial is None else multiply(result,
                                                   _initial("prod", initial, result.dtype))


def max(a: ArrayLike, axis: Axis = None, out: Any = None, keepdims: bool = False,
        initial: ArrayLike | None = None, where: ArrayLike = True) -> Array:  # noqa: A001
    """Maximum over ``axis``; tied maxima share the derivative equally (a tie with
    ``initial`` too).  ``where`` selects the elements, and then needs ``initial``, as in
    NumPy.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.max)(np.array([3.0, 1.0, 3.0]))
    array([0.5, 0. , 0.5])
    >>> float(fnp.max(np.array([3.0, 1.0]), where=np.array([False, True]), initial=0.0))
    1.0
    """
    if out is not None:  # (NumPy casts into out unsafely)
        return write_out("max", out, max(a, axis, None, keepdims, initial, where), "unsafe")
    return _extremum("max", _red.reduce_max, maximum, "maximum", False, a, axis, keepdims,
                     initial, where)


def min(a: ArrayLike, axis: Axis = None, out: Any = None, keepdims: bool = False,
        initial: ArrayLike | None = None, where: ArrayLike = True) -> Array:  # noqa: A001
    """Minimum over ``axis``; tied minima share the derivative equally (a tie with
    ``initial`` too).  ``where`` selects the elements, and then needs ``initial``, as in
    NumPy.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.min)(np.array([1.0, 2.0, 1.0]))
    array([0.5, 0. , 0.5])
    >>> float(fnp.min(np.array([3.0, 1.0]), initial=2.0))
    1.0
    """
    if out is not None:  # (NumPy casts into out unsafely)
        return write_out("min", out, min(a, axis, None, keepdims, initial, where), "unsafe")
    return _extremum("min", _red.reduce_min, minimum, "minimum", True, a, axis, keepdims,
                     initial, where)


amax, amin = max, min


def _empty_reduction(a, axes, keepdims, identity):
    """The result of reducing over a zero-length axis: the identity, as NumPy gives."""
    if builtins.any(a.shape[ax] == 0 for ax in axes):
        return _np.full(_st._reduced_shape(a.shape, axes, keepdims), identity)
    return None


def _truth(name, a, axis, out, keepdims, where):
    """``all`` (the minimum of the truth values; True over nothing) or ``any`` (their
    maximum; False over nothing): min and max have no identity of their own."""
    if out is not None:  # (NumPy casts into out unsafely)
        return write_out(name, out, _truth(name, a, axis, None, keepdims, where), "unsafe")
    a, axes = _reduction(a, axis)
    identity = name == "all"
    empty = _empty_reduction(a, axes, keepdims, identity)
    if empty is not None:
        return empty
    reduce = _red.reduce_min if identity else _red.reduce_max
    return reduce(_select(astype(a, _np.bool_), _mask(name, a, where), identity), axes,
                  keepdims)


def all(a: ArrayLike, axis: Axis = None, out: Any = None,  # noqa: A001
        keepdims: bool = False, *, where: ArrayLike = True) -> Array:
    """Whether every element along ``axis`` (of those ``where`` selects) is true (not
    differentiable).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.all(np.array([[1.0, 0.0], [2.0, 3.0]]), axis=1)
    array([False,  True])
    """
    return _truth("all", a, axis, out, keepdims, where)


def any(a: ArrayLike, axis: Axis = None, out: Any = None,  # noqa: A001
        keepdims: bool = False, *, where: ArrayLike = True) -> Array:
    """Whether some element along ``axis`` (of those ``where`` selects) is true (not
    differentiable).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.any(np.array([[1.0, 0.0], [0.0, 0.0]]), axis=1)
    array([ True, False])
    """
    return _truth("any", a, axis, out, keepdims, where)


_mean = mean  # (var's and std's keyword mean= shadows it)


def var(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
        ddof: int = 0, keepdims: bool = False, where: ArrayLike = True, *,
        mean: ArrayLike | None = None, correction: int | None = None) -> Array:
    """Variance over ``axis`` of the elements ``where`` selects (``ddof``, or its
    array-API name ``correction``, and a precomputed ``mean`` with the kept axes, as in
    NumPy).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.var)(np.array([1.0, 3.0]))
    array([-1.,  1.])
    >>> float(fnp.var(np.array([1.0, 9.0, 3.0]), where=np.array([True, False, True])))
    1.0
    """
    if out is not None:  # (NumPy casts into out unsafely)
        return write_out("var", out, var(a, axis, dtype, None, ddof, keepdims, where,
                                         mean=mean, correction=correction), "unsafe")
    if correction is not None:
        if ddof != 0:
            raise ValueError("var: ddof and correction can't be provided simultaneously; "
                             "give one of them")
        ddof = correction
    if dtype is not None and _np.dtype(dtype).kind in "biuc":
        return _var_in(_np.dtype(dtype), a, axis, ddof, keepdims, where, mean)
    a = asarray(a) if dtype is None else astype(asarray(a), dtype)
    axes = normalize_axis(axis, a.ndim)  # (as mean's)
    mask = _mask("var", a, where)
    if mean is None:
        mean = _mean(a, axis=axes, keepdims=True, where=True if mask is None else mask)
    # (the left-out elements are zeroed before the subtraction and after it: an inf among
    # them gives neither an inf nor a 0 * inf derivative)
    centered = _select(_select(a, mask, 0) - mean, mask, 0)
    total = _st.reduce_sum(abs_square(centered), axes, keepdims)
    if mask is None:
        return total / float(builtins.max(_count(a, axes) - ddof, 0))
    dof = maximum(_st.reduce_sum(astype(mask, _np.intp), axes, keepdims) - ddof, 0)
    return total / astype(dof, total.dtype)


def _var_in(dtype, a, axis, ddof, keepdims, where, mean):
    """var with a ``dtype=`` that is not a real float, step by step as NumPy computes it:
    both sums run in ``dtype`` (an integer one truncates every squared deviation before
    adding it, so the result is not the float variance rounded) and each division is cast
    back to it.  The result is then piecewise constant in ``a`` for an integer ``dtype``: its
    derivative is zero, and grad refuses its integer output."""
    a = asarray(a)
    axes = normalize_axis(axis, a.ndim)
    mask = _mask("var", a, where)

    def counted(keep):
        if mask is None:
            return float(_count(a, axes))
        return _selected(mask, axes, keep, _np.float64)

    if mean is None:
        total = sum(a, axes, dtype, keepdims=True, where=where)
        mean = astype(total / counted(True), dtype)
    centered = a - mean
    # (NumPy squares a real input's deviations, a complex dtype's included; a complex input
    # has its modulus squared)
    squared = abs_square(centered) if a.dtype.kind == "c" else centered * centered
    total = sum(squared, axes, dtype, keepdims=keepdims, where=where)
    return astype(total / maximum(counted(keepdims) - ddof, 0.0), dtype)


@scalar_results
def std(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: Any = None,
        ddof: int = 0, keepdims: bool = False, where: ArrayLike = True, *,
        mean: ArrayLike | None = None, correction: int | None = None) -> Array:
    """Standard deviation over ``axis`` (the square root of :func:`var`, same arguments).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.std(np.array([1.0, 3.0])))
    1.0
    """
    if out is not None:
        return write_out("std", out, std(a, axis, dtype, None, ddof, keepdims, where, mean=mean,
                                         correction=correction), "same_kind")
    v = var(a, axis, dtype, None, ddof, keepdims, where, mean=mean, correction=correction)
    if v.dtype.kind in "biu" and v.ndim:
        # NumPy takes the root in place, which its casting rule forbids for integers (only
        # a scalar result is truncated back); JAX refuses integer dtypes outright
        raise TypeError(f"std: the square root of a {v.dtype} variance of shape {v.shape} "
                        f"cannot be kept in {v.dtype} (NumPy refuses it too); pass a float "
                        f"dtype=, or take np.sqrt of np.var(..., dtype={v.dtype})")
    # Where the spread is zero, the derivative is 0 (as PyTorch's and HIPS autograd's), not
    # d sqrt(0) = inf times a zero: the double-where keeps both branches finite.
    flat = _ew.equal(v, 0.0)
    root = _ew.where(flat, 0.0, sqrt(_ew.where(flat, 1.0, v)))
    # (an integer or complex dtype= keeps its dtype: NumPy truncates the root of an integer
    # variance)
    return root if root.dtype == v.dtype else astype(root, v.dtype)


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


def cumsum(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None,
           out: Any = None) -> Array:
    """Cumulative sum (over the flattened array when ``axis`` is None).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.cumsum(x)))(np.ones(3))
    array([3., 2., 1.])
    """
    if out is not None:  # (NumPy casts into out unsafely)
        return write_out("cumsum", out, cumsum(a, axis, dtype), "unsafe")
    a, acc = _accumulating(_np.cumsum, a, dtype)
    if axis is None or a.ndim == 0:  # (a 0-d array scans as one element, as NumPy's)
        a, axis = ravel(a), (0 if axis is None else axis)
    return _finished(_red.cumsum(a, one_axis(axis, a.ndim)), acc)


def cumprod(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None,
            out: Any = None) -> Array:
    """Cumulative product, NumPy's values (overflow included); its derivative is exact
    where some elements are zero.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.cumprod(x)[-1])(np.array([2.0, 0.0, 3.0]))
    array([0., 6., 0.])
    """
    if out is not None:  # (NumPy casts into out unsafely)
        return write_out("cumprod", out, cumprod(a, axis, dtype), "unsafe")
    a, acc = _accumulating(_np.cumprod, a, dtype)
    if axis is None or a.ndim == 0:  # (a 0-d array scans as one element, as NumPy's)
        a, axis = ravel(a), (0 if axis is None else axis)
    return _finished(_red.cumprod(a, one_axis(axis, a.ndim)), acc)


def _arg_extreme(name, reduce, a, axis, out, keepdims):
    """``argmax``/``argmin`` (``name``), ``reduce`` the primitive's function."""
    if out is not None:  # (NumPy's: an array of integers, or booleans)
        if getattr(out, "dtype", _np.dtype(int)).kind not in "biu":
            raise TypeError(f"{name}: out= must be an integer array (the indices), not "
                            f"{out.dtype}")
        return write_out(name, out, _arg_extreme(name, reduce, a, axis, None, keepdims),
                         "unsafe")
    a = asarray(a)
    if axis is not None and a.ndim == 0:  # NumPy ravels a 0-d array: axis 0 or -1 only
        one_axis(axis, 1)
        axis = None
    if axis is None:
        flat = reduce(ravel(a), 0)
        return _st.reshape(flat, (1,) * a.ndim) if keepdims else flat
    return reduce(a, one_axis(axis, a.ndim), keepdims)


def argmax(a: ArrayLike, axis: Axis = None, out: Any = None, *,
           keepdims: bool = False) -> Array:
    """Index of the maximum along ``axis`` (of the flattened array when None).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> int(fnp.argmax(np.array([1.0, 5.0, 2.0])))
    1
    """
    return _arg_extreme("argmax", _red.argmax, a, axis, out, keepdims)


def argmin(a: ArrayLike, axis: Axis = None, out: Any = None, *,
           keepdims: bool = False) -> Array:
    """Index of the minimum along ``axis`` (of the flattened array when None).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> int(fnp.argmin(np.array([1.0, 5.0, 0.5])))
    2
    """
    return _arg_extreme("argmin", _red.argmin, a, axis, out, keepdims)


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

"""``funcgrad.numpy``: NumPy's names, differentiable.

Every function here works on plain arrays, Python numbers and lists, and on
traced values inside transforms.  Code written with plain ``import numpy as
np`` works too: traced values implement ``__array_ufunc__`` and
``__array_function__`` and land here.

>>> import funcgrad as fg, funcgrad.numpy as fnp
>>> float(fg.grad(lambda x: fnp.sum(fnp.sin(x) ** 2))(0.5))
0.8414709848078965

Arrays seen by a transform are immutable: write ``x = x.at[i].set(v)``
instead of ``x[i] = v``.
"""
import builtins
import math
import sys as _sys

import numpy as _np
from numpy import (bool_, e, euler_gamma, float16, float32, float64, inf, int8, int16,  # noqa
                   int32, int64, intp, nan, newaxis, pi, uint8, dtype, ndarray, finfo, iinfo,
                   zeros, ones, empty, full, eye, identity, arange, linspace, logspace,
                   geomspace, meshgrid, result_type, issubdtype, floating, integer, inexact)

from ..core import Tracer, _special_classes, _state, internal
from ..primitives import elementwise as _ew, indexing as _ix, linalg as _la, reductions as _red
from ..primitives import structural as _st
from ._convert import asarray, normalize_axis, one_axis, operand

# --- constructors -------------------------------------------------------------------


def array(object, dtype=None, copy=True):  # noqa: A002 - NumPy's name
    """Like ``np.array``; a list holding traced values is stacked into one."""
    out = asarray(object, dtype)
    if copy and isinstance(out, _np.ndarray) and out is object:
        out = out.copy()
    return out


def _on_device_of(a, value):
    """``value`` (a NumPy constant) moved to ``a``'s device when ``a`` is a GPU array."""
    gpu = _sys.modules.get("funcgrad.gpu")
    if gpu is not None and isinstance(a, gpu.GpuArray):
        return gpu.device_put(value, a.device)
    return value


def zeros_like(a, dtype=None, shape=None):
    """Zeros with ``a``'s shape and dtype (a constant, even when ``a`` is traced), on
    ``a``'s device."""
    a = asarray(a)
    return _on_device_of(a, _np.zeros(a.shape if shape is None else shape, dtype or a.dtype))


def ones_like(a, dtype=None, shape=None):
    """Ones with ``a``'s shape and dtype (a constant, even when ``a`` is traced), on
    ``a``'s device."""
    a = asarray(a)
    return _on_device_of(a, _np.ones(a.shape if shape is None else shape, dtype or a.dtype))


def full_like(a, fill_value, dtype=None, shape=None):
    a = asarray(a)
    return _on_device_of(a, _np.full(a.shape if shape is None else shape, fill_value,
                                     dtype or a.dtype))


empty_like = zeros_like


def copy(a):
    """A copy (traced values are immutable, so they are returned as they are)."""
    a = asarray(a)
    return a.copy() if isinstance(a, _np.ndarray) else a


def shape(a):
    return asarray(a).shape


def ndim(a):
    return len(asarray(a).shape)


def size(a, axis=None):
    a = asarray(a)
    return a.size if axis is None else a.shape[axis]


def astype(x, dtype):
    """Cast; casting to an integer or bool type drops the derivative."""
    return _st.convert_element_type(asarray(x), dtype)


def stop_gradient(x):
    return _st.stop_gradient(operand(x))


# --- elementwise --------------------------------------------------------------------------

def _unary(prim, name):
    def f(x):
        if type(x) not in _special_classes:  # tracers pass as they are
            x = operand(x)
        return _state.interpreter.process(prim, (x,), _EMPTY)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Elementwise ``np.{name}``, differentiable."
    return f


def _binary(prim, name):
    def f(x1, x2):
        return _state.interpreter.process(prim, (operand(x1), operand(x2)), _EMPTY)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Elementwise ``np.{name}`` with broadcasting, differentiable."
    return f


_UNARY = ["negative", "abs", "sign", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
          "sqrt", "cbrt", "square", "reciprocal", "sin", "cos", "tan", "arcsin", "arccos",
          "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil",
          "rint", "trunc", "logical_not", "isnan", "isinf", "isfinite"]
_BINARY = ["add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "fmax", "fmin",
           "arctan2", "hypot", "logaddexp", "logaddexp2", "mod", "equal", "not_equal", "less",
           "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor"]
_EMPTY = {}
for _name in _UNARY:
    globals()[_name] = _unary(getattr(_ew, _name + "_p"), _name)
for _name in _BINARY:
    globals()[_name] = _binary(getattr(_ew, _name + "_p"), _name)
del _name

absolute = fabs = abs  # noqa: F821 - defined by the loop above
true_divide = divide  # noqa: F821
remainder = mod  # noqa: F821
fix = trunc  # noqa: F821
arcsinh, arccosh, arctanh = arcsinh, arccosh, arctanh  # noqa: F821,PLW0127
asin, acos, atan, asinh, acosh, atanh, atan2 = (arcsin, arccos, arctan, arcsinh,  # noqa: F821
                                                arccosh, arctanh, arctan2)  # noqa: F821
pow = power  # noqa: A001,F821


def positive(x):
    return operand(x)


def float_power(x1, x2):
    """``x1 ** x2`` computed in float64 (as NumPy's float_power)."""
    return power(astype(x1, float64), x2)  # noqa: F821


def floor_divide(x1, x2):
    """``floor(x1 / x2)``; piecewise constant, so its derivative is zero."""
    return floor(divide(x1, x2))  # noqa: F821


def round(a, decimals=0):  # noqa: A001 - NumPy's name
    """Round to ``decimals`` places (half to even); derivative zero."""
    a = operand(a)
    if decimals == 0:
        return rint(a)  # noqa: F821
    scale = 10.0 ** decimals
    return rint(a * scale) / scale  # noqa: F821


around = round


def deg2rad(x):
    return multiply(x, math.pi / 180.0)  # noqa: F821


def rad2deg(x):
    return multiply(x, 180.0 / math.pi)  # noqa: F821


radians, degrees = deg2rad, rad2deg


def real(x):
    return operand(x)


def conj(x):
    return operand(x)


conjugate = conj


def sinc(x):
    """``sin(pi x) / (pi x)``, 1 at 0 (the division is guarded, so grads stay finite)."""
    x = operand(x)
    zero = equal(x, 0)  # noqa: F821
    safe = where(zero, 1.0, x) * math.pi
    return where(zero, 1.0, sin(safe) / safe)  # noqa: F821


def heaviside(x1, x2):
    x1 = operand(x1)
    return where(less(x1, 0), 0.0, where(equal(x1, 0), x2, 1.0))  # noqa: F821


def where(condition, x=None, y=None):
    """``np.where``: elementwise select (both branches get exact-zero cotangents
    where not taken).  With only ``condition``, the indices where it holds.

    A NaN from *inside* the untaken branch still propagates (``0 * nan``);
    guard that branch's input too (the double-where idiom)::

        safe = fnp.where(x > 0, x, 1.0)
        y = fnp.where(x > 0, fnp.sqrt(safe), 0.0)
    """
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("where takes either 1 or 3 arguments")
    return _ew.where(operand(condition), operand(x), operand(y))


def clip(a, a_min=None, a_max=None, **kwargs):
    """Clip to ``[a_min, a_max]``; outside the interval the derivative is 0."""
    a_min = kwargs.pop("min", a_min)
    a_max = kwargs.pop("max", a_max)
    if kwargs:
        raise TypeError(f"clip got unexpected arguments {sorted(kwargs)}")
    if a_min is None and a_max is None:
        raise ValueError("clip: at least one of a_min and a_max must be given")
    return _ew.clip(operand(a), -inf if a_min is None else operand(a_min),
                    inf if a_max is None else operand(a_max))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = operand(a), operand(b)
    close = less_equal(abs(a - b), atol + rtol * abs(b))  # noqa: F821
    if equal_nan:
        close = logical_or(close, logical_and(isnan(a), isnan(b)))  # noqa: F821
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return builtins.bool(all(isclose(a, b, rtol, atol, equal_nan)))


def _plain_values(a):
    """``a``'s values as a NumPy array, for results that are not differentiable: a Tensor
    (detached) or GPU array as plain values -- handed to NumPy as they are, they would
    dispatch back to funcgrad.numpy forever."""
    from ..core import concrete
    x = concrete(asarray(a))
    if not isinstance(x, _np.ndarray):
        detach = getattr(x, "detach", None)
        x = _np.asarray(detach() if detach is not None else x)
    return x


def nonzero(a):
    """Indices of non-zero entries (needs concrete values; not differentiable)."""
    return _np.nonzero(_plain_values(a))


def argwhere(a):
    return _np.argwhere(_plain_values(a))


# --- reductions ------------------------------------------------------------------------------

def _reduction(a, axis, keepdims, dtype=None):
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


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    """Sum over ``axis`` (all axes by default)."""
    _no_extras("sum", out, where, initial)
    a, axes = _reduction(a, axis, keepdims, dtype)
    if a.dtype.kind == "b":
        a = astype(a, intp)
    return _st.reduce_sum(a, axes, keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, where=True):
    """Arithmetic mean over ``axis``."""
    _no_extras("mean", out, where)
    a, axes = _reduction(a, axis, keepdims, dtype)
    if a.dtype.kind in "biu":
        a = astype(a, float64)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return _st.reduce_sum(a, axes, keepdims) / float(n) if n else \
        _st.reduce_sum(a, axes, keepdims) * nan


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product over ``axis``; its gradient is exact even with zeros in the input."""
    _no_extras("prod", out, where, initial)
    a, axes = _reduction(a, axis, keepdims, dtype)
    return _red.reduce_prod(a, axes, keepdims)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    """Maximum over ``axis``; tied maxima share the derivative equally."""
    _no_extras("max", out, where, initial)
    a, axes = _reduction(a, axis, keepdims)
    return _red.reduce_max(a, axes, keepdims)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):  # noqa: A001
    """Minimum over ``axis``; tied minima share the derivative equally."""
    _no_extras("min", out, where, initial)
    a, axes = _reduction(a, axis, keepdims)
    return _red.reduce_min(a, axes, keepdims)


amax, amin = max, min


def _empty_reduction(a, axes, keepdims, identity):
    """The result of reducing over a zero-length axis: the identity, as NumPy gives."""
    if builtins.any(a.shape[ax] == 0 for ax in axes):
        return _np.full(_st._reduced_shape(a.shape, axes, keepdims), identity)
    return None


def all(a, axis=None, keepdims=False):  # noqa: A001
    a, axes = _reduction(a, axis, keepdims)
    empty = _empty_reduction(a, axes, keepdims, True)  # min has no identity; all has True
    if empty is not None:
        return empty
    return _red.reduce_min(astype(a, bool_), axes, keepdims)


def any(a, axis=None, keepdims=False):  # noqa: A001
    a, axes = _reduction(a, axis, keepdims)
    empty = _empty_reduction(a, axes, keepdims, False)
    if empty is not None:
        return empty
    return _red.reduce_max(astype(a, bool_), axes, keepdims)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=True):
    """Variance over ``axis`` (``ddof`` as in NumPy)."""
    _no_extras("var", out, where)
    a, axes = _reduction(a, axis, keepdims, dtype)
    centered = a - mean(a, axis=axes, keepdims=True)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return _st.reduce_sum(square(centered), axes, keepdims) / float(builtins.max(n - ddof, 0))  # noqa: F821


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=True):
    """Standard deviation over ``axis``."""
    return sqrt(var(a, axis, dtype, out, ddof, keepdims, where))  # noqa: F821


def logsumexp(a, axis=None, keepdims=False):
    """``log(sum(exp(a)))`` over ``axis`` without overflow; its gradient is softmax."""
    a, axes = _reduction(a, axis, keepdims)
    return _red.logsumexp(a, axes, keepdims)


def cumsum(a, axis=None, dtype=None):
    """Cumulative sum (over the flattened array when ``axis`` is None)."""
    a = asarray(a)
    if dtype is not None:
        a = astype(a, dtype)
    if axis is None:
        a, axis = ravel(a), 0
    return _red.cumsum(a, one_axis(axis, a.ndim))


def cumprod(a, axis=None, dtype=None):
    """Cumulative product; differentiable (exactly, zeros included) as a log-depth scan."""
    a = asarray(a)
    if dtype is not None:
        a = astype(a, dtype)
    if axis is None:
        a, axis = ravel(a), 0
    axis = one_axis(axis, a.ndim)
    if isinstance(a, _np.ndarray):  # plain arrays only: np.cumprod of a Tensor (or a GPU
        return _np.cumprod(a, axis=axis)  # array) would dispatch back here, forever
    a = _st.moveaxis(a, axis, a.ndim - 1)
    n, step = a.shape[-1], 1
    while step < n:  # Hillis-Steele scan: y[i] *= y[i - step]
        a = concatenate([a[..., :step], a[..., step:] * a[..., :n - step]], axis=-1)
        step *= 2
    return _st.moveaxis(a, a.ndim - 1, axis)


def argmax(a, axis=None, keepdims=False):
    a = asarray(a)
    if axis is None:
        return _red.argmax(ravel(a), 0)
    return _red.argmax(a, one_axis(axis, a.ndim), keepdims)


def argmin(a, axis=None, keepdims=False):
    a = asarray(a)
    if axis is None:
        return _red.argmin(ravel(a), 0)
    return _red.argmin(a, one_axis(axis, a.ndim), keepdims)


def diff(a, n=1, axis=-1):
    """``n``-th discrete difference along ``axis``."""
    a = asarray(a)
    axis = one_axis(axis, a.ndim)
    for _ in range(n):
        hi = tuple(slice(1, None) if i == axis else slice(None) for i in range(a.ndim))
        lo = tuple(slice(None, -1) if i == axis else slice(None) for i in range(a.ndim))
        a = a[hi] - a[lo]
    return a


# --- shapes -------------------------------------------------------------------------------------

def reshape(a, newshape=None, order="C", shape=None):
    """Reshape (``-1`` infers one dimension); C order only."""
    if order != "C":
        raise NotImplementedError("reshape: only order='C' is supported")
    a = asarray(a)
    newshape = shape if newshape is None else newshape
    if isinstance(newshape, (int, _np.integer)):
        newshape = (newshape,)
    newshape = [int(d) for d in newshape]
    if newshape.count(-1) > 1:
        raise ValueError("reshape: can only specify one unknown dimension (-1)")
    if -1 in newshape:
        known = 1
        for d in newshape:
            if d != -1:
                known *= d
        if known == 0 or a.size % known:
            raise ValueError(f"cannot reshape array of size {a.size} into shape "
                             f"{tuple(newshape)}")
        newshape[newshape.index(-1)] = a.size // known
    total = 1
    for d in newshape:
        total *= d
    if total != a.size:
        raise ValueError(f"cannot reshape array of size {a.size} into shape {tuple(newshape)}")
    return _st.reshape(a, tuple(newshape))


def ravel(a):
    a = asarray(a)
    return _st.reshape(a, (a.size,))


def transpose(a, axes=None):
    a = asarray(a)
    if axes is None:
        axes = tuple(reversed(range(a.ndim)))
    axes = [int(ax) % a.ndim for ax in axes] if a.ndim else []
    if sorted(axes) != list(range(a.ndim)):
        raise ValueError(f"transpose: axes {axes} are not a permutation of {a.ndim} axes")
    return _st.transpose(a, axes)


def permute_dims(a, axes=None):
    return transpose(a, axes)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    perm = list(range(a.ndim))
    i, j = one_axis(axis1, a.ndim), one_axis(axis2, a.ndim)
    perm[i], perm[j] = perm[j], perm[i]
    return _st.transpose(a, perm)


def moveaxis(a, source, destination):
    a = asarray(a)
    src = [source] if isinstance(source, (int, _np.integer)) else list(source)
    dst = [destination] if isinstance(destination, (int, _np.integer)) else list(destination)
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination need the same number of axes")
    src = [one_axis(s, a.ndim) for s in src]
    dst = [one_axis(d, a.ndim) for d in dst]
    order = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _st.transpose(a, order)


def expand_dims(a, axis):
    a = asarray(a)
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    nd = a.ndim + len(axes)
    axes = normalize_axis(axes, nd)
    shape = list(a.shape)
    for ax in axes:
        shape.insert(ax, 1)
    return _st.reshape(a, tuple(shape))


def squeeze(a, axis=None):
    a = asarray(a)
    if axis is None:
        axes = tuple(i for i, d in enumerate(a.shape) if d == 1)
    else:
        axes = normalize_axis(axis, a.ndim)
        for ax in axes:
            if a.shape[ax] != 1:
                raise ValueError(f"cannot select an axis to squeeze out which has size not equal "
                                 f"to one (axis {ax} has size {a.shape[ax]})")
    return _st.reshape(a, tuple(d for i, d in enumerate(a.shape) if i not in axes))


def broadcast_to(array, shape):
    a = asarray(array)
    shape = (shape,) if isinstance(shape, (int, _np.integer)) else tuple(shape)
    try:
        _np.broadcast_shapes(a.shape, shape)
    except ValueError:
        raise ValueError(f"cannot broadcast an array of shape {a.shape} to shape {shape}") from None
    if _np.broadcast_shapes(a.shape, shape) != shape:
        raise ValueError(f"cannot broadcast an array of shape {a.shape} to shape {shape}")
    return _st.broadcast_to(a, shape)


def broadcast_arrays(*args):
    arrays = [asarray(a) for a in args]
    shape = _np.broadcast_shapes(*[a.shape for a in arrays])
    return [broadcast_to(a, shape) for a in arrays]


def atleast_1d(*arys):
    out = [reshape(a, (1,)) if asarray(a).ndim == 0 else asarray(a) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = []
    for a in arys:
        a = asarray(a)
        out.append(reshape(a, (1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a)
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys):
    out = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = reshape(a, a.shape + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else out


def concatenate(arrays, axis=0, dtype=None):
    """Join arrays along ``axis`` (``None``: flatten them first)."""
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays, axis = [ravel(a) for a in arrays], 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = one_axis(axis, nd)
    for i, a in enumerate(arrays):
        if a.ndim != nd or builtins.any(d1 != d2 for k, (d1, d2) in enumerate(zip(a.shape, arrays[0].shape))
                               if k != axis):
            raise ValueError(f"concatenate: all the input array dimensions except for the "
                             f"concatenation axis must match exactly, but array 0 has shape "
                             f"{arrays[0].shape} and array {i} has shape {a.shape}")
    dt = dtype or result_type(*[a.dtype for a in arrays])
    arrays = [astype(a, dt) if a.dtype != dt else a for a in arrays]
    return _st.concatenate(arrays, axis)


concat = concatenate


def stack(arrays, axis=0):
    """Join arrays of one shape along a new axis."""
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"all input arrays must have the same shape, got {sorted(shapes)}")
    axis = one_axis(axis, arrays[0].ndim + 1)
    return concatenate([expand_dims(a, axis) for a in arrays], axis)


def hstack(tup):
    arrays = [atleast_1d(a) for a in tup]  # (an empty sequence: concatenate's clear error)
    return concatenate(arrays, 0 if arrays and arrays[0].ndim == 1 else 1)


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], 0)


row_stack = vstack


def dstack(tup):
    return concatenate([atleast_3d(a) for a in tup], 2)


def column_stack(tup):
    arrays = [asarray(a) for a in tup]
    arrays = [reshape(a, (a.shape[0], 1)) if a.ndim == 1 else a for a in arrays]
    return concatenate(arrays, 1)


def split(ary, indices_or_sections, axis=0):
    """Split into equal sections or at the given indices (see ``np.split``)."""
    a = asarray(ary)
    axis = one_axis(axis, a.ndim)
    n = a.shape[axis]
    if isinstance(indices_or_sections, (int, _np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0 or n % sections:
            raise ValueError("array split does not result in an equal division")
        bounds = [n // sections * i for i in range(1, sections)]
    else:
        bounds = [builtins.min(builtins.max(int(b) if b >= 0 else n + int(b), 0), n)
                  for b in indices_or_sections]
    if bounds != sorted(bounds):  # NumPy allows this; rare, done by slicing
        edges = [0] + bounds + [n]
        return [a[(slice(None),) * axis + (slice(lo, hi),)] for lo, hi in zip(edges, edges[1:])]
    return _st.split(a, bounds, axis)


def array_split(ary, indices_or_sections, axis=0):
    a = asarray(ary)
    if isinstance(indices_or_sections, (int, _np.integer)):
        n, k = a.shape[one_axis(axis, a.ndim)], int(indices_or_sections)
        sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
        indices_or_sections = list(_np.cumsum(sizes)[:-1])
    return split(a, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    a = asarray(ary)
    return split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def tile(A, reps):
    """Repeat the whole array ``reps`` times along each axis."""
    a = asarray(A)
    reps = (reps,) if isinstance(reps, (int, _np.integer)) else tuple(reps)
    nd = builtins.max(a.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    a = reshape(a, (1,) * (nd - a.ndim) + a.shape)
    inter = []
    for r, d in zip(reps, a.shape):
        inter += [1, d]
    a = reshape(a, tuple(inter))
    target = []
    for r, d in zip(reps, a.shape[1::2]):
        target += [r, d]
    a = broadcast_to(a, tuple(target))
    return reshape(a, tuple(r * d for r, d in zip(reps, target[1::2])))


def repeat(a, repeats, axis=None):
    """Repeat each element ``repeats`` times along ``axis`` (flattened if None)."""
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = one_axis(axis, a.ndim)
    if isinstance(repeats, (int, _np.integer)):
        r = int(repeats)
        shape = a.shape
        b = expand_dims(a, axis + 1)
        b = broadcast_to(b, shape[:axis + 1] + (r,) + shape[axis + 1:])
        return reshape(b, shape[:axis] + (shape[axis] * r,) + shape[axis + 1:])
    idx = _np.repeat(_np.arange(a.shape[axis]), _np.asarray(repeats))
    return take(a, idx, axis=axis)


def flip(m, axis=None):
    m = asarray(m)
    axes = normalize_axis(axis, m.ndim)
    return m[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(m.ndim))]


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), a.shape)
    shifts = (shift,) if isinstance(shift, (int, _np.integer)) else tuple(shift)
    axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
    for s, ax in zip(shifts, axes):
        ax = one_axis(ax, a.ndim)
        n = a.shape[ax]
        if n == 0:
            continue
        s = int(s) % n
        if s:
            pre = (slice(None),) * ax
            a = concatenate([a[pre + (slice(n - s, None),)], a[pre + (slice(0, n - s),)]], ax)
    return a


@internal  # its constants (mask, padding, zeros) may move to a device
def triu(m, k=0):
    m = asarray(m)
    mask = _np.triu(_np.ones(m.shape[-2:], bool), k)
    return where(mask, m, zeros((), m.dtype))


@internal  # its constants (mask, padding, zeros) may move to a device
def tril(m, k=0):
    m = asarray(m)
    mask = _np.tril(_np.ones(m.shape[-2:], bool), k)
    return where(mask, m, zeros((), m.dtype))


def sort(a, axis=-1):
    """Sorted copy; each element's derivative follows it to its sorted place."""
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = one_axis(axis, a.ndim)
    return _ix.take_along_axis(a, _ix.argsort(a, axis), axis)


def argsort(a, axis=-1, kind=None, stable=None):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return _ix.argsort(a, one_axis(axis, a.ndim))


def take(a, indices, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = one_axis(axis, a.ndim)
    indices = asarray(indices)
    if indices.dtype.kind == "b":  # np.take reads booleans as the integers 0 and 1, not a mask
        indices = astype(indices, _np.intp)
    # (through the primitive, so a plain array indexed by a traced index works too)
    return _ix.index(a, (slice(None),) * axis + (indices,))


def take_along_axis(arr, indices, axis):
    arr = asarray(arr)
    indices = asarray(indices)
    if indices.dtype.kind not in "iu":  # as NumPy: no booleans, floats...
        raise IndexError(f"take_along_axis: `indices` must be an integer array, got dtype "
                         f"{indices.dtype}")
    if axis is None:
        arr, axis = ravel(arr), 0
    if indices.ndim != arr.ndim:
        raise ValueError(f"take_along_axis: `indices` and `arr` must have the same number of "
                         f"dimensions, got {indices.ndim} and {arr.ndim}")
    return _ix.take_along_axis(arr, indices, one_axis(axis, arr.ndim))


@internal  # its constants (mask, padding, zeros) may move to a device
def pad(array, pad_width, mode="constant", constant_values=0):
    """Pad with a constant (``mode="constant"`` only)."""
    if mode != "constant":
        raise NotImplementedError(f"pad: mode={mode!r} is not supported; use mode='constant'")
    a = asarray(array)
    widths = _np.broadcast_to(_np.asarray(pad_width, dtype=int), (a.ndim, 2))
    for ax, (lo, hi) in enumerate(widths):
        parts = []
        if lo:
            parts.append(full(a.shape[:ax] + (int(lo),) + a.shape[ax + 1:], constant_values,
                              a.dtype))
        parts.append(a)
        if hi:
            parts.append(full(a.shape[:ax] + (int(hi),) + a.shape[ax + 1:], constant_values,
                              a.dtype))
        if len(parts) > 1:
            a = _st.concatenate(parts, ax)
    return a


# --- linear algebra -----------------------------------------------------------------------------

def matmul(x1, x2):
    """Matrix product with NumPy's rules (1-d promotion, stacks broadcast)."""
    a, b = asarray(x1), asarray(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: input operand does not have enough dimensions (a scalar "
                         "cannot be matrix-multiplied; use multiply)")
    a2 = a.shape if a.ndim > 1 else (1,) + a.shape
    b2 = b.shape if b.ndim > 1 else b.shape + (1,)
    if a2[-1] != b2[-2]:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} are not aligned: "
                         f"{a2[-1]} (last axis of the first) != {b2[-2]} (the second's "
                         f"{'first' if b.ndim == 1 else 'second-to-last'} axis)")
    _np.broadcast_shapes(a2[:-2], b2[:-2])
    return _la.matmul(a, b)


def dot(a, b):
    """``np.dot``: a product for scalars, matmul up to 2-d, a tensordot beyond."""
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)  # noqa: F821
    if b.ndim <= 2:
        return matmul(a, b)
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2]))


def vdot(a, b):
    return sum(multiply(ravel(a), ravel(b)))  # noqa: F821


def inner(a, b):
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)  # noqa: F821
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def outer(a, b):
    a, b = ravel(a), ravel(b)
    return multiply(reshape(a, (a.shape[0], 1)), reshape(b, (1, b.shape[0])))  # noqa: F821


def tensordot(a, b, axes=2):
    """Contract ``a``'s and ``b``'s ``axes`` (as ``np.tensordot``), through one matmul."""
    a, b = asarray(a), asarray(b)
    if isinstance(axes, (int, _np.integer)):
        axes_a = list(range(a.ndim - axes, a.ndim))
        axes_b = list(range(axes))
    else:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, (int, _np.integer)) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, (int, _np.integer)) else list(axes_b)
    axes_a = [ax % a.ndim for ax in axes_a]
    axes_b = [ax % b.ndim for ax in axes_b]
    for i, j in zip(axes_a, axes_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"tensordot: shape mismatch for sum: axis {i} of {a.shape} vs "
                             f"axis {j} of {b.shape}")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [j for j in range(b.ndim) if j not in axes_b]
    m = int(_np.prod([a.shape[i] for i in free_a], dtype=_np.int64))
    k = int(_np.prod([a.shape[i] for i in axes_a], dtype=_np.int64))
    n = int(_np.prod([b.shape[j] for j in free_b], dtype=_np.int64))
    a2 = _st.reshape(_st.transpose(a, free_a + axes_a), (m, k))
    b2 = _st.reshape(_st.transpose(b, axes_b + free_b), (k, n))
    out_shape = tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b)
    return _st.reshape(_la.matmul(a2, b2), out_shape)


def einsum(subscripts, *operands, optimize=None):
    """Einstein summation (``...`` broadcasting and implicit output supported)."""
    if not isinstance(subscripts, str):
        raise TypeError(f"einsum: the first argument must be the subscripts string, e.g. "
                        f"einsum('ij,jk->ik', a, b); got {type(subscripts).__name__} (NumPy's "
                        f"interleaved operand/sublist form is not supported)")
    ops = [asarray(o) for o in operands]
    subscripts = subscripts.replace(" ", "")
    if "->" not in subscripts:
        letters = subscripts.replace(",", "").replace(".", "")
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
        subscripts += "->" + ("..." if "..." in subscripts else "") + out
    if "..." in subscripts:
        subscripts = _expand_ellipsis(subscripts, ops)
    return _la.einsum(subscripts, *ops)


def _expand_ellipsis(subscripts, ops):
    import string
    ins, out = subscripts.split("->")
    ins = ins.split(",")
    free = [c for c in string.ascii_letters if c not in subscripts]
    n_ell = builtins.max(op.ndim - len(s.replace("...", "")) for s, op in zip(ins, ops)
                         if "..." in s)
    ell = "".join(free[:n_ell])
    new_ins = []
    for s, op in zip(ins, ops):
        if "..." in s:
            k = op.ndim - len(s.replace("...", ""))
            s = s.replace("...", ell[n_ell - k:])
        new_ins.append(s)
    return ",".join(new_ins) + "->" + out.replace("...", ell)


def trace(a, offset=0, axis1=0, axis2=1):
    return sum(diagonal(a, offset, axis1, axis2), axis=-1)


def diagonal(a, offset=0, axis1=0, axis2=1):
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("diagonal requires an array of at least two dimensions")
    return _ix.diagonal(a, offset, axis1, axis2)


@internal  # its constants (mask, padding, zeros) may move to a device
def diag(v, k=0):
    """The ``k``-th diagonal of a matrix, or a matrix with ``v`` on its ``k``-th diagonal."""
    v = asarray(v)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("diag: input must be 1-d or 2-d")
    n = v.shape[0] + builtins.abs(k)
    rows = _np.arange(v.shape[0]) + builtins.max(-k, 0)
    cols = _np.arange(v.shape[0]) + builtins.max(k, 0)
    spec = (("a",), ("a",))
    return _ix.scatter(zeros((n, n), v.dtype), v, [rows, cols], spec, "set")


def cross(a, b, axis=-1):
    a, b = asarray(a), asarray(b)
    a, b = moveaxis(a, axis, -1), moveaxis(b, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def polyval(p, x):
    """Evaluate the polynomial with coefficients ``p`` (highest first) at ``x`` (Horner)."""
    p = asarray(p)
    x = operand(x)
    y = zeros_like(x) if hasattr(x, "shape") else 0.0
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def at(x):
    """``x.at`` for any array: ``fnp.at(x)[idx].set(v)`` returns an updated copy."""
    from ._methods import IndexUpdateHelper
    return IndexUpdateHelper(asarray(x))


from . import linalg  # noqa: E402
from ._methods import attach_array_methods  # noqa: E402

attach_array_methods(Tracer)

__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "builtins", "math", "Tracer", "attach_array_methods")]

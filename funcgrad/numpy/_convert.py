"""Turning user inputs (scalars, lists, arrays, tracers) into operands."""
import functools
import numbers
import operator
import sys
from typing import Any, Sequence

import numpy as np

from ..core import ConcretizationError, Tracer, _special_classes, concrete
from ..errors import ShapeMismatchError
from ._numpy_calls import numpy_call, numpy_fix
from ..primitives import structural as _st
from ..typing import Array, ArrayLike, Axis, DTypeLike

_PLAIN = (np.ndarray, np.generic)
_SCALARS = (bool, int, float, complex)
# what out= may be: a memmap writes as an ndarray does (into its file); np.matrix and
# masked arrays compute by other rules, so writing funcgrad's result there is refused
OUT_TYPES = (np.ndarray, np.memmap)


def out_type_error(name, out, label=None):
    """The TypeError for an ``out=`` that is not an array funcgrad writes into (``label``:
    the function to call instead, ``fnp.<name>`` by default)."""
    label = label or f"fnp.{name}"
    if isinstance(out, np.ndarray):
        return TypeError(f"{name}(..., out=y): y is a {type(out).__module__}."
                         f"{type(out).__name__}, and funcgrad writes only into plain "
                         f"NumPy arrays (and memmaps); use y[...] = {label}(...) or "
                         f"out=y.view(np.ndarray)")
    if not hasattr(out, "dtype") or not hasattr(out, "shape"):
        return TypeError("return arrays must be of ArrayType")
    return TypeError(f"{name}(..., out=y) writes into y, and arrays traced by funcgrad "
                     f"(and funcgrad Tensors) are not written into: use the returned "
                     f"value, y = {label}(...)")
_extra_array_types = ()  # the eager Tensor and GPU arrays register here


def register_array_type(cls):
    global _extra_array_types
    _extra_array_types = _extra_array_types + (cls,)


def operand(x: ArrayLike) -> Array:
    """An elementwise operand: Python scalars stay weakly typed (NumPy 2 rules).

    >>> import funcgrad.numpy as fnp
    >>> fnp.operand(2.0), fnp.operand([1, 2])
    (2.0, array([1, 2]))
    """
    t = type(x)
    # every tracer class (and Tensor, GPU arrays) is in _special_classes
    if t is float or t in _special_classes or t is int or isinstance(x, np.generic):
        return x
    if t is np.ndarray:
        if x.dtype.kind in "OSUVMm":
            _bad_dtype(x)
        return x
    if t in _SCALARS:
        return x
    return asarray(x)


def asarray(x: ArrayLike, dtype: DTypeLike | None = None) -> Array:
    """An array-like operand with ``.shape`` and ``.dtype`` (tracers pass through).

    >>> import funcgrad.numpy as fnp
    >>> fnp.asarray([[1, 2]], dtype=float)
    array([[1., 2.]])
    """
    if isinstance(x, Tracer) or isinstance(x, _extra_array_types):
        if dtype is not None:
            return _st.convert_element_type(x, dtype)
        if getattr(x, "weak", False):  # a Python number passed to a transform: as NumPy's
            return _st.strong(x)        # np.asarray makes it, an array (strongly typed)
        return x
    if isinstance(x, (list, tuple)) and _contains_traced(x):
        out = stack([asarray(e) for e in x])
        return out if dtype is None else asarray(out, dtype)
    if isinstance(x, _PLAIN) and dtype is None:
        if x.dtype.kind in "OSUVMm":
            _bad_dtype(x)
        if type(x) is not np.ndarray and isinstance(x, _UNSUPPORTED_SUBCLASSES):
            _bad_subclass(x)
        return x if isinstance(x, np.ndarray) else np.asarray(x)
    if isinstance(x, _UNSUPPORTED_SUBCLASSES):
        _bad_subclass(x)
    if x is None:
        raise TypeError("None is not an array: funcgrad.numpy functions take numbers, lists of "
                        "numbers or arrays. Pass an array (np.asarray(...)) instead of None.")
    try:
        arr = np.asarray(x, dtype=dtype)
    except ValueError as e:
        if "inhomogeneous" in str(e) or "sequence" in str(e):
            raise ValueError(f"cannot make an array from a ragged nested sequence (the inner "
                             f"lists have different lengths): {e}. Use lists of equal length, "
                             f"or pad them.") from None
        raise
    if arr.dtype.kind in "OSUVMm":
        _bad_dtype(arr)
    return arr


def joined_dtype(dtypes, dtype=None, casting="same_kind"):
    """The dtype that joined arrays take: NumPy's promotion of ``dtypes``, or ``dtype``
    where each of them casts to it under ``casting`` (NumPy's check, TypeError otherwise).

    >>> import numpy as np
    >>> joined_dtype([np.dtype("float32"), np.dtype("int8")])
    dtype('float32')
    """
    if dtype is None:
        dtype = np.result_type(*dtypes)
        if casting == "same_kind":  # (a promotion is always a same_kind cast)
            return dtype
    dtype = np.dtype(dtype)
    for d in dtypes:
        if not np.can_cast(d, dtype, casting):
            raise TypeError(f"Cannot cast array data from {d!r} to {dtype!r} according to "
                            f"the rule {casting!r}: pass casting='unsafe' to allow it")
    return dtype


def scalar_results(fn):
    """``fn`` returning NumPy's scalar (``np.float64``...) where its result is a 0-d plain
    array, as NumPy's reductions return (``np.median(x)`` is an ``np.float64``, which is a
    Python float): for reductions composed of steps that make 0-d arrays (``where``)."""
    @functools.wraps(fn)
    def with_scalars(*args, **kwargs):
        result = fn(*args, **kwargs)
        if type(result) is np.ndarray and result.ndim == 0 and kwargs.get("out") is not result \
                and not any(x is result for x in args):  # (out= itself stays the array)
            return result[()]
        return result
    return with_scalars


def write_out(name, out, result, casting="same_kind"):
    """``out=`` of a function that is not a ufunc itself (``round``, ``isposinf``): its
    ``result`` written into the plain array ``out``, which is returned, with NumPy's
    checks of the shape and of the cast (``casting``: NumPy's rule for that function)."""
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if type(out) not in OUT_TYPES:
        raise out_type_error(name, out)
    if not isinstance(result, _PLAIN + _SCALARS):
        raise TypeError(f"{name}(..., out=y) would write a traced value (one that carries a "
                        f"derivative, or is not known yet) into the plain array y, which "
                        f"drops it; use the returned value: y = fnp.{name}(...)")
    if np.shape(result) != out.shape:
        raise ValueError(f"{name}: out= has shape {out.shape}, and the result's is "
                         f"{np.shape(result)}")
    dtype = np.asarray(result).dtype
    if not np.can_cast(dtype, out.dtype, casting):
        raise TypeError(f"{name}: cannot cast the output from {dtype!r} to {out.dtype!r} "
                        f"(out's dtype) with casting rule {casting!r}; pass an out= of "
                        f"dtype {dtype}")
    np.copyto(out, result, casting="unsafe")
    return out


def no_out(name, out):
    """Raise unless ``out`` is None: NumPy's ``out=`` writes into an array, and funcgrad's
    arrays are immutable (JAX's functions take ``out=None`` alone, for the same reason)."""
    if out is not None:
        raise TypeError(f"{name}: out= is not supported (funcgrad arrays are immutable); use "
                        f"the returned value")


def stack(arrays: Sequence[ArrayLike], axis: Axis = 0, out: Any = None, *,
          dtype: DTypeLike | None = None, casting: str = "same_kind") -> Array:
    """Join arrays of one shape along a new ``axis`` (in ``dtype``, cast under ``casting``,
    when given).

    (``funcgrad.numpy.stack``; it lives here because ``asarray`` of a list of traced
    values stacks them, and this module sits below every family of functions.)

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.stack([np.zeros(2), np.ones(2)], axis=1)
    array([[0., 1.],
           [0., 1.]])
    """
    if out is not None:
        return write_out("stack", out, stack(arrays, axis, dtype=dtype, casting=casting), casting)
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ShapeMismatchError(f"all input arrays must have the same shape, got {sorted(shapes)}")
    first = arrays[0].shape
    axis = one_axis(axis, len(first) + 1)
    arrays = [_st.reshape(a, first[:axis] + (1,) + first[axis:]) for a in arrays]
    dtype = joined_dtype([a.dtype for a in arrays], dtype, casting)
    return _st.concatenate([a if a.dtype == dtype else _st.convert_element_type(a, dtype)
                            for a in arrays], axis)


def _contains_traced(seq):
    for e in seq:
        if isinstance(e, (Tracer,) + _extra_array_types):
            return True
        if isinstance(e, (list, tuple)) and _contains_traced(e):
            return True
    return False


# ndarray subclasses whose semantics funcgrad would silently change: np.matrix (``*`` is a
# matrix product, results stay 2-d) and masked arrays (the mask would be ignored).  Other
# subclasses are treated as plain arrays.
class _MaskedArrays(type):
    # np.ma costs 15 ms to import: only look for masked arrays once something imported it.
    # Another thread (the kernel loader importing SciPy) may be half-way through importing
    # it: until np.ma defines MaskedArray, no masked array can exist.
    def __instancecheck__(cls, x):
        masked = getattr(sys.modules.get("numpy.ma"), "MaskedArray", None)
        return masked is not None and isinstance(x, masked)


class _MaskedArray(metaclass=_MaskedArrays):
    pass


_UNSUPPORTED_SUBCLASSES = (np.matrix, _MaskedArray)


def _bad_subclass(x):
    if isinstance(x, np.matrix):
        raise TypeError("np.matrix is not supported: its operators follow matrix rules (* is a "
                        "matrix product, results always stay 2-d), which funcgrad does not "
                        "reproduce. Convert it with np.asarray(m) and use @ for matrix products.")
    raise TypeError("masked arrays (np.ma.MaskedArray) are not supported: funcgrad would "
                    "compute with the masked-out entries as if they were valid. Pass "
                    "np.ma.filled(x, value) or x.compressed(), or carry the mask as a separate "
                    "boolean array and use np.where.")


def _bad_dtype(arr):
    raise TypeError(f"funcgrad works on numeric arrays; got an array of dtype {arr.dtype} "
                    f"({arr.dtype.name}). Convert it first, e.g. np.asarray(x, dtype=float).")


def normalize_axis(axis: Axis, ndim: int, argname: str | None = None) -> tuple[int, ...]:
    """A sorted tuple of non-negative axes (``None`` means all); an axis the array lacks
    raises NumPy's ``AxisError``, a 0-d array's 0 too (``np.mean(x0, axis=0)``; the ufunc
    reductions' exception is :func:`reduction_axes`).  ``argname`` prefixes the messages
    as NumPy's ``normalize_axis_tuple`` does ("axis: axis 3 is out of bounds...").

    >>> import funcgrad.numpy as fnp
    >>> fnp.normalize_axis(-1, 3), fnp.normalize_axis(None, 2)
    ((2,), (0, 1))
    """
    if axis is None:
        return tuple(range(ndim))
    if type(axis) is int:  # the common case, before the slower check of numbers.Integral
        if -ndim <= axis < ndim:  # (one valid axis: the checks below cannot fail)
            return (axis % ndim,)
        axes = (axis,)
    else:
        axes = (axis,) if isinstance(axis, (numbers.Integral, np.integer)) else tuple(axis)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(a, ndim, argname)
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else
                         f"repeated axis in {axis!r}")
    return tuple(sorted(out))


def reduction_axes(axis: Axis, ndim: int) -> tuple[int, ...]:
    """The axes of a NumPy ufunc reduction (``sum``, ``prod``, ``max``, ``min``, ``all``,
    ``any``, ``ptp``, ``squeeze``, ``ufunc.reduce``...): :func:`normalize_axis`'s, except
    NumPy's legacy rule that one int axis 0 or -1 of a 0-d array reduces over nothing
    (``np.sum(x0, axis=0)`` is ``x0``; ``axis=(0,)`` raises)."""
    if axis is None:  # (normalize_axis's common cases, without its call: every sum and
        return tuple(range(ndim))  # max on a Tensor or an integer array asks)
    if type(axis) is int and -ndim <= axis < ndim:
        return (axis % ndim,)
    if not ndim and isinstance(axis, (numbers.Integral, np.integer)) and axis in (0, -1):
        return ()
    return normalize_axis(axis, ndim)


def one_axis(axis: Axis, ndim: int, argname: str | None = None) -> int:
    """One non-negative axis; an axis the array lacks (any axis of a 0-d array) raises
    NumPy's ``AxisError``, its message prefixed by ``argname`` where NumPy's is.  (The
    functions NumPy lets ravel a 0-d array first, ``cumsum``, ``argsort``, ``take``...,
    ravel it before asking.)

    >>> import funcgrad.numpy as fnp
    >>> fnp.one_axis(-1, 3)
    2
    """
    if type(axis) is not int:  # (NumPy's TypeError for axis=None or a tuple where one
        axis = operator.index(axis)  # axis is meant: never its first entry, silently)
    if not -ndim <= axis < ndim:  # (an AxisError is a ValueError and an IndexError)
        raise np.exceptions.AxisError(axis, ndim, argname)
    return axis % ndim


def concrete_values(x, what, fix):
    """``x``'s values as a plain NumPy array, for a result whose *shape* (or validity) they
    decide.  Under ``vmap`` and ``jit`` they are not one known array, so a
    :class:`~funcgrad.ConcretizationError` says ``what`` needed them and ``fix``."""
    try:
        value = concrete(x)
    except ConcretizationError as e:
        numpys = numpy_call()  # (NumPy's own code asked: np.poly1d...; name the rewrite)
        if numpys is not None:
            fix = f"{numpys.function} needs them. {numpy_fix(numpys)}"
        raise ConcretizationError(
            f"{what} depends on the values of its input, which under vmap or jit are a batch "
            f"or not known yet. {fix}") from e
    if not isinstance(value, np.ndarray):
        detach = getattr(value, "detach", None)  # the eager Tensor; GPU arrays convert
        value = np.asarray(detach() if detach is not None else value)
    return value


def is_concrete(x):
    """Whether ``x`` has one concrete value now (not under vmap or jit)."""
    try:
        concrete(x)
    except ConcretizationError:
        return False
    return True

"""What a jitted call is specialised to: the abstract values of its arguments.

A call's *signature* is its pytree structure, each array leaf's shape and dtype (a
Python number's weakly typed), and the values of its static arguments; ``jit`` traces
and compiles once per signature, and a function compiled ahead of time
(:class:`funcgrad.jit.stages.Compiled`) accepts only its own.  Here: the abstract value
of an argument leaf (:func:`leaf_aval`), :class:`ShapeDtypeStruct` (an argument given by
its shape and dtype alone, for ``lower``, ``trace`` and ``eval_shape``), the cheap key of
the fast path (:func:`fast_key`) and the cache key of a static argument
(:func:`hashable_static`).
"""
import numbers
import operator

import numpy as np
from numpy import ndarray

from ..core import ShapedArray, Tracer, is_weak
from ..errors import ArgumentMismatchError

__all__ = ["ShapeDtypeStruct", "typeof", "leaf_aval", "fast_key", "hashable_static",
           "static_key"]


class ShapeDtypeStruct:
    """An array's shape and dtype, without values: what ``jit(f).lower``, ``.trace`` and
    ``.eval_shape`` (and :func:`funcgrad.eval_shape`) take in place of an array, and what
    ``eval_shape`` and ``out_info`` return, as ``jax.ShapeDtypeStruct``.
    ``sharding`` is JAX's keyword, taking None only (one device; ``.sharding`` is None).
    ``weak_type=True`` stands for a Python number (see :func:`funcgrad.core.is_weak`):
    ``float32 array * it`` stays float32.  Immutable; equal structs are equal keys.

    >>> import numpy as np, funcgrad as fg
    >>> x = fg.ShapeDtypeStruct((2, 3), np.float32)
    >>> x, x.ndim, x.size
    (ShapeDtypeStruct(shape=(2, 3), dtype=float32), 2, 6)
    >>> fg.jit(lambda a: a.sum(axis=0)).eval_shape(x)
    ShapeDtypeStruct(shape=(3,), dtype=float32)
    """

    __slots__ = ("shape", "dtype", "weak_type")

    def __init__(self, shape, dtype, *, sharding=None, weak_type=False):
        try:
            shape = tuple(operator.index(d) for d in shape)
        except TypeError:
            raise TypeError(f"ShapeDtypeStruct: shape must be a tuple of integers, got "
                            f"{shape!r}; write (n,) for one axis, () for a scalar") from None
        if any(d < 0 for d in shape):
            raise ValueError(f"ShapeDtypeStruct: shape {shape} has a negative size")
        dtype = np.dtype(dtype)
        if dtype.kind not in "biufc":
            raise TypeError(f"ShapeDtypeStruct: dtype {dtype} is not numeric; jit computes "
                            f"with booleans, integers, floats and complex numbers")
        set_ = object.__setattr__
        set_(self, "shape", shape)
        set_(self, "dtype", dtype)
        set_(self, "weak_type", bool(weak_type))
        if sharding is not None:  # (JAX's: an array laid out across devices)
            raise TypeError(f"ShapeDtypeStruct: sharding={sharding!r} is not supported; "
                            f"funcgrad computes each array on one device: leave it out")

    @classmethod
    def of(cls, aval):
        """The struct of a :class:`~funcgrad.core.ShapedArray`."""
        return cls(aval.shape, aval.dtype, weak_type=aval.weak)

    @property
    def sharding(self):
        """None: funcgrad's arrays are not sharded (JAX's attribute, for code reading it)."""
        return None

    @property
    def aval(self):
        """The :class:`~funcgrad.core.ShapedArray` it stands for."""
        return ShapedArray(self.shape, self.dtype, self.weak_type)

    @property
    def ndim(self):
        """The number of axes."""
        return len(self.shape)

    @property
    def size(self):
        """The number of elements."""
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __setattr__(self, name, value):
        raise AttributeError(f"ShapeDtypeStruct is immutable; make a new one "
                             f"(ShapeDtypeStruct(shape, dtype)) instead of setting {name}")

    def __eq__(self, other):
        return (type(other) is ShapeDtypeStruct and self.shape == other.shape
                and self.dtype == other.dtype and self.weak_type == other.weak_type)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type))

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"

    def __reduce__(self):
        return (_struct, (self.shape, self.dtype.str, self.weak_type))


def _struct(shape, dtype, weak_type):
    return ShapeDtypeStruct(shape, dtype, weak_type=weak_type)


# Compiled code computes a Python int in int64: one beyond it is refused by name (see
# leaf_aval), and takes the slow path that says so (the fast path's key holds a number's
# type, not its value, and Numba would type it as uint64).
_INT64_MIN, _INT64_MAX = -2 ** 63, 2 ** 63 - 1


def typeof(x: object) -> ShapedArray:
    """The abstract value of ``x``: its shape, dtype, and whether it is weakly typed (a
    Python number), as ``jax.typeof``; inside ``jit`` or ``make_graph`` the same as
    outside.

    >>> import numpy as np, funcgrad as fg
    >>> fg.typeof(np.ones((2, 3), np.float32)), fg.typeof(2.0)
    (f32[2,3], ~f64[])
    >>> fg.typeof(2.0).weak_type, fg.typeof(np.float64(2.0)).weak_type
    (True, False)
    >>> fg.jit(lambda x: x.reshape(fg.typeof(x).shape[::-1]))(np.ones((1, 2))).shape
    (2, 1)
    """
    if type(x) is ShapeDtypeStruct:
        return x.aval
    if isinstance(x, (Tracer, ndarray, np.generic, bool, numbers.Number, ShapedArray)):
        return leaf_aval(x, "typeof's argument", abstract=True)
    shape, dtype = getattr(x, "shape", None), getattr(x, "dtype", None)
    if shape is not None and dtype is not None:  # (a GPU array, an eager Tensor)
        return ShapedArray(tuple(shape), dtype)
    raise TypeError(f"typeof: {type(x).__name__} is not an array or a number; pass an "
                    f"array (np.asarray(x)) or take typeof of each leaf of a pytree "
                    f"(fg.tree.map(fg.typeof, tree))")


def leaf_aval(x, where, abstract=False):
    """The :class:`~funcgrad.core.ShapedArray` of an argument leaf.  ``abstract``: a
    :class:`ShapeDtypeStruct` (or a ShapedArray) may stand for an array (``lower``,
    ``trace``, ``eval_shape``); a call needs values."""
    if isinstance(x, Tracer):
        return ShapedArray(x.shape, x.dtype, x.weak)
    if type(x) is ndarray or isinstance(x, np.generic):
        if x.dtype.kind in "OSUVMm":
            raise TypeError(f"jit: {where} is an array of dtype {x.dtype}; jit takes numeric "
                            f"arrays. Convert it, or mark the argument static.")
        return ShapedArray(x.shape, x.dtype)
    if isinstance(x, (bool, numbers.Number)):
        # A Python int, float or complex stays weakly typed, as NumPy 2 and JAX type it:
        # jit(lambda x, s: x * s)(float32 x, 2.5) is float32, compiled or not.
        if type(x) is int and not _INT64_MIN <= x <= _INT64_MAX:
            raise OverflowError(f"jit: {where} is the Python integer {x}, beyond the int64 "
                                f"that compiled code computes Python ints in. Pass it as a "
                                f"float (float(n)) or a NumPy integer (np.uint64(n)), or mark "
                                f"the argument static (static_argnums).")
        return ShapedArray((), np.result_type(x), is_weak(x))
    if type(x) is ShapeDtypeStruct or type(x) is ShapedArray:
        if abstract:
            return x.aval if type(x) is ShapeDtypeStruct else x
        raise TypeError(f"jit: {where} is a {type(x).__name__}, a shape and dtype without "
                        f"values; a call computes with arrays. Pass an array, or pass the "
                        f"struct to jit(f).lower / .trace / .eval_shape, which take shapes.")
    from ..numpy._convert import asarray
    try:
        arr = asarray(x)
    except (TypeError, ValueError) as e:
        raise TypeError(f"jit: {where} of type {type(x).__name__} is not an array ({e}). "
                        f"Pass arrays, numbers or pytrees of them, or make the argument "
                        f"static (static_argnums / static_argnames, or functools.partial)."
                        ) from None
    return ShapedArray(arr.shape, arr.dtype)


def fast_key(args):
    """``(key, leaves)``: a cheap key for calls whose arguments are arrays, Python numbers
    and dicts (of sortable keys), lists and tuples of them, and their leaves in
    :func:`funcgrad.tree.flatten`'s order; ``(None, None)`` for any other argument.  The
    key holds each array's shape and dtype, each number's type and each container's kind
    and size or keys, in an order that reads back one way only."""
    key = [tuple, len(args)]
    for a in args:  # (flat arguments, the commonest call, without _gather's recursion)
        t = type(a)
        if t is ndarray:
            key.append(a.shape)
            key.append(a.dtype)
        elif t is float or t is bool or (t is int and _INT64_MIN <= a <= _INT64_MAX):
            key.append(t)
        else:
            break
    else:
        return tuple(key), args
    key, leaves = [], []
    if _gather(args, key, leaves):
        return tuple(key), leaves
    return None, None


def _gather(x, key, leaves):
    t = type(x)
    if t is ndarray:
        key.append(x.shape)
        key.append(x.dtype)
        leaves.append(x)
        return True
    if t is float or t is bool or (t is int and _INT64_MIN <= x <= _INT64_MAX):
        key.append(t)
        leaves.append(x)
        return True
    if t is tuple or t is list:
        key.append(t)
        key.append(len(x))
        for c in x:
            if not _gather(c, key, leaves):
                return False
        return True
    if t is dict:
        try:
            names = tuple(sorted(x))
        except TypeError:  # (keys of mixed types: the slow path's order)
            return False
        key.append(dict)
        key.append(names)
        for k in names:
            if not _gather(x[k], key, leaves):
                return False
        return True
    return False


def hashable_static(value, where):
    """The cache key of a static argument: its value and its type (``1``, ``1.0`` and
    ``True`` are equal in Python but trace differently: ``x * n`` of an int array is int
    for one, float for another), floats by their bits (``0.0 == -0.0``, yet ``1 / s``
    differs; and a ``nan`` finds its own trace again)."""
    try:
        hash(value)
    except TypeError:
        raise ArgumentMismatchError(
            f"jit: static {where} of type {type(value).__name__} is not hashable; "
                        f"static arguments key the compilation cache. Pass a tuple instead "
                        f"of a list (or make the argument dynamic).") from None
    return static_key(value)


def static_key(value):
    """:func:`hashable_static`'s key of a hashable ``value``."""
    t = type(value)
    if t is float:
        return t, value.hex()
    if t is complex:
        return t, value.real.hex(), value.imag.hex()
    if t is tuple:
        return t, tuple(static_key(v) for v in value)
    return t, value

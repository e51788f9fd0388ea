"""What a jitted call is specialised to: the abstract values of its arguments.

A call's *signature* is its pytree structure, each array leaf's shape and dtype (a
Python number's weakly typed), and the values of its static arguments; ``jit`` traces
and compiles once per signature.  Here: the abstract value of an argument leaf
(:func:`leaf_aval`), the cheap key of the fast path (:func:`fast_key`) and the cache key
of a static argument (:func:`hashable_static`).
"""
import numbers

import numpy as np
from numpy import ndarray

from ..core import ShapedArray, Tracer, is_weak

__all__ = ["leaf_aval", "fast_key", "hashable_static", "static_key"]


def leaf_aval(x, where):
    """The :class:`~funcgrad.core.ShapedArray` of an argument leaf."""
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
        return ShapedArray((), np.result_type(x), is_weak(x))
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
        elif t is float or t is int or t is bool:
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
    if t is float or t is int or t is bool:
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
        raise TypeError(f"jit: static {where} of type {type(value).__name__} is not hashable; "
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

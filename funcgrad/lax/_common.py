"""What the ``jax.lax`` operations share: their operands as arrays, and JAX's strict checks.

``jax.lax`` does not promote: a binary operation takes operands of one dtype (a Python
number is an array of the default dtype, float64 or int64, as ``np.asarray`` makes it),
and of one shape, except that a 0-d operand broadcasts.  The checks here raise JAX's
``TypeError`` with the fix (a cast, or the ``funcgrad.numpy`` twin that promotes).
"""
import numbers
from collections.abc import Sequence

import numpy as np

from ..core import Tracer
from ..numpy._convert import asarray, concrete_values, is_concrete

__all__ = ["array", "arrays", "same_dtypes", "same_shapes", "accept", "static_int",
           "static_ints", "all_concrete", "values", "canonical_axis",
           "INEXACT", "FLOAT", "NUMBER", "INTEGER", "INTEGER_OR_BOOL", "ORDERED", "ANY"]

# dtype kinds each operation accepts, with the words its error uses
FLOAT = ("f", "floating-point")
INEXACT = ("fc", "floating-point or complex")
NUMBER = ("iufc", "numeric (integer, floating-point or complex)")
INTEGER = ("iu", "integer")
INTEGER_OR_BOOL = ("iub", "integer or boolean")
ORDERED = ("biuf", "boolean, integer or floating-point")
ANY = ("biufc", "boolean or numeric")


def array(x):
    """``x`` as an array (a tracer stays as it is; a Python number becomes an array of
    NumPy's default dtype, as JAX makes it)."""
    return asarray(x)


def arrays(xs):
    return [array(x) for x in xs]


def accept(name, x, kinds, position=None):
    """``x`` (an array) if its dtype is of ``kinds``; else JAX's TypeError."""
    letters, words = kinds
    if x.dtype.kind not in letters:
        where = "" if position is None else f" at position {position}"
        raise TypeError(f"lax.{name} does not accept dtype {x.dtype}{where}: it takes "
                        f"{words} arrays. Convert it first, e.g. "
                        f"lax.convert_element_type(x, np.float64).")
    return x


def same_dtypes(name, xs, twin=None):
    """The arrays ``xs``, which must share one dtype (JAX's lax does not promote)."""
    dtypes = [x.dtype for x in xs]
    if any(d != dtypes[0] for d in dtypes):
        tip = (f", or use funcgrad.numpy.{twin}, which promotes its inputs" if twin else "")
        raise TypeError(f"lax.{name} requires arguments to have the same dtypes, got "
                        f"{', '.join(str(d) for d in dtypes)}. Convert them first with "
                        f"lax.convert_element_type{tip}.")
    return xs


def same_shapes(name, xs):
    """The arrays ``xs``, whose shapes must agree (a 0-d array broadcasts, as in JAX)."""
    shapes = {tuple(x.shape) for x in xs if x.ndim}
    if len(shapes) > 1:
        raise TypeError(f"lax.{name} got incompatible shapes {sorted(shapes)}: lax does not "
                        f"broadcast (except 0-d operands). Broadcast explicitly with "
                        f"lax.broadcast_in_dim, or use the funcgrad.numpy function.")
    return xs


def static_int(x, what):
    """A Python int from a static argument (a shape, an axis, a size)."""
    if isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_)):
        return int(x)
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iu":
        return int(x)
    raise TypeError(f"{what} must be a Python int (it fixes a shape), got {x!r}. Under jit "
                    f"or vmap a traced value cannot be used here: pass it as a static "
                    f"argument (fg.jit(f, static_argnums=...)).")


def static_ints(xs, what):
    """A tuple of Python ints from a static sequence (a shape, axes, strides)."""
    if not isinstance(xs, (Sequence, np.ndarray)) or isinstance(xs, str):
        raise TypeError(f"{what} must be a sequence of Python ints, got {xs!r} (write a "
                        f"single size as a 1-tuple, e.g. (3,))")
    return tuple(static_int(x, what) for x in xs)


def canonical_axis(axis, ndim, what="axis"):
    axis = static_int(axis, what)
    if not -ndim <= axis < max(ndim, 1):
        raise ValueError(f"{what} {axis} is out of bounds for an array of rank {ndim}")
    return axis % ndim if ndim else 0


def all_concrete(xs):
    """Whether every one of ``xs`` has one known value now (plain arrays; tracers of
    ``grad``/``jvp``, whose values flow), so NumPy can compute an integer result."""
    return all(not isinstance(x, Tracer) or is_concrete(x) for x in xs)


def values(x):
    """``x``'s values as a NumPy array (``x`` concrete: see :func:`all_concrete`)."""
    return x if isinstance(x, np.ndarray) else concrete_values(x, "", "")

"""``jax.lax``'s reductions and cumulative reductions: ``reduce_sum/prod/max/min``,
``reduce_and/or/xor``, the general ``reduce``, and ``cumsum``, ``cumprod``, ``cummax``,
``cummin``, ``cumlogsumexp`` (``axis``, ``reverse``).

Results keep the operand's dtype (an int32 sum stays int32, as JAX, where NumPy widens).
Over an empty axis a reduction gives its identity (``-inf`` for a float maximum, as JAX).
``reduce`` recognises the usual monoids (``lax.add``, ``np.add``, ``operator.add``, the
maxima...) and uses the matching reduction; any other associative computation is applied
pairwise, halving the axis each round, so it differentiates through the computation.
``cummax``, ``cummin`` and ``cumlogsumexp`` are :func:`associative_scan` s of ``maximum``,
``minimum`` and ``logaddexp`` (stable for entries far below the running total).
"""
import operator
from typing import Any, Callable, Sequence

import numpy as np

from .. import numpy as fnp
from .. import tree
from ._arith import add, max as lax_max, min as lax_min, mul
from ._bits import bitwise_and, bitwise_or, bitwise_xor
from ._common import (FLOAT, INTEGER_OR_BOOL, NUMBER, ORDERED, accept, all_concrete, array,
                      canonical_axis, values)
from ._graphs import flatten_operands
from ._higher import associative_scan
from ..typing import Array, ArrayLike, PyTree

__all__ = ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and",
           "reduce_or", "reduce_xor", "reduce", "cumsum", "cumprod", "cummax", "cummin",
           "cumlogsumexp"]


def _axes(x, axes):
    out = sorted({canonical_axis(a, x.ndim, "axes") for a in axes})
    return tuple(out)


def _empty(x, axes):
    return any(x.shape[a] == 0 for a in axes)


def _identity(x, axes, value):
    shape = tuple(n for i, n in enumerate(x.shape) if i not in axes)
    return np.full(shape, value, x.dtype)


def _kept(x, out):
    """``out`` in ``x``'s dtype (NumPy widens small integer sums and products)."""
    return out if out.dtype == x.dtype else fnp.astype(out, x.dtype)


def reduce_sum(operand: ArrayLike, axes: Sequence[int], *, out_sharding: Any = None) -> Array:
    """The sum over ``axes`` (in the operand's dtype).  ``out_sharding`` is accepted and
    unused (funcgrad computes on one device).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reduce_sum(np.arange(6.0).reshape(2, 3), (1,))
    array([ 3., 12.])
    """
    x = accept("reduce_sum", array(operand), NUMBER)
    axes = _axes(x, axes)
    return _kept(x, fnp.sum(x, axis=axes)) if axes else x


def reduce_prod(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The product over ``axes`` (in the operand's dtype).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reduce_prod(np.arange(1.0, 7.0).reshape(2, 3), (1,))
    array([  6., 120.])
    """
    x = accept("reduce_prod", array(operand), NUMBER)
    axes = _axes(x, axes)
    return _kept(x, fnp.prod(x, axis=axes)) if axes else x


def _lowest(dtype, largest):
    if dtype.kind == "f":
        return -np.inf if largest else np.inf
    if dtype.kind == "b":
        return not largest
    info = np.iinfo(dtype)
    return info.min if largest else info.max


def _extreme(name, operand, axes, largest):
    """``reduce_max`` (``largest``) or ``reduce_min``."""
    x = accept(name, array(operand), ORDERED)
    axes = _axes(x, axes)
    if not axes:
        return x
    if _empty(x, axes):
        return _identity(x, axes, _lowest(x.dtype, largest))
    return (fnp.max if largest else fnp.min)(x, axis=axes)


def reduce_max(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The maximum over ``axes`` (NaN if any entry is; ``-inf``, or the integer minimum,
    over an empty axis); tied maxima share the derivative equally, as JAX.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reduce_max(np.array([[1.0, 5.0], [7.0, 0.0]]), (1,))
    array([5., 7.])
    """
    return _extreme("reduce_max", operand, axes, True)


def reduce_min(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The minimum over ``axes`` (NaN if any entry is; ``inf``, or the integer maximum,
    over an empty axis); tied minima share the derivative equally, as JAX.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reduce_min(np.array([[1.0, 5.0], [7.0, 0.0]]), (1,))
    array([1., 0.])
    """
    return _extreme("reduce_min", operand, axes, False)


def _bitwise_reduction(name, logical, numpy_ufunc, pairwise, identity):
    def op(operand: ArrayLike, axes: Sequence[int]) -> Array:
        x = accept(name, array(operand), INTEGER_OR_BOOL)
        axes = _axes(x, axes)
        if not axes:
            return x
        if x.dtype.kind == "b":
            return logical(x, axes)
        if all_concrete((x,)):
            return numpy_ufunc.reduce(values(x), axis=axes)
        return _fold(x, axes, pairwise, identity(x.dtype))
    op.__name__ = op.__qualname__ = name
    return op


def _fold(x, axes, pairwise, identity):
    """``pairwise`` folded over ``axes`` in halving rounds (log2 of their size)."""
    kept = [n for i, n in enumerate(x.shape) if i not in axes]
    flat = fnp.reshape(fnp.moveaxis(x, axes, tuple(range(-len(axes), 0))), (*kept, -1))
    if flat.shape[-1] == 0:
        return np.full(kept, identity, x.dtype)
    while flat.shape[-1] > 1:
        if flat.shape[-1] % 2:
            flat = fnp.concatenate([flat, np.full((*kept, 1), identity, x.dtype)], axis=-1)
        flat = pairwise(flat[..., 0::2], flat[..., 1::2])
    return flat[..., 0]


def _parity(bits, axes):
    return fnp.mod(fnp.sum(bits, axis=axes), 2)


def _all_ones(dtype):
    return np.iinfo(dtype).max if np.dtype(dtype).kind == "u" else -1


reduce_and = _bitwise_reduction(
    "reduce_and", lambda x, axes: fnp.all(x, axis=axes), np.bitwise_and, fnp.bitwise_and,
    _all_ones)
reduce_and.__doc__ = """Bitwise and (logical and of booleans) over ``axes``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reduce_and(np.array([7, 3]), (0,)), lax.reduce_and(np.array([True, False]), (0,))
    (np.int64(3), np.False_)
    """
reduce_or = _bitwise_reduction("reduce_or", lambda x, axes: fnp.any(x, axis=axes),
                               np.bitwise_or, fnp.bitwise_or, lambda dtype: 0)
reduce_or.__doc__ = """Bitwise or (logical or of booleans) over ``axes``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reduce_or(np.array([4, 1]), (0,))
    np.int64(5)
    """
reduce_xor = _bitwise_reduction(
    "reduce_xor", lambda x, axes: fnp.not_equal(_parity(fnp.astype(x, np.int64), axes), 0),
    np.bitwise_xor, fnp.bitwise_xor, lambda dtype: 0)
reduce_xor.__doc__ = """Bitwise exclusive or (parity of booleans) over ``axes``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reduce_xor(np.array([6, 3]), (0,))
    np.int64(5)
    """

# computations reduce() recognises: function -> the lax reduction it stands for
MONOIDS = {}
for _fns, _reduction in [
        ((add, fnp.add, np.add, operator.add), reduce_sum),
        ((mul, fnp.multiply, np.multiply, operator.mul), reduce_prod),
        ((lax_max, fnp.maximum, np.maximum), reduce_max),
        ((lax_min, fnp.minimum, np.minimum), reduce_min),
        ((bitwise_and, np.bitwise_and, operator.and_), reduce_and),
        ((bitwise_or, np.bitwise_or, operator.or_), reduce_or),
        ((bitwise_xor, np.bitwise_xor, operator.xor), reduce_xor)]:
    for _fn in _fns:
        MONOIDS[_fn] = _reduction


_ONE_ARRAY = tree.flatten(0)[1]  # the structure of operands given as one array


def _pairwise(computation, treedef, leaves, axis):
    """``leaves`` reduced along ``axis`` by halving: neighbours combined each round."""
    from ._structural import slice_in_dim, squeeze

    def combine(a, b):
        out_leaves, out_tree = flatten_operands(computation(tree.unflatten(treedef, a),
                                                            tree.unflatten(treedef, b)))
        if out_tree != treedef:
            raise TypeError(f"reduce: the computation returned structure {out_tree} for "
                            f"operands of structure {treedef}; they must be the same")
        return [array(x) for x in out_leaves]

    n = int(leaves[0].shape[axis])
    while n > 1:
        half = n // 2
        paired = combine([slice_in_dim(x, 0, 2 * half, 2, axis) for x in leaves],
                         [slice_in_dim(x, 1, 2 * half, 2, axis) for x in leaves])
        if n % 2:
            paired = [fnp.concatenate([p, slice_in_dim(x, n - 1, n, 1, axis)], axis=axis)
                      for p, x in zip(paired, leaves)]
        leaves, n = paired, half + n % 2
    return [squeeze(x, (axis,)) for x in leaves], combine


def operands_with_inits(name, operands, init_values):
    """``(operand arrays, initial values, their tree)`` of ``reduce``/``reduce_window``:
    one scalar initial value of its operand's dtype per operand, the operands of one
    shape."""
    leaves, treedef = flatten_operands(operands)
    inits, init_tree = flatten_operands(init_values)
    if init_tree != treedef:
        raise TypeError(f"{name}: the initial values have structure {init_tree}, the "
                        f"operands {treedef}; give one initial value per operand")
    leaves, inits = [array(x) for x in leaves], [array(v) for v in inits]
    for x, v in zip(leaves, inits):
        if v.ndim or v.dtype != x.dtype:
            raise TypeError(f"{name}: each initial value must be a scalar of its operand's "
                            f"dtype, got {v.dtype}{list(v.shape)} for {x.dtype}")
    if len({x.shape for x in leaves}) > 1:
        raise TypeError(f"{name}: the operands need one shape, got "
                        f"{[x.shape for x in leaves]}")
    return leaves, inits, treedef


def reduce(operands: PyTree, init_values: PyTree, computation: Callable[..., Any],
           dimensions: Sequence[int], out_sharding: Any = None) -> PyTree:
    """Reduce ``operands`` (an array or a pytree of arrays of one shape) over
    ``dimensions`` with ``computation(a, b)``, an associative, commutative function of two
    such pytrees, starting from ``init_values`` (its identity, as JAX assumes).
    ``out_sharding`` is accepted and unused (funcgrad computes on one device).

    >>> import operator, numpy as np
    >>> from funcgrad import lax
    >>> lax.reduce(np.arange(6.0).reshape(2, 3), 0.0, lax.add, (1,))
    array([ 3., 12.])
    >>> lax.reduce(np.array([2.0, 5.0, 3.0]), -np.inf, lambda a, b: np.maximum(a, b), (0,))
    array(5.)
    """
    leaves, inits, treedef = operands_with_inits("reduce", operands, init_values)
    axes = _axes(leaves[0], dimensions)
    out_shape = tuple(n for i, n in enumerate(leaves[0].shape) if i not in axes)
    monoid = MONOIDS.get(computation) if treedef == _ONE_ARRAY else None
    if _empty(leaves[0], axes):
        return tree.unflatten(treedef, [fnp.broadcast_to(v, out_shape) for v in inits])
    if monoid is not None:
        return computation(inits[0], monoid(leaves[0], axes))
    combine = None
    for axis in reversed(axes):  # the last first, so the others keep their positions
        leaves, combine = _pairwise(computation, treedef, leaves, axis)
    if combine is None:
        return tree.unflatten(treedef, leaves)
    return tree.unflatten(treedef, combine(inits, leaves))


# --- cumulative -------------------------------------------------------------------------------

def _cumulative(name, kinds, compute, doc):
    def op(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
        x = accept(name, array(operand), kinds)
        if not x.ndim:
            raise TypeError(f"{name}: the operand needs at least one axis")
        axis = canonical_axis(axis, x.ndim)
        if reverse:
            return fnp.flip(compute(fnp.flip(x, axis), axis), axis)
        return compute(x, axis)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


cumsum = _cumulative("cumsum", NUMBER, lambda x, axis: _kept(x, fnp.cumsum(x, axis)), """
    The running sum along ``axis`` (from the end with ``reverse=True``), in the operand's
    dtype.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.cumsum(np.arange(1.0, 5.0)), lax.cumsum(np.arange(1.0, 5.0), reverse=True)
    (array([ 1.,  3.,  6., 10.]), array([10.,  9.,  7.,  4.]))
    """)
cumprod = _cumulative("cumprod", NUMBER, lambda x, axis: _kept(x, fnp.cumprod(x, axis)), """
    The running product along ``axis`` (from the end with ``reverse=True``), in the
    operand's dtype.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.cumprod(np.arange(1.0, 5.0))
    array([ 1.,  2.,  6., 24.])
    """)
cummax = _cumulative("cummax", ORDERED, lambda x, axis: associative_scan(fnp.maximum, x,
                                                                         axis=axis), """
    The running maximum along ``axis`` (from the end with ``reverse=True``).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.cummax(np.array([1.0, 3.0, 2.0, 5.0]))
    array([1., 3., 3., 5.])
    """)
cummin = _cumulative("cummin", ORDERED, lambda x, axis: associative_scan(fnp.minimum, x,
                                                                         axis=axis), """
    The running minimum along ``axis`` (from the end with ``reverse=True``).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.cummin(np.array([3.0, 1.0, 2.0, 0.0]))
    array([3., 1., 1., 0.])
    """)
cumlogsumexp = _cumulative("cumlogsumexp", FLOAT, lambda x, axis: associative_scan(
    fnp.logaddexp, x, axis=axis), """
    The running ``log(sum(exp(x)))`` along ``axis`` (from the end with ``reverse=True``),
    computed without overflow or underflow.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.cumlogsumexp(np.array([-1000.0, 0.0, 0.0]))
    array([-1.00000000e+03,  0.00000000e+00,  6.93147181e-01])
    """)

"""``funcgrad.numpy.linalg``'s products and tensor helpers: matrix_power, multi_dot,
tensorsolve, tensorinv, and the array-API names (cross, outer, trace, diagonal, matmul,
tensordot, vecdot, matrix_transpose) with ``numpy.linalg``'s stricter signatures."""
import operator
from typing import Any, Sequence

import numpy as np

from ..primitives import linalg as _la
from . import building, indexing, products
from ._convert import asarray
from .constructors import astype
from .manipulation import broadcast_to, reshape, swapaxes, transpose
from ..typing import Array, ArrayLike, Axis, DTypeLike


def _float(a):
    return astype(a, np.float64) if a.dtype.kind in "biu" else a


def matrix_power(a: ArrayLike, n: int) -> Array:
    """``a`` to the integer power ``n`` by repeated squaring (``n < 0``: of ``inv(a)``;
    ``n == 0``: the identity, with a zero derivative), stacks too.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.linalg.matrix_power(np.array([[1.0, 1.0], [0.0, 1.0]]), 3)
    array([[1., 3.],
           [0., 1.]])
    >>> fg.grad(lambda a: fnp.sum(fnp.linalg.matrix_power(a, 2)))(np.eye(2))
    array([[2., 2.],
           [2., 2.]])
    """
    a = asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise np.linalg.LinAlgError(f"matrix_power: expected (stacked) square matrices "
                                    f"(..., n, n), got shape {a.shape}")
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError(f"matrix_power: exponent must be an integer, got {n!r}") from e
    if n == 0:
        return broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    if n < 0:
        a, n = _la.inv(_float(a)), -n
    # NumPy's own order of products, so that the values agree to the last bit
    if n == 1:
        return a
    if n == 2:
        return _la.matmul(a, a)
    if n == 3:
        return _la.matmul(_la.matmul(a, a), a)
    z = result = None
    while n > 0:
        z = a if z is None else _la.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else _la.matmul(result, z)
    return result


def multi_dot(arrays: Sequence[ArrayLike], *, out: None = None) -> Array:
    """The product of a chain of matrices in the cheapest order (first and last may be
    vectors), as ``np.linalg.multi_dot``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.multi_dot([np.ones(2), np.eye(2), np.full((2, 3), 2.0)])
    array([4., 4., 4.])
    """
    if out is not None:
        raise TypeError("multi_dot(..., out=...) would write into an array; traced arrays "
                        "are immutable. Use the returned value instead.")
    arrays = [asarray(x) for x in arrays]
    if len(arrays) < 2:
        raise ValueError("multi_dot: expecting at least two arrays")
    if len(arrays) == 2:
        return products.dot(arrays[0], arrays[1])
    first_vector, last_vector = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_vector:
        arrays[0] = reshape(arrays[0], (1, -1))
    if last_vector:
        arrays[-1] = reshape(arrays[-1], (-1, 1))
    for x in arrays:
        if x.ndim != 2:
            raise np.linalg.LinAlgError(f"multi_dot: {x.ndim}-dimensional array given; "
                                        f"the arrays must be two-dimensional (only the first "
                                        f"and last may be vectors)")
    order = _chain_order([x.shape[0] for x in arrays] + [arrays[-1].shape[1]])
    result = _chain(arrays, order, 0, len(arrays) - 1)
    if first_vector and last_vector:
        return result[0, 0]
    if first_vector or last_vector:
        return result[0, :] if first_vector else result[:, 0]
    return result


def _chain_order(p):
    """NumPy's dynamic programme (Cormen, 15.2): ``split[i][j]`` is where the cheapest
    product of matrices ``i..j`` splits (ties keep the first split, as NumPy does)."""
    n = len(p) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(arrays, split, i, j):
    if i == j:
        return arrays[i]
    k = split[i][j]
    return _la.matmul(_chain(arrays, split, i, k), _chain(arrays, split, k + 1, j))


def tensorsolve(a: ArrayLike, b: ArrayLike, axes: Axis = None) -> Array:
    """``x`` with ``tensordot(a, x, axes=x.ndim) == b``: a solve of the reshaped matrix.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.tensorsolve(np.eye(4).reshape(2, 2, 2, 2), np.ones((2, 2)))
    array([[1., 1.],
           [1., 1.]])
    """
    a, b = _float(asarray(a)), _float(asarray(b))
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(k % an)
            order.append(k % an)
        a = transpose(a, order)
    old_shape = a.shape[b.ndim:]
    size = int(np.prod(old_shape, dtype=np.int64))
    if int(np.prod(a.shape, dtype=np.int64)) != size ** 2:
        raise np.linalg.LinAlgError(
            f"tensorsolve: a of shape {a.shape} does not make a square matrix: "
            f"prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]) is needed (b has {b.ndim} axes)")
    x = _la.solve(reshape(a, (size, size)), reshape(b, (size,)))
    return reshape(x, old_shape)


def tensorinv(a: ArrayLike, ind: int = 2) -> Array:
    """The inverse of ``a`` as a tensor operator on its first ``ind`` axes.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.tensorinv(2.0 * np.eye(4).reshape(4, 2, 2), ind=1).shape
    (2, 2, 4)
    """
    a = _float(asarray(a))
    if ind <= 0:
        raise ValueError(f"tensorinv: invalid ind argument {ind}: it must be positive")
    inv_shape = a.shape[ind:] + a.shape[:ind]
    size = int(np.prod(a.shape[ind:], dtype=np.int64))
    rest = int(np.prod(a.shape, dtype=np.int64)) // max(size, 1)
    if rest != size:
        raise np.linalg.LinAlgError(
            f"tensorinv: a of shape {a.shape} with ind={ind} is not square: "
            f"prod(a.shape[:ind]) must equal prod(a.shape[ind:])")
    return reshape(_la.inv(reshape(a, (size, size))), inv_shape)


def cross(x1: ArrayLike, x2: ArrayLike, /, *, axis: Axis = -1) -> Array:
    """Cross product of 3-element vectors along ``axis`` (``np.linalg.cross``: 3-d only).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.cross(np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]))
    array([0., 0., 1.])
    """
    x1, x2 = asarray(x1), asarray(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"cross: both input arrays must be (arrays of) 3-dimensional "
                         f"vectors, but they are {x1.shape[axis]} and {x2.shape[axis]} "
                         f"dimensional instead (np.cross takes 2-d vectors too)")
    return products.cross(x1, x2, axis=axis)


def outer(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Outer product of two vectors (``np.linalg.outer``: 1-d inputs only).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.outer(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    array([[3., 4.],
           [6., 8.]])
    """
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: input arrays must be one-dimensional, but they are "
                         f"{x1.ndim} and {x2.ndim} dimensional (np.outer flattens them)")
    return products.outer(x1, x2)


def trace(x: ArrayLike, /, *, offset: int = 0, dtype: DTypeLike | None = None) -> Array:
    """Sum of the ``offset``-th diagonal of the last two axes (stacks of matrices).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.trace(np.stack([np.eye(2), 2 * np.eye(2)]))
    array([2., 4.])
    """
    x = asarray(x)
    _at_least_2d("trace", x)
    return products.trace(x, offset, -2, -1, dtype)  # (summed in dtype, as NumPy's)


def diagonal(x: ArrayLike, /, *, offset: int = 0) -> Array:
    """The ``offset``-th diagonal of the last two axes (stacks of matrices).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.diagonal(np.arange(4.0).reshape(2, 2))
    array([0., 3.])
    """
    x = asarray(x)
    _at_least_2d("diagonal", x)
    return indexing.diagonal(x, offset, -2, -1)


def matmul(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``x1 @ x2`` (``np.linalg.matmul``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.matmul(np.eye(2), np.array([1.0, 2.0]))
    array([1., 2.])
    """
    return products.matmul(x1, x2)


def tensordot(x1: ArrayLike, x2: ArrayLike, /, *,
              axes: int | Sequence[int] | Sequence[Sequence[int]] = 2) -> Array:
    """``np.linalg.tensordot``: :func:`funcgrad.numpy.tensordot` with keyword ``axes``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.linalg.tensordot(np.ones((2, 3)), np.ones((2, 3))))
    6.0
    """
    return products.tensordot(x1, x2, axes=axes)


def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: Axis = -1) -> Array:
    """Dot products of vectors along ``axis``, broadcasting the rest.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.vecdot(np.ones((2, 3)), np.arange(3.0))
    array([3., 3.])
    """
    return building.vecdot(x1, x2, axis=axis)


def matrix_transpose(x: ArrayLike, /) -> Array:
    """Swap the last two axes (stacks of matrices).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.matrix_transpose(np.arange(6.0).reshape(1, 2, 3)).shape
    (1, 3, 2)
    """
    x = asarray(x)
    _at_least_2d("matrix_transpose", x)
    return swapaxes(x, -1, -2)


def _at_least_2d(name, x):
    if x.ndim < 2:
        raise ValueError(f"{name}: input array must be at least 2-dimensional, but it is "
                         f"{x.ndim}-dimensional")


__all__ = ["matrix_power", "multi_dot", "tensorsolve", "tensorinv", "cross", "outer", "trace",
           "diagonal", "matmul", "tensordot", "vecdot", "matrix_transpose"]

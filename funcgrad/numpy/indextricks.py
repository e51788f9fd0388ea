"""Index tricks and functional writes: ``r_``, ``c_``, ``ix_``, ``indices``,
``mask_indices``, ``tril_indices_from``, ``triu_indices_from``, ``diag_indices_from``,
``trim_zeros``, ``unstack``, ``einsum_path``; and ``put``, ``put_along_axis``,
``fill_diagonal``, which in NumPy write into their argument.

Traced arrays are immutable, so ``put``, ``put_along_axis`` and ``fill_diagonal`` here
*return* the updated array (as JAX's do) and leave their argument alone.  Called as plain
``np.put(x, ...)`` on a traced ``x`` they raise, naming the ``funcgrad.numpy`` call: the
NumPy call returns None, and its write would be lost silently.
"""
from typing import Any
import numpy as _np

# NumPy's own, as they are: they read shapes and integers only (fromfunction calls its
# function on index arrays, so a function closing over traced values works)
from numpy import (  # noqa: F401
    bartlett,
    blackman,
    fromfunction,
    hamming,
    hanning,
    indices,
    mask_indices,
)
from ._window_kaiser import kaiser  # noqa: F401  (differentiable in beta)

from ..kernels._broadcast import broadcast_shapes
from ._conversions import refuse_trimming
from ._convert import asarray, concrete_values
from ._numpy_calls import numpy_call
from .constructors import astype
from .indexing import at, take
from .manipulation import (
    broadcast_to,
    concatenate,
    moveaxis,
    ravel,
    reshape,
    swapaxes,
    transpose,
)
from .ranges import linspace
from .ufuncs import clip
from ..typing import Array, ArrayLike, Axis

__all__ = ["r_", "c_", "ix_", "indices", "mask_indices", "tril_indices_from",
           "triu_indices_from", "diag_indices_from", "trim_zeros", "unstack", "einsum_path",
           "put", "put_along_axis", "fill_diagonal", "place", "meshgrid", "broadcast_shapes",
           "fromfunction", "bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _ndmin(x, ndmin):
    x = asarray(x)
    return reshape(x, (1,) * (ndmin - x.ndim) + x.shape) if x.ndim < ndmin else x


class AxisConcatenator:
    """``fnp.r_[...]`` and ``fnp.c_[...]``: NumPy's index-expression concatenation, for
    traced values too (NumPy's own ``np.r_`` converts its items with ``np.array``, which a
    traced value refuses: write ``fnp.r_``).

    Items are arrays, scalars, and slices (``1:4`` an ``arange``, ``0:1:5j`` a
    ``linspace``).  A first string item sets the axis (``'1'``), ``'axis,ndmin'`` or
    ``'axis,ndmin,trans1d'``; ``'r'``/``'c'`` (NumPy's matrix rows/columns) give a plain
    2-d array (1 x n, or n x 1 for a 1-d result), not an ``np.matrix``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.r_[np.array([1.0, 2.0]), 0.5, 3:5]
    array([1. , 2. , 0.5, 3. , 4. ])
    >>> fnp.c_[np.array([1.0, 2.0]), np.array([3.0, 4.0])]
    array([[1., 3.],
           [2., 4.]])
    """

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):
            raise TypeError("fnp.r_['...'] with a matrix-building string is not supported; "
                            "build the matrix with fnp.block")
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        matrix = col = False
        objs, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if isinstance(step, (complex, _np.complexfloating)):
                    new = linspace(start, item.stop, num=int(abs(step)))
                else:
                    new = _np.arange(start, item.stop, step)
                if ndmin > 1:
                    new = _ndmin(new, ndmin)
                    if trans1d != -1:
                        new = swapaxes(new, -1, trans1d)
                kinds.append(new.dtype)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    matrix, col = True, item == "c"
                    continue
                try:
                    vec = [int(x) for x in item.split(",")]
                except ValueError as e:
                    raise ValueError(f"unknown special directive {item!r}: use 'axis', "
                                     f"'axis,ndmin' or 'axis,ndmin,trans1d'") from e
                axis = vec[0]
                if len(vec) > 1:
                    ndmin = vec[1]
                if len(vec) > 2:
                    trans1d = vec[2]
                continue
            elif isinstance(item, (int, float, complex, bool, _np.generic)):
                new = item
                kinds.append(item)
            else:
                item = asarray(item)
                new = _ndmin(item, ndmin)
                if trans1d != -1 and item.ndim < ndmin:
                    k2, k1 = ndmin - item.ndim, trans1d
                    if k1 < 0:
                        k1 += k2 + 1
                    axes = list(range(ndmin))
                    new = transpose(new, axes[:k1] + axes[k2:] + axes[k1:k2])
                kinds.append(new.dtype)
            objs.append(new)
        if not objs:
            return _np.array([])
        dtype = _np.result_type(*kinds)
        objs = [_ndmin(astype(asarray(o), dtype), ndmin) for o in objs]
        res = concatenate(objs, axis=axis)
        if matrix and res.ndim == 1:
            res = reshape(res, (res.shape[0], 1) if col else (1, res.shape[0]))
        return res

    def __len__(self):
        return 0


r_ = AxisConcatenator(0)
c_ = AxisConcatenator(-1, ndmin=2, trans1d=0)


def ix_(*args: ArrayLike) -> tuple[Array, ...]:
    """``np.ix_(*args)``: 1-d sequences reshaped to index an open mesh (booleans become
    their ``nonzero`` indices, which needs concrete values).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> rows, cols = fnp.ix_([0, 2], [1])
    >>> np.arange(9.0).reshape(3, 3)[rows, cols]
    array([[1.],
           [7.]])
    """
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        new = asarray(new) if not isinstance(new, (list, tuple)) or len(new) else \
            _np.asarray(new, _np.intp)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype.kind == "b":
            new = _np.nonzero(concrete_values(new, "ix_ of a boolean mask (its length)",
                                              "Pass integer indices instead."))[0]
        out.append(reshape(new, (1,) * k + (new.shape[0],) + (1,) * (nd - k - 1)))
    return tuple(out)


def _square_shape(arr, what):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError(f"{what}: input array must be 2-d")
    return arr.shape


def tril_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    """``np.tril_indices_from(arr, k=0)``: the lower triangle's indices for ``arr``'s shape.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.tril_indices_from(np.ones((2, 2)))
    (array([0, 1, 1]), array([0, 0, 1]))
    """
    n, m = _square_shape(arr, "tril_indices_from")
    return _np.tril_indices(n, k=k, m=m)


def triu_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    """``np.triu_indices_from(arr, k=0)``: the upper triangle's indices for ``arr``'s shape.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.triu_indices_from(np.ones((2, 2)))
    (array([0, 0, 1]), array([0, 1, 1]))
    """
    n, m = _square_shape(arr, "triu_indices_from")
    return _np.triu_indices(n, k=k, m=m)


def diag_indices_from(arr: ArrayLike) -> tuple[Array, ...]:
    """``np.diag_indices_from(arr)``: the main diagonal's indices of a square ``arr``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.diag_indices_from(np.ones((2, 2)))
    (array([0, 1]), array([0, 1]))
    """
    arr = asarray(arr)
    if arr.ndim < 2:
        raise ValueError("diag_indices_from: input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("diag_indices_from: all dimensions of input must be of equal length")
    return _np.diag_indices(arr.shape[0], arr.ndim)


def trim_zeros(filt: ArrayLike, trim: str = "fb", axis: Axis = None) -> Array:
    """``np.trim_zeros(filt, trim='fb', axis=None)``: ``filt`` without its leading
    (``'f'``) and/or trailing (``'b'``) zeros.  The result's length depends on the values,
    so they must be concrete (not under vmap/jit); the values kept keep their derivatives.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.trim_zeros(np.array([0.0, 1.0, 0.0, 2.0, 0.0]))
    array([1., 0., 2.])
    """
    filt = asarray(filt)
    trim = trim.lower()
    if any(c not in "fb" for c in trim):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    values = concrete_values(filt, "trim_zeros (its result's length)",
                             "Slice with static bounds instead, or use fnp.where to zero "
                             "entries out.")
    axes = range(filt.ndim) if axis is None else \
        [a % filt.ndim for a in (axis if isinstance(axis, (tuple, list)) else (axis,))]
    nz = _np.argwhere(values)
    index = [slice(None)] * filt.ndim
    for a in axes:
        if nz.size == 0:
            start = stop = 0 if "f" in trim else None
            stop = 0 if "b" in trim and "f" not in trim else stop
        else:
            start = int(nz[:, a].min()) if "f" in trim else None
            stop = int(nz[:, a].max()) + 1 if "b" in trim else None
        index[a] = slice(start, stop)
    if numpy_call() is not None and filt[tuple(index)].shape != filt.shape:
        # np.poly1d trims its coefficients this way: their zeros still move its values
        refuse_trimming(filt, "np.poly1d(c) (NumPy drops leading zero coefficients)",
                        "Use np.polyval(c, x) instead of np.poly1d(c)(x), which keeps them.")
    return filt[tuple(index)]


def unstack(x: ArrayLike, /, *, axis: int = 0) -> tuple[Array, ...]:
    """``np.unstack(x, axis=0)``: the slices of ``x`` along ``axis``, as a tuple.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.unstack(np.array([[1.0, 2.0], [3.0, 4.0]]), axis=1)
    (array([1., 3.]), array([2., 4.]))
    """
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    x = moveaxis(x, axis, 0)
    return tuple(x[i] for i in range(x.shape[0]))


def einsum_path(subscripts: str, *operands: ArrayLike, optimize: str = "greedy",
                einsum_call: bool = False) -> tuple[list[Any], str]:
    """``np.einsum_path``: NumPy's contraction order and report for these shapes (only the
    operands' shapes and dtypes are read, so traced operands are fine).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.einsum_path("ij,jk->ik", np.ones((2, 3)), np.ones((3, 4)))[0]
    ['einsum_path', (0, 1)]
    """
    def stand_in(x):
        if isinstance(x, (str, list)) or x is Ellipsis:
            return x
        x = asarray(x)
        return _np.broadcast_to(_np.zeros((), x.dtype), x.shape)
    ops = [stand_in(o) for o in operands]
    first = subscripts if isinstance(subscripts, str) else stand_in(subscripts)
    return _np.einsum_path(first, *ops, optimize=optimize, einsum_call=einsum_call)


def _mutates(fn):
    fn.numpy_mutates = True  # plain np.<name>(traced, ...) raises (see funcgrad.numpy._methods)
    return fn


@_mutates
def put(a: ArrayLike, ind: ArrayLike, v: ArrayLike, mode: str = "raise") -> Array:
    """``np.put(a, ind, v, mode='raise')``, functional: a copy of ``a`` with the flat
    positions ``ind`` set to ``v`` (repeated as needed; the last write wins where ``ind``
    repeats).  NumPy writes into ``a`` and returns None; this returns the new array.
    ``mode='wrap'``/``'clip'`` as in NumPy.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.put(np.zeros(4), [0, 2], [5.0, 6.0])
    array([5., 0., 6., 0.])
    """
    a = asarray(a)
    n = a.size
    ind = asarray(ind)
    if ind.dtype.kind not in "iu":
        raise TypeError(f"put: indices must be integers, got dtype {ind.dtype}")
    ind = ravel(ind)
    if mode == "wrap":
        ind = ind % n
    elif mode == "clip":
        ind = astype(clip(ind, 0, n - 1), _np.intp)
    elif mode != "raise":
        raise ValueError(f"put: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    k = ind.shape[0]
    if k == 0:
        return a
    v = ravel(asarray(v))
    if v.shape[0] == 0:
        return a
    v = take(v, _np.arange(k) % v.shape[0])
    return reshape(at(ravel(a))[ind].set(v), a.shape)


def _along_axis_index(shape, indices, axis):
    index = []
    for d, n in enumerate(shape):
        if d == axis:
            index.append(indices)
        else:
            index.append(_np.arange(n).reshape((1,) * d + (n,) + (1,) * (len(shape) - d - 1)))
    return tuple(index)


@_mutates
def put_along_axis(arr: ArrayLike, indices: ArrayLike, values: ArrayLike, axis: Axis) -> Array:
    """``np.put_along_axis(arr, indices, values, axis)``, functional: a copy of ``arr``
    with ``values`` written at ``indices`` along ``axis`` (matched along the other axes, as
    in ``take_along_axis``).  NumPy writes into ``arr``; this returns the new array.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.put_along_axis(np.zeros((2, 2)), np.array([[1], [0]]), 7.0, axis=1)
    array([[0., 7.],
           [7., 0.]])
    """
    arr = asarray(arr)
    indices = asarray(indices)
    if indices.dtype.kind not in "iu":
        raise IndexError(f"put_along_axis: `indices` must be an integer array, got dtype "
                         f"{indices.dtype}")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("put_along_axis: when axis=None, `indices` must be 1-d")
        return reshape(put_along_axis(ravel(arr), indices, values, 0), arr.shape)
    if indices.ndim != arr.ndim:
        raise ValueError(f"put_along_axis: `indices` and `arr` must have the same number of "
                         f"dimensions, got {indices.ndim} and {arr.ndim}")
    axis = axis % arr.ndim
    indices = _np.where(indices < 0, indices + arr.shape[axis], indices) \
        if isinstance(indices, _np.ndarray) else indices
    return at(arr)[_along_axis_index(arr.shape, indices, axis)].set(values)


@_mutates
def fill_diagonal(a: ArrayLike, val: ArrayLike, wrap: bool = False) -> Array:
    """``np.fill_diagonal(a, val, wrap=False)``, functional: a copy of ``a`` with its main
    diagonal set to ``val`` (cycled; ``wrap`` as in NumPy for tall matrices).  NumPy writes
    into ``a``; this returns the new array.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fill_diagonal(np.zeros((2, 3)), 4.0)
    array([[4., 0., 0.],
           [0., 4., 0.]])
    """
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    end = None
    if a.ndim == 2:
        step = a.shape[1] + 1
        if not wrap:
            end = a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(_np.cumprod(a.shape[:-1]).sum())
    positions = _np.arange(a.size)[:end:step]
    return put(a, positions, val)


@_mutates
def place(arr: ArrayLike, mask: ArrayLike, vals: ArrayLike) -> Array:
    """``np.place(arr, mask, vals)``, functional: a copy of ``arr`` with the entries where
    ``mask`` (concrete) holds set to ``vals`` in turn (cycled).  NumPy writes into ``arr``;
    this returns the new array (for a traced mask use ``fnp.where``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.place(np.zeros(4), np.array([True, False, True, True]), [1.0, 2.0])
    array([1., 0., 2., 1.])
    """
    arr = asarray(arr)
    m = concrete_values(asarray(mask), "place (which entries it writes)",
                        "Use fnp.where(mask, new_values, arr) for a mask known only at run "
                        "time.")
    positions = _np.flatnonzero(_np.broadcast_to(m, arr.shape) if m.size == 1 else m)
    if positions.size and _np.size(vals) == 0:
        raise ValueError("Cannot insert from an empty array!")
    return put(arr, positions, vals) if positions.size else arr


def meshgrid(*xi: ArrayLike, copy: bool = True, sparse: bool = False,
             indexing: str = "xy") -> tuple[Array, ...]:
    """``np.meshgrid(*xi, copy=True, sparse=False, indexing='xy')``: coordinate arrays from
    coordinate vectors (traced ones too; each output's derivative flows back to its vector).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> [g.shape for g in fnp.meshgrid(np.arange(3.0), np.arange(2.0))]
    [(2, 3), (2, 3)]
    """
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    nd = len(xi)
    out = [reshape(asarray(x), (1,) * i + (-1,) + (1,) * (nd - i - 1)) for i, x in enumerate(xi)]
    if indexing == "xy" and nd > 1:
        out[0] = reshape(out[0], (1, -1) + (1,) * (nd - 2))
        out[1] = reshape(out[1], (-1, 1) + (1,) * (nd - 2))
    if not sparse:
        shape = broadcast_shapes(*(o.shape for o in out))
        out = [broadcast_to(o, shape) for o in out]
        out = [o.copy() if copy and isinstance(o, _np.ndarray) else o for o in out]
    return tuple(out)

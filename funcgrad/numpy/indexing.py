"""Selecting elements: where, take, sort, diagonals, triangles, and ``x.at[idx]`` updates."""
import builtins
from typing import Any

import numpy as _np

from ..core import concrete, internal
from ..primitives import elementwise as _ew
from ..primitives import indexing as _ix
from ._convert import asarray, one_axis, operand
from .constructors import astype
from .manipulation import broadcast_to, ravel
from .ufuncs import binds
from ..typing import Array, ArrayLike, Axis

# (nonzero and argwhere, with size=, are exported by .searching)
__all__ = ["where", "take", "take_along_axis", "sort", "argsort",
           "diagonal", "diag", "triu", "tril", "at"]


@binds(_ew.where_p)
def where(condition: ArrayLike, x: ArrayLike | None = None, y: ArrayLike | None = None) -> Array:
    """``np.where``: elementwise select (both branches get exact-zero cotangents
    where not taken).  With only ``condition``, the indices where it holds.

    A NaN from *inside* the untaken branch still propagates (``0 * nan``);
    guard that branch's input too (the double-where idiom)::

        safe = fnp.where(x > 0, x, 1.0)
        y = fnp.where(x > 0, fnp.sqrt(safe), 0.0)

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.where(x > 0, x, 0.0)))(np.array([-1.0, 2.0]))
    array([0., 1.])
    >>> fnp.where(np.array([0.0, 3.0, 4.0]))
    (array([1, 2]),)
    """
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("where takes either 1 or 3 arguments")
    return _ew.where(operand(condition), operand(x), operand(y))


def _plain_values(a):
    """``a``'s values as a NumPy array, for results that are not differentiable: a Tensor
    (detached) or GPU array as plain values -- handed to NumPy as they are, they would
    dispatch back to funcgrad.numpy forever."""
    x = concrete(asarray(a))
    if not isinstance(x, _np.ndarray):
        detach = getattr(x, "detach", None)
        x = _np.asarray(detach() if detach is not None else x)
    return x


def nonzero(a):
    """Indices of non-zero entries (needs concrete values; not differentiable).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.nonzero(np.array([[0.0, 1.0], [2.0, 0.0]]))
    (array([0, 1]), array([1, 0]))
    """
    return _np.nonzero(_plain_values(a))


def argwhere(a):
    """Indices of non-zero entries, one row each (needs concrete values).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.argwhere(np.array([[0.0, 1.0], [2.0, 0.0]]))
    array([[0, 1],
           [1, 0]])
    """
    return _np.argwhere(_plain_values(a))


def take(a: ArrayLike, indices: ArrayLike, axis: Axis = None, out: None = None,
         mode: str = "raise") -> Array:
    """Elements at ``indices`` along ``axis`` (of the flattened array when None); indices
    out of bounds raise (``mode='raise'``), wrap around (``'wrap'``) or are clipped to the
    ends (``'clip'``, negative ones too), as NumPy.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.take(x, [0, 0, 2])))(np.ones(3))
    array([2., 0., 1.])
    >>> fnp.take(np.array([1.0, 2.0, 3.0]), [-4, 5], mode="wrap")
    array([3., 3.])
    """
    if out is not None:
        raise TypeError("take: out= is not supported (funcgrad arrays are immutable); use "
                        "the returned value")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = one_axis(axis, a.ndim)
    indices = asarray(indices)
    if indices.dtype.kind == "b":  # np.take reads booleans as the integers 0 and 1, not a mask
        indices = astype(indices, _np.intp)
    if mode != "raise":
        n = a.shape[axis]
        if n == 0 and indices.size:
            raise IndexError(f"take: cannot do a non-empty take from an empty axis "
                             f"(mode={mode!r})")
        if n:
            indices = _ew.mod(indices, n) if mode == "wrap" else _ew.clip(indices, 0, n - 1)
    # (through the primitive, so a plain array indexed by a traced index works too)
    return _ix.index(a, (slice(None),) * axis + (indices,))


def take_along_axis(arr: ArrayLike, indices: ArrayLike, axis: Axis) -> Array:
    """Elements of ``arr`` at ``indices``, matched along every other axis (as
    ``np.take_along_axis``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> a = np.array([[3.0, 1.0], [0.0, 2.0]])
    >>> fnp.take_along_axis(a, np.argsort(a, axis=1), axis=1)
    array([[1., 3.],
           [0., 2.]])
    """
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
    axis = one_axis(axis, arr.ndim)
    if indices.shape[:axis] + indices.shape[axis + 1:] != arr.shape[:axis] + arr.shape[axis + 1:]:
        # the other axes broadcast against each other, as in NumPy
        other = _np.broadcast_shapes(indices.shape[:axis] + (1,) + indices.shape[axis + 1:],
                                     arr.shape[:axis] + (1,) + arr.shape[axis + 1:])
        arr = broadcast_to(arr, other[:axis] + arr.shape[axis:axis + 1] + other[axis + 1:])
        indices = broadcast_to(indices, other[:axis] + indices.shape[axis:axis + 1]
                               + other[axis + 1:])
    return _ix.take_along_axis(arr, indices, axis)


def _flat_or(a, axis):
    """``a`` and ``axis``, or the flattened ``a`` and 0 when ``axis`` is None."""
    if axis is None:
        return ravel(a), 0
    return a, axis


def sort(a: ArrayLike, axis: Axis = -1, kind: Any = None, order: None = None, *,
         stable: Any = None) -> Array:
    """Sorted copy; each element's derivative follows it to its sorted place.  The sort is
    stable whatever ``kind`` and ``stable`` say (which NumPy lets it be).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sort(x)[0])(np.array([3.0, 1.0, 2.0]))
    array([0., 1., 0.])
    """
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields (sort's order= "
                         "names the fields of a structured array)")
    a, axis = _flat_or(asarray(a), axis)
    axis = one_axis(axis, a.ndim)
    return _ix.take_along_axis(a, _ix.argsort(a, axis), axis)


def argsort(a: ArrayLike, axis: Axis = -1, kind: Any = None, order: None = None, *,
            stable: Any = None) -> Array:
    """Indices that sort ``a`` along ``axis`` (a stable sort).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.argsort(np.array([3.0, 1.0, 2.0]))
    array([1, 2, 0])
    """
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields (argsort's "
                         "order= names the fields of a structured array)")
    a, axis = _flat_or(asarray(a), axis)
    return _ix.argsort(a, one_axis(axis, a.ndim))


def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """The ``offset``-th diagonal of the matrices spanned by ``axis1`` and ``axis2``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.diagonal(np.arange(9.0).reshape(3, 3), 1)
    array([1., 5.])
    """
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("diagonal requires an array of at least two dimensions")
    return _ix.diagonal(a, offset, axis1, axis2)


@internal  # its constants (mask, padding, zeros) may move to a device
def diag(v: ArrayLike, k: int = 0) -> Array:
    """The ``k``-th diagonal of a matrix, or a matrix with ``v`` on its ``k``-th diagonal.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.diag(np.array([1.0, 2.0]))
    array([[1., 0.],
           [0., 2.]])
    """
    v = asarray(v)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("diag: input must be 1-d or 2-d")
    n = v.shape[0] + builtins.abs(k)
    rows = _np.arange(v.shape[0]) + builtins.max(-k, 0)
    cols = _np.arange(v.shape[0]) + builtins.max(k, 0)
    spec = (("a",), ("a",))
    return _ix.scatter(_np.zeros((n, n), v.dtype), v, [rows, cols], spec, "set")


def _masked(m, mask):
    return where(mask, m, _np.zeros((), m.dtype))


@internal  # its constants (mask, padding, zeros) may move to a device
def triu(m: ArrayLike, k: int = 0) -> Array:
    """The upper triangle (on and above the ``k``-th diagonal); zeros below.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.triu(np.ones((2, 2)))
    array([[1., 1.],
           [0., 1.]])
    """
    m = asarray(m)
    return _masked(m, _np.triu(_np.ones(m.shape[-2:], bool), k))


@internal  # its constants (mask, padding, zeros) may move to a device
def tril(m: ArrayLike, k: int = 0) -> Array:
    """The lower triangle (on and below the ``k``-th diagonal); zeros above.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.tril(np.ones((2, 2)))
    array([[1., 0.],
           [1., 1.]])
    """
    m = asarray(m)
    return _masked(m, _np.tril(_np.ones(m.shape[-2:], bool), k))


# --- x.at[idx] -----------------------------------------------------------------------------------

class IndexUpdateHelper:
    """``x.at[idx]``: functional index updates (``set``, ``add``, ``multiply``,
    ``divide``, ``power``, ``min``, ``max``, ``get``), each returning a new array and
    differentiable.

    Where indices repeat, ``set`` keeps the last write (as NumPy's ``x[idx] = v``) and
    ``add``/``multiply``/``min``/``max`` apply every update (as ``np.add.at`` and friends);
    ``divide`` and ``power`` need distinct indices and say so otherwise.

    >>> import numpy as np, funcgrad as fg
    >>> fg.grad(lambda x: x.at[np.array([0, 0])].add(x[1]).sum())(np.ones(2))
    array([1., 3.])
    """

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, idx):
        return IndexUpdateRef(self.array, idx)


class IndexUpdateRef:
    """``x.at[idx]``, waiting for the update to apply (see :class:`IndexUpdateHelper`)."""

    __slots__ = ("array", "idx")

    def __init__(self, array, idx):
        self.array = array
        self.idx = idx

    def _update(self, values, mode):
        x = self.array
        spec, arrays = _ix.normalize_index(self.idx, x.shape)
        values = operand(values)
        if getattr(values, "dtype", x.dtype) != x.dtype and x.dtype.kind == "f":
            values = astype(values, x.dtype)
        return _ix.scatter(x, values, arrays, spec, mode)

    def _elementwise(self, fn, values, what):
        spec, arrays = _ix.normalize_index(self.idx, self.array.shape)
        if _ix.repeats(self.array.shape, spec, arrays):
            raise ValueError(f"x.at[idx].{what}(v) needs distinct indices, and this index "
                             f"reaches an element more than once. Combine the updates of "
                             f"each position first, or use .multiply (repeats combine).")
        return self.set(fn(self.get(), operand(values)))

    def get(self):
        return _ix.index(self.array, self.idx)  # plain arrays with traced indices too

    def set(self, values):
        return self._update(values, "set")

    def add(self, values):
        return self._update(values, "add")

    def multiply(self, values):
        return self._update(values, "multiply")

    def divide(self, values):
        return self._elementwise(_ew.divide, values, "divide")

    def power(self, values):
        return self._elementwise(_ew.power, values, "power")

    def min(self, values):
        return self._update(values, "min")

    def max(self, values):
        return self._update(values, "max")


def at(x: ArrayLike) -> IndexUpdateHelper:
    """``x.at`` for any array: ``fnp.at(x)[idx].set(v)`` returns an updated copy.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x = np.zeros(3)
    >>> fnp.at(x)[1].set(5.0), x
    (array([0., 5., 0.]), array([0., 0., 0.]))
    """
    return IndexUpdateHelper(asarray(x))

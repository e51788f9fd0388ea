"""Selecting elements: where, take, sort, diagonals, triangles, and ``x.at[idx]`` updates."""
import builtins
from typing import Any

import numpy as _np

from ..kernels._broadcast import broadcast_shapes
from ..core import concrete, internal
from ..primitives import elementwise as _ew
from ..primitives import indexing as _ix
from ..primitives.index_spec import normalize_index
from ._convert import asarray, one_axis, operand, write_out
from .constructors import astype
from .manipulation import broadcast_to, ravel
from ._ufunc_wrappers import binds
from ..typing import Array, ArrayLike, Axis

# (nonzero, argwhere and where, with size=, are exported by .searching)
__all__ = ["take", "take_along_axis", "sort", "argsort",
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


def take(a: ArrayLike, indices: ArrayLike, axis: Axis = None, out: Any = None,
         mode: str = "raise", *, fill_value: Any = None, unique_indices: bool = False,
         indices_are_sorted: bool = False) -> Array:
    """Elements at ``indices`` along ``axis`` (of the flattened array when None); indices
    out of bounds raise (``mode='raise'``), wrap around (``'wrap'``) or are clipped to the
    ends (``'clip'``, negative ones too), as NumPy; JAX's ``'fill'`` reads ``fill_value``
    there (NaN by default, an integer dtype's extreme), negative indices counting from the
    end (see ``x.at[idx].get``).  JAX's hints ``unique_indices`` and
    ``indices_are_sorted`` are accepted and change nothing.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.take(x, [0, 0, 2])))(np.ones(3))
    array([2., 0., 1.])
    >>> fnp.take(np.array([1.0, 2.0, 3.0]), [-4, 5], mode="wrap")
    array([3., 3.])
    """
    if out is not None:
        return write_out("take", out, take(a, indices, axis, None, mode, fill_value=fill_value,
                                           unique_indices=unique_indices,
                                           indices_are_sorted=indices_are_sorted), "unsafe")
    if mode not in ("raise", "wrap", "clip", "fill"):
        raise ValueError(f"take: mode must be 'raise', 'wrap', 'clip' or 'fill', got {mode!r}")
    a = asarray(a)
    if axis is None or a.ndim == 0:  # (NumPy ravels a 0-d a: its axis 0 or -1 is the one)
        a, axis = ravel(a), 0 if axis is None else one_axis(axis, 1)
    axis = one_axis(axis, a.ndim)
    indices = asarray(indices)
    if indices.dtype.kind == "b":  # np.take reads booleans as the integers 0 and 1, not a mask
        indices = astype(indices, _np.intp)
    if mode == "fill":
        return IndexUpdateRef(a, (slice(None),) * axis + (indices,)).get(
            mode="fill", fill_value=fill_value)
    if mode != "raise":
        n = a.shape[axis]
        if n == 0 and indices.size:
            raise IndexError(f"take: cannot do a non-empty take from an empty axis "
                             f"(mode={mode!r})")
        if n:
            indices = _ew.mod(indices, n) if mode == "wrap" else _ew.clip(indices, 0, n - 1)
    # (through the primitive, so a plain array indexed by a traced index works too)
    return _ix.index(a, (slice(None),) * axis + (indices,))


def take_along_axis(arr: ArrayLike, indices: ArrayLike, axis: Axis = -1,
                    mode: str | None = None, fill_value: Any = None) -> Array:
    """Elements of ``arr`` at ``indices``, matched along every other axis (as
    ``np.take_along_axis``; JAX's signature).  Negative indices count from the end.
    Out-of-bounds indices raise ``IndexError`` (``mode=None`` or ``'promise_in_bounds'``,
    NumPy's behaviour; JAX's default is ``'fill'``), are clipped to the ends
    (``'clip'``), or read ``fill_value`` (``'fill'``: by default NaN, an integer dtype's
    extreme, True; its derivative flows to a traced ``fill_value``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> a = np.array([[3.0, 1.0], [0.0, 2.0]])
    >>> fnp.take_along_axis(a, np.argsort(a, axis=1), axis=1)
    array([[1., 3.],
           [0., 2.]])
    >>> fnp.take_along_axis(np.array([1.0, 2.0]), np.array([-1, 2]), 0, mode="fill")
    array([ 2., nan])
    """
    if mode not in (None, "promise_in_bounds", "clip", "fill"):
        raise ValueError(f"take_along_axis: mode must be None, 'promise_in_bounds', 'clip' "
                         f"or 'fill', got {mode!r}")
    arr = asarray(arr)
    indices = asarray(indices)
    if indices.dtype.kind not in "iu":  # as NumPy: no booleans, floats...
        raise IndexError(f"take_along_axis: `indices` must be an integer array, got dtype "
                         f"{indices.dtype}")
    if axis is None:
        arr, axis = ravel(arr), 0
    axis = one_axis(axis, arr.ndim)  # (NumPy checks the axis first)
    if indices.ndim != arr.ndim:
        raise ValueError(f"take_along_axis: `indices` and `arr` must have the same number of "
                         f"dimensions, got {indices.ndim} and {arr.ndim}")
    if indices.shape[:axis] + indices.shape[axis + 1:] != arr.shape[:axis] + arr.shape[axis + 1:]:
        # the other axes broadcast against each other, as in NumPy
        other = broadcast_shapes(indices.shape[:axis] + (1,) + indices.shape[axis + 1:],
                                     arr.shape[:axis] + (1,) + arr.shape[axis + 1:])
        arr = broadcast_to(arr, other[:axis] + arr.shape[axis:axis + 1] + other[axis + 1:])
        indices = broadcast_to(indices, other[:axis] + indices.shape[axis:axis + 1]
                               + other[axis + 1:])
    if mode in ("clip", "fill"):
        n = arr.shape[axis]
        indices = where(indices < 0, indices + n, indices)  # negative ones from the end
        if mode == "clip":
            indices = _ew.clip(indices, 0, builtins.max(n - 1, 0))
        else:  # the fill value sits at an extra position n, where out-of-bounds ones read
            arr = _extend(arr, [axis], _default_fill(arr.dtype) if fill_value is None
                          else fill_value)
            indices = where((indices < 0) | (indices >= n), n, indices)
    return _ix.take_along_axis(arr, indices, axis)


def _flat_or(a, axis):
    """``a`` and ``axis``, or the flattened ``a`` and 0 when ``axis`` is None."""
    if axis is None:
        return ravel(a), 0
    return a, axis


def sort(a: ArrayLike, axis: Axis = -1, kind: Any = None, order: None = None, *,
         stable: Any = None, descending: bool = False) -> Array:
    """Sorted copy; each element's derivative follows it to its sorted place.  The sort is
    stable whatever ``kind`` and ``stable`` say (which NumPy lets it be);
    ``descending=True`` (JAX's and the array API's) sorts from the largest.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sort(x)[0])(np.array([3.0, 1.0, 2.0]))
    array([0., 1., 0.])
    """
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields (sort's order= "
                         "names the fields of a structured array)")
    a, axis = _flat_or(asarray(a), axis)
    axis = one_axis(axis, a.ndim)
    return _ix.take_along_axis(a, _sorting_order(a, axis, descending), axis)


def _sorting_order(a, axis, descending):
    """The stable ascending, or descending, order of ``a`` along ``axis``: descending keeps
    ties in their original order too (the ascending order of the reversed array, read
    backwards and mapped back to the original positions)."""
    if not descending:
        return _ix.argsort(a, axis)
    flip = (slice(None),) * axis + (slice(None, None, -1),)
    order = _ix.argsort(_ix.index(a, flip), axis)
    return (a.shape[axis] - 1) - _ix.index(order, flip)


def argsort(a: ArrayLike, axis: Axis = -1, kind: Any = None, order: None = None, *,
            stable: Any = None, descending: bool = False) -> Array:
    """Indices that sort ``a`` along ``axis`` (a stable sort; from the largest with JAX's
    ``descending=True``, ties still in their original order).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.argsort(np.array([3.0, 1.0, 2.0]))
    array([1, 2, 0])
    """
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields (argsort's "
                         "order= names the fields of a structured array)")
    a = asarray(a)
    if axis is None or a.ndim == 0:  # (NumPy's argsort ravels a 0-d array; its sort does not)
        a, axis = ravel(a), (0 if axis is None else axis)
    return _sorting_order(a, one_axis(axis, a.ndim), descending)


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

    Out-of-bounds integer indices raise ``IndexError``, as NumPy's, unless a JAX ``mode``
    says what they mean: ``"clip"`` moves them to the nearest end; ``"fill"`` (for
    ``get``: those positions read ``fill_value``, by default NaN, or an integer dtype's
    extreme) and ``"drop"`` (for updates: those updates are skipped) are one mode, as in
    JAX.  ``"promise_in_bounds"`` is the default.  Negative indices count from the end in
    every mode.  JAX's hints ``indices_are_sorted`` and ``unique_indices`` are accepted and
    change nothing.

    >>> import numpy as np, funcgrad as fg
    >>> fg.grad(lambda x: x.at[np.array([0, 0])].add(x[1]).sum())(np.ones(2))
    array([1., 3.])
    >>> x = np.arange(3.0)
    >>> fg.numpy.at(x)[np.array([1, 5])].get(mode="fill", fill_value=-1.0)
    array([ 1., -1.])
    >>> fg.numpy.at(x)[np.array([1, 5])].add(10.0, mode="drop")
    array([ 0., 11.,  2.])
    """

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, idx):
        return IndexUpdateRef(self.array, idx)


_MODES = (None, "promise_in_bounds", "clip", "fill", "drop")


def _index_axes(idx, ndim):
    """The axis each entry of the index tuple ``idx`` reads (None for a new axis or '...')."""
    consumed = sum(getattr(k, "ndim", 1) if _is_mask(k) else 1 for k in idx
                   if k is not None and k is not Ellipsis)
    axes, axis = [], 0
    for k in idx:
        axes.append(None if k is None or k is Ellipsis else axis)
        if k is Ellipsis:
            axis += ndim - consumed
        elif k is not None:
            axis += k.ndim if _is_mask(k) else 1
    return axes


def _is_mask(k):
    return getattr(k, "dtype", None) is not None and _np.dtype(k.dtype).kind == "b"


def _moded_index(idx, shape, mode):
    """``idx`` with its out-of-bounds integer entries clipped (``"clip"``) or sent to one
    extra position past the end of their axis (``"fill"``/``"drop"``), and the axes that
    then need that extra position."""
    idx = idx if isinstance(idx, tuple) else (idx,)
    idx = tuple(_np.asarray(k) if isinstance(k, list) else k for k in idx)
    out, extended = [], []
    for k, axis in zip(idx, _index_axes(idx, len(shape))):
        integer = (isinstance(k, (int, _np.integer)) and not isinstance(k, (bool, _np.bool_))
                   or getattr(k, "dtype", None) is not None and _np.dtype(k.dtype).kind in "iu")
        if axis is None or not integer:
            out.append(k)
            continue
        n = shape[axis]
        if isinstance(k, (int, _np.integer)):
            k = int(k) + n if k < 0 else int(k)  # negative indices count from the end
            if mode == "clip":
                k = builtins.min(builtins.max(k, 0), builtins.max(n - 1, 0))
            elif not 0 <= k < n:
                k = n
        else:
            k = where(k < 0, k + n, k)
            k = (_ew.clip(k, 0, builtins.max(n - 1, 0)) if mode == "clip"
                 else where((k < 0) | (k >= n), n, k))
        if mode != "clip" and axis not in extended:
            extended.append(axis)
        out.append(k)
    return tuple(out), extended


def _extend(x, axes, value):
    """``x`` with one more position, holding ``value``, at the end of each of ``axes``."""
    from .manipulation import concatenate
    for axis in axes:
        shape = list(x.shape)
        shape[axis] = 1
        x = concatenate([x, broadcast_to(astype(value, x.dtype), tuple(shape))], axis=axis)
    return x


def _default_fill(dtype):
    if dtype.kind in "fc":
        return _np.nan
    if dtype.kind == "b":
        return True
    return _np.iinfo(dtype).min if dtype.kind == "i" else _np.iinfo(dtype).max


class IndexUpdateRef:
    """``x.at[idx]``, waiting for the update to apply (see :class:`IndexUpdateHelper`)."""

    __slots__ = ("array", "idx")

    def __init__(self, array, idx):
        self.array = array
        self.idx = idx

    def _moded(self, mode, what):
        """``(array, index, axes)``: where ``mode`` sends out-of-bounds indices, the array
        extended by one position on ``axes`` (the updates there are cut off after)."""
        if mode not in _MODES:
            raise ValueError(f"x.at[idx].{what}: mode must be one of 'promise_in_bounds', "
                             f"'clip', 'fill' or 'drop', got {mode!r}")
        if mode in (None, "promise_in_bounds"):
            return self.array, self.idx, []
        idx, axes = _moded_index(self.idx, self.array.shape, mode)
        return self.array, idx, axes

    def _update(self, values, mode, how="set"):
        x, idx, axes = self._moded(mode, how)
        if axes:
            extended = IndexUpdateRef(_extend(x, axes, _np.zeros((), x.dtype)), idx)
            out = extended._update(values, None, how)
            return _ix.index(out, tuple(slice(0, n) for n in x.shape))
        spec, arrays = normalize_index(idx, x.shape)
        values = operand(values)
        if how in ("divide", "power"):
            if _ix.repeats(x.shape, spec, arrays):
                raise ValueError(f"x.at[idx].{how}(v) needs distinct indices, and this index "
                                 f"reaches an element more than once. Combine the updates of "
                                 f"each position first, or use .multiply (repeats combine).")
            fn = _ew.divide if how == "divide" else _ew.power
            values = fn(_ix.index(x, idx), values)
            how = "set"
        if getattr(values, "dtype", x.dtype) != x.dtype and x.dtype.kind == "f":
            values = astype(values, x.dtype)
        return _ix.scatter(x, values, arrays, spec, how)

    def get(self, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: str | None = None, fill_value: Any = None) -> Array:
        x, idx, axes = self._moded(mode, "get")
        if axes:
            x = _extend(x, axes, _default_fill(x.dtype) if fill_value is None else fill_value)
        return _ix.index(x, idx)  # plain arrays with traced indices too

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, mode, "set")

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, mode, "add")

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, mode, "multiply")

    mul = multiply  # JAX's older name

    def divide(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, mode, "divide")

    def power(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, mode, "power")

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, mode, "min")

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        return self._update(values, mode, "max")


def at(x: ArrayLike) -> IndexUpdateHelper:
    """``x.at`` for any array: ``fnp.at(x)[idx].set(v)`` returns an updated copy.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x = np.zeros(3)
    >>> fnp.at(x)[1].set(5.0), x
    (array([0., 5., 0.]), array([0., 0., 0.]))
    """
    return IndexUpdateHelper(asarray(x))

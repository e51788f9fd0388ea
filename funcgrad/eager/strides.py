"""PyTorch's memory layout of a Tensor: ``stride()``, ``storage_offset()``,
``is_contiguous()`` and ``as_strided``.

funcgrad never writes into arrays, so a Tensor has no storage to point into; what it
has is PyTorch's *description* of one.  A Tensor that is no view owns its storage,
laid out as its NumPy value is (row-major, or the permuted order an operation on a
transposed Tensor keeps, as PyTorch keeps it; any other layout reads as row-major).
A view (``x.t()``, ``x[:, 1:]``, ``x.diagonal()``...; :mod:`funcgrad.eager.views`)
shares its root's storage: its strides and offset are read off the storage positions
of the root's elements that the view shows, so they are PyTorch's.  The stride of a
dimension of size 1 addresses nothing; funcgrad gives it the one ``unsqueeze`` gives
(the next dimension's extent), where PyTorch may keep another.

``contiguous()`` copies a Tensor that is not laid out row by row.
``as_strided(size, stride, storage_offset)`` picks the elements of that storage, as
PyTorch does, and is a view of the root: it is differentiable (elements picked twice
add their gradients) and an in-place update of it reaches the root unless it shows an
element twice.

>>> import funcgrad as fg
>>> x = fg.arange(12.0).reshape(3, 4)
>>> x.t().stride(), x[1:, 2:].storage_offset(), x.t().is_contiguous()
((1, 4), 6, False)
>>> x.as_strided((2, 2), (1, 4), 1)
tensor([[1., 5.],
        [2., 6.]])
"""
from typing import Any, Sequence

import numpy as np

from ..kernels.cuda._layout import contiguous_strides
from .. import numpy as fnp
from .named import Named, record_as
from .values import TensorBase
from .views import _alias, _mark, _no_grad

__all__ = ["attach"]

_AS_STRIDED = Named("as_strided", "AsStridedBackward0")
_CLONE = Named("clone", "CloneBackward0")


def _size_one_strides(shape, strides):
    """``strides`` with those of size-1 dimensions set as ``unsqueeze`` sets them."""
    out = list(strides)
    for d in range(len(shape) - 1, -1, -1):
        if shape[d] == 1:
            out[d] = out[d + 1] * max(shape[d + 1], 1) if d + 1 < len(shape) else 1
    return tuple(int(s) for s in out)


def _own_strides(value):
    """The strides of a storage laid out as the NumPy array ``value``: its own when they
    are a permutation of a row-major layout without gaps, else row-major ones."""
    shape = value.shape
    if value.size == 0 or value.itemsize == 0:
        return contiguous_strides(shape)
    strides = [s // value.itemsize for s in value.strides]
    dims = sorted((d for d in range(len(shape)) if shape[d] > 1), key=lambda d: strides[d])
    step = 1
    for d in dims:
        if strides[d] != step:
            return contiguous_strides(shape)
        step *= shape[d]
    return _size_one_strides(shape, strides)


def _root(t):
    link = t._storage.base
    return (t, None) if link is None else (link[0], link[1])


def _storage_positions(root):
    """Each element's position in the root's storage (root-shaped int64)."""
    value = np.asarray(root._storage.value)
    strides = _own_strides(value)
    positions = np.zeros(value.shape, np.int64)
    for d, s in enumerate(strides):
        shape = [1] * value.ndim
        shape[d] = value.shape[d]
        positions = positions + np.arange(value.shape[d]).reshape(shape) * s
    return positions


def _view_layout(self):
    """``(root, strides, storage_offset)`` of a view whose elements sit in its root's
    storage at evenly spaced positions along each dimension, else None (no view, or one
    that PyTorch would have copied: ``x.t().reshape(-1)``)."""
    root, replay = _root(self)
    if replay is None:
        return None
    with _no_grad():
        shown = np.asarray(replay(_alias(root, _storage_positions(root)))._storage.value)
    shape = shown.shape
    if shown.size == 0:
        return None
    first = int(shown[(0,) * shown.ndim])
    strides, spaced = [], np.full(shape, first, np.int64)
    for d in range(shown.ndim):
        step = [0] * shown.ndim
        step[d] = 1 if shape[d] > 1 else 0
        strides.append(int(shown[tuple(step)]) - first)
        along = [1] * shown.ndim
        along[d] = shape[d]
        spaced = spaced + np.arange(shape[d]).reshape(along) * strides[-1]
    if not np.array_equal(spaced, shown) or min(strides, default=0) < 0:
        return None
    return root, _size_one_strides(shape, strides), first


def _layout(self):
    """``(strides, storage_offset)`` of the Tensor ``self``."""
    view = _view_layout(self)
    if view is None:
        return _own_strides(np.asarray(self._storage.value)), 0
    return view[1], view[2]


def stride(self: Any, dim: int | None = None) -> Any:
    """The step in the storage, in elements, between neighbours along each dimension
    (a tuple), or along ``dim``.

    >>> import funcgrad as fg
    >>> x = fg.zeros(2, 3)
    >>> x.stride(), x.t().stride(), x.expand(4, 2, 3).stride(0)
    ((3, 1), (1, 3), 0)
    """
    strides = _layout(self)[0]
    if dim is None:
        return strides
    if not -len(strides) <= dim < max(len(strides), 1):
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-len(strides)}, {len(strides) - 1}], but got {dim})")
    return strides[dim]


def storage_offset(self: Any) -> int:
    """Where the first element sits in the storage (0 unless a view starts further on).

    >>> import funcgrad as fg
    >>> fg.zeros(3, 4)[1, 2:].storage_offset()
    6
    """
    return _layout(self)[1]


def is_contiguous(self: Any, memory_format: Any = None) -> bool:
    """Whether the elements lie in the storage row by row without gaps (dimensions of
    size 1 aside), as after ``contiguous()``.

    >>> import funcgrad as fg
    >>> x = fg.zeros(2, 3)
    >>> x.is_contiguous(), x.t().is_contiguous(), x[:, :2].is_contiguous()
    (True, False, False)
    """
    strides = _layout(self)[0]
    shape = tuple(self.shape)
    if int(np.prod(shape)) == 0:
        return True
    return all(s == c for s, c, n in zip(strides, contiguous_strides(shape), shape) if n != 1)


def contiguous(self: Any, memory_format: Any = None) -> Any:
    """This Tensor if :meth:`is_contiguous`, else a copy laid out row by row (no view,
    ``CloneBackward0``).

    >>> import funcgrad as fg
    >>> x = fg.zeros(2, 3)
    >>> x.contiguous() is x, x.t().contiguous().stride()
    (True, (2, 1))
    """
    if is_contiguous(self):
        return self
    shape = tuple(self.shape)
    # NumPy flattens a Tensor that is not row-major by copying it row by row
    return record_as(_CLONE, lambda t: fnp.reshape(fnp.reshape(t, (-1,)), shape), self)


def as_strided(self: Any, size: Sequence[int], stride: Sequence[int],
               storage_offset: int | None = None) -> Any:
    """A view of the storage of this Tensor with shape ``size``: element ``i`` is the
    storage's element ``storage_offset + sum(i[d] * stride[d])`` (``storage_offset``
    defaults to this Tensor's).  Elements picked more than once add their gradients.

    >>> import funcgrad as fg
    >>> x = fg.arange(4.0, requires_grad=True)
    >>> windows = x.as_strided((3, 2), (1, 1)); windows
    tensor([[0., 1.],
            [1., 2.],
            [2., 3.]], grad_fn=<AsStridedBackward0>)
    >>> windows.sum().backward(); x.grad
    tensor([1., 2., 2., 1.])
    """
    size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape: as_strided got size "
                           f"{list(size)} and stride {list(stride)}; give one stride per "
                           f"dimension")
    if any(n < 0 for n in size) or any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: negative sizes or strides are not supported "
                           f"(size {list(size)}, stride {list(stride)})")
    view = _view_layout(self)
    root = self if view is None else view[0]  # (a Tensor PyTorch would copy owns its storage)
    if storage_offset is not None:
        offset = storage_offset
    else:
        offset = 0 if view is None else view[2]
    positions = _storage_positions(root).reshape(-1)
    wanted = np.full(size, int(offset), np.int64)
    for d, (n, s) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[d] = n
        wanted = wanted + np.arange(n).reshape(shape) * s
    if wanted.size and (int(offset) < 0 or int(wanted.max()) >= positions.size):
        needed = int(wanted.max()) + 1 if wanted.size else 0
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
            f"{offset}, and itemsize {root.dtype.itemsize} requiring a storage size of "
            f"{needed * root.dtype.itemsize} are out of bounds for storage of size "
            f"{positions.size * root.dtype.itemsize}; pick a size, stride and offset "
            f"within the {positions.size} elements")
    # the root's element at each storage position, then the positions wanted
    element_at = np.empty_like(positions)
    element_at[positions] = np.arange(positions.size)
    index = element_at[wanted]

    def pick(t):
        return t.reshape(-1)[index]
    out = record_as(_AS_STRIDED, pick, root)
    if isinstance(out, TensorBase):
        _mark(out, root, pick)
    return out


def flags(self: Any) -> Any:
    """NumPy's memory-layout flags of the Tensor's values (what NumPy and SciPy code asks
    of an array before reading it; a view's, so setting one changes nothing here).

    >>> import funcgrad as fg
    >>> x = fg.zeros(2, 3)
    >>> x.flags.c_contiguous, x.t().flags.c_contiguous
    (True, False)
    """
    value = self._storage.value
    if not isinstance(value, np.ndarray):
        raise AttributeError("a Tensor on a GPU has no .flags (NumPy's memory layout of "
                             "host memory): bring it to the host first, t.cpu()")
    return value.view().flags


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in (stride, storage_offset, is_contiguous, contiguous, as_strided):
        setattr(cls, fn.__name__, fn)
    cls.flags = property(flags)

"""PyTorch's shape methods on the Tensor: ``size()``, ``view``, ``reshape``, ``flatten``,
``unsqueeze``, ``squeeze``, ``permute``, ``transpose(d0, d1)``, ``t()``, ``mT``,
``expand``, ``repeat``...

They compute with funcgrad's structural primitives and show PyTorch's node names
(``reshape`` is ``ViewBackward0``, ``unsqueeze`` is ``UnsqueezeBackward0``).  Where
PyTorch and NumPy disagree the Tensor follows PyTorch: ``transpose(d0, d1)`` swaps two
axes (``transpose()`` with no argument still reverses them, as NumPy's), ``repeat``
tiles (NumPy's ``repeat`` is ``repeat_interleave``).  ``t.size`` is NumPy's element
count *and* PyTorch's ``size()`` method: ``t.size() == (2, 3)``, ``t.size(0) == 2``.

>>> import funcgrad as fg
>>> x = fg.ones(2, 3, requires_grad=True)
>>> x.view(-1).shape, x.unsqueeze(0).size(), x.transpose(0, 1).grad_fn
(fg.Size([6]), fg.Size([1, 2, 3]), <TransposeBackward0>)
"""
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from .. import numpy as fnp
from .named import Named, record_as
from .scalar_dims import no_dims
from .values import axis_index as _axis

if TYPE_CHECKING:
    from .tensor import Tensor

__all__ = ["attach"]

UNSQUEEZE = Named("unsqueeze", "UnsqueezeBackward0")
SQUEEZE0, SQUEEZE1 = Named("squeeze", "SqueezeBackward0"), Named("squeeze", "SqueezeBackward1")
TRANSPOSE, T = Named("transpose", "TransposeBackward0"), Named("t", "TBackward0")
REPEAT = Named("repeat", "RepeatBackward0")
VIEW = Named("view", "ViewBackward0")  # a view to the same shape (reshape records nothing)


def _shape_args(shape: Any, what: str) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    for d in shape:
        if not isinstance(d, (int, np.integer)):
            raise TypeError(f"{what}(): sizes must be ints, got {type(d).__name__}; "
                            f"e.g. t.{what}(2, 3) or t.{what}((2, 3))")
    return tuple(int(d) for d in shape)


def view(self: "Tensor", *shape: Any) -> "Tensor":
    """This Tensor's elements in a new shape (``-1``: inferred); ``ViewBackward0``.
    ``view(dtype)`` reinterprets the bytes of each element's row as ``dtype``
    (:func:`view_dtype`).

    >>> import funcgrad as fg
    >>> fg.ones(2, 3).view(3, -1).shape
    fg.Size([3, 2])
    """
    if len(shape) == 1 and _is_dtype(shape[0]):
        return view_dtype(self, shape[0])
    return _view(self, _shape_args(shape, "view"))


def _is_dtype(d):
    return isinstance(d, np.dtype) or (isinstance(d, type) and issubclass(d, np.generic))


# PyTorch's names of the dtypes, as its messages print them
_TORCH_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
                "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
                "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def view_dtype(self: "Tensor", dtype: Any) -> "Tensor":
    """PyTorch's ``t.view(dtype)``: the same bytes read as ``dtype``.  Of a smaller element
    the last axis grows by the ratio of the sizes, of a larger one it shrinks (its length
    must divide).  Not differentiable, as in PyTorch: the result never requires grad.
    It follows later in-place updates of this Tensor; an in-place update of it raises
    (funcgrad never writes into arrays, and its bytes are no elements of this Tensor).

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, -2.0], dtype=fg.float32).view(fg.int32)
    tensor([ 1065353216, -1073741824], dtype=int32)
    >>> fg.tensor([[1.0, 2.0]], dtype=fg.float32).view(fg.uint8).shape
    fg.Size([1, 8])
    """
    from .tensor import make
    dtype = np.dtype(dtype)
    value = np.asarray(self._storage.value)
    old, new = value.dtype.itemsize, dtype.itemsize
    if old != new:
        names = (_TORCH_NAMES.get(value.dtype.name, value.dtype.name),
                 _TORCH_NAMES.get(dtype.name, dtype.name))
        if value.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 to view {names[0]} as {names[1]} "
                               f"(different element sizes)")
        if new > old and value.shape[-1] % (new // old):
            raise RuntimeError(f"self.size(-1) must be divisible by {new // old} to view "
                               f"{names[0]} as {names[1]} (different element sizes), but "
                               f"got {value.shape[-1]}")
    return make(np.ascontiguousarray(value).view(dtype), False)


def _view(t, shape, order="C"):
    out = fnp.reshape(t, shape, order=order)
    if out is t:  # the same shape: still a new Tensor with its own node, as in PyTorch
        return record_as(VIEW, fnp.reshape, t, shape, order=order)
    return out


def reshape(self: "Tensor", *shape: int | Sequence[int], order: str = "C") -> "Tensor":
    """As :meth:`view`: ``t.reshape(2, 3)`` or ``t.reshape((2, 3))``.

    >>> import funcgrad as fg
    >>> fg.ones(6).reshape((2, 3)).shape
    fg.Size([2, 3])
    """
    return _view(self, _shape_args(shape, "reshape"), order=order)


def view_as(self: "Tensor", other: "Tensor") -> "Tensor":
    """:meth:`view` to ``other``'s shape.

    >>> import funcgrad as fg
    >>> fg.ones(6).view_as(fg.ones(3, 2)).shape
    fg.Size([3, 2])
    """
    return _view(self, tuple(other.shape))


reshape_as = view_as


def flatten(self: "Tensor", start_dim: int = 0, end_dim: int = -1) -> "Tensor":
    """Axes ``start_dim`` to ``end_dim`` merged into one (a 0-d Tensor becomes 1-d).

    >>> import funcgrad as fg
    >>> fg.ones(2, 3, 4).flatten(1).shape
    fg.Size([2, 12])
    """
    if self.ndim == 0:
        return fnp.reshape(self, (1,))
    s, e = _axis(start_dim, self.ndim), _axis(end_dim, self.ndim)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    shape = self.shape
    merged = 1
    for d in shape[s:e + 1]:
        merged *= d
    return fnp.reshape(self, shape[:s] + (merged,) + shape[e + 1:])


def unsqueeze(self: "Tensor", dim: int) -> "Tensor":
    """A new axis of size 1 at ``dim`` (``-1``: last); ``UnsqueezeBackward0``.

    >>> import funcgrad as fg
    >>> fg.ones(2).unsqueeze(-1).shape
    fg.Size([2, 1])
    """
    d = _axis(dim, self.ndim, extra=1)
    return record_as(UNSQUEEZE, fnp.reshape, self, self.shape[:d] + (1,) + self.shape[d:])


def squeeze(self: "Tensor", dim: int | Sequence[int] | None = None, *,
            axis: int | Sequence[int] | None = None) -> "Tensor":
    """Without ``dim``, every axis of size 1 removed; with it, that axis if its size is 1
    (otherwise the Tensor is returned unchanged, as PyTorch does).

    >>> import funcgrad as fg
    >>> fg.ones(1, 2, 1).squeeze().shape, fg.ones(1, 2).squeeze(1).shape
    (fg.Size([2]), fg.Size([1, 2]))
    """
    dim = axis if dim is None else dim
    if dim is None:
        return record_as(SQUEEZE0, fnp.reshape, self, tuple(d for d in self.shape if d != 1))
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    drop = {_axis(d, self.ndim) for d in dims}
    shape = tuple(n for i, n in enumerate(self.shape) if not (i in drop and n == 1))
    return record_as(SQUEEZE1, fnp.reshape, self, shape)


def permute(self: "Tensor", *dims: int | Sequence[int]) -> "Tensor":
    """The axes in the order ``dims`` (``PermuteBackward0``).

    >>> import funcgrad as fg
    >>> fg.ones(2, 3, 4).permute(2, 0, 1).shape
    fg.Size([4, 2, 3])
    """
    dims = _shape_args(dims, "permute")
    if sorted(d % max(self.ndim, 1) for d in dims) != list(range(self.ndim)):
        raise RuntimeError(f"permute(): dims {list(dims)} must be a permutation of the "
                           f"{self.ndim} axes (each of 0..{self.ndim - 1} once)")
    return fnp.transpose(self, dims)


def transpose(self: "Tensor", *dims: int | Sequence[int]) -> "Tensor":
    """``transpose(dim0, dim1)`` swaps two axes (``TransposeBackward0``); with no argument
    (or a full permutation, NumPy's form) the axes are reversed (or permuted).

    >>> import funcgrad as fg
    >>> fg.ones(2, 3, 4).transpose(0, 2).shape
    fg.Size([4, 3, 2])
    """
    if len(dims) == 2 and all(isinstance(d, (int, np.integer)) for d in dims):
        d0, d1 = _axis(dims[0], self.ndim), _axis(dims[1], self.ndim)
        if not self.ndim:  # (dims 0 and -1 of a 0-d Tensor: the one element, as PyTorch)
            return record_as(TRANSPOSE, fnp.transpose, self, ())
        return record_as(TRANSPOSE, fnp.swapaxes, self, d0, d1)
    if len(dims) == 1 and not isinstance(dims[0], (int, np.integer)):
        dims = tuple(dims[0])
    return fnp.transpose(self, dims or None)  # type: ignore[arg-type]  # a permutation


def t(self: "Tensor") -> "Tensor":
    """The transpose of a Tensor of at most 2 axes (``TBackward0``).

    >>> import funcgrad as fg
    >>> fg.ones(2, 3).t().shape
    fg.Size([3, 2])
    """
    if self.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{self.ndim}D; use transpose(dim0, dim1) or permute")
    return record_as(T, fnp.transpose, self)


def _mT(self: "Tensor") -> "Tensor":
    if self.ndim < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {self.ndim}-D tensor.")
    return record_as(TRANSPOSE, fnp.swapaxes, self, -2, -1)


def expand(self: "Tensor", *sizes: int | Sequence[int]) -> "Tensor":
    """This Tensor broadcast to ``sizes`` (``-1`` keeps an axis; new axes go in front);
    ``ExpandBackward0``.

    >>> import funcgrad as fg
    >>> fg.ones(3, 1).expand(2, -1, 4).shape
    fg.Size([2, 3, 4])
    """
    sizes = _shape_args(sizes, "expand")
    if len(sizes) < self.ndim:
        raise RuntimeError(f"expand: the number of sizes provided ({len(sizes)}) must be "
                           f"greater or equal to the number of dimensions in the tensor "
                           f"({self.ndim})")
    lead = len(sizes) - self.ndim
    shape = []
    for i, n in enumerate(sizes):
        if n == -1:
            if i < lead:
                raise RuntimeError(f"expand: -1 is not allowed in a leading, non-existing "
                                   f"dimension {i}")
            n = self.shape[i - lead]
        elif i >= lead and self.shape[i - lead] not in (1, n):
            raise RuntimeError(f"The expanded size of the tensor ({n}) must match the "
                               f"existing size ({self.shape[i - lead]}) at non-singleton "
                               f"dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                               f"{list(self.shape)}")
        shape.append(n)
    return fnp.broadcast_to(self, tuple(shape))


def expand_as(self: "Tensor", other: "Tensor") -> "Tensor":
    """:meth:`expand` to ``other``'s shape.

    >>> import funcgrad as fg
    >>> fg.ones(3).expand_as(fg.ones(2, 3)).shape
    fg.Size([2, 3])
    """
    return expand(self, *other.shape)


def repeat(self: "Tensor", *repeats: int | Sequence[int]) -> "Tensor":
    """This Tensor tiled ``repeats[i]`` times along axis ``i`` (PyTorch's ``repeat``;
    NumPy's element repeat is :meth:`repeat_interleave`); ``RepeatBackward0``.

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, 2.0]).repeat(2)
    tensor([1., 2., 1., 2.])
    """
    repeats = _shape_args(repeats, "repeat")
    if len(repeats) < self.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than "
                           "number of dimensions of tensor")
    return record_as(REPEAT, fnp.tile, self, repeats)


def repeat_interleave(self: "Tensor", repeats: Any, dim: int | None = None) -> "Tensor":
    """Each element repeated ``repeats`` times (NumPy's ``repeat``).  A 0-d Tensor has no
    dim to repeat along: only all its elements (``dim=None``) repeat, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, 2.0]).repeat_interleave(2)
    tensor([1., 1., 2., 2.])
    >>> fg.tensor(2.0).repeat_interleave(3)
    tensor([2., 2., 2.])
    """
    if not self.ndim and dim is not None:
        if hasattr(repeats, "shape"):  # (a Tensor of repeats)
            raise no_dims(dim)
        # PyTorch's words: an int repeats along the 1-d view, whose dims it checks as 1's
        raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but "
                         f"got {1 if dim >= -1 else dim}); repeat without a dim, or along "
                         f"dim 0 of t.reshape(1)")
    return fnp.repeat(self, repeats, axis=dim)


def ndimension(self: "Tensor") -> int:
    """The number of axes (as :meth:`dim`).

    >>> import funcgrad as fg
    >>> fg.ones(2, 3).ndimension()
    2
    """
    return self.ndim


_METHODS = [view, reshape, view_as, flatten, unsqueeze, squeeze, permute, transpose, t,
            expand, expand_as, repeat, repeat_interleave, ndimension]


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in _METHODS:
        setattr(cls, fn.__name__, fn)
    cls.reshape_as = reshape_as
    cls.mT = property(_mT)

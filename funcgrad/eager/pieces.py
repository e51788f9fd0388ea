"""PyTorch's Tensor methods that cut, join or re-axis a Tensor, and the ones that describe
it or make new Tensors like it: ``chunk``, ``split``, ``tensor_split``, ``unbind``,
``narrow``, ``select``, ``movedim``, ``tile``, ``unflatten``, ``sum_to_size``, ``diff``,
``H``/``mH``; ``new_zeros``/``new_full``/``new_tensor``..., ``type_as``, ``nelement``,
``element_size``, ``nbytes``, ``is_complex``...

Pieces are tuples of Tensors, as in PyTorch; each piece's gradient flows back to its
part of the Tensor.  ``new_*`` Tensors take this Tensor's dtype unless ``dtype=`` says
otherwise.

>>> import funcgrad as fg
>>> x = fg.arange(5.0, requires_grad=True)
>>> a, b = x.split([2, 3])
>>> (a.sum() + 2 * b.sum()).backward()
>>> x.grad
tensor([1., 1., 2., 2., 2.])
>>> x.new_zeros(2, 3).shape, x.chunk(2)[1].detach()
(fg.Size([2, 3]), tensor([3., 4.]))
"""
from typing import Any, Sequence

import numpy as np

from .. import numpy as fnp
from .tensor import Tensor
from .named import Named, record_as
from .shapes import _shape_args
from .scalar_dims import needs_dims, no_dims
from .values import TensorBase, axis_index

__all__ = ["attach"]

_NODES = {"narrow": Named("narrow", "SliceBackward0"),
          "select": Named("select", "SelectBackward0"),
          "unbind": Named("unbind", "UnbindBackward0"),
          "diff": Named("diff", "SubBackward0"),
          "sum_to_size": Named("sum_to_size", "SumBackward1")}


def _dim(self, dim):
    return axis_index(dim, max(self.ndim, 1))


def _cut(self, bounds, dim):
    """The pieces of ``self`` between ``bounds`` along ``dim``, as a tuple."""
    return tuple(fnp.split(self, list(bounds), axis=dim))


def split(self: Any, split_size_or_sections: int | Sequence[int], dim: int = 0) -> Any:
    """Pieces of ``split_size_or_sections`` elements along ``dim`` (the last one smaller),
    or of the sizes listed."""
    needs_dims(self, RuntimeError, "split expects at least a 1-dimensional tensor")
    dim = _dim(self, dim)
    n = self.shape[dim]
    if isinstance(split_size_or_sections, (int, np.integer)):
        size = int(split_size_or_sections)
        if size <= 0 and n:
            raise RuntimeError(f"split expects split_size be non-negative, but got "
                               f"split_size={size}")
        return _cut(self, range(size, n, size) if size else [], dim)
    sizes = list(split_size_or_sections)
    if sum(sizes) != n:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} "
                           f"(input tensor's size at dimension {dim}), but got "
                           f"split_sizes={sizes}")
    return _cut(self, np.cumsum(sizes)[:-1], dim)


def split_with_sizes(self: Any, split_sizes: Sequence[int], dim: int = 0) -> Any:
    """Pieces of the sizes listed, along ``dim``."""
    return split(self, list(split_sizes), dim)


def chunk(self: Any, chunks: int, dim: int = 0) -> Any:
    """At most ``chunks`` pieces of equal size along ``dim`` (the last one smaller)."""
    needs_dims(self, RuntimeError, "chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    n = self.shape[_dim(self, dim)]
    return split(self, max(-(-n // chunks), 1), dim)


def tensor_split(self: Any, indices_or_sections: Any, dim: int = 0) -> Any:
    """``sections`` pieces of sizes differing by at most one, or pieces cut at the
    indices listed, along ``dim``."""
    needs_dims(self, RuntimeError, "tensor_split expected at least a 1-dimensional tensor, "
                                   "but got a tensor with 0 dims")
    dim = _dim(self, dim)
    if isinstance(indices_or_sections, TensorBase):
        indices_or_sections = indices_or_sections.tolist()
    if isinstance(indices_or_sections, (int, np.integer)):
        if indices_or_sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got "
                               f"{indices_or_sections}")
        return tuple(fnp.array_split(self, int(indices_or_sections), axis=dim))
    return _cut(self, indices_or_sections, dim)


def _splitter(name: str, dim: int, least: int) -> Any:
    def method(self: Any, indices_or_sections: Any) -> Any:
        if self.ndim < least:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {least} "
                               f"dimension, but got a tensor with {self.ndim} dimensions!")
        d = 1 if name == "hsplit" and self.ndim == 1 else dim
        if isinstance(indices_or_sections, int) and self.shape[d] % indices_or_sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but "
                               f"the size of the dimension {self.shape[d]} is not divisible "
                               f"by the split_size {indices_or_sections}!")
        return tensor_split(self, indices_or_sections, 0 if self.ndim == 1 else d)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"``tensor_split`` along axis {dim} (equal pieces only)."
    return method


def unbind(self: Any, dim: int = 0) -> Any:
    """The slices along ``dim``, as a tuple."""
    dim = _dim(self, dim)
    if not self.ndim:  # (PyTorch names the dim wrapped: -1 is 0)
        raise no_dims(dim)
    return tuple(select(self, dim, i) for i in range(self.shape[dim]))


def narrow(self: Any, dim: int, start: int, length: int) -> Any:
    """The ``length`` elements from ``start`` along ``dim``."""
    needs_dims(self, RuntimeError, "narrow() cannot be applied to a 0-dim tensor.")
    dim = _dim(self, dim)
    n = self.shape[dim]
    start = int(start) + (n if start < 0 else 0)
    if not (0 <= start <= n and 0 <= length <= n - start):
        raise IndexError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    key = (slice(None),) * dim + (slice(start, start + length),)
    return record_as(_NODES["narrow"], lambda t: t[key], self)


def unfold(self: Any, dimension: int, size: int, step: int) -> Any:
    """The windows of ``size`` elements along ``dimension``, ``step`` apart: that axis
    counts the windows, a new last axis runs along each.

    >>> import funcgrad as fg
    >>> fg.arange(5.0).unfold(0, 2, 2)
    tensor([[0., 1.],
            [2., 3.]])
    """
    dim = _dim(self, dimension) if self.ndim else 0
    n = self.shape[dim] if self.ndim else 1
    if size > n:  # (PyTorch's checks, in its order)
        raise RuntimeError(f"unfold: maximum size for tensor at dimension {dim} is {n} but "
                           f"size is {size}")
    if size < 0:
        raise RuntimeError(f"unfold: size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"unfold: step is {step} but must be > 0")
    windows = np.arange((n - size) // step + 1)[:, None] * step + np.arange(size)
    if not self.ndim:  # one window of its one element, or none of size 0
        return fnp.reshape(self, (1,))[:size]
    return fnp.moveaxis(fnp.take(self, windows, axis=dim), dim + 1, -1)


def select(self: Any, dim: int, index: int) -> Any:
    """The slice at ``index`` along ``dim`` (that axis removed)."""
    needs_dims(self, IndexError, "select() cannot be applied to a 0-dim tensor.")
    dim = _dim(self, dim)
    n = self.shape[dim]
    if not -n <= index < n:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(self.shape)} at dimension {dim}")
    key = (slice(None),) * dim + (int(index),)
    return record_as(_NODES["select"], lambda t: t[key], self)


def movedim(self: Any, source: int | Sequence[int], destination: int | Sequence[int]) -> Any:
    """Axes ``source`` moved to ``destination``, the others keeping their order."""
    as_tuple = (lambda d: tuple(d) if isinstance(d, (tuple, list)) else d)
    if not self.ndim:  # (dims 0 and -1 name the one element: nothing moves, as PyTorch)
        _scalar_moves(as_tuple(source), as_tuple(destination))
        return self.permute(())
    return fnp.moveaxis(self, as_tuple(source), as_tuple(destination))


def _scalar_moves(source, destination):
    """PyTorch's checks of ``movedim``'s dims on a 0-d Tensor."""
    src, dst = (d if isinstance(d, tuple) else (d,) for d in (source, destination))
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} "
                           f"dims) should contain the same number of dims as destination "
                           f"({list(dst)} dims)")
    for name, dims in (("source", src), ("destination", dst)):
        if len({axis_index(d, 0) for d in dims}) < len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(dims)})")


def tile(self: Any, *dims: int | Sequence[int]) -> Any:
    """This Tensor repeated ``dims[i]`` times along axis ``i`` (ones prepended as needed)."""
    dims = _shape_args(dims, "tile")
    return self.repeat(*((1,) * (self.ndim - len(dims)) + dims))


def unflatten(self: Any, dim: int, sizes: Sequence[int]) -> Any:
    """Axis ``dim`` split into axes of ``sizes`` (one may be -1)."""
    dim = _dim(self, dim)
    sizes = list(sizes)
    if not self.ndim:  # (PyTorch's checks, in its order)
        if not sizes:
            raise RuntimeError("unflatten: sizes must be non-empty")
        raise RuntimeError(f"unflatten got an unexpected error: {no_dims(dim)}")
    if sizes.count(-1) == 1:
        known = int(np.prod([s for s in sizes if s != -1]))
        sizes[sizes.index(-1)] = self.shape[dim] // known if known else 0
    if int(np.prod(sizes)) != self.shape[dim]:
        raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size "
                           f"of dim {dim} ({self.shape[dim]}) in the input tensor")
    return fnp.reshape(self, self.shape[:dim] + tuple(sizes) + self.shape[dim + 1:])


def sum_to_size(self: Any, *size: int | Sequence[int]) -> Any:
    """Summed over the broadcast axes down to ``size`` (``expand``'s reverse)."""
    size = _shape_args(size, "sum_to_size")
    lead = self.ndim - len(size)
    if lead < 0 or any(s not in (1, n) for s, n in zip(size, self.shape[lead:])):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size "
                           f"{{{list(self.shape)}}}.")
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size)
                                      if s == 1 and self.shape[lead + i] != 1)
    if not axes:
        return self
    return record_as(_NODES["sum_to_size"],
                     lambda t: fnp.reshape(fnp.sum(t, axis=axes), size), self)


def broadcast_to(self: Any, size: Sequence[int]) -> Any:
    """This Tensor broadcast to ``size`` (as ``expand``)."""
    return self.expand(*size)


def diff(self: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None) -> Any:
    """The ``n``-th differences along ``dim`` (``prepend``/``append`` joined first)."""
    needs_dims(self, RuntimeError, "diff expects input to be at least one-dimensional")
    parts = [p for p in (prepend, self, append) if p is not None]
    t = fnp.concatenate(parts, axis=dim) if len(parts) > 1 else self
    return fnp.diff(t, n=n, axis=dim)


def msort(self: Any) -> Any:
    """Sorted along the first axis (the values of ``sort(dim=0)``)."""
    return self.sort(dim=0).values


def _conj(t):
    return fnp.conj(t) if t.dtype.kind == "c" else t


def _H(self: Any) -> Any:
    if self.ndim > 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got "
                           f"{self.ndim}-D tensor.")
    return _conj(self.t()) if self.ndim == 2 else self


def adjoint(self: Any) -> Any:
    """The conjugate transpose of the last two axes (``mH``)."""
    return _conj(self.mT)


# --- new Tensors like this one, and what describes it ------------------------------------------

def _new(self, shape, fill, dtype, requires_grad):
    dtype = self.dtype if dtype is None else np.dtype(dtype)
    return Tensor(np.full(_shape_args(shape, "new"), fill, dtype),
                      requires_grad=requires_grad)


def new_zeros(self: Any, *size: Any, dtype: Any = None, requires_grad: bool = False,
              **device: Any) -> Any:
    """Zeros of ``size``, of this Tensor's dtype unless ``dtype`` is given."""
    return _new(self, size, 0, dtype, requires_grad)


def new_ones(self: Any, *size: Any, dtype: Any = None, requires_grad: bool = False,
             **device: Any) -> Any:
    """Ones of ``size``, of this Tensor's dtype unless ``dtype`` is given."""
    return _new(self, size, 1, dtype, requires_grad)


def new_empty(self: Any, *size: Any, dtype: Any = None, requires_grad: bool = False,
              **device: Any) -> Any:
    """A Tensor of ``size`` whose values are not to be read (zeros here)."""
    return _new(self, size, 0, dtype, requires_grad)


def new_full(self: Any, size: Sequence[int], fill_value: Any, *, dtype: Any = None,
             requires_grad: bool = False, **device: Any) -> Any:
    """``fill_value`` in the shape ``size``, of this Tensor's dtype unless ``dtype``."""
    return _new(self, (tuple(size),), fill_value, dtype, requires_grad)


def new_tensor(self: Any, data: Any, *, dtype: Any = None, requires_grad: bool = False,
               **device: Any) -> Any:
    """A leaf copy of ``data``, of this Tensor's dtype unless ``dtype`` is given."""
    if isinstance(data, TensorBase):
        data = np.array(data)
    return Tensor(np.array(data, self.dtype if dtype is None else dtype),
                      requires_grad=requires_grad)


def type_as(self: Any, other: Any) -> Any:
    """This Tensor cast to ``other``'s dtype."""
    return self.to(other.dtype)


def nelement(self: Any) -> int:
    """The number of elements (:meth:`numel`)."""
    return int(self.numel())


def element_size(self: Any) -> int:
    """Bytes per element."""
    return int(self.dtype.itemsize)


def is_complex(self: Any) -> bool:
    """Whether the dtype is complex."""
    return self.dtype.kind == "c"


def is_signed(self: Any) -> bool:
    """Whether the dtype holds negative numbers."""
    return self.dtype.kind in "ifc"


def is_same_size(self: Any, other: Any) -> bool:
    """Whether ``other`` has this shape."""
    return tuple(self.shape) == tuple(other.shape)


def is_nonzero(self: Any) -> bool:
    """The one element's truth (an error for other sizes)."""
    if self.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous" if
                           self.numel() == 0 else "Boolean value of Tensor with more than "
                           "one value is ambiguous")
    return bool(np.asarray(self.detach()).reshape(()))


def is_inference(self: Any) -> bool:
    """Whether the Tensor was made in inference mode."""
    return bool(self._inference)


def cpu(self: Any) -> Any:
    """This Tensor, which is on the CPU (``x.detach().cpu().numpy()`` works as in PyTorch);
    a Tensor on a GPU raises, pointing to ``fg.device_get``.

    >>> import funcgrad as fg
    >>> x = fg.ones(2)
    >>> x.cpu() is x, x.is_cpu, x.is_cuda, x.get_device()
    (True, True, False, -1)
    """
    if self.device != "cpu":
        raise RuntimeError(f"cpu(): this Tensor's value is on {self.device}; copy it to the "
                           f"host with fg.device_get(t.detach()) (moving a Tensor between "
                           f"devices is not recorded)")
    return self


def cuda(self: Any, device: Any = None, non_blocking: bool = False) -> Any:
    """This Tensor if its value is on a GPU; otherwise not supported: funcgrad's eager
    Tensors do not move between devices (put arrays on a GPU with ``fg.device_put``).

    >>> import funcgrad as fg
    >>> fg.ones(1).cuda()
    Traceback (most recent call last):
    ...
    RuntimeError: cuda(): ...
    """
    if self.device != "cpu":
        return self
    raise RuntimeError("cuda(): funcgrad's eager Tensor does not move between devices; "
                       "put arrays on a GPU with fg.device_put(x, 'cuda') and differentiate "
                       "them with fg.grad / fg.vjp, or keep this Tensor on the CPU")


def get_device(self: Any) -> int:
    """-1 for a Tensor on the CPU (PyTorch's answer), else the GPU's number."""
    return -1 if self.device == "cpu" else int(getattr(self.device, "id", 0))


_METHODS = [split, split_with_sizes, chunk, tensor_split, unbind, narrow, unfold, select,
            movedim, cpu, cuda, get_device,
            tile, unflatten, sum_to_size, broadcast_to, diff, msort, adjoint, new_zeros,
            new_ones, new_empty, new_full, new_tensor, type_as, nelement, element_size,
            is_complex, is_signed, is_same_size, is_nonzero, is_inference,
            _splitter("hsplit", 1, 1), _splitter("vsplit", 0, 2),
            _splitter("dsplit", 2, 3)]


def _output_nr(self):
    """Which output of its ``grad_fn`` this Tensor is (0 for a leaf), as PyTorch's
    ``Tensor.output_nr``.

    >>> import funcgrad as fg
    >>> a, b = fg.tensor([1.0, 2.0], requires_grad=True).split(1)
    >>> a.output_nr, b.output_nr
    (0, 1)
    """
    return self._output_nr


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in _METHODS:
        setattr(cls, fn.__name__, fn)
    cls.is_cpu = property(lambda self: self.device == "cpu", doc="Whether on the CPU.")
    cls.is_cuda = property(lambda self: self.device != "cpu", doc="Whether on a GPU.")
    cls.H = property(_H)
    cls.output_nr = property(_output_nr)
    cls.mH = property(adjoint)
    cls.itemsize = property(element_size)
    cls.nbytes = property(lambda self: int(self.numel()) * self.dtype.itemsize)

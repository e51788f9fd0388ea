"""What a Tensor holds and how it shows it: shape, dtype, conversions, printing.

:class:`TensorBase` declares a Tensor's fields and the methods that only read its
value.  The graph side (``requires_grad``, ``grad``, ``backward``...) and in-place
updates are added by :class:`funcgrad.eager.Tensor` and its bases; modules below
the Tensor class recognise Tensors as ``TensorBase`` instances.
"""
import warnings
from typing import Any

import numpy as np

from .dtypes import quiet_dtypes

__all__ = ["TensorBase", "Size", "SizeOf", "Device", "axis_index", "read_only"]

SCALAR_WARNING = ("Converting a tensor with requires_grad=True to a scalar may lead to "
                  "unexpected behavior.\nConsider using tensor.detach() first.")
NUMPY_MESSAGE = ("Can't call numpy() on Tensor that requires grad. "
                 "Use tensor.detach().numpy() instead.")


def read_only(value):
    """A read-only NumPy view of ``value`` (what ``.numpy()`` hands out: Tensors never
    write into their arrays, and nobody else may either).

    >>> read_only(np.ones(2)).flags.writeable
    False
    """
    out = np.asarray(value).view()
    out.flags.writeable = False
    return out


class Size(tuple[int, ...]):
    """A shape, as ``torch.Size``: a tuple of ints with ``numel()``; ``t.shape`` and
    ``t.size()``.  It equals the plain tuple and works wherever one does (NumPy
    shapes, ``hash``, unpacking); slicing it, and adding or repeating it, give a Size.

    >>> Size((2, 3)), Size((2, 3)).numel(), Size((2, 3)) == (2, 3)
    (fg.Size([2, 3]), 6, True)
    >>> Size((2, 3, 4))[1:], Size((2,)) + (5,), Size((2, 3))[-1], f"{Size((2, 3))}"
    (fg.Size([3, 4]), fg.Size([2, 5]), 3, '(2, 3)')
    """

    __slots__ = ()

    def numel(self) -> int:
        """The number of elements of a Tensor of this shape.

        >>> Size((2, 3)).numel(), Size(()).numel()
        (6, 1)
        """
        n = 1
        for d in self:
            n *= d
        return n

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return Size(item) if type(key) is slice else item

    def __add__(self, other):
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        return Size(tuple.__add__(tuple(other), self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__

    def __repr__(self):
        return f"fg.Size({list(self)})"

    # str() (and f-strings, so every error message that names a shape) shows the plain
    # tuple, as before shapes were Sizes and as NumPy does
    __str__ = tuple.__repr__


class SizeOf(int):
    """``t.size``: the element count (an int, as NumPy's attribute) that is also
    PyTorch's ``size(dim=None)`` method.

    >>> import funcgrad as fg
    >>> s = fg.ones(2, 3).size
    >>> s == 6, s(), s(-1)
    (True, fg.Size([2, 3]), 3)
    """

    shape: tuple[int, ...]

    def __new__(cls, shape):
        n = 1
        for d in shape:
            n *= d
        self = int.__new__(cls, n)
        self.shape = shape
        return self

    def __call__(self, dim: int | None = None) -> "Size | int":
        if dim is None:
            return Size(self.shape)
        return self.shape[axis_index(dim, len(self.shape))]


class Device(str):
    """A device, as ``torch.device``: the string ``"cpu"`` (or ``"cuda:0"``...) with
    ``.type`` and ``.index``; ``fg.device("cpu") == t.device``.

    >>> d = Device("cuda:1")
    >>> d, d.type, d.index, Device("cpu").index, Device("cuda", 0)
    ('cuda:1', 'cuda', 1, None, 'cuda:0')
    """

    def __new__(cls, type: str, index: int | None = None) -> "Device":  # noqa: A002
        if isinstance(type, Device) and index is None:
            return type
        name = str(type)
        if index is not None:
            if ":" in name:
                raise RuntimeError(f"type (string) must not include an index because index "
                                   f"was passed explicitly: {name}")
            name = f"{name}:{int(index)}"
        return str.__new__(cls, name)

    @property
    def type(self) -> str:
        """The kind of device: ``"cpu"``, ``"cuda"``."""
        return self.split(":")[0]

    @property  # (hides str.index, a substring search, for torch.device's attribute)
    def index(self) -> int | None:  # type: ignore[override]
        """The device's number, or None when the string names none."""
        _, _, number = self.partition(":")
        return int(number) if number else None


_CPU = Device("cpu")


def axis_index(dim, ndim, extra=0):
    """``dim`` (negative: from the end) as an index into ``ndim`` (+``extra``) axes, with
    PyTorch's error.

    >>> axis_index(-1, 3), axis_index(3, 3, extra=1)
    (2, 3)
    """
    n = ndim + extra
    lo, hi = -max(n, 1), max(n, 1) - 1
    if not isinstance(dim, (int, np.integer)) or not lo <= dim <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], "
                         f"but got {dim})")
    return int(dim) % max(n, 1)


class TensorBase:
    """The fields of a Tensor and the methods that read its value.

    ``_storage`` (:class:`~funcgrad.eager.graph.Storage`: the value and its version
    counter, shared with ``.data`` and ``.detach()``), ``_requires_grad``, ``grad_fn``
    and ``_output_nr`` (the node and output that produced it), ``_grad``,
    ``_accumulator`` (a leaf's AccumulateGrad node), ``_inference`` (made in
    inference mode).
    """

    __slots__ = ("_storage", "_requires_grad", "grad_fn", "_output_nr", "_grad",
                 "_accumulator", "_inference", "_hooks", "__weakref__")
    # (declared for type checkers only; the slots above hold them)
    _storage: Any
    _requires_grad: bool
    grad_fn: Any
    _output_nr: int
    _grad: Any
    _accumulator: Any
    _inference: bool
    _hooks: Any
    __array_priority__ = 1001

    @property
    def shape(self) -> Size:
        """The shape, a :class:`Size` (PyTorch's ``torch.Size``: a tuple, equal to the
        NumPy shape, with ``numel()``).

        >>> import funcgrad as fg
        >>> fg.Tensor([[1.0, 2.0]]).shape, fg.Tensor([[1.0, 2.0]]).shape == (1, 2)
        (fg.Size([1, 2]), True)
        """
        return Size(self._storage.value.shape)

    @property
    def dtype(self) -> np.dtype[Any]:
        """The NumPy dtype.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0]).dtype, fg.Tensor(np.ones(1)).dtype
        (dtype('float32'), dtype('float64'))
        """
        return np.dtype(self._storage.value.dtype)

    @property
    def device(self) -> Any:
        """Where the value lives: ``"cpu"`` for NumPy arrays, else the GPU array's device;
        a :class:`Device`, a string with PyTorch's ``.type`` and ``.index``.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0]).device, fg.Tensor([1.0]).device.type
        ('cpu', 'cpu')
        """
        value = self._storage.value
        if isinstance(value, (np.ndarray, np.generic)):
            return _CPU
        return getattr(value, "device", _CPU)

    @property
    def ndim(self) -> int:
        """The number of axes.

        >>> import funcgrad as fg
        >>> fg.Tensor([[1.0]]).ndim
        2
        """
        return len(self._storage.value.shape)

    @property
    def size(self) -> SizeOf:
        """The number of elements (NumPy's attribute), callable as PyTorch's ``size()``
        (the shape, a :class:`Size`) and ``size(dim)`` (one axis' length).

        >>> import funcgrad as fg
        >>> x = fg.Tensor([[1.0, 2.0]])
        >>> x.size, x.size(), x.size(1)
        (2, fg.Size([1, 2]), 2)
        """
        return SizeOf(tuple(self._storage.value.shape))

    def numel(self) -> int:
        """The number of elements.

        >>> import funcgrad as fg
        >>> fg.ones(2, 3).numel()
        6
        """
        return int(self.size)

    def dim(self) -> int:
        """The number of axes.

        >>> import funcgrad as fg
        >>> fg.ones(2, 3).dim()
        2
        """
        return self.ndim

    @property
    def _version(self):
        """How many in-place updates this Tensor's storage has had."""
        return self._storage.version

    def numpy(self, *, force: bool = False) -> np.ndarray[Any, Any]:
        """The value as a read-only NumPy array (no copy).  Raises for a Tensor that
        requires grad: use ``t.detach().numpy()`` or ``t.numpy(force=True)``.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0, 2.0]).numpy()
        array([1., 2.], dtype=float32)
        """
        if self._requires_grad and not force:
            raise RuntimeError(NUMPY_MESSAGE)
        return read_only(self._storage.value)

    def __array__(self, dtype=None, copy=None):
        if self._requires_grad:
            raise RuntimeError(
                NUMPY_MESSAGE + " (np.asarray/np.array of a Tensor converts it; if this "
                "happened inside fg.grad/fg.jacobian of a function closing over a Tensor "
                "that requires grad, close over tensor.detach() instead.)")
        value = self._storage.value
        if copy:
            return np.array(value, dtype=dtype, copy=True)
        out = read_only(value)
        return out if dtype is None or out.dtype == np.dtype(dtype) else out.astype(dtype)

    def item(self, *args: int) -> Any:
        """The value as a Python number.

        >>> import funcgrad as fg
        >>> (fg.Tensor([2.0], requires_grad=True) * 3).sum().item()
        6.0
        """
        value = np.asarray(self._storage.value)
        if not args and value.size != 1:  # PyTorch's error, not NumPy's ValueError
            raise RuntimeError(f"a Tensor with {value.size} elements cannot be converted to "
                               f"Scalar; index it first (t[i].item()) or use t.tolist()")
        return value.item(*args)

    def tolist(self) -> Any:
        """The value as nested Python lists.

        >>> import funcgrad as fg
        >>> fg.Tensor([[1.0, 2.0]]).tolist()
        [[1.0, 2.0]]
        """
        return np.asarray(self._storage.value).tolist()

    def __bool__(self):
        value = np.asarray(self._storage.value)
        if value.size != 1:  # PyTorch's error, not NumPy's ValueError (or False if empty)
            raise RuntimeError(f"Boolean value of Tensor with "
                               f"{'no values' if value.size == 0 else 'more than one value'} "
                               f"is ambiguous; reduce it first with .any() or .all()")
        return bool(value)

    def __float__(self):
        if self._requires_grad:  # the derivative stops here (PyTorch's warning)
            warnings.warn(SCALAR_WARNING, UserWarning, stacklevel=2)
        return float(self._one_element())

    def __int__(self):
        return int(self._one_element())

    def __complex__(self):
        if self._requires_grad:
            warnings.warn(SCALAR_WARNING, UserWarning, stacklevel=2)
        return complex(self._one_element())

    def _one_element(self):
        value = np.asarray(self._storage.value)
        if value.size != 1:  # PyTorch's ValueError (NumPy raises TypeError)
            raise ValueError("only one element tensors can be converted to Python scalars; "
                             "index the Tensor first, or use .tolist()")
        return value.reshape(())  # (NumPy converts only 0-d arrays)

    def __index__(self):
        value = np.asarray(self._storage.value)
        if value.dtype.kind not in "iu" or value.ndim:
            raise TypeError("only integer scalar Tensors can be converted to an index")
        return int(value)

    __hash__ = object.__hash__  # by identity, as in PyTorch (== is elementwise)

    def __repr__(self):
        body = np.array2string(np.asarray(self._storage.value), separator=", ",
                               prefix="tensor(")
        extras = []
        if self.dtype not in quiet_dtypes():  # as PyTorch: defaults go unsaid
            extras.append(f"dtype={self.dtype.name}")
        if self.grad_fn is not None:
            extras.append(f"grad_fn={self.grad_fn!r}")
        elif self._requires_grad:
            extras.append("requires_grad=True")
        return "tensor(" + ", ".join([body] + extras) + ")"

    __str__ = __repr__

    def __format__(self, spec):
        if spec and self.size == 1:
            return format(self.item(), spec)
        return format(repr(self), spec)

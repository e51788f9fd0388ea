"""PyTorch's factory functions and dtype names: ``fg.tensor``, ``fg.randn``, ``fg.rand``,
``fg.zeros``, ``fg.ones``, ``fg.full``, ``fg.arange``, ``fg.linspace``, ``fg.eye``, the
``*_like`` forms, ``fg.manual_seed``, and ``fg.float32``, ``fg.double``...

Decisions:

* **Default dtype float32**, PyTorch's (:mod:`funcgrad.eager.dtypes`): floating Python
  data and the factories give float32 unless ``dtype=`` or ``fg.set_default_dtype``
  says otherwise; Python ints give int64, bools bool; NumPy arrays keep their dtype
  (``fg.tensor(np_array)``, ``fg.from_numpy``).  Check gradients in float64, as
  PyTorch's ``gradcheck`` wants (``dtype=fg.float64`` or ``.double()``).
* **Random numbers** come from a NumPy ``Generator`` per thread (no state shared
  between threads); ``fg.manual_seed(s)`` reseeds the calling thread's, so a seeded
  script is reproducible -- with funcgrad's numbers, not PyTorch's.
* The dtype names are NumPy's scalar types, so ``t.dtype == fg.float32`` holds.

>>> import funcgrad as fg
>>> _ = fg.manual_seed(0)
>>> x = fg.randn(2, 3, requires_grad=True)
>>> x.shape, x.dtype == fg.float32, fg.zeros_like(x).requires_grad
(fg.Size([2, 3]), True, False)
"""
import threading
import warnings
from typing import Any, Callable, Sequence

import numpy as np

from .dtypes import DTYPES, default_float, get_default_dtype, set_default_dtype
from .dtypes import python_data_dtype as python_dtype
from ..typing import ArrayLike, DTypeLike
from .tensor import Tensor

__all__ = ["logspace", "randperm", "tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "randn",
           "rand", "randint", "arange", "linspace", "eye", "zeros_like", "ones_like",
           "full_like", "empty_like", "randn_like", "rand_like", "manual_seed", "seed",
           "is_tensor", "set_default_dtype", "get_default_dtype", "DTYPES"]


class _Random(threading.local):
    def __init__(self):
        self.generator = np.random.default_rng()


_random = _Random()


def manual_seed(seed: int) -> np.random.Generator:
    """Seed this thread's random numbers (``fg.randn``, ``fg.rand``...); returns the
    generator.

    >>> import funcgrad as fg
    >>> _ = fg.manual_seed(1); a = fg.rand(2)
    >>> _ = fg.manual_seed(1); bool((a == fg.rand(2)).all())
    True
    """
    _random.generator = np.random.default_rng(int(seed))
    return _random.generator


def seed() -> int:
    """Seed this thread's random numbers unpredictably; returns the seed used.

    >>> import funcgrad as fg
    >>> isinstance(fg.seed(), int)
    True
    """
    s = int(np.random.SeedSequence().entropy % (2 ** 63))  # type: ignore[operator]
    manual_seed(s)
    return s


def _dtype(dtype, default=None):
    return default_float(dtype) if default is None else np.dtype(
        default if dtype is None else dtype)


def is_tensor(obj: object) -> bool:
    """Whether ``obj`` is a funcgrad Tensor (``torch.is_tensor``).

    >>> import numpy as np, funcgrad as fg
    >>> fg.is_tensor(fg.zeros(2)), fg.is_tensor(np.zeros(2))
    (True, False)
    """
    return isinstance(obj, Tensor)


def _shape(size, what):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for d in size:
        if not isinstance(d, (int, np.integer)) or d < 0:
            raise TypeError(f"{what}(): sizes must be non-negative ints, got {d!r}; e.g. "
                            f"fg.{what}(2, 3) or fg.{what}((2, 3))")
    return tuple(int(d) for d in size)


def _made(value, requires_grad):
    return Tensor(value, requires_grad=requires_grad)


# PyTorch's advice (its wording) on fg.tensor(a_tensor)
COPY_WARNING = ("To copy construct from a tensor, it is recommended to use "
                "sourceTensor.detach().clone() or "
                "sourceTensor.detach().clone().requires_grad_(True), rather than "
                "torch.tensor(sourceTensor).")


def tensor(data: ArrayLike, dtype: DTypeLike | None = None, requires_grad: bool = False,
           device: Any = None) -> Tensor:
    """A new Tensor holding a copy of ``data`` (numbers, nested lists, arrays, Tensors);
    Python floats become the default dtype (float32), NumPy arrays keep theirs.

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 2.0]], requires_grad=True)
    tensor([[1., 2.]], requires_grad=True)
    >>> fg.tensor([1, 2]).dtype == fg.int64
    True
    """
    _cpu(device)
    if isinstance(data, Tensor):
        warnings.warn(COPY_WARNING, UserWarning, stacklevel=2)
        data = data.detach()
    return Tensor(data, requires_grad=requires_grad, dtype=dtype)


def as_tensor(data: ArrayLike, dtype: DTypeLike | None = None, device: Any = None) -> Tensor:
    """``data`` as a Tensor (a Tensor of the right dtype is returned as it is).

    >>> import funcgrad as fg
    >>> x = fg.tensor([1.0])
    >>> fg.as_tensor(x) is x
    True
    """
    _cpu(device)
    if isinstance(data, Tensor) and (dtype is None or data.dtype == np.dtype(dtype)):
        return data
    return Tensor(data, dtype=dtype)


def from_numpy(array: np.ndarray[Any, Any]) -> Tensor:
    """A Tensor of ``array``'s values and dtype (copied, unlike PyTorch's, which shares
    memory: Tensors never share writable memory).

    >>> import numpy as np, funcgrad as fg
    >>> fg.from_numpy(np.arange(3)), fg.from_numpy(np.ones(1)).dtype == fg.float64
    (tensor([0, 1, 2]), True)
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__}); for Python data "
                        f"use fg.tensor(data)")
    return Tensor(array)


def _cpu(device):
    if device is not None and str(device).split(":")[0] != "cpu":
        raise ValueError(f"device={device!r}: funcgrad Tensors are created on the CPU; move "
                         f"values to a GPU with fg.device_put(x, 'cuda')")


def zeros(*size: int | Sequence[int], dtype: DTypeLike | None = None,
          requires_grad: bool = False, device: Any = None) -> Tensor:
    """A Tensor of zeros (the default dtype, float32, unless ``dtype``); ``zeros(2, 3)`` or ``zeros((2, 3))``.

    >>> import funcgrad as fg
    >>> fg.zeros((1, 2), requires_grad=True)
    tensor([[0., 0.]], requires_grad=True)
    """
    _cpu(device)
    return _made(np.zeros(_shape(size, "zeros"), _dtype(dtype)), requires_grad)


def ones(*size: int | Sequence[int], dtype: DTypeLike | None = None,
         requires_grad: bool = False, device: Any = None) -> Tensor:
    """A Tensor of ones (float32 unless ``dtype``); ``ones(2, 3)`` or ``ones((2, 3))``.

    >>> import funcgrad as fg
    >>> fg.ones(2)
    tensor([1., 1.])
    """
    _cpu(device)
    return _made(np.ones(_shape(size, "ones"), _dtype(dtype)), requires_grad)


empty = zeros  # (funcgrad never hands out uninitialised memory)


def full(size: int | Sequence[int], fill_value: ArrayLike, dtype: DTypeLike | None = None,
         requires_grad: bool = False, device: Any = None) -> Tensor:
    """A Tensor of shape ``size`` filled with ``fill_value``: the default dtype (float32)
    for a float, int64 for an int, bool for a bool, unless ``dtype``.

    >>> import funcgrad as fg
    >>> fg.full((2,), 7.0)
    tensor([7., 7.])
    """
    _cpu(device)
    size = (size,) if isinstance(size, (int, np.integer)) else tuple(size)
    if dtype is None:
        fill = np.asarray(fill_value)
        dtype = python_dtype(fill_value, fill) or fill.dtype
    return _made(np.full(_shape(size, "full"), fill_value, _dtype(dtype)), requires_grad)


def randn(*size: int | Sequence[int], dtype: DTypeLike | None = None,
          requires_grad: bool = False, generator: np.random.Generator | None = None,
          device: Any = None) -> Tensor:
    """Standard normal samples (float32 unless ``dtype``).

    >>> import funcgrad as fg
    >>> fg.randn(2, 3).shape
    fg.Size([2, 3])
    """
    _cpu(device)
    rng = generator if generator is not None else _random.generator
    value = rng.standard_normal(_shape(size, "randn")).astype(_dtype(dtype))
    return _made(value, requires_grad)


def rand(*size: int | Sequence[int], dtype: DTypeLike | None = None,
         requires_grad: bool = False, generator: np.random.Generator | None = None,
         device: Any = None) -> Tensor:
    """Uniform samples in ``[0, 1)`` (float32 unless ``dtype``).

    >>> import funcgrad as fg
    >>> bool(((fg.rand(5) >= 0) & (fg.rand(5) < 1)).all())
    True
    """
    _cpu(device)
    rng = generator if generator is not None else _random.generator
    return _made(rng.random(_shape(size, "rand")).astype(_dtype(dtype)), requires_grad)


def randint(low: int, high: int | None = None, size: int | Sequence[int] = (),
            dtype: DTypeLike | None = None, generator: np.random.Generator | None = None,
            device: Any = None) -> Tensor:
    """Integers uniform in ``[low, high)`` (``randint(high, size)`` from 0), int64.

    >>> import funcgrad as fg
    >>> fg.randint(0, 3, (4,)).dtype == fg.int64
    True
    """
    _cpu(device)
    if high is None:
        low, high = 0, low
    rng = generator if generator is not None else _random.generator
    size = (size,) if isinstance(size, (int, np.integer)) else tuple(size)
    return Tensor(rng.integers(low, high, size).astype(_dtype(dtype, np.int64)))


def arange(start: float, end: float | None = None, step: float = 1,
           dtype: DTypeLike | None = None, requires_grad: bool = False,
           device: Any = None) -> Tensor:
    """``[start, end)`` by ``step`` (``arange(n)`` from 0); int64 for integer arguments,
    the default dtype (float32) otherwise.

    >>> import funcgrad as fg
    >>> fg.arange(3), fg.arange(0, 1, 0.5)
    (tensor([0, 1, 2]), tensor([0. , 0.5]))
    """
    _cpu(device)
    if end is None:
        start, end = 0, start
    ints = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
    dtype = np.dtype(np.int64) if ints and dtype is None else _dtype(dtype)
    return _made(np.arange(start, end, step).astype(dtype), requires_grad)


def linspace(start: float, end: float, steps: int, dtype: DTypeLike | None = None,
             requires_grad: bool = False, device: Any = None) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive (float32 unless
    ``dtype``, even for integer ends, as in PyTorch).

    >>> import funcgrad as fg
    >>> fg.linspace(0, 1, 3)
    tensor([0. , 0.5, 1. ])
    """
    _cpu(device)
    return _made(np.linspace(start, end, int(steps), dtype=_dtype(dtype)), requires_grad)


def logspace(start: float, end: float, steps: int, base: float = 10.0,
             dtype: DTypeLike | None = None, requires_grad: bool = False,
             device: Any = None) -> Tensor:
    """``base ** linspace(start, end, steps)``, float32 unless ``dtype``.

    >>> import funcgrad as fg
    >>> fg.logspace(0, 2, 3)
    tensor([  1.,  10., 100.])
    """
    _cpu(device)
    return _made(np.logspace(start, end, int(steps), base=base).astype(_dtype(dtype)),
                 requires_grad)


def randperm(n: int, dtype: DTypeLike | None = None,
             generator: np.random.Generator | None = None, device: Any = None) -> Tensor:
    """A random permutation of the integers from 0 to ``n - 1``, int64 unless ``dtype``.

    >>> import funcgrad as fg
    >>> sorted(fg.randperm(4).tolist())
    [0, 1, 2, 3]
    """
    _cpu(device)
    rng = generator if generator is not None else _random.generator
    return Tensor(rng.permutation(int(n)).astype(_dtype(dtype, np.int64)))


def eye(n: int, m: int | None = None, dtype: DTypeLike | None = None,
        requires_grad: bool = False, device: Any = None) -> Tensor:
    """The ``n`` x ``m`` identity (``m`` defaults to ``n``), float32 unless ``dtype``.

    >>> import funcgrad as fg
    >>> fg.eye(2)
    tensor([[1., 0.],
            [0., 1.]])
    """
    _cpu(device)
    return _made(np.eye(n, m, dtype=_dtype(dtype)), requires_grad)


def _like(make: Callable[..., Tensor], doc: str) -> Callable[..., Tensor]:
    def like(input: Tensor, dtype: DTypeLike | None = None,  # noqa: A002
             requires_grad: bool = False, device: Any = None) -> Tensor:
        _cpu(device)
        dt = dtype if dtype is not None else input.dtype
        return make(*input.shape, dtype=dt, requires_grad=requires_grad)
    like.__doc__ = doc
    return like


zeros_like = _like(zeros, """Zeros shaped (and typed, unless ``dtype``) like ``input``.

    >>> import funcgrad as fg
    >>> fg.zeros_like(fg.ones(2))
    tensor([0., 0.])
    """)
ones_like = _like(ones, """Ones shaped like ``input``.

    >>> import funcgrad as fg
    >>> fg.ones_like(fg.zeros(2))
    tensor([1., 1.])
    """)
empty_like = zeros_like
randn_like = _like(randn, """Normal samples shaped like ``input``.

    >>> import funcgrad as fg
    >>> fg.randn_like(fg.zeros(2)).shape
    fg.Size([2])
    """)
rand_like = _like(rand, """Uniform samples shaped like ``input``.

    >>> import funcgrad as fg
    >>> fg.rand_like(fg.zeros(2)).shape
    fg.Size([2])
    """)
for _fn, _name in ((zeros_like, "zeros_like"), (ones_like, "ones_like"),
                   (randn_like, "randn_like"), (rand_like, "rand_like")):
    _fn.__name__ = _fn.__qualname__ = _name
del _fn, _name


def full_like(input: Tensor, fill_value: ArrayLike, dtype: DTypeLike | None = None,  # noqa: A002
              requires_grad: bool = False, device: Any = None) -> Tensor:
    """``fill_value`` everywhere, shaped like ``input``.

    >>> import funcgrad as fg
    >>> fg.full_like(fg.zeros(2), 3.0)
    tensor([3., 3.])
    """
    dt = dtype if dtype is not None else input.dtype
    return full(input.shape, fill_value, dtype=dt, requires_grad=requires_grad,
                device=device)

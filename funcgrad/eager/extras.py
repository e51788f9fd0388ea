"""PyTorch's Tensor methods the other method modules leave out: the ``*_scatter``
copies, dtype shorthands (``byte``, ``short``, ``cfloat``...), the conjugate and negative
bits, counting (``histc``, ``bincount``), ``hardshrink`` and a few integer and
floating-point helpers (``gcd``, ``frexp``, ``nextafter``).

Each is composed of funcgrad's existing operations, so its derivatives are theirs: the
``*_scatter`` copies write with ``.at[].set`` (the gradient of what is replaced is zero,
``src`` gets the rest), ``hardshrink`` is a ``where``.  Counting, comparison and integer
results carry no derivative, as in PyTorch.  funcgrad has no lazy conjugate or negative
bit: ``is_conj()`` and ``is_neg()`` are False and ``resolve_conj()`` /
``resolve_neg()`` return the Tensor itself.

>>> import funcgrad as fg
>>> x = fg.zeros(2, 3)
>>> x.slice_scatter(fg.ones(2, 1), dim=1, start=2)
tensor([[0., 0., 1.],
        [0., 0., 1.]])
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy.constructors import stop_gradient
from .indices import checked, in_bounds, is_traced
from .values import axis_index as _axis
from .tensor import Tensor

__all__ = ["attach", "METHODS"]


def _positions(t, view):
    """Where in ``t`` (flat element numbers) the elements of ``view(t)`` are."""
    return np.asarray(view(np.arange(t.numel()).reshape(t.shape)))


def _scatter_into(t, src, view, name):
    """``t`` with the elements ``view`` shows replaced by ``src`` (a new Tensor)."""
    positions = _positions(t, view)
    if tuple(src.shape) != positions.shape:
        raise RuntimeError(f"{name}: expected src to have a size equal to the slice of self. "
                           f"src size = {list(src.shape)}, slice size = {list(positions.shape)}")
    flat = fnp.at(fnp.ravel(t))[positions.reshape(-1)].set(fnp.ravel(src))
    return fnp.reshape(flat, tuple(t.shape))


def slice_scatter(self: Any, src: Any, dim: int = 0, start: int | None = None,
                  end: int | None = None, step: int = 1) -> Any:
    """A copy of this Tensor with ``src`` in ``self[..., start:end:step, ...]`` (along
    ``dim``).

    >>> import funcgrad as fg
    >>> fg.zeros(4).slice_scatter(fg.ones(2), start=1, end=3)
    tensor([0., 1., 1., 0.])
    """
    d = _axis(dim, self.ndim)
    key = (slice(None),) * d + (slice(start, end, step),)
    return _scatter_into(self, src, lambda a: a[key], "slice_scatter")


def select_scatter(self: Any, src: Any, dim: int, index: int) -> Any:
    """A copy of this Tensor with ``src`` in ``self.select(dim, index)``.

    >>> import funcgrad as fg
    >>> fg.zeros(2, 2).select_scatter(fg.ones(2), 0, 1)
    tensor([[0., 0.],
            [1., 1.]])
    """
    d = _axis(dim, self.ndim)
    key = (slice(None),) * d + (int(index),)
    return _scatter_into(self, src, lambda a: a[key], "select_scatter")


def diagonal_scatter(self: Any, src: Any, offset: int = 0, dim1: int = 0,
                     dim2: int = 1) -> Any:
    """A copy of this Tensor with ``src`` on ``self.diagonal(offset, dim1, dim2)``.

    >>> import funcgrad as fg
    >>> fg.zeros(2, 2).diagonal_scatter(fg.ones(2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    return _scatter_into(self, src, lambda a: np.diagonal(a, offset, dim1, dim2),
                         "diagonal_scatter")


def narrow_copy(self: Any, dim: int, start: int, length: int) -> Any:
    """:meth:`narrow`, copied (no view).

    >>> import funcgrad as fg
    >>> fg.arange(4.0).narrow_copy(0, 1, 2)
    tensor([1., 2.])
    """
    return self.narrow(dim, start, length).clone()


def hardshrink(self: Any, lambd: float = 0.5) -> Any:
    """``x`` where ``|x| > lambd``, else 0.

    >>> import funcgrad as fg
    >>> fg.tensor([-1.0, 0.2, 0.7]).hardshrink()
    tensor([-1. ,  0. ,  0.7])
    """
    return fnp.where(abs(self) > lambd, self, fnp.zeros((), self.dtype))


def histc(self: Any, bins: int = 100, min: float = 0, max: float = 0) -> Any:  # noqa: A002
    """A histogram of ``bins`` equal bins from ``min`` to ``max`` (both 0: the smallest and
    largest element); elements outside are left out.  Counts, in this Tensor's dtype;
    no derivative (piecewise constant).  An element's bin is PyTorch's: ``(x - min) * bins
    / (max - min)`` in the Tensor's dtype, rounded down (``max`` itself in the last bin).
    Its length is ``bins``, so it traces under ``jit`` and ``vmap``.

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, 2.0, 1.0]).histc(bins=4, min=0, max=3)
    tensor([0., 2., 1., 0.])
    """
    if self.dtype.kind not in "f":
        raise RuntimeError(f"\"histogram_cpu\" not implemented for '{self.dtype}'; "
                           f"convert it first, e.g. t.float().histc()")
    if int(bins) <= 0:
        raise RuntimeError(f"torch.histc(): bins must be > 0, but got {bins} for dimension 0")
    traced = is_traced(self)
    a = fnp.ravel(stop_gradient(self)) if traced else np.ravel(self.detach().numpy())
    kind = a.dtype.type
    lo, hi = kind(min), kind(max)
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    if lo == hi and a.size:  # the elements' range (a traced one: known when they are)
        lo, hi = fnp.min(a), fnp.max(a)
        if traced:
            lo, hi = _finite_range(lo, hi)
        elif not (np.isfinite(lo) and np.isfinite(hi)):
            raise RuntimeError(f"torch.histc: range of [{lo}, {hi}] is not finite")
        same = lo == hi
        lo, hi = fnp.where(same, lo - 1, lo), fnp.where(same, hi + 1, hi)
    elif lo == hi:
        lo, hi = lo - 1, hi + 1
    elif not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo}, {hi}] is not finite")
    inside = (a >= lo) & (a <= hi)  # (NaN is not)
    position = fnp.where(inside, (a - lo) * kind(bins) / (hi - lo), kind(0))
    position = fnp.minimum(fnp.astype(position, np.int64), int(bins) - 1)
    counts = fnp.at(fnp.zeros(int(bins), a.dtype))[position].add(fnp.astype(inside, a.dtype))
    return counts if traced else Tensor(np.asarray(counts))


def _finite_range(lo, hi):
    """``lo`` and ``hi``, refused when the computation runs if either is not finite."""
    def refuse(pair):
        for low, high in pair.reshape(-1, 2):
            if not (np.isfinite(low) and np.isfinite(high)):
                raise RuntimeError(f"torch.histc: range of [{low}, {high}] is not finite")
    pair = checked(fnp.stack([lo, hi], axis=-1), refuse)
    return pair[..., 0], pair[..., 1]


def bincount(self: Any, weights: Any = None, minlength: int = 0) -> Any:
    """How many times each value of this 1-d Tensor of non-negative integers occurs (the
    sum of ``weights`` at its places, when given), for each value up to the largest, or
    up to ``minlength - 1`` if that is larger.  Under ``jit`` and ``vmap`` the values are
    not known when the length is decided: there the length is ``minlength`` (as JAX's
    ``length=``), and a value not below it raises when the values are known.

    >>> import funcgrad as fg
    >>> fg.tensor([0, 1, 1, 3]).bincount()
    tensor([1, 2, 0, 1])
    >>> fg.jit(lambda t: t.bincount(minlength=5))(fg.tensor([0, 1, 1, 3]))
    tensor([1, 2, 0, 1, 0])
    """
    if self.ndim != 1 or self.dtype.kind not in "iub":
        raise RuntimeError(f"bincount only supports 1-d non-negative integral inputs; got a "
                           f"{self.ndim}-d Tensor of {self.dtype}")
    if is_traced(self):
        if int(minlength) <= 0:
            raise ValueError(
                "bincount(): under jit and vmap the length of the result (the largest value "
                "+ 1) cannot depend on the values, which are not known there; pass "
                "minlength=N with N above every value (as JAX's length=N): the result has "
                "length N")
        values = in_bounds(self, 0, int(minlength), "bincount(): under jit and vmap "
                           "minlength must be above every value: ")
        length = int(minlength)
    else:
        values = np.asarray(self.numpy())
        if values.size and values.min() < 0:
            raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
        length = int(np.max(values)) + 1 if values.size else 0
        length = length if length > minlength else int(minlength)
    if weights is None:
        if not is_traced(self):
            return Tensor(np.bincount(values, minlength=length).astype(np.int64))
        return fnp.at(fnp.zeros(length, np.int64))[values].add(np.ones((), np.int64))
    total = fnp.zeros(length, weights.dtype if weights.dtype.kind in "fc" else np.float64)
    return fnp.at(total)[values].add(weights)


def _to(dtype):
    def convert(self: Any, memory_format: Any = None) -> Any:
        return self.to(dtype)
    convert.__doc__ = f"This Tensor as {np.dtype(dtype).name} (``self.to({np.dtype(dtype).name})``)."
    return convert


def _no_bit(self: Any) -> bool:
    """False: funcgrad has no lazy conjugate / negative bit (it computes them at once).

    >>> import funcgrad as fg
    >>> fg.tensor([1j]).conj().is_conj()
    False
    """
    return False


def _itself(self: Any) -> Any:
    """This Tensor itself: funcgrad never defers a conjugation or negation.

    >>> import funcgrad as fg
    >>> x = fg.tensor([1.0]); x.resolve_conj() is x
    True
    """
    return self


def conj_physical(self: Any) -> Any:
    """The complex conjugate, computed (funcgrad's ``conj()`` is not lazy either).

    >>> import funcgrad as fg
    >>> fg.tensor([1 + 2j]).conj_physical()
    tensor([1.-2.j])
    """
    return self.conj()


def _integers(name):
    ufunc = getattr(fnp, name)

    def method(self: Any, other: Any) -> Any:
        if self.dtype.kind not in "iub":
            raise RuntimeError(f"\"{name}_cpu\" not implemented for '{self.dtype}': "
                               f"{name} takes integer Tensors")
        return ufunc(self, other)
    method.__name__ = name
    method.__doc__ = (f"NumPy's ``{name}`` of integer Tensors, elementwise.\n\n"
                      f">>> import funcgrad as fg\n"
                      f">>> fg.tensor([4, 6]).{name}(fg.tensor([6, 9])).tolist()\n"
                      f"{np.__dict__[name]([4, 6], [6, 9]).tolist()}\n")
    return method


def nextafter(self: Any, other: Any) -> Any:
    """The next floating-point value after each element towards ``other``.  Its
    derivative is PyTorch's: 1 for ``self`` (the step is a constant), none for ``other``.

    >>> import funcgrad as fg
    >>> bool(fg.tensor([1.0]).nextafter(fg.tensor([2.0])) > 1)
    True
    """
    value, target = _known(self), _known(other)
    return self + _wrapped(fnp.nextafter(value, fnp.astype(target, value.dtype)) - value)


def frexp(self: Any) -> Any:
    """``(mantissa, exponent)`` with ``self == mantissa * 2 ** exponent``, the exponent
    int32 (PyTorch's); the mantissa's derivative is ``2 ** -exponent``.

    >>> import funcgrad as fg
    >>> fg.tensor([8.0]).frexp()
    (tensor([0.5]), tensor([4], dtype=int32))
    """
    if self.dtype.kind != "f":
        raise RuntimeError(f"torch.frexp() only supports floating-point dtypes, not "
                           f"{self.dtype}")
    _, exponent = fnp.frexp(_known(self))
    one = np.ones((), self.dtype)
    # 2 ** -exponent in two halves: of a subnormal it is past the largest float
    half = fnp.ldexp(one, -(exponent // 2)), fnp.ldexp(one, exponent // 2 - exponent)
    mantissa = self * _wrapped(fnp.astype(half[0], self.dtype)) * _wrapped(
        fnp.astype(half[1], self.dtype))
    return mantissa, _wrapped(fnp.astype(exponent, np.int32))


def _known(x):
    """``x``'s values without its derivative: NumPy's where they are known, else (under
    ``jit`` and ``vmap``) the traced values."""
    if is_traced(x):
        return stop_gradient(x)
    return np.asarray(x.detach().numpy() if hasattr(x, "detach") else x)


def _wrapped(value):
    return Tensor(value) if isinstance(value, np.ndarray) else value


METHODS = [slice_scatter, select_scatter, diagonal_scatter, narrow_copy, hardshrink, histc,
           bincount, conj_physical, nextafter, frexp, _integers("gcd"), _integers("lcm")]
_CONVERSIONS = {"byte": np.uint8, "char": np.int8, "short": np.int16,
                "cfloat": np.complex64, "cdouble": np.complex128}


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in METHODS:
        setattr(cls, fn.__name__, fn)
    for name, dtype in _CONVERSIONS.items():
        method = _to(dtype)
        method.__name__ = method.__qualname__ = name
        setattr(cls, name, method)
    cls.is_conj = cls.is_neg = _no_bit
    cls.resolve_conj = cls.resolve_neg = _itself
    for flag in ("is_sparse", "is_quantized", "is_meta", "is_nested", "is_mkldnn"):
        setattr(cls, flag, property(lambda self: False,
                                    doc="False: funcgrad's Tensors are dense, plain arrays."))

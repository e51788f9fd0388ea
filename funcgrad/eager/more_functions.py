"""More of PyTorch's top-level functions that are no Tensor method: distances
(``cdist``), moments in pairs (``var_mean``, ``std_mean``), sorted search
(``searchsorted``, ``bucketize``), integration (``trapezoid``, ``trapz``,
``cumulative_trapezoid``), building (``block_diag``, ``cartesian_prod``,
``combinations``, ``dstack``, ``atleast_*d``), complex numbers (``complex``, ``polar``,
``real``, ``imag``, ``view_as_real``, ``view_as_complex``), ``rsub``, ``prelu`` and
PyTorch's dtype questions (``result_type``, ``promote_types``, ``can_cast``).

All are compositions of funcgrad's operations on Tensors, so their derivatives are the
primitives'.  Where a composition would have a derivative PyTorch does not (``cdist``
at zero distance: ``sqrt`` at 0), it uses the double-``where`` idiom and gives PyTorch's
zero.  :mod:`funcgrad.eager.functions` lists them among ``fg.cat``, ``fg.exp``...

>>> import funcgrad as fg
>>> a = fg.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
>>> d = fg.cdist(a, a)
>>> d
tensor([[0., 5.],
        [5., 0.]], grad_fn=<WhereBackward0>)
>>> d.sum().backward(); a.grad
tensor([[-1.2, -1.6],
        [ 1.2,  1.6]])
"""
import itertools
from typing import Any, Sequence

import numpy as np

from .. import numpy as fnp
from ..numpy.constructors import stop_gradient
from .indices import is_traced
from .promotion import result_dtype
from .tensor import Tensor
from .values import axis_index as _axis

__all__ = ["cdist", "var_mean", "std_mean", "searchsorted", "bucketize", "trapezoid",
           "trapz", "cumulative_trapezoid", "block_diag", "cartesian_prod", "combinations",
           "dstack", "atleast_1d", "atleast_2d", "atleast_3d", "complex", "polar", "real",
           "imag", "view_as_real", "view_as_complex", "rsub", "prelu", "result_type",
           "promote_types", "can_cast"]


def _safe_root(s, p):
    """``s ** (1/p)`` with 0 (PyTorch's) as its derivative where ``s`` is 0."""
    positive = s > 0
    safe = fnp.where(positive, s, fnp.ones((), s.dtype))
    root = fnp.sqrt(safe) if p == 2 else safe ** (1.0 / p)
    return fnp.where(positive, root, fnp.zeros((), s.dtype))


def cdist(x1: Any, x2: Any, p: float = 2.0, compute_mode: str | None = None) -> Any:
    """The ``p``-norm distances between the rows of ``x1`` (``(..., P, M)``) and of
    ``x2`` (``(..., R, M)``): ``(..., P, R)``.

    >>> import funcgrad as fg
    >>> fg.cdist(fg.tensor([[0.0, 0.0]]), fg.tensor([[3.0, 4.0], [1.0, 0.0]]))
    tensor([[5., 1.]])
    """
    if x1.ndim < 2 or x2.ndim < 2 or x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"cdist only supports at least 2D tensors with the same number "
                           f"of columns, got shapes {list(x1.shape)} and {list(x2.shape)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    diff = abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 0:
        return (diff != 0).sum(-1).to(result_dtype([x1, x2]))
    if p == 1:
        return diff.sum(-1)
    if p == float("inf"):
        return diff.amax(-1)
    return _safe_root((diff * diff if p == 2 else diff ** p).sum(-1), p)


def var_mean(input: Any, dim: Any = None, unbiased: bool | None = None,  # noqa: A002
             keepdim: bool = False, *, correction: Any = None) -> tuple[Any, Any]:
    """``(input.var(...), input.mean(...))`` over ``dim`` (PyTorch's ``correction``
    and ``unbiased``).

    >>> import funcgrad as fg
    >>> fg.var_mean(fg.tensor([1.0, 2.0, 3.0]))
    (tensor(1.), tensor(2.))
    """
    return _spread_mean("var", input, dim, unbiased, keepdim, correction)


def std_mean(input: Any, dim: Any = None, unbiased: bool | None = None,  # noqa: A002
             keepdim: bool = False, *, correction: Any = None) -> tuple[Any, Any]:
    """``(input.std(...), input.mean(...))``, as :func:`var_mean`.

    >>> import funcgrad as fg
    >>> fg.std_mean(fg.tensor([1.0, 3.0]))
    (tensor(1.4142135), tensor(2.))
    """
    # (the Tensor's std, not var's sqrt: its gradient is 0 where all are equal, as
    # PyTorch's, where sqrt's would be 0/0)
    return _spread_mean("std", input, dim, unbiased, keepdim, correction)


def _spread_mean(name, input, dim, unbiased, keepdim, correction):  # noqa: A002
    kwargs = {} if unbiased is None else {"unbiased": unbiased}
    if correction is not None:
        kwargs["correction"] = correction
    return (getattr(input, name)(dim, keepdim=keepdim, **kwargs),
            input.mean() if dim is None else input.mean(dim, keepdim=keepdim))


def searchsorted(sorted_sequence: Any, input: Any, *, out_int32: bool = False,  # noqa: A002
                 right: bool = False, side: str | None = None, sorter: Any = None) -> Any:
    """Where each element of ``input`` would go in ``sorted_sequence`` (1-d, or sorted
    along its last axis with ``input``'s leading axes); ``side="right"`` or
    ``right=True`` after equal elements.  int64 (int32 with ``out_int32``).

    >>> import funcgrad as fg
    >>> fg.searchsorted(fg.tensor([1.0, 2.0, 3.0]), fg.tensor([2.0, 0.5]))
    tensor([1, 0])
    """
    side_: Any = side or ("right" if right else "left")
    if is_traced(sorted_sequence) or is_traced(input) or is_traced(sorter):
        return _searchsorted_traced(sorted_sequence, input, np.int32 if out_int32 else np.int64,
                                    side_, sorter)
    seq = np.asarray(getattr(sorted_sequence, "detach", lambda: sorted_sequence)())
    if sorter is not None:
        seq = np.take_along_axis(seq, np.asarray(sorter), -1)
    scalar = not isinstance(input, Tensor)
    values = np.asarray(input.detach() if not scalar else input)
    dtype = np.int32 if out_int32 else np.int64
    if seq.ndim == 1:
        found = np.searchsorted(seq, values, side=side_)
    else:
        if seq.shape[:-1] != values.shape[:-1]:
            raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 "
                               f"dimension or the first N-1 dimensions of boundaries tensor "
                               f"and input value tensor must match, but we got boundaries "
                               f"tensor {list(seq.shape)} and input value tensor "
                               f"{list(values.shape)}")
        rows_s = seq.reshape(-1, seq.shape[-1])
        rows_v = values.reshape(-1, values.shape[-1])
        found = np.stack([np.searchsorted(s, v, side=side_) for s, v in zip(rows_s, rows_v)])
        found = found.reshape(values.shape)
    return Tensor(np.asarray(found, dtype))


def _searchsorted_traced(seq, values, dtype, side, sorter):
    """:func:`searchsorted` on traced values: the count of the sorted elements before
    each value (NumPy's order: NaN after every number), one comparison per pair, so the
    shape is known before the values are."""
    seq, values = stop_gradient(seq), stop_gradient(values)
    if sorter is not None:
        seq = fnp.take_along_axis(seq, sorter, -1)
    if seq.ndim > 1 and tuple(seq.shape[:-1]) != tuple(fnp.shape(values)[:-1]):
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or "
                           f"the first N-1 dimensions of boundaries tensor and input value "
                           f"tensor must match, but we got boundaries tensor "
                           f"{list(seq.shape)} and input value tensor "
                           f"{list(fnp.shape(values))}")
    v = fnp.expand_dims(values, -1)
    s = seq if seq.ndim == 1 else fnp.expand_dims(seq, -2)
    if side == "right":
        before = s <= v
    else:
        before = s < v
    if fnp.asarray(s).dtype.kind in "fc":
        before = before | (fnp.isnan(v) & ~fnp.isnan(s)) if side == "left" else \
            before | fnp.isnan(v)
    return fnp.astype(fnp.sum(before, axis=-1), dtype)


def bucketize(input: Any, boundaries: Any, *, out_int32: bool = False,  # noqa: A002
              right: bool = False) -> Any:
    """The bucket of each element among the 1-d ``boundaries``: ``i`` with
    ``boundaries[i-1] < x <= boundaries[i]`` (``<= x <`` with ``right=True``).

    >>> import funcgrad as fg
    >>> fg.bucketize(fg.tensor([0.5, 1.0, 5.0]), fg.tensor([1.0, 2.0]))
    tensor([0, 0, 2])
    """
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def trapezoid(y: Any, x: Any = None, *, dx: float | None = None, dim: int = -1) -> Any:
    """The trapezoidal rule along ``dim``: samples at ``x`` or spaced ``dx`` (1).

    >>> import funcgrad as fg
    >>> fg.trapezoid(fg.tensor([1.0, 2.0, 3.0]))
    tensor(4.)
    """
    if x is not None and not isinstance(x, Tensor) and np.ndim(x) == 0:
        dx, x = x, None  # trapz(y, dx) positionally
    return fnp.trapezoid(y, x, dx=1.0 if dx is None else dx, axis=dim)


def trapz(y: Any, x: Any = None, *, dx: float | None = None, dim: int = -1) -> Any:
    """:func:`trapezoid`'s older name.

    >>> import funcgrad as fg
    >>> fg.trapz(fg.tensor([1.0, 2.0, 3.0]), dx=0.5)
    tensor(2.)
    """
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y: Any, x: Any = None, *, dx: float | None = None,
                         dim: int = -1) -> Any:
    """The running trapezoidal rule along ``dim`` (one fewer element).

    >>> import funcgrad as fg
    >>> fg.cumulative_trapezoid(fg.tensor([1.0, 2.0, 3.0]))
    tensor([1.5, 4. ])
    """
    d = _axis(dim, y.ndim)
    n = y.shape[d]
    mid = (y.narrow(d, 1, n - 1) + y.narrow(d, 0, n - 1)) / 2
    if x is not None and isinstance(x, Tensor):
        step = fnp.diff(x, axis=d if x.ndim == y.ndim else -1)
        if x.ndim == 1 and y.ndim > 1:
            step = step.reshape((-1,) + (1,) * (y.ndim - 1 - d))
        mid = mid * step
    else:
        spacing = x if x is not None else dx
        mid = mid * (1.0 if spacing is None else spacing)
    return mid.cumsum(d)


def block_diag(*tensors: Any) -> Any:
    """The Tensors (0-d, 1-d: one row, 2-d) as the blocks of a block-diagonal matrix.

    >>> import funcgrad as fg
    >>> fg.block_diag(fg.tensor([[1.0]]), fg.tensor([2.0, 3.0]))
    tensor([[1., 0., 0.],
            [0., 2., 3.]])
    """
    blocks = [t.reshape(1, -1) if t.ndim < 2 else t for t in tensors]
    if any(b.ndim != 2 for b in blocks):
        raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions")
    dtype = result_dtype(blocks) if blocks else np.dtype(np.float32)
    width = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        right = width - left - b.shape[1]
        rows.append(fnp.pad(b.to(dtype), ((0, 0), (left, right))))
        left += b.shape[1]
    return fnp.concatenate(rows, 0) if rows else Tensor(np.zeros((0, 0), dtype))


def cartesian_prod(*tensors: Any) -> Any:
    """Every combination of one element of each 1-d Tensor, one per row (one Tensor:
    itself).

    >>> import funcgrad as fg
    >>> fg.cartesian_prod(fg.tensor([1, 2]), fg.tensor([3, 4]))
    tensor([[1, 3],
            [1, 4],
            [2, 3],
            [2, 4]])
    """
    if len(tensors) == 1:
        return tensors[0]
    grids = fnp.meshgrid(*tensors, indexing="ij")
    return fnp.stack([g.reshape(-1) for g in grids], 1)


def combinations(input: Any, r: int = 2, with_replacement: bool = False) -> Any:  # noqa: A002
    """The length-``r`` combinations of the elements of a 1-d Tensor, one per row
    (``itertools.combinations``' order).

    >>> import funcgrad as fg
    >>> fg.combinations(fg.tensor([1, 2, 3]))
    tensor([[1, 2],
            [1, 3],
            [2, 3]])
    """
    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    pick = itertools.combinations_with_replacement if with_replacement \
        else itertools.combinations
    index = np.array(list(pick(range(input.shape[0]), r)), np.int64).reshape(-1, r)
    if r == 0:
        return input[:0]
    return input[index]


def dstack(tensors: Sequence[Any]) -> Any:
    """Stacked along the third axis (after making each at least 3-d).

    >>> import funcgrad as fg
    >>> fg.dstack([fg.tensor([1.0, 2.0]), fg.tensor([3.0, 4.0])]).shape
    fg.Size([1, 2, 2])
    """
    return fnp.dstack(list(tensors))


def _at_least(numpy_fn):
    def function(*tensors: Any) -> Any:
        if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
            return tuple(function(t) for t in tensors[0])
        out = tuple(t if t.ndim >= wanted else numpy_fn(t) for t in tensors)
        return out[0] if len(out) == 1 else out
    wanted = int(numpy_fn.__name__[-2])
    function.__name__ = function.__qualname__ = numpy_fn.__name__
    function.__doc__ = (f"Each Tensor with at least {wanted} dimensions (itself if it has "
                        f"them).\n\n>>> import funcgrad as fg\n"
                        f">>> fg.{numpy_fn.__name__}(fg.tensor(1.0)).ndim\n{wanted}\n")
    return function


atleast_1d = _at_least(fnp.atleast_1d)
atleast_2d = _at_least(fnp.atleast_2d)
atleast_3d = _at_least(fnp.atleast_3d)


def complex(real: Any, imag: Any) -> Any:  # noqa: A001 - PyTorch's name
    """The complex Tensor ``real + 1j * imag`` (float32 parts: complex64).

    >>> import funcgrad as fg
    >>> fg.complex(fg.tensor([1.0]), fg.tensor([2.0]))
    tensor([1.+2.j])
    """
    if real.dtype != imag.dtype or real.dtype.kind != "f":
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{real.dtype} and {imag.dtype}")
    return real + imag * np.array(1j, np.result_type(real.dtype, np.complex64))


def polar(abs: Any, angle: Any) -> Any:  # noqa: A002
    """The complex Tensor of modulus ``abs`` and argument ``angle``.

    >>> import funcgrad as fg
    >>> fg.polar(fg.tensor([2.0]), fg.tensor([0.0]))
    tensor([2.+0.j])
    """
    return complex(abs * angle.cos(), abs * angle.sin())


def real(input: Any) -> Any:  # noqa: A002
    """``input.real``.

    >>> import funcgrad as fg
    >>> fg.real(fg.tensor([1 + 2j]))
    tensor([1.])
    """
    return input.real


def imag(input: Any) -> Any:  # noqa: A002
    """``input.imag`` of a complex Tensor (of a real one: PyTorch's RuntimeError).

    >>> import funcgrad as fg
    >>> fg.imag(fg.tensor([1 + 2j]))
    tensor([2.])
    """
    if input.dtype.kind != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return input.imag


def view_as_real(input: Any) -> Any:  # noqa: A002
    """A complex Tensor's real and imaginary parts on a new last axis of 2 (a copy in
    funcgrad, a view in PyTorch).

    >>> import funcgrad as fg
    >>> fg.view_as_real(fg.tensor([1 + 2j]))
    tensor([[1., 2.]])
    """
    if input.dtype.kind != "c":
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return fnp.stack([input.real, input.imag], -1)


def view_as_complex(input: Any) -> Any:  # noqa: A002
    """The complex Tensor whose real and imaginary parts are the last axis (of 2).

    >>> import funcgrad as fg
    >>> fg.view_as_complex(fg.tensor([[1.0, 2.0]]))
    tensor([1.+2.j])
    """
    if input.ndim == 0 or input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    return complex(input[..., 0], input[..., 1])


def rsub(input: Any, other: Any, alpha: Any = 1) -> Any:  # noqa: A002
    """``other - alpha * input``.

    >>> import funcgrad as fg
    >>> fg.rsub(fg.tensor([1.0]), 5.0)
    tensor([4.])
    """
    return other - (input if alpha == 1 else input * alpha)


def prelu(input: Any, weight: Any) -> Any:  # noqa: A002
    """``x`` where ``x >= 0``, else ``weight * x``; ``weight`` has one element or one per
    channel (axis 1).

    >>> import funcgrad as fg
    >>> fg.prelu(fg.tensor([-2.0, 3.0]), fg.tensor([0.25]))
    tensor([-0.5,  3. ])
    """
    if weight.numel() != 1:
        if input.ndim < 2 or input.shape[1] != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{input.shape[1] if input.ndim > 1 else 1}.")
        weight = weight.reshape((-1,) + (1,) * (input.ndim - 2))
    return fnp.where(input >= 0, input, weight * input)


def result_type(tensor1: Any, tensor2: Any) -> Any:
    """The dtype of an arithmetic operation on the two (PyTorch's promotion).

    >>> import funcgrad as fg
    >>> fg.result_type(fg.tensor([1, 2]), 1.0)
    dtype('float32')
    """
    return result_dtype([tensor1, tensor2])


def promote_types(type1: Any, type2: Any) -> Any:
    """The smallest dtype both can become, by PyTorch's rules (``int64`` and ``float32``:
    float32; NumPy says float64).

    >>> import funcgrad as fg
    >>> fg.promote_types(fg.float32, fg.int64)
    dtype('float32')
    """
    a, b = np.dtype(type1), np.dtype(type2)
    return result_dtype([Tensor(np.zeros(1, a)), Tensor(np.zeros(1, b))])


_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def can_cast(from_: Any, to: Any) -> bool:
    """Whether PyTorch's type promotion allows the cast: not to a lower category (bool <
    integer < floating < complex); sizes do not matter.

    >>> import funcgrad as fg
    >>> fg.can_cast(fg.float64, fg.float32), fg.can_cast(fg.float32, fg.int32)
    (True, False)
    """
    return _ORDER[np.dtype(from_).kind] <= _ORDER[np.dtype(to).kind]

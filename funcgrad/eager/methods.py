"""PyTorch's math methods on the Tensor: ``exp``, ``relu``, ``softmax(dim)``,
``sum(dim, keepdim)``, ``max(dim)`` -> ``(values, indices)``, ``matmul``, ``float()``...

Every method computes with funcgrad's primitives (so its derivative is theirs), takes
PyTorch's arguments (``dim=``, ``keepdim=``; NumPy's ``axis=`` and ``keepdims=`` are
accepted too, as PyTorch does) and, where PyTorch's graph has one node for what funcgrad
composes from several primitives, records them as one node under PyTorch's name
(:mod:`funcgrad.eager.named`): ``x.mean()`` is ``MeanBackward0``.

Where PyTorch and NumPy disagree the Tensor follows PyTorch: ``var``/``std`` divide by
``n - 1`` unless ``unbiased=False`` (or ``correction=0``); ``max(dim)`` returns values
and indices.  Methods are attached by :func:`attach` (after NumPy's, which they replace).

>>> import funcgrad as fg
>>> x = fg.tensor([[1.0, 5.0], [3.0, 2.0]], requires_grad=True)
>>> x.max(dim=1)
max(values=tensor([5., 3.], grad_fn=<MaxBackward0>), indices=tensor([1, 0]))
>>> s = x.softmax(dim=0).sum(0)
>>> s.grad_fn, s.detach().numpy().round(5)
(<SumBackward1>, array([1., 1.], dtype=float32))
"""
from collections import namedtuple
from typing import Any, Callable, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..primitives import elementwise as ew
from .dtypes import floating
from .named import Named, SavesOutput, record_as, record_saving_output
from .reducing import shared_among_ties
from .scalar_dims import scalar_dims
from .tensor import Tensor


__all__ = ["attach"]

# dim= of the reductions: one axis or several
Dim = Union[int, Sequence[int]]

MEAN0, MEAN1 = Named("mean", "MeanBackward0"), Named("mean", "MeanBackward1")
SUM1 = Named("sum", "SumBackward1")
MAX0, MIN0 = Named("max", "MaxBackward0"), Named("min", "MinBackward0")  # (over a dim)
# of all elements: shared among ties, among NaNs when the result is NaN (where amax has NaN)
MAX1, MIN1 = Named("max", "MaxBackward1"), Named("min", "MinBackward1")
VAR, STD = Named("var", "VarBackward0"), Named("std", "StdBackward0")
RELU = Named("relu", "ReluBackward0")
CLONE, T = Named("clone", "CloneBackward0"), Named("t", "TBackward0")
DOT, MV, BMM = Named("dot", "DotBackward0"), Named("mv", "MvBackward0"), \
    Named("bmm", "BmmBackward0")

# What ``max(dim)``/``min(dim)`` return, as torch.return_types.max does.
MaxResult = namedtuple("max", ["values", "indices"])  # type: ignore[name-match]
MinResult = namedtuple("min", ["values", "indices"])  # type: ignore[name-match]


def _dim(dim, axis, what):
    if dim is not None and axis is not None:
        raise TypeError(f"{what}() got both dim= and axis= (the same argument): pass one")
    return axis if dim is None else dim


def _keep(keepdim, keepdims):
    return bool(keepdim or keepdims)


# --- elementwise -------------------------------------------------------------------------------

def exp(self: Tensor) -> Tensor:
    """``e ** self``.

    >>> import funcgrad as fg
    >>> fg.tensor([0.0]).exp()
    tensor([1.])
    """
    return fnp.exp(floating(self))


def log(self: Tensor) -> Tensor:
    """Natural logarithm.

    >>> import funcgrad as fg
    >>> fg.tensor([1.0]).log()
    tensor([0.])
    """
    return fnp.log(floating(self))


def sin(self: Tensor) -> Tensor:
    """Sine.

    >>> import funcgrad as fg
    >>> fg.tensor([0.0]).sin()
    tensor([0.])
    """
    return fnp.sin(floating(self))


def cos(self: Tensor) -> Tensor:
    """Cosine.

    >>> import funcgrad as fg
    >>> fg.tensor([0.0]).cos()
    tensor([1.])
    """
    return fnp.cos(floating(self))


def tanh(self: Tensor) -> Tensor:
    """Hyperbolic tangent.

    >>> import funcgrad as fg
    >>> fg.tensor([0.0]).tanh()
    tensor([0.])
    """
    return fnp.tanh(floating(self))


def sigmoid(self: Tensor) -> Tensor:
    """``1 / (1 + exp(-self))`` (``SigmoidBackward0``; complex Tensors too, as PyTorch).

    >>> import funcgrad as fg
    >>> fg.tensor([0.0], requires_grad=True).sigmoid()
    tensor([0.5], grad_fn=<SigmoidBackward0>)
    """
    return ew.logistic(floating(self))


def relu(self: Tensor) -> Tensor:
    """``max(self, 0)``; the gradient at 0 is 0, as in PyTorch (``ReluBackward0``).

    >>> import funcgrad as fg
    >>> fg.tensor([-1.0, 2.0], requires_grad=True).relu()
    tensor([0., 2.], grad_fn=<ReluBackward0>)
    """
    return record_as(RELU, _relu, self)


def _relu(t):
    # (t <= 0, not t > 0: NaN passes through, with its gradient, as in PyTorch)
    return ew.where(t <= 0, np.zeros((), t.dtype), t)


def abs(self: Tensor) -> Tensor:  # noqa: A001 - PyTorch's name
    """Absolute value.

    >>> import funcgrad as fg
    >>> fg.tensor([-2.0]).abs()
    tensor([2.])
    """
    return fnp.abs(self)


def sqrt(self: Tensor) -> Tensor:
    """Square root.

    >>> import funcgrad as fg
    >>> fg.tensor([4.0]).sqrt()
    tensor([2.])
    """
    return fnp.sqrt(floating(self))


def pow(self: Tensor, exponent: Any) -> Tensor:  # noqa: A001 - PyTorch's name
    """``self ** exponent``.

    >>> import funcgrad as fg
    >>> fg.tensor([3.0], requires_grad=True).pow(2)
    tensor([9.], grad_fn=<PowBackward0>)
    """
    return self ** exponent


def clamp(self: Tensor, min: Any = None,  # noqa: A002 - PyTorch's names
          max: Any = None) -> Tensor:  # noqa: A002
    """Values limited to ``[min, max]`` (either may be None); the gradient is 1 inside.

    >>> import funcgrad as fg
    >>> fg.tensor([-1.0, 0.5, 3.0]).clamp(0, 1)
    tensor([0. , 0.5, 1. ])
    """
    if min is None and max is None:
        raise ValueError("clamp: at least one of min and max must be given")
    return fnp.clip(self, min, max)


def clamp_(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    """:meth:`clamp` in place.

    >>> import funcgrad as fg
    >>> fg.tensor([-1.0, 3.0]).clamp_(max=1.0)
    tensor([-1.,  1.])
    """
    return self._inplace(lambda s: clamp(s, min, max))


# --- reductions --------------------------------------------------------------------------------

@scalar_dims
def sum(self: Tensor, dim: Dim | None = None, keepdim: bool = False,  # noqa: A001
        dtype: Any = None, *, axis: Dim | None = None, keepdims: bool = False) -> Tensor:
    """Sum over ``dim`` (an int or a tuple; all elements by default).

    >>> import funcgrad as fg
    >>> x = fg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    >>> x.sum(), x.sum(dim=1, keepdim=True)
    (tensor(10., grad_fn=<SumBackward0>), tensor([[3.],
            [7.]], grad_fn=<SumBackward1>))
    """
    dim, keep = _dim(dim, axis, "sum"), _keep(keepdim, keepdims)
    if dim is None and not keep:
        return fnp.sum(self, dtype=dtype)
    return record_as(SUM1, fnp.sum, self, axis=_axes(dim), keepdims=keep, dtype=dtype)


@scalar_dims
def mean(self: Tensor, dim: Dim | None = None, keepdim: bool = False, dtype: Any = None, *,
         axis: Dim | None = None, keepdims: bool = False) -> Tensor:
    """Mean over ``dim`` (all elements by default): ``MeanBackward0`` / ``MeanBackward1``.

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, 3.0], requires_grad=True).mean()
    tensor(2., grad_fn=<MeanBackward0>)
    """
    if dtype is None and axis is None and self.dtype.kind in "biu":  # (PyTorch's spelling)
        raise RuntimeError(f"mean(): could not infer output dtype. Input dtype must be either "
                           f"a floating point or complex dtype. Got: {self.dtype}; convert "
                           f"it first (t.float().mean()) or pass dtype=")
    dim, keep = _dim(dim, axis, "mean"), _keep(keepdim, keepdims)
    named = MEAN0 if dim is None and not keep else MEAN1
    return record_as(named, fnp.mean, self, axis=_axes(dim), keepdims=keep, dtype=dtype)


def _axes(dim):
    return tuple(dim) if isinstance(dim, (tuple, list)) else dim


def _extreme(which, self, dim, keepdim, axis, keepdims):
    reduce, arg, named, named_all, result = {
        "max": (fnp.max, fnp.argmax, MAX0, MAX1, MaxResult),
        "min": (fnp.min, fnp.argmin, MIN0, MIN1, MinResult)}[which]
    if isinstance(dim, Tensor):  # torch.max(a, b): elementwise
        return self.maximum(dim) if which == "max" else self.minimum(dim)  # (pointwise's)
    keep = _keep(keepdim, keepdims)
    if axis is not None:  # NumPy's spelling: values only
        return reduce(self, axis=axis, keepdims=keep)
    if dim is None:
        if not (isinstance(self, Tensor) and self._requires_grad):
            return reduce(self)
        return shared_among_ties(named_all, self, reduce(self.detach()))
    # The values are gathered at the indices, so that the gradient goes to the returned
    # index alone, as in PyTorch (the full reduction shares it among ties).
    kept = arg(self.detach(), axis=dim, keepdims=True)

    def gather(t, axis, keepdims):
        picked = fnp.take_along_axis(t, kept, axis=axis)
        return picked if keepdims else fnp.squeeze(picked, axis=axis)
    values = record_as(named, gather, self, axis=dim, keepdims=keep)
    return result(values, kept if keep else fnp.squeeze(kept, axis=dim))


@scalar_dims
def max(self: Tensor, dim: int | None = None, keepdim: bool = False, *,  # noqa: A001
        axis: int | None = None, keepdims: bool = False) -> Any:
    """The largest element; with ``dim``, ``(values, indices)`` along it; with a Tensor,
    the elementwise maximum.

    >>> import funcgrad as fg
    >>> x = fg.tensor([[1.0, 5.0], [3.0, 2.0]])
    >>> x.max(), x.max(0).values, x.max(dim=1).indices
    (tensor(5.), tensor([3., 5.]), tensor([1, 0]))
    """
    return _extreme("max", self, dim, keepdim, axis, keepdims)


@scalar_dims
def min(self: Tensor, dim: int | None = None, keepdim: bool = False, *,  # noqa: A001
        axis: int | None = None, keepdims: bool = False) -> Any:
    """The smallest element; with ``dim``, ``(values, indices)`` along it.

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 5.0], [3.0, 2.0]]).min(1)
    min(values=tensor([1., 2.]), indices=tensor([0, 1]))
    """
    return _extreme("min", self, dim, keepdim, axis, keepdims)


def _correction(unbiased, correction, ddof):
    if correction is not None:
        return correction
    if ddof is not None:
        return ddof
    return 1 if unbiased in (None, True) else 0


@scalar_dims
def var(self: Tensor, dim: Dim | None = None, unbiased: bool | None = None,
        keepdim: bool = False, *, correction: float | None = None,
        axis: Dim | None = None, ddof: float | None = None, keepdims: bool = False) -> Tensor:
    """Variance over ``dim``, dividing by ``n - correction`` (PyTorch's default 1;
    ``unbiased=False`` or ``correction=0`` for the population variance).

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, 3.0], requires_grad=True).var()
    tensor(2., grad_fn=<VarBackward0>)
    """
    if isinstance(unbiased, bool) is False and unbiased is not None:
        raise TypeError("var(dim, unbiased, keepdim): unbiased must be True or False")
    dim = _axes(_dim(dim, axis, "var"))
    return record_as(VAR, fnp.var, self, axis=dim, keepdims=_keep(keepdim, keepdims),
                     ddof=_correction(unbiased, correction, ddof))


@scalar_dims
def std(self: Tensor, dim: Dim | None = None, unbiased: bool | None = None,
        keepdim: bool = False, *, correction: float | None = None,
        axis: Dim | None = None, ddof: float | None = None, keepdims: bool = False) -> Tensor:
    """Standard deviation (see :meth:`var` for ``correction``).

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, 3.0, 5.0], requires_grad=True).std()
    tensor(2., grad_fn=<StdBackward0>)
    """
    dim = _axes(_dim(dim, axis, "std"))
    return record_as(STD, fnp.std, self, axis=dim, keepdims=_keep(keepdim, keepdims),
                     ddof=_correction(unbiased, correction, ddof))


@scalar_dims
def argmax(self: Tensor, dim: int | None = None, keepdim: bool = False, *,
           axis: int | None = None) -> Tensor:
    """Index of the largest element (of the flattened Tensor without ``dim``).

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 5.0], [3.0, 2.0]]).argmax(dim=0)
    tensor([1, 0])
    """
    return fnp.argmax(self.detach(), axis=_dim(dim, axis, "argmax"), keepdims=keepdim)


@scalar_dims
def argmin(self: Tensor, dim: int | None = None, keepdim: bool = False, *,
           axis: int | None = None) -> Tensor:
    """Index of the smallest element.

    >>> import funcgrad as fg
    >>> fg.tensor([4.0, 1.0]).argmin()
    tensor(1)
    """
    return fnp.argmin(self.detach(), axis=_dim(dim, axis, "argmin"), keepdims=keepdim)


@scalar_dims
def softmax(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """``exp(x) / exp(x).sum(dim)``, computed stably (``SoftmaxBackward0``), in ``dtype``
    if given.

    >>> import funcgrad as fg
    >>> fg.tensor([0.0, 0.0]).softmax(dim=0)
    tensor([0.5, 0.5])
    """
    return record_saving_output(SOFTMAX, _softmax, _in_dtype(self, dtype), dim=dim)


def _in_dtype(t, dtype):
    return t if dtype is None or t.dtype == np.dtype(dtype) else fnp.astype(t, dtype)


def _softmax(t, dim):
    return fnp.exp(t - fnp.logsumexp(t, axis=dim, keepdims=True))


# PyTorch's softmax and log_softmax save their output, not their input (the input may
# change in place before the backward pass), and pull back with these formulas.
SOFTMAX = SavesOutput("softmax", "SoftmaxBackward0", lambda g, out, dim: out * (
    g - fnp.sum(g * out, axis=dim, keepdims=True)))
LOG_SOFTMAX = SavesOutput("log_softmax", "LogSoftmaxBackward0", lambda g, out, dim: (
    g - fnp.exp(out) * fnp.sum(g, axis=dim, keepdims=True)))


@scalar_dims
def log_softmax(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """``log(softmax(x, dim))``, computed stably (``LogSoftmaxBackward0``), in ``dtype``
    if given.

    >>> import funcgrad as fg
    >>> fg.tensor([0.0, 0.0]).log_softmax(0).exp()
    tensor([0.5, 0.5])
    """
    return record_saving_output(LOG_SOFTMAX, _log_softmax, _in_dtype(self, dtype), dim=dim)


def _log_softmax(t, dim):
    return t - fnp.logsumexp(t, axis=dim, keepdims=True)


# --- products ----------------------------------------------------------------------------------

def matmul(self: Tensor, other: Any) -> Tensor:
    """``self @ other`` (NumPy's and PyTorch's broadcasting matrix product).

    >>> import funcgrad as fg
    >>> fg.ones(2, 3).matmul(fg.ones(3))
    tensor([3., 3.])
    """
    return self @ other


def _expect(what, t, ndim):
    if t.ndim != ndim:
        raise RuntimeError(f"{what}: expected a {ndim}-D Tensor, got {t.ndim}-D with shape "
                           f"{list(t.shape)}; use matmul (@) for other shapes")


def mm(self: Tensor, other: Any) -> Tensor:
    """Matrix product of two 2-D Tensors (``MmBackward0``).

    >>> import funcgrad as fg
    >>> fg.ones(1, 2).mm(fg.ones(2, 1))
    tensor([[2.]])
    """
    _expect("mm", self, 2)
    _expect("mm", other, 2)
    return self @ other


def bmm(self: Tensor, other: Any) -> Tensor:
    """Batched matrix product of two 3-D Tensors (``BmmBackward0``).

    >>> import funcgrad as fg
    >>> fg.ones(4, 1, 2).bmm(fg.ones(4, 2, 1)).shape
    fg.Size([4, 1, 1])
    """
    _expect("bmm", self, 3)
    _expect("bmm", other, 3)
    return record_as(BMM, fnp.matmul, self, other)


def dot(self: Tensor, other: Any) -> Tensor:
    """Inner product of two 1-D Tensors (``DotBackward0``).

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, 2.0]).dot(fg.tensor([3.0, 4.0]))
    tensor(11.)
    """
    _expect("dot", self, 1)
    _expect("dot", other, 1)
    return record_as(DOT, fnp.matmul, self, other)


def mv(self: Tensor, vec: Any) -> Tensor:
    """Matrix-vector product (``MvBackward0``).

    >>> import funcgrad as fg
    >>> fg.ones(2, 3).mv(fg.ones(3))
    tensor([3., 3.])
    """
    _expect("mv", self, 2)
    _expect("mv", vec, 1)
    return record_as(MV, fnp.matmul, self, vec)


# --- copies and casts --------------------------------------------------------------------------

def clone(self: Tensor) -> Tensor:
    """A copy that stays in the graph (``CloneBackward0``).

    >>> import funcgrad as fg
    >>> fg.tensor([1.0], requires_grad=True).clone()
    tensor([1.], grad_fn=<CloneBackward0>)
    """
    if self.dtype.kind not in "fc":
        return Tensor(self)
    return record_as(CLONE, _copy, self)


def _copy(t):
    return t - np.zeros((), t.dtype)


def to(self: Tensor, *args: Any, dtype: Any = None, **kwargs: Any) -> Tensor:
    """A Tensor of ``dtype`` (``t.to(fg.float32)``); devices other than the CPU are not
    supported here (use ``fg.device_put``).

    >>> import funcgrad as fg
    >>> fg.tensor([1.0]).to(fg.float32).dtype
    dtype('float32')
    """
    for a in args:
        if isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, str) and a.split(":")[0] == "cpu":
            continue
        elif a is not None:
            try:
                dtype = np.dtype(a)
            except TypeError:
                raise TypeError(f"to({a!r}): expected a dtype (fg.float32...) or 'cpu'; "
                                f"move arrays to a GPU with fg.device_put") from None
    if dtype is None or np.dtype(dtype) == self.dtype:
        return self
    return fnp.astype(self, dtype)


def _cast(dtype: Any, name: str) -> Callable[[Tensor], Tensor]:
    def cast(self: Tensor) -> Tensor:
        return to(self, dtype=dtype)
    cast.__name__ = name
    cast.__doc__ = (f"This Tensor as {np.dtype(dtype).name} (itself when it already is); "
                    f"recorded as ``ToCopyBackward0``.\n\n"
                    f"    >>> import funcgrad as fg\n"
                    f"    >>> fg.tensor([1]).{name}().dtype\n"
                    f"    dtype('{np.dtype(dtype).name}')\n")
    return cast


def type(self: Tensor, dtype: Any = None) -> Tensor | str:  # noqa: A001 - PyTorch's name
    """With a dtype, :meth:`to` it; without, the type's name (``'fg.FloatTensor'``).

    >>> import funcgrad as fg
    >>> fg.tensor([1.0]).type(), fg.tensor([1.0]).type(fg.float64).dtype
    ('fg.FloatTensor', dtype('float64'))
    """
    if dtype is not None:
        return to(self, dtype=dtype)
    names = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
             "int32": "Int", "bool": "Bool", "complex64": "ComplexFloat",
             "complex128": "ComplexDouble"}
    return f"fg.{names.get(self.dtype.name, self.dtype.name)}Tensor"


def is_floating_point(self: Tensor) -> bool:
    """Whether the dtype is a floating one.

    >>> import funcgrad as fg
    >>> fg.tensor([1]).is_floating_point()
    False
    """
    return self.dtype.kind == "f"


def equal(self: Tensor, other: Any) -> bool:
    """True if ``other`` has the same shape and elements.

    >>> import funcgrad as fg
    >>> fg.tensor([1.0]).equal(fg.tensor([1.0]))
    True
    """
    a, b = self.detach().numpy(), np.asarray(other.detach() if isinstance(other, Tensor)
                                             else other)
    return a.shape == b.shape and bool(np.array_equal(a, b))


def allclose(self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """True if ``|self - other| <= atol + rtol * |other|`` everywhere (broadcasting);
    both must be Tensors of the same dtype, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, 2.0]).allclose(fg.tensor([1.0, 2.000001]))
    True
    """
    if not isinstance(other, Tensor):
        raise TypeError(f"allclose(): argument 'other' (position 2) must be Tensor, not "
                        f"{other.__class__.__name__}; wrap it: fg.tensor(other)")
    if self.dtype != other.dtype:
        raise RuntimeError(f"{self.type()[3:-6]} did not match {other.type()[3:-6]}: "
                           f"allclose compares Tensors of one dtype; cast one with .to()")
    return bool(np.allclose(self.detach().numpy(), other.detach().numpy(), rtol=rtol,
                            atol=atol, equal_nan=equal_nan))


_METHODS = [exp, log, sin, cos, tanh, sigmoid, relu, abs, sqrt, pow, clamp, clamp_,
            sum, mean, max, min, var, std, argmax, argmin, softmax, log_softmax, matmul, mm,
            bmm, dot, mv, clone, to, type, is_floating_point, equal, allclose]
_CASTS = {"float": np.float32, "double": np.float64, "half": np.float16, "long": np.int64,
          "int": np.int32, "bool": np.bool_}


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in _METHODS:
        setattr(cls, fn.__name__, fn)
    cls.clip, cls.clip_, cls.copy = clamp, clamp_, clone
    for name, dtype in _CASTS.items():
        setattr(cls, name, _cast(dtype, name))

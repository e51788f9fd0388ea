"""PyTorch's reductions and scans beyond the core set: ``prod``, ``cumsum``,
``cumprod``, ``all`` and ``any`` with PyTorch's arguments (NumPy's methods took
``x.prod(0, True)``'s ``True`` for a dtype), ``amax``/``amin``/``aminmax``,
``logsumexp(dim)``, ``logcumsumexp``, ``nansum``/``nanmean``, ``median``/``nanmedian``,
``mode``, ``kthvalue``, ``topk``, ``cummax``/``cummin``, ``count_nonzero``,
``quantile``/``nanquantile``, ``cov`` and ``corrcoef``.

Each takes PyTorch's arguments (``dim``, ``keepdim``).  The reductions that pick an
element return PyTorch's namedtuples, ``(values, indices)``; their values are gathered
at the indices, so the gradient goes to the returned index alone, as in PyTorch, while
``amax``/``amin`` share it evenly among equal elements.  Where several elements tie,
``median``, ``kthvalue`` and ``topk`` pick the first in a stable sort, ``mode`` and
``cummax``/``cummin`` the last (PyTorch's CPU kernels; it documents no choice for the
former).

>>> import funcgrad as fg
>>> x = fg.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], requires_grad=True)
>>> x.topk(2, dim=1)
topk(values=tensor([[3., 2.],
        [5., 4.]], grad_fn=<TopkBackward0>), indices=tensor([[0, 2],
        [1, 2]]))
>>> x.median(dim=1).values.sum().backward()
>>> x.grad
tensor([[0., 0., 1.],
        [0., 0., 1.]])
"""
from collections import namedtuple
from typing import Any, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..core import ConcretizationError, Tracer, concrete
from ..numpy.constructors import stop_gradient
from .dtypes import floating
from .tensor import Tensor
from .named import Named, record_as
from .values import TensorBase, axis_index
from .scalar_dims import scalar_dims

__all__ = ["attach"]

Dim = Union[int, Sequence[int], None]

_R: dict[str, Any] = {name: namedtuple(name, fields)  # torch.return_types
      for name, fields in [("aminmax", ["min", "max"])] + [
          (n, ["values", "indices"]) for n in ("median", "nanmedian", "mode", "kthvalue",
                                               "topk", "cummax", "cummin")]}
_NODES = {name: Named(name, f"{name[0].upper()}{name[1:]}Backward0")
          for name in ("amax", "amin", "median", "nanmedian", "mode", "kthvalue", "topk",
                       "cummax", "cummin", "logcumsumexp", "logsumexp", "nansum", "quantile",
                       "nanquantile", "cov", "corrcoef")}
_NODES["nanmean"] = Named("nanmean", "DivBackward0")  # PyTorch composes it: nansum / count
_NODES["median1"] = Named("median", "MedianBackward1")  # (over a dim)
_NODES["nanmedian1"] = Named("nanmedian", "NanmedianBackward1")
_R["median1"], _R["nanmedian1"] = _R["median"], _R["nanmedian"]


def _axes(dim):
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return None
    return tuple(dim) if isinstance(dim, (tuple, list)) else int(dim)


def _plain(t):
    """The values (to pick indices from; the derivative flows through the pick)."""
    return np.asarray(t.detach()) if isinstance(t, TensorBase) else np.asarray(concrete(t))


def _values(t):
    """The values to pick indices from: NumPy's where they are known, else (under jit
    and vmap) the traced values, on which the same NumPy calls trace the pick."""
    try:
        return _plain(t)
    except ConcretizationError:
        return stop_gradient(t)


def shared_among_ties(named: Named, self: Any, value: Any) -> Any:
    """``value``, one element of all of ``self``, recorded as ``named``'s node with
    PyTorch's gradient for ``max()``, ``min()`` and ``median()`` of all elements: shared
    evenly among the elements equal to ``value`` -- among the NaNs when it is NaN (where
    ``amax`` gives NaN everywhere).

    >>> import funcgrad as fg
    >>> x = fg.tensor([1.0, float("nan"), 3.0, float("nan")], requires_grad=True)
    >>> x.max().backward(); x.grad
    tensor([0. , 0.5, 0. , 0.5])
    """
    v = np.asarray(value, dtype=self.dtype)
    if not self._requires_grad:  # (self is a Tensor: a traced value would lose its tangent)
        return Tensor(v)
    a = _plain(self)
    tie = np.isnan(a) if np.isnan(v) else a == v
    count, zero = int(tie.sum()), np.zeros((), self.dtype)

    def share(t):
        if not np.isfinite(v):  # the sum of equal infinities (or NaNs) over their count
            return fnp.sum(fnp.where(tie, t, zero)) / count
        # x - v is exactly +0 at the ties, so the value is v's very bits; v - (+0) keeps
        # a -0.0 (at the price of -0.0 for the gradient of the other elements)
        if v == 0:
            return v - fnp.sum(fnp.where(tie, v - t, zero)) / count
        return v + fnp.sum(fnp.where(tie, t - v, zero)) / count
    return record_as(named, share, self)


def _shared_traced(flat, value):
    """:func:`shared_among_ties` for a traced ``flat`` (and ``value``, one of its
    elements): the ties, and so the shares, are traced too."""
    v = stop_gradient(value)
    tie = fnp.where(fnp.isnan(v), fnp.isnan(flat), flat == v)
    count = fnp.astype(fnp.sum(tie), flat.dtype)
    zero = np.zeros((), flat.dtype)
    # as shared_among_ties: v plus the ties' zero differences keeps v's bits; a sum over
    # the ties where v is not finite (inf - inf would be NaN)
    finite = v + fnp.sum(fnp.where(tie, flat - v, zero)) / count
    other = fnp.sum(fnp.where(tie, flat, zero)) / count
    return fnp.where(fnp.isfinite(v), finite, other)


@scalar_dims
def amax(self: Any, dim: Dim = (), keepdim: bool = False) -> Any:
    """The largest elements over ``dim`` (all by default); ties share the gradient."""
    return record_as(_NODES["amax"], fnp.amax, self, axis=_axes(dim), keepdims=keepdim)


@scalar_dims
def amin(self: Any, dim: Dim = (), keepdim: bool = False) -> Any:
    """The smallest elements over ``dim`` (all by default); ties share the gradient."""
    return record_as(_NODES["amin"], fnp.amin, self, axis=_axes(dim), keepdims=keepdim)


@scalar_dims
def aminmax(self: Any, *, dim: int | None = None, keepdim: bool = False) -> Any:
    """``(min, max)`` over ``dim`` (all elements by default)."""
    return _R["aminmax"](amin(self, () if dim is None else dim, keepdim),
                         amax(self, () if dim is None else dim, keepdim))


@scalar_dims
def logsumexp(self: Any, dim: Dim, keepdim: bool = False) -> Any:
    """``log(sum(exp(self), dim))``, computed stably."""
    return record_as(_NODES["logsumexp"], fnp.logsumexp, floating(self), axis=_axes(dim),
                     keepdims=keepdim)


@scalar_dims
def logcumsumexp(self: Any, dim: int) -> Any:
    """``log(cumsum(exp(self), dim))``, computed stably."""
    return record_as(_NODES["logcumsumexp"], _logcumsumexp, floating(self),
                     dim=axis_index(dim, max(self.ndim, 1)))


def _logcumsumexp(t, dim):
    # Hillis-Steele doubling: log2(n) exact logaddexp steps, no shared shift that could
    # underflow the early terms
    if t.ndim == 0:
        return t
    n, out, k = t.shape[dim], t, 1
    while k < n:
        head = fnp.take(out, np.arange(k), axis=dim)
        tail = fnp.logaddexp(fnp.take(out, np.arange(k, n), axis=dim),
                             fnp.take(out, np.arange(n - k), axis=dim))
        out, k = fnp.concatenate([head, tail], axis=dim), 2 * k
    return out


@scalar_dims
def nansum(self: Any, dim: Dim = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """The sum over ``dim`` with NaN counted as 0."""
    return record_as(_NODES["nansum"], fnp.nansum, self, axis=_axes(dim), keepdims=keepdim,
                     dtype=dtype)


@scalar_dims
def nanmean(self: Any, dim: Dim = None, keepdim: bool = False, *, dtype: Any = None) -> Any:
    """The mean over ``dim`` of the elements that are not NaN."""
    if self.dtype.kind not in "fc" and dtype is None:
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex "
                           f"dtype but got {self.type()[3:]}")
    return record_as(_NODES["nanmean"], fnp.nanmean, self, axis=_axes(dim), keepdims=keepdim,
                     dtype=dtype)


def _dim_or_axis(name, dim, axis):
    if dim is not None and axis is not None:
        raise TypeError(f"{name}() got both dim={dim!r} and axis={axis!r}; pass one (dim is "
                        f"PyTorch's name, axis NumPy's)")
    return _axes(axis if dim is None else dim)


@scalar_dims
def prod(self: Any, dim: Dim = None, keepdim: bool = False, dtype: Any = None, *,
         axis: Dim = None, keepdims: bool = False) -> Any:
    """The product over ``dim`` (all elements by default), PyTorch's arguments; NumPy's
    ``axis=``/``keepdims=`` are accepted too.

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 2.0], [3.0, 4.0]]).prod(1, True)
    tensor([[ 2.],
            [12.]])
    """
    return fnp.prod(self, axis=_dim_or_axis("prod", dim, axis), dtype=dtype,
                    keepdims=bool(keepdim or keepdims))


@scalar_dims
def cumsum(self: Any, dim: int | None = None, *, dtype: Any = None, axis: int | None = None
           ) -> Any:
    """The running sum along ``dim`` (NumPy's ``axis=`` too; neither: of the flattened
    Tensor, as NumPy).

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 2.0], [3.0, 4.0]]).cumsum(dim=0)
    tensor([[1., 2.],
            [4., 6.]])
    """
    return fnp.cumsum(self, axis=_dim_or_axis("cumsum", dim, axis), dtype=dtype)


@scalar_dims
def cumprod(self: Any, dim: int | None = None, *, dtype: Any = None, axis: int | None = None
            ) -> Any:
    """The running product along ``dim`` (NumPy's ``axis=`` too; neither: of the
    flattened Tensor, as NumPy).

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 2.0], [3.0, 4.0]]).cumprod(dim=1)
    tensor([[ 1.,  2.],
            [ 3., 12.]])
    """
    return fnp.cumprod(self, axis=_dim_or_axis("cumprod", dim, axis), dtype=dtype)


@scalar_dims
def all(self: Any, dim: Dim = None, keepdim: bool = False, *,  # noqa: A001
        axis: Dim = None, keepdims: bool = False) -> Any:
    """Whether all elements over ``dim`` are nonzero (a bool Tensor).

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 0.0], [3.0, 4.0]]).all(dim=1)
    tensor([False,  True])
    """
    return fnp.all(self, axis=_dim_or_axis("all", dim, axis), keepdims=bool(keepdim or keepdims))


@scalar_dims
def any(self: Any, dim: Dim = None, keepdim: bool = False, *,  # noqa: A001
        axis: Dim = None, keepdims: bool = False) -> Any:
    """Whether any element over ``dim`` is nonzero (a bool Tensor).

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 0.0], [0.0, 0.0]]).any(1, keepdim=True)
    tensor([[ True],
            [False]])
    """
    return fnp.any(self, axis=_dim_or_axis("any", dim, axis), keepdims=bool(keepdim or keepdims))


@scalar_dims
def count_nonzero(self: Any, dim: Dim = None) -> Any:
    """The number of nonzero elements over ``dim`` (an int64 Tensor).

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 0.0], [2.0, 3.0]]).count_nonzero(1)
    tensor([1, 2])
    """
    return fnp.astype(fnp.count_nonzero(self.detach(), axis=_axes(dim)), np.int64)


def _gathered(name, self, indices, dim, keepdim):
    """The elements of ``self`` at ``indices`` (kept dims) along ``dim``, as PyTorch's
    namedtuple ``name``, the gradient going to those indices alone."""
    traced = isinstance(indices, Tracer)
    indices = fnp.astype(indices, np.int64) if traced else np.asarray(indices, np.int64)

    def pick(t):
        picked = fnp.take_along_axis(t, indices, axis=dim)
        return picked if keepdim else fnp.squeeze(picked, axis=dim)
    values = record_as(_NODES[name], pick, self)
    kept = indices if keepdim else fnp.squeeze(indices, axis=dim)
    return _R[name](values, kept if traced else Tensor(kept))


def _order(a, dim):
    """The stable ascending order along ``dim`` (NaN last)."""
    return np.argsort(a, axis=dim, kind="stable")


def _pick(name, self, dim, keepdim, rank):
    """``name``'s values and indices: element ``rank(count)`` of the stable sort along
    ``dim`` (count: the number of elements that are not NaN; a NaN row picks its first
    NaN for median, a row of NaN its first for nanmedian)."""
    if self.ndim == 0:
        return _gathered(name, self.reshape(1), np.zeros(1, np.int64), 0, False)
    dim = axis_index(dim, self.ndim)
    a = _values(self)
    if a.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")
    order = _order(a, dim)
    nans = np.isnan(a).sum(axis=dim, keepdims=True) if a.dtype.kind == "f" else \
        np.zeros_like(order[(slice(None),) * dim + (slice(0, 1),)])
    k = rank(a.shape[dim] - nans, nans)
    return _gathered(name, self, np.take_along_axis(order, k, axis=dim), dim, keepdim)


@scalar_dims
def median(self: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """The lower median (of all elements: a 0-d Tensor, whose gradient equal elements
    share; over ``dim``: ``(values, indices)``); NaN if there is a NaN."""
    def rank(count, nans):
        return np.where(nans > 0, count, np.maximum(count - 1, 0) // 2)
    if dim is None:
        if not isinstance(self, Tensor):  # (a traced value, or a dual one)
            flat = fnp.ravel(self)
            return _shared_traced(flat, _pick("median", flat, 0, False, rank).values)
        value = _pick("median", fnp.ravel(_plain(self)), 0, False, rank).values
        return shared_among_ties(_NODES["median"], self, value)
    return _pick("median1", self, dim, keepdim, rank)


@scalar_dims
def nanmedian(self: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """As :meth:`median`, leaving out NaN (NaN only where all are NaN)."""
    def rank(count, nans):
        return np.maximum(count - 1, 0) // 2 + 0 * nans
    if dim is None:
        if not isinstance(self, Tensor):  # (a traced value, or a dual one)
            flat = fnp.ravel(self)
            return _shared_traced(flat, _pick("nanmedian", flat, 0, False, rank).values)
        value = _pick("nanmedian", fnp.ravel(_plain(self)), 0, False, rank).values
        return shared_among_ties(_NODES["nanmedian"], self, value)
    return _pick("nanmedian1", self, dim, keepdim, rank)


@scalar_dims
def kthvalue(self: Any, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    """``(values, indices)`` of the ``k``-th smallest elements (from 1) along ``dim``."""
    n = self.shape[axis_index(dim, self.ndim)] if self.ndim else 1
    if not 1 <= k <= n:
        raise IndexError(f"kthvalue(): selected number k out of range for dimension {dim}")
    return _pick("kthvalue", self, dim, keepdim, lambda count, nans: np.full_like(nans, k - 1))


@scalar_dims
def mode(self: Any, dim: int = -1, keepdim: bool = False) -> Any:
    """``(values, indices)``: the most frequent element along ``dim`` (the smallest of
    equally frequent ones) and the index of its last occurrence."""
    if self.ndim == 0:
        return _gathered("mode", self.reshape(1), np.zeros(1, np.int64), 0, False)
    dim = axis_index(dim, self.ndim)
    a = np.moveaxis(_values(self), dim, -1)
    n = a.shape[-1]
    order = np.argsort(a, axis=-1, kind="stable")
    s = np.take_along_axis(a, order, axis=-1)
    new_run = np.concatenate([np.ones(s.shape[:-1] + (1,), bool), s[..., 1:] != s[..., :-1]],
                             axis=-1)
    start = np.maximum.accumulate(np.where(new_run, np.arange(n), 0), axis=-1)
    length = np.arange(n) - start + 1  # the run's length so far: largest at its end
    best = np.argmax(length, axis=-1)[..., None]  # the first (smallest) longest run's end
    first = np.take_along_axis(start, best, axis=-1)
    in_run = (np.arange(n) >= first) & (np.arange(n) <= best)
    last = np.max(np.where(in_run, order, -1), axis=-1, keepdims=True)
    return _gathered("mode", self, np.moveaxis(last, -1, dim), dim, keepdim)


def topk(self: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    """``(values, indices)`` of the ``k`` largest (``largest=False``: smallest) elements
    along ``dim``, in order.  Of a 0-d Tensor (dim 0 or -1), PyTorch's: its one element,
    0-d, for ``k`` of 1 and of 0 alike."""
    if self.ndim == 0:
        axis_index(dim, 0)
        if k not in (0, 1):
            raise RuntimeError("selected index k out of range")
        return _gathered("topk", self.reshape(1), np.zeros(1, np.int64), 0, False)
    dim = axis_index(dim, self.ndim)
    a = _values(self)
    if not 0 <= k <= a.shape[dim]:
        raise RuntimeError("selected index k out of range")
    if largest:  # descending, NaN first, ties in their order: ascending on the reversal
        n = a.shape[dim]
        order = np.flip(n - 1 - _order(np.flip(a, axis=dim), dim), axis=dim)
    else:
        order = _order(a, dim)
    picked = np.take(order, np.arange(k), axis=dim)
    return _gathered("topk", self, picked, dim, True)


def _running(name, better, self, dim):
    if self.ndim == 0:
        return _gathered(name, self.reshape(1), np.zeros(1, np.int64), 0, False)
    dim = axis_index(dim, self.ndim)
    a = _values(self)
    best = better.accumulate(a, axis=dim) if a.size else a
    shape = [1] * a.ndim
    shape[dim] = a.shape[dim]
    hit = (a == best) | (np.isnan(a) if a.dtype.kind == "f" else False)
    index = np.where(hit, np.arange(a.shape[dim]).reshape(shape), 0)
    index = np.maximum.accumulate(index, axis=dim) if a.size else index.astype(np.int64)
    return _gathered(name, self, index, dim, True)


@scalar_dims
def cummax(self: Any, dim: int) -> Any:
    """``(values, indices)``: the running maximum along ``dim`` and where it was last
    reached."""
    return _running("cummax", np.maximum, self, dim)


@scalar_dims
def cummin(self: Any, dim: int) -> Any:
    """``(values, indices)``: the running minimum along ``dim`` and where it was last
    reached."""
    return _running("cummin", np.minimum, self, dim)


@scalar_dims
def quantile(self: Any, q: Any, dim: int | None = None, keepdim: bool = False, *,
             interpolation: str = "linear") -> Any:
    """The ``q``-quantiles over ``dim`` (all elements by default); NaN if there is a NaN."""
    return _quantile("quantile", fnp.quantile, self, q, dim, keepdim, interpolation)


@scalar_dims
def nanquantile(self: Any, q: Any, dim: int | None = None, keepdim: bool = False, *,
                interpolation: str = "linear") -> Any:
    """As :meth:`quantile`, leaving out NaN."""
    return _quantile("nanquantile", fnp.nanquantile, self, q, dim, keepdim, interpolation)


def _quantile(name, fn, self, q, dim, keepdim, interpolation):
    if self.dtype.kind != "f":
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    q = _plain(q).astype(self.dtype) if not isinstance(q, float) else q
    if np.any((np.asarray(q) < 0) | (np.asarray(q) > 1)):
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    if dim is None:
        out = record_as(_NODES[name], fn, fnp.ravel(self), q, method=interpolation)
        if keepdim:
            out = fnp.reshape(out, np.shape(q) + (1,) * self.ndim)
    else:
        out = record_as(_NODES[name], fn, self, q, axis=dim, keepdims=keepdim,
                        method=interpolation)
    return fnp.astype(out, self.dtype)


def cov(self: Any, *, correction: int = 1, fweights: Any = None, aweights: Any = None) -> Any:
    """The covariance matrix of the rows (variables) over the columns (observations)."""
    if self.ndim > 2:
        raise ValueError(f"cov(): expected input to have two or fewer dimensions but got an "
                         f"input with {self.ndim} dimensions")
    return record_as(_NODES["cov"], _cov, floating(self), fweights, aweights,
                     correction=correction)


def _cov(x, fweights, aweights, correction):
    x = fnp.reshape(x, (1, -1)) if x.ndim < 2 else x
    w = None
    for weights in (fweights, aweights):
        if weights is not None:
            w = weights if w is None else w * weights
    if w is None:
        n = x.shape[1]
        mean = fnp.mean(x, axis=1, keepdims=True)
        norm = n - correction
        xm = x - mean
        c = fnp.matmul(xm, fnp.conj(xm).T) / max(norm, 0)
    else:
        w = fnp.astype(w, x.dtype)
        w_sum = fnp.sum(w)
        mean = fnp.sum(x * w, axis=1, keepdims=True) / w_sum
        norm = w_sum - (correction if aweights is None else
                        correction * fnp.sum(w * aweights) / w_sum)
        xm = x - mean
        c = fnp.matmul(xm * w, fnp.conj(xm).T) / fnp.maximum(norm, 0)
    return fnp.squeeze(c) if c.shape == (1, 1) else c


def corrcoef(self: Any) -> Any:
    """The Pearson correlation coefficients of the rows (clipped to [-1, 1])."""
    return record_as(_NODES["corrcoef"], _corrcoef, floating(self))


def _corrcoef(x):
    c = _cov(x, None, None, 1)
    if c.ndim == 0:
        return c / c
    d = fnp.sqrt(fnp.diagonal(c))
    c = c / d[:, None] / d[None, :]
    return fnp.clip(c, -1, 1) if c.dtype.kind != "c" else c


_METHODS = [prod, cumsum, cumprod, all, any, amax, amin, aminmax, logsumexp, logcumsumexp, nansum, nanmean, count_nonzero,
            median, nanmedian, kthvalue, mode, topk, cummax, cummin, quantile, nanquantile,
            cov, corrcoef]


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in _METHODS:
        setattr(cls, fn.__name__, fn)

"""PyTorch's Tensor methods that pick, place or rearrange elements: ``gather``,
``scatter``/``scatter_add``/``scatter_reduce``, ``index_select``, ``index_add``/
``index_fill``/``index_copy``/``index_put``, ``masked_select``/``masked_scatter``,
``take_along_dim``, ``diagflat``, ``fill_diagonal_``, ``flip``, ``roll``,
``rot90``, ``tril``/``triu``, ``diag``, ``diag_embed``, ``diagonal``, ``nonzero`` (PyTorch's
one row per element; NumPy's tuple with ``as_tuple=True``), ``argwhere`` and ``unique``.

Index arguments are int64 Tensors, as in PyTorch.  Placing is done with funcgrad's
``.at[...]`` updates, so the gradient of ``self`` is zero where a value was overwritten
and the gradient of ``src`` is gathered from where it went; ``scatter_reduce``'s
``amax``/``amin`` share the gradient among the equal candidates (``self`` included when
``include_self``), as PyTorch does.

>>> import funcgrad as fg
>>> x = fg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
>>> i = fg.tensor([[1, 1], [0, 1]])
>>> y = x.gather(1, i)
>>> y
tensor([[2., 2.],
        [3., 4.]], grad_fn=<GatherBackward0>)
>>> y.sum().backward()
>>> x.grad
tensor([[0., 2.],
        [1., 1.]])
>>> fg.zeros(3).index_add(0, fg.tensor([0, 0, 2]), fg.tensor([1.0, 2.0, 3.0]))
tensor([3., 0., 3.])
"""
from typing import Any, Sequence

import numpy as np

from ..kernels import cpu
from ..kernels._broadcast import broadcast_shapes
from .. import numpy as fnp
from ..core import Tracer
from ..errors import IndexOutOfBoundsError
from .tensor import Tensor
from .indices import along as _along, fitted as _fitted, in_bounds as _in_bounds
from .indices import checked, index_values as _index, is_traced, positions as _positions
from .indices import index_dims, refuse_value_shaped, scatter_dims
from .named import Named, record_as
from .pointwise import NotDifferentiable, constant
from .scalar_dims import no_dims
from .values import TensorBase, axis_index

__all__ = ["attach"]

_NODES = {name: Named(name, f"{node}Backward0") for name, node in [
    ("gather", "Gather"), ("scatter", "Scatter"), ("scatter_add", "ScatterAdd"),
    ("scatter_reduce", "ScatterReduce"), ("index_select", "IndexSelect"),
    ("index_add", "IndexAdd"), ("index_fill", "IndexFill"), ("index_copy", "IndexCopy"),
    ("masked_select", "MaskedSelect"), ("take_along_dim", "TakeAlongDim"), ("flip", "Flip"),
    ("roll", "Roll"), ("rot90", "Rot90"), ("tril", "Tril"), ("triu", "Triu"),
    ("diag", "Diagonal"), ("diag_embed", "DiagEmbed"), ("index_put", "IndexPut"),
    ("masked_scatter", "MaskedScatter")]}
_NODES["scatter1"] = Named("scatter", "ScatterBackward1")  # (a number scattered)
_NODES["take_along_dim"] = Named("take_along_dim", "GatherBackward0")
_UNIQUE = NotDifferentiable("unique", "NotImplemented")


def gather(self: Any, dim: int, index: Any, *, sparse_grad: bool = False) -> Any:
    """The elements at ``index`` along ``dim``: ``out[i][j] = self[i][index[i][j]]``."""
    if not self.ndim:  # (PyTorch: a 0-d or 1-d index of 0s, the one element repeated)
        axis_index(dim, 0)
        index = _index(index, "gather")
        if index.ndim > 1 and index.size:
            raise RuntimeError("Index tensor must have the same number of dimensions as "
                               "input tensor")
        _in_bounds(index, 0, 1)
        return record_as(_NODES["gather"], lambda t: fnp.reshape(t, (1,))[index], self)
    pos, index = _positions(self, dim, index, "gather")
    return record_as(_NODES["gather"], lambda t: t[pos] if pos else t, self)


@scatter_dims
def scatter(self: Any, dim: int, index: Any, src: Any = None, value: Any = None, *,
            reduce: str | None = None) -> Any:
    """A copy with ``src`` (or the number ``value``) written at ``index`` along ``dim``;
    ``reduce='add'`` or ``'multiply'`` combines instead."""
    if src is None:
        src = value
    if not isinstance(src, (TensorBase, Tracer)):
        src = np.asarray(src, self.dtype)
    pos, index = _positions(self, dim, index, "scatter")
    how = {None: "set", "add": "add", "multiply": "multiply"}.get(reduce)
    if how is None:
        raise RuntimeError(f"reduce argument must be either add or multiply, got {reduce}")

    def compute(t, s):
        s = _fitted(s, index)
        return _multiply(t, pos, s) if how == "multiply" else getattr(t.at[pos], how)(s)
    named = _NODES["scatter" if isinstance(src, (TensorBase, Tracer)) else "scatter1"]
    return record_as(named, compute, self, src)


@scatter_dims
def scatter_add(self: Any, dim: int, index: Any, src: Any) -> Any:
    """A copy with ``src`` added at ``index`` along ``dim`` (repeated indices add up)."""
    pos, index = _positions(self, dim, index, "scatter_add")
    return record_as(_NODES["scatter_add"], lambda t, s: t.at[pos].add(_fitted(s, index)),
                     self, src)


_REDUCE = {"sum": ("add", 0), "prod": ("multiply", 1), "mean": ("add", 0),
           "amax": ("max", -np.inf), "amin": ("min", np.inf)}


@scatter_dims
def scatter_reduce(self: Any, dim: int, index: Any, src: Any, reduce: str, *,
                   include_self: bool = True) -> Any:
    """A copy with ``src`` reduced into it at ``index`` along ``dim`` by ``reduce``
    (``'sum'``, ``'prod'``, ``'mean'``, ``'amax'``, ``'amin'``); ``include_self=False``
    leaves out the values there before."""
    if reduce not in _REDUCE:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    pos, index = _positions(self, dim, index, "scatter_reduce")
    how, start = _REDUCE[reduce]
    if self.dtype.kind in "iu" and reduce in ("amax", "amin"):
        info = np.iinfo(self.dtype)
        start = info.min if reduce == "amax" else info.max

    def compute(t, s):
        s = _fitted(s, index)
        base = t if include_self else t.at[pos].set(np.asarray(start, t.dtype))
        out = _multiply(base, pos, s) if how == "multiply" else getattr(base.at[pos], how)(s)
        if reduce != "mean":
            return out
        count = np.full(t.shape, 1 if include_self else 0, t.dtype)
        if any(isinstance(p, Tracer) for p in pos):
            count = fnp.maximum(fnp.at(count)[pos].add(np.ones((), t.dtype)), 1)
        else:
            cpu.ufunc_at(np.add, count, pos, 1)
            count = np.maximum(count, 1)
        return fnp.floor_divide(out, count) if t.dtype.kind in "iu" else out / count
    return record_as(_NODES["scatter_reduce"], compute, self, src)


def _multiply(t, pos, s):
    """``t.at[pos].multiply(s)`` in rounds of distinct positions (where the derivative of
    one multiply is defined): round ``r`` takes each position's ``r``-th update.  Traced
    positions have no known rounds: one multiply, whose derivative raises, saying why."""
    if any(isinstance(p, Tracer) for p in pos):
        return t.at[pos].multiply(s)
    pos = np.broadcast_arrays(*pos)
    flat = np.ravel_multi_index(pos, t.shape).ravel()
    order = np.argsort(flat, kind="stable")
    sorted_flat = flat[order]
    first = np.searchsorted(sorted_flat, sorted_flat)  # where each target's run starts
    rank = np.empty_like(flat)
    rank[order] = np.arange(flat.size) - first
    rank = rank.reshape(pos[0].shape)
    s = fnp.broadcast_to(s, rank.shape)
    for r in range(int(rank.max()) + 1 if rank.size else 0):
        chosen = rank == r
        t = t.at[tuple(p[chosen] for p in pos)].multiply(s[chosen])
    return t


def index_select(self: Any, dim: int, index: Any) -> Any:
    """The slices ``index`` (a 1-D Tensor) along ``dim`` (of a 0-d Tensor, its one element
    for an index of one 0, 0-d as PyTorch's)."""
    axis = axis_index(dim, self.ndim)
    index = _index(index, "index_select")
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if not self.ndim:
        if index.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{index.size} value(s)")
        if index.reshape(()) != 0:
            raise IndexOutOfBoundsError(f"index out of range in self: index "
                                        f"{index.reshape(())} of a 0-d tensor (only 0 is in "
                                        f"range)")
        return record_as(_NODES["index_select"], fnp.take, self, index.reshape(()))
    index = _in_bounds(index.reshape(-1), axis, self.shape[axis])
    return record_as(_NODES["index_select"], fnp.take, self, index, axis=axis)


@index_dims
def index_add(self: Any, dim: int, index: Any, source: Any, *, alpha: Any = 1) -> Any:
    """A copy with ``alpha * source`` added to the slices ``index`` along ``dim``."""
    key = _along(self, dim, index, "index_add")
    return record_as(_NODES["index_add"],
                     lambda t, s: t.at[key].add(s if alpha == 1 else s * alpha), self, source)


@index_dims
def index_fill(self: Any, dim: int, index: Any, value: Any) -> Any:
    """A copy with the slices ``index`` along ``dim`` set to ``value``."""
    key = _along(self, dim, index, "index_fill", wrap=True)
    if not isinstance(value, TensorBase):
        value = np.asarray(value, self.dtype)
    return record_as(_NODES["index_fill"], lambda t, v: t.at[key].set(v), self, value)


@index_dims
def index_copy(self: Any, dim: int, index: Any, source: Any) -> Any:
    """A copy with the slices ``index`` along ``dim`` replaced by ``source``'s."""
    key = _along(self, dim, index, "index_copy")
    return record_as(_NODES["index_copy"], lambda t, s: t.at[key].set(s), self, source)


def masked_select(self: Any, mask: Any) -> Any:
    """The elements where ``mask`` (broadcast with this Tensor) is True, as a 1-D Tensor."""
    refuse_value_shaped("masked_select", "Keep the shape: t.where(mask, 0) (or a sum "
                        "(t * mask).sum()), or select outside the transform.", mask)
    m = np.asarray(mask)
    if m.dtype != bool:
        raise RuntimeError(f"masked_select: expected BoolTensor for mask, got {m.dtype}")
    shape = broadcast_shapes(self.shape, m.shape)
    m = np.broadcast_to(m, shape)
    return record_as(_NODES["masked_select"], lambda t: fnp.broadcast_to(t, shape)[m], self)


def index_put(self: Any, indices: Sequence[Any], values: Any, accumulate: bool = False) -> Any:
    """A copy with ``values`` put at ``self[indices]`` (a tuple of index or mask Tensors);
    with ``accumulate=True`` added into what is there, repeated indices adding up.

    >>> import funcgrad as fg
    >>> fg.zeros(3).index_put((fg.tensor([0, 0, 2]),), fg.tensor(1.0), accumulate=True)
    tensor([2., 0., 1.])
    """
    key = tuple(i if isinstance(i, Tracer) else
                np.asarray(i._storage.value if isinstance(i, TensorBase) else i)
                for i in indices)
    if len(key) == 1 and is_traced(key[0]) and key[0].dtype == bool and np.size(values) == 1:
        # a traced mask picks a number of elements known only with the values; one value
        # put (or added) at each is a where(), of the shape of self
        mask: Any = key[0]
        mask = fnp.reshape(mask, tuple(mask.shape) + (1,) * (self.ndim - mask.ndim))
        one = fnp.reshape(values, ()) if hasattr(values, "shape") else values
        if accumulate:
            return self + fnp.where(mask, one, np.zeros((), self.dtype))
        return fnp.where(mask, one, self)
    if accumulate:
        return record_as(_NODES["index_put"], lambda t, v: t.at[key].add(v), self, values)
    return record_as(_NODES["index_put"], lambda t, v: t.at[key].set(v), self, values)


def masked_scatter(self: Any, mask: Any, source: Any) -> Any:
    """A copy with the elements where ``mask`` is True replaced, in order, by the first
    elements of ``source``.

    >>> import funcgrad as fg
    >>> fg.zeros(4).masked_scatter(fg.tensor([True, False, True, False]),
    ...                            fg.tensor([1.0, 2.0, 3.0]))
    tensor([1., 0., 2., 0.])
    """
    if is_traced(mask):
        return _masked_scatter_traced(self, mask, source)
    m = np.asarray(mask)
    if m.dtype != bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {m.dtype}")
    positions = np.flatnonzero(np.broadcast_to(m, self.shape))
    if int(np.prod(np.shape(source))) < positions.size:
        raise RuntimeError(f"masked_scatter: expected source to have at least "
                           f"{positions.size} elements (the True elements of mask), got "
                           f"{int(np.prod(np.shape(source)))}")

    def compute(t, s):
        flat = fnp.ravel(t).at[positions].set(fnp.ravel(s)[:positions.size])
        return fnp.reshape(flat, t.shape)
    return record_as(_NODES["masked_scatter"], compute, self, source)


def _masked_scatter_traced(self, mask, source):
    """:meth:`masked_scatter` with a traced ``mask``: the ``k``-th True element takes
    ``source``'s ``k``-th element (``k`` counted by a running sum); a mask with more True
    elements than ``source`` has raises when the values are known."""
    if mask.dtype != bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {mask.dtype}")
    size = int(np.prod(np.shape(source)))

    def refuse(count):
        if (count > size).any():
            raise RuntimeError(f"masked_scatter: expected source to have at least "
                               f"{int(count.max())} elements (the True elements of mask), "
                               f"got {size}")
    m = fnp.ravel(fnp.broadcast_to(mask, self.shape))
    k = fnp.cumsum(fnp.astype(m, np.int64)) - 1
    k = fnp.clip(k, 0, max(size - 1, 0)) + 0 * checked(fnp.sum(fnp.astype(m, np.int64)), refuse)

    def compute(t, s):
        picked = fnp.take(fnp.ravel(s), k) if size else fnp.zeros_like(fnp.ravel(t))
        return fnp.reshape(fnp.where(m, picked, fnp.ravel(t)), t.shape)
    return record_as(_NODES["masked_scatter"], compute, self, source)


def diagflat(self: Any, offset: int = 0) -> Any:
    """The flattened Tensor as the ``offset``-th diagonal of a square matrix.

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 2.0]]).diagflat()
    tensor([[1., 0.],
            [0., 2.]])
    """
    return fnp.diag(fnp.ravel(self), k=offset)


def fill_diagonal_(self: Any, fill_value: Any, wrap: bool = False) -> Any:
    """Set the main diagonal (of a matrix, or of a Tensor with all sizes equal) to
    ``fill_value``, in place; ``wrap=True`` starts again below a tall matrix's square.

    >>> import funcgrad as fg
    >>> fg.zeros(2, 3).fill_diagonal_(5.0)
    tensor([[5., 0., 0.],
            [0., 5., 0.]])
    """
    if self.ndim < 2 or (self.ndim > 2 and len(set(self.shape)) != 1):
        raise RuntimeError("fill_diagonal_: dimensions must be larger than 1 and, beyond 2, "
                           f"all of equal length; got shape {list(self.shape)}")
    on = np.zeros(self.shape, bool)
    np.fill_diagonal(on, True, wrap=wrap)
    value = fill_value if isinstance(fill_value, TensorBase) else np.asarray(fill_value,
                                                                               self.dtype)
    return self._inplace(lambda s: fnp.where(on, value, s))


def take_along_dim(self: Any, indices: Any, dim: int | None = None) -> Any:
    """The elements at ``indices`` along ``dim`` (of the flattened Tensor without it)."""
    index = _index(indices, "take_along_dim")
    if dim is None:
        return record_as(_NODES["take_along_dim"],
                         lambda t: fnp.take_along_axis(fnp.ravel(t), index.ravel(), axis=0),
                         self)
    if not self.ndim:  # (PyTorch: no dim of a 0-d Tensor to take along)
        dim = axis_index(dim, 0)
        if index.ndim:
            raise RuntimeError(f"torch.take_along_dim(): input and indices should have the "
                               f"same number of dimensions, but got 0 dimensions for input, "
                               f"and {index.ndim} dimensions for indices")
        raise no_dims(dim)
    return record_as(_NODES["take_along_dim"], fnp.take_along_axis, self, index, axis=dim)


def _dims(dims):
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        return tuple(dims[0])
    return tuple(dims)


def flip(self: Any, *dims: int | Sequence[int]) -> Any:
    """The elements in reverse order along ``dims`` (a copy of a 0-d Tensor, whose dims 0
    and -1 name its one element, as PyTorch)."""
    axes = [axis_index(d, self.ndim) for d in _dims(dims)]
    twice = next((d for i, d in enumerate(axes) if d in axes[:i]), None)
    if twice is not None:
        raise RuntimeError(f"dim {twice} appears multiple times in the list of dims")
    return record_as(_NODES["flip"], fnp.flip, self, axis=tuple(axes) if self.ndim else ())


def fliplr(self: Any) -> Any:
    """The columns (axis 1) in reverse order."""
    if self.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(self, 1)


def flipud(self: Any) -> Any:
    """The rows (axis 0) in reverse order."""
    if self.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(self, 0)


def roll(self: Any, shifts: int | Sequence[int], dims: int | Sequence[int] | None = None
         ) -> Any:
    """The elements shifted by ``shifts`` along ``dims`` (wrapping around; without
    ``dims``, of the flattened Tensor)."""
    shifts = tuple(shifts) if isinstance(shifts, (tuple, list)) else shifts
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else dims
    if not self.ndim and dims not in (None, ()):  # (PyTorch: no dim of a 0-d Tensor to roll)
        counts = [len(v) if isinstance(v, tuple) else 1 for v in (shifts, dims)]
        if counts[0] != counts[1]:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {counts[0]}, "
                               f"dims:{counts[1]}")
        raise no_dims(dims[0] if isinstance(dims, tuple) else dims)
    return record_as(_NODES["roll"], fnp.roll, self, shifts, axis=dims)


def rot90(self: Any, k: int = 1, dims: Sequence[int] = (0, 1)) -> Any:
    """Rotated by 90 degrees ``k`` times, from axis ``dims[0]`` toward ``dims[1]``."""
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    return record_as(_NODES["rot90"], fnp.rot90, self, k, axes=tuple(dims))


def _matrices(name, self):
    if self.ndim < 2:  # (NumPy's tril makes a matrix of a vector; PyTorch refuses it)
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions; for a "
                           f"vector v, {name} of its diagonal matrix is v.diag().{name}()")


def tril(self: Any, diagonal: int = 0) -> Any:
    """The lower triangle (of the last two axes), below ``diagonal``'s diagonal included."""
    _matrices("tril", self)
    return record_as(_NODES["tril"], fnp.tril, self, k=diagonal)


def triu(self: Any, diagonal: int = 0) -> Any:
    """The upper triangle (of the last two axes), above ``diagonal``'s diagonal included."""
    _matrices("triu", self)
    return record_as(_NODES["triu"], fnp.triu, self, k=diagonal)


def diag(self: Any, diagonal: int = 0) -> Any:
    """A 1-D Tensor as a diagonal matrix, or a matrix's ``diagonal``-th diagonal."""
    if self.ndim not in (1, 2):
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")
    named = _NODES["diag" if self.ndim == 2 else "diag_embed"]
    return record_as(named, fnp.diag, self, k=diagonal)


def diag_embed(self: Any, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:
    """Matrices (in axes ``dim1``, ``dim2``) with the last axis on diagonal ``offset``."""
    n = (self.shape[-1] if self.ndim else 1) + abs(offset)
    d1, d2 = axis_index(dim1, self.ndim + 1), axis_index(dim2, self.ndim + 1)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    k = np.arange(n - abs(offset))
    rows, cols = (k, k + offset) if offset >= 0 else (k - offset, k)

    def compute(t):
        out = fnp.zeros(t.shape[:-1] + (n, n), t.dtype)
        placed = fnp.at(out)[..., rows, cols].set(t)
        return fnp.moveaxis(placed, (-2, -1), (d1, d2))
    return record_as(_NODES["diag_embed"], compute, self)


def diagonal(self: Any, offset: int = 0, dim1: int = 0, dim2: int = 1, *,
             axis1: int | None = None, axis2: int | None = None) -> Any:
    """The ``offset``-th diagonal of the matrices in axes ``dim1``, ``dim2`` (NumPy's
    ``axis1``/``axis2`` too), as a last axis.

    >>> import funcgrad as fg
    >>> fg.tensor([[1.0, 2.0], [3.0, 4.0]]).diagonal(dim1=1, dim2=0)
    tensor([1., 4.])
    """
    d1 = dim1 if axis1 is None else axis1
    d2 = dim2 if axis2 is None else axis2
    return fnp.diagonal(self, offset, axis_index(d1, self.ndim), axis_index(d2, self.ndim))


def nonzero(self: Any, *, as_tuple: bool = False) -> Any:
    """The indices of the nonzero elements: PyTorch's ``(count, ndim)`` int64 Tensor, one
    row each, or with ``as_tuple=True`` one 1-D Tensor per axis (NumPy's form).

    >>> import funcgrad as fg
    >>> x = fg.tensor([[0.0, 2.0], [3.0, 0.0]])
    >>> x.nonzero()
    tensor([[0, 1],
            [1, 0]])
    >>> x.nonzero(as_tuple=True)
    (tensor([0, 1]), tensor([1, 0]))
    """
    refuse_value_shaped("nonzero", _NONZERO_FIX, self)
    a = np.asarray(self.detach())
    if as_tuple:
        return tuple(Tensor(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(a)))
    return argwhere(self)


_NONZERO_FIX = ("Give the result a fixed length: fg.numpy.nonzero(t, size=N, fill_value=...) "
                "or fg.numpy.argwhere(t, size=N) (JAX's size=), or keep the shape with the "
                "mask itself (t != 0) and where(); or call it outside the transform.")
_UNIQUE_FIX = ("Give the result a fixed length: fg.numpy.unique(t, size=N, fill_value=...) "
               "(JAX's size=), or call it outside the transform.")


def argwhere(self: Any) -> Any:
    """The indices of the nonzero elements, one row each (an int64 Tensor)."""
    refuse_value_shaped("argwhere", _NONZERO_FIX, self)
    return Tensor(np.argwhere(np.asarray(self.detach())).astype(np.int64))


def unique(self: Any, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
           return_counts: bool = False, dim: int | None = None) -> Any:
    """The distinct elements (sorted; with ``dim``, the distinct slices along it), and on
    request the inverse indices and the counts (not differentiable, as in PyTorch)."""
    refuse_value_shaped("unique", _UNIQUE_FIX, self)
    a = np.asarray(self.detach())
    values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True, axis=dim)
    inverse = inverse.reshape(a.shape if dim is None else (-1,))
    return _unique_result(self, values, inverse, counts, return_inverse, return_counts)


def unique_consecutive(self: Any, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Any:
    """The elements (or slices along ``dim``) with each run of equal ones made one."""
    refuse_value_shaped("unique_consecutive", _UNIQUE_FIX, self)
    a = np.asarray(self.detach())
    runs = a.reshape(-1) if dim is None else np.moveaxis(a, dim, 0)
    if runs.shape[0] == 0:
        new = np.zeros(0, bool)
    else:
        changed = (runs[1:] != runs[:-1]).reshape(runs.shape[0] - 1, -1).any(axis=1)
        new = np.concatenate([[True], changed])
    starts = np.flatnonzero(new)
    values = runs[starts] if dim is None else np.moveaxis(runs[starts], 0, dim)
    inverse = (np.cumsum(new) - 1).reshape(a.shape if dim is None else (-1,))
    counts = np.diff(np.append(starts, runs.shape[0]))
    return _unique_result(self, values, inverse, counts, return_inverse, return_counts)


def _unique_result(self, values, inverse, counts, return_inverse, return_counts):
    out = constant(_UNIQUE, values, self)
    if not isinstance(out, TensorBase):
        out = Tensor(out)
    extra = [Tensor(np.asarray(x, np.int64)) for x, wanted in
             ((inverse, return_inverse), (counts, return_counts)) if wanted]
    return (out, *extra) if extra else out


_METHODS = [gather, scatter, scatter_add, scatter_reduce, index_select, index_add, index_fill,
            index_copy, index_put, masked_select, masked_scatter, diagflat, fill_diagonal_,
            take_along_dim, flip, fliplr, flipud, roll, rot90, tril,
            triu, diag, diag_embed, diagonal, nonzero, argwhere, unique, unique_consecutive]


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in _METHODS:
        setattr(cls, fn.__name__, fn)

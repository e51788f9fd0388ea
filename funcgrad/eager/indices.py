"""The index arguments of the Tensor's ``gather``/``scatter``/``index_*`` methods, known
or traced.

An index Tensor is a NumPy int64 array eagerly and under ``grad``/``jvp`` (its values are
known); under ``jit`` and ``vmap`` it may be a traced value, computed from the inputs
(``t.argsort()``, ``(t > 0).long()``).  Both place and pick with funcgrad's gather and
scatter primitives, whose operands may be traced, so the output's shape never depends
on the index's values and the methods trace.  PyTorch refuses an index outside its dim,
negative ones included (NumPy would read a negative one from the end): a known index
is checked at once, a traced one where its values exist, when the compiled or batched
computation runs (a host check, :func:`funcgrad.pure_callback`, that passes the index
through), with the same error.

>>> import numpy as np, funcgrad as fg
>>> f = fg.jit(lambda t: fg.zeros(3).scatter_add(0, t.argsort(), t))
>>> f(fg.tensor([3.0, 1.0, 2.0]))
tensor([2., 3., 1.])
"""
import functools
from typing import Any, Callable, TypeVar, cast

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..core import ConcretizationError, ShapedArray, Tracer, concrete
from ..errors import IndexOutOfBoundsError
from .values import TensorBase, axis_index

__all__ = ["index_values", "in_bounds", "positions", "fitted", "along", "is_traced", "checked",
           "refuse_value_shaped", "scatter_dims", "index_dims"]

F = TypeVar("F", bound=Callable[..., Any])


def is_traced(x: Any) -> bool:
    """Is ``x`` a value whose elements are not known yet (under ``jit``) or a batch
    (under ``vmap``)?"""
    if not isinstance(x, Tracer):
        return False
    try:
        concrete(x)
    except ConcretizationError:
        return True
    return False


# The methods whose index may be int32 too in PyTorch 2.13 (index_copy, index_fill and
# take_along_dim still want int64)
_INT32_TOO = frozenset({"gather", "scatter", "scatter_add", "scatter_reduce", "index_add",
                        "index_select"})


def index_values(index: Any, what: str) -> Any:
    """``index`` as a NumPy array where its values are known, else the traced value, of
    the dtype PyTorch wants: int64 (int32 too for ``gather``, ``scatter*``, ``index_add``
    and ``index_select``)."""
    value = index if is_traced(index) else np.asarray(
        concrete(index) if isinstance(index, Tracer) else index)
    allowed = (np.int64, np.int32) if what in _INT32_TOO else (np.int64,)
    if value.dtype not in allowed:
        expected = "int32/int64" if what in _INT32_TOO else "int64"
        raise RuntimeError(f"{what}(): Expected dtype {expected} for index, got "
                           f"{value.dtype}; cast it with .long()")
    return value


def checked(value: Any, refuse: Any) -> Any:
    """``value`` (traced), passed through a host call of ``refuse`` on its elements (all
    examples' under ``vmap``) when they are known: ``refuse`` raises the error for values
    the method cannot take, which the traced computation could not raise itself."""
    def check(v):
        refuse(v)
        return v
    return pure_callback(check, ShapedArray(tuple(value.shape), value.dtype), value,
                         vmap_method="expand_dims")


def refuse_value_shaped(name: str, fix: str, *values: Any) -> None:
    """Raise, naming ``name`` and the way out, if one of ``values`` is traced: the shape of
    ``name``'s result depends on the values (``unique``, ``nonzero``, ``masked_select``),
    and a transform that traces decides every shape before the values exist."""
    if any(is_traced(v) for v in values):
        raise ConcretizationError(
            f"{name}(): the shape of its result depends on the concrete values, which jit "
            f"does not know yet and vmap holds a batch of (each example could give another "
            f"shape). {fix}")


def _refuse_outside(index, low, n, dim, what):
    bad = (index < low) | (index >= n)
    if bad.any():
        raise IndexOutOfBoundsError(f"{what}index {index[bad].flat[0]} is out of bounds for "
                                    f"dimension {dim} with size {n}")


def in_bounds(index: Any, dim: int, n: int, what: str = "", wrap: bool = False) -> Any:
    """``index`` with every element in ``0 <= i < n``, else PyTorch's error naming the first
    one outside.  Only ``index_fill`` counts a negative index from the end (``wrap``), as
    PyTorch: its gather, scatter and index_* functions refuse one, where NumPy's ``take``
    would silently read from the end.  A traced index is checked when its values exist."""
    low = -n if wrap else 0
    if isinstance(index, Tracer):
        index = checked(index, lambda i: _refuse_outside(i, low, n, dim, what))
        return fnp.where(index < 0, index + n, index) if wrap else index
    _refuse_outside(index, low, n, dim, what)
    return np.where(index < 0, index + n, index) if wrap else index


def positions(self: Any, dim: int, index: Any, what: str) -> tuple[tuple[Any, ...], Any]:
    """The full index (one array per axis) of the elements ``index`` names along ``dim``,
    the other axes counting 0.. (PyTorch's gather/scatter addressing), and the index."""
    index = index_values(index, what)
    if index.ndim != max(self.ndim, 1) and index.size:
        raise RuntimeError(f"Index tensor must have the same number of dimensions as "
                           f"{'input' if what == 'gather' else 'self'} tensor")
    if self.ndim == 0:
        return (), index.reshape(())
    dim = axis_index(dim, self.ndim)
    for d in range(self.ndim):
        if d != dim and index.shape[d] > self.shape[d]:
            raise RuntimeError(f"Size does not match at dimension {d} expected index "
                               f"{list(index.shape)} to be no larger than self "
                               f"{list(self.shape)} apart from dimension {dim}")
    index = in_bounds(index, dim, self.shape[dim])
    grids = np.ogrid[tuple(slice(0, s) for s in index.shape)]
    return tuple(index if d == dim else grids[d] for d in range(self.ndim)), index


def fitted(src: Any, index: Any) -> Any:
    """``src`` cut down to ``index``'s shape (PyTorch reads only that corner)."""
    if isinstance(src, (list, tuple)):
        src = np.asarray(src)
    if isinstance(src, (bool, int, float, complex)) or np.ndim(src) == 0:
        return src
    return src[tuple(slice(0, s) for s in index.shape)]


def along(self: Any, dim: int, index: Any, what: str, wrap: bool = False) -> tuple[Any, ...]:
    """The key of the slices ``index`` (checked, see :func:`in_bounds`) along ``dim``."""
    axis = axis_index(dim, max(self.ndim, 1))
    index = index_values(index, what)
    prefix = "index_copy_(): " if what == "index_copy" else ""
    index = in_bounds(index, axis, self.shape[axis] if self.ndim else 1, prefix, wrap)
    return (slice(None),) * axis + (index,)


def _has_dims(x):
    return isinstance(x, (TensorBase, Tracer))


def scatter_dims(method: F) -> F:
    """PyTorch's ``scatter``/``scatter_add``/``scatter_reduce`` on 0-d Tensors: a 0-d
    ``self``, ``index`` or ``src`` counts as 1-d of one element (dim 0 or -1 of a 0-d
    ``self``), and the result has ``self``'s shape; and ``src`` must cover ``index``
    (NumPy would broadcast a smaller one).

    >>> import funcgrad as fg
    >>> fg.tensor(2.0).scatter_add(0, fg.tensor([0, 0]), fg.tensor([5.0, 1.0]))
    tensor(8.)
    """
    @functools.wraps(method)
    def on_dims(self: Any, dim: int, index: Any, *args: Any, **kwargs: Any) -> Any:
        index = index_values(index, method.__name__)
        src: Any = args[0] if args else kwargs.get("src")
        index = index.reshape(1) if index.ndim == 0 else index
        if _has_dims(src):
            one_d = src.reshape(1) if src.ndim == 0 else src
            if index.ndim == one_d.ndim and any(
                    i > s for i, s in zip(index.shape, one_d.shape)):
                raise RuntimeError(
                    f"Expected index {list(index.shape)} to be no larger than self "
                    f"{list(self.shape)} apart from dimension {dim if self.ndim else 0} and "
                    f"to be no larger size than src {list(src.shape)}")
            if args:
                args = (one_d,) + args[1:]
            else:
                kwargs["src"] = one_d
        if self.ndim:
            return method(self, dim, index, *args, **kwargs)
        axis_index(dim, 0)
        return method(self.reshape(1), 0, index, *args, **kwargs).reshape(())
    return cast(F, on_dims)


def index_dims(method: F) -> F:
    """PyTorch's ``index_add``/``index_copy``/``index_fill`` on 0-d Tensors: a 0-d index
    counts as one index; of a 0-d ``self`` (dim 0 or -1), the slices are its one element,
    ``index_add`` takes a 0-d ``source`` and one index, ``index_copy`` one index for a
    0-d ``source``.

    >>> import funcgrad as fg
    >>> fg.tensor(2.0).index_add(0, fg.tensor(0), fg.tensor(5.0), alpha=3)
    tensor(17.)
    """
    what = method.__name__

    @functools.wraps(method)
    def on_dims(self: Any, dim: int, index: Any, *args: Any, **kwargs: Any) -> Any:
        index = index_values(index, what)
        if index.ndim > 1:
            raise IndexError(f"{what}_(): Index is supposed to be a vector, but got dim: "
                             f"{index.ndim}")
        index = index.reshape(-1)
        if self.ndim:
            return method(self, dim, index, *args, **kwargs)
        axis_index(dim, 0)
        source: Any = None if what == "index_fill" else (
            args[0] if args else kwargs.get("source"))
        if _has_dims(source):
            if what == "index_add" and source.ndim:
                raise RuntimeError(f"source tensor shape must match self tensor shape, "
                                   f"excluding the specified dimension. Got self.shape = [] "
                                   f"source.shape = {list(source.shape)}")
            if source.ndim == 0 and index.size != 1:
                raise IndexError(f"{what}_(): When source is scalar, index should have one "
                                 f"element (got {index.size})")
            if source.ndim == 0 and args:
                args = (source.reshape(1),) + args[1:]
            elif source.ndim == 0:
                kwargs["source"] = source.reshape(1)
        return method(self.reshape(1), 0, index, *args, **kwargs).reshape(())
    return cast(F, on_dims)

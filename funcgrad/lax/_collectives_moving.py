"""The collectives that move values between the examples of a named ``vmap`` axis (JAX's
``all_gather``, ``psum_scatter``, ``ppermute``, ``all_to_all``, ``pswapaxes``), beside :mod:`._collectives`' reductions.

``all_gather`` and ``psum_scatter`` are primitives, each other's transpose as in JAX.
Under the vmap of their axis the rules see the whole batch: gathering moves the batch
axis into each example's value (an operand the same for every example is stacked
``axis_size`` times), scattering sums the batch away and makes the scattered axis the
batch axis.  ``psum_scatter`` gives each example its own slice even of an operand the
same for all, so every vmap runs its rule (``VARYING_ALONG_AXIS``), and it never runs
outside one.  ``ppermute`` is built on ``all_gather``: row ``source(i)`` of the gathered
value for each example's :func:`~._collectives.axis_index` ``i`` (zeros where no one
sends), so its derivative, by the inverse pairs, follows.  ``all_to_all`` is a primitive
whose transpose is itself with the split and concat axes swapped; like ``psum_scatter``
it gives each example its own value, so every vmap runs its rule; ``pswapaxes`` is
``all_to_all`` along one axis.  One axis name at a time.
"""
from typing import Any, Hashable, Sequence

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..core import Primitive, ShapedArray, current_interpreter
from ..devices import register_gpu
from ..interpreters.batching import (NAMED_AXIS_RULES, VARYING_ALONG_AXIS, BatchInterpreter,
                                     StagedAxis)
from ..numpy._convert import asarray
from ..typing import PyTree
from ._collectives import _axes, _own_axis, axis_index

__all__ = ["all_gather", "psum_scatter", "ppermute", "all_to_all", "pswapaxes", "all_gather_p",
           "psum_scatter_p", "all_to_all_p"]


def _one_axis(axis_name, what):
    if isinstance(axis_name, (tuple, list)):
        raise NotImplementedError(f"{what}: one axis name at a time (got {axis_name!r}); "
                                  f"nest the calls, one per name")
    return _axes(axis_name, what)


# --- all_gather ------------------------------------------------------------------------------

def _gather_shape(shape, n, axis, tiled):
    if tiled:
        return shape[:axis] + (shape[axis] * n,) + shape[axis + 1:]
    return shape[:axis] + (n,) + shape[axis:]


def _stack(batch, n, axis, tiled):
    """The batch (its axis first) as each example's gathered value."""
    stacked = fnp.moveaxis(batch, 0, axis)
    if tiled:  # (n blocks end to end)
        shape = tuple(stacked.shape)
        stacked = fnp.reshape(stacked, shape[:axis] + (n * shape[axis + 1],)
                              + shape[axis + 2:])
    return stacked


def _gather_impl(x, *, axes, axis, tiled):
    # (reached by a value the same for every example: axis_size copies of it)
    n = axes[0].axis_size
    return _stack(fnp.broadcast_to(fnp.expand_dims(x, 0), (n,) + tuple(x.shape)), n, axis,
                  tiled)


def _gather_abstract(aval, *, axes, axis, tiled):
    return ShapedArray(_gather_shape(tuple(aval.shape), axes[0].axis_size, axis, tiled),
                       aval.dtype)


def _gather_jvp(primals, tangents, *, axes, axis, tiled):
    t, = tangents
    return (all_gather_p.bind(primals[0], axes=axes, axis=axis, tiled=tiled),
            None if t is None else all_gather_p.bind(t, axes=axes, axis=axis, tiled=tiled))


def _gather_vjp(needs, ct, out, x, *, axes, axis, tiled):
    if _running(axes[0]):  # (JAX's transpose: each example's slice of the summed cotangents)
        return [psum_scatter_p.bind(ct, axes=axes, scatter_dimension=axis, tiled=tiled)]
    # Recorded outside the vmap (its operand the same for every example, the vmap passed
    # it on, and is over now): it stacked copies once, whose transpose sums them.
    shape, n = tuple(ct.shape), axes[0].axis_size
    if tiled:
        ct = fnp.reshape(ct, shape[:axis] + (n, shape[axis] // n) + shape[axis + 1:])
    return [fnp.sum(ct, axis=axis)]


def _running(axis):
    """Is the vmap of ``axis`` (an interpreter, or a staged axis: by its name) running?"""
    interp = current_interpreter()
    while interp is not None:
        if interp is axis or (type(axis) is StagedAxis and type(interp) is BatchInterpreter
                              and interp.axis_name == axis.axis_name):
            return True
        interp = interp.parent
    return False


def _gather_batch(args, dims, *, axes, axis, tiled):
    """Under a vmap of another axis: example by example of it (its batch axis first)."""
    x, = args
    return all_gather_p.bind(fnp.moveaxis(x, dims[0], 0), axes=axes, axis=axis + 1,
                             tiled=tiled), 0


def _gather_named(interp, args, dims, *, axes, axis, tiled):
    if _own_axis(interp, axes) is None:
        return _gather_batch(args, dims, axes=axes, axis=axis, tiled=tiled)
    batch = fnp.moveaxis(args[0], dims[0], 0)
    return _stack(batch, interp.axis_size, axis, tiled), None  # (every example holds it)


all_gather_p = Primitive("all_gather", _gather_impl, abstract_eval=_gather_abstract,
                         jvp=_gather_jvp, vjp=_gather_vjp)
all_gather_p.batch = _gather_batch
NAMED_AXIS_RULES[all_gather_p] = _gather_named
# (it computes with primitives, on GPU arrays as on NumPy's)
register_gpu({all_gather_p: lambda x, **params: _gather_impl(x, **params)})


# --- psum_scatter ----------------------------------------------------------------------------

def _scatter_shape(shape, n, d, tiled):
    if d >= len(shape) or (shape[d] % n if tiled else shape[d] != n):
        raise ValueError(f"psum_scatter: the scatter dimension {d} of the operand (shape "
                         f"{shape}) must have the axis size {n}"
                         + (" times the block size" if tiled else "")
                         + "; pick scatter_dimension= accordingly")
    return shape[:d] + ((shape[d] // n,) if tiled else ()) + shape[d + 1:]


def _scatter_impl(x, *, axes, scatter_dimension, tiled):
    raise RuntimeError(f"psum_scatter: the vmap of axis {axes[0].axis_name!r} is not running "
                       f"(a graph holding it was evaluated outside that vmap); call it "
                       f"inside fg.vmap(f, axis_name={axes[0].axis_name!r})")


def _scatter_abstract(aval, *, axes, scatter_dimension, tiled):
    return ShapedArray(_scatter_shape(tuple(aval.shape), axes[0].axis_size,
                                      scatter_dimension, tiled), aval.dtype)


def _scatter_jvp(primals, tangents, *, axes, scatter_dimension, tiled):
    t, = tangents
    params = dict(axes=axes, scatter_dimension=scatter_dimension, tiled=tiled)
    return (psum_scatter_p.bind(primals[0], **params),
            None if t is None else psum_scatter_p.bind(t, **params))


def _scatter_vjp(needs, ct, out, x, *, axes, scatter_dimension, tiled):
    return [all_gather_p.bind(ct, axes=axes, axis=scatter_dimension, tiled=tiled)]


def _scatter_batch(args, dims, *, axes, scatter_dimension, tiled):
    """Under a vmap of another axis: example by example of it (its batch axis first)."""
    x, = args
    params = dict(axes=axes, tiled=tiled)
    if dims[0] is None:  # (every vmap runs this rule: not batched along this one)
        return psum_scatter_p.bind(x, scatter_dimension=scatter_dimension, **params), None
    return psum_scatter_p.bind(fnp.moveaxis(x, dims[0], 0),
                               scatter_dimension=scatter_dimension + 1, **params), 0


def _scatter_named(interp, args, dims, *, axes, scatter_dimension, tiled):
    if _own_axis(interp, axes) is None:
        return _scatter_batch(args, dims, axes=axes, scatter_dimension=scatter_dimension,
                              tiled=tiled)
    x, d, n = args[0], scatter_dimension, interp.axis_size
    # (a value the same for every example sums to n copies)
    total = x * n if dims[0] is None else fnp.sum(x, axis=dims[0])
    shape = tuple(total.shape)
    _scatter_shape(shape, n, d, tiled)
    if tiled:  # (block i of the dimension for example i)
        total = fnp.reshape(total, shape[:d] + (n, shape[d] // n) + shape[d + 1:])
    return total, d


psum_scatter_p = Primitive("psum_scatter", _scatter_impl, abstract_eval=_scatter_abstract,
                           jvp=_scatter_jvp, vjp=_scatter_vjp)
psum_scatter_p.batch = _scatter_batch
NAMED_AXIS_RULES[psum_scatter_p] = _scatter_named
VARYING_ALONG_AXIS.add(psum_scatter_p)
register_gpu({psum_scatter_p: lambda x, **params: _scatter_impl(x, **params)})


# --- the functions --------------------------------------------------------------------------

def _axis_position(what, axis, rank):
    if not -rank <= axis < rank:
        raise ValueError(f"{what}: axis {axis} is out of range for a rank-{rank - 1} operand")
    return axis % rank


def all_gather(x: PyTree, axis_name: Hashable, *, axis_index_groups: Any = None,
               axis: int = 0, tiled: bool = False, to: str = "varying") -> PyTree:
    """Every example's ``x`` stacked along a new axis ``axis`` (or, ``tiled``, joined end
    to end along ``axis``), given to each example of the named ``vmap`` axis (JAX's).
    Its derivative sums each example's cotangent slice back (:func:`psum_scatter`).
    ``to`` (``"varying"`` or ``"invariant"``) is JAX's type of the result under
    ``shard_map``; the values are the same either way.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: fg.lax.all_gather(x, "i"), axis_name="i")(np.array([1.0, 2.0]))
    array([[1., 2.],
           [1., 2.]])
    """
    if axis_index_groups is not None:
        raise NotImplementedError("all_gather: axis_index_groups is not supported")
    if to not in ("varying", "invariant"):
        raise ValueError(f"all_gather: to must be 'varying' or 'invariant', got {to!r}")
    axes = _one_axis(axis_name, "all_gather")

    def one(leaf):
        leaf = asarray(leaf)
        rank = leaf.ndim if tiled else leaf.ndim + 1
        return all_gather_p.bind(leaf, axes=axes,
                                 axis=_axis_position("all_gather", axis, rank),
                                 tiled=bool(tiled))
    return tree.tree_map(one, x)


def psum_scatter(x: PyTree, axis_name: Hashable, *, scatter_dimension: int = 0,
                 axis_index_groups: Any = None, tiled: bool = False) -> PyTree:
    """The sum over the examples of the named ``vmap`` axis, scattered: example ``i``
    gets slice ``i`` of the sum along ``scatter_dimension`` (whose size is the axis
    size; with ``tiled``, block ``i`` of it, and the dimension stays).  JAX's; the
    transpose of :func:`all_gather`.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([[1.0, 2.0], [10.0, 20.0]])
    >>> fg.vmap(lambda r: fg.lax.psum_scatter(r, "i"), axis_name="i")(x)
    array([11., 22.])
    """
    if axis_index_groups is not None:
        raise NotImplementedError("psum_scatter: axis_index_groups is not supported")
    axes = _one_axis(axis_name, "psum_scatter")

    def one(leaf):
        leaf = asarray(leaf)
        d = _axis_position("psum_scatter", scatter_dimension, max(leaf.ndim, 1))
        _scatter_shape(tuple(leaf.shape), axes[0].axis_size, d, bool(tiled))
        return psum_scatter_p.bind(leaf, axes=axes, scatter_dimension=d, tiled=bool(tiled))
    return tree.tree_map(one, x)


def ppermute(x: PyTree, axis_name: Hashable, perm: Sequence[tuple[int, int]]) -> PyTree:
    """Send each example's ``x`` to another example of the named ``vmap`` axis: ``perm``
    holds ``(source, destination)`` pairs, no index twice on either side; an example no
    pair sends to gets zeros (JAX's).  Its derivative sends back by the inverse pairs.

    >>> import numpy as np, funcgrad as fg
    >>> shift = lambda x: fg.lax.ppermute(x, "i", [(0, 1), (1, 2), (2, 0)])
    >>> fg.vmap(shift, axis_name="i")(np.array([1.0, 2.0, 3.0]))
    array([3., 1., 2.])
    """
    axes = _one_axis(axis_name, "ppermute")
    n = axes[0].axis_size
    pairs = [(int(s), int(d)) for s, d in perm]
    sources, destinations = [s for s, _ in pairs], [d for _, d in pairs]
    if len(set(sources)) != len(sources) or len(set(destinations)) != len(destinations):
        raise ValueError(f"ppermute: perm {pairs} names an example twice as a source or as "
                         f"a destination; give each at most once")
    if any(not 0 <= i < n for i in sources + destinations):
        raise ValueError(f"ppermute: perm {pairs} has an index outside 0..{n - 1}, the "
                         f"examples of axis {axis_name!r}")
    source = np.zeros(n, np.int64)
    received = np.zeros(n, bool)
    for s, d in pairs:
        source[d], received[d] = s, True
    me = axis_index(axis_name)

    def one(leaf):
        leaf = asarray(leaf)
        gathered = all_gather_p.bind(leaf, axes=axes, axis=0, tiled=False)
        moved = fnp.take(gathered, fnp.take(source, me), axis=0)
        if received.all():
            return moved
        return fnp.where(fnp.take(received, me), moved, fnp.zeros_like(moved))
    return tree.tree_map(one, x)


# --- all_to_all ------------------------------------------------------------------------------

def _exchange_shape(shape, n, split, concat, tiled):
    """An example's result shape: its ``split`` dimension cut into ``n`` pieces, piece
    ``i`` sent to example ``i``, the pieces received joined along ``concat``."""
    if split >= len(shape) or (shape[split] % n if tiled else shape[split] != n):
        raise ValueError(f"all_to_all: the split dimension {split} of the operand (shape "
                         f"{shape}) must have the axis size {n}"
                         + (" times the block size" if tiled else "")
                         + "; pick split_axis= accordingly")
    if not tiled:
        rest = shape[:split] + shape[split + 1:]
        return rest[:concat] + (n,) + rest[concat:]
    cut = shape[:split] + (shape[split] // n,) + shape[split + 1:]
    return cut[:concat] + (cut[concat] * n,) + cut[concat + 1:]


def _exchange(batch, n, split, concat, tiled):
    """The whole batch (source example first) exchanged: the batch of the results
    (destination example first)."""
    shape = tuple(batch.shape)
    if tiled:  # (the split dimension as n pieces: destination, then block)
        batch = fnp.reshape(batch, shape[:1 + split] + (n, shape[1 + split] // n)
                            + shape[2 + split:])
    moved = fnp.moveaxis(batch, 1 + split, 0)  # destination, source, the example's axes
    if not tiled:
        return fnp.moveaxis(moved, 1, 1 + concat)
    moved = fnp.moveaxis(moved, 1, 1 + concat)  # (the sources' blocks end to end)
    shape = tuple(moved.shape)
    return fnp.reshape(moved, shape[:1 + concat] + (shape[1 + concat] * shape[2 + concat],)
                       + shape[3 + concat:])


def _exchange_impl(x, *, axes, split_axis, concat_axis, tiled):
    raise RuntimeError(f"all_to_all: the vmap of axis {axes[0].axis_name!r} is not running "
                       f"(a graph holding it was evaluated outside that vmap); call it "
                       f"inside fg.vmap(f, axis_name={axes[0].axis_name!r})")


def _exchange_abstract(aval, *, axes, split_axis, concat_axis, tiled):
    return ShapedArray(_exchange_shape(tuple(aval.shape), axes[0].axis_size, split_axis,
                                       concat_axis, tiled), aval.dtype)


def _exchange_jvp(primals, tangents, *, axes, split_axis, concat_axis, tiled):
    t, = tangents
    params = dict(axes=axes, split_axis=split_axis, concat_axis=concat_axis, tiled=tiled)
    return (all_to_all_p.bind(primals[0], **params),
            None if t is None else all_to_all_p.bind(t, **params))


def _exchange_vjp(needs, ct, out, x, *, axes, split_axis, concat_axis, tiled):
    # (JAX's transpose: every piece sent back where it came from)
    return [all_to_all_p.bind(ct, axes=axes, split_axis=concat_axis, concat_axis=split_axis,
                              tiled=tiled)]


def _exchange_batch(args, dims, *, axes, split_axis, concat_axis, tiled):
    """Under a vmap of another axis: example by example of it (its batch axis first)."""
    x, = args
    if dims[0] is None:  # (every vmap runs this rule: not batched along this one)
        return all_to_all_p.bind(x, axes=axes, split_axis=split_axis,
                                 concat_axis=concat_axis, tiled=tiled), None
    return all_to_all_p.bind(fnp.moveaxis(x, dims[0], 0), axes=axes,
                             split_axis=split_axis + 1, concat_axis=concat_axis + 1,
                             tiled=tiled), 0


def _exchange_named(interp, args, dims, *, axes, split_axis, concat_axis, tiled):
    if _own_axis(interp, axes) is None:
        return _exchange_batch(args, dims, axes=axes, split_axis=split_axis,
                               concat_axis=concat_axis, tiled=tiled)
    x, n = args[0], interp.axis_size
    if dims[0] is None:  # (a value the same for every example: n copies of it)
        batch = fnp.broadcast_to(fnp.expand_dims(x, 0), (n,) + tuple(x.shape))
    else:
        batch = fnp.moveaxis(x, dims[0], 0)
    _exchange_shape(tuple(batch.shape[1:]), n, split_axis, concat_axis, tiled)
    return _exchange(batch, n, split_axis, concat_axis, tiled), 0


all_to_all_p = Primitive("all_to_all", _exchange_impl, abstract_eval=_exchange_abstract,
                         jvp=_exchange_jvp, vjp=_exchange_vjp)
all_to_all_p.batch = _exchange_batch
NAMED_AXIS_RULES[all_to_all_p] = _exchange_named
VARYING_ALONG_AXIS.add(all_to_all_p)  # (example i receives piece i: its own value)
register_gpu({all_to_all_p: lambda x, **params: _exchange_impl(x, **params)})


def all_to_all(x: PyTree, axis_name: Hashable, split_axis: int, concat_axis: int, *,
               axis_index_groups: Any = None, tiled: bool = False) -> PyTree:
    """Each example of the named ``vmap`` axis cuts its ``x`` along ``split_axis`` into
    one piece per example (that dimension has the axis size, or with ``tiled`` a
    multiple of it), sends piece ``i`` to example ``i``, and joins the pieces it
    receives, in the senders' order, along a new axis ``concat_axis`` (with ``tiled``,
    end to end along ``concat_axis``).  JAX's; its transpose swaps the two axes.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([[1.0, 2.0], [10.0, 20.0]])
    >>> fg.vmap(lambda r: fg.lax.all_to_all(r, "i", 0, 0), axis_name="i")(x)
    array([[ 1., 10.],
           [ 2., 20.]])
    """
    if axis_index_groups is not None:
        raise NotImplementedError("all_to_all: axis_index_groups is not supported")
    axes = _one_axis(axis_name, "all_to_all")

    def one(leaf):
        leaf = asarray(leaf)
        rank = max(leaf.ndim, 1)
        split = _axis_position("all_to_all", split_axis, rank)
        concat = _axis_position("all_to_all", concat_axis, rank)
        _exchange_shape(tuple(leaf.shape), axes[0].axis_size, split, concat, bool(tiled))
        return all_to_all_p.bind(leaf, axes=axes, split_axis=split, concat_axis=concat,
                                 tiled=bool(tiled))
    return tree.tree_map(one, x)


def pswapaxes(x: PyTree, axis_name: Hashable, axis: int, *,
              axis_index_groups: Any = None) -> PyTree:
    """The named ``vmap`` axis swapped with the dimension ``axis`` of ``x`` (whose size
    is the axis size): example ``i`` gets slice ``i`` of ``axis`` from every example,
    in their order (JAX's: :func:`all_to_all` with ``split_axis = concat_axis = axis``).

    >>> import numpy as np, funcgrad as fg
    >>> x = np.arange(4.0).reshape(2, 2)
    >>> fg.vmap(lambda r: fg.lax.pswapaxes(r, "i", 0), axis_name="i")(x)
    array([[0., 2.],
           [1., 3.]])
    """
    return all_to_all(x, axis_name, axis, axis, axis_index_groups=axis_index_groups)

"""``jax.lax``'s ragged products: ``ragged_dot`` and ``ragged_dot_general``, where one
axis of ``lhs`` is cut into consecutive groups of ``group_sizes`` (a mixture of experts'
token groups, each multiplied by its own expert's matrix).

As JAX's reference implementation: the ragged axis is expanded into one masked copy per
group (entries outside the group zero), then contracted by :func:`dot_general`, so the
products differentiate (in ``lhs`` and ``rhs``), batch and compile as ``dot_general``
does; ``group_sizes`` may be traced.
"""
from typing import Any, NamedTuple, Sequence

from .. import numpy as fnp
from ._common import array, static_ints
from ._linalg import dot_general
from ._structural import broadcast_in_dim, broadcasted_iota
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["RaggedDotDimensionNumbers", "ragged_dot", "ragged_dot_general"]


class RaggedDotDimensionNumbers(NamedTuple):
    """How :func:`ragged_dot_general` reads its operands: ``dot_dimension_numbers`` as
    :func:`dot_general`'s, the one ``lhs_ragged_dimensions`` axis of ``lhs`` cut into
    groups, and the ``rhs_group_dimensions`` axis of ``rhs`` (at most one) that holds one
    matrix per group.

    >>> from funcgrad import lax
    >>> lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0]).lhs_ragged_dimensions
    [0]
    """
    dot_dimension_numbers: Any
    lhs_ragged_dimensions: Sequence[int]
    rhs_group_dimensions: Sequence[int]


_BASIC = RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])


def _remaining(rank, *taken):
    used = {d for dims in taken for d in dims}
    return [d for d in range(rank) if d not in used]


def _expand(x, dim, group_sizes, axes):
    """``x`` with a leading group axis: copy ``g`` keeps the entries of axis ``dim`` in
    group ``g`` and zeros the rest.  ``group_sizes`` has the sizes of ``x``'s ``axes``
    then the groups."""
    groups = group_sizes.shape[-1]
    shape = (groups,) + tuple(x.shape)
    ends = fnp.cumsum(group_sizes, axis=-1)
    starts = ends - group_sizes
    where = (0,) + tuple(a + 1 for a in axes)
    ends = broadcast_in_dim(fnp.moveaxis(ends, -1, 0), shape, where)
    starts = broadcast_in_dim(fnp.moveaxis(starts, -1, 0), shape, where)
    position = broadcasted_iota(group_sizes.dtype, shape, dim + 1)
    inside = fnp.logical_and(fnp.less_equal(starts, position), fnp.less(position, ends))
    return fnp.where(inside, fnp.broadcast_to(x, shape), fnp.zeros((), x.dtype))


def ragged_dot_general(lhs: ArrayLike, rhs: ArrayLike, group_sizes: ArrayLike,
                       ragged_dot_dimension_numbers: RaggedDotDimensionNumbers,
                       precision: Any = None, preferred_element_type: DTypeLike | None = None,
                       group_offset: ArrayLike | None = None, out_sharding: Any = None) -> Array:
    """The ragged product with general dimension numbers (JAX's three modes, by the kind
    of ``lhs``'s ragged axis): a free axis ``m`` (``[b.., m.., k..] x [g, b.., k.., n..]
    -> [b.., m.., n..]``, each group of rows times its group's matrix); a contracting
    axis (``-> [g, b.., m.., n..]``, one partial product per group); a batch axis (a plain
    :func:`dot_general`).  ``group_sizes`` is ``[g]`` or has the sizes of the axes
    outside the ragged one first.  ``group_offset`` is not supported (neither is it by
    JAX on the CPU).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> dn = lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])
    >>> lax.ragged_dot_general(np.ones((3, 2)), np.arange(1.0, 3.0).reshape(2, 1, 1)
    ...                        * np.ones((2, 2, 1)), np.array([1, 2]), dn)
    array([[2.],
           [4.],
           [4.]])
    """
    if group_offset is not None:
        raise NotImplementedError("Unimplemented group_offset support.")
    lhs, rhs, sizes = array(lhs), array(rhs), array(group_sizes)
    if sizes.dtype.kind not in "iu":
        raise TypeError(f"ragged_dot_general: group_sizes must be integers, got "
                        f"{sizes.dtype}")
    dn = ragged_dot_dimension_numbers
    dn = (RaggedDotDimensionNumbers(dn.dot_dimension_numbers, dn.lhs_ragged_dimensions,
                                    dn.rhs_group_dimensions)
          if hasattr(dn, "dot_dimension_numbers") else RaggedDotDimensionNumbers(*dn))
    (l_contract, r_contract), (l_batch, r_batch) = (
        [list(static_ints(d, "ragged_dot_general: dot_dimension_numbers")) for d in pair]
        for pair in dn.dot_dimension_numbers)
    ragged = static_ints(dn.lhs_ragged_dimensions, "lhs_ragged_dimensions")
    if len(ragged) != 1:
        raise TypeError(f"ragged_dot_general: give exactly one lhs ragged dimension, got "
                        f"{list(ragged)}")
    ragged_dim = ragged[0]
    free = _remaining(lhs.ndim, l_contract, l_batch)
    product = dict(precision=precision, preferred_element_type=preferred_element_type)

    def incr(dims):
        return [d + 1 for d in dims]
    if ragged_dim in free:
        group_dims = static_ints(dn.rhs_group_dimensions, "rhs_group_dimensions")
        if len(group_dims) != 1:
            raise TypeError(f"ragged_dot_general: a ragged free dimension needs one rhs "
                            f"group dimension, got {list(group_dims)}")
        l_prefix = l_batch + free[:free.index(ragged_dim)]
        sizes = _batched_sizes(sizes, lhs, l_prefix)
        return dot_general(_expand(lhs, ragged_dim, sizes, l_prefix), rhs,
                           ((incr(l_contract) + [0], r_contract + [group_dims[0]]),
                            (incr(l_batch), r_batch)), **product)
    if ragged_dim in l_contract:
        r_ragged = r_contract[l_contract.index(ragged_dim)]
        l_prefix = l_batch + l_contract[:l_contract.index(ragged_dim)]
        r_prefix = r_batch + r_contract[:r_contract.index(r_ragged)]
        sizes = _batched_sizes(sizes, lhs, l_prefix)
        return dot_general(_expand(lhs, ragged_dim, sizes, l_prefix),
                           _expand(rhs, r_ragged, sizes, r_prefix),
                           ((incr(l_contract), incr(r_contract)),
                            ([0] + incr(l_batch), [0] + incr(r_batch))), **product)
    if ragged_dim in l_batch:
        return dot_general(lhs, rhs, ((l_contract, r_contract), (l_batch, r_batch)),
                           **product)
    raise TypeError(f"lhs_ragged_dim {ragged_dim} not found in lhs_noncontracting {free}, "
                    f"lhs_contracting {l_contract}, or lhs_batch {l_batch}.")


def _batched_sizes(sizes, lhs, prefix):
    """``group_sizes`` with the sizes of ``lhs``'s ``prefix`` axes first (a ``[g]`` one
    broadcast, as JAX's)."""
    outer = tuple(lhs.shape[d] for d in prefix)
    if sizes.ndim == 1:
        return fnp.broadcast_to(sizes, outer + tuple(sizes.shape))
    if tuple(sizes.shape[:-1]) != outer:
        raise TypeError(f"ragged_dot_general: group_sizes of shape {sizes.shape} must be [g] "
                        f"or {list(outer) + ['g']}")
    return sizes


def ragged_dot(lhs: ArrayLike, rhs: ArrayLike, group_sizes: ArrayLike, precision: Any = None,
               preferred_element_type: DTypeLike | None = None,
               group_offset: ArrayLike | None = None, out_sharding: Any = None) -> Array:
    """``lhs`` (m, k) times one of the matrices ``rhs`` (g, k, n) per group of rows: the
    first ``group_sizes[0]`` rows by ``rhs[0]``, the next ``group_sizes[1]`` by
    ``rhs[1]``...; rows past the groups give zeros.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> rhs = np.stack([np.eye(2), 2 * np.eye(2)])
    >>> lax.ragged_dot(np.ones((4, 2)), rhs, np.array([1, 2]))
    array([[1., 1.],
           [2., 2.],
           [2., 2.],
           [0., 0.]])
    """
    lhs, rhs = array(lhs), array(rhs)
    if lhs.ndim != 2 or rhs.ndim != 3:
        raise TypeError(f"ragged_dot: lhs must be (m, k) and rhs (g, k, n), got shapes "
                        f"{lhs.shape} and {rhs.shape} (use lax.ragged_dot_general)")
    return ragged_dot_general(lhs, rhs, group_sizes, _BASIC, precision,
                              preferred_element_type, group_offset)

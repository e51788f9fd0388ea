"""Collectives over a named ``vmap`` axis built from the others: ``axis_size``,
``pbroadcast`` (every example gets one example's value), ``pshuffle`` (a permutation of
the examples, as ``ppermute``), ``pcast`` (JAX's change of a value's varying/invariant
type over a ``shard_map`` axis: the values are unchanged).  Their derivatives, batching
and ``jit`` are those of ``psum``, ``ppermute`` and ``where``.
"""
from typing import Hashable, Sequence

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..numpy._convert import asarray
from ..typing import PyTree
from ._collectives import AxisName, _axes, _size, axis_index, psum
from ._collectives_moving import ppermute

__all__ = ["axis_size", "pbroadcast", "pshuffle", "pcast"]


def axis_size(axis_name: AxisName) -> int:
    """The number of examples of the named ``vmap`` axis (for a tuple of names, the
    product of their sizes), a Python int.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: x * fg.lax.axis_size("i"), axis_name="i")(np.ones(3))
    array([3., 3., 3.])
    """
    return _size(_axes(axis_name, "axis_size"))


def pbroadcast(x: PyTree, axis_name: AxisName, source: int) -> PyTree:
    """Every example of the named ``vmap`` axis gets example ``source``'s ``x`` (a
    pytree): JAX's ``psum`` of ``x`` masked to the source, which gives its derivative
    (the sum of every example's cotangent goes to the source).

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: fg.lax.pbroadcast(x, "i", 2), axis_name="i")(np.array([1., 2., 3.]))
    array([3., 3., 3.])
    """
    n = _size(_axes(axis_name, "pbroadcast"))
    source = int(source)
    if not 0 <= source < n:
        raise ValueError(f"pbroadcast: source {source} is not an example of axis "
                         f"{axis_name!r} (0..{n - 1})")
    mine = fnp.equal(axis_index(axis_name), np.int32(source))

    def one(leaf):
        leaf = asarray(leaf)
        return psum(fnp.where(mine, leaf, fnp.zeros_like(leaf)), axis_name)
    return tree.tree_map(one, x)


def pshuffle(x: PyTree, axis_name: Hashable, perm: Sequence[int]) -> PyTree:
    """Example ``i`` of the named ``vmap`` axis gets example ``perm[i]``'s ``x``
    (``perm`` a permutation of the examples): :func:`ppermute` with the pairs
    ``(perm[i], i)``.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: fg.lax.pshuffle(x, "i", [2, 0, 1]), axis_name="i")(np.array([1., 2., 3.]))
    array([3., 1., 2.])
    """
    perm = [int(p) for p in perm]
    if set(perm) != set(range(len(perm))):
        raise ValueError(f"`perm` does not represent a permutation: {perm}")
    return ppermute(x, axis_name, list(zip(perm, range(len(perm)))))


_PCAST_TO = ("varying", "unreduced", "reduced")


def pcast(x: PyTree, axis_name: AxisName, *, to: str) -> PyTree:
    """``x`` unchanged: JAX's marks a value as varying (or reduced...) over a
    ``shard_map`` axis for its type checker; under funcgrad's ``vmap`` a value is
    batched or not as it comes, and the collectives take either.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: fg.lax.pcast(x, "i", to="varying"), axis_name="i")(np.ones(2))
    array([1., 1.])
    """
    if isinstance(axis_name, (set, frozenset)):
        raise TypeError(f"axis_name={axis_name} must be a tuple or a str. Got {axis_name}")
    if not axis_name:
        return x
    if to not in _PCAST_TO:
        raise ValueError(f"Got unexpected `to` value. Allowed `to` values are: {_PCAST_TO}")
    _axes(axis_name, "pcast")  # (an unknown name is an error, as in JAX)
    return x

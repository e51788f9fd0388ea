"""Pytrees: nested containers of arrays.

Transforms accept and return nested tuples, lists, dicts, namedtuples and
``None`` (an empty node), plus any type registered with :func:`register`.
Everything else is a leaf.

>>> leaves, treedef = flatten({"b": (1.0, 2.0), "a": None})
>>> leaves
[1.0, 2.0]
>>> unflatten(treedef, [3.0, 4.0])
{'a': None, 'b': (3.0, 4.0)}

``ravel(tree) -> (flat, unravel)`` gives one 1-D array and the way back.  JAX's names
are here too: ``jax.tree``'s (``map``, ``flatten``, ``leaves``, ``structure``, ``reduce``,
``transpose``, ``all``, ``reduce_associative``, ``broadcast``, ``flatten_with_path``,
``leaves_with_path``, ``map_with_path``)
and ``jax.tree_util``'s (``tree_map``, ``tree_flatten``, ..., ``keystr``, ``Partial``,
the key classes and the ``register_*`` functions).

Modules: ``_nodes`` (the registry, :class:`TreeDef`, flattening, the leafwise
functions), ``_keys`` (key paths and the registrations that name children),
``_partial`` (``Partial``), ``_ravel`` (``ravel``).
"""
from ._keys import (DictKey, FlattenedIndexKey, GetAttrKey, SequenceKey, flatten_with_path,
                    keystr, leaves_with_path, map_with_path, register_dataclass,
                    register_pytree_with_keys, register_pytree_with_keys_class,
                    register_static)
from ._nodes import (TreeDef, _sorted_keys, all_leaves, broadcast, flatten,  # noqa: F401
                     flatten_one_level, leaves, map, reduce, reduce_associative, register,
                     register_pytree_node, register_pytree_node_class, structure, transpose,
                     tree_all, tree_map, treedef_children, treedef_is_leaf, unflatten)
from ._partial import Partial
from ._ravel import ravel

# jax.tree_util's names for the same functions (jax.tree's are the short ones above)
tree_flatten = flatten
tree_unflatten = unflatten
tree_leaves = leaves
tree_structure = structure
tree_reduce = reduce
tree_transpose = transpose
tree_flatten_with_path = flatten_with_path
tree_leaves_with_path = leaves_with_path
tree_map_with_path = map_with_path
tree_reduce_associative = reduce_associative
tree_broadcast = broadcast
all = tree_all  # jax.tree.all (this module's own name: builtins.all stays as it was)

__all__ = ["register", "flatten", "unflatten", "tree_map", "map", "leaves", "structure",
           "all_leaves", "reduce", "transpose", "all", "TreeDef", "ravel",
           "register_pytree_node", "register_pytree_node_class", "register_dataclass",
           "register_pytree_with_keys", "register_pytree_with_keys_class", "register_static",
           "flatten_with_path", "leaves_with_path", "map_with_path", "keystr", "DictKey",
           "SequenceKey", "GetAttrKey", "FlattenedIndexKey", "Partial",
           "tree_flatten", "tree_unflatten", "tree_leaves", "tree_structure", "tree_reduce",
           "tree_transpose", "tree_all", "tree_flatten_with_path", "tree_leaves_with_path",
           "tree_map_with_path", "reduce_associative", "tree_reduce_associative", "broadcast",
           "tree_broadcast", "flatten_one_level", "treedef_children", "treedef_is_leaf"]

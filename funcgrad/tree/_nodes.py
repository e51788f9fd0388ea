"""Pytree nodes: the registry of node types, :class:`TreeDef`, flattening and
rebuilding, and the functions over leaves (``tree_map``, ``reduce``, ``transpose``).

>>> leaves, treedef = flatten({"b": (1.0, 2.0), "a": None})
>>> leaves
[1.0, 2.0]
>>> unflatten(treedef, [3.0, 4.0])
{'a': None, 'b': (3.0, 4.0)}
"""
import functools
from collections import OrderedDict, defaultdict
from typing import Any, Callable, Iterable

import numpy as np

from ..typing import PyTree

__all__ = ["register", "flatten", "unflatten", "tree_map", "map", "leaves", "structure",
           "all_leaves", "reduce", "tree_all", "transpose", "TreeDef", "register_pytree_node",
           "register_pytree_node_class", "reduce_associative", "broadcast",
           "flatten_one_level", "treedef_children", "treedef_is_leaf"]

_registry: dict[type, tuple[Callable[..., Any], Callable[..., Any]]] = {}


def register(cls: type, flatten_fn: Callable[[Any], tuple[Iterable[Any], Any]],
             unflatten_fn: Callable[[Any, list[Any]], Any]) -> None:
    """Make ``cls`` a pytree node.

    ``flatten_fn(obj) -> (children, aux)`` returns an iterable of children and
    hashable auxiliary data; ``unflatten_fn(aux, children) -> obj`` rebuilds it.

    >>> class Pair:
    ...     def __init__(self, a, b): self.a, self.b = a, b
    >>> register(Pair, lambda p: ((p.a, p.b), None), lambda aux, ch: Pair(*ch))
    >>> flatten(Pair(1.0, 2.0))[0]
    [1.0, 2.0]
    """
    if cls in _registry:
        raise ValueError(f"{cls.__name__} is already registered as a pytree node")
    _registry[cls] = (flatten_fn, unflatten_fn)


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:  # keys of mixed types: keep insertion order
        return list(d)


register(tuple, lambda t: (t, None), lambda _, ch: tuple(ch))
register(list, lambda t: (t, None), lambda _, ch: list(ch))
def _flatten_dict(d):
    keys = _sorted_keys(d)
    return [d[k] for k in keys], tuple(keys)


register(dict, _flatten_dict, lambda keys, ch: dict(zip(keys, ch)))
register(OrderedDict, lambda d: (list(d.values()), tuple(d)),
         lambda keys, ch: OrderedDict(zip(keys, ch)))
register(defaultdict,
         lambda d: ([d[k] for k in _sorted_keys(d)], (d.default_factory, tuple(_sorted_keys(d)))),
         lambda aux, ch: defaultdict(aux[0], zip(aux[1], ch)))
register(type(None), lambda _: ((), None), lambda _, ch: None)


class TreeDef:
    """The structure of a pytree, without its leaves: what :func:`flatten` returns beside
    the leaves and :func:`unflatten` takes back.  Equal structures compare equal.

    >>> _, treedef = flatten((1.0, {"a": 2.0}))
    >>> treedef, treedef.num_leaves
    (PyTreeDef((*, {'a': *})), 2)
    >>> treedef == flatten((3.0, {"a": 4.0}))[1]
    True
    """

    __slots__ = ("node", "aux", "_children", "num_leaves", "_flat")

    def __init__(self, node: type | str | None, aux: Any, children: tuple["TreeDef", ...]
                 ) -> None:
        self.node = node
        self.aux = aux
        self._children = children
        n = 1 if node is None else 0
        flat = node is not None
        for c in children:
            n += c.num_leaves
            if c.node is not None:
                flat = False
        self.num_leaves: int = n
        # a node whose children are all leaves (a dict of arrays): its leaves are its
        # children, so unflatten rebuilds it from them directly
        self._flat = flat

    def __eq__(self, other):
        return (isinstance(other, TreeDef) and self.node == other.node
                and self.aux == other.aux and self._children == other._children)

    def __hash__(self):
        return hash((self.node, self.aux, self._children))

    def __repr__(self):
        return f"PyTreeDef({self._show()})"

    def _show(self):
        """JAX's notation: ``*`` a leaf, ``(…)`` a tuple, ``[…]`` a list, ``{'k': …}`` a
        dict (its keys shown: structures that differ by a key read differently)."""
        kids = [c._show() for c in self._children]
        node = self.node
        if node is None:
            return "*"
        if node is tuple:
            return f"({kids[0]},)" if len(kids) == 1 else f"({', '.join(kids)})"
        if node is list:
            return f"[{', '.join(kids)}]"
        if node is dict:
            return "{" + ", ".join(f"{k!r}: {c}" for k, c in zip(self.aux, kids)) + "}"
        if node is type(None):
            return "None"
        if node == "namedtuple":
            fields = ", ".join(f"{f}={c}" for f, c in zip(self.aux._fields, kids))
            return f"{self.aux.__name__}({fields})"
        return f"{node.__name__}[{self.aux!r}]({', '.join(kids)})"

    def unflatten(self, leaves: Iterable[Any]) -> PyTree:
        """The tree of this structure holding ``leaves`` (:func:`unflatten`).

        >>> structure((1.0, [2.0])).unflatten([3.0, 4.0])
        (3.0, [4.0])
        """
        return unflatten(self, leaves)

    def children(self) -> list["TreeDef"]:
        """The structures of the top node's children, in order (JAX's ``children()``;
        a leaf has none).

        >>> structure((1.0, [2.0, 3.0])).children()
        [PyTreeDef(*), PyTreeDef([*, *])]
        """
        return list(self._children)

    @property
    def num_nodes(self) -> int:
        """How many nodes the structure has, leaves included (JAX's ``num_nodes``).

        >>> structure({"a": (1.0, 2.0), "b": 3.0}).num_nodes
        5
        """
        return 1 + sum(c.num_nodes for c in self._children)

    def node_data(self) -> tuple[Any, Any] | None:
        """``(node type, aux data)`` of the top node; None for a leaf (JAX's).

        >>> structure({"b": 1.0, "a": 2.0}).node_data()
        (<class 'dict'>, ('a', 'b'))
        """
        if self.node is None:
            return None
        if self.node == "namedtuple":  # (the class is kept as the aux data)
            return self.aux, None
        return self.node, self.aux

    def flatten_up_to(self, tree: PyTree) -> list[Any]:
        """The subtrees of ``tree`` at this structure's leaves, in order (``tree`` has
        this structure, or more below its leaves).

        >>> structure((0, 0)).flatten_up_to(([1, 2], {"k": 3}))
        [[1, 2], {'k': 3}]
        """
        return _flatten_up_to(self, tree, 1)


_LEAF = TreeDef(None, None, ())
_new = object.__new__


def flatten(tree: PyTree, is_leaf: Callable[[Any], bool] | None = None
            ) -> tuple[list[Any], TreeDef]:
    """``(leaves, treedef)`` of ``tree``; ``is_leaf(x)`` can stop the descent.  Dicts are
    flattened in sorted key order, as in JAX.

    >>> flatten({"b": [1.0, 2.0], "a": 3.0})
    ([3.0, 1.0, 2.0], PyTreeDef({'a': *, 'b': [*, *]}))
    >>> flatten([(1.0, 2.0), 3.0], is_leaf=lambda x: isinstance(x, tuple))[0]
    [(1.0, 2.0), 3.0]
    """
    if type(tree) is np.ndarray and is_leaf is None:  # the commonest pytree: one array
        return [tree], _LEAF
    leaves: list[Any] = []
    treedef = _flatten(tree, leaves, is_leaf)
    return leaves, treedef


def _flatten(x, leaves, is_leaf):
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return _LEAF
    node = type(x)
    if node is np.ndarray:  # (the commonest leaf)
        leaves.append(x)
        return _LEAF
    entry = _registry.get(node)
    if entry is not None:
        children, aux = entry[0](x)
    elif isinstance(x, tuple) and hasattr(node, "_fields"):
        node, children, aux = "namedtuple", tuple(x), node
    else:
        leaves.append(x)
        return _LEAF
    # An array child is a leaf whatever ``is_leaf`` says of it: taken without a call per
    # leaf (a dict of parameters is flattened on every gradient).
    if type(children) is list or type(children) is tuple:  # (iterated twice here)
        for c in children:
            if type(c) is not np.ndarray:
                break
        else:
            if children:
                # Every child an array (a dict of parameters): the leaves in one call, and
                # the fields TreeDef's loop over the children would find, set directly
                # (W3's four parameters: 72 -> 0 bytecodes of its __init__, and the loop
                # below 95 -> 20, on every gradient).
                leaves.extend(children)
                n = len(children)
                treedef = _new(TreeDef)
                treedef.node, treedef.aux, treedef._children = node, aux, (_LEAF,) * n
                treedef.num_leaves, treedef._flat = n, True
                return treedef
    kids = []
    for c in children:
        if type(c) is np.ndarray:
            leaves.append(c)
            kids.append(_LEAF)
        else:
            kids.append(_flatten(c, leaves, is_leaf))
    return TreeDef(node, aux, tuple(kids))


def unflatten(treedef: TreeDef, leaves: Iterable[Any]) -> PyTree:
    """Rebuild a pytree of structure ``treedef`` from ``leaves``.

    >>> _, treedef = flatten({"w": 1.0, "b": (2.0, None)})
    >>> unflatten(treedef, [10.0, 20.0])
    {'b': (10.0, None), 'w': 20.0}
    """
    if type(leaves) is list and len(leaves) == treedef.num_leaves:
        # As many leaves as the structure holds, counted once here: the walk below
        # cannot run out of them, so it takes each without a check.
        node = treedef.node
        if node is None:
            return leaves[0]
        if node is dict and treedef._flat:  # (a dict of arrays: what _node's call gives)
            return dict(zip(treedef.aux, leaves))
        if treedef._flat:
            return _node(treedef, list(leaves))
        return _build(treedef, iter(leaves))
    it = iter(leaves)
    out = _unflatten(treedef, it)
    rest = sum(1 for _ in it)
    if rest:
        raise ValueError(f"unflatten: {treedef.num_leaves + rest} leaves for the tree structure "
                         f"{treedef}, which holds {treedef.num_leaves}; pass exactly that many")
    return out


def _unflatten(treedef, it):
    if treedef.node is None:
        try:
            return next(it)
        except StopIteration:
            raise ValueError("unflatten: too few leaves for the tree structure; pass as many "
                             "as its num_leaves") from None
    children = [_unflatten(c, it) for c in treedef._children]
    if treedef.node == "namedtuple":
        return treedef.aux(*children)
    return _registry[treedef.node][1](treedef.aux, children)


def _build(treedef, it):
    return _node(treedef, [next(it) if c.node is None else _build(c, it)
                           for c in treedef._children])


def _node(treedef, children):
    """The node of ``treedef`` (not a leaf) holding ``children``."""
    if treedef.node == "namedtuple":
        return treedef.aux(*children)
    return _registry[treedef.node][1](treedef.aux, children)


def leaves(tree: PyTree, is_leaf: Callable[[Any], bool] | None = None) -> list[Any]:
    """The leaves of ``tree``, in flattening order (``None`` holds none).

    >>> leaves({"b": (2.0, None), "a": [1.0]})
    [1.0, 2.0]
    """
    return flatten(tree, is_leaf)[0]


def structure(tree: PyTree, is_leaf: Callable[[Any], bool] | None = None) -> TreeDef:
    """The :class:`TreeDef` of ``tree`` (``jax.tree.structure``).

    >>> structure({"b": [1.0, 2.0], "a": None})
    PyTreeDef({'a': None, 'b': [*, *]})
    """
    return flatten(tree, is_leaf)[1]


def all_leaves(iterable: Iterable[Any], is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Is every element of ``iterable`` a leaf (``jax.tree_util.all_leaves``)?

    >>> all_leaves([1.0, 2.0]), all_leaves([1.0, (2.0,)]), all_leaves([None])
    (True, False, False)
    """
    return all(flatten(x, is_leaf)[1] == _LEAF for x in iterable)


def tree_map(f: Callable[..., Any], tree: PyTree, *rest: PyTree,
             is_leaf: Callable[[Any], bool] | None = None) -> PyTree:
    """Apply ``f`` leafwise to ``tree`` and the matching parts of ``rest``, as
    ``jax.tree.map``: each of ``rest`` has ``tree``'s structure or more below its leaves
    (``f`` then gets the whole subtree there).  ``is_leaf`` stops the descent in ``tree``.

    >>> tree_map(lambda a, b: a + b, (1, [2]), (10, [20]))
    (11, [22])
    >>> tree_map(lambda a, b: (a, b), [1, 2], [(3, 4), 5])
    [(1, (3, 4)), (2, 5)]
    """
    flat, treedef = flatten(tree, is_leaf)
    others = [_flatten_up_to(treedef, r, i + 1) for i, r in enumerate(rest)]
    return unflatten(treedef, [f(*xs) for xs in zip(flat, *others)])


map = tree_map  # jax.tree.map's name (this module's own: builtins.map stays as it was)


def _flatten_up_to(treedef, tree, which):
    """The subtrees of ``tree`` at ``treedef``'s leaves, in order; an error names where
    ``tree`` differs."""
    if treedef.node is None and type(tree) is np.ndarray:
        return [tree]
    out: list[Any] = []

    def walk(d, x, path):
        if d.node is None:
            out.append(x)
            return
        ch, xd = flatten(x, lambda y: y is not x)  # one level of x
        if xd.node != d.node or xd.aux != d.aux or len(ch) != len(d._children):
            raise ValueError(f"tree_map: structures differ: tree {which} differs from the "
                             f"first at {path or 'its root'}: {_one_level(xd)} where it "
                             f"has {_one_level(d)}; give every tree the first's "
                             f"structure (or more below its leaves)")
        for i, (cd, cx) in enumerate(zip(d._children, ch)):
            walk(cd, cx, f"{path}[{d.aux[i]!r}]" if d.node in (dict, OrderedDict)
                 else f"{path}[{i}]")

    walk(treedef, tree, "")
    return out


def _one_level(d):
    """The repr of ``d``'s top node, its children shown as leaves."""
    return repr(TreeDef(d.node, d.aux, tuple(_LEAF for _ in d._children)))


def reduce(function: Callable[[Any, Any], Any], tree: PyTree, *initializer: Any,
           is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """``functools.reduce`` over the leaves of ``tree`` (``jax.tree.reduce``).

    >>> reduce(lambda a, b: a + b, {"x": 1, "y": [2, 3]}), reduce(max, [], 0)
    (6, 0)
    """
    return functools.reduce(function, flatten(tree, is_leaf)[0], *initializer)


def tree_all(tree: PyTree, *, is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Is every leaf of ``tree`` true (``jax.tree.all``)?  An empty tree is.

    >>> tree_all([True, (1, 2.0)]), tree_all({"a": 1, "b": 0}), tree_all([None])
    (True, False, True)
    """
    return all(flatten(tree, is_leaf)[0])


_NO_IDENTITY = object()


def reduce_associative(operation: Callable[[Any, Any], Any], tree: PyTree, *,
                       identity: Any = _NO_IDENTITY,
                       is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Combine the leaves of ``tree`` with an associative ``operation``, pairwise in a
    balanced tree (``jax.tree.reduce_associative``): fewer rounding steps in a row than
    :func:`reduce`'s left fold.  An empty tree gives ``identity`` (an error without it).

    >>> reduce_associative(lambda a, b: a + b, [1, (2, 3)]), reduce_associative(
    ...     max, [], identity=0)
    (6, 0)
    """
    values = flatten(tree, is_leaf)[0]
    if not values:
        if identity is _NO_IDENTITY:
            raise ValueError("reduce_associative: the tree has no leaves; pass identity= "
                             "(the value an empty reduction gives)")
        return identity
    while len(values) > 1:
        pairs = [operation(a, b) for a, b in zip(values[::2], values[1::2])]
        values = pairs + values[len(pairs) * 2:]
    return values[0]


def broadcast(prefix_tree: PyTree, full_tree: PyTree,
              is_leaf: Callable[[Any], bool] | None = None) -> PyTree:
    """``full_tree``'s structure, each leaf taken from the leaf of ``prefix_tree`` above
    it (``jax.tree.broadcast``; ``prefix_tree`` is a prefix of ``full_tree``).

    >>> broadcast((1, 2), ((3, 4), {"a": 5}))
    ((1, 1), {'a': 2})
    """
    values, prefix = flatten(prefix_tree, is_leaf)
    subtrees = _flatten_up_to(prefix, full_tree, 1)
    return unflatten(prefix, [tree_map(lambda _, v=v: v, sub)
                              for v, sub in zip(values, subtrees)])


def flatten_one_level(tree: PyTree) -> tuple[list[Any], Any]:
    """``(children, aux data)`` of the top node of ``tree`` (JAX's); a leaf raises.

    >>> flatten_one_level({"b": 1, "a": (2, 3)})
    ([(2, 3), 1], ('a', 'b'))
    """
    children, treedef = flatten(tree, lambda x: x is not tree)
    if treedef.node is None:
        raise ValueError(f"flatten_one_level: {type(tree).__name__} is a leaf, not a pytree "
                         f"node; it has no children")
    return children, treedef.aux if treedef.node != "namedtuple" else None


def treedef_children(treedef: TreeDef) -> list[TreeDef]:
    """The structures of the top node's children (JAX's).

    >>> treedef_children(structure((1, [2, 3])))
    [PyTreeDef(*), PyTreeDef([*, *])]
    """
    return list(treedef._children)


def treedef_is_leaf(treedef: TreeDef) -> bool:
    """Is the structure one node (a leaf, or an empty node such as None), as JAX's?

    >>> treedef_is_leaf(structure(1.0)), treedef_is_leaf(structure(None)), treedef_is_leaf(
    ...     structure([1.0]))
    (True, True, False)
    """
    return treedef.num_nodes == 1


def transpose(outer_treedef: TreeDef, inner_treedef: TreeDef | None, pytree_to_transpose: PyTree
              ) -> PyTree:
    """Turn a tree of structure ``outer`` of trees of structure ``inner`` into a tree of
    structure ``inner`` of trees of structure ``outer`` (``jax.tree.transpose``).
    ``inner_treedef=None`` takes the structure of the first inner tree.

    >>> outer, inner = structure([0, 0]), structure((0, 0))
    >>> transpose(outer, inner, [(1, 2), (3, 4)])
    ([1, 3], [2, 4])
    """
    parts = _flatten_up_to(outer_treedef, pytree_to_transpose, 1)
    if inner_treedef is None:
        inner_treedef = structure(parts[0]) if parts else _LEAF
    flats = [_flatten_up_to(inner_treedef, p, i + 1) for i, p in enumerate(parts)]
    return unflatten(inner_treedef, [unflatten(outer_treedef, list(column))
                                     for column in zip(*flats)] if flats else
                     [unflatten(outer_treedef, []) for _ in range(inner_treedef.num_leaves)])


def register_pytree_node(nodetype: type, flatten_func: Callable[[Any], tuple[Iterable[Any], Any]],
                         unflatten_func: Callable[[Any, Iterable[Any]], Any]) -> None:
    """JAX's name for :func:`register`.

    >>> class Box:
    ...     def __init__(self, v): self.v = v
    >>> register_pytree_node(Box, lambda b: ((b.v,), None), lambda aux, ch: Box(*ch))
    >>> leaves([Box(1.0), Box(2.0)])
    [1.0, 2.0]
    """
    register(nodetype, flatten_func, unflatten_func)


def register_pytree_node_class(cls: type) -> type:
    """Class decorator: ``cls.tree_flatten(self) -> (children, aux)`` and the classmethod
    ``cls.tree_unflatten(aux, children)`` make it a pytree node (JAX's decorator).

    >>> @register_pytree_node_class
    ... class Scaled:
    ...     def __init__(self, x, k): self.x, self.k = x, k
    ...     def tree_flatten(self): return (self.x,), self.k
    ...     @classmethod
    ...     def tree_unflatten(cls, k, children): return cls(children[0], k)
    >>> tree_map(lambda v: v * 10, Scaled(1.5, "k")).x
    15.0
    """
    for name in ("tree_flatten", "tree_unflatten"):
        if not hasattr(cls, name):
            raise TypeError(f"register_pytree_node_class: {cls.__name__} has no {name}; "
                            f"define tree_flatten(self) -> (children, aux) and the classmethod "
                            f"tree_unflatten(cls, aux, children)")
    register(cls, lambda obj: obj.tree_flatten(), getattr(cls, "tree_unflatten"))
    return cls

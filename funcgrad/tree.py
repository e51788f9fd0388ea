"""Pytrees: nested containers of arrays.

Transforms accept and return nested tuples, lists, dicts, namedtuples and
``None`` (an empty node), plus any type registered with :func:`register`.
Everything else is a leaf.

>>> leaves, treedef = flatten({"b": (1.0, 2.0), "a": None})
>>> leaves
[1.0, 2.0]
>>> unflatten(treedef, [3.0, 4.0])
{'a': None, 'b': (3.0, 4.0)}

``ravel(tree) -> (flat, unravel)`` gives one 1-D array and the way back.
"""
from collections import OrderedDict, defaultdict
from typing import Any, Callable, Iterable

import numpy as np

from .typing import PyTree

__all__ = ["register", "flatten", "unflatten", "tree_map", "leaves", "TreeDef", "ravel"]

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
    (tuple(*, dict(*)), 2)
    >>> treedef == flatten((3.0, {"a": 4.0}))[1]
    True
    """

    __slots__ = ("node", "aux", "children", "num_leaves")

    def __init__(self, node: type | str | None, aux: Any, children: tuple["TreeDef", ...]
                 ) -> None:
        self.node = node
        self.aux = aux
        self.children = children
        n = 1 if node is None else 0
        for c in children:
            n += c.num_leaves
        self.num_leaves: int = n

    def __eq__(self, other):
        return (isinstance(other, TreeDef) and self.node == other.node
                and self.aux == other.aux and self.children == other.children)

    def __hash__(self):
        return hash((self.node, self.aux, self.children))

    def __repr__(self):
        if self.node is None:
            return "*"
        name = self.node if isinstance(self.node, str) else self.node.__name__
        return f"{name}({', '.join(map(repr, self.children))})"


_LEAF = TreeDef(None, None, ())


def flatten(tree: PyTree, is_leaf: Callable[[Any], bool] | None = None
            ) -> tuple[list[Any], TreeDef]:
    """``(leaves, treedef)`` of ``tree``; ``is_leaf(x)`` can stop the descent.  Dicts are
    flattened in sorted key order, as in JAX.

    >>> flatten({"b": [1.0, 2.0], "a": 3.0})
    ([3.0, 1.0, 2.0], dict(*, list(*, *)))
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
    return TreeDef(node, aux, tuple([_flatten(c, leaves, is_leaf) for c in children]))


def unflatten(treedef: TreeDef, leaves: Iterable[Any]) -> PyTree:
    """Rebuild a pytree of structure ``treedef`` from ``leaves``.

    >>> _, treedef = flatten({"w": 1.0, "b": (2.0, None)})
    >>> unflatten(treedef, [10.0, 20.0])
    {'b': (10.0, None), 'w': 20.0}
    """
    if treedef.node is None and type(leaves) is list and len(leaves) == 1:
        return leaves[0]
    it = iter(leaves)
    out = _unflatten(treedef, it)
    rest = sum(1 for _ in it)
    if rest:
        raise ValueError(f"unflatten: {rest} more leaves than the tree structure {treedef} holds")
    return out


def _unflatten(treedef, it):
    if treedef.node is None:
        try:
            return next(it)
        except StopIteration:
            raise ValueError("unflatten: too few leaves for the tree structure") from None
    children = [_unflatten(c, it) for c in treedef.children]
    if treedef.node == "namedtuple":
        return treedef.aux(*children)
    return _registry[treedef.node][1](treedef.aux, children)


def leaves(tree: PyTree) -> list[Any]:
    """The leaves of ``tree``, in flattening order (``None`` holds none).

    >>> leaves({"b": (2.0, None), "a": [1.0]})
    [1.0, 2.0]
    """
    return flatten(tree)[0]


def tree_map(f: Callable[..., Any], tree: PyTree, *rest: PyTree) -> PyTree:
    """Apply ``f`` leafwise to ``tree`` (and the matching leaves of ``rest``).

    >>> tree_map(lambda a, b: a + b, (1, [2]), (10, [20]))
    (11, [22])
    """
    flat, treedef = flatten(tree)
    others = []
    for r in rest:
        r_flat, r_def = flatten(r)
        if r_def != treedef:
            raise ValueError(f"tree_map: structures differ: {treedef} vs {r_def}")
        others.append(r_flat)
    return unflatten(treedef, [f(*xs) for xs in zip(flat, *others)])


def _leaf_dtype(leaf, index):
    dtype = getattr(leaf, "dtype", None)
    if dtype is None:
        try:
            dtype = np.asarray(leaf).dtype
        except Exception:  # (anything NumPy cannot even hold: the check below names it)
            dtype = np.dtype(object)
    dtype = np.dtype(dtype)
    if dtype.kind not in "biufc":
        raise TypeError(f"fg.tree.ravel: leaf {index} ({type(leaf).__name__}, dtype {dtype}) "
                        "is not numeric; ravel takes pytrees of numeric arrays and scalars "
                        "(keep other values out of the tree, e.g. in a closure)")
    return dtype


def ravel(pytree: PyTree) -> tuple[Any, Callable[[Any], PyTree]]:
    """Flatten a pytree of arrays into one 1-D array; return it with ``unravel``.

    Like JAX's ``ravel_pytree``: the leaves, in flattening order, are raveled and
    concatenated in their common dtype (``np.result_type`` of the leaves; float64 for an
    empty tree). ``unravel(flat)`` rebuilds the tree, each leaf with its own shape and
    dtype. Both directions are differentiable, so ``fg.grad`` of a function of
    ``unravel(flat)`` is the flat gradient: on traced leaves the NumPy calls here
    (``np.concatenate``, ``np.reshape``) reach funcgrad's through ``__array_function__``,
    so this bottom module needs nothing of the NumPy front above it.

    >>> import numpy as np, funcgrad as fg
    >>> params = {"w": np.ones((2, 2), np.float32), "b": np.zeros(1, np.float32)}
    >>> flat, unravel = fg.tree.ravel(params)
    >>> flat
    array([0., 1., 1., 1., 1.], dtype=float32)
    >>> unravel(flat * 2)["w"]
    array([[2., 2.],
           [2., 2.]], dtype=float32)
    >>> fg.grad(lambda f: np.sum(unravel(f)["w"] ** 2))(flat)
    array([0., 2., 2., 2., 2.], dtype=float32)
    """
    leaves, treedef = flatten(pytree)
    dtypes = [_leaf_dtype(leaf, i) for i, leaf in enumerate(leaves)]
    shapes = [tuple(np.shape(leaf)) for leaf in leaves]
    sizes = [int(np.prod(s, dtype=np.int64)) for s in shapes]
    flat_dtype = np.result_type(*dtypes) if dtypes else np.dtype(np.float64)
    if leaves:
        flat = np.concatenate([np.ravel(leaf).astype(flat_dtype) for leaf in leaves])
    else:
        flat = np.zeros(0, flat_dtype)
    offsets = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).tolist()
    total = offsets[-1]

    def unravel(flat_values):
        """The pytree whose ``ravel`` is ``flat_values`` (shapes and dtypes restored)."""
        shape = tuple(np.shape(flat_values))
        if shape != (total,):
            raise ValueError(f"unravel: expected a 1-D array of {total} elements (the "
                             f"raveled tree), got shape {shape}")
        dtype = np.dtype(getattr(flat_values, "dtype", None) or np.asarray(flat_values).dtype)
        if dtype != flat_dtype:
            raise TypeError(f"unravel: expected an array of dtype {flat_dtype} (the raveled "
                            f"tree's), got {dtype}; cast it first with "
                            f".astype(np.{flat_dtype.name})")
        parts = [np.reshape(flat_values[start:stop], leaf_shape).astype(leaf_dtype)
                 for start, stop, leaf_shape, leaf_dtype
                 in zip(offsets[:-1], offsets[1:], shapes, dtypes)]
        return unflatten(treedef, parts)

    return flat, unravel

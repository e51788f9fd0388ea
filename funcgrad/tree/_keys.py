"""Key paths: where each leaf sits in a pytree (``jax.tree_util``'s ``DictKey``,
``SequenceKey``, ``GetAttrKey``, ``FlattenedIndexKey``), the functions that pass them
(``flatten_with_path``, ``leaves_with_path``, ``map_with_path``, ``keystr``), and the
registrations that name a node's children (``register_pytree_with_keys``,
``register_dataclass``, ``register_static``).

>>> flatten_with_path({"w": [1.0, 2.0]})[0]
[((DictKey(key='w'), SequenceKey(idx=0)), 1.0), ((DictKey(key='w'), SequenceKey(idx=1)), 2.0)]
"""
import dataclasses
from collections import OrderedDict, defaultdict
from typing import Any, Callable, Hashable, Iterable, Sequence

import numpy as np

from ..typing import PyTree
from ._nodes import _LEAF, TreeDef, _flatten_up_to, _registry, register, unflatten
from ._nodes import flatten  # noqa: F401  (the examples below use it)

__all__ = ["DictKey", "SequenceKey", "GetAttrKey", "FlattenedIndexKey", "flatten_with_path",
           "leaves_with_path", "map_with_path", "keystr", "register_pytree_with_keys",
           "register_pytree_with_keys_class", "register_dataclass", "register_static"]


@dataclasses.dataclass(frozen=True)
class DictKey:
    """The key of a dict entry in a key path; prints as ``['key']``.

    >>> DictKey("w"), str(DictKey("w"))
    (DictKey(key='w'), "['w']")
    """
    key: Hashable

    def __str__(self) -> str:
        return f"[{self.key!r}]"


@dataclasses.dataclass(frozen=True)
class SequenceKey:
    """The index of a tuple or list entry in a key path; prints as ``[0]``.

    >>> SequenceKey(0), str(SequenceKey(0))
    (SequenceKey(idx=0), '[0]')
    """
    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    """The attribute of a namedtuple or dataclass field in a key path; prints as
    ``.name``.

    >>> GetAttrKey("w"), str(GetAttrKey("w"))
    (GetAttrKey(name='w'), '.w')
    """
    name: str

    def __str__(self) -> str:
        return f".{self.name}"


@dataclasses.dataclass(frozen=True)
class FlattenedIndexKey:
    """The position of a child of a node registered without keys; prints as
    ``[<flat index 0>]``.

    >>> FlattenedIndexKey(0), str(FlattenedIndexKey(0))
    (FlattenedIndexKey(key=0), '[<flat index 0>]')
    """
    key: int

    def __str__(self) -> str:
        return f"[<flat index {self.key}>]"


KeyEntry = Any  # (one of the key classes above, or a user's own key object)
KeyPath = tuple[KeyEntry, ...]

# node type -> flatten_with_keys(obj) -> (iterable of (key, child), aux), for the nodes
# registered with keys; the builtin containers' keys are read off their aux data, and
# other registered nodes' children get FlattenedIndexKey
_keyed: dict[type, Callable[[Any], tuple[Iterable[tuple[KeyEntry, Any]], Any]]] = {}


def _builtin_keys(node: Any, aux: Any, n: int) -> list[KeyEntry] | None:
    if node is tuple or node is list:
        return [SequenceKey(i) for i in range(n)]
    if node is dict or node is OrderedDict:  # (aux: the keys in flattening order)
        return [DictKey(k) for k in aux]
    if node is defaultdict:  # (aux: the default factory and the keys)
        return [DictKey(k) for k in aux[1]]
    return None


def _stops(is_leaf, takes_path, path, x):
    if is_leaf is None:
        return False
    return bool(is_leaf(path, x) if takes_path else is_leaf(x))


def flatten_with_path(tree: PyTree, is_leaf: Callable[..., bool] | None = None,
                      is_leaf_takes_path: bool = False
                      ) -> tuple[list[tuple[KeyPath, Any]], TreeDef]:
    """``([(path, leaf), ...], treedef)``: :func:`flatten`'s leaves, each with its key
    path (``jax.tree_util.tree_flatten_with_path``).  ``is_leaf(x)`` (or, with
    ``is_leaf_takes_path``, ``is_leaf(path, x)``) can stop the descent.

    >>> pairs, treedef = flatten_with_path({"b": (1.0, 2.0), "a": 3.0})
    >>> [(keystr(path), leaf) for path, leaf in pairs]
    [("['a']", 3.0), ("['b'][0]", 1.0), ("['b'][1]", 2.0)]
    >>> treedef
    PyTreeDef({'a': *, 'b': (*, *)})
    """
    pairs: list[tuple[KeyPath, Any]] = []

    def walk(path, x):
        # (flatten's descent, node for node, with the keys beside the children)
        node = type(x)
        if node is np.ndarray or _stops(is_leaf, is_leaf_takes_path, path, x):
            pairs.append((path, x))
            return _LEAF
        if node in _keyed:
            keyed, aux = _keyed[node](x)
            keys, children = zip(*keyed) if keyed else ((), ())
        elif node in _registry:
            children, aux = _registry[node][0](x)
            children = tuple(children)
            keys = _builtin_keys(node, aux, len(children)) or [
                FlattenedIndexKey(i) for i in range(len(children))]
        elif isinstance(x, tuple) and hasattr(node, "_fields"):  # a namedtuple
            node, aux, children = "namedtuple", node, tuple(x)
            keys = [GetAttrKey(f) for f in aux._fields]
        else:
            pairs.append((path, x))
            return _LEAF
        return TreeDef(node, aux, tuple([walk(path + (k,), c)
                                         for k, c in zip(keys, children)]))

    treedef = walk((), tree)
    return pairs, treedef


def leaves_with_path(tree: PyTree, is_leaf: Callable[..., bool] | None = None,
                     is_leaf_takes_path: bool = False) -> list[tuple[KeyPath, Any]]:
    """``[(path, leaf), ...]`` of ``tree`` (``jax.tree_util.tree_leaves_with_path``).

    >>> [(keystr(p), x) for p, x in leaves_with_path([1.0, {"k": 2.0}])]
    [('[0]', 1.0), ("[1]['k']", 2.0)]
    """
    return flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def map_with_path(f: Callable[..., Any], tree: PyTree, *rest: PyTree,
                  is_leaf: Callable[..., bool] | None = None,
                  is_leaf_takes_path: bool = False) -> PyTree:
    """:func:`tree_map` whose ``f`` also gets each leaf's key path first:
    ``f(path, leaf, *matching leaves of rest)`` (``jax.tree_util.tree_map_with_path``).

    >>> params = {"w": 2.0, "b": 1.0}
    >>> map_with_path(lambda path, x: 0.0 if keystr(path) == "['b']" else x, params)
    {'b': 0.0, 'w': 2.0}
    """
    pairs, treedef = flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    others = [_flatten_up_to(treedef, r, i + 1) for i, r in enumerate(rest)]
    return unflatten(treedef, [f(path, x, *xs) for (path, x), *xs
                               in zip(pairs, *others)] if others else
                     [f(path, x) for path, x in pairs])


def _simple(key: KeyEntry) -> str:
    for cls, attr in ((DictKey, "key"), (SequenceKey, "idx"), (GetAttrKey, "name"),
                      (FlattenedIndexKey, "key")):
        if isinstance(key, cls):
            return str(getattr(key, attr))
    return str(key)


def keystr(keys: KeyPath, *, simple: bool = False, separator: str = "") -> str:
    """A key path as text: ``"['w'][0].x"``; with ``simple=True`` the bare keys joined by
    ``separator`` (``"w/0/x"`` with ``separator="/"``), as ``jax.tree_util.keystr``.

    >>> path = (DictKey("w"), SequenceKey(0), GetAttrKey("x"))
    >>> keystr(path), keystr(path, simple=True, separator="/")
    ("['w'][0].x", 'w/0/x')
    """
    return separator.join(_simple(k) if simple else str(k) for k in keys)


def register_pytree_with_keys(
        nodetype: type,
        flatten_with_keys: Callable[[Any], tuple[Iterable[tuple[KeyEntry, Any]], Any]],
        unflatten_func: Callable[[Any, Iterable[Any]], Any],
        flatten_func: Callable[[Any], tuple[Iterable[Any], Any]] | None = None) -> None:
    """Make ``nodetype`` a pytree node whose children have keys:
    ``flatten_with_keys(obj) -> ([(key, child), ...], aux)``; ``flatten_func`` (the same
    without keys, faster) is derived when not given (``jax.tree_util``'s).

    >>> class Pair:
    ...     def __init__(self, a, b): self.a, self.b = a, b
    >>> register_pytree_with_keys(
    ...     Pair, lambda p: (((GetAttrKey("a"), p.a), (GetAttrKey("b"), p.b)), None),
    ...     lambda aux, children: Pair(*children))
    >>> [keystr(path) for path, _ in leaves_with_path([Pair(1.0, 2.0)])]
    ['[0].a', '[0].b']
    """
    if flatten_func is None:
        def flatten_func(obj):
            pairs, aux = flatten_with_keys(obj)
            return [child for _, child in pairs], aux
    register(nodetype, flatten_func, unflatten_func)
    _keyed[nodetype] = flatten_with_keys


def register_pytree_with_keys_class(cls: type) -> type:
    """Class decorator: ``cls.tree_flatten_with_keys(self) -> ([(key, child), ...], aux)``
    and the classmethod ``cls.tree_unflatten(aux, children)`` (and optionally
    ``tree_flatten``) make it a pytree node with keys (JAX's decorator).

    >>> @register_pytree_with_keys_class
    ... class Scaled:
    ...     def __init__(self, x, k): self.x, self.k = x, k
    ...     def tree_flatten_with_keys(self): return ((GetAttrKey("x"), self.x),), self.k
    ...     @classmethod
    ...     def tree_unflatten(cls, k, children): return cls(children[0], k)
    >>> leaves_with_path(Scaled(1.5, "k"))
    [((GetAttrKey(name='x'),), 1.5)]
    """
    for name in ("tree_flatten_with_keys", "tree_unflatten"):
        if not hasattr(cls, name):
            raise TypeError(f"register_pytree_with_keys_class: {cls.__name__} has no {name}; "
                            f"define tree_flatten_with_keys(self) -> ([(key, child), ...], "
                            f"aux) and the classmethod tree_unflatten(cls, aux, children)")
    flat = getattr(cls, "tree_flatten", None)
    register_pytree_with_keys(cls, lambda obj: obj.tree_flatten_with_keys(),
                              getattr(cls, "tree_unflatten"),
                              None if flat is None else (lambda obj: obj.tree_flatten()))
    return cls


def register_dataclass(nodetype: type, data_fields: Sequence[str] | None = None,
                       meta_fields: Sequence[str] | None = None,
                       drop_fields: Sequence[str] = ()) -> type:
    """Make a dataclass a pytree node: its ``data_fields`` are children (keyed by
    :class:`GetAttrKey`), its ``meta_fields`` static (in the structure; they must be
    hashable), and ``drop_fields`` left out (fields with ``init=False``, which the class
    computes itself).  Without the lists, fields marked ``field(metadata={"static":
    True})`` are meta, the rest data (as ``jax.tree_util.register_dataclass``).  Usable
    as a decorator.

    >>> @register_dataclass
    ... @dataclasses.dataclass
    ... class Layer:
    ...     w: float
    ...     act: str = dataclasses.field(default="tanh", metadata={"static": True})
    >>> flatten(Layer(2.0))
    ([2.0], PyTreeDef(Layer[('tanh',)](*)))
    >>> leaves_with_path(Layer(2.0))
    [((GetAttrKey(name='w'),), 2.0)]
    """
    if data_fields is None and meta_fields is None:
        if not dataclasses.is_dataclass(nodetype):
            raise TypeError(f"register_dataclass: {nodetype.__name__} is not a dataclass; "
                            f"decorate it with @dataclasses.dataclass first, or pass "
                            f"data_fields= and meta_fields=")
        fields = [f for f in dataclasses.fields(nodetype)
                  if f.init and f.name not in drop_fields]
        data_fields = [f.name for f in fields if not f.metadata.get("static", False)]
        meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
    data, meta = tuple(data_fields or ()), tuple(meta_fields or ())

    def flatten_with_keys(obj):
        return ([(GetAttrKey(n), getattr(obj, n)) for n in data],
                tuple(getattr(obj, n) for n in meta))

    def flatten_fn(obj):
        return [getattr(obj, n) for n in data], tuple(getattr(obj, n) for n in meta)

    def unflatten_fn(aux, children):
        return nodetype(**dict(zip(data, children)), **dict(zip(meta, aux)))

    register_pytree_with_keys(nodetype, flatten_with_keys, unflatten_fn, flatten_fn)
    return nodetype


def register_static(cls: type) -> type:
    """Make ``cls`` a pytree node with no children: its objects are part of the
    structure (compared and hashed with it), never leaves, so transforms pass them
    through untouched (``jax.tree_util.register_static``).  Its objects must be hashable.
    Usable as a decorator.

    >>> @register_static
    ... @dataclasses.dataclass(frozen=True)
    ... class Config:
    ...     act: str
    >>> flatten([Config("tanh"), 2.0])
    ([2.0], PyTreeDef([Config[Config(act='tanh')](), *]))
    """
    register(cls, lambda obj: ((), obj), lambda obj, _: obj)
    return cls

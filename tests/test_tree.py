"""fg.tree against JAX's pytree API (jax.tree / jax.tree_util): orders, structures, the
names JAX users reach for.  Expected values written out by hand."""
import collections
import dataclasses

import numpy as np
import pytest

import funcgrad as fg

T = fg.tree
NT = collections.namedtuple("NT", "b a")


def test_leaves_orders_and_none_and_empty_containers():
    assert T.leaves({"b": 1, "a": 2, "c": {"y": 3, "x": 4}}) == [2, 1, 4, 3]
    assert T.leaves(collections.OrderedDict([("b", 1), ("a", 2)])) == [1, 2]  # insertion
    assert T.leaves(collections.defaultdict(list, {"z": 1, "a": 2})) == [2, 1]
    assert T.leaves(NT(1, 2)) == [1, 2]  # field order
    assert T.leaves([(), {}, [None, ()], 5]) == [5]
    assert T.structure(None).num_leaves == 0
    assert T.leaves([(1, 2), [3, (4,)]], is_leaf=lambda x: isinstance(x, tuple)) == [
        (1, 2), 3, (4,)]


def test_structure_repr_shows_keys_and_kinds():
    assert repr(T.structure({"b": [1, 2], "a": (None, 3)})) == (
        "PyTreeDef({'a': (None, *), 'b': [*, *]})")
    assert repr(T.structure(NT(1, (2,)))) == "PyTreeDef(NT(b=*, a=(*,)))"
    assert T.structure(NT(1, 2)) != T.structure((1, 2))
    assert T.structure({"a": 1, "b": 2}) == T.structure({"b": 3, "a": 4})
    assert T.structure((1, [2])).unflatten([5, 6]) == (5, [6])


def test_unflatten_wrong_leaf_counts_raise():
    treedef = T.structure((1, 2))
    with pytest.raises(ValueError, match="too few leaves"):
        T.unflatten(treedef, [1])
    with pytest.raises(ValueError, match="3 leaves for the tree structure"):
        T.unflatten(treedef, [1, 2, 3])


def test_map_with_is_leaf_prefix_trees_and_named_differences():
    tree = [(1, 2), [3, (4,)]]
    assert T.map(lambda x: len(x) if isinstance(x, tuple) else x, tree,
                 is_leaf=lambda x: isinstance(x, tuple)) == [2, [3, 1]]
    # the other trees may hold subtrees where the first holds leaves
    assert T.map(lambda a, b: (a, b), [1, 2], [(3, 4), 5]) == [(1, (3, 4)), (2, 5)]
    assert T.map(lambda x: x * 2, [None, 1]) == [None, 2]
    with pytest.raises(ValueError, match=r"structures differ.*\['b'\].*\{'d': \*\}"):
        T.map(lambda a, b: a, {"a": 1, "b": {"c": 1}}, {"a": 1, "b": {"d": 1}})
    with pytest.raises(ValueError, match="structures differ"):
        T.tree_map(lambda a, b: a, [1, 2], (1, 2))


def test_reduce_all_leaves_transpose():
    assert T.reduce(lambda a, b: a + b, [1, (2, 3)]) == 6
    assert T.reduce(lambda a, b: a + b, [1, (2, 3)], 10) == 16
    assert T.reduce(max, [], 0) == 0
    assert T.all_leaves([1.0, np.ones(2)]) and not T.all_leaves([1.0, (2.0,)])
    assert not T.all_leaves([None])
    outer, inner = T.structure([0, 0]), T.structure({"x": 0, "y": 0})
    assert T.transpose(outer, inner, [{"x": 1, "y": 2}, {"x": 3, "y": 4}]) == {
        "x": [1, 3], "y": [2, 4]}
    assert T.transpose(outer, None, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])


def test_registration_apis():
    class Box:
        def __init__(self, v):
            self.v = v

    T.register_pytree_node(Box, lambda b: ((b.v,), None), lambda aux, ch: Box(*ch))
    assert T.map(lambda v: v + 1, Box(1)).v == 2

    @T.register_pytree_node_class
    class Scaled:
        def __init__(self, x, k):
            self.x, self.k = x, k

        def tree_flatten(self):
            return (self.x,), self.k

        @classmethod
        def tree_unflatten(cls, k, children):
            return cls(children[0], k)

    out = T.map(lambda v: v * 10, Scaled(1.5, "k"))
    assert (out.x, out.k) == (15.0, "k")
    with pytest.raises(TypeError, match="no tree_flatten"):
        T.register_pytree_node_class(type("Bare", (), {}))


def test_register_dataclass_flows_through_jit_and_grad():
    @T.register_dataclass
    @dataclasses.dataclass
    class Layer:
        w: np.ndarray
        b: float
        name: str = dataclasses.field(default="x", metadata={"static": True})

    layer = Layer(np.array([1.0, 2.0]), 3.0, "q")
    leaves, treedef = T.flatten(layer)
    assert leaves[1] == 3.0 and treedef.num_leaves == 2
    assert T.structure(Layer(np.ones(2), 1.0, "other")) != treedef  # meta is structure
    np.testing.assert_array_equal(fg.jit(lambda p: p.w * p.b, wait=True)(layer), [3.0, 6.0])
    g = fg.grad(lambda p: np.sum(p.w) * p.b)(layer)
    assert isinstance(g, Layer) and g.name == "q" and float(g.b) == 3.0
    np.testing.assert_array_equal(g.w, [3.0, 3.0])

    @dataclasses.dataclass
    class Pair:
        x: float
        y: float
    T.register_dataclass(Pair, data_fields=["x"], meta_fields=["y"])
    assert T.leaves(Pair(1.0, 2.0)) == [1.0]
    with pytest.raises(TypeError, match="not a dataclass"):
        T.register_dataclass(type("Plain", (), {}))

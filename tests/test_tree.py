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


def test_array_children_are_leaves_whatever_is_leaf_says_and_rebuild_in_place():
    a, b, c = np.ones(2), np.zeros(1), np.arange(3.0)
    tree = {"p": NT(a, [b, None]), "q": (c,)}
    for is_leaf in (None, lambda x: False, lambda x: isinstance(x, np.ndarray)):
        leaves, treedef = T.flatten(tree, is_leaf=is_leaf)
        assert [id(v) for v in leaves] == [id(a), id(b), id(c)]
        assert repr(treedef) == "PyTreeDef({'p': NT(b=*, a=[*, None]), 'q': (*,)})"
        back = T.unflatten(treedef, leaves)
        assert type(back["p"]) is NT and back["p"].b is a and back["p"].a[0] is b
        assert back["p"].a[1] is None and back["q"][0] is c
    assert T.unflatten(T.structure([1, (2,)]), (7, 8)) == [7, (8,)]  # a tuple of leaves
    # a node of leaves only is rebuilt from the leaves, never holding the caller's list
    leaves = [1.0, 2.0]
    kept = T.unflatten(T.structure(["a", "b"]), leaves)
    leaves[0] = 9.0
    assert kept == [1.0, 2.0] and T.unflatten(T.structure(NT(0, 0)), leaves) == NT(9.0, 2.0)


def test_a_dict_of_arrays_has_the_structure_of_a_dict_of_leaves_and_rebuilds_as_one():
    w, b = np.ones((2, 3)), np.zeros(3)
    leaves, treedef = T.flatten({"w": w, "b": b})
    assert leaves[0] is b and leaves[1] is w  # sorted keys
    general = T.structure({"w": 1.0, "b": 2.0})  # (floats: the general construction)
    assert treedef == general and hash(treedef) == hash(general)
    assert treedef.num_leaves == 2 and repr(treedef) == "PyTreeDef({'b': *, 'w': *})"
    assert treedef.node_data() == (dict, ("b", "w")) and treedef.children() == (
        general.children())
    back = T.unflatten(treedef, [7.0, 8.0])
    assert back == {"b": 7.0, "w": 8.0} and type(back) is dict
    assert T.unflatten(treedef, iter([5.0, 6.0])) == {"b": 5.0, "w": 6.0}
    with pytest.raises(ValueError, match="3 leaves"):
        T.unflatten(treedef, [1.0, 2.0, 3.0])
    # other nodes of arrays keep their own types
    assert T.unflatten(T.structure((w, b)), [1, 2]) == (1, 2)
    assert T.unflatten(T.flatten(NT(w, b))[1], [1, 2]) == NT(1, 2)
    od = T.unflatten(T.flatten(collections.OrderedDict([("z", w), ("a", b)]))[1], [1, 2])
    assert type(od) is collections.OrderedDict and list(od.items()) == [("z", 1), ("a", 2)]
    g = fg.grad(lambda p: np.sum(p["w"]) * np.sum(p["b"] + 1.0))({"w": w, "b": b})
    assert type(g) is dict and sorted(g) == ["b", "w"]  # d/dw = sum(b + 1), d/db = sum(w)
    np.testing.assert_array_equal(g["w"], np.full((2, 3), 3.0))
    np.testing.assert_array_equal(g["b"], np.full(3, 6.0))


def test_children_of_arrays_flatten_in_order_whatever_container_gives_them():
    """A node whose children are all arrays, some of them, or given by a generator (a
    registered node's flatten may return one): the same leaves in the same order, and the
    structure of the same node with other leaves."""
    a, b, c = np.zeros(1), np.ones(2), np.full(3, 2.0)
    f = 1.0
    for tree, general, expected in (
            ((a, b, c), (5.0, 5.0, 5.0), [a, b, c]), ([a, b], [5.0, 5.0], [a, b]),
            ((a, f, b), (5.0, 5.0, 5.0), [a, f, b]), ((a, (b, c)), (5.0, (5.0, 5.0)), [a, b, c]),
            ({"y": [b, f], "x": a}, {"x": 5.0, "y": [5.0, 5.0]}, [a, b, f]),
            ((), (), []), ({}, {}, [])):
        leaves, treedef = T.flatten(tree)
        assert treedef == T.structure(general) and hash(treedef) == hash(T.structure(general))
        assert treedef.num_leaves == len(expected)
        assert [id(v) for v in leaves] == [id(v) for v in expected], tree
        back = T.unflatten(treedef, [7.0] * len(expected))
        assert type(back) is type(tree) and len(back) == len(tree)

    class Pair:
        def __init__(self, first, second):
            self.first, self.second = first, second

    T.register(Pair, lambda p: ((x for x in (p.first, p.second)), None),
               lambda _, ch: Pair(*ch))
    leaves, treedef = T.flatten(Pair(a, b))
    assert leaves[0] is a and leaves[1] is b and treedef.num_leaves == 2
    back = T.unflatten(treedef, [c, a])
    assert back.first is c and back.second is a


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


# --- key paths (jax.tree_util.tree_flatten_with_path and friends) ---------------------------

def test_flatten_with_path_names_every_leaf_as_jax_does():
    tree = {"b": [1.0, NT(2.0, 3.0)], "a": collections.OrderedDict(z=4.0, y=5.0), "n": None}
    pairs, treedef = T.flatten_with_path(tree)
    assert treedef == T.structure(tree)
    assert [leaf for _, leaf in pairs] == T.leaves(tree)
    assert [T.keystr(path) for path, _ in pairs] == [
        "['a']['z']", "['a']['y']", "['b'][0]", "['b'][1].b", "['b'][1].a"]
    assert [T.keystr(p, simple=True, separator="/") for p, _ in pairs] == [
        "a/z", "a/y", "b/0", "b/1/b", "b/1/a"]
    assert pairs[3][0] == (T.DictKey("b"), T.SequenceKey(1), T.GetAttrKey("b"))
    assert T.tree_flatten_with_path is T.flatten_with_path
    assert T.leaves_with_path([1.0, (2.0,)]) == [((T.SequenceKey(0),), 1.0),
                                                 ((T.SequenceKey(1), T.SequenceKey(0)), 2.0)]
    # a node registered without keys: its children are numbered
    class Box:
        def __init__(self, a, b):
            self.a, self.b = a, b
    T.register_pytree_node(Box, lambda x: ((x.a, x.b), None), lambda _, ch: Box(*ch))
    assert [T.keystr(p) for p, _ in T.leaves_with_path([Box(1.0, 2.0)])] == [
        "[0][<flat index 0>]", "[0][<flat index 1>]"]


def test_flatten_with_path_stops_where_is_leaf_says_with_or_without_the_path():
    tree = [1.0, (2.0, 3.0), {"k": (4.0,)}]
    pairs, treedef = T.flatten_with_path(tree, is_leaf=lambda x: isinstance(x, tuple))
    assert [(T.keystr(p), x) for p, x in pairs] == [
        ("[0]", 1.0), ("[1]", (2.0, 3.0)), ("[2]['k']", (4.0,))]
    assert treedef == T.structure(tree, is_leaf=lambda x: isinstance(x, tuple))
    # with the path: only the tuple at the top level stops the descent
    pairs, _ = T.flatten_with_path(tree, is_leaf=lambda p, x: len(p) == 1 and isinstance(
        x, tuple), is_leaf_takes_path=True)
    assert [T.keystr(p) for p, _ in pairs] == ["[0]", "[1]", "[2]['k'][0]"]


def test_map_with_path_passes_the_path_first_and_takes_more_trees():
    params = {"w": np.array([1.0, 2.0]), "b": np.array([3.0])}
    decayed = T.map_with_path(lambda p, x: x * 0.5 if p[-1].key == "w" else x, params)
    np.testing.assert_array_equal(decayed["w"], [0.5, 1.0])
    np.testing.assert_array_equal(decayed["b"], [3.0])
    out = T.tree_map_with_path(lambda p, x, y: (T.keystr(p), x + y), {"a": 1, "b": 2},
                               {"a": 10, "b": 20})
    assert out == {"a": ("['a']", 11), "b": ("['b']", 22)}
    with pytest.raises(ValueError, match="structures differ"):
        T.map_with_path(lambda p, x, y: x, [1, 2], [1])


def test_register_pytree_with_keys_and_dataclass_keys():
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b
    T.register_pytree_with_keys(
        Pair, lambda p: (((T.GetAttrKey("a"), p.a), (T.GetAttrKey("b"), p.b)), None),
        lambda aux, children: Pair(*children))
    assert T.leaves(Pair(1.0, 2.0)) == [1.0, 2.0]
    assert [T.keystr(p) for p, _ in T.leaves_with_path({"p": Pair(1.0, 2.0)})] == [
        "['p'].a", "['p'].b"]
    assert T.map(lambda v: v * 2, Pair(1.0, 2.0)).b == 4.0

    @T.register_pytree_with_keys_class
    class Scaled:
        def __init__(self, x, k):
            self.x, self.k = x, k

        def tree_flatten_with_keys(self):
            return ((T.GetAttrKey("x"), self.x),), self.k

        @classmethod
        def tree_unflatten(cls, k, children):
            return cls(children[0], k)
    assert T.keystr(T.leaves_with_path(Scaled(1.5, "k"))[0][0]) == ".x"
    assert T.map(lambda v: v + 1, Scaled(1.5, "k")).x == 2.5

    @T.register_dataclass
    @dataclasses.dataclass
    class Layer:
        w: float
        act: str = dataclasses.field(default="tanh", metadata={"static": True})
        n: int = dataclasses.field(default=0, init=False)
    assert T.leaves_with_path(Layer(2.0)) == [((T.GetAttrKey("w"),), 2.0)]

    @dataclasses.dataclass
    class Opt:
        lr: float
        cache: float = 0.0
    T.register_dataclass(Opt, drop_fields=["cache"])
    assert T.leaves(Opt(0.1, 9.0)) == [0.1]
    assert T.map(lambda v: v * 10, Opt(0.1, 9.0)).cache == 0.0  # (dropped: the default)


def test_register_static_objects_are_structure_not_leaves():
    @T.register_static
    @dataclasses.dataclass(frozen=True)
    class Config:
        act: str

    tree = {"cfg": Config("tanh"), "w": np.array([1.0, 2.0])}
    leaves, treedef = T.flatten(tree)
    assert len(leaves) == 1 and T.unflatten(treedef, [0.0])["cfg"] == Config("tanh")
    assert T.structure({"cfg": Config("relu"), "w": 0.0}) != treedef
    g = fg.grad(lambda p: np.sum(p["w"] ** 2) if p["cfg"].act == "tanh" else 0.0)(tree)
    assert g["cfg"] == Config("tanh")
    np.testing.assert_array_equal(g["w"], [2.0, 4.0])


def test_tree_all_and_jax_tree_util_aliases():
    assert T.all([True, (1, 2.0)]) and not T.tree_all({"a": 1, "b": 0})
    assert T.all([]) and T.all([None])
    tree = {"b": [1, 2], "a": 3}
    leaves, treedef = T.tree_flatten(tree)
    assert leaves == [3, 1, 2] and T.tree_leaves(tree) == leaves
    assert T.tree_unflatten(treedef, [4, 5, 6]) == {"a": 4, "b": [5, 6]}
    assert T.tree_structure(tree) == treedef
    assert T.tree_reduce(lambda a, b: a + b, tree, 10) == 16
    assert T.tree_transpose(T.structure([0, 0]), None, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])


def test_partial_is_a_pytree_through_grad_vmap_and_jit():
    scale = T.Partial(np.multiply, 3.0)
    assert scale(2.0) == 6.0 and T.leaves(scale) == [3.0]
    assert T.structure(scale) == T.structure(T.Partial(np.multiply, 5.0))
    # the gradient with respect to the bound argument, as a Partial of the same function
    g = fg.grad(lambda s: s(2.0))(scale)
    assert isinstance(g, T.Partial) and g.func is np.multiply and float(g.args[0]) == 2.0
    out = fg.vmap(lambda s, x: s(x), in_axes=(None, 0))(scale, np.arange(3.0))
    np.testing.assert_array_equal(out, [0.0, 3.0, 6.0])
    def affine(x, w, b=0.0):
        return w * x + b
    jitted = fg.jit(lambda f, x: f(x), wait=True)
    np.testing.assert_array_equal(jitted(T.Partial(affine, w=2.0, b=np.ones(2)), np.ones(2)),
                                  [3.0, 3.0])
    # a jitted function may return one (its bound arguments come back as arrays)
    made = fg.jit(lambda w: T.Partial(affine, w=w), wait=True)(np.float64(4.0))
    assert isinstance(made, T.Partial) and made(0.5) == 2.0
    assert repr(T.Partial(max, 1)).startswith("Partial(")


def test_one_level_helpers_broadcast_and_reduce_associative():
    tree = {"b": 1, "a": (2, 3)}
    assert T.flatten_one_level(tree) == ([(2, 3), 1], ("a", "b"))
    assert T.flatten_one_level((1, [2])) == ([1, [2]], None)
    with pytest.raises(ValueError, match="is a leaf"):
        T.flatten_one_level(1.0)
    treedef = T.structure(tree)
    assert T.treedef_children(treedef) == [T.structure((0, 0)), T.structure(0)]
    assert treedef.num_nodes == 5 and treedef.node_data() == (dict, ("a", "b"))
    assert T.structure(1.0).node_data() is None
    assert T.treedef_is_leaf(T.structure(1.0)) and T.treedef_is_leaf(T.structure(None))
    assert not T.treedef_is_leaf(treedef)
    assert treedef.flatten_up_to({"a": ([1], 2), "b": 3}) == [[1], 2, 3]
    assert T.broadcast((1, 2), ((3, 4), {"a": 5})) == ((1, 1), {"a": 2})
    with pytest.raises(ValueError, match="structures differ"):
        T.tree_broadcast([1, None], [(3, 4), 5])
    # pairwise: ((1 - 2) - (3 - 4)) - 5 = -5, where a left fold gives -13
    assert T.reduce_associative(lambda a, b: a - b, [1, 2, 3, 4, 5]) == -5
    assert T.tree_reduce_associative(lambda a, b: a + b, [], identity=0) == 0
    with pytest.raises(ValueError, match="identity="):
        T.reduce_associative(lambda a, b: a + b, [])


def test_treedef_methods_as_jax_pytreedef():
    # JAX: children() is a method returning a list; num_leaves/num_nodes are properties;
    # structures compare and hash by value and survive pickling
    import pickle
    treedef = T.structure({"b": 3, "a": (1, 2)})
    assert treedef.children() == [T.structure((0, 0)), T.structure(0)]
    assert T.structure(1.0).children() == []
    assert treedef.num_leaves == 3 and treedef.num_nodes == 5
    assert treedef.unflatten([4, 5, 6]) == {"a": (4, 5), "b": 6}
    again = pickle.loads(pickle.dumps(treedef))
    assert again == treedef and hash(again) == hash(treedef)
    assert again.unflatten([1, 2, 3]) == {"a": (1, 2), "b": 3}
    assert treedef != T.structure({"a": (1, 2), "c": 3})

"""fg.tree.ravel: one flat vector from a pytree, and back, differentiably (JAX's
ravel_pytree)."""
from collections import namedtuple

import numpy as np
import pytest

import funcgrad as fg

Pair = namedtuple("Pair", "a b")


def _tree():
    return {"w": np.arange(6.0).reshape(2, 3), "rest": [Pair(np.float32(7.0), np.ones(2)),
                                                       None, (np.array([[8.0]]),)]}


def test_flat_holds_the_leaves_in_order_and_unravel_restores_everything():
    params = _tree()
    flat, unravel = fg.tree.ravel(params)
    np.testing.assert_array_equal(flat, [7.0, 1.0, 1.0, 8.0, 0, 1, 2, 3, 4, 5])
    assert flat.dtype == np.float64 and flat.ndim == 1
    back = unravel(flat)
    assert fg.tree.flatten(back)[1] == fg.tree.flatten(params)[1]
    for a, b in zip(fg.tree.leaves(back), fg.tree.leaves(params)):
        assert np.shape(a) == np.shape(b) and np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_array_equal(a, b)
    assert isinstance(back["rest"][0], Pair) and back["rest"][1] is None


def test_common_dtype_and_per_leaf_dtypes():
    flat, unravel = fg.tree.ravel((np.ones(2, np.float32), np.array([1, 2], np.int32)))
    assert flat.dtype == np.float64                       # np.result_type(float32, int32)
    a, b = unravel(flat + 0.25)
    assert a.dtype == np.float32 and b.dtype == np.int32
    flat32, _ = fg.tree.ravel([np.ones(2, np.float32), np.zeros((1, 1), np.float32)])
    assert flat32.dtype == np.float32


def test_unravel_returns_new_arrays():
    flat, unravel = fg.tree.ravel({"a": np.zeros(2)})
    unravel(flat)["a"][0] = 5.0
    assert flat[0] == 0.0


def test_gradients_flow_through_ravel_and_unravel():
    params = {"w": np.array([[1.0, 2.0]]), "b": np.array(3.0)}
    flat, unravel = fg.tree.ravel(params)

    def loss_flat(f):
        p = unravel(f)
        return np.sum(p["w"] ** 2) * p["b"]

    np.testing.assert_allclose(fg.grad(loss_flat)(flat), [5.0, 6.0, 12.0])  # b first
    # and the other way: the gradient of a function of the tree, through ravel
    g = fg.grad(lambda p: np.sum(fg.tree.ravel(p)[0] ** 3))(params)
    np.testing.assert_allclose(g["w"], 3 * params["w"] ** 2)
    np.testing.assert_allclose(g["b"], 27.0)
    # second order, and under jit
    h = fg.hessian(loss_flat)(flat)
    np.testing.assert_allclose(h, [[0, 2, 4], [2, 6, 0], [4, 0, 6]])


def test_empty_tree():
    flat, unravel = fg.tree.ravel({"a": None, "b": ()})
    assert flat.shape == (0,) and flat.dtype == np.float64
    assert unravel(flat) == {"a": None, "b": ()}


@pytest.mark.parametrize("bad, error, match", [
    (np.zeros(3), ValueError, r"1-D array of 4 elements.*shape \(3,\)"),
    (np.zeros((2, 2)), ValueError, "1-D array of 4 elements"),
    (np.zeros(4, np.float32), TypeError, r"dtype float64.*astype\(np.float64\)"),
])
def test_unravel_names_a_wrong_input(bad, error, match):
    _, unravel = fg.tree.ravel({"a": np.zeros(3), "b": 1.0})
    with pytest.raises(error, match=match):
        unravel(bad)


def test_non_numeric_leaves_are_named():
    with pytest.raises(TypeError, match="leaf 1 .*str.* is not numeric"):
        fg.tree.ravel([1.0, "lr"])

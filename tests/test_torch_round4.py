"""PyTorch's conventions the side-by-side runs of session 16 found funcgrad's Tensor
breaking: ``shape`` / ``size()`` as a ``torch.Size``-like tuple, the names of the
``AccumulateGrad`` and ``CopySlices`` nodes, PyTorch's warnings (a Tensor that requires
grad made a Python number, ``backward(create_graph=True)``, ``tensor(a_tensor)``), and
what a hook may return.  Where the behaviour is PyTorch's own, the test runs on funcgrad
and, where it is installed, on torch (the ``lib`` fixture)."""
import pickle
import re
import warnings

import numpy as np
import pytest

import funcgrad as fg
from helpers import leaf, values


# --- shape and size(): a Size ------------------------------------------------------------------

def test_shape_is_a_size_that_is_still_a_tuple():
    x = fg.ones(2, 3, 4)
    s = x.shape
    assert type(s) is fg.Size and isinstance(s, tuple)
    assert repr(s) == "fg.Size([2, 3, 4])"
    assert s == (2, 3, 4) and (2, 3, 4) == s and hash(s) == hash((2, 3, 4))
    assert s == x.size() and type(x.size()) is fg.Size
    assert s.numel() == 24 == x.size().numel() and fg.Size(()).numel() == 1
    a, b, c = s
    assert (a, b, c, s[0], s[-1], len(s)) == (2, 3, 4, 2, 4, 3)


def test_size_slices_sums_and_repeats_are_sizes():
    s = fg.ones(2, 3, 4).shape
    for got, want in ((s[1:], (3, 4)), (s[::-1], (4, 3, 2)), (s + (5,), (2, 3, 4, 5)),
                      ((1,) + s, (1, 2, 3, 4)), (s[:1] * 2, (2, 2)), (2 * s[:1], (2, 2))):
        assert type(got) is fg.Size and got == want
    assert type(s[0]) is int


def test_size_works_wherever_a_tuple_shape_does():
    s = fg.ones(2, 3).shape
    assert np.zeros(s).shape == (2, 3)
    assert fg.zeros(s).shape == (2, 3) and fg.ones(6).reshape(s).shape == (2, 3)
    assert fg.ones(6).view(s[::-1]).shape == (3, 2)
    back = pickle.loads(pickle.dumps(s))
    assert type(back) is fg.Size and back == (2, 3)
    # str() and f-strings (error messages that name a shape) show the plain tuple
    assert str(s) == "(2, 3)" and f"{s}" == "(2, 3)"


def test_shape_size_like_torch(lib):
    x = lib.ones(2, 3, 4)
    assert type(x.shape).__name__ == "Size" and type(x.shape[1:]).__name__ == "Size"
    assert x.shape.numel() == 24 and x.shape[1:] == (3, 4) and x.size(1) == 3


# --- node names --------------------------------------------------------------------------------

def test_accumulate_grad_node_has_torchs_name(lib):
    x = leaf(lib)
    node, nr = (x * 2).grad_fn.next_functions[0]
    assert node.name() == "torch::autograd::AccumulateGrad" and nr == 0
    assert type(node).__name__ == "AccumulateGrad" and node.variable is x


def test_update_through_a_view_is_copy_slices_with_the_right_gradients(lib):
    x = leaf(lib)
    y = x * 1
    y[1:].mul_(3)
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    (y * y).sum().backward()
    # y = (x0, 3 x1, 3 x2): d sum(y^2) / dx = (2 x0, 18 x1, 18 x2)
    np.testing.assert_allclose(values(x.grad), [2.0, 36.0, 54.0])


def test_setitem_names_copy_slices_for_basic_and_index_put_for_advanced_keys(lib):
    x = leaf(lib)
    y = x * 1
    y[0] = 10.0
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    z = x * 1
    z[lib.tensor([True, False, True])] = 0.0
    assert z.grad_fn.name() == "IndexPutBackward0"
    w = x * 1
    w.index_put_((lib.tensor([1]),), lib.tensor(5.0))
    assert w.grad_fn.name() == "IndexPutBackward0"
    (y.sum() + z.sum() + w.sum()).backward()
    # y drops x0, z drops x0 and x2, w drops x1
    np.testing.assert_allclose(values(x.grad), [1.0, 2.0, 2.0])


# --- PyTorch's warnings ------------------------------------------------------------------------

def _messages(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def test_a_tensor_requiring_grad_made_a_number_warns():
    # (funcgrad only: PyTorch warns once a process, so its run depends on the tests before)
    lib = fg
    x = lib.tensor(2.5, requires_grad=True)
    got = _messages(lambda: float(x * 2))
    assert len(got) == 1 and got[0].startswith(
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
        "behavior.")
    assert _messages(lambda: float(lib.tensor(2.5))) == []
    assert _messages(lambda: (x * 2).item()) == []


def test_backward_with_create_graph_warns_and_autograd_grad_does_not():
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    got = _messages(lambda: (x ** 3).sum().backward(create_graph=True))
    assert len(got) == 1 and "create_graph=True will create a reference cycle" in got[0]
    np.testing.assert_allclose(values(x.grad), [3.0, 12.0])
    assert _messages(lambda: fg.autograd.grad((x ** 3).sum(), x, create_graph=True)) == []
    assert _messages(lambda: (x ** 3).sum().backward()) == []


def test_tensor_of_a_tensor_warns_and_copies(lib):
    x = leaf(lib)
    got = []

    def make():
        got.append(lib.tensor(x))
    messages = _messages(make)
    assert len(messages) == 1 and messages[0].startswith(
        "To copy construct from a tensor, it is recommended to use "
        "sourceTensor.detach().clone()")
    assert not got[0].requires_grad and got[0].is_leaf
    np.testing.assert_array_equal(values(got[0]), [1.0, 2.0, 3.0])


# --- what hooks return -------------------------------------------------------------------------

def test_a_hook_returning_a_number_is_a_type_error(lib):
    x = leaf(lib)
    x.register_hook(lambda g: 3)
    with pytest.raises(TypeError, match=re.escape("expected Variable, but hook returned 'int'")):
        x.sum().backward()


def test_a_post_accumulate_hook_returning_a_value_is_an_error(lib):
    x = leaf(lib)
    x.register_post_accumulate_grad_hook(lambda t: lib.zeros(3))
    with pytest.raises(RuntimeError, match="post accumulate grad hooks should return None"):
        (x * 3).sum().backward()


def test_a_post_accumulate_hook_returning_none_runs_after_each_accumulation(lib):
    x = leaf(lib)
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append(values(t.grad).copy()))
    (x * 3).sum().backward()
    (x * 3).sum().backward()
    np.testing.assert_array_equal(np.array(seen), [[3.0, 3.0, 3.0], [6.0, 6.0, 6.0]])


# --- shapes that do not broadcast: PyTorch's RuntimeError --------------------------------------

@pytest.mark.parametrize("shapes, sizes, dim", [(((2, 3), (2,)), (3, 2), 1),
                                                (((2, 3), (4, 1)), (2, 4), 0),
                                                (((2,), (3,)), (2, 3), 0)])
def test_operands_that_do_not_broadcast_raise_torchs_error(lib, shapes, sizes, dim):
    a, b = (lib.ones(*s, requires_grad=True) for s in shapes)
    message = (f"The size of tensor a ({sizes[0]}) must match the size of tensor b "
               f"({sizes[1]}) at non-singleton dimension {dim}")
    for op in (lambda: a + b, lambda: a * b, lambda: a.detach() - b.detach(), lambda: a > b):
        with pytest.raises(RuntimeError, match=re.escape(message)):
            op()


@pytest.mark.parametrize("shapes, sizes, dim", [(((2, 3), (3,), (2,)), (3, 2), 1),
                                                (((1, 3), (2, 1), (3, 3)), (2, 3), 0),
                                                (((5,), (2, 3), (2, 3)), (5, 3), 1),
                                                (((2,), (3,), ()), (2, 3), 0)])
def test_where_on_shapes_that_do_not_broadcast_raises_torchs_error(shapes, sizes, dim):
    # PyTorch broadcasts cond, input, other left to right: tensor a is what the operands
    # before the first misfit broadcast to
    cond = fg.ones(shapes[0]) > 0
    a, b = (fg.ones(s, requires_grad=True) for s in shapes[1:])
    message = (f"The size of tensor a ({sizes[0]}) must match the size of tensor b "
               f"({sizes[1]}) at non-singleton dimension {dim}")
    with pytest.raises(RuntimeError, match=re.escape(message)):
        fg.where(cond, a, b)
    with pytest.raises(ValueError, match="could not be broadcast"):
        fg.where(cond, a, b)
    if shapes[2] == ():
        with pytest.raises(RuntimeError, match=re.escape(message)):
            fg.where(cond, a, 0.0)


def test_where_broadcasts_three_shapes_that_fit():
    x = fg.ones(1, 3, requires_grad=True)
    y = fg.where(fg.ones(2, 1) > 0, x, fg.zeros(4, 1, 1))
    assert y.shape == (4, 2, 3)


def test_the_broadcast_error_is_also_numpys_value_error():
    with pytest.raises(ValueError, match="could not be broadcast"):
        fg.ones(2, 3) + fg.ones(2)

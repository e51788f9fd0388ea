"""The eager Tensor's plain backward walk (eager.walk): a graph without hooks, retained
grads, user rules or changed saved values runs without a call a node, its saved values
checked before and freed at each node's turn; PyTorch's errors keep their messages, and
code of the user's that runs during the walk still meets every check.  Expected values by
hand."""
import warnings

import numpy as np
import pytest

import funcgrad as fg
from funcgrad.autograd import Function


def test_backward_twice_without_retain_graph_raises_and_retain_graph_allows_it():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_a_saved_value_changed_in_place_raises_before_any_gradient_lands():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    a = x * 1.0
    y = (a * a).sum() + (x * 3.0).sum()
    with fg.no_grad():
        a.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
    assert x.grad is None


def test_a_user_rule_that_changes_a_saved_value_during_the_walk_is_caught():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    a = x * 1.0
    y = a * a  # saves a, and runs after the Function's backward

    class Bump(Function):
        @staticmethod
        def forward(ctx, t):
            return t * 1.0

        @staticmethod
        def backward(ctx, g):
            with fg.no_grad():
                a.add_(1.0)
            return g

    z = Bump.apply(y).sum()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.backward()


def test_grad_runs_only_the_nodes_that_lead_to_its_inputs():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    w = fg.Tensor([3.0], requires_grad=True)
    a = w * 1.0
    y = (x * x).sum() + (a * a).sum()
    with fg.no_grad():
        a.add_(1.0)  # a's square is not on the way to x: it neither runs nor raises
    gx, = fg.autograd.grad(y, x)
    np.testing.assert_array_equal(gx.numpy(), [2.0, 4.0])
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        fg.autograd.grad(y, w)


def test_a_hook_that_returns_nothing_leaves_the_gradient_bits_as_they_were():
    r = np.random.default_rng(0)
    value = r.standard_normal(6)

    def loss(t, hooked):
        h = (t * 1.5).tanh()
        if hooked:
            h.register_hook(lambda g: None)
        return ((h * t).exp() / 3.0).sum()
    grads = []
    for hooked in (False, True):
        for dtype in (np.float64, np.float32):
            x = fg.Tensor(value.astype(dtype), requires_grad=True)
            loss(x, hooked).backward()
            grads.append(x.grad.numpy().tobytes())
    assert grads[:2] == grads[2:]


def test_grad_of_every_leaf_and_of_one_leaf_agree():
    x = fg.Tensor([0.5, 1.0], requires_grad=True)
    w = fg.Tensor([2.0, -1.0], requires_grad=True)
    y = ((x * w).sin() * x).sum()
    gx, gw = fg.autograd.grad(y, [x, w], retain_graph=True)
    only_x, = fg.autograd.grad(y, x)
    # d/dx sin(xw) x = w cos(xw) x + sin(xw);  d/dw = x^2 cos(xw)
    xv, wv = np.array([0.5, 1.0]), np.array([2.0, -1.0])
    np.testing.assert_allclose(gx.numpy(), wv * np.cos(xv * wv) * xv + np.sin(xv * wv),
                               rtol=1e-6)
    np.testing.assert_allclose(gw.numpy(), xv ** 2 * np.cos(xv * wv), rtol=1e-6)
    assert gx.numpy().tobytes() == only_x.numpy().tobytes()


def test_a_floating_point_warning_after_a_named_nodes_inner_walk_names_its_node():
    x = fg.Tensor([0.0, 1.0], requires_grad=True)
    y = x.sqrt().mean()  # MeanBackward0 walks its own nodes before sqrt's rule runs
    assert y.grad_fn.name() == "MeanBackward0"
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        y.backward()
    assert [str(w.message) for w in seen] == [
        "divide by zero encountered in the backward of SqrtBackward0"]
    np.testing.assert_array_equal(x.grad.numpy(), [np.inf, 0.25])


def test_a_rule_that_raises_leaves_its_node_and_the_ones_below_intact(monkeypatch):
    """As PyTorch: the nodes that ran before the error are freed, the one that raised
    and the ones not reached are not.  A second pass through the node that raised
    raises its error again (not the freed-graph error), and once the rule works, that
    pass gives the right gradient; a pass through a node that ran says it was freed."""
    x = fg.Tensor([0.5, -1.0], requires_grad=True)
    a = x * x           # not reached by the failed pass: intact
    b = fg.tanh(a)      # its rule raises
    loss = (b * b).sum()  # its product ran before the error: freed
    tanh = b.grad_fn.prim
    working = tanh.vjp_plain

    def broken(*args):
        raise ValueError("the rule failed")
    monkeypatch.setattr(tanh, "vjp_plain", broken)
    with pytest.raises(ValueError, match="the rule failed"):
        loss.backward()
    assert x.grad is None
    with pytest.raises(ValueError, match="the rule failed"):
        b.backward(fg.ones(2))
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        loss.backward()
    monkeypatch.setattr(tanh, "vjp_plain", working)
    b.backward(fg.ones(2))
    xv = np.array([0.5, -1.0])
    np.testing.assert_allclose(x.grad.numpy(), 2 * xv * (1 - np.tanh(xv * xv) ** 2))
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        b.backward(fg.ones(2))

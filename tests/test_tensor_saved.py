"""What a node saved, under PyTorch's names (funcgrad.eager.saved).

Expectations are written by hand; the torch comparison is skipped without torch.
"""
import numpy as np
import pytest

import funcgrad as fg


def test_inputs_and_outputs_under_torch_names():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    c = fg.Tensor([3.0, 4.0])
    m = fg.ones(2, 2, requires_grad=True)
    y = x * x
    assert y.grad_fn._saved_self is x and y.grad_fn._saved_other is x
    y = x * c  # only x wants a gradient: the rule reads c, not x
    assert y.grad_fn._saved_self is None
    assert y.grad_fn._saved_other.tolist() == [3.0, 4.0]
    assert (x * 2).grad_fn._saved_other == 2
    p = x ** 2
    assert p.grad_fn._saved_self is x and p.grad_fn._saved_exponent == 2
    assert type(p.grad_fn._saved_exponent) is int
    assert (x ** c).grad_fn._saved_exponent.tolist() == [3.0, 4.0]
    assert (m @ m).grad_fn._saved_mat2 is m and (m @ m).grad_fn._saved_self is m
    for op in ("sin", "cos", "log"):
        assert getattr(x, op)().grad_fn._saved_self is x
    for op in ("exp", "tanh", "sigmoid", "sqrt"):
        out = getattr(x, op)()
        saved = out.grad_fn._saved_result
        assert saved is not out
        np.testing.assert_array_equal(saved.detach().numpy(), out.detach().numpy())
        assert saved.grad_fn is out.grad_fn
        with pytest.raises(AttributeError):
            out.grad_fn._saved_self  # not saved by this rule


def test_unknown_names_raise_attribute_error():
    y = fg.Tensor([1.0], requires_grad=True) * 2
    with pytest.raises(AttributeError, match="_saved_mat2"):
        y.grad_fn._saved_mat2
    with pytest.raises(AttributeError):
        (fg.Tensor([1.0], requires_grad=True) + 1).grad_fn._saved_self


def test_freed_values_raise_torch_error():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.sum().backward(retain_graph=True)
    assert y.grad_fn._saved_result.tolist() == pytest.approx(np.exp([1.0, 2.0]).tolist())
    y.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second"):
        y.grad_fn._saved_result
    with pytest.raises(RuntimeError, match="Calling register_hooks on a saved tensor after"):
        (x * x).grad_fn._raw_saved_self.register_hooks  # fine before backward
        z = x * x
        z.sum().backward()
        z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def test_in_place_change_raises_version_error():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    a = x * 1.0
    y = a.sin()
    a.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.grad_fn._saved_self


def test_raw_saved_hooks_pack_now_unpack_when_used():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    log = []
    y.grad_fn._raw_saved_self.register_hooks(
        lambda t: log.append("pack") or t.detach().numpy().copy(),
        lambda p: log.append("unpack") or fg.Tensor(p * 10))
    assert log == ["pack"]
    y.sum().backward()
    assert log == ["pack", "unpack"]
    # d/dx (self * other): other + self, with self unpacked as 10 x
    assert x.grad.tolist() == [11.0, 22.0]
    with pytest.raises(RuntimeError, match="once"):
        z = x * x
        z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
        z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def test_same_as_torch():
    torch = pytest.importorskip("torch")

    def run(mod):
        x = mod.tensor([1.0, 2.0], requires_grad=True)
        c = mod.tensor([3.0, 4.0])
        out = []
        for y, names in (((x * x), ("self", "other")), ((x * c), ("self", "other")),
                         (x ** 2, ("self", "exponent")), (x.exp(), ("result",)),
                         (x.sin(), ("self",)), (x.sqrt(), ("result",)),
                         (x.tanh(), ("result",)), (x.sigmoid(), ("result",))):
            for n in names:
                v = getattr(y.grad_fn, "_saved_" + n)
                out.append((n, v if v is None or isinstance(v, int)
                            else [round(e, 5) for e in v.tolist()], v is x))
        return out
    assert run(fg) == run(torch)


@pytest.mark.parametrize("method", ["softmax", "log_softmax"])
def test_softmax_saves_its_output_not_its_input(method):
    """As PyTorch: ``softmax``/``log_softmax`` save their result, so changing the input
    in place before the backward pass is no error (and the gradient is unchanged),
    while changing the output in place is.  Gradients by hand: softmax's Jacobian is
    ``diag(s) - s s^T``, log_softmax's ``I - 1 s^T``."""
    a = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]])
    w = np.array([[1.0, 2.0, 5.0], [-1.0, 0.5, 3.0]])
    s = np.exp(a - a.max(1, keepdims=True))
    s /= s.sum(1, keepdims=True)
    if method == "softmax":
        expected = s * (w - (w * s).sum(1, keepdims=True))
    else:
        expected = w - s * w.sum(1, keepdims=True)
    x = fg.Tensor(a, requires_grad=True)
    h = x * 1.0
    y = getattr(h, method)(1)
    h.add_(1.0)  # the input changes: fine
    assert y.grad_fn.name() == ("SoftmaxBackward0" if method == "softmax"
                                else "LogSoftmaxBackward0")
    saved = y.grad_fn._saved_result
    np.testing.assert_array_equal(saved.detach().numpy(), y.detach().numpy())
    with pytest.raises(AttributeError):
        y.grad_fn._saved_self  # not saved
    (y * fg.Tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-14, atol=1e-16)
    y = getattr(x, method)(1)
    y.mul_(2.0)  # the output changes: PyTorch's error
    with pytest.raises(RuntimeError, match="output 0 of (Log)?SoftmaxBackward0, is at version 1"):
        y.sum().backward()
    # only the output goes through saved-tensor hooks
    packed = []
    with fg.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        y = getattr(x, method)(1)
    assert len(packed) == 1
    np.testing.assert_array_equal(packed[0].detach().numpy(), y.detach().numpy())


@pytest.mark.parametrize("method", ["softmax", "log_softmax"])
def test_softmax_second_derivatives_through_the_saved_output(method):
    """create_graph: the rule runs on the saved output attached to the node, so the
    second derivative flows back through it (checked against the composition)."""
    a = np.array([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]])
    w = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]])

    def composed(t):  # the same function from primitives that save their inputs
        z = t - fg.numpy.logsumexp(t, axis=1, keepdims=True)
        return z.exp() if method == "softmax" else z
    results = []
    for f in (lambda t: getattr(t, method)(1), composed):
        x = fg.Tensor(a, requires_grad=True)
        (g,) = fg.autograd.grad((f(x) * fg.Tensor(w)).sum(), x, create_graph=True)
        (g * g).sum().backward()
        results.append((g.detach().numpy(), x.grad.numpy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-12, atol=1e-14)


def test_softmax_matches_torch_with_the_input_changed_in_place():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    a, w = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    for method in ("softmax", "log_softmax"):
        for dim in (0, 1, -1):
            grads = []
            for mod in (fg, torch):
                x = mod.tensor(a, requires_grad=True)
                h = x * 1.0
                y = getattr(h, method)(dim)
                h.add_(1.0)
                (g,) = mod.autograd.grad((y * mod.tensor(w)).sum(), x, create_graph=True)
                (g * g).sum().backward()
                grads.append((g.detach().numpy(), x.grad.numpy()))
            np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-13, atol=1e-15)
            np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-12, atol=1e-14)
        x = torch.tensor(a, requires_grad=True)
        y = getattr(x, method)(1)
        y.mul_(2.0)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.sum().backward()  # torch raises where funcgrad does (tested above)


def _unpack_returning(lib, value, raw):
    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    if raw:
        y = x.sin()
        y.grad_fn._raw_saved_self.register_hooks(lambda t: None, lambda p: value)
    else:
        with lib.autograd.graph.saved_tensors_hooks(lambda t: None, lambda p: value):
            y = x.sin()
    y.sum().backward()
    return x.grad


@pytest.mark.parametrize("raw", [False, True])
def test_unpack_hook_must_return_the_saved_value(raw):
    # sin's rule reads x: an int in its place gave cos(int) * 1 silently (a wrong .grad)
    with pytest.raises(TypeError, match="unpack_hook expected to be a Tensor but got "
                                        "result of type int"):
        _unpack_returning(fg, 5, raw)
    with pytest.raises(RuntimeError, match=r"shape \(3,\), but the value saved had shape "
                                           r"\(2,\)"):
        _unpack_returning(fg, fg.ones(3, dtype=fg.float64), raw)
    # an array (or Tensor) of the right shape is used: d sin / dx at the value given
    g = _unpack_returning(fg, np.zeros(2), raw)
    assert g.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("raw", [False, True])
def test_unpack_hook_returning_a_non_tensor_raises_as_torch(raw):
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError, match="unpack_hook expected to be a Tensor"):
        _unpack_returning(torch, 5, raw)

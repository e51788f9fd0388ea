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

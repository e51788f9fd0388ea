"""fg.equal / fg.allclose / Tensor.allclose and small PyTorch conveniences."""
import numpy as np
import pytest

import funcgrad as fg


def test_equal():
    a = fg.tensor([1.0, 2.0])
    assert fg.equal(a, fg.tensor([1.0, 2.0], dtype=fg.float64))  # values, not dtypes
    assert not fg.equal(a, fg.tensor([1.0, 2.0, 3.0]))
    assert not a.equal(fg.tensor([1.0, 3.0]))
    assert fg.equal(fg.tensor([1.0], requires_grad=True) * 2, fg.tensor([2.0]))


def test_allclose():
    a = fg.tensor([1.0, 2.0])
    assert fg.allclose(a, fg.tensor([1.0, 2.000001]))
    assert not fg.allclose(a, fg.tensor([1.0, 2.1]))
    assert fg.allclose(fg.tensor([[1.0, 2.0]]), a)  # broadcasts
    assert a.allclose(fg.tensor([1.0, 2.1]), atol=0.2)
    assert fg.allclose(fg.tensor([np.nan]), fg.tensor([np.nan]), equal_nan=True)
    with pytest.raises(RuntimeError, match="Float did not match Double"):
        fg.allclose(a, fg.tensor([1.0, 2.0], dtype=fg.float64))
    with pytest.raises(TypeError, match="must be Tensor, not float"):
        fg.allclose(a, 1.0)


def test_conveniences():
    a = fg.tensor([1.0])
    assert a.requires_grad_() is a and a.requires_grad
    assert fg.is_grad_enabled()
    with fg.no_grad():
        assert not fg.is_grad_enabled()
    assert a.is_floating_point() and not fg.tensor([1]).is_floating_point()
    (a * 2).sum().backward()
    a.grad = None
    assert a.grad is None
    d = a.data
    assert d is not a and not d.requires_grad and d.is_leaf


def test_same_as_torch():
    torch = pytest.importorskip("torch")
    for mod in (fg, torch):
        a = mod.tensor([1.0, 2.0])
        assert mod.equal(a, mod.tensor([1.0, 2.0], dtype=mod.float64))
        assert mod.allclose(a, mod.tensor([1.0, 2.000001]))
        with pytest.raises(RuntimeError, match="Float did not match Double"):
            mod.allclose(a, mod.tensor([1.0, 2.0], dtype=mod.float64))

"""PyTorch's default dtype on the eager Tensor (issue 18): Python floats become float32
(``fg.set_default_dtype`` changes that, per thread), Python ints int64, bools bool, NumPy
arrays keep their dtype; gradients have their Tensor's dtype."""
import threading

import numpy as np
import pytest

import funcgrad as fg


@pytest.fixture(autouse=True)
def default_dtype_restored():
    yield
    fg.set_default_dtype(fg.float32)


FACTORIES = {  # made from Python data or shapes: the default dtype
    "tensor": lambda: fg.tensor([2.0, 3.0]), "Tensor": lambda: fg.Tensor([2.0, 3.0]),
    "tensor_scalar": lambda: fg.tensor(2.5), "randn": lambda: fg.randn(2, 3),
    "rand": lambda: fg.rand(4), "zeros": lambda: fg.zeros(2), "ones": lambda: fg.ones((2, 2)),
    "full": lambda: fg.full((2,), 1.5), "empty": lambda: fg.empty(3),
    "linspace": lambda: fg.linspace(0, 1, 5), "eye": lambda: fg.eye(3),
    "arange_float": lambda: fg.arange(0.0, 1.0, 0.25), "randn_like": lambda:
    fg.randn_like(fg.zeros(2)), "mixed_list": lambda: fg.tensor([1, 2.5]),
}


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_factories_give_float32_like_torch(name):
    t = FACTORIES[name]()
    assert t.dtype == fg.float32 and t.dtype == np.float32
    fg.set_default_dtype(fg.float64)
    assert FACTORIES[name]().dtype == fg.float64


def test_ints_bools_complex_and_numpy_arrays():
    assert fg.tensor([1, 2]).dtype == fg.int64 and fg.arange(3).dtype == fg.int64
    assert fg.full((2,), 7).dtype == fg.int64 and fg.full((1,), True).dtype == fg.bool
    assert fg.tensor([True, False]).dtype == fg.bool
    assert fg.tensor([1j, 2.0]).dtype == fg.complex64  # the default's complex twin
    # NumPy arrays and scalars keep their dtype, as torch.tensor(array) / from_numpy
    assert fg.tensor(np.array([1.0, 2.0])).dtype == fg.float64
    assert fg.Tensor(np.ones(2)).dtype == fg.float64
    assert fg.from_numpy(np.ones(2, np.float16)).dtype == fg.float16
    assert fg.from_numpy(np.arange(3)).dtype == fg.int64
    assert fg.tensor(np.float64(2.0)).dtype == fg.float64
    assert fg.tensor([2.0], dtype=fg.float64).dtype == fg.float64
    with pytest.raises(TypeError, match="fg.tensor"):
        fg.from_numpy([1.0, 2.0])


def test_values_are_rounded_to_float32():
    t = fg.tensor([0.1, 1 / 3])
    assert t.tolist() == [float(np.float32(0.1)), float(np.float32(1 / 3))]
    assert t.tolist() != [0.1, 1 / 3]


def test_set_and_get_default_dtype():
    assert fg.get_default_dtype() is fg.float32
    fg.set_default_dtype(fg.float64)
    assert fg.get_default_dtype() is fg.float64 and fg.tensor([1j]).dtype == fg.complex128
    assert repr(fg.tensor([1.0])) == "tensor([1.])"  # the default is not spelled out
    assert repr(fg.tensor([1.0], dtype=fg.float32)) == "tensor([1.], dtype=float32)"
    for bad in (fg.int64, fg.bool, "not a dtype"):
        with pytest.raises(TypeError, match="only floating-point types"):
            fg.set_default_dtype(bad)
    assert fg.get_default_dtype() is fg.float64


def test_default_dtype_is_per_thread():
    fg.set_default_dtype(fg.float64)
    seen = {}

    def other():
        seen["start"] = fg.tensor([1.0]).dtype
        fg.set_default_dtype(fg.float16)
        seen["set"] = fg.ones(1).dtype

    th = threading.Thread(target=other)
    th.start()
    th.join()
    assert seen == {"start": np.float32, "set": np.float16}
    assert fg.ones(1).dtype == fg.float64  # this thread's default is untouched


def test_repr_and_is_tensor():
    assert repr(fg.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert repr(fg.tensor([1.0], dtype=fg.float64)) == "tensor([1.], dtype=float64)"
    assert fg.is_tensor(fg.ones(1)) and not fg.is_tensor(np.ones(1))
    assert not fg.is_tensor([1.0])


OPS = {  # (Tensor operation, NumPy gradient of its sum at x)
    "mul_python_float": (lambda x: x * 2.5, lambda x: np.full_like(x, 2.5)),
    "pow": (lambda x: x ** 3, lambda x: 3 * x ** 2),
    "exp": (lambda x: x.exp(), np.exp),
    "div_int": (lambda x: (x + 1) / 3, lambda x: np.full_like(x, 1 / 3)),
    "sigmoid": (lambda x: x.sigmoid(), lambda x: np.exp(-x) / (1 + np.exp(-x)) ** 2),
    "mean": (lambda x: x.mean() * x.shape[0], lambda x: np.ones_like(x)),
    "tanh_np": (lambda x: np.tanh(x), lambda x: 1 - np.tanh(x) ** 2),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_float32_in_float32_gradients_out(name):
    op, grad = OPS[name]
    x0 = [0.5, -1.25, 2.0]
    x = fg.tensor(x0, requires_grad=True)
    y = op(x).sum()
    assert y.dtype == fg.float32
    y.backward()
    assert x.grad.dtype == fg.float32
    np.testing.assert_allclose(x.grad.numpy(), grad(np.array(x0)), rtol=1e-6)


def test_float32_second_order_and_matmul():
    w = fg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = fg.tensor([0.5, -1.0], requires_grad=True)
    loss = (w @ v).pow(2).sum()
    gw, gv = fg.autograd.grad(loss, (w, v), create_graph=True)
    assert gw.dtype == gv.dtype == fg.float32
    r = np.array([[1.0, 2.0], [3.0, 4.0]]) @ np.array([0.5, -1.0])  # [-1.5, -2.5]
    np.testing.assert_allclose(gw.detach().numpy(), 2 * np.outer(r, [0.5, -1.0]))
    (hv,) = fg.autograd.grad(gv.sum(), v)  # d/dv sum(2 W^T W v) = 2 W^T W 1
    W = np.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(hv.numpy(), 2 * W.T @ W @ np.ones(2))
    assert hv.dtype == fg.float32


def test_gentle_introduction_snippet_numbers():
    # "A Gentle Introduction to torch.autograd": Q = 3a^3 - b^2
    a = fg.tensor([2.0, 3.0], requires_grad=True)
    b = fg.tensor([6.0, 4.0], requires_grad=True)
    Q = 3 * a ** 3 - b ** 2
    Q.backward(gradient=fg.tensor([1.0, 1.0]))
    assert a.grad.dtype == fg.float32 and b.grad.dtype == fg.float32
    assert (9 * a ** 2 == a.grad).all() and (-2 * b == b.grad).all()
    assert a.grad.tolist() == [36.0, 81.0] and b.grad.tolist() == [-12.0, -8.0]


@pytest.mark.parametrize("method", ["exp", "log", "sin", "cos", "tanh", "sqrt", "sigmoid"])
def test_floating_methods_of_integer_tensors_give_the_default_dtype(method):
    """As PyTorch: an int64 (or bool) Tensor's exp() is float32, or the default dtype."""
    values = np.array([1, 2, 4])
    want = getattr(np, method)(values.astype(np.float64)) if method != "sigmoid" else \
        1 / (1 + np.exp(-values.astype(np.float64)))
    got = getattr(fg.tensor(values.tolist()), method)()
    assert got.dtype == fg.float32
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    fg.set_default_dtype(fg.float64)
    got = getattr(fg.tensor([True, False]), method)()
    assert got.dtype == fg.float64

"""PyTorch users' expectations of the eager Tensor (issue 18, items 1, 4, 5): torch's
methods and factories, grad_fn names, saved-value hooks that save what torch saves, and
messages that name the user's operation.  Expected numbers are computed by hand or with
plain NumPy; where torch is importable the same snippets are compared with it."""
import warnings

import numpy as np
import pytest

import funcgrad as fg


def fd_grad(f, x, eps=1e-6):
    """Central finite differences of the scalar NumPy function ``f`` at ``x``."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


X = np.array([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]])
W = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]])


def _np_softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# (method call on the Tensor, the same computation in NumPy): gradients of sum(W * f(x))
CASES = {
    "exp": (lambda t: t.exp(), np.exp),
    "log": (lambda t: (t * t + 1).log(), lambda x: np.log(x * x + 1)),
    "tanh": (lambda t: t.tanh(), np.tanh),
    "sigmoid": (lambda t: t.sigmoid(), lambda x: 1 / (1 + np.exp(-x))),
    "relu": (lambda t: t.relu(), lambda x: np.maximum(x, 0)),
    "sqrt_abs": (lambda t: t.abs().sqrt(), lambda x: np.sqrt(np.abs(x))),
    "pow": (lambda t: t.pow(3), lambda x: x ** 3),
    "clamp": (lambda t: t.clamp(-0.5, 1.0), lambda x: np.clip(x, -0.5, 1.0)),
    "softmax1": (lambda t: t.softmax(dim=1), lambda x: _np_softmax(x, 1)),
    "softmax0": (lambda t: t.softmax(0), lambda x: _np_softmax(x, 0)),
    "log_softmax": (lambda t: t.log_softmax(1), lambda x: np.log(_np_softmax(x, 1))),
    "mean_dim": (lambda t: t.mean(dim=0, keepdim=True), lambda x: x.mean(0, keepdims=True)),
    "sum_dim": (lambda t: t.sum(1, keepdim=True) * t, lambda x: x.sum(1, keepdims=True) * x),
    "var": (lambda t: t.var(dim=1, keepdim=True) * t, lambda x: x.var(1, ddof=1,
                                                                      keepdims=True) * x),
    "std": (lambda t: t.std(1, keepdim=True) * t, lambda x: x.std(1, ddof=1, keepdims=True)
            * x),
    "norm": (lambda t: t.norm() * t, lambda x: np.sqrt((x * x).sum()) * x),
    "norm_dim": (lambda t: t.norm(dim=1, keepdim=True) * t,
                 lambda x: np.sqrt((x * x).sum(1, keepdims=True)) * x),
    "max_dim": (lambda t: t.max(dim=1, keepdim=True).values * t,
                lambda x: x.max(1, keepdims=True) * x),
    "min_dim": (lambda t: t.min(0).values.unsqueeze(0) * t, lambda x: x.min(0)[None] * x),
    "t": (lambda t: t.t().t() * t, lambda x: x * x),
    "transpose": (lambda t: t.transpose(0, 1).mT * t, lambda x: x * x),
    "view": (lambda t: t.view(-1).view(2, 3) * t.reshape(6).reshape((2, 3)), lambda x: x * x),
    "flatten_unsqueeze_squeeze": (lambda t: t.flatten().unsqueeze(0).squeeze(0).view(2, 3),
                                  lambda x: x),
    "permute": (lambda t: t.unsqueeze(-1).permute(2, 1, 0).squeeze(0).t() * t,
                lambda x: x * x),
    "expand": (lambda t: t.sum(0).expand(2, -1) * t, lambda x: x.sum(0)[None] * x),
    "repeat": (lambda t: t.repeat(1, 2)[:, 1:4], lambda x: np.tile(x, (1, 2))[:, 1:4]),
    "clone": (lambda t: t.clone() * t, lambda x: x * x),
    "matmul": (lambda t: t.matmul(t.t()) @ t, lambda x: x @ x.T @ x),
    "mm": (lambda t: t.t().mm(t), lambda x: x.T @ x),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_method_values_and_gradients_match_numpy_and_finite_differences(name):
    method, reference = CASES[name]
    x = fg.tensor(X, requires_grad=True)
    y = method(x)
    np.testing.assert_allclose(y.detach().numpy(), reference(X), rtol=1e-12, atol=1e-12)
    w = W if y.shape == W.shape else np.ones(y.shape)
    (y * fg.tensor(w)).sum().backward()
    expected = fd_grad(lambda v: np.sum(w * reference(v)), X)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6, atol=1e-7)


def test_second_derivatives_through_a_named_node():
    x = fg.tensor([0.5, -1.0, 2.0], requires_grad=True)
    (g,) = fg.autograd.grad(x.pow(3).mean(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), [0.25, 1.0, 4.0])  # x**2
    (h,) = fg.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), [1.0, -2.0, 4.0])  # d/dx sum(x**2) = 2x


GRAD_FN_NAMES = [  # torch 2.x's names for the same operations
    (lambda x, m: x.mean(), "MeanBackward0"), (lambda x, m: x.mean(0), "MeanBackward1"),
    (lambda x, m: x.sum(), "SumBackward0"), (lambda x, m: m.sum(dim=1), "SumBackward1"),
    (lambda x, m: x.max(), "MaxBackward1"), (lambda x, m: x.max(0).values, "MaxBackward0"),
    (lambda x, m: x.var(), "VarBackward0"), (lambda x, m: x.std(), "StdBackward0"),
    (lambda x, m: x.softmax(0), "SoftmaxBackward0"),
    (lambda x, m: x.log_softmax(0), "LogSoftmaxBackward0"),
    (lambda x, m: x.relu(), "ReluBackward0"), (lambda x, m: x.sigmoid(), "SigmoidBackward0"),
    (lambda x, m: x.exp(), "ExpBackward0"), (lambda x, m: x.sqrt(), "SqrtBackward0"),
    (lambda x, m: x.pow(2), "PowBackward0"), (lambda x, m: x * 2.0, "MulBackward0"),
    (lambda x, m: x.norm(), "LinalgVectorNormBackward0"),
    (lambda x, m: x.clone(), "CloneBackward0"), (lambda x, m: x.double(), "ToCopyBackward0"),
    (lambda x, m: x.unsqueeze(0), "UnsqueezeBackward0"),
    (lambda x, m: x.view(-1), "ViewBackward0"), (lambda x, m: x.expand(2, 3), "ExpandBackward0"),
    (lambda x, m: x.repeat(2), "RepeatBackward0"), (lambda x, m: x.dot(x), "DotBackward0"),
    (lambda x, m: m.t(), "TBackward0"), (lambda x, m: m.T, "PermuteBackward0"),
    (lambda x, m: m.transpose(0, 1), "TransposeBackward0"), (lambda x, m: m.mm(m),
                                                             "MmBackward0"),
    (lambda x, m: m.squeeze(), "SqueezeBackward0"), (lambda x, m: m.clamp(0, 1),
                                                     "ClampBackward1"),
    # names that depend on the arguments
    (lambda x, m: x ** x, "PowBackward1"), (lambda x, m: 2.0 ** x, "PowBackward2"),
    (lambda x, m: m[0], "SelectBackward0"), (lambda x, m: m[:, 1], "SelectBackward0"),
    (lambda x, m: m[0, 1:], "SliceBackward0"), (lambda x, m: x[::2], "SliceBackward0"),
    (lambda x, m: m[1:, 0], "SelectBackward0"), (lambda x, m: m[0, None], "UnsqueezeBackward0"),
    (lambda x, m: m[[0, 1]], "IndexBackward0"), (lambda x, m: x[x > 1], "IndexBackward0"),
]


@pytest.mark.parametrize("k", range(len(GRAD_FN_NAMES)))
def test_grad_fn_names_match_torch(k):
    op, name = GRAD_FN_NAMES[k]
    x = fg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    m = fg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    assert op(x, m).grad_fn.name() == name


@pytest.mark.parametrize("op, name", [(lambda x: x ** 2.0, "PowBackward0"),
                                      (lambda x: x ** x, "PowBackward1"),
                                      (lambda x: 2.0 ** x, "PowBackward2")])
def test_a_name_read_from_saved_values_survives_their_release(op, name):
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    z = op(x)
    z.sum().backward()  # frees the values z's node saved, which its name is read from
    assert z.grad_fn.name() == name


def test_a_named_node_leads_straight_to_its_inputs_and_frees_like_torch():
    x = fg.tensor([1.0, 3.0], requires_grad=True)
    y = x.mean()
    assert y.grad_fn.next_functions == ((x.grad_fn or y.grad_fn.next_functions[0][0], 0),)
    assert y.grad_fn.next_functions[0][0].variable is x
    y.backward()
    y.backward()  # MeanBackward0 saves only sizes: a second pass works, as in torch
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 1.0])
    z = (x * x).sum(dim=0)
    z.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        z.backward()


def test_torch_signatures():
    x = fg.arange(6).view(2, 3).double()
    assert x.dtype == fg.float64 and x.float().dtype == fg.float32
    assert x.size() == (2, 3) and x.size(1) == 3 and x.size(-2) == 2 and x.numel() == 6
    assert x.dim() == 2 and x.reshape(3, 2).shape == (3, 2) and x.reshape((6,)).shape == (6,)
    m = x.max(dim=1)
    assert m.values.tolist() == [2.0, 5.0] and m.indices.tolist() == [2, 2]
    values, indices = x.min(0)
    assert values.tolist() == [0.0, 1.0, 2.0] and indices.tolist() == [0, 0, 0]
    assert x.argmax().item() == 5 and x.argmax(dim=0).tolist() == [1, 1, 1]
    assert x.sum(dim=(0, 1)).item() == 15.0 and x.mean(1, keepdim=True).shape == (2, 1)
    assert x.var().item() == pytest.approx(3.5) and x.var(unbiased=False).item() == \
        pytest.approx(35 / 12)
    assert x.transpose(0, 1).shape == (3, 2) and x.T.shape == (3, 2)
    assert fg.ones(2, 1, 3).expand(4, -1, -1, 3).shape == (4, 2, 1, 3)
    assert fg.tensor([1.0, 2.0]).repeat(2, 2).tolist() == [[1, 2, 1, 2], [1, 2, 1, 2]]
    assert fg.ones(2, 3, 4).flatten(0, 1).shape == (6, 4)
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.size(2)
    with pytest.raises(RuntimeError, match="t\\(\\) expects a tensor with <= 2 dimensions"):
        fg.ones(1, 2, 3).t()
    with pytest.raises(RuntimeError, match="expanded size"):
        fg.ones(3).expand(2)


def test_factories_and_in_place_forms():
    fg.manual_seed(3)
    a = fg.randn(2, 3, dtype=fg.double, requires_grad=True)
    fg.manual_seed(3)
    assert np.array_equal(fg.randn(2, 3, dtype=fg.float64).numpy(), a.detach().numpy())
    assert a.requires_grad and a.dtype == fg.float64
    assert fg.tensor([1, 2]).dtype == fg.int64 and fg.tensor(2.0).dtype == fg.float32
    assert fg.zeros_like(a).tolist() == [[0.0] * 3] * 2 and fg.ones_like(a).sum().item() == 6
    assert fg.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert fg.arange(1, 4).tolist() == [1, 2, 3] and fg.eye(2).tolist() == [[1, 0], [0, 1]]
    assert ((fg.rand(100) >= 0) & (fg.rand(100) < 1)).all()
    t = fg.tensor([1.0, -2.0, 3.0])
    t.add_(1).mul_(2).sub_(1).div_(2).clamp_(0, 2)
    assert t.tolist() == [1.5, 0.0, 2.0]
    t.fill_(4.0).copy_(fg.tensor([1.0, 2.0, 3.0]))
    assert t.tolist() == [1.0, 2.0, 3.0] and t.zero_().tolist() == [0.0, 0.0, 0.0]


# --- item 4: saved-value hooks save what torch saves ----------------------------------------

def _packed(fn):
    packed, unpacked = [], []

    def pack(x):
        packed.append(x)
        return x

    def unpack(x):
        unpacked.append(x)
        return x

    with fg.graph.saved_tensors_hooks(pack, unpack):
        y = fn()
    return y, packed, unpacked


def test_hooks_pack_only_what_the_rules_read():
    a = fg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y, packed, unpacked = _packed(lambda: (a * a).sum())
    assert len(packed) == 2 and all(p is a for p in packed)  # torch: self and other, a
    y.backward()
    assert len(unpacked) == 2 and a.grad.tolist() == [2.0, 4.0, 6.0]
    a.grad = None
    y, packed, _ = _packed(lambda: (a * 2.0).sum())
    assert packed == []  # torch saves the scalar, not a tensor
    y.backward()
    assert a.grad.tolist() == [2.0, 2.0, 2.0]
    a.grad = None
    y, packed, _ = _packed(lambda: a.exp().sum())  # exp saves its result
    assert len(packed) == 1 and isinstance(packed[0], fg.Tensor)
    np.testing.assert_allclose(packed[0].numpy(), np.exp([1.0, 2.0, 3.0]))
    y.backward()
    np.testing.assert_allclose(a.grad.numpy(), np.exp([1.0, 2.0, 3.0]))
    y, packed, _ = _packed(lambda: a.mean())
    assert packed == []  # MeanBackward0 saves sizes only


def test_hooks_keep_only_what_pack_returned():
    a = fg.tensor([1.0, 2.0], requires_grad=True)
    y, packed, _ = _packed(lambda: (a * 2.0) * 3.0)
    node = y.grad_fn
    assert all(not isinstance(v, np.ndarray) for v in node.args) and \
        not isinstance(node.value, np.ndarray)
    y.sum().backward()
    assert a.grad.tolist() == [6.0, 6.0]


def test_unpack_hook_may_return_a_copy():
    a = fg.tensor([0.5, 1.5], requires_grad=True)
    with fg.graph.saved_tensors_hooks(lambda t: t.detach().numpy().copy(),
                                      lambda arr: fg.tensor(arr)):
        y = (a.sin() * a).sum()
    y.backward()
    np.testing.assert_allclose(a.grad.numpy(), np.sin([0.5, 1.5]) + [0.5, 1.5] *
                               np.cos([0.5, 1.5]))


# --- item 5: messages name the user's operation ---------------------------------------------

def test_anomaly_names_the_node_as_its_grad_fn():
    with fg.detect_anomaly():
        x = fg.tensor([0.0, 1.0], requires_grad=True)
        y = (x.sqrt() * 0.0).sum()
        with np.errstate(all="ignore"), pytest.raises(RuntimeError,
                                                      match="'SqrtBackward0' returned nan"):
            y.backward()


# --- the tutorials' snippets ------------------------------------------------------------------

def test_gentle_introduction_snippet():
    a = fg.tensor([2.0, 3.0], requires_grad=True)
    b = fg.tensor([6.0, 4.0], requires_grad=True)
    Q = 3 * a ** 3 - b ** 2
    Q.backward(gradient=fg.tensor([1.0, 1.0]))
    assert (9 * a ** 2 == a.grad).all() and (-2 * b == b.grad).all()
    assert a.grad.tolist() == [36.0, 81.0] and b.grad.tolist() == [-12.0, -8.0]
    x, y = fg.rand(5, 5), fg.rand(5, 5)
    z = fg.rand((5, 5), requires_grad=True)
    assert not (x + y).requires_grad and (x + z).requires_grad


def test_autograd_mechanics_snippets():
    def train_fn():
        x = fg.ones(5, 5, requires_grad=True)
        y = (x + 3) * (x + 4) * 0.5
        y.sum().backward()
        return x.grad

    assert np.all(train_fn().numpy() == 4.5)  # d/dx (x+3)(x+4)/2 = x + 3.5 at 1
    with fg.no_grad():
        assert not (fg.ones(2, requires_grad=True) * 2).requires_grad
    a = fg.ones(5, requires_grad=True)
    b = fg.ones(5, requires_grad=True) * 2
    y, packed, unpacked = _packed(lambda: a * b)
    y.sum().backward()
    assert len(packed) == 2 and len(unpacked) == 2 and packed[0] is a
    assert a.grad.tolist() == [2.0] * 5


def test_extending_snippet_linear_with_torch_methods():
    x = fg.randn(4, 3, dtype=fg.double, requires_grad=True)
    w = fg.randn(2, 3, dtype=fg.double, requires_grad=True)
    bias = fg.randn(2, dtype=fg.double, requires_grad=True)
    out = x.mm(w.t()) + bias.unsqueeze(0).expand_as(fg.zeros(4, 2))
    g = fg.ones(4, 2, dtype=fg.double)
    out.backward(g)
    np.testing.assert_allclose(x.grad.numpy(), g.numpy() @ w.detach().numpy())
    np.testing.assert_allclose(w.grad.numpy(), g.numpy().T @ x.detach().numpy())
    np.testing.assert_allclose(bias.grad.numpy(), g.numpy().sum(0))


def test_same_numbers_and_names_as_torch():
    torch = pytest.importorskip("torch")
    for lib in (torch, fg):
        x = lib.tensor([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]], dtype=lib.float64,
                       requires_grad=True)
        y = (x.softmax(dim=1) * x.std(0, keepdim=True)).mean() + x.norm()
        y.backward()
        if lib is torch:
            expected, name = x.grad.numpy(), y.grad_fn.name()
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-10)
    assert y.grad_fn.name() == name
    for lib in (torch, fg):
        with pytest.raises(RuntimeError):
            lib.ones(1, 2, 3).t()


def test_integer_indices_apply_before_advanced_ones_as_in_pytorch():
    """``x[1, :, [0, 2]]``: PyTorch selects with the integer first, so the list's axis
    stays where it is (shape (3, 2)); NumPy would move the advanced axes first (2, 3).
    Reading, the gradient and writing all follow PyTorch."""
    a = np.arange(24.0).reshape(2, 3, 4)
    x = fg.Tensor(a, requires_grad=True)
    y = x[1, :, [0, 2]]
    np.testing.assert_array_equal(y.detach().numpy(),
                                  [[12.0, 14.0], [16.0, 18.0], [20.0, 22.0]])
    np.testing.assert_array_equal(x[1, ..., [0, 2, 2]].detach().numpy(),
                                  [[12.0, 14.0, 14.0], [16.0, 18.0, 18.0], [20.0, 22.0, 22.0]])
    w = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    (y * fg.Tensor(w)).sum().backward()
    want = np.zeros((2, 3, 4))
    want[1, :, 0], want[1, :, 2] = w[:, 0], w[:, 1]
    np.testing.assert_array_equal(x.grad.numpy(), want)
    z = fg.Tensor(a.copy())
    z[1, :, [0, 2]] = fg.Tensor(-w)
    expected = a.copy()
    expected[1, :, 0], expected[1, :, 2] = -w[:, 0], -w[:, 1]
    np.testing.assert_array_equal(z.numpy(), expected)
    # without an integer, or with the integer next to the advanced index: NumPy's order
    # is PyTorch's too
    assert x[:, [0, 2], 1].shape == (2, 2) and x[[0, 1], :, [1, 2]].shape == (2, 3)


def test_mixed_integer_and_advanced_indices_match_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 5, 2))
    keys = [(1, slice(None), [0, 2]), (slice(None), 2, slice(1, 3), [1, 0, 1]),
            (0, Ellipsis, [1]), ([2, 0], slice(None), 3), (-1, None, slice(None), [4, 0]),
            (1, [True, False, True, True]), (2, slice(None), np.array([[0, 1], [2, 3]]), 1)]
    for key in keys:
        t = torch.tensor(a, requires_grad=True)
        t[key].pow(2).sum().backward()
        x = fg.Tensor(a, requires_grad=True)
        x[key].pow(2).sum().backward()
        np.testing.assert_array_equal(x[key].detach().numpy(), t[key].detach().numpy(),
                                      err_msg=str(key))
        np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy(), err_msg=str(key))
        tw, xw = torch.tensor(a), fg.Tensor(a)
        tw[key] = 7.0
        xw[key] = 7.0
        np.testing.assert_array_equal(xw.numpy(), tw.numpy(), err_msg=str(key))


def test_max_and_min_along_a_dim_send_the_gradient_to_the_returned_index():
    """With ties, PyTorch's MaxBackward0 (with dim) gives the whole gradient to the index
    it returns (the first); the full reduction ``x.max()`` shares it among the ties."""
    x = fg.Tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], requires_grad=True)
    values, indices = x.max(1)
    np.testing.assert_array_equal(indices.numpy(), [1, 0])
    values.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    assert values.grad_fn.name() == "MaxBackward0"
    y = fg.Tensor([[1.0, 1.0, 2.0]], requires_grad=True)
    low = y.min(dim=1, keepdim=True)
    assert low.values.shape == (1, 1) and low.indices.shape == (1, 1)
    low.values.sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [[1.0, 0.0, 0.0]])
    z = fg.Tensor([1.0, 3.0, 3.0], requires_grad=True)
    z.max().backward()
    np.testing.assert_array_equal(z.grad.numpy(), [0.0, 0.5, 0.5])


def test_assigning_a_grad_of_another_dtype_raises_and_numbers_take_the_tensors_dtype():
    x = fg.Tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
    with pytest.raises(RuntimeError, match="same dtype"):
        x.grad = fg.Tensor(np.array([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="same dtype"):
        x.grad = np.array([1.0, 2.0])
    x.grad = [1.0, 2.0]  # a list: this Tensor's dtype
    (x * 2).sum().backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 4.0])


def test_a_function_backward_returning_none_leaves_that_grad_none():
    class AddFirst(fg.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return g, None

    x = fg.Tensor([0.5, 1.0], requires_grad=True)
    y = fg.Tensor([1.0, 1.0], requires_grad=True)
    AddFirst.apply(x, y).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 1.0])
    assert y.grad is None  # PyTorch: no gradient, not zeros
    # the functional transforms still give a zero gradient for that argument
    gx, gy = fg.grad(lambda a, b: np.sum(AddFirst.apply(a, b)), argnums=(0, 1))(
        np.ones(2), np.ones(2))
    np.testing.assert_array_equal(gx, [1.0, 1.0])
    np.testing.assert_array_equal(gy, [0.0, 0.0])


@pytest.mark.parametrize("method", ["round", "floor", "ceil", "trunc", "sign"])
def test_rounding_methods_are_recorded_with_a_zero_gradient(method):
    """PyTorch records round/floor/ceil/trunc/sign with a zero gradient: the result
    requires grad (``RoundBackward0``...), and a backward through it gives zeros."""
    a = np.array([-2.5, -0.5, 0.0, 0.5, 1.5, 2.7, np.inf, -np.inf])
    x = fg.Tensor(a, requires_grad=True)
    y = getattr(x, method)()
    assert y.requires_grad and y.grad_fn.name() == f"{method.capitalize()}Backward0"
    expected = {"round": np.round, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
                "sign": np.sign}[method](a)
    np.testing.assert_array_equal(y.detach().numpy(), expected)
    (y * 3.0 + x)[:6].sum().backward()  # (the infinite ends would sum to NaN)
    np.testing.assert_array_equal(x.grad.numpy(), [1.0] * 6 + [0.0] * 2)  # x's own term
    f32 = getattr(fg.Tensor(a.astype(np.float32), requires_grad=True), method)()
    assert f32.dtype == np.float32


def test_sort_returns_values_and_indices_and_routes_the_gradient():
    x = fg.Tensor([3.0, 1.0, 2.0, 1.0], requires_grad=True)
    values, indices = x.sort(descending=True)
    np.testing.assert_array_equal(values.detach().numpy(), [3.0, 2.0, 1.0, 1.0])
    np.testing.assert_array_equal(indices.numpy(), [0, 2, 1, 3])  # ties keep their order
    (values * fg.Tensor([1.0, 10.0, 100.0, 1000.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 100.0, 10.0, 1000.0])
    m = fg.Tensor([[2.0, np.nan, 1.0], [0.0, -1.0, 5.0]])
    np.testing.assert_array_equal(m.sort(dim=1).indices.numpy(), [[2, 0, 1], [1, 0, 2]])
    np.testing.assert_array_equal(m.sort(dim=1, descending=True).indices.numpy(),
                                  [[1, 0, 2], [2, 0, 1]])  # NaN first, as in PyTorch
    np.testing.assert_array_equal(m.sort(dim=0).indices.numpy(), [[1, 1, 0], [0, 0, 1]])


def test_rounding_and_sort_match_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    a = np.round(rng.standard_normal((3, 5)) * 2, 1)
    for name in ("round", "floor", "ceil", "trunc", "sign"):
        t, x = torch.tensor(a, requires_grad=True), fg.Tensor(a, requires_grad=True)
        getattr(t, name)().sum().backward()
        getattr(x, name)().sum().backward()
        np.testing.assert_array_equal(getattr(x, name)().detach().numpy(),
                                      getattr(t, name)().detach().numpy())
        np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())
    for dim in (0, 1, -1):
        for descending in (False, True):
            t, x = torch.tensor(a, requires_grad=True), fg.Tensor(a, requires_grad=True)
            tv, ti = t.sort(dim=dim, descending=descending, stable=True)
            xv, xi = x.sort(dim=dim, descending=descending)
            np.testing.assert_array_equal(xi.numpy(), ti.numpy())
            w = rng.standard_normal(a.shape)
            (tv * torch.tensor(w)).sum().backward()
            (xv * fg.Tensor(w)).sum().backward()
            np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())


def test_the_output_of_a_division_may_be_updated_in_place_before_backward():
    """DivBackward0 reads the inputs, not the output (as PyTorch saves them), so updating
    the quotient in place is no error and the gradient is the division's."""
    x = fg.Tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    w = fg.Tensor(np.array([1.0, 1.5, 2.0]), requires_grad=True)
    q = x / w
    q.mul_(2.0)
    q.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2.0 / np.array([1.0, 1.5, 2.0]), rtol=1e-15)
    np.testing.assert_allclose(w.grad.numpy(), -2.0 * np.array([1.0, 2.0, 3.0])
                               / np.array([1.0, 1.5, 2.0]) ** 2, rtol=1e-15)


def test_autograd_grad_fills_the_grad_of_non_leaves_that_retain_it():
    x = fg.Tensor(np.array([1.0, 2.0]), requires_grad=True)
    y = x * 2
    y.retain_grad()
    (gx,) = fg.autograd.grad((y * y).sum(), x)
    np.testing.assert_array_equal(gx.numpy(), [8.0, 16.0])
    np.testing.assert_array_equal(y.grad.numpy(), [4.0, 8.0])  # 2 y, as in PyTorch
    assert x.grad is None  # autograd.grad fills no leaf's .grad
    z = x * 3
    z.retain_grad()
    (z * z).sum().backward(inputs=[x])
    np.testing.assert_array_equal(z.grad.numpy(), [6.0, 12.0])


ANGLE_REAL = [0.0, -0.0, 2.0, -3.0, np.inf, -np.inf, np.nan]
ANGLE_COMPLEX = [0j, complex(-0.0, 0.0), 1 + 0j, -2 + 0j, 1j, 1 + 1j, -3 - 4j]


def test_angle_has_a_zero_gradient_at_zero_for_real_and_complex_tensors():
    """PyTorch's angle: 0 or pi on real Tensors (0 at -0.0) with an exactly zero
    gradient, NaN and infinities included; on complex ones ``g * i z / |z|^2``, which
    is 0 at 0 (atan2's own derivative is 0/0 there)."""
    x = fg.Tensor(np.array(ANGLE_REAL), requires_grad=True)
    y = x.angle()
    assert y.grad_fn.name() == "AngleBackward0"
    np.testing.assert_array_equal(y.detach().numpy(), [0, 0, 0, np.pi, 0, np.pi, np.nan])
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros(7))
    assert not np.signbit(x.grad.numpy()).any()
    z = np.array(ANGLE_COMPLEX)
    x = fg.Tensor(z, requires_grad=True)
    w = np.arange(1.0, 8.0)
    (x.angle() * fg.Tensor(w)).sum().backward()
    safe = np.where(z == 0, 1, z)
    np.testing.assert_allclose(x.grad.numpy(), np.where(z == 0, 0, w * 1j * z / abs(safe) ** 2),
                               rtol=1e-15, atol=0)
    assert fg.Tensor([1, -2]).angle().dtype == np.float32  # integers: the default dtype
    # the functional API: NumPy's values (pi at -0.0), a zero derivative at 0
    assert float(fg.grad(fg.numpy.angle)(0.0)) == 0.0
    assert complex(fg.grad(fg.numpy.angle)(0j)) == 0
    np.testing.assert_array_equal(fg.vmap(fg.grad(fg.numpy.angle))(np.array(ANGLE_REAL)),
                                  np.zeros(7))
    np.testing.assert_array_equal(fg.numpy.angle(np.array(ANGLE_REAL)),
                                  np.angle(np.array(ANGLE_REAL)))
    np.testing.assert_array_equal(fg.numpy.angle(z), np.angle(z))


def test_angle_matches_torch():
    torch = pytest.importorskip("torch")
    for values in (ANGLE_REAL, ANGLE_COMPLEX):
        for dtype in ((np.float32, np.float64) if values is ANGLE_REAL
                      else (np.complex64, np.complex128)):
            a = np.array(values, dtype)
            w = np.arange(1.0, 8.0, dtype=np.float32 if dtype in (np.float32, np.complex64)
                          else np.float64)
            t, x = torch.tensor(a, requires_grad=True), fg.Tensor(a, requires_grad=True)
            (t.angle() * torch.tensor(w)).sum().backward()
            (x.angle() * fg.Tensor(w)).sum().backward()
            np.testing.assert_allclose(x.angle().detach().numpy(), t.angle().detach().numpy(),
                                       rtol=1e-6)
            assert x.angle().dtype == np.dtype(str(t.angle().dtype).split(".")[1])
            np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-6, atol=0)


def test_create_graph_through_logsumexp_keeps_the_second_derivative():
    """logsumexp's first-order shortcut (the forward pass's softmax pieces) must not
    stand in for the recorded rule under create_graph=True: the gradient would be a
    constant and the second derivative lost.  By hand: the gradient is s = softmax(x),
    and d/dx sum(s^2) = 2 (s^2 - s (s . s))."""
    a = np.array([0.3, -1.2, 2.0, 0.5])
    s = np.exp(a) / np.exp(a).sum()
    x = fg.Tensor(a, requires_grad=True)
    (g,) = fg.autograd.grad(fg.numpy.logsumexp(x), x, create_graph=True)
    assert g.requires_grad
    np.testing.assert_allclose(g.detach().numpy(), s, rtol=1e-14)
    (g * g).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * (s * s - s * (s @ s)), rtol=1e-13)


def _held_grads(lib):
    x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    held = lib.tensor([1.0, 1.0], dtype=lib.float64)
    x.grad = held
    (x * 2).sum().backward()            # 1 + 2
    y = x * 2
    y.retain_grad()
    (y * 3).sum().backward(retain_graph=True)
    first_y = y.grad
    (y * 3).sum().backward()            # a retained grad is replaced, not updated
    return held.tolist(), held is x.grad, first_y.tolist(), y.grad.tolist()


def test_grad_accumulates_in_place_into_the_tensor_the_user_holds():
    # x.grad: 1 (set) + 2 + 6 + 6 = 15, into the same Tensor; y's retained grad 3, then
    # a new Tensor 6
    assert _held_grads(fg) == ([15.0, 15.0], True, [3.0, 3.0], [6.0, 6.0])


def test_grad_accumulation_in_place_matches_torch():
    torch = pytest.importorskip("torch")
    assert _held_grads(fg) == _held_grads(torch)


def test_complex_grad_output_for_a_real_output_raises():
    # the imaginary part was dropped with NumPy's ComplexWarning: grad was 2, silently
    x = fg.tensor([1.0, 2.0], dtype=fg.float64, requires_grad=True)
    with pytest.raises(RuntimeError, match="both grad_output and output are required to "
                                           "have the same dtype.*complex128.*float64"):
        fg.autograd.grad(x * 2, x, fg.tensor(np.array([1 + 1j, 1.0])))
    z = fg.tensor(np.array([1.0 + 0j]), requires_grad=True)
    with pytest.raises(RuntimeError, match="grad_output\\[0\\] has a dtype of float64"):
        (z * 2).backward(fg.tensor(np.array([1.0])))
    # real cotangents of another float dtype are cast, as in PyTorch: d(2x) = 2
    (g,) = fg.autograd.grad(x * 2, x, fg.tensor(np.array([1.0, 1.0], np.float32)))
    assert g.tolist() == [2.0, 2.0] and g.dtype == np.float64


def test_output_nr_names_the_output_of_grad_fn():
    x = fg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a, b, c = x.split(1)
    assert (x.output_nr, a.output_nr, b.output_nr, c.output_nr) == (0, 0, 1, 2)
    assert a.grad_fn is c.grad_fn


def test_output_nr_matches_torch():
    torch = pytest.importorskip("torch")
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert [t.output_nr for t in x.split(1)] == [0, 1, 2]


def test_logspace_and_randperm_factories():
    np.testing.assert_allclose(fg.logspace(0, 2, 3).numpy(), [1.0, 10.0, 100.0])
    assert fg.logspace(0, 2, 3).dtype == np.float32
    np.testing.assert_array_equal(fg.logspace(0, 3, 4, base=2, dtype=fg.float64).numpy(),
                                  [1.0, 2.0, 4.0, 8.0])
    fg.manual_seed(0)
    p = fg.randperm(6)
    assert p.dtype == np.int64 and sorted(p.tolist()) == list(range(6))


def test_cpu_and_device_questions():
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    np.testing.assert_array_equal(x.detach().cpu().numpy(), [1.0, 2.0])
    assert x.cpu() is x and x.is_cpu and not x.is_cuda and x.get_device() == -1
    with pytest.raises(RuntimeError, match="fg.device_put"):
        x.cuda()


# --- create_graph: double backward as torch computes it ----------------------------------------

def test_double_backward_of_a_composition_whose_inputs_depend_on_each_other():
    """A method composed under one node (atan2) with its second input computed from its
    first: with create_graph the first input's gradient is the partial derivative, as
    without it (once counted the path through x * x twice).  atan2(x, x**2) = atan(1/x)
    for x > 0: first derivative -1/(1 + x**2), second 2x/(1 + x**2)**2."""
    v = np.array([0.3, 0.7, 2.0])
    x = fg.tensor(v, requires_grad=True)
    g, = fg.autograd.grad(x.atan2(x * x).sum(), [x], create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), -1 / (1 + v ** 2))
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * v / (1 + v ** 2) ** 2)


DOUBLE_BACKWARD = {  # f(x) summed; gradient dotted with (1, 2, 3, 4), differentiated again
    "exp": lambda t: t.exp(), "log": lambda t: t.log(), "sin": lambda t: t.sin(),
    "tanh": lambda t: t.tanh(), "sigmoid": lambda t: t.sigmoid(), "pow": lambda t: t ** 3,
    "sqrt": lambda t: t.sqrt(), "softmax": lambda t: t.softmax(0) * t,
    "logsumexp": lambda t: t.logsumexp(0), "norm": lambda t: t.norm(),
    "matmul": lambda t: t.reshape(2, 2) @ t.reshape(2, 2), "reciprocal": lambda t: 1 / t,
    "var": lambda t: t.var(), "cumprod": lambda t: t.cumprod(0),
    "atan2": lambda t: t.atan2(t * t), "max": lambda t: t.max() * t,
}


@pytest.mark.parametrize("name", sorted(DOUBLE_BACKWARD))
def test_create_graph_double_backward_matches_torch(name):
    torch = pytest.importorskip("torch")
    v, w = np.array([0.3, 0.7, 1.2, 2.0]), np.array([1.0, 2.0, 3.0, 4.0])
    found = []
    for lib in (torch, fg):
        x = lib.tensor(v.copy(), requires_grad=True)
        g, = lib.autograd.grad(DOUBLE_BACKWARD[name](x).sum(), [x], create_graph=True)
        (g * lib.tensor(w)).sum().backward()
        found.append((g.detach().numpy(), x.grad.numpy()))
    np.testing.assert_allclose(found[1][0], found[0][0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(found[1][1], found[0][1], rtol=1e-10, atol=1e-12)


# --- edge points: torch's gradient conventions -------------------------------------------------

NAN, INF = float("nan"), float("inf")
EDGE_POINTS = {  # name: (function of the Tensors, inputs, torch 2.x's gradients of sum(f))
    "max_ties": (lambda x: x.max(), [[1.0, 3.0, 3.0]], [[0, 0.5, 0.5]]),
    "max_nan": (lambda x: x.max(), [[1.0, NAN, 3.0]], [[0, 1, 0]]),
    "max_two_nans": (lambda x: x.max(), [[1.0, NAN, NAN]], [[0, 0.5, 0.5]]),
    "min_nan": (lambda x: x.min(), [[1.0, NAN, 3.0]], [[0, 1, 0]]),
    "max_infinite_ties": (lambda x: x.max(), [[INF, 1.0, INF]], [[0.5, 0, 0.5]]),
    "amax_ties": (lambda x: x.amax(1), [[[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]],
                  [[[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]]]),
    "amax_nan": (lambda x: x.amax(), [[1.0, NAN, 3.0]], [[NAN, NAN, NAN]]),
    "max_dim_ties": (lambda x: x.max(1).values, [[[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]],
                     [[[0, 1, 0], [1, 0, 0]]]),
    "max_dim_nan": (lambda x: x.max(0).values, [[1.0, NAN, NAN]], [[0, 1, 0]]),
    "median_ties": (lambda x: x.median(), [[1.0, 2.0, 2.0, 3.0]], [[0, 0.5, 0.5, 0]]),
    "nanmedian_ties": (lambda x: x.nanmedian(), [[2.0, NAN, 2.0, 3.0]], [[0.5, 0, 0.5, 0]]),
    "maximum_nan": (lambda x, y: x.maximum(y), [[NAN, 1.0, 2.0], [1.0, NAN, 2.0]],
                    [[1, 1, 0.5], [1, 1, 0.5]]),
    "minimum_nan": (lambda x, y: x.minimum(y), [[NAN, 1.0, 2.0], [1.0, NAN, 2.0]],
                    [[1, 1, 0.5], [1, 1, 0.5]]),
    "max_of_two_nan": (lambda x, y: x.max(y), [[NAN, 0.0], [1.0, 0.0]], [[1, 0.5], [1, 0.5]]),
    "atan2_origin": (lambda x, y: x.atan2(y), [[0.0, 1e-200, 1.0], [0.0, 1e-200, 1.0]],
                     [[0, 0, 0.5], [0, 0, -0.5]]),
    "abs_zero": (lambda x: x.abs(), [[0.0, -1.0, 2.0]], [[0, -1, 1]]),
    "sqrt_zero": (lambda x: x.sqrt(), [[0.0, 4.0]], [[INF, 0.25]]),
    "norm_zero": (lambda x: x.norm(), [[0.0, 0.0]], [[0, 0]]),
    "norm_dim_zero": (lambda x: x.norm(dim=1), [[[0.0, 0.0], [3.0, 4.0]]],
                      [[[0, 0], [0.6, 0.8]]]),
    "clamp_bounds": (lambda x: x.clamp(0.0, 1.0), [[0.0, 0.5, 1.0, -1.0, 2.0]],
                     [[1, 1, 1, 0, 0]]),
    "clamp_nan": (lambda x: x.clamp(0.0, 1.0), [[NAN]], [[0]]),
    "relu_zero": (lambda x: x.relu(), [[0.0, -1.0, 1.0]], [[0, 0, 1]]),
    "xlogy_zeros": (lambda x, y: x.xlogy(y), [[0.0, 0.0, 1.0], [0.0, 2.0, 4.0]],
                    [[0, np.log(2.0), np.log(4.0)], [NAN, 0, 0.25]]),
    "norm_inf_nan": (lambda x: x.norm(p=INF, dim=1), [[[1.0, NAN, -3.0], [2.0, -4.0, 0.5]]],
                     [[[0, 0, 0], [0, -1, 0]]]),
    "norm_minus_inf_nan": (lambda x: x.norm(p=-INF), [[1.0, NAN, -3.0]], [[0, 0, 0]]),
}

# whose backward pass raises no floating-point warning (a NaN in, no 0 / 0 computed)
QUIET_EDGE_POINTS = {"norm_inf_nan", "norm_minus_inf_nan", "maximum_nan",
                     "minimum_nan", "max_of_two_nan", "max_nan", "min_nan"}


@pytest.mark.parametrize("name", sorted(EDGE_POINTS))
def test_edge_point_gradients_follow_torch(name):
    f, inputs, expected = EDGE_POINTS[name]
    xs = [fg.tensor(np.array(v), requires_grad=True) for v in inputs]
    y = f(*xs).sum()
    with warnings.catch_warnings():
        if name in QUIET_EDGE_POINTS:  # (torch's backward warns of nothing there either)
            warnings.simplefilter("error")
        y.backward()
    for x, e in zip(xs, expected):
        np.testing.assert_allclose(x.grad.numpy(), np.array(e, dtype=float), rtol=1e-15)


@pytest.mark.parametrize("name", sorted(EDGE_POINTS))
def test_edge_point_table_is_torch(name):
    """The expected gradients above are torch's (where torch is importable)."""
    torch = pytest.importorskip("torch")
    f, inputs, expected = EDGE_POINTS[name]
    xs = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in inputs]
    f(*xs).sum().backward()
    for x, e in zip(xs, expected):
        np.testing.assert_allclose(x.grad.numpy(), np.array(e, dtype=float), rtol=1e-15)


def test_hypot_at_the_origin_has_a_zero_gradient_unlike_torch():
    """A deliberate difference: torch's hypot gives 0/0 = NaN at (0, 0); funcgrad gives
    the subgradient 0 that torch's own norm gives there (hypot(x, y) = norm([x, y]))."""
    x, y = fg.tensor([0.0], requires_grad=True), fg.tensor([0.0], requires_grad=True)
    x.hypot(y).sum().backward()
    assert x.grad.item() == 0.0 and y.grad.item() == 0.0
    v = fg.tensor([0.0, 0.0], requires_grad=True)
    v.norm().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [0.0, 0.0])


def test_the_values_of_the_edge_conventions_are_unchanged():
    """The nodes that move the gradient keep the values' very bits."""
    for v in ([-0.0, -1.0], [0.1, 0.1, 0.2], [INF, 1.0, INF], [-INF, -INF], [1e308, 1e308]):
        x = fg.tensor(np.array(v), requires_grad=True)
        for method, expected in (("max", np.max(v)), ("min", np.min(v)),
                                 ("median", np.sort(v)[(len(v) - 1) // 2])):
            got = getattr(x, method)().item()
            assert got == expected and np.signbit(got) == np.signbit(expected), (v, method)
    assert fg.tensor([NAN, 1.0], requires_grad=True).max().isnan().item()
    x = fg.tensor([0.0, -0.0, 1.0], dtype=fg.float64, requires_grad=True)
    np.testing.assert_array_equal(x.atan2(fg.tensor(np.array([-0.0, -1.0, 1.0]))).detach(),
                                  np.arctan2([0.0, -0.0, 1.0], [-0.0, -1.0, 1.0]))
    assert [x.max(fg.tensor([1.0, 2.0, 0.5])).grad_fn.name()] == ["MaximumBackward0"]
    assert x.max().grad_fn.name() == "MaxBackward1"


def test_edge_conventions_differentiate_twice_like_torch():
    x = fg.tensor([1.0, NAN, NAN], requires_grad=True)
    g, = fg.autograd.grad(x.max() * 2, [x], create_graph=True)
    np.testing.assert_array_equal(g.detach().numpy(), [0.0, 1.0, 1.0])
    y = fg.tensor([2.0, 2.0, 1.0], requires_grad=True)
    g, = fg.autograd.grad((y.median() ** 2), [y], create_graph=True)
    np.testing.assert_array_equal(g.detach().numpy(), [2.0, 2.0, 0.0])  # 2m/2 at each tie
    g.sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [1.0, 1.0, 0.0])  # d(m)/dy summed, 2 * 1/2


# --- PyTorch's functions at the top level: fg.cat, fg.where, fg.exp(x)... ----------------------

def test_the_top_level_names_are_the_functions_module():
    from funcgrad.eager import functions
    assert sorted(fg._TORCH_FUNCTIONS) == sorted(functions.FUNCTIONS)
    for name in functions.FUNCTIONS:
        assert getattr(fg, name) is getattr(functions, name)
    star = {}
    exec("from funcgrad import *", star)
    assert "max" not in star and "sum" not in star  # Python's builtins stay themselves


def _values(out):
    if isinstance(out, (tuple, list)):
        return [_values(o) for o in out]
    return np.asarray(out.detach()) if hasattr(out, "detach") else out


@pytest.mark.parametrize("name", sorted(
    __import__("funcgrad.eager.functions", fromlist=["_METHODS"])._METHODS))
def test_method_functions_give_torchs_values(name):
    """Each fg.NAME(x, ...) called as its docstring example calls it, and torch.NAME on the
    same numbers: the same values, shapes and dtypes."""
    torch = pytest.importorskip("torch")
    from funcgrad.eager.functions import _INPUT, _METHODS
    args = _METHODS[name]
    call = f"lib.{name}({_INPUT.get(name, 'x')}{', ' if args else ''}{args})"
    found = []
    for lib in (torch, fg):
        x = lib.tensor(np.array([[0.5, 0.25], [0.9, 0.75]]))
        with np.errstate(all="ignore"):
            found.append(_values(eval(call, {"lib": lib, "fg": lib, "x": x})))
    expected, got = found
    if not isinstance(expected, list):
        expected, got = [expected], [got]
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert np.shape(g) == np.shape(e) and np.asarray(g).dtype == np.asarray(e).dtype
        np.testing.assert_allclose(np.asarray(g, float), np.asarray(e, float), rtol=1e-12,
                                   equal_nan=True)


def test_functions_of_several_tensors():
    a = fg.tensor(np.array([[1.0, 2.0]]), requires_grad=True)
    b = fg.tensor([[3, 4]])  # int64: promoted to a's float64, as torch.cat does
    c = fg.cat([a, b])
    assert c.dtype == np.float64 and c.grad_fn.name() == "CatBackward0"
    np.testing.assert_array_equal(c.detach(), [[1.0, 2.0], [3.0, 4.0]])
    assert fg.concat is fg.cat and fg.concatenate is fg.cat
    np.testing.assert_array_equal(fg.cat([a, a], dim=1).detach(), [[1.0, 2.0, 1.0, 2.0]])
    s = fg.stack([a[0], a[0] * 2], dim=1)
    np.testing.assert_array_equal(s.detach(), [[1.0, 2.0], [2.0, 4.0]])
    (s.sum() + fg.where(a > 1.5, a, 0.0).sum() + fg.einsum("ij,ij->", a, a)).backward()
    # stack: 1 + 2; where: 0 then 1; einsum: 2a
    np.testing.assert_array_equal(a.grad, [[3.0 + 0 + 2.0, 3.0 + 1 + 4.0]])
    np.testing.assert_array_equal(fg.where(fg.tensor([True, False, True]))[0], [0, 2])
    w = fg.where(fg.tensor([True, False]), 1.0, fg.tensor([5.0, 6.0]))
    np.testing.assert_array_equal(w, [1.0, 6.0])
    x, y = fg.broadcast_tensors(fg.tensor([1.0, 2.0]), fg.tensor([[3.0], [4.0]]))
    assert x.shape == y.shape == (2, 2)
    gx, gy = fg.meshgrid(fg.tensor([1.0, 2.0]), fg.tensor([3.0, 4.0, 5.0]))
    assert gx.shape == (2, 3)
    np.testing.assert_array_equal(fg.hstack([fg.tensor([1.0]), fg.tensor([2.0])]), [1.0, 2.0])
    np.testing.assert_array_equal(fg.vstack([fg.tensor([1.0]), fg.tensor([2.0])]), [[1.0], [2.0]])
    np.testing.assert_array_equal(
        fg.tensordot(fg.tensor([[1.0, 2.0]]), fg.tensor([[3.0], [4.0]]), dims=1), [[11.0]])
    with pytest.raises(TypeError, match="must be Tensor, not float.*fg.tensor"):
        fg.exp(2.0)
    with pytest.raises(ValueError, match="non-empty"):
        fg.cat([])


def test_functions_of_several_tensors_match_torch():
    torch = pytest.importorskip("torch")
    found = []
    for lib in (torch, fg):
        a = lib.tensor(np.array([[1.0, -2.0], [0.5, 3.0]]), requires_grad=True)
        b = lib.tensor([[1, 2], [3, 4]])
        out = (lib.cat([a, b], dim=1) ** 2).sum() + lib.stack([a, a.exp()], dim=2).sum() \
            + lib.where(a > 0, a.sin(), lib.tensor(0.5)).sum() \
            + lib.einsum("ij,jk->ik", a, a).sum() \
            + lib.tensordot(a, a, dims=([0], [1])).sum() \
            + sum(t.sum() for t in lib.broadcast_tensors(a[0], a[:, :1]))
        out.backward()
        found.append((out.item(), np.asarray(a.grad)))
    assert found[1][0] == pytest.approx(found[0][0], rel=1e-12)
    np.testing.assert_allclose(found[1][1], found[0][1], rtol=1e-12)


# --- layout: stride(), storage_offset(), is_contiguous(), contiguous(), as_strided -------------

LAYOUTS = {  # view of arange(12).reshape(3, 4): torch 2.x's (stride, storage_offset, contiguous)
    "t": (lambda x: x.t(), ((1, 4), 0, False)),
    "columns": (lambda x: x[:, 1:], ((4, 1), 1, False)),
    "every_other_row": (lambda x: x[::2], ((8, 1), 0, False)),
    "row": (lambda x: x[1], ((1,), 4, True)),
    "column": (lambda x: x[:, 2], ((4,), 2, False)),
    "unsqueeze": (lambda x: x.unsqueeze(1), ((4, 4, 1), 0, True)),
    "new_axis": (lambda x: x[None], ((12, 4, 1), 0, True)),
    "last_axis": (lambda x: x[..., None], ((4, 1, 1), 0, True)),
    "expand": (lambda x: x[:1].expand(3, 4), ((0, 1), 0, False)),
    "view": (lambda x: x.view(12), ((1,), 0, True)),
    "permute": (lambda x: x.reshape(3, 2, 2).permute(2, 0, 1), ((1, 4, 2), 0, False)),
    "diagonal": (lambda x: x.diagonal(), ((5,), 0, False)),
    "narrow": (lambda x: x.narrow(1, 1, 2), ((4, 1), 1, False)),
    "unbind": (lambda x: x.unbind(1)[2], ((4,), 2, False)),
    "split": (lambda x: x.split(2)[1], ((4, 1), 8, True)),
    "t_of_slice": (lambda x: x.t()[1:], ((1, 4), 1, False)),
    "flip_copies": (lambda x: x.flip(0), ((4, 1), 0, True)),
    "sum_of_transposed": (lambda x: x.t() + 1, ((1, 4), 0, False)),  # layout kept
    "contiguous": (lambda x: x.t().contiguous(), ((3, 1), 0, True)),
    "reshape_that_torch_copies": (lambda x: x.t().reshape(12), ((1,), 0, True)),
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layout_of_views_is_torchs(name):
    f, expected = LAYOUTS[name]
    v = f(fg.arange(12.0).reshape(3, 4))
    assert (v.stride(), v.storage_offset(), v.is_contiguous()) == expected


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layout_table_is_torch(name):
    torch = pytest.importorskip("torch")
    f, expected = LAYOUTS[name]
    v = f(torch.arange(12.0).reshape(3, 4))
    assert (v.stride(), v.storage_offset(), v.is_contiguous()) == expected


def test_stride_of_one_dim_and_size_one_convention():
    x = fg.zeros(2, 3)
    assert x.stride(1) == 1 and x.stride(-2) == 3
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.stride(2)
    # a dimension of size 1 gets unsqueeze's stride (torch keeps 4 here; it addresses nothing)
    assert fg.arange(12.0).reshape(3, 4)[:1].t().stride() == (1, 1)
    assert fg.tensor(1.0).stride() == () and fg.tensor(1.0).is_contiguous()


def test_as_strided_picks_torchs_elements_and_gradient():
    x = fg.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(x.as_strided((2, 3), (1, 2), 1).numpy(),
                                  [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    # relative to the storage, whatever view it is called on (torch: [[0, 1], [4, 5]])
    np.testing.assert_array_equal(x.t().as_strided((2, 2), (4, 1)).numpy(),
                                  [[0.0, 1.0], [4.0, 5.0]])
    np.testing.assert_array_equal(x[1:].as_strided((2,), (1,)).numpy(), [4.0, 5.0])  # offset 4
    # of what torch copies, the copy's storage (torch: [4, 8] and [8, 9])
    np.testing.assert_array_equal(x.t().reshape(12).as_strided((2,), (1,), 1).numpy(),
                                  [4.0, 8.0])
    np.testing.assert_array_equal(x.flip(0).as_strided((2,), (1,)).numpy(), [8.0, 9.0])
    # overlapping windows add their gradients: torch gives [0, 4, 12, 12, 8, 0]
    w = fg.tensor(np.arange(6.0), requires_grad=True)
    y = w.as_strided((3, 3), (1, 1))
    assert y.grad_fn.name() == "AsStridedBackward0"
    (y * fg.tensor(np.arange(9.0).reshape(3, 3))).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 4.0, 12.0, 12.0, 8.0, 0.0])
    # a view: an in-place update reaches the base (torch: [[7, 0, 0], [0, 7, 0]])
    z = fg.zeros(2, 3)
    with fg.no_grad():
        z.as_strided((2,), (4,)).fill_(7.0)
    np.testing.assert_array_equal(z.numpy(), [[7.0, 0.0, 0.0], [0.0, 7.0, 0.0]])
    with pytest.raises(RuntimeError, match="out of bounds for storage"):
        z.as_strided((2, 2), (3, 3))
    with pytest.raises(RuntimeError, match="one stride per dimension"):
        z.as_strided((2, 2), (1,))


def test_contiguous_copies_only_what_is_not_contiguous():
    x = fg.arange(6.0, requires_grad=True)
    m = x.reshape(2, 3)
    assert m.contiguous() is m
    c = m.t().contiguous()
    assert c.grad_fn.name() == "CloneBackward0" and c.stride() == (2, 1)
    (c * fg.arange(6.0).reshape(3, 2)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 2.0, 4.0, 1.0, 3.0, 5.0])


def test_flip_is_a_copy_not_a_view():
    """torch.flip copies: in-place updates of the flipped Tensor or of its input do not
    reach the other (funcgrad's flip, composed with basic indexing, once aliased them)."""
    x = fg.zeros(3)
    y = x.flip(0)
    x.add_(1.0)
    np.testing.assert_array_equal(y.numpy(), [0.0, 0.0, 0.0])
    y.add_(2.0)
    np.testing.assert_array_equal(x.numpy(), [1.0, 1.0, 1.0])
    w = fg.zeros(2, 2, requires_grad=True)
    assert w.fliplr()._storage.base is None


# --- random in-place fills ---------------------------------------------------------------------

def test_random_fills_draw_from_their_distributions():
    fg.manual_seed(0)
    u = fg.empty(20000, dtype=fg.float64).uniform_(-2.0, 3.0)
    assert -2 <= u.min().item() and u.max().item() < 3 and abs(u.mean().item() - 0.5) < 0.05
    n = fg.empty(20000, dtype=fg.float64).normal_(1.0, 2.0)
    assert abs(n.mean().item() - 1.0) < 0.06 and abs(n.std().item() - 2.0) < 0.06
    e = fg.empty(20000, dtype=fg.float64).exponential_(4.0)
    assert e.min().item() >= 0 and abs(e.mean().item() - 0.25) < 0.01
    b = fg.empty(20000).bernoulli_(0.3)
    assert set(np.unique(b.numpy())) <= {0.0, 1.0} and abs(b.mean().item() - 0.3) < 0.02
    np.testing.assert_array_equal(fg.ones(3).bernoulli_(fg.tensor([0.0, 1.0, 0.0])).numpy(),
                                  [0.0, 1.0, 0.0])
    g = fg.empty(20000, dtype=fg.float64).geometric_(0.5)
    assert g.min().item() >= 1 and abs(g.mean().item() - 2.0) < 0.05  # mean 1/p
    c = fg.empty(20001, dtype=fg.float64).cauchy_(3.0, 0.1)
    assert abs(c.median().item() - 3.0) < 0.01
    ln = fg.empty(20000, dtype=fg.float64).log_normal_(0.5, 0.25)
    assert ln.min().item() > 0 and abs(ln.log().mean().item() - 0.5) < 0.01
    r = fg.empty(1000).random_(3, 5)
    assert set(np.unique(r.numpy())) == {3.0, 4.0}
    assert set(np.unique(fg.zeros(1000, dtype=fg.int64).random_(4).numpy())) == {0, 1, 2, 3}
    big = fg.zeros(1000, dtype=fg.float32).random_()  # [0, 2**24]: exact in float32
    assert big.min().item() >= 0 and big.max().item() <= 2 ** 24 and big.max().item() > 2 ** 20


def test_random_fills_are_seeded_in_place_and_zero_the_gradient():
    fg.manual_seed(7)
    a = fg.empty(5).normal_()
    fg.manual_seed(7)
    b = fg.empty(5).normal_()
    assert fg.equal(a, b)
    rng = np.random.default_rng(3)
    expected = np.random.default_rng(3).uniform(0.0, 1.0, 4).astype(np.float32)
    np.testing.assert_array_equal(fg.empty(4).uniform_(generator=rng).numpy(), expected)
    x = fg.zeros(2, 3)
    with fg.no_grad():
        x[1].uniform_(5.0, 6.0)  # a view: reaches x
    assert (x[0] == 0).all().item() and (x[1] >= 5).all().item()
    w = fg.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        w.normal_()
    y = w * 2
    version = y._version
    y.uniform_()
    assert y._version == version + 1
    (y * 3).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 0.0, 0.0])  # torch: zeros
    with pytest.raises(RuntimeError, match="not implemented.*int64"):
        fg.zeros(2, dtype=fg.int64).uniform_()
    with pytest.raises(RuntimeError, match="from=2.0 > to=1.0"):
        fg.zeros(2).uniform_(2.0, 1.0)


# --- the autograd API on non-leaf Tensors, as torch ----------------------------------------------

def test_requires_grad_true_on_a_computed_tensor_is_accepted_false_raises():
    """torch: y.requires_grad_(True) on a non-leaf is a no-op; False raises."""
    y = fg.tensor([1.0], requires_grad=True) * 2
    assert y.requires_grad_(True) is y and y.requires_grad and not y.is_leaf
    with pytest.raises(RuntimeError, match="only change requires_grad flags of leaf"):
        y.requires_grad_(False)
    with pytest.raises(RuntimeError, match="floating point"):
        fg.tensor([1, 2]).requires_grad_()


def test_detach_in_place_refuses_views_as_torch():
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y * 3
    assert y.detach_() is y and y.is_leaf and not y.requires_grad and y.grad_fn is None
    z.sum().backward()  # the graph already recorded is untouched (torch: x.grad == 6)
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 6.0])
    with pytest.raises(RuntimeError, match="Can't detach views in-place. Use detach()"):
        (x * 2)[0:1].detach_()
    with pytest.raises(RuntimeError, match="Can't detach views in-place"):
        fg.zeros(3)[1:].detach_()


def test_hooks_retain_grad_and_graph_walks_match_torch():
    torch = pytest.importorskip("torch")
    found = []
    for lib in (torch, fg):
        x = lib.tensor(np.array([1.0, 2.0]), requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: g * 10)
        y.retain_grad()
        seen = []
        e = y.exp()
        e.register_hook(lambda g: seen.append(g.detach().clone()))
        w = x * 1
        handle = w.register_hook(lambda g: g * 100)
        handle.remove()
        (y * y + e + w).sum().backward()
        a, b = lib.tensor([1.0], requires_grad=True), lib.tensor([2.0])
        c = a * b + b
        links = [(None if f is None else f.name(), i) for f, i in c.grad_fn.next_functions]
        inner = [(None if f is None else f.name().split("::")[-1], i)
                 for f, i in c.grad_fn.next_functions[0][0].next_functions]
        u, v = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([3.0], requires_grad=True)
        gu, gv = lib.autograd.grad((u ** 3).sum(), [u, v], allow_unused=True,
                                   materialize_grads=True, create_graph=True)
        again = lib.autograd.grad(gu.sum() + gv.sum(), [u, v], allow_unused=True,
                                  materialize_grads=True)
        found.append([np.asarray(y.grad), np.asarray(x.grad), np.asarray(seen[0]), links,
                      inner, np.asarray(gu.detach()), np.asarray(gv.detach()),
                      gv.requires_grad, np.asarray(again[0]), np.asarray(again[1])])
    for t, f in zip(*found):
        if isinstance(t, np.ndarray):
            np.testing.assert_allclose(f, t, rtol=1e-12)
        else:
            assert f == t


def test_edge_conventions_keep_forward_ad_tangents():
    """The tie-sharing nodes are for the tape; a dual value's tangent still flows through
    median(), max() and maximum (torch's forward AD: the tangent at the picked element)."""
    import funcgrad.forward_ad as fwAD
    x = fg.tensor(np.array([1.0, 3.0, 2.0]))
    with fwAD.dual_level():
        d = fwAD.make_dual(x, fg.tensor(np.array([1.0, 10.0, 100.0])))
        assert fwAD.unpack_dual(d.median()).tangent.item() == 100.0
        assert fwAD.unpack_dual(d.nanmedian()).tangent.item() == 100.0
        assert fwAD.unpack_dual(fg.median(d)).tangent.item() == 100.0
        assert fwAD.unpack_dual(d.max()).tangent.item() == 10.0
        np.testing.assert_array_equal(
            fwAD.unpack_dual(d.maximum(fg.tensor(np.full(3, 2.5)))).tangent, [0.0, 10.0, 0.0])


def test_torch_functions_differentiate_under_the_transforms():
    """fg.exp(x), fg.cat(...), fg.where(...) take traced values too, as Tensor methods do
    (closed forms: d/dx sum(exp x) = exp x, ...)."""
    x = np.array([1.0, 2.0])
    np.testing.assert_allclose(fg.grad(lambda t: fg.exp(t).sum())(x), np.exp(x))
    np.testing.assert_allclose(fg.grad(lambda t: fg.cat([t, t * 2]).sum())(x), [3.0, 3.0])
    np.testing.assert_allclose(fg.grad(lambda t: fg.where(t > 1.5, t, 0.0).sum())(x),
                               [0.0, 1.0])
    np.testing.assert_allclose(fg.grad(lambda t: fg.einsum("i,i->", t, t))(x), 2 * x)
    np.testing.assert_allclose(fg.grad(lambda t: fg.clamp(t, 0.0, 1.5).sum())(x), [1.0, 0.0])

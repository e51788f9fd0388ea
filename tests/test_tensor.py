"""The eager Tensor (funcgrad.eager): PyTorch's dynamic-graph model on funcgrad's rules.

References come from outside the tape: closed-form gradients, ``fg.grad``/``fg.hessian``
(the functional transforms), and PyTorch itself when it is installed.
"""
import re

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

T = fg.Tensor


def value(t):
    """The plain NumPy value of a Tensor (detached)."""
    return np.array(t.detach().numpy())


def rand(rng, *shape):
    return rng.standard_normal(shape)


# --- the seed tutorial ------------------------------------------------------------------------

def test_seed_tutorial_example_end_to_end():
    # PyTorch's autograd tutorial: b = w1*a, c = w2*a, d = w3*b + w4*c, L = (10 - d).sum()
    rng = np.random.default_rng(0)
    a_, w1_, w2_, w3_, w4_ = (rand(rng, 3, 3) for _ in range(5))
    a = T(a_, requires_grad=True)
    w1 = T(w1_, requires_grad=True)
    w2 = T(w2_, requires_grad=True)
    w3 = T(w3_, requires_grad=True)
    w4 = T(w4_, requires_grad=True)

    b = w1 * a
    c = w2 * a
    d = w3 * b + w4 * c
    L = (10 - d).sum()

    assert a.grad is None and w1.grad is None
    assert a.is_leaf and a.grad_fn is None and a.requires_grad
    assert not b.is_leaf and b.requires_grad
    assert b.grad_fn.name() == "MulBackward0" and repr(b.grad_fn) == "<MulBackward0>"
    assert d.grad_fn.name() == "AddBackward0"
    assert (10 - d).grad_fn.name() == "SubBackward0"
    assert L.grad_fn.name() == "SumBackward0"
    (fn_w1, nr_w1), (fn_a, nr_a) = b.grad_fn.next_functions
    assert fn_w1.name() == "torch::autograd::AccumulateGrad" and fn_w1.variable is w1 and nr_w1 == 0
    assert fn_a.variable is a
    assert L.shape == () and repr(L).endswith("grad_fn=<SumBackward0>)")

    L.backward()

    np.testing.assert_allclose(a.grad, -(w3_ * w1_ + w4_ * w2_))
    np.testing.assert_allclose(w1.grad, -w3_ * a_)
    np.testing.assert_allclose(w2.grad, -w4_ * a_)
    np.testing.assert_allclose(w3.grad, -w1_ * a_)
    np.testing.assert_allclose(w4.grad, -w2_ * a_)
    assert isinstance(a.grad, T) and a.grad.grad_fn is None and not a.grad.requires_grad
    assert float(L) == pytest.approx(np.sum(10 - (w3_ * w1_ * a_ + w4_ * w2_ * a_)))


def test_seed_tutorial_matches_pytorch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    arrays = [rand(rng, 3, 3) for _ in range(5)]

    def run(make, total):
        a, w1, w2, w3, w4 = (make(x) for x in arrays)
        d = w3 * (w1 * a) + w4 * (w2 * a)
        total(10 - d).backward()
        return [np.asarray(t.grad) for t in (a, w1, w2, w3, w4)]

    ours = run(lambda x: T(x, requires_grad=True), lambda t: t.sum())
    theirs = run(lambda x: torch.tensor(x, requires_grad=True), lambda t: t.sum())
    for g, h in zip(ours, theirs):
        np.testing.assert_allclose(g, h)


def test_mlp_gradients_match_pytorch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    X, W1, b1, W2 = rand(rng, 5, 4), rand(rng, 4, 8), rand(rng, 8), rand(rng, 8, 1)
    ours = [T(p, requires_grad=True) for p in (W1, b1, W2)]
    (np.tanh(T(X) @ ours[0] + ours[1]) @ ours[2]).__pow__(2).mean().backward()
    theirs = [torch.tensor(p, requires_grad=True) for p in (W1, b1, W2)]
    (torch.tanh(torch.tensor(X) @ theirs[0] + theirs[1]) @ theirs[2]).pow(2).mean().backward()
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.grad, q.grad.numpy(), rtol=1e-10)


# --- construction, attributes, NumPy interplay ------------------------------------------------

def test_tensor_attributes_and_repr():
    t = T([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    assert t.shape == (2, 2) and t.dtype == np.float32 and t.ndim == 2 and t.size == 4
    assert repr(T([1.0, 2.0], requires_grad=True)) == "tensor([1., 2.], requires_grad=True)"
    assert repr(T([1.0, 2.0])) == "tensor([1., 2.])"
    assert repr(T([1.0], dtype=np.float64)) == "tensor([1.], dtype=float64)"
    assert repr(T(np.array([1, 2], np.int32))) == "tensor([1, 2], dtype=int32)"
    assert repr(t * 2) == "tensor([[2., 4.],\n        [6., 8.]], grad_fn=<MulBackward0>)"
    assert t.T.grad_fn is not None and value(t.T)[0, 1] == 3.0
    assert (t @ t).grad_fn.name() == "MmBackward0"
    assert (t / 2).grad_fn.name() == "DivBackward0"
    assert t.sum().item() == 10.0 and t.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert float(t.sum()) == 10.0 and f"{t.sum():.1f}" == "10.0"
    assert t.detach().requires_grad is False and t.detach().grad_fn is None


def test_constructor_copies_its_input_and_numpy_is_a_read_only_view():
    source = np.array([1.0, 2.0])
    t = T(source)
    source[0] = 100.0
    assert value(t)[0] == 1.0
    view = t.numpy()
    assert not view.flags.writeable
    with pytest.raises(ValueError):
        view[0] = 5.0
    assert not np.asarray(t).flags.writeable


def test_only_floating_tensors_can_require_grad():
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require "
                                           "gradients"):
        T([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype"):
        T([True]).requires_grad_()
    assert T([1, 2], dtype=np.float32, requires_grad=True).dtype == np.float32


def test_requires_grad_propagates_and_only_leaves_may_change_it():
    x = T([1.0], requires_grad=True)
    c = T([2.0])
    assert (x * c).requires_grad and not (c * c).requires_grad
    assert (c * c).grad_fn is None and (c * c).is_leaf
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf "
                                           "variables"):
        (x * c).requires_grad = False
    c.requires_grad = True
    assert (c * 2).requires_grad


def test_numpy_on_a_tensor_that_requires_grad_raises():
    t = T([1.0, 2.0], requires_grad=True)
    message = re.escape("Can't call numpy() on Tensor that requires grad. Use "
                        "tensor.detach().numpy() instead.")
    with pytest.raises(RuntimeError, match=message):
        t.numpy()
    with pytest.raises(RuntimeError, match=message):
        np.asarray(t)
    np.testing.assert_array_equal(t.detach().numpy(), [1.0, 2.0])


def test_plain_numpy_functions_methods_and_operators_work_on_tensors():
    x = T([0.5, 1.5], requires_grad=True)
    y = np.sum(np.exp(x) * np.sin(x)) + np.mean(x ** 2) - x.max() + abs(-x).min()
    assert isinstance(y, T) and y.requires_grad
    y.backward()
    x_ = np.array([0.5, 1.5])
    expected = np.exp(x_) * (np.sin(x_) + np.cos(x_)) + x_ - [0.0, 1.0] + [1.0, 0.0]
    np.testing.assert_allclose(x.grad, expected)
    # a NumPy array on the left still reaches the Tensor
    z = np.array([1.0, 2.0]) * x
    assert isinstance(z, T) and z.grad_fn.name() == "MulBackward0"
    # NumPy functions funcgrad has no derivative for run on values that need none
    assert np.shares_memory(T([1.0, 2.0]), T([1.0, 2.0])) is False
    with pytest.raises(TypeError, match="not supported on a Tensor that requires grad"):
        np.array2string(x)


def test_dtype_and_memory_questions_are_answered_for_tensors_that_require_grad():
    """np.result_type, can_cast, min_scalar_type, common_type, shares_memory and
    may_share_memory carry no derivative: a Tensor that requires grad gets NumPy's answer
    for its value (they raised, while traced values answer them), and inside a transform
    the traced value answers as the Tensor does."""
    v32, v64 = np.ones(3, np.float32), np.ones(2)
    x, y = T(v32.copy(), requires_grad=True), T(v64.copy(), requires_grad=True)
    view = x[1:]  # basic indexing gives a view of x's buffer, as in NumPy and PyTorch
    assert np.result_type(x, 1.0) == np.result_type(v32, 1.0) == np.float32
    assert np.result_type(x, y) == np.float64
    assert np.can_cast(x, np.float16) is np.can_cast(v32, np.float16) is False
    assert np.can_cast(x, np.float64) is True
    assert np.min_scalar_type(x) == np.float32
    assert np.common_type(x, y) is np.float64
    assert np.shares_memory(x, view) is np.shares_memory(v32, v32[1:]) is True
    assert np.shares_memory(x, y) is False and np.may_share_memory(x, x) is True
    g = fg.grad(lambda a: (a ** 2 * np.can_cast(a, np.float64)).sum())(y)  # (traced Tensor)
    np.testing.assert_array_equal(value(g), [2.0, 2.0])
    seen = []
    fg.grad(lambda a: seen.append(np.result_type(a, 1.0)) or a.sum())(x)
    assert seen == [np.float32]


def test_indexing_reshaping_and_splitting_are_differentiable():
    x = T(np.arange(6.0), requires_grad=True)
    parts = fnp.split(x, 3)
    assert parts[0].grad_fn.name() == "SplitBackward0"
    y = (parts[0] * parts[2]).sum() + x.reshape(2, 3)[1, 2] + x[T(np.array([0, 0]))].sum()
    y.backward()
    np.testing.assert_allclose(x.grad, [4.0 + 2.0, 5.0, 0.0, 0.0, 0.0, 1.0 + 1.0])


def test_float32_stays_float32():
    x = T(np.ones(3, np.float32), requires_grad=True)
    (x * 2.0 + 1.0).sum().backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_allclose(x.grad, [2.0, 2.0, 2.0])


def test_ones_and_zeros():
    assert isinstance(fg.ones(2, 3), T) and fg.ones(2, 3).shape == (2, 3)
    assert fg.zeros((2,)).dtype == np.float32 and not fg.zeros(2).requires_grad
    assert fg.ones(2, dtype=np.float32, requires_grad=True).requires_grad


# --- backward ------------------------------------------------------------------------------------

def test_nonscalar_backward_needs_a_gradient():
    x = T([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar "
                                           "outputs"):
        y.backward()
    y.backward(gradient=fg.ones(y.shape))
    np.testing.assert_allclose(x.grad, [2.0, 4.0, 6.0])
    x.grad = None
    (x * x).backward(gradient=np.array([1.0, 0.0, 2.0]))
    np.testing.assert_allclose(x.grad, [2.0, 0.0, 12.0])


def test_backward_errors():
    x = T([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and "
                                           "does not have a grad_fn"):
        T([1.0]).sum().backward()
    with pytest.raises(RuntimeError, match=re.escape(
            "Mismatch in shape: grad_output[0] has a shape of (3,) and output[0] has a shape "
            "of (2,).")):
        (x * 2).backward(gradient=np.ones(3))


def test_second_backward_without_retain_graph_raises():
    x = T([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert str(info.value) == (
        "Trying to backward through the graph a second time (or directly access saved "
        "tensors after they have already been freed). Saved intermediate values of the graph "
        "are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
        "you need to backward through the graph a second time or if you need to access saved "
        "tensors after calling backward.")
    # a graph that saved no values (shapes and Python numbers only) has nothing to free,
    # as in PyTorch
    z = (x * 2 + 1).sum()
    z.backward()
    z.backward()
    # ... but a saved NumPy array counts, as PyTorch saves the tensor it becomes
    z = (x * np.ones(2)).sum()
    z.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second "
                                           "time"):
        z.backward()


def test_gradients_accumulate_over_two_backwards_with_retain_graph():
    x = T([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    y.backward(retain_graph=True)
    first = x.grad
    np.testing.assert_allclose(first, [3.0, 12.0])
    y.backward()
    np.testing.assert_allclose(x.grad, [6.0, 24.0])
    # PyTorch's AccumulateGrad adds into the existing .grad in place outside create_graph:
    # the reference taken after the first pass shows the sum
    assert first is x.grad
    np.testing.assert_allclose(first, [6.0, 24.0])
    x.grad = None
    (x * 1.0).sum().backward()
    np.testing.assert_allclose(x.grad, [1.0, 1.0])


def test_backward_inputs_and_retain_grad():
    x = T([1.0, 2.0], requires_grad=True)
    w = T([3.0, 4.0], requires_grad=True)
    h = x * w
    h.retain_grad()
    (h * h).sum().backward(inputs=[w], retain_graph=True)
    np.testing.assert_allclose(w.grad, 2 * (value(x) * value(w)) * value(x))
    assert x.grad is None  # only the inputs asked for among the leaves
    # a non-leaf on the way that retains its grad gets it, as in PyTorch
    np.testing.assert_allclose(h.grad, 2 * value(x) * value(w))
    (h * h).sum().backward()
    np.testing.assert_allclose(h.grad, 4 * value(x) * value(w))  # accumulated
    np.testing.assert_allclose(x.grad, 2 * value(x) * value(w) ** 2)


def test_ten_thousand_operation_chain():
    x = T(1.0, dtype=np.float64, requires_grad=True)
    y = x
    for _ in range(10_000):
        y = y * 1.0001
    y.backward()
    assert float(x.grad) == pytest.approx(1.0001 ** 10_000, rel=1e-9)


# --- fg.autograd.grad ----------------------------------------------------------------------------

def test_autograd_grad_does_not_touch_dot_grad():
    x = T([1.0, 2.0], requires_grad=True)
    y = T(3.0, requires_grad=True)
    out = (x * y).sum()
    gx, gy = fg.autograd.grad(out, [x, y])
    np.testing.assert_allclose(gx, [3.0, 3.0])
    assert float(gy) == 3.0
    assert x.grad is None and y.grad is None


def test_autograd_grad_unused_inputs():
    x = T([1.0], requires_grad=True)
    unused = T([2.0], requires_grad=True)
    out = (x * 2).sum()
    with pytest.raises(RuntimeError) as info:
        fg.autograd.grad(out, [x, unused], retain_graph=True)
    assert str(info.value) == ("The differentiated Tensor at index 1 appears to not have "
                               "been used in the graph. Set allow_unused=True if this is the "
                               "desired behavior.")  # PyTorch's words, naming the input
    gx, gu = fg.autograd.grad(out, [x, unused], allow_unused=True, retain_graph=True)
    assert gu is None and float(gx[0]) == 2.0
    _, gu = fg.autograd.grad(out, [x, unused], materialize_grads=True)
    np.testing.assert_array_equal(gu, [0.0])
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not "
                                           "require grad"):
        fg.autograd.grad((x * 2).sum(), [T([1.0])])


def test_autograd_grad_with_respect_to_an_intermediate():
    x = T([1.0, 2.0], requires_grad=True)
    h = x * 3
    out = (h ** 2).sum()
    gh, gx = fg.autograd.grad(out, [h, x], grad_outputs=[T(2.0)])
    np.testing.assert_allclose(gh, 4 * value(h))
    np.testing.assert_allclose(gx, 12 * value(h))


# --- double backward -----------------------------------------------------------------------------

def _f(v):
    return np.sum(np.sin(v) * v ** 2) + v[0] * v[1] ** 3 + np.sum(np.exp(v) / (1.0 + v ** 2))


def test_double_backward_via_create_graph_equals_hessian():
    x_ = np.array([0.3, -0.7, 1.1])
    x = T(x_, requires_grad=True)
    y = _f(x)
    (g,) = fg.autograd.grad(y, x, create_graph=True)
    assert g.grad_fn is not None and g.requires_grad
    np.testing.assert_allclose(g.detach().numpy(), fg.grad(_f)(x_))
    rows = [fg.autograd.grad(g[i], x, retain_graph=True)[0].numpy() for i in range(3)]
    np.testing.assert_allclose(np.stack(rows), fg.hessian(_f)(x_), rtol=1e-10, atol=1e-12)


def test_backward_with_create_graph_gives_a_differentiable_dot_grad():
    x_ = np.array([0.3, -0.7, 1.1])
    v = np.array([1.0, -2.0, 0.5])
    x = T(x_, requires_grad=True)
    _f(x).backward(create_graph=True)
    first = x.grad
    assert first.grad_fn is not None
    np.testing.assert_allclose(first.detach().numpy(), fg.grad(_f)(x_))
    x.grad = None
    (first * T(v)).sum().backward()
    np.testing.assert_allclose(x.grad, fg.hessian(_f)(x_) @ v, rtol=1e-10)


# --- gradient modes ------------------------------------------------------------------------------

def test_no_grad_records_nothing():
    x = T([1.0, 2.0], requires_grad=True)
    with fg.no_grad():
        y = x * 2
    assert not y.requires_grad and y.grad_fn is None and y.is_leaf
    with fg.set_grad_enabled(False):
        assert (x * 2).grad_fn is None
        with fg.enable_grad():
            assert (x * 2).grad_fn is not None

    @fg.no_grad()
    def doubled(t):
        return t * 2

    assert not doubled(x).requires_grad
    with pytest.raises(RuntimeError, match="does not require grad"):
        y.sum().backward()


def test_inference_mode_results_cannot_be_saved_for_backward():
    x = T([1.0, 2.0], requires_grad=True)
    with fg.inference_mode():
        frozen = x * 2
    assert not frozen.requires_grad
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        frozen * x  # multiply saves each input for the other's gradient
    (frozen + x).sum().backward()  # add saves nothing: allowed, as in PyTorch
    np.testing.assert_allclose(x.grad, [1.0, 1.0])
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside "
                                           "InferenceMode is not allowed"):
        frozen += 1
    ok = frozen.clone() * x  # a clone is a normal tensor
    assert ok.requires_grad


# --- in-place updates and the version counter ----------------------------------------------------

VERSION_ERROR = ("one of the variables needed for gradient computation has been modified by an "
                 "inplace operation")


def test_in_place_update_of_a_saved_leaf_is_detected_at_backward():
    w = T([1.0, 2.0], requires_grad=True)
    loss = (w * w).sum()
    assert w._version == 0
    with fg.no_grad():
        w -= 0.1 * fg.ones(2)
    assert w._version == 1 and w.is_leaf and w.requires_grad
    np.testing.assert_allclose(value(w), [0.9, 1.9])
    with pytest.raises(RuntimeError, match=re.escape(VERSION_ERROR) + r": \[float32 tensor of "
                       r"shape \[2\]\] is at version 1; expected version 0 instead\."):
        loss.backward()


def test_in_place_update_of_a_saved_output_is_detected():
    x = T([0.0, 1.0], requires_grad=True)
    y = np.exp(x)  # exp's gradient reads its output
    y += 1
    with pytest.raises(RuntimeError, match=re.escape(VERSION_ERROR) + ".*which is output 0 of "
                       "ExpBackward0, is at version 1; expected version 0 instead"):
        y.sum().backward()


def test_in_place_through_data_bumps_the_version():
    w = T([1.0, 2.0], requires_grad=True)
    loss = (w * w).sum()
    w.data[0] = 5.0
    assert value(w)[0] == 5.0 and w._version == 1
    with pytest.raises(RuntimeError, match=re.escape(VERSION_ERROR)):
        loss.backward()
    w.data.zero_()
    np.testing.assert_array_equal(value(w), [0.0, 0.0])


def test_in_place_rules_for_leaves_and_recorded_updates():
    x = T([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=re.escape(
            "a leaf Variable that requires grad is being used in an in-place operation.")):
        x += 1
    h = x * 2  # multiply by a constant does not need h later: updating h in place is fine
    h += x
    h.mul_(3)
    h[0] = h[0] * 10
    assert h.grad_fn.name() == "torch::autograd::CopySlices"
    h.sum().backward()
    np.testing.assert_allclose(x.grad, [90.0, 9.0])
    # in-place updates without gradients: the Tensor is updated, its identity kept
    c = T([1.0, 2.0])
    same = c
    c += 1
    c.add_(T([1.0, 1.0]), alpha=2).sub_(1.0).div_(2.0)
    assert same is c
    np.testing.assert_allclose(value(c), [1.5, 2.0])
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        c += np.ones((2, 2))


def test_copy_and_fill_in_place_keep_the_graph_right():
    src = T([1.0, 2.0], requires_grad=True)
    h = fg.zeros(2) * 1.0
    h.copy_(src * 3)
    h.sum().backward()
    np.testing.assert_allclose(src.grad, [3.0, 3.0])
    w = T([1.0, 2.0], requires_grad=True)
    h = w * 1.0
    h.fill_(7.0)
    (h * w).sum().backward()
    np.testing.assert_allclose(w.grad, [7.0, 7.0])  # the filled part carries no gradient


# --- in-place updates through views (funcgrad.eager.views) ---------------------------------------

X34 = np.arange(12.0).reshape(3, 4) / 10 - 0.5


@pytest.mark.parametrize("update, numpy_update", [
    (lambda z: z[0].__setitem__(1, 5.0), lambda a: a[0].__setitem__(1, 5.0)),
    (lambda z: z.t()[2].add_(5.0), lambda a: a.T[2].__iadd__(5.0)),
    (lambda z: z.view(-1)[:5].zero_(), lambda a: a.reshape(-1)[:5].fill(0.0)),
    (lambda z: z.diagonal().fill_(7.0), lambda a: a.__setitem__((range(3), range(3)), 7.0)),
    (lambda z: z.narrow(1, 1, 2).mul_(2.0), lambda a: a[:, 1:3].__imul__(2.0)),
    (lambda z: z.select(1, 0).copy_(T([1.0, 2.0, 3.0])),
     lambda a: a[:, 0].__setitem__(slice(None), [1.0, 2.0, 3.0])),
    (lambda z: z.chunk(2, 1)[1].neg_(), lambda a: np.negative(a[:, 2:], out=a[:, 2:])),
    (lambda z: z.unsqueeze(0).permute(2, 1, 0)[3, 1:].clamp_(max=0.0),
     lambda a: np.minimum(a[1:, 3], 0.0, out=a[1:, 3])),
    (lambda z: z[1:][::2, ::-1].mul_(10.0), lambda a: a[1:][::2, ::-1].__imul__(10.0)),
])
def test_in_place_updates_of_views_reach_the_base_as_in_pytorch(update, numpy_update):
    z = T(X34)
    update(z)
    expected = X34.copy()
    numpy_update(expected)
    np.testing.assert_array_equal(value(z), expected)


def test_in_place_updates_of_the_base_reach_its_live_views():
    z = T(X34)
    row, col, flat = z[0], z[:, 1], z.view(-1)
    z.mul_(2.0)
    np.testing.assert_array_equal(value(row), 2 * X34[0])
    row.fill_(9.0)  # one view's update reaches the base, and through it the others
    np.testing.assert_array_equal(value(col), [9.0, 2 * X34[1, 1], 2 * X34[2, 1]])
    np.testing.assert_array_equal(value(flat)[:4], [9.0] * 4)


def test_a_parameter_initialised_through_views_under_no_grad_stays_a_leaf():
    w = fg.zeros(3, 2, requires_grad=True)
    with fg.no_grad():
        w[0].fill_(1.0)
        w.t()[1].add_(2.0)
    np.testing.assert_array_equal(value(w), [[1.0, 3.0], [0.0, 2.0], [0.0, 2.0]])
    assert w.is_leaf and w.requires_grad and w.grad_fn is None
    (w * w).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), 2 * value(w))
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        w[0].fill_(1.0)


def test_gradients_flow_through_an_in_place_update_of_a_view():
    x = T(X34, requires_grad=True)
    y = T([2.0, -1.0, 3.0, 0.5], requires_grad=True)
    W = np.cos(np.arange(12.0)).reshape(3, 4)
    z = x * 1.0
    z[1].mul_(y)            # z = x with row 1 scaled by y
    z.t()[0].add_(y[:3])    # and y[:3] added to column 0
    (z * T(W)).sum().backward()
    gx = W.copy()
    gx[1] *= [2.0, -1.0, 3.0, 0.5]
    np.testing.assert_allclose(x.grad.numpy(), gx)
    gy = W[1] * X34[1]
    gy[:3] += W[:, 0]
    np.testing.assert_allclose(y.grad.numpy(), gy)


def test_views_that_cannot_be_written_through_or_saved_values_they_change_raise():
    x = T([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        (x * 1).expand(3, 2).mul_(2.0)
    y = x.exp()                      # exp saves its output, y
    y[0].mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
    z = x * 1.0
    s = z[0].sin()                   # sin saves its input, the view z[0]
    z.add_(1.0)                      # changes the view too
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        s.backward()


def test_shape_changing_in_place_methods_keep_aliases_views_and_gradients():
    x = T(X34, requires_grad=True)
    z = x * 2.0
    alias, row = z.detach(), z[0]
    assert z.t_() is z and z.shape == (4, 3) and alias.shape == (3, 4)
    z[0].mul_(10.0)                   # z's first row is the old first column
    expected = 2 * X34
    expected[:, 0] *= 10
    np.testing.assert_array_equal(value(alias), expected)
    np.testing.assert_array_equal(value(row), expected[0])
    z.unsqueeze_(0).squeeze_(0).transpose_(0, 1).swapaxes_(1, 0)
    assert z.shape == (4, 3)
    z.sum().backward()
    g = np.full((3, 4), 2.0)
    g[:, 0] = 20.0
    np.testing.assert_array_equal(x.grad.numpy(), g)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x.unsqueeze_(0)
    with fg.no_grad():
        x.unsqueeze_(0)
    assert x.shape == (1, 3, 4) and x.is_leaf and x.requires_grad


def test_real_and_imag_are_views_that_write_through_or_raise():
    x = T([1.0, 2.0])
    x.real.mul_(3.0)
    np.testing.assert_array_equal(value(x), [3.0, 6.0])
    z = T(np.array([1 + 2j, 3 - 1j]))
    imag = z.imag
    z.mul_(2.0)
    np.testing.assert_array_equal(value(imag), [4.0, -2.0])
    with pytest.raises(RuntimeError, match=r"complex Tensor's .real cannot reach the Tensor"):
        z.real.zero_()  # (it was silently a no-op on z)
    with pytest.raises(RuntimeError, match=r"complex Tensor's .imag cannot reach the Tensor"):
        z[1:].imag.fill_(0.0)
    m = T([[1.0, 2.0], [3.0, 4.0]])
    m.H[0].mul_(10.0)
    m.adjoint()[0, 1].zero_()
    np.testing.assert_array_equal(value(m), [[10.0, 2.0], [0.0, 4.0]])
    with pytest.raises(RuntimeError, match=r"complex Tensor's .mH cannot reach the Tensor"):
        z[None].mH.mul_(2.0)

# --- training ------------------------------------------------------------------------------------

def test_linear_regression_training_loop_converges():
    rng = np.random.default_rng(3)
    X_ = rng.standard_normal((200, 3))
    true_w, true_b = np.array([2.0, -3.0, 0.5]), 1.25
    y_ = X_ @ true_w + true_b + 0.01 * rng.standard_normal(200)
    X, y = T(X_), T(y_)
    w = fg.zeros(3, requires_grad=True)
    b = fg.zeros(1, requires_grad=True)
    lr = 0.1
    losses = []
    for step in range(300):
        loss = ((X @ w + b - y) ** 2).mean()
        loss.backward()
        with fg.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        if step % 2:
            w.grad = None
            b.grad = None
        else:
            w.grad.zero_()
            b.grad.zero_()
        losses.append(loss.item())
    assert w.is_leaf and w.requires_grad and w._version == 300
    assert losses[-1] < 1e-3 < losses[0]
    np.testing.assert_allclose(value(w), true_w, atol=0.01)
    np.testing.assert_allclose(value(b), [true_b], atol=0.01)


# --- interop with the transforms -----------------------------------------------------------------

def test_grad_of_a_function_that_uses_tensors_internally():
    W = T(np.array([[1.0, 2.0], [3.0, 4.0]]))

    def loss(v):
        t = T(v)
        return ((W @ t) ** 2).sum() + (t @ W).sum()

    x = np.array([0.5, -1.0])
    expected = 2 * W.numpy().T @ (W.numpy() @ x) + W.numpy().sum(axis=1)
    np.testing.assert_allclose(fg.grad(loss)(x), expected)
    np.testing.assert_allclose(fg.jacobian(lambda v: W @ T(v))(x), W.numpy())
    np.testing.assert_allclose(fg.vmap(lambda v: (T(v) * v).sum())(np.ones((4, 2))), [2.0] * 4)


def test_a_tensor_can_be_passed_where_arrays_are_expected():
    w = T([1.0, 2.0], requires_grad=True)
    g = fg.grad(lambda v: np.sum(v ** 3))(w)
    # As torch.func.grad: the gradient of a Tensor that requires grad is on its graph
    assert isinstance(g, T) and g.requires_grad
    np.testing.assert_allclose(g.detach(), [3.0, 12.0])
    np.testing.assert_allclose(fnp.sum(T([1.0, 2.0])).item(), 3.0)
    assert np.asarray(T([1.0, 2.0])).tolist() == [1.0, 2.0]
    assert w.grad is None  # nothing accumulates until a backward pass
    g.sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), [6.0, 12.0])
    v = T([1.0, 2.0])  # (no grad wanted: a plain Tensor comes back)
    assert not fg.grad(lambda u: np.sum(u ** 3))(v).requires_grad


@pytest.mark.parametrize("requires_grad", [True, False])
def test_a_gradient_that_does_not_depend_on_the_graph_is_still_a_tensor(requires_grad):
    """As torch.func: a Tensor input gets a Tensor derivative, off the graph when it is
    constant (a linear function, an unused input) rather than a NumPy array."""
    w = T([1.0, 2.0], requires_grad=requires_grad)
    cases = [  # (derivative, its closed form)
        (fg.grad(lambda u: np.sum(u * 2.0))(w), [2.0, 2.0]),
        (fg.grad(lambda u, x: np.sum(x), argnums=0)(w, np.ones(2)), [0.0, 0.0]),
        (fg.grad(lambda u: u * 3.0)(T(2.0, requires_grad=requires_grad)), 3.0),
        (fg.value_and_grad(lambda u: np.sum(u * 2.0))(w)[1], [2.0, 2.0]),
        (fg.vjp(lambda u: u * 2.0, w)[1](np.ones(2))[0], [2.0, 2.0]),
        (fg.jacrev(lambda u: u * 2.0)(w), 2.0 * np.eye(2)),
        (fg.jacfwd(lambda u: u * 2.0)(w), 2.0 * np.eye(2)),
        (fg.hessian(lambda u: np.sum(u ** 2))(w), 2.0 * np.eye(2)),
    ]
    for g, want in cases:
        assert isinstance(g, T) and not g.requires_grad
        assert g.dtype == np.float32  # (a Tensor's default dtype, as its input's)
        np.testing.assert_array_equal(g.numpy(), want)


def test_inside_a_transform_a_tensor_is_the_traced_value():
    x = np.array([1.0, 2.0])
    # mixing the Tensor and the traced value it was made from is exact
    np.testing.assert_allclose(fg.grad(lambda v: (T(v) * v).sum())(x), 2 * x)
    np.testing.assert_allclose(fg.vmap(lambda v: (T(v) * v).sum())(np.ones((4, 2))), [2.0] * 4)
    np.testing.assert_allclose(fg.hessian(lambda v: (T(v) ** 3).sum())(x), np.diag(6 * x))
    with pytest.raises(RuntimeError, match="the eager tape cannot record inside a transform"):
        fg.grad(lambda v: T(v, requires_grad=True).sum())(x)


def test_closing_over_a_tensor_that_requires_grad_inside_grad():
    """As torch.func: the gradient depends on the Tensor closed over, on its graph."""
    w = T([1.0, 2.0], requires_grad=True)
    x = np.array([3.0, 4.0])
    g = fg.grad(lambda v: (w * v * v).sum())(x)
    np.testing.assert_allclose(g.detach(), 2 * np.array([1.0, 2.0]) * x)
    (g * g).sum().backward()  # d/dw sum((2 w x)^2) = 8 w x^2
    np.testing.assert_allclose(w.grad.numpy(), 8 * np.array([1.0, 2.0]) * x ** 2)
    np.testing.assert_allclose(fg.grad(lambda v: (w.detach() * v).sum())(x), [1.0, 2.0])


def test_custom_function_on_tensors():
    class Cube(fg.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return grad_output * 3 * x ** 2

    x = T([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x)
    assert y.grad_fn.name() == "CubeBackward"
    y.sum().backward()
    np.testing.assert_allclose(x.grad, [3.0, 12.0])


# --- the rest of the toolbox ---------------------------------------------------------------------

def test_copy_pickle_and_subclasses():
    import copy
    import pickle

    w = T([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    for clone in (copy.deepcopy(w), pickle.loads(pickle.dumps(w))):
        assert clone is not w and clone.requires_grad and clone.is_leaf
        np.testing.assert_array_equal(value(clone), [1.0, 2.0])
        np.testing.assert_array_equal(clone.grad, [2.0, 4.0])
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(w * 2)

    class Parameter(T):
        pass

    p = Parameter(np.ones(2), requires_grad=True)
    assert isinstance(p, Parameter)
    (p * 3).sum().backward()
    np.testing.assert_allclose(p.grad, [3.0, 3.0])


def test_debugging_tools_work_on_the_eager_tape():
    with fg.detect_anomaly():
        x = T([0.0, 1.0], requires_grad=True)
        y = (np.sqrt(x) * 0.0).sum()  # sqrt'(0) = inf, times a zero cotangent: NaN
        with np.errstate(all="ignore"), pytest.raises(RuntimeError, match="'SqrtBackward0' "
                                                                           "returned nan values"):
            y.backward()
    packed = []

    def pack(v):
        packed.append(v)
        return v

    with fg.graph.saved_tensors_hooks(pack, lambda v: v):
        x = T([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
    assert len(packed) >= 2
    y.backward()
    np.testing.assert_allclose(x.grad, [2.0, 4.0])


def test_two_threads_train_independently():
    import threading

    results = {}

    def train(name, scale):
        w = T([0.0], requires_grad=True)
        for _ in range(50):
            loss = ((w - scale) ** 2).sum()
            if name == "no_grad_thread":
                with fg.no_grad():  # grad mode is per thread
                    assert not (w * 2).requires_grad
            loss.backward()
            with fg.no_grad():
                w -= 0.1 * w.grad
            w.grad = None
        results[name] = value(w)[0]

    threads = [threading.Thread(target=train, args=(n, s))
               for n, s in (("plain", 1.0), ("no_grad_thread", -2.0))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results["plain"] == pytest.approx(1.0, abs=1e-3)
    assert results["no_grad_thread"] == pytest.approx(-2.0, abs=1e-3)



def test_vmap_of_tensors_records_on_their_graph():
    """vmap over a Tensor that requires grad gives a Tensor on its graph (a plain array
    came back before, and a loss adding it to other terms silently lost its gradient)."""
    x = fg.tensor([0.3, 0.7], dtype=fg.float64, requires_grad=True)
    y = fg.vmap(lambda a: np.sin(a) * 2)(x)
    assert isinstance(y, fg.Tensor) and y.grad_fn is not None
    (y.sum() + (x * x).sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos([0.3, 0.7]) + [0.6, 1.4], rtol=1e-15)
    m = fg.tensor(np.arange(6.0).reshape(3, 2), requires_grad=True)
    z = fg.vmap(lambda r, s: r @ r * s, in_axes=(0, None))(m, fg.tensor(2.0))
    np.testing.assert_allclose(z.detach().numpy(), [2.0, 26.0, 82.0])
    z.sum().backward()
    np.testing.assert_allclose(m.grad.numpy(), 4 * np.arange(6.0).reshape(3, 2))


def test_transforms_of_tensors_give_results_on_their_graph_as_torch_func():
    """Values and derivatives from grad, vjp, jvp and the Jacobians of a Tensor that
    requires grad are Tensors on its graph (torch.func's behaviour): a loss adding a
    transform's value to other terms keeps its whole gradient."""
    x = T(np.array([0.3, 0.7]), requires_grad=True)
    f = lambda a: np.sum(np.sin(a) ** 2)  # noqa: E731
    value, g = fg.value_and_grad(f)(x)
    (value + g.sum()).backward()  # d/dx [sum sin^2 + sum sin 2x] = sin 2x + 2 cos 2x
    np.testing.assert_allclose(x.grad.numpy(), np.sin([0.6, 1.4]) + 2 * np.cos([0.6, 1.4]))
    x.grad = None
    out, pullback = fg.vjp(np.sin, x)
    (out.sum() + pullback(np.ones(2))[0].sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos([0.3, 0.7]) - np.sin([0.3, 0.7]))
    x.grad = None
    fg.hessian(f)(x).sum().backward()  # d/dx_i of sum_j 2 cos(2 x_j) delta_ij
    np.testing.assert_allclose(x.grad.numpy(), -4 * np.sin([0.6, 1.4]), rtol=1e-14)
    x.grad = None
    primal, tangent = fg.jvp(np.sin, (x,), (T(np.ones(2)),))
    (primal + tangent).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos([0.3, 0.7]) - np.sin([0.3, 0.7]))


def test_vjp_takes_a_tensor_cotangent_as_one_leaf_and_records_through_it():
    """A Tensor handed to vjp_fn is one cotangent, as torch.func.vjp takes it (it was
    refused as the pytree of its value), and the product is on the graph of both; a
    function whose output is a Tensor it did not compute takes an array cotangent."""
    v, w = np.array([0.3, 0.7]), np.array([2.0, 3.0])
    x, c = T(v, requires_grad=True), T(w, requires_grad=True)
    _, pullback = fg.vjp(np.sin, x)
    g, = pullback(c)  # c cos x
    np.testing.assert_allclose(g.detach().numpy(), w * np.cos(v))
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), -w * np.sin(v))
    np.testing.assert_allclose(c.grad.numpy(), np.cos(v))
    _, pullback = fg.vjp(lambda a: c * 1.0, np.ones(2))
    np.testing.assert_array_equal(pullback(np.ones(2))[0], [0.0, 0.0])


def _jvp_loss_grads_by_torch(v, w, u):
    """d/d(x, t, c) of the loss below through torch.func.jvp and torch autograd."""
    torch = pytest.importorskip("torch")
    x, t, c = (torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in (v, w, u))
    (y, k, same), (ty, tk, tsame) = torch.func.jvp(
        lambda a: (torch.sin(a) * a, c * 2.0, c), (x,), (t,))
    (ty.sum() + (y * k).sum() + same.sum() + tk.sum() + tsame.sum()).backward()
    return [a.grad.numpy() for a in (x, t, c)]


def test_jvp_and_linearize_keep_tensor_outputs_and_tangents_on_their_graph():
    """jvp's and linearize's Tensor outputs are one leaf each, as vjp's: an output that
    is a Tensor the function did not compute from its input (c * 2, c itself) came back
    rebuilt from its value, off c's graph, and linearize's jvp_fn read a Tensor tangent
    off its graph; a loss built from them backpropagates into x, t and c as
    torch.func.jvp's does.  (torch.func.linearize detaches the point x; funcgrad's
    keeps it on its graph, as jvp.)"""
    v, w, u = np.array([0.3, 0.7]), np.array([2.0, -1.0]), np.array([1.5, -0.5])
    expected = _jvp_loss_grads_by_torch(v, w, u)
    for transform in ("jvp", "linearize"):
        x, t, c = (T(a, requires_grad=True) for a in (v, w, u))
        f = lambda a: (np.sin(a) * a, c * 2.0, c)  # noqa: E731
        if transform == "jvp":
            (y, k, same), (ty, tk, tsame) = fg.jvp(f, (x,), (t,))
        else:
            (y, k, same), f_jvp = fg.linearize(f, x)
            ty, tk, tsame = f_jvp(t)
        assert same is c and k.grad_fn is not None
        assert all(isinstance(a, T) for a in (ty, tk, tsame))
        np.testing.assert_array_equal(value(tk), [0.0, 0.0])
        (ty.sum() + (y * k).sum() + same.sum() + tk.sum() + tsame.sum()).backward()
        for got, want in zip((x.grad, t.grad, c.grad), expected):
            np.testing.assert_allclose(value(got), want, rtol=1e-14, err_msg=transform)


def test_jvp_gives_a_tensor_output_a_tensor_tangent():
    """A Tensor output moved along a plain tangent, or a Tensor plus the traced plain
    input, has a Tensor tangent (torch.func's); aux keeps a Tensor on its graph."""
    x = T(np.array([0.3, 0.7]), requires_grad=True)
    _, tangent = fg.jvp(lambda a: a * 3.0, (x,), (np.ones(2),))
    assert isinstance(tangent, T)
    _, tangent = fg.jvp(lambda a: a + x, (np.zeros(2),), (np.array([1.0, 2.0]),))
    assert isinstance(tangent, T)
    np.testing.assert_array_equal(value(tangent), [1.0, 2.0])
    _, _, aux = fg.jvp(lambda a: (a * 2.0, x * 2.0), (np.zeros(2),), (np.ones(2),),
                       has_aux=True)
    aux.sum().backward()
    np.testing.assert_array_equal(value(x.grad), [2.0, 2.0])


def test_vmap_keeps_a_closed_over_tensor_output_on_its_graph():
    # an output computed from a Tensor the vmapped function closes over, not from the
    # batched argument: stacked along the batch, still on the Tensor's graph (it came
    # back rebuilt from its value, with no grad_fn)
    c = fg.tensor([1.0, 2.0], requires_grad=True)
    out = fg.vmap(lambda a: c * 2.0)(np.ones((3, 2)))
    assert isinstance(out, fg.Tensor) and out.shape == (3, 2) and out.grad_fn is not None
    out.sum().backward()
    np.testing.assert_array_equal(c.grad.numpy(), [6.0, 6.0])
    c.grad = None
    fg.vmap(lambda a: c * 2.0, out_axes=None)(np.ones((3, 2))).sum().backward()
    np.testing.assert_array_equal(c.grad.numpy(), [2.0, 2.0])

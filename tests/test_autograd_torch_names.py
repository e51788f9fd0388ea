"""``fg.autograd.*`` as torch users reach for it (issue 18): the same objects as
funcgrad's own (``fg.graph.saved_tensors_hooks``, ``fg.forward_ad``, ``fg.Function``),
``fg.autograd.functional`` with PyTorch's signatures on Tensors, and NumPy's floating-point
warnings raised by a backward rule reported against the user's line, naming the grad_fn
(item 5).  Expected values by hand."""
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.autograd import functional as F


def test_aliases_are_funcgrads_own_objects():
    ag = fg.autograd
    assert ag.Function is fg.Function and ag.function.Function is fg.Function
    assert ag.function.once_differentiable is fg.once_differentiable
    assert ag.graph.saved_tensors_hooks is fg.graph.saved_tensors_hooks
    assert ag.graph.save_on_cpu is fg.graph.save_on_cpu
    assert ag.graph.disable_saved_tensors_hooks is fg.graph.disable_saved_tensors_hooks
    assert ag.forward_ad is fg.forward_ad and ag.gradcheck is fg.gradcheck
    assert ag.gradgradcheck is fg.gradgradcheck and ag.no_grad is fg.no_grad
    assert ag.set_detect_anomaly is fg.set_detect_anomaly
    for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
                 "is_grad_enabled"):
        assert callable(getattr(fg, name))


def test_saved_tensors_hooks_through_the_autograd_name():
    packed = []
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    with fg.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        y = (x * x).sum()  # torch saves both operands of mul: two packs
    y.backward()
    assert len(packed) == 2 and x.grad.tolist() == [2.0, 4.0]


def test_functional_vjp_jvp():
    x = fg.tensor([1.0, 2.0])
    out, g = F.vjp(lambda t: t ** 3, x, fg.tensor([1.0, 1.0]))
    assert out.tolist() == [1.0, 8.0] and g.tolist() == [3.0, 12.0]
    assert not g.requires_grad and not out.requires_grad
    out, t = F.jvp(lambda a, b: a * b, (x, fg.tensor([3.0, 4.0])),
                   (fg.tensor([1.0, 0.0]), fg.tensor([0.0, 1.0])))
    assert out.tolist() == [3.0, 8.0] and t.tolist() == [3.0, 2.0]  # b*da + a*db
    with pytest.raises(RuntimeError, match="v can only be None"):
        F.vjp(lambda t: t * 2, x)
    with pytest.raises(TypeError, match="Tensor or a tuple of Tensors"):
        F.vjp(lambda t: t, [1.0, 2.0])


def test_functional_jacobian_and_hessian_shapes_and_values():
    x = fg.tensor([[1.0, 2.0], [3.0, 4.0]])
    j = F.jacobian(lambda t: t.sum(1) ** 2, x)  # out (2,), in (2, 2)
    assert j.shape == (2, 2, 2) and j.dtype == fg.float32
    np.testing.assert_allclose(j.numpy(), [[[6.0, 6.0], [0, 0]], [[0, 0], [14.0, 14.0]]])
    h = F.hessian(lambda t: (t ** 3).sum(), fg.tensor([1.0, -2.0]))
    assert h.tolist() == [[6.0, 0.0], [0.0, -12.0]]
    (hxx, hxy), (hyx, hyy) = F.hessian(lambda a, b: (a * a * b).sum(),
                                       (fg.tensor([1.0]), fg.tensor([3.0])))
    assert (hxx.item(), hxy.item(), hyx.item(), hyy.item()) == (6.0, 2.0, 2.0, 0.0)
    with pytest.raises(RuntimeError, match="independent of input 1"):
        F.jacobian(lambda a, b: a * 2, (fg.tensor([1.0]), fg.tensor([1.0])), strict=True)
    assert F.jacobian(lambda a, b: a * 2, (fg.tensor([1.0]), fg.tensor([1.0])))[1].item() == 0


def test_functional_hvp_vhp_and_create_graph():
    f = lambda t: (t ** 3).sum()  # noqa: E731  H = diag(6t)
    x = fg.tensor([1.0, 2.0])
    v = fg.tensor([1.0, -1.0])
    assert F.hvp(f, x, v)[1].tolist() == [6.0, -12.0]
    assert F.vhp(f, x, v)[1].tolist() == [6.0, -12.0]
    w = fg.tensor([2.0], requires_grad=True)
    (_, g) = F.vjp(lambda t: t ** 3, w, fg.tensor([1.0]), create_graph=True)
    assert g.requires_grad
    (gg,) = fg.autograd.grad(g.sum(), w)  # d(3w^2)/dw = 6w
    assert gg.tolist() == [12.0]


def _caught(run):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        run()
    return [w for w in seen if issubclass(w.category, RuntimeWarning)]


def test_backward_warnings_name_the_grad_fn_and_the_users_line():
    seen = _caught(lambda: fg.grad(lambda x: fnp.sum(fnp.sqrt(x)))(np.array([0.0, 1.0])))
    assert len(seen) == 1 and seen[0].filename == __file__
    assert str(seen[0].message) == ("divide by zero encountered in the backward of "
                                    "SqrtBackward0")
    x = fg.tensor([0.0, 1.0], requires_grad=True)
    seen = _caught(lambda: x.sqrt().sum().backward())
    assert [str(w.message) for w in seen] == [
        "divide by zero encountered in the backward of SqrtBackward0"]
    assert seen[0].filename == __file__ and "derivative of" not in str(seen[0].message)
    assert x.grad.tolist() == [np.inf, 0.5]


def test_backward_warnings_respect_numpys_settings():
    f = fg.grad(lambda x: fnp.sum(fnp.sqrt(x)))
    with np.errstate(divide="ignore"):
        assert _caught(lambda: f(np.array([0.0, 1.0]))) == []
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            f(np.array([0.0, 1.0]))
    assert _caught(lambda: f(np.array([4.0]))) == []  # nothing to report


def test_backward_warnings_follow_numpys_settings_changed_between_gradients():
    """The walk remembers the error state it built for the user's last settings: each
    change (np.seterr, np.errstate, and back) is seen by the next gradient."""
    f = fg.grad(lambda x: fnp.sum(fnp.sqrt(x)))
    x = np.array([0.0, 1.0])
    message = "divide by zero encountered in the backward of SqrtBackward0"
    assert [str(w.message) for w in _caught(lambda: f(x))] == [message]
    old = np.seterr(divide="ignore")
    try:
        assert _caught(lambda: f(x)) == []
        with np.errstate(divide="warn", under="ignore"):
            assert [str(w.message) for w in _caught(lambda: f(x))] == [message]
        assert _caught(lambda: f(x)) == []
        with np.errstate(divide="raise"):
            with pytest.raises(FloatingPointError):
                f(x)
    finally:
        np.seterr(**old)
    assert [str(w.message) for w in _caught(lambda: f(x))] == [message]
    assert np.geterr() == old  # the walk leaves the user's settings as they were


def _batched(lib):
    x = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
    out = x ** 3
    eye = lib.eye(3, dtype=lib.float64)
    jac, unused = lib.autograd.grad(out, [x, y], eye, retain_graph=True, allow_unused=True,
                                    is_grads_batched=True)
    _, zeros = lib.autograd.grad(out, [x, y], eye, retain_graph=True, materialize_grads=True,
                                 is_grads_batched=True)
    scalar = lib.autograd.grad(out.sum(), x, lib.tensor([1.0, 2.0], dtype=lib.float64),
                               retain_graph=True, is_grads_batched=True)[0]
    (graphed,) = lib.autograd.grad(out, x, eye, create_graph=True, is_grads_batched=True)
    graphed.sum().backward()
    with pytest.raises(RuntimeError, match="is_grads_batched=True"):
        lib.autograd.grad((x * 2), x, lib.ones(3, dtype=lib.float64), is_grads_batched=True)
    return (jac.tolist(), unused, zeros.tolist(), scalar.tolist(), x.grad.tolist())


def test_autograd_grad_is_grads_batched():
    # d x^3 = 3x^2 on the diagonal; a batch of two scalar cotangents scales the gradient
    # 3x^2 = [3, 12, 27]; differentiating the Jacobian's sum once more gives 6x
    jac, unused, zeros, scalar, second = _batched(fg)
    assert jac == [[3.0, 0.0, 0.0], [0.0, 12.0, 0.0], [0.0, 0.0, 27.0]]
    assert unused is None and zeros == [0.0, 0.0]
    assert scalar == [[3.0, 12.0, 27.0], [6.0, 24.0, 54.0]]
    assert second == [6.0, 12.0, 18.0]


def test_autograd_grad_is_grads_batched_matches_torch():
    torch = pytest.importorskip("torch")
    assert _batched(fg) == _batched(torch)


def test_autograd_grad_names_the_unused_input():
    x, y = fg.tensor([1.0], requires_grad=True), fg.tensor([2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="The differentiated Tensor at index 1 appears "
                                           "to not have been used in the graph"):
        fg.autograd.grad((x * 2).sum(), [x, y])


def _materialized(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(ValueError, match="Expected allow_unused to be True or not passed "
                                         "when materialize_grads=True"):
        lib.autograd.grad((x * 2).sum(), [x, w], allow_unused=False, materialize_grads=True)
    _, plain = lib.autograd.grad((x ** 2).sum(), [x, w], materialize_grads=True)
    _, graphed = lib.autograd.grad((x ** 2).sum(), [x, w], create_graph=True,
                                   materialize_grads=True)
    return plain.tolist(), plain.requires_grad, graphed.tolist(), graphed.requires_grad


def test_materialize_grads_zeros_require_grad_under_create_graph():
    # w is unused: zeros, which (as PyTorch's) require grad when the pass is recorded
    assert _materialized(fg) == ([0.0, 0.0], False, [0.0, 0.0], True)


def test_materialize_grads_matches_torch():
    torch = pytest.importorskip("torch")
    assert _materialized(fg) == _materialized(torch)

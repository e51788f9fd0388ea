"""``fg.forward_ad``: dual numbers in PyTorch's style, checked against ``fg.jvp`` (the same
JVP interpreter, entered through a function) and against closed forms.

The tutorial pattern::

    with dual_level():
        y = f(make_dual(x, v))
        jvp = unpack_dual(y).tangent
"""
import re
import threading

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.forward_ad as fwAD
import funcgrad.numpy as fnp

RNG = np.random.default_rng(7)
X = np.array([0.3, 1.2, -0.5, 2.0])
V = np.array([1.0, -2.0, 0.5, 0.25])
A = RNG.standard_normal((3, 4))


def close(actual, expected, rtol=1e-12, atol=1e-14):
    np.testing.assert_allclose(np.asarray(actual, dtype=np.float64),
                               np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol)


def dual_jvp(f, x, v):
    with fwAD.dual_level():
        y = f(fwAD.make_dual(x, v))
        primal, tangent = fwAD.unpack_dual(y)
    return primal, tangent


FUNCTIONS = {
    # plain NumPy on dual values
    "np.sin": np.sin,
    "np.sum(x**2)": lambda x: np.sum(x ** 2),
    "np.exp*tanh": lambda x: np.exp(x) * np.tanh(x),
    "matmul": lambda x: A @ x,
    "np.where": lambda x: np.where(x > 0, np.sqrt(np.abs(x) + 1.0), x ** 3),
    "broadcast/reduce": lambda x: np.mean(x[:, None] * x[None, :], axis=0),
    "np.max": lambda x: np.max(np.sin(x)),
    # funcgrad.numpy
    "fnp.log1p(fnp.exp)": lambda x: fnp.log1p(fnp.exp(x)),
    "fnp.linalg.norm": lambda x: fnp.linalg.norm(x),
    "fnp.cumsum": lambda x: fnp.cumsum(fnp.cos(x)),
    "indexing": lambda x: x[::-1][1:] * x[0],
}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_tutorial_pattern_equals_fg_jvp(name):
    f = FUNCTIONS[name]
    primal, tangent = dual_jvp(f, X, V)
    ref_out, ref_tangent = fg.jvp(f, (X,), (V,))
    close(primal, ref_out)
    close(tangent, ref_tangent)


def test_closed_forms():
    primal, tangent = dual_jvp(np.sin, X, V)
    close(primal, np.sin(X))
    close(tangent, np.cos(X) * V)
    primal, tangent = dual_jvp(lambda x: x * 3.0, 2.0, 1.0)  # Python scalars
    assert float(primal) == 6.0 and float(tangent) == 3.0
    primal, tangent = dual_jvp(np.sin, [0.1, 0.2], [1.0, 1.0])  # lists
    close(tangent, np.cos([0.1, 0.2]))


def test_several_duals_and_plain_values_mixed():
    with fwAD.dual_level():
        a = fwAD.make_dual(X, V)
        b = fwAD.make_dual(2 * X, np.ones(4))
        y = a * b + np.ones(4) * 3.0
        tangent = fwAD.unpack_dual(y).tangent
    close(tangent, V * 2 * X + X * 1.0)


def test_dtype_float32_preserved_and_tangent_cast():
    with fwAD.dual_level():
        d = fwAD.make_dual(X.astype(np.float32), V)  # float64 tangent: cast to the primal's
        primal, tangent = fwAD.unpack_dual(np.sin(d))
    assert primal.dtype == np.float32 and tangent.dtype == np.float32
    close(tangent, np.cos(X.astype(np.float32)) * V.astype(np.float32), rtol=1e-6)


def test_nested_levels():
    # inner level perturbs the inner variable, outer level the outer one: second derivatives
    with fwAD.dual_level():
        a = fwAD.make_dual(2.0, 1.0)
        with fwAD.dual_level():
            b = fwAD.make_dual(a, 1.0)
            inner = fwAD.unpack_dual(b ** 3)
        # after the inner level, its results are duals of the outer level
        d1 = fwAD.unpack_dual(inner.tangent)   # d/da (3 a^2) = 6 a
        d0 = fwAD.unpack_dual(inner.primal)    # d/da a^3 = 3 a^2
    assert float(d1.primal) == 12.0 and float(d1.tangent) == 12.0
    assert float(d0.primal) == 8.0 and float(d0.tangent) == 12.0


def test_nested_levels_independent_perturbations():
    with fwAD.dual_level():
        x = fwAD.make_dual(X, V)
        with fwAD.dual_level():
            y = fwAD.make_dual(X, np.ones(4))
            z = np.sin(x) * np.cos(y)
            inner_tangent = fwAD.unpack_dual(z).tangent  # w.r.t. y only
        outer_tangent = fwAD.unpack_dual(inner_tangent).tangent  # d/dx of that, along V
        # the inner level is gone: z's inner tangent is dropped, its value is an outer dual
        z_in_outer = fwAD.unpack_dual(z)
        outer_of_value = fwAD.unpack_dual(z_in_outer.primal)
    close(fwAD.unpack_dual(inner_tangent).primal, -np.sin(X) * np.sin(X))
    close(outer_tangent, -np.cos(X) * np.sin(X) * V)
    assert z_in_outer.tangent is None
    close(outer_of_value.primal, np.sin(X) * np.cos(X))
    close(outer_of_value.tangent, np.cos(X) * np.cos(X) * V)  # d/dx sin(x) cos(X) along V


def test_tangent_shape_mismatch():
    with fwAD.dual_level():
        with pytest.raises(ValueError, match=re.escape(
                "make_dual: the tangent has shape (3,) but the primal has shape (4,); they "
                "must be equal")):
            fwAD.make_dual(X, V[:3])
        with pytest.raises(ValueError, match=re.escape(
                "the tangent has shape (4,) but the primal has shape ()")):
            fwAD.make_dual(1.0, V)


def test_make_dual_outside_a_level():
    with pytest.raises(RuntimeError, match=re.escape(
            "make_dual/unpack_dual need an active forward-AD level: use them inside "
            "`with fg.forward_ad.dual_level():`")):
        fwAD.make_dual(X, V)


def test_make_dual_of_a_dual_of_the_same_level():
    with fwAD.dual_level():
        d = fwAD.make_dual(X, V)
        with pytest.raises(RuntimeError, match="the primal is already a dual value of this "
                                               "forward-AD level"):
            fwAD.make_dual(d, V)
        with pytest.raises(RuntimeError, match="the tangent is already a dual value"):
            fwAD.make_dual(X, d)


def test_make_dual_of_integers():
    with fwAD.dual_level():
        with pytest.raises(TypeError, match="expected a floating-point primal, got dtype int"):
            fwAD.make_dual(np.arange(3), np.ones(3))


def test_unpack_dual_of_plain_values():
    unpacked = fwAD.unpack_dual(X)
    assert isinstance(unpacked, fwAD.UnpackedDualTensor)
    assert unpacked.primal is X and unpacked.tangent is None
    primal, tangent = fwAD.unpack_dual(2.5)
    assert primal == 2.5 and tangent is None
    with fwAD.dual_level():
        d = fwAD.make_dual(X, V)
        assert fwAD.unpack_dual(X).tangent is None
        assert fwAD.unpack_dual(np.sum(d) * 0.0 + np.ones(2)).tangent is not None
        assert fwAD.unpack_dual(np.ones(2) * 3.0).tangent is None  # a constant
        assert fwAD.unpack_dual(d > 0).tangent is None  # not differentiable


def test_leaving_the_level_drops_tangents():
    with fwAD.dual_level():
        y = np.sin(fwAD.make_dual(X, V))
        s = np.sum(y)
    expected = np.sin(X)
    # the values are usable as their primals afterwards
    close(y + 1.0, expected + 1.0)
    close(np.cos(y), np.cos(expected))
    close(fnp.exp(y), np.exp(expected))
    close(y[1:], expected[1:])
    assert float(s) == pytest.approx(np.sum(expected))
    assert bool(s > 0) is bool(np.sum(expected) > 0)
    close(np.array(y.tolist()), expected)  # sin is within 2 ulp of NumPy's, not bitwise
    assert y.shape == X.shape and y.dtype == X.dtype
    unpacked = fwAD.unpack_dual(y)
    assert unpacked.tangent is None
    close(unpacked.primal, expected)
    # as constants of later transforms, and as inputs to them
    close(fg.grad(lambda a: fnp.sum(a * y))(X), expected)
    close(fg.grad(lambda a: fnp.sum(a * a))(y), 2 * expected)
    close(fg.jvp(lambda a: a * y, (X,), (V,))[1], expected * V)
    close(fg.vmap(lambda a: a * y)(np.ones((2, 4))), np.stack([expected, expected]))
    # and a new level sees them as plain primals
    with fwAD.dual_level():
        primal, tangent = fwAD.unpack_dual(fwAD.make_dual(y, V) * 2.0)
    close(primal, 2 * expected)
    close(tangent, 2 * V)


def test_np_asarray_after_the_level():
    with fwAD.dual_level():
        y = np.sin(fwAD.make_dual(X, V))
    close(np.asarray(y), np.sin(X))


def test_exit_order_enforced():
    outer = fwAD.enter_dual_level()
    inner = fwAD.enter_dual_level()
    try:
        with pytest.raises(RuntimeError, match="levels must be exited innermost first"):
            fwAD.exit_dual_level(outer)
    finally:
        fwAD.exit_dual_level(inner)
        fwAD.exit_dual_level(outer)
    with pytest.raises(RuntimeError, match="need an active forward-AD level"):
        fwAD.make_dual(X, V)


def test_dual_level_inside_grad():
    def directional(x):
        with fwAD.dual_level():
            y = fnp.sin(fwAD.make_dual(x, np.ones_like(x)))
            tangent = fwAD.unpack_dual(y).tangent  # cos(x), still a function of x
        return fnp.sum(tangent)

    close(fg.grad(directional)(X), -np.sin(X))


def test_grad_w_r_t_the_tangent():
    def along(v):
        with fwAD.dual_level():
            y = np.sum(np.sin(fwAD.make_dual(X, v)) ** 2)
            return fwAD.unpack_dual(y).tangent

    close(fg.grad(along)(V), 2 * np.sin(X) * np.cos(X))


def test_grad_inside_dual_level():
    # forward over reverse: the tangent of the gradient is a Hessian-vector product
    with fwAD.dual_level():
        d = fwAD.make_dual(X, V)
        g = fg.grad(lambda a: fnp.sum(fnp.sin(a) * a))(d)
        primal, tangent = fwAD.unpack_dual(g)
    close(primal, np.cos(X) * X + np.sin(X))
    close(tangent, (2 * np.cos(X) - np.sin(X) * X) * V)
    close(tangent, fg.hvp(lambda a: fnp.sum(fnp.sin(a) * a), (X,), (V,))[1][0])


def test_custom_rules_under_forward_ad():
    @fg.custom_jvp
    def f(x):
        return x ** 2

    @f.defjvp
    def f_jvp(primals, tangents):
        return f(primals[0]), 10.0 * tangents[0]

    _, tangent = dual_jvp(f, X, V)
    close(tangent, 10.0 * V)

    @fg.custom_vjp
    def h(x):
        return x ** 2

    h.defvjp(lambda x: (x ** 2, x), lambda x, g: (2 * x * g,))
    with pytest.raises(TypeError, match="cannot apply forward-mode differentiation"):
        dual_jvp(h, X, V)
    close(dual_jvp(fg.checkpoint(lambda x: x ** 2), X, V)[1], 2 * X * V)


def test_levels_are_per_thread():
    errors = []
    entered, done = threading.Event(), threading.Event()

    def other():
        entered.wait(5)
        try:
            fwAD.make_dual(X, V)
        except RuntimeError as e:
            errors.append(str(e))
        finally:
            done.set()

    t = threading.Thread(target=other)
    t.start()
    with fwAD.dual_level():
        d = fwAD.make_dual(X, V)
        entered.set()
        done.wait(5)
        tangent = fwAD.unpack_dual(np.sin(d)).tangent
    t.join()
    assert errors and "need an active forward-AD level" in errors[0]
    close(tangent, np.cos(X) * V)


# --- dual values made from Tensors behave as Tensors (PyTorch's dual tensor is a Tensor) ---

TENSOR_METHODS = {
    # name: (Tensor code, the same function in NumPy, its derivative along v by hand)
    "sin": (lambda t: t.sin(), np.sin, lambda x, v: np.cos(x) * v),
    "exp.sum(dim)": (lambda t: t.exp().sum(dim=0), lambda x: np.exp(x).sum(0),
                     lambda x, v: (np.exp(x) * v).sum(0)),
    "var (n - 1)": (lambda t: t.var(), lambda x: x.var(ddof=1),
                    lambda x, v: 2 * ((x - x.mean()) * v).sum() / (x.size - 1)),
    "view.unsqueeze": (lambda t: t.view(-1).unsqueeze(0) * 2.0, lambda x: 2 * x.reshape(1, -1),
                       lambda x, v: 2 * v.reshape(1, -1)),
    "max(dim).values": (lambda t: t.max(dim=1).values, lambda x: x.max(1),
                        lambda x, v: v[np.arange(len(x)), x.argmax(1)]),
    "clamp": (lambda t: t.clamp(min=0.0), lambda x: np.maximum(x, 0),
              lambda x, v: np.where(x > 0, v, 0)),
    "index.pow": (lambda t: t[0].pow(3), lambda x: x[0] ** 3, lambda x, v: 3 * x[0] ** 2 * v[0]),
}
XT = np.array([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]])
VT = np.array([[1.0, 0.5, -2.0], [0.25, -1.0, 3.0]])


@pytest.mark.parametrize("name", list(TENSOR_METHODS))
def test_a_dual_of_a_tensor_has_the_tensor_methods(name):
    f, f_np, df = TENSOR_METHODS[name]
    with fwAD.dual_level():
        x = fwAD.make_dual(fg.Tensor(XT), fg.Tensor(VT))
        assert isinstance(x, fwAD.DualTensor) and x.size() == (2, 3) and x.dim() == 2
        y = f(x)
        assert isinstance(y, fwAD.DualTensor)
        primal, tangent = fwAD.unpack_dual(y)
    assert isinstance(primal, fg.Tensor) and isinstance(tangent, fg.Tensor)
    close(primal.numpy(), f_np(XT))
    close(tangent.numpy(), df(XT, VT))
    assert tangent.dtype == np.float64


def test_a_dual_of_a_tensor_keeps_tensor_dtypes_and_graph():
    w = fg.Tensor([1.0, 3.0], requires_grad=True)
    with fwAD.dual_level():
        x = fwAD.make_dual(fg.tensor([1.0, 2.0]), fg.tensor([1.0, 1.0]))  # float32
        assert (x * 2.5).dtype == np.float32 and x.double().dtype == np.float64
        assert not x.requires_grad and x.grad_fn is None and x.is_leaf
        assert x.detach().__class__ is fg.Tensor  # drops the tangent, as in PyTorch
        primal, tangent = fwAD.unpack_dual((x * w).sum())
        with pytest.raises(TypeError, match=r"add_\(\) on a forward-AD dual value"):
            x.add_(1.0)
        with pytest.raises(TypeError, match="would drop the derivative"):
            x.numpy()  # (DerivativeDroppedError) as np.asarray(x)
    # the eager tape records both halves: d tangent / dw = the direction, 1
    assert primal.grad_fn.name() == "SumBackward0"
    tangent.backward()
    np.testing.assert_array_equal(w.grad.numpy(), [1.0, 1.0])
    # after the level: a Tensor's methods on the primal
    assert x.sin().__class__ is fg.Tensor
    close(x.sum(dim=0).numpy(), 3.0)


def test_a_dual_of_an_array_still_follows_numpy():
    with fwAD.dual_level():
        x = fwAD.make_dual(XT, VT)
        assert type(x) is not fwAD.DualTensor
        close(fwAD.unpack_dual(x.var()).primal, XT.var())  # NumPy's ddof=0


def test_tensor_duals_match_torch_forward_ad():
    torch = pytest.importorskip("torch")
    tAD = torch.autograd.forward_ad
    cases = [lambda t: t.softmax(1), lambda t: t.log_softmax(0), lambda t: t.std(0),
             lambda t: t.norm(dim=1), lambda t: t.sort(dim=1).values, lambda t: t.angle(),
             lambda t: t.mm(t.t()), lambda t: (2 - t) / (t * t + 1) ** 0.5,
             lambda t: t.transpose(0, 1).reshape(6).cumsum(0), lambda t: t.relu().prod()]
    for f in cases:
        with fwAD.dual_level():
            primal, tangent = fwAD.unpack_dual(f(fwAD.make_dual(fg.Tensor(XT), fg.Tensor(VT))))
        with tAD.dual_level():
            t_primal, t_tangent = tAD.unpack_dual(f(tAD.make_dual(torch.tensor(XT),
                                                                  torch.tensor(VT))))
        close(primal.numpy(), t_primal.numpy(), rtol=1e-12, atol=1e-13)
        close(tangent.numpy(), t_tangent.numpy(), rtol=1e-12, atol=1e-13)


def test_a_tensor_dual_has_the_tensors_other_methods_too():
    """The methods beyond the core set (pointwise, reductions, picking, pieces, linear
    algebra) work on a dual of Tensors, with tangents by hand."""
    x = np.array([[0.3, -1.2, 2.0], [0.5, 0.1, -0.7], [1.1, 0.9, 0.2]])
    t = np.array([[1.0, 0.5, -0.3], [0.2, -1.0, 0.4], [0.3, 0.3, 0.3]])
    with fg.forward_ad.dual_level():
        d = fg.forward_ad.make_dual(fg.tensor(x), fg.tensor(t))
        out = {"expm1": d.expm1(), "arcsinh": d.arcsinh(), "amax": d.amax(dim=1),
               "topk": d.topk(2, dim=1).values, "flip": d.flip(0), "add": d.add(d, alpha=2.0)}
        got = {k: [u.numpy() for u in fg.forward_ad.unpack_dual(v)] for k, v in out.items()}
    order = np.argsort(-x, axis=1)[:, :2]
    want = {"expm1": (np.expm1(x), np.exp(x) * t),
            "arcsinh": (np.arcsinh(x), t / np.sqrt(1 + x * x)),
            "amax": (x.max(1), t[np.arange(3), x.argmax(1)]),
            "topk": (np.take_along_axis(x, order, 1), np.take_along_axis(t, order, 1)),
            "flip": (x[::-1], t[::-1]), "add": (3 * x, 3 * t)}
    for k, (value, tangent) in want.items():
        np.testing.assert_allclose(got[k][0], value, rtol=1e-6, err_msg=k)
        np.testing.assert_allclose(got[k][1], tangent, rtol=1e-6, err_msg=k)

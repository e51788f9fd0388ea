"""User-defined derivatives: ``custom_jvp``, ``custom_vjp``, the torch-style ``Function``
and ``checkpoint``, under every transform and their compositions.

References come from closed forms and central finite differences (or ``fg.gradcheck``,
which compares against central differences); a rule that differs on purpose from the
true derivative shows that the custom rule, not autodiff of the body, was used.
"""
import gc
import re
import tracemalloc
from functools import partial

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

RNG = np.random.default_rng(6)
X = np.array([0.3, 1.2, -0.5])


# --- references ---------------------------------------------------------------------------------

def fd_jacobian(f, x, eps=1e-6):
    """Central differences of ``f`` (array -> array) at ``x``: shape out.shape + x.shape."""
    x = np.array(x, dtype=np.float64)
    out_shape = np.shape(f(x))
    jac = np.zeros(out_shape + x.shape)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        jac[(...,) + i] = (np.asarray(f(up)) - np.asarray(f(down))) / (2 * eps)
    return jac


def close(actual, expected, rtol=1e-6, atol=1e-8):
    np.testing.assert_allclose(np.asarray(actual, dtype=np.float64),
                               np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol)


def check_grads(f, inputs, forward=True):
    """``fg.gradcheck`` where it exists, else our own central differences of every
    float input (reverse mode, and forward mode with ``forward``)."""
    inputs = tuple(np.asarray(x, dtype=np.float64) for x in inputs)
    if hasattr(fg, "gradcheck"):
        assert fg.gradcheck(f, inputs, check_forward_ad=forward)
        return
    for k, x in enumerate(inputs):
        def fk(xk, k=k):
            args = list(inputs)
            args[k] = xk
            return f(*args)
        expected = fd_jacobian(fk, x)
        close(fg.jacrev(fk)(x), expected, rtol=1e-5, atol=1e-7)
        if forward:
            close(fg.jacfwd(fk)(x), expected, rtol=1e-5, atol=1e-7)


def sinx_x(x):
    return np.sin(x) * x


def d_sinx_x(x):
    return np.cos(x) * x + np.sin(x)


def d2_sinx_x(x):
    return 2 * np.cos(x) - np.sin(x) * x


# --- custom_jvp ----------------------------------------------------------------------------------

@fg.custom_jvp
def cj(x):
    return fnp.sin(x) * x


@cj.defjvp
def _cj_jvp(primals, tangents):
    x, = primals
    t, = tangents
    return cj(x), (fnp.cos(x) * x + fnp.sin(x)) * t


@fg.custom_jvp
def twice_grad(x):
    """The identity, with a JVP rule that doubles tangents: shows the rule is used."""
    return x


@twice_grad.defjvp
def _twice_jvp(primals, tangents):
    return twice_grad(primals[0]), 2.0 * tangents[0]


@fg.custom_jvp
def log1pexp(x):
    return fnp.log1p(fnp.exp(x))


@log1pexp.defjvp
def _log1pexp_jvp(primals, tangents):
    x, = primals
    t, = tangents
    return log1pexp(x), t * (1.0 - 1.0 / (1.0 + fnp.exp(x)))


class TestCustomJVP:
    def test_grad_jvp_vjp(self):
        close(fg.grad(lambda x: fnp.sum(cj(x)))(X), d_sinx_x(X))
        out, tangent = fg.jvp(cj, (X,), (np.ones(3),))
        close(out, sinx_x(X))
        close(tangent, d_sinx_x(X))
        out, vjp_fn = fg.vjp(cj, X)
        u = RNG.standard_normal(3)
        close(vjp_fn(u)[0], u * d_sinx_x(X))

    def test_rule_is_used_not_the_body(self):
        assert fg.grad(twice_grad)(1.5) == 2.0
        assert fg.jvp(twice_grad, (1.5,), (1.0,)) == (1.5, 2.0)
        close(fg.jacrev(twice_grad)(X), 2 * np.eye(3))
        close(fg.jacfwd(twice_grad)(X), 2 * np.eye(3))
        # the classic use: a numerically stable derivative where autodiff gives nan
        assert float(fg.grad(log1pexp)(100.0)) == 1.0
        assert float(fg.jvp(log1pexp, (100.0,), (1.0,))[1]) == 1.0

    def test_vmap_and_jacobians(self):
        close(fg.vmap(cj)(X), sinx_x(X))
        close(fg.jacfwd(cj)(X), np.diag(d_sinx_x(X)))
        close(fg.jacrev(cj)(X), np.diag(d_sinx_x(X)))
        close(fg.hessian(lambda x: fnp.sum(cj(x)))(X), np.diag(d2_sinx_x(X)))

    def test_higher_order_and_nesting(self):
        close(fg.grad(fg.grad(cj))(0.7), d2_sinx_x(0.7))
        close(fg.grad(fg.grad(fg.grad(cj)))(0.7), fd_jacobian(
            lambda x: d2_sinx_x(x), np.array(0.7)), rtol=1e-5)
        close(fg.vmap(fg.grad(cj))(X), d_sinx_x(X))
        close(fg.grad(lambda x: fnp.sum(fg.vmap(cj)(x)))(X), d_sinx_x(X))
        close(fg.jacfwd(fg.jacrev(lambda x: fnp.sum(cj(x))))(X), np.diag(d2_sinx_x(X)))
        close(fg.jacrev(fg.jacfwd(lambda x: fnp.sum(cj(x))))(X), np.diag(d2_sinx_x(X)))
        close(fg.linearize(cj, X)[1](np.ones(3)), d_sinx_x(X))

    def test_gradcheck(self):
        check_grads(cj, (X,))
        check_grads(lambda x: fnp.sum(cj(x) ** 2), (X,))

    def test_nondiff_argnums(self):
        @partial(fg.custom_jvp, nondiff_argnums=(0,))
        def apply(f, x):
            return f(x)

        @apply.defjvp
        def apply_jvp(f, primals, tangents):
            x, = primals
            t, = tangents
            assert f is fnp.sin  # the nondiff argument comes first, as given
            return apply(f, x), 3.0 * t

        close(fg.grad(lambda x: fnp.sum(apply(fnp.sin, x)))(X), 3.0 * np.ones(3))
        close(fg.jvp(lambda x: apply(fnp.sin, x), (X,), (X,))[1], 3.0 * X)
        close(fg.vmap(lambda x: apply(fnp.sin, x))(X), np.sin(X))

    def test_pytree_inputs_and_outputs(self):
        @fg.custom_jvp
        def pt(d):
            return {"s": d["a"] * d["b"], "t": (d["a"] + d["b"],)}

        @pt.defjvp
        def pt_jvp(primals, tangents):
            d, = primals
            dt, = tangents
            return pt(d), {"s": dt["a"] * d["b"] + d["a"] * dt["b"],
                           "t": (dt["a"] + dt["b"],)}

        d = {"a": X, "b": X + 1}
        loss = lambda d: fnp.sum(pt(d)["s"]) + fnp.sum(pt(d)["t"][0] ** 2)  # noqa: E731
        g = fg.grad(loss)(d)
        close(g["a"], (X + 1) + 2 * (2 * X + 1))
        close(g["b"], X + 2 * (2 * X + 1))
        out, tangent = fg.jvp(pt, (d,), (d,))
        close(tangent["s"], 2 * X * (X + 1))
        close(tangent["t"][0], 2 * X + 1)

    def test_integer_argument_is_not_differentiated(self):
        @fg.custom_jvp
        def take(x, idx):
            return x[idx]

        @take.defjvp
        def take_jvp(primals, tangents):
            x, idx = primals
            return take(x, idx), tangents[0][idx]

        idx = np.array([0, 2])
        close(fg.grad(lambda x: fnp.sum(take(x, idx)))(X), [1.0, 0.0, 1.0])
        close(fg.jvp(lambda x: take(x, idx), (X,), (np.ones(3),))[1], [1.0, 1.0])

    def test_unbatched_argument_under_vmap_and_grad(self):
        @fg.custom_jvp
        def mul(w, x):
            return w * x

        @mul.defjvp
        def mul_jvp(primals, tangents):
            (w, x), (tw, tx) = primals, tangents
            return mul(w, x), tw * x + w * tx

        w, xs = np.array([1.0, 2.0]), np.arange(6.0).reshape(3, 2)
        close(fg.grad(lambda w: fnp.sum(fg.vmap(mul, in_axes=(None, 0))(w, xs)))(w),
              xs.sum(0))

    def test_tangent_broadcast_and_shape_error(self):
        @fg.custom_jvp
        def spread(s):
            return s * np.ones(3)

        @spread.defjvp
        def spread_jvp(primals, tangents):
            return spread(primals[0]), tangents[0]  # a scalar tangent for a (3,) output

        close(fg.jvp(spread, (2.0,), (1.0,))[1], np.ones(3))
        close(fg.grad(lambda s: fnp.sum(spread(s)))(2.0), 3.0)

        @fg.custom_jvp
        def bad(x):
            return x * 2

        @bad.defjvp
        def bad_jvp(primals, tangents):
            return bad(primals[0]), tangents[0][:2]

        with pytest.raises(ValueError, match=re.escape(
                "the JVP rule of custom_jvp(bad) returned a tangent of shape (2,) for output "
                "0, which has shape (3,)")):
            fg.jvp(bad, (X,), (X,))

    def test_float32_stays_float32(self):
        x32 = X.astype(np.float32)
        assert fg.grad(lambda x: fnp.sum(cj(x)))(x32).dtype == np.float32
        assert fg.jvp(cj, (x32,), (np.ones(3, np.float32),))[1].dtype == np.float32

    def test_missing_rule(self):
        @fg.custom_jvp
        def f(x):
            return x

        with pytest.raises(TypeError, match="without a rule: define one with @f.defjvp"):
            f(1.0)

    def test_captured_traced_value_gives_clear_error(self):
        def loss(w):
            @fg.custom_jvp
            def f(y):
                return y * w

            @f.defjvp
            def f_jvp(primals, tangents):
                return f(primals[0]), tangents[0] * w

            return fnp.sum(f(X * w))

        with pytest.raises(fg.EscapedTracerError,
                           match=r"custom_jvp\(f\) used a value traced by an enclosing grad.*"
                                 r"not given as an argument"):
            fg.grad(loss)(2.0)
        # under vmap this used to give silently wrong values (batch size == trailing dim)
        with pytest.raises(fg.EscapedTracerError, match="enclosing vmap"):
            fg.vmap(loss)(np.array([1.0, 2.0, 3.0]))


# --- custom_vjp ----------------------------------------------------------------------------------

@fg.custom_vjp
def cv(x):
    return fnp.sin(x) * x


def _cv_fwd(x):
    return cv(x), x


def _cv_bwd(x, g):
    return ((fnp.cos(x) * x + fnp.sin(x)) * g,)


cv.defvjp(_cv_fwd, _cv_bwd)


@fg.custom_vjp
def clip_gradient(x):
    return x


clip_gradient.defvjp(lambda x: (x, None), lambda res, g: (fnp.clip(g, -1.0, 1.0),))


@fg.custom_vjp
def cv_both(x):
    return fnp.sin(x) * x


cv_both.defvjp(lambda x: (cv_both(x), x), _cv_bwd)


@cv_both.defjvp
def _cv_both_jvp(primals, tangents):
    x, = primals
    return cv_both(x), (fnp.cos(x) * x + fnp.sin(x)) * tangents[0]


FORWARD_MODE_MESSAGE = re.escape(
    "cannot apply forward-mode differentiation (jvp, jacfwd, hessian, forward_ad) to "
    "custom_vjp(cv): it defines a custom VJP (reverse mode) only. Give it a JVP rule too "
    "(.defjvp, or a `jvp` staticmethod on a Function), or use reverse mode (grad, vjp, "
    "jacrev).")


class TestCustomVJP:
    def test_grad_vjp_vmap_jacrev(self):
        close(fg.grad(lambda x: fnp.sum(cv(x)))(X), d_sinx_x(X))
        out, vjp_fn = fg.vjp(cv, X)
        close(out, sinx_x(X))
        u = RNG.standard_normal(3)
        close(vjp_fn(u)[0], u * d_sinx_x(X))
        close(fg.vmap(cv)(X), sinx_x(X))
        close(fg.jacrev(cv)(X), np.diag(d_sinx_x(X)))

    def test_rule_is_used(self):
        assert float(fg.grad(lambda x: 10.0 * clip_gradient(x))(2.0)) == 1.0
        close(fg.grad(lambda x: fnp.sum(clip_gradient(x) * np.array([0.5, 3.0, -7.0])))(X),
              [0.5, 1.0, -1.0])

    def test_nesting_and_second_order(self):
        close(fg.grad(fg.grad(cv))(0.7), d2_sinx_x(0.7))
        close(fg.jacrev(fg.jacrev(lambda x: fnp.sum(cv(x))))(X), np.diag(d2_sinx_x(X)))
        close(fg.vmap(fg.grad(cv))(X), d_sinx_x(X))
        close(fg.grad(lambda x: fnp.sum(fg.vmap(cv)(x)))(X), d_sinx_x(X))
        # vmap of the pullback (what jacrev does), and vmap over grad of a vmap
        close(fg.vmap(fg.grad(lambda x: fnp.sum(fg.vmap(cv)(x))))(np.stack([X, 2 * X])),
              np.stack([d_sinx_x(X), d_sinx_x(2 * X)]))

    def test_gradcheck(self):
        check_grads(cv, (X,), forward=False)
        check_grads(cv_both, (X,), forward=True)

    def test_forward_mode_raises_clear_error(self):
        with pytest.raises(TypeError, match=FORWARD_MODE_MESSAGE):
            fg.jvp(cv, (X,), (np.ones(3),))
        with pytest.raises(TypeError, match=FORWARD_MODE_MESSAGE):
            fg.jacfwd(cv)(X)
        with pytest.raises(TypeError, match=FORWARD_MODE_MESSAGE):
            fg.hessian(lambda x: fnp.sum(cv(x)))(X)
        with pytest.raises(TypeError, match=FORWARD_MODE_MESSAGE):
            with fg.forward_ad.dual_level():
                cv(fg.forward_ad.make_dual(X, np.ones(3)))
        # HIPS autograd (a primitive without defjvp) and PyTorch (a Function without jvp)
        # raise NotImplementedError here: code written for them catches it too
        with pytest.raises(NotImplementedError, match=FORWARD_MODE_MESSAGE):
            fg.jvp(cv, (X,), (np.ones(3),))
        with pytest.raises(NotImplementedError, match=FORWARD_MODE_MESSAGE):
            fg.jacfwd(cv)(X)
        assert "raises an error unless a JVP is also given" in " ".join(
            fg.custom_vjp.__doc__.split())  # and the docstring says so

    def test_with_a_jvp_rule_too_forward_mode_works(self):
        out, tangent = fg.jvp(cv_both, (X,), (np.ones(3),))
        close(tangent, d_sinx_x(X))
        close(fg.jacfwd(cv_both)(X), np.diag(d_sinx_x(X)))
        close(fg.hessian(lambda x: fnp.sum(cv_both(x)))(X), np.diag(d2_sinx_x(X)))
        close(fg.grad(lambda x: fnp.sum(cv_both(x)))(X), d_sinx_x(X))

    def test_nondiff_argnums(self):
        @partial(fg.custom_vjp, nondiff_argnums=(1,))
        def powk(x, k):
            return x ** k

        def powk_fwd(x, k):
            return x ** k, x

        def powk_bwd(k, x, g):  # nondiff arguments first, then residuals, cotangent
            return (k * x ** (k - 1) * g,)

        powk.defvjp(powk_fwd, powk_bwd)
        close(fg.grad(lambda x: fnp.sum(powk(x, 3)))(X), 3 * X ** 2)
        close(fg.grad(fg.grad(lambda x: powk(x, 3)))(0.7), 6 * 0.7)
        close(fg.vmap(fg.grad(lambda x: powk(x, 3)))(X), 3 * X ** 2)
        close(fg.grad(lambda x: fnp.sum(fg.vmap(lambda x: powk(x, 3))(x)))(X), 3 * X ** 2)

    def test_pytree_inputs_and_outputs(self):
        @fg.custom_vjp
        def pt(d):
            return {"s": d["a"] * d["b"], "t": (d["a"] + d["b"],)}

        pt.defvjp(lambda d: (pt(d), d),
                  lambda d, g: ({"a": g["s"] * d["b"] + g["t"][0],
                                 "b": g["s"] * d["a"] + g["t"][0]},))
        d = {"a": X, "b": X + 1}
        loss = lambda d: fnp.sum(pt(d)["s"]) + fnp.sum(pt(d)["t"][0] ** 2)  # noqa: E731
        g = fg.grad(loss)(d)
        close(g["a"], (X + 1) + 2 * (2 * X + 1))
        close(g["b"], X + 2 * (2 * X + 1))
        gv = fg.grad(lambda d: fnp.sum(fg.vmap(pt)(d)["s"]))(d)
        close(gv["a"], X + 1)
        close(gv["b"], X)

    def test_unbatched_argument_cotangents_are_summed(self):
        @fg.custom_vjp
        def mul(w, x):
            return w * x

        mul.defvjp(lambda w, x: (w * x, (w, x)), lambda r, g: (r[1] * g, r[0] * g))
        w, xs = np.array([1.0, 2.0]), np.arange(6.0).reshape(3, 2)
        close(fg.grad(lambda w: fnp.sum(fg.vmap(mul, in_axes=(None, 0))(w, xs)))(w),
              xs.sum(0))
        # a batch axis that is not the first one
        close(fg.grad(lambda xs: fnp.sum(fg.vmap(mul, in_axes=(None, 1))(w, xs.T) ** 2))(xs),
              2 * xs * w ** 2)

    def test_residuals_that_are_not_arrays_under_vmap(self):
        @fg.custom_vjp
        def scale(x):
            return 3.0 * x

        scale.defvjp(lambda x: (3.0 * x, (3.0, "note")), lambda res, g: (res[0] * g,))
        close(fg.grad(lambda x: fnp.sum(fg.vmap(scale)(x)))(X), 3.0 * np.ones(3))

    def test_none_and_broadcast_cotangents(self):
        @fg.custom_vjp
        def f(x, y):
            return x * y

        f.defvjp(lambda x, y: (x * y, None), lambda res, g: (None, fnp.sum(g)))
        gx, gy = fg.grad(lambda x, y: fnp.sum(f(x, y)), argnums=(0, 1))(X, np.ones(3))
        close(gx, np.zeros(3))
        close(gy, 3.0 * np.ones(3))  # the scalar cotangent is broadcast to y's shape

    def test_bwd_errors_name_the_function(self):
        @fg.custom_vjp
        def f(x):
            return x * 2

        f.defvjp(lambda x: (x * 2, None), lambda res, g: g)
        with pytest.raises(TypeError, match="the bwd rule of f must return a tuple"):
            fg.grad(lambda x: fnp.sum(f(x)))(X)
        f.defvjp(lambda x: (x * 2, None), lambda res, g: (g, g))
        with pytest.raises(ValueError, match="the bwd rule of f returned 2 cotangents for 1 "
                                             "differentiable arguments"):
            fg.grad(lambda x: fnp.sum(f(x)))(X)
        f.defvjp(lambda x: (x * 2, None), lambda res, g: (g[:2],))
        with pytest.raises(ValueError, match=re.escape(
                "the backward of f returned a gradient of shape (2,) for an input of shape "
                "(3,)")):
            fg.grad(lambda x: fnp.sum(f(x)))(X)

        @fg.custom_vjp
        def h(d):
            return d

        h.defvjp(lambda d: (d, None), lambda res, g: (g["a"],))
        with pytest.raises(ValueError, match="the bwd rule of h returned a cotangent with "
                                             "structure"):
            fg.grad(lambda d: fnp.sum(h(d)["a"]))({"a": X, "b": X})

    def test_a_fwd_rule_that_returns_no_pair_is_named(self):
        @fg.custom_vjp
        def f(x):
            return x * 2

        f.defvjp(lambda x: x * 2, lambda res, g: (g,))
        with pytest.raises(TypeError, match=r"the fwd rule of f must return a pair \(output, "
                                            r"residuals\), got float"):
            fg.grad(f)(3.0)
        f.defvjp(lambda x: (x * 2, x, x), lambda res, g: (g,))
        with pytest.raises(TypeError, match="got tuple of length 3"):
            fg.grad(lambda x: fnp.sum(f(x)))(X)

    def test_missing_rules(self):
        @fg.custom_vjp
        def f(x):
            return x

        with pytest.raises(TypeError, match=re.escape("define them with f.defvjp(fwd, bwd)")):
            f(1.0)

    def test_captured_traced_value_gives_clear_error(self):
        def loss(w):
            @fg.custom_vjp
            def f(y):
                return y * w

            f.defvjp(lambda y: (f(y), None), lambda r, g: (g * w,))
            return fnp.sum(f(X * w))

        with pytest.raises(fg.EscapedTracerError,
                           match=r"custom_vjp\(f\) used a value traced by an enclosing grad"):
            fg.grad(loss)(2.0)

    def test_captured_value_is_refused_when_no_argument_is_traced(self):
        # With constant arguments the call went past grad's (jvp's) interpreter, but the
        # primal still ran with it current: the captured w was differentiated through the
        # primal, bypassing the rule (grad 3.0 where the rule says nothing of w).
        def loss(w):
            @fg.custom_vjp
            def f(y):
                return y * w

            f.defvjp(lambda y: (f(y), None), lambda r, g: (g * 100.0,))
            return f(3.0)

        jvp = lambda fn: (lambda w: fg.jvp(fn, (w,), (1.0,)))  # noqa: E731
        for transform, w in ((fg.grad, 2.0), (jvp, 2.0),
                             (lambda fn: fg.vmap(fg.grad(fn)), np.array([2.0, 3.0]))):
            with pytest.raises(fg.EscapedTracerError, match=r"custom_vjp\(f\) (used|holds) a "
                                                             r"value traced by an enclosing"):
                transform(loss)(w)
        # no derivative asked of it: vmap and jit take the captured value as they find it
        np.testing.assert_allclose(fg.vmap(loss)(np.array([2.0, 3.0])), [6.0, 9.0])
        np.testing.assert_allclose(fg.jit(loss)(2.0), 6.0)
        # fg.stop_gradient, as the message says, or the value as an argument, are accepted
        np.testing.assert_allclose(fg.grad(lambda w: loss(fg.stop_gradient(w)) + w)(2.0), 1.0)


# --- Function (torch.autograd.Function) ----------------------------------------------------------

class Exp(fg.Function):
    """The seed example."""

    @staticmethod
    def forward(ctx, x):
        result = np.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


class ExpFwd(Exp):
    """Exp with a forward-mode rule too."""

    @staticmethod
    def jvp(ctx, tangent):
        result, = ctx.saved_tensors
        return tangent * result


class Two(fg.Function):
    """Two inputs, two outputs."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b, a + b

    @staticmethod
    def backward(ctx, g_prod, g_sum):
        a, b = ctx.saved_tensors
        return g_prod * b + g_sum, g_prod * a + g_sum


class TestFunction:
    def test_seed_example_exact_gradients(self):
        g = fg.grad(lambda x: fnp.sum(Exp.apply(x)))(X)
        np.testing.assert_array_equal(g, np.exp(X))  # exact: the rule is grad_output * e^x
        assert fg.grad(Exp.apply)(0.0) == 1.0
        assert Exp.__name__ == "Exp" and isinstance(Exp.apply(X), np.ndarray)

    def test_seed_example_gradcheck(self):
        check_grads(Exp.apply, (X,), forward=False)
        check_grads(ExpFwd.apply, (X,), forward=True)
        check_grads(lambda a, b: Two.apply(a, b)[0] * Two.apply(a, b)[1], (X, X + 1),
                    forward=False)

    def test_under_transforms(self):
        close(fg.vmap(Exp.apply)(X), np.exp(X))
        close(fg.vmap(fg.grad(Exp.apply))(X), np.exp(X))
        close(fg.grad(lambda x: fnp.sum(fg.vmap(Exp.apply)(x)))(X), np.exp(X))
        close(fg.jacrev(Exp.apply)(X), np.diag(np.exp(X)))
        close(fg.grad(fg.grad(Exp.apply))(0.5), np.exp(0.5))  # backward is differentiable
        ga, gb = fg.grad(lambda a, b: fnp.sum(fg.vmap(Two.apply)(a, b)[0]),
                         argnums=(0, 1))(X, 2 * X)
        close(ga, 2 * X)
        close(gb, X)

    def test_forward_mode_with_jvp_staticmethod(self):
        close(fg.jvp(ExpFwd.apply, (X,), (np.ones(3),))[1], np.exp(X))
        close(fg.jacfwd(ExpFwd.apply)(X), np.diag(np.exp(X)))
        close(fg.hessian(lambda x: fnp.sum(ExpFwd.apply(x)))(X), np.diag(np.exp(X)))
        with fg.forward_ad.dual_level():
            y = ExpFwd.apply(fg.forward_ad.make_dual(X, 2 * np.ones(3)))
            close(fg.forward_ad.unpack_dual(y).tangent, 2 * np.exp(X))

    def test_forward_mode_without_jvp_raises(self):
        with pytest.raises(TypeError, match=re.escape(
                "cannot apply forward-mode differentiation (jvp, jacfwd, hessian, forward_ad) "
                "to Exp.apply: it defines a custom VJP (reverse mode) only")):
            fg.jvp(Exp.apply, (X,), (np.ones(3),))
        with pytest.raises(NotImplementedError, match="defines a custom VJP"):  # torch's kind
            fg.jvp(Exp.apply, (X,), (np.ones(3),))

    def test_needs_input_grad(self):
        seen = []

        class Probe(fg.Function):
            @staticmethod
            def forward(ctx, x, y, n, s):
                seen.append(ctx.needs_input_grad)
                return x * y * n

            @staticmethod
            def backward(ctx, g):
                seen.append(("backward", ctx.needs_input_grad))
                x_grad = g * 2.0 if ctx.needs_input_grad[0] else None
                y_grad = g * 2.0 if ctx.needs_input_grad[1] else None
                return x_grad, y_grad, None, None

        y = np.ones(3)
        g = fg.grad(lambda x: fnp.sum(Probe.apply(x, y, 2, "s")))(X)
        close(g, 2.0 * np.ones(3))
        assert seen == [(True, False, False, False), ("backward", (True, False, False, False))]
        seen.clear()
        g = fg.grad(lambda y: fnp.sum(Probe.apply(X, y, 2, "s")))(y)
        close(g, 2.0 * np.ones(3))
        assert seen[0] == (False, True, False, False)
        seen.clear()
        Probe.apply(X, y, 2, "s")  # nothing is differentiated
        assert seen == [(False, False, False, False)]
        seen.clear()
        fg.grad(lambda x: fnp.sum(x) + fnp.sum(fg.no_grad()(Probe.apply)(x, y, 2, "s")))(X)
        assert seen == [(False, False, False, False)]

    def test_mark_non_differentiable(self):
        received = []

        class SortWithIndex(fg.Function):
            @staticmethod
            def forward(ctx, x):
                idx = np.argsort(x)
                ctx.mark_non_differentiable(idx)
                ctx.save_for_backward(idx)
                return x[idx], idx

            @staticmethod
            def backward(ctx, g_values, g_idx):
                received.append(np.asarray(g_idx))
                idx, = ctx.saved_tensors
                out = np.zeros(np.shape(g_values))
                out[idx] = g_values
                return out

            @staticmethod
            def jvp(ctx, t):
                idx, = ctx.saved_tensors
                return t[idx], np.zeros(3)

        def loss(x):
            values, idx = SortWithIndex.apply(x)
            return fnp.sum(values * np.arange(3.0)) + fnp.sum(idx * 1.0)

        close(fg.grad(loss)(X), [1.0, 2.0, 0.0])  # X sorted: -0.5, 0.3, 1.2
        assert len(received) == 1 and not np.any(received[0])  # a zero gradient, as torch
        (_, idx), (t_values, t_idx) = fg.jvp(SortWithIndex.apply, (X,), (np.ones(3),))
        close(t_values, np.ones(3))
        assert not np.any(t_idx)

    def test_backward_returning_wrong_number_of_gradients(self):
        class Bad(fg.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x * y

            @staticmethod
            def backward(ctx, g):
                return g

        with pytest.raises(ValueError, match=re.escape(
                "function Bad.backward returned 1 gradient, but forward took 2 inputs: "
                "expected 2, one per input, with shapes (3,), (3,) (None for inputs without "
                "a gradient)")):
            fg.grad(lambda x: fnp.sum(Bad.apply(x, x)))(X)

        class BadWithInt(Bad):
            @staticmethod
            def forward(ctx, x, n):
                return x * n

            @staticmethod
            def backward(ctx, g):  # (extra gradients are allowed only if None, as in torch)
                return g, None, g

        with pytest.raises(ValueError, match=re.escape(
                "function BadWithInt.backward returned 3 gradients, but forward took 2 inputs: "
                "expected 2, one per input, with shapes (3,), None (a int)")):
            fg.grad(lambda x: fnp.sum(BadWithInt.apply(x, 2)))(X)

    def test_backward_returning_wrong_shapes(self):
        class BadShape(fg.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return fnp.sum(g)

        with pytest.raises(ValueError, match=re.escape(
                "function BadShape.backward returned a gradient of shape () for input 0, "
                "expected shape (3,) (the shape of that input)")):
            fg.grad(lambda x: fnp.sum(BadShape.apply(x)))(X)

    def test_non_array_arguments_pass_through(self):
        seen = {}

        class Scale(fg.Function):
            @staticmethod
            def forward(ctx, x, n, label, options):
                seen.update(n=n, label=label, options=options)
                ctx.n = n
                return x * n

            @staticmethod
            def backward(ctx, g):
                return g * ctx.n, None, None, None

            @staticmethod
            def jvp(ctx, tx, tn, tlabel, toptions):
                seen.update(tangents=(tn, tlabel, toptions))
                return tx * ctx.n

        g = fg.grad(lambda x: fnp.sum(Scale.apply(x, 3, "hello", {"k": 1})))(X)
        close(g, 3.0 * np.ones(3))
        assert seen["n"] == 3 and type(seen["n"]) is int
        assert seen["label"] == "hello" and seen["options"] == {"k": 1}
        close(fg.jvp(lambda x: Scale.apply(x, 3, "s", None), (X,), (np.ones(3),))[1],
              3.0 * np.ones(3))
        assert seen["tangents"] == (None, None, None)
        close(fg.hessian(lambda x: fnp.sum(Scale.apply(x, 3, "h", None) ** 2))(X),
              18.0 * np.eye(3))

    @pytest.mark.skipif(not hasattr(fg, "Tensor"), reason="no eager Tensor yet")
    def test_on_the_eager_tensor(self):
        x = fg.Tensor(X.copy(), requires_grad=True)
        y = Exp.apply(x)
        fnp.sum(y).backward() if not hasattr(y, "sum") else y.sum().backward()
        np.testing.assert_array_equal(np.asarray(x.grad), np.exp(X))


# --- checkpoint ----------------------------------------------------------------------------------

def block(x):
    return fnp.sin(fnp.sin(x)) * x + fnp.cos(x) ** 2


CBLOCK = fg.checkpoint(block)


class TestCheckpoint:
    def test_values_and_first_order(self):
        close(CBLOCK(X), block(X), rtol=0, atol=0)
        loss = lambda f: (lambda x: fnp.sum(f(x)))  # noqa: E731
        close(fg.grad(loss(CBLOCK))(X), fg.grad(loss(block))(X), rtol=1e-14)
        close(fg.grad(loss(CBLOCK))(X), fd_jacobian(lambda x: np.sum(block(x)), X), rtol=1e-6)
        close(fg.jvp(CBLOCK, (X,), (X,))[1], fg.jvp(block, (X,), (X,))[1], rtol=1e-14)
        close(fg.jacrev(CBLOCK)(X), fg.jacrev(block)(X), rtol=1e-14)
        close(fg.jacfwd(CBLOCK)(X), fg.jacfwd(block)(X), rtol=1e-14)
        close(fg.vmap(CBLOCK)(X), fg.vmap(block)(X), rtol=1e-14)
        close(fg.vmap(fg.grad(CBLOCK))(X), fg.vmap(fg.grad(block))(X), rtol=1e-14)
        close(fg.grad(loss(fg.vmap(CBLOCK)))(X), fg.grad(loss(block))(X), rtol=1e-14)
        close(fg.linearize(CBLOCK, X)[1](X), fg.jvp(block, (X,), (X,))[1], rtol=1e-14)

    def test_second_order(self):
        loss = lambda f: (lambda x: fnp.sum(f(x)))  # noqa: E731
        close(fg.hessian(loss(CBLOCK))(X), fg.hessian(loss(block))(X), rtol=1e-13)
        close(fg.grad(fg.grad(CBLOCK))(0.7), fg.grad(fg.grad(block))(0.7), rtol=1e-13)
        close(fg.jacrev(fg.jacrev(loss(CBLOCK)))(X), fg.hessian(loss(block))(X), rtol=1e-13)
        close(fg.hessian(loss(CBLOCK))(X), fd_jacobian(fg.grad(loss(block)), X), rtol=1e-5)
        check_grads(CBLOCK, (X,))

    def test_nested_and_chained(self):
        outer = fg.checkpoint(lambda x: CBLOCK(CBLOCK(x)) * 2.0)
        ref = lambda x: block(block(x)) * 2.0  # noqa: E731
        close(fg.grad(lambda x: fnp.sum(outer(x)))(X), fg.grad(lambda x: fnp.sum(ref(x)))(X),
              rtol=1e-13)
        close(fg.hessian(lambda x: fnp.sum(outer(x)))(X),
              fg.hessian(lambda x: fnp.sum(ref(x)))(X), rtol=1e-12)

    def test_recomputes_in_the_backward_pass(self):
        calls = []

        def counted(x):
            calls.append(1)
            return fnp.sin(x) * x

        fg.grad(lambda x: fnp.sum(fg.checkpoint(counted)(x)))(X)
        assert len(calls) == 2  # once forward, once more in the backward pass
        calls.clear()
        fg.grad(lambda x: fnp.sum(counted(x)))(X)
        assert len(calls) == 1

    def test_pytrees_and_integer_arguments(self):
        ck = fg.checkpoint(lambda d, idx: {"s": fnp.sin(d["a"])[idx] * d["b"][idx]})
        ref = lambda d, idx: {"s": fnp.sin(d["a"])[idx] * d["b"][idx]}  # noqa: E731
        d, idx = {"a": X, "b": X + 1}, np.array([0, 2])
        g = fg.grad(lambda d: fnp.sum(ck(d, idx)["s"]))(d)
        g_ref = fg.grad(lambda d: fnp.sum(ref(d, idx)["s"]))(d)
        close(g["a"], g_ref["a"], rtol=1e-14)
        close(g["b"], g_ref["b"], rtol=1e-14)
        close(fg.jvp(lambda a: ck({"a": a, "b": X}, idx)["s"], (X,), (X,))[1],
              fg.jvp(lambda a: ref({"a": a, "b": X}, idx)["s"], (X,), (X,))[1], rtol=1e-14)
        close(fg.grad(lambda x: fnp.sum(fg.checkpoint(lambda x, n: x ** n)(x, 3)))(X),
              3 * X ** 2)

    def test_captured_traced_values_get_gradients(self):
        def loss(w, ck=True):
            layer = lambda h: fnp.tanh(h * w[0] + w[1])  # noqa: E731  (captures w)
            layer = fg.checkpoint(layer) if ck else layer
            return fnp.sum(layer(layer(X * w[0])))

        w = np.array([0.7, -0.2])
        close(fg.grad(loss)(w), fg.grad(partial(loss, ck=False))(w), rtol=1e-13)
        close(fg.grad(loss)(w), fd_jacobian(partial(loss, ck=False), w), rtol=1e-6)
        close(fg.hessian(loss)(w), fg.hessian(partial(loss, ck=False))(w), rtol=1e-12)
        close(fg.jvp(loss, (w,), (np.ones(2),))[1],
              fg.jvp(partial(loss, ck=False), (w,), (np.ones(2),))[1], rtol=1e-13)

    def test_captured_batched_value_under_vmap(self):
        # batch size == trailing dimension: this used to broadcast silently to wrong values
        ws = np.array([1.0, 2.0, 3.0])
        got = fg.vmap(lambda w: fg.checkpoint(lambda y: y * w)(X * w))(ws)
        close(got, ws[:, None] ** 2 * X[None, :], rtol=0, atol=0)
        g = fg.vmap(fg.grad(lambda w: fnp.sum(fg.checkpoint(lambda y: fnp.sin(y * w))(X * w))))
        g_ref = fg.vmap(fg.grad(lambda w: fnp.sum(fnp.sin(X * w * w))))
        close(g(ws), g_ref(ws), rtol=1e-13)

    def test_captured_traced_values_under_jit(self):
        """jit stores the checkpointed function in its graph and runs it later: a value
        of the jit trace it captured is made an input of the call, as under grad, so
        jit(f), jit(grad(f)) and make_graph(f) work as f does eagerly.  By hand:
        f(w) = sum(sin(2 w^2)), f'(w) = 4 w cos(2 w^2)."""
        def f(w):
            y = w * 2.0
            return fg.checkpoint(lambda z: fnp.sum(fnp.sin(z * y)))(w)

        w = np.array([1.5, -0.5, 0.2])
        close(fg.jit(f)(w), np.sum(np.sin(2 * w * w)), rtol=1e-14)
        close(fg.jit(fg.grad(f))(w), 4 * w * np.cos(2 * w * w), rtol=1e-14)
        close(fg.jit(fg.grad(f))(w), fg.grad(f)(w), rtol=1e-14)
        close(fg.jit(fg.hessian(f))(w), fg.hessian(f)(w), rtol=1e-13)
        ws = np.stack([w, 2 * w])
        close(fg.jit(fg.vmap(fg.grad(f)))(ws), fg.vmap(fg.grad(f))(ws), rtol=1e-14)
        graph = fg.make_graph(f)(w)
        assert [str(e.prim) for e in graph.eqns] == ["multiply", "custom_call"]
        assert len(graph.eqns[1].inputs) == 2  # w, and the captured y

    def test_custom_vjp_capturing_a_jit_value_says_so_when_traced(self):
        def f(w):
            y = w * 2.0

            @fg.custom_vjp
            def g(z):
                return fnp.sum(z * y)
            g.defvjp(lambda z: (g(z), z), lambda r, ct: (ct * y,))
            return g(w)

        with pytest.raises(fg.EscapedTracerError, match=re.escape(
                "custom_vjp(g) used a value traced by the enclosing jit")) as info:
            fg.jit(f)(np.ones(2))
        assert "Pass it as a regular (array) argument" in str(info.value)

    def test_under_no_grad_is_a_constant(self):
        def f(x):
            with fg.no_grad():
                c = CBLOCK(x)
            return fnp.sum(x * c)

        close(fg.grad(f)(X), block(X))


# --- checkpoint memory ---------------------------------------------------------------------------

def _chain_peak(block_fn, layers, x):
    def f(v):
        for _ in range(layers):
            v = block_fn(v)
        return np.sum(v)

    g = fg.grad(f)
    g(x)  # warm-up: kernels compiled, caches filled
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start, _ = tracemalloc.get_traced_memory()
        grad = g(x)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - start, grad


def _five_ops(x):
    x = np.sin(x)
    x = x * 0.9
    x = np.cos(x)
    x = x + 0.1
    return np.tanh(x)


def test_checkpoint_static_argnums_and_policy_as_jax():
    # static_argnums: the argument reaches the function as a Python value, so Python
    # control flow on it works under jit; policy/prevent_cse change no value.
    @partial(fg.checkpoint, static_argnums=(1,))
    def power(x, n):
        return x ** n if n > 1 else x * 0.5

    x = np.array([0.3, -1.2, 2.0])
    g = fg.jit(fg.grad(lambda x, n: np.sum(power(x, n))), static_argnums=1)
    np.testing.assert_allclose(g(x, 3), 3 * x ** 2)
    np.testing.assert_allclose(g(x, 1), np.full(3, 0.5))
    np.testing.assert_allclose(fg.vmap(fg.grad(lambda x: power(x, 4)))(x), 4 * x ** 3)
    last = fg.checkpoint(lambda x, n: np.sin(x) * n, static_argnums=-1, policy=lambda *a: False,
                         prevent_cse=False)
    np.testing.assert_allclose(fg.grad(lambda x: np.sum(last(x, 2.0)))(x), 2 * np.cos(x))
    with pytest.raises(ValueError, match="static_argnums has 2"):
        fg.checkpoint(lambda x: x, static_argnums=2)(x)
    with pytest.raises(TypeError, match="policy must be a callable"):
        fg.checkpoint(lambda x: x, policy="dots")


def test_checkpoint_differentiates_keyword_arguments_as_jax():
    block = fg.checkpoint(lambda x, scale=1.0: np.sin(x) * scale)
    x = np.array([0.3, -1.2])
    gx, gs = fg.grad(lambda x, s: np.sum(block(x, scale=s)), argnums=(0, 1))(x, 2.0)
    np.testing.assert_allclose(gx, 2.0 * np.cos(x))
    np.testing.assert_allclose(gs, np.sum(np.sin(x)))
    power = fg.checkpoint(lambda x, n, w=None: w * x ** n, static_argnums=1)
    np.testing.assert_allclose(fg.jit(fg.grad(lambda x: np.sum(power(x, 3, w=x))))(x),
                               4 * x ** 3)


def test_checkpoint_static_argnames_by_keyword_or_by_position():
    def power(x, n):
        return x ** n if n > 1 else x * 0.5  # (Python control flow on n: it must be static)
    block = fg.checkpoint(power, static_argnames="n")
    x = np.array([0.3, -1.2])
    g = fg.jit(fg.grad(lambda x, n: np.sum(block(x, n=n))), static_argnums=1)
    np.testing.assert_allclose(g(x, 3), 3 * x ** 2)
    np.testing.assert_allclose(g(x, 1), [0.5, 0.5])
    by_position = fg.jit(fg.grad(lambda x: np.sum(block(x, 2))))
    np.testing.assert_allclose(by_position(x), 2 * x)
    with pytest.raises(ValueError, match="static_argnames has \\['m'\\]"):
        fg.checkpoint(power, static_argnames=("m",))


@pytest.mark.parametrize("name", sorted(set(fg.checkpoint_policies.__all__) - {
    "save_only_these_names", "save_any_names_but_these", "save_anything_except_these_names",
    "save_from_both_policies", "offload_dot_with_no_batch_dims",
    "save_and_offload_only_these_names"}))
def test_checkpoint_takes_every_jax_policy_with_the_same_derivatives(name):
    policy = getattr(fg.checkpoint_policies, name)
    w = np.array([[0.5, -1.0], [2.0, 0.25]])

    def layer(x):
        h = fg.checkpoint_name(np.tanh(w @ x), "hidden")
        return np.sum(h ** 2)
    x = np.array([0.1, -0.3])
    h = np.tanh(w @ x)
    expected = w.T @ (2 * h * (1 - h ** 2))  # closed form of d/dx sum(tanh(Wx)^2)
    np.testing.assert_allclose(fg.grad(fg.checkpoint(layer, policy=policy))(x), expected)
    named = fg.checkpoint_policies.save_from_both_policies(
        policy, fg.checkpoint_policies.save_only_these_names("hidden"))
    np.testing.assert_allclose(fg.grad(fg.checkpoint(layer, policy=named))(x), expected)


def test_checkpoint_policy_decides_what_is_saved_and_what_is_run_again(monkeypatch):
    # (audit: policies were accepted, never consulted) the counts JAX's remat gives: a
    # saved result is not computed again by the backward pass; the rest is
    from funcgrad.core import REGISTRY
    runs = {}
    for name in ("sin", "tanh", "matmul"):
        prim = REGISTRY[name]
        monkeypatch.setattr(prim, "impl", (lambda impl, name: lambda *a, **k: (
            runs.__setitem__(name, runs.get(name, 0) + 1), impl(*a, **k))[1])(prim.impl, name))
    w = np.array([[0.5, -1.0, 0.2], [2.0, 0.25, -0.4], [0.1, 0.3, 0.9]])

    def f(x):
        h = fg.checkpoint_name(np.sin(x), "h")
        return np.sum(np.tanh(h @ w) * h)
    x = np.array([0.1, -0.3, 0.7])
    h = np.sin(x)
    t = np.tanh(h @ w)
    expected = np.cos(x) * (w @ ((1 - t ** 2) * h) + t)  # by hand
    policies = fg.checkpoint_policies
    # (matmul: forward, backward's product; +1 where it is run again)
    for policy, counts in [(policies.nothing_saveable, {"sin": 2, "tanh": 2, "matmul": 3}),
                           (policies.everything_saveable, {"sin": 1, "tanh": 1, "matmul": 2}),
                           (policies.dots_saveable, {"sin": 2, "tanh": 2, "matmul": 2}),
                           (policies.checkpoint_dots, {"sin": 2, "tanh": 2, "matmul": 2}),
                           (policies.save_only_these_names("h"),
                            {"sin": 1, "tanh": 2, "matmul": 3}),
                           (policies.save_only_these_names("other"),
                            {"sin": 2, "tanh": 2, "matmul": 3})]:
        runs.clear()
        np.testing.assert_allclose(fg.grad(fg.checkpoint(f, policy=policy))(x), expected)
        assert runs == counts, (policy, runs)
    # the same derivatives under jit, vmap and second order
    block = fg.checkpoint(f, policy=policies.dots_saveable)
    np.testing.assert_allclose(fg.jit(fg.grad(block))(x), expected)
    np.testing.assert_allclose(fg.vmap(fg.grad(block))(np.stack([x, x])), [expected] * 2)
    np.testing.assert_allclose(fg.hessian(block)(x), fg.hessian(f)(x), rtol=1e-12)


def test_checkpoint_name_returns_its_value_and_wants_a_string_name():
    tree = {"a": np.ones(2), "b": (1.0,)}
    named = fg.checkpoint_name(tree, "t")
    assert fg.tree.structure(named) == fg.tree.structure(tree)
    np.testing.assert_array_equal(named["a"], tree["a"])
    assert float(named["b"][0]) == 1.0
    graph = fg.make_graph(lambda v: fg.checkpoint_name(v * 2.0, "t"))(np.ones(2))
    assert "name[name='t']" in str(graph)
    assert fg.grad(lambda v: fg.checkpoint_name(v * v, "t"))(3.0) == 6.0
    with pytest.raises(TypeError, match="must be a string"):
        fg.checkpoint_name(np.ones(2), 3)


def test_checkpoint_lowers_peak_memory_of_a_deep_chain():
    """A memory property (not a timing): 100 checkpointed blocks of 5 elementwise ops keep
    ~1 array per block instead of ~5.  ``benchmarks/checkpoint_memory.py`` reports it."""
    x = np.linspace(-1.0, 1.0, 10_000)
    plain_peak, plain_grad = _chain_peak(_five_ops, 100, x)
    ckpt_peak, ckpt_grad = _chain_peak(fg.checkpoint(_five_ops), 100, x)
    np.testing.assert_allclose(ckpt_grad, plain_grad, rtol=1e-12)
    array_bytes = x.nbytes
    assert plain_peak > 300 * array_bytes  # the plain chain keeps its intermediates
    assert ckpt_peak < 0.6 * plain_peak, (ckpt_peak, plain_peak)
    assert ckpt_peak < 150 * array_bytes, ckpt_peak / array_bytes


# --- JAX's call pattern and its defjvps shorthand ---------------------------------------------

def _counted_sin():
    calls = []

    @fg.custom_jvp
    def f(x):
        calls.append("f")
        return fnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        calls.append("f_jvp")
        (x,), (t,) = primals, tangents
        return f(x), fnp.cos(x) * t
    return f, calls


def test_custom_jvp_under_grad_runs_the_rule_once_and_the_function_only_from_it():
    f, calls = _counted_sin()
    assert float(f(3.0)) == np.sin(3.0) and calls == ["f"]
    calls.clear()
    assert float(fg.grad(f)(3.0)) == np.cos(3.0)
    assert calls == ["f_jvp", "f"]  # as JAX: the rule, which calls f on the primals
    calls.clear()
    np.testing.assert_allclose(fg.grad(fg.grad(f))(3.0), -np.sin(3.0), rtol=1e-15)
    assert calls == ["f_jvp", "f_jvp", "f"]
    calls.clear()
    assert float(fg.jvp(f, (3.0,), (1.0,))[1]) == np.cos(3.0)
    assert calls == ["f_jvp", "f"]


def test_custom_jvp_rule_used_by_reverse_mode_under_vmap_and_jit():
    f, _ = _counted_sin()
    x = np.array([0.1, 0.7, -2.0])
    np.testing.assert_allclose(fg.vmap(fg.grad(f))(x), np.cos(x), rtol=1e-15)
    np.testing.assert_allclose(fg.jit(fg.grad(f))(0.4), np.cos(0.4), rtol=1e-15)


def test_custom_jvp_whose_outputs_depend_on_tangents_is_refused():
    @fg.custom_jvp
    def f(x):
        return fnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        return fnp.sin(primals[0]) + tangents[0], tangents[0]
    with pytest.raises(TypeError, match="depend on the tangents"):
        fg.grad(f)(1.0)


def test_a_jitted_jvp_rule_serves_reverse_mode():
    # JAX's docs decorate rules with jit: the compiled call reads primals and tangents
    # together, yet its primal outputs come from the primals alone
    def with_rule(buggy):
        @fg.custom_jvp
        def f(x):
            return fnp.sin(x)

        @f.defjvp
        @fg.jit
        def f_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return (fnp.sin(x) + t if buggy else fnp.sin(x)), 2.0 * fnp.cos(x) * t
        return f
    f = with_rule(False)
    x = np.array([0.3, 1.2])
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(f(v)))(x), 2 * np.cos(x), rtol=1e-15)
    out, f_vjp = fg.vjp(f, x)
    np.testing.assert_allclose(out, np.sin(x), rtol=1e-15)
    np.testing.assert_allclose(f_vjp(np.ones(2))[0], 2 * np.cos(x), rtol=1e-15)
    np.testing.assert_allclose(fg.grad(fg.grad(f))(0.3), -2 * np.sin(0.3), rtol=1e-14)
    with pytest.raises(TypeError, match="depend on the tangents"):
        fg.grad(lambda v: fnp.sum(with_rule(True)(v)))(x)


def test_defjvps_sums_one_rule_per_argument():
    calls = []

    @fg.custom_jvp
    def f(x, y):
        calls.append("f")
        return fnp.sin(x) * y

    # deliberately not the true derivative in y, to show the rule is the one used
    f.defjvps(lambda tx, out, x, y: fnp.cos(x) * y * tx,
              lambda ty, out, x, y: 2.0 * ty)
    gx, gy = fg.grad(f, argnums=(0, 1))(0.5, 3.0)
    assert float(gx) == np.cos(0.5) * 3.0 and float(gy) == 2.0
    assert calls == ["f"]
    _, t = fg.jvp(f, (0.5, 3.0), (1.0, 1.0))
    np.testing.assert_allclose(t, np.cos(0.5) * 3.0 + 2.0, rtol=1e-15)

    @fg.custom_jvp
    def g(x, k):
        return x * k
    g.defjvps(lambda tx, out, x, k: k * tx, None)  # no derivative in k
    assert float(fg.grad(g)(2.0, 5.0)) == 5.0
    assert float(fg.grad(g, argnums=1)(2.0, 5.0)) == 0.0


def test_defjvps_with_nondiff_argnums_or_a_wrong_count_is_refused():
    f = fg.custom_jvp(lambda x, n: x * n, nondiff_argnums=(1,))
    with pytest.raises(TypeError, match="nondiff_argnums"):
        f.defjvps(lambda t, out, x, n: t * n)
    g = fg.custom_jvp(lambda x, y: x * y)
    g.defjvps(lambda t, out, x, y: t * y)
    with pytest.raises(TypeError, match="one per argument"):
        fg.grad(g)(1.0, 2.0)


def test_custom_functions_take_keywords_and_defaults_in_their_positions():
    """As JAX: keyword arguments go to their positions and defaults are filled in, so the
    rules see every argument in ``primals`` and ``nondiff_argnums`` count positions."""
    @fg.custom_jvp
    def scaled(x, k=2.0):
        return fnp.sin(x) * k

    @scaled.defjvp
    def scaled_jvp(primals, tangents):
        (x, k), (tx, tk) = primals, tangents
        return scaled(x, k), fnp.cos(x) * k * tx + fnp.sin(x) * tk

    assert float(fg.grad(lambda x: scaled(x, k=3.0))(0.0)) == 3.0
    assert float(fg.grad(scaled)(0.0)) == 2.0  # (k=2.0 reached the rule)
    assert float(fg.grad(lambda k: scaled(np.pi / 2, k=k))(5.0)) == 1.0

    def power(n, x):
        return x ** n
    power = fg.custom_vjp(power, nondiff_argnums=(0,))
    power.defvjp(lambda n, x: (x ** n, x), lambda n, x, g: (n * x ** (n - 1) * g,))
    assert float(fg.grad(lambda x: power(x=x, n=3))(2.0)) == 12.0

    only_keyword = fg.custom_jvp(lambda x, *, k: x * k)
    only_keyword.defjvp(lambda p, t: (p[0], t[0]))
    with pytest.raises(TypeError, match="keyword-only arguments \\['k'\\]"):
        only_keyword(1.0, k=2.0)
    with pytest.raises(TypeError, match="scaled: .*unexpected keyword argument 'q'"):
        scaled(1.0, q=2.0)


def test_nondiff_argnames_are_nondiff_argnums_by_name():
    def power(x, n):
        return x ** n
    cj = fg.custom_jvp(power, nondiff_argnames=("n",))
    cj.defjvp(lambda n, p, t: (p[0] ** n, n * p[0] ** (n - 1) * t[0]))
    cv = fg.custom_vjp(power, nondiff_argnames="n")
    cv.defvjp(lambda x, n: (x ** n, x), lambda n, x, g: (n * x ** (n - 1) * g,))
    for f in (cj, cv):
        assert f.nondiff_argnums == (1,)
        assert float(fg.grad(f)(2.0, 3)) == 12.0
        assert float(fg.grad(lambda x: f(x, n=3))(2.0)) == 12.0
    with pytest.raises(ValueError, match="nondiff_argnames has \\['k'\\]"):
        fg.custom_jvp(power, nondiff_argnames=("k",))


def test_defvjp_takes_optimize_remat_and_refuses_symbolic_zeros_naming_the_fix():
    f = fg.custom_vjp(lambda x: fnp.sin(x))
    # (a rule that is not sin's derivative, so the test sees it is used)
    f.defvjp(lambda x: (fnp.sin(x), x), lambda x, g: (3.0 * g,), optimize_remat=True)
    assert float(fg.grad(f)(0.7)) == 3.0
    with pytest.raises(NotImplementedError, match="symbolic_zeros=True.*arrays"):
        f.defvjp(lambda x: (x, x), lambda x, g: (g,), symbolic_zeros=True)
    j = fg.custom_jvp(lambda x: fnp.sin(x))
    with pytest.raises(NotImplementedError, match="symbolic_zeros=True"):
        j.defjvp(lambda p, t: (p[0], t[0]), symbolic_zeros=True)


def test_custom_rules_called_on_tensors_record_on_the_tape():
    """custom_vjp / custom_jvp functions called on eager Tensors join the tape: their
    rules give the Tensors' .grad (before, the Tensor's value was taken out of it and the
    call's gradient was silently lost)."""
    @fg.custom_vjp
    def f(x):
        return np.sin(x)

    # a rule that is not sin's derivative, so the test sees that the rule is used
    f.defvjp(lambda x: (np.sin(x), x), lambda x, g: (3.0 * g * np.cos(x),))

    @fg.custom_jvp
    def h(x, y):
        return np.exp(x) * y

    h.defjvp(lambda p, t: (h(*p), np.exp(p[0]) * (p[1] * t[0] + t[1])))

    v = np.array([0.5, 1.0])
    x = fg.Tensor(v.copy(), requires_grad=True)
    y = fg.Tensor(np.array([2.0, -1.0]), requires_grad=True)
    out = f(x)
    assert out.requires_grad
    (out * x).sum().backward()
    np.testing.assert_allclose(x.grad, 3.0 * np.cos(v) * v + np.sin(v), rtol=1e-14)
    x.grad = None
    h({"a": x}["a"], y).sum().backward()
    np.testing.assert_allclose(x.grad, np.exp(v) * [2.0, -1.0], rtol=1e-14)
    np.testing.assert_allclose(y.grad, np.exp(v), rtol=1e-14)


def test_checkpoint_on_tensors_refuses_a_captured_tensor_and_takes_it_as_an_argument():
    """The rule runs on the arguments' values: a Tensor the function captures would be
    cut from the graph (its derivative, and those through it, lost), so it is refused;
    passed as an argument it gets its gradient, the same as without checkpoint."""
    x0 = np.array([0.3, -0.7, 1.1])
    w0 = np.array([[1.0, 0.5, -0.2], [0.1, -1.0, 0.3], [0.4, 0.2, 0.9]])
    x, w = fg.Tensor(x0, requires_grad=True), fg.Tensor(w0, requires_grad=True)
    with pytest.raises(TypeError, match="a Tensor it was not given as an argument"):
        fg.checkpoint(lambda v: np.tanh(w @ v))(x)
    grads = []
    for block in (lambda v, m: np.tanh(m @ v), fg.checkpoint(lambda v, m: np.tanh(m @ v))):
        x, w = fg.Tensor(x0, requires_grad=True), fg.Tensor(w0, requires_grad=True)
        ((block(x, w) ** 2).sum() + x.sum()).backward()
        grads.append((x.grad.numpy(), w.grad.numpy()))
    for plain, checked in zip(*grads):
        np.testing.assert_allclose(checked, plain, rtol=1e-14)


@pytest.mark.parametrize("policy", [None, "dots_saveable", "everything_saveable"])
def test_checkpoint_runs_a_function_of_tensor_methods_on_tensors(policy):
    """Tensors in, Tensors to the function (its recomputation too): Tensor methods work,
    and first and second derivatives are torch.utils.checkpoint's (computed with torch:
    y = tanh(w @ sin(x)), L = sum(y**2), g = dL/d(x, w), then d(sum g)/d(x, w))."""
    x0 = np.array([0.5, 1.0, -0.3])
    w0 = np.array([[1.0, 0.5, -0.2], [0.1, -1.0, 0.3], [0.4, 0.2, 0.9]])
    expected = [
        [0.5863399685192031, 0.5814200265999067, -0.1695749201369894],
        [[0.3185331906576036, 0.5590783470088286, -0.19634538995500572],
         [-0.3388104422949481, -0.5946682718888218, 0.2088443853398534],
         [0.0891670956721541, 0.15650297651258593, -0.05496302641103276]],
        [0.33040197554841455, -0.4220305361859039, 4.0749572903435665],
        [[0.02264496136583416, -0.6246603249131395, 0.9801806304903037],
         [-0.8266770408415911, -0.7442538468412228, -0.5478565033417349],
         [2.3324083699457865, 3.907774454015877, -1.159418064109234]]]
    policy = None if policy is None else getattr(fg.checkpoint_policies, policy)
    block = fg.checkpoint(lambda v, m: (m @ v.sin()).tanh(), policy=policy)
    x, w = fg.Tensor(x0, requires_grad=True), fg.Tensor(w0, requires_grad=True)
    g = fg.autograd.grad((block(x, w) ** 2).sum(), (x, w), create_graph=True)
    h = fg.autograd.grad(g[0].sum() + g[1].sum(), (x, w))
    for got, want in zip(g + h, expected):
        np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-12)
    with fg.no_grad():
        np.testing.assert_allclose(block(x, w).numpy(), np.tanh(w0 @ np.sin(x0)), rtol=1e-14)


def test_checkpoint_of_tensor_methods_under_forward_ad_and_refusing_captured_tensors():
    """A dual Tensor in: the forward-mode rule runs the function on dual Tensors; a
    Tensor the function captures is still refused (its derivative would be lost)."""
    import funcgrad.forward_ad as fwAD
    with fwAD.dual_level():
        d = fwAD.make_dual(fg.tensor([0.5, 1.0], dtype=fg.float64),
                           fg.tensor([1.0, 2.0], dtype=fg.float64))
        tangent = fwAD.unpack_dual(fg.checkpoint(lambda v: v.sin())(d)).tangent
    np.testing.assert_allclose(tangent.numpy(), np.cos([0.5, 1.0]) * [1.0, 2.0], rtol=1e-14)
    x, w = fg.Tensor(np.ones(3), requires_grad=True), fg.Tensor(np.eye(3), requires_grad=True)
    with pytest.raises(TypeError, match="a Tensor it was not given as an argument"):
        fg.checkpoint(lambda v: (w @ v.sin()).sum())(x)


def test_custom_vjp_on_tensors_keeps_the_second_derivative_through_its_residuals():
    """Under create_graph=True the fwd's residuals are computed again from the Tensors,
    so the backward's dependence on them is recorded (as a PyTorch Function's is)."""
    @fg.custom_vjp
    def s(x):
        return np.sin(x)
    s.defvjp(lambda x: (np.sin(x), x), lambda r, g: (g * np.cos(r),))
    x = fg.tensor([0.3, 0.7], dtype=fg.float64, requires_grad=True)
    g, = fg.autograd.grad(s(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), np.cos([0.3, 0.7]), rtol=1e-15)
    h, = fg.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), -np.sin([0.3, 0.7]), rtol=1e-15)


def test_custom_jvp_on_tensors_keeps_the_second_derivative():
    """Under create_graph=True the JVP rule runs again on the Tensors, so the first
    derivative it gives depends on them on their graph.  Before, the tangent map traced
    from the values at the forward pass held cos(x) as a constant: the gradient came back
    without a grad_fn, and a loss adding it to other terms lost its second derivative
    silently."""
    @fg.custom_jvp
    def s(x):
        return np.sin(x)
    s.defjvp(lambda p, t: (s(p[0]), np.cos(p[0]) * t[0]))
    v = np.array([0.3, 0.7])
    x = fg.tensor(v, dtype=fg.float64, requires_grad=True)
    s(x).sum().backward(create_graph=True)
    g = x.grad
    assert g.grad_fn is not None
    np.testing.assert_allclose(g.detach().numpy(), np.cos(v), rtol=1e-15)
    x.grad = None
    (g.sum() + x.sum()).backward()  # d/dx [cos x + x] = 1 - sin x
    np.testing.assert_allclose(x.grad.numpy(), 1.0 - np.sin(v), rtol=1e-15)
    g1, = fg.autograd.grad(s(x).sum(), x, create_graph=True)
    g2, = fg.autograd.grad(g1.sum(), x, create_graph=True)
    g3, = fg.autograd.grad(g2.sum(), x)
    np.testing.assert_allclose(g3.numpy(), -np.cos(v), rtol=1e-15)


def test_custom_jvp_on_tensors_second_derivative_matches_finite_differences():
    """Two inputs, a Tensor cotangent that depends on them ((h**2)' = 2h h'), only some
    inputs requiring grad: gradgradcheck compares the recorded second derivative with
    central differences of the first."""
    @fg.custom_jvp
    def h(x, y):
        return np.exp(x) * y
    h.defjvp(lambda p, t: (h(*p), np.exp(p[0]) * (p[1] * t[0] + t[1])))
    x0, y0 = np.array([0.5, -0.3]), np.array([2.0, -1.0])
    x = fg.tensor(x0, dtype=fg.float64, requires_grad=True)
    y = fg.tensor(y0, dtype=fg.float64, requires_grad=True)
    assert fg.gradgradcheck(lambda a, b: h(a, b) ** 2, (x, y))
    y_fixed = fg.tensor(y0, dtype=fg.float64)
    gx, = fg.autograd.grad((h(x, y_fixed) ** 2).sum(), x, create_graph=True)
    hxx, = fg.autograd.grad(gx.sum(), x)  # d^2/dx^2 of exp(2x) y^2 = 4 exp(2x) y^2
    np.testing.assert_allclose(hxx.numpy(), 4 * np.exp(2 * x0) * y0 ** 2, rtol=1e-14)


def test_custom_jvp_on_tensors_second_derivative_matches_a_torch_function():
    """The same function as a torch.autograd.Function whose backward is written with
    differentiable operations: both second derivatives agree."""
    torch = pytest.importorskip("torch")

    @fg.custom_jvp
    def h(x, y):
        return np.exp(x) * y
    h.defjvp(lambda p, t: (h(*p), np.exp(p[0]) * (p[1] * t[0] + t[1])))

    class H(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return torch.exp(x) * y

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * torch.exp(x) * y, g * torch.exp(x)

    x0, y0 = np.array([0.5, -0.3]), np.array([2.0, -1.0])
    results = []
    for lib, fn in ((fg, h), (torch, H.apply)):
        x = lib.tensor(x0, dtype=lib.float64, requires_grad=True)
        y = lib.tensor(y0, dtype=lib.float64, requires_grad=True)
        gx, gy = lib.autograd.grad((fn(x, y) ** 2).sum(), (x, y), create_graph=True)
        results.append([t.numpy() for t in lib.autograd.grad((gx * gy).sum(), (x, y))])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-13)

"""A custom rule that reaches a differentiated value other than through its arguments:
every shape either differentiates right or raises CapturedTracerError naming where the
value is held and the rewrite; none drops the derivative silently.

The bug (session 19's Radau event times, reduced): an implicit-function-theorem rule --
a root found on concrete values, passed in as a constant, its derivative restored by a
``bwd`` that differentiates a residual closing over the parameter.  No argument of the
call was traced, so the call ran below ``grad``, ``bwd`` never ran, and the derivative
was 0 where it is 1/(2 sqrt k).  Each test of a refusal below gave a plain number (0, or a
Tensor's ``grad`` of None) before the check.
"""
import functools

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import lax
# (not a public name: the fg.EscapedTracerError subclass the guard raises)
from funcgrad.custom._guard import CapturedTracerError


def _concrete_sqrt(k):
    """A root of s**2 - k found on concrete values (the derivative left to the rule)."""
    return float(np.sqrt(np.asarray(fg.stop_gradient(k))))


@functools.partial(fg.custom_vjp, nondiff_argnums=(0,))
def implicit_root(residual, s, *params):
    """The root ``s`` of ``residual(s, *params) = 0``, differentiated in ``params`` by the
    implicit function theorem: ds = -(dr/dp) / (dr/ds)."""
    return fnp.asarray(s)


def _implicit_fwd(residual, s, *params):
    return fnp.asarray(s), (s, params)


def _implicit_bwd(residual, saved, cotangent):
    s, params = saved
    slope = fg.grad(lambda ss: residual(ss, *params))(s)
    _, pullback = fg.vjp(lambda *p: residual(s, *p), *params) if params else (None, None)
    return (0.0 * cotangent, *(-cotangent * c / slope
                               for c in (pullback(1.0) if params else ())))


implicit_root.defvjp(_implicit_fwd, _implicit_bwd)


def test_implicit_rule_over_a_captured_parameter_raises_and_the_named_rewrite_is_right():
    def sqrt_captured(k):
        return implicit_root(lambda s: s * s - k, _concrete_sqrt(k))

    with pytest.raises(CapturedTracerError, match=r"custom_vjp\(implicit_root\) holds a value "
                       r"traced by an enclosing grad.*nondiff argument 0 -> closure "
                       r"variable 'k'.*closure_convert"):
        fg.grad(sqrt_captured)(4.0)

    def sqrt_lifted(k):  # the rewrite the message names
        residual, consts = fg.closure_convert(lambda s: s * s - k, 2.0)
        return implicit_root(residual, _concrete_sqrt(k), *consts)

    assert float(fg.grad(sqrt_lifted)(4.0)) == pytest.approx(0.25, rel=1e-12)
    assert float(fg.grad(lambda k: implicit_root(lambda s, kk: s * s - kk,
                                                 _concrete_sqrt(k), k))(4.0)) == \
        pytest.approx(0.25, rel=1e-12)


class _Holder:
    def __init__(self, k):
        self.k = k

    def scaled(self, s):
        return s * self.k

    def __call__(self, s):
        return s * self.k


def _generator(k):
    while True:
        yield k


# Each makes a function of s that reaches k by another route; the path the error names.
VEHICLES = {
    "closure": (lambda k: (lambda s: s * k), r"closure variable 'k'"),
    "partial": (lambda k: functools.partial(lambda kk, s: s * kk, k), r"\.args\[0\]"),
    "bound method": (lambda k: _Holder(k).scaled, r"its object\.k"),
    "callable instance": (lambda k: _Holder(k), r"nondiff argument 0\.k"),
    "default argument": (lambda k: (lambda s, kk=k: s * kk), r"default argument 0"),
    "captured list": (lambda k: (lambda s, box=[k]: s * box[0]), r"default argument 0\[0\]"),
    "captured dict": (lambda k: (lambda s, box={"k": k}: s * box["k"]),
                      r"default argument 0\['k'\]"),
    "generator": (lambda k: (lambda s, it=_generator(k): s * next(it)), r"local 'k'"),
}


@functools.partial(fg.custom_vjp, nondiff_argnums=(0,))
def scaled_by_vjp(g, s):
    return s * 1.0


scaled_by_vjp.defvjp(lambda g, s: (s * 1.0, s), lambda g, s, ct: (ct * g(s),))


@functools.partial(fg.custom_jvp, nondiff_argnums=(0,))
def scaled_by_jvp(g, s):
    return s * 1.0


@scaled_by_jvp.defjvp
def _scaled_jvp(g, primals, tangents):
    return primals[0] * 1.0, tangents[0] * g(primals[0])


def _forward(f):
    return lambda k: fg.jvp(f, (k,), (1.0,))[1]


@pytest.mark.parametrize("vehicle", list(VEHICLES))
@pytest.mark.parametrize("custom, transform", [
    (scaled_by_vjp, fg.grad), (scaled_by_vjp, lambda f: fg.jit(fg.grad(f))),
    (scaled_by_jvp, fg.grad), (scaled_by_jvp, _forward),
    (scaled_by_jvp, lambda f: fg.jit(fg.grad(f)))])
def test_a_rule_reaching_the_differentiated_value_by_any_route_raises(vehicle, custom,
                                                                     transform):
    make, where = VEHICLES[vehicle]
    with pytest.raises(CapturedTracerError, match=where):
        transform(lambda k: custom(make(k), 2.0))(4.0)


def test_a_traced_value_as_a_nondiff_argument_raises():
    @functools.partial(fg.custom_vjp, nondiff_argnums=(0,))
    def scale(c, s):
        return s * 1.0

    scale.defvjp(lambda c, s: (s * 1.0, None), lambda c, r, ct: (ct * c,))
    with pytest.raises(CapturedTracerError, match=r"nondiff argument 0 holds it"):
        fg.grad(lambda k: scale(k, 2.0))(4.0)
    with pytest.raises(CapturedTracerError, match=r"nondiff argument 0\[1\]"):
        fg.grad(lambda k: scale([1.0, k], 2.0))(4.0)


def test_rules_defined_inside_the_differentiated_function_raise():
    def vjp_inside(k):
        @fg.custom_vjp
        def h(s):
            return s * 1.0
        h.defvjp(lambda s: (s * 1.0, None), lambda r, ct: (ct * k,))
        return h(2.0)

    def jvp_inside(k):
        @fg.custom_jvp
        def h(s):
            return s * 1.0
        h.defjvp(lambda p, t: (p[0] * 1.0, t[0] * k))
        return h(2.0)

    with pytest.raises(CapturedTracerError, match=r"the bwd rule -> closure variable 'k'"):
        fg.grad(vjp_inside)(4.0)
    for transform in (fg.grad, _forward, fg.jacrev, fg.jacfwd):
        with pytest.raises(CapturedTracerError, match=r"the JVP rule -> closure variable 'k'"):
            transform(jvp_inside)(4.0)


_GLOBAL = []


@fg.custom_vjp
def _reads_a_global(s):
    return s * 1.0


_reads_a_global.defvjp(lambda s: (s * 1.0, None), lambda r, ct: (ct * _GLOBAL[-1],))


class _ReadsAGlobal(fg.Function):
    @staticmethod
    def forward(ctx, s):
        return s * 1.0

    @staticmethod
    def backward(ctx, g):
        return g * _GLOBAL[-1]


def test_a_global_read_by_a_rule_raises():
    def through(custom):
        def f(k):
            _GLOBAL.append(k)
            return custom(fnp.asarray(2.0))
        return f

    try:
        with pytest.raises(CapturedTracerError, match=r"global '_GLOBAL'\[0\]"):
            fg.grad(through(_reads_a_global))(4.0)
        _GLOBAL.clear()
        with pytest.raises(CapturedTracerError, match=r"_ReadsAGlobal.apply holds .*"
                                                    r"_ReadsAGlobal.backward -> global"):
            fg.grad(through(_ReadsAGlobal.apply))(4.0)
    finally:
        _GLOBAL.clear()


def test_on_the_tape_a_captured_tensor_that_requires_grad_raises():
    k = fg.tensor(4.0, requires_grad=True)
    s = fg.tensor(2.0, requires_grad=True)
    for custom in (scaled_by_vjp, scaled_by_jvp):
        with pytest.raises(CapturedTracerError, match=r"holds a Tensor that requires grad"):
            custom(lambda q: q * k, s)
    # not tracked, or no grad wanted: taken as the value it holds
    detached = k.detach()
    assert float(scaled_by_vjp(lambda q: q * detached, s).detach()) == 2.0
    with fg.no_grad():
        assert float(scaled_by_vjp(lambda q: q * k, s)) == 2.0


def test_a_capture_under_other_transforms_or_a_derivative_below_is_not_refused():
    # vmap and jit take a captured value as they find it
    batched = fg.vmap(lambda k: fg.grad(lambda s: scaled_by_vjp(lambda q: q * k, s))(2.0))
    np.testing.assert_allclose(batched(np.array([1.0, 2.0])), [2.0, 4.0])
    np.testing.assert_allclose(
        fg.jit(lambda k: fg.grad(lambda s: scaled_by_jvp(lambda q: q * k, s))(2.0))(3.0), 6.0)

    # grad of grad: the outer grad sees the inner bwd run (d/dx = g(x) = 3k, then d/dk = 3)
    def inner_derivative(k):
        return fg.grad(lambda x: scaled_by_vjp(lambda s: s * k, x))(3.0)

    assert float(fg.grad(inner_derivative)(4.0)) == 3.0
    assert float(fg.grad(lambda k: fg.grad(
        lambda x: scaled_by_jvp(lambda s: s * k, x))(3.0))(4.0)) == 3.0
    # a stop_gradient'ed value held, as the message says, is no derivative asked
    def held_constant(k):
        constant = fg.stop_gradient(k)
        return scaled_by_vjp(lambda s: s * constant, 2.0) + k

    assert float(fg.grad(held_constant)(4.0)) == 1.0


@pytest.mark.parametrize("vehicle", list(VEHICLES))
def test_implicit_solvers_lift_what_f_reaches_by_any_route(vehicle):
    # custom_root and custom_linear_solve trace f / matvec and take what they capture as
    # inputs: the derivative reaches k however it is held
    make, _ = VEHICLES[vehicle]

    def newton(f, x):
        for _ in range(40):
            x = x - f(x) / fg.grad(f)(x)
        return x

    def root(k):  # s**2 - k = 0
        g = make(k)
        return lax.custom_root(lambda s: s * s - g(1.0), 1.0, newton,
                               lambda lin, y: y / lin(1.0))

    def solution(a):  # a x = 3
        return lax.custom_linear_solve(make(a), 3.0, lambda mv, r: r / mv(1.0),
                                       symmetric=True)

    for transform in (fg.grad, _forward, lambda f: fg.jit(fg.grad(f))):
        assert float(transform(root)(4.0)) == pytest.approx(0.25, rel=1e-10)
        assert float(transform(solution)(2.0)) == pytest.approx(-0.75, rel=1e-12)


def test_closure_convert_refuses_a_call_at_another_shape_than_it_traced():
    """The converted function is a graph of the traced shapes: called with three points
    where it traced one, its reshapes would answer wrongly; it raises and says how to
    convert again (it once returned shape (1,) silently)."""
    def outer(w):
        f, consts = fg.closure_convert(lambda x: fnp.sum(w * x, keepdims=True) + x, np.zeros(1))
        assert f(np.ones(1), *consts).shape == (1,)
        with pytest.raises(TypeError, match=r"shape \(1,\).*shape \(3,\).*convert it again"):
            f(np.ones(3), *consts)
        return f(np.full(1, 2.0), *consts)[0]
    assert float(fg.grad(outer)(3.0)) == 2.0

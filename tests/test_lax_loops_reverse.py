"""Reverse mode through ``fg.lax`` loops: integer and boolean carries take no cotangent,
and the derivative of a ``while_loop`` equals that of the same loop written in Python
(which ``grad`` runs on concrete values) and finite differences."""
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

import funcgrad as fg
from funcgrad import lax


def _flagged_power(k):
    # three steps of x *= k, and a boolean carry raised once x passed 100
    def body(s):
        return s[0] + 1.0, s[1] * k, s[1] > 100.0
    _, x, flag = lax.while_loop(lambda s: s[0] < 3.0, body,
                                (np.asarray(0.0), np.asarray(1.0) * k, np.asarray(False)))
    return np.where(flag, 0.0, x)


def test_a_boolean_carry_of_while_loop_can_be_a_where_condition_under_grad():
    # The loop's boolean output was recorded as a differentiable value, so where asked for
    # its condition's cotangent and the backward pass failed ('NoneType' not callable).
    np.testing.assert_allclose(fg.grad(_flagged_power)(2.0), 4 * 2.0 ** 3, rtol=1e-14)
    np.testing.assert_allclose(fg.grad(_flagged_power)(5.0), 0.0)  # 5^3 > 100: flag set
    np.testing.assert_allclose(fg.grad(fg.grad(_flagged_power))(2.0), 12 * 2.0 ** 2,
                               rtol=1e-14)
    np.testing.assert_allclose(fg.vmap(fg.grad(_flagged_power))(np.array([2.0, 3.0])),
                               [32.0, 108.0], rtol=1e-14)


CONTROL_FLOW_WITH_FLAGS = {
    "scan": lambda k: np.where(lax.scan(lambda c, _: ((c[0] * k, c[0] > 3.0), None),
                                        (k, np.asarray(False)), length=3)[0][1], k * k, k),
    "cond": lambda k: np.where(lax.cond(k > 1.0, lambda u: (u, u > 1.5), lambda u: (u, u > 3.0),
                                        k)[1], k * k, k),
    "fori_loop": lambda k: np.where(lax.fori_loop(0, 2, lambda i, c: (c[0] * k, c[0] < 1.0),
                                                  (k, np.asarray(True)))[1], k * k, k),
    "while_loop(int)": lambda k: k * np.arange(10.0)[lax.while_loop(
        lambda c: c[1] < 3, lambda c: (c[0] * k, c[1] + 1), (k, 0))[1]],
}
# (at k = 2: scan's flag is set (2 > 3 no, 4 > 3 yes), cond's too, fori_loop's is not)
FLAG_GRADS = {"scan": 4.0, "cond": 4.0, "fori_loop": 1.0, "while_loop(int)": 3.0}


@pytest.mark.parametrize("name", list(CONTROL_FLOW_WITH_FLAGS))
def test_integer_and_boolean_outputs_of_control_flow_take_no_cotangent(name):
    f = CONTROL_FLOW_WITH_FLAGS[name]
    np.testing.assert_allclose(fg.grad(f)(2.0), FLAG_GRADS[name], rtol=1e-14)
    np.testing.assert_allclose(fg.jvp(f, (2.0,), (1.0,))[1], FLAG_GRADS[name], rtol=1e-14)


# --- while_loop's derivative against Python's while and finite differences -----------------

def _python_while(cond, body, val):
    while bool(cond(val)):
        val = body(val)
    return val


def _random_loop(spec, while_impl):
    """``f(k)``: a loop drawn by ``spec``, with ``while_impl`` as its while_loop.  The carry
    mixes dtypes (an int counter, a boolean flag, float64 and float32 values); the
    predicate may read the differentiated values (an early exit), and the body may hold a
    loop of its own."""
    n, exit_at, inner, a, b = spec

    def f(k):
        def cond(c):
            go = c[0] < n
            if exit_at is not None:  # stops early once the state has grown past exit_at * k
                go = np.logical_and(go, np.sum(c[1] * c[1]) < exit_at * k)
            return go

        def body(c):
            i, x, s, flag = c
            x = x * np.cos(a * k) + b * np.sin(x) * k
            if inner:  # a nested loop whose own count depends on the outer counter
                x = while_impl(lambda d: d[0] < i % 3 + 1,
                               lambda d: (d[0] + 1, d[1] + 0.1 * k * np.tanh(d[1])), (0, x))[1]
            s = s + np.sum(x).astype(np.float32) * np.float32(0.5)
            return i + 1, x, s, np.logical_or(flag, np.sum(x) > 1.0)

        x0 = np.array([0.3, -0.2, 0.5]) * k
        _, x, s, flag = while_impl(cond, body, (0, x0, np.float32(0.25), np.asarray(False)))
        return np.sum(np.where(flag, 2.0 * x, x)) + 1e-3 * s.astype(np.float64)
    return f


def _steps(spec, k):
    """How many steps each loop of ``spec`` takes at ``k``, in the order they end."""
    counted = []

    def counting(cond, body, val):
        out, m = val, 0
        while bool(cond(out)):
            out, m = body(out), m + 1
        counted.append(m)
        return out
    _random_loop(spec, counting)(k)
    return counted


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([0, 1, 2, 7]), st.sampled_from([None, 0.5, 2.0]), st.booleans(),
       st.floats(0.1, 1.5), st.floats(-0.8, 0.8), st.floats(0.6, 1.6))
def test_while_loop_gradient_equals_python_while_and_finite_differences(n, exit_at, inner,
                                                                         a, b, k):
    spec = (n, exit_at, inner, a, b)
    looped, unrolled = _random_loop(spec, lax.while_loop), _random_loop(spec, _python_while)
    np.testing.assert_allclose(looped(k), unrolled(k), rtol=1e-12)
    g = fg.grad(looped)(k)
    np.testing.assert_allclose(g, fg.grad(unrolled)(k), rtol=1e-10, atol=1e-12)
    # (jvp sums the float32 carry in another order: its rounding, 1e-3 times 1e-7)
    np.testing.assert_allclose(fg.jvp(looped, (k,), (1.0,))[1], g, rtol=1e-9, atol=1e-9)
    eps = 1e-4  # (the float32 carry's rounding, 1e-3 times 1e-6, over 2 eps: below 1e-5)
    # (finite differences see the derivative only where no step count changes within eps)
    assume(_steps(spec, k - eps) == _steps(spec, k + eps) == _steps(spec, k))
    fd = (unrolled(k + eps) - unrolled(k - eps)) / (2 * eps)
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=2e-5)


def _nested(k):
    # the inner loop runs 1, 2, 3, 1 times: its count changes from one outer step to the next
    def body(c):
        i, x = c
        inner = lax.while_loop(lambda d: d[0] < i % 3 + 1,
                               lambda d: (d[0] + 1, d[1] * k + 0.1 * np.sin(d[1])), (0, x))
        return i + 1, inner[1]
    return lax.while_loop(lambda c: c[0] < 4, body, (0, k))[1]


def _nested_python(k):
    x = k
    for i in range(4):
        for _ in range(i % 3 + 1):
            x = x * k + 0.1 * np.sin(x)
    return x


def test_a_while_loop_inside_a_while_loop_differentiates_to_any_order():
    # reverse mode traced one backward body for the outer loop, where the inner loop's
    # step count is not known: ConcretizationError "...being traced (inside jit...)"
    ks = np.array([0.9, 1.1])
    for transform in (fg.grad, lambda f: fg.grad(fg.grad(f)), lambda f: fg.jacfwd(fg.grad(f))):
        np.testing.assert_allclose([transform(_nested)(k) for k in ks],
                                   [transform(_nested_python)(k) for k in ks], rtol=1e-12)
    np.testing.assert_allclose(fg.vmap(fg.grad(_nested))(ks),
                               [fg.grad(_nested_python)(k) for k in ks], rtol=1e-12)
    # the eager Tensor too (its loop's node runs the same step-by-step backward)
    t = fg.Tensor(np.array(0.9), requires_grad=True)
    _nested(t).backward()
    np.testing.assert_allclose(t.grad.numpy(), fg.grad(_nested_python)(0.9), rtol=1e-12)

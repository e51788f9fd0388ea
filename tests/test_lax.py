"""``fg.lax``: cond, switch, fori_loop, while_loop and scan equal the Python control flow
they replace — values and derivatives, eagerly, under ``jit``, ``grad``, ``jvp``, ``vmap``
and their compositions — and say clearly what is wrong when they are misused."""


import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import funcgrad as fg
from funcgrad import lax, tree


pytestmark = pytest.mark.usefixtures("fresh_jit_cache")


def assert_tree_close(got, want, rtol=1e-12, what=""):
    got_leaves, want_leaves = tree.leaves(got), tree.leaves(want)
    assert len(got_leaves) == len(want_leaves), what
    for g, w in zip(got_leaves, want_leaves):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (what, g.shape, w.shape, g.dtype,
                                                           w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol, err_msg=what)


X = np.array([0.3, -0.2, 0.5])
XS = np.array([[0.3, 0.2, 0.1], [-0.3, -0.1, 0.2], [0.05, -0.4, 0.1]])


def jvp_of(f):
    return lambda x: fg.jvp(f, (x,), (np.ones_like(x),))


# Each transform of a function, and the same transform of its Python-control-flow twin.
TRANSFORMS = {
    "value": lambda f: f,
    "jit": fg.jit,
    "grad": lambda f: fg.grad(lambda x: np.sum(np.sin(f(x)))),
    "jit(grad)": lambda f: fg.jit(fg.grad(lambda x: np.sum(np.sin(f(x))))),
    "grad(jit)": lambda f: fg.grad(fg.jit(lambda x: np.sum(np.sin(f(x))))),
    "jvp": lambda f: jvp_of(lambda x: np.sum(np.sin(f(x)))),
    "hessian": lambda f: fg.hessian(lambda x: np.sum(np.sin(f(x)))),
}


def stacked(f):
    return lambda xs: np.stack([f(x) for x in xs])


# --- cond and switch ---------------------------------------------------------------------------

def cond_f(x):
    return lax.cond(np.sum(x) > 0, lambda y: np.sin(y) * y, lambda y: np.cos(y) - y, x)


def cond_py(x):
    return np.sin(x) * x if np.sum(x) > 0 else np.cos(x) - x


# The transform of the Python twin that the transform of the lax version must equal.
EAGER = {"value": "value", "jit": "value", "grad": "grad", "jit(grad)": "grad",
         "grad(jit)": "grad", "jvp": "jvp", "hessian": "hessian"}


@pytest.mark.parametrize("transform", list(TRANSFORMS))
def test_cond_matches_python_if(transform):
    eager = TRANSFORMS[EAGER[transform]](cond_py)
    for x in (X, -X):
        assert_tree_close(TRANSFORMS[transform](cond_f)(x), eager(x), what=f"{transform} {x}")


def test_vmap_of_cond_with_batched_and_unbatched_predicates():
    assert_tree_close(fg.vmap(cond_f)(XS), stacked(cond_py)(XS))  # each row its own branch
    assert_tree_close(fg.jit(fg.vmap(cond_f))(XS), stacked(cond_py)(XS))
    same = fg.vmap(lambda x: lax.cond(True, np.sin, np.cos, x))(XS)
    assert_tree_close(same, np.sin(XS))
    g = fg.vmap(fg.grad(lambda x: np.sum(cond_f(x) ** 2)))(XS)
    assert_tree_close(g, stacked(fg.grad(lambda x: np.sum(cond_py(x) ** 2)))(XS))


def test_switch_clamps_its_index():
    branches = [lambda x: x + 1.0, lambda x: x * 2.0, lambda x: -x]
    f = fg.jit(lambda i, x: lax.switch(i, branches, x))
    for i, want in [(-5, X + 1.0), (0, X + 1.0), (1, X * 2.0), (2, -X), (9, -X)]:
        assert_tree_close(f(i, X), want)


def test_cond_predicate_is_true_when_nonzero():
    # A number is true when nonzero (Python's and JAX's rule), not clamped as an index:
    # -5 and 2**32 (0 as int32) took the false branch before.
    f = lambda p, x: lax.cond(p, lambda y: y * 2.0, lambda y: -y, x)  # noqa: E731
    for p in (-5, np.int64(2 ** 32), 0.5, np.float32(-1e-3)):
        assert_tree_close(f(p, X), X * 2.0, what=repr(p))
        assert_tree_close(fg.jit(f)(p, X), X * 2.0, what=f"jit {p!r}")
    for p in (0, 0.0, np.int64(0)):
        assert_tree_close(fg.jit(f)(p, X), -X, what=f"jit {p!r}")
    preds = np.array([-5, 0, 2 ** 32, 1])
    want = np.stack([X * 2.0, -X, X * 2.0, X * 2.0])
    assert_tree_close(fg.vmap(f, in_axes=(0, None))(preds, X), want)
    assert_tree_close(fg.jit(fg.vmap(f, in_axes=(0, None)))(preds, X), want)
    assert fg.grad(lambda x: lax.cond(x, lambda y: y * y, lambda y: -y, x))(-3.0) == -6.0


def test_cond_gradient_flows_to_closed_over_values():
    # a is closed over by the branch: its gradient passes through cond.
    f = lambda a: lax.cond(a > 0, lambda x: x * a * a, lambda x: x, 2.0)  # noqa: E731
    assert fg.grad(f)(3.0) == 12.0
    assert fg.jit(fg.grad(f))(3.0) == 12.0
    assert fg.grad(f)(-3.0) == 0.0


def test_cond_takes_one_operand_as_jax_operand_keyword():
    # JAX's cond(pred, t, f, operand=x): the same as passing x positionally
    assert lax.cond(True, lambda x: x * 3.0, lambda x: -x, operand=2.0) == 6.0
    assert lax.cond(False, lambda p: p[0] * p[1], lambda p: p[0] + p[1], operand=(2.0, 5.0)) == 7.0
    assert fg.grad(lambda x: lax.cond(x > 0, lambda y: y * y, lambda y: -y, operand=x))(3.0) == 6.0
    with pytest.raises(TypeError, match="either positionally or as the one operand= keyword"):
        lax.cond(True, lambda x, y: x, lambda x, y: y, 1.0, operand=2.0)


def test_cond_branch_mismatch_is_a_clear_error():
    with pytest.raises(TypeError, match="true_fun returns f64\\[3\\] for output 0 but "
                                        "false_fun returns f64\\[2\\]"):
        lax.cond(True, lambda x: x, lambda x: x[:2], X)
    with pytest.raises(TypeError, match="must be a scalar"):
        lax.cond(X > 0, lambda x: x, lambda x: -x, X)


# --- fori_loop and scan -------------------------------------------------------------------------

def fori_f(x):
    return lax.fori_loop(0, 5, lambda i, v: np.sin(v) * 0.5 + v * 0.9 + i * 0.01, x)


def fori_py(x):
    for i in range(5):
        x = np.sin(x) * 0.5 + x * 0.9 + i * 0.01
    return x


@pytest.mark.parametrize("transform", list(TRANSFORMS))
def test_fori_loop_matches_python_loop(transform):
    eager = TRANSFORMS[EAGER[transform]](fori_py)
    assert_tree_close(TRANSFORMS[transform](fori_f)(X), eager(X), what=transform)


def test_vmap_of_fori_loop_and_of_its_gradient():
    assert_tree_close(fg.vmap(fori_f)(XS), stacked(fori_py)(XS))
    g = fg.vmap(fg.grad(lambda x: np.sum(fori_f(x))))
    assert_tree_close(g(XS), stacked(fg.grad(lambda x: np.sum(fori_py(x))))(XS))


def test_fori_loop_with_traced_bounds_is_a_while_loop():
    f = fg.jit(lambda x, n: lax.fori_loop(0, n, lambda i, v: v * 1.5 + 0.1, x))
    for n in (0, 1, 4):
        want = X
        for _ in range(n):
            want = want * 1.5 + 0.1
        assert_tree_close(f(X, n), want)


def test_fori_loop_takes_jax_unroll_keyword():
    # JAX's fori_loop(..., unroll=k): a hint that changes no result (x -> 2x + i, five times)
    for unroll in (None, 2, True):
        out = lax.fori_loop(0, 5, lambda i, c: c * 2 + i, 1.0, unroll=unroll)
        assert out == 32.0 + 26.0
    assert fg.grad(lambda x: lax.fori_loop(0, 3, lambda i, c: c * x, 1.0, unroll=2))(2.0) == 12.0
    with pytest.raises(ValueError, match="unroll=2 needs loop bounds known"):
        fg.jit(lambda x, n: lax.fori_loop(0, n, lambda i, c: c * 2, x, unroll=2))(1.0, 3)


@settings(max_examples=10)
@given(n=st.integers(0, 6), a=st.floats(-2, 2), b=st.floats(-2, 2))
def test_fori_loop_and_its_gradient_on_drawn_trip_counts(n, a, b):
    def body(i, v):
        return v * np.cos(v) * 0.8 + b * i * 0.1

    def f(x):
        return lax.fori_loop(0, n, body, x)

    def py(x):
        for i in range(n):
            x = body(i, x)
        return x

    assert_tree_close(f(a), py(np.float64(a)))
    assert_tree_close(fg.grad(f)(a), fg.grad(py)(a))


def scan_f(xs):
    return lax.scan(lambda c, x: (c * 0.9 + np.sin(x) * c, c * x + 1.0), np.ones(2), xs)


def scan_py(xs):
    c, ys = np.ones(2), []
    for x in xs:
        ys.append(c * x + 1.0)
        c = c * 0.9 + np.sin(x) * c
    return c, np.stack(ys)


def test_scan_matches_python_loop_with_gradients_and_jit():
    xs = np.linspace(-1, 1, 10).reshape(5, 2)
    assert_tree_close(scan_f(xs), scan_py(xs))
    assert_tree_close(fg.jit(scan_f)(xs), scan_py(xs))

    def loss(f):
        return lambda xs: np.sum(f(xs)[0]) + np.sum(f(xs)[1] ** 2)

    assert_tree_close(fg.grad(loss(scan_f))(xs), fg.grad(loss(scan_py))(xs))
    assert_tree_close(fg.jit(fg.grad(loss(scan_f)))(xs), fg.grad(loss(scan_py))(xs))
    assert_tree_close(fg.jvp(loss(scan_f), (xs,), (np.ones_like(xs),)),
                      fg.jvp(loss(scan_py), (xs,), (np.ones_like(xs),)))


def test_scan_in_reverse():
    total, partial = lax.scan(lambda c, x: (c + x, c + x), 0.0, np.arange(4.0), reverse=True)
    assert float(total) == 6.0
    np.testing.assert_array_equal(partial, [6.0, 6.0, 5.0, 3.0])


def test_scan_accepts_jaxs_unroll_hint():
    step = lambda c, x: (c * 0.5 + x, c * x)  # noqa: E731
    want = lax.scan(step, 1.0, np.arange(5.0))
    for unroll in (2, True, 8):
        got = lax.scan(step, 1.0, np.arange(5.0), unroll=unroll)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
    with pytest.raises(ValueError, match="unroll"):
        lax.scan(step, 1.0, np.arange(5.0), unroll=-1)


def test_carry_that_changes_dtype_is_a_clear_error():
    with pytest.raises(TypeError, match="carry leaf 0"):
        lax.fori_loop(0, 3, lambda i, v: v.astype(np.float32), X)


def test_a_python_number_carry_takes_the_dtype_the_body_gives_it():
    # JAX's weakly typed carries: an initial 0 that the body turns into a float is a float
    # carry (the usual `acc = 0` accumulator); a NumPy integer stays an error
    xs = np.arange(1.0, 5.0)
    total, partial = lax.scan(lambda c, x: (c + x, c), 0, xs)
    assert total == 10.0 and total.dtype == np.float64
    np.testing.assert_array_equal(partial, [0.0, 1.0, 3.0, 6.0])
    assert lax.while_loop(lambda c: c < 5, lambda c: c + 1.5, 0) == 6.0
    assert lax.fori_loop(0, 3, lambda i, c: (c[0] + 1, c[1] * 1.5), (0, 1)) == (3, 3.375)
    assert fg.jit(lambda n: lax.fori_loop(0, n, lambda i, c: c + 0.5, 0))(4) == 2.0
    assert lax.scan(lambda c, x: (c * 1j + x, None), 0, xs)[0] == ((1j + 2) * 1j + 3) * 1j + 4
    g = fg.grad(lambda v: lax.scan(lambda c, x: (c + x * x, None), 0, v)[0])(xs)
    np.testing.assert_array_equal(g, 2 * xs)
    with pytest.raises(TypeError, match="carry leaf 0"):
        lax.scan(lambda c, x: (c + x, None), np.int64(0), xs)


def test_complex_values_carry_derivatives_through_control_flow_and_jit():
    # Complex operands were treated as non-differentiable (like ints) by the derived rules
    # of scan, cond, while_loop and jit: every derivative through them was silently 0.
    z = np.array([0.3 + 0.4j, -1.2 + 0.1j])
    cases = {  # f, its holomorphic derivative (elementwise), and the Python twin
        "scan": (lambda z: lax.scan(lambda c, _: (c * (1 + 1j), c ** 2), z, None,
                                    length=2)[1].sum(0),
                 lambda z: 2 * z + 2 * (1 + 1j) ** 2 * z),
        "fori": (lambda z: lax.fori_loop(0, 3, lambda i, c: c * c, z), lambda z: 8 * z ** 7),
        "cond": (lambda z: lax.cond(True, lambda c: c ** 3, lambda c: c, z),
                 lambda z: 3 * z ** 2),
        "while": (lambda z: lax.while_loop(lambda c: np.abs(c[0]) < 2, lambda c: c * 2j, z),
                  lambda z: (2j) ** 2 + 0 * z),  # two steps at z
        "jit": (fg.jit(lambda z: z ** 2 * np.sin(z)),
                lambda z: 2 * z * np.sin(z) + z ** 2 * np.cos(z)),
    }
    t = np.array([1.0 - 0.5j, 0.25j])
    for name, (f, df) in cases.items():
        _, tangent = fg.jvp(f, (z,), (t,))
        assert_tree_close(tangent, df(z) * t, what=f"jvp {name}")
        g = fg.grad(lambda z: np.sum(f(z)), holomorphic=True)(z)
        assert_tree_close(g, df(z), what=f"holomorphic grad {name}")
        # a real loss, JAX's convention: dL/dx - i dL/dy, which is 2 f' conj(f) for |f|^2
        g = fg.grad(lambda z: np.sum(np.abs(f(z)) ** 2))(z)
        assert_tree_close(g, 2 * df(z) * np.conj(f(z)), what=f"real-loss grad {name}")
    # a real input through a complex loop
    f = lambda x: np.real(lax.scan(lambda c, _: (c * 1j, c ** 2), x + 0j, None,  # noqa: E731
                                   length=2)[1].sum())
    assert_tree_close(fg.grad(f)(np.array([0.3, -1.2])), np.array([0.0, 0.0]))
    f = lambda x: np.real(lax.scan(lambda c, _: (c * (1 + 1j), c ** 3), x + 0j,  # noqa: E731
                                   None, length=2)[1].sum())
    x = np.array([0.3, -1.2])  # sum = x^3 + Re((1+i)^3) x^3 = x^3 - 2 x^3
    assert_tree_close(fg.grad(f)(x), -3 * x ** 2)


# --- while_loop -----------------------------------------------------------------------------

def while_f(x):
    return lax.while_loop(lambda v: np.sum(v) < 10.0, lambda v: v * 1.5 + 0.1, x)


def while_py(x):
    while np.sum(x) < 10.0:
        x = x * 1.5 + 0.1
    return x


@pytest.mark.parametrize("transform", ["value", "jit", "grad", "grad(jit)", "jvp", "hessian"])
def test_while_loop_matches_python_while(transform):
    eager = TRANSFORMS[EAGER[transform]](while_py)
    assert_tree_close(TRANSFORMS[transform](while_f)(X), eager(X), what=transform)


def test_vmap_of_while_loop_runs_each_example_its_own_number_of_steps():
    xs = np.array([[0.3, 0.2, 0.1], [3.0, 2.0, 4.5], [-0.5, 0.1, 0.2]])
    assert_tree_close(fg.vmap(while_f)(xs), stacked(while_py)(xs))
    assert_tree_close(fg.jit(fg.vmap(while_f))(xs), stacked(while_py)(xs))


def test_while_loop_integer_condition_is_true_when_nonzero_under_vmap():
    # cond_fun returning an int (-4, -2, 0 here): under vmap the any-lane test and the
    # frozen-lane mask read it as a number, so every lane stopped at once before.
    def f(n, x):
        return lax.while_loop(lambda c: c[0] - 5, lambda c: (c[0] + 2, c[1] * 2.0), (n, x))
    ns, want = np.array([1, 3, 5]), np.array([4.0, 2.0, 1.0])
    for g in (fg.vmap(f), fg.jit(fg.vmap(f))):
        n, x = g(ns, np.ones(3))
        assert_tree_close((n, x), (np.array([5, 5, 5]), want))
    assert_tree_close(f(1, 1.0), (np.array(5), np.array(4.0)))


def test_reverse_mode_of_while_loop_inside_jit_says_what_to_use():
    with pytest.raises(fg.ConcretizationError, match="fori_loop with Python-int bounds"):
        fg.jit(fg.grad(lambda x: np.sum(while_f(x))))(X)
    # under vmap, a batched condition is named as the cause
    with pytest.raises(fg.ConcretizationError, match="batched by vmap"):
        fg.vmap(fg.grad(lambda x: np.sum(while_f(x))))(XS)
    # an unbatched condition (a step counter) runs per example
    f = lambda w: np.sum(lax.while_loop(lambda c: c[0] < 3,  # noqa: E731
                                        lambda c: (c[0] + 1, c[1] * w), (0, w))[1])
    assert_tree_close(fg.vmap(fg.grad(f))(XS), 4 * XS ** 3)


def test_nested_control_flow_under_jit_of_grad():
    def f(x):
        def body(i, v):
            return lax.cond(i % 2 == 0, lambda u: np.sin(u), lambda u: u * 1.1, v)
        return np.sum(lax.fori_loop(0, 4, body, x))

    def py(x):
        for i in range(4):
            x = np.sin(x) if i % 2 == 0 else x * 1.1
        return np.sum(x)

    assert_tree_close(fg.jit(fg.grad(f))(X), fg.grad(py)(X))
    text = fg.jit(fg.grad(f)).lower(X).as_text()
    assert "driver" not in text and "for k" in text and "if k" in text  # loops in the kernel



# The eager Tensor through the control-flow functions: each records on the Tensor's graph
# (closed-form gradient of sum(w * out)), never hands back a plain array that dropped the
# derivative (cond, switch, map, associative_scan did) or refuses the carry's structure
# (the loops, reduce and the implicit solvers did).
T0 = np.array([0.3, 0.5, 0.7, 1.1])
W = np.array([1.0, 2.0, 3.0, 4.0])
TENSOR_CONTROL_FLOW = {
    "cond": (lambda t: lax.cond(True, np.sin, np.square, t), W * np.cos(T0)),
    "cond(false)": (lambda t: lax.cond(False, np.sin, np.square, t), W * 2 * T0),
    "switch": (lambda t: lax.switch(1, [np.sin, np.exp], t), W * np.exp(T0)),
    "fori_loop": (lambda t: lax.fori_loop(0, 2, lambda i, u: u * u, t), W * 4 * T0 ** 3),
    "while_loop": (lambda t: lax.while_loop(lambda c: c[0] < 2,
                                            lambda c: (c[0] + 1, c[1] * c[1]), (0, t))[1],
                   W * 4 * T0 ** 3),
    "scan(init)": (lambda t: lax.scan(lambda c, x: (c * x, c), t, np.array([2.0, 3.0]))[0],
                   W * 6.0),
    "scan(xs)": (lambda t: lax.scan(lambda c, x: (c, c * x * x), 2.0, t)[1], W * 4 * T0),
    "map": (lambda t: lax.map(np.exp, t), W * np.exp(T0)),
    "associative_scan": (lambda t: lax.associative_scan(np.add, t), W[::-1].cumsum()[::-1]),
    "reduce": (lambda t: lax.reduce(t, 1.0, lambda a, b: a * b, (0,)) * W,
               np.sum(W * W) * np.prod(T0) / T0),
    "reduce_window": (lambda t: lax.reduce_window(t, 0.0, lambda a, b: a + b, (2,), (1,),
                                                  "VALID"),
                      np.array([1.0, 3.0, 5.0, 3.0])),
    "custom_linear_solve": (lambda t: lax.custom_linear_solve(
        lambda x: 2.0 * x, t, lambda mv, b: b / 2.0, symmetric=True), W / 2),
}


@pytest.mark.parametrize("name", list(TENSOR_CONTROL_FLOW))
def test_control_flow_records_on_the_eager_tensor(name):
    fun, want = TENSOR_CONTROL_FLOW[name]
    t = fg.Tensor(T0.copy(), requires_grad=True)
    out = fun(t)
    assert isinstance(out, fg.Tensor) and out.requires_grad, type(out)
    np.sum(out * W[:out.shape[0]]).backward()
    np.testing.assert_allclose(t.grad.detach().numpy(), want, rtol=1e-12)


@pytest.mark.parametrize("name", ["scan", "fori_loop", "cond"])
def test_a_jitted_control_flow_body_closing_over_a_tensor_records_on_its_graph(name):
    """The Tensor a body closes over is an operand of the loop, so under jit it reaches
    the compiled call as an input (compiling failed: NumPy cannot read a Tensor that
    requires grad, and the eager fallback warned "report this")."""
    w = fg.Tensor(T0.copy(), requires_grad=True)
    fun = {"scan": lambda x: lax.scan(lambda c, _: (c * w, None), x, None, length=3)[0],
           "fori_loop": lambda x: lax.fori_loop(0, 3, lambda i, c: c * w, x),
           "cond": lambda x: lax.cond(True, lambda v: v * w ** 3, np.sin, x)}[name]
    out = fg.jit(lambda x: np.sum(fun(x) * W), wait=True)(np.ones(4))
    out.backward()  # d/dw sum(W w^3)
    np.testing.assert_allclose(w.grad.numpy(), 3 * W * T0 ** 2, rtol=1e-13)


@pytest.mark.parametrize("loop", ["scan", "fori_loop"])
def test_double_backward_through_a_loop_whose_carry_is_a_tensor(loop):
    # sum(t ** 4 + t ** 3): the loop squares twice.  Its backward pass read the forward's
    # trajectory as plain arrays, so under create_graph its gradient had no graph and the
    # second derivative lost the loop's 12 t^2 silently (only the 6 t of t ** 3 was left).
    def fourth(t):
        if loop == "scan":
            return lax.scan(lambda c, _: (c * c, None), t, None, length=2)[0]
        return lax.fori_loop(0, 2, lambda i, c: c * c, t)
    t = fg.Tensor(T0.copy(), requires_grad=True)
    (g,) = fg.autograd.grad(np.sum(fourth(t) + t ** 3), t, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), 4 * T0 ** 3 + 3 * T0 ** 2, rtol=1e-12)
    (h,) = fg.autograd.grad(np.sum(g * W), t)
    np.testing.assert_allclose(h.detach().numpy(), W * (12 * T0 ** 2 + 6 * T0), rtol=1e-12)

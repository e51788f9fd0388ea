"""Behaviour of the transforms: grad, value_and_grad, vjp, jvp, linearize, vmap, the
Jacobian/Hessian family, their compositions, perturbation confusion, escaped tracers,
control flow, dtypes of results, stop_gradient and make_graph.

Every reference value comes from central finite differences, closed forms, or plain NumPy
loops; never from funcgrad itself.
"""
import collections
import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

RNG = np.random.default_rng(1234)


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


def fd_grad(f, x, eps=1e-6):
    return fd_jacobian(f, x, eps)


def close(actual, expected, rtol=1e-6, atol=1e-8):
    np.testing.assert_allclose(np.asarray(actual, dtype=np.float64),
                               np.asarray(expected, dtype=np.float64), rtol=rtol, atol=atol)


# A scalar test function with a closed-form gradient and Hessian.
def cubic(x):
    return np.sum(x ** 3) * x[0] + np.sum(np.sin(x))


def cubic_grad(x):
    g = 3 * x ** 2 * x[0] + np.cos(x)
    g[0] += np.sum(x ** 3)
    return g


def cubic_hessian(x):
    h = np.diag(6 * x * x[0] - np.sin(x))
    h[:, 0] += 3 * x ** 2
    h[0, :] += 3 * x ** 2
    return h


X3 = np.array([0.7, -1.3, 0.4])


def test_closed_forms_used_as_references_match_finite_differences():
    close(cubic_grad(X3), fd_grad(cubic, X3), rtol=1e-6)
    close(cubic_hessian(X3), fd_jacobian(cubic_grad, X3), rtol=1e-6)


# --- grad and value_and_grad --------------------------------------------------------------------

def test_grad_of_scalar_function_matches_closed_form():
    assert fg.grad(np.sin)(0.3) == pytest.approx(math.cos(0.3), rel=1e-14)
    assert fg.grad(lambda x: x ** 3 - 2 * x)(2.0) == pytest.approx(10.0)


SCALAR_DERIVATIVES = {
    "sin": (np.sin, math.cos), "cos": (np.cos, lambda x: -math.sin(x)),
    "tan": (np.tan, lambda x: 1 / math.cos(x) ** 2), "exp": (np.exp, math.exp),
    "log": (np.log, lambda x: 1 / x), "sqrt": (np.sqrt, lambda x: 0.5 / math.sqrt(x)),
    "tanh": (np.tanh, lambda x: 1 - math.tanh(x) ** 2), "abs": (np.abs, lambda x: 1.0),
    "log1p": (np.log1p, lambda x: 1 / (1 + x)), "arctan": (np.arctan, lambda x: 1 / (1 + x * x)),
}


@pytest.mark.parametrize("name", sorted(SCALAR_DERIVATIVES))
@pytest.mark.parametrize("kind", ["python-float", "numpy-0d", "numpy-float64"])
def test_grad_of_unary_function_at_a_scalar(name, kind):
    f, df = SCALAR_DERIVATIVES[name]
    x = {"python-float": 0.3, "numpy-0d": np.array(0.3), "numpy-float64": np.float64(0.3)}[kind]
    g = fg.grad(f)(x)
    assert np.ndim(g) == 0
    assert float(g) == pytest.approx(df(0.3), rel=1e-12)


def test_grad_of_array_function_matches_finite_differences():
    close(fg.grad(cubic)(X3), fd_grad(cubic, X3))


def test_value_and_grad_returns_value_and_gradient():
    value, g = fg.value_and_grad(cubic)(X3)
    assert value == pytest.approx(cubic(X3), rel=1e-14)
    close(g, cubic_grad(X3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_value_and_grad_returns_the_functions_own_scalar_and_gradient_dtype(dtype):
    """The value is what the function returned (a NumPy scalar, or a 0-d array's scalar),
    in its dtype, and the gradient keeps the input's dtype."""
    x = np.array([1.5, -2.0], dtype)
    for f in (lambda v: np.sum(v * v), lambda v: np.sum(v * v, keepdims=True)[0]):
        value, g = fg.value_and_grad(f)(x)
        assert type(value) is dtype and value == np.sum(x * x)
        assert g.dtype == dtype and g.tobytes() == (2 * x).tobytes() and g.flags.writeable
    value, g = fg.value_and_grad(lambda v: np.sum(v * v).reshape(()))(x)  # a 0-d array
    assert type(value) is dtype and g.tobytes() == (2 * x).tobytes()
    with pytest.raises(TypeError, match="real-valued output"):
        fg.value_and_grad(lambda v: np.sum(v * 1j))(x.astype(np.float64))


def test_grad_of_one_float_array_agrees_with_the_general_path_bit_for_bit():
    """``grad`` and ``value_and_grad`` at an int ``argnums`` whose argument is one float
    ndarray take a shorter route; a one-element tuple ``argnums`` takes the general one.
    Both give the closed form's gradient with the same bits, a gradient the caller owns,
    and the same errors, whatever the other arguments and the output are."""
    x = np.array([0.3, -1.2, 2.0])

    def f(a, v, scale=1.0):
        return scale * np.sum(np.sin(v) * a)

    for dtype in (np.float32, np.float64):
        v = x.astype(dtype)
        g = fg.grad(f, argnums=1)(2.0, v, scale=3.0)
        assert g.dtype == dtype and g.flags.writeable and not np.shares_memory(g, v)
        assert g.tobytes() == fg.grad(f, argnums=(1,))(2.0, v, scale=3.0)[0].tobytes()
        close(g, 6.0 * np.cos(x), rtol=1e-6 if dtype is np.float32 else 1e-12)
        value, g2 = fg.value_and_grad(f, argnums=1)(2.0, v)
        assert type(value) is dtype and value == f(2.0, v) and g2.dtype == dtype
    # outputs the shorter route hands to the general checks: a constant, a 0-d array,
    # the input itself, a non-scalar, a complex scalar
    assert fg.grad(lambda v: 3.0)(x).tobytes() == np.zeros(3).tobytes()
    close(fg.grad(lambda v: np.sum(v * v).reshape(()))(x), 2 * x)
    close(fg.grad(lambda v: v[0] * 1.0)(x), np.array([1.0, 0.0, 0.0]))
    with pytest.raises(TypeError, match="only for scalar outputs"):
        fg.grad(lambda v: v * 2.0)(x)
    with pytest.raises(TypeError, match="real-valued output"):
        fg.grad(lambda v: np.sum(v * 1j))(x)
    with pytest.raises(TypeError, match="scalar outputs: the function returned"):
        fg.grad(lambda v: (np.sum(v), np.sum(v)))(x)


def two_args(x, y):
    return np.sum(np.sin(x) * y ** 2)


XA = np.array([0.1, 0.5, -0.2])
YA = np.array([1.5, -0.7, 2.0])


def test_grad_argnums_int_selects_one_argument():
    close(fg.grad(two_args, argnums=1)(XA, YA), 2 * np.sin(XA) * YA)


def test_grad_argnums_tuple_returns_tuple_of_gradients():
    gx, gy = fg.grad(two_args, argnums=(0, 1))(XA, YA)
    close(gx, np.cos(XA) * YA ** 2)
    close(gy, 2 * np.sin(XA) * YA)


def test_grad_argnums_one_element_tuple_returns_one_element_tuple():
    result = fg.grad(two_args, argnums=(1,))(XA, YA)
    assert isinstance(result, tuple) and len(result) == 1
    close(result[0], 2 * np.sin(XA) * YA)


def test_grad_negative_argnums_counts_from_the_end():
    close(fg.grad(two_args, argnums=-1)(XA, YA), 2 * np.sin(XA) * YA)
    gy, gx = fg.grad(two_args, argnums=(-1, -2))(XA, YA)
    close(gx, np.cos(XA) * YA ** 2)
    close(gy, 2 * np.sin(XA) * YA)


def test_grad_argnums_out_of_range_raises():
    with pytest.raises(ValueError, match="argnums"):
        fg.grad(two_args, argnums=2)(XA, YA)


def test_grad_passes_keyword_arguments_through_undifferentiated():
    def f(x, scale=1.0, power=2):
        return scale * np.sum(x ** power)

    close(fg.grad(f)(XA, scale=3.0, power=3), 9.0 * XA ** 2)
    close(fg.value_and_grad(f)(XA, power=4)[1], 4 * XA ** 3)


def test_grad_has_aux_returns_gradient_and_aux():
    def f(x):
        return np.sum(x ** 2), {"double": 2 * x, "label": "hi"}

    g, aux = fg.grad(f, has_aux=True)(XA)
    close(g, 2 * XA)
    assert aux["label"] == "hi"
    close(aux["double"], 2 * XA)
    assert isinstance(aux["double"], np.ndarray)  # a plain array, not a tracer


def test_value_and_grad_has_aux_nests_value_and_aux():
    (value, aux), g = fg.value_and_grad(lambda x: (x ** 2, x + 1.0), has_aux=True)(3.0)
    assert value == pytest.approx(9.0)
    assert aux == pytest.approx(4.0)
    assert g == pytest.approx(6.0)


Params = collections.namedtuple("Params", ["w", "b"])


class Affine:
    """A user class made a pytree node by registration."""

    def __init__(self, scale, shift):
        self.scale, self.shift = scale, shift


fg.tree.register(Affine, lambda a: ((a.scale, a.shift), None),
                 lambda aux, children: Affine(*children))


def test_grad_of_tuple_argument_has_tuple_structure():
    g = fg.grad(lambda p: np.sum(p[0] * p[1]))((XA, YA))
    assert isinstance(g, tuple) and len(g) == 2
    close(g[0], YA)
    close(g[1], XA)


def test_grad_of_list_argument_has_list_structure():
    g = fg.grad(lambda p: p[0] * p[1] ** 2)([2.0, 3.0])
    assert isinstance(g, list)
    close(g, [9.0, 12.0])


def test_grad_of_a_dict_of_float_arrays_agrees_with_the_general_path_bit_for_bit():
    """A plain dict of float ndarrays at an int ``argnums`` (a model's parameters) takes a
    shorter route; a one-element tuple ``argnums`` takes the general one.  Both give the
    closed form's gradients with the same bits, as a dict in sorted key order (the
    function sees one too): each gradient of its leaf's dtype and owned by the caller,
    zeros for a leaf the output does not depend on; and the same results or errors for
    every output and for the dicts the shorter route leaves to the general one."""
    w, b, x = np.array([[0.5, -1.0], [2.0, 0.25]]), np.array([0.1, -0.3]), np.array([1.5, -0.5])
    t = np.tanh(x @ w + b)
    seen = []

    def loss(p, v, scale=1.0):
        seen.append(list(p))
        return scale * np.sum(np.tanh(v @ p["w"] + p["b"]))

    for dtype in (np.float32, np.float64):
        p = {"w": w.astype(dtype), "unused": np.ones(3, dtype), "b": b.astype(dtype)}
        value, g = fg.value_and_grad(loss)(p, x.astype(dtype), scale=2.0)
        assert seen[-1] == ["b", "unused", "w"] and list(g) == ["b", "unused", "w"]
        rtol = 1e-6 if dtype is np.float32 else 1e-12
        close(value, 2.0 * np.sum(t), rtol=rtol)
        close(g["b"], 2.0 * (1 - t * t), rtol=rtol)
        close(g["w"], np.outer(x, 2.0 * (1 - t * t)), rtol=rtol)
        assert g["unused"].tobytes() == np.zeros(3, dtype).tobytes()
        for k in p:
            assert g[k].dtype == dtype and g[k].flags.writeable
            assert not np.shares_memory(g[k], p[k])
        value2, (g2,) = fg.value_and_grad(loss, argnums=(0,))(p, x.astype(dtype), scale=2.0)
        assert type(value) is type(value2) is dtype and value.tobytes() == value2.tobytes()
        assert list(g2) == list(g) and all(g[k].tobytes() == g2[k].tobytes() for k in g)
        assert fg.grad(loss)(p, x.astype(dtype), scale=2.0)["w"].tobytes() == g["w"].tobytes()
    # a float32 leaf beside float64 ones: its gradient is cast back to float32
    g = fg.grad(loss)({"w": w.astype(np.float32), "b": b}, x)
    assert g["w"].dtype == np.float32 and g["b"].dtype == np.float64
    close(g["w"], np.outer(x, 1 - t * t), rtol=1e-6)

    def outcome(f, argnums, p):
        try:
            value, g = fg.value_and_grad(f, argnums=argnums)(p)
        except TypeError as e:
            return str(e)
        g = g[0] if type(argnums) is tuple else g
        return (type(value), np.asarray(value).tobytes(),
                [(k, type(c), np.asarray(c).dtype, np.asarray(c).tobytes()) for k, c in g.items()])

    p = {"w": w, "b": b}
    for f, want in [(lambda q: q["w"] * 2.0, "scalar outputs"),  # not a scalar
                    (lambda q: np.sum(q["b"]) * 1j, "real-valued output"),
                    (lambda q: 3.0, None),  # a Python float: a float64 value
                    (lambda q: np.float64(3.0), None),  # a constant: zero gradients
                    (lambda q: np.sum(q["w"]).reshape(1), None),  # one element, 1-d
                    (lambda q: q["b"][0], None)]:
        result = outcome(f, 0, p)
        assert result == outcome(f, (0,), p)
        assert (want in result) if want else type(result) is tuple
    assert outcome(lambda q: np.float64(3.0), 0, p)[2][0][3] == np.zeros(2).tobytes()
    # dicts the shorter route leaves to the general one: a Python float, an integer
    # array, keys that do not sort (insertion order then), no keys
    g = fg.grad(lambda q: np.sum(q["w"]) * q["s"])({"w": w, "s": 2.0})
    assert type(g["s"]) is np.float64 and g["s"] == np.sum(w)
    with pytest.raises(TypeError, match="integer dtype"):
        fg.grad(lambda q: np.sum(q["w"]))({"w": w, "n": np.arange(2)})
    g = fg.grad(lambda q: np.sum(q[1] * q["a"]))({1: w[0], "a": b})
    assert list(g) == [1, "a"] and g[1].tobytes() == b.tobytes()
    assert fg.grad(lambda q: np.float64(1.0))({}) == {}


def test_grad_of_dict_argument_has_dict_structure():
    g = fg.grad(lambda d: np.sum(d["w"] ** 2) * d["b"])({"w": XA, "b": 3.0})
    assert set(g) == {"w", "b"}
    close(g["w"], 6.0 * XA)
    close(g["b"], np.sum(XA ** 2))


def test_grad_of_namedtuple_argument_is_namedtuple():
    g = fg.grad(lambda p: np.sum(np.tanh(p.w) * p.b))(Params(XA, 2.0))
    assert type(g) is Params
    close(g.w, 2.0 * (1 - np.tanh(XA) ** 2))
    close(g.b, np.sum(np.tanh(XA)))


def test_grad_keeps_none_leaves_of_a_pytree():
    g = fg.grad(lambda p: p[0] * p[2])([2.0, None, 5.0])
    assert g[1] is None
    close([g[0], g[2]], [5.0, 2.0])


def test_grad_of_nested_pytree():
    params = {"layers": [Params(XA, 1.0), Params(YA, -2.0)], "extra": (None, 0.5)}

    def f(p):
        total = p["extra"][1]
        for layer in p["layers"]:
            total = total + np.sum(layer.w ** 2) * layer.b
        return total

    g = fg.grad(f)(params)
    assert g["extra"][0] is None
    close(g["extra"][1], 1.0)
    close(g["layers"][0].w, 2 * XA)
    close(g["layers"][1].w, -4 * YA)
    close(g["layers"][1].b, np.sum(YA ** 2))


def test_grad_of_registered_user_class():
    g = fg.grad(lambda a: np.sum(a.scale * XA + a.shift) ** 2)(Affine(2.0, 0.5))
    assert isinstance(g, Affine)
    s = np.sum(2.0 * XA + 0.5)
    close(g.scale, 2 * s * np.sum(XA))
    close(g.shift, 2 * s * XA.size)


def test_registering_a_class_twice_raises():
    with pytest.raises(ValueError, match="already registered"):
        fg.tree.register(Affine, lambda a: ((), None), lambda aux, ch: Affine(0, 0))


# --- vjp ----------------------------------------------------------------------------------------

def test_vjp_returns_output_and_cotangent_tuple():
    out, vjp_fn = fg.vjp(np.sin, XA)
    close(out, np.sin(XA))
    result = vjp_fn(YA)
    assert isinstance(result, tuple) and len(result) == 1
    close(result[0], YA * np.cos(XA))


def test_vjp_fn_can_be_called_twice():
    out, vjp_fn = fg.vjp(lambda x, y: x * y ** 2, XA, YA)
    first = vjp_fn(np.ones(3))
    second = vjp_fn(np.ones(3))
    third = vjp_fn(np.array([0.0, 1.0, 0.0]))
    for a, b in zip(first, second):
        close(a, b)
    close(first[0], YA ** 2)
    close(first[1], 2 * XA * YA)
    close(third[0], [0.0, YA[1] ** 2, 0.0])


def test_vjp_of_tuple_output_takes_tuple_cotangent():
    out, vjp_fn = fg.vjp(lambda x: (np.sum(x ** 2), np.exp(x)), XA)
    assert isinstance(out, tuple)
    close(out[0], np.sum(XA ** 2))
    close(out[1], np.exp(XA))
    (g,) = vjp_fn((2.0, YA))
    close(g, 4 * XA + YA * np.exp(XA))


def test_vjp_with_several_primals_matches_jacobian_transpose():
    def f(x, y):
        return np.sin(x) * y

    J = fd_jacobian(lambda v: f(v, YA), XA)
    gx, gy = fg.vjp(f, XA, YA)[1](np.array([1.0, -2.0, 0.5]))
    close(gx, np.array([1.0, -2.0, 0.5]) @ J)
    close(gy, np.array([1.0, -2.0, 0.5]) * np.sin(XA))


def test_vjp_has_aux_returns_aux_third():
    out, vjp_fn, aux = fg.vjp(lambda x: (x ** 2, x + 1.0), 3.0, has_aux=True)
    assert out == pytest.approx(9.0)
    assert aux == pytest.approx(4.0)
    assert vjp_fn(1.0)[0] == pytest.approx(6.0)


# --- jvp and linearize --------------------------------------------------------------------------

def test_jvp_equals_jacobian_times_tangent():
    v = np.array([0.3, -1.0, 2.0])
    out, tangent = fg.jvp(cubic, (X3,), (v,))
    assert out == pytest.approx(cubic(X3))
    assert tangent == pytest.approx(cubic_grad(X3) @ v, rel=1e-12)


def test_linearize_through_control_flow_and_jit_returns_plain_outputs():
    # scan, cond, while_loop and jit compute primal and tangent in one bind: their primal
    # outputs were returned as escaped graph tracers (EscapedTracerError when read).
    xs = np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3]])

    def scan_f(x):
        return fg.lax.scan(lambda c, x: (c * x + np.sin(c), c), x, xs)

    def scan_py(x):
        c, ys = x, []
        for row in xs:
            ys.append(c)
            c = c * row + np.sin(c)
        return c, np.stack(ys)

    cases = [
        (scan_f, scan_py),
        (lambda x: fg.lax.cond(x[0] > 0, np.sin, np.cos, x), np.sin),
        (lambda x: fg.lax.while_loop(lambda c: np.sum(c * c) < 10.0, lambda c: c * 1.5, x),
         lambda x: x * 1.5 ** 5),  # 5 steps at XA
        (fg.jit(lambda x: np.sin(x) * x), lambda x: np.sin(x) * x),
    ]
    v = np.array([0.5, -1.0, 2.0])
    for f, py in cases:
        out, jvp_fn = fg.linearize(f, XA)
        for o, w in zip(fg.tree.leaves(out), fg.tree.leaves(py(XA))):
            assert type(o) is np.ndarray
            close(o, w)
        for t, w in zip(fg.tree.leaves(jvp_fn(v)), fg.tree.leaves(
                [fd_jacobian(lambda x, k=k: fg.tree.leaves(py(x))[k], XA) @ v
                 for k in range(len(fg.tree.leaves(py(XA))))])):
            close(t, w, rtol=1e-6)


def test_jvp_of_several_arguments_and_tuple_output():
    (p, s), (dp, ds) = fg.jvp(lambda x, y: (x * y, x + y), (2.0, 3.0), (1.0, 0.5))
    assert (p, s) == pytest.approx((6.0, 5.0))
    assert dp == pytest.approx(3.0 + 2.0 * 0.5)
    assert ds == pytest.approx(1.5)


def test_jvp_of_vector_function_matches_finite_differences():
    def f(x):
        return np.tanh(x) * np.sum(x)

    v = np.array([1.0, 2.0, -1.0])
    _, tangent = fg.jvp(f, (XA,), (v,))
    close(tangent, fd_jacobian(f, XA) @ v)


def test_linearize_jvp_fn_equals_jvp_and_calls_function_once():
    calls = []

    def f(x):
        calls.append(1)
        return np.sin(x) * x ** 2

    out, jvp_fn = fg.linearize(f, XA)
    assert len(calls) == 1
    close(out, np.sin(XA) * XA ** 2)
    J = fd_jacobian(lambda x: np.sin(x) * x ** 2, XA)
    for v in (np.array([1.0, 0.0, 0.0]), np.array([0.5, -1.0, 2.0])):
        close(jvp_fn(v), J @ v, rtol=1e-6)
        n = len(calls)
        close(jvp_fn(v), fg.jvp(f, (XA,), (v,))[1], rtol=1e-12)
        assert len(calls) == n + 1  # only the jvp reran f
    assert len(calls) == 3


# --- vmap ---------------------------------------------------------------------------------------

M = np.arange(12.0).reshape(3, 4) / 7.0


def stack_loop(f, xs, axis=0):
    return np.stack([f(x) for x in np.moveaxis(xs, axis, 0)])


def test_vmap_equals_stacked_loop():
    f = lambda x: np.sin(x) @ x  # noqa: E731
    close(fg.vmap(f)(M), stack_loop(f, M))


@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_vmap_in_axes_int_maps_over_that_axis(axis):
    f = lambda x: np.sum(np.exp(x)) * x[0]  # noqa: E731
    close(fg.vmap(f, in_axes=axis)(M), stack_loop(f, M, axis))


def test_vmap_in_axes_none_broadcasts_argument():
    w = np.array([1.0, -1.0, 2.0, 0.5])
    out = fg.vmap(lambda x, w: x @ w, in_axes=(0, None))(M, w)
    close(out, M @ w)


def test_vmap_in_axes_tuple_mixes_axes():
    a = RNG.normal(size=(4, 3))
    out = fg.vmap(lambda x, y: np.sum(x * y), in_axes=(0, 1))(M, a)
    close(out, np.array([np.sum(M[i] * a[:, i]) for i in range(3)]))


def test_vmap_in_axes_dict_tree():
    args = {"x": M, "w": np.array([1.0, 2.0, 3.0, 4.0]), "b": np.array([1.0, 2.0, 3.0])}
    out = fg.vmap(lambda d: d["x"] @ d["w"] + d["b"],
                  in_axes=({"x": 0, "w": None, "b": 0},))(args)
    close(out, M @ args["w"] + args["b"])


def test_vmap_batches_keyword_arguments_along_axis_0():
    # As JAX: in_axes covers the positional arguments; keyword arguments are mapped over
    # their leading axis.  They were passed whole before: (3, 3, 4) instead of (3, 4).
    b = RNG.normal(size=(3, 4))
    out = fg.vmap(lambda x, b: x * b)(M, b=b)
    close(out, M * b)
    out = fg.vmap(lambda x, b: x * b, in_axes=(1,))(M.T, b=b)
    close(out, M * b)
    g = fg.vmap(fg.grad(lambda x, b: np.sum(np.sin(x) * b)))(M, b=b)
    close(g, np.cos(M) * b)
    with pytest.raises(ValueError, match="keyword arguments are always batched"):
        fg.vmap(lambda x, b: x * b)(M, b=2.0)


@pytest.mark.parametrize("out_axis", [0, 1, -1])
def test_vmap_out_axes_places_batch_axis(out_axis):
    f = lambda x: np.outer(x, np.ones(2))  # noqa: E731  (4,) -> (4, 2)
    out = fg.vmap(f, out_axes=out_axis)(M)
    expected = np.moveaxis(stack_loop(f, M), 0, out_axis)
    assert out.shape == expected.shape
    close(out, expected)


def test_vmap_out_axes_none_for_unbatched_output():
    out, const = fg.vmap(lambda x: (2 * x, 7.0), out_axes=(0, None))(M)
    close(out, 2 * M)
    assert const == 7.0


def test_vmap_out_axes_list_places_the_batch_axis_of_each_list_entry():
    # as jax.vmap(f, out_axes=[1, 0]) for a function returning a list
    first, second = fg.vmap(lambda x: [2 * x, x + 1], out_axes=[1, 0])(M)
    close(first, 2 * M.T)
    close(second, M + 1)
    first, second = fg.vmap(lambda x: (2 * x, x + 1), out_axes=[1, 0])(M)
    close(first, 2 * M.T)


def test_vmap_axis_size_mismatch_raises():
    with pytest.raises(ValueError, match="inconsistent sizes") as info:
        fg.vmap(lambda a, b: a + b)(np.ones(3), np.ones(4))
    assert "3" in str(info.value) and "4" in str(info.value)


def test_vmap_of_grad_is_per_example_gradient():
    f = lambda x: np.sum(np.sin(x) * x)  # noqa: E731
    out = fg.vmap(fg.grad(f))(M)
    close(out, np.stack([fd_grad(f, row) for row in M]))


def test_grad_of_summed_vmap():
    f = lambda x: np.sin(x) * x  # noqa: E731
    g = fg.grad(lambda x: fg.vmap(f)(x).sum())(M)
    close(g, np.cos(M) * M + np.sin(M))


def test_vmap_of_grad_with_unbatched_parameters():
    def loss(w, x, y):
        return (np.tanh(x @ w) - y) ** 2

    w = np.array([0.5, -0.3, 0.2, 1.0])
    ys = np.array([0.1, -0.2, 0.3])
    out = fg.vmap(fg.grad(loss), in_axes=(None, 0, 0))(w, M, ys)
    expected = np.stack([fd_grad(lambda v: loss(v, M[i], ys[i]), w) for i in range(3)])
    close(out, expected)


# --- Jacobians and Hessians ---------------------------------------------------------------------

def vector_fn(x):
    return np.array([1.0, 2.0]) * np.sum(np.sin(x)) + x[:2] * x[1:]


@pytest.mark.parametrize("jac", [fg.jacfwd, fg.jacrev], ids=["jacfwd", "jacrev"])
def test_jacobian_matches_finite_differences(jac):
    close(jac(vector_fn)(X3), fd_jacobian(vector_fn, X3))


@pytest.mark.parametrize("jac", [fg.jacfwd, fg.jacrev], ids=["jacfwd", "jacrev"])
def test_jacobian_shape_is_out_shape_plus_in_shape(jac):
    a = RNG.normal(size=(2, 3))
    J = jac(lambda a: a.T @ a)(a)
    assert J.shape == (3, 3, 2, 3)
    close(J, fd_jacobian(lambda a: a.T @ a, a))
    assert jac(lambda a: np.sum(a ** 2))(a).shape == (2, 3)
    assert jac(lambda s: s * np.arange(4.0))(1.5).shape == (4,)


def test_jacrev_of_one_output_element_keeps_its_shape_and_dtype():
    """A one-element output is pulled back with a seed of ones (no identity is built):
    its Jacobian is out.shape + in.shape, in the output's dtype, for shapes (), (1,)
    and (1, 1), float32 included (closed form: d sum(x^3) = 3 x^2)."""
    x = np.array([0.5, -1.5, 2.0])
    for dtype in (np.float64, np.float32):
        xs = x.astype(dtype)
        for shape in ((), (1,), (1, 1)):
            J = fg.jacrev(lambda v: np.reshape(np.sum(v ** 3), shape))(xs)
            assert J.shape == shape + (3,) and J.dtype == dtype
            close(J.reshape(3), 3 * x ** 2, rtol=1e-6)


def tree_fn(d):
    return {"prod": d["a"] * d["b"][0], "rest": (np.sin(d["b"]), np.sum(d["a"] ** 2))}


TREE_IN = {"a": np.array([0.5, -1.0]), "b": np.array([0.3, 0.2, 1.1])}


def tree_fd_jacobian():
    """ref[out_path][in_key] by finite differences, one input leaf at a time."""
    def with_leaf(key, v):
        d = dict(TREE_IN)
        d[key] = v
        return d

    ref = {}
    for key in TREE_IN:
        ref[("prod", key)] = fd_jacobian(lambda v: tree_fn(with_leaf(key, v))["prod"], TREE_IN[key])
        for i in range(2):
            ref[("rest", i, key)] = fd_jacobian(
                lambda v: tree_fn(with_leaf(key, v))["rest"][i], TREE_IN[key])
    return ref


@pytest.mark.parametrize("jac", [fg.jacfwd, fg.jacrev], ids=["jacfwd", "jacrev"])
def test_jacobian_of_pytree_inputs_and_outputs(jac):
    J = jac(tree_fn)(TREE_IN)
    ref = tree_fd_jacobian()
    assert set(J) == {"prod", "rest"} and isinstance(J["rest"], tuple)
    for key in TREE_IN:
        close(J["prod"][key], ref[("prod", key)])
        close(J["rest"][0][key], ref[("rest", 0, key)])
        close(J["rest"][1][key], ref[("rest", 1, key)])
    assert J["prod"]["b"].shape == (2, 3)
    assert J["rest"][1]["a"].shape == (2,)


@pytest.mark.parametrize("jac", [fg.jacfwd, fg.jacrev], ids=["jacfwd", "jacrev"])
def test_jacobian_argnums_tuple(jac):
    def f(x, y):
        return np.sin(x) * y[:3] + y[3]

    y = np.array([1.0, 2.0, -1.0, 0.5])
    Jx, Jy = jac(f, argnums=(0, 1))(XA, y)
    close(Jx, fd_jacobian(lambda v: f(v, y), XA))
    close(Jy, fd_jacobian(lambda v: f(XA, v), y))
    assert Jx.shape == (3, 3) and Jy.shape == (3, 4)


def test_jacfwd_equals_jacrev():
    a = RNG.normal(size=(3, 2))
    f = lambda a: np.tanh(a @ a.T) * a[0, 0]  # noqa: E731
    close(fg.jacfwd(f)(a), fg.jacrev(f)(a), rtol=1e-12, atol=1e-14)
    close(fg.jacrev(f)(a), fd_jacobian(f, a))


@pytest.mark.parametrize("strategy", ["auto", "forward-mode", "reverse-mode"])
@pytest.mark.parametrize("vectorize", [True, False])
@pytest.mark.parametrize("n_out", [2, 5])
def test_jacobian_strategies_agree(strategy, vectorize, n_out):
    def f(x):
        return np.sin(x[0] * np.arange(1.0, n_out + 1)) * np.sum(x ** 2)

    J = fg.jacobian(f, strategy=strategy, vectorize=vectorize)(X3)
    assert J.shape == (n_out, 3)
    close(J, fd_jacobian(f, X3))


@pytest.mark.parametrize("jac", [fg.jacfwd, fg.jacrev,
                                 lambda f, **kw: fg.jacobian(f, strategy="auto", **kw)],
                         ids=["jacfwd", "jacrev", "jacobian"])
def test_jacobian_has_aux_returns_plain_aux(jac):
    J, aux = jac(lambda x: (np.sin(x) * np.ones((4, 1)), {"sum": np.sum(x), "twice": 2 * x}),
                 has_aux=True)(XA)
    assert J.shape == (4, 3, 3)
    close(J[1], np.diag(np.cos(XA)))
    assert not isinstance(aux["twice"], fg.core.Tracer)
    assert not isinstance(aux["sum"], fg.core.Tracer)
    close(aux["twice"], 2 * XA)
    close(aux["sum"], np.sum(XA))


def test_jacobian_unknown_strategy_raises():
    with pytest.raises(ValueError, match="strategy"):
        fg.jacobian(np.sin, strategy="sideways")


@pytest.mark.parametrize("jac", [fg.jacfwd, fg.jacrev], ids=["jacfwd", "jacrev"])
@pytest.mark.parametrize("chunk_size", [1, 2, 3, 7, 100])
def test_chunk_size_does_not_change_the_jacobian(jac, chunk_size):
    x = np.linspace(-1.0, 1.0, 7)
    f = lambda x: np.tanh(x) * x[::-1] + np.sum(x ** 3)  # noqa: E731
    close(jac(f, chunk_size=chunk_size)(x), fd_jacobian(f, x))


def test_jacobian_chunk_size_keyword():
    x = np.linspace(-1.0, 1.0, 5)
    f = lambda x: np.exp(x) * x[0]  # noqa: E731
    close(fg.jacobian(f, chunk_size=2)(x), fd_jacobian(f, x))


def test_hessian_matches_closed_form_and_finite_differences_of_gradient():
    H = fg.hessian(cubic)(X3)
    assert H.shape == (3, 3)
    close(H, H.T, rtol=1e-12, atol=1e-12)
    close(H, cubic_hessian(X3), rtol=1e-12)
    close(H, fd_jacobian(cubic_grad, X3), rtol=1e-6)


def test_hessian_has_aux_returns_the_aux_beside_the_hessian():
    # As JAX's hessian(fun, has_aux=True): (H, aux), aux as fun returned it.
    def f(x, y):
        return np.sum(x ** 3 * y), {"x2": 2 * x, "n": 3}

    H, aux = fg.hessian(f, argnums=(0, 1), has_aux=True)(XA, YA)
    close(H[0][0], np.diag(6 * XA * YA))
    close(H[0][1], np.diag(3 * XA ** 2))
    close(H[1][0], np.diag(3 * XA ** 2))
    close(H[1][1], np.zeros((3, 3)))
    close(aux["x2"], 2 * XA)
    assert int(aux["n"]) == 3
    Hs, auxs = fg.vmap(fg.hessian(lambda x: (np.sum(x ** 3), x), has_aux=True))(M)
    close(Hs, np.stack([np.diag(6 * row) for row in M]))
    close(auxs, M)


def test_jacobian_transforms_take_jaxs_positional_parameters_in_jaxs_order():
    # jacfwd/jacrev/hessian(fun, argnums, has_aux, holomorphic): hessian(f, 0, True) took
    # True as chunk_size and returned the Hessians of (value, aux) as a pair, silently
    H, aux = fg.hessian(lambda x: (np.sum(x ** 3), {"x": x}), 0, True)(XA)
    close(H, np.diag(6 * XA))
    close(aux["x"], XA)
    z = np.array([1.0 + 1.0j, 2.0j])
    for jac in (fg.jacfwd, fg.jacrev):
        J, aux = jac(lambda x: (x ** 2, x), 0, True)(XA)
        close(J, np.diag(2 * XA))
        np.testing.assert_allclose(jac(lambda v: v ** 2, 0, False, True)(z), np.diag(2 * z))
    with pytest.raises(TypeError):  # (chunk_size is keyword-only)
        fg.jacfwd(lambda x: x, 0, False, False, 2)
    with pytest.raises(TypeError):  # (after JAX's allow_int)
        fg.jacrev(lambda x: x, 0, False, False, False, 2)
    np.testing.assert_allclose(fg.hessian(lambda v: np.sum(v ** 3), 0, False, True)(z),
                               np.diag(6 * z))


def test_hessian_of_matrix_argument_has_doubled_shape():
    a = RNG.normal(size=(2, 2))
    H = fg.hessian(lambda a: np.sum(np.sin(a)) * a[0, 1])(a)
    assert H.shape == (2, 2, 2, 2)
    ref = fd_jacobian(lambda v: fd_grad(lambda w: np.sum(np.sin(w)) * w[0, 1], v, 1e-5),
                      a, 1e-4)
    close(H, ref, rtol=1e-4, atol=1e-6)


def test_hessian_defers_tangents_nobody_reads(monkeypatch):
    """Forward-over-reverse computes a forward-pass tangent only when it is read (the
    tangent of f's own output never is); results are bit for bit the eager ones, in
    third derivatives too, and a tangent first read inside ``no_grad`` is still
    recorded by an outer ``grad`` as when it was computed eagerly."""
    from funcgrad.core import REGISTRY
    from funcgrad.interpreters.forward import JVPInterpreter

    def f(x):
        y = np.sin(x) * x[::-1]
        with fg.no_grad():
            w = y * 2.0  # forces y's tangent inside no_grad
        return np.sum(y ** 2 + np.exp(x[:2]).sum() * x) + np.sum(fg.stop_gradient(w))

    x = np.linspace(-0.7, 0.9, 5)
    runs = {}
    for defer in (True, False):
        if not defer:
            monkeypatch.setattr(JVPInterpreter, "process_deferred", JVPInterpreter.process)
        runs[defer] = (fg.hessian(f)(x), fg.jacfwd(fg.hessian(f))(x),
                       fg.grad(lambda v: np.sum(fg.hessian(f)(v) ** 2))(x))
    for a, b in zip(runs[True], runs[False]):
        np.testing.assert_array_equal(a, b)
    close(runs[True][0], fd_jacobian(fg.grad(f), x), rtol=1e-6, atol=1e-8)
    monkeypatch.undo()

    calls = collections.Counter()
    reduce_sum_p = REGISTRY["reduce_sum"]
    impl = reduce_sum_p.impl

    def counting(x, **params):
        calls[np.ndim(x)] += 1
        return impl(x, **params)

    monkeypatch.setattr(reduce_sum_p, "impl", counting)
    fg.hessian(lambda v: np.sum(v ** 3))(np.ones(4))
    assert calls[2] == 0  # the batched tangent of the output sum is never computed


def test_slice_cotangents_add_into_the_accumulated_one():
    """Cotangents of several slices of one array are scatter-added into its cotangent so
    far (in place when only the backward pass holds it): same values as padding each,
    arrays the caller holds are never changed, and higher orders agree."""
    x = np.linspace(-1.0, 1.3, 6)
    f = lambda x: (np.sum(x[1:] * x[:-1]) + np.sum(x[:-1] ** 2)  # noqa: E731
                   + np.sum(np.sin(x[2:4])) + x[0] * x[5])
    g = fg.grad(f)(x)
    close(g, fd_grad(f, x), rtol=1e-7, atol=1e-9)
    close(fg.hessian(f)(x), fg.jacfwd(fg.jacfwd(f))(x), rtol=1e-12, atol=1e-12)
    close(fg.hessian(f)(x), fg.jacrev(fg.jacrev(f))(x), rtol=1e-12, atol=1e-12)
    a, b = np.ones(5), np.full(5, 2.0)
    _, pull = fg.vjp(lambda v: (v[1:], v[:-1], v), x)
    c = np.arange(6.0)
    ct, = pull((a, b, c))
    close(ct, c + np.r_[0.0, a] + np.r_[b, 0.0])
    np.testing.assert_array_equal(c, np.arange(6.0))  # the caller's cotangent is intact
    np.testing.assert_array_equal(a, np.ones(5))
    _, pull = fg.vjp(lambda v: (v[1], np.sin(v)), x)  # one element, into an owned array
    ct, = pull((np.array(2.0), np.ones(6)))
    # the sin VJP kernel's cos is within 2 ulp of NumPy's
    np.testing.assert_allclose(ct, np.cos(x) + [0.0, 2.0, 0.0, 0.0, 0.0, 0.0], rtol=0, atol=4.5e-16)
    m = np.arange(12.0).reshape(3, 4)
    h = lambda m: np.sum(m[1:, :-1] * m[:-1, 1:]) + np.sum(m[:, 1:] ** 2)  # noqa: E731
    close(fg.grad(h)(m), fd_grad(h, m), rtol=1e-6, atol=1e-6)


def test_hvp_equals_hessian_times_vector():
    v = np.array([0.4, -1.2, 2.0])
    value, (product,) = fg.hvp(cubic, (X3,), (v,))
    assert value == pytest.approx(cubic(X3))
    close(product, cubic_hessian(X3) @ v, rtol=1e-12)


def test_hvp_defers_tangents_nobody_reads(monkeypatch):
    """hvp computes a forward-pass tangent only when the gradient's rules read it: the
    tangent of the value (the output sum) never is.  Products are bit for bit those of
    ``jvp(grad)``, closed forms agree, and an outer ``grad`` still sees the products."""
    from funcgrad.core import REGISTRY

    def rosen(x):
        return np.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

    x, v = np.linspace(-1.2, 1.1, 6), np.linspace(0.5, -0.8, 6)
    value, product = fg.hvp(rosen, x, v)
    np.testing.assert_array_equal(product, fg.jvp(fg.grad(rosen), (x,), (v,))[1])
    d = np.zeros(6)
    d[:-1] += 1200 * x[:-1] ** 2 - 400 * x[1:] + 2
    d[1:] += 200
    H = np.diag(d) + np.diag(-400 * x[:-1], 1) + np.diag(-400 * x[:-1], -1)
    close(product, H @ v, rtol=1e-12)
    assert value == rosen(x)
    # <v, H(x) v> = sum_i d_i v_i^2 - 800 x_i v_i v_{i+1}, d_i = 1200 x_i^2 - 400 x_{i+1} + ...
    want = np.zeros(6)
    want[:-1] = 2400 * x[:-1] * v[:-1] ** 2 - 800 * v[:-1] * v[1:]
    want[1:] -= 400 * v[:-1] ** 2
    close(fg.grad(lambda y: np.dot(v, fg.hvp(rosen, y, v)[1]))(x), want, rtol=1e-12)

    calls = collections.Counter()
    reduce_sum_p = REGISTRY["reduce_sum"]
    impl = reduce_sum_p.impl

    def counting(x, **params):
        calls["reduce_sum"] += 1
        return impl(x, **params)

    monkeypatch.setattr(reduce_sum_p, "impl", counting)
    fg.hvp(lambda y: np.sum(y ** 3), x, v)
    assert calls["reduce_sum"] == 1  # the value's; its tangent is never computed


def test_hvp_of_one_plain_array_keeps_dtype_shape_and_zero_products():
    """One float array and a tangent like it take hvp's short path: the value and the
    product are what the general path gives (closed forms): float32 stays float32, a
    0-d input gives a NumPy scalar, a function linear in x or constant has a zero
    product, and a bare input gives a bare product, a 1-tuple a 1-tuple."""
    x, v = np.array([1.0, 2.0]), np.array([1.0, -1.0])
    for dtype in (np.float64, np.float32):
        value, product = fg.hvp(lambda y: np.sum(y ** 3), x.astype(dtype), v.astype(dtype))
        assert value == 9.0 and value.dtype == dtype and product.dtype == dtype
        close(product, 6 * x * v)
    value, (product,) = fg.hvp(lambda y: np.sum(y ** 3), (x,), (v,))
    close(product, 6 * x * v)
    value, product = fg.hvp(lambda y: y ** 3, np.array(2.0), np.array(1.5))
    assert isinstance(product, np.float64) and product == 18.0
    for f in (lambda y: np.sum(3.0 * y), lambda y: np.float64(4.0)):
        value, product = fg.hvp(f, x, v)
        np.testing.assert_array_equal(product, np.zeros(2))
        assert product.dtype == np.float64


def _rosen(x):
    return np.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def _rosen_hessian(x):
    """Rosenbrock's Hessian in closed form: tridiagonal."""
    d = np.zeros(x.size)
    d[:-1] += 1200 * x[:-1] ** 2 - 400 * x[1:] + 2
    d[1:] += 200
    return np.diag(d) + np.diag(-400 * x[:-1], 1) + np.diag(-400 * x[:-1], -1)


def _counted(f):
    runs = []

    def counted(*args, **kwargs):
        runs.append(1)
        return f(*args, **kwargs)
    return counted, runs


def test_hessian_and_hvp_of_one_array_run_the_function_once():
    """hessian and hvp of one plain float array run the function once and take the
    second order from its recording: Rosenbrock's closed form, in the composition's bits
    (jacfwd(jacrev(f)), jvp(grad(f))); so too through primitives whose pair rule is not
    captured (matmul, logsumexp) and for a matrix argument."""
    f, runs = _counted(_rosen)
    for x, v in [(np.linspace(-1.2, 1.1, 7), np.linspace(0.5, -0.8, 7)),
                 (np.linspace(2.0, -0.5, 7), np.linspace(-1.5, 0.5, 7))]:  # (a second
        runs.clear()  # recording of the same shape runs the sweep's written program)
        H = fg.hessian(f)(x)
        assert len(runs) == 1
        close(H, _rosen_hessian(x), rtol=1e-13, atol=1e-12)
        np.testing.assert_array_equal(H, fg.jacfwd(fg.jacrev(_rosen))(x))
        runs.clear()
        value, product = fg.hvp(f, x, v)
        assert len(runs) == 1 and value == _rosen(x)
        close(product, _rosen_hessian(x) @ v, rtol=1e-13, atol=1e-12)
        np.testing.assert_array_equal(product, fg.jvp(fg.grad(_rosen), (x,), (v,))[1])
    H = fg.hessian(lambda y: y ** 3)(np.array(3.0))  # a 0-d input: a NumPy scalar
    assert type(H) is np.float64 and H == 18.0

    def g(m):
        return np.sum(np.tanh(m @ m.T)) + fnp.logsumexp(m) * np.sum(np.sin(m) ** 3 / (1 + m * m))

    m, w = np.linspace(-0.9, 0.8, 6).reshape(2, 3), np.linspace(0.3, -0.4, 6).reshape(2, 3)
    counted, runs = _counted(g)
    H = fg.hessian(counted)(m)
    assert len(runs) == 1 and H.shape == (2, 3, 2, 3)
    np.testing.assert_array_equal(H, fg.jacfwd(fg.jacrev(g))(m))
    close(H.reshape(6, 6), fd_jacobian(lambda y: fg.grad(g)(y.reshape(2, 3)).ravel(),
                                       m.ravel()), rtol=1e-6, atol=1e-8)
    runs.clear()
    np.testing.assert_array_equal(fg.hvp(counted, m, w)[1], fg.jvp(fg.grad(g), (m,), (w,))[1])
    assert len(runs) == 1


def test_hvp_from_the_recording_has_the_compositions_bits():
    """The written sweep derives each pair rule from the declarations and runs the
    operations the composition (jvp of grad) runs, in its order: powers by Python numbers,
    broadcasting, transcendental functions give its very bits, on several points."""
    fs = [lambda y: np.sum(y ** 3 * y[::-1]), lambda y: np.sum((1 + y * y) ** 2.5),
          lambda y: np.sum(np.tanh(y) * np.exp(-y * y) / (1.5 + np.sin(y)) + np.sqrt(1 + y ** 4)),
          lambda y: np.sum(y[:, None] * y[None, :] ** 3) - np.sum(np.log1p(y * y))]
    rng = np.random.default_rng(3)
    for f in fs:
        for _ in range(3):
            x, v = rng.standard_normal(8), rng.standard_normal(8)
            np.testing.assert_array_equal(fg.hvp(f, x, v)[1],
                                          fg.jvp(fg.grad(f), (x,), (v,))[1])


def test_the_written_sweep_reads_only_the_recording_and_its_own_steps():
    """A sweep's program runs again on later recordings of the same shape, so it may read
    only the recording, its own steps' results and constants of the shape: an array from
    anywhere else would be baked in (wrong on the next recording), and writing stops."""
    from funcgrad.sweep_programs import _Unwritable, _Writer
    writer = _Writer()
    seed = writer.source(np.ones(2), "seed")
    total = writer.call(np.add, seed, 1.0)
    program = writer.program(total)
    np.testing.assert_array_equal(program(None, np.full(2, 5.0)), [6.0, 6.0])
    with pytest.raises(_Unwritable):
        writer.call(np.add, seed, np.ones(2))
    with pytest.raises(_Unwritable):
        writer.call(np.add, seed, (np.ones(2),))


def test_sweep_programs_keep_the_shapes_used_last():
    """The cache of written sweeps keeps the ``size`` shapes of recording used last: a
    shape used again outlives one written after it, and an evicted shape is written
    again (the sweep runs) on its next use."""
    from funcgrad.second_order import record
    from funcgrad.sweep_programs import Programs
    runs = []

    def run(tape, x, out, seed, ops):
        runs.append(x.value.size)
        return ops.call(np.add, ops.source(seed, "seed"), 1.0)

    programs = Programs(run=run, refusals=(), size=2)

    def sweep(n):
        rec = record(lambda y: np.sum(y * y), np.ones(n), {})
        return programs.sweep(rec.tape, rec.x, rec.out, np.full(n, float(n)), lambda: True)

    for n in [1, 2, 1, 3]:  # 3 evicts 2, used before 1's second use
        np.testing.assert_array_equal(sweep(n), np.full(n, n + 1.0))
    assert runs == [1, 2, 3] and len(programs.kept) == 2
    np.testing.assert_array_equal(sweep(1), [2.0])
    np.testing.assert_array_equal(sweep(2), [3.0, 3.0])
    assert runs == [1, 2, 3, 2]


@fg.custom_jvp
def _cube(y):
    return y ** 3


@_cube.defjvp
def _cube_jvp(primals, tangents):
    (y,), (t,) = primals, tangents
    return _cube(y), 3 * y ** 2 * t


@pytest.mark.parametrize("piece", ["custom_jvp", "cond", "no_grad", "callback"])
def test_hessian_and_hvp_replay_the_recording_where_the_sweep_does_not_apply(piece):
    """What the sweep does not derive (a custom rule or a conditional: several outputs;
    an operation under no_grad, where forward mode still carries the tangent that
    reverse mode drops; a debug callback) makes hessian and hvp evaluate the composition
    on the recording, not on the function: it still runs once (the callback too), and
    the results are the composition's."""
    effects = []

    def f(y):
        u = np.sum(np.sin(y) * y[::-1])
        if piece == "custom_jvp":
            u = u + np.sum(_cube(y) * y)
        elif piece == "cond":
            u = u + fg.lax.cond(u > 0, lambda a: np.sum(np.sin(a)), lambda a: np.sum(a), y)
        elif piece == "no_grad":
            with fg.no_grad():
                w = y * y
            u = u + np.sum(w * y)
        else:
            fg.debug.callback(lambda a: effects.append(1), u)
        return u

    counted, runs = _counted(f)
    for x, v in [(np.linspace(-0.7, 0.9, 5), np.linspace(0.2, -0.5, 5)),
                 (np.linspace(0.3, -1.1, 5), np.linspace(-0.6, 0.4, 5))]:  # (the second:
        runs.clear()  # a shape of recording already known to need the replay)
        effects.clear()
        H = fg.hessian(counted)(x)
        assert len(runs) == 1 and len(effects) == (piece == "callback")
        effects.clear()
        np.testing.assert_array_equal(H, fg.jacfwd(fg.jacrev(f))(x))
        runs.clear()
        effects.clear()
        value, product = fg.hvp(counted, x, v)
        assert len(runs) == 1 and len(effects) == (piece == "callback")
        np.testing.assert_array_equal(product, fg.jvp(fg.grad(f), (x,), (v,))[1])
        assert value == f(x)


def test_hessian_and_hvp_keep_the_general_route_around_transforms_and_other_inputs(
        monkeypatch):
    """Anything but one plain float array at the top level takes the composition as it
    was (the recording is never made): a transform around (vmap, jit, grad), aux,
    several or tree arguments, complex numbers, a raising function."""
    import funcgrad.second_order as second_order
    recorded = []
    record = second_order.record

    def counting(*args):
        recorded.append(1)
        return record(*args)

    monkeypatch.setattr(second_order, "record", counting)
    x, xs = np.linspace(-1.2, 1.1, 5), np.linspace(-1.0, 1.0, 10).reshape(2, 5)
    want = np.stack([_rosen_hessian(r) for r in xs])
    close(fg.vmap(fg.hessian(_rosen))(xs), want, rtol=1e-13, atol=1e-12)
    close(fg.jit(fg.hessian(_rosen))(x), _rosen_hessian(x), rtol=1e-13, atol=1e-12)
    # d/dx of sum(H(x)) = the third derivative summed: only the diagonal's 2400 x terms
    third = np.zeros(5)
    third[:-1] = 2400 * x[:-1] - 800
    third[1:] -= 400
    close(fg.grad(lambda y: np.sum(fg.hessian(_rosen)(y)))(x), third, rtol=1e-12, atol=1e-9)
    close(fg.vmap(lambda r: fg.hvp(_rosen, r, r)[1])(xs),
          np.stack([_rosen_hessian(r) @ r for r in xs]), rtol=1e-13, atol=1e-9)
    H, aux = fg.hessian(lambda y: (_rosen(y), "aux"), has_aux=True)(x)
    close(H, _rosen_hessian(x), rtol=1e-13, atol=1e-12)
    (Hxx, Hxy), _ = fg.hessian(lambda a, b: _rosen(a) * b, argnums=(0, 1))(x, 2.0)
    close(Hxx, 2 * _rosen_hessian(x), rtol=1e-13, atol=1e-12)
    close(fg.hessian(lambda d: _rosen(d["x"]))({"x": x})["x"]["x"], _rosen_hessian(x),
          rtol=1e-13, atol=1e-12)
    z = np.array([1.0 + 0.5j, -0.3j])
    np.testing.assert_allclose(fg.hessian(lambda w: np.sum(w ** 3), holomorphic=True)(z),
                               np.diag(6 * z), rtol=1e-14)
    assert recorded == []
    with pytest.raises(ZeroDivisionError):
        fg.hvp(lambda y: 1 // 0, (x,), (x,))
    assert len(recorded) == 1  # (one run, and its error)


def test_vhp_equals_vector_times_hessian():
    v = np.array([0.4, -1.2, 2.0])
    value, (product,) = fg.vhp(cubic, (X3,), (v,))
    assert value == pytest.approx(cubic(X3))
    close(product, v @ cubic_hessian(X3), rtol=1e-12)


def test_hvp_and_vhp_of_one_bare_argument_give_a_bare_product():
    """As torch.autograd.functional.hvp/vhp: a bare input, a bare product."""
    v = np.array([0.4, -1.2, 2.0])
    for transform, want in [(fg.hvp, cubic_hessian(X3) @ v), (fg.vhp, v @ cubic_hessian(X3))]:
        value, product = transform(cubic, X3, v)
        assert isinstance(product, np.ndarray)
        close(product, want, rtol=1e-12)


def test_hvp_with_two_arguments():
    def f(x, y):
        return np.sum(x ** 2 * y)

    v, w = np.array([1.0, 0.0, 2.0]), np.array([0.0, 1.0, -1.0])
    _, (px, py) = fg.hvp(f, (XA, YA), (v, w))
    # H = [[diag(2y), diag(2x)], [diag(2x), 0]]
    close(px, 2 * YA * v + 2 * XA * w)
    close(py, 2 * XA * v)


def test_elementwise_grad_is_derivative_at_every_element():
    x = np.linspace(-2.0, 2.0, 9)
    close(fg.elementwise_grad(np.tanh)(x), 1 - np.tanh(x) ** 2, rtol=1e-12)
    close(fg.elementwise_grad(lambda x: x ** 3 * np.exp(x))(x),
          (3 * x ** 2 + x ** 3) * np.exp(x), rtol=1e-12)


def test_third_derivative_by_nested_grad():
    for x in (-0.7, 0.3, 1.9):
        assert fg.grad(fg.grad(fg.grad(np.sin)))(x) == pytest.approx(-math.cos(x), rel=1e-12)
        assert fg.grad(fg.grad(fg.grad(lambda t: t ** 4)))(x) == pytest.approx(24 * x)
        assert fg.grad(fg.grad(fg.grad(lambda t: np.exp(2 * t))))(x) == pytest.approx(
            8 * math.exp(2 * x))


def test_jacfwd_of_jacrev_is_the_hessian():
    close(fg.jacfwd(fg.jacrev(cubic))(X3), cubic_hessian(X3), rtol=1e-12)
    close(fg.jacrev(fg.jacrev(cubic))(X3), cubic_hessian(X3), rtol=1e-12)
    close(fg.jacfwd(fg.jacfwd(cubic))(X3), cubic_hessian(X3), rtol=1e-12)
    close(fg.jacrev(fg.jacfwd(cubic))(X3), cubic_hessian(X3), rtol=1e-12)


def test_vmap_of_hessian_equals_stacked_hessians():
    xs = RNG.normal(size=(4, 3))
    out = fg.vmap(fg.hessian(cubic))(xs)
    assert out.shape == (4, 3, 3)
    close(out, np.stack([cubic_hessian(x) for x in xs]), rtol=1e-12)


# --- perturbation confusion (DESIGN.md principle 3) ---------------------------------------------

def test_nested_grad_does_not_confuse_perturbations():
    assert fg.grad(lambda x: x * fg.grad(lambda y: x + y)(1.0))(2.0) == 1.0


@pytest.mark.parametrize("x", [-1.5, 0.5, 3.0])
def test_derivative_of_x_times_inner_derivative_is_2x(x):
    # f(x) = x * d/dy (x * y) = x * x
    f = lambda x: x * fg.grad(lambda y: x * y)(0.0)  # noqa: E731
    assert f(x) == pytest.approx(x * x)
    assert fg.grad(f)(x) == pytest.approx(2 * x)


def test_jvp_nested_inside_grad_does_not_confuse_perturbations():
    inner = lambda x: fg.jvp(lambda y: x + y, (1.0,), (1.0,))[1]  # noqa: E731
    assert fg.grad(lambda x: x * inner(x))(2.0) == 1.0
    f = lambda x: x * fg.jvp(lambda y: x * y, (0.0,), (1.0,))[1]  # noqa: E731
    assert fg.grad(f)(3.0) == pytest.approx(6.0)


def test_grad_nested_inside_jvp_does_not_confuse_perturbations():
    out, tangent = fg.jvp(lambda x: x * fg.grad(lambda y: x + y)(1.0), (2.0,), (1.0,))
    assert (out, tangent) == (2.0, 1.0)
    out, tangent = fg.jvp(lambda x: x * fg.grad(lambda y: x * y)(0.0), (3.0,), (1.0,))
    assert out == pytest.approx(9.0) and tangent == pytest.approx(6.0)


def test_jvp_nested_inside_jvp_does_not_confuse_perturbations():
    f = lambda x: x * fg.jvp(lambda y: x * y, (0.0,), (1.0,))[1]  # noqa: E731
    out, tangent = fg.jvp(f, (3.0,), (1.0,))
    assert out == pytest.approx(9.0) and tangent == pytest.approx(6.0)


def test_sibling_inner_transforms_do_not_alias():
    def f(x):
        a = fg.grad(lambda y: x * y)(1.0)          # = x
        b = fg.grad(lambda z: x * z * z)(1.0)      # = 2x
        return a * b                               # = 2x^2

    assert fg.grad(f)(1.5) == pytest.approx(6.0)


# --- escaped tracers ----------------------------------------------------------------------------

def _leak(transform):
    stash = []

    def f(x):
        stash.append(x)
        return np.sum(x * 2.0)

    if transform == "grad":
        fg.grad(f)(np.ones(3))
    elif transform == "jvp":
        fg.jvp(f, (np.ones(3),), (np.ones(3),))
    else:
        fg.vmap(f)(np.ones((2, 3)))
    return stash[0]


@pytest.mark.parametrize("transform", ["grad", "jvp", "vmap"])
@pytest.mark.parametrize("use", ["operator", "numpy", "funcgrad.numpy"])
def test_escaped_tracer_raises_naming_transform(transform, use):
    leaked = _leak(transform)
    with pytest.raises(fg.EscapedTracerError, match=transform) as info:
        if use == "operator":
            leaked * 3.0
        elif use == "numpy":
            np.sin(leaked)
        else:
            fnp.exp(leaked)
    assert "after the transform" in str(info.value)


@pytest.mark.parametrize("transform", ["grad", "jvp"])
def test_escaped_tracer_inside_a_later_transform_raises(transform):
    leaked = _leak(transform)
    with pytest.raises(fg.EscapedTracerError):
        fg.grad(lambda y: np.sum(y * leaked))(np.ones(3))


# --- control flow on concrete values ------------------------------------------------------------

def piecewise(x):
    if x > 0:
        return x ** 2
    return -3.0 * x


def halve_until_small(x):
    y = x
    while y > 1.0:
        y = y / 2.0
    return y * y


def test_python_if_works_under_grad():
    assert fg.grad(piecewise)(2.0) == pytest.approx(4.0)
    assert fg.grad(piecewise)(-2.0) == pytest.approx(-3.0)


def test_python_while_works_under_grad():
    # 5 -> 2.5 -> 1.25 -> 0.625 = x/8 ; derivative of (x/8)^2 is x/32.
    assert fg.grad(halve_until_small)(5.0) == pytest.approx(5.0 / 32.0)


def test_python_control_flow_works_under_jvp():
    assert fg.jvp(piecewise, (2.0,), (1.0,)) == pytest.approx((4.0, 4.0))
    assert fg.jvp(piecewise, (-2.0,), (1.0,)) == pytest.approx((6.0, -3.0))
    assert fg.jvp(halve_until_small, (5.0,), (1.0,))[1] == pytest.approx(5.0 / 32.0)


def test_value_dependent_if_under_vmap_raises_with_user_location():
    with pytest.raises(fg.ConcretizationError) as info:
        fg.vmap(piecewise)(np.array([1.0, -1.0]))
    msg = str(info.value)
    line = piecewise.__code__.co_firstlineno + 1   # the `if x > 0:` line
    assert piecewise.__code__.co_filename in msg
    assert f"line {line}" in msg


def test_value_dependent_if_under_make_graph_raises_with_user_location():
    with pytest.raises(fg.ConcretizationError) as info:
        fg.make_graph(piecewise)(1.0)
    msg = str(info.value)
    assert piecewise.__code__.co_filename in msg
    assert f"line {piecewise.__code__.co_firstlineno + 1}" in msg


def test_concretization_error_is_a_type_error():
    assert issubclass(fg.ConcretizationError, TypeError)


# --- stop_gradient ------------------------------------------------------------------------------

def test_stop_gradient_blocks_derivative():
    assert fg.grad(lambda x: x * fg.stop_gradient(x))(3.0) == pytest.approx(3.0)
    assert fg.grad(lambda x: fg.stop_gradient(x ** 2))(3.0) == 0.0
    assert fg.jvp(lambda x: x * fg.stop_gradient(x), (3.0,), (1.0,))[1] == pytest.approx(3.0)


def test_stop_gradient_is_identity_on_values():
    close(fg.stop_gradient(XA), XA)
    close(fg.vmap(fg.stop_gradient)(M), M)


def test_stop_gradient_of_outer_variable_inside_nested_grad():
    # Inner grad sees stop_gradient(x) * y: derivative in y is x, and x's derivative
    # still flows to the outer grad through the outer multiplication only.
    f = lambda x: x * fg.grad(lambda y: fg.stop_gradient(x) * y)(1.0)  # noqa: E731
    assert fg.grad(f)(3.0) == pytest.approx(3.0)


# --- dtypes and kinds of results ----------------------------------------------------------------

def test_float32_input_gives_float32_gradient():
    x = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    g = fg.grad(lambda x: np.sum(np.tanh(x) ** 2))(x)
    assert g.dtype == np.float32
    close(g, 2 * np.tanh(x.astype(float)) * (1 - np.tanh(x.astype(float)) ** 2), rtol=1e-5)


def test_float32_stays_float32_through_other_transforms():
    x = np.array([0.5, -1.0, 2.0], dtype=np.float32)
    assert fg.jacfwd(np.sin)(x).dtype == np.float32
    assert fg.jacrev(np.sin)(x).dtype == np.float32
    assert fg.vjp(np.sin, x)[1](np.ones(3, np.float32))[0].dtype == np.float32
    assert fg.jvp(np.sin, (x,), (np.ones(3, np.float32),))[1].dtype == np.float32
    assert fg.hessian(lambda x: np.sum(x ** 3))(x).dtype == np.float32
    assert fg.vmap(fg.grad(lambda x: np.sum(x ** 2)))(np.ones((2, 3), np.float32)).dtype \
        == np.float32
    assert fg.grad(lambda x: x ** 2)(np.float32(3.0)).dtype == np.float32


def test_python_float_input_gives_scalar_gradient():
    g = fg.grad(lambda x: x ** 2)(3.0)
    assert not isinstance(g, np.ndarray) and np.ndim(g) == 0
    assert float(g) == 6.0


# Python numbers as arguments are weakly typed, as NumPy 2 (NEP 50) and JAX type them: a
# function of a float32 array and a Python float computes in float32 under every transform,
# as it does in NumPy.  The derivative with respect to the Python float is a float64 scalar
# (JAX's is its weakly typed float64).

W32 = np.array([0.5, -1.25, 2.0], dtype=np.float32)


def _mul(x, s):
    return x * s


def test_jvp_with_a_python_float_argument_keeps_float32():
    out, tangent = fg.jvp(_mul, (W32, 2.5), (W32, 1.0))
    assert out.dtype == tangent.dtype == (W32 * 2.5).dtype == np.float32
    close(out, W32 * 2.5)
    close(tangent, W32 * 2.5 + W32 * 1.0)  # d(x s) = dx s + x ds


def test_vjp_with_a_python_float_argument_keeps_float32():
    out, vjp_fn = fg.vjp(_mul, W32, 2.5)
    assert out.dtype == np.float32
    ct = np.array([1.0, 2.0, 3.0], np.float32)
    cx, cs = vjp_fn(ct)
    assert cx.dtype == np.float32 and np.ndim(cs) == 0 and cs.dtype == np.float64
    close(cx, ct * 2.5)
    close(cs, np.sum(ct * W32), rtol=1e-6)


def test_linearize_with_a_python_float_argument_keeps_float32():
    out, jvp_fn = fg.linearize(_mul, W32, 2.5)
    assert out.dtype == np.float32
    tangent = jvp_fn(W32, 1.0)
    assert tangent.dtype == np.float32
    close(tangent, W32 * 2.5 + W32)


def test_grad_with_respect_to_a_python_float_next_to_a_float32_array():
    def loss(s, x):
        return np.sum(np.sin(x * s))

    value, g = fg.value_and_grad(loss)(0.75, W32)
    assert value.dtype == np.asarray(loss(0.75, W32)).dtype == np.float32
    assert isinstance(g, np.float64)  # a Python float's gradient: a float64 scalar
    h = 1e-6  # central difference, in float64
    fd = (np.sum(np.sin(W32.astype(float) * (0.75 + h)))
          - np.sum(np.sin(W32.astype(float) * (0.75 - h)))) / (2 * h)
    close(g, fd, rtol=1e-5)
    gx = fg.grad(loss, argnums=1)(0.75, W32)
    assert gx.dtype == np.float32
    close(gx, 0.75 * np.cos(W32 * 0.75), rtol=1e-6)


def test_operators_on_a_python_float_argument_stay_weak():
    # -s, abs(s), s.real, 2 * s, s + 1 and s.conjugate() of a Python float are Python
    # numbers in NumPy, so a float32 array times any of them stays float32
    def loss(s, x):
        y = x * ((-s) * abs(s) + s.real * 2 + (s + 1) - s.conjugate() / 3)
        assert y.dtype == np.float32
        return np.sum(y)

    s0 = 0.75
    g = fg.grad(loss)(s0, W32)
    # d/ds of (-s|s| + 2s + s + 1 - s/3) at s > 0: -2s + 2 + 1 - 1/3
    close(g, np.sum(W32.astype(float)) * (-2 * s0 + 3 - 1 / 3), rtol=1e-6)
    assert fg.grad(loss, argnums=1)(s0, W32).dtype == np.float32


def test_vjp_of_a_vjp_with_respect_to_a_python_float_cotangent():
    # the inner vjp reshapes the float cotangent to max's kept-axes shape (1, 1): the
    # reshape's own VJP must read the shape of a Python float as (), not crash
    x = np.array([[0.5, 3.0], [-1.0, 2.0]])
    pullback = lambda x, v: fg.vjp(np.max, x)[1](v)[0]  # v * one-hot(argmax)
    out, vjp_fn = fg.vjp(pullback, x, 1.5)
    c = np.array([[1.0, 2.0], [3.0, 4.0]])
    gx, gv = vjp_fn(c)
    np.testing.assert_array_equal(out, [[0.0, 1.5], [0.0, 0.0]])
    np.testing.assert_array_equal(gx, np.zeros((2, 2)))  # piecewise linear in x
    assert gv == c[0, 1]
    _, tangent = fg.jvp(pullback, (x, 1.5), (np.ones((2, 2)), 2.0))
    np.testing.assert_array_equal(tangent, [[0.0, 2.0], [0.0, 0.0]])


def test_vjp_of_an_einsum_vjp_with_respect_to_a_python_float_cotangent():
    # the cotangent of a full contraction is a Python float here, and einsum's VJP rule
    # contracts it as a 0-d operand
    a, b = np.arange(1.0, 4.0), np.arange(6.0).reshape(2, 3)
    pullback = lambda a, b, v: fg.vjp(lambda a, b: np.einsum("k,nk->", a, b), a, b)[1](v)
    out, vjp_fn = fg.vjp(pullback, a, b, 2.0)  # (v * b.sum(0), v * a in every row)
    np.testing.assert_array_equal(out[0], 2.0 * b.sum(0))
    np.testing.assert_array_equal(out[1], np.broadcast_to(2.0 * a, (2, 3)))
    ga, gb, gv = vjp_fn((np.ones(3), np.ones((2, 3))))
    np.testing.assert_array_equal(ga, np.full(3, 2.0 * 2))
    np.testing.assert_array_equal(gb, np.full((2, 3), 2.0))
    assert gv == b.sum() + 2 * a.sum()


def test_int32_array_times_a_python_int_stays_int32_under_vmap_and_jit_of_vmap():
    ints = np.arange(6, dtype=np.int32).reshape(2, 3)
    want = ints * 3  # NumPy: int32
    for f in (fg.vmap(_mul, in_axes=(0, None)),
              fg.jit(fg.vmap(_mul, in_axes=(0, None)), wait=True)):
        out = f(ints, 3)
        assert out.dtype == want.dtype == np.int32
        np.testing.assert_array_equal(out, want)


def test_vmap_with_a_python_float_argument_keeps_float32():
    xs = np.stack([W32, 2 * W32])
    out = fg.vmap(_mul, in_axes=(0, None))(xs, 2.5)
    assert out.dtype == np.float32
    close(out, xs * 2.5)


def test_hessian_and_jacobians_with_a_python_float_argument_keep_float32():
    h = fg.hessian(lambda x, s: np.sum(x * x * x * s))(W32, 2.5)
    assert h.dtype == np.float32
    close(h, np.diag(6 * 2.5 * W32), rtol=1e-6)
    assert fg.jacrev(_mul)(W32, 2.5).dtype == np.float32
    assert fg.jacfwd(_mul)(W32, 2.5).dtype == np.float32


def test_a_python_float_argument_used_as_an_array_is_strongly_typed_as_in_numpy():
    def f(s, x):
        return np.sum(x * np.reshape(s, (1,)))   # NumPy: reshape(2.5) is a float64 array

    assert np.asarray(f(2.5, W32)).dtype == np.float64
    value, g = fg.value_and_grad(f)(2.5, W32)
    assert value.dtype == np.float64
    close(g, np.sum(W32), rtol=1e-6)


def test_zero_dim_array_input_gives_zero_dim_array_gradient():
    g = fg.grad(lambda x: x ** 2)(np.array(3.0))
    assert isinstance(g, np.ndarray) and g.shape == ()
    assert float(g) == 6.0


def test_list_of_floats_argument_is_a_pytree_of_scalars():
    g = fg.grad(lambda p: p[0] * p[1])([2.0, 5.0])
    assert isinstance(g, list) and all(np.ndim(v) == 0 for v in g)


def test_gradient_is_a_writable_array_the_caller_owns():
    x = np.ones(3)
    g = fg.grad(lambda x: np.sum(x))(x)
    g[0] = 5.0   # must not raise (read-only broadcast views must not leak out)
    assert x[0] == 1.0


# --- make_graph ---------------------------------------------------------------------------------

def test_make_graph_lists_equations_in_order():
    graph = fg.make_graph(lambda x: np.sum(np.exp(np.sin(x) * 2.0)))(np.ones(3))
    text = str(graph)
    names = ["sin", "mul", "exp", "reduce_sum"]
    positions = [text.find(n) for n in names]
    assert all(p >= 0 for p in positions), text
    assert positions == sorted(positions), text
    assert "f64[3]" in text


def test_make_graph_evaluates_on_new_arguments():
    f = lambda x: np.sum(np.exp(np.sin(x) * 2.0))  # noqa: E731
    graph = fg.make_graph(f)(np.ones(3))
    y = np.array([0.1, -0.4, 2.0])
    assert float(graph(y)) == pytest.approx(float(np.sum(np.exp(np.sin(y) * 2.0))), rel=1e-14)


def test_make_graph_of_pytree_function_takes_and_returns_pytrees():
    f = lambda d: (d["a"] * d["b"], np.sum(d["a"]))  # noqa: E731
    graph = fg.make_graph(f)({"a": np.ones(2), "b": 2.0})
    prod, total = graph({"a": np.array([1.0, 3.0]), "b": 4.0})
    close(prod, [4.0, 12.0])
    assert float(total) == 4.0


def test_make_jaxpr_takes_jaxs_static_argnums_return_shape_and_shape_structs():
    def f(x, n, scale=1.0):
        return {"y": x ** n * scale} if n > 1 else {"y": x}  # (n is a Python value)
    graph, shapes = fg.make_jaxpr(f, static_argnums=(1,), return_shape=True)(
        fg.ShapeDtypeStruct((2, 3), np.float32), 2)
    assert "f32[2,3]" in str(graph) and len(graph.invars) == 1
    assert shapes == {"y": fg.ShapeDtypeStruct((2, 3), np.float32)}
    close(graph(np.full((2, 3), 3.0, np.float32))["y"], np.full((2, 3), 9.0))
    with_keyword = fg.make_jaxpr(f, static_argnums=1)(np.ones(2), 3, scale=np.ones(2))
    assert len(with_keyword.invars) == 2
    close(with_keyword([np.full(2, 2.0)], {"scale": np.full(2, 0.5)})["y"], [4.0, 4.0])
    with pytest.raises(NotImplementedError, match="axis_name"):
        fg.make_jaxpr(f, axis_env=[("i", 4)])
    with pytest.raises(ValueError, match="static_argnums=5"):
        fg.make_jaxpr(f, static_argnums=5)(np.ones(2), 2)


def test_make_graph_records_only_abstract_shapes():
    text = str(fg.make_graph(lambda x: x @ x.T)(np.ones((2, 5), np.float32)))
    assert "f32[2,5]" in text and "f32[2,2]" in text


def test_stop_gradient_of_a_pytree_stops_each_leaf():
    x = np.array([1.0, 2.0])
    for wrap, unwrap in ((lambda a: {"u": a}, lambda t: t["u"]), (lambda a: [a], lambda t: t[0]),
                         (lambda a: (a, a), lambda t: t[1])):
        g = fg.grad(lambda a: np.sum(unwrap(fg.stop_gradient(wrap(a))) * a))(x)
        np.testing.assert_array_equal(g, x)  # d/da sum(c * a) with c = a held constant


def test_argnums_naming_an_argument_twice_or_not_an_int_is_refused():
    f = lambda a, b: np.sum(a * b)  # noqa: E731
    for transform in (fg.grad, fg.jacfwd, fg.jacrev, fg.hessian):
        with pytest.raises(ValueError, match="names an argument twice"):
            transform(f, argnums=(0, -2))(np.ones(2), np.ones(2))
    with pytest.raises(ValueError, match="pass an int or a tuple of ints"):
        fg.grad(f, argnums=1.0)(np.ones(2), np.ones(2))


def test_vmap_out_axes_out_of_range_is_refused():
    f = lambda x: x * 2.0  # noqa: E731
    xs = np.ones((3, 4))
    assert fg.vmap(f, out_axes=-1)(xs).shape == (4, 3)
    for ax in (2, -3):
        with pytest.raises(ValueError, match="out of range for output leaf 0"):
            fg.vmap(f, out_axes=ax)(xs)
    with pytest.raises(ValueError, match="out of range"):
        fg.vmap(lambda x: np.ones(4), out_axes=2)(xs)


def test_floor_divide_is_numpys_on_traced_values_and_keeps_integers():
    """NumPy's floor division works from the remainder (1.0 // 0.1 == 9.0, where
    floor(1.0 / 0.1) is 10.0); integers stay integers; the derivative is zero."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(200) * 10, rng.standard_normal(200)
    a[:5], b[5:10] = 0.0, 0.0
    a[10], b[10] = 1.0, 0.1
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.floor_divide(a, b)
        for got in (fg.jit(lambda p, q: p // q, wait=True)(a, b),
                    fg.vmap(lambda p, q: p // q)(a, b),
                    fg.jvp(lambda p: p // b, (a,), (np.ones_like(a),))[0]):
            np.testing.assert_array_equal(np.asarray(got), want)
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    g = fg.grad(lambda p: np.sum(p // 0.1 + p))(np.array([1.0, -1.0]))
    np.testing.assert_array_equal(g, [1.0, 1.0])
    assert float(fg.value_and_grad(lambda p: np.sum(p // 0.1))(np.array([1.0]))[0]) == 9.0
    i = np.array([2 ** 60 + 1, -7, 7], np.int64)
    for got in (fg.jit(lambda p: p // 3, wait=True)(i), fg.vmap(lambda p: p // 3)(i)):
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, i // 3)


def _bit_operators(i, j):
    """Every bit operator on integers, with Python numbers on either side (a negative one
    where the dtype is signed: -64 >> j fills with ones)."""
    k = -64 if i.dtype.kind == "i" else 64
    return (i & j, i | 5, 6 ^ i, ~i, i << 3, 1 << j, i >> 1, k >> j, i & 3 | j ^ ~i)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.uint64])
def test_bit_operators_on_traced_integers_are_numpys_bitwise_operations(dtype):
    """& | ^ ~ << >> act on the bits of integers, as in NumPy (& | ^ were logical_and...,
    giving booleans, ~ refused integers, << >> were missing), under vmap and jit."""
    i = np.array([0, 1, 6, 9, 100, np.iinfo(dtype).max], dtype)
    j = np.array([3, 0, 2, 7, 1, 5], dtype)
    want = _bit_operators(i, j)
    for got in (fg.vmap(_bit_operators)(i, j), fg.jit(_bit_operators, wait=True)(i, j)):
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)


def test_masks_combined_with_bit_operators_select_under_grad_vmap_and_jit():
    x = np.array([-2.0, -0.5, 0.5, 1.5, 3.0])

    def f(v):
        inside = (v > -1) & ~(v > 1) | (v > 2.5) ^ (v < -1.5)
        return np.sum(np.where(inside, v * v, 3.0 * v))
    want = np.where((x > -1) & (x <= 1) | (x > 2.5) ^ (x < -1.5), 2.0 * x, 3.0)
    np.testing.assert_array_equal(fg.grad(f)(x), want)
    np.testing.assert_array_equal(fg.jit(fg.grad(f), wait=True)(x), want)
    np.testing.assert_array_equal(fg.vmap(fg.grad(f))(np.stack([x, x])), [want, want])
    # booleans stay booleans; shifts of booleans are int8 (NumPy has no bool shift)
    m = np.array([True, False, True])
    for got, w in ((fg.vmap(lambda a: a & ~a | a ^ True)(m), m & ~m | m ^ True),
                   (fg.vmap(lambda a: a << a)(m), m << m)):
        assert got.dtype == w.dtype
        np.testing.assert_array_equal(got, w)


def test_bit_operations_on_floats_name_the_fix():
    with pytest.raises(TypeError, match=r"bitwise_and takes integer or boolean arrays.*astype"):
        fg.vmap(lambda v: v & 1)(np.ones(3))
    with pytest.raises(TypeError, match=r"invert takes integer or boolean arrays"):
        fg.grad(lambda v: np.sum(v * ~v))(np.ones(3))


def test_python_divmod_on_traced_values_is_numpys_divmod():
    """divmod(x, y) and divmod(2.5, x) on traced arrays give NumPy's (x // y, x % y) under
    grad, vmap and jit (Python's divmod raised "unsupported operand type(s)")."""
    x = np.array([[2.3, -1.7], [0.4, 5.5]])
    y = np.array([[0.7, 0.6], [-0.3, 2.0]])
    for f in (lambda a, b: divmod(a, b), lambda a, b: divmod(2.5, b), lambda a, b: divmod(a, 2)):
        want = f(x, y)
        for got in (fg.jit(f)(x, y), fg.vmap(f)(x, y)):
            for g, w in zip(got, want):
                assert g.dtype == w.dtype
                np.testing.assert_allclose(g, w, rtol=1e-15)
    # d(x mod y)/dx = 1, d(x mod y)/dy = -floor(x / y); the quotient is flat
    gx, gy = fg.grad(lambda a, b: np.sum(divmod(a, b)[1] + 3.0 * divmod(a, b)[0]),
                     argnums=(0, 1))(x, y)
    np.testing.assert_array_equal(gx, np.ones_like(x))
    np.testing.assert_array_equal(gy, -np.floor_divide(x, y))

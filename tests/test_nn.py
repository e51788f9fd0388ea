"""funcgrad.nn against jax.nn (64-bit types enabled): values, first and second
derivatives, at the kinks and for inputs large enough to overflow a naive formula.

JAX's results come from one jitted program per group of tests (:class:`JaxReferences`):
compiled operation by operation, JAX spends seconds per test on a busy machine."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.nn as nn

try:  # (the comparisons need JAX, a benchmark extra; the other checks run without it)
    import jax
except ImportError:
    jax = None
else:
    jax.config.update("jax_enable_x64", True)
    jnn = jax.nn
    jnp = jax.numpy
needs_jax = pytest.mark.skipif(jax is None, reason="the comparison with jax.nn needs jax")


class JaxReferences:
    """``refs[group][key]``: JAX's result of each ``key: (function, args)`` its group's
    builder lists, all computed by one jitted program (built on first use)."""

    def __init__(self, **builders):
        self.builders, self.done = builders, {}

    def __getitem__(self, group):
        if group not in self.done:
            entries = self.builders[group]()
            program = jax.jit(lambda inputs: {k: entries[k][0](*inputs[k]) for k in entries})
            out = program({k: args for k, (_, args) in entries.items()})
            self.done[group] = jax.tree.map(np.asarray, out)
        return self.done[group]


def elementwise_grad_jax(f):
    return jax.vmap(jax.grad(f))


# --- elementwise -----------------------------------------------------------------------------------

# The kinks of the piecewise functions (0, ±1, ±3, 6) and inputs where exp overflows.
POINTS = np.array([-1000.0, -40.0, -6.0, -3.0, -2.0, -1.0, -0.3, 0.0, 0.3, 1.0, 2.0, 3.0,
                   6.0, 7.5, 40.0, 1000.0])
SMOOTH = np.array([-2.5, -0.7, 0.4, 1.6, 4.2])  # away from the kinks
ELEMENTWISE = [
    ("relu", {}), ("relu6", {}), ("sigmoid", {}), ("log_sigmoid", {}), ("softplus", {}),
    ("soft_sign", {}), ("silu", {}), ("swish", {}), ("mish", {}),
    ("gelu", {"approximate": True}), ("gelu", {"approximate": False}), ("elu", {}),
    ("elu", {"alpha": 0.5}), ("celu", {}), ("celu", {"alpha": 2.0}), ("selu", {}),
    ("leaky_relu", {}), ("leaky_relu", {"negative_slope": 0.2}), ("hard_tanh", {}),
    ("hard_sigmoid", {}), ("hard_silu", {}), ("hard_swish", {}), ("sparse_plus", {}),
    ("squareplus", {}), ("squareplus", {"b": 1.5}), ("identity", {}), ("tanh", {}),
]
IDS = [name + "".join(f"-{k}={v}" for k, v in kw.items()) for name, kw in ELEMENTWISE]
LOG1MEXP_POINTS = np.array([1e-12, 1e-3, 0.5, np.log(2.0), 2.0, 50.0, 800.0])
SPARSE_POINTS = np.array([-3.0, -0.5, 0.2, 0.9, 3.0])
G = np.random.default_rng(0).normal(size=(3, 4))


def _elementwise_references():
    entries = {}
    for (name, kw), key in zip(ELEMENTWISE, IDS):
        jf = (lambda name, kw: lambda x: getattr(jnn, name)(x, **kw))(name, kw)
        entries[key] = (lambda x, s, jf=jf: (jf(x), elementwise_grad_jax(jf)(x),
                                             jax.vmap(jax.grad(jax.grad(jf)))(s)),
                        (POINTS, SMOOTH))
    for name, x in (("log1mexp", LOG1MEXP_POINTS), ("sparse_sigmoid", SPARSE_POINTS)):
        jf = getattr(jnn, name)
        entries[name] = (lambda x, jf=jf: (jf(x), elementwise_grad_jax(jf)(x)), (x,))
    entries["glu"] = (lambda x: (jnn.glu(x, -1), jnn.glu(x, 1),
                                 jax.grad(lambda v: jnn.glu(v, 0).sum())(x[:2])), (G,))
    return entries


def ours(name, kw):
    return lambda x: getattr(nn, name)(x, **kw)


@pytest.mark.parametrize("name, kw", ELEMENTWISE, ids=IDS)
def test_values_and_derivatives_equal_jax(name, kw, refs):
    f = ours(name, kw)
    value, grad, second = refs["elementwise"][IDS[ELEMENTWISE.index((name, kw))]]
    np.testing.assert_allclose(f(POINTS), value, rtol=1e-13, atol=1e-15)
    g = fg.elementwise_grad(f)(POINTS)
    assert np.all(np.isfinite(g)), g
    # (near-cancellations such as 1 + tanh(z) at z << 0 cost both a few ulps of 1)
    np.testing.assert_allclose(g, grad, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(fg.elementwise_grad(fg.elementwise_grad(f))(SMOOTH), second,
                               rtol=1e-10, atol=1e-14)


def test_relu_derivative_at_zero_is_zero_and_nan_passes_through():
    assert fg.grad(nn.relu)(0.0) == 0.0
    assert fg.grad(nn.relu6)(6.0) == 0.0 and fg.grad(nn.relu6)(0.0) == 0.0
    assert np.isnan(nn.relu(np.nan))


@pytest.mark.parametrize("name", ["softplus", "log_sigmoid", "sigmoid", "silu", "elu",
                                  "selu", "mish", "gelu"])
def test_large_inputs_have_finite_right_derivatives(name, refs):
    grads = refs["elementwise"][name if name != "gelu" else "gelu-approximate=True"][1]
    for x, expected in ((-1000.0, grads[0]), (1000.0, grads[-1])):
        g = fg.grad(getattr(nn, name))(x)
        assert np.isfinite(g) and g == expected
    assert fg.grad(nn.softplus)(1000.0) == 1.0 and fg.grad(nn.log_sigmoid)(-1000.0) == 1.0


@pytest.mark.parametrize("name", ["relu", "sigmoid", "softplus", "gelu", "silu", "elu",
                                  "log_sigmoid", "hard_tanh", "leaky_relu", "mish"])
def test_float32_stays_float32(name):
    x = np.linspace(-3, 3, 7, dtype=np.float32)
    f = getattr(nn, name)
    assert f(x).dtype == np.float32
    assert fg.elementwise_grad(f)(x).dtype == np.float32


def test_integers_promote_to_float64_as_jax_x64():
    for f in (nn.softplus, nn.gelu, nn.softmax):
        assert f(np.arange(3)).dtype == np.float64
    assert nn.relu(np.arange(-1, 2)).dtype == np.int64


def test_sparse_sigmoid_and_log1mexp_equal_jax(refs):
    for name, x in (("sparse_sigmoid", SPARSE_POINTS), ("log1mexp", LOG1MEXP_POINTS)):
        value, grad = refs["elementwise"][name]
        f = getattr(nn, name)
        np.testing.assert_allclose(f(x), value, rtol=1e-13)
        np.testing.assert_allclose(fg.elementwise_grad(f)(x), grad, rtol=1e-12)


def test_log1mexp_derivative_at_large_inputs_is_finite():
    """The unused form's log(0) at large x must not put NaN into the derivative."""
    g = fg.elementwise_grad(nn.log1mexp)(np.array([1e-3, 40.0, 800.0]))
    assert np.all(np.isfinite(g))


def test_glu_equals_jax_and_refuses_odd_axes(refs):
    last, one, grad = refs["elementwise"]["glu"]
    np.testing.assert_allclose(nn.glu(G, -1), last, rtol=1e-14)
    np.testing.assert_allclose(nn.glu(G, 1), one, rtol=1e-14)
    np.testing.assert_allclose(fg.grad(lambda v: nn.glu(v, 0).sum())(G[:2]), grad, rtol=1e-13)
    with pytest.raises(ValueError, match="must be even"):
        nn.glu(G, axis=0)


# --- functions of whole axes ---------------------------------------------------------------------

X = np.random.default_rng(1).normal(size=(3, 4)) * 3.0
MASK = np.array([[True, False, True, True], [False, True, True, False],
                 [True, True, True, True]])
BIG = np.array([[1000.0, -1000.0, 999.0], [-800.0, -801.0, 5.0]])
BIG4 = BIG[:, :2].repeat(2, 1)
W = np.random.default_rng(2).normal(size=(3, 4))
WEIGHTS = np.array([[1.0, -2.0, 0.5, 0.0]] * 3)
AXES = [-1, 0, (0, 1), None]
LSE_KW = {"all": {}, "axis0": {"axis": 0}, "both-keepdims": {"axis": (0, 1), "keepdims": True},
          "last-keepdims": {"axis": -1, "keepdims": True}, "where": {"where": MASK, "axis": 1}}
LSE_BIG = np.concatenate([BIG, BIG + 1.0], axis=0)
SIGNED_KW = [{"b": WEIGHTS}, {"b": WEIGHTS, "axis": 1},
             {"b": WEIGHTS, "axis": 1, "return_sign": True},
             {"b": -np.abs(WEIGHTS), "axis": 0, "return_sign": True}]
STANDARDIZE_KW = {"default": {}, "axis0": {"axis": 0}, "all": {"axis": None},
                  "stable": {"algorithm": "stable"}, "where": {"where": MASK},
                  "eps": {"epsilon": 0.5, "axis": (0, 1)},
                  "given": {"mean": 0.5, "variance": 2.0}}
ROW_MASKED = np.array([[False, False], [True, True]])
SMALL = np.array([[1.0, 2.0], [3.0, 4.0]])


def _weighted(f, w):
    return jax.grad(lambda v: (f(v) * w).sum())


def _axes_references():
    entries = {}
    for name in ("softmax", "log_softmax"):
        jf = getattr(jnn, name)
        for axis in AXES:
            def program(x, big, big4, jf=jf, axis=axis):
                f = lambda v: jf(v, axis=axis)  # noqa: E731
                return f(x), f(big), _weighted(f, W[:2])(big4)
            entries[f"{name}-{axis}"] = (program, (X, BIG, BIG4))
        masked = lambda v, jf=jf: jf(v, where=MASK)  # noqa: E731
        entries[f"{name}-masked"] = (lambda x, f=masked: (f(x), _weighted(
            f, np.where(MASK, np.arange(12.0).reshape(3, 4), 0.0))(x)), (X,))
    entries["softmax-row-masked"] = (jax.grad(lambda v: jnn.softmax(
        v, where=ROW_MASKED)[:, 0].sum()), (SMALL,))
    entries["softmax-jvp-hessian"] = (lambda x, t: (
        jax.jvp(jnn.softmax, (x,), (t,))[1], jax.hessian(lambda v: jnn.softmax(v)[1])(x)),
        (X[0], np.arange(4.0)))
    for key, kw in LSE_KW.items():
        for i, x in enumerate((X, LSE_BIG[:, :3])):
            if "where" in kw and i:
                continue
            f = (lambda kw: lambda v: jnn.logsumexp(v, **kw))(kw)
            entries[f"lse-{key}-{i}"] = (lambda v, f=f: (f(v), jax.grad(
                lambda u: f(u).sum())(v)), (x,))
    for i, kw in enumerate(SIGNED_KW):
        entries[f"lse-signed-{i}"] = ((lambda kw: lambda v: jnn.logsumexp(v, **kw))(kw), (X,))
    entries["lse-weights-grad"] = (jax.grad(lambda v: jnn.logsumexp(
        v, b=np.abs(WEIGHTS), axis=1).sum()), (X,))
    entries["softmax-1000"] = (jnn.softmax, (np.array([1000.0, -1000.0, 999.0]),))
    for i, kw in enumerate(({}, {"axis": 1}, {"axis": 0, "where": MASK, "keepdims": True})):
        entries[f"lme-{i}"] = ((lambda kw: lambda v: jnn.logmeanexp(v, **kw))(kw), (X,))
    for key, kw in STANDARDIZE_KW.items():
        f = (lambda kw: lambda v: jnn.standardize(v, **kw))(kw)
        entries[f"std-{key}"] = (lambda v, f=f: (f(v), _weighted(f, W)(v)), (X,))
    return entries


@pytest.fixture(scope="module")
def refs():
    if jax is None:
        pytest.skip("the comparison with jax.nn needs jax")
    return JaxReferences(elementwise=_elementwise_references, axes=_axes_references)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("axis", AXES)
def test_softmax_and_log_softmax_equal_jax(name, axis, refs):
    f = lambda v: getattr(nn, name)(v, axis=axis)  # noqa: E731
    on_x, on_big, grad = refs["axes"][f"{name}-{axis}"]
    np.testing.assert_allclose(f(X), on_x, rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(f(BIG), on_big, rtol=1e-13, atol=1e-300)
    g = fg.grad(lambda v: (f(v) * W[:2]).sum())(BIG4)
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g, grad, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_masked_softmax_equals_jax_with_zero_derivatives_outside_the_mask(name, refs):
    f = lambda v: getattr(nn, name)(v, where=MASK)  # noqa: E731
    value, grad = refs["axes"][f"{name}-masked"]
    np.testing.assert_allclose(f(X), value, rtol=1e-13)
    w = np.where(MASK, np.arange(12.0).reshape(3, 4), 0.0)  # (-inf outside, for log_softmax)
    g = fg.grad(lambda v: (f(v) * w).sum())(X)
    np.testing.assert_allclose(g, grad, rtol=1e-12, atol=1e-14)
    assert np.all(g[~MASK] == 0.0)


def test_softmax_of_a_row_masked_out_entirely_is_zero_with_zero_derivative(refs):
    np.testing.assert_array_equal(nn.softmax(SMALL, where=ROW_MASKED)[0], [0.0, 0.0])
    g = fg.grad(lambda v: nn.softmax(v, where=ROW_MASKED)[:, 0].sum())(SMALL)
    np.testing.assert_allclose(g, refs["axes"]["softmax-row-masked"])
    assert np.all(g[0] == 0.0)


def test_softmax_forward_mode_second_order_vmap_and_graph_equal_jax(refs):
    x, t = X[0], np.arange(4.0)
    tangent, hessian = refs["axes"]["softmax-jvp-hessian"]
    np.testing.assert_allclose(fg.jvp(nn.softmax, (x,), (t,))[1], tangent, rtol=1e-13)
    h = fg.hessian(lambda v: nn.softmax(v)[1])(x)
    np.testing.assert_allclose(h, hessian, rtol=1e-11, atol=1e-14)
    h2 = fg.jacrev(fg.grad(lambda v: nn.softmax(v)[1]))(x)  # reverse over reverse
    np.testing.assert_allclose(h2, h, rtol=1e-12, atol=1e-14)
    expected = refs["axes"]["softmax--1"][0]
    np.testing.assert_allclose(fg.vmap(nn.softmax)(X), expected, rtol=1e-13)
    # traced abstractly, as fg.jit traces it
    np.testing.assert_allclose(fg.make_graph(nn.softmax)(X)(X), expected, rtol=1e-13)
    assert nn.softmax(X.astype(np.float32)).dtype == np.float32


@pytest.mark.parametrize("key", list(LSE_KW))
def test_logsumexp_equals_jax_values_and_gradients(key, refs):
    kw = LSE_KW[key]
    for i, x in enumerate((X, LSE_BIG[:, :3])):
        if "where" in kw and i:
            continue
        value, grad = refs["axes"][f"lse-{key}-{i}"]
        np.testing.assert_allclose(nn.logsumexp(x, **kw), value, rtol=1e-13)
        g = fg.grad(lambda v: nn.logsumexp(v, **kw).sum())(x)
        assert np.all(np.isfinite(g))
        np.testing.assert_allclose(g, grad, rtol=1e-12, atol=1e-300)


def test_logsumexp_with_weights_and_signs_equals_jax(refs):
    for i, kw in enumerate(SIGNED_KW):
        np.testing.assert_allclose(nn.logsumexp(X, **kw), refs["axes"][f"lse-signed-{i}"],
                                   rtol=1e-13, equal_nan=True)
    g = fg.grad(lambda v: nn.logsumexp(v, b=np.abs(WEIGHTS), axis=1).sum())(X)
    np.testing.assert_allclose(g, refs["axes"]["lse-weights-grad"], rtol=1e-12)
    assert np.isnan(nn.logsumexp(np.zeros(2), b=np.array([1.0, -2.0])))


def test_logsumexp_gradient_at_plus_minus_1000_is_softmax(refs):
    x = np.array([1000.0, -1000.0, 999.0])
    np.testing.assert_allclose(fg.grad(nn.logsumexp)(x), refs["axes"]["softmax-1000"],
                               rtol=1e-14)


def test_logmeanexp_equals_jax(refs):
    for i, kw in enumerate(({}, {"axis": 1}, {"axis": 0, "where": MASK, "keepdims": True})):
        np.testing.assert_allclose(nn.logmeanexp(X, **kw), refs["axes"][f"lme-{i}"],
                                   rtol=1e-13)


@pytest.mark.parametrize("key", list(STANDARDIZE_KW))
def test_standardize_equals_jax(key, refs):
    kw = STANDARDIZE_KW[key]
    value, grad = refs["axes"][f"std-{key}"]
    np.testing.assert_allclose(nn.standardize(X, **kw), value, rtol=1e-12)
    g = fg.grad(lambda v: (nn.standardize(v, **kw) * W).sum())(X)
    np.testing.assert_allclose(g, grad, rtol=1e-10, atol=1e-12)


def test_standardize_refuses_an_unknown_algorithm():
    with pytest.raises(ValueError, match="'fast'.*'stable'"):
        nn.standardize(X, algorithm="two-pass")


@needs_jax
@pytest.mark.parametrize("kw", [{}, {"axis": 0}, {"axis": 1}, {"dtype": np.float32},
                                {"dtype": np.int8, "axis": -2}])
def test_one_hot_equals_jax(kw):
    x = np.array([[0, 2, -1], [3, 1, 1]])
    ours, theirs = nn.one_hot(x, 3, **kw), jnn.one_hot(x, 3, **kw)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


def test_one_hot_needs_a_python_int_number_of_classes():
    with pytest.raises(TypeError, match="num_classes must be a Python int"):
        nn.one_hot(np.arange(3), 3.0)


# --- initializers ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["glorot_uniform", "glorot_normal", "lecun_uniform",
                                  "lecun_normal", "he_uniform", "he_normal", "xavier_uniform",
                                  "kaiming_normal"])
def test_variance_scaling_initializers_have_jaxs_variances(name):
    """A dense (60, 40) kernel and a (3, 5) convolution kernel from 4 to 8 channels, whose
    fans count the receptive field (15 positions), as JAX's do."""
    init = getattr(nn.initializers, name)()
    for shape, (fan_in, fan_out) in (((60, 40), (60, 40)), ((3, 5, 4, 8), (60, 120))):
        w = init(np.random.default_rng(0), shape)
        assert w.shape == shape and w.dtype == np.float64
        expected = {"glorot": 2 / (fan_in + fan_out), "xavier": 2 / (fan_in + fan_out),
                    "lecun": 1 / fan_in, "he": 2 / fan_in,
                    "kaiming": 2 / fan_in}[name.split("_")[0]]
        assert w.mean() == pytest.approx(0.0, abs=0.02)
        assert w.var() == pytest.approx(expected, rel=0.08)
    assert init(np.random.default_rng(0), (4, 3), np.float32).dtype == np.float32


@needs_jax
def test_initializers_are_reproducible_and_take_jax_arguments():
    init = nn.initializers.he_normal(in_axis=0, out_axis=1)
    a, b = init(np.random.default_rng(5), (30, 20)), init(5, (30, 20))
    np.testing.assert_array_equal(a, b)
    assert np.all(np.abs(a) < 2 * np.sqrt(2 / 30) / 0.87962566103423978)
    assert nn.initializers.zeros(None, (2, 3)).shape == (2, 3)
    assert nn.initializers.normal(dtype=np.complex64)(0, (4,)).dtype == np.complex64
    with pytest.raises(TypeError, match="np.random.default_rng"):
        init(jax.random.key(0), (3, 2))
    with pytest.raises(ValueError, match="in_axis"):
        nn.initializers.glorot_normal()(0, (5,))


@pytest.mark.parametrize("shape, column_axis", [((5, 3), -1), ((3, 5), -1), ((2, 3, 4), 0)])
def test_orthogonal_initializer_gives_orthonormal_columns_or_rows(shape, column_axis):
    q = nn.initializers.orthogonal(scale=2.0, column_axis=column_axis)(0, shape)
    assert q.shape == shape
    m = np.moveaxis(q, column_axis, -1).reshape(-1, shape[column_axis]) / 2.0
    gram = m.T @ m if m.shape[0] >= m.shape[1] else m @ m.T
    np.testing.assert_allclose(gram, np.eye(len(gram)), atol=1e-12)


def test_complex_variance_scaling_has_the_asked_variance():
    for distribution in ("uniform", "normal", "truncated_normal"):
        init = nn.initializers.variance_scaling(1.0, "fan_in", distribution,
                                                dtype=np.complex128)
        w = init(0, (400, 300))
        assert w.dtype == np.complex128
        assert np.mean(np.abs(w) ** 2) == pytest.approx(1 / 400, rel=0.05)


def test_funcgrad_nn_loads_lazily():
    import subprocess
    import sys
    code = "import sys, funcgrad as fg; assert 'funcgrad.nn' not in sys.modules; fg.nn.relu(1.0)"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# --- dot_product_attention -------------------------------------------------------------------

_ATT = np.random.default_rng(7)
_Q = _ATT.standard_normal((2, 5, 4, 3))  # (B, T, N, H)
_K = _ATT.standard_normal((2, 6, 2, 3))  # (B, S, K, H): two query heads per key head
_V = _ATT.standard_normal((2, 6, 2, 3))
_BIAS = _ATT.standard_normal((2, 4, 5, 6))
_MASK = _ATT.random((2, 4, 5, 6)) > 0.3
_ALL_OUT = np.ones((2, 4, 5, 6), bool)
_ALL_OUT[0, 1, 2] = False  # one query row that may attend to nothing
_ATTENTION_CASES = {
    "plain": {}, "bias": {"bias": _BIAS}, "mask": {"mask": _MASK},
    "causal": {"is_causal": True}, "scale": {"scale": 0.3},
    "window": {"local_window_size": (1, 2)}, "row masked out": {"mask": _ALL_OUT},
    "lengths": {"query_seq_lengths": np.array([3, 5], np.int32),
                "key_value_seq_lengths": np.array([2, 6], np.int32)},
    "all": {"local_window_size": 1, "is_causal": True, "bias": _BIAS[:1], "mask": _MASK[0, 0]},
}


@needs_jax
@pytest.mark.parametrize("case", list(_ATTENTION_CASES))
def test_dot_product_attention_equals_jax(case):
    kw = _ATTENTION_CASES[case]
    jkw = {k: jnp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    # (JAX takes the softmax in float32 whatever the inputs: 1e-6 is its rounding)
    want = np.asarray(jnn.dot_product_attention(_Q, _K, _V, **jkw))
    np.testing.assert_allclose(nn.dot_product_attention(_Q, _K, _V, **kw), want, atol=1e-6)

    def loss(f, numpy):
        return lambda q, k, v: numpy.sum(numpy.sin(f(q, k, v, **kw)))
    import funcgrad.numpy as fnp
    got = fg.grad(loss(nn.dot_product_attention, fnp), argnums=(0, 1, 2))(_Q, _K, _V)
    want = jax.grad(loss(lambda *a, **k: jnn.dot_product_attention(*a, **jkw), jnp),
                    argnums=(0, 1, 2))(_Q, _K, _V)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w), atol=2e-6)


def test_dot_product_attention_derivatives_shapes_dtypes_and_errors():
    from helpers import check_dot_product, check_jvp_fd
    q, k, v = _Q[0, :3], _K[0, :4], _V[0, :4]  # unbatched: (T, N, H), (S, K, H)
    f = lambda q, k, v: nn.dot_product_attention(q, k, v, is_causal=True)  # noqa: E731
    check_jvp_fd(f, (q, k, v))
    check_dot_product(f, (q, k, v))
    assert f(q, k, v).shape == q.shape
    np.testing.assert_array_equal(fg.jit(f)(q, k, v), f(q, k, v))
    np.testing.assert_allclose(fg.vmap(f)(_Q[:, :3], _K[:, :4], _V[:, :4]),
                               nn.dot_product_attention(_Q[:, :3], _K[:, :4], _V[:, :4],
                                                        is_causal=True), rtol=1e-12)
    out32 = nn.dot_product_attention(*(a.astype(np.float32) for a in (q, k, v)))
    assert out32.dtype == np.float32
    # one head, the scale makes each query pick the key equal to it
    e = np.eye(3).reshape(3, 1, 3)
    np.testing.assert_allclose(nn.dot_product_attention(e, e, e, scale=1e3), e, atol=1e-12)
    with pytest.raises(ValueError, match="K dividing query's N heads"):
        nn.dot_product_attention(_Q, _K[:, :, :1].repeat(3, 2), _V[:, :, :1].repeat(3, 2))
    with pytest.raises(TypeError, match="mask must be boolean.*bias="):
        nn.dot_product_attention(_Q, _K, _V, mask=_BIAS)
    with pytest.raises(ValueError, match="implementation='cudnn' is not available"):
        nn.dot_product_attention(_Q, _K, _V, implementation="cudnn")
    with pytest.raises(ValueError, match=r"query_seq_lengths must be an integer array of shape"):
        nn.dot_product_attention(_Q, _K, _V, query_seq_lengths=np.array([1.0, 2.0]))

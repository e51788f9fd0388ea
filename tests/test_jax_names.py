"""The names a JAX user reaches for: linear_transpose, disable_jit, block_until_ready,
remat, pure_callback, closure_convert, custom_gradient, named_call/named_scope,
clear_caches, integer inputs to grad/vjp (float0), and vmap(axis_name=...) with the
collectives of fg.lax (psum, pmean, pmax, pmin, axis_index, all_gather, psum_scatter,
ppermute)."""
import threading
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

A = np.arange(6.0).reshape(3, 2) - 2.0


# --- linear_transpose -----------------------------------------------------------------------------

def test_linear_transpose_of_a_matrix_product_is_the_transposed_product():
    f_t = fg.linear_transpose(lambda x: A @ x, np.zeros(2))
    c = np.array([1.0, -2.0, 0.5])
    (got,) = f_t(c)
    np.testing.assert_allclose(got, A.T @ c)
    # the defining identity <f_t(c), x> = <c, f(x)>
    x = np.array([0.3, -1.2])
    assert got @ x == pytest.approx(c @ (A @ x))


def test_linear_transpose_keeps_pytrees_and_dtypes_of_the_primals():
    def f(x, y):
        return {"diff": 0.5 * x - 0.5 * y, "rev": x[::-1]}
    spec = np.zeros(3, np.float32)
    f_t = fg.linear_transpose(f, spec, spec)
    ct = {"diff": np.ones(3, np.float32), "rev": np.arange(3, dtype=np.float32)}
    gx, gy = f_t(ct)
    assert gx.dtype == gy.dtype == np.float32
    np.testing.assert_allclose(gx, 0.5 + np.arange(3.0)[::-1])
    np.testing.assert_allclose(gy, -0.5 * np.ones(3))


def test_linear_transpose_of_a_complex_map_is_its_transpose_not_its_adjoint():
    f_t = fg.linear_transpose(fnp.fft.fft, np.zeros(4, complex))
    c = np.array([1.0, 2.0j, -1.0, 0.5])
    dft = np.fft.fft(np.eye(4))  # (symmetric: its transpose is itself)
    np.testing.assert_allclose(f_t(c)[0], dft.T @ c, atol=1e-12)


@pytest.mark.parametrize("f, why", [
    (lambda x: x * x, "random input"), (lambda x: 2.0 * x + 1.0, "not zero at zero"),
    (lambda x: fg.nn.relu(x), "random input"),
    (lambda x: fnp.where(x > 0, x, 3.0 * x), "random input")],
    ids=["square", "affine", "relu", "kink-at-zero"])
def test_linear_transpose_refuses_a_function_that_is_not_linear(f, why):
    with pytest.raises(ValueError, match=f"not linear.*{why}"):
        fg.linear_transpose(f, np.zeros(3))


def test_linear_transpose_errors_name_the_problem():
    with pytest.raises(TypeError, match="floating-point or complex inputs"):
        fg.linear_transpose(lambda n: n * 2, np.zeros(2, int))
    f_t = fg.linear_transpose(lambda x: (x, 2.0 * x), np.zeros(2))
    with pytest.raises(TypeError, match="structure"):
        f_t(np.ones(2))


def test_linear_transpose_differentiates_and_jits_with_a_captured_matrix():
    def loss(w):
        (g,) = fg.linear_transpose(lambda x: w @ x, np.zeros(2))(np.ones(3))
        return fnp.sum(g ** 2)
    expected = 2 * np.outer(np.ones(3), A.T @ np.ones(3))  # d/dW |W^T 1|^2
    np.testing.assert_allclose(fg.grad(loss)(A), expected)
    # traced abstractly, as jit traces (the linearity checks need values: skipped)
    assert fg.make_graph(loss)(A)(A) == pytest.approx(np.sum((A.T @ np.ones(3)) ** 2))


# --- disable_jit, clear_caches, block_until_ready, remat, named_call ------------------------------

def test_disable_jit_runs_the_python_function_with_values():
    seen = []

    @fg.jit
    def f(x):
        seen.append(type(x))
        return x * 2.0 if x > 0 else -x  # Python control flow on the value
    with fg.disable_jit():
        assert f(3.0) == 6.0 and f(-1.0) == 1.0
        with fg.disable_jit(False):
            with pytest.raises(fg.ConcretizationError):
                f(1.0)
        assert f(2.0) == 4.0
    assert seen[:2] == [float, float]
    with pytest.raises(fg.ConcretizationError):
        f(1.0)


def test_disable_jit_is_per_thread():
    f = fg.jit(lambda x: x * 2.0 if x > 0 else -x)  # traceable only with jit disabled
    inside, errors = threading.Event(), []

    def other():
        inside.wait(30)
        try:
            f(1.0)
        except fg.ConcretizationError as e:  # this thread still traces for jit
            errors.append(e)
    thread = threading.Thread(target=other)
    with fg.disable_jit():
        thread.start()
        inside.set()
        thread.join(30)
        assert f(1.0) == 2.0
    assert len(errors) == 1


def test_ensure_compile_time_eval_leaves_concrete_values_concrete_under_jit():
    seen = []

    @fg.jit
    def f(x):
        with fg.ensure_compile_time_eval():
            table = fnp.cumsum(fnp.arange(4.0))
            seen.append(type(table))
        return x * table if table[-1] > 5 else x  # (Python control flow on it)
    np.testing.assert_array_equal(f(np.ones(4)), [0.0, 1.0, 3.0, 6.0])
    assert seen == [np.ndarray]


def test_typeof_gives_shape_dtype_and_weak_type_inside_and_outside_transforms():
    t = fg.typeof(np.ones((2, 3), np.float32))
    assert (t.shape, t.dtype, t.weak_type) == ((2, 3), np.float32, False)
    assert fg.typeof(2.0).weak_type and fg.typeof(2.0).dtype == np.float64
    assert fg.typeof(fg.ShapeDtypeStruct((4,), np.float32)).shape == (4,)
    inside = []
    fg.jit(lambda x: inside.append(fg.typeof(x)) or x)(np.ones(3, np.float32))
    fg.grad(lambda x: inside.append(fg.typeof(x)) or x)(1.5)
    fg.vmap(lambda x: inside.append(fg.typeof(x)) or x)(np.ones((5, 2)))
    assert [(a.shape, a.dtype) for a in inside] == [((3,), np.float32), ((), np.float64),
                                                      ((2,), np.float64)]
    with pytest.raises(TypeError, match="not an array or a number"):
        fg.typeof("text")


def test_clear_caches_makes_jitted_functions_trace_again():
    traces = []
    f = fg.jit(lambda x: traces.append(1) or x * 3.0, wait=False)
    f(np.ones(2))
    f(np.ones(2))
    assert len(traces) == 1
    fg.clear_caches()
    f(np.ones(2))
    assert len(traces) == 2


def test_block_until_ready_returns_its_argument():
    tree = {"w": np.ones(2), "b": [1.0, (np.zeros(1),)]}
    assert fg.block_until_ready(tree) is tree


def test_remat_is_checkpoint():
    assert fg.remat is fg.checkpoint
    g = fg.grad(fg.remat(lambda x: fnp.sin(fnp.sin(x))))(0.3)
    assert g == pytest.approx(np.cos(np.sin(0.3)) * np.cos(0.3))


def test_named_scope_and_named_call_keep_their_names_in_a_profile():
    layer = fg.named_call(lambda x: np.tanh(x) * 2.0, name="layer")
    with fg.profiler.profile() as prof:
        with fg.named_scope("loss"):
            g = fg.grad(lambda x: np.sum(layer(x)))(np.zeros(2))
    np.testing.assert_allclose(g, [2.0, 2.0])
    keys = [e.key for e in prof.key_averages()]
    assert "layer" in keys and "loss" in keys
    assert fg.named_call(np.sin)(0.0) == 0.0

    @fg.named_scope("decorated")
    def f(x):
        return x + 1.0
    assert f(1.0) == 2.0
    with pytest.raises(TypeError, match="string"):
        with fg.named_scope(3):
            pass


# --- pure_callback --------------------------------------------------------------------------------

def host_sin(x):
    assert type(x) is np.ndarray  # the callback sees NumPy arrays, never traced values
    return np.sin(x)


def sin_cb(x, vmap_method="sequential"):
    return fg.pure_callback(host_sin, x, x, vmap_method=vmap_method)


def test_pure_callback_computes_eagerly_and_under_jit():
    x = np.array([0.0, 0.5, 2.0])
    np.testing.assert_allclose(sin_cb(x), np.sin(x))
    np.testing.assert_allclose(fg.jit(lambda v: sin_cb(v) * 2.0)(x), 2 * np.sin(x))
    graph = fg.make_graph(sin_cb)(x)
    assert [e.prim.name for e in graph.eqns] == ["pure_callback"]


def test_pure_callback_takes_pytrees_keywords_and_declared_results():
    def host(pair, *, scale):
        a, b = pair
        return {"sum": (a + b) * scale, "n": np.int32(a.size)}
    spec = {"sum": np.zeros(2), "n": np.zeros((), np.int32)}
    out = fg.pure_callback(host, spec, (np.ones(2), np.arange(2.0)), scale=2.0)
    np.testing.assert_allclose(out["sum"], [2.0, 4.0])
    assert out["n"] == 2 and out["n"].dtype == np.int32
    # a float result declared float32 is cast (same kind); an int for a float is not
    assert fg.pure_callback(lambda: 1.5, np.zeros((), np.float32)).dtype == np.float32
    with pytest.raises(ValueError, match="shape"):
        fg.pure_callback(lambda x: x[:1], np.zeros(2), np.ones(2))
    with pytest.raises(TypeError, match="structure"):
        fg.pure_callback(lambda x: (x, x), np.zeros(2), np.ones(2))


@pytest.mark.parametrize("method, seen_y", [
    ("sequential", [(), (), ()]), ("sequential_unrolled", [(), (), ()]),
    ("expand_dims", [(1,)]), ("broadcast_all", [(3,)]), ("legacy_vectorized", [()])])
def test_pure_callback_under_vmap_follows_vmap_method(method, seen_y):
    """The shapes the host function sees are those JAX documents for each method."""
    shapes = []

    def host(x, y):
        shapes.append(np.shape(y))
        return x + y

    def f(x, y):
        return fg.pure_callback(host, x, x, y, vmap_method=method)
    out = fg.vmap(f, in_axes=(0, None))(np.arange(3.0), 1.0)
    np.testing.assert_allclose(out, np.arange(3.0) + 1.0)
    assert shapes == seen_y


def test_pure_callback_under_vmap_needs_a_vmap_method():
    with pytest.raises(NotImplementedError, match="vmap_method"):
        fg.vmap(lambda x: fg.pure_callback(np.sin, x, x))(np.ones(3))
    with pytest.raises(ValueError, match="vmap_method must be one of"):
        fg.pure_callback(np.sin, 1.0, 1.0, vmap_method="vectorized")


@pytest.mark.parametrize("transform", [
    lambda f: fg.grad(f)(0.5), lambda f: fg.jvp(f, (0.5,), (1.0,)),
    lambda f: fg.vjp(f, 0.5), lambda f: fg.jit(fg.grad(f))(0.5),
    lambda f: fg.grad(fg.jit(f))(0.5)], ids=["grad", "jvp", "vjp", "jit-grad", "grad-jit"])
def test_pure_callback_refuses_differentiation_naming_the_fix(transform):
    with pytest.raises(TypeError, match="cannot be differentiated.*custom_jvp"):
        transform(sin_cb)


def test_pure_callback_on_a_tensor_that_requires_grad_refuses_rather_than_cut_its_graph():
    """A Tensor was flattened to its value: the result was a plain array and the loss
    built on it had no gradient for w (silently); under jit compiling failed."""
    w = fg.tensor([0.5, 1.0], dtype=fg.float64, requires_grad=True)
    host = lambda a: np.sin(np.asarray(a))  # noqa: E731
    with pytest.raises(TypeError, match="cannot be differentiated.*detach"):
        fg.pure_callback(host, w, w)
    with pytest.raises(TypeError, match="cannot be differentiated"):
        fg.jit(lambda x: fg.pure_callback(host, x, w * x), wait=True)(np.ones(2))
    with fg.no_grad():
        out = fg.pure_callback(host, w, w)
    assert isinstance(out, fg.Tensor) and out.tolist() == np.sin([0.5, 1.0]).tolist()
    out = fg.pure_callback(host, w, w.detach())
    assert isinstance(out, fg.Tensor) and not out.requires_grad

    @fg.custom_vjp  # the fix the error names: the derivative given, on the Tensor's graph
    def f(x):
        return fg.pure_callback(host, x, x)
    f.defvjp(lambda x: (f(x), x), lambda x, g: (g * fg.pure_callback(np.cos, x, x),))
    f(w).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), np.cos([0.5, 1.0]), rtol=1e-15)


def test_pure_callback_is_a_constant_to_transforms_when_its_inputs_are():
    g = fg.grad(lambda x: x * sin_cb(fg.stop_gradient(x)))(0.5)
    assert g == pytest.approx(np.sin(0.5))


def test_pure_callback_inside_custom_jvp_differentiates():
    @fg.custom_jvp
    def f(x):
        return sin_cb(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), fg.pure_callback(np.cos, x, x, vmap_method="sequential") * t
    xs = np.array([0.0, 0.5, 1.0])
    np.testing.assert_allclose(fg.vmap(fg.grad(f))(xs), np.cos(xs))
    assert fg.jvp(f, (0.5,), (2.0,))[1] == pytest.approx(2 * np.cos(0.5))
    np.testing.assert_allclose(fg.make_graph(fg.grad(lambda v: fnp.sum(f(v))))(xs)(xs),
                               np.cos(xs))


# --- closure_convert and custom_gradient ----------------------------------------------------------

def test_closure_convert_hoists_the_traced_values_a_function_captures():
    def outer(w):
        f, consts = fg.closure_convert(lambda x: fnp.sin(w * x), 1.0)
        return f, consts

    f, consts = outer(2.0)
    assert consts == [] and f(0.25) == pytest.approx(np.sin(0.5))

    def loss(w):
        f, consts = outer(w)
        assert len(consts) == 1
        return f(0.25, *consts)
    assert fg.grad(loss)(2.0) == pytest.approx(0.25 * np.cos(0.5))


def test_closure_convert_lets_a_custom_vjp_reach_captured_weights():
    """A custom_vjp may not capture traced values; converted, the weight is an argument
    and receives its derivative."""
    @fg.custom_vjp
    def apply(x, w):
        return w * x

    apply.defvjp(lambda x, w: (w * x, (x, w)), lambda res, g: (g * res[1], g * res[0]))

    def loss(w):
        f, consts = fg.closure_convert(lambda x: apply(x, w), 3.0)
        return f(3.0, *consts)
    assert fg.grad(loss)(2.0) == pytest.approx(3.0)


def test_custom_gradient_uses_the_returned_vjp():
    @fg.custom_gradient
    def scaled_product(x, y):
        return x * y, lambda g: (10.0 * g * y, g * x)   # a deliberately "wrong" d/dx

    assert scaled_product(2.0, 3.0) == 6.0
    gx, gy = fg.grad(scaled_product, argnums=(0, 1))(2.0, 3.0)
    assert (gx, gy) == (30.0, 2.0)
    np.testing.assert_allclose(fg.vmap(fg.grad(scaled_product))(np.arange(3.0), np.ones(3)),
                               10.0 * np.ones(3))
    assert fg.make_graph(fg.grad(scaled_product))(2.0, 3.0)(2.0, 3.0) == 30.0


def test_custom_gradient_of_one_argument_may_return_a_bare_cotangent():
    @fg.custom_gradient
    def clip_gradient(x):
        return x, lambda g: fnp.clip(g, -1.0, 1.0)

    assert fg.grad(lambda x: 5.0 * clip_gradient(x))(2.0) == 1.0
    # second order through a VJP written with funcgrad operations
    @fg.custom_gradient
    def cube(x):
        return x ** 3, lambda g: (3.0 * x ** 2 * g,)
    assert fg.grad(fg.grad(cube))(2.0) == pytest.approx(12.0)


def test_custom_gradient_errors_name_the_problem():
    bad = fg.custom_gradient(lambda x: x * 2.0)
    with pytest.raises(TypeError, match=r"pair \(value, vjp_fn\)"):
        bad(1.0)
    good = fg.custom_gradient(lambda x: (x * 2.0, lambda g: (2.0 * g,)))
    with pytest.raises(TypeError, match="forward-mode"):
        fg.jvp(good, (1.0,), (1.0,))


# --- integer inputs: float0 -----------------------------------------------------------------------

def test_float0_is_jaxs_dtype():
    # (jax/_src/dtypes.py defines float0 so; importing JAX here would cost seconds)
    assert fg.dtypes.float0 == np.dtype([("float0", np.void, 0)])
    assert fg.dtypes.float0.itemsize == 0


def test_grad_with_allow_int_gives_float0_zeros_for_integer_inputs():
    gx, gn = fg.grad(lambda x, n: x ** n, argnums=(0, 1), allow_int=True)(2.0, 3)
    assert gx == 12.0
    assert gn.dtype == fg.dtypes.float0 and gn.shape == ()
    value, g = fg.value_and_grad(lambda p: fnp.sum(p["w"] * p["idx"]), allow_int=True)(
        {"w": np.ones(3), "idx": np.arange(3)})
    assert value == 3.0
    np.testing.assert_allclose(g["w"], [0.0, 1.0, 2.0])
    assert g["idx"].dtype == fg.dtypes.float0 and g["idx"].shape == (3,)
    with pytest.raises(TypeError, match=r"argument 1 .*integer"):
        fg.grad(lambda x, n: x ** n, argnums=(0, 1))(2.0, 3)


def test_vjp_takes_integer_primals_and_integer_outputs():
    out, vjp_fn = fg.vjp(lambda x, n: (x * n, n * 2), np.ones(3), np.arange(3))
    np.testing.assert_array_equal(out[1], [0, 2, 4])
    for int_ct in (np.zeros(3, fg.dtypes.float0), np.zeros(3, int)):
        gx, gn = vjp_fn((np.ones(3), int_ct))
        np.testing.assert_allclose(gx, [0.0, 1.0, 2.0])
        assert gn.dtype == fg.dtypes.float0 and gn.shape == (3,)
    with pytest.raises(ValueError, match="shape"):
        vjp_fn((np.ones(3), np.zeros(2, fg.dtypes.float0)))



F0 = fg.dtypes.float0


def test_jvp_takes_integer_primals_with_float0_tangents_as_jax():
    """jax.jvp's convention (checked against JAX 0.10): an integer or boolean primal is
    held fixed and takes a float0 tangent; an integer or boolean output has a float0
    tangent; any other tangent for an integer primal, or float0 for a float one, is an
    error naming the fix.  (jvp refused integer primals outright before.)"""
    (y, m), (ty, tm) = fg.jvp(lambda x, n: (x * n, n * 2), (2.0, np.arange(3)),
                              (1.0, np.zeros(3, F0)))
    np.testing.assert_array_equal(y, [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(ty, [0.0, 1.0, 2.0])  # d(x n)/dx = n
    np.testing.assert_array_equal(m, [0, 2, 4])
    assert tm.dtype == F0 and tm.shape == (3,)
    _, (tb, tf) = fg.jvp(lambda x: (x > 0, np.floor(x).astype(int)), (np.ones(2),),
                         (np.ones(2),))
    assert tb.dtype == F0 and tf.dtype == F0 and tb.shape == tf.shape == (2,)
    _, t = fg.jvp(lambda x, n: x ** n, (2.0, 3), (1.0, np.zeros((), F0)))  # a Python int
    assert t == 12.0
    _, t = fg.jvp(lambda b, x: np.where(b, x, 2 * x), (np.array([True, False]), np.ones(2)),
                  (np.zeros(2, F0), np.ones(2)))
    np.testing.assert_array_equal(t, [1.0, 2.0])
    for tangent in (np.zeros(3, int), np.zeros(3)):
        with pytest.raises(TypeError, match=r"primal 0 is an integer.*fg\.dtypes\.float0"):
            fg.jvp(lambda n: n * 2, (np.arange(3),), (tangent,))
    with pytest.raises(TypeError, match="tangent 0 has dtype float0.*Pass a float tangent"):
        fg.jvp(lambda x: x * 2, (np.ones(3),), (np.zeros(3, F0),))
    with pytest.raises(ValueError, match="shape"):
        fg.jvp(lambda n: n * 2, (np.arange(3),), (np.zeros(2, F0),))


def test_linearize_takes_integer_primals_with_float0_tangents():
    y, f_jvp = fg.linearize(lambda x, n: (x * n, n + 1), np.ones(2), np.array([3, 4]))
    np.testing.assert_array_equal(y[1], [4, 5])
    t, tn = f_jvp(np.array([1.0, 2.0]), np.zeros(2, F0))
    np.testing.assert_array_equal(t, [3.0, 8.0])
    assert tn.dtype == F0 and tn.shape == (2,)
    with pytest.raises(TypeError, match="primal 1 is an integer"):
        f_jvp(np.ones(2), np.zeros(2))


def test_linearize_with_has_aux_returns_the_aux_as_plain_values():
    x = np.array([1.0, 2.0])
    y, f_jvp, aux = fg.linearize(lambda a: (np.sin(a), {"c": np.cos(a), "tag": "t"}), x,
                                 has_aux=True)
    np.testing.assert_allclose(y, np.sin(x))
    np.testing.assert_allclose(f_jvp(np.array([1.0, -1.0])), np.cos(x) * [1.0, -1.0])
    assert type(aux["c"]) is np.ndarray and aux["tag"] == "t"
    np.testing.assert_allclose(aux["c"], np.cos(x))

    def running(a):  # an aux computed from a scan's carry (staged in linearize's graph)
        carry, products = lax.scan(lambda c, v: (c + v, c * v), 0.0, a)
        return products, 2.0 * carry
    ys, f_jvp, aux = fg.linearize(running, x, has_aux=True)
    np.testing.assert_allclose(ys, [0.0, 1.0 * 2.0])
    np.testing.assert_allclose(f_jvp(np.ones(2)), [0.0, 1.0 + 2.0])  # d(c v) = v dc + c dv
    assert float(aux) == 6.0 and not isinstance(aux, fg.core.Tracer)
    with pytest.raises(TypeError, match="has_aux=True.*pair"):
        fg.linearize(np.sin, x, has_aux=True)


def test_float0_tangents_and_gradients_stack_under_vmap():
    """vmap stacks the float0 derivatives of integers (it refused them as non-numeric)."""
    gx, gn = fg.vmap(fg.grad(lambda x, n: x * n, argnums=(0, 1), allow_int=True))(
        np.arange(3.0), np.arange(3))
    np.testing.assert_array_equal(gx, [0.0, 1.0, 2.0])
    assert gn.dtype == F0 and gn.shape == (3,)
    _, (t, tn) = fg.vmap(lambda x: fg.jvp(lambda a: (a * 2, np.floor(a).astype(int)),
                                          (x,), (1.0,)))(np.arange(3.0))
    np.testing.assert_array_equal(t, [2.0, 2.0, 2.0])
    assert tn.dtype == F0 and tn.shape == (3,)


@pytest.mark.parametrize("jac", [fg.jacfwd, fg.jacrev, fg.jacobian, fg.hessian])
def test_jacobians_of_integer_inputs_raise_pointing_to_argnums_jvp_and_vjp(jac):
    """As JAX's jacfwd/jacrev (which say to use jvp, or vjp, or allow_int for jacrev): an
    integer input has no Jacobian, and the message says how to hold it fixed or which
    transforms take it."""
    other = (r"allow_int=True" if jac in (fg.jacrev, fg.jacobian) else r"fg\.jvp / fg\.vjp")
    with pytest.raises(TypeError, match=r"integer.*leave it out of argnums.*" + other):
        jac(lambda x, n: x * n, argnums=(0, 1))(np.ones(2), np.arange(2))
    held = (lambda x, n: np.sum(x ** 2 * n)) if jac is fg.hessian else (lambda x, n: x * n)
    expected = 6.0 * np.eye(2) if jac is fg.hessian else 3.0 * np.eye(2)
    np.testing.assert_array_equal(jac(held)(np.ones(2), 3), expected)  # n held fixed


@pytest.mark.parametrize("jac", [fg.jacrev, fg.jacobian])
def test_jacrev_with_allow_int_gives_float0_blocks_for_integer_inputs(jac):
    """JAX's jacrev(allow_int=True): an integer or boolean input is held fixed and its
    block, of shape out.shape + in.shape, is float0 (JAX 0.10 documents float0; grad
    gives it too); the float blocks are the Jacobian as without the integer input."""
    x, n = np.array([1.0, 2.0]), np.array([3, 4])
    jx, (jn, jflag) = jac(lambda x, p: x * p[0], argnums=(0, 1), allow_int=True)(x, (n, True))
    np.testing.assert_array_equal(jx, np.diag(n.astype(float)))  # d(x * n)/dx
    assert jn.dtype == F0 and jn.shape == (2, 2)
    assert jflag.dtype == F0 and jflag.shape == (2,)
    jb = jac(lambda x, p: fnp.sum(x) * p[1], argnums=(0, 1), allow_int=True)(x, (n, True))
    np.testing.assert_array_equal(jb[0], [1.0, 1.0])
    assert jb[1][0].dtype == F0 and jb[1][0].shape == n.shape
    for f in (fg.jit(jac(lambda x, n: x * n, (0, 1), allow_int=True)),
              jac(lambda x, n: x * n, (0, 1), allow_int=True, chunk_size=1)):
        jx, jn = f(x, n)
        np.testing.assert_array_equal(jx, np.diag(n.astype(float)))
        assert jn.dtype == F0 and jn.shape == (2, 2)
    assert fg.jacrev(lambda x, n: x * n, 1, allow_int=True)(np.ones(2), 3).shape == (2,)
    with pytest.raises(TypeError, match="allow_int=True"):
        fg.jacrev(lambda x, n: x * n, (0, 1))(np.ones(2), np.arange(2))
    # fg.jacobian too (JAX's jacobian is its jacrev); "auto" would take forward mode here
    jx, jn = fg.jacobian(lambda x, n: np.outer(x, n), (0, 1), allow_int=True)(
        np.ones(1), np.array([2, 3]))
    np.testing.assert_array_equal(jx, [[[2.0], [3.0]]])  # d outer(x, n)[0, j] / dx[0] = n[j]
    assert jn.shape == (1, 2, 2) and jn.dtype == F0


def test_jacobian_with_allow_int_refuses_the_forward_route_it_cannot_take():
    with pytest.raises(ValueError, match="strategy='reverse-mode'"):
        fg.jacobian(lambda x, n: x * n, (0, 1), strategy="forward-mode", allow_int=True)(
            np.ones(2), np.arange(2))


# --- vmap(axis_name=...) and the collectives of fg.lax ------------------------------------------

XS = np.array([1.0, 2.0, 3.0])
lax = fg.lax


def named(f, **kw):
    return fg.vmap(f, axis_name="i", **kw)


def test_collectives_combine_the_examples_of_a_named_vmap():
    np.testing.assert_allclose(named(lambda x: x / lax.psum(x, "i"))(XS), XS / 6.0)
    np.testing.assert_allclose(named(lambda x: x - lax.pmean(x, "i"))(XS), XS - 2.0)
    np.testing.assert_allclose(named(lambda x: lax.pmax(x, "i"))(XS), [3.0] * 3)
    np.testing.assert_allclose(named(lambda x: lax.pmin(x, "i"))(XS), [1.0] * 3)
    np.testing.assert_array_equal(named(lambda x: lax.axis_index("i"))(XS), [0, 1, 2])
    assert named(lambda x: lax.axis_index("i"))(XS).dtype == np.int32  # (JAX's)
    # a value every example shares: the sum is axis_size copies of it
    np.testing.assert_allclose(named(lambda x: x * lax.psum(1.0, "i"))(XS), 3 * XS)
    out = named(lambda x: lax.psum({"a": x, "b": (2 * x,)}, "i"))(XS)
    np.testing.assert_allclose(out["a"], [6.0] * 3)
    np.testing.assert_allclose(out["b"][0], [12.0] * 3)
    # along another axis of the arguments, and over integers (pmean of them is float)
    m = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(named(lambda c: c / lax.psum(c, "i"), in_axes=1, out_axes=1)(m),
                               m / m.sum(axis=1, keepdims=True))
    np.testing.assert_array_equal(named(lambda n: lax.psum(n, "i"))(np.arange(3)), [3] * 3)
    np.testing.assert_allclose(named(lambda n: lax.pmean(n, "i"))(np.arange(3)), [1.0] * 3)


def test_vmap_takes_jaxs_spmd_axis_name_and_computes_the_same():
    # (it names a device mesh axis in JAX; funcgrad has one device, so nothing changes)
    m = np.arange(6.0).reshape(2, 3)
    out = fg.vmap(lambda r: r / lax.psum(r, "i"), axis_name="i", spmd_axis_name="data")(m)
    np.testing.assert_allclose(out, m / m.sum(axis=0))
    np.testing.assert_allclose(fg.vmap(np.sin, spmd_axis_name=("x", "y"))(m), np.sin(m))


def test_nested_named_vmaps_reduce_over_the_named_axes():
    m = np.arange(6.0).reshape(2, 3)
    inner = lambda f: fg.vmap(f, axis_name="j")  # noqa: E731
    np.testing.assert_allclose(named(inner(lambda x: lax.psum(x, "i")))(m),
                               np.broadcast_to(m.sum(0), m.shape))
    np.testing.assert_allclose(named(inner(lambda x: lax.psum(x, "j")))(m),
                               np.broadcast_to(m.sum(1, keepdims=True), m.shape))
    np.testing.assert_allclose(named(inner(lambda x: lax.psum(x, ("i", "j"))))(m),
                               np.full(m.shape, m.sum()))
    np.testing.assert_array_equal(named(inner(lambda x: lax.axis_index(("i", "j"))))(m),
                                  np.arange(6).reshape(2, 3))


def test_gradients_through_collectives_are_jaxs():
    """Values from jax.vmap(jax.grad(f), axis_name="i"): the transpose of psum is psum, so
    each example gets the derivative of the sum of all examples' outputs."""
    n = len(XS)
    np.testing.assert_allclose(named(fg.grad(lambda x: lax.psum(x ** 2, "i")))(XS), n * 2 * XS)
    f = lambda x: x * lax.psum(x, "i")  # noqa: E731
    np.testing.assert_allclose(named(fg.grad(f))(XS), [12.0] * 3)  # sum(x) + sum(x)
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(named(f)(v)))(XS), [12.0] * 3)
    np.testing.assert_allclose(named(fg.grad(lambda x: lax.pmean(x ** 2, "i")))(XS), 2 * XS)
    np.testing.assert_allclose(named(lambda x: fg.vjp(lambda y: lax.psum(y, "i"), x)[1](1.0)[0])(
        XS), [3.0] * 3)
    np.testing.assert_allclose(named(lambda x: fg.jvp(f, (x,), (1.0,))[1])(XS), 6.0 + 3 * XS)
    np.testing.assert_allclose(named(fg.hessian(lambda x: lax.psum(x ** 3, "i")))(XS),
                               n * 6 * XS)


def test_pmax_derivative_goes_to_the_maximum_from_either_side():
    """(JAX has no derivative for pmax; funcgrad's is max's: ties share it.)"""
    x = np.array([1.0, 3.0, 2.0])
    f = lambda v: v * lax.pmax(v, "i")  # noqa: E731
    expected = [3.0, 3.0 + x.sum(), 3.0]
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(named(f)(v)))(x), expected)
    np.testing.assert_allclose(named(fg.grad(f))(x), expected)
    tie = np.array([2.0, 2.0, 1.0])
    np.testing.assert_allclose(named(fg.grad(lambda v: lax.pmax(v, "i")))(tie),
                               [1.5, 1.5, 0.0])  # 3 examples' outputs, the tie shares
    np.testing.assert_allclose(named(fg.grad(lambda v: lax.pmin(v, "i")))(x), [3.0, 0.0, 0.0])


def test_one_hot_along_a_named_axis_is_jaxs():
    np.testing.assert_array_equal(
        named(lambda k: fg.nn.one_hot(k, 3, axis="i"))(np.array([0, 2, 1])), [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="size of the vmap axis"):
        named(lambda k: fg.nn.one_hot(k, 4, axis="i"))(np.array([0, 2, 1]))


def test_collectives_under_jit_of_the_named_vmap():
    np.testing.assert_allclose(fg.make_graph(named(lambda x: x / lax.psum(x, "i")))(XS)(XS),
                               XS / 6.0)


def test_collective_errors_name_the_problem_and_the_fix():
    with pytest.raises(NameError, match="unbound axis name: 'i'.*axis_name='i'"):
        lax.psum(1.0, "i")
    with pytest.raises(NameError, match="unbound axis name: 'k'"):
        named(lambda x: lax.pmean(x, "k"))(XS)
    f = fg.jit(lambda x: lax.pmean(x, "i"))
    named(f)(XS)  # (traced inside the vmap: the trace outside it is another one)
    with pytest.raises(NameError, match="unbound axis name: 'i'"):
        f(XS)


XS2 = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])


def _loop(c, steps, step):
    for _ in range(steps):
        c = step(c)
    return c


@pytest.mark.parametrize("f, want", [
    (fg.jit(lambda x: lax.psum(x, "i")), np.broadcast_to(XS2.sum(0), XS2.shape)),
    (fg.jit(lambda x: x - lax.pmean(x, "i")), XS2 - XS2.mean(0)),
    (fg.jit(lambda x: x * lax.axis_index("i")), XS2 * np.arange(3.0)[:, None]),
    (fg.jit(lambda x: lax.pmax(x, "i")), np.broadcast_to(XS2.max(0), XS2.shape)),
    (lambda x: lax.scan(lambda c, xi: (c + lax.psum(xi, "i"), c), 0.0, x)[1],
     np.tile([0.0, XS2[:, 0].sum()], (3, 1))),  # (the carry before each step)
    (lambda x: lax.fori_loop(0, 3, lambda k, c: c + lax.psum(c * x, "i"), x),
     _loop(XS2, 3, lambda c: c + (c * XS2).sum(0))),
    (lambda x: lax.cond(x[0] > 2, lambda v: lax.psum(v, "i"), lambda v: v * 2.0, x),
     np.where(XS2[:, :1] > 2, XS2.sum(0), 2.0 * XS2)),  # (each example takes its branch)
    (lambda x: lax.while_loop(lambda c: c[1] < 3,
                              lambda c: (c[0] + lax.psum(c[0], "i"), c[1] + 1), (x, 0))[0],
     _loop(XS2, 3, lambda c: c + c.sum(0))),
    (fg.jit(lambda x: lax.scan(lambda c, xi: (c + lax.psum(xi, "i"), c), 0.0, x)[0]),
     np.full(3, XS2.sum())),
], ids=["jit-psum", "jit-pmean", "jit-axis_index", "jit-pmax", "scan", "fori_loop", "cond",
        "while_loop", "jit-of-scan"])
def test_collectives_inside_jit_and_loop_bodies_combine_the_named_vmaps_examples(f, want):
    """As jax.vmap(f, axis_name="i") with jax.lax.psum inside jax.jit or a lax.scan,
    fori_loop, cond or while_loop body (they were refused): the traced graph is batched
    along the named axis, its collective over all the examples."""
    np.testing.assert_allclose(named(f)(XS2), want, rtol=1e-12)


def test_derivatives_of_collectives_inside_jit_and_scan_within_a_named_vmap():
    # every example's output is the psum of all: d/dx_k of their sum is 3 * 2 x_k
    for f in (fg.jit(lambda x: np.sum(lax.psum(x ** 2, "i"))),
              lambda x: lax.scan(lambda c, xi: (c + lax.psum(xi ** 2, "i"), c), 0.0, x)[0]):
        np.testing.assert_allclose(named(fg.grad(f))(XS2), 6.0 * XS2, rtol=1e-12)
        np.testing.assert_allclose(named(fg.jit(fg.grad(f)))(XS2), 6.0 * XS2, rtol=1e-12)
    tangents = named(lambda x: fg.jvp(fg.jit(lambda v: lax.psum(v * v, "i")), (x,),
                                      (np.ones(2),))[1])(XS2)
    np.testing.assert_allclose(tangents, np.broadcast_to(2.0 * XS2.sum(0), XS2.shape))


def test_all_gather_psum_scatter_and_ppermute_move_values_between_examples():
    # (audit: missing) values as jax.vmap(f, axis_name="i") gives them
    gathered = named(lambda x: lax.all_gather(x, "i"))(XS2)
    np.testing.assert_array_equal(gathered, np.broadcast_to(XS2, (3, 3, 2)))
    np.testing.assert_array_equal(named(lambda x: lax.all_gather(x, "i", axis=1))(XS2),
                                  np.broadcast_to(XS2.T, (3, 2, 3)))
    np.testing.assert_array_equal(named(lambda x: lax.all_gather(x, "i", tiled=True))(XS2),
                                  np.broadcast_to(XS2.reshape(-1), (3, 6)))
    np.testing.assert_array_equal(named(lambda x: lax.all_gather(2.0, "i") * x[0])(XS2),
                                  2.0 * XS2[:, :1] * np.ones((3, 3)))  # (a shared operand)
    m = np.arange(18.0).reshape(3, 2, 3)  # example k, row r, column c
    np.testing.assert_array_equal(named(lambda x: lax.psum_scatter(x, "i", scatter_dimension=1))(
        m), m.sum(0).T)  # example k gets column k of the sum
    np.testing.assert_array_equal(named(lambda x: lax.psum_scatter(x.reshape(-1), "i",
                                                                   tiled=True))(m),
                                  m.sum(0).reshape(3, 2))
    shift = [(0, 1), (1, 2), (2, 0)]
    np.testing.assert_array_equal(named(lambda x: lax.ppermute(x, "i", shift))(XS2),
                                  XS2[[2, 0, 1]])
    # an example no pair sends to gets zeros
    np.testing.assert_array_equal(named(lambda x: lax.ppermute(x, "i", [(0, 2)]))(XS2),
                                  [[0.0, 0.0], [0.0, 0.0], [1.0, 2.0]])
    with pytest.raises(ValueError, match="twice"):
        named(lambda x: lax.ppermute(x, "i", [(0, 1), (2, 1)]))(XS2)
    with pytest.raises(ValueError, match="scatter dimension 0 .* axis size 3"):
        named(lambda x: lax.psum_scatter(x, "i"))(XS2)
    with pytest.raises(NameError, match="unbound axis name"):
        lax.all_gather(XS, "i")


def test_gradients_of_all_gather_psum_scatter_and_ppermute_are_their_transposes():
    """Values from jax.vmap(jax.grad(f), axis_name="i") and jax.grad(jax.vmap(f)): the
    transpose of all_gather is psum_scatter and back, of ppermute the inverse ppermute."""
    w = np.array([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0]])  # one weight row per gathered example
    # each example's loss sum(w * all_gather(x)): d/dx_k sums every example's w[k]
    want = 3 * w
    np.testing.assert_allclose(named(fg.grad(lambda x: fnp.sum(w * lax.all_gather(x, "i"))))(
        XS2), want)
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(named(
        lambda x: w * lax.all_gather(x, "i"))(v)))(XS2), want)
    # psum_scatter: example k gets column k of the sum, weighted by u[k]
    u = np.array([1.0, -1.0, 2.0])
    m = np.arange(6.0).reshape(2, 3) / 7.0
    g = named(fg.grad(lambda x, uk: fnp.sum(uk * lax.psum_scatter(x, "i", scatter_dimension=1))
                      ))(np.stack([m, m, m]), u)
    np.testing.assert_allclose(g, np.broadcast_to(u, (3, 2, 3)))
    # ppermute by a shift: the derivative comes back by the inverse shift
    shift = [(0, 1), (1, 2), (2, 0)]
    g = named(fg.grad(lambda x, wk: fnp.sum(wk * lax.ppermute(x, "i", shift) ** 2)))(XS2, w)
    np.testing.assert_allclose(g, 2 * XS2 * w[[1, 2, 0]])
    # inside jit and a scan body too, and forward mode
    f = lambda x: fnp.sum(w * lax.all_gather(x, "i") ** 2)  # noqa: E731
    np.testing.assert_allclose(named(fg.jit(fg.grad(f)))(XS2), 3 * 2 * w * XS2)
    np.testing.assert_allclose(named(fg.grad(lambda x: lax.scan(
        lambda c, r: (c + f(r), None), 0.0, x[None])[0]))(XS2), 3 * 2 * w * XS2)
    tangent = named(lambda x: fg.jvp(lambda v: lax.ppermute(v, "i", shift), (x,),
                                     (np.ones(2) * x[0],))[1])(XS2)
    np.testing.assert_allclose(tangent, np.broadcast_to(XS2[[2, 0, 1], :1], (3, 2)))


def _exchanged(xs, split, concat, tiled=False):
    """all_to_all by its definition: example i receives piece i of every example's value
    along ``split`` and joins them, in the senders' order, along ``concat``."""
    n = len(xs)
    if tiled:
        return np.stack([np.concatenate([np.split(x, n, axis=split)[i] for x in xs], concat)
                         for i in range(n)])
    return np.stack([np.stack([np.take(x, i, axis=split) for x in xs], concat)
                     for i in range(n)])


@pytest.mark.parametrize("split, concat, tiled", [
    (0, 0, False), (0, 1, False), (1, 0, False), (1, 1, False), (0, 1, True), (1, 0, True),
    (1, 1, True)])
def test_all_to_all_exchanges_pieces_and_its_derivative_sends_them_back(split, concat, tiled):
    """(audit: missing) values and derivatives of jax.vmap(f, axis_name="i") with
    jax.lax.all_to_all: a permutation of the batch's entries, so the gradient of a loss
    of it is the loss's gradient sent back by the inverse permutation."""
    rng = np.random.default_rng(3)
    shape = [3, 3] if not tiled else [6, 6]
    xs = rng.normal(size=[3] + shape)
    f = lambda x: lax.all_to_all(x, "i", split, concat, tiled=tiled)  # noqa: E731
    want = _exchanged(xs, split, concat, tiled)
    np.testing.assert_array_equal(named(f)(xs), want)
    np.testing.assert_array_equal(named(fg.jit(f))(xs), want)
    w = rng.normal(size=want.shape)
    where = _exchanged(np.arange(xs.size).reshape(xs.shape), split, concat, tiled)
    grad = np.zeros(xs.size)
    np.add.at(grad, where.reshape(-1), (2 * w * want).reshape(-1))
    grad = grad.reshape(xs.shape)
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(w * named(f)(v) ** 2))(xs), grad,
                               rtol=1e-12)
    # inside the vmap: each example's derivative of the loss of all (JAX's transpose)
    np.testing.assert_allclose(named(fg.grad(lambda x, wk: fnp.sum(wk * f(x) ** 2)))(xs, w),
                               grad, rtol=1e-12)
    tangent = named(lambda x: fg.jvp(f, (x,), (2.0 * x,))[1])(xs)
    np.testing.assert_allclose(tangent, 2.0 * want, rtol=1e-15)


def test_pswapaxes_swaps_the_named_axis_with_a_positional_one():
    """jax.lax.pswapaxes (all_to_all along one axis): over the whole batch, the batch
    axis and axis 1 + axis trade places; a shared operand is every example's value."""
    xs = np.arange(27.0).reshape(3, 3, 3)
    for axis in (0, 1, -1):
        np.testing.assert_array_equal(named(lambda x: lax.pswapaxes(x, "i", axis))(xs),
                                      np.swapaxes(xs, 0, 1 + axis % 2))
    shared = named(lambda x: lax.pswapaxes(XS, "i", 0) + 0.0 * x)(XS)
    np.testing.assert_array_equal(shared, np.broadcast_to(XS[:, None], (3, 3)))
    with pytest.raises(ValueError, match="split dimension 0 .* axis size 3"):
        named(lambda x: lax.pswapaxes(x, "i", 0))(XS2)


def test_a_jitted_collective_retraces_for_another_named_vmap():
    """The trace depends on the named vmaps around the call (JAX keys on its axis
    environment): another size, another name, another nesting, another trace."""
    f = fg.jit(lambda x: x - lax.pmean(x, "i"))
    np.testing.assert_allclose(named(f)(XS2), XS2 - XS2.mean(0))
    np.testing.assert_allclose(named(f)(XS2[:2]), XS2[:2] - XS2[:2].mean(0))
    g = fg.jit(lambda x: lax.psum(x, "i"))
    inner_unnamed = named(lambda r: fg.vmap(g)(r))(XS2)  # the unnamed vmap maps g per row
    np.testing.assert_allclose(inner_unnamed, np.broadcast_to(XS2.sum(0), XS2.shape))
    np.testing.assert_allclose(named(g)(XS2), np.broadcast_to(XS2.sum(0), XS2.shape))
    both = fg.vmap(fg.vmap(fg.jit(lambda x: lax.psum(x, ("i", "j"))), axis_name="j"),
                   axis_name="i")(XS2)
    np.testing.assert_allclose(both, np.full(XS2.shape, XS2.sum()))


# --- debug.print and debug.callback ---------------------------------------------------------

def test_debug_print_shows_primal_values_under_grad_jvp_and_hessian(capsys):
    def f(x):
        fg.debug.print("x={} n={n}", x, n=2)
        return np.sum(x ** 3)
    x = np.array([1.0, 2.0])
    np.testing.assert_allclose(fg.grad(f)(x), 3 * x ** 2)  # (the value is unchanged)
    fg.jvp(f, (x,), (np.ones(2),))
    fg.hessian(f)(x)
    assert capsys.readouterr().out == "x=[1. 2.] n=2\n" * 3


def test_debug_callback_runs_once_per_example_under_vmap_in_jaxs_order():
    seen = []
    m = np.arange(4.0).reshape(2, 2)
    out = fg.vmap(fg.vmap(lambda x: fg.debug.callback(seen.append, x) or x * 2))(m)
    np.testing.assert_array_equal(out, 2 * m)
    # the inner vmap's examples first (as JAX prints them)
    assert [float(v) for v in seen] == [0.0, 2.0, 1.0, 3.0]
    assert all(type(v) is np.ndarray for v in seen)
    seen.clear()
    fg.vmap(lambda c, w: fg.debug.callback(lambda a, b: seen.append((a, b)), c, w),
            in_axes=(1, None))(m, 5.0)
    np.testing.assert_array_equal([a for a, _ in seen], [[0.0, 2.0], [1.0, 3.0]])
    assert [float(b) for _, b in seen] == [5.0, 5.0]
    seen.clear()
    fg.vmap(fg.grad(lambda x: (fg.debug.callback(seen.append, x), x ** 2)[1]))(np.arange(2.0))
    assert [float(v) for v in seen] == [0.0, 1.0]


def test_jit_of_a_function_calling_debug_callback_calls_it_on_each_calls_values():
    # (it ran the function as Python, with a warning) compiled, the callback an equation
    # of the graph: every call's values, in order, as JAX prints them at run time
    seen = []
    f = fg.jit(lambda x: fg.debug.callback(seen.append, x) or x + 1.0, wait=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(f(np.ones(2)), [2.0, 2.0])
        np.testing.assert_array_equal(f(np.zeros(2)), [1.0, 1.0])
    np.testing.assert_array_equal(fg.grad(lambda x: np.sum(f(x)))(np.ones(2)), [1.0, 1.0])
    np.testing.assert_array_equal(fg.vmap(f)(np.array([5.0, 6.0])), [6.0, 7.0])
    assert [v.tolist() for v in seen] == [[1.0, 1.0], [0.0, 0.0], [1.0, 1.0], 5.0, 6.0]
    # two prints of one value both print (not merged as equal computations)
    seen.clear()
    fg.jit(lambda x: (fg.debug.callback(seen.append, x), fg.debug.callback(seen.append, x),
                      x)[2])(3.0)
    assert [float(v) for v in seen] == [3.0, 3.0]


def test_debug_print_in_loop_bodies_and_graphs_prints_each_iteration_as_jax(capsys):
    """The lines jax.debug.print gives (checked against JAX): once per iteration at run
    time, with that iteration's values; under vmap once per example; under grad the
    forward values once (the backward pass recomputes steps without printing again)."""
    def body(c, x):
        fg.debug.print("c={c}", c=c)
        return c * x, c
    xs = np.array([1.0, 2.0, 3.0])
    for run in (lambda: fg.lax.scan(body, 2.0, xs),
                lambda: fg.jit(lambda v: fg.lax.scan(body, 2.0, v), wait=True)(xs),
                lambda: fg.grad(lambda c: fg.lax.scan(body, c, xs)[0])(2.0),
                lambda: fg.jit(fg.grad(lambda c: fg.lax.scan(body, c, xs)[0]))(2.0)):
        run()
        assert capsys.readouterr().out == "c=2.0\nc=2.0\nc=4.0\n"
    out = fg.vmap(lambda c: fg.lax.scan(body, c, xs)[0])(np.array([1.0, 2.0]))
    np.testing.assert_array_equal(out, [6.0, 12.0])
    assert capsys.readouterr().out == "c=1.0\nc=2.0\nc=1.0\nc=2.0\nc=2.0\nc=4.0\n"
    fg.lax.fori_loop(0, 3, lambda i, c: (fg.debug.print("i={} c={}", i, c), c + i)[1], 0)
    assert capsys.readouterr().out == "i=0 c=0\ni=1 c=0\ni=2 c=1\n"
    assert fg.lax.while_loop(lambda c: c < 10, lambda c: (fg.debug.print("w={}", c),
                                                         c * 2)[1], 1.5) == 12.0
    assert capsys.readouterr().out == "w=1.5\nw=3.0\nw=6.0\n"
    branch = lambda v: fg.lax.cond(v > 0, lambda u: (fg.debug.print("pos {}", u), u * u)[1],  # noqa: E731
                                   lambda u: (fg.debug.print("neg {}", u), -u)[1], v)
    assert fg.grad(branch)(3.0) == 6.0 and fg.jit(branch)(-3.0) == 3.0
    assert capsys.readouterr().out == "pos 3.0\nneg -3.0\n"
    # make_graph: an equation, run each time the graph is
    graph = fg.make_graph(lambda x: (fg.debug.print("g {}", x), x * 2)[1])(1.0)
    assert "debug_callback" in str(graph) and capsys.readouterr().out == ""
    assert graph(5.0) == 10.0 and capsys.readouterr().out == "g 5.0\n"


def test_debug_print_takes_a_format_string():
    with pytest.raises(TypeError, match="format string"):
        fg.debug.print(np.ones(2))


"""The top-level names a JAX user reaches for: linear_transpose, disable_jit,
block_until_ready, remat, pure_callback, closure_convert, custom_gradient,
named_call/named_scope, clear_caches, and integer inputs to grad/vjp (float0)."""
import threading

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

A = np.arange(6.0).reshape(3, 2) - 2.0


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

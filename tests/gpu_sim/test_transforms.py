"""Transforms on GPU arrays give the CPU's results, results stay on the device, every
primitive has a GPU implementation, and devices are not mixed behind the user's back."""
import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import REGISTRY, EscapedTracerError, Primitive
from funcgrad.core import _state as core_state
from funcgrad.gpu import (IMPLS, DeviceMismatchError, GpuArray, device_get,
                          missing_gpu_primitives)
from index_strategies import index_expressions, numpy_result, shapes

warnings.filterwarnings("ignore", category=RuntimeWarning)

RNG = np.random.default_rng(0)
X = np.linspace(-1.5, 1.3, 12)
W = RNG.standard_normal((3, 12))
A = RNG.standard_normal((3, 3)) + 3 * np.eye(3)


def gpu(x):
    return fg.device_put(x, "cuda")


def assert_tree_close(got, want, rtol=1e-9, atol=1e-11):
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_tree_close(g, w, rtol, atol)
        return
    host = np.asarray(got)
    want = np.asarray(want)
    assert host.shape == want.shape and host.dtype == want.dtype, (host.shape, want.shape,
                                                                   host.dtype, want.dtype)
    np.testing.assert_allclose(host, want, rtol=rtol, atol=atol)


def w4(x):
    return fnp.sum(fnp.exp(fnp.sin(x)) * fnp.cos(x) ** 2 + fnp.sqrt(1 + x * x))


def mlp(x, w):
    h = fnp.tanh(w @ x)
    return fnp.sum(h ** 2) + fnp.logsumexp(h) - fnp.mean(fnp.abs(x)) * fnp.max(h)


def indexing(x):
    y = x[1:7:2] * x[[0, 3, 3, 5]][:3] + fnp.cumsum(x)[-3:]
    z = x.at[2].set(0.5).at[np.array([1, 1, 4])].add(y[0])
    return fnp.sum(y ** 2) + fnp.prod(z[:4]) + fnp.sort(z)[2] + fnp.sum(fnp.where(x > 0, x, 0.0))


def matrices(x):
    m = fnp.reshape(x[:9], (3, 3)) + fnp.diag(x[9:12] + 4.0)
    inv = fnp.linalg.inv(m)
    return (fnp.sum(inv @ m.T) + fnp.linalg.slogdet(m)[1] + fnp.trace(fnp.linalg.solve(m, m.T))
            + fnp.sum(fnp.einsum("ij,jk->ik", m, m)) + fnp.linalg.det(m))


def reductions(x):
    m = fnp.reshape(x, (3, 4))
    return (fnp.sum(fnp.var(m, axis=0)) + fnp.sum(fnp.max(m, axis=1) ** 2)
            + fnp.sum(fnp.min(m, axis=0, keepdims=True)) + fnp.std(m)
            + fnp.sum(fnp.concatenate([m, m[:1] * 2], axis=0)[::2]))


FUNCTIONS = [w4, indexing, matrices, reductions,
             lambda x: fnp.sum(fnp.tanh(x) ** 2),
             lambda x: fnp.sum(fnp.maximum(x, 0.1) * fnp.clip(x, -1, 1) / (1 + x ** 2))]


@pytest.mark.parametrize("f", FUNCTIONS)
def test_grad_on_gpu_equals_cpu(f):
    assert_tree_close(fg.grad(f)(gpu(X)), fg.grad(f)(X))


def test_grad_of_two_arguments_and_float32():
    got = fg.grad(mlp, argnums=(0, 1))(gpu(X), gpu(W))
    assert_tree_close(got, fg.grad(mlp, argnums=(0, 1))(X, W))
    x32, w32 = X.astype(np.float32), W.astype(np.float32)
    got = fg.grad(mlp)(gpu(x32), gpu(w32))
    assert np.asarray(got).dtype == np.float32
    assert_tree_close(got, fg.grad(mlp)(x32, w32), rtol=2e-5, atol=1e-6)


def test_value_and_grad_vjp_jvp_on_gpu():
    value, g = fg.value_and_grad(w4)(gpu(X))
    v_cpu, g_cpu = fg.value_and_grad(w4)(X)
    assert_tree_close([value, g], [v_cpu, g_cpu])
    f = lambda x: fnp.sin(x) * fnp.exp(-x)  # noqa: E731
    out, pullback = fg.vjp(f, gpu(X))
    out_c, pullback_c = fg.vjp(f, X)
    assert isinstance(out, GpuArray)
    assert_tree_close(pullback(gpu(np.cos(X))), pullback_c(np.cos(X)))
    primal, tangent = fg.jvp(f, (gpu(X),), (gpu(np.ones_like(X)),))
    want = fg.jvp(f, (X,), (np.ones_like(X),))
    assert_tree_close([primal, tangent], want)


@pytest.mark.parametrize("transform", [fg.jacfwd, fg.jacrev, fg.hessian])
def test_jacobians_and_hessian_on_gpu(transform):
    f = (lambda x: fnp.tanh(x[:4]) * x[4:8]) if transform is not fg.hessian else \
        (lambda x: fnp.sum(fnp.exp(x[:4]) * x[4:8] ** 2))
    x = X[:8]
    assert_tree_close(transform(f)(gpu(x)), transform(f)(x))


def test_vmap_on_gpu():
    f = lambda w, x: fnp.tanh(w @ x)  # noqa: E731
    assert_tree_close(fg.vmap(f, in_axes=(0, None))(gpu(W), gpu(X)),
                      fg.vmap(f, in_axes=(0, None))(W, X))
    g = fg.vmap(fg.grad(lambda x: fnp.sum(fnp.sin(x) ** 2)))
    assert_tree_close(g(gpu(W)), g(W))


def test_results_stay_on_the_device_until_asked():
    x = gpu(X)
    y = fnp.exp(x) + np.sin(x) * 2.0           # funcgrad.numpy and plain numpy
    assert isinstance(y, GpuArray) and y.device.startswith("cuda")
    assert isinstance(x[2:5].T, GpuArray)
    host = np.asarray(y)
    assert isinstance(host, np.ndarray)
    np.testing.assert_allclose(host, np.exp(X) + np.sin(X) * 2.0)
    assert float(fnp.sum(x)) == pytest.approx(X.sum())
    assert device_get({"a": y, "b": [1, x]})["b"][0] == 1
    assert "GpuArray" in repr(x) and "cuda" in repr(x)


def _sum_sin_solve(m, b):
    return fnp.sum(fnp.sin(fnp.linalg.solve(m, b)))


@pytest.fixture
def solve_keeps_its_factors(monkeypatch):
    """``solve`` goes through ``solve_lu``/``lu_solve`` at every size."""
    from funcgrad.primitives import solves
    monkeypatch.setattr(solves, "LU_MIN", 1)
    return np.random.default_rng(1).standard_normal((3, 2))


def test_solve_keeping_its_factors_on_gpu_equals_cpu(solve_keeps_its_factors):
    """``solve`` through ``solve_lu``/``lu_solve``: values and gradients of both arguments
    (the transposed solve) as on the CPU."""
    from funcgrad.primitives import linalg as primitive_linalg
    b, f = solve_keeps_its_factors, _sum_sin_solve
    used = {e.prim for e in fg.make_graph(fg.grad(f, argnums=(0, 1)))(A, b).eqns}
    assert {primitive_linalg.solve_lu_p, primitive_linalg.lu_solve_p} <= used
    assert_tree_close(fg.grad(f, argnums=(0, 1))(gpu(A), gpu(b)),
                      fg.grad(f, argnums=(0, 1))(A, b))


@pytest.mark.soak  # (~3 s in the simulator; second order on the GPU: test_jacobians_...)
def test_second_order_of_solve_keeping_its_factors_on_gpu_equals_cpu(
        solve_keeps_its_factors):
    b, f = solve_keeps_its_factors, _sum_sin_solve
    assert_tree_close(fg.hessian(f)(gpu(A), gpu(b)), fg.hessian(f)(A, b))


def test_every_primitive_has_a_gpu_implementation():
    assert missing_gpu_primitives() == []


def test_a_primitive_without_gpu_implementation_raises_naming_it():
    prim = Primitive("test_only_no_gpu", lambda x: x)
    try:
        with pytest.raises(NotImplementedError, match="test_only_no_gpu"):
            prim.bind(gpu(X))
    finally:
        del REGISTRY["test_only_no_gpu"]


def test_mixing_cpu_and_gpu_arrays_raises():
    x = gpu(X)
    with pytest.raises(DeviceMismatchError, match="device_put"):
        x + X
    with pytest.raises(DeviceMismatchError):
        fnp.multiply(X, x)
    with pytest.raises(DeviceMismatchError):
        np.dot(W, x)
    with pytest.raises(DeviceMismatchError):
        fg.grad(lambda x, w: fnp.sum(w @ x))(x, W)
    with pytest.raises(DeviceMismatchError):
        fnp.where(X > 0, x, 0.0)
    with pytest.raises(DeviceMismatchError):  # an array the function made itself
        fg.grad(lambda x: fnp.sum(x * np.ones(12)))(x)
    with pytest.raises(DeviceMismatchError):  # a global (closure) array
        fg.grad(lambda x: fnp.sum(W @ x))(x)
    with pytest.raises(DeviceMismatchError):  # a CPU tangent for a GPU primal
        fg.jvp(fnp.sin, (x,), (X,))


def test_scalars_and_index_arrays_mix_freely():
    x = gpu(X)
    np.testing.assert_allclose(np.asarray(x * 2 + np.float64(1.0) - np.array(0.5)), X * 2 + 0.5)
    np.testing.assert_allclose(np.asarray(x[np.array([0, 2])]), X[[0, 2]])
    assert (x + 1).dtype == np.float64
    x32 = gpu(X.astype(np.float32))
    assert (x32 * 2.0).dtype == np.float32   # Python scalars are weak, as in NumPy 2


def test_rule_constants_are_moved_to_the_device():
    # gather's VJP makes np.zeros, prod's makes np.ones, jacrev seeds with np.eye
    x = gpu(X)
    assert_tree_close(fg.grad(lambda x: fnp.prod(x[2:6]) + fnp.sum(fnp.triu(
        fnp.reshape(x, (3, 4)))))(x), fg.grad(lambda x: fnp.prod(x[2:6]) + fnp.sum(fnp.triu(
            fnp.reshape(x, (3, 4)))))(X))


def test_user_arrays_are_refused_wherever_user_code_holds_them():
    x = gpu(X)

    class Model:
        weights = W
    with pytest.raises(DeviceMismatchError):  # reached through an attribute
        fg.grad(lambda x: fnp.sum(Model.weights @ x))(x)
    with pytest.raises(DeviceMismatchError):  # under grad of grad
        fg.grad(lambda x: fnp.sum(fg.grad(lambda y: fnp.sum(y * X))(x)))(x)
    scaled = fg.custom_vjp(lambda x: x * X)
    scaled.defvjp(lambda x: (x * X, None), lambda _, g: (g * 2.0,))
    with pytest.raises(DeviceMismatchError):  # a custom function's own body
        scaled(x)
    out, pullback = fg.vjp(fnp.sin, x)
    with pytest.raises(DeviceMismatchError, match="cotangent 0 .* cuda"):
        pullback(np.ones_like(X))
    _, tangent_map = fg.linearize(fnp.sin, x)
    with pytest.raises(DeviceMismatchError, match="tangent 0"):
        tangent_map(np.ones_like(X))
    assert not core_state.internal  # a refusal inside a transform leaves user mode on


@pytest.mark.parametrize("f", [lambda v: fnp.sum(1.5 - v * v), lambda v: fnp.sum(fnp.sin(v))])
def test_linearize_of_grad_runs_its_tangent_map_on_the_device(f):
    # Regression: grad's seed (NumPy ones) is a constant of the linear graph, which
    # jvp_fn evaluated as the user's data: DeviceMismatchError on a GPU tangent.
    x = X.reshape(-1, 1)
    out, tangent_map = fg.linearize(fg.grad(f), gpu(x))
    t = np.linspace(0.5, 1.5, x.size).reshape(x.shape)
    want = fg.jvp(fg.grad(f), (x,), (t,))[1]
    assert_tree_close(tangent_map(gpu(t)), want)
    assert isinstance(tangent_map(gpu(t)), GpuArray)
    assert not core_state.internal


def test_constants_of_funcgrad_numpy_and_jit_are_moved_to_the_device():
    m = gpu(A)

    def f(m):
        padded = fnp.pad(fnp.tril(m, -1) + fnp.diag(fnp.diagonal(m)), 1)
        return fnp.sum(padded ** 2)
    assert_tree_close(fg.grad(f)(m), fg.grad(f)(A))
    upper = fg.jit(lambda m: fnp.triu(m) * 2.0)   # the mask is a constant of the graph
    assert_tree_close(upper(m), np.triu(A) * 2.0)
    assert_tree_close(fg.grad(lambda m: fnp.sum(upper(m) ** 2))(m), 8.0 * np.triu(A))


def test_escaped_tracer_with_gpu_array_raises():
    leaked = []
    fg.grad(lambda x: leaked.append(x) or fnp.sum(x))(gpu(X))
    with pytest.raises(EscapedTracerError):
        leaked[0] + gpu(X)


def test_device_put_pytrees_and_device_get():
    tree = {"w": W, "b": [X, 2.0]}
    on_gpu = fg.device_put(tree, "cuda")
    assert isinstance(on_gpu["w"], GpuArray) and isinstance(on_gpu["b"][1], GpuArray)
    back = fg.device_get(on_gpu)
    np.testing.assert_array_equal(back["w"], W)
    assert fg.device_put(on_gpu["w"]) is on_gpu["w"]
    np.testing.assert_array_equal(fg.device_put(on_gpu["w"], "cpu"), W)
    with pytest.raises(ValueError, match="unknown device"):
        fg.device_put(X, "tpu")


def test_custom_vjp_on_gpu():
    @fg.custom_vjp
    def f(x):
        return fnp.sin(x)

    def fwd(x):
        return fnp.sin(x), fnp.cos(x)

    def bwd(cos_x, g):
        return (g * cos_x * 2.0,)
    f.defvjp(fwd, bwd)
    assert_tree_close(fg.grad(lambda x: fnp.sum(f(x)))(gpu(X)), 2 * np.cos(X))


def test_lax_operations_on_gpu_arrays_equal_the_cpu():
    from funcgrad import lax
    cases = [lambda v: lax.pad(v, 0.5, [(2, -1, 1)]),  # (its fill was built on the CPU)
             lambda v: lax.reduce_window(v, -np.inf, lax.max, (3,), (2,), "SAME"),
             lambda v: lax.clamp(0.0, v, 1.0), lambda v: lax.round(v),
             lambda v: lax.dynamic_slice(v, (9,), (5,)), lambda v: lax.cummax(v)]
    for f in cases:
        assert_tree_close(f(gpu(X)), f(X))
    loss = lambda v: fnp.sum(lax.pad(v, 0.0, [(1, 1, 1)]) ** 2)  # noqa: E731
    assert_tree_close(fg.grad(loss)(gpu(X)), fg.grad(loss)(X))


def test_float_functions_built_on_signbit_stay_on_the_gpu():
    # (signbit answered a GPU array with a NumPy one, which fmod then mixed with GPU arrays)
    from funcgrad import lax
    x1 = np.array([-3.0, 3.0, 5.5, -0.0, 7.25, -1.0])
    x2 = np.array([2.0, -2.0, 2.5, 3.0, np.inf, -0.0])
    cases = [(fnp.signbit, np.signbit, (x1,)), (fnp.fmod, np.fmod, (x1, x2)),
             (lax.rem, np.fmod, (x1, x2)), (fnp.copysign, np.copysign, (x1, x2)),
             (fnp.nextafter, np.nextafter, (x1, x2)), (fnp.isneginf, np.isneginf, (x2,)),
             (fnp.spacing, np.spacing, (x1,))]
    for ours, numpys, args in cases:
        got = ours(*map(gpu, args))
        want = numpys(*args)
        assert isinstance(got, GpuArray), ours.__name__
        host = np.asarray(got)
        assert host.dtype == want.dtype, ours.__name__
        np.testing.assert_array_equal(host, want, err_msg=ours.__name__)
        np.testing.assert_array_equal(np.signbit(host), np.signbit(want), err_msg=ours.__name__)
    pairs = (x1[:5], x2[:5])  # (fmod(x, -0.0) is NaN)
    loss = lambda a, b: fnp.sum(lax.rem(a, b) * a)  # noqa: E731
    assert_tree_close(fg.grad(loss, argnums=(0, 1))(*map(gpu, pairs)),
                      fg.grad(loss, argnums=(0, 1))(*pairs))


def test_gpu_index_errors_are_python_errors():
    x = gpu(X)
    with pytest.raises(IndexError):
        x[np.array([0, 40])]
    with pytest.raises(IndexError):
        IMPLS[REGISTRY["gather"]](x, gpu(np.array([3, -13])), spec=(("a",),))


@given(data=st.data(), mode=st.sampled_from(["set", "add", "min", "max"]))
def test_indexing_on_gpu_arrays_equals_the_cpu(data, mode):
    """Every index form NumPy accepts (tests/index_strategies.py): x[idx] and
    x.at[idx].<mode>(v), their values and gradients, on the device and on the host."""
    shape = data.draw(shapes(min_dims=1, max_dims=3))
    idx = data.draw(index_expressions(shape))
    x = np.random.default_rng(data.draw(st.integers(0, 99))).standard_normal(shape)
    want, error = numpy_result(x, idx)
    if error is not None:
        with pytest.raises(error):
            gpu(x)[idx]
        return
    u = np.linspace(-1.0, 1.0, want.size).reshape(want.shape)

    def f(x, v, u):
        return fnp.sum(x[idx] * u) + fnp.sum(getattr(x.at[idx], mode)(v) ** 2)

    v = np.linspace(0.5, -0.5, want.size).reshape(want.shape)
    assert_tree_close(gpu(x)[idx], want)
    assert_tree_close(fg.grad(f, argnums=(0, 1))(gpu(x), gpu(v), gpu(u)),
                      fg.grad(f, argnums=(0, 1))(x, v, u))


def test_iir_and_ndimage_filters_run_on_gpu_arrays_with_their_gradients():
    # (all_pole runs on a host copy; the rest are GPU kernels; constants follow the data)
    import funcgrad.scipy.ndimage as fnd
    import funcgrad.scipy.signal as fss
    b, a = np.array([0.2, 0.3, 0.1]), np.array([1.0, -0.6, 0.2])
    sos = np.array([[0.2, 0.3, 0.1, 1.0, -0.6, 0.2], [1.0, 0.5, 0.0, 1.0, 0.3, 0.0]])
    x = RNG.standard_normal((2, 14))

    def f(b, a, sos, x):
        return (fnp.sum(fss.filtfilt(b, a, x, padlen=4) ** 2)
                + fnp.sum(fss.sosfiltfilt(sos, x, padlen=4) * x)
                + fnp.sum(fnd.gaussian_filter(x, 1.0) * fnd.uniform_filter(x, 3)))

    from funcgrad.primitives import recurrence
    # (the table's entry itself: the host copy's recursion, the CPU's bits)
    np.testing.assert_array_equal(
        device_get(IMPLS[recurrence.all_pole_p](gpu(a[None]), gpu(x))),
        recurrence.all_pole_p.impl(a[None], x))
    g = fg.grad(f, argnums=(0, 1, 2, 3))
    want = g(b, a, sos, x)
    got = g(gpu(b), gpu(a), gpu(sos), gpu(x))
    assert all(type(v) is GpuArray for v in got)
    assert_tree_close([device_get(v) for v in got], want)


def test_more_ndimage_filters_and_splines_run_on_gpu_arrays_with_their_gradients():
    # (their constants -- padding masks, prefilter matrices, label maps -- follow the data)
    import funcgrad.scipy.ndimage as fnd
    x = RNG.standard_normal((5, 6))
    w = RNG.standard_normal((2, 3))
    points = RNG.uniform(0.2, 4.5, (2, 4))
    labels = np.array([[0, 1, 1, 2, 2, 2]] * 5)

    def f(x, w, points):
        return (fnp.sum(fnd.correlate(x, w, mode="constant", cval=0.5) ** 2)
                + fnp.sum(fnd.median_filter(x, 3) * x)
                + fnp.sum(fnd.map_coordinates(x, points, order=3, mode="mirror"))
                + fnp.sum(fnd.mean(x, labels, [1, 2]) * fnd.sobel(x)[0, :2])
                + fnp.sum(fnd.shift(x, points[:, 0], order=2, mode="mirror") ** 2)
                + fnp.sum(fnd.fourier_gaussian(x, w[0, :2]) * x))

    g = fg.grad(f, argnums=(0, 1, 2))
    want = g(x, w, points)
    got = g(gpu(x), gpu(w), gpu(points))
    assert all(type(v) is GpuArray for v in got)
    assert_tree_close([device_get(v) for v in got], want)


def test_gust_savgol_and_designs_in_wn_run_on_gpu_arrays_with_their_gradients():
    # (their constants -- unit states, end-fit weights, the analog prototype -- follow
    # the data to its device)
    import funcgrad.scipy.signal as fss
    b, a = np.array([0.2, 0.3, 0.1]), np.array([1.0, -0.6, 0.2])
    x = RNG.standard_normal((2, 14))
    wn = np.array([0.2, 0.35])

    def f(b, a, x, wn):
        sos = fss.cheby1(2, 1.0, wn, btype="bandpass", output="sos")
        design_b, design_a = fss.ellip(3, 1.0, 40.0, wn[0])
        return (fnp.sum(fss.filtfilt(b, a, x, method="gust", irlen=5) ** 2)
                + fnp.sum(fss.savgol_filter(x, 5, 2, 1) * x)
                + fnp.sum(sos[:, :3]) + fnp.sum(design_b * design_a))

    g = fg.grad(f, argnums=(0, 1, 2, 3))
    want = g(b, a, x, wn)
    got = g(gpu(b), gpu(a), gpu(x), gpu(wn))
    assert all(type(v) is GpuArray for v in got)
    assert_tree_close([device_get(v) for v in got], want)


def test_fitted_periodic_and_parametric_splines_and_filter_orders_run_on_gpu_arrays():
    # (their constants -- identity coefficients, SciPy's knots and jumps, the periodic
    # wrap, the natural-spline change of basis -- follow the data to its device)
    import funcgrad.scipy.interpolate as fi
    import funcgrad.scipy.signal as fss
    x = np.linspace(0.0, 5.0, 9) + 0.05 * np.sin(np.arange(9))
    y = np.cos(x)
    y[-1] = y[0]
    q = np.linspace(-1.0, 6.0, 7)
    t = np.r_[[x[0]] * 4, 2.5, [x[-1]] * 4]

    def f(y, x, q, t):
        u = q[:5] / 10 + 0.3
        return (fnp.sum(fi.make_interp_spline(x, y, bc_type="natural")(q) ** 2)
                + fnp.sum(fi.make_interp_spline(x, y, bc_type="periodic")(q) ** 2)
                + fnp.sum(fi.make_lsq_spline(x, y, t)(q) ** 2)
                + fnp.sum(fi.make_smoothing_spline(x, y, lam=0.1)(q) ** 2)
                + fnp.sum(fnp.stack(fi.splev(u, fi.splprep([x, y], s=0)[0])) ** 2))

    def smoothing(y, q):
        return (fnp.sum(fi.splev(q, fi.splrep(x, y, s=0.1)) ** 2)
                + fnp.sum(fi.UnivariateSpline(x, y, s=0.1)(q)))

    def order(wp, ws):
        return fnp.sum(fss.buttord(wp, ws, 1, 40)[1] + fss.cheb2ord(wp, ws, 1, 40)[1])

    for fn, args in [(f, (y, x, q, t)), (smoothing, (y, q)),
                     (order, (np.array([0.2, 0.5]), np.array([0.1, 0.6])))]:
        g = fg.grad(fn, argnums=tuple(range(len(args))))
        want = g(*args)
        got = g(*[gpu(a) for a in args])
        assert all(type(v) is GpuArray for v in got)
        assert_tree_close([device_get(v) for v in got], want)


@pytest.mark.parametrize("like", ["ones_like", "zeros_like", "full_like", "empty_like"])
def test_constants_like_a_traced_gpu_array_live_on_its_device(like):
    """fnp.ones_like(x) of a GPU array's traced value is a GPU constant (it was a CPU array,
    and the operation that used it raised DeviceMismatchError under grad and vmap)."""
    make = (lambda x: fnp.full_like(x, 2.0)) if like == "full_like" else getattr(fnp, like)
    f = lambda x: fnp.sum(x / (make(x) + x * x + 1.0))
    x = np.array([0.5, 1.0, 2.0])
    assert_tree_close(fg.grad(f)(gpu(x)), fg.grad(f)(x))
    assert_tree_close(fg.vmap(f)(gpu(np.stack([x, x + 1]))), fg.vmap(f)(np.stack([x, x + 1])))
    assert isinstance(fg.grad(f)(gpu(x)), GpuArray)

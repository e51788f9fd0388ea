"""fg.scipy.optimize.minimize: SciPy's minimizers on pytree parameters, with jac, hess
and hessp from funcgrad; the same iterates as SciPy given hand-written derivatives."""
import subprocess
import sys

import numpy as np
import pytest

import funcgrad as fg

optimize = pytest.importorskip("scipy.optimize")


def _flat(p):
    return np.concatenate([p["a"].ravel(), p["b"]])


def rosen_tree(p):
    x = _flat(p)
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


# Rosenbrock's derivatives by hand, on the flat x (independent of funcgrad)
def rosen_flat(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def rosen_jac(x):
    g = np.zeros_like(x)
    g[:-1] = -400 * x[:-1] * (x[1:] - x[:-1] ** 2) - 2 * (1 - x[:-1])
    g[1:] += 200 * (x[1:] - x[:-1] ** 2)
    return g


def rosen_hess(x):
    h = np.zeros((x.size, x.size))
    i = np.arange(x.size - 1)
    h[i, i] = 1200 * x[:-1] ** 2 - 400 * x[1:] + 2
    h[i + 1, i + 1] += 200
    h[i, i + 1] = h[i + 1, i] = -400 * x[:-1]
    return h


X0 = {"a": np.array([[1.3, 0.7], [0.8, 1.9]]), "b": np.array([1.2])}   # SciPy tutorial x0


@pytest.mark.parametrize("method, extra", [
    ("L-BFGS-B", {}),
    ("trust-ncg", {"hessp": lambda x, v: rosen_hess(x) @ v}),
    ("trust-exact", {"hess": rosen_hess}),
])
def test_matches_scipy_with_hand_written_derivatives(method, extra):
    got = fg.scipy.optimize.minimize(rosen_tree, X0, method=method)
    want = optimize.minimize(rosen_flat, _flat(X0), method=method, jac=rosen_jac, **extra)
    assert got.success and want.success
    assert got.nit == want.nit
    assert set(got.x) == {"a", "b"} and got.x["a"].shape == (2, 2) and got.x["b"].shape == (1,)
    np.testing.assert_allclose(_flat(got.x), want.x, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(_flat(got.x), np.ones(5), atol=1e-4)
    np.testing.assert_allclose(_flat(got.jac), want.jac, atol=1e-8)


def test_args_bounds_as_pytrees_and_callback():
    def fun(p, target):
        return np.sum((p["u"] - target) ** 2) + (p["v"] - 2.0) ** 2

    seen = []
    res = fg.scipy.optimize.minimize(
        fun, {"u": np.zeros(3, np.float32), "v": 0.0}, args=(np.array([1.0, -1.0, 5.0]),),
        bounds=optimize.Bounds({"u": np.array([-np.inf, 0.0, -np.inf]), "v": -np.inf},
                               {"u": np.inf, "v": 1.5}),
        callback=lambda p: seen.append(p))
    assert res.success
    assert res.x["u"].dtype == np.float32
    np.testing.assert_allclose(res.x["u"], [1.0, 0.0, 5.0], atol=1e-5)
    np.testing.assert_allclose(res.x["v"], 1.5)
    assert seen and isinstance(seen[0], dict) and set(seen[0]) == {"u", "v"}


def test_dict_constraints_get_their_jacobian():
    res = fg.scipy.optimize.minimize(
        lambda p: p["x"] ** 2 + p["y"] ** 2, {"x": 2.0, "y": 1.0}, method="SLSQP",
        constraints={"type": "eq", "fun": lambda p: p["x"] + p["y"] - 1.0})
    assert res.success
    np.testing.assert_allclose([res.x["x"], res.x["y"]], [0.5, 0.5], atol=1e-6)


def test_derivative_free_methods_get_no_jac():
    res = fg.scipy.optimize.minimize(lambda p: (p[0] - 1) ** 2 + p[1] ** 2,
                                     [np.array(0.0), np.array(1.0)], method="Nelder-Mead")
    assert res.success and isinstance(res.x, list)
    np.testing.assert_allclose([res.x[0], res.x[1]], [1.0, 0.0], atol=1e-3)


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(jac=lambda x: x), ValueError, "funcgrad computes jac"),
    (dict(hessp=lambda x, p: p), ValueError, "funcgrad computes hessp"),
])
def test_own_derivatives_are_refused_with_the_alternative(kwargs, error, match):
    with pytest.raises(error, match=match):
        fg.scipy.optimize.minimize(lambda x: np.sum(x ** 2), np.ones(2), **kwargs)


def test_integer_x0_is_refused():
    with pytest.raises(TypeError, match="write 1.0 rather than 1"):
        fg.scipy.optimize.minimize(lambda x: np.sum(x ** 2), np.array([1, 2]))


def test_an_integer_leaf_beside_float_leaves_is_refused():
    # (audit: the raveled x0 was float, so it passed; unravel cast the leaf back to an
    # integer and it silently never moved: res.x["c"] stayed 3, res.fun 5.76, not 0)
    def fun(p):
        return (p["a"] - 1.7) ** 2 + np.sum((p["b"] - 0.3) ** 2) + (p["c"] - 0.6) ** 2
    with pytest.raises(TypeError, match=r"int64 \(leaf 2 of x0\): write 1.0 rather than 1"):
        fg.scipy.optimize.minimize(fun, {"a": 0.5, "b": np.array([1.0, 2.0]), "c": 3})
    res = fg.scipy.optimize.minimize(fun, {"a": 0.5, "b": np.array([1.0, 2.0]), "c": 3.0})
    assert res.fun < 1e-10 and abs(float(res.x["c"]) - 0.6) < 1e-5


def test_import_funcgrad_does_not_import_scipy_or_optim():
    code = ("import sys, funcgrad as fg; "
            "assert 'scipy' not in sys.modules and 'funcgrad.optim' not in sys.modules; "
            "fg.optim.adam; import funcgrad.scipy.optimize; "
            "assert 'scipy' not in sys.modules, 'funcgrad.scipy.optimize imported SciPy'")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_docstring_example():
    import doctest
    import funcgrad.scipy._minimize as module  # (minimize's own module; optimize re-exports)
    failures, tried = doctest.testmod(module)
    assert tried and failures == 0


def test_bounds_for_a_single_array_of_several_axes():
    """x0 one (2, 3) array: bounds shaped like it, or flat (one per raveled element),
    with SciPy's keep_feasible broadcast to them; the same result as SciPy on the
    raveled problem."""
    f = lambda x: np.sum((x - 3.0) ** 2)  # noqa: E731
    ub = np.arange(6.0)
    for bounds in (optimize.Bounds(0.0, ub.reshape(2, 3)),
                   optimize.Bounds(np.zeros((2, 3)), ub.reshape(2, 3)), optimize.Bounds(0.0, ub)):
        r = fg.scipy.optimize.minimize(f, np.zeros((2, 3)), method="L-BFGS-B", bounds=bounds)
        assert r.x.shape == (2, 3)
        np.testing.assert_allclose(r.x.ravel(), np.minimum(ub, 3.0), atol=1e-8)


def test_optimize_result_is_scipys_type():
    import funcgrad.scipy.optimize as fso
    result = fso.minimize(lambda x: np.sum(x ** 2), np.ones(2))
    assert isinstance(result, fso.OptimizeResult)
    assert fso.OptimizeResult is optimize.OptimizeResult
    with pytest.raises(AttributeError, match="has no attribute 'OptimizeResults'"):
        fso.OptimizeResults  # noqa: B018 - (JAX's name; SciPy's is OptimizeResult)

"""fg.scipy.optimize's legacy names -- rosen and its derivatives, fmin and the other fmin_*
wrappers, fminbound/brent/golden/bracket, fixed_point, ridder/brenth/toms748, leastsq,
approx_fprime, check_grad, and SciPy's Bounds/constraint/result classes: their values and
return tuples equal SciPy's (given the same derivatives, the same search), their answers
are differentiable in args by the implicit function theorem (checked against closed
forms), one vmap check per family, and the errors where no derivative can be right or
SciPy would silently ignore an argument."""
import warnings

import numpy as np
import pytest

import funcgrad as fg

optimize = pytest.importorskip("scipy.optimize")
import funcgrad.scipy.optimize as fo  # noqa: E402

X0 = np.array([-1.2, 1.0, 0.5])
A = np.array([[3.0, 0.5, 0.2], [0.5, 2.0, 0.3], [0.2, 0.3, 1.5]])
TARGET = np.array([1.0, -0.5, 2.0])


def exact_grad(x):
    return np.asarray(fg.grad(fo.rosen)(x))


def exact_hessp(x, p):
    return np.asarray(fg.hvp(fo.rosen, (x,), (p,))[1][0])


# --- rosen -------------------------------------------------------------------------------

@pytest.mark.parametrize("x", [np.array([0.3, -0.8]), np.array([1.3, 0.7, 0.8, 1.9, 1.2])])
def test_rosen_and_its_derivatives_equal_scipy_and_autodiff(x):
    p = np.linspace(-1.0, 1.0, x.size)
    np.testing.assert_allclose(fo.rosen(x), optimize.rosen(x), rtol=1e-14)
    np.testing.assert_allclose(fo.rosen_der(x), optimize.rosen_der(x), rtol=1e-13)
    np.testing.assert_allclose(fo.rosen_hess(x), optimize.rosen_hess(x), rtol=1e-13)
    np.testing.assert_allclose(fo.rosen_hess_prod(x, p), optimize.rosen_hess_prod(x, p),
                               rtol=1e-13)
    # the closed forms are the derivatives of rosen
    np.testing.assert_allclose(fg.grad(fo.rosen)(x), fo.rosen_der(x), rtol=1e-13)
    np.testing.assert_allclose(fg.hessian(fo.rosen)(x), fo.rosen_hess(x), rtol=1e-13)
    np.testing.assert_allclose(fg.jacobian(fo.rosen_der)(x), fo.rosen_hess(x), rtol=1e-13)


def test_rosen_float32_columns_vmap_and_jit():
    x = np.array([1.3, 0.7, 0.8, 1.9], dtype=np.float32)
    for fn in (fo.rosen, fo.rosen_der, fo.rosen_hess, fg.grad(fo.rosen)):
        assert fn(x).dtype == np.float32
    assert fo.rosen_hess_prod(x, x).dtype == np.float32
    batch = np.stack([X0, X0 + 1.0, 2 * X0])
    # SciPy's convention: the first axis is x, the others are separate points
    np.testing.assert_allclose(fo.rosen(batch.T), optimize.rosen(batch.T), rtol=1e-14)
    np.testing.assert_allclose(fg.vmap(fo.rosen)(batch), optimize.rosen(batch.T), rtol=1e-14)
    np.testing.assert_allclose(fg.jit(fo.rosen_der)(X0), optimize.rosen_der(X0), rtol=1e-13)
    with pytest.raises(ValueError, match="length 2 or more"):
        fo.rosen_der(np.array([1.0]))


# --- fmin and friends --------------------------------------------------------------------

def _ours_and_scipys(name):
    """funcgrad's call and SciPy's, both given funcgrad's exact derivatives (which
    funcgrad's wrappers accept and do not call: they compute the same ones)."""
    ours, theirs = getattr(fo, name), getattr(optimize, name)
    if name == "fmin_ncg":
        return [lambda f, x0, **kw: m(f, x0, exact_grad, fhess_p=exact_hessp, **kw)
                for m in (ours, theirs)]
    if name in ("fmin_cg", "fmin_bfgs", "fmin_l_bfgs_b", "fmin_tnc"):
        return [lambda f, x0, **kw: m(f, x0, exact_grad, **kw) for m in (ours, theirs)]
    return ours, theirs


LEGACY = {  # name: (options, what the full output holds besides x, SciPy's length)
    "fmin": ({"xtol": 1e-8, "ftol": 1e-10, "maxiter": 4000, "full_output": 1, "disp": 0}, 5),
    "fmin_powell": ({"xtol": 1e-8, "ftol": 1e-10, "full_output": 1, "disp": 0}, 6),
    "fmin_cg": ({"full_output": 1, "disp": 0}, 5),
    "fmin_bfgs": ({"full_output": 1, "disp": 0}, 7),
    "fmin_ncg": ({"full_output": 1, "disp": 0}, 6),
    "fmin_l_bfgs_b": ({}, 3),
    "fmin_tnc": ({"messages": 0, "maxfun": 1000}, 3),
}


@pytest.mark.parametrize("name", LEGACY)
def test_legacy_minimizers_return_scipys_tuples_and_values(name):
    options, length = LEGACY[name]
    ours, theirs = _ours_and_scipys(name)
    got, want = ours(fo.rosen, X0, **options), theirs(fo.rosen, X0, **options)
    assert len(got) == len(want) == length
    np.testing.assert_allclose(got[0], want[0], atol=1e-6)
    np.testing.assert_allclose(got[0], np.ones(3), atol=1e-3)
    if name == "fmin_l_bfgs_b":
        assert set(got[2]) == set(want[2]) and got[2]["warnflag"] == want[2]["warnflag"] == 0
    else:
        assert got[-1] == want[-1]   # the warnflag / return code


def test_fmin_retall_and_a_one_element_objective():
    # SciPy's example: x**2 of a 1-D x is a one-element array, which SciPy takes
    got = fo.fmin(lambda x: x ** 2, 1, disp=0, retall=1)
    want = optimize.fmin(lambda x: x ** 2, 1, disp=0, retall=1)
    np.testing.assert_array_equal(got[0], want[0])
    assert len(got[1]) == len(want[1])


def quadratic_exp(x, a):
    # stationary where A x + exp(x) = a: dx*/da = (A + diag(exp(x*)))^-1
    return 0.5 * x @ A @ x + np.sum(np.exp(x)) - a @ x


@pytest.mark.parametrize("name", LEGACY)
def test_legacy_minimizers_differentiable_in_args(name):
    tight = {"fmin": {"xtol": 1e-10, "ftol": 1e-14, "maxiter": 4000, "maxfun": 8000},
             "fmin_powell": {"xtol": 1e-10, "ftol": 1e-14}, "fmin_cg": {"gtol": 1e-8},
             "fmin_bfgs": {"gtol": 1e-8}, "fmin_ncg": {"avextol": 1e-12},
             "fmin_l_bfgs_b": {"pgtol": 1e-12, "factr": 10.0, "approx_grad": 1},
             "fmin_tnc": {"pgtol": 1e-12, "approx_grad": 1, "messages": 0}}[name]
    if name in ("fmin", "fmin_powell", "fmin_cg", "fmin_bfgs", "fmin_ncg"):
        tight["disp"] = 0

    def x_of(a):
        out = getattr(fo, name)(quadratic_exp, np.zeros(3), args=(a,), **tight)
        return out if name in ("fmin", "fmin_powell", "fmin_cg", "fmin_bfgs",
                               "fmin_ncg") else out[0]

    x = x_of(TARGET)
    np.testing.assert_allclose(A @ x + np.exp(x), TARGET, atol=1e-6)
    want = np.linalg.inv(A + np.diag(np.exp(x)))
    np.testing.assert_allclose(fg.jacobian(x_of)(TARGET), want, rtol=1e-6, atol=1e-8)


def test_fmin_bfgs_float32_and_vmap():
    def x_of(a):
        return fo.fmin_bfgs(quadratic_exp, np.zeros(3), args=(a,), gtol=1e-8, disp=0)

    x32 = fo.fmin_bfgs(quadratic_exp, np.zeros(3, np.float32),
                       args=(TARGET.astype(np.float32),), disp=0)
    assert x32.dtype == np.float32
    targets = np.stack([TARGET, TARGET + 0.5])
    np.testing.assert_allclose(fg.vmap(x_of)(targets), np.stack([x_of(t) for t in targets]),
                               rtol=1e-10)
    # fmin's tuple holds array fields only, so it comes back under vmap; BFGS's matrix not
    fopt = fg.vmap(lambda a: fo.fmin(quadratic_exp, np.zeros(3), args=(a,), disp=0,
                                     full_output=1)[1])(targets)
    assert fopt.shape == (2,)
    with pytest.raises(NotImplementedError, match="jac, hess_inv"):
        fg.vmap(lambda a: fo.fmin_bfgs(quadratic_exp, np.zeros(3), args=(a,), disp=0,
                                       full_output=1)[0])(targets)


def test_l_bfgs_b_takes_func_returning_value_and_gradient_and_holds_bounds():
    def value_and_gradient(x, y):   # SciPy's convention without fprime or approx_grad
        return np.sum((x - y) ** 2), 2 * (x - y)

    def x_of(y):
        return fo.fmin_l_bfgs_b(value_and_gradient, np.zeros(2), args=(y,),
                                bounds=[(0, 1), (0, 5)])[0]

    y = np.array([2.0, 3.0])
    np.testing.assert_allclose(x_of(y), [1.0, 3.0], atol=1e-8)
    # x[0] is held at its bound (derivative zero), x[1] follows y[1]
    np.testing.assert_allclose(fg.jacobian(x_of)(y), [[0.0, 0.0], [0.0, 1.0]], atol=1e-8)


def test_derivative_of_a_failed_search_raises():
    with pytest.raises(ValueError, match="did not converge"):
        fg.grad(lambda a: fo.fmin(quadratic_exp, np.zeros(3), args=(a,), maxiter=3,
                                  disp=0).sum())(TARGET)


# --- scalar minimizers, bracket ----------------------------------------------------------

def cosh_minus(x, a):
    return np.cosh(x) - a * x    # minimum at asinh(a): d/da = 1 / sqrt(1 + a**2)


SCALAR = {"fminbound": (lambda m, f, a, **kw: m(f, -5, 5, args=a, xtol=1e-10, **kw)),
          "brent": (lambda m, f, a, **kw: m(f, args=a, **kw)),
          "golden": (lambda m, f, a, **kw: m(f, args=a, **kw))}


@pytest.mark.parametrize("name", SCALAR)
def test_scalar_minimizers_equal_scipy_and_differentiate(name):
    call = SCALAR[name]
    got = call(getattr(fo, name), cosh_minus, (0.75,), full_output=1)
    want = call(getattr(optimize, name), cosh_minus, (0.75,), full_output=1)
    assert len(got) == len(want)
    np.testing.assert_allclose(got[:2], want[:2], rtol=1e-12)
    assert got[2:] == want[2:]
    np.testing.assert_allclose(got[0], np.arcsinh(0.75), atol=1e-6)
    slope = fg.grad(lambda a: call(getattr(fo, name), cosh_minus, (a,)))(0.75)
    np.testing.assert_allclose(slope, 1 / np.cosh(got[0]), rtol=1e-12)   # -f_xa / f_xx


def test_bracket_equals_scipy_and_refuses_a_derivative():
    def f(x, c=3.0):
        return 10 * x ** 2 + c * x + 5

    assert fo.bracket(f, xa=0.1, xb=0.2) == optimize.bracket(f, xa=0.1, xb=0.2)
    with pytest.raises(ValueError, match="iterates"):
        fg.grad(lambda c: fo.bracket(f, args=(c,))[3])(3.0)


# --- fixed points and bracketing roots ---------------------------------------------------

def sqrt_map(x, c1, c2):
    return np.sqrt(c1 / (x + c2))   # SciPy's example


@pytest.mark.parametrize("method", ["del2", "iteration"])
def test_fixed_point_equals_scipy_and_differentiates(method):
    c1, c2 = np.array([10.0, 12.0]), np.array([3.0, 5.0])
    got = fo.fixed_point(sqrt_map, [1.2, 1.3], args=(c1, c2), method=method)
    want = optimize.fixed_point(sqrt_map, [1.2, 1.3], args=(c1, c2), method=method)
    np.testing.assert_array_equal(got, want)
    # x**2 (x + c2) = c1 elementwise: dx/dc1 = 1 / (3 x**2 + 2 c2 x)
    jac = fg.jacobian(lambda c: fo.fixed_point(sqrt_map, [1.2, 1.3], args=(c, c2),
                                               method=method))(c1)
    np.testing.assert_allclose(jac, np.diag(1 / (3 * got ** 2 + 2 * c2 * got)), rtol=1e-7)


def test_fixed_point_vmap_and_float32():
    def x_of(a):
        return fo.fixed_point(lambda x, a: np.cos(a * x), 0.5, args=(a,))

    a = np.array([0.5, 1.0, 1.5])
    np.testing.assert_allclose(fg.vmap(x_of)(a), [x_of(v) for v in a], rtol=1e-12)
    assert fo.fixed_point(np.cos, np.float32(0.5)).dtype == np.float32


@pytest.mark.parametrize("name", ["ridder", "brenth", "toms748"])
def test_bracketing_roots_equal_scipy_and_differentiate(name):
    def f(x, c):
        return x ** 3 - c   # root c**(1/3): d/dc = c**(-2/3) / 3

    x, r = getattr(fo, name)(f, 0.0, 4.0, args=(8.0,), full_output=True)
    x_scipy, r_scipy = getattr(optimize, name)(f, 0.0, 4.0, args=(8.0,), full_output=True)
    assert x == x_scipy and isinstance(r, fo.RootResults)
    assert (r.converged, r.iterations, r.method) == (True, r_scipy.iterations, name)
    slope = fg.grad(lambda c: getattr(fo, name)(f, 0.0, 4.0, args=(c,)))(8.0)
    np.testing.assert_allclose(slope, 1 / 12, rtol=1e-10)


def test_root_scalar_under_vmap_returns_root_results():
    seen = []

    def solve(c):
        sol = fo.root_scalar(lambda x, c: x ** 2 - c, args=(c,), bracket=[0.0, 5.0],
                             method="toms748")
        seen.append((type(sol), sol.method))
        return sol.root, sol.converged

    roots, converged = fg.vmap(solve)(np.array([4.0, 9.0]))
    assert seen == [(optimize.RootResults, "toms748")]
    np.testing.assert_allclose(roots, [2.0, 3.0], rtol=1e-12)
    assert np.all(converged)


# --- leastsq, approx_fprime, check_grad --------------------------------------------------

T = np.linspace(0.0, 2.0, 6)
Y = np.array([2.1, 1.6, 1.2, 1.05, 0.8, 0.7])


def decay(p, y):
    return p[0] * np.exp(-p[1] * T) - y


def test_leastsq_returns_scipys_full_output():
    def jac(p, y):
        return np.stack([np.exp(-p[1] * T), -p[0] * T * np.exp(-p[1] * T)], axis=1)

    got = fo.leastsq(decay, [1.0, 0.1], args=(Y,), full_output=True)
    want = optimize.leastsq(decay, [1.0, 0.1], args=(Y,), Dfun=jac, full_output=True)
    assert len(got) == len(want) == 5
    np.testing.assert_allclose(got[0], want[0], rtol=1e-10)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-6)
    assert set(got[2]) == set(want[2]) and got[3] == want[3] and got[4] == want[4]
    # the user's Dfun steers the search as in SciPy, columns too
    own = fo.leastsq(decay, [1.0, 0.1], args=(Y,), Dfun=lambda p, y: jac(p, y).T,
                     col_deriv=True)
    np.testing.assert_allclose(own[0], want[0], rtol=1e-10)


def test_leastsq_differentiable_and_its_failures():
    # a linear fit: the parameters are linear in y, their Jacobian the pseudo-inverse
    design = np.stack([np.ones_like(T), T], axis=1)
    jac = fg.jacobian(lambda y: fo.leastsq(lambda p, y: design @ p - y, np.zeros(2),
                                           args=(y,))[0])(Y)
    np.testing.assert_allclose(jac, np.linalg.pinv(design), rtol=1e-9, atol=1e-12)
    # a nonlinear one: d p*/d y = -H^-1 J^T, H the cost's Hessian at p*
    p = fo.leastsq(decay, [1.0, 0.1], args=(Y,))[0]
    residual_jac = np.asarray(fg.jacobian(decay)(p, Y))
    hess = np.asarray(fg.hessian(lambda q: 0.5 * np.sum(decay(q, Y) ** 2))(p))
    got = fg.jacobian(lambda y: fo.leastsq(decay, [1.0, 0.1], args=(y,))[0])(Y)
    np.testing.assert_allclose(got, np.linalg.solve(hess, residual_jac.T), rtol=1e-7)
    with pytest.warns(RuntimeWarning, match="maxfev"):
        fo.leastsq(decay, [1.0, 0.1], args=(Y,), maxfev=2)
    with warnings.catch_warnings(), pytest.raises(ValueError, match="did not converge"):
        warnings.simplefilter("ignore", RuntimeWarning)
        fg.grad(lambda y: fo.leastsq(decay, [1.0, 0.1], args=(y,), maxfev=2)[0][0])(Y)


def test_approx_fprime_equals_scipy_and_is_differentiable():
    def cubes(x, c):
        return c * np.sum(x ** 3)

    x = np.array([0.5, -1.5, 1e12])   # (the last: epsilon is lost there, a relative step)
    for args in [(cubes, 1e-6, 2.0), (lambda x: x ** 2, [1e-8, 1e-7, 1e-6])]:
        np.testing.assert_array_equal(fo.approx_fprime(x, *args),
                                      optimize.approx_fprime(x, *args))
    np.testing.assert_array_equal(fo.approx_fprime(2.0, np.sin),
                                  optimize.approx_fprime(2.0, np.sin))
    # the difference quotient ((x + h)**3 - x**3) / h = 3 x**2 + 3 x h + h**2: d/dx = 6 x + 3 h
    x, h = np.array([0.5, -1.5]), 1e-3
    jac = fg.jacobian(lambda x: fo.approx_fprime(x, cubes, h, 1.0))(x)
    np.testing.assert_allclose(jac, np.diag(6 * x + 3 * h), rtol=1e-8)


def test_check_grad_equals_scipy_and_takes_funcgrads_gradient():
    def func(x):
        return x[0] ** 2 - 0.5 * x[1] ** 3

    def wrong(x):
        return np.array([2 * x[0], 0.0])

    x0 = [1.5, -1.5]
    assert fo.check_grad(func, wrong, x0) == optimize.check_grad(func, wrong, x0)
    assert fo.check_grad(func, fg.grad(func), x0) < 1e-6
    rng = np.random.default_rng(0)
    assert fo.check_grad(func, wrong, x0, direction="random", rng=rng) > 0
    with pytest.raises(TypeError, match="concrete"):
        fg.grad(lambda x: fo.check_grad(func, wrong, x))(np.array(x0))


# --- SciPy's classes, and arguments SciPy would ignore -----------------------------------

def test_scipy_classes_work_with_minimize():
    assert fo.Bounds is optimize.Bounds and fo.OptimizeWarning is optimize.OptimizeWarning
    assert fo.LinearConstraint is optimize.LinearConstraint
    cons = [fo.LinearConstraint(np.array([[1.0, 1.0, 1.0]]), -np.inf, 1.0),
            fo.NonlinearConstraint(lambda x: x[0] ** 2 + x[1] ** 2, 0.0, 0.5)]
    got = fo.minimize(fo.rosen, np.zeros(3), method="SLSQP", bounds=fo.Bounds(-1.0, 0.8),
                      constraints=cons)
    want = optimize.minimize(optimize.rosen, np.zeros(3), jac=optimize.rosen_der,
                             method="SLSQP", bounds=optimize.Bounds(-1.0, 0.8),
                             constraints=cons)
    assert got.success and want.success
    np.testing.assert_allclose(got.x, want.x, atol=1e-6)


def test_minimize_warns_and_ignores_bounds_or_constraints_as_scipy():
    # (SciPy warns and returns the unconstrained optimum; the derivative at it must not
    # count on the ignored bounds either)
    cons = fo.NonlinearConstraint(lambda x: np.sum(x), -np.inf, 1.0)
    free = fo.minimize(fo.rosen, X0, method="BFGS")
    with pytest.warns(RuntimeWarning, match="bfgs cannot handle constraints.*'slsqp'"):
        got = fo.minimize(fo.rosen, X0, method="BFGS", constraints=cons)
    np.testing.assert_array_equal(got.x, free.x)
    with pytest.warns(RuntimeWarning, match="cg cannot handle bounds.*'l-bfgs-b'"):
        fo.minimize(fo.rosen, X0, method="CG", bounds=fo.Bounds(0.0, 0.5))

    def argmin(a, **kw):
        return fo.minimize(lambda x: fg.numpy.sum((x - a) ** 2), np.zeros(2), method="BFGS",
                           **kw).x

    a = np.array([0.7, 2.0])
    with pytest.warns(RuntimeWarning, match="cannot handle bounds"):
        held = fg.jacobian(lambda a: argmin(a, bounds=fo.Bounds(0.0, 1.0)))(a)
    np.testing.assert_allclose(held, np.eye(2), atol=1e-6)

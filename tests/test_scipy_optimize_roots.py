"""fg.scipy.optimize's root finders and least squares -- root, fsolve, least_squares,
curve_fit, root_scalar, brentq, bisect, newton: their values equal SciPy's on SciPy's own
examples, and their answers are differentiable in args by the implicit function theorem,
checked against closed forms and against central differences of problems SciPy solves
tightly, to second order, under jvp, vmap and jit, on eager Tensors; and the errors
where no derivative exists."""
import warnings

import numpy as np
import pytest

import funcgrad as fg

optimize = pytest.importorskip("scipy.optimize")
from funcgrad.scipy.optimize import (bisect, brentq, curve_fit, fsolve,  # noqa: E402
                                     least_squares, newton, root, root_scalar)

M = np.array([[2.0, 0.5, 0.1], [0.3, 1.5, 0.4], [0.2, 0.1, 1.0]])
M_INV = np.linalg.inv(M)
T = np.array([1.3, 0.9, 1.7])          # M^-1 T > 0: the log below is defined
TIGHT = {"xtol": 1e-13}


def exp_system(x, t):
    # M exp(x) = t: x* = log(M^-1 t), dx*/dt = diag(1 / (M^-1 t)) M^-1
    return M @ np.exp(x) - t


def exp_root(t, method="hybr", **kwargs):
    return root(exp_system, np.zeros(3), args=(t,), method=method, **kwargs).x


def closed_jacobian(t):
    return M_INV / (M_INV @ t)[:, None]


def central(fn, p, h=1e-6):
    """d fn(p) / d p by central differences, p a 1-D array: the last axis indexes p."""
    p = np.asarray(p, dtype=float)
    cols = [(np.asarray(fn(p + h * e)) - np.asarray(fn(p - h * e))) / (2 * h)
            for e in np.eye(p.size)]
    return np.stack(cols, axis=-1)


def system_nonclosed(x, p):
    """A coupled system with no closed-form root: x + 0.5 tanh(B x) + 0.1 x**3 = p."""
    b = np.array([[1.0, 0.4, -0.3], [0.2, 0.8, 0.5], [-0.1, 0.3, 1.2]])
    return x + 0.5 * np.tanh(b @ x) + 0.1 * x ** 3 - p


P = np.array([0.4, -0.6, 1.1])


def scipy_root(p):
    """The reference: SciPy's hybrj alone, tightly, with an exact Jacobian."""
    sol = optimize.root(lambda x: system_nonclosed(x, p), np.zeros(3),
                        jac=lambda x: fg.jacfwd(system_nonclosed)(x, p), options=TIGHT)
    assert sol.success
    return sol.x


# --- root ---------------------------------------------------------------------------------------

def scipy_example(x):
    return [x[0] + 0.5 * (x[0] - x[1]) ** 3 - 1.0, 0.5 * (x[1] - x[0]) ** 3 + x[1]]


@pytest.mark.parametrize("method", ["hybr", "lm", "df-sane"])
def test_root_equals_scipy_on_its_example(method):
    ours = root(scipy_example, np.zeros(2), method=method)
    assert ours.success
    np.testing.assert_allclose(ours.x, [0.8411639, 0.1588361], atol=1e-6)
    if method != "lm":   # (SciPy's lm, on finite differences, stops at [0.725, 0] here)
        theirs = optimize.root(scipy_example, np.zeros(2), method=method)
        np.testing.assert_allclose(ours.x, theirs.x, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("method, options", [("hybr", TIGHT), ("lm", TIGHT),
                                             ("krylov", {"fatol": 1e-13}),
                                             ("anderson", {"fatol": 1e-13})])
def test_root_jacobian_is_the_closed_form_whichever_method(method, options):
    np.testing.assert_allclose(exp_root(T, method, options=options),
                               np.log(M_INV @ T), atol=1e-10)
    want = closed_jacobian(T)
    for jac in (fg.jacrev, fg.jacfwd):
        got = jac(lambda t: exp_root(t, method, options=options))(T)
        np.testing.assert_allclose(got, want, rtol=1e-8, atol=1e-10)


def test_root_second_order_is_the_closed_form_both_routes():
    # sum(x*) = sum(log(M^-1 t)): its Hessian is -sum_i M^-1_ij M^-1_ik / (M^-1 t)_i**2
    def total(t):
        return exp_root(t, options=TIGHT).sum()

    u = M_INV @ T
    want = -np.einsum("ij,ik->jk", M_INV / u[:, None], M_INV / u[:, None])
    np.testing.assert_allclose(fg.hessian(total)(T), want, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(fg.jacrev(fg.grad(total))(T), want, rtol=1e-8, atol=1e-10)


def test_root_against_central_differences_of_scipy_and_jvp():
    def x_star(p):
        return root(system_nonclosed, np.zeros(3), args=(p,), options=TIGHT).x

    np.testing.assert_allclose(x_star(P), scipy_root(P), rtol=1e-12)
    want = central(scipy_root, P)
    got = fg.jacrev(x_star)(P)
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9)
    v = np.array([0.3, -1.0, 0.5])
    out, tangent = fg.jvp(x_star, (P,), (v,))
    np.testing.assert_allclose(tangent, got @ v, rtol=1e-10)
    # second order: differences of the derivative at re-solved roots
    hess = fg.jacfwd(fg.jacrev(lambda p: x_star(p)[0]))(P)
    fd = central(lambda p: fg.jacrev(lambda q: x_star(q)[0])(p), P, h=1e-5)
    np.testing.assert_allclose(hess, fd, rtol=1e-6, atol=1e-8)


def test_root_captured_values_pytrees_and_x0():
    # fun closes over t; x is a dict; x0 gets no derivative
    def solve(x0, t):
        def fun(x):
            return {"a": x["a"] ** 3 - t[0], "b": x["b"] * 2.0 - t[1:]}
        res = root(fun, x0, options=TIGHT)
        return res.x["a"] + res.x["b"].sum()

    x0 = {"a": np.array(1.0), "b": np.zeros(2)}
    t = np.array([8.0, 1.0, 3.0])
    np.testing.assert_allclose(solve(x0, t), 2.0 + 2.0, rtol=1e-12)
    g = fg.grad(solve, argnums=1)(x0, t)
    np.testing.assert_allclose(g, [1.0 / (3 * 4.0), 0.5, 0.5], rtol=1e-9)
    g0 = fg.grad(solve, argnums=0)(x0, t)
    assert g0["a"] == 0.0 and np.all(g0["b"] == 0.0)


def test_root_float32_tensor_vmap_and_jit():
    t32 = T.astype(np.float32)
    res = root(exp_system, np.zeros(3, np.float32), args=(t32,))
    assert res.x.dtype == np.float32
    g = fg.jacrev(lambda t: root(exp_system, np.zeros(3, np.float32), args=(t,)).x)(t32)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, closed_jacobian(T), rtol=1e-4)
    # eager Tensors
    theta = fg.Tensor(T, requires_grad=True)
    root(exp_system, np.zeros(3), args=(theta,), options=TIGHT).x.sum().backward()
    np.testing.assert_allclose(theta.grad.detach(), closed_jacobian(T).sum(0), rtol=1e-9)
    # vmap: one SciPy call per example; jit; and their gradients
    ts = np.stack([T, 1.5 * T, T + 0.2])
    want = np.stack([np.log(M_INV @ t) for t in ts])
    np.testing.assert_allclose(fg.vmap(exp_root)(ts), want, rtol=1e-8)
    np.testing.assert_allclose(fg.jit(exp_root)(T), want[0], rtol=1e-8)
    grads = fg.vmap(fg.grad(lambda t: exp_root(t, options=TIGHT).sum()))(ts)
    np.testing.assert_allclose(grads, np.stack([closed_jacobian(t).sum(0) for t in ts]),
                               rtol=1e-8)
    np.testing.assert_allclose(fg.jit(fg.grad(lambda t: exp_root(t, options=TIGHT).sum()))(T),
                               grads[0], rtol=1e-10)
    success, status = fg.jit(lambda t: (lambda r: (r.success, r.status))(
        root(exp_system, np.zeros(3), args=(t,))))(T)
    assert bool(success) and int(status) == 1


def test_root_refuses_what_it_cannot_differentiate():
    # x[1] does not enter: every x[1] is a root, J is singular, dx*/dt does not exist
    with pytest.raises(ValueError, match="Jacobian of fun in x at the root is singular"):
        fg.grad(lambda t: root(lambda x, t: np.stack([x[0] - t, 0.0 * x[1]]), np.zeros(2),
                               args=(t,)).x.sum())(1.0)
    # a search stopped short: SciPy's message, and no derivative
    with pytest.raises(ValueError, match="did not converge.*maxfev"):
        fg.grad(lambda t: root(exp_system, np.zeros(3), args=(t,),
                               options={"maxfev": 2}).x.sum())(T)
    # without a derivative, the failed result is SciPy's to read, as it is there
    assert not root(exp_system, np.zeros(3), args=(T,), options={"maxfev": 2}).success
    # lm on more equations than unknowns: a least-squares point, not a root
    with pytest.raises(ValueError, match="3 values for 2 unknowns"):
        fg.grad(lambda t: root(lambda x, t: np.stack([x[0] - t, x[1] - 1.0, x[0] + x[1]]),
                               np.zeros(2), args=(t,), method="lm").x.sum())(1.0)


# --- fsolve ---------------------------------------------------------------------------------------

def fsolve_example(x):
    return [x[0] * np.cos(x[1]) - 4, x[1] * x[0] - x[1] - 5]


def test_fsolve_equals_scipy_with_and_without_full_output():
    np.testing.assert_allclose(fsolve(fsolve_example, [1, 1]),
                               optimize.fsolve(fsolve_example, [1, 1]), rtol=1e-8)
    x, info, ier, mesg = fsolve(fsolve_example, [1, 1], full_output=True)
    sx, sinfo, sier, smesg = optimize.fsolve(fsolve_example, [1, 1], full_output=True)
    assert (ier, mesg) == (sier, smesg) == (1, "The solution converged.")
    assert set(sinfo) <= set(info)   # (and njev: funcgrad's Jacobian is evaluated)
    np.testing.assert_allclose(info["fvec"], 0.0, atol=1e-9)
    # SciPy flattens x0 and hands func a 1-D array: so does this
    assert fsolve(lambda x: x ** 2 - 4.0, 1.0).shape == (1,)


def test_fsolve_warns_as_scipy_and_differentiates():
    # (x**2 + 1 has no real root: hybrj stops with a warning)
    with pytest.warns(RuntimeWarning, match="not making good progress"):
        fsolve(lambda x: x ** 2 + 1.0, 1.0)
    with pytest.warns(RuntimeWarning, match="not making good progress"):
        optimize.fsolve(lambda x: x ** 2 + 1.0, 1.0)

    def x_of(c):   # x* = c**(1/3)
        return fsolve(lambda x, c: x ** 3 - c, [1.0], args=(c,), xtol=1e-14)[0]

    np.testing.assert_allclose(fg.grad(x_of)(8.0), 1 / 12, rtol=1e-12)
    np.testing.assert_allclose(fg.grad(fg.grad(x_of))(8.0), -2 / 9 * 8.0 ** (-5 / 3),
                               rtol=1e-10)
    np.testing.assert_allclose(fg.jit(fg.grad(x_of))(8.0), 1 / 12, rtol=1e-12)
    # SciPy's own fprime(x, *args) steers the search (SciPy's steps exactly), the root's
    # derivative is funcgrad's
    def jac(x, c):
        return np.array([[3 * x[0] ** 2]])

    x_own = fsolve(lambda x, c: x ** 3 - c, [1.0], args=(8.0,), fprime=jac, full_output=True)
    x_scipy = optimize.fsolve(lambda x, c: x ** 3 - c, [1.0], args=(8.0,), fprime=jac,
                              full_output=True)
    assert np.array_equal(x_own[0], x_scipy[0]) and x_own[1]["nfev"] == x_scipy[1]["nfev"]
    np.testing.assert_allclose(fg.grad(lambda c: fsolve(lambda x, c: x ** 3 - c, [1.0],
                                                        args=(c,), fprime=jac)[0])(8.0),
                               1 / 12, rtol=1e-9)
    with pytest.raises(ValueError, match="pass the Jacobian as a function"):
        fsolve(fsolve_example, [1.0, 1.0], fprime=True)


# --- least_squares --------------------------------------------------------------------------------

def rosenbrock_residuals(x):
    return np.stack([10 * (x[1] - x[0] ** 2), (1 - x[0])])


@pytest.mark.parametrize("method", ["trf", "dogbox", "lm"])
def test_least_squares_equals_scipy_on_rosenbrock(method):
    ours = least_squares(rosenbrock_residuals, np.array([2.0, 2.0]), method=method)
    theirs = optimize.least_squares(rosenbrock_residuals, np.array([2.0, 2.0]), method=method)
    np.testing.assert_allclose(ours.x, theirs.x, rtol=1e-8)
    np.testing.assert_allclose(ours.x, [1.0, 1.0], rtol=1e-8)
    assert ours.success and ours.cost < 1e-20
    for field in ("fun", "jac", "grad", "optimality", "active_mask", "status", "message"):
        assert field in ours
    # SciPy's bounded example: x[1] held at 1.5
    bounded = least_squares(rosenbrock_residuals, np.array([2.0, 2.0]),
                            bounds=([-np.inf, 1.5], np.inf))
    np.testing.assert_allclose(bounded.x, optimize.least_squares(
        rosenbrock_residuals, np.array([2.0, 2.0]), bounds=([-np.inf, 1.5], np.inf)).x,
        rtol=1e-7)


TD = np.linspace(0.0, 3.0, 12)
Y = 2.0 * np.exp(-0.7 * TD) + 0.1 * np.sin(5 * TD)
DESIGN = np.stack([np.ones_like(TD), TD, TD ** 2], axis=1)


def decay(p, t, y):
    return p[0] * np.exp(-p[1] * t) - y


LS_TIGHT = {"ftol": 1e-15, "xtol": 1e-15, "gtol": 1e-15}


RHO = {"linear": lambda z: z, "soft_l1": lambda z: 2 * (np.sqrt(1 + z) - 1),
       "cauchy": np.log1p, "huber": lambda z: np.where(z <= 1, z, 2 * np.sqrt(z) - 1)}


def ls_cost(p, t, y, loss="linear"):
    return 0.5 * np.sum(RHO[loss](decay(p, t, y) ** 2))


def scipy_fit(y, loss="linear", t=TD):
    """The reference: SciPy's least_squares, its answer polished to rounding by SciPy's
    hybrj on the cost's gradient (least_squares stops on its cost's relative change, so
    its x is good to about 1e-9 only: too coarse for differences)."""
    res = optimize.least_squares(decay, np.array([1.0, 1.0]), args=(t, y), loss=loss,
                                 jac=lambda p, t, y: fg.jacfwd(decay)(p, t, y))
    polished = optimize.root(fg.grad(ls_cost), res.x, args=(t, y, loss),
                             jac=fg.hessian(ls_cost), options={"xtol": 1e-14})
    return polished.x


def scipy_fit_derivative(y):
    """dx*/dy at the reference solution, by the implicit function theorem written out in
    NumPy: -H^-1 d2cost/dx dy."""
    x = scipy_fit(y)
    mixed = fg.jacfwd(fg.grad(ls_cost), argnums=2)(x, TD, y)
    return -np.linalg.solve(fg.hessian(ls_cost)(x, TD, y), mixed)


def test_least_squares_linear_model_is_the_pseudo_inverse():
    # r = D p - y: p* = pinv(D) y, dp*/dy = pinv(D), for every method
    for method in ("trf", "dogbox", "lm"):
        got = fg.jacrev(lambda y: least_squares(lambda p, y: DESIGN @ p - y, np.zeros(3),
                                                args=(y,), method=method).x)(Y)
        np.testing.assert_allclose(got, np.linalg.pinv(DESIGN), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("loss", ["linear", "soft_l1", "cauchy", "huber"])
def test_least_squares_against_central_differences(loss):
    def fit(y):
        return least_squares(decay, np.array([1.0, 1.0]), args=(TD, y), loss=loss,
                             **LS_TIGHT).x

    np.testing.assert_allclose(fit(Y), scipy_fit(Y, loss), rtol=1e-8)
    want = central(lambda y: scipy_fit(y, loss), Y)
    np.testing.assert_allclose(fg.jacrev(fit)(Y), want, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(fg.jacfwd(fit)(Y), want, rtol=1e-6, atol=1e-8)
    # the times (passed as kwargs) are differentiated too
    got_t = fg.jacrev(lambda t: least_squares(lambda p, y, t: decay(p, t, y),
                                              np.array([1.0, 1.0]), args=(Y,),
                                              kwargs={"t": t}, loss=loss, **LS_TIGHT).x)(TD)
    np.testing.assert_allclose(got_t, central(lambda t: scipy_fit(Y, loss, t), TD),
                               rtol=1e-6, atol=1e-8)


def test_least_squares_second_order_and_result_fields():
    def rate(y):
        return least_squares(decay, np.array([1.0, 1.0]), args=(TD, y), **LS_TIGHT).x[1]

    hess = fg.hessian(rate)(Y)
    np.testing.assert_allclose(fg.grad(rate)(Y), scipy_fit_derivative(Y)[1], rtol=1e-7)
    fd = central(lambda y: scipy_fit_derivative(y)[1], Y, h=1e-5)
    np.testing.assert_allclose(hess, fd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(fg.jacrev(fg.grad(rate))(Y), hess, rtol=1e-9, atol=1e-12)
    # cost, fun, jac and grad are recomputed at the differentiable x: d cost / dy is the
    # envelope theorem's partial derivative, -fun
    res = least_squares(decay, np.array([1.0, 1.0]), args=(TD, Y), **LS_TIGHT)
    g_cost = fg.grad(lambda y: least_squares(decay, np.array([1.0, 1.0]), args=(TD, y),
                                             **LS_TIGHT).cost)(Y)
    np.testing.assert_allclose(g_cost, -res.fun, rtol=1e-7, atol=1e-10)
    g_jac = fg.jacrev(lambda y: least_squares(decay, np.array([1.0, 1.0]), args=(TD, y),
                                              **LS_TIGHT).jac)(Y)
    fd_jac = central(lambda y: fg.jacfwd(decay)(scipy_fit(y), TD, y), Y)
    np.testing.assert_allclose(g_jac, fd_jac, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("method", ["trf", "dogbox"])
def test_least_squares_bounds_give_the_kkt_derivative(method):
    # p[2] <= -0.05 holds (the free quadratic coefficient would be larger): its derivative
    # is zero, and p[:2] move as the least squares of the first two columns
    y = 1.0 + 0.5 * TD + 0.02 * TD ** 2
    upper = np.array([np.inf, np.inf, -0.05])

    def fit(y):
        return least_squares(lambda p, y: DESIGN @ p - y, np.array([0.0, 0.0, -1.0]),
                             args=(y,), bounds=(-np.inf, upper), method=method,
                             **LS_TIGHT).x

    x = fit(y)
    np.testing.assert_allclose(x[2], -0.05, atol=1e-9)
    want = np.zeros((3, TD.size))
    want[:2] = np.linalg.pinv(DESIGN[:, :2])
    np.testing.assert_allclose(fg.jacrev(fit)(y), want, rtol=1e-7, atol=1e-9)


def test_least_squares_float32_vmap_jit_and_tensor():
    res = least_squares(lambda p, y: DESIGN @ p - y, np.zeros(3, np.float32),
                        args=(Y.astype(np.float32),))
    assert res.x.dtype == np.float32
    ys = np.stack([Y, 2 * Y, Y + 1.0])

    def fit(y):
        return least_squares(decay, np.array([1.0, 1.0]), args=(TD, y), **LS_TIGHT).x

    np.testing.assert_allclose(fg.vmap(fit)(ys), np.stack([scipy_fit(y) for y in ys]),
                               rtol=1e-9)
    np.testing.assert_allclose(fg.jit(fit)(Y), scipy_fit(Y), rtol=1e-9)
    np.testing.assert_allclose(fg.jit(fg.jacrev(fit))(Y), fg.jacrev(fit)(Y), rtol=1e-10)
    y = fg.Tensor(Y, requires_grad=True)
    fit(y)[1].backward()
    np.testing.assert_allclose(y.grad.detach(), fg.jacrev(fit)(Y)[1], rtol=1e-10)


def test_least_squares_refuses_what_it_cannot_differentiate():
    with pytest.raises(NotImplementedError, match="loss is a callable"):
        fg.grad(lambda y: least_squares(decay, np.ones(2), args=(TD, y),
                                        loss=lambda z: np.stack([z, np.ones_like(z),
                                                                 np.zeros_like(z)])).x[0])(Y)
    with pytest.raises(ValueError, match="did not converge"):
        fg.grad(lambda y: least_squares(decay, np.ones(2), args=(TD, y), max_nfev=1).x[0])(Y)
    # a redundant parameter: p[0] + p[1] enter only as their sum, the fit is not isolated
    with pytest.raises(ValueError, match="Hessian of the cost in x at the optimum is singular"):
        fg.grad(lambda y: least_squares(lambda p, y: p[0] + p[1] + TD * 0.0 - y, np.ones(2),
                                        args=(y,)).x[0])(Y)


# --- curve_fit ------------------------------------------------------------------------------------

def model(x, a, b, c):
    return a * np.exp(-b * x) + c


XDATA = np.linspace(0, 4, 50)
YDATA = model(XDATA, 2.5, 1.3, 0.5) + 0.05 * np.sin(7 * XDATA)
SIGMA = 0.05 + 0.02 * XDATA


@pytest.mark.parametrize("kwargs", [{}, {"method": "trf"}, {"method": "dogbox"},
                                    {"bounds": (0, [3.0, 1.0, 0.5])},
                                    {"sigma": SIGMA}, {"sigma": SIGMA, "absolute_sigma": True},
                                    {"sigma": np.diag(SIGMA ** 2) + 1e-4}])
def test_curve_fit_equals_scipy(kwargs):
    popt, pcov = curve_fit(model, XDATA, YDATA, **kwargs)
    spopt, spcov = optimize.curve_fit(model, XDATA, YDATA, **kwargs)
    np.testing.assert_allclose(popt, spopt, rtol=1e-6)
    # (SciPy's pcov comes from its finite-difference Jacobian: agreement to its accuracy)
    np.testing.assert_allclose(pcov, spcov, rtol=1e-4, atol=1e-12)


def reference_fit(y, x=XDATA):
    """popt and pcov: SciPy's curve_fit, polished as scipy_fit is; pcov SciPy's formula
    with the exact Jacobian there."""
    def residual(p, x, y):
        return model(x, p[0], p[1], p[2]) - y

    def cost(p, x, y):
        return 0.5 * np.sum(residual(p, x, y) ** 2)

    start = optimize.curve_fit(model, x, y)[0]
    p = optimize.root(fg.grad(cost), start, args=(x, y), jac=fg.hessian(cost),
                      options={"xtol": 1e-14}).x
    j = fg.jacfwd(residual)(p, x, y)
    return p, np.linalg.inv(j.T @ j) * np.sum(residual(p, x, y) ** 2) / (y.size - 3)


def test_curve_fit_differentiates_in_the_data():
    def fit(y, x=XDATA):
        return curve_fit(model, x, y, **LS_TIGHT)

    np.testing.assert_allclose(fit(YDATA)[0], reference_fit(YDATA)[0], rtol=1e-8)
    want_y = central(lambda y: reference_fit(y)[0], YDATA)
    np.testing.assert_allclose(fg.jacrev(lambda y: fit(y)[0])(YDATA), want_y,
                               rtol=1e-6, atol=1e-8)
    want_x = central(lambda x: reference_fit(YDATA, x)[0], XDATA)
    np.testing.assert_allclose(fg.jacfwd(lambda x: fit(YDATA, x)[0])(XDATA), want_x,
                               rtol=1e-6, atol=1e-8)
    # pcov carries its derivative too
    want_cov = central(lambda y: reference_fit(y)[1], YDATA)
    np.testing.assert_allclose(fg.jacrev(lambda y: fit(y)[1])(YDATA), want_cov,
                               rtol=1e-5, atol=1e-12)
    # a linear model: popt = pinv(X) y exactly
    got = fg.jacrev(lambda y: curve_fit(lambda x, a, b: a + b * x, XDATA, y)[0])(YDATA)
    np.testing.assert_allclose(got, np.linalg.pinv(np.stack([np.ones(50), XDATA], 1)),
                               rtol=1e-8, atol=1e-12)
    # vmap and jit
    ys = np.stack([YDATA, YDATA * 1.1])
    np.testing.assert_allclose(fg.vmap(lambda y: fit(y)[0])(ys),
                               np.stack([reference_fit(y)[0] for y in ys]), rtol=1e-9)
    popt, pcov = fg.jit(fit)(YDATA)
    np.testing.assert_allclose(pcov, reference_fit(YDATA)[1], rtol=1e-8)


def test_curve_fit_errors_are_scipys_and_no_derivative_is_dropped():
    with pytest.raises(RuntimeError, match="Optimal parameters not found"):
        curve_fit(model, XDATA, YDATA, maxfev=2)
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        curve_fit(model, XDATA, np.where(XDATA > 2, np.nan, YDATA))
    with pytest.raises(ValueError, match="Method 'lm' only works for unconstrained"):
        curve_fit(model, XDATA, YDATA, bounds=(0, 3), method="lm")
    # a model that uses a + b only: the fit is not isolated (J has deficient rank)
    def redundant(x, a, b):
        return (a + b) * x

    with pytest.raises(ValueError, match="Hessian of the cost in x at the optimum is singular"):
        fg.jacrev(lambda y: curve_fit(redundant, XDATA, y, method="trf")[1])(YDATA)
    with pytest.raises(NotImplementedError, match="loss='soft_l1'"):
        fg.grad(lambda y: curve_fit(model, XDATA, y, method="trf", loss="soft_l1")[0][0])(
            YDATA)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        popt, pcov = curve_fit(model, XDATA, YDATA)   # (no warning where SciPy gives none)


# --- scalar roots ---------------------------------------------------------------------------------

def cube(x, c):
    return x ** 3 - c


@pytest.mark.parametrize("solver", [brentq, bisect])
def test_bracketed_roots_equal_scipy_and_differentiate(solver):
    theirs = getattr(optimize, solver.__name__)
    assert solver(cube, 0, 3, args=(2.0,)) == theirs(cube, 0, 3, args=(2.0,))
    x, r = solver(cube, 0, 3, args=(2.0,), full_output=True)
    assert r.converged and r.root == x

    def x_of(c):   # c**(1/3)
        return solver(cube, 0.0, 3.0, args=(c,))

    np.testing.assert_allclose(fg.grad(x_of)(2.0), 2.0 ** (-2 / 3) / 3, rtol=1e-10)
    np.testing.assert_allclose(fg.grad(fg.grad(x_of))(2.0), -2 / 9 * 2.0 ** (-5 / 3),
                               rtol=1e-9)
    _, tangent = fg.jvp(x_of, (2.0,), (1.0,))
    np.testing.assert_allclose(tangent, 2.0 ** (-2 / 3) / 3, rtol=1e-10)
    cs = np.array([1.0, 2.0, 8.0])
    np.testing.assert_allclose(fg.vmap(x_of)(cs), np.cbrt(cs), rtol=1e-10)
    np.testing.assert_allclose(fg.jit(fg.grad(x_of))(8.0), 1 / 12, rtol=1e-10)


def test_newton_secant_halley_and_arrays():
    assert newton(cube, 1.5, args=(2.0,)) == optimize.newton(cube, 1.5, args=(2.0,))
    np.testing.assert_allclose(newton(cube, 1.5, args=(2.0,), fprime=True), np.cbrt(2.0),
                               rtol=1e-14)
    x32 = newton(cube, np.float32(1.5), args=(np.float32(2.0),), fprime=True, fprime2=True)
    assert x32.dtype == np.float32 and abs(x32 - np.cbrt(2.0)) < 1e-6

    def x_of(c, **kwargs):
        return newton(cube, 1.5, args=(c,), **kwargs)

    for kwargs in ({}, {"fprime": True}, {"fprime": True, "fprime2": True}):
        np.testing.assert_allclose(fg.grad(lambda c: x_of(c, **kwargs))(8.0), 1 / 12,
                                   rtol=1e-9)
    # an array x0 solves elementwise; each root moves with its own c
    cs = np.array([2.0, 8.0, 27.0])
    got = fg.jacrev(lambda c: newton(cube, np.full(3, 1.5), args=(c,)))(cs)
    np.testing.assert_allclose(got, np.diag(cs ** (-2 / 3) / 3), rtol=1e-9, atol=1e-14)
    # SciPy's fprime and fprime2 functions: SciPy's steps, funcgrad's derivative
    own = dict(fprime=lambda x, c: 3 * x ** 2, fprime2=lambda x, c: 6 * x)
    assert newton(cube, 1.5, args=(2.0,), **own) == optimize.newton(cube, 1.5, args=(2.0,),
                                                                     **own)
    np.testing.assert_allclose(fg.grad(lambda c: x_of(c, **own))(8.0), 1 / 12, rtol=1e-9)


@pytest.mark.parametrize("method", ["brentq", "brenth", "ridder", "toms748", "bisect",
                                    "newton", "secant", "halley"])
def test_root_scalar_every_method(method):
    where = ({"bracket": [0, 3]} if method in ("brentq", "brenth", "ridder", "toms748",
                                               "bisect")
             else {"x0": 1.0, "x1": 1.5} if method == "secant" else {"x0": 1.0})
    sol = root_scalar(cube, args=(2.0,), method=method, **where)
    assert sol.converged and sol.method == method
    np.testing.assert_allclose(sol.root, np.cbrt(2.0), rtol=1e-9)
    if method != "halley":   # (SciPy's halley needs the fprime2 funcgrad supplies)
        np.testing.assert_allclose(sol.root, optimize.root_scalar(
            cube, args=(2.0,), method=method, **where).root, rtol=1e-9)
    g = fg.grad(lambda c: root_scalar(cube, args=(c,), method=method, **where).root)(2.0)
    np.testing.assert_allclose(g, 2.0 ** (-2 / 3) / 3, rtol=1e-8)


def test_root_scalar_under_jit_and_captured_values():
    # Lambert's W: x e**x = w, W' = W / (w (1 + W)); w captured, not passed as args
    def lambert_w(w):
        return root_scalar(lambda x: x * np.exp(x) - w, x0=1.0).root

    w = lambert_w(2.0)
    np.testing.assert_allclose(w * np.exp(w), 2.0, rtol=1e-12)
    np.testing.assert_allclose(fg.grad(lambert_w)(2.0), w / (2.0 * (1 + w)), rtol=1e-9)
    root_, converged = fg.jit(lambda c: (lambda s: (s.root, s.converged))(
        root_scalar(cube, args=(c,), x0=1.0)))(8.0)
    assert bool(converged) and abs(float(root_) - 2.0) < 1e-12


def test_scalar_roots_refuse_what_they_cannot_differentiate():
    # (x - c)**3 crosses zero at c, but with zero slope: the root has no derivative
    with pytest.raises(ValueError, match="derivative of f in x at the root is singular"):
        fg.grad(lambda c: brentq(lambda x, c: (x - c) ** 3, -1.0, 2.0, args=(c,)))(0.5)
    with pytest.raises(ValueError, match="did not converge"):
        fg.grad(lambda c: brentq(cube, 0.0, 3.0, args=(c,), maxiter=2, disp=False))(2.0)
    with pytest.raises(ValueError, match="fprime=True is not supported"):
        root_scalar(cube, args=(2.0,), x0=1.0, fprime=True)   # (SciPy's: f returns f')
    sol = root_scalar(cube, args=(2.0,), x0=1.0, fprime=lambda x, c: 3 * x ** 2)
    assert sol.root == optimize.root_scalar(cube, args=(2.0,), x0=1.0,
                                            fprime=lambda x, c: 3 * x ** 2).root


def test_the_users_own_jacobian_steers_the_search_as_in_scipy():
    """root(jac=f), least_squares(jac=f) as SciPy calls them (with args, and kwargs for
    least_squares): SciPy's steps and result exactly; the solution's derivative funcgrad's.
    A jac that is not a function (root's jac=True: fun returning its Jacobian too) is
    refused with the fix."""
    def fun(x, a):
        return np.stack([x[0] + 0.5 * (x[0] - x[1]) ** 3 - a, 0.5 * (x[1] - x[0]) ** 3 + x[1]])

    def jac(x, a):
        d = 1.5 * (x[0] - x[1]) ** 2
        return np.array([[1 + d, -d], [-d, 1 + d]])

    ours = root(fun, np.zeros(2), args=(1.0,), jac=jac, method="hybr")
    theirs = optimize.root(fun, np.zeros(2), args=(1.0,), jac=jac, method="hybr")
    assert np.array_equal(ours.x, theirs.x) and ours.nfev == theirs.nfev
    assert ours.njev == theirs.njev
    dx = fg.jacfwd(lambda a: root(fun, np.zeros(2), args=(a,), jac=jac).x)(1.0)
    J = jac(ours.x, 1.0)
    np.testing.assert_allclose(dx, np.linalg.solve(J, [1.0, 0.0]), rtol=1e-9)
    with pytest.raises(ValueError, match="jac=True"):
        root(fun, np.zeros(2), args=(1.0,), jac=True)

    t = np.linspace(0, 1, 9)

    def residual(p, t, y, *, scale):
        return scale * (p[0] * np.exp(p[1] * t) - y)

    def residual_jac(p, t, y, *, scale):
        e = np.exp(p[1] * t)
        return scale * np.stack([e, p[0] * t * e], axis=1)

    y = 2.0 * np.exp(-1.3 * t) + 0.01 * np.sin(7 * t)
    ours = least_squares(residual, [1.0, -1.0], jac=residual_jac, args=(t, y),
                         kwargs={"scale": 2.0})
    theirs = optimize.least_squares(residual, [1.0, -1.0], jac=residual_jac, args=(t, y),
                                    kwargs={"scale": 2.0})
    assert np.array_equal(ours.x, theirs.x) and ours.njev == theirs.njev
    g = fg.grad(lambda y: least_squares(residual, [1.0, -1.0], jac=residual_jac, args=(t, y),
                                        kwargs={"scale": 2.0}).x[0])(y)
    # (the same derivative as without the user's jac, which only steers the search; that
    # one is checked against finite differences above)
    want = fg.grad(lambda y: least_squares(residual, [1.0, -1.0], args=(t, y),
                                           kwargs={"scale": 2.0}).x[0])(y)
    np.testing.assert_allclose(g, want, rtol=1e-6)
    with pytest.raises(ValueError, match="not one of SciPy's"):
        least_squares(residual, [1.0, -1.0], jac="5-point", args=(t, y), kwargs={"scale": 2.0})


def test_a_list_x0_is_an_array_as_in_scipy():
    """SciPy's x0 is array_like: a list of numbers reaches fun as an ndarray (funcgrad passed
    the list itself, so fun's x ** 2 raised TypeError), integers become floats; a ragged or
    dict x0 stays a pytree."""
    from funcgrad.scipy.optimize import minimize

    def quartic(x):
        return np.sum((x - np.array([1.0, -2.0])) ** 4) + np.sum(x ** 2)

    np.testing.assert_allclose(minimize(quartic, [0.0, 0.0]).x,
                               optimize.minimize(quartic, [0.0, 0.0]).x, atol=1e-5)
    np.testing.assert_allclose(root(lambda x: x ** 2 - 2.0, [1, 1]).x, np.sqrt([2.0, 2.0]))
    assert least_squares(lambda x: x ** 2 - 2.0, [1.0, 1.0]).x.dtype == np.float64
    mixed = minimize(lambda p: p["a"][0] ** 2 + (p["b"] - 1.0) ** 2, {"a": [3.0], "b": 0.0})
    np.testing.assert_allclose(mixed.x["b"], 1.0, atol=1e-6)


# --- minimize_scalar ------------------------------------------------------------------------------

def _cosh_tilt(x, a):
    return np.cosh(x) - a * x   # minimized at asinh(a)


@pytest.mark.parametrize("method", ["brent", "golden", "bounded"])
def test_minimize_scalar_is_scipys_and_its_minimizer_moves_with_args(method):
    from funcgrad.scipy.optimize import minimize_scalar
    where = {"bounds": (-3.0, 3.0)} if method == "bounded" else {}
    ours = minimize_scalar(_cosh_tilt, args=(0.75,), method=method, **where)
    theirs = optimize.minimize_scalar(_cosh_tilt, args=(0.75,), method=method, **where)
    assert ours.x == theirs.x and ours.nfev == theirs.nfev and ours.success
    np.testing.assert_allclose(ours.fun, theirs.fun, rtol=1e-15)

    def x_of(a):
        return minimize_scalar(_cosh_tilt, args=(a,), method=method, **where).x

    for transform in (fg.grad, lambda f: fg.jit(fg.grad(f))):
        np.testing.assert_allclose(transform(x_of)(0.75), 1 / np.sqrt(1 + 0.75 ** 2),
                                   rtol=1e-7)
    np.testing.assert_allclose(fg.grad(fg.grad(x_of))(0.75), -0.75 / (1 + 0.75 ** 2) ** 1.5,
                               rtol=1e-6)
    a = np.array([0.2, 0.75, 1.5])
    np.testing.assert_allclose(fg.vmap(x_of)(a), np.arcsinh(a), atol=1e-5)
    # res.fun's first derivative: the envelope theorem, d/da min_x f = -x*
    np.testing.assert_allclose(fg.grad(lambda a: minimize_scalar(
        _cosh_tilt, args=(a,), method=method, **where).fun)(0.75), -np.arcsinh(0.75),
        rtol=1e-6)


def test_minimize_scalar_bounded_minimum_on_a_bound_stays_there():
    from funcgrad.scipy.optimize import minimize_scalar
    # asinh(3) = 1.82 lies beyond the bound 1: the minimum is x = 1, whatever a near 3
    x_of = lambda a: minimize_scalar(_cosh_tilt, args=(a,), bounds=(-1.0, 1.0),  # noqa: E731
                                     method="bounded").x
    np.testing.assert_allclose(x_of(3.0), 1.0, atol=1e-5)
    assert fg.grad(x_of)(3.0) == 0.0
    # a flat minimum has no derivative: raised, not a NaN or a wrong number
    with pytest.raises(ValueError, match="minimize_scalar: the second derivative .* is singular"):
        fg.grad(lambda a: minimize_scalar(lambda x, a: (x - a) ** 4, args=(a,)).x)(1.0)
    with pytest.raises(ValueError, match="Unknown solver"):
        minimize_scalar(_cosh_tilt, args=(1.0,), method="newton")

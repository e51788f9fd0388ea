"""fg.scipy.optimize.minimize differentiated in args by the implicit function theorem:
against closed forms (a quadratic's x* = A^-1 b), against central differences of the
whole solve (SciPy re-run at theta +- h), to second order, under vmap and jit, on eager
Tensors; and the errors where the implicit rule does not hold."""
import numpy as np
import pytest

import funcgrad as fg
from funcgrad.errors import DerivativeDroppedError

optimize = pytest.importorskip("scipy.optimize")
from funcgrad.scipy.optimize import minimize  # noqa: E402

A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
A_INV = np.linalg.inv(A)
THETA = np.array([0.3, -0.7, 1.1])


def quadratic(x, t):
    # x* = A^-1 sin(t): dx*/dt = A^-1 diag(cos t)
    return 0.5 * x @ A @ x - np.sin(t) @ x


def argmin(t, **kwargs):
    return minimize(quadratic, np.zeros(3), args=(t,), **kwargs).x


def smooth(x, p):
    """Convex, not quadratic: a unique minimum that moves nonlinearly with p."""
    return (np.sum(np.cosh(x - p["a"])) + 0.5 * p["c"] * np.sum(x ** 4)
            + 0.5 * x @ A @ x)


P = {"a": np.array([0.4, -0.2, 0.9]), "c": np.array(0.7)}


def solve_plain(fun, p, x0=np.zeros(3)):
    """The minimizer by SciPy alone, tightly: the reference for finite differences."""
    return optimize.minimize(lambda x: fun(x, p), x0, method="trust-exact",
                             jac=lambda x: fg.grad(fun)(x, p),
                             hess=lambda x: fg.hessian(fun)(x, p), tol=1e-14).x


def central(fn, p, key, h=1e-5):
    """d fn(p) / d p[key] by central differences, one column per entry of p[key]."""
    base = np.asarray(p[key], dtype=float)
    cols = []
    for i in range(base.size):
        step = np.zeros(base.size)
        step[i] = h
        plus = dict(p, **{key: base + step.reshape(base.shape)})
        minus = dict(p, **{key: base - step.reshape(base.shape)})
        cols.append((np.asarray(fn(plus)) - np.asarray(fn(minus))) / (2 * h))
    out = np.stack(cols, axis=-1)
    return out.reshape(out.shape[:-1] + base.shape)


# --- closed forms ---------------------------------------------------------------------------

def test_the_reported_call_now_differentiates():
    # the report's reproduction: x* = t, so d sum(x*) / dt = 1 (it raised, with a hint
    # that sent the user to the function they were calling)
    g = fg.grad(lambda th: minimize(lambda x, t: ((x - t) ** 2).sum(), np.zeros(2),
                                    args=(th,)).x.sum())(np.ones(2))
    np.testing.assert_allclose(g, np.ones(2), rtol=1e-6)


@pytest.mark.parametrize("method", ["BFGS", "trust-exact", "Newton-CG", "Nelder-Mead"])
def test_quadratic_jacobian_is_the_closed_form(method):
    options = {"xatol": 1e-12, "fatol": 1e-14, "maxiter": 20000} if method == "Nelder-Mead" \
        else None
    want = A_INV * np.cos(THETA)  # A^-1 diag(cos t)
    np.testing.assert_allclose(argmin(THETA, method=method, options=options),
                               A_INV @ np.sin(THETA), atol=1e-6)
    for jac in (fg.jacrev, fg.jacfwd):
        got = jac(lambda t: argmin(t, method=method, options=options))(THETA)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_derivative_in_the_matrix_too():
    # x* = M^-1 b: d x* / d M_ij = -M^-1 e_i x*_j
    b = np.array([1.0, -2.0, 0.5])

    def solve(m):
        return minimize(lambda x, m: 0.5 * x @ m @ x - b @ x, np.zeros(3), args=(m,),
                        method="trust-exact").x

    x_star = A_INV @ b
    got = fg.jacrev(solve)(A)
    want = -np.einsum("ki,j->kij", A_INV, x_star)
    # (the objective sees only the symmetric part of M: compare those derivatives)
    np.testing.assert_allclose(got + got.transpose(0, 2, 1), want + want.transpose(0, 2, 1),
                               rtol=1e-6, atol=1e-8)


def test_second_order_closed_form_and_both_routes_agree():
    # sum(x*) = 1^T A^-1 sin(t): its Hessian is -diag(A^-1 1 * sin t)
    def total(t):
        return argmin(t, method="trust-exact").sum()

    want = np.diag(-(A_INV @ np.ones(3)) * np.sin(THETA))
    fwd_rev = fg.hessian(total)(THETA)
    rev_rev = fg.jacrev(fg.grad(total))(THETA)
    np.testing.assert_allclose(fwd_rev, want, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(rev_rev, want, rtol=1e-6, atol=1e-8)


# --- against finite differences of the whole solve ----------------------------------------------

def test_smooth_problem_against_central_differences():
    def x_star(p):
        return minimize(smooth, np.zeros(3), args=(p,), method="trust-exact").x

    got = fg.jacrev(x_star)(P)
    np.testing.assert_allclose(got["a"], central(lambda p: solve_plain(smooth, p), P, "a"),
                               rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got["c"], central(lambda p: solve_plain(smooth, p), P, "c"),
                               rtol=1e-5, atol=1e-7)
    fwd = fg.jacfwd(x_star)(P)
    np.testing.assert_allclose(fwd["a"], got["a"], rtol=1e-10, atol=1e-12)


def value_plain_grad_target(p):
    # the envelope theorem's derivative at a re-solved optimum: a function of p whose
    # finite differences are the second derivative of the optimal value
    x_star = fg.stop_gradient(solve_plain(smooth, fg.stop_gradient(p)))
    return smooth(x_star, p)


def test_fun_is_differentiable_by_the_envelope_theorem_and_to_second_order():
    def value(p):
        return minimize(smooth, np.zeros(3), args=(p,), method="trust-exact").fun

    def value_plain(p):
        return smooth(solve_plain(smooth, p), p)

    g = fg.grad(value)(P)
    np.testing.assert_allclose(g["a"], central(value_plain, P, "a"), rtol=1e-6, atol=1e-8)
    # the envelope theorem: d f(x*(p), p) / dp is the partial derivative at x*
    x_star = solve_plain(smooth, P)
    partial = fg.grad(lambda p: smooth(x_star, p))(P)
    np.testing.assert_allclose(g["c"], partial["c"], rtol=1e-6)
    # second order includes the optimum's motion (the partial derivative alone does not)
    h = fg.jacfwd(lambda a: fg.grad(value)(dict(P, a=a))["a"])(P["a"])
    fd = central(lambda p: fg.grad(value_plain_grad_target)(p)["a"], P, "a", h=1e-4)
    np.testing.assert_allclose(h, fd, rtol=1e-4, atol=1e-6)


def test_values_fun_closes_over_are_differentiated_too():
    def x_star(a):
        return minimize(lambda x: smooth(x, dict(P, a=a)), np.zeros(3),
                        method="trust-exact").x

    got = fg.jacrev(x_star)(P["a"])
    np.testing.assert_allclose(got, central(lambda p: solve_plain(smooth, p), P, "a"),
                               rtol=1e-5, atol=1e-7)


def test_pytree_x_and_x0_get_no_derivative():
    def fun(x, t):
        return np.sum((x["u"] - t[:2]) ** 2) + (x["v"] - 2.0 * t[2]) ** 2

    def solve(x0, t):
        res = minimize(fun, x0, args=(t,))
        return res.x["u"].sum() + 3.0 * res.x["v"]

    x0 = {"u": np.zeros(2), "v": np.array(0.5)}
    g_t = fg.grad(solve, argnums=1)(x0, THETA)
    np.testing.assert_allclose(g_t, [1.0, 1.0, 6.0], rtol=1e-6)
    g_x0 = fg.grad(solve, argnums=0)(x0, THETA)
    np.testing.assert_array_equal(g_x0["u"], np.zeros(2))
    np.testing.assert_array_equal(g_x0["v"], 0.0)


def test_float32_stays_float32():
    t = THETA.astype(np.float32)
    res = minimize(quadratic, np.zeros(3, np.float32), args=(t,))
    assert res.x.dtype == np.float32
    g = fg.jacrev(lambda t: minimize(quadratic, np.zeros(3, np.float32), args=(t,)).x)(t)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, A_INV * np.cos(THETA), rtol=1e-4, atol=1e-5)


# --- eager Tensors, vmap, jit ---------------------------------------------------------------

def test_eager_tensor_args_fill_grad():
    theta = fg.Tensor(THETA, requires_grad=True)
    loss = (minimize(quadratic, np.zeros(3), args=(theta,)).x ** 2).sum()
    loss.backward()
    x_star = A_INV @ np.sin(THETA)
    np.testing.assert_allclose(theta.grad.detach(), (A_INV * np.cos(THETA)).T @ (2 * x_star),
                               rtol=1e-6)


def test_vmap_and_jit_call_scipy_back():
    thetas = np.stack([THETA, 2 * THETA, -THETA])
    # the same SciPy runs as one call per example
    want = np.stack([argmin(t) for t in thetas])
    np.testing.assert_allclose(fg.vmap(argmin)(thetas), want, rtol=1e-12)
    np.testing.assert_allclose(fg.jit(argmin)(THETA), want[0], rtol=1e-12)
    success, nit = fg.jit(lambda t: (lambda r: (r.success, r.nit))(
        minimize(quadratic, np.zeros(3), args=(t,))))(THETA)
    assert bool(success) and int(nit) > 0
    grads = fg.vmap(fg.grad(lambda t: argmin(t).sum()))(thetas)
    np.testing.assert_allclose(grads, np.cos(thetas) * (A_INV.T @ np.ones(3)), rtol=1e-6)
    jit_grad = fg.jit(fg.grad(lambda t: argmin(t).sum()))(THETA)
    np.testing.assert_allclose(jit_grad, grads[0], rtol=1e-6)


# --- where the implicit rule does not hold: errors, never a wrong derivative --------------

BOUNDS = [(None, None), (0.0, None), (None, None)]


def test_a_bound_that_holds_the_optimum_gives_the_kkt_derivative():
    # t[1] = -0.7 pushes x_1 below 0: the bound holds x_1 = 0 (its derivative is zero),
    # and the free x_F = A_FF^-1 sin(t_F) move as the unbounded problem restricted to F
    res = minimize(quadratic, np.zeros(3), args=(THETA,), bounds=BOUNDS)
    assert res.x[1] == 0.0 and res.jac[1] > 0.1   # (held, and pressed on)
    free = [0, 2]
    want = np.zeros((3, 3))
    want[np.ix_(free, free)] = np.linalg.inv(A[np.ix_(free, free)]) * np.cos(THETA[free])
    for jac in (fg.jacrev, fg.jacfwd):
        got = jac(lambda t: minimize(quadratic, np.zeros(3), args=(t,), bounds=BOUNDS).x)(THETA)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9)
    # under vmap and jit the held coordinates come back from the callback with x*
    got = fg.jit(fg.jacrev(lambda t: minimize(quadratic, np.zeros(3), args=(t,),
                                              bounds=BOUNDS).x))(THETA)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9)


def test_a_held_bound_on_a_smooth_problem_against_central_differences():
    bounds = optimize.Bounds([-np.inf, 0.1, -np.inf], [0.15, np.inf, np.inf])

    def solve_bounded(p):
        return optimize.minimize(lambda x: smooth(x, p), np.zeros(3), method="L-BFGS-B",
                                 jac=lambda x: fg.grad(smooth)(x, p), bounds=bounds,
                                 options={"ftol": 1e-16, "gtol": 1e-13}).x

    p = dict(P, a=np.array([1.2, -0.5, 0.9]))  # x_0 held at 0.15 from above, x_1 at 0.1
    x_star = solve_bounded(p)
    np.testing.assert_allclose(x_star[:2], [0.15, 0.1])
    got = fg.jacrev(lambda p: minimize(smooth, np.zeros(3), args=(p,), bounds=bounds,
                                       tol=1e-13).x)(p)
    # (L-BFGS-B's optimum is less exact than trust-exact's: a wider step for the differences)
    np.testing.assert_allclose(got["a"], central(solve_bounded, p, "a", h=1e-4),
                               rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got["c"], central(solve_bounded, p, "c", h=1e-4),
                               rtol=1e-5, atol=1e-7)
    assert np.all(got["a"][:2] == 0.0)


def test_a_bound_the_gradient_does_not_press_on_refuses_the_derivative():
    # the unbounded optimum [1, 0, 2] sits exactly on x_1 >= 0: x_1 leaves the bound for
    # some changes of t and stays for others, so x* has one-sided derivatives only
    s = A @ np.array([1.0, 0.0, 2.0])

    def solve(t):
        return minimize(lambda x, t: 0.5 * x @ A @ x - (s + t) @ x, np.array([1.0, -1.0, 2.0]),
                        args=(t,), bounds=BOUNDS).x.sum()

    with pytest.raises(ValueError, match=r"index 1\) where the gradient does not press"):
        fg.grad(solve)(np.zeros(3))
    # without a derivative, the bounded solve is SciPy's as before
    np.testing.assert_allclose(minimize(lambda x: 0.5 * x @ A @ x - s @ x,
                                        np.array([1.0, -1.0, 2.0]), bounds=BOUNDS).x,
                               [1.0, 0.0, 2.0], atol=1e-12)


def test_an_inactive_bound_keeps_the_derivative():
    def solve(t):
        return minimize(quadratic, np.zeros(3), args=(t,), bounds=[(-5.0, 5.0)] * 3).x

    np.testing.assert_allclose(fg.jacrev(solve)(THETA), A_INV * np.cos(THETA),
                               rtol=1e-5, atol=1e-6)


def test_constraints_refuse_the_derivative():
    con = {"type": "ineq", "fun": lambda x: 10.0 - x[0]}
    with pytest.raises(NotImplementedError, match="KKT"):
        fg.grad(lambda t: minimize(quadratic, np.zeros(3), args=(t,),
                                   constraints=con).x.sum())(THETA)


def test_a_flat_minimum_refuses_the_derivative():
    # x[1] does not enter: every x[1] is a minimizer, dx*/dt has no value
    def solve(t):
        return minimize(lambda x, t: (x[0] - t) ** 2, np.zeros(2), args=(t,)).x.sum()

    with pytest.raises(ValueError, match="Hessian of fun in x at the optimum is singular"):
        fg.grad(solve)(1.0)


def test_a_search_that_did_not_converge_refuses_the_derivative():
    def rosen(x, t):
        return 100 * (x[1] - x[0] ** 2) ** 2 + (t - x[0]) ** 2

    with pytest.raises(ValueError, match="did not converge"):
        fg.grad(lambda t: minimize(rosen, np.array([-1.0, 2.0]), args=(t,),
                                   options={"maxiter": 2}).x.sum())(1.0)


def test_a_traced_value_elsewhere_names_minimize_not_itself():
    # a constraint closing over the traced value: minimize hands it to SciPy, whose
    # conversion refuses; the hint must not send the user back to minimize
    def solve(t):
        con = {"type": "ineq", "fun": lambda x: t - x[0]}
        return minimize(lambda x: np.sum(x ** 2), np.ones(2), constraints=con).x.sum()

    with pytest.raises(DerivativeDroppedError) as info:
        fg.grad(solve)(1.0)
    message = str(info.value)
    assert "call funcgrad.scipy.optimize.minimize instead" not in message, message
    assert ("funcgrad.scipy.optimize.minimize hands this value to scipy.optimize.minimize"
            in message), message
    assert "docstring for the arguments that may be differentiated" in message


def test_plain_scipy_minimize_still_names_the_twin():
    with pytest.raises(DerivativeDroppedError,
                       match="call funcgrad.scipy.optimize.minimize instead"):
        fg.grad(lambda t: optimize.minimize(lambda x: np.sum((x - t) ** 2),
                                            np.zeros(2)).x.sum())(np.ones(2))

"""funcgrad.scipy.integrate's solve_ivp, quad, quad_vec and fixed_quad against SciPy and
closed forms: values to the tolerances (SciPy's own steps where the algorithm is the
same), derivatives against closed forms and central differences, jit/vmap where they run,
and errors worded as SciPy's."""
import warnings

import numpy as np
import pytest

si = pytest.importorskip("scipy.integrate")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.integrate as fsi  # noqa: E402

METHODS = ["RK45", "RK23", "DOP853"]
TIGHT = dict(rtol=1e-10, atol=1e-12)


def _decay(t, y, k):
    return -k * y


def _lotka(t, y, a, b, c, d):
    return fnp.stack([a * y[0] - b * y[0] * y[1], -c * y[1] + d * y[0] * y[1]])


def _lotka_np(t, y, a, b, c, d):
    return [a * y[0] - b * y[0] * y[1], -c * y[1] + d * y[0] * y[1]]


# --- solve_ivp: values -----------------------------------------------------------------------

@pytest.mark.parametrize("method", METHODS)
def test_solve_ivp_takes_scipys_steps(method):
    # the same pair, error norm, controller and first step: the same accepted times
    want = si.solve_ivp(_decay, (0.0, 10.0), [2.0, 4.0], method=method, args=(0.5,))
    got = fsi.solve_ivp(_decay, (0.0, 10.0), np.array([2.0, 4.0]), method=method,
                        args=(0.5,))
    assert got.success and got.status == 0 and got.message == want.message
    assert got.t.shape == want.t.shape and got.y.shape == want.y.shape == (2, len(want.t))
    np.testing.assert_allclose(got.t, want.t, rtol=1e-9)
    np.testing.assert_allclose(got.y, want.y, rtol=1e-9)
    assert got.nfev == want.nfev


@pytest.mark.parametrize("method", METHODS)
def test_solve_ivp_harmonic_oscillator_at_t_eval(method):
    te = np.linspace(0.0, 10.0, 11)
    got = fsi.solve_ivp(lambda t, y: fnp.stack([y[1], -y[0]]), (0.0, 10.0),
                        np.array([1.0, 0.0]), method=method, t_eval=te, **TIGHT)
    np.testing.assert_array_equal(got.t, te)
    np.testing.assert_allclose(got.y, np.stack([np.cos(te), -np.sin(te)]), atol=1e-7)
    # at SciPy's default tolerances both are within the tolerance of the solution
    got = fsi.solve_ivp(lambda t, y: [y[1], -y[0]], (0.0, 10.0), np.array([1.0, 0.0]),
                        method=method, t_eval=te)
    want = si.solve_ivp(lambda t, y: [y[1], -y[0]], (0.0, 10.0), [1.0, 0.0], method=method,
                        t_eval=te)
    exact = np.stack([np.cos(te), -np.sin(te)])
    scale = np.max(np.abs(want.y - exact))
    assert np.max(np.abs(got.y - exact)) < 5 * scale + 1e-6


def test_solve_ivp_lotka_volterra_matches_scipy():
    p = (1.5, 1.0, 3.0, 1.0)
    te = np.linspace(0.0, 10.0, 11)
    want = si.solve_ivp(_lotka_np, (0.0, 10.0), [10.0, 5.0], method="DOP853", t_eval=te,
                        args=p, rtol=1e-12, atol=1e-12)
    # (RK23 is third order: tight tolerances cost it tens of thousands of steps)
    for method, tol, close in (("RK45", 1e-10, 1e-6), ("DOP853", 1e-10, 1e-6),
                               ("RK23", 1e-7, 1e-4)):
        got = fsi.solve_ivp(_lotka, (0.0, 10.0), np.array([10.0, 5.0]), method=method,
                            t_eval=te, args=p, rtol=tol, atol=tol)
        np.testing.assert_allclose(got.y, want.y, rtol=close, atol=close * 1e-2)


def test_solve_ivp_backwards_in_time_and_max_step():
    want = si.solve_ivp(_decay, (2.0, 0.0), [1.0], args=(1.0,), max_step=0.1)
    got = fsi.solve_ivp(_decay, (2.0, 0.0), np.array([1.0]), args=(1.0,), max_step=0.1)
    np.testing.assert_allclose(got.t, want.t, rtol=1e-9)
    np.testing.assert_allclose(got.y, want.y, rtol=1e-9)
    assert np.all(np.abs(np.diff(got.t)) <= 0.1 + 1e-12)
    te = np.array([2.0, 1.0, 0.0])
    got = fsi.solve_ivp(_decay, (2.0, 0.0), np.array([1.0]), t_eval=te, args=(1.0,), **TIGHT)
    np.testing.assert_allclose(got.y[0], np.exp(2.0 - te), rtol=1e-8)


def test_solve_ivp_dense_output_and_vectorized():
    res = fsi.solve_ivp(lambda t, y: fnp.stack([y[1], -y[0]]), (0.0, 10.0),
                        np.array([1.0, 0.0]), dense_output=True, **TIGHT)
    tq = np.array([7.5, 0.3, 2.0])
    np.testing.assert_allclose(res.sol(tq), np.stack([np.cos(tq), -np.sin(tq)]), atol=1e-8)
    np.testing.assert_allclose(res.sol(2.0), [np.cos(2.0), -np.sin(2.0)], atol=1e-8)
    assert fsi.solve_ivp(_decay, (0.0, 1.0), np.array([1.0]), args=(1.0,)).sol is None
    # vectorized=True: fun gets y of shape (n, 1), as SciPy's explicit methods call it
    shapes = []

    def fun(t, y):
        shapes.append(y.shape)
        return -y

    got = fsi.solve_ivp(fun, (0.0, 1.0), np.array([1.0, 2.0]), vectorized=True, **TIGHT)
    assert set(shapes) == {(2, 1)}
    np.testing.assert_allclose(got.y[:, -1], np.exp(-1.0) * np.array([1.0, 2.0]), rtol=1e-9)


def test_solve_ivp_reports_a_step_size_failure_as_scipy():
    # y' = y^2, y(0) = 1 blows up at t = 1
    want = si.solve_ivp(lambda t, y: y * y, (0.0, 2.0), [1.0])
    got = fsi.solve_ivp(lambda t, y: y * y, (0.0, 2.0), np.array([1.0]))
    assert want.status == -1 and got.status == -1 and not got.success
    assert got.message == want.message
    assert np.all(np.isfinite(got.y)) and got.t[-1] < 1.0
    np.testing.assert_allclose(got.t[-1], want.t[-1], rtol=1e-6)


# --- solve_ivp: derivatives ------------------------------------------------------------------

def test_solve_ivp_gradients_match_the_closed_form():
    # y(t) = y0 exp(-k (t - t0)): d/dy0, d/dk, d/dt_eval and d/dt0 of sum_i y(t_i)
    def loss(y0, k, te, t0):
        res = fsi.solve_ivp(_decay, (t0, 2.0), y0, t_eval=te, args=(k,), **TIGHT)
        return fnp.sum(res.y)

    y0, k, te, t0 = np.array([1.0, 2.0]), 0.7, np.array([0.5, 1.0, 2.0]), 0.1
    g_y0, g_k, g_te, g_t0 = fg.grad(loss, argnums=(0, 1, 2, 3))(y0, k, te, t0)
    decay = np.exp(-k * (te - t0))
    np.testing.assert_allclose(g_y0, np.full(2, decay.sum()), rtol=1e-7)
    np.testing.assert_allclose(g_k, -y0.sum() * np.sum((te - t0) * decay), rtol=1e-7)
    np.testing.assert_allclose(g_te, -k * y0.sum() * decay, rtol=1e-7)
    np.testing.assert_allclose(g_t0, k * y0.sum() * decay.sum(), rtol=1e-7)


@pytest.mark.parametrize("method, tol", [("RK45", 1e-10), ("RK23", 1e-8), ("DOP853", 1e-10)])
def test_solve_ivp_gradient_in_the_end_time_without_t_eval(method, tol):
    def end(tf, k):
        res = fsi.solve_ivp(_decay, (0.0, tf), np.array([1.0]), method=method, args=(k,),
                            rtol=tol, atol=tol)
        return res.y[0, -1]

    g_tf, g_k = fg.grad(end, argnums=(0, 1))(2.0, 0.7)
    np.testing.assert_allclose(g_tf, -0.7 * np.exp(-1.4), rtol=1000 * tol)
    np.testing.assert_allclose(g_k, -2.0 * np.exp(-1.4), rtol=1000 * tol)


def test_solve_ivp_lotka_volterra_gradient_matches_central_differences():
    te = np.array([1.0, 3.0])
    w = np.array([[0.3, -0.2], [0.5, 0.1]])

    def loss(p):
        res = fsi.solve_ivp(_lotka, (0.0, 3.0), p[:2], t_eval=te,
                            args=(p[2], p[3], p[4], p[5]), method="DOP853", **TIGHT)
        return fnp.sum(w * res.y)

    p = np.array([10.0, 5.0, 1.5, 1.0, 3.0, 1.0])
    g = fg.grad(loss)(p)
    h = 1e-5
    fd = np.array([(loss(p + h * e) - loss(p - h * e)) / (2 * h) for e in np.eye(6)])
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-6)


def test_solve_ivp_closure_gradient_equals_the_args_gradient():
    # a captured value reaches the adjoint as an argument; the derivative is the ODE's
    def by_closure(k):
        return fsi.solve_ivp(lambda t, y: -k * y, (0.0, 1.0), np.array([1.0]),
                             **TIGHT).y[0, -1]

    def by_args(k):
        return fsi.solve_ivp(_decay, (0.0, 1.0), np.array([1.0]), args=(k,),
                             **TIGHT).y[0, -1]

    np.testing.assert_allclose(fg.grad(by_closure)(2.0), -np.exp(-2.0), rtol=1e-7)
    np.testing.assert_allclose(fg.grad(by_closure)(2.0), fg.grad(by_args)(2.0), rtol=1e-9)


def test_derivative_through_the_landing_loops_holds_the_step_sizes_constant():
    # Landing on SciPy's own step times, one step falls 1e-12 short of its time and a
    # sliver step follows, after which the steps grow back tenfold; differentiated through
    # the controller, those step sizes moved the times with k and the derivative came out
    # -1.3216 instead of -exp(-2) (in both modes).  The step sizes are a choice: constant.
    from funcgrad.scipy._rk import METHODS as TABLEAUS, Solver, solve_landing
    ts = si.solve_ivp(lambda t, y: -2.0 * y, (0.0, 1.0), [1.0], rtol=1e-8, atol=1e-10).t

    def landing(k):
        ys, _ = solve_landing(lambda y, t: -k * y, np.array([1.0]), ts,
                              Solver(TABLEAUS["RK45"], 1e-8, 1e-10, np.inf))
        return ys[-1, 0]

    np.testing.assert_allclose(fg.grad(landing)(2.0), -np.exp(-2.0), rtol=1e-7)
    np.testing.assert_allclose(fg.jvp(landing, (2.0,), (1.0,))[1], -np.exp(-2.0), rtol=1e-7)


def test_solve_ivp_second_derivative_and_dense_output_gradient():
    def end(k):
        return fsi.solve_ivp(_decay, (0.0, 1.0), np.array([1.0]), t_eval=[1.0], args=(k,),
                             **TIGHT).y[0, 0]

    np.testing.assert_allclose(fg.grad(fg.grad(end))(0.5), np.exp(-0.5), rtol=1e-6)

    def dense(k):
        res = fsi.solve_ivp(_decay, (0.0, 2.0), np.array([1.0]), args=(k,),
                            dense_output=True, **TIGHT)
        return res.sol(1.5)[0]

    np.testing.assert_allclose(fg.grad(dense)(0.5), -1.5 * np.exp(-0.75), rtol=1e-7)


def test_solve_ivp_records_on_eager_tensors():
    y0 = fg.Tensor(np.array([0.3, 0.5]), requires_grad=True)
    k = fg.Tensor(np.array(0.7), requires_grad=True)
    res = fsi.solve_ivp(_decay, (0.0, 1.0), y0, t_eval=[1.0], args=(k,), **TIGHT)
    assert res.y.requires_grad
    res.y.sum().backward()
    np.testing.assert_allclose(y0.grad.numpy(), np.full(2, np.exp(-0.7)), rtol=1e-7)
    np.testing.assert_allclose(k.grad.numpy(), -0.8 * np.exp(-0.7), rtol=1e-7)


def test_solve_ivp_under_jit_and_vmap_with_t_eval():
    def end(k):
        return fsi.solve_ivp(_decay, (0.0, 1.0), np.array([1.0]), t_eval=np.array([1.0]),
                             args=(k,), **TIGHT).y[0, 0]

    ks = np.array([0.5, 1.0, 2.0])
    np.testing.assert_allclose(fg.jit(end)(2.0), np.exp(-2.0), rtol=1e-8)
    np.testing.assert_allclose(fg.vmap(end)(ks), np.exp(-ks), rtol=1e-8)
    np.testing.assert_allclose(fg.vmap(fg.grad(end))(ks), -np.exp(-ks), rtol=1e-7)
    with pytest.raises(TypeError, match="pass t_eval"):
        fg.jit(lambda k: fsi.solve_ivp(_decay, (0.0, 1.0), np.array([1.0]),
                                       args=(k,)).y)(1.0)


def test_solve_ivp_errors_are_worded_as_scipys():
    y0 = np.array([1.0])
    with pytest.raises(ValueError, match="`method` must be one of"):
        fsi.solve_ivp(_decay, (0, 1), y0, method="Euler", args=(1.0,))
    bad = lambda t, y, k: y[0]  # noqa: E731
    bad.terminal = 0.5
    with pytest.raises(ValueError, match="`terminal` attribute of each event must be"):
        fsi.solve_ivp(_decay, (0, 1), y0, events=bad, args=(1.0,))
    with pytest.raises(TypeError, match="dense_output=False and events=None"):
        fg.jit(lambda k: fsi.solve_ivp(_decay, (0.0, 1.0), y0, t_eval=[1.0], args=(k,),
                                       dense_output=True).y)(1.0)
    with pytest.raises(ValueError, match="`y0` must be 1-dimensional"):
        fsi.solve_ivp(_decay, (0, 1), np.ones((2, 2)), args=(1.0,))
    with pytest.raises(ValueError, match="Values in `t_eval` are not within `t_span`"):
        fsi.solve_ivp(_decay, (0, 1), y0, t_eval=[0.5, 2.0], args=(1.0,))
    with pytest.raises(ValueError, match="Values in `t_eval` are not properly sorted"):
        fsi.solve_ivp(_decay, (0, 1), y0, t_eval=[0.5, 0.2], args=(1.0,))
    with pytest.raises(ValueError, match="`max_step` must be positive"):
        fsi.solve_ivp(_decay, (0, 1), y0, max_step=0.0, args=(1.0,))
    with pytest.raises(ValueError, match="`first_step` must be positive"):
        fsi.solve_ivp(_decay, (0, 1), y0, first_step=-1.0, args=(1.0,))
    with pytest.raises(ValueError, match="`first_step` exceeds bounds"):
        fsi.solve_ivp(_decay, (0, 1), y0, first_step=2.0, args=(1.0,))
    with pytest.raises(TypeError, match="Supplied 'args' cannot be unpacked"):
        fsi.solve_ivp(_decay, (0, 1), y0, args=1.0)
    with pytest.raises(ValueError, match=r"must return an array of shape \(1,\)"):
        fsi.solve_ivp(lambda t, y: np.ones(3), (0, 1), y0)
    with pytest.raises(TypeError, match="must be callable"):
        fsi.solve_ivp(1.0, (0, 1), y0)


# --- quad, quad_vec, fixed_quad --------------------------------------------------------------

QUAD_CASES = [
    (lambda x: np.exp(-x * x), -np.inf, np.inf),
    (lambda x: np.exp(-x * x), 0.0, np.inf),
    (lambda x: np.exp(-x * x), -np.inf, 1.0),
    (lambda x: 1.0 / (1.0 + x * x), -np.inf, 0.0),
    (lambda x: np.sin(x) ** 2, 0.0, np.pi),
    (lambda x: 1.0 / np.sqrt(x), 0.0, 1.0),
    (lambda x: np.log(x), 0.0, 1.0),
    (lambda x: x ** 2, 2.0, -1.0),
    (lambda x: np.exp(-x) * np.cos(3 * x), 0.0, np.inf),
]


@pytest.mark.parametrize("case", range(len(QUAD_CASES)))
def test_quad_matches_scipy(case):
    f, a, b = QUAD_CASES[case]
    want, _ = si.quad(f, a, b)
    value, abserr = fsi.quad(f, a, b)
    assert isinstance(value, float) and isinstance(abserr, float)
    # the requested tolerance, and the error estimate covers the actual error
    assert abs(value - want) <= max(1.49e-8, 1.49e-8 * abs(want)) * 2
    assert abs(value - want) <= abserr + 1e-14


def test_quad_break_points_and_keywords():
    f = lambda x: np.abs(x - 0.3)  # noqa: E731
    value, abserr = fsi.quad(f, 0.0, 1.0, points=[0.3])
    np.testing.assert_allclose(value, 0.29, rtol=1e-14)
    value, _ = fsi.quad(lambda x, a, b: a * x + b, 0.0, 2.0, args=(3.0, 1.0),
                        epsabs=1e-12, epsrel=1e-12)
    np.testing.assert_allclose(value, 8.0, rtol=1e-14)
    assert fsi.quad(np.exp, 1.0, 1.0) == (0.0, 0.0)


def test_quad_gradient_in_the_limits_and_args():
    g_a, g_b = fg.grad(lambda a, b: fsi.quad(fnp.sin, a, b)[0], argnums=(0, 1))(0.3, 1.2)
    np.testing.assert_allclose([g_a, g_b], [-np.sin(0.3), np.sin(1.2)], rtol=1e-14)

    # I(s) = int_0^inf exp(-s x^2) = sqrt(pi / s) / 2
    def gauss(s):
        return fsi.quad(lambda x, s: fnp.exp(-s * x * x), 0.0, np.inf, (s,))[0]

    s = 2.0
    np.testing.assert_allclose(gauss(s), 0.5 * np.sqrt(np.pi / s), rtol=1e-12)
    np.testing.assert_allclose(fg.grad(gauss)(s), -0.25 * np.sqrt(np.pi) * s ** -1.5,
                               rtol=1e-9)
    np.testing.assert_allclose(fg.grad(fg.grad(gauss))(s), 0.375 * np.sqrt(np.pi) * s ** -2.5,
                               rtol=1e-8)
    # an infinite limit has a zero derivative; the finite one gets -f(a)
    g = fg.grad(lambda a: fsi.quad(lambda x: fnp.exp(-x), a, np.inf)[0])(0.5)
    np.testing.assert_allclose(g, -np.exp(-0.5), rtol=1e-14)
    # against central differences, in a limit and an argument together
    def loss(p):
        return fsi.quad(lambda x, c: fnp.cos(c * x) / (1 + x * x), 0.0, p[0], (p[1],))[0]

    p, h = np.array([2.0, 1.3]), 1e-6
    fd = [(loss(p + h * e) - loss(p - h * e)) / (2 * h) for e in np.eye(2)]
    np.testing.assert_allclose(fg.grad(loss)(p), fd, rtol=1e-7)


def test_quad_differentiates_captured_values_and_tensors():
    def by_closure(s):
        return fsi.quad(lambda x: fnp.exp(-s * x * x), 0.0, np.inf)[0]

    np.testing.assert_allclose(fg.grad(by_closure)(2.0), -0.25 * np.sqrt(np.pi) * 2 ** -1.5,
                               rtol=1e-9)
    s = fg.Tensor(np.array(2.0), requires_grad=True)
    value, _ = fsi.quad(lambda x, s: fnp.exp(-s * x * x), 0.0, np.inf, (s,))
    value.backward()
    np.testing.assert_allclose(s.grad.numpy(), -0.25 * np.sqrt(np.pi) * 2 ** -1.5, rtol=1e-9)


def test_quad_warns_when_the_limit_is_reached_and_names_bad_input():
    with pytest.warns(fsi.IntegrationWarning, match="maximum number of subdivisions"):
        fsi.quad(lambda x: np.sin(1.0 / x), 1e-3, 1.0, limit=2)
    with pytest.raises(ValueError, match="Infinity inputs cannot be used with break points"):
        fsi.quad(np.exp, 0.0, np.inf, points=[1.0])
    with pytest.raises(ValueError, match="use quad_vec"):
        fsi.quad(lambda x: np.array([x, x]), 0.0, 1.0)
    with pytest.raises(ValueError, match="input is invalid"):
        fsi.quad(np.exp, 0.0, 1.0, epsabs=0.0, epsrel=0.0)
    with pytest.raises(ValueError, match="limit"):
        fsi.quad(np.exp, 0.0, 1.0, limit=0)
    with pytest.raises(ValueError, match="weight='cos' needs wvar="):
        fsi.quad(np.exp, 0.0, 1.0, weight="cos")
    with pytest.raises(TypeError, match="must be callable"):
        fsi.quad(1.0, 0.0, 1.0)
    with pytest.raises(TypeError, match="real and imaginary parts"):
        fsi.quad(lambda x: np.exp(1j * x), 0.0, 1.0)
    with pytest.raises(TypeError, match="fixed_quad"):
        fg.jit(lambda b: fsi.quad(fnp.exp, 0.0, b)[0])(1.0)


def test_quad_vec_matches_scipy_and_differentiates():
    f = lambda x, a: np.array([np.exp(-a * x), x ** 2, 1.0 / (1.0 + x * x)])  # noqa: E731
    want, _ = si.quad_vec(f, 0.0, 1.0, args=(2.0,))
    got, err = fsi.quad_vec(f, 0.0, 1.0, args=(2.0,))
    np.testing.assert_allclose(got, want, rtol=1e-10)
    assert err < 1e-8
    got, _ = fsi.quad_vec(lambda x: np.array([np.exp(-2 * x), 1 / (1 + x * x)]), 0.0, np.inf,
                          norm="max")
    np.testing.assert_allclose(got, [0.5, np.pi / 2], rtol=1e-8)
    g = fg.grad(lambda a: fnp.sum(fsi.quad_vec(
        lambda x, a: fnp.stack([fnp.exp(-a * x), a * x]), 0.0, 1.0, args=(a,))[0]))(2.0)
    # d/da [(1 - e^-a) / a + a / 2]
    np.testing.assert_allclose(g, (np.exp(-2.0) * 2.0 - (1 - np.exp(-2.0))) / 4.0 + 0.5,
                               rtol=1e-9)


def test_fixed_quad_matches_scipy_runs_under_jit_vmap_and_grad():
    for n in (1, 3, 5, 8):
        want, _ = si.fixed_quad(np.cos, 0.0, 1.5, n=n)
        got, none = fsi.fixed_quad(fnp.cos, 0.0, 1.5, n=n)
        assert none is None
        np.testing.assert_allclose(got, want, rtol=1e-14)
    # exact up to degree 2n - 1
    np.testing.assert_allclose(fsi.fixed_quad(lambda x: x ** 5, 0.0, 2.0, n=3)[0], 64 / 6,
                               rtol=1e-14)
    bs = np.array([1.0, 2.0])
    np.testing.assert_allclose(fg.vmap(lambda b: fsi.fixed_quad(fnp.cos, 0.0, b, n=10)[0])(bs),
                               np.sin(bs), rtol=1e-12)
    np.testing.assert_allclose(fg.jit(lambda b: fsi.fixed_quad(fnp.cos, 0.0, b, n=10)[0])(1.0),
                               np.sin(1.0), rtol=1e-12)
    g = fg.grad(lambda c: fsi.fixed_quad(lambda x, c: fnp.exp(c * x), 0.0, 1.0, (c,), n=10)[0])
    np.testing.assert_allclose(g(0.5), (0.5 * np.exp(0.5) - np.exp(0.5) + 1) / 0.25,
                               rtol=1e-12)
    with pytest.raises(ValueError, match="only available for finite limits"):
        fsi.fixed_quad(fnp.exp, 0.0, np.inf)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fsi.fixed_quad(fnp.exp, 0.0, 1.0)

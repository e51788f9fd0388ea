"""funcgrad.scipy.integrate's solve_ivp against SciPy and closed forms: values to the
tolerances (SciPy's own steps where the algorithm is the same), derivatives against closed
forms and central differences, jit/vmap where they run, and errors worded as SciPy's."""
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
    for method in ("Radau", "BDF", "LSODA"):
        with pytest.raises(NotImplementedError, match="'RK45', 'RK23' or 'DOP853'"):
            fsi.solve_ivp(_decay, (0, 1), y0, method=method, args=(1.0,))
    with pytest.raises(NotImplementedError, match="events=None"):
        fsi.solve_ivp(_decay, (0, 1), y0, events=lambda t, y, k: y[0], args=(1.0,))
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
    with pytest.raises(TypeError, match="Supplied 'args' cannot be unpacked"):
        fsi.solve_ivp(_decay, (0, 1), y0, args=1.0)
    with pytest.raises(ValueError, match=r"must return an array of shape \(1,\)"):
        fsi.solve_ivp(lambda t, y: np.ones(3), (0, 1), y0)
    with pytest.raises(TypeError, match="must be callable"):
        fsi.solve_ivp(1.0, (0, 1), y0)

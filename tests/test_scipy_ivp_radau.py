"""solve_ivp(method='Radau') against SciPy's Radau (given the exact Jacobian, as funcgrad
computes it: the same steps; with SciPy's finite-difference default: the same answer to
the tolerances), its dense output, its adjoint gradients against central differences of
SciPy's answers and closed forms, its events, and the errors of what it does not do."""
import numpy as np
import pytest

si = pytest.importorskip("scipy.integrate")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.integrate as fsi  # noqa: E402


def _vdp(t, y, mu):
    return fnp.stack([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])


def _vdp_np(t, y, mu):
    return [y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]]


def _vdp_jac(t, y, mu):
    return [[0.0, 1.0], [-2 * mu * y[0] * y[1] - 1, mu * (1 - y[0] ** 2)]]


def _robertson(t, y):
    return fnp.stack([-0.04 * y[0] + 1e4 * y[1] * y[2],
                      0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2, 3e7 * y[1] ** 2])


def _robertson_np(t, y):
    return [-0.04 * y[0] + 1e4 * y[1] * y[2],
            0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2, 3e7 * y[1] ** 2]


def test_radau_takes_scipys_steps_on_a_stiff_problem():
    kw = dict(method="Radau", args=(1000.0,), rtol=1e-6, atol=1e-9)
    got = fsi.solve_ivp(_vdp, (0.0, 3.0), np.array([2.0, 0.0]), **kw)
    want = si.solve_ivp(_vdp_np, (0.0, 3.0), [2.0, 0.0], jac=_vdp_jac, **kw)
    assert got.success and got.t.shape == want.t.shape
    np.testing.assert_allclose(got.t, want.t, rtol=1e-12)
    np.testing.assert_allclose(got.y, want.y, rtol=1e-10, atol=1e-14)
    assert (got.nfev, got.njev, got.nlu) == (want.nfev, want.njev, want.nlu)
    # SciPy's default Jacobian is finite differences: the same answer to the tolerances
    default = si.solve_ivp(_vdp_np, (0.0, 3.0), [2.0, 0.0], **kw)
    np.testing.assert_allclose(got.y[:, -1], default.y[:, -1], rtol=1e-6)


def test_radau_robertson_t_eval_and_backwards_in_time():
    te = np.array([0.0, 1e-3, 0.4, 40.0, 400.0])
    kw = dict(method="Radau", t_eval=te, rtol=1e-8, atol=1e-12)
    got = fsi.solve_ivp(_robertson, (0.0, 400.0), np.array([1.0, 0.0, 0.0]), **kw)
    want = si.solve_ivp(_robertson_np, (0.0, 400.0), [1.0, 0.0, 0.0],
                        jac=lambda t, y: fg.jacfwd(lambda v: _robertson(t, v))(y), **kw)
    # (interpolated, as SciPy; its LU solves and funcgrad's inverses round differently,
    # which its Newton iterations carry to ~5e-9 relative here, under the 1e-8 asked)
    np.testing.assert_allclose(got.y, want.y, rtol=1e-8, atol=1e-15)
    got = fsi.solve_ivp(lambda t, y: -50.0 * y, (1.0, 0.0), np.array([1.0]),
                        method="Radau", rtol=1e-8)
    np.testing.assert_allclose(got.y[0, -1], np.exp(50.0), rtol=1e-6)


def test_radau_gradient_by_the_adjoint_on_a_stiff_problem():
    def ours(p):
        return fsi.solve_ivp(_vdp, (0.0, 1.0), fnp.stack([p[0], 0.0]), method="Radau",
                             args=(p[1],), t_eval=[0.5, 1.0], rtol=1e-9,
                             atol=1e-12).y[0] @ np.array([1.0, 2.0])

    def scipys(p):
        return si.solve_ivp(_vdp_np, (0.0, 1.0), [p[0], 0.0], method="Radau", args=(p[1],),
                            jac=_vdp_jac, t_eval=[0.5, 1.0], rtol=1e-12,
                            atol=1e-14).y[0] @ np.array([1.0, 2.0])

    p, h = np.array([2.0, 50.0]), np.array([1e-5, 1e-3])
    fd = [(scipys(p + hi * e) - scipys(p - hi * e)) / (2 * hi) for hi, e in zip(h, np.eye(2))]
    np.testing.assert_allclose(fg.grad(ours)(p), fd, rtol=1e-6)


def test_radau_gradients_in_y0_args_end_time_and_captures():
    def decay(k, y0, t1):
        res = fsi.solve_ivp(lambda t, y, k: -k * y, (0.0, t1), y0, method="Radau",
                            args=(k,), rtol=1e-10, atol=1e-12)
        return res.y[0, -1], res.t[3], res.y[0, 3]

    (_, t3, y3) = decay(2.0, np.array([1.0]), 1.0)
    np.testing.assert_allclose(y3, np.exp(-2.0 * t3), rtol=1e-9)
    total = lambda k, y0, t1: decay(k, y0, t1)[0] + decay(k, y0, t1)[2]  # noqa: E731
    gk, gy0, gt1 = fg.grad(total, argnums=(0, 1, 2))(2.0, np.array([1.0]), 1.0)
    np.testing.assert_allclose(gk, -np.exp(-2.0) - t3 * np.exp(-2.0 * t3), rtol=1e-8)
    np.testing.assert_allclose(gy0, [np.exp(-2.0) + np.exp(-2.0 * t3)], rtol=1e-8)
    np.testing.assert_allclose(gt1, -2.0 * np.exp(-2.0), rtol=1e-8)

    def captured(k):
        return fsi.solve_ivp(lambda t, y: -k * y, (0.0, 1.0), np.array([1.0]),
                             method="Radau", t_eval=[1.0], rtol=1e-10, atol=1e-12).y[0, 0]

    np.testing.assert_allclose(fg.grad(captured)(2.0), -np.exp(-2.0), rtol=1e-8)
    y0 = fg.Tensor(np.array([1.0]), requires_grad=True)
    res = fsi.solve_ivp(lambda t, y: -2.0 * y, (0.0, 1.0), y0, method="Radau",
                        t_eval=[1.0], rtol=1e-10, atol=1e-12)
    res.y.sum().backward()
    np.testing.assert_allclose(y0.grad.numpy(), [np.exp(-2.0)], rtol=1e-8)


def test_radau_keeps_float32_and_names_what_it_does_not_do():
    res = fsi.solve_ivp(lambda t, y: -50.0 * y, (0.0, 1.0), np.array([1.0], np.float32),
                        method="Radau")
    assert res.y.dtype == res.t.dtype == np.float32 and res.success

    def end(k):
        return fsi.solve_ivp(lambda t, y, k: -k * y, (0.0, 1.0), np.array([1.0]),
                             method="Radau", args=(k,), t_eval=[1.0]).y[0, 0]

    with pytest.raises(NotImplementedError, match="derivative of a derivative"):
        fg.grad(fg.grad(end))(2.0)
    with pytest.raises(TypeError, match="pass t_eval under jit and vmap"):
        fg.jit(lambda k: fsi.solve_ivp(lambda t, y, k: -k * y, (0.0, 1.0), np.array([1.0]),
                                       method="Radau", args=(k,)).y[0, -1])(2.0)
    with pytest.raises(NotImplementedError, match="derivative of a derivative of an event"):
        fg.grad(fg.grad(lambda k: fsi.solve_ivp(
            lambda t, y: -y, (0.0, 2.0), np.array([1.0]), method="Radau",
            events=lambda t, y: y[0] - k).t_events[0][0]))(0.5)


def _crossing(t, y, mu):
    return y[0]


def _low(t, y, mu):
    return y[0] + 1.5


_low.terminal = True


def test_radau_events_follow_scipys_and_differentiate_by_the_implicit_function_theorem():
    kw = dict(method="Radau", args=(2.0,), rtol=1e-8, atol=1e-10, events=[_crossing, _low])
    got = fsi.solve_ivp(_vdp, (0.0, 20.0), np.array([2.0, 0.0]), **kw)
    want = si.solve_ivp(_vdp_np, (0.0, 20.0), [2.0, 0.0], jac=_vdp_jac, **kw)
    assert got.status == want.status == 1
    # (the same steps to rounding, LU solves against inverses: within the tolerances)
    for ours, scipys in zip(got.t_events + got.y_events, want.t_events + want.y_events):
        np.testing.assert_allclose(ours, scipys, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(got.t[-1], want.t[-1], rtol=1e-10)
    np.testing.assert_allclose(got.y[:, -1], want.y[:, -1], rtol=1e-8, atol=1e-10)

    def combine(res):
        return (res.t_events[0][0] + 2 * res.t_events[1][0] + 3 * res.y_events[0][0][1]
                + 5 * res.y[1, -1])

    def ours(p):
        return combine(fsi.solve_ivp(_vdp, (0.0, 20.0), fnp.stack([p[0], 0.0]),
                                     method="Radau", args=(p[1],), rtol=1e-8, atol=1e-10,
                                     events=[_crossing, _low]))

    def scipys(p):
        return combine(si.solve_ivp(_vdp_np, (0.0, 20.0), [p[0], 0.0], method="Radau",
                                    args=(p[1],), jac=_vdp_jac, rtol=1e-12, atol=1e-14,
                                    events=[_crossing, _low]))

    p, h = np.array([2.0, 2.0]), np.array([1e-5, 1e-5])
    fd = [(scipys(p + hi * e) - scipys(p - hi * e)) / (2 * hi) for hi, e in zip(h, np.eye(2))]
    np.testing.assert_allclose(fg.grad(ours)(p), fd, rtol=1e-6)

    def captured(k):  # y = e^-t reaches k at -log(k): a closure over k reaches the rule
        return fsi.solve_ivp(lambda t, y: -y, (0.0, 2.0), np.array([1.0]), method="Radau",
                             rtol=1e-10, atol=1e-12,
                             events=lambda t, y: y[0] - k).t_events[0][0]

    np.testing.assert_allclose(fg.grad(captured)(0.5), -2.0, rtol=1e-8)


def test_radau_dense_output_is_scipys_collocation_polynomial():
    kw = dict(method="Radau", args=(1000.0,), rtol=1e-6, atol=1e-9, dense_output=True)
    got = fsi.solve_ivp(_vdp, (0.0, 3.0), np.array([2.0, 0.0]), **kw)
    want = si.solve_ivp(_vdp_np, (0.0, 3.0), [2.0, 0.0], jac=_vdp_jac, **kw)
    tq = np.concatenate([np.linspace(0.0, 3.0, 31), want.t[5:8], [3.2]])
    np.testing.assert_allclose(got.sol(tq), want.sol(tq), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(got.sol(1.7), want.sol(1.7), rtol=1e-12, atol=1e-15)


def test_radau_dense_output_gradient_is_the_adjoints():
    def value(sol):
        return sol(np.array([0.3, 0.8]))[0] @ np.array([1.0, 2.0]) + sol(0.55)[1]

    def ours(p):
        return value(fsi.solve_ivp(_vdp, (0.0, 1.0), fnp.stack([p[0], 0.0]), method="Radau",
                                   args=(p[1],), dense_output=True, rtol=1e-9,
                                   atol=1e-12).sol)

    def scipys(p):
        return value(si.solve_ivp(_vdp_np, (0.0, 1.0), [p[0], 0.0], method="Radau",
                                  args=(p[1],), jac=_vdp_jac, dense_output=True,
                                  rtol=1e-12, atol=1e-14).sol)

    p, h = np.array([2.0, 50.0]), np.array([1e-5, 1e-3])
    fd = [(scipys(p + hi * e) - scipys(p - hi * e)) / (2 * hi) for hi, e in zip(h, np.eye(2))]
    np.testing.assert_allclose(fg.grad(ours)(p), fd, rtol=1e-6)
    res = fsi.solve_ivp(_vdp, (0.0, 1.0), np.array([2.0, 0.0]), method="Radau",
                        args=(50.0,), dense_output=True, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fg.grad(lambda t: res.sol(t)[0])(0.4), res.sol(0.4)[1],
                               rtol=1e-7)
    with pytest.raises(ValueError, match="inside t_span only"):
        fg.grad(lambda t: res.sol(t)[0])(1.5)

"""funcgrad.scipy.integrate's step-by-step solver objects (OdeSolver, RK23, RK45, DOP853,
DenseOutput, OdeSolution) against SciPy's: the same steps, counts, interpolants and
messages; derivatives of the state against closed forms; float32 kept; errors."""
import numpy as np
import pytest

si = pytest.importorskip("scipy.integrate")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.integrate as fsi  # noqa: E402

CLASSES = ["RK23", "RK45", "DOP853"]


def _lotka(t, y):
    return [1.5 * y[0] - y[0] * y[1], -3.0 * y[1] + y[0] * y[1]]


def _run(solver):
    """Step to the end: the times, states and interpolants of the steps."""
    ts, ys, pieces = [solver.t], [np.asarray(solver.y)], []
    while solver.status == "running":
        assert solver.step() is None
        ts.append(solver.t)
        ys.append(np.asarray(solver.y))
        pieces.append(solver.dense_output())
    return np.array(ts), np.array(ys), pieces


@pytest.mark.parametrize("name", CLASSES)
@pytest.mark.parametrize("span", [(0.0, 2.0), (2.0, -1.0)])
def test_solver_takes_scipys_steps_and_interpolants(name, span):
    want = getattr(si, name)(_lotka, span[0], np.array([10.0, 5.0]), span[1], rtol=1e-6)
    got = getattr(fsi, name)(_lotka, span[0], np.array([10.0, 5.0]), span[1], rtol=1e-6)
    assert got.status == want.status == "running" and got.direction == want.direction
    t_want, y_want, p_want = _run(want)
    t_got, y_got, p_got = _run(got)
    assert got.status == "finished" and got.t == span[1]
    np.testing.assert_allclose(t_got, t_want, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(y_got, y_want, rtol=1e-8)
    assert got.nfev == want.nfev and got.njev == got.nlu == 0
    assert got.step_size == pytest.approx(want.step_size, rel=1e-9)
    for k in (0, len(p_want) // 2):   # (dense outputs at points inside and outside a step)
        lo, hi = sorted((t_want[k], t_want[k + 1]))
        tt = np.linspace(lo - 0.1 * (hi - lo), hi, 4)
        np.testing.assert_allclose(p_got[k](tt), p_want[k](tt), rtol=1e-8)
        np.testing.assert_allclose(p_got[k](tt[1]), p_want[k](tt[1]), rtol=1e-8)
        assert (p_got[k].t_min, p_got[k].t_max) == pytest.approx((lo, hi), rel=1e-9)
    # OdeSolution: SciPy's choice of segment at a shared end, alt_segment too
    for alt in (False, True):
        tt = np.concatenate([t_want[1:3], [span[1] + (span[1] - span[0])]])  # (+ beyond)
        np.testing.assert_allclose(
            fsi.OdeSolution(t_got, p_got, alt_segment=alt)(tt),
            si.OdeSolution(t_want, p_want, alt_segment=alt)(tt), rtol=1e-8)


@pytest.mark.parametrize("name", CLASSES)
def test_solver_state_derivatives(name):
    # y' = -k y: y(1) = y0 e^-k; in the captured k and in y0, both modes, to the tolerance
    rtol = 1e-6 if name == "RK23" else 1e-9   # (RK23 at 1e-9 takes ~20 times the steps)

    def end(k, y0):
        solver = getattr(fsi, name)(lambda t, y: -k * y, 0.0, fnp.stack([y0]), 1.0,
                                    rtol=rtol, atol=1e-3 * rtol)
        while solver.status == "running":
            solver.step()
        return solver.y[0]

    dk, dy0 = fg.grad(end, argnums=(0, 1))(2.0, 1.5)
    assert float(dk) == pytest.approx(-1.5 * np.exp(-2.0), rel=1e2 * rtol)
    assert float(dy0) == pytest.approx(np.exp(-2.0), rel=1e2 * rtol)
    assert float(fg.jvp(lambda k: end(k, 1.5), (2.0,), (1.0,))[1]) == pytest.approx(
        -1.5 * np.exp(-2.0), rel=1e2 * rtol)


def test_dense_output_is_differentiable_in_t_and_parameters():
    def at(k, t):
        solver = fsi.RK45(lambda s, y: -k * y, 0.0, np.array([1.0]), 1.0, rtol=1e-10,
                          atol=1e-12)
        solver.step()
        return solver.dense_output()(t)[0]

    t = 0.5 * fsi.RK45(lambda s, y: -2.0 * y, 0.0, np.array([1.0]), 1.0, rtol=1e-10,
                       atol=1e-12).h_abs   # (inside the first step)
    dk, dt = fg.grad(at, argnums=(0, 1))(2.0, t)
    assert float(dk) == pytest.approx(-t * np.exp(-2.0 * t), rel=1e-6)
    assert float(dt) == pytest.approx(-2.0 * np.exp(-2.0 * t), rel=1e-6)


@pytest.mark.parametrize("name", CLASSES)
def test_float32_stays_float32(name):
    solver = getattr(fsi, name)(lambda t, y: -y, 0.0, np.array([1.0], np.float32), 1.0)
    solver.step()
    assert solver.y.dtype == np.float32
    out = solver.dense_output()
    assert out(0.01).dtype == out(np.array([0.01, 0.02])).dtype == np.float32


def test_failed_step_reports_scipys_message():
    # y' = y^2 from 1 blows up at t = 1: the step size falls below the times' spacing
    want = si.RK45(lambda t, y: y ** 2, 0.0, np.array([1.0]), 2.0)
    got = fsi.RK45(lambda t, y: y ** 2, 0.0, np.array([1.0]), 2.0)
    while want.status == "running":
        message_want = want.step()
    while got.status == "running":
        message_got = got.step()
    assert got.status == want.status == "failed"
    assert message_got == message_want
    assert got.t == pytest.approx(want.t, rel=1e-9)


def test_solver_errors():
    solver = fsi.RK45(lambda t, y: -y, 0.0, np.array([1.0]), 0.0)
    with pytest.raises(RuntimeError, match="after a successful step"):
        solver.dense_output()
    assert solver.step() is None and solver.status == "finished"
    with pytest.raises(RuntimeError, match="finished solver"):
        solver.step()
    with pytest.raises(NotImplementedError, match="complex"):
        fsi.RK23(lambda t, y: -y, 0.0, np.array([1.0j]), 1.0)
    with pytest.raises(ValueError, match="atol"):
        fsi.RK23(lambda t, y: -y, 0.0, np.array([1.0]), 1.0, atol=[1e-6, 1e-6])
    with pytest.raises(ValueError, match="first_step"):
        fsi.DOP853(lambda t, y: -y, 0.0, np.array([1.0]), 1.0, first_step=2.0)
    with pytest.raises(TypeError, match="under jit or vmap"):
        fg.jit(lambda k: fsi.RK45(lambda t, y: -k * y, 0.0, np.array([1.0]), 1.0).y)(1.0)


def test_solve_ivp_takes_solver_classes():
    # funcgrad's classes and SciPy's name the same methods; one's own class is refused
    want = si.solve_ivp(_lotka, (0.0, 1.0), [10.0, 5.0], method="DOP853")
    for method in (fsi.DOP853, si.DOP853):
        got = fsi.solve_ivp(_lotka, (0.0, 1.0), np.array([10.0, 5.0]), method=method)
        np.testing.assert_allclose(got.y, want.y, rtol=1e-8)

    class Mine(fsi.OdeSolver):
        pass

    with pytest.raises(NotImplementedError, match="of your own"):
        fsi.solve_ivp(_lotka, (0.0, 1.0), np.array([10.0, 5.0]), method=Mine)
    assert issubclass(fsi.ODEintWarning, Warning)


# --- Radau ----------------------------------------------------------------------------------

def _vdp(t, y, mu=10.0):
    return [y[1], mu * (1.0 - y[0] ** 2) * y[1] - y[0]]


def _vdp_jac(t, y, mu=10.0):
    return np.array([[0.0, 1.0], [-2.0 * mu * y[0] * y[1] - 1.0, mu * (1.0 - y[0] ** 2)]])


def _forced(t, y):
    return [y[1], -y[0] + 0.1 * np.cos(t)]


def _robertson(t, y):
    return [-0.04 * y[0] + 1e4 * y[1] * y[2], 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2,
            3e7 * y[1] ** 2]


def _robertson_jac(t, y):
    return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                     [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                     [0.0, 6e7 * y[1], 0.0]])


@pytest.mark.parametrize("name", ["Radau", "BDF"])
@pytest.mark.parametrize("fun, jac, span, y0", [
    (_vdp, _vdp_jac, (0.0, 5.0), [2.0, 0.0]),
    (_forced, np.array([[0.0, 1.0], [-1.0, 0.0]]), (5.0, -1.0), [2.0, 0.0]),  # (constant)
    (_robertson, _robertson_jac, (0.0, 100.0), [1.0, 0.0, 0.0])])
def test_implicit_solvers_take_scipys_steps_given_the_same_jacobian(name, fun, jac, span,
                                                                     y0):
    want = getattr(si, name)(fun, span[0], np.array(y0), span[1], jac=jac, rtol=1e-6)
    got = getattr(fsi, name)(fun, span[0], np.array(y0), span[1], jac=jac, rtol=1e-6)
    t_want, y_want, p_want = _run(want)
    t_got, y_got, p_got = _run(got)
    np.testing.assert_allclose(t_got, t_want, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(y_got, y_want, rtol=1e-8, atol=1e-10)
    assert (got.nfev, got.njev, got.nlu) == (want.nfev, want.njev, want.nlu)
    k = len(p_want) // 2
    tt = np.linspace(t_want[k], t_want[k + 1], 3)
    np.testing.assert_allclose(p_got[k](tt), p_want[k](tt), rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(p_got[k](tt[1]), p_want[k](tt[1]), rtol=1e-8, atol=1e-12)
    assert got.status == "finished"


@pytest.mark.parametrize("name", ["Radau", "BDF"])
def test_implicit_solvers_exact_jacobian_by_default(name):
    # SciPy's default is finite differences; funcgrad's is exact: the same solution
    want = getattr(si, name)(_vdp, 0.0, np.array([2.0, 0.0]), 5.0, rtol=1e-8, atol=1e-10)
    got = getattr(fsi, name)(_vdp, 0.0, np.array([2.0, 0.0]), 5.0, rtol=1e-8, atol=1e-10)
    _run(want)
    _run(got)
    np.testing.assert_allclose(got.y, want.y, rtol=1e-5)
    assert got.status == "finished" and got.njev >= 1


@pytest.mark.parametrize("name", ["Radau", "BDF"])
def test_implicit_solvers_refuse_derivatives_with_a_pointer(name):
    cls = getattr(fsi, name)
    with pytest.raises(NotImplementedError, match="solve_ivp"):
        fg.grad(lambda y0: cls(lambda t, y: -y, 0.0, fnp.stack([y0]), 1.0).y[0])(1.0)

    def captured(k):
        solver = cls(lambda t, y: -k * y, 0.0, np.array([1.0]), 1.0)
        solver.step()
        return solver.y[0]

    with pytest.raises(NotImplementedError, match="carries no derivative|carry no derivative"):
        fg.grad(captured)(1.0)
    with pytest.raises(NotImplementedError, match="jac_sparsity"):
        cls(_vdp, 0.0, np.array([2.0, 0.0]), 1.0, jac_sparsity=np.ones((2, 2)))
    solver = cls(lambda t, y: -y, 0.0, np.array([1.0], np.float32), 1.0)
    solver.step()
    assert solver.y.dtype == solver.dense_output()(0.01).dtype == np.float32


def test_solve_ivp_radau_takes_scipys_steps_after_rejections():
    # (the controller's previous step is the one tried first, as SciPy's: after a
    # rejection it was the shortened one, and the steps parted from SciPy's by t = 0.003)
    want = si.solve_ivp(_robertson, (0.0, 100.0), [1.0, 0.0, 0.0], method="Radau",
                        jac=_robertson_jac, rtol=1e-6)
    got = fsi.solve_ivp(lambda t, y: fnp.stack([fnp.asarray(v) for v in _robertson(t, y)]),
                        (0.0, 100.0), np.array([1.0, 0.0, 0.0]), method="Radau", rtol=1e-6)
    assert got.t.shape == want.t.shape
    np.testing.assert_allclose(got.t, want.t, rtol=1e-8)
    assert (got.nfev, got.njev, got.nlu) == (want.nfev, want.njev, want.nlu)


# --- solve_ivp(method='BDF') -----------------------------------------------------------------

def _vdp_traced(t, y, mu):
    return fnp.stack([y[1], mu * (1.0 - y[0] ** 2) * y[1] - y[0]])


def test_solve_ivp_bdf_is_scipys():
    # SciPy given the exact Jacobian (funcgrad's is exact): the same steps and counts
    want = si.solve_ivp(_vdp, (0.0, 5.0), [2.0, 0.0], method="BDF", args=(10.0,),
                        jac=_vdp_jac, rtol=1e-6, dense_output=True)
    got = fsi.solve_ivp(_vdp_traced, (0.0, 5.0), np.array([2.0, 0.0]), method="BDF",
                        args=(10.0,), rtol=1e-6, dense_output=True)
    assert got.success and got.message == want.message
    np.testing.assert_allclose(got.t, want.t, rtol=1e-8)
    np.testing.assert_allclose(got.y, want.y, rtol=1e-7, atol=1e-9)
    assert (got.nfev, got.njev, got.nlu) == (want.nfev, want.njev, want.nlu)
    tt = np.linspace(0.0, 5.0, 7)
    np.testing.assert_allclose(got.sol(tt), want.sol(tt), rtol=1e-7, atol=1e-9)

    def crossing(t, y, mu):   # (y[0] falls from 2 to 1.6 by t = 5)
        return y[0] - 1.8

    crossing.terminal = True
    want = si.solve_ivp(_vdp, (0.0, 5.0), [2.0, 0.0], method="BDF", args=(10.0,),
                        jac=_vdp_jac, events=crossing)
    got = fsi.solve_ivp(_vdp_traced, (0.0, 5.0), np.array([2.0, 0.0]), method="BDF",
                        args=(10.0,), events=crossing)
    assert got.status == want.status == 1
    np.testing.assert_allclose(got.t_events[0], want.t_events[0], rtol=1e-7)
    np.testing.assert_allclose(got.y_events[0], want.y_events[0], rtol=1e-6)


def test_solve_ivp_bdf_derivatives():
    # in args and y0, both modes, against central differences of SciPy's values
    def end(mu, y0):
        return fsi.solve_ivp(_vdp_traced, (0.0, 1.5), fnp.stack([y0, 0.0]), method="BDF",
                             args=(mu,), t_eval=[1.0, 1.5], rtol=1e-7, atol=1e-9).y[0, -1]

    def scipy_end(mu, y0):
        return si.solve_ivp(_vdp, (0.0, 1.5), [y0, 0.0], method="BDF", args=(mu,),
                            t_eval=[1.5], jac=_vdp_jac, rtol=1e-11, atol=1e-13).y[0, -1]

    h = 1e-5
    d_mu, d_y0 = fg.grad(end, argnums=(0, 1))(3.0, 2.0)
    assert float(d_mu) == pytest.approx((scipy_end(3.0 + h, 2.0) - scipy_end(3.0 - h, 2.0))
                                        / (2 * h), rel=1e-4)
    assert float(d_y0) == pytest.approx((scipy_end(3.0, 2.0 + h) - scipy_end(3.0, 2.0 - h))
                                        / (2 * h), rel=1e-4)
    assert float(fg.jvp(lambda mu: end(mu, 2.0), (3.0,), (1.0,))[1]) == pytest.approx(
        float(d_mu), rel=1e-4)


# --- ode, complex_ode --------------------------------------------------------------------------

def _spring(t, y, a):
    return [y[1], -a * y[0]]


def _spring_traced(t, y, a):
    return fnp.stack([y[1], -a * y[0]])


@pytest.mark.parametrize("name, options", [("dopri5", {}), ("dop853", {}), ("vode", {}),
                                           ("vode", {"method": "bdf"}), ("lsoda", {})])
def test_ode_integrates_as_scipys(name, options):
    want = si.ode(_spring).set_integrator(name, rtol=1e-8, **options)
    want.set_initial_value([1.0, 0.0], 0.0).set_f_params(2.0)
    got = fsi.ode(_spring_traced).set_integrator(name, rtol=1e-8, nsteps=5000, **options)
    got.set_initial_value(np.array([1.0, 0.0]), 0.0).set_f_params(2.0)
    for t in (1.0, 2.0):   # (each call continues from the last)
        np.testing.assert_allclose(got.integrate(t), want.integrate(t), rtol=1e-5,
                                   atol=1e-6)
        assert got.t == t and got.successful()
        assert got.get_return_code() == want.get_return_code()


def test_ode_derivatives_and_complex_ode():
    # y'' = -a y, y(0) = 1: y(1) = cos(sqrt(a)), dy(1)/da = -sin(sqrt(a)) / (2 sqrt(a))
    def end(a, y0):
        r = fsi.ode(_spring_traced).set_integrator("dopri5", rtol=1e-10, atol=1e-12)
        r.set_initial_value(fnp.stack([y0, 0.0]), 0.0).set_f_params(a)
        return r.integrate(1.0)[0]

    d_a, d_y0 = fg.grad(end, argnums=(0, 1))(2.0, 1.0)
    assert float(d_a) == pytest.approx(-np.sin(2 ** 0.5) / (2 * 2 ** 0.5), rel=1e-6)
    assert float(d_y0) == pytest.approx(np.cos(2 ** 0.5), rel=1e-6)
    # complex_ode: y' = (i - 0.1) y
    want = si.complex_ode(lambda t, y: [(1j - 0.1) * y[0]]).set_integrator("dopri5")
    want.set_initial_value([1.0 + 1.0j], 0.0)
    got = fsi.complex_ode(lambda t, y: (1j - 0.1) * y).set_integrator("dopri5")
    got.set_initial_value(np.array([1.0 + 1.0j]), 0.0)
    np.testing.assert_allclose(got.integrate(2.0), want.integrate(2.0), rtol=1e-5)
    assert got.y.dtype.kind == "c"


def test_ode_solout_and_errors():
    seen = []

    def solout(t, y):
        seen.append(t)
        return -1 if t > 0.5 else 0

    r = fsi.ode(_spring_traced).set_integrator("dopri5")
    r.set_solout(solout)
    r.set_initial_value(np.array([1.0, 0.0]), 0.0).set_f_params(2.0)
    y = r.integrate(2.0)
    assert seen[0] == 0.0 and r.t == seen[-1] > 0.5 and r.get_return_code() == 2
    np.testing.assert_allclose(y[0], np.cos(2 ** 0.5 * r.t), rtol=1e-4)
    with pytest.raises(ValueError, match="solout"):
        fsi.ode(_spring_traced).set_integrator("vode").set_solout(solout)
    with pytest.raises(NotImplementedError, match="step"):
        fsi.ode(_spring_traced).set_initial_value(np.array([1.0, 0.0])).integrate(1.0,
                                                                                step=True)
    with pytest.warns(UserWarning, match="No integrator name match"):
        fsi.ode(_spring_traced).set_integrator("rk4")
    with pytest.raises(ValueError, match="complex_ode"):
        fsi.ode(_spring_traced).set_integrator("dopri5").set_initial_value(np.array([1j]))


# --- solve_bvp ------------------------------------------------------------------------------

def _bratu(x, y):
    return fnp.stack([y[1], -fnp.exp(y[0])])


def _ends_zero(ya, yb):
    return fnp.stack([ya[0], yb[0]])


def _mathieu(q):
    return lambda x, y, p: fnp.stack([y[1], -(p[0] - 2 * q * fnp.cos(2 * x)) * y[0]])


def _mathieu_bc(ya, yb, p):
    return fnp.stack([ya[1], yb[1], ya[0] - 1.0])


def _mathieu_guess():
    x = np.linspace(0, np.pi, 5)
    y = np.zeros((2, x.size))
    y[0, 1], y[0, 3] = 1.0, -1.0
    return x, y


def test_solve_bvp_is_scipys():
    # SciPy's own examples: Bratu's problem, and Mathieu's eigenvalue as a parameter
    x = np.linspace(0, 1, 5)
    want = si.solve_bvp(lambda x, y: np.vstack((y[1], -np.exp(y[0]))),
                        lambda ya, yb: np.array([ya[0], yb[0]]), x, np.zeros((2, 5)))
    got = fsi.solve_bvp(_bratu, _ends_zero, x, np.zeros((2, 5)))
    assert got.status == want.status == 0 and got.message == want.message and got.success
    assert got.x.shape == want.x.shape and got.niter == want.niter
    xx = np.linspace(0, 1, 7)
    np.testing.assert_allclose(got.sol(xx), want.sol(xx), atol=1e-6)
    np.testing.assert_allclose(got.yp, want.yp, atol=1e-6)
    np.testing.assert_allclose(got.rms_residuals, want.rms_residuals, rtol=1e-3,
                               atol=1e-9)
    x, y = _mathieu_guess()
    want = si.solve_bvp(lambda x, y, p: np.vstack((y[1], -(p[0] - 10 * np.cos(2 * x)) * y[0])),
                        lambda ya, yb, p: np.array([ya[1], yb[1], ya[0] - 1]), x, y, p=[6])
    got = fsi.solve_bvp(_mathieu(5.0), _mathieu_bc, x, y, p=[6.0])
    np.testing.assert_allclose(got.p, want.p, rtol=1e-6)
    assert got.x.shape == want.x.shape


def test_solve_bvp_derivatives():
    # the eigenvalue in the captured q, against central differences of SciPy's
    x, y = _mathieu_guess()

    def scipy_p(q):
        return si.solve_bvp(lambda x, y, p: np.vstack((y[1], -(p[0] - 2 * q * np.cos(2 * x))
                                                       * y[0])),
                            lambda ya, yb, p: np.array([ya[1], yb[1], ya[0] - 1]), x, y,
                            p=[6], tol=1e-7).p[0]

    def our_p(q):  # (the default tol: the derivative of the discrete answer, close to it)
        return fsi.solve_bvp(_mathieu(q), _mathieu_bc, x, y, p=[6.0]).p[0]

    h = 1e-5
    assert float(fg.grad(our_p)(5.0)) == pytest.approx(
        (scipy_p(5.0 + h) - scipy_p(5.0 - h)) / (2 * h), rel=5e-4)

    # y'' = -y, y(0) = 0, y(b) = 1: y'(0) = 1 / sin(b), in the end b
    def slope(b):
        return fsi.solve_bvp(lambda x, y: fnp.stack([y[1], -y[0]]),
                             lambda ya, yb: fnp.stack([ya[0], yb[0] - 1.0]),
                             fnp.linspace(0.0, b, 5), np.zeros((2, 5)), tol=1e-6).y[1, 0]

    assert float(slope(1.0)) == pytest.approx(1 / np.sin(1.0), rel=1e-6)
    assert float(fg.grad(slope)(1.0)) == pytest.approx(-np.cos(1.0) / np.sin(1.0) ** 2,
                                                       rel=1e-5)


def test_solve_bvp_errors():
    x = np.linspace(0, 1, 5)
    with pytest.raises(NotImplementedError, match="S is not supported"):
        fsi.solve_bvp(_bratu, _ends_zero, x, np.zeros((2, 5)), S=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="strictly increasing"):
        fsi.solve_bvp(_bratu, _ends_zero, x[::-1], np.zeros((2, 5)))
    with pytest.raises(ValueError, match="columns"):
        fsi.solve_bvp(_bratu, _ends_zero, x, np.zeros((2, 4)))
    with pytest.raises(ValueError, match="`bc` return"):
        fsi.solve_bvp(lambda x, y, p: _bratu(x, y), lambda ya, yb, p: ya, x,
                      np.zeros((2, 5)), p=[1.0])
    with pytest.raises(TypeError, match="under jit or vmap"):
        fg.jit(lambda y0: fsi.solve_bvp(_bratu, _ends_zero, x, y0).y)(np.zeros((2, 5)))


def test_lebedev_rule_is_scipys_and_integrates_differentiably():
    x, w = fsi.lebedev_rule(9)
    want_x, want_w = si.lebedev_rule(9)
    np.testing.assert_array_equal(x, want_x)
    np.testing.assert_array_equal(w, want_w)

    def surface_integral(a):  # of exp(a z) over the unit sphere: 4 pi sinh(a) / a
        return fnp.sum(w * fnp.exp(a * x[2]))

    a = 0.7
    exact = 4 * np.pi * np.sinh(a) / a
    d_exact = 4 * np.pi * (np.cosh(a) / a - np.sinh(a) / a ** 2)
    assert float(surface_integral(a)) == pytest.approx(exact, rel=1e-9)
    assert float(fg.grad(surface_integral)(a)) == pytest.approx(d_exact, rel=1e-9)
    with pytest.raises(TypeError, match="traced"):
        fg.grad(lambda n: fsi.lebedev_rule(n)[1].sum() * n)(3.0)

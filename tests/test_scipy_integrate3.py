"""funcgrad.scipy.integrate's LSODA, tanhsinh, nsum, cubature and qmc_quad against SciPy's:
values, counts and result fields; derivatives against closed forms or central differences
of SciPy's values; float32 kept; errors."""
import numpy as np
import pytest

si = pytest.importorskip("scipy.integrate")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.integrate as fsi  # noqa: E402


# --- LSODA -----------------------------------------------------------------------------------

def _vdp(t, y, mu=10.0):
    return [y[1], mu * (1.0 - y[0] ** 2) * y[1] - y[0]]


def _vdp_jac(t, y, mu=10.0):
    return np.array([[0.0, 1.0], [-2.0 * mu * y[0] * y[1] - 1.0, mu * (1.0 - y[0] ** 2)]])


def _vdp_traced(t, y, mu):
    return fnp.stack([y[1], mu * (1.0 - y[0] ** 2) * y[1] - y[0]])


@pytest.mark.parametrize("span", [(0.0, 5.0), (3.0, -1.0)])
def test_solve_ivp_lsoda_is_scipys(span):
    # funcgrad's exact Jacobian against SciPy given the exact jac: ODEPACK's own steps
    def crossing(t, y, mu):
        return y[0] - 1.9

    want = si.solve_ivp(_vdp, span, [2.0, 0.0], method="LSODA", args=(10.0,), jac=_vdp_jac,
                        dense_output=True, events=crossing)
    got = fsi.solve_ivp(_vdp_traced, span, np.array([2.0, 0.0]), method=fsi.LSODA,
                        args=(10.0,), dense_output=True, events=crossing)
    np.testing.assert_allclose(got.t, want.t, rtol=1e-12)
    np.testing.assert_allclose(got.y, want.y, rtol=1e-10, atol=1e-12)
    assert (got.nfev, got.njev, got.nlu, got.status) == (want.nfev, want.njev, want.nlu, 0)
    tt = np.linspace(*span, 9)
    np.testing.assert_allclose(got.sol(tt), want.sol(tt), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got.t_events[0], want.t_events[0], rtol=1e-9)
    assert want.t_events[0].size >= 1


def test_lsoda_solver_object_takes_scipys_steps():
    for jac in (_vdp_jac, np.array([[0.0, 1.0], [-1.0, 0.0]])):  # (callable, constant)
        fun = _vdp if callable(jac) else (lambda t, y: [y[1], -y[0]])
        want = si.LSODA(fun, 0.0, np.array([2.0, 0.0]), 3.0, jac=jac if callable(jac) else
                        (lambda t, y: jac), rtol=1e-6)
        got = fsi.LSODA(fun, 0.0, np.array([2.0, 0.0]), 3.0, jac=jac, rtol=1e-6)
        while want.status == "running":
            assert want.step() is None and got.step() is None
            assert got.t == want.t and got.t_old == want.t_old
            np.testing.assert_array_equal(got.y, want.y)
            mid = 0.5 * (got.t + got.t_old)
            np.testing.assert_allclose(got.dense_output()(mid), want.dense_output()(mid),
                                       rtol=1e-13, atol=1e-15)
        assert got.status == "finished" and got.step_size == want.step_size
        assert (got.nfev, got.njev, got.nlu) == (want.nfev, want.njev, want.nlu)
    solver = fsi.LSODA(lambda t, y: -y, 0.0, np.array([1.0], np.float32), 1.0)
    solver.step()
    assert solver.y.dtype == solver.dense_output()(0.001).dtype == np.float32
    with pytest.raises(NotImplementedError, match="solve_ivp"):
        fg.grad(lambda y0: fsi.LSODA(lambda t, y: -y, 0.0, fnp.stack([y0]), 1.0).y[0])(1.0)
    with pytest.raises(NotImplementedError, match="lband"):
        fsi.LSODA(_vdp, 0.0, np.array([2.0, 0.0]), 1.0, lband=1)
    with pytest.raises(ValueError, match="min_step"):
        fsi.LSODA(_vdp, 0.0, np.array([2.0, 0.0]), 1.0, min_step=-1.0)


def test_solve_ivp_lsoda_derivatives():
    # in args, y0 and a captured value, both modes, against central differences of SciPy's
    def end(mu, y0, c=1.0):
        return fsi.solve_ivp(lambda t, y, m: c * _vdp_traced(t, y, m), (0.0, 1.5),
                             fnp.stack([y0, 0.0]), method="LSODA", args=(mu,),
                             t_eval=[1.0, 1.5], rtol=1e-8, atol=1e-10).y[0, -1]

    def scipy_end(mu, y0, c=1.0):
        return si.solve_ivp(lambda t, y, m: c * np.array(_vdp(t, y, m)), (0.0, 1.5),
                            [y0, 0.0], method="LSODA", args=(mu,), rtol=1e-11,
                            atol=1e-13).y[0, -1]

    h = 1e-5
    fd = [(scipy_end(3.0 + h, 2.0) - scipy_end(3.0 - h, 2.0)) / (2 * h),
          (scipy_end(3.0, 2.0 + h) - scipy_end(3.0, 2.0 - h)) / (2 * h),
          (scipy_end(3.0, 2.0, 1.0 + h) - scipy_end(3.0, 2.0, 1.0 - h)) / (2 * h)]
    np.testing.assert_allclose(end(3.0, 2.0), scipy_end(3.0, 2.0), rtol=1e-6)
    np.testing.assert_allclose(fg.grad(end, argnums=(0, 1, 2))(3.0, 2.0, 1.0), fd, rtol=1e-5)
    np.testing.assert_allclose(fg.jvp(end, (3.0, 2.0, 1.0), (1.0, 0.0, 0.0))[1], fd[0],
                               rtol=1e-5)
    np.testing.assert_allclose(fg.vmap(fg.grad(end))(np.array([3.0, 3.0]), np.array([2.0, 2.0])),
                               [fd[0], fd[0]], rtol=1e-5)

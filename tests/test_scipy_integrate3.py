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
                             t_eval=[1.0, 1.5], rtol=1e-6, atol=1e-8).y[0, -1]

    def scipy_end(mu, y0, c=1.0):
        return si.solve_ivp(lambda t, y, m: c * np.array(_vdp(t, y, m)), (0.0, 1.5),
                            [y0, 0.0], method="LSODA", args=(mu,), rtol=1e-11,
                            atol=1e-13).y[0, -1]

    h = 1e-5
    fd = [(scipy_end(3.0 + h, 2.0) - scipy_end(3.0 - h, 2.0)) / (2 * h),
          (scipy_end(3.0, 2.0 + h) - scipy_end(3.0, 2.0 - h)) / (2 * h),
          (scipy_end(3.0, 2.0, 1.0 + h) - scipy_end(3.0, 2.0, 1.0 - h)) / (2 * h)]
    np.testing.assert_allclose(end(3.0, 2.0), scipy_end(3.0, 2.0), rtol=1e-5)
    np.testing.assert_allclose(fg.grad(end, argnums=(0, 1, 2))(3.0, 2.0, 1.0), fd, rtol=1e-4)
    np.testing.assert_allclose(fg.jvp(end, (3.0, 2.0, 1.0), (1.0, 0.0, 0.0))[1], fd[0],
                               rtol=1e-4)
    np.testing.assert_allclose(fg.vmap(end)(np.array([3.0, 3.0 + h]), np.array([2.0, 2.0])),
                               [scipy_end(3.0, 2.0), scipy_end(3.0 + h, 2.0)], rtol=1e-5)


# --- tanhsinh and nsum -------------------------------------------------------------------------

def _gauss(x, c):
    return np.exp(-c * x * x)


def _gauss_traced(x, c):
    return fnp.exp(-c * x * x)


@pytest.mark.parametrize("f, a, b, args, kw", [
    (_gauss, np.array([0.0, 0.5]), np.array([[1.0], [np.inf], [2.0]]), (np.array([1.0, 2.0]),),
     {}),
    (lambda x: 1.0 / np.sqrt(x), 0.0, 1.0, (), {"rtol": 1e-10}),     # (a singular end)
    (lambda x, c: -c * x * x, -np.inf, np.inf, (2.0,), {"log": True}),
    (lambda x: x * x, np.float32(0.0), np.float32(1.5), (), {"maxlevel": 3})])
def test_tanhsinh_is_scipys(f, a, b, args, kw):
    want = si.tanhsinh(f, a, b, args=args, **kw)
    got = fsi.tanhsinh(f, a, b, args=args, **kw)
    for key in ("integral", "error", "status", "success", "nfev", "maxlevel"):
        np.testing.assert_array_equal(got[key], want[key])
        assert np.asarray(got[key]).dtype == np.asarray(want[key]).dtype, key


def test_tanhsinh_derivatives():
    a, b, c = np.array([0.0, 0.5]), np.array([[1.0], [np.inf], [2.0]]), np.array([1.0, 2.0])

    def total(a, b, c):
        return fnp.sum(fsi.tanhsinh(_gauss_traced, a, b, args=(c,)).integral)

    def scipy_total(a, b, c):
        return np.sum(si.tanhsinh(_gauss, a, b, args=(c,), rtol=1e-14).integral)

    h = 1e-6
    steps = [h * e for e in np.eye(2)]
    fd_a = [(scipy_total(a + d, b, c) - scipy_total(a - d, b, c)) / (2 * h) for d in steps]
    fd_c = [(scipy_total(a, b, c + d) - scipy_total(a, b, c - d)) / (2 * h) for d in steps]
    fd_b = [(scipy_total(a, b + h * e[:, None], c) - scipy_total(a, b - h * e[:, None], c))
            / (2 * h) for e in np.eye(3)]
    fd_b[1] = 0.0  # (an infinite limit)
    g_a, g_b, g_c = fg.grad(total, argnums=(0, 1, 2))(a, b, c)
    np.testing.assert_allclose(g_a, fd_a, rtol=1e-7)
    np.testing.assert_allclose(g_b.ravel(), fd_b, rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(g_c, fd_c, rtol=1e-7)
    np.testing.assert_allclose(fg.jvp(total, (a, b, c), (np.ones(2), np.zeros((3, 1)), c))[1],
                               np.dot(fd_a, [1, 1]) + np.dot(fd_c, c), rtol=1e-7)

    # a captured parameter, both modes: the integral of e^(-k0 x) cos(k1 x) is k0 / |k|^2
    def laplace(k):
        return fsi.tanhsinh(lambda x: fnp.exp(-k[0] * x) * fnp.cos(k[1] * x), 0.0,
                            np.inf).integral

    k = np.array([1.0, 2.0])
    closed = np.array([k[1] ** 2 - k[0] ** 2, -2 * k[0] * k[1]]) / (k @ k) ** 2
    np.testing.assert_allclose(fg.grad(laplace)(k), closed, rtol=1e-10)
    np.testing.assert_allclose(fg.jacfwd(laplace)(k), closed, rtol=1e-10)
    # second order: d2/ds2 of the integral of e^(-s x) over [0, 2] is that of x^2 e^(-s x)
    second = fg.grad(fg.grad(lambda s: fsi.tanhsinh(lambda x, s: fnp.exp(-s * x), 0.0, 2.0,
                                                    args=(s,)).integral))
    np.testing.assert_allclose(second(1.0), 2.0 - 10.0 * np.exp(-2.0), rtol=1e-10)
    # log=True: log of sqrt(pi / s), and its derivative -1 / (2 s)
    log_gauss = fg.grad(lambda s: fsi.tanhsinh(lambda x, s: -s * x * x, -np.inf, np.inf,
                                               args=(s,), log=True).integral)
    np.testing.assert_allclose(log_gauss(2.0), -0.25, rtol=1e-10)
    # under vmap over args: one SciPy call per example
    batched = fg.vmap(lambda s: fsi.tanhsinh(_gauss_traced, 0.0, 1.0, args=(s,)).integral)
    np.testing.assert_array_equal(batched(c), si.tanhsinh(_gauss, 0.0, 1.0, args=(c,)).integral)
    g32 = fg.grad(lambda b: fsi.tanhsinh(lambda x: x * x, np.float32(0.0), b).integral)
    assert g32(np.float32(2.0)).dtype == np.float32 and g32(np.float32(2.0)) == 4.0


def test_nsum_is_scipys_and_differentiable():
    def zeta_term(k, s):
        return k ** -s

    for a, b, kw in [(1, np.inf, {}), (2.0, 40.0, {"step": 3.0}),
                     (np.array([1.0, 3.0]), np.inf, {"log": False}),
                     (np.float32(1.0), np.inf, {})]:   # (float32 with step=1 stays float32)
        s = np.array([2.0, 3.5])[:, None] if np.ndim(a) else 2.0
        want = si.nsum(zeta_term, a, b, args=(s,), **kw)
        got = fsi.nsum(zeta_term, a, b, args=(s,), **kw)
        for key in ("sum", "error", "status", "success", "nfev"):
            np.testing.assert_array_equal(got[key], want[key])
            assert np.asarray(got[key]).dtype == np.asarray(want[key]).dtype, key
    want = si.nsum(lambda k: -2.0 * np.log(k), 1, np.inf, log=True)
    np.testing.assert_array_equal(fsi.nsum(lambda k: -2.0 * np.log(k), 1, np.inf,
                                           log=True).sum, want.sum)

    def zeta(s):
        return fsi.nsum(lambda k, s: k ** -s, 1.0, np.inf, args=(s,)).sum

    def scipy_zeta(s):
        return si.nsum(zeta_term, 1.0, np.inf, args=(s,), tolerances={"rtol": 1e-15}).sum

    h = 1e-5
    fd = (scipy_zeta(2.5 + h) - scipy_zeta(2.5 - h)) / (2 * h)
    np.testing.assert_allclose(fg.grad(zeta)(2.5), fd, rtol=1e-7)
    np.testing.assert_allclose(fg.jvp(zeta, (2.5,), (1.0,))[1], fd, rtol=1e-7)
    # log=True: d log(sum) / ds = sum' / sum; a captured value
    log_zeta = fg.grad(lambda s: fsi.nsum(lambda k: -s * fnp.log(k), 1.0, np.inf,
                                          log=True).sum)
    np.testing.assert_allclose(log_zeta(2.5), fd / scipy_zeta(2.5), rtol=1e-7)
    with pytest.raises(TypeError, match="no derivative in `a`"):
        fg.grad(lambda a: fsi.nsum(lambda k: k ** -2.0, a, np.inf).sum)(1.0)


def test_tanhsinh_complex_integrand_keeps_its_imaginary_part():
    want = si.tanhsinh(lambda x: np.exp(1j * x), 0.0, 1.0).integral
    np.testing.assert_array_equal(fsi.tanhsinh(lambda x: np.exp(1j * x), 0.0, 1.0).integral,
                                  want)

    def moment(w):
        return fsi.tanhsinh(lambda x: fnp.exp(1j * w * x), 0.0, 1.0).integral

    # forward mode: d/dw of the integral of e^(iwx) is that of i x e^(iwx)
    np.testing.assert_allclose(fg.jvp(moment, (1.0,), (1.0,))[1],
                               1j * si.tanhsinh(lambda x: x * np.exp(1j * x), 0.0, 1.0).integral,
                               rtol=1e-12)
    with pytest.raises(NotImplementedError, match="real and imaginary parts separately"):
        fg.grad(lambda w: fnp.real(moment(w)))(1.0)


def test_tanhsinh_nsum_errors():
    with pytest.raises(ValueError, match="`f` must be callable"):
        fsi.tanhsinh(1.0, 0.0, 1.0)
    with pytest.raises(NotImplementedError, match="preserve_shape"):
        fsi.tanhsinh(np.sin, 0.0, 1.0, preserve_shape=True)
    with pytest.raises(ValueError, match="must be non-negative and finite"):
        fsi.tanhsinh(np.sin, 0.0, 1.0, atol=-1.0)   # (SciPy's own check)
    with pytest.raises(TypeError, match="outside jit and vmap"):
        fg.jit(lambda b: fsi.tanhsinh(np.sin, 0.0, b).integral)(1.0)
    with pytest.raises(TypeError, match="no derivative in `step`"):
        fg.grad(lambda h: fsi.nsum(lambda k: k ** -2.0, 1.0, 9.0, step=h).sum)(1.0)


def test_tanhsinh_captured_values_with_array_limits():
    # (captured values are lifted on one point: SciPy's calls change the points' shape)
    def total(k):
        return fnp.sum(fsi.tanhsinh(lambda x: fnp.exp(-k[0] * x) * k[1], np.zeros(2),
                                    np.array([1.0, np.inf])).integral)

    k = np.array([2.0, 3.0])
    closed = [k[1] * (np.exp(-k[0]) * (1 + k[0]) - 1) / k[0] ** 2 - k[1] / k[0] ** 2,
              (1 - np.exp(-k[0])) / k[0] + 1 / k[0]]
    np.testing.assert_allclose(total(k), k[1] * ((1 - np.exp(-k[0])) / k[0] + 1 / k[0]),
                               rtol=1e-12)
    np.testing.assert_allclose(fg.grad(total)(k), closed, rtol=1e-10)


# --- cubature ----------------------------------------------------------------------------------

def _pair(x, c):  # (two outputs a point)
    return np.stack([np.exp(-c * np.sum(x * x, axis=-1)), x[:, 0] * x[:, 1] ** 2], axis=-1)


def _pair_traced(x, c):
    return fnp.stack([fnp.exp(-c * fnp.sum(x * x, axis=-1)), x[:, 0] * x[:, 1] ** 2], axis=-1)


@pytest.mark.parametrize("f, a, b, kw", [
    (_pair, [0.0, 0.5], [1.0, 2.0], {"args": (1.5,)}),
    (lambda x: np.exp(-np.sum(x * x, axis=-1)), [0.0, -np.inf], [np.inf, np.inf], {}),
    (lambda x: np.cos(np.sum(x, axis=-1)), [0.0] * 3, [1.0] * 3, {"rule": "genz-malik",
                                                                   "rtol": 1e-6}),
    (lambda x: 1.0 / np.sqrt(np.abs(x[:, 0] - 0.5)), [0.0], [1.0],
     {"rule": "gk15", "max_subdivisions": 5, "points": [np.array([0.5])]})])
def test_cubature_is_scipys(f, a, b, kw):
    want = si.cubature(f, np.array(a), np.array(b), **kw)
    got = fsi.cubature(f, np.array(a), np.array(b), **kw)
    np.testing.assert_array_equal(got.estimate, want.estimate)
    np.testing.assert_array_equal(got.error, want.error)
    assert (got.status, got.subdivisions, got.atol, got.rtol) == (
        want.status, want.subdivisions, want.atol, want.rtol)
    assert len(got.regions) == len(want.regions)


def test_cubature_derivatives():
    a, b, c, w = np.array([0.0, 0.5]), np.array([1.0, 2.0]), 1.5, np.array([1.0, 0.3])

    def total(a, b, c):
        return fnp.sum(fsi.cubature(_pair_traced, a, b, args=(c,)).estimate * w)

    def scipy_total(a, b, c):
        return np.sum(si.cubature(_pair, a, b, args=(c,), rtol=1e-13).estimate * w)

    h = 1e-6
    fd_a = [(scipy_total(a + h * e, b, c) - scipy_total(a - h * e, b, c)) / (2 * h)
            for e in np.eye(2)]
    fd_b = [(scipy_total(a, b + h * e, c) - scipy_total(a, b - h * e, c)) / (2 * h)
            for e in np.eye(2)]
    fd_c = (scipy_total(a, b, c + h) - scipy_total(a, b, c - h)) / (2 * h)
    grads = fg.grad(total, argnums=(0, 1, 2))(a, b, c)
    for got, want in zip(grads, (fd_a, fd_b, fd_c)):
        np.testing.assert_allclose(got, want, rtol=1e-7)
    np.testing.assert_allclose(fg.jvp(total, (a, b, c), (np.array([1.0, 0.0]),
                                                         np.array([0.0, 1.0]), 1.0))[1],
                               fd_a[0] + fd_b[1] + fd_c, rtol=1e-7)

    # a captured value, to infinity: the integral of e^(-k.x) over the quadrant is 1/(k0 k1)
    def quadrant(k):
        return fsi.cubature(lambda x: fnp.exp(-x @ k), [0.0, 0.0], [np.inf, np.inf]).estimate

    k = np.array([1.0, 2.0])
    closed = -1.0 / (k[0] * k[1]) / k
    np.testing.assert_allclose(fg.grad(quadrant)(k), closed, rtol=1e-10)
    np.testing.assert_allclose(fg.jacfwd(quadrant)(k), closed, rtol=1e-10)
    # second order in the limits: the integral of x0^2 x1 over [0, b] is b0^3 b1^2 / 6
    box = fg.hessian(lambda b: fsi.cubature(lambda x: x[:, 0] ** 2 * x[:, 1],
                                            np.zeros(2), b).estimate)
    bb = np.array([1.5, 1.0])
    np.testing.assert_allclose(box(bb), [[bb[0] * bb[1] ** 2, bb[0] ** 2 * bb[1]],
                                         [bb[0] ** 2 * bb[1], bb[0] ** 3 / 3]], rtol=1e-10)
    g32 = fg.grad(lambda b: fsi.cubature(lambda x: x[:, 0] ** 2, np.zeros(1, np.float32),
                                         b).estimate)(np.array([2.0], np.float32))
    assert g32.dtype == np.float32 and g32[0] == 4.0
    with pytest.raises(ValueError, match="1-d arrays of the same length"):
        fsi.cubature(np.sin, [0.0, 0.0], [1.0])
    with pytest.raises(TypeError, match="real and imaginary parts"):
        fsi.cubature(lambda x: np.exp(1j * x[:, 0]), [0.0], [1.0])


# --- qmc_quad ----------------------------------------------------------------------------------

def test_qmc_quad_is_scipys_and_differentiable():
    qmc = pytest.importorskip("scipy.stats.qmc")

    def gauss(x):
        return np.exp(-np.sum(x * x, axis=0))

    for a, b, log in [([0.0, 0.5], [1.0, 2.0], False), ([1.0, 0.5], [0.0, 2.0], True)]:
        f = (lambda x: -np.sum(x * x, axis=0)) if log else gauss
        want = si.qmc_quad(f, a, b, qrng=qmc.Halton(2, rng=3), n_points=256, log=log)
        got = fsi.qmc_quad(f, a, b, qrng=qmc.Halton(2, rng=3), n_points=256, log=log)
        np.testing.assert_allclose(got.integral, want.integral, rtol=1e-14)
        np.testing.assert_allclose(got.standard_error, want.standard_error, rtol=1e-12)

    def total(a, b, s):
        return fsi.qmc_quad(lambda x: fnp.exp(-s * fnp.sum(x * x, axis=0)), a, b,
                            qrng=qmc.Halton(2, rng=3), n_points=256).integral

    def scipy_total(a, b, s):
        return si.qmc_quad(lambda x: np.exp(-s * np.sum(x * x, axis=0)), a, b,
                           qrng=qmc.Halton(2, rng=3), n_points=256).integral

    a, b, h = np.array([0.0, 0.5]), np.array([1.0, 2.0]), 1e-6
    fd = [[(scipy_total(a + h * e, b, 1.0) - scipy_total(a - h * e, b, 1.0)) / (2 * h)
           for e in np.eye(2)],
          [(scipy_total(a, b + h * e, 1.0) - scipy_total(a, b - h * e, 1.0)) / (2 * h)
           for e in np.eye(2)],
          (scipy_total(a, b, 1.0 + h) - scipy_total(a, b, 1.0 - h)) / (2 * h)]
    for got, want in zip(fg.grad(total, argnums=(0, 1, 2))(a, b, 1.0), fd):
        np.testing.assert_allclose(got, want, rtol=1e-7)
    np.testing.assert_allclose(fg.vmap(lambda s: total(a, b, s))(np.array([1.0, 2.0])),
                               [scipy_total(a, b, 1.0), scipy_total(a, b, 2.0)], rtol=1e-13)
    r32 = fsi.qmc_quad(lambda x: x[0] ** 2, np.float32([0.0]), np.float32([1.0]),
                       qrng=qmc.Halton(1, rng=1), n_points=64)
    assert r32.integral.dtype == r32.standard_error.dtype == np.float32
    with pytest.warns(UserWarning, match="equal to an upper limit"):
        assert fsi.qmc_quad(gauss, [0.0, 1.0], [0.0, 2.0]).integral == 0.0
    with pytest.raises(NotImplementedError, match="move the limits apart"):
        fg.grad(lambda b: fsi.qmc_quad(gauss, fnp.stack([b, 1.0]), [1.0, 2.0]).integral)(1.0)
    with pytest.raises(TypeError, match="`func` must be callable"):
        fsi.qmc_quad(None, [0.0], [1.0])

    def one_point(x):  # (not vectorized: called on each point, with SciPy's warning)
        return float(x[0]) * x[1] if np.ndim(x) == 1 else {}[0]

    with pytest.warns(UserWarning, match="vectorized call"):
        got = fsi.qmc_quad(one_point, [0.0, 0.0], [1.0, 2.0], qrng=qmc.Halton(2, rng=5),
                           n_points=16, n_estimates=2)
    # (SciPy's own fallback applies func along the points' axis, to each coordinate's row:
    # the answer is compared with the vectorized integrand's instead)
    want = si.qmc_quad(lambda x: x[0] * x[1], [0.0, 0.0], [1.0, 2.0],
                       qrng=qmc.Halton(2, rng=5), n_points=16, n_estimates=2)
    np.testing.assert_allclose(got.integral, want.integral, rtol=1e-14)

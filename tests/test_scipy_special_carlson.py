"""Carlson's symmetric elliptic integrals and Legendre's incomplete ones of
funcgrad.scipy.special (funcgrad/scipy/_special_carlson.py): SciPy's values on random and
edge arguments, derivatives against the closed forms (each R's partial derivatives are
other R's, DLMF 19.18, evaluated by SciPy) and against central differences to second
order, vmap, jit, float32, and the errors."""
import math

import numpy as np
import pytest

sc = pytest.importorskip("scipy.special")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
from helpers import check_float32, check_jvp_fd, check_second_order, check_vmap  # noqa: E402

RNG = np.random.default_rng(19)
N = 200
X, Y, Z, P = (np.exp(RNG.uniform(-9, 9, N)) for _ in range(4))
CALLS = [("elliprf", (X, Y, Z)), ("elliprd", (X, Y, Z)), ("elliprg", (X, Y, Z)),
         ("elliprc", (X, Y)), ("elliprc", (X, -Y)), ("elliprj", (X, Y, Z, P)),
         ("elliprj", (X, Y, Z, -P)),
         ("ellipkinc", (RNG.uniform(-12, 12, N), RNG.uniform(-4, 1, N))),
         ("ellipeinc", (RNG.uniform(-12, 12, N), RNG.uniform(-4, 1, N)))]


@pytest.mark.parametrize("name,args", CALLS, ids=[f"{c[0]}{i}" for i, c in enumerate(CALLS)])
def test_values_are_scipys(name, args):
    got, want = getattr(fsp, name)(*args), getattr(sc, name)(*args)
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_allclose(got, want, rtol=5e-14 if name != "elliprj" else 1e-13)


def test_scipys_docstring_values():
    np.testing.assert_allclose(fsp.elliprf(1.0, 2.0, 0.0), sc.ellipk(0.5) / math.sqrt(2),
                               rtol=1e-15)
    assert float(fsp.elliprc(0.0, 1.0)) == math.pi / 2
    np.testing.assert_allclose(fsp.elliprg(0.0, 1.0, 1.0), math.pi / 4, rtol=1e-15)
    np.testing.assert_allclose(fsp.elliprd(1.0, 1.0, 1.0), 1.0, rtol=1e-15)
    np.testing.assert_allclose(fsp.elliprj(2.0, 3.0, 4.0, 5.0), sc.elliprj(2.0, 3.0, 4.0, 5.0),
                               rtol=1e-15)
    # homogeneity: R_F(l x, l y, l z) = R_F(x, y, z) / sqrt(l)
    np.testing.assert_allclose(fsp.elliprf(4 * X, 4 * Y, 4 * Z), fsp.elliprf(X, Y, Z) / 2,
                               rtol=1e-14)


EDGES = np.array([0.0, 1.0, 2.5, np.inf, -1.0])


@pytest.mark.parametrize("name,arity", [("elliprf", 3), ("elliprd", 3), ("elliprg", 3),
                                        ("elliprc", 2), ("elliprj", 4)])
def test_edges_are_scipys(name, arity):
    """Zeros, infinities, negative arguments: SciPy's limits and NaNs (SciPy's NaN for
    R_C(inf, y < 0), whose principal value is 0, aside)."""
    args = [a.ravel() for a in np.meshgrid(*[EDGES] * arity)]
    with np.errstate(all="ignore"):
        got, want = np.asarray(getattr(fsp, name)(*args)), getattr(sc, name)(*args)
    if name == "elliprc":
        aside = np.isinf(args[0]) & (args[1] < 0)
        assert np.all(got[aside] == 0)
        got, want = got[~aside], want[~aside]
    np.testing.assert_allclose(got, want, rtol=1e-14)
    # a NaN argument gives NaN
    assert np.isnan(getattr(fsp, name)(*([1.0] * (arity - 1) + [math.nan])))


def test_extreme_magnitudes_keep_the_closed_forms():
    """R_F(0, a, a) = pi / (2 sqrt a), R_G(0, a, a) = pi sqrt(a) / 4, R_C(x, y) for y/x
    past the float range (SciPy gives NaN for some of these)."""
    for a in (1e-300, 1e300):
        np.testing.assert_allclose(fsp.elliprf(0.0, a, a), math.pi / (2 * math.sqrt(a)),
                                   rtol=1e-14)
        np.testing.assert_allclose(fsp.elliprg(0.0, a, a), math.pi * math.sqrt(a) / 4,
                                   rtol=1e-14)
    np.testing.assert_allclose(fsp.elliprc(1e-300, 1e300), math.pi / 2e150, rtol=1e-14)
    log_ratio = math.log(4) + 600 * math.log(10)
    np.testing.assert_allclose(fsp.elliprc(1e300, 1e-300), log_ratio / 2e150,
                               rtol=1e-14)


def _grads(f, *args):
    return [np.asarray(g) for g in fg.vmap(fg.grad(f, argnums=tuple(range(len(args)))))(
        *args)]


def test_derivatives_are_the_closed_forms():
    x, y, z, p = X[:40], Y[:40], Z[:40], P[:40]
    gx, gy, gz = _grads(fsp.elliprf, x, y, z)
    np.testing.assert_allclose(gz, -sc.elliprd(x, y, z) / 6, rtol=1e-12)
    np.testing.assert_allclose(gx, -sc.elliprd(y, z, x) / 6, rtol=1e-12)
    # dR_D/dx = (R_D(x, y, z) - R_D(y, z, x)) / (2 (z - x)); z by Euler's relation
    dx, dy, dz = _grads(fsp.elliprd, x, y, z)
    np.testing.assert_allclose(dx, (sc.elliprd(x, y, z) - sc.elliprd(y, z, x)) / (2 * (z - x)),
                               rtol=1e-9)
    np.testing.assert_allclose(x * dx + y * dy + z * dz, -1.5 * sc.elliprd(x, y, z), rtol=1e-12)
    # dR_J/dx = (R_J - R_D(y, z, x)) / (2 (p - x)); Euler: sum x_i dR_J/dx_i = -3/2 R_J
    jx, jy, jz, jp = _grads(fsp.elliprj, x, y, z, p)
    rj = sc.elliprj(x, y, z, p)
    np.testing.assert_allclose(jx, (rj - sc.elliprd(y, z, x)) / (2 * (p - x)), rtol=1e-9)
    np.testing.assert_allclose(x * jx + y * jy + z * jz + p * jp, -1.5 * rj, rtol=1e-12)
    # dR_G/dz = R_F / 4 - z R_D(x, y, z) / 12
    gz = _grads(fsp.elliprg, x, y, z)[2]
    terms = sc.elliprf(x, y, z) / 4, z * sc.elliprd(x, y, z) / 12  # (a difference: to
    assert np.all(np.abs(gz - (terms[0] - terms[1])) <= 1e-13 * (terms[0] + terms[1]))
    cx = _grads(fsp.elliprc, x, y)[0]
    np.testing.assert_allclose(cx, (sc.elliprc(x, y) - 1 / np.sqrt(x)) / (2 * (y - x)),
                               rtol=1e-9)
    # d/dphi F(phi | m) = 1 / sqrt(1 - m sin^2 phi), E: its reciprocal
    phi, m = RNG.uniform(-7, 7, 30), RNG.uniform(-2, 0.9, 30)
    delta = np.sqrt(1 - m * np.sin(phi) ** 2)
    np.testing.assert_allclose(_grads(fsp.ellipkinc, phi, m)[0], 1 / delta, rtol=1e-13)
    np.testing.assert_allclose(_grads(fsp.ellipeinc, phi, m)[0], delta, rtol=1e-13)


def test_the_other_arguments_derivatives_are_finite_at_a_zero_one():
    """dR_F/dx is -inf at x = 0 (as -1/sqrt(x)); in y and z it is -R_D/6 there."""
    with pytest.warns(RuntimeWarning, match="divide by zero"):  # (sqrt's slope at 0)
        grads = fg.grad(fsp.elliprf, (0, 1, 2))(0.0, 2.0, 3.0)
    gx, gy, gz = (float(g) for g in grads)
    assert gx == -math.inf
    np.testing.assert_allclose([gy, gz], [-sc.elliprd(0.0, 3.0, 2.0) / 6,
                                          -sc.elliprd(0.0, 2.0, 3.0) / 6], rtol=1e-12)


@pytest.mark.parametrize("name,args", [
    ("elliprf", (X[:4], Y[:4], Z[:4])), ("elliprd", (X[:4], Y[:4], Z[:4])),
    ("elliprg", (X[:4], Y[:4], Z[:4])), ("elliprc", (X[:4], Y[:4])),
    ("elliprc", (X[:4], -Y[:4])), ("elliprj", (X[:4], Y[:4], Z[:4], P[:4])),
    ("elliprj", (X[:4], Y[:4], Z[:4], -P[:4])),
    ("ellipkinc", (np.array([0.3, 2.0, -4.0, 7.0]), np.array([0.5, -1.0, 0.2, 0.9]))),
    ("ellipeinc", (np.array([0.3, 2.0, -4.0, 7.0]), np.array([0.5, -1.0, 0.2, 0.9])))])
def test_transforms(name, args):
    f = getattr(fsp, name)
    scale = [np.ones(4) for _ in args]
    # (relative steps: the arguments span 1e-4..1e4)
    unit = [a if name.startswith("ellipr") else s for a, s in zip(args, scale)]

    def g(*u):
        return f(*[a * (1 + v) if name.startswith("ellipr") else a + v
                   for a, v in zip(args, u)])
    zeros = [np.zeros(4) for _ in unit]
    check_jvp_fd(g, zeros, RNG)
    check_second_order(g, zeros, RNG)
    check_vmap(f, args, [0] * len(args), RNG)
    np.testing.assert_allclose(fg.jit(f)(*args), f(*args), rtol=1e-15)
    check_float32(f, args, RNG, graph=False)


def test_complex_arguments_raise():
    with pytest.raises(TypeError, match="complex arguments"):
        fsp.elliprf(1j, 1.0, 2.0)


def test_agm_is_scipys_and_differentiable():
    a, b = np.exp(RNG.uniform(-20, 20, N)), np.exp(RNG.uniform(-20, 20, N))
    np.testing.assert_allclose(fsp.agm(a, b), sc.agm(a, b), rtol=1e-15)
    np.testing.assert_allclose(fg.jit(fsp.agm)(a, b), sc.agm(a, b), rtol=1e-15)
    edges = np.array([0.0, 1.0, -1.0, np.inf, -np.inf, np.nan])
    ea, eb = (v.ravel() for v in np.meshgrid(edges, edges))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(fsp.agm(ea, eb), sc.agm(ea, eb))
    # K(m) = pi / (2 agm(1, sqrt(1 - m))), differentiated through the mean
    m = np.linspace(-2, 0.9, 7)
    np.testing.assert_allclose(
        fg.elementwise_grad(lambda m: np.pi / (2 * fsp.agm(1.0, np.sqrt(1 - m))))(m),
        fg.elementwise_grad(fsp.ellipk)(m), rtol=1e-13)
    f = fsp.agm
    check_jvp_fd(f, [a[:4] / a[:4] * 2, b[:4] / b[:4] * 5 + np.arange(4)], RNG)
    check_second_order(f, [np.array([1.0, 2.0, 30.0]), np.array([3.0, 0.1, 7.0])], RNG)
    check_vmap(f, [a[:3], b[:3]], [0, 0], RNG)

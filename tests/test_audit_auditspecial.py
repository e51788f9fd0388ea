"""Regression tests of the session-25 derivative audit of funcgrad.scipy.special
(benchmarks/results/session25-auditspecial.md): expected values are SciPy's, expected
derivatives central differences of SciPy's own functions."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.special as fsp

scipy_special = pytest.importorskip("scipy.special")


def _central(f, args, k, h=1e-5):
    def at(d):
        a = list(args)
        a[k] = a[k] + d
        return float(f(*a))
    return (-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h)


# Points where no count solves the equation: SciPy returns its search range's end (0), the
# same for every nearby argument, so the derivative is 0 (was the implicit function's slope
# at k = 0: pdtrik 2.87, nbdtrik 7.5, bdtrik 0.44 -- silently wrong).
CLAMPED = [
    ("pdtrik", (0.0009396708115857752, 1.3707801086464129)),
    ("pdtrik", (0.27, 0.667)),
    ("nbdtrik", (0.0476181162629942, 1.001404389587056, 0.9580595966955996)),
    ("bdtrik", (0.6679591922032863, 0.0010581165812412806, 0.8966210623059083)),
]


@pytest.mark.parametrize("name, args", CLAMPED)
def test_cdflib_inverse_at_its_range_end_has_scipys_zero_derivative(name, args):
    ours, theirs = getattr(fsp, name), getattr(scipy_special, name)
    assert float(ours(*args)) == float(theirs(*args)) == 0.0
    for k in range(len(args)):
        assert _central(theirs, args, k) == 0.0
        assert float(fg.grad(ours, k)(*args)) == 0.0
        assert float(fg.grad(ours, k)(*args)) == float(fg.jacrev(ours, k)(*args))


# Beside those points, a solved one keeps the implicit derivative (both in one array).
@pytest.mark.parametrize("name, args", [
    ("pdtrik", (0.5, 2.0)),
    ("nbdtrik", (0.5, 3.0, 0.4)),
    ("bdtrik", (0.3, 10.0, 0.4)),
])
def test_cdflib_inverse_solved_points_keep_the_implicit_derivative(name, args):
    ours, theirs = getattr(fsp, name), getattr(scipy_special, name)
    clamped = dict(CLAMPED)[name]
    for k in range(len(args)):
        both = [np.array([a, c]) for a, c in zip(args, clamped)]
        _, tangent = fg.jvp(lambda v: ours(*both[:k], v, *both[k + 1:]), (both[k],),
                            (np.ones(2),))
        np.testing.assert_allclose(tangent[0], _central(theirs, args, k), rtol=1e-5)
        assert tangent[1] == 0.0


# SciPy's sph_harm_y at a polar angle outside [0, pi] is its value at the angle folded
# into [0, pi]; the derivative in theta there was the formula's for [0, pi] (wrong sign or
# value: Y_2^0 at theta = 3.5 gave +0.62, SciPy's slope is -0.62).
@pytest.mark.parametrize("n, m", [(2, 0), (3, 1), (3, -1), (4, 3)])
@pytest.mark.parametrize("theta", [-0.5, 3.5, 4.2, 12.5, 0.5, 2.5])
def test_sph_harm_y_theta_derivative_outside_zero_pi(n, m, theta):
    def theirs(part):
        return lambda t: getattr(np, part)(scipy_special.sph_harm_y(n, m, t, 0.7))
    for part in ("real", "imag"):
        expected = _central(theirs(part), (theta,), 0, h=1e-4)
        ours = lambda t: getattr(fg.numpy, part)(fsp.sph_harm_y(n, m, t, 0.7))
        np.testing.assert_allclose(float(fg.grad(ours)(theta)), expected, rtol=1e-7,
                                   atol=1e-9)
        _, tangent = fg.jvp(ours, (theta,), (1.0,))
        np.testing.assert_allclose(float(tangent), expected, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(complex(fsp.sph_harm_y(n, m, theta, 0.7)),
                               scipy_special.sph_harm_y(n, m, theta, 0.7), rtol=1e-13)


def test_sph_harm_y_folded_theta_under_jit_and_vmap():
    thetas = np.array([0.5, 3.5, -0.5])
    f = lambda t: fg.numpy.real(fsp.sph_harm_y(2, 0, t, 0.7))
    expected = np.array([_central(lambda t: np.real(scipy_special.sph_harm_y(2, 0, t, 0.7)),
                                  (t,), 0, h=1e-4) for t in thetas])
    np.testing.assert_allclose(fg.vmap(fg.grad(f))(thetas), expected, rtol=1e-7)
    np.testing.assert_allclose(fg.jit(fg.vmap(fg.grad(f)))(thetas), expected, rtol=1e-7)

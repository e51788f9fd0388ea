"""hyp0f1 where SciPy 1.17's value is wrong (benchmarks/results/session26-hyp0f1.md): ``z < 0``
with a large ``|v|`` or ``|z|``, where SciPy's product ``(-z)**((1-v)/2) Gamma(v) J_{v-1}``
over- or underflows in a factor.  Expected values and derivatives are mpmath's (the true
function at the same doubles); where SciPy is right, funcgrad's values stay SciPy's bit
for bit."""
import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.special as fsp
from funcgrad.primitives.special_hyp0f1 import DEBYE_FROM

scipy_special = pytest.importorskip("scipy.special")
mpmath = pytest.importorskip("mpmath")
mpmath.mp.dps = 40


def _true(v, z):
    return float(mpmath.hyp0f1(v, z))


def _true_slope(v, z):
    return float(mpmath.diff(lambda t: mpmath.hyp0f1(v, t), z))


def _route(v, z):
    """The module's route for ``v``, ``z`` (its docstring)."""
    if v < 0 or -z <= v / 4:
        return "series"
    nu, x = v - 1.0, 2.0 * math.sqrt(-z)
    a = math.acosh(nu / x) if x < nu else 0.0
    return "debye" if nu * (a - math.tanh(a)) > DEBYE_FROM else "bessel"


# (v, z, SciPy's value, the route here); truths in the comments are mpmath's
REPAIRED = [
    (179.628, -39.1115, "inf", "series"),  # 0.80423 (the hyp1f1 helper's reproducer)
    (287.116, -0.0670401, "nan", "series"),  # 0.99977
    (224.009, -1.15748, "nan", "series"),  # 0.99485
    (181.879, -905.651, "inf", "bessel"),  # 0.0064107
    (376.18, -956.394, "nan", "bessel"),  # 0.078001
    (1384.44, -268424.0, "nan", "bessel"),  # 2.378e-92
    (100.001, -9.02317e7, "0.0", "bessel"),  # 2.856e-241 (SciPy's power underflows)
    (11216.6, -1.70711e6, "nan", "debye"),  # 2.79e-67
    (4169.02, -1.14981e6, "nan", "debye"),  # 7.26e-125
    (-1764.38, -0.00985625, "nan", "series"),  # 1.0000056
    (-5057.52, -2161.23, "nan", "series"),  # 1.5332
    (-473.073, -13403.4, "nan", "series"),  # 5.0985e12
]


@pytest.mark.parametrize("v, z, scipy_says, route", REPAIRED)
def test_values_where_scipy_is_wrong_are_the_true_ones(v, z, scipy_says, route):
    want = _true(v, z)
    got = float(fsp.hyp0f1(v, z))
    assert abs(got - want) <= 1e-12 * abs(want), (got, want)
    assert str(float(scipy_special.hyp0f1(v, z))) == scipy_says  # (still SciPy's bug)
    # (each route of the module is exercised)
    assert _route(v, z) == route


@pytest.mark.parametrize("v, z", [p[:2] for p in REPAIRED[::2]])
def test_z_derivative_where_scipy_is_wrong_is_the_true_one(v, z):
    want = _true_slope(v, z)
    got = float(fg.grad(fsp.hyp0f1, 1)(v, z))
    assert abs(got - want) <= 1e-12 * abs(want), (got, want)


def test_reproducer_value_and_slope():
    value, slope = fg.value_and_grad(fsp.hyp0f1, 1)(179.628, -39.1115)
    assert float(value) == pytest.approx(_true(179.628, -39.1115), rel=1e-14)
    assert float(slope) == pytest.approx(_true_slope(179.628, -39.1115), rel=1e-14)


def test_second_z_derivative_where_scipy_is_wrong():
    v, z = 376.18, -956.394
    want = float(mpmath.diff(lambda t: mpmath.hyp0f1(v, t), z, 2))
    got = float(fg.grad(fg.grad(fsp.hyp0f1, 1), 1)(v, z))
    assert abs(got - want) <= 1e-12 * abs(want), (got, want)


# (v, z) where SciPy is right: its own value, bit for bit
KEPT = [(120.075, -64.3529), (50.0, -30.0), (170.314, -223.79), (1.7, -3.0), (300.0, 50.0),
        (2000.0, 1.0e5), (500.0, -1e-4), (0.5, -1.0e6), (-3.5, -2.0)]


@pytest.mark.parametrize("v, z", KEPT)
def test_scipys_values_are_kept_where_right(v, z):
    got = float(fsp.hyp0f1(v, z))
    assert got == float(scipy_special.hyp0f1(v, z))
    # (SciPy's own accuracy at z > 0: it rounds log Gamma(v) ~ 1e4 there, 1.2e-12 at v = 2000)
    assert abs(got - _true(v, z)) <= 3e-12 * abs(_true(v, z))


def test_negative_v_where_the_series_cancels_stays_nan():
    # (its terms sum to ~1e70 times the value: not computed here, NaN as in SciPy)
    assert math.isnan(float(fsp.hyp0f1(-2021.17, -731854.0)))


def test_broadcasting_mixes_kept_and_repaired_elements():
    v = np.array([[179.628], [1.7], [11216.6]])
    z = np.array([-39.1115, -3.0, -2.0, -1.70711e6])
    got = np.asarray(fsp.hyp0f1(v, z))
    assert got.shape == (3, 4)
    for i in range(3):
        for j in range(4):
            assert got[i, j] == pytest.approx(_true(v[i, 0], z[j]), rel=1e-12, abs=1e-300)
    assert got[1, 1] == scipy_special.hyp0f1(1.7, -3.0)


def test_float32_stays_float32_and_is_repaired():
    got = fsp.hyp0f1(np.float32(179.628), np.array([-39.1115, -1.0], dtype=np.float32))
    assert got.dtype == np.float32
    want = [_true(float(np.float32(179.628)), float(np.float32(t))) for t in (-39.1115, -1.0)]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_vmap_of_grad_and_jit_agree_with_the_true_values():
    zs = np.array([-39.1115, -905.651, -3.0])
    slopes = fg.vmap(fg.grad(lambda z: fsp.hyp0f1(181.879, z)))(zs)
    np.testing.assert_allclose(slopes, [_true_slope(181.879, z) for z in zs], rtol=1e-12)
    assert float(fg.jit(fsp.hyp0f1)(179.628, -39.1115)) == pytest.approx(0.804231960671850,
                                                                          rel=1e-13)


def test_v_derivative_still_raises():
    with pytest.raises(NotImplementedError, match="with respect to v"):
        fg.grad(fsp.hyp0f1)(179.628, -39.1115)


def test_complex_z_is_scipys():
    z = np.array([-39.1115 + 0.5j])
    np.testing.assert_array_equal(fsp.hyp0f1(2.5, z), scipy_special.hyp0f1(2.5, z))

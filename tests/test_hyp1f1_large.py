"""hyp1f1 where SciPy 1.17's value is wrong (benchmarks/results/session26-hyp1f1.md): large
``a > b > 0`` with ``-1 <= x < 0``, and a negative integer ``a`` at ``x == b``.  Expected
values and derivatives are mpmath's (the true function at the same doubles); where SciPy
is right, funcgrad's values must stay SciPy's bit for bit."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.special as fsp

scipy_special = pytest.importorskip("scipy.special")
mpmath = pytest.importorskip("mpmath")
mpmath.mp.dps = 40


def _true(a, b, x):
    return float(mpmath.hyp1f1(a, b, x))


def _true_slope(a, b, x):
    return float(mpmath.diff(lambda t: mpmath.hyp1f1(a, b, t), x))


# (a, b, x) where SciPy's value is off by 8 to 190 orders of magnitude (SciPy / truth):
REPAIRED = [
    (148.77, 0.294, -0.716),  # SciPy 7.06e8, truth -0.99682 (the session-25 audit's point)
    (100.0, 1.0, -1.0),  # 3.4e7 / 0.10354
    (1000.0, 0.001, -0.3),  # 1.1e18 / -1287.1
    (1000.3, 10.0, -1.0),  # 6.9e27 relative error
    (2164.61, 20.11, -0.8074),  # 1.3e20 / -1.85e-16
    (10000.3, 100.0, -0.3),  # 7.3e28 relative error, truth -5.2e-18
    (32056.7, 141.1, -0.5529),  # 1.0e42 / 8.4e-59
    (51569.8, 0.6702, -0.921),  # 1.9e188 / -0.0917
]


@pytest.mark.parametrize("a, b, x", REPAIRED)
def test_values_where_scipy_is_wrong_are_the_true_ones(a, b, x):
    want = _true(a, b, x)
    got = float(fsp.hyp1f1(a, b, x))
    assert abs(got - want) <= 1e-11 * abs(want), (got, want)
    assert abs(float(scipy_special.hyp1f1(a, b, x)) - want) > 1e-3 * abs(want)  # (still SciPy's bug)


@pytest.mark.parametrize("a, b, x", REPAIRED[:6])
def test_x_derivative_where_scipy_is_wrong_is_the_true_one(a, b, x):
    want = _true_slope(a, b, x)
    got = float(fg.grad(fsp.hyp1f1, 2)(a, b, x))
    assert abs(got - want) <= 1e-10 * abs(want), (got, want)


def test_audit_reproducer_value_and_slope():
    # (session 25: value 7.06e8 and slope 1.15e10, both SciPy's; true -0.99682 and 23.7708)
    value, slope = fg.value_and_grad(fsp.hyp1f1, 2)(148.77, 0.294, -0.716)
    assert float(value) == pytest.approx(-0.996819688473455, rel=1e-12)
    assert float(slope) == pytest.approx(23.7707678118259, rel=1e-11)


def test_second_x_derivative_where_scipy_is_wrong():
    a, b, x = 300.5, 2.5, -0.7
    want = float(mpmath.diff(lambda t: mpmath.hyp1f1(a, b, t), x, 2))
    got = float(fg.grad(fg.grad(fsp.hyp1f1, 2), 2)(a, b, x))
    assert got == pytest.approx(want, rel=1e-10)


# Where SciPy is right, its values are kept unchanged (both sides of the repaired region).
KEPT = [
    (148.77, 0.294, -1.2),  # x < -1: SciPy's other route
    (148.77, 0.294, 0.716),  # x > 0
    (5.3, 1.0, -0.9),  # (a - b)|x| < 10
    (50.0, 200.0, -0.5),  # a < b
    (1000.0, 2000.0, -0.3),  # SciPy's power series ((a + 1)|x| < 0.9 b)
    (-150.5, 1.0, 1.0),  # a < 0
    (0.5, 1.5, -0.3),
]


@pytest.mark.parametrize("a, b, x", KEPT)
def test_values_where_scipy_is_right_are_scipys(a, b, x):
    want = float(scipy_special.hyp1f1(a, b, x))
    assert float(fsp.hyp1f1(a, b, x)) == want
    assert want == pytest.approx(_true(a, b, x), rel=1e-12)


def test_region_edge_agrees_with_scipy():
    # (just inside (a - b)|x| >= 10, where SciPy is still right: the two agree)
    a, b = 20.5, 0.5
    x = np.array([-0.5, -0.50001, -0.52, -0.6])
    ours = np.asarray(fsp.hyp1f1(a, b, x))
    want = np.array([_true(a, b, v) for v in x])
    np.testing.assert_allclose(ours, want, rtol=1e-12)
    np.testing.assert_allclose(scipy_special.hyp1f1(a, b, x), want, rtol=1e-12)


@pytest.mark.parametrize("n, b", [(300, 1.0), (1000, 10.0), (300, 3.7), (300, 0.5),
                                  (1000, 100.0)])
def test_negative_integer_a_at_x_equal_b(n, b):
    # (SciPy: NaN, or -0.174146 for the truth -0.173544 at (-300, 1, 1))
    want = _true(-n, b, b)
    assert float(fsp.hyp1f1(-n, b, b)) == pytest.approx(want, rel=1e-11)
    assert float(fg.grad(fsp.hyp1f1, 2)(float(-n), b, b)) == pytest.approx(
        _true_slope(-n, b, b), rel=1e-9)


def test_beyond_the_recurrence_reach_is_nan():
    # ((a + 1)|x| of 5e7: the recurrence would take seconds; SciPy's value is garbage there)
    assert np.isnan(float(fsp.hyp1f1(5e7, 0.5, -0.9)))


def test_arrays_broadcast_and_mix_repaired_and_kept_elements():
    a = np.array([148.77, 5.3, 1000.3])
    x = np.array([[-0.716], [-1.2], [0.3]])
    got = np.asarray(fsp.hyp1f1(a, 0.294, x))
    assert got.shape == (3, 3)
    want = np.array([[_true(ai, 0.294, xi) for ai in a] for xi in x[:, 0]])
    np.testing.assert_allclose(got, want, rtol=1e-11)


def test_float32_stays_float32():
    a, b, x = np.float32(148.77), np.float32(0.294), np.float32(-0.716)
    got = fsp.hyp1f1(a, b, np.array([x, x]))
    assert got.dtype == np.float32
    want = _true(float(a), float(b), float(x))  # (the float32 inputs, in float64)
    np.testing.assert_allclose(got, np.float32(want), rtol=1e-6)


def test_vmap_and_jit_give_the_repaired_values():
    xs = np.array([-0.716, -0.5, -0.3])
    want = np.array([_true(148.77, 0.294, v) for v in xs])
    f = fg.vmap(fg.grad(lambda x: fsp.hyp1f1(148.77, 0.294, x)))
    slopes = np.array([_true_slope(148.77, 0.294, v) for v in xs])
    np.testing.assert_allclose(f(xs), slopes, rtol=1e-10)
    np.testing.assert_allclose(fg.jit(lambda x: fsp.hyp1f1(148.77, 0.294, x))(xs), want,
                               rtol=1e-11)


def test_derivatives_in_a_and_b_still_raise():
    with pytest.raises(NotImplementedError, match="with respect to a"):
        fg.grad(fsp.hyp1f1, 0)(148.77, 0.294, -0.716)
    with pytest.raises(NotImplementedError, match="with respect to b"):
        fg.grad(fsp.hyp1f1, 1)(148.77, 0.294, -0.716)


def test_complex_x_is_scipys():
    z = np.array([-0.716 + 0.1j])
    assert complex(fsp.hyp1f1(1.5, 0.294, z)[0]) == complex(scipy_special.hyp1f1(1.5, 0.294, z)[0])

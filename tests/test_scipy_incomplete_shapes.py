"""The incomplete beta function where one shape dwarfs the other, and the derivatives of the
incomplete gamma and beta functions in their shapes beyond 1e6 (session 19).

The reference numbers are mpmath's: the beta function's continued fraction at 50 digits
(values) and its central differences at 80 digits with a relative step of 1e-22
(derivatives); ``dP/da`` as the series ``sum_n t_n (log x - digamma(a + n + 1))`` summed at
40 to 60 digits.  (Scripts in benchmarks/results/session19-betalarge.md.)"""
import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.special as fsp
from funcgrad.primitives import incomplete

# (a, b, x, I_x(a, b)); x at the mean minus 1..8 standard deviations, where the fraction is
# summed in x itself and its odd denominators tend to 1 - x: main rounded these to 1e-11
# .. 3.8e-9 relative (a = 1e8, b = 2)
BETA_UNEQUAL = [
    (1e8, 2.0, 0.9999999658578653, 0.14523765799190005),
    (1e8, 2.0, 0.9999999234314599, 0.0040928942374737715),
    (1e7, 0.5, 0.9999993843146483, 0.00044964323167179137),
    (1e7, 0.5, 0.999999808578664, 0.050390202521538548),
    (1e6, 3.0, 0.9999952679668526, 0.14911035629925932),
    (1e8, 1000.0, 0.999989683876978, 0.15861581396433864),
    (1e8, 1000.0, 0.9999887352079148, 5.8285579094639466e-5),
    (1e6, 30.0, 0.9999480929944901, 0.00038626520839281679),
    (3.0, 1e6, 4.732033147378212e-06, 0.85088964369498913),
]

# (a, b, x, 1 - I_x(a, b)) with x small: main took I_{1-x}(b, a) of a rounded 1 - x, off by
# up to eps b (2e-11 at b = 1e6, 8e-11 at 1e8)
BETAINCC_SMALL_X = [
    (3.0, 1e6, 4.732033147378212e-06, 0.14911035630501087),
    (3.0, 1e6, 9.92815958943185e-06, 0.0029371052043526106),
    (1e5, 1e8, 0.0010021585391512661, 0.15865485396347602),
    (1e5, 1e8, 0.0010116311596020675, 3.3834773075802609e-5),
    (2.0, 1e8, 4.8284269857512446e-08, 0.046622130267800613),
    (0.5, 1e7, 1.2071066677982116e-07, 0.12023835151608635),
]

# (a, b, x, dI/da, dI/db); main raised FloatingPointError beyond 1e6
BETA_DA_DB_LARGE = [
    (1e8, 2.0, 0.9999999658578653, -3.8353699169543671e-9, 0.15759496849663737),
    (1e8, 30.0, 0.99999970000009, -2.179035478187624e-8, 0.073039360056953045),
    (1e7, 0.5, 0.999999808578664, -1.1510333396393094e-8, 0.14850189114323412),
    (5e5, 1e7, 0.047619047619047616, -0.00055059276476715988, 2.7529629520640321e-5),
    (1e7, 5e5, 0.9524466729072839, -1.6689685795346603e-5, 0.00033403589816857578),
    (1e8, 1e8, 0.5, -2.8209479236157563e-5, 2.8209479236157563e-5),
    (1e8, 1000.0, 0.999989683876978, -7.7303015762913909e-8, 0.0076118598272322278),
    (3e6, 3e6, 0.4995917517435568, -2.2050717355132114e-5, 2.2032720367044264e-5),
    (2.0, 1e8, 3.414213472875622e-08, -0.15759496801049531, 3.8353699084156136e-9),
]

# (a, x, dP/da); a from 40 (Temme's region's lower end) to 1e9, x from -8 to +8 standard
# deviations about a (1e-19 in the tails)
GAMMA_DA_LARGE = [
    (2e6, 2e6, -0.00028209480352782824),
    (1e7, 9990513.167019496, -1.3981510153998967e-6),
    (1e7, 10003162.277660169, -7.6513829236009792e-5),
    (1e8, 99990000.0, -2.419747574989639e-5),
    (1e8, 100001000.0, -3.9695057628988459e-5),
    (1e8, 100080000.0, -5.1371293386485401e-19),
    (1e9, 999747017.7871865, -1.5892684907332139e-19),
    (1e9, 1000094868.329805, -1.4018059250481549e-7),
    (5000.0, 4964.644660940673, -0.0049937663935526734),
    (40.0, 52.64911064067352, -0.010460530832122137),
]


def test_betainc_with_one_shape_far_larger_than_the_other_matches_mpmath():
    a, b, x, want = (np.array(c) for c in zip(*BETA_UNEQUAL))
    np.testing.assert_allclose(fsp.betainc(a, b, x), want, rtol=5e-13)
    # the same function of float32 arguments: float32, and no NaN from the fraction
    got32 = fsp.betainc(*(v.astype(np.float32) for v in (a, b, x)))
    assert got32.dtype == np.float32 and np.isfinite(got32).all()


def test_betaincc_does_not_round_one_minus_x():
    a, b, x, want = (np.array(c) for c in zip(*BETAINCC_SMALL_X))
    np.testing.assert_allclose(fsp.betaincc(a, b, x), want, rtol=3e-13)
    # its derivatives are betainc's, negated
    for i in range(3):
        got = fg.grad(fsp.betaincc, i)(3.0, 1e6, 4.732033147378212e-06)
        assert float(got) == -float(fg.grad(fsp.betainc, i)(3.0, 1e6, 4.732033147378212e-06))


def test_betainc_shape_derivatives_up_to_1e8_match_mpmath():
    a, b, x, da, db = (np.array(c) for c in zip(*BETA_DA_DB_LARGE))
    np.testing.assert_allclose(incomplete.betainc_da(a, b, x), da, rtol=1e-9)
    np.testing.assert_allclose(incomplete.betainc_db(a, b, x), db, rtol=1e-9)
    # through the public function's gradient too
    ga, gb = fg.grad(fsp.betainc, (0, 1))(1e8, 2.0, 0.9999999658578653)
    assert abs(float(ga) - da[0]) <= 1e-9 * abs(da[0])
    assert abs(float(gb) - db[0]) <= 1e-9 * abs(db[0])


def test_gammainc_shape_derivative_to_1e9_matches_mpmath():
    a, x, want = (np.array(c) for c in zip(*GAMMA_DA_LARGE))
    np.testing.assert_allclose(incomplete.gammainc_da(a, x), want, rtol=1e-12)
    np.testing.assert_allclose(fg.vmap(fg.grad(fsp.gammaincc))(a, x), -want, rtol=1e-12)
    assert abs(float(fg.grad(fsp.gammainc)(1e8, 99990000.0)) - want[3]) <= 1e-12 * -want[3]


def test_large_shape_derivatives_under_jit_vmap_and_float32():
    a = np.array([2e6, 1e8, 3e3])
    x = a * np.array([1.0, 0.9999, 1.01])
    eager = np.asarray(incomplete.gammainc_da(a, x))
    np.testing.assert_allclose(fg.jit(fg.elementwise_grad(fsp.gammainc))(a, x), eager,
                               rtol=1e-14)
    g32 = fg.elementwise_grad(fsp.gammainc)(a.astype(np.float32), x.astype(np.float32))
    assert g32.dtype == np.float32
    np.testing.assert_allclose(g32, fg.elementwise_grad(fsp.gammainc)(
        a.astype(np.float32).astype(float), x.astype(np.float32).astype(float)), rtol=1e-3)
    b = np.array([3.0, 1e7, 2.0])
    u = np.array([0.9999952679668526, 0.5, 0.4])
    eager = np.asarray(incomplete.betainc_db(a, b, u))
    np.testing.assert_allclose(fg.vmap(fg.grad(fsp.betainc, 1))(a, b, u), eager, rtol=1e-14)
    b32 = fg.elementwise_grad(fsp.betainc, 1)(*(v.astype(np.float32) for v in (a, b, u)))
    assert b32.dtype == np.float32 and np.isfinite(b32).all()


def test_beta_shape_derivative_beyond_1e8_is_nan_under_jit_and_raises_eagerly():
    with pytest.raises(FloatingPointError, match=r"shapes must lie in \(0, 1e\+08\]"):
        incomplete.betainc_da(2e8, 3.0, 0.999)
    got = fg.jit(fg.elementwise_grad(fsp.betainc))(np.array([2e8, 10.0]),
                                                   np.array([3.0, 3.0]),
                                                   np.array([0.999, 0.5]))
    assert math.isnan(got[0]) and math.isfinite(got[1])
    # an infinite shape is outside the domain: NaN, as the value's, without an error
    assert math.isnan(float(incomplete.gammainc_da(math.inf, 2.0)))

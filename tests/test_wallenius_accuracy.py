"""nchypergeom_wallenius against mpmath: the masses' logs and their derivatives in ``odds``
(first and second), the entropy's and the CDF's slopes, at odds far from 1 and at the
ends of the support; and the log=True tolerances of tanhsinh's derivative.

The reference is exact: Wallenius' ``integral_0^1 (1 - t**(w/D))**x (1 - t**(1/D))**(N-x)
dt`` expanded by the binomial theorem is the finite sum ``sum_ij (-1)**(i+j) C(x, i)
C(N-x, j) D / (D + i w + j)``, summed in mpmath at a precision that covers its
cancellation (checked by summing again with 30 more digits)."""
import math

import mpmath as mp
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.integrate as fsi
import funcgrad.scipy.stats as fst

W = fst.nchypergeom_wallenius


def _sums(x, M, n, N, w, dps):
    m1, m2 = n, M - n
    with mp.workdps(dps):
        w = mp.mpf(w)
        D = w * (m1 - x) + m2 - (N - x)
        log_binomials = mp.log(mp.binomial(m1, x)) + mp.log(mp.binomial(m2, N - x))
        if D == 0:  # (every ball drawn: the mass is 1)
            return log_binomials, mp.mpf(0), mp.mpf(0)
        # d/dw D/(D + A) (A = i w + j) is (D' A - D i) / (D + A)**2, D' = m1 - x
        total = first = second = mp.mpf(0)
        for i in range(x + 1):
            for j in range(N - x + 1):
                c = (-1) ** (i + j) * mp.binomial(x, i) * mp.binomial(N - x, j)
                A, q = i * w + j, D + i * w + j
                num = (m1 - x) * A - D * i
                total += c * D / q
                first += c * num / q ** 2
                second -= c * 2 * num * (m1 - x + i) / q ** 3
        return (log_binomials + mp.log(total), first / total,
                second / total - (first / total) ** 2)


def exact(x, M, n, N, w):
    """``(log p, d log p / dw, d2 log p / dw2)`` as floats."""
    dps = 40 + N
    while True:
        got, more = _sums(x, M, n, N, w, dps), _sums(x, M, n, N, w, dps + 30)
        if all(abs(a - b) <= 1e-20 * abs(b) or abs(a - b) < mp.mpf(10) ** -100
               for a, b in zip(got, more)):
            return [float(v) for v in more]
        dps += 40


def _support(M, n, N):
    return np.arange(max(0, N - (M - n)), min(n, N) + 1.0)


# (M, n, N, odds, ks): the ends of the support at odds far from 1
# (masses near 1 there, and masses far below SciPy's absolute 1e-12)
CASES = [(30, 5, 28, 1e-3, [3.0, 4.0, 5.0]),
         (30, 5, 28, 1e3, [3.0, 4.0, 5.0]),
         (50, 10, 45, 1e-3, [5.0, 10.0]),
         (50, 10, 45, 20.0, [5.0, 10.0]),
         (30, 25, 10, 1e3, [5.0, 6.0, 10.0]),
         (20, 8, 6, 0.05, [0.0, 3.0, 6.0])]


@pytest.mark.parametrize("M, n, N, odds, ks", CASES)
def test_logpmf_and_its_slope_in_odds_match_mpmath(M, n, N, odds, ks):
    ks = np.array(ks)
    want = np.array([exact(int(k), M, n, N, odds)[:2] for k in ks])
    got = W.logpmf(ks, M, n, N, odds)
    np.testing.assert_allclose(got, want[:, 0], rtol=1e-10, atol=1e-14)
    slope = fg.jacfwd(lambda o: W.logpmf(ks, M, n, N, o))(odds)
    np.testing.assert_allclose(slope, want[:, 1], rtol=1e-10)
    rev = fg.grad(lambda o: W.logpmf(ks[0], M, n, N, o))(odds)
    assert float(rev) == pytest.approx(want[0, 1], rel=1e-10)


def test_reported_slope_is_no_longer_6e_7_off():
    # funcgrad gave -17.663005556 (SciPy's tanhsinh read rtol=1e-13 as the log of its
    # tolerance: no tolerance, the log-integral stopped at minlevel, 1e-2 off)
    got = float(fg.grad(W.logpmf, 4)(20, 140, 80, 60, 0.5))
    assert got == pytest.approx(-17.662995278375952, rel=1e-12)
    assert got == pytest.approx(exact(20, 140, 80, 60, 0.5)[1], rel=1e-12)


def test_second_derivative_in_odds_matches_mpmath():
    for x, shapes in ((3, (20, 8, 6, 2.5)), (4, (30, 5, 28, 20.0))):
        got = fg.grad(fg.grad(W.logpmf, 4), 4)(x, *shapes)
        assert float(got) == pytest.approx(exact(x, *shapes)[2], rel=1e-9)


def test_entropy_cdf_and_sf_slopes_match_mpmath():
    M, n, N, w = 20, 8, 6, 2.5
    ks = _support(M, n, N)
    rows = [exact(int(k), M, n, N, w) for k in ks]
    p = np.exp([r[0] for r in rows])
    dp = p * np.array([r[1] for r in rows])
    got = fg.grad(lambda o: W.entropy(M, n, N, o))(w)
    assert float(got) == pytest.approx(-np.sum(dp * (1.0 + np.log(p))), rel=1e-10)
    for k in (1.0, 3.0):
        assert float(fg.grad(W.cdf, 4)(k, M, n, N, w)) == pytest.approx(
            np.sum(dp[ks <= k]), rel=1e-10)
        assert float(fg.grad(W.sf, 4)(k, M, n, N, w)) == pytest.approx(
            np.sum(dp[ks > k]), rel=1e-10)


def test_masses_below_scipys_accuracy_are_the_true_ones():
    # SciPy (BiasedUrn, absolute accuracy 1e-12): 5.355e-18 and 0.0
    assert float(W.pmf(5, 30, 25, 10, 1000.0)) == pytest.approx(
        math.exp(exact(5, 30, 25, 10, 1000.0)[0]), rel=1e-10)
    assert float(W.pmf(6, 50, 10, 45, 20.0)) == pytest.approx(
        math.exp(exact(6, 50, 10, 45, 20.0)[0]), rel=1e-10)


def test_tanhsinh_log_tolerances_carry_to_the_derivative():
    # d/ds log integral_0^1 exp(-s x) dx = -(1 - (1 + s) e^-s) / (s (1 - e^-s))
    def log_integral(s):
        return fsi.tanhsinh(lambda x, s: -s * x, 0.0, 1.0, args=(s,), log=True,
                            rtol=math.log(1e-13), atol=-700.0).integral
    s = 1.3
    want = -(1 - (1 + s) * math.exp(-s)) / (s * (1 - math.exp(-s)))
    assert float(fg.grad(log_integral)(s)) == pytest.approx(want, rel=1e-12)

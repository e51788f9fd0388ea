"""zeta's derivatives in its exponent (funcgrad.primitives.zeta), and what is built on them:
Riemann's zeta below 1, zetac, zipf's slopes in ``a``.

The reference is an independent high-precision sum (mpmath: the first terms directly, the
Euler-Maclaurin tail with the integral as an incomplete gamma function and the derivatives
of ``log(x)**m x**-s`` by ``mpmath.diff``): ``mpmath.zeta(s, q, derivative=m)`` loses
digits for large ``s`` and ``q`` (``zeta(60, 1000)`` at 40 digits is 1e-9 off, and
changes with the precision), so it is used only where ``q`` is small.
"""
import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.special as fsp
import funcgrad.scipy.stats as fst
from funcgrad.primitives import zeta as primitive_zeta

mpmath = pytest.importorskip("mpmath")
scipy_special = pytest.importorskip("scipy.special")
scipy_stats = pytest.importorskip("scipy.stats")

ORDERS = primitive_zeta.zeta_ds1, primitive_zeta.zeta_ds2, primitive_zeta.zeta_ds3, \
    primitive_zeta.zeta_ds4


def reference(s, q, m, dps=25, n=40, k=4):
    """``d^m/ds^m zeta(s, q)`` to ``dps`` digits (see the module docstring)."""
    with mpmath.workdps(dps):
        s, q = mpmath.mpf(s), mpmath.mpf(q)

        def f(x):
            return mpmath.log(x) ** m * x ** -s
        total = mpmath.fsum(f(q + j) for j in range(n))
        a = q + n
        total += mpmath.gammainc(m + 1, (s - 1) * mpmath.log(a)) / (s - 1) ** (m + 1) + f(a) / 2
        for j in range(1, k + 1):
            total -= (mpmath.bernoulli(2 * j) / mpmath.factorial(2 * j)
                      * mpmath.diff(f, a, 2 * j - 1))
        return float((-1) ** m * total)


# s near the pole, moderate and large; q tiny (log q < 0: terms of both signs), near 1,
# near the switch to the tail (9), large, and beyond 1e8 (the tail alone)
S = [1.0001, 1.1, 2.0, 3.3, 20.0, 60.0]
Q = [1e-6, 0.3, 1.0, 9.5, 1e3, 2e8]


def test_each_order_matches_a_high_precision_sum():
    s, q = (np.array(v).ravel() for v in np.meshgrid(S, Q))
    for m, order in enumerate(ORDERS, start=1):
        with np.errstate(over="ignore"):  # (1e-6**-60: inf, as the reference)
            got = order(s, q)
        want = np.array([reference(a, b, m) for a, b in zip(s, q)])
        np.testing.assert_allclose(got, want, rtol=4e-15, err_msg=f"order {m}")


def test_riemann_and_small_q_match_mpmaths_zeta():
    s = np.array([1.01, 1.5, 2.0, 4.0, 11.0])
    for q in (1.0, 0.5, 2.5):
        for m in (1, 2):
            want = [float(mpmath.zeta(a, q, derivative=m)) for a in s]
            np.testing.assert_allclose(ORDERS[m - 1](s, q), want, rtol=4e-15)


def test_float32_keeps_its_dtype_and_digits():
    s, q = np.float32([1.1, 2.0, 3.3, 7.0]), np.float32([0.3, 1.0, 9.5, 1e3])
    for m, order in enumerate(ORDERS, start=1):
        got = order(s, q)
        assert got.dtype == np.float32
        want = [reference(float(a), float(b), m) for a, b in zip(s, q)]
        np.testing.assert_allclose(got, want, rtol=2e-6)
    assert fg.grad(lambda s: fsp.zeta(s, np.float32(2.0)))(np.float32(3.0)).dtype == np.float32


def test_edges_follow_the_value():
    d1 = primitive_zeta.zeta_ds1
    assert float(d1(1.0, 2.0)) == -math.inf and float(primitive_zeta.zeta_ds2(1.0, 2.0)) == math.inf
    # below 1 (Hurwitz: no value), q <= 0 (no real function of s), NaN in
    with np.errstate(invalid="ignore"):
        assert np.isnan(d1(np.array([0.5, 2.0, 2.0, np.nan, 2.0]),
                           np.array([1.0, 0.0, -1.5, 1.0, np.nan]))).all()
    # underflow: 0, not NaN; s = inf: the terms beyond q = 1 vanish
    assert float(d1(1e4, 3.0)) == 0.0 and float(d1(math.inf, 1.0)) == 0.0
    assert float(d1(2.0, math.inf)) == 0.0


def test_grad_hessian_and_mixed_derivatives_of_hurwitz_zeta():
    s, q = 3.0, 2.5
    assert fg.grad(lambda s: fsp.zeta(s, q))(s) == pytest.approx(
        float(mpmath.zeta(s, q, derivative=1)), rel=1e-15)
    assert fg.grad(fg.grad(lambda s: fsp.zeta(s, q)))(s) == pytest.approx(
        float(mpmath.zeta(s, q, derivative=2)), rel=1e-15)
    mixed = float(mpmath.diff(lambda a, b: mpmath.zeta(a, b), (s, q), (1, 1)))
    assert fg.grad(fg.grad(fsp.zeta), 1)(s, q) == pytest.approx(mixed, rel=1e-13)
    assert fg.jacfwd(fg.grad(fsp.zeta, 1))(s, q) == pytest.approx(mixed, rel=1e-13)
    hess = fg.hessian(lambda v: fsp.zeta(v[0], v[1]))(np.array([s, q]))
    want_qq = float(mpmath.diff(lambda b: mpmath.zeta(s, b), q, 2))
    np.testing.assert_allclose(hess, [[float(mpmath.zeta(s, q, derivative=2)), mixed],
                                      [mixed, want_qq]], rtol=1e-13)
    # third and fourth orders, then the error that names the limit
    f = lambda s: fsp.zeta(s, q)  # noqa: E731
    assert fg.grad(fg.grad(fg.grad(fg.grad(f))))(s) == pytest.approx(
        float(mpmath.zeta(s, q, derivative=4)), rel=1e-14)
    with pytest.raises(NotImplementedError, match="order above 4 with respect to x"):
        fg.grad(fg.grad(fg.grad(fg.grad(fg.grad(f)))))(s)


def test_jit_vmap_and_the_reverse_mode_agree():
    s = np.array([1.5, 2.0, 4.0])
    want = [float(mpmath.zeta(a, 1.5, derivative=1)) for a in s]
    np.testing.assert_allclose(fg.vmap(fg.grad(lambda a: fsp.zeta(a, 1.5)))(s), want,
                               rtol=1e-15)
    np.testing.assert_allclose(fg.jit(fg.elementwise_grad(lambda a: fsp.zeta(a, 1.5)))(s),
                               want, rtol=1e-15)
    _, back = fg.vjp(lambda a: fsp.zeta(a, 1.5), s)
    np.testing.assert_allclose(back(np.ones(3))[0], want, rtol=1e-15)


def test_riemann_zeta_below_one_differentiates_through_zero_and_the_trivial_zeros():
    x = np.array([0.5, 0.0, -0.3, -1.0, -2.0, -3.5, -4.0, -31.0])
    want = [float(mpmath.zeta(v, 1, derivative=1)) for v in x]
    np.testing.assert_allclose(fg.elementwise_grad(fsp.zeta)(x), want, rtol=2e-14)
    assert float(fsp.zeta(0.0)) == -0.5 and float(fsp.zeta(-2.0)) == 0.0  # (values kept)
    second = [float(mpmath.zeta(v, 1, derivative=2)) for v in (0.0, -2.0, -0.3)]
    got = [fg.grad(fg.grad(fsp.zeta))(v) for v in (0.0, -2.0, -0.3)]
    np.testing.assert_allclose(got, second, rtol=1e-12)
    # zetac is zeta - 1: the same slopes, above 1 and below
    for v in (-2.0, 0.5, 3.0, 150.0):
        assert fg.grad(fsp.zetac)(v) == pytest.approx(
            float(mpmath.zeta(v, 1, derivative=1)), rel=2e-14)


def central(f, a, h=1e-6):
    return (f(a + h) - f(a - h)) / (2 * h)


@pytest.mark.parametrize("method, args, rel", [
    ("logpmf", (3.0,), 1e-8), ("pmf", (3.0,), 1e-8), ("cdf", (3.0,), 1e-6),
    ("sf", (3.0,), 1e-6), ("mean", (), 1e-8), ("var", (), 1e-8), ("std", (), 1e-8),
])
def test_zipf_slopes_in_a_match_central_differences_of_scipys(method, args, rel):
    a = 3.7
    got = fg.grad(lambda a: getattr(fst.zipf, method)(*args, a))(a)
    want = central(lambda a: getattr(scipy_stats.zipf, method)(*args, a), a)
    assert got == pytest.approx(want, rel=rel)


def test_zipf_slopes_match_the_closed_forms():
    # (SciPy's cdf/sf and entropy are sums a few digits short: the closed forms decide)
    a = mpmath.mpf(3.7)
    sf = fg.grad(lambda a: fst.zipf.sf(3.0, a))(3.7)
    assert sf == pytest.approx(float(mpmath.diff(lambda a: mpmath.zeta(a, 4) / mpmath.zeta(a), a)),
                               rel=1e-13)

    def entropy(a):
        return mpmath.log(mpmath.zeta(a)) - a * mpmath.zeta(a, 1, 1) / mpmath.zeta(a)
    assert fg.grad(fst.zipf.entropy)(3.7) == pytest.approx(float(mpmath.diff(entropy, a)),
                                                          rel=1e-9)

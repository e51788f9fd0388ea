"""The gaps between funcgrad.scipy.special and SciPy 1.17 closed in session 26: lpmv's
order m broadcasts; the noncentral inverses answer at CDFLIB's "no root" stand-ins, and
their polished roots are the closer ones (true roots: mpmath, 40 digits, of the forward
series solved by secant); nctdtr far in the tail opposite to a large noncentrality."""
import numpy as np
import pytest
import scipy.special as sc

import funcgrad as fg
import funcgrad.scipy.special as fsp


def central(f, x, h):
    return (f(x + h) - f(x - h)) / (2 * h)


# --- lpmv: the order broadcasts as every argument of SciPy's ufunc -------------------------

def test_lpmv_array_order_is_scipys():
    m = np.array([0, 1, 2, 3, -1, -2])[:, None, None]
    v = np.array([3.0, 4.0, 2.5])[:, None]
    x = np.linspace(-0.9, 0.95, 7)
    got, want = fsp.lpmv(m, v, x), sc.lpmv(m, v, x)
    assert got.shape == want.shape == (6, 3, 7)
    np.testing.assert_allclose(got, want, rtol=5e-13, atol=1e-14)
    # (a non-integer or NaN order: NaN, as SciPy's; a list of orders, float32 kept)
    odd = fsp.lpmv([0.0, 1.5, np.nan, 2.0], 3.0, 0.5)
    np.testing.assert_array_equal(np.isnan(odd), np.isnan(sc.lpmv([0.0, 1.5, np.nan, 2.0],
                                                                   3.0, 0.5)))
    assert fsp.lpmv(np.array([1, 2], np.float32), np.float32(3), np.float32(0.2)).dtype \
        == np.float32


def test_lpmv_array_order_derivative_in_x_per_element():
    m = np.array([0, 1, 2, -1, 3])
    x = np.array([0.3, -0.2, 0.7, 0.1, 0.5])
    for v in (3.0, 2.5):
        got = np.diagonal(fg.jacfwd(lambda x: fsp.lpmv(m, v, x))(x))
        want = central(lambda x: sc.lpmv(m, v, x), x, 1e-6)
        np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-8)
        rev = np.diagonal(fg.jacrev(lambda x: fsp.lpmv(m, v, x))(x))
        np.testing.assert_allclose(rev, got, rtol=1e-12)


def test_lpmv_order_has_no_derivative_and_large_orders():
    with pytest.raises(NotImplementedError, match="order m is an integer"):
        fg.grad(fsp.lpmv, 0)(1.0, 3.0, 0.5)
    # past m ~ 150 (2m-1)!! overflows: NaN as SciPy's, not an OverflowError
    assert np.isnan(fsp.lpmv(200, 250, 0.5)) and np.isnan(sc.lpmv(200, 250, 0.5))


# --- ncfdtridfn where SciPy finds no root, and at nc = 159 ----------------------------------

def test_ncfdtridfn_answers_at_scipys_no_root_stand_in():
    args = (0.7378089020604442, 2.5805101477439147, 0.3424400891109429, 3.825209985027004)
    assert sc.ncfdtridfn(*args) == 1e100  # (CDFLIB's search found no root)
    assert float(fsp.ncfdtridfn(*args)) == 1e100
    # SciPy's answer is that constant nearby: its central difference, and ours, are 0
    for i in range(4):
        h = 1e-4 * abs(args[i])

        def scipys(u, i=i):
            return sc.ncfdtridfn(*args[:i], u, *args[i + 1:])
        assert central(scipys, args[i], h) == 0.0
        assert float(fg.grad(fsp.ncfdtridfn, i)(*args)) == 0.0


def test_ncfdtridfn_at_large_noncentrality_is_the_true_root():
    p, dfd, nc, f = 0.5, 5.0, 159.0, 1.5
    true = 517.8333030942  # (mpmath; SciPy's 518.3346 is 1e-3 off: its p tolerance)
    got = float(fsp.ncfdtridfn(p, dfd, nc, f))
    assert abs(got - true) < 1e-9 * true
    assert abs(sc.ncfdtridfn(p, dfd, nc, f) - true) > 1e-4 * true
    # d dfn / dp = 1 / (d ncfdtr / d dfn) at the root, from SciPy's own ncfdtr
    slope = central(lambda u: sc.ncfdtr(u, dfd, nc, f), got, 1e-3 * got)
    np.testing.assert_allclose(fg.grad(fsp.ncfdtridfn, 0)(p, dfd, nc, f), 1 / slope,
                               rtol=1e-6)
    # a stand-in and a root in one array: each element its own slope
    ps = np.array([p, 0.7378089020604442])
    grads = fg.elementwise_grad(lambda q: fsp.ncfdtridfn(
        q, np.array([dfd, 2.5805101477439147]), np.array([nc, 0.3424400891109429]),
        np.array([f, 3.825209985027004])))(ps)
    np.testing.assert_allclose(grads, [1 / slope, 0.0], rtol=1e-6)


# --- root tolerance: ours (polished) against SciPy's CDFLIB, true roots from mpmath ---------

# (name, arguments, position of p, the unknown's forward position, mpmath's root)
ROOTS = [
    ("ncfdtridfd", (2.0, 0.3, 1.0, 1.5), 1, 0.40977903398876),
    ("ncfdtrinc", (2.0, 5.0, 0.3, 1.5), 2, 3.7631747022503),
    ("nctdtridf", (0.3, 1.0, 0.5), 0, 3.7086427802242),
    ("nctdtrinc", (10.0, 0.7, 2.0), 1, 1.3754297972096),
]


@pytest.mark.parametrize("name, args, p_at, true", ROOTS)
def test_polished_roots_are_closer_than_cdflibs(name, args, p_at, true):
    ours = float(getattr(fsp, name)(*args))
    scipys = float(getattr(sc, name)(*args))
    assert abs(ours - true) < 1e-12 * abs(true)
    assert abs(ours - true) < abs(scipys - true)
    assert abs(ours - scipys) < 1e-4 * abs(true)  # (CDFLIB's tolerance, no more)
    # the implicit function theorem's d x / d p against SciPy's forward function
    forward = {"ncfdtridfd": lambda u: sc.ncfdtr(args[0], u, args[2], args[3]),
               "ncfdtrinc": lambda u: sc.ncfdtr(args[0], args[1], u, args[3]),
               "nctdtridf": lambda u: sc.nctdtr(u, args[1], args[2]),
               "nctdtrinc": lambda u: sc.nctdtr(args[0], u, args[2])}[name]
    slope = central(forward, ours, 1e-5 * abs(ours))
    np.testing.assert_allclose(fg.grad(getattr(fsp, name), p_at)(*args), 1 / slope,
                               rtol=1e-6)


# --- nctdtr opposite a large noncentrality ---------------------------------------------------

def test_nctdtr_far_opposite_tail_underflows_to_zero():
    # mpmath (E[Phi(t S - nc)] by quadrature): 9.6e-6280, 6.3e-352, 8.6e-341, all below
    # float64's smallest number; SciPy: 0.0, 1.47e-176 (wrong), NaN
    for args in [(0.352, 170.0, -0.51), (1.352, 40.0, -0.51), (5.0, 39.0, -3.0)]:
        assert float(fsp.nctdtr(*args)) == 0.0
        for i in range(3):
            assert float(fg.grad(fsp.nctdtr, i)(*args)) == 0.0
    assert sc.nctdtr(0.352, 170.0, -0.51) == 0.0


def test_nctdtr_cancelled_value_is_nan_with_nan_derivatives():
    # (nctdtr(20, 10, -1) = 8.35e-28, mpmath and SciPy: the series cancels 1e-5 away;
    # NaN, documented, and its derivatives NaN too, not a constant branch's 0)
    args = (20.0, 10.0, -1.0)
    assert np.isnan(fsp.nctdtr(*args))
    for i in range(3):
        assert np.isnan(fg.grad(fsp.nctdtr, i)(*args))

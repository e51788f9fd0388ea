"""funcgrad.scipy's romb, nnls and linear_sum_assignment against SciPy, and their
derivatives (romb: linear in the samples; nnls: the KKT rule on the free set; an
assignment's indices: none, the cost they pick through indexing)."""
import numpy as np
import pytest

import funcgrad as fg

si = pytest.importorskip("scipy.integrate")
so = pytest.importorskip("scipy.optimize")
from funcgrad.scipy.integrate import romb  # noqa: E402
from funcgrad.scipy.optimize import linear_sum_assignment, nnls  # noqa: E402


@pytest.mark.parametrize("n", [2, 3, 5, 17, 65])
def test_romb_is_scipys_and_linear_in_the_samples(n):
    y = np.random.default_rng(n).standard_normal((3, n))
    assert np.array_equal(romb(y, dx=0.3), si.romb(y, dx=0.3))
    assert np.array_equal(romb(y.T, dx=0.3, axis=0), si.romb(y.T, dx=0.3, axis=0))
    # linear in y: the gradient of sum(romb(y) * w) is romb's weights, which romb of the
    # unit vectors gives
    w = np.arange(1.0, 4.0)
    weights = np.array([si.romb(e, dx=0.3) for e in np.eye(n)])
    np.testing.assert_allclose(fg.grad(lambda y: np.sum(romb(y, dx=0.3) * w))(y),
                               w[:, None] * weights, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(fg.grad(lambda d: romb(y[0], dx=d))(0.3),
                               si.romb(y[0], dx=1.0), rtol=1e-13)
    with pytest.raises(ValueError, match="one plus a non-negative power of 2"):
        romb(np.ones(6))


def test_nnls_values_and_kkt_derivatives():
    rng = np.random.default_rng(0)
    A, b = rng.standard_normal((6, 4)), rng.standard_normal(6)
    x, rnorm = nnls(A, b)
    want, want_rnorm = so.nnls(A, b)
    assert np.array_equal(x, want) and rnorm == pytest.approx(want_rnorm, rel=1e-14)
    assert np.any(want == 0) and np.any(want > 0)   # (both kinds of coordinate)
    weights = np.arange(1.0, 5.0)

    def f(b):
        return nnls(A, b)[0] @ weights

    h = 1e-6
    fd = [(f(b + h * e) - f(b - h * e)) / (2 * h) for e in np.eye(6)]
    np.testing.assert_allclose(fg.grad(f)(b), fd, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(fg.jit(fg.grad(f))(b), fd, rtol=1e-7, atol=1e-9)
    # held coordinates have derivative zero; rnorm's derivative in A
    assert np.all(fg.jacrev(lambda b: nnls(A, b)[0])(b)[want == 0] == 0)

    def r(A):
        return nnls(A, b)[1]

    fd = np.array([(r(A + h * E) - r(A - h * E)) / (2 * h)
                   for E in np.eye(24).reshape(24, 6, 4)]).reshape(6, 4)
    np.testing.assert_allclose(fg.grad(r)(A), fd, rtol=1e-6, atol=1e-9)
    bs = rng.standard_normal((3, 6))
    np.testing.assert_allclose(fg.vmap(lambda b: nnls(A, b)[0])(bs),
                               [so.nnls(A, v)[0] for v in bs], atol=1e-13)


def test_linear_sum_assignment_indices_and_the_cost_they_pick():
    rng = np.random.default_rng(1)
    for shape in [(4, 4), (4, 6), (5, 3)]:
        cost = rng.standard_normal(shape)
        for maximize in (False, True):
            got = linear_sum_assignment(cost, maximize=maximize)
            want = so.linear_sum_assignment(cost, maximize=maximize)
            assert all(np.array_equal(g, w) for g, w in zip(got, want))
        assert np.array_equal(fg.jit(lambda c: linear_sum_assignment(c)[1])(cost),
                              so.linear_sum_assignment(cost)[1])
    cost = rng.standard_normal((4, 4))
    rows, cols = so.linear_sum_assignment(cost)
    picked = np.zeros((4, 4))
    picked[rows, cols] = 1.0
    assert np.array_equal(fg.grad(lambda c: c[linear_sum_assignment(c)].sum())(cost), picked)
    batch = rng.standard_normal((3, 4, 4))
    assert np.array_equal(fg.vmap(lambda c: linear_sum_assignment(c)[1])(batch),
                          [so.linear_sum_assignment(c)[1] for c in batch])
    with pytest.raises(ValueError, match="expected a matrix"):
        linear_sum_assignment(np.ones(3))

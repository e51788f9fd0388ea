"""funcgrad.scipy.stats.qmc: SciPy's values; derivatives against central differences of
SciPy's own functions."""
import numpy as np
import pytest
from scipy.stats import qmc as sq

import funcgrad as fg
from funcgrad.scipy.stats import qmc


def _fd_check(f_fg, f_scipy, x, seed=0, eps=1e-6):
    rng = np.random.default_rng(seed)
    direction = rng.standard_normal(np.shape(x))
    g = fg.grad(f_fg)(x)
    fd = (f_scipy(x + eps * direction) - f_scipy(x - eps * direction)) / (2 * eps)
    np.testing.assert_allclose(np.sum(np.asarray(g) * direction), fd, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("method", ["CD", "WD", "MD", "L2-star"])
def test_discrepancies_equal_scipys_and_differentiate(method):
    x = np.random.default_rng(1).uniform(0.05, 0.95, (7, 3))
    for iterative in (False, True):
        np.testing.assert_allclose(qmc.discrepancy(x, method=method, iterative=iterative),
                                   sq.discrepancy(x, method=method, iterative=iterative),
                                   rtol=1e-13)
    _fd_check(lambda x: qmc.discrepancy(x, method=method),
              lambda x: sq.discrepancy(x, method=method), x)
    x32 = x.astype(np.float32)
    assert qmc.discrepancy(x32, method=method).dtype == np.float32


def test_update_and_geometric_discrepancy_and_scale():
    x = np.random.default_rng(2).uniform(0.05, 0.95, (8, 2))
    d0 = sq.discrepancy(x[:-1], iterative=True)
    np.testing.assert_allclose(qmc.update_discrepancy(x[-1], x[:-1], d0),
                               sq.update_discrepancy(x[-1], x[:-1], d0), rtol=1e-13)
    _fd_check(lambda new: qmc.update_discrepancy(new, x[:-1], d0),
              lambda new: sq.update_discrepancy(new, x[:-1], d0), x[-1])
    for method in ("mindist", "mst"):
        np.testing.assert_allclose(qmc.geometric_discrepancy(x, method),
                                   sq.geometric_discrepancy(x, method), rtol=1e-14)
        _fd_check(lambda x: qmc.geometric_discrepancy(x, method),
                  lambda x: sq.geometric_discrepancy(x, method), x)
    lo, hi = np.array([-1.0, 2.0]), np.array([3.0, 5.0])
    np.testing.assert_array_equal(qmc.scale(x, lo, hi), sq.scale(x, lo, hi))
    y = sq.scale(x, lo, hi)
    np.testing.assert_array_equal(qmc.scale(y, lo, hi, reverse=True),
                                  sq.scale(y, lo, hi, reverse=True))
    _fd_check(lambda hi: qmc.scale(x, lo, hi).sum(), lambda hi: sq.scale(x, lo, hi).sum(), hi)
    with pytest.raises(ValueError, match="unit hypercube"):
        qmc.discrepancy(x + 1)
    with pytest.raises(ValueError, match="l_bounds"):
        qmc.scale(x, hi, lo)
    with pytest.raises(ValueError, match="valid method"):
        qmc.discrepancy(x, method="XD")


def test_multivariate_normal_points_are_scipys_and_differentiate_in_mean_and_cov():
    mean, cov = np.array([1.0, -2.0]), np.array([[2.0, 0.5], [0.5, 1.0]])
    for c, kw in ((cov, {}), (np.ones((2, 2)), {}), (None, {"inv_transform": False})):
        ours = qmc.MultivariateNormalQMC(mean, c, rng=5, **kw).random(8)
        np.testing.assert_allclose(ours, sq.MultivariateNormalQMC(mean, c, rng=5, **kw).random(8),
                                   rtol=1e-12, atol=1e-12)

    def second_moment(cov, m=mean):
        points = qmc.MultivariateNormalQMC(m, cov, rng=7).random(32)
        return (points[:, 0] * points[:, 1]).mean()

    def second_moment_scipy(cov):
        points = sq.MultivariateNormalQMC(mean, cov, rng=7).random(32)
        return (points[:, 0] * points[:, 1]).mean()
    sym = np.array([[0.0, 1.0], [1.0, 0.0]])  # (a symmetric direction: cov stays symmetric)
    g = fg.grad(second_moment)(cov)
    eps = 1e-6
    fd = (second_moment_scipy(cov + eps * sym) - second_moment_scipy(cov - eps * sym)) / (2 * eps)
    np.testing.assert_allclose(np.sum(np.asarray(g) * sym), fd, rtol=1e-6)
    assert qmc.Sobol is sq.Sobol and qmc.LatinHypercube is sq.LatinHypercube

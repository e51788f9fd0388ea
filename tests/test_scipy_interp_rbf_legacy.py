"""The legacy Rbf: SciPy's values; derivatives against central differences of SciPy's."""
import numpy as np
import pytest
import scipy.interpolate as si

import funcgrad as fg
import funcgrad.scipy.interpolate as fi

RNG = np.random.default_rng(1)
X, Y = RNG.uniform(size=(2, 12))
D = np.sin(3 * X) * Y
QX, QY = RNG.uniform(size=(2, 5))
QX[0], QY[0] = X[3], Y[3]  # (a query at a node: distance 0)


@pytest.mark.parametrize("function", ["multiquadric", "inverse", "gaussian", "linear",
                                      "cubic", "quintic", "thin-plate",
                                      lambda r: np.exp(-r)])
def test_values_are_scipys(function):
    for kw in ({}, {"smooth": 0.1, "epsilon": 0.7}):
        np.testing.assert_allclose(fi.Rbf(X, Y, D, function=function, **kw)(QX, QY),
                                   si.Rbf(X, Y, D, function=function, **kw)(QX, QY),
                                   rtol=1e-12, atol=1e-13)


def test_n_d_mode_norms_and_errors():
    data = np.stack([D, D ** 2], axis=1)
    np.testing.assert_allclose(fi.Rbf(X, Y, data, mode="N-D")(QX, QY),
                               si.Rbf(X, Y, data, mode="N-D")(QX, QY), rtol=1e-12)
    np.testing.assert_allclose(fi.Rbf(X, Y, D, norm="cityblock")(QX, QY),
                               si.Rbf(X, Y, D, norm="cityblock")(QX, QY), rtol=1e-12)
    with pytest.raises(ValueError, match="equal length"):
        fi.Rbf(X, Y[:-1], D)
    with pytest.raises(ValueError, match="function must be"):
        fi.Rbf(X, Y, D, function="spline")


@pytest.mark.parametrize("function", ["multiquadric", "thin_plate"])
def test_derivatives_in_data_nodes_and_queries(function):
    eps = 1e-6

    def ours(qx, x, d, epsilon):
        return fi.Rbf(x, Y, d, function=function, epsilon=epsilon)(qx, QY).sum()

    def theirs(qx, x, d, epsilon):
        return si.Rbf(x, Y, d, function=function, epsilon=epsilon)(qx, QY).sum()
    args = [QX, X, D, 0.4]
    grads = fg.grad(ours, argnums=(0, 1, 2, 3))(*args)
    for k, g in enumerate(grads):
        direction = RNG.normal(size=np.shape(args[k]))
        plus = [a + eps * direction if i == k else a for i, a in enumerate(args)]
        minus = [a - eps * direction if i == k else a for i, a in enumerate(args)]
        np.testing.assert_allclose(np.sum(np.asarray(g) * direction),
                                   (theirs(*plus) - theirs(*minus)) / (2 * eps), rtol=2e-6)
        assert np.all(np.isfinite(g))  # (the query at a node too)

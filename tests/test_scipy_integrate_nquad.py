"""Integrals over several variables (nquad, dblquad, tplquad: nested quad), the running
Simpson integral and Newton-Cotes weights, against SciPy's values and central
differences of SciPy's values."""
import numpy as np
import pytest
import scipy.integrate as si

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.integrate as fsi

TIGHT = dict(epsabs=1e-13, epsrel=1e-13)


def _central(f, p, h=1e-5):
    return (f(p + h) - f(p - h)) / (2 * h)


def test_dblquad_and_nquad_equal_scipys_values():
    f = lambda y, x, p: np.exp(-p * x * y) * np.sin(x + y)  # noqa: E731
    ours = fsi.dblquad(f, 0.0, 1.0, 0.0, lambda x: x, args=(0.7,))
    scipys = si.dblquad(f, 0.0, 1.0, 0.0, lambda x: x, args=(0.7,))
    # (the same QUADPACK subdivisions: the same value; the error, the largest of every
    # integral's estimates, to its size)
    np.testing.assert_allclose(ours[0], scipys[0], rtol=1e-14)
    assert 0 < ours[1] < 1e-12
    g = lambda x, y, z, a: np.cos(a * x) * y * z ** 2  # noqa: E731
    ranges = [lambda y, z, a: (0.0, y + z), (0.0, 1.0), lambda a: (0.0, a)]
    np.testing.assert_allclose(fsi.nquad(g, ranges, args=(1.5,))[0],
                               si.nquad(g, ranges, args=(1.5,))[0], rtol=1e-13)
    opts = [{"points": [0.3, 5.0]}, {}, {"epsrel": 1e-10}]  # (5.0: outside, dropped)
    np.testing.assert_allclose(fsi.nquad(g, ranges, args=(1.5,), opts=opts)[0],
                               si.nquad(g, ranges, args=(1.5,), opts=opts)[0], rtol=1e-13)
    volume = fsi.tplquad(lambda z, y, x: x + y * z, 0.0, 1.0, 0.0, lambda x: 1 - x,
                         0.0, lambda x, y: 1 - x - y)
    want = si.tplquad(lambda z, y, x: x + y * z, 0.0, 1.0, 0.0, lambda x: 1 - x,
                      0.0, lambda x, y: 1 - x - y)
    np.testing.assert_allclose(volume[0], want[0], rtol=1e-14)


def test_dblquad_derivatives_in_args_captures_and_moving_limits():
    # through args=
    def scipys_args(p):
        return si.dblquad(lambda y, x: np.exp(-p * x * y) * np.sin(x + y), 0.0, 1.0, 0.0,
                          lambda x: x, **TIGHT)[0]

    ours = fg.grad(lambda p: fsi.dblquad(lambda y, x, p: fnp.exp(-p * x * y) * fnp.sin(x + y),
                                         0.0, 1.0, 0.0, lambda x: x, args=(p,))[0])
    np.testing.assert_allclose(ours(0.7), _central(scipys_args, 0.7), rtol=1e-7)

    # captured by the integrand and by both limits, the outer upper limit too
    def scipys(p):
        return si.dblquad(lambda y, x: np.exp(-p * x * y) * np.sin(x + y), 0.0, p, p * 0.1,
                          lambda x: p * x + 0.2, **TIGHT)[0]

    def captured(p):
        return fsi.dblquad(lambda y, x: fnp.exp(-p * x * y) * fnp.sin(x + y), 0.0, p,
                           p * 0.1, lambda x: p * x + 0.2)[0]

    np.testing.assert_allclose(captured(0.7), scipys(0.7), rtol=1e-13)
    np.testing.assert_allclose(fg.grad(captured)(0.7), _central(scipys, 0.7), rtol=1e-7)


def test_tplquad_derivative_in_args():
    # (a polynomial: each level converges on its first Gauss-Kronrod panel)
    def ours(s):
        return fsi.tplquad(lambda z, y, x, s: s * s * x + y * z, 0.0, 1.0, 0.0, 2.0, -1.0,
                           lambda x, y: x + y, args=(s,))[0]

    def scipys(s):
        return si.tplquad(lambda z, y, x: s * s * x + y * z, 0.0, 1.0, 0.0, 2.0, -1.0,
                          lambda x, y: x + y)[0]

    np.testing.assert_allclose(ours(0.8), scipys(0.8), rtol=1e-14)
    np.testing.assert_allclose(fg.grad(ours)(0.8), _central(scipys, 0.8), rtol=1e-8)


@pytest.mark.soak
def test_tplquad_derivative_in_a_captured_scale():
    def ours(s):
        return fsi.tplquad(lambda z, y, x: fnp.exp(s * (x - y * z)), 0.0, 1.0, 0.0,
                           lambda x: 1 - x, 0.0, lambda x, y: s * (1 - x - y))[0]

    def scipys(s):
        return si.tplquad(lambda z, y, x: np.exp(s * (x - y * z)), 0.0, 1.0, 0.0,
                          lambda x: 1 - x, 0.0, lambda x, y: s * (1 - x - y), **TIGHT)[0]

    np.testing.assert_allclose(fg.grad(ours)(0.8), _central(scipys, 0.8), rtol=1e-7)


def test_nquad_says_what_it_does_not_take():
    with pytest.raises(TypeError, match="opts hold keywords quad does not take"):
        fsi.nquad(lambda x: x, [(0.0, 1.0)], opts={"tol": 1e-3})
    with pytest.raises(NotImplementedError, match="full_output"):
        fsi.nquad(lambda x: x, [(0.0, 1.0)], full_output=True)
    with pytest.raises(ValueError, match=r"ranges\[0\] must be a pair"):
        fsi.nquad(lambda x: x, [lambda: 1.0])


@pytest.mark.parametrize("n", [2, 3, 4, 7])
@pytest.mark.parametrize("spacing", ["x", "dx", "unit"])
def test_cumulative_simpson_values_and_derivatives(n, spacing):
    rng = np.random.default_rng(n)
    y = rng.normal(size=(2, n))
    kw = {"x": np.cumsum(rng.uniform(0.2, 1.0, n))} if spacing == "x" else \
        {"dx": rng.uniform(0.2, 1.0, (2, 1))} if spacing == "dx" else {}
    want = si.cumulative_simpson(y, axis=1, initial=0.5, **kw)
    np.testing.assert_allclose(fsi.cumulative_simpson(y, axis=1, initial=0.5, **kw), want,
                               rtol=1e-14, atol=1e-15)
    w = rng.normal(size=want.shape)
    got = fg.grad(lambda y: fnp.sum(w * fsi.cumulative_simpson(y, axis=1, initial=0.5, **kw)))(y)
    # (linear in y: the central difference of SciPy's is exact to rounding)
    e = np.eye(y.size).reshape((-1,) + y.shape)
    fd = [np.sum(w * (si.cumulative_simpson(y + k, axis=1, initial=0.5, **kw)
                      - si.cumulative_simpson(y - k, axis=1, initial=0.5, **kw))) / 2
          for k in e]
    np.testing.assert_allclose(got.ravel(), fd, rtol=1e-10, atol=1e-12)
    if spacing == "x":
        x = kw["x"]
        gx = fg.grad(lambda x: fnp.sum(w[:, 1:] * fsi.cumulative_simpson(y, x=x, axis=1)))(x)
        fdx = [np.sum(w[:, 1:] * (si.cumulative_simpson(y, x=x + 1e-6 * k, axis=1)
                                  - si.cumulative_simpson(y, x=x - 1e-6 * k, axis=1))) / 2e-6
               for k in np.eye(n)]
        np.testing.assert_allclose(gx, fdx, rtol=1e-6, atol=1e-8)


def test_cumulative_simpson_refuses_what_scipy_refuses():
    with pytest.raises(ValueError, match="strictly increasing"):
        fsi.cumulative_simpson(np.ones(4), x=np.array([0.0, 1.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="dx must be a number"):
        fsi.cumulative_simpson(np.ones((2, 4)), dx=np.ones(3))


def test_newton_cotes_weights_are_scipys():
    for rn in (1, 2, 4, 9, np.array([0.0, 0.5, 2.0, 3.0])):
        ours, scipys = fsi.newton_cotes(rn), si.newton_cotes(rn)
        np.testing.assert_array_equal(ours[0], scipys[0])
        assert ours[1] == scipys[1]
    with pytest.raises(TypeError, match="no derivative in them"):
        fg.grad(lambda r: fsi.newton_cotes(r)[0][0])(np.array([0.0, 1.0, 2.0]))

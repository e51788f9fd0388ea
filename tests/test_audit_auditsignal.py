"""Checks of the session-25 derivative audit of scipy.signal / scipy.ndimage.  The
B-spline prefilter's start for the half-sample symmetric modes is the exact one (SciPy
1.17 reads a partial sum on short lines, fixed upstream in scipy PR 24615): on lines
long enough for SciPy's start to be exact, values and derivatives of the order 4-5
splines in 'reflect'/'grid-mirror' agree with SciPy's.  Values come from SciPy,
derivatives from central differences of its functions."""
import numpy as np
import pytest

sn = pytest.importorskip("scipy.ndimage")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.ndimage as fnd  # noqa: E402

RNG = np.random.default_rng(2525)


def _fd(f, x, t, h=1e-6):
    """A 4-point central difference of the reference ``f`` along ``t``."""
    return (8 * (f(x + h * t) - f(x - h * t)) - (f(x + 2 * h * t) - f(x - 2 * h * t))) / (12 * h)


@pytest.mark.parametrize("mode", ["reflect", "grid-mirror"])
@pytest.mark.parametrize("order", [4, 5])
def test_map_coordinates_high_order_reflect_value_and_derivatives(order, mode):
    x = RNG.standard_normal((20, 21))
    co = np.array([[0.4, 12.3, 18.7, -0.6, 19.4], [1.2, 20.6, 0.3, 13.3, 6.5]])
    ref = lambda a, c: sn.map_coordinates(a, c, order=order, mode=mode)  # noqa: E731
    ours = lambda a, c: fnd.map_coordinates(a, c, order=order, mode=mode)  # noqa: E731
    np.testing.assert_allclose(ours(x, co), ref(x, co), rtol=0, atol=1e-11)
    tx, tc = RNG.standard_normal(x.shape), RNG.standard_normal(co.shape)
    _, jx = fg.jvp(lambda a: ours(a, co), (x,), (tx,))
    np.testing.assert_allclose(jx, _fd(lambda a: ref(a, co), x, tx), rtol=0, atol=1e-7)
    _, jc = fg.jvp(lambda c: ours(x, c), (co,), (tc,))
    np.testing.assert_allclose(jc, _fd(lambda c: ref(x, c), co, tc), rtol=0, atol=1e-6)


def test_short_reflect_lines_interpolate_the_samples_where_scipy_117_does_not():
    # (the deliberate difference: ours passes through the samples)
    line = RNG.standard_normal(4)
    ours = fnd.map_coordinates(line, [np.arange(4.0)], order=5, mode="reflect")
    np.testing.assert_allclose(ours, line, rtol=0, atol=1e-13)

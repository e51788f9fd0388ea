"""funcgrad.scipy's fft (DCT/DST), ndimage, cluster and interpolate modules, and the signal
functions beyond convolution, against SciPy: values, derivatives against central
differences, float32, vmap and the errors that name the fix."""
import numpy as np
import pytest

scipy_fft = pytest.importorskip("scipy.fft")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.fft as ffft  # noqa: E402
from helpers import check_jvp_fd, check_second_order  # noqa: E402

RNG = np.random.default_rng(31)


def close(got, want, rtol=1e-13, atol=0.0):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol, atol=atol,
                               equal_nan=True)


# --- fft: dct, dst and their inverses -----------------------------------------------------------

@pytest.mark.parametrize("name", ["dct", "idct", "dst", "idst"])
@pytest.mark.parametrize("type_", [1, 2, 3, 4])
def test_dct_and_dst_match_scipy_for_every_norm(name, type_):
    for norm in (None, "backward", "ortho", "forward"):
        for orthogonalize in (None, True, False):
            for n in (2, 3, 8):
                x = RNG.standard_normal((3, n))
                want = getattr(scipy_fft, name)(x, type=type_, norm=norm,
                                                orthogonalize=orthogonalize)
                got = getattr(ffft, name)(x, type=type_, norm=norm, orthogonalize=orthogonalize)
                close(got, want, 0, 1e-13 * np.max(np.abs(want)))


@pytest.mark.parametrize("name", ["dctn", "idctn", "dstn", "idstn"])
def test_n_dimensional_transforms_match_scipy(name):
    x = RNG.standard_normal((4, 5, 6))
    for kw in ({}, {"axes": (0, 2)}, {"s": (3, 7)}, {"s": 4, "axes": 1},
               {"type": 1, "norm": "ortho"}, {"type": 3, "axes": -1}):
        want = getattr(scipy_fft, name)(x, **kw)
        close(getattr(ffft, name)(x, **kw), want, 0, 1e-13 * np.max(np.abs(want)))


def test_dct_cuts_and_pads_with_n_and_keeps_dtypes():
    x = RNG.standard_normal((4, 5))
    close(ffft.dct(x, n=3, axis=1), scipy_fft.dct(x, n=3, axis=1), 1e-13)
    close(ffft.dct(x, n=9, axis=0), scipy_fft.dct(x, n=9, axis=0), 1e-13)
    assert ffft.dct(x.astype(np.float32)).dtype == np.float32
    z = x + 2j * x[::-1]
    close(ffft.dct(z, norm="ortho"), scipy_fft.dct(z, norm="ortho"), 1e-13)
    close(ffft.idst(np.arange(4), type=1), scipy_fft.idst(np.arange(4), type=1), 1e-13)
    with pytest.raises(ValueError, match="at least 2"):
        ffft.dct(np.ones(1), type=1)
    with pytest.raises(ValueError, match="type must be 1, 2, 3 or 4"):
        ffft.dct(np.ones(3), type=5)


def test_dct_differentiates_and_vmaps():
    x = RNG.standard_normal((3, 5))
    for f in (lambda v: ffft.dct(v, type=2, norm="ortho"), lambda v: ffft.idct(v, type=1),
              lambda v: ffft.dstn(v, type=3, s=(4, 6)), lambda v: ffft.idctn(v, norm="forward")):
        check_jvp_fd(f, [x], RNG)
        check_second_order(lambda v: f(v) ** 3, [x], RNG)
    close(fg.vmap(ffft.dct)(x), scipy_fft.dct(x), 1e-13)
    g = fg.grad(lambda v: fg.numpy.sum(ffft.dct(v, norm="ortho") ** 2))(x)
    close(g, 2 * x, 1e-13)  # (an orthogonal transform keeps the sum of squares)
    assert fg.grad(lambda v: fg.numpy.sum(ffft.dct(v)))(x.astype(np.float32)).dtype == np.float32


# --- signal: convolve2d, correlate2d, detrend ---------------------------------------------------

SHAPES_2D = [((5, 6), (3, 2)), ((4, 4), (4, 4)), ((3, 7), (5, 2)), ((2, 3), (4, 5))]


@pytest.mark.parametrize("s1,s2", SHAPES_2D)
def test_convolve2d_and_correlate2d_match_scipy_for_every_boundary(s1, s2):
    scipy_signal = pytest.importorskip("scipy.signal")
    import funcgrad.scipy.signal as fss
    a, k = RNG.standard_normal(s1), RNG.standard_normal(s2)
    for name in ("convolve2d", "correlate2d"):
        for mode in ("full", "same", "valid"):
            for boundary in ("fill", "wrap", "symm"):
                for fillvalue in (0, 1.5):
                    try:
                        want = getattr(scipy_signal, name)(a, k, mode, boundary, fillvalue)
                    except ValueError:  # ('valid' needs one input inside the other)
                        continue
                    got = getattr(fss, name)(a, k, mode, boundary, fillvalue)
                    close(got, want, 1e-12, 1e-13)


def test_convolve2d_differentiates_in_both_inputs_and_the_fill_value():
    import funcgrad.scipy.signal as fss
    a, k = RNG.standard_normal((4, 5)), RNG.standard_normal((3, 2))
    for boundary in ("fill", "wrap", "symm"):
        check_jvp_fd(lambda x, y, f: fss.convolve2d(x, y, "same", boundary, f),
                     [a, k, np.array(0.7)], RNG)
        check_jvp_fd(lambda x, y: fss.correlate2d(x, y, "full", boundary), [a, k], RNG)
    with pytest.raises(ValueError, match="2-d arrays.*use convolve"):
        fss.convolve2d(np.ones(3), np.ones(2))
    with pytest.raises(ValueError, match="boundary must be"):
        fss.convolve2d(a, k, boundary="reflect")


def test_detrend_matches_scipy_and_is_linear():
    scipy_signal = pytest.importorskip("scipy.signal")
    import funcgrad.scipy.signal as fss
    x = RNG.standard_normal((3, 20))
    for type_ in ("linear", "constant"):
        for bp in (0, [5, 12], 7, [19]):
            close(fss.detrend(x, type=type_, bp=bp), scipy_signal.detrend(x, type=type_, bp=bp),
                  0, 1e-14)
            close(fss.detrend(x.T, axis=0, type=type_, bp=bp),
                  scipy_signal.detrend(x.T, axis=0, type=type_, bp=bp), 0, 1e-14)
    assert fss.detrend(x.astype(np.float32)).dtype == np.float32
    check_jvp_fd(lambda v: fss.detrend(v, bp=[4, 9]), [x], RNG)
    with pytest.raises(ValueError, match="break points"):
        fss.detrend(x, bp=25)

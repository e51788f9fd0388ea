"""funcgrad.scipy's fft (DCT/DST), ndimage, cluster, interpolate, sparse.linalg and spatial
modules, and the signal functions beyond convolution, against SciPy: values, derivatives
against central differences, float32, vmap and the errors that name the fix."""
import numpy as np
import pytest

scipy_fft = pytest.importorskip("scipy.fft")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.fft as ffft  # noqa: E402
from helpers import (check_dot_product, check_float32, check_jvp_fd,  # noqa: E402
                     check_second_order, check_vmap)

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


def test_fftpack_transforms_match_scipy_fftpack_and_differentiate():
    # (audit: scipy.fftpack.dct on a traced value raised "object has no attribute 'flags'")
    scipy_fftpack = pytest.importorskip("scipy.fftpack")
    import funcgrad.scipy.fftpack as fpack
    x = RNG.standard_normal((3, 5))
    for name in ("dct", "idct", "dst", "idst"):  # (fftpack's inverses are unscaled)
        for type_ in (1, 2, 3, 4):
            for norm in (None, "ortho"):
                want = getattr(scipy_fftpack, name)(x, type_, n=6, norm=norm)
                close(getattr(fpack, name)(x, type_, n=6, norm=norm), want, 0,
                      1e-13 * np.max(np.abs(want)))
    for name in ("dctn", "idctn", "dstn", "idstn"):
        want = getattr(scipy_fftpack, name)(x, 2, shape=(4, 6))
        close(getattr(fpack, name)(x, 2, shape=(4, 6)), want, 0, 1e-13 * np.max(np.abs(want)))
    for name in ("fft", "ifft"):
        close(getattr(fpack, name)(x, 7, 0), getattr(scipy_fftpack, name)(x, 7, 0), 1e-13)
    for name in ("fft2", "ifft2", "fftn", "ifftn"):
        close(getattr(fpack, name)(x, (4, 6)), getattr(scipy_fftpack, name)(x, (4, 6)), 1e-13)
    check_jvp_fd(lambda v: fpack.idct(v, 3), [x], RNG)
    # SciPy's own, on a traced value: an error naming the twin
    with pytest.raises(TypeError,  # (DerivativeDroppedError)
                       match=r"scipy\.fftpack\.dct converts its input .* call "
                             r"funcgrad\.scipy\.fftpack\.dct instead"):
        fg.grad(lambda v: fg.numpy.sum(scipy_fftpack.dct(v)))(x)
    with pytest.raises(ValueError, match="norm must be None or 'ortho'"):
        fpack.dct(x, norm="forward")


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


# --- ndimage.map_coordinates ----------------------------------------------------------------------

MAP_MODES = ["constant", "nearest", "wrap", "grid-wrap", "mirror", "reflect", "grid-mirror"]


@pytest.mark.parametrize("mode", MAP_MODES)
def test_map_coordinates_matches_scipy(mode):
    scipy_ndimage = pytest.importorskip("scipy.ndimage")
    import funcgrad.scipy.ndimage as fnd
    image = RNG.standard_normal((4, 5, 3))
    points = RNG.uniform(-3, 8, (3, 50))
    integers = np.arange(-12.0, 16.0)[None]  # (every sample and its images beyond the ends)
    for order in (0, 1):
        close(fnd.map_coordinates(image, points, order=order, mode=mode, cval=0.5),
              scipy_ndimage.map_coordinates(image, points, order=order, mode=mode, cval=0.5),
              1e-13, 1e-14)
        for n in (1, 2, 5):
            line = (np.arange(n) + 1.0) ** 2
            close(fnd.map_coordinates(line, integers, order=order, mode=mode, cval=-1.0),
                  scipy_ndimage.map_coordinates(line, integers, order=order, mode=mode,
                                                cval=-1.0), 1e-13)


def test_map_coordinates_differentiates_keeps_float32_and_names_the_fix():
    import funcgrad.scipy.ndimage as fnd
    image = RNG.standard_normal((4, 5))
    points = RNG.uniform(0.1, 3.9, (2, 7)) + 0.01  # (off the grid lines: no kinks)
    for mode in ("nearest", "wrap", "mirror", "reflect"):
        check_jvp_fd(lambda im, p: fnd.map_coordinates(im, p, order=1, mode=mode),
                     [image, points * 1.6 - 1.0], RNG)
    check_jvp_fd(lambda im: fnd.map_coordinates(im, points, order=0), [image], RNG)
    g = fg.grad(lambda p: fg.numpy.sum(fnd.map_coordinates(image, p, order=0)))(points)
    close(g, np.zeros_like(points))  # (a step function of the coordinates)
    out = fnd.map_coordinates(image.astype(np.float32), points.astype(np.float32), order=1)
    assert out.dtype == np.float32
    close(fg.vmap(lambda p: fnd.map_coordinates(image, p, order=1), in_axes=2)(points[:, :, None]
                                                                                .repeat(2, 2)),
          np.stack([fnd.map_coordinates(image, points, order=1)] * 2), 1e-14)
    # (SciPy's error for the wrong number of coordinate arrays; splines of orders 2-5 are
    # tested in test_scipy_ndimage_more.py)
    with pytest.raises(RuntimeError, match="one array per axis"):
        fnd.map_coordinates(image, points[:1], order=1)


# --- cluster.vq.vq ------------------------------------------------------------------------------

def test_vq_matches_scipy_and_differentiates_its_distances():
    scipy_vq = pytest.importorskip("scipy.cluster.vq")
    import funcgrad.scipy.cluster.vq as fvq
    obs, book = RNG.standard_normal((20, 3)), RNG.standard_normal((4, 3))
    for o, b in ((obs, book), (obs[:, 0], book[:, 0]),
                 (obs.astype(np.float32), book.astype(np.float32))):
        code, dist = fvq.vq(o, b)
        want_code, want_dist = scipy_vq.vq(o, b)
        assert code.dtype == want_code.dtype and dist.dtype == want_dist.dtype
        np.testing.assert_array_equal(code, want_code)
        close(dist, want_dist, 1e-6 if o.dtype == np.float32 else 1e-14)
    check_jvp_fd(lambda o, b: fvq.vq(o, b)[1], [obs, book], RNG)
    g = fg.grad(lambda o: fg.numpy.sum(fvq.vq(o, book)[1]))(book[:2].copy())
    close(g, np.zeros((2, 3)))  # (on a code: distance 0, derivative 0 rather than NaN)
    with pytest.raises(ValueError, match="infs or NaNs"):
        fvq.vq(np.array([[np.nan, 0, 0]]), book)


# --- signal: welch, csd, stft, istft ---------------------------------------------------------

SPECTRAL = [{}, {"nperseg": 16}, {"nperseg": 16, "noverlap": 5, "nfft": 33},
            {"window": "hamming", "nperseg": 20, "detrend": "linear"},
            {"window": ("tukey", 0.3), "nperseg": 20, "scaling": "spectrum"},
            {"nperseg": 15, "return_onesided": False}, {"nperseg": 16, "average": "median"},
            {"window": np.arange(10.0) + 1}, {"nperseg": 16, "detrend": False, "fs": 3.0}]


def _same(got, want, rtol=1e-12):
    for g, w in zip(got, want):
        assert np.shape(g) == np.shape(w) and np.asarray(g).dtype == np.asarray(w).dtype
        close(g, w, 0, rtol * max(1e-300, np.max(np.abs(w), initial=0)))


@pytest.mark.filterwarnings("ignore")  # (SciPy's warnings on nperseg beyond the signal)
@pytest.mark.parametrize("kw", SPECTRAL, ids=[str(k) for k in SPECTRAL])
def test_welch_and_csd_match_scipy(kw):
    scipy_signal = pytest.importorskip("scipy.signal")
    import funcgrad.scipy.signal as fss
    x, y = RNG.standard_normal((2, 100)), RNG.standard_normal((2, 100))
    _same(fss.welch(x, **kw), scipy_signal.welch(x, **kw))
    _same(fss.welch(x.T, axis=0, **kw), scipy_signal.welch(x.T, axis=0, **kw))
    _same(fss.csd(x, y, **kw), scipy_signal.csd(x, y, **kw))
    _same(fss.csd(x + 1j * y, y, **kw), scipy_signal.csd(x + 1j * y, y, **kw))
    _same(fss.welch(x.astype(np.float32), **kw), scipy_signal.welch(x.astype(np.float32), **kw),
          1e-5)


STFT = [{}, {"nperseg": 16}, {"nperseg": 16, "noverlap": 5, "nfft": 33},
        {"nperseg": 20, "window": "hamming", "boundary": "even"},
        {"nperseg": 20, "boundary": "odd", "padded": False},
        {"nperseg": 20, "boundary": None, "scaling": "psd"},
        {"nperseg": 20, "boundary": "constant", "detrend": "constant"},
        {"nperseg": 15, "return_onesided": False}]


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("kw", STFT, ids=[str(k) for k in STFT])
def test_stft_and_istft_match_scipy(kw):
    scipy_signal = pytest.importorskip("scipy.signal")
    import funcgrad.scipy.signal as fss
    x = RNG.standard_normal((2, 100))
    _same(fss.stft(x, **kw), scipy_signal.stft(x, **kw))
    _same(fss.stft(x.T, axis=0, **kw), scipy_signal.stft(x.T, axis=0, **kw))
    _same(fss.stft(x + 2j * x[::-1], **kw), scipy_signal.stft(x + 2j * x[::-1], **kw))
    z = scipy_signal.stft(x, **kw)[2]
    inverse = {k: v for k, v in kw.items() if k not in ("detrend", "padded", "return_onesided")}
    inverse["boundary"] = kw.get("boundary", "zeros") is not None
    inverse["input_onesided"] = kw.get("return_onesided", True)
    want_t, want_x = scipy_signal.istft(z[0], **inverse)
    _same(fss.istft(z[0], **inverse), (want_t, want_x))
    # (many-dimensional: SciPy's t counts the first axis, so x alone is compared)
    _same(fss.istft(z, **inverse)[1:], scipy_signal.istft(z, **inverse)[1:])
    moved = np.moveaxis(z, -1, 0)
    _same(fss.istft(moved, time_axis=0, freq_axis=-1, **inverse),
          scipy_signal.istft(moved, time_axis=0, freq_axis=-1, **inverse))


def test_spectral_functions_differentiate():
    import funcgrad.scipy.signal as fss
    x, y = RNG.standard_normal(40), RNG.standard_normal(40)
    check_jvp_fd(lambda v: fss.welch(v, nperseg=12, detrend="linear")[1], [x], RNG)
    check_jvp_fd(lambda v: fss.welch(v, nperseg=12, average="median")[1], [x], RNG)
    check_jvp_fd(lambda u, v: fg.numpy.real(fss.csd(u, v, nperseg=10)[1]), [x, y], RNG)
    check_jvp_fd(lambda v: fg.numpy.abs(fss.stft(v, nperseg=8)[2]) ** 2, [x], RNG)
    z = fss.stft(x, nperseg=8)[2]
    check_jvp_fd(lambda re, im: fss.istft(re + 1j * im, nperseg=8)[1], [z.real, z.imag], RNG)
    close(fss.istft(fss.stft(x, nperseg=8)[2], nperseg=8)[1], x, 0, 1e-14)
    with pytest.raises(ValueError, match="noverlap"):
        fss.welch(x, nperseg=8, noverlap=8)


# --- interpolate: RegularGridInterpolator, interpn -----------------------------------------------

def _grid():
    points = (np.sort(RNG.uniform(0, 5, 4)), np.array([-1.0, 0.0, 2.5]),
              np.sort(RNG.uniform(-2, 2, 5))[::-1].copy())  # (the last one descending)
    inside = np.stack([RNG.uniform(points[0][0], points[0][-1], 40), RNG.uniform(-1, 2.5, 40),
                       RNG.uniform(points[2][-1], points[2][0], 40)], -1)
    return points, inside


@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_regular_grid_interpolator_matches_scipy(method):
    scipy_interpolate = pytest.importorskip("scipy.interpolate")
    import funcgrad.scipy.interpolate as fi
    points, inside = _grid()
    beyond = inside * 1.3 - 0.4  # (some points outside the grid)
    for values in (RNG.standard_normal((4, 3, 5)), RNG.standard_normal((4, 3, 5, 2))):
        close(fi.RegularGridInterpolator(points, values, method)(inside),
              scipy_interpolate.RegularGridInterpolator(points, values, method)(inside), 1e-13,
              1e-14)
        for fill in (np.nan, None, 3.0):
            close(fi.RegularGridInterpolator(points, values, method, False, fill)(beyond),
                  scipy_interpolate.RegularGridInterpolator(points, values, method, False,
                                                            fill)(beyond), 1e-13, 1e-14)
        close(fi.interpn(points, values, inside[:3], method),
              scipy_interpolate.interpn(points, values, inside[:3], method), 1e-13, 1e-14)
    line = (np.array([0.0, 1.0, 3.0]),)
    close(fi.RegularGridInterpolator(line, np.array([1.0, 2, 5]))(np.array([0.5, 2.0])),
          [1.5, 3.5])


def test_regular_grid_interpolator_differentiates_and_names_the_fix():
    import funcgrad.scipy.interpolate as fi
    points, inside = _grid()
    values = RNG.standard_normal((4, 3, 5))
    check_jvp_fd(lambda v, x: fi.RegularGridInterpolator(points, v)(x), [values, inside], RNG)
    check_jvp_fd(lambda g: fi.RegularGridInterpolator((g, points[1], points[2]), values)(inside),
                 [points[0]], RNG)
    check_jvp_fd(lambda v: fi.RegularGridInterpolator(points, v, "nearest")(inside), [values],
                 RNG)
    f = fi.RegularGridInterpolator(points, values)
    close(fg.vmap(f)(inside)[:, 0], f(inside), 1e-14)  # (a flat point gives shape (1,))
    close(fg.jit(f)(inside), f(inside), 1e-14)
    single = [np.asarray(p, np.float32) for p in points]  # (SciPy gives float64 always)
    assert fi.RegularGridInterpolator(single, values.astype(np.float32))(
        inside.astype(np.float32)).dtype == np.float32
    with pytest.raises(ValueError, match="outside the grid.*bounds_error=False"):
        f(inside * 10)
    with pytest.raises(NotImplementedError, match="method='linear'"):
        fi.RegularGridInterpolator(points, values, "cubic")
    # 'slinear', the degree-1 spline, is the linear interpolant (audit: it raised)
    si = pytest.importorskip("scipy.interpolate")
    close(fi.RegularGridInterpolator(points, values, "slinear")(inside),
          si.RegularGridInterpolator(points, values, "slinear")(inside), 1e-13)
    close(fi.interpn(points, values, inside * 10, "slinear", False, None),
          si.interpn(points, values, inside * 10, "slinear", False, None), 1e-12)


@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_interpn_reverse_mode_batching_and_float32(method):
    """Reverse mode is the transpose of forward mode in the values and the points (inside
    the grid and extrapolated), vmap over either equals the loop, and a float32 grid,
    values and points stay float32 in every graph."""
    import funcgrad.scipy.interpolate as fi
    points = (np.sort(RNG.uniform(0, 5, 4)), np.array([-1.0, 0.0, 2.5]))
    values = RNG.standard_normal((4, 3, 2))
    xi = np.stack([RNG.uniform(points[0][0], points[0][-1], 7), RNG.uniform(-1, 2.5, 7)], -1)

    def f(v, x):
        return fi.interpn(tuple(p.astype(v.dtype) for p in points), v, x, method)
    check_dot_product(f, [values, xi], RNG)
    check_vmap(f, [RNG.standard_normal((3, 4, 3, 2)), xi], [0, None])
    check_vmap(f, [values, np.stack([xi, xi * 0.9])], [None, 0])
    check_float32(f, [values, xi])
    beyond = xi * 1.5 - 0.5  # (fill_value=None: the edge cells extrapolate)
    check_dot_product(lambda v, x: fi.interpn(points, v, x, method, False, None),
                      [values, beyond], RNG)


# --- sparse.linalg: cg, gmres, bicgstab ----------------------------------------------------------

def _systems(n=12):
    q = RNG.standard_normal((n, n))
    spd = q @ q.T + n * np.eye(n)
    general = RNG.standard_normal((n, n)) + 4 * np.eye(n)
    return {"cg": spd, "gmres": general, "bicgstab": general}, RNG.standard_normal(n)


@pytest.mark.parametrize("name", ["cg", "gmres", "bicgstab"])
def test_krylov_solvers_match_scipy_and_numpy(name):
    scipy_sparse_linalg = pytest.importorskip("scipy.sparse.linalg")
    import funcgrad.scipy.sparse.linalg as fsl
    systems, b = _systems()
    a = systems[name]
    solver = getattr(fsl, name)
    for kw in ({}, {"M": np.diag(1 / np.diag(a))}, {"x0": b}):
        x, info = solver(a, b, rtol=1e-10, **kw)
        assert int(info) == 0
        close(x, np.linalg.solve(a, b), 0, 1e-9)
        close(x, getattr(scipy_sparse_linalg, name)(a, b, rtol=1e-10, **kw)[0], 0, 1e-9)
    x, info = solver(lambda v: a @ v, b, rtol=1e-10)  # (a function, as a LinearOperator)
    close(x, np.linalg.solve(a, b), 0, 1e-9)
    assert int(solver(a, b, rtol=1e-14, maxiter=2)[1]) == int(
        getattr(scipy_sparse_linalg, name)(a, b, rtol=1e-14, maxiter=2)[1])
    assert solver(a.astype(np.float32), b.astype(np.float32))[0].dtype == np.float32


@pytest.mark.parametrize("name", ["cg", "gmres", "bicgstab"])
def test_krylov_solvers_differentiate_implicitly(name):
    import funcgrad.scipy.sparse.linalg as fsl
    systems, b = _systems()
    a, w = systems[name], np.arange(12.0)
    solver = getattr(fsl, name)

    def loss(m, rhs):
        return fg.numpy.sum(solver(m, rhs, rtol=1e-12)[0] * w)
    ga, gb = fg.grad(loss, argnums=(0, 1))(a, b)
    lam, x = np.linalg.solve(a.T, w), np.linalg.solve(a, b)  # (the exact solution's)
    close(gb, lam, 0, 1e-9)
    close(ga, -np.outer(lam, x), 0, 1e-9)
    # a function closing over a traced value, and jit(grad)
    g = fg.grad(lambda s: fg.numpy.sum(solver(lambda v: a @ v + s * v, b, rtol=1e-12)[0]))(0.5)
    shifted = a + 0.5 * np.eye(12)
    close(g, -np.sum(np.linalg.solve(shifted, np.linalg.solve(shifted, b))), 1e-8)
    close(fg.jit(fg.grad(loss, argnums=1))(a, b), lam, 0, 1e-9)
    close(fg.vmap(lambda rhs: solver(a, rhs, rtol=1e-12)[0])(np.stack([b, 2 * b]))[1], 2 * x,
          0, 1e-9)
    check_jvp_fd(lambda m, rhs: solver(m, rhs, rtol=1e-13)[0], [a, b], RNG)


# --- spatial.transform: Rotation, Slerp ----------------------------------------------------------

def test_rotation_conversions_match_scipy():
    scipy_transform = pytest.importorskip("scipy.spatial.transform")
    from funcgrad.scipy.spatial.transform import Rotation
    q = RNG.standard_normal((6, 4))
    theirs, ours = scipy_transform.Rotation.from_quat(q), Rotation.from_quat(q)
    for method, args in (("as_quat", ()), ("as_quat", (True,)), ("as_matrix", ()),
                         ("as_rotvec", ()), ("as_rotvec", (True,)), ("as_mrp", ()),
                         ("magnitude", ())):
        close(getattr(ours, method)(*args), getattr(theirs, method)(*args), 0, 1e-13)
    gimbal = np.array([[0.3, 0.0, 0.5], [0.3, np.pi, 0.5], [0.2, np.pi / 2, 0.1],
                       [0.2, -np.pi / 2, 0.1]])
    for seq in ("xyz", "zyx", "XYZ", "ZYX", "zxz", "ZXZ", "yxy", "XZY", "xzy", "YXY"):
        close(ours.as_euler(seq), theirs.as_euler(seq), 0, 1e-13)
        angles = RNG.uniform(-3, 3, (6, 3))
        close(Rotation.from_euler(seq, angles).as_quat(),
              scipy_transform.Rotation.from_euler(seq, angles).as_quat(), 0, 1e-13)
        with pytest.warns(UserWarning):  # (SciPy's gimbal-lock warning; ours is silent)
            want = scipy_transform.Rotation.from_euler(seq, gimbal).as_euler(seq)
        close(Rotation.from_euler(seq, gimbal).as_euler(seq), want, 0, 1e-12)
    close(Rotation.from_euler("z", 30.0, degrees=True).as_quat(),
          scipy_transform.Rotation.from_euler("z", 30.0, degrees=True).as_quat(), 0, 1e-15)
    m = theirs.as_matrix()
    close(Rotation.from_matrix(m).as_quat(), scipy_transform.Rotation.from_matrix(m).as_quat(),
          0, 1e-13)
    rotvec = RNG.standard_normal((5, 3))
    rotvec[0], rotvec[1] = 0.0, 1e-5
    for name in ("from_rotvec", "from_mrp"):
        close(getattr(Rotation, name)(rotvec).as_quat(),
              getattr(scipy_transform.Rotation, name)(rotvec).as_quat(), 0, 1e-14)
    v = RNG.standard_normal((6, 3))
    close(ours.apply(v), theirs.apply(v), 0, 1e-13)
    close(ours.apply(v, inverse=True), theirs.apply(v, inverse=True), 0, 1e-13)
    close(ours[0].apply(v), theirs[0].apply(v), 0, 1e-13)
    close((ours[:3] * ours[3:].inv()).as_quat(), (theirs[:3] * theirs[3:].inv()).as_quat(), 0,
          1e-13)
    weights = RNG.uniform(size=6)
    close(ours.mean(weights).as_matrix(), theirs.mean(weights).as_matrix(), 0, 1e-12)
    close(Rotation.concatenate([ours[:2], ours[4:]]).as_quat(),
          scipy_transform.Rotation.concatenate([theirs[:2], theirs[4:]]).as_quat())
    assert len(ours) == 6 and ours[0].single and not ours.single
    times = np.array([0.0, 1.0, 2.5, 4.0, 4.5, 7.0])
    at = np.array([0.0, 0.3, 1.0, 2.0, 3.9, 4.2, 6.9, 7.0])
    from funcgrad.scipy.spatial.transform import Slerp
    close(Slerp(times, ours)(at).as_matrix(),
          scipy_transform.Slerp(times, theirs)(at).as_matrix(), 0, 1e-12)


def test_rotations_differentiate_everywhere_including_angle_zero():
    from funcgrad.scipy.spatial.transform import Rotation, Slerp
    q, v = RNG.standard_normal((4, 4)), RNG.standard_normal((4, 3))
    check_jvp_fd(lambda x: Rotation.from_quat(x).as_matrix(), [q], RNG)
    check_jvp_fd(lambda x, y: Rotation.from_quat(x).apply(y), [q, v], RNG)
    check_jvp_fd(lambda x: Rotation.from_quat(x).as_rotvec(), [q], RNG)
    check_jvp_fd(lambda x: Rotation.from_quat(x).as_euler("ZXZ"), [q], RNG)
    check_jvp_fd(lambda x: Rotation.from_matrix(Rotation.from_quat(x).as_matrix()).as_matrix(),
                 [q], RNG)
    check_jvp_fd(lambda x: Rotation.from_rotvec(x).as_quat(), [v * 1e-4], RNG)
    check_jvp_fd(lambda x: Rotation.from_quat(x).mean().as_matrix(), [q], RNG)
    check_jvp_fd(lambda x, t: Slerp(np.array([0.0, 1.0, 2.0, 3.0]), Rotation.from_quat(x))(
        t).as_matrix(), [q, np.array([0.4, 1.7, 2.2])], RNG)
    # at angle 0 the rotation vector's derivative is the identity's (no NaN from |v|)
    jac = fg.jacfwd(lambda x: Rotation.from_rotvec(x).as_matrix())(np.zeros(3))
    close(jac[2, 1, 0], 1.0)  # (d R[2, 1] / d v_x = 1: R ~ I + [v]x)
    g = fg.grad(lambda x: fg.numpy.sum(Rotation.from_rotvec(x).as_rotvec()))(np.zeros(3))
    close(g, np.ones(3))
    with pytest.raises(ValueError, match="consecutive axes"):
        Rotation.from_euler("xxy", np.zeros(3))

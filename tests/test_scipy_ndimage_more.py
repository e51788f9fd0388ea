"""funcgrad.scipy.ndimage beyond the Gaussian and uniform filters: correlation and
convolution with given weights, the derivative filters, the order-statistic filters,
grey morphology, the Fourier-domain filters and measurements on labels
(interpolation: test_scipy_ndimage_interp.py).  Values against SciPy's over every mode,
origins, axes, footprints and structures; derivatives against finite differences, the
dot-product test, second order, vmap, jit and float32; the rule for ties; errors that
name the problem.
"""
import numpy as np
import pytest
import scipy.ndimage as snd

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.ndimage as fnd
from helpers import (assert_close, check_dot_product, check_float32, check_jvp_fd,
                     check_second_order, check_vmap)

RNG = np.random.default_rng(20)
MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-wrap", "grid-mirror",
         "grid-constant"]


# --- correlation and convolution -----------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_correlate1d_and_convolve1d_match_scipy_over_lengths_and_origins(mode):
    x = RNG.normal(size=(5, 6))
    for w in ([1.0, 3.0], [1.0, -2.0, 0.5], RNG.normal(size=4), RNG.normal(size=9)):
        for origin in range(-(len(w) // 2), (len(w) - 1) // 2 + 1):
            for axis in (0, -1):
                kw = dict(axis=axis, mode=mode, cval=0.3, origin=origin)
                assert_close(fnd.correlate1d(x, w, **kw), snd.correlate1d(x, w, **kw), 1e-13)
                assert_close(fnd.convolve1d(x, w, **kw), snd.convolve1d(x, w, **kw), 1e-13)


@pytest.mark.parametrize("mode", MODES)
def test_correlate_and_convolve_match_scipy_over_shapes_origins_and_axes(mode):
    x = RNG.normal(size=(5, 6))
    for shape, origin in [((3, 3), 0), ((2, 4), (-1, 0)), ((1, 5), (0, 2)), ((5, 2), (2, -1)),
                          ((7, 8), 0)]:
        w = RNG.normal(size=shape)
        kw = dict(mode=mode, cval=0.4, origin=origin)
        assert_close(fnd.correlate(x, w, **kw), snd.correlate(x, w, **kw), 1e-13)
        assert_close(fnd.convolve(x, w, **kw), snd.convolve(x, w, **kw), 1e-13)
    x3, w = RNG.normal(size=(4, 5, 6)), RNG.normal(size=(3, 2))
    # (SciPy's order: the weights' dimensions follow the axes sorted, origins as given)
    for f, g in [(fnd.correlate, snd.correlate), (fnd.convolve, snd.convolve)]:
        assert_close(f(x3, w, mode=mode, axes=(2, 0), origin=(0, 1)),
                     g(x3, w, mode=mode, axes=(2, 0), origin=(0, 1)), 1e-13)


def test_complex_weights_and_inputs_follow_scipys_conjugation():
    x = RNG.normal(size=(5, 6)) + 1j * RNG.normal(size=(5, 6))
    w1 = RNG.normal(size=3) + 1j * RNG.normal(size=3)
    w2 = RNG.normal(size=(2, 3)) + 1j * RNG.normal(size=(2, 3))
    for got, want in [(fnd.correlate1d(x, w1), snd.correlate1d(x, w1)),
                      (fnd.convolve1d(x, w1), snd.convolve1d(x, w1)),
                      (fnd.correlate1d(x.real, w1), snd.correlate1d(x.real, w1)),
                      (fnd.correlate1d(x, [1.0, 2.0]), snd.correlate1d(x, [1.0, 2.0])),
                      (fnd.correlate(x, w2), snd.correlate(x, w2)),
                      (fnd.convolve(x, w2, mode="constant", cval=1 + 2j),
                       snd.convolve(x, w2, mode="constant", cval=1 + 2j))]:
        assert got.dtype == want.dtype
        assert_close(got.real, want.real, 1e-13, scale=np.abs(want).max())
        assert_close(got.imag, want.imag, 1e-13, scale=np.abs(want).max())


def test_float32_stays_float32_and_complex_weights_make_complex64():
    x = RNG.normal(size=(5, 6)).astype(np.float32)
    for got, want in [(fnd.correlate(x, np.ones((2, 2))), snd.correlate(x, np.ones((2, 2)))),
                      (fnd.sobel(x), snd.sobel(x)), (fnd.laplace(x), snd.laplace(x)),
                      (fnd.correlate1d(x, [1j, 2.0]), snd.correlate1d(x, [1j, 2.0]))]:
        assert got.dtype == want.dtype
        assert_close(got.real, want.real, 1e-5, scale=np.abs(want).max())
        assert_close(got.imag, want.imag, 1e-5, scale=np.abs(want).max())


# --- derivative filters ----------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_derivative_filters_match_scipy(mode):
    x = RNG.normal(size=(4, 5, 6))
    for axis in (0, 1, -1):
        assert_close(fnd.sobel(x, axis, mode=mode), snd.sobel(x, axis, mode=mode), 1e-13)
        assert_close(fnd.prewitt(x, axis, mode=mode, cval=1.0),
                     snd.prewitt(x, axis, mode=mode, cval=1.0), 1e-13)
    assert_close(fnd.laplace(x, mode=mode), snd.laplace(x, mode=mode), 1e-13)
    assert_close(fnd.laplace(x, mode=mode, axes=(0, 2)), snd.laplace(x, mode=mode, axes=(0, 2)),
                 1e-13)
    assert_close(fnd.gaussian_laplace(x, 1.2, mode=mode), snd.gaussian_laplace(x, 1.2, mode=mode),
                 1e-13)
    kw = dict(mode=mode, axes=(0, 2), truncate=3.0)
    assert_close(fnd.gaussian_laplace(x, [1.2, 0.7], **kw),
                 snd.gaussian_laplace(x, [1.2, 0.7], **kw), 1e-13)
    assert_close(fnd.gaussian_gradient_magnitude(x, [1.2, 0.7, 2.0], mode=mode),
                 snd.gaussian_gradient_magnitude(x, [1.2, 0.7, 2.0], mode=mode), 1e-13)
    # (as SciPy's: a single sigma smooths the axes outside axes= too)
    assert_close(fnd.gaussian_gradient_magnitude(x, 1.0, mode=mode, axes=(1,), radius=2),
                 snd.gaussian_gradient_magnitude(x, 1.0, mode=mode, axes=(1,), radius=2), 1e-13)


def test_per_axis_modes_and_generic_filters_with_extra_arguments():
    x = RNG.normal(size=(4, 5, 6))
    modes = ["wrap", "constant", "reflect"]
    assert_close(fnd.sobel(x, 1, mode=modes), snd.sobel(x, 1, mode=modes), 1e-13)
    assert_close(fnd.laplace(x, mode=modes), snd.laplace(x, mode=modes), 1e-13)

    def d2(module):
        def derivative2(x, axis, output, mode, cval, scale, side=1.0):
            return module.correlate1d(x, [scale * side, -2.0 * scale, scale], axis, output,
                                      mode, cval)
        return derivative2
    kw = dict(extra_arguments=(0.5,), extra_keywords={"side": 1.5}, axes=(2, 1))
    assert_close(fnd.generic_laplace(x, d2(fnd), **kw), snd.generic_laplace(x, d2(snd), **kw),
                 1e-13)
    assert_close(fnd.generic_gradient_magnitude(x, d2(fnd), **kw),
                 snd.generic_gradient_magnitude(x, d2(snd), **kw), 1e-13)


def test_linear_filter_derivatives_in_input_weights_and_cval():
    rng = np.random.default_rng(3)
    x, w, w1 = rng.normal(size=(4, 5)), rng.normal(size=(2, 3)), rng.normal(size=4)
    for mode in ("reflect", "constant", "nearest", "mirror", "wrap"):
        for f in (lambda x, w, c: fnd.correlate(x, w, mode=mode, cval=c, origin=(0, -1)),
                  lambda x, w, c: fnd.convolve(x, w, mode=mode, cval=c),
                  lambda x, w, c: fnd.correlate1d(x, w[0], 0, mode=mode, cval=c),
                  lambda x, w, c: fnd.convolve1d(x, w[1], mode=mode, cval=c, origin=1)):
            check_jvp_fd(f, [x, w, 0.3], rng)
            check_dot_product(f, [x, w, 0.3], rng)
    check_second_order(lambda x, w: fnd.correlate(x, w) ** 2, [x, w], rng)
    check_vmap(lambda x, w: fnd.convolve1d(x, w), [rng.normal(size=(3, 4, 5)), w1], [0, None],
               rng)
    check_vmap(lambda x, w: fnd.correlate(x, w), [x, rng.normal(size=(3, 2, 2))], [None, 0], rng)
    check_float32(lambda x: fnd.sobel(x, 0, mode="wrap"), [x], rng)
    # gradient in the weights: the windows of x that each weight multiplies
    line = np.array([1.0, 2.0, 3.0, 4.0])
    grad = fg.grad(lambda w: fnd.correlate1d(line, w, mode="constant")[1])(np.ones(3))
    assert_close(grad, line[:3], 0)


def test_derivative_filter_derivatives_and_the_magnitude_at_zero():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(5, 6))
    for f in (lambda x: fnd.sobel(x, 0, mode="nearest"), lambda x: fnd.prewitt(x),
              lambda x: fnd.laplace(x, mode="mirror"),
              lambda x: fnd.gaussian_laplace(x, [0.8, 1.3]),
              lambda x: fnd.gaussian_gradient_magnitude(x, 1.0, mode="wrap")):
        check_jvp_fd(f, [x], rng)
        check_dot_product(f, [x], rng)
    check_second_order(lambda x: fnd.gaussian_gradient_magnitude(x, 1.0), [x], rng)
    sigma_fd = lambda s: fnd.gaussian_laplace(x, s, radius=4)  # noqa: E731
    check_jvp_fd(sigma_fd, [1.1], rng)
    # a flat image has magnitude 0 everywhere: the derivative there is 0 (PyTorch's norm),
    # not NaN
    flat = np.zeros((4, 4))
    grad = fg.grad(lambda x: fnp.sum(fnd.gaussian_gradient_magnitude(x, 1.0)))(flat)
    assert np.all(np.isfinite(grad)) and np.all(grad == 0)


def test_jit_of_linear_filters():
    x, w = RNG.normal(size=(6, 7)), RNG.normal(size=(3, 2))
    f = fg.jit(lambda x, w: fnd.convolve(x, w, mode="mirror") + fnd.sobel(x) + fnd.laplace(x))
    assert_close(f(x, w), snd.convolve(x, w, mode="mirror") + snd.sobel(x) + snd.laplace(x),
                 1e-13)


def test_linear_filters_bad_input_raises_naming_the_problem():
    x = np.ones((4, 4))
    with pytest.raises(ValueError, match="origin"):
        fnd.correlate1d(x, [1.0, 2.0, 3.0], origin=2)
    with pytest.raises(ValueError, match="origin"):
        fnd.correlate(x, np.ones((3, 2)), origin=(0, 1))
    with pytest.raises(RuntimeError, match="one dimension per axis"):
        fnd.correlate(x, np.ones(3))
    with pytest.raises(RuntimeError, match="non-empty"):
        fnd.correlate1d(x, [])
    with pytest.raises(ValueError, match="mode"):
        fnd.convolve(x, np.ones((2, 2)), mode="clamp")
    with pytest.raises(TypeError, match="output"):
        fnd.sobel(x, output=np.empty((4, 4)))
    with pytest.raises(ValueError, match="out of range"):
        fnd.sobel(x, axis=2)


# --- order statistics and grey morphology ---------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_rank_filters_match_scipy(mode):
    x = RNG.normal(size=(5, 7))
    x[1, 2] = x[1, 3]  # (a tie)
    footprint = np.array([[1, 0, 1], [0, 1, 1]], bool)
    for name in ("minimum_filter1d", "maximum_filter1d"):
        for size in (1, 2, 3, 4):
            for origin in range(-(size // 2), (size - 1) // 2 + 1):
                kw = dict(mode=mode, cval=0.3, origin=origin)
                assert_close(getattr(fnd, name)(x, size, 0, **kw),
                             getattr(snd, name)(x, size, 0, **kw), 0)
    x3 = RNG.normal(size=(4, 5, 6))
    for name in ("minimum_filter", "maximum_filter", "median_filter"):
        ours, scipys = getattr(fnd, name), getattr(snd, name)
        for args, kw in [((x, 3), {}), ((x, (2, 3)), dict(origin=(-1, 1))),
                         ((x,), dict(footprint=footprint)),
                         ((x3, (3, 2)), dict(axes=(2, 0), origin=(-1, 0))),
                         ((x3,), dict(footprint=footprint, axes=(2, 0)))]:
            assert_close(ours(*args, mode=mode, cval=0.2, **kw),
                         scipys(*args, mode=mode, cval=0.2, **kw), 0)
    for rank in (0, 1, 3, -1, -2, 5):
        assert_close(fnd.rank_filter(x, rank, (2, 3), mode=mode, cval=-0.1),
                     snd.rank_filter(x, rank, (2, 3), mode=mode, cval=-0.1), 0)
    for percentile in (0, 10, 50, 99, 100, -20):
        assert_close(fnd.percentile_filter(x, percentile, footprint=footprint, mode=mode),
                     snd.percentile_filter(x, percentile, footprint=footprint, mode=mode), 0)


@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_grey_morphology_matches_scipy(mode):
    x, x3 = RNG.normal(size=(5, 7)), RNG.normal(size=(4, 5, 6))
    footprint = np.array([[1, 0, 1], [0, 1, 1]], bool)
    structure = RNG.normal(size=(2, 3))
    for name in ("grey_erosion", "grey_dilation", "grey_opening", "grey_closing",
                 "morphological_gradient", "morphological_laplace", "white_tophat",
                 "black_tophat"):
        ours, scipys = getattr(fnd, name), getattr(snd, name)
        for args, kw in [((x,), dict(size=(2, 3))), ((x,), dict(footprint=footprint, cval=0.5)),
                         ((x,), dict(structure=structure, origin=(0, -1))),
                         ((x,), dict(footprint=footprint, structure=structure)),
                         ((x3,), dict(structure=structure, axes=(0, 2)))]:
            assert_close(ours(*args, mode=mode, **kw), scipys(*args, mode=mode, **kw), 1e-15)


def test_rank_filters_with_per_axis_modes_and_dtypes():
    x = RNG.normal(size=(4, 5, 6))
    assert_close(fnd.maximum_filter(x, (2, 3, 2), mode=["wrap", "constant", "nearest"]),
                 snd.maximum_filter(x, (2, 3, 2), mode=["wrap", "constant", "nearest"]), 0)
    assert_close(fnd.rank_filter(x, 0, (2, 3), mode=["wrap", "nearest"], axes=(1, 2)),
                 snd.rank_filter(x, 0, (2, 3), mode=["wrap", "nearest"], axes=(1, 2)), 0)
    assert fnd.median_filter(x.astype(np.float32), 3).dtype == np.float32


def test_the_gradient_goes_to_the_one_selected_sample():
    x = np.array([1.0, 5.0, 5.0, 2.0, 0.0])
    # ties: a maximum takes the first of the tied samples in the window
    grad = fg.grad(lambda x: fnd.maximum_filter1d(x, 3)[2])(x)
    assert_close(grad, [0.0, 1.0, 0.0, 0.0, 0.0], 0)
    grad = fg.grad(lambda x: fnd.minimum_filter(x, footprint=[1, 0, 1])[1])(np.array(
        [3.0, 9.0, 3.0]))
    assert_close(grad, [1.0, 0.0, 0.0], 0)
    # a rank takes the sample at that place of the stable sort: [5, 5, 2] sorts to
    # [2, 5(first), 5(second)], so rank 1 is the first 5 and rank 2 the second
    grad = fg.grad(lambda x: fnd.rank_filter(x, 1, 3)[2])(x)
    assert_close(grad, [0.0, 1.0, 0.0, 0.0, 0.0], 0)
    grad = fg.grad(lambda x: fnd.median_filter(x, 4)[2])(x)
    assert_close(grad.sum(), 1.0, 0)
    assert np.count_nonzero(grad) == 1
    # the padding value is selected: the derivative goes to cval
    grad = fg.grad(lambda c: fnd.maximum_filter1d(-np.ones(3), 3, mode="constant",
                                                  cval=c)[0])(0.5)
    assert grad == 1.0
    # and to the structure entry added at the selected place
    grad = fg.grad(lambda s: fnd.grey_dilation(np.array([0.0, 3.0, 0.0]),
                                               structure=s)[1])(np.zeros(3))
    assert_close(grad, [0.0, 1.0, 0.0], 0)


def test_rank_filter_derivatives():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(5, 6))  # (no ties: differentiable)
    for f in (lambda x: fnd.maximum_filter(x, (2, 3), mode="nearest"),
              lambda x: fnd.minimum_filter(x, footprint=[[1, 0], [1, 1]], mode="wrap"),
              lambda x: fnd.median_filter(x, 3),
              lambda x: fnd.percentile_filter(x, 30, size=(3, 2), mode="constant", cval=0.1),
              lambda x: fnd.white_tophat(x, 3), lambda x: fnd.morphological_gradient(x, 2)):
        check_jvp_fd(f, [x], rng)
        check_dot_product(f, [x], rng)
    check_second_order(lambda x: fnd.median_filter(x, 3) ** 2, [x], rng)
    check_vmap(lambda x: fnd.maximum_filter(x, 3), [rng.normal(size=(3, 4, 5))], [0], rng)
    check_float32(lambda x: fnd.rank_filter(x, 2, 3), [x], rng)
    f = fg.jit(lambda x: fnd.median_filter(x, 3) + fnd.grey_closing(x, (2, 2)))
    assert_close(f(x), snd.median_filter(x, 3) + snd.grey_closing(x, (2, 2)), 1e-15)


def test_rank_filters_bad_input_raises_naming_the_problem():
    x = np.ones((4, 4))
    with pytest.raises(RuntimeError, match="rank not within"):
        fnd.rank_filter(x, 9, 3)
    with pytest.raises(RuntimeError, match="percentile"):
        fnd.percentile_filter(x, 101, 3)
    with pytest.raises(RuntimeError, match="size"):
        fnd.median_filter(x)
    with pytest.raises(ValueError, match="all-zero"):
        fnd.maximum_filter(x, footprint=np.zeros((2, 2)))
    with pytest.raises(RuntimeError, match="sequence of modes"):
        fnd.median_filter(x, 3, mode=["wrap", "reflect"])
    with pytest.raises(TypeError, match="complex"):
        fnd.minimum_filter(x + 1j, 3)
    with pytest.raises(ValueError, match="must be specified"):
        fnd.grey_erosion(x)
    with pytest.raises(ValueError, match="origin"):
        fnd.maximum_filter1d(x, 3, origin=2)


# --- Fourier-domain filters ------------------------------------------------------------------

FOURIER = [("fourier_gaussian", 1.3), ("fourier_gaussian", [0.5, 1.0, 1.5]),
           ("fourier_uniform", 2.5), ("fourier_uniform", [0.0, 1.5, 1.5]),
           ("fourier_shift", 0.7), ("fourier_shift", [-1.2, 0.0, 1.2]),
           ("fourier_ellipsoid", 2.2), ("fourier_ellipsoid", [1.1, 2.2, 3.3])]


@pytest.mark.parametrize("shape", [(7,), (6,), (5, 6), (4, 1, 7), (1, 5), (3, 4, 5)])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32, np.complex64])
def test_fourier_filters_match_scipy_over_shapes_dtypes_and_real_transforms(shape, dtype):
    x = RNG.normal(size=shape) + (1j * RNG.normal(size=shape) if dtype in (
        np.complex128, np.complex64) else 0)
    x = x.astype(dtype)
    rtol = 1e-13 if dtype in (np.float64, np.complex128) else 1e-6
    for n, axis in [(-1, -1), (11, -1), (2 * shape[0] - 1, 0), (-1, 0)]:
        for name, p in FOURIER:
            p = p[:len(shape)] if isinstance(p, list) else p
            got, want = getattr(fnd, name)(x, p, n, axis), getattr(snd, name)(x, p, n, axis)
            assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
            scale = np.abs(want).max()
            assert_close(got.real, want.real, rtol, scale=scale, what=f"{name} {n} {axis}")
            assert_close(got.imag, want.imag, rtol, scale=scale, what=f"{name} {n} {axis}")
    assert_close(fnd.fourier_uniform(np.ones(6), -2.0), snd.fourier_uniform(np.ones(6), -2.0), 0)


def test_fourier_filter_derivatives_in_the_transform_and_the_parameters():
    rng = np.random.default_rng(6)
    x = rng.normal(size=(5, 6))
    spectrum = np.fft.fft2(x)
    for name, p in [("fourier_gaussian", np.array([0.8, 1.3])),
                    ("fourier_uniform", np.array([2.0, 1.5])),
                    ("fourier_ellipsoid", np.array([2.0, 3.0])),
                    ("fourier_shift", np.array([0.4, -1.1]))]:
        f = lambda x, p: fnp.real(fnp.fft.ifft2(getattr(fnd, name)(x, p)))  # noqa: E731
        check_jvp_fd(f, [x, p], rng)
        check_dot_product(f, [x, p], rng)
        check_vmap(f, [x, rng.uniform(0.5, 2.0, size=(3, 2))], [None, 0], rng)
    check_second_order(lambda p: fnp.real(fnd.fourier_ellipsoid(spectrum, p)), [np.array(
        [2.0, 3.0])], rng)
    # a shift of the transform is the shifted signal: its derivative in the shift is the
    # signal's derivative, minus, by the spectral derivative
    signal = np.sin(2 * np.pi * np.arange(8) / 8)
    grad = fg.jacfwd(lambda s: fnp.real(fnp.fft.ifft(fnd.fourier_shift(np.fft.fft(signal),
                                                                         s))))(0.0)
    assert_close(grad, -2 * np.pi / 8 * np.cos(2 * np.pi * np.arange(8) / 8), 1e-12)
    # the zero frequency and a zero size: finite derivatives (no 0/0)
    grad = fg.grad(lambda s: fnp.sum(fnd.fourier_uniform(np.ones(6), s)))(0.0)
    assert np.isfinite(grad)


def test_fourier_filters_bad_input_raises_naming_the_problem():
    with pytest.raises(NotImplementedError, match="1-d, 2-d and 3-d"):
        fnd.fourier_ellipsoid(np.ones((2, 2, 2, 2)), 1.0)
    with pytest.raises(RuntimeError, match="one per axis"):
        fnd.fourier_gaussian(np.ones((3, 3)), [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="axis"):
        fnd.fourier_shift(np.ones(3), 1.0, axis=1)


# --- measurements on labels ------------------------------------------------------------------

MEASURES = ["sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum", "maximum",
            "median", "center_of_mass", "extrema", "minimum_position", "maximum_position"]


def assert_same_measure(got, want, what):
    """Same nesting (tuples, lists, object arrays, None), dtypes and values."""
    if want is None:
        assert got is None, what
    elif isinstance(want, (list, tuple)) or (isinstance(want, np.ndarray)
                                             and want.dtype == object):
        assert type(got) is type(want) and len(got) == len(want), what
        for g, w in zip(np.ravel(np.array(got, object)) if isinstance(want, np.ndarray)
                        else got, np.ravel(want) if isinstance(want, np.ndarray) else want):
            assert_same_measure(g, w, what)
    else:
        got, want = np.asarray(got), np.asarray(want)
        assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
        assert_close(got, want, 1e-13, what=str(what), equal_nan=True)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (SciPy's 0/0 for a missing label)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_measurements_match_scipy_over_labels_and_index_forms(dtype):
    rng = np.random.default_rng(7)
    # (distinct values: SciPy's tied positions for an index array follow an unstable sort)
    x = (rng.permutation(42).reshape(6, 7) if dtype == np.int64
         else rng.normal(size=(6, 7)).astype(dtype))
    labels = rng.integers(0, 5, size=(6, 7))
    labels[labels == 3] = 0
    cases = [(None, None), (labels, None), (labels, 2), (labels, [1, 2]),
             (labels, [4, 1, 7, 3, 1]), (labels, np.array([[1, 2], [4, 0]])),
             (labels - 2, [-2, -1, 2, 5]), (labels * 0.5, [0.5, 1.0, 2.0]), (labels[0], [1, 2])]
    for labels_, index in cases:
        for name in MEASURES:
            assert_same_measure(getattr(fnd, name)(x, labels_, index),
                                getattr(snd, name)(x, labels_, index), (name, index))
        if np.ndim(index) < 2:  # (SciPy's histogram fails on a 2-d index)
            assert_same_measure(fnd.histogram(x, -1, 30, 5, labels_, index),
                                snd.histogram(x, -1, 30, 5, labels_, index), ("histogram", index))
    # a scalar label that does not occur: NaN statistics, a None histogram, as SciPy's
    for name in ("sum_labels", "mean", "variance", "median"):
        assert_same_measure(getattr(fnd, name)(x, labels, 3), getattr(snd, name)(x, labels, 3),
                            name)
    assert fnd.histogram(x, 0, 1, 3, labels, 3) is None


def test_one_region_ties_go_to_the_first_element_and_positions_are_scipys():
    x = np.array([[3.0, 1.0, 4.0], [1.0, 5.0, 5.0]])
    for name in ("minimum_position", "maximum_position", "extrema"):
        assert_same_measure(getattr(fnd, name)(x), getattr(snd, name)(x), name)
    assert_close(fg.grad(lambda x: fnd.minimum(x))(x), [[0, 1, 0], [0, 0, 0]], 0)
    assert_close(fg.grad(lambda x: fnd.maximum(x))(x), [[0, 0, 0], [0, 1, 0]], 0)
    # an even count: the median averages the two middle elements, half to each
    assert_close(fg.grad(lambda x: fnd.median(x))(x), [[0.5, 0, 0.5], [0, 0, 0]], 0)


def test_measurement_derivatives():
    rng = np.random.default_rng(8)
    x = rng.normal(size=(5, 6))
    labels = rng.integers(0, 4, size=(5, 6))
    for index in (None, 2, [1, 3, 2]):
        for name in ("sum_labels", "mean", "variance", "standard_deviation", "minimum",
                     "maximum", "median"):
            f = lambda x: getattr(fnd, name)(x, labels, index)  # noqa: E731
            check_jvp_fd(f, [x], rng)
            check_dot_product(f, [x], rng)
        f = lambda x: fnp.stack(fnd.center_of_mass(x + 3.0, labels, 2))  # noqa: E731
        check_jvp_fd(f, [x], rng)
    check_second_order(lambda x: fnd.variance(x, labels, [1, 2]), [x], rng)
    check_vmap(lambda x: fnd.mean(x, labels, [1, 2, 3]), [rng.normal(size=(3, 5, 6))], [0], rng)
    check_vmap(lambda x: fnd.median(x, labels, [1, 2]), [rng.normal(size=(3, 5, 6))], [0], rng)
    f = fg.jit(lambda x: fnd.maximum(x, labels, [0, 1]) + fnd.sum_labels(x, labels, [2, 3]))
    assert_close(f(x), snd.maximum(x, labels, [0, 1]) + snd.sum_labels(x, labels, [2, 3]), 1e-13)
    # a constant region: its standard deviation's derivative is 0 there, not NaN
    grad = fg.grad(lambda x: fnd.standard_deviation(x, [1, 1, 2], 1))(np.array([2.0, 2.0, 5.0]))
    assert_close(grad, [0.0, 0.0, 0.0], 0)


def test_measurements_bad_input_raises_naming_the_problem():
    x = np.ones((3, 3))
    with pytest.raises(ValueError, match="broadcast"):
        fnd.mean(x, np.ones((2, 2), int))
    with pytest.raises(ValueError, match="empty"):
        fnd.minimum(x, np.zeros((3, 3), int), 1)
    with pytest.raises(TypeError, match="complex"):
        fnd.median(x + 1j)
    with pytest.raises(fg.errors.ConcretizationError, match="positions"):
        fg.jit(lambda x: fnp.asarray(fnd.maximum_position(x)))(x)


def test_label_matches_scipy_on_random_masks_and_a_spiral():
    rng = np.random.default_rng(10)
    for shape in [(7,), (6, 9), (5, 6, 7), (30, 40), (1,), (0, 3)]:
        for p in (0.3, 0.5, 0.7):
            x = (rng.uniform(size=shape) < p) * rng.integers(1, 5, size=shape)
            for structure in (None, np.ones((3,) * len(shape), bool)):
                got, want = fnd.label(x, structure), snd.label(x, structure)
                assert got[1] == want[1] and got[0].dtype == want[0].dtype
                assert np.array_equal(got[0], want[0])
    spiral = np.zeros((15, 15), int)
    spiral[0, :] = spiral[:, 14] = spiral[14, :] = spiral[2:, 0] = 1
    spiral[2, :12] = spiral[2:12, 12] = 1
    assert np.array_equal(fnd.label(spiral)[0], snd.label(spiral)[0])
    assert fnd.label(spiral, output=np.int64)[0].dtype == np.int64
    with pytest.raises(ValueError, match="centrosymmetric"):
        fnd.label(spiral, [[1, 1, 0], [0, 1, 0], [0, 0, 0]])
    with pytest.raises(ValueError, match="equal to 3"):
        fnd.label(spiral, np.ones((2, 2)))

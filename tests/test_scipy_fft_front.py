"""funcgrad.scipy.fft's Fourier transforms and helpers against scipy.fft: values and dtypes
(float32 and float16 kept single precision, as SciPy's and unlike NumPy 1's), SciPy's
argument handling (``s`` with -1, unique axes, ``workers``, ``plan``), derivatives against
central differences, both modes, second order, vmap and jit, and the fast Hankel
transform."""
import warnings

import numpy as np
import pytest

scipy_fft = pytest.importorskip("scipy.fft")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.fft as ffft  # noqa: E402
from helpers import (check_dot_product, check_jvp_fd, check_second_order,  # noqa: E402
                     check_vmap)

RNG = np.random.default_rng(20)
NORMS = [None, "backward", "ortho", "forward"]
ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_AXES = ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]
TWO_AXES = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"]
REAL_INPUT = {"rfft", "ihfft", "rfftn", "ihfftn", "rfft2", "ihfft2"}


def close(got, want, rtol=1e-13):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (
        got.shape, got.dtype, want.shape, want.dtype)
    scale = np.max(np.abs(want)) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=0, atol=rtol * scale)


def signal(shape, complex_=True, dtype=np.float64):
    x = RNG.standard_normal(shape)
    if complex_:
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(np.result_type(x.dtype, dtype))


@pytest.mark.parametrize("name", ONE_AXIS)
def test_one_axis_transforms_match_scipy(name):
    for norm in NORMS:
        for n, axis in [(None, -1), (5, 0), (8, 1), (1, -1), (13, 1)]:
            x = signal((4, 7), name not in REAL_INPUT)
            close(getattr(ffft, name)(x, n, axis, norm), getattr(scipy_fft, name)(x, n, axis, norm))


@pytest.mark.parametrize("name", N_AXES + TWO_AXES)
def test_n_axes_transforms_match_scipy(name):
    x = signal((3, 4, 6), name not in REAL_INPUT)
    cases = [{}, {"s": (5, 7)}, {"s": (-1, 3), "axes": (2, 0)}, {"axes": 1}, {"s": [4]},
             {"axes": (-1, -3)}]
    for kw in cases:
        if name.endswith("2") and (np.ndim(kw.get("axes", (0, 0))) == 0
                                   or len(kw.get("s", (0, 0))) != 2):
            continue
        for norm in NORMS:
            close(getattr(ffft, name)(x, norm=norm, **kw),
                  getattr(scipy_fft, name)(x, norm=norm, **kw))


@pytest.mark.parametrize("name", ONE_AXIS + N_AXES)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.complex64, np.int32, np.bool_])
def test_dtypes_are_scipys(name, dtype):
    # SciPy computes float16 in single precision and keeps it there: irfft(float16) is
    # float32 (NumPy's is float16), rfft(float32) complex64 (NumPy 1's was complex128)
    if np.dtype(dtype).kind == "c" and name in REAL_INPUT:
        return
    x = (RNG.standard_normal((2, 6)) * 3).astype(dtype)
    want = getattr(scipy_fft, name)(x)
    got = getattr(ffft, name)(x)
    close(got, want, 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-13)


def test_docstring_examples_match_scipy():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    close(ffft.fft(x), scipy_fft.fft(x))
    close(ffft.irfft(np.array([10.0, -2 + 2j, -2.0])), scipy_fft.irfft([10.0, -2 + 2j, -2.0]))
    close(ffft.hfft(np.array([1.0, 2.0, 3.0])), scipy_fft.hfft([1.0, 2.0, 3.0]))
    close(ffft.fftfreq(5, 2.0), scipy_fft.fftfreq(5, 2.0))
    close(ffft.rfftfreq(8, 0.1), scipy_fft.rfftfreq(8, 0.1))
    assert ffft.fftshift is fnp.fft.fftshift and ffft.ifftshift is fnp.fft.ifftshift
    close(ffft.fftshift(ffft.fftfreq(6)), scipy_fft.fftshift(scipy_fft.fftfreq(6)))


def test_next_and_prev_fast_len_are_scipys():
    targets = list(range(0, 400)) + [1021, 10 ** 6 + 3, 10 ** 9 + 7, 2 ** 40 + 1, 3 ** 30,
                                     7 ** 19 - 5]
    for real in (False, True):
        got = [(ffft.next_fast_len(t, real), ffft.prev_fast_len(t, real)) for t in targets]
        want = [(scipy_fft.next_fast_len(t, real), scipy_fft.prev_fast_len(t, real))
                for t in targets]
        assert got == want
    assert ffft.next_fast_len(np.int64(13)) == 14
    with pytest.raises(ValueError, match="positive"):
        ffft.next_fast_len(-1)
    with pytest.raises(TypeError):
        ffft.next_fast_len(2.5)


def test_argument_errors_name_the_problem():
    x = np.ones((2, 3))
    with pytest.raises(NotImplementedError, match="plan"):
        ffft.fft(x, plan=object())
    with pytest.raises(NotImplementedError, match="plan"):
        ffft.rfft2(x, plan="p")
    with pytest.raises(ValueError, match="workers"):
        ffft.fft(x, workers=0)
    with pytest.raises(ValueError, match="norm"):
        ffft.ifft(x, norm="unitary")
    with pytest.raises(ValueError, match="unique"):
        ffft.fftn(x, axes=(0, -2))
    with pytest.raises(ValueError, match="same length"):
        ffft.fftn(x, s=(2, 2), axes=(0,))
    with pytest.raises(ValueError, match="more axes"):
        ffft.fftn(x, s=(2, 2, 2))
    with pytest.raises(ValueError, match="data points"):
        ffft.fft(x, n=0)
    with pytest.raises(ValueError, match="data points"):
        ffft.irfft(np.ones(1))
    with pytest.raises(TypeError, match="real sequence"):
        ffft.rfft(x + 1j)
    with pytest.raises(TypeError, match="real sequence"):
        ffft.ihfftn(x + 1j)
    with pytest.raises(IndexError, match="out of bounds"):
        ffft.fft(x, axis=2)
    with pytest.raises(IndexError, match="0-d"):
        ffft.fft(np.array(1.0))
    with pytest.raises(ValueError, match="at least 1 axis"):
        ffft.rfftn(np.array(1.0))
    with pytest.raises(TypeError, match="numeric"):
        ffft.fft(np.array(["a", "b"]))
    assert ffft.fft(x, workers=-1, overwrite_x=True).shape == (2, 3)  # accepted, ignored


def _as_real(f, complex_input):
    """``f`` on real arguments with real outputs, for the float-only checkers: a complex
    input is given as its real and imaginary parts, a complex output as both stacked."""
    def real_f(*parts):
        x = parts[0] + 1j * parts[1] if complex_input else parts[0]
        y = f(x)
        return fnp.stack([fnp.real(y), fnp.imag(y)]) if np.iscomplexobj(y) else y
    return real_f


@pytest.mark.parametrize("name, kw", [("fft", {"n": 6}), ("ifft", {"norm": "ortho"}),
                                      ("rfft", {"n": 5, "axis": 0}), ("irfft", {"n": 7}),
                                      ("hfft", {}), ("ihfft", {"norm": "forward"}),
                                      ("fftn", {"s": (3, 5)}), ("irfftn", {}),
                                      ("hfft2", {"s": (2, 4)}), ("ihfftn", {"axes": 0})])
def test_derivatives_match_finite_differences_in_every_mode(name, kw):
    complex_input = name not in REAL_INPUT
    f = _as_real(lambda x: getattr(ffft, name)(x, **kw), complex_input)
    args = [RNG.standard_normal((2, 3, 4)) for _ in range(2 if complex_input else 1)]
    check_jvp_fd(f, args, RNG)
    check_dot_product(f, args, RNG)
    check_second_order(lambda *a: f(*a) ** 3, args, RNG)
    check_vmap(f, args, [0] * len(args), RNG)


def test_gradient_of_power_spectrum_is_parseval_and_jit_agrees():
    x = RNG.standard_normal(8)

    def energy(v):
        return fnp.sum(fnp.abs(ffft.rfft(v, norm="ortho")[1:4]) ** 2)

    g = fg.grad(energy)(x)
    # the energy of the interior frequencies of an even-length rfft: half of the signal's
    # energy without the DC and Nyquist components, whose gradient is the projected signal
    spectrum = np.fft.rfft(x, norm="ortho")
    spectrum[[0, 4]] = 0.0
    close(g, np.fft.irfft(spectrum, 8, norm="ortho"), 1e-12)
    close(fg.jit(fg.grad(energy))(x), g, 1e-13)
    g32 = fg.grad(energy)(x.astype(np.float32))
    assert g32.dtype == np.float32


def test_fftfreq_differentiates_in_the_spacing():
    close(fg.grad(lambda d: fnp.sum(ffft.fftfreq(5, d) ** 2))(0.5),
          np.sum(np.fft.fftfreq(5) ** 2) * -2 / 0.5 ** 3)


@pytest.mark.parametrize("n", [6, 7])
@pytest.mark.parametrize("mu, offset, bias", [(0.0, 0.0, 0.0), (0.5, 0.3, 0.0),
                                              (2.0, 0.1, 0.4), (-0.5, 0.0, -0.3)])
def test_fht_and_ifht_match_scipy_and_differentiate(n, mu, offset, bias):
    a = RNG.standard_normal((2, n))
    close(ffft.fht(a, 0.2, mu, offset, bias), scipy_fft.fht(a, 0.2, mu, offset, bias), 1e-12)
    close(ffft.ifht(a, 0.2, mu, offset, bias), scipy_fft.ifht(a, 0.2, mu, offset, bias), 1e-12)
    check_jvp_fd(lambda v: ffft.fht(v, 0.2, mu, offset, bias), [a], RNG)
    check_dot_product(lambda v: ffft.ifht(v, 0.2, mu, offset, bias), [a], RNG)


def test_fht_docstring_example_keeps_float32_and_warns_when_singular():
    r = np.logspace(-2, 2, 8)
    a = r * np.exp(-r ** 2 / 2)
    close(ffft.fht(a, np.log(r[1] / r[0]), 0.5), scipy_fft.fht(a, np.log(r[1] / r[0]), 0.5),
          1e-12)
    close(ffft.fht(a.astype(np.float32), 0.1, 0.0),
          scipy_fft.fht(a.astype(np.float32), 0.1, 0.0), 1e-5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = scipy_fft.fht(np.ones(4), 0.2, 0.0, 0.0, -1.0)
    with pytest.warns(RuntimeWarning, match="singular transform"):
        got = ffft.fht(np.ones(4), 0.2, 0.0, 0.0, -1.0)
    close(got, want, 1e-12)
    assert ffft.fhtoffset(0.1, 2.0, initial=0.5) == scipy_fft.fhtoffset(0.1, 2.0, initial=0.5)
    with pytest.raises(TypeError, match="real number"):
        ffft.fht(a, np.array([0.1, 0.2]), 0.5)

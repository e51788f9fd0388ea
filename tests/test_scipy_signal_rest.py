"""The rest of ``scipy.signal`` and ``scipy.fftpack``: the chirp z-transform, ``ShortTimeFFT``,
COLA/NOLA, Lomb-Scargle, ``envelope``, ``oaconvolve``, FIR design (``firls``, ``remez``,
``minimum_phase``), sequences and small designs, the B-spline filters, and fftpack's
pseudo-differential operators, packed real transforms and helpers.  Values against SciPy's; the linear transforms pass the
dot-product test and their tangents are the transform of the tangent; the nonlinear ones
against central differences of SciPy's values; float32, one ``jit``/``vmap`` check per
family, and the errors."""
import numpy as np
import pytest
import scipy.fftpack as sfp
import scipy.signal as ss

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.fftpack as ffp
import funcgrad.scipy.signal as fss
from helpers import assert_close as _assert_close
from helpers import check_dot_product

RNG = np.random.default_rng(20261205)
EPS = 1e-6


def _pair(a):
    a = np.asarray(a)
    return np.stack([a.real, a.imag]) if a.dtype.kind == "c" else a


def assert_close(actual, expected, rtol, atol=0.0, what=""):
    """helpers.assert_close on the real and imaginary parts (it compares real values)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, (what, actual.shape, expected.shape)
    _assert_close(_pair(actual.astype(np.result_type(actual, expected))),
                  _pair(expected.astype(np.result_type(actual, expected))), rtol, atol,
                  what=what)


def _as_real(f):
    """``f`` with its complex output as one real array (the checkers need real ones)."""
    def g(*args):
        out = f(*args)
        return fnp.stack([fnp.real(out), fnp.imag(out)]) if out.dtype.kind == "c" else out
    return g


# --- the chirp z-transform ---------------------------------------------------------------

CZT_CASES = [
    ("czt", {}), ("czt", {"m": 9}), ("czt", {"m": 4, "w": 0.98 * np.exp(-0.3j),
                                             "a": 0.9 * np.exp(0.2j)}),
    ("czt", {"m": 5, "w": 1.01 + 0.2j, "a": 2.0}), ("zoom_fft", {"fn": 0.5}),
    ("zoom_fft", {"fn": [0.1, 0.7], "m": 9}),
    ("zoom_fft", {"fn": [0.1, 0.7], "m": 9, "endpoint": True, "fs": 3.0})]


@pytest.mark.parametrize("name,kwargs", CZT_CASES, ids=[f"{n}{k}" for n, k in CZT_CASES])
def test_czt_and_zoom_fft_equal_scipys_along_any_axis(name, kwargs):
    x = RNG.normal(size=(3, 7)) + 1j * RNG.normal(size=(3, 7))
    for axis in (-1, 0):
        arr = x if axis == -1 else x.T
        got = getattr(fss, name)(arr, axis=axis, **kwargs)
        assert got.dtype == np.complex128
        assert_close(got, getattr(ss, name)(arr, axis=axis, **kwargs), 1e-12, what=name)


def test_czt_classes_and_points_equal_scipys():
    x = RNG.normal(size=6)
    for ours, theirs in ((fss.CZT(6, 8, 0.99 * np.exp(-0.5j), 1.1j),
                          ss.CZT(6, 8, 0.99 * np.exp(-0.5j), 1.1j)),
                         (fss.ZoomFFT(6, [0.2, 0.9], 5, fs=2.5, endpoint=True),
                          ss.ZoomFFT(6, [0.2, 0.9], 5, fs=2.5, endpoint=True))):
        assert_close(ours(x), theirs(x), 1e-12, what=type(ours).__name__)
        assert_close(ours.points(), theirs.points(), 1e-13)
        assert ours.m == theirs.m and ours.n == theirs.n
        assert abs(ours.w - theirs.w) < 1e-15 and abs(ours.a - theirs.a) < 1e-15
    for args in ((5,), (4, 0.9 + 0.1j, 2j), (3, 0.5, 2.0)):
        got, want = fss.czt_points(*args), ss.czt_points(*args)
        assert np.asarray(got).dtype == want.dtype
        assert_close(got, want, 1e-14, what=f"czt_points{args}")


def test_czt_is_linear_in_x_exactly():
    x = RNG.normal(size=(2, 5))
    f = _as_real(lambda x: fss.czt(x, 7, 0.95 * np.exp(-0.4j), 1.05))
    check_dot_product(f, [x])
    v = RNG.normal(size=x.shape)
    _, tangent = fg.jvp(f, (x,), (v,))
    assert_close(tangent, f(v), 1e-12, what="the tangent of a linear map is the map")
    g = _as_real(lambda x: fss.zoom_fft(x, [0.2, 0.6], 4, axis=0))
    check_dot_product(g, [RNG.normal(size=(5, 3))])


def test_czt_points_differentiate_in_w_and_a():
    w, a, dw, da = 0.9, 1.5, 0.7, -0.3
    out, tangent = fg.jvp(lambda w, a: fss.czt_points(4, w, a), (w, a), (dw, da))
    assert_close(out, ss.czt_points(4, w, a), 1e-14)
    fd = (ss.czt_points(4, w + EPS * dw, a + EPS * da)
          - ss.czt_points(4, w - EPS * dw, a - EPS * da)) / (2 * EPS)
    assert_close(tangent, fd, 1e-7)
    # and along a complex ratio (holomorphic in w: the tangent of w^-k is -k w^(-k-1) dw)
    w = 0.9 * np.exp(0.3j)
    _, tangent = fg.jvp(lambda w: fss.czt_points(4, w), (w,), (1.0 + 0j,))
    assert_close(tangent, -np.arange(4) * w ** (-np.arange(4) - 1.0), 1e-13)


def test_czt_keeps_single_precision_and_runs_under_jit_and_vmap():
    x = RNG.normal(size=(3, 8))
    got = fss.czt(x.astype(np.float32), 5)
    assert got.dtype == np.complex64
    assert_close(got, ss.czt(x, 5), 1e-5)
    transform = fss.ZoomFFT(8, [0.1, 0.5], 6)
    jitted = fg.jit(lambda x: fnp.abs(transform(x)))
    assert_close(jitted(x), np.abs(ss.zoom_fft(x, [0.1, 0.5], 6)), 1e-12)
    assert_close(fg.vmap(lambda r: fnp.abs(fss.czt(r, 5)))(x), np.abs(ss.czt(x, 5)), 1e-12)


def test_czt_errors_name_the_problem():
    with pytest.raises(ValueError, match="defined for length 4"):
        fss.CZT(4)(np.ones(5))
    with pytest.raises(ValueError, match="output points"):
        fss.czt(np.ones(3), m=0)
    with pytest.raises(ValueError, match="2-length"):
        fss.zoom_fft(np.ones(3), [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="m >= 2"):
        fss.zoom_fft(np.ones(3), [0.1, 0.2], m=1, endpoint=True)
    with pytest.raises(TypeError, match="w is a traced value"):
        fg.grad(lambda w: fnp.abs(fss.czt(np.ones(3), w=w)[1]))(0.9)


# --- ShortTimeFFT ---------------------------------------------------------------------------

STFT_CASES = [  # (window, hop, options)
    (np.hanning(8), 3, {}), (np.hanning(7), 2, {"fft_mode": "twosided", "mfft": 11}),
    (np.hanning(7), 2, {"fft_mode": "centered", "phase_shift": None}),
    (np.r_[0, 0, 1, 2, 1, 0.0], 1, {"fft_mode": "onesided2X", "scale_to": "psd",
                                     "phase_shift": 2}),
    (np.ones(5), 5, {"fft_mode": "onesided2X", "scale_to": "magnitude", "mfft": 8})]


@pytest.mark.parametrize("case", range(len(STFT_CASES)))
def test_short_time_fft_equals_scipys(case):
    win, hop, options = STFT_CASES[case]
    ours, theirs = (m.ShortTimeFFT(win, hop, 2.0, **options) for m in (fss, ss))
    x = RNG.normal(size=(2, 13))
    for kwargs in ({}, {"padding": "odd", "k_offset": 1}, {"p0": 0, "p1": 2}):
        got = ours.stft(x, **kwargs)
        assert got.dtype == np.complex128
        assert_close(got, theirs.stft(x, **kwargs), 1e-12, what=f"stft {kwargs}")
    assert_close(ours.stft(x.T, axis=0), theirs.stft(x.T, axis=0), 1e-12, what="axis 0")
    assert_close(ours.stft_detrend(x, "linear"), theirs.stft_detrend(x, "linear"), 1e-12)
    assert_close(ours.spectrogram(x), theirs.spectrogram(x), 1e-12, what="spectrogram")
    assert_close(ours.spectrogram(x, x[::-1]), theirs.spectrogram(x, x[::-1]), 1e-12)
    S = theirs.stft(x)
    assert_close(ours.istft(S), theirs.istft(S), 1e-12, what="istft")
    assert_close(ours.istft(S, 0, 11), theirs.istft(S, 0, 11), 1e-12, what="istft k1")
    assert_close(ours.dual_win, theirs.dual_win, 1e-14)
    for name in ("p_min", "k_min", "lower_border_end", "f_pts", "delta_t", "delta_f",
                 "m_num_mid", "fac_magnitude", "fac_psd", "scaling", "invertible"):
        assert getattr(ours, name) == pytest.approx(getattr(theirs, name)), name
    for name in ("p_max", "k_max", "p_num", "upper_border_begin"):
        assert getattr(ours, name)(13) == getattr(theirs, name)(13), name
    assert_close(ours.t(13), theirs.t(13), 1e-15)
    assert_close(ours.f, theirs.f, 1e-15)
    if ours.fft_mode != "twosided":
        assert ours.extent(13, "ft", True) == pytest.approx(theirs.extent(13, "ft", True))


def test_short_time_fft_constructors_and_dual_windows_equal_scipys():
    win = np.hanning(8) + 0.1
    for scale_to in (None, "psd", "unitary"):
        ours = fss.ShortTimeFFT.from_win_equals_dual(win, 2, 1.0, scale_to=scale_to)
        theirs = ss.ShortTimeFFT.from_win_equals_dual(win, 2, 1.0, scale_to=scale_to)
        assert_close(ours.win, theirs.win, 1e-14)
        assert_close(ours.dual_win, theirs.dual_win, 1e-14)
    assert_close(fss.ShortTimeFFT.from_dual(win, 3, 1.0).win,
                 ss.ShortTimeFFT.from_dual(win, 3, 1.0).win, 1e-14)
    assert_close(fss.ShortTimeFFT.from_window(("kaiser", 3.0), 2.0, 9, 4).win,
                 ss.ShortTimeFFT.from_window(("kaiser", 3.0), 2.0, 9, 4).win, 1e-14)
    for desired in (None, np.linspace(0.5, 1.0, 8)):
        for scaled in (True, False):
            got = fss.closest_STFT_dual_window(win, 3, desired, scaled=scaled)
            want = ss.closest_STFT_dual_window(win, 3, desired, scaled=scaled)
            assert_close(got[0], want[0], 1e-13)
            assert got[1] == pytest.approx(want[1], rel=1e-13)


def test_short_time_fft_differentiates_in_the_signal():
    ours = fss.ShortTimeFFT(np.hanning(6), 2, 1.0, fft_mode="onesided2X", scale_to="psd")
    theirs = ss.ShortTimeFFT(np.hanning(6), 2, 1.0, fft_mode="onesided2X", scale_to="psd")
    x = RNG.normal(size=10)
    check_dot_product(_as_real(ours.stft), [x])
    S = theirs.stft(x)
    parts = np.stack([S.real, S.imag])
    check_dot_product(lambda p: ours.istft(p[0] + 1j * p[1]), [parts])
    weights = RNG.uniform(size=S.shape)
    v = RNG.normal(size=x.shape)
    _, tangent = fg.jvp(lambda x: fnp.sum(ours.spectrogram(x) * weights), (x,), (v,))
    fd = (np.sum(theirs.spectrogram(x + EPS * v) * weights)
          - np.sum(theirs.spectrogram(x - EPS * v) * weights)) / (2 * EPS)
    assert tangent == pytest.approx(fd, rel=1e-7)


def test_short_time_fft_single_precision_and_jit():
    SFT = fss.ShortTimeFFT(np.hanning(8), 4, 1.0)
    x = RNG.normal(size=(3, 16))
    got = SFT.stft(x.astype(np.float32))
    assert got.dtype == np.complex64
    assert_close(got, ss.ShortTimeFFT(np.hanning(8), 4, 1.0).stft(x), 1e-5)
    assert SFT.istft(got).dtype == np.float32
    assert_close(fg.jit(SFT.spectrogram)(x), SFT.spectrogram(x), 1e-12)


def test_short_time_fft_errors_name_the_problem():
    with pytest.raises(TypeError, match="traced"):
        fg.grad(lambda w: fnp.sum(fnp.abs(fss.ShortTimeFFT(w, 2, 1.0).stft(np.ones(8)))))(
            np.ones(4))
    with pytest.raises(ValueError, match="hop"):
        fss.ShortTimeFFT(np.ones(4), 0, 1.0)
    with pytest.raises(ValueError, match="scale_to"):
        fss.ShortTimeFFT(np.ones(4), 2, 1.0, fft_mode="onesided2X")
    with pytest.raises(ValueError, match="Complex-valued x"):
        fss.ShortTimeFFT(np.ones(4), 2, 1.0).stft(np.ones(8) * 1j)
    with pytest.raises(ValueError, match="not invertible"):
        fss.ShortTimeFFT(np.ones(2), 3, 1.0).dual_win
    with pytest.raises(ValueError, match="f_pts"):
        fss.ShortTimeFFT(np.ones(4), 2, 1.0).istft(np.ones((4, 5), complex))


# --- COLA/NOLA, Lomb-Scargle, envelope, overlap-add convolution -----------------------------

def test_check_cola_and_nola_equal_scipys():
    for window, nperseg, noverlap in (("hann", 8, 4), ("hann", 8, 3), (("tukey", 0.5), 10, 5),
                                      (np.ones(4), 4, 2), ("boxcar", 5, 0),
                                      (np.array([1.0, 0, 0, 1]), 4, 1)):
        for name in ("check_COLA", "check_NOLA"):
            assert getattr(fss, name)(window, nperseg, noverlap) == getattr(ss, name)(
                window, nperseg, noverlap), (name, window, nperseg, noverlap)
    with pytest.raises(ValueError, match="noverlap must be less than nperseg"):
        fss.check_COLA("hann", 4, 4)


LOMB_T = np.sort(RNG.uniform(0, 10, 12))
LOMB_Y = np.sin(1.3 * LOMB_T) + 0.3 * RNG.normal(size=12) + 0.5
LOMB_W = RNG.uniform(0.2, 1.0, 12)
LOMB_F = np.linspace(0.3, 3.0, 4)


@pytest.mark.parametrize("normalize,floating_mean,weighted", [
    (False, False, False), (True, True, True), ("amplitude", True, False),
    ("power", False, True)])
def test_lombscargle_values_and_derivatives_against_scipy(normalize, floating_mean, weighted):
    def ours(t, y, f, w):
        return _as_real(lambda t, y, f, w: fss.lombscargle(
            t, y, f, normalize=normalize, weights=w if weighted else None,
            floating_mean=floating_mean))(t, y, f, w)

    def theirs(t, y, f, w):
        return _pair(ss.lombscargle(t, y, f, normalize=normalize,
                                    weights=w if weighted else None,
                                    floating_mean=floating_mean))
    args = (LOMB_T, LOMB_Y, LOMB_F, LOMB_W)
    dirs = tuple(RNG.normal(size=a.shape) for a in args)
    out, tangent = fg.jvp(ours, args, dirs)
    assert_close(out, theirs(*args), 1e-11, what="value")
    plus = theirs(*[a + EPS * d for a, d in zip(args, dirs)])
    minus = theirs(*[a - EPS * d for a, d in zip(args, dirs)])
    assert_close(tangent, (plus - minus) / (2 * EPS), 1e-6, 1e-7, what="derivative")


def test_lombscargle_precenter_float32_and_errors():
    assert_close(fss.lombscargle(LOMB_T, LOMB_Y, LOMB_F, True),
                 fss.lombscargle(LOMB_T, LOMB_Y - LOMB_Y.mean(), LOMB_F), 1e-13)
    got = fss.lombscargle(*(a.astype(np.float32) for a in (LOMB_T, LOMB_Y, LOMB_F)))
    assert got.dtype == np.float32
    assert_close(got, ss.lombscargle(LOMB_T, LOMB_Y, LOMB_F), 1e-4)
    with pytest.raises(ValueError, match="equal non-zero length"):
        fss.lombscargle(LOMB_T, LOMB_Y[:-1], LOMB_F)
    with pytest.raises(ValueError, match="non-negative"):
        fss.lombscargle(LOMB_T, LOMB_Y, LOMB_F, weights=-LOMB_W)
    with pytest.raises(ValueError, match="amplitude"):
        fss.lombscargle(LOMB_T, LOMB_Y, LOMB_F, normalize="other")


ENVELOPE_CASES = [  # (length, complex, bp_in, n_out, squared, residual)
    (16, False, (1, None), None, False, "lowpass"), (17, False, (2, 6), 12, True, "all"),
    (16, False, (-3, 4), 21, False, "lowpass"), (16, True, (None, None), 8, False, "all"),
    (17, True, (-3, 4), None, True, "lowpass"), (17, False, (None, -1), None, False, None)]


@pytest.mark.parametrize("case", ENVELOPE_CASES, ids=[str(c) for c in ENVELOPE_CASES])
def test_envelope_equals_scipys_and_differentiates(case):
    n, cplx, bp_in, n_out, squared, residual = case
    z = RNG.normal(size=(2, n)) + (1j * RNG.normal(size=(2, n)) if cplx else 0)
    options = dict(n_out=n_out, squared=squared, residual=residual)
    want = ss.envelope(z, bp_in, **options)
    assert_close(fss.envelope(z, bp_in, **options), want, 1e-12)
    assert_close(fss.envelope(z.T, bp_in, axis=0, **options),
                 ss.envelope(z.T, bp_in, axis=0, **options), 1e-12)
    if not cplx:
        v = RNG.normal(size=z.shape)
        _, tangent = fg.jvp(lambda z: fss.envelope(z, bp_in, **options), (z,), (v,))
        fd = (ss.envelope(z + EPS * v, bp_in, **options)
              - ss.envelope(z - EPS * v, bp_in, **options)) / (2 * EPS)
        assert_close(tangent, fd, 1e-6, 1e-7)


def test_envelope_float32_and_jit():
    z = RNG.normal(size=(3, 16))
    got = fss.envelope(z.astype(np.float32))
    assert got.dtype == np.float32
    assert_close(got, ss.envelope(z), 1e-5)
    assert_close(fg.jit(lambda z: fss.envelope(z, (1, 6)))(z), ss.envelope(z, (1, 6)), 1e-12)
    with pytest.raises(ValueError, match="bp_in"):
        fss.envelope(z, (6, 2))


OA_CASES = [((20,), (5,), None), ((5,), (20,), None), ((7, 9), (3, 4), 1),
            ((7, 1), (3, 4), None), ((4, 5, 6), (4, 3, 1), [1, 2])]


@pytest.mark.parametrize("s1,s2,axes", OA_CASES, ids=[str(c) for c in OA_CASES])
def test_oaconvolve_equals_scipys(s1, s2, axes):
    a, b = RNG.normal(size=s1), RNG.normal(size=s2)
    for mode in ("full", "same", "valid"):
        try:
            want = ss.oaconvolve(a, b, mode, axes)
        except ValueError:
            with pytest.raises(ValueError):
                fss.oaconvolve(a, b, mode, axes)
            continue
        assert_close(fss.oaconvolve(a, b, mode, axes), want, 1e-12, what=mode)


def test_oaconvolve_is_bilinear_and_choose_conv_method_is_scipys():
    a, b = RNG.normal(size=(9,)), RNG.normal(size=(4,))
    check_dot_product(lambda a, b: fss.oaconvolve(a, b, "same"), [a, b])
    assert fss.oaconvolve(a.astype(np.float32), b.astype(np.float32)).dtype == np.float32
    for x, h, mode in ((np.ones(10), np.ones(3), "full"), (np.ones(9000), np.ones(900), "same"),
                       (np.ones((40, 40)), np.ones((9, 9)), "valid"),
                       (np.full(3000, 2 ** 40), np.full(3000, 2 ** 20), "full")):
        assert fss.choose_conv_method(x, h, mode) == ss.choose_conv_method(x, h, mode)


# --- FIR design: firls, remez, minimum_phase ---------------------------------------------

FIRLS_CASES = [(5, [0.0, 0.3, 0.5, 1.0], [1.0, 1.0, 0.0, 0.0], None, None),
               (31, [0.0, 0.2, 0.3, 0.6, 0.7, 1.0], [0.0, 0.0, 1.0, 0.5, 0.0, 0.0],
                [1.0, 3.0, 1.0], None),
               (21, [0.0, 1.0, 2.0, 4.0], [1.0, 1.0, 0.0, 0.0], None, 8.0)]


@pytest.mark.parametrize("case", range(len(FIRLS_CASES)))
def test_firls_equals_scipys_and_differentiates_in_bands_gains_and_weights(case):
    numtaps, bands, desired, weight, fs = FIRLS_CASES[case]
    bands, desired = np.array(bands), np.array(desired)
    weight = np.ones(len(bands) // 2) if weight is None else np.array(weight)

    def ours(b, d, w):
        return fss.firls(numtaps, b, d, weight=w, fs=fs)

    def theirs(b, d, w):
        return ss.firls(numtaps, b, d, weight=w, fs=fs)
    args = (bands, desired, weight)
    # (inner band edges only, the outer ones sit on 0 and Nyquist; non-zero gains only,
    # SciPy refuses negative ones)
    dirs = (np.r_[0, RNG.normal(size=len(bands) - 2), 0],
            RNG.normal(size=desired.shape) * (desired > 0), RNG.normal(size=weight.shape))
    out, tangent = fg.jvp(ours, args, dirs)
    assert_close(out, theirs(*args), 1e-11, what="firls value")
    plus = theirs(*[a + EPS * d for a, d in zip(args, dirs)])
    minus = theirs(*[a - EPS * d for a, d in zip(args, dirs)])
    assert_close(tangent, (plus - minus) / (2 * EPS), 1e-6, 1e-8, what="firls derivative")


def test_firls_and_remez_errors_and_remez_values():
    with pytest.raises(ValueError, match="odd"):
        fss.firls(4, [0, 0.5, 0.6, 1], [1, 1, 0, 0])
    with pytest.raises(ValueError, match="overlap"):
        fss.firls(5, [0, 0.5, 0.4, 1], [1, 1, 0, 0])
    for args, kwargs in (((5, [0.0, 0.1, 0.2, 0.5], [1.0, 0.0]), {}),
                         ((24, [0.1, 0.2, 0.3, 0.4], [0.0, 1.0]), {"weight": [2.0, 1.0]}),
                         ((20, [0.05, 0.95], [1.0]), {"type": "hilbert", "fs": 2.0})):
        assert_close(fss.remez(*args, **kwargs), ss.remez(*args, **kwargs), 1e-14)
    with pytest.raises(TypeError, match="remez: desired is a traced value"):
        fg.grad(lambda d: fss.remez(5, [0, 0.1, 0.2, 0.5], fnp.stack([d, 0.0]))[0])(1.0)


def test_minimum_phase_equals_scipys_and_differentiates():
    h = ss.firwin(15, 0.3)
    for method, half, n_fft, rtol in (("homomorphic", True, None, 1e-9),
                                      ("homomorphic", False, 64, 1e-9),
                                      ("hilbert", True, 256, 2e-2)):
        got = fss.minimum_phase(h, method, n_fft, half=half)
        assert_close(got, ss.minimum_phase(h, method, n_fft, half=half), rtol,
                     what=f"{method} half={half}")
    v = RNG.normal(size=h.shape) * 1e-2
    _, tangent = fg.jvp(lambda h: fss.minimum_phase(h, n_fft=64), (h,), (v,))
    fd = (ss.minimum_phase(h + EPS * v, n_fft=64)
          - ss.minimum_phase(h - EPS * v, n_fft=64)) / (2 * EPS)
    assert_close(tangent, fd, 1e-6, 1e-8)
    assert fss.minimum_phase(h.astype(np.float32), n_fft=64).dtype == np.float32
    with pytest.raises(ValueError, match="at least 2 samples"):
        fss.minimum_phase(np.ones(2))


# --- sequences, waveforms, gammatone and comb filters -------------------------------------

def _jvp_against_scipy(ours, theirs, args, dirs, what, rtol=1e-6):
    """``fg.jvp`` of ``ours`` at ``args`` along ``dirs`` against the central difference
    of ``theirs`` (SciPy's function), and the values against SciPy's."""
    out, tangent = fg.jvp(ours, args, dirs)
    assert_close(out, theirs(*args), 1e-11, what=f"{what}: value")
    plus = theirs(*[a + EPS * d for a, d in zip(args, dirs)])
    minus = theirs(*[a - EPS * d for a, d in zip(args, dirs)])
    assert_close(tangent, (plus - minus) / (2 * EPS), rtol, 1e-8, what=f"{what}: derivative")


def test_max_len_seq_equals_scipys():
    for nbits, state in ((3, None), (5, [1, 0, 1, 0, 0]), (8, None)):
        got, want = fss.max_len_seq(nbits, state, 20), ss.max_len_seq(nbits, state, 20)
        assert got[0].dtype == want[0].dtype and np.array_equal(got[0], want[0])
        assert np.array_equal(got[1], want[1])


def test_vectorstrength_and_sweep_poly_differentiate_against_scipy():
    events = np.sort(RNG.uniform(0, 5, 9))
    for period in (0.7, np.array([0.7, 1.3, 2.0])):
        for part in (0, 1):
            _jvp_against_scipy(lambda e, p: fss.vectorstrength(e, p)[part],
                               lambda e, p: ss.vectorstrength(e, p)[part],
                               (events, np.asarray(period)),
                               (RNG.normal(size=9), RNG.normal(size=np.shape(period))),
                               f"vectorstrength[{part}]")
    t = np.linspace(0, 2, 7)
    _jvp_against_scipy(lambda t, c, phi: fss.sweep_poly(t, c, phi),
                       # (SciPy scales a phi array in place: it gets a number)
                       lambda t, c, phi: ss.sweep_poly(t, c, float(phi)),
                       (t, np.array([0.5, -1.0, 2.0]), np.asarray(30.0)),
                       (RNG.normal(size=7), RNG.normal(size=3), np.asarray(1.0)), "sweep_poly")
    assert_close(fss.sweep_poly(t, np.poly1d([1.0, 2.0])), ss.sweep_poly(t, np.poly1d([1.0, 2.0])),
                 1e-13)
    with pytest.raises(ValueError, match="positive"):
        fss.vectorstrength(events, -1.0)


@pytest.mark.parametrize("freq,ftype,kwargs", [(440.0, "iir", {"fs": 16000.0}),
                                               (0.3, "fir", {}),
                                               (1000.0, "fir", {"fs": 8000.0, "order": 3,
                                                                "numtaps": 40})])
def test_gammatone_differentiates_in_freq(freq, ftype, kwargs):
    for part in (0, 1):
        if ftype == "fir" and part == 1:
            continue
        _jvp_against_scipy(lambda f: fss.gammatone(f, ftype, **kwargs)[part],
                           lambda f: ss.gammatone(float(f), ftype, **kwargs)[part],
                           (np.asarray(freq),), (np.asarray(1.0),), f"gammatone {ftype}",
                           rtol=1e-5)


def test_iircomb_equals_scipys_and_differentiates_in_q():
    for w0, Q, ftype, fs, pass_zero in ((1.0, 30.0, "notch", 4.0, False),
                                        (20.0, 5.0, "peak", 1000.0, True),
                                        (20.0, 5.0, "notch", 1000.0, True)):
        for part in (0, 1):
            _jvp_against_scipy(
                lambda q: fss.iircomb(w0, q, ftype, fs, pass_zero=pass_zero)[part],
                lambda q: ss.iircomb(w0, float(q), ftype, fs, pass_zero=pass_zero)[part],
                (np.asarray(Q),), (np.asarray(1.0),), f"iircomb {ftype}")
    with pytest.raises(ValueError, match="divisible"):
        fss.iircomb(0.3, 30.0, fs=1.0)
    with pytest.raises(TypeError, match="w0 is a traced value"):
        fg.grad(lambda w: fss.iircomb(w, 30.0, fs=4.0)[0][0])(1.0)


# --- B-spline filters ----------------------------------------------------------------------

SPLINE_CASES = [  # (name, positional arguments after the signal, signal shape)
    ("symiirorder1", (0.5, 0.1), (3, 40)), ("symiirorder1", (1.2, -0.6, 1e-3), (40,)),
    ("symiirorder2", (0.5, 0.3), (2, 48)), ("cspline1d", (), (30,)),
    ("cspline1d", (0.5,), (30,)), ("qspline1d", (), (30,)), ("cspline2d", (), (20, 24)),
    ("cspline2d", (0.5,), (20, 24)), ("qspline2d", (), (20, 24)),
    ("spline_filter", (), (48, 40)),
    ("sepfir2d", (np.array([1.0, 2.0, 1.0]), np.array([0.5, 1.0, 3.0, 1.0, 0.5])), (6, 7))]


@pytest.mark.parametrize("name,args,shape", SPLINE_CASES,
                         ids=[f"{n}{i}" for i, (n, _, _) in enumerate(SPLINE_CASES)])
def test_spline_filters_equal_scipys_and_are_linear(name, args, shape):
    x = RNG.normal(size=shape)
    ours = getattr(fss, name)
    assert_close(ours(x, *args), getattr(ss, name)(x, *args), 1e-11, what=name)
    check_dot_product(lambda x: ours(x, *args), [x])
    v = RNG.normal(size=shape)
    _, tangent = fg.jvp(lambda x: ours(x, *args), (x,), (v,))
    assert_close(tangent, ours(v, *args), 1e-12, what="the tangent of a linear map")


def test_spline_filters_single_precision_complex_and_errors():
    x = RNG.normal(size=(2, 40))
    got = fss.symiirorder1(x.astype(np.float32), 0.5, 0.3)
    assert got.dtype == np.float32
    assert_close(got, ss.symiirorder1(x.astype(np.float32), 0.5, 0.3), 1e-6)
    z = x[0] + 1j * x[1]
    assert_close(fss.symiirorder1(z, 0.5 + 0.1j, 0.3 - 0.2j),
                 ss.symiirorder1(z, 0.5 + 0.1j, 0.3 - 0.2j), 1e-12)
    assert_close(fg.vmap(lambda r: fss.cspline1d(r))(x), np.stack([ss.cspline1d(r) for r in x]),
                 1e-11)
    with pytest.raises(ValueError, match="too short"):
        fss.symiirorder2(np.ones(16), 0.5, 0.3)
    with pytest.raises(ValueError, match="less than 1"):
        fss.symiirorder1(x, 0.5, 1.5)
    with pytest.raises(TypeError, match="z1 is a traced value"):
        fg.grad(lambda z1: fnp.sum(fss.symiirorder1(x[0], 0.5, z1)))(0.3)


def test_spline_evaluation_equals_scipys_and_differentiates():
    s = RNG.normal(size=20)
    points = np.r_[np.linspace(-25.3, 45.1, 9), 0.0, 19.0, 7.5]
    for name, make in (("cspline1d_eval", ss.cspline1d), ("qspline1d_eval", ss.qspline1d)):
        cj = make(s)
        for dx, x0 in ((1.0, 0), (0.5, 2.0)):
            assert_close(getattr(fss, name)(cj, points, dx, x0),
                         getattr(ss, name)(cj, points, dx, x0), 1e-13, what=name)
        inner = np.array([1.3, 7.7, -2.2, 33.1])
        _jvp_against_scipy(getattr(fss, name), getattr(ss, name), (cj, inner),
                           (RNG.normal(size=20), RNG.normal(size=4)), name)


def test_order_filter_and_gauss_spline():
    a = RNG.normal(size=(6, 7))
    for domain, rank in ((np.ones((3, 3)), 4), (np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]]), 2)):
        assert_close(fss.order_filter(a, domain, rank), ss.order_filter(a, domain, rank), 0)
    g = fg.grad(lambda a: fnp.sum(fss.order_filter(a, np.ones(3), 2)))(a[0])
    want = np.zeros(9)  # (the gradient lands on each window's maximum, a padding zero's
    for i in range(7):  # dropped)
        want[i + int(np.argmax(np.r_[0.0, a[0], 0.0][i:i + 3]))] += 1.0
    want = want[1:-1]
    assert_close(g, want, 0)
    x = np.linspace(-2, 2, 5)
    _jvp_against_scipy(lambda x: fss.gauss_spline(x, 3), lambda x: ss.gauss_spline(x, 3),
                       (x,), (RNG.normal(size=5),), "gauss_spline")
    with pytest.raises(ValueError, match="odd"):
        fss.order_filter(a, np.ones((2, 3)), 1)


# --- firwin_2d, band_stop_obj, find_peaks_cwt ----------------------------------------------

def test_firwin_2d_equals_scipys_and_differentiates_in_fc():
    for hsize, window, circular in (((5, 7), ("hann", "boxcar"), False),
                                    ((9, 9), "hamming", True)):
        _jvp_against_scipy(
            lambda fc: fss.firwin_2d(hsize, window, fc=fc, circular=circular),
            lambda fc: ss.firwin_2d(hsize, window, fc=float(fc), circular=circular),
            (np.asarray(0.3),), (np.asarray(1.0),), f"firwin_2d circular={circular}")
    with pytest.raises(ValueError, match="fc must be provided"):
        fss.firwin_2d((5, 5), "hamming", circular=True)


@pytest.mark.parametrize("kind", ["butter", "cheby", "ellip"])
def test_band_stop_obj_equals_scipys_and_differentiates(kind):
    passb, stopb = np.array([0.2, 0.5]), np.array([0.3, 0.4])
    for ind, wp in ((0, 0.25), (1, 0.45)):
        _jvp_against_scipy(
            lambda wp, p, s, gp, gs: fss.band_stop_obj(wp, ind, p, s, gp, gs, kind),
            lambda wp, p, s, gp, gs: ss.band_stop_obj(float(wp), ind, p.copy(), s,
                                                      float(gp), float(gs), kind),
            (np.asarray(wp), passb, stopb, np.asarray(3.0), np.asarray(40.0)),
            (np.asarray(0.3), RNG.normal(size=2) * 0.1, RNG.normal(size=2) * 0.1,
             np.asarray(0.5), np.asarray(-2.0)), f"band_stop_obj {kind}", rtol=1e-5)
    with pytest.raises(ValueError, match="smaller than gstop"):
        fss.band_stop_obj(0.25, 0, passb, stopb, 50.0, 40.0, kind)


def test_find_peaks_cwt_equals_scipys():
    x = np.sin(np.linspace(0, 4 * np.pi, 200)) + 0.1 * RNG.normal(size=200)
    for kwargs in ({}, {"min_snr": 2, "noise_perc": 5}):
        assert np.array_equal(fss.find_peaks_cwt(x, np.arange(1, 20), **kwargs),
                              ss.find_peaks_cwt(x, np.arange(1, 20), **kwargs))


# --- fftpack --------------------------------------------------------------------------------

PSEUDO = [("diff", (1,)), ("diff", (2, 3.0)), ("diff", (-1,)), ("tilbert", (0.5,)),
          ("itilbert", (2.0, 5.0)), ("hilbert", ()), ("ihilbert", ()),
          ("cs_diff", (0.5, 1.0)), ("sc_diff", (1.0, 0.3, 5.0)), ("ss_diff", (0.5, 1.0)),
          ("cc_diff", (1.0, 0.3)), ("shift", (0.3,)), ("shift", (-1.7, 4.0))]


@pytest.mark.parametrize("name,args", PSEUDO, ids=[f"{n}{a}" for n, a in PSEUDO])
def test_fftpack_pseudo_differential_operators_equal_scipys(name, args):
    for n in (7, 8, 2):
        for x in (RNG.normal(size=n), RNG.normal(size=n) + 1j * RNG.normal(size=n)):
            assert_close(getattr(ffp, name)(x, *args), getattr(sfp, name)(x, *args), 1e-12,
                         what=f"{name} n={n} {x.dtype}")


def test_fftpack_operators_are_linear_and_differentiate_in_their_parameters():
    x = RNG.normal(size=8)
    for name, args in (("diff", (2,)), ("tilbert", (0.5,)), ("shift", (0.3,))):
        check_dot_product(lambda x: getattr(ffp, name)(x, *args), [x])
    for name, args in (("shift", (0.3, 4.0)), ("tilbert", (0.5, 5.0)),
                       ("cs_diff", (0.5, 1.0, 5.0)), ("ss_diff", (0.5, 1.0, 5.0))):
        _jvp_against_scipy(lambda x, *p: getattr(ffp, name)(x, *p),
                           lambda x, *p: getattr(sfp, name)(x, *[float(v) for v in p]),
                           (x, *map(np.asarray, args)),
                           (RNG.normal(size=8), *(RNG.normal(size=()) for _ in args)), name)
    with pytest.raises(ValueError, match="1-d"):
        ffp.diff(np.ones((3, 4)))


def test_fftpack_packed_real_transforms_and_helpers_equal_scipys():
    for shape, axis in (((8,), -1), ((7,), -1), ((3, 6), 0), ((3, 5), 1)):
        x = RNG.normal(size=shape)
        for n in (None, 4, 9):
            assert_close(ffp.rfft(x, n, axis), sfp.rfft(x, n, axis), 1e-12, what="rfft")
            assert_close(ffp.irfft(x, n, axis), sfp.irfft(x, n, axis), 1e-12, what="irfft")
    check_dot_product(lambda x: ffp.rfft(x), [RNG.normal(size=8)])
    check_dot_product(lambda x: ffp.irfft(x, axis=0), [RNG.normal(size=(7, 2))])
    x32 = RNG.normal(size=8).astype(np.float32)
    assert ffp.rfft(x32).dtype == np.float32 and ffp.irfft(x32).dtype == np.float32
    assert_close(ffp.irfft(ffp.rfft(x32)), x32, 1e-6)
    for n in (1, 5, 8):
        assert_close(ffp.fftfreq(n, 0.3), sfp.fftfreq(n, 0.3), 1e-15)
        assert_close(ffp.rfftfreq(n, 0.3), sfp.rfftfreq(n, 0.3), 1e-15)
    assert fg.grad(lambda d: ffp.rfftfreq(5, d)[1])(0.5) == pytest.approx(-0.2 / 0.25)
    for target in (1, 7, 13, 97, 1021):
        assert ffp.next_fast_len(target) == sfp.next_fast_len(target)
    x = RNG.normal(size=(4, 5))
    assert_close(ffp.fftshift(x, 1), sfp.fftshift(x, 1), 0)
    assert_close(ffp.ifftshift(x), sfp.ifftshift(x), 0)

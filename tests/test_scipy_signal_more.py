"""Windows (``funcgrad.scipy.signal.windows``, ``get_window``), FIR design (``firwin``,
``firwin2``, ``kaiserord``), frequency responses (``freqz``, ``freqz_sos``,
``freqz_zpk``, ``group_delay``), analytic signals (``hilbert``, ``hilbert2``) and
waveforms (``chirp``, ``sawtooth``, ``square``, ``gausspulse``, ``unit_impulse``,
``correlation_lags``): values against SciPy's; derivatives in the signals and in the
continuous parameters against central differences of SciPy's values; one ``jit``/``vmap``
check per family, float32, and the errors."""
import warnings

import numpy as np
import pytest
import scipy.signal as ss
import scipy.signal.windows as sw

import funcgrad as fg
import funcgrad.scipy.signal as fss
import funcgrad.scipy.signal.windows as fw
from helpers import assert_close

RNG = np.random.default_rng(20261205)
EPS = 1e-6


def _real(out):
    """A result (array or tuple of arrays, complex or not) as one real vector."""
    parts = out if isinstance(out, tuple) else (out,)
    flat = [np.ravel(np.asarray(p)) for p in parts]
    return np.concatenate([np.concatenate([f.real, f.imag]) if np.iscomplexobj(f) else f
                           for f in flat])


def _check_against_scipy_differences(ours, theirs, params, what, rtol=1e-6):
    """``fg.jvp`` of ``ours`` at ``params`` along a random direction equals the central
    difference of ``theirs`` (SciPy's function of the same parameters), and the primal
    output equals SciPy's value."""
    params = tuple(np.asarray(p, dtype=np.float64) for p in params)
    dirs = tuple(RNG.normal(size=p.shape) for p in params)
    out, tangent = fg.jvp(ours, params, dirs)
    assert_close(_real(out), _real(theirs(*params)), 1e-11, what=f"{what}: value")
    plus = _real(theirs(*[p + EPS * d for p, d in zip(params, dirs)]))
    minus = _real(theirs(*[p - EPS * d for p, d in zip(params, dirs)]))
    assert_close(_real(tangent), (plus - minus) / (2 * EPS), rtol, 1e-7,
                 what=f"{what}: derivative")


# --- windows ---------------------------------------------------------------------------

WINDOWS = [("boxcar", ()), ("triang", ()), ("parzen", ()), ("bohman", ()), ("blackman", ()),
           ("nuttall", ()), ("blackmanharris", ()), ("flattop", ()), ("bartlett", ()),
           ("hann", ()), ("tukey", (0.3,)), ("tukey", (0.0,)), ("tukey", (1.0,)),
           ("barthann", ()), ("general_hamming", (0.6,)), ("hamming", ()),
           ("kaiser", (6.5,)), ("gaussian", (2.5,)), ("general_gaussian", (1.5, 2.0)),
           ("chebwin", (60.0,)), ("cosine", ()), ("exponential", (None, 3.0)),
           ("lanczos", ()), ("general_cosine", ([0.4, 0.3, 0.2],)), ("taylor", ()),
           ("taylor", (6, 45.0, False)), ("dpss", (0.8,))]


@pytest.mark.parametrize("name,args", WINDOWS, ids=[f"{n}{a}" for n, a in WINDOWS])
def test_windows_equal_scipys_symmetric_and_periodic(name, args):
    for M in (0, 1, 2, 5, 8):
        for sym in (True, False):
            extra = (2.0, 3.0) if name == "exponential" and not sym else args
            want = getattr(sw, name)(M, *extra, sym=sym)
            got = np.asarray(getattr(fw, name)(M, *extra, sym=sym))
            assert got.shape == want.shape and got.dtype == want.dtype, (name, M, sym)
            assert_close(got, want, 1e-12, 1e-15, what=f"{name} M={M} sym={sym}")


def test_kaiser_bessel_derived_and_get_window_equal_scipys():
    for M in (2, 6):
        assert_close(fw.kaiser_bessel_derived(M, 3.0), sw.kaiser_bessel_derived(M, 3.0),
                     1e-12)
    for window in ("hann", "hamm", ("kaiser", 4.0), 5.0, ("tukey", 0.2), ("gauss", 3.0),
                   ("general_gaussian", 1.0, 2.0), "blackman", ("chebwin", 50.0),
                   "exponential", ("exponential", None, 2.0), "triangle"):
        for fftbins in (True, False):
            assert_close(fss.get_window(window, 9, fftbins=fftbins),
                         ss.get_window(window, 9, fftbins=fftbins), 1e-12, 1e-15,
                         what=f"{window} fftbins={fftbins}")


WINDOW_PARAMETERS = [("kaiser", lambda b: (b,), [6.5]), ("gaussian", lambda s: (s,), [2.5]),
                     ("tukey", lambda a: (a,), [0.4]),
                     ("general_hamming", lambda a: (a,), [0.6]),
                     ("general_gaussian", lambda p, s: (p, s), [1.5, 2.0]),
                     ("exponential", lambda tau: (None, tau), [3.0]),
                     ("chebwin", lambda at: (at,), [60.0]),
                     ("general_cosine", lambda a: (a,), [[0.4, 0.3, 0.2]]),
                     ("taylor", lambda sll: (5, sll), [35.0]),
                     ("dpss", lambda nw: (nw,), [1.5])]


@pytest.mark.parametrize("name,args,params", WINDOW_PARAMETERS,
                         ids=[w[0] for w in WINDOW_PARAMETERS])
def test_windows_differentiate_in_their_parameters(name, args, params):
    for M, sym in ((9, True), (8, False), (7, True)):
        _check_against_scipy_differences(
            lambda *p: getattr(fw, name)(M, *args(*p), sym=sym),
            lambda *p: getattr(sw, name)(M, *args(*p), sym=sym), params,
            f"{name} M={M} sym={sym}")


@pytest.mark.parametrize("Kmax,norm", [(3, None), (2, "subsample"), (3, "approximate")])
def test_dpss_sequences_and_ratios_equal_scipys_and_differentiate_in_NW(Kmax, norm):
    for M, sym in ((8, True), (9, False)):
        _check_against_scipy_differences(
            lambda nw: fw.dpss(M, nw, Kmax, sym, norm, return_ratios=True),
            lambda nw: sw.dpss(M, float(nw), Kmax, sym, norm, return_ratios=True), [1.5],
            f"dpss M={M} Kmax={Kmax} norm={norm}", rtol=1e-5)


def test_get_window_differentiates_and_jits_in_the_kaiser_beta():
    _check_against_scipy_differences(lambda b: fss.get_window(("kaiser", b), 10),
                                     lambda b: ss.get_window(("kaiser", b), 10), [5.0],
                                     "get_window kaiser")
    jitted = fg.jit(lambda b: fss.windows.kaiser(7, b))
    assert_close(jitted(np.float64(4.0)), sw.kaiser(7, 4.0), 1e-12)
    assert_close(fg.grad(lambda b: jitted(b).sum())(np.float64(4.0)),
                 fg.grad(lambda b: fss.windows.kaiser(7, b).sum())(np.float64(4.0)), 1e-12)


def test_welch_and_stft_take_any_window_by_name_from_funcgrad():
    x = RNG.normal(size=64)
    for window in ("blackman", ("kaiser", 6.0), ("tukey", 0.3), "flattop"):
        assert_close(fss.welch(x, window=window, nperseg=16)[1],
                     ss.welch(x, window=window, nperseg=16)[1], 1e-12, what=str(window))
        assert_close(_real(fss.stft(x, window=window, nperseg=16)[2]),
                     _real(ss.stft(x, window=window, nperseg=16)[2]), 1e-12)


# --- FIR design and frequency responses ---------------------------------------------------

FIRWIN = [((11, 0.3), {}), ((12, 0.3), {}), ((11, [0.2, 0.5]), {}),
          ((11, [0.2, 0.5]), dict(pass_zero=False)), ((11, 0.4), dict(pass_zero="highpass")),
          ((13, [0.1, 0.3, 0.6]), {}), ((13, [0.1, 0.3, 0.6, 0.8]), dict(pass_zero=False)),
          ((21, 10.0), dict(fs=50.0, window=("kaiser", 5.0))), ((31, 0.3), dict(width=0.1)),
          ((11, 0.3), dict(scale=False)),
          ((15, [0.2, 0.4]), dict(pass_zero="bandstop", window="blackman"))]


@pytest.mark.parametrize("args,kw", FIRWIN, ids=[str(i) for i in range(len(FIRWIN))])
def test_firwin_equals_scipys_and_differentiates_in_the_cutoffs(args, kw):
    numtaps, cutoff = args
    _check_against_scipy_differences(lambda c: fss.firwin(numtaps, c, **kw),
                                     lambda c: ss.firwin(numtaps, c, **kw), [cutoff],
                                     f"firwin{args} {kw}")


def test_firwin_differentiates_in_the_window_parameter_and_kaiser_helpers_are_scipys():
    _check_against_scipy_differences(
        lambda c, b: fss.firwin(15, c, window=("kaiser", b)),
        lambda c, b: ss.firwin(15, c, window=("kaiser", b)), [0.35, 4.0], "firwin kaiser")
    assert fss.kaiserord(65.0, 0.05) == ss.kaiserord(65.0, 0.05)
    for a in (10.0, 30.0, 65.0):
        assert_close(fss.kaiser_beta(a), ss.kaiser_beta(a), 1e-14)
    assert_close(fss.kaiser_atten(31, 0.1), ss.kaiser_atten(31, 0.1), 1e-14)


FIRWIN2 = [((11, [0, 0.5, 1], [1, 1, 0]), {}), ((12, [0, 0.5, 1], [1, 1, 0]), {}),
           ((11, [0, 0.3, 0.3, 1], [1, 1, 0, 0]), {}),
           ((11, [0, 0.5, 1], [0, 1, 0]), dict(antisymmetric=True)),
           ((12, [0, 0.5, 1], [0, 1, 1]), dict(antisymmetric=True)),
           ((9, [0, 10, 25], [1, 0.5, 0]), dict(fs=50.0, nfreqs=33, window=None))]


@pytest.mark.parametrize("args,kw", FIRWIN2, ids=[str(i) for i in range(len(FIRWIN2))])
def test_firwin2_equals_scipys_and_differentiates_in_the_gains(args, kw):
    numtaps, freq, gain = args
    # (a direction that keeps the gains the filter type needs at 0 and Nyquist at zero)
    keep = np.asarray(gain, dtype=float) != 0
    _check_against_scipy_differences(
        lambda g: fss.firwin2(numtaps, freq, g * keep + np.asarray(gain) * ~keep, **kw),
        lambda g: ss.firwin2(numtaps, freq, g * keep + np.asarray(gain) * ~keep, **kw),
        [gain], f"firwin2{args} {kw}")


B = RNG.normal(size=5)
A = np.r_[1.0, 0.4, -0.2]
SOS_A0 = np.arange(6) == 3  # (a section's a0 stays 1: not a direction to differentiate in)
RESPONSES = [
    ("freqz", lambda m, b, a: m.freqz(b, a), [B, A]),
    ("freqz fft", lambda m, b: m.freqz(b, worN=16), [B]),
    ("freqz whole", lambda m, b: m.freqz(b, 2.0, worN=15, whole=True), [B]),
    ("freqz nyquist", lambda m, b: m.freqz(b, worN=9, include_nyquist=True), [B]),
    ("freqz at", lambda m, b, a: m.freqz(b, a, worN=[1.0, 20.0, 90.0], fs=300.0), [B, A]),
    ("freqz_sos", lambda m, s: m.freqz_sos(s * ~SOS_A0 + SOS_A0, worN=20, whole=True),
     [ss.butter(4, 0.3, output="sos")]),
    ("sosfreqz", lambda m, s: m.sosfreqz(s * ~SOS_A0 + SOS_A0, worN=[0.1, 0.2], fs=1.0),
     [ss.cheby1(3, 1.0, 0.3, output="sos")]),
    ("freqz_zpk", lambda m, z, p, k: m.freqz_zpk(z, p, k, worN=12),
     [[-1.0, 0.5], [0.3, -0.6], 0.7]),
    ("group_delay", lambda m, b, a: m.group_delay((b, a), w=16, whole=True), [B, A]),
    ("group_delay fs", lambda m, b, a: m.group_delay((b, a), w=[0.1, 0.3], fs=1.0),
     [B, A]),
]


@pytest.mark.parametrize("name,call,params", RESPONSES, ids=[r[0] for r in RESPONSES])
def test_responses_equal_scipys_and_differentiate_in_the_filter(name, call, params):
    w_ours, _ = call(fss, *params)
    w_theirs, _ = call(ss, *params)
    assert_close(w_ours, w_theirs, 1e-14, what=name)
    _check_against_scipy_differences(lambda *p: call(fss, *p)[1],
                                     lambda *p: call(ss, *p)[1], params, name)


def test_group_delay_warns_where_the_response_vanishes_and_is_zero_where_singular():
    with pytest.warns(UserWarning, match="extremely small"):
        _, gd = fss.group_delay(([1.0, 1.0], [1.0]), w=4, whole=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_close(gd, ss.group_delay(([1.0, 1.0], [1.0]), w=4, whole=True)[1], 1e-12)
        want = ss.group_delay(([0.0, 0.0], [1.0]), w=3)[1]
    with pytest.warns(UserWarning, match="singular"):
        _, gd = fss.group_delay(([0.0, 0.0], [1.0]), w=3)
    assert np.array_equal(gd, want) and np.all(gd == 0)
    with pytest.warns(UserWarning, match="singular"):
        g = fg.grad(lambda b: fss.group_delay((b, [1.0]), w=3)[1].sum())(np.zeros(2))
    assert np.all(np.isfinite(g))


# --- analytic signals ----------------------------------------------------------------------

HILBERT = [("hilbert", lambda m, x: m.hilbert(x), (3, 8)),
           ("hilbert N", lambda m, x: m.hilbert(x, N=11), (3, 8)),
           ("hilbert axis", lambda m, x: m.hilbert(x, N=5, axis=0), (4, 3)),
           ("hilbert odd", lambda m, x: m.hilbert(x), (7,)),
           ("hilbert2", lambda m, x: m.hilbert2(x), (5, 6)),
           ("hilbert2 N", lambda m, x: m.hilbert2(x, N=(4, 7)), (5, 6)),
           ("hilbert2 axes", lambda m, x: m.hilbert2(x, axes=(0, 2)), (3, 2, 4))]


@pytest.mark.parametrize("name,call,shape", HILBERT, ids=[h[0] for h in HILBERT])
def test_analytic_signals_equal_scipys_and_differentiate(name, call, shape):
    x = RNG.normal(size=shape)
    _check_against_scipy_differences(lambda x: call(fss, x), lambda x: call(ss, x), [x], name)


def test_hilbert_vmaps_and_keeps_float32():
    xs = RNG.normal(size=(3, 10))
    assert_close(_real(fg.vmap(fss.hilbert)(xs)), _real(ss.hilbert(xs)), 1e-12)
    x32 = xs.astype(np.float32)
    for ours, theirs in ((fss.hilbert(x32), ss.hilbert(x32)),
                         (fss.hilbert2(x32), ss.hilbert2(x32))):
        assert ours.dtype == theirs.dtype == np.complex64
        assert_close(_real(ours), _real(theirs), 1e-5)


# --- waveforms ------------------------------------------------------------------------------

T = np.linspace(-0.3, 2.0, 9)
CHIRPS = [(method, f0, f1, vz) for method in ("linear", "quadratic", "logarithmic",
                                              "hyperbolic")
          for f0, f1, vz in ((2.0, 7.0, True), (7.0, 2.0, False))]


@pytest.mark.parametrize("method,f0,f1,vertex_zero", CHIRPS)
def test_chirp_equals_scipys_and_differentiates_in_time_frequencies_and_phase(
        method, f0, f1, vertex_zero):
    def ours(t, f0, t1, f1, phi):
        return fss.chirp(t, f0, t1, f1, method, phi, vertex_zero)

    def theirs(t, f0, t1, f1, phi):
        return ss.chirp(t, float(f0), float(t1), float(f1), method, phi, vertex_zero)
    _check_against_scipy_differences(ours, theirs, [T, f0, 1.5, f1, 30.0],
                                     f"chirp {method}")


@pytest.mark.parametrize("method", ["linear", "logarithmic", "hyperbolic"])
def test_chirp_derivative_in_f1_is_continuous_where_f0_equals_f1(method):
    # SciPy's logarithmic and hyperbolic sweeps become a constant frequency at f0 == f1
    # (their formulas divide by log(f1/f0) and f0 - f1); there the derivative of each in
    # f1 is the linear sweep's, d phase / d f1 = pi t^2 / t1
    f1 = np.float64(3.0)
    got = fg.jvp(lambda f1: fss.chirp(T, 3.0, 1.5, f1, method), (f1,), (np.float64(1.0),))
    assert_close(got[0], ss.chirp(T, 3.0, 1.5, 3.0, method), 1e-12)
    assert_close(got[1], -np.sin(2 * np.pi * 3.0 * T) * np.pi * T ** 2 / 1.5, 1e-12,
                 what=method)


def test_chirp_complex_float32_and_vmap():
    assert_close(_real(fss.chirp(T, 2.0, 1.5, 7.0, "quadratic", complex=True)),
                 _real(ss.chirp(T, 2.0, 1.5, 7.0, "quadratic", complex=True)), 1e-12)
    t32 = T.astype(np.float32)
    got = fss.chirp(t32, 2.0, 1.5, 7.0)
    assert got.dtype == np.float32  # (SciPy's is float64: funcgrad keeps float32)
    assert_close(got, ss.chirp(t32, 2.0, 1.5, 7.0), 1e-5)
    f0s = np.array([1.0, 2.0, 4.0])
    assert_close(fg.vmap(lambda f0: fss.chirp(T, f0, 1.5, 7.0, "logarithmic"))(f0s),
                 np.stack([ss.chirp(T, f0, 1.5, 7.0, "logarithmic") for f0 in f0s]), 1e-12)


def test_sawtooth_and_square_equal_scipys_and_sawtooth_differentiates():
    t = np.linspace(-7, 13, 23)
    for width in (1, 0.5, 0.0, 0.3, 1.2, np.linspace(-0.1, 1.1, 23)):
        for ours, theirs in ((fss.sawtooth, ss.sawtooth), (fss.square, ss.square)):
            got, want = ours(t, width), theirs(t, width)
            assert got.dtype == want.dtype
            assert_close(got, want, 1e-12, equal_nan=True, what=f"{ours.__name__} {width}")
    _check_against_scipy_differences(fss.sawtooth, ss.sawtooth, [t, 0.3], "sawtooth")
    assert np.all(fg.grad(lambda t: fss.square(t).sum())(t) == 0)
    g = fg.grad(lambda w: fss.sawtooth(t, w).sum())(np.float64(1.0))
    assert np.isfinite(g)  # (width 1: the falling branch, 1/(1 - w), is never taken)


def test_gausspulse_equals_scipys_and_differentiates_in_time_and_band():
    t = np.linspace(-0.02, 0.02, 7)
    for kw in ({}, dict(retquad=True), dict(retenv=True), dict(retquad=True, retenv=True)):
        _check_against_scipy_differences(
            lambda t, fc, bw: fss.gausspulse(t, fc, bw, bwr=-3, **kw),
            lambda t, fc, bw: ss.gausspulse(t, float(fc), float(bw), bwr=-3, **kw),
            [t, 50.0, 0.4], f"gausspulse {kw}", rtol=1e-5)
    assert_close(fss.gausspulse("cutoff", fc=400.0), ss.gausspulse("cutoff", fc=400.0),
                 1e-14)


def test_unit_impulse_and_correlation_lags_equal_scipys():
    for args in ((5,), ((3, 4),), ((3, 4), "mid"), (7, 2), ((3, 3), (1, 2))):
        assert np.array_equal(fss.unit_impulse(*args), ss.unit_impulse(*args))
    for lengths in ((5, 3), (3, 5), (4, 4), (6, 3), (5, 2)):
        for mode in ("full", "same", "valid"):
            assert np.array_equal(fss.correlation_lags(*lengths, mode=mode),
                                  ss.correlation_lags(*lengths, mode=mode))


# --- errors -----------------------------------------------------------------------------

ERRORS = [
    (lambda: fw.hann(-1), "non-negative integer"),
    (lambda: fw.kaiser(2.5, 1.0), "non-negative integer"),
    (lambda: fw.exponential(5, center=1.0), "center must be None"),
    (lambda: fw.dpss(8, 4.0), "NW must be less than M/2"),
    (lambda: fw.dpss(8, 1.0, Kmax=9), "Kmax must be"),
    (lambda: fss.get_window("kaiser", 5), "needs one or more parameters"),
    (lambda: fss.get_window("nope", 5), "Unknown window type"),
    (lambda: fss.get_window([1, 2], 5), "not supported"),
    (lambda: fss.firwin(11, 1.2), "greater than 0 and less than fs/2"),
    (lambda: fss.firwin(11, [0.5, 0.2]), "strictly increasing"),
    (lambda: fss.firwin(12, 0.3, pass_zero=False), "even number of coefficients"),
    (lambda: fss.firwin(11, 0.3, pass_zero="sideways"), "pass_zero must be"),
    (lambda: fss.firwin2(11, [0, 0.5], [1, 1]), "start with 0 and end with fs/2"),
    (lambda: fss.firwin2(12, [0, 0.5, 1], [1, 1, 1]), "Type II"),
    (lambda: fss.freqz_sos(np.ones((2, 5))), "shape \\(n_sections, 6\\)"),
    (lambda: fss.freqz_sos([[1.0, 0, 0, 2.0, 0, 0]]), "all ones"),
    (lambda: fss.freqz([1.0], worN=-1), "nonnegative"),
    (lambda: fss.hilbert(np.ones(4) + 1j), "x must be real"),
    (lambda: fss.hilbert2(np.ones((3, 3)), axes=(1, 1)), "distinct"),
    (lambda: fss.chirp(T, -1.0, 1.0, 2.0, "logarithmic"), "same sign"),
    (lambda: fss.chirp(T, 1.0, 1.0, 2.0, "cubic"), "method must be"),
    (lambda: fss.gausspulse(T, bw=0.0), "must be > 0"),
    (lambda: fss.correlation_lags(3, 2, mode="middle"), "invalid"),
    (lambda: fss.kaiserord(5.0, 0.1), "too small"),
    (lambda: fss.upfirdn(np.ones((2, 2)), T), "h must be 1-D"),
    (lambda: fss.upfirdn([1.0], T, up=0), "must be >= 1"),
    (lambda: fss.resample_poly(T, 1.5, 1), "up must be an integer"),
    (lambda: fss.resample_poly(T, 2, 1, padtype="mean", cval=1.0), "cval has no effect"),
    (lambda: fss.resample(T, 5, domain="space"), "not in"),
    (lambda: fss.resample(T, 5, window=np.ones(3)), "window length"),
    (lambda: fss.decimate(T, 2, ftype="bessel"), "invalid ftype"),
    (lambda: fss.spectrogram(T, mode="power"), "unknown value for mode"),
    (lambda: fss.periodogram(T, window=np.ones(3)), "size of the window"),
    (lambda: fss.medfilt(T, 4), "should be odd"),
    (lambda: fss.medfilt(T.astype(np.float16)), "not supported"),
    (lambda: fss.medfilt2d(T), "must be 2-d"),
    (lambda: fss.lfiltic([1.0], [0.0, 1.0], [1.0]), "must be non-zero"),
    (lambda: fss.find_peaks(np.ones((2, 3))), "1-D array"),
    (lambda: fss.peak_widths(T, [1], rel_height=-1.0), "rel_height"),
    (lambda: fss.peak_prominences(T, [20]), "peak indices"),
    (lambda: fss.argrelmax(T, order=0), "Order must be"),
    (lambda: fss.normalize([1.0], [0.0, 0.0]), "at least on nonzero"),
    (lambda: fss.lp2lp_zpk([1.0, 2.0], [1.0], 1.0), "Improper transfer function"),
    (lambda: fss.sos2tf(np.ones((2, 4))), "n_sections, 6"),
    (lambda: fss.iirnotch(1.5, 10.0), "0 < w0 < 1"),
    (lambda: fss.bilinear([1.0], [1.0, 1.0], fs=-1.0), "positive"),
]


def test_options_funcgrad_does_not_implement_say_so():
    with pytest.raises(NotImplementedError, match="mode='constant'"):
        fss.upfirdn([1.0], T, mode="wrap")
    with pytest.raises(NotImplementedError, match="padtype 'line'"):
        fss.resample_poly(T, 2, 1, padtype="line")


@pytest.mark.parametrize("call,message", ERRORS, ids=[m for _, m in ERRORS])
def test_bad_input_raises_a_clear_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_traced_lengths_and_frequencies_are_refused():
    with pytest.raises(TypeError, match="window's length"):
        fg.grad(lambda m: fw.hann(m).sum())(5.0)
    with pytest.raises(TypeError, match="freq is a traced value"):
        fg.grad(lambda f: fss.firwin2(11, f, [1.0, 1.0, 0.0]).sum())(np.array([0, 0.5, 1]))


# --- resampling ---------------------------------------------------------------------------

X2 = RNG.normal(size=(2, 17))
RESAMPLING = [
    ("upfirdn", lambda m, h, x: m.upfirdn(h, x, 3, 2), [RNG.normal(size=5), X2]),
    ("upfirdn down", lambda m, h, x: m.upfirdn(h, x, 1, 3, axis=0), [RNG.normal(size=4),
                                                                      X2.T]),
    ("resample_poly", lambda m, x: m.resample_poly(x, 3, 2, axis=1), [X2]),
    ("resample_poly down mean", lambda m, x: m.resample_poly(x, 2, 5, padtype="mean"),
     [X2.T]),
    ("resample_poly taps", lambda m, x, h: m.resample_poly(x, 1, 2, axis=1, window=h),
     [X2, RNG.normal(size=7)]),
    ("resample up", lambda m, x: m.resample(x, 24, axis=1), [X2]),
    ("resample down window", lambda m, x: m.resample(x, 8, window="hann"), [X2.T]),
    ("resample complex", lambda m, x, y: m.resample(x + 1j * y, 10, axis=1), [X2, X2[::-1]]),
    ("resample freq", lambda m, x: m.resample(x, 20, axis=1, domain="freq",
                                               window=("kaiser", 3.0)), [X2]),
    ("decimate", lambda m, x: m.decimate(x, 3), [RNG.normal(size=(2, 60))]),
    ("decimate fir", lambda m, x: m.decimate(x, 2, ftype="fir", axis=0),
     [RNG.normal(size=(50, 2))]),
    ("decimate causal", lambda m, x: m.decimate(x, 4, n=4, zero_phase=False),
     [RNG.normal(size=40)]),
]


@pytest.mark.parametrize("name,call,params", RESAMPLING, ids=[r[0] for r in RESAMPLING])
def test_resampling_equals_scipys_and_differentiates(name, call, params):
    _check_against_scipy_differences(lambda *p: call(fss, *p), lambda *p: call(ss, *p),
                                     params, name)


def test_resampling_keeps_float32_and_vmaps():
    x32 = X2.astype(np.float32)
    for ours, theirs in ((fss.upfirdn(np.ones(3, np.float32), x32, 2, 3),
                          ss.upfirdn(np.ones(3, np.float32), x32, 2, 3)),
                         (fss.resample_poly(x32, 3, 2, axis=1),
                          ss.resample_poly(x32, 3, 2, axis=1)),
                         (fss.resample(x32, 9, axis=1), ss.resample(x32, 9, axis=1))):
        assert ours.dtype == theirs.dtype == np.float32
        assert_close(ours, theirs, 1e-5)
    got, times = fss.resample(X2, 9, t=np.linspace(0, 1, 17), axis=1)
    assert_close(times, ss.resample(X2, 9, t=np.linspace(0, 1, 17), axis=1)[1], 1e-14)
    assert_close(fg.vmap(lambda x: fss.resample_poly(x, 2, 3))(X2),
                 ss.resample_poly(X2, 2, 3, axis=1), 1e-12)


# --- periodogram, spectrogram, coherence ----------------------------------------------------

XS, YS = RNG.normal(size=(2, 40)), RNG.normal(size=(2, 40))
SPECTRA = [
    ("periodogram", lambda m, x: m.periodogram(x)[1], [XS]),
    ("periodogram nfft", lambda m, x: m.periodogram(x, nfft=30, window="hann",
                                                   scaling="spectrum")[1], [XS]),
    ("periodogram long", lambda m, x: m.periodogram(x, fs=10.0, nfft=64, axis=0,
                                                   detrend="linear")[1], [XS.T]),
    ("spectrogram", lambda m, x: m.spectrogram(x, nperseg=16)[2], [XS]),
    ("spectrogram twosided", lambda m, x: m.spectrogram(
        x, nperseg=15, noverlap=4, nfft=20, return_onesided=False)[2], [XS]),
    ("spectrogram complex", lambda m, x: m.spectrogram(x, nperseg=16, mode="complex",
                                                       axis=0)[2], [XS.T]),
    ("spectrogram magnitude", lambda m, x: m.spectrogram(x, nperseg=16, mode="magnitude",
                                                         scaling="spectrum")[2], [XS]),
    ("spectrogram phase", lambda m, x: m.spectrogram(x, nperseg=16, mode="phase")[2], [XS]),
    ("coherence", lambda m, x, y: m.coherence(x, y + 0.5 * x, nperseg=16)[1], [XS, YS]),
]


@pytest.mark.parametrize("name,call,params", SPECTRA, ids=[s[0] for s in SPECTRA])
def test_spectra_equal_scipys_and_differentiate(name, call, params):
    _check_against_scipy_differences(lambda *p: call(fss, *p), lambda *p: call(ss, *p),
                                     params, name)


def test_spectra_frequencies_times_and_float32_are_scipys():
    for ours, theirs in ((fss.periodogram(XS, fs=3.0), ss.periodogram(XS, fs=3.0)),
                         (fss.spectrogram(XS, fs=2.0, nperseg=16),
                          ss.spectrogram(XS, fs=2.0, nperseg=16)),
                         (fss.coherence(XS, YS, nperseg=8), ss.coherence(XS, YS, nperseg=8))):
        for got, want in zip(ours[:-1], theirs[:-1]):
            assert_close(got, want, 1e-14)
    got = fss.spectrogram(XS.astype(np.float32), nperseg=16)[2]
    want = ss.spectrogram(XS.astype(np.float32), nperseg=16)[2]
    assert got.dtype == want.dtype == np.float32
    assert_close(got, want, 1e-5)


# --- median and Wiener filters, lfiltic, deconvolve ---------------------------------------

FILTERS = [
    ("medfilt", lambda m, x: m.medfilt(x), [RNG.normal(size=12)]),
    ("medfilt 3-d", lambda m, x: m.medfilt(x, [3, 1, 5]), [RNG.normal(size=(3, 4, 5))]),
    ("medfilt2d", lambda m, x: m.medfilt2d(x, (3, 5)), [RNG.normal(size=(5, 6))]),
    ("wiener", lambda m, x: m.wiener(x), [RNG.normal(size=(6, 7))]),
    ("wiener noise", lambda m, x, n: m.wiener(x, 4, n), [RNG.normal(size=20), 0.5]),
    ("lfiltic", lambda m, b, a, y, x: m.lfiltic(b, a, y, x),
     [RNG.normal(size=4), [2.0, 0.3, -0.4], [0.3, 0.2, 0.1], [1.0, -1.0]]),
    ("lfiltic no x", lambda m, b, a, y: m.lfiltic(b, a, y), [[1.0, 0.5], [1.0, -0.5, 0.2],
                                                            [2.0]]),
    ("deconvolve", lambda m, s, d: m.deconvolve(s, d), [RNG.normal(size=8), [1.5, 0.4, 0.2]]),
]


@pytest.mark.parametrize("name,call,params", FILTERS, ids=[f[0] for f in FILTERS])
def test_filters_equal_scipys_and_differentiate(name, call, params):
    _check_against_scipy_differences(lambda *p: call(fss, *p), lambda *p: call(ss, *p),
                                     params, name)


def test_filters_keep_dtypes_and_jit():
    x32 = RNG.normal(size=(5, 6)).astype(np.float32)
    for ours, theirs in ((fss.medfilt2d(x32), ss.medfilt2d(x32)),
                         (fss.medfilt(np.arange(10) % 4), ss.medfilt(np.arange(10) % 4)),
                         (fss.medfilt2d(np.arange(12).reshape(3, 4)),
                          ss.medfilt2d(np.arange(12).reshape(3, 4)))):
        assert ours.dtype == theirs.dtype
        assert_close(ours, theirs, 1e-7)
    x = RNG.normal(size=(4, 5))
    assert_close(fg.jit(fss.wiener)(x), ss.wiener(x), 1e-12)
    q, r = fss.deconvolve([1.0, 2.0], [1.0, 2.0, 3.0])
    assert len(q) == 0 and np.array_equal(r, [1.0, 2.0])


# --- peaks -------------------------------------------------------------------------------

# a random walk with a plateau (its peak is its middle sample); derivatives are taken in
# the free samples, the plateau's three samples one parameter (a step that broke the
# plateau would move its peak)
SAMPLES = np.r_[np.arange(31), 30, 30, np.arange(31, 58)]
FREE = np.cumsum(RNG.normal(size=58))
FREE[30] += 3.0
PEAKY = FREE[SAMPLES]
FIND_PEAKS = [dict(height=0), dict(threshold=0.1), dict(prominence=1),
              dict(width=2, rel_height=0.8), dict(prominence=(0.5, None), wlen=11, width=1),
              dict(height=-10, threshold=0, prominence=0, width=0, plateau_size=0)]


@pytest.mark.parametrize("kw", FIND_PEAKS, ids=[str(k) for k in FIND_PEAKS])
def test_find_peaks_positions_are_scipys_and_properties_differentiate(kw):
    peaks, props = fss.find_peaks(PEAKY, **kw)
    want_peaks, want = ss.find_peaks(PEAKY, **kw)
    assert np.array_equal(peaks, want_peaks) and list(props) == list(want)
    measured = [k for k in want if want[k].dtype.kind == "f"]
    assert measured  # (every case measures something)
    for key in want:
        if key not in measured:
            assert np.array_equal(props[key], want[key]), key

    def ours(free):
        return tuple(fss.find_peaks(free[SAMPLES], **kw)[1][k] for k in measured)

    def theirs(free):  # (SciPy's properties at the same peaks: a small step moves none)
        found = ss.find_peaks(free[SAMPLES], **kw)
        assert np.array_equal(found[0], want_peaks)
        return tuple(found[1][k] for k in measured)
    _check_against_scipy_differences(ours, theirs, [FREE], f"find_peaks {kw}")


@pytest.mark.parametrize("wlen,rel_height", [(None, 0.5), (9, 1.0), (20, 0.2)])
def test_peak_prominences_and_widths_equal_scipys_and_differentiate(wlen, rel_height):
    peaks = ss.find_peaks(PEAKY)[0]
    _, left, right = fss.peak_prominences(PEAKY, peaks, wlen)
    _, want_left, want_right = ss.peak_prominences(PEAKY, peaks, wlen)
    assert np.array_equal(left, want_left) and np.array_equal(right, want_right)
    _check_against_scipy_differences(
        lambda x: fss.peak_prominences(x[SAMPLES], peaks, wlen)[0],
        lambda x: ss.peak_prominences(x[SAMPLES], peaks, wlen)[0], [FREE], "prominences")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (SciPy warns of zero widths)
        _check_against_scipy_differences(
            lambda x: fss.peak_widths(x[SAMPLES], peaks, rel_height, wlen=wlen),
            lambda x: ss.peak_widths(x[SAMPLES], peaks, rel_height, wlen=wlen), [FREE],
            "widths")
        data = ss.peak_prominences(PEAKY, peaks)
        _check_against_scipy_differences(
            lambda x, p: fss.peak_widths(x[SAMPLES], peaks,
                                         prominence_data=(p, data[1], data[2])),
            lambda x, p: ss.peak_widths(x[SAMPLES], peaks,
                                        prominence_data=(p, data[1], data[2])),
            [FREE, data[0]], "widths of given prominences")


def test_argrelextrema_equal_scipys_and_peaks_refuse_jit():
    data = RNG.normal(size=(6, 20))
    for axis, order, mode in ((0, 1, "clip"), (1, 2, "wrap"), (1, 3, "clip")):
        for ours, theirs in ((fss.argrelmax, ss.argrelmax), (fss.argrelmin, ss.argrelmin)):
            got, want = ours(data, axis, order, mode), theirs(data, axis, order, mode)
            assert len(got) == len(want)
            assert all(np.array_equal(g, w) for g, w in zip(got, want))
        got = fss.argrelextrema(data, np.greater_equal, axis, order, mode)
        want = ss.argrelextrema(data, np.greater_equal, axis, order, mode)
        assert all(np.array_equal(g, w) for g, w in zip(got, want))
    with pytest.raises(fg.ConcretizationError, match="where the peaks are"):
        fg.jit(lambda x: fss.find_peaks(x)[0])(PEAKY)


# --- filter representations and transformations ---------------------------------------------

B3, A3 = [1.0, -0.3, 0.5], [1.0, 0.2, -0.35]  # (simple roots: the derivatives exist)
Z2, P3 = [-0.4, 0.7], [0.3, -0.6, 0.1]
SOS2 = [[1.0, 0.3, -0.2, 1.0, -0.5, 0.06], [0.5, -0.1, 0.3, 1.0, 0.4, 0.2]]
ZA, PA, KA = [-2.0], [-1.0, -3.0, -0.5], 1.5  # (an analog prototype, real roots)
LTI = [
    ("normalize", lambda m, b, a: m.normalize(b, a), [[2.0, 4.0], [3.0, 2.0, 1.0]]),
    ("tf2zpk", lambda m, b, a: m.tf2zpk(b, a), [B3, A3]),
    ("zpk2tf", lambda m, z, p, k: m.zpk2tf(z, p, k), [Z2, P3, 2.0]),
    ("zpk2sos", lambda m, z, p, k: m.zpk2sos(z, p, k), [Z2, P3, 2.0]),
    ("zpk2sos keep_odd", lambda m, z, p, k: m.zpk2sos(z, p, k, "keep_odd"), [Z2, P3, 2.0]),
    ("tf2sos", lambda m, b, a: m.tf2sos(b, a), [B3, A3]),
    ("sos2tf", lambda m, s: m.sos2tf(s), [SOS2]),
    ("sos2zpk", lambda m, s: m.sos2zpk(s), [SOS2]),
    ("bilinear", lambda m, b, a: m.bilinear(b, a, fs=3.0), [[1.0, 2.0], A3]),
    # (fs * 1.0: a NumPy scalar, as SciPy's check of fs wants, from the 0-d array)
    ("bilinear_zpk", lambda m, z, p, k, fs: m.bilinear_zpk(z, p, k, fs * 1.0),
     [ZA, PA, KA, 2.0]),
    ("lp2lp_zpk", lambda m, z, p, k, wo: m.lp2lp_zpk(z, p, k, wo), [ZA, PA, KA, 2.5]),
    ("lp2hp_zpk", lambda m, z, p, k, wo: m.lp2hp_zpk(z, p, k, wo), [ZA, PA, KA, 2.5]),
    ("lp2bp_zpk", lambda m, z, p, k, wo, bw: m.lp2bp_zpk(z, p, k, wo, bw),
     [ZA, PA, KA, 2.5, 0.7]),
    ("lp2bs_zpk", lambda m, z, p, k, wo, bw: m.lp2bs_zpk(z, p, k, wo, bw),
     [ZA, PA, KA, 2.5, 0.7]),
    ("lp2lp", lambda m, b, a, wo: m.lp2lp(b, a, wo), [[1.0, 2.0], A3, 2.5]),
    ("lp2hp", lambda m, b, a, wo: m.lp2hp(b, a, wo), [[1.0, 2.0], A3, 2.5]),
    ("lp2hp long b", lambda m, b, a, wo: m.lp2hp(b, a, wo), [B3, [1.0, 0.5], 0.5]),
    ("lp2bp", lambda m, b, a, wo, bw: m.lp2bp(b, a, wo, bw), [[1.0, 2.0], A3, 2.5, 0.7]),
    ("lp2bp long b", lambda m, b, a, wo, bw: m.lp2bp(b, a, wo, bw), [B3, [1.0, 0.5], 1.5,
                                                                      0.3]),
    ("lp2bs", lambda m, b, a, wo, bw: m.lp2bs(b, a, wo, bw), [[1.0, 2.0], A3, 2.5, 0.7]),
    ("lp2bs long b", lambda m, b, a, wo, bw: m.lp2bs(b, a, wo, bw), [B3, [1.0, 0.5], 1.5,
                                                                      0.3]),
    ("iirnotch", lambda m, w0, q: m.iirnotch(w0, q, fs=500.0), [60.0, 30.0]),
    ("iirpeak", lambda m, w0, q: m.iirpeak(w0, q), [0.3, 5.0]),
]


@pytest.mark.parametrize("name,call,params", LTI, ids=[f[0] for f in LTI])
def test_representations_equal_scipys_and_differentiate(name, call, params):
    _check_against_scipy_differences(lambda *p: call(fss, *p), lambda *p: call(ss, *p),
                                     params, name, rtol=1e-5)


def test_representations_of_a_design_are_scipys():
    z, p, k = ss.butter(4, 0.3, output="zpk")
    b, a = ss.butter(4, 0.3)
    for pairing in (None, "nearest", "keep_odd", "minimal"):
        assert_close(fss.zpk2sos(z, p, k, pairing), ss.zpk2sos(z, p, k, pairing), 1e-9)
    sos = ss.butter(4, 0.3, output="sos")
    assert_close(np.concatenate(fss.sos2tf(sos)), np.concatenate(ss.sos2tf(sos)), 1e-12)
    assert_close(_real(fss.zpk2tf(z, p, k)), _real(ss.zpk2tf(z, p, k)), 1e-12)
    assert fss.zpk2tf(z, p, k)[1].dtype == np.float64  # (conjugate pairs: real)
    zc, pc, kc = ss.cheb2ap(3, 40.0)
    for ours, theirs in ((fss.lp2bs_zpk(zc, pc, kc, 2.0, 0.5), ss.lp2bs_zpk(zc, pc, kc, 2.0, 0.5)),
                         (fss.bilinear_zpk(zc, pc, kc, 3.0), ss.bilinear_zpk(zc, pc, kc, 3.0)),
                         (fss.lp2hp(*ss.zpk2tf(zc, pc, kc), 2.0),
                          ss.lp2hp(*ss.zpk2tf(zc, pc, kc), 2.0))):
        assert_close(_real(ours), _real(theirs), 1e-12)
    with pytest.warns(ss.BadCoefficients):
        num, den = fss.normalize([0.0, 0.0, 1.0], [1.0, 2.0])
    assert np.array_equal(num, [1.0]) and np.array_equal(den, [1.0, 2.0])


def test_responses_spectra_and_transformations_vmap():
    bs = RNG.normal(size=(3, 5))
    got = fg.vmap(lambda b: fss.freqz(b, A, worN=8)[1])(bs)
    assert_close(_real(got), _real(np.stack([ss.freqz(b, A, worN=8)[1] for b in bs])), 1e-12)
    wos = np.array([0.5, 1.0, 2.0])
    got = fg.vmap(lambda wo: fss.lp2bp_zpk(ZA, PA, KA, wo, 0.7)[1])(wos)
    assert_close(_real(got), _real(np.stack([ss.lp2bp_zpk(ZA, PA, KA, wo, 0.7)[1]
                                             for wo in wos])), 1e-12)
    assert_close(fg.vmap(lambda x: fss.periodogram(x, window="hann")[1])(XS),
                 ss.periodogram(XS, window="hann")[1], 1e-12)

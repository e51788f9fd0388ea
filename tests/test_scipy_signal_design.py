"""IIR design (``iirfilter``, ``butter``, ``cheby1``, ``cheby2``, ``ellip``, ``bessel``),
Gustafsson's ``filtfilt(method='gust')`` and Savitzky-Golay filters in
``funcgrad.scipy.signal``: values, dtypes and shapes against SciPy's; the derivative of a
design in its critical frequencies against central differences of SciPy's design;
derivatives of the filters by finite differences and the dot-product test; ``vmap``,
``jit``, float32, and the errors."""
from fractions import Fraction

import numpy as np
import pytest
import scipy.signal as ss

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.signal as fss
from funcgrad.errors import ConcretizationError
from helpers import (assert_close, check_dot_product, check_float32, check_jvp_fd,
                     check_second_order, check_vmap)

RNG = np.random.default_rng(20261204)

FAMILIES = [("butter", ()), ("cheby1", (1.0,)), ("cheby2", (40.0,)), ("ellip", (0.5, 30.0)),
            ("bessel", ())]
BANDS = [("lowpass", 0.3), ("highpass", 0.45), ("bandpass", [0.2, 0.5]),
         ("bandstop", [0.1, 0.6])]


def _design(module, family, N, extra, Wn, **kw):
    return getattr(module, family)(N, *extra, Wn, **kw)


def _flat(out, output):
    """A design's outputs as one real vector (real and imaginary parts of the roots)."""
    parts = [out] if output == "sos" else list(out)
    real = [np.ravel(np.real(np.asarray(p))) for p in parts]
    imag = [np.ravel(np.imag(np.asarray(p))) for p in parts if np.iscomplexobj(p)]
    return np.concatenate(real + imag)


# --- designs: values -------------------------------------------------------------------

@pytest.mark.parametrize("family,extra", FAMILIES)
@pytest.mark.parametrize("analog", [False, True])
def test_designs_equal_scipys_in_every_band_and_output(family, extra, analog):
    for N in range(1, 7):
        for btype, Wn in BANDS:
            Wn = np.asarray(Wn) * (4.0 if analog else 1.0)
            for output in ("ba", "zpk", "sos"):
                got = _design(fss, family, N, extra, Wn, btype=btype, analog=analog,
                              output=output)
                want = _design(ss, family, N, extra, Wn, btype=btype, analog=analog,
                               output=output)
                pairs = [(got, want)] if output == "sos" else list(zip(got, want))
                assert output == "sos" or len(got) == len(want)
                for g, w in pairs:
                    g, w = np.asarray(g), np.asarray(w)
                    what = f"{family} N={N} {btype} analog={analog} {output}"
                    assert g.shape == w.shape and g.dtype == w.dtype, what
                    assert_close(np.stack([g.real, np.imag(g)]),
                                 np.stack([w.real, np.imag(w)]), 1e-12, what=what)


def test_fs_bessel_norms_and_iirfilter_aliases_are_scipys():
    for kw in [dict(N=4, Wn=30.0, btype="high", fs=200.0, ftype="cheby1", rp=0.5),
               dict(N=3, Wn=[10.0, 40.0], btype="bp", fs=100.0, ftype="cauer", rp=1.0,
                    rs=50.0),
               dict(N=5, Wn=0.25, btype="l", ftype="bessel_delay"),
               dict(N=5, Wn=2.0, btype="h", ftype="bessel_mag", analog=True),
               dict(N=2, Wn=[0.3, 0.4], btype="stop", ftype="chebyshevii", rs=20.0)]:
        for output in ("ba", "zpk", "sos"):
            got = fss.iirfilter(output=output, **kw)
            want = ss.iirfilter(output=output, **kw)
            assert_close(_flat(got, output), _flat(want, output), 1e-12, what=str(kw))
    for norm in ("phase", "delay", "mag"):
        assert_close(np.concatenate(fss.bessel(4, 0.2, norm=norm)),
                     np.concatenate(ss.bessel(4, 0.2, norm=norm)), 1e-12)


def test_designed_filters_filter_like_scipys():
    x = RNG.normal(size=300)
    b, a = fss.ellip(4, 0.5, 40.0, [0.1, 0.3], btype="bandpass")
    assert_close(fss.filtfilt(b, a, x), ss.filtfilt(*ss.ellip(4, 0.5, 40.0, [0.1, 0.3],
                                                               btype="bandpass"), x), 1e-10)
    sos = fss.cheby2(6, 50.0, 0.2, output="sos")
    assert_close(fss.sosfiltfilt(sos, x), ss.sosfiltfilt(ss.cheby2(6, 50.0, 0.2,
                                                                   output="sos"), x), 1e-12)


# --- designs: the derivative in Wn -------------------------------------------------------

@pytest.mark.parametrize("family,extra", FAMILIES)
def test_design_derivative_in_wn_is_the_derivative_of_scipys_design(family, extra):
    """``jvp`` in ``Wn`` against central differences of SciPy's own design, for every
    band, output, analog and digital (the zpk roots come in SciPy's order)."""
    eps = 1e-6
    for N in (1, 2, 3, 4):
        for btype, Wn in BANDS:
            for analog in (False, True):
                Wn_ = np.asarray(Wn) * (4.0 if analog else 1.0)
                v = RNG.normal(size=Wn_.shape)
                for output in ("ba", "zpk", "sos"):
                    def ours(w):
                        out = _design(fss, family, N, extra, w, btype=btype, analog=analog,
                                      output=output)
                        parts = [out] if output == "sos" else list(out)
                        return fnp.concatenate([fnp.ravel(fnp.real(p)) for p in parts]
                                               + [fnp.ravel(fnp.imag(p)) for p in parts
                                                  if np.iscomplexobj(p)])

                    def scipys(w):
                        return _flat(_design(ss, family, N, extra, w, btype=btype,
                                             analog=analog, output=output), output)
                    _, tangent = fg.jvp(ours, (Wn_,), (v,))
                    fd = (scipys(Wn_ + eps * v) - scipys(Wn_ - eps * v)) / (2 * eps)
                    assert_close(tangent, fd, 1e-6, 1e-7,
                                 what=f"{family} N={N} {btype} analog={analog} {output}")


def test_design_reverse_mode_and_second_order_in_wn():
    for output in ("ba", "sos"):
        def f(w, output=output):
            out = fss.cheby1(3, 1.0, w, btype="bandstop", output=output)
            return fnp.concatenate(list(out)) if output == "ba" else out
        check_dot_product(f, [np.array([0.2, 0.45])], RNG)
    check_second_order(lambda w: fnp.concatenate(fss.butter(3, w)), [np.array(0.3)], RNG)
    check_second_order(lambda w: fss.ellip(2, 1.0, 30.0, w, "bandpass", output="sos"),
                       [np.array([0.2, 0.35])], RNG, fd=False)


def test_gradient_of_a_filtered_signal_in_the_cutoff_matches_scipy_differences():
    x = RNG.normal(size=120)
    eps = 1e-6

    def loss(w):
        return fnp.sum(fss.filtfilt(*fss.ellip(3, 1.0, 40.0, w), x) ** 2)

    def loss_scipy(w):
        return np.sum(ss.filtfilt(*ss.ellip(3, 1.0, 40.0, w), x) ** 2)
    fd = (loss_scipy(0.3 + eps) - loss_scipy(0.3 - eps)) / (2 * eps)
    assert abs(float(fg.grad(loss)(0.3)) - fd) <= 1e-6 * abs(fd)

    def loss_sos(w):
        return fnp.sum(fss.sosfiltfilt(fss.cheby1(4, 1.0, w, btype="bandpass",
                                                  output="sos"), x) ** 2)
    w = np.array([0.2, 0.4])
    fd = [(np.sum(ss.sosfiltfilt(ss.cheby1(4, 1.0, w + eps * e, btype="bandpass",
                                           output="sos"), x) ** 2)
           - np.sum(ss.sosfiltfilt(ss.cheby1(4, 1.0, w - eps * e, btype="bandpass",
                                             output="sos"), x) ** 2)) / (2 * eps)
          for e in np.eye(2)]
    assert_close(fg.grad(loss_sos)(w), np.array(fd), 1e-6)


def test_designs_under_jit_and_vmap():
    ws = np.array([0.2, 0.3, 0.45])
    assert_close(fg.jit(lambda w: fss.bessel(3, w, btype="high")[1])(0.3),
                 ss.bessel(3, 0.3, btype="high")[1], 1e-12)
    assert_close(fg.vmap(lambda w: fss.cheby2(3, 30.0, w)[0])(ws),
                 np.stack([ss.cheby2(3, 30.0, w)[0] for w in ws]), 1e-12)
    check_vmap(lambda w: fnp.concatenate(fss.butter(2, w)), [ws], [0])
    grads = fg.jit(fg.grad(lambda w: fnp.sum(fss.butter(4, w)[1])))(0.3)
    assert_close(grads, fg.grad(lambda w: fnp.sum(fss.butter(4, w)[1]))(0.3), 1e-12)
    with pytest.raises(ConcretizationError, match="output='ba' or 'zpk'"):
        fg.jit(lambda w: fss.butter(3, w, output="sos"))(0.3)


def test_a_float32_wn_gives_scipys_float64_design_and_a_float32_gradient():
    b, a = fss.butter(3, np.float32(0.3))
    assert b.dtype == a.dtype == np.float64
    g = fg.grad(lambda w: fnp.sum(fss.butter(3, w)[0]))(np.float32(0.3))
    assert g.dtype == np.float32


def test_design_errors_name_the_problem():
    with pytest.raises(TypeError, match="rp is a traced value"):
        fg.grad(lambda r: fnp.sum(fss.cheby1(2, r, 0.3)[0]))(1.0)
    with pytest.raises(TypeError, match="N is a traced value"):
        fg.grad(lambda n: fnp.sum(fss.butter(n, 0.3)[0]))(2.0)
    with pytest.raises(ValueError, match="0 < Wn < 1"):
        fss.butter(2, 1.2)
    with pytest.raises(ValueError, match="fs/2"):
        fss.butter(2, 60.0, fs=100.0)
    with pytest.raises(ValueError, match="greater than 0"):
        fss.cheby1(2, 1.0, -0.3, analog=True)
    with pytest.raises(ValueError, match=r"Wn\[0\] must be less"):
        fss.butter(2, [0.4, 0.2], btype="bandpass")
    with pytest.raises(ValueError, match="start and stop"):
        fss.butter(2, 0.3, btype="bandpass")
    with pytest.raises(ValueError, match="single critical frequency"):
        fss.butter(2, [0.2, 0.3], btype="low")
    with pytest.raises(ValueError, match="invalid bandtype"):
        fss.butter(2, 0.3, btype="sideways")
    with pytest.raises(ValueError, match="not a valid basic IIR"):
        fss.iirfilter(2, 0.3, ftype="kaiser")
    with pytest.raises(ValueError, match="not a valid output"):
        fss.butter(2, 0.3, output="ss")
    with pytest.raises(ValueError, match="rp"):
        fss.iirfilter(2, 0.3, btype="low", ftype="cheby1")
    with pytest.raises(ValueError, match="fs cannot be specified"):
        fss.butter(2, 0.3, analog=True, fs=10.0)
    with pytest.raises(ValueError, match="norm"):
        fss.bessel(2, 0.3, norm="width")
    with pytest.raises(IndexError):  # (SciPy's own pairing fails here...)
        ss.ellip(3, 0.01, 100.0, [0.1, 0.2], btype="bandpass", analog=True, output="sos")
    with pytest.raises(ValueError, match="use output='zpk' or 'ba'"):  # (...ours says so)
        fss.ellip(3, 0.01, 100.0, [0.1, 0.2], btype="bandpass", analog=True, output="sos")


# --- filtfilt(method='gust') ----------------------------------------------------------------

@pytest.mark.parametrize("seed", range(8))
def test_gustafssons_filtfilt_equals_scipys(seed):
    rng = np.random.default_rng(seed)
    nb, na = rng.integers(1, 6), rng.integers(1, 6)
    b = rng.normal(size=nb)
    a = np.poly(rng.uniform(-0.8, 0.8, na - 1)) * rng.uniform(0.5, 2.0)
    for shape, axis in [((60,), -1), ((3, 40), 1), ((25, 2), 0)]:
        x = rng.normal(size=shape)
        for irlen in (None, 5, 30):
            assert_close(fss.filtfilt(b, a, x, axis=axis, method="gust", irlen=irlen),
                         ss.filtfilt(b, a, x, axis=axis, method="gust", irlen=irlen), 1e-11,
                         what=f"nb={nb} na={na} {shape} axis={axis} irlen={irlen}")


def test_gustafssons_filtfilt_derivatives_vmap_jit_and_float32():
    b, a = np.array([0.3, 0.5, 0.2]), np.array([1.2, -0.4, 0.15])
    x = RNG.normal(size=30)
    for irlen in (None, 6):
        def f(b, a, x, irlen=irlen):
            return fss.filtfilt(b, a, x, method="gust", irlen=irlen)
        check_jvp_fd(f, [b, a, x], RNG)
        check_dot_product(f, [b, a, x], RNG)
    check_second_order(lambda a, x: fss.filtfilt(b, a, x, method="gust"), [a, x], RNG,
                       fd=False)
    xs = RNG.normal(size=(3, 30))
    check_vmap(lambda x: fss.filtfilt(b, a, x, method="gust"), [xs], [0])
    assert_close(fg.jit(lambda x: fss.filtfilt(b, a, x, method="gust"))(xs),
                 ss.filtfilt(b, a, xs, method="gust"), 1e-11)
    check_float32(lambda x: fss.filtfilt(b.astype(np.float32), a.astype(np.float32), x,
                                         method="gust"), [xs.astype(np.float32)])
    with pytest.raises(ValueError, match="irlen must be a positive"):
        fss.filtfilt(b, a, x, method="gust", irlen=0)


# --- Savitzky-Golay ------------------------------------------------------------------------

def _exact_savgol_weights(window_length, polyorder, deriv, pos):
    """The least-squares weights in exact rational arithmetic (the 'dot' order, unit
    spacing): row ``deriv`` of ``(A A^T)^-1 A`` times ``deriv!``, ``A[j, i] = (i -
    pos)^j``."""
    pos = Fraction(pos)
    power = [[(Fraction(i) - pos) ** j for i in range(window_length)]
             for j in range(polyorder + 1)]
    n = polyorder + 1
    rows = [[sum(p * q for p, q in zip(power[r], power[c])) for c in range(n)]
            + [Fraction(int(r == deriv))] for r in range(n)]
    for i in range(n):  # (Gauss-Jordan on the normal equations: exact in rationals)
        rows[i] = [v / rows[i][i] for v in rows[i]]
        for r in range(n):
            if r != i:
                rows[r] = [u - rows[r][i] * v for u, v in zip(rows[r], rows[i])]
    solution = [rows[j][n] for j in range(n)]
    factorial = 1
    for m in range(2, deriv + 1):
        factorial *= m
    return np.array([float(factorial * sum(solution[j] * power[j][i] for j in range(n)))
                     for i in range(window_length)])


def test_savgol_coeffs_are_scipys_centred_and_exact_anywhere():
    for window_length in (1, 2, 3, 4, 5, 8, 11, 21):
        for polyorder in range(min(window_length, 6)):
            for deriv in range(4):
                for use in ("conv", "dot"):
                    assert_close(fss.savgol_coeffs(window_length, polyorder, deriv, 0.5,
                                                   use=use),
                                 ss.savgol_coeffs(window_length, polyorder, deriv, 0.5,
                                                  use=use), 1e-12)
                if deriv <= polyorder:
                    # (off centre SciPy's own fit loses up to 5e-11 on its raw abscissae:
                    # the reference is exact arithmetic)
                    for pos in (0, window_length - 1, window_length // 3):
                        assert_close(fss.savgol_coeffs(window_length, polyorder, deriv,
                                                       pos=pos, use="dot"),
                                     _exact_savgol_weights(window_length, polyorder, deriv,
                                                           pos), 1e-13)


@pytest.mark.parametrize("mode", ["mirror", "constant", "nearest", "interp", "wrap"])
def test_savgol_filter_equals_scipys(mode):
    for window_length in (1, 2, 3, 5, 8, 11):
        for polyorder in range(min(window_length, 5)):
            for deriv in (0, 1, 2, 5):
                for shape, axis in [((30,), -1), ((3, 25), 1), ((window_length, 2), 0)]:
                    if mode == "mirror" and shape[axis] < 2:
                        continue
                    x = RNG.normal(size=shape)
                    args = (x, window_length, polyorder, deriv, 0.7, axis, mode, 0.3)
                    assert_close(fss.savgol_filter(*args), ss.savgol_filter(*args), 1e-12,
                                 what=f"{window_length} {polyorder} {deriv} {shape}")


def test_savgol_derivatives_vmap_jit_and_float32():
    x = RNG.normal(size=(2, 20))
    for mode in ("interp", "constant", "mirror"):
        def f(x, delta, cval, mode=mode):
            return fss.savgol_filter(x, 7, 3, 1, delta, mode=mode, cval=cval)
        check_jvp_fd(f, [x, np.array(0.6), np.array(0.4)], RNG)
        check_dot_product(f, [x, np.array(0.6), np.array(0.4)], RNG)
    # (linear in x: the gradient is SciPy's filter of the unit vectors, transposed)
    weights = np.arange(20.0)
    g = fg.grad(lambda v: fnp.sum(fss.savgol_filter(v, 7, 3) * weights))(x[0])
    assert_close(g, ss.savgol_filter(np.eye(20), 7, 3, axis=1) @ weights, 1e-12)
    assert_close(fg.grad(lambda d: fnp.sum(fss.savgol_coeffs(5, 2, 2, d)))(0.5),
                 -2 * np.sum(ss.savgol_coeffs(5, 2, 2)) / 0.5 ** 3, 1e-12)
    check_vmap(lambda v: fss.savgol_filter(v, 5, 2, 1), [x], [0])
    assert_close(fg.jit(lambda v: fss.savgol_filter(v, 5, 2))(x), ss.savgol_filter(x, 5, 2),
                 1e-12)
    for mode in ("interp", "wrap"):
        check_float32(lambda v, mode=mode: fss.savgol_filter(v, 5, 2, 1, mode=mode),
                      [x.astype(np.float32)])


def test_savgol_errors_name_the_problem():
    with pytest.raises(ValueError, match="polyorder must be less than window_length"):
        fss.savgol_filter(np.ones(10), 3, 3)
    with pytest.raises(ValueError, match="window_length must be less than or equal"):
        fss.savgol_filter(np.ones(4), 5, 2)
    with pytest.raises(ValueError, match="mode must be"):
        fss.savgol_filter(np.ones(10), 5, 2, mode="reflect")
    with pytest.raises(ValueError, match="pos must be"):
        fss.savgol_coeffs(5, 2, pos=5)
    with pytest.raises(ValueError, match="`use` must be"):
        fss.savgol_coeffs(5, 2, use="corr")
    with pytest.raises(ValueError, match="scalar"):
        fss.savgol_filter(np.float64(1.0), 1, 0)

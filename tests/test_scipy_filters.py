"""IIR filtering (``funcgrad.scipy.signal``: ``lfilter``, ``lfilter_zi``, ``filtfilt``,
``sosfilt``, ``sosfilt_zi``, ``sosfiltfilt``, ``butter``; the other designs are in
``test_scipy_signal_design.py``) and Gaussian/uniform filters
(``funcgrad.scipy.ndimage``): values against SciPy's over random orders, axes, initial
states, pads and modes; derivatives in the signal and the coefficients by finite
differences, the dot-product test and second order; ``vmap``, ``jit`` and float32."""
import subprocess
import sys

import numpy as np
import pytest
import scipy.ndimage as snd
import scipy.signal as ss

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.ndimage as fnd
import funcgrad.scipy.signal as fss
from funcgrad.errors import ConcretizationError
from helpers import (assert_close, check_dot_product, check_float32, check_jvp_fd,
                     check_second_order, check_vmap)

RNG = np.random.default_rng(20261204)


def stable_denominator(rng, order):
    """``a`` (``a[0]`` not 1) whose poles lie inside the unit circle (|p| < 0.8)."""
    poles = rng.uniform(0.1, 0.8, order) * np.exp(1j * rng.uniform(0, np.pi, order))
    poles = np.where(rng.random(order) < 0.5, poles.real, poles)  # (some real poles)
    a = np.real(np.atleast_1d(np.poly(np.concatenate([poles, np.conj(poles[np.iscomplex(poles)])]))))
    return a[:order + 1] * rng.uniform(0.5, 2.0)


def random_sos(rng, n_sections):
    rows = []
    for _ in range(n_sections):
        a = stable_denominator(rng, 2)
        rows.append(np.concatenate([rng.normal(size=3), a / a[0]]))
    return np.array(rows)


# --- values against SciPy --------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_lfilter_matches_scipy_over_orders_axes_and_initial_states(seed):
    rng = np.random.default_rng(seed)
    nb, na = rng.integers(1, 6), rng.integers(1, 6)
    b, a = rng.normal(size=nb), stable_denominator(rng, na - 1)
    shape = tuple(rng.integers(1, 5, rng.integers(1, 4)))
    axis = int(rng.integers(-len(shape), len(shape)))
    shape = shape[:axis % len(shape)] + (int(rng.integers(1, 40)),) + shape[axis % len(shape) + 1:]
    x = rng.normal(size=shape)
    assert_close(fss.lfilter(b, a, x, axis=axis), ss.lfilter(b, a, x, axis=axis), 1e-12)
    k = max(na, nb) - 1
    zi_shape = list(shape)
    zi_shape[axis] = k
    if len(shape) > 1:  # (SciPy lets the other axes of zi be 1)
        zi_shape[(axis + 1) % len(shape)] = 1
    zi = rng.normal(size=zi_shape)
    y, zf = fss.lfilter(b, a, x, axis=axis, zi=zi)
    y_ref, zf_ref = ss.lfilter(b, a, x, axis=axis, zi=zi)
    assert_close(y, y_ref, 1e-12)
    assert_close(zf, zf_ref, 1e-12)
    assert zf.shape == zf_ref.shape


@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_lfilter_shorter_than_the_filter_keeps_the_rest_of_the_state(n):
    b, a = np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([2.0, 0.3])
    zi, x = RNG.normal(size=4), RNG.normal(size=n)
    for got, want in zip(fss.lfilter(b, a, x, zi=zi), ss.lfilter(b, a, x, zi=zi)):
        assert_close(got, want, 1e-12)


def test_lfilter_of_a_block_continues_from_the_state_of_the_one_before():
    b, a = ss.butter(3, 0.2)
    x = RNG.normal(size=60)
    first, zf = fss.lfilter(b, a, x[:25], zi=np.zeros(3))
    second, _ = fss.lfilter(b, a, x[25:], zi=zf)
    assert_close(np.concatenate([first, second]), ss.lfilter(b, a, x), 1e-12)


def test_lfilter_zi_is_scipys_and_gives_a_steady_step_response():
    for b, a in [ss.butter(4, 0.3), ([1.0, 2.0], [3.0, 0.5, 0.1]), ([1.0, 0.5, 0.2], [1.0]),
                 ([2.0], [0.0, 1.0, -0.5])]:
        zi = fss.lfilter_zi(b, a)
        assert_close(zi, ss.lfilter_zi(b, a), 1e-12)
    b, a = ss.butter(2, 0.4)
    y, _ = fss.lfilter(b, a, np.ones(10), zi=fss.lfilter_zi(b, a))
    assert_close(y, np.ones(10), 1e-12)


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
@pytest.mark.parametrize("padlen", [None, 0, 5])
def test_filtfilt_matches_scipy(padtype, padlen):
    b, a = ss.butter(3, 0.25)
    x = RNG.normal(size=(3, 40))
    for axis in (-1, 0) if padlen != 5 else (-1,):
        xa = x if axis == -1 else x.T
        assert_close(fss.filtfilt(b, a, xa, axis=axis, padtype=padtype, padlen=padlen),
                     ss.filtfilt(b, a, xa, axis=axis, padtype=padtype, padlen=padlen), 1e-12)
    b, a = [1.0, 0.5, 0.3, 0.2, 0.1], [2.0, -0.4]  # (more taps than poles)
    assert_close(fss.filtfilt(b, a, x), ss.filtfilt(b, a, x), 1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_sosfilt_and_sosfiltfilt_match_scipy(seed):
    rng = np.random.default_rng(seed)
    sos = random_sos(rng, int(rng.integers(1, 4)))
    x = rng.normal(size=(2, 30, 3))
    for axis in (1, -1, 0):
        assert_close(fss.sosfilt(sos, x, axis=axis), ss.sosfilt(sos, x, axis=axis), 1e-12)
        zi_shape = (sos.shape[0],) + x.shape[:axis % 3] + (2,) + x.shape[axis % 3 + 1:]
        zi = rng.normal(size=zi_shape)
        for got, want in zip(fss.sosfilt(sos, x, axis=axis, zi=zi),
                             ss.sosfilt(sos, x, axis=axis, zi=zi)):
            assert_close(got, want, 1e-12)
    assert_close(fss.sosfilt_zi(sos), ss.sosfilt_zi(sos), 1e-12)
    assert_close(fss.sosfiltfilt(sos, x, axis=1), ss.sosfiltfilt(sos, x, axis=1), 1e-12)
    assert_close(fss.sosfiltfilt(sos, x, axis=1, padtype="even", padlen=4),
                 ss.sosfiltfilt(sos, x, axis=1, padtype="even", padlen=4), 1e-12)


def test_butterworth_designs_are_scipys_and_filter_like_scipy():
    x = RNG.normal(size=200)
    for args, kw in [((4, 0.2), {}), ((3, [0.1, 0.4]), {"btype": "bandpass"}),
                     ((5, 30.0), {"btype": "high", "fs": 200.0})]:
        for output in ("ba", "sos", "zpk"):
            got, want = fss.butter(*args, output=output, **kw), ss.butter(*args, output=output,
                                                                          **kw)
            for g, w in zip(got if output != "sos" else [got], want if output != "sos"
                            else [want]):
                assert type(g) is np.ndarray or np.isscalar(g)
                # (built with funcgrad operations, differentiable in Wn: SciPy's to rounding)
                assert_close(np.stack([np.real(g), np.imag(g)]),
                             np.stack([np.real(w), np.imag(w)]), 1e-13)
        b, a = fss.butter(*args, **kw)
        sos = fss.butter(*args, output="sos", **kw)
        assert_close(fss.filtfilt(b, a, x), ss.filtfilt(b, a, x), 1e-12)
        assert_close(fss.sosfiltfilt(sos, x), ss.sosfiltfilt(sos, x), 1e-12)


def test_float32_stays_float32_and_close_to_scipy():
    b, a = (c.astype(np.float32) for c in ss.butter(3, 0.3))
    x = RNG.normal(size=(2, 50)).astype(np.float32)
    y = fss.lfilter(b, a, x)
    assert y.dtype == np.float32
    assert_close(y, ss.lfilter(b, a, x), 1e-5)
    y, zf = fss.lfilter(b, a, x, zi=np.zeros((2, 3), np.float32))
    assert y.dtype == zf.dtype == np.float32
    assert fss.filtfilt(b, a, x).dtype == np.float32
    assert_close(fss.filtfilt(b, a, x), ss.filtfilt(b, a, x), 1e-4)
    sos = ss.butter(4, 0.3, output="sos").astype(np.float32)
    assert fss.sosfiltfilt(sos, x).dtype == np.float32
    assert_close(fss.sosfiltfilt(sos, x), ss.sosfiltfilt(sos, x), 1e-4)


def test_importing_the_signal_module_does_not_import_scipy():
    code = ("import sys, funcgrad, funcgrad.scipy.signal, funcgrad.scipy.ndimage; "
            "assert 'scipy' not in sys.modules, 'scipy was imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


# --- derivatives -----------------------------------------------------------------------------

def _lfilter_args(rng, nb=3, na=3, n=12):
    return [rng.normal(size=nb), stable_denominator(rng, na - 1), rng.normal(size=(2, n)),
            rng.normal(size=(2, max(na, nb) - 1))]


@pytest.mark.parametrize("nb,na", [(3, 3), (1, 4), (5, 2), (2, 1)])
def test_lfilter_derivatives_in_signal_coefficients_and_state(nb, na):
    rng = np.random.default_rng(nb * 10 + na)
    args = _lfilter_args(rng, nb, na)
    f = lambda b, a, x, zi: fss.lfilter(b, a, x, zi=zi)  # noqa: E731
    check_jvp_fd(f, args, rng)
    check_dot_product(f, args, rng)
    g = lambda b, a, x: fss.lfilter(b, a, x, axis=0)  # noqa: E731
    check_jvp_fd(g, [args[0], args[1], args[2].T], rng)
    check_dot_product(g, [args[0], args[1], args[2].T], rng)


def test_lfilter_gradient_in_x_is_the_filter_run_backwards():
    b, a = ss.butter(3, 0.3)
    x, w = RNG.normal(size=50), RNG.normal(size=50)
    grad = fg.grad(lambda x: fnp.sum(fss.lfilter(b, a, x) * w))(x)
    assert_close(grad, ss.lfilter(b, a, w[::-1])[::-1], 1e-12)


def test_lfilter_gradient_in_a_matches_finite_differences_of_scipy():
    b, a = ss.butter(2, 0.3)
    x, w = RNG.normal(size=40), RNG.normal(size=40)
    grad = fg.grad(lambda a: fnp.sum(fss.lfilter(b, a, x) * w))(a)
    eps = 1e-6
    fd = [(np.sum(ss.lfilter(b, a + eps * e, x) * w) - np.sum(ss.lfilter(b, a - eps * e, x)
                                                                 * w)) / (2 * eps)
          for e in np.eye(3)]
    assert_close(grad, fd, 1e-6)


def test_lfilter_second_order():
    rng = np.random.default_rng(7)
    b, a, x, zi = _lfilter_args(rng, 2, 3, 6)
    check_second_order(lambda b, a, x, zi: fss.lfilter(b, a, x, zi=zi), [b, a, x[0], zi[0]],
                       rng)


def test_filtfilt_and_lfilter_zi_derivatives():
    rng = np.random.default_rng(3)
    b, a = rng.normal(size=3), stable_denominator(rng, 2)
    x = rng.normal(size=(2, 20))
    for f, args in [(lambda b, a, x: fss.filtfilt(b, a, x), [b, a, x]),
                    (lambda b, a, x: fss.filtfilt(b, a, x, padtype="even", padlen=3),
                     [b, a, x]),
                    (lambda b, a: fss.lfilter_zi(b, a), [b, a])]:
        check_jvp_fd(f, args, rng)
        check_dot_product(f, args, rng)
    check_second_order(lambda b, a, x: fss.filtfilt(b, a, x, padlen=3),
                       [b[:2], a[:2], x[0, :8]], rng)


def _with_unit_a0(free):
    """sos rows from their five free coefficients (``a[0] = 1`` is fixed)."""
    ones = fnp.ones(free.shape[:-1] + (1,), free.dtype)
    return fnp.concatenate([free[..., :3], ones, free[..., 3:]], -1)


def test_sosfilt_and_sosfiltfilt_derivatives():
    rng = np.random.default_rng(5)
    sos = random_sos(rng, 2)
    free = np.delete(sos, 3, axis=1)
    x = rng.normal(size=(2, 20))
    zi = rng.normal(size=(2, 2, 2))
    for f, args in [(lambda s, x, zi: fss.sosfilt(_with_unit_a0(s), x, zi=zi), [free, x, zi]),
                    (lambda s, x: fss.sosfiltfilt(_with_unit_a0(s), x), [free, x]),
                    (lambda s: fss.sosfilt_zi(_with_unit_a0(s)), [free])]:
        check_jvp_fd(f, args, rng)
        check_dot_product(f, args, rng)


def test_vmap_over_signals_and_coefficients():
    rng = np.random.default_rng(11)
    bs = rng.normal(size=(3, 3))
    as_ = np.stack([stable_denominator(rng, 2) for _ in range(3)])
    xs = rng.normal(size=(3, 2, 20))
    check_vmap(lambda b, a, x: fss.lfilter(b, a, x), [bs, as_, xs], [0, 0, 0], rng)
    check_vmap(lambda b, a, x: fss.lfilter(b, a, x), [bs[0], as_, xs[0]], [None, 0, None], rng)
    check_vmap(lambda b, a, x: fss.filtfilt(b, a, x, axis=0),
               [bs, as_[0], rng.normal(size=(20, 2, 3))], [0, None, 2], rng)
    sos = random_sos(rng, 2)
    check_vmap(lambda x: fss.sosfiltfilt(sos, x), [xs], [1], rng)


def test_jit_matches_eager():
    b, a = ss.butter(3, 0.2)
    sos = ss.butter(3, 0.2, output="sos")
    x = RNG.normal(size=(2, 40))
    f = fg.jit(lambda b, a, x: fss.filtfilt(b, a, x) + fss.sosfiltfilt(sos, x, padlen=9))
    assert_close(f(b, a, x), ss.filtfilt(b, a, x) + ss.sosfiltfilt(sos, x, padlen=9), 1e-12)
    g = fg.jit(fg.grad(lambda a, x: fnp.sum(fss.lfilter(b, a, x) ** 2), argnums=(0, 1)))
    want = fg.grad(lambda a, x: fnp.sum(fss.lfilter(b, a, x) ** 2), argnums=(0, 1))(a, x)
    for got, w in zip(g(a, x), want):
        assert_close(got, w, 1e-12)


def test_float32_derivatives():
    rng = np.random.default_rng(13)
    b, a, x, zi = _lfilter_args(rng)
    check_float32(lambda b, a, x, zi: fss.lfilter(b, a, x, zi=zi), [b, a, x, zi], rng)
    check_float32(lambda b, a, x: fss.filtfilt(b, a, x), [b, a, x], rng)


def test_the_gradient_graph_does_not_grow_with_the_signal():
    b, a = ss.butter(4, 0.2)
    f = fg.grad(lambda a, x: fnp.sum(fss.filtfilt(b, a, x) ** 2), argnums=(0, 1))
    sizes = [len(fg.make_graph(f)(a, np.ones(n)).eqns) for n in (50, 5000)]
    assert sizes[0] == sizes[1]


# --- errors ----------------------------------------------------------------------------------

def test_bad_input_raises_naming_the_problem():
    b, a = ss.butter(2, 0.3)
    x = np.ones(30)
    with pytest.raises(ValueError, match="method"):
        fss.filtfilt(b, a, x, method="fast")
    with pytest.raises(ValueError, match="padtype"):
        fss.filtfilt(b, a, x, padtype="zero")
    with pytest.raises(ValueError, match="padlen, which is 9"):
        fss.filtfilt(b, a, np.ones(9))
    with pytest.raises(ValueError, match="zi must have shape"):
        fss.lfilter(b, a, x, zi=np.zeros(3))
    with pytest.raises(ValueError, match=r"a\[0\] is 0"):
        fss.lfilter(b, [0.0, 1.0], x)
    with pytest.raises(ValueError, match="non-empty 1-d"):
        fss.lfilter(np.ones((2, 2)), a, x)
    with pytest.raises(ValueError, match="all ones"):
        fss.sosfilt(np.array([[1.0, 0, 0, 2.0, 0, 0]]), x)
    with pytest.raises(ValueError, match="zi shape"):
        fss.sosfilt(ss.butter(2, 0.3, output="sos"), x, zi=np.zeros((1, 3)))
    with pytest.raises(TypeError, match="N is a traced value"):
        fg.grad(lambda n: fnp.sum(fss.butter(n, 0.3)[0]))(2.0)


def test_sosfiltfilt_under_vmap_needs_padlen_for_its_default():
    sos = ss.butter(3, 0.3, output="sos")
    x = RNG.normal(size=(2, 30))
    f = lambda s, x: fss.sosfiltfilt(s, x)  # noqa: E731
    with pytest.raises(ConcretizationError, match="padlen"):
        fg.vmap(f, in_axes=(0, None))(np.stack([sos, sos]), x)
    got = fg.vmap(lambda s, x: fss.sosfiltfilt(s, x, padlen=9), in_axes=(0, None))(
        np.stack([sos, sos]), x)
    assert_close(got[1], ss.sosfiltfilt(sos, x, padlen=9), 1e-12)


# --- ndimage: Gaussian and uniform filters ---------------------------------------------------

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-wrap", "grid-mirror",
         "grid-constant"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 5, 17])
def test_gaussian_filter1d_matches_scipy_over_modes_orders_and_short_axes(mode, n):
    x = RNG.normal(size=(3, n))
    for sigma in (0.3, 1.0, 2.5):
        for order in (0, 1, 2):
            assert_close(fnd.gaussian_filter1d(x, sigma, axis=1, order=order, mode=mode,
                                               cval=0.7),
                         snd.gaussian_filter1d(x, sigma, axis=1, order=order, mode=mode,
                                               cval=0.7), 1e-12)
    assert_close(fnd.gaussian_filter1d(x.T, 1.2, axis=0, mode=mode, truncate=2.0),
                 snd.gaussian_filter1d(x.T, 1.2, axis=0, mode=mode, truncate=2.0), 1e-12)
    assert_close(fnd.gaussian_filter1d(x, 1.2, mode=mode, radius=7),
                 snd.gaussian_filter1d(x, 1.2, mode=mode, radius=7), 1e-12)


@pytest.mark.parametrize("mode", MODES)
def test_uniform_filter1d_matches_scipy_over_sizes_and_origins(mode):
    x = RNG.normal(size=(2, 9))
    for size in (1, 2, 3, 4, 7, 12):
        for origin in range(-(size // 2), (size - 1) // 2 + 1):
            assert_close(fnd.uniform_filter1d(x, size, mode=mode, cval=-0.4, origin=origin),
                         snd.uniform_filter1d(x, size, mode=mode, cval=-0.4, origin=origin),
                         1e-12)


def test_multidimensional_filters_match_scipy_with_per_axis_arguments():
    x = RNG.normal(size=(5, 6, 7))
    kw = dict(order=[0, 1, 2], mode=["reflect", "wrap", "mirror"])
    assert_close(fnd.gaussian_filter(x, [1.0, 0.0, 2.0], **kw),
                 snd.gaussian_filter(x, [1.0, 0.0, 2.0], **kw), 1e-12)
    assert_close(fnd.gaussian_filter(x, 1.5, radius=[2, 1], axes=(0, 2)),
                 snd.gaussian_filter(x, 1.5, radius=[2, 1], axes=(0, 2)), 1e-12)
    assert_close(fnd.gaussian_filter(x, (0.8, 1.3), axes=(-1, 1), mode="constant", cval=2.0),
                 snd.gaussian_filter(x, (0.8, 1.3), axes=(-1, 1), mode="constant", cval=2.0),
                 1e-12)
    assert_close(fnd.uniform_filter(x, [3, 2], origin=[1, 0], axes=(2, 0)),
                 snd.uniform_filter(x, [3, 2], origin=[1, 0], axes=(2, 0)), 1e-12)
    assert_close(fnd.uniform_filter(x, 4, mode="nearest"),
                 snd.uniform_filter(x, 4, mode="nearest"), 1e-12)
    image = RNG.normal(size=(4, 5)).astype(np.float32)
    for got, want in [(fnd.gaussian_filter(image, 1.0), snd.gaussian_filter(image, 1.0)),
                      (fnd.uniform_filter(image, 3), snd.uniform_filter(image, 3))]:
        assert got.dtype == np.float32
        assert_close(got, want, 1e-6)


def test_ndimage_filter_derivatives():
    rng = np.random.default_rng(17)
    x = rng.normal(size=(4, 6))
    for mode in ("reflect", "constant", "nearest", "mirror", "wrap"):
        for f in (lambda x: fnd.gaussian_filter(x, [0.7, 1.3], order=[1, 0], mode=mode,
                                                cval=0.5),
                  lambda x: fnd.gaussian_filter1d(x, 1.1, order=2, mode=mode),
                  lambda x: fnd.uniform_filter(x, (2, 3), mode=mode, cval=0.5)):
            check_jvp_fd(f, [x], rng)
            check_dot_product(f, [x], rng)
    check_second_order(lambda x: fnd.gaussian_filter(x, 1.0) ** 2, [x], rng)
    check_float32(lambda x: fnd.gaussian_filter(x, 1.0, mode="wrap"), [x], rng)
    check_vmap(lambda x: fnd.gaussian_filter(x, 1.0), [rng.normal(size=(3, 4, 5))], [2], rng)
    check_vmap(lambda x: fnd.uniform_filter1d(x, 3), [rng.normal(size=(3, 4, 5))], [0], rng)


def test_gaussian_filter_derivative_in_sigma_and_cval():
    x = RNG.normal(size=(5, 6))
    f = lambda s, c: fnd.gaussian_filter(x, s, mode="constant", cval=c, radius=3)  # noqa: E731
    check_jvp_fd(f, [1.3, 0.4], RNG)
    check_dot_product(f, [1.3, 0.4], RNG)
    # (the radius follows sigma's value, as SciPy's: away from a jump, FD of SciPy agree)
    eps = 1e-6
    grad = fg.grad(lambda s: fnp.sum(fnd.gaussian_filter1d(x, s, order=1) ** 2))(1.3)
    fd = (np.sum(snd.gaussian_filter1d(x, 1.3 + eps, order=1) ** 2)
          - np.sum(snd.gaussian_filter1d(x, 1.3 - eps, order=1) ** 2)) / (2 * eps)
    assert_close(grad, fd, 1e-6)
    sigmas = np.array([0.8, 1.0, 1.6])
    got = fg.vmap(lambda s: fnd.gaussian_filter1d(x, s, radius=4))(sigmas)
    for g, s in zip(got, sigmas):
        assert_close(g, snd.gaussian_filter1d(x, s, radius=4), 1e-12)


def test_jit_of_ndimage_filters():
    x = RNG.normal(size=(6, 7))
    f = fg.jit(lambda x: fnd.gaussian_filter(x, 1.5, mode="mirror") + fnd.uniform_filter(x, 3))
    assert_close(f(x), snd.gaussian_filter(x, 1.5, mode="mirror") + snd.uniform_filter(x, 3),
                 1e-12)


def test_ndimage_bad_input_raises_naming_the_problem():
    x = np.ones((4, 4))
    with pytest.raises(ValueError, match="mode"):
        fnd.gaussian_filter(x, 1.0, mode="clamp")
    with pytest.raises(ValueError, match="order"):
        fnd.gaussian_filter1d(x, 1.0, order=-1)
    with pytest.raises(ValueError, match="radius"):
        fnd.gaussian_filter1d(x, 1.0, radius=-2)
    with pytest.raises(RuntimeError, match="one per axis"):
        fnd.gaussian_filter(x, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="origin"):
        fnd.uniform_filter1d(x, 3, origin=2)
    with pytest.raises(TypeError, match="output"):
        fnd.uniform_filter(x, 3, output=np.empty((4, 4)))
    with pytest.raises(ValueError, match="unique"):
        fnd.gaussian_filter(x, 1.0, axes=(0, -2))
    with pytest.raises(ConcretizationError, match="radius="):
        fg.vmap(lambda s: fnd.gaussian_filter1d(x, s))(np.array([1.0, 2.0]))

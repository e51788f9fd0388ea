"""``funcgrad.scipy.signal``: the IIR order selection ``buttord``, ``cheb1ord``,
``cheb2ord``, ``ellipord`` and the complete design ``iirdesign``.  Orders and natural
frequencies against SciPy's (its docstring examples and a grid of bands, analog and
digital, with ``fs``); the derivative of ``Wn`` at the fixed order against central
differences of SciPy's own ``Wn``; band-stop edges (moved by SciPy's ``fminbound``) and
batched inputs refuse a derivative clearly; the errors."""
import numpy as np
import pytest
import scipy.signal as ss

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.signal as fsig
from helpers import assert_close, check_dot_product

RNG = np.random.default_rng(20261204)
ORDERS = ["buttord", "cheb1ord", "cheb2ord", "ellipord"]

# (wp, ws, gpass, gstop, analog, fs): low, high, band-pass, band-stop; digital, analog, fs
CASES = [
    (0.2, 0.3, 3, 40, False, None), (0.3, 0.2, 1, 60, False, None),
    ([0.2, 0.5], [0.1, 0.6], 1, 40, False, None), ([0.1, 0.6], [0.2, 0.5], 0.5, 50, False, None),
    (2.0, 3.0, 3, 40, True, None), (30.0, 10.0, 3, 60, True, None),
    ([20.0, 50.0], [14.0, 60.0], 3, 40, True, None), ([10.0, 60.0], [20.0, 50.0], 3, 40, True, None),
    (200.0, 300.0, 2, 30, False, 1000.0), ([100.0, 250.0], [60.0, 300.0], 1, 45, False, 800.0),
    (0.05, 0.06, 0.1, 80, False, None), (0.7, 0.65, 2, 30, False, None)]


@pytest.mark.parametrize("name", ORDERS)
def test_orders_and_natural_frequencies_are_scipys(name):
    for wp, ws, gpass, gstop, analog, fs in CASES:
        want_n, want_wn = getattr(ss, name)(wp, ws, gpass, gstop, analog=analog, fs=fs)
        got_n, got_wn = getattr(fsig, name)(wp, ws, gpass, gstop, analog=analog, fs=fs)
        what = f"{name}{(wp, ws, gpass, gstop, analog, fs)}"
        assert type(got_n) is int and got_n == want_n, what
        assert np.shape(got_wn) == np.shape(want_wn), what
        assert_close(got_wn, want_wn, 1e-14, what=what, scale=np.max(np.abs(want_wn)))


def test_scipys_docstring_examples():
    for name, args in [("buttord", ([20, 50], [14, 60], 3, 40, True)),
                       ("cheb1ord", (0.2, 0.3, 3, 40)),
                       ("cheb2ord", ([0.1, 0.6], [0.2, 0.5], 3, 60)),
                       ("ellipord", (30, 10, 3, 60, True))]:
        want, got = getattr(ss, name)(*args), getattr(fsig, name)(*args)
        assert got[0] == want[0]
        assert_close(got[1], want[1], 1e-14, scale=np.max(np.abs(want[1])))
    for output in ("ba", "zpk"):
        want = ss.iirdesign(0.1, 0.3, 5, 50, ftype="cheby1", output=output)
        got = fsig.iirdesign(0.1, 0.3, 5, 50, ftype="cheby1", output=output)
        for g, w in zip(got, want):
            for part in (np.real, np.imag):
                assert_close(part(g), part(w), 1e-12)


@pytest.mark.parametrize("ftype", ["butter", "cheby1", "cheby2", "ellip"])
def test_iirdesign_is_scipys(ftype):
    for wp, ws, gpass, gstop, analog, fs in CASES:
        for output in ("ba", "zpk", "sos"):
            if analog and output == "sos":
                continue
            want = ss.iirdesign(wp, ws, gpass, gstop, analog, ftype, output, fs)
            got = fsig.iirdesign(wp, ws, gpass, gstop, analog, ftype, output, fs)
            what = f"{ftype} {output} {(wp, ws, gpass, gstop, analog, fs)}"
            if output == "sos":
                assert_close(got, want, 1e-10, what=what)
                continue
            for g, w in zip(got, want):
                scale = max([1.0] + list(np.abs(np.ravel(w))))
                for part in (np.real, np.imag):  # (zeros and poles are complex)
                    assert_close(part(g), part(w), 1e-10, what=what, scale=scale)


def _differentiable_cases():
    for wp, ws, gpass, gstop, analog, fs in CASES:
        if np.size(wp) == 2 and wp[0] < ws[0]:  # (band-stop: its own test)
            continue
        yield wp, ws, gpass, gstop, analog, fs


@pytest.mark.parametrize("name", ORDERS)
def test_wn_derivative_at_the_fixed_order_matches_scipys_differences(name):
    eps = 1e-6
    for wp, ws, gpass, gstop, analog, fs in _differentiable_cases():
        wp, ws = np.atleast_1d(np.asarray(wp, float)), np.atleast_1d(np.asarray(ws, float))
        args = [wp, ws, np.array(float(gpass)), np.array(float(gstop))]

        def f(wp, ws, gpass, gstop):
            return getattr(fsig, name)(wp, ws, gpass, gstop, analog=analog, fs=fs)[1]

        def reference(wp, ws, gpass, gstop):
            return getattr(ss, name)(wp, ws, float(gpass), float(gstop), analog=analog,
                                     fs=fs)
        vs = [RNG.normal(size=a.shape) * (a if a.ndim else 1.0) * 1e-2 for a in args]
        n = reference(*args)[0]
        _, tangent = fg.jvp(f, tuple(args), tuple(vs))
        plus = reference(*[a + eps * v for a, v in zip(args, vs)])
        minus = reference(*[a - eps * v for a, v in zip(args, vs)])
        assert plus[0] == minus[0] == n  # (the order does not move over the step)
        fd = (np.asarray(plus[1]) - np.asarray(minus[1])) / (2 * eps)
        what = f"{name}{(list(wp), list(ws), gpass, gstop, analog, fs)}"
        # (a central difference of Wn carries ~ulp(Wn)/eps of rounding: judged against
        # the tangent, or a thousandth of Wn when the tangent is smaller)
        scale = max(np.max(np.abs(fd)), 1e-3 * np.max(np.abs(reference(*args)[1])))
        assert_close(tangent, fd, 1e-6, what=what, scale=scale)
    check_dot_product(lambda wp, gp: fsig.buttord(wp, [0.1, 0.6], gp, 40)[1],
                      [np.array([0.2, 0.5]), np.array(1.0)], RNG)


def test_iirdesign_derivative_in_the_band_edges():
    x = RNG.normal(size=64)

    def loss(wp, ws):
        b, a = fsig.iirdesign(wp, ws, 3, 20, ftype="butter")
        return fnp.sum(fsig.lfilter(b, a, x) ** 2)

    def reference(wp, ws):  # (a low order: the 'ba' form of a high one is noise to 1e-10)
        b, a = ss.iirdesign(wp, ws, 3, 20, ftype="butter")
        return np.sum(ss.lfilter(b, a, x) ** 2)
    wp, ws = np.array([0.2, 0.5]), np.array([0.1, 0.6])
    g = fg.grad(loss, argnums=(0, 1))(wp, ws)
    eps = 1e-5
    for i, (arg, gi) in enumerate(zip((wp, ws), g)):
        for j in range(2):
            step = np.zeros(2)
            step[j] = eps
            moved = [(wp, ws)[k] + (step if k == i else 0) for k in range(2)]
            back = [(wp, ws)[k] - (step if k == i else 0) for k in range(2)]
            fd = (reference(*moved) - reference(*back)) / (2 * eps)
            assert_close(gi[j], fd, 1e-5, scale=max(1.0, abs(fd)))


def test_band_stop_traced_order_inputs_and_errors():
    with pytest.raises(TypeError, match="fminbound"):
        fg.grad(lambda wp: fnp.sum(fsig.buttord(wp, [0.2, 0.5], 1, 40)[1]))(
            np.array([0.1, 0.6]))
    with pytest.raises(TypeError, match="fminbound"):
        fg.grad(lambda gp: fnp.sum(fsig.cheb2ord([0.1, 0.6], [0.2, 0.5], gp, 40)[1]))(1.0)
    with pytest.raises(fg.ConcretizationError, match="order"):
        fg.vmap(lambda wp: fsig.cheb1ord(wp, 0.3, 3, 40)[1])(np.array([0.1, 0.2]))
    with pytest.raises(ValueError, match="gpass should be smaller than gstop"):
        fsig.buttord(0.2, 0.3, 50, 40)
    with pytest.raises(ValueError, match="gstop should be larger than 0.0"):
        fsig.ellipord(0.2, 0.3, 1, 0)
    with pytest.raises(ValueError, match="fs cannot be specified for an analog filter"):
        fsig.cheb2ord(20.0, 30.0, 1, 40, analog=True, fs=100.0)
    with pytest.raises(ValueError, match="the same shape"):
        fsig.buttord([0.2, 0.4], 0.5, 1, 40)
    with pytest.raises(ValueError, match="does not have order selection"):
        fsig.iirdesign(0.2, 0.3, 1, 40, ftype="bessel")
    with pytest.raises(ValueError, match="Invalid IIR filter type"):
        fsig.iirdesign(0.2, 0.3, 1, 40, ftype="chebyshev3")
    with pytest.raises(ValueError, match="must be less than 1"):
        fsig.iirdesign(0.2, 1.3, 1, 40)
    with pytest.raises(ValueError, match="strictly inside stopband"):
        fsig.iirdesign([0.2, 0.5], [0.3, 0.6], 1, 40)
    with pytest.raises(TypeError, match="rp is a traced value"):
        fg.grad(lambda gp: fnp.sum(fsig.iirdesign(0.2, 0.3, gp, 40, ftype="cheby1")[0]))(1.0)

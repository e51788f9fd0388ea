"""SciPy 1.17 keywords that funcgrad's twins lacked: odeint's LSODA options (values and
infodict from SciPy's own run, derivatives against central differences of SciPy's
odeint), the array-API ``xp``/``device`` of scipy.signal's windows and filter designs,
``random_state`` of the resampling tests, ``quantile(weights=)``, the axis/nan_policy/
keepdims of the slope estimators and weightedtau, mstats' nan_policy/keepdims, and
the interpolators' and QMC engines' legacy keywords."""
import inspect

import numpy as np
import pytest
import scipy.integrate as si
import scipy.signal as ss
import scipy.signal.windows as sw

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.integrate as fsi
import funcgrad.scipy.signal as fss
import funcgrad.scipy.signal.windows as fsw

TS = np.linspace(0.0, 2.0, 5)


def _rhs(y, t, k):
    return fnp.stack([y[1], -k * y[0] - 0.1 * y[1]])


def _rhs_np(y, t, k):
    return np.array([y[1], -k * y[0] - 0.1 * y[1]])


def _jac(y, t, k):
    return np.array([[0.0, 1.0], [-k, -0.1]])


# --- odeint ----------------------------------------------------------------------------------

def test_odeint_full_output_is_scipys_run_with_every_option_passed_through():
    opts = dict(Dfun=_jac, hmax=0.1, h0=1e-3, mxords=3, mxordn=8, tcrit=[5.0],
                full_output=True)
    y, info = fsi.odeint(_rhs, np.array([1.0, 0.0]), TS, 2.0, **opts)
    want, winfo = si.odeint(_rhs_np, np.array([1.0, 0.0]), TS, (2.0,), **opts)
    np.testing.assert_array_equal(y, want)
    assert set(info) == set(winfo) >= {"hu", "tcur", "tolsf", "tsw", "nst", "nfe", "nje",
                                       "nqu", "imxer", "lenrw", "leniw", "mused",
                                       "message"}
    for key in winfo:
        np.testing.assert_array_equal(info[key], winfo[key])
    # a stiff problem: LSODA switches to BDF and calls the user's Jacobian
    calls = []

    def stiff_jac(y, t):
        calls.append(t)
        return np.array([[-1000.0]])
    y, info = fsi.odeint(lambda y, t: -1000.0 * (y - fnp.cos(t)), np.array([0.0]), TS,
                         Dfun=stiff_jac, full_output=True)
    assert calls and info["nje"][-1] == len(calls) and 2 in info["mused"]
    np.testing.assert_array_equal(y, si.odeint(lambda y, t: -1000.0 * (y - np.cos(t)), [0.0],
                                               TS, Dfun=lambda y, t: [[-1000.0]]))


def test_odeint_banded_jacobian_col_deriv_and_tfirst():
    def dfun_t(t, y, k):   # banded (ml=mu=1) in the packed layout SciPy documents
        return np.array([[0.0, 1.0], [0.0, -0.1], [-k, 0.0]])
    y = fsi.odeint(lambda t, y, k: _rhs(y, t, k), np.array([1.0, 0.0]), TS, args=(2.0,),
                   Dfun=dfun_t, ml=1, mu=1, tfirst=True)
    want = si.odeint(lambda t, y, k: _rhs_np(y, t, k), np.array([1.0, 0.0]), TS,
                     args=(2.0,), Dfun=dfun_t, ml=1, mu=1, tfirst=True)
    np.testing.assert_array_equal(y, want)
    yc = fsi.odeint(_rhs, np.array([1.0, 0.0]), TS, 2.0, Dfun=lambda y, t, k: _jac(y, t, k).T,
                    col_deriv=1)
    np.testing.assert_array_equal(yc, si.odeint(_rhs_np, [1.0, 0.0], TS, (2.0,),
                                                Dfun=lambda y, t, k: _jac(y, t, k).T,
                                                col_deriv=1))


def test_odeint_derivatives_with_scipy_options_match_central_differences_of_scipy():
    def ours(k):
        return fsi.odeint(_rhs, np.array([1.0, 0.0]), TS, k, hmax=0.1)[-1, 0]

    def scipys(k):
        return si.odeint(_rhs_np, [1.0, 0.0], TS, (k,), hmax=0.1, rtol=1e-12,
                         atol=1e-12)[-1, 0]
    h = 1e-5
    fd = (scipys(2.0 + h) - scipys(2.0 - h)) / (2 * h)
    np.testing.assert_allclose(fg.grad(ours)(2.0), fd, rtol=1e-6)
    value, tangent = fg.jvp(ours, (2.0,), (1.0,))
    assert value == si.odeint(_rhs_np, [1.0, 0.0], TS, (2.0,), hmax=0.1)[-1, 0]
    np.testing.assert_allclose(tangent, fd, rtol=1e-6)
    # y0: y' = -y^2 has y(t) = y0 / (1 + y0 t), dy(2)/dy0 = 1 / (1 + 2 y0)^2
    g = fg.grad(lambda y0: fsi.odeint(lambda y, t: -y * y, y0, TS, h0=1e-4)[-1])(1.0)
    np.testing.assert_allclose(g, 1.0 / 9.0, rtol=1e-6)


def test_odeint_scipy_options_under_jit_and_vmap():
    want = si.odeint(_rhs_np, [1.0, 0.0], TS, (2.0,), hmax=0.1)
    np.testing.assert_array_equal(
        fg.jit(lambda k: fsi.odeint(_rhs, np.array([1.0, 0.0]), TS, k, hmax=0.1))(2.0), want)
    got = fg.vmap(lambda k: fsi.odeint(_rhs, np.array([1.0, 0.0]), TS, k, hmax=0.1)[-1])(
        np.array([2.0, 3.0]))
    np.testing.assert_array_equal(got[0], want[-1])
    with pytest.raises(TypeError, match="full_output=True needs concrete values"):
        fg.jit(lambda k: fsi.odeint(_rhs, np.array([1.0, 0.0]), TS, k,
                                    full_output=True)[0])(2.0)
    with pytest.raises(TypeError, match="Dfun must be callable"):
        fsi.odeint(_rhs, np.array([1.0, 0.0]), TS, 2.0, Dfun=3.0)


def test_odeint_without_scipy_options_keeps_dormand_prince():
    # (the default path is unchanged: within its tolerance of SciPy's, not equal to it)
    y = fsi.odeint(_rhs, np.array([1.0, 0.0]), TS, 2.0)
    want = si.odeint(_rhs_np, [1.0, 0.0], TS, (2.0,))
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-7)
    assert not np.array_equal(y, want)


# --- scipy.signal's xp / device ---------------------------------------------------------------

WINDOWS = [("barthann", ()), ("bartlett", ()), ("blackman", ()), ("blackmanharris", ()),
           ("bohman", ()), ("boxcar", ()), ("chebwin", (50.0,)), ("cosine", ()),
           ("dpss", (2.0,)), ("exponential", ()), ("flattop", ()), ("gaussian", (1.5,)),
           ("general_gaussian", (1.5, 2.0)), ("general_hamming", (0.6,)), ("hamming", ()),
           ("hann", ()), ("kaiser", (4.0,)), ("kaiser_bessel_derived", (4.0,)),
           ("lanczos", ()), ("nuttall", ()), ("parzen", ()), ("taylor", ()), ("triang", ()),
           ("tukey", (0.3,))]


@pytest.mark.parametrize("name,params", WINDOWS)
def test_windows_take_xp_and_device(name, params):
    want = getattr(sw, name)(8, *params, xp=np, device="cpu")
    ours = getattr(fsw, name)
    np.testing.assert_allclose(ours(8, *params, xp=np, device="cpu"), want, atol=1e-12)
    np.testing.assert_allclose(ours(8, *params, xp=fnp), want, atol=1e-12)
    assert list(inspect.signature(ours).parameters)[-2:] == ["xp", "device"]
    with pytest.raises(TypeError, match="xp=.* is not supported"):
        ours(8, *params, xp=object())
    with pytest.raises(ValueError, match="device='cuda' is not supported"):
        ours(8, *params, device="cuda")


def test_filter_designs_take_xp_and_device():
    cases = [("buttap", (3,)), ("cheb1ap", (3, 1.0)), ("cheb2ap", (3, 20.0)),
             ("ellipap", (3, 1.0, 20.0)), ("besselap", (3,)), ("iirnotch", (0.3, 10.0)),
             ("iirpeak", (0.3, 10.0)), ("savgol_coeffs", (5, 2)),
             ("get_window", ("hann", 6))]
    for name, params in cases:
        want = getattr(ss, name)(*params, xp=np, device="cpu")
        got = getattr(fss, name)(*params, xp=np, device="cpu")
        for a, b in zip(want if isinstance(want, tuple) else (want,),
                        got if isinstance(got, tuple) else (got,)):
            np.testing.assert_allclose(np.sort_complex(np.atleast_1d(b)),
                                       np.sort_complex(np.atleast_1d(a)), atol=1e-10)
        with pytest.raises(ValueError, match="device"):
            getattr(fss, name)(*params, device="gpu")
    # differentiable as before, with the keywords given
    g = fg.grad(lambda b: fss.get_window(("kaiser", b), 6, xp=fnp).sum())(4.0)
    h = 1e-6
    fd = (ss.get_window(("kaiser", 4.0 + h), 6).sum()
          - ss.get_window(("kaiser", 4.0 - h), 6).sum()) / (2 * h)
    np.testing.assert_allclose(g, fd, rtol=1e-6)

"""SciPy 1.17 keywords that funcgrad's twins lacked: odeint's LSODA options (values and
infodict from SciPy's own run, derivatives against central differences of SciPy's
odeint), the array-API ``xp``/``device`` of scipy.signal's windows and filter designs,
``random_state`` of the resampling tests, ``quantile(weights=)``, the axis/nan_policy/
keepdims of the slope estimators and weightedtau, mstats' nan_policy/keepdims, and
the interpolators' and QMC engines' legacy keywords."""
import inspect
import warnings

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


# --- stats: random_state, quantile(weights=) --------------------------------------------------

def test_resampling_tests_take_the_legacy_random_state():
    import scipy.stats as ss
    import funcgrad.scipy.stats as fs
    x, y = np.array([1.0, 2.0, 4.0, 7.0, 8.0, 3.0]), np.array([4.0, 6.0, 5.5, 9.0])
    a = fs.bootstrap((x,), np.mean, n_resamples=49, random_state=3)
    b = ss.bootstrap((x,), np.mean, n_resamples=49, random_state=3)
    np.testing.assert_allclose(a.bootstrap_distribution, b.bootstrap_distribution)
    # (an int seeds a RandomState: another stream than rng=3's Generator)
    c = ss.bootstrap((x,), np.mean, n_resamples=49, rng=3)
    assert not np.allclose(a.bootstrap_distribution, c.bootstrap_distribution)

    def diff(x, y, axis):
        return np.mean(x, axis=axis) - np.mean(y, axis=axis)
    a = fs.permutation_test((x, y), diff, n_resamples=30, random_state=4)
    b = ss.permutation_test((x, y), diff, n_resamples=30, random_state=4)
    np.testing.assert_allclose(a.null_distribution, b.null_distribution)
    a = fs.goodness_of_fit(fs.norm, x, n_mc_samples=9, random_state=2)
    b = ss.goodness_of_fit(ss.norm, x, n_mc_samples=9, random_state=2)
    np.testing.assert_allclose(a.null_distribution, b.null_distribution)
    f = lambda X: X[0] + 2 * X[1] ** 2  # noqa: E731
    a = fs.sobol_indices(func=f, n=32, dists=[fs.uniform(), fs.uniform()], random_state=5)
    b = ss.sobol_indices(func=f, n=32, dists=[ss.uniform(), ss.uniform()], random_state=5)
    np.testing.assert_allclose(a.first_order, b.first_order)
    for call in (lambda: fs.bootstrap((x,), np.mean, rng=1, random_state=1),
                 lambda: fs.permutation_test((x, y), diff, rng=1, random_state=1),
                 lambda: fs.goodness_of_fit(fs.norm, x, rng=1, random_state=1),
                 lambda: fs.sobol_indices(func=f, n=32, dists=[fs.uniform()] * 2, rng=1,
                                          random_state=1)):
        with pytest.raises(TypeError, match="Specify one of `rng` or `random_state`"):
            call()


QMETHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
            "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
            "normal_unbiased"]


def _fd(f, v, h=1e-6):
    v = np.asarray(v, float)
    out = np.zeros_like(v)
    for i in np.ndindex(v.shape):
        e = np.zeros_like(v)
        e[i] = h
        out[i] = (f(v + e) - f(v - e)) / (2 * h)
    return out


def test_weighted_quantile_values_match_scipy():
    import scipy.stats as ss
    import funcgrad.scipy.stats as fs
    rng = np.random.default_rng(0)
    x, w = rng.normal(size=(3, 7)), rng.uniform(0.1, 2.0, size=(3, 7))
    for method in QMETHODS:
        for axis, p in ((0, np.array([[0.1, 0.4, 0.9, 0.2, 0.5, 0.6, 0.7]])),
                        (-1, np.array([[0.1], [0.37], [0.8]]))):
            np.testing.assert_allclose(
                fs.quantile(x, p, method=method, axis=axis, weights=w),
                ss.quantile(x, p, method=method, axis=axis, weights=w))
    counts = np.array([1, 3, 0, 2, 1, 1, 2])
    for p in (0.0, 0.2, 0.5, 0.77, 1.0):
        for method in ("linear", "inverted_cdf", "hazen"):
            want = ss.quantile(x[0], p, method=method, weights=counts)
            np.testing.assert_allclose(fs.quantile(x[0], p, method=method, weights=counts),
                                       want)
            np.testing.assert_allclose(want, ss.quantile(np.repeat(x[0], counts), p,
                                                         method=method))
    xn = x.copy()
    xn[1, 2] = np.nan
    for policy in ("propagate", "omit"):
        np.testing.assert_allclose(
            fs.quantile(xn, 0.3, axis=-1, weights=w, nan_policy=policy, keepdims=True),
            ss.quantile(xn, 0.3, axis=-1, weights=w, nan_policy=policy, keepdims=True))
    with pytest.raises(ValueError, match="harrell-davis.*does not support weights"):
        fs.quantile(x, 0.5, method="harrell-davis", weights=w)


def test_weighted_quantile_derivatives_and_where_it_jumps():
    import scipy.stats as ss
    import funcgrad.scipy.stats as fs
    rng = np.random.default_rng(1)
    x, w = rng.normal(size=7), rng.uniform(0.1, 2.0, size=7)
    for method in ("linear", "hazen", "weibull", "inverted_cdf"):
        np.testing.assert_allclose(
            fg.grad(lambda ww: fs.quantile(x, 0.37, method=method, weights=ww))(w),
            _fd(lambda ww: ss.quantile(x, 0.37, method=method, weights=ww), w), atol=1e-6)
        np.testing.assert_allclose(
            fg.grad(lambda xx: fs.quantile(xx, 0.37, method=method, weights=w))(x),
            _fd(lambda xx: ss.quantile(xx, 0.37, method=method, weights=w), x), atol=1e-6)
        np.testing.assert_allclose(
            fg.grad(lambda p: fs.quantile(x, p, method=method, weights=w))(0.37),
            _fd(lambda p: ss.quantile(x, p, method=method, weights=w), 0.37), atol=1e-5)
    # equal weights at the median: p W + m = 4 is a cumulative weight, where it jumps
    with pytest.raises(ValueError, match="not differentiable here"):
        fg.grad(lambda ww: fs.quantile(x, 0.5, weights=ww))(np.ones(7))
    with pytest.raises(ValueError, match="a weight is 0"):
        fg.grad(lambda ww: fs.quantile(x, 0.37, weights=ww))(np.r_[0.0, w[1:]])


def test_slopes_and_weightedtau_take_axis_nan_policy_keepdims():
    import scipy.stats as ss
    import funcgrad.scipy.stats as fs
    y, x = np.array([1.0, 2.0, np.nan, 4.0, 7.0]), np.array([0.0, 1.0, 2.0, 3.0, 5.0])
    Y = np.arange(12.0).reshape(3, 4) ** 1.5
    X = Y ** 2 + np.sin(Y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (SciPy's NaN-slice and small-sample warnings)
        for name in ("theilslopes", "siegelslopes", "weightedtau"):
            ours, theirs = getattr(fs, name), getattr(ss, name)
            for policy in ("propagate", "omit"):
                np.testing.assert_allclose(np.array(ours(y, x, nan_policy=policy), float),
                                           np.array(theirs(y, x, nan_policy=policy), float))
            for kw in ({}, {"keepdims": True}, {"axis": 1}, {"axis": 1, "keepdims": True},
                       {"axis": 0}):
                for a, b in zip(ours(Y, X, **kw), theirs(Y, X, **kw)):
                    assert np.shape(a) == np.shape(b)
                    np.testing.assert_allclose(a, b)
            with pytest.raises(ValueError, match="contains nan"):
                ours(y, x, nan_policy="raise")
    g = fg.grad(lambda Y: fs.theilslopes(Y, axis=1).slope.sum())(Y)
    np.testing.assert_allclose(g, _fd(lambda Y: ss.theilslopes(Y, axis=1).slope.sum(), Y),
                               atol=1e-6)


def test_mstats_means_and_zscores_take_nan_policy_and_keepdims():
    import scipy.stats.mstats as sm
    import funcgrad.scipy.stats.mstats as fm
    a = np.array([[1.0, 2.0, np.nan], [3.0, 4.0, 5.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for policy in ("propagate", "omit"):
            for name in ("gmean", "hmean"):
                for keep in (False, True):
                    want = getattr(sm, name)(a, axis=1, nan_policy=policy, keepdims=keep)
                    np.testing.assert_allclose(
                        getattr(fm, name)(a, axis=1, nan_policy=policy, keepdims=keep), want)
                    got = fg.grad(lambda v: fnp.sum(getattr(fm, name)(
                        v, axis=1, keepdims=keep)))(a[1:])
                    np.testing.assert_allclose(got, _fd(lambda v: np.sum(getattr(sm, name)(
                        v, axis=1)), a[1:]), atol=1e-6)
                # (the traced path, stats.gmean's twin, drops no NaN: a clear error)
                with pytest.raises(NotImplementedError, match="nan_policy='omit'"):
                    fg.grad(lambda v: fnp.sum(getattr(fm, name)(v, axis=1,
                                                                nan_policy="omit")))(a)
            np.testing.assert_allclose(fm.zscore(a, axis=1, nan_policy=policy),
                                       sm.zscore(a, axis=1, nan_policy=policy))
            np.testing.assert_allclose(fm.zmap(a, a, axis=1, nan_policy=policy),
                                       sm.zmap(a, a, axis=1, nan_policy=policy))
            np.testing.assert_allclose(
                fg.grad(lambda v: fm.zscore(v, axis=1)[0, 0])(a[1:]),
                _fd(lambda v: sm.zscore(v, axis=1)[0, 0], a[1:]),
                atol=1e-6)
    with pytest.raises(ValueError, match="nan"):
        fm.zscore(a, nan_policy="raise")


def test_interpolators_and_qmc_take_their_legacy_keywords():
    import scipy.interpolate as si_
    import scipy.stats.qmc as sq
    import funcgrad.scipy.interpolate as fi
    import funcgrad.scipy.stats.qmc as fq
    xi, yi = np.array([0.0, 1.0, 2.0, 3.5]), np.array([1.0, 3.0, 7.0, 2.0])
    at = np.array([0.3, 2.7])
    np.testing.assert_allclose(fi.BarycentricInterpolator(xi, yi, random_state=1)(at),
                               si_.BarycentricInterpolator(xi, yi, random_state=1)(at))
    with pytest.raises(TypeError, match="Specify one of `rng` or `random_state`"):
        fi.BarycentricInterpolator(xi, yi, rng=1, random_state=1)
    x, y = np.linspace(0.0, 1.0, 8), np.linspace(0.0, 2.0, 9)
    z = np.sin(3 * x)[:, None] * np.cos(y)[None, :] + 0.01 * np.cos(40 * x)[:, None]
    for maxit in (1, 20):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours = fi.RectBivariateSpline(x, y, z, s=0.05, maxit=maxit)
            want = si_.RectBivariateSpline(x, y, z, s=0.05, maxit=maxit)
        np.testing.assert_allclose(ours(at, at), want(at, at), atol=1e-12)
    mean, cov = np.array([1.0, -1.0]), np.array([[2.0, 0.3], [0.3, 1.0]])
    np.testing.assert_allclose(fq.MultivariateNormalQMC(mean, cov, seed=3).random(8),
                               sq.MultivariateNormalQMC(mean, cov, seed=3).random(8))
    with pytest.raises(TypeError, match="Specify one of `rng` or `seed`"):
        fq.MultivariateNormalQMC(mean, cov, rng=1, seed=1)

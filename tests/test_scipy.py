"""funcgrad.scipy against SciPy: values (float64, to 1e-13 relative where the algorithms
allow), derivatives against central differences, vmap, float32, second order, plain
``scipy.special`` ufuncs under ``fg.grad``, and errors that name the fix.  (The
elementwise primitives also have lines in tests/test_primitives.py's table.)"""
import math
import subprocess
import sys

import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")
scipy_stats = pytest.importorskip("scipy.stats")
scipy_linalg = pytest.importorskip("scipy.linalg")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402
from helpers import check_jvp_fd, check_second_order  # noqa: E402

RNG = np.random.default_rng(20)


def close(got, want, rtol=1e-13, atol=0.0):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=rtol, atol=atol,
                               equal_nan=True)


# --- values ------------------------------------------------------------------------------

X = np.concatenate([RNG.uniform(-10, 10, 300), RNG.uniform(0, 3, 100)])
POS = RNG.uniform(0.05, 12, 300)
UNIT = np.concatenate([RNG.uniform(-1, 1, 300), 1 - np.logspace(-16, -1, 20), [0.0, 1.0, -1.0]])

# name, arguments, absolute tolerance (near a root the relative error of the best double
# answer is unbounded: gammaln at 1 and 2, digamma at 1.4616...)
UNARY_VALUES = [
    ("erf", X, 0), ("erfc", X, 0), ("expit", X, 0), ("gammaln", X, 1e-15),
    ("gamma", X, 0), ("digamma", X, 1e-15), ("erfinv", UNIT, 0),
    ("erfcinv", np.concatenate([UNIT + 1, np.logspace(-300, -1, 30)]), 0),
    ("ndtr", RNG.uniform(-8, 8, 300), 1e-300), ("log_ndtr", RNG.uniform(-50, 40, 300), 1e-300),
    ("ndtri", np.concatenate([RNG.uniform(0, 1, 300), np.logspace(-300, -1, 30)]), 0),
    ("i0", RNG.uniform(-40, 40, 300), 0), ("i0e", RNG.uniform(-60, 60, 300), 0),
    ("i1", RNG.uniform(-40, 40, 300), 0), ("i1e", RNG.uniform(-60, 60, 300), 0),
    ("logit", RNG.uniform(0.01, 0.99, 100), 1e-15), ("log_expit", X, 0), ("entr", POS, 1e-15),
    # SciPy's own ufuncs (funcgrad.primitives.special_scipy: tests/test_scipy_special_more.py
    # checks them bit for bit)
    ("erfcx", X, 0), ("dawsn", X, 0), ("exp1", X, 0), ("expi", X, 0), ("spence", X, 0),
    ("loggamma", X, 0), ("gammasgn", X, 0),
]


@pytest.mark.parametrize("name,x,atol", UNARY_VALUES, ids=[v[0] for v in UNARY_VALUES])
def test_unary_values_match_scipy(name, x, atol):
    # ndtr: erfc(-x/sqrt 2) has condition ~x^2 in its argument's rounding (as SciPy's)
    rtol = 1e-12 if name in ("ndtr", "i0", "i1") else 1e-13
    with np.errstate(all="ignore"):
        close(getattr(fsp, name)(x), getattr(scipy_special, name)(x), rtol, atol)


A, B = RNG.uniform(0.1, 10, 300), RNG.uniform(0.1, 10, 300)
BINARY_VALUES = [
    ("gammainc", (A, RNG.uniform(0, 20, 300)), 1e-300), ("gammaincc", (A, RNG.uniform(0, 20, 300)), 1e-300),
    ("betainc", (A, B, RNG.uniform(0, 1, 300)), 1e-300), ("betaln", (A, B), 1e-14),
    ("beta", (A, B), 0), ("xlogy", (X, np.abs(X[::-1])), 0), ("xlog1py", (X[:300], POS), 0),
    # (kl_div: SciPy's x log(x/y) - x + y cancels where x is near y, funcgrad's does not;
    # they differ there by SciPy's error, 4e-12 relative on values near 2e-3)
    ("rel_entr", (POS, POS[::-1]), 1e-15), ("kl_div", (POS, POS[::-1]), 1e-14),
    ("zeta", (RNG.uniform(1.1, 12, 300), RNG.uniform(-5, 10, 300)), 0),
    ("expn", (RNG.integers(0, 6, 300), POS), 0), ("poch", (X[:300], A - 5), 0),
    ("boxcox", (POS, X[:300] / 4), 0), ("boxcox1p", (POS - 1, X[:300] / 4), 0),
    ("owens_t", (X[:300], X[::-1][:300]), 0), ("hyp1f1", (A - 5, B, X[:300]), 0),
    ("hyp2f1", (A - 5, B - 5, A + 1, UNIT[:300]), 0),
    ("jv", (A - 5, X[:300]), 0),
]


@pytest.mark.parametrize("name,args,atol", BINARY_VALUES, ids=[v[0] for v in BINARY_VALUES])
def test_values_of_several_arguments_match_scipy(name, args, atol):
    with np.errstate(all="ignore"):
        close(getattr(fsp, name)(*args), getattr(scipy_special, name)(*args), 1e-13, atol)


def test_edges_match_scipy():
    with np.errstate(all="ignore"):
        for name, x in [("digamma", [0.0, -0.0, -1.0, np.inf, -np.inf, np.nan]),
                        ("gammaln", [0.0, -1.0, np.inf, -np.inf]),
                        ("erfinv", [-1.0, 1.0, 2.0, np.nan]), ("erfcinv", [0.0, 2.0, -1.0]),
                        ("xlogy", [0.0]), ("entr", [0.0, -1.0])]:
            args = (np.array(x),) if name != "xlogy" else (0.0, np.array([0.0, np.nan, -1.0]))
            close(getattr(fsp, name)(*args), getattr(scipy_special, name)(*args))
        close(fsp.xlogy(np.array([0.0, 0.0]), np.array([0.0, np.nan])), [0.0, np.nan])


SMALL = np.array([0.0, -0.0, 1e-300, 1e-9, -1e-9, 1e-4, -1e-4, 9.9e-4, -1e-3, 1.1e-3, 0.5, -0.5])
ELEMENTARY_EDGES = np.concatenate([SMALL, [30.0, -30.0, 700.0, -800.0, np.inf, -np.inf, np.nan]])


@pytest.mark.parametrize("name", ["expm1", "log1p", "exp2", "exp10", "cbrt", "cosm1", "exprel",
                                  "softplus"])
def test_elementary_functions_of_scipy_special_match_scipy(name):
    x = np.concatenate([X, ELEMENTARY_EDGES])
    with np.errstate(all="ignore"):
        close(getattr(fsp, name)(x), getattr(scipy_special, name)(x), 4e-16)
        assert getattr(fsp, name)(x.astype(np.float32)).dtype == np.float32


def test_huber_and_pseudo_huber_match_scipy():
    delta = np.array([-1.0, 0.0, 0.5, 1.0, 3.0])[:, None]
    r = np.array([-4.0, -1.0, -0.3, 0.0, 1e-5, 0.5, 1.0, 2.5, np.inf])
    with np.errstate(invalid="ignore"):  # (huber(0, inf) is NaN, as SciPy's)
        close(fsp.huber(delta, r), scipy_special.huber(delta, r), 1e-15)
    close(fsp.pseudo_huber(delta, r[:-1]), scipy_special.pseudo_huber(delta, r[:-1]), 1e-12)
    # (no cancellation for small r / delta, where SciPy's formula loses digits)
    close(fsp.pseudo_huber(1.0, 1e-6), 0.5e-12 * (1 - 0.25e-12), 1e-15)


def test_exprel_derivative_is_right_at_and_near_zero():
    # d/dx (expm1(x)/x) = (x e**x - expm1(x))/x**2 = sum over k >= 0 of (k+1) x**k/(k+2)!
    def series(x):
        return math.fsum((k + 1) * x ** k / math.factorial(k + 2) for k in range(30))
    for x in (0.0, 1e-9, -1e-4, 9e-4, 1.2e-3, -0.5, 2.0):
        close(fg.grad(fsp.exprel)(x), series(x), 1e-13)
    close(fg.grad(fg.grad(fsp.exprel))(0.0), 1 / 3, 1e-15)


def test_plain_scipy_elementary_ufuncs_differentiate():
    x = np.array([-0.7, 1e-5, 0.4, 2.0])
    got = fg.grad(lambda v: np.sum(scipy_special.expm1(v) + scipy_special.cosm1(v)
                                   + scipy_special.exp10(v) + scipy_special.exprel(v)
                                   + scipy_special.huber(0.5, v)
                                   + scipy_special.pseudo_huber(2.0, v)))(x)
    want = (np.exp(x) - np.sin(x) + math.log(10) * 10 ** x
            + (x * np.exp(x) - np.expm1(x)) / x ** 2
            + np.where(np.abs(x) <= 0.5, x, 0.5 * np.sign(x)) + x / np.sqrt(1 + (x / 2) ** 2))
    close(got, want, 1e-9)


def test_polygamma_multigammaln_and_riemann_zeta():
    x = RNG.uniform(0.2, 6, 50)
    for n in (0, 1, 2, 3):
        close(fsp.polygamma(n, x), scipy_special.polygamma(n, x), 1e-12)
    close(fsp.polygamma(np.array([0, 1, 2]), 1.5), scipy_special.polygamma([0, 1, 2], 1.5), 1e-12)
    close(fsp.multigammaln(x + 2, 3), scipy_special.multigammaln(x + 2, 3), 1e-13)
    close(fsp.zeta(np.array([1.5, 2.0, 7.0])), scipy_special.zeta([1.5, 2.0, 7.0]), 1e-13)
    close(fsp.zeta(3.0, 2.5, None), scipy_special.zeta(3.0, 2.5, None), 1e-13)  # (SciPy's out)
    # (out= writes a plain array, as SciPy's; a traced value cannot be written)
    out = np.empty(())
    assert fsp.zeta(3.0, 2.5, out) is out and float(out) == float(fsp.zeta(3.0, 2.5))
    with pytest.raises(TypeError, match="use the returned value"):
        fg.grad(lambda q: fsp.zeta(3.0, q, np.empty(())))(2.5)


@pytest.mark.parametrize("kw", [{}, {"axis": 0}, {"axis": 1, "keepdims": True},
                                {"axis": -1, "b": np.array([1.0, -2.0, 0.5]),
                                 "return_sign": True}, {"axis": (0, 1)}])
def test_logsumexp_matches_scipy(kw):
    a = RNG.standard_normal((4, 3)) * 300
    got, want = fsp.logsumexp(a, **kw), scipy_special.logsumexp(a, **kw)
    for g, w in zip(*(((got,), (want,)) if not kw.get("return_sign") else (got, want))):
        assert np.shape(g) == np.shape(w)
        close(g, w)


def test_softmax_and_log_softmax_match_scipy():
    a = RNG.standard_normal((3, 4)) * 50
    for axis in (None, 0, 1):
        close(fsp.softmax(a, axis=axis), scipy_special.softmax(a, axis=axis), 1e-13, 1e-300)
        # (x - logsumexp(x) cancels near the maximum: an absolute tolerance)
        close(fsp.log_softmax(a, axis=axis), scipy_special.log_softmax(a, axis=axis), 1e-13,
              1e-14)
    close(fsp.sinc(X), scipy_special.sinc(X))


# --- derivatives -----------------------------------------------------------------------------

GRADS = [
    (fsp.gammaln, POS[:5]), (fsp.digamma, POS[:5]), (fsp.erfinv, UNIT[:5] * 0.9),
    (fsp.ndtri, RNG.uniform(0.05, 0.95, 5)), (fsp.log_ndtr, np.array([-30.0, -5.0, 0.0, 5.0])),
    (fsp.i0, X[:5]), (fsp.i1, X[:5]), (fsp.logit, RNG.uniform(0.1, 0.9, 5)),
    (lambda x: fsp.xlogy(x, x + 1.0), POS[:5]), (lambda x: fsp.betaln(x, 2.0 * x), POS[:5]),
    (lambda x: fsp.gammainc(2.5, x), POS[:5]), (lambda x: fsp.betainc(1.5, 2.5, x / 13.0), POS[:5]),
    (lambda x: fsp.zeta(2.5, x), POS[:5]), (lambda x: fsp.polygamma(2, x), POS[:5] + 0.5),
    (lambda x: fsp.logsumexp(x, b=np.arange(1.0, 6.0)), X[:5]),
    (lambda x: fsp.softmax(x)[1], X[:5]), (lambda x: fsp.kl_div(x, x[::-1]), POS[:5]),
    (lambda x: fsp.multigammaln(x + 1.0, 2), POS[:5]),
    (fsp.erfcx, X[:5]), (fsp.dawsn, X[:5]), (fsp.exp1, POS[:5]), (fsp.expi, POS[:5] - 6),
    (lambda x: fsp.expn(np.arange(5), x), POS[:5]), (fsp.spence, POS[:5] / 4),
    (fsp.loggamma, POS[:5]), (lambda x: fsp.sici(x)[0] * fsp.sici(x)[1], X[:5]),
    (lambda x: fsp.fresnel(x)[0] - fsp.fresnel(x)[1], X[:5] / 4),
    (lambda x: fsp.poch(x, 2.0 - x / 13.0), POS[:5]), (lambda x: fsp.boxcox(x, x - 3.0), POS[:5]),
    (lambda x: fsp.boxcox1p(x, 1.0 - x / 4.0), POS[:5]),
    (lambda x: fsp.owens_t(x - 6.0, x / 5.0), POS[:5]),
    (lambda x: fsp.hyp1f1(1.5, 0.5, x / 4.0), X[:5]),
    (lambda x: fsp.hyp2f1(0.5, 1.5, 2.5, x / 13.0), POS[:5]),
    (lambda x: fsp.jv(1.5, x) + fsp.jv(0.0, x), POS[:5]),
    (lambda x: fsp.kv(2.5, x) + fsp.iv(1.5, x) * fsp.yv(0.5, x), POS[:5]),
    (lambda x: fsp.kve(0.7, x) * fsp.ive(3.0, x - 6.0) + fsp.k0e(x) - fsp.k1(x), POS[:5]),
    (fsp.exp10, X[:5] / 4), (fsp.cbrt, X[:5]), (fsp.cosm1, X[:5]), (fsp.softplus, X[:5]),
    (fsp.exprel, X[:5]), (fsp.exprel, SMALL[3:10]),
    (lambda x: fsp.huber(x[::-1] / 4 + 2.0, x), X[:5] / 2),
    (lambda x: fsp.pseudo_huber(x[::-1] / 4 + 2.0, x), X[:5]),
]


@pytest.mark.parametrize("f,x", GRADS, ids=range(len(GRADS)))
def test_derivatives_match_central_differences(f, x):
    check_jvp_fd(lambda v: f(v), [x], RNG)


@pytest.mark.parametrize("f,x", [GRADS[0], GRADS[1], GRADS[3], GRADS[4], GRADS[10]],
                         ids=["gammaln", "digamma", "ndtri", "log_ndtr", "gammainc"])
def test_second_order(f, x):
    check_second_order(lambda v: fnp.sum(f(v)), [x], RNG)


def test_known_derivatives():
    close(fg.grad(fsp.gammaln)(3.5), scipy_special.digamma(3.5), 1e-13)
    close(fg.grad(fsp.digamma)(3.5), scipy_special.polygamma(1, 3.5), 1e-13)
    y = 0.3
    close(fg.grad(fsp.erfinv)(y), math.sqrt(math.pi) / 2 * math.exp(scipy_special.erfinv(y) ** 2))
    close(fg.grad(fg.grad(fsp.gammaln))(2.0), math.pi ** 2 / 6 - 1, 1e-13)


@pytest.mark.parametrize("f,message", [
    # (the first derivatives in the shapes are implemented: test_scipy_peer3.py)
    (lambda a: fg.grad(fsp.gammainc)(a, 1.0), "second derivative with respect to the shape"),
    (lambda b: fg.grad(fsp.betainc, 1)(1.0, b, 0.5), "second derivative with respect to the"),
    (lambda s: fg.grad(fg.grad(fg.grad(fg.grad(lambda t: fsp.zeta(t, 2.0)))))(s),
     "order above 4 with respect to x"),
    (lambda n: fsp.expn(n, 1.0), r"expn\(n, x\): the derivative with respect to n"),
    (lambda a: fsp.hyp1f1(a, 1.5, 0.5), r"hyp1f1\(a, b, x\).* with respect to a"),
    (lambda b: fsp.hyp1f1(0.5, b, 0.5), "with respect to b .*with respect to x only"),
    (lambda a: fsp.hyp2f1(a, 1.5, 3.0, 0.5), "with respect to a"),
    (lambda b: fsp.hyp2f1(0.5, b, 3.0, 0.5), "with respect to b"),
    (lambda c: fsp.hyp2f1(0.5, 1.5, c, 0.5), "with respect to c .*with respect to z only"),
    (lambda v: fsp.jv(v, 1.5), r"jv\(v, z\): the derivative with respect to v"),
    (lambda v: fsp.kv(v, 1.5), r"kv\(v, z\): the derivative with respect to v"),
    (lambda v: fsp.ive(v, 1.5), r"ive\(v, z\): the derivative with respect to v"),
])
def test_unimplemented_derivatives_raise_and_say_so(f, message):
    float(f(2.0))  # the value is fine
    with pytest.raises(NotImplementedError, match=message):
        fg.grad(f)(2.0)
    with pytest.raises(NotImplementedError, match=message):
        fg.jvp(f, (2.0,), (1.0,))


def test_vmap_and_float32():
    xs = RNG.uniform(0.5, 3, (4, 3))
    f = lambda x: fsp.logsumexp(fsp.gammaln(x) * fsp.digamma(x))  # noqa: E731
    np.testing.assert_allclose(fg.vmap(f)(xs), [f(x) for x in xs], rtol=1e-14)
    np.testing.assert_allclose(fg.vmap(fg.grad(f))(xs), [fg.grad(f)(x) for x in xs], rtol=1e-14)
    x32 = xs.astype(np.float32)
    for fn in (fsp.gammaln, fsp.digamma, fsp.log_ndtr, fsp.erfinv, fsp.i0e, fsp.ndtr,
               lambda v: fsp.gammainc(1.5, v), lambda v: fst.norm.logpdf(v, 0.5, 2.0)):
        arg = x32 / 4 if fn is fsp.erfinv else x32
        out = fn(arg)
        assert out.dtype == np.float32
        np.testing.assert_allclose(out, fn(arg.astype(np.float64)), rtol=2e-5)
        assert fg.grad(lambda v: fnp.sum(fn(v)))(arg).dtype == np.float32


def test_jit_matches_eager():
    f = lambda x: fsp.digamma(x) + fsp.log_ndtr(x) * fsp.i1e(x)  # noqa: E731
    x = RNG.uniform(0.5, 3, 6)
    np.testing.assert_allclose(fg.jit(f)(x), f(x), rtol=1e-14)


# --- plain SciPy code ---------------------------------------------------------------------------

def test_plain_scipy_special_ufuncs_differentiate():
    x = POS[:4]
    g = fg.grad(lambda v: np.sum(scipy_special.gammaln(v) + scipy_special.expit(v)
                                 + scipy_special.xlogy(v, v) + scipy_special.ndtr(v)))(x)
    want = (scipy_special.digamma(x) + scipy_special.expit(x) * scipy_special.expit(-x)
            + np.log(x) + 1 + np.exp(-x * x / 2) / math.sqrt(2 * math.pi))
    close(g, want, 1e-12)
    close(fg.vmap(scipy_special.erfinv)(UNIT[:4]), scipy_special.erfinv(UNIT[:4]))


def test_scipy_function_without_twin_names_the_fix(monkeypatch):
    # (every SciPy ufunc has a twin since session 24: pro_cv's is hidden here to stand for
    # one without; stdtr, kolmogorov, hyperu, ber and pro_cv, the examples before, have one)
    from funcgrad.numpy import _methods
    monkeypatch.delattr(fsp, "pro_cv")
    monkeypatch.delitem(_methods.UFUNCS, scipy_special.pro_cv, raising=False)
    with pytest.raises(TypeError, match=r"scipy\.special\.pro_cv .*funcgrad\.scipy\.special"):
        fg.grad(lambda v: np.sum(scipy_special.pro_cv(1.0, 2.0, v)))(POS[:3])
    with pytest.raises(Exception, match=r"funcgrad\.scipy\.stats"):
        fg.grad(lambda v: np.sum(scipy_stats.norm.logpdf(v)))(POS[:3])


def test_scipy_hint_names_the_function_called_not_scipys_private_helper():
    # logsumexp meets the traced value in scipy._lib._array_api, which has no twin
    with pytest.raises(Exception, match=r"call funcgrad\.scipy\.special\.logsumexp instead"):
        fg.grad(lambda v: scipy_special.logsumexp(v))(POS[:3])


def test_scipy_hint_names_a_function_behind_scipys_argument_decorator():
    # solve_triangular's arguments are converted by a decorator in scipy._lib, before
    # the function itself runs: the hint still names funcgrad.scipy.linalg
    import funcgrad.scipy.linalg  # noqa: F401  (loaded: the hint names the function)
    import scipy.linalg
    a = np.triu(np.ones((3, 3))) + 2 * np.eye(3)
    with pytest.raises(Exception, match=r"call funcgrad\.scipy\.linalg\.solve_triangular "):
        fg.grad(lambda b: np.sum(scipy.linalg.solve_triangular(a, b)))(np.ones(3))


def test_scipy_hint_is_absent_when_the_users_own_code_dropped_the_derivative():
    import scipy.integrate  # calls back into the user's integrand, which drops it
    with pytest.raises(Exception) as info:
        fg.grad(lambda v: scipy.integrate.quad_vec(lambda t: np.asarray(v) * t, 0, 1)[0])(1.0)
    assert "DerivativeDropped" in type(info.value).__name__
    message = str(info.value)
    assert message.startswith("Converting it to a plain NumPy array"), message
    assert "quad_vec" not in message and "funcgrad.scipy" not in message


# The SciPy functions users call in differentiable code: under fg.grad, SciPy's own (plain
# Python, converting its input with np.asarray) raises an error naming funcgrad's twin,
# and the twin takes the same arguments, gives SciPy's values and the derivative of
# central differences.  (name in the message, the call on a namespace: scipy or
# funcgrad.scipy)
def _spd(v):
    return v @ v.T + np.eye(v.shape[0])


PLAIN_SCIPY_CALLS = [
    ("scipy.special.logsumexp", lambda ns, v: ns.special.logsumexp(v)),
    ("scipy.special.logsumexp", lambda ns, v: ns.special.logsumexp(
        v, axis=-1, b=np.array([0.5, 1.0, 2.0]), keepdims=True)),
    ("scipy.special.softmax", lambda ns, v: ns.special.softmax(v, axis=0)),
    ("scipy.special.log_softmax", lambda ns, v: ns.special.log_softmax(v, axis=1)),
    ("scipy.special.polygamma", lambda ns, v: ns.special.polygamma(2, v + 1.0)),
    ("scipy.special.polygamma", lambda ns, v: ns.special.polygamma(np.array([0, 1, 3]), v)),
    ("scipy.special.multigammaln", lambda ns, v: ns.special.multigammaln(v + 3.0, 3)),
    ("scipy.stats.norm.logpdf", lambda ns, v: ns.stats.norm.logpdf(v, 0.3, 1.7)),
    ("scipy.stats.norm.logpdf", lambda ns, v: ns.stats.norm.logpdf(1.0, v, v + 1.0)),
    ("scipy.stats.norm.cdf", lambda ns, v: ns.stats.norm.cdf(v, loc=0.3, scale=1.7)),
    ("scipy.stats.norm(...).logpdf", lambda ns, v: ns.stats.norm(0.3, 1.7).logpdf(v)),
    ("scipy.stats.weibull_min.logpdf",
     lambda ns, v: ns.stats.weibull_min.logpdf(v + 0.1, 1.7, scale=2.0)),
    ("scipy.stats.multivariate_normal.logpdf",
     lambda ns, v: ns.stats.multivariate_normal.logpdf(v, np.zeros(3), _spd(v.T))),
    ("scipy.linalg.expm", lambda ns, v: ns.linalg.expm(v)),
    ("scipy.linalg.solve", lambda ns, v: ns.linalg.solve(v + 2 * np.eye(3), np.arange(3.0))),
    ("scipy.linalg.solve", lambda ns, v: ns.linalg.solve(_spd(v), v, assume_a="pos")),
    ("scipy.linalg.cho_factor", lambda ns, v: np.triu(ns.linalg.cho_factor(_spd(v))[0])),
    ("scipy.linalg.cho_factor", lambda ns, v: ns.linalg.cho_solve(
        ns.linalg.cho_factor(_spd(v), lower=True), np.arange(3.0))),
    ("scipy.linalg.cho_solve", lambda ns, v: ns.linalg.cho_solve(
        scipy_linalg.cho_factor(_spd(np.eye(3) + 0.5)), v)),
]


@pytest.mark.parametrize("name,call", PLAIN_SCIPY_CALLS,
                         ids=[f"{i}-{c[0]}" for i, c in enumerate(PLAIN_SCIPY_CALLS)])
def test_plain_scipy_names_its_funcgrad_twin_which_matches_it(name, call):
    import scipy
    import funcgrad.scipy as fg_scipy
    v = RNG.uniform(0.2, 1.0, (3, 3))
    with pytest.raises(TypeError) as info:  # (DerivativeDroppedError is a TypeError)
        fg.grad(lambda w: np.sum(call(scipy, w)))(v)
    message = str(info.value)
    assert message.startswith(f"{name} converts its input to a plain NumPy array, which "
                              f"would drop the derivative"), message
    assert f"call funcgrad.{name} instead (same signature)" in message, message
    assert "fg.stop_gradient(x)" in message  # (the general advice stays)
    close(call(fg_scipy, v), call(scipy, v), 1e-12, 1e-14)
    check_jvp_fd(lambda w: call(fg_scipy, w), [v], RNG)


def test_plain_scipy_under_vmap_and_jit_names_the_twin():
    for transform in (fg.vmap, fg.jit):
        with pytest.raises(TypeError, match=r"^scipy\.special\.logsumexp converts its input to "
                                            r"a plain NumPy array, which a traced value cannot "
                                            r"become.*call funcgrad\.scipy\.special\.logsumexp "
                                            r"instead"):
            transform(lambda v: scipy_special.logsumexp(v, axis=-1))(np.ones((2, 3)))


def test_plain_scipy_zeta_differentiates_in_q():
    # (scipy.special.zeta is a Python function around private ufuncs: those reach funcgrad)
    q = POS[:4] + 1.0
    close(fg.grad(lambda w: np.sum(scipy_special.zeta(3.0, w)))(q),
          -3.0 * scipy_special.zeta(4.0, q), 1e-12)
    close(fg.vmap(lambda w: scipy_special.zeta(w))(q + 1.0), scipy_special.zeta(q + 1.0), 1e-13)
    # (and in x: central differences of SciPy's own zeta)
    h = 1e-6
    close(fg.grad(lambda w: np.sum(scipy_special.zeta(w, 2.0)))(q),
          (scipy_special.zeta(q + h, 2.0) - scipy_special.zeta(q - h, 2.0)) / (2 * h), 1e-7)


def test_scipys_python_function_over_a_ufunc_funcgrad_has_differentiates():
    # (SciPy's h1vp calls scipy.special.hankel1, whose twin funcgrad now has: it was the
    # example of an unsupported call inside SciPy before)
    h = 1e-6
    close(fg.grad(lambda v: np.sum(scipy_special.h1vp(1.0, v).real))(POS[:3]),
          (scipy_special.h1vp(1.0, POS[:3] + h).real - scipy_special.h1vp(1.0, POS[:3] - h).real)
          / (2 * h), 1e-6)


@pytest.mark.parametrize("call,message", [
    (lambda v: scipy_special.ellip_harm(5.0, 8.0, 1, 1, v),
     r"^scipy\.special\.ellip_harm calls scipy\.special\._ufuncs\._ellip_harm, which is "
     r"not supported on arrays traced by funcgrad\. .*call "
     r"funcgrad\.scipy\.special\.ellip_harm instead"),
], ids=["ellip_harm"])
def test_unsupported_call_inside_scipy_names_the_function_called(call, message):
    # (ellip_harm has its twin since session 23: the message names the call SciPy made
    # and the twin to call instead; pro_cv above, hidden, is the example without one)
    with pytest.raises(TypeError, match=message):
        fg.grad(lambda v: np.sum(call(v)))(POS[:3])


@pytest.mark.filterwarnings("ignore:.*scipy.odr.*is deprecated:DeprecationWarning")
def test_scipy_without_a_funcgrad_module_says_so():
    import scipy.fftpack
    import scipy.interpolate
    import scipy.spatial
    x = np.array([0.0, 1.0, 2.0])
    # (fftpack.diff has its twin since session 23, FloaterHormannInterpolator and
    # SphericalVoronoi since session 24: the messages name them; odr has none)
    with pytest.raises(TypeError, match=r"^scipy\.fftpack\.diff converts its input .*"
                                        r"call funcgrad\.scipy\.fftpack\.diff instead"):
        fg.grad(lambda v: np.sum(scipy.fftpack.diff(v)))(x)
    with pytest.raises(TypeError, match=r"^scipy\.interpolate\.FloaterHormannInterpolator "
                                        r"converts .*call funcgrad\.scipy\.interpolate\."
                                        r"FloaterHormannInterpolator instead"):
        fg.grad(lambda v: scipy.interpolate.FloaterHormannInterpolator(x, v)(0.5))(x)
    with pytest.raises(TypeError, match=r"^scipy\.interpolate\.interp1d converts its input .*"
                                        r"call funcgrad\.scipy\.interpolate\.interp1d instead"):
        fg.grad(lambda v: scipy.interpolate.interp1d(x, v)(0.5))(x)
    octahedron = np.concatenate([np.eye(3), -np.eye(3)])
    with pytest.raises(TypeError, match=r"^scipy\.spatial\.SphericalVoronoi converts .*"
                                        r"call funcgrad\.scipy\.spatial\.SphericalVoronoi"):
        fg.grad(lambda v: scipy.spatial.SphericalVoronoi(octahedron * v[1], radius=v[1])
                .vertices.sum())(x)
    odr = pytest.importorskip("scipy.odr")  # (a SciPy module funcgrad has no twin of)
    with pytest.raises(TypeError, match=r"^scipy\.odr\.Data converts .*funcgrad\.scipy has "
                                        r"no odr module"):
        fg.grad(lambda v: np.sum(odr.Data(x, v).y))(x)


def test_scipy_spatial_distance_names_its_funcgrad_twin():
    # (a function of a nested public module: the message named no twin before
    # funcgrad.scipy.spatial.distance existed, and no nested module at all)
    import scipy.spatial
    import scipy.spatial.distance
    x = np.array([0.0, 1.0, 2.0])
    with pytest.raises(TypeError, match=r"^scipy\.spatial\.distance\.pdist converts .*call "
                                        r"funcgrad\.scipy\.spatial\.distance\.pdist instead"):
        fg.grad(lambda v: np.sum(scipy.spatial.distance.pdist(v[:, None])))(x)
    with pytest.raises(TypeError, match=r"^scipy\.spatial\.minkowski_distance converts .*call "
                                        r"funcgrad\.scipy\.spatial\.minkowski_distance instead"):
        fg.grad(lambda v: scipy.spatial.minkowski_distance(v, x))(x)


def test_import_funcgrad_does_not_import_scipy():
    code = "import sys, funcgrad, funcgrad.numpy; print(any(m.startswith('scipy') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr


# --- stats ----------------------------------------------------------------------------------------

CONTINUOUS = [("norm", ()), ("t", (3.5,)), ("cauchy", ()), ("laplace", ()), ("logistic", ()),
              ("expon", ()), ("gamma", (2.3,)), ("beta", (2.3, 1.7)), ("chi2", (3.0,)),
              ("uniform", ()), ("lognorm", (0.7,)), ("halfnorm", ()), ("halfcauchy", ()),
              ("weibull_min", (1.7,)), ("weibull_min", (0.6,)), ("pareto", (2.5,)),
              ("lomax", (1.8,)), ("rayleigh", ()), ("gumbel_r", ()), ("gumbel_l", ()),
              ("invgamma", (2.3,)), ("ksone", (5.0,)), ("ksone", (40.0,))]
WITHOUT_PPF: set[str] = set()  # (invgamma had none)


def _methods(name):
    every = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf")
    return every[:-1] if name in WITHOUT_PPF else every


@pytest.mark.parametrize("name,shapes", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_continuous_distributions_keep_float32(name, shapes):
    # (audit: t, gamma, beta, chi2 widened float32 to float64 through their constants)
    ours = getattr(fst, name)
    x = np.array([0.2, 0.6], np.float32)
    for method in _methods(name):
        assert np.asarray(getattr(ours, method)(x, *shapes, scale=1.5)).dtype == np.float32, method
    grad = fg.grad(lambda v: fnp.sum(ours.logpdf(v, *shapes, loc=0.1)))(x)
    assert grad.dtype == np.float32
    close(grad, fg.grad(lambda v: fnp.sum(ours.logpdf(v, *shapes, loc=0.1)))(
        x.astype(np.float64)), 1e-5)


@pytest.mark.parametrize("name,shapes", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_continuous_distributions_match_scipy(name, shapes):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    x = RNG.uniform(-2.5, 4.5, 40) if name != "beta" else RNG.uniform(-0.2, 1.5, 40)
    with np.errstate(all="ignore"):
        for method in _methods(name):
            arg = RNG.uniform(0.02, 0.98, 40) if method == "ppf" else x
            got = getattr(ours, method)(arg, *shapes, loc=0.3, scale=1.7)
            close(got, getattr(theirs, method)(arg, *shapes, loc=0.3, scale=1.7), 1e-12, 1e-14)
        # positional loc and scale, as SciPy
        close(ours.logpdf(x, *shapes, 0.3, 1.7), theirs.logpdf(x, *shapes, 0.3, 1.7), 1e-12)


MORE_CONTINUOUS = [("lognorm", 1), ("halfnorm", 0), ("halfcauchy", 0), ("weibull_min", 1),
                   ("pareto", 1), ("lomax", 1), ("rayleigh", 0), ("gumbel_r", 0), ("gumbel_l", 0),
                   ("invgamma", 1)]


@pytest.mark.parametrize("name,n_shapes", MORE_CONTINUOUS, ids=[c[0] for c in MORE_CONTINUOUS])
def test_more_continuous_distributions_differentiate_in_x_shapes_loc_and_scale(name, n_shapes):
    ours = getattr(fst, name)
    x = np.array([0.9, 1.6, 2.4, 3.7])  # (inside every support, for loc = 0.3 scale = 0.5)
    params = np.array([1.3] * n_shapes + [0.3, 0.5])
    methods = ["logpdf"] + (["logsf", "cdf"] if name != "invgamma" else [])
    for method in methods:
        check_jvp_fd(lambda v, p: getattr(ours, method)(v, *p[:-2], loc=p[-2], scale=p[-1]),
                     [x, params], RNG)
    if name != "invgamma":
        check_jvp_fd(lambda q, p: ours.ppf(q, *p[:-2], loc=p[-2], scale=p[-1]),
                     [np.array([0.1, 0.4, 0.8]), params], RNG)
    else:  # (the CDF in a: gammainc's derivative in a, checked in test_scipy_peer3.py)
        check_jvp_fd(lambda v: ours.cdf(v, 1.3, loc=0.3, scale=0.5)
                     + ours.logsf(v[::-1], 1.3, loc=0.3, scale=0.5), [x], RNG)
        h = 1e-6
        want = (scipy_stats.invgamma.cdf(1.0, 1.3 + h) - scipy_stats.invgamma.cdf(1.0, 1.3 - h))
        close(fg.grad(lambda a: ours.cdf(1.0, a))(1.3), want / (2 * h), 1e-8)
    # outside the support: -inf, and a zero derivative rather than NaN
    outside = {"pareto": 0.5, "gumbel_r": None, "gumbel_l": None}.get(name, -1.0)
    if outside is not None:
        assert ours.logpdf(outside, *params[:-2]) == -np.inf
        g = fg.grad(lambda v, p: fnp.sum(ours.logsf(v, *p)) + fnp.sum(ours.cdf(v, *p))
                    + fnp.sum(ours.logpdf(v, *p)),
                    argnums=(0, 1) if name != "invgamma" else 0)(np.array([outside]),
                                                                 params[:-2])
        g = g if name != "invgamma" else (g, np.zeros(1))
        assert np.all(np.isfinite(g[0])) and np.all(np.isfinite(g[1])), g


@pytest.mark.parametrize("name,shapes", [("poisson", (2.5,)), ("bernoulli", (0.3,)),
                                         ("binom", (7, 0.3)), ("geom", (0.3,)),
                                         ("nbinom", (3.5, 0.4))])
def test_discrete_distributions_match_scipy(name, shapes):
    k = np.array([-1.0, 0, 1, 2, 3, 5, 7, 9, 2.5])
    for method in ("logpmf", "pmf", "cdf", "sf"):
        close(getattr(getattr(fst, name), method)(k, *shapes),
              getattr(getattr(scipy_stats, name), method)(k, *shapes), 1e-12, 1e-15)


def test_multivariate_normal_and_dirichlet_match_scipy():
    x, a = RNG.standard_normal((5, 3)), RNG.standard_normal((3, 3))
    cov, mean = a @ a.T + np.eye(3), RNG.standard_normal(3)
    close(fst.multivariate_normal.logpdf(x, mean, cov),
          scipy_stats.multivariate_normal.logpdf(x, mean, cov), 1e-12)
    close(fst.multivariate_normal.pdf(x[0], mean, 2.0),
          scipy_stats.multivariate_normal.pdf(x[0], mean, 2.0), 1e-12)
    alpha = np.array([1.5, 2.0, 3.0])
    xd = RNG.dirichlet(alpha, 4).T
    close(fst.dirichlet.logpdf(xd, alpha), scipy_stats.dirichlet.logpdf(xd, alpha), 1e-12)


def test_multivariate_normal_singular_cov_and_entropy_match_scipy():
    # rank 2 in 4 variables, rotated: points on the mean's plane have a density, others not
    q = np.linalg.qr(RNG.standard_normal((4, 4)))[0]
    cov, mean = q @ np.diag([1.0, 2.5, 0.0, 0.0]) @ q.T, RNG.standard_normal(4)
    on = mean + (cov @ RNG.standard_normal((4, 3))).T
    x = np.concatenate([on, on[:1] + 0.1])
    mvn, theirs = fst.multivariate_normal, scipy_stats.multivariate_normal
    close(mvn.logpdf(x, mean, cov, allow_singular=True),
          theirs.logpdf(x, mean, cov, allow_singular=True), 1e-12)
    close(mvn(mean, cov, allow_singular=True).pdf(x), theirs.pdf(x, mean, cov,
                                                              allow_singular=True), 1e-12)
    close(mvn.entropy(mean, cov), theirs.entropy(mean, cov), 1e-13)
    close(mvn.entropy(cov=2.0), theirs.entropy(cov=2.0), 1e-13)
    # on the plane the gradient in x is -pinv(cov) (x - mean), as for a regular cov
    close(fg.grad(lambda v: mvn.logpdf(v, mean, cov, allow_singular=True))(on[0]),
          -np.linalg.pinv(cov) @ (on[0] - mean), 1e-9, 1e-12)
    check_jvp_fd(lambda t: mvn.logpdf(on[1], mean + cov @ t, cov, allow_singular=True),
                 [np.zeros(4)], RNG)  # (the mean moved within the plane)
    # a regular cov: the same value and cov-gradient (the symmetric part) on both routes,
    # and d entropy / d cov = inv(cov) / 2
    a = RNG.standard_normal((3, 3))
    spd = a @ a.T + np.eye(3)
    for f in (lambda c: mvn.logpdf(x[0, :3], mean[:3], c, allow_singular=True),
              lambda c: mvn.logpdf(x[0, :3], mean[:3], c)):
        close(f(spd), theirs.logpdf(x[0, :3], mean[:3], spd), 1e-12)
        g1, g2 = fg.grad(f)(spd), fg.grad(lambda c: mvn.logpdf(x[0, :3], mean[:3], c))(spd)
        close(g1 + g1.T, g2 + g2.T, 1e-10)  # (cholesky reads cov's lower triangle only)
    close(fg.grad(lambda c: mvn.entropy(cov=c))(spd), 0.5 * np.linalg.inv(spd), 1e-12)
    check_second_order(lambda c: mvn.entropy(cov=c @ c.T + np.eye(3)), [a], RNG)
    with pytest.raises(np.linalg.LinAlgError, match="not positive definite"):
        mvn.logpdf(x, mean, cov)


def test_frozen_distributions_match_scipys_and_differentiate_in_their_parameters():
    x = RNG.uniform(0.1, 2.5, 5)
    for name, args, kwds in [("norm", (0.3,), {"scale": 1.7}), ("gamma", (2.3, 0.1, 1.5), {}),
                             ("t", (), {"df": 3.5, "loc": 0.2})]:
        ours, theirs = getattr(fst, name)(*args, **kwds), getattr(scipy_stats, name)(*args, **kwds)
        for method in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"):
            arg = x / 3.0 if method == "ppf" else x
            close(getattr(ours, method)(arg), getattr(theirs, method)(arg), 1e-12, 1e-15)
    close(fst.poisson(2.5).logpmf(np.array([0.0, 3.0])),
          scipy_stats.poisson(2.5).logpmf(np.array([0.0, 3.0])), 1e-13)
    cov, mean = np.array([[2.0, 0.3], [0.3, 1.0]]), np.array([0.1, -0.2])
    close(fst.multivariate_normal(mean, cov).logpdf(x[:4].reshape(2, 2)),
          scipy_stats.multivariate_normal(mean, cov).logpdf(x[:4].reshape(2, 2)), 1e-13)
    alpha = np.array([1.5, 2.0])
    close(fst.dirichlet(alpha).pdf(np.array([0.3, 0.7])),
          scipy_stats.dirichlet(alpha).pdf(np.array([0.3, 0.7])), 1e-13)
    check_jvp_fd(lambda p: fst.gamma(p[0] + 1.0, scale=p[1]).logpdf(x), [np.array([0.8, 1.3])],
                 RNG)
    with pytest.raises(TypeError, match="takes at most 2 parameters"):
        fst.norm(0.0, 1.0, 2.0)


def test_stats_gradients():
    x = RNG.uniform(0.2, 2.0, 4)
    for f in (lambda p: fst.norm.logpdf(x, loc=p[0], scale=p[1]),
              lambda p: fst.t.logpdf(x, p[0] + 2.0, loc=p[1], scale=p[0]),
              lambda p: fst.gamma.logpdf(x, p[0] + 1.0, scale=p[1]),
              lambda p: fst.beta.logpdf(x / 2.5, p[0] + 1.0, p[1] + 1.0),
              lambda p: fst.poisson.logpmf(np.array([0.0, 1.0, 4.0]), p[0] + p[1]),
              lambda p: fst.binom.logpmf(np.array([0.0, 1.0, 4.0]), 6, p[0] / 3.0),
              lambda p: fst.norm.cdf(x, loc=p[0], scale=p[1]),
              lambda p: fst.multivariate_normal.logpdf(x[:2], p, np.diag(p + 1.0)),
              lambda p: fst.dirichlet.logpdf(np.array([0.3, 0.7]), p + 1.0)):
        check_jvp_fd(f, [np.array([0.8, 1.3])], RNG)
    with pytest.raises(TypeError, match="needs the shape parameter"):
        fst.gamma.logpdf(1.0)


# --- ppf of t, gamma, beta, chi2 (a numerical inverse of the CDF) -----------------------------

PPF_SHAPES = [("gamma", (0.05,)), ("gamma", (0.3,)), ("gamma", (2.3,)), ("gamma", (250.0,)),
              ("chi2", (0.5,)), ("chi2", (3.0,)), ("chi2", (40.0,)), ("beta", (0.3, 0.4)),
              ("beta", (2.3, 1.7)), ("beta", (0.5, 5.0)), ("beta", (40.0, 3.0)),
              ("t", (0.7,)), ("t", (1.0,)), ("t", (3.5,)), ("t", (30.0,))]
# SciPy's own ppf is trusted on [1e-30, 1 - 1e-16] away from the median (its t.ppf drifts
# far out in the tails and right at 1/2); beyond, cdf(ppf(q)) == q by SciPy's CDF
Q_MAIN = np.concatenate([np.logspace(-30, -1, 25), np.linspace(0.02, 0.98, 25),
                         1 - np.logspace(-16, -1, 16), [0.0, 1.0, -0.1, 1.5, np.nan]])
Q_FAR = np.logspace(-300, -31, 12)


@pytest.mark.parametrize("name,shapes", PPF_SHAPES, ids=[f"{n}{s}" for n, s in PPF_SHAPES])
def test_ppf_values_match_scipy_into_the_tails(name, shapes):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    with np.errstate(all="ignore"):
        close(ours.ppf(Q_MAIN, *shapes), theirs.ppf(Q_MAIN, *shapes), 1e-12)
        x = np.asarray(ours.ppf(Q_FAR, *shapes))
        # (not under- or overflowed; SciPy's t.cdf squares x, so it needs |x| < 1e154)
        representable = np.isfinite(x) & (np.abs(x) > 1e-300) & (np.abs(x) < 1e150)
        close(theirs.cdf(x, *shapes)[representable], Q_FAR[representable], 1e-12)
    # Cauchy's quantile is tan(pi (q - 1/2)): exact beside the median, where SciPy's drifts
    q = 0.5 + np.array([1e-15, 3e-12, -1e-9])
    close(fst.t.ppf(q, 1.0), np.tan(np.pi * (q - 0.5)), 1e-13)
    close(fst.t.ppf(Q_FAR, 1.0), -1.0 / np.tan(np.pi * Q_FAR), 1e-13)  # and far out


@pytest.mark.parametrize("name,shapes", [("gamma", (2.3,)), ("chi2", (3.0,)),
                                         ("beta", (2.3, 1.7)), ("t", (3.5,))])
def test_ppf_derivatives(name, shapes):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    q = np.array([1e-8, 0.03, 0.4, 0.77, 1 - 1e-9])
    # d ppf / dq = scale / pdf(ppf(q)); loc and scale by the chain rule
    dq = fg.elementwise_grad(lambda v: ours.ppf(v, *shapes, loc=0.3, scale=1.7))(q)
    close(dq, 1.7 / theirs.pdf(theirs.ppf(q, *shapes), *shapes), 1e-9)
    x = np.asarray(ours.ppf(q, *shapes))
    close(fg.grad(lambda s: fnp.sum(ours.ppf(q, *shapes, loc=0.3, scale=s)))(1.7), np.sum(x))
    # second order (the inverse's curvature) against differences of the gradient, all modes
    check_jvp_fd(lambda v: ours.ppf(v, *shapes), [q[1:4]], RNG)
    check_second_order(lambda v: ours.ppf(v, *shapes), [q[1:4]], RNG)
    # the shape parameters, through the CDF's derivative in them, against SciPy's differences
    h = 1e-6
    want = (theirs.ppf(0.3, shapes[0] + h, *shapes[1:])
            - theirs.ppf(0.3, shapes[0] - h, *shapes[1:])) / (2 * h)
    for transform in (lambda f: fg.grad(f), lambda f: lambda s: fg.jvp(f, (s,), (1.0,))[1]):
        close(transform(lambda s: ours.ppf(0.3, s, *shapes[1:]))(shapes[0]), want, 1e-7)
    # ... which does not stop a derivative in q where the shape is traced but not moved
    _, t = fg.jvp(lambda v, s: ours.ppf(v, s, *shapes[1:]), (0.3, shapes[0]), (1.0, 0.0))
    close(t, 1.0 / theirs.pdf(theirs.ppf(0.3, *shapes), *shapes), 1e-9)


def test_ppf_vmap_and_float32():
    q = np.array([[0.01, 0.5, 0.9], [0.2, 0.6, 0.999]])
    for name, shapes in [("gamma", (2.3,)), ("beta", (2.3, 1.7)), ("t", (3.5,))]:
        ours = getattr(fst, name)
        close(fg.vmap(lambda v: ours.ppf(v, *shapes))(q), ours.ppf(q, *shapes), 1e-14)
        close(fg.vmap(lambda s: ours.ppf(0.3, s, *shapes[1:]))(np.array([1.5, 2.5])),
              [ours.ppf(0.3, s, *shapes[1:]) for s in (1.5, 2.5)], 1e-14)
        q32 = q.astype(np.float32)
        assert np.asarray(ours.ppf(q32, *shapes)).dtype == np.float32
        close(ours.ppf(q32, *shapes), ours.ppf(q32.astype(np.float64), *shapes), 1e-6)
        assert fg.grad(lambda v: fnp.sum(ours.ppf(v, *shapes)))(q32).dtype == np.float32


def test_rel_entr_and_kl_div_keep_float32():
    x = np.array([0.0, 0.5, 2.0], np.float32)
    y = np.array([1.0, 0.25, 1.0], np.float32)
    for f in (fsp.rel_entr, fsp.kl_div):
        value, tangent = fg.jvp(f, (x, y), (np.ones_like(x), np.ones_like(y)))
        assert value.dtype == tangent.dtype == np.float32, f.__name__


# --- audit: edges of the supports, df = inf, q outside [0, 1], SciPy's mvn conventions ----------

@pytest.mark.filterwarnings("ignore:divide by zero")  # (log 0 at an end: SciPy's +-inf)
def test_densities_at_the_ends_of_their_supports_match_scipy():
    # (audit: x = 0 for gamma/chi2 and x = 0, 1 for beta were outside the support: -inf)
    ends = np.array([0.0, 1.0, 0.5])
    for a in (0.5, 1.0, 2.0):
        close(fst.gamma.logpdf(ends, a), scipy_stats.gamma.logpdf(ends, a), 1e-14)
        close(fst.chi2.logpdf(ends, 2 * a), scipy_stats.chi2.logpdf(ends, 2 * a), 1e-14)
    for a, b in ((1.0, 2.0), (2.0, 1.0), (0.5, 0.5), (1.0, 1.0), (3.0, 3.0)):
        close(fst.beta.logpdf(ends, a, b), scipy_stats.beta.logpdf(ends, a, b), 1e-14)
        close(fst.beta.pdf(ends * 2 + 1, a, b, loc=1.0, scale=2.0),
              scipy_stats.beta.pdf(ends * 2 + 1, a, b, loc=1.0, scale=2.0), 1e-14)
    # the derivative in x inside the support is untouched
    check_jvp_fd(lambda v: fst.beta.logpdf(v, 1.0, 2.0), [np.array([0.2, 0.7])], RNG)


def test_t_with_infinite_df_is_the_normal_distribution():
    # (audit: df = inf gave NaN)
    x, q, df = np.array([-1.5, 0.7, 3.0]), np.array([0.01, 0.4, 0.9]), np.array([4.0, np.inf, np.inf])
    for method, arg in (("logpdf", x), ("cdf", x), ("sf", x), ("ppf", q)):
        for d in (np.inf, df):
            close(getattr(fst.t, method)(arg, d, loc=0.5, scale=2.0),
                  getattr(scipy_stats.t, method)(arg, d, loc=0.5, scale=2.0), 1e-12)
    grad = fg.grad(lambda v: fnp.sum(fst.t.logpdf(v, df)))(x)
    close(grad, [-5 * x[0] / (4 + x[0] ** 2), -x[1], -x[2]], 1e-13)  # by hand


def test_ppf_outside_0_1_is_nan_and_the_ends_are_scipys():
    # (audit: cauchy/expon/uniform/laplace returned numbers for q < 0 or q > 1, cauchy
    # +-1.6e16 at 0 and 1)
    q = np.array([-0.1, 0.0, 1.0, 1.2, np.nan])
    with np.errstate(all="ignore"):
        for name, shapes in CONTINUOUS:
            if name in WITHOUT_PPF:
                continue
            close(getattr(fst, name).ppf(q, *shapes, loc=0.3, scale=1.7),
                  getattr(scipy_stats, name).ppf(q, *shapes, loc=0.3, scale=1.7), 1e-14)


def test_cauchy_ppf_keeps_its_relative_accuracy_in_both_tails():
    q = np.array([1e-300, 1e-12, 0.1, 0.3, 0.5, 0.7, 0.9])
    with np.errstate(divide="ignore"):
        want = np.where(q < 0.5, -1.0 / np.tan(np.pi * q), 1.0 / np.tan(np.pi * (1.0 - q)))
    want[4] = 0.0
    close(fst.cauchy.ppf(q), want, 1e-15)
    close(fst.cauchy.ppf(1.0 - 1e-12), 1.0 / np.tan(np.pi * (1.0 - (1.0 - 1e-12))), 1e-15)
    dq = fg.elementwise_grad(fst.cauchy.ppf)(q[1:])
    close(dq, np.pi * (1.0 + np.asarray(fst.cauchy.ppf(q[1:])) ** 2), 1e-13)  # by hand


def test_multivariate_normal_follows_scipys_shape_conventions():
    # (audit: a 1-d x was always one point, a 1-d cov refused, the output not squeezed)
    mvn, smvn = fst.multivariate_normal, scipy_stats.multivariate_normal
    x = np.array([0.5, -1.0, 2.0])
    a = RNG.standard_normal((3, 3))
    for args in ((x,), (x, 0.5, 2.0), (x, None, 2.0), (x, np.zeros(3), np.array([1.0, 2.0, 3.0])),
                 (x[:, None], 1.0, 0.5), (x[None], np.ones(3), a @ a.T + np.eye(3)),
                 (1.5, 0.5, 2.0), (np.stack([x, -x]), None, np.diag([1.0, 2.0, 3.0]))):
        got, want = mvn.logpdf(*args), smvn.logpdf(*args)
        assert np.shape(got) == np.shape(want), args
        close(got, want, 1e-12)
    check_jvp_fd(lambda d: mvn.logpdf(np.stack([x, -x]), None, d), [np.array([1.0, 2.0, 3.0])],
                 RNG)


def test_beta_keeps_float32():
    a = np.array([0.5, 2.0, -0.5], np.float32)
    out = fsp.beta(a, np.float32(1.5))
    assert out.dtype == np.float32
    close(out, scipy_special.beta(a.astype(np.float64), 1.5), 1e-6)


def test_beta_derivative_at_the_poles_of_gamma_a_plus_b_is_the_limit():
    # (audit: NaN) where a + b = -n, B = Gamma(a) Gamma(b) / Gamma(a + b) is 0 and both
    # partial derivatives are Gamma(a) Gamma(b) (-1)^n n!: 2 pi / 3 at (-1.5, 1.5)
    for a, b, n in [(-1.5, 1.5, 0), (-2.5, 0.5, 2), (2.5, -4.5, 2)]:
        assert float(fsp.beta(a, b)) == scipy_special.beta(a, b) == 0.0
        limit = math.gamma(a) * math.gamma(b) * (-1) ** n * math.factorial(n)
        close(fg.grad(fsp.beta, argnums=(0, 1))(a, b), [limit, limit], 1e-12)
    close(fg.grad(fsp.beta)(-1.5, 1.5), 2 * math.pi / 3, 1e-12)
    x = np.array([-3.25, 0.7, -0.4])  # (and off the poles, SciPy's values)
    close(fsp.beta(x, 1.25), scipy_special.beta(x, 1.25), 1e-12)
    check_jvp_fd(lambda v: fsp.beta(v, 1.25), [x], RNG)


@pytest.mark.filterwarnings("ignore")  # (SciPy's own warnings on invalid parameters)
def test_invalid_parameters_give_nan_as_scipy():
    # (audit: scale <= 0 and shapes outside their domain gave numbers, or a math domain
    # error for a Python scale)
    x, q = np.array([-0.5, 0.3, 2.0]), np.array([0.1, 0.5, 0.9])
    bad_shapes = {"t": (-1.0,), "gamma": (0.0,), "beta": (-1.0, 0.5), "chi2": (-2.0,),
                  "lognorm": (0.0,), "weibull_min": (-1.0,), "pareto": (0.0,), "lomax": (-2.0,),
                  "invgamma": (0.0,)}
    for name, shapes in CONTINUOUS:
        ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
        for method in _methods(name):
            arg = q if method == "ppf" else x
            for scale in (-1.0, 0.0, np.array([-1.0, 1.0, 2.0])):
                close(getattr(ours, method)(arg, *shapes, scale=scale),
                      getattr(theirs, method)(arg, *shapes, scale=scale), 1e-12)
            if name in bad_shapes:
                close(getattr(ours, method)(arg, *bad_shapes[name]),
                      getattr(theirs, method)(arg, *bad_shapes[name]), 1e-12)
    k = np.array([0.0, 1.0, 2.0])
    for name, shapes in (("poisson", (-1.0,)), ("bernoulli", (1.5,)), ("binom", (3.5, 0.5)),
                         ("binom", (3, -0.1)), ("geom", (0.0,)), ("nbinom", (0.0, 0.5)),
                         ("nbinom", (2.0, np.array([0.0, 0.5, 1.2])))):
        for method in ("logpmf", "pmf", "cdf", "sf"):
            close(getattr(getattr(fst, name), method)(k, *shapes),
                  getattr(getattr(scipy_stats, name), method)(k, *shapes), 1e-12)
    # valid entries beside invalid ones keep their values and derivatives
    g = fg.grad(lambda s: fnp.sum(fnp.where(s > 0, fst.norm.logpdf(x, scale=s), 0.0)))(
        np.array([-1.0, 1.0, 2.0]))
    close(g, [0.0, x[1] ** 2 - 1.0, (x[2] / 2) ** 2 / 2 - 0.5])  # d/ds: (z^2 - 1) / s


# --- the distributions jax.scipy.stats has beyond the first set, and isf ----------------------

JAX_MORE = [("truncnorm", (-1.0, 2.0)), ("truncnorm", (3.0, 9.0)), ("truncnorm", (-12.0, -8.0)),
            ("truncnorm", (-0.5, 40.0)), ("gennorm", (1.5,)), ("gennorm", (0.6,)),
            ("vonmises", (2.0,)), ("vonmises", (300.0,)), ("wrapcauchy", (0.3,)),
            ("wrapcauchy", (0.9,))]


@pytest.mark.parametrize("name,shapes", JAX_MORE, ids=[f"{n}{s}" for n, s in JAX_MORE])
def test_more_distributions_match_scipy_into_their_tails(name, shapes):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    x, q = np.linspace(-4, 8, 49), np.linspace(0.001, 0.999, 37)
    # (vonmises has its cdf and sf since session 24: SciPy's series and normal branches)
    methods = ("logpdf", "pdf", "cdf", "sf") if name == "vonmises" else (
        "logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf")
    for method in methods:
        arg = q if method in ("ppf", "isf") else x
        with np.errstate(divide="ignore"):  # (log 0 outside the support, as SciPy's)
            got = getattr(ours, method)(arg, *shapes, loc=0.3, scale=0.8)
        close(got,
              getattr(theirs, method)(arg, *shapes, loc=0.3, scale=0.8), 1e-10, 1e-300)
    assert np.asarray(ours.logpdf(x.astype(np.float32), *shapes)).dtype == np.float32


@pytest.mark.parametrize("name,shapes", JAX_MORE, ids=[f"{n}{s}" for n, s in JAX_MORE])
def test_more_distributions_differentiate_in_x_shapes_loc_and_scale(name, shapes):
    ours = getattr(fst, name)
    lo, hi = {"truncnorm": (shapes[0] + 0.3, min(shapes[-1], shapes[0] + 3) - 0.3),
              "wrapcauchy": (0.3, 6.0)}.get(name, (-2.5, 3.0))
    z = np.linspace(lo, hi, 5)  # (inside the support: the standardized points)
    params = np.array(list(shapes) + [0.3, 0.8])
    methods = ["logpdf"] if name == "vonmises" else ["logpdf", "cdf", "logcdf", "logsf", "ppf",
                                                     "isf"]
    for method in methods:
        arg = np.array([0.1, 0.45, 0.8]) if method in ("ppf", "isf") else 0.3 + 0.8 * z
        if name == "gennorm" and method != "logpdf":  # (gammainc: no derivative in its a)
            check_jvp_fd(lambda v, p: getattr(ours, method)(v, shapes[0], loc=p[0], scale=p[1]),
                         [arg, params[1:]], RNG)
            continue
        check_jvp_fd(lambda v, p: getattr(ours, method)(v, *p[:-2], loc=p[-2], scale=p[-1]),
                     [arg, params], RNG)


def test_gennorm_cdf_differentiates_in_its_shape():
    h = 1e-6
    want = (scipy_stats.gennorm.cdf(0.7, 1.5 + h) - scipy_stats.gennorm.cdf(0.7, 1.5 - h))
    close(fg.grad(lambda b: fst.gennorm.cdf(0.7, b))(1.5), want / (2 * h), 1e-8)


def test_isf_matches_scipy_far_in_the_upper_tail():
    q = np.array([1e-300, 1e-30, 1e-5, 0.3, 0.9])
    # (t too, where SciPy's own isf is right: at 1e-300 it says -inf, for about 9e85)
    close(scipy_stats.t.sf(fst.t.isf(q[0], 3.5), 3.5), q[0], 1e-12)
    for name, shapes in [("norm", ()), ("t", (3.5,)), ("cauchy", ()), ("logistic", ()),
                         ("laplace", ()), ("expon", ()), ("beta", (2.0, 3.0)), ("lognorm", (0.7,)),
                         ("halfnorm", ())]:
        qs = q[1:] if name == "t" else q
        close(getattr(fst, name).isf(qs, *shapes, loc=0.2, scale=1.5),
              getattr(scipy_stats, name).isf(qs, *shapes, loc=0.2, scale=1.5), 1e-11)
    # (audit: gamma and chi2 computed ppf(1 - q): inf below q ~ 1e-17; invgamma had no isf)
    for name, shapes in [("gamma", (2.5,)), ("chi2", (3.0,)), ("invgamma", (2.0,))]:
        close(getattr(fst, name).isf(q, *shapes, loc=0.2, scale=1.5),
              getattr(scipy_stats, name).isf(q, *shapes, loc=0.2, scale=1.5), 1e-11)
        close(getattr(fst, name).isf(np.array([0.0, 1.0]), *shapes),
              getattr(scipy_stats, name).isf(np.array([0.0, 1.0]), *shapes), 1e-14)
    # d isf / dq = -1 / pdf(isf(q)), far in the tail too
    x = scipy_stats.gamma.isf(1e-20, 2.5)
    close(fg.grad(lambda v: fst.gamma.isf(v, 2.5))(1e-20), -1.0 / scipy_stats.gamma.pdf(x, 2.5),
          1e-9)
    check_jvp_fd(lambda v: fst.chi2.isf(v, 3.0), [np.array([0.01, 0.3, 0.9])], RNG)
    close(fst.norm(1.0, 2.0).isf(q), scipy_stats.norm(1.0, 2.0).isf(q), 1e-13)
    check_jvp_fd(lambda v, s: fst.t.isf(v, 3.5, scale=s),
                 [np.array([0.01, 0.3, 0.9]), np.array(1.3)], RNG)


def test_betabinom_and_multinomial_match_scipy_and_differentiate():
    k = np.array([-1.0, 0, 1, 2, 3, 5, 2.5, 6])
    for method in ("logpmf", "pmf"):
        close(getattr(fst.betabinom, method)(k, 5, 0.7, 2.5),
              getattr(scipy_stats.betabinom, method)(k, 5, 0.7, 2.5), 1e-12)
    check_jvp_fd(lambda ab: fst.betabinom.logpmf(k[1:6], 5, ab[0], ab[1]),
                 [np.array([0.7, 2.5])], RNG)
    x = np.array([[1.0, 2, 3], [0, 0, 6], [1, 1, 3], [1.5, 1.5, 3]])
    p = np.array([0.2, 0.3, 0.5])
    close(fst.multinomial.logpmf(x, 6, p), scipy_stats.multinomial.logpmf(x, 6, p), 1e-12)
    close(fst.multinomial(6, p).pmf(x[0]), scipy_stats.multinomial(6, p).pmf(x[0]), 1e-12)
    check_jvp_fd(lambda p: fst.multinomial.logpmf(x[:2], 6, p), [p], RNG)


# --- sem, rankdata, mode --------------------------------------------------------------------

def _with_nans():
    a = RNG.integers(0, 4, (3, 7)).astype(float)
    b = a.copy()
    b[1, 2] = np.nan
    b[2, [0, 3, 5]] = np.nan
    return a, b


@pytest.mark.filterwarnings("ignore")  # (SciPy's small-sample warnings)
def test_sem_matches_scipy_and_differentiates():
    a, b = _with_nans()
    for x in (a, b, a.astype(np.float32)):
        for axis in (None, 0, 1):
            for policy in ("propagate", "omit"):
                for keepdims in (False, True):
                    want = scipy_stats.sem(x, axis=axis, nan_policy=policy, keepdims=keepdims)
                    got = fst.sem(x, axis=axis, nan_policy=policy, keepdims=keepdims)
                    assert np.shape(got) == want.shape and np.asarray(got).dtype == want.dtype
                    close(got, want, 1e-6 if x.dtype == np.float32 else 1e-13)
    x = RNG.standard_normal((4, 5))
    check_jvp_fd(lambda v: fst.sem(v, axis=1, ddof=2), [x], RNG)
    x[0, 1] = x[2, 3] = np.nan
    check_jvp_fd(lambda v: fst.sem(v, nan_policy="omit"), [x], RNG)


@pytest.mark.parametrize("method", ["average", "min", "max", "dense", "ordinal"])
def test_rankdata_matches_scipy_and_has_a_zero_derivative(method):
    a, b = _with_nans()
    for x in (a, b, a[0], np.array([]), np.array(5.0), a.astype(int)):
        for axis in ((None,) if x.ndim < 2 else (None, 0, 1, -1)):
            for policy in ("propagate", "omit"):
                want = scipy_stats.rankdata(x, method, axis=axis, nan_policy=policy)
                got = fst.rankdata(x, method, axis=axis, nan_policy=policy)
                assert got.dtype == want.dtype and got.shape == want.shape
                np.testing.assert_array_equal(got, want)
    x = RNG.standard_normal(6)
    close(fg.grad(lambda v: fnp.sum(fst.rankdata(v, method) * v))(x),
          scipy_stats.rankdata(x, method))  # (d/dv of ranks . v: the ranks alone)
    with pytest.raises(ValueError, match="nan_policy='omit'"):
        fst.rankdata(b, method, nan_policy="raise")


@pytest.mark.filterwarnings("ignore")
def test_mode_matches_scipy_and_refuses_traced_values():
    a, b = _with_nans()
    for x in (a, b, a[0], np.array([]), a.astype(int)):
        for axis in ((None, 0, -1) if x.ndim < 2 else (None, 0, 1, -1)):
            for policy in ("propagate", "omit"):
                for keepdims in (False, True):
                    want = scipy_stats.mode(x, axis=axis, nan_policy=policy, keepdims=keepdims)
                    got = fst.mode(x, axis=axis, nan_policy=policy, keepdims=keepdims)
                    for g, w in zip(got, want):
                        assert np.shape(g) == np.shape(w), (x, axis, policy, keepdims)
                        assert np.asarray(g).dtype == np.asarray(w).dtype
                        np.testing.assert_array_equal(g, w)
    with pytest.raises(NotImplementedError, match="no derivative.*plain arrays"):
        fg.grad(lambda v: fst.mode(v).mode)(np.array([1.0, 1.0, 2.0]))


# --- gaussian_kde ---------------------------------------------------------------------------

@pytest.mark.parametrize("d", [1, 2, 3])
def test_gaussian_kde_matches_scipy(d):
    data, w = RNG.standard_normal((d, 30)), RNG.uniform(0.5, 2, 30)
    points = RNG.standard_normal((d, 7)) * 2
    for bw in (None, "silverman", 0.4, lambda k: 0.3 * k.n ** -0.2):
        for weights in (None, w):
            theirs, ours = (scipy_stats.gaussian_kde(data, bw, weights),
                            fst.gaussian_kde(data, bw, weights))
            close(ours(points), theirs(points), 1e-12)
            close(ours.logpdf(points), theirs.logpdf(points), 1e-12)
            close(ours.covariance, theirs.covariance, 1e-12)
            close(ours.integrate_gaussian(np.zeros(d), np.eye(d)),
                  theirs.integrate_gaussian(np.zeros(d), np.eye(d)), 1e-12)
            close(ours.integrate_kde(fst.gaussian_kde(data[:, :10])),
                  theirs.integrate_kde(scipy_stats.gaussian_kde(data[:, :10])), 1e-12)
            if d == 1:
                close(ours.integrate_box_1d(-0.5, 1.2), theirs.integrate_box_1d(-0.5, 1.2), 1e-12)
    far = scipy_stats.gaussian_kde(data).logpdf(np.full((d, 1), 40.0))  # (pdf underflows)
    close(fst.gaussian_kde(data).logpdf(np.full((d, 1), 40.0)), far, 1e-12)


def test_gaussian_kde_differentiates_in_data_weights_points_and_bandwidth():
    data, w = RNG.standard_normal((2, 12)), RNG.uniform(0.5, 2, 12)
    points = RNG.standard_normal((2, 4))
    check_jvp_fd(lambda x, v, p, bw: fst.gaussian_kde(x, bw, v).logpdf(p),
                 [data, w, points, np.array(0.6)], RNG)
    check_jvp_fd(lambda x: fst.gaussian_kde(x).integrate_gaussian(np.zeros(2), np.eye(2)),
                 [data], RNG)
    check_jvp_fd(lambda x: fst.gaussian_kde(x[0]).integrate_box_1d(-0.5, 1.0), [data], RNG)
    out = fst.gaussian_kde(data.astype(np.float32))(points.astype(np.float32))
    assert out.dtype == np.float32
    sample = fst.gaussian_kde(data).resample(2000, seed=0)
    assert sample.shape == (2, 2000)
    close(np.cov(sample), scipy_stats.gaussian_kde(data).covariance + np.cov(data, bias=True),
          0, 0.15)  # (a draw: data point plus kernel noise)
    with pytest.raises(ValueError, match=r"shape \(2, m\)"):
        fst.gaussian_kde(data)(np.ones((3, 2)))


# --- entropy ----------------------------------------------------------------------------------

def test_entropy_matches_scipy_and_differentiates():
    for name, shapes in [("norm", ()), ("expon", ()), ("uniform", ()), ("laplace", ()),
                         ("logistic", ()), ("cauchy", ()), ("gamma", (2.5,)), ("gamma", (0.3,)),
                         ("chi2", (3.0,)), ("beta", (2.0, 0.7))]:
        close(getattr(fst, name).entropy(*shapes, scale=1.7),
              getattr(scipy_stats, name).entropy(*shapes, scale=1.7), 1e-14, 1e-15)
    close(fst.norm(0.0, 2.0).entropy(), scipy_stats.norm(0.0, 2.0).entropy())
    check_jvp_fd(lambda p: fst.beta.entropy(p[0], p[1], scale=p[2]),
                 [np.array([2.0, 0.7, 1.3])], RNG)
    # (t's entropy is in closed form now: tests/test_scipy_peer.py; vonmises' too, since
    # session 24)
    close(fst.vonmises.entropy(3.0), scipy_stats.vonmises.entropy(3.0), 1e-13)


def test_poisson_entropy_matches_scipy_and_a_high_precision_sum():
    mpmath = pytest.importorskip("mpmath")
    mu = np.array([0.0, 1e-3, 0.5, 3.0, 50.0, 500.0])
    close(fst.poisson.entropy(mu), scipy_stats.poisson.entropy(mu), 1e-12, 1e-16)
    assert np.isnan(fst.poisson.entropy(-1.0))
    close(fst.poisson(3.0).entropy(), scipy_stats.poisson(3.0).entropy(), 1e-13)
    # beyond SciPy's accurate range: -sum p log p in 30 digits, over 40 standard deviations
    mpmath.mp.dps = 30
    for m in (999.0, 1001.0, 3000.0):
        window = range(max(0, int(m - 40 * m ** 0.5)), int(m + 40 * m ** 0.5))
        log_p = [k * mpmath.log(m) - m - mpmath.loggamma(k + 1) for k in window]
        want = float(-sum(mpmath.exp(lp) * lp for lp in log_p))
        close(fst.poisson.entropy(m), want, 5e-13)
    check_jvp_fd(lambda m: fst.poisson.entropy(m), [np.array([0.5, 3.0, 40.0, 2500.0])], RNG)


def test_log_ndtr_derivative_keeps_its_accuracy_far_left():
    # (audit: exp(-x^2/2 - log_ndtr(x)) keeps only the rounding of two terms near x^2/2:
    # 1.3e-5 relative error at x = -1e6, and worse beyond; norm.logsf/logcdf inherit it)
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 60
    for x in (-1e8, -1e6, -1e4, -100.0, -20.5, -19.5, -5.0, 0.0, 5.0):
        want = float(mpmath.diff(lambda t: mpmath.log(mpmath.ncdf(t)), mpmath.mpf(x)))
        close(fg.grad(fsp.log_ndtr)(x), want, 1e-13)
    close(fg.grad(fst.norm.logsf)(1e6), -float(mpmath.diff(
        lambda t: mpmath.log(mpmath.ncdf(t)), mpmath.mpf(-1e6))), 1e-13)
    got32 = fg.grad(fsp.log_ndtr)(np.float32(-1e4))
    assert got32.dtype == np.float32 and abs(float(got32) - 10000.0001) < 1e-3
    check_second_order(fsp.log_ndtr, [np.array([-60.0, -20.0, -3.0])])

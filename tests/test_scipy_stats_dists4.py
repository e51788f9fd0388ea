"""scipy.stats distributions of session 24's statsdists4: ``norminvgauss`` and
``geninvgauss`` (Bessel-function densities, CDFs by differentiable quadrature) against
SciPy's values and central differences of SciPy's values."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.stats as fst

ss = pytest.importorskip("scipy.stats")

# (name, shapes, points in the bulk, where SciPy's quad is accurate to ~1e-12)
CASES = [
    ("norminvgauss", (1.5, 0.6), [-2.0, -0.3, 0.4, 2.5]),
    ("norminvgauss", (10.0, -3.0), [-1.2, -0.3, 0.1]),
    ("geninvgauss", (2.3, 1.5), [0.2, 0.9, 2.0, 6.0]),
    ("geninvgauss", (-1.2, 0.4), [0.05, 0.3, 1.5]),
]
IDS = [f"{name}{shapes}" for name, shapes, _ in CASES]


@pytest.mark.parametrize("name, shapes, xs", CASES, ids=IDS)
def test_values_match_scipy(name, shapes, xs):
    ours, theirs = getattr(fst, name), getattr(ss, name)
    x = np.array(xs)
    for method in ("logpdf", "pdf", "cdf", "sf", "logcdf", "logsf"):
        np.testing.assert_allclose(getattr(ours, method)(x, *shapes, loc=0.3, scale=1.7),
                                   getattr(theirs, method)(x, *shapes, loc=0.3, scale=1.7),
                                   rtol=2e-11, atol=1e-300, err_msg=method)
    # SciPy's quantiles stop at brentq's tolerance: ours are checked by their own cdf, too
    q = np.array([0.02, 0.5, 0.9])
    xq = np.asarray(ours.ppf(q, *shapes))
    np.testing.assert_allclose(xq, theirs.ppf(q, *shapes), rtol=1e-8)
    np.testing.assert_allclose(ours.cdf(xq, *shapes), q, rtol=1e-13)
    np.testing.assert_allclose(ours.isf(q, *shapes), theirs.isf(q, *shapes), rtol=1e-8)
    np.testing.assert_allclose(ours.mean(*shapes), theirs.mean(*shapes), rtol=1e-13)
    np.testing.assert_allclose(ours.var(*shapes), theirs.var(*shapes), rtol=1e-13)


def test_far_tails_keep_their_relative_accuracy():
    # 1 - cdf would be 0 (or noise) here; each tail is integrated on its own.  The
    # references are mpmath's quad (30 digits) of the density; SciPy's quad is 8e-6 and
    # 5e-7 off at these two points
    np.testing.assert_allclose(fst.norminvgauss.sf(25.0, 1.5, 0.6), 2.6753177074529432e-12,
                               rtol=1e-12)
    np.testing.assert_allclose(fst.norminvgauss.cdf(-40.0, 1.5, 0.6), 1.1662175418676402e-39,
                               rtol=1e-10)
    assert float(fst.geninvgauss.cdf(0.0, 2.3, 1.5)) == 0.0
    assert float(fst.geninvgauss.sf(-1.0, 2.3, 1.5)) == 1.0


def _central(f, args, i, h):
    up, down = list(args), list(args)
    up[i] += h
    down[i] -= h
    return (f(*up) - f(*down)) / (2 * h)


# (name, shapes, x, which arguments of f(x, *shapes, loc, scale) to differentiate)
SLOPES = [
    ("norminvgauss", (1.5, 0.6), -0.3, (0, 1, 2, 3, 4)),
    ("norminvgauss", (1.5, 0.6), 2.5, (0, 1, 2)),
    ("geninvgauss", (2.3, 1.5), 0.9, (0, 2, 3, 4)),  # (p: see the order test)
    ("geninvgauss", (2.3, 1.5), 4.0, (0, 2)),
]


@pytest.mark.parametrize("name, shapes, x, argnums", SLOPES,
                         ids=[f"{s[0]}@{s[2]}" for s in SLOPES])
def test_slopes_match_central_differences_of_scipy(name, shapes, x, argnums):
    ours, theirs = getattr(fst, name), getattr(ss, name)
    args = [x, *shapes, 0.0, 1.0]
    for method in ("logpdf", "cdf", "sf"):
        grads = fg.grad(getattr(ours, method), argnums=argnums)(*args)
        for i, g in zip(argnums, grads):
            want = _central(getattr(theirs, method), args, i, 1e-5)
            np.testing.assert_allclose(g, want, rtol=2e-6, atol=1e-9,
                                       err_msg=f"{method} in argument {i}")


def test_quantile_slopes_by_the_implicit_rule():
    # cdf(x(a), a) = q: dx/dq = 1/pdf(x), dx/da = -(dF/da)/pdf(x), dF/da from SciPy's cdf
    a, b, q = 1.5, 0.6, 0.3
    x = float(fst.norminvgauss.ppf(q, a, b))
    dq, da = fg.grad(fst.norminvgauss.ppf, argnums=(0, 1))(q, a, b)
    pdf = ss.norminvgauss.pdf(x, a, b)
    np.testing.assert_allclose(dq, 1 / pdf, rtol=1e-10)
    dfda = _central(lambda a: ss.norminvgauss.cdf(x, a, b), [a], 0, 1e-5)
    np.testing.assert_allclose(da, -dfda / pdf, rtol=1e-6)
    disf = fg.grad(fst.geninvgauss.isf, argnums=2)(q, 2.3, 1.5)
    xs = float(fst.geninvgauss.isf(q, 2.3, 1.5))
    dsdb = _central(lambda b: ss.geninvgauss.sf(xs, 2.3, b), [1.5], 0, 1e-5)
    # (sf(x(b), b) = q: -pdf x' + dsf/db = 0)
    np.testing.assert_allclose(disf, dsdb / ss.geninvgauss.pdf(xs, 2.3, 1.5), rtol=1e-6)


def test_moments_and_entropy_with_their_slopes():
    a, b = 1.5, 0.6
    np.testing.assert_allclose(fst.norminvgauss.entropy(a, b), ss.norminvgauss.entropy(a, b),
                               rtol=1e-10)
    g = fg.grad(fst.norminvgauss.entropy, argnums=(0, 1))(a, b)
    for i in range(2):
        np.testing.assert_allclose(g[i], _central(ss.norminvgauss.entropy, [a, b], i, 1e-4),
                                   rtol=1e-6)
    np.testing.assert_allclose(fg.grad(fst.norminvgauss.var, 1)(a, b),
                               _central(ss.norminvgauss.var, [a, b], 1, 1e-6), rtol=1e-8)
    np.testing.assert_allclose(fg.grad(fst.geninvgauss.mean, 1)(2.3, 1.5),
                               _central(ss.geninvgauss.mean, [2.3, 1.5], 1, 1e-6), rtol=1e-8)


def test_the_derivative_in_geninvgauss_order_is_kves_in_its_order():
    # (kve's order derivative by quadrature: funcgrad.primitives.special_bessel_order)
    for f, s in ((fst.geninvgauss.logpdf, ss.geninvgauss.logpdf),
                 (fst.geninvgauss.cdf, ss.geninvgauss.cdf)):
        np.testing.assert_allclose(fg.grad(f, 1)(0.9, 2.3, 1.5),
                                   _central(s, [0.9, 2.3, 1.5], 1, 1e-5), rtol=1e-7)
    np.testing.assert_allclose(fg.grad(fst.geninvgauss.mean)(2.3, 1.5),
                               _central(ss.geninvgauss.mean, [2.3, 1.5], 0, 1e-5), rtol=1e-7)


def test_family_transforms_float32_frozen_and_invalid_parameters():
    x = np.array([-0.5, 0.2, 1.0])
    # logpdf is closed-form: jit and vmap
    np.testing.assert_allclose(fg.jit(fst.norminvgauss.logpdf)(x, 1.5, 0.6),
                               ss.norminvgauss.logpdf(x, 1.5, 0.6), rtol=1e-13)
    np.testing.assert_allclose(fg.vmap(fg.grad(fst.geninvgauss.logpdf, 2), (None, None, 0))(
        1.0, 2.3, np.array([0.5, 1.5])),
        [_central(ss.geninvgauss.logpdf, [1.0, 2.3, b], 2, 1e-6) for b in (0.5, 1.5)], rtol=1e-7)
    # the integrals need concrete values: a clear error under jit and vmap
    with pytest.raises(TypeError, match="norminvgauss.cdf integrates.*jit or vmap"):
        fg.jit(fst.norminvgauss.cdf)(x, 1.5, 0.6)
    with pytest.raises(TypeError, match="geninvgauss.sf integrates.*jit or vmap"):
        fg.vmap(fst.geninvgauss.sf, (None, 0, None))(1.0, np.array([1.0, 2.0]), 1.5)
    x32 = x.astype(np.float32)
    for method in ("logpdf", "cdf", "sf"):
        out = getattr(fst.norminvgauss, method)(x32, np.float32(1.5), np.float32(0.6))
        assert out.dtype == np.float32, method
        np.testing.assert_allclose(out, getattr(ss.norminvgauss, method)(x, 1.5, 0.6),
                                   rtol=2e-6)
    frozen = fst.geninvgauss(2.3, 1.5, scale=2.0)
    np.testing.assert_allclose(frozen.cdf(1.5), ss.geninvgauss(2.3, 1.5, scale=2.0).cdf(1.5),
                               rtol=1e-11)
    assert np.isnan(fst.norminvgauss.cdf(0.0, 1.0, 1.0))  # |b| < a, as SciPy's
    assert np.isnan(fst.norminvgauss.logpdf(0.0, -1.0, 0.0))
    assert np.isnan(fst.geninvgauss.pdf(1.0, 2.0, 0.0))  # b > 0
    np.testing.assert_allclose(fst.geninvgauss.pdf(1.0, -3.0, 2.0),
                               ss.geninvgauss.pdf(1.0, -3.0, 2.0), rtol=1e-13)


# --- the von Mises CDF (vonmises) and vonmises_line ------------------------------------------

@pytest.mark.parametrize("kappa", [0.01, 2.0, 20.0, 49.9, 50.0, 500.0])
def test_von_mises_cdf_matches_scipy_in_both_branches(kappa):
    # outside [-pi, pi] vonmises counts whole turns, vonmises_line is 0 or 1 (as SciPy's)
    x = np.array([-9.0, -3.0, -0.2, 0.0, 0.5, 3.1, 7.0])
    for name in ("vonmises", "vonmises_line"):
        ours, theirs = getattr(fst, name), getattr(ss, name)
        for method in ("cdf", "sf"):
            np.testing.assert_allclose(getattr(ours, method)(x, kappa, loc=0.1),
                                       getattr(theirs, method)(x, kappa, loc=0.1),
                                       rtol=1e-13, atol=5e-14, err_msg=f"{name}.{method}")
        np.testing.assert_allclose(ours.entropy(kappa), theirs.entropy(kappa), rtol=1e-12)
    np.testing.assert_allclose(fst.vonmises_line.logpdf(x, kappa),
                               ss.vonmises_line.logpdf(x, kappa), rtol=1e-13)


@pytest.mark.parametrize("kappa, x", [(0.5, -1.0), (20.0, 0.5), (80.0, 0.3)])
def test_von_mises_cdf_slopes_in_x_and_kappa(kappa, x):
    dx, dk = fg.grad(fst.vonmises.cdf, argnums=(0, 1))(x, kappa)
    # (SciPy's series stops at fewer terms: its values carry ~1e-14, hence the wide step)
    np.testing.assert_allclose(dx, _central(ss.vonmises.cdf, [x, kappa], 0, 1e-5), rtol=1e-7)
    np.testing.assert_allclose(dk, _central(ss.vonmises.cdf, [x, kappa], 1, 1e-3), rtol=1e-5)
    if kappa < 50:  # the series' slope is the density (to its truncation, ~1e-12)
        np.testing.assert_allclose(dx, ss.vonmises.pdf(x, kappa), rtol=1e-10)
    np.testing.assert_allclose(fg.grad(fst.vonmises.entropy)(kappa),
                               _central(ss.vonmises.entropy, [kappa], 0, 1e-3), rtol=1e-6)


def test_vonmises_line_quantiles_transforms_and_float32():
    q = np.array([0.01, 0.3, 0.9])
    xq = fst.vonmises_line.ppf(q, 2.0)
    np.testing.assert_allclose(xq, ss.vonmises_line.ppf(q, 2.0), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(fg.grad(fst.vonmises_line.ppf)(0.3, 2.0),
                               1 / ss.vonmises_line.pdf(float(xq[1]), 2.0), rtol=1e-10)
    x = np.array([-1.0, 0.4, 2.0])
    kappas = np.array([0.5, 60.0])  # (one in each branch)
    np.testing.assert_allclose(
        fg.jit(fg.vmap(fg.grad(fst.vonmises.cdf, 1), (None, 0)))(0.4, kappas),
        [_central(ss.vonmises.cdf, [0.4, k], 1, 1e-3) for k in kappas], rtol=1e-5)
    out = fst.vonmises_line.cdf(x.astype(np.float32), np.float32(2.0))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, ss.vonmises_line.cdf(x, 2.0), rtol=1e-6)
    # (its variance: the moments' quadrature over [-pi, pi], SciPy's)
    np.testing.assert_allclose(fst.vonmises_line.var(2.0), ss.vonmises_line.var(2.0), rtol=1e-9)

"""The orthogonal polynomials of funcgrad.scipy.special (``eval_legendre``... of
funcgrad/scipy/_special_polys.py): SciPy's values and dtypes, derivatives in ``x`` against
the classical derivative identities evaluated by SciPy, in the parameters and to second
order against central differences, under vmap and jit, and the errors."""
import numpy as np
import pytest

sc = pytest.importorskip("scipy.special")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
from helpers import check_jvp_fd, check_second_order, check_vmap  # noqa: E402

RNG = np.random.default_rng(20)
X = RNG.uniform(-1.3, 1.3, 40)
DEGREES = np.arange(-4, 26)[:, None]

# name, SciPy's arguments after n (x last), the x scale
FAMILIES = [("eval_legendre", ()), ("eval_chebyt", ()), ("eval_chebyu", ()),
            ("eval_chebyc", ()), ("eval_chebys", ()), ("eval_sh_legendre", ()),
            ("eval_sh_chebyt", ()), ("eval_sh_chebyu", ()), ("eval_laguerre", ()),
            ("eval_hermite", ()), ("eval_hermitenorm", ()), ("eval_jacobi", (0.3, -0.4)),
            ("eval_jacobi", (2.5, 1.5)), ("eval_sh_jacobi", (2.5, 1.3)),
            ("eval_gegenbauer", (0.7,)), ("eval_gegenbauer", (0.0,)),
            ("eval_gegenbauer", (-0.3,)), ("eval_genlaguerre", (1.5,)),
            ("eval_genlaguerre", (-0.5,)), ("eval_genlaguerre", (-1.5,))]
IDS = [f"{name}{params}" for name, params in FAMILIES]


def _x_for(name):
    if name in ("eval_chebyc", "eval_chebys"):
        return 2 * X
    if "laguerre" in name:
        return 6 * X + 6
    if name.startswith("eval_sh"):
        return (X + 1) / 2
    return X


def _assert_scipy_close(got, want, rtol=1e-13):
    """Relative to each degree's size on the sample (a value near a root has only the
    absolute accuracy of its terms, in SciPy's recurrence as in funcgrad's)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite], want[~finite])  # (NaN, inf: the same)
    got, want = np.where(finite, got, 0), np.where(finite, want, 0)
    scale = np.sqrt(np.mean(np.square(want), axis=-1, keepdims=True)) + np.abs(want)
    err = np.abs(got - want)
    assert np.all(err <= rtol * scale), np.max(err / np.maximum(scale, 1e-300))


@pytest.mark.parametrize("name,params", FAMILIES, ids=IDS)
def test_integer_degrees_are_scipys_values(name, params):
    x = _x_for(name)
    degrees = DEGREES[4:] if name == "eval_sh_jacobi" else DEGREES  # (NaN below 0 in both)
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(degrees, *params, x)
    _assert_scipy_close(getattr(fsp, name)(degrees, *params, x), want)
    # one degree at a time (a scalar n takes the recurrence without selection)
    with np.errstate(all="ignore"):
        _assert_scipy_close(getattr(fsp, name)(7, *params, x),
                            getattr(sc, name)(7, *params, x))


@pytest.mark.parametrize("name,params", [f for f in FAMILIES if "hermite" not in f[0]],
                         ids=[i for i in IDS if "hermite" not in i])
def test_other_degrees_take_scipys_hypergeometric_form(name, params):
    degrees = np.array([0.5, 1.0, 2.25, 3.7, 6.0, -0.5])[:, None]
    x = _x_for(name)
    x = x[np.abs(x) <= 1] if name in ("eval_legendre", "eval_chebyt", "eval_chebyu",
                                      "eval_jacobi", "eval_gegenbauer") else x
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(degrees, *params, x)
        got = getattr(fsp, name)(degrees, *params, x)
    _assert_scipy_close(got, want, rtol=1e-12)


def test_docstring_style_points():
    """SciPy's documented special values: P_n(1) = 1, T_n(cos t) = cos(n t),
    H_3(x) = 8x^3 - 12x, L_2^(a)(0) = binom(2 + a, 2)."""
    n = np.arange(30)
    np.testing.assert_array_equal(fsp.eval_legendre(n, 1.0), np.ones(30))
    t = 0.7
    np.testing.assert_allclose(fsp.eval_chebyt(n, np.cos(t)), np.cos(n * t), rtol=0,
                               atol=1e-13)
    np.testing.assert_allclose(fsp.eval_hermite(3, 1.5), 8 * 1.5 ** 3 - 12 * 1.5, rtol=1e-15)
    assert float(fsp.eval_genlaguerre(2, 0.5, 0.0)) == 2.5 * 1.5 / 2


def test_dtypes_follow_scipys_loops():
    x32 = X.astype(np.float32)
    for n in (3, np.int64(3), np.array([1, 2]), 3.0, np.float32(3.5)):
        got, want = fsp.eval_legendre(n, x32[:, None]), sc.eval_legendre(n, x32[:, None])
        assert got.dtype == want.dtype, (n, got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    a32 = np.float32(0.3)
    assert fsp.eval_jacobi(np.float32(2.0), a32, a32, x32).dtype == np.float32
    assert fsp.eval_genlaguerre(2, a32, x32).dtype == np.float64
    for n in (4, 2.5):
        z = X + 0.5j
        got, want = fsp.eval_legendre(n, z), sc.eval_legendre(n, z)
        assert got.dtype == want.dtype == np.complex128
        np.testing.assert_allclose(got, want, rtol=1e-13)


def _d(name, n, *args):
    return np.asarray(fg.elementwise_grad(lambda x: getattr(fsp, name)(n, *args, x))(X))


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_x_derivatives_are_the_classical_identities(n):
    """d/dx of each family is another polynomial of the same kind (DLMF 18.9), evaluated
    by SciPy."""
    with np.errstate(all="ignore"):
        p = sc.eval_legendre
        want = n * (X * p(n, X) - p(n - 1, X)) / (X * X - 1)
    np.testing.assert_allclose(_d("eval_legendre", n), want, rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(_d("eval_chebyt", n), n * sc.eval_chebyu(n - 1, X),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_d("eval_hermite", n), 2 * n * sc.eval_hermite(n - 1, X),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_d("eval_hermitenorm", n), n * sc.eval_hermitenorm(n - 1, X),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_d("eval_genlaguerre", n, 0.8),
                               -sc.eval_genlaguerre(n - 1, 1.8, X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_d("eval_gegenbauer", n, 0.6),
                               1.2 * sc.eval_gegenbauer(n - 1, 1.6, X), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(_d("eval_jacobi", n, 0.3, -0.4),
                               (n + 0.9) / 2 * sc.eval_jacobi(n - 1, 1.3, 0.6, X),
                               rtol=1e-12, atol=1e-12)


def test_the_derivative_in_x_at_the_ends_is_finite():
    """P_n'(1) = n(n + 1)/2 (where the identity above is 0/0)."""
    n = np.arange(1, 12)
    got = fg.elementwise_grad(lambda x: fsp.eval_legendre(n, x))(np.ones(11))
    np.testing.assert_allclose(got, n * (n + 1) / 2, rtol=1e-14)


@pytest.mark.parametrize("name,n,params", [
    ("eval_jacobi", 5, (0.3, -0.4)), ("eval_gegenbauer", 4, (0.7,)),
    ("eval_genlaguerre", 6, (1.5,)), ("eval_sh_jacobi", 3, (2.5, 1.3))])
def test_parameter_derivatives_match_finite_differences(name, n, params):
    x = _x_for(name)[:6]
    args = [np.full(6, p) for p in params] + [x]

    def f(*a):
        return getattr(fsp, name)(n, *a)
    check_jvp_fd(f, args, RNG)
    check_second_order(f, args, RNG)
    check_vmap(f, args, [0] * len(args), RNG)


@pytest.mark.parametrize("name", ["eval_legendre", "eval_chebyu", "eval_hermite",
                                  "eval_laguerre", "eval_sh_chebyt"])
def test_x_second_order_vmap_and_jit(name):
    x = _x_for(name)[:5]
    f = lambda x: getattr(fsp, name)(6, x)  # noqa: E731
    check_jvp_fd(f, [x], RNG)
    check_second_order(f, [x], RNG)
    check_vmap(f, [x], [0], RNG)
    np.testing.assert_array_equal(fg.jit(f)(x), f(x))


def test_a_non_integer_degree_differentiates_in_x_through_hyp2f1():
    h = 1e-6
    got = fg.grad(lambda x: fsp.eval_legendre(2.5, x))(0.3)
    want = (sc.eval_legendre(2.5, 0.3 + h) - sc.eval_legendre(2.5, 0.3 - h)) / (2 * h)
    assert abs(got - want) < 1e-8


def test_large_degrees_run_the_recurrence():
    n = 3000  # (SciPy's hyp2f1 is NaN here: no way out through the closed form)
    x = X[np.abs(X) < 1]
    np.testing.assert_allclose(fsp.eval_legendre(n, x), sc.eval_legendre(n, x), rtol=0,
                               atol=1e-12)
    with pytest.raises(ValueError, match="degree above"):
        fsp.eval_hermite(10 ** 6, 0.5)


def test_errors_name_the_fix():
    with pytest.raises(NotImplementedError, match="degree n selects the polynomial"):
        fg.grad(fsp.eval_legendre)(3.0, 0.3)
    with pytest.raises(TypeError, match="integer type"):
        fsp.eval_hermite(2.0, 0.3)
    with pytest.raises(TypeError, match="parameters are real"):
        fsp.eval_gegenbauer(2, 0.5 + 1j, 0.3)
    with pytest.raises(NotImplementedError, match="derivative with respect to b"):
        fg.grad(fsp.eval_jacobi, 1)(2.5, 0.3, 0.2, 0.1)


def test_out_and_the_scipy_ufunc_on_traced_values():
    out = np.empty(X.shape)
    fsp.eval_chebyt(4, X, out=out)
    np.testing.assert_allclose(out, sc.eval_chebyt(4, X), rtol=1e-14, atol=1e-15)
    # SciPy's own ufunc, on a traced x, differentiates as funcgrad's
    got = fg.grad(lambda x: sc.eval_legendre(3, x))(0.3)
    assert abs(got - 0.5 * (15 * 0.09 - 3)) < 1e-14


@pytest.mark.parametrize("m", [0, 1, 2, 5, -1, -3])
def test_lpmv_is_scipys(m):
    # (from -0.95: nearer -1 the non-integer degrees diverge and 2F1 near z = 1 loses
    # digits, in SciPy as here)
    x = np.append(np.linspace(-0.95, 1, 40), [1.5, -1.2])
    degrees = np.concatenate([np.arange(abs(m), 14), [2.5, 3.7, -4.0]])[:, None]
    with np.errstate(all="ignore"):
        got, want = fsp.lpmv(m, degrees, x), sc.lpmv(m, degrees, x)
    if m < 0:  # (SciPy's NaN below the order, where Ferrers' function is finite)
        keep = np.ravel(degrees >= abs(m)) | np.ravel(degrees != np.floor(degrees))
        got, want = np.asarray(got)[keep], want[keep]
    # (a negative order: Ferrers' 2F1 polynomial against SciPy's factorial relation)
    _assert_scipy_close(got, want, rtol=1e-13 if m >= 0 else 5e-13)
    assert fsp.lpmv(m, 3, x.astype(np.float32)).dtype == np.float32


def test_lpmv_derivative_and_ferrers_below_the_order():
    h = 1e-6
    for m, v in [(2, 5), (1, 2.5), (-2, 3)]:
        got = fg.grad(fsp.lpmv, 2)(m, v, 0.3)
        want = (sc.lpmv(m, v, 0.3 + h) - sc.lpmv(m, v, 0.3 - h)) / (2 * h)
        assert abs(got - want) < 1e-8 * max(1, abs(want)), (m, v)
    # P_0^-1(x) = sqrt((1 - x)/(1 + x)) (DLMF 14.5.11's Ferrers form)
    np.testing.assert_allclose(fsp.lpmv(-1, 0, 0.3), np.sqrt(0.7 / 1.3), rtol=1e-15)
    check_second_order(lambda x: fsp.lpmv(3, 6, x), [X[np.abs(X) < 1][:4]], RNG)
    with pytest.raises(NotImplementedError, match="order m is an integer"):
        fg.grad(fsp.lpmv, 0)(1.0, 3, 0.5)

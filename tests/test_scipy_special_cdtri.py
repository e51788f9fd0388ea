"""The inverse distribution functions of funcgrad.scipy.special (chdtri, gdtrix, pdtri,
stdtrit, fdtri, bdtri, nbdtri: funcgrad/scipy/_special_cdtri.py): SciPy's values, their
derivatives against central differences of SciPy's own inverses (the implicit function
theorem's 1/pdf in the probability, -dF/da / pdf in a shape), second order, vmap, jit,
dtypes and the domain's NaN."""
import numpy as np
import pytest

sc = pytest.importorskip("scipy.special")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
from helpers import check_second_order, check_vmap  # noqa: E402

RNG = np.random.default_rng(21)
N = 200
P = RNG.uniform(0, 1, N)
A, B = np.exp(RNG.uniform(-2, 4, N)), np.exp(RNG.uniform(-2, 4, N))
K = np.floor(RNG.uniform(0, 30, N)).astype(int)  # (SciPy's integer loops, as it asks)
M = K + np.floor(RNG.uniform(1, 30, N)).astype(int)
CALLS = [("chdtri", (A, P)), ("gdtrix", (A, B, P)), ("pdtri", (K, P)), ("stdtrit", (A, P)),
         ("fdtri", (A, B, P)), ("bdtri", (K, M, P)), ("nbdtri", (K, M, P))]


@pytest.mark.parametrize("name,args", CALLS, ids=[c[0] for c in CALLS])
def test_values_are_scipys(name, args):
    got, want = getattr(fsp, name)(*args), getattr(sc, name)(*args)
    assert got.dtype == want.dtype == np.float64
    # (stdtrit: SciPy's cdflib is 5e-14 off near the median, where funcgrad's is exact)
    np.testing.assert_allclose(got, want, rtol=1e-13)


@pytest.mark.filterwarnings("ignore:non-integer arg n:DeprecationWarning")  # (float32 k)
@pytest.mark.parametrize("name,args", CALLS, ids=[c[0] for c in CALLS])
def test_float32_stays_float32(name, args):
    """SciPy's float32 loops (of the float32 arguments): computed in float64 and rounded
    (SciPy's own are up to 1e-4 off for stdtrit and fdtri, computed in single precision)."""
    args32 = [a.astype(np.float32) for a in args]
    got = getattr(fsp, name)(*args32)
    assert got.dtype == getattr(sc, name)(*args32).dtype == np.float32
    want = getattr(sc, name)(*[a.astype(np.float64) for a in args32])
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_the_inverse_inverts_the_cdf():
    np.testing.assert_allclose(sc.chdtrc(A, fsp.chdtri(A, P)), P, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(sc.stdtr(A, fsp.stdtrit(A, P)), P, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(sc.fdtr(A, B, fsp.fdtri(A, B, P)), P, rtol=1e-11, atol=1e-15)


def _central(f, args, i, h=1e-6):
    up = [a + (h * np.abs(a) if j == i else 0) for j, a in enumerate(args)]
    down = [a - (h * np.abs(a) if j == i else 0) for j, a in enumerate(args)]
    return (f(*up) - f(*down)) / (2 * h * np.abs(args[i]))


# name, arguments (moderate: differences of SciPy are the reference), differentiable ones
SMOOTH = [("chdtri", (A[:20], P[:20] * 0.8 + 0.1), (0, 1)),
          ("gdtrix", (A[:20], B[:20], P[:20] * 0.8 + 0.1), (0, 1, 2)),
          ("pdtri", (K[:20] * 1.0, P[:20] * 0.8 + 0.1), (1,)),
          ("stdtrit", (A[:20] + 1, P[:20] * 0.8 + 0.1), (0, 1)),
          ("fdtri", (A[:20] + 1, B[:20] + 1, P[:20] * 0.8 + 0.1), (0, 1, 2)),
          ("bdtri", (K[:20], M[:20], P[:20] * 0.8 + 0.1), (2,)),
          ("nbdtri", (K[:20], M[:20], P[:20] * 0.8 + 0.1), (2,))]


@pytest.mark.parametrize("name,args,argnums", SMOOTH, ids=[s[0] for s in SMOOTH])
def test_derivatives_match_differences_of_scipy(name, args, argnums):
    f = getattr(fsp, name)
    for i in argnums:
        got = fg.vmap(fg.grad(f, argnums=i))(*args)
        want = _central(getattr(sc, name), args, i)
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-9, err_msg=f"argument {i}")


def test_counts_have_zero_derivative():
    assert float(fg.grad(fsp.bdtri, 0)(3.0, 10.0, 0.4)) == 0.0
    assert float(fg.grad(fsp.pdtri, 0)(3.0, 0.4)) == 0.0


@pytest.mark.parametrize("name,args,argnums", SMOOTH[:5], ids=[s[0] for s in SMOOTH[:5]])
def test_second_order_vmap_jit(name, args, argnums):
    f = getattr(fsp, name)
    small = [a[:3] for a in args]

    def g(v):
        return f(*small[:argnums[-1]], v)
    # (second order in the probability: the shapes' second derivatives are not
    # implemented in gammainc/betainc, and say so)
    check_second_order(g, [small[-1]], RNG, rtol=1e-4)
    check_vmap(f, small, [0] * len(small), RNG)
    np.testing.assert_allclose(fg.jit(f)(*small), f(*small), rtol=1e-15)


def test_a_second_derivative_in_a_shape_says_it_is_missing():
    with pytest.raises(NotImplementedError, match="second derivative"):
        fg.grad(fg.grad(fsp.chdtri))(3.0, 0.4)


def test_domain_is_nan_as_scipys():
    with np.errstate(all="ignore"):
        for name, args in [("pdtri", (-1.0, 0.3)), ("bdtri", (10, 10, 0.4)),
                           ("bdtri", (-1, 10, 0.4)), ("stdtrit", (3.0, 1.5)),
                           ("fdtri", (-1.0, 2.0, 0.5)), ("nbdtri", (2, 0, 0.5))]:
            assert np.isnan(getattr(fsp, name)(*args)), name
            assert np.isnan(getattr(sc, name)(*args)), name

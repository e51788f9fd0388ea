"""numpy.polynomial's class methods beyond evaluation and calculus (copy, comparisons,
trim/truncate/cutdeg, basis/identity/fromroots, convert/cast, linspace, roots,
Chebyshev.interpolate, symbol, set_default_printstyle), each against NumPy's own:

* values equal NumPy's (to rounding where funcgrad computes a linear map NumPy computes
  by series arithmetic);
* the gradient of ``sum(w * f(a))`` in the traced coefficients, roots, domain or function
  parameter equals central differences of NumPy's method;
* where there is no derivative (a multiple root, a dropped coefficient that moves, a
  traced domain of a conversion) it raises, naming why.
"""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import ConcretizationError
from funcgrad.core import DerivativeDroppedError
from helpers import assert_close

NAMES = ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"]
R = np.random.default_rng(5)
C = np.array([0.5, -1.0, 0.75, 0.25])
X = np.linspace(-0.8, 0.9, 4)
ROOTS = np.array([-0.7, 0.2, 0.9])


def _fd_gradient(f, a, weights, eps=1e-6):
    a = np.asarray(a, float)
    grad = np.zeros_like(a)
    for i in range(a.size):
        step = np.zeros_like(a)
        step.flat[i] = eps
        grad.flat[i] = (np.sum(weights * f(a + step)) - np.sum(weights * f(a - step))) / (2 * eps)
    return grad


def _check(call, name, arg, rtol=1e-12):
    """``call(K, a)`` with ``K`` NumPy's class ``name`` or funcgrad's: values, and the
    gradient of a random projection against central differences of NumPy's."""
    ours, numpys = getattr(fnp.polynomial, name), getattr(np.polynomial, name)
    want = np.asarray(call(numpys, arg))
    got = call(ours, arg)
    assert_close(got, want, rtol, what=f"{name} value")
    weights = R.normal(size=want.shape)
    grad = fg.grad(lambda a: fnp.sum(weights * call(ours, a)))(arg)
    assert_close(grad, _fd_gradient(lambda a: np.asarray(call(numpys, a)), arg, weights),
                 1e-6, 1e-7, what=f"{name} gradient")


CASES = {
    "roots": (lambda K, c: K(c, domain=[-1.0, 2.0]).roots(),
              lambda K: K.fromroots(ROOTS, domain=[-1.0, 2.0]).coef),
    "roots-domain": (lambda K, d: K(K.fromroots(ROOTS, domain=[-1.0, 2.0]).coef,
                                    domain=d).roots(), lambda K: np.array([-1.0, 2.0])),
    "fromroots": (lambda K, r: K.fromroots(r).coef, lambda K: ROOTS),
    "fromroots-domain-none": (lambda K, r: K.fromroots(r, domain=None).coef, lambda K: ROOTS),
    "fromroots-domain": (lambda K, r: K.fromroots(r, domain=[0.0, 3.0]).coef,
                         lambda K: ROOTS),
    "fromroots-traced-domain": (lambda K, d: K.fromroots(ROOTS, domain=d).coef,
                                lambda K: np.array([-1.0, 1.5])),
    "convert-to-power": (lambda K, c: K(c, domain=[0.0, 2.0]).convert(
        kind=np.polynomial.Polynomial).coef, lambda K: C),
    "convert-domain": (lambda K, c: K(c).convert(domain=[-2.0, 3.0]).coef, lambda K: C),
    "cast-to-legendre": (lambda K, c: (fnp.polynomial.Legendre if K.__module__.startswith(
        "funcgrad") else np.polynomial.Legendre).cast(K(c, window=[0.0, 1.0])).coef,
                         lambda K: C),
    "identity-domain": (lambda K, d: K.identity(d).coef, lambda K: np.array([0.5, 2.0])),
    "identity-window": (lambda K, w: K.identity([0.0, 1.0], window=w).coef,
                        lambda K: np.array([-1.0, 3.0])),
    "linspace-y": (lambda K, c: K(c, domain=[0.0, 1.0]).linspace(5)[1], lambda K: C),
    "linspace-domain": (lambda K, d: np.concatenate(K(C, domain=d).linspace(4)),
                        lambda K: np.array([0.0, 2.0])),
    "trim": (lambda K, c: K(c).trim(1e-4).coef,
             lambda K: np.concatenate([C, [1e-6, -3e-5]])),
    "truncate": (lambda K, c: K(c).truncate(2).coef, lambda K: C),
    "cutdeg": (lambda K, c: K(c).cutdeg(2)(X), lambda K: C),
    "copy": (lambda K, c: K(c).copy()(X), lambda K: C),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("name", NAMES)
def test_methods_equal_numpys_with_central_difference_gradients(name, case):
    call, arg = CASES[case]
    _check(call, name, arg(getattr(np.polynomial, name)), rtol=1e-11)


def test_complex_roots_and_their_derivatives():
    for name in NAMES:
        ours, numpys = getattr(fnp.polynomial, name), getattr(np.polynomial, name)
        c = numpys.fromroots([0.3 + 0.5j, 0.3 - 0.5j, -0.4]).coef.real.copy()
        want = numpys(c).roots()
        assert want.dtype.kind == "c"
        np.testing.assert_array_equal(ours(c).roots(), want)
        w = R.normal(size=want.shape)
        for part in (np.real, np.imag):
            grad = fg.grad(lambda a: fnp.sum(w * part(ours(a).roots())))(c)
            fd = _fd_gradient(lambda a: part(numpys(a).roots()), c, w)
            assert_close(grad, fd, 1e-6, 1e-7, what=f"{name} {part.__name__}")


def test_roots_second_order_and_forward_mode_agree_with_reverse():
    c = np.polynomial.Polynomial.fromroots(ROOTS).coef
    f = lambda a: fnp.sum(fnp.polynomial.Polynomial(a).roots() ** 2)  # noqa: E731
    g = fg.grad(f)(c)
    v = R.normal(size=c.shape)
    assert_close(fg.jvp(f, (c,), (v,))[1], g @ v, 1e-12)
    numpys = lambda a: np.sum(np.polynomial.Polynomial(a).roots() ** 2)  # noqa: E731
    hv = fg.jvp(fg.grad(f), (c,), (v,))[1]
    eps = 1e-5
    fd = (fg.grad(f)(c + eps * v) - fg.grad(f)(c - eps * v)) / (2 * eps)
    assert_close(hv, fd, 1e-6, 1e-6)
    assert_close(g, _fd_gradient(numpys, c, 1.0), 1e-6, 1e-7)


def test_chebyshev_interpolate_values_and_derivatives():
    Cheb, NCheb = fnp.polynomial.Chebyshev, np.polynomial.Chebyshev
    want = NCheb.interpolate(np.exp, 6, domain=[0.0, 2.0])
    got = Cheb.interpolate(np.exp, 6, domain=[0.0, 2.0])
    assert_close(got.coef, want.coef, 1e-14)
    np.testing.assert_array_equal(got.domain, want.domain)

    def ours(a):
        return Cheb.interpolate(lambda x, a: fnp.sin(a * x), 7, args=(a,)).coef

    def numpys(a):
        return NCheb.interpolate(lambda x, a: np.sin(a * x), 7, args=(a,)).coef
    w = R.normal(size=8)
    assert_close(ours(1.3), numpys(1.3), 1e-14)
    grad = fg.grad(lambda a: fnp.sum(w * ours(a)))(1.3)
    assert_close(grad, _fd_gradient(numpys, np.array(1.3), w), 1e-6, 1e-8)
    _check(lambda K, d: K.interpolate(np.cos, 5, domain=d).coef, "Chebyshev",
           np.array([-0.5, 1.5]))
    with pytest.raises(TypeError, match="deg must be an int"):
        Cheb.interpolate(np.cos, 2.5)
    assert not hasattr(fnp.polynomial.Legendre, "interpolate")


@pytest.mark.parametrize("name", NAMES)
def test_comparisons_basis_symbol_and_printing_follow_numpy(name):
    ours, numpys = getattr(fnp.polynomial, name), getattr(np.polynomial, name)
    a, b = ours(C, domain=[0.0, 1.0]), ours(C[:3], domain=[0.0, 1.0], symbol="t")
    na, nb = numpys(C, domain=[0.0, 1.0]), numpys(C[:3], domain=[0.0, 1.0], symbol="t")
    for method in ("has_samecoef", "has_samedomain", "has_samewindow", "has_sametype"):
        for x, y, nx, ny in ((a, b, na, nb), (a, a.copy(), na, na.copy()),
                             (a, ours(C), na, numpys(C))):
            assert getattr(x, method)(y) == getattr(nx, method)(ny), method
    assert a.has_sametype(fnp.polynomial.Polynomial(C)) == (name == "Polynomial")
    assert b.symbol == nb.symbol == "t" and a.symbol == "x"
    with pytest.raises(AttributeError):
        a.symbol = "y"
    np.testing.assert_array_equal(ours.basis(3, domain=[0, 2]).coef,
                                  numpys.basis(3, domain=[0, 2]).coef)
    with pytest.raises(ValueError, match="deg must be non-negative integer"):
        ours.basis(-1)
    with pytest.raises(ValueError, match="size must be a positive integer"):
        a.truncate(0)
    for style in ("ascii", "unicode"):
        fnp.polynomial.set_default_printstyle(style)
        assert str(b) == str(nb) and format(b, "ascii") == format(nb, "ascii")
    fg.grad(lambda c: fnp.sum(ours(c).coef) + 0 * len(str(ours(c))))(C)  # (traced: its repr)
    with pytest.raises(ValueError):
        fnp.polynomial.set_default_printstyle("fancy")


def test_a_multiple_root_raises_when_differentiated_but_has_values():
    c = np.polynomial.Polynomial.fromroots([0.5, 0.5, -0.25]).coef
    p = fnp.polynomial.Polynomial
    np.testing.assert_array_equal(p(c).roots(), np.polynomial.Polynomial(c).roots())
    with pytest.raises(ValueError, match="multiple root.*no derivative"):
        fg.grad(lambda a: fnp.sum(p(a).roots()))(c)
    with pytest.raises(ValueError, match="multiple root"):
        fg.jvp(lambda a: p(a).roots(), (c,), (np.ones(4),))
    # a symmetric function of the roots (the series itself) stays differentiable
    fg.grad(lambda a: p(a)(0.3))(c)


def test_where_no_derivative_exists_it_raises_naming_why():
    cheb = fnp.polynomial.Chebyshev
    with pytest.raises(DerivativeDroppedError, match="trim.*carry a derivative.*truncate"):
        fg.grad(lambda c: fnp.sum(cheb(c).trim().coef))(np.array([1.0, 2.0, 0.0]))
    # a dropped coefficient strictly within tol: NumPy's result does not move with it
    g = fg.grad(lambda c: fnp.sum(cheb(c).trim(0.1).coef))(np.array([1.0, 2.0, 0.05]))
    np.testing.assert_array_equal(g, [1.0, 1.0, 0.0])
    with pytest.raises(DerivativeDroppedError, match="convert.*domain or window.*carries"):
        fg.grad(lambda d: fnp.sum(cheb(C, domain=d).convert(
            kind=fnp.polynomial.Polynomial).coef))(np.array([0.0, 1.0]))
    with pytest.raises(ConcretizationError, match="roots"):
        fg.jit(lambda c: cheb(c).roots())(C)
    with pytest.raises(ValueError, match="tol must be non-negative"):
        cheb(C).trim(-1.0)
    with pytest.raises(TypeError, match="kind must be one of"):
        cheb(C).convert(kind=float)

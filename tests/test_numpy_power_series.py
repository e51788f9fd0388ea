"""NumPy's ``numpy.polynomial`` power series on traced values: the twins in
``funcgrad.numpy.polynomial.polynomial`` and ``funcgrad.numpy.polynomial.Polynomial``,
each against NumPy's own function:

* values equal NumPy's (bit for bit, except the least-squares fits: to rounding);
* the gradient of ``sum(w * f(a))`` equals central differences of NumPy's function;
* under ``jit`` the same values, where NumPy's result length does not depend on the
  values; where it does (the arithmetic drops trailing zeros), ConcretizationError naming
  a rewrite that keeps them;
* NumPy's own functions, handed a traced value, raise naming the twin to call.
"""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import ConcretizationError
from helpers import assert_close

P = np.polynomial.polynomial
Q = fnp.polynomial.polynomial
R = np.random.default_rng(73)
C = np.array([1.0, -2.0, 0.5, 3.0])
C2 = R.normal(size=(3, 2))
X = np.linspace(-1.0, 1.0, 5)
ROOTS = np.array([0.3, -1.0, 2.0, 0.7, 1.5])


def case(id_, call, arg, exact=True, jit=True):
    """``call(module, a)`` with ``module`` NumPy's polynomial.polynomial or funcgrad's."""
    return pytest.param(call, arg, exact, jit, id=id_)


CASES = [
    case("polyval-c", lambda m, c: m.polyval(X, c), C),
    case("polyval-x", lambda m, x: m.polyval(x, C), X),
    case("polyval-2d-c", lambda m, c: m.polyval(X, c), C2),
    case("polyval-tensor-false", lambda m, c: m.polyval(X[:2], c, tensor=False), C2),
    case("polyval2d", lambda m, c: m.polyval2d(X, X[::-1], c), C2),
    case("polyval3d", lambda m, x: m.polyval3d(x, x, x[::-1], np.ones((2, 3, 2))), X),
    case("polygrid2d", lambda m, c: m.polygrid2d(X, X[:3], c), C2),
    case("polyvalfromroots", lambda m, r: m.polyvalfromroots(X, r), C[:3]),
    case("polyder", lambda m, c: m.polyder(c), C),
    case("polyder-m-scl", lambda m, c: m.polyder(c, 2, scl=1.5), C),
    case("polyder-m-past-degree", lambda m, c: m.polyder(c, 5), C),
    case("polyder-axis", lambda m, c: m.polyder(c.T, axis=1), C2),
    case("polyint", lambda m, c: m.polyint(c), C),
    case("polyint-m-k-lbnd-scl", lambda m, c: m.polyint(c, 2, k=[1.0, 2.0], lbnd=0.5, scl=2.0),
         C),
    case("polyint-traced-k", lambda m, k: m.polyint(C, 2, k=k, lbnd=0.5), np.array([1.0, 2.0])),
    case("polyint-traced-lbnd", lambda m, b: m.polyint(C, 1, k=3.0, lbnd=b), np.array(0.3)),
    case("polyint-axis", lambda m, c: m.polyint(c, axis=1, k=2.0), C2),
    case("polyfromroots", lambda m, r: m.polyfromroots(r), ROOTS),
    case("polyvander", lambda m, x: m.polyvander(x, 3), X),
    case("polyfit-y", lambda m, y: m.polyfit(X, y, 2), np.sin(X), exact=False),
    case("polyfit-x", lambda m, x: m.polyfit(x, np.sin(X), 2), X, exact=False),
    case("polyfit-w", lambda m, w: m.polyfit(X, np.sin(X), 2, w=w), X + 2.0, exact=False),
    case("polyfit-deg-list", lambda m, y: m.polyfit(X, y, [0, 2]), np.sin(X), exact=False),
    case("polyfit-2d-y", lambda m, y: m.polyfit(X, y, 2), np.stack([np.sin(X), X ** 3], 1),
         exact=False),
    # NumPy drops trailing zeros here: a value-dependent length
    case("polyadd", lambda m, c: m.polyadd(c, c[:2]), C, jit=False),
    case("polyadd-shorter-first", lambda m, c: m.polyadd(c[:2], c), C, jit=False),
    case("polysub", lambda m, c: m.polysub(c, c[:2]), C, jit=False),
    case("polysub-shorter-first", lambda m, c: m.polysub(c[:2], c), C, jit=False),
    case("polymul", lambda m, c: m.polymul(c, c[:2]), C, jit=False),
    case("polymulx", lambda m, c: m.polymulx(c), C, jit=False),
    case("polydiv-quotient", lambda m, d: m.polydiv(C, d)[0], np.array([0.5, 1.0, 2.0]),
         jit=False),
    case("polydiv-remainder", lambda m, d: m.polydiv(C, d)[1], np.array([0.5, 1.0, 2.0]),
         jit=False),
    case("polypow", lambda m, c: m.polypow(c, 3), C, jit=False),
]


def _fd_gradient(f, a, weights, eps=1e-6):
    grad = np.zeros_like(a)
    for i in range(a.size):
        step = np.zeros_like(a)
        step.flat[i] = eps
        grad.flat[i] = (np.sum(weights * f(a + step)) - np.sum(weights * f(a - step))) / (2 * eps)
    return grad


@pytest.mark.parametrize("call, arg, exact, jit", CASES)
def test_power_series_equal_numpy_with_central_difference_gradients(call, arg, exact, jit):
    want = call(P, arg)
    got = call(Q, arg)
    assert np.asarray(got).dtype == want.dtype and np.shape(got) == want.shape
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        assert_close(got, want, 1e-12)
    weights = R.normal(size=want.shape)
    grad = fg.grad(lambda a: fnp.sum(weights * call(Q, a)))(arg)
    assert_close(grad, _fd_gradient(lambda a: call(P, a), arg, weights), 1e-6, 1e-8)
    if jit:
        assert_close(fg.jit(lambda a: call(Q, a))(arg), want, 1e-12)
    else:
        with pytest.raises(ConcretizationError, match="trailing zero.*fnp.convolve"):
            fg.jit(lambda a: call(Q, a))(arg)


def test_power_series_drop_trailing_zeros_and_take_integers_as_numpy():
    for call in (lambda m: m.polyadd([1.0, 2.0, 0.0], [0.0]),
                 lambda m: m.polysub([1.0, 2.0, 3.0], [0.0, 0.0, 3.0]),
                 lambda m: m.polymulx([0.0]), lambda m: m.polyint([0.0], k=2.0),
                 lambda m: m.polyval(2, [1, 2, 3]), lambda m: m.polyder([1, 2, 3]),
                 lambda m: m.polyvander([1, 2], 2), lambda m: m.polypow([1, 1], 0)):
        got, want = call(Q), call(P)
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_polyval_of_a_batch_of_coefficients_under_vmap_equals_numpy():
    batch = R.normal(size=(4, 3))
    np.testing.assert_array_equal(fg.vmap(lambda c: Q.polyval(X, c))(batch),
                                  [P.polyval(X, c) for c in batch])


Poly, NumpyPoly = fnp.polynomial.Polynomial, np.polynomial.Polynomial


@pytest.mark.parametrize("call", [
    lambda K, c: K(c)(X),
    lambda K, c: K(c, domain=[0.0, 2.0], window=[-1.0, 2.0])(X),
    lambda K, c: K(c, domain=[0.0, 2.0]).deriv(2).coef,
    lambda K, c: K(c, domain=[0.0, 2.0]).integ(2, k=[1.0], lbnd=0.5).coef,
    lambda K, c: ((K(c) * K(c[:2]) + 2.0) ** 2 - K(c)).coef,
    lambda K, c: (2.0 * K(c) - 1.0 + (3.0 - K(c)) / 2.0).coef,
    lambda K, c: -K(c, domain=[1.0, 3.0])(X) * K(c, domain=[1.0, 3.0]).degree(),
    lambda K, y: K.fit(X, np.concatenate([y, y[:1]]), 3)(0.3),
    lambda K, x: K.fit(np.concatenate([x, [1.5]]), np.sin(X), 2).coef,
], ids=["call", "domain-window", "deriv", "integ", "arithmetic", "reflected", "neg-degree",
        "fit-y", "fit-x"])
def test_polynomial_class_equals_numpys_with_central_difference_gradients(call):
    want = call(NumpyPoly, C)
    assert_close(call(Poly, C), want, 1e-12)
    weights = R.normal(size=np.shape(want))
    grad = fg.grad(lambda c: fnp.sum(weights * call(Poly, c)))(C)
    assert_close(grad, _fd_gradient(lambda c: call(NumpyPoly, c), C, weights), 1e-6, 1e-8)


def test_a_polynomial_of_traced_points_under_jit_and_vmap():
    p = Poly(C, domain=[0.0, 3.0])
    want = NumpyPoly(C, domain=[0.0, 3.0])(X)
    assert_close(fg.jit(lambda x: p(x))(X), want, 1e-14)
    assert_close(fg.vmap(lambda c: Poly(c)(X))(np.stack([C, 2 * C])),
                 [NumpyPoly(C)(X), NumpyPoly(2 * C)(X)], 1e-14)
    with pytest.raises(TypeError, match="Domains differ"):
        Poly(C) + Poly(C, domain=[0.0, 1.0])


@pytest.mark.parametrize("call, names", [
    (lambda c: P.polyval(X, c), "funcgrad.numpy.polynomial.polynomial.polyval"),
    (lambda c: P.polyint(c, k=1.0), "funcgrad.numpy.polynomial.polynomial.polyint"),
    (lambda c: NumpyPoly(c)(X), r"funcgrad.numpy.polynomial.Polynomial\(coef\)"),
    (lambda x: NumpyPoly(C, domain=[0.0, 1.0])(x),
     r"funcgrad.numpy.polynomial.Polynomial\(p.coef, p.domain, p.window\)\(x\)"),
    (lambda y: NumpyPoly.fit(X, y, 2).coef, "funcgrad.numpy.polynomial.Polynomial.fit"),
    (lambda c: np.polynomial.chebyshev.chebval(X, c),
     r"funcgrad.numpy.polynomial.chebyshev.chebval \(the same"),
    (lambda c: np.polynomial.Laguerre(c)(X), r"funcgrad.numpy.polynomial.Laguerre\(coef\)"),
    (lambda c: np.polynomial.chebyshev.chebmul(c, c), "no twin.*power series"),
    (lambda x: np.vectorize(lambda v: v * 2.0)(x), r"funcgrad.numpy.vectorize\(f\)"),
], ids=["polyval", "polyint", "Polynomial", "Polynomial-call", "Polynomial.fit",
        "chebval", "Laguerre", "chebmul", "vectorize"])
def test_numpys_own_polynomial_functions_on_traced_values_name_the_twin(call, names):
    arg = C if "x" not in call.__code__.co_varnames else X
    arg = np.sin(X) if "y" in call.__code__.co_varnames else arg
    with pytest.raises(TypeError, match=names):  # (DerivativeDroppedError under grad)
        fg.grad(lambda a: np.sum(call(a)))(arg)
    with pytest.raises(TypeError, match=names):
        fg.jit(call)(arg)


def test_poly1d_of_traced_coefficients_differentiates_and_under_jit_names_polyval():
    c = np.array([1.0, -2.0, 0.5])
    weights = R.normal(size=X.shape)
    grad = fg.grad(lambda c: np.sum(weights * np.poly1d(c)(X)))(c)
    assert_close(grad, _fd_gradient(lambda c: np.poly1d(c)(X), c, weights), 1e-6, 1e-8)
    with pytest.raises(ConcretizationError, match=r"np.poly1d\(c\).*np.polyval\(c, x\)"):
        fg.jit(lambda c: np.poly1d(c)(X))(c)
    np.testing.assert_array_equal(fg.jit(lambda c: np.polyval(c, X))(c), np.poly1d(c)(X))


ZERO_LED = np.array([0.0, 1.0, -2.0, 0.5])  # a leading zero (legacy), trailing (reversed)


@pytest.mark.parametrize("call, rewrite", [
    (lambda c: np.poly1d(c)(X), r"np.polyval\(c, x\)"),
    (lambda c: np.polyval(np.polymul(c, c[1:]), 0.5), r"fnp.convolve"),
    (lambda c: Q.polyval(X, Q.polyadd(c[::-1], [1.0])), r"pad the shorter"),
    (lambda c: Q.polyval(X, Q.polymul(c[::-1], [1.0, 2.0])), r"fnp.convolve"),
    (lambda c: Poly(c[::-1])(X) * 0 + (Poly(c[::-1]) * Poly([1.0, 2.0]))(X), r"fnp.convolve"),
], ids=["poly1d", "polymul", "power-polyadd", "power-polymul", "Polynomial-mul"])
def test_a_dropped_zero_coefficient_that_carries_a_derivative_raises(call, rewrite):
    """The series' value moves with a coefficient that is zero now (the finite
    differences below say so): NumPy's trimming would drop that derivative silently."""
    weights = R.normal(size=np.shape(call(ZERO_LED)))
    fd = _fd_gradient(call, ZERO_LED, weights)
    assert abs(fd[0]) > 1e-3  # (the zero coefficient's derivative, that would be lost)
    with pytest.raises(fg.core.DerivativeDroppedError, match=rewrite):
        fg.grad(lambda c: fnp.sum(weights * call(c)))(ZERO_LED)
    assert_close(call(fnp.asarray(ZERO_LED)), call(ZERO_LED), 1e-14)  # (no derivative: NumPy's)


def test_legacy_polydiv_drops_the_cancelled_entries_with_their_zero_derivatives():
    u, v = np.array([2.0, -1.0, 3.0, 0.5]), np.array([1.5, 0.5])
    for part in (0, 1):
        def call(m, u, v):
            return m.polydiv(u, v)[part]
        want = call(np, u, v)
        np.testing.assert_array_equal(call(fnp, u, v), want)
        weights = R.normal(size=want.shape)
        for argnum, arg in ((0, u), (1, v)):
            grad = fg.grad(lambda a: fnp.sum(weights * call(
                fnp, *((a, v) if argnum == 0 else (u, a)))), argnums=0)(arg)
            fd = _fd_gradient(lambda a: call(np, *((a, v) if argnum == 0 else (u, a))), arg,
                              weights)
            assert_close(grad, fd, 1e-6, 1e-8)


def test_legacy_polydiv_refuses_to_drop_a_zero_remainder_entry_that_carries_a_derivative():
    """(x^2 + 1)(x + 1) + 5 over x^2 + 1: the remainder's x term is zero now, but moves
    with u[2]; NumPy drops it, which would silently lose that derivative."""
    u, v = np.array([1.0, 1.0, 1.0, 6.0]), np.array([1.0, 0.0, 1.0])
    np.testing.assert_array_equal(fnp.polydiv(u, v)[1], np.polydiv(u, v)[1])  # ([5.])
    with pytest.raises(fg.core.DerivativeDroppedError,
                       match=r"polydiv's remainder.*fnp.convolve\(q, v\)"):
        fg.grad(lambda a: fnp.sum(fnp.polydiv(a, v)[1]))(u)

    def remainder(a):  # the rewrite the error names: every remainder entry kept
        q = fnp.polydiv(a, v)[0]
        return (a - fnp.convolve(q, v))[len(a) - len(v) + 1:]
    weights = np.array([0.7, -1.3])
    fd = _fd_gradient(lambda a: (a - np.convolve(np.polydiv(a, v)[0], v))[2:], u, weights)
    assert_close(fg.grad(lambda a: fnp.sum(weights * remainder(a)))(u), fd, 1e-6, 1e-8)


def test_legacy_polydiv_with_a_dropped_zero_keeps_the_quotients_derivative():
    u, v = np.array([1.0, 1.0, 1.0, 6.0]), np.array([1.0, 0.0, 1.0])
    weights = np.array([0.4, -2.0])
    grad = fg.grad(lambda a: fnp.sum(weights * fnp.polydiv(a, v)[0]))(u)
    assert_close(grad, _fd_gradient(lambda a: np.polydiv(a, v)[0], u, weights), 1e-6, 1e-8)
    # forward mode: a tangent that leaves the dropped entry at zero loses nothing
    along_last = np.array([0.0, 0.0, 0.0, 1.0])
    _, tangent = fg.jvp(lambda a: fnp.polydiv(a, v)[1], (u,), (along_last,))
    np.testing.assert_allclose(tangent, [1.0])
    with pytest.raises(fg.core.DerivativeDroppedError, match="polydiv's remainder"):
        fg.jvp(lambda a: fnp.polydiv(a, v)[1], (u,), (np.array([0.0, 0.0, 1.0, 0.0]),))



FAMILIES = [("cheb", "chebyshev"), ("leg", "legendre"), ("herm", "hermite"),
            ("herme", "hermite_e"), ("lag", "laguerre")]
C5 = np.array([1.0, -2.0, 0.5, 3.0, 0.7])


def series_case(id_, call, arg, exact=True):
    """``call(module, prefix, a)``: NumPy's module of the family or funcgrad's."""
    return pytest.param(call, arg, exact, id=id_)


SERIES_CASES = [
    series_case("val-c", lambda m, p, c: getattr(m, p + "val")(X, c), C5),
    series_case("val-x", lambda m, p, x: getattr(m, p + "val")(x, C5), X),
    series_case("val-two-coefficients", lambda m, p, x: getattr(m, p + "val")(x, C5[:2]), X),
    series_case("val-tensor-false", lambda m, p, c: getattr(m, p + "val")(X[:2], c,
                                                                          tensor=False), C2),
    series_case("val2d", lambda m, p, c: getattr(m, p + "val2d")(X, X[::-1], c), C2),
    series_case("grid2d", lambda m, p, c: getattr(m, p + "grid2d")(X, X[:3], c), C2),
    series_case("val3d", lambda m, p, x: getattr(m, p + "val3d")(x, x, x[::-1],
                                                               np.ones((2, 3, 2))), X),
    series_case("der", lambda m, p, c: getattr(m, p + "der")(c), C5),
    series_case("der-m-scl", lambda m, p, c: getattr(m, p + "der")(c, 2, scl=1.5), C5),
    series_case("der-axis", lambda m, p, c: getattr(m, p + "der")(c.T, axis=1), C2),
    series_case("int-m-k-lbnd-scl", lambda m, p, c: getattr(m, p + "int")(
        c, 2, k=[1.0, 2.0], lbnd=0.5, scl=2.0), C5),
    series_case("int-traced-lbnd", lambda m, p, b: getattr(m, p + "int")(C5, 1, k=3.0, lbnd=b),
                np.array(0.3)),
    series_case("vander", lambda m, p, x: getattr(m, p + "vander")(x, 4), X),
    series_case("fit-y", lambda m, p, y: getattr(m, p + "fit")(X, y, 3), np.sin(X),
                exact=False),
    series_case("fit-x-w", lambda m, p, x: getattr(m, p + "fit")(x, np.sin(X), 2,
                                                                 w=X + 2.0), X, exact=False),
]


@pytest.mark.parametrize("prefix, module", FAMILIES, ids=[m for _, m in FAMILIES])
@pytest.mark.parametrize("call, arg, exact", SERIES_CASES)
def test_orthogonal_series_equal_numpy_with_central_difference_gradients_and_jit(
        prefix, module, call, arg, exact):
    ours, theirs = getattr(fnp.polynomial, module), getattr(np.polynomial, module)
    want = call(theirs, prefix, arg)
    got = call(ours, prefix, arg)
    assert np.asarray(got).dtype == want.dtype and np.shape(got) == want.shape
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        assert_close(got, want, 1e-12)
    weights = R.normal(size=want.shape)
    grad = fg.grad(lambda a: fnp.sum(weights * call(ours, prefix, a)))(arg)
    assert_close(grad, _fd_gradient(lambda a: call(theirs, prefix, a), arg, weights), 1e-6,
                 1e-7)
    assert_close(fg.jit(lambda a: call(ours, prefix, a))(arg), want, 1e-12)


@pytest.mark.parametrize("prefix, module", FAMILIES, ids=[m for _, m in FAMILIES])
def test_orthogonal_series_of_a_batch_under_vmap_and_their_jacobian(prefix, module):
    ours, theirs = getattr(fnp.polynomial, module), getattr(np.polynomial, module)
    batch = R.normal(size=(3, 4))
    np.testing.assert_array_equal(fg.vmap(lambda c: getattr(ours, prefix + "val")(X, c))(batch),
                                  [getattr(theirs, prefix + "val")(X, c) for c in batch])
    # the series is linear in its coefficients: its Jacobian is the Vandermonde matrix
    assert_close(fg.jacobian(lambda c: getattr(ours, prefix + "val")(X, c))(C5),
                 getattr(theirs, prefix + "vander")(X, 4), 1e-12)


@pytest.mark.parametrize("name", ["Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"])
@pytest.mark.parametrize("call", [
    lambda K, c: K(c)(X),
    lambda K, c: K(c, domain=[0.0, 2.0], window=[-1.0, 2.0])(X),
    lambda K, c: K(c, domain=[0.0, 2.0]).deriv(2).coef,
    lambda K, c: K(c, domain=[0.0, 2.0]).integ(2, k=[1.0], lbnd=0.5).coef,
    lambda K, c: (2.0 * K(c) - 1.0 + (3.0 - K(c)) / 2.0).coef,
    lambda K, y: K.fit(X, np.concatenate([y, y[:1]]), 3)(0.3),
    lambda K, x: K.fit(np.concatenate([x, [1.5]]), np.sin(X), 2).coef,
], ids=["call", "domain-window", "deriv", "integ", "arithmetic", "fit-y", "fit-x"])
def test_orthogonal_classes_equal_numpys_with_central_difference_gradients(name, call):
    ours, theirs = getattr(fnp.polynomial, name), getattr(np.polynomial, name)
    want = call(theirs, C)
    assert_close(call(ours, C), want, 1e-12)
    weights = R.normal(size=np.shape(want))
    grad = fg.grad(lambda c: fnp.sum(weights * call(ours, c)))(C)
    assert_close(grad, _fd_gradient(lambda c: call(theirs, c), C, weights), 1e-6, 1e-7)


@pytest.mark.parametrize("name", ["Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"])
def test_orthogonal_classes_under_jit_and_vmap(name):
    ours, theirs = getattr(fnp.polynomial, name), getattr(np.polynomial, name)
    want = theirs(C, domain=[0.0, 3.0]).deriv()(X)
    assert_close(fg.jit(lambda c, x: ours(c, domain=[0.0, 3.0]).deriv()(x))(C, X), want, 1e-12)
    assert_close(fg.vmap(lambda c: ours(c)(X))(np.stack([C, 2 * C])),
                 [theirs(C)(X), theirs(2 * C)(X)], 1e-12)


def test_orthogonal_classes_refuse_products_of_two_series_and_mixed_bases():
    cheb = fnp.polynomial.Chebyshev(C)
    with pytest.raises(NotImplementedError, match=r"Chebyshev \* Chebyshev.*p\(x\) \* q\(x\)"):
        cheb * cheb
    with pytest.raises(TypeError, match="Polynomial types differ"):
        cheb + fnp.polynomial.Legendre(C)
    np.testing.assert_array_equal((cheb * 2.0).coef, (np.polynomial.Chebyshev(C) * 2.0).coef)
    assert fnp.polynomial.chebyshev.Chebyshev is fnp.polynomial.Chebyshev

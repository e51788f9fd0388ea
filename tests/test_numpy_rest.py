"""The rest of NumPy's namespace in funcgrad.numpy: poly1d (traceable coefficients and
points) against np.poly1d, and NumPy's non-differentiable helpers, which refuse a traced
value by name."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.errors import DerivativeDroppedError

C = np.array([1.0, -3.0, 2.0, 0.5])


@pytest.mark.parametrize("expr", [
    "P(C)", "P([1.0, 2.0, 3.0])", "P(M([1.0, 1.0]))", "M([0, 0, 1.0])", "M([0.0, 0.0])",
    "M([])", "M(3.0)", "M([1, 2])", "M(np.float32([1, 2])) * 2", "M([1.0, 2.0], r=True)",
    "M(C, variable='z')", "P / 2.0", "P / M([1.0, 1.0])", "2.0 / M([2.0])", "P ** 0",
    "P ** 2", "2 - P", "P - [1.0, 1.0]", "P + [1.0, 1.0]", "-P", "P * P", "3 * P",
    "P.deriv()", "P.deriv(5)", "P.integ()", "P.integ(2, k=[1.0, 2.0])", "P.roots",
    "P.order", "len(P)", "P[0]", "P[3]", "P[7]", "list(P)", "P.coeffs", "P.variable",
    "P == M(C)", "P != M(C)", "M([1.0]) == M([1.0, 0.0])", "np.asarray(P)",
])
def test_poly1d_as_numpy(expr):
    ours = eval(expr, {"np": np, "C": C, "M": fnp.poly1d, "P": fnp.poly1d(C)})
    theirs = eval(expr, {"np": np, "C": C, "M": np.poly1d, "P": np.poly1d(C)})
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    if isinstance(theirs, np.poly1d):
        assert isinstance(ours, fnp.poly1d) and ours.coeffs.dtype == theirs.coeffs.dtype
        np.testing.assert_allclose(ours.coeffs, theirs.coeffs, rtol=1e-14)


def _central(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


@pytest.mark.parametrize("f", [
    lambda M, c: M(c)(1.7),
    lambda M, c: M(c).deriv()(0.3) + M(c).integ(k=c[0])(1.1),
    lambda M, c: (M(c) * M(c[:2]) + 2.0 * M(c) ** 2)(0.9),
    lambda M, c: (M(c) / M(c[:2]))[0](0.4),
    lambda M, c: M(c)(M(c[1:]))(0.6),
    lambda M, c: M(c, r=True)(0.2),
    lambda M, c: np.sort(M(c[:3]).roots.real).sum() ** 2,
])
def test_poly1d_derivatives_match_central_differences(f):
    g = fg.grad(lambda c: f(fnp.poly1d, c))(C)
    np.testing.assert_allclose(g, _central(lambda c: f(np.poly1d, c), C), rtol=1e-6, atol=1e-8)


def test_poly1d_points_float32_and_vmap():
    p = fnp.poly1d(C)
    assert float(fg.grad(p)(1.5)) == pytest.approx(np.poly1d(C).deriv()(1.5), rel=1e-14)
    c32 = C.astype(np.float32)
    assert fnp.poly1d(c32)(np.float32(2.0)).dtype == np.float32
    assert fg.grad(lambda c: fnp.poly1d(c)(2.0))(c32).dtype == np.float32
    xs = np.array([0.5, 1.0, 2.0])
    np.testing.assert_allclose(fg.vmap(p)(xs), np.poly1d(C)(xs), rtol=1e-14)


def test_poly1d_refuses_to_drop_a_derivative_or_guess_values():
    with pytest.raises(DerivativeDroppedError, match="poly1d.*leading zero"):
        fg.grad(lambda c: fnp.poly1d(c)(2.0))(np.array([0.0, 1.0, 2.0]))
    with pytest.raises(fg.ConcretizationError, match="fnp.polyval"):
        fg.jit(lambda c: fnp.poly1d(c)(2.0))(C)
    with pytest.raises(ValueError, match="1d only"):
        fnp.poly1d(np.ones((2, 2)))
    with pytest.raises(ValueError, match="non-negative integers"):
        fnp.poly1d(C) ** 1.5


# --- NumPy's helpers for plain values --------------------------------------------------------

REEXPORTED = ["asmatrix", "broadcast", "busday_count", "busday_offset",
              "busdaycalendar", "char", "ctypeslib", "datetime_as_string", "datetime_data",
              "dtypes", "exceptions", "flatiter", "get_include", "info", "is_busday", "isnat",
              "matrix", "memmap", "nditer", "nested_iters", "rec", "recarray", "record",
              "show_config", "show_runtime", "strings", "typing", "ufunc"]


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_numpys_helpers_are_numpys_own():
    for name in REEXPORTED + [n for n in ("float128", "complex256") if hasattr(np, n)]:
        assert getattr(fnp, name) is getattr(np, name), name
        assert name in fnp.__all__
    assert fnp.busday_count("2026-12-01", "2026-12-05") == 4
    assert fnp.matrix([[1.0, 2.0]]) * fnp.matrix([[1.0], [1.0]]) == 3.0
    assert type(fnp.bmat([[np.eye(2), np.ones((2, 1))]])) is np.matrix  # (NumPy's, wrapped)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
@pytest.mark.parametrize("name,call", [
    ("numpy.busday_count", lambda x: np.busday_count(x, x)),
    ("numpy.isnat", np.isnat),
    ("numpy.datetime_as_string", np.datetime_as_string),
    ("numpy.matrix", np.matrix),
    ("numpy.asmatrix", fnp.asmatrix),
    ("numpy.bmat", lambda x: np.bmat([[x]])),
    ("numpy.bmat", fnp.bmat),  # (NumPy's own returns None for a traced value: ours refuses)
    ("numpy.rec.fromarrays", lambda x: np.rec.fromarrays([x])),
    ("numpy.char.upper", np.char.upper),
    ("numpy.testing.assert_allclose", lambda x: np.testing.assert_allclose(x, x)),
])
def test_a_traced_value_is_refused_by_name(name, call):
    with pytest.raises(TypeError, match=f"{name} is not differentiable"):
        fg.grad(lambda x: (call(x), x.sum())[1])(np.ones(2))


def test_testing_reads_tensors_and_known_traced_values():
    t = fg.Tensor(np.array([1.0, 2.0]), requires_grad=True)
    fnp.testing.assert_allclose(t, [1.0, 2.0])
    fnp.testing.assert_array_less(t, 3.0)
    fnp.testing.assert_equal([t], [np.array([1.0, 2.0])])
    with pytest.raises(AssertionError):
        fnp.testing.assert_allclose(t, [1.0, 2.5])
    fg.grad(lambda x: (fnp.testing.assert_array_equal(x, [1.0, 2.0]), x.sum())[1])(
        np.array([1.0, 2.0]))
    with pytest.raises(fg.ConcretizationError, match="numpy.testing.assert_allclose"):
        fg.vmap(lambda x: (fnp.testing.assert_allclose(x, 1.0), x.sum())[1])(np.ones(2))
    assert fnp.testing.assert_raises is np.testing.assert_raises

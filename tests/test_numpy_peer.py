"""funcgrad.numpy called as NumPy is called, where a side-by-side sweep against NumPy (every
name both export; defaults, each keyword, 0-d, empty, non-contiguous, float32, integer,
boolean and complex inputs) found them apart.  Expected values, dtypes and exception types
come from NumPy itself, on plain arrays."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from helpers import numpy_and_funcgrad

X = np.array([1.26, 2.5, -np.inf, np.inf, 0.5])
B = np.array([True, False, True])


def _same_as_numpy(expr, **env):
    """``expr`` with ``m`` NumPy, then funcgrad.numpy: the same value, dtype and type, or
    the same exception type; ``out`` arrays in ``env`` are written alike and returned."""
    (want, want_env), (got, got_env) = numpy_and_funcgrad(expr, env)
    if isinstance(want, type):  # (NumPy's UFuncTypeError: a TypeError is enough)
        builtin = next(c for c in want.__mro__ if c.__module__ == "builtins")
        assert isinstance(got, type) and issubclass(got, builtin), (expr, want, got)
        return
    assert not isinstance(got, type), (expr, got)
    for w, g in zip(want if isinstance(want, tuple) else (want,),
                    got if isinstance(got, tuple) else (got,)):
        assert np.asarray(g).dtype == np.asarray(w).dtype, (expr, np.asarray(g).dtype)
        assert np.shape(g) == np.shape(w), expr
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w), err_msg=expr)
    if "out" in want_env:
        np.testing.assert_array_equal(got_env["out"], want_env["out"], err_msg=expr)
        assert (want is want_env["out"]) == (got is got_env["out"]), expr


OUT_DTYPES = [np.float64, np.float32, np.complex128, np.int64, np.bool_]


@pytest.mark.parametrize("dtype", OUT_DTYPES)
@pytest.mark.parametrize("expr", [
    "m.clip(X, 0.0, 1.0, out=out)", "m.clip(X, 0.0, 1.0, None, where=X > 1, out=out)",
    "m.clip(X, min=0.0, out=out)", "m.clip(X, None, 2.0, out=out)", "m.clip(X, out=out)",
    "m.round(X, 1, out=out)", "m.around(X, out=out)", "m.round(X, -1, out)",
    "m.isposinf(X, out)", "m.isneginf(X, out=out)",
])
def test_out_writes_into_a_plain_array_as_numpy(expr, dtype):
    if "round" in expr and dtype is np.complex128:
        # NumPy rounds in out's complex dtype, where inf * 10**d is inf+nanj; funcgrad rounds
        # the real values and casts: the rounded real array, ±inf+0j, in every entry
        out = np.zeros(X.shape, dtype)
        eval(expr, {"m": fnp, "X": X, "out": out})
        float_out = np.zeros(X.shape)
        eval(expr, {"m": np, "X": X, "out": float_out})
        np.testing.assert_array_equal(out.view(np.float64), float_out.astype(dtype).view(np.float64))
        numpys = np.zeros(X.shape, dtype)
        with np.errstate(invalid="ignore"):
            eval(expr, {"m": np, "X": X, "out": numpys})
        np.testing.assert_array_equal(out.real, numpys.real)
        assert (out.imag == 0).all() and not np.isnan(numpys.imag[np.isfinite(X)]).any()
        return
    _same_as_numpy(expr, X=X, out=np.zeros(X.shape, dtype))


@pytest.mark.parametrize("expr", [
    "m.clip(X, 0.0, 1.0, dtype=np.float32)", "m.clip(X, 0, 1, casting='unsafe', dtype=int)",
    "m.clip(X, 0, 1, dtype=int)", "m.clip(I, 1, 3, dtype=np.float32)",
    "m.clip(I, 1.5, 3)", "m.clip(X, 0.0, 1.0, order='F', subok=True)",
    "m.clip(X, 0.0, 1.0, min=0.5)", "m.clip(X, a_max=1.0, max=0.5)",
    "m.clip(X, 0.5, max=0.7)", "m.clip(X, max=0.7)",
    "m.clip(X, 0.0, 1.0, out=np.zeros(2))", "m.round(X, out=np.zeros(2))",
    "m.isposinf(Z)", "m.isneginf(Z)", "m.isposinf(X, np.zeros(3))",
])
def test_keywords_and_their_errors_follow_numpy(expr):
    _same_as_numpy(expr, X=X, I=np.array([0, 2, 5]), Z=np.array([np.inf + 1j]))


def test_a_traced_value_is_not_written_into_out_and_the_keywords_differentiate():
    x = np.array([-0.5, 0.25, 1.5])
    for f in (lambda v: fnp.clip(v, 0.0, 1.0, out=np.zeros(3)),
              lambda v: fnp.clip(v, 0.0, 1.0, where=v > 0, out=np.zeros(3)),
              lambda v: fnp.clip(v, min=0.0, out=np.zeros(3))):
        with pytest.raises(TypeError, match="use the returned value"):
            fg.grad(lambda v: fnp.sum(f(v)))(x)
    g = fg.grad(lambda v: fnp.sum(fnp.clip(v, 0.0, 1.0, dtype=np.float64) ** 2))(x)
    np.testing.assert_array_equal(g, [0.0, 0.5, 0.0])
    g32 = fg.grad(lambda v: fnp.sum(fnp.clip(v, 0.0, 1.0, dtype=np.float32)))(x)
    assert g32.dtype == np.float64
    np.testing.assert_array_equal(g32, [0.0, 1.0, 0.0])


SMALL_INTEGERS = [np.array([1, 0, 3], d) for d in (np.bool_, np.int8, np.uint8, np.int16)]


@pytest.mark.parametrize("x", SMALL_INTEGERS + [np.array([1.5, -0.25], np.float32),
                                                np.array([1.5, -0.25], np.float16)],
                         ids=lambda x: str(x.dtype))
@pytest.mark.parametrize("expr", [
    "m.modf(x)", "m.frexp(x)", "m.ldexp(x, 3)", "m.spacing(x)", "m.deg2rad(x)",
    "m.rad2deg(x)", "m.radians(x)", "m.degrees(x)", "m.angle(x)", "m.angle(x, deg=True)",
])
def test_float_only_functions_compute_in_numpys_loop_dtype(expr, x):
    # bool and int8 in float16, int16 in float32, and float32's factors divided in float32
    if "spacing" in expr and x.dtype == np.float16:
        # NumPy's float16 spacing of -0.25 is +2**-13 (the step towards zero); its float32
        # and float64 ones, and funcgrad's, step away from zero with x's sign, as documented
        got = fnp.spacing(x)
        away = np.nextafter(x, np.copysign(np.inf, x).astype(x.dtype)) - x
        assert got.dtype == np.float16 and np.array_equal(got, away)
        np.testing.assert_array_equal(got.astype(np.float32) / np.spacing(x.astype(np.float32)),
                                      2.0 ** 13)
        return
    _same_as_numpy(expr, x=x)


@pytest.mark.parametrize("expr", [
    "m.frexp(2.5)", "m.ldexp(2.5, 2)", "m.frexp(True)", "m.deg2rad(True)",
])
def test_float_only_functions_take_python_numbers(expr):
    got, want = eval(expr, {"m": fnp}), eval(expr, {"m": np})
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        assert np.asarray(g).dtype == np.asarray(w).dtype and g == w, expr


@pytest.mark.parametrize("expr", [
    "m.vdot(b, b)", "m.vecdot(b, b)", "m.linalg.vecdot(b, b)", "m.einsum('ij->j', b)",
    "m.einsum('ij,kj->ik', b, b)", "m.einsum('ij,kj->ik', b, 1 * b)", "m.vdot(b, 1.0 * b)",
    "m.isclose(b, b)", "m.allclose(b, ~b)", "m.isclose(i, i)", "m.isclose(3, 3)",
])
def test_sums_of_boolean_products_are_booleans_and_isclose_takes_booleans(expr):
    _same_as_numpy(expr, b=np.array([[True, False, True], [False, False, True]]),
                   i=np.array([np.iinfo(np.int64).min, 5]))


@pytest.mark.parametrize("expr", [
    "m.size(x, (0, 1))", "m.size(x, (-1,))", "m.size(x, 5)", "m.size(x, (0, 0))",
     "m.linalg.trace(x32, dtype=np.float64)", "m.linalg.trace(x32, dtype=np.int64)",
     "m.linalg.trace(x32, dtype=np.complex128)"])
def test_dtypes_and_axes_follow_numpy(expr):
    x32 = np.array([[0.3, 1.7, 2.2], [0.1, 0.6, 0.9], [2.5, 3.5, 1.1]], np.float32)
    _same_as_numpy(expr, x=np.ones((2, 3)), x32=x32)


@pytest.mark.parametrize("expr", [
    "m.cumsum(x, axis=(0, 1))", "m.sort(x, axis=(0, 1))", "m.argsort(x, axis=(0, 1))",
    "m.take(x, [0, 1], axis=(0, 1))", "m.concatenate([x, x], axis=(0, 1))",
    "m.repeat(x, 2, axis=(0, 1))", "m.diff(x, axis=None)", "m.stack([x, x], axis=None)",
    "m.split(x, 1, axis=None)", "m.trapezoid(x, axis=(0, 1))", "m.delete(x, 1, axis=(0, 1))",
    "m.cumsum(x, axis=1.0)", "m.cumsum(x, axis=np.int64(1))", "m.sort(x, axis=-1)",
])
def test_one_axis_given_as_a_tuple_or_none_raises_as_numpy(expr):
    # never the tuple's first axis, silently
    _same_as_numpy(expr, x=np.array([[3.0, 1.0, 2.0], [0.5, 4.0, 1.5]]))


@pytest.mark.parametrize("expr", [
    "m.fft.rfft(z)", "m.fft.rfft(z, 4)", "m.fft.rfftn(z)", "m.fft.rfft2(z[None])",
    "m.fft.ihfft(z)", "m.deg2rad(z)", "m.rad2deg(z)", "m.radians(z)", "m.degrees(z)",
    "m.ldexp(z, 2)", "m.interp(z, [0.0, 1.0], [1.0, 2.0])", "m.interp(0.5, z, z)",
    "m.interp(0.5, [0.0, 1.0], z[:2])", "m.cov(z.real, dtype=np.int64)",
    "m.corrcoef(z.real, dtype=bool)", "m.cov(z.real, dtype=np.float32)",
])
def test_functions_of_real_values_refuse_complex_ones_as_numpy(expr):
    # (NumPy 1 dropped the imaginary part of rfft's input: a wrong value, and a derivative)
    _same_as_numpy(expr, z=np.array([1.0 + 2.0j, 0.5, -1.0j]))


@pytest.mark.parametrize("expr", [
    "m.std(x)", "m.std(x, dtype=np.float32)", "m.mean(x, dtype=np.float32)",
    "m.var(x, dtype=np.float32)", "m.median(x)", "m.percentile(x, 30)", "m.quantile(x, 0.3)",
    "m.nanmax(x)", "m.nanmin(x)", "m.nanmean(x)", "m.nanstd(x)", "m.nanvar(x)",
    "m.nanmedian(x)", "m.nanpercentile(x, 30)", "m.nanquantile(x, 0.3)", "m.nansum(x0)",
    "m.nanprod(x0)", "m.median(x2, axis=0)", "m.std(x2, axis=1)",
    "m.astype(np.float64(0.3), np.float32)",
])
def test_reductions_to_one_value_return_numpys_scalar(expr):
    # an np.float64 is a Python float (isinstance, json, formatting); a 0-d array is not
    env = {"x": np.array([0.2, 0.5, 0.9]), "x0": np.array(0.35), "x2": np.ones((2, 3))}
    got, want = eval(expr, {"m": fnp, "np": np, **env}), eval(expr, {"m": np, "np": np, **env})
    assert type(got) is type(want), (expr, type(got), type(want))
    np.testing.assert_allclose(got, want, rtol=1e-6)  # (float32: NumPy's own steps differ)


@pytest.mark.parametrize("expr", [
    "m.linalg.cholesky(w)", "m.linalg.det(w)", "m.linalg.inv(w)", "m.linalg.slogdet(w)",
    "m.linalg.solve(w, np.ones(2))", "m.linalg.eigh(w)", "m.linalg.eigvalsh(w)",
    "m.linalg.solve(np.array(3.0), np.array(1.0))", "m.linalg.cond(np.zeros((0, 3)))",
    "m.linalg.norm(np.array(3.0), axis=0)",
])
def test_linalg_errors_are_numpys_kinds(expr):
    # LinAlgError is a ValueError: code catching either works with funcgrad's
    _same_as_numpy(expr, w=np.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError if "norm" not in expr else np.exceptions.AxisError):
        eval(expr, {"m": fnp, "np": np, "w": np.ones((2, 3))})


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.bool_, np.complex128])
@pytest.mark.parametrize("expr, shape", [
    ("m.sum(x, 0, out=out)", (3,)), ("m.sum(x, out=out, keepdims=True)", (1, 1)),
    ("m.mean(x, 1, None, out)", (2,)), ("m.prod(x, axis=0, out=out)", (3,)),
    ("m.max(x, 0, out)", (3,)), ("m.min(x, axis=1, out=out)", (2,)),
    ("m.all(x > 0, 0, out)", (3,)), ("m.any(x > 1, axis=0, out=out)", (3,)),
    ("m.var(x, 0, out=out)", (3,)), ("m.std(x, 1, out=out)", (2,)),
    ("m.cumsum(x, 1, out=out)", (2, 3)), ("m.cumprod(x, 0, None, out)", (2, 3)),
    ("m.argmax(x, 0, out)", (3,)), ("m.argmin(x, axis=1, out=out)", (2,)),
    ("m.dot(x, x.T, out)", (2, 2)), ("m.outer(x[0], x[1], out)", (3, 3)),
    ("m.trace(x, out=out)", ()), ("m.einsum('ij->j', x, out=out)", (3,)),
    ("m.take(x, [0, 2], out=out)", (2,)), ("m.concatenate([x[0], x[1]], out=out)", (6,)),
    ("m.stack([x[0], x[1]], out=out)", (2, 3)),
    ("m.nansum(x, 0, out=out)", (3,)), ("m.nanprod(x, 0, None, out)", (3,)),
    ("m.nanmean(x, 1, out=out)", (2,)), ("m.nanvar(x, 0, out=out)", (3,)),
    ("m.nanstd(x, 0, out=out)", (3,)), ("m.nanmax(x, 0, out)", (3,)),
    ("m.nanmin(x, axis=1, out=out)", (2,)), ("m.nancumsum(x, 1, out=out)", (2, 3)),
    ("m.nancumprod(x, out=out)", (6,)), ("m.nanmedian(x, 0, out)", (3,)),
    ("m.nanquantile(x, 0.3, 0, out)", (3,)), ("m.nanpercentile(x, [30, 60], 1, out=out)", (2, 2)),
    ("m.quantile(x, 0.3, 0, out)", (3,)), ("m.percentile(x, [30, 60], 1, out=out)", (2, 2)),
    ("m.median(x, 1, out)", (2,)), ("m.median(x[1], out=out)", ()), ("m.ptp(x, 1, out)", (2,)),
    ("m.cumulative_sum(x, axis=1, out=out)", (2, 3)),
    ("m.cumulative_prod(x[1], include_initial=True, out=out)", (4,)),
    ("m.fft.fft(x, out=out)", (2, 3)), ("m.fft.rfft(x, 4, -1, 'ortho', out)", (2, 3)),
    ("m.fft.irfft(x, out=out)", (2, 4)), ("m.fft.fft2(x, out=out)", (2, 3)),
    ("m.choose([0, 1, 0], x, out)", (3,)), ("m.compress([True, False, True], x, 1, out)", (2, 2)),
    ("m.sum(x, 0, out=out)", (4,)), ("m.cumsum(x, 1, out=out)", (3,)),
])
def test_out_of_reductions_and_joins_writes_a_plain_array_as_numpy(expr, shape, dtype):
    # NumPy's casting rule per function (unsafe for reductions, same_kind for joins, safe
    # for einsum, the exact dtype for dot) and its error kinds for a wrong shape
    x = np.array([[1.25, 2.5, -3.0], [0.5, 7.0, 1.0]])
    if ("take" in expr or "compress" in expr) and dtype is np.complex128:
        # NumPy's take converts out to the array's float64 (a complex one, unsafely: it
        # refuses); funcgrad writes the taken values, which a complex out holds exactly
        with pytest.raises(TypeError):
            eval(expr, {"m": np, "x": x, "out": np.zeros(shape, dtype)})
        _computed_in_float64_then_cast(expr, x, shape, dtype, ulps=0)
    elif ("mean" in expr or "std" in expr or "var" in expr) and dtype is np.complex128:
        # NumPy divides in out's complex dtype (1 ulp from the float quotient); funcgrad
        # writes the float64 result, cast
        _computed_in_float64_then_cast(expr, x, shape, dtype, ulps=1)
    elif "percentile" in expr and dtype is np.float32:
        # NumPy interpolates in out's float32 (2 ulp off, -0.45000005 for -0.45); funcgrad
        # in float64, then rounds once
        _computed_in_float64_then_cast(expr, x, shape, dtype, ulps=2)
    else:
        _same_as_numpy(expr, x=x, out=np.zeros(shape, dtype))


def _computed_in_float64_then_cast(expr, x, shape, dtype, ulps):
    """funcgrad's ``out`` holds NumPy's float64 result cast to ``dtype``, and is within
    ``ulps`` of what NumPy writes into an ``out`` of that dtype (where it writes one)."""
    out, float_out = np.zeros(shape, dtype), np.zeros(shape)
    assert eval(expr, {"m": fnp, "x": x, "out": out}) is out
    eval(expr, {"m": np, "x": x, "out": float_out})
    np.testing.assert_array_equal(out, float_out.astype(dtype), err_msg=expr)
    if ulps:
        numpys = np.zeros(shape, dtype)
        eval(expr, {"m": np, "x": x, "out": numpys})
        np.testing.assert_array_max_ulp(out.real, numpys.real, maxulp=ulps)


def test_out_of_a_reduction_refuses_a_traced_value():
    with pytest.raises(TypeError, match="use the returned value"):
        fg.grad(lambda v: fnp.sum(fnp.sum(v, 0, out=np.zeros(2))))(np.ones((2, 2)))
    with pytest.raises(TypeError, match="use the returned value"):
        fg.grad(lambda v: fnp.sum(fnp.cumsum(v, out=np.zeros(4))))(np.ones((2, 2)))


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "nancumsum", "nancumprod",
                                  "cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_scans_of_a_0d_array_are_one_element_long_and_differentiate(name, axis):
    if name.startswith("cumulative") and axis is not None:
        axis = None  # (the array API's scans take the axis of a 1-d array only)
    x = np.array(0.35)
    kw = {} if axis is None else {"axis": axis}
    _same_as_numpy(f"m.{name}(x, **kw)", x=x, kw=kw)
    g = fg.grad(lambda v: fnp.sum(getattr(fnp, name)(v, **kw) * 3.0))(x)
    assert g.shape == () and float(g) == 3.0


@pytest.mark.parametrize("expr", [
    "m.vecdot(A, v, dtype=np.float32)", "m.vecdot(A, v, dtype=np.int64)",
    "m.vecdot(A, v, dtype=np.int64, casting='unsafe')", "m.vecdot(C, C, dtype=np.float32)",
    "m.vecdot(A, v, out=out)", "m.vecdot(A, v, signature=(None, None, np.float32))",
    "m.vecdot(A, v, order='Q', dtype=float)", "m.matvec(A, v, dtype=np.float32)",
    "m.matvec(A, v, out=out)", "m.vecmat(A[0], A.T, out=out, casting='unsafe')",
    "m.vecdot(A, v, out=np.zeros(2, np.int64))", "m.matvec(A, v, axis=0)",
    "m.matvec(A, v, keepdims=True)", "m.vecmat(v, A.T, axis=None)", "m.vecmat(v, A.T, keepdims=1)",
])
def test_generalized_ufuncs_take_numpys_keywords(expr):
    _same_as_numpy(expr, A=np.array([[1.25, 2.5, -3.0], [0.5, 7.0, 1.0]]),
                   v=np.array([1.0, 2.0, 3.0]), out=np.zeros(2),
                   C=np.array([[1.0 + 2.0j, 0.5 - 1.0j]], np.complex64))


def test_generalized_ufunc_dtype_differentiates():
    a, v = np.array([[1.25, 2.5, -3.0], [0.5, 7.0, 1.0]]), np.array([1.0, 2.0, 3.0])
    g = fg.grad(lambda x: fnp.sum(fnp.vecdot(x, v, dtype=np.float64) ** 2))(a)
    np.testing.assert_allclose(g, 2 * (a @ v)[:, None] * v[None, :])


@pytest.mark.parametrize("expr", [
    "m.average(x0, 0)", "m.delete(x0, 0, 0)", "m.insert(x0, 0, 1.0, -1)", "m.gradient(x0, axis=0)",
    "m.median(x0, 0)", "m.nanmedian(x0, -1)", "m.percentile(x0, 30, 0)", "m.quantile(x0, 0.3, 0)",
    "m.nanpercentile(x0, 30, 0)", "m.nanquantile(x0, 0.3, 0)", "m.roll(x0, 1, 0)",
    "m.size(x0, 0)", "m.swapaxes(x0, 0, 0)", "m.sort_complex(x0)", "m.sort(x0, 0)",
    "m.take_along_axis(x0, np.array(0), 0)", "m.partition(x0, 0)", "m.flip(x0, -1)",
    "m.moveaxis(x0, 0, 0)", "m.linalg.matrix_norm(x0)", "m.linalg.matrix_norm(x)",
    "m.fft.hfft(x0, 4)", "m.fft.irfft(x0, 2)", "m.fft.rfft(x0, 4)", "m.sum(x, 1)",
    "m.cumsum(x, -2)", "m.take(x, 0, axis=1)",
])
def test_an_axis_a_0d_or_1d_array_lacks_raises_numpys_axis_error(expr):
    # an AxisError is both a ValueError and an IndexError: never a bare IndexError from
    # a shape lookup (a 0-d array has no axis 0 here, unlike for sum or cumsum)
    env = {"m": np, "np": np, "x0": np.array(0.5), "x": np.array([0.5, 2.0])}
    with pytest.raises(np.exceptions.AxisError):
        eval(expr, env)
    with pytest.raises(np.exceptions.AxisError, match="out of bounds for array of dimension"):
        eval(expr, {**env, "m": fnp})


@pytest.mark.parametrize("expr", [
    "m.fft.fft(x0)", "m.fft.ifft(x0, axis=0)", "m.fft.fft2(x0)", "m.fft.irfftn(x0)",
    "m.linalg.tensordot(x0, x0)", "m.linalg.tensordot(x, x)",
])
def test_where_numpy_fails_on_a_missing_axis_with_index_error_funcgrad_says_which(expr):
    env = {"m": np, "np": np, "x0": np.array(0.5), "x": np.array([0.5, 2.0])}
    with pytest.raises(IndexError):
        eval(expr, env)
    with pytest.raises(np.exceptions.AxisError):  # (an IndexError: NumPy's handlers work)
        eval(expr, {**env, "m": fnp})


@pytest.mark.parametrize("axis", ["0", "-1", "(0,)", "None"])
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "amax", "any", "all", "ptp",
                                  "nansum", "nanmean", "nanmax", "nanargmax", "squeeze",
                                  "count_nonzero", "mean", "std", "var", "median",
                                  "nanmedian", "flip", "roll", "sort", "argsort", "argmax",
                                  "cumsum", "partition", "argpartition", "add.reduce"])
def test_a_0d_array_takes_axis_0_where_numpy_takes_it(name, axis):
    """NumPy's rule for a 0-d array is per function: the ufunc reductions take one int axis
    0 or -1 as no axis (axis=(0,) raises), the functions that ravel it first (argsort,
    argmax, cumsum...) take 0 or -1 as the one element's, the rest raise AxisError."""
    extra = {"roll": "1, ", "partition": "0, ", "argpartition": "0, "}.get(name, "")
    _same_as_numpy(f"m.{name}(x0, {extra}axis={axis})", x0=np.array(0.5))


def test_a_0d_array_takes_axis_0_as_numpy_under_grad_vmap_and_jit():
    x0 = np.array(2.5)
    assert fg.grad(lambda x: fnp.sum(x, axis=0) * 3.0)(x0) == 3.0
    assert fg.grad(lambda x: fnp.max(x, axis=-1, keepdims=True) * 2.0)(x0) == 2.0
    assert fg.grad(lambda x: fnp.cumsum(x, axis=0)[0] * 4.0)(x0) == 4.0
    np.testing.assert_array_equal(fg.vmap(lambda x: fnp.prod(x, axis=0))(np.array([2.0, 3.0])),
                                  [2.0, 3.0])
    assert fg.jit(lambda x: fnp.cumsum(x, axis=-1) + fnp.sum(x, axis=0))(x0).tolist() == [5.0]
    for f in (lambda x: fnp.sum(x, axis=(0,)), lambda x: fnp.mean(x, axis=0),
              lambda x: fnp.median(x, axis=-1), lambda x: fnp.sort(x, axis=0)):
        for transform in (fg.grad, fg.vmap, fg.jit):
            with pytest.raises(np.exceptions.AxisError,
                               match="out of bounds for array of dimension 0"):
                transform(f)(x0 if transform is not fg.vmap else np.array([1.0, 2.0]))


@pytest.mark.parametrize("name", ["partition", "argpartition"])
@pytest.mark.parametrize("kth", ["-1", "[3, 0]", "[-1, -4]", "np.array([1, 2])", "np.int8(1)",
                                 "(1, 1)", "4", "-5", "[0, 4]", "1.5", "[]", "'x'", "True",
                                 "[True, False]", "[[0, 1]]"])
def test_partition_checks_kth_as_numpy(name, kth):
    """In range, repeated, negative or as a sequence: a valid partition; out of range or
    booleans: ValueError; not integers: TypeError (NumPy's kinds)."""
    a = np.array([3.0, 1.0, 2.0, 5.0])
    if name == "partition" and not isinstance(eval(kth), float | str):
        _same_as_numpy(f"m.sort(m.partition(a, {kth}))", a=a)  # (NumPy's order inside the
    else:                                                        # parts is its own)
        _same_as_numpy(f"m.{name}(a, {kth}).shape", a=a)


@pytest.mark.parametrize("kth, error, message", [
    (4, ValueError, r"kth\(=4\) out of bounds \(4\)"), ([0, -5], ValueError, r"kth\(=-5\) out of"),
    (1.0, TypeError, "Partition index must be integer"),
    (True, ValueError, "Booleans unacceptable as partition index"),
    ([[0, 1]], ValueError, "1-d sequence")])
def test_partition_under_grad_and_vmap_refuses_a_bad_kth_with_numpys_kind(kth, error, message):
    for name in ("partition", "argpartition"):
        def f(x):
            out = getattr(fnp, name)(x, kth)
            return fnp.sum(out if name == "partition" else fnp.take(x, out))
        with pytest.raises(error, match=message):
            fg.grad(f)(np.array([3.0, 1.0, 2.0, 5.0]))
        with pytest.raises(error, match=message):
            fg.vmap(f)(np.ones((2, 4)))
    np.testing.assert_array_equal(fnp.partition(np.array([]), 7), [])  # (nothing to check)


@pytest.mark.parametrize("expr", [
    "m.cumsum(x0, 0)", "m.cumprod(x0, -1)", "m.argmax(x0, 0)", "m.argmin(x0, -1)",
    "m.take(x0, 0, axis=0)", "m.argsort(x0, 0)", "m.repeat(x0, 2, 0)",
    "m.compress([True], x0, 0)", "m.argpartition(x0, 0)",
])
def test_functions_that_ravel_a_0d_array_take_its_axis_0_as_numpy(expr):
    _same_as_numpy(expr, x0=np.array(0.5))


@pytest.mark.parametrize("expr", [
    "m.copysign(x0, -1.0)", "m.copysign(x0, -1.0, dtype=np.float32)", "m.fmod(x0, 0.2)",
    "m.fmod(x0, 0.2, casting='unsafe')", "m.sinc(x0)", "m.sinc(0.0)", "m.copysign(x, -1.0)",
])
def test_elementwise_composites_of_0d_arrays_return_numpys_scalar(expr):
    env = {"np": np, "x0": np.array(0.35), "x": np.array([0.35])}
    got, want = eval(expr, {"m": fnp, **env}), eval(expr, {"m": np, **env})
    assert type(got) is type(want), (expr, type(got), type(want))
    np.testing.assert_array_max_ulp(got, want, maxulp=1)  # (sinc: its own sin(pi x) / pi x)


def test_the_scalar_results_of_composites_still_differentiate():
    assert fg.grad(lambda v: fnp.copysign(v, -1.0))(np.array(0.35)) == -1.0
    assert fg.grad(lambda v: fnp.fmod(v, 0.2))(np.array(0.35)) == 1.0
    x = 0.35
    want = (np.cos(np.pi * x) * np.pi * x - np.sin(np.pi * x)) / (np.pi * x ** 2)
    np.testing.assert_allclose(fg.grad(fnp.sinc)(np.array(x)), want, rtol=1e-12)


@pytest.mark.parametrize("expr", [
    "m.max(z, initial=0.5)", "m.min(z, initial=0.5)", "m.max(z, initial=3)",
    "m.amax(z.reshape(2, 2), 0, initial=1.5)", "m.amin(z.reshape(2, 2), 1, initial=-2j)",
])
def test_max_and_min_of_complex_values_take_initial_as_numpy(expr):
    # (lexicographic order, as NumPy's; where= still needs an extreme complex value, which
    # there is none of: it raises and says to select the elements first)
    _same_as_numpy(expr, z=np.array([1 + 2j, 0.5, -1j, 2], np.complex64))

"""Every Numba CPU kernel against the NumPy expression it replaces.

The elementwise kernels are generated (``funcgrad.kernels.cpu.generated``) from the
primitives' rules and definitions; each runs as a NumPy ufunc with a Numba inner loop
(small arrays, odd layouts) or as a flat Numba loop (from ``config.numba_min``
elements); the rule itself runs for 0-d arrays, other dtypes, and below
``config.ufunc_min``.  Each test here computes the kernel and the NumPy expression
(``numpy_only``) on the same hypothesis-drawn inputs, and the fixture
``numba_everywhere`` runs it once per kernel form (``numba_min`` 0: flat loops wherever the
layout allows; huge: ufuncs everywhere): shapes with broadcasting, 0-d and size-0 arrays,
non-contiguous and negative-stride views, broadcast cotangents, scalar operands, float32
and float64.  Results must agree to rounding and keep shape and dtype.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import REGISTRY
from funcgrad.kernels import cpu
from funcgrad.kernels.cpu import _lazy, reductions

from helpers import c_library_exp2, numpy_exp2_is_c_library  # noqa: E402
from long_runs import LONG  # noqa: E402

SETTINGS = settings(max_examples=8, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
DTYPES = st.sampled_from([np.float32, np.float64])
LAYOUTS = st.sampled_from(["contiguous", "transposed", "reversed", "strided"])
SHAPES = st.sampled_from([(), (0,), (1,), (7,), (3, 5), (4, 0), (2, 3, 4)])


@pytest.fixture(params=["flat loops", "ufuncs"])
def numba_everywhere(request, monkeypatch):
    monkeypatch.setattr(_lazy.config, "ufunc_min", 1)
    monkeypatch.setattr(_lazy.config, "numba_min", 0 if request.param == "flat loops" else 1 << 62)
    monkeypatch.setattr(_lazy.config, "threads", 1)


@pytest.fixture
def numba_loops(monkeypatch):
    """Row, reduction and scatter loops at every size (they start at ``numba_min``)."""
    monkeypatch.setattr(_lazy.config, "numba_min", 0)
    monkeypatch.setattr(_lazy.config, "threads", 1)


def numpy_only(fn, *args):
    old = _lazy.config.ufunc_min, _lazy.config.numba_min
    _lazy.config.ufunc_min = _lazy.config.numba_min = 1 << 62
    try:
        return fn(*args)
    finally:
        _lazy.config.ufunc_min, _lazy.config.numba_min = old


def laid_out(a, layout):
    """The same values as ``a`` in another memory layout."""
    a = np.asarray(a)
    if a.ndim == 0 or layout == "contiguous":
        return a
    if layout == "transposed":
        return np.ascontiguousarray(a.T).T
    if layout == "reversed":
        return np.ascontiguousarray(a[..., ::-1])[..., ::-1]
    big = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
    big[..., ::2] = a
    return big[..., ::2]


def draw_array(draw, shape, dtype, lo, hi):
    n = int(np.prod(shape))
    lo, hi = float(np.float32(lo)), float(np.float32(hi))
    values = draw(st.lists(st.floats(lo, hi, allow_nan=False, width=32), min_size=n,
                           max_size=n))
    return np.array(values, dtype).reshape(shape)


def assert_same(got, ref, dtype):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape
    assert got.dtype == ref.dtype == dtype
    # float32: the kernels accumulate and round differently from NumPy's float32 passes
    rtol, atol = (1e-5, 1e-6) if dtype == np.float32 else (1e-13, 1e-15)
    np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol, equal_nan=True)


# --- fused rule kernels: every first-order rule, generated -------------------------------------

ELEMENTWISE = [p for p in REGISTRY.values() if p.elementwise is not None]
# (not sph_harm_y: SciPy computes it for integer degrees and orders only, not the float
# operands drawn here; tests/test_scipy_special_more.py checks its derivatives)
RULES = [(p.name, i) for p in ELEMENTWISE if p.differentiable and p.name != "sph_harm_y"
         for i, lin in enumerate(p.elementwise.lins) if lin is not None]


def _operands(data, prim, dtype, shape, layout):
    """Arguments for ``prim``: drawn in (-3, 3) (a value outside a function's domain gives
    NaN in the kernel and in the rule alike), one of them now and then a Python scalar."""
    n = len(prim.elementwise.lins)
    args = [laid_out(draw_array(data.draw, shape, dtype, -3, 3), layout) for _ in range(n)]
    if prim.elementwise.compute == "select":
        args[0] = args[0] > 0
    elif n > 1 and data.draw(st.booleans(), label="a Python scalar operand"):
        k = data.draw(st.integers(0, n - 1), label="which")
        args[k] = 0.75
    return args


def _long_series(name):
    """A scalar definition long enough (a special function's series) that each kernel of
    it compiles for seconds."""
    return len(str(REGISTRY[name].elementwise.scalar)) > 500


# Every rule in both kernel forms; in ``make test`` the flat loops (the same scalar code
# in another loop) only for rules of short scalar code: the series of the special
# functions compile for seconds per form and dtype, and ``make soak`` runs them all.
FORMS = [(form, name, i) for form in ("flat loops", "ufuncs") for name, i in RULES
         if form == "ufuncs" or LONG or not _long_series(name)]


@pytest.mark.parametrize("numba_everywhere,name,i", FORMS, indirect=["numba_everywhere"])
@SETTINGS
@given(data=st.data(), dtype=DTYPES, shape=SHAPES, layout=LAYOUTS, broadcast_g=st.booleans())
def test_fused_rule_kernel_equals_its_rule(numba_everywhere, name, i, data, dtype, shape, layout,
                                           broadcast_g):
    """The generated kernel of argument ``i``'s linear rule gives what the rule computes
    with NumPy, operation by operation (to the ulp or two of the vectorised exp, log,
    sin, cos), in every layout, for broadcast cotangents (the cotangent of a sum) and
    Python scalar operands."""
    prim = REGISTRY[name]
    decl = prim.elementwise
    args = _operands(data, prim, dtype, shape, layout)
    with np.errstate(all="ignore"):
        out = numpy_only(prim.impl, *args)
        if broadcast_g:
            g = np.broadcast_to(np.asarray(1.5, dtype), np.shape(out))
        else:
            g = laid_out(draw_array(data.draw, np.shape(out), dtype, -2, 2), layout)
        got = decl.fused_vjp(i, g, tuple(args), out)
        if got is None:  # not fused (one operation, a C-library leaf) or not plain arrays
            return
        want = numpy_only(decl.lins[i], g, *args, out)
    assert_same(got, np.broadcast_to(want, np.shape(got)).astype(dtype), dtype)


@pytest.mark.parametrize("name,i", [("sin", 0), ("cos", 0), ("tanh", 0), ("sqrt", 0),
                                    ("abs", 0), ("square", 0), ("reciprocal", 0), ("log1p", 0),
                                    ("arcsin", 0), ("arctan", 0), ("erf", 0), ("expit", 0),
                                    ("maximum", 0), ("minimum", 1), ("clip", 0),
                                    ("arctan2", 0), ("hypot", 1), ("logaddexp", 0),
                                    ("divide", 1), ("mod", 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rules_of_several_operations_are_fused(name, i, dtype):
    """First-order reverse mode makes one pass where the rule would make several."""
    assert REGISTRY[name].elementwise.fused_rule(i, np.dtype(dtype)) is not None


def test_rules_calling_a_c_library_function_numpy_vectorises_stay_numpy():
    """A loop calling cosh or pow per element is slower than NumPy's vectorised passes."""
    for name in ("sinh", "cosh", "power"):
        assert REGISTRY[name].elementwise.fused_rule(0, np.dtype(np.float64)) is None


# --- forward sin / cos: generated on vmath ------------------------------------------------------

SPECIAL = np.array([0.0, -0.0, 1e-300, -5e-324, np.pi, -np.pi / 2, 1e6, 1e9, -1e20, 1e308,
                    np.inf, -np.inf, np.nan, 2.0 ** 52, 709.78])


@pytest.fixture
def one_thread():
    before = fg.get_num_threads()
    fg.set_num_threads(1)  # the primitives re-choose their forward kernel
    yield
    fg.set_num_threads(before)


def forward_ufunc(prim):
    """The primitive's installed forward kernel (installed by its first array)."""
    prim.impl(np.ones(4))
    return prim.impl


@pytest.mark.parametrize("name", ["sin", "cos"])
@SETTINGS
@given(data=st.data(), shape=SHAPES, layout=LAYOUTS, special=st.booleans())
def test_sin_cos_match_numpy(numba_everywhere, name, data, shape, layout, special):
    x = draw_array(data.draw, shape, np.float64, -1e4, 1e4)
    if special and x.size:
        x.reshape(-1)[: len(SPECIAL)] = SPECIAL[: x.size]
    x = laid_out(x, layout)
    with np.errstate(invalid="ignore"):
        got, ref = REGISTRY[name].impl(x), getattr(np, name)(x)
    assert np.shape(got) == np.shape(ref) and np.asarray(got).dtype == np.float64
    np.testing.assert_allclose(got, ref, rtol=0, atol=4.5e-16, equal_nan=True)


def test_sin_keeps_the_sign_of_zero(numba_everywhere):
    x = np.array([-0.0, 0.0] * 8)
    assert np.array_equal(np.signbit(REGISTRY["sin"].impl(x)), np.signbit(x))


def test_sin_cos_argument_reduction_keeps_every_rounding_error():
    """x - n pi/2 as y0 + y1 to ~2**-100 relative, against 60-digit decimal arithmetic (the
    reduction once dropped the second round's rounding error: y0 + y1 was half an ulp off,
    and sin/cos were misrounded in one case of six instead of one in thirty)."""
    from decimal import Decimal, getcontext

    from funcgrad.kernels.cpu import vbodies
    from funcgrad.kernels.cpu._twins import _M
    getcontext().prec = 60
    half_pi = Decimal("1.57079632679489661923132169163975144209858469968755291048747")
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-50, 50, 300), rng.uniform(-8e5, 8e5, 300),
                        [np.nextafter(k * np.pi / 2, d) for k in (1, 2, 7, 100, 5000)
                         for d in (0, 10)]])
    n, y0, y1 = vbodies._reduce(_M, x)
    for xv, nv, a, b in zip(x, n, y0, y1):
        k = int((Decimal(float(xv)) / half_pi).to_integral_value())
        assert k % 4 == nv
        exact = Decimal(float(xv)) - k * half_pi
        assert abs(Decimal(float(a)) + Decimal(float(b)) - exact) <= abs(exact) * Decimal(2) ** -100


def _decimal_sin_cos(x):
    """(sin x, cos x) of a float, correctly rounded: 50-digit reduction and Taylor series."""
    from decimal import Decimal, localcontext
    with localcontext() as ctx:
        ctx.prec = 60
        half_pi = Decimal("1.57079632679489661923132169163975144209858469968755291048747")
        k = int((Decimal(float(x)) / half_pi).to_integral_value())
        r = Decimal(float(x)) - k * half_pi
        s, c, term, n = Decimal(0), Decimal(0), Decimal(1), 0
        while n < 60:  # term = r**n / n!
            if n % 2:
                s += term * (-1) ** (n // 2)
            else:
                c += term * (-1) ** (n // 2)
            n += 1
            term = term * r / n
        s, c = [(s, c), (c, -s), (-s, -c), (-c, s)][k % 4]
        return float(s), float(c)


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_sin_cos_are_mostly_correctly_rounded(numba_everywhere, name):
    """Against 60-digit decimal arithmetic: with a reduction that dropped a rounding error,
    fdlibm's kernels misrounded one result in six (251 here); with the reduction exact, about
    one in thirty (the C library's: a few in a thousand)."""
    x = np.random.default_rng(11).uniform(-100, 100, 1500)
    exact = np.array([_decimal_sin_cos(v)[name == "cos"] for v in x])
    got = REGISTRY[name].impl(x)
    assert np.all(np.abs(got - exact) <= np.spacing(np.abs(exact)))  # within 1 ulp
    assert np.count_nonzero(got != exact) <= 75, np.count_nonzero(got != exact)


def test_the_exp2_leaf_has_numpys_bits_on_float32_and_float64_in_one_function():
    """Numba's ``np.exp2`` cannot be compiled on both float types in one function (it
    declares ``llvm.exp2`` once, unsuffixed); the leaf can, with the C library's bits,
    which are NumPy's where NumPy's exp2 is the C library's (all 2**32 float32 values were
    checked once; here a sample of bit patterns and the edges)."""
    numba = pytest.importorskip("numba")
    from funcgrad.kernels.cpu import leaves as F
    rng = np.random.default_rng(7)
    x32 = np.concatenate([
        rng.integers(0, 2**32, 20_000, dtype=np.uint64).astype(np.uint32).view(np.float32),
        rng.uniform(-151, 129, 20_000).astype(np.float32),
        np.float32([0.0, -0.0, 1e-45, 127.99999, 128.0, -149.0, -150.0, np.inf, -np.inf])])
    with np.errstate(invalid="ignore"):  # (signalling NaNs among the bit patterns)
        x64 = np.concatenate([rng.uniform(-1076, 1025, 20_000), x32.astype(np.float64),
                              [1024.0, -1074.0, -1075.0, 5e-324]])

    @numba.njit(error_model="numpy")
    def both(x32, x64, out32, out64):
        for i in range(x32.size):
            out32[i] = F.exp2(x32[i])
        for i in range(x64.size):
            out64[i] = F.exp2(x64[i])

    out32, out64 = np.empty_like(x32), np.empty_like(x64)
    both(x32, x64, out32, out64)
    # The leaf is the C library's exp2; NumPy's is too, except where NumPy dispatches exp2
    # to its AVX-512 (SVML) loops: there the two differ by a few ulps (3 at most for
    # float32 on this sample, near overflow; as the jit's other transcendental functions
    # may differ from NumPy's SIMD ones, funcgrad/jit/lower.py).
    same_as_numpy = numpy_exp2_is_c_library()
    with np.errstate(all="ignore"):
        numpy32, numpy64 = np.exp2(x32), np.exp2(x64)
        c32, c64 = c_library_exp2(x32), c_library_exp2(x64)
    for got, c, numpy_ in ((out32, c32, numpy32), (out64, c64, numpy64)):
        nan = np.isnan(c)
        np.testing.assert_array_equal(np.isnan(got), nan)
        np.testing.assert_array_equal(np.isnan(numpy_), nan)
        assert got[~nan].tobytes() == c[~nan].tobytes()
        if same_as_numpy:
            assert got[~nan].tobytes() == numpy_[~nan].tobytes()
        else:
            np.testing.assert_array_max_ulp(got[~nan], numpy_[~nan], maxulp=4)
    assert F.exp2(np.float32(0.5)) == np.exp2(np.float32(0.5))  # callable from Python too


OTHER_DTYPES = [np.arange(-3, 4, dtype=np.int8), np.arange(5, dtype=np.int16), np.arange(5),
                np.array([True, False]), np.linspace(-2, 2, 5, dtype=np.float16),
                np.linspace(-2, 2, 5, dtype=np.float32), np.linspace(-2, 2, 5, dtype=np.longdouble),
                np.array([1 + 2j, -0.5j]), np.array([1 + 2j], np.complex64), 3, 2.5, True,
                np.float32(0.5), np.array(0.25)]


@pytest.mark.parametrize("name", ["sin", "cos"])
@pytest.mark.parametrize("value", OTHER_DTYPES, ids=lambda v: np.asarray(v).dtype.name)
def test_forward_ufunc_is_numpy_for_every_other_dtype(one_thread, name, value):
    got, ref = forward_ufunc(REGISTRY[name])(value), getattr(np, name)(value)
    assert type(got) is type(ref) and np.asarray(got).dtype == np.asarray(ref).dtype
    if np.asarray(ref).dtype == np.float64:  # the vectorised float64 loop: within 1 ulp
        np.testing.assert_allclose(got, ref, rtol=0, atol=4.5e-16)
    else:  # NumPy's loop, bit for bit
        np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_forward_ufunc_layouts_out_and_sizes(one_thread, name):
    u, ref = forward_ufunc(REGISTRY[name]), getattr(np, name)
    assert type(u) is np.ufunc and u.types == ref.types
    x = np.random.default_rng(1).uniform(-20, 20, (40, 75))
    for v in (x, x.T, x[:, ::-2], x[::3], x[5], x[5, :1]):
        np.testing.assert_allclose(u(v), ref(v), rtol=0, atol=4.5e-16)
    out = np.empty_like(x)
    assert u(x, out=out) is out
    y = x.copy()
    u(y, out=y)  # in place: each block is checked before it is overwritten
    np.testing.assert_allclose(y, ref(x), rtol=0, atol=4.5e-16)
    assert u(np.empty((0, 3))).shape == (0, 3)
    assert type(u(np.array(0.5))) is np.float64


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_unreducible_arguments_get_the_c_library_value(one_thread, name):
    x = np.random.default_rng(2).uniform(-3, 3, 2000)
    bad = [10, 900, 1999]
    x[bad] = [1e20, -np.inf, np.nan]
    with pytest.warns(RuntimeWarning, match="invalid value"):  # as np.sin(inf) warns
        got = forward_ufunc(REGISTRY[name])(x)
    with np.errstate(invalid="ignore"):
        ref = getattr(np, name)(x)
        g = np.full(x.shape, 0.5)
        vjp = REGISTRY[name].elementwise.fused_vjp(0, g, (x,), ref)
    np.testing.assert_array_equal(got[bad], ref[bad])
    np.testing.assert_allclose(got, ref, rtol=0, atol=4.5e-16, equal_nan=True)
    dref = 0.5 * np.cos(x) if name == "sin" else -0.5 * np.sin(x)
    np.testing.assert_array_equal(vjp[bad], dref[bad])
    np.testing.assert_allclose(vjp, dref, rtol=0, atol=4.5e-16, equal_nan=True)


def test_primitive_impl_becomes_the_kernel_ufunc(one_thread):
    import funcgrad.numpy as fnp
    from funcgrad.primitives.elementwise import cos_p, sin_p
    fg.set_num_threads(1)  # (re-chooses: back to the first-call installer)
    assert type(sin_p.impl) is not np.ufunc  # built on the first array, not before
    assert fnp.sin(0.5) == np.sin(0.5)  # a Python number: NumPy, nothing installed
    assert type(sin_p.impl) is not np.ufunc
    np.testing.assert_allclose(fnp.sin(np.ones(3)), np.sin(np.ones(3)), rtol=0, atol=4.5e-16)
    assert type(sin_p.impl) is np.ufunc and type(cos_p.impl) is not np.ufunc
    from funcgrad.kernels.cpu import _loops
    if _loops.max_threads() > 1:
        fg.set_num_threads(2)
        fnp.sin(np.ones(3))
        assert type(sin_p.impl) is not np.ufunc  # the wrapper that hands large arrays to threads


def test_raising_ufunc_min_keeps_small_arrays_on_numpy(one_thread, monkeypatch):
    import funcgrad.numpy as fnp
    from funcgrad.primitives.elementwise import sin_p, tanh_p
    fg.set_num_threads(1)
    monkeypatch.setattr(_lazy.config, "ufunc_min", 100)
    x = np.linspace(-1, 1, 16)
    np.testing.assert_array_equal(fnp.sin(x), np.sin(x))
    assert type(sin_p.impl) is not np.ufunc
    g = np.ones(16)
    assert sin_p.elementwise.fused_vjp(0, g, (x,), None) is None  # then the rule runs
    np.testing.assert_array_equal(fg.grad(lambda x: np.sum(np.tanh(x)))(x),
                                  1 - np.tanh(x) ** 2)
    assert tanh_p.elementwise.fused_vjp(0, g, (x,), np.tanh(x)) is None


@pytest.mark.parametrize("name", ["sin", "tanh", "log1p"])  # rules reading x, out, both
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_unary_vjp_calls_its_loaded_small_kernel_directly_with_the_same_bits(
        monkeypatch, name, dtype):
    from funcgrad.primitives._elementwise import Elementwise
    prim = REGISTRY[name]
    x = np.linspace(-0.9, 0.9, 16).astype(dtype)
    g = np.linspace(0.5, 2.0, 16).astype(dtype)
    out = getattr(np, name)(x)
    with _lazy.waiting():
        general = prim.elementwise.fused_vjp(0, g, (x,), out)  # loads the kernel
    first = prim.vjp((True,), g, out, x)[0]
    monkeypatch.setattr(Elementwise, "fused_vjp", lambda *a: pytest.fail("not inline"))
    inline = prim.vjp((True,), g, out, x)[0]
    assert inline.dtype == dtype and inline.tobytes() == general.tobytes() == first.tobytes()
    # what the inline call does not take goes the general way: a 0-d cotangent, an output
    # of another dtype, arrays under ufunc_min
    calls = []
    monkeypatch.setattr(Elementwise, "fused_vjp", lambda *a: calls.append(a))
    prim.vjp((True,), g[0:1].reshape(()), out[0:1].reshape(()), x[0:1].reshape(()))
    prim.vjp((True,), g, out.astype(np.float16), x)
    monkeypatch.setattr(_lazy.config, "ufunc_min", 100)
    prim.vjp((True,), g, out, x)
    assert len(calls) == 3


@pytest.mark.parametrize("name", ["sin", "tanh", "log1p"])  # rules reading x, out, both
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_unary_vjp_of_a_large_array_calls_its_kernel_directly_with_the_same_bits(
        monkeypatch, name, dtype):
    from funcgrad.primitives._elementwise import Elementwise
    prim = REGISTRY[name]
    n = _lazy.config.numba_min + 8
    x = np.linspace(-0.9, 0.9, n).astype(dtype).reshape(2, n // 2)
    g = np.linspace(0.5, 2.0, n).astype(dtype).reshape(2, n // 2)
    out = getattr(np, name)(x)
    with _lazy.waiting():
        general = prim.elementwise.fused_vjp(0, g, (x,), out)  # the large path, once
    first = prim.vjp((True,), g, out, x)[0]
    monkeypatch.setattr(Elementwise, "fused_vjp", lambda *a: pytest.fail("not inline"))
    inline = prim.vjp((True,), g, out, x)[0]
    assert inline.dtype == dtype and inline.shape == x.shape
    assert inline.tobytes() == general.tobytes() == first.tobytes()
    # the rule's value, computed with NumPy (to the ulp or two of the vectorised maths)
    want = numpy_only(prim.elementwise.lins[0], g, x, out)
    np.testing.assert_allclose(inline, want, rtol=4 * np.finfo(dtype).eps, atol=0)
    # a cotangent in column order goes to the same kernel's ufunc (NumPy's iterator)
    by_columns = prim.vjp((True,), np.asfortranarray(g), out, x)[0]
    np.testing.assert_allclose(by_columns, want, rtol=4 * np.finfo(dtype).eps, atol=0)
    # what the inline call does not take goes the general way: an output of another
    # dtype, a 0-d cotangent
    calls = []
    monkeypatch.setattr(Elementwise, "fused_vjp", lambda *a: calls.append(a))
    prim.vjp((True,), g, out.astype(np.float16), x)
    prim.vjp((True,), g[0, 0].reshape(()), out[0, 0].reshape(()), x[0, 0].reshape(()))
    assert len(calls) == 2


def test_unreadable_numpy_loop_table_falls_back_to_numpy(monkeypatch):
    from funcgrad.kernels.cpu import _ufuncs
    assert len(_ufuncs._loop_table(np.sin, 1)) == np.sin.ntypes
    assert _ufuncs._loop_table(np.add, 1) is None and _ufuncs._loop_table(np.add, 2) is not None
    monkeypatch.setattr(_lazy, "_ufuncs", {})
    monkeypatch.setattr(_ufuncs, "_loop_table", lambda base, nin: None)
    monkeypatch.setattr(_lazy.config, "threads", 1)
    assert cpu.vector_forward(forward_kernel(REGISTRY["sin"]), np.sin) is np.sin


def forward_kernel(prim):
    from funcgrad.primitives._elementwise_kernels import _forward_kernel
    return _forward_kernel(prim.elementwise, np.dtype(np.float64))


def test_eager_and_jit_use_the_same_vector_maths():
    """One vector-maths library: eager kernels and jit loops give the same bits."""
    x = np.random.default_rng(5).uniform(-50, 50, 5000)
    f = lambda x: np.sin(x) * np.cos(x) + np.tanh(x) * np.exp(-x * x)  # noqa: E731
    eager, jitted = f(x), fg.jit(f)(x)
    g_eager, g_jit = fg.grad(lambda x: np.sum(np.sin(x)))(x), fg.jit(
        fg.grad(lambda x: np.sum(np.sin(x))))(x)
    np.testing.assert_array_equal(REGISTRY["sin"].impl(x), fg.jit(np.sin)(x))
    np.testing.assert_array_equal(g_eager, g_jit)
    # ``eager`` is NumPy's own functions, each within 1 ulp of the vector maths (on an
    # AVX-512 machine NumPy's differ more often): a few ulps of the two terms, which
    # cancel where they are close (a relative bound on the sum fails there).
    terms = np.abs(np.sin(x) * np.cos(x)) + np.abs(np.tanh(x) * np.exp(-x * x))
    assert np.all(np.abs(eager - jitted) <= 4 * np.finfo(float).eps * terms)


# --- reductions -----------------------------------------------------------------------------------

AXES = st.sampled_from([(0,), (1,), (0, 1), (1, 2), (0, 2)])


def _rows_input(data, dtype, specials):
    x = draw_array(data.draw, (3, 4, 5), dtype, -20, 20)
    if specials:
        x[0, :, :] = -np.inf
        x[1, 0, 0] = np.inf
        x[2, 1, :] = np.nan
    return laid_out(x, data.draw(LAYOUTS))


@SETTINGS
@given(data=st.data(), dtype=DTYPES, axes=AXES, keepdims=st.booleans(), specials=st.booleans())
def test_logsumexp_and_its_vjp_match_numpy(numba_loops, data, dtype, axes, keepdims,
                                           specials):
    x = _rows_input(data, dtype, specials)
    with np.errstate(invalid="ignore"):
        got = reductions.logsumexp(x, axes, keepdims)
        ref = reductions._logsumexp_numpy(x, axes, keepdims)
        assert_same(got, ref, dtype)
        if specials:
            return
        g = draw_array(data.draw, ref.shape, dtype, -2, 2)
        vjp = reductions.logsumexp_vjp(g, x, ref, axes, keepdims)
        g_b, out_b = (g, ref) if keepdims else (np.expand_dims(g, axes), np.expand_dims(ref, axes))
        assert_same(vjp, (g_b * np.exp(x - out_b)).astype(dtype), dtype)


@SETTINGS
@given(data=st.data(), dtype=DTYPES, axes=AXES, keepdims=st.booleans(), ties=st.booleans(),
       kind=st.sampled_from([np.max, np.min]))
def test_max_min_vjp_splits_ties_like_the_rule(numba_loops, data, dtype, axes, keepdims,
                                                ties, kind):
    x = draw_array(data.draw, (3, 4, 5), dtype, -3, 3)
    if ties:
        x = np.round(x)
    x = laid_out(x, data.draw(LAYOUTS))
    out = kind(x, axis=axes, keepdims=keepdims)
    g = draw_array(data.draw, out.shape, dtype, -2, 2)
    got = reductions.extremum_vjp(g, x, out, axes, keepdims)
    hit = (x == kind(x, axis=axes, keepdims=True)).astype(dtype)
    g_b = g if keepdims else np.expand_dims(g, axes)
    assert_same(got, (g_b * hit / hit.sum(axis=axes, keepdims=True)).astype(dtype), dtype)


def test_max_vjp_of_a_nan_slice_is_nan_like_the_rule(numba_loops):
    x = np.array([[1.0, np.nan], [2.0, 3.0]])
    got = reductions.extremum_vjp(np.ones(2), x, np.max(x, axis=1), (1,), False)
    assert np.isnan(got[0]).all() and np.array_equal(got[1], [0.0, 1.0])


# --- scatter-add ------------------------------------------------------------------------------

@SETTINGS
@given(data=st.data(), dtype=DTYPES, rows=st.integers(1, 6), width=st.integers(0, 4),
       n=st.integers(0, 20), two_arrays=st.booleans(), scalar_update=st.booleans())
def test_index_add_matches_add_at(numba_loops, data, dtype, rows, width, n, two_arrays,
                                  scalar_update):
    shape = (rows, width + 1, 3)
    out = np.zeros(shape, dtype)
    i = np.array(data.draw(st.lists(st.integers(-rows, rows - 1), min_size=n, max_size=n)),
                 np.int64)
    idx = (i,)
    if two_arrays:
        j = np.array(data.draw(st.lists(st.integers(-width - 1, width), min_size=n,
                                        max_size=n)), np.intp)
        idx = (i, j)
    upd_shape = (n,) + shape[len(idx):]
    upd = 1.25 if scalar_update else draw_array(data.draw, upd_shape, dtype, -2, 2)
    ref = out.copy()
    np.add.at(ref, idx, upd)
    got = cpu.index_add(out, idx, upd)
    assert got is out
    np.testing.assert_allclose(got, ref, rtol=1e-6)


def test_index_add_checks_bounds_before_the_kernel(numba_loops):
    out = np.zeros((4, 3))
    for bad in ([0, 4], [-5, 1]):
        with pytest.raises(IndexError, match="out of bounds for axis 0 with size 4"):
            cpu.index_add(out, (np.array(bad),), 1.0)
    assert not out.any()


def test_index_add_falls_back_for_other_indices(numba_loops):
    out = np.zeros((4, 5))
    idx = (slice(None), np.array([0, 0, 4]))
    ref = out.copy()
    np.add.at(ref, idx, 1.0)
    np.testing.assert_array_equal(cpu.index_add(out, idx, 1.0), ref)


# --- dispatch, threads, end to end ---------------------------------------------------------------

def test_parallel_loop_matches_serial(monkeypatch):
    monkeypatch.setattr(_lazy.config, "numba_min", 0)
    monkeypatch.setattr(_lazy.config, "parallel_min", 0)
    monkeypatch.setattr(_lazy.config, "threads", 2)
    x = np.linspace(-3, 3, 1001)
    g = np.broadcast_to(2.0, x.shape)
    tanh_vjp = REGISTRY["tanh"].elementwise.fused_vjp(0, g, (x,), np.tanh(x))
    np.testing.assert_allclose(tanh_vjp, 2.0 * (1 - np.tanh(x) ** 2), rtol=1e-14)
    sin = cpu.vector_forward(forward_kernel(REGISTRY["sin"]), np.sin)
    np.testing.assert_allclose(sin(x), np.sin(x), rtol=0, atol=4.5e-16)


def test_set_num_threads_validates(monkeypatch):
    monkeypatch.setattr(_lazy.config, "threads", _lazy.config.threads)
    fg.set_num_threads(1)
    assert fg.get_num_threads() == 1
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="positive integer"):
            fg.set_num_threads(bad)


def test_warmup_rejects_other_dtypes():
    with pytest.raises(ValueError, match="float32 or float64"):
        fg.warmup(dtypes=("int32",))


def test_integers_and_mixed_dtypes_take_the_rule():
    x = np.arange(5)
    assert REGISTRY["sin"].impl(x).dtype == np.sin(x).dtype
    g = np.ones(5, np.float32)
    assert REGISTRY["tanh"].elementwise.fused_vjp(0, g, (x,), np.tanh(x)) is None
    got = fg.grad(lambda x: np.sum(np.tanh(x)))(np.arange(5.0, dtype=np.float32))
    assert got.dtype == np.float32


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_w4_gradient_on_the_kernel_path(dtype):
    x = np.linspace(-3, 3, 2 * _lazy.config.numba_min + 3, dtype=dtype)

    def f(v):
        return np.sum(np.exp(np.sin(v)) * np.cos(v) ** 2 + np.sqrt(1 + v * v))

    got = fg.grad(f)(x)
    xd = x.astype(np.float64)
    s, c = np.sin(xd), np.cos(xd)
    want = np.exp(s) * c * (c * c - 2 * s) + xd / np.sqrt(1 + xd * xd)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-12,
                               atol=1e-5 if dtype == np.float32 else 1e-12)


def test_gather_vjp_accumulates_repeated_rows():
    table = np.arange(12.0 * 400).reshape(12, 400)
    idx = np.array([0, 3, 3, -1, 0, 0] * 3)
    got = fg.grad(lambda t: np.sum(t[idx] * 2.0))(table)
    want = np.zeros_like(table)
    np.add.at(want, idx, 2.0)
    np.testing.assert_array_equal(got, want)


def test_logsumexp_and_logaddexp_grads_on_the_kernel_path():
    import funcgrad.numpy as fnp
    rng = np.random.default_rng(0)
    x, w = rng.normal(size=(64, 100)), rng.normal(size=(64, 100))
    got = fg.grad(lambda v: np.sum(fnp.logsumexp(v, axis=1)))(x)
    soft = np.exp(x - np.log(np.sum(np.exp(x), axis=1, keepdims=True)))
    np.testing.assert_allclose(got, soft, rtol=1e-13)
    got = fg.grad(lambda v: np.sum(np.logaddexp(v, w)))(x)
    np.testing.assert_allclose(got, 1 / (1 + np.exp(w - x)), rtol=1e-13)
    got = fg.grad(lambda v: np.sum(np.maximum(v, 0.0)))(x)
    np.testing.assert_array_equal(got, (x > 0).astype(float))


def test_parallel_sin_recomputes_unreducible_arguments(monkeypatch):
    monkeypatch.setattr(_lazy.config, "numba_min", 0)
    monkeypatch.setattr(_lazy.config, "parallel_min", 0)
    monkeypatch.setattr(_lazy.config, "threads", 2)
    x = np.linspace(-3, 3, 2001)
    bad = [5, 1700]
    x[bad] = [np.nan, 1e20]
    with np.errstate(invalid="ignore"):
        got = cpu.vector_forward(forward_kernel(REGISTRY["sin"]), np.sin)(x)
        vjp = REGISTRY["cos"].elementwise.fused_vjp(0, np.ones_like(x), (x,), None)
    np.testing.assert_array_equal(got[bad], np.sin(x[bad]))
    np.testing.assert_allclose(got, np.sin(x), rtol=0, atol=4.5e-16, equal_nan=True)
    np.testing.assert_array_equal(vjp[bad], -np.sin(x[bad]))
    np.testing.assert_allclose(vjp, -np.sin(x), rtol=0, atol=4.5e-16, equal_nan=True)


@pytest.mark.parametrize("threads", [1, 2])
def test_flat_loops_report_floating_point_errors_as_the_ufunc_does(monkeypatch, threads):
    """A large array's kernel (the flat loop, serial or on threads) reports the errors its
    arithmetic raised as the ufunc of a small array does: the backward of sqrt at 0
    warns naming its node, raises under np.errstate(divide="raise"), is silent under
    "ignore"; a call without errors reports nothing, whatever a call before it raised."""
    import warnings
    monkeypatch.setattr(_lazy.config, "parallel_min", 0 if threads > 1 else 1 << 62)
    monkeypatch.setattr(_lazy.config, "threads", threads)
    grad = fg.grad(lambda v: fnp.sum(fnp.sqrt(v)))  # (its cotangent: a broadcast scalar)
    for n in (8, 3 * _lazy.config.numba_min + 5):
        x = np.linspace(0.0, 2.0, n)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = grad(x)
        with np.errstate(divide="ignore"):
            assert got.tobytes() == (1.0 / (np.sqrt(x) * 2.0)).tobytes()  # (the rule's)
        assert [str(w.message) for w in seen] == [
            "divide by zero encountered in the backward of SqrtBackward0"], n
        with np.errstate(divide="raise"), pytest.raises(FloatingPointError, match="divide"):
            grad(x)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            with np.errstate(divide="ignore"):
                grad(x)
            grad(x + 1.0)
        assert not seen, n


def _quotient1(a):
    return 1.0 / a


def _quotient2(a, b):
    return a / b


def _quotient3(a, b, c):
    return a / b + c


def _quotient4(a, b, c, d):
    return a / b + c * d


def _quotient5(a, b, c, d, e):
    return a / b + c * d - e


@pytest.mark.parametrize("nin", [1, 2, 3, 4, 5])
def test_flat_loops_of_every_arity_return_the_flags_of_any_chunk(nin):
    """The serial and the parallel flat loop give the same bits and return the status
    flags raised anywhere (here a division by zero near the end: the last chunk's)."""
    from funcgrad.kernels.cpu import _fpstatus, _loops
    if not _fpstatus.FLAGS:
        pytest.skip("no floating-point flags known for this CPU architecture")
    fn = (_quotient1, _quotient2, _quotient3, _quotient4, _quotient5)[nin - 1]
    n = 3 * 16384 + 7
    args = [np.linspace(0.5, 2.0, n) for _ in range(nin)]
    args[min(nin, 2) - 1][n - 3] = 0.0  # (the divisor)
    if nin > 1:
        args[0] = 1.5  # a broadcast scalar
    results = []
    for parallel in (False, True):
        loop, out = _loops.flat_map(fn, nin, parallel), np.empty(n)
        bad, flags = loop(*args, out)
        results.append(out)
        assert bad == 0 and _fpstatus.kinds(flags) == {"divide by zero"}, parallel
        clean = [a[:-4] if type(a) is np.ndarray else a for a in args]
        assert loop(*clean, np.empty(n - 4)) == (0, 0)
    assert results[0].tobytes() == results[1].tobytes()


@pytest.mark.parametrize("name", ["add", "subtract", "multiply"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_loop_binary_matches_numpy(numba_loops, name, dtype):
    """The row loop (row-broadcast or strided 2-d operands) gives NumPy's bits, dtype and
    shape, and every other layout falls through to NumPy."""
    rng = np.random.default_rng(3)
    big = rng.normal(size=(6, 9)).astype(dtype)
    a, v, r = big[:, 1:], rng.normal(size=8).astype(dtype), rng.normal(size=(1, 8)).astype(dtype)
    c = np.ascontiguousarray(big[:, :-1])
    cases = [(c, v), (v, c), (a, c), (c, a), (a, v), (r, c), (c, r), (a, 2.5), (3, a),
             (c.T, v[:6]), (c, c), (c, 2.0), (c, v.astype(np.float64)), (big[:, ::2], v[:5]),
             (c[::-1], v), (c[:, :1], v), (np.ones((1, 8), dtype), v), (c, np.float64(2.0)),
             (rng.normal(size=(2, 6, 8)).astype(dtype), v)]
    fn, ref = getattr(cpu, name), getattr(np, name)
    for x, y in cases:
        got, want = fn(x, y), ref(x, y)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_add_window_matches_numpy(numba_loops, dtype):
    rng = np.random.default_rng(4)
    x = rng.normal(size=(7, 9)).astype(dtype)
    for (r0, c0), (p, q) in [((0, 1), (7, 8)), ((2, 3), (4, 5)), ((0, 0), (0, 3)),
                             ((6, 8), (1, 1))]:
        u = rng.normal(size=(p, q)).astype(dtype)
        want = x.copy()
        want[r0:r0 + p, c0:c0 + q] += u
        got = cpu.add_window(x, u, r0, c0)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    assert cpu.add_window(x, np.ones((8, 1), dtype), 0, 0) is None  # does not fit
    assert cpu.add_window(x, np.ones((2, 2), np.float64 if dtype == np.float32
                                     else np.float32), 0, 0) is None


def test_every_fused_rule_builds_or_declines_for_warmup():
    """``fg.warmup`` (and ``python -m funcgrad.warmup``, run by ``make demo``) asks every
    elementwise primitive for its fused rules in float64 and float32: each is a kernel or
    None, never an error (sph_harm_y's theta rule, which calls sph_harm_y on the integer
    orders n and m + 1, raised TypeError from SciPy and stopped the warmup)."""
    pytest.importorskip("scipy")
    from funcgrad.core import REGISTRY
    from funcgrad.primitives.special_scipy import sph_harm_y_p
    asked = 0
    for prim in list(REGISTRY.values()):
        decl = prim.elementwise
        if decl is None or not prim.differentiable:
            continue
        for dt in (np.dtype(np.float64), np.dtype(np.float32)):
            for i in range(len(decl.lins)):
                decl.fused_rule(i, dt)
                asked += 1
    assert sph_harm_y_p.elementwise.fused_rule(2, np.dtype(np.float64)) is None
    assert asked > 200


def test_a_generated_ufunc_builds_its_float32_loop_for_the_arguments_numpy_sends_there():
    # (a float64 call builds the float64 loop alone: each loop of the incomplete gamma
    # function took seconds to compile; the float32 one follows with the first call that
    # NumPy's loop choice would send to it)
    from funcgrad.primitives import _elementwise_kernels as ek
    from funcgrad.primitives.incomplete import gammainc_p
    x32 = np.linspace(0.5, 3.0, 5, dtype=np.float32)
    assert gammainc_p.impl(np.float32(1.5), x32).dtype == np.float32
    ufunc = gammainc_p.elementwise._forward
    assert sorted(ufunc.types) == ["dd->d", "ff->f"]
    for args in [(1.5, x32), (1.5, x32.astype(np.float64)), (np.float64(1.5), x32),
                 (np.int16(2), x32.astype(np.float16)), (2, 3.0), (1.5, np.arange(3)),
                 (True, False), (np.int8(1), 2.5), (np.int8(1), 3), (np.float16(1), 2.5),
                 (x32, np.int32(2)), (np.uint16(3), x32), (np.array(1.5), x32)]:
        with np.errstate(all="ignore"):
            picked = ufunc(*args).dtype
        assert ek._float32_loop(args) == (picked == np.float32), (args, picked)

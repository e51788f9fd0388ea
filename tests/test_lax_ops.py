"""``fg.lax``'s operations equal ``jax.lax``'s: values, dtypes and shapes (JAX on the CPU,
64-bit), including JAX's semantics where they differ from NumPy's (C integer division,
saturating conversion, clamped dynamic slices, NaN order); their derivatives agree with
central differences and pass the dot-product test; they work under ``jit`` and ``vmap``
(traced start indices, traced integers for the bitwise operations); and misuse is a clear
error, as in JAX."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import lax
from helpers import assert_same, check_dot_product, check_jvp_fd, check_second_order

pytestmark = pytest.mark.usefixtures("fresh_jit_cache")


def _is_static(a):
    """Arguments that fix a computation rather than feed it (a dtype, an int exponent, a
    shape, a padding configuration)."""
    if isinstance(a, (list, tuple)):
        return all(_is_static(e) for e in a)
    return isinstance(a, (type, int, float, bool, str)) or a is None or callable(a)


def jax_values(jlax, cases):
    """``jax.lax.<name>(*args)`` of every ``(name, args)`` case, computed in one compiled
    JAX program (one compilation instead of one per operation and shape); the arrays are
    its arguments, not constants, so nothing is folded at compile time."""
    import jax
    cases = [(name, args(jlax) if callable(args) else args) for name, args in cases]
    arrays = [[a for a in args if not _is_static(a)] for _, args in cases]

    def run(arrays):
        out = []
        for (name, args), given in zip(cases, arrays):
            it = iter(given)
            out.append(getattr(jlax, name)(*[a if _is_static(a) else next(it) for a in args]))
        return out
    return [fg.tree.tree_map(np.asarray, o) for o in jax.jit(run)(arrays)]


RNG = np.random.default_rng(0)
X = np.array([-2.5, -0.7, 0.0, 0.3, 1.5, 2.5])
Y = np.array([1.5, -2.0, 0.5, 0.3, -1.0, 2.5])
POS = np.array([0.2, 0.5, 1.3, 2.0, 3.7])
UNIT = np.array([-0.9, -0.3, 0.0, 0.4, 0.8])
ABOVE1 = np.array([1.2, 2.0, 3.5])
I = np.array([7, -7, 7, -7, 0, 12, -12, 5])
J = np.array([2, 2, -2, -2, 5, 5, 5, 0])
Z = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j])
X32 = X.astype(np.float32)
I32 = np.array([1, 3, -1, -8, 8, 2 ** 30, -2 ** 31, 7], np.int32)
S32 = np.array([3, 40, 1, 1, 31, 2, 0, -1], np.int32)
U8 = np.array([0, 1, 128, 255, 64, 7], np.uint8)
SU8 = np.array([1, 0, 1, 7, 8, 3], np.uint8)
B = np.array([True, False, True, False])
C = np.array([True, True, False, False])

# --- elementwise: values and dtypes against jax.lax ------------------------------------------

ELEMENTWISE = [
    ("add", (X, Y)), ("add", (X32, X32)), ("add", (I, J)), ("add", (X, 1.5)),
    ("sub", (X, Y)), ("mul", (X, Y)), ("mul", (Z, Z)),
    ("div", (X, Y)), ("div", (I, J)), ("div", (np.array([-2 ** 63, 5]), np.array([-1, 0]))),
    ("div", (U8, np.array([2, 0, 3, 5, 1, 2], np.uint8))), ("div", (Z, Z[::-1])),
    ("rem", (X, Y)), ("rem", (I, J)), ("rem", (np.array([-2 ** 63, 5]), np.array([-1, 0]))),
    ("rem", (U8, np.array([2, 0, 3, 5, 1, 2], np.uint8))),
    ("neg", (X,)), ("neg", (U8,)), ("abs", (X,)), ("abs", (I,)), ("abs", (Z,)),
    ("sign", (X,)), ("sign", (I,)), ("sign", (Z,)),
    ("floor", (X,)), ("ceil", (X,)),
    ("round", (np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999999999999994, -0.2, np.nan]),)),
    ("round", (np.array([0.5, 1.5, 2.5, -0.5, -2.5, 3.7, np.inf]), 1)),
    ("integer_pow", (X, 3)), ("integer_pow", (POS, -2)), ("integer_pow", (I, 2)),
    ("integer_pow", (X, 0)), ("pow", (POS, Y[:5])), ("pow", (X, np.array([2, 3, 1, 0, 2, 3]))),
    ("pow", (Z, Z)), ("square", (X,)), ("reciprocal", (POS,)),
    ("exp", (X,)), ("exp", (Z,)), ("exp2", (X,)), ("expm1", (X,)), ("log", (POS,)),
    ("log", (Z,)), ("log1p", (POS,)), ("sqrt", (POS,)), ("rsqrt", (POS,)), ("cbrt", (X,)),
    ("sin", (X,)), ("cos", (X,)), ("tan", (X,)), ("asin", (UNIT,)), ("acos", (UNIT,)),
    ("atan", (X,)), ("sinh", (X,)), ("cosh", (X,)), ("tanh", (X,)), ("asinh", (X,)),
    ("acosh", (ABOVE1,)), ("atanh", (UNIT,)), ("logistic", (X,)), ("logistic", (Z,)),
    ("erf", (X,)), ("erfc", (X,)), ("erf_inv", (UNIT,)), ("lgamma", (POS,)),
    ("digamma", (POS,)), ("is_finite", (np.array([1.0, np.inf, -np.inf, np.nan]),)),
    ("atan2", (X, Y)), ("nextafter", (X, Y)), ("nextafter", (X32, X32[::-1])),
    ("max", (X, Y)), ("min", (X, Y)), ("max", (np.array([np.nan, 1.0]), np.array([0.0, np.nan]))),
    ("max", (I, J)), ("min", (B, C)),
    ("clamp", (0.0, X, 1.0)), ("clamp", (np.zeros(6), X, np.full(6, 1.0))),
    ("clamp", (1.0, X, 0.0)), ("clamp", (np.int64(-3), I, np.int64(4))),
    ("real", (Z,)), ("imag", (Z,)), ("conj", (Z,)), ("conj", (X,)), ("complex", (X, Y)),
    ("complex", (X32, X32)),
    ("eq", (X, Y)), ("ne", (I, J)), ("lt", (X, Y)), ("le", (X, 0.0)), ("gt", (I, J)),
    ("ge", (X, Y)), ("eq", (B, C)),
    ("convert_element_type", (np.array([1.7, -1.7, 1e20, -1e20, np.inf, -np.inf, np.nan,
                                        9.3e18]), np.int64)),
    ("convert_element_type", (np.array([1e20, -1.5, np.inf, 255.7, 256.0, np.nan]), np.uint8)),
    ("convert_element_type", (np.array([3e9, -3e9, 2.5], np.float32), np.int32)),
    ("convert_element_type", (np.array([1.5 + 2j]), np.int32)),
    ("convert_element_type", (np.array([1.5 + 2j]), np.float32)),
    ("convert_element_type", (np.array([300, -1]), np.uint8)),
    ("convert_element_type", (np.array([np.nan, 0.0, -0.0]), np.bool_)),
    ("convert_element_type", (X, np.float32)), ("convert_element_type", (I, np.complex64)),
    ("bitwise_and", (I, J)), ("bitwise_or", (I, J)), ("bitwise_xor", (I, J)),
    ("bitwise_and", (U8, SU8)), ("bitwise_or", (B, C)), ("bitwise_xor", (B, C)),
    ("bitwise_not", (I,)), ("bitwise_not", (U8,)), ("bitwise_not", (B,)),
    ("shift_left", (I32, S32)), ("shift_left", (U8, SU8)),
    ("shift_right_logical", (I32, S32)), ("shift_right_logical", (U8, SU8)),
    ("shift_right_arithmetic", (I32, S32)), ("shift_right_arithmetic", (U8, SU8)),
    ("population_count", (I32,)), ("population_count", (I,)), ("population_count", (U8,)),
    ("bitcast_convert_type", (X32, np.int32)), ("bitcast_convert_type", (X, np.int32)),
    ("bitcast_convert_type", (np.array([[1, 2]], np.int32), np.int64)),
]


def _id(case):
    name, args = case
    return name + "-" + "-".join(str(np.asarray(a).dtype) for a in args
                                 if not isinstance(a, type))


@pytest.fixture(scope="module")
def elementwise_jax(jlax):
    return jax_values(jlax, ELEMENTWISE)


@pytest.mark.parametrize("k", range(len(ELEMENTWISE)), ids=[_id(c) for c in ELEMENTWISE])
def test_elementwise_equals_jax(k, elementwise_jax):
    name, args = ELEMENTWISE[k]
    assert_same(getattr(lax, name)(*args), elementwise_jax[k], what=name)


# Integer and boolean operations on traced values (under vmap and jit funcgrad computes
# them by arithmetic, not NumPy): the same results as on plain arrays, so as JAX's.
TRACED_INTEGER = [k for k, (name, args) in enumerate(ELEMENTWISE) if name in {
    "div", "rem", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "shift_left",
    "shift_right_logical", "shift_right_arithmetic", "population_count", "max", "eq"}
    and np.asarray(args[0]).dtype.kind in "iub"]


@pytest.mark.parametrize("k", TRACED_INTEGER, ids=[_id(ELEMENTWISE[k]) for k in TRACED_INTEGER])
def test_integer_operations_on_traced_values_equal_jax(k, elementwise_jax):
    name, args = ELEMENTWISE[k]
    f = getattr(lax, name)
    batched = fg.vmap(lambda *a: f(*a))(*[np.asarray(a)[:, None] for a in args])
    assert_same(batched[:, 0], elementwise_jax[k], what=f"vmap {name}")


def test_integer_operations_and_conversions_compile_under_jit():
    # where compiled integer arithmetic differs from NumPy's (min // -1, float-to-int casts
    # out of range): the values XLA gives, as eagerly
    x, y = np.array([-2 ** 63, 5, -7, 7]), np.array([-1, 0, 2, -2])
    f = np.array([1.7, -1.7, 1e20, -1e20, np.inf, np.nan, 9.3e18])

    def g(x, y, f):
        return lax.div(x, y), lax.rem(x, y), lax.convert_element_type(f, np.int64)
    assert_same(fg.jit(g)(x, y, f), g(x, y, f))
    np.testing.assert_array_equal(g(x, y, f)[0], [-2 ** 63, -1, -3, -3])


# --- elementwise: derivatives -----------------------------------------------------------------

DIFFERENTIABLE = [
    ("add", (X, Y)), ("sub", (X, Y)), ("mul", (X, Y)), ("div", (X, Y)),
    ("rem", (X, Y + 0.13)), ("neg", (X,)), ("abs", (X,)), ("integer_pow", (X, 3)),
    ("integer_pow", (POS, -2)),
    ("pow", (POS, Y[:5])), ("square", (X,)), ("reciprocal", (POS,)), ("exp", (X,)),
    ("exp2", (X,)), ("expm1", (X,)), ("log", (POS,)), ("log1p", (POS,)), ("sqrt", (POS,)),
    ("rsqrt", (POS,)), ("cbrt", (X + 0.05,)), ("sin", (X,)), ("cos", (X,)), ("tan", (X,)),
    ("asin", (UNIT,)), ("acos", (UNIT,)), ("atan", (X,)), ("sinh", (X,)), ("cosh", (X,)),
    ("tanh", (X,)), ("asinh", (X,)), ("acosh", (ABOVE1,)), ("atanh", (UNIT,)),
    ("logistic", (X,)), ("erf", (X,)), ("erfc", (X,)), ("erf_inv", (UNIT,)),
    ("lgamma", (POS,)), ("digamma", (POS,)), ("atan2", (X, Y)), ("max", (X, Y)),
    ("min", (X, Y)), ("clamp", (np.full(6, -1.0), X, np.full(6, 2.0))),
    ("nextafter", (X, Y)), ("convert_element_type", (X, np.float32)),
]


@pytest.mark.parametrize("case", DIFFERENTIABLE, ids=[_id(c) for c in DIFFERENTIABLE])
def test_elementwise_derivatives_match_finite_differences(case):
    name, args = case
    op = getattr(lax, name)
    statics = [a for a in args if isinstance(a, (int, type))]
    arrays = [a for a in args if not isinstance(a, (int, type))]
    assert all(isinstance(a, np.ndarray) for a in arrays)

    def f(*xs):
        it = iter(xs)
        return op(*[a if isinstance(a, (int, type)) else next(it) for a in args])
    if statics and statics[0] is np.float32:  # (the float32 result differs at 1e-7)
        fg_grad = fg.grad(lambda x: fnp.sum(f(x) * 2.0))(X)
        np.testing.assert_array_equal(fg_grad, np.full_like(X, 2.0))
        return
    check_jvp_fd(f, arrays)
    check_dot_product(f, arrays)


def test_complex_and_real_parts_differentiate(jlax):
    import jax
    re, im = np.array([0.3, -1.2]), np.array([0.7, 0.4])

    def f(a, b):
        z = lax.complex(a, b)
        return lax.real(lax.mul(z, lax.conj(lax.exp(z)))) + lax.imag(lax.sin(z))

    def fj(a, b):
        z = jlax.complex(a, b)
        return jlax.real(jlax.mul(z, jlax.conj(jlax.exp(z)))) + jlax.imag(jlax.sin(z))

    check_jvp_fd(f, [re, im])
    check_dot_product(f, [re, im])
    g = fg.grad(lambda a, b: fnp.sum(f(a, b)), argnums=(0, 1))(re, im)
    gj = jax.jit(jax.grad(lambda a, b: fj(a, b).sum(), argnums=(0, 1)))(re, im)
    assert_same(g, gj)


def test_clamp_and_max_derivatives_at_ties_are_jax_s(jlax):
    import jax
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.0])
    def functions(L):
        return [lambda v: L.clamp(0.0, v, 1.0), lambda v: L.max(v, 0.5),
                lambda v: L.min(v, 0.5)]
    want = jax.jit(lambda v: [jax.grad(lambda u: f(u).sum())(v) for f in functions(jlax)])(x)
    for f, w in zip(functions(lax), want):
        assert_same(fg.grad(lambda v: fnp.sum(f(v)))(x), np.asarray(w))
    # the bounds' derivatives: where x is beyond them
    lo = fg.grad(lambda a: fnp.sum(lax.clamp(a, x, np.full(5, 1.0))))(np.full(5, 0.0))
    np.testing.assert_array_equal(lo, [1.0, 0.0, 0.0, 0.0, 0.0])
    # min > max: the value is max everywhere, so max takes the whole derivative
    hi = fg.grad(lambda b: fnp.sum(lax.clamp(np.full(5, 3.0), x, b)))(np.full(5, 1.0))
    np.testing.assert_array_equal(hi, np.ones(5))


def test_elementwise_float32_stays_float32():
    for name in ("exp", "sin", "logistic", "erf", "rsqrt", "lgamma"):
        out = getattr(lax, name)(np.abs(X32) + np.float32(0.5))
        assert out.dtype == np.float32, name
    assert fg.grad(lambda x: fnp.sum(lax.tanh(x)))(X32).dtype == np.float32
    assert lax.clamp(np.float32(0), X32, np.float32(1)).dtype == np.float32


def test_elementwise_second_order():
    check_second_order(lambda x, y: lax.mul(lax.sin(x), lax.logistic(y)), [X, Y])
    check_second_order(lambda x: lax.integer_pow(lax.rsqrt(x), 3), [POS])


def test_elementwise_under_jit_and_vmap():
    f = lambda x, y: lax.atan2(lax.exp(x), lax.add(y, 3.0))  # noqa: E731
    np.testing.assert_allclose(fg.jit(f)(X, Y), f(X, Y), rtol=1e-13)
    xs = RNG.standard_normal((3, 6))
    np.testing.assert_allclose(fg.vmap(f, in_axes=(0, None))(xs, Y),
                               np.stack([f(x, Y) for x in xs]), rtol=1e-13)
    g = fg.jit(fg.grad(lambda x: fnp.sum(lax.round(x) * lax.erf(x))))(X)
    np.testing.assert_allclose(g, lax.round(X) * 2 / np.sqrt(np.pi) * np.exp(-X ** 2),
                               rtol=1e-12)


def test_bitcast_of_a_scalar_keeps_jaxs_shapes():
    # a 0-d operand stays 0-d at equal widths (NumPy's ascontiguousarray made it 1-d)
    out = lax.bitcast_convert_type(np.float32(1.0), np.int32)
    assert out.shape == () and out == np.float32(1.0).view(np.int32)
    assert lax.bitcast_convert_type(np.array(1.0), np.int32).shape == (2,)
    assert lax.bitcast_convert_type(np.array([1, 2], np.int32), np.float64).shape == ()


def test_incomplete_gamma_beta_zeta_polygamma_and_scaled_bessel_are_scipys():
    special = pytest.importorskip("scipy.special")
    a, x = np.array([0.5, 2.0, 3.5]), np.array([0.3, 1.5, 4.0])
    for got, want in [(lax.igamma(a, x), special.gammainc(a, x)),
                      (lax.igammac(a, x), special.gammaincc(a, x)),
                      (lax.zeta(a + 1.5, x), special.zeta(a + 1.5, x)),
                      (lax.betainc(a, a + 1, x / 5), special.betainc(a, a + 1, x / 5)),
                      (lax.bessel_i0e(x), special.i0e(x)), (lax.bessel_i1e(x), special.i1e(x))]:
        np.testing.assert_allclose(got, want, rtol=1e-12)
    for m in (0, 1, 2, 3):
        np.testing.assert_allclose(lax.polygamma(np.full(3, float(m)), x),
                                   special.polygamma(m, x), rtol=1e-12)
        # d/dx polygamma(m, x) = polygamma(m + 1, x)
        g = fg.grad(lambda v: fnp.sum(lax.polygamma(np.full(3, float(m)), v)))(x)
        np.testing.assert_allclose(g, special.polygamma(m + 1, x), rtol=1e-10)
    assert np.isnan(lax.polygamma(np.array([1.5, -1.0]), np.array([2.0, 2.0]))).all()
    # d/dx P(a, x) is the gamma density x^(a-1) e^-x / Gamma(a)
    g = fg.grad(lambda v: fnp.sum(lax.igamma(a, v)))(x)
    np.testing.assert_allclose(g, x ** (a - 1) * np.exp(-x) / special.gamma(a), rtol=1e-12)
    with pytest.raises(TypeError, match="lax.igamma requires arguments to have the same "
                                        "dtypes"):
        lax.igamma(np.float32(2.0), 1.5)


@pytest.mark.parametrize("call, message", [
    (lambda: lax.add(X32, X), "lax.add requires arguments to have the same dtypes, got "
                              "float32, float64"),
    (lambda: lax.add(np.ones(3, np.int32), 1), "same dtypes"),
    (lambda: lax.mul(np.ones(3), np.ones(2)), "incompatible shapes"),
    (lambda: lax.sin(I), "lax.sin does not accept dtype int64"),
    (lambda: lax.floor(I), "does not accept dtype int64"),
    (lambda: lax.integer_pow(I, -1), "Integers cannot be raised to negative powers"),
    (lambda: lax.clamp(np.zeros(2), X, 1.0), "clamp requires min.shape == operand.shape"),
    (lambda: lax.real(X), "does not accept dtype float64"),
    (lambda: lax.bitwise_and(X, X), "does not accept dtype float64"),
    (lambda: fg.jit(lambda x: lax.bitcast_convert_type(x, np.int64))(X),
     "bitcast_convert_type depends on the values"),
    (lambda: fg.grad(lambda x: fnp.sum(lax.bitcast_convert_type(x, np.float32)))(X),
     "has no derivative"),
])
def test_misuse_is_a_clear_error(call, message):
    with pytest.raises((TypeError, ValueError, fg.ConcretizationError), match=message):
        call()


# --- structural and dynamic slicing: values against jax.lax -----------------------------------

M = np.arange(12.0).reshape(3, 4) - 5.5
V = np.arange(1.0, 6.0)
STRUCTURAL = [
    ("select", (M > 0, M, -M)), ("select", (True, M, -M)),
    ("select_n", (np.array([[0, 1, 2, 5]] * 3), M, -M, 2 * M)),
    ("select_n", (M > 0, M, -M)), ("select_n", (np.int32(1), M, -M)),
    ("slice", (M, [0, 1], [3, 4], [2, 2])), ("slice", (V, [1], [4])),
    ("slice_in_dim", (V, -3, None)), ("slice_in_dim", (M, 1, 3, 1, 1)),
    ("index_in_dim", (M, -1, 1)), ("index_in_dim", (M, 1, 0, False)),
    ("pad", (V, 0.5, [(1, 2, 1)])), ("pad", (V, -1.0, [(-1, -2, 2)])),
    ("pad", (V, 0.0, [(-3, 0, 1)])), ("pad", (M, 9.0, [(0, -1, 1), (2, -3, 0)])),
    ("pad", (np.zeros((0, 2)), 1.0, [(1, 1, 3), (0, 0, 0)])),
    ("concatenate", ([M, -M[:1]], 0)), ("concatenate", ([M, M[:, :1]], 1)),
    ("reshape", (M, (4, 3))), ("reshape", (M, (2, 6), (1, 0))),
    ("transpose", (M[:, :, None], (2, 0, 1))), ("broadcast", (V, (2, 1))),
    ("broadcast_in_dim", (V, (2, 5, 3), (1,))), ("broadcast_in_dim", (M[:1], (2, 3, 4), (1, 2))),
    ("squeeze", (M[None, :, None], (0, -2))), ("expand_dims", (M, (0, 3))),
    ("rev", (M, (0, 1))), ("rev", (M, ())), ("iota", (np.int32, 4)),
    ("broadcasted_iota", (np.float32, (2, 3), 0)), ("full", ((2, 3), 1.5)),
    ("full", ((2,), 3.7, np.int32)), ("full_like", (M, -1.0)),
    ("full_like", (np.ones(2, np.int32), 3.7)), ("full_like", (M, 2, np.float32, (2,))),
    ("collapse", (M[:, :, None], 0, 2)), ("collapse", (M[:, :, None], 1)),
    ("dynamic_slice", (M, (1, 2), (2, 2))), ("dynamic_slice", (M, (5, -7), (2, 3))),
    ("dynamic_slice", (M, (-1, -2), (1, 2))),
    ("dynamic_update_slice", (M, -np.ones((2, 2)), (2, 3))),
    ("dynamic_update_slice", (M, -np.ones((1, 3)), (-1, -1))),
    ("dynamic_slice_in_dim", (M, 2, 2, 1)), ("dynamic_slice_in_dim", (V, -9, 2)),
    ("dynamic_index_in_dim", (M, 2, 1, False)), ("dynamic_index_in_dim", (M, 7)),
    ("dynamic_update_slice_in_dim", (M, np.zeros((3, 2)), 3, 1)),
    ("dynamic_update_index_in_dim", (M, np.zeros(4), -1, 0)),
    ("dynamic_update_index_in_dim", (M, np.zeros((3, 1)), 1, 1)),
]


@pytest.fixture(scope="module")
def structural_jax(jlax):
    return jax_values(jlax, STRUCTURAL)


@pytest.mark.parametrize("k", range(len(STRUCTURAL)),
                         ids=[c[0] for c in STRUCTURAL])
def test_structural_equals_jax(k, structural_jax):
    name, args = STRUCTURAL[k]
    assert_same(getattr(lax, name)(*args), structural_jax[k], what=name)


def test_dynamic_slices_take_traced_starts_and_clamp_them(jlax):
    starts = [(-9, 0), (-1, 1), (0, 2), (1, 3), (2, 9)]
    want = [np.asarray(jlax.dynamic_slice(M, s, (2, 2))) for s in starts]
    f = fg.jit(lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 2)))
    for s, w in zip(starts, want):
        np.testing.assert_array_equal(f(M, *s), w)
    rows, cols = np.array([s[0] for s in starts]), np.array([s[1] for s in starts])
    np.testing.assert_array_equal(
        fg.vmap(lambda i, j: lax.dynamic_slice(M, (i, j), (2, 2)))(rows, cols), np.stack(want))
    update = fg.vmap(lambda i: lax.dynamic_update_index_in_dim(M, -V[:4], i, 0))(rows)
    np.testing.assert_array_equal(update, np.stack(
        [np.asarray(jlax.dynamic_update_index_in_dim(M, -V[:4], int(i), 0)) for i in rows]))
    # a start given as one traced array of indices
    g = fg.vmap(lambda s: lax.dynamic_slice(M, s, (1, 3)))
    np.testing.assert_array_equal(g(np.array([[2, 5]])), np.asarray(
        jlax.dynamic_slice(M, np.array([2, 5]), (1, 3)))[None])


STRUCTURAL_DERIVATIVES = [
    ("select", lambda a, b: lax.select(M > 0, a, b), (M, -2 * M)),
    ("select_n", lambda a, b, c: lax.select_n(np.array([0, 2, 1, 2]), a, b, c), (V[:4], -V[:4],
                                                                                2 * V[:4])),
    ("pad", lambda x, v: lax.pad(x, v, [(1, -1, 1), (-1, 2, 0)]), (M, np.array(0.5))),
    ("concatenate", lambda a, b: lax.concatenate([a, b], 1), (M, M[:, :2])),
    ("reshape", lambda x: lax.reshape(x, (2, 6), (1, 0)), (M,)),
    ("broadcast_in_dim", lambda x: lax.broadcast_in_dim(x, (2, 5, 3), (1,)), (V,)),
    ("rev", lambda x: lax.rev(x, (1,)), (M,)),
    ("full", lambda v: lax.full((2, 3), v), (np.array(1.5),)),
    ("dynamic_slice", lambda x: lax.dynamic_slice(x, (1, 3), (2, 2)), (M,)),
    ("dynamic_update_slice", lambda x, u: lax.dynamic_update_slice(x, u, (2, 1)),
     (M, V[:4].reshape(2, 2))),
]


@pytest.mark.parametrize("name, f, args", STRUCTURAL_DERIVATIVES,
                         ids=[c[0] for c in STRUCTURAL_DERIVATIVES])
def test_structural_derivatives_match_finite_differences(name, f, args):
    check_jvp_fd(f, list(args))
    check_dot_product(f, list(args))


def test_dynamic_slice_derivatives_with_traced_starts_under_jit_and_vmap():
    def loss(x, i):
        u = lax.dynamic_slice_in_dim(x, i, 2, 1)
        return fnp.sum(lax.dynamic_update_slice_in_dim(x, u * u, i + 1, 1) ** 2)
    for i in (-5, 0, 1, 3):
        g = fg.grad(loss)(M, i)
        np.testing.assert_allclose(fg.jit(fg.grad(loss))(M, i), g, rtol=1e-13)
        eps, d = 1e-6, RNG.standard_normal(M.shape)
        fd = (loss(M + eps * d, i) - loss(M - eps * d, i)) / (2 * eps)
        np.testing.assert_allclose(np.sum(g * d), fd, rtol=1e-6)
    batched = fg.vmap(fg.grad(loss), in_axes=(None, 0))(M, np.array([-5, 0, 1, 3]))
    np.testing.assert_allclose(batched, np.stack([fg.grad(loss)(M, i) for i in (-5, 0, 1, 3)]))


@pytest.mark.parametrize("call, message", [
    (lambda: lax.select(M > 0, M, 0.0), "select cases must have the same shapes"),
    (lambda: lax.select(M, M, M), "must be boolean"),
    (lambda: lax.slice(V, [2], [1]), "do not fit"),
    (lambda: lax.pad(V[:3], 0.0, [(-6, 0, 1)]), "would have size -1"),
    (lambda: lax.pad(V, np.float32(0), [(1, 1, 0)]), "same dtypes"),
    (lambda: lax.reshape(M, (5, 2)), "cannot reshape"),
    (lambda: lax.broadcast_in_dim(V, (2, 3), (1,)), "cannot become axis 1"),
    (lambda: lax.squeeze(M, (0,)), "each must have size 1"),
    (lambda: lax.dynamic_slice(M, (0,), (1, 1)), "one start index per axis"),
    (lambda: lax.dynamic_slice(M, (0, 0), (4, 1)), "does not fit"),
    (lambda: fg.jit(lambda x, k: lax.dynamic_slice(x, (0, 0), (k, 1)))(M, 1),
     "must be a Python int"),
    (lambda: lax.dynamic_update_slice(M, np.ones(2), (0, 0)), "the operand's rank"),
])
def test_structural_misuse_is_a_clear_error(call, message):
    with pytest.raises((TypeError, ValueError, IndexError), match=message):
        call()


# --- ordering, reductions, products, higher-order: values against jax.lax ---------------------

NANS = np.array([0.0, -0.0, np.nan, 2.0, -np.inf, 1.0, 2.0, np.nan])
KEYS = np.array([2, 1, 2, 1, 0])
# (an argument list may be a function of the lax module: for computations passed as arguments)
ORDER_AND_REDUCE = [
    ("sort", (NANS,)), ("sort", (M[::-1], 0)), ("sort", (np.array([1 + 2j, 1 + 1j, -5j]),)),
    ("sort", ((KEYS, V), -1, True, 1)), ("sort", ((KEYS, -V, V), -1, True, 2)),
    ("sort_key_val", (KEYS, V)), ("top_k", (NANS, 4)), ("top_k", (np.array([3, -1, 3, 7]), 3)),
    ("top_k", (M, 2)), ("argmax", (NANS, 0, np.int32)), ("argmin", (M, 1, np.int64)),
    ("argmax", (np.array([[1, 5, 5], [7, 0, 7]]), 1, np.int32)),
    ("reduce_sum", (M, (0, 1))), ("reduce_sum", (np.arange(6, dtype=np.int32), (0,))),
    ("reduce_prod", (M, (1,))), ("reduce_max", (M, (0,))), ("reduce_min", (M, (1,))),
    ("reduce_max", (np.zeros((0, 2)), (0,))), ("reduce_min", (np.zeros((2, 0), np.int32), (1,))),
    ("reduce_max", (NANS, (0,))), ("reduce_and", (I32[:4], (0,))), ("reduce_or", (I, (0,))),
    ("reduce_xor", (np.array([[6, 3], [5, 1]], np.uint8), (0,))),
    ("reduce_and", (np.array([[True, False], [True, True]]), (1,))),
    ("reduce_or", (np.zeros((0,), bool), (0,))), ("reduce_xor", (C, (0,))),
    ("reduce", lambda L: (M, 0.0, L.add, (1,))),
    ("reduce", lambda L: (M, -np.inf, L.max, (0, 1))),
    ("reduce", lambda L: (M, 1.0, lambda a, b: L.mul(a, b), (0,))),
    ("reduce", lambda L: ((M, M > 0), (0.0, False), lambda a, b: (
        L.add(a[0], b[0]), L.bitwise_or(a[1], b[1])), (1,))),
    ("reduce", lambda L: (np.zeros((0, 3)), 2.0, lambda a, b: L.add(a, b), (0,))),
    ("cumsum", (M, 1)), ("cumsum", (np.arange(5, dtype=np.int32), 0, True)),
    ("cumprod", (M[:, :3] / 4, 1, True)), ("cummax", (M[::-1] * V[:4], 0)),
    ("cummin", (M * V[:4], 1, True)), ("cumlogsumexp", (np.array([-1000.0, 0.0, 3.0, -2.0]),)),
    ("cumlogsumexp", (M, 0, True)),
    ("dot", (V, V)), ("dot", (M, V[:4])), ("dot", (M, M.T)), ("dot", (V[:3], M)),
    ("dot_general", (np.ones((5, 2, 3)) * V[:, None, None], np.ones((5, 3, 4)),
                     (((2,), (1,)), ((0,), (0,))))),
    ("dot_general", (M, M, (((0,), (0,)), ((), ())))),
    ("dot_general", (M[:, :, None] * M[:, None, ::-1], M[:, :, None] * M[:, None, :] / 7,
                     (((1, 2), (2, 1)), ((0,), (0,))))),
    ("dot_general", (M, M.astype(np.float32), (((1,), (1,)), ((), ())))),
    ("dot_general", (I.reshape(2, 4).astype(np.int32), J.reshape(4, 2).astype(np.int32),
                     (((1,), (0,)), ((), ())), None, np.float32)),
    ("batch_matmul", (np.stack([M, -M]), np.stack([M.T, 2 * M.T]))),
    ("map", lambda L: (lambda x: L.mul(x, x), M)),
    ("map", lambda L: (lambda x: L.reduce_sum(x, (0,)), M)),
    ("associative_scan", lambda L: (L.add, V)),
    ("associative_scan", lambda L: (L.max, M, True, 1)),
    ("associative_scan", lambda L: (_matrix_product(L), np.stack([M[:2, :2] + k for k in
                                                                  range(7)]) / 9)),
    ("associative_scan", lambda L: (lambda a, b: {"s": L.add(a["s"], b["s"]), "p": L.mul(
        a["p"], b["p"])}, {"s": V, "p": V / 3}, True)),
]


def _matrix_product(L):
    """A combination that does not commute: the order of every product is checked."""
    return lambda a, b: L.dot_general(a, b, (((2,), (1,)), ((0,), (0,))))


def _args(args, module):
    return args(module) if callable(args) else args


@pytest.fixture(scope="module")
def order_reduce_jax(jlax):
    return jax_values(jlax, ORDER_AND_REDUCE)


@pytest.mark.parametrize("k", range(len(ORDER_AND_REDUCE)), ids=[c[0] for c in ORDER_AND_REDUCE])
def test_ordering_reductions_and_products_equal_jax(k, order_reduce_jax):
    name, args = ORDER_AND_REDUCE[k]
    assert_same(getattr(lax, name)(*_args(args, lax)), order_reduce_jax[k], what=name)


def test_map_in_batches_equals_jax(jlax):
    import jax
    xs = {"a": RNG.standard_normal((7, 3)), "b": np.arange(7.0)}

    def f(L):
        return lambda d: L.mul(L.reduce_sum(d["a"], (0,)), d["b"])
    want = np.asarray(jax.lax.map(f(jlax), xs))
    for size in (None, 1, 2, 3, 7, 10):
        assert_same(lax.map(f(lax), xs, batch_size=size), want, what=f"batch_size={size}")


DERIVATIVES = [
    ("sort", lambda x: lax.sort(x, 0), (RNG.permutation(12).reshape(3, 4) * 0.3,)),
    ("sort_key_val", lambda v: lax.sort_key_val(KEYS * 1.0 + V / 10, v)[1], (V,)),
    ("top_k", lambda x: lax.top_k(x, 2)[0], (RNG.permutation(12).reshape(3, 4) * 0.3,)),
    ("reduce_max", lambda x: lax.reduce_max(x, (1,)), (RNG.permutation(12).reshape(3, 4) * 0.3,)),
    ("reduce_prod", lambda x: lax.reduce_prod(x, (0, 1)), (M / 5 + 0.05,)),
    ("reduce", lambda x: lax.reduce(x, 1.0, lambda a, b: a * b + 0.0, (1,)), (M / 5 + 0.05,)),
    ("cumprod", lambda x: lax.cumprod(x, 1, True), (M / 5 + 0.05,)),
    ("cummax", lambda x: lax.cummax(x, 0), (RNG.permutation(12).reshape(3, 4) * 0.3,)),
    ("cumlogsumexp", lambda x: lax.cumlogsumexp(x, 1), (M,)),
    ("dot_general", lambda a, b: lax.dot_general(a, b, (((1,), (0,)), ((2,), (2,)))),
     (RNG.standard_normal((2, 3, 4)), RNG.standard_normal((3, 5, 4)))),
    ("batch_matmul", lax.batch_matmul, (RNG.standard_normal((2, 3, 4)),
                                        RNG.standard_normal((2, 4, 5)))),
    ("map", lambda x: lax.map(lambda r: lax.sin(r) * r[0], x, batch_size=2), (M,)),
    ("associative_scan", lambda x: lax.associative_scan(_matrix_product(lax), x),
     (RNG.standard_normal((6, 2, 2)),)),
]


@pytest.mark.parametrize("name, f, args", DERIVATIVES, ids=[c[0] for c in DERIVATIVES])
def test_ordering_reduction_product_derivatives_match_finite_differences(name, f, args):
    check_jvp_fd(f, list(args))
    check_dot_product(f, list(args))


def test_cumulative_and_scanned_derivatives_equal_jax(jlax):
    import jax
    x = np.array([[0.3, -1.2, 0.8, 0.1], [2.0, 0.5, -0.4, 1.5]])
    tied = np.array([[1.0, 3.0, 3.0], [3.0, 1.0, 3.0]])  # tied extrema share equally, as JAX

    def losses(L, total):
        out = [(lambda v, n=name, r=reverse: total(getattr(L, n)(v, 1, r) * x), x)
               for name in ("cumsum", "cumprod", "cumlogsumexp") for reverse in (False, True)]
        return out + [(lambda v: total(L.reduce_max(v, (0,))), tied),
                      (lambda v: total(L.reduce_min(v, (1,))), tied)]
    got = [fg.grad(f)(v) for f, v in losses(lax, fnp.sum)]
    want = jax.jit(lambda: [jax.grad(f)(v) for f, v in losses(jlax, lambda t: t.sum())])()
    for k, (g, w) in enumerate(zip(got, want)):
        assert_same(g, np.asarray(w), what=f"loss {k}")


def test_orderings_and_scans_under_jit_vmap_and_second_order():
    x = RNG.permutation(12).reshape(3, 4) * 0.3
    f = lambda v: lax.top_k(v, 2)[0] * lax.sort(v, 0)[:, :2]  # noqa: E731
    np.testing.assert_allclose(fg.jit(f)(x), f(x), rtol=1e-14)
    g = lambda v: lax.top_k(v, 2)[0] * lax.cummax(v, 1)[:, :2]  # noqa: E731
    np.testing.assert_allclose(fg.vmap(g)(np.stack([x, -x])), np.stack([g(x), g(-x)]))
    check_second_order(lambda v: lax.associative_scan(lax.mul, lax.sin(v), axis=1), [x])
    check_second_order(lambda a, b: lax.dot_general(a, b, (((1,), (0,)), ((), ()))),
                       [x, x.T])


def test_stop_gradient_takes_pytrees():
    out = fg.grad(lambda x: fnp.sum(x * lax.stop_gradient({"a": x, "b": [x]})["b"][0]))(V)
    np.testing.assert_array_equal(out, V)


def test_approximate_top_k_is_the_exact_one_and_the_barrier_is_the_identity():
    x = np.array([[1.0, 4.0, 3.0, 4.0, -2.0], [0.0, 9.0, 2.0, 2.0, 7.0]])
    values, indices = lax.approx_max_k(x, 2)
    np.testing.assert_array_equal(values, [[4.0, 4.0], [9.0, 7.0]])
    np.testing.assert_array_equal(indices, [[1, 3], [1, 4]])
    values, indices = lax.approx_min_k(x, 3)  # smallest first, ties in index order
    np.testing.assert_array_equal(values, [[-2.0, 1.0, 3.0], [0.0, 2.0, 2.0]])
    np.testing.assert_array_equal(indices, [[4, 0, 2], [0, 2, 3]])
    assert indices.dtype == np.int32
    np.testing.assert_array_equal(lax.approx_min_k(x, 1, reduction_dimension=0)[1],
                                  [[1, 0, 1, 1, 0]])
    g = fg.grad(lambda v: fnp.sum(lax.approx_min_k(v, 2)[0] ** 2))(x[0])
    np.testing.assert_array_equal(g, [2.0, 0.0, 0.0, 0.0, -4.0])
    tree = {"a": V, "b": (1.0,)}
    assert lax.optimization_barrier(tree) is tree
    assert fg.grad(lambda v: lax.optimization_barrier(v * v))(3.0) == 6.0


@pytest.mark.parametrize("call, message", [
    (lambda: lax.sort((V, V[:2])), "one shape"),
    (lambda: lax.sort((V, V), num_keys=3), "num_keys=3"),
    (lambda: lax.top_k(V, 6), "k=6"),
    (lambda: lax.argmax(V, 0, np.float32), "index_dtype must be an integer"),
    (lambda: lax.reduce(V, np.float32(0), lax.add, (0,)), "scalar of its operand's dtype"),
    (lambda: lax.reduce((V, V), (0.0,), lax.add, (0,)), "one initial value per operand"),
    (lambda: lax.dot(np.ones((2, 2, 2)), V[:2]), "dimension_numbers must be given"),
    (lambda: lax.dot_general(M, M.T, (((1,), (1,)), ((), ()))), "different sizes"),
    (lambda: lax.dot_general(M, M, ((1,), (1,))), "must be"),
    (lambda: lax.batch_matmul(np.ones((2, 3, 4)), np.ones((3, 4, 5))), "same batch sizes"),
    (lambda: lax.map(lambda x: x, (V, M)), "same leading axis"),
    (lambda: lax.associative_scan(lambda a, b: (a, b), V), "fn returned structure"),
])
def test_ordering_reduction_product_misuse_is_a_clear_error(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


# --- implicit differentiation: custom_linear_solve, custom_root -------------------------------

A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, -0.2], [0.5, -0.2, 2.0]])  # symmetric positive
A_NS = A + np.array([[0.0, 0.7, 0.0], [0.0, 0.0, 0.3], [-0.4, 0.0, 0.0]])  # not symmetric
B3 = np.array([1.0, -2.0, 0.5])


@fg.custom_vjp
def _not_differentiated(x):
    """``x``; any derivative through it, forward or reverse, raises."""
    return x


def _refuse(residuals, cotangent):
    raise AssertionError("the solver's iterations were differentiated")


_not_differentiated.defvjp(lambda x: (x, None), _refuse)


def _cg(matvec, b, steps=12):
    """Conjugate gradients as a while_loop, whose iterations are never differentiated."""
    def body(state):
        x, r, p, k = state
        ap = matvec(p)
        alpha = fnp.sum(r * r) / fnp.sum(p * ap)
        x, r_new = x + alpha * p, r - alpha * ap
        beta = fnp.sum(r_new * r_new) / fnp.maximum(fnp.sum(r * r), 1e-300)
        return x, r_new, r_new + beta * p, k + 1
    x0 = fnp.zeros_like(b)
    x = lax.while_loop(lambda s: lax.bitwise_and(s[3] < steps, fnp.sum(s[1] * s[1]) > 1e-28),
                       body, (x0, b, b, 0))[0]
    return _not_differentiated(x)


def _direct(a):
    return lambda mv, r: fnp.linalg.solve(a, r)


def test_custom_linear_solve_equals_jax_values_and_derivatives(jlax):
    import jax
    import jax.numpy as jnp

    def ours(a, b):
        return lax.custom_linear_solve(lambda v: a @ v, b, _direct(a),
                                       lambda vm, r: fnp.linalg.solve(a.T, r))

    def theirs(a, b):
        return jlax.custom_linear_solve(lambda v: a @ v, b, lambda mv, r: jnp.linalg.solve(a, r),
                                        lambda vm, r: jnp.linalg.solve(a.T, r))
    w = np.array([0.3, -1.0, 2.0])
    assert_same(ours(A_NS, B3), np.asarray(theirs(A_NS, B3)))
    g = fg.grad(lambda a, b: fnp.sum(ours(a, b) * w), argnums=(0, 1))(A_NS, B3)
    gj = jax.jit(jax.grad(lambda a, b: (theirs(a, b) * w).sum(), argnums=(0, 1)))(A_NS, B3)
    assert_same(g, [np.asarray(v) for v in gj])
    check_jvp_fd(ours, [A_NS, B3])
    check_dot_product(ours, [A_NS, B3])
    check_second_order(ours, [A_NS, B3])


def test_custom_linear_solve_never_differentiates_the_solver():
    def x_of(a, b):
        return lax.custom_linear_solve(lambda v: a @ v, b, _cg, symmetric=True)
    want = fg.grad(lambda a, b: fnp.sum(fnp.linalg.solve(a, b) ** 3), argnums=(0, 1))(A, B3)
    for g, w in zip(fg.grad(lambda a, b: fnp.sum(x_of(a, b) ** 3), argnums=(0, 1))(A, B3),
                    want):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fg.jacfwd(x_of)(A, B3), fg.jacfwd(fnp.linalg.solve)(A, B3),
                               rtol=1e-9, atol=1e-12)
    batched = fg.vmap(x_of, in_axes=(None, 0))(A, np.stack([B3, -2 * B3]))
    np.testing.assert_allclose(batched, np.linalg.solve(A, np.stack([B3, -2 * B3]).T).T,
                               rtol=1e-10)


def test_custom_linear_solve_pytrees_aux_and_missing_transpose():
    def solve(mv, r):
        return {"u": r["u"] / 2.0, "v": r["v"] / 3.0}, {"steps": np.int64(1)}
    b = {"u": np.array([1.0, 2.0]), "v": np.array(3.0)}

    def f(s):
        x, aux = lax.custom_linear_solve(lambda z: {"u": 2.0 * s * z["u"], "v": 3.0 * s * z["v"]},
                                         b, lambda mv, r: solve(mv, r), symmetric=True,
                                         has_aux=True)
        return x, aux
    x, aux = f(1.0)
    np.testing.assert_array_equal(x["u"], [0.5, 1.0])
    assert float(x["v"]) == 1.0 and int(aux["steps"]) == 1
    # x = b / (k s): dx/ds = -x at s = 1
    assert float(fg.grad(lambda s: fnp.sum(f(s)[0]["u"]) + f(s)[0]["v"])(1.0)) == -2.5
    def one_way(a):  # no transpose_solve: forward mode only
        return lax.custom_linear_solve(lambda v: a * v, B3, lambda mv, r: r / a)

    assert float(fg.jvp(lambda a: fnp.sum(one_way(a)), (2.0,), (1.0,))[1]) == -float(
        np.sum(B3)) / 4
    with pytest.raises(TypeError, match="needs transpose_solve"):
        fg.grad(lambda a: fnp.sum(one_way(a)))(2.0)
    with pytest.raises(TypeError, match="matvec must return a value of the structure"):
        lax.custom_linear_solve(lambda v: v[:2], B3, lambda mv, r: r)


def _newton(f, x):
    for _ in range(40):
        x = x - f(x) / fg.grad(f)(x)
    return x


def test_custom_root_differentiates_implicitly(jlax):
    import jax

    def root(a):  # the cube root of a, found by Newton's method
        return lax.custom_root(lambda x: x ** 3 - a, 1.0, _newton, lambda g, y: y / g(1.0))
    a = 5.0
    assert abs(float(root(a)) - a ** (1 / 3)) < 1e-13
    want = (1 / 3) * a ** (-2 / 3), (-2 / 9) * a ** (-5 / 3)
    np.testing.assert_allclose(float(fg.grad(root)(a)), want[0], rtol=1e-12)
    np.testing.assert_allclose(float(fg.jit(fg.grad(root))(a)), want[0], rtol=1e-12)
    np.testing.assert_allclose(float(fg.grad(fg.grad(root))(a)), want[1], rtol=1e-10)
    np.testing.assert_allclose(float(fg.jvp(root, (a,), (1.0,))[1]), want[0], rtol=1e-12)
    np.testing.assert_allclose(fg.vmap(fg.grad(root))(np.array([1.0, 8.0])),
                               [1 / 3, 1 / 12], rtol=1e-12)

    def jax_root(a):
        def newton(f, x):
            for _ in range(40):
                x = x - f(x) / jax.grad(f)(x)
            return x
        return jlax.custom_root(lambda x: x ** 3 - a, 1.0, newton, lambda g, y: y / g(1.0))
    assert_same(fg.grad(root)(a), np.asarray(jax.grad(jax_root)(a)))


def test_custom_root_of_a_system_with_aux():
    # x = A^-1 b as the root of A x - b; tangent_solve by a dense solve of the Jacobian
    def solve(f, x):
        for _ in range(2):  # f is affine: one Newton step is exact
            x = x - fnp.linalg.solve(fg.jacfwd(f)(x), f(x))
        return x, {"residual": fnp.max(fnp.abs(f(x)))}

    def tangent_solve(g, y):
        return fnp.linalg.solve(fg.jacfwd(g)(y), y)

    def x_of(a, b):
        return lax.custom_root(lambda x: a @ x - b, fnp.zeros(3), solve, tangent_solve,
                               has_aux=True)
    x, aux = x_of(A_NS, B3)
    np.testing.assert_allclose(x, np.linalg.solve(A_NS, B3), rtol=1e-12)
    assert float(aux["residual"]) < 1e-12
    check_jvp_fd(lambda a, b: x_of(a, b)[0], [A_NS, B3])
    check_dot_product(lambda a, b: x_of(a, b)[0], [A_NS, B3])
    with pytest.raises(TypeError, match="f must return a value of the structure"):
        lax.custom_root(lambda x: x[:2], np.zeros(3), solve, tangent_solve)


# --- windows: reduce_window, conv_general_dilated --------------------------------------------

IMG = RNG.standard_normal((2, 3, 5, 4))
KER = RNG.standard_normal((4, 3, 3, 2))
SIG, KER1 = RNG.standard_normal((2, 4, 7)), RNG.standard_normal((6, 2, 3))
WINDOWS = [
    ("conv_general_dilated", (IMG, KER, (1, 1), "SAME")),
    ("conv_general_dilated", (IMG, KER, (2, 1), [(1, 0), (0, 2)], (2, 1), (1, 2))),
    ("conv_general_dilated", (IMG.transpose(0, 2, 3, 1), KER.transpose(2, 3, 1, 0), (1, 2),
                              "SAME_LOWER", None, (2, 1), ("NHWC", "HWIO", "NHWC"))),
    ("conv_general_dilated", (IMG.transpose(0, 2, 3, 1), KER.transpose(2, 3, 1, 0), (1, 1),
                              "VALID", None, None, ("NHWC", "HWIO", "NCHW"))),
    ("conv_general_dilated", (SIG, KER1, (2,), "VALID", None, None, None, 2)),
    ("reduce_window", lambda L: (M, -np.inf, L.max, (2, 3), (2, 2), "SAME")),
    ("reduce_window", lambda L: (M, 0.0, L.add, (2, 2), (1, 3), [(1, 2), (0, 1)], (2, 1),
                                 (1, 2))),
    ("reduce_window", lambda L: (M, 1.0, lambda a, b: L.mul(a, b), (3, 1), (1, 1), "VALID")),
]


@pytest.fixture(scope="module")
def windows_jax(jlax):
    return jax_values(jlax, WINDOWS)


@pytest.mark.parametrize("k", range(len(WINDOWS)), ids=[c[0] for c in WINDOWS])
def test_windows_equal_jax(k, windows_jax):
    name, args = WINDOWS[k]
    assert_same(getattr(lax, name)(*_args(args, lax)), windows_jax[k], what=name)


def test_windows_derivatives_match_finite_differences():
    def conv(x, w):
        return lax.conv_general_dilated(x, w, (2, 1), [(1, 0), (0, 2)], (2, 1), (1, 2))

    def grouped(x, w):
        return lax.conv_general_dilated(x, w, (1,), [(2, 1)], (2,), (2,), None, 2)

    def pool(x):
        return lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 2), "SAME", (1, 2), (2, 1))
    for f, args in [(conv, [IMG[:1], KER]), (grouped, [SIG, KER1]), (pool, [M])]:
        check_jvp_fd(f, args)
        check_dot_product(f, args)
    batched = fg.vmap(lambda w: conv(IMG, w))(np.stack([KER, -KER]))
    np.testing.assert_allclose(batched, np.stack([conv(IMG, KER), conv(IMG, -KER)]),
                               rtol=1e-12)


def test_conv_and_conv_with_general_padding_are_jaxs_short_forms():
    # a cross-correlation (NumPy's correlate), as conv_general_dilated in default layouts
    x, k = RNG.standard_normal(9), RNG.standard_normal(3)
    got = lax.conv(x.reshape(1, 1, 9), k.reshape(1, 1, 3), (1,), "VALID")
    np.testing.assert_allclose(got[0, 0], np.correlate(x, k, "valid"), rtol=1e-12)
    np.testing.assert_allclose(lax.conv(IMG, KER, (2, 1), "SAME"),
                               lax.conv_general_dilated(IMG, KER, (2, 1), "SAME"), rtol=1e-12)
    # a kernel dilated by 2 reads every other sample: [k0, 0, k1, 0, k2]
    dilated = lax.conv_with_general_padding(x.reshape(1, 1, 9), k.reshape(1, 1, 3), (1,),
                                            [(1, 1)], None, (2,))
    k_dilated = np.array([k[0], 0.0, k[1], 0.0, k[2]])
    np.testing.assert_allclose(dilated[0, 0], np.correlate(np.pad(x, 1), k_dilated, "valid"),
                               rtol=1e-12)
    g = fg.grad(lambda w: fnp.sum(lax.conv(x.reshape(1, 1, 9), w, (1,), "VALID")))(
        k.reshape(1, 1, 3))
    np.testing.assert_allclose(g[0, 0], [x[0:7].sum(), x[1:8].sum(), x[2:9].sum()], rtol=1e-12)


@pytest.mark.parametrize("call, message", [
    (lambda: lax.conv_general_dilated(IMG, KER, (1, 1), "SAME", (2, 1)), "ambiguous"),
    (lambda: lax.conv_general_dilated(IMG, KER[:, :2], (1, 1), "SAME"), "feature_group_count"),
    (lambda: lax.conv_general_dilated(IMG, KER, (1, 1), "SAME", batch_group_count=2),
     "batch_group_count=2 is not supported"),
    (lambda: lax.conv_general_dilated(IMG, KER, (1, 1), "FULL"), "padding must be"),
    (lambda: lax.reduce_window(M, 0.0, lax.add, (2,), (1,), "VALID"), "one positive int"),
])
def test_windows_misuse_is_a_clear_error(call, message):
    with pytest.raises((ValueError, NotImplementedError), match=message):
        call()


def test_static_arguments_must_be_sequences_of_ints():
    np.testing.assert_array_equal(lax.slice(V, range(1, 2), np.array([3])), V[1:3])
    with pytest.raises(TypeError, match="shape must be a sequence of Python ints, got 3"):
        lax.full(3, 1.0)


def test_lax_linalg_has_jaxs_names_argument_conventions_and_result_orders():
    rng = np.random.default_rng(3)
    m = rng.standard_normal((4, 4))
    s = m @ m.T + 4 * np.eye(4)
    b = rng.standard_normal((4, 3))
    np.testing.assert_allclose(lax.linalg.cholesky(s), np.linalg.cholesky(s), rtol=1e-12)
    # symmetrize_input: both triangles count, as the Hermitian part
    skew = s + np.triu(np.ones((4, 4)), 1)
    np.testing.assert_allclose(lax.linalg.cholesky(skew),
                               np.linalg.cholesky((skew + skew.T) / 2), rtol=1e-12)
    v, w = lax.linalg.eigh(s)  # JAX's order: vectors, then values
    np.testing.assert_allclose(w, np.linalg.eigvalsh(s), rtol=1e-12)
    np.testing.assert_allclose(s @ v, v * w, atol=1e-10)
    # d(sum w^2)/ds = 2 s for the symmetrized input (JAX's gradient: symmetric)
    g = fg.grad(lambda a: fnp.sum(lax.linalg.eigh(a)[1] ** 2))(s)
    np.testing.assert_allclose(g, 2 * s, rtol=1e-10)
    q, r = lax.linalg.qr(b)
    assert q.shape == (4, 4) and r.shape == (4, 3)
    np.testing.assert_allclose(q @ r, b, atol=1e-12)
    assert lax.linalg.qr(b, full_matrices=False)[0].shape == (4, 3)
    np.testing.assert_allclose(lax.linalg.svd(b, compute_uv=False),
                               np.linalg.svd(b, compute_uv=False), rtol=1e-12)
    u, sv, vh = lax.linalg.svd(b, full_matrices=False)
    np.testing.assert_allclose((u * sv) @ vh, b, atol=1e-12)
    low = np.tril(s)
    x = lax.linalg.triangular_solve(s, b, left_side=True, lower=True)
    np.testing.assert_allclose(x, np.linalg.solve(low, b), rtol=1e-10)
    x = lax.linalg.triangular_solve(s, b.T, lower=True, transpose_a=True)  # x @ low.T = b.T
    np.testing.assert_allclose(x, np.linalg.solve(low, b).T, rtol=1e-10)
    unit = low - np.diag(np.diag(low)) + np.eye(4)
    x = lax.linalg.triangular_solve(s, b, left_side=True, lower=True, unit_diagonal=True)
    np.testing.assert_allclose(x, np.linalg.solve(unit, b), rtol=1e-10)

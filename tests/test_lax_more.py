"""The rest of ``jax.lax`` in ``fg.lax``: every public name of ``jax.lax`` (but its ``*_p``
primitive objects) exists; the shape operations, the convolutions beyond
``conv_general_dilated`` and their shape helpers, ``fft``, ``clz``, ``mulhi``,
``reduce_precision``, the ragged and scaled products, ``scatter_apply`` and the
collectives built from others equal ``jax.lax``'s (JAX on the CPU, 64-bit): values,
dtypes, shapes; the differentiable ones agree with central differences, pass the
dot-product test and second order, batch and compile; and the names funcgrad cannot run
say why."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import lax
from helpers import assert_same, check_dot_product, check_jvp_fd, check_second_order

pytestmark = pytest.mark.usefixtures("fresh_jit_cache")

RNG = np.random.default_rng(7)


def test_every_public_name_of_jax_lax_is_in_fg_lax(jlax):
    missing = [n for n in dir(jlax) if not n.startswith("_") and not n.endswith("_p")
               and not hasattr(lax, n)]
    assert not missing, f"jax.lax names missing from fg.lax: {missing}"
    assert set(lax.__all__) <= set(dir(lax))


NEW_FUNCTIONS = [
    "broadcast_shapes", "broadcast_to_rank", "broadcast_like", "split", "stack", "unstack",
    "tile", "index_take", "empty", "dtype", "shape_as_value", "stage", "conv_dimension_numbers",
    "conv_general_permutations", "padtype_to_pads", "conv_shape_tuple",
    "conv_general_shape_tuple", "conv_transpose_shape_tuple", "reduce_window_shape_tuple",
    "conv_transpose", "conv_general_dilated_patches", "conv_general_dilated_local", "fft", "clz",
    "mulhi", "reduce_precision", "ragged_dot", "ragged_dot_general", "scaled_dot",
    "scatter_apply", "composite", "platform_dependent", "dce_sink", "with_sharding_constraint",
    "axis_size", "pbroadcast", "pshuffle", "pcast", "rng_uniform", "rng_bit_generator",
    "after_all", "create_token", "psend", "precv", "ragged_all_to_all", "igamma_grad_a"]


def _parameters(f):
    import inspect

    def default(p):
        plain = (int, float, bool, str, tuple, type(None), type)
        return p.default if p.default is p.empty or isinstance(p.default, plain) else "object"
    return [(p.name, p.kind, default(p)) for p in inspect.signature(f).parameters.values()]


@pytest.mark.parametrize("name", NEW_FUNCTIONS)
def test_signatures_are_jaxs(name, jlax):
    assert _parameters(getattr(lax, name)) == _parameters(getattr(jlax, name))


# Keywords callers of jax.lax pass that funcgrad used to refuse (sharding hints, JAX's
# defaults, legacy spellings): the same names, kinds and defaults as JAX's.
MATCHED_SIGNATURES = [
    "reduce_window", "mul", "psum", "pmean", "pmax", "pmin", "switch", "all_gather",
    "broadcast", "broadcast_in_dim", "broadcasted_iota", "reshape", "reduce", "reduce_sum",
    "dot_general", "conv_general_dilated", "full", "full_like", "linalg.eigh", "linalg.qr"]


def _named(module, name):
    for part in name.split("."):
        module = getattr(module, part)
    return module


@pytest.mark.parametrize("name", MATCHED_SIGNATURES)
def test_keywords_callers_pass_are_jaxs(name, jlax):
    assert _parameters(_named(lax, name)) == _parameters(_named(jlax, name))


def test_jaxs_defaults_and_keywords_behave_as_jaxs(jlax):
    x = np.arange(16.0).reshape(4, 4)
    # reduce_window: strides of 1 and "VALID" padding by default
    assert_same(lax.reduce_window(x, 0.0, lax.add, (2, 2)),
                jlax.reduce_window(x, 0.0, jlax.add, (2, 2)))
    # mul's out_dtype: the operands cast first (no int8 overflow)
    a, b = np.array([100, -7], np.int8), np.array([3, 100], np.int8)
    assert_same(lax.mul(a, b, out_dtype=np.int32), jlax.mul(a, b, out_dtype=np.int32))
    # switch's legacy operand= keyword, as cond's
    branches = [lambda v: v, lambda v: 2 * v]
    assert_same(lax.switch(1, branches, operand=x), jlax.switch(1, branches, operand=x))
    with pytest.raises(TypeError, match="not both"):
        lax.switch(1, branches, x, operand=x)
    # sharding hints: accepted, the values unchanged
    assert_same(lax.reshape(x, (2, 8), out_sharding=None), x.reshape(2, 8))
    assert_same(lax.full((2,), 1.5, sharding=None), np.full(2, 1.5))
    assert_same(lax.full_like(x, 2.0, None, (3,), None), np.full(3, 2.0))
    assert_same(lax.dot_general(x, x, (((1,), (0,)), ((), ())), out_sharding=None), x @ x)
    assert_same(lax.reduce_sum(x, (0,), out_sharding=None), x.sum(0))
    # axis_index_groups=None is the whole axis; subgroups are refused (as JAX's vmap does)
    v = np.array([1.0, 3.0, 5.0, 7.0])
    assert_same(fg.vmap(lambda e: lax.psum(e, "i", axis_index_groups=None), axis_name="i")(v),
                np.full(4, 16.0))
    with pytest.raises(NotImplementedError, match="axis_index_groups"):
        fg.vmap(lambda e: lax.pmax(e, "i", axis_index_groups=[[0, 1], [2, 3]]),
                axis_name="i")(v)
    assert_same(fg.vmap(lambda e: lax.all_gather(e, "i", to="invariant"), axis_name="i")(v),
                np.tile(v, (4, 1)))


# --- shapes -----------------------------------------------------------------------------------

A = RNG.standard_normal((3, 4))
IDX = [np.array([0, 2, -1]), np.array([1, -1, 5])]
SHAPES = [
    ("broadcast_to_rank", (A, 4)), ("broadcast_to_rank", (A, 2)),
    ("broadcast_like", (np.arange(4.0), A)), ("split", (A, [1, 0, 3], 1)),
    ("split", (A, [2, 1])), ("stack", ([A, -A], 1)), ("stack", ([A, A, A], -1)),
    ("unstack", (A, 1)), ("unstack", (A.astype(np.float32),)), ("tile", (A, (2, 1))),
    ("tile", (np.arange(3), (3,))), ("index_take", (A, IDX, (0, 1))),
    ("index_take", (A, IDX[:1], (0,))), ("shape_as_value", ((2, 3),)),
    ("shape_as_value", ((),)), ("stage", (2.5,)),
]


@pytest.mark.parametrize("case", SHAPES, ids=[c[0] for c in SHAPES])
def test_shape_operations_equal_jax(case, jlax):
    name, args = case
    assert_same(getattr(lax, name)(*args), getattr(jlax, name)(*args), what=name)


def test_shape_helpers_equal_jax(jlax):
    for shapes in [((3, 1), (1, 4), (5, 1, 1)), ((1,), (4,)), ((),), ((0, 1), (3,))]:
        assert lax.broadcast_shapes(*shapes) == jlax.broadcast_shapes(*shapes)
    with pytest.raises(ValueError, match="Incompatible shapes"):
        lax.broadcast_shapes((3, 1), (4, 1))
    for value in [1.0, 1, True, 1j, float, int, np.float32, "int8", np.dtype("uint16"),
                  np.ones(2, np.float32), np.int16(3)]:
        assert lax.dtype(value) == jlax.dtype(value), value
    for wrong, error in [(None, ValueError), ([1.0, 2.0], TypeError), ("U3", TypeError)]:
        with pytest.raises(error):
            jlax.dtype(wrong)
        with pytest.raises(error):
            lax.dtype(wrong)
    empty = lax.empty((2, 3), np.float32)
    assert empty.shape == (2, 3) and empty.dtype == np.float32
    assert lax.empty(4, np.int8).shape == (4,)


def test_shape_operations_differentiate_batch_and_compile():
    def f(x):
        parts = lax.split(x, [1, 3], 1)
        stacked = lax.stack([parts[0][:, 0], lax.index_take(x, IDX, (0, 1))], 0)
        return lax.tile(stacked, (1, 2)) * lax.tile(lax.unstack(x, 1)[2], (2,))
    check_jvp_fd(f, [A])
    check_dot_product(f, [A])
    xs = np.stack([A, 2 * A])
    np.testing.assert_allclose(fg.vmap(f)(xs), np.stack([f(A), f(2 * A)]), rtol=1e-12)
    assert fg.jit(f)(A).tobytes() == f(A).tobytes()


def test_shape_operation_errors_name_the_fix():
    with pytest.raises(ValueError, match="add up to"):
        lax.split(A, [1, 1])
    with pytest.raises(TypeError, match="one shape"):
        lax.stack([A, A[:1]])
    with pytest.raises(TypeError, match="one non-negative count per axis"):
        lax.tile(np.arange(3.0), (2, 2))
    with pytest.raises(ValueError, match="lower the rank"):
        lax.broadcast_to_rank(A, 1)


# --- convolutions and their shape helpers -------------------------------------------------------

NHWC = ("NHWC", "HWIO", "NHWC")
X4 = RNG.standard_normal((2, 7, 6, 3))
K4 = RNG.standard_normal((3, 2, 3, 4))
X3 = RNG.standard_normal((2, 3, 9))


def test_conv_shape_helpers_equal_jax(jlax):
    for dn in [NHWC, ("NCHW", "OIHW", "NCHW"), ("NHWC", "OIHW", "NCHW")]:
        assert lax.conv_general_permutations(dn) == jlax.conv_general_permutations(dn)
        assert tuple(lax.conv_dimension_numbers((1,) * 4, (1,) * 4, dn)) == tuple(
            jlax.conv_dimension_numbers((1,) * 4, (1,) * 4, dn))
    assert tuple(lax.conv_dimension_numbers((1, 2, 3), (1, 2, 3), None)) == tuple(
        jlax.conv_dimension_numbers((1, 2, 3), (1, 2, 3), None))
    for args in [((5, 6), (3, 2), (2, 2), "SAME"), ((5, 6), (3, 2), (2, 1), "SAME_LOWER"),
                 ((5, 6), (3, 2), (2, 2), "VALID"), ((0, 1), (3, 4), (1, 3), "same")]:
        assert lax.padtype_to_pads(*args) == jlax.padtype_to_pads(*args)
    with pytest.raises(RuntimeError, match="Unrecognized padding"):
        lax.padtype_to_pads((5,), (3,), (1,), "FULL")
    for args in [((2, 3, 9), (4, 3, 3), (2,), "SAME"), ((2, 3, 9, 5), (4, 3, 3, 2), (2, 1),
                                                        [(1, 0), (2, 2)]),
                 ((4, 3, 9), (4, 3, 3), (1,), "VALID", 2)]:
        assert lax.conv_shape_tuple(*args) == tuple(jlax.conv_shape_tuple(*args))
    for args in [((1, 9, 9, 3), (3, 3, 3, 8), (1, 2), "SAME", NHWC),
                 ((1, 9, 8, 3), (3, 2, 3, 8), (2, 2), [(1, 1), (0, 2)], NHWC)]:
        assert lax.conv_general_shape_tuple(*args) == tuple(
            jlax.conv_general_shape_tuple(*args))
        assert lax.conv_transpose_shape_tuple(*args) == tuple(
            jlax.conv_transpose_shape_tuple(*args))
    for args in [((4, 5), (2, 2), (2, 1), [(0, 0), (1, 0)]),
                 ((4, 5), (2, 3), (1, 2), [(1, 1), (0, 0)], (2, 1), (1, 2))]:
        assert lax.reduce_window_shape_tuple(*args) == tuple(
            jlax.reduce_window_shape_tuple(*args))


CONV_TRANSPOSE = [
    (X4, K4, (2, 1), "SAME", None, None, False),
    (X4, K4, (2, 1), "VALID", (1, 2), None, False),
    (X4, K4, (1, 2), [(1, 2), (0, 1)], None, None, False),
    (X4, K4.transpose(0, 1, 3, 2)[:, :, :3, :], (2, 2), "SAME", None, None, True),
    (X3, RNG.standard_normal((5, 3, 2)), (3,), "VALID", None, ("NCH", "OIH", "NCH"), False),
    (X3.transpose(0, 2, 1), RNG.standard_normal((2, 5, 3)), (2,), "SAME", (2,), None, True),
]


@pytest.mark.parametrize("k", range(len(CONV_TRANSPOSE)))
def test_conv_transpose_equals_jax(k, jlax):
    lhs, rhs, strides, padding, dilation, dn, flip = CONV_TRANSPOSE[k]
    args = (lhs, rhs, strides, padding, dilation, dn, flip)
    assert_same(lax.conv_transpose(*args), jlax.conv_transpose(*args), what=str(k))


PATCHES = [
    (X4.transpose(0, 3, 1, 2), (2, 3), (1, 2), "SAME", None, (2, 1), None),
    (X4, (3, 2), (2, 1), [(1, 0), (0, 2)], (1, 2), None, NHWC),
    (X4, (2, 2), (1, 1), "VALID", None, None, ("NHWC", "HWIO", "NCHW")),
    (X3, (3,), (2,), "SAME_LOWER", None, None, None),
]


@pytest.mark.parametrize("k", range(len(PATCHES)))
def test_conv_general_dilated_patches_and_local_equal_jax(k, jlax):
    args = PATCHES[k]
    patches = lax.conv_general_dilated_patches(*args)
    assert_same(patches, jlax.conv_general_dilated_patches(*args), what="patches")
    x, filter_shape, strides, padding, lhs_dil, rhs_dil, dn = args
    spec = lax.conv_dimension_numbers(x.shape, (1, 1) + filter_shape, dn)
    # the local kernel: the out spec's spatial sizes in the rhs's spatial slots
    out_spatial = [patches.shape[d] for d in spec.out_spec[2:]]
    rhs_shape = [0] * x.ndim
    rhs_shape[spec.rhs_spec[0]] = 4
    rhs_shape[spec.rhs_spec[1]] = patches.shape[spec.out_spec[1]]
    for d, n in zip(spec.rhs_spec[2:], out_spatial):
        rhs_shape[d] = n
    w = RNG.standard_normal(rhs_shape)
    local = (x, w, strides, padding, filter_shape, lhs_dil, rhs_dil, dn)
    assert_same(lax.conv_general_dilated_local(*local),
                jlax.conv_general_dilated_local(*local), what="local")


def test_convolutions_differentiate_batch_and_compile():
    x, w = X4[:1, :4, :3], K4

    def transposed(x, w):
        return lax.conv_transpose(x, w, (2, 1), "SAME", (1, 2))

    def local(x, w):
        return lax.conv_general_dilated_local(x, w, (1,), "SAME", (2,))
    xs, ws = X3[:1], RNG.standard_normal((2, 3 * 2, 9))
    for f, args in [(transposed, [x, w]), (local, [xs, ws])]:
        check_jvp_fd(f, args)
        check_dot_product(f, args)
        assert fg.jit(f)(*args).tobytes() == f(*args).tobytes()
    check_second_order(lambda x, w: transposed(x, w) ** 2, [x, w])
    batched = fg.vmap(lambda w: transposed(x, w))(np.stack([w, -2 * w]))
    np.testing.assert_allclose(batched, np.stack([transposed(x, w), transposed(x, -2 * w)]),
                               rtol=1e-12)
    patches = fg.vmap(lambda x: lax.conv_general_dilated_patches(x, (2,), (1,), "VALID"))
    np.testing.assert_allclose(patches(X3[:, None]),
                               np.stack([lax.conv_general_dilated_patches(r, (2,), (1,),
                                                                          "VALID")
                                         for r in X3[:, None]]), rtol=1e-12)
    assert transposed(x.astype(np.float32), w.astype(np.float32)).dtype == np.float32


# --- fft --------------------------------------------------------------------------------------

C3 = RNG.standard_normal((2, 4, 6)) + 1j * RNG.standard_normal((2, 4, 6))
R3 = RNG.standard_normal((2, 4, 6))
FFTS = [(C3, "fft", (6,)), (C3, "FFT", (4, 6)), (C3, "ifft", (6,)), (C3, "IFFT", (2, 4, 6)),
        (R3, "rfft", (4, 6)), (R3, "RFFT", (6,)), (C3[..., :4], "irfft", (4, 6)),
        (C3[..., :4], "irfft", (7,)), (R3, "fft", (6,)), (R3.astype(np.float32), "fft", (6,)),
        (R3.astype(np.float32), "rfft", (6,)), (C3.astype(np.complex64), "irfft", (10,)),
        (np.arange(6), "fft", (6,)), (C3, "fft", ())]


@pytest.mark.parametrize("case", FFTS, ids=[f"{c[1]}-{c[0].dtype}-{c[2]}" for c in FFTS])
def test_fft_equals_jax(case, jlax):
    x, kind, lengths = case
    got = lax.fft(x, kind, lengths)
    want = jlax.fft(x, kind, lengths)
    assert_same(got, want, rtol=1e-5 if got.dtype.itemsize <= 8 else 1e-10, what=kind)
    assert lax.fft(x, lax.FftType[kind.upper()], lengths).tobytes() == got.tobytes()


def test_fft_differentiates_batches_and_compiles():
    def f(x):
        out = lax.fft(lax.fft(x, lax.FftType.RFFT, (6,)) * (1.0 + 0.5j), "irfft", (6,))
        spectrum = lax.fft(fnp.astype(x, np.complex128), "fft", (4, 6))
        return out, fnp.real(spectrum), fnp.imag(spectrum)
    check_jvp_fd(f, [R3])
    check_dot_product(f, [R3])
    check_second_order(lambda x: f(x)[1] ** 2, [R3[0]])
    np.testing.assert_allclose(fg.vmap(lambda x: f(x)[0])(R3), f(R3)[0], rtol=1e-12)
    assert fg.jit(lambda x: f(x)[0])(R3).tobytes() == f(R3)[0].tobytes()
    with pytest.raises(ValueError, match="minor dimensions"):
        lax.fft(C3, "fft", (5,))
    with pytest.raises(ValueError, match="only real valued inputs"):
        lax.fft(C3, "rfft", (6,))
    with pytest.raises(ValueError, match="Unknown FFT type"):
        lax.fft(C3, "dct", (6,))


# --- bits -------------------------------------------------------------------------------------

INT_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def _integers(dtype, n=64):
    info = np.iinfo(dtype)
    x = RNG.integers(info.min, info.max, size=n, dtype=dtype, endpoint=True)
    x[:6] = [0, 1, info.max, info.min, info.max // 3, max(info.min, -1) if info.min else 2]
    return x


@pytest.mark.parametrize("dtype", INT_TYPES, ids=[np.dtype(t).name for t in INT_TYPES])
def test_clz_and_mulhi_equal_jax_eagerly_batched_and_compiled(dtype, jlax):
    x, y = _integers(dtype), _integers(dtype)[::-1].copy()
    clz, mulhi = np.asarray(jlax.clz(x)), np.asarray(jlax.mulhi(x, y))
    assert_same(lax.clz(x), clz, what="clz")
    assert_same(lax.mulhi(x, y), mulhi, what="mulhi")
    both = lambda x, y: (lax.clz(x), lax.mulhi(x, y))  # noqa: E731
    assert_same(fg.jit(both)(x, y), (clz, mulhi), what="jit")
    assert_same(fg.vmap(both)(x, y), (clz, mulhi), what="vmap")


def test_clz_and_mulhi_take_integers_and_have_no_derivative():
    with pytest.raises(TypeError, match="integer"):
        lax.clz(np.ones(2))
    with pytest.raises(TypeError, match="same dtypes"):
        lax.mulhi(np.ones(2, np.int32), np.ones(2, np.int64))
    with pytest.raises(TypeError):
        fg.grad(lambda x: lax.mulhi(x, x))(np.int32(3))


# --- reduce_precision --------------------------------------------------------------------------

FORMATS = [(5, 10), (8, 7), (8, 23), (11, 52), (11, 10), (4, 3), (2, 1), (5, 0), (1, 0),
           (15, 2), (8, 60)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_reduce_precision_equals_jax_bit_for_bit(dtype, jlax):
    info = np.finfo(dtype)
    x = np.concatenate([RNG.standard_normal(200) * 10.0 ** RNG.integers(-40, 40, 200),
                        [0.0, -0.0, np.inf, -np.inf, np.nan, info.tiny, info.tiny / 3,
                         -info.tiny / 7, info.max, 65504.0, 65520.0, 65519.99, 1 + 2 ** -11,
                         1 + 3 * 2 ** -11, 6.1e-5, 6.0e-5, -2.5, 0.5]]).astype(dtype)
    for exponent_bits, mantissa_bits in FORMATS:
        got = lax.reduce_precision(x, exponent_bits, mantissa_bits)
        want = np.asarray(jlax.reduce_precision(x, exponent_bits, mantissa_bits))
        assert got.dtype == want.dtype == dtype
        assert got.tobytes() == want.tobytes(), (exponent_bits, mantissa_bits)
        assert fg.jit(lambda v: lax.reduce_precision(v, exponent_bits, mantissa_bits))(
            x).tobytes() == want.tobytes()


def test_reduce_precision_passes_the_derivative_through():
    x, t = np.array([1.1, 3.3, 7e4]), np.array([0.25, -1.0, 2.0])
    out, tangent = fg.jvp(lambda v: lax.reduce_precision(v, 5, 10), (x,), (t,))
    np.testing.assert_array_equal(out, lax.reduce_precision(x, 5, 10))
    np.testing.assert_array_equal(tangent, t)
    g = fg.grad(lambda v: fnp.sum(lax.reduce_precision(v, 8, 7) * t))(x)
    np.testing.assert_array_equal(g, t)
    h = fg.hessian(lambda v: fnp.sum(lax.reduce_precision(v, 5, 10) ** 2))(x[:2])
    np.testing.assert_array_equal(h, 2 * np.eye(2))
    np.testing.assert_array_equal(fg.vmap(lambda v: lax.reduce_precision(v, 5, 10))(x),
                                  lax.reduce_precision(x, 5, 10))


# --- the incomplete gamma function's derivatives in a -------------------------------------------

def test_igamma_grad_a_and_random_gamma_grad_equal_jax(jlax):
    special = pytest.importorskip("scipy.special")
    a = 10 ** RNG.uniform(-2, 2.5, 40)
    x = 10 ** RNG.uniform(-3, 2.7, 40)
    got = lax.igamma_grad_a(a, x)
    np.testing.assert_allclose(got, jlax.igamma_grad_a(a, x), rtol=1e-11, atol=1e-300)
    assert lax.igamma_grad_a(a.astype(np.float32), x.astype(np.float32)).dtype == np.float32
    # the sample's derivative where JAX's is accurate (away from the far tails)
    bulk = (special.gammainc(a, x) > 1e-8) & (special.gammainc(a, x) < 1 - 1e-8)
    np.testing.assert_allclose(lax.random_gamma_grad(a, x)[bulk],
                               jlax.random_gamma_grad(a[bulk], x[bulk]), rtol=1e-9)
    # far in a tail, against mpmath's derivative of P over the density (40 digits)
    tail = lax.random_gamma_grad(np.array([307.21662305, 87.93849701]),
                                 np.array([11.3113491, 12.57629469]))
    np.testing.assert_allclose(tail, [0.12626404129479157, 0.32509511622031934], rtol=1e-8)
    # the a-derivative of P, by central differences of SciPy's gammainc
    h = 1e-6
    fd = (special.gammainc(a + h, x) - special.gammainc(a - h, x)) / (2 * h)
    np.testing.assert_allclose(got, fd, rtol=1e-5, atol=1e-9)
    np.testing.assert_array_equal(lax.igamma_grad_a(np.array([1.0, 2.0]), np.zeros(2)), 0.0)
    # Not bit for bit: eager exp and log are NumPy's own (SIMD) functions, jit's fused loops
    # compute them with the kernels' vector maths (funcgrad.kernels.cpu.vmath), each within
    # 1 ulp, and the series' last step, dtotal + total * (log x - digamma(a) - 1/a),
    # cancels: 1-ulp differences there became up to 423 ulps (5.8e-14 relative) over 1200
    # random (a, x) (session 15).  Identical bits would need jit to give up its vector maths
    # for float64 exp/log, or eager NumPy's, for every program.
    np.testing.assert_allclose(fg.jit(lax.igamma_grad_a)(a, x), got, rtol=1e-13, atol=1e-300)
    # (batched, its series' elementwise steps may take the vectorised kernels: ulps apart)
    np.testing.assert_allclose(fg.vmap(lax.random_gamma_grad)(a[:4], x[:4]),
                               lax.random_gamma_grad(a[:4], x[:4]), rtol=1e-13)


# --- products ----------------------------------------------------------------------------------

def _ragged_cases(L):
    lhs, rhs = RNG.standard_normal((7, 3)), RNG.standard_normal((3, 3, 2))
    dn = L.RaggedDotDimensionNumbers
    return [
        ("ragged_dot", (lhs, rhs, np.array([2, 0, 4]))),
        ("ragged_dot", (lhs.astype(np.float32), rhs.astype(np.float32),
                        np.array([3, 3, 1], np.int32))),
        ("ragged_dot_general", (RNG.standard_normal((4, 6)), RNG.standard_normal((6, 5)),
                                np.array([1, 3, 2]), dn((([1], [0]), ([], [])), [1], []))),
        ("ragged_dot_general", (RNG.standard_normal((3, 4, 6)), RNG.standard_normal((3, 6, 5)),
                                np.array([1, 2]), dn((([2], [1]), ([0], [0])), [0], []))),
        ("ragged_dot_general", (RNG.standard_normal((2, 5, 3)),
                                RNG.standard_normal((3, 2, 3, 4)),
                                np.array([[1, 2, 2], [0, 4, 1]]),
                                dn((([2], [2]), ([0], [1])), [1], [0]))),
    ]


def test_ragged_products_equal_jax(jlax):
    RNG_STATE = RNG.bit_generator.state
    ours = _ragged_cases(lax)
    RNG.bit_generator.state = RNG_STATE
    theirs = _ragged_cases(jlax)
    for (name, args), (_, jargs) in zip(ours, theirs):
        rtol = 1e-5 if args[0].dtype == np.float32 else 1e-10
        assert_same(getattr(lax, name)(*args), getattr(jlax, name)(*jargs), rtol, name)


def test_ragged_dot_differentiates_batches_and_compiles():
    lhs, rhs, sizes = RNG.standard_normal((6, 3)), RNG.standard_normal((3, 3, 2)), \
        np.array([2, 1, 2])
    f = lambda a, b: lax.ragged_dot(a, b, sizes)  # noqa: E731
    check_jvp_fd(f, [lhs, rhs])
    check_dot_product(f, [lhs, rhs])
    check_second_order(lambda a, b: f(a, b) ** 2, [lhs, rhs])
    many = np.array([[2, 1, 2], [0, 6, 0]])
    np.testing.assert_allclose(fg.vmap(lambda s: lax.ragged_dot(lhs, rhs, s))(many),
                               np.stack([lax.ragged_dot(lhs, rhs, s) for s in many]),
                               rtol=1e-12)
    assert fg.jit(lax.ragged_dot)(lhs, rhs, sizes).tobytes() == f(lhs, rhs).tobytes()
    with pytest.raises(NotImplementedError, match="group_offset"):
        lax.ragged_dot(lhs, rhs, sizes, group_offset=np.array([0]))


def test_scaled_dot_scales_blocks_of_the_contracting_axes(jlax):
    lhs = RNG.integers(-4, 5, (2, 4, 8)).astype(np.float32)
    rhs = RNG.integers(-4, 5, (2, 8, 3)).astype(np.float32)
    ls = 2.0 ** RNG.integers(-2, 3, (2, 4, 2)).astype(np.float32)
    rs = 2.0 ** RNG.integers(-2, 3, (2, 2, 3)).astype(np.float32)
    got = lax.scaled_dot(lhs, rhs, lhs_scale=ls, rhs_scale=rs)
    # (exact values: JAX's CPU result rounds other inputs on the way)
    want = jlax.scaled_dot(lhs, rhs, lhs_scale=ls, rhs_scale=rs,
                           preferred_element_type=np.float32)
    assert_same(got, want)
    formula = np.einsum("bmk,bkn->bmn", lhs * np.repeat(ls, 4, 2), rhs * np.repeat(rs, 4, 1))
    np.testing.assert_allclose(got, formula, rtol=1e-6)
    f = lambda a, b: lax.scaled_dot(a, b, lhs_scale=ls.astype(float),  # noqa: E731
                                    preferred_element_type=np.float64)
    check_dot_product(f, [lhs.astype(float), rhs.astype(float)])


# --- scatter_apply, composite, platform_dependent, collectives ----------------------------------

def test_scatter_apply_equals_jax_and_differentiates(jlax):
    x = RNG.standard_normal((4, 3))
    rows = np.array([[1], [2], [1], [9]])
    ours = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                       scatter_dims_to_operand_dims=(0,))
    theirs = jlax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                          scatter_dims_to_operand_dims=(0,))
    for mode in [None, "clip", "drop"]:
        got = lax.scatter_apply(x, rows, lambda v: v * v + 1, ours, update_shape=(4, 3),
                                mode=mode)
        want = jlax.scatter_apply(x, rows, lambda v: v * v + 1, theirs, update_shape=(4, 3),
                                  mode=mode)
        assert_same(got, want, what=str(mode))
        jitted = fg.jit(lambda x: lax.scatter_apply(x, rows, lambda v: v * v + 1, ours,
                                                    update_shape=(4, 3), mode=mode))
        assert jitted(x).tobytes() == got.tobytes()
    f = lambda x: lax.scatter_apply(x, rows, fnp.sin, ours, update_shape=(4, 3))  # noqa: E731
    check_jvp_fd(f, [x])
    check_dot_product(f, [x])


def test_composite_and_platform_dependent_run_their_functions(jlax):
    tangent = lax.composite(lambda x, *, scale=1.0: scale * lax.sin(x) / lax.cos(x), "my.tan")
    x = np.array([0.1, 0.7])
    np.testing.assert_allclose(tangent(x, scale=2.0), 2 * np.tan(x), rtol=1e-12)
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(tangent(v)))(x), 1 / np.cos(x) ** 2,
                               rtol=1e-12)
    out = lax.platform_dependent(x, cpu=lambda v: v * 2, cuda=lambda v: v * 3)
    assert_same(out, jlax.platform_dependent(x, cpu=lambda v: v * 2, cuda=lambda v: v * 3))
    assert_same(lax.platform_dependent(x, tpu=np.sin, default=np.cos), np.cos(x))
    with pytest.raises(NotImplementedError, match="cpu"):
        lax.platform_dependent(x, tpu=np.sin)
    with pytest.raises(ValueError, match="cuda"):  # (JAX: "Use 'cuda' or 'rocm'")
        lax.platform_dependent(x, gpu=np.sin, default=np.cos)
    # the CPU branch under every transform (JAX's, traced and chosen when it compiles)
    for transform in (fg.jit, fg.vmap):
        assert_same(transform(lambda v: lax.platform_dependent(v, cpu=np.sin, cuda=np.cos))(x),
                    np.sin(x))
    np.testing.assert_allclose(
        fg.grad(lambda v: lax.platform_dependent(v, cpu=np.sin, default=np.cos)[1])(x),
        [0.0, np.cos(0.7)], rtol=1e-15)
    assert lax.dce_sink(x) is None
    assert lax.with_sharding_constraint(x, None) is x


def test_collectives_built_from_others_equal_jax():
    jax = pytest.importorskip("jax")
    x = np.array([1.0, -2.0, 3.0, 0.5])
    for ours, theirs in [
            (lambda v: lax.pbroadcast(v, "i", 2), lambda v: jax.lax.pbroadcast(v, "i", 2)),
            (lambda v: lax.pshuffle(v, "i", [3, 0, 2, 1]),
             lambda v: jax.lax.pshuffle(v, "i", [3, 0, 2, 1])),
            (lambda v: v * lax.axis_size("i"), lambda v: v * jax.lax.axis_size("i"))]:
        np.testing.assert_array_equal(fg.vmap(ours, axis_name="i")(x),
                                      jax.vmap(theirs, axis_name="i")(x))
    # the derivative of a broadcast: every example's cotangent reaches the source
    g = fg.grad(lambda v: fnp.sum(fg.vmap(lambda e: lax.pbroadcast(e, "i", 1) * e,
                                          axis_name="i")(v)))(x)
    np.testing.assert_allclose(g, np.array([x[1], x.sum() + x[1], x[1], x[1]]), rtol=1e-12)
    np.testing.assert_array_equal(fg.vmap(lambda v: lax.pcast(v, "i", to="varying"),
                                          axis_name="i")(x), x)
    with pytest.raises(NameError, match="unbound axis name"):
        lax.axis_size("j")
    with pytest.raises(ValueError, match="permutation"):
        fg.vmap(lambda v: lax.pshuffle(v, "i", [0, 0, 1, 2]), axis_name="i")(x)


@pytest.mark.parametrize("call", [
    lambda: lax.rng_uniform(0.0, 1.0, (2,)),
    lambda: lax.rng_bit_generator(np.zeros(4, np.uint32), (2,)),
    lambda: lax.after_all(), lambda: lax.create_token(),
    lambda: lax.psend(1.0, "i", [(0, 1)]), lambda: lax.precv(None, (2,), "i", [(0, 1)]),
    lambda: lax.ragged_all_to_all(*[None] * 6, axis_name="i")],
    ids=["rng_uniform", "rng_bit_generator", "after_all", "create_token", "psend", "precv",
         "ragged_all_to_all"])
def test_names_funcgrad_cannot_run_say_why(call):
    with pytest.raises(NotImplementedError, match="not supported by funcgrad: .+"):
        call()


def test_types_named_in_user_code_exist_and_are_accepted():
    x = np.array([0.5, 1.0])
    assert lax.exp(x, accuracy=lax.AccuracyMode.HIGHEST).tobytes() == lax.exp(x).tobytes()
    assert lax.exp(x, accuracy=lax.Tolerance(rtol=1e-6)).tobytes() == lax.exp(x).tobytes()
    with pytest.raises(ValueError, match="At least one"):
        lax.Tolerance()
    for precision in [lax.DotAlgorithmPreset.F64_F64_F64,
                      lax.DotAlgorithm(np.float64, np.float64, np.float64),
                      lax.Precision.HIGHEST]:
        assert lax.dot(x, x, precision=precision) == lax.dot(x, x)
    assert lax.RandomAlgorithm.RNG_THREE_FRY == 1
    assert lax.ConvDimensionNumbers((0, 1), (0, 1), (0, 1)).out_spec == (0, 1)

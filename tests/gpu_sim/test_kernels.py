"""Every CUDA kernel equals its CPU counterpart (the primitive's own ``impl``) on
hypothesis-drawn small shapes: the GPU table entry ``IMPLS[name]`` against
``REGISTRY[name].impl`` on the same values, including broadcasting, size-0 and
size-1 axes, scalars, strided (transposed) operands, and int/float32/float64."""
import os
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import funcgrad as fg
from funcgrad.core import REGISTRY
from funcgrad.gpu import IMPLS as _IMPLS
from funcgrad.gpu import GpuArray, fused_vjp
from funcgrad.primitives.indexing import MODES, normalize_index

from conftest import assert_same
from index_strategies import index_expressions, numpy_result, shapes

warnings.filterwarnings("ignore", category=RuntimeWarning)

# (not those whose values are SciPy's, with no scalar definition: tested below to say so)
ELEMENTWISE = [p for p in REGISTRY.values() if p.elementwise is not None and p.elementwise.scalar]
SCIPY_VALUED = [p.name for p in REGISTRY.values()
                if p.elementwise is not None and not p.elementwise.scalar]
# (those of bits, on integers and booleans only, have no float definition: BITS)
BITS = [p.name for p in ELEMENTWISE
        if isinstance(p.elementwise.scalar, dict) and "f" not in p.elementwise.scalar]
UNARY = [p.name for p in ELEMENTWISE if len(p.elementwise.lins) == 1 and p.name not in BITS]
BINARY = [p.name for p in ELEMENTWISE if len(p.elementwise.lins) == 2 and p.name not in BITS]


class _ByName:
    """The GPU table, looked up by a primitive's name (for readable test parameters)."""

    def __getitem__(self, name):
        return _IMPLS[REGISTRY[name]]


IMPLS = _ByName()
FLOATS = [np.float64, np.float32]

# The per-primitive properties (one case per kernel: ~150 of them) draw three examples each
# in `make test`: the simulator runs a kernel as Python threads, ~0.1 s a draw. Their twins
# marked soak draw the profile's number (tests/conftest.py) for `make soak`.
FEW = settings(max_examples=min(3, settings.default.max_examples))

# inputs inside each function's domain (outside it both sides give NaN: tested below)
DOMAIN = {"log": (0.1, 3), "log2": (0.1, 3), "log10": (0.1, 3), "log1p": (-0.5, 3),
          "sqrt": (0.1, 3), "arcsin": (-0.9, 0.9), "arccos": (-0.9, 0.9),
          "arctanh": (-0.9, 0.9), "arccosh": (1.1, 3), "reciprocal": (0.5, 2),
          "power": (0.2, 2), "divide": (0.5, 2), "mod": (0.5, 3)}


def gpu(x):
    return fg.device_put(x, "cuda")


def check(name, args, params=None, gpu_args=None, **tol):
    """IMPLS[name] on GPU copies of the array arguments equals the CPU impl."""
    params = params or {}
    want = REGISTRY[name].impl(*args, **params)
    if gpu_args is None:
        gpu_args = [gpu(a) if isinstance(a, np.ndarray) else a for a in args]
    got = _IMPLS[REGISTRY[name]](*gpu_args, **params)
    assert_same(got, want, **tol)
    return got


@pytest.mark.parametrize("name", SCIPY_VALUED)
def test_scipy_valued_primitives_on_a_gpu_array_name_the_host_copy(name):
    args = [gpu(np.full(3, 0.5))] * len(REGISTRY[name].elementwise.lins)
    if name == "sph_harm_y":
        args[:2] = [2, 1]  # (integer degree and order)
    # (complex results, wofz, sph_harm_y, lambertw and the Hankel functions, take the route
    # of complex GPU arrays: the same fix)
    message = ("device_get" if name in ("wofz", "sph_harm_y", "lambertw", "hankel1",
                                        "hankel2", "hankel1e", "hankel2e", "modfresnelp_f",
                                        "modfresnelp_k", "modfresnelm_f", "modfresnelm_k")
               else rf"{name} takes its values from SciPy.*device_get")
    with pytest.raises(TypeError, match=message):
        _IMPLS[REGISTRY[name]](*args)


@st.composite
def arrays(draw, shape=None, dtype=None, lo=-2.0, hi=2.0):
    if shape is None:
        shape = tuple(draw(st.lists(st.integers(0, 4), max_size=3)))
    elif not isinstance(shape, tuple):
        shape = draw(shape)
    dtype = np.dtype(dtype or draw(st.sampled_from(FLOATS)))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    x = rng.uniform(lo, hi, shape)
    if dtype.kind in "iu":
        x = np.round(x * 3)
    if dtype.kind == "b":
        return x > 0
    return x.astype(dtype)


@st.composite
def broadcast_shapes(draw, n=2):
    base = draw(st.lists(st.integers(0, 4), max_size=3))
    shapes = []
    for _ in range(n):
        lead = draw(st.integers(0, len(base)))
        shapes.append(tuple(d if draw(st.booleans()) else 1 for d in base[lead:]))
    return shapes


# --- elementwise ------------------------------------------------------------------------------

def _unary_kernel_equals_cpu(name, data):
    lo, hi = DOMAIN.get(name, (-2, 2))
    x = data.draw(arrays(lo=lo, hi=hi))
    if name == "rint":
        x = np.round(x * 2) / 2  # halves: round half to even
    check(name, [x])


@pytest.mark.parametrize("name", UNARY)
@FEW
@given(data=st.data())
def test_unary_kernel_equals_cpu(name, data):
    _unary_kernel_equals_cpu(name, data)


@pytest.mark.soak
@pytest.mark.parametrize("name", UNARY)
@given(data=st.data())
def test_unary_kernel_equals_cpu_on_more_examples(name, data):
    _unary_kernel_equals_cpu(name, data)


@pytest.mark.parametrize("name", ["negative", "abs", "sign", "square", "floor", "rint", "exp",
                                  "sqrt", "logical_not", "isnan", "isfinite"])
def test_unary_kernel_on_integers_and_bools(name):
    x = np.arange(-4, 5, dtype=np.int32).reshape(3, 3)
    check(name, [x])
    if name in ("logical_not", "isnan", "abs"):
        check(name, [x > 0])


@pytest.mark.parametrize("name", UNARY)
def test_unary_kernel_special_values(name):
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e30, -1e-30])
    check(name, [x])
    check(name, [x.astype(np.float32)])


def _binary_kernel_equals_cpu(name, data):
    lo, hi = DOMAIN.get(name, (-2, 2))
    sa, sb = data.draw(broadcast_shapes())
    dtype = data.draw(st.sampled_from(FLOATS))
    x = data.draw(arrays(sa, dtype, lo, hi))
    y = data.draw(arrays(sb, data.draw(st.sampled_from([dtype, np.float64])), lo, hi))
    check(name, [x, y])
    # a Python scalar stays weakly typed; a NumPy scalar is strong
    check(name, [x, 1.5])
    check(name, [np.float32(1.25), y])


@pytest.mark.parametrize("name", BINARY)
@FEW
@given(data=st.data())
def test_binary_kernel_equals_cpu(name, data):
    _binary_kernel_equals_cpu(name, data)


@pytest.mark.soak
@pytest.mark.parametrize("name", BINARY)
@given(data=st.data())
def test_binary_kernel_equals_cpu_on_more_examples(name, data):
    _binary_kernel_equals_cpu(name, data)


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum", "mod",
                                  "power", "divide", "equal", "less", "logical_and",
                                  "logical_xor", "fmax"])
def test_binary_kernel_on_integers(name):
    x = np.arange(-6, 6, dtype=np.int64).reshape(3, 4)
    y = np.array([1, 2, 3, -2], dtype=np.int32)
    if name == "power":
        y = np.array([0, 1, 2, 3], dtype=np.int32)
    check(name, [x, y])
    check(name, [x, 3])


INTEGERS = [np.int8, np.int16, np.int64, np.uint8, np.uint32, np.uint64]


def _integers(dtype, n):
    """Zero, one, the extremes and values between, of ``dtype``."""
    info = np.iinfo(dtype)
    edge = np.array([0, 1, 6, info.max, info.min, info.max // 3], dtype)
    return np.resize(edge, n)


@pytest.mark.parametrize("name", BITS)
@pytest.mark.parametrize("dtype", INTEGERS)
def test_bits_kernel_on_integers_and_booleans(name, dtype):
    """Integers of every width at their extremes, and shift counts outside [0, width)."""
    x = _integers(dtype, 36).reshape(6, 6)
    if len(REGISTRY[name].elementwise.lins) == 1:
        check(name, [x])
        check(name, [x > 1])
        return
    y = (np.arange(6) * 13 - 8).astype(dtype) if "shift" in name else _integers(dtype, 6)[::-1]
    check(name, [x, y])
    check(name, [x, 3])
    if name.startswith("bitwise"):
        check(name, [x > 1, y > 1])


@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin", "logaddexp",
                                  "logaddexp2", "mod", "arctan2", "hypot", "power"])
def test_binary_kernel_special_values(name):
    v = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 2.0, -3.0])
    x, y = np.meshgrid(v, v)
    check(name, [x, y])


# The incomplete gamma and beta functions and their shape derivatives at large shapes
# (Temme's expansion differentiated; the fraction's odd denominators formed from 1 - x
# where one shape dwarfs the other), and the ternary ones, which the drawn tests above
# (unary, binary) do not reach.
INCOMPLETE_AT_LARGE_SHAPES = {
    "gammainc": [np.array([2e6, 1e8, 40.0, 3.0]), np.array([2e6, 0.9999e8, 52.6, 1.0])],
    "gammainc_da": [np.array([2e6, 1e8, 40.0, 3.0]), np.array([2e6, 0.9999e8, 52.6, 1.0])],
    "betainc": [np.array([1e8, 1e6, 2.0, 5e5]), np.array([2.0, 3.0, 3.0, 1e7]),
                np.array([0.9999999658578653, 0.99999527, 0.4, 0.0476])],
    "betaincc": [np.array([3.0, 1e5, 2.0, 1e8]), np.array([1e6, 1e8, 3.0, 2.0]),
                 np.array([4.73e-06, 0.0010116, 0.4, 0.9999999658578653])],
    "betainc_da": [np.array([1e8, 1e6, 2.0]), np.array([2.0, 3.0, 3.0]),
                   np.array([0.9999999658578653, 0.99999527, 0.4])],
    "betainc_db": [np.array([1e8, 1e6, 2.0]), np.array([2.0, 3.0, 3.0]),
                   np.array([0.9999999658578653, 0.99999527, 0.4])],
}


@pytest.mark.parametrize("name", sorted(INCOMPLETE_AT_LARGE_SHAPES))
@pytest.mark.parametrize("dtype", FLOATS)
def test_incomplete_gamma_and_beta_kernels_at_large_shapes(name, dtype):
    check(name, [v.astype(dtype) for v in INCOMPLETE_AT_LARGE_SHAPES[name]],
          rtol=1e-12 if dtype == np.float64 else 1e-4, atol=0.0)


@given(data=st.data())
def test_where_and_clip_kernels(data):
    sc, sx, sy = data.draw(broadcast_shapes(3))
    cond = data.draw(arrays(sc, bool))
    x = data.draw(arrays(sx))
    y = data.draw(arrays(sy))
    check("where", [cond, x, y])
    check("where", [cond, x, 0.0])
    check("clip", [x, -0.5, y])
    check("clip", [x, -np.inf, 0.25])


def test_elementwise_on_strided_views():
    x = np.random.default_rng(0).standard_normal((3, 4, 5))
    xt = IMPLS["transpose"](gpu(x), perm=(2, 0, 1))
    assert not xt.is_contiguous
    assert_same(IMPLS["sin"](xt), np.sin(x.transpose(2, 0, 1)))
    col = IMPLS["gather"](gpu(x), spec=(("s", 0, 3, 1), ("s", 3, -1, -2), ("s", 0, 5, 2)))
    y = x[:, 3::-2, ::2]
    assert_same(IMPLS["multiply"](col, col), y * y)


def test_simulator_leaves_are_the_c_library_looked_up_once_and_safe_in_threads():
    # (under the simulator every F.<leaf> of a kernel ran the module's __getattr__: a new
    # C-library handle and an inspect.signature, which parses text with ast, per call and
    # per thread; CPython 3.11's ast conversion fails when two threads parse at once)
    import math
    import threading
    from funcgrad.kernels.cuda import _scalar as F
    if not getattr(F, "SIM", False):
        pytest.skip("the simulator's leaves")
    assert F._arity(math.lgamma) == 1 and F._arity(math.ldexp) == 2
    results, errors = [], []

    def leaf_calls():
        try:
            results.append((F.lgamma(0.0), F.erf(0.5), F.gamma(-1.0)))
        except Exception as e:  # (collected: the assertion below names it)
            errors.append(e)
    threads = [threading.Thread(target=leaf_calls) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert F.lgamma is F.lgamma  # kept as a module attribute
    for lg, erf, gamma in results:
        assert lg == np.inf and erf == math.erf(0.5) and np.isnan(gamma)


def test_smirnov_derivative_kernel():
    # (n >= 1, d in [0, 1]: the operands the generic tests draw give NaN on both sides;
    # d = j/n and the ends, where terms of its sum enter, included; float32: the sum of
    # exp(log-gammas) cancels ~n-fold near d = 0, and CUDA's lgamma is not the CPU's:
    # they differ by ~2e-4 at n = 30; n stays small: the simulator runs the sum's terms
    # as Python)
    n = np.array([1.0, 2.0, 5.0, 7.0, 13.0])[:, None]
    d = np.concatenate([np.linspace(0, 1, 11), [1 / 7, 0.33]])[None]
    for dtype in FLOATS:
        for k in (0.0, 1.0, 3.0):
            check("smirnov_derivative", [n.astype(dtype), d.astype(dtype), k],
                  rtol=1e-3 if dtype == np.float32 else None)


FUSED = [(p.name, i) for p in ELEMENTWISE if p.differentiable
         for i, lin in enumerate(p.elementwise.lins) if lin is not None]


def _fused_vjp_kernel_equals_the_rule_on_the_cpu(name, i, data):
    prim = REGISTRY[name]
    n = len(prim.elementwise.lins)
    shape = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple))
    dtype = data.draw(st.sampled_from(FLOATS))
    args = [data.draw(arrays(shape, dtype, 0.2, 0.9)) for _ in range(n)]
    if prim.elementwise.compute == "select":
        args[0] = args[0] > 0.5
    out = prim.impl(*args)
    g = np.linspace(-1, 1, out.size).reshape(out.shape).astype(dtype)
    got = fused_vjp(prim, i, gpu(g), [gpu(a) for a in args], gpu(out))
    if got is None:
        return
    want = prim.elementwise.lins[i](g, *args, out)
    assert_same(got, np.broadcast_to(want, out.shape).astype(dtype))


@pytest.mark.parametrize("name,i", FUSED)
@FEW
@given(data=st.data())
def test_fused_vjp_kernel_equals_the_rule_on_the_cpu(name, i, data):
    """Every first-order rule, generated as one GPU kernel, gives the rule's own values
    (a rule that stays several kernels is checked to say so: None)."""
    _fused_vjp_kernel_equals_the_rule_on_the_cpu(name, i, data)


@pytest.mark.soak
@pytest.mark.parametrize("name,i", FUSED)
@given(data=st.data())
def test_fused_vjp_kernel_equals_the_rule_on_the_cpu_on_more_examples(name, i, data):
    _fused_vjp_kernel_equals_the_rule_on_the_cpu(name, i, data)


@given(x=arrays(), dtype=st.sampled_from([np.float32, np.float64, np.int32, np.int64, bool]))
def test_convert_element_type_kernel(x, dtype):
    check("convert_element_type", [x], {"dtype": np.dtype(dtype)})


# --- reductions ---------------------------------------------------------------------------------

@st.composite
def reduction_case(draw, nonempty=False):
    shape = tuple(draw(st.lists(st.integers(1 if nonempty else 0, 5), min_size=1, max_size=3)))
    axes = tuple(sorted(draw(st.sets(st.integers(0, len(shape) - 1), min_size=1))))
    keepdims = draw(st.booleans())
    dtype = draw(st.sampled_from(FLOATS + [np.int32]))
    return draw(arrays(shape, dtype)), axes, keepdims


@pytest.mark.parametrize("name", ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min",
                                  "logsumexp"])
@given(data=st.data())
def test_reduction_kernel_equals_cpu(name, data):
    nonempty = name in ("reduce_max", "reduce_min", "logsumexp")
    x, axes, keepdims = data.draw(reduction_case(nonempty))
    check(name, [x], {"axes": axes, "keepdims": keepdims})
    if x.ndim > 1:  # a transposed (strided) operand
        xt = np.transpose(x)
        got = IMPLS[name](IMPLS["transpose"](gpu(x), perm=tuple(reversed(range(x.ndim)))),
                          axes=axes, keepdims=keepdims)
        assert_same(got, REGISTRY[name].impl(xt, axes=axes, keepdims=keepdims))


@pytest.mark.parametrize("shape,axes", [((1000,), (0,)), ((3, 300), (1,)), ((300, 3), (0,)),
                                        ((2, 50, 6), (0, 2)), ((40, 40), (0, 1)), ((7, 0), (1,))])
@pytest.mark.parametrize("name", ["reduce_sum", "reduce_max", "logsumexp"])
def test_long_reductions_take_two_passes(name, shape, axes):
    x = np.random.default_rng(1).standard_normal(shape)
    if name == "reduce_max" and 0 in shape:
        return
    if name == "logsumexp" and 0 in shape:
        return
    check(name, [x], {"axes": axes, "keepdims": False}, rtol=1e-9)


def test_reductions_with_nan_inf_and_bools():
    x = np.array([[1.0, np.nan, 3.0], [-np.inf, -np.inf, -np.inf], [np.inf, 1.0, 2.0]])
    for name in ("reduce_sum", "reduce_max", "reduce_min", "logsumexp"):
        check(name, [x], {"axes": (1,), "keepdims": False})
    b = x > 1
    check("reduce_max", [b], {"axes": (0,), "keepdims": True})
    check("reduce_min", [b], {"axes": (1,), "keepdims": False})


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@given(data=st.data())
def test_arg_reduction_kernel_equals_cpu(name, data):
    x, axes, keepdims = data.draw(reduction_case(nonempty=True))
    x = np.round(x)  # ties: the first index wins
    check(name, [x], {"axis": axes[0], "keepdims": keepdims})


def test_argmax_with_nan_and_long_rows():
    x = np.random.default_rng(2).standard_normal((3, 40))
    x[1, 10] = np.nan
    x[1, 30] = np.nan
    check("argmax", [x], {"axis": 1, "keepdims": False})
    check("argmin", [x], {"axis": 0, "keepdims": False})


@given(data=st.data())
def test_cumsum_kernel_equals_cpu(data):
    x, axes, _ = data.draw(reduction_case())
    check("cumsum", [x], {"axis": axes[0]})


@pytest.mark.parametrize("shape,axis", [((70,), 0),
                                        pytest.param((2, 70), 1, marks=pytest.mark.soak)])
def test_long_cumsum_uses_block_scan(shape, axis):
    x = np.random.default_rng(3).standard_normal(shape)
    check("cumsum", [x], {"axis": axis}, rtol=1e-9)
    if len(shape) == 1:
        check("cumsum", [np.arange(np.prod(shape)).reshape(shape) % 7], {"axis": axis})


@given(data=st.data())
def test_argsort_kernel_equals_cpu(data):
    x, axes, _ = data.draw(reduction_case())
    x = np.round(x * 2)  # ties: the sort is stable
    check("argsort", [x], {"axis": axes[0]})


def test_argsort_puts_nan_last_and_handles_long_rows():
    x = np.random.default_rng(4).standard_normal((2, 40))
    x[0, [3, 9]] = np.nan
    check("argsort", [x], {"axis": 1})


# --- structural ----------------------------------------------------------------------------------

@given(x=arrays(shape=(2, 3, 4)), perm=st.permutations([0, 1, 2]))
def test_transpose_reshape_broadcast_kernels(x, perm):
    xt = check("transpose", [x], {"perm": tuple(perm)})
    assert_same(IMPLS["reshape"](xt, shape=(6, 4)), np.transpose(x, perm).reshape(6, 4))
    check("reshape", [x], {"shape": (4, 6)})
    check("broadcast_to", [x[:, :1]], {"shape": (5, 2, 3, 4)})


@given(data=st.data())
def test_concatenate_and_split_kernels(data):
    shape = tuple(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3)))
    axis = data.draw(st.integers(0, len(shape) - 1))
    pieces = []
    for dtype in (np.float64, np.float32, np.int32):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        pieces.append(data.draw(arrays(tuple(s), dtype)))
    check("concatenate", pieces, {"axis": axis})
    whole = np.concatenate(pieces, axis)
    n = whole.shape[axis]
    bounds = tuple(sorted(data.draw(st.lists(st.integers(0, n), max_size=3))))
    check("split", [whole], {"bounds": bounds, "axis": axis})


def test_stop_gradient_and_custom_call_pass_through():
    x = gpu(np.arange(3.0))
    assert IMPLS["stop_gradient"](x) is x


# --- matmul and einsum ---------------------------------------------------------------------------

@st.composite
def matmul_shapes(draw):
    m, k, n = (draw(st.integers(0, 6)) for _ in range(3))
    batch = draw(broadcast_shapes())
    a = batch[0] + (m, k) if draw(st.booleans()) or batch[0] else (k,)
    b = batch[1] + (k, n) if draw(st.booleans()) or batch[1] else (k,)
    return a, b


@given(data=st.data())
def test_matmul_kernel_equals_cpu(data):
    sa, sb = data.draw(matmul_shapes())
    dtype = data.draw(st.sampled_from(FLOATS + [np.int64]))
    a = data.draw(arrays(sa, dtype))
    b = data.draw(arrays(sb, dtype))
    check("matmul", [a, b])


def test_matmul_of_transposed_views_and_larger_tiles():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((13, 9))
    b = rng.standard_normal((11, 9))
    bt = IMPLS["transpose"](gpu(b), perm=(1, 0))
    assert_same(IMPLS["matmul"](gpu(a), bt), a @ b.T, rtol=1e-12)
    a32 = rng.standard_normal((2, 1, 7, 5)).astype(np.float32)
    b32 = rng.standard_normal((3, 5, 6)).astype(np.float32)
    check("matmul", [a32, b32])


@pytest.mark.parametrize("subscripts,shapes", [
    ("ij,jk->ik", [(3, 4), (4, 2)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ijk,kj->ik", [(2, 3, 4), (4, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("ab,bc->ca", [(2, 3), (3, 4)]),
])
def test_einsum_kernel_equals_cpu(subscripts, shapes):
    rng = np.random.default_rng(6)
    check("einsum", [rng.standard_normal(s) for s in shapes], {"subscripts": subscripts})


# --- indexing ------------------------------------------------------------------------------------

@st.composite
def index_case(draw):
    """An array and any index NumPy accepts for it (tests/index_strategies.py)."""
    shape = draw(shapes(min_dims=1, max_dims=3))
    idx = draw(index_expressions(shape))
    x = draw(arrays(shape))
    if numpy_result(x, idx)[1] is not None:  # NumPy refuses it: tested on the CPU
        idx = tuple(slice(None) for _ in shape)
    return x, idx


@given(case=index_case())
def test_gather_kernel_equals_cpu(case):
    x, idx = case
    spec, index_arrays = normalize_index(idx, x.shape)
    check("gather", [x, *index_arrays], {"spec": spec},
          gpu_args=[gpu(x), *index_arrays])
    if index_arrays:  # index arrays already on the device
        check("gather", [x, *index_arrays], {"spec": spec},
              gpu_args=[gpu(x), *[gpu(np.asarray(a)) for a in index_arrays]])


@given(case=index_case(), mode=st.sampled_from(MODES))
def test_scatter_kernel_equals_cpu(case, mode):
    """Repeated targets included: ``set`` keeps the last write, as NumPy does."""
    x, idx = case
    spec, index_arrays = normalize_index(idx, x.shape)
    region = x[idx].shape
    updates = np.linspace(-1, 1, int(np.prod(region))).reshape(region).astype(x.dtype)
    check("scatter", [x, updates, *index_arrays], {"spec": spec, "mode": mode},
          gpu_args=[gpu(x), gpu(updates), *index_arrays])
    check("scatter", [x, 2.5, *index_arrays], {"spec": spec, "mode": mode},
          gpu_args=[gpu(x), 2.5, *index_arrays])


def test_scatter_add_accumulates_repeated_indices():
    x = np.zeros((4, 3))
    idx = (np.array([0, 2, 0, 0, 3]),)
    spec, arrays_ = normalize_index(idx, x.shape)
    u = np.arange(15.0).reshape(5, 3)
    check("scatter", [x, u, *arrays_], {"spec": spec, "mode": "add"},
          gpu_args=[gpu(x), gpu(u), *arrays_])
    xi = np.zeros(5, np.int32)
    spec, arrays_ = normalize_index((np.array([1, 1, 4, 1]),), xi.shape)
    check("scatter", [xi, np.int32(2), *arrays_], {"spec": spec, "mode": "add"},
          gpu_args=[gpu(xi), np.int32(2), *arrays_])


def test_gather_with_device_index_out_of_bounds_raises():
    x = gpu(np.arange(5.0))
    spec, _ = normalize_index((np.array([0]),), (5,))
    with pytest.raises(IndexError, match="out of bounds"):
        IMPLS["gather"](x, gpu(np.array([1, 7])), spec=spec)
    with pytest.raises(IndexError, match="out of bounds"):
        IMPLS["gather"](x, np.array([1, -6]), spec=spec)


# --- linear algebra ------------------------------------------------------------------------------

def _spd(rng, batch, n, dtype=np.float64):
    a = rng.standard_normal(batch + (n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


# (batched and not, 1x1 and 4x4, each dtype in `make test`; the rest of the grid: soak)
LINALG_CASES = [pytest.param(dtype, n, batch, marks=() if (dtype, n, batch) in [
    (np.float64, 4, (2,)), (np.float32, 1, ())] else pytest.mark.soak)
    for dtype in FLOATS for n in (1, 4) for batch in ((), (2,))]


@pytest.mark.parametrize("dtype,n,batch", LINALG_CASES)
def test_linalg_kernels_equal_cpu(batch, n, dtype):
    rng = np.random.default_rng(7 + n)
    a = (rng.standard_normal(batch + (n, n)) + 2 * np.eye(n)).astype(dtype)
    tol = {"rtol": 1e-4, "atol": 1e-4} if dtype == np.float32 else {"rtol": 1e-9, "atol": 1e-9}
    check("inv", [a], **tol)
    check("det", [a], **tol)
    check("slogdet", [a], **tol)
    check("cholesky", [_spd(rng, batch, n, dtype)], **tol)
    check("solve", [a, rng.standard_normal(batch + (n, 2)).astype(dtype)], **tol)
    check("solve", [a, rng.standard_normal((n,)).astype(dtype)], **tol)


def test_linalg_singular_and_not_positive_definite():
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        IMPLS["inv"](gpu(a))
    check("det", [a])
    check("slogdet", [np.stack([a, np.eye(2), -np.eye(2)])])
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        IMPLS["cholesky"](gpu(-np.eye(3)))


def test_every_gpu_implementation_is_exercised_here():
    """The tests of this folder cover every entry of the GPU table: each names it, as
    ``"name"`` (this file) or as the primitive object ``<module>.name_p``
    (test_decompositions.py)."""
    from pathlib import Path
    source = "".join(path.read_text() for path in Path(__file__).parent.glob("test_*.py"))
    table = {p.name for p in _IMPLS}  # (graph-holding primitives: funcgrad.devices.GPU)
    named = {n for n in table if f'"{n}"' in source or f".{n}_p" in source}
    # (every one, by the parametrised tests; the SciPy-valued ones by their error's test)
    elementwise = {p.name for p in ELEMENTWISE} | set(SCIPY_VALUED)
    # Graph-holding primitives evaluate their graphs (device-agnostic, like custom_call);
    # they are exercised in test_graph_primitives.py.
    assert table - named - elementwise <= {"custom_call", "jit_call", "cond", "scan",
                                           "while_loop"}
    assert isinstance(gpu(np.zeros(2)), GpuArray)


@pytest.mark.skipif(os.environ.get("NUMBA_ENABLE_CUDASIM") != "1", reason="a repair to the simulator (a real GPU runs no simulator)")
def test_two_simulator_threads_reaching_a_shared_array_together_get_one_array():
    """Numba's simulator made a static shared array in two steps (look up, then record),
    so a thread overtaken between them kept a private array: a reduction lost its part
    now and then.  Thread ``a`` is held inside the allocation while ``b`` reaches the
    same line; both must end with the same array (``kernels/cuda/_simulator.py``)."""
    import threading

    from funcgrad.kernels.cuda import _config  # (importing it applies the repair)
    from numba.cuda.simulator.kernelapi import FakeCUDAShared

    assert _config.SIM

    inside, release = threading.Event(), threading.Event()

    class HeldSize:
        def __init__(self, hold):
            self.hold = hold

        def __index__(self):
            if self.hold:
                inside.set()
                release.wait(10)
            return 8

    shared = FakeCUDAShared(0)
    got = {}

    def reach(name, hold):
        got[name] = shared.array(HeldSize(hold), np.float64)  # one line for both threads

    a = threading.Thread(target=reach, args=("a", True))
    b = threading.Thread(target=reach, args=("b", False))
    a.start()
    assert inside.wait(10)
    b.start()
    b.join(0.3)  # unrepaired, b has made its own array by now
    release.set()
    a.join(10)
    b.join(10)
    assert got["a"] is got["b"]

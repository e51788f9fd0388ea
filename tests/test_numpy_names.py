"""NumPy's remaining names in ``funcgrad.numpy``: bits (``packbits``/``unpackbits``),
memory (``putmask``, ``copyto``, ``require``, ``asarray_chkfinite``), printing and files,
``fromiter``, ``frompyfunc``, ``ndenumerate``, ``isscalar``, and NumPy's own types and
helpers re-exported.  Expected values come from NumPy itself or are written out."""
import io

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.interpreters.graph import eval_graph
from helpers import check_dot_product, check_jvp_fd


def test_every_numpy_name_that_acts_on_arrays_is_in_funcgrad_numpy():
    # What is left out, and why: NumPy's private core alias, its Fortran wrapper builder
    # and its test runner (the non-differentiable namespaces -- strings, datetimes, memory
    # maps, matrix... -- are NumPy's own objects, re-exported: tests/test_numpy_rest.py).
    left_out = {"core", "f2py", "test"}
    missing = {n for n in np.__all__ if not n.startswith("_") and not hasattr(fnp, n)} - left_out
    assert not missing, sorted(missing)
    public = {n for n in dir(np) if not n.startswith("_")}
    assert not {n for n in public - left_out if not hasattr(fnp, n)}


def test_jax_numpys_names_are_here_too_except_its_own_dtypes():
    jnp = pytest.importorskip("jax.numpy")
    jax_only = {n for n in dir(jnp) if not n.startswith("_") and not hasattr(fnp, n)}
    # (bfloat16, the float8/int4 families and jnp.ufunc are JAX's own types)
    assert {n for n in jax_only if not (n.startswith(("float8", "float4", "float6", "int",
                                                      "uint")) or n in {"bfloat16", "ufunc",
                                                                        "ComplexWarning"})} \
        == set()
    assert fnp.float_ is np.float64 and fnp.complex_ is np.complex128  # as jax.numpy
    assert fnp.bool is np.bool_ and fnp.uint is np.uint and fnp.intc is np.intc


# --- packbits / unpackbits ----------------------------------------------------------------------

def _bits_cases(shape, bitorder):
    """``(a, functions, want, case)`` over every axis and a range of counts: packbits
    (funcgrad's, and plain NumPy's on a traced value) and unpackbits, ``want`` NumPy's."""
    def pack(axis):
        return [lambda v: fnp.packbits(v, axis, bitorder),
                lambda v: np.packbits(v > 0, axis=axis, bitorder=bitorder)]

    def unpack(axis, count):
        return [lambda v: fnp.unpackbits(v, axis, count, bitorder)]

    a = (np.random.default_rng(1).integers(0, 3, shape)).astype(np.int32)
    for axis in [None, *range(-len(shape), len(shape))]:
        packed = np.packbits(a, axis=axis, bitorder=bitorder)
        yield a, pack(axis), packed, axis
        for count in [None, 0, 3, -2, packed.shape[0 if axis is None else axis] * 8 + 5]:
            yield (packed, unpack(axis, count),
                   np.unpackbits(packed, axis=axis, count=count, bitorder=bitorder),
                   (axis, count))


@pytest.mark.parametrize("shape", [(9,), (3, 10), (2, 3, 5)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits_traced_equals_numpy(shape, bitorder):
    # The captured program, run primitive by primitive: the lowering, every axis and count
    # (test_packbits_compiled_equals_numpy compiles the same programs).
    for a, functions, want, case in _bits_cases(shape, bitorder):
        for f in functions:
            got, = eval_graph(fg.make_graph(f)(a), a)
            assert got.dtype == np.uint8
            np.testing.assert_array_equal(got, want, err_msg=f"axis, count: {case}")


# One fg.jit per axis and count, each a Numba compile: make test compiles the 2-D grid (both
# axes and the flattened case), make soak every shape.
@pytest.mark.parametrize("shape", [pytest.param((9,), marks=pytest.mark.soak), (3, 10),
                                   pytest.param((2, 3, 5), marks=pytest.mark.soak)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_packbits_compiled_equals_numpy(shape, bitorder):
    for a, functions, want, case in _bits_cases(shape, bitorder):
        for f in functions:
            got = fg.jit(f)(a)
            assert got.dtype == np.uint8
            np.testing.assert_array_equal(got, want, err_msg=f"axis, count: {case}")


def test_packbits_by_hand_and_under_vmap():
    bits = np.array([[1, 0, 1, 1, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0, 1, 0]], bool)
    np.testing.assert_array_equal(fg.vmap(fnp.packbits)(bits), [[176, 128], [1, 0]])
    np.testing.assert_array_equal(fnp.packbits(bits[0], bitorder="little"), [13, 1])
    np.testing.assert_array_equal(fg.vmap(fnp.unpackbits)(np.array([[5], [128]], np.uint8)),
                                  [[0, 0, 0, 0, 0, 1, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0]])


def test_bits_errors_name_the_problem():
    with pytest.raises(TypeError, match="integer or boolean"):
        fg.jit(fnp.packbits)(np.ones(3))
    with pytest.raises(TypeError, match="uint8"):
        fg.jit(fnp.unpackbits)(np.ones(3, np.int32))
    with pytest.raises(ValueError, match="-count"):
        fg.jit(lambda v: fnp.unpackbits(v, count=-9))(np.ones(1, np.uint8))
    with pytest.raises(ValueError, match="bitorder"):
        fnp.packbits(np.ones(3, bool), bitorder="middle")


# --- putmask / copyto / require / asarray_chkfinite ----------------------------------------------

def test_putmask_and_copyto_write_into_plain_arrays_as_numpy():
    a, b = np.arange(6.0), np.arange(6.0)
    assert fnp.putmask(a, a % 2 == 0, [10.0, 20.0, 30.0]) is None
    np.putmask(b, b % 2 == 0, [10.0, 20.0, 30.0])
    np.testing.assert_array_equal(a, b)
    dst, ref = np.zeros((2, 3), np.float32), np.zeros((2, 3), np.float32)
    where = np.array([True, False, True])
    assert fnp.copyto(dst, [1.0, 2.0, 3.0], where=where) is None
    np.copyto(ref, [1.0, 2.0, 3.0], where=where)
    np.testing.assert_array_equal(dst, ref)
    with pytest.raises(TypeError, match="Cannot cast"):
        fnp.copyto(np.zeros(2, np.int32), np.ones(2), casting="safe")


@pytest.mark.parametrize("call, fix", [
    (lambda x: fnp.putmask(x, x > 0, 0.0), r"fnp.where\(mask, fnp.resize\(values"),
    (lambda x: np.putmask(x, x > 0, 0.0), r"fnp.where\(mask, fnp.resize\(values"),
    (lambda x: fnp.copyto(x, 1.0), r"fnp.where\(where, fnp.broadcast_to\(src"),
    (lambda x: np.copyto(x, 1.0), r"fnp.where\(where, fnp.broadcast_to\(src"),
    (lambda x: fnp.require(x, None, "W"), r"immutable.*x.at\[i\].set"),
])
def test_writes_into_traced_arrays_raise_naming_the_rewrite(call, fix):
    for transform in (fg.grad, fg.vmap, fg.jit):
        with pytest.raises(TypeError, match=fix):
            transform(lambda x: fnp.sum(call(x) or x))(np.ones(3))


def test_the_named_rewrite_of_putmask_gives_numpys_values_and_derivatives():
    x, mask, values = np.array([0.5, -1.0, 2.0, -3.0]), np.array([1, 0, 1, 1], bool), [7.0, 8.0]
    want = x.copy()
    np.putmask(want, mask, values)
    rewrite = lambda v: fnp.where(mask, fnp.resize(v, x.shape), x)  # noqa: E731
    np.testing.assert_array_equal(rewrite(np.array(values)), want)
    check_jvp_fd(rewrite, [np.array(values)])
    check_dot_product(rewrite, [np.array(values)])


def test_copying_a_value_with_a_derivative_into_a_plain_array_raises():
    with pytest.raises(fg.errors.DerivativeDroppedError if hasattr(fg, "errors") else TypeError):
        fg.grad(lambda x: fnp.copyto(np.zeros(2), x) or fnp.sum(x))(np.ones(2))
    with pytest.raises(TypeError, match="cannot be turned into a plain NumPy array"):
        fg.vmap(lambda x: fnp.copyto(np.zeros(2), x) or x)(np.ones((3, 2)))


def test_require_plain_is_numpys_and_traced_keeps_the_derivative():
    x = np.ones((3, 2)).T
    got, want = fnp.require(x, np.float32, ["C", "O"]), np.require(x, np.float32, ["C", "O"])
    assert got.flags.c_contiguous and got.flags.owndata and got.dtype == want.dtype == np.float32
    g = fg.grad(lambda v: fnp.sum(fnp.require(v, np.float64, ["CONTIGUOUS"]) * v))(np.arange(3.0))
    np.testing.assert_array_equal(g, [0.0, 2.0, 4.0])
    with pytest.raises(ValueError, match="both C and Fortran"):
        fg.jit(lambda v: fnp.require(v, None, "CF"))(np.ones(2))
    with pytest.raises(KeyError, match="unknown requirement"):
        fg.jit(lambda v: fnp.require(v, None, ["Z"]))(np.ones(2))


def test_asarray_chkfinite_checks_traced_values_where_known():
    g = fg.grad(lambda v: fnp.sum(fnp.asarray_chkfinite(v) ** 2))(np.array([1.0, -2.0]))
    np.testing.assert_array_equal(g, [2.0, -4.0])
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        fg.grad(lambda v: fnp.sum(fnp.asarray_chkfinite(v * 2.0)))(np.array([1.0, np.inf]))
    with pytest.raises(fg.ConcretizationError, match="asarray_chkfinite.*fnp.isfinite"):
        fg.jit(fnp.asarray_chkfinite)(np.ones(2))
    assert fg.jit(fnp.asarray_chkfinite)(np.arange(2)).dtype.kind == "i"  # (ints: finite)
    with pytest.raises(ValueError):
        fnp.asarray_chkfinite([1.0, np.nan])


# --- printing, files, fromiter ------------------------------------------------------------------

def test_printing_plain_arrays_is_numpys():
    x = np.array([[1.0, 2.123456], [np.pi, -0.5]])
    assert fnp.array2string(x, precision=3, separator=",") == np.array2string(
        x, precision=3, separator=",")
    assert fnp.array_repr(x, 30) == np.array_repr(x, 30)
    assert fnp.array_str(x, precision=2) == np.array_str(x, precision=2)
    with fnp.printoptions(precision=1):
        assert fnp.array_str(x) == np.array_str(x) == "[[ 1.   2.1]\n [ 3.1 -0.5]]"


def test_printing_traced_arrays_shows_known_values_or_the_description():
    seen = []
    fg.grad(lambda v: seen.append((np.array_str(v), fnp.array2string(v, precision=1)))
            or fnp.sum(v))(np.array([0.25, 1.0]))
    assert seen == [("[0.25 1.  ]", "[0.2 1. ]")]
    fg.vmap(lambda v: seen.append((np.array_repr(v), fnp.array_str(v))) or v)(np.ones((2, 2)))
    assert seen[1] == (seen[1][0], seen[1][0]) and "BatchTracer<f64[2]>" in seen[1][0]


def test_saving_plain_arrays_round_trips_and_traced_ones_raise(tmp_path):
    x = np.arange(6.0).reshape(2, 3)
    fnp.save(tmp_path / "x.npy", x)
    np.testing.assert_array_equal(fnp.load(tmp_path / "x.npy"), x)
    fnp.savez(tmp_path / "z.npz", x, w=2 * x)
    with fnp.load(tmp_path / "z.npz") as z:
        np.testing.assert_array_equal(z["arr_0"], x)
        np.testing.assert_array_equal(z["w"], 2 * x)
    text = io.StringIO()
    fnp.savetxt(text, x, fmt="%.1f", delimiter=",")
    np.testing.assert_array_equal(fnp.loadtxt(io.StringIO(text.getvalue()), delimiter=","), x)
    for save in (lambda v: np.save(tmp_path / "t.npy", v), lambda v: fnp.savez(io.BytesIO(), a=v),
                 lambda v: np.savez_compressed(io.BytesIO(), v),
                 lambda v: np.savetxt(io.StringIO(), v)):
        with pytest.raises(TypeError, match="has_aux=True"):
            fg.grad(lambda v: save(v) or fnp.sum(v))(np.ones(2))
    assert not (tmp_path / "t.npy").exists()


def test_fromiter_is_numpys_on_numbers_and_stacks_traced_items():
    np.testing.assert_array_equal(fnp.fromiter(iter(range(5)), np.float32, 3),
                                  np.fromiter(iter(range(5)), np.float32, 3))
    f = lambda v: fnp.fromiter((v[i] * i for i in range(3)), np.float64)  # noqa: E731
    np.testing.assert_array_equal(f(np.array([1.0, 2.0, 3.0])), [0.0, 2.0, 6.0])
    check_jvp_fd(f, [np.array([1.0, 2.0, 3.0])])
    g = fg.grad(lambda v: fnp.sum(fnp.fromiter(iter([v, v * v]), "(2,)f8")))(np.ones(2))
    np.testing.assert_array_equal(g, [3.0, 3.0])
    with pytest.raises(ValueError, match="iterator too short"):
        fg.grad(lambda v: fnp.sum(fnp.fromiter(iter([v]), float, 2)))(1.0)


# --- frompyfunc, ndenumerate, isscalar ----------------------------------------------------------

def test_frompyfunc_applies_over_arrays_and_differentiates():
    hyp = fnp.frompyfunc(lambda a, b: fnp.sqrt(a * a + b * b), 2, 1)
    x, y = np.array([3.0, 5.0, 8.0]), np.array([[4.0], [6.0]])
    np.testing.assert_allclose(hyp(x, y), np.hypot(x, y), rtol=1e-15)
    np.testing.assert_allclose(hyp.outer(x, x[:2]), np.hypot.outer(x, x[:2]), rtol=1e-15)
    np.testing.assert_allclose(hyp.reduce(np.array([3.0, 4.0, 12.0])), 13.0, rtol=1e-15)
    check_jvp_fd(lambda a: hyp(a, y), [x])
    check_dot_product(lambda a: hyp.reduce(a), [x])
    two = fnp.frompyfunc(lambda a: (a + 1, a * 2), 1, 2)
    np.testing.assert_array_equal(two(x)[1], 2 * x)
    assert (hyp.nin, hyp.nout, hyp.nargs) == (2, 1, 3)
    with pytest.raises(TypeError, match="takes 2 array argument"):
        hyp(x)
    with pytest.raises(ValueError, match="identity"):
        hyp.reduce(np.zeros(0))
    np.testing.assert_array_equal(fnp.frompyfunc(fnp.add, 2, 1, identity=0.0).reduce(
        np.zeros((0, 2))), [0.0, 0.0])


def test_ndenumerate_yields_numpys_pairs_and_traced_elements():
    x = np.arange(6.0).reshape(2, 3)
    assert [(i, float(v)) for i, v in fnp.ndenumerate(x)] == \
        [(i, float(v)) for i, v in np.ndenumerate(x)]
    g = fg.grad(lambda v: sum(v * (i + 2 * j) for (i, j), v in fnp.ndenumerate(v)))(x)
    np.testing.assert_array_equal(g, [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]])
    assert list(fnp.ndindex(2, 1)) == [(0, 0), (1, 0)]


def test_isscalar_is_numpys_on_plain_values_and_jaxs_on_traced_ones():
    for value in (1.5, 3, np.float32(1.0), "s", np.array(1.0), [1.0], np.ones(2), None):
        assert fnp.isscalar(value) == np.isscalar(value)
    seen = []
    for transform in (fg.grad, fg.jit):
        transform(lambda v: seen.append(fnp.isscalar(v)) or v * 1.0)(2.0)
    fg.vmap(lambda v: seen.append((fnp.isscalar(v), fnp.isscalar(v[0]))) or v)(np.ones((2, 3)))
    assert seen == [True, True, (False, True)]
    assert fnp.iterable([1]) and not fnp.iterable(1.0)


def test_numpys_own_helpers_are_reexported_unchanged():
    assert fnp.binary_repr(5, 8) == "00000101" and fnp.base_repr(255, 16) == "FF"
    assert fnp.mintypecode("df") == "d" and fnp.typename("d") == "double precision"
    assert fnp.isfortran(np.ones((2, 2), order="F"))
    with fnp.errstate(divide="ignore"):
        assert fnp.geterr()["divide"] == "ignore"
    assert fnp.frombuffer(b"\x01\x02", np.uint8).tolist() == [1, 2]
    assert fnp.random is np.random and fnp.datetime64 is np.datetime64

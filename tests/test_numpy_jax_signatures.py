"""``funcgrad.numpy``'s creation and dtype functions take JAX's (and NumPy 2's / the array
API's) signatures: ``asarray(a, dtype, order, *, copy)``, ``array(..., ndmin=)``,
``astype(x, dtype, /, *, copy)``, ``copy(a, order)``, ``empty_like(prototype, ...)``,
``isdtype``, ``promote_types``, and ``take_along_axis(arr, indices, axis, mode,
fill_value)``.  Expected values come from NumPy or are written out by hand."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from helpers import check_dot_product, check_jvp_fd


# --- asarray / array / copy / astype -------------------------------------------------------------

def test_asarray_takes_the_array_api_signature_and_copies_as_numpy_2():
    x = np.arange(3.0)
    assert fnp.asarray(a=x) is x  # JAX's and NumPy's name for the input
    assert fnp.asarray(x, None, None, copy=None) is x
    y = fnp.asarray(x, copy=True)
    assert y is not x and not np.shares_memory(x, y)
    np.testing.assert_array_equal(y, x)
    assert fnp.asarray(x, copy=False) is x


def test_asarray_copy_false_refuses_a_copy_it_cannot_avoid():
    with pytest.raises(ValueError, match="unable to avoid a copy.*copy=None"):
        fnp.asarray(np.arange(3.0), np.float32, copy=False)
    with pytest.raises(ValueError, match="unable to avoid a copy"):
        fnp.asarray(np.ones((2, 3)), order="F", copy=False)


def test_asarray_order_lays_out_a_plain_array_and_rejects_a_bad_order():
    x = np.arange(6.0).reshape(2, 3)
    f = fnp.asarray(x, order="F")
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    np.testing.assert_array_equal(f, x)
    assert fnp.copy(x, order="F").flags.f_contiguous
    with pytest.raises(ValueError, match="order must be one of"):
        fnp.asarray(x, order="X")


def test_asarray_of_traced_values_keeps_the_derivative_whatever_copy_and_order_say():
    g = fg.grad(lambda v: fnp.sum(fnp.asarray(v, order="C", copy=True) * 3.0))(np.ones(2))
    np.testing.assert_array_equal(g, [3.0, 3.0])
    g = fg.grad(lambda v: fnp.sum(fnp.asarray(v, np.float32, copy=False)))(np.ones(2, np.float32))
    assert g.dtype == np.float32


def test_array_takes_ndmin_and_order_as_numpy():
    for obj, ndmin in [(1.5, 2), ([1.0, 2.0], 3), (np.ones((2, 2)), 1)]:
        want = np.array(obj, ndmin=ndmin)
        got = fnp.array(obj, ndmin=ndmin)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    assert fnp.array(np.ones((2, 3)), order="F").flags.f_contiguous
    # traced: ndmin prepends axes, the derivative goes through them
    assert float(fg.grad(lambda v: fnp.sum(fnp.array(v, ndmin=2) * 3.0))(2.0)) == 3.0
    assert fg.jit(lambda v: fnp.array(v, ndmin=3))(np.ones(2)).shape == (1, 1, 2)


def test_astype_takes_copy_as_jax():
    x = np.ones(2)
    assert fnp.astype(x, np.float64) is x  # copy=False: JAX's default
    y = fnp.astype(x, np.float64, copy=True)
    assert y is not x and not np.shares_memory(x, y)
    with pytest.raises(TypeError):
        fnp.astype(x=x, dtype=np.float32)  # positional-only, as jax.numpy.astype


def test_empty_like_takes_prototype():
    out = fnp.empty_like(prototype=np.ones((2, 1), np.float32), shape=(3,))
    assert out.shape == (3,) and out.dtype == np.float32


# --- isdtype / promote_types -------------------------------------------------------------------

@pytest.mark.parametrize("dtype, kind, want", [
    (np.float32, "real floating", True), (np.float64, "complex floating", False),
    (np.complex64, "complex floating", True), (np.complex64, "numeric", True),
    (np.bool_, "numeric", False), (np.bool_, "bool", True), (np.int8, "integral", True),
    (np.uint8, "signed integer", False), (np.uint8, "unsigned integer", True),
    (np.int16, "signed integer", True), ("float32", np.float32, True),
    (np.float64, (np.float32, "complex floating"), False),
    (np.float64, ("integral", np.float64), True)])
def test_isdtype_answers_the_array_api_kinds(dtype, kind, want):
    assert fnp.isdtype(dtype, kind) is want
    if hasattr(np, "isdtype"):  # NumPy 2's own answer agrees
        assert np.isdtype(np.dtype(dtype), kind) is want


def test_isdtype_errors_name_the_kinds():
    with pytest.raises(ValueError, match="unrecognised kind='floats'.*real floating"):
        fnp.isdtype(np.float32, "floats")
    with pytest.raises(TypeError, match="kind must be a dtype"):
        fnp.isdtype(np.float32, 3)


def test_promote_types_is_numpys_promotion_which_funcgrad_follows():
    assert fnp.promote_types(np.float32, np.int64) == np.float64
    assert (fnp.ones(1, np.float32) + np.ones(1, np.int64)).dtype == fnp.promote_types(
        "f4", "i8")


# --- take_along_axis(mode=, fill_value=) ---------------------------------------------------------

A = np.arange(12.0).reshape(3, 4)
IDX = np.array([[0, -1, 4, -5], [3, 2, -4, 9], [1, 1, 1, 1]])


def _by_hand(a, idx, mode, fill):
    """Row by row: negative indices from the end, then clipped or filled."""
    out = np.empty(idx.shape, a.dtype)
    n = a.shape[1]
    for r in range(idx.shape[0]):
        for c in range(idx.shape[1]):
            k = idx[r, c] + n if idx[r, c] < 0 else idx[r, c]
            if mode == "clip":
                out[r, c] = a[r, min(max(k, 0), n - 1)]
            else:
                out[r, c] = a[r, k] if 0 <= k < n else fill
    return out


@pytest.mark.parametrize("mode, fill_value", [("clip", None), ("fill", None), ("fill", -7.0)])
def test_take_along_axis_modes_match_jax_semantics(mode, fill_value):
    got = fnp.take_along_axis(A, IDX, 1, mode=mode, fill_value=fill_value)
    want = _by_hand(A, IDX, mode, np.nan if fill_value is None else fill_value)
    np.testing.assert_array_equal(got, want)


def test_take_along_axis_fill_defaults_to_the_integer_extremes():
    a = np.arange(4, dtype=np.int32)
    np.testing.assert_array_equal(fnp.take_along_axis(a, np.array([5, -1]), 0, mode="fill"),
                                  [np.iinfo(np.int32).min, 3])
    a = np.arange(4, dtype=np.uint8)
    np.testing.assert_array_equal(fnp.take_along_axis(a, np.array([4]), 0, mode="fill"), [255])


def test_take_along_axis_default_mode_raises_as_numpy_and_axis_defaults_to_last():
    with pytest.raises(IndexError):
        fnp.take_along_axis(A, IDX, 1)
    ok = np.array([[0, 3], [1, 2], [2, 0]])
    np.testing.assert_array_equal(fnp.take_along_axis(A, ok), np.take_along_axis(A, ok, -1))
    with pytest.raises(ValueError, match="mode must be"):
        fnp.take_along_axis(A, ok, 1, mode="wrap")


@pytest.mark.parametrize("mode", ["clip", "fill"])
def test_take_along_axis_modes_differentiate(mode):
    f = lambda a, fv: fnp.take_along_axis(a, IDX, 1, mode=mode, fill_value=fv)  # noqa: E731
    args = (A + 0.5, np.array(2.0))
    check_jvp_fd(f, args)
    check_dot_product(f, args)
    # the fill value's derivative counts the positions that read it
    want = 0.0 if mode == "clip" else float(np.sum((IDX >= 4) | (IDX < -4)))
    assert float(fg.grad(lambda fv: fnp.sum(f(A, fv)))(1.0)) == want
    batched = fg.vmap(lambda a: f(a, 2.0))(np.stack([A, 2 * A]))
    np.testing.assert_array_equal(batched[1], f(2 * A, 2.0))


# --- reshape(copy=), take's hints -------------------------------------------------------------

def test_reshape_takes_copy_as_numpy_2_1():
    x = np.arange(6.0)
    view = fnp.reshape(x, (2, 3), copy=False)
    assert np.shares_memory(view, x)
    fresh = fnp.reshape(x, shape=(2, 3), copy=True)
    assert not np.shares_memory(fresh, x)
    np.testing.assert_array_equal(fresh, x.reshape(2, 3))
    with pytest.raises(ValueError, match="unable to avoid copying"):
        fnp.reshape(np.ones((3, 2)).T, (6,), copy=False)
    g = fg.grad(lambda v: fnp.sum(fnp.reshape(v, (3, 2), copy=True) ** 2))(x)
    np.testing.assert_array_equal(g, 2 * x)


def test_take_accepts_jaxs_hints():
    x = np.arange(5.0)
    np.testing.assert_array_equal(
        fnp.take(x, np.array([1, 3]), unique_indices=True, indices_are_sorted=True), [1, 3])


# --- out= in NumPy's (and JAX's) position: None only -------------------------------------------

_X = np.array([[0.5, -1.25, 2.0], [3.0, 0.25, -0.5]])


@pytest.mark.parametrize("name, call, want", [
    ("all", lambda out: fnp.all(_X > 0, 0, out), lambda: np.all(_X > 0, 0)),
    ("any", lambda out: fnp.any(_X > 0, 0, out), lambda: np.any(_X > 0, 0)),
    ("argmax", lambda out: fnp.argmax(_X, 0, out), lambda: np.argmax(_X, 0)),
    ("argmin", lambda out: fnp.argmin(_X, 0, out), lambda: np.argmin(_X, 0)),
    ("cumsum", lambda out: fnp.cumsum(_X, 0, None, out), lambda: np.cumsum(_X, 0)),
    ("cumprod", lambda out: fnp.cumprod(_X, 0, None, out), lambda: np.cumprod(_X, 0)),
    ("dot", lambda out: fnp.dot(_X, _X.T, out), lambda: np.dot(_X, _X.T)),
    ("outer", lambda out: fnp.outer(_X[0], _X[1], out), lambda: np.outer(_X[0], _X[1])),
    ("trace", lambda out: fnp.trace(_X, 0, 0, 1, None, out), lambda: np.trace(_X)),
])
def test_out_sits_where_numpy_puts_it_and_a_plain_array_is_written(name, call, want):
    expected = want()
    np.testing.assert_array_equal(call(None), expected)
    out = np.empty_like(expected)
    assert call(out) is out, name
    np.testing.assert_array_equal(out, expected)


def test_keepdims_is_keyword_only_after_out_and_argmax_keeps_every_axis_without_axis():
    x = np.array([[0.5, 7.0, 2.0], [3.0, 0.25, 9.5]])
    for name in ("argmax", "argmin"):
        got = getattr(fnp, name)(x, keepdims=True)
        want = getattr(np, name)(x, keepdims=True)
        assert got.shape == want.shape == (1, 1)
        np.testing.assert_array_equal(got, want)
        # under a transform too (the index is a constant there)
        traced = fg.jit(lambda v: getattr(fnp, name)(v, keepdims=True))(x)
        np.testing.assert_array_equal(traced, want)
    np.testing.assert_array_equal(fnp.all(x > 1, 1, None, True), np.all(x > 1, 1, None, True))


def test_zeros_like_and_ones_like_take_device_as_numpy_and_jax():
    x = np.ones((2, 1), np.float32)
    for name in ("zeros_like", "ones_like"):
        got = getattr(fnp, name)(x, device=None)
        want = getattr(np, name)(x, device="cpu")
        assert got.dtype == want.dtype == np.float32
        np.testing.assert_array_equal(got, want)


# --- asanyarray, ascontiguousarray, asfortranarray; NumPy's static index helpers -------------

def test_layout_conversions_give_numpys_arrays_and_keep_the_derivative():
    x = np.arange(6.0).reshape(2, 3).T
    for name in ("ascontiguousarray", "asfortranarray"):
        for value in (x, 2.5, [[1, 2]], np.float32(1.5)):
            got, want = getattr(fnp, name)(value), getattr(np, name)(value)
            assert got.shape == want.shape and got.dtype == want.dtype, (name, value)
            assert got.flags.c_contiguous == want.flags.c_contiguous
            assert got.flags.f_contiguous == want.flags.f_contiguous
            np.testing.assert_array_equal(got, want)
        assert getattr(fnp, name)(x, np.float32).dtype == np.float32
        g = fg.grad(lambda v: fnp.sum(getattr(fnp, name)(v) * v))(1.5)  # 0-d in, 1-d out
        assert float(g) == 3.0
        np.testing.assert_array_equal(fg.jit(lambda v: getattr(fnp, name)(v) * 2.0)(x), 2.0 * x)
    np.testing.assert_array_equal(fnp.asanyarray([1, 2], float), np.asanyarray([1, 2], float))
    assert float(fg.grad(lambda v: fnp.sum(fnp.asanyarray(v) ** 2))(3.0)) == 6.0


def test_index_helpers_are_numpys():
    np.testing.assert_array_equal(fnp.mgrid[0:2, 0:3], np.mgrid[0:2, 0:3])
    assert [a.shape for a in fnp.ogrid[0:2, 0:3]] == [(2, 1), (1, 3)]
    x = np.arange(10.0)
    np.testing.assert_array_equal(fg.grad(lambda v: fnp.sum(v[fnp.s_[2:5]]))(x),
                                  (np.arange(10) >= 2) & (np.arange(10) < 5))
    assert fnp.index_exp[1:3] == (slice(1, 3, None),)

"""``funcgrad.numpy.pad`` against NumPy's ``np.pad``, every mode:

* values equal NumPy's bit for bit (NaN where NumPy has NaN), dtype kept, for several
  shapes, dtypes and widths up to several times the axis (NumPy pads those chunk by chunk);
  inf and NaN inputs, zero-length axes, 0-d arrays and NumPy's refusals included;
* derivatives: the gradient of ``sum(u * pad(x))`` and the JVP equal central differences of
  *NumPy's* ``np.pad``, in ``x`` and in traced ``constant_values``/``end_values``;
* ``vmap``, the captured program, ``jit(wait=True)`` (two modes; ``make soak`` every mode)
  and ``np.pad`` on traced values give the eager values.
"""
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.interpreters.graph import eval_graph

R = np.random.default_rng(7)

# (mode, keyword sets): the keywords NumPy's pad takes for each mode
CASES = {
    "constant": [{}, {"constant_values": 7}, {"constant_values": (1.5, -2)},
                 {"constant_values": ((1.5, -2), (3, 4.25))}],
    "empty": [{}],
    "edge": [{}],
    "wrap": [{}],
    "reflect": [{}, {"reflect_type": "odd"}],
    "symmetric": [{}, {"reflect_type": "odd"}],
    "linear_ramp": [{}, {"end_values": (-3, 5)}, {"end_values": ((0.1, 2), (3, 0.7))},
                    {"end_values": 0.1}],
    "maximum": [{}, {"stat_length": 2}, {"stat_length": ((1, 3), (2, 1))}],
    "minimum": [{}, {"stat_length": (1, 2)}],
    "mean": [{}, {"stat_length": 2}, {"stat_length": ((1, 3), (2, 5))}],
    "median": [{}, {"stat_length": 2}, {"stat_length": ((1, 4), (2, 3))}],
}
# widths: one for all, (before, after), per axis -- up to several times the axis -- and a dict
WIDTHS = [1, (2, 3), ((0, 7), (11, 2)), ((13, 1), (3, 17)), {1: (9, 4)}, {-2: 5}]
SHAPES = [(1, 3), (3, 2), (4, 5), (2, 1)]
DTYPES = [np.float64, np.float32, np.float16, np.int64, np.uint8, np.complex128, np.bool_]


def sample(shape, dtype):
    x = R.normal(size=shape) * 10
    if np.dtype(dtype).kind == "c":
        x = x + 1j * R.normal(size=shape)
    return x.astype(dtype)


def assert_same(got, want):
    """Equal dtype, shape and bits (NaNs equal whatever their sign or payload)."""
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape,
                                                                 want.dtype, want.shape)
    if want.dtype.kind in "fc":
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan)
        got, want = np.where(nan, 0, got), np.where(nan, 0, want)
    assert got.tobytes() == want.tobytes(), (got, want)


def numpy_pad(*args, **kwargs):
    with warnings.catch_warnings():  # (mean of an empty slice...: NumPy warns, we agree)
        warnings.simplefilter("ignore")
        return np.pad(*args, **kwargs)


def ours(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fnp.pad(*args, **kwargs)


@pytest.mark.parametrize("mode", list(CASES))
def test_values_equal_numpys_bit_for_bit(mode):
    for dtype in DTYPES:
        for shape in SHAPES:
            x = sample(shape, dtype)
            for kwargs in CASES[mode]:
                for width in WIDTHS:
                    try:
                        want = numpy_pad(x, width, mode, **kwargs)
                    except (ValueError, TypeError, OverflowError) as e:
                        with pytest.raises(type(e)):
                            ours(x, width, mode, **kwargs)
                        continue
                    got = ours(x, width, mode, **kwargs)
                    if mode == "empty":  # NumPy leaves the padding undefined; ours is 0
                        assert got.dtype == want.dtype and got.shape == want.shape
                        inside = np.pad(np.ones(x.shape, bool), width)
                        assert_same(np.asarray(got)[inside].reshape(x.shape), x)
                        assert not np.asarray(got)[~inside].any()
                    else:
                        assert_same(got, want)


SPECIAL = np.array([1.0, np.inf, -np.inf, np.nan, 2.0, -0.0])


@pytest.mark.parametrize("mode, kwargs", [
    ("reflect", {"reflect_type": "odd"}), ("symmetric", {"reflect_type": "odd"}),
    ("reflect", {}), ("symmetric", {}), ("wrap", {}), ("edge", {}), ("linear_ramp", {}),
    ("linear_ramp", {"end_values": (np.inf, 1e308)}), ("maximum", {}), ("minimum", {}),
    ("mean", {}), ("median", {}), ("median", {"stat_length": 2}), ("mean", {"stat_length": 0}),
    ("median", {"stat_length": 0}), ("constant", {"constant_values": np.nan})])
def test_inf_and_nan_inputs_give_numpys_values(mode, kwargs):
    # (no product with a 0/1 matrix: inf * 0 would turn into NaN where NumPy copies)
    for x in [SPECIAL, SPECIAL[1:2], SPECIAL[:3], SPECIAL[4:], np.array([np.inf, 1.0]),
              np.array([1e308, -1e308, 5.0])]:
        for width in [1, (3, 0), (0, 9), (17, 23)]:
            assert_same(ours(x, width, mode, **kwargs), numpy_pad(x, width, mode, **kwargs))


def test_odd_reflection_wider_than_the_axis_mirrors_about_each_new_edge():
    x = np.array([1.0, 2.0, 4.0])
    got = fnp.pad(x, (5, 0), "reflect", reflect_type="odd")
    # first 2*1 - [4, 2] = [-2, 0]; then the valid part is [-2, 0, 1, 2, 4], and the
    # next chunk mirrors [0, 1, 2] about its new edge -2: 2*(-2) - [2, 1, 0]
    np.testing.assert_array_equal(got[:5], [-6.0, -5.0, -4.0, -2.0, 0.0])
    assert_same(got, np.pad(x, (5, 0), "reflect", reflect_type="odd"))


def test_linear_ramp_follows_linspaces_dtype_and_zero_step_switch():
    x = np.array([[5e-324, 1.0], [0.0, 3.0]])
    for width in [(3, 4), ((2, 5), (7, 1))]:
        for end in [0, 5e-324, ((0.1, 0.2), (0.3, 0.7)), (0.1, 0.3), 0.1]:
            for a in (x, x.astype(np.float32)):
                assert_same(fnp.pad(a, width, "linear_ramp", end_values=end),
                            np.pad(a, width, "linear_ramp", end_values=end))
        ints = np.array([[5, -3], [0, 1000]])
        assert_same(fnp.pad(ints, width, "linear_ramp", end_values=((-7, 2), (3, 1000))),
                    np.pad(ints, width, "linear_ramp", end_values=((-7, 2), (3, 1000))))


def test_mean_divides_in_numpys_precision():
    # NumPy divides a float32/complex64 sum by the count in float64/complex128, and sums
    # float16 in float32: one ulp apart otherwise, on long axes
    for dtype in (np.complex64, np.float32, np.float16):
        x = sample((7, 300), dtype)
        for length in (None, 150):
            assert_same(fnp.pad(x, 3, "mean", stat_length=length),
                        np.pad(x, 3, "mean", stat_length=length))


def test_integer_mean_and_median_are_rounded_half_to_even():
    for mode in ("mean", "median"):
        np.testing.assert_array_equal(fnp.pad(np.array([1, 2]), 1, mode), [2, 1, 2, 2])
        np.testing.assert_array_equal(fnp.pad(np.array([2, 3]), 1, mode), [2, 2, 3, 2])
        x = np.array([[1, 2, 8], [3, 3, 4]], np.int32)
        assert_same(fnp.pad(x, ((3, 2), (1, 4)), mode), np.pad(x, ((3, 2), (1, 4)), mode))


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4)])
def test_empty_arrays(shape):
    x = np.zeros(shape)
    for mode in CASES:
        for width in [0, 1, (2, 1), {0: 2}, {-1: (0, 3)}, [(0, 0)] * (x.ndim - 1) + [(2, 1)],
                      [(1, 0)] + [(0, 0)] * (x.ndim - 1)]:
            try:
                want = np.pad(x, width, mode)
            except ValueError as e:
                assert "can't extend empty axis" in str(e)
                with pytest.raises(ValueError, match="can't extend empty axis.*'constant'"):
                    fnp.pad(x, width, mode)
                continue
            got = fnp.pad(x, width, mode)
            if mode == "empty":  # NumPy's values are undefined; ours are 0
                assert got.shape == want.shape and not got.any()
            else:
                assert_same(got, want)


def test_zero_d_arrays_are_returned_unpadded():
    for mode in CASES:
        assert_same(fnp.pad(np.array(3.0), 2, mode), np.pad(np.array(3.0), 2, mode))


@pytest.mark.parametrize("width, error, match", [
    (-1, ValueError, "negative"), ((1, -1), ValueError, "negative"),
    (1.5, TypeError, "integral"), (np.uint8(2), TypeError, "integral"),
    (True, TypeError, "integral"), ((1, 2, 3), ValueError, "one pair per axis"),
    (((1, 2), (3, 4), (5, 6)), ValueError, "one pair per axis"),
    ({0: [1, 2]}, TypeError, r"\(before, after\) tuple"), ({5: 1}, IndexError, "key 5"),
])
def test_bad_pad_width_is_refused_with_the_fix(width, error, match):
    x = np.ones((2, 3))
    with pytest.raises(error, match=match):
        fnp.pad(x, width)


def test_bad_modes_and_keywords_are_refused_with_the_fix():
    x = np.ones((2, 3))
    with pytest.raises(ValueError, match="mode 'foo' is not supported; use one of"):
        fnp.pad(x, 1, "foo")
    with pytest.raises(ValueError, match="mode 'edge' takes none"):
        fnp.pad(x, 1, "edge", constant_values=2)
    with pytest.raises(ValueError, match=r"mode 'constant' takes \['constant_values'\]"):
        fnp.pad(x, 1, stat_length=2)
    with pytest.raises(ValueError, match="stat_length can't contain negative"):
        fnp.pad(x, 1, "mean", stat_length=-1)
    with pytest.raises(ValueError, match="stat_length of 0.*give stat_length >= 1"):
        fnp.pad(x, {0: 1}, "maximum", stat_length=((1, 1), (0, 1)))  # (NumPy checks axis 1)
    with pytest.raises(ValueError, match="reflect_type must be 'even' or 'odd'"):
        fnp.pad(x, 1, "reflect", reflect_type="foo")
    with pytest.raises(ValueError, match="constant_values of shape"):
        fnp.pad(x, 1, constant_values=((1, 2), (3, 4), (5, 6)))
    with pytest.raises(TypeError, match="constant_values must be numbers"):
        fnp.pad(x, 1, constant_values=None)
    with pytest.raises(OverflowError):  # as NumPy: a Python int out of uint8's range
        fnp.pad(np.ones((2, 3), np.uint8), {1: 1}, constant_values=((1, -2), (3, 4)))


def test_stat_length_is_rounded_as_numpy_rounds_it():
    x = R.normal(size=(3, 7))
    for length in [1.6, (1.4, 2.5), ((0.5, 1.5), (2.5, 3.5))]:
        assert_same(ours(x, 2, "mean", stat_length=length),
                    numpy_pad(x, 2, "mean", stat_length=length))


def test_callable_mode_runs_on_plain_arrays_and_is_refused_on_traced_ones():
    def fives(vector, width, axis, kwargs):
        vector[:width[0]] = 5
        vector[vector.size - width[1]:] = 5

    x = np.arange(6.0).reshape(2, 3)
    assert_same(fnp.pad(x, 1, fives), np.pad(x, 1, fives))
    with pytest.raises(TypeError, match="callable mode.*named modes.*concatenate"):
        fg.grad(lambda x: fnp.sum(fnp.pad(x, 1, fives)))(x)


# --- derivatives ------------------------------------------------------------------------------

DERIVATIVE_CASES = [(mode, kwargs) for mode, sets in CASES.items() if mode != "empty"
                    for kwargs in sets]


def numerical_gradient(f, x, u, h=1e-6):
    """d/dx of sum(u * f(x)) by central differences of f (NumPy's pad)."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = np.sum(u * (f(x + e) - f(x - e))) / (2 * h)
    return g


@pytest.mark.parametrize("mode, kwargs", DERIVATIVE_CASES)
def test_derivatives_equal_finite_differences_of_numpys_pad(mode, kwargs):
    for shape, width in [((3, 4), ((7, 11), (9, 5))), ((1, 5), 2), ((2, 2), ((0, 6), (5, 0)))]:
        x = R.normal(size=shape)  # distinct values: max, min and median are smooth here
        f = lambda x: np.pad(x, width, mode, **kwargs)  # noqa: E731
        y, back = fg.vjp(lambda x: fnp.pad(x, width, mode, **kwargs), x)
        u = R.normal(size=y.shape)
        want = numerical_gradient(f, x, u)
        np.testing.assert_allclose(back(u)[0], want, rtol=1e-6, atol=1e-6)
        v = R.normal(size=shape)
        _, t = fg.jvp(lambda x: fnp.pad(x, width, mode, **kwargs), (x,), (v,))
        np.testing.assert_allclose(np.sum(u * t), np.sum(want * v), rtol=1e-6, atol=1e-6)
        # and through plain np.pad on the traced value
        g = fg.grad(lambda x: np.sum(u * np.pad(x, width, mode, **kwargs)))(x)
        np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-6)


def test_second_derivatives():
    x = R.normal(size=(2, 3))
    for mode, kwargs in [("reflect", {"reflect_type": "odd"}), ("median", {}), ("wrap", {}),
                         ("linear_ramp", {"end_values": 1.0})]:
        assert fg.gradgradcheck(lambda x: fnp.pad(x, ((3, 1), (0, 4)), mode, **kwargs) ** 3,
                                (x,))


@pytest.mark.parametrize("mode, key", [("constant", "constant_values"),
                                       ("linear_ramp", "end_values")])
def test_derivative_flows_into_traced_constant_and_end_values(mode, key):
    x = R.normal(size=(3, 4))
    width = ((2, 3), (4, 1))
    for c in [0.7, np.array([0.7, -1.2]), np.array([[0.7, -1.2], [2.0, 3.0]])]:
        y, back = fg.vjp(lambda x, c: fnp.pad(x, width, mode, **{key: c}), x, c)
        assert_same(y, np.pad(x, width, mode, **{key: c}))
        u = R.normal(size=y.shape)
        gx, gc = back(u)
        np.testing.assert_allclose(
            gc, numerical_gradient(lambda c: np.pad(x, width, mode, **{key: c}),
                                   np.asarray(c, float), u), rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(
            gx, numerical_gradient(lambda x: np.pad(x, width, mode, **{key: c}), x, u),
            rtol=1e-6, atol=1e-6)


def test_hand_checked_gradients():
    # wrap: [2, 3, 1, 2, 3, 1, 2] holds 1 twice, 2 three times, 3 twice
    np.testing.assert_array_equal(
        fg.grad(lambda x: fnp.sum(fnp.pad(x, 2, "wrap")))(np.array([1.0, 2.0, 3.0])), [2, 3, 2])
    # tied maxima share each padded cell's derivative equally, as fnp.max does
    np.testing.assert_array_equal(
        fg.grad(lambda x: fnp.sum(fnp.pad(x, 1, "maximum")))(np.array([3.0, 1.0, 3.0])),
        [2.0, 1.0, 2.0])
    # a corner is filled by the later axis: constant_values[1] fills 2 * 2 corners + 2 * 2
    g = fg.grad(lambda c: fnp.sum(fnp.pad(np.ones((2, 2)), 1, constant_values=c)))(
        np.array([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_array_equal(g, [[2.0, 2.0], [4.0, 4.0]])


def test_float32_gradients_stay_float32():
    x = R.normal(size=(2, 3)).astype(np.float32)
    for mode in ("reflect", "mean", "linear_ramp", "constant"):
        g = fg.grad(lambda x: fnp.sum(fnp.pad(x, 4, mode) ** 2))(x)
        assert g.dtype == np.float32


# --- transforms -------------------------------------------------------------------------------

TRANSFORM_CASES = [
    ("constant", {"constant_values": ((1, 2), (3, 4))}), ("edge", {}), ("wrap", {}),
    ("reflect", {"reflect_type": "odd"}), ("symmetric", {}), ("linear_ramp", {"end_values": 2.0}),
    ("maximum", {}), ("minimum", {"stat_length": 2}), ("mean", {}), ("median", {"stat_length": 3}),
    ("empty", {})]


def transform_case(mode, kwargs):
    """``(f, xs, want, g)``: the pad of ``mode``, a batch, its eager values, a gradient."""
    xs = np.random.default_rng(3).normal(size=(4, 3, 5))
    width = ((7, 2), (1, 11))
    f = lambda x: fnp.pad(x, width, mode, **kwargs)  # noqa: E731
    want = np.stack([f(x) for x in xs])
    if mode != "empty":
        assert_same(want, np.stack([np.pad(x, width, mode, **kwargs) for x in xs]))
    return f, xs, want, fg.grad(lambda x: fnp.sum(f(x) ** 2))


@pytest.mark.parametrize("mode, kwargs", TRANSFORM_CASES)
def test_vmap_and_captured_programs_give_the_eager_values(mode, kwargs):
    # The captured programs run primitive by primitive: what fg.jit compiles, every mode
    # (test_jit_gives_the_eager_values compiles them).
    f, xs, want, g = transform_case(mode, kwargs)
    assert_same(fg.vmap(f)(xs), want)
    assert_same(eval_graph(fg.make_graph(f)(xs[0]), xs[0])[0], want[0])
    assert_same(eval_graph(fg.make_graph(fg.vmap(f))(xs), xs)[0], want)
    np.testing.assert_allclose(eval_graph(fg.make_graph(g)(xs[0]), xs[0])[0], g(xs[0]),
                               rtol=1e-12)


# Three Numba compiles per mode, seconds each: make test compiles two modes (a constant fill
# and a gather of edge values), make soak every mode.
@pytest.mark.parametrize("mode, kwargs", [
    case if case[0] in ("constant", "edge") else pytest.param(*case, marks=pytest.mark.soak)
    for case in TRANSFORM_CASES])
def test_jit_gives_the_eager_values(mode, kwargs):
    f, xs, want, g = transform_case(mode, kwargs)
    assert_same(fg.jit(f, wait=True)(xs[0]), want[0])
    assert_same(fg.jit(fg.vmap(f), wait=True)(xs), want)
    np.testing.assert_allclose(fg.jit(g, wait=True)(xs[0]), g(xs[0]), rtol=1e-12)


def test_vmap_over_traced_constant_and_end_values():
    x = R.normal(size=(3, 4))
    cs = np.array([0.5, 1.5, -2.0, 3.0])
    assert_same(fg.vmap(lambda c: fnp.pad(x, 2, constant_values=c))(cs),
                np.stack([np.pad(x, 2, constant_values=c) for c in cs]))
    assert_same(fg.vmap(lambda c: fnp.pad(x, 2, "linear_ramp", end_values=c))(cs),
                np.stack([np.pad(x, 2, "linear_ramp", end_values=c) for c in cs]))


def test_traced_pad_width_needs_concrete_values():
    x = np.ones(3)
    with pytest.raises(fg.ConcretizationError, match="pad_width.*Python ints"):
        fg.jit(lambda w: fnp.pad(x, w), wait=True)(np.array(2))


def test_the_result_is_a_new_array_even_without_padding():
    x = np.arange(6.0).reshape(2, 3)
    for mode in ("constant", "edge", "reflect", "mean", "linear_ramp"):
        y = fnp.pad(x, 0, mode)
        assert_same(y, x)
        assert not np.shares_memory(y, x)

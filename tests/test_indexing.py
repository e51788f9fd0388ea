"""Traced indexing equals NumPy's, for every index expression NumPy accepts.

Hypothesis draws index expressions of every form (``tests/index_strategies.py``: slices
with any start/stop/step, ``None`` and ``...`` anywhere, integers, integer arrays and lists,
boolean masks, mixtures, bare forms) on arrays of rank 0-4, and each property compares
funcgrad with NumPy -- shape, dtype and values -- through every route a value can take:
eager reverse mode, forward mode, ``vmap``, graph capture, ``jit`` and the eager
``Tensor``; derivatives pass the dot-product test.  Where NumPy raises, funcgrad raises
the same exception type.
"""
import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from helpers import check_dot_product
from index_strategies import index_expressions, index_text, numpy_result, shapes

# Each example is cheap (a few primitives); more examples than the suite's default
# profile, so that the mixtures of forms are actually reached on every run.
MANY = settings(max_examples=max(60, settings.default.max_examples))


@st.composite
def indexed(draw, min_dims=0, dtype=np.float64):
    shape = draw(shapes(min_dims=min_dims))
    idx = draw(index_expressions(shape))
    seed = draw(st.integers(0, 2**16))
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    note(f"x.shape = {shape}; x[{index_text(idx)}]")
    return x, idx, np.random.default_rng(seed + 1)


def assert_same_array(got, want, what):
    got = np.asarray(got)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, NumPy {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, NumPy {want.dtype}"
    np.testing.assert_array_equal(got, want, err_msg=what)


def expect_numpy(x, idx, run, what):
    """``run()`` returns NumPy's ``x[idx]`` (compared exactly), or raises what NumPy raises."""
    want, error = numpy_result(x, idx)
    if error is not None:
        with pytest.raises(error):
            run()
        return None
    assert_same_array(run(), want, what)
    return want


# --- the issue that started this file -------------------------------------------------------

def test_a_trailing_new_axis_is_kept():
    a = np.array([1.0, 2.0, 3.0])
    w = np.arange(9.0).reshape(3, 3)
    assert fg.vjp(lambda a: a[:, None], a)[0].shape == (3, 1)
    np.testing.assert_array_equal(fg.grad(lambda a: np.sum(a[:, None] * w))(a),
                                  [3.0, 12.0, 21.0])
    m = np.ones((2, 3))
    for f, shape in [(lambda a: a[..., None], (3, 1)), (lambda a: a[:, None, None], (3, 1, 1)),
                     (lambda a: a[None, :, None], (1, 3, 1))]:
        assert fg.jvp(f, (a,), (a,))[1].shape == shape
    assert fg.vjp(lambda m: m[:, :, None], m)[0].shape == (2, 3, 1)


# --- x[idx] ---------------------------------------------------------------------------------

@MANY
@given(indexed())
def test_reverse_mode_value_equals_numpy(case):
    x, idx, _ = case
    expect_numpy(x, idx, lambda: fg.vjp(lambda x: x[idx], x)[0], "vjp primal")


@MANY
@given(indexed())
def test_forward_mode_value_and_tangent_equal_numpy(case):
    x, idx, rng = case
    v = rng.standard_normal(x.shape)
    want = expect_numpy(x, idx, lambda: fg.jvp(lambda x: x[idx], (x,), (v,))[0], "jvp primal")
    if want is not None:  # indexing is linear: the tangent is the tangent indexed
        assert_same_array(fg.jvp(lambda x: x[idx], (x,), (v,))[1], v[idx], "jvp tangent")


@MANY
@given(indexed())
def test_gradient_passes_the_dot_product_test(case):
    x, idx, rng = case
    if numpy_result(x, idx)[1] is None:
        check_dot_product(lambda x: x[idx], [x], rng)
        # and the gradient is NumPy's scatter-add of the cotangent
        u = rng.standard_normal(np.shape(x[idx]))
        want = np.zeros_like(x)
        np.add.at(want, idx, u)
        np.testing.assert_allclose(fg.vjp(lambda x: x[idx], x)[1](u)[0], want, rtol=1e-14,
                                   atol=1e-14)


@MANY
@given(indexed(), st.integers(0, 3))
def test_vmap_over_the_array_equals_a_loop(case, size):
    x, idx, rng = case
    xs = rng.standard_normal((size,) + x.shape)
    want, error = numpy_result(x, idx)
    if error is not None:
        with pytest.raises(error):
            fg.vmap(lambda x: x[idx])(xs)
        return
    got = fg.vmap(lambda x: x[idx])(xs)
    assert_same_array(got, np.stack([m[idx] for m in xs]) if size else
                      np.zeros((0,) + want.shape), "vmap")


@MANY
@given(indexed(min_dims=1))
def test_vmap_over_an_index_array_equals_a_loop(case):
    """A batched index array (the ``adims`` half of the batching rule)."""
    x, idx, rng = case
    entries = list(idx) if isinstance(idx, tuple) else [idx]
    pos = [i for i, e in enumerate(entries) if isinstance(e, np.ndarray) and e.dtype.kind in "iu"]
    if not pos or numpy_result(x, idx)[1] is not None:
        return
    k = pos[0]
    axis = sum(1 for e in entries[:k] if e is not None and e is not Ellipsis)
    if any(e is Ellipsis for e in entries[:k]):
        axis = x.ndim - sum(1 for e in entries[k:] if e is not None and e is not Ellipsis)
    side = x.shape[axis]
    batch = rng.integers(-side, side, size=(3,) + entries[k].shape)

    def f(x, a):
        return x[tuple(entries[:k] + [a] + entries[k + 1:])]

    want = np.stack([f(x, a) for a in batch])
    # x unbatched but traced (a plain NumPy array cannot be indexed by a traced index:
    # ndarray.__getitem__ never asks funcgrad), with its tangent along
    v = rng.standard_normal(x.shape)
    out, tangent = fg.jvp(lambda x: fg.vmap(f, in_axes=(None, 0))(x, batch), (x,), (v,))
    assert_same_array(out, want, "vmap over the index")
    assert_same_array(tangent, np.stack([f(v, a) for a in batch]), "its tangent")
    xs = np.stack([x, 2 * x, -x])
    want = np.stack([f(m, a) for m, a in zip(xs, batch)])
    assert_same_array(fg.vmap(f)(xs, batch), want, "vmap over array and index")


@MANY
@given(indexed())
def test_graph_capture_equals_numpy(case):
    x, idx, _ = case
    expect_numpy(x, idx, lambda: fg.make_graph(lambda x: x[idx])(x)(x), "make_graph")


@pytest.mark.usefixtures("fresh_jit_cache")
@settings(max_examples=max(25, settings.default.max_examples // 4))
@given(indexed())
def test_jit_equals_numpy(case):
    x, idx, rng = case
    want = expect_numpy(x, idx, lambda: fg.jit(lambda x: x[idx])(x), "jit")
    if want is not None and want.size:
        u = rng.standard_normal(want.shape)
        grad = fg.jit(fg.grad(lambda x: np.sum(x[idx] * u)))(x)
        np.testing.assert_allclose(grad, fg.grad(lambda x: np.sum(x[idx] * u))(x), rtol=1e-14)


@MANY
@given(indexed())
def test_tensor_indexing_equals_numpy(case):
    x, idx, rng = case
    t = fg.Tensor(x, requires_grad=True)
    want = expect_numpy(x, idx, lambda: t[idx].detach().numpy(), "Tensor")
    if want is not None:
        u = rng.standard_normal(want.shape)
        (t[idx] * fg.Tensor(u)).sum().backward()
        expected = np.zeros_like(x)
        np.add.at(expected, idx, u)
        np.testing.assert_allclose(t.grad.numpy(), expected, rtol=1e-14, atol=1e-14)


@settings(max_examples=max(20, settings.default.max_examples // 4))
@given(indexed(dtype=np.float32))
def test_float32_stays_float32(case):
    x, idx, rng = case
    if numpy_result(x, idx)[1] is None:
        out, pull = fg.vjp(lambda x: x[idx], x)
        assert out.dtype == np.float32
        assert pull(np.ones(np.shape(out), np.float32))[0].dtype == np.float32


# --- x.at[idx] ------------------------------------------------------------------------------

def _distinct_positions(x, idx):
    """Does ``x[idx]`` read every element of ``x`` at most once?"""
    positions = np.arange(x.size).reshape(x.shape)[idx]
    return np.unique(positions).size == np.size(positions)


def at_reference(x, idx, v, mode):
    y = x.copy()
    if mode == "set":
        y[idx] = v
    else:
        getattr(np, mode if mode in ("add", "multiply", "divide", "power") else
                {"min": "minimum", "max": "maximum"}[mode]).at(y, idx, v)
    return y


@MANY
@given(indexed(), st.sampled_from(["set", "add", "multiply", "min", "max"]), st.booleans())
def test_at_updates_equal_numpy_and_pass_the_dot_product_test(case, mode, scalar_update):
    """Repeated indices: ``set`` keeps the last write, the others apply every update
    (NumPy's ``ufunc.at``); the derivative agrees, except ``multiply``, which refuses."""
    x, idx, rng = case
    if numpy_result(x, idx)[1] is not None:
        return
    shape = () if scalar_update else np.shape(x[idx])
    v = rng.standard_normal(shape)

    def f(x, v):
        return getattr(x.at[idx], mode)(v)

    assert_same_array(f(fg.Tensor(x), fg.Tensor(v)).numpy(), at_reference(x, idx, v, mode),
                      f"x.at[...].{mode} on Tensors")
    assert_same_array(fg.vjp(f, x, v)[0], at_reference(x, idx, v, mode), f"x.at[...].{mode}")
    if mode == "multiply" and not _distinct_positions(x, idx):
        out, pull = fg.vjp(f, x, v)
        with pytest.raises(ValueError, match="distinct"):
            pull(np.ones_like(out))
        with pytest.raises(ValueError, match="distinct"):
            fg.jvp(f, (x, v), (x, v))
        return
    check_dot_product(f, [x, v], rng)


@MANY
@given(indexed(), st.sampled_from(["divide", "power"]))
def test_at_divide_and_power_need_distinct_indices(case, mode):
    x, idx, rng = case
    if numpy_result(x, idx)[1] is not None:
        return
    x = np.asarray(np.abs(x) + 0.5)
    v = rng.uniform(0.5, 2.0, np.shape(x[idx]))

    def f(x, v):
        return getattr(x.at[idx], mode)(v)

    if not _distinct_positions(x, idx):
        with pytest.raises(ValueError, match="distinct"):
            fg.vjp(f, x, v)
        return
    assert_same_array(fg.vjp(f, x, v)[0], at_reference(x, idx, v, mode), f"x.at[...].{mode}")
    check_dot_product(f, [x, v], rng)


def test_at_min_and_max_share_the_derivative_between_ties():
    x = np.array([1.0, 5.0, 2.0])
    idx = np.array([0, 0, 2])
    v = np.array([1.0, 0.5, 3.0])
    g_x, g_v = fg.grad(lambda x, v: x.at[idx].min(v).sum(), argnums=(0, 1))(x, v)
    np.testing.assert_array_equal(g_x, [0.0, 1.0, 1.0])  # x[0] = 1 lost to v[1] = 0.5
    np.testing.assert_array_equal(g_v, [0.0, 1.0, 0.0])
    g_x, g_v = fg.grad(lambda x, v: x.at[idx].max(v).sum(), argnums=(0, 1))(x, v)
    np.testing.assert_array_equal(g_x, [0.5, 1.0, 0.0])  # x[0] ties with v[0]
    np.testing.assert_array_equal(g_v, [0.5, 0.0, 1.0])


def test_at_set_with_repeated_indices_differentiates_the_last_write():
    idx = np.array([1, 1, 0])
    g = fg.grad(lambda v: (fnp.at(np.zeros(2))[idx].set(v) * np.array([2.0, 3.0])).sum())(
        np.array([10.0, 20.0, 30.0]))
    np.testing.assert_array_equal(g, [0.0, 3.0, 2.0])


def test_at_modes_say_what_out_of_bounds_indices_mean():
    # JAX's modes: "fill" reads fill_value (NaN by default) and "drop" skips the update at
    # an index out of bounds; "clip" moves it to the nearest end; negative indices count
    # from the end in every mode. Without a mode, NumPy's IndexError.
    x = np.arange(12.0).reshape(3, 4)
    i = np.array([0, 5, -1, -7])
    got = fnp.at(x)[i].get(mode="fill", fill_value=-1.0)
    np.testing.assert_array_equal(got, np.stack([x[0], -np.ones(4), x[2], -np.ones(4)]))
    assert np.isnan(fnp.at(x)[1, np.array([9])].get(mode="fill")).all()
    assert fnp.at(np.arange(3))[np.array([7])].get(mode="fill")[0] == np.iinfo(np.int64).min
    np.testing.assert_array_equal(fnp.at(x)[i].get(mode="clip"), x[[0, 2, 2, 0]])
    np.testing.assert_array_equal(fnp.at(x)[1, np.array([0, 9])].add(10.0, mode="drop"),
                                  x + np.array([[0, 0, 0, 0], [10, 0, 0, 0], [0, 0, 0, 0]]))
    np.testing.assert_array_equal(fnp.at(x)[np.array([0, 5, 0])].add(1.0, mode="clip"),
                                  x + np.array([[2.0], [0.0], [1.0]]))
    np.testing.assert_array_equal(fnp.at(x)[7].set(0.0, mode="drop"), x)
    with pytest.raises(IndexError, match="out of bounds"):
        fnp.at(x)[np.array([5])].get()
    with pytest.raises(ValueError, match="mode must be one of"):
        fnp.at(x)[0].get(mode="wrap")
    # derivatives: a filled position reads no input, a dropped update reaches nothing
    g = fg.grad(lambda v: (v.at[np.array([0, 5, 0])].get(mode="fill", fill_value=0.0) ** 2)
                .sum())(x)
    np.testing.assert_array_equal(g, np.stack([4 * x[0], np.zeros(4), np.zeros(4)]))
    g_x, g_u = fg.grad(lambda v, u: (v.at[1, np.array([0, 9])].set(u, mode="drop") ** 2).sum(),
                       argnums=(0, 1))(x, np.array([2.0, 3.0]))
    np.testing.assert_array_equal(g_u, [4.0, 0.0])
    np.testing.assert_array_equal(g_x, 2 * x * (np.arange(12).reshape(3, 4) != 4))
    # traced indices (vmap, jit) and JAX's hints
    f = lambda j: fnp.at(x[0])[j].get(mode="fill", fill_value=-1.0)  # noqa: E731
    np.testing.assert_array_equal(fg.vmap(f)(np.array([0, 4, -1, 9])), [0.0, -1.0, 3.0, -1.0])
    np.testing.assert_array_equal(fg.jit(f)(np.array([0, 4, -1, 9])), [0.0, -1.0, 3.0, -1.0])
    np.testing.assert_array_equal(
        fnp.at(x[0])[np.array([0, 2])].add(1.0, indices_are_sorted=True, unique_indices=True),
        [1.0, 1.0, 3.0, 3.0])


def test_one_slice_takes_the_spec_normalize_index_gives(monkeypatch):
    """normalize_index writes a lone slice's spec without its general walk (the commonest
    index): the same spec as the walk gives for it (inside a tuple), and ``index`` takes
    the same identity short-cut."""
    import itertools
    from funcgrad.primitives import indexing
    seen = []
    monkeypatch.setattr(indexing, "gather", lambda x, arrays, spec: seen.append(
        (tuple(arrays), spec)) or "gathered")
    for shape in [(5,), (5, 3), (0,), (1, 4), (7, 2, 2)]:
        x = np.zeros(shape)
        for a, b, c in itertools.product([None, 0, 1, -1, 9, -9], [None, 0, -1, 3, 9],
                                         [None, 1, 2, -1, -2]):
            seen.clear()
            spec, arrays = indexing.normalize_index((slice(a, b, c),), shape)
            short, short_arrays = indexing.normalize_index(slice(a, b, c), shape)
            assert short == spec and list(short_arrays) == list(arrays) == []
            got = indexing.index(x, slice(a, b, c))
            if indexing._is_identity(spec, shape):
                assert got is x and seen == []
            else:
                assert got == "gathered" and seen == [((), spec)] and arrays == []


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_slices_vjp_on_plain_vectors_pads_and_adds_as_numpy(dtype):
    """At the root on plain vectors, a slice's VJP is NumPy's pad (signed zeros kept) and
    its ``vjp_into`` NumPy's add into a copy of the cotangent so far, or into it where the
    caller owns it; what the caller does not own is never written."""
    from funcgrad.primitives import indexing
    x = np.arange(6.0, dtype=dtype)
    g = np.array([-0.0, 1.5, -2.25], dtype)
    for idx in [slice(1, 4), slice(0, 6, 2), slice(4, 1, -1), 2]:
        spec, arrays = indexing.normalize_index(idx, x.shape)
        gi = g[0] if isinstance(idx, int) else g[:len(x[idx])]
        gi = np.asarray(gi)
        pad = np.zeros(6, dtype)
        pad[idx] = gi
        got, = indexing._gather_vjp((True,), gi, x[idx], x, spec=spec)
        assert got.dtype == dtype and got.tobytes() == pad.tobytes()
        prev = np.linspace(-1.0, 1.0, 6).astype(dtype)
        before = prev.copy()
        want = prev.copy()
        want[idx] += gi
        total = indexing._gather_vjp_into(prev, False, gi, x[idx], x, spec=spec)
        assert total is not prev and total.tobytes() == want.tobytes()
        assert prev.tobytes() == before.tobytes()
        total = indexing._gather_vjp_into(prev, True, gi, x[idx], x, spec=spec)
        assert total is prev and total.tobytes() == want.tobytes()


@pytest.mark.parametrize("route", ["jit_get", "jit_take", "jit_set", "jit_add", "jit_grad",
                                   "vmap_take"])
def test_a_traced_uint64_index_beyond_intp_is_out_of_bounds(route):
    """NumPy casts a uint64 index to intp unchecked: 2**64 - 1 read as -1, the last element.
    A concrete index is bounds-checked first; a traced one (jit, vmap) returned x[-1] (and
    .at[].set wrote there) while grad of the same function raised."""
    x = np.array([0.3, -0.7, 1.2, 0.1, 0.5])
    i = np.array([1, 2**64 - 1], np.uint64)
    call = {
        "jit_get": lambda: fg.jit(lambda v, j: v[j])(x, i),
        "jit_take": lambda: fg.jit(lambda v, j: fnp.take(v, j))(x, i),
        "jit_set": lambda: fg.jit(lambda v, j: v.at[j].set(9.0))(x, i),
        "jit_add": lambda: fg.jit(lambda v, j: v.at[j].add(9.0))(x, i),
        "jit_grad": lambda: fg.jit(fg.grad(lambda v, j: fnp.sum(v[j] ** 2)))(x, i),
        "vmap_take": lambda: fg.vmap(lambda j: fnp.take(x, j))(i),
    }[route]
    with pytest.raises(IndexError, match=r"index 18446744073709551615 \(in a uint64 index"):
        call()
    ok = np.array([4, 1], np.uint64)  # (in range: as a signed index)
    np.testing.assert_array_equal(fg.jit(lambda v, j: v[j])(x, ok), x[[4, 1]])

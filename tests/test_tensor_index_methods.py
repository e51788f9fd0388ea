"""The Tensor methods that pick indices from the values (``cummax``/``cummin``, ``mode``,
``histc``, ``bincount``, ``searchsorted``/``bucketize``, the scatter family with indices
computed from the values, ``masked_scatter``) trace under ``jit`` and ``vmap`` where the
output's shape does not depend on the values, with PyTorch's meaning; the ones whose
shape does (``unique``, ``nonzero``, ``masked_select``) raise there, naming the way out.

The expected values written here are PyTorch 2.13's, checked with torch (which the suite
does not need); the others are the eager Tensor's, and a loop of eager calls for vmap."""
import numpy as np
import pytest

import funcgrad as fg

NAN = float("nan")
A = np.array([[2.0, 1.0, 2.0, 3.0, 3.0, 0.0], [1.0, NAN, 0.0, 1.0, NAN, 4.0]])
MODE = np.array([[2.0, 1.0, 2.0, 1.0, 3.0], [0.0, 0.0, 5.0, 5.0, 5.0], [4.0, 3.0, 2.0, 1.0, 0.0]])


def _pair(out):
    return [np.asarray(o.detach().numpy() if isinstance(o, fg.Tensor) else o) for o in out]


def _three_ways(f, x):
    """f's results eagerly, under jit, and under vmap (a batch of one)."""
    yield _pair(f(fg.tensor(x)))
    yield _pair(fg.jit(f)(fg.tensor(x)))
    yield [o[0] for o in _pair(fg.vmap(f)(fg.tensor(x[None])))]


# (method, dim): (values, indices) of PyTorch 2.13: ties take the LAST index of the
# running extremum; a NaN is the extremum from where it appears, at its own index
SCANS = {
    ("cummax", 1): ([[2.0, 2.0, 2.0, 3.0, 3.0, 3.0], [1.0, NAN, NAN, NAN, NAN, NAN]],
                    [[0, 0, 2, 3, 4, 4], [0, 1, 1, 1, 4, 4]]),
    ("cummin", 1): ([[2.0, 1.0, 1.0, 1.0, 1.0, 0.0], [1.0, NAN, NAN, NAN, NAN, NAN]],
                    [[0, 1, 1, 1, 1, 5], [0, 1, 1, 1, 4, 4]]),
    ("cummax", 0): ([[2.0, 1.0], [2.0, NAN]], [[0, 0], [0, 1]]),
    ("cummin", 0): ([[2.0, 1.0], [1.0, NAN]], [[0, 0], [1, 1]]),
}


@pytest.mark.parametrize("method, dim", sorted(SCANS))
def test_running_extremes_take_the_last_index_under_every_transform(method, dim):
    x = A if dim == 1 else A[:, :2]
    values, indices = SCANS[method, dim]
    for got_values, got_indices in _three_ways(lambda t: tuple(getattr(t, method)(dim)), x):
        np.testing.assert_array_equal(got_values, values)
        np.testing.assert_array_equal(got_indices, indices)
        assert got_indices.dtype == np.int64


@pytest.mark.parametrize("method, gradient", [
    ("cummax", [[3.0, 0.0, 3.0, 4.0, 11.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]]),
    ("cummin", [[1.0, 14.0, 0.0, 0.0, 0.0, 6.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]]),
])
def test_running_extremes_send_the_gradient_to_their_index(method, gradient):
    loss = lambda t: (getattr(t, method)(1)[0].nan_to_num(0.0) * np.arange(1.0, 7.0)).sum()
    for run in (fg.grad(loss), fg.jit(fg.grad(loss))):
        np.testing.assert_array_equal(np.asarray(run(fg.tensor(A))), gradient)


def test_mode_is_the_smallest_most_frequent_at_its_last_index():
    for dim, values, indices in ((1, [1.0, 5.0, 0.0], [3, 4, 4]),
                                 (0, [0.0, 0.0, 2.0, 1.0, 0.0], [1, 1, 2, 2, 2])):
        for got_values, got_indices in _three_ways(lambda t: tuple(t.mode(dim)), MODE):
            np.testing.assert_array_equal(got_values, values)
            np.testing.assert_array_equal(got_indices, indices)
    loss = lambda t: (t.mode(1).values * np.array([1.0, 2.0, 3.0])).sum()
    expected = np.zeros((3, 5))
    expected[0, 3], expected[1, 4], expected[2, 4] = 1.0, 2.0, 3.0
    for run in (fg.grad(loss), fg.jit(fg.grad(loss))):
        np.testing.assert_array_equal(np.asarray(run(fg.tensor(MODE))), expected)


def _batch():
    rng = np.random.default_rng(7)
    return rng.integers(0, 4, (4, 3, 5)).astype(np.float64)  # many ties


@pytest.mark.parametrize("name, f", [
    ("cummax", lambda t: tuple(t.cummax(1))),
    ("cummin", lambda t: tuple(t.cummin(0))),
    ("mode", lambda t: tuple(t.mode(-1))),
    ("histc", lambda t: (t.histc(4, 0, 3),)),
    ("histc_own_range", lambda t: (t.histc(3),)),
    ("bincount", lambda t: (t.long().flatten().bincount(minlength=4),)),
    ("searchsorted", lambda t: (fg.searchsorted(t[0].sort().values, t[1:]),)),
    ("bucketize_right", lambda t: (fg.bucketize(t, fg.tensor([1.0, 2.0]), right=True),)),
])
def test_vmap_and_jit_match_a_loop_of_eager_calls(name, f):
    batch = _batch()
    loop = [_pair(f(fg.tensor(x))) for x in batch]
    for run in (fg.vmap(f), fg.jit(fg.vmap(f))):
        got = _pair(run(fg.tensor(batch)))
        for k, expected in enumerate(zip(*loop)):
            np.testing.assert_array_equal(got[k], np.stack(expected))
            assert got[k].dtype == expected[0].dtype
    for x, expected in zip(batch, loop):
        for got, want in zip(_pair(fg.jit(f)(fg.tensor(x))), expected):
            np.testing.assert_array_equal(got, want)


def test_vmap_of_the_gradient_of_a_running_maximum_matches_a_loop():
    loss = lambda t: (t.cummax(1).values * np.arange(1.0, 6.0)).sum()
    batch = _batch()
    expected = np.stack([np.asarray(fg.grad(loss)(fg.tensor(x))) for x in batch])
    np.testing.assert_array_equal(np.asarray(fg.vmap(fg.grad(loss))(fg.tensor(batch))), expected)


def test_histc_counts_as_pytorch_under_jit():
    x = np.array([0.0, 0.25, 0.5, 1.0, 1.0, 2.0, -1.0], np.float32)
    for f, expected in ((lambda t: t.histc(4, 0, 1), [1.0, 1.0, 1.0, 2.0]),
                        (lambda t: t.histc(3), None)):
        got = fg.jit(f)(fg.tensor(x))
        assert got.dtype == np.float32
        if expected is not None:
            np.testing.assert_array_equal(np.asarray(got), expected)
    np.testing.assert_array_equal(
        np.asarray(fg.jit(lambda t: t.histc(3))(fg.tensor([1.0, 2.0, 2.0, 4.0]))), [1.0, 2.0, 1.0])


@pytest.mark.parametrize("run", ["eager", "jit", "vmap"])
def test_histc_refuses_a_range_that_is_not_finite(run):
    x = np.array([1.0, np.inf])
    call = {"eager": lambda: fg.tensor(x).histc(4),
            "jit": lambda: fg.jit(lambda t: t.histc(4))(fg.tensor(x)),
            "vmap": lambda: fg.vmap(lambda t: t.histc(4))(
                fg.tensor(np.stack([[1.0, 2.0], x])))}[run]
    with pytest.raises(RuntimeError, match=r"torch.histc: range of \[1.0, inf\] is not finite"):
        call()


def test_bincount_under_jit_has_minlength_as_its_length():
    f = fg.jit(lambda t, w: (t.bincount(minlength=5), t.bincount(w, minlength=5)))
    counts, sums = f(fg.tensor([1, 1, 3]), fg.tensor([0.5, 2.0, 1.0], dtype=fg.float64))
    np.testing.assert_array_equal(np.asarray(counts), [0, 2, 0, 1, 0])
    assert counts.dtype == np.int64
    np.testing.assert_array_equal(np.asarray(sums), [0.0, 2.5, 0.0, 1.0, 0.0])
    weights_gradient = fg.jit(fg.grad(
        lambda w, t: (t.bincount(w, minlength=5) * np.arange(5.0)).sum()))
    np.testing.assert_array_equal(
        np.asarray(weights_gradient(fg.tensor([0.5, 2.0, 1.0], dtype=fg.float64),
                                    fg.tensor([1, 1, 3]))), [1.0, 1.0, 3.0])


def test_bincount_under_jit_says_what_it_needs():
    with pytest.raises(ValueError, match="pass minlength=N.*JAX's length=N"):
        fg.jit(lambda t: t.bincount())(fg.tensor([1, 2]))
    with pytest.raises(IndexError, match="minlength must be above every value: index 2"):
        fg.jit(lambda t: t.bincount(minlength=2))(fg.tensor([1, 2]))
    with pytest.raises(IndexError, match="index -1 is out of bounds"):
        fg.vmap(lambda t: t.bincount(minlength=3))(fg.tensor([[1, 2], [0, -1]]))


def test_searchsorted_and_bucketize_trace():
    seq = fg.tensor([1.0, 2.0, 2.0, 5.0])
    values = np.array([[2.0, 0.0], [7.0, NAN]])
    left = fg.jit(lambda v: fg.searchsorted(seq, v))(fg.tensor(values))
    right = fg.jit(lambda s, v: fg.searchsorted(s, v, right=True))(seq, fg.tensor(values))
    np.testing.assert_array_equal(np.asarray(left), [[1, 0], [4, 4]])
    np.testing.assert_array_equal(np.asarray(right), [[3, 0], [4, 4]])
    assert left.dtype == np.int64
    buckets = fg.vmap(lambda v: fg.bucketize(v, fg.tensor([1.0, 2.0]), out_int32=True))(
        fg.tensor([[0.5, 1.0], [2.0, 9.0]]))
    np.testing.assert_array_equal(np.asarray(buckets), [[0, 0], [1, 2]])
    assert buckets.dtype == np.int32


S = np.array([[0.3, -1.2, 0.5, 2.1], [1.7, 0.0, -0.4, 0.9], [-2.3, 1.1, 0.6, -0.8]])
X = np.array([[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.5, 0.0], [3.0, 1.5, -2.0, 1.0]])


def _indices(s, n):
    """An int64 index in [0, n) computed from the values (so traced under jit and vmap)."""
    return (s.abs() * 10).long() % n


# Each writes with indices computed from s; repeated indices included
PLACING = {
    "scatter": lambda t, s: t.scatter(1, s.argsort(1)[:, :2], s[:, :2] * 3),
    "scatter_value": lambda t, s: t.scatter(0, _indices(s, 3), 2.5) * s,
    "scatter_add": lambda t, s: t.scatter_add(1, _indices(s, 4), s * 2),
    "scatter_reduce_sum": lambda t, s: t.scatter_reduce(1, _indices(s, 4), s, "sum"),
    "scatter_reduce_mean": lambda t, s: t.scatter_reduce(1, _indices(s, 4), s, "mean"),
    "scatter_reduce_mean_without_self": lambda t, s: t.scatter_reduce(
        1, _indices(s, 4), s, "mean", include_self=False),
    "scatter_reduce_amax": lambda t, s: t.scatter_reduce(1, _indices(s, 4), s, "amax"),
    "scatter_reduce_amin_without_self": lambda t, s: t.scatter_reduce(
        0, _indices(s, 3), s, "amin", include_self=False),
    "index_add": lambda t, s: t.index_add(1, _indices(s[0], 4), s, alpha=2),
    "index_copy": lambda t, s: t.index_copy(1, s[0].argsort(), s),
    "index_fill": lambda t, s: t.index_fill(1, _indices(s[0], 4)[:2], -1.5),
    "index_put_accumulate": lambda t, s: t.index_put((_indices(s[0], 3),), s[1],
                                                     accumulate=True),
    "index_put": lambda t, s: t.index_put((s[:, 0].argsort(),), s),
    "gather": lambda t, s: t.gather(1, _indices(s, 4)),
    "take_along_dim": lambda t, s: t.take_along_dim(_indices(s, 4), 1),
    "index_select": lambda t, s: t.index_select(1, _indices(s[0], 4)),
    "masked_scatter": lambda t, s: t.masked_scatter(s > 0, t * 3),
}
W = np.linspace(-1.0, 2.0, 12).reshape(3, 4)


def _eager_value_and_gradients(f, x, s):
    t, u = fg.tensor(x, requires_grad=True), fg.tensor(s, requires_grad=True)
    out = f(t, u)
    (out * W[:out.shape[0], :out.shape[1]]).sum().backward()
    grads = [np.zeros_like(x) if v.grad is None else v.grad.numpy() for v in (t, u)]
    return out.detach().numpy(), grads


@pytest.mark.parametrize("name", sorted(PLACING))
def test_placing_with_traced_indices_matches_the_eager_tensor(name):
    f = PLACING[name]
    value, gradients = _eager_value_and_gradients(f, X, S)
    np.testing.assert_allclose(np.asarray(fg.jit(f)(fg.tensor(X), fg.tensor(S))), value,
                               rtol=1e-13)
    loss = lambda t, s: (f(t, s) * W[:value.shape[0], :value.shape[1]]).sum()
    for run in (fg.grad(loss, argnums=(0, 1)), fg.jit(fg.grad(loss, argnums=(0, 1)))):
        for got, expected in zip(run(fg.tensor(X), fg.tensor(S)), gradients):
            np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-13, atol=1e-15)
    xs, ss = np.stack([X, 2 * X, -X]), np.stack([S, S[::-1], 0.7 * S + 0.3])
    loop = np.stack([f(fg.tensor(x), fg.tensor(s)).detach().numpy() for x, s in zip(xs, ss)])
    np.testing.assert_allclose(np.asarray(fg.vmap(f)(fg.tensor(xs), fg.tensor(ss))), loop,
                               rtol=1e-13)
    loop_gradients = [fg.grad(loss, argnums=(0, 1))(fg.tensor(x), fg.tensor(s))
                      for x, s in zip(xs, ss)]
    batched = fg.vmap(fg.grad(loss, argnums=(0, 1)))(fg.tensor(xs), fg.tensor(ss))
    for k in range(2):
        np.testing.assert_allclose(np.asarray(batched[k]),
                                   np.stack([np.asarray(g[k]) for g in loop_gradients]),
                                   rtol=1e-13, atol=1e-15)


def test_placing_with_traced_indices_keeps_pytorchs_values():
    """Facts of PyTorch 2.13 for indices computed from the values."""
    t = fg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    f = fg.jit(lambda t: (fg.zeros(2, 3).scatter_add(1, t.argsort(1, descending=True), t),
                          t.index_add(1, (t[0] > 1.5).long(), t, alpha=2),
                          t.scatter_reduce(1, (t % 2).long(), -t, "amax", include_self=False)))
    scattered, added, reduced = f(t)
    np.testing.assert_array_equal(np.asarray(scattered), [[3.0, 2.0, 1.0], [6.0, 5.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(added), [[3.0, 12.0, 3.0], [12.0, 27.0, 6.0]])
    np.testing.assert_array_equal(np.asarray(reduced), [[-2.0, -1.0, 3.0], [-4.0, -5.0, 6.0]])


@pytest.mark.parametrize("call, message", [
    (lambda t: t.gather(0, t.long() - 2), "index -1 is out of bounds for dimension 0 with size 3"),
    (lambda t: fg.zeros(3).scatter_add(0, t.long(), t),
     "index 3 is out of bounds for dimension 0"),
    (lambda t: fg.zeros(3).index_add(0, t.long() - 2, t),
     "index -1 is out of bounds for dimension 0 with size 3"),
    (lambda t: fg.zeros(3).index_copy(0, t.long(), t), "index_copy_\\(\\): index 3 is out of"),
    (lambda t: t.index_fill(0, t.long() - 5, 0.0), "index -4 is out of bounds"),
    (lambda t: t.masked_scatter(t > 0, fg.ones(2)), "expected source to have at least 3"),
])
@pytest.mark.parametrize("transform", ["jit", "vmap"])
def test_traced_indices_outside_their_dim_raise_pytorchs_error(call, message, transform):
    """PyTorch refuses them, negative ones too, where NumPy would wrap a negative one:
    a traced index is checked when its values are known."""
    x = fg.tensor([1.0, 2.0, 3.0])
    run = fg.jit(call) if transform == "jit" else (lambda t: fg.vmap(call)(t.unsqueeze(0)))
    with pytest.raises((IndexError, RuntimeError), match=message):
        run(x)


def test_index_fill_counts_a_traced_negative_index_from_the_end():
    f = fg.jit(lambda t: t.index_fill(0, (t.long() - 4)[:2], 0.0))
    np.testing.assert_array_equal(np.asarray(f(fg.tensor([1.0, 2.0, 3.0]))), [0.0, 0.0, 3.0])


def test_a_product_scattered_at_traced_indices_refuses_its_derivative():
    """Its value traces; its derivative needs distinct indices, unknown when traced."""
    f = lambda t: t.scatter_reduce(0, (t > 1.5).long(), t, "prod")
    np.testing.assert_array_equal(np.asarray(fg.jit(f)(fg.tensor([1.0, 2.0, 3.0]))),
                                  [1.0, 12.0, 3.0])
    with pytest.raises(ValueError, match="distinct.*traced"):
        fg.jit(fg.grad(lambda t: f(t).sum()))(fg.tensor([1.0, 2.0, 3.0]))


SHAPED_BY_VALUES = {
    "unique": (lambda t: t.unique().sum(), "fg.numpy.unique\\(t, size=N"),
    "unique_consecutive": (lambda t: t.unique_consecutive().sum(), "size=N"),
    "nonzero": (lambda t: t.nonzero().sum(), "fg.numpy.nonzero\\(t, size=N"),
    "argwhere": (lambda t: t.argwhere().sum(), "argwhere\\(t, size=N\\)"),
    "masked_select": (lambda t: t.masked_select(t > 2.0).sum(), "t.where\\(mask, 0\\)"),
}


@pytest.mark.parametrize("name", sorted(SHAPED_BY_VALUES))
def test_results_shaped_by_the_values_raise_under_jit_and_vmap_saying_why(name):
    f, fix = SHAPED_BY_VALUES[name]
    x = np.array([[1.0, 3.0, 3.0], [0.0, 4.0, 3.0]])
    expected = float(f(fg.tensor(x)).numpy())
    assert float(np.asarray(fg.vjp(f, fg.tensor(x))[0])) == expected  # (values known there)
    for run in (fg.jit(f), lambda t: fg.vmap(f)(t.unsqueeze(0))):
        with pytest.raises(fg.ConcretizationError,
                           match=f"{name}\\(\\): the shape of its result depends on the concrete "
                                 f"values.*{fix}"):
            run(fg.tensor(x))


# Elementwise methods that computed with NumPy on the values (PyTorch 2.13's values)
ELEMENTWISE = {
    "div_floor": (lambda t: t.div(2.0, rounding_mode="floor"), [3.0, -4.0, 1.0, -1.0]),
    "div_trunc": (lambda t: t.div(2.0, rounding_mode="trunc"), [3.0, -3.0, 1.0, -0.0]),
    "floor_divide": (lambda t: t.floor_divide(2.0), [3.0, -4.0, 1.0, -1.0]),
    "heaviside": (lambda t: t.heaviside(fg.tensor(0.5)), [1.0, 0.0, 1.0, 0.0]),
    "nextafter": (lambda t: t.nextafter(fg.tensor([8.0, 0.0, 0.0, 0.0])),
                  [np.nextafter(7.0, 8.0), np.nextafter(-7.0, 0.0), np.nextafter(2.5, 0.0),
                   np.nextafter(-0.5, 0.0)]),
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_methods_computed_from_the_values_trace(name):
    f, expected = ELEMENTWISE[name]
    x = np.array([7.0, -7.0, 2.5, -0.5])
    for got in (f(fg.tensor(x)), fg.jit(f)(fg.tensor(x)), fg.vmap(f)(fg.tensor(x[None]))[0]):
        np.testing.assert_array_equal(np.asarray(got), expected)
        assert np.signbit(np.asarray(got)).tolist() == np.signbit(expected).tolist()


def test_integer_division_by_a_traced_zero_raises_when_the_values_are_known():
    a, b = fg.tensor([7, -7, 3, 0], dtype=fg.int32), fg.tensor([2, 3, -2, 5], dtype=fg.int32)
    trunc = fg.jit(lambda a, b: a.div(b, rounding_mode="trunc"))(a, b)
    np.testing.assert_array_equal(np.asarray(trunc), [3, -2, -1, 0])
    assert trunc.dtype == np.int32
    np.testing.assert_array_equal(
        np.asarray(fg.vmap(lambda a, b: a.div(b, rounding_mode="floor"))(a[None], b[None]))[0],
        [3, -3, -2, 0])
    with pytest.raises(ZeroDivisionError, match="integer division by zero"):
        fg.jit(lambda a, b: a.div(b, rounding_mode="floor"))(a, b - b)


def test_frexp_traces_and_keeps_a_subnormals_mantissa():
    """A subnormal's mantissa was inf: 2 ** 1028 is past the largest float64."""
    x = np.array([8.0, 3e-310, -0.3])
    for mantissa, exponent in (fg.tensor(x).frexp(), fg.jit(lambda t: t.frexp())(fg.tensor(x)),
                               [o[0] for o in fg.vmap(lambda t: t.frexp())(fg.tensor(x[None]))]):
        np.testing.assert_array_equal(np.asarray(mantissa), [0.5, 0.862892704733909, -0.6])
        np.testing.assert_array_equal(np.asarray(exponent), [4, -1028, -1])
        assert np.asarray(exponent).dtype == np.int32
    gradient = fg.jit(fg.grad(lambda t: t.frexp()[0].sum()))(fg.tensor([8.0, -0.3]))
    np.testing.assert_array_equal(np.asarray(gradient), [0.0625, 2.0])


@pytest.mark.parametrize("accumulate, expected, value_gradient", [
    (False, [[1.0, 7.0, 0.5], [7.0, -1.0, 7.0]], 9.0),
    (True, [[1.0, 10.0, 0.5], [11.0, -1.0, 9.0]], 9.0),
])
def test_index_put_with_a_traced_mask_and_one_value_traces(accumulate, expected,
                                                           value_gradient):
    """PyTorch 2.13's values and gradients; a traced mask's True count is not known, but
    one value put at each True element is a where() of self's shape."""
    x = np.array([[1.0, 3.0, 0.5], [4.0, -1.0, 2.0]])
    f = lambda t, v: t.index_put((t > 1.5,), v, accumulate=accumulate)
    value = fg.tensor(7.0, dtype=fg.float64)
    for got in (fg.jit(f)(fg.tensor(x), value),
                fg.vmap(f, in_axes=(0, None))(fg.tensor(x[None]), value)[0]):
        np.testing.assert_array_equal(np.asarray(got), expected)
    gx, gv = fg.jit(fg.grad(lambda t, v: (f(t, v) * x).sum(), argnums=(0, 1)))(fg.tensor(x),
                                                                                value)
    np.testing.assert_array_equal(np.asarray(gx), x if accumulate else x * (x <= 1.5))
    assert float(np.asarray(gv)) == value_gradient


INDEXING = {
    "gather": lambda x, i: x.gather(0, i),
    "scatter": lambda x, i: x.scatter(0, i, fg.ones(2)),
    "scatter_add": lambda x, i: x.scatter_add(0, i, fg.ones(2)),
    "scatter_reduce": lambda x, i: x.scatter_reduce(0, i, fg.ones(2), "sum"),
    "index_add": lambda x, i: x.index_add(0, i, fg.ones(2)),
    "index_select": lambda x, i: x.index_select(0, i),
    "index_copy": lambda x, i: x.index_copy(0, i, fg.ones(2)),
    "index_fill": lambda x, i: x.index_fill(0, i, 1.0),
    "take_along_dim": lambda x, i: x.take_along_dim(i, 0),
}
# PyTorch 2.13: int32 indices are taken by these, int64 only by the others
TAKES_INT32 = {"gather", "scatter", "scatter_add", "scatter_reduce", "index_add",
               "index_select"}


@pytest.mark.parametrize("name", sorted(INDEXING))
@pytest.mark.parametrize("dtype", [np.int32, np.int16, np.uint8])
def test_index_dtypes_are_pytorchs(name, dtype):
    x, index = fg.tensor([3.0, 4.0, 5.0]), fg.tensor([2, 0], dtype=dtype)
    expected = INDEXING[name](x, index.long())
    if dtype == np.int32 and name in TAKES_INT32:
        np.testing.assert_array_equal(INDEXING[name](x, index).numpy(), expected.numpy())
        got = fg.jit(INDEXING[name])(x, index)  # (the index traced)
        np.testing.assert_array_equal(np.asarray(got), expected.numpy())
    else:
        with pytest.raises(RuntimeError, match=f"{name}\\(\\): Expected dtype "
                                               f"{'int32/' if name in TAKES_INT32 else ''}"
                                               f"int64 for index.*\\.long\\(\\)"):
            INDEXING[name](x, index)

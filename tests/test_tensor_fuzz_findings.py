"""What differential fuzzing of PyTorch-style Tensor programs under the transforms found
(random programs of Tensor methods, each run eagerly with ``backward()`` and under
grad, vjp, jvp, vmap, jit, hessian and fg.lax bodies; session 19's torchfuzz2 report).
Each test is a finding minimised to a few lines; the reference is the eager Tensor."""
import numpy as np
import pytest

import funcgrad as fg

X = np.array([[0.3, -0.5, 0.2], [0.4, 0.1, -0.7]])


def _transforms(f):
    """``f``'s value of a (2, 3) Tensor under each transform, as plain arrays."""
    t = fg.Tensor(X)
    batch = fg.Tensor(X[None])
    return {
        "vjp": np.asarray(fg.vjp(f, t)[0]),
        "jvp": np.asarray(fg.jvp(f, (t,), (fg.Tensor(np.ones_like(X)),))[0]),
        "jit": np.asarray(fg.jit(f)(t)),
        "vmap": np.asarray(fg.vmap(f)(batch))[0],
        "jit(vmap)": np.asarray(fg.jit(fg.vmap(f))(batch))[0],
    }


def test_contiguous_is_the_value_itself_under_the_transforms():
    """A traced value had no contiguous(): the AttributeError of every transform (values
    computed by a transform have no memory layout to copy)."""
    f = lambda t: t.t().contiguous() * np.arange(1.0, 3.0)
    expected = f(fg.Tensor(X)).numpy()
    for name, got in _transforms(f).items():
        np.testing.assert_array_equal(got, expected, err_msg=name)
    w = np.arange(6.0).reshape(3, 2)
    gradient = fg.grad(lambda t: (t.t().contiguous() * w).sum())(fg.Tensor(X))
    np.testing.assert_array_equal(np.asarray(gradient), w.T)
    assert fg.vmap(lambda t: t * t.is_contiguous())(fg.Tensor(X)).shape == (2, 3)


@pytest.mark.parametrize("f", [
    lambda t: np.array(1.5) - t,                            # a 0-d float64 ndarray
    lambda t: t * fg.tensor(2.0, dtype=fg.float64),         # a 0-d float64 Tensor
    lambda t: fg.tensor(2.0, dtype=fg.float64) / (t * t + 1),
    lambda t: t.sum() - np.array(1.5),                      # an example reduced to 0-d
], ids=["ndarray_0d", "tensor_0d", "rdiv_tensor_0d", "reduced"])
def test_vmap_promotes_as_each_example_does(f):
    """PyTorch promotes a 0-d Tensor more weakly than one with dims, and two 0-d ones
    as equals: a float32 example that is 0-d minus a 0-d float64 array is float64.
    Under vmap the batch of such examples has a dim, and was promoted as one (float32,
    silently, where the loop of eager calls gives float64)."""
    xs = np.array([0.25, -1.5, 2.0], np.float32)
    loop = [f(fg.Tensor(v)) for v in xs]
    expected = np.stack([e.numpy() for e in loop])
    for run in (fg.vmap(f), fg.jit(fg.vmap(f)), fg.vmap(fg.jit(f))):
        got = run(fg.Tensor(xs))
        assert got.dtype == loop[0].dtype == np.float64
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-15)
    gradients = fg.vmap(fg.grad(lambda t: f(t).sum()))(fg.Tensor(xs))
    assert gradients.dtype == np.float32  # (each in its input's dtype, as eagerly)


def test_vmap_keeps_a_tensor_with_dims_in_its_dtype():
    """The other side of PyTorch's rule: examples with dims stay float32 with a 0-d
    float64 value, and become float64 with a float64 array that has dims."""
    rows = fg.Tensor(np.ones((2, 3), np.float32))
    assert fg.vmap(lambda r: r * np.array(2.0))(rows).dtype == np.float32
    assert fg.vmap(lambda r: r * np.ones(3))(rows).dtype == np.float64


def test_count_nonzero_is_traced():
    """count_nonzero counted a NumPy copy of the values: a concreteness error under jit
    and vmap, where nothing needs one (PyTorch's torch.func traces it)."""
    f = lambda t: (t > 0).count_nonzero(1) * t.sum(1)
    expected = f(fg.Tensor(X)).numpy()
    for name, got in _transforms(f).items():
        np.testing.assert_array_equal(got, expected, err_msg=name)
    assert fg.Tensor(X).count_nonzero().dtype == np.int64
    assert int(fg.jit(lambda t: t.count_nonzero())(fg.Tensor(X))) == 6


A = np.arange(24.0).reshape(2, 3, 4)


@pytest.mark.parametrize("key, shape", [
    ((1, slice(None), [0, 2]), (3, 2)),       # NumPy's (2, 3): the slice splits the
    ((0, slice(1, 3), [1, 2, 3]), (2, 3)),    # advanced indices, whose axes go first
    ((slice(None), 0, [1, 3]), (2, 2)),       # (NumPy agrees: adjacent)
])
def test_indexing_is_pytorchs_under_the_transforms(key, shape):
    """A Tensor applies integer indices before the advanced ones; its traced value
    indexed as NumPy does: x[1, :, [0, 2]] was (3, 2) eagerly and (2, 3), transposed,
    under every transform, silently."""
    f = lambda t: t[key]
    expected = f(fg.Tensor(A)).numpy()
    assert expected.shape == shape
    t = fg.Tensor(A)
    for name, got in {"vjp": fg.vjp(f, t)[0], "jit": fg.jit(f)(t),
                      "jvp": fg.jvp(f, (t,), (t,))[0],
                      "vmap": fg.vmap(f)(fg.Tensor(A[None]))[0]}.items():
        np.testing.assert_array_equal(np.asarray(got), expected, err_msg=name)
    w = np.arange(1.0, 1.0 + expected.size).reshape(shape)
    loss = lambda t: (t[key] * w).sum()
    x = fg.Tensor(A, requires_grad=True)
    loss(x).backward()
    np.testing.assert_array_equal(np.asarray(fg.grad(loss)(fg.Tensor(A))), x.grad.numpy())
    # an array's traced value keeps NumPy's meaning
    assert fg.jit(lambda a: a[key])(A).shape == A[key].shape


def test_a_traced_index_array_is_pytorchs_too():
    f = lambda t: t[1, :, t.argmax(-1)[0, :2]]
    assert f(fg.Tensor(A)).shape == (3, 2)
    assert fg.jit(f)(fg.Tensor(A)).shape == (3, 2)
    assert fg.vmap(f)(fg.Tensor(A[None])).shape == (1, 3, 2)


def test_a_boolean_tensor_mask_indexes_under_grad_and_jvp():
    """t[t > 0]: under grad the mask is a bool Tensor, which the traced value's
    indexing refused ('arrays used as indices must be of integer or boolean type, got
    bool'); eagerly it selects."""
    x = np.array([1.0, -1.0, 2.0])
    np.testing.assert_array_equal(
        np.asarray(fg.grad(lambda t: (t[t > 0] ** 2).sum())(fg.Tensor(x))), [2.0, 0.0, 4.0])
    mask = fg.Tensor(x > 0)
    out, tangent = fg.jvp(lambda t: t[mask], (fg.Tensor(x),), (fg.Tensor(x * 10),))
    np.testing.assert_array_equal(np.asarray(tangent), [10.0, 20.0])
    with pytest.raises(fg.ConcretizationError, match="concrete value was needed"):
        fg.jit(lambda t: t[t > 0])(fg.Tensor(x))  # (the result's shape depends on values)


@pytest.mark.parametrize("f", [
    lambda t: fg.std_mean(t, dim=0, correction=0)[0],         # 0-d: one element
    lambda t: fg.std_mean(t.expand(2, 3), 1)[0].sum(),         # rows of equal elements
    lambda t: fg.std_mean(t.reshape(1), correction=0)[0],
], ids=["zero_d", "equal_rows", "one_element"])
def test_std_mean_has_the_gradient_of_std_where_the_spread_is_zero(f):
    """std_mean took var's square root, whose gradient at 0 is 0/0: NaN where std() and
    PyTorch's std_mean give 0 (found against torch 2.13)."""
    t = fg.tensor(0.7, dtype=fg.float64, requires_grad=True)
    f(t).backward()
    assert float(t.grad) == 0.0
    assert float(fg.grad(f)(fg.tensor(0.7, dtype=fg.float64))) == 0.0
    assert float(fg.jit(fg.grad(f))(fg.tensor(0.7, dtype=fg.float64))) == 0.0


@pytest.mark.parametrize("name", ["median", "nanmedian"])
@pytest.mark.parametrize("x, shares", [
    ([1.0, 2.0, 2.0], [0.0, 0.5, 0.5]),
    ([1.0, np.nan, 3.0, np.nan], None),        # median: NaN, shared among the NaNs
    ([np.inf, np.inf, 1.0], [0.5, 0.5, 0.0]),
])
def test_median_of_all_shares_the_gradient_among_ties_under_the_transforms(name, x, shares):
    """t.median() gives each of k equal medians 1/k of the gradient (PyTorch's, and the
    eager Tensor's); under grad and vjp the traced pick gave it all to one element,
    silently, and under jit and vmap it raised."""
    x = np.array(x)
    t = fg.Tensor(x, requires_grad=True)
    getattr(t, name)().backward()
    expected = t.grad.numpy()
    if shares is not None:
        np.testing.assert_array_equal(expected, shares)
    f = lambda t: getattr(t, name)() * 1.0
    for run in (fg.grad(f), fg.jit(fg.grad(f)), lambda t: fg.vmap(fg.grad(f))(
            fg.Tensor(t.numpy()[None]))[0]):
        np.testing.assert_array_equal(np.asarray(run(fg.Tensor(x))), expected)
    v = np.linspace(0.5, 1.5, x.size)
    _, tangent = fg.jvp(f, (fg.Tensor(x),), (fg.Tensor(v),))
    assert float(np.asarray(tangent)) == pytest.approx(float(np.nansum(expected * v)))


@pytest.mark.parametrize("f", [
    lambda t: t.topk(2, dim=1).values,
    lambda t: t.topk(1, 0, largest=False)[1] * 1.0,
    lambda t: t.kthvalue(2, -1, keepdim=True)[0],
    lambda t: t.median(0)[1] * t.median(0).values,
    lambda t: t.nanmedian(-1).values,
], ids=["topk", "topk_smallest_indices", "kthvalue", "median_dim", "nanmedian_dim"])
def test_value_picking_methods_trace_under_jit_and_vmap(f):
    """topk, kthvalue and median/nanmedian by dim picked their indices with NumPy on
    concrete values: a concreteness error under jit and vmap; the same NumPy calls on
    the traced values now trace the pick (argsort, as sort already did)."""
    expected = f(fg.Tensor(X)).numpy()
    for name, got in _transforms(f).items():
        np.testing.assert_array_equal(got, expected, err_msg=name)


# A seeded few-program version of the fuzzer: random chains of PyTorch-style steps on
# float32/float64 Tensors of 0-3 dims, each compared with its eager run (value, dtype,
# backward()) under vjp, jit, jit(grad) and vmap.
STEPS = [
    lambda t: t.sum(-1) if t.dim() else t * 2,
    lambda t: t.max(0)[0] if t.dim() else t.max(),
    lambda t: t.std(0, keepdim=True) if t.dim() and t.shape[0] > 1 else t.sin(),
    lambda t: t.var(correction=0) + t,
    lambda t: t.softmax(-1) if t.dim() else t.sigmoid(),
    lambda t: t.cumsum(-1) if t.dim() else t.exp(),
    lambda t: t.transpose(0, -1).contiguous() if t.dim() > 1 else t.unsqueeze(0),
    lambda t: t.flip(0).roll(1, -1) if t.dim() else t.flip(0),
    lambda t: t.reshape(-1).view(1, -1).squeeze(0),
    lambda t: t[..., 1:] if t.dim() and t.shape[-1] > 1 else t,
    lambda t: t[0, :, [0]] if t.dim() == 3 else t.unsqueeze(-1),
    lambda t: np.array(0.5) - t,
    lambda t: t * fg.tensor(1.5, dtype=fg.float64),
    lambda t: t + np.float64(0.25),
    lambda t: 2 ** t.clamp(-1.0, 1.0),
    lambda t: (t > 0).count_nonzero() * t,
    lambda t: t.norm(dim=-1, keepdim=True) if t.dim() else t.abs(),
    lambda t: t.amax(-1) if t.dim() else t.square(),
    lambda t: fg.where(t > 0, t, t * 0.1),
    lambda t: t.prod(0) if t.dim() else 1 / (1 + t * t),
]


def _program(seed):
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 4, size=int(rng.integers(0, 4))))
    x = rng.uniform(-1.5, 1.5, size=shape).astype(rng.choice([np.float32, np.float64]))
    steps = [STEPS[i] for i in rng.integers(len(STEPS), size=int(rng.integers(1, 5)))]

    def f(t):
        for step in steps:
            t = step(t)
        return t
    return x, f


@pytest.mark.parametrize("seed", range(24))
def test_random_programs_match_the_eager_tensor(seed):
    x, f = _program(seed)
    t = fg.Tensor(x, requires_grad=True)
    out = f(t)
    w = np.linspace(-1.0, 1.0, out.numel()).reshape(tuple(out.shape)).astype(out.dtype)
    (out * fg.Tensor(w)).sum().backward()
    gradient = t.grad.numpy() if t.grad is not None else np.zeros_like(x)
    rtol = 1e-5 if np.float32 in (x.dtype, out.dtype) else 1e-12
    loss = lambda t: (f(t) * fg.Tensor(w)).sum()
    for name, got in {"vjp": fg.vjp(f, fg.Tensor(x))[0], "jit": fg.jit(f)(fg.Tensor(x)),
                      "vmap": fg.vmap(f)(fg.Tensor(x[None]))[0]}.items():
        assert got.dtype == out.dtype and got.shape == out.shape, name
        np.testing.assert_allclose(np.asarray(got), out.detach().numpy(), rtol=rtol,
                                   atol=rtol, err_msg=name)
    for name, got in {"grad": fg.grad(loss)(fg.Tensor(x)),
                      "jit(grad)": fg.jit(fg.grad(loss))(fg.Tensor(x))}.items():
        assert got.dtype == x.dtype, name
        np.testing.assert_allclose(np.asarray(got), gradient, rtol=rtol, atol=rtol,
                                   err_msg=name)

"""A Tensor's methods mean PyTorch's under every transform, as they do eagerly.

Inside ``fg.grad``/``vjp``/``jvp``/``vmap``/``jit`` a Tensor argument is a traced value;
where PyTorch's and NumPy's methods disagree (``max(dim)``, ``std``'s divisor,
``transpose(d0, d1)``...) the traced value must still compute what the eager Tensor
computes.  Reference: the eager run and its ``backward()``."""
import numpy as np
import pytest

import funcgrad as fg

X = np.array([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]])
W6 = np.arange(1.0, 7.0)

# Each case is a scalar loss of a (2, 3) Tensor written with PyTorch's methods; the
# weights make every element's gradient count.
CASES = {
    "max_dim_values": lambda t: t.max(0)[0].sum(),
    "max_dim_kw_keepdim": lambda t: (t.max(dim=1, keepdim=True).values
                                     * np.array([[1.0], [3.0]])).sum(),
    "min_dim": lambda t: (t.min(1)[0] * np.array([1.0, 2.0])).sum(),
    "min_dim_keepdim_positional": lambda t: t.min(1, True)[0].sum(),
    "max_indices": lambda t: (t * t.max(1)[1].unsqueeze(1)).sum(),
    "std_dim": lambda t: t.std(0).sum(),
    "std_unbiased_false": lambda t: t.std(unbiased=False),
    "var_all": lambda t: t.var(),
    "var_dim_keepdim": lambda t: (t.var(1, keepdim=True) * np.array([[1.0], [2.0]])).sum(),
    "var_correction0": lambda t: t.var(correction=0),
    "transpose_dims": lambda t: (t.transpose(0, 1) * W6.reshape(3, 2)).sum(),
    "sum_dim_kw": lambda t: (t.sum(dim=0) ** 2).sum(),
    "sum_dim_keepdim_positional": lambda t: (t.sum(0, True) ** 2).sum(),
    "mean_dim_kw": lambda t: (t.mean(dim=1) ** 2).sum(),
    "prod_dim": lambda t: t.prod(1).sum(),
    "cumsum_dim": lambda t: (t.cumsum(dim=1) * W6.reshape(2, 3)).sum(),
    "view": lambda t: (t.view(-1) * W6).sum(),
    "view_shape": lambda t: (t.view(3, 2) * W6.reshape(3, 2)).sum(),
    "reshape_args": lambda t: (t.reshape(3, -1) * W6.reshape(3, 2)).sum(),
    "flatten_start": lambda t: (t.unsqueeze(0).flatten(1) * W6).sum(),
    "sort_dim": lambda t: (t.sort(1)[0] * np.arange(3.0)).sum(),
    "sort_descending": lambda t: (t.sort(dim=0, descending=True).values * W6.reshape(2, 3)).sum(),
    "permute": lambda t: (t.permute(1, 0) * W6.reshape(3, 2)).sum(),
    "repeat": lambda t: (t.repeat(2, 1) * np.arange(12.0).reshape(4, 3)).sum(),
    "expand": lambda t: (t.unsqueeze(0).expand(2, 2, 3) * np.arange(12.0).reshape(2, 2, 3)).sum(),
    "softmax": lambda t: (t.softmax(dim=1) * np.arange(3.0)).sum(),
    "log_softmax": lambda t: (t.log_softmax(1) * np.arange(3.0)).sum(),
    "narrow_chunk_split": lambda t: (t.narrow(1, 1, 2).sum() + t.chunk(3, dim=1)[2].sum() * 2
                                     + t.split([1, 2], dim=1)[0].sum() * 3),
    "squeeze_unsqueeze": lambda t: (t.unsqueeze(-1).squeeze(-1) ** 2).sum(),
    "detach": lambda t: (t * t.detach()).sum(),
    "size_dim_numel": lambda t: t.sum() * t.size(1) * t.dim() + t.numel() * t.mean(),
    "clamp_relu": lambda t: (t.clamp(min=1.0, max=4.0) + (t - 2.0).relu()).sum(),
    "norm_dim": lambda t: t.norm(dim=1).sum(),
    "argmax_dim": lambda t: (t * t.argmax(dim=1, keepdim=True)).sum(),
    "matmul_t": lambda t: (t @ t.t()).sum(),
    # (their indices picked by the traced argsort under jit and vmap)
    "topk": lambda t: (t.topk(2, dim=1).values * np.array([2.0, 1.0])).sum(),
    "kthvalue": lambda t: (t.kthvalue(2, 1)[0] * np.array([1.0, 3.0])).sum(),
    "median_dim": lambda t: (t.median(0).values * np.array([1.0, 2.0, 3.0])).sum(),
    "median_all": lambda t: t.median() * 2.0,
    # (their indices picked by a traced scan and a traced sort's run lengths)
    "mode": lambda t: (t.mode(1).values * np.array([2.0, 1.0])).sum(),
    "cummax": lambda t: (t.cummax(1).values * W6.reshape(2, 3)).sum(),
    "cummin_indices": lambda t: (t * t.cummin(0).indices).sum(),
}


def _eager(f):
    t = fg.Tensor(X.copy(), requires_grad=True)
    value = f(t)
    value.backward()
    return float(value.detach().numpy()), t.grad.numpy()


@pytest.mark.parametrize("name", sorted(CASES))
def test_value_and_gradient_match_the_eager_tensor(name):
    f = CASES[name]
    value, gradient = _eager(f)
    for transformed in (fg.value_and_grad(f), fg.jit(fg.value_and_grad(f)),
                        fg.value_and_grad(fg.jit(f))):
        got_value, got_gradient = transformed(fg.Tensor(X.copy()))
        np.testing.assert_allclose(float(np.asarray(got_value)), value, rtol=1e-12)
        np.testing.assert_allclose(np.asarray(got_gradient), gradient, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", sorted(CASES))
def test_jvp_is_the_gradient_along_the_tangent(name):
    f = CASES[name]
    _, gradient = _eager(f)
    v = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
    _, tangent = fg.jvp(f, (fg.Tensor(X.copy()),), (fg.Tensor(v),))
    np.testing.assert_allclose(float(np.asarray(tangent)), float((gradient * v).sum()),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_vmap_matches_a_loop_of_eager_calls(name):
    f = CASES[name]
    batch = np.stack([X, X[::-1] * 1.5, X + 0.25])
    expected = [float(f(fg.Tensor(b)).numpy()) for b in batch]
    np.testing.assert_allclose(np.asarray(fg.vmap(f)(fg.Tensor(batch))), expected, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.jit(fg.vmap(f))(fg.Tensor(batch))), expected,
                               rtol=1e-12)


def test_the_reported_silent_differences_are_gone():
    """The four answers that differed without an error (session 18's report)."""
    t = fg.Tensor(X)
    assert float(np.asarray(fg.value_and_grad(lambda t: t.max(0)[0].sum())(t)[0])) == 12.0
    np.testing.assert_allclose(np.asarray(fg.grad(lambda t: t.std(0).sum())(t)).sum(), 0.0,
                               atol=1e-12)
    assert float(np.asarray(fg.jit(lambda t: t.var())(t))) == pytest.approx(3.5)
    assert fg.vjp(lambda t: t.transpose(0, 1), t)[0].shape == (3, 2)
    rows = np.array([[1.0, 2.0, 4.0], [0.0, 3.0, 9.0]])
    np.testing.assert_allclose(np.asarray(fg.vmap(lambda r: r.std())(fg.Tensor(rows))),
                               [np.std(r, ddof=1) for r in rows], rtol=1e-12)


def test_arrays_keep_numpy_meanings_under_the_same_transforms():
    """The dispatch is by what the value stands for: an ndarray's tracer is NumPy's."""
    value, gradient = fg.value_and_grad(lambda x: x.max(0)[0])(X)  # the first column's max
    assert float(value) == 4.0
    np.testing.assert_array_equal(gradient, [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    assert float(fg.jit(lambda x: x.var())(X)) == pytest.approx(np.var(X))
    assert fg.jit(lambda x: x.transpose(0, 1))(X).shape == (2, 3)  # an axes permutation


def test_a_value_computed_from_a_tensor_and_an_array_is_a_tensors():
    """As eagerly (a Tensor times an ndarray is a Tensor), also for the closed-over
    Tensor under jit."""
    w = np.array([1.0, 2.0, 3.0])
    f = lambda t: (t * w).max(1)[0].sum()
    assert float(np.asarray(fg.jit(f)(fg.Tensor(X)))) == float(f(fg.Tensor(X)).numpy())
    T = fg.Tensor(X)
    g = lambda x: (x * T).max(0)[0].sum()  # an array argument, a Tensor closed over
    assert float(np.asarray(fg.jit(g)(np.ones(3)))) == float(g(np.ones(3)).numpy())


def test_detach_is_a_constant_that_stays_batched():
    batch = fg.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]))
    out = fg.vmap(lambda r: r.detach() * 2.0)(batch)
    np.testing.assert_array_equal(np.asarray(out), [[2.0, 4.0], [6.0, 8.0]])
    np.testing.assert_array_equal(np.asarray(fg.grad(lambda t: (t.detach() * t).sum())(
        fg.Tensor([3.0, 4.0]))), [3.0, 4.0])


@pytest.mark.parametrize("transform", ["grad", "jit", "vmap"])
def test_in_place_methods_and_the_tape_raise_saying_why(transform):
    wrap = {"grad": fg.grad, "jit": fg.jit, "vmap": fg.vmap}[transform]
    with pytest.raises(TypeError, match="in place.*x = x \\+ y"):
        wrap(lambda t: t.add_(1.0).sum())(fg.Tensor([1.0, 2.0]))
    with pytest.raises(AttributeError, match="tape.*let the transform differentiate"):
        wrap(lambda t: t.sum().backward())(fg.Tensor([1.0, 2.0]))


@pytest.mark.parametrize("f, args", [
    (lambda t, a: t - a, (fg.tensor([1.0, 2.0]), np.array(1.5))),       # 0-d float64 array
    (lambda t, a: t * a, (fg.tensor([1.0, 2.0]), np.float64(2.0))),     # NumPy scalar
    (lambda t, a: t + a, (fg.tensor([1, 2]), fg.tensor(0.5, dtype=fg.float64))),
    (lambda t, a: t / a, (fg.tensor([1, 2]), fg.tensor([2, 4]))),       # int / int
    (lambda t, a: t * a, (fg.tensor([1, 2]), np.float32(1.5))),
    (lambda t, a: a - t, (fg.tensor([1.0]), np.ones(1, np.float64))),   # both with dims
])
def test_jit_computes_in_the_eager_dtypes(f, args):
    eager = f(*args)
    compiled = fg.jit(f)(*args)
    assert compiled.dtype == eager.dtype
    np.testing.assert_allclose(np.asarray(compiled), eager.numpy(), rtol=1e-6)


LAX_CASES = {
    "fori_loop": lambda t: fg.lax.fori_loop(0, 2, lambda i, c: c + c.max(0)[0].sum(), t).sum(),
    "cond": lambda t: fg.lax.cond(True, lambda c: c.std(0).sum(), lambda c: c.sum(), t),
    "scan": lambda t: fg.lax.scan(lambda c, x: (c + x.max(0)[0].sum(), c), np.zeros(()),
                                  t.unsqueeze(0).expand(3, 2, 3))[0],
    "while_loop": lambda t: fg.lax.while_loop(lambda c: c[1] < 3,
                                              lambda c: (c[0] + c[0].var(), c[1] + 1),
                                              (t, 0))[0].sum(),
}


@pytest.mark.parametrize("name", sorted(LAX_CASES))
def test_control_flow_bodies_trace_a_tensor_as_a_tensor(name):
    """The bodies of fg.lax's loops and branches are traced once, on abstract values:
    a Tensor operand is traced as a Tensor there too."""
    f = LAX_CASES[name]
    value, gradient = _eager(f)
    for transformed in (fg.value_and_grad(f), fg.jit(fg.value_and_grad(f))):
        got_value, got_gradient = transformed(fg.Tensor(X.copy()))
        np.testing.assert_allclose(float(np.asarray(got_value)), value, rtol=1e-12)
        np.testing.assert_allclose(np.asarray(got_gradient), gradient, rtol=1e-12)


def _method_cases():
    """Every Tensor method a traced value gets, called without arguments or with a dim
    (the first of these the eager Tensor accepts)."""
    from funcgrad.eager.traced import TRACED_METHODS
    # (not arrays: a dtype name, a device, flags, the shape)
    skip = {"numpy", "data", "device", "requires_grad", "type", "is_inference", "size"}
    for name in sorted(TRACED_METHODS):
        if not name.endswith("_") and name not in skip:
            yield name


def _plain_values(out):
    if isinstance(out, tuple):
        return [_plain_values(o) for o in out]
    return np.asarray(out.detach().numpy() if isinstance(out, fg.Tensor) else out)


def _assert_same(expected, got):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected)
        for e, g in zip(expected, got):
            _assert_same(e, g)
        return
    got = np.asarray(got)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.astype(expected.dtype), expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", list(_method_cases()))
def test_every_method_computes_the_eager_value_under_the_transforms(name):
    """Under vjp, jit and vmap each method gives the eager value, or (jit, vmap) a
    clear error where it needs concrete values (indices of unique elements...)."""
    x = np.array([[0.3, 0.5, 0.2], [0.4, 0.1, 0.7]])
    for args in ((), (0,), (1,), (-1,), (0, True)):
        def f(t, args=args):
            attr = getattr(t, name)
            return attr(*args) if callable(attr) else attr
        try:
            expected = _plain_values(f(fg.Tensor(x)))
        except Exception:  # noqa: BLE001 - (not a call the eager Tensor takes)
            continue
        if isinstance(expected, np.ndarray) and expected.dtype == object:
            return
        _assert_same(expected, _plain_values(fg.vjp(f, fg.Tensor(x))[0]))
        batched = fg.Tensor(x[None])
        for run, first in ((fg.jit(f), False), (fg.vmap(f), True)):
            try:
                got = _plain_values(run(batched if first else fg.Tensor(x)))
            except (fg.ConcretizationError, TypeError) as e:
                assert "concrete" in str(e) or "plain NumPy array" in str(e), e
                continue
            if first:  # (the one example of the batch)
                got = [g[0] for g in got] if isinstance(got, list) else got[0]
            _assert_same(expected, got)
        return


class _RowMax(fg.autograd.Function):
    """A Function written with PyTorch's methods (max(dim) is (values, indices))."""

    @staticmethod
    def forward(ctx, x):
        values, indices = x.max(0)
        ctx.save_for_backward(indices.unsqueeze(0), x)
        return values

    @staticmethod
    def backward(ctx, g):
        indices, x = ctx.saved_tensors
        picked = fg.arange(x.shape[0]).unsqueeze(1) == indices
        return (picked * g.unsqueeze(0),)


def test_a_function_applied_to_tensors_sees_tensors_under_every_transform():
    """forward and backward of an autograd.Function applied to Tensors meant NumPy's
    max(0) under vmap and jit (the row maxima's first element) and PyTorch's eagerly."""
    weights = np.array([1.0, 2.0, 3.0])
    t = fg.Tensor(X, requires_grad=True)
    expected = _RowMax.apply(t)
    (expected * fg.Tensor(weights)).sum().backward()
    np.testing.assert_array_equal(expected.detach().numpy(), [4.0, 5.0, 3.0])
    for run in (fg.jit(_RowMax.apply), lambda x: fg.vjp(_RowMax.apply, x)[0],
                lambda x: fg.vmap(_RowMax.apply)(fg.Tensor(X[None]))[0]):
        np.testing.assert_array_equal(np.asarray(run(fg.Tensor(X))), [4.0, 5.0, 3.0])
    loss = lambda x: (_RowMax.apply(x) * weights).sum()
    np.testing.assert_array_equal(np.asarray(fg.grad(loss)(fg.Tensor(X))), t.grad.numpy())
    np.testing.assert_array_equal(np.asarray(fg.jit(fg.grad(loss))(fg.Tensor(X))),
                                  t.grad.numpy())
    # on arrays the rules see arrays, with NumPy's methods: max(0) is the values alone
    with pytest.raises(ValueError):
        _RowMax.apply(X)


def test_custom_vjp_and_jvp_called_on_tensors_see_tensors_everywhere():
    """The user's functions of a custom_vjp/custom_jvp called on Tensors saw plain arrays
    eagerly (NumPy's max(0): the values) and Tensors under grad (PyTorch's: a pair)."""
    @fg.custom_vjp
    def top(t):
        return t.max(0)[0].sum()
    top.defvjp(lambda t: (t.max(0)[0].sum(), t), lambda t, g: (g * (t == t.max(0)[0]),))

    @fg.custom_jvp
    def spread(t):
        return t.std(0).sum()
    spread.defjvp(lambda p, v: (spread(p[0]), (fg.grad(lambda u: u.std(0).sum())(p[0])
                                               * v[0]).sum()))
    for f, value in ((top, 12.0), (spread, float(np.std(X, 0, ddof=1).sum()))):
        t = fg.Tensor(X, requires_grad=True)
        eager = f(t)
        eager.backward()
        assert float(eager.detach().numpy()) == pytest.approx(value)
        for run in (fg.value_and_grad(f), fg.jit(fg.value_and_grad(f))):
            got, gradient = run(fg.Tensor(X))
            assert float(np.asarray(got)) == pytest.approx(value)
            np.testing.assert_allclose(np.asarray(gradient), t.grad.numpy(), rtol=1e-12)
        assert float(np.asarray(fg.vmap(f)(fg.Tensor(X[None]))[0])) == pytest.approx(value)


def test_captured_graphs_of_tensor_functions_keep_the_tensor_methods():
    """make_graph, make_jaxpr and closure_convert trace a Tensor argument as a Tensor: a
    graph of t.max(0)[0].sum() evaluates to the eager 12, not NumPy's 4."""
    f = lambda t: t.max(0)[0].sum()
    assert float(np.asarray(fg.make_graph(f)(fg.Tensor(X))(fg.Tensor(X)))) == 12.0
    assert "argmax" in str(fg.make_jaxpr(f)(fg.Tensor(X)))
    assert float(np.asarray(fg.closure_convert(f, fg.Tensor(X))[0](fg.Tensor(X)))) == 12.0
    tree_f = lambda d: d["a"].sum() + d["b"].max(0)[0].sum()
    args = {"a": np.ones(2), "b": fg.Tensor(X)}
    assert float(np.asarray(fg.make_graph(tree_f)(args)(args))) == 14.0
    # an array argument keeps NumPy's meaning
    assert float(np.asarray(fg.make_graph(f)(X)(X))) == 4.0


def test_vmap_promotes_on_the_examples_ranks():
    """A batch of 0-d float64 Tensors times a float32 Tensor with dims is float32 per
    example (PyTorch's tiers); the batch was a Tensor with dimensions to the eager
    handler, and came out float64."""
    s = fg.tensor([1.5, 2.5], dtype=fg.float64)
    v = fg.tensor([1.0, 2.0, 3.0])
    f = lambda a, b: a * b
    assert f(s[0], v).dtype == np.float32
    for run in (fg.vmap(f, in_axes=(0, None)), fg.jit(fg.vmap(f, in_axes=(0, None)))):
        out = run(s, v)
        assert out.dtype == np.float32
        np.testing.assert_allclose(np.asarray(out), np.outer([1.5, 2.5], [1.0, 2.0, 3.0]))

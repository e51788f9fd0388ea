"""The backward engine (funcgrad/interpreters/backprop.py).

One engine walks both tapes: ``fg.grad``'s and the eager ``Tensor``'s.  It accumulates
cotangents in place only into sums it computed itself, fills one slot per output of a
multi-output node, and prunes the eager walk to the nodes that reach the inputs asked for.
"""
import pathlib

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import core, instruments
from funcgrad.interpreters import backprop

ROOT = pathlib.Path(__file__).resolve().parents[1]


# --- accumulation in place, by ownership -----------------------------------------------------

@pytest.fixture
def in_place_adds(monkeypatch):
    """Counts the engine's in-place additions (``np.add(prev, c, out=prev)``)."""
    adds = []

    def counting_add(a, b, out):
        adds.append(out)
        return np.add(a, b, out=out)
    monkeypatch.setattr(backprop, "_np_add", counting_add)
    return adds


def test_cotangents_accumulate_in_place_into_the_sums_the_engine_computed(in_place_adds):
    x = np.linspace(-3, 3, 5000)
    # x receives four contributions: multiply's two, sin's and cos's.  The first two are
    # the rules' arrays: their sum is a new array the engine owns, and the last two are
    # added into it.
    got = fg.grad(lambda v: np.sum(v * v + np.sin(v) + np.cos(v)))(x)
    np.testing.assert_allclose(got, 2 * x + np.cos(x) - np.sin(x), rtol=1e-14, atol=1e-15)
    assert len(in_place_adds) == 2
    assert in_place_adds[0] is in_place_adds[1]  # the same buffer, both times
    np.testing.assert_array_equal(fg.grad(lambda v: np.sum(v + v))(x), np.full_like(x, 2.0))


def test_cotangents_the_user_holds_are_never_changed():
    x = np.linspace(-3, 3, 5000)
    ct = np.linspace(1, 2, 5000)
    before = ct.copy()
    # add hands the user's cotangent itself to x and to sin(x); sin's then adds to it.
    _, vjp_fn = fg.vjp(lambda v: v + np.sin(v), x)
    (got,) = vjp_fn(ct)
    np.testing.assert_array_equal(ct, before)
    np.testing.assert_allclose(got, ct * (1 + np.cos(x)), rtol=1e-12, atol=1e-15)
    (again,) = vjp_fn(ct)
    np.testing.assert_array_equal(again, got)
    # A cotangent that is also a value the function returned stays as the user sees it.
    held = []

    def f(v):
        y = v * 2.0
        held.append(y)
        return np.sum(y * v) + np.sum(np.cos(v))
    g = fg.grad(f)(x)
    np.testing.assert_allclose(g, 4 * x - np.sin(x), rtol=1e-14, atol=1e-15)


@pytest.fixture
def leaky():
    """``leaky(x) = x * x / 2`` whose VJP returns its saved input ``x`` itself (right for
    a cotangent of ones): a contribution that is an array the caller and the tape hold."""
    returned = []

    def vjp(needs, g, out, x):
        returned.append(x)
        return (x,)
    prim = core.Primitive("test_leaky_half_square", lambda x: x * x / 2, vjp=vjp,
                          jvp=lambda p, t: (p[0] * p[0] / 2, p[0] * t[0]),
                          abstract_eval=lambda a: core.ShapedArray(a.shape, a.dtype))
    try:
        yield prim, returned
    finally:
        del core.REGISTRY["test_leaky_half_square"]


def test_a_residual_a_rule_returns_is_never_written(leaky, in_place_adds):
    prim, returned = leaky
    x = np.linspace(-1, 1, 1000)
    before = x.copy()
    # x's first contribution is x itself (the leaky rule's); sin's and cos's follow.
    g = fg.grad(lambda v: np.sum(prim.bind(v)) + np.sum(np.sin(v)) + np.sum(np.cos(v)))(x)
    np.testing.assert_array_equal(x, before)
    assert returned and returned[0] is x  # the rule did hand out the caller's array
    np.testing.assert_allclose(g, x + np.cos(x) - np.sin(x), rtol=1e-14, atol=1e-15)
    assert len(in_place_adds) == 1 and all(a is not x for a in in_place_adds)


def test_a_sum_handed_to_a_rule_is_no_longer_written(in_place_adds):
    x = np.linspace(-1, 1, 1000)

    # y = sin(x) + cos(x) is used three times, so its cotangent is a sum the engine owns.
    # When y's node runs, add's rule gives that very array to both sin(x) and cos(x) as
    # their first cotangent; then z's uses (recorded earlier, so run later) add to both:
    # neither may write into the shared array.
    def f(v):
        s, c = np.sin(v), np.cos(v)
        z = np.sum(s * 4.0) + np.sum(c * 5.0)
        y = s + c
        return np.sum(y * 2.0 + y * 3.0 + y) + z
    g = fg.grad(f)(x)
    expected = (6.0 + 4.0) * np.cos(x) - (6.0 + 5.0) * np.sin(x)
    np.testing.assert_allclose(g, expected, rtol=1e-13, atol=1e-14)


def test_zero_dim_and_mixed_dtype_cotangents_add_correctly():
    f = lambda v: v * v + np.sin(v) + np.cos(v)  # noqa: E731
    x = 0.3
    np.testing.assert_allclose(fg.grad(f)(x), 2 * x + np.cos(x) - np.sin(x), rtol=1e-15)
    x32 = np.linspace(-1, 1, 7, dtype=np.float32)
    g = fg.grad(lambda v: np.sum(v * v + np.sin(v) + np.cos(v)))(x32)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, 2 * x32 + np.cos(x32) - np.sin(x32), rtol=1e-6)


def test_in_place_accumulation_agrees_bit_for_bit_with_out_of_place(monkeypatch,
                                                                    in_place_adds):
    x = np.random.default_rng(0).normal(size=300)

    def f(v):
        y = np.tanh(v)
        return np.sum(y * y + y * v + np.exp(y)) + np.sum(v[1:] * v[:-1]) + v[::2].sum()
    in_place = fg.grad(f)(x)
    assert in_place_adds

    def out_of_place(a, b, out):
        raise AssertionError("unreachable: ownership is disabled below")
    monkeypatch.setattr(backprop, "_np_add", out_of_place)
    monkeypatch.setattr(backprop, "set", _NeverOwns, raising=False)
    np.testing.assert_array_equal(fg.grad(f)(x), in_place)


class _NeverOwns(set):
    """A set that forgets what is added: the engine then owns nothing."""

    def add(self, item):
        pass


def test_the_eager_tensor_never_writes_a_gradient_array_the_user_holds():
    # The engine writes into no array it handed out.  A leaf's .grad Tensor shows the sum
    # of the passes (PyTorch's AccumulateGrad adds into it in place), as a new array; a
    # retained non-leaf grad is a new Tensor (PyTorch replaces it too).
    x = fg.Tensor(np.linspace(-1, 1, 50), requires_grad=True)
    y = np.sin(x)
    y.retain_grad()
    loss = (y * y + y * 2.0 + np.cos(x)).sum()
    loss.backward(retain_graph=True)
    held_x, held_y = x.grad, y.grad
    array_x = held_x.numpy()
    x_before, y_before = array_x.copy(), held_y.numpy().copy()
    loss.backward()
    np.testing.assert_array_equal(array_x, x_before)
    np.testing.assert_array_equal(held_y.numpy(), y_before)
    assert x.grad is held_x
    np.testing.assert_allclose(x.grad.numpy(), 2 * x_before, rtol=1e-15)


# --- one engine for both tapes -----------------------------------------------------------------

def _loss(v):
    a, b = fnp.split(v, 2)
    h = np.tanh(a) * b
    return np.sum(h * h + a[::2].sum() + np.exp(b) * a)


def test_the_tensor_tape_and_grad_give_the_same_bits():
    x = np.random.default_rng(1).normal(size=8)
    t = fg.Tensor(x, requires_grad=True)
    _loss(t).backward()
    np.testing.assert_array_equal(t.grad.numpy(), fg.grad(_loss)(x))


def test_a_tensor_op_with_several_outputs_fills_one_slot_per_output():
    x = fg.Tensor(np.arange(1.0, 7.0), requires_grad=True)
    a, b, c = fnp.split(x, 3)
    b.retain_grad()
    loss = (a * b).sum() + (b * b).sum()  # c is unused: its slot stays empty
    assert [e[1] for e in (a * b).grad_fn.next_functions] == [0, 1]
    assert (a * b).grad_fn.next_functions[0][0] is a.grad_fn
    loss.backward(retain_graph=True)
    x_ = np.arange(1.0, 7.0)
    np.testing.assert_array_equal(b.grad.numpy(), x_[:2] + 2 * x_[2:4])
    np.testing.assert_array_equal(x.grad.numpy(), np.r_[x_[2:4], x_[:2] + 2 * x_[2:4], 0, 0])
    (gb, gx) = fg.autograd.grad(loss, [b, x])
    np.testing.assert_array_equal(gb.numpy(), x_[:2] + 2 * x_[2:4])
    np.testing.assert_array_equal(gx.numpy(), x.grad.numpy())
    # b retains its grad: autograd.grad added into it too, as PyTorch does
    np.testing.assert_array_equal(b.grad.numpy(), 2 * (x_[:2] + 2 * x_[2:4]))


def test_a_multi_output_op_as_the_root_of_a_backward_pass():
    x = fg.Tensor(np.arange(4.0), requires_grad=True)
    a, b = fnp.split(x * 3.0, 2)
    b.backward(gradient=fg.ones(2))
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 3.0, 3.0])


def test_inputs_prunes_the_walk_to_the_nodes_that_reach_them():
    calls = []

    class Spy(instruments.Instrument):
        def on_record(self, node):
            return True

        def backward(self, node, data, g, args, proceed):
            calls.append(node.prim.name)
            return proceed(args)
    spy = Spy()
    instruments.install(spy)
    try:
        x = fg.Tensor([1.0, 2.0], requires_grad=True)
        w = fg.Tensor([3.0, 4.0], requires_grad=True)
        loss = (np.exp(w) * 2.0).sum() + (x * x).sum()
    finally:
        instruments.uninstall(spy)
    (gx,) = fg.autograd.grad(loss, [x])
    np.testing.assert_array_equal(gx.numpy(), [2.0, 4.0])
    assert "exp" not in calls and "multiply" in calls  # w's branch never ran


def test_the_plain_walk_and_the_general_walk_give_the_same_bits():
    # A walk without hooks takes the engine's short path for nodes of one output; with a
    # visitor every node takes the general one.  Both must give every bit of every input's
    # cotangent: nodes with params (a sum over an axis), several outputs (split), a
    # vjp_into rule (a gather after another use of x) and plain elementwise ones.
    from funcgrad.interpreters.reverse import ReverseInterpreter
    rng = np.random.default_rng(5)
    x0, w0 = rng.normal(size=(4, 6)), rng.normal(size=6)

    def record():
        with ReverseInterpreter() as interp:
            x, w = interp.new_input(x0), interp.new_input(w0)
            y = _walk_loss(x, w)
        return interp.tape, x, w, y

    tables = []
    for visit in (None, lambda node, g: True):
        tape, x, w, y = record()
        table = backprop.backpropagate(list(tape), [(y, np.ones(()))], visit=visit)
        tables.append([table[id(x)], table[id(w)]])
    for plain, general in zip(*tables):
        np.testing.assert_array_equal(plain, general)
    assert fg.gradcheck(_walk_loss, (x0, w0))  # and they are the gradient


def _walk_loss(x, w):
    row = x[1, :3] * 0.5  # a gather recorded first: its rule adds into x's cotangent so far
    a, b = fnp.split(np.sin(x) * w, 2, axis=1)
    y = fnp.sum(a * b, axis=0) + fnp.sum(np.exp(x), axis=1)[:3] + row
    return fnp.sum(y * y)


def test_tensor_modules_stay_small():
    for path in (ROOT / "funcgrad/eager").glob("*.py"):
        lines = len(path.read_text().splitlines())
        assert lines <= 600, f"{path.name} has {lines} lines: split it by concern"



@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("axes, keepdims", [((1,), False), ((0, 2), True), ((2,), False)])
def test_logsumexp_vjp_from_the_forward_pieces_equals_the_recomputed_one(
        monkeypatch, dtype, axes, keepdims):
    """Eager reverse mode hands the forward's exp(x - shift) and its sum to the VJP
    (``reverse_fwd``): the gradient has the bits of the rule that computes them again,
    with a row of -inf and a row holding +inf."""
    from funcgrad.primitives.reductions import logsumexp_p
    rng = np.random.default_rng(7)
    x = (rng.normal(size=(3, 5, 4)) * 4).astype(dtype)
    x[0, :, :] = -np.inf
    x[1, 2, 3] = np.inf
    w = rng.normal(size=fnp.logsumexp(x, axis=axes, keepdims=keepdims).shape).astype(dtype)

    def f(v):
        out = fnp.logsumexp(v, axis=axes, keepdims=keepdims)
        return fnp.sum(fnp.where(np.isfinite(out), out, 0.0) * w)

    with np.errstate(invalid="ignore"):
        kept = fg.grad(f)(x)
        assert logsumexp_p.reverse_fwd is not None
        monkeypatch.setattr(logsumexp_p, "reverse_fwd", None)
        again = fg.grad(f)(x)
    assert kept.dtype == again.dtype == dtype
    np.testing.assert_array_equal(kept, again)


# --- first-order fast paths of W3's rules (issue 21) ----------------------------------------
# On plain arrays a rule may compute its cotangents with NumPy directly: the same calls on
# the same views as its general path (so the same bits), without binding a primitive.

@pytest.fixture
def bound_at_root(monkeypatch):
    """The primitives bound at the root interpreter (what a rule dispatches)."""
    seen = []
    process = core.EvalInterpreter.process

    def counting(self, prim, args, params):
        seen.append(prim.name)
        return process(self, prim, args, params)
    monkeypatch.setattr(core.EvalInterpreter, "process", counting)
    return seen


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_vjp_of_plain_matrices_is_numpys_two_products(bound_at_root, dtype):
    from funcgrad.primitives.linalg import matmul_p
    rng = np.random.default_rng(21)
    a, b = rng.normal(size=(5, 4)).astype(dtype), rng.normal(size=(4, 3)).astype(dtype)
    g = rng.normal(size=(5, 3)).astype(dtype)
    ga, gb = matmul_p.vjp((True, True), g, a @ b, a, b)
    assert bound_at_root == []
    np.testing.assert_array_equal(ga, g @ b.T)  # d<g, a b>/da = g b^T
    np.testing.assert_array_equal(gb, a.T @ g)
    assert ga.dtype == gb.dtype == dtype
    assert matmul_p.vjp((False, True), g, a @ b, a, b)[0] is None


@pytest.mark.parametrize("shape, axes, keepdims", [
    ((3, 2), (0, 1), False), ((3, 2), (1,), False), ((3, 2), (0,), True),
    ((3, 2), (1,), True), ((3, 2), (), False), ((2, 3, 4), (0, 2), False),
    ((2, 3, 4), (1,), False), ((2, 3, 4), (0, 2), True), ((3, 1), (1,), False),
    ((0, 3), (1,), False)])
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_sum_vjp_of_a_plain_cotangent_is_the_broadcast_view(bound_at_root, shape, axes,
                                                            keepdims, layout):
    """Every summand gets the sum's cotangent, as a read-only view (writing into it
    would write into every copy), whatever the cotangent's memory layout."""
    from funcgrad.primitives.structural import reduce_sum_p
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    out = np.sum(x, axis=axes, keepdims=keepdims)
    g = np.arange(out.size, dtype=np.float32).reshape(np.shape(out))
    if layout == "strided":  # (a cotangent that is itself a view: every other element)
        g = np.repeat(g, 2, axis=-1)[..., ::2] if g.ndim else g
    g = np.asarray(g)[()]
    ct, = reduce_sum_p.vjp((True,), g, out, x, axes=axes, keepdims=keepdims)
    assert bound_at_root == []
    want = np.broadcast_to(np.expand_dims(g, axes) if not keepdims else g, x.shape)
    np.testing.assert_array_equal(ct, want)
    assert ct.shape == x.shape and ct.dtype == np.float32
    if ct.size != np.size(g):  # (copies: one element seen in several places)
        assert not ct.flags.writeable


@pytest.mark.parametrize("shape", [(4,), (1, 4), (3, 1), (), (3, 4)])
def test_unbroadcast_of_a_plain_cotangent_sums_the_copies(bound_at_root, shape):
    """A bias's gradient: the cotangent summed over the axes the bias was broadcast
    along, as NumPy's sum gives it (the hand-written backpropagation's np.sum(g, 0))."""
    from funcgrad.primitives.structural import unbroadcast
    g = np.random.default_rng(5).normal(size=(2, 3, 4)).astype(np.float32)
    x = np.zeros(shape, np.float32)
    lead = 3 - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape) if d == 1)
    got = unbroadcast(g, x)
    assert bound_at_root == []
    np.testing.assert_array_equal(got, np.sum(g, axis=axes).reshape(shape))
    assert got.dtype == np.float32


@pytest.mark.parametrize("keepdims", [True, False])
def test_max_vjp_of_a_small_plain_array_splits_ties_evenly(bound_at_root, keepdims):
    """Below the fused kernel's size the rule runs on the primitives' implementations:
    each row's cotangent goes to its maxima, shared equally where they tie (JAX's and
    PyTorch's convention), as NumPy computes g * (x == m) / count."""
    from funcgrad.primitives.reductions import reduce_max_p
    x = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, -1.0, 0.0, 1.0], [4.0, 4.0, 4.0, 4.0]],
                 np.float32)
    m = np.max(x, axis=1, keepdims=keepdims)
    g = np.array([0.3, -1.7, 2.0], np.float32).reshape(m.shape)
    ct, = reduce_max_p.vjp((True,), g, m, x, axes=(1,), keepdims=keepdims)
    assert bound_at_root == []
    hit = (x == m.reshape(3, 1)).astype(np.float32)
    np.testing.assert_array_equal(ct, g.reshape(3, 1) * (hit / hit.sum(axis=1, keepdims=True)))
    np.testing.assert_allclose(ct[0], [0.0, 0.15, 0.15, 0.0], rtol=1e-6)
    assert ct.dtype == np.float32


def test_a_products_vjp_multiplies_in_place_of_calling_its_rules():
    import sys
    from funcgrad.primitives.elementwise import add_p, multiply_p
    x, y = np.linspace(-1.0, 1.0, 8), np.linspace(0.5, 2.0, 8)
    g = np.linspace(3.0, 4.0, 8)
    calls = []
    sys.setprofile(lambda frame, event, arg: calls.append(frame.f_code.co_name)
                   if event == "call" else None)
    try:
        cx, cy = multiply_p.vjp_plain((True, True), g, x * y, x, y)
        ax, ay = add_p.vjp_plain((True, True), g, x + y, x, y)
    finally:
        sys.setprofile(None)
    # no rule called: g * y, g * x and g itself, inline
    assert calls == ["vjp_plain", "vjp_plain"]
    bx, by = multiply_p.vjp((True, True), g, x * y, x, y)
    assert (bx.tobytes(), by.tobytes()) == (cx.tobytes(), cy.tobytes())
    assert cx.tobytes() == (g * y).tobytes() and cy.tobytes() == (g * x).tobytes()
    assert ax is g and ay is g
    # a Python number keeps its weak type (float32 stays float32), and is unbroadcast
    g32 = g.astype(np.float32)
    cx, cy = multiply_p.vjp((True, True), g32, None, x.astype(np.float32), 2.5)
    assert cx.dtype == np.float32 and cx.tobytes() == (g32 * 2.5).tobytes()
    assert np.shape(cy) == () and np.isclose(cy, np.sum(g32 * x.astype(np.float32)))


def test_a_unary_fused_vjp_returns_its_kernels_result_and_refits_a_broadcast_cotangent():
    """The fused VJP of a unary operation (sin's ``g * cos(x)``) skips the refit check
    where the cotangent has its input's shape and dtype, and still sums a cotangent that
    was broadcast beyond the input, or casts one of another dtype."""
    from funcgrad.primitives.elementwise import sin_p
    decl = sin_p.elementwise
    for dt in (np.float64, np.float32):
        x = np.linspace(-1.0, 1.0, 8, dtype=dt)
        out, g = np.sin(x), np.linspace(2.0, 3.0, 8, dtype=dt)
        sin_p.vjp_plain((True,), g, out, x)  # (the kernel seen: the fast path from now)
        c, = sin_p.vjp_plain((True,), g, out, x)
        assert c.dtype == dt and c.tobytes() == decl.fused_vjp(0, g, (x,), out).tobytes()
        np.testing.assert_allclose(c, g * np.cos(x), rtol=1e-6)
        g3 = np.stack([g, 2 * g, -g])  # (3, 8): broadcast beyond x
        c, = sin_p.vjp_plain((True,), g3, out, x)
        assert c.dtype == dt and c.shape == (8,)
        np.testing.assert_allclose(c, 2 * g * np.cos(x), rtol=1e-5)
    x = np.linspace(-1.0, 1.0, 8)
    g32 = np.linspace(2.0, 3.0, 8, dtype=np.float32)  # another dtype than x's: cast to it
    c, = sin_p.vjp_plain((True,), g32, np.sin(x), x)
    assert c.dtype == np.float64
    np.testing.assert_allclose(c, g32 * np.cos(x), rtol=1e-6)


# (rules reading g and x, g and out, g alone; sin's checked vectorised cos; the small
# ufunc and, from numba_min elements, the flat loop: each case one kernel to compile)
@pytest.mark.parametrize("name, dt, n", [
    ("sin", np.float64, 8), ("sin", np.float32, 5000), ("exp", np.float32, 8),
    ("sqrt", np.float64, 5000), ("log", np.float32, 8), ("negative", np.float64, 8)])
def test_a_unary_vjp_summed_into_an_earlier_cotangent_has_the_rules_bits(name, dt, n):
    """``summed_vjp`` computes ``prev + rule`` in one kernel pass, bit for bit the rule's
    own kernel followed by NumPy's sum, in float32 and float64; it declines (None) what it
    does not cover: another shape or dtype, a 0-d array, a non-array."""
    from funcgrad.primitives import elementwise as ew
    prim = getattr(ew, f"{name}_p")
    decl = prim.elementwise
    x = np.linspace(0.25, 2.0, n, dtype=dt)
    out, g = prim.impl(x), np.linspace(-1.0, 3.0, n, dtype=dt)
    prev = np.linspace(5.0, -5.0, n, dtype=dt)
    c, = prim.vjp_plain((True,), g, out, x)
    for _ in range(2):  # (the first call loads the kernel, the second takes the kept one)
        total = decl.summed_vjp(prev, g, x, out)
        assert total is not None and total.dtype == dt and total.shape == x.shape
        assert total.tobytes() == (prev + c).tobytes()
    assert decl.summed_vjp(prev[:-1], g[:-1], x, out) is None  # (shapes differ)
    assert decl.summed_vjp(prev.astype(np.float16), g, x, out) is None
    assert decl.summed_vjp(prev[0], g[0], x[0], out[0]) is None  # (0-d)
    assert decl.summed_vjp(prev, g, x.tolist(), out) is None


def test_a_value_read_twice_sums_its_unary_cotangent_in_the_kernel_and_keeps_the_bits(
        monkeypatch):
    """In the backward walk a unary node whose argument has a cotangent already adds into
    it through ``summed_vjp`` (W2's ``sin(y) * 0.5 + y * 0.9``: once a step); the
    gradient is the same bits as with the rule and a separate sum, and a sum the walk
    then owns takes later contributions in place without touching the user's arrays."""
    from funcgrad.primitives._elementwise import Elementwise
    summed = Elementwise.summed_vjp
    calls = []

    def counted(self, prev, g, x, out):
        total = summed(self, prev, g, x, out)
        calls.append(total is not None)
        return total

    def f(y):
        for _ in range(6):
            y = fnp.sin(y) * 0.5 + y * 0.9
        return fnp.sum(fnp.exp(y) + y * y)

    for dt in (np.float64, np.float32):
        x = np.linspace(-1.0, 1.0, 8, dtype=dt)
        keep = x.copy()
        # (each the first gradient of its function: walked, see walk_programs)
        monkeypatch.setattr(Elementwise, "summed_vjp", lambda *a: None)
        unfused = fg.grad(lambda v: f(v))(x)
        monkeypatch.setattr(Elementwise, "summed_vjp", counted)
        fused = fg.grad(lambda v: f(v))(x)
        assert calls and all(calls) and len(calls) >= 6
        assert fused.dtype == dt and fused.tobytes() == unfused.tobytes()
        assert x.tobytes() == keep.tobytes()
        calls.clear()
    y = np.linspace(-1.0, 1.0, 8)
    expected = np.cos(y) * 0.5 + 0.9  # (one step, closed form)
    np.testing.assert_allclose(fg.grad(lambda y: fnp.sum(fnp.sin(y) * 0.5 + y * 0.9))(y),
                               expected, rtol=1e-15)


def test_an_inputs_cotangent_takes_unary_rules_summed_and_a_square_gives_one_product(
        monkeypatch):
    """An input's cotangent (a leaf's: it waits by id, not in a tape slot) also takes a
    unary node's rule through ``summed_vjp``, and ``x * x`` computes ``g * x`` once and
    hands it to both of its (identical) arguments: W1's pattern.  The gradient has the
    same bits as the rules one by one, then NumPy's sums in the walk's order."""
    from funcgrad.primitives._elementwise import Elementwise
    summed = Elementwise.summed_vjp
    calls = []

    def counted(self, prev, g, x, out):
        total = summed(self, prev, g, x, out)
        calls.append(total is not None)
        return total

    def f(x):
        return fnp.sum(fnp.sin(x) + fnp.tanh(x) + x * x)

    for dt in (np.float64, np.float32):
        x = np.linspace(-1.0, 1.0, 8, dtype=dt)
        keep = x.copy()
        monkeypatch.setattr(Elementwise, "summed_vjp", counted)
        got = fg.grad(f)(x)
        assert calls == [True, True]  # (tanh's, then sin's: both into x's cotangent)
        # the walk's order: x * x's two contributions, tanh's rule added, then sin's
        want = x + x
        want = want + (1 - np.tanh(x) ** 2).astype(dt)
        want = want + np.cos(x)
        assert got.dtype == dt
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(dt).eps)
        monkeypatch.setattr(Elementwise, "summed_vjp", lambda *a: None)
        assert fg.grad(f)(x).tobytes() == got.tobytes()
        assert x.tobytes() == keep.tobytes()
        calls.clear()
    # a square of a broadcast value, and a square whose product is refit (a 0-d input)
    np.testing.assert_array_equal(fg.grad(lambda v: fnp.sum(v * v))(np.float64(3.0)), 6.0)
    np.testing.assert_array_equal(
        fg.grad(lambda v: fnp.sum(fnp.broadcast_to(v, (2, 3)) * fnp.broadcast_to(v, (2, 3))))(
            np.array([1.0, 2.0, 3.0])), [4.0, 8.0, 12.0])


def test_a_python_float_is_converted_once_a_gradient_and_keeps_its_sign_and_dtype():
    """A product by one float object records one 0-d array of the other operand's dtype,
    converted once for the whole gradient; another float, ``-0.0`` beside ``0.0``
    included, or another dtype gets its own."""
    from funcgrad.interpreters.reverse import ReverseInterpreter
    x64 = np.linspace(-1.0, 1.0, 8)
    c = float("0.9")  # (one object, as a constant in a loop's body is)
    with ReverseInterpreter() as interp:
        x, x32 = interp.new_input(x64), interp.new_input(x64.astype(np.float32))
        a, b, r, q = x * c, (x * 2.0) * c, c * x, x / c
        s, h = x32 * c, x * float("0.9")
        z, nz = x * 0.0, x * -0.0
    held = a.args[1]
    assert type(held) is np.ndarray and held.shape == () and held.dtype == np.float64
    assert b.args[1] is held and r.args[0] is held and q.args[1] is held
    assert s.args[1].dtype == np.float32 and s.value.dtype == np.float32
    assert h.args[1] is not held and h.args[1] == held
    assert not np.signbit(z.args[1]) and np.signbit(nz.args[1])
    assert (a.value.tobytes(), q.value.tobytes()) == ((x64 * c).tobytes(), (x64 / c).tobytes())
    # the gradients' bits: -0.0 stays -0.0 (0.0 * -0.0), float32 stays float32
    got = fg.grad(lambda v: fnp.sum(v * 0.0 * -0.0))(x64)
    assert np.all(np.signbit(got)) and np.all(got == 0.0)
    g32 = fg.grad(lambda v: fnp.sum(v * 0.9 + (v * 0.9) / 0.9))(x64.astype(np.float32))
    assert g32.dtype == np.float32
    np.testing.assert_allclose(g32, np.full(8, 1.9, np.float32), rtol=1e-6)


def test_a_sums_vjp_hands_g_to_both_and_refits_each_operand_that_was_broadcast():
    from funcgrad.primitives.elementwise import add_p
    x, g = np.linspace(-1.0, 1.0, 8), np.linspace(2.0, 3.0, 8)
    cx, cy = add_p.vjp_plain((True, True), g, None, x, x[::-1].copy())
    assert cx is g and cy is g
    g2 = np.stack([g, -2 * g])  # (2, 8): x broadcast along a new axis, y a Python number
    cx, cy = add_p.vjp_plain((True, True), g2, None, x, 2.0)
    assert cx.shape == (8,) and cx.tobytes() == (g2[0] + g2[1]).tobytes()
    assert np.shape(cy) == () and cy == np.sum(g2)
    g32 = g.astype(np.float32)  # another dtype than x's: cast; a float32 operand keeps g
    cx, cy = add_p.vjp_plain((True, True), g32, None, x, x.astype(np.float32))
    assert cx.dtype == np.float64 and cx.tobytes() == g32.astype(np.float64).tobytes()
    assert cy is g32
    cx, cy = add_p.vjp_plain((True, False), g, None, x, x)  # one needed: the general path
    assert cx is g and cy is None


def test_a_differences_vjp_negates_in_place_of_calling_its_rule(bound_at_root):
    import sys
    from funcgrad.primitives.elementwise import subtract_p
    x, y = np.linspace(-1.0, 1.0, 8), np.linspace(0.5, 2.0, 8)
    g = np.linspace(-3.0, 4.0, 8)
    calls = []
    sys.setprofile(lambda frame, event, arg: calls.append(frame.f_code.co_name)
                   if event == "call" else None)
    try:
        cx, cy = subtract_p.vjp((True, True), g, x - y, x, y)
    finally:
        sys.setprofile(None)
    # -g inline: no rule called (vjp hands over to the positional vjp_plain), no negative bound
    assert calls == ["vjp", "vjp_plain"] and bound_at_root == []
    assert cx is g and cy.tobytes() == np.negative(g).tobytes()
    # the rule stays differentiable: d/dy of grad_y(x - y)**2 . g is 2 g
    f = lambda b: fnp.sum(fg.grad(lambda c: fnp.sum((x - c) ** 2 * g))(b))
    np.testing.assert_allclose(fg.grad(f)(y), 2 * g)


# --- the record of one- and two-argument primitives --------------------------------------------

def _node_fields(t, value_of=np.asarray):
    return (t.prim, [value_of(a).tobytes() for a in t.args], t.params,
            [None if p is None else id(p) for p in t.parents], t.needs, t.meta, t.weak,
            value_of(t.value).tobytes())


def _outer_value(v):
    """An outer reverse tracer's value (a plain array or number as it is)."""
    return np.asarray(v.value if hasattr(v, "_trace") else v)


def test_operators_record_without_process_as_process_would():
    import sys
    from funcgrad.interpreters.reverse import ReverseInterpreter
    from funcgrad.primitives.elementwise import add_p, multiply_p, sin_p
    x0, y0 = np.linspace(-1.0, 1.0, 8), np.linspace(0.5, 2.0, 8)
    calls = []
    with ReverseInterpreter() as interp:
        x, y = interp.new_input(x0), interp.new_input(y0)
        fnp.sin(x)  # (its kernel's first call loads it)
        first = []
        for record in (first, calls):  # (0.5 and 0.9: one object each, both times)
            del interp.tape[:]
            sys.setprofile(lambda frame, event, arg: record.append(frame.f_code.co_name)
                           if event == "call" and frame.f_code.co_filename.endswith(
                               "reverse.py") else None)
            try:
                fast = [fnp.sin(x), x * 0.5, 0.9 * y, x + y]
            finally:
                sys.setprofile(None)
        general = [interp.process(sin_p, (x,), {}), interp.process(multiply_p, (x, 0.5), {}),
                   interp.process(multiply_p, (0.9, y), {}), interp.process(add_p, (x, y), {})]
    # (the arithmetic operators record in their own frame: no process2, no process; a
    # float is converted at its first product only)
    assert first == ["process1", "record", "_hold_constant", "record", "_hold_constant",
                     "record"]
    assert calls == ["process1", "record", "record", "record"]
    for a, b in zip(fast, general):
        assert _node_fields(a) == _node_fields(b)
    assert interp.tape == fast + general


def test_the_operators_of_reverse_tracers_record_as_process_does_for_every_operand():
    """+, -, *, / (and their reflections) record in their own frame what ``process`` would
    record; an operand they do not take themselves (a NumPy scalar, an array, a list, a weak
    value, another interpreter current) goes through Tracer's operator, as before."""
    import operator
    from funcgrad.interpreters.reverse import ReverseInterpreter, ReverseTracer
    from funcgrad.primitives.elementwise import add_p, divide_p, multiply_p, subtract_p
    x0, y0 = np.linspace(-1.0, 1.0, 4), np.linspace(0.5, 2.0, 4)
    ops = [(operator.add, add_p), (operator.sub, subtract_p), (operator.mul, multiply_p),
           (operator.truediv, divide_p)]
    with ReverseInterpreter() as interp:
        x, y = interp.new_input(x0), interp.new_input(y0)
        for op, prim in ops:
            for other in (0.5, 3, y, np.float64(0.25), np.array([1.0, 2.0, 3.0, 4.0])):
                for a, b in ((x, other), (other, x)):
                    fast = op(a, b)
                    general = interp.process(prim, (a, b), {})
                    assert type(fast) is ReverseTracer
                    assert _node_fields(fast) == _node_fields(general), (op, a, b)
        with pytest.raises(TypeError):
            x * "a"
        # a weak value (a Python number given to the transform) times a number stays weak
        s = interp.new_input(2.0)
        assert s.weak and (s * 3.0).weak and (3.0 - s).weak and not (s * x).weak
        np.testing.assert_array_equal((s * x).value, 2.0 * x0)
    # another interpreter current: the operator records on it (nested transforms)
    assert fg.grad(fg.grad(lambda v: v * v * v / 2.0 - 1 / v))(2.0) == 3.0 * 2.0 - 2.0 / 8.0
    assert fg.jvp(fg.grad(lambda v: 3.0 * v * v), (2.0,), (1.0,)) == (12.0, 6.0)


def test_an_operator_with_an_ndarray_operand_records_in_its_own_frame():
    """``z * labels`` (the interpreter's tracer and an ndarray of numbers) records in the
    operator's frame, without Tracer's operator, ``operand`` and
    ``process2``, what ``process`` records, for float, integer and boolean arrays; an
    array of strings or objects is refused as before."""
    import operator
    import sys
    from funcgrad.interpreters.reverse import ReverseInterpreter
    from funcgrad.primitives.elementwise import add_p, divide_p, multiply_p, subtract_p
    x0 = np.linspace(-1.0, 1.0, 4)
    ops = [(operator.add, add_p), (operator.sub, subtract_p), (operator.mul, multiply_p),
           (operator.truediv, divide_p)]
    others = [np.array([1.0, 2.0, 3.0, 4.0]), np.arange(1, 5), np.ones(4, bool),
              np.float32([0.5] * 4), np.array(2.0)]
    with ReverseInterpreter() as interp:
        x = interp.new_input(x0)
        for op, prim in ops:
            for other in others:
                for a, b in ((x, other), (other, x)):
                    calls = []
                    sys.setprofile(lambda frame, event, arg: calls.append(
                        frame.f_code.co_name) if event == "call" else None)
                    try:
                        fast = op(a, b)
                    finally:
                        sys.setprofile(None)
                    if a is x:  # (an ndarray on the left goes to NumPy's __array_ufunc__)
                        assert calls == ["record"], (op, b, calls)
                    general = interp.process(prim, (a, b), {})
                    assert _node_fields(fast) == _node_fields(general), (op, a, b)
        for bad in (np.array(["a"] * 4), np.array([object()] * 4)):
            with pytest.raises(TypeError):
                x * bad
    labels = np.array([0.0, 1.0, 0.0, 1.0])
    got = fg.grad(lambda v: fnp.sum(v * labels + labels / (2.0 + v)))(x0)
    np.testing.assert_allclose(got, labels - labels / (2.0 + x0) ** 2, rtol=1e-15)


def test_an_operator_with_an_outer_interpreters_tracer_records_as_process_does():
    """The current interpreter's tracer and an outer one's, in either order: the operator
    records what ``process`` records (the outer tracer is a constant here), and nested
    gradients through such products are right."""
    import operator
    from funcgrad.interpreters.reverse import ReverseInterpreter, ReverseTracer
    from funcgrad.primitives.elementwise import add_p, divide_p, multiply_p, subtract_p
    x0, y0 = np.linspace(-1.0, 1.0, 4), np.linspace(0.5, 2.0, 4)
    ops = [(operator.add, add_p), (operator.sub, subtract_p), (operator.mul, multiply_p),
           (operator.truediv, divide_p)]
    with ReverseInterpreter() as outer:
        x = outer.new_input(x0)
        with ReverseInterpreter(outer) as inner:
            y = inner.new_input(y0)
            for op, prim in ops:
                for a, b in ((y, x), (x, y)):
                    fast = op(a, b)
                    general = inner.process(prim, (a, b), {})
                    assert type(fast) is ReverseTracer and fast._trace is inner
                    # (the values are the outer interpreter's tracers: compared by theirs)
                    assert _node_fields(fast, _outer_value) == \
                        _node_fields(general, _outer_value), (op, a, b)
                    assert type(fast.value) is ReverseTracer and fast.value._trace is outer
    # d/dx of x * (d/dy of (y * x + x / y) at y = 1) = d/dx of x * (x - x) ... written out:
    inner_grad = fg.grad(lambda v, w: v * w + w / v)  # d/dv = w - w / v**2
    got = fg.grad(lambda w: w * inner_grad(2.0, w))(3.0)  # w * (w - w/4) = 0.75 w**2
    assert got == 1.5 * 3.0


def test_the_walk_runs_an_elementwise_rule_without_keyword_arguments():
    import sys
    x = np.linspace(-1.0, 1.0, 8)
    fg.grad(lambda v: fnp.sum(fnp.sin(v) * 0.5 + v * v))(x)  # (kernels loaded)
    # (a gradient function's first tape: walked; later ones run the walk it wrote down,
    # funcgrad.interpreters.walk_programs)
    f = fg.grad(lambda v: fnp.sum(fnp.sin(v) * 0.5 + v * v))
    calls = []
    sys.setprofile(lambda frame, event, arg: calls.append(frame.f_code.co_name) if
                   event == "call" and frame.f_code.co_filename.endswith("_elementwise.py")
                   else None)
    try:
        got = f(x)
    finally:
        sys.setprofile(None)
    # vjp_plain takes no **params (CPython builds a dict for each call of one that does)
    # (add, multiply twice; then sin, whose argument, the input, has x * x's cotangent
    # already: its rule summed into it, Elementwise.summed_vjp, also without **params)
    assert calls == ["vjp_plain"] * 3 + ["summed_vjp"]
    np.testing.assert_allclose(got, np.cos(x) * 0.5 + 2 * x, rtol=1e-15, atol=1e-15)


def test_recording_arrays_and_numbers_skips_the_special_classes_lookup(monkeypatch):
    from funcgrad.interpreters import reverse
    from funcgrad.interpreters.reverse import ReverseInterpreter
    lookups = []

    class Watched(set):
        def __contains__(self, item):
            lookups.append(item)
            return set.__contains__(self, item)
    monkeypatch.setattr(reverse, "_special_classes", Watched(core._special_classes))
    x0 = np.linspace(-1.0, 1.0, 8)
    with ReverseInterpreter() as interp:
        x = interp.new_input(x0)
        y = fnp.sin(x) * 0.5 + x * x
    assert lookups == []  # an ndarray or a float is never special: no set lookup a record
    assert len(interp.tape) == 4
    np.testing.assert_allclose(y.value, np.sin(x0) * 0.5 + x0 * x0, rtol=1e-15)


def test_a_nodes_parents_are_one_tuple_aligned_with_its_arguments():
    """``parents`` holds, per argument, the node its cotangent goes to or None (no
    ``(i, parent)`` pairs: one tuple a node), for every way an operation is recorded, and
    the gradients read through it are right."""
    from funcgrad.interpreters.backprop import SELECT, edges
    from funcgrad.interpreters.reverse import ReverseInterpreter, backward_pass
    x0 = np.linspace(0.5, 2.0, 4)
    with ReverseInterpreter() as interp:
        x = interp.new_input(x0)
        a = x * 0.5          # process2, the first argument traced
        b = 3.0 - x          # process2, the second
        c = a * b            # both
        d = np.sin(c)        # process1
        e = fnp.clip(d, -0.5, 0.5)   # process: parameters or several arguments
        lo, hi = fnp.split(e, 2)     # several outputs: SELECT nodes
        y = fnp.sum(lo) + fnp.sum(hi * hi)
    assert a.parents == (x, None) and b.parents[0] is None and b.parents[1] is x
    assert c.parents[0] is a and c.parents[1] is b and len(c.parents) == 2
    assert len(d.parents) == 1 and d.parents[0] is c
    assert len(e.parents) == len(e.args) and e.parents[0] is d
    assert all(p is None for p in e.parents[1:])
    assert lo.prim is SELECT and len(lo.parents) == 1 and lo.parents[0] is hi.parents[0]
    assert edges(b) == [(1, x)] and edges(c) == [(0, a), (1, b)]
    for node in interp.tape:
        assert type(node.parents) is tuple
        assert not any(type(p) is tuple for p in node.parents)
    g, = backward_pass(interp.tape, [(y, np.ones(()))], [x])
    u = np.sin(x0 * 0.5 * (3.0 - x0))
    dy_du = np.where(np.abs(u) < 0.5, np.r_[np.ones(2), 2 * u[2:]], 0.0)
    dc = np.cos(x0 * 0.5 * (3.0 - x0)) * dy_du
    np.testing.assert_allclose(g, dc * (0.5 * (3.0 - x0) - 0.5 * x0))
    # the eager Tensor's graph reads the same contract
    t = fg.Tensor([1.0, 2.0], requires_grad=True)
    z = 2.0 * t
    assert z.grad_fn.parents[0] is None and z.grad_fn.next_functions[0] == (None, 0)
    assert z.grad_fn.next_functions[1][0].variable is t


# --- the numbered walk: cotangents in a list by each node's slot -----------------------------

def test_a_tapes_nodes_are_numbered_by_their_position_and_its_inputs_not():
    from funcgrad.interpreters.reverse import ReverseInterpreter
    with ReverseInterpreter() as interp:
        x = interp.new_input(np.array([0.5, -1.0, 2.0, 3.0]))
        a, b = fnp.split(x * x, 2)       # a node with several outputs: SELECT nodes
        fnp.sum(fnp.sin(a) * b + fnp.clip(x[:2], -1.0, 1.0))
    assert any(node.prim is backprop.SELECT for node in interp.tape)
    assert [node.slot for node in interp.tape] == list(range(len(interp.tape)))
    assert x.slot == backprop.UNNUMBERED


def _walk_both_ways(nodes, seeds, leaves, **kw):
    """The leaves' cotangents of a numbered walk and of an unnumbered one (the dict by
    id() only), checked to have the same bits."""
    numbered = backprop.backpropagate(list(nodes), seeds, numbered=True, **kw)
    unnumbered = backprop.backpropagate(list(nodes), seeds, **kw)
    got = [numbered.get(id(leaf)) for leaf in leaves]
    for g, h in zip(got, [unnumbered.get(id(leaf)) for leaf in leaves]):
        assert (g is None) == (h is None)
        if g is not None:
            assert np.asarray(g).tobytes() == np.asarray(h).tobytes()
    return got


def test_a_stale_number_never_lends_a_node_another_nodes_cotangent():
    """A tape cleared and recorded again while old nodes are still parents: old numbers
    point at positions other nodes now hold.  The walk checks each number by identity,
    so an old node's cotangent waits for it by id(), as a leaf's."""
    from funcgrad.interpreters.reverse import ReverseInterpreter
    x0 = np.array([0.3, -0.7, 1.1])
    with ReverseInterpreter() as interp:
        x = interp.new_input(x0)
        a = fnp.sin(x)                  # slot 0
        b = a * 2.0                     # slot 1
        interp.tape.clear()
        c0 = fnp.cos(x)                 # slot 0 again
        c1 = c0 * 3.0                   # slot 1 again: b's old number
        c2 = b * c1                     # b is a parent whose number is c1's position
        y = fnp.sum(c2 * a)             # a: the number of c0
    assert (b.slot, c1.slot, a.slot, c0.slot) == (1, 1, 0, 0)
    gx, gb, ga = _walk_both_ways(interp.tape, [(y, np.ones(()))], [x, b, a])
    s, c = np.sin(x0), np.cos(x0)
    np.testing.assert_allclose(gb, 3.0 * c * s)          # d y / d b, b held fixed
    np.testing.assert_allclose(ga, 2.0 * s * 3.0 * c)    # d y / d a, a held fixed
    np.testing.assert_allclose(gx, -2.0 * s * s * 3.0 * s)  # through c0 only


def test_a_list_other_than_the_tape_walks_by_id_with_the_same_bits():
    from funcgrad.interpreters.reverse import ReverseInterpreter
    x0 = np.linspace(-1.0, 1.0, 6)
    with ReverseInterpreter() as interp:
        x = interp.new_input(x0)
        lo, hi = fnp.split(fnp.tanh(x) * x, 2)
        y = fnp.sum(lo * hi + fnp.exp(lo))
    seeds = [(y, np.ones(()))]
    expected, = _walk_both_ways(interp.tape, seeds, [x])
    with ReverseInterpreter() as other:
        z = other.new_input(x0)
        fnp.sin(z)
    # every number off by one (a foreign node first), then a copy of the tape's tail only
    shifted, = _walk_both_ways(other.tape[:1] + interp.tape, seeds, [x])
    assert shifted.tobytes() == expected.tobytes()
    tail = interp.tape[3:]
    partial = _walk_both_ways(tail, seeds, [interp.tape[2], x])
    cut = backprop.backpropagate(tail, seeds)
    assert partial[1] is None
    assert np.asarray(partial[0]).tobytes() == np.asarray(cut[id(interp.tape[2])]).tobytes()


def _eager_graph():
    """Three outputs sharing y's nodes, which stand at other positions in the first's
    walk (after a's node) than in the others'; in the first, y gets v's cotangent after
    the one of y * 2.0."""
    x = fg.Tensor(np.linspace(-1.0, 1.0, 8), requires_grad=True)
    a = x.cos()
    y = (x.sin() * x).tanh()
    v = y * y
    outs = [(v + y * 2.0 + a).sum(), (y.exp() + x).sum(), y.sum() * 3.0]
    return x, v, outs


def test_an_eager_walk_run_inside_another_leaves_its_numbers_alone():
    """A hook that runs a backward pass through the nodes the outer walk numbered, between
    two cotangents of one of them: the inner walk finds the numbering taken and walks by
    id(); both get their gradients."""
    x, v, outs = _eager_graph()
    expected_inner = fg.autograd.grad(outs[1], x, retain_graph=True)[0].numpy().tobytes()
    expected_outer = fg.autograd.grad(outs[0], x, retain_graph=True)[0].numpy().tobytes()
    inner = []

    def hook(g):  # (once: the inner pass passes through y too)
        if not inner:
            inner.append(None)
            inner[0] = fg.autograd.grad(outs[1], x, retain_graph=True)[0].numpy().tobytes()
    v.register_hook(hook)
    outer = fg.autograd.grad(outs[0], x, retain_graph=True)[0].numpy().tobytes()
    assert inner == [expected_inner] and outer == expected_outer


def test_eager_walks_of_one_graph_in_threads_get_a_single_threads_bits():
    import sys
    import threading
    x, _, outs = _eager_graph()
    expected = [fg.autograd.grad(o, x, retain_graph=True)[0].numpy().tobytes() for o in outs]
    got, errors = {}, []
    barrier = threading.Barrier(6)

    def work(k):
        try:
            barrier.wait()
            got[k] = [fg.autograd.grad(outs[(k + i) % 3], x, retain_graph=True)[0]
                      .numpy().tobytes() for i in range(30)]
        except BaseException as e:  # (re-raised below, in the test's thread)
            errors.append(e)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # interleave the walks, bytecode by bytecode nearly
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors
    for k in range(6):
        assert got[k] == [expected[(k + i) % 3] for i in range(30)]


# --- the record's and the walk's shortcuts ------------------------------------------------------

def test_vectors_record_numpys_product_and_matrices_keep_the_row_loops_dispatch(monkeypatch):
    from funcgrad.primitives import elementwise as ew
    seen = []
    impl = ew.multiply_p.impl
    monkeypatch.setattr(ew.multiply_p, "impl", lambda x, y: seen.append(np.ndim(x)) or impl(x, y))
    x = np.linspace(-1.0, 1.0, 8)
    out, vjp_fn = fg.vjp(lambda v: v * 0.5 * v, x)
    # vectors and numbers: NumPy's ufunc itself, past the wrapper (the same bits)
    assert seen == []
    assert out.tobytes() == np.multiply(np.multiply(x, 0.5), x).tobytes()
    np.testing.assert_array_equal(vjp_fn(np.ones(8))[0], 2 * 0.5 * x)
    # a strided 2-d operand: the wrapper, which may send it to its row loop
    a = np.linspace(-1.0, 1.0, 64 * 71).reshape(64, 71)[:, 1:]
    out, _ = fg.vjp(lambda v: v * 0.5, a)
    assert seen == [2]
    assert out.tobytes() == np.multiply(a, 0.5).tobytes()


def test_a_primitive_of_several_results_cannot_declare_vjp_plain():
    with pytest.raises(ValueError, match="vjp_plain is for primitives of one result"):
        core.Primitive("several_outputs_with_vjp_plain", multiple_results=True,
                       vjp_plain=lambda needs, g, out, x: (g,))
    assert "several_outputs_with_vjp_plain" not in core.REGISTRY

"""Backward hooks on the eager Tensor (funcgrad.eager.hooks), in PyTorch's order.

Expected values are computed by hand; the torch comparisons at the end are skipped
where torch is not installed.
"""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


def _chain(torch, log):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = (y * y).sum()
    y.register_hook(lambda g: log.append(("y1", g.tolist())) or g * 10)
    y.retain_grad()
    y.register_hook(lambda g: log.append(("y2", g.tolist())))
    y.grad_fn.register_prehook(lambda go: log.append(("pre", [t.tolist() for t in go])))
    y.grad_fn.register_hook(lambda gi, go: log.append(
        ("post", [None if t is None else t.tolist() for t in gi], [t.tolist() for t in go])))
    x.register_hook(lambda g: log.append(("x", g.tolist())))
    x.register_post_accumulate_grad_hook(lambda t: log.append(("xpost", t.grad.tolist())))
    z.backward()
    return x, y


def test_hook_order_tensor_hooks_retain_grad_prehooks_posthooks_leaf():
    log = []
    x, y = _chain(fg, log)
    # dz/dy = 2y = [4, 8]; the first hook multiplies by 10; dy/dx = 2
    assert log == [("y1", [4.0, 8.0]), ("y2", [40.0, 80.0]), ("pre", [[40.0, 80.0]]),
                   ("post", [[80.0, 160.0], None], [[40.0, 80.0]]),
                   ("x", [80.0, 160.0]), ("xpost", [80.0, 160.0])]
    assert y.grad.tolist() == [40.0, 80.0]  # retain_grad keeps the hooked gradient
    assert x.grad.tolist() == [80.0, 160.0]


def test_leaf_hook_runs_before_accumulation_and_handle_removes():
    x = fg.Tensor([1.0], requires_grad=True)
    x.grad = fg.Tensor([5.0])
    h = x.register_hook(lambda g: g * 2)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [11.0]  # 5 + 2 * 3
    h.remove()
    h.remove()  # twice is fine
    (x * 3).sum().backward()
    assert x.grad.tolist() == [14.0]


def test_handle_is_a_context_manager():
    x = fg.Tensor([1.0], requires_grad=True)
    with x.register_hook(lambda g: g * 0):
        (x * 3).sum().backward()
    assert x.grad.tolist() == [0.0]
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0]


def test_node_hooks_replace_gradients():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.grad_fn.register_hook(lambda gi, go: (gi[0] * 100, None))
    y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
    y.sum().backward()
    assert x.grad.tolist() == [600.0, 600.0]


def test_leaf_hooks_run_as_soon_as_the_leaf_is_complete():
    x = fg.Tensor(1.0, requires_grad=True)
    w = fg.Tensor(2.0, requires_grad=True)
    log = []
    a, b = x * 2, w * 3
    x.register_hook(lambda g: log.append("x"))
    w.register_hook(lambda g: log.append("w"))
    a.grad_fn.register_prehook(lambda g: log.append("a-pre"))
    b.grad_fn.register_prehook(lambda g: log.append("b-pre"))
    (a * b).backward()
    assert log == ["b-pre", "w", "a-pre", "x"]


def test_autograd_grad_runs_leaf_hooks_captures_intermediates_before_theirs():
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    log = []
    x.register_hook(lambda g: log.append(("x", g.tolist())) or g * 3)
    x.register_post_accumulate_grad_hook(lambda t: log.append("xpost"))
    y = x * 2
    y.register_hook(lambda g: log.append(("y", g.tolist())) or g * 5)
    gx, gy = fg.autograd.grad(y.sum(), [x, y], retain_graph=True)
    assert gx.tolist() == [30.0, 30.0] and gy.tolist() == [1.0, 1.0]
    assert log == [("y", [1.0, 1.0]), ("x", [10.0, 10.0])]  # no accumulation: no xpost
    log.clear()
    y.sum().backward(inputs=[x])
    assert x.grad.tolist() == [30.0, 30.0]
    assert log == [("y", [1.0, 1.0]), ("x", [10.0, 10.0]), "xpost"]


def test_hook_on_a_leaf_that_is_the_root():
    x = fg.Tensor(2.0, requires_grad=True)
    x.register_hook(lambda g: g * 4)
    x.backward()
    assert x.grad.item() == 4.0


def test_hooks_with_create_graph_are_recorded():
    x = fg.Tensor(2.0, requires_grad=True)
    y = x ** 3
    y.register_hook(lambda g: g * 2)
    gx, = fg.autograd.grad(y, x, create_graph=True)
    assert gx.item() == 24.0 and gx.requires_grad  # 2 * 3x^2
    gx.backward()
    assert x.grad.item() == 24.0  # 2 * 6x


def test_hook_on_one_output_of_several():
    x = fg.Tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    a, b = fnp.split(x, 2)
    b.register_hook(lambda g: g * 10)
    (a.sum() + b.sum() * 2).backward()
    assert x.grad.tolist() == [1.0, 1.0, 20.0, 20.0]


@pytest.mark.parametrize("hook, what", [(lambda g: g.sum(), "size"),
                                        (lambda g: g.astype(np.float64), "type")])
def test_a_hook_must_keep_shape_and_dtype(hook, what):
    x = fg.Tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(hook)
    with pytest.raises(RuntimeError, match=f"has changed the {what} of value"):
        y.sum().backward()


def test_registration_errors_and_metadata():
    with pytest.raises(RuntimeError, match="doesn't require gradient"):
        fg.Tensor([1.0]).register_hook(print)
    y = fg.Tensor([1.0], requires_grad=True) * 2
    with pytest.raises(RuntimeError, match="non-leaf"):
        y.register_post_accumulate_grad_hook(print)
    assert y.grad_fn.metadata == {}
    y.grad_fn.metadata["k"] = 1
    assert y.grad_fn.metadata == {"k": 1}


def test_same_log_as_torch():
    torch = pytest.importorskip("torch")
    log_fg, log_torch = [], []
    _chain(fg, log_fg)
    _chain(torch, log_torch)
    assert log_fg == log_torch


def test_interleaving_same_as_torch():
    torch = pytest.importorskip("torch")

    def run(mod):
        x = mod.tensor(1.0, requires_grad=True)
        w = mod.tensor(2.0, requires_grad=True)
        log = []
        a, b = x * 2, w * 3
        c = (a * b).sin()
        for t, n in ((x, "x"), (w, "w"), (a, "a"), (c, "c")):
            t.register_hook(lambda g, n=n: log.append((n, round(g.item(), 3))))
        a.grad_fn.register_prehook(lambda g: log.append("a-pre"))
        b.grad_fn.register_hook(lambda gi, go: log.append("b-post"))
        c.backward()
        return log
    assert run(fg) == run(torch)


def _captured(torch):
    """A non-leaf input of autograd.grad: its hooks and retain_grad run before its
    gradient is captured when its node does not run; when it does run (another input lies
    behind it) the captured gradient is the one before its hooks, as PyTorch captures."""
    def make(v):
        return torch.tensor(v, dtype=torch.float64, requires_grad=True)
    x = make([1.0, 2.0])
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 100)
    (alone,) = torch.autograd.grad((y * 3).sum(), y, retain_graph=True)
    y_grad = y.grad.tolist()
    through = torch.autograd.grad((y * 3).sum(), [y, x])
    return alone.tolist(), y_grad, [g.tolist() for g in through]


def test_autograd_grad_runs_the_hooks_of_a_non_leaf_input():
    # d(3y)/dy = 3, times 100 from y's hook; x behind y: 3 * 100 * 2 = 600
    alone, y_grad, through = _captured(fg)
    assert alone == [300.0, 300.0]
    assert y_grad == [300.0, 300.0]
    assert through == [[3.0, 3.0], [600.0, 600.0]]
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 100)
    (y * 3).sum().backward(inputs=[y])
    assert y.grad.tolist() == [300.0, 300.0]


def test_autograd_grad_non_leaf_input_hooks_match_torch():
    torch = pytest.importorskip("torch")
    assert _captured(fg) == _captured(torch)


def test_node_hook_returning_too_few_or_too_many_values():
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    y = fg.tensor([3.0, 4.0], requires_grad=True)
    z = x * y
    z.grad_fn.register_hook(lambda gi, go: (gi[0] * 5,))  # y's gradient left off
    with pytest.raises(RuntimeError, match=r"incorrect number of values \(got 1, but "
                                           r"expected 2\)"):
        z.sum().backward()
    z = x * 2
    z.grad_fn.register_prehook(lambda go: (go[0], go[0]))
    with pytest.raises(RuntimeError, match=r"got 2, but expected 1"):
        z.sum().backward()
    # a slot without gradient may be left off (x ** 2 has one in PyTorch): 5 * 2x
    z = x ** 2
    z.grad_fn.register_hook(lambda gi, go: (gi[0] * 5,))
    z.sum().backward()
    assert x.grad.tolist() == [10.0, 20.0]


def test_node_hook_value_count_error_matches_torch():
    torch = pytest.importorskip("torch")
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = x * torch.tensor([3.0, 4.0], requires_grad=True)
    z.grad_fn.register_hook(lambda gi, go: (gi[0] * 5,))
    with pytest.raises(RuntimeError, match=r"incorrect number of values \(got 1, but "
                                           r"expected 2\)"):
        z.sum().backward()


def _backward_inputs(lib):
    """backward(inputs=) with a non-leaf input: PyTorch makes it retain its grad, so its
    .grad is the gradient after its hooks, counted once."""
    def make():
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        return x, x * 2
    x, y = make()
    y.register_hook(lambda g: g * 100)
    (y * 3).sum().backward(inputs=[y, x])
    hooked = (y.grad.tolist(), x.grad.tolist())
    x, y = make()
    y.retain_grad()
    y.register_hook(lambda g: g * 100)
    (y * 3).sum().backward(inputs=[y, x])
    retained_hooked = y.grad.tolist()
    x, y = make()
    y.retain_grad()
    (y * 3).sum().backward(inputs=[y])
    return hooked, retained_hooked, y.grad.tolist(), x.grad, y.retains_grad


def test_backward_inputs_non_leaf_gets_its_hooked_grad_once():
    # d(3y)/dy = 3, times 100 from the hook; x: 300 * 2.  It gave y.grad 3 (before the
    # hook), 303 (hooked retained grad plus the captured one) and 6 (counted twice)
    hooked, retained_hooked, retained, x_grad, retains = _backward_inputs(fg)
    assert hooked == ([300.0, 300.0], [600.0, 600.0])
    assert retained_hooked == [300.0, 300.0]
    assert retained == [3.0, 3.0] and x_grad is None and retains


def test_backward_inputs_non_leaf_matches_torch():
    torch = pytest.importorskip("torch")
    assert _backward_inputs(fg) == _backward_inputs(torch)

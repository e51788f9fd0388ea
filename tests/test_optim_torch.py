"""fg.optim's torch-style optimizers and lr schedulers over fg.Tensor parameters: their
steps equal the update rules of PyTorch's documentation (written out here), and
torch.optim's own numbers when torch is installed; param groups, zero_grad, state_dict,
schedulers and errors behave as PyTorch's do."""
import doctest
import importlib
import math

import numpy as np
import pytest

import funcgrad as fg

STEPS = 4
SHAPES = [(3, 2), (4,)]


def _values(dtype):
    rng = np.random.default_rng(1)
    return [rng.normal(size=s).astype(dtype) for s in SHAPES]


def _grad_at(k, values):
    """The gradient of step ``k``: a fixed random part plus a part that depends on the
    parameter (so weight decay and the parameter path matter)."""
    rng = np.random.default_rng(50 + k)
    return [rng.normal(size=v.shape).astype(v.dtype) + 0.5 * v for v in values]


def _run_fg(make, dtype, steps=STEPS):
    params = [fg.Tensor(v, requires_grad=True) for v in _values(dtype)]
    opt = make(params)
    for k in range(steps):
        opt.zero_grad()
        loss = sum((p * fg.Tensor(g)).sum() for p, g in
                   zip(params, _grad_at(k, [p.detach().numpy() for p in params])))
        # (g is a constant here, so the gradient the optimizer reads is exactly g)
        loss.backward()
        opt.step()
    return [p.detach().numpy() for p in params]


def _reference(rule, dtype=np.float64, steps=STEPS):
    values = _values(dtype)
    memories = [{} for _ in values]
    for k in range(steps):
        grads = _grad_at(k, values)
        values = [rule(p, g, m, k + 1) for p, g, m in zip(values, grads, memories)]
    return values


# ---- PyTorch's documented rules -------------------------------------------------------

def sgd_rule(lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, maximize=False):
    def rule(p, g, m, t):
        g = (-g if maximize else g) + weight_decay * p
        if momentum:
            m["b"] = g if t == 1 else momentum * m["b"] + (1 - dampening) * g
            g = g + momentum * m["b"] if nesterov else m["b"]
        return p - lr * g
    return rule


def adam_rule(lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False,
              decoupled=False):
    b1, b2 = betas

    def rule(p, g, m, t):
        if decoupled:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
        m["m"] = b1 * m.get("m", 0.0) + (1 - b1) * g
        m["v"] = b2 * m.get("v", 0.0) + (1 - b2) * g * g
        v = m["v"]
        if amsgrad:
            m["vmax"] = v = np.maximum(m.get("vmax", 0.0), v)
        return p - lr / (1 - b1 ** t) * m["m"] / (np.sqrt(v) / math.sqrt(1 - b2 ** t) + eps)
    return rule


def rmsprop_rule(lr, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False):
    def rule(p, g, m, t):
        g = g + weight_decay * p
        m["v"] = alpha * m.get("v", 0.0) + (1 - alpha) * g * g
        m["g"] = alpha * m.get("g", 0.0) + (1 - alpha) * g
        v = m["v"] - m["g"] ** 2 if centered else m["v"]
        step = g / (np.sqrt(v) + eps)
        if momentum:
            m["b"] = momentum * m.get("b", 0.0) + step
            step = m["b"]
        return p - lr * step
    return rule


def adagrad_rule(lr, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10):
    def rule(p, g, m, t):
        g = g + weight_decay * p
        m["s"] = m.get("s", initial_accumulator_value) + g * g
        return p - lr / (1 + (t - 1) * lr_decay) * g / (np.sqrt(m["s"]) + eps)
    return rule


CASES = {
    "SGD": ("SGD", dict(lr=0.1), sgd_rule(0.1)),
    "SGD-momentum-dampening-wd": ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.3,
                                              weight_decay=0.01),
                                  sgd_rule(0.1, 0.9, 0.3, 0.01)),
    "SGD-nesterov-maximize": ("SGD", dict(lr=0.05, momentum=0.8, nesterov=True, maximize=True),
                              sgd_rule(0.05, 0.8, nesterov=True, maximize=True)),
    "Adam": ("Adam", dict(lr=0.05), adam_rule(0.05)),
    "Adam-wd-amsgrad": ("Adam", dict(lr=0.05, betas=(0.8, 0.9), eps=1e-4, weight_decay=0.1,
                                     amsgrad=True),
                        adam_rule(0.05, (0.8, 0.9), 1e-4, 0.1, amsgrad=True)),
    "AdamW": ("AdamW", dict(lr=0.05, weight_decay=0.2),
              adam_rule(0.05, weight_decay=0.2, decoupled=True)),
    "RMSprop": ("RMSprop", dict(lr=0.01), rmsprop_rule(0.01)),
    "RMSprop-centered-momentum-wd": ("RMSprop", dict(lr=0.01, alpha=0.9, momentum=0.5,
                                                     centered=True, weight_decay=0.1),
                                     rmsprop_rule(0.01, 0.9, weight_decay=0.1, momentum=0.5,
                                                  centered=True)),
    "Adagrad": ("Adagrad", dict(lr=0.1), adagrad_rule(0.1)),
    "Adagrad-decay-init": ("Adagrad", dict(lr=0.1, lr_decay=0.1, weight_decay=0.05,
                                           initial_accumulator_value=0.3),
                           adagrad_rule(0.1, 0.1, 0.05, 0.3)),
}


@pytest.mark.parametrize("name", CASES)
def test_steps_follow_pytorchs_documented_rule(name):
    cls, kwargs, rule = CASES[name]
    got = _run_fg(lambda ps: getattr(fg.optim, cls)(ps, **kwargs), np.float64)
    for a, b in zip(got, _reference(rule)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", CASES)
def test_float32_parameters_stay_float32(name):
    cls, kwargs, rule = CASES[name]
    got = _run_fg(lambda ps: getattr(fg.optim, cls)(ps, **kwargs), np.float32)
    assert all(a.dtype == np.float32 for a in got)
    for a, b in zip(got, _reference(rule)):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", CASES)
def test_steps_equal_torch_optim(name, dtype):
    torch = pytest.importorskip("torch", reason="the peer comparison needs torch")
    cls, kwargs, _ = CASES[name]
    params = [torch.tensor(v, requires_grad=True) for v in _values(dtype)]
    opt = getattr(torch.optim, cls)(params, **kwargs)
    for k in range(STEPS):
        opt.zero_grad()
        grads = _grad_at(k, [p.detach().numpy() for p in params])
        sum((p * torch.tensor(g)).sum() for p, g in zip(params, grads)).backward()
        opt.step()
    want = [p.detach().numpy() for p in params]
    got = _run_fg(lambda ps: getattr(fg.optim, cls)(ps, **kwargs), dtype)
    tol = dict(rtol=2e-6, atol=1e-7) if dtype == np.float32 else dict(rtol=1e-13, atol=1e-15)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, **tol)


# ---- groups, zero_grad, state_dict ------------------------------------------------------

def test_param_groups_take_their_own_hyperparameters():
    w, b = fg.ones(2, requires_grad=True), fg.ones(1, requires_grad=True)
    opt = fg.optim.SGD([{"params": [w]}, {"params": b, "lr": 0.5}], lr=0.1)
    (w.sum() + b.sum()).backward()
    opt.step()
    np.testing.assert_allclose(w.detach().numpy(), [0.9, 0.9], rtol=1e-6)
    np.testing.assert_allclose(b.detach().numpy(), [0.5], rtol=1e-6)


def test_zero_grad_and_parameters_without_grad():
    w, unused = fg.ones(2, requires_grad=True), fg.ones(2, requires_grad=True)
    opt = fg.optim.Adam([w, unused], lr=0.1)
    (w * 3).sum().backward()
    opt.step()
    np.testing.assert_array_equal(unused.detach().numpy(), [1.0, 1.0])   # no grad: untouched
    assert unused not in opt.state
    opt.zero_grad(set_to_none=False)
    np.testing.assert_array_equal(w.grad.numpy(), [0.0, 0.0])
    opt.zero_grad()
    assert w.grad is None


def test_step_bumps_the_version_like_an_inplace_update():
    w = fg.Tensor([1.0, 2.0], requires_grad=True)
    y = (w * w).sum()            # saves w
    y.backward(retain_graph=True)
    fg.optim.SGD([w], lr=0.1).step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_closure_is_evaluated_with_gradients_enabled():
    w = fg.Tensor([1.0], requires_grad=True)
    opt = fg.optim.SGD([w], lr=0.25)

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with fg.no_grad():
        loss = opt.step(closure)
    assert float(loss.item()) == 1.0
    np.testing.assert_allclose(w.detach().numpy(), [0.5])


@pytest.mark.parametrize("name", ["SGD-momentum-dampening-wd", "Adam-wd-amsgrad",
                                  "RMSprop-centered-momentum-wd", "Adagrad-decay-init"])
def test_state_dict_round_trip_resumes_the_same_trajectory(name):
    cls, kwargs, _ = CASES[name]
    straight = _run_fg(lambda ps: getattr(fg.optim, cls)(ps, **kwargs), np.float64)

    params = [fg.Tensor(v, requires_grad=True) for v in _values(np.float64)]
    first = getattr(fg.optim, cls)(params, **kwargs)

    def take_step(opt, k):
        opt.zero_grad()
        grads = _grad_at(k, [p.detach().numpy() for p in params])
        sum((p * fg.Tensor(g)).sum() for p, g in zip(params, grads)).backward()
        opt.step()

    take_step(first, 0)
    take_step(first, 1)
    saved = first.state_dict()
    resumed = getattr(fg.optim, cls)(params, **{**kwargs, "lr": 123.0})
    resumed.load_state_dict(saved)
    assert resumed.param_groups[0]["lr"] == kwargs["lr"]
    for k in range(2, STEPS):
        take_step(resumed, k)
    for a, b in zip([p.detach().numpy() for p in params], straight):
        np.testing.assert_allclose(a, b, rtol=1e-13)


@pytest.mark.parametrize("build, error, match", [
    (lambda: fg.optim.SGD([], lr=0.1), ValueError, "empty parameter list"),
    (lambda: fg.optim.SGD(fg.ones(2, requires_grad=True)), TypeError, "wrap it in a list"),
    (lambda: fg.optim.SGD([np.ones(2)], lr=0.1), TypeError, "can only optimize Tensors"),
    (lambda: fg.optim.SGD([fg.ones(2, requires_grad=True) * 2], lr=0.1), ValueError,
     "non-leaf Tensor"),
    (lambda: fg.optim.Adam([fg.ones(2, requires_grad=True)], lr=-1.0), ValueError,
     "Invalid learning rate"),
    (lambda: fg.optim.Adam([fg.ones(2, requires_grad=True)], betas=(0.9, 1.0)), ValueError,
     "beta parameter at index 1"),
    (lambda: fg.optim.SGD([fg.ones(2, requires_grad=True)], lr=0.1, nesterov=True),
     ValueError, "Nesterov momentum requires a momentum"),
])
def test_bad_arguments_raise_pytorchs_errors(build, error, match):
    with pytest.raises(error, match=match):
        build()


def test_a_parameter_in_two_groups_is_refused():
    w = fg.ones(2, requires_grad=True)
    with pytest.raises(ValueError, match="more than one parameter group"):
        fg.optim.SGD([{"params": [w]}, {"params": [w]}], lr=0.1)


# ---- lr schedulers -------------------------------------------------------------------

def _lrs(make_scheduler, epochs=12, lr=1.0):
    opt = fg.optim.SGD([fg.ones(1, requires_grad=True)], lr=lr)
    scheduler = make_scheduler(opt)
    seen = []
    for _ in range(epochs):
        seen.append(opt.param_groups[0]["lr"])
        opt.step()
        scheduler.step()
    return seen


SCHEDULERS = {
    "StepLR": (lambda o, m: m.StepLR(o, step_size=3, gamma=0.5),
               lambda e: 0.5 ** (e // 3)),
    "MultiStepLR": (lambda o, m: m.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.1),
                    lambda e: 0.1 ** ((e >= 2) + 2 * (e >= 5))),
    "ExponentialLR": (lambda o, m: m.ExponentialLR(o, gamma=0.8), lambda e: 0.8 ** e),
    "CosineAnnealingLR": (lambda o, m: m.CosineAnnealingLR(o, T_max=5, eta_min=0.1),
                          lambda e: 0.1 + 0.9 * (1 + math.cos(math.pi * e / 5)) / 2),
    "LambdaLR": (lambda o, m: m.LambdaLR(o, lambda e: 1 / (1 + e)), lambda e: 1 / (1 + e)),
}


@pytest.mark.parametrize("name", SCHEDULERS)
def test_scheduler_follows_its_closed_form(name):
    make, formula = SCHEDULERS[name]
    got = _lrs(lambda o: make(o, fg.optim.lr_scheduler))
    np.testing.assert_allclose(got, [formula(e) for e in range(len(got))], rtol=1e-12)


@pytest.mark.parametrize("name", SCHEDULERS)
def test_scheduler_equals_torch(name):
    torch = pytest.importorskip("torch", reason="the peer comparison needs torch")
    make, _ = SCHEDULERS[name]
    opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1.0)
    scheduler = make(opt, torch.optim.lr_scheduler)
    want = []
    for _ in range(12):
        want.append(opt.param_groups[0]["lr"])
        opt.step()
        scheduler.step()
    np.testing.assert_allclose(_lrs(lambda o: make(o, fg.optim.lr_scheduler)), want,
                               rtol=1e-15)


def test_scheduler_state_dict_round_trip():
    opt = fg.optim.SGD([fg.ones(1, requires_grad=True)], lr=1.0)
    sched = fg.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for _ in range(3):
        opt.step()
        sched.step()
    saved = sched.state_dict()
    assert saved["last_epoch"] == 3 and "optimizer" not in saved
    other = fg.optim.lr_scheduler.StepLR(fg.optim.SGD([fg.ones(1, requires_grad=True)]), 7)
    other.load_state_dict(saved)
    assert (other.last_epoch, other.step_size, other.get_last_lr()) == (3, 2, [0.5])


def test_a_scheduler_needs_a_torch_style_optimizer():
    with pytest.raises(TypeError, match="take a schedule function"):
        fg.optim.lr_scheduler.StepLR(fg.optim.sgd(0.1), step_size=2)


@pytest.mark.parametrize("module", ["funcgrad.optim.optimizer", "funcgrad.optim.lr_scheduler"])
def test_docstring_examples(module):
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried and failures == 0


COMPLEX_CASES = [("SGD", dict(lr=0.1, momentum=0.9, weight_decay=0.01)),
                 ("Adam", dict(lr=0.1, weight_decay=0.01)), ("AdamW", dict(lr=0.1)),
                 ("Adam", dict(lr=0.1, amsgrad=True)),
                 ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5)),
                 ("Adagrad", dict(lr=0.1, initial_accumulator_value=0.5))]


def _complex_run(lib, name, kwargs, p0, grads):
    p = lib.tensor(p0.copy(), requires_grad=True)
    opt = getattr(lib.optim, name)([p], **kwargs)
    for g in grads:
        p.grad = lib.tensor(g)
        opt.step()
    return p.detach().numpy(), opt


@pytest.mark.parametrize("name, kwargs", COMPLEX_CASES)
def test_complex_parameters_step_as_pairs_of_real_coordinates(name, kwargs):
    """torch.optim updates a complex parameter as its real and imaginary parts, each a
    coordinate with its own moments (torch.view_as_real): the same steps as the real
    optimizer on a parameter holding the pairs; the buffers stay complex."""
    rng = np.random.default_rng(3)
    p0 = rng.normal(size=(2, 3)) + 1j * rng.normal(size=(2, 3))
    grads = [rng.normal(size=(2, 3)) + 1j * rng.normal(size=(2, 3)) for _ in range(4)]
    got, opt = _complex_run(fg, name, kwargs, p0, grads)
    pairs = lambda z: np.stack([z.real, z.imag], -1)  # noqa: E731
    want, _ = _complex_run(fg, name, kwargs, pairs(p0), [pairs(g) for g in grads])
    np.testing.assert_allclose(pairs(got), want, rtol=1e-13, atol=1e-15)
    buffers = [v for v in next(iter(opt.state.values())).values() if v.shape == (2, 3)]
    assert buffers and all(np.iscomplexobj(b.numpy()) for b in buffers)
    torch = importlib.util.find_spec("torch") and importlib.import_module("torch")
    if torch:
        theirs, _ = _complex_run(torch, name, kwargs, p0, grads)
        np.testing.assert_allclose(got, theirs, rtol=1e-12, atol=1e-14)


def test_a_resumed_schedule_keeps_the_optimizers_rate_at_construction():
    """PyTorch 2.13: the constructor's step of a scheduler resumed at ``last_epoch``
    counts the epoch and keeps the current learning rate; the next steps go on from it."""
    def run(lib, make):
        p = lib.ones(1, requires_grad=True)
        opt = lib.optim.SGD([p], lr=1.0)
        opt.param_groups[0]["initial_lr"] = 1.0
        sched = make(lib, opt)
        lrs = []
        for _ in range(4):
            lrs.append(sched.get_last_lr()[0])
            opt.step()
            sched.step()
        return lrs

    exponential = lambda lib, o: lib.optim.lr_scheduler.ExponentialLR(o, 0.5, last_epoch=3)  # noqa: E731
    cosine = lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingLR(o, 10, last_epoch=3)  # noqa: E731
    np.testing.assert_allclose(run(fg, exponential), [1.0, 0.5, 0.25, 0.125])
    got = run(fg, cosine)
    assert got[0] == 1.0  # and from epoch 5 on, the cosine's ratio from there
    np.testing.assert_allclose(got[1], (1 + math.cos(math.pi * 5 / 10))
                               / (1 + math.cos(math.pi * 4 / 10)), rtol=1e-14)
    torch = importlib.util.find_spec("torch") and importlib.import_module("torch")
    if torch:
        for make in (exponential, cosine):
            np.testing.assert_allclose(run(fg, make), run(torch, make), rtol=1e-12)


def test_step_reaches_the_detached_aliases_and_views_of_a_parameter():
    w = fg.Tensor([1.0, 2.0, 4.0], requires_grad=True)
    alias, view = w.detach(), w.detach()[1:]
    (w * w).sum().backward()
    fg.optim.SGD([w], lr=0.25).step()                   # w - 0.25 * 2w = w / 2
    np.testing.assert_array_equal(w.detach().numpy(), [0.5, 1.0, 2.0])
    np.testing.assert_array_equal(alias.numpy(), [0.5, 1.0, 2.0])
    np.testing.assert_array_equal(view.numpy(), [1.0, 2.0])
    v = fg.Tensor([1.0, 2.0, 4.0], requires_grad=True)
    part = v.detach()[:2]                               # a parameter that has views
    (v * v).sum().backward()
    fg.optim.SGD([v], lr=0.25).step()
    np.testing.assert_array_equal(part.numpy(), [0.5, 1.0])


def test_step_of_a_float32_parameter_with_numpy_float64_hyperparameters_stays_float32():
    w = fg.Tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
    (w * w).sum().backward()
    fg.optim.SGD([w], lr=np.float64(0.25)).step()      # float64 arithmetic, cast back
    assert w.dtype == np.float32
    np.testing.assert_array_equal(w.detach().numpy(), np.array([0.5, 1.0], np.float32))

"""fg.optim's functional (optax-style) optimizers: their updates equal the published update
rules (written out here per leaf, from the papers and optax's documentation), on pytrees,
in float32 as in float64, under fg.jit, with schedules; and misuse raises clear errors."""
import doctest
import importlib
import re
from pathlib import Path

import numpy as np
import pytest

import funcgrad as fg
from funcgrad import tree

from long_runs import LONG

pytestmark = pytest.mark.usefixtures("fresh_jit_cache")

STEPS = 4


def _params(dtype=np.float64):
    rng = np.random.default_rng(0)
    return {"w": rng.normal(size=(3, 2)).astype(dtype),
            "layers": [rng.normal(size=4).astype(dtype), (rng.normal(size=()).astype(dtype),)]}


def _grads(step, params):
    """A fixed, step-dependent gradient sequence (not derived from the optimizer)."""
    rng = np.random.default_rng(100 + step)
    return tree.tree_map(lambda p: rng.normal(size=np.shape(p)).astype(p.dtype) + 0.1 * p,
                         params)


def _run(opt, params, steps=STEPS):
    state = opt.init(params)
    for k in range(steps):
        updates, state = opt.update(_grads(k, params), state, params)
        params = fg.optim.apply_updates(params, updates)
    return params, state


def _reference(rule, params, steps=STEPS):
    """Apply ``rule(p, g, memory, t) -> new p`` leaf by leaf (t counts from 1)."""
    leaves, treedef = tree.flatten(params)
    memories = [{} for _ in leaves]
    for k in range(steps):
        grads = tree.leaves(_grads(k, params))
        leaves = [rule(p, g, m, k + 1) for p, g, m in zip(leaves, grads, memories)]
        params = tree.unflatten(treedef, leaves)
    return params


# ---- the update rules, one function each -------------------------------------------

def sgd_rule(lr, momentum=0.0, nesterov=False):
    def rule(p, g, m, t):
        v = m.get("v", 0.0) * momentum + g
        m["v"] = v
        return p - lr * (g + momentum * v if nesterov else v)
    return rule


def adam_rule(lr, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0):
    def rule(p, g, m, t):
        m["m"] = b1 * m.get("m", 0.0) + (1 - b1) * g
        m["v"] = b2 * m.get("v", 0.0) + (1 - b2) * g ** 2
        m_hat, v_hat = m["m"] / (1 - b1 ** t), m["v"] / (1 - b2 ** t)
        return p - lr * (m_hat / (np.sqrt(v_hat) + eps) + weight_decay * p)
    return rule


def rmsprop_rule(lr, decay=0.9, eps=1e-8, centered=False, momentum=None, eps_in_sqrt=True):
    def rule(p, g, m, t):
        m["nu"] = decay * m.get("nu", 0.0) + (1 - decay) * g ** 2
        m["mu"] = decay * m.get("mu", 0.0) + (1 - decay) * g
        var = m["nu"] - m["mu"] ** 2 if centered else m["nu"]
        step = g / np.sqrt(var + eps) if eps_in_sqrt else g / (np.sqrt(var) + eps)
        step = lr * step
        if momentum is not None:
            m["trace"] = step + momentum * m.get("trace", 0.0)
            step = m["trace"]
        return p - step
    return rule


def adagrad_rule(lr, initial=0.1, eps=1e-7):
    def rule(p, g, m, t):
        m["s"] = m.get("s", initial) + g ** 2
        return p - lr * g / np.sqrt(m["s"] + eps)
    return rule


CASES = {
    "sgd": (lambda: fg.optim.sgd(0.1), sgd_rule(0.1)),
    "sgd-momentum": (lambda: fg.optim.sgd(0.1, momentum=0.9), sgd_rule(0.1, 0.9)),
    "sgd-nesterov": (lambda: fg.optim.sgd(0.1, momentum=0.9, nesterov=True),
                     sgd_rule(0.1, 0.9, True)),
    "adam": (lambda: fg.optim.adam(0.05), adam_rule(0.05)),
    "adam-b": (lambda: fg.optim.adam(0.05, b1=0.5, b2=0.9, eps=1e-3),
               adam_rule(0.05, 0.5, 0.9, 1e-3)),
    "adamw": (lambda: fg.optim.adamw(0.05, weight_decay=0.3), adam_rule(0.05, weight_decay=0.3)),
    "rmsprop": (lambda: fg.optim.rmsprop(0.01), rmsprop_rule(0.01)),
    "rmsprop-centered-momentum": (
        lambda: fg.optim.rmsprop(0.01, decay=0.8, eps=1e-4, centered=True, momentum=0.5),
        rmsprop_rule(0.01, 0.8, 1e-4, centered=True, momentum=0.5)),
    "rmsprop-eps-outside": (lambda: fg.optim.rmsprop(0.01, eps=1e-3, eps_in_sqrt=False),
                            rmsprop_rule(0.01, eps=1e-3, eps_in_sqrt=False)),
    "adagrad": (lambda: fg.optim.adagrad(0.2), adagrad_rule(0.2)),
}


@pytest.mark.parametrize("name", CASES)
def test_updates_follow_the_published_rule(name):
    make, rule = CASES[name]
    got, _ = _run(make(), _params())
    want = _reference(rule, _params())
    for a, b in zip(tree.leaves(got), tree.leaves(want)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    assert tree.flatten(got)[1] == tree.flatten(_params())[1]


@pytest.mark.parametrize("name", CASES)
def test_float32_params_state_and_updates_stay_float32(name):
    make, rule = CASES[name]
    params = _params(np.float32)
    got, state = _run(make(), params)
    assert all(leaf.dtype == np.float32 for leaf in tree.leaves(got))
    floats = [leaf for leaf in tree.leaves(state) if np.dtype(leaf.dtype).kind == "f"]
    assert all(leaf.dtype == np.float32 for leaf in floats)
    want = _reference(rule, _params(np.float64))
    for a, b in zip(tree.leaves(got), tree.leaves(want)):
        np.testing.assert_allclose(a, b, rtol=2e-4, atol=2e-5)


def test_adamw_mask_limits_the_decay():
    params = {"w": np.array([2.0]), "b": np.array([2.0])}
    opt = fg.optim.adamw(0.1, weight_decay=0.5, mask=lambda p: {"w": True, "b": False})
    grads = {"w": np.array([1.0]), "b": np.array([1.0])}
    updates, _ = opt.update(grads, opt.init(params), params)
    adam_step = 1.0 / (1.0 + 1e-8)
    np.testing.assert_allclose(updates["w"], -0.1 * (adam_step + 0.5 * 2.0))
    np.testing.assert_allclose(updates["b"], -0.1 * adam_step)


def test_chain_clips_then_steps():
    opt = fg.optim.chain(fg.optim.clip_by_global_norm(1.0), fg.optim.sgd(0.5))
    grads = ([np.array([3.0, 0.0])], {"k": np.array(4.0)})      # global norm 5
    updates, _ = opt.update(grads, opt.init(grads))
    np.testing.assert_allclose(updates[0][0], [-0.3, 0.0])
    np.testing.assert_allclose(updates[1]["k"], -0.4)
    small = ([np.array([0.3, 0.0])], {"k": np.array(0.4)})      # under the norm: unchanged
    np.testing.assert_allclose(opt.update(small, opt.init(small))[0][0][0], [-0.15, 0.0])


# ---- schedules ----------------------------------------------------------------------

SCHEDULES = {
    "linear": (lambda: fg.optim.linear_schedule(1.0, 0.2, 8, transition_begin=2),
               lambda c: 1.0 if c < 2 else max(0.2, 1.0 - 0.8 * (c - 2) / 8)),
    "exponential": (lambda: fg.optim.exponential_decay(0.5, 3, 0.1),
                    lambda c: 0.5 * 0.1 ** (c / 3)),
    "exponential-staircase": (
        lambda: fg.optim.exponential_decay(0.5, 3, 0.1, transition_begin=1, staircase=True,
                                           end_value=0.01),
        lambda c: max(0.01, 0.5 * 0.1 ** ((c - 1) // 3)) if c > 1 else 0.5),
    "cosine": (lambda: fg.optim.cosine_decay_schedule(2.0, 10, alpha=0.1),
               lambda c: 2.0 * (0.9 * 0.5 * (1 + np.cos(np.pi * min(c, 10) / 10)) + 0.1)),
    "piecewise": (lambda: fg.optim.piecewise_constant_schedule(1.0, {3: 0.5, 6: 0.1}),
                  lambda c: 1.0 * (0.5 if c >= 3 else 1) * (0.1 if c >= 6 else 1)),
    "warmup-cosine": (
        lambda: fg.optim.warmup_cosine_decay_schedule(0.0, 1.0, 4, 12, end_value=0.1),
        lambda c: c / 4 if c < 4 else 0.1 + 0.9 * 0.5 * (1 + np.cos(np.pi * min(c - 4, 8) / 8))),
}


@pytest.mark.parametrize("name", SCHEDULES)
def test_schedule_values(name):
    make, formula = SCHEDULES[name]
    schedule = make()
    for count in range(15):
        np.testing.assert_allclose(float(schedule(np.int32(count))), formula(count),
                                   rtol=1e-12, atol=1e-15, err_msg=f"count {count}")


def test_a_schedule_as_learning_rate_uses_the_count_before_the_update():
    opt = fg.optim.sgd(fg.optim.exponential_decay(1.0, 1, 0.5))
    params = np.array([0.0], np.float32)
    state = opt.init(params)
    steps = []
    for _ in range(3):
        updates, state = opt.update(np.array([1.0], np.float32), state)
        steps.append(float(updates[0]))
        assert updates.dtype == np.float32
    assert steps == [-1.0, -0.5, -0.25]


# ---- under fg.jit -------------------------------------------------------------------

def _jitted_cases():
    """A cold compilation of one optimizer step takes 5-10 s on a loaded 2-core machine:
    `make test` compiles Adam with a schedule (a traced count, bias corrections, the
    schedule's cosine); `make soak` (FUNCGRAD_LONG=1) compiles every optimizer."""
    cases = {"adam-cosine": lambda: fg.optim.adam(fg.optim.cosine_decay_schedule(0.1, 5))}
    if LONG:
        cases.update(CASES)
    return cases


@pytest.mark.parametrize("name", _jitted_cases())
def test_optimizer_steps_compile_under_jit(name):
    """The compiled step equals the eager one, step after step, state (and its traced
    count) included. `make test` uses a one-leaf dict (compile time grows with the
    leaves); `make soak` the whole test tree."""
    opt = _jitted_cases()[name]()
    params = _params(np.float32) if LONG else {"w": _params(np.float32)["w"]}

    def step(params, state, grads):
        updates, state = opt.update(grads, state, params)
        return fg.optim.apply_updates(params, updates), state

    compiled = fg.jit(step)
    state = eager_state = opt.init(params)
    for k in range(2):
        got, state = compiled(params, state, _grads(k, params))
        want, eager_state = step(params, eager_state, _grads(k, params))
        for a, b in zip(tree.leaves((got, state)), tree.leaves((want, eager_state))):
            assert np.asarray(a).dtype == np.asarray(b).dtype
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
        assert all(leaf.dtype == np.float32 for leaf in tree.leaves(got))
        assert tree.flatten(got)[1] == tree.flatten(params)[1]


# ---- misuse -------------------------------------------------------------------------

def test_grads_with_another_structure_are_named():
    opt = fg.optim.adam(0.1)
    state = opt.init({"w": np.zeros(2)})
    with pytest.raises(ValueError, match="same structure"):
        opt.update({"v": np.zeros(2)}, state)


def test_adamw_without_params_says_to_pass_them():
    opt = fg.optim.adamw(0.1)
    with pytest.raises(ValueError, match=r"update\(grads, state, params\)"):
        opt.update(np.zeros(2), opt.init(np.zeros(2)))


@pytest.mark.parametrize("build, error, match", [
    (lambda: fg.optim.sgd(0.1, nesterov=True), ValueError, "nesterov=True needs a momentum"),
    (lambda: fg.optim.adam("0.1"), TypeError, "learning_rate must be a number"),
    (lambda: fg.optim.adam(0.1, b1=1.0), ValueError, "invalid b1"),
    (lambda: fg.optim.adagrad(0.1, eps=-1.0), ValueError, "invalid eps"),
    (lambda: fg.optim.chain(fg.optim.sgd(0.1), 0.5), TypeError, "not a GradientTransformation"),
    (lambda: fg.optim.linear_schedule(1.0, 0.0, 0), ValueError, "transition_steps must be"),
])
def test_bad_hyperparameters_raise_clear_errors(build, error, match):
    with pytest.raises(error, match=match):
        build()


def test_a_state_from_another_optimizer_is_refused():
    with pytest.raises(ValueError, match="chain.update"):
        fg.optim.adam(0.1).update(np.zeros(2), fg.optim.sgd(0.1, momentum=0.9).init(
            np.zeros(2)) + ((),))


# ---- documentation ------------------------------------------------------------------

def test_documented_optimizer_example(capsys):
    """Getting started's fg.optim block runs and reaches the minimum (w = 1, b = -2)."""
    page = Path(__file__).resolve().parent.parent / "docs" / "getting-started.md"
    text = page.read_text(encoding="utf-8")
    section = text[text.index("## Optimizers, ravel and minimize"):]
    block = re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)
    exec(compile(block, "getting-started.md", "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out.split() == ["[1.", "1.", "1.]", "float32", "-2.0"]


@pytest.mark.parametrize("module", ["funcgrad.optim", "funcgrad.optim.base",
                                    "funcgrad.optim.transforms", "funcgrad.optim.schedules",
                                    "funcgrad.optim.aliases"])
def test_docstring_examples(module):
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried and failures == 0

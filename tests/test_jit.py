"""``fg.jit``: compiled functions equal their eager selves, derivatives included.

The core property, ``jit(f) == f`` and ``jit(grad(f)) == grad(f)``, is checked on
programs drawn by hypothesis from a small generator over the primitive families
(elementwise with broadcasting, reductions, matmul, reshape/transpose, indexing); the
rest are behaviours: caching and retracing, static arguments, composition with every
transform, fallbacks, the error for value-dependent Python control flow, float32, and
the on-disk cache reused by a second process.

Compiled code may differ from the eager result in the last bit of a transcendental
function (the C library's ``sin`` against NumPy's SIMD one), so comparisons allow a few
ulps relative to the result's size; reductions and arithmetic are bit-for-bit.
"""
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import Phase, assume, given, settings, strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import tree
from helpers import numpy_exp2_is_c_library

ROOT = Path(__file__).resolve().parent.parent


pytestmark = pytest.mark.usefixtures("fresh_jit_cache")


def assert_tree_close(got, want, rtol=1e-11, what=""):
    got_leaves, want_leaves = tree.leaves(got), tree.leaves(want)
    assert len(got_leaves) == len(want_leaves), what
    for g, w in zip(got_leaves, want_leaves):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape, f"{what}: shape {g.shape} != {w.shape}"
        assert g.dtype == w.dtype, f"{what}: dtype {g.dtype} != {w.dtype}"
        if w.dtype.kind != "f":
            np.testing.assert_array_equal(g, w, err_msg=what)
            continue
        scale = max(1.0, float(np.max(np.abs(w), initial=0.0)))
        np.testing.assert_allclose(g, w, rtol=0, atol=rtol * scale, err_msg=what)


# --- a small random program generator -----------------------------------------------------------

def _broadcasts(a, b):
    try:
        np.broadcast_shapes(a.shape, b.shape)
        return True
    except ValueError:
        return False


def _matmul_ok(a, b):
    return (1 <= a.ndim <= 2 and 1 <= b.ndim <= 2 and
            a.shape[-1] == b.shape[0 if b.ndim == 1 else -2])


# (name, arity, applies-to predicate, function): every step of a program is one of these.
OPS = [
    ("sin", 1, None, np.sin),
    ("tanh", 1, None, np.tanh),
    ("exp(tanh)", 1, None, lambda a: np.exp(np.tanh(a))),
    ("log1p(a*a)", 1, None, lambda a: np.log1p(a * a)),
    ("affine", 1, None, lambda a: a * 0.7 - 0.25),
    ("-|a|", 1, None, lambda a: -np.abs(a)),
    ("add", 2, _broadcasts, np.add),
    ("multiply", 2, _broadcasts, np.multiply),
    ("subtract", 2, _broadcasts, np.subtract),
    ("a/(1+b*b)", 2, _broadcasts, lambda a, b: a / (1.0 + b * b)),
    ("maximum", 2, _broadcasts, np.maximum),
    ("where", 2, _broadcasts, lambda a, b: fnp.where(a > b, a * b, b - 0.5)),
    ("sum(axis=0)", 1, lambda a: a.ndim >= 1, lambda a: np.sum(a, axis=0)),
    ("sum(axis=-1, keepdims)", 1, lambda a: a.ndim >= 1,
     lambda a: np.sum(a, axis=-1, keepdims=True)),
    ("max(axis=-1)", 1, lambda a: a.ndim >= 1 and a.shape[-1] > 0,
     lambda a: np.max(a, axis=-1)),
    ("mean", 1, None, np.mean),
    ("logsumexp(axis=-1)", 1, lambda a: a.ndim >= 1, lambda a: fnp.logsumexp(a, axis=-1)),
    ("matmul", 2, _matmul_ok, np.matmul),
    ("transpose", 1, lambda a: a.ndim == 2, lambda a: a.T),
    ("reshape(-1)", 1, lambda a: a.ndim >= 1, lambda a: a.reshape(-1)),
    ("a[..., ::2]", 1, lambda a: a.ndim >= 1, lambda a: a[..., ::2]),
    ("a[1]", 1, lambda a: a.ndim >= 1 and a.shape[0] > 1, lambda a: a[1]),
    ("a[[0, 0, 1]]", 1, lambda a: a.ndim >= 1 and a.shape[0] > 1,
     lambda a: a[np.array([0, 0, 1])]),
    ("concatenate", 2, lambda a, b: a.ndim == b.ndim == 1,
     lambda a, b: fnp.concatenate([a, b])),
]

STEP = st.tuples(st.integers(0, len(OPS) - 1), st.integers(0, 99), st.integers(0, 99))


def make_program(steps):
    """``f(x, y)``: apply the steps to a pool of values, return a scalar mixing them all."""
    def f(x, y):
        pool = [x, y]
        for op, i, j in steps:
            name, arity, ok, fn = OPS[op]
            a = pool[i % len(pool)]
            if arity == 1:
                if ok is None or ok(a):
                    pool.append(fn(a))
                continue
            partners = [b for b in pool if ok(a, b)]
            if partners:
                pool.append(fn(a, partners[j % len(partners)]))
        total = 0.0
        for k, v in enumerate(pool):
            total = total + np.sum(np.sin(v * (0.3 + 0.1 * k)))
        return total
    return f


def describe(steps):
    return " ; ".join(f"{OPS[op][0]}({i},{j})" for op, i, j in steps)


def _jit_of_random_program_equals_eager(steps, seed, float32):
    rng = np.random.default_rng(seed)
    dtype = np.float32 if float32 else np.float64
    x = rng.uniform(-1.5, 1.5, (3, 4)).astype(dtype)
    y = rng.uniform(-1.5, 1.5, (4,)).astype(dtype)
    f = make_program(steps)
    with np.errstate(all="ignore"):
        want = f(x, y)
        want_grad = fg.grad(f, argnums=(0, 1))(x, y)
    assume(np.isfinite(want) and all(np.all(np.isfinite(g)) for g in want_grad))
    rtol = 2e-5 if float32 else 1e-11
    what = describe(steps)
    assert_tree_close(fg.jit(f)(x, y), want, rtol, f"jit: {what}")
    assert_tree_close(fg.jit(fg.grad(f, argnums=(0, 1)))(x, y), want_grad, rtol,
                      f"jit(grad): {what}")


# Each example compiles two kernels (~2.5 s on CI): two programs in `make test`, the
# profile's number (8 in CI) in `make soak`; no shrinking (a failure reports the program
# as drawn).
PROGRAMS = dict(steps=st.lists(STEP, min_size=1, max_size=7), seed=st.integers(0, 2**16),
                float32=st.booleans())
AS_DRAWN = [Phase.explicit, Phase.reuse, Phase.generate]


@settings(max_examples=min(2, settings.default.max_examples), phases=AS_DRAWN)
@given(**PROGRAMS)
def test_jit_of_random_programs_equals_eager(steps, seed, float32):
    _jit_of_random_program_equals_eager(steps, seed, float32)


@pytest.mark.soak
@settings(phases=AS_DRAWN)
@given(**PROGRAMS)
def test_jit_of_more_random_programs_equals_eager(steps, seed, float32):
    _jit_of_random_program_equals_eager(steps, seed, float32)


# --- the benchmark workloads, and what their compiled code looks like ------------------------

def w1(x):
    return np.sum(np.sin(x) * np.cos(x) + np.exp(-x * x) + np.log1p(x * x)
                  + np.tanh(x) / (1 + x * x))


X16 = np.linspace(-1.3, 1.4, 16)


def test_jit_of_grad_compiles_forward_and_backward_into_one_fused_kernel():
    g = fg.jit(fg.grad(w1))
    assert_tree_close(g(X16), fg.grad(w1)(X16))
    text = g.lower(X16).as_text()
    assert text.count("@njit") == 1 and "driver" not in text  # one kernel, no Python steps
    assert text.count("# fused") == 1 and text.count("np.empty") == 1  # fused: no temporaries
    assert ".cos(" in text  # d sin / dx: the backward pass is in the same kernel


def test_elementwise_chain_fuses_into_one_loop():
    def chain(y):
        for _ in range(20):
            y = np.sin(y) * 0.5 + y * 0.9
        return y
    x = np.linspace(-1, 1, 8)
    assert_tree_close(fg.jit(chain)(x), chain(x))
    text = fg.jit(chain).lower(x).as_text()
    assert text.count("# fused") == 1 and text.count("np.empty") == 1


def test_mlp_value_and_grad_float32():
    rng = np.random.default_rng(0)
    params = [rng.standard_normal((20, 16)).astype(np.float32) * 0.3, np.zeros(16, np.float32),
              rng.standard_normal((16, 5)).astype(np.float32) * 0.3, np.zeros(5, np.float32)]
    x = rng.standard_normal((8, 20)).astype(np.float32)
    labels = np.eye(5, dtype=np.float32)[rng.integers(0, 5, 8)]

    def loss(params, x, labels):
        w1_, b1, w2, b2 = params
        logits = np.tanh(x @ w1_ + b1) @ w2 + b2
        return np.mean(fnp.logsumexp(logits, axis=1) - np.sum(logits * labels, axis=1))

    vg = fg.value_and_grad(loss)
    got = fg.jit(vg)(params, x, labels)
    assert_tree_close(got, vg(params, x, labels), 2e-6)
    assert got[0].dtype == np.float32 and all(g.dtype == np.float32 for g in got[1])


# --- caching, retracing, static arguments ---------------------------------------------------

def _jitted_and_its_traces():
    """``jit(sin(x) * 2)`` and the list of shapes it has been traced with."""
    traces = []

    @fg.jit
    def f(x):
        traces.append(x.shape)
        return np.sin(x) * 2.0

    return f, traces


def test_traces_once_per_signature_and_retraces_on_new_shapes_and_dtypes():
    f, traces = _jitted_and_its_traces()
    f(np.ones(3))
    f(np.zeros(3))
    assert len(traces) == 1
    assert_tree_close(f(np.ones((2, 2))), np.sin(np.ones((2, 2))) * 2.0)
    assert len(traces) == 2
    out = f(np.ones(3, np.float32))
    assert len(traces) == 3 and out.dtype == np.float32


def test_a_kernel_compiles_once_whatever_the_form_of_same_signature_arguments():
    """jit's signature is shapes and dtypes; Numba's type of an argument also says its
    layout, whether it is read-only, and a 0-d array is not a scalar.  Calls that differ
    only there (an optimiser's step count that comes back a NumPy scalar, a transposed or
    read-only array) run the kernel compiled for the first call: no second compilation."""
    f = fg.jit(lambda x, n: np.sum(x * 2.0) * n + x)
    x = np.linspace(0.0, 1.0, 12).reshape(3, 4)
    want = f(x, np.array(2.0))
    kernel = f.lower(x, np.array(2.0)).executable.run
    read_only = x.copy()
    read_only.flags.writeable = False
    for args in [(x, np.float64(2.0)), (x, 2.0), (np.asfortranarray(x), np.array(2.0)),
                 (read_only, np.array(2.0)), (np.repeat(x, 2, axis=1)[:, ::2], 2.0)]:
        assert f(*args).tobytes() == want.tobytes()
    assert len(kernel.signatures) == 1


def test_views_passed_between_compiled_segments_are_not_copied_per_call(monkeypatch):
    """grad(jit(f)) keeps the columns of its input as residuals: strided views, which its
    compiled segments take as they are (compiled for their layout on the first call),
    not copies made on every call."""
    from funcgrad.jit import cache

    def loss(w, block):
        margins = block[:, 4] * (block[:, :4] @ w)
        return np.sum(np.log1p(np.exp(-margins)))

    block = np.random.default_rng(0).standard_normal((50, 5))
    w = np.array([0.1, 0.2, -0.1, 0.05])
    value_and_grad = fg.value_and_grad(fg.jit(loss, wait=True))
    want = fg.value_and_grad(loss)(w, block)
    value_and_grad(w, block)
    copies = []
    fitted = cache._fitted

    def counting(value, numba_type):
        out = fitted(value, numba_type)
        if type(value) is np.ndarray and value.ndim and out is not value:
            copies.append(value.shape)
        return out

    monkeypatch.setattr(cache, "_fitted", counting)
    got = value_and_grad(w, block)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-13)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-13)
    assert copies == []
    value_and_grad(w, np.asfortranarray(block))  # the caller's layout: fitted, once
    assert copies


def test_large_kernels_call_one_function_per_distinct_loop(monkeypatch):
    """A kernel of many equations calls its fused loops as functions of their own, each
    bounded in size, and loops of the same structure are one function: compile time
    grows linearly with the number of operations, and a repeated step compiles once."""
    from funcgrad.jit import fusion
    monkeypatch.setattr(fusion, "MAX_FUSED_EQNS", 8)

    def chain(y):
        for _ in range(40):
            y = y * 0.9 + 0.125
        return y

    x = np.linspace(-1.0, 1.0, 16)
    f = fg.jit(chain)
    assert f(x).tobytes() == chain(x).tobytes()
    text = f.lower(x).as_text()
    # 80 equations, 8 to a loop: the first loop reads the input, the nine others the
    # results of the one before, as rows of one array (the same text each time) ...
    assert text.count("# loop function") == 2 and text.count("def loop(") == 2
    # ... called from a `for` loop, so the kernel does not grow with the chain.
    kernel = text[text.index("def kernel0"):]
    assert "for r" in kernel and "in range(1, 9):" in kernel
    assert kernel.count("_loop1(") == 2 and len(kernel.splitlines()) < 10


def _chain_with_trig(x):
    y = x
    for _ in range(6):
        y = np.sin(y) * 0.5 + np.cos(y * 0.25) * 0.125 + y * 0.9
    return np.sum(y * y)


def test_outlined_kernels_have_the_bits_of_one_kernel(monkeypatch):
    """A large kernel (loop functions, results packed as rows, repeated calls rolled into
    a loop) computes exactly what the same kernel written as one function does, also
    where sin/cos arguments leave the fast range and loops redo with the C library."""
    from funcgrad.jit import lower
    # one step (a sin and a cos) per loop in both, so that both redo the same loops
    monkeypatch.setattr(lower, "MAX_FUSED_MATH", 2)
    monkeypatch.setattr(lower, "MAX_OUTLINED_MATH", 2)
    g = fg.grad(_chain_with_trig)
    x = np.linspace(-3.0, 3.0, 64)
    x_far = x.copy()
    x_far[[3, 40]] = [1e9, -3e12]  # beyond vmath's Cody-Waite range: the exact fallback
    monkeypatch.setattr(lower, "OUTLINE_MIN_EQNS", 10**9)
    inline = fg.jit(g, wait=True)
    want, want_far = inline(x), inline(x_far)
    assert "def loop(" not in inline.lower(x).as_text()
    monkeypatch.setattr(lower, "OUTLINE_MIN_EQNS", 64)
    outlined = fg.jit(g, wait=True)
    text = outlined.lower(x).as_text()
    assert text.count("def loop(") >= 2 and "for r" in text
    assert outlined(x).tobytes() == want.tobytes()
    assert outlined(x_far).tobytes() == want_far.tobytes()
    assert abs(want_far[3]) > 1e6  # (the far arguments did reach the loops)


@pytest.mark.parametrize("outline_min", [10**9, 10])
def test_sin_cos_beyond_the_vector_range_switch_to_the_c_library_pass(monkeypatch, outline_min):
    """Loops are first written without the C library's pass for sin/cos arguments beyond
    the vector maths' range: a call that meets one switches, for good, to the module
    written with it, and every result has the eager bits (inline and outlined loops)."""
    from funcgrad.jit import lower
    monkeypatch.setattr(lower, "OUTLINE_MIN_EQNS", outline_min)
    g = fg.grad(_chain_with_trig)
    x = np.linspace(-3.0, 3.0, 64)
    x_far = x.copy()
    x_far[[3, 40, 41]] = [1e9, -3e12, np.inf]
    jitted = fg.jit(g, wait=True)
    text = jitted.lower(x).as_text()
    assert "TrigRangeError" in text and "_lf.sin" not in text and "_lf.cos" not in text
    assert (outline_min < 64) == ("def loop(" in text)
    compiled = jitted.lower(x).compile()
    with np.errstate(invalid="ignore"):
        want, want_far = g(x), g(x_far)
        assert jitted(x).tobytes() == want.tobytes()
        got_far = jitted(x_far)  # (the switch)
        assert np.array_equal(got_far, want_far, equal_nan=True)
        assert np.isnan(got_far[41]) and abs(got_far[3]) > 1e6
        assert jitted(x).tobytes() == want.tobytes()  # (the C library's module from now on)
        assert jitted(x_far).tobytes() == got_far.tobytes()
        # The compiled function's fast path (the first module's kernel) follows the switch
        assert compiled(x_far).tobytes() == got_far.tobytes()
        assert compiled(x).tobytes() == want.tobytes()
    lowered = jitted.lower(x).executable.lowered
    assert not lowered.trig_checked and "_lf.sin" in lowered.as_text()


def test_outlined_loops_with_broadcast_operands_read_packed_rows_at_flat_indices(monkeypatch):
    """A loop over (8, 16) reading a bias of shape (16,) writes and reads the packed rows
    at C-order flat indices: the bits of the same loops in one kernel."""
    from funcgrad.jit import lower
    monkeypatch.setattr(lower, "MAX_FUSED_MATH", 1)
    monkeypatch.setattr(lower, "MAX_OUTLINED_MATH", 1)
    bias = np.linspace(-0.5, 0.5, 16)

    def f(x):
        y = x
        for _ in range(8):
            y = np.tanh(y * 0.75 + bias) + 0.125 * y
        return np.sum(y * y)

    x = np.linspace(-2.0, 2.0, 128).reshape(8, 16)
    monkeypatch.setattr(lower, "OUTLINE_MIN_EQNS", 10**9)
    want = fg.jit(fg.grad(f), wait=True)(x)
    monkeypatch.setattr(lower, "OUTLINE_MIN_EQNS", 16)
    outlined = fg.jit(fg.grad(f), wait=True)
    text = outlined.lower(x).as_text()
    assert "for r" in text and "i0 * 16 + i1]" in text
    assert outlined(x).tobytes() == want.tobytes()


def _sin_chain(x):
    y = x
    for _ in range(50):
        y = np.sin(y) * 0.5 + y * 0.9
    return np.sum(y)


def test_a_repeated_fused_group_is_written_once(monkeypatch):
    """The steps of a chain are fused groups of a few distinct structures: each distinct
    loop function is written once, and the kernel's text is the one written group by
    group."""
    from funcgrad.jit import outline
    x = np.linspace(-1.0, 1.0, 64)
    written = []
    emit_loop = outline.emit_loop
    monkeypatch.setattr(outline, "emit_loop", lambda *a: written.append(1) or emit_loop(*a))
    jitted = fg.jit(fg.grad(_sin_chain), wait=True)
    lowered = jitted.lower(x).executable.lowered
    text, calls = lowered.as_text(), lowered.as_text().count("_loop")
    assert len(written) == len(lowered.loop_sources) < calls
    monkeypatch.setattr(outline, "_frozen", lambda value: None)  # (no group is shared)
    fresh = fg.jit(fg.grad(_sin_chain), wait=True).lower(x).executable.lowered
    assert len(written) > 2 * len(lowered.loop_sources)
    assert fresh.as_text() == text


def test_groups_differing_only_in_the_sign_of_a_zero_have_their_own_loops(monkeypatch):
    """``y + 0.0`` and ``y + -0.0`` differ for ``y = -0.0``: such groups are not shared."""
    from funcgrad.jit import lower
    monkeypatch.setattr(lower, "OUTLINE_MIN_EQNS", 8)
    monkeypatch.setattr(lower, "MAX_FUSED_MATH", 4)

    def f(x):
        y = x
        for k in range(12):  # (4 steps a loop: the last two differ in the zero only)
            y = np.sin(y) * 0.5 + (-0.0 if k < 8 else 0.0)
        return y

    x = np.array([-0.0, 0.0, 0.5, -0.25] * 16)
    jitted = fg.jit(f, wait=True)
    assert jitted.lower(x).as_text().count("def loop(") == 3
    want = f(x)
    assert jitted(x).tobytes() == want.tobytes() and not np.signbit(want[0])


def test_the_traced_graph_is_the_cached_trace_until_the_cache_is_cleared():
    f, traces = _jitted_and_its_traces()
    x = np.linspace(0.0, 1.0, 3)
    assert [e.prim.name for e in f.graph(x).eqns] == ["sin", "multiply"]
    assert_tree_close(f(x), np.sin(x) * 2.0)
    assert len(traces) == 1  # the call reused the trace graph() made
    f.clear_cache()
    assert_tree_close(f(x), np.sin(x) * 2.0)
    assert len(traces) == 2


def test_lower_traces_again_after_an_array_it_reads_changed():
    params = {"w": np.array([1.0, 2.0])}
    jitted = fg.jit(lambda x: x * params["w"])
    jitted(np.ones(2))
    params["w"] = np.array([3.0, 4.0])  # (rebound: the old trace holds the old array)
    lowered = jitted.lower(np.ones(2))
    assert lowered.executable(np.ones(2))[0].tolist() == [3.0, 4.0]


def test_checking_the_arrays_a_function_reads_compares_bits_without_allocating():
    """Every call compares the arrays a jitted function closes over with their values at
    trace time (W6's 200x200 A): bit for bit (a signed zero differs, a NaN equals itself),
    and without the bool array ``np.array_equal`` writes (its speed against NumPy's is in
    the benchmarks, not here)."""
    import tracemalloc
    from funcgrad.jit.watch import same_bits
    a = np.random.default_rng(0).normal(size=(512, 512))
    b = a.copy()
    assert same_bits(a, b)
    b[-1, -1] = -b[-1, -1]
    assert not same_bits(a, b)
    b[-1, -1] = a[-1, -1]
    assert not same_bits(np.array([0.0]), np.array([-0.0]))
    assert same_bits(np.array([np.nan]), np.array([np.nan]))
    tracemalloc.start()
    try:
        assert same_bits(a, b)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < a.size // 8  # (np.array_equal's bool array alone is a.size bytes)


def test_results_of_tuples_lists_and_dicts_are_rebuilt_by_a_written_out_function():
    """The fast path rebuilds a result such as W3's ``(loss, {"W1": ..., ...})`` with a
    function written for its structure (same result as funcgrad.tree.unflatten); other
    nodes (an OrderedDict, a namedtuple) keep tree.unflatten."""
    from collections import OrderedDict, namedtuple
    from funcgrad import tree
    from funcgrad.jit.call import _builder
    Point = namedtuple("Point", "x y")
    for value in [(1.0, {"W1": 2.0, "b": [3.0, (4.0,)]}), [5.0], {1: 6.0, 0: (7.0, 8.0)},
                  ((), 9.0)]:
        leaves, treedef = tree.flatten(value)
        rebuilt, want = _builder(treedef)(list(leaves)), tree.unflatten(treedef, leaves)
        assert rebuilt == want == value
        assert list(rebuilt) == list(want)  # (dicts: the same, sorted, key order)
    for value in [OrderedDict(a=1.0), Point(1.0, 2.0)]:
        assert _builder(tree.flatten(value)[1]) is None
    p = {"w": np.ones(3), "b": np.zeros(2)}
    jitted = fg.jit(lambda p, x: (np.sum(x), {"w": p["w"] * x, "b": p["b"]}))
    for _ in range(2):  # (the second call takes the fast path)
        out = jitted(p, np.full(3, 2.0))
        assert out[0] == 6.0 and out[1]["w"].tolist() == [2.0] * 3 and list(out[1]) == ["b", "w"]


def test_static_arguments_by_position_and_name():
    def power_sum(x, n, mode="sum"):
        y = x
        for _ in range(n):  # a Python loop on a static value
            y = y * x
        return np.sum(y) if mode == "sum" else np.max(y)

    x = np.array([1.0, 2.0, 3.0])
    f = fg.jit(power_sum, static_argnums=1, static_argnames="mode")
    assert f(x, 2) == power_sum(x, 2)
    assert f(x, 3) == power_sum(x, 3)
    assert f(x, 3, mode="max") == power_sum(x, 3, mode="max")
    assert fg.jit(power_sum, static_argnames="n")(x, n=1) == power_sum(x, 1)
    with pytest.raises(TypeError, match="not hashable"):
        fg.jit(lambda x, shape: x, static_argnums=1)(x, [1, 2])


def test_jax_donation_and_inlining_hints_are_accepted_and_change_nothing():
    x = np.array([1.0, 2.0, 3.0])
    f = fg.jit(lambda a, b: a * 2.0 + b, donate_argnums=(0,), donate_argnames="b",
               keep_unused=True, inline=True)
    np.testing.assert_array_equal(f(x, 1.0), [3.0, 5.0, 7.0])
    np.testing.assert_array_equal(x, [1.0, 2.0, 3.0])  # nothing donated: the input is intact
    g = fg.jit(donate_argnums=0)(lambda a: a ** 2)  # as a decorator with arguments
    np.testing.assert_array_equal(g(x), [1.0, 4.0, 9.0])
    with pytest.raises(TypeError, match="donate_argnums must be an int"):
        fg.jit(lambda a: a, donate_argnums="a")


def test_static_arguments_equal_in_python_but_of_another_type_or_sign_retrace():
    """1, 1.0 and True are equal (and hash alike) in Python, and so are 0.0 and -0.0, yet
    the traces differ: int32 * 1 is int32, int32 * 1.0 float64 (NumPy's promotion);
    1 / 0.0 is inf, 1 / -0.0 is -inf.  Each keys its own trace."""
    i32 = np.arange(3, dtype=np.int32)
    times = fg.jit(lambda x, n: x * n, static_argnums=1, wait=True)
    assert times(i32, 1).dtype == np.int32
    out = times(i32, 1.0)
    assert out.dtype == np.float64 and out.tolist() == [0.0, 1.0, 2.0]
    assert times(i32, True).dtype == np.int32
    over = fg.jit(lambda x, s: x / s, static_argnums=1, wait=True)
    assert over(np.ones(1), 0.0).tolist() == [np.inf]
    assert over(np.ones(1), -0.0).tolist() == [-np.inf]
    shaped = fg.jit(lambda x, t: x * t[0], static_argnames="t", wait=True)
    assert shaped(np.ones(1), t=(0.0,)).tolist() == [0.0]
    assert str(shaped(np.ones(1), t=(-0.0,))[0]) == "-0.0"


def test_a_negative_static_argnum_counts_from_the_end_of_the_signature():
    """static_argnums=-1 names the last positional parameter, however the call passes
    it: by keyword, or not at all (its default); never the first argument of a short
    call."""
    def scaled(x, n=2):
        return x * n if n > 1 else x  # Python control flow on the static n

    f = fg.jit(scaled, static_argnums=-1, wait=True)
    x = np.ones(2)
    assert f(x, 3).tolist() == [3.0, 3.0]
    assert f(x, n=4).tolist() == [4.0, 4.0]
    assert f(x).tolist() == [2.0, 2.0]
    assert f(x, 1).tolist() == [1.0, 1.0]


def test_value_dependent_if_names_the_line_and_suggests_the_fixes():
    def f(x):
        if np.sum(x) > 0:  # <- the line named
            return x
        return -x

    with pytest.raises(fg.ConcretizationError) as info:
        fg.jit(f)(np.ones(3))
    message = str(info.value)
    assert f"line {f.__code__.co_firstlineno + 1}" in message and "test_jit.py" in message
    assert "static_argnums" in message and "fg.lax.cond" in message


def test_pytrees_keywords_and_python_scalars():
    @fg.jit
    def f(params, x, scale=1.0):
        return {"y": params["w"] * x + params["b"], "n": np.sum(x) * scale}

    params = {"w": np.array([1.0, 2.0]), "b": 0.5}
    out = f(params, np.array([3.0, 4.0]), scale=2.0)
    assert_tree_close(out, {"y": np.array([3.5, 8.5]), "n": np.float64(14.0)})
    assert isinstance(f(params, np.array([1.0, 1.0]))["n"], np.float64)


# --- Python numbers as arguments are weakly typed (NumPy 2's NEP 50, JAX's weak types) -----

X32 = np.array([0.5, -1.25, 2.0], dtype=np.float32)
I32 = np.array([1, -2, 7], dtype=np.int32)


def _scaled(x, s):
    return x * s + s


@pytest.mark.parametrize("x, s", [(X32, 2.5), (I32, 3), (I32, 2.5), (X32, 1 + 2j),
                                  (I32, np.float64(2.5)), (X32, np.array(2.5))])
def test_a_python_number_argument_promotes_as_numpy_promotes_it(x, s):
    """float32 * 2.5 is float32 and int32 * 3 is int32 in NumPy 2, compiled too; numpy
    scalars and 0-d arrays stay strongly typed (float64)."""
    want = _scaled(x, s)  # NumPy's own answer
    got = fg.jit(_scaled, wait=True)(x, s)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_a_python_number_and_a_numpy_scalar_are_different_signatures():
    f = fg.jit(_scaled, wait=True)
    assert f(X32, 2.5).dtype == np.float32
    assert f(X32, np.float64(2.5)).dtype == np.float64
    assert f(X32, 2.5).dtype == np.float32
    assert len(f._cache) == 2


def test_the_dtype_of_a_weak_argument_does_not_change_when_the_compiled_code_takes_over():
    f = fg.jit(lambda x, s: np.sum(np.sin(x * s)) * s, wait=False)
    want = np.sum(np.sin(X32 * 2.5)) * 2.5
    first = f(X32, 2.5)  # evaluated eagerly while it compiles
    assert f.block_until_compiled(timeout=240)
    later = f(X32, 2.5)  # the compiled code (through the fast path on the next call)
    again = f(X32, 2.5)
    assert first.dtype == later.dtype == again.dtype == want.dtype == np.float32
    np.testing.assert_allclose([first, later, again], [want] * 3, rtol=1e-5)


def test_jit_of_grad_with_a_weak_argument_keeps_float32():
    f = fg.jit(fg.value_and_grad(lambda x, s: np.sum(x * x * s)), wait=True)
    value, g = f(X32, 2.5)
    assert value.dtype == g.dtype == np.float32
    np.testing.assert_allclose(g, 2 * 2.5 * X32, rtol=1e-6)
    np.testing.assert_allclose(value, np.sum(X32 * X32 * 2.5), rtol=1e-6)


def test_a_weak_argument_turned_into_an_array_is_strongly_typed_as_in_numpy():
    f = fg.jit(lambda x, s: x * np.sum(s), wait=True)   # np.sum(2.5) is a float64 scalar
    assert f(X32, 2.5).dtype == (X32 * np.sum(2.5)).dtype == np.float64


# Arithmetic between weak values stays weak, as Python's on numbers gives a number: with a
# Python float s, x * (s * 2.0) is float32 for float32 x in NumPy 2.  NumPy's functions make
# a NumPy scalar of a Python number (np.sin(s) is a float64 scalar, strongly typed), and
# funcgrad runs users' NumPy code, so it follows NumPy there; JAX differs (jnp.sin of a weak
# value stays weak: float32).  Each row: NumPy's own result against every transform's.
F32 = np.array([0.1, -1.25, 3.0], np.float32)   # (float32(0.1) == 0.1 in NumPy 2: weak)
C64 = np.array([1 + 1j, 2.0, -0.5j], np.complex64)
I8 = np.array([1, -2, 7], np.int8)
U8 = np.array([100, 2, 255], np.uint8)

WEAK_ROWS = {  # id: (f, x, number, transcendental)
    "s * 2.0": (lambda x, s: x * (s * 2.0), F32, 0.1, False),
    "2.0 * s": (lambda x, s: x * (2.0 * s), F32, 0.1, False),
    "s + 1": (lambda x, s: x * (s + 1), F32, 0.1, False),
    "1 - s": (lambda x, s: x + (1 - s), F32, 0.1, False),
    "-s": (lambda x, s: x * -s, F32, 0.1, False),
    "+s": (lambda x, s: x * +s, F32, 0.1, False),
    "abs(s)": (lambda x, s: x * abs(s - 1.0), F32, 0.1, False),
    "s ** 2": (lambda x, s: x * s ** 2, F32, 0.1, False),
    "2 ** s": (lambda x, s: x * 2 ** s, F32, 0.1, False),
    "s / 3": (lambda x, s: x * (s / 3), F32, 0.1, False),
    "3 / s": (lambda x, s: x * (3 / s), F32, 0.1, False),
    "s // 0.03": (lambda x, s: x * (s // 0.03), F32, 0.1, False),
    "s % 0.03": (lambda x, s: x * (s % 0.03), F32, 0.1, False),
    "s * s - 0.5": (lambda x, s: x * (s * s - 0.5), F32, 0.1, False),
    "s * 1j": (lambda x, s: x + s * 1j, F32, 0.1, False),
    "s.real, (s * 1j).imag": (lambda x, s: x * s.real + (s * 1j).imag, F32, 0.1, False),
    "s.conjugate()": (lambda x, s: x * s.conjugate(), F32, 0.1, False),
    "complex64 * (s * 2)": (lambda x, s: x * (s * 2), C64, 0.1, False),
    "x == s": (lambda x, s: x == s, F32, 0.1, False),
    "x * (s > 0)": (lambda x, s: x * (s > 0), F32, 0.1, False),
    "x <= s + 0.0": (lambda x, s: x <= s + 0.0, F32, 0.1, False),
    "maximum(x, s * 3)": (lambda x, s: np.maximum(x, s * 3), F32, 0.1, False),
    "where(x > 0, x, -s)": (lambda x, s: np.where(x > 0, x, -s), F32, 0.1, False),
    # NumPy's functions: a float64 scalar, strongly typed (JAX: weak, float32)
    "np.sin(s)": (lambda x, s: x * np.sin(s), F32, 0.1, True),
    "np.multiply(s, 2.0)": (lambda x, s: x * np.multiply(s, 2.0), F32, 0.1, False),
    "np.abs(s)": (lambda x, s: x * np.abs(s), F32, 0.1, False),
    "np.float64(2) * s": (lambda x, s: x * (np.float64(2) * s), F32, 0.1, False),
    # Python ints
    "n * 2": (lambda x, n: x * (n * 2), I8, 3, False),
    "n + 1": (lambda x, n: x + (n + 1), I8, 3, False),
    "-n": (lambda x, n: x * -n, I8, 3, False),
    "abs(n)": (lambda x, n: x * abs(n - 5), I8, 3, False),
    "n ** 2": (lambda x, n: x * n ** 2, I8, 3, False),
    "n // 2": (lambda x, n: x * (n // 2), I8, 3, False),
    "n % 2": (lambda x, n: x * (n % 2), I8, 3, False),
    "n / 2": (lambda x, n: x * (n / 2), I8, 3, False),          # a float: int8 -> float64
    "n > 2.5": (lambda x, n: x * (n > 2.5), I8, 3, False),
    "float32 * (n * 2)": (lambda x, n: x * (n * 2), F32, 3, False),
    "float32 * (n * 2.5)": (lambda x, n: x * (n * 2.5), F32, 3, False),
    "np.sin(n)": (lambda x, n: x * np.sin(n), I8, 3, True),
    # a Python int beyond uint8 compared with (or clipping) a uint8 array: exact, no error
    "uint8 < n": (lambda x, n: x < n, U8, 300, False),
    "uint8 == n": (lambda x, n: x == n, U8, -1, False),
    "uint8 < 300 (written in)": (lambda x, n: x < 300, U8, 0, False),
    "clip(uint8, 0, n)": (lambda x, n: np.clip(x, 0, n), U8, 300, False),
}


def _same(got, want, transcendental, what):
    """NumPy's dtype and bits (a few ulps where a compiled C-library sin meets NumPy's)."""
    if transcendental:
        _assert_ulps(got, want, 2, what)
    else:
        assert np.asarray(got).dtype == np.asarray(want).dtype, what
        np.testing.assert_array_equal(got, want, err_msg=what)


@pytest.mark.parametrize("row", list(WEAK_ROWS))
def test_arithmetic_on_weak_arguments_gives_numpys_dtype_and_bits(row):
    f, x, s, transcendental = WEAK_ROWS[row]
    want = f(x, s)  # NumPy's own answer
    _same(fg.jit(f, wait=True)(x, s), want, transcendental, "jit (compiled)")
    graph = fg.make_graph(f)(x, s)  # what jit evaluates eagerly while it compiles
    assert graph.outvars[0].aval.dtype == want.dtype
    _same(graph(x, s), want, False, "the traced graph, evaluated")
    batched = fg.vmap(f, in_axes=(0, None))(np.stack([x, x[::-1]]), s)
    _same(batched[1], f(x[::-1], s), False, "vmap")
    if x.dtype.kind in "fc" and type(s) is float and want.dtype.kind in "fc":
        out, tangent = fg.jvp(f, (x, s), (x, s))
        _same(out, want, False, "jvp")
        assert tangent.dtype == want.dtype, "jvp's tangent"
        _same(fg.vjp(f, x, s)[0], want, False, "vjp")
    if x.dtype.kind == "f" and type(s) is float and want.dtype.kind == "f":
        value, (gx, gs) = fg.value_and_grad(lambda x, s: np.sum(f(x, s)), (0, 1))(x, s)
        _same(value, np.sum(want), False, "value_and_grad")
        assert gx.dtype == x.dtype and type(gs) is np.float64


@pytest.mark.parametrize("row", ["s * 2.0", "-s", "n * 2", "np.sin(s)", "x == s"])
def test_weak_arithmetic_inside_jit_of_vmap_grad_and_jvp(row):
    """The transforms traced inside one compiled function see weak arguments too."""
    f, x, s, transcendental = WEAK_ROWS[row]
    xs = np.stack([x, x[::-1]])
    differentiable = x.dtype.kind == "f" and f(x, s).dtype.kind == "f"

    def everything(x, xs, s):
        out = {"vmap": fg.vmap(f, in_axes=(0, None))(xs, s)}
        if differentiable:
            out["grad"] = fg.value_and_grad(lambda x: np.sum(f(x, s)))(x)
            out["jvp"] = fg.jvp(lambda x: f(x, s), (x,), (x,))
        return out

    got = fg.jit(everything, wait=True)(x, xs, s)
    want = everything(x, xs, s)  # s a Python number here: NumPy's own arithmetic
    for key in want:
        for g, w in zip(tree.leaves(got[key]), tree.leaves(want[key])):
            _same(g, w, transcendental, key)


def test_a_python_float_closed_over_by_jit_inside_grad_and_jvp_stays_weak():
    def scaled(s):  # s: a traced Python float when differentiated
        return fg.jit(lambda x: x * (s * 2.0), wait=True)(F32)

    want = F32 * (0.1 * 2.0)
    value, g = fg.value_and_grad(lambda s: np.sum(scaled(s)))(0.1)
    assert value.dtype == np.float32 and value == np.sum(want)
    np.testing.assert_allclose(g, 2.0 * np.sum(F32.astype(float)), rtol=1e-6)
    out, tangent = fg.jvp(scaled, (0.1,), (1.0,))
    assert out.dtype == tangent.dtype == np.float32
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(tangent, F32 * np.float32(2.0))


def test_vmap_over_the_tangent_of_a_python_float_keeps_the_output_dtype_under_jit():
    f = lambda x, s: x * (s * 2.0)  # noqa: E731
    ts = np.array([1.0, 2.0])
    want = np.stack([F32 * np.float32(0.1 * 2.0) + F32 * np.float32(t * 2.0) for t in ts])
    for g in (f, fg.jit(f, wait=True)):
        got = fg.vmap(lambda t: fg.jvp(g, (F32, 0.1), (F32, t))[1])(ts)
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_a_weak_result_returns_as_a_numpy_scalar_eagerly_and_compiled():
    f = fg.jit(lambda x, s: (x, s, s * 2.0), wait=False)
    first = f(F32, 2.5)  # the traced graph evaluated while it compiles
    assert f.block_until_compiled(timeout=240)
    later = f(F32, 2.5)
    for out in (first, later):
        assert type(out[1]) is type(out[2]) is np.float64
        assert (out[1], out[2]) == (2.5, 5.0)


# --- a Python int beyond the range of the integer array it meets: NumPy 2's OverflowError ----

OVERFLOW_ROWS = {  # id: (f, x, in range, out of range)
    "uint8 + n": (lambda x, n: x + n, U8, 3, 300),
    "uint8 - n": (lambda x, n: x - n, U8, 1, -1),
    "n * int8": (lambda x, n: n * x, I8, 3, -129),
    "maximum(uint8, n)": (lambda x, n: np.maximum(x, n), U8, 3, 300),
    "uint8 ** n": (lambda x, n: x ** n, U8, 2, 300),
    "sum(uint8 * n)": (lambda x, n: np.sum(x * n), U8, 2, 256),
    "uint8 + (n + 1)": (lambda x, n: x + (n + 1), U8, 3, 299),  # computed from n
    "uint8 + -n": (lambda x, n: x + -n, U8, 0, 1),
}


@pytest.mark.parametrize("row", list(OVERFLOW_ROWS))
def test_a_python_int_out_of_an_arrays_range_raises_numpys_overflow_error(row):
    f, x, ok, bad = OVERFLOW_ROWS[row]
    with pytest.raises(OverflowError) as numpy_error:
        f(x, bad)
    message = re.escape(str(numpy_error.value))
    jitted = fg.jit(f, wait=True)
    np.testing.assert_array_equal(jitted(x, ok), f(x, ok))
    for _ in range(2):  # the first and the fast path of a compiled signature
        with pytest.raises(OverflowError, match=message):
            jitted(x, bad)
    np.testing.assert_array_equal(jitted(x, ok), f(x, ok))
    xs = np.stack([x, x])
    for batched in (fg.vmap(f, in_axes=(0, None)), fg.jit(fg.vmap(f, in_axes=(0, None))),
                    fg.vmap(jitted, in_axes=(0, None))):
        with pytest.raises(OverflowError, match=message):
            batched(xs, bad)


def test_an_overflowing_first_call_does_not_stop_jit_from_compiling(recwarn):
    f = fg.jit(lambda x, n: x ** n, wait=False)  # (an int power: NumPy's call, compiled)
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for uint8"):
        f(U8, 300)  # evaluated eagerly: NumPy raises; nothing is queued to compile
    np.testing.assert_array_equal(f(U8, 2), U8 ** 2)
    assert f.block_until_compiled(timeout=240)
    np.testing.assert_array_equal(f(U8, 2), U8 ** 2)
    assert f._cache and all(entry.ready() for entry in f._cache.values())
    assert not [w for w in recwarn if "compiling failed" in str(w.message)]


def test_a_python_int_beyond_int64_is_refused_by_name_or_taken_as_static():
    f = fg.jit(lambda x, n: x * n, wait=True)
    np.testing.assert_array_equal(f(F32, 3), F32 * 3)
    for n in (2 ** 63, 2 ** 70, -2 ** 63 - 1):
        with pytest.raises(OverflowError, match=f"Python integer {n}, beyond the int64.*"
                                                f"float\\(n\\).*static"):
            f(F32, n)
    static = fg.jit(lambda x, n: x * n, static_argnums=1, wait=True)
    np.testing.assert_array_equal(static(F32, 2 ** 70), F32 * 2 ** 70)


def test_repeated_calls_on_pytrees_take_the_fast_path_and_keep_structures_apart():
    """Calls with dicts, lists and tuples of arrays and numbers skip the tree flattening
    once their signature is compiled; the key tells apart what the compiled code must
    (keys, container kinds, sizes, shapes, dtypes, number types), and the leaves reach it
    in flattening order (dict keys sorted, whatever the insertion order)."""
    def f(p, xs):
        total = sum(np.sum(v) * (i + 1) for i, v in enumerate(fg.tree.leaves(xs)))
        return {k: v * total for k, v in p.items()}

    jf = fg.jit(f, wait=True)
    w, b = np.array([1.0, 2.0]), np.array([0.5, -0.5])
    cases = [
        ({"w": w, "b": b}, [np.ones(3), 2.0]),
        ({"b": b, "w": w}, [np.ones(3), 2.0]),  # the same signature: no new trace
        ({"w": w, "c": b}, [np.ones(3), 2.0]),
        ({"w": w, "b": b}, (np.ones(3), 2.0)),
        ({"w": w, "b": b}, [np.ones(3), 2]),
        ({"w": w, "b": b}, [np.ones(4), 2.0]),
        ({"w": w, "b": b}, [np.ones(3, np.float32), 2.0]),
        ({"w": w, "b": b}, [2.0, np.ones(3)]),
        ({"w": w, "b": b}, [np.ones(3), [2.0]]),
    ]
    for p, xs in cases:
        want = f(p, xs)
        for _ in range(3):
            got = jf(p, xs)
            assert got.keys() == want.keys()
            for k in want:
                assert got[k].dtype == want[k].dtype
                np.testing.assert_allclose(got[k], want[k], rtol=1e-14)
    assert len(jf._fast) == len(cases) - 1, "one fast entry per distinct signature"
    assert len(jf._cache) == len(cases) - 1, "one trace per distinct signature"


# --- composition with the other transforms ------------------------------------------------

F = lambda x: np.sum(np.sin(x) * np.exp(-x * x)) + np.cos(x[0]) * x[1]  # noqa: E731
XS = np.array([0.3, -0.7, 1.1])


@pytest.mark.parametrize("name, transform", [
    ("grad(jit)", lambda f: fg.grad(fg.jit(f))),
    ("jit(grad)", lambda f: fg.jit(fg.grad(f))),
    ("jvp(jit)", lambda f: lambda x: fg.jvp(fg.jit(f), (x,), (np.ones_like(x),))),
    ("hessian(jit)", lambda f: fg.hessian(fg.jit(f))),
    ("jit(hessian)", lambda f: fg.jit(fg.hessian(f))),
    ("vmap(grad(jit))", lambda f: lambda x: fg.vmap(fg.grad(fg.jit(f)))(np.stack([x, -x]))),
    ("jit(jit)", lambda f: fg.jit(lambda x: fg.jit(f)(x) * 2.0)),
])
def test_jit_composes_with_transforms(name, transform):
    eager = {"grad(jit)": fg.grad(F), "jit(grad)": fg.grad(F),
             "jvp(jit)": lambda x: fg.jvp(F, (x,), (np.ones_like(x),)),
             "hessian(jit)": fg.hessian(F), "jit(hessian)": fg.hessian(F),
             "vmap(grad(jit))": lambda x: fg.vmap(fg.grad(F))(np.stack([x, -x])),
             "jit(jit)": lambda x: F(x) * 2.0}[name]
    assert_tree_close(transform(F)(XS), eager(XS), what=name)


def test_vmap_of_jit_with_in_axes():
    f = fg.jit(lambda w, x: np.tanh(w @ x))
    w = np.arange(6.0).reshape(2, 3) / 6
    xs = np.linspace(-1, 1, 12).reshape(4, 3)
    assert_tree_close(fg.vmap(f, in_axes=(None, 0))(w, xs), np.tanh(xs @ w.T))


def test_closed_over_tracers_become_inputs():
    # The jitted function closes over y, a tracer of the enclosing grad.
    dfdy = fg.grad(lambda y: fg.jit(lambda z: np.sum(np.sin(z * y)))(np.array([1.0, 2.0])))
    assert_tree_close(dfdy(0.5), np.float64(np.cos(0.5) + 2 * np.cos(1.0)))


def test_perturbations_stay_apart_through_jit():
    f = fg.jit(lambda x: x * fg.grad(lambda y: x + y)(1.0))
    assert fg.grad(lambda x: f(x))(2.0) == 1.0


def test_nested_jit_and_custom_rules_compile_into_the_callers_kernel():
    @fg.custom_jvp
    def twice_sin(x):
        return np.sin(x) * 2.0

    @twice_sin.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return twice_sin(x), 2.0 * np.cos(x) * t

    inner = fg.jit(lambda x: np.exp(x))
    f = fg.jit(lambda x: twice_sin(x) + inner(x) * 3.0)
    x = np.linspace(0.0, 1.0, 5)
    assert [e.prim.name for e in f.graph(x).eqns][:2] == ["custom_call", "jit_call"]
    text = f.lower(x).as_text()
    assert "driver" not in text and "impl_" not in text  # one kernel, no Python calls
    assert_tree_close(f(x), np.sin(x) * 2.0 + np.exp(x) * 3.0)


# --- what the kernels compute: fallbacks, special values, exact reductions ---------------------

def test_unsupported_primitives_fall_back_to_their_implementations():
    a = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    b = np.array([1.0, -1.0, 0.5])

    def f(a, b):
        return np.sin(np.linalg.solve(a, b)) * 2.0, fnp.einsum("ij,jk->ik", a, a)[1:, ::2]

    jf = fg.jit(f)
    assert_tree_close(jf(a, b), f(a, b))
    text = jf.lower(a, b).as_text()
    assert "impl_solve" in text and "impl_einsum" in text and "@njit" in text
    assert_tree_close(fg.jit(fg.grad(lambda a: np.sum(f(a, b)[0])))(a),
                      fg.grad(lambda a: np.sum(f(a, b)[0]))(a))


def _float32_everywhere(n=3000, seed=5):
    """float32 values over the whole range: random bit patterns (subnormals, NaNs with
    payloads, both infinities), exp2's edges (128: overflow; -149: the last subnormal)."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return np.concatenate([bits, rng.uniform(-160, 140, n).astype(np.float32), np.float32([
        0.0, -0.0, 1e-45, -1e-45, 1.1754942e-38, 3.4028235e38, -3.4028235e38, np.inf,
        -np.inf, np.nan, 127.99999, 128.0, -149.0, -149.5, -150.0, -151.0, 0.5, -0.5])])


def test_exp2_of_float32_and_float64_in_one_kernel_compiles_with_the_eager_bits():
    """Numba 0.68 declares ``llvm.exp2`` without its type suffix, so a kernel calling
    ``np.exp2`` on a float32 and on a float64 failed to compile, and the function ran
    eagerly (``fnp.frexp`` of float32 scales by ``exp2`` of float32 exponents,
    ``fnp.ldexp`` by ``exp2`` of float64 ones).  The kernels' exp2 leaf declares it per
    type; ``wait=True`` raises if compiling fails."""
    # (the kernels' exp2 is the C library's, as NumPy's is except where NumPy dispatches it
    # to AVX-512 (SVML) loops: there the jit's float32 exp2 may differ from eager's by a few
    # float32 ulps, as lower.py allows for transcendental functions)
    exact = numpy_exp2_is_c_library()

    def same(got, want):
        assert got.dtype == want.dtype
        if exact:
            return got.tobytes() == want.tobytes()
        finite = np.isfinite(want)
        np.testing.assert_array_equal(np.isfinite(got), finite)
        np.testing.assert_array_equal(got[~finite], want[~finite])
        np.testing.assert_allclose(got[finite], want[finite], rtol=8 * np.finfo(np.float32).eps,
                                   atol=0)
        return True
    x = _float32_everywhere()
    functions = {
        "ldexp(*frexp(x))": lambda x: fnp.ldexp(*fnp.frexp(x)),
        "exp2 of both": lambda x: fnp.exp2(x) * 0.5 + fnp.exp2(x.astype(np.float64) * 0.25),
        "spacing": fnp.spacing}
    for name, f in functions.items():
        jitted = fg.jit(f, wait=True)
        with np.errstate(all="ignore"):
            got, want = jitted(x), f(x)
        assert "_lf.exp2" in jitted.lower(x).as_text(), name  # in the compiled kernel
        assert same(got, want), name
    finite = x[np.isfinite(x) & (np.abs(x) < 100)]
    np.testing.assert_array_equal(fg.jit(lambda x: fnp.ldexp(*fnp.frexp(x)), wait=True)(finite),
                                  finite)

    def loss(x):
        return np.sum(fnp.exp2(x * 0.1) * fnp.exp2(x.astype(np.float64) * 0.05))
    grad = fg.jit(fg.grad(loss), wait=True)
    assert grad(finite).dtype == np.float32
    assert same(grad(finite), fg.grad(loss)(finite))


def test_gradient_through_complex_abs_divides_in_the_real_kernel():
    # d|z| = Re(conj(z) dz) / |z|: the cotangent over |z| is a real division, fused into
    # a kernel with |z|, conj(z) and the complex product (jit/complexloop.py; W8): no
    # complex-by-real division, and NumPy is left the FFTs and the casts around them.
    x = np.random.default_rng(0).standard_normal(64)
    f = fg.grad(lambda x: fnp.sum(fnp.abs(fnp.fft.fft(x)) ** 2))
    jf = fg.jit(f)
    got = jf(x)
    np.testing.assert_array_equal(got, f(x))  # the same bits as eager
    np.testing.assert_allclose(got, 2 * x.size * x, rtol=1e-12)  # Parseval: 2 n x
    text = jf.lower(x).as_text()
    driver = text[text.index("def run("):]
    assert not re.search(r"impl_(divide|multiply|abs|conj)", text), driver
    assert re.search(r"fused: .*divide", text), text
    # at z = 0 the factor is 0, not NaN
    z = fg.grad(lambda x: fnp.sum(fnp.abs(fnp.fft.fft(x))))(np.zeros(4))
    np.testing.assert_array_equal(fg.jit(fg.grad(lambda x: fnp.sum(fnp.abs(fnp.fft.fft(x)))))(
        np.zeros(4)), z)
    assert not np.any(np.isnan(z))


UNARY = ["negative", "abs", "sign", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
         "sqrt", "cbrt", "square", "reciprocal", "sin", "cos", "tan", "arcsin", "arccos",
         "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil",
         "rint", "trunc", "isnan", "isinf", "isfinite"]
BINARY = ["add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "fmax", "fmin",
          "arctan2", "hypot", "logaddexp", "logaddexp2", "mod", "equal", "less", "greater_equal"]
SPECIAL = np.array([0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -3.0, 1e-310, 1e300, -1e300, np.inf,
                    -np.inf, np.nan, 7.25, 1.5])


def _assert_ulps(got, want, ulps, what):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, what
    if want.dtype.kind != "f":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=what)
    ok = ~np.isnan(want)
    spacing = np.abs(np.spacing(np.where(np.isfinite(want), want, 0).astype(want.dtype)))
    diff = np.abs(np.where(ok, got, 0) - np.where(ok, want, 0))
    same_inf = np.where(ok & ~np.isfinite(want), got == want, True)
    assert np.all(same_inf) and np.all(diff[np.isfinite(want)] <= ulps * spacing[
        np.isfinite(want)]), f"{what}: {got} vs {want}"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_elementwise_primitives_on_special_values(dtype):
    x = SPECIAL.astype(dtype)
    y = np.roll(SPECIAL, 3).astype(dtype)

    def everything(x, y):
        return ([getattr(fnp, name)(x) for name in UNARY]
                + [getattr(fnp, name)(x, y) for name in BINARY]
                + [fnp.where(x > y, x, y), fnp.clip(x, -1.0, 2.0), x.astype(np.int64)[:8]])

    with np.errstate(all="ignore"):
        want = everything(x, y)
        got = fg.jit(everything)(x, y)
    names = UNARY + BINARY + ["where", "clip", "astype"]
    for name, g, w in zip(names, got, want):
        # Transcendental functions: the C library against NumPy's SIMD loops.
        _assert_ulps(g, w, 4 if dtype == np.float32 else 2, f"{name} ({np.dtype(dtype)})")


def test_vector_math_accuracy():
    """The vectorisable exp, log, log1p, sin, cos, tanh of the kernels (funcgrad.jit.vmath)
    against NumPy's, in ulps, over wide ranges; float32 is computed in float64 and rounded."""
    rng = np.random.default_rng(3)
    n = 20_000
    wide = np.concatenate([rng.uniform(-30, 30, n), rng.uniform(-1e-3, 1e-3, n),
                           rng.uniform(-8e5, 8e5, n)])
    positive = np.exp(rng.uniform(-700, 700, 3 * n))
    cases = {"exp": (np.exp, np.clip(wide, -745, 709), 1), "log": (np.log, positive, 1),
             "log1p": (np.log1p, np.abs(wide) - 0.999, 2), "sin": (np.sin, wide, 1),
             "cos": (np.cos, wide, 1), "tanh": (np.tanh, wide, 2)}
    f = fg.jit(lambda *xs: [fn(x) for (fn, _, _), x in zip(cases.values(), xs)])
    for dtype in (np.float64, np.float32):
        args = [x.astype(dtype) for _, x, _ in cases.values()]
        with np.errstate(all="ignore"):
            got = f(*args)
        for (name, (fn, _, ulps)), x, g in zip(cases.items(), args, got):
            with np.errstate(all="ignore"):
                want = fn(x)
            _assert_ulps(g, want, ulps + (1 if dtype == np.float32 else 0), f"{name} {dtype}")
    assert "_vm.sin" in f.lower(*args).as_text()


def test_sin_and_cos_of_huge_and_non_finite_arguments():
    x = np.concatenate([np.linspace(-3, 3, 100), [1e6, -3e7, 1e300, np.inf, -np.inf, np.nan]])
    f = fg.jit(lambda x: (np.sin(x), np.cos(x * 1.0)))
    with np.errstate(all="ignore"):
        for g, w in zip(f(x), (np.sin(x), np.cos(x))):
            _assert_ulps(g, w, 1, "sin/cos")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sums_are_bit_for_bit_numpy(dtype):
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((5, 300)) * 10 ** rng.uniform(-3, 3, (5, 300))).astype(dtype)
    big = rng.standard_normal(5000).astype(dtype)

    def sums(x, big):
        return (np.sum(x), np.sum(x, axis=1), np.sum(x, axis=0), np.sum(x, axis=1, keepdims=True),
                np.sum(big), np.mean(x, axis=1), np.max(x, axis=0), np.min(x))

    for g, w in zip(fg.jit(sums)(x, big), sums(x, big)):
        assert g.dtype == w.dtype and g.shape == w.shape
        assert np.asarray(g).tobytes() == np.asarray(w).tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_row_sums_of_short_rows_are_numpys(dtype):
    """The helper that sums rows of at most 128 terms (softmax's denominators) has
    ``np.sum(x, axis=-1)``'s bits at every width: below 8 terms, at and past each
    multiple of 8, rows of -0.0."""
    from funcgrad.jit import runtime
    rng = np.random.default_rng(3)
    zero = dtype(0)
    for r in list(range(1, 20)) + [31, 32, 33, 63, 64, 100, 127, 128]:
        x = (rng.standard_normal((9, r)) * 10 ** rng.uniform(-4, 4, (9, r))).astype(dtype)
        x[0] = -0.0
        got = runtime.sum_rows_leaf(x, zero)
        assert got.dtype == dtype and got.tobytes() == np.sum(x, axis=-1).tobytes(), r


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [129, 1000, 4099, 100_003])
def test_sums_fused_with_their_producer_keep_numpys_bits(n, dtype):
    """sum(elementwise chain) is accumulated by the chain's own loop (no array of the
    terms), leaf by leaf of NumPy's pairwise summation: the same bits as np.sum."""
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(n) * 10 ** rng.uniform(-3, 3, n)).astype(dtype)
    w = rng.standard_normal((3, n)).astype(dtype)  # broadcast against x: not fused

    def f(x, w):  # correctly rounded operations only: the terms have NumPy's bits too
        y = (x * 0.5 + x * x) * (x - 3.0) / (1.0 + np.abs(x))
        return np.sum(y * 0.5), np.sum(x * x - 1.0), np.sum(w * y), y[:3]

    got, want = fg.jit(f)(x, w), f(x, w)
    for g, e in zip(got, want):
        assert g.dtype == e.dtype and np.asarray(g).tobytes() == np.asarray(e).tobytes()
    text = fg.jit(f).lower(x, w).as_text()
    assert text.count("_rt.leaf_plan") == 2  # the two sums over x's shape are fused
    assert text.count("_rt.sum_all") == 1  # the broadcast one sums a materialised array



@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape, axes, keepdims", [((64, 300), 0, False),
                                                   ((4, 5, 300), (0, 1), True)])
@pytest.mark.parametrize("terms_returned", [True, False])
def test_sums_over_leading_axes_are_added_up_in_the_loop_making_their_rows(
        shape, axes, keepdims, dtype, terms_returned):
    """A bias's gradient (the sum over the batch of tanh's VJP) is accumulated row by row
    in the loop computing its terms, in NumPy's order (each row added into the running
    result): np.sum's bits, and no second pass over the terms.  Where the terms are a
    result too, each row is added from the row just written, in a loop of its own."""
    rng = np.random.default_rng(7)
    g, h = ((rng.standard_normal(shape) * 10 ** rng.uniform(-3, 3, shape)).astype(dtype)
            for _ in range(2))

    def f(g, h):  # correctly rounded operations only: the terms have NumPy's bits too
        d = g * (1.0 - h * h)
        total = np.sum(d, axis=axes, keepdims=keepdims)
        return (d, total) if terms_returned else total

    got, want = fg.jit(f, wait=True)(g, h), f(g, h)
    for a, e in zip(*((got, want) if terms_returned else ((got,), (want,)))):
        assert a.dtype == e.dtype and a.shape == e.shape and a.tobytes() == e.tobytes()
    text = fg.jit(f).lower(g, h).as_text()
    assert "_rt.sum_leading" not in text and "] += " in text
    inner = f"i{len(shape) - 1}"
    # the row is added by a loop of its own exactly when it is also written out
    assert text.count(f"for {inner} in range(") == (2 if terms_returned else 1)


def test_a_leading_sum_of_a_loop_with_trig_is_summed_after_it():
    """(A loop with sin may run twice, the second time with the C library: its rows would
    be added twice, so such a sum reads the materialised terms.)"""
    x = np.linspace(-3.0, 3.0, 64 * 40).reshape(64, 40)

    def f(x):
        return np.sum(np.sin(x) * x, axis=0)
    got = fg.jit(f, wait=True)(x)
    assert np.allclose(got, f(x), rtol=1e-14, atol=1e-14)
    assert "_rt.sum_leading" in fg.jit(f).lower(x).as_text()

def test_values_read_only_after_a_blas_call_are_computed_in_the_kernel_that_reads_them():
    """An MLP's gradient: ``1 - h * h`` (tanh's VJP) and the cotangent of the mean are
    read only after matrix products, so they are computed in the loops that read them,
    not in kernels of their own scheduled as early as their inputs allow."""
    rng = np.random.default_rng(0)
    f32 = lambda *shape: (rng.standard_normal(shape) / 8).astype(np.float32)  # noqa: E731
    # products large enough to be BLAS calls between kernels, tanh a NumPy call
    p = {"W1": f32(80, 64), "b1": f32(64), "W2": f32(64, 64)}
    x, y = f32(64, 80), np.eye(64, dtype=np.float32)[rng.integers(0, 64, 64)]

    def loss(p, x, y):
        h = np.tanh(x @ p["W1"] + p["b1"])
        z = h @ p["W2"]
        return np.mean(fnp.logsumexp(z, axis=1) - np.sum(z * y, axis=1))

    jitted = fg.jit(fg.value_and_grad(loss))
    assert_tree_close(jitted(p, x, y), fg.value_and_grad(loss)(p, x, y), rtol=1e-5)
    text = jitted.lower(p, x, y).as_text()
    # between the NumPy calls (x @ W1, tanh, h @ W2, exp, dz @ W2.T, h.T @ dz, x.T @ dh):
    # the bias add; the shift of exp; the loss and softmax; dh * (1 - h * h) and its sum
    # (scheduled as early as possible, 6: also the mean's cotangent, and 1 - h * h alone)
    assert text.count("@njit") == 4, text
    assert "fused: square, subtract, multiply over (64, 64,)" in text
    assert "fused: square, subtract over" not in text


def test_a_numpy_ufunc_between_kernels_is_called_directly():
    """The driver calls np.matmul / np.tanh themselves between kernels, not through a
    wrapper that rebuilds their argument list on every call."""
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(80, 90)), rng.normal(size=(90, 70))
    jitted = fg.jit(lambda a, b: np.sin(a @ b) * 2.0)
    np.testing.assert_allclose(jitted(a, b), np.sin(a @ b) * 2.0, rtol=1e-13)
    lowered = jitted.lower(a, b).executable.lowered
    assert list(lowered.python_calls.values()) == [np.matmul]
    assert "# _py0: impl_matmul" in lowered.as_text()


def test_at_updates_and_slice_gradients_stay_in_one_kernel():
    def f(x):
        y = fnp.at(x)[1:4].set(np.sin(x[2:5]))
        z = fnp.at(y)[::2].add(2.0)
        return np.sum(fnp.at(z)[3].add(x[0] * 5) * np.cos(x))

    x = np.linspace(-1, 1, 7)
    assert_tree_close(fg.jit(f)(x), f(x))
    assert_tree_close(fg.jit(fg.grad(f))(x), fg.grad(f)(x))
    rosen = lambda x: np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)  # noqa
    h = fg.jit(fg.hessian(rosen))
    assert_tree_close(h(x), fg.hessian(rosen)(x))
    assert "driver" not in h.lower(x).as_text()  # the scatter-adds of x[1:] are in the kernel


def test_band_constants_are_computed_from_the_loop_indices():
    """jacfwd's basis (shifted identities, after slicing) is not read from memory: the
    loop computes it from its indices; results keep the eager bits.  Constants that are
    not exactly a band (a -0.0 elsewhere, two values) are still read."""
    rosen = lambda x: np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)  # noqa
    x = np.linspace(-1, 1, 64)
    h = fg.jit(fg.hessian(rosen))
    assert h(x).tobytes() == fg.hessian(rosen)(x).tobytes()
    text = h.lower(x).as_text()
    assert "i1 - i0 == -1" in text and not re.search(r"const\d+\[", text)  # nothing loaded

    not_band = np.eye(40)
    not_band[3, 5] = -0.0
    two_values = np.eye(40)
    two_values[7, 7] = 3.0
    for c in (not_band, two_values):
        f = fg.jit(lambda y, c=c: 1.0 / (y * c + 0.0 * y - 0.0))
        y = np.linspace(1, 2, 40)[:, None] * np.ones((40, 40))
        with np.errstate(divide="ignore"):
            assert f(y).tobytes() == (1.0 / (y * c + 0.0 * y - 0.0)).tobytes()


def test_jacrev_through_a_matrix_product_scales_rows_instead_of_a_gemm():
    """jacrev of tanh(A @ x) multiplies A by the basis scaled by tanh's derivative, a
    diagonal matrix: computed as a scaling of A's rows (no second BLAS call, no copies
    for the reshapes around the batched product), with the GEMM's bits; an infinite
    entry of A gives NaN only where 0 * inf is in the Jacobian, not down its column."""
    rng = np.random.default_rng(6)
    A = rng.normal(size=(64, 64)) / 8
    x = rng.normal(size=64)
    f = lambda x: np.tanh(A @ x)  # noqa: E731
    jitted = fg.jit(fg.jacrev(f))
    got = jitted(x)
    t = np.tanh(A @ x)
    np.testing.assert_allclose(got, (1 - t * t)[:, None] * A, rtol=1e-13)
    text = jitted.lower(x).as_text()
    assert text.count("impl_matmul") == 1 and "transpose" not in text, text
    A[3, 5] = np.inf  # row 3 of A @ x is infinite: tanh' is 0 there
    with np.errstate(invalid="ignore"):
        got = fg.jit(fg.jacrev(lambda x: np.tanh(A @ x)))(x)
    assert np.isnan(got[3, 5]) and np.isnan(got).sum() == 1
    assert np.all(got[3, np.arange(64) != 5] == 0)


def test_a_loop_of_vector_maths_over_a_short_last_axis_runs_flat(monkeypatch):
    """exp(z - max(z)) over 128 rows of 10 (W3's softmax): nested loops leave LLVM an
    inner loop too short for its vector body, so the row maxima are copied to the
    loop's shape and the loop runs flat (4x faster), with the same bits."""
    from funcgrad.jit import fusion
    z = np.random.default_rng(3).normal(size=(128, 10))

    def f(z):
        return np.exp(z - np.max(z, axis=1, keepdims=True)) * 0.5

    jitted = fg.jit(f)
    got = jitted(z)
    np.testing.assert_allclose(got, f(z), rtol=1e-15)
    text = jitted.lower(z).as_text()
    assert "np.empty(1280, np.float64)" in text and "for i1 in range(10):" in text, text
    monkeypatch.setattr(fusion, "NARROW", 0)
    nested = fg.jit(lambda z: f(z))
    assert "np.empty(1280, np.float64)" not in nested.lower(z).as_text()
    assert nested(z).tobytes() == got.tobytes()


def test_padding_scatters_fuse_into_their_consumer_loop():
    """zeros.at[window].add(u) / .set(u) (the VJP of slicing) feeding elementwise work is
    computed inside the consumer's loop, not written as a padded array; same bits."""
    def f(u, w):
        z = np.zeros((6, 7))
        a = fnp.at(z)[1:5, 2:6].add(u)
        b = fnp.at(z + 1.5)[0:4, 3:7].set(w)
        return a * 2.0 + b - np.ones((6, 7))

    u = np.linspace(-1, 1, 16).reshape(4, 4)
    u[0, 0] = -0.0  # 0.0 + -0.0 is +0.0, as in the eager scatter-add
    w = np.linspace(2, 3, 16).reshape(4, 4)
    got, want = fg.jit(f)(u, w), f(u, w)
    assert got.tobytes() == want.tobytes()
    text = fg.jit(f).lower(u, w).as_text()
    assert "1 <= i0 < 5 and 2 <= i1 < 6" in text and "+=" not in text
    g = fg.jit(fg.grad(lambda u, w: np.sum(f(u, w) ** 2), argnums=(0, 1)))
    for a, b in zip(g(u, w), fg.grad(lambda u, w: np.sum(f(u, w) ** 2), argnums=(0, 1))(u, w)):
        np.testing.assert_allclose(a, b, rtol=1e-14)


def test_a_pad_of_broadcast_scalars_compiles():
    """A scalar broadcast into a window of another broadcast scalar (jvp of vjp of slicing
    at a zero tangent) is not one scalar: its lowering raised AttributeError, and inside
    a jit's backward pass the call failed."""
    def f(c):
        base = fnp.broadcast_to(c * 0.5, (5,))
        return fnp.sin(fnp.at(base)[2:4].add(fnp.broadcast_to(c, (2,)))) * 2.0

    inner = np.array([0.75, 0.75, 2.25, 2.25, 0.75])
    np.testing.assert_allclose(fg.jit(f, wait=True)(1.5), 2.0 * np.sin(inner), rtol=1e-15)
    # d/dc: 2 cos(...) (0.5 outside the window, 1.5 inside)
    slope = 2.0 * np.cos(inner) * np.array([0.5, 0.5, 1.5, 1.5, 0.5])
    np.testing.assert_allclose(fg.jvp(fg.jit(f, wait=True), (1.5,), (1.0,))[1], slope, rtol=1e-14)
    np.testing.assert_allclose(fg.vjp(fg.jit(f, wait=True), 1.5)[1](np.ones(5))[0], slope.sum(),
                               rtol=1e-14)


def test_a_pad_whose_updates_come_from_its_own_loop():
    """The gradient of ``x.at[i].min(c)`` pads a value computed elementwise from x, in a
    loop of the pad's shape: the pad reads it at shifted indices, so it is written before
    the loop (the fused loop looked it up among its inputs: KeyError at compile time)."""
    def f(x):
        return fnp.sum(fnp.abs(x)) + fnp.sum(fnp.at(x)[1:3].min(0.75))

    for x in (np.array([1.1, -2.0, 0.3, 0.1]), np.array([0.5, 0.9, 0.8, -0.1])):
        got = fg.jit(fg.grad(f), wait=True)(x)
        want = fg.grad(f)(x)
        assert got.tobytes() == want.tobytes()
    x = np.array([1.13696169])
    whole = fg.jit(fg.grad(lambda x: fnp.sum(fnp.at(x)[()].min(0.75)) + fnp.sum(x)), wait=True)
    np.testing.assert_array_equal(whole(x), [1.0])


def test_integer_and_boolean_values_and_index_arrays():
    def f(x, idx, mask):
        picked = x[idx] * 2.0
        count = np.sum(mask.astype(np.int64))
        return picked + count, np.where(mask, x, 0.0), (idx + 1) * 3

    x = np.linspace(0, 1, 5)
    idx = np.array([4, 0, 0])
    mask = x > 0.3
    assert_tree_close(fg.jit(f)(x, idx, mask), f(x, idx, mask))


@pytest.mark.parametrize("threads", [1, 2])
def test_large_loops_run_in_parallel_and_agree(threads):
    x = np.linspace(-3, 3, 200_000)
    before = fg.get_num_threads()
    fg.set_num_threads(threads)  # (capped at the CPUs Numba may use)
    try:
        f = fg.jit(fg.grad(lambda x: np.sum(np.exp(np.sin(x)) * np.cos(x) ** 2
                                            + np.sqrt(1 + x * x))))
        assert ("in prange(" in f.lower(x).as_text()) == (fg.get_num_threads() > 1)
        got = f(x)
    finally:
        fg.set_num_threads(before)
    assert_tree_close(got, fg.grad(lambda x: np.sum(np.exp(np.sin(x)) * np.cos(x) ** 2
                                                    + np.sqrt(1 + x * x)))(x))


# --- layering ----------------------------------------------------------------------------------

def test_every_primitive_a_kernel_accepts_has_a_lowering():
    from funcgrad.jit import block, lowerable
    assert set(lowerable.LOWERABLE) == set(block.LOWERINGS)


@pytest.mark.parametrize("first", ["funcgrad.lax", "funcgrad.jit.passes", "funcgrad.jit.lower",
                                   "funcgrad.jit"])
def test_jit_and_lax_import_in_either_order(first):
    """fg.lax is built on jit's graph tools (trace, passes, derive) and jit lowers lax's
    primitives: whichever a program imports first, both load."""
    code = f"import {first}, funcgrad.lax, funcgrad.jit.lower; import funcgrad; funcgrad.jit(abs)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=240, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]


# --- the on-disk cache ---------------------------------------------------------------------------

_CHILD = textwrap.dedent("""
    import json, time
    t0 = time.perf_counter()
    import numpy as np, funcgrad as fg

    def w1(x):
        return np.sum(np.sin(x) * np.cos(x) + np.exp(-x * x) + np.log1p(x * x)
                      + np.tanh(x) / (1 + x * x))

    x = np.linspace(-1.3, 1.4, 16)
    t1 = time.perf_counter()
    f = fg.jit(fg.grad(w1))
    out = f(x)
    t2 = time.perf_counter()
    kernel = f.lower(x).executable.run
    print(json.dumps({"first_call_s": t2 - t1, "import_s": t1 - t0,
                      "hits": sum(kernel.stats.cache_hits.values()),
                      "misses": sum(kernel.stats.cache_misses.values()),
                      "ok": bool(np.allclose(out, fg.grad(w1)(x)))}))
""")


def test_a_second_process_loads_the_compiled_kernels_from_the_disk_cache(tmp_path):
    env = dict(os.environ, FUNCGRAD_CACHE_DIR=str(tmp_path))

    def child():
        proc = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True,
                              timeout=240, env=env, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr[-3000:]
        return json.loads(proc.stdout.strip().splitlines()[-1])

    cold = child()
    warm = child()
    print(f"W1 jit(grad) first call: cold {cold['first_call_s']:.3f}s, "
          f"warm {warm['first_call_s']:.3f}s")
    assert cold["ok"] and warm["ok"]
    assert cold["misses"] >= 1 and cold["hits"] == 0
    assert warm["hits"] >= 1 and warm["misses"] == 0  # nothing compiled the second time
    assert list(tmp_path.glob("jit/fg_*.py"))


def test_grad_of_jit_builds_only_the_cotangents_asked_for(monkeypatch):
    """grad(jit(loss))(w, data): the backward kernel computes w's cotangent, not the
    data's (as large as the data, and thrown away); asking for both gives both."""
    from funcgrad.jit import call as api
    names = []
    real = api._jit_impl

    def recording(*args, graph, name):
        names.append((name, len(graph.outvars)))
        return real(*args, graph=graph, name=name)

    monkeypatch.setattr(api.jit_call_p, "impl", recording)
    rng = np.random.default_rng(0)
    w, x = rng.normal(size=3), rng.normal(size=(50, 3))

    def loss(w, x):
        return fnp.sum(fnp.log1p(fnp.exp(-(x[:, :2] @ w[:2]) * x[:, 2])))

    jitted = fg.jit(loss, wait=True)
    g = fg.grad(jitted)(w, x)
    bwd = [n for name, n in names if name.startswith("bwd")]
    assert bwd == [1]
    np.testing.assert_allclose(g, fg.grad(loss)(w, x), rtol=1e-12)
    gw, gx = fg.grad(jitted, argnums=(0, 1))(w, x)
    ew, ex = fg.grad(loss, argnums=(0, 1))(w, x)
    np.testing.assert_allclose(gw, ew, rtol=1e-12)
    np.testing.assert_allclose(gx, ex, rtol=1e-12)
    assert [n for name, n in names if name.startswith("bwd")][-1] == 2


def test_one_kernel_text_for_two_dtypes_compiles_a_version_for_each():
    """Graphs of float32 and of float64 can lower to the same text (a sum over an axis of
    length 1 is a reshape, with no dtype written), so they share one kernel: each dtype
    gets its own compiled version, not the other's (which cannot take its arrays)."""
    f = lambda a: np.sum(a, axis=1)  # noqa: E731
    g = lambda a: np.sum(a[0])  # noqa: E731
    for dtype in (np.float32, np.float64, np.float32):
        x = np.arange(5.0, dtype=dtype).reshape(5, 1)
        got = fg.jit(f, wait=True)(x)
        assert got.dtype == dtype and got.tobytes() == x[:, 0].tobytes()
        assert fg.jit(g, wait=True)(x) == x[0, 0]


def test_one_kernel_text_for_int_and_float_scalars_never_truncates_the_float():
    """A graph taking an int (or bool) scalar and one taking a float32 scalar can lower
    to the same text, so they share one kernel: the float32 gets a version of its own,
    never the int's (Numba would convert 2.5 to 2 on the way in, silently)."""
    x = np.ones(3)
    for first in (2, np.int64(2), True):
        assert fg.jit(lambda x, s: np.sin(x) * s, wait=True)(x, first)[0] == np.sin(1.0) * first
        got = fg.jit(lambda x, s: np.sin(x) * s, wait=True)(x, np.float32(2.5))
        np.testing.assert_allclose(got, np.sin(x) * 2.5, rtol=1e-15)


def test_large_float32_vector_maths_runs_numpys_ufunc_between_kernels():
    """float32 exp/log/log1p/tanh of at least NUMPY_FLOAT32_MATH_MIN elements are NumPy's
    own (SIMD, float32) ufuncs, as eagerly: the eager bits; smaller ones stay in the
    kernel's loop (the vector maths)."""
    from funcgrad.jit.lowerable import NUMPY_FLOAT32_MATH_MIN

    def f(x):
        return np.tanh(x * 0.5 + 0.25) * np.exp(-x * x) + np.log1p(x * x)

    rng = np.random.default_rng(3)
    big = rng.normal(size=(NUMPY_FLOAT32_MATH_MIN // 64, 64)).astype(np.float32)
    small = big[:2]
    jitted = fg.jit(f, wait=True)
    text = jitted.lower(big).as_text()
    assert "impl_tanh" in text and "impl_exp" in text and "_vm.tanh" not in text
    assert jitted(big).tobytes() == f(big).tobytes()
    assert "_vm.tanh" in jitted.lower(small).as_text()
    np.testing.assert_allclose(jitted(small), f(small), rtol=2e-7)
    g = fg.jit(fg.grad(lambda x: np.sum(f(x))), wait=True)(big)
    assert g.dtype == np.float32
    np.testing.assert_allclose(g, fg.grad(lambda x: np.sum(f(x)))(big), rtol=1e-6, atol=1e-6)


def test_logsumexp_and_its_vjps_softmax_are_computed_once():
    """jit(value_and_grad) of a softmax cross-entropy: the VJP's softmax (max, shift,
    exp, sum behind a stop_gradient) merges with the forward logsumexp's own steps."""
    def loss(z, labels):
        return np.mean(fnp.logsumexp(z, axis=1) - np.sum(z * labels, axis=1))

    rng = np.random.default_rng(4)
    z = rng.normal(size=(16, 5))
    labels = np.eye(5)[rng.integers(0, 5, 16)]
    jitted = fg.jit(fg.value_and_grad(loss), wait=True)
    text = jitted.lower(z, labels).as_text()
    assert text.count("_rt.max_rows") == 1 and text.count("exp(") == 1
    value, grad = jitted(z, labels)
    want_value, want_grad = fg.value_and_grad(loss)(z, labels)
    np.testing.assert_allclose(value, want_value, rtol=1e-14)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-13, atol=1e-16)


def test_a_jitted_call_on_tensors_is_recorded_on_their_graph():
    """A Tensor argument is not unwrapped: the result is a Tensor whose grad_fn runs the
    compiled derivative (the requires_grad of the input was dropped silently before), and
    create_graph=True keeps the second derivative."""
    x = fg.tensor([0.3, 0.7], dtype=fg.float64, requires_grad=True)
    f = fg.jit(lambda a: np.sum(np.sin(a) ** 2), wait=True)
    y = f(x)
    assert isinstance(y, fg.Tensor) and y.grad_fn is not None
    np.testing.assert_allclose(y.item(), np.sum(np.sin([0.3, 0.7]) ** 2), rtol=1e-14)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), np.sin([0.6, 1.4]), rtol=1e-14)
    v = fg.tensor(2.0, dtype=fg.float64, requires_grad=True)
    g, = fg.autograd.grad(f(x), x, grad_outputs=v, create_graph=True)
    h, = fg.autograd.grad(g.sum(), (x,))
    np.testing.assert_allclose(h.numpy(), 4 * np.cos([0.6, 1.4]), rtol=1e-13)
    pair = fg.jit(lambda a, b: (a * b, b), wait=True)(fg.tensor([1.0, 2.0]), np.ones(2))
    assert isinstance(pair[0], fg.Tensor) and pair[0].tolist() == [1.0, 2.0]
    with fg.no_grad():
        assert f(x).grad_fn is None


def test_a_jitted_function_closing_over_a_tensor_records_the_call_on_its_graph():
    """As torch.compile: a closed-over Tensor that requires grad is read when called and
    gets its gradient from loss.backward() (compiling failed with "report this" and the
    eager fallback ran; a compiled stage cannot hold one and says so)."""
    import warnings
    w = fg.tensor([1.0, 2.0, 3.0], dtype=fg.float64, requires_grad=True)
    x = np.array([0.5, 1.5, 2.0])

    def f(v):
        return (np.sin(w * v) * w).sum()
    jitted = fg.jit(f)  # (compiles in the background: no warning may come of it)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(2):
            loss = jitted(x)
            assert isinstance(loss, fg.Tensor) and loss.grad_fn is not None
            loss.backward()
            want = np.sin(w.detach().numpy() * x) + w.detach().numpy() * x * np.cos(
                w.detach().numpy() * x)
            np.testing.assert_allclose(w.grad.numpy(), want, rtol=1e-13)
            w.grad = None
            jitted.block_until_compiled()
        with fg.no_grad():  # an optimiser's step in place: the next call reads it
            w -= 0.25
        np.testing.assert_allclose(jitted(x).item(), f(x).item(), rtol=1e-14)
        # A second Tensor as an argument too, and the closed-over one returned as it is
        xt = fg.tensor(x, requires_grad=True)
        both = fg.jit(lambda v: ((w * v * v).sum(), w), wait=True)(xt)
        assert both[1].requires_grad and both[1].tolist() == w.tolist()
        (both[0] + both[1].sum()).backward()
        np.testing.assert_allclose(w.grad.numpy(), x ** 2 + 1.0, rtol=1e-14)
        np.testing.assert_allclose(xt.grad.numpy(), 2 * w.detach().numpy() * x, rtol=1e-14)
        w.grad = None
        g = fg.grad(fg.jit(lambda v: (w * v * v).sum()))(x)  # d/dw sum((2 w x)^2) = 8 w x^2
        (g * g).sum().backward()
        np.testing.assert_allclose(w.grad.numpy(), 8 * w.detach().numpy() * x ** 2,
                                   rtol=1e-14)
    with pytest.raises(TypeError, match=r"closes over 1 eager Tensor"):
        jitted.lower(x)


def test_a_jitted_function_traces_again_when_a_tensor_it_closes_over_is_rebound():
    scale = fg.tensor([2.0], dtype=fg.float64)
    jitted = fg.jit(lambda v: np.sum(scale * v), wait=True)
    assert jitted(np.ones(3)).item() == 6.0
    scale = fg.tensor([3.0], dtype=fg.float64)  # noqa: F841 (read by the lambda)
    assert jitted(np.ones(3)).item() == 9.0


@pytest.mark.parametrize("shape, axis", [((1000,), 0), ((40, 50), (0, 1)), ((1000,), None)])
def test_a_whole_sum_with_keepdims_fused_into_its_loop_keeps_its_shape(shape, axis):
    """A sum of every element, accumulated inside the loop that computes its terms, with
    keepdims=True is an array of ones' shape (the kernel bound a scalar and failed to
    compile: np.ravel of a float)."""
    x = np.arange(np.prod(shape)).reshape(shape)  # (ints: the cast fuses with the sum)

    def f(a):
        return fnp.sum(fnp.astype(a, np.float64), axis=axis, keepdims=True) / 7.0
    got = fg.jit(f, wait=True)(x)
    want = np.sum(x.astype(np.float64), axis=axis, keepdims=True) / 7.0
    assert got.shape == want.shape and np.array_equal(got, want)


# --- ahead of time: trace, lower, compile (JAX's stages) ---------------------------------------

def _dot_and_first(x, y):
    return np.sum(x * y), x


def test_a_compiled_function_runs_its_lowered_signature_without_tracing_again():
    traces = []

    def f(x, y):
        traces.append(1)
        return _dot_and_first(x, y)

    jitted = fg.jit(f)
    x, y = np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])
    compiled = jitted.lower(x, y).compile()
    assert isinstance(compiled, fg.jit.Compiled) and compiled is not jitted
    value, first = compiled(y, x)
    assert value == 32.0 and first.tolist() == y.tolist()
    kernel = compiled._exe.run
    for args in [(np.asfortranarray(x), y), (x[::-1], y), (np.float32(1.0) * 0 + x, y)]:
        assert compiled(*args)[0] == np.sum(np.asarray(args[0]) * y)
    assert len(traces) == 1 and len(kernel.signatures) == 1
    # The jitted function shares the compiled code: its first call runs it.
    assert jitted._cache and all(entry.ready() for entry in jitted._cache.values())


@pytest.mark.parametrize("args, message", [
    ((np.ones(4), np.ones(3)), r"x: lowered as f64\[3\], called with f64\[4\]"),
    ((np.ones(3), np.ones(3, np.float32)), r"y: lowered as f64\[3\], called with f32\[3\]"),
    ((1.0, np.ones(3)), r"x: lowered as f64\[3\], called with a Python float"),
    (((np.ones(3),), np.ones(3)), r"x: lowered with an array, called with a tuple of 1"),
    ((np.ones(3),), r"lowered with 2 positional argument\(s\) \(x, y\), called with 1"),
])
def test_a_compiled_function_rejects_another_signature_naming_the_mismatch(args, message):
    """As jax.stages.Compiled: another shape, dtype or structure is a TypeError that
    names the argument, never a silent retrace."""
    compiled = fg.jit(_dot_and_first).lower(np.ones(3), np.ones(3)).compile()
    with pytest.raises(TypeError, match=message):
        compiled(*args)
    with pytest.raises(TypeError, match=r"keyword arguments \[\], called with \['x', 'y'\]"):
        compiled(x=np.ones(3), y=np.ones(3))


def test_a_compiled_function_names_mismatches_inside_pytrees():
    def affine(p, x):
        return p["w"] * x + p["b"]

    params = {"w": np.ones(2), "b": 0.5}
    compiled = fg.jit(affine).lower(params, np.ones(2)).compile()
    assert compiled(params, np.array([1.0, 3.0])).tolist() == [1.5, 3.5]
    with pytest.raises(TypeError, match=r"p: lowered with a dict with keys \['b', 'w'\], "
                                        r"called with a dict with keys \['c', 'w'\]"):
        compiled({"w": np.ones(2), "c": 0.5}, np.ones(2))
    with pytest.raises(TypeError) as info:
        compiled({"w": np.ones(3), "b": np.float64(0.5)}, np.ones(2))
    assert "p['b']: lowered as a Python float (weakly typed f64[]), called with f64[]" in \
        str(info.value)
    assert "p['w']: lowered as f64[2], called with f64[3]" in str(info.value)


def test_static_arguments_are_fixed_when_lowered():
    def power(x, n, mode="sum"):
        y = x ** n
        return np.sum(y) if mode == "sum" else np.max(y)

    x = np.array([1.0, 2.0])
    jitted = fg.jit(power, static_argnums=1, static_argnames="mode")
    compiled = jitted.lower(x, 3, mode="max").compile()
    assert compiled.in_tree == tree.structure(((x,), {}))
    assert compiled(x) == 8.0  # JAX's way: static arguments left out
    assert compiled(x, 3, mode="max") == 8.0  # or passed again, equal
    assert compiled(x, n=3) == 8.0
    with pytest.raises(TypeError, match=r"static argument 'n' was fixed at 3 when lowered, "
                                        r"and called with 2"):
        compiled(x, 2)
    with pytest.raises(TypeError, match="static argument 'mode' was fixed at 'max'"):
        compiled(x, mode="sum")
    with pytest.raises(TypeError, match=r"static argument 'n' was fixed at 3 .* 3\.0"):
        compiled(x, 3.0)  # (equal in Python, another trace: float powers)
    default = jitted.lower(x, 2).compile()
    assert default(x) == 5.0
    with pytest.raises(TypeError, match="'mode' was not given when the function was lowered"):
        default(x, mode="sum")


def test_lower_trace_and_eval_shape_take_shape_dtype_structs():
    spec = fg.ShapeDtypeStruct((2, 3), np.float32)
    assert spec == fg.ShapeDtypeStruct([2, 3], "float32") and hash(spec) == hash(
        fg.ShapeDtypeStruct((2, 3), np.dtype(np.float32)))
    assert repr(spec) == "ShapeDtypeStruct(shape=(2, 3), dtype=float32)"
    assert (spec.ndim, spec.size) == (2, 6)
    with pytest.raises(TypeError, match="not numeric"):
        fg.ShapeDtypeStruct((2,), object)
    # JAX's sharding keyword: None only, and the attribute reads None
    assert fg.ShapeDtypeStruct((2, 3), np.float32, sharding=None) == spec
    assert spec.sharding is None
    with pytest.raises(TypeError, match="sharding=.*one device"):
        fg.ShapeDtypeStruct((2,), np.float32, sharding="mesh")

    def f(a, s):
        return {"col": np.sum(a, axis=0) * s, "a": a}

    jitted = fg.jit(f)
    want = {"a": spec, "col": fg.ShapeDtypeStruct((3,), np.float32)}
    assert fg.eval_shape(f, spec, 2.0) == want
    assert jitted.eval_shape(spec, 2.0) == want
    assert not any(entry._exe for entry in jitted._cache.values())  # nothing compiled
    traced = jitted.trace(spec, 2.0)
    assert traced.out_info == want and traced.jaxpr is traced.graph
    assert [e.prim.name for e in traced.graph.eqns] == ["reduce_sum", "multiply"]
    weak = fg.ShapeDtypeStruct((), np.float64, weak_type=True)
    assert traced.args_info == ((spec, weak), {})
    compiled = traced.lower().compile()
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = compiled(a, 2.0)
    assert got["col"].dtype == np.float32 and got["col"].tolist() == [6.0, 10.0, 14.0]
    with pytest.raises(TypeError, match="a ShapeDtypeStruct, a shape and dtype without values"):
        jitted(spec, 2.0)


def test_a_compiled_function_cannot_be_transformed():
    compiled = fg.jit(lambda x: np.sum(x * x)).lower(np.ones(2)).compile()
    with pytest.raises(TypeError, match=r"transform the jitted function instead"):
        fg.grad(compiled)(np.ones(2))
    with pytest.raises(TypeError, match=r"cannot be transformed"):
        fg.vmap(compiled)(np.ones((3, 2)))
    with pytest.raises(TypeError, match=r"is an eager Tensor"):
        compiled(fg.tensor([1.0, 2.0], requires_grad=True))


def test_lower_inside_a_transform_compiles_for_the_traced_arguments_shapes():
    lowered = []

    def f(x):
        lowered.append(fg.jit(lambda v: v * 2.0).lower(x).compile())
        return np.sum(x)

    assert fg.grad(f)(np.ones(2)).tolist() == [1.0, 1.0]
    assert lowered[0].args_info == ((fg.ShapeDtypeStruct((2,), np.float64),), {})
    assert lowered[0](np.ones(2)).tolist() == [2.0, 2.0]


def test_a_compiled_function_raises_once_an_array_it_reads_changed():
    """jit traces again when an array the function reads changes; a compiled function
    never traces again, so it raises rather than compute with the old values."""
    w = np.array([1.0, 2.0])
    jitted = fg.jit(lambda x: x * w)
    compiled = jitted.lower(np.ones(2)).compile()
    assert compiled(np.ones(2)).tolist() == [1.0, 2.0]
    w[:] = [3.0, 4.0]
    with pytest.raises(RuntimeError, match="changed or was rebound since it was traced"):
        compiled(np.ones(2))
    assert jitted.lower(np.ones(2)).compile()(np.ones(2)).tolist() == [3.0, 4.0]
    assert jitted(np.ones(2)).tolist() == [3.0, 4.0]


def test_lower_under_a_transform_that_the_function_closes_over_raises():
    def outer(s):
        return fg.jit(lambda x: x * s).lower(np.ones(2))

    with pytest.raises(TypeError, match="closes over values traced by an enclosing"):
        fg.grad(lambda s: np.sum(outer(s).compile()(np.ones(2))))(1.0)


def test_stages_pickle_as_their_recipe():
    import cloudpickle
    jitted = fg.jit(lambda x, n: x * n, static_argnums=1)
    compiled = jitted.lower(np.ones(3), 2).compile()
    copy = cloudpickle.loads(cloudpickle.dumps(compiled))
    assert isinstance(copy, fg.jit.Compiled) and copy._exe._compiled
    assert copy(np.array([1.0, 2.0, 3.0])).tolist() == [2.0, 4.0, 6.0]
    assert copy.in_tree == compiled.in_tree and copy.args_info == compiled.args_info
    with pytest.raises(TypeError, match="fixed at 2"):
        copy(np.ones(3), 5)
    lowered = cloudpickle.loads(cloudpickle.dumps(jitted.lower(np.ones(3), 2)))
    assert lowered.as_text() == compiled.as_text()
    traced = cloudpickle.loads(cloudpickle.dumps(jitted.trace(np.ones(3), 2)))
    assert traced.out_info == fg.ShapeDtypeStruct((3,), np.float64)


def test_cost_analysis_estimates_flops_and_bytes():
    a, b = np.ones((2, 3)), np.ones((3, 4))
    compiled = fg.jit(lambda a, b: np.tanh(a @ b)).lower(a, b).compile()
    cost = compiled.cost_analysis()
    assert cost["flops"] == 2 * 2 * 3 * 4 + 2 * 4  # the product, then tanh per element
    assert cost["bytes accessed"] == 8 * (6 + 12 + 8)
    assert fg.jit(np.sum).lower(a).cost_analysis()["flops"] == 6


def test_compiling_from_shapes_runs_no_while_loop_on_zeros():
    """Lowered from ShapeDtypeStructs, compile() runs the kernels on zeros to compile
    them; a while_loop might never end on zeros, so such a graph compiles on its first
    call instead."""
    def doubling(x):
        return fg.lax.while_loop(lambda v: v < 100.0, lambda v: v * 2.0 + 1.0, x)

    spec = fg.ShapeDtypeStruct((), np.float64)
    looping = fg.jit(doubling).lower(spec).compile()
    assert not looping._exe._compiled
    assert looping(np.array(3.0)) == 127.0
    plain = fg.jit(lambda x: x * 2.0 + 1.0).lower(spec).compile()
    assert plain._exe._compiled



def test_compiled_graphs_return_float0_derivatives_of_integer_inputs():
    """Numba has no type for float0: grad(allow_int=True) under jit used to fail to compile
    (the first calls, which only evaluate, passed)."""
    x, n = np.array([1.0, 2.0]), np.array([3, 4])
    f = fg.jit(fg.grad(lambda x, n: np.sum(x * n), (0, 1), allow_int=True), wait=True)
    for _ in range(2):
        gx, gn = f(x, n)
        np.testing.assert_array_equal(gx, [3.0, 4.0])
        assert gn.dtype == fg.dtypes.float0 and gn.shape == (2,)
    only = fg.jit(fg.grad(lambda x, n: np.sum(x * n), 1, allow_int=True), wait=True)(x, n)
    assert only.dtype == fg.dtypes.float0 and only.shape == (2,)


def test_the_var_method_works_on_values_traced_by_jit_and_make_graph():
    # (the graph tracer once kept its graph variable in a slot named `var`, which hid
    # ndarray.var: x.var() raised "'Var' object is not callable" under jit only)
    x = np.array([[0.3, 1.7, 2.2], [4.1, 0.6, 1.9]])
    assert np.allclose(fg.jit(lambda a: a.var(ddof=1))(x), x.var(ddof=1))
    assert np.allclose(fg.jit(lambda a: a.var(axis=0))(x), x.var(axis=0))
    assert "reduce_sum" in str(fg.make_graph(lambda a: a.var())(x))
    g = fg.jit(fg.grad(lambda a: a.var()))(x)
    assert np.allclose(g, 2 * (x - x.mean()) / x.size)  # d var / dx_i = 2 (x_i - mean) / n

"""Threads: transforms running in 8 threads at once agree with a single-threaded run,
and gradient modes set in one thread never leak into another (DESIGN.md principle 7).

Each thread differentiates its *own* function (different constants, different
unary primitive) on inputs that change with every call, so results crossing
between threads -- a shared tape, a shared interpreter stack, a mode or hook
applied to the wrong thread -- show up as wrong numbers.  A barrier starts all
threads together and the interpreter switch interval is shortened, so that
their primitives interleave as finely as CPython allows.

The transforms are entries of :data:`WORKLOADS`, one per transform; the eager
``Tensor`` tape and ``fg.jit`` join the list when they exist in the tree.

Calls per thread and workload: ``FUNCGRAD_LONG=1`` (``make soak``) runs 1,000;
the default (``make test``) runs :data:`CALLS`.
"""
import sys
import threading
import time

import numpy as np
import pytest

import funcgrad as fg
from funcgrad import core

from long_runs import LONG, figure  # noqa: E402
THREADS = 8
CALLS = 1000 if LONG else 60

pytestmark = pytest.mark.timeout(3600 if LONG else 300)


# --- per-thread functions ------------------------------------------------------------------

_UNARY = [np.sin, np.cos, np.tanh, np.arctan, np.sinh, lambda v: np.log1p(v * v),
          lambda v: np.sqrt(1.0 + v * v), np.exp]


def make_function(k):
    """Thread ``k``'s scalar function: elementwise, matmul and reductions, its own constants."""
    unary = _UNARY[k % len(_UNARY)]
    a = 0.3 + 0.1 * k
    w = np.random.default_rng(100 + k).standard_normal((5, 4))

    def f(x):
        y = unary(a * x)
        return np.sum(np.tanh(y @ w) ** 2) + (0.5 + 0.25 * k) * np.sum(x * x) + np.max(y)
    return f


def make_big_function(k):
    """Large enough (5,000 elements) for the Numba kernels: sin/cos and fused VJP kernels."""
    a = 0.5 + 0.05 * k

    def f(x):
        return np.sum(np.sin(x) * np.cos(a * x)) + np.sum(np.sqrt(1.0 + x * x)) / (k + 1)
    return f


def make_input(k, i, n=5):
    base = np.random.default_rng(k).uniform(-1.0, 1.0, n)
    return base + 1e-3 * i


# --- workloads: setup(k) -> call(i) -> result --------------------------------------------------

def _grad(k):
    f = make_function(k)
    return lambda i: fg.grad(f)(make_input(k, i))


def _value_and_grad(k):
    f = make_function(k)
    return lambda i: fg.value_and_grad(f)(make_input(k, i))


def _jvp(k):
    f = make_function(k)
    return lambda i: fg.jvp(f, (make_input(k, i),), (np.linspace(-1.0, 1.0, 5),))


def _vjp(k):
    f = make_function(k)

    def call(i):
        out, vjp_fn = fg.vjp(f, make_input(k, i))
        return out, vjp_fn(2.0)
    return call


def _vmap(k):
    f = make_function(k)
    return lambda i: fg.vmap(f)(np.stack([make_input(k, i), -make_input(k, i),
                                          0.5 * make_input(k, i)]))


def _vmap_grad(k):
    f = make_function(k)
    return lambda i: fg.vmap(fg.grad(f))(np.stack([make_input(k, i), make_input(k, i + 7)]))


def _hessian(k):
    f = make_function(k)
    return lambda i: fg.hessian(f)(make_input(k, i))


def _kernels(k):
    f = make_big_function(k)
    return lambda i: fg.grad(f)(make_input(k, i, 5000))


def _tensor_backward(k):
    f = make_function(k)

    def call(i):
        t = fg.Tensor(make_input(k, i), requires_grad=True)
        loss = f(t)
        loss.backward()
        return float(loss.item()), np.array(t.grad.numpy())
    return call


_SHARED_JIT = {}


def _jit(k):
    f = make_function(k)
    jf = fg.jit(f)  # built in the worker thread: compilations race
    return lambda i: jf(make_input(k, i))


def _jit_grad(k):
    f = make_function(k)
    jg = fg.jit(fg.grad(f))
    return lambda i: jg(make_input(k, i))


def _jit_shared(k):
    # One jitted function for every thread: its cache is shared; inputs differ per thread.
    jf = _SHARED_JIT.get("f")
    if jf is None:
        raise AssertionError("the shared jitted function is made before the threads start")
    return lambda i: jf(make_input(k, i))


WORKLOADS = [
    ("grad", _grad),
    ("value_and_grad", _value_and_grad),
    ("jvp", _jvp),
    ("vjp", _vjp),
    ("vmap", _vmap),
    ("vmap_grad", _vmap_grad),
    ("hessian", _hessian),
    ("numba_kernels", _kernels),
]
if hasattr(fg, "Tensor"):
    WORKLOADS.append(("tensor_backward", _tensor_backward))
if hasattr(fg, "jit"):
    WORKLOADS += [("jit", _jit), ("jit_grad", _jit_grad), ("jit_shared", _jit_shared)]

# Slower workloads run on every ``_EVERY[name]``-th call only.
_EVERY = {} if LONG else {"hessian": 4, "numba_kernels": 2}


def _calls(name):
    every = _EVERY.get(name, 1)
    return [i for i in range(CALLS) if i % every == 0]


def _reset_shared():
    _SHARED_JIT.clear()
    if hasattr(fg, "jit"):
        _SHARED_JIT["f"] = fg.jit(make_function(0))


def _run_thread(k, workloads, barrier=None):
    """Thread ``k``: every workload, interleaved call by call; returns {name: [results]}."""
    calls = {name: setup(k) for name, setup in workloads}
    results = {name: [] for name, _ in workloads}
    if barrier is not None:
        barrier.wait()
    for i in range(CALLS):
        for name, _ in workloads:
            if i % _EVERY.get(name, 1) == 0:
                results[name].append(calls[name](i))
    assert core.current_interpreter() is core.ROOT, "a transform left its interpreter current"
    return results


def _flat(result):
    return [np.asarray(v) for v in fg.tree.leaves(result)]


def _assert_same(name, k, got, expected):
    assert len(got) == len(expected), f"{name}, thread {k}: {len(got)} results, {len(expected)}"
    for i, (g, e) in enumerate(zip(got, expected)):
        gl, el = _flat(g), _flat(e)
        assert len(gl) == len(el), f"{name}, thread {k}, call {i}: structure differs"
        for a, b in zip(gl, el):
            assert a.shape == b.shape and a.dtype == b.dtype, (
                f"{name}, thread {k}, call {i}: {a.shape} {a.dtype} vs {b.shape} {b.dtype}")
            # the same code on the same inputs: bit-for-bit equal, unless results crossed
            np.testing.assert_array_equal(a, b, err_msg=f"{name}, thread {k}, call {i}")


@pytest.fixture
def fine_switching():
    """Switch threads every 10 us (CPython's default is 5 ms), to interleave primitives."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def _run_threads(target, n=THREADS):
    """Run ``target(k, barrier)`` in ``n`` threads started together; re-raise the first error."""
    barrier = threading.Barrier(n)
    out, errors = [None] * n, []

    def body(k):
        try:
            out[k] = target(k, barrier)
        except BaseException as e:  # reported in the main thread
            errors.append((k, e))
            barrier.abort()

    threads = [threading.Thread(target=body, args=(k,), name=f"fg-worker-{k}") for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, e in errors:
        if not isinstance(e, threading.BrokenBarrierError):
            raise AssertionError(f"thread {k} failed: {type(e).__name__}: {e}") from e
    if errors:
        raise errors[0][1]
    return out


def test_workloads_in_8_threads_match_a_single_thread(fine_switching):
    _reset_shared()
    expected = [_run_thread(k, WORKLOADS) for k in range(THREADS)]
    _reset_shared()  # fresh jitted functions: the threads compile concurrently
    start = time.perf_counter()
    got = _run_threads(lambda k, barrier: _run_thread(k, WORKLOADS, barrier))
    elapsed = time.perf_counter() - start
    for k in range(THREADS):
        for name, _ in WORKLOADS:
            _assert_same(name, k, got[k][name], expected[k][name])
    figure("threads", threads=THREADS, calls_per_thread={n: len(_calls(n)) for n, _ in WORKLOADS},
            total_calls=THREADS * sum(len(_calls(n)) for n, _ in WORKLOADS),
            seconds=round(elapsed, 2), workloads=[n for n, _ in WORKLOADS])


def test_one_shared_transformed_function_in_8_threads(fine_switching):
    """One ``grad(f)`` / ``vmap(f)`` object called from every thread with its own inputs."""
    f = make_function(3)
    g, v = fg.grad(f), fg.vmap(fg.grad(f))
    xs = {k: [make_input(k, i) for i in range(CALLS)] for k in range(THREADS)}
    expected = {k: [(g(x), v(np.stack([x, -x]))) for x in xs[k]] for k in range(THREADS)}

    def work(k, barrier):
        barrier.wait()
        return [(g(x), v(np.stack([x, -x]))) for x in xs[k]]

    got = _run_threads(work)
    for k in range(THREADS):
        _assert_same("shared grad/vmap", k, got[k], expected[k])


# --- modes: thread-local ---------------------------------------------------------------------

def _state():
    """Everything a mode can change, as this thread sees it."""
    return {
        "grad_enabled": fg.is_grad_enabled(),
        "inference": fg.is_inference_mode_enabled(),
        "anomaly": fg.is_anomaly_enabled(),
        "hooks": len(fg.graph._hooks.pairs),
        "interpreter": type(core.current_interpreter()).__name__,
        "instruments": len(core._state.instruments),
    }


_DEFAULT = {"grad_enabled": True, "inference": False, "anomaly": False, "hooks": 0,
            "interpreter": "EvalInterpreter", "instruments": 0}

_SHARED_NO_GRAD = fg.no_grad()  # one object entered by several threads at once


def _pack_unpack(log):
    def pack(v):
        log.append(threading.get_ident())
        return v
    return pack, lambda v: v


# name -> (context manager factory(log), the state expected inside it)
MODES = {
    "no_grad": (lambda log: fg.no_grad(), {"grad_enabled": False}),
    "shared_no_grad_object": (lambda log: _SHARED_NO_GRAD, {"grad_enabled": False}),
    "set_grad_enabled_False": (lambda log: fg.set_grad_enabled(False), {"grad_enabled": False}),
    "inference_mode": (lambda log: fg.inference_mode(),
                       {"grad_enabled": False, "inference": True}),
    "detect_anomaly": (lambda log: fg.detect_anomaly(), {"anomaly": True, "instruments": 1}),
    "saved_tensors_hooks": (lambda log: fg.graph.saved_tensors_hooks(*_pack_unpack(log)),
                            {"hooks": 1, "instruments": 1}),
    "dual_level": (lambda log: fg.forward_ad.dual_level(), {"interpreter": "DualLevel"}),
}


def _check_in_mode(mode, log):
    """Inside ``mode``: a computation that depends on the mode gives the mode's answer."""
    x = np.array([0.5, -1.5, 2.0])
    if mode == "dual_level":
        dual = fg.forward_ad.make_dual(x, np.ones(3))
        tangent = fg.forward_ad.unpack_dual(np.sin(dual)).tangent
        np.testing.assert_allclose(tangent, np.cos(x))
    elif mode in ("no_grad", "shared_no_grad_object", "set_grad_enabled_False",
                  "inference_mode"):
        if hasattr(fg, "Tensor"):
            t = fg.Tensor(x, requires_grad=True)
            assert (t * 2.0).grad_fn is None, f"{mode}: the Tensor tape recorded"
    elif mode == "detect_anomaly":
        with pytest.raises(RuntimeError, match="nan"), np.errstate(all="ignore"):
            fg.grad(lambda v: np.sqrt(np.sum(v * v)))(np.zeros(2))
    elif mode == "saved_tensors_hooks":
        before = len(log)
        fg.grad(lambda v: np.sum(np.sin(v) * v))(x)
        assert len(log) > before, "the pack hook did not run in its own thread"


def _check_default(k):
    """Outside any mode: plain behaviour, whatever the other threads are doing."""
    state = _state()
    assert state == _DEFAULT, f"thread {k}: a mode leaked in: {state}"
    x = np.array([0.5, -1.5, 2.0]) + k
    np.testing.assert_allclose(fg.grad(lambda v: np.sum(np.sin(v)))(x), np.cos(x))
    # anomaly detection off here: NaN flows through without raising
    with np.errstate(all="ignore"):
        g = fg.grad(lambda v: np.sqrt(np.sum(v * v)))(np.zeros(2))
    assert np.isnan(g).all()
    if hasattr(fg, "Tensor"):
        t = fg.Tensor(x, requires_grad=True)
        y = np.sum(t * t)
        assert y.grad_fn is not None, f"thread {k}: the Tensor tape is off"
        y.backward()
        np.testing.assert_allclose(t.grad.numpy(), 2 * x)
    with pytest.raises(RuntimeError, match="dual_level"):
        fg.forward_ad.make_dual(x, x)  # no level is active in this thread


ROUNDS = 200 if LONG else 15


def test_modes_do_not_leak_between_threads(fine_switching):
    """Thread k enters mode k (or none), checks it sees exactly its own mode, computes
    under it, leaves it, and checks the default state -- many rounds, all threads at once."""
    names = list(MODES) + [None]  # thread with None: never enters a mode
    logs = {k: [] for k in range(THREADS)}

    def work(k, barrier):
        mode = names[k % len(names)]
        barrier.wait()
        for _ in range(ROUNDS):
            if mode is None:
                _check_default(k)
                continue
            factory, expected = MODES[mode]
            with factory(logs[k]):
                state = _state()
                want = dict(_DEFAULT, **expected)
                assert state == want, f"thread {k} in {mode}: {state}, expected {want}"
                _check_in_mode(mode, logs[k])
                assert _state() == want, f"thread {k} in {mode}: changed by a computation"
            assert _state() == _DEFAULT, f"thread {k}: {mode} not restored: {_state()}"
            _check_default(k)

    _run_threads(work)
    # every pack-hook call happened in a thread that had registered the hook
    hook_threads = [k for k in range(THREADS) if names[k % len(names)] == "saved_tensors_hooks"]
    assert all(logs[k] for k in hook_threads)
    idents = [set(logs[k]) for k in hook_threads]
    assert all(len(s) == 1 for s in idents), "a pack hook ran in another thread"
    assert len(set().union(*idents)) == len(hook_threads)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_mode_held_in_one_thread_is_invisible_to_another(mode):
    """Thread A holds ``mode`` open; thread B, meanwhile, sees and computes the default."""
    log = []
    entered, checked = threading.Event(), threading.Event()
    failures = []

    def holder():
        try:
            factory, expected = MODES[mode]
            with factory(log):
                entered.set()
                checked.wait(60)
                assert _state() == dict(_DEFAULT, **expected), _state()
                _check_in_mode(mode, log)
        except BaseException as e:
            failures.append(("holder", e))
        finally:
            entered.set()

    def other():
        try:
            entered.wait(60)
            before = len(log)
            for _ in range(5):
                _check_default(1)
            assert len(log) == before, "thread A's pack hook ran on thread B's operations"
        except BaseException as e:
            failures.append(("other", e))
        finally:
            checked.set()

    threads = [threading.Thread(target=holder), threading.Thread(target=other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures


def test_set_detect_anomaly_call_stays_in_its_thread():
    """``fg.set_detect_anomaly(True)`` as a plain call, and ``fg.set_grad_enabled(False)``:
    they change the calling thread only."""
    seen = {}
    go, done = threading.Event(), threading.Event()

    def setter():
        fg.set_detect_anomaly(True)
        fg.set_grad_enabled(False)
        go.set()
        done.wait(60)
        seen["setter"] = (fg.is_anomaly_enabled(), fg.is_grad_enabled())
        fg.set_detect_anomaly(False)
        fg.set_grad_enabled(True)

    def reader():
        go.wait(60)
        seen["reader"] = (fg.is_anomaly_enabled(), fg.is_grad_enabled())
        done.set()

    threads = [threading.Thread(target=setter), threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"setter": (True, False), "reader": (False, True)}


def test_dual_values_of_another_threads_level():
    """A dual value made in thread A's level, used in thread B (where no level is active):
    B sees it as a value of a foreign, still-active transform and gets its primal or a
    clear error -- never A's tangent arithmetic mixed into B's own jvp."""
    box, go, done = {}, threading.Event(), threading.Event()
    errors = []

    def a():
        with fg.forward_ad.dual_level():
            box["dual"] = fg.forward_ad.make_dual(np.array([1.0, 2.0]), np.array([1.0, 1.0]))
            go.set()
            done.wait(60)

    def b():
        go.wait(60)
        try:
            # B's own jvp of a function that closes over A's dual value
            out, t = fg.jvp(lambda v: v * 3.0, (np.array([1.0, 1.0]),), (np.ones(2),))
            np.testing.assert_allclose(t, [3.0, 3.0])
            assert fg.forward_ad.unpack_dual(box["dual"]).tangent is None
        except BaseException as e:
            errors.append(e)
        finally:
            done.set()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_shared_detect_anomaly_object_restores_per_thread():
    """One ``detect_anomaly()`` object entered by two threads (or nested in one): each
    exit restores what *that* thread had before, like the gradient modes do."""
    shared = fg.detect_anomaly()
    seen = {}
    a_in, b_out = threading.Event(), threading.Event()

    def a():
        fg.set_detect_anomaly(True, check_nan=False)
        try:
            with shared:
                a_in.set()
                b_out.wait(60)
            seen["a"] = (fg.is_anomaly_enabled(), fg.is_anomaly_check_nan_enabled())
        finally:
            fg.set_detect_anomaly(False)

    def b():
        a_in.wait(60)
        with shared:
            pass
        seen["b"] = fg.is_anomaly_enabled()
        b_out.set()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"a": (True, False), "b": False}


def test_reused_detect_anomaly_object_nested_in_one_thread():
    mode = fg.detect_anomaly()
    try:
        with mode:
            with mode:
                pass
            assert fg.is_anomaly_enabled()
        assert not fg.is_anomaly_enabled(), "anomaly detection stayed on after both blocks"
    finally:
        fg.set_detect_anomaly(False)


def test_a_tracer_used_in_a_thread_its_function_started_is_recorded_on_its_tape():
    # A tracer's operators find the current interpreter through the tracer's own
    # interpreter (the state of the thread that made it): a thread the function starts
    # and joins while the transform runs computes on the same tape, so its operations
    # are differentiated, not dropped.  d/dx sum(3x + 2 sin x) = 3 + 2 cos x.
    import funcgrad.numpy as fnp
    x0 = np.array([0.5, -1.0])

    def f(x):
        out = {}
        helper = threading.Thread(target=lambda: out.update(y=2.0 * fnp.sin(x)))
        helper.start()
        helper.join()
        return fnp.sum(3.0 * x + out["y"])

    np.testing.assert_allclose(fg.grad(f)(x0), 3.0 + 2.0 * np.cos(x0), rtol=1e-15)

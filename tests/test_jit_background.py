"""fg.jit never stalls: a new signature is evaluated eagerly while one background thread
compiles it, and calls switch to the compiled code when it is ready (issue 24)."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import funcgrad as fg
from funcgrad.jit import entry as jit_entry

X = np.linspace(-1.0, 1.0, 7)


def loss(x):
    return np.sum(np.tanh(x) ** 2 + np.sin(3.0 * x) * x)


def _entry(f):
    (entry,) = f._cache.values()
    return entry


def test_the_first_calls_give_the_eager_values_then_the_compiled_code_takes_over():
    f = fg.jit(fg.value_and_grad(loss), wait=False)
    eager = fg.value_and_grad(loss)(X)
    first = f(X)
    # evaluated as eager code runs it: the eager bits
    np.testing.assert_array_equal(first[0], eager[0])
    np.testing.assert_array_equal(first[1], eager[1])
    assert f.block_until_compiled(timeout=240)
    assert _entry(f).ready()
    later = f(X)
    np.testing.assert_allclose(later[1], eager[1], rtol=1e-13)
    assert f._fast, "the compiled code's fast path is installed once it is ready"


def test_the_compiler_works_on_copies_of_the_first_arguments():
    x = X.copy()
    f = fg.jit(lambda v: v[np.array([0, 2])] * 2.0, wait=False)
    out = f(x)
    x[:] = -5.0  # the caller's array changes before (or while) the compiler runs
    np.testing.assert_array_equal(out, [2 * X[0], 2 * X[2]])
    assert f.block_until_compiled(timeout=240)
    np.testing.assert_array_equal(f(x), [-10.0, -10.0])


def test_lower_compile_compiles_ahead_of_time():
    """compile() returns the compiled function (JAX's Compiled), and the jitted function
    shares its code: its first call with that signature runs it too."""
    f = fg.jit(lambda v: np.sum(np.exp(v)), wait=False)
    g = f.lower(X).compile()
    assert isinstance(g, fg.jit.Compiled) and _entry(f).ready()
    np.testing.assert_allclose(g(X), np.sum(np.exp(X)), rtol=1e-14)
    np.testing.assert_allclose(f(X), np.sum(np.exp(X)), rtol=1e-14)


def test_wait_true_compiles_on_the_first_call():
    f = fg.jit(lambda v: np.sum(v * v), wait=True)
    f(X)
    assert _entry(f).ready()


def test_a_failed_compilation_is_said_and_calls_stay_right(monkeypatch):
    def broken(graph):
        raise RuntimeError("lowering broke")

    monkeypatch.setattr(jit_entry, "compile_graph", broken)
    f = fg.jit(loss, wait=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert float(f(X)) == pytest.approx(float(loss(X)), rel=1e-14)
        assert f.block_until_compiled(timeout=60)
    assert any("compiling failed" in str(w.message) and "lowering broke" in str(w.message)
               for w in caught)
    assert float(f(X)) == pytest.approx(float(loss(X)), rel=1e-14)  # still eager, right
    with pytest.raises(RuntimeError, match="lowering broke"):
        f.lower(X)  # (the error, not an AttributeError of the failure's stand-in)
    with pytest.raises(RuntimeError, match="lowering broke"):
        fg.jit(loss, wait=True)(X)


def _run_without_waiting(code):
    """``python -c code`` with jit's default (no FUNCGRAD_JIT_WAIT), having succeeded."""
    env = {k: v for k, v in os.environ.items() if k != "FUNCGRAD_JIT_WAIT"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done


def test_the_interpreter_exits_while_the_compiler_works():
    """The compiler thread is a daemon: a script whose jitted function is still compiling
    when it ends exits at once, cleanly."""
    code = ("import numpy as np, funcgrad as fg\n"
            "f = fg.jit(fg.grad(lambda x: np.sum(np.sin(x) * np.cos(x) ** 3 + np.exp(-x))),"
            " wait=False)\n"
            "print(f(np.ones(5))[0])\n")
    done = _run_without_waiting(code)
    assert float(done.stdout) == pytest.approx(np.cos(1) ** 4 - 3 * np.sin(1) ** 2
                                               * np.cos(1) ** 2 - np.exp(-1), rel=1e-12)


def test_the_first_call_leaves_the_compiler_to_the_background_thread():
    """fg.jit(f) and its first call import neither the compiler (.call, .lower) nor the
    stages and funcgrad.lax: importing them was most of W3's first-call time (issue 24)."""
    code = ("import sys, numpy as np, funcgrad as fg\n"
            "from funcgrad.jit import entry\n"
            "entry._compile_in_background = lambda e, leaves: None  # (no compiler)\n"
            "f = fg.jit(fg.value_and_grad(lambda x: np.sum(np.tanh(x) ** 2)))\n"
            "value, grad = f(np.linspace(-1.0, 1.0, 5))\n"
            "print(sorted(m for m in ('funcgrad.jit.call', 'funcgrad.jit.lower',\n"
            "                         'funcgrad.jit.stages', 'funcgrad.lax')\n"
            "             if m in sys.modules))\n"
            "print(float(value))\n")
    done = _run_without_waiting(code)
    loaded, value = done.stdout.splitlines()
    assert loaded == "[]"
    x = np.linspace(-1.0, 1.0, 5)
    assert float(value) == pytest.approx(np.sum(np.tanh(x) ** 2), rel=1e-14)


def test_the_first_call_does_not_wait_for_the_compiler_thread_to_run(monkeypatch):
    """Starting the compiler thread does not wait until it runs: on a loaded machine that
    wait (threading.Thread.start) was 16-24 ms of a first call.  Here any thread's start
    is held until the first call has returned: a call that waited for it would hang until
    the hold gives up and be recorded as having waited."""
    import threading

    def f(x):
        return np.sum(np.sin(x) * x)

    eager = fg.grad(f)(X)  # (the kernels' own loading starts its threads now)
    start = threading.Thread.start
    returned = threading.Event()
    waited = []

    def held(self):
        if not returned.wait(timeout=30):
            waited.append(self)
        start(self)

    monkeypatch.setattr(threading.Thread, "start", held)
    monkeypatch.setattr(jit_entry, "_jobs", None)  # a new compiler thread starts
    first = fg.jit(fg.grad(f), wait=False)(X)
    returned.set()
    assert not waited, "the first call waited for a thread to start"
    np.testing.assert_array_equal(first, eager)


_SWITCHING = r"""
import sys, threading
from funcgrad.jit import entry
seen, done = [], threading.Event()

class Job:
    def __init__(self, last):
        self.last = last

    def build(self, leaves):
        seen.append(sys.getswitchinterval())
        if self.last:
            done.set()

before = sys.getswitchinterval()
for k in range(3):
    entry._compile_in_background(Job(last=k == 2), ())
assert done.wait(60)
for _ in range(500):  # (the thread restores it just after the last job's build)
    if sys.getswitchinterval() == before:
        break
    threading.Event().wait(0.01)
print(before, seen, sys.getswitchinterval(), entry._SWITCH_WHILE_COMPILING)
"""


def test_while_it_compiles_the_user_thread_gets_the_gil_back_at_once():
    """The compiler's Python holds the GIL; the user's thread lets it go in every nogil
    kernel, and at the default switch interval (5 ms) waited that long to get it back.
    While jobs run the interval is short; after the last, the program's own is back.
    (A fresh process: no other job of this suite's is compiling.)"""
    proc = subprocess.run([sys.executable, "-c", _SWITCHING], capture_output=True,
                          text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    words = proc.stdout.split()
    before, after, short = float(words[0]), float(words[-2]), float(words[-1])
    seen = [float(w.strip("[],")) for w in words[1:-2]]
    assert before == pytest.approx(0.005)  # (CPython's default: the case this is about)
    assert seen == [pytest.approx(short)] * 3
    assert after == before

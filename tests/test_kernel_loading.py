"""Kernels load without making the first calls wait (kernels/cpu/_lazy.py): the NumPy twins
give the kernels' bits, the switch changes no result, and loading is its own profiler row."""
import os
import subprocess
import sys

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.kernels.cpu import _lazy
from funcgrad.kernels.cpu._twins import V as TWIN
from funcgrad.kernels_config import set_kernel_loading
from long_runs import LONG

SPECIAL = np.array([0.0, -0.0, 1e-310, -1e-310, 5e-324, 1e-300, 0.5, -0.5, 0.625, 1.0, 2.0,
                    np.pi / 4, np.pi / 2, 3.0, 30.0, 40.0, 700.0, 709.7, 709.8, 710.0,
                    -745.0, -746.0, 1e5, 823549.0, np.inf, -np.inf, np.nan])


def _bits_equal(a, b):
    """The same values bit for bit: signed zeros included; a NaN matches any NaN (its sign
    and payload depend on which operand the hardware propagates, not on the maths)."""
    a, b = np.asarray(a), np.asarray(b)
    nan = np.isnan(a) & np.isnan(b)
    return a.dtype == b.dtype and a.shape == b.shape and bool(
        np.all((a == b) | nan) and np.all((np.signbit(a) == np.signbit(b)) | nan))


@pytest.fixture
def loading_mode():
    old = _lazy.config.loading
    yield set_kernel_loading
    _lazy.config.loading = old


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_twin_vector_maths_gives_the_compiled_bits(dtype):
    """vbodies computed by NumPy against the same text compiled (vmath, in a generated
    kernel's ufunc), at special values and across the ranges (sin/cos where they apply:
    beyond TRIG_BOUND the kernels call the C library, and the twin declines)."""
    from funcgrad.kernels.cpu.generated import scalar_kernel
    rng = np.random.default_rng(0)
    x = np.concatenate([SPECIAL, -SPECIAL, rng.standard_normal(200) * 10,
                        rng.uniform(-700, 700, 100), np.exp(rng.uniform(-700, 700, 100))])
    for leaf in ("exp", "log", "log1p", "sin", "cos", "tanh"):
        name = scalar_kernel([f"r = V.{leaf}(x0)"], 1)
        v = x[np.abs(x) <= 823549.0] if leaf in ("sin", "cos") else x
        with np.errstate(all="ignore"):
            v = v.astype(dtype)
            assert _bits_equal(_lazy.twin(name, np.dtype(dtype))(v),
                               _lazy.ufunc(name, np.dtype(dtype))(v)), leaf


def _w1(x):
    return fnp.sum(fnp.sin(x) * fnp.cos(x) + fnp.exp(-x * x) + fnp.log1p(x * x)
                   + fnp.tanh(x) / (1 + x * x) + fnp.sqrt(x * x + 1) - fnp.arctan(x))


def _gradients(dtype):
    x = np.linspace(-3.0, 3.0, 37).astype(dtype)
    big = np.linspace(-2.0, 2.0, 5000).astype(dtype)
    wide = np.concatenate([x, np.array([0.0, 1e6, np.inf, np.nan], dtype)])
    with np.errstate(all="ignore"):
        return [fg.grad(_w1)(x), fg.grad(_w1)(big), fg.grad(_w1)(wide),
                fg.grad(lambda v: fnp.sum(fnp.sin(v) ** 2 / (2 + fnp.cos(v))))(x),
                fg.jacfwd(lambda v: fnp.tanh(v) * fnp.exp(-v))(x[:5]),
                fg.grad(lambda v: fnp.sum(fnp.log(v * v + 1) * v))(big)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gradients_are_the_same_bits_before_and_after_the_kernels_load(dtype, loading_mode):
    """The same gradients computed by the NumPy twins (mode "numpy": no kernel loads where
    a twin exists) and by the compiled kernels (mode "wait"): identical bits."""
    loading_mode("numpy")
    twins = _gradients(dtype)
    loading_mode("wait")
    kernels = _gradients(dtype)
    for a, b in zip(twins, kernels):
        assert _bits_equal(a, b)


def test_every_straight_line_kernel_twin_matches_its_ufunc():
    """Each declared kernel with a twin (the fused rules and forwards used so far in this
    process), against its compiled ufunc on special values.  ``make test`` checks the
    ufuncs this process has already compiled (a cold compile is about a second each on
    CI, for some ninety kernels); ``make soak`` compiles and checks every kernel in both
    dtypes."""
    _gradients(np.float64)  # declares (and, in "wait" mode, builds) the kernels above
    checked = 0
    for name in _lazy.declared():
        nin = _lazy._DECLARED[name][1]
        for dt in (_lazy.F64, _lazy.F32):
            twin = _lazy.twin(name, dt)
            if twin is None or not (LONG or (name, dt) in _lazy._ufuncs):
                continue
            args = [np.roll(SPECIAL, k).astype(dt) for k in range(nin)]
            with np.errstate(all="ignore"):
                got = twin(*args)
                if got is None:  # an argument beyond sin/cos's range: the kernel computes
                    ok = [np.abs(a) <= 823549.0 for a in args]
                    args = [a[np.logical_and.reduce(ok)] for a in args]
                    got = twin(*args)
                want = _lazy.ufunc(name, dt)(*args)
            assert _bits_equal(got, want), name
            checked += 1
    assert checked >= (10 if LONG else 5)  # (never vacuous: W1 alone declares nine)


def test_kernels_with_no_twin_are_built_by_the_caller(loading_mode):
    loading_mode("numpy")
    import funcgrad.scipy.special as fsp
    x = np.linspace(0.1, 2.0, 8)
    g = fg.grad(lambda v: fnp.sum(fsp.erf(v)))(x)
    assert np.allclose(g, 2 / np.sqrt(np.pi) * np.exp(-x * x))


def test_twin_reports_floating_point_errors_naming_the_operation(loading_mode):
    loading_mode("numpy")
    import warnings
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        g = fg.grad(lambda v: fnp.sum(fnp.sqrt(v)))(np.array([0.0, 1.0]))
    assert g.tolist() == [np.inf, 0.5]
    assert [str(w.message) for w in seen] == [
        "divide by zero encountered in the backward of SqrtBackward0"]
    with pytest.raises(FloatingPointError, match="divide by zero"), np.errstate(divide="raise"):
        fg.grad(lambda v: fnp.sum(fnp.sqrt(v)))(np.array([0.0, 1.0]))


def test_profiler_shows_kernel_loading_as_its_own_row(loading_mode):
    """A kernel built during profiling is a "[kernel load/compile]" row, and the operation
    that needed it keeps only its own time."""
    loading_mode("wait")
    kernel = "gtest" + str(os.getpid())
    from funcgrad.kernels.cpu.generated import scalar_kernel
    name = scalar_kernel(["r = x0 * x0 + np.float64(0.25) * x0"], 1)
    with fg.profiler.profile() as prof:
        with fg.profiler.record_function(kernel):
            out = _lazy.call(name, _lazy.F64, np.arange(3.0))
    assert out.tolist() == [0.0, 1.25, 4.5]
    rows = {e.key: e for e in prof.key_averages()}
    load = rows["[kernel load/compile]"]
    assert load.count == 1 and load.cpu_time_total > 0
    # the block waited for the build, yet its times leave it out (they were all of it)
    assert rows[kernel].self_cpu_time_total <= rows[kernel].cpu_time_total < \
        load.cpu_time_total


FIRST_CALL = r"""
import sys, time
import numpy as np
import funcgrad as fg, funcgrad.numpy as xp
x = np.linspace(-1.0, 1.0, 16)
f = lambda x: xp.sum(xp.sin(x) * xp.cos(x) + xp.exp(-x * x) + xp.log1p(x * x)
                     + xp.tanh(x) / (1 + x * x))
t = time.perf_counter()
g = fg.grad(f)(x)
first = time.perf_counter() - t
from funcgrad.kernels.cpu import _lazy
loaded_then = len(_lazy._ufuncs)
while _lazy._requests:  # the loader finishes
    time.sleep(0.05)
g2 = fg.grad(f)(x)
assert (g.view(np.int64) == g2.view(np.int64)).all(), "the switch changed bits"
print(first, loaded_then, len(_lazy._ufuncs))
"""


def test_first_grad_in_a_fresh_process_does_not_wait_for_numba():
    """Background mode: the first grad computes on the twins (no kernel built by it), the
    loader builds the kernels, and the gradient after the switch has the same bits."""
    env = {**os.environ, "FUNCGRAD_KERNELS": "background"}
    proc = subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True, text=True,
                          timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    first, loaded_then, loaded_after = proc.stdout.split()
    assert int(loaded_then) == 0 and int(loaded_after) >= 5


def test_kernel_loading_mode_is_checked():
    with pytest.raises(ValueError, match="background, wait, numpy"):
        set_kernel_loading("later")


def test_row_sweeps_compile_only_when_a_caller_names_them(monkeypatch):
    """A 2-d elementwise row loop needs the sweeps' module, not its reductions: on an
    empty disk cache the four reduction/scatter sweeps are ~2 s of compiling, which W3's
    first seconds (and fg.jit compiling beside the loader) spent for nothing."""
    compiled = []
    monkeypatch.setattr(_lazy, "_loops_ready", set())
    monkeypatch.setattr(_lazy, "_compile_sweep",
                        lambda module, sweep, dt: compiled.append((sweep, dt)))
    module = _lazy.loops()
    assert module is not None and compiled == []
    assert _lazy.loops("logsumexp_rows") is module
    assert compiled == [("logsumexp_rows", np.dtype(np.float64)),
                        ("logsumexp_rows", np.dtype(np.float32))]
    assert _lazy.loops("logsumexp_rows", wait=False) is module  # ready: no second build
    assert len(compiled) == 2
    # the row loop of a broadcast add (W3's bias) asks for the module only
    monkeypatch.setattr(_lazy.config, "loading", "wait")
    x, b = np.ones((64, 128)), np.arange(128.0)
    from funcgrad.kernels.cpu import rows
    np.testing.assert_array_equal(rows.add(x, b), x + b)
    assert [s for s, _ in compiled] == ["logsumexp_rows"] * 2


def test_a_kernel_still_loading_is_generated_once(loading_mode, monkeypatch):
    """Until its kernel has loaded, a primitive computes with the twin; the kernel's source
    is generated on the first call only (it was generated again on every call, parsing
    the scalar rules each time)."""
    from funcgrad.primitives import _elementwise_kernels as ew
    from funcgrad.primitives.elementwise import sin_p
    loading_mode("numpy")  # (kernels never load: every call takes the loading path)
    made = []
    real = ew._forward_kernel
    monkeypatch.setattr(ew, "_forward_kernel", lambda decl, dt: made.append(dt) or real(decl, dt))
    first_call = ew._vector_forward(sin_p.elementwise)
    x = np.linspace(-3.0, 3.0, 7)
    results = [first_call(x) for _ in range(4)]
    assert all(_bits_equal(r, results[0]) for r in results)
    assert np.allclose(results[0], np.sin(x), rtol=1e-15, atol=0)
    assert len(made) == 1

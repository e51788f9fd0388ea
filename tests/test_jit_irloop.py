"""Loop functions written as LLVM IR by funcgrad (funcgrad.jit.irloop) compute what Numba
compiles from the same text, bit for bit, and whatever the writer does not handle is left
to Numba."""
import re
import textwrap

import numpy as np
import pytest

import funcgrad as fg
from funcgrad.jit import irloop
from funcgrad.jit.source import HEADER

pytestmark = pytest.mark.usefixtures("fresh_jit_cache")

numba = pytest.importorskip("numba")


def _module(params, body):
    """A loop function's module, as funcgrad.jit.outline writes them."""
    return "\n".join(HEADER) + "\n@njit(cache=False, error_model=\"numpy\")\n" + \
        f"def loop({', '.join(params)}):\n" + textwrap.indent(textwrap.dedent(body), "    ")


def _both(params, body):
    """(the loop written as IR, called from an @njit function; the loop Numba compiled)"""
    source = _module(params, body)
    namespace = {}
    exec(compile(source, "<loop>", "exec"), namespace)
    by_numba = namespace["loop"]
    intrinsic = irloop.loop_intrinsic(source, lambda: by_numba)
    assert intrinsic is not None, "the text should be within the writer's language"
    names = ", ".join(params)
    caller = {"_ir": intrinsic, "njit": numba.njit}
    exec(f"@njit(error_model='numpy')\ndef call({names}):\n    _ir({names})\n", caller)
    return caller["call"], by_numba


def _same_bits(params, body, *args):
    """Run both versions on copies of ``args``; every array argument must end with the
    same bytes."""
    by_ir, by_numba = _both(params, body)
    a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
    b = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
    with np.errstate(all="ignore"):
        by_ir(*a)
        by_numba(*b)
    for x, y in zip(a, b):
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype
            assert x.tobytes() == y.tobytes()
    return a


X = np.concatenate([np.linspace(-40.0, 40.0, 61), [0.0, -0.0, np.inf, -np.inf, np.nan,
                                                    1e-310, 3.0]])


def test_arithmetic_vector_maths_and_comparisons_have_numbas_bits():
    out = _same_bits(["p0", "p1", "pk2"], """
        f3 = np.ravel(p0)
        bad = 0
        for i in range(f3.shape[0]):
            t = f3[i]
            s = _vm.sin(t)
            bad += _vm.trig_bad(t)
            e = _vm.exp(t * 0.25) - _vm.log1p(abs(t)) / (1.0 + _vm.tanh(t))
            c = -t if t < p1 else t * 2 - 1
            w = (t != t) or (t >= 3.0)
            pk2[0, i] = s * 0.5 + e
            pk2[1, i] = c
            pk2[2, i] = np.float64(w) + _lf.sqrt(abs(t)) + _lf.floor(t) + _lf.tanh(t)
            pk2[3, i] = _vm.cos(t) * _vm.log(abs(t) + 1.0) + _lf.expm1(t * 1e-3)
        """, X, 0.5, np.empty((4, X.size)))
    assert np.isnan(out[2][1, -3])  # (-NaN compares False: the else branch)


def test_exp2_of_float32_and_float64_in_one_loop_has_numbas_bits():
    """``_lf.exp2`` is ``llvm.exp2`` declared per type, as the kernels' leaf (Numba's own
    ``np.exp2`` declares it once, unsuffixed, and fails on the second type)."""
    x = np.concatenate([X * 4.0, [-149.5, -150.0, 127.5, 128.0, 1e-45]])
    _same_bits(["p0", "p1", "pk2"], """
        for i in range(p0.shape[0]):
            t = p0[i]
            pk2[0, i] = _lf.exp2(t) + np.float64(_lf.exp2(p1[i]))
        """, x, x.astype(np.float32), np.empty((1, x.size)))


_MATHS = """
    # fused: sin, cos, exp, log1p, tanh, log over (N,)
    for i in range(p0.shape[0]):
        t = p0[i]
        pk1[0, i] = _vm.sin(t) + _vm.cos(t * 0.5)
        pk1[1, i] = _vm.exp(t * 0.25) - _vm.log1p(abs(t))
        pk1[2, i] = _vm.tanh(t) * _vm.log(abs(t)) + _vm.sin(t * 3.0)
    """


@pytest.mark.parametrize("n", [1, 3, 6, 13, 37])
def test_vector_maths_lanes_have_the_scalar_bits_at_every_length(n):
    """A small loop's vectorised part calls the routines' vector variants (8, 4, 2
    lanes), its remainder the scalar function: every element has Numba's bits whichever
    ran it."""
    x = np.resize(X, n) * np.where(np.arange(n) % 2, 1.0, -0.75)
    assert irloop._elements(_MATHS.replace("N", str(n))) <= irloop.CALL_MATHS_MAX_ELEMENTS
    _same_bits(["p0", "pk1"], _MATHS.replace("N", str(n)), x, np.empty((3, n)))


def _loop_ir(n, loops=("one",)):
    from llvmlite import ir
    source = _module(["p0", "pk1"], _MATHS.replace("N", str(n)))
    params, body = irloop._parse(source)
    maths = "call" if irloop._elements(source) <= irloop.CALL_MATHS_MAX_ELEMENTS else "inline"
    kinds = [("array", np.dtype(np.float64), 1, "C"), ("array", np.dtype(np.float64), 2, "C")]
    module = ir.Module()
    for name in loops:
        irloop._define(module, name, params, body, kinds, [], maths)
    return str(module)


def test_small_loops_share_one_function_per_vector_maths_routine():
    """Two small loops of one kernel module calling sin four times share one sin
    function (and one of each vector width the CPU has) instead of a copy of its body per call:
    LLVM optimises and compiles each routine once."""
    from funcgrad.jit import irmaths
    text = _loop_ir(64, ("one", "two"))
    assert text.count(f'call double @"{irmaths.name("sin")}"(') == 4
    for routine in ("sin", "cos", "exp", "log", "log1p", "tanh"):
        scalar = irmaths.name(routine)
        assert text.count(f'define internal double @"{scalar}"(') == 1
        for n in (2, 4, 8):  # (only the widths this CPU's vectoriser may choose)
            want = 1 if n in irmaths.WIDTHS else 0
            assert text.count(f'@"{scalar}_v{n}"(<{n} x double>') == want
    loop = text.split('define internal i32 @"two"')[1].split("\n}")[0]
    assert "select" not in loop  # (the routines' bodies are all selects, the loop has none)
    assert re.search(r'br label %"for.cond", !llvm.loop (!\d+)', loop)  # not interleaved
    assert '!"llvm.loop.interleave.count", i32 1' in text


def test_large_loops_keep_the_vector_maths_inlined():
    """Over many elements the calls would cost run time (spilled vectors): inlined."""
    text = _loop_ir(irloop.CALL_MATHS_MAX_ELEMENTS + 1)
    assert "fgvm_" not in text and "select" in text and "llvm.loop" not in text


def test_bool_and_int64_arrays_and_if_expressions():
    x = np.arange(-5, 5, dtype=np.int64)
    m = x % 3 == 0
    _same_bits(["p0", "p1", "pk2", "pk3"], """
        for i in range(p0.shape[0]):
            a = p0[i]
            k = p1[i]
            pk2[0, i] = a * 3 - 1 if k else a + 1
            pk2[1, i] = k + a
            pk3[0, i] = (a > 0) and k
            pk3[1, i] = not k
        """, x, m, np.empty((2, x.size), np.int64), np.empty((2, x.size), np.bool_))


def test_nested_loops_views_broadcast_rows_and_a_strided_input():
    x = np.linspace(-1.0, 1.0, 48).reshape(6, 8)
    strided = np.linspace(0.0, 2.0, 96).reshape(8, 12)[::2, 1::3].T  # (4, 4) not contiguous
    bias = np.linspace(0.0, 0.7, 8)
    _same_bits(["p0", "p1", "p2", "p3", "pk4"], """
        w5 = p0[2]
        f6 = np.ravel(p2)
        for i0 in range(6):
            for i1 in range(p1.shape[0]):
                t = p0[i0, i1] * p1[i1] + w5[i1]
                u = p3[0] if i1 - i0 == 1 and 0 <= i0 < 5 else 0.0
                pk4[0, i0 * 8 + i1] = t + u
        for i in range(16):
            pk4[1, i] = f6[i] * 2.0
        """, x, bias, strided, np.array([0.25]), np.zeros((2, 48)))


def test_a_guarded_load_runs_only_on_its_branch():
    """``a[i - 3] if i >= 3 else v`` must not read a[-3] (branches, not a select)."""
    a = np.arange(5.0)
    out = _same_bits(["p0", "pk1"], """
        for i in range(8):
            t = 0.0
            if 3 <= i < 8:
                t = p0[i - 3] + 1.0
            pk1[0, i] = p0[i - 3] * 2.0 if i >= 3 else -1.0
            pk1[1, i] = t
        """, a, np.empty((2, 8)))
    assert out[1][0].tolist() == [-1.0, -1.0, -1.0, 0.0, 2.0, 4.0, 6.0, 8.0]


def test_the_range_check_raises_as_numbas_loop_does():
    by_ir, by_numba = _both(["p0", "pk1"], """
        bad = 0
        for i in range(p0.shape[0]):
            t = p0[i]
            pk1[0, i] = _vm.sin(t)
            bad += _vm.trig_bad(t)
        if bad:
            raise _rt.TrigRangeError("sin/cos argument beyond the vector range")
        """)
    from funcgrad.jit.runtime import TrigRangeError
    far = np.array([1.0, 1e12])
    for run in (by_ir, by_numba):
        with pytest.raises(TrigRangeError, match="beyond the vector range"):
            run(far, np.empty((1, 2)))
    near = np.array([1.0, 2.0])
    out = np.empty((1, 2))
    by_ir(near, out)
    assert out[0].tobytes() == np.array([np.sin(1.0), np.sin(2.0)]).tobytes() or \
        np.allclose(out[0], np.sin(near), rtol=1e-15)


def test_stack_entries_passed_as_pairs():
    """A kernel passes a stack's entry k as ``(stack, k)``."""
    by_ir, _ = _both(["p0", "pk1"], """
        for i in range(p0.shape[1]):
            pk1[0, i] = p0[1, i] * 2.0
        """)
    stack = np.arange(24.0).reshape(3, 2, 4)
    out = np.zeros((2, 1, 4))
    numba.njit(lambda s, o, k: by_ir((s, k), (o, 1)))(stack, out, 2)
    assert out[1, 0].tolist() == (stack[2, 1] * 2.0).tolist()


@pytest.mark.parametrize("body", [
    "for i in range(4):\n    pk1[0, i] = p0[i] // 2.0\n",  # floor division: Numba's rules
    "for i in range(4):\n    pk1[0, i] = _ew0(p0[i])\n",  # a helper of the module
    "for i in prange(4):\n    pk1[0, i] = p0[i]\n",
    "for i in range(4):\n    pk1[0, i] = p0[-1]\n",  # (Numba wraps negative indices)
])
def test_texts_outside_the_language_are_left_to_numba(body):
    source = _module(["p0", "pk1"], body)
    assert irloop.loop_intrinsic(source, lambda: None) is None
    assert not irloop.writes(source)
    assert irloop.loop_intrinsic(source.replace("def loop", "def other"), None) is None


def test_argument_types_it_does_not_write_are_compiled_by_numba_in_the_caller():
    x = np.arange(6, dtype=np.int32)  # (int32 arrays are not written as IR)
    out = _same_bits(["p0", "pk1"], """
        for i in range(p0.shape[0]):
            pk1[0, i] = p0[i] * 0.5
        """, x, np.empty((1, 6)))
    assert out[1][0].tolist() == (x * 0.5).tolist()


def _chain(x):
    y = x
    for _ in range(12):
        y = np.sin(y) * 0.5 + np.tanh(y) * 0.25 + y * 0.9
    return np.sum(y * y)


def test_a_jitted_gradient_with_ir_loops_has_the_bits_of_numba_loops(monkeypatch):
    from funcgrad.jit import cache, lower
    monkeypatch.setattr(lower, "OUTLINE_MIN_EQNS", 16)
    x = np.linspace(-2.0, 2.0, 64)
    monkeypatch.setattr(irloop, "IR_LOOPS", False)
    monkeypatch.setattr(cache, "_loops", {})
    by_numba = fg.jit(fg.grad(_chain), wait=True)
    want = by_numba(x)
    assert not re.search(r"\(st\d+, ", by_numba.lower(x).as_text())
    monkeypatch.setattr(irloop, "IR_LOOPS", True)
    monkeypatch.setattr(cache, "_loops", {})
    by_ir = fg.jit(fg.grad(_chain), wait=True)
    text = by_ir.lower(x).as_text()
    assert "def loop(" in text and re.search(r"\(st\d+, ", text)  # called with pairs
    assert by_ir(x).tobytes() == want.tobytes()
    assert any(not isinstance(f, numba.core.dispatcher.Dispatcher)
               for f in cache._loops.values())
    np.testing.assert_allclose(want, fg.grad(_chain)(x), rtol=1e-13, atol=1e-13)


def test_pairs_reach_the_numba_fallback_as_entries():
    by_ir, _ = _both(["p0", "pk1"], """
        for i in range(p0.shape[0]):
            pk1[0, i] = p0[i] * 0.5
        """)
    x = np.arange(4, dtype=np.int32)  # (written by Numba)
    out = np.zeros((3, 1, 4))
    numba.njit(lambda x, o: by_ir(x, (o, 2)))(x, out)
    assert out[2, 0].tolist() == (x * 0.5).tolist() and not out[:2].any()


# --- kernels written whole as IR (funcgrad.jit.irkernel) -------------------------------

def _outlined(monkeypatch, fn, x, ir_kernels=True):
    """(the jitted gradient of ``fn`` with its fused loops outlined, its Executable)."""
    from funcgrad.jit import irkernel, lower
    monkeypatch.setattr(lower, "OUTLINE_MIN_EQNS", 16)
    monkeypatch.setattr(irkernel, "IR_KERNELS", ir_kernels)
    jitted = fg.jit(fg.grad(fn), wait=True)
    return jitted, jitted.lower(x).executable


def test_a_kernel_of_ir_loops_is_written_as_ir_with_the_numba_kernels_bits(monkeypatch):
    from funcgrad.jit import irkernelcall
    x = np.linspace(-2.0, 2.0, 64)
    by_numba, ex_numba = _outlined(monkeypatch, _chain, x, ir_kernels=False)
    want = by_numba(x)
    assert isinstance(ex_numba.run, numba.core.dispatcher.Dispatcher)
    by_ir, ex = _outlined(monkeypatch, _chain, x)
    lowered = ex.lowered
    assert irkernelcall.plan(lowered.kernel_source, "kernel0", lowered.loop_sources) is not None
    assert not isinstance(ex.run, numba.core.dispatcher.Dispatcher)
    assert by_ir(x).tobytes() == want.tobytes()
    assert by_ir(x[::-1].copy()).tobytes() == by_numba(x[::-1].copy()).tobytes()


def test_a_kernel_of_ir_loops_over_few_elements_calls_the_vector_variants(monkeypatch):
    # (with its 8-element trip count written as a constant, LLVM left the loop scalar)
    from funcgrad.jit import irkernelcall, irmaths
    x = np.linspace(-2.0, 2.0, 8)
    _, ex = _outlined(monkeypatch, _chain, x)
    lowered = ex.lowered
    kernel = irkernelcall.plan(lowered.kernel_source, "kernel0", lowered.loop_sources)
    ir_text = str(irkernelcall._optimised(kernel.text, "f", [x]))
    digest = irmaths.name("sin").rsplit("_", 1)[1]
    assert re.search(r"call <\d+ x double> @fgvl_\w+_" + digest + r"_v\d", ir_text)


def test_a_kernel_of_ir_loops_calls_the_vector_maths_compiled_once_apart(monkeypatch):
    # (each kernel module optimised and compiled sin/cos and their variants again; now
    # they are declared, with what the vectoriser needs to call the variants, and
    # compiled once per process in modules of their own)
    from funcgrad.jit import irkernelcall
    x = np.linspace(-2.0, 2.0, 64)
    _, ex = _outlined(monkeypatch, _chain, x)
    lowered = ex.lowered
    kernel = irkernelcall.plan(lowered.kernel_source, "kernel0", lowered.loop_sources)
    module = irkernelcall._optimised(kernel.text, "f", [x])
    ir_text = str(module)
    assert not [f.name for f in module.functions
                if f.name.startswith(("fgvm_", "fgvl_")) and not f.is_declaration]
    called = set(re.findall(r"call <\d+ x double> @(fgvl_\w+)_v\d\(", ir_text))
    assert {c.split("_")[1] for c in called} == {"sin", "cos", "tanh"}
    assert not re.search(r"call \w* ?double @fgvl_", ir_text)  # (no scalar remainder)
    # (compiled once per process: see the disk cache's test, run in fresh processes)


def test_a_kernel_passes_noalias_arrays_where_its_calls_cannot_overlap(monkeypatch):
    # (a repeat's call reads entry r - 1 of a stack and writes entry r: disjoint, so LLVM
    # needs no overlap check at run time, nor the scalar copy of the loop it guards)
    from funcgrad.jit import irkernelcall

    def long_chain(x):  # (benchmarks/jit_compile.py's, 200 operations: repeats)
        y = x
        for _ in range(50):
            y = np.sin(y) * 0.5 + y * 0.9
        return np.sum(y)
    x = np.linspace(-2.0, 2.0, 64)
    jitted, ex = _outlined(monkeypatch, long_chain, x)
    lowered = ex.lowered
    np.testing.assert_allclose(jitted(x), fg.grad(long_chain)(x), rtol=1e-13, atol=1e-13)
    assert re.search(r"\(st(\d+), -1 \+ r\d+\), \(st\1, r\d+\)", lowered.kernel_source)
    kernel = irkernelcall.plan(lowered.kernel_source, "kernel0", lowered.loop_sources)
    written = str(irkernel_write(kernel.text, [x]))
    loops = re.findall(r'define internal i32 @"fgloop[^\n]*', written)
    assert loops and all("noalias" in line for line in loops)
    assert "found.conflict" not in str(irkernelcall._optimised(kernel.text, "f", [x]))


def irkernel_write(text, arrays):
    from funcgrad.jit import irkernel
    return irkernel.write(text, "f", arrays)


def test_a_kernel_of_ir_loops_raises_the_trig_range_error_and_switches(monkeypatch):
    x = np.linspace(-2.0, 2.0, 64)
    far = x.copy()
    far[[3, 40, 41]] = [1e9, -3e12, np.inf]
    by_numba, _ = _outlined(monkeypatch, _chain, x, ir_kernels=False)
    with np.errstate(all="ignore"):
        want = [by_numba(x), by_numba(far), by_numba(x)]
    by_ir, ex = _outlined(monkeypatch, _chain, x)
    assert ex.lowered.trig_checked
    with np.errstate(all="ignore"):
        got = [by_ir(x), by_ir(far), by_ir(x)]
    assert [g.tobytes() for g in got] == [w.tobytes() for w in want]


def test_a_kernel_of_ir_loops_takes_other_arguments_through_numba(monkeypatch):
    from funcgrad.jit import irkernelcall
    x = np.linspace(-2.0, 2.0, 64)
    _, ex = _outlined(monkeypatch, _chain, x)
    lowered = ex.lowered
    kernel = irkernelcall.plan(lowered.kernel_source, "kernel0", lowered.loop_sources)
    calls = []

    def by_numba():
        from funcgrad.jit.cache import load_kernels
        calls.append(1)
        return load_kernels(lowered.kernel_source).kernel0
    run = kernel.function("kernel0", by_numba)
    want = run(x)
    assert not calls
    strided = np.repeat(x, 2)[::2]  # (not contiguous: copied, then the IR kernel)
    assert run(strided).tobytes() == want.tobytes() and not calls
    single = x.astype(np.float32)  # (another dtype: the Numba kernel)
    assert run(single).tobytes() == by_numba()(single).tobytes() and calls
    kernel = irkernelcall.plan(lowered.kernel_source, "kernel0", lowered.loop_sources)
    calls.clear()
    run = kernel.function("kernel0", by_numba)  # (float32 first: written as IR too)
    assert run(single).tobytes() == by_numba()(single).tobytes() and len(calls) == 1
    assert run(x).tobytes() == want.tobytes()


@pytest.mark.parametrize("body", [
    "st0 = np.empty((1, 1, 4), np.float64)\n    st0[0, 0, 0] = a0[0]\n    return st0[0, 0].copy()",
    "v = np.dot(a0, a0)\n    st0 = np.empty((1, 1, 4), np.float64)\n    return st0[0, 0].copy()",
    "st0 = np.empty((1, 1, 4), np.float64)\n    return st0[0, 0]",
    "st0 = np.empty((1, 1, 4), np.float64)\n    _loop0(a0, (st0, 1))\n    return st0[0, 0].copy()",
])
def test_kernels_with_anything_else_are_left_to_numba(body):
    from funcgrad.jit import irkernelcall
    loop = _module(["p0", "pk1"], """
        for i in range(p0.shape[0]):
            pk1[0, i] = p0[i] * 0.5
        """)
    from funcgrad.jit.source import loop_key
    source = (f"_loop0 = _rt_loop('{loop_key(loop)}')\n@njit(cache=True)\n"
              f"def kernel0(a0):\n    {body}\n")
    assert irkernelcall.plan(source, "kernel0", [loop]) is None
    good = source.replace(body, "st0 = np.empty((1, 1, 4), np.float64)\n    "
                                "_loop0(a0, (st0, 0))\n    return st0[0, 0].copy()")
    kernel = irkernelcall.plan(good, "kernel0", [loop])
    assert kernel is not None
    x = np.arange(4.0)
    assert kernel.function("kernel0", None)(x).tolist() == (x * 0.5).tolist()


_CACHE_SCRIPT = textwrap.dedent("""
    import sys, hashlib, numpy as np, funcgrad as fg
    from funcgrad.jit import irkernelcall, lower
    lower.OUTLINE_MIN_EQNS = 16
    if sys.argv[1] == "warm":  # compiling again (kernel or vector maths) would fail
        def no(*args):
            raise AssertionError("compiled again")
        irkernelcall._object_code = irkernelcall._optimise = no
    library, compiled = irkernelcall.library, []
    irkernelcall.library = lambda routine: compiled.append(routine) or library(routine)
    def chain(x):
        y = x
        for _ in range(12):
            y = np.sin(y) * 0.5 + np.tanh(y) * 0.25 + y * 0.9
        return np.sum(y * y)
    for n in (64, 48):  # (two kernels, each vector maths routine compiled once)
        g = fg.jit(fg.grad(chain), wait=True)(np.linspace(-2.0, 2.0, n))
        print(hashlib.sha1(g.tobytes()).hexdigest())
    print(sorted(compiled))
    """)


def _run_cache_script(tmp_path, run):
    import os
    import subprocess
    import sys
    env = dict(os.environ, FUNCGRAD_CACHE_DIR=str(tmp_path / "cache"),
               NUMBA_CACHE_DIR=str(tmp_path / "numba"), FUNCGRAD_KERNELS="wait")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-X", "faulthandler", "-c", _CACHE_SCRIPT, run],
                          env=env, capture_output=True, text=True, timeout=120)


def test_a_kernel_of_ir_loops_is_loaded_from_the_disk_cache_in_a_new_process(tmp_path):
    out = [_run_cache_script(tmp_path, run) for run in ("cold", "warm")]
    assert [o.returncode for o in out] == [0, 0], out[1].stderr[-2000:]
    assert out[0].stdout.splitlines()[-1] == "['cos', 'sin', 'tanh']"
    assert out[1].stdout.splitlines()[-1] == "[]"
    assert out[0].stdout.splitlines()[:2] == out[1].stdout.splitlines()[:2]
    assert len(list((tmp_path / "cache" / "jit").glob("fgvl_*.o"))) == 3  # sin, cos, tanh
    objs = list((tmp_path / "cache" / "jit").glob("fgir_*.o"))
    assert len(objs) == 2
    for obj in objs:  # (cut short: compiled again, not linked)
        obj.write_bytes(obj.read_bytes()[:1000])
    again = _run_cache_script(tmp_path, "cold")
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout.splitlines()[:2] == out[0].stdout.splitlines()[:2]
    assert all(len(obj.read_bytes()) > 1000 for obj in objs)


def test_a_cached_kernel_calling_vector_maths_this_version_lacks_is_compiled_again(tmp_path):
    # A kernel object written by another version of the vector maths, under the same name
    # (as a key that missed that version made it), calls routines of another name: the
    # engine resolves an unknown symbol to address 0, and the first call crashed the
    # interpreter.  Such an object is compiled again.
    import hashlib
    cold = _run_cache_script(tmp_path, "cold")
    assert cold.returncode == 0, cold.stderr[-2000:]
    objs = list((tmp_path / "cache" / "jit").glob("fgir_*.o"))
    assert len(objs) == 2
    for obj in objs:
        code = obj.read_bytes()[:-32]
        old = re.sub(rb"(fgvl_[a-z0-9]+_)[0-9a-f]{8}", rb"\g<1>00000000", code)
        assert old != code and len(old) == len(code)
        obj.write_bytes(old + hashlib.sha256(old).digest())
    again = _run_cache_script(tmp_path, "cold")
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout.splitlines()[:2] == cold.stdout.splitlines()[:2]
    assert all(b"_00000000" not in obj.read_bytes() for obj in objs)


def test_the_objects_key_holds_the_runtime_whoever_plans_first(monkeypatch):
    # (the key took the runtime's digest from its first caller: plan() without one made
    # a process key every object without the vector maths' text)
    from funcgrad.jit import irkernelcall, runtime_digest
    monkeypatch.setattr(irkernelcall, "_TAG", None)
    first = irkernelcall._tag()
    monkeypatch.setattr(runtime_digest, "runtime_tag", lambda: "another runtime")
    monkeypatch.setattr(irkernelcall, "_TAG", None)
    assert irkernelcall._tag() != first

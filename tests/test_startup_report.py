"""benchmarks/startup.py and the suite's first-call (W7) table, on made-up measurements.

No process is started and nothing is timed: these check how W7's figures are chosen
(wall time, whatever the suite's clock), kept (CPU time beside them) and judged against
issue 24's targets.  tests/test_bench_smoke.py runs the real fresh processes.
"""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import startup, suite, workloads as wl  # noqa: E402


def _run(label, workload="W1", cold=False, **samples):
    rec = startup._new_run(label, workload, cold)
    rec["status"] = "ok"
    for key, values in samples.items():
        rec[key] = list(values)
    return rec


def _measured():
    runs = {
        "numpy": _run("numpy", import_s=[0.06, 0.07, 0.08], import_cpu_s=[0.05] * 3),
        "fnp": _run(wl.FG, import_s=[0.09, 0.10, 0.11], import_cpu_s=[0.1] * 3,
                    first_grad_s=[0.010, 0.012, 0.030], first_grad_cpu_s=[0.4] * 3),
        "fnp cold": _run(wl.FG, cold=True, import_s=[0.1], import_cpu_s=[0.1],
                         first_grad_s=[0.025], first_grad_cpu_s=[7.0]),
        "torch": _run(wl.TORCH, import_s=[1.0], import_cpu_s=[1.0],
                      first_grad_s=[0.002], first_grad_cpu_s=[0.002]),
        "W3 fnp": _run(wl.FG, "W3", first_call_s=[0.040], first_call_cpu_s=[0.3]),
        "W3 fnp cold": _run(wl.FG, "W3", True, first_call_s=[0.050],
                            first_call_cpu_s=[0.5]),
        "W3 jit": _run(wl.FG_JIT, "W3", first_call_s=[0.070], first_call_cpu_s=[0.3],
                       until_compiled_s=[2.5], until_compiled_cpu_s=[2.0],
                       compiled_call_s=[0.003]),
        "W3 jit cold": _run(wl.FG_JIT, "W3", True, first_call_s=[0.120],
                            first_call_cpu_s=[0.3], until_compiled_s=[9.0],
                            until_compiled_cpu_s=[8.0], compiled_call_s=[0.003]),
        "W3 torch": _run(wl.TORCH, "W3", first_call_s=[0.004], first_call_cpu_s=[0.004]),
    }
    return {"runs": runs, "reps": 3}


def test_first_call_rows_are_wall_time_with_cpu_time_kept():
    rows = {r["key"]: r for r in suite.startup_results(_measured())}
    fg = rows["W7.first_grad.warm"]["libraries"][wl.FG]
    # the background loader's CPU (0.4 s) is not what the user waited for
    assert fg["median_s"] == pytest.approx(0.012)
    assert fg["clock"] == "wall" and fg["cpu_samples_s"] == [0.4] * 3
    assert rows["W7.first_grad.cold"]["libraries"][wl.FG]["median_s"] == 0.025
    assert "FUNCGRAD_CACHE_DIR" in rows["W7.first_grad.cold"]["note"]
    assert rows["W7.import"]["libraries"][wl.REF]["median_s"] == pytest.approx(0.07)


def test_w3_rows_hold_the_w3_runs_and_until_compiled_only_jit():
    rows = {r["key"]: r for r in suite.startup_results(_measured())}
    warm = rows["W7.w3_first_call.warm"]["libraries"]
    assert set(warm) == {wl.FG, wl.FG_JIT, wl.TORCH}
    assert warm[wl.FG_JIT]["median_s"] == 0.070
    assert warm[wl.FG]["ratio_to_fastest_peer"] == pytest.approx(10.0)
    assert set(rows["W7.w3_first_call.cold"]["libraries"]) == {wl.FG, wl.FG_JIT}
    until = rows["W7.w3_until_compiled.cold"]
    assert until["unit"] == "s" and set(until["libraries"]) == {wl.FG_JIT}
    assert until["libraries"][wl.FG_JIT]["median_s"] == 9.0
    assert until["libraries"][wl.FG_JIT]["compiled_call_samples_s"] == [0.003]
    # W1's rows do not pick up W3's runs, nor the other way round
    assert set(rows["W7.first_grad.warm"]["libraries"]) == {wl.FG, wl.TORCH}


def test_first_call_targets_judge_the_medians():
    tg = {t["target"]: t for t in suite.first_call_targets(suite.startup_results(
        _measured()))}
    imp = tg["import funcgrad within 40 ms of import numpy alone"]
    assert imp["met"] is True and imp["ratio"] == pytest.approx(0.03)
    assert tg["first grad of W1 in a fresh process at most 20 ms, warm kernel cache"][
        "met"] is True
    assert tg["first grad of W1 in a fresh process at most 20 ms, cold kernel cache"][
        "met"] is False
    jit = [t for name, t in tg.items() if name.startswith("first call of fg.jit")]
    assert [t["met"] for t in jit] == [True, False]  # 1.75x warm, 2.4x cold
    assert [t["met"] for name, t in tg.items() if "5 s" in name] == [False]


def test_report_puts_w7_in_its_own_wall_time_table():
    results = suite.startup_results(_measured())
    payload = {
        "date": "2026-12-02T00:00:00+00:00", "elapsed_s": 1.0,
        "machine": {"cpu_model": "x", "cpu_usable": 2, "python": "3", "platform": "p"},
        "config": {"command": "c", "rounds": 1, "target_ms": 1, "startup_reps": 3,
                   "clock": "cpu"},
        "versions": {}, "load_average_1min": {"start": 1.0, "end": 1.0},
        "results": results, "targets": [], "startup_numba": None,
        "first_call_targets": suite.first_call_targets(results),
    }
    text = suite.report(payload)
    first = text.index("First call (W7")
    assert "wall time (`time.perf_counter`) whatever `--clock` says" in text[first:]
    assert "W7 W3 funcgrad.jit: first call until compiled code" in text[first:]
    assert "First-call targets (issue 24)" in text
    assert "| W7" not in text[:first]  # no W7 row in the steady-state table


def test_children_get_jit_defaults_and_a_fresh_install_when_cold(monkeypatch):
    monkeypatch.setenv("FUNCGRAD_JIT_WAIT", "1")
    warm = startup._child_env(None)
    assert "FUNCGRAD_JIT_WAIT" not in warm and "NUMBA_CACHE_DIR" not in warm
    cold = startup._child_env("/tmp/empty", kernels="wait")
    assert cold["NUMBA_CACHE_DIR"].startswith("/tmp/empty")
    assert cold["FUNCGRAD_CACHE_DIR"].startswith("/tmp/empty")
    assert cold["FUNCGRAD_KERNELS"] == "wait"


def test_a_child_without_a_result_line_is_an_error_naming_its_last_words():
    assert startup.parse_output('noise\nW7RESULT {"import_s": 0.5}\n') == {"import_s": 0.5}
    got = startup.parse_output("", "Traceback...\nImportError: no jax", 1)
    assert got == {"error": "exit 1: ImportError: no jax"}


def test_a_wrong_first_result_marks_the_run_wrong_not_timed():
    rec = startup._new_run(wl.FG, "W3", False)
    startup._record(rec, {"first_call_s": 0.1, "grad_ok": False, "problem": "off by 1%"})
    assert rec["status"] == "WRONG" and "off by 1%" in rec["error"]
    assert rec["first_call_s"] == []


def test_the_w3_script_is_the_suites_w3_task():
    text = startup.script(wl.FG_JIT, "W3", "tiny")
    assert "wl.w3(wl.SIZES['tiny'])[1]" in text and "block_until_compiled" in text
    compile(text, "<w3>", "exec")
    compile(startup.script(wl.JAX), "<w1>", "exec")

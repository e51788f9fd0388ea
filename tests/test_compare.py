"""benchmarks/compare.py: its statistics and table on synthetic data, and one tiny run.

No timing assertion: the synthetic samples are made up, and the tiny run only has to
produce a well-formed comparison of this tree with itself.
"""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import compare  # noqa: E402


def _row(key="W1.grad", lib="funcgrad (fnp)", base=None, head=None,
         status=("ok", "ok")):
    row = compare.Row(key, key.split(".")[0], f"{key} label", lib, "µs")
    row.status = {"base": (status[0], ""), "head": (status[1], "")}
    row.samples = {"base": base or [], "head": head or []}
    return row


def test_median_ci_is_the_order_statistics_table():
    # n = 10: (x_2, x_9), coverage 1 - 2*11/1024; n = 30: (x_10, x_21)
    assert compare.median_ci(range(1, 11)) == (2, 9, 1 - 22 / 1024)
    lo, hi, cov = compare.median_ci(range(1, 31))
    assert (lo, hi) == (10, 21) and 0.95 <= cov < 0.96
    # too few values for 95%: the range, with its (lower) coverage
    assert compare.median_ci([3, 1, 2, 5, 4]) == (1, 5, 1 - 2 / 32)
    assert compare.median_ci([7.0])[:2] == (7.0, 7.0)


def test_paired_ratio_cancels_load_that_varies_by_round():
    """Each round is slowed by a different load; head is 2% slower in every round."""
    loads = [1.0, 3.0, 1.5, 2.2, 1.1, 4.0, 1.3, 2.0]
    base = [[1e-4 * f * w for w in (1.0, 1.01, 0.99)] for f in loads]
    head = [[x * 1.02 for x in r] for r in base]
    s = compare.summarize_pair(base, head, threshold=0.05)
    assert s["rounds"] == len(loads)
    assert s["ratio"] == pytest.approx(1.02)
    assert s["ci_low"] == pytest.approx(1.02) and s["ci_high"] == pytest.approx(1.02)
    assert s["verdict"] == "ok"
    # each column's own figure is the median over the rounds' medians
    assert s["base_s"] == pytest.approx(1e-4 * 1.75)
    assert s["base_spread"] > 0.2  # the load shows in the columns, not in the ratio


def test_rounds_missing_in_one_tree_are_not_paired():
    base = [[1.0], [], [1.0], [1.0]]
    head = [[1.1], [2.0], [], [1.1]]
    assert compare.round_figures(base) == [1.0, None, 1.0, 1.0]
    s = compare.summarize_pair(base, head)
    assert s["rounds"] == 2 and s["ratio"] == pytest.approx(1.1)


@pytest.mark.parametrize("ratio, low, high, confident, expected", [
    (1.01, 0.99, 1.03, True, "ok"),
    (1.04, 1.00, 1.08, True, "ok?"),
    (1.07, 1.02, 1.10, True, "slower?"),
    (1.20, 1.10, 1.30, True, "SLOWER"),
    (0.80, 0.75, 0.90, True, "faster"),
    (0.97, 0.90, 0.99, True, "ok"),       # faster, but not by more than the threshold
    (1.20, 1.10, 1.30, False, "slower?"),  # too few rounds to be sure of anything
    (1.01, 1.00, 1.02, False, "ok?"),
])
def test_verdicts(ratio, low, high, confident, expected):
    assert compare.verdict(ratio, low, high, 0.05, confident) == expected


def test_table_and_report_lines():
    rounds = [[[1e-4], [1.1e-4], [0.9e-4], [1e-4], [1.05e-4], [0.95e-4]]]
    ok = _row(base=rounds[0], head=[[x * 1.5 for x in r] for r in rounds[0]])
    ok.digests = {"base": {"abc"}, "head": {"abc"}}
    wrong = _row(key="W3.forward", base=rounds[0], head=[], status=("ok", "WRONG"))
    wrong.status["head"] = ("WRONG", "values: 3/10 off")
    text = compare.table([ok, wrong])
    lines = text.splitlines()
    assert lines[0].split("|")[1].strip() == "row"
    assert len(lines) == 3  # header, rule, the one timed row
    cells = [c.strip() for c in lines[2].split("|")[1:-1]]
    assert cells[:3] == ["W1.grad label", "funcgrad (fnp)", "µs"]
    assert cells[3] == "100 ±3.8%" and cells[4] == "150 ±3.8%"
    assert cells[5] == "1.500" and cells[6] == "1.500–1.500" and cells[7] == "same"
    assert cells[8] == "SLOWER"
    assert compare.not_timed([ok, wrong]) == [
        "- W3.forward label / funcgrad (fnp): base: ok; head: WRONG (values: 3/10 off)"]
    assert "1 SLOWER" in compare.overview([ok, wrong])


def test_bits():
    row = _row()
    row.digests = {"base": {"a"}, "head": {"b"}}
    assert row.bits() == "differ"
    row.digests = {"base": {"a", "c"}, "head": {"a"}}
    assert row.bits() == "vary"
    row.digests = {"base": set(), "head": {"a"}}
    assert row.bits() == ""


def test_report_from_saved_json(tmp_path, capsys):
    """--report rebuilds the rows from the JSON and prints the same table."""
    row = _row(base=[[1.0], [1.2], [0.9]], head=[[1.0], [1.2], [0.9]])
    payload = {
        "date": "d", "machine": {"cpu_model": "cpu", "cpu_usable": 2, "python": "3",
                                 "platform": "p"},
        "config": {"command": "c", "rounds": 3, "inner": 1, "target_s": 0.01,
                   "startup_rounds": 1, "clock": "cpu", "threshold": 0.05},
        "harness": "h", "trees": {t: {"root": t, "versions": {"numpy": "x"}}
                                  for t in ("base", "head")},
        "tree_text": {"base": "b", "head": "h"}, "elapsed_s": 1.0,
        "load_average_1min": {"start": 1, "end": 1},
        "rows": compare._rows_json([row], 0.05),
    }
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(payload))
    assert compare.main(["--report", str(path)]) == 0
    out = capsys.readouterr().out
    assert compare.table([row]) in out and "1.000" in out


def test_tiny_run_of_this_tree_against_itself(tmp_path):
    """The whole path: two worker processes, W1 at tiny size, and W7's fresh processes
    for funcgrad (fnp; warm cache only: a cold one compiles for seconds), this tree in
    both columns (no virtualenv is built)."""
    if compare.probe(Path(sys.executable), ROOT) is None:
        pytest.skip("this interpreter does not import funcgrad from this tree")
    assert compare.main([
        "--base", str(ROOT), "--head", str(ROOT), "--size", "tiny", "--only", "W1,W7",
        "--libs", "fnp", "--rounds", "2", "--inner", "1", "--target-ms", "0.5",
        "--startup-rounds", "1", "--no-cold", "--out-dir", str(tmp_path),
        "--name", "smoke"]) == 0
    data = json.loads((tmp_path / "smoke.json").read_text())
    rows = {(r["key"], r["lib"]): r for r in data["rows"]}
    assert set(rows) == {("W1.grad", "funcgrad (fnp)"), ("W7.import", "funcgrad (fnp)"),
                         ("W7.first_grad.warm", "funcgrad (fnp)")}
    for (key, _), rec in rows.items():
        assert rec["status"] == {t: {"status": "ok", "why": ""} for t in ("base", "head")}
        assert len(rec["samples_s"]["base"]) == (1 if key.startswith("W7") else 2)
        assert rec["summary"]["ratio"] > 0
    assert rows[("W1.grad", "funcgrad (fnp)")]["bits"] == "same"
    for info in data["rounds"][0]["workers"].values():
        assert Path(info["funcgrad"]).resolve().is_relative_to(ROOT)
    assert "Both columns are the same tree" in (tmp_path / "smoke.md").read_text()

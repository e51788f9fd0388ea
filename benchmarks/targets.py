"""The issues' targets judged on a suite run: issue 11 (the suite's first targets), issue 21
(overhead: eager against PyTorch and hand-written NumPy, jit against jax.jit and W3's GEMMs)
and issue 24 (the first call, W7).

A ratio between two libraries timed in the same task is the median of the per-round ratios
(the suite times the libraries round-robin, so each round's pair ran seconds apart and
shares the machine's state of the moment); a ratio between two tasks (the jit's W3 against
the GEMMs alone, a row of its own) is the ratio of their medians.  Each target reads
``{"target", "met", "measured", "ratio"}``; ``met`` is None where a side was not measured.
"""
from __future__ import annotations

import statistics
from typing import Any

if __package__:
    from . import workloads as wl
else:  # python benchmarks/suite.py: benchmarks/ is sys.path[0]
    import workloads as wl  # type: ignore[no-redef]

#: workloads the issue-11 targets speak about (W8 came later and has none)
TARGETED = {"W1", "W2", "W3", "W4", "W5", "W6"}


def _median(res: dict[str, Any] | None, label: str) -> float | None:
    if res is None:
        return None
    return res["libraries"].get(label, {}).get("median_s")


def targets(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The issue's targets, each with what was measured and whether it is met."""
    by_key = {r["key"]: r for r in results}
    out: list[dict[str, Any]] = []

    def eager_best(res):
        peers = {p: _median(res, p) for p in wl.EAGER_PEERS}
        peers = {p: v for p, v in peers.items() if v is not None}
        return min(peers.items(), key=lambda kv: kv[1]) if peers else (None, None)

    for res in results:
        w = res["workload"]
        if res["reference_only"] or w not in TARGETED:
            continue
        fg_t = _median(res, wl.FG)
        peer, best = eager_best(res)
        limit = 1.1 if w == "W3" else 1.0
        name = (f"{res['label']}: funcgrad eager "
                + ("within 1.1x of the fastest eager library" if w == "W3"
                   else "fastest of the eager libraries"))
        if fg_t is None or best is None:
            out.append({"target": name, "met": None, "measured": "not measured"})
        else:
            r = fg_t / best
            out.append({"target": name, "met": r <= limit, "ratio": r,
                        "measured": f"funcgrad (fnp) / {peer} = {r:.2f}"})
    for key, limit in (("W1.grad", 1.0), ("W2.grad", 1.0), ("W3.value_and_grad", 1.2),
                       ("W4.grad", 1.2)):
        res = by_key.get(key)
        if res is None:
            continue
        name = (f"{res['label']}: funcgrad.jit "
                + ("faster than jax.jit" if limit == 1.0 else "within 1.2x of jax.jit"))
        jit_t, jax_t = _median(res, wl.FG_JIT), _median(res, wl.JAX_JIT)
        if jit_t is None or jax_t is None:
            why = res["libraries"].get(wl.FG_JIT, {}).get("reason") or "not measured"
            out.append({"target": name, "met": None, "measured": why})
        else:
            r = jit_t / jax_t
            out.append({"target": name, "met": r < limit if limit == 1.0 else r <= limit,
                        "ratio": r, "measured": f"funcgrad.jit / jax.jit = {r:.2f}"})
    if "W3.value_and_grad" in by_key and "W3.forward" in by_key:
        g, f = _median(by_key["W3.value_and_grad"], wl.FG), _median(by_key["W3.forward"], wl.FG)
        name = "W3 value_and_grad / forward at most 2.5 (funcgrad eager)"
        if g is None or f is None:
            out.append({"target": name, "met": None, "measured": "not measured"})
        else:
            out.append({"target": name, "met": g / f <= 2.5, "ratio": g / f,
                        "measured": f"{g / f:.2f}"})
    imp = _median(by_key.get("W7.import"), wl.FG)
    if "W7.import" in by_key:
        out.append({"target": "import funcgrad under 0.15 s", "met": None if imp is None
                    else imp < 0.15, "measured": "not measured" if imp is None
                    else f"{imp:.3f} s"})
    return out


def _compare_target(name: str, value: float | None, limit: float, measured: str
                    ) -> dict[str, Any]:
    if value is None:
        return {"target": name, "met": None, "measured": "not measured"}
    return {"target": name, "met": value <= limit, "ratio": value, "measured": measured}


def first_call_targets(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Issue 24's targets on the W7 rows (wall time of fresh processes)."""
    by_key = {r["key"]: r for r in results if r["workload"] == "W7"}
    if not by_key:
        return []
    out = []
    fg_imp = _median(by_key.get("W7.import"), wl.FG)
    np_imp = _median(by_key.get("W7.import"), wl.REF)
    extra = None if fg_imp is None or np_imp is None else fg_imp - np_imp
    out.append(_compare_target(
        "import funcgrad within 40 ms of import numpy alone", extra, 0.040,
        "" if extra is None else f"{extra * 1e3:+.0f} ms ({fg_imp * 1e3:.0f} vs "
        f"{np_imp * 1e3:.0f} ms)"))
    for cache in ("warm", "cold"):
        t = _median(by_key.get(f"W7.first_grad.{cache}"), wl.FG)
        out.append(_compare_target(
            f"first grad of W1 in a fresh process at most 20 ms, {cache} kernel cache", t,
            0.020, "" if t is None else f"{t * 1e3:.1f} ms"))
    for cache in ("warm", "cold"):
        res = by_key.get(f"W7.w3_first_call.{cache}")
        jit_t, eager_t = _median(res, wl.FG_JIT), _median(res, wl.FG)
        r = None if jit_t is None or eager_t is None else jit_t / eager_t
        out.append(_compare_target(
            f"first call of fg.jit(fg.value_and_grad(loss)) on W3 at most 2x the eager "
            f"call, {cache} cache", r, 2.0,
            "" if r is None else f"{r:.2f}x ({jit_t * 1e3:.0f} vs {eager_t * 1e3:.0f} ms)"))
    t = _median(by_key.get("W7.w3_until_compiled.cold"), wl.FG_JIT)
    out.append(_compare_target(
        "W3 fg.jit: compiled code in use within a few seconds (here: 5 s) of the first "
        "call, cold cache", t, 5.0, "" if t is None else f"{t:.1f} s"))
    return out


def targets_markdown(tg: list[dict[str, Any]]) -> str:
    mark = {True: "met", False: "**not met**", None: "not measured"}
    lines = []
    for t in tg:
        status = mark[t["met"]]
        lines.append(f"- {t['target']}: {status} ({t['measured']})")
    met = sum(t["met"] is True for t in tg)
    missed = sum(t["met"] is False for t in tg)
    unmeasured = sum(t["met"] is None for t in tg)
    lines.append(f"\n{met} met, {missed} not met, {unmeasured} not measured.")
    return "\n".join(lines)


def _paired(res: dict[str, Any] | None, a: str, b: str) -> float | None:
    """Median over the rounds of ``a``'s time over ``b``'s in the same round."""
    if res is None:
        return None
    libs = res["libraries"]
    sa = libs.get(a, {}).get("samples_s") if libs.get(a, {}).get("status") == "ok" else None
    sb = libs.get(b, {}).get("samples_s") if libs.get(b, {}).get("status") == "ok" else None
    if not sa or not sb or len(sa) != len(sb):
        return None
    return statistics.median(x / y for x, y in zip(sa, sb))


# (task key, the library compared, the one it is compared with, at most) for issue 21
OVERHEAD_LIMITS = [
    ("W1.grad", wl.FG, wl.TORCH, 0.40),
    ("W2.grad", wl.FG, wl.TORCH, 0.45),
    ("W3.value_and_grad", wl.FG, wl.REF, 1.15),
    ("W5.hessian.100", wl.FG, wl.TORCH, 0.50),
    ("W5.hessian.400", wl.FG, wl.TORCH, 0.50),
]


def overhead_targets(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Issue 21's targets: eager against PyTorch eager and W3's hand-written NumPy, every
    jit row at or below jax.jit, and W3's jit within 1.1x of its five GEMMs alone."""
    by_key = {r["key"]: r for r in results}
    out: list[dict[str, Any]] = []
    limits = list(OVERHEAD_LIMITS)
    limits += [(k, wl.FG, wl.TORCH, 0.25) for k in by_key if k.startswith("W5.hvp.")]
    for key, a, b, limit in limits:
        if key not in by_key:
            continue
        r = _paired(by_key[key], a, b)
        out.append(_compare_target(
            f"{by_key[key]['label']}: {a} at most {limit:g}x {b}", r, limit,
            "" if r is None else f"{a} / {b} = {r:.3f}, median of per-round ratios"))
    for res in results:
        if res["reference_only"] or res["workload"] not in TARGETED:
            continue
        r = _paired(res, wl.FG_JIT, wl.JAX_JIT)
        if r is not None:
            out.append(_compare_target(
                f"{res['label']}: {wl.FG_JIT} at or below {wl.JAX_JIT}", r, 1.0,
                f"{r:.3f}, median of per-round ratios"))
    jit_t = _median(by_key.get("W3.value_and_grad"), wl.FG_JIT)
    floor = _median(by_key.get("W3.floor.gemm"), wl.REF)
    if jit_t is not None and floor is not None:
        out.append(_compare_target(
            "W3 value_and_grad: funcgrad.jit within 1.1x of its five GEMMs alone",
            jit_t / floor, 1.1, f"{jit_t / floor:.3f}, ratio of the two rows' medians"))
    return out

"""Two versions of funcgrad side by side: the suite's funcgrad rows, base against head.

What it does
    Times funcgrad's own rows of the benchmark suite (benchmarks/suite.py) -- funcgrad
    eager with ``funcgrad.numpy`` (fnp), eager on plain-NumPy code (np) and
    ``funcgrad.jit``, for every workload W1-W6, the start-up rows of W7 and, with
    ``--kernels`` (or ``--only K``), the kernel table of benchmarks/kernels.py -- for
    two source trees, and prints one Markdown table with both columns and their ratio.
    It is the check behind a target such as issue 17's "every row within 5% of the
    commit before this work, measured side by side in one run".

    Two versions of funcgrad cannot be imported into one process, so each tree is
    measured by its own processes, under its own interpreter:

    * ``--base REV`` (and ``--head REV``): the commit is exported (``git archive``) into
      ``~/.cache/funcgrad-compare/<sha>/tree`` with a virtualenv beside it holding an
      editable install of that tree, both made on first use and reused afterwards
      (``pip install -e .`` takes minutes; ``--rebuild`` redoes them).  The new
      virtualenv gets the same numpy/numba/llvmlite versions as the other tree's
      interpreter (a pip constraints file), so only funcgrad differs; compare.py stops
      if the versions differ anyway (``--allow-version-mismatch`` to go on).
    * ``--head DIR`` (default: the work tree compare.py is in) or ``--base DIR``: a work
      tree as it is on disk, uncommitted changes included, run by the first interpreter
      whose ``import funcgrad`` resolves into DIR: this one, then ``DIR/.venv``, else a
      cached virtualenv made for DIR as above.

    The benchmark itself -- workloads, result checks, timing loop, start-up scripts -- is
    always the one in the folder this file is in (the *harness*), for both columns: a
    change to the benchmark code cannot pass for a change in speed.

How it measures
    Rounds, alternating.  W1-W6: each round starts one fresh worker process per tree
    (benchmarks/_compare_worker.py).  Both build every case and check its result against
    the suite's reference (``suite.prepare``: a WRONG or ERROR result, or a row missing
    in one tree, is reported and not timed, in either column), and hash the result's
    bits.  Then, case by case, the two workers take turns on one CPU (both pinned to the
    same core for the round, another core the next round; ``--no-pin`` to leave them to
    the scheduler): one timed loop of about ``--target-ms`` in one tree, then one in the
    other, ``--inner`` times, the order flipping at every turn and every round (base,
    head, head, base, ...), so that load on the machine, which changes over seconds,
    falls on both columns alike.  The timing loop is the suite's (benchmarks/_timing.py:
    warm-up, calibration, a garbage collection before each loop, CPU time of the process
    by default).  A round's figure for a tree is the median of its loops; the workers
    then exit, and the next round starts new ones (process-level luck -- memory layout,
    what the allocator holds -- is sampled too).
    W7: every figure is one fresh ``python`` process (benchmarks/startup.py's scripts,
    run with the tree's interpreter in the tree's folder): ``import funcgrad``, and the
    first ``grad`` of W1 for fnp, np and jit, with the tree's Numba kernel cache warm
    (primed once per tree, untimed) and cold (an empty ``NUMBA_CACHE_DIR`` and
    ``FUNCGRAD_CACHE_DIR`` per process: every kernel compiles; ``--no-cold`` skips these
    rows, the bulk of W7's time).  One
    process per tree per variant per round, alternating as above.  A work tree is
    fingerprinted (its changed files' sizes and time stamps) at the start and the end,
    and the report warns if it changed during the run.

How to read it
    ``base`` and ``head``: the median over rounds of each tree's figure, in the row's
    unit, ``±`` half the interquartile range of the rounds relative to the median (the
    spread).  ``head/base``: the median over rounds of the *paired* ratio (head's figure
    over base's in the same round, measured seconds apart), below 1 = head faster.
    ``95% CI``: a distribution-free 95% interval for that median (order statistics; with
    under 6 rounds it is the range, and covers less).  ``bits``: ``same`` when both trees
    returned bit-identical results.  ``verdict`` against ``--threshold`` (5%):
    ``ok`` = ratio and the whole interval at most 1.05; ``ok?`` = ratio at most 1.05
    but the interval reaches past it (more rounds would settle it); ``slower?`` = ratio
    above 1.05, interval not entirely; ``SLOWER`` = the whole interval above 1.05;
    ``faster`` = the whole interval below 0.95.  Run it with the same tree on both sides
    (``--base X --head X``) to see the noise floor of this machine.

Run
    python benchmarks/compare.py --base REV [--head REV_OR_DIR] [--only W1,W7,K]
                                 [--libs fnp,np,jit] [--kernels] [--rounds N]
                                 [--startup-rounds N] [--inner N] [--target-ms MS]
                                 [--quick] [--threshold PCT] [--clock cpu|wall]
                                 [--name NAME] [--cache-dir DIR] [--rebuild]
    python benchmarks/compare.py --report benchmarks/results/NAME.json [--threshold PCT]

    e.g.  python benchmarks/compare.py --base 6ae4f55 --head /work/main
          python benchmarks/compare.py --base main --only W1,W2 --quick
          make bench-compare BASE=6ae4f55

    Full mode: 10 rounds of 5 loops of ~50 ms per row and tree, W7 x5 rounds.  On the
    2-core development machine under a load average of about 10, a W1-W6 round took
    ~100 s and a W7 round (both trees' cold compiles are most of it) 4-5 minutes; the
    CPU time, and so an idle machine's wall time, is about a third of that (some 10
    minutes for the defaults).  --quick: 3 rounds of 2 loops of ~15 ms, W7 x2.  The
    first use of a revision adds its virtualenv (about a minute) and, in the first
    round, compiling its Numba kernels (a few minutes).

Output: the Markdown report on stdout, and benchmarks/results/<name>.md and .json (every
round's figure of every row for both trees, the trees' commits, interpreters and
versions); <name> defaults to compare-<base>-vs-<head>.
"""
from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent           # the harness's tree (the default head)
if __package__:
    from . import startup
    from ._timing import fmt, machine_info, markdown_table, now_iso, write_json
else:  # python benchmarks/compare.py
    import startup  # type: ignore[no-redef]
    from _timing import fmt, machine_info, markdown_table, now_iso, write_json  # type: ignore

RESULTS_DIR = ROOT / "benchmarks" / "results"
WORKER = HERE / "_compare_worker.py"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") \
    / "funcgrad-compare"
ALL_WORKLOADS = ["W1", "W2", "W3", "W4", "W5", "W6", "W7"]
# the suite's funcgrad columns (benchmarks/workloads.py's labels), and short names for --libs
FG, FG_NP, FG_JIT = "funcgrad (fnp)", "funcgrad (np)", "funcgrad.jit"
LIBS = {"fnp": FG, "np": FG_NP, "jit": FG_JIT}
KERNEL_SIZES = [16, 100, 10_000, 1_000_000]
UNIT_SCALE = {"µs": 1e6, "ms": 1e3, "s": 1.0}
MODES = {  # rounds, inner loops per round, seconds per timed loop, W7 rounds
    "full": (10, 5, 0.05, 5),
    "quick": (3, 2, 0.015, 2),
}
#: the distributions that must match between the trees for the comparison to mean anything
PINNED = ("numpy", "numba", "llvmlite")
TREES = ("base", "head")


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Statistics (pure functions; tests/test_compare.py runs them on synthetic data)
# --------------------------------------------------------------------------


def median_ci(values: Sequence[float], level: float = 0.95) -> tuple[float, float, float]:
    """A distribution-free confidence interval for the median of ``values``.

    Returns ``(low, high, coverage)``: the order statistics ``x_(k)`` and ``x_(n+1-k)``
    (1-based, sorted) for the largest ``k`` whose coverage is at least ``level``.  The
    interval misses the median when fewer than k values lie below it (or above), so its
    coverage is ``1 - 2 P(B <= k-1)`` with ``B ~ Binomial(n, 1/2)``.  With too few values
    for ``level`` (under 6 for 95%) it is the whole range, covering ``1 - 2 / 2**n``.
    """
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        return math.nan, math.nan, 0.0

    def coverage(k: int) -> float:
        return 1 - 2 * sum(math.comb(n, j) for j in range(k)) / 2 ** n

    best = 1
    for k in range(2, (n + 1) // 2 + 1):
        if coverage(k) < level:
            break
        best = k
    return xs[best - 1], xs[n - best], coverage(best)


def spread(values: Sequence[float]) -> float:
    """Half the interquartile range relative to the median (0.02 = ±2%)."""
    if len(values) < 2:
        return 0.0
    q1, med, q3 = statistics.quantiles(sorted(values), n=4, method="inclusive")
    return (q3 - q1) / 2 / med if med else math.nan


def round_figures(rounds: Sequence[Sequence[float]]) -> list[float | None]:
    """One figure per round: the median of that round's loops (None: none)."""
    return [statistics.median(r) if r else None for r in rounds]


def summarize_pair(base_rounds: Sequence[Sequence[float]],
                   head_rounds: Sequence[Sequence[float]],
                   threshold: float = 0.05) -> dict[str, Any]:
    """The comparison of one row from each tree's samples, grouped by round.

    ``base_rounds[r]`` holds base's timed loops (seconds per call) of round r, and
    likewise for head.  Each tree's figure is the median over rounds of its round
    figures; the ratio is the median over rounds of head/base *in the same round*
    (paired, so a busy round slows both and cancels out), with its 95% interval.
    """
    b, h = round_figures(base_rounds), round_figures(head_rounds)
    bv = [x for x in b if x is not None]
    hv = [x for x in h if x is not None]
    pairs = [y / x for x, y in zip(b, h) if x is not None and y is not None and x > 0]
    out: dict[str, Any] = {
        "base_s": statistics.median(bv) if bv else None,
        "head_s": statistics.median(hv) if hv else None,
        "base_spread": spread(bv), "head_spread": spread(hv),
        "rounds": len(pairs), "ratios": pairs,
    }
    if pairs:
        lo, hi, coverage = median_ci(pairs)
        out.update(ratio=statistics.median(pairs), ci_low=lo, ci_high=hi,
                   ci_coverage=coverage)
        out["verdict"] = verdict(out["ratio"], lo, hi, threshold, coverage >= 0.95)
    else:
        out.update(ratio=None, ci_low=None, ci_high=None, ci_coverage=0.0, verdict="")
    return out


def verdict(ratio: float, low: float, high: float, threshold: float = 0.05,
            confident: bool = True) -> str:
    """``faster``, ``ok``, ``ok?``, ``slower?`` or ``SLOWER`` (see the module docstring).

    Not ``confident`` (too few rounds for a 95% interval): only ``ok?`` or ``slower?``.
    """
    limit = 1 + threshold
    if not confident:
        return "ok?" if ratio <= limit else "slower?"
    if high < 1 - threshold:
        return "faster"
    if ratio <= limit:
        return "ok" if high <= limit else "ok?"
    return "SLOWER" if low > limit else "slower?"


# --------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------


@dataclass
class Row:
    """One row of the comparison: a suite task for one funcgrad column (or a kernel)."""

    key: str
    workload: str
    label: str
    lib: str
    unit: str
    #: per tree: status (ok / ERROR / WRONG / skipped / n/a / missing) and the reason
    status: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: per tree: the result's bit hashes seen (one per round; more than one = unstable)
    digests: dict[str, set] = field(default_factory=lambda: {t: set() for t in TREES})
    #: per tree: one list of timed loops (seconds per call) per round
    samples: dict[str, list[list[float]]] = field(
        default_factory=lambda: {t: [] for t in TREES})

    @property
    def id(self) -> str:
        return f"{self.key}|{self.lib}"

    def timed(self) -> bool:
        return all(self.status.get(t, ("missing", ""))[0] == "ok" for t in TREES)

    def set_status(self, tree: str, status: str, why: str = "") -> None:
        """Keep the first failure a tree reports (a row that failed once stays failed)."""
        if self.status.get(tree, ("ok", ""))[0] == "ok":
            self.status[tree] = (status, why)

    def bits(self) -> str:
        b, h = self.digests["base"], self.digests["head"]
        if not b or not h:
            return ""
        if len(b) > 1 or len(h) > 1:
            return "vary"
        return "same" if b == h else "differ"


def _cell(seconds: float | None, rel_spread: float, unit: str) -> str:
    if seconds is None:
        return ""
    return f"{fmt(seconds * UNIT_SCALE[unit])} ±{rel_spread * 100:.1f}%"


def table(rows: Iterable[Row], threshold: float = 0.05) -> str:
    """The Markdown table of the timed rows: both columns, their ratio and verdict."""
    out = []
    for row in rows:
        if not row.timed():
            continue
        s = summarize_pair(row.samples["base"], row.samples["head"], threshold)
        ci = ""
        if s["ratio"] is not None:
            ci = f"{s['ci_low']:.3f}–{s['ci_high']:.3f}"
            if s["ci_coverage"] < 0.95:
                ci += f" ({s['ci_coverage']:.0%})"  # too few rounds: the range
        out.append({
            "row": row.label, "funcgrad": row.lib, "unit": row.unit,
            "base": _cell(s["base_s"], s["base_spread"], row.unit),
            "head": _cell(s["head_s"], s["head_spread"], row.unit),
            "head/base": f"{s['ratio']:.3f}" if s["ratio"] is not None else "",
            "95% CI": ci, "bits": row.bits(), "verdict": s["verdict"],
        })
    return markdown_table(out, ["row", "funcgrad", "unit", "base", "head", "head/base",
                                "95% CI", "bits", "verdict"])


def not_timed(rows: Iterable[Row]) -> list[str]:
    """One line per row that a tree could not run: its status and reason in each tree."""
    lines = []
    for row in rows:
        if row.timed():
            continue
        parts = []
        for t in TREES:
            status, why = row.status.get(t, ("missing", "no such row in this tree"))
            parts.append(f"{t}: {status}" + (f" ({why})" if why and status != "ok" else ""))
        lines.append(f"- {row.label} / {row.lib}: " + "; ".join(parts))
    return lines


def overview(rows: Sequence[Row], threshold: float = 0.05) -> str:
    """One paragraph: how many rows meet the threshold, and the extremes."""
    summaries = [(r, summarize_pair(r.samples["base"], r.samples["head"], threshold))
                 for r in rows if r.timed()]
    summaries = [(r, s) for r, s in summaries if s["ratio"] is not None]
    if not summaries:
        return "No row was timed in both trees."
    counts: dict[str, int] = {}
    for _, s in summaries:
        counts[s["verdict"]] = counts.get(s["verdict"], 0) + 1
    ratios = [s["ratio"] for _, s in summaries]
    worst_row, worst = max(summaries, key=lambda rs: rs[1]["ratio"])
    best_row, best = min(summaries, key=lambda rs: rs[1]["ratio"])
    widths = [(s["ci_high"] - s["ci_low"]) / 2 for _, s in summaries]
    order = ["faster", "ok", "ok?", "slower?", "SLOWER"]
    text = (f"{len(summaries)} rows timed in both trees: "
            + ", ".join(f"{counts[v]} {v}" for v in order if v in counts)
            + f" (threshold {threshold * 100:g}%). head/base: median over rows "
            f"{statistics.median(ratios):.3f}, from {best['ratio']:.3f} "
            f"({best_row.label} / {best_row.lib}) to {worst['ratio']:.3f} "
            f"({worst_row.label} / {worst_row.lib}); the 95% intervals are "
            f"±{statistics.median(widths) * 100:.1f}% wide at the median row, "
            f"±{max(widths) * 100:.1f}% at the widest.")
    n_nt = sum(not r.timed() for r in rows)
    if n_nt:
        text += f" {n_nt} rows not timed (below)."
    return text


# --------------------------------------------------------------------------
# Trees: a commit or a folder, and the interpreter that imports its funcgrad
# --------------------------------------------------------------------------


@dataclass
class Tree:
    name: str                 # "base" or "head"
    spec: str                 # as given on the command line
    root: Path
    python: Path
    commit: str | None        # the commit (a folder: its HEAD)
    dirty: bool               # a folder with uncommitted changes
    subject: str
    how: str                  # how the tree and its interpreter were found or made
    versions: dict[str, str] = field(default_factory=dict)

    @property
    def tag(self) -> str:
        """A short name for file names: the commit, and the folder for a work tree."""
        short = (self.commit or "nogit")[:7]
        if self.how.startswith("commit"):
            return short
        return f"{self.root.name}-{short}" + ("-dirty" if self.dirty else "")

    def describe(self) -> str:
        rev = (self.commit or "no commit")[:10]
        text = f"`{self.spec}` = {rev}"
        if self.subject:
            subject = self.subject if len(self.subject) <= 60 else self.subject[:59] + "…"
            text += f" ({subject})"
        if self.dirty:
            text += ", **with uncommitted changes**"
        return text + f"; {self.how}; python `{self.python}`"

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "spec": self.spec, "root": str(self.root),
                "python": str(self.python), "commit": self.commit, "dirty": self.dirty,
                "subject": self.subject, "how": self.how, "versions": self.versions}


def _git(*args: str, cwd: Path = ROOT, check: bool = True) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)}: {proc.stderr.strip()}")
    return proc.stdout.strip() if proc.returncode == 0 else ""


_PROBE = """\
import json, sys, importlib.metadata as md
import funcgrad, funcgrad.kernels
def v(name):
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return None
print(json.dumps({"funcgrad": funcgrad.__file__, "kernels": funcgrad.kernels.__file__,
                  "python": ".".join(map(str, sys.version_info[:3])),
                  **{name: v(name) for name in NAMES}}))
""".replace("NAMES", repr(PINNED))


def probe(python: Path, root: Path) -> dict[str, str] | None:
    """The versions seen by ``python`` if its ``import funcgrad`` (and funcgrad.kernels)
    come from ``root``, else None.  Run in an empty folder, so that only the
    interpreter's installation decides (the current folder would come first)."""
    if not Path(python).exists():
        return None
    with tempfile.TemporaryDirectory() as empty:
        env = _child_env()
        proc = subprocess.run([str(python), "-c", _PROBE], cwd=empty, env=env,
                              capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        return None
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    for key in ("funcgrad", "kernels"):
        if not Path(got.pop(key)).resolve().is_relative_to(root.resolve()):
            return None
    return got


def _child_env() -> dict[str, str]:
    """The environment of every process compare.py starts: this one's, without
    PYTHONPATH (it could put another tree's funcgrad first)."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def _constraints(python: Path) -> str:
    """``name==version`` of every distribution ``python`` sees except funcgrad: pinned
    into a new virtualenv so that both trees run the same NumPy and Numba."""
    code = ("import importlib.metadata as md\n"
            "seen = {}\n"
            "for d in md.distributions():\n"
            "    name = d.metadata['Name']\n"
            "    if name and name.lower() != 'funcgrad': seen[name.lower()] = d.version\n"
            "print('\\n'.join(f'{k}=={v}' for k, v in sorted(seen.items())))\n")
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                          check=True, env=_child_env()).stdout


def fingerprint(root: Path) -> str:
    """What a work tree holds beyond its commit: the commit, and the size and time stamp of
    every file git lists as changed or new.  Taken at the start and the end of a run, it
    tells whether someone changed the tree while it was being measured."""
    h = hashlib.sha256(_git("rev-parse", "HEAD", cwd=root, check=False).encode())
    listing = _git("status", "--porcelain", "--untracked-files=all", cwd=root, check=False)
    for line in sorted(listing.splitlines()):
        path = root / line[3:].split(" -> ")[-1].strip('"')
        try:
            st = path.stat()
            h.update(f"{line}|{st.st_size}|{st.st_mtime_ns}\n".encode())
        except OSError:
            h.update(f"{line}|gone\n".encode())
    return h.hexdigest()[:16]


def _packaging_hash(root: Path) -> str:
    h = hashlib.sha256()
    for name in ("pyproject.toml", "setup.cfg", "setup.py"):
        p = root / name
        h.update(name.encode() + (p.read_bytes() if p.exists() else b""))
    return h.hexdigest()[:16]


def _make_venv(venv: Path, root: Path, ref_python: Path, log: Path) -> Path:
    """A virtualenv with an editable install of ``root``, pinned to ``ref_python``'s
    versions."""
    shutil.rmtree(venv, ignore_errors=True)
    constraints = venv.parent / "constraints.txt"
    constraints.write_text(_constraints(ref_python))
    with open(log, "w") as out:
        for cmd in ([str(ref_python), "-m", "venv", str(venv)],
                    [str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                     "-e", str(root), "-c", str(constraints)]):
            _say(f"  $ {' '.join(cmd)}")
            if subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT,
                              env=_child_env()).returncode != 0:
                raise SystemExit(f"failed: {' '.join(cmd)} (log: {log})")
    return venv / "bin" / "python"


class _Lock:
    """An exclusive lock on a file, so two compare.py runs do not build one cache
    entry at the same time."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.f = open(path, "w")

    def __enter__(self):
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def _from_commit(name: str, spec: str, sha: str, cache: Path, ref_python: Path,
                 rebuild: bool) -> Tree:
    entry = cache / sha
    tree, venv, stamp = entry / "tree", entry / "venv", entry / "ready.json"
    with _Lock(cache / f"{sha}.lock"):
        if rebuild or not stamp.exists():
            _say(f"{name}: exporting {sha[:10]} into {tree} and making its virtualenv "
                 "(once; reused from the cache afterwards)")
            stamp.unlink(missing_ok=True)
            shutil.rmtree(tree, ignore_errors=True)
            tree.mkdir(parents=True)
            # A plain export, not `git worktree add`: nothing is registered in the
            # repository, and the cache entry is one self-contained folder.
            archive = subprocess.Popen(["git", "archive", "--format=tar", sha], cwd=ROOT,
                                       stdout=subprocess.PIPE)
            untar = subprocess.run(["tar", "-x", "-C", str(tree)], stdin=archive.stdout)
            archive.stdout.close()
            if archive.wait() != 0 or untar.returncode != 0:
                raise SystemExit(f"could not export {sha} into {tree}")
            _make_venv(venv, tree, ref_python, entry / "install.log")
            stamp.write_text(json.dumps({"commit": sha, "made": now_iso()}) + "\n")
        python = venv / "bin" / "python"
        versions = probe(python, tree)
        if versions is None:
            raise SystemExit(f"{python} does not import funcgrad from {tree}: "
                             "run again with --rebuild")
    return Tree(name, spec, tree, python, sha, False, _git("log", "-1", "--format=%s", sha),
                f"commit, exported to {entry}", versions)


def _from_folder(name: str, spec: str, root: Path, cache: Path, ref_python: Path | None,
                 rebuild: bool) -> Tree:
    if not (root / "funcgrad" / "__init__.py").exists():
        raise SystemExit(f"{root} is not a funcgrad tree (no funcgrad/__init__.py)")
    commit = _git("rev-parse", "HEAD", cwd=root, check=False) or None
    dirty = bool(_git("status", "--porcelain", cwd=root, check=False))
    subject = _git("log", "-1", "--format=%s", cwd=root, check=False)
    python, how, versions = None, "", None
    for candidate, what in ((Path(sys.executable), "this interpreter"),
                            (root / ".venv" / "bin" / "python", "its .venv")):
        if not rebuild and (versions := probe(candidate, root)) is not None:
            python, how = candidate, f"work tree, run by {what}"
            break
    if python is None:
        entry = cache / ("dir-" + hashlib.sha256(str(root).encode()).hexdigest()[:12])
        venv, stamp = entry / "venv", entry / "ready.json"
        wanted = {"root": str(root), "packaging": _packaging_hash(root)}
        with _Lock(entry.with_suffix(".lock")):
            ready = stamp.exists() and json.loads(stamp.read_text()) == wanted
            if rebuild or not ready:
                _say(f"{name}: no interpreter imports funcgrad from {root}; making a "
                     f"virtualenv for it in {venv} (once)")
                entry.mkdir(parents=True, exist_ok=True)
                _make_venv(venv, root, ref_python or Path(sys.executable),
                           entry / "install.log")
                stamp.write_text(json.dumps(wanted) + "\n")
            python = venv / "bin" / "python"
            versions = probe(python, root)
        if versions is None:
            raise SystemExit(f"{python} does not import funcgrad from {root}")
        how = f"work tree, run by a virtualenv in {entry}"
    return Tree(name, spec, root, python, commit, dirty, subject, how, versions)


def resolve(name: str, spec: str | None, cache: Path, ref_python: Path | None = None,
            rebuild: bool = False) -> Tree:
    """A tree from a command-line spec: None (compare.py's own work tree), a folder, or
    anything git can turn into a commit."""
    if spec is None:
        return _from_folder(name, str(ROOT), ROOT, cache, ref_python, rebuild)
    path = Path(spec).expanduser()
    if path.is_dir():
        return _from_folder(name, spec, path.resolve(), cache, ref_python, rebuild)
    sha = _git("rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}", check=False)
    if not sha:
        raise SystemExit(f"{spec!r} is neither a folder nor a commit of {ROOT}")
    return _from_commit(name, spec, sha, cache, ref_python or Path(sys.executable), rebuild)


# --------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------


class WorkerDied(RuntimeError):
    pass


class Worker:
    """A _compare_worker.py process running under one tree's interpreter."""

    def __init__(self, tree: Tree, log: Path):
        self.tree = tree
        self.log_path = log
        self.log = open(log, "w")
        self.proc = subprocess.Popen(
            [str(tree.python), str(WORKER)], cwd=tree.root, env=_child_env(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True,
            bufsize=1)

    def send(self, **req: Any) -> None:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict[str, Any]:
        line = self.proc.stdout.readline()
        if not line:
            self.log.flush()
            tail = self.log_path.read_text().strip().splitlines()[-15:]
            raise WorkerDied(f"{self.tree.name} worker exited "
                             f"({self.proc.poll()}):\n" + "\n".join(tail))
        answer = json.loads(line)
        if "error" in answer:
            raise WorkerDied(f"{self.tree.name} worker: {answer['error']} "
                             f"(log: {self.log_path})")
        return answer

    def ask(self, **req: Any) -> dict[str, Any]:
        self.send(**req)
        return self.receive()

    def close(self) -> None:
        try:
            self.send(cmd="quit")
            self.proc.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def _order(r: int, i: int) -> tuple[str, ...]:
    """Which tree goes first in turn i of round r: flips at every turn and round."""
    return TREES if (r + i) % 2 == 0 else TREES[::-1]


def _round_cpu(r: int, pin: bool) -> int | None:
    """The CPU both trees' processes share in round r (None: no pinning).

    Two processes left to the scheduler tend to stay each on its own core for a whole
    round, and on a shared machine one core can be slower than the other for minutes
    (a busy neighbour): that would bias the round towards one tree.  On one core, taking
    turns, both meet the same conditions; the core changes from round to round.
    """
    if not pin or not hasattr(os, "sched_setaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    return cpus[r % len(cpus)]


def _loadavg() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def measure_tasks(trees: dict[str, Tree], rows: dict[str, Row], cfg: dict[str, Any],
                  log_dir: Path) -> list[dict[str, Any]]:
    """W1-W6 (and the kernels): ``cfg['rounds']`` rounds of fresh workers, alternating.
    Fills ``rows``; returns per-round notes (load, worker info)."""
    req = {"cmd": "prepare", "workloads": cfg["workloads"], "libs": cfg["libs"],
           "size": cfg["size"], "kernel_sizes": cfg["kernel_sizes"],
           "target_s": cfg["target_s"], "clock": cfg["clock"]}
    notes = []
    for r in range(cfg["rounds"]):
        t0 = time.perf_counter()
        workers = {t: Worker(trees[t], log_dir / f"{t}-round{r + 1}.log") for t in TREES}
        try:
            prepared = {}
            # Round 1 prepares one tree after the other: a tree's first run compiles its
            # Numba cache, and when both columns are the same tree they would write it at
            # once.  Later rounds prepare both at once (nothing is timed meanwhile).
            for t in TREES:
                workers[t].send(**req, tree=str(trees[t].root))
                if r == 0:
                    prepared[t] = workers[t].receive()
            for t in TREES:
                if t not in prepared:
                    prepared[t] = workers[t].receive()
            for t in TREES:
                for case in prepared[t]["cases"]:
                    cid = f"{case['key']}|{case['lib']}"
                    row = rows.get(cid)
                    if row is None:
                        row = rows[cid] = Row(case["key"], case["workload"], case["label"],
                                              case["lib"], case["unit"])
                    row.set_status(t, case["status"], case["why"])
                    if case.get("digest"):
                        row.digests[t].add(case["digest"])
            for row in rows.values():  # rows only one tree has
                if row.workload != "W7":
                    for t in TREES:
                        if not any(f"{c['key']}|{c['lib']}" == row.id
                                   for c in prepared[t]["cases"]):
                            row.set_status(t, "missing", "no such row in this tree")
            timed = [row for row in rows.values() if row.workload != "W7" and row.timed()]
            cpu = _round_cpu(r, cfg["pin"])
            if cpu is not None:
                for w in workers.values():
                    os.sched_setaffinity(w.proc.pid, {cpu})
            for row in timed:
                got: dict[str, list[float]] = {t: [] for t in TREES}
                for i in range(cfg["inner"]):
                    for t in _order(r, i):
                        got[t].append(workers[t].ask(cmd="time", id=row.id)["s"])
                for t in TREES:
                    # pad to this round's index: a row is timed from its first round on
                    while len(row.samples[t]) < r:
                        row.samples[t].append([])
                    row.samples[t].append(got[t])
        finally:
            for w in workers.values():
                w.close()
        notes.append({"round": r + 1, "seconds": round(time.perf_counter() - t0, 1),
                      "load_1min": _loadavg(), "cpu": cpu,
                      "workers": {t: prepared[t]["info"] for t in prepared}})
        _say(f"round {r + 1}/{cfg['rounds']}: {len(timed)} rows x {cfg['inner']} loops per "
             f"tree in {time.perf_counter() - t0:.0f} s (load {_loadavg()})")
    return notes


#: W7's rows: (key, label, lib, field of startup.py's result, the script's label, cold)
W7_ROWS = [("W7.import", "W7 import (fresh process)", FG, "import", FG, False)] + [
    (f"W7.first_grad.{kind}", f"W7 first grad of W1, {kind} kernel cache", lib,
     "first_grad", lib, kind == "cold")
    for kind in ("warm", "cold") for lib in (FG, FG_NP, FG_JIT)]


def measure_startup(trees: dict[str, Tree], rows: dict[str, Row], cfg: dict[str, Any]
                    ) -> None:
    """W7: fresh processes, one per tree per variant per round, alternating."""
    suffix = "_cpu_s" if cfg["clock"] == "cpu" else "_s"
    wanted = [w for w in W7_ROWS if w[2] in cfg["libs"] and (cfg["cold"] or not w[5])]
    for key, label, lib, _, _, _ in wanted:
        rows[f"{key}|{lib}"] = Row(key, "W7", label, lib, "ms")
    # the runs: each (script, cold) once per round; the import row reads fnp's warm runs
    variants = list(dict.fromkeys((script, cold) for *_, script, cold in wanted))
    # Prime each tree's warm kernel cache (untimed): W1-W6 may not have run, or compiled
    # other kernels than these scripts load.
    for t in TREES:
        for script in dict.fromkeys(s for s, cold in variants if not cold):
            got = startup.run_once(script, python=trees[t].python, cwd=trees[t].root)
            if "error" in got:
                for row in rows.values():
                    if row.workload == "W7" and row.lib == script:
                        row.set_status(t, "ERROR", got["error"])
    for row in rows.values():
        if row.workload == "W7":
            for t in TREES:
                row.set_status(t, "ok")
    # Not pinned (unlike W1-W6's workers): each process is new and short, so none keeps
    # one core for long, and on one shared core a cold compile takes several times as
    # long in wall time under load.
    for r in range(cfg["startup_rounds"]):
        _startup_round(r, trees, rows, wanted, variants, suffix)


def _startup_round(r: int, trees: dict[str, Tree], rows: dict[str, Row], wanted: list,
                   variants: list[tuple[str, bool]], suffix: str) -> None:
    """One W7 round: each (script, cold) variant once per tree, the order flipping."""
    t0 = time.perf_counter()
    for i, (script, cold) in enumerate(variants):
        targets = [rows[f"{k}|{lib}"] for k, _, lib, _, s, c in wanted
                   if s == script and c == cold]
        for t in _order(r, i):
            if not all(row.status[t][0] == "ok" for row in targets):
                continue  # failed before: reported, no longer run
            got = startup.run_once(script, cold=cold, python=trees[t].python,
                                   cwd=trees[t].root)
            for k, _, lib, fld, s, c in wanted:
                if s != script or c != cold:
                    continue
                row = rows[f"{k}|{lib}"]
                if "error" in got:
                    row.set_status(t, "ERROR", got["error"])
                elif got.get("grad_ok") is False:
                    row.set_status(t, "WRONG", "first grad differs from the closed form")
                else:
                    while len(row.samples[t]) < r:  # rounds this row missed
                        row.samples[t].append([])
                    row.samples[t].append([got[fld + suffix]])
    _say(f"W7 round {r + 1} in {time.perf_counter() - t0:.0f} s (load {_loadavg()})")


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


CLOCK_TEXT = {
    "cpu": "CPU time of each measuring process (`time.process_time`; for W7 the fresh "
           "process's own), which a busy machine disturbs far less than wall time",
    "wall": "wall time (`time.perf_counter`)",
}


def report(payload: dict[str, Any], rows: Sequence[Row]) -> str:
    cfg, m = payload["config"], payload["machine"]
    trees = payload["trees"]
    load = payload["load_average_1min"]
    same = trees["base"]["root"] == trees["head"]["root"]
    lines = [
        f"Date: {payload['date']}. Machine: {m['cpu_model']}, {m['cpu_usable']} cores, "
        f"Python {m['python']}, {m['platform']}; load average (1 min) {load['start']} at "
        f"the start, {load['end']} at the end.",
        f"Command: `{cfg['command']}` ({payload['elapsed_s']:.0f} s).",
        f"- base: {payload['tree_text']['base']}",
        f"- head: {payload['tree_text']['head']}",
        "- both: " + ", ".join(f"{k} {v}" for k, v in trees["head"]["versions"].items())
        + f"; benchmark code (workloads, checks, timing) from `{payload['harness']}`.",
        f"Rounds: {cfg['rounds']} (W1-W6: fresh worker processes per round, "
        f"{cfg['inner']} alternating loops of ~{cfg['target_s'] * 1e3:g} ms per tree and "
        f"row), W7: {cfg['startup_rounds']} (one fresh process per tree, variant and "
        f"round). Clock: {CLOCK_TEXT[cfg['clock']]}.",
    ]
    if same:
        lines.append("Both columns are the same tree: this run measures the noise floor.")
    for t in TREES:
        if payload.get("changed_during_run", {}).get(t):
            lines.append(f"**Warning: {t}'s files changed during the run**: its rounds may "
                         "have measured different code.")
    lines += ["", table(rows, cfg["threshold"]), "", overview(rows, cfg["threshold"]), "",
              "base, head: median over rounds in the row's unit, ± half the interquartile "
              "range of the rounds. head/base: median over rounds of the paired ratio "
              "(below 1: head faster); 95% CI: a distribution-free interval for it (with "
              "under 6 rounds, the range of the rounds, and in brackets how likely it is "
              "to hold the true median). bits: "
              "same = bit-identical results. verdict: ok (ratio and interval within "
              f"{cfg['threshold'] * 100:g}%), ok? (ratio within, interval not), slower? "
              "(ratio beyond, interval not), SLOWER (interval beyond), faster (interval "
              f"below 1 - {cfg['threshold'] * 100:g}%)."]
    nt = not_timed(rows)
    if nt:
        lines += ["", "Not timed (failed or missing in a tree; neither column is timed):",
                  *nt]
    return "\n".join(lines)


def rows_from_json(records: Iterable[dict[str, Any]]) -> list[Row]:
    """The rows of a saved comparison (the ``rows`` of compare.py's JSON)."""
    rows = []
    for rec in records:
        row = Row(rec["key"], rec["workload"], rec["label"], rec["lib"], rec["unit"])
        row.status = {t: (v["status"], v["why"]) for t, v in rec["status"].items()}
        row.digests = {t: set(rec["digests"].get(t, [])) for t in TREES}
        row.samples = {t: [list(r) for r in rec["samples_s"].get(t, [])] for t in TREES}
        rows.append(row)
    return rows


def _rows_json(rows: Sequence[Row], threshold: float) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        rec = {"key": row.key, "workload": row.workload, "label": row.label,
               "lib": row.lib, "unit": row.unit,
               "status": {t: {"status": s, "why": w} for t, (s, w) in row.status.items()},
               "bits": row.bits(),
               "digests": {t: sorted(d) for t, d in row.digests.items()},
               "samples_s": row.samples}
        if row.timed():
            rec["summary"] = summarize_pair(row.samples["base"], row.samples["head"],
                                            threshold)
        out.append(rec)
    return out


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def _check_versions(trees: dict[str, Tree], allow: bool) -> None:
    b, h = trees["base"].versions, trees["head"].versions
    differ = {k: (b.get(k), h.get(k)) for k in set(b) | set(h) if b.get(k) != h.get(k)}
    if differ:
        text = ", ".join(f"{k}: base {x}, head {y}" for k, (x, y) in sorted(differ.items()))
        if not allow:
            raise SystemExit(f"the trees' interpreters differ ({text}): the comparison "
                             "would measure that too. Use --rebuild for a cached tree, or "
                             "--allow-version-mismatch.")
        _say(f"warning: the trees' interpreters differ: {text}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", help="a commit (anything git names) or a folder (required)")
    p.add_argument("--head", help="a commit or a folder (default: this work tree)")
    p.add_argument("--only", help="comma-separated workloads, e.g. W1,W7 (default all); "
                   "K = the kernel table")
    p.add_argument("--libs", default="fnp,np,jit",
                   help="funcgrad columns: fnp, np, jit (default all three)")
    p.add_argument("--kernels", action="store_true",
                   help="also the kernel table of benchmarks/kernels.py")
    p.add_argument("--kernel-sizes", type=int, nargs="+", default=KERNEL_SIZES)
    p.add_argument("--quick", action="store_true",
                   help="3 rounds of 2 loops of ~15 ms, W7 x2 (about 4 minutes)")
    p.add_argument("--rounds", type=int, help="rounds (default 10, quick 3)")
    p.add_argument("--startup-rounds", type=int,
                   help="W7 rounds (default 5, quick 2)")
    p.add_argument("--inner", type=int, help="alternating loops per tree and round "
                   "(default 5, quick 2)")
    p.add_argument("--target-ms", type=float, help="length of one timed loop (50, quick 15)")
    p.add_argument("--threshold", type=float, default=5.0,
                   help="percent slower that a row may be (default 5)")
    p.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    p.add_argument("--no-cold", action="store_true",
                   help="W7 without the cold-cache rows (they take most of W7's time)")
    p.add_argument("--no-pin", action="store_true",
                   help="leave the processes to the scheduler instead of putting both "
                   "trees' on one CPU per round")
    p.add_argument("--size", choices=["full", "tiny"], default="full",
                   help="problem sizes: the suite's (full) or tiny (smoke test)")
    p.add_argument("--name", help="output file stem (default compare-<base>-vs-<head>)")
    p.add_argument("--out-dir", type=Path, default=RESULTS_DIR)
    p.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE,
                   help=f"exported trees and their virtualenvs (default {DEFAULT_CACHE})")
    p.add_argument("--rebuild", action="store_true",
                   help="redo the cached tree and virtualenv of each side")
    p.add_argument("--allow-version-mismatch", action="store_true",
                   help="go on when the trees' numpy/numba/python versions differ")
    p.add_argument("--command", help="the command recorded in the report")
    p.add_argument("--report", type=Path, metavar="JSON",
                   help="measure nothing: print the report of a saved run (e.g. with "
                   "another --threshold)")
    args = p.parse_args(argv)
    if args.report:
        payload = json.loads(args.report.read_text())
        payload["config"]["threshold"] = args.threshold / 100
        print(report(payload, rows_from_json(payload["rows"])))
        return 0
    if not args.base:
        p.error("--base is required (a commit or a folder)")

    mode = "quick" if args.quick else "full"
    d_rounds, d_inner, d_target, d_startup = MODES[mode]
    only = [w.strip().upper() for w in args.only.split(",")] if args.only else ALL_WORKLOADS
    if unknown := [w for w in only if w not in ALL_WORKLOADS + ["K"]]:
        p.error(f"unknown workloads {unknown}: choose from {ALL_WORKLOADS + ['K']}")
    kernels = args.kernels or "K" in only
    try:
        libs = [LIBS[x.strip()] for x in args.libs.split(",")]
    except KeyError as exc:
        p.error(f"unknown library {exc}: choose from {sorted(LIBS)}")
    cfg = {
        "mode": mode, "size": args.size, "libs": libs, "clock": args.clock,
        "pin": not args.no_pin, "cold": not args.no_cold,
        "workloads": [w for w in only if w not in ("W7", "K")],
        "kernel_sizes": args.kernel_sizes if kernels else None,
        "rounds": args.rounds or d_rounds, "inner": args.inner or d_inner,
        "target_s": (args.target_ms / 1e3) if args.target_ms else d_target,
        "startup_rounds": args.startup_rounds or d_startup,
        "threshold": args.threshold / 100,
        "command": args.command or "python benchmarks/compare.py" + "".join(
            f" {a}" for a in argv),
    }

    t_start = time.perf_counter()
    load_start = _loadavg()
    head = resolve("head", args.head, args.cache_dir, None, args.rebuild)
    base = resolve("base", args.base, args.cache_dir, head.python, args.rebuild)
    trees = {"base": base, "head": head}
    _check_versions(trees, args.allow_version_mismatch)
    for t in trees.values():
        _say(f"{t.name}: {t.describe()}")

    before = {t: fingerprint(trees[t].root) for t in TREES}
    rows: dict[str, Row] = {}
    round_notes: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="funcgrad-compare-") as logs:
        try:
            if cfg["workloads"] or cfg["kernel_sizes"]:
                round_notes = measure_tasks(trees, rows, cfg, Path(logs))
        except WorkerDied as exc:
            raise SystemExit(str(exc)) from None
    if "W7" in only:
        measure_startup(trees, rows, cfg)

    ordered = list(rows.values())
    harness_commit = _git("rev-parse", "HEAD", check=False)
    payload: dict[str, Any] = {
        "benchmark": "compare",
        "date": now_iso(),
        "machine": machine_info(),
        "config": cfg,
        "harness": f"{ROOT} at {harness_commit[:10]}"
                   + (" (uncommitted changes)" if _git("status", "--porcelain",
                                                         check=False) else ""),
        "trees": {t: trees[t].as_json() for t in TREES},
        "tree_text": {t: trees[t].describe() for t in TREES},
        "elapsed_s": time.perf_counter() - t_start,
        "load_average_1min": {"start": load_start, "end": _loadavg()},
        "rounds": round_notes,
        "changed_during_run": {t: fingerprint(trees[t].root) != before[t] for t in TREES},
        "rows": _rows_json(ordered, cfg["threshold"]),
    }
    text = report(payload, ordered)
    print(text)
    name = args.name or f"compare-{base.tag}-vs-{head.tag}"
    args.out_dir.mkdir(parents=True, exist_ok=True)
    md = args.out_dir / f"{name}.md"
    md.write_text(f"# funcgrad: base against head\n\n{text}\n")
    _say(f"wrote {md}")
    _say(f"wrote {write_json(args.out_dir / f'{name}.json', payload)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One side of ``benchmarks/compare.py``: a process that times one funcgrad tree.

compare.py starts this script with the interpreter of the tree being measured (the tree's
own virtualenv, whose editable install maps ``funcgrad`` to that tree), once per tree per
round, and drives it with one JSON request per line on stdin; each answer is one JSON line
on the original stdout.  Anything else printed by the libraries goes to stderr (stdout is
pointed there), so it cannot corrupt the protocol.

The benchmark code itself (workloads, checks, timing loop, kernel cases) is always the
*harness's*: the ``benchmarks/`` folder this file lives in, loaded as a package by path,
whichever tree is measured.  Both columns of the comparison therefore run the same
benchmark, and only funcgrad differs.  The harness's root folder must not shadow the
measured tree's ``funcgrad``: it is kept off ``sys.path``, and after preparing, every
imported ``funcgrad.*`` module is checked to come from the measured tree.

Requests
    {"cmd": "prepare", "tree": ROOT, "workloads": [...], "libs": [...], "size": "full",
     "kernel_sizes": [16, ...] or null, "target_s": 0.05, "clock": "cpu"}
        -> {"info": {...}, "cases": [{"id", "key", "workload", "label", "lib", "unit",
            "status", "why", "digest"}, ...]}
    {"cmd": "time", "id": ID}  -> {"s": seconds per call}  (one timed loop; the first
                                   request for a case warms it up and calibrates it)
    {"cmd": "quit"}
Errors answer {"error": "..."}.
"""
from __future__ import annotations

import os

# Single-threaded, as in the suite; must precede the first numpy import.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
             "NUMBA_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
# Steady state, as in the suite (benchmarks/_timing.py): kernels built on first use, not
# loaded in the background while the first row is timed (before funcgrad is imported).
os.environ.setdefault("FUNCGRAD_KERNELS", "wait")

import gc  # noqa: E402
import hashlib  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from pathlib import Path  # noqa: E402

HARNESS = Path(__file__).resolve().parent          # this benchmarks/ folder
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def _load_harness():
    """Import this ``benchmarks/`` folder as the package ``benchmarks`` without putting
    its parent (a funcgrad tree, maybe not the measured one) on ``sys.path``."""
    spec = importlib.util.spec_from_file_location(
        "benchmarks", HARNESS / "__init__.py", submodule_search_locations=[str(HARNESS)])
    pkg = importlib.util.module_from_spec(spec)
    sys.modules["benchmarks"] = pkg
    spec.loader.exec_module(pkg)


def _digest(result) -> str:
    """A short hash of a result's bits (every leaf's dtype, shape and bytes), to tell
    whether the two trees computed bit-identical results."""
    import numpy as np
    from benchmarks import workloads as wl

    h = hashlib.sha256()
    for path, leaf in wl._leaves(wl.to_numpy(result)):
        a = np.ascontiguousarray(leaf)
        h.update(f"{path}|{a.dtype.str}|{a.shape}|".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def _foreign_funcgrad_modules(tree: Path) -> list[str]:
    """``funcgrad`` modules imported from anywhere but ``tree`` (must be none)."""
    bad = []
    for name, mod in list(sys.modules.items()):
        if name != "funcgrad" and not name.startswith("funcgrad."):
            continue
        where = getattr(mod, "__file__", None)
        if where and not Path(where).resolve().is_relative_to(tree):
            bad.append(f"{name} from {where}")
    return bad


class Worker:
    def __init__(self):
        self.fns = {}        # case id -> zero-argument callable
        self.numbers = {}    # case id -> calls per timed loop (after calibration)
        self.target = 0.05
        self.clock = CLOCKS["cpu"]

    # -- prepare ----------------------------------------------------------------

    def prepare(self, req):
        tree = Path(req["tree"]).resolve()
        self.target = float(req["target_s"])
        self.clock = CLOCKS[req["clock"]]
        # funcgrad first, from the measured tree (its venv's editable install); only then
        # the harness modules, some of which append their own root to sys.path.
        import funcgrad
        import funcgrad.kernels  # noqa: F401
        _load_harness()
        from benchmarks import suite, workloads as wl

        cases = []
        for w in req["workloads"]:
            for task in wl.WORKLOADS[w](wl.SIZES[req["size"]]):
                if task.reference_only:
                    continue  # floors: NumPy/Numba references, not funcgrad's rows
                fns, records = suite.prepare(task, req["libs"])
                for lib in req["libs"]:
                    rec = records.get(lib, {"status": "n/a", "reason": "not built"})
                    case = {"id": f"{task.key}|{lib}", "key": task.key,
                            "workload": task.workload, "label": task.label, "lib": lib,
                            "unit": task.unit, "status": rec["status"],
                            "why": rec.get("reason") or rec.get("error") or ""}
                    if lib in fns:
                        self.fns[case["id"]] = fns[lib]
                        case["digest"] = _digest(fns[lib]())
                    cases.append(case)
        if req.get("kernel_sizes"):
            cases += self._prepare_kernels(req["kernel_sizes"])
        # sys.path may have gained the harness root by now (kernels.py appends it); the
        # funcgrad already imported stays the tree's, which this checks.
        foreign = _foreign_funcgrad_modules(tree)
        if foreign:
            raise RuntimeError("funcgrad modules not from the measured tree "
                               f"{tree}: {foreign[:3]}")
        # As the suite does: freeze what exists now so that the collections before each
        # timed loop scan only what the timed calls allocate.
        gc.collect()
        gc.freeze()
        import numba
        import numpy

        info = {"funcgrad": funcgrad.__file__, "python": platform.python_version(),
                "executable": sys.executable, "numpy": numpy.__version__,
                "numba": numba.__version__, "pid": os.getpid()}
        return {"info": info, "cases": cases}

    def _prepare_kernels(self, sizes):
        """benchmarks/kernels.py's cases: funcgrad's default dispatch of each kernel,
        checked against the same kernel's NumPy path (on copies: some work in place)."""
        import numpy as np
        from benchmarks import kernels as kb, workloads as wl

        def copies(args):
            return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)

        out = []
        rng = np.random.default_rng(0)
        for n in sizes:
            try:
                built = kb.cases(n, rng)
            except Exception as exc:  # noqa: BLE001 -- e.g. a kernel this tree lacks
                out.append({"id": f"K.*.{n}|kernel", "key": f"K.*.{n}", "workload": "K",
                            "label": f"kernels at n={n}", "lib": "kernel", "unit": "µs",
                            "status": "ERROR", "why": f"{type(exc).__name__}: {exc}"[:300]})
                continue
            for label, fn, args in built:
                key = f"K.{label}.{n}"
                case = {"id": f"{key}|kernel", "key": key, "workload": "K",
                        "label": f"{label}, n={n}", "lib": "kernel", "unit": "µs"}
                try:
                    got = fn(*copies(args))
                    want = kb.with_threshold(1 << 62, fn, copies(args))()
                    problem = wl.compare(got, wl.to_numpy(want), 1e-10, 1e-12)
                except Exception as exc:  # noqa: BLE001
                    problem = f"ERROR {type(exc).__name__}: {exc}"[:300]
                if problem:
                    case.update(status="ERROR" if problem.startswith("ERROR") else "WRONG",
                                why=problem)
                else:
                    case.update(status="ok", why="", digest=_digest(got))
                    self.fns[case["id"]] = (lambda fn=fn, args=args: fn(*args))
                out.append(case)
        return out

    # -- time ---------------------------------------------------------------------

    def time(self, req):
        from benchmarks import _timing

        cid = req["id"]
        fn = self.fns[cid]
        if cid not in self.numbers:
            fn()  # warm-up, as run_round_robin does
            self.numbers[cid] = _timing.calibrate(fn, self.target, self.clock)
        n = self.numbers[cid]
        gc.collect()  # untimed: one case does not pay for the previous one's garbage
        return {"s": _timing._time_loop(fn, n, self.clock) / n, "n": n}


def main() -> int:
    # `python benchmarks/_compare_worker.py` put benchmarks/ itself first on sys.path: drop
    # it, so that its modules (startup, gpu, plot, ...) neither shadow a top-level module
    # of the same name nor get imported twice (here and under the package name).
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HARNESS]
    # The protocol owns the real stdout; everything else printed goes to stderr.
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    worker = Worker()
    for line in sys.stdin:
        req = json.loads(line)
        if req["cmd"] == "quit":
            break
        try:
            answer = getattr(worker, req["cmd"])(req)
        except Exception as exc:  # noqa: BLE001 -- reported to compare.py, which stops
            traceback.print_exc(file=sys.stderr)
            answer = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        proto.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

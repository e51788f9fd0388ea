"""Kernel safety: adversarial indices at every indexing entry point raise a Python
exception -- never a signal, never a silently wrong result (DESIGN.md principle 6).

Each entry point (``x[idx]`` under grad/jvp/vmap, the primitives ``gather``/``scatter``
bound directly, ``take``, ``take_along_axis``, ``.at[].set/add/...``, the scatter-add
kernel ``index_add``, the eager Tensor and ``jit`` when they exist) runs in a
*subprocess* (this file, run as a script), which prints one line per case.  A crash in
a kernel (segfault, abort) shows up as a negative return code and the test names the
case that was running.

NumPy is the oracle: where NumPy's own indexing raises for an index, funcgrad must raise
``IndexError`` or ``TypeError`` (or NumPy's own exception type) with a message; where
NumPy accepts it, funcgrad must give NumPy's result -- or refuse it with a clear error
(it may be stricter, e.g. about uint64 values that NumPy wraps around).

Two sizes: 10 elements (NumPy paths) and 5,000 (the Numba scatter-add kernel, whose
threshold is 4,096 elements).
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from long_runs import LONG, figure  # noqa: E402
SIZES = (10, 5000)

pytestmark = pytest.mark.timeout(1800 if LONG else 300)


# --- adversarial indices (for an axis of length n) -------------------------------------------

def adversarial_indices(n):
    big = lambda bad: np.concatenate([np.arange(n) % n, [bad]])  # noqa: E731 - long, last bad
    return {
        # Python and NumPy integers
        "int_oob": n, "int_neg_oob": -n - 1, "int_huge": 2**62, "int_huge_neg": -2**62,
        "int_max": 2**63 - 1, "int_min": -2**63, "int_beyond_int64": 2**70,
        "np_int64_oob": np.int64(n), "np_uint64_max": np.uint64(2**64 - 1),
        "np_uint64_oob": np.uint64(n), "int_last_ok": n - 1, "int_first_neg_ok": -n,
        # floats and NaN
        "float": 1.0, "float_nan": float("nan"), "float_inf": float("inf"),
        "np_float_nan": np.float64("nan"), "np_float32": np.float32(0.0),
        # integer arrays
        "arr_oob": np.array([0, n]), "arr_neg_oob": np.array([0, -n - 1]),
        "arr_huge": np.array([2**62]), "arr_int64_min": np.array([-2**63]),
        "arr_int8_oob": np.array([0, 127], np.int8),
        "arr_int32_min": np.array([-2**31], np.int32), "arr_uint64_max": np.array([2**64 - 1],
                                                                                  np.uint64),
        "arr_uint64_oob": np.array([n], np.uint64), "arr_2d_oob": np.array([[0, 1], [n, 2]]),
        "arr_long_last_oob": big(n), "arr_long_last_neg_oob": big(-n - 1),
        "arr_long_ok": big(-n), "arr_repeated_ok": np.zeros(2 * n, np.int64),
        "arr_empty_int": np.zeros(0, np.int64),
        # wrong dtypes
        "arr_float": np.array([0.0, 1.0]), "arr_nan": np.array([np.nan]),
        "arr_float_empty": np.zeros(0), "arr_complex": np.array([1j]),
        "arr_object": np.array([0, None], dtype=object), "arr_str": np.array(["0"]),
        "str": "0", "none_list": [None], "list_oob": [0, n], "list_float": [0.5],
        "ragged": [[0], [0, 1]], "complex": 1j,
        # boolean masks of the wrong length
        "mask_short": np.array([True, False]), "mask_long": np.ones(n + 3, bool),
        "mask_0d": np.bool_(True),
        # tuples
        "tuple_too_many": (0, 0), "tuple_slice_then_oob": (slice(None), n),
    }


def _fits_batch(i):
    """Indices that can be stacked into a batch of indices for vmap."""
    a = np.asarray(i) if not isinstance(i, (str, tuple)) else None
    return a is not None and a.dtype.kind in "iub"


# --- oracles (NumPy) and entry points (funcgrad) --------------------------------------------------

def _np_get(x, i):
    return x[i]


def _np_set(x, i):
    y = x.copy()
    y[i] = 1.0
    return y


def _np_add(x, i):
    y = x.copy()
    np.add.at(y, i, 1.0)
    return y


def _np_grad_sum(x, i):
    """d/dx sum(x[i]): ones scattered (with repetition) at i."""
    y = np.zeros_like(x)
    x[i]  # raises where NumPy's indexing does
    np.add.at(y, i, 1.0)
    return y


def _np_grad_take(x, i):
    """d/dx sum(np.take(x, i)): np.take reads booleans as 0 and 1."""
    np.take(x, i)  # raises where NumPy's take does
    y = np.zeros_like(x)
    i = np.asarray(i)
    np.add.at(y, i.astype(np.intp) if i.dtype.kind == "b" else i, 1.0)
    return y


def _entries():
    import funcgrad as fg
    import funcgrad.numpy as fnp
    from funcgrad.kernels import cpu
    from funcgrad.primitives import indexing as ix

    def vmap_batched(fn):
        def call(x, i):
            if not _fits_batch(i):
                raise _NotApplicable
            return fn(np.stack([x, x]), np.stack([np.asarray(i)] * 2))[1]
        return call

    def arr(i):
        if isinstance(i, (str, tuple)) or i is None:
            raise _NotApplicable
        return np.asarray(i)

    def tensor_get(x, i):
        t = fg.Tensor(x, requires_grad=True)
        t[i].sum().backward()
        return t.grad.numpy()

    def tensor_set(x, i):
        t = fg.Tensor(x)
        t[i] = 1.0
        return np.array(t.numpy())

    e = {
        "index_primitive": (lambda x, i: ix.index(x, i), _np_get),
        "grad_getitem": (lambda x, i: fg.grad(lambda v: fnp.sum(v[i]))(x), _np_grad_sum),
        "jvp_getitem": (lambda x, i: fg.jvp(lambda v: v[i], (x,), (x,))[1], _np_get),
        "vjp_getitem": (lambda x, i: fg.vjp(lambda v: v[i], x)[1](x[i] * 0 + 1.0)[0],
                        _np_grad_sum),
        "vmap_getitem": (lambda x, i: fg.vmap(lambda v: v[i])(np.stack([x, x]))[1], _np_get),
        "vmap_batched_index": (vmap_batched(fg.vmap(lambda v, j: v[j])), _np_get),
        "vmap_grad_batched_index": (vmap_batched(fg.vmap(fg.grad(
            lambda v, j: fnp.sum(v[j])))), _np_grad_sum),
        "vmap_at_add_batched_index": (vmap_batched(fg.vmap(lambda v, j: v.at[j].add(1.0))),
                                      _np_add),
        "take": (lambda x, i: fnp.take(x, i), lambda x, i: np.take(x, i)),
        "grad_take": (lambda x, i: fg.grad(lambda v: fnp.sum(fnp.take(v, i)))(x),
                      _np_grad_take),
        "take_along_axis": (lambda x, i: fnp.take_along_axis(x, i, 0),
                            lambda x, i: np.take_along_axis(x, i, 0)),
        "grad_take_along_axis": (
            lambda x, i: fg.grad(lambda v: fnp.sum(fnp.take_along_axis(v, i, 0)))(x),
            lambda x, i: (np.take_along_axis(x, i, 0), _np_grad_sum(x, i))[1]),
        "at_get": (lambda x, i: fnp.at(x)[i].get(), _np_get),
        "at_set": (lambda x, i: fnp.at(x)[i].set(1.0), _np_set),
        "at_add": (lambda x, i: fnp.at(x)[i].add(1.0), _np_add),
        "at_multiply": (lambda x, i: fnp.at(x)[i].multiply(2.0), _mul_set),
        "at_min": (lambda x, i: fnp.at(x)[i].min(-1.0), _min_set),
        "grad_at_add": (lambda x, i: fg.grad(lambda v: fnp.sum(v.at[i].add(v[0]) ** 2))(x),
                        lambda x, i: (x[i], None)[1]),
        "grad_at_set": (lambda x, i: fg.grad(lambda v: fnp.sum(v.at[i].set(v[0]) * v))(x),
                        lambda x, i: (x[i], None)[1]),
        "gather_primitive": (lambda x, i: ix.gather(x, [arr(i)], (("a",),)), _np_get),
        "grad_gather_primitive": (
            lambda x, i: fg.grad(lambda v: fnp.sum(ix.gather(v, [arr(i)], (("a",),))))(x),
            _np_grad_sum),
        "scatter_add_primitive": (
            lambda x, i: ix.scatter(x, 1.0, [arr(i)], (("a",),), "add"), _np_add),
        "scatter_set_primitive": (
            lambda x, i: ix.scatter(x, 1.0, [arr(i)], (("a",),), "set"), _np_set),
        "index_add_kernel": (lambda x, i: cpu.index_add(x.copy(), (arr(i),), np.ones(
            np.shape(arr(i)))), _np_add),
    }
    if hasattr(fg, "Tensor"):
        e["tensor_getitem_backward"] = (tensor_get, _np_grad_sum)
        e["tensor_setitem"] = (tensor_set, _np_set)
    if hasattr(fg, "jit"):
        e["jit_getitem_constant_index"] = (lambda x, i: fg.jit(lambda v: v[i])(x), _np_get)
        e["jit_getitem_traced_index"] = (lambda x, i: fg.jit(lambda v, j: v[j])(x, arr(i)),
                                         _np_get)
        e["jit_grad_traced_index"] = (
            lambda x, i: fg.jit(fg.grad(lambda v, j: fnp.sum(v[j])))(x, arr(i)), _np_grad_sum)
        e["jit_at_add_traced_index"] = (
            lambda x, i: fg.jit(lambda v, j: v.at[j].add(1.0))(x, arr(i)), _np_add)
    return e


def _mul_set(x, i):  # every update applies where indices repeat, as np.multiply.at
    y = x.copy()
    np.multiply.at(y, i, 2.0)
    return y


def _min_set(x, i):
    y = x.copy()
    np.minimum.at(y, i, -1.0)
    return y


class _NotApplicable(Exception):
    """The case does not apply to this entry point (e.g. a string index for vmap)."""


def _entry_names():
    import funcgrad as fg
    names = [
        "index_primitive", "grad_getitem", "jvp_getitem", "vjp_getitem", "vmap_getitem",
        "vmap_batched_index", "vmap_grad_batched_index", "vmap_at_add_batched_index", "take",
        "grad_take", "take_along_axis", "grad_take_along_axis", "at_get", "at_set", "at_add",
        "at_multiply", "at_min", "grad_at_add", "grad_at_set", "gather_primitive",
        "grad_gather_primitive", "scatter_add_primitive", "scatter_set_primitive",
        "index_add_kernel"]
    if hasattr(fg, "Tensor"):  # the eager Tensor's entry points, once it exists
        names += ["tensor_getitem_backward", "tensor_setitem"]
    if hasattr(fg, "jit"):  # and jit's
        names += ["jit_getitem_constant_index", "jit_getitem_traced_index",
                  "jit_grad_traced_index", "jit_at_add_traced_index"]
    return names


ENTRY_NAMES = _entry_names() if __name__ != "__main__" else []


# --- the child process --------------------------------------------------------------------------

def _outcome(fn, x, i):
    try:
        with np.errstate(all="ignore"):
            return "ok", fn(x, i), ""
    except _NotApplicable:
        return "n/a", None, ""
    except Exception as e:  # noqa: BLE001 - classified by the parent
        return type(e).__name__, None, f"{type(e).__module__}.{type(e).__name__}: {e}"


def _same(a, b):
    try:
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return a.shape == b.shape and np.allclose(a, b, equal_nan=True)


def child(names, n):
    import funcgrad as fg  # noqa: F401
    entries = _entries()
    x = np.linspace(-1.0, 1.0, n)
    for entry in names:
        fn, oracle = entries[entry]
        for case, idx in adversarial_indices(n).items():
            print(json.dumps({"start": case, "entry": entry}), flush=True)
            np_kind, expected, np_message = _outcome(oracle, x, idx)
            fg_kind, got, fg_message = _outcome(fn, x, idx)
            same = None
            if np_kind == "ok" and fg_kind == "ok" and expected is not None:
                same = _same(got, expected)
            print(json.dumps({"entry": entry, "case": case, "numpy": np_kind,
                              "funcgrad": fg_kind, "message": fg_message[:300],
                              "numpy_message": np_message[:200], "same": same}), flush=True)
        print(json.dumps({"done": entry}), flush=True)


# --- the tests ---------------------------------------------------------------------------------

# Any of these, with a message, is a clean refusal of an odd index.
ALLOWED = {"IndexError", "TypeError", "ValueError", "OverflowError", "ConcretizationError",
           "AxisError"}
# Plainly invalid indices (out of range, floats, NaN): NumPy raises IndexError for them,
# and so must funcgrad (IndexError or TypeError, nothing vaguer).
STRICT = {"int_oob", "int_neg_oob", "int_huge", "int_huge_neg", "np_int64_oob", "arr_oob",
          "arr_neg_oob", "arr_huge", "arr_int64_min", "arr_int8_oob", "arr_int32_min",
          "arr_2d_oob", "arr_long_last_oob", "arr_long_last_neg_oob", "float", "float_nan",
          "float_inf", "np_float_nan", "arr_float", "arr_nan", "list_oob", "list_float",
          "mask_short", "mask_long", "tuple_too_many", "tuple_slice_then_oob"}

_RESULTS = {}


def _results(n):
    """{entry: (lines, crash)} for size ``n``: one child process runs every entry point in
    turn; after a crash, a new child resumes with the next entry point."""
    if n in _RESULTS:
        return _RESULTS[n]
    results, todo = {}, list(ENTRY_NAMES)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    while todo:
        proc = subprocess.run(
            [sys.executable, os.path.abspath(__file__), "--child", ",".join(todo), str(n)],
            capture_output=True, text=True, timeout=1200, env=env, cwd=root)
        lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
        done = [line["done"] for line in lines if "done" in line]
        for entry in done:
            results[entry] = ([line for line in lines if line.get("entry") == entry
                               and "case" in line], None)
        todo = [e for e in todo if e not in done]
        if not todo:
            break
        # the child died in todo[0]: record how, and go on with the others
        started = [line["start"] for line in lines if line.get("entry") == todo[0]
                   and "start" in line]
        crash = (f"the child process ended with return code {proc.returncode}"
                 f"{' (signal %d)' % -proc.returncode if proc.returncode < 0 else ''} while "
                 f"running case {started[-1] if started else '?'}:\n{proc.stderr[-3000:]}")
        results[todo[0]] = ([line for line in lines if line.get("entry") == todo[0]
                             and "case" in line], crash)
        todo = todo[1:]
    _RESULTS[n] = results
    return results


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("entry", ENTRY_NAMES)
def test_adversarial_indices(entry, n):
    lines, crash = _results(n)[entry]
    assert crash is None, f"{entry} (n={n}): {crash}"
    assert len(lines) == len(adversarial_indices(n))
    problems = []
    for r in lines:
        case, np_kind, fg_kind = r["case"], r["numpy"], r["funcgrad"]
        if fg_kind == "n/a":
            continue
        if fg_kind != "ok":
            if case in STRICT and np_kind in ("IndexError", "TypeError") and fg_kind not in (
                    "IndexError", "TypeError", "ConcretizationError"):
                problems.append(f"{case}: raised {r['message']}; expected IndexError or "
                                f"TypeError (NumPy: {np_kind})")
            elif fg_kind not in ALLOWED:
                problems.append(f"{case}: raised {r['message']} (NumPy: {np_kind})")
            elif not r["message"].split(":", 1)[-1].strip():
                problems.append(f"{case}: {fg_kind} without a message")
        elif np_kind == "IndexError":
            problems.append(f"{case}: NumPy raises IndexError ({r['numpy_message']}) but "
                            f"funcgrad returned a result")
        elif r["same"] is False:
            problems.append(f"{case}: funcgrad's result differs from NumPy's")
    assert not problems, f"{entry} (n={n}):\n  " + "\n  ".join(problems)


def test_every_case_ran():
    """The summary figure: entry points x indices x sizes exercised."""
    total = sum(len(lines) for n in SIZES for lines, _ in _results(n).values())
    figure("kernel_safety", entry_points=len(ENTRY_NAMES), cases=total)
    assert total == len(ENTRY_NAMES) * sum(len(adversarial_indices(n)) for n in SIZES)


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--child":
    child(sys.argv[2].split(","), int(sys.argv[3]))

"""Fuzzing: hypothesis writes random programs from funcgrad's primitive families and
checks that funcgrad neither crashes, hangs, computes wrong values nor raises unclear
errors.

A program is a list of steps over a growing list of values (the inputs first): unary
and binary elementwise operations with broadcasting, reductions over random axes,
reshapes, transposes and other structural operations, indexing (slices, integers,
integer arrays, boolean masks, ``take``, ``.at[]``, and index expressions of every form
NumPy accepts, ``None`` and ``...`` anywhere, with ``.at[]`` updates through them) and
matrix products.  Shapes are random (including size-0 and size-1 axes and 0-d arrays),
dtypes float32 or float64, and input values either well-conditioned or special (NaN, +-inf, huge, tiny, denormal,
signed zeros).  A few programs end in a deliberately invalid step (mismatched shapes,
an axis or index out of range), where NumPy raises.

Each program runs as plain NumPy (the reference) and through funcgrad.  Checks:

* funcgrad's eager result equals NumPy's; where NumPy raises, funcgrad raises too;
* every exception is a ``TypeError``/``ValueError``/``IndexError``/``ArithmeticError``
  or one of funcgrad's own errors, with a message -- never a Numba error, an
  ``AttributeError``, an ``AssertionError`` or a crash; no program runs longer than
  :data:`PROGRAM_SECONDS` (a hang);
* ``grad`` returns one gradient per input with the input's shape and dtype;
* the same program in plain NumPy (``np.sin`` on the traced value, ``np.add.at`` into a
  copy) has the same gradient under ``grad``, or is refused with a clear exception;
* well-conditioned float64 programs: ``<grad, v>`` matches central finite differences
  where the program is smooth there (two step sizes agree), and ``jvp`` matches
  ``<grad, v>``;
* ``vmap`` equals a loop, ``make_graph`` replays the eager result, and ``jit`` (when
  ``fg.jit`` exists) equals eager, for the function and its gradient.

``make test`` fuzzes a few hundred programs; ``FUNCGRAD_LONG=1`` (``make soak``) tens of
thousands, randomised.  The number of programs is reported at the end.
"""
import math
import os
import signal
import threading
import time
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp

from index_strategies import index_expressions, index_text, numpy_result  # noqa: E402
from long_runs import LONG, figure  # noqa: E402
PROGRAM_SECONDS = 60 if LONG else 30
HAS_JIT = hasattr(fg, "jit")

pytestmark = pytest.mark.timeout(4 * 3600 if LONG else 300)

COUNTS = {"programs": 0, "smooth": 0, "special": 0, "invalid": 0, "fd_checked": 0,
          "fd_skipped_nonsmooth": 0, "raised": 0, "singular_matrix": 0, "jit": 0,
          "plain_numpy_same": 0, "plain_numpy_refused": 0}


@pytest.fixture(scope="module", autouse=True)
def report_counts():
    yield
    figure("fuzz", **COUNTS)


def _settings(ci, long, **kw):
    if LONG:
        # FUNCGRAD_FUZZ_SCALE scales the long run (e.g. 0.1 for a quicker randomised pass)
        long = max(1, int(long * float(os.environ.get("FUNCGRAD_FUZZ_SCALE", "1"))))
        return settings(max_examples=long, derandomize=False, database=None, deadline=None,
                        suppress_health_check=list(HealthCheck), print_blob=True, **kw)
    return settings(max_examples=ci, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=True, **kw)


# --- the two namespaces a program runs on -----------------------------------------------------

class _Numpy:
    """NumPy, plus the few operations NumPy spells differently from funcgrad."""

    name = "numpy"
    m = np

    @staticmethod
    def at_add(x, idx, v):
        y = np.array(x, copy=True)
        np.add.at(y, idx, v)
        return y

    @staticmethod
    def at_set(x, idx, v):
        y = np.array(x, copy=True)
        y[idx] = v
        return y

    @staticmethod
    def at_update(x, idx, v, mode):
        y = np.array(x, copy=True)
        if mode == "set":
            y[idx] = v
        else:
            {"add": np.add, "min": np.minimum, "max": np.maximum}[mode].at(y, idx, v)
        return y

    @staticmethod
    def logsumexp(x, axis, keepdims):
        m = np.max(x, axis=axis, keepdims=True)
        m = np.where(np.isfinite(m), m, 0)
        out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
        return out if keepdims else np.squeeze(out, axis=axis)


class _Funcgrad:
    name = "funcgrad"
    m = fnp

    @staticmethod
    def at_add(x, idx, v):
        return fnp.at(x)[idx].add(v)

    @staticmethod
    def at_set(x, idx, v):
        return fnp.at(x)[idx].set(v)

    @staticmethod
    def at_update(x, idx, v, mode):
        return getattr(fnp.at(x)[idx], mode)(v)

    @staticmethod
    def logsumexp(x, axis, keepdims):
        return fnp.logsumexp(x, axis=axis, keepdims=keepdims)


NUMPY, FUNCGRAD = _Numpy(), _Funcgrad()


# --- operations ----------------------------------------------------------------------------------
# Each: ``apply(ns, params, *values)`` on namespace ns; the generator knows its shapes.

def _safe_pos(m, x):
    """A smooth, positive transform for the domains of log/sqrt/reciprocal (smooth mode)."""
    return x * x + 0.5


UNARY = {
    "sin": lambda m, x: m.sin(x), "cos": lambda m, x: m.cos(x),
    "tanh": lambda m, x: m.tanh(x), "arctan": lambda m, x: m.arctan(x),
    "exp": lambda m, x: m.exp(x), "expm1": lambda m, x: m.expm1(x),
    "sinh": lambda m, x: m.sinh(x), "cosh": lambda m, x: m.cosh(x),
    "square": lambda m, x: m.square(x), "negative": lambda m, x: m.negative(x),
    "abs": lambda m, x: m.abs(x), "floor": lambda m, x: m.floor(x),
    "sign": lambda m, x: m.sign(x), "relu": lambda m, x: m.maximum(x, 0.0),
    "clip": lambda m, x: m.clip(x, -0.75, 0.75), "cbrt": lambda m, x: m.cbrt(x),
    "scale": lambda m, x: x * 0.5 + 0.25, "rpow": lambda m, x: x ** 2,
}
# raw in special mode, on a positive argument in smooth mode
DOMAIN_UNARY = {
    "log": lambda m, x: m.log(x), "sqrt": lambda m, x: m.sqrt(x),
    "reciprocal": lambda m, x: m.reciprocal(x), "log1p": lambda m, x: m.log1p(x),
    "log2": lambda m, x: m.log2(x), "arcsin": lambda m, x: m.arcsin(x),
}
BINARY = {
    "add": lambda m, a, b: m.add(a, b), "subtract": lambda m, a, b: a - b,
    "multiply": lambda m, a, b: a * b, "maximum": lambda m, a, b: m.maximum(a, b),
    "minimum": lambda m, a, b: m.minimum(a, b), "logaddexp": lambda m, a, b: m.logaddexp(a, b),
    "where": lambda m, a, b: m.where(a > b, a, b * 2.0),
    "fmax": lambda m, a, b: m.fmax(a, b),
}
DOMAIN_BINARY = {
    "divide": lambda m, a, b: a / b, "power": lambda m, a, b: m.power(a, b),
    "arctan2": lambda m, a, b: m.arctan2(a, b), "hypot": lambda m, a, b: m.hypot(a, b),
}
# smooth mode: each domain operation's arguments moved away from its singular points
# (divide: y = 0; power: x <= 0, large y; arctan2 and hypot: the origin)
SAFE_BINARY = {
    "divide": (lambda m, x: x, _safe_pos), "power": (_safe_pos, lambda m, y: m.tanh(y)),
    "arctan2": (lambda m, x: x, _safe_pos), "hypot": (_safe_pos, lambda m, y: y),
}
REDUCTIONS = ["sum", "mean", "max", "min", "prod", "var", "logsumexp"]


class Step:
    """One operation of a program: ``op`` applied to values ``args`` with ``params``."""

    def __init__(self, op, args, params, shape, text):
        self.op, self.args, self.params, self.shape, self.text = op, args, params, shape, text


class Program:
    def __init__(self, dtype, input_shapes, steps, smooth, dynamic, invalid, outputs):
        self.dtype, self.input_shapes, self.steps = dtype, input_shapes, steps
        self.smooth, self.dynamic, self.invalid, self.outputs = smooth, dynamic, invalid, outputs

    def __repr__(self):
        lines = [f"def program({', '.join(f'x{i}' for i in range(len(self.input_shapes)))}):"
                 f"  # {np.dtype(self.dtype).name}, inputs "
                 f"{[tuple(s) for s in self.input_shapes]}"]
        for k, s in enumerate(self.steps):
            lines.append(f"    v{len(self.input_shapes) + k} = {s.text}   # {s.shape}")
        terms = " + ".join(f"sum(v{i})" for i in self.outputs)
        lines.append(f"    return {terms}")
        return "\n".join(lines)

    def run(self, ns, *inputs, values=None):
        """The program on namespace ``ns``; returns a scalar (``values``: a list to collect
        every intermediate value in)."""
        values = [] if values is None else values
        values.extend(inputs)
        for s in self.steps:
            values.append(_apply(ns, s, values))
        m = ns.m
        total = None
        for i in self.outputs:
            v = m.sum(values[i])
            total = v if total is None else total + v
        return total

    def function(self, ns=FUNCGRAD):
        return lambda *xs: self.run(ns, *xs)


def _apply(ns, s, values):
    m = ns.m
    a = [values[i] for i in s.args]
    p = s.params
    op = s.op
    if op in UNARY:
        return UNARY[op](m, a[0])
    if op in DOMAIN_UNARY:
        x = a[0]
        if p["safe"]:  # inside the domain, and well-conditioned (arcsin: away from +-1)
            x = 0.5 * m.tanh(x) if op == "arcsin" else _safe_pos(m, x)
        return DOMAIN_UNARY[op](m, x)
    if op in BINARY:
        return BINARY[op](m, a[0], a[1] if len(a) > 1 else p["const"])
    if op in DOMAIN_BINARY:
        x, y = a[0], (a[1] if len(a) > 1 else p["const"])
        if p["safe"]:
            fx, fy = SAFE_BINARY[op]
            x, y = fx(m, x), fy(m, y)
        return DOMAIN_BINARY[op](m, x, y)
    if op == "reduce":
        if p["kind"] == "logsumexp":
            return ns.logsumexp(a[0], p["axis"], p["keepdims"])
        return getattr(m, p["kind"])(a[0], axis=p["axis"], keepdims=p["keepdims"])
    if op == "reshape":
        return m.reshape(a[0], p["shape"])
    if op == "transpose":
        return m.transpose(a[0], p["perm"])
    if op == "swapaxes":
        return m.swapaxes(a[0], p["a1"], p["a2"])
    if op == "expand_dims":
        return m.expand_dims(a[0], p["axis"])
    if op == "squeeze":
        return m.squeeze(a[0], axis=p["axis"])
    if op == "flip":
        return m.flip(a[0], axis=p["axis"])
    if op == "broadcast_to":
        return m.broadcast_to(a[0], p["shape"])
    if op == "concatenate":
        return m.concatenate([a[0], a[0] * 2.0], axis=p["axis"])
    if op == "stack":
        return m.stack([a[0], a[1]], axis=p["axis"])
    if op == "cumsum":
        return m.cumsum(a[0], axis=p["axis"])
    if op == "sort":
        return m.sort(a[0], axis=p["axis"])
    if op == "slice":
        return a[0][p["index"]]
    if op == "int_index":
        return a[0][p["index"]]
    if op == "array_index":
        return a[0][p["index"]]
    if op == "take":
        return m.take(a[0], p["index"], axis=p["axis"])
    if op == "mask":
        return a[0][a[0] > p["threshold"]]
    if op == "at_add":
        return ns.at_add(a[0], p["index"], a[1] if len(a) > 1 else p["const"])
    if op == "at_set":
        return ns.at_set(a[0], p["index"], p["const"])
    if op == "at_update":
        return ns.at_update(a[0], p["index"], p["const"], p["mode"])
    if op == "matmul_const":
        return a[0] @ p["w"]
    if op == "multiply_const":
        return a[0] * p["w"]
    if op == "matmul_self":
        return a[0] @ m.swapaxes(a[0], -1, -2)
    if op == "matmul":
        return m.matmul(a[0], a[1])
    if op == "linalg":
        x = a[0]
        if x.ndim == 1:
            x = m.reshape(x, (-1, 1))
        n_ = x.shape[-2]
        spd = x @ m.swapaxes(x, -1, -2) + m.eye(n_, dtype=x.dtype) * p["shift"]
        kind = p["kind"]
        if kind == "inv":
            return m.linalg.inv(spd)
        if kind == "solve":
            return m.linalg.solve(spd, x)
        if kind == "det":
            return m.linalg.det(spd)
        if kind == "slogdet":
            return m.linalg.slogdet(spd)[1]
        if kind == "cholesky":
            return m.linalg.cholesky(spd)
        return m.linalg.norm(spd)  # (not of x: the norm is singular at 0)
    if op == "misc":
        x, kind = a[0], p["kind"]
        if kind == "roll":
            return m.roll(x, p["shift"], axis=p["axis"])
        if kind == "tile":
            return m.tile(x, 2)
        if kind == "repeat":
            return m.repeat(x, 2, axis=p["axis"])
        if kind == "pad":
            return m.pad(x, 1)
        if kind == "diff":
            return m.diff(x, axis=p["axis"])
        if kind == "cumprod":
            return m.cumprod(x, axis=p["axis"])
        if kind == "std":
            return m.std(x, axis=p["axis"])
        if kind == "einsum":
            return m.einsum("...i,...i->...", x, x)
        if kind == "split":
            return m.split(x, 2, axis=p["axis"])[1]
        if kind == "round":
            return m.round(x)
        raise AssertionError(kind)
    if op == "diagonal":
        return m.diagonal(a[0], axis1=-2, axis2=-1)
    if op == "triu":
        return m.triu(a[0])
    raise AssertionError(f"unknown op {op}")


# --- the program generator ---------------------------------------------------------------------

def _fmt_index(idx):
    if isinstance(idx, tuple):
        return ", ".join(_fmt_index(i) for i in idx)
    if isinstance(idx, slice):
        return (f"{'' if idx.start is None else idx.start}:{'' if idx.stop is None else idx.stop}"
                f"{'' if idx.step is None else ':' + str(idx.step)}")
    if isinstance(idx, np.ndarray):
        return f"np.array({idx.tolist()})"
    return repr(idx)


def _broadcastable(s1, s2):
    try:
        return np.broadcast_shapes(s1, s2)
    except ValueError:
        return None


def _reduce_shape(shape, axis, keepdims):
    nd = len(shape)
    axes = range(nd) if axis is None else [a % nd for a in
                                          (axis if isinstance(axis, tuple) else (axis,))]
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


@st.composite
def programs(draw, mode=None, max_steps=8, allow_invalid=True, dtypes=(np.float64, np.float32),
             max_dim=4, families=None):
    dtype = draw(st.sampled_from(dtypes))
    mode = mode or draw(st.sampled_from(["smooth", "special"]))
    smooth = mode == "smooth"
    ndim = draw(st.integers(0, 3))
    low = 1 if smooth and draw(st.booleans()) else 0
    base = tuple(draw(st.lists(st.integers(low, max_dim), min_size=ndim, max_size=ndim)))
    n_inputs = draw(st.integers(1, 3))
    shapes = []
    for _ in range(n_inputs):
        k = draw(st.integers(0, len(base)))
        s = list(base[len(base) - k:])
        for j in range(len(s)):
            if draw(st.integers(0, 4)) == 0:
                s[j] = 1
        shapes.append(tuple(s))
    env = list(shapes)
    steps = []
    dynamic = invalid = False
    n_steps = draw(st.integers(1, max_steps))
    rng_seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(rng_seed)

    def pick(pred=lambda s: True):
        choices = [i for i, s in enumerate(env) if pred(s)]
        return draw(st.sampled_from(choices)) if choices else None

    def name(i):
        return f"x{i}" if i < n_inputs else f"v{i}"

    families = families or ["unary", "unary", "domain_unary", "binary", "binary",
                            "domain_binary", "reduce", "structural", "structural", "index",
                            "index", "matmul", "linalg", "misc"]
    for _ in range(n_steps):
        family = draw(st.sampled_from(families))
        if allow_invalid and not invalid and rng.random() < 0.03:
            family = "invalid"
        i = pick()
        s = env[i]
        nd = len(s)
        out = None
        if family == "unary":
            op = draw(st.sampled_from(sorted(UNARY)))
            step = Step(op, [i], {}, s, f"{op}({name(i)})")
        elif family == "domain_unary":
            op = draw(st.sampled_from(sorted(DOMAIN_UNARY)))
            arg = name(i) if not smooth else (f"0.5 * tanh({name(i)})" if op == "arcsin"
                                              else f"{name(i)} ** 2 + 0.5")
            step = Step(op, [i], {"safe": smooth}, s, f"{op}({arg})")
        elif family in ("binary", "domain_binary"):
            table = BINARY if family == "binary" else DOMAIN_BINARY
            op = draw(st.sampled_from(sorted(table)))
            j = pick(lambda t: _broadcastable(s, t) is not None)
            if draw(st.integers(0, 3)) == 0:  # a constant: Python float or a 0-d array
                const = draw(st.sampled_from([0.5, 2.0, -1.5, np.float32(0.75),
                                              np.array(1.25, dtype)]))
                step = Step(op, [i], {"const": const, "safe": smooth}, s,
                            f"{op}({name(i)}, {const!r})")
            else:
                step = Step(op, [i, j], {"safe": smooth}, _broadcastable(s, env[j]),
                            f"{op}({name(i)}, {name(j)})")
        elif family == "reduce":
            kind = draw(st.sampled_from(REDUCTIONS))
            if nd == 0 or draw(st.integers(0, 3)) == 0:
                axis = None
            elif nd >= 2 and draw(st.booleans()):
                axes = draw(st.lists(st.integers(-nd, nd - 1), min_size=2, max_size=2,
                                     unique_by=lambda a: a % nd))
                axis = tuple(axes)
            else:
                axis = draw(st.integers(-nd, nd - 1))
            keepdims = draw(st.booleans())
            shape = _reduce_shape(s, axis, keepdims)
            step = Step("reduce", [i], {"kind": kind, "axis": axis, "keepdims": keepdims}, shape,
                        f"{kind}({name(i)}, axis={axis}, keepdims={keepdims})")
        elif family == "structural":
            kind = draw(st.sampled_from(["reshape", "transpose", "swapaxes", "expand_dims",
                                         "squeeze", "flip", "broadcast_to", "concatenate",
                                         "stack", "cumsum", "sort"]))
            if kind == "reshape":
                size = math.prod(s)
                target = draw(st.sampled_from([(-1,), (size,), tuple(reversed(s)),
                                               (1,) + tuple(s), (-1, 1)]))
                rest = math.prod(d for d in target if d != -1)
                shape = tuple((size // rest if rest else 0) if d == -1 else d for d in target)
                step = Step("reshape", [i], {"shape": target}, shape,
                            f"reshape({name(i)}, {target})")
            elif kind == "transpose":
                perm = tuple(draw(st.permutations(range(nd))))
                step = Step("transpose", [i], {"perm": perm}, tuple(s[p] for p in perm),
                            f"transpose({name(i)}, {perm})")
            elif kind == "swapaxes" and nd >= 2:
                a1, a2 = draw(st.integers(-nd, nd - 1)), draw(st.integers(-nd, nd - 1))
                t = list(s)
                t[a1], t[a2] = t[a2], t[a1]
                step = Step("swapaxes", [i], {"a1": a1, "a2": a2}, tuple(t),
                            f"swapaxes({name(i)}, {a1}, {a2})")
            elif kind == "expand_dims":
                axis = draw(st.integers(-nd - 1, nd))
                t = list(s)
                t.insert(axis % (nd + 1), 1)
                step = Step("expand_dims", [i], {"axis": axis}, tuple(t),
                            f"expand_dims({name(i)}, {axis})")
            elif kind == "squeeze" and 1 in s:
                axis = s.index(1)
                step = Step("squeeze", [i], {"axis": axis}, s[:axis] + s[axis + 1:],
                            f"squeeze({name(i)}, axis={axis})")
            elif kind == "flip" and nd:
                axis = draw(st.integers(-nd, nd - 1))
                step = Step("flip", [i], {"axis": axis}, s, f"flip({name(i)}, {axis})")
            elif kind == "broadcast_to":
                shape = (2,) + tuple(s)
                step = Step("broadcast_to", [i], {"shape": shape}, shape,
                            f"broadcast_to({name(i)}, {shape})")
            elif kind == "concatenate" and nd:
                axis = draw(st.integers(-nd, nd - 1))
                t = list(s)
                t[axis] *= 2
                step = Step("concatenate", [i], {"axis": axis}, tuple(t),
                            f"concatenate([{name(i)}, {name(i)} * 2], axis={axis})")
            elif kind == "stack":
                j = pick(lambda t: t == s)
                axis = draw(st.integers(-nd - 1, nd))
                t = list(s)
                t.insert(axis % (nd + 1), 2)
                step = Step("stack", [i, j], {"axis": axis}, tuple(t),
                            f"stack([{name(i)}, {name(j)}], axis={axis})")
            elif kind in ("cumsum", "sort") and nd:
                axis = draw(st.integers(-nd, nd - 1))
                step = Step(kind, [i], {"axis": axis}, s, f"{kind}({name(i)}, axis={axis})")
            else:
                step = Step("negative", [i], {}, s, f"negative({name(i)})")
        elif family == "index":
            kind = draw(st.sampled_from(["slice", "int_index", "array_index", "take", "mask",
                                         "at_add", "at_set", "expression", "expression",
                                         "at_expression"]))
            if nd == 0:  # (0-d boolean masks are a documented limitation: test_odd_inputs)
                kind = "at_set_scalar"
            if kind in ("expression", "at_expression"):
                # any index NumPy accepts (tests/index_strategies.py), at any rank
                idx = draw(index_expressions(s))
                region, error = numpy_result(np.zeros(s), idx)
                if error is not None:
                    kind, idx = "negative", None
            if kind == "expression":
                step = Step("array_index", [i], {"index": idx}, region.shape,
                            f"{name(i)}[{index_text(idx)}]")
            elif kind == "at_expression":
                mode = draw(st.sampled_from(["set", "add", "min", "max"]))
                step = Step("at_update", [i], {"index": idx, "mode": mode, "const": 0.75}, s,
                            f"{name(i)}.at[{index_text(idx)}].{mode}(0.75)")
            elif kind == "slice":
                axis = draw(st.integers(0, nd - 1))
                sl = draw(st.sampled_from([slice(1, None), slice(None, None, -1),
                                           slice(None, None, 2), slice(0, 0),
                                           slice(-2, None), slice(None, 1)]))
                idx = (slice(None),) * axis + (sl,)
                t = list(s)
                t[axis] = len(range(*sl.indices(s[axis])))
                step = Step("slice", [i], {"index": idx}, tuple(t),
                            f"{name(i)}[{_fmt_index(idx)}]")
            elif kind == "int_index" and s[0] > 0:
                k = draw(st.integers(-s[0], s[0] - 1))
                step = Step("int_index", [i], {"index": k}, s[1:], f"{name(i)}[{k}]")
            elif kind in ("array_index", "take", "at_add", "at_set") and s[0] > 0:
                count = draw(st.integers(0, 6))
                idx = rng.integers(-s[0], s[0], size=count)
                if kind == "take":
                    axis = draw(st.integers(0, nd - 1))
                    if s[axis] == 0:
                        idx = idx[:0]
                    else:
                        idx = rng.integers(-s[axis], s[axis], size=count)
                    t = list(s)
                    t[axis:axis + 1] = [count]
                    step = Step("take", [i], {"index": idx, "axis": axis}, tuple(t),
                                f"take({name(i)}, {_fmt_index(idx)}, axis={axis})")
                elif kind == "array_index":
                    step = Step("array_index", [i], {"index": idx}, (count,) + s[1:],
                                f"{name(i)}[{_fmt_index(idx)}]")
                elif kind == "at_add":
                    step = Step("at_add", [i], {"index": idx, "const": 1.5}, s,
                                f"{name(i)}.at[{_fmt_index(idx)}].add(1.5)")
                else:
                    idx = np.unique(idx % s[0])  # set: repeated indices are unordered
                    step = Step("at_set", [i], {"index": idx, "const": -0.5}, s,
                                f"{name(i)}.at[{_fmt_index(idx)}].set(-0.5)")
            elif kind == "mask":
                step = Step("mask", [i], {"threshold": 0.9}, None,
                            f"{name(i)}[{name(i)} > 0.9]")
                dynamic = True
            elif kind == "at_set_scalar":
                step = Step("at_set", [i], {"index": (), "const": 0.25}, s,
                            f"{name(i)}.at[()].set(0.25)")
            else:
                step = Step("negative", [i], {}, s, f"negative({name(i)})")
        elif family == "matmul":
            kind = draw(st.sampled_from(["const", "self", "pair"]))
            if kind == "const" and nd >= 1:
                k = draw(st.integers(1, 3))
                w = rng.standard_normal((s[-1], k)).astype(dtype)
                step = Step("matmul_const", [i], {"w": w}, s[:-1] + (k,),
                            f"{name(i)} @ W{w.shape}")
            elif kind == "self" and nd >= 2:
                step = Step("matmul_self", [i], {}, s[:-1] + (s[-2],),
                            f"{name(i)} @ swapaxes({name(i)}, -1, -2)")
            elif kind == "pair" and nd >= 1:
                j = pick(lambda t: len(t) == 1 and t[0] == s[-1])
                if j is not None:
                    step = Step("matmul", [i, j], {}, s[:-1], f"matmul({name(i)}, {name(j)})")
                else:
                    step = Step("sin", [i], {}, s, f"sin({name(i)})")
            elif nd >= 2 and draw(st.booleans()):
                step = Step("diagonal", [i], {}, s[:-2] + (min(s[-2], s[-1]),),
                            f"diagonal({name(i)})")
            elif nd >= 2:
                step = Step("triu", [i], {}, s, f"triu({name(i)})")
            else:
                step = Step("cos", [i], {}, s, f"cos({name(i)})")
        elif family == "linalg":
            kind = draw(st.sampled_from(["inv", "solve", "det", "slogdet", "cholesky", "norm"]))
            if nd == 0:
                step = Step("tanh", [i], {}, s, f"tanh({name(i)})")
            else:
                sq = s[:-1] + (s[-2] if nd >= 2 else s[0],) if nd >= 2 else (s[0], s[0])
                shape = {"inv": sq, "solve": sq[:-1] + ((s[-1],) if nd >= 2 else (1,)),
                         "det": sq[:-2], "slogdet": sq[:-2], "cholesky": sq,
                         "norm": ()}[kind]
                shift = 1.0 if smooth else draw(st.sampled_from([0.0, 1.0]))
                step = Step("linalg", [i], {"kind": kind, "shift": shift}, shape,
                            f"{kind}(A A^T + {shift} I  with A = {name(i)})")
        elif family == "misc":
            kind = draw(st.sampled_from(["roll", "tile", "repeat", "pad", "diff", "cumprod",
                                         "std", "einsum", "split", "round"]))
            axis = draw(st.integers(-nd, nd - 1)) if nd else None
            if nd == 0 and kind not in ("tile", "pad", "round", "cumprod"):
                kind = "round"
            if kind == "split" and s[axis] % 2:
                kind = "diff"
            shape = None
            if kind == "roll":
                shape = s
            elif kind == "tile":
                shape = (s[:-1] + (2 * s[-1],)) if nd else (2,)
            elif kind == "repeat":
                t = list(s)
                t[axis] *= 2
                shape = tuple(t)
            elif kind == "pad":
                shape = tuple(d + 2 for d in s)
            elif kind == "diff":
                t = list(s)
                t[axis] = max(t[axis] - 1, 0)
                shape = tuple(t)
            elif kind == "cumprod":
                shape = s if nd else (1,)
            elif kind == "std":
                shape = _reduce_shape(s, axis, False)
            elif kind == "einsum":
                shape = s[:-1]
            elif kind == "split":
                t = list(s)
                t[axis] //= 2
                shape = tuple(t)
            else:
                shape = s
            params = {"kind": kind, "axis": axis, "shift": draw(st.integers(-3, 3))}
            step = Step("misc", [i], params, shape, f"{kind}({name(i)}, axis={axis})")
        else:  # invalid: NumPy raises
            kind = draw(st.sampled_from(["matmul", "reshape", "axis", "index", "broadcast"]))
            if kind == "matmul" and nd >= 1:
                w = np.ones((s[-1] + 1, 2), dtype)
                step = Step("matmul_const", [i], {"w": w}, None,
                            f"{name(i)} @ ones({w.shape})  # invalid")
            elif kind == "axis":
                step = Step("reduce", [i], {"kind": "sum", "axis": nd + 1, "keepdims": False},
                            None, f"sum({name(i)}, axis={nd + 1})  # invalid")
            elif kind == "index" and nd >= 1:
                step = Step("int_index", [i], {"index": s[0] + 2}, None,
                            f"{name(i)}[{s[0] + 2}]  # invalid")
            elif kind == "broadcast" and nd >= 1 and s[-1] != 1:
                w = np.ones(s[:-1] + (s[-1] + 2,), dtype)
                step = Step("multiply_const", [i], {"w": w}, None,
                            f"{name(i)} * ones({w.shape})  # invalid")
            else:
                size = math.prod(s)
                step = Step("reshape", [i], {"shape": (size + 1,)}, None,
                            f"reshape({name(i)}, ({size + 1},))  # invalid")
            invalid = True
        steps.append(step)
        env.append(step.shape)
        if invalid or dynamic:
            break
    # every value a step made (and one input) reaches the output: each step is checked
    outputs = [draw(st.integers(0, n_inputs - 1))] + list(range(n_inputs, len(env)))
    return Program(dtype, shapes, steps, smooth, dynamic, invalid, outputs)


# --- input values ------------------------------------------------------------------------------

SPECIAL64 = [np.nan, np.inf, -np.inf, 1e300, -1e300, 1e-300, 5e-324, -5e-324, 0.0, -0.0, 1.0,
             -2.5, 700.0, -745.0]
SPECIAL32 = [np.nan, np.inf, -np.inf, 3e38, -3e38, 1e-38, 1e-45, -1e-45, 0.0, -0.0, 1.0,
             -2.5, 88.0, -103.0]


@st.composite
def inputs_for(draw, program):
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    xs = []
    for shape in program.input_shapes:
        if program.smooth:
            x = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
        else:
            pool = SPECIAL64 if program.dtype == np.float64 else SPECIAL32
            x = rng.choice(np.array(pool), size=shape)
            ordinary = rng.uniform(-2.0, 2.0, shape)
            x = np.where(rng.random(shape) < 0.5, x, ordinary)
        xs.append(np.asarray(x, dtype=program.dtype))
    return xs


# --- checks --------------------------------------------------------------------------------------

# funcgrad's own errors are TypeError/RuntimeError subclasses; allow those by class
ALLOWED = (TypeError, ValueError, IndexError, ArithmeticError, fg.EscapedTracerError,
           fg.ConcretizationError, fg.GradcheckError, NotImplementedError)


class _Hang(BaseException):
    pass


class _deadline:
    """Raise _Hang in the main thread if the block runs longer than ``seconds``.

    Shares SIGALRM with pytest-timeout: the earlier of the two deadlines is armed, the
    other one's handler runs if it is the one that expires, and its timer is restored."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.active = threading.current_thread() is threading.main_thread() and hasattr(
            signal, "setitimer")

    def __enter__(self):
        if self.active:
            self.start = time.monotonic()
            self.previous = signal.signal(signal.SIGALRM, self._alarm)
            self.outer = signal.getitimer(signal.ITIMER_REAL)[0]  # pytest-timeout's, or 0
            first = self.seconds if not self.outer else min(self.seconds, self.outer)
            signal.setitimer(signal.ITIMER_REAL, first)
        return self

    def _alarm(self, signum, frame):
        if self.outer and self.outer <= self.seconds and callable(self.previous):
            return self.previous(signum, frame)  # the outer deadline expired first
        raise _Hang(f"a program ran longer than {self.seconds} s")

    def __exit__(self, *exc):
        if self.active:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
            if self.outer:
                left = self.outer - (time.monotonic() - self.start)
                signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))
        return False


def attempt(fn, *args):
    """``("ok", value)`` or ``("raised", exception)``; unexpected exception types fail."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings(), _deadline(PROGRAM_SECONDS):
            warnings.simplefilter("ignore", RuntimeWarning)
            return "ok", fn(*args)
    except ALLOWED as e:
        assert str(e).strip(), f"{type(e).__name__} raised without a message"
        return "raised", e
    except _Hang:
        raise AssertionError(f"hang: no result after {PROGRAM_SECONDS} s")
    except Exception as e:  # anything else is a finding: show it in full
        raise AssertionError(f"unexpected {type(e).__module__}.{type(e).__name__}: {e}") from e


def _tol(dtype):
    return 2e-4 if np.dtype(dtype) == np.float32 else 1e-9


# How strictly results are compared, set per program by check_program.  Different
# association orders (NumPy's pairwise sum, a batched reduction, a log-depth scan) round
# differently: errors scale with the largest intermediate value, and with finite
# intermediates beyond 1e30 one order may overflow where another does not (or cancel
# 1e300 - 1e300 differently).  Such programs are compared on their finite entries only.
_COMPARE = {"strict": True, "scale": 1.0}


def assert_same(got, expected, dtype, what):
    got = np.asarray(got, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    assert got.shape == expected.shape, f"{what}: shape {got.shape}, NumPy {expected.shape}"
    if _COMPARE["strict"]:
        nan_g, nan_e = np.isnan(got), np.isnan(expected)
        assert (nan_g == nan_e).all(), f"{what}: NaN where NumPy has {expected[nan_g != nan_e]}"
        inf_e = np.isinf(expected)
        assert (got[inf_e] == expected[inf_e]).all(), f"{what}: infinities differ"
        fin = np.isfinite(expected)
        assert np.isfinite(got[fin]).all(), f"{what}: non-finite where NumPy is finite"
    else:
        fin = np.isfinite(expected) & np.isfinite(got)
    if fin.any():
        scale = max(1.0, float(np.max(np.abs(expected[fin]))), _COMPARE["scale"])
        np.testing.assert_allclose(got[fin], expected[fin], rtol=_tol(dtype),
                                   atol=_tol(dtype) * scale, err_msg=what)


def _set_comparison(program, xs):
    try:
        big = _largest_intermediate(program, xs)
    except Exception:  # noqa: BLE001 - the program raises: compare strictly what there is
        big = 0.0
    _COMPARE["strict"] = big < 1e30
    _COMPARE["scale"] = big if big < 1e30 else 1.0


def _check_written_walks(program, xs, grads):
    """A gradient function walks its first tape and writes the walk down for the next ones
    (funcgrad.interpreters.walk_programs): every call gives the walk's bits, also on other
    values (a fresh gradient function walks)."""
    f = program.function()
    n = len(xs)
    gd = fg.grad(lambda d: f(*[d[i] for i in range(n)]))
    for _ in range(3):
        got = gd(dict(enumerate(xs)))
        for i in range(n):
            assert got[i].tobytes() == np.asarray(grads[i]).tobytes(), "a written walk's bits"
    others = [x * x.dtype.type(0.75) for x in xs]
    kind, want = attempt(fg.grad(lambda d: f(*[d[i] for i in range(n)])), dict(enumerate(others)))
    got_kind, got = attempt(gd, dict(enumerate(others)))
    assert got_kind == kind, (got_kind, got, want)
    if kind == "ok":
        for i in range(n):
            assert got[i].tobytes() == want[i].tobytes(), "a written walk's bits, new values"


def check_program(program, xs):
    COUNTS["programs"] += 1
    COUNTS["invalid" if program.invalid else ("smooth" if program.smooth else "special")] += 1
    note(repr(program))
    _set_comparison(program, xs)
    ref_kind, ref = attempt(program.function(NUMPY), *xs)
    kind, out = attempt(program.function(FUNCGRAD), *xs)
    if ref_kind == "raised":
        assert kind == "raised", (f"NumPy raises {type(ref).__name__}: {ref}, funcgrad returned "
                                  f"{out!r}")
        COUNTS["raised"] += 1
    else:
        assert kind == "ok", f"NumPy computes this program, funcgrad raised {out!r}"
        assert_same(out, ref, program.dtype, "eager value")
    n = len(xs)
    argnums = tuple(range(n))
    gkind, grads = attempt(fg.grad(program.function(), argnums=argnums), *xs)
    if kind == "raised" or ref_kind == "raised":
        assert gkind == "raised", "the program raises, its gradient did not"
    elif gkind == "raised" and _singular_derivative(program, xs, grads):
        COUNTS["singular_matrix"] += 1
        return kind, out, gkind, grads
    else:
        assert gkind == "ok", f"grad raised {grads!r}"
        assert isinstance(grads, tuple) and len(grads) == n
        for gi, xi in zip(grads, xs):
            assert np.shape(gi) == xi.shape, f"gradient shape {np.shape(gi)} for {xi.shape}"
            assert np.asarray(gi).dtype == xi.dtype, f"gradient dtype {np.asarray(gi).dtype}"
        _check_plain_numpy_front(program, xs, grads)
        _check_written_walks(program, xs, grads)

    # jvp, vmap, make_graph: consistent, or a clean exception
    rng = np.random.default_rng(len(program.steps))
    vs = [rng.standard_normal(x.shape).astype(x.dtype) for x in xs]
    jkind, jout = attempt(lambda: fg.jvp(program.function(), tuple(xs), tuple(vs)))
    if kind == "ok" and gkind == "ok":
        assert jkind == "ok", f"jvp raised {jout!r}"
        assert_same(jout[0], out, program.dtype, "jvp primal")
    if not program.dynamic and kind == "ok":
        batch = [np.stack([xs[0], xs[0] * 0.5])] + xs[1:]
        vkind, vout = attempt(fg.vmap(program.function(), in_axes=(0,) + (None,) * (n - 1)),
                              *batch)
        loop = [attempt(program.function(), b, *xs[1:]) for b in batch[0]]
        if all(k == "ok" for k, _ in loop):
            assert vkind == "ok", f"vmap raised {vout!r}"
            assert_same(vout, np.stack([v for _, v in loop]), program.dtype, "vmap")
        gkind2, gout = attempt(lambda: fg.make_graph(program.function())(*xs)(*xs))
        assert gkind2 == "ok", f"make_graph raised {gout!r}"
        assert_same(gout, out, program.dtype, "make_graph replay")
    elif program.dynamic:
        # value-dependent shapes: abstract tracing must refuse clearly
        gkind2, gout = attempt(lambda: fg.make_graph(program.function())(*xs))
        if gkind2 == "raised":
            assert isinstance(gout, (fg.ConcretizationError, TypeError)), repr(gout)

    if kind == "ok" and gkind == "ok":
        if not program.dynamic:
            _check_vmap_grad(program, xs)
        if HAS_TENSOR:
            _check_tensor(program, xs, out, grads)
    if program.smooth and program.dtype == np.float64 and kind == "ok" and gkind == "ok" \
            and np.isfinite(out) and all(np.isfinite(g).all() for g in grads):
        _check_fd(program, xs, vs, grads, jout if jkind == "ok" else None)
        _check_second_order(program, xs, vs)
    return kind, out, gkind, grads


HAS_TENSOR = hasattr(fg, "Tensor")


def _check_plain_numpy_front(program, xs, grads):
    """The same program written with plain NumPy (``np.sin``, ``y[idx] = v`` into a copy,
    ``np.add.at``): its gradient is funcgrad.numpy's, or a clear exception -- never a
    different number (a derivative dropped on the way through NumPy's own machinery)."""
    pkind, pgrads = attempt(fg.grad(program.function(NUMPY), argnums=tuple(range(len(xs)))),
                            *xs)
    if pkind == "raised":
        COUNTS["plain_numpy_refused"] += 1
        return
    COUNTS["plain_numpy_same"] += 1
    for i, (p, g) in enumerate(zip(pgrads, grads)):
        assert_same(p, g, program.dtype, f"gradient {i} of the plain-NumPy program")


def _check_vmap_grad(program, xs):
    """vmap(grad(f)) over the first input equals grad(f) per example."""
    n = len(xs)
    gf = fg.grad(program.function(), argnums=tuple(range(n)))
    batch = np.stack([xs[0], xs[0] * 0.75])
    loop = [attempt(gf, b, *xs[1:]) for b in batch]
    if any(k != "ok" for k, _ in loop):
        return
    vkind, vout = attempt(fg.vmap(gf, in_axes=(0,) + (None,) * (n - 1)), batch, *xs[1:])
    if vkind == "raised" and _singular_derivative(program, xs, vout):
        COUNTS["singular_matrix"] += 1
        return
    assert vkind == "ok", f"vmap(grad) raised {vout!r}"
    assert_same(vout[0], np.stack([g[0] for _, g in loop]), program.dtype, "vmap(grad)")


def _check_tensor(program, xs, out, grads):
    """The eager Tensor tape: same value, same gradients (None: an input it never used)."""
    ts = [fg.Tensor(x, requires_grad=True) for x in xs]
    tkind, tout = attempt(lambda: program.run(FUNCGRAD, *ts))
    assert tkind == "ok", f"the program on Tensors raised {tout!r}"
    assert_same(np.asarray(tout.detach().numpy() if isinstance(tout, fg.Tensor) else tout),
                out, program.dtype, "Tensor value")
    if not isinstance(tout, fg.Tensor) or not tout.requires_grad:
        return  # the output does not depend on the inputs
    bkind, err = attempt(tout.backward)
    assert bkind == "ok", f"Tensor.backward raised {err!r}"
    for t, g in zip(ts, grads):
        tg = np.zeros_like(g) if t.grad is None else t.grad.numpy()
        assert np.asarray(tg).dtype == np.asarray(g).dtype, "Tensor.grad dtype"
        assert_same(tg, g, program.dtype, "Tensor.grad")


def _largest_intermediate(program, xs):
    """The largest finite magnitude among the program's values (NumPy reference)."""
    values = []
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            program.run(NUMPY, *xs, values=values)
        except Exception:  # noqa: BLE001 - an invalid last step: the values before it count
            pass
    finite = [np.abs(np.asarray(v, np.float64)) for v in values if np.size(v)]
    finite = [float(np.max(a[np.isfinite(a)])) for a in finite if np.isfinite(a).any()]
    return max(finite + [0.0])


def _check_second_order(program, xs, vs):
    """Hessian-vector products two ways: forward-over-reverse == reverse-over-reverse.

    Only where every intermediate value stays below 1e6: reverse mode sums a value's
    cotangent contributions in tape order, and with huge intermediates that sum cancels
    catastrophically where forward mode's does not (``logaddexp(exp(a), 0.5)`` at a = 40:
    1 + 2.4e17 - 2.4e17 = 0, so rev-over-rev gives 0 and fwd-over-rev 2.4e17) -- floating
    point, not a wrong rule."""
    if _largest_intermediate(program, xs) > 1e6:
        return
    n = len(xs)
    argnums = tuple(range(n))
    gf = fg.grad(program.function(), argnums=argnums)
    k1, fwd = attempt(lambda: fg.jvp(gf, tuple(xs), tuple(vs))[1])
    k2, rev = attempt(fg.grad(lambda *ys: sum(fnp.sum(g * v) for g, v in zip(gf(*ys), vs)),
                              argnums=argnums), *xs)
    assert k1 == "ok" and k2 == "ok", f"second order raised: {fwd!r} / {rev!r}"
    for a, b in zip(fwd, rev):
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        if np.isfinite(a).all() and np.isfinite(b).all():
            scale = 1.0 + float(np.max(np.abs(b), initial=0.0))
            np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-7 * scale,
                                       err_msg="fwd-over-rev != rev-over-rev")


def _singular_derivative(program, xs, error):
    """The derivative needs the inverse of an exactly singular matrix (det = 0, log|det|
    = -inf) and said so with a LinAlgError: the one clean refusal allowed where the value
    exists.  (First-order grad and jvp of det on plain arrays use the cofactors instead;
    vmap, jit and higher orders go through inv.)"""
    if not isinstance(error, np.linalg.LinAlgError) or "singular" not in str(error).lower():
        return False
    values = []
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        program.run(NUMPY, *xs, values=values)
    n = len(xs)
    return any((s.params.get("kind") == "det" and np.any(np.asarray(values[n + k]) == 0))
               or (s.params.get("kind") == "slogdet"
                   and np.any(np.isneginf(np.asarray(values[n + k]))))
               for k, s in enumerate(program.steps))


def _std_at_zero(program, xs):
    values = []
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        program.run(NUMPY, *xs, values=values)
    n = len(xs)
    return any(s.params.get("kind") == "std" and np.any(np.asarray(values[n + k]) == 0)
               for k, s in enumerate(program.steps))


def _check_fd(program, xs, vs, grads, jvp_out):
    f = program.function(NUMPY)  # finite differences on the NumPy reference
    gv = sum(float(np.sum(np.asarray(g, np.float64) * v)) for g, v in zip(grads, vs))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        f0 = float(f(*xs))

        def fd(h):
            plus = f(*[x + h * v for x, v in zip(xs, vs)])
            minus = f(*[x - h * v for x, v in zip(xs, vs)])
            return (float(plus) - float(minus)) / (2 * h)
        h1, h2 = 1e-4, 2.5e-5
        d1, d2 = fd(h1), fd(h2)
    if not (np.isfinite(d1) and np.isfinite(d2)):
        COUNTS["fd_skipped_nonsmooth"] += 1
        return
    # rounding error of a central difference at step h2, and the two estimates' agreement:
    # for a smooth function d1 - d2 = O(h^2) ~ 1e-8; far more means a kink or jump nearby
    noise = 16 * np.finfo(np.float64).eps * (1 + abs(f0)) / h2
    if abs(d1 - d2) > 1e-5 * (1 + abs(d2)) + noise:
        COUNTS["fd_skipped_nonsmooth"] += 1
        return
    COUNTS["fd_checked"] += 1
    richardson = (16 * d2 - d1) / 15  # cancels the O(h^2) error term
    # (|d1 - d2| also bounds the rounding noise of an ill-conditioned step, which the
    # estimate above does not see; a wrong rule is off by far more)
    assert abs(gv - richardson) <= 1e-7 * (1 + abs(gv)) + noise + abs(d1 - d2), (
        f"<grad, v> = {gv!r}, central differences give {d2!r} (h={h2}) and {d1!r} (h={h1}), "
        f"extrapolated {richardson!r}")
    # (with an empty input, norm and sqrt(sum(empty)) sit at their singular point 0, and
    # so does std where the values are all equal: the jvp is NaN there by design, as in
    # JAX (0 / 0 in sqrt's rule), while reverse mode can mask the NaN (a where upstream)
    # and the function can be constant along v)
    if jvp_out is not None and all(x.size for x in xs) and not _std_at_zero(program, xs):
        assert abs(float(jvp_out[1]) - gv) <= 1e-8 * (1 + abs(gv)), (
            f"jvp {float(jvp_out[1])!r} != <grad, v> {gv!r}")


# --- the properties ------------------------------------------------------------------------------

@_settings(ci=300, long=20_000)
@given(data=st.data())
def test_fuzz_smooth_programs(data):
    program = data.draw(programs(mode="smooth"), label="program")
    xs = data.draw(inputs_for(program), label="inputs")
    check_program(program, xs)


@_settings(ci=200, long=20_000)
@given(data=st.data())
def test_fuzz_special_values(data):
    program = data.draw(programs(mode="special"), label="program")
    xs = data.draw(inputs_for(program), label="inputs")
    check_program(program, xs)


@_settings(ci=30, long=3_000)
@given(data=st.data())
def test_fuzz_empty_and_scalar_shapes(data):
    """Shapes made of 0- and 1-length axes only."""
    program = data.draw(programs(max_dim=1), label="program")
    xs = data.draw(inputs_for(program), label="inputs")
    check_program(program, xs)


@_settings(ci=20, long=2_000)
@given(data=st.data())
def test_fuzz_kernel_sized_arrays(data):
    """Arrays of >= 4,096 elements, so the Numba kernels (not only NumPy) run."""
    program = data.draw(programs(mode="smooth", max_steps=5, allow_invalid=False,
                                 families=["unary", "domain_unary", "binary", "domain_binary"]),
                        label="program")
    xs = data.draw(inputs_for(program), label="inputs")
    # elementwise steps only: a new leading axis of 4,096 keeps every step valid (inputs
    # first brought to one rank, so that the new axes line up instead of broadcasting
    # against each other)
    rank = max(x.ndim for x in xs)
    xs = [np.resize(x, (4096,) + (1,) * (rank - x.ndim) + x.shape) for x in xs]
    program.input_shapes = [x.shape for x in xs]
    check_program(program, xs)


if HAS_JIT:
    @_settings(ci=12, long=1_000)
    @given(data=st.data())
    def test_fuzz_jit_equals_eager(data):
        """``jit(f)`` and ``jit(grad(f))`` equal the eager results (each program compiles,
        so the CI run is short)."""
        program = data.draw(programs(mode="smooth", max_steps=6), label="program")
        xs = data.draw(inputs_for(program), label="inputs")
        kind, out, gkind, grads = check_program(program, xs)
        COUNTS["jit"] += 1
        jkind, jout = attempt(fg.jit(program.function()), *xs)
        if kind == "ok" and not program.dynamic:
            assert jkind == "ok", f"jit raised {jout!r}"
            assert_same(jout, out, program.dtype, "jit value")
        jgkind, jgrads = attempt(fg.jit(fg.grad(program.function(),
                                                argnums=tuple(range(len(xs))))), *xs)
        if gkind == "ok" and not program.dynamic:
            assert jgkind == "ok", f"jit(grad) raised {jgrads!r}"
            for a, b in zip(jgrads, grads):
                assert_same(a, b, program.dtype, "jit(grad)")


# --- atheris: coverage-guided fuzzing of the funcgrad.numpy front (optional) ---------------------
# Runs only where atheris is installed (``pip install atheris``); in a subprocess, since
# libFuzzer owns the process.  Each input picks a funcgrad.numpy function, builds 1-3
# arguments (arrays of random shapes and dtypes holding any float, Python numbers, lists,
# None, strings) and an optional axis, and calls it eagerly, under grad or under vmap.
# An exception other than the clear ones below, a RecursionError or a signal is a finding.

try:
    import atheris  # noqa: F401
    HAS_ATHERIS = True
except ImportError:
    HAS_ATHERIS = False

# (MemoryError: an array too large to allocate, e.g. arange(0, 1e308, 1e291), as NumPy)
_FRONT_OK = (TypeError, ValueError, IndexError, ArithmeticError, NotImplementedError,
             RuntimeError, MemoryError)


def _front_functions():
    import inspect
    names = [n for n in sorted(fnp.__all__) if callable(getattr(fnp, n))
             and not inspect.isclass(getattr(fnp, n))]
    return [(n, getattr(fnp, n)) for n in names] + [
        (f"linalg.{n}", getattr(fnp.linalg, n)) for n in fnp.linalg.__all__]


def _atheris_value(fdp):
    kind = fdp.ConsumeIntInRange(0, 9)
    if kind <= 4:
        ndim = fdp.ConsumeIntInRange(0, 3)
        shape = tuple(fdp.ConsumeIntInRange(0, 4) for _ in range(ndim))
        size = int(np.prod(shape))
        dtype = [np.float64, np.float32, np.int64, np.bool_, np.float64][kind]
        values = [fdp.ConsumeFloat() for _ in range(size)]
        with np.errstate(all="ignore"):
            return np.asarray(values, np.float64).astype(dtype).reshape(shape)
    if kind == 5:
        return fdp.ConsumeFloat()
    if kind == 6:
        return fdp.ConsumeIntInRange(-6, 6)
    if kind == 7:
        return [fdp.ConsumeFloat() for _ in range(fdp.ConsumeIntInRange(0, 4))]
    if kind == 8:
        return None
    return fdp.ConsumeBool()


def _atheris_one_input(data):
    fdp = atheris.FuzzedDataProvider(data)
    functions = _front_functions()
    name, fn = functions[fdp.ConsumeIntInRange(0, len(functions) - 1)]
    args = [_atheris_value(fdp) for _ in range(fdp.ConsumeIntInRange(1, 3))]
    kwargs = {"axis": fdp.ConsumeIntInRange(-3, 3)} if fdp.ConsumeBool() else {}
    mode = fdp.ConsumeIntInRange(0, 2)
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if mode == 0:
                fn(*args, **kwargs)
            elif mode == 1:
                fg.grad(lambda v: fnp.sum(fn(v, *args[1:], **kwargs)))(args[0])
            else:
                fg.vmap(lambda v: fn(v, *args[1:], **kwargs))(args[0])
    except RecursionError as e:
        raise AssertionError(f"{_describe(name, mode, args, kwargs)}: RecursionError") from e
    except _FRONT_OK as e:
        if not str(e).strip():
            raise AssertionError(f"{_describe(name, mode, args, kwargs)}: "
                                 f"{type(e).__name__} without a message") from e
    except Exception as e:
        raise AssertionError(f"{_describe(name, mode, args, kwargs)}: "
                             f"{type(e).__name__}: {e}") from e


def _describe(name, mode, args, kwargs):
    show = [f"array(shape={a.shape}, dtype={a.dtype})" if isinstance(a, np.ndarray) else repr(a)
            for a in args]
    how = ["", "under grad: ", "under vmap: "][mode]
    return f"{how}fnp.{name}({', '.join(show)}{', ' if kwargs else ''}" \
           f"{', '.join(f'{k}={v}' for k, v in kwargs.items())})"


def _atheris_main(argv):
    atheris.Setup(argv, _atheris_one_input)
    atheris.Fuzz()


# The child: funcgrad imported under atheris' coverage instrumentation (only funcgrad's
# modules: instrumenting everything loaded takes a minute), then this file as __main__.
_ATHERIS_BOOTSTRAP = """
import runpy, sys, atheris
with atheris.instrument_imports(include=["funcgrad"]):
    import funcgrad, funcgrad.numpy
sys.argv = sys.argv[1:]
sys.path.insert(0, __import__("os").path.dirname(sys.argv[0]))  # the tests' own modules
runpy.run_path(sys.argv[0], run_name="__main__")
"""


if HAS_ATHERIS:
    def test_atheris_numpy_front(tmp_path):
        import subprocess
        import sys
        runs = ["-max_total_time=1800"] if LONG else ["-runs=3000"]
        proc = subprocess.run(
            [sys.executable, "-c", _ATHERIS_BOOTSTRAP, os.path.abspath(__file__), "--atheris",
             *runs, "-seed=1",
             f"-artifact_prefix={tmp_path}/", "-print_final_stats=1"],
            capture_output=True, text=True, timeout=3600 if LONG else 240)
        stats = [line for line in proc.stderr.splitlines() if line.startswith("stat::")]
        executed = [line.split(":")[-1].strip() for line in stats if "number_of_executed_units"
                    in line]
        if executed:
            COUNTS["atheris_inputs"] = int(executed[0])
        assert proc.returncode == 0, f"atheris found a failure:\n{proc.stderr[-4000:]}"


if __name__ == "__main__" and len(os.sys.argv) > 1 and os.sys.argv[1] == "--atheris":
    _atheris_main([os.sys.argv[0]] + os.sys.argv[2:])

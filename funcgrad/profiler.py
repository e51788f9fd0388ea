"""Where does the time go?  A profiler for primitives and backward rules (``fg.profiler``).

:class:`profile` records every primitive executed and every backward (VJP)
rule run on this thread while it is active: name, calls, self and total
time, and on request input shapes, bytes of the results, and the user's
source line.  ``prof.key_averages().table()`` prints a table like PyTorch's,
and ``prof.export_chrome_trace(path)`` writes a trace for Perfetto
(https://ui.perfetto.dev) or ``chrome://tracing``, with arrows from each
forward operation to its backward rule.  :func:`emit_nvtx` marks the same
ranges for NVIDIA Nsight Systems.

How it works: while profiling, the thread's evaluation interpreter (the root
of every transform started inside the block) is replaced by a timing one, and
an instrument marks each operation reverse mode records, so that its backward
rule is timed too.  When no profiler is active nothing is replaced: the cost
is zero.  Consequences: primitives are seen when computed by a transform
*started inside* the block (``with profile(): grad(f)(x)``), not by one
started outside it; a backward rule is timed when its operation was recorded
inside the block and the backward pass also runs inside it.  Times are
wall-clock (``time.perf_counter_ns``); ``self`` time excludes the primitives a
backward rule calls, which appear as their own rows.

Loading or compiling a CPU kernel (the first use of one in a process, :mod:`funcgrad.kernels.cpu._lazy`)
is a row of its own, ``[kernel load/compile]``, and is taken out of the self *and* total
times of the operations that waited for it; ``[kernel load/compile] (background)`` is
the loader thread's work, which no operation waited for.
"""
import os
import threading
import time
import traceback
import warnings
from typing import Any, Literal

import numpy as np

from .core import ROOT, EvalInterpreter, _state
from .instruments import Instrument, install, op_name, uninstall
from .kernels.cpu import _lazy as _kernel_loading
from .profiler_events import EventList, FunctionEvent, FunctionEventAvg

__all__ = ["profile", "record_function", "emit_nvtx", "EventList", "FunctionEvent",
           "FunctionEventAvg"]


# --- plumbing: a timing root interpreter and the active sinks --------------------------------

class _Sinks(threading.local):
    def __init__(self):
        self.active = ()  # the profilers / NVTX emitters recording on this thread
        self.seq = 0      # sequence number of the next recorded node (ties backward to forward)


_sinks = _Sinks()


class ProfilingRoot(EvalInterpreter):
    """The evaluation interpreter, reporting each primitive to the active sinks."""

    __slots__ = ()
    transform = "evaluation (profiled)"

    def process(self, prim, args, params):
        sinks = _sinks.active  # read per call: a transform that outlives the block stops reporting
        if not sinks:
            return EvalInterpreter.process(self, prim, args, params)
        seq = _sinks.seq
        return _in_ranges(sinks, prim.name, "forward", args, seq,
                          lambda: EvalInterpreter.process(self, prim, args, params))


class _BackwardTimer(Instrument):
    """Numbers each node recorded while profiling (PyTorch's ``seq``) and times its
    backward rule when the backward pass runs while profiling too."""

    priority = 10

    def on_record(self, node):
        if not _sinks.active:
            return None
        seq = _sinks.seq
        _sinks.seq = seq + 1
        return seq

    def backward(self, node, data, g, args, proceed):
        sinks = _sinks.active
        if not sinks:
            return proceed(args)
        return _in_ranges(sinks, op_name(node) + "_backward", "backward", (g,), data,
                          lambda: proceed(args))


_TIMER = _BackwardTimer()


def _in_ranges(sinks, name, kind, args, seq, call):
    """``call()`` inside a range of every sink."""
    tokens = [s.begin(name, kind, args, seq) for s in sinks]
    try:
        out = call()
    except BaseException:
        for s, t in zip(reversed(sinks), reversed(tokens)):
            s.end(t, None)
        raise
    for s, t in zip(reversed(sinks), reversed(tokens)):
        s.end(t, out)
    return out


def _activate(sink):
    """Add ``sink`` to this thread's sinks; returns what :func:`_deactivate` restores."""
    saved = (_sinks.active, _state.interpreter)
    _sinks.active = _sinks.active + (sink,)
    current = _state.interpreter
    if current is ROOT or isinstance(current, ProfilingRoot):
        _state.interpreter = ProfilingRoot()
    else:
        warnings.warn(
            f"{type(sink).__name__} was started inside a transform ({current!r}): the "
            f"primitives it computes are not recorded, only those of transforms started "
            f"inside the profiling block. Start profiling outside the transformed function.",
            RuntimeWarning, stacklevel=3)
    install(_TIMER)
    return saved


def _deactivate(saved):
    _sinks.active, interpreter = saved
    if isinstance(_state.interpreter, ProfilingRoot):
        _state.interpreter = interpreter
    if not _sinks.active:
        uninstall(_TIMER)


def _shape(a):
    shape = getattr(a, "shape", None)
    return [] if shape is None else [int(d) for d in shape]


def _nbytes(out):
    if out is None:
        return 0
    if isinstance(out, (list, tuple)):
        return sum(_nbytes(o) for o in out)
    n = getattr(out, "nbytes", None)
    if n is not None:
        return int(n)
    dtype, shape = getattr(out, "dtype", None), getattr(out, "shape", None)
    if dtype is not None and shape is not None:
        return int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    return 0


_FUNCGRAD_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_NUMPY_DIR = os.path.dirname(os.path.abspath(np.__file__)) + os.sep


def _user_stack(limit=5):
    """Up to ``limit`` innermost frames outside funcgrad and NumPy, innermost first."""
    out = []
    for frame, lineno in traceback.walk_stack(None):
        filename = frame.f_code.co_filename
        path = os.path.abspath(filename)
        if path.startswith(_FUNCGRAD_DIR) or path.startswith(_NUMPY_DIR):
            continue
        out.append(f"{filename}({lineno}): {frame.f_code.co_name}")
        if len(out) == limit:
            break
    return out


# --- the profiler ---------------------------------------------------------------------------

class profile:
    """Context manager recording the primitives and backward rules run on this thread.

    ``record_shapes``: keep each operation's input shapes (and allow
    ``key_averages(group_by_input_shape=True)``); ``profile_memory``: the bytes of
    the arrays each operation returns (``CPU Mem``; ``Self CPU Mem`` excludes what
    the primitives it called returned); ``with_stack``: the user's source lines
    (``key_averages(group_by_stack_n=N)``).  ``enabled=False`` records nothing.
    Start it outside the transformed function (see the module docstring).

    >>> import numpy as np, funcgrad as fg
    >>> with fg.profiler.profile() as prof:
    ...     for _ in range(3):
    ...         g = fg.grad(lambda x: np.sum(np.sin(x) * x))(np.ones(4))
    >>> print(prof.key_averages().table(sort_by="self_cpu_time_total"))
    ---...
    Name     Self CPU %      Self CPU ... # of Calls
    ---...
    >>> [e.count for e in prof.key_averages() if e.key == "sin"]
    [3]
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "trace.json")
    >>> prof.export_chrome_trace(path)             # open in chrome://tracing or Perfetto
    >>> os.path.getsize(path) > 0
    True
    """

    def __init__(self, enabled: bool = True, record_shapes: bool = False,
                 profile_memory: bool = False, with_stack: bool = False) -> None:
        self.enabled = bool(enabled)
        self.record_shapes = bool(record_shapes)
        self.profile_memory = bool(profile_memory)
        self.with_stack = bool(with_stack)
        self._events: list[FunctionEvent] = []
        self._open: list[Any] = []
        self._saved: Any = None
        self._t0: int | None = None
        self._tid: int | None = None
        self._unlisten: Any = None

    # sink protocol
    def begin(self, name, kind, args, seq):
        event = FunctionEvent(name, kind, seq)
        if self.record_shapes:
            event.input_shapes = [_shape(a) for a in args]
        if self.with_stack:
            event.stack = _user_stack()
        self._open.append(event)
        event.start_ns = time.perf_counter_ns()
        return event

    def end(self, event, out):
        event.end_ns = now = time.perf_counter_ns()
        open_ = self._open
        while open_ and open_.pop() is not event:
            pass  # an inner range left by an exception: dropped
        if self.profile_memory:
            event.nbytes = _nbytes(out)
        if open_:
            parent = open_[-1]
            parent.child_ns += now - event.start_ns - event.load_ns
            parent.child_bytes += event.nbytes
        self._events.append(event)

    # control
    def start(self) -> None:
        """Start recording (what ``with`` does on entry)."""
        if not self.enabled or self._saved is not None:
            return
        self._t0 = time.perf_counter_ns()
        self._tid = threading.get_ident()
        self._unlisten = _kernel_loading.on_load(self._kernel_loaded)
        self._saved = _activate(self)

    def stop(self) -> None:
        """Stop recording (what ``with`` does on exit)."""
        if self._saved is None:
            return
        _deactivate(self._saved)
        self._saved = None
        self._unlisten()

    def _kernel_loaded(self, what, start_ns, end_ns, background):
        """A kernel load (:func:`funcgrad.kernels.cpu.on_load`): its own row; the open
        ranges of this thread waited for it, so it leaves their times."""
        if background:
            name = "[kernel load/compile] (background)"
        elif threading.get_ident() == self._tid:
            name = "[kernel load/compile]"
            for event in self._open:
                event.load_ns += end_ns - start_ns
        else:
            return  # another thread of the user's, not profiled
        event = FunctionEvent(name, "kernel_load", None)
        event.start_ns, event.end_ns = start_ns, end_ns
        self._events.append(event)

    def __enter__(self) -> "profile":
        self.start()
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.stop()
        return False

    # results
    def events(self) -> "EventList":
        """Every recorded range, in the order the ranges ended."""
        return EventList(self._events, self.profile_memory, self.record_shapes,
                         self.with_stack)

    def key_averages(self, group_by_input_shape: bool = False,
                     group_by_stack_n: int = 0) -> "EventList":
        """The events summed per name (and per input shapes, and per the
        ``group_by_stack_n`` innermost user frames, when asked), in order of first end.

        >>> import numpy as np, funcgrad as fg
        >>> with fg.profiler.profile(record_shapes=True) as prof:
        ...     _ = fg.grad(lambda x: np.sum(x * x))(np.ones(2))
        >>> [(e.key, e.input_shapes) for e in prof.key_averages(group_by_input_shape=True)
        ...  if e.key == "multiply"]
        [('multiply', [[2], [2]])]
        """
        if group_by_input_shape and not self.record_shapes:
            raise ValueError("key_averages(group_by_input_shape=True) needs the shapes: "
                             "profile with fg.profiler.profile(record_shapes=True)")
        if group_by_stack_n and not self.with_stack:
            raise ValueError("key_averages(group_by_stack_n=...) needs the source lines: "
                             "profile with fg.profiler.profile(with_stack=True)")
        groups: dict[tuple[Any, ...], FunctionEventAvg] = {}
        for e in self._events:
            key: tuple[Any, ...] = (e.name, e.kind)
            shapes = stack = None
            if group_by_input_shape:
                shapes = e.input_shapes
                key += (str(shapes),)
            if group_by_stack_n:
                stack = (e.stack or [])[:group_by_stack_n]
                key += tuple(stack)
            avg = groups.get(key)
            if avg is None:
                avg = groups[key] = FunctionEventAvg(e.name, e.kind, shapes, stack)
            avg.add(e)
        return EventList(groups.values(), self.profile_memory, self.record_shapes,
                         self.with_stack)

    def table(self, sort_by: str | None = "self_cpu_time_total", row_limit: int = 100,
              **kwargs: Any) -> str:
        """Shortcut for ``key_averages().table(...)``."""
        return self.key_averages().table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    @property
    def self_cpu_time_total(self) -> float:
        """Sum of the self times of all events, in microseconds."""
        return sum(e.self_cpu_time_total for e in self._events)

    def export_chrome_trace(self, path: str | os.PathLike[str]) -> None:
        """Write the events as Chrome trace JSON (open in https://ui.perfetto.dev or
        chrome://tracing).  Each backward rule has an arrow ("fwdbwd" flow) from the
        forward operation that recorded it (same sequence number)."""
        if self._t0 is None:
            raise RuntimeError("export_chrome_trace: this profile recorded nothing; use it "
                               "as `with fg.profiler.profile() as prof:` around your code "
                               "first (and enabled=True)")
        pid, tid, t0 = os.getpid(), self._tid, self._t0
        cats = {"forward": "cpu_op", "backward": "backward", "user_annotation":
                "user_annotation", "kernel_load": "kernel_load"}
        trace = []
        forward_of_seq = {}
        for e in sorted(self._events, key=lambda e: e.start_ns):
            ts = (e.start_ns - t0) / 1e3
            args = {}
            if e.seq is not None and e.kind != "user_annotation":
                args["Sequence number"] = e.seq
            if e.input_shapes is not None:
                args["Input Dims"] = e.input_shapes
            if self.profile_memory:
                args["Bytes"] = e.nbytes
            if e.stack:
                args["Call stack"] = ";".join(e.stack)
            trace.append({"ph": "X", "cat": cats[e.kind], "name": e.name, "pid": pid,
                          "tid": tid, "ts": ts, "dur": (e.end_ns - e.start_ns) / 1e3,
                          "args": args})
            if e.kind == "forward":
                forward_of_seq[e.seq] = ts  # the last forward op with this seq recorded it
            elif e.kind == "backward" and e.seq in forward_of_seq:
                flow = {"id": e.seq, "pid": pid, "tid": tid, "cat": "fwdbwd",
                        "name": "fwdbwd"}
                trace.append(dict(flow, ph="s", ts=forward_of_seq[e.seq]))
                trace.append(dict(flow, ph="f", bp="e", ts=ts))
        import json
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"traceEvents": trace, "displayTimeUnit": "ms",
                       "otherData": {"producer": "funcgrad.profiler"}}, f)

    def __str__(self):
        return self.table()


class record_function:
    """Context manager labelling a block of your code in the profile (and NVTX ranges).

    >>> import numpy as np, funcgrad as fg
    >>> with fg.profiler.profile() as prof:
    ...     with fg.profiler.record_function("my_block"):
    ...         _ = fg.grad(lambda x: np.sum(x * x))(np.ones(2))
    >>> "my_block" in [e.key for e in prof.key_averages()]
    True
    """

    def __init__(self, name: str) -> None:
        self.name = str(name)
        self._tokens: Any = None

    def __enter__(self) -> "record_function":
        sinks = _sinks.active
        self._sinks = sinks
        self._tokens = [s.begin(self.name, "user_annotation", (), None) for s in sinks]
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        for s, t in zip(reversed(self._sinks), reversed(self._tokens)):
            s.end(t, None)
        return False


class emit_nvtx:
    """Context manager marking every primitive and backward rule as an NVTX range, for
    NVIDIA Nsight Systems (``nsys profile -t cuda,nvtx python script.py``).

    Forward ranges read ``"multiply, seq = 12"``: the sequence number the operation's
    backward will carry if reverse mode records it; backward ranges read
    ``"multiply_backward, stashed seq = 12"``, tying each backward rule to the forward
    operation that created it (as in PyTorch).  ``record_shapes=True`` appends the
    input shapes.  Needs the optional ``nvtx`` package (``pip install nvtx``).

    >>> import numpy as np, funcgrad as fg
    >>> with fg.profiler.emit_nvtx():                            # doctest: +SKIP
    ...     fg.grad(lambda x: np.sum(x * x))(np.ones(3))
    """

    def __init__(self, enabled=True, record_shapes=False):
        self.enabled = bool(enabled)
        self.record_shapes = bool(record_shapes)
        self._saved = None

    def __enter__(self):
        if not self.enabled:
            return self
        try:
            import nvtx
        except ImportError:
            raise ImportError(
                "fg.profiler.emit_nvtx needs the optional `nvtx` package to emit NVTX "
                "ranges: install it with `pip install nvtx` (or use "
                "fg.profiler.profile(), which needs nothing)") from None
        self._nvtx = nvtx
        self._saved = _activate(self)
        return self

    def __exit__(self, *exc):
        if self._saved is not None:
            _deactivate(self._saved)
            self._saved = None
        return False

    def begin(self, name, kind, args, seq):
        if kind == "forward":
            message = f"{name}, seq = {seq}"
        elif kind == "backward":
            message = f"{name}, stashed seq = {seq}"
        else:
            message = name
        if self.record_shapes and args:
            message += f", sizes = {[_shape(a) for a in args]}"
        self._nvtx.push_range(message)
        return None

    def end(self, token, out):
        self._nvtx.pop_range()

"""A jitted function's traced signature (``Entry``) and the background compiler.

A first call evaluates the traced graph eagerly (``Entry.meanwhile``) and queues the
graph for one daemon compiler thread; later calls use the compiled code once it is
ready.  The compiler (``.call``) is imported on that thread, never by a first call.
"""
import _thread
import collections
import os
import sys
import threading
import warnings

import numpy as np
from numpy import ndarray

from ..core import WEAK_TYPES
from ..interpreters.graph import eval_graph
from .derive import as_root


def compile_graph(graph):
    """The :class:`~funcgrad.jit.call.Executable` of ``graph`` (optimised, lowered and
    loaded; its kernels compile on their first run): :func:`funcgrad.jit.call.compile_graph`,
    whose module is imported on first use.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.jit.api import compile_graph
    >>> exe = compile_graph(fg.make_graph(lambda x: x * 2.0)(np.ones(2)))
    >>> exe(np.arange(2.0))
    [array([0., 2.])]
    """
    from .call import compile_graph as compile_now
    return compile_now(graph)


class Entry:
    """A traced signature: its closed graph, output structure and compiled code, which
    may be built on a background thread while calls evaluate the graph eagerly."""

    __slots__ = ("graph", "out_tree", "name", "_exe", "tensors", "_builder", "_lock")

    def __init__(self, graph, out_tree, name, tensors=()):
        self.graph = graph
        self.out_tree = out_tree
        self.name = name
        self._exe = None
        self.tensors = tuple(tensors)  # closed-over Tensors: the graph's first inputs
        self._builder = None
        self._lock = threading.Lock()

    @property
    def executable(self):
        """The compiled graph; raises the error of a compilation that failed."""
        exe = self._exe
        if exe is None:
            exe = self._exe = compile_graph(self.graph)
        elif type(exe) is _Failed:
            raise exe.error
        return exe

    def compile(self, leaves, copy=True):
        """Build the executable and compile its kernels, by running them once on (copies
        of) ``leaves``: Numba types the kernels from their arguments."""
        exe = self.executable
        if not exe._compiled:
            exe.compile_on(_copies(leaves) if copy else leaves)
        return exe

    def ready(self):
        """Is the compiled code built (and its kernels compiled)?"""
        exe = self._exe
        return exe is not None and exe._compiled

    def meanwhile(self, leaves):
        """The outputs of the graph evaluated eagerly, the primitives one by one as
        eager code runs them, while the background compiler builds it (queued by the
        first such call that returns)."""
        queue_compile = None
        with self._lock:
            if self._builder is None:
                self._builder = threading.Event()
                # copies: the caller may change its arrays before the compiler runs
                queue_compile = _copies(leaves)
        try:
            outs = as_root(eval_graph, self.graph, *leaves)
        except BaseException:
            if queue_compile is not None:
                # Arguments the function refuses (NumPy's OverflowError for a Python int
                # beyond an array's dtype) would make compiling fail, and the failure
                # stick: the next call queues it instead.
                with self._lock:
                    builder, self._builder = self._builder, None
                builder.set()
            raise
        # Queued once this first call is done: compiling holds the GIL for long
        # stretches, and started at once it made this call (W3's value_and_grad)
        # about twice as slow.
        if queue_compile is not None:
            _compile_in_background(self, queue_compile)
        # a Python number (a weak argument, or arithmetic on them) as the compiled code
        # returns it: a NumPy scalar
        return [np.asarray(o)[()] if type(o) in WEAK_TYPES else o for o in outs]

    def build(self, leaves):
        """Compile (on the background compiler's thread); a failure is said, not raised:
        the eager evaluation stays right, only slow."""
        try:
            self.compile(leaves, copy=False)
        except Exception as e:
            self._exe = _Failed(e)
            warnings.warn(f"jit({self.name}): compiling failed ({type(e).__name__}: {e}); "
                          f"calls keep evaluating it eagerly (correct, not compiled). "
                          f"Please report this; fg.jit(f, wait=True) raises the error.",
                          RuntimeWarning, stacklevel=1)
        finally:
            self._builder.set()

    def wait(self, timeout=None):
        """Block until a background compilation queued by :meth:`meanwhile` ends."""
        builder = self._builder
        return True if builder is None else builder.wait(timeout)


def _copies(leaves):
    return [x.copy() if type(x) is ndarray else x for x in leaves]


# The compiler's jobs (a deque of (entry, leaves)) and a semaphore counting them, made
# with its thread: `import queue` was 0.7-1 ms of a first call.
_jobs = None
_jobs_lock = threading.Lock()


def _compile_in_background(entry, leaves):
    """Queue ``entry`` for the background compiler: one daemon thread, compiling in the
    order of first calls (Numba compiles one function at a time anyway), which never
    keeps the interpreter from exiting."""
    global _jobs
    with _jobs_lock:
        if _jobs is None:
            _jobs = (collections.deque(), threading.Semaphore(0))
            # A bare thread (as daemon as threading's), since threading.Thread.start()
            # waits until the new thread has run: 16-24 ms of a first call on a loaded
            # machine (0.05 ms this way).
            _thread.start_new_thread(_compiler, _jobs)
        queued, count = _jobs
        queued.append((entry, leaves))
        count.release()


# The interpreter's switch interval while the compiler has work.  Its Python (tracing,
# lowering) holds the GIL; the user's thread lets the GIL go in every nogil kernel and
# every long NumPy loop of the eager calls it makes meanwhile, and at the default 5 ms
# waited that long to get it back each time: HIPS autograd's check_grads under fg.jit took
# 5-30x longer than compiling on the first call.
_SWITCH_WHILE_COMPILING = 0.0002


def _compiler(queued, count):
    while True:
        count.acquire()
        before = sys.getswitchinterval()
        sys.setswitchinterval(min(before, _SWITCH_WHILE_COMPILING))
        during = sys.getswitchinterval()  # (kept in microseconds: not the float given)
        try:
            while True:
                entry, leaves = queued.popleft()
                entry.build(leaves)
                del entry, leaves
                if not queued:
                    break
                count.acquire()  # (one count a job: the next one's)
        finally:
            if sys.getswitchinterval() == during:  # (unless the program set its own)
                sys.setswitchinterval(before)


def _forget_the_compiler():
    """A forked child has no compiler thread: the next background compile starts one."""
    global _jobs, _jobs_lock
    _jobs, _jobs_lock = None, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_the_compiler)


class _Failed:
    """Stands for an executable that could not be compiled (never ready)."""

    _compiled = False

    def __init__(self, error):
        self.error = error

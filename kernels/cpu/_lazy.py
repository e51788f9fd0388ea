"""Lazily built Numba kernels: the registry, the size thresholds and the thread setting.

Nothing here imports Numba.  A kernel is *declared* by name (``declare``) with the module
and function that hold its scalar definition; it is *built* the first time an array large
enough to need it arrives, once per dtype, and cached on disk (``cache=True``), so
``import funcgrad`` compiles nothing and a process that only ever sees small arrays never
imports Numba at all.

Two forms of every elementwise kernel:

* a NumPy ufunc (``numba.vectorize`` with one explicit signature, built per dtype): NumPy's
  own machinery does broadcasting, strides, 0-d and size-0 arrays and checks the shapes, so
  the compiled loop can only ever see valid memory.  ``DUFunc.ufunc`` is called directly:
  its per-call cost is NumPy's (~0.35 us), where the DUFunc wrapper adds ~0.6 us.  Numba
  vectorises its loop only when every operand is contiguous;
* a flat loop (``_loops.flat_map``) over C-contiguous arrays of one shape and scalars
  (Python scalars, or a value broadcast with zero strides, such as the cotangent of a
  sum), serial or ``parallel=True`` for arrays of at least ``config.parallel_min``
  elements when more than one thread is allowed.  This is the common case, and the form
  that loads fastest from the cache; the ufunc is built only when another layout comes.

The dispatch rule, in every wrapper of ``kernels/cpu``: arrays smaller than
``config.numba_min`` elements, or of a dtype other than float32/float64, take the NumPy
path (exactly the NumPy expression the kernel replaces); larger float arrays take the
ufunc or the flat loop (``run``); the largest take the parallel loop.
"""
import importlib
import os
import threading

import numpy as np

F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
_SIGNATURE_NAMES = {F32: "float32", F64: "float64"}


class Config:
    """Kernel dispatch settings (one per process; change through the functions below).

    ``numba_min``: smallest array (elements) sent to a Numba kernel rather than NumPy.
    Measured (``benchmarks/kernels.py``): a fused Numba ufunc already matches the NumPy
    expression at 100 elements, but below a few thousand elements the saving is well under
    a microsecond per call, so small programs are kept on NumPy and never wait for a
    compilation.  ``parallel_min``: smallest array given to the multithreaded loops; below
    it the thread start-up (5-50 us) costs more than it saves.  ``threads``: how many
    threads the parallel loops use (``set_num_threads``); 1 turns them off.
    """

    __slots__ = ("numba_min", "parallel_min", "threads")

    def __init__(self):
        self.numba_min = int(os.environ.get("FUNCGRAD_NUMBA_MIN", 4096))
        self.parallel_min = int(os.environ.get("FUNCGRAD_PARALLEL_MIN", 262144))
        self.threads = _default_threads()


def _default_threads():
    """All usable CPUs, except on machines with two or fewer.

    Measured on a 2-core machine: the parallel loops were at best 2x faster than the serial
    ufunc (at 1e5 to 1e6 elements, machine idle) and up to 10x slower whenever another
    process was running (a parallel loop waits for its slowest thread, and on an
    oversubscribed machine that thread is often descheduled).  So with <= 2 CPUs the
    default is 1 thread; ``set_num_threads`` or ``FUNCGRAD_NUM_THREADS`` override it.
    """
    env = os.environ.get("FUNCGRAD_NUM_THREADS") or os.environ.get("NUMBA_NUM_THREADS")
    if env:
        return max(1, int(env))
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return cpus if cpus > 2 else 1


config = Config()

# name -> (module, function, number of inputs)
_DECLARED = {}
_CHECKED = set()  # kernels run through ``run_checked`` (their warmup builds that loop)
_ufuncs = {}     # (name, dtype) -> np.ufunc
_flat = {}       # (name, parallel, checked) -> flat-array loop dispatcher (out last)
_build_lock = threading.RLock()
# Only one parallel kernel runs at a time (any other thread takes the serial ufunc
# meanwhile): Numba's workqueue threading layer must never be entered concurrently.
_parallel_lock = threading.Lock()


def declare(name, module, function=None, nin=1, checked=False):
    """Declare kernel ``name``: scalar function ``function`` of ``kernels.cpu.<module>``;
    ``checked``: it is called through ``run_checked``."""
    _DECLARED[name] = (module, function or name, nin)
    if checked:
        _CHECKED.add(name)


def declared():
    """Names of every declared elementwise kernel."""
    return sorted(_DECLARED)


def _scalar_function(name):
    module, function, nin = _DECLARED[name]
    mod = importlib.import_module(f"{__package__}.{module}")
    return getattr(mod, function), nin


def ufunc(name, dtype):
    """The NumPy ufunc of kernel ``name`` for ``dtype`` (float32/float64), built on first use."""
    try:
        return _ufuncs[name, dtype]
    except KeyError:
        pass
    with _build_lock:
        if (name, dtype) not in _ufuncs:
            from numba import vectorize
            # Contraction into FMA only: NaN, inf and signed zeros keep IEEE semantics.
            fn, nin = _scalar_function(name)
            t = _SIGNATURE_NAMES[dtype]
            sig = f"{t}({', '.join([t] * nin)})"
            _ufuncs[name, dtype] = vectorize([sig], cache=True,
                                             fastmath={"contract"})(fn).ufunc
        return _ufuncs[name, dtype]


def flat_loop(name, parallel, checked=False):
    """The flat-array loop of kernel ``name`` (``_loops.flat_map``), built on first use."""
    key = (name, parallel, checked)
    try:
        return _flat[key]
    except KeyError:
        pass
    with _build_lock:
        if key not in _flat:
            from . import _loops
            fn, nin = _scalar_function(name)
            if parallel:
                _loops.prepare_threads()
            _flat[key] = _loops.flat_map(fn, nin, parallel, checked)
        return _flat[key]


def run(name, dtype, *args):
    """Apply elementwise kernel ``name`` to ``args``: arrays of ``dtype``, or scalars.

    Callers have checked the dtypes and that the arrays are large.  Flat C-contiguous
    arrays of one shape, with scalars or broadcast scalars (a cotangent broadcast back
    from a sum) beside them, go to the flat loop, multithreaded when large; any other
    layout (transposed, strided, negative strides, true broadcasting) goes to the ufunc,
    whose NumPy iterator handles it.  Both run at the same speed on contiguous arrays,
    but Numba's ufunc loop is only vectorised when every operand is contiguous (not for
    scalar operands), and a flat loop loads from the disk cache in ~10 ms where building
    a ufunc takes ~0.2 s even from the cache (its NumPy wrapper is compiled each time).
    """
    return _run(name, dtype, args, False)


def run_checked(name, dtype, *args):
    """``run``, or None when any result is NaN (the caller then recomputes with NumPy).

    For the vectorised sin/cos kernels, which return NaN where they cannot reduce the
    argument accurately: the flat loop counts NaN results in the same pass.
    """
    return _run(name, dtype, args, True)


def _checked_result(out):
    total = np.add.reduce(out, axis=None)  # NaN anywhere makes the sum NaN (one sweep)
    return out if total == total else None


def _run(name, dtype, args, checked):
    shape = None
    flat = []
    all_arrays = True
    for a in args:
        if type(a) is np.ndarray:
            if a.flags.c_contiguous and a.size:
                if shape is None:
                    shape, n = a.shape, a.size
                elif a.shape != shape:
                    shape = None
                    break
                flat.append(a.reshape(-1))
                continue
            if a.size and not any(a.strides):  # one value broadcast (e.g. from a sum)
                flat.append(a[(0,) * a.ndim])
                all_arrays = False
                continue
            shape = None
            break
        flat.append(dtype.type(a))
        all_arrays = False
    if shape is not None and not all_arrays:
        for a in args:  # a broadcast scalar must not enlarge the result
            if type(a) is np.ndarray and a.shape != shape and (
                    a.ndim > len(shape) or np.broadcast_shapes(a.shape, shape) != shape):
                shape = None
                break
    if shape is None:
        out = ufunc(name, dtype)(*args)
        return _checked_result(out) if checked else out
    out = np.empty(shape, dtype)
    if config.threads > 1 and n >= config.parallel_min and _parallel_lock.acquire(False):
        try:
            loop = flat_loop(name, True, checked)
            from . import _loops
            _loops.set_threads(config.threads)
            bad = loop(*flat, out.reshape(-1))
        finally:
            _parallel_lock.release()
    else:
        bad = flat_loop(name, False, checked)(*flat, out.reshape(-1))
    return None if checked and bad else out


# --- public settings ---------------------------------------------------------------------

def set_num_threads(n):
    """Use at most ``n`` threads in funcgrad's CPU kernels (1: single-threaded).

    Applies to every thread of the process.  Only arrays of at least
    ``config.parallel_min`` elements (256Ki by default) are split across threads.  The
    default is the number of CPUs this process may run on (or ``FUNCGRAD_NUM_THREADS``,
    or ``NUMBA_NUM_THREADS``).  On a machine shared with other busy processes, ``1`` is
    often faster: a parallel loop waits for its slowest thread.

    >>> import funcgrad as fg
    >>> fg.set_num_threads(1)
    >>> fg.get_num_threads()
    1
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"set_num_threads expects a positive integer, got {n!r}")
    n = int(n)
    if "numba" in _loaded_modules():
        from . import _loops
        n = min(n, _loops.max_threads())
    config.threads = n


def get_num_threads():
    """The number of threads funcgrad's CPU kernels may use (see ``set_num_threads``)."""
    return config.threads


def _loaded_modules():
    import sys
    return sys.modules


def warmup(dtypes=("float64", "float32"), parallel=None, ufuncs=False):
    """Compile (or load from the disk cache) funcgrad's CPU kernels now, not on first use.

    Builds, for each of ``dtypes``: every elementwise kernel's flat loop (the form used for
    contiguous arrays and broadcast cotangents), the reduction and scatter loops; the
    parallel loops too when ``parallel`` (default: when more than one thread is allowed);
    and the ufuncs (the form used for strided layouts) when ``ufuncs``.  Returns the
    seconds it took.  See the README's "Kernels" section for the first-call costs.
    """
    import time
    start = time.perf_counter()
    if parallel is None:
        parallel = config.threads > 1
    from . import _loops
    for dt in dtypes:
        dt = np.dtype(dt)
        if dt not in _SIGNATURE_NAMES:
            raise ValueError(f"warmup: no kernels for dtype {dt}; use float32 or float64")
        one = np.ones(2, dt)
        for name in declared():
            nin = _DECLARED[name][2]
            out = np.empty(2, dt)
            for variant in ([False, True] if parallel else [False]):
                loop = flat_loop(name, variant, name in _CHECKED)
                loop(*([one] * nin), out)                        # all flat arrays
                if nin > 1:
                    loop(dt.type(1), *([one] * (nin - 1)), out)  # a broadcast cotangent
            if ufuncs:
                ufunc(name, dt)
        x = np.ones((2, 3), dt)
        _loops.logsumexp_rows(x, np.empty(2, dt))
        _loops.softmax_scale_rows(np.ones(2, dt), x, np.ones(2, dt), np.empty((2, 3), dt))
        _loops.extremum_weights_rows(np.ones(2, dt), x, np.ones(2, dt), np.empty((2, 3), dt))
        _loops.scatter_add_rows(np.zeros((2, 3), dt), np.zeros(2, np.int64), x)
    return time.perf_counter() - start

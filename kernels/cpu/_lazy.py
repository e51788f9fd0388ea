"""Lazily built Numba kernels: the registry, the size thresholds and the thread setting.

Nothing here imports Numba.  A kernel is *declared* by name (``declare``) with the module
and function that hold its scalar definition; it is *built* the first time it is called,
once per dtype, and cached on disk (``cache=True``), so ``import funcgrad`` compiles
nothing and imports no Numba; the first call that needs a kernel does (~0.3 s, plus
~1 s per kernel the first time on a machine, when the disk cache is cold).

Two forms of every elementwise kernel:

* a NumPy ufunc whose inner loop is a Numba cfunc (``_ufuncs``, one per dtype): NumPy's
  own machinery does broadcasting, strides, 0-d and size-0 arrays and checks the shapes,
  so the compiled loop can only ever see valid memory.  A call costs NumPy's dispatch
  (~0.25 us) plus the loop, vectorised when every operand is contiguous: the small-array
  and odd-layout form;
* a flat loop (``_loops.flat_map``) over C-contiguous arrays of one shape and scalars
  (Python scalars, or a value broadcast with zero strides, such as the cotangent of a
  sum), vectorised for every such mix, serial or ``parallel=True`` for arrays of at
  least ``config.parallel_min`` elements when more than one thread is allowed: the
  large-array form (``run``), from ``config.numba_min`` elements.

The dispatch rule, in every wrapper of ``kernels/cpu``: float32/float64 arrays of one
dtype take the kernel (``run``: the ufunc, or the flat loop when large); 0-d arrays,
scalars and other dtypes take the NumPy expression the kernel replaces.
"""
import os
import threading

import numpy as np

F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
_SIGNATURE_NAMES = {F32: "float32", F64: "float64"}


class Config:
    """Kernel dispatch settings (one per process; change through the functions below).

    ``ufunc_min``: smallest array (elements) given to an elementwise rule kernel rather
    than its NumPy expression.  1 by default: the kernel's ufunc (~0.25 us a call) beats
    any NumPy expression of two or more operations at every size (``benchmarks/kernels.py``);
    a larger value keeps short scripts off Numba.  ``numba_min``: smallest array given
    to a flat elementwise loop, a row loop, a reduction sweep or the scatter loop (called
    through Numba's dispatcher, ~1 us a call); smaller elementwise work goes to the ufunc.  ``parallel_min``: smallest array given to the multithreaded loops; below
    it the thread start-up (5-50 us) costs more than it saves.  ``threads``: how many
    threads the parallel loops use (``set_num_threads``); 1 turns them off.
    """

    __slots__ = ("ufunc_min", "numba_min", "parallel_min", "threads")

    def __init__(self):
        self.ufunc_min = int(os.environ.get("FUNCGRAD_UFUNC_MIN", 1))
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

# name -> (scalar function loader, number of inputs, exact twin loader or None, checked input)
_DECLARED = {}
_DISPLAY = {}  # name -> what NumPy's warnings call its ufunc ("... encountered in <display>")
_ufuncs = {}     # (name, dtype) -> np.ufunc with one inner loop; (name, None) -> forward ufunc
_flat = {}       # (name, parallel) -> flat-array loop dispatcher (out last)
_build_lock = threading.RLock()
# Only one parallel kernel runs at a time (any other thread takes the serial ufunc
# meanwhile): Numba's workqueue threading layer must never be entered concurrently.
_parallel_lock = threading.Lock()


def declare(name, load, nin=1, load_exact=None, checked_arg=0, display=None):
    """Declare kernel ``name``: ``load()`` returns its scalar function of ``nin`` inputs.

    ``load_exact``: for kernels using the vectorised sin/cos, a loader of the same
    function on the C library's leaves, which gives the result wherever input
    ``checked_arg`` is beyond the vectorised range (see ``_ufuncs.inner_loop``).
    """
    _DECLARED[name] = (load, nin, load_exact, checked_arg)
    _DISPLAY[name] = display or name


def declared():
    """Names of every declared elementwise kernel."""
    return sorted(_DECLARED)


def _inner_loop(name, dtype):
    from . import _ufuncs
    load, nin, load_exact, checked_arg = _DECLARED[name]
    exact = None if load_exact is None else load_exact()
    return _ufuncs.inner_loop(load(), nin, dtype, exact, checked_arg)


def _built(cache, key, build):
    """``cache[key]``, made by ``build()`` the first time (once, under the build lock)."""
    try:
        return cache[key]
    except KeyError:
        pass
    with _build_lock:
        if key not in cache:
            cache[key] = build()
        return cache[key]


def ufunc(name, dtype):
    """The NumPy ufunc of kernel ``name`` for ``dtype`` (float32/float64), built on first use.

    Its inner loop is a Numba cfunc (``_ufuncs``), loaded from the disk cache in a few
    milliseconds; a call costs NumPy's ufunc dispatch (~0.25 us) plus the loop, which is
    less than any NumPy expression of two or more operations, at every size.
    """
    def build():
        from ._ufuncs import make_ufunc
        return make_ufunc(_DISPLAY[name], {dtype: _inner_loop(name, dtype)},
                          _DECLARED[name][1])
    return _built(_ufuncs, (name, dtype), build)


def float_ufunc(kernels, name):
    """One ufunc ``name`` with the float32 and float64 loops of ``kernels`` ({dtype:
    kernel name}), built on first use."""
    def build():
        from ._ufuncs import make_ufunc
        loops = {dt: _inner_loop(kernel, dt) for dt, kernel in kernels.items()}
        return make_ufunc(name, loops, _DECLARED[next(iter(kernels.values()))][1])
    return _built(_ufuncs, tuple(sorted(kernels.values())), build)


def forward_ufunc(name, numpy_ufunc):
    """``numpy_ufunc`` with its float64 loop replaced by kernel ``name``'s, or None.

    Every other dtype keeps NumPy's own loop (and result dtype), so the result can stand
    in for the NumPy ufunc everywhere, with no Python wrapper around it.  None when
    NumPy's loop table cannot be read (see ``_ufuncs.make_ufunc``).
    """
    def build():
        from ._ufuncs import make_ufunc
        return make_ufunc(numpy_ufunc.__name__, {F64: _inner_loop(name, F64)},
                          _DECLARED[name][1], base=numpy_ufunc)
    return _built(_ufuncs, (name, None), build)


_fork_handled = []


def _serial_after_fork():
    """OpenMP's thread pool does not survive fork(): once parallel loops exist, a child
    process stays serial."""
    if not _fork_handled and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=lambda: setattr(config, "threads", 1))
        _fork_handled.append(True)


def flat_loop(name, parallel):
    """The flat-array loop of kernel ``name`` (``_loops.flat_map``), built on first use."""
    def build():
        from . import _loops
        load, nin, load_exact, checked_arg = _DECLARED[name]
        if parallel:
            _loops.prepare_threads()
            _serial_after_fork()
        return _loops.flat_map(load(), nin, parallel,
                               checked_arg if load_exact is not None else None)
    return _built(_flat, (name, parallel), build)


def run(name, dtype, *args):
    """Apply elementwise kernel ``name`` to ``args``: arrays of ``dtype``, or scalars.

    Callers have checked the dtypes.  Flat C-contiguous arrays of at least
    ``config.numba_min`` elements and one shape, with scalars or broadcast scalars (a
    cotangent broadcast back from a sum) beside them, go to the flat loop, which is
    vectorised for every such mix and multithreaded when large; everything else (small
    arrays, transposed, strided, negative strides, true broadcasting) goes to the ufunc,
    whose NumPy iterator handles the layout.
    """
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
    if shape is None or n < config.numba_min:
        return ufunc(name, dtype)(*args)
    checked = _DECLARED[name][2] is not None
    out = np.empty(shape, dtype)
    if config.threads > 1 and n >= config.parallel_min and _parallel_lock.acquire(False):
        try:
            loop = flat_loop(name, True)
            from . import _loops
            _loops.set_threads(config.threads)
            bad = loop(*flat, out.reshape(-1))
        finally:
            _parallel_lock.release()
    else:
        bad = flat_loop(name, False)(*flat, out.reshape(-1))
    # A checked kernel's flat loop counts the arguments beyond the vectorised range; the
    # ufunc then computes the blocks holding them with the C library.
    return ufunc(name, dtype)(*args) if checked and bad else out


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
    for callback in list(_thread_listeners):
        callback()


_thread_listeners = []


def on_thread_change(callback):
    """Call ``callback()`` whenever :func:`set_num_threads` changes the setting (kernels
    chosen by the thread setting re-choose)."""
    _thread_listeners.append(callback)


def get_num_threads():
    """The number of threads funcgrad's CPU kernels may use (see ``set_num_threads``)."""
    return config.threads


def _loaded_modules():
    import sys
    return sys.modules


def warmup(dtypes=("float64", "float32"), parallel=None):
    """Compile (or load from the disk cache) funcgrad's CPU kernels now, not on first use.

    Builds, for each of ``dtypes``: every elementwise kernel's ufunc (the form used for
    small arrays and strided layouts) and flat loop (large contiguous arrays and
    broadcast cotangents), the reduction and scatter loops; the parallel loops too when
    ``parallel`` (default: when more than one thread is allowed).  Returns the seconds it
    took.  See the README's "Kernels" section for the first-call costs.
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
            nin = _DECLARED[name][1]
            out = np.empty(2, dt)
            for variant in ([False, True] if parallel else [False]):
                loop = flat_loop(name, variant)
                loop(*([one] * nin), out)                        # all flat arrays
                if nin > 1:
                    loop(dt.type(1), *([one] * (nin - 1)), out)  # a broadcast cotangent
            ufunc(name, dt)
        x = np.ones((2, 3), dt)
        _loops.logsumexp_rows(x, np.empty(2, dt))
        _loops.softmax_scale_rows(np.ones(2, dt), x, np.empty((2, 3), dt))
        _loops.extremum_weights_rows(np.ones(2, dt), x, np.ones(2, dt), np.empty((2, 3), dt))
        _loops.scatter_add_rows(np.zeros((2, 3), dt), np.zeros(2, np.int64), x)
    return time.perf_counter() - start

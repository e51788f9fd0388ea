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

Loading (``config.loading``, ``FUNCGRAD_KERNELS``): importing Numba and loading the
kernels takes ~1-2 s in a fresh process (cold disk cache: ~1 s more per kernel), and
an interactive first call must not wait for it.  ``"background"`` (the default): the
first call that wants a kernel queues it for a daemon *loader thread* and computes
with the kernel's NumPy *twin* meanwhile (``_twins``: the same bits), or with the NumPy
function it replaces where that is bit for bit the same (row loops, scatter-add); a
kernel becomes used the moment it is ready (a dictionary entry: the flip is atomic).
Kernels with no twin (the special functions' series, the reduction sweeps) are built
in the calling thread, as are all in ``"wait"`` (the old behaviour: deterministic
kernel use, for benchmarks and the test suite).  ``"numpy"`` starts no loader: twins
wherever they exist, kernels built on demand elsewhere.  Measured: the first ``grad``
of a 16-element function, 0.6-2 s -> ~10 ms (``benchmarks/results/first_call.md``).
Every build is timed and reported to :func:`on_load` listeners (the profiler's
``[kernel load/compile]`` row).
"""
import _thread
import atexit
import os
import threading
import time
from contextlib import contextmanager

import numpy as np

from .._broadcast import broadcast_shapes
from ._config import config
from ._fpstatus import kinds, report

F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
_SIGNATURE_NAMES = {F32: "float32", F64: "float64"}

# name -> (scalar function loader, number of inputs, exact twin loader or None, checked input)
_DECLARED = {}
_SOURCES = {}  # name -> generated source (its NumPy twin is made from it)
_DISPLAY = {}  # name -> what NumPy's warnings call its ufunc ("... encountered in <display>")
_ufuncs = {}     # (name, dtype) -> np.ufunc with one inner loop; (name, None) -> forward ufunc
_flat = {}       # (name, parallel) -> flat-array loop dispatcher (out last)
_build_lock = threading.RLock()
# Only one parallel kernel runs at a time (any other thread takes the serial ufunc
# meanwhile): Numba's workqueue threading layer must never be entered concurrently.
_parallel_lock = threading.Lock()


def declare(name, load, nin=1, load_exact=None, checked_arg=0, display=None, source=None):
    """Declare kernel ``name``: ``load()`` returns its scalar function of ``nin`` inputs.

    ``load_exact``: for kernels using the vectorised sin/cos, a loader of the same
    function on the C library's leaves, which gives the result wherever input
    ``checked_arg`` is beyond the vectorised range (see ``_ufuncs.inner_loop``).
    ``source``: the generated module defining ``kernel``, from which its NumPy twin is
    made (``_twins``), if it has one.
    """
    _DECLARED[name] = (load, nin, load_exact, checked_arg)
    _DISPLAY[name] = display or name
    if source is not None:
        _SOURCES[name] = source


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
            with loading(key[0]):
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
    loop = _flat.get((name, parallel))  # (built: without making build's closure each call)
    if loop is not None:
        return loop

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
    vectorised for every such mix and multithreaded when large (single-threaded arrays
    without a scalar go to the ufunc, as fast there); everything else (small arrays,
    transposed, strided, negative strides, true broadcasting) goes to the ufunc, whose
    NumPy iterator handles the layout.  The floating-point errors of a flat loop are
    reported as NumPy reports the ufunc's (:mod:`._fpstatus`).
    """
    if (name, dtype) not in _flat_ready and _mode() != "wait" and \
            ("flat", name, dtype) not in _failed:
        # the flat loop is loading: the ufunc if ready (the same bits), else the twin
        _request(("flat", name, dtype))
        return call(name, dtype, *args)
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
                    a.ndim > len(shape) or broadcast_shapes(a.shape, shape) != shape):
                shape = None
                break
    if shape is None or n < config.numba_min:
        return ufunc(name, dtype)(*args)
    parallel = config.threads > 1 and n >= config.parallel_min
    if all_arrays and not parallel:
        # (the ufunc's loop is as fast on arrays of one shape, and NumPy reports its
        # errors; a broadcast scalar makes it go element by element, the flat loop not)
        u = ready_ufunc(name, dtype)
        if u is not None:
            return u(*args)
    checked = _DECLARED[name][2] is not None
    out = np.empty(shape, dtype)
    if parallel and _parallel_lock.acquire(False):
        try:
            loop = flat_loop(name, True)
            from . import _loops
            _loops.set_threads(config.threads)
            bad, flags = loop(*flat, out.reshape(-1))
        finally:
            _parallel_lock.release()
    else:
        bad, flags = flat_loop(name, False)(*flat, out.reshape(-1))
    # A checked kernel's flat loop counts the arguments beyond the vectorised range; the
    # ufunc then computes the blocks holding them with the C library (and reports).
    if checked and bad:
        return ufunc(name, dtype)(*args)
    if flags:  # (what NumPy would report of the ufunc's loop)
        report(kinds(flags), _DISPLAY[name])
    return out


# --- loading without waiting -------------------------------------------------------------
#
# Readiness is read without a lock: a kernel is ready once its dictionary entry exists
# (``_ufuncs``, ``_flat_ready``), and that entry is written once, whole, under the GIL.

_flat_ready = set()   # (name, dtype): flat loop built and compiled for the usual signatures
_loops_ready = set()  # "module" once _loops is imported; each row sweep compiled (both dtypes)
_twins = {}           # (name, dtype) -> NumPy twin, or None where there is none
_failed = {}          # request -> the exception the loader met (the caller then builds)
_local = threading.local()


def _mode():
    return "wait" if getattr(_local, "wait", False) else config.loading


@contextmanager
def waiting():
    """Within the block, this thread builds kernels it needs instead of using twins
    (``warmup``, and callers that time or test the kernels themselves)."""
    old = getattr(_local, "wait", False)
    _local.wait = True
    try:
        yield
    finally:
        _local.wait = old


def twin(name, dtype):
    """Kernel ``name``'s NumPy twin for ``dtype`` (``_twins.twin``), or None."""
    key = (name, dtype)
    try:
        return _twins[key]
    except KeyError:
        pass
    source = _SOURCES.get(name)
    made = None
    if source is not None:
        from ._twins import twin as make
        checked = _DECLARED[name][3] if _DECLARED[name][2] is not None else None
        made = make(source, _DECLARED[name][1], dtype, checked, _DISPLAY[name])
    _twins[key] = made
    return made


def ready_ufunc(name, dtype):
    """The ufunc of kernel ``name`` if it is built; else None when its twin may stand in
    meanwhile (then it is queued for the loader), else built now."""
    u = _ufuncs.get((name, dtype))
    if u is not None:
        return u
    if _mode() == "wait" or twin(name, dtype) is None or ("ufunc", name, dtype) in _failed:
        return ufunc(name, dtype)
    _request(("ufunc", name, dtype))
    return None


def call(name, dtype, *args):
    """Kernel ``name`` on ``args`` by its ufunc, or by its twin while the ufunc loads."""
    u = ready_ufunc(name, dtype)
    if u is not None:
        return u(*args)
    out = _twins[(name, dtype)](*args)
    # None: an argument the twin cannot compute as the kernel does (sin beyond its range)
    return ufunc(name, dtype)(*args) if out is None else out


def ready_forward_ufunc(name, numpy_ufunc):
    """``forward_ufunc(name, numpy_ufunc)`` (or ``numpy_ufunc`` where that is None) if
    built or if waiting; else queues it and gives None (:func:`forward_twin` computes)."""
    if (name, None) in _ufuncs or _mode() == "wait" or twin(name, F64) is None or \
            ("forward", name, numpy_ufunc) in _failed:
        return forward_ufunc(name, numpy_ufunc) or numpy_ufunc
    _request(("forward", name, numpy_ufunc))
    return None


def forward_twin(name, numpy_ufunc, x, *args, **params):
    """What ``forward_ufunc(name, numpy_ufunc)(x, ...)`` gives, while it loads: its twin
    where it would run the float64 loop, NumPy's own loop elsewhere."""
    if not args and not params:
        a = x if type(x) is np.ndarray else np.asarray(x)
        try:
            loop = numpy_ufunc.resolve_dtypes((a.dtype, None))
        except (TypeError, ValueError):
            loop = None
        if loop is not None and loop[0] == F64 and loop[-1] == F64:
            out = twin(name, F64)(a)
            if out is not None:
                return out if a.ndim else out[()]
            return (forward_ufunc(name, numpy_ufunc) or numpy_ufunc)(x)
    return numpy_ufunc(x, *args, **params)


# Each row sweep of ``_loops``, called once on small arrays of a dtype (which compiles it).
_SWEEP_CALLS = {
    "logsumexp_rows": lambda m, x, dt: m.logsumexp_rows(x, np.empty(2, dt)),
    "softmax_scale_rows": lambda m, x, dt: m.softmax_scale_rows(np.ones(2, dt), x,
                                                                np.empty((2, 3), dt)),
    "extremum_weights_rows": lambda m, x, dt: m.extremum_weights_rows(
        np.ones(2, dt), x, np.ones(2, dt), np.empty((2, 3), dt)),
    "scatter_add_rows": lambda m, x, dt: m.scatter_add_rows(np.zeros((2, 3), dt),
                                                            np.zeros(2, np.int64), x),
}
SWEEPS = tuple(_SWEEP_CALLS)


def _compile_sweep(module, sweep, dt):
    _SWEEP_CALLS[sweep](module, np.ones((2, 3), dt), dt)


def loops(*sweeps, wait=True):
    """The ``_loops`` module, with the row ``sweeps`` named (of :data:`SWEEPS`) compiled
    for float32 and float64; None while that loads in the background (``wait=False``: the
    caller has a NumPy path giving the same bits).  Only the sweeps a caller names are
    compiled: each is ~0.1-0.9 s on an empty disk cache, which a program that never
    reduces rows (and ``fg.jit`` compiling beside the loader) should not wait for."""
    if "module" in _loops_ready and _loops_ready.issuperset(sweeps):
        from . import _loops as module
        return module
    item = ("loops",) + sweeps
    if not wait and _mode() != "wait" and item not in _failed:
        _request(item)
        return None
    with _build_lock:
        with loading(sweeps[0] if len(sweeps) == 1 else "loops"):
            from . import _loops as module
            for sweep in sweeps:
                if sweep not in _loops_ready:
                    for dt in (F64, F32):
                        _compile_sweep(module, sweep, dt)
                    _loops_ready.add(sweep)
        _loops_ready.add("module")
    return module


def _warm_flat(name, dtype):
    """Build the serial flat loop of ``name`` and compile it for ``dtype``: all arrays, and
    a broadcast cotangent (a scalar) first."""
    if (name, dtype) in _flat_ready:
        return
    loop = flat_loop(name, False)
    nin = _DECLARED[name][1]
    one = np.ones(2, dtype)
    with loading(name), np.errstate(all="ignore"):
        loop(*([one] * nin), np.empty(2, dtype))
        if nin > 1:
            loop(dtype.type(1), *([one] * (nin - 1)), np.empty(2, dtype))
    _flat_ready.add((name, dtype))


# The loader: one daemon thread, started by the first request, working through the
# requests in the order they came (the kernels the program used first, first).
_requests = {}                 # request -> None: an ordered set
_cond = threading.Condition()
_unit_lock = threading.Lock()  # held while the loader works on one request
_loader = []                   # [True] once started
_stopping = []


def _request(item):
    if item in _requests or config.loading != "background" or _stopping:
        return
    with _cond:
        if not _loader:
            _requests["numba"] = None  # (its own row in a profile)
            _loader.append(True)
            atexit.register(_stop_loader)
            # A bare thread (a daemon, as far as exit goes): threading.Thread.start() waits
            # until the new thread has run, 10-20 ms of a first call on a loaded machine.
            _thread.start_new_thread(_loader_main, ())
        _requests[item] = None
        _cond.notify()


def _load(item):
    if item == "numba":
        with loading("numba"):
            import numba  # noqa: F401
            from . import _loops, _ufuncs  # noqa: F401
    elif item[0] == "loops":
        loops(*item[1:])
    elif item[0] == "ufunc":
        ufunc(item[1], item[2])
    elif item[0] == "flat":
        _warm_flat(item[1], item[2])
    elif item[0] == "forward":
        forward_ufunc(item[1], item[2])


# Importing Numba holds the GIL for most of its ~0.4 s: started at once, it made the
# first grad of W1 (~20 ms of Python) ~40% slower (2-core machine, measured interleaved).
# The loader waits this long first, so that the call that asked usually finishes alone.
START_DELAY = 0.05


def _loader_main():
    _local.background = True
    time.sleep(START_DELAY)
    while True:
        with _cond:
            while not _requests and not _stopping:
                _cond.wait()
            if _stopping:
                return
            item = next(iter(_requests))
        with _unit_lock:
            if _stopping:
                return
            try:
                _load(item)
            except BaseException as e:  # the caller builds it and sees the error itself
                _failed[item] = e
                if item == "numba":
                    config.loading = "wait"
        with _cond:
            _requests.pop(item, None)


def _stop_loader(timeout=60.0):
    """At exit: let the loader finish the kernel it is compiling (LLVM must not be torn
    down under it), then stop it."""
    _stopping.append(True)
    with _cond:
        _cond.notify_all()
    if _unit_lock.acquire(timeout=timeout):
        _unit_lock.release()


def _before_fork():
    # A child must not inherit a half-done import or build: wait for the current unit.
    _local.fork_held = _unit_lock.acquire(timeout=60.0)


def _after_fork_parent():
    if getattr(_local, "fork_held", False):
        _unit_lock.release()


def _after_fork_child():
    global _unit_lock, _cond, _build_lock
    _unit_lock, _cond, _build_lock = threading.Lock(), threading.Condition(), threading.RLock()
    _loader.clear()  # the thread did not survive the fork: the next request starts one
    _requests.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_parent,
                        after_in_child=_after_fork_child)


# Load events, for the profiler: (what, start_ns, end_ns, background) after each build.
_listeners = []


def on_load(listener):
    """Call ``listener(what, start_ns, end_ns, background)`` after each kernel build or
    load (``time.perf_counter_ns`` times; ``background``: on the loader thread, which
    no caller waited for).  Returns a function removing the listener."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


@contextmanager
def loading(what):
    """Times a build (the outermost one of this thread) for the load listeners."""
    if getattr(_local, "loading", False):
        yield
        return
    _local.loading = True
    start = time.perf_counter_ns()
    try:
        yield
    finally:
        _local.loading = False
        end = time.perf_counter_ns()
        background = getattr(_local, "background", False)
        for listener in list(_listeners):
            listener(what, start, end, background)


def warmup(dtypes=("float64", "float32"), parallel=None, progress=None):
    """Compile (or load from the disk cache) funcgrad's CPU kernels now, not on first use.

    Builds, for each of ``dtypes``: every elementwise kernel's ufunc (the form used for
    small arrays and strided layouts) and flat loop (large contiguous arrays and
    broadcast cotangents), the reduction and scatter loops; the parallel loops too when
    ``parallel`` (default: when more than one thread is allowed).  ``progress(done,
    total)`` is called after each kernel.  Returns the seconds it took.  See the README's
    "Kernels" section for the first-call costs.
    """
    start = time.perf_counter()
    if parallel is None:
        parallel = config.threads > 1
    dtypes = [np.dtype(dt) for dt in dtypes]
    for dt in dtypes:
        if dt not in _SIGNATURE_NAMES:
            raise ValueError(f"warmup: no kernels for dtype {dt}; use float32 or float64")
    names = declared()
    total, done = len(names) * len(dtypes) + 1, 0
    for dt in dtypes:
        one = np.ones(2, dt)
        for name in names:
            nin = _DECLARED[name][1]
            out = np.empty(2, dt)
            with loading(name), np.errstate(all="ignore"):
                for variant in ([False, True] if parallel else [False]):
                    loop = flat_loop(name, variant)
                    loop(*([one] * nin), out)                        # all flat arrays
                    if nin > 1:
                        loop(dt.type(1), *([one] * (nin - 1)), out)  # a broadcast cotangent
                ufunc(name, dt)
            _flat_ready.add((name, dt))
            done += 1
            if progress is not None:
                progress(done, total)
    loops(*SWEEPS)
    if progress is not None:
        progress(total, total)
    return time.perf_counter() - start

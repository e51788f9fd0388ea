"""The CPU kernels' dispatch settings: size thresholds, loading mode and thread count.

One ``Config`` per process (``config``), read by every kernel wrapper on each call and
changed through ``set_num_threads`` or the environment variables named below; callers
that must re-choose a kernel when the thread count changes register with
``on_thread_change``.  Nothing here imports Numba.
"""
import os
import sys

import numpy as np


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

    __slots__ = ("ufunc_min", "numba_min", "parallel_min", "threads", "loading")

    def __init__(self):
        self.loading = _loading_mode(os.environ.get("FUNCGRAD_KERNELS") or "background")
        self.ufunc_min = int(os.environ.get("FUNCGRAD_UFUNC_MIN", 1))
        self.numba_min = int(os.environ.get("FUNCGRAD_NUMBA_MIN", 4096))
        self.parallel_min = int(os.environ.get("FUNCGRAD_PARALLEL_MIN", 262144))
        self.threads = _default_threads()


LOADING_MODES = ("background", "wait", "numpy")


def _loading_mode(mode):
    if mode not in LOADING_MODES:
        raise ValueError(f"kernel loading must be one of {', '.join(LOADING_MODES)} (the "
                         f"FUNCGRAD_KERNELS environment variable), got {mode!r}")
    return mode


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
    if "numba" in sys.modules:
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

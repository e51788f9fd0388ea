"""Let the C allocator keep freed array memory for reuse (glibc on Linux).

Why: a gradient keeps its forward values until the backward pass, so one call allocates
and frees tens of megabytes.  glibc hands large freed blocks back to the kernel (``munmap``
above the mmap threshold, and trimming the heap top beyond the trim threshold), and
every page of the next call's arrays then faults in again: measured on W4 (``grad`` on
1e6 float64) 5,600 page faults and half of the time of a call (34 ms -> 17 ms), and on the
Hessian of Rosenbrock at n=400 4,900 faults and 80% of the time (12.5 ms -> 2.5 ms).

A thread other than the main one allocates from an arena of its own, whose heaps glibc
unmaps as soon as they are empty, whatever the trim threshold: a gradient computed in a
thread pool (Dask's threads, a web server's) faulted its pages in on every call, measured
18,750 faults and twice the time of the same call on the main thread (an 8-16-1 tanh
network's gradient on 200,000 rows: 150 ms against 75 ms).

What: at ``import funcgrad``, arrays up to 32 MiB (glibc's ceiling for this setting) come
from the heap, up to ``FUNCGRAD_MALLOC_KEEP`` bytes (default 256 MiB) of free memory at
its top are kept instead of returned, and threads started from then on share the main
heap (one arena; NumPy allocates while holding the GIL, so threads seldom wait for it).
The resident memory of a process then stays at its peak instead of shrinking after
every call, as with PyTorch's and JAX's own allocators.  Nothing is changed when
``FUNCGRAD_MALLOC_KEEP=0``, when the user set glibc's thresholds (``MALLOC_TRIM_THRESHOLD_``
and the others of ``_GLIBC_VARIABLES``, or ``GLIBC_TUNABLES``), or on another C library
or platform; a ``MALLOC_ARENA_MAX`` of the user's is kept as it is.
"""
import ctypes
import os
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
_MMAP_MAX_BYTES = 32 << 20  # glibc rejects a larger mmap threshold on 64-bit systems
_GLIBC_VARIABLES = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_",
                    "MALLOC_MMAP_MAX_", "GLIBC_TUNABLES")


def keep_freed_memory():
    """Apply the setting above; returns True when glibc accepted it."""
    try:
        keep = int(os.environ.get("FUNCGRAD_MALLOC_KEEP", 256 << 20))
    except ValueError:
        return False
    if keep <= 0 or not sys.platform.startswith("linux"):
        return False
    if any(name in os.environ for name in _GLIBC_VARIABLES):
        return False  # the user tuned the allocator: theirs wins
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # glibc only (musl's mallopt does nothing)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    # Both at once: setting either turns off glibc's own adaptive thresholds.
    return bool(mallopt(_M_MMAP_THRESHOLD, min(keep, _MMAP_MAX_BYTES))
                and mallopt(_M_TRIM_THRESHOLD, min(keep, 2**31 - 1))
                and ("MALLOC_ARENA_MAX" in os.environ or mallopt(_M_ARENA_MAX, 1)))

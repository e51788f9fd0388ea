"""A thread-safety repair to Numba's CUDA simulator, applied when kernels run under it.

The simulator runs each CUDA thread of a block as a Python thread, and a static
``cuda.shared.array(...)`` is looked up per launch by its source line: the first
thread to reach the line makes the array and records it.  That lookup and the record
are separate steps (``FakeCUDAShared.array``: ``get``, then ``np.empty``, then the
store), so two threads reaching the line together can each make an array; the one
whose record is overwritten keeps a private "shared" array for the whole launch, and a
reduction or a tiled product silently drops its part (a gradient off by anything, now
and then, more often on a loaded machine).  Real GPUs are not affected.  Present in
Numba 0.68's bundled simulator and in numba-cuda's sources of July 2026.

:func:`make_shared_arrays_thread_safe` makes the lookup and the record one step under a
lock (keyed, as the simulator's, by the calling file and line); dynamic shared memory
(``shape == 0``, one buffer per launch) is left to the simulator.
"""
import functools
import sys
import threading

import numpy as np


@functools.lru_cache(maxsize=None)
def make_shared_arrays_thread_safe():
    """Make the simulator's static shared-array lookup one step, under a lock
    (idempotent; a no-op where the simulator's class is not as expected)."""
    try:
        from numba.cuda.simulator.kernelapi import FakeCUDAShared
        from numba.np.numpy_support import as_dtype
        from numba.core.types import Type
    except ImportError:
        return
    dynamic = FakeCUDAShared.array
    lock = threading.Lock()

    @functools.wraps(dynamic)
    def array(self, shape, dtype, *args, **kwargs):
        allocations = getattr(self, "_allocations", None)
        if shape == 0 or args or kwargs or allocations is None:
            return dynamic(self, shape, dtype, *args, **kwargs)  # one buffer: no race
        # (the caller's file and line name the array, as the simulator's own lookup
        # does; a wrapper calling it would have named this line instead)
        caller = sys._getframe(1)
        key = (caller.f_code.co_filename, caller.f_lineno)
        with lock:
            found = allocations.get(key)
            if found is None:
                found = allocations[key] = np.empty(
                    shape, as_dtype(dtype) if isinstance(dtype, Type) else dtype)
        return found

    FakeCUDAShared.array = array

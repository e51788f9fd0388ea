"""Where kernels run (a real GPU or Numba's CUDA simulator) and how they are launched.

The simulator (``NUMBA_ENABLE_CUDASIM=1`` before Numba is imported) runs one OS
thread per CUDA thread, so under it every launch uses a handful of threads; the
kernels are written with grid-stride loops, so any launch size computes the same
result.  Two blocks of eight threads still exercise every multi-block and
multi-thread path (two-pass reductions, shared-memory trees, atomics).
"""
import functools

from numba import config as _numba_config
from numba import cuda

SIM = bool(_numba_config.ENABLE_CUDASIM)

if SIM:
    from ._simulator import make_shared_arrays_thread_safe
    make_shared_arrays_thread_safe()
    THREADS = 8          # elementwise / per-thread kernels
    REDUCE_THREADS = 8   # shared-memory tree width (a power of two)
    SCAN_THREADS = 8
    TILE = 4             # matmul tile edge
    LINALG_THREADS = 4
    MAX_BLOCKS = 2
else:
    THREADS = 256
    REDUCE_THREADS = 256
    SCAN_THREADS = 256
    TILE = 16
    LINALG_THREADS = 128
    MAX_BLOCKS = None    # from the device: 32 blocks per multiprocessor


@functools.lru_cache(maxsize=None)
def multiprocessors():
    if SIM:
        return 1
    return cuda.get_current_device().MULTIPROCESSOR_COUNT


def max_blocks():
    return MAX_BLOCKS if MAX_BLOCKS is not None else 32 * multiprocessors()


def blocks_for(n, threads=None):
    """Blocks for a grid-stride loop over ``n`` items (at least one)."""
    threads = threads or THREADS
    return max(1, min(-(-n // threads), max_blocks()))

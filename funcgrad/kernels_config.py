"""Settings of funcgrad's CPU kernels: threads and ahead-of-time compilation.

The kernels (``funcgrad.kernels.cpu``) are Numba loops built on first use, per dtype, and
cached on disk; ``import funcgrad`` compiles nothing and does not import Numba.  These
functions are re-exported as ``funcgrad.warmup``, ``funcgrad.set_num_threads`` and
``funcgrad.get_num_threads``.
"""
from .kernels.cpu import _lazy
from .primitives._elementwise import build_kernels

__all__ = ["warmup", "set_num_threads", "get_num_threads"]


def warmup(dtypes=("float64", "float32"), parallel=None):
    """Compile (or load from the disk cache) the CPU kernels now instead of on first use.

    Useful before timing something, or in a server before the first request.  Returns
    the seconds spent (a few seconds with a warm cache; see the README's "Kernels").

    >>> import funcgrad as fg
    >>> seconds = fg.warmup(dtypes=("float64",))
    """
    import time
    start = time.perf_counter()
    build_kernels(dtypes)
    return time.perf_counter() - start + _lazy.warmup(dtypes=dtypes, parallel=parallel)


set_num_threads = _lazy.set_num_threads
get_num_threads = _lazy.get_num_threads

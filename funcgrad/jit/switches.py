"""Switches over every jitted function: ``disable_jit``, ``clear_caches`` and
``ensure_compile_time_eval``.

Kept apart from :mod:`.api` so that reaching them loads no compiler: ``disable_jit`` is a
thread-local mode (``core._state.jit_disabled``, read by ``JitFunction.__call__``), and
``clear_caches`` walks the jitted functions alive now (each registers itself here when
it is made; the registry holds them weakly, so it keeps none alive).
"""
import contextlib
import threading
import weakref
from typing import Any, Iterator, Literal

from ..core import _state

__all__ = ["disable_jit", "clear_caches", "ensure_compile_time_eval", "track"]

_jitted: "weakref.WeakSet[Any]" = weakref.WeakSet()
_lock = threading.Lock()  # (a WeakSet changing while another thread lists it would raise)


def track(jitted: Any) -> None:
    """Register a jitted function for :func:`clear_caches` (``JitFunction.__init__``)."""
    with _lock:
        _jitted.add(jitted)


def clear_caches() -> None:
    """Forget every jitted function's traced signatures and compiled code (JAX's
    ``jax.clear_caches``): the next call of each traces and compiles again.  Compiled
    kernels stay in the on-disk cache, so compiling again mostly loads them.

    >>> import numpy as np, funcgrad as fg
    >>> f = fg.jit(lambda x: x * 2.0)
    >>> float(f(1.0))
    2.0
    >>> fg.clear_caches()
    >>> len(f._cache)
    0
    """
    with _lock:
        alive = list(_jitted)
    for jitted in alive:
        jitted.clear_cache()


class disable_jit:
    """Context manager under which jitted functions run their Python function directly,
    operation by operation (JAX's ``jax.disable_jit``): ``print`` and ``breakpoint()``
    see values, and Python control flow on values works.  ``disable_jit(False)``
    re-enables jit inside an outer ``disable_jit()``.  Per thread.

    >>> import numpy as np, funcgrad as fg
    >>> @fg.jit
    ... def f(x):
    ...     return x * 2.0 if x > 0 else -x   # a Python `if` on a traced value
    >>> with fg.disable_jit():
    ...     float(f(3.0))
    6.0
    """

    def __init__(self, disable: bool = True) -> None:
        self.disable = bool(disable)
        self._saved = threading.local()

    def __enter__(self) -> "disable_jit":
        stack = self._saved.__dict__.setdefault("stack", [])
        stack.append(_state.jit_disabled)
        _state.jit_disabled = self.disable
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        _state.jit_disabled = self._saved.stack.pop()
        return False


@contextlib.contextmanager
def ensure_compile_time_eval() -> Iterator[None]:
    """JAX's context manager for computing with concrete values while ``jit`` traces.
    funcgrad always does: inside ``jit``, operations on values that are not arguments
    (constants, ``np.arange``, ``fg.numpy`` calls on them) are computed at once, and only
    those reached from the arguments are traced.  So the block runs as it is.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> @fg.jit
    ... def f(x):
    ...     with fg.ensure_compile_time_eval():
    ...         table = fnp.cumsum(fnp.arange(4.0))    # concrete: usable in Python control flow
    ...     return x * table if table[-1] > 5 else x
    >>> f(np.ones(4))
    array([0., 1., 3., 6.])
    """
    yield

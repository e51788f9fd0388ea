"""``scipy.fft``'s worker and backend controls, in :mod:`funcgrad.scipy.fft`.

``set_workers``/``get_workers`` keep SciPy's semantics (a per-thread default that a
``with`` block sets and restores), but funcgrad's transforms accept ``workers`` and ignore
it: they run on one thread of its own kernels, so the number only matters to code that
reads it back.  The backend functions raise: ``funcgrad.scipy.fft`` computes its
transforms itself so that they differentiate, and is no uarray dispatcher a backend could
be installed in; a no-op would let a user believe pyFFTW (say) was in use.
"""
import contextlib
import operator
import os
import threading
from typing import Any, Iterator

__all__ = ["get_workers", "set_workers", "set_backend", "skip_backend",
           "set_global_backend", "register_backend"]

_LOCAL = threading.local()  # (per thread, as SciPy's default)


def get_workers() -> int:
    """The default number of workers of the current thread (``1`` unless
    :func:`set_workers` set it), as ``scipy.fft.get_workers``.  funcgrad's transforms
    accept ``workers`` and ignore it (they run on one thread).

    >>> import funcgrad.scipy.fft as ffft
    >>> with ffft.set_workers(4):
    ...     ffft.get_workers()
    4
    """
    return getattr(_LOCAL, "workers", 1)


@contextlib.contextmanager
def set_workers(workers: int) -> Iterator[None]:
    """A context manager setting the default number of workers that :func:`get_workers`
    returns, as ``scipy.fft.set_workers`` (negative values count back from the number of
    CPUs: ``-1`` is all of them).  funcgrad's transforms ignore it.

    >>> import os, funcgrad.scipy.fft as ffft
    >>> with ffft.set_workers(-1):
    ...     ffft.get_workers() == os.cpu_count()
    True
    """
    workers = operator.index(workers)
    if workers == 0:
        raise ValueError("workers must not be zero")
    if workers < 0:
        cpus = os.cpu_count() or 1
        if workers < -cpus:
            raise ValueError(f"workers value out of range; got {workers}, must not be less "
                             f"than {-cpus}")
        workers += cpus + 1
    before = get_workers()
    _LOCAL.workers = workers
    try:
        yield
    finally:
        _LOCAL.workers = before


def _no_backend(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"funcgrad.scipy.fft.{name}: funcgrad computes its transforms itself, so that they "
        f"differentiate; it is not a uarray dispatcher and has no backends to set. Call "
        f"scipy.fft.{name} to choose the backend of SciPy's own (not differentiable) "
        f"functions, or use funcgrad.scipy.fft's transforms as they are")


def set_backend(backend: Any, coerce: bool = False, only: bool = False) -> Any:
    """Not supported: raises ``NotImplementedError`` (``scipy.fft.set_backend`` chooses
    a uarray backend; funcgrad's transforms are its own, with no backends).

    >>> import funcgrad.scipy.fft as ffft
    >>> try:
    ...     ffft.set_backend("scipy")
    ... except NotImplementedError as e:
    ...     print(type(e).__name__)
    NotImplementedError
    """
    raise _no_backend("set_backend")


def skip_backend(backend: Any) -> Any:
    """Not supported: raises ``NotImplementedError``, as :func:`set_backend`.

    >>> import funcgrad.scipy.fft as ffft
    >>> try:
    ...     ffft.skip_backend("scipy")
    ... except NotImplementedError as e:
    ...     print(type(e).__name__)
    NotImplementedError
    """
    raise _no_backend("skip_backend")


def set_global_backend(backend: Any, coerce: bool = False, only: bool = False,
                       try_last: bool = False) -> None:
    """Not supported: raises ``NotImplementedError``, as :func:`set_backend`.

    >>> import funcgrad.scipy.fft as ffft
    >>> try:
    ...     ffft.set_global_backend("scipy")
    ... except NotImplementedError as e:
    ...     print(type(e).__name__)
    NotImplementedError
    """
    raise _no_backend("set_global_backend")


def register_backend(backend: Any) -> None:
    """Not supported: raises ``NotImplementedError``, as :func:`set_backend`.

    >>> import funcgrad.scipy.fft as ffft
    >>> try:
    ...     ffft.register_backend("scipy")
    ... except NotImplementedError as e:
    ...     print(type(e).__name__)
    NotImplementedError
    """
    raise _no_backend("register_backend")

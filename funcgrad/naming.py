"""``named_scope`` and ``named_call`` (JAX's names for labelling code): funcgrad keeps
the names where it has a place for them, the profiler (``fg.profiler.profile``, and
NVTX ranges under ``fg.profiler.emit_nvtx``); values and derivatives are unchanged."""
import contextlib
import functools
from typing import Any, Callable, Iterator, TypeVar

__all__ = ["named_scope", "named_call"]

_F = TypeVar("_F", bound=Callable[..., Any])


@contextlib.contextmanager
def named_scope(name: str) -> Iterator[None]:
    """Label the code inside (also a decorator): its operations appear under ``name`` in
    a profile.

    >>> import numpy as np, funcgrad as fg
    >>> with fg.profiler.profile() as prof:
    ...     with fg.named_scope("loss"):
    ...         _ = fg.grad(lambda x: np.sum(x * x))(np.ones(2))
    >>> "loss" in [e.key for e in prof.key_averages()]
    True
    """
    if not isinstance(name, str):
        raise TypeError(f"named_scope: the name must be a string, got {type(name).__name__}")
    from .profiler import record_function
    with record_function(name):
        yield


def named_call(fun: _F, *, name: str | None = None) -> _F:
    """``fun`` whose calls run inside :func:`named_scope` (``name`` defaults to the
    function's name).

    >>> import numpy as np, funcgrad as fg
    >>> layer = fg.named_call(lambda x: np.tanh(x), name="layer")
    >>> with fg.profiler.profile() as prof:
    ...     _ = layer(np.zeros(2))
    >>> "layer" in [e.key for e in prof.key_averages()]
    True
    """
    label = name if name is not None else getattr(fun, "__name__", "named_call")

    @functools.wraps(fun)
    def named(*args: Any, **kwargs: Any) -> Any:
        with named_scope(label):
            return fun(*args, **kwargs)
    return named  # type: ignore[return-value]  # same call signature as fun

"""Gradient modes: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``.

Each is thread-local.  While gradients are disabled, reverse mode (``grad``,
``vjp``, the eager ``Tensor`` tape) records nothing: values computed inside are
constants to it, as if wrapped in :func:`funcgrad.stop_gradient`.  Forward mode
(``jvp``, ``forward_ad``) is unaffected, as in PyTorch.

Each mode is a context manager and a decorator, as in PyTorch: ``@fg.no_grad()``
or bare ``@fg.no_grad``; a decorated generator function runs every step (not just
its creation) under the mode.  ``set_grad_enabled(mode)`` also works as a plain
call.  A mode object may be reused and nested, and shared between threads: the
state it restores on exit is kept per thread.
"""
import functools
import inspect
import threading
from typing import Any, Callable, Literal, TypeVar, cast

from .core import _state

_F = TypeVar("_F", bound=Callable[..., Any])
_M = TypeVar("_M", bound="_Mode")

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]


def is_grad_enabled() -> bool:
    """Whether reverse mode records operations on this thread.

    >>> import funcgrad as fg
    >>> with fg.no_grad():
    ...     print(fg.is_grad_enabled())
    False
    >>> fg.is_grad_enabled()
    True
    """
    return _state.grad_enabled


def _current():
    return (_state.grad_enabled, _state.inference, _state.grad_off_tag)


def _restore(saved):
    _state.grad_enabled, _state.inference, _state.grad_off_tag = saved


class _Mode:
    """A context manager that is also a decorator; restores the previous mode on exit."""

    _args: tuple[Any, ...] = ()

    def __init__(self) -> None:
        self._tls = threading.local()  # per-thread stack of the states to restore

    def _saved(self):
        try:
            return self._tls.stack
        except AttributeError:
            self._tls.stack = []
            return self._tls.stack

    def _enter_mode(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def __enter__(self: _M) -> _M:
        self._saved().append(_current())
        self._enter_mode()
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        _restore(self._saved().pop())
        return False

    def __call__(self, fn: _F) -> _F:
        if not callable(fn):
            raise TypeError(f"{type(self).__name__}(...) used as a decorator needs a function, "
                            f"got {type(fn).__name__}")
        cls, args = type(self), self._args

        if inspect.isgeneratorfunction(fn):
            @functools.wraps(fn)
            def generator(*a, **kw):
                gen = fn(*a, **kw)
                try:
                    with cls(*args):
                        response = gen.send(None)
                    while True:
                        try:
                            request = yield response
                        except GeneratorExit:
                            with cls(*args):
                                gen.close()
                            raise
                        except BaseException as e:
                            with cls(*args):
                                response = gen.throw(e)
                        else:
                            with cls(*args):
                                response = gen.send(request)
                except StopIteration as stop:
                    return stop.value
            return cast(_F, generator)

        @functools.wraps(fn)
        def wrapper(*a, **kw):
            with cls(*args):
                return fn(*a, **kw)
        return cast(_F, wrapper)


class _BareDecorator(_Mode):
    """A mode that takes no argument, so it may decorate bare: ``@fg.no_grad``."""

    def __new__(cls, orig_func=None):
        if orig_func is not None:
            return cls()(orig_func)  # a function wrapper, not an instance: no __init__
        return super().__new__(cls)

    def __init__(self, orig_func: Callable[..., Any] | None = None) -> None:
        super().__init__()


class no_grad(_BareDecorator):
    """Disable gradient recording (context manager or decorator).

    >>> import funcgrad as fg
    >>> with fg.no_grad():
    ...     fg.is_grad_enabled()
    False
    >>> float(fg.grad(lambda x: x * x + fg.no_grad()(lambda: x * x)())(3.0))
    6.0
    """

    def _enter_mode(self):
        _state.grad_enabled = False


class enable_grad(_BareDecorator):
    """Re-enable gradient recording inside ``no_grad`` (context manager or decorator).

    >>> import funcgrad as fg
    >>> with fg.no_grad(), fg.enable_grad():
    ...     fg.is_grad_enabled()
    True
    """

    def _enter_mode(self):
        _state.grad_enabled = True


class set_grad_enabled(_Mode):
    """Set gradient recording on or off: as a function call (takes effect at once), a
    context manager or a decorator.

    >>> import funcgrad as fg
    >>> with fg.set_grad_enabled(False):
    ...     fg.is_grad_enabled()
    False
    >>> fg.is_grad_enabled()
    True
    """

    def __init__(self, mode: bool) -> None:
        if callable(mode):
            raise TypeError("set_grad_enabled(mode) takes a bool; as a decorator, write "
                            "@fg.set_grad_enabled(False)")
        super().__init__()
        self._args = (mode,)
        self._before = _current()  # what a `with` block restores on exit
        _state.grad_enabled = bool(mode)

    def __enter__(self) -> "set_grad_enabled":
        self._saved().append(self._before)  # the mode was already set by the call
        return self

    def _enter_mode(self):
        _state.grad_enabled = bool(self._args[0])

    def __call__(self, fn: _F) -> _F:
        _restore(self._before)  # as a decorator: no effect until the function runs
        return super().__call__(fn)


class inference_mode(_Mode):
    """Like ``no_grad``, and results are marked as inference values: the eager
    ``Tensor`` refuses to save them for a later backward pass (clear error).
    ``inference_mode(False)`` turns it off again inside (and, as in PyTorch,
    enables gradients there).  Also a decorator, bare or with the flag.

    >>> import funcgrad as fg
    >>> with fg.inference_mode():
    ...     fg.is_grad_enabled(), fg.is_inference_mode_enabled()
    (False, True)
    """

    def __new__(cls, mode=True):
        if callable(mode):  # bare decorator: @fg.inference_mode
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        super().__init__()
        self._args = (bool(mode),)

    def _enter_mode(self):
        mode = self._args[0]
        _state.grad_enabled = not mode
        _state.inference = mode


def is_inference_mode_enabled() -> bool:
    """Whether an ``inference_mode`` block is active on this thread (as PyTorch's
    ``torch.is_inference_mode_enabled``).

    >>> import funcgrad as fg
    >>> with fg.inference_mode():
    ...     print(fg.is_inference_mode_enabled())
    True
    >>> fg.is_inference_mode_enabled()
    False
    """
    return _state.inference

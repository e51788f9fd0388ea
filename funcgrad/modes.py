"""Gradient modes: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``.

Each is thread-local.  While gradients are disabled, reverse mode (``grad``,
``vjp``, the eager ``Tensor`` tape) records nothing: values computed inside are
constants to it, as if wrapped in :func:`funcgrad.stop_gradient`.  Forward mode
(``jvp``, ``forward_ad``) is unaffected, as in PyTorch.
"""
import functools

from .core import _state

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]


def is_grad_enabled():
    """Whether reverse mode records operations on this thread."""
    return _state.grad_enabled


class _Mode:
    """A context manager that is also a decorator; restores the previous mode on exit."""

    def _enter_mode(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def __enter__(self):
        self._previous = (_state.grad_enabled, _state.inference)
        self._enter_mode()
        return self

    def __exit__(self, *exc):
        _state.grad_enabled, _state.inference = self._previous
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)(*self._args):
                return fn(*args, **kwargs)
        return wrapper

    _args = ()


class no_grad(_Mode):
    """Disable gradient recording (context manager or decorator).

    >>> import funcgrad as fg
    >>> with fg.no_grad():
    ...     fg.is_grad_enabled()
    False
    >>> fg.grad(lambda x: x * x + fg.no_grad()(lambda: x * x)())(3.0)
    6.0
    """

    def _enter_mode(self):
        _state.grad_enabled = False


class enable_grad(_Mode):
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

    def __init__(self, mode):
        self._args = (mode,)
        self._previous = (_state.grad_enabled, _state.inference)
        _state.grad_enabled = bool(mode)

    def __enter__(self):
        return self

    def _enter_mode(self):
        _state.grad_enabled = bool(self._args[0])

    def __call__(self, fn):
        _state.grad_enabled, _state.inference = self._previous  # as a decorator: no effect now
        return super().__call__(fn)


class inference_mode(_Mode):
    """Like ``no_grad``, and results are marked as inference values: the eager
    ``Tensor`` refuses to save them for a later backward pass (clear error).

    >>> import funcgrad as fg
    >>> with fg.inference_mode():
    ...     fg.is_grad_enabled(), fg.is_inference_mode_enabled()
    (False, True)
    """

    def __init__(self, mode=True):
        self._args = (mode,)

    def _enter_mode(self):
        if self._args[0]:
            _state.grad_enabled = False
            _state.inference = True


def is_inference_mode_enabled():
    return _state.inference

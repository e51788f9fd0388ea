"""Anomaly detection: where did this NaN, or this error in a backward rule, come from?

While anomaly detection is on (:class:`detect_anomaly`, :class:`set_detect_anomaly`),
every operation reverse mode records keeps the traceback of the forward call
that created it.  Then

* an exception raised by a backward (VJP) rule carries that forward traceback:
  it is printed to stderr and attached to the exception as a note
  (``BaseException.add_note``), so the report names the line of *your* code
  whose derivative failed, not just funcgrad's internals;
* with ``check_nan=True`` (the default), a backward rule returning NaN raises
  ``RuntimeError("Function 'log' returned nan values in its 0th output. ...")``
  with the place the operation was created, and so does a forward operation
  that turns NaN-free inputs into a NaN output.

It is off by default and **slow** (a traceback is captured per operation, and
every value is scanned for NaN): use it to find a bug, not in production.
The mode is thread-local.  It applies to the operations *recorded* while it is
on: wrap the forward computation (with ``grad``/``vjp`` the forward and the
backward run inside the same call, so wrapping that call is enough).
"""
import os
import sys
import threading
import traceback
from typing import Any, Callable, Literal, TypeVar, cast

import numpy as np

from .core import ConcretizationError, Tracer, concrete
from .instruments import Instrument, install, op_name, uninstall

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled"]

_FUNCGRAD_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_NUMPY_DIR = os.path.dirname(os.path.abspath(np.__file__)) + os.sep


# --- the mode ------------------------------------------------------------------------------

class _Mode(threading.local):
    def __init__(self):
        self.check_nan = None  # None: off; else whether NaN results are errors


_mode = _Mode()


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on for this thread.

    >>> import funcgrad as fg
    >>> fg.is_anomaly_enabled()
    False
    """
    return _mode.check_nan is not None


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection is on and checks for NaN, on this thread.

    >>> import funcgrad as fg
    >>> with fg.detect_anomaly(check_nan=False):
    ...     fg.is_anomaly_check_nan_enabled()
    False
    """
    return bool(_mode.check_nan)


_F = TypeVar("_F", bound=Callable[..., Any])


def _set_mode(check_nan):
    """``check_nan``: None turns anomaly detection off, a bool turns it on."""
    _mode.check_nan = check_nan
    if check_nan is None:
        uninstall(_INSTRUMENT)
    else:
        install(_INSTRUMENT)


class detect_anomaly:
    """Context manager (or decorator) turning anomaly detection on; slow, for debugging.

    Inside it, an error raised by a backward rule is reported together with the
    forward line that created the failing operation, and (``check_nan=True``) a
    rule producing NaN raises a ``RuntimeError`` naming the primitive and the line.

    >>> import numpy as np, funcgrad as fg
    >>> def norm(x):
    ...     return np.sqrt(np.sum(x * x))      # at 0: d sqrt = inf, then inf * 0 = nan
    >>> with fg.detect_anomaly():
    ...     fg.grad(norm)(np.zeros(2))          # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    RuntimeError: Function 'multiply' returned nan values in its 0th output. ...
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = bool(check_nan)
        self._saved = threading.local()  # one object may be entered by several threads, nested

    def __enter__(self) -> "detect_anomaly":
        stack = self._saved.__dict__.setdefault("stack", [])
        stack.append(_mode.check_nan)
        _set_mode(self.check_nan)
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        _set_mode(self._saved.stack.pop())
        return False

    def __call__(self, fn: _F) -> _F:
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with detect_anomaly(self.check_nan):
                return fn(*args, **kwargs)
        return cast(_F, wrapper)


class set_detect_anomaly:
    """Turn anomaly detection on or off: as a call (takes effect at once and stays), or
    as a context manager (restores the previous mode on exit).

    >>> import funcgrad as fg
    >>> with fg.set_detect_anomaly(True, check_nan=False):
    ...     fg.is_anomaly_enabled(), fg.is_anomaly_check_nan_enabled()
    (True, False)
    >>> fg.is_anomaly_enabled()
    False
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._previous = _mode.check_nan
        _set_mode(bool(check_nan) if mode else None)

    def __enter__(self) -> "set_detect_anomaly":
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        _set_mode(self._previous)
        return False


# --- recording -----------------------------------------------------------------------------

def _capture_stack():
    """The current stack, outermost first, without funcgrad's and NumPy's frames."""
    frames = traceback.StackSummary.extract(traceback.walk_stack(sys._getframe(2)),
                                            lookup_lines=False)
    # funcgrad's and NumPy's own frames say nothing about which line of yours it was
    return [f for f in reversed(frames) if not _is_internal(f.filename)]


def _is_internal(filename):
    path = os.path.abspath(filename)
    return path.startswith(_FUNCGRAD_DIR) or path.startswith(_NUMPY_DIR)


def _has_nan(x):
    """Whether ``x`` (array, scalar or traced value) holds a NaN; False when unknown."""
    if x is None or isinstance(x, (bool, int)):
        return False
    if isinstance(x, (tuple, list)):  # the outputs of a multiple-result operation
        return any(_has_nan(v) for v in x)
    if isinstance(x, Tracer):
        try:
            x = concrete(x)
        except (ConcretizationError, TypeError):  # abstract (make_graph, jit): no values
            return False
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        if isinstance(x, (float, complex)):
            return x != x
        return False
    if dtype.kind not in "fc":
        return False
    if not isinstance(x, (np.ndarray, np.generic)):
        x = np.asarray(x)  # a GPU array: checked on a host copy (anomaly mode is slow anyway)
    return bool(np.isnan(x).any())


class _AnomalyInstrument(Instrument):
    """Keeps each recorded node's forward traceback; checks the forward pass for NaN and
    runs the backward rule under :func:`_checked` (notes on errors, NaN checks)."""

    priority = 0  # records before saved-value hooks pack the inputs away; outermost rule

    def on_record(self, node):
        check_nan = _mode.check_nan
        if check_nan is None:
            return None
        stack = _capture_stack()
        if check_nan and _has_nan(node.value) and not any(_has_nan(a) for a in node.args):
            raise RuntimeError(
                f"Function '{op_name(node)}' returned nan values in its output "
                f"during the forward pass, although its inputs have none. It was called at\n"
                f"{_where(stack)}\n"
                f"Check the input range of this operation (log or sqrt of a negative number, "
                f"0/0, inf - inf). If the NaN is expected, e.g. in the branch that "
                f"fg.numpy.where discards, make the input safe first (the double-where idiom: "
                f"where(ok, f(where(ok, x, safe)), other)) or use "
                f"fg.detect_anomaly(check_nan=False).")
        return (stack, check_nan)

    def backward(self, node, data, g, args, proceed):
        return _checked(node, data, args, proceed)


_INSTRUMENT = _AnomalyInstrument()


def _where(stack):
    """``File "...", line N, in f`` and the source line of the innermost user frame."""
    if not stack:
        return "  (location unknown)"
    return "".join(traceback.format_list([stack[-1]])).rstrip("\n")


def _forward_traceback(stack):
    return "".join(traceback.format_list(stack)).rstrip("\n")


def _ordinal(i):
    if 10 <= i % 100 <= 20:
        return f"{i}th"
    return f"{i}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(i % 10, 'th') }"


# --- backward ------------------------------------------------------------------------------

def _checked(node, data, args, proceed):
    """Run the rest of ``node``'s backward chain, blaming its forward line for errors and
    (``check_nan``) for NaN in the results (see the module docstring)."""
    stack, check_nan = data
    try:
        contributions = proceed(args)
    except Exception as error:
        _annotate(error, node, stack)
        raise
    if check_nan:
        for i, c in enumerate(contributions):
            if c is not None and _has_nan(c):
                name = op_name(node)
                nan_error = RuntimeError(
                    f"Function '{name}' returned nan values in its {_ordinal(i)} output. "
                    f"The backward (VJP) rule of '{name}' produced NaN in the gradient with "
                    f"respect to its argument {i}; the operation was created at\n"
                    f"{_where(stack)}\n"
                    f"Traceback of the forward call that created it:\n"
                    f"{_forward_traceback(stack)}\n"
                    f"The derivative is undefined or infinite at this input (sqrt or log at "
                    f"0, 0/0, pow at 0) or a NaN cotangent arrived. Keep the input away from "
                    f"the singular point, or mask it with the double-where idiom so the "
                    f"untaken branch sees a safe value.")
                nan_error._funcgrad_anomaly_noted = True  # outer rules: nothing to add
                raise nan_error
    return contributions


def _annotate(error, node, stack):
    if getattr(error, "_funcgrad_anomaly_noted", False):
        return  # an inner backward rule has already attached its (more precise) trace
    name = op_name(node)
    note = (f"Anomaly detection: error detected in the backward rule of '{name}'. "
            f"Traceback of the forward call that caused the error:\n"
            f"{_forward_traceback(stack)}")
    try:
        error._funcgrad_anomaly_noted = True
    except AttributeError:  # pragma: no cover - exceptions with __slots__
        pass
    print(note, file=sys.stderr)
    if hasattr(error, "add_note"):
        error.add_note(note)
    else:  # pragma: no cover - Python 3.10: stored, not displayed
        error.__notes__ = getattr(error, "__notes__", []) + [note]

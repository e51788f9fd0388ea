"""Anomaly detection: where did this NaN, or this error in a backward rule, come from?

Anomaly detection (:class:`detect_anomaly`, :class:`set_detect_anomaly`) does two
things, as PyTorch's does:

* **while the forward pass runs** with it on, every operation reverse mode records
  keeps the traceback of the forward call that created it.  Nothing is checked
  then: a NaN in the forward pass is not an error (it may sit in the branch a
  ``where`` discards);
* **while the backward pass runs** with it on, an exception raised by a backward
  (VJP) rule carries that forward traceback (printed to stderr and attached as a
  note, ``BaseException.add_note``), so the report names the line of *your* code
  whose derivative failed; and with ``check_nan=True`` (the default) a backward
  rule returning NaN raises ``RuntimeError("Function 'LogBackward0' returned nan
  values in its 0th output. ...")`` with that traceback.  The NaN may have come
  in with the cotangent: the first rule whose result holds one is named.

So the NaN check follows the mode at backward time: ``loss.backward()`` inside
``detect_anomaly()`` checks every node, even those recorded outside it (whose
report then says that no forward pass information is available), and a backward
pass outside it checks nothing.  Nodes that a ``create_graph=True`` pass records
also name the node whose backward created them ("Previous calculation was induced
by ...").  With ``fg.grad``/``fg.vjp`` the forward and the backward run inside the
same call, so wrapping that call is enough; a ``vjp_fn`` checks if it is called
with the mode on.

It is off by default and **slow** (a traceback is captured per operation, and
every gradient is scanned for NaN): use it to find a bug, not in production.
Making a ``detect_anomaly`` says so with PyTorch's ``UserWarning`` ("Anomaly Detection
has been enabled...").
The mode is thread-local.
"""
import os
import sys
import threading
import traceback
import warnings
from typing import Any, Callable, Literal, TypeVar, cast

import numpy as np

from .core import ConcretizationError, Tracer, concrete
from .instruments import Instrument, as_rule_value, install, op_name, uninstall

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled"]

_FUNCGRAD_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_NUMPY_DIR = os.path.dirname(os.path.abspath(np.__file__)) + os.sep


# --- the mode ------------------------------------------------------------------------------

class _Mode(threading.local):
    def __init__(self):
        self.check_nan = None  # None: off; else whether NaN results are errors
        # (name, forward data) of the node whose backward rule runs now: the operations
        # a create_graph pass records were induced by it
        self.inducing = None


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

    Operations recorded inside it keep the forward line that created them; a
    backward pass run inside it reports an error raised by a backward rule together
    with that line, and (``check_nan=True``) a rule producing NaN raises a
    ``RuntimeError`` naming the node and the line.  A NaN in the forward pass is not
    an error, as in PyTorch: only gradients are checked.

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
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the "
                      "runtime and should only be enabled for debugging.", stacklevel=2)

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
    """Keeps each recorded node's forward traceback (and, on a create_graph pass, the node
    whose backward recorded it); runs every backward rule while the mode is on under
    :func:`_checked` (notes on errors, NaN checks)."""

    priority = 0  # records before saved-value hooks pack the inputs away; outermost rule
    watches_every_backward = True  # the mode at backward time decides, as PyTorch's

    def on_record(self, node):
        if _mode.check_nan is None:
            return None
        return (_capture_stack(), _mode.inducing)

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


_NO_FORWARD_INFORMATION = (
    "No forward pass information available: the operation was recorded while anomaly "
    "detection was off. Run the forward pass inside fg.detect_anomaly() too for the line "
    "that created it.")


def _forward_report(data):
    """The forward traceback kept in ``data`` and, for an operation a create_graph pass
    recorded, those of the nodes whose backward induced it."""
    if data is None:
        return _NO_FORWARD_INFORMATION
    stack, inducing = data
    parts = [f"Traceback of the forward call that created it:\n{_forward_traceback(stack)}"]
    while inducing is not None:
        name, data = inducing
        if data is None:
            parts.append(f"Previous calculation was induced by {name}. "
                         f"{_NO_FORWARD_INFORMATION}")
            break
        stack, inducing = data
        parts.append(f"Previous calculation was induced by {name}. Traceback of the forward "
                     f"call that induced the previous calculation:\n"
                     f"{_forward_traceback(stack)}")
    return "\n".join(parts)


def _ordinal(i):
    # PyTorch's words, "1th" included: users search for the message as PyTorch prints it
    return f"{i}th"


# --- backward ------------------------------------------------------------------------------

def _checked(node, data, args, proceed):
    """Run the rest of ``node``'s backward chain, blaming its forward line for errors and
    (``check_nan``) for NaN in the results, if the mode is on now (see the module
    docstring).  ``data``: what :meth:`_AnomalyInstrument.on_record` kept, or None."""
    check_nan = _mode.check_nan
    if check_nan is None:  # recorded with the mode on, run without it: nothing to check
        return proceed(args)
    name = op_name(node)
    inducing = _mode.inducing
    _mode.inducing = (name, data)
    try:
        contributions = proceed(args)
    except Exception as error:
        _annotate(error, name, data)
        raise
    finally:
        _mode.inducing = inducing
    if check_nan:
        for i, c in enumerate(contributions):
            # (a create_graph pass of the eager Tensor returns Tensors: checked by value)
            if c is not None and _has_nan(as_rule_value(node, c)):
                created = ("." if data is None else
                           f"; the operation was created at\n{_where(data[0])}")
                nan_error = RuntimeError(
                    f"Function '{name}' returned nan values in its {_ordinal(i)} output. "
                    f"The backward (VJP) rule of '{name}' produced NaN in the gradient with "
                    f"respect to its argument {i}{created}\n"
                    f"{_forward_report(data)}\n"
                    f"The derivative is undefined or infinite at this input (sqrt or log at "
                    f"0, 0/0, pow at 0) or a NaN cotangent arrived. Keep the input away from "
                    f"the singular point, or mask it with the double-where idiom so the "
                    f"untaken branch sees a safe value.")
                nan_error._funcgrad_anomaly_noted = True  # outer rules: nothing to add
                raise nan_error
    return contributions


def _annotate(error, name, data):
    if getattr(error, "_funcgrad_anomaly_noted", False):
        return  # an inner backward rule has already attached its (more precise) trace
    note = (f"Anomaly detection: error detected in the backward rule of '{name}'. "
            f"{_forward_report(data)}")
    try:
        error._funcgrad_anomaly_noted = True
    except AttributeError:  # pragma: no cover - exceptions with __slots__
        pass
    print(note, file=sys.stderr)
    if hasattr(error, "add_note"):
        error.add_note(note)
    else:  # pragma: no cover - Python 3.10: stored, not displayed
        error.__notes__ = getattr(error, "__notes__", []) + [note]

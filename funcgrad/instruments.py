"""Instruments: how a debugging tool watches reverse mode.

Anomaly detection (:mod:`funcgrad.anomaly`), the profiler (:mod:`funcgrad.profiler`)
and saved-value hooks (:mod:`funcgrad.graph`) each implement :class:`Instrument`;
the tapes (the functional ``grad``/``vjp`` tape and the eager ``Tensor`` tape) and
the backward engine (:mod:`funcgrad.interpreters.backprop`) call the protocol and
never name a tool.  Each tool keeps its own (thread-local) state.

* **Recording.**  While an instrument is installed on this thread (:func:`install`),
  every operation recorded on a tape is handed to :func:`record`, which calls
  ``instrument.on_record(node)`` for each installed instrument in order of
  ``priority`` (lower first).  ``node`` has the fields ``prim``, ``args`` (the
  input values the VJP rule will get), ``params`` (a dict or None), ``value``
  (the output), ``needs`` and ``meta``.  ``on_record`` may replace ``node.args``
  (saved-value hooks pack them) and returns what the instrument wants to keep
  with the node for its backward pass, or ``None`` to leave the node alone.

* **Backward.**  A node some instrument kept data with (``node.meta``, a tuple of
  ``(instrument, data)`` in priority order) runs its VJP rule through
  :func:`backward`: each of those instruments wraps the next,
  ``instrument.backward(node, data, g, args, proceed)``, and the innermost
  ``proceed(args)`` calls the rule.  So anomaly detection (priority 0) sees the
  errors and results of the whole chain, the profiler (10) times the unpacking
  and the rule, and saved-value hooks (90) unpack the arguments for the rule.

* **Watching every backward rule.**  An instrument whose ``watches_every_backward``
  is true also wraps, while it is installed, the rules of nodes recorded before it
  was (``data`` is then None): anomaly detection checks for NaN whenever it is on
  during the backward pass, as PyTorch's does, wherever the forward pass ran.
  The engine asks :func:`backward_watchers` once per backward pass.

Nothing here runs unless a tool is switched on: with no instrument installed the
tapes and the engine take their plain fast paths.

>>> import funcgrad as fg, numpy as np
>>> class CountRules(Instrument):
...     def __init__(self):
...         self.calls = 0
...     def on_record(self, node):
...         return True                       # watch every operation
...     def backward(self, node, data, g, args, proceed):
...         self.calls += 1
...         return proceed(args)
>>> counter = CountRules()
>>> install(counter)
>>> _ = fg.grad(lambda x: np.sum(np.sin(x) * x))(np.ones(3))
>>> uninstall(counter)
>>> counter.calls                              # sin, multiply, reduce_sum
3
"""
from .core import SHAPES_ONLY, _state

__all__ = ["Instrument", "install", "uninstall", "record", "backward", "backward_watchers",
           "op_name", "OUTPUT", "rule_reads", "saved_residuals", "as_rule_value"]

OUTPUT = "output"
"""The position of a node's output among its residuals (:func:`saved_residuals`)."""


class Instrument:
    """The interface a debugging tool implements to watch reverse mode (see the module
    docstring).  ``priority``: lower runs first when recording and outermost when
    running a backward rule."""

    priority = 50
    watches_every_backward = False

    def on_record(self, node):
        """Look at a newly recorded ``node``; return data to keep with it for its
        backward rule, or None (the default) to leave it alone."""
        return None

    def backward(self, node, data, g, args, proceed):
        """Run ``node``'s backward rule on cotangent ``g``: ``proceed(args)`` runs the
        rest of the chain and returns the contributions (one per argument).  ``data``
        is what :meth:`on_record` returned (None for a node recorded before the
        instrument was installed, see ``watches_every_backward``).  The default just
        proceeds."""
        return proceed(args)


def install(instrument):
    """Make ``instrument`` watch operations recorded on this thread (idempotent).

    >>> inst = Instrument()
    >>> install(inst); install(inst)
    >>> from funcgrad.core import _state
    >>> _state.instruments.count(inst)
    1
    >>> uninstall(inst)
    """
    current = _state.instruments
    if any(i is instrument for i in current):
        return
    _state.set_instruments(sorted(current + (instrument,), key=_priority))


def uninstall(instrument):
    """Stop ``instrument`` watching this thread (no error if it was not installed).

    >>> uninstall(Instrument())   # never installed: nothing happens
    """
    current = _state.instruments
    if any(i is instrument for i in current):
        _state.set_instruments(tuple(i for i in current if i is not instrument))


def _priority(instrument):
    return instrument.priority


def record(node):
    """Show a newly recorded ``node`` to the installed instruments (tapes call this
    while ``core._state.recording == 2``); keeps what they return in ``node.meta``.

    >>> import funcgrad as fg, numpy as np
    >>> class Tag(Instrument):
    ...     def on_record(self, node):
    ...         return "seen"
    >>> tag = Tag(); install(tag)
    >>> t = fg.Tensor([1.0], requires_grad=True) * 2.0     # the tape calls record(node)
    >>> uninstall(tag)
    >>> t.grad_fn.meta == ((tag, "seen"),)
    True
    """
    marks = []
    for instrument in _state.instruments:
        data = instrument.on_record(node)
        if data is not None:
            marks.append((instrument, data))
    if marks:
        node.meta = tuple(marks)


def rule_reads(node):
    """``(inputs_read, output_read)``: which residuals ``node``'s VJP rule reads, from
    its primitive's ``vjp_reads`` fact (``inputs_read``: a bool per input).

    >>> import funcgrad as fg
    >>> rule_reads((fg.Tensor([1.0], requires_grad=True) * 2.0).grad_fn)
    ((False, True), False)
    """
    reads = node.prim.vjp_reads
    n = len(node.needs)
    if reads is SHAPES_ONLY:
        return (False,) * n, False
    if reads is None:
        return (True,) * n, False
    inputs, output = reads(node.needs, **(node.params or {}))
    return ((True,) * n if inputs is None else tuple(inputs)), bool(output)


def saved_residuals(node):
    """``[(position, value)]``: the residuals ``node``'s rule reads that are arrays
    (Python numbers are part of the operation, not saved values), as the tape shows
    them: argument ``i`` at position ``i``, the output at :data:`OUTPUT`.  The eager
    Tensor's nodes show Tensors (``node.show_residual(position)``); the functional
    tape shows its arrays, and not its output (the traced value itself, saved where
    it is used).

    >>> import funcgrad as fg
    >>> a = fg.Tensor([1.0, 2.0], requires_grad=True)
    >>> [position for position, _ in saved_residuals((a * a).grad_fn)]
    [0, 1]
    """
    inputs, output = rule_reads(node)
    show = getattr(node, "show_residual", None)
    found = []
    for i, (a, read) in enumerate(zip(node.args, inputs)):
        if read and not isinstance(a, (bool, int, float, complex)) and a is not None:
            found.append((i, a if show is None else show(i)))
    if output and show is not None and not node.prim.multiple_results:
        found.append((OUTPUT, show(OUTPUT)))
    return found


def check_unpacked(value, shape):
    """``value``, what an unpack hook returned, if it can stand for a saved value of
    ``shape`` (an array, Tensor or traced value of that shape); else PyTorch's error.

    >>> check_unpacked(5, (2,))
    Traceback (most recent call last):
    ...
    TypeError: Output of saved tensor unpack_hook expected to be a Tensor but got result of type int; return the saved value (e.g. unpack_hook=lambda packed: packed when pack_hook returns the Tensor it got)
    """
    if not (hasattr(value, "shape") and hasattr(value, "dtype")):
        raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but got "
                        f"result of type {type(value).__name__}; return the saved value (e.g. "
                        f"unpack_hook=lambda packed: packed when pack_hook returns the Tensor "
                        f"it got)")
    if shape is not None and tuple(value.shape) != tuple(shape):
        raise RuntimeError(f"saved tensor unpack_hook returned a value of shape "
                           f"{tuple(value.shape)}, but the value saved had shape "
                           f"{tuple(shape)}; unpack_hook must give back the saved value")
    return value


def as_rule_value(node, value):
    """What ``node``'s rule computes with for a residual a tool handed back (the eager
    Tensor's nodes take the array a Tensor shows).

    >>> import numpy as np, funcgrad as fg
    >>> node = (fg.Tensor([3.0], requires_grad=True) * 2.0).grad_fn
    >>> as_rule_value(node, fg.Tensor([1.0]))
    array([1.], dtype=float32)
    """
    convert = getattr(node, "rule_value", None)
    return value if convert is None else convert(value)


def backward_watchers():
    """The installed instruments that wrap every backward rule, also those of nodes they
    did not record (``watches_every_backward``); usually none.

    >>> import funcgrad as fg
    >>> backward_watchers()
    ()
    >>> with fg.detect_anomaly():
    ...     [type(i).__name__ for i in backward_watchers()]
    ['_AnomalyInstrument']
    """
    installed = _state.instruments
    if not installed:  # the usual case, on every backward pass
        return ()
    return tuple(i for i in installed if i.watches_every_backward)


def backward(node, g, rule, watchers=()):
    """``rule(node, g, value, args)`` (the contributions of ``node`` for cotangent
    ``g``) run through the instruments that kept data with ``node`` and the
    ``watchers`` (:func:`backward_watchers`; data None where they kept none), the one
    with the lowest priority outermost.

    >>> import funcgrad as fg, numpy as np
    >>> class Halve(Instrument):                  # scales the rule's arguments
    ...     def on_record(self, node):
    ...         return 0.5
    ...     def backward(self, node, data, g, args, proceed):
    ...         return proceed(tuple(a * data for a in args))
    >>> halve = Halve(); install(halve)
    >>> y = fg.Tensor([4.0], requires_grad=True) * fg.Tensor([3.0])
    >>> uninstall(halve)
    >>> backward(y.grad_fn, np.ones(1), lambda node, g, value, args: (g * args[1], None))
    (array([1.5]), None)
    """
    saved_value = node.value
    marks = node.meta or ()
    if watchers:
        kept = [instrument for instrument, _ in marks]
        extra = tuple((w, None) for w in watchers if not any(w is i for i in kept))
        if extra:
            marks = tuple(sorted(marks + extra, key=lambda mark: mark[0].priority))

    def proceed(args, value=None):  # value: the output, when a tool kept it (saved hooks)
        return rule(node, g, saved_value if value is None else value, args)

    for instrument, data in reversed(marks):
        proceed = _wrap(instrument, node, data, g, proceed)
    return proceed(node.args)


def _wrap(instrument, node, data, g, proceed):
    def step(args, value=None):
        if value is None:
            return instrument.backward(node, data, g, args, proceed)
        return instrument.backward(node, data, g, args, lambda a: proceed(a, value))
    return step


def op_name(node):
    """The name a tool shows for ``node``: on the eager Tensor's graph its ``grad_fn``
    name (``SqrtBackward0``); otherwise the primitive's, with a custom rule's name.

    >>> import funcgrad as fg, numpy as np
    >>> class Names(Instrument):
    ...     seen = []
    ...     def on_record(self, node):
    ...         self.seen.append(op_name(node))
    >>> names = Names(); install(names)
    >>> _ = fg.grad(lambda x: np.sum(np.exp(x)))(np.ones(2)); uninstall(names)
    >>> names.seen
    ['exp', 'reduce_sum']
    """
    if getattr(type(node), "grad_fn_name", None) is not None:
        return node.grad_fn_name
    prim = node.prim
    name = getattr(prim, "name", None) or str(prim)
    params = node.params
    rule = params.get("rule") if isinstance(params, dict) else None
    return f"{name}:{rule}" if rule is not None else name

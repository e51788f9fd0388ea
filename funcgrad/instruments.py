"""Instruments: the shared plumbing of funcgrad's debugging tools.

Anomaly detection (:mod:`funcgrad.anomaly`), saved-value hooks
(:mod:`funcgrad.graph`) and the profiler (:mod:`funcgrad.profiler`) watch
reverse mode through two hook points, which any tape (the functional
``grad``/``vjp`` tape and the eager ``Tensor`` tape alike) calls:

* **recording.** While ``core._state.instruments`` is non-empty
  (``core._state.recording == 2``), each operation recorded on a tape is
  handed to ``instrument.on_record(node)`` for every active instrument, in
  :func:`install` order.  ``node`` has the fields ``prim`` (with ``.name``),
  ``args`` (the input values the rule will get), ``params`` (dict or None),
  ``value`` (the output), ``needs`` and ``meta``.  An instrument marks the node
  by giving it a ``meta`` dict (:func:`mark`); it may replace entries of
  ``node.args`` (the saved-value hooks pack them and leave ``None`` behind).

* **backward.** For a marked node (``node.meta is not None``) the tape calls
  :func:`backward` ``(node, g, rule)`` instead of the VJP rule directly, with
  ``rule(node, g, value, args) -> contributions`` (default: the primitive's
  VJP rule, :func:`funcgrad.interpreters.reverse.run_vjp`).  :func:`backward`
  unpacks saved values, times the rule for active profilers, and attaches the
  forward traceback / checks for NaN for nodes recorded under anomaly
  detection.

Nothing here runs unless a tool is switched on: with no instrument installed
the tapes take their plain fast path.  All state is thread-local.
"""
import threading

from .core import _state
from .interpreters import reverse

__all__ = ["install", "uninstall", "mark", "backward", "next_seq"]


class _Local(threading.local):
    def __init__(self):
        self.seq = 0              # sequence number of the next marked node (ties bwd to fwd)
        self.sinks = ()           # active profilers / NVTX emitters (funcgrad.profiler)
        self.anomaly = None       # (check_nan,) while anomaly detection is on
        self.hooks = []           # saved_tensors_hooks stack: [(pack, unpack)]
        self.hooks_disabled = []  # messages of active disable_saved_tensors_hooks
        self.in_hook = False      # inside a pack/unpack hook: do not pack recursively


local = _Local()


def install(instrument):
    """Make ``instrument`` watch operations recorded on this thread (idempotent).

    Instruments run in order of their ``priority`` attribute (lower first), so
    anomaly detection sees a node's inputs before saved-value hooks pack them.
    """
    current = _state.instruments
    if any(i is instrument for i in current):
        return
    ordered = sorted(current + (instrument,), key=lambda i: getattr(i, "priority", 50))
    _state.set_instruments(ordered)


def uninstall(instrument):
    """Stop ``instrument`` watching this thread (no error if it was not installed)."""
    current = _state.instruments
    if any(i is instrument for i in current):
        _state.set_instruments(tuple(i for i in current if i is not instrument))


def next_seq():
    """The sequence number the next marked node will get (PyTorch's ``seq``)."""
    return local.seq


def mark(node):
    """The ``meta`` dict of ``node``, created (with a sequence number) if needed."""
    meta = node.meta
    if meta is None:
        meta = node.meta = {"seq": local.seq}
        local.seq += 1
    return meta


def _default_rule(node, g, value, args):
    return reverse.run_vjp(node, g, value, args)


def backward(node, g, rule=None):
    """Run the backward rule of the marked ``node`` on cotangent ``g`` with the tools
    that marked it: unpack saved values, profile, anomaly checks.

    ``rule(node, g, value, args)`` computes the contributions (one per argument);
    by default the primitive's VJP rule.  The eager ``Tensor`` tape passes its own.
    """
    meta = node.meta if node.meta is not None else mark(node)
    if rule is None:
        rule = _default_rule
    if "stack" in meta:
        from .anomaly import checked_backward
        return checked_backward(node, g, rule, meta)
    return run_backward(node, g, rule, meta)


def run_backward(node, g, rule, meta):
    """Unpack ``node``'s saved values and call ``rule``, timed by active profilers."""
    sinks = local.sinks
    if not sinks:
        return _call(node, g, rule, meta)
    from .profiler import timed_backward
    return timed_backward(sinks, node, g, lambda: _call(node, g, rule, meta), meta)


def _call(node, g, rule, meta):
    value, args = node.value, node.args
    packed = meta.get("packed")
    if packed is not None:
        from .graph import unpack_args
        args = unpack_args(args, packed)
    return rule(node, g, value, args)


def prim_name(node):
    prim = node.prim
    name = getattr(prim, "name", None) or str(prim)
    rule = (node.params or {}).get("rule") if isinstance(node.params, dict) else None
    return f"{name}:{rule}" if rule is not None else name


# Every node an instrument marks reaches ``backward`` through the reverse-mode tape.
reverse.instrumented_vjp = backward

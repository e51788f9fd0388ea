"""The backward engine: one walk of a recorded graph, shared by reverse mode and the eager
``Tensor``.

The engine reads a graph node through a handful of fields, which the reverse-mode tape
(:mod:`funcgrad.interpreters.reverse`) and the eager ``Tensor`` graph
(:mod:`funcgrad.eager.graph`) both provide:

``prim``
    the :class:`~funcgrad.core.Primitive` whose VJP rule the node runs, or
    :data:`SELECT`: then the node is output ``k`` of the ``n`` outputs of a node
    with several outputs (``args == (k, n)``, ``parents == (that_node,)``).
``parents``
    one entry per argument, aligned with ``args``: the node the cotangent of that
    argument goes to (a node, or a leaf such as an input tracer, which the engine never
    runs), or None for an argument that takes no cotangent: ``(a,)``, ``(a, None)``,
    ``(None, b)``, ``(a, b)``.  One tuple a node, where pairs ``(i, parent)`` cost a
    tuple more per traced argument (and the collector's visits of it).  :func:`edges`
    gives the pairs to code that wants them.
``needs``, ``value``, ``args``, ``params``
    what the VJP rule gets: ``prim.vjp(needs, g, value, *args, **params)``.
``meta``
    ``None``, or what debugging tools kept with the node
    (:func:`funcgrad.instruments.backward` then runs the rule; it also does for every
    node while a tool that watches every backward rule is installed).
``slot``
    where a numbered walk keeps the node's cotangent: its position in the list of
    nodes walked, or :data:`UNNUMBERED`.  The reverse tape sets it at the append (the
    position on the tape, never changed); the eager Tensor's walk hands its nodes
    numbers for the walk.  The walk checks a number by identity before it uses it, so a
    wrong one costs speed only (see :func:`backpropagate`).

:func:`backpropagate` walks the nodes from the last recorded to the first (creation
order is a topological order), runs each rule that received a cotangent and adds the
contributions into its parents' cotangents.  ``None`` is a symbolic zero: a node
without a cotangent is skipped, so absent derivatives cost nothing.  A node with
several outputs collects one cotangent per output (its SELECT nodes fill the slots)
and its rule gets them as a tuple.

**Accumulating in place, by ownership.**  Adding a third contribution to a cotangent
allocates nothing when the engine can write into the sum it computed for the first
two.  A sum the engine computed (``prev + c``) is a fresh array that nobody else has
seen: the engine *owns* it until the node it belongs to runs, when it is handed to the
rule (which may return it, save it, or give it to several parents).  Only owned
buffers are updated in place; a contribution a rule returned, a seed the caller
passed, or an array a user or a residual holds is never written.
"""
import functools
import os
import sys
import warnings

import numpy as np
from numpy import add as _np_add
from numpy import ndarray

from .. import instruments
from ..core import _state, internal, node_name
from ..primitives.elementwise import add as _add

__all__ = ["SELECT", "UNNUMBERED", "PROGRAM_FILE", "NODE_CODES", "backpropagate", "add_cotangents", "edges",
           "run_rule", "shortcuts_allowed", "reported"]

SELECT = object()
"""The ``prim`` of a node standing for output ``k`` of a node with several outputs."""

PROGRAM_FILE = "<funcgrad backward program>"
"""The file name of the code of walks written down (:mod:`.walk_programs`), whose frames
are funcgrad's, each with its node in ``node``, as the walk's."""

NODE_CODES: set = set()
"""The code of the functions other than the walk that run nodes' rules with the node in
their ``node`` (the writer of :mod:`.walk_programs`): the rules' warnings name it."""

UNNUMBERED = sys.maxsize
"""The ``slot`` of a node that has no number (a leaf, a node no walk numbered yet): it
fails the walk's ``k < remaining`` before anything else is read."""


def edges(node):
    """``[(i, parent), ...]``: the arguments of ``node`` that send a cotangent, and the
    node each sends it to.

    >>> import numpy as np
    >>> from funcgrad.interpreters.reverse import ReverseInterpreter
    >>> with ReverseInterpreter() as interp:
    ...     x = interp.new_input(np.array([1.0]))
    ...     y = 2.0 * x
    >>> edges(y) == [(1, x)]
    True
    """
    return [(i, parent) for i, parent in enumerate(node.parents) if parent is not None]


def _only_first(parents):
    """Whether the first argument alone sends a cotangent (by identity: ``count(None)``
    would compare tracers with ``==``, which records an operation)."""
    if parents[0] is None:
        return False
    for parent in parents[1:]:
        if parent is not None:
            return False
    return True


def add_cotangents(a, b):
    """Sum two cotangents of one value (plain arrays skip the dispatch).

    >>> import numpy as np
    >>> add_cotangents(np.ones(2), np.ones(2))
    array([2., 2.])
    """
    if type(a) is ndarray and type(b) is ndarray:
        return a + b
    return _add(a, b)


def run_rule(node, g, value, args):
    """``node``'s VJP rule on cotangent ``g`` with residuals ``value`` and ``args``: one
    contribution (or ``None``) per argument.

    >>> import numpy as np
    >>> from funcgrad.interpreters.reverse import ReverseInterpreter
    >>> with ReverseInterpreter() as interp:
    ...     y = np.sin(interp.new_input(np.array([0.0])))
    >>> run_rule(y, np.ones(1), y.value, y.args)
    (array([1.]),)
    """
    params = node.params
    if params:
        return node.prim.vjp(node.needs, g, value, *args, **params)
    return node.prim.vjp(node.needs, g, value, *args)


def shortcuts_allowed():
    """Whether ``vjp_into`` shortcuts may run now: only while every interpreter computes
    values eagerly.  A program recorded for a compiler keeps the plain rules (a padded
    cotangent and a sum fuse into its loops).

    >>> shortcuts_allowed()
    True
    """
    interp = _state.interpreter
    while interp is not None:
        if not interp.eager:
            return False
        interp = interp.parent
    return True


def backpropagate(nodes, seeds, *, consume=False, rule=None, visit=None, release=None,
                  free=False, shortcuts=True, numbered=False):
    """Propagate cotangents from ``seeds`` back through ``nodes``.

    ``nodes``: the nodes that may run, in creation order (parents before the nodes that
    use them).  ``seeds``: ``[(node, cotangent)]``.  Returns the table of cotangents
    left when the walk ends, keyed by ``id(node)``: those of the leaves (the nodes not
    in ``nodes``: inputs), complete.

    ``consume=True`` pops ``nodes`` as it goes, so each node's residuals can be freed
    as soon as it has run.  ``rule(node, g, value, args)`` replaces :func:`run_rule`.
    ``visit(node, g)`` is called before a node (other than a SELECT) runs, with its
    cotangent (a list of slots for several outputs); the node runs only if it returns
    true, with the cotangent ``h`` instead when it returns a 1-tuple ``(h,)`` (hooks).
    ``release(node)`` is called after it ran.  ``free=True`` frees each node's saved
    values at its turn, with no call a node that saves none: ``node._release()`` for
    a node whose ``_saves`` is true, once its rule ran or, without a cotangent, was
    skipped (the eager Tensor's nodes; a rule that raises leaves its node and the ones
    not reached yet intact).  ``shortcuts=False`` turns off the
    rules' ``vjp_into`` shortcuts.  ``numbered=True``: the nodes' ``slot`` numbers
    may be used, and no one changes them while this walk runs (see below).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.interpreters.reverse import ReverseInterpreter
    >>> with ReverseInterpreter() as interp:
    ...     x = interp.new_input(np.array([1.0, 2.0]))
    ...     y = x * x + x
    >>> table = backpropagate(interp.tape, [(y, np.ones(2))], numbered=True)
    >>> table[id(x)]
    array([3., 5.])
    """
    # Where cotangents wait.  A node whose ``slot`` is its position ``k`` in ``nodes``
    # keeps its cotangent in ``cts[k]``: a list read by number, where a dict by id(node)
    # costs an int allocated, a hash lookup and an insertion an edge (callgrind,
    # benchmarks/results/session13-walknum.md).  A slot number is only a hint, checked
    # by identity (``index[k] is parent``) wherever it is used: a leaf, a node of another
    # list, a stale or foreign number (a tape cleared and recorded again, a node walked
    # in a list other than its tape) sends its cotangent to ``table``, by id(node), and
    # the node reads it back from there.  Both ends read the same number, which is why
    # it must not change during the walk (``numbered``): the reverse tape's numbers are
    # set once, at the append; the eager Tensor's are handed out by its walk under a lock.
    count = len(nodes)
    remaining = count
    cts = [None] * count
    # (an unnumbered walk checks against a list of no node: every number fails)
    index = nodes if numbered else cts
    table = {}
    # Slots (of cts) and keys (of table) whose entry is a sum this walk computed: a
    # fresh array no one else holds.  A slot is never written again once its node has
    # run (everything that contributes to it was recorded later, so ran earlier), so a
    # stale entry here is never consulted.
    owned = set()
    owned_ids = set()
    for node, ct in seeds:
        k = node.slot
        if k < count and index[k] is node:
            if cts[k] is None:  # (one seed a node, nearly always: without a call)
                cts[k] = ct
            else:
                _accumulate(cts, owned, k, ct, cts[k])
        else:
            _accumulate(table, owned_ids, id(node), ct, table.get(id(node)))
    into_ok = shortcuts and shortcuts_allowed()
    watchers = instruments.backward_watchers()  # anomaly detection on during this pass
    get = table.get
    pop = table.pop
    # A walk without hooks, replaced rules, releases or watchers (every gradient's): its
    # nodes of one output and no vjp_into rule run the rule straight away, past the
    # checks below (about 15 bytecodes a node).
    plain = visit is None and rule is None and release is None and not watchers
    while remaining:
        remaining -= 1
        node = nodes.pop() if consume else nodes[remaining]
        if numbered and node.slot == remaining:
            g = cts[remaining]
            if g is None:
                if free and node._saves:  # (its turn came: as if it ran)
                    node._release()
                continue
            cts[remaining] = None  # (freed as the walk goes, as the nodes' residuals)
        else:
            g = pop(id(node), None)
            if g is None:
                if free and node._saves:
                    node._release()
                continue
        prim = node.prim
        if plain and prim is not SELECT and node.meta is None and (
                (vjp := prim.vjp_plain) is not None and node.params is None):
            # A rule without parameters (elementwise nodes, most of a chain's): positionally,
            # not through *args (which builds a tuple for the call), and without ** (see
            # Primitive.vjp_plain; a primitive with one declares one result, and its
            # vjp_into, a shortcut, is not needed: about 8 bytecodes a node fewer)
            args = node.args
            if len(args) == 2:
                contributions = vjp(node.needs, g, node.value, args[0], args[1])
            elif len(args) == 1:
                # A unary elementwise node whose argument has a cotangent already (a value
                # read twice): the rule and the sum in one kernel pass (Elementwise.summed_vjp)
                # (a leaf's cotangent, an input's, waits in ``table``: the same there)
                parent = node.parents[0]
                k = parent.slot
                if k < remaining and index[k] is parent:
                    key = None
                    prev = cts[k]
                else:
                    key = id(parent)
                    prev = get(key)
                if prev is not None and (decl := prim.elementwise) is not None and (
                        total := decl.summed_vjp(prev, g, args[0], node.value)) is not None:
                    if key is None:
                        cts[k] = total
                        owned.add(k)
                    else:
                        table[key] = total
                        owned_ids.add(key)
                    if free and node._saves:
                        node._release()
                    continue
                contributions = vjp(node.needs, g, node.value, args[0])
            else:
                contributions = vjp(node.needs, g, node.value, *args)
            parents = node.parents
        elif plain and prim is not SELECT and node.meta is None and prim.vjp_into is None \
                and not prim.multiple_results:
            args = node.args
            if node.params is not None:
                contributions = prim.vjp(node.needs, g, node.value, *args, **node.params)
            elif len(args) == 2:  # (no vjp_plain here)
                contributions = prim.vjp(node.needs, g, node.value, args[0], args[1])
            elif len(args) == 1:
                contributions = prim.vjp(node.needs, g, node.value, args[0])
            else:
                contributions = prim.vjp(node.needs, g, node.value, *args)
            parents = node.parents
        elif prim is SELECT:
            k, n = node.args
            slots = _slots_of(node.parents[0], n, remaining, index, cts, table)
            slots[k] = g if slots[k] is None else add_cotangents(slots[k], g)
            continue
        else:
            if visit is not None:
                seen = visit(node, g)
                if not seen:
                    continue
                if type(seen) is tuple:  # a hook replaced the cotangent
                    g = seen[0]
            if prim.multiple_results:
                g = tuple(g)
            parents = node.parents
            into = prim.vjp_into if into_ok else None
            if into is not None and node.meta is None and not watchers \
                    and _only_first(parents):
                parent = parents[0]
                k = parent.slot
                if k < remaining and index[k] is parent:
                    store, mine_set, key = cts, owned, k
                    prev = cts[k]
                else:
                    store, mine_set, key = table, owned_ids, id(parent)
                    prev = get(key)
                if prev is not None:
                    # The rule adds its contribution straight into the parent's cotangent so
                    # far (gather: one scatter-add instead of a padded copy plus a sum), in
                    # place when the engine owns it; otherwise into a new array, which the
                    # engine then owns as it owns its own sums.
                    mine = key in mine_set
                    params = node.params
                    total = store[key] = into(prev, mine, g, node.value, *node.args,
                                              **(params or {}))
                    if total is not prev:
                        if type(total) is ndarray:
                            mine_set.add(key)
                        else:
                            mine_set.discard(key)
                    if release is not None:
                        release(node)
                    if free and node._saves:
                        node._release()
                    continue
            if node.meta is not None or watchers:
                contributions = instruments.backward(node, g, rule or run_rule, watchers)
            elif rule is not None:
                contributions = rule(node, g, node.value, node.args)
            elif node.params is None:  # (as in the plain walk above: the eager Tensor's)
                args = node.args
                vjp = prim.vjp_plain or prim.vjp
                if len(args) == 2:
                    contributions = vjp(node.needs, g, node.value, args[0], args[1])
                elif len(args) == 1:
                    contributions = vjp(node.needs, g, node.value, args[0])
                else:
                    contributions = vjp(node.needs, g, node.value, *args)
            else:
                contributions = prim.vjp(node.needs, g, node.value, *node.args, **node.params)
            if release is not None:
                release(node)
        # Freed once its rule ran, before its contributions move on: the saved values of
        # a chain go as the walk passes, as PyTorch's do (a peak lower by up to all of
        # them), and a rule that raised left its node's intact (a second pass raises it
        # again).  (The SELECT nodes of a node with several outputs saved nothing.)
        if free and node._saves:
            node._release()
        # (a counter, not zip(): a zip, its two iterators and its tuples cost about 1,700
        # instructions a node, 13% of a chain's walk)
        i = -1
        for parent in parents:
            i += 1
            if parent is None:
                continue
            c = contributions[i]
            if c is None:
                continue
            k = parent.slot
            if k < remaining and index[k] is parent:  # (the parent's slot: see above)
                prev = cts[k]
                if prev is None:
                    cts[k] = c
                elif type(c) is ndarray and type(prev) is ndarray:
                    if k in owned and prev.shape == c.shape and prev.dtype == c.dtype:
                        _np_add(prev, c, out=prev)
                    else:
                        total = cts[k] = prev + c
                        if type(total) is ndarray:
                            owned.add(k)
                        else:  # 0-d arrays sum to a NumPy scalar
                            owned.discard(k)
                else:
                    cts[k] = _add(prev, c)
                    owned.discard(k)
            else:  # a leaf (or a node whose number is not its position here)
                key = id(parent)
                prev = get(key)
                if prev is None:  # (the first contribution without a call: most leaves')
                    table[key] = c
                elif key in owned_ids and type(c) is ndarray and type(prev) is ndarray \
                        and prev.shape == c.shape and prev.dtype == c.dtype:
                    _np_add(prev, c, out=prev)  # (_accumulate's usual case, without its call)
                else:
                    _accumulate(table, owned_ids, key, c, prev)
    return table


def _slots_of(parent, n, remaining, index, cts, table):
    """The list of ``n`` cotangent slots of ``parent``, a node with several outputs
    (created at its first SELECT node's turn)."""
    k = parent.slot
    if k < remaining and index[k] is parent:
        store, key = cts, k
        slots = cts[k]
    else:
        store, key = table, id(parent)
        slots = table.get(key)
    if slots is None:
        slots = store[key] = [None] * n
    return slots


def _accumulate(store, owned, key, c, prev):
    """``store[key] += c``, ``prev`` being ``store[key]`` or None: in place into a sum the
    walk computed (``key in owned``).  The walk's loop has this inline for the slots of
    nodes; leaves and seeds come here."""
    if prev is None:
        store[key] = c
    elif type(c) is ndarray and type(prev) is ndarray:
        if key in owned and prev.shape == c.shape and prev.dtype == c.dtype:
            _np_add(prev, c, out=prev)
        else:
            total = store[key] = prev + c
            if type(total) is ndarray:
                owned.add(key)
            else:  # 0-d arrays sum to a NumPy scalar
                owned.discard(key)
    else:
        store[key] = _add(prev, c)
        owned.discard(key)


# --- floating-point warnings raised by the rules --------------------------------------------
# A rule's arithmetic may warn ("divide by zero" in the derivative of sqrt at 0).  NumPy would
# name the kernel and point at funcgrad's own line; instead the warning names the node
# (PyTorch's grad_fn name, e.g. SqrtBackward0) and points at the user's line that ran the
# backward pass.  Only warnings the user's NumPy settings ask for ("warn") are rerouted:
# "ignore" and "raise" stay as the user set them.

_WALK_CODE = backpropagate.__code__


def _internal_dirs():
    """The folders of funcgrad, its kernels and NumPy (their frames are not the user's)."""
    return tuple(os.path.dirname(os.path.abspath(m.__file__)) + os.sep for m in (
        sys.modules.get(name) for name in ("funcgrad", "funcgrad.kernels", "numpy"))
        if m is not None and getattr(m, "__file__", None))


def _node_name(node):
    name = getattr(node, "name", None)
    if callable(name):
        return name()
    if getattr(getattr(node, "prim", None), "grad_fn_name", None) is None:
        return None
    return node_name(node)


def _warn_at_user_code(error, flag):
    """NumPy's error callback: re-issue ``error`` naming the node whose rule raised it,
    at the first frame outside funcgrad and NumPy."""
    frame, name, internal_dirs = sys._getframe(1), None, _internal_dirs()
    while frame is not None:
        code = frame.f_code
        program = code.co_filename == PROGRAM_FILE
        if name is None and (code is _WALK_CODE or program or code in NODE_CODES):
            name = _node_name(frame.f_locals.get("node"))
        if not program and not os.path.abspath(code.co_filename).startswith(internal_dirs):
            break
        frame = frame.f_back
    message = f"{error} encountered in the backward of {name or 'an operation'}"
    if frame is None:  # pragma: no cover - funcgrad called from nowhere
        warnings.warn(message, RuntimeWarning)
        return
    globs = frame.f_globals
    warnings.warn_explicit(message, RuntimeWarning, frame.f_code.co_filename, frame.f_lineno,
                           module=globs.get("__name__"),
                           registry=globs.setdefault("__warningregistry__", {}))


try:  # NumPy 2's error state is one object in a context variable (np.errstate sets it)
    from numpy._core._ufunc_config import (  # type: ignore[attr-defined]
        _extobj_contextvar, _make_extobj)
except ImportError:  # pragma: no cover - another NumPy: np.errstate on every walk
    _extobj_contextvar = _make_extobj = None

# (the user's error state seen last, the one the walk runs under then, or None: no "warn").
# Building it from np.geterr() and entering np.errstate cost about 3 us a gradient, more
# than a small function's whole backward step; the user's state rarely changes between
# gradients, and this pair (replaced whole, never mutated) remembers it.  Keeping the
# state object alive keeps its identity from being reused by another.
_walk_errstate = (None, None)


def _walk_state():
    """The NumPy error state the walk runs under: the user's, with each "warn" made a
    "call" of :func:`_warn_at_user_code`; None when the user's has no "warn"."""
    global _walk_errstate
    current = _extobj_contextvar.get()
    seen, state = _walk_errstate
    # (a walk inside a walk, a named node's, runs under the outer one's state: kept as
    # it is, not taken for the user's, which cost both walks a rebuild)
    if seen is not current and current is not state:
        modes = {kind: "call" for kind, mode in np.geterr().items() if mode == "warn"}
        state = _make_extobj(call=_warn_at_user_code, **modes) if modes else None
        _walk_errstate = (current, state)
    return state


def reported(walk):
    """``walk`` run as funcgrad's own code (the VJP rules are: their constants may move to
    a device, see :func:`funcgrad.core.internal`) and under :func:`_walk_state`'s error
    state.  One wrapper for both: each is a frame and an ``*args``/``**kwargs`` call of
    every gradient's fixed cost."""
    if _extobj_contextvar is None:  # pragma: no cover - another NumPy
        walk = internal(walk)

        @functools.wraps(walk)
        def walk_reporting_fp_errors(*args, **kwargs):
            modes = {kind: "call" for kind, mode in np.geterr().items() if mode == "warn"}
            if not modes:
                return walk(*args, **kwargs)
            with np.errstate(call=_warn_at_user_code, **modes):
                return walk(*args, **kwargs)
        return walk_reporting_fp_errors

    @functools.wraps(walk)
    def walk_reporting_fp_errors(*args, **kwargs):
        state = _walk_state()
        local = _state.__dict__  # (core.internal's work, in this frame)
        outer, local["internal"] = local["internal"], True
        token = None if state is None else _extobj_contextvar.set(state)  # np.errstate's
        try:
            return walk(*args, **kwargs)
        finally:
            local["internal"] = outer
            if token is not None:
                _extobj_contextvar.reset(token)
    return walk_reporting_fp_errors


backpropagate = reported(backpropagate)

"""The eager Tensor's backward pass: PyTorch's semantics on the shared backward engine.

The walk itself (accumulating cotangents, nodes with several outputs, instruments) is
:func:`funcgrad.interpreters.backprop.backpropagate`, the engine ``fg.grad`` uses too.
This module decides what it walks and adds the Tensor's semantics around it:

* **Which nodes.**  The nodes reachable from the outputs, in creation order (their
  sequence numbers), found without recursion, so a 10,000-operation chain is fine.
  With ``inputs=`` (and ``fg.autograd.grad``) only the nodes from which an input can
  be reached run.
* **Checks.**  Before a node runs, its saved values are checked: freed by an earlier
  pass without ``retain_graph``, or changed in place since (version counters).
* **Freeing.**  Without ``retain_graph`` each node frees its saved values once it ran.
* **The plain walk.**  A graph without hooks, retained grads or rules of the user's
  own (custom Functions), whose saved values are all intact, runs no code of the
  user's during the walk: its nodes are checked before it, the engine frees each at
  its turn (``free``), and walks without a callback a node.  Any other graph walks with a ``visit`` and a
  ``release`` a node, which check and free at the node's turn.
* **Where gradients go.**  Into the ``.grad`` of the leaves reached and of the
  non-leaves that called ``retain_grad()``, or, with targets, back to the caller.
* **create_graph.**  The caller runs the pass with gradients recorded and passes a
  ``rule`` that re-wraps the saved values as Tensors attached to the graph, so the
  rules' own operations are recorded (double backward).
"""
import threading
from operator import attrgetter, methodcaller
from typing import Any

import numpy as np
from numpy import ndarray

from ..core import Tracer
from ..interpreters.backprop import backpropagate, run_rule
from ..numpy._convert import asarray
from ..primitives import elementwise as ew
from . import hooks
from .graph import parent_of
from .values import TensorBase

__all__ = ["SCALAR_MESSAGE", "UNUSED_MESSAGE", "unused_message", "tensor_list",
           "roots_and_seeds", "input_edge", "backward_input_edges", "run", "reachable",
           "fit_gradient"]

SCALAR_MESSAGE = "grad can be implicitly created only for scalar outputs"
UNUSED_MESSAGE = ("One of the differentiated Tensors appears to not have been used in the "
                  "graph. Set allow_unused=True if this is the desired behavior.")


def unused_message(index):
    """PyTorch's error for input ``index`` of ``autograd.grad`` that no output uses.

    >>> unused_message(1)[:61]
    'The differentiated Tensor at index 1 appears to not have been'
    """
    return (f"The differentiated Tensor at index {index} appears to not have been used in "
            f"the graph. Set allow_unused=True if this is the desired behavior.")


def tensor_list(xs: Any, what: str) -> list[Any]:
    """``xs`` (a Tensor or a sequence of them) as a list; ``what`` names it in errors.

    >>> import funcgrad as fg
    >>> len(tensor_list(fg.Tensor(1.0), "inputs"))
    1
    """
    if isinstance(xs, TensorBase):
        return [xs]
    xs = list(xs)
    for x in xs:
        if not isinstance(x, TensorBase):
            raise TypeError(f"{what} must be Tensors (or a sequence of Tensors); got "
                            f"{type(x).__name__}")
    return xs


def roots_and_seeds(outputs, grad_outputs, create_graph, what):
    """The graph edges of ``outputs`` and the cotangent each starts with (``grad_outputs``
    or, for a one-element output, one).

    >>> import funcgrad as fg
    >>> y = fg.Tensor([2.0], requires_grad=True) * 3
    >>> roots, seeds = roots_and_seeds(y, None, False, "tensors")
    >>> roots[0][0] is y.grad_fn, seeds
    (True, [array([1.], dtype=float32)])
    """
    outputs = tensor_list(outputs, what)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    else:
        grad_outputs = list(grad_outputs) if isinstance(grad_outputs, (list, tuple)) \
            else [grad_outputs]
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"got {len(grad_outputs)} gradients for {len(outputs)} outputs: "
                           f"pass one gradient (or None) per output")
    roots, seeds = [], []
    for i, (t, g) in enumerate(zip(outputs, grad_outputs)):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               f"have a grad_fn")
        if g is None:
            if t.size != 1:
                raise RuntimeError(
                    f"{SCALAR_MESSAGE}: the output has shape {t.shape}. Reduce it first "
                    f"(e.g. .sum()), or pass gradient= (e.g. fg.ones(t.shape)).")
            if np.dtype(t.dtype).kind == "c":
                raise RuntimeError("grad can be implicitly created only for real scalar "
                                   "outputs: this one is complex. Differentiate a real "
                                   "quantity (z.abs() ** 2, z.real), or pass gradient=.")
            g = np.ones(t.shape, t.dtype)
        else:
            if isinstance(g, TensorBase):
                g = g if create_graph else g._storage.value
            elif not isinstance(g, Tracer):
                g = np.array(asarray(g))  # a copy: the user may modify theirs
            if tuple(g.shape) != t.shape:
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                                   f"{tuple(g.shape)} and output[{i}] has a shape of "
                                   f"{t.shape}.")
            if (np.dtype(g.dtype).kind == "c") != (np.dtype(t.dtype).kind == "c"):
                raise RuntimeError(  # a complex cotangent's imaginary part would be dropped
                    f"For complex Tensors, both grad_output and output are required to have "
                    f"the same dtype. Mismatch in dtype: grad_output[{i}] has a dtype of "
                    f"{np.dtype(g.dtype).name} and output[{i}] has a dtype of "
                    f"{np.dtype(t.dtype).name}; pass a gradient of the output's dtype")
            if g.dtype != t.dtype:
                g = g.astype(t.dtype)
            if np.dtype(t.dtype).kind == "c":
                g = ew.conj(g)  # PyTorch's convention, see fit_gradient
        roots.append(t._edge())
        seeds.append(g)
    return roots, seeds


def input_edge(t):
    """The graph edge whose gradient is ``t``'s (``t`` must require grad).

    >>> import funcgrad as fg
    >>> input_edge(fg.Tensor(1.0, requires_grad=True))
    (<AccumulateGrad>, 0)
    """
    if not t._requires_grad:
        raise RuntimeError("One of the differentiated Tensors does not require grad")
    return t._edge()


def backward_input_edges(inputs):
    """The graph edges of ``backward(inputs=...)``; a non-leaf among the inputs retains
    its grad, as PyTorch makes it: its ``.grad`` gets the gradient after its hooks, once.

    >>> import funcgrad as fg
    >>> x = fg.Tensor([1.0], requires_grad=True)
    >>> y = x * 2
    >>> _ = backward_input_edges([x, y]); y.retains_grad
    True
    """
    for t in inputs:
        if t.grad_fn is not None:
            t.retain_grad()
    return [input_edge(t) for t in inputs]


def run(roots, seeds, retain_graph, targets=None, rule=None, shortcuts=True,
        accumulate=None, make=None):
    """Propagate ``seeds`` back from graph edges ``roots`` (see the module docstring).

    With ``targets=None``: returns ``[(tensor, gradient)]`` for every leaf reached and
    every non-leaf that retains its grad.  Otherwise only the nodes that lead to the
    target edges run, and ``{edge: gradient}`` is returned for the targets reached.
    ``rule`` replaces the VJP call (create_graph); ``shortcuts=False`` keeps the rules'
    plain form.  Hooks (:mod:`funcgrad.eager.hooks`) run on the way; a leaf with hooks
    gets its gradient through ``accumulate(tensor, gradient)`` as soon as it is
    complete (without targets), instead of in the list returned; ``make(array, False)``
    wraps the gradients hooks get as Tensors.  With targets, each non-leaf on the way to
    them that retains its grad gets it through ``accumulate`` (as PyTorch fills their
    ``.grad`` in ``autograd.grad`` too).

    >>> import numpy as np, funcgrad as fg
    >>> x = fg.Tensor([3.0], requires_grad=True)
    >>> y = x * x
    >>> [(t is x, g) for t, g in run([y._edge()], [np.ones(1)], retain_graph=False)]
    [(True, array([6.], dtype=float32))]
    """
    starts = [parent_of(fn, nr) for fn, nr in roots]
    nodes, leaves = reachable(starts)
    # The walk's numbers (each node's position in ``nodes``: see backprop.backpropagate),
    # handed out while no other walk may change them: a walk that finds the lock taken
    # (another thread's, or one inside a hook of this walk) runs unnumbered.
    numbered = _numbering.acquire(blocking=False)
    try:
        return _run(nodes, leaves, starts, seeds, retain_graph, targets, rule, shortcuts,
                    accumulate, make, numbered)
    finally:
        if numbered:
            _numbering.release()


_numbering = threading.Lock()


def _run(nodes, leaves, starts, seeds, retain_graph, targets, rule, shortcuts, accumulate,
         make, numbered):
    # One pass over the nodes: their numbers, whether any has hooks, a retained grad or a
    # rule of the user's own (a custom Function's), and whether what they saved is intact.
    node_hooks = instrumented = damaged = False
    k = 0
    for node in nodes:
        if numbered:
            node.slot = k
            k += 1
        if node._hooks is not None:
            node_hooks = instrumented = True
        elif node._retained is not None or (
                node.params is not None and node.prim.reverse_fwd is not None):
            instrumented = True
        if node._saves and not (damaged or instrumented):  # (the plain walk's checks)
            try:
                node._check_saved()
            except Exception:
                damaged = True  # (the general walk raises it, at the node's turn)
    hooked = [acc for acc in leaves if hooks.leaf_hooks(acc.variable) is not None]
    if not (instrumented or damaged or hooked or rule is not None) and (
            targets is None or _all_leaves_targeted(leaves, targets)):
        return _run_plain(nodes, leaves, starts, seeds, retain_graph, targets, shortcuts,
                          numbered)
    found = []
    if targets is not None:
        target_set = set(targets)
        hooked = [acc for acc in hooked if (acc, 0) in target_set]
    runner = None
    if hooked or node_hooks:
        runner = hooks.Runner(nodes, hooked, rule is not None,
                              accumulate if targets is None else None, make)
    if targets is None:
        def visit(node, g):
            if node._hooks is not None:
                return _visit_hooked(runner, node, g, found)
            retained = node._retained
            if retained:
                _collect_retained(node, g, retained, found)
            if node._saves:  # (a node that saved no values was never freed nor changed)
                node._check_saved()
            return True
    else:
        wanted = {}
        for fn, nr in targets:
            if fn.prim is not None:
                wanted.setdefault(fn, []).append(nr)
        runs = _leading_to({fn for fn, _ in targets}, nodes)
        captured = {}

        def visit(node, g):
            nrs = wanted.get(node)
            if nrs is not None:
                if node not in runs:  # PyTorch's capture: a target whose node does not
                    # run gets its Tensors' hooks and retain_grad before it is captured
                    if node._hooks is not None:
                        g = runner.tensor_hooks(node, g)
                    if node._retained:
                        _collect_retained(node, g, node._retained, found)
                for nr in nrs:
                    captured[(node, nr)] = g[nr] if node.prim.multiple_results else g
            if node not in runs:
                return False
            if node._hooks is not None:
                return _visit_hooked(runner, node, g, found)
            if node._retained:
                _collect_retained(node, g, node._retained, found)
            if node._saves:
                node._check_saved()
            return True
    if runner is not None and runner.wraps_rule:
        rule = runner.rule(rule or run_rule)
        shortcuts = False
    table = backpropagate(nodes, list(zip(starts, seeds)), rule=rule, visit=visit,
                          release=None if retain_graph else _release,
                          shortcuts=shortcuts, numbered=numbered)
    if runner is not None:
        runner.finish(table)
    if targets is None:
        for acc in leaves:
            g = table.get(id(acc))
            if g is not None:
                found.append((acc.variable, g))
        return found
    for acc in leaves:
        if (acc, 0) in target_set:
            g = table.get(id(acc))
            captured[(acc, 0)] = runner.done.get(acc, g) if runner is not None else g
    for t, g in found if accumulate is not None else ():
        accumulate(t, g)
    return captured


def _all_leaves_targeted(leaves, targets):
    """Whether every target is a leaf and every leaf reached a target: then every node
    reached leads to a target (each has a parent that requires grad), and runs."""
    target_set = set(targets)
    for fn, _ in targets:
        if fn.prim is not None:
            return False
    for acc in leaves:
        if (acc, 0) not in target_set:
            return False
    return True


def _run_plain(nodes, leaves, starts, seeds, retain_graph, targets, shortcuts, numbered):
    """:func:`_run` of a graph without hooks, retained grads, user rules or damaged saved
    values (checked by the caller): the engine's walk without a ``visit`` or ``release``
    call a node, each node's saved values freed by the engine at its turn (``free``).
    Nothing the walk runs can change a saved value (no user code runs), so checking them
    all first raises what checking each at its turn would; a graph that fails the check
    takes the general walk, which raises at the node's turn.  If a rule raises, the
    nodes that ran are freed and the others are not, as in PyTorch: a second pass
    through the node that raised raises its error again; one through a node that ran
    raises the freed-graph error."""
    table = backpropagate(nodes, list(zip(starts, seeds)), free=not retain_graph,
                          shortcuts=shortcuts, numbered=numbered)
    if targets is None:
        found = []
        for acc in leaves:
            g = table.get(id(acc))
            if g is not None:
                found.append((acc.variable, g))
        return found
    return {(acc, 0): table.get(id(acc)) for acc in leaves}


def _visit_hooked(runner, node, g, found):
    """Before a node with hooks runs: the hooks of the Tensors it produced, then
    ``retain_grad`` (which keeps what those hooks returned), then the node's pre-hooks;
    returns the cotangent the node runs with, as the engine's ``visit`` protocol says.
    Saved values given to pack/unpack hooks are unpacked here."""
    if node._hooks.saved:
        node._check_saved()
        hooks.unpack_into(node)
    g = runner.tensor_hooks(node, g)
    retained = node._retained
    if retained and found is not None:
        _collect_retained(node, g, retained, found)
    node._check_saved()
    if node._hooks.pre:
        g = runner.pre_hooks(node, g)
    return (g,)


def reachable(starts):
    """The nodes reachable from ``starts``, in creation order, and the leaves reached.

    >>> import funcgrad as fg
    >>> x = fg.Tensor(1.0, requires_grad=True)
    >>> reachable([(x * 2).grad_fn])
    ([<MulBackward0>], [<AccumulateGrad>])
    """
    nodes, leaves = [], []
    # (None, an input that needs no cotangent, counts as seen; a node's parents go on
    # the stack in one C call, the seen ones skipped when popped: a Python loop over
    # each node's parents cost about a fifth of the walk.  The order nodes are first
    # popped in, hence the leaves' order, is the same.)
    seen = {None}
    stack = list(starts)
    pop, push, see = stack.pop, stack.extend, seen.add
    while stack:
        fn = pop()
        if fn in seen:
            continue
        see(fn)
        if fn.prim is None:  # AccumulateGrad
            leaves.append(fn)
            continue
        nodes.append(fn)
        push(fn.parents)
    nodes.sort(key=_seq_of)
    return nodes, leaves


# (a method call: named nodes free their inner nodes; methodcaller calls it from C, a
# Python function around it cost a frame a node)
_release = methodcaller("_release")


_seq_of = attrgetter("_seq")  # (a C call: a Python function cost a frame a node)


def _leading_to(needed, nodes):
    """The nodes (in creation order) from which one of ``needed`` can be reached."""
    needed = set(needed)
    runs = set()
    for node in nodes:
        for parent in node.parents:
            if parent is not None and parent in needed:
                needed.add(node)
                runs.add(node)
                break
    return runs


def _collect_retained(node, g, retained, found):
    multiple = node.prim.multiple_results
    for nr, ref in retained.items():
        t = ref()
        gk = g[nr] if multiple else g
        if t is not None and gk is not None:
            found.append((t, gk))


def fit_gradient(t, g):
    """``g`` with ``t``'s shape and dtype (the rules already give that; seeds may not).

    >>> import numpy as np, funcgrad as fg
    >>> fit_gradient(fg.Tensor(np.zeros((2, 2), np.float32)), np.ones(2))
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    value = t._storage.value
    if (type(g) is ndarray and type(value) is ndarray and g.shape == value.shape
            and g.dtype == value.dtype and g.dtype.kind != "c"):
        return g  # (nearly every gradient: what the checks below come to, without them)
    if tuple(g.shape) != t.shape:
        g = ew.add(g, np.zeros(t.shape, t.dtype))
    if g.dtype != t.dtype:
        g = g.astype(t.dtype)
    if np.dtype(t.dtype).kind == "c":
        # The engine runs JAX's rules, whose gradient of a real loss is dL/dx - i dL/dy;
        # PyTorch's .grad is its conjugate, dL/dx + i dL/dy (and a complex gradient= seed
        # is conjugated on the way in, so the pair stays each other's transpose).
        g = ew.conj(g)
    return g

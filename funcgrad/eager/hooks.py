"""Backward hooks on the eager Tensor's graph, run in PyTorch's order.

* ``t.register_hook(fn)``: ``fn(grad)`` runs when ``t``'s gradient has been computed
  and may return a replacement.  On a non-leaf the hook belongs to ``t.grad_fn`` (for
  ``t``'s output number) and runs before that node's pre-hooks; ``retain_grad()``
  keeps the gradient after every such hook.  On a leaf it runs before the gradient is
  added into ``.grad``.
* ``t.register_post_accumulate_grad_hook(fn)`` (leaves): ``fn(t)`` after ``.grad`` was
  updated.
* ``node.register_prehook(fn)``: ``fn(grad_outputs)`` before the node runs;
  ``node.register_hook(fn)``: ``fn(grad_inputs, grad_outputs)`` after it ran.  Both
  may return replacement tuples.

A leaf's hooks run as soon as its gradient is complete (after the last node feeding
it ran), as PyTorch's engine runs an ``AccumulateGrad`` node as soon as it is ready.
Hooks get and return Tensors; each registration returns a :class:`RemovableHandle`.

>>> import funcgrad as fg
>>> x = fg.Tensor([1.0, 2.0], requires_grad=True)
>>> y = x * 2
>>> h = y.register_hook(lambda g: g * 10)
>>> y.sum().backward()
>>> x.grad
tensor([20., 20.])
"""
import itertools
import weakref

import numpy as np

from ..instruments import check_unpacked
from .values import TensorBase

__all__ = ["OUTPUT", "unpack_into", "RemovableHandle", "HookDict", "NodeHooks", "hooks_of", "leaf_hooks",
           "register_tensor_hook", "register_post_accumulate_hook", "Runner"]


OUTPUT = "output"  # a node's output, where a position names a saved input


class HookDict(dict):
    """``{handle id: hook}`` in registration order (weakly referenceable)."""

    __slots__ = ("__weakref__",)


class RemovableHandle:
    """What registering a hook returns: ``handle.remove()`` unregisters it (also as a
    context manager, on exit).

    >>> table = HookDict()
    >>> h = RemovableHandle(table, print)
    >>> len(table), (h.remove(), len(table))[1]
    (1, 0)
    """

    _ids = itertools.count()

    def __init__(self, table, fn):
        self.id = next(RemovableHandle._ids)
        table[self.id] = fn
        self._table = weakref.ref(table)

    def remove(self):
        """Unregister the hook (a second call does nothing)."""
        table = self._table()
        if table is not None:
            table.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class NodeHooks:
    """A node's hooks: ``pre`` and ``post`` (node hooks), ``tensor`` (``{output number:
    HookDict}``, the hooks of the Tensors it produced), ``metadata`` and ``saved``
    (``{position: (unpack hook, packed)}``, from ``node._raw_saved_*.register_hooks``)."""

    __slots__ = ("pre", "post", "tensor", "metadata", "saved")

    def __init__(self):
        self.pre = HookDict()
        self.post = HookDict()
        self.tensor = {}
        self.metadata = {}
        self.saved = {}


def hooks_of(node):
    """``node``'s :class:`NodeHooks`, created on first use."""
    h = node._hooks
    if h is None:
        h = node._hooks = NodeHooks()
    return h


def leaf_hooks(t):
    """The ``(grad hooks, post-accumulate hooks)`` of leaf ``t``, or None."""
    return getattr(t, "_hooks", None)


def register_tensor_hook(t, fn):
    """``t.register_hook(fn)`` (see the module docstring)."""
    if not t._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient"
                           "; set requires_grad=True on the leaf it comes from first")
    if t.grad_fn is None:
        hooks = leaf_hooks(t)
        if hooks is None:
            hooks = t._hooks = (HookDict(), HookDict())
        return RemovableHandle(hooks[0], fn)
    table = hooks_of(t.grad_fn).tensor.setdefault(t._output_nr, HookDict())
    return RemovableHandle(table, fn)


def register_post_accumulate_hook(t, fn):
    """``t.register_post_accumulate_grad_hook(fn)`` (leaves only)."""
    if t.grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                           "tensors; register it on the leaf, or use register_hook")
    if not t._requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    hooks = leaf_hooks(t)
    if hooks is None:
        hooks = t._hooks = (HookDict(), HookDict())
    return RemovableHandle(hooks[1], fn)


def _check(fn, old, new):
    """PyTorch's checks on what a hook returned."""
    if not hasattr(new, "shape"):  # (a number, a list: PyTorch's TypeError, not a crash)
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}': "
                        f"a hook returns a Tensor (the new gradient) or None")
    if tuple(new.shape) != tuple(old.shape):
        raise RuntimeError(f"hook '{getattr(fn, '__name__', fn)}' has changed the size of "
                           f"value: {tuple(old.shape)} became {tuple(new.shape)}")
    if new.dtype != old.dtype:
        raise RuntimeError(f"hook '{getattr(fn, '__name__', fn)}' has changed the type of "
                           f"value (was {np.dtype(old.dtype).name} got "
                           f"{np.dtype(new.dtype).name}); return g.to(g.dtype)")


def _counted(fn, new, old):
    """What a node hook returned, one value per slot of ``old`` (the values it was
    given).  Slots may be left off or added only where no gradient flows (None): funcgrad
    gives constant arguments a slot where PyTorch may not (``x ** 2``); a gradient
    left off raises PyTorch's error instead of vanishing."""
    new = (new,) if isinstance(new, TensorBase) else tuple(new)
    n, expected = len(new), len(old)
    if n < expected and all(g is None for g in old[n:]):
        return new + (None,) * (expected - n)
    if n > expected and all(g is None for g in new[expected:]):
        return new[:expected]
    if n != expected:
        raise RuntimeError(f"hook '{getattr(fn, '__name__', fn)}' has returned an incorrect "
                           f"number of values (got {n}, but expected {expected}); return a "
                           f"tuple with one entry per slot (None where there is no "
                           f"gradient), or None to keep them")
    return new


class Runner:
    """The hooks of one backward pass.  ``recorded``: the pass records (create_graph),
    so gradients stay Tensors; ``accumulate(t, g)`` adds a leaf's gradient into its
    ``.grad`` (None: the pass returns gradients instead); ``make(array, False)``
    wraps a gradient as the Tensor a hook gets."""

    def __init__(self, nodes, leaves, recorded, accumulate, make):
        self._Tensor, self._make = TensorBase, make
        self.recorded = recorded
        self.accumulate = accumulate
        self.post = any(n._hooks is not None and n._hooks.post for n in nodes)
        self.pending = {}  # hooked leaf -> [consumers left, gradient so far]
        for acc in leaves:
            if leaf_hooks(acc.variable) is not None:
                self.pending[acc] = [0, None]
        if self.pending:
            for n in nodes:
                for parent in n.parents:  # (None, an argument without one, is no key)
                    entry = self.pending.get(parent)
                    if entry is not None:
                        entry[0] += 1
        self.done = {}  # leaf -> its gradient after its hooks (when not accumulated)

    @property
    def wraps_rule(self):
        """Whether the rules must run through :meth:`rule` (post hooks, hooked leaves)."""
        return self.post or bool(self.pending)

    def wrap(self, g):
        """``g`` as the Tensor a hook gets."""
        if g is None or isinstance(g, self._Tensor):
            return g
        return self._make(np.asarray(g), False)

    def unwrap(self, t):
        """A hook's Tensor as the engine's value."""
        if t is None or self.recorded or not isinstance(t, self._Tensor):
            return t
        return t._storage.value

    def _apply(self, table, g):
        for fn in list(table.values()):
            new = fn(self.wrap(g))
            if new is not None:
                _check(fn, g, new)
                g = self.unwrap(new)
        return g

    def tensor_hooks(self, node, g):
        """``g`` after the hooks of the Tensors ``node`` produced."""
        if node.prim.multiple_results:
            g = list(g)
            for nr, table in node._hooks.tensor.items():
                if table and g[nr] is not None:
                    g[nr] = self._apply(table, g[nr])
            return g
        table = node._hooks.tensor.get(0)
        return self._apply(table, g) if table else g

    def pre_hooks(self, node, g):
        """``g`` after ``node``'s pre-hooks."""
        multiple = node.prim.multiple_results
        for fn in list(node._hooks.pre.values()):
            outs = tuple(self.wrap(x) for x in (g if multiple else (g,)))
            new = fn(outs)
            if new is not None:
                new = [self.unwrap(x) for x in _counted(fn, new, outs)]
                g = new if multiple else new[0]
        return g

    def rule(self, base):
        """``base`` (a rule ``(node, g, value, args) -> contributions``) with the post
        hooks and the hooked leaves' bookkeeping around it."""
        def rule(node, g, value, args):
            contributions = base(node, g, value, args)
            hooks = node._hooks
            if hooks is not None and hooks.post:
                outs = tuple(self.wrap(x) for x in (g if node.prim.multiple_results
                                                    else (g,)))
                ins = tuple(self.wrap(c) for c in contributions)
                for fn in list(hooks.post.values()):
                    new = fn(ins, outs)
                    if new is not None:
                        ins = _counted(fn, new, ins)
                contributions = [self.unwrap(c) for c in ins]
            if self.pending:
                contributions = list(contributions)
                for i, parent in enumerate(node.parents):
                    entry = self.pending.get(parent)
                    if entry is None:
                        continue
                    c = contributions[i]
                    contributions[i] = None
                    if c is not None:
                        entry[1] = c if entry[1] is None else entry[1] + c
                    entry[0] -= 1
                    if entry[0] == 0:
                        self.fire(parent)
            return contributions
        return rule

    def fire(self, acc):
        """Run a leaf's hooks on its complete gradient, then accumulate it."""
        _, g = self.pending.pop(acc)
        if g is None:
            return
        t = acc.variable
        g = self._apply(leaf_hooks(t)[0], np.asarray(g) if not self.recorded and
                        not isinstance(g, self._Tensor) else g)
        if self.accumulate is not None:
            self.accumulate(t, g)
        else:
            self.done[acc] = g

    def finish(self, table):
        """Fire the leaves whose last consumer did not run (``table``: the engine's
        cotangents, where a leaf that was itself a root has its seed)."""
        for acc, entry in list(self.pending.items()):
            seed = table.pop(id(acc), None)
            if seed is not None:
                entry[1] = seed if entry[1] is None else entry[1] + seed
            self.fire(acc)


def run_post_accumulate(t):
    """Run leaf ``t``'s post-accumulate hooks (after its ``.grad`` was updated)."""
    hooks = leaf_hooks(t)
    if hooks is not None:
        for fn in list(hooks[1].values()):
            if fn(t) is not None:  # (PyTorch's rule: such a hook acts on t, e.g. t.grad)
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def unpack_into(node):
    """Replace the node's saved values by what their unpack hooks return (before its
    rule runs)."""
    args = list(node.args)
    for position, (unpack, packed) in node._hooks.saved.items():
        old = node.value if position == OUTPUT else args[position]
        v = check_unpacked(unpack(packed), getattr(old, "shape", None))
        v = v._storage.value if hasattr(v, "_storage") else np.asarray(v)
        if position == OUTPUT:
            node.value = v
        else:
            args[position] = v
    node.args = tuple(args)

"""The eager Tensor's graph: the nodes that record operations, and what they save.

A :class:`Node` is the ``grad_fn`` of the Tensors an operation produced; an
:class:`AccumulateGrad` stands for a leaf that requires grad.  Both are graph nodes in
the sense of the backward engine (:mod:`funcgrad.interpreters.backprop`): ``parents``
holds, for each argument, the node its cotangent goes to (None: it needs none).  An argument that is
output ``k`` of an operation with several outputs points at a :class:`Select` of that
node (the engine's way of filling one slot of a multi-output node).

Nodes are numbered in creation order (``_seq``), so sorting the nodes a backward pass
reaches by number gives a topological order.
"""
import itertools

import numpy as np

from ..core import ShapedArray, node_name
from ..errors import FREED_MESSAGE
from ..interpreters.backprop import SELECT, UNNUMBERED
from .hooks import RemovableHandle, hooks_of

__all__ = ["shaped", "Storage", "Node", "AccumulateGrad", "Select", "parent_of", "FREED_MESSAGE",
           "CREATE_GRAPH_WARNING", "node_type"]

# PyTorch's warning (its wording) for backward(create_graph=True): .grad then holds a graph
# that reaches the leaf itself
CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak.")

_seq = itertools.count()



class Storage:
    """The value a Tensor shows, shared with its ``.data`` and ``.detach()`` views, and
    the version counter its in-place updates bump.  ``base``: for the value of a view
    (``x[0]``, ``x.t()``...), ``(root, replay, view)``: the Tensor it is a view of, how to
    compute it from that, and (weakly) the view; ``views``: weak references to the
    storages of the views of this value (:mod:`funcgrad.eager.views`)."""

    __slots__ = ("value", "version", "base", "views", "__weakref__")

    def __init__(self, value):
        self.value = value
        self.version = 0
        self.base = None
        self.views = None


def shaped(x):
    """What a rule that reads only shapes needs of ``x``: its shape and dtype (numbers
    stay as they are).

    >>> shaped(np.ones((2, 3)))
    f64[2,3]
    """
    if isinstance(x, (bool, int, float, complex)) or x is None:
        return x
    aval = object.__new__(ShapedArray)
    aval.shape = tuple(x.shape)
    aval.dtype = x.dtype
    aval.weak = False
    return aval


SELF = object()  # in Node._versions: "an output of this node"


class Node:
    """A recorded operation: the ``grad_fn`` of the Tensors it produced.

    ``prim``, ``params``, ``args`` (the input values the VJP rule gets), ``value``
    (the output, a tuple for several outputs), ``needs`` (which inputs want a
    cotangent), ``parents`` and ``meta`` are what the backward engine and funcgrad's
    debugging tools read (:mod:`funcgrad.instruments`); ``next_functions`` pairs each
    input with the node it came from, as in PyTorch.

    >>> import funcgrad as fg
    >>> x = fg.Tensor(2.0, requires_grad=True)
    >>> y = x * x
    >>> y.grad_fn, y.grad_fn.name()
    (<MulBackward0>, 'MulBackward0')
    >>> y.grad_fn.next_functions
    ((<AccumulateGrad>, 0), (<AccumulateGrad>, 0))
    """

    __slots__ = ("prim", "params", "args", "value", "needs", "meta", "parents", "_versions",
                 "_seq", "_n_out", "_saves", "_freed", "_retained", "_shown", "_hooks",
                 "_name", "slot", "__weakref__")

    def __init__(self, prim, params, args, value, needs, parents, versions, n_out):
        self.prim = prim
        self.params = params
        self.args = args
        self.value = value
        self.needs = needs
        self.meta = None
        self.parents = parents
        self._versions = versions
        self._seq = next(_seq)
        self.slot = UNNUMBERED  # (the backward walk's number for it: eager.walk.run)
        self._n_out = n_out
        self._saves = versions is not None  # holds values a second pass would need
        self._freed = False
        self._retained = None  # {output number: weakref to a Tensor that retains its grad}
        self._shown = None  # while tools look at a new node: (its inputs, its outputs)
        self._hooks = None  # eager.hooks.NodeHooks once a hook or metadata is asked for
        self._name = None  # a name read from the saved values, kept when they are freed

    def name(self):
        """PyTorch-style name, e.g. ``"MulBackward0"``.

        >>> import funcgrad as fg
        >>> (fg.Tensor([1.0], requires_grad=True).sum()).grad_fn.name()
        'SumBackward0'
        """
        rule = self.params.get("rule") if self.params else None
        if rule is not None and getattr(rule, "name", None):  # custom Function / custom_vjp
            return rule.name.split(".")[0] + "Backward"
        return self._name or node_name(self)

    def register_hook(self, fn):
        """Run ``fn(grad_inputs, grad_outputs)`` after this node computed the gradients
        of its inputs (tuples of Tensors, None where an input needs none); a returned
        tuple replaces ``grad_inputs``.  Returns a handle with ``.remove()``.

        >>> import funcgrad as fg
        >>> x = fg.Tensor([1.0], requires_grad=True)
        >>> y = x * 3
        >>> h = y.grad_fn.register_hook(lambda gi, go: (gi[0] * 100, None))
        >>> y.sum().backward()
        >>> x.grad
        tensor([300.])
        """
        return RemovableHandle(hooks_of(self).post, fn)

    def register_prehook(self, fn):
        """Run ``fn(grad_outputs)`` before this node runs (after the hooks of the
        Tensors it produced); a returned tuple replaces ``grad_outputs``.

        >>> import funcgrad as fg
        >>> x = fg.Tensor([1.0], requires_grad=True)
        >>> y = x * 3
        >>> h = y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
        >>> y.sum().backward()
        >>> x.grad
        tensor([6.])
        """
        return RemovableHandle(hooks_of(self).pre, fn)

    @property
    def metadata(self):
        """A dict for the user's own notes about this node (empty at first).

        >>> import funcgrad as fg
        >>> (fg.Tensor([1.0], requires_grad=True) * 2).grad_fn.metadata
        {}
        """
        return hooks_of(self).metadata

    @property
    def grad_fn_name(self):
        """:meth:`name`, as debugging tools show this node (``instruments.op_name``)."""
        return self.name()

    def show_residual(self, position):
        """A residual as a tool sees it when the node is recorded: the input Tensor
        itself (``position`` an index), or a Tensor showing the output
        (``instruments.OUTPUT``), as PyTorch hands them to saved-tensor hooks."""
        if self._shown is None:  # after recording: the saved values themselves
            return self.value if position == "output" else self.args[position]
        inputs, outputs = self._shown
        if position == "output":
            return outputs[0].detach()  # not the output itself: no node -> Tensor cycle
        a = inputs[position]
        return a if hasattr(a, "_storage") else self.args[position]

    @staticmethod
    def rule_value(value):
        """The array a rule computes with, for a residual a tool handed back (a Tensor
        or an array)."""
        storage = getattr(value, "_storage", None)
        return value if storage is None else storage.value

    @property
    def next_functions(self):
        """``((node, output_nr), ...)``, one pair per input; ``(None, 0)`` for an input
        that needs no gradient."""
        return tuple((None, 0) if parent is None else parent._edge()
                     for parent in self.parents)

    def _edge(self):
        """``(self, 0)``: how PyTorch names the first output of this node."""
        return (self, 0)

    def __repr__(self):
        return f"<{self.name()}>"

    def _release(self):
        """Free the saved values (after a backward pass without retain_graph)."""
        if not self._saves:  # shapes or Python numbers only: nothing to free, as in PyTorch
            return
        if type(self.prim.grad_fn_name) is not str:  # (power's name reads its arguments)
            self._name = node_name(self)
        self.args = None
        self.value = None
        # (its storages hold the same arrays: kept, they would keep every saved value
        # alive until the graph goes; a freed node's check raises before reading them)
        self._versions = ()
        self._freed = True
        ctx = self.params.get("residuals") if self.params else None
        if hasattr(ctx, "_release_saved"):  # a Function's ctx: what it saved
            ctx._release_saved()

    def _check_saved(self):
        """Raise PyTorch's errors if the values this node saved were freed by an earlier
        backward pass or changed in place since it was recorded."""
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        for storage, version, producer, nr in self._versions or ():
            if storage.version != version:
                value = storage.value
                what = f"[{np.dtype(value.dtype).name} tensor of shape {list(value.shape)}]"
                if producer is SELF:
                    producer = self
                if producer is not None:
                    what += f", which is output {nr} of {producer.name()},"
                raise RuntimeError(
                    f"one of the variables needed for gradient computation has been modified "
                    f"by an inplace operation: {what} is at version {storage.version}; "
                    f"expected version {version} instead. Hint: it was saved by "
                    f"{self.name()}; modify a copy (t.clone()) instead, or run the backward "
                    f"pass before the in-place update.")


def node_type(name):
    """A new subclass of :class:`Node` called ``name``, for the nodes of one custom
    ``Function``: PyTorch gives each Function subclass ``MyExp`` a node class
    ``MyExpBackward``, and users check ``type(y.grad_fn).__name__``.  The tape records
    the Function's call as an instance of it (a Node's layout, no slots of its own): the
    backward walk, the hooks and ``isinstance(node, Node)`` see a Node.

    >>> t = node_type("MyExpBackward")
    >>> t.__name__, issubclass(t, Node)
    ('MyExpBackward', True)
    """
    return type(name, (Node,), {"__slots__": (), "__module__": __name__, "__doc__":
                                f"The node a custom Function records ({name})."})


class AccumulateGrad:
    """The graph node of a leaf Tensor that requires grad: backward adds into its
    ``.grad``.  ``variable`` is the leaf.

    >>> import funcgrad as fg
    >>> w = fg.Tensor([1.0], requires_grad=True)
    >>> (w * 2).grad_fn.next_functions[0][0].variable is w
    True
    """

    __slots__ = ("variable", "__weakref__")
    prim = None  # a leaf: the engine never runs it
    parents = ()
    slot = UNNUMBERED
    next_functions = ()
    _seq = -1

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        """``"torch::autograd::AccumulateGrad"``, PyTorch's name for this node (its type
        is :class:`AccumulateGrad`).

        >>> import funcgrad as fg
        >>> w = fg.Tensor([1.0], requires_grad=True)
        >>> (w * 2).grad_fn.next_functions[0][0].name()
        'torch::autograd::AccumulateGrad'
        """
        return "torch::autograd::AccumulateGrad"

    def _edge(self):
        """``(self, 0)``, as for a node."""
        return (self, 0)

    def __repr__(self):
        return "<AccumulateGrad>"


class Select:
    """Output ``k`` of a node with several outputs, as a node of its own: the engine puts
    its cotangent into slot ``k`` of that node's cotangents (see
    :mod:`funcgrad.interpreters.backprop`)."""

    __slots__ = ("args", "parents", "_seq", "slot")
    prim = SELECT
    _hooks = None
    _retained = None  # (what the backward walk asks every node: see eager.walk._run)
    params = None
    _saves = False

    def __init__(self, node, k):
        self.args = (k, node._n_out)
        self.parents = (node,)
        self._seq = next(_seq)  # after its node, before whatever uses this output
        self.slot = UNNUMBERED

    def _edge(self):
        """``(node, k)``: the PyTorch name of this output."""
        return (self.parents[0], self.args[0])


def parent_of(fn, nr):
    """The node that output ``nr`` of ``fn`` sends its cotangent through: ``fn`` itself,
    or a :class:`Select` when ``fn`` has several outputs.

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> a, b = fnp.split(fg.Tensor([1.0, 2.0], requires_grad=True), 2)
    >>> parent_of(b.grad_fn, 1)._edge() == (b.grad_fn, 1)
    True
    """
    prim = fn.prim
    if prim is not None and prim.multiple_results:
        return Select(fn, nr)
    return fn

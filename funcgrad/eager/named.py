"""One node under PyTorch's name for an operation funcgrad composes from primitives.

``x.mean()`` is ``reduce_sum`` then ``divide`` in funcgrad, but PyTorch users expect one
node, ``MeanBackward0``, whose ``next_functions`` lead straight to ``x``.  A Tensor
method that composes primitives runs them through :func:`record_as`, which records
them as usual -- each keeps its own VJP rule, saves only what that rule reads, and is
seen by the debugging tools -- on *entry* Tensors standing for the inputs, and then
files the little graph they made under one :class:`Named` node (the result's
``grad_fn``).  The backward engine runs that node like any other; its rule is the
walk of the inner nodes, from the result back to the entries.

With ``create_graph=True`` the node's rule instead runs the composition again on the
Tensors the engine attached to the graph and differentiates that with
:func:`funcgrad.eager.grad`, so second derivatives flow through the outer graph exactly.

The names are declared where the methods are defined (``MEAN = Named("mean",
"MeanBackward0")``): the primitives keep their own ``grad_fn_name``, and no table maps
strings to primitives.
"""
import weakref

from ..core import _state
from ..interpreters.backprop import backpropagate
from .graph import AccumulateGrad, Node, Select, Storage, shaped
from .record import _record
from .tensor import Tensor, grad
from .views import unview
from .walk import reachable

__all__ = ["Named", "SavesOutput", "record_as", "record_saving_output", "record_same"]

_new = object.__new__


class Named:
    """The ``prim`` of a node that stands for several recorded operations under
    PyTorch's name.  ``name`` is what tools show; ``grad_fn_name`` the node's name.

    >>> import funcgrad as fg
    >>> MEAN = Named("mean", "MeanBackward0")
    >>> x = fg.Tensor([1.0, 3.0], requires_grad=True)
    >>> y = record_as(MEAN, lambda t: t.sum() / 2, x)
    >>> y, y.grad_fn.next_functions
    (tensor(2., grad_fn=<MeanBackward0>), ((<AccumulateGrad>, 0),))
    """

    multiple_results = False
    differentiable = True
    vjp_into = None
    vjp_plain = None  # (the backward walk then calls vjp)
    reverse_fwd = None
    elementwise = None

    def __init__(self, name, grad_fn_name):
        self.name = name
        self.grad_fn_name = grad_fn_name

    def __repr__(self):
        return self.grad_fn_name

    @staticmethod
    def vjp(needs, g, out, *args, inner):
        """The cotangents of the inputs: the inner graph walked back from the result."""
        return inner.backward(g, args)


class _Inner:
    """The recorded composition: its nodes (creation order), the node of its result,
    one entry node per input that requires grad (``None`` for the others), and the
    function with its keyword arguments (run again for create_graph)."""

    __slots__ = ("nodes", "root", "entries", "fn", "kwargs", "inputs_kept")

    def __init__(self, nodes, root, entries, fn, kwargs, inputs_kept):
        self.inputs_kept = inputs_kept
        self.nodes = nodes
        self.root = root
        self.entries = entries
        self.fn = fn
        self.kwargs = kwargs

    def backward(self, g, args):
        if any(isinstance(a, Tensor) for a in args):  # create_graph: args are on the graph
            return self._recorded_backward(g, args)
        table = backpropagate(list(self.nodes), [(self.root, g)], visit=_check)
        return [None if e is None else table.get(id(e)) for e in self.entries]

    def _recorded_backward(self, g, args):
        if not self.inputs_kept:
            raise RuntimeError(
                f"create_graph=True through {self.root.name()}'s composition recorded under "
                f"saved-tensor hooks: its inputs were left to the hooks, so it cannot be "
                f"differentiated again. Record it outside the hooks, or use "
                f"create_graph=False.")
        wanted = [i for i, e in enumerate(self.entries) if e is not None]
        # Each input enters through a node of its own: the gradient of one input is then
        # the partial derivative, not the total one through another input computed from it
        # (x.atan2(x * x): the total derivative at x would count the path through x * x
        # twice, once here and once when the engine follows the second input's edge).
        args = [a.clone() if i in wanted else a for i, a in enumerate(args)]
        out = self.fn(*args, **self.kwargs)
        found = grad(out, [args[i] for i in wanted], g, create_graph=True, allow_unused=True)
        cts = [None] * len(args)
        for i, c in zip(wanted, found):
            cts[i] = c
        return cts


def _check(node, g):
    if type(node) is not Select:  # (an output of a node with several: nothing saved)
        node._check_saved()
    return True


class NamedNode(Node):
    """A :class:`~funcgrad.eager.graph.Node` whose ``prim`` is :class:`Named`: checking
    and freeing its saved values checks and frees those of the inner nodes."""

    __slots__ = ()

    def _release(self):
        for node in self.params["inner"].nodes:
            if type(node) is not Select:
                node._release()

    def _check_saved(self):
        for node in self.params["inner"].nodes:
            if type(node) is not Select:
                node._check_saved()


def record_as(named, fn, *inputs, **kwargs):
    """``fn(*inputs, **kwargs)``, recorded as one node named by ``named`` (a
    :class:`Named`) when gradients are recorded; plain ``fn`` otherwise.

    >>> import funcgrad as fg
    >>> RELU = Named("relu", "ReluBackward0")
    >>> x = fg.Tensor([-1.0, 2.0], requires_grad=True)
    >>> y = record_as(RELU, lambda t: t * (t > 0), x)
    >>> y.sum().backward()
    >>> y.grad_fn, x.grad
    (<ReluBackward0>, tensor([0., 1.]))
    """
    if not _state.recording or not any(isinstance(t, Tensor) and t._requires_grad
                                       for t in inputs):
        return unview(fn(*inputs, **kwargs), inputs)
    entries, proxies = [], []
    for t in inputs:
        if isinstance(t, Tensor) and t._requires_grad:
            proxy = _new(Tensor)  # shares t's storage, so in-place updates are still seen
            proxy._storage = t._storage
            proxy._requires_grad = True
            proxy.grad_fn = None
            proxy._output_nr = 0
            proxy._grad = None
            proxy._inference = t._inference
            entry = AccumulateGrad(proxy)
            proxy._accumulator = weakref.ref(entry)  # entry -> proxy only: no cycle
            entries.append(entry)
            proxies.append(proxy)
        else:
            entries.append(None)
            proxies.append(t)
    out = unview(fn(*proxies, **kwargs), proxies)
    if not isinstance(out, Tensor) or not out._requires_grad:
        return out
    for i, p in enumerate(proxies):
        if out is p:  # fn changed nothing (squeeze of no size-1 axis): a node of its own
            out = _new(Tensor)
            # and a storage of its own: one shared with the input would show an in-place
            # update of either without the other's node recording it (a silently wrong
            # gradient); the view methods mark it a view of the input (eager.views)
            out._storage, out._requires_grad, out._grad = Storage(p._storage.value), True, None
            out._inference, out._accumulator = p._inference, None
            out.grad_fn, out._output_nr = None, 0
            root = entries[i]
            break
    else:
        root = out.grad_fn
        if root is None or root.prim.multiple_results:
            # out hangs on the entries, not on the inputs: compute it again, unnamed
            return fn(*inputs, **kwargs)
    nodes, leaves = reachable([root])
    if any(all(leaf is not e for e in entries) for leaf in leaves):
        return out  # fn used other Tensors that require grad: keep its nodes as they are
    needs, parents, vals = [], [], []
    for i, t in enumerate(inputs):
        tracked = entries[i] is not None
        needs.append(tracked)
        vals.append(t._storage.value if isinstance(t, Tensor) else t)
        if not tracked:
            parents.append(None)
            continue
        fn_t = t.grad_fn
        if fn_t is None:
            parents.append(t._edge()[0])
        elif fn_t.prim.multiple_results:
            parents.append(Select(fn_t, t._output_nr))
        else:
            parents.append(fn_t)
    # Under saved-value hooks the node keeps no inputs of its own (the inner nodes hand
    # theirs to the hooks), so that save_on_cpu frees what it promises.
    kept = _state.recording != 2
    if not kept:
        vals = [shaped(v) for v in vals]
    inner = _Inner(nodes, root, entries, fn, kwargs, kept)
    node = NamedNode(named, {"inner": inner}, tuple(vals), out._storage.value, tuple(needs),
                     tuple(parents), [], 1)
    out.grad_fn = node
    out._output_nr = 0
    return out


_SAME: dict = {}


def _itself(t):
    return t


def record_same(t, grad_fn_name):
    """``t`` as the result of one node named ``grad_fn_name`` (a new Tensor) when
    gradients are recorded and ``t`` requires grad; ``t`` itself otherwise.  PyTorch's
    view methods return a new Tensor even when they change nothing (``x[:]``,
    ``x.expand(3)`` of a ``(3,)`` ``x``): :mod:`funcgrad.eager.views` marks it a view.

    >>> import funcgrad as fg
    >>> x = fg.Tensor([1.0, 2.0], requires_grad=True)
    >>> y = record_same(x, "ExpandBackward0")
    >>> y is x, y.grad_fn
    (False, <ExpandBackward0>)
    """
    named = _SAME.get(grad_fn_name)
    if named is None:  # (one Named per name, made on first use)
        named = _SAME.setdefault(grad_fn_name, Named("alias", grad_fn_name))
    return record_as(named, _itself, t)


class SavesOutput(Named):
    """The ``prim`` of a one-input node whose rule reads only the node's output, as
    PyTorch's ``softmax`` saves its result (not its input): ``rule(g, out, **params)``
    is the input's cotangent.  The input may then change in place before the backward
    pass; the output may not.  Recorded by :func:`record_saving_output`.

    >>> import funcgrad as fg
    >>> EXP = SavesOutput("exp", "ExpBackward0", lambda g, out: g * out)
    >>> x = fg.Tensor([0.0, 1.0], requires_grad=True)
    >>> y = record_saving_output(EXP, fg.numpy.exp, x)
    >>> y.sum().backward(); y.grad_fn, x.grad.numpy().round(4)
    (<ExpBackward0>, array([1.    , 2.7183], dtype=float32))
    """

    def __init__(self, name, grad_fn_name, rule):
        super().__init__(name, grad_fn_name)
        self.rule = rule

    @staticmethod
    def vjp_reads(needs, **params):
        """The output only (``Primitive.vjp_reads``)."""
        return (False,), True

    def vjp(self, needs, g, out, x, **params):
        """The input's cotangent, from the output's cotangent and the output."""
        return [self.rule(g, out, **params)]


def record_saving_output(saves, fn, t, **params):
    """``fn(t, **params)``, recorded as one node of ``saves`` (a :class:`SavesOutput`)
    that keeps only the output, when gradients are recorded; plain ``fn`` otherwise (on
    a traced value the transform differentiates ``fn`` itself).  See
    :class:`SavesOutput` for an example."""
    if not (_state.recording and isinstance(t, Tensor) and t._requires_grad):
        return fn(t, **params)
    value = t._storage.value
    out = fn(value, **params)  # on the plain value: nothing recorded
    return _record(saves, (t,), (shaped(value),), params, out)

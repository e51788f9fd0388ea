"""The eager ``Tensor``: PyTorch's dynamic graph on funcgrad's primitives.

A :class:`Tensor` holds a concrete value (a NumPy array) and, when it requires
grad, where that value came from.  Every operation on Tensors reaches
funcgrad's root interpreter, which hands it to this module's handler
(``core.register_special_type``).  The handler unwraps the Tensors, computes
the primitive on their values and, when gradients are enabled and some input
requires grad, records a :class:`Node` (the ``grad_fn``) holding the
primitive, its residuals (input values and output), which inputs want
cotangents and the edges to the nodes those inputs came from.  ``backward()``
walks that graph from the output and calls each primitive's own VJP rule,
``prim.vjp(needs, g, out, *args, **params)``: there is no second set of
derivative rules.

>>> import numpy as np, funcgrad as fg
>>> a = fg.Tensor([2.0, 3.0], requires_grad=True)
>>> w = fg.Tensor([4.0, 5.0], requires_grad=True)
>>> L = (10 - w * a).sum()
>>> L
tensor(-3., grad_fn=<SumBackward0>)
>>> L.backward()
>>> a.grad, w.grad
(tensor([-4., -5.]), tensor([-2., -3.]))

Decisions (where PyTorch, NumPy and funcgrad's own rules had to be reconciled):

* **Values are never written in place.**  An in-place operation (``t += 1``,
  ``t.add_(x)``, ``t[i] = v``, ``t.zero_()``, ``t.data.copy_(x)``) computes a new
  array, makes the Tensor -- and every Tensor sharing its storage (``.data``,
  ``.detach()``) -- show it, and bumps the storage's version counter.  A value a
  node saved is therefore never corrupted, NumPy views between Tensors cannot
  alias an update, and arrays handed out by ``.numpy()`` / ``np.asarray(t)`` are
  read-only views (copy them to write).  ``fg.Tensor(array)`` copies ``array``,
  like ``torch.tensor``; plain NumPy arrays used in a recorded operation are
  saved by reference, so do not modify them before the backward pass.
* **Version counter.**  A node remembers the version of each Tensor whose value
  its rule reads (as PyTorch's formulas save them: ``x * 2`` reads neither ``x``
  nor its output, ``exp`` reads its output); a backward pass through it after
  an in-place change raises PyTorch's "one of the variables needed for gradient
  computation has been modified by an inplace operation" error.  Since saved
  arrays are never overwritten, the check exists for PyTorch's semantics, not
  for safety: a check skipped can only miss PyTorch's error, never give a
  wrong gradient.  Unlike PyTorch, ``.data`` shares the counter with its Tensor
  (as ``.detach()`` does in both), so ``w.data[...] = v`` between a forward pass
  and its backward pass is reported too.
* **What a node saves.**  Operations whose VJP rule needs only shapes
  (``add``, ``subtract``, ``negative``, ``reduce_sum``, ``reshape``, ``transpose``,
  ``broadcast_to``, ``convert_element_type``, ``concatenate``, ``split``,
  ``cumsum``) save shapes, not values, as in PyTorch: they are never "freed", and
  inference-mode Tensors may flow into them.  While a debugging tool (anomaly
  detection, saved-value hooks, profiler) is active every node saves its
  values, so the tool sees them.  Nodes follow the :mod:`funcgrad.instruments`
  protocol, so those tools work on the eager tape as on ``fg.grad``.
* **Freeing.**  ``backward()`` without ``retain_graph`` frees the residuals of
  the nodes it ran; a later pass through one of them raises PyTorch's "Trying
  to backward through the graph a second time" error.  As in PyTorch, a node
  whose rule reads only shapes or Python numbers (``x + 1``, ``x * 2``, sums)
  holds nothing to free and can run again.  ``retain_graph`` defaults to
  ``create_graph``.
* **create_graph.**  The VJP rules then run on Tensors: each residual whose
  input required grad is re-wrapped as a Tensor attached to the same graph
  edge, so the rules' own operations are recorded and ``.grad`` has a
  ``grad_fn`` (double backward).
* **Order.**  Nodes carry creation sequence numbers; a backward pass runs the
  nodes reachable from its roots in decreasing sequence (a topological order),
  without recursion, so a 10,000-operation chain is fine.  ``inputs=`` and
  ``fg.autograd.grad`` prune the walk to the nodes that lead to the inputs.
* **Interop with transforms.**  A Tensor never holds a traced value: inside a
  transform ``fg.Tensor(traced)`` *is* the traced value (``__new__`` returns it),
  so code written with Tensors differentiates and vectorises unchanged, and
  mixing the Tensor with the value it came from stays exact.
  ``requires_grad=True`` on a traced value raises: the eager tape cannot record
  inside a transform.  Tensors are pytree nodes whose one child is the value:
  ``fg.grad(f)(t)`` differentiates with respect to ``t``'s value and returns
  the gradient as a Tensor.  Where a concrete Tensor meets a traced value, the
  transform's tracer carries the Tensor result.  A Tensor that requires grad
  closed over inside ``fg.grad`` is recorded on the eager tape as usual, so the
  transform's result would depend on it and cannot become a plain array (an
  error says so): close over ``w.detach()``.
* **NumPy.**  Operators, NumPy-style methods and plain NumPy functions work
  through funcgrad.numpy and return Tensors; NumPy functions funcgrad has no
  derivative for (``np.array_equal``, ``np.isin``...) run on read-only views of
  the values when no Tensor involved requires grad, and raise otherwise.
* **dtypes** follow NumPy (``fg.Tensor(1.0)`` is float64); only floating
  Tensors can require grad.  ``fg.ones``/``fg.zeros`` return Tensors (float64 by
  default), as ``torch.ones`` does.
"""
import itertools
import warnings
import weakref

import numpy as np

from . import core, instruments, tree
from .core import SHAPES_ONLY, ShapedArray, Tracer, _special_classes, _state
from .numpy._convert import asarray as _asarray
from .numpy._convert import register_array_type
from .numpy import _methods
from .numpy._methods import attach_array_methods
from .primitives import elementwise as _ew

__all__ = ["Tensor", "Node", "AccumulateGrad", "ones", "zeros"]

_new = object.__new__
_seq = itertools.count()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")
NUMPY_MESSAGE = ("Can't call numpy() on Tensor that requires grad. "
                 "Use tensor.detach().numpy() instead.")
SCALAR_MESSAGE = "grad can be implicitly created only for scalar outputs"
UNUSED_MESSAGE = ("One of the differentiated Tensors appears to not have been used in the "
                  "graph. Set allow_unused=True if this is the desired behavior.")
LEAF_INPLACE_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."
INFERENCE_SAVE_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `fg.no_grad()` instead of "
    "`fg.inference_mode()`.")


# --- the graph ------------------------------------------------------------------------------

class _Storage:
    """The value a Tensor shows, shared with its ``.data`` and ``.detach()`` views."""

    __slots__ = ("value", "version")

    def __init__(self, value):
        self.value = value
        self.version = 0


_SELF = object()  # in Node._versions: "an output of this node"


class Node:
    """A recorded operation: the ``grad_fn`` of the Tensors it produced.

    ``prim``, ``params``, ``args`` (the input values the VJP rule gets), ``value``
    (the output, a tuple for several outputs), ``needs`` (which inputs want a
    cotangent) and ``meta`` are what funcgrad's debugging tools read
    (:mod:`funcgrad.instruments`); ``next_functions`` pairs each input with the node
    it came from, as in PyTorch.

    >>> import funcgrad as fg
    >>> x = fg.Tensor(2.0, requires_grad=True)
    >>> y = x * x
    >>> y.grad_fn, y.grad_fn.name()
    (<MulBackward0>, 'MulBackward0')
    >>> y.grad_fn.next_functions
    ((<AccumulateGrad>, 0), (<AccumulateGrad>, 0))
    """

    __slots__ = ("prim", "params", "args", "value", "needs", "meta", "_edges", "_versions",
                 "_seq", "_n_out", "_saves", "_freed", "_retained", "__weakref__")

    def __init__(self, prim, params, args, value, needs, edges, versions, n_out):
        self.prim = prim
        self.params = params
        self.args = args
        self.value = value
        self.needs = needs
        self.meta = None
        self._edges = edges
        self._versions = versions
        self._seq = next(_seq)
        self._n_out = n_out
        self._saves = versions is not None  # holds values a second pass would need
        self._freed = False
        self._retained = None

    def name(self):
        """PyTorch-style name, e.g. ``"MulBackward0"``."""
        rule = self.params.get("rule") if self.params else None
        if rule is not None and getattr(rule, "name", None):  # custom Function / custom_vjp
            return rule.name.split(".")[0] + "Backward"
        return self.prim.grad_fn_name

    @property
    def next_functions(self):
        """``((node, output_nr), ...)``, one pair per input; ``(None, 0)`` for an input
        that needs no gradient."""
        return tuple(e if e is not None else (None, 0) for e in self._edges)

    def __repr__(self):
        return f"<{self.name()}>"

    def _release(self):
        """Free the saved values (after a backward pass without retain_graph)."""
        if not self._saves:  # shapes or Python numbers only: nothing to free, as in PyTorch
            return
        self.args = None
        self.value = None
        self._freed = True

    def _check_saved(self):
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        for storage, version, producer, nr in self._versions or ():
            if storage.version != version:
                value = storage.value
                what = f"[{np.dtype(value.dtype).name} tensor of shape {list(value.shape)}]"
                if producer is _SELF:
                    producer = self
                if producer is not None:
                    what += f", which is output {nr} of {producer.name()},"
                raise RuntimeError(
                    f"one of the variables needed for gradient computation has been modified "
                    f"by an inplace operation: {what} is at version {storage.version}; "
                    f"expected version {version} instead. Hint: it was saved by "
                    f"{self.name()}; modify a copy (t.clone()) instead, or run the backward "
                    f"pass before the in-place update.")

    def _rule(self, node, g, value, args, create_graph=False):
        """Call the primitive's VJP rule (``rule(node, g, value, args)`` for instruments)."""
        params = self.params
        if create_graph and self._versions is not None:
            if self.prim.multiple_results:
                value = tuple(_attached(v, (self, k)) if v.dtype.kind == "f" else v
                              for k, v in enumerate(value))
            else:
                value = _attached(value, (self, 0))
            args = tuple(_attached(a, e) if e is not None else a
                         for a, e in zip(args, self._edges))
        if params:
            return self.prim.vjp(self.needs, g, value, *args, **params)
        return self.prim.vjp(self.needs, g, value, *args)

    def _apply(self, g, create_graph):
        self._check_saved()
        if self.meta is not None:  # a debugging tool watches this node: it runs the rule
            return instruments.backward(
                self, g, lambda node, g, value, args: self._rule(node, g, value, args,
                                                                 create_graph))
        return self._rule(self, g, self.value, self.args, create_graph)


class AccumulateGrad:
    """The graph node of a leaf Tensor that requires grad: backward adds into its
    ``.grad``.  ``variable`` is the leaf.

    >>> import funcgrad as fg
    >>> w = fg.Tensor([1.0], requires_grad=True)
    >>> (w * 2).grad_fn.next_functions[0][0].variable is w
    True
    """

    __slots__ = ("variable", "__weakref__")
    next_functions = ()
    _n_out = 1
    _seq = -1

    def __init__(self, variable):
        self.variable = variable

    def name(self):
        """``"AccumulateGrad"``, PyTorch's name for this node."""
        return "AccumulateGrad"

    def __repr__(self):
        return "<AccumulateGrad>"


def _attached(value, edge):
    """A Tensor showing ``value`` whose gradient flows into graph edge ``edge``."""
    fn, nr = edge
    if type(fn) is AccumulateGrad:
        return fn.variable if fn.variable._storage.value is value else _alias_leaf(value, fn)
    t = _make(value, True)
    t.grad_fn = fn
    t._output_nr = nr
    return t


def _alias_leaf(value, acc):
    t = _make(value, True)
    t._accumulator = acc
    return t


# --- recording (the root interpreter's handler for Tensors) ------------------------------------

def _process(prim, args, params):
    """The root interpreter's handler: compute on the values, record a node if needed."""
    # One- and two-argument primitives are nearly all of them: unrolled for speed.
    n = len(args)
    if n == 2:
        a, b = args
        if isinstance(a, Tensor):
            record = a._requires_grad
            a = a._storage.value
            if isinstance(b, Tensor):
                record = record or b._requires_grad
                b = b._storage.value
        elif isinstance(b, Tensor):
            record = b._requires_grad
            b = b._storage.value
        else:
            return NotImplemented
        vals = (a, b)
    elif n == 1:
        a, = args
        if not isinstance(a, Tensor):
            return NotImplemented
        record = a._requires_grad
        vals = (a._storage.value,)
    else:
        vals, record = _unwrap(args)
        if vals is None:
            return NotImplemented
    record = record and _state.recording and prim.differentiable
    # Only the root calls this handler, and every active transform has unwrapped its own
    # tracers on the way down (a Tensor never holds one), so the values are concrete:
    # compute them here (an operation under the profiler is then reported once).
    if record and prim.reverse_fwd is not None:
        out, residuals = prim.reverse_fwd(vals, params)  # custom rules: outputs + residuals
        params = dict(params, residuals=residuals)
    else:
        for v in vals:
            if type(v) in _special_classes:  # an escaped tracer (clear error), a GPU array
                out = core.ROOT.process(prim, vals, params)
                break
        else:
            out = prim.impl(*vals, **params) if params else prim.impl(*vals)
    if not record:
        if prim.multiple_results:
            return [_result(o) for o in out]
        return _result(out)
    return _record(prim, args, vals, params, out)


def _unwrap(args):
    vals = None
    record = False
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            if vals is None:
                vals = list(args)
            vals[i] = a._storage.value
            if a._requires_grad:
                record = True
    return (None if vals is None else tuple(vals)), record


def _result(value):
    if isinstance(value, Tracer):
        return value  # inside a transform, an unrecorded result is the traced value itself
    t = _new(Tensor)
    t._storage = _Storage(value)
    t._requires_grad = False
    t.grad_fn = None
    t._output_nr = 0
    t._grad = None
    t._accumulator = None
    t._inference = _state.inference
    return t


def _make(value, requires_grad):
    t = _new(Tensor)
    t._storage = _Storage(value)
    t._requires_grad = requires_grad
    t.grad_fn = None
    t._output_nr = 0
    t._grad = None
    t._accumulator = None
    t._inference = _state.inference
    return t


def _shaped(x):
    """What a shape-only rule needs of ``x``: its shape and dtype (numbers stay as they are)."""
    if isinstance(x, (bool, int, float, complex)) or x is None:
        return x
    aval = _new(ShapedArray)
    aval.shape = tuple(x.shape)
    aval.dtype = x.dtype
    return aval


def _record(prim, args, vals, params, out):
    needs, edges = [], []
    for a in args:
        if isinstance(a, Tensor) and a._requires_grad:
            needs.append(True)
            fn = a.grad_fn
            edges.append((fn, a._output_nr) if fn is not None else a._edge())
        else:
            needs.append(False)
            edges.append(None)
    needs = tuple(needs)
    multiple = prim.multiple_results
    outs = tuple(out) if multiple else (out,)
    instrumented = _state.recording == 2
    output_read = False
    rule_reads = prim.vjp_reads
    if rule_reads is SHAPES_ONLY and not instrumented:
        saved_args = tuple(_shaped(v) for v in vals)
        saved_value = tuple(_shaped(o) for o in outs) if multiple else _shaped(out)
        versions = None
    else:
        saved_args, saved_value = vals, out
        versions = []
        saves = instrumented
        reads = None  # every input, not the output
        if rule_reads is not None and rule_reads is not SHAPES_ONLY:
            reads, output_read = rule_reads(needs, **(params or {}))
        for i, a in enumerate(args):
            if reads is not None and not reads[i]:
                continue
            if not isinstance(a, (bool, int, float, complex)):
                saves = True  # an array the rule reads (a Python number is not "saved")
            if isinstance(a, Tensor):
                if a._inference:
                    raise RuntimeError(INFERENCE_SAVE_MESSAGE)
                storage = a._storage
                versions.append((storage, storage.version, a.grad_fn, a._output_nr))
    node = Node(prim, params or None, saved_args, saved_value, needs, tuple(edges), versions,
                len(outs))
    if versions is not None:
        node._saves = saves or output_read
    results = []
    for k, o in enumerate(outs):
        if o.dtype.kind == "f":
            t = _make(o, True)
            t.grad_fn = node
            t._output_nr = k
            if output_read:  # _SELF, not node: a node holding itself would be a cycle
                versions.append((t._storage, 0, _SELF, k))
        else:
            t = _result(o)
        results.append(t)
    if instrumented:
        instruments.record(node)
    return results if multiple else results[0]


# --- the backward pass ---------------------------------------------------------------------------

def _add(a, b):
    return _ew.add(a, b)


def _run_backward(roots, root_grads, retain_graph, create_graph, targets=None):
    """Propagate ``root_grads`` back from graph edges ``roots``.

    With ``targets=None``, accumulate into the ``.grad`` of every leaf reached (and of
    non-leaves that called ``retain_grad()``).  Otherwise only the nodes that lead to
    the target edges run, and the dict ``{edge: gradient or None}`` is returned.
    """
    # every node reachable from the roots (iterative: chains of any length)
    nodes, seen = [], set()
    stack = [fn for fn, _ in roots]
    while stack:
        fn = stack.pop()
        if fn in seen:
            continue
        seen.add(fn)
        if type(fn) is Node:
            nodes.append(fn)
            for e in fn._edges:
                if e is not None and e[0] not in seen:
                    stack.append(e[0])
    nodes.sort(key=_seq_of)  # creation order: inputs before the nodes that use them
    needed = runs = None
    if targets is not None:
        # prune: run only the nodes from which a target can be reached
        target_set = set(targets)
        needed = {fn for fn, _ in targets}
        runs = set()
        for node in nodes:
            for e in node._edges:
                if e is not None and e[0] in needed:
                    needed.add(node)
                    runs.add(node)
                    break
    captured = {}
    buffers = {}
    for (fn, nr), g in zip(roots, root_grads):
        buf = buffers.get(fn)
        if buf is None:
            buf = buffers[fn] = [None] * fn._n_out
        buf[nr] = g if buf[nr] is None else _add(buf[nr], g)

    previous = _state.grad_enabled
    if create_graph:
        _state.grad_enabled = True
    try:
        for node in reversed(nodes):
            buf = buffers.pop(node, None)
            if buf is None:
                continue
            if node._retained and targets is None:
                for nr, ref in node._retained.items():
                    t = ref()
                    if t is not None and buf[nr] is not None:
                        _accumulate(t, buf[nr], create_graph)
            if targets is not None:
                for nr in range(node._n_out):
                    if (node, nr) in target_set:
                        captured[(node, nr)] = buf[nr]
                if node not in runs:
                    continue
            g = buf[0] if node._n_out == 1 and not node.prim.multiple_results else tuple(buf)
            contributions = node._apply(g, create_graph)
            if not retain_graph:
                node._release()
            for e, c in zip(node._edges, contributions):
                if e is None or c is None:
                    continue
                fn, nr = e
                if needed is not None and fn not in needed:
                    continue
                b = buffers.get(fn)
                if b is None:
                    b = buffers[fn] = [None] * fn._n_out
                b[nr] = c if b[nr] is None else _add(b[nr], c)
        # what is left is gradients for leaves
        for acc, buf in buffers.items():
            if targets is None:
                _accumulate(acc.variable, buf[0], create_graph)
            elif (acc, 0) in target_set:
                captured[(acc, 0)] = buf[0]
    finally:
        _state.grad_enabled = previous
    return captured


def _seq_of(node):
    return node._seq


def _fit_gradient(t, g):
    """``g`` with ``t``'s shape and dtype (the rules already give that; seeds may not)."""
    if tuple(g.shape) != t.shape:
        g = _ew.add(g, np.zeros(t.shape, t.dtype))
    if g.dtype != t.dtype:
        g = g.astype(t.dtype)
    return g


def _accumulate(t, g, create_graph):
    """``t.grad += g`` as a new value (a gradient held by the user is never modified)."""
    g = _fit_gradient(t, g)
    old = t._grad
    if create_graph:  # the sum is recorded too
        g = g if isinstance(g, Tensor) else _make(g, False)
        t._grad = g if old is None else old + g
        return
    if isinstance(g, Tensor):
        g = g._storage.value
    if old is None:
        t._grad = _make(g, False)
    else:
        t._grad = _make(_ew.add(old._storage.value, g), False)


def _edges_and_grads(outputs, grad_outputs, create_graph, what):
    """Roots and seed cotangents for a backward pass from ``outputs``."""
    outputs = _tensor_list(outputs, what)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    else:
        grad_outputs = list(grad_outputs) if isinstance(grad_outputs, (list, tuple)) \
            else [grad_outputs]
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"got {len(grad_outputs)} gradients for {len(outputs)} outputs: "
                           f"pass one gradient (or None) per output")
    roots, grads = [], []
    for i, (t, g) in enumerate(zip(outputs, grad_outputs)):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not "
                               f"have a grad_fn")
        if g is None:
            if t.size != 1:
                raise RuntimeError(
                    f"{SCALAR_MESSAGE}: the output has shape {t.shape}. Reduce it first "
                    f"(e.g. .sum()), or pass gradient= (e.g. fg.ones(t.shape)).")
            g = np.ones(t.shape, t.dtype)
        else:
            if isinstance(g, Tensor):
                g = g if create_graph else g._storage.value
            elif not isinstance(g, Tracer):
                g = np.array(_asarray(g))  # a copy: the user may modify theirs
            if tuple(g.shape) != t.shape:
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                                   f"{tuple(g.shape)} and output[{i}] has a shape of "
                                   f"{t.shape}.")
            if g.dtype != t.dtype:
                g = g.astype(t.dtype)
        roots.append(t._edge())
        grads.append(g)
    return roots, grads


def _tensor_list(xs, what):
    if isinstance(xs, Tensor):
        return [xs]
    xs = list(xs)
    for x in xs:
        if not isinstance(x, Tensor):
            raise TypeError(f"{what} must be Tensors (or a sequence of Tensors); got "
                            f"{type(x).__name__}")
    return xs


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate the gradients of ``tensors`` into the leaves' ``.grad``
    (``fg.autograd.backward``; ``t.backward(...)`` calls it).

    >>> import funcgrad as fg
    >>> x = fg.Tensor(3.0, requires_grad=True)
    >>> backward([x * x])
    >>> x.grad
    tensor(6.)
    """
    if retain_graph is None:
        retain_graph = create_graph
    roots, grads = _edges_and_grads(tensors, grad_tensors, create_graph, "tensors")
    if inputs is None:
        _run_backward(roots, grads, retain_graph, create_graph)
        return
    inputs = _tensor_list(inputs, "inputs")
    if not inputs:
        raise RuntimeError("backward: inputs= must not be empty (None means all leaves)")
    edges = [_input_edge(t) for t in inputs]
    captured = _run_backward(roots, grads, retain_graph, create_graph, edges)
    for t, e in zip(inputs, edges):
        g = captured.get(e)
        if g is not None:
            _accumulate(t, g, create_graph)


def _input_edge(t):
    if not t._requires_grad:
        raise RuntimeError("One of the differentiated Tensors does not require grad")
    return t._edge()


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=None, materialize_grads=False):
    """Gradients of ``outputs`` with respect to ``inputs``, returned as a tuple; no
    ``.grad`` is touched (``fg.autograd.grad``).

    >>> import funcgrad as fg
    >>> x = fg.Tensor(3.0, requires_grad=True)
    >>> grad(x ** 3, x)
    (tensor(27.),)
    """
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    inputs = _tensor_list(inputs, "inputs")
    roots, grads = _edges_and_grads(outputs, grad_outputs, create_graph, "outputs")
    edges = [_input_edge(t) for t in inputs]
    captured = _run_backward(roots, grads, retain_graph, create_graph, edges)
    results = []
    for t, e in zip(inputs, edges):
        g = captured.get(e)
        if g is None:
            if not allow_unused:
                raise RuntimeError(UNUSED_MESSAGE)
            results.append(zeros(t.shape, dtype=t.dtype) if materialize_grads else None)
            continue
        g = _fit_gradient(t, g)
        results.append(g if isinstance(g, Tensor) else _make(g, False))
    return tuple(results)


# --- the Tensor ---------------------------------------------------------------------------------

class Tensor:
    """An array that records the operations applied to it, PyTorch style.

    ``Tensor(value, requires_grad=False, dtype=None)``: ``value`` is anything
    ``np.array`` accepts (it is copied) or another Tensor.  Only floating dtypes can
    require grad.  Operators, NumPy-style methods (``.sum()``, ``.reshape()``, ``.T``
    ...) and plain NumPy functions (``np.exp(t)``) return Tensors; ``backward()``
    fills the leaves' ``.grad``.  See the module docstring for the design.

    >>> import numpy as np, funcgrad as fg
    >>> x = fg.Tensor([1.0, 2.0], requires_grad=True)
    >>> y = np.exp(x).sum()
    >>> y.backward()
    >>> np.allclose(x.grad.numpy(), np.exp([1.0, 2.0]))
    True
    >>> x.is_leaf, y.is_leaf, y.grad_fn
    (True, False, <SumBackward0>)
    """

    __slots__ = ("_storage", "_requires_grad", "grad_fn", "_output_nr", "_grad",
                 "_accumulator", "_inference", "__weakref__")
    __array_priority__ = 1001

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        core.add_special_subclass(cls, Tensor)  # so the root interpreter routes them here

    def __new__(cls, value, requires_grad=False, dtype=None):
        if isinstance(value, Tensor):
            value = value._storage.value  # shared: Tensors never write into their arrays
            if dtype is not None and value.dtype != np.dtype(dtype):
                value = _ew_astype(value, dtype)
        else:
            given = value
            value = _asarray(value, dtype)  # clear errors for strings, objects, ragged lists
            if isinstance(value, Tensor):  # a list holding Tensors was stacked
                value = value._storage.value
            elif isinstance(value, Tracer):
                # Inside a transform the Tensor is the traced value itself: the transform
                # sees it, so Tensor code differentiates (and vectorises) unchanged.
                if requires_grad:
                    raise RuntimeError(
                        "fg.Tensor(..., requires_grad=True) was given a value traced by a "
                        "transform (fg.grad, fg.vmap, fg.jacobian ...): the eager tape cannot "
                        "record inside a transform. Drop requires_grad=True there -- the "
                        "transform already differentiates the value -- or take inner "
                        "derivatives with fg.grad / fg.vjp.")
                return value
            elif isinstance(given, np.ndarray) and np.may_share_memory(value, given):
                value = np.array(value, copy=True)  # our own: the caller may modify theirs
            # (lists and numbers gave a fresh array; other registered array types, such as
            # GPU arrays, are immutable and stay where they are)
        self = _new(cls)
        self._storage = _Storage(value)
        self._requires_grad = False
        self.grad_fn = None
        self._output_nr = 0
        self._grad = None
        self._accumulator = None
        self._inference = _state.inference
        if requires_grad:
            self.requires_grad = True
        return self

    def __init__(self, value, requires_grad=False, dtype=None):
        pass  # everything happens in __new__, which may return a traced value instead

    def __reduce__(self):
        # copy.deepcopy and pickle: leaves only, as in PyTorch (a graph cannot be copied)
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol; copy t.detach() instead.")
        grad = None if self._grad is None else np.asarray(self._grad._storage.value)
        return (_rebuild, (type(self), np.asarray(self._storage.value), self._requires_grad,
                           grad))

    # --- what it holds ---------------------------------------------------------------------

    @property
    def shape(self):
        """The shape, a tuple (like NumPy).

        >>> import funcgrad as fg
        >>> fg.Tensor([[1.0, 2.0]]).shape
        (1, 2)
        """
        return tuple(self._storage.value.shape)

    @property
    def dtype(self):
        """The NumPy dtype.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0]).dtype
        dtype('float64')
        """
        return np.dtype(self._storage.value.dtype)

    @property
    def ndim(self):
        """The number of axes.

        >>> import funcgrad as fg
        >>> fg.Tensor([[1.0]]).ndim
        2
        """
        return len(self._storage.value.shape)

    @property
    def size(self):
        """The number of elements (NumPy's attribute; ``numel()`` is PyTorch's spelling).

        >>> import funcgrad as fg
        >>> fg.Tensor([[1.0, 2.0]]).size
        2
        """
        n = 1
        for d in self._storage.value.shape:
            n *= d
        return n

    def numel(self):
        """The number of elements.

        >>> import funcgrad as fg
        >>> fg.ones(2, 3).numel()
        6
        """
        return self.size

    def dim(self):
        """The number of axes.

        >>> import funcgrad as fg
        >>> fg.ones(2, 3).dim()
        2
        """
        return self.ndim

    @property
    def requires_grad(self):
        """Whether operations on this Tensor are recorded for a backward pass.  Settable
        on leaves only (floating dtypes only).

        >>> import funcgrad as fg
        >>> w = fg.Tensor([1.0])
        >>> w.requires_grad = True
        >>> (w * 2).requires_grad
        True
        """
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, mode):
        mode = bool(mode)
        if self.grad_fn is not None:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to "
                "use a computed variable in a subgraph that doesn't require differentiation "
                "use var_no_grad = var.detach().")
        if mode and self.dtype.kind != "f":
            raise RuntimeError(
                f"Only Tensors of floating point dtype can require gradients; this one has "
                f"dtype {self.dtype}. Create it with a float dtype, e.g. "
                f"fg.Tensor(x, dtype=np.float64, requires_grad=True).")
        if mode and self._inference and not _state.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = mode

    def requires_grad_(self, requires_grad=True):
        """Set ``requires_grad`` in place and return the Tensor.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0]).requires_grad_()
        tensor([1.], requires_grad=True)
        """
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self):
        """True for Tensors not produced by a recorded operation (``grad_fn is None``).

        >>> import funcgrad as fg
        >>> w = fg.Tensor([1.0], requires_grad=True)
        >>> w.is_leaf, (w + 1).is_leaf
        (True, False)
        """
        return self.grad_fn is None

    @property
    def grad(self):
        """The accumulated gradient (a Tensor), ``None`` until a backward pass reaches
        this leaf.  Assign ``None`` to reset it.

        >>> import funcgrad as fg
        >>> w = fg.Tensor(2.0, requires_grad=True)
        >>> (w * w).backward()
        >>> w.grad
        tensor(4.)
        >>> w.grad = None
        """
        if self.grad_fn is not None and self._grad is None and not self.retains_grad:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                "Its .grad attribute won't be populated during autograd.backward(). If you "
                "indeed want the .grad field to be populated for a non-leaf Tensor, use "
                ".retain_grad() on the non-leaf Tensor.", UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                value = Tensor(value)
            if value.shape != self.shape:
                raise RuntimeError(f"assigned grad has data of a different size: "
                                   f"{value.shape} instead of {self.shape}")
        self._grad = value

    @property
    def retains_grad(self):
        """Whether this non-leaf keeps its ``.grad`` (see :meth:`retain_grad`).

        >>> import funcgrad as fg
        >>> y = fg.Tensor(2.0, requires_grad=True) * 3
        >>> y.retains_grad, (y.retain_grad(), y.retains_grad)[1]
        (False, True)
        """
        fn = self.grad_fn
        return fn is not None and bool(fn._retained) and self._output_nr in fn._retained \
            and fn._retained[self._output_nr]() is self

    def retain_grad(self):
        """Make a non-leaf Tensor keep its ``.grad`` in backward passes.

        >>> import funcgrad as fg
        >>> x = fg.Tensor(2.0, requires_grad=True)
        >>> y = x * x
        >>> y.retain_grad()
        >>> (3 * y).backward()
        >>> y.grad
        tensor(3.)
        """
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        fn = self.grad_fn
        if fn is None:
            return
        if fn._retained is None:
            fn._retained = {}
        fn._retained[self._output_nr] = weakref.ref(self)

    @property
    def data(self):
        """A Tensor sharing this one's value and version counter, outside the graph:
        in-place updates through it change this Tensor (``w.data -= lr * w.grad``).

        >>> import funcgrad as fg
        >>> w = fg.Tensor([1.0], requires_grad=True)
        >>> w.data.zero_()
        tensor([0.])
        >>> w
        tensor([0.], requires_grad=True)
        """
        return self.detach()

    @data.setter
    def data(self, value):
        if isinstance(value, Tensor):
            value = value._storage.value
        else:
            value = np.array(_asarray(value), copy=True)
        self._storage.value = value

    @property
    def _version(self):
        """How many in-place updates this Tensor's storage has had."""
        return self._storage.version

    def detach(self):
        """A Tensor with the same value (and version counter), cut from the graph.

        >>> import funcgrad as fg
        >>> w = fg.Tensor([1.0], requires_grad=True)
        >>> (w * 2).detach()
        tensor([2.])
        """
        t = _new(Tensor)
        t._storage = self._storage
        t._requires_grad = False
        t.grad_fn = None
        t._output_nr = 0
        t._grad = None
        t._accumulator = None
        t._inference = self._inference
        return t

    def detach_(self):
        """Cut this Tensor from the graph in place (it becomes a leaf).

        >>> import funcgrad as fg
        >>> y = fg.Tensor([1.0], requires_grad=True) * 2
        >>> y.detach_().is_leaf
        True
        """
        self.grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    def clone(self):
        """A copy that stays in the graph (gradients flow back through it).

        >>> import funcgrad as fg
        >>> x = fg.Tensor([1.0], requires_grad=True)
        >>> x.clone()
        tensor([1.], grad_fn=<SubBackward0>)
        """
        if self.dtype.kind != "f":
            return Tensor(self)
        return self - np.zeros((), self.dtype)

    copy = clone

    def numpy(self):
        """The value as a read-only NumPy array (no copy).  Raises for a Tensor that
        requires grad: use ``t.detach().numpy()``.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0, 2.0]).numpy()
        array([1., 2.])
        """
        if self._requires_grad:
            raise RuntimeError(NUMPY_MESSAGE)
        return _read_only(self._storage.value)

    def __array__(self, dtype=None, copy=None):
        if self._requires_grad:
            raise RuntimeError(
                NUMPY_MESSAGE + " (np.asarray/np.array of a Tensor converts it; if this "
                "happened inside fg.grad/fg.jacobian of a function closing over a Tensor "
                "that requires grad, close over tensor.detach() instead.)")
        value = self._storage.value
        if copy:
            return np.array(value, dtype=dtype, copy=True)
        out = _read_only(value)
        return out if dtype is None or out.dtype == np.dtype(dtype) else out.astype(dtype)

    def item(self, *args):
        """The value as a Python number.

        >>> import funcgrad as fg
        >>> (fg.Tensor([2.0], requires_grad=True) * 3).sum().item()
        6.0
        """
        return np.asarray(self._storage.value).item(*args)

    def tolist(self):
        """The value as nested Python lists.

        >>> import funcgrad as fg
        >>> fg.Tensor([[1.0, 2.0]]).tolist()
        [[1.0, 2.0]]
        """
        return np.asarray(self._storage.value).tolist()

    def __bool__(self):
        return bool(np.asarray(self._storage.value))

    def __float__(self):
        return float(np.asarray(self._storage.value))

    def __int__(self):
        return int(np.asarray(self._storage.value))

    def __complex__(self):
        return complex(np.asarray(self._storage.value))

    def __index__(self):
        value = np.asarray(self._storage.value)
        if value.dtype.kind not in "iu" or value.ndim:
            raise TypeError("only integer scalar Tensors can be converted to an index")
        return int(value)

    __hash__ = object.__hash__  # by identity, as in PyTorch (== is elementwise)

    def __repr__(self):
        body = np.array2string(np.asarray(self._storage.value), separator=", ",
                               prefix="tensor(")
        extras = []
        if self.dtype not in (np.dtype(np.float64), np.dtype(np.int64), np.dtype(bool)):
            extras.append(f"dtype={self.dtype.name}")
        if self.grad_fn is not None:
            extras.append(f"grad_fn={self.grad_fn!r}")
        elif self._requires_grad:
            extras.append("requires_grad=True")
        return "tensor(" + ", ".join([body] + extras) + ")"

    __str__ = __repr__

    def __format__(self, spec):
        if spec and self.size == 1:
            return format(self.item(), spec)
        return format(repr(self), spec)

    def __getitem__(self, key):
        from .primitives import indexing
        return indexing.index(self, _unwrap_index(key))

    # --- the graph -------------------------------------------------------------------------------

    def _edge(self):
        if self.grad_fn is not None:
            return (self.grad_fn, self._output_nr)
        # A leaf holds its AccumulateGrad weakly (the graph nodes hold it strongly), as
        # PyTorch does: leaf -> node -> leaf would be a reference cycle that only the
        # cyclic collector frees.  An alias leaf (_alias_leaf) holds its node strongly:
        # that node points at another Tensor, so there is no cycle.
        acc = self._accumulator
        if type(acc) is weakref.ref:
            acc = acc()
        if acc is None:
            acc = AccumulateGrad(self)
            self._accumulator = weakref.ref(acc)
        return (acc, 0)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulate the gradient of this Tensor into the ``.grad`` of the leaves
        (all of them, or those in ``inputs``).  A non-scalar Tensor needs ``gradient``
        (the cotangent, same shape).  ``retain_graph`` (default: ``create_graph``) keeps
        the saved values for another pass; ``create_graph=True`` records the backward
        pass itself, so ``.grad`` can be differentiated again.

        >>> import funcgrad as fg
        >>> x = fg.Tensor([1.0, 2.0], requires_grad=True)
        >>> (x * x).backward(gradient=fg.ones(2))
        >>> x.grad
        tensor([2., 4.])
        """
        backward(self, None if gradient is None else [gradient], retain_graph, create_graph,
                 inputs)

    # --- in-place updates ------------------------------------------------------------------------

    def _inplace(self, compute):
        """Replace this Tensor's value by ``compute(self)``, recording the update when
        gradients are on (PyTorch's rules for leaves and version counters)."""
        if self._inference and not _state.inference:
            raise RuntimeError(
                "Inplace update to inference tensor outside InferenceMode is not allowed. "
                "You can make a clone to get a normal tensor before doing inplace update.")
        grad_on = _state.grad_enabled
        if grad_on and self._requires_grad and self.grad_fn is None:
            raise RuntimeError(LEAF_INPLACE_MESSAGE)
        source = self
        if grad_on:
            # The update's own node must save the old value under a storage of its own,
            # so that the version bump below invalidates only earlier savers of self.
            source = _make(self._storage.value, self._requires_grad)
            source.grad_fn, source._output_nr = self.grad_fn, self._output_nr
            source._inference = self._inference
        out = compute(source)
        if isinstance(out, Tensor):
            value, tracked = out._storage.value, out._requires_grad
        else:
            value, tracked = out, False
        shape = tuple(value.shape)
        if shape != self.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the "
                               f"broadcast shape {list(shape)}")
        if value.dtype != self.dtype:
            if not np.can_cast(value.dtype, self.dtype, "same_kind"):
                raise RuntimeError(f"result type {np.dtype(value.dtype).name} can't be cast "
                                   f"to the desired output type {self.dtype.name}")
            out = out.astype(self.dtype)
            value = out._storage.value if isinstance(out, Tensor) else out
        storage = self._storage
        storage.value = value
        storage.version += 1
        if tracked:
            node, nr = out.grad_fn, out._output_nr
            self.grad_fn, self._output_nr, self._requires_grad = node, nr, True
            versions = node._versions
            if versions is not None:  # the node's output is now this Tensor's storage
                for i, entry in enumerate(versions):
                    if entry[0] is out._storage:
                        versions[i] = (storage, storage.version, node, nr)
        return self

    def __iadd__(self, other):
        return self._inplace(lambda s: s + other)

    def __isub__(self, other):
        return self._inplace(lambda s: s - other)

    def __imul__(self, other):
        return self._inplace(lambda s: s * other)

    def __itruediv__(self, other):
        return self._inplace(lambda s: s / other)

    def __ipow__(self, other):
        return self._inplace(lambda s: s ** other)

    def add_(self, other, alpha=1):
        """In place ``self += alpha * other``.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0]).add_(fg.Tensor([2.0]), alpha=3)
        tensor([7.])
        """
        return self._inplace(lambda s: s + (other if alpha == 1 else other * alpha))

    def sub_(self, other, alpha=1):
        """In place ``self -= alpha * other``.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0]).sub_(2.0)
        tensor([-1.])
        """
        return self._inplace(lambda s: s - (other if alpha == 1 else other * alpha))

    def mul_(self, other):
        """In place ``self *= other``.

        >>> import funcgrad as fg
        >>> fg.Tensor([2.0]).mul_(3.0)
        tensor([6.])
        """
        return self._inplace(lambda s: s * other)

    def div_(self, other):
        """In place ``self /= other``.

        >>> import funcgrad as fg
        >>> fg.Tensor([3.0]).div_(2.0)
        tensor([1.5])
        """
        return self._inplace(lambda s: s / other)

    def fill_(self, value):
        """Set every element to ``value``, in place.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0, 2.0]).fill_(5.0)
        tensor([5., 5.])
        """
        return self._inplace(lambda s: _ew.where(_FALSE, s, _as_dtype(value, s.dtype)))

    def zero_(self):
        """Set every element to zero, in place (``w.grad.zero_()``).

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0, 2.0]).zero_()
        tensor([0., 0.])
        """
        return self.fill_(0)

    def copy_(self, src):
        """Copy ``src`` (broadcast to this shape) into this Tensor, in place; the
        gradient flows to ``src``.

        >>> import funcgrad as fg
        >>> fg.zeros(2).copy_(fg.Tensor([1.0, 2.0]))
        tensor([1., 2.])
        """
        src = src if isinstance(src, (Tensor, Tracer)) else _asarray(src)
        return self._inplace(lambda s: _ew.where(_FALSE, s, _fnp().broadcast_to(src, s.shape)))

    def __setitem__(self, key, value):
        key = _unwrap_index(key)

        def compute(s):
            return s.at[key].set(value)
        return self._inplace(compute)


_FALSE = np.zeros((), bool)


def _rebuild(cls, value, requires_grad, grad):
    t = cls(value, requires_grad=requires_grad)
    if grad is not None:
        t._grad = Tensor(grad)
    return t


def _fnp():
    from . import numpy as fnp
    return fnp


def _as_dtype(value, dtype):
    if isinstance(value, (Tensor, Tracer)):
        return value
    return np.asarray(value, dtype)


def _ew_astype(value, dtype):
    return _fnp().astype(value, dtype)


def _read_only(value):
    out = np.asarray(value).view()
    out.flags.writeable = False
    return out


def _unwrap_index(key):
    if isinstance(key, Tensor):
        return key._storage.value
    if isinstance(key, tuple):
        return tuple(k._storage.value if isinstance(k, Tensor) else k for k in key)
    return key


# The root interpreter hands operations on Tensors to _process; funcgrad.numpy treats
# Tensors as arrays; operators, methods and the NumPy protocols come from funcgrad.numpy.
core.register_special_type(Tensor, _process)
register_array_type(Tensor)
_OWN = {name: Tensor.__dict__[name] for name in (
    "__array__", "__bool__", "__float__", "__int__", "__complex__", "__index__", "__hash__",
    "__getitem__", "__setitem__", "item", "tolist", "copy")}
attach_array_methods(Tensor)
for _name, _fn in _OWN.items():
    setattr(Tensor, _name, _fn)
del _name, _fn



def _plain_values(x):
    """``x`` with every Tensor replaced by a read-only view of its value."""
    if isinstance(x, Tensor):
        return _read_only(x._storage.value)
    if isinstance(x, (list, tuple)):
        return type(x)(_plain_values(e) for e in x)
    if isinstance(x, dict):
        return {k: _plain_values(v) for k, v in x.items()}
    return x


def _differentiable_inside(x):
    if isinstance(x, Tensor):
        return x._requires_grad
    if isinstance(x, (list, tuple)):
        return any(_differentiable_inside(e) for e in x)
    if isinstance(x, dict):
        return any(_differentiable_inside(v) for v in x.values())
    return isinstance(x, Tracer)


def _tensor_array_ufunc(self, ufunc, method, *inputs, **kwargs):
    out = kwargs.get("out")
    if out is not None and _contains_tensor(out):
        raise TypeError(f"numpy.{ufunc.__name__}(..., out=tensor) would write into a Tensor; "
                        f"use the returned value, or an in-place method (t.add_(x), "
                        f"t.mul_(x), t[...] = v), which keeps the version counter right")
    try:
        return _methods._array_ufunc(self, ufunc, method, *inputs, **kwargs)
    except TypeError:
        # Not a funcgrad operation: NumPy may compute it on plain values, as long as no
        # derivative is dropped on the way.
        if _differentiable_inside(inputs):
            _raise_not_differentiable(f"numpy.{ufunc.__name__}"
                                      + ("" if method == "__call__" else f".{method}"), inputs)
            raise
    return getattr(ufunc, method)(*_plain_values(inputs), **_plain_values(kwargs))


def _tensor_array_function(self, func, types, args, kwargs):
    if func in _methods._function_table():
        return _methods._array_function(self, func, types, args, kwargs)
    if _differentiable_inside(args) or _differentiable_inside(kwargs):
        _raise_not_differentiable(f"numpy.{getattr(func, '__name__', func)}", (args, kwargs))
        return _methods._array_function(self, func, types, args, kwargs)  # its clear error
    return func(*_plain_values(args), **_plain_values(kwargs))


def _raise_not_differentiable(what, args):
    if _requires_grad_inside(args):
        raise TypeError(f"{what} is not supported on a Tensor that requires grad: funcgrad "
                        f"has no derivative for it. Write the computation with the functions "
                        f"in funcgrad.numpy (see funcgrad.numpy.__all__), or call it on "
                        f"t.detach() if no gradient should flow through it.")


def _requires_grad_inside(x):
    if isinstance(x, Tensor):
        return x._requires_grad
    if isinstance(x, (list, tuple)):
        return any(_requires_grad_inside(e) for e in x)
    if isinstance(x, dict):
        return any(_requires_grad_inside(v) for v in x.values())
    return False


def _contains_tensor(x):
    if isinstance(x, Tensor):
        return True
    return isinstance(x, (list, tuple)) and any(_contains_tensor(e) for e in x)


# NumPy functions funcgrad does not implement still work on Tensors that need no gradient
# (np.array_equal(t, ...), np.isin ...): they run on read-only views of the values.
Tensor.__array_ufunc__ = _tensor_array_ufunc
Tensor.__array_function__ = _tensor_array_function

# A Tensor is a pytree node whose one child is its value: transforms differentiate with
# respect to the value, and results shaped like a Tensor input come back as Tensors.
tree.register(Tensor, lambda t: ((t._storage.value,), None),
              lambda aux, children: Tensor(children[0]))


# --- constructors ------------------------------------------------------------------------------

def _shape_arg(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


def ones(*shape, dtype=None, requires_grad=False):
    """A Tensor of ones (float64 unless ``dtype``); ``ones(2, 3)`` or ``ones((2, 3))``.

    >>> import funcgrad as fg
    >>> fg.ones(2)
    tensor([1., 1.])
    """
    return Tensor(np.ones(_shape_arg(shape), dtype or np.float64), requires_grad=requires_grad)


def zeros(*shape, dtype=None, requires_grad=False):
    """A Tensor of zeros (float64 unless ``dtype``); ``zeros(2, 3)`` or ``zeros((2, 3))``.

    >>> import funcgrad as fg
    >>> fg.zeros((1, 2), requires_grad=True)
    tensor([[0., 0.]], requires_grad=True)
    """
    return Tensor(np.zeros(_shape_arg(shape), dtype or np.float64),
                  requires_grad=requires_grad)

"""The eager ``Tensor``: PyTorch's dynamic graph on funcgrad's primitives.

A :class:`Tensor` holds a concrete value (a NumPy array) and, when it requires
grad, where that value came from.  Every operation on Tensors reaches
funcgrad's root interpreter, which hands it to this module's handler
(``core.register_special_type``).  The handler unwraps the Tensors, computes
the primitive on their values and, when gradients are enabled and some input
requires grad, records a :class:`Node` (the ``grad_fn``) holding the
primitive, its residuals (input values and output), which inputs want
cotangents and the edges to the nodes those inputs came from.  ``backward()``
walks that graph from the output with the backward engine ``fg.grad`` uses
(:mod:`funcgrad.interpreters.backprop`), calling each primitive's own VJP rule,
``prim.vjp(needs, g, out, *args, **params)``: there is no second set of
derivative rules, and no second walk.

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
  saved by reference, so do not modify them before the backward pass.  A view
  (``x[0]``, ``x.t()``, ``x.view(-1)``, ``x.diagonal()``...) remembers its base, so an
  in-place update of the view reaches the base and the base's other views, and one of
  the base reaches its views, as PyTorch's shared memory would (:mod:`funcgrad.eager.views`).
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
  to backward through the graph a second time" error.  A node whose rule reads
  only shapes or Python numbers (``x + 1``, ``x * 2``, sums) holds nothing to
  free and can run again; PyTorch agrees for ``x + 1`` and sums but raises for
  ``x * 2`` and ``x / 2`` (it saves the number as a tensor).  ``retain_graph``
  defaults to ``create_graph``.
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
  inside a transform.  A Tensor passed to a transform (``fg.grad``, ``vjp``,
  ``jvp``, ``vmap``, the Jacobians, ``jit``) stays one leaf: the transform's
  tracers carry it, its operations reach the eager handler, and so the results
  (values and derivatives) are Tensors on its graph, as with ``torch.func``:
  ``fg.grad(f)(w).sum().backward()`` differentiates the gradient.  Inside the
  transform the traced value that stands for the Tensor (and every value computed
  from it) has the Tensor's methods and promotion, also under ``jit`` and in
  ``fg.lax``'s loop bodies, so ``t.max(0)``, ``t.std()`` or ``t.transpose(0, 1)``
  mean what they mean eagerly (:mod:`funcgrad.eager.traced`).  A Tensor that
  requires grad closed over inside a transform is recorded the same way.  (In a
  pytree that is not a transform's argument, such as ``fg.tree.flatten``'s, a
  Tensor is a node whose one child is its value.)
* **NumPy.**  Operators, NumPy-style methods and plain NumPy functions work
  through funcgrad.numpy and return Tensors; NumPy functions funcgrad has no
  derivative for (``np.array_equal``, ``np.isin``...) run on read-only views of
  the values when no Tensor involved requires grad, and raise otherwise.
* **dtypes** follow PyTorch's ``torch.tensor``: Python floats become the default
  dtype, float32 (``fg.Tensor(1.0)``, ``fg.tensor([2., 3.])``, ``fg.ones(2)``,
  ``fg.randn(3)``), Python ints int64, bools bool, and NumPy arrays keep their dtype
  (``fg.Tensor(np.ones(2))`` is float64).  ``fg.set_default_dtype(fg.float64)``
  changes the default, per thread (:mod:`funcgrad.eager.dtypes`).  Binary
  operations with a Tensor operand follow PyTorch's promotion
  (:mod:`funcgrad.eager.promotion`: 0-d Tensors and numbers, NumPy scalars included,
  do not widen Tensors with dimensions of their category, ``int64 * float32`` is
  float32, integer true division gives the default float dtype); operands are cast
  before the primitive, so gradients have the dtype of their Tensor.  The functional
  API on arrays keeps NumPy's rules.  Only floating Tensors can require grad.
* **PyTorch's methods** (:mod:`funcgrad.eager.methods`, :mod:`funcgrad.eager.shapes`)
  take PyTorch's arguments and, where PyTorch and NumPy disagree (``transpose(d0,
  d1)``, ``repeat``, ``var``'s default correction, ``max(dim)``), behave as PyTorch's.
  A method that funcgrad composes from several primitives is one node under PyTorch's
  name (``x.mean()`` is ``MeanBackward0``; :mod:`funcgrad.eager.named`).

The modules, bottom up:

=========================  ===========================================================
``eager.graph``            the nodes (``Node``, ``AccumulateGrad``) and what they save
``eager.values``           what a Tensor holds and how it converts and prints
``eager.interop``          NumPy functions funcgrad does not implement, on Tensors
``eager.inplace``          in-place updates and version counters
``eager.views``            in-place updates of views (``x[0]``, ``x.t()``) reach the base
``eager.walk``             the backward pass: which nodes run, checks, freeing
``eager.tensor``           the ``Tensor`` class, ``backward`` and ``grad``
``eager.grads``            ``fg.autograd.grad`` with ``is_grads_batched``
``eager.record``           the root interpreter's handler: recording operations
``eager.promotion``        PyTorch's type promotion for operations on Tensors
``eager.hooks``            backward hooks (``register_hook``, node pre/post hooks)
``eager.saved``            what a node saved, under PyTorch's names (``_saved_self``)
``eager.named``            one node under PyTorch's name for a composition (``MeanBackward0``)
``eager.methods``          PyTorch's math methods (``exp``, ``softmax(dim)``, ``max(dim)``...)
``eager.shapes``           PyTorch's shape methods (``view``, ``unsqueeze``, ``expand``...)
``eager.pointwise``        more elementwise methods (``add(alpha=)``, ``eq``, ``erf``...)
                           and the in-place ``_`` forms
``eager.reducing``         more reductions and scans (``amax``, ``topk``, ``cummax``...)
``eager.selecting``        picking and placing (``gather``, ``scatter``, ``flip``...)
``eager.pieces``           cutting (``split``, ``chunk``...), ``new_*``, descriptions
``eager.linear``           more linear algebra (``addmm``, ``det``, ``slogdet``...)
``eager.extras``           the rest of PyTorch's methods (``slice_scatter``, ``histc``, ``byte``...)
``eager.more_functions``   functions that are no method (``cdist``, ``var_mean``, ``searchsorted``...)
``eager.strides``          PyTorch's layout: ``stride()``, ``storage_offset()``, ``as_strided``
``eager.sampling``         random in-place fills (``uniform_``, ``normal_``, ``bernoulli_``...)
``eager.dtypes``           dtype names, the default dtype (float32)
``eager.factories``        ``fg.tensor``, ``fg.randn``, ``fg.arange``...
``eager.functions``        PyTorch's functions: ``fg.cat``, ``fg.where``, ``fg.exp(x)``...
``eager.dual``             the Tensor's methods on forward-AD dual values of Tensors
``eager.traced``           the Tensor's methods on the transforms' tracers of Tensors
=========================  ===========================================================
"""
from .graph import AccumulateGrad, Node
from .tensor import Tensor, backward
from .grads import grad
from . import record  # (registers the Tensor with the root interpreter)
from . import dual, methods, named, saved, shapes, steps, traced, views
from . import extras, linear, pieces, pointwise, reducing, sampling, selecting, strides
from .factories import *  # noqa: F401,F403  (fg.tensor, fg.randn, ...)
from .factories import DTYPES, __all__ as _FACTORIES
from .values import Device, Size

methods.attach(Tensor)
saved.attach(Node)
shapes.attach(Tensor)
steps.attach(Tensor)
for _more in (pointwise, reducing, selecting, pieces, linear, strides, sampling, extras):
    _more.attach(Tensor)
record.attach(Tensor)  # the lean path's operators and methods (eager.record)
pointwise.attach_aliases(Tensor)  # alternative names and in-place forms, of all the above
views.attach(Tensor, named.record_same)  # the view methods' results write in-place updates
# through to the base
dual.attach()  # forward_ad's dual values made from Tensors get the Tensor's methods
traced.attach()  # and so do the transforms' tracers of Tensors
equal, allclose = methods.equal, methods.allclose  # fg.equal(a, b), fg.allclose(a, b)
from . import functions  # noqa: E402  (after the methods it calls are attached)
globals().update({_name: getattr(functions, _name) for _name in functions.FUNCTIONS})
globals().update(DTYPES)  # fg.float32, fg.double, ... (NumPy's scalar types)

device = Device  # fg.device("cpu"), as torch.device
__all__ = ["Tensor", "Node", "AccumulateGrad", "Size", "device", "backward", "grad", "equal",
           "allclose"] + \
    [n for n in _FACTORIES if n != "DTYPES"] + list(DTYPES) + functions.__all__

"""The eager ``Tensor`` class, and the autograd functions that fill its ``.grad``.

:class:`Tensor` stacks three layers: :class:`~funcgrad.eager.values.TensorBase` (the
value and how it converts), :class:`~funcgrad.eager.inplace.InPlaceUpdates` (in-place
updates and version counters) and, here, the graph side: ``requires_grad``, ``grad``,
``grad_fn``, ``retain_grad``, ``detach``, ``backward``.  :func:`backward` and
:func:`grad` run the backward pass (:mod:`funcgrad.eager.walk`) and turn the
gradients it finds into Tensors.  The design is described in :mod:`funcgrad.eager`.
"""
import builtins
import warnings
import weakref
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from .. import core, tree
from .. import numpy as fnp
from ..core import Tracer, _state
from ..numpy._convert import asarray, register_array_type
from ..numpy._methods import attach_array_methods
from ..primitives import elementwise as ew
from . import hooks, interop, walk
from .dtypes import python_data_dtype
from .graph import CREATE_GRAPH_WARNING, AccumulateGrad, Storage
from .operators import Operators
from .inplace import InPlaceUpdates, add_into_grad
from ..typing import ArrayLike, DTypeLike

__all__ = ["Tensor", "backward", "grad"]

_new = object.__new__


def make(value, requires_grad):
    """A Tensor showing ``value`` (not copied), a leaf until a node claims it.

    >>> make(np.ones(2, np.float32), False)
    tensor([1., 1.])
    """
    t = _new(Tensor)
    t._storage = Storage(value)
    t._requires_grad = requires_grad
    t.grad_fn = None
    t._output_nr = 0
    t._grad = None
    t._accumulator = None
    t._inference = _state._inference
    return t


def result(value):
    """The result of an operation that recorded nothing: a Tensor showing ``value``, or,
    inside a transform, the traced value itself.

    >>> result(np.float32(2.0))
    tensor(2.)
    """
    if isinstance(value, Tracer):
        return value
    return make(value, False)


class Tensor(InPlaceUpdates, Operators):
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

    __slots__ = ()

    if TYPE_CHECKING:
        # What funcgrad.numpy._methods, .methods, .shapes and .steps attach at import, declared for
        # type checkers: PyTorch's methods with their own signatures, NumPy's generically.
        from . import methods as _m
        from . import linear as _l
        from . import shapes as _s
        exp, log, sin, cos, tanh, sigmoid, relu = \
            _m.exp, _m.log, _m.sin, _m.cos, _m.tanh, _m.sigmoid, _m.relu
        abs, sqrt, pow, clamp, clamp_, clip, clip_, norm = \
            _m.abs, _m.sqrt, _m.pow, _m.clamp, _m.clamp_, _m.clamp, _m.clamp_, _l.norm
        sum, mean, max, min, var, std, argmax, argmin = \
            _m.sum, _m.mean, _m.max, _m.min, _m.var, _m.std, _m.argmax, _m.argmin
        softmax, log_softmax, matmul, mm, bmm, dot, mv = \
            _m.softmax, _m.log_softmax, _m.matmul, _m.mm, _m.bmm, _m.dot, _m.mv
        clone, copy, to, type, is_floating_point, equal, allclose = \
            _m.clone, _m.clone, _m.to, _m.type, _m.is_floating_point, _m.equal, _m.allclose
        float = double = half = long = int = bool = _m.clone
        view, reshape, view_as, reshape_as, flatten, unsqueeze, squeeze = \
            _s.view, _s.reshape, _s.view_as, _s.view_as, _s.flatten, _s.unsqueeze, _s.squeeze
        permute, transpose, t, expand, expand_as, repeat, repeat_interleave = \
            _s.permute, _s.transpose, _s.t, _s.expand, _s.expand_as, _s.repeat, \
            _s.repeat_interleave
        from . import strides as _sd
        contiguous, ndimension = _sd.contiguous, _s.ndimension
        from . import steps as _st
        round, floor, ceil, trunc, sign, sort, angle = \
            _st.round, _st.floor, _st.ceil, _st.trunc, _st.sign, _st.sort, _st.angle
        prod: Callable[..., Tensor]
        cumsum: Callable[..., Tensor]
        cumprod: Callable[..., Tensor]
        all: Callable[..., Tensor]
        any: Callable[..., Tensor]
        ravel: Callable[..., Tensor]
        swapaxes: Callable[..., Tensor]
        conj: Callable[..., Tensor]
        conjugate: Callable[..., Tensor]
        argsort: Callable[..., Tensor]
        diagonal: Callable[..., Tensor]
        take: Callable[..., Tensor]
        nonzero: Callable[..., Any]
        trace: Callable[..., Tensor]
        astype: Callable[..., Tensor]
        T: Tensor
        mT: Tensor
        real: Tensor
        imag: Tensor
        at: Any

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        core.add_special_subclass(cls, Tensor)  # so the root interpreter routes them here
        core._tensor_classes.add(cls)

    def __new__(cls, value, requires_grad=False, dtype=None):
        if isinstance(value, Tensor):
            value = value._storage.value  # shared: Tensors never write into their arrays
            if dtype is not None and value.dtype != np.dtype(dtype):
                value = fnp.astype(value, dtype)
        else:
            given = value
            value = asarray(value, dtype)  # clear errors for strings, objects, ragged lists
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
            elif dtype is None and isinstance(value, np.ndarray):
                # Python floats become the default dtype (float32), as in PyTorch
                wanted = python_data_dtype(given, value)
                if wanted is not None and wanted != value.dtype:
                    value = value.astype(wanted)
            # (lists and numbers gave a fresh array; other array types (GPU) are immutable)
        self = _new(cls)
        self._storage = Storage(value)
        self._requires_grad = False
        self.grad_fn = None
        self._output_nr = 0
        self._grad = None
        self._accumulator = None
        self._inference = _state._inference
        if requires_grad:
            self.requires_grad = True
        return self

    # NumPy functions funcgrad does not implement run on the values (funcgrad.eager.interop)
    __array_ufunc__ = interop.array_ufunc
    __array_function__ = interop.array_function

    def __init__(self, value: ArrayLike, requires_grad: builtins.bool = False,
                 dtype: DTypeLike | None = None) -> None:
        pass  # everything happens in __new__, which may return a traced value instead

    def __reduce__(self):
        # copy.deepcopy and pickle: leaves only, as in PyTorch (a graph cannot be copied)
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) "
                               "support the deepcopy protocol; copy t.detach() instead.")
        grad = None if self._grad is None else np.asarray(self._grad._storage.value)
        return (_rebuild, (type(self), np.asarray(self._storage.value), self._requires_grad,
                           grad))

    @property
    def requires_grad(self) -> builtins.bool:
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
    def requires_grad(self, mode: builtins.bool) -> None:
        mode = bool(mode)
        if self.grad_fn is not None and not mode:  # (True: a no-op, as in PyTorch)
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to "
                "use a computed variable in a subgraph that doesn't require differentiation "
                "use var_no_grad = var.detach().")
        if mode and self.dtype.kind not in "fc":
            raise RuntimeError(
                f"Only Tensors of floating point and complex dtype can require gradients; "
                f"this one has dtype {self.dtype}. Create it with a float dtype, e.g. "
                f"fg.Tensor(x, dtype=np.float64, requires_grad=True).")
        if mode and self._inference and not _state.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = mode

    def requires_grad_(self, requires_grad: builtins.bool = True) -> "Tensor":
        """Set ``requires_grad`` in place and return the Tensor.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0]).requires_grad_()
        tensor([1.], requires_grad=True)
        """
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> builtins.bool:
        """True for Tensors not produced by a recorded operation (``grad_fn is None``).

        >>> import funcgrad as fg
        >>> w = fg.Tensor([1.0], requires_grad=True)
        >>> w.is_leaf, (w + 1).is_leaf
        (True, False)
        """
        return self.grad_fn is None

    @property
    def grad(self) -> "Tensor | None":
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
    def grad(self, value: "ArrayLike | Tensor | None") -> None:
        if value is not None:
            if not isinstance(value, Tensor):  # numbers and lists take this Tensor's dtype
                value = Tensor(value if isinstance(value, np.ndarray)
                               else np.asarray(value, self.dtype))
            interop.check_assigned_grad(value, self)
        self._grad = value

    @property
    def retains_grad(self) -> builtins.bool:
        """Whether this non-leaf keeps its ``.grad`` (see :meth:`retain_grad`).

        >>> import funcgrad as fg
        >>> y = fg.Tensor(2.0, requires_grad=True) * 3
        >>> y.retains_grad, (y.retain_grad(), y.retains_grad)[1]
        (False, True)
        """
        fn = self.grad_fn
        return fn is not None and bool(fn._retained) and self._output_nr in fn._retained \
            and fn._retained[self._output_nr]() is self

    def retain_grad(self) -> None:
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
    def data(self) -> "Tensor":
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
    def data(self, value: "ArrayLike | Tensor") -> None:
        if isinstance(value, Tensor):
            value = value._storage.value
        else:
            value = np.array(asarray(value), copy=True)
        self._storage.value = value

    def detach(self) -> "Tensor":
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

    def detach_(self) -> "Tensor":
        """Cut this Tensor from the graph in place (it becomes a leaf).

        >>> import funcgrad as fg
        >>> y = fg.Tensor([1.0], requires_grad=True) * 2
        >>> y.detach_().is_leaf
        True
        """
        if self._storage.base is not None:  # PyTorch's rule: the base would keep the graph
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        self.grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    def __getitem__(self, key: Any) -> "Tensor":
        return interop.getitem(self, key)

    # --- the graph -------------------------------------------------------------------------------

    def _edge(self):
        if self.grad_fn is not None:
            return (self.grad_fn, self._output_nr)
        # A leaf holds its AccumulateGrad weakly (the graph nodes hold it strongly), as
        # PyTorch does: leaf -> node -> leaf would be a reference cycle that only the
        # cyclic collector frees.  An alias leaf (see _attached) holds its node strongly:
        # that node points at another Tensor, so there is no cycle.
        acc = self._accumulator
        if type(acc) is weakref.ref:
            acc = acc()
        if acc is None:
            acc = AccumulateGrad(self)
            self._accumulator = weakref.ref(acc)
        return (acc, 0)

    def register_hook(self, hook: "Callable[[Tensor], Tensor | None]") -> Any:
        """Run ``hook(grad)`` each time this Tensor's gradient is computed; a Tensor it
        returns replaces the gradient (same shape and dtype).  On a leaf it runs before
        the gradient is added into ``.grad``.  Returns a handle with ``.remove()``.

        >>> import funcgrad as fg
        >>> x = fg.Tensor([1.0, 2.0], requires_grad=True)
        >>> h = x.register_hook(lambda g: g * 2)
        >>> (x * 3).sum().backward()
        >>> x.grad
        tensor([6., 6.])
        >>> h.remove()
        """
        return hooks.register_tensor_hook(self, hook)

    def register_post_accumulate_grad_hook(self, hook: "Callable[[Tensor], None]") -> Any:
        """Run ``hook(tensor)`` after a backward pass added into this leaf's ``.grad``
        (e.g. an optimizer step per parameter).  Returns a handle with ``.remove()``.

        >>> import funcgrad as fg
        >>> w = fg.Tensor([1.0], requires_grad=True)
        >>> h = w.register_post_accumulate_grad_hook(lambda t: print(t.grad))
        >>> (w * 3).sum().backward()
        tensor([3.])
        """
        return hooks.register_post_accumulate_hook(self, hook)

    def backward(self, gradient: "ArrayLike | Tensor | None" = None,
                 retain_graph: builtins.bool | None = None, create_graph: builtins.bool = False,
                 inputs: "Tensor | Sequence[Tensor] | None" = None) -> None:
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


def _rebuild(cls, value, requires_grad, grad):
    t = cls(value, requires_grad=requires_grad)
    if grad is not None:
        t._grad = Tensor(grad)
    return t


# --- the autograd functions --------------------------------------------------------------------

def backward(tensors: "Tensor | Sequence[Tensor]",
             grad_tensors: "ArrayLike | Tensor | Sequence[Any] | None" = None,
             retain_graph: bool | None = None, create_graph: bool = False,
             inputs: "Tensor | Sequence[Tensor] | None" = None) -> None:
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
    roots, seeds = walk.roots_and_seeds(tensors, grad_tensors, create_graph, "tensors")
    if inputs is not None:
        inputs = walk.tensor_list(inputs, "inputs")
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty (None: all)")
        edges = walk.backward_input_edges(inputs)
    previous = _state.grad_enabled
    if create_graph:  # the backward pass is recorded, and so is the sum into .grad
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=2)
        _state.grad_enabled = True
    try:
        def accumulate(t, g):
            _accumulate(t, g, create_graph)
        if inputs is None:
            for t, g in walk.run(roots, seeds, retain_graph, accumulate=accumulate,
                                 **_options(create_graph)):
                _accumulate(t, g, create_graph)
            return
        captured = walk.run(roots, seeds, retain_graph, edges, accumulate=accumulate,
                            **_options(create_graph))
        for t, e in zip(inputs, edges):
            g = captured.get(e)
            if g is not None and t.grad_fn is None:  # (a non-leaf's is its retained grad)
                _accumulate(t, g, create_graph)
    finally:
        _state.grad_enabled = previous


def grad(outputs: "Tensor | Sequence[Tensor]", inputs: "Tensor | Sequence[Tensor]",
         grad_outputs: "ArrayLike | Tensor | Sequence[Any] | None" = None,
         retain_graph: bool | None = None, create_graph: bool = False,
         allow_unused: bool | None = None,
         materialize_grads: bool = False) -> "tuple[Tensor | None, ...]":
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
    inputs = walk.tensor_list(inputs, "inputs")
    roots, seeds = walk.roots_and_seeds(outputs, grad_outputs, create_graph, "outputs")
    edges = [walk.input_edge(t) for t in inputs]
    previous = _state.grad_enabled
    if create_graph:
        _state.grad_enabled = True
    try:  # (non-leaves on the way that retain their grad get it, as in PyTorch)
        captured = walk.run(roots, seeds, retain_graph, edges, **_options(create_graph),
                            accumulate=lambda t, g: _accumulate(t, g, create_graph))
    finally:
        _state.grad_enabled = previous
    results: list[Any] = []
    for t, e in zip(inputs, edges):
        g = captured.get(e)
        if g is None:
            if not allow_unused:
                raise RuntimeError(walk.unused_message(len(results)))
            results.append(make(np.zeros(t.shape, t.dtype), False) if materialize_grads
                           else None)
            continue
        g = walk.fit_gradient(t, g)
        results.append(g if isinstance(g, Tensor) else make(g, False))
    return tuple(results)


def _options(create_graph):
    """How :func:`walk.run` runs the rules: with ``create_graph``, on Tensors attached
    to the graph and in their plain form (no ``vjp_into`` shortcut)."""
    return _RECORDED if create_graph else _PLAIN


_PLAIN = {"rule": None, "shortcuts": True, "make": make}


def _accumulate(t, g, create_graph):
    """``t.grad += g`` (in place for a leaf outside create_graph, as PyTorch:
    :func:`~funcgrad.eager.inplace.add_into_grad`), then the post-accumulate-grad hooks."""
    g = walk.fit_gradient(t, g)
    old = t._grad
    if create_graph:  # the sum is recorded too
        g = g if isinstance(g, Tensor) else make(g, False)
        t._grad = g if old is None else old + g
    else:
        if isinstance(g, Tensor):
            g = g._storage.value
        if not add_into_grad(t, g):
            t._grad = make(g if old is None else ew.add(old._storage.value, g), False)
    if getattr(t, "_hooks", None) is not None:
        hooks.run_post_accumulate(t)


def _graph_rule(node, g, value, args):
    """A node's VJP rule with each saved value whose input required grad re-wrapped as a
    Tensor on the same graph edge, so the rule's operations are recorded (create_graph)."""
    if node._versions is not None:  # nodes that saved only shapes have nothing to wrap
        if node.prim.multiple_results:
            value = tuple(_attached(v, (node, k)) if v.dtype.kind in "fc" else v
                          for k, v in enumerate(value))
        else:
            value = _attached(value, (node, 0))
        args = [a if p is None else _attached(a, p._edge()) for a, p in zip(args, node.parents)]
    params = node.params
    if params:
        return node.prim.vjp(node.needs, g, value, *args, **params)
    return node.prim.vjp(node.needs, g, value, *args)


_RECORDED = {"rule": _graph_rule, "shortcuts": False, "make": make}


def _attached(value, edge):
    """A Tensor showing ``value`` whose gradient flows into graph edge ``edge``."""
    fn, nr = edge
    if type(fn) is AccumulateGrad:
        if fn.variable._storage.value is value:
            return fn.variable
        t = make(value, True)  # an alias of the leaf: holds its node strongly (no cycle)
        t._accumulator = fn
        return t
    t = make(value, True)
    t.grad_fn = fn
    t._output_nr = nr
    return t


# funcgrad.numpy treats Tensors as arrays and gives them NumPy's operators and methods;
# the Tensor keeps its own versions of the ones it defines.
register_array_type(Tensor)
_OWN = {name: getattr(Tensor, name) for name in (
    "__array__", "__bool__", "__float__", "__int__", "__complex__", "__index__", "__hash__",
    "__getitem__", "__setitem__", "__array_ufunc__", "__array_function__", "item", "tolist")}
attach_array_methods(Tensor)
for _name, _fn in _OWN.items():
    setattr(Tensor, _name, _fn)
del _name, _fn

# A Tensor is a pytree node whose one child is its value (the transforms take it as one
# leaf instead, so that they record on its graph: core.is_special).
tree.register(Tensor, lambda t: ((t._storage.value,), None),
              lambda aux, children: Tensor(children[0]))

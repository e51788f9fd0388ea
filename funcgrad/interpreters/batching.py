"""Batching (vmap): a tracer is an array with one extra axis, ``batch_dim``.

Each primitive's ``batch`` rule maps batched arguments (with their batch axes,
``None`` for unbatched ones) to a batched result and its batch axis.  Rules
call primitives, so ``vmap`` composes with every other transform.

A ``vmap`` with an ``axis_name`` lets collectives (``fg.lax.psum``...) act across its
batch: their primitives name the interpreters they reduce over, and the batch rule in
:data:`NAMED_AXIS_RULES` also receives the interpreter running it, to tell its own axis
from another's.  A collective traced into a graph (inside ``jit``, a ``scan`` body...)
names its axis by a :class:`StagedAxis` instead, since the graph is batched later, by a
new interpreter: the rules of the primitives holding graphs tell that interpreter the
name of the axis it batches (:func:`graph_batch_rule`, :func:`batching_axis_name`).
"""
import functools
import threading

from ..core import (ROOT, TENSOR_PROMOTION, ConcretizationError, Interpreter, Tracer,
                    _special_classes, run_under, stands_for_tensor, user_frame_summary)

__all__ = ["BatchInterpreter", "BatchTracer", "NAMED_AXIS_RULES", "VARYING_ALONG_AXIS",
           "StagedAxis", "graph_batch_rule", "batching_axis_name", "named_axes"]

NAMED_AXIS_RULES: dict = {}
"""Primitive -> ``rule(interpreter, args, dims, **params)``, its batch rule where the
interpreter running it matters: collectives (:mod:`funcgrad.lax._collectives` fills it)
and primitives holding graphs (:func:`graph_batch_rule`)."""

VARYING_ALONG_AXIS: set = set()
"""Collectives whose result differs from example to example even when their operand is
the same for all (``psum_scatter``: each example gets its own slice of the sum): every
vmap runs their rule in :data:`NAMED_AXIS_RULES`, batched operands or not, where others
pass an operation with no batched operand on to the interpreter below."""


class StagedAxis:
    """A named vmap axis as a collective inside a graph refers to it: by name (and the
    size it had when the graph was traced), as JAX's jaxprs do.  The interpreter that
    batches the graph along that vmap's axis answers to the name."""

    __slots__ = ("axis_name", "axis_size")

    def __init__(self, axis_name, axis_size):
        self.axis_name, self.axis_size = axis_name, axis_size

    def __eq__(self, other):
        return (type(other) is StagedAxis and other.axis_name == self.axis_name
                and other.axis_size == self.axis_size)

    def __hash__(self):
        return hash((StagedAxis, self.axis_name, self.axis_size))

    def __repr__(self):
        return f"StagedAxis({self.axis_name!r}, {self.axis_size})"


_batching = threading.local()


def batching_axis_name():
    """The axis name of the vmap whose rule for a primitive holding graphs is running (None
    for an unnamed vmap, or outside such a rule): :func:`funcgrad.jit.derive.batch_graph`
    batches the graphs along it, and keys the graphs it derives with it."""
    return getattr(_batching, "axis_name", None)


def graph_batch_rule(batch):
    """The batch rule ``batch`` of a primitive holding graphs, run knowing the name of the
    vmap axis it batches (see :func:`batching_axis_name`)."""
    def rule(interp, args, dims, **params):
        previous = batching_axis_name()
        _batching.axis_name = interp.axis_name
        try:
            return batch(args, dims, **params)
        finally:
            _batching.axis_name = previous
    return rule


def named_axes(interp):
    """``(name, size)`` of every named vmap around ``interp``, innermost first: what a
    collective traced into a graph there can refer to (jit keys its traces with it)."""
    env = []
    while interp is not None:
        if type(interp) is BatchInterpreter and interp.axis_name is not None:
            env.append((interp.axis_name, interp.axis_size))
        interp = interp.parent
    return tuple(env)


class BatchTracer(Tracer):
    __slots__ = ("value", "batch_dim")

    def __init__(self, trace, value, batch_dim):
        self._trace = trace
        self.value = value
        self.batch_dim = batch_dim

    @property
    def shape(self):
        shape = self.value.shape
        return shape[:self.batch_dim] + shape[self.batch_dim + 1:]

    @property
    def dtype(self):
        return self.value.dtype

    def _carried(self):
        return self.value

    def _concrete(self):
        self._check_alive()
        raise ConcretizationError(
            "vmap: a batched value was used where one concrete value is needed (a Python "
            "`if`/`while` on it, float(), int(), bool(), .item() or a NumPy conversion) at\n  "
            f"{user_frame_summary()}\nEach example of the batch may take a different branch. "
            "Use fg.numpy.where (or fg.lax.cond) instead of Python control flow, or move the "
            "computation outside vmap.")


class BatchInterpreter(Interpreter):
    __slots__ = ("axis_size", "axis_name")
    transform = "vmap"

    def __init__(self, axis_size, parent=None, axis_name=None):
        super().__init__(parent)
        self.axis_size = axis_size
        self.axis_name = axis_name

    def process(self, prim, args, params):
        vals = list(args)
        dims = [None] * len(args)
        own = False
        for i, a in enumerate(args):
            if type(a) is BatchTracer and a._trace is self:
                vals[i] = a.value
                dims[i] = a.batch_dim
                own = True
        if not own and prim not in VARYING_ALONG_AXIS:
            return self.parent.process(prim, args, params)
        if prim.elementwise is not None and self.parent is ROOT and _aligned(vals, dims):
            # The elementwise batch rule would hand these operands to the kernel unchanged
            # (no axis to move, no rank to pad): most operations of a forward-over-reverse
            # Hessian, where each is a batch of tangents against plain residuals.
            return BatchTracer(self, prim.impl(*vals, **params), 0)
        if prim.elementwise is not None and len(args) == 2 and TENSOR_PROMOTION and (
                stands_for_tensor(args[0]) or stands_for_tensor(args[1])):
            # PyTorch's promotion on the examples' ranks (core.TENSOR_PROMOTION): the eager
            # Tensor would see a batch of 0-d Tensors as a Tensor with dimensions
            cast = TENSOR_PROMOTION[0](prim, *args)
            if cast[0] is not args[0] or cast[1] is not args[1]:
                return self.process(prim, cast, params)
        rule = prim.batch
        if prim in NAMED_AXIS_RULES:
            rule = functools.partial(NAMED_AXIS_RULES[prim], self)
        out, out_dim = run_under(self.parent, rule, vals, dims, **params)
        if prim.multiple_results:
            return [o if d is None else BatchTracer(self, o, d) for o, d in zip(out, out_dim)]
        if out_dim is None:
            return out
        return BatchTracer(self, out, out_dim)


def _aligned(vals, dims):
    """Are the operands of an elementwise operation plain arrays and numbers whose batched
    ones have their batch axis in front and as many other axes as the widest operand?"""
    rank = 0
    for v, d in zip(vals, dims):
        if type(v) in _special_classes or (d is not None and d != 0):
            return False
        r = len(getattr(v, "shape", ())) - (d is not None)
        if r > rank:
            rank = r
    for v, d in zip(vals, dims):
        if d is not None and len(v.shape) - 1 != rank:
            return False
    return True

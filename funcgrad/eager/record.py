"""Recording: the root interpreter's handler for operations on Tensors.

Every operation on Tensors reaches funcgrad's root interpreter, which hands it here
(``core.register_special_type``).  The handler unwraps the Tensors, computes the
primitive on their values and, when gradients are enabled and some input requires
grad, records a :class:`~funcgrad.eager.graph.Node` (the ``grad_fn``) holding the
primitive, its residuals, which inputs want cotangents and where each cotangent goes.

What a node saves follows the primitive's ``vjp_reads``, as PyTorch's formulas do:
a rule that reads only shapes (``add``, ``reduce_sum``, ``reshape``...) saves shapes,
so nothing is freed and inference-mode Tensors may flow into it; otherwise the node
keeps the values and remembers the version of each Tensor its rule reads.  While a
debugging tool is active every node saves its values, so the tool sees them.
"""
from numpy import ndarray

from .. import core, instruments
from ..core import SHAPES_ONLY, _special_classes, _state
from ..primitives.elementwise import divide_p
from .graph import SELF, Node, Select, shaped
from .promotion import promote
from .tensor import Tensor, make, result

__all__ = ["process"]

INFERENCE_SAVE_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `fg.no_grad()` instead of "
    "`fg.inference_mode()`.")



def process(prim, args, params):
    """Compute ``prim`` on the values of the Tensors in ``args`` and record it when
    gradients are on and some input requires grad (the root interpreter's handler).

    >>> import funcgrad as fg
    >>> from funcgrad.primitives import elementwise as ew
    >>> process(ew.multiply_p, (fg.Tensor(2.0, requires_grad=True), 3.0), {})
    tensor(6., grad_fn=<MulBackward0>)
    """
    # One- and two-argument primitives are nearly all of them: unrolled for speed.
    n = len(args)
    if n == 2:
        a, b = args
        if prim.elementwise is not None and not (
                type(a) is Tensor and type(b) is Tensor and prim is not divide_p
                and a._storage.value.dtype == b._storage.value.dtype):
            a, b = promote(prim, a, b)  # PyTorch's type promotion (eager.promotion)
            args = (a, b)
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
            decl = prim.elementwise
            if (n == 2 and not params and decl is not None and decl.impl_flat is not None
                    and (type(a) is not ndarray or a.ndim < 2)
                    and (type(b) is not ndarray or b.ndim < 2)):
                out = decl.impl_flat(a, b)  # (vectors and numbers: see Elementwise.impl_flat)
            else:
                out = prim.impl(*vals, **params) if params else prim.impl(*vals)
    if not record:
        if prim.multiple_results:
            return [result(o) for o in out]
        return result(out)
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


def _record(prim, args, vals, params, out):
    needs, parents = [], []
    for a in args:
        if isinstance(a, Tensor) and a._requires_grad:
            needs.append(True)
            fn = a.grad_fn
            if fn is None:
                parents.append(a._edge()[0])
            elif fn.prim.multiple_results:  # one output of several: see graph.parent_of
                parents.append(Select(fn, a._output_nr))
            else:
                parents.append(fn)
        else:
            needs.append(False)
            parents.append(None)
    needs = tuple(needs)
    multiple = prim.multiple_results
    outs = tuple(out) if multiple else (out,)
    instrumented = _state.recording == 2
    output_read = False
    rule_reads = prim.vjp_reads
    if rule_reads is SHAPES_ONLY and not instrumented:
        saved_args = tuple(shaped(v) for v in vals)
        saved_value = tuple(shaped(o) for o in outs) if multiple else shaped(out)
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
    node = Node(prim, params or None, saved_args, saved_value, needs, tuple(parents),
                versions, len(outs))
    if versions is not None:
        node._saves = saves or output_read
    results = []
    for k, o in enumerate(outs):
        if o.dtype.kind in "fc":
            t = make(o, True)
            t.grad_fn = node
            t._output_nr = k
            if output_read:  # SELF, not node: a node holding itself would be a cycle
                versions.append((t._storage, 0, SELF, k))
        else:
            t = result(o)
        results.append(t)
    if instrumented:
        node._shown = (args, results)  # tools see Tensors (instruments.saved_residuals)
        try:
            instruments.record(node)
        finally:
            node._shown = None
    return results if multiple else results[0]


core.register_special_type(Tensor, process)

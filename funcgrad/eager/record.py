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
import functools

from numpy import ndarray

from .. import core, instruments
from ..core import _NO_PARAMS, ROOT, SHAPES_ONLY, _special_classes, _state
from ..primitives import elementwise as ew
from ..primitives.elementwise import divide_p
from .graph import SELF, Node, Select, shaped
from .promotion import broadcast_error, promote
from .tensor import Tensor, make, result

__all__ = ["process", "process1", "process2", "attach"]

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
    if not params:  # (nearly every elementwise operation: see process2)
        n = len(args)
        if n == 2:
            return process2(prim, args[0], args[1])
        if n == 1:
            return process1(prim, args[0])
    return _process(prim, args, params)


def _process(prim, args, params):
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
        # (a custom Function's call is a node of its own class: MyExp's is MyExpBackward)
        node_class = getattr(params.get("rule"), "node_class", None)
        if node_class is not None:
            return _record(prim, args, vals, params, out, node_class)
    else:
        for v in vals:
            if type(v) in _special_classes:  # an escaped tracer (clear error), a GPU array
                out = core.ROOT.process(prim, vals, params)
                break
        else:
            decl = prim.elementwise
            try:
                if (n == 2 and not params and decl is not None and decl.impl_flat is not None
                        and (type(a) is not ndarray or a.ndim < 2)
                        and (type(b) is not ndarray or b.ndim < 2)):
                    out = decl.impl_flat(a, b)  # (vectors, numbers: Elementwise.impl_flat)
                else:
                    out = prim.impl(*vals, **params) if params else prim.impl(*vals)
            except ValueError as error:  # (shapes that do not broadcast: PyTorch's error)
                if decl is None:
                    raise
                raise broadcast_error(error, vals) from None
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


# --- the lean path ---------------------------------------------------------------------------
# An elementwise operation on Tensors of one floating dtype, or on such a Tensor and a
# Python float or int, is most of what a model does; PyTorch's promotion leaves its
# operands as they are (eager.promotion: a number never changes a floating Tensor's
# dtype), so the lean path computes it without promote() and records its node without
# _record's loops: the same kernel call, the same node, the same bits.  Anything else
# (another dtype, a subclass, a GPU value, an instrument watching, an output of another
# dtype) goes the general way.  W2's 200-step chain: see
# benchmarks/results/session15-tensorfast.md.

_BOTH, _FIRST, _SECOND, _ONE = (True, True), (True, False), (False, True), (True,)
# primitive -> False, or {needs: what its rule reads} (vjp_reads, a pure function of
# needs without parameters, asked once: its call was a tenth of a lean record)
_lean: dict = {}


def _lean_ok(prim):
    ok = _lean[prim] = (prim.elementwise is not None and prim.differentiable
                        and not prim.multiple_results and prim.reverse_fwd is None) and {}
    return ok


def _reads(prim, lean, needs):
    """``(reads, output_read)`` of ``prim``'s rule for ``needs`` (remembered in ``lean``)."""
    rule_reads = prim.vjp_reads
    reads = lean[needs] = ((True,) * len(needs), False) if rule_reads is None \
        else rule_reads(needs)
    return reads


def _shaped_all(x, y, out):
    """``shaped`` of a binary node's operands and output, one object for those of the
    output's shape (their dtype is the output's on the lean path; a ShapedArray is never
    changed): a ShapedArray cost as much as the node."""
    s = shaped(out)
    shape = s.shape
    return (s if type(x) is ndarray and x.shape == shape else shaped(x),
            s if type(y) is ndarray and y.shape == shape else shaped(y)), s


def process2(prim, a, b):
    """:func:`process` of a binary primitive without parameters (an operator's).

    >>> import funcgrad as fg
    >>> from funcgrad.primitives import elementwise as ew
    >>> process2(ew.add_p, 1.0, fg.Tensor([2.0], requires_grad=True))
    tensor([3.], grad_fn=<AddBackward0>)
    """
    ta, tb = type(a), type(b)
    if ta is Tensor:
        x = a._storage.value
        dt = x.dtype
        if tb is Tensor:
            y = b._storage.value
            if y.dtype is not dt and y.dtype != dt:
                return _process(prim, (a, b), _NO_PARAMS)
        elif tb is float or tb is int:
            y = b
        else:
            return _process(prim, (a, b), _NO_PARAMS)
    elif tb is Tensor and (ta is float or ta is int):
        x = a
        y = b._storage.value
        dt = y.dtype
    else:
        return _process(prim, (a, b), _NO_PARAMS)
    lean = _lean.get(prim)
    if lean is None:
        lean = _lean_ok(prim)
    tx, ty = type(x), type(y)
    if (lean is False or dt.kind not in "fc" or tx is not ndarray and tx in _special_classes
            or ty is not ndarray and ty in _special_classes):
        return _process(prim, (a, b), _NO_PARAMS)
    flat = prim.elementwise.impl_flat
    try:
        if flat is not None and (tx is not ndarray or x.ndim < 2) and (ty is not ndarray or y.ndim < 2):
            out = flat(x, y)  # (vectors and numbers: see Elementwise.impl_flat)
        else:
            out = prim.impl(x, y)
    except ValueError as error:  # (shapes that do not broadcast: PyTorch's error)
        raise broadcast_error(error, (x, y)) from None
    want_a = ta is Tensor and a._requires_grad
    want_b = tb is Tensor and b._requires_grad
    recording = _state.recording
    if not (want_a or want_b) or not recording:
        return make(out, False)
    if recording != 1 or out.dtype is not dt:
        return _record(prim, (a, b), (x, y), _NO_PARAMS, out)
    if want_a:
        fn = a.grad_fn
        parent_a = fn if fn is not None and not fn.prim.multiple_results else _parent(a)
        if want_b:
            fn = b.grad_fn
            parent_b = fn if fn is not None and not fn.prim.multiple_results else _parent(b)
            needs = _BOTH
        else:
            parent_b, needs = None, _FIRST
    else:
        fn = b.grad_fn
        parent_a, needs = None, _SECOND
        parent_b = fn if fn is not None and not fn.prim.multiple_results else _parent(b)
    if prim.vjp_reads is SHAPES_ONLY:  # (add, subtract: nothing saved, nothing to check)
        args, value = _shaped_all(x, y, out)
        node = Node(prim, None, args, value, needs, (parent_a, parent_b), None, 1)
        t = make(out, True)
        t.grad_fn = node
        return t
    reads = lean.get(needs)
    (read_a, read_b), output_read = reads or _reads(prim, lean, needs)
    versions = []
    saves = output_read
    if read_a and ta is Tensor:
        _keep_version(a, versions)
        saves = True
    if read_b and tb is Tensor:
        _keep_version(b, versions)
        saves = True
    node = Node(prim, None, (x, y), out, needs, (parent_a, parent_b), versions, 1)
    node._saves = saves
    t = make(out, True)
    t.grad_fn = node
    if output_read:
        versions.append((t._storage, 0, SELF, 0))
    return t


def process1(prim, a):
    """:func:`process` of a unary primitive without parameters (``t.sin()``'s).

    >>> import funcgrad as fg
    >>> from funcgrad.primitives import elementwise as ew
    >>> process1(ew.exp_p, fg.Tensor([0.0], requires_grad=True))
    tensor([1.], grad_fn=<ExpBackward0>)
    """
    if type(a) is not Tensor:
        return _process(prim, (a,), _NO_PARAMS)
    x = a._storage.value
    dt = x.dtype
    lean = _lean.get(prim)
    if lean is None:
        lean = _lean_ok(prim)
    tx = type(x)
    if lean is False or dt.kind not in "fc" or tx is not ndarray and tx in _special_classes:
        return _process(prim, (a,), _NO_PARAMS)
    out = prim.impl(x)
    recording = _state.recording
    if not a._requires_grad or not recording:
        return make(out, False)
    if recording != 1 or out.dtype is not dt:
        return _record(prim, (a,), (x,), _NO_PARAMS, out)
    fn = a.grad_fn
    parent = fn if fn is not None and not fn.prim.multiple_results else _parent(a)
    if prim.vjp_reads is SHAPES_ONLY:
        node = Node(prim, None, (shaped(x),), shaped(out), _ONE, (parent,), None, 1)
        t = make(out, True)
        t.grad_fn = node
        return t
    (read_x,), output_read = lean.get(_ONE) or _reads(prim, lean, _ONE)
    versions = []
    if read_x:
        _keep_version(a, versions)
    node = Node(prim, None, (x,), out, _ONE, (parent,), versions, 1)
    node._saves = read_x or output_read
    t = make(out, True)
    t.grad_fn = node
    if output_read:
        versions.append((t._storage, 0, SELF, 0))
    return t


def _parent(t):
    """The node ``t``'s cotangent goes to (``t`` requires grad)."""
    fn = t.grad_fn
    if fn is None:
        return t._edge()[0]
    if fn.prim.multiple_results:  # one output of several: see graph.parent_of
        return Select(fn, t._output_nr)
    return fn


def _keep_version(t, versions):
    """Note the version of ``t``, whose value a node saves (inference Tensors refuse)."""
    if t._inference:
        raise RuntimeError(INFERENCE_SAVE_MESSAGE)
    storage = t._storage
    versions.append((storage, storage.version, t.grad_fn, t._output_nr))


def _record(prim, args, vals, params, out, node_class=Node):
    needs, parents = [], []
    for a in args:
        if isinstance(a, Tensor) and a._requires_grad:
            needs.append(True)
            parents.append(_parent(a))
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
                _keep_version(a, versions)
    node = node_class(prim, params or None, saved_args, saved_value, needs, tuple(parents),
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


# The Tensor's arithmetic operators and its one-primitive methods, at the root (no
# transform active), call process2 / process1 directly: the general route's
# interpreter.process -> core._process_special -> process would find this module
# anyway, two calls later.  Elsewhere (inside a transform, a Tensor subclass, an
# operand to convert) they are the operators funcgrad.numpy attached.
_OPERATORS = (("add", ew.add_p), ("sub", ew.subtract_p), ("mul", ew.multiply_p),
              ("truediv", ew.divide_p), ("pow", ew.power_p))
_METHODS = (("exp", ew.exp_p), ("log", ew.log_p), ("sin", ew.sin_p), ("cos", ew.cos_p),
            ("tanh", ew.tanh_p), ("sqrt", ew.sqrt_p))


def _operator(prim, general, reflected):
    def op(self, other):
        t = type(other)
        if (t is float or t is int or t is Tensor) and _state.interpreter is ROOT:
            return process2(prim, other, self) if reflected else process2(prim, self, other)
        return general(self, other)
    op.__name__, op.__qualname__, op.__doc__ = general.__name__, general.__qualname__, \
        general.__doc__
    return op


def _method(prim, general):
    def method(self):
        # (an integer Tensor's method computes in the default float dtype: general's)
        if (type(self) is Tensor and self._storage.value.dtype.kind in "fc"
                and _state.interpreter is ROOT):
            return process1(prim, self)
        return general(self)
    functools.update_wrapper(method, general)
    return method


def attach(cls):
    """Give ``cls`` (the Tensor) the operators and methods that take the lean path."""
    for name, prim in _OPERATORS:
        for dunder, reflected in ((f"__{name}__", False), (f"__r{name}__", True)):
            setattr(cls, dunder, _operator(prim, getattr(cls, dunder), reflected))
    for name, prim in _METHODS:
        setattr(cls, name, _method(prim, getattr(cls, name)))


core.register_special_type(Tensor, process)
core._tensor_classes.add(Tensor)
core.TENSOR_PROMOTION.append(promote)

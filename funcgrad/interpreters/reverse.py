"""Reverse mode: a tape of nodes, walked backwards with VJP rules.

While the user's function runs, each primitive applied to one of this
interpreter's tracers is computed by the parent interpreter and recorded as a
:class:`Node` on the tape (creation order is a topological order).  The
backward pass (:mod:`funcgrad.interpreters.backprop`, the engine the eager
``Tensor`` shares) walks the tape from the end, calls each primitive's ``vjp``
rule with the node's residuals (its inputs and output) and accumulates
cotangents per node.  ``None`` is a symbolic zero cotangent: nodes that
receive none are skipped, so absent derivatives cost nothing and
``0 * inf`` never reaches a gradient that does not depend on it.

VJP rules are written with differentiable primitives and run under whatever
interpreter is current when the backward pass runs, so reverse-over-reverse,
forward-over-reverse and ``vmap`` of a ``vjp_fn`` all work.
"""
from numpy import array as _array, dtype as _dtype, ndarray

from .. import instruments
from ..core import (ROOT, Interpreter, Tracer, _special_classes, _state, concrete, dtype_of,
                    is_weak, run_under)
from ..primitives.elementwise import add_p, divide_p, multiply_p, subtract_p
from .backprop import SELECT, UNNUMBERED, backpropagate
from .forward import JVPInterpreter

__all__ = ["ReverseInterpreter", "ReverseTracer", "backward_pass"]


class Node:
    """A recorded operation with several outputs; its outputs are :data:`SELECT` tracers."""

    __slots__ = ("prim", "args", "params", "value", "parents", "needs", "meta", "slot")

    def __init__(self, prim, args, params, value, parents, needs):
        self.slot = UNNUMBERED  # (its position on the tape, once there)
        self.prim = prim
        self.args = args
        self.params = params
        self.value = value
        self.parents = parents
        self.needs = needs
        self.meta = None


class ReverseTracer(Tracer):
    """A value and, being its own tape node, what produced it.

    ``prim`` is None for an input; otherwise ``args``/``params``/``value`` are the
    residuals the VJP rule needs and ``parents``, aligned with ``args``, holds the tracer
    (node) each argument came from, or None for an argument that is not traced.
    ``slot`` is the node's position on its interpreter's tape, set once at the append
    (:data:`~funcgrad.interpreters.backprop.UNNUMBERED` for an input): the backward walk
    keeps the tape's cotangents in a list by that number.
    """

    # ``weak``: does the value stand for a Python number (see core.is_weak)?  A Python
    # number passed as an argument stays one, so NumPy promotes it as it would the number
    # written into the function.  A slot, set once (a value never changes): every
    # arithmetic operator reads it, and a property cost a call each time.
    __slots__ = ("value", "prim", "args", "params", "parents", "needs", "meta", "weak",
                 "slot")

    # No __init__: ``ReverseTracer()`` (object's __new__ and __init__, both in C) and a
    # store a field is how every tracer is built, by :func:`_tracer` or inline in the
    # records.  ``object.__new__(ReverseTracer)`` would go through the ``__new__``
    # wrapper (an argument tuple, a walk of the class's bases): callgrind, 896 against 596
    # instructions a tracer; a Python __init__ costs a frame more.

    @property
    def shape(self):
        try:
            return self.value.shape
        except AttributeError:  # (a Python number)
            return ()

    @property
    def dtype(self):
        try:
            return self.value.dtype
        except AttributeError:
            return dtype_of(self.value)

    def _carried(self):
        return self.value

    def _concrete(self):
        self._check_alive()
        return concrete(self.value)


class ReverseInterpreter(Interpreter):
    __slots__ = ("tape", "constants")
    transform = "grad/vjp (reverse mode)"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tape = []
        # the Python floats its products and quotients converted, float64's and float32's
        # (see _hold_constant)
        self.constants = ({}, {})

    def new_input(self, value):
        # (an array, every parameter of a model on every gradient, is never weak)
        return _tracer(self, value, None, (), None, (), (),
                       type(value) is not ndarray and is_weak(value))

    def process(self, prim, args, params):
        # One- and two-argument primitives are nearly all of them: unrolled for speed.
        n = len(args)
        if n == 2:
            a, b = args
            own_a = type(a) is ReverseTracer and a._trace is self
            own_b = type(b) is ReverseTracer and b._trace is self
            if own_a:
                a = a.value
                if own_b:
                    b = b.value
                    parents, needs = tuple(args), _BOTH  # (args itself if a tuple)
                else:
                    parents, needs = (args[0], None), _FIRST
            elif own_b:
                b = b.value
                parents, needs = (None, args[1]), _SECOND
            else:
                return self.parent.process(prim, args, params)
            vals = (a, b)
            plain = type(a) not in _special_classes and type(b) not in _special_classes
        elif n == 1:
            a, = args
            if type(a) is not ReverseTracer or a._trace is not self:
                return self.parent.process(prim, args, params)
            vals = (a.value,)
            parents, needs = tuple(args), _FIRST1
            plain = type(vals[0]) not in _special_classes
        else:
            vals, parents, needs, plain = self._unwrap(args)
            if not parents:
                return self.parent.process(prim, args, params)
        if prim.multiple_results:
            return self._process_multiple(prim, vals, params, parents, needs)
        parent = self.parent
        recording = self.local["recording"]
        if plain and parent is ROOT:  # the root would only re-check the arguments
            if prim.reverse_fwd is None or recording != 1:
                out = prim.impl(*vals, **params) if params else prim.impl(*vals)
            else:  # the output and values its VJP would otherwise compute again
                out, residuals = prim.reverse_fwd(vals, params)
                if residuals is not None:
                    params = dict(params, residuals=residuals)
        elif type(parent) is JVPInterpreter:  # forward-over-reverse: tangents on demand
            out = parent.process_deferred(prim, vals, params)
        else:
            out = parent.process(prim, vals, params)
            recording = self.local["recording"]  # (the parent may have run a rule that set it)
        if not prim.differentiable or (recording == 0 and self.tag < _state.grad_off_tag):
            return out
        # (_tracer's work inline: its call is a frame, about a quarter of a tracer's
        # construction)
        tracer = ReverseTracer()
        tracer._trace = self
        tracer.value = out
        tracer.prim = prim
        tracer.args = vals
        tracer.params = params or None
        tracer.parents = parents
        tracer.needs = needs
        tracer.meta = None
        tracer.weak = type(out) is not ndarray and is_weak(out)
        if recording == 2:
            instruments.record(tracer)
        tape = self.tape
        tracer.slot = len(tape)
        tape.append(tracer)
        return tracer

    # The record of a one- or two-argument primitive without parameters, as the tracers'
    # operators and unary functions bind nearly all of them: ``process``'s work where it
    # is plain (the root computes, gradients record without instruments, a primitive of
    # one output and no reverse_fwd), in one frame without the argument tuple, its
    # length and its unpacking; anything else goes to ``process``.  About a third of a
    # recorded operation's bytecodes (W2: 156 -> 100 a primitive).
    def process1(self, prim, a):
        if (type(a) is not ReverseTracer or a._trace is not self or self.parent is not ROOT
                or self.local["recording"] != 1 or prim.reverse_fwd is not None
                or prim.multiple_results or not prim.differentiable):
            return self.process(prim, (a,), _NO_PARAMS)
        x = a.value
        if type(x) is not ndarray and type(x) in _special_classes:
            return self.process(prim, (a,), _NO_PARAMS)
        out = prim.impl(x)
        tracer = ReverseTracer()  # (field by field: see process)
        tracer._trace = self
        tracer.value = out
        tracer.prim = prim
        tracer.args = (x,)
        tracer.params = None
        tracer.parents = (a,)
        tracer.needs = _FIRST1
        tracer.meta = None
        tracer.weak = type(out) is not ndarray and is_weak(out)
        tape = self.tape
        tracer.slot = len(tape)
        tape.append(tracer)
        return tracer

    def process2(self, prim, a, b):
        # (the body is the primitive's recorder, which the tracers' operators run)
        record = _recorders.get(prim)
        if record is None:
            record = _recorders[prim] = _recorder(prim)
        return record(a, b, self)

    def _process_multiple(self, prim, vals, params, parents, needs):
        """Several outputs, each a SELECT tracer of one Node.  A primitive with a
        ``reverse_fwd`` (custom rules, checkpoint) computes its outputs and the
        residuals its VJP needs in one call, which are kept in the node's params."""
        recording = _state.recording
        if not prim.differentiable or (recording == 0 and self.tag < _state.grad_off_tag):
            return self.parent.process(prim, vals, params)
        reverse_fwd = prim.reverse_fwd
        if reverse_fwd is not None:
            out, residuals = run_under(self.parent, reverse_fwd, vals, params)
            params = dict(params, residuals=residuals)
        else:
            out = self.parent.process(prim, vals, params)
        node = Node(prim, vals, params, out, parents, needs)
        if recording == 2:
            instruments.record(node)
        tape = self.tape
        node.slot = len(tape)
        tape.append(node)
        outs = []
        n = len(out)
        for k, o in enumerate(out):
            if dtype_of(o).kind not in "fc":
                # An integer or boolean output (a loop's counter or flag) has no cotangent:
                # a tracer of it would make the primitives that read it (where's condition,
                # an index) ask for one, which their rules cannot give.
                outs.append(o)
                continue
            sel = _tracer(self, o, SELECT, (k, n), None, (node,), (), is_weak(o))
            sel.slot = len(tape)
            tape.append(sel)
            outs.append(sel)
        return outs

    def _unwrap(self, args):
        """The values of ``args``, their parents (None where an argument is not this
        interpreter's tracer; all None: nothing to record), which need a cotangent, and
        whether every value is a plain one (no special class)."""
        vals = list(args)
        parents = [None] * len(args)
        plain = True
        for i, a in enumerate(args):
            if type(a) is ReverseTracer and a._trace is self:
                parents[i] = a
                vals[i] = a = a.value
            if type(a) in _special_classes:
                plain = False
        needs = tuple(p is not None for p in parents)
        return vals, (tuple(parents) if True in needs else None), needs, plain


def _tracer(trace, value, prim, args, params, parents, needs, weak):
    """A reverse tracer: an input (``prim`` None, no arguments) or a tape node (see
    ReverseTracer), its ``slot`` unnumbered until the tape appends it."""
    tracer = ReverseTracer()
    tracer._trace = trace
    tracer.value = value
    tracer.prim = prim
    tracer.args = args
    tracer.params = params
    tracer.parents = parents
    tracer.needs = needs
    tracer.meta = None  # what debugging tools keep with the node (funcgrad.instruments)
    tracer.weak = weak
    tracer.slot = UNNUMBERED
    return tracer


_F64, _F32 = _dtype("float64"), _dtype("float32")
_NO_PARAMS: dict = {}  # (never written)
_FIRST1 = (True,)
_FIRST, _SECOND, _BOTH = (True, False), (False, True), (True, True)


def _recorder(prim, operator=None, reflected=False):
    """The record of ``prim`` on two arguments without parameters,
    ``record(a, b, interp)``: :meth:`ReverseInterpreter.process2`'s work, in one frame.

    With ``operator`` (a dunder name such as ``"__mul__"``) it is also that operator of
    the reverse tracers, ``record(self, other)`` (``reflected``: ``other <op> self``), so
    that ``x * 0.5`` records in the operator's own frame rather than in a call of
    ``process2`` from the operator (about a tenth of a recorded operation); whatever
    ``process2`` would not record itself (another interpreter current, a weak or an
    unusual operand: not a tracer, a Python float or int, nor an ndarray of numbers) goes
    to the operator every tracer has (:class:`~funcgrad.core.Tracer`'s,
    which converts, promotes and calls the current interpreter's ``process2``).

    >>> import numpy as np
    >>> from funcgrad.primitives.elementwise import multiply_p
    >>> with ReverseInterpreter() as interp:
    ...     x = interp.new_input(np.array([3.0]))
    ...     y = _recorder(multiply_p)(x, 2.0, interp)
    >>> y.value, y.parents == (x, None), interp.tape == [y]
    (array([6.]), True, True)
    """
    # (facts of the primitive, fixed when it is declared: read once, not a record)
    plain = prim.reverse_fwd is None and not prim.multiple_results and prim.differentiable
    decl = prim.elementwise
    flat = None if decl is None else decl.impl_flat
    # A product's or quotient's VJP multiplies by the Python float again, and NumPy's
    # weak-scalar path costs about half a small ufunc call more than a 0-d array of the
    # other operand's dtype: converted here, for float32/float64 arrays, where NumPy
    # would cast the float to that dtype itself (the same bits, the same warnings), once
    # a gradient for each number (see _hold_constant)
    converts = prim is multiply_p or prim is divide_p

    def record(a, b, interp=None):
        if interp is None:  # the operator of tracer ``a``: ``a`` is interp's own
            interp = a._trace
            local = interp.local
            t = type(b)
            # (an ndarray of numbers, a loss's labels or a layer's input, is taken here as
            # Tracer's operator would hand it to process2, without its two frames and
            # operand's; ``_bad_dtype`` names the other kinds there)
            if (local["interpreter"] is not interp or a.weak
                    or t is not float and t is not ReverseTracer and t is not int
                    and (t is not ndarray or b.dtype.kind in "OSUVMm")):
                return getattr(Tracer, operator)(a, b)
            if interp.parent is not ROOT or local["recording"] != 1 or not plain \
                    or t is ReverseTracer and b._trace is not interp:
                return interp.process(prim, (b, a) if reflected else (a, b), _NO_PARAMS)
            # (the operands sorted here, where their kinds are known, rather than tested
            # again below: about 13 bytecodes of a record of 180)
            if t is ReverseTracer:
                needs = _BOTH
                if reflected:
                    x, y, parents = b.value, a.value, (b, a)
                else:
                    x, y, parents = a.value, b.value, (a, b)
            elif reflected:
                x, y = b, a.value
                parents, needs = (None, a), _SECOND
                if converts and t is float and type(y) is ndarray:
                    dt = y.dtype
                    if dt is _F64 or dt is _F32:
                        x = (interp.constants[dt is _F32].get(id(b))
                             or _hold_constant(interp, b, dt))[1]
            else:  # (pairs: CPython swaps two names, where four build and unpack a tuple)
                x, y = a.value, b
                parents, needs = (a, None), _FIRST
                if converts and t is float and type(x) is ndarray:
                    dt = x.dtype
                    if dt is _F64 or dt is _F32:
                        y = (interp.constants[dt is _F32].get(id(b))
                             or _hold_constant(interp, b, dt))[1]
        else:
            local = interp.local
            if interp.parent is not ROOT or local["recording"] != 1 or not plain:
                return interp.process(prim, (a, b), _NO_PARAMS)
            if type(a) is ReverseTracer and a._trace is interp:
                x = a.value
                if type(b) is ReverseTracer and b._trace is interp:
                    y = b.value
                    parents, needs = (a, b), _BOTH
                else:
                    y = b
                    parents, needs = (a, None), _FIRST
            elif type(b) is ReverseTracer and b._trace is interp:
                x, y = a, b.value
                parents, needs = (None, b), _SECOND
            else:
                return interp.parent.process(prim, (a, b), _NO_PARAMS)
        # (an array or a Python float, the usual values, without the set's lookup: ~2% of
        # a record's instructions)
        tx, ty = type(x), type(y)
        if (tx is not ndarray and tx in _special_classes
                or ty is not ndarray and ty is not float and ty in _special_classes):
            # (``b <op> a`` for a reflected operator: the operands in the user's order)
            return interp.process(prim, (b, a) if reflected else (a, b), _NO_PARAMS)
        # (add, subtract, multiply of vectors and numbers: NumPy's ufunc without the
        # wrapper that sends 2-d layouts to a row loop; see Elementwise.impl_flat)
        if flat is not None and (tx is not ndarray or x.ndim < 2) and (
                ty is not ndarray or y.ndim < 2):
            out = flat(x, y)
        else:
            out = prim.impl(x, y)
        tracer = ReverseTracer()
        tracer._trace = interp
        tracer.value = out
        tracer.prim = prim
        tracer.args = (x, y)
        tracer.params = None
        tracer.parents = parents
        tracer.needs = needs
        tracer.meta = None
        tracer.weak = type(out) is not ndarray and is_weak(out)
        tape = interp.tape
        tracer.slot = len(tape)
        tape.append(tracer)
        return tracer

    if operator is not None:
        record.__name__ = record.__qualname__ = operator
    return record


def _hold_constant(interp, number, dtype):
    """``(number, number as a 0-d array of dtype)``, kept by ``interp`` under the
    number's identity: a loop's ``y * 0.9`` multiplies by one float object every step, and
    converting it (~2,100 instructions, callgrind) cost more than the product.  The number
    is kept alive with its array, so that its id is not another's while ``interp`` lives;
    an identity, not an equality, so that ``-0.0`` never finds ``0.0``'s array.  The array
    is never written (a residual and an operand only).

    >>> import numpy as np
    >>> interp, number = ReverseInterpreter(), 0.9
    >>> held = _hold_constant(interp, number, np.dtype("float64"))
    >>> held[1].dtype, held[1].ndim, interp.constants[0][id(number)] is held
    (dtype('float64'), 0, True)
    """
    held = interp.constants[dtype is _F32][id(number)] = (number, _array(number, dtype))
    return held


_recorders: dict = {}  # (process2's, one a primitive recorded)

# The arithmetic operators of reverse tracers record in their own frame (see _recorder);
# the others, and every other tracer's, are Tracer's (funcgrad.numpy attaches them).
for _name, _prim in (("add", add_p), ("sub", subtract_p), ("mul", multiply_p),
                     ("truediv", divide_p)):
    setattr(ReverseTracer, f"__{_name}__", _recorder(_prim, f"__{_name}__"))
    setattr(ReverseTracer, f"__r{_name}__", _recorder(_prim, f"__r{_name}__", reflected=True))
del _name, _prim


def backward_pass(tape, seeds, inputs, free=False):
    """Propagate cotangents from ``seeds`` ([(node, cotangent)]) back to ``inputs``.

    Returns the cotangent of each input (``None`` where it received none).  With
    ``free=True`` the tape is consumed: each node is dropped as soon as it has run, so
    memory falls as the pass proceeds (``grad`` runs its pass once).  The walk itself is
    :func:`funcgrad.interpreters.backprop.backpropagate`.

    >>> import numpy as np
    >>> with ReverseInterpreter() as interp:
    ...     x = interp.new_input(np.array([3.0]))
    ...     y = x * x
    >>> backward_pass(interp.tape, [(y, np.ones(1))], [x])
    [array([6.])]
    """
    # (numbered: each tracer's slot is its position on this tape, set at the append)
    cotangents = backpropagate(tape, seeds, consume=free, numbered=True)
    # (the lookups by map, without a comprehension's loop in bytecode: W3's four inputs
    # 52 -> 10 bytecodes)
    return list(map(cotangents.get, map(id, inputs)))

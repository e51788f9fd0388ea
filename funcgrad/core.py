"""The tracing core: primitives, interpreters, tracers and ``bind``.

Every operation funcgrad differentiates is a :class:`Primitive`.  Calling one
(``bind``) hands it to the *current interpreter* of this thread.  Interpreters
form a chain: each transform (``jvp``, ``grad``, ``vmap``, ``make_graph``...)
creates an interpreter whose ``parent`` is the interpreter that was current
when it started, and the chain ends at :data:`ROOT`, the evaluation
interpreter, which runs the primitive's kernel.

An interpreter owns its tracers: ``tracer._trace is interpreter``.  A value
that is not one of its own tracers (a plain array, or a tracer of another
interpreter) is a constant to it, and it hands the operation to its parent.
Identity, not depth, keeps nested transforms apart, so sibling transforms can
never confuse each other's perturbations (the classic
``grad(lambda x: x * grad(lambda y: x + y)(1.0))(2.0) == 1.0`` holds).

A tracer used after its interpreter finished reaches the root, which raises
:class:`EscapedTracerError` instead of computing a silently wrong value (the errors of
tracing live in :mod:`funcgrad.errors`; this module exports them too).
"""
import functools
import itertools
import threading

import numpy as np

from .errors import (ConcretizationError, DerivativeDroppedError, EscapedTracerError,
                     TrigRangeError, escaped_message, user_code, user_frame_summary)
from .avals import (WEAK_TYPES, ShapedArray, _dtype_str, _special_classes, aval_of, dtype_of,
                    is_weak, weak_operand, weak_result_type)

__all__ = [
    "Primitive", "Interpreter", "Tracer", "ROOT", "SHAPES_ONLY", "reads_inputs_and_output",
    "reads_the_others", "current_interpreter", "run_under", "internal",
    "EscapedTracerError", "ConcretizationError", "DerivativeDroppedError", "TrigRangeError",
    "user_code", "escaped_message", "user_frame_summary",
    "REGISTRY", "concrete", "known_value", "node_name", "WEAK_TYPES", "is_weak", "weak_operand",
    "weak_result_type", "dtype_of", "ShapedArray", "aval_of",
]

REGISTRY: dict[str, "Primitive"] = {}
"""Every primitive, by name.  A test walks it to check each has all its rules."""


class Primitive:
    """One operation and every rule and fact about it, in one place.

    Rules (optional at construction; the registry test checks each primitive has the
    ones it needs):

    ``impl(*args, **params)``
        the arithmetic on concrete arrays (a kernel call).
    ``abstract_eval(*avals, **params)``
        the output :class:`ShapedArray` (or a tuple of them) from input shapes and dtypes.
    ``jvp(primals, tangents, **params) -> (out, tangent_out)``
        forward mode; a ``None`` tangent is a symbolic zero.
    ``vjp(needs, cotangent, out, *args, **params) -> per-argument cotangents``
        reverse mode; ``needs[i]`` says whether argument ``i`` wants one, and a ``None``
        entry is a symbolic zero.
    ``batch(args, dims, **params) -> (out, out_dim)``
        vmap; ``dims[i]`` is the batch axis of argument ``i`` or ``None``.

    Optional refinements, each a speed-up that the plain rules above stand in for:

    ``jvp_tangent(primals, tangents, out, **params)``
        the tangent half of ``jvp``, given the output (forward-over-reverse computes a
        tangent only when something reads it).
    ``vjp_plain(needs, cotangent, out, *args)``
        ``vjp`` for a node without parameters, as a function without ``**params``: the
        backward walk calls it on such nodes (CPython builds an empty dict for every
        call of a function that takes ``**``; elementwise rules declare one),
        in place of ``vjp_into`` too.  Only for a primitive of one result.
    ``vjp_into(prev, owned, g, out, *args, **params)``
        the VJP of argument 0 added into ``prev``, that argument's cotangent so far
        (``owned``: only the backward pass holds ``prev``, so it may be updated in place).
    ``reverse_fwd(args, params) -> (outs, residuals)``
        for ``multiple_results`` primitives that hold functions (custom rules, control
        flow): the outputs and what the VJP will need, in one call.  A primitive with
        one result may have one too, used on plain arrays while reverse mode records
        eagerly: ``residuals`` (or ``None``) reach its VJP as the ``residuals`` parameter
        (``logsumexp`` keeps the softmax's pieces, which its VJP would compute again).

    Facts the backends read:

    ``vjp_reads(needs, **params) -> (inputs_read, output_read)``
        which residuals the VJP rule reads, as PyTorch's formulas save them: the eager
        ``Tensor`` saves (and version-checks, and hands to saved-value hooks) only
        those.  ``inputs_read`` is a bool per input, or ``None`` for all of them.
        ``SHAPES_ONLY``: the rule reads nothing but shapes and dtypes.  Default
        (``None``): every input, not the output.
    ``grad_fn_name``
        the name of its node in an eager ``Tensor`` graph (PyTorch's, e.g.
        ``"MulBackward0"``); default: ``CamelCase(name) + "Backward0"``.  Where PyTorch's
        name depends on the arguments, a function of the node (:func:`node_name`).
    ``saved_names``
        ``{argument position: name}`` where PyTorch names a saved input other than
        ``self`` (position 0) and ``other`` (position 1): ``{1: "exponent"}`` for
        ``power``, so its node shows ``_saved_exponent`` (the output is ``result``).
    ``elementwise``
        for elementwise primitives, their :class:`~funcgrad.primitives.elementwise_rules.Elementwise`
        declaration (scalar definition, linear rules), from which the fused kernels of
        every backend are generated; ``None`` otherwise.

    Rules are written with differentiable operations, so derivatives of derivatives
    work in every order.  A primitive with ``differentiable=False`` (comparisons,
    ``argmax``, ``floor``...) has no derivative: the AD interpreters compute it and
    treat the result as a constant.
    """

    __slots__ = ("name", "impl", "abstract_eval", "jvp", "vjp", "batch", "jvp_tangent",
                 "vjp_plain", "vjp_into", "reverse_fwd", "multiple_results", "differentiable",
                 "vjp_reads", "grad_fn_name", "elementwise", "saved_names")

    def __init__(self, name, impl=None, *, abstract_eval=None, jvp=None, vjp=None,
                 batch=None, jvp_tangent=None, vjp_plain=None, vjp_into=None, reverse_fwd=None,
                 multiple_results=False, differentiable=True, vjp_reads=None,
                 grad_fn_name=None, elementwise=None, saved_names=None):
        if name in REGISTRY:
            raise ValueError(f"a primitive named {name!r} is already registered")
        if vjp_plain is not None and multiple_results:
            # (the backward walk calls vjp_plain on a single output's cotangent)
            raise ValueError(f"primitive {name!r}: vjp_plain is for primitives of one "
                             f"result; declare only vjp for multiple_results=True")
        self.name = name
        self.impl = impl
        self.abstract_eval = abstract_eval
        self.jvp = jvp
        self.vjp = vjp
        self.batch = batch
        self.jvp_tangent = jvp_tangent
        self.vjp_plain = vjp_plain
        self.vjp_into = vjp_into
        self.reverse_fwd = reverse_fwd
        self.multiple_results = multiple_results
        self.differentiable = differentiable
        self.vjp_reads = vjp_reads
        self.grad_fn_name = grad_fn_name or "".join(
            part.capitalize() for part in name.split("_")) + "Backward0"
        self.elementwise = elementwise
        self.saved_names = saved_names
        REGISTRY[name] = self

    def bind(self, *args, **params):
        """Apply the primitive to ``args`` under the current interpreter."""
        return _state.interpreter.process(self, args, params)

    def __repr__(self):
        return self.name

    def __reduce__(self):
        return (_primitive_by_name, (self.name,))


def node_name(node):
    """PyTorch's name of a recorded node: its primitive's ``grad_fn_name``, or what that
    function says of the node (its ``args`` and ``params``)."""
    name = node.prim.grad_fn_name
    return name if type(name) is str else name(node)


SHAPES_ONLY = "shapes only"
"""``Primitive.vjp_reads`` of a rule that reads only the shapes and dtypes of its
residuals (add, reshape, sum...): an eager ``Tensor`` node saves no values for it."""


def reads_inputs_and_output(needs, **params):
    """``Primitive.vjp_reads`` of a rule that reads its inputs and its output (exp, sqrt...)."""
    return None, True


def reads_the_others(needs, **params):
    """``Primitive.vjp_reads`` of a multilinear rule (multiply, matmul): input ``i`` is
    read exactly when another input wants a cotangent."""
    if len(needs) == 2:
        return (needs[1], needs[0]), False
    wanting = sum(needs)
    return tuple(wanting - n > 0 for n in needs), False


def _primitive_by_name(name):
    return REGISTRY[name]


_tags = itertools.count(1)
_NO_PARAMS: dict = {}  # (never written)

_tracer_classes: set = set()  # (the Tracer subclasses among them)
_tensor_classes: set = set()  # the eager Tensor's classes (registered by funcgrad.eager)
# PyTorch's type promotion ``promote(prim, a, b) -> (a, b)`` for binary elementwise
# operations on values standing for Tensors, which funcgrad.eager registers: jit's graph
# and vmap (whose batched 0-d Tensor has a dimension) apply it to the traced values, so
# that a transformed function computes in the dtypes of its eager run.
TENSOR_PROMOTION: list = []


def stands_for_tensor(x):
    """Whether ``x`` is an eager Tensor, or a traced value standing for one: a transform's
    tracer of a Tensor, or of a value computed from one.  Such a value has the Tensor's
    (PyTorch's) methods and promotion under every transform, as it has eagerly.

    >>> import numpy as np, funcgrad as fg
    >>> stands_for_tensor(fg.tensor([1.0])), stands_for_tensor(np.ones(1))
    (True, False)
    """
    t = type(x)
    if t in _tensor_classes:
        return True
    return t in _tracer_classes and x._tensor


def is_special(x):
    """Is ``x`` a value the root hands to a registered handler (a tracer, an eager Tensor,
    a GPU array)?  As ``is_leaf`` of a transform's ``tree.flatten`` it keeps a Tensor one
    leaf (not the pytree node of its value), so the transform records on its graph."""
    return type(x) in _special_classes


class Interpreter:
    """Base of all interpreters.  ``parent`` is where constants are computed.

    Used as a context manager: ``with interp:`` makes it current for this
    thread and, on exit, restores its parent and marks it finished.
    """

    __slots__ = ("parent", "tag", "active", "local", "__weakref__")
    transform = "a transform"
    outlives = False  # may its tracers still be used (as plain values) after it ends?
    # Does it compute values now (False: it records a program for a compiler, which
    # fuses the plain form of a rule better than an eager shortcut; see reverse mode)?
    eager = True

    def __init__(self, parent=None):
        # ``local``: this thread's state (see _State) as its plain dict.  An interpreter
        # runs in the thread that made it, where its tracers' operators and its process
        # read the current interpreter and the recording mode through it: an attribute
        # of a threading.local costs about ten times a dict's item (the thread's dict is
        # looked up first), a tenth of a recorded operation.
        local = self.local = _state.__dict__
        self.parent = local["interpreter"] if parent is None else parent
        self.tag = next(_tags)
        self.active = True

    def process(self, prim, args, params):  # pragma: no cover - abstract
        raise NotImplementedError

    # The tracers' operators and unary functions call these: an interpreter may record a
    # one- or two-argument primitive without parameters past ``process``'s argument tuple
    # and its checks (reverse mode does: a quarter of a recorded operation).
    def process1(self, prim, a):
        return self.process(prim, (a,), _NO_PARAMS)

    def process2(self, prim, a, b):
        return self.process(prim, (a, b), _NO_PARAMS)

    def __enter__(self):
        _state.interpreter = self
        return self

    def __exit__(self, *exc):
        _state.interpreter = self.parent
        self.active = False
        return False

    def __repr__(self):
        return f"<{type(self).__name__} #{self.tag} of {self.transform}>"


class EvalInterpreter(Interpreter):
    """The root: runs kernels on concrete values."""

    __slots__ = ()
    transform = "evaluation"

    def __init__(self):
        self.parent = None
        self.tag = 0
        self.active = True

    def process(self, prim, args, params):
        for a in args:
            if type(a) in _special_classes:
                return _process_special(prim, args, params)
        return prim.impl(*args, **params)

    def __exit__(self, *exc):  # the root is never left
        return False


ROOT = EvalInterpreter()


class _State(threading.local):
    """Per-thread mutable state; nothing else in funcgrad is global and mutable.

    ``recording`` folds the modes reverse mode checks on every operation into one
    read: 0 = gradients disabled (``no_grad``), 1 = record plainly, 2 = record
    through the active ``instruments`` (anomaly detection, saved-value hooks,
    profiler; see :mod:`funcgrad.interpreters.reverse`).

    ``internal`` is true while funcgrad runs its own code (a rule, a graph; see
    :func:`internal`), false while the user's runs.

    ``jit_disabled``: jitted functions run their Python function as it is
    (``fg.disable_jit()``).
    """

    def __init__(self):
        self.interpreter = ROOT
        self._grad_enabled = True
        self.instruments = ()
        self.recording = 1
        self._inference = False  # inference_mode: results may not be saved for backward
        self.grad_off_tag = 0  # see grad_enabled
        self.internal = False
        self.jit_disabled = False

    @property
    def grad_enabled(self):
        return self._grad_enabled

    @grad_enabled.setter
    def grad_enabled(self, mode):
        mode = bool(mode)
        if self._grad_enabled and not mode:
            # Reverse interpreters started before this point stop recording; those
            # started later (grad called inside no_grad) still record, as torch.func does.
            self.grad_off_tag = next(_tags)
        self._grad_enabled = mode
        self._update()

    @property
    def inference(self):
        return self._inference

    @inference.setter
    def inference(self, mode):
        # inference_mode records nothing, even where enable_grad turns gradients back
        # on inside it (PyTorch: is_grad_enabled() is True there, results do not
        # require grad)
        self._inference = bool(mode)
        self._update()

    def set_instruments(self, instruments):
        self.instruments = tuple(instruments)
        self._update()

    def _update(self):
        self.recording = 0 if not self._grad_enabled or self._inference else \
            (2 if self.instruments else 1)


_state = _State()


def run_under(interpreter, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with ``interpreter`` current on this thread, then the
    previous one again (how an interpreter runs a rule: the rule's own operations go to
    its parent, and a kernel call goes to the root).  The rule runs as funcgrad's own
    code (:func:`internal`)."""
    # This thread's attributes as a plain dict: both swaps through it cost less than the
    # interpreter's swap alone through the threading.local did (0.90 vs 1.15 us a call,
    # best of 8 runs, CPython 3.11; timeit of run_under(ROOT, lambda: None)).
    state = _state.__dict__
    prev, outer = state["interpreter"], state["internal"]
    state["interpreter"], state["internal"] = interpreter, True
    try:
        return fn(*args, **kwargs)
    finally:
        state["interpreter"], state["internal"] = prev, outer


def internal(fn):
    """``fn`` marked as funcgrad's own code: while it runs, the NumPy arrays it builds
    (a rule's zeros, a mask) are constants that a device may copy, not the user's data,
    which devices refuse to mix with theirs (see :mod:`funcgrad.gpu.dispatch`).  Rules
    need no mark: :func:`run_under` and the backward pass run them so.

    >>> @internal
    ... def inside():
    ...     return _state.internal
    >>> inside(), _state.internal
    (True, False)
    """
    @functools.wraps(fn)
    def run_internal(*args, **kwargs):
        state = _state.__dict__  # one lookup of the thread's state, not three (see run_under)
        outer, state["internal"] = state["internal"], True
        try:
            return fn(*args, **kwargs)
        finally:
            state["internal"] = outer
    return run_internal


def current_interpreter():
    """The interpreter that will process the next primitive on this thread."""
    return _state.interpreter


class Tracer:
    """A value being traced by an interpreter.

    Subclasses store what their interpreter needs (a primal and tangent, a
    value and a tape node, a batch axis, an abstract value) and provide
    ``shape``, ``dtype`` and ``_concrete()``.  Array methods and operators are
    attached by :mod:`funcgrad.numpy`, so tracers behave like NumPy arrays and
    plain NumPy functions reach them through ``__array_ufunc__`` and
    ``__array_function__``.
    """

    __slots__ = ("_trace",)
    __array_priority__ = 1000
    # Does it stand for a Python number (see is_weak)?  Tracers whose value can be one
    # say so with a property.
    weak = False
    # provided by every subclass (a property, or a slot)
    shape: tuple[int, ...]
    dtype: np.dtype

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _special_classes.add(cls)
        _tracer_classes.add(cls)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def _concrete(self):  # pragma: no cover - overridden
        raise ConcretizationError(f"{type(self).__name__} has no concrete value")

    def _carried(self):
        """The value it carries (see :func:`innermost_value`); None by default."""
        return None

    @property
    def _tensor(self):
        """Does it stand for an eager Tensor (see :func:`stands_for_tensor`)?  Read from
        the value it carries; graph tracers, which carry none, keep a flag instead."""
        return stands_for_tensor(self._carried())

    def _check_alive(self):
        if not self._trace.active and not self._trace.outlives:
            raise EscapedTracerError(escaped_message(self))

    def __repr__(self):
        kind = type(self).__name__
        return f"{kind}<{_dtype_str(self.dtype)}{list(self.shape)}> of {self._trace!r}"


def innermost_value(x):
    """The value under every transform's tracer of ``x`` (a batch of them under vmap);
    None under a tracer that carries no value (``jit``'s).  For what the value is (a
    Tensor, a GPU array), not for computing with: use :func:`concrete` for that.

    >>> import numpy as np, funcgrad as fg
    >>> _ = fg.vmap(lambda row: print(innermost_value(row).shape) or row)(np.ones((3, 2)))
    (3, 2)
    """
    while isinstance(x, Tracer):
        x = x._carried()
    return x


def concrete(x):
    """The concrete value under any number of tracers (raises if none exists)."""
    while isinstance(x, Tracer):
        x = x._concrete()
    return x


def known_value(x):
    """:func:`concrete`'s value, or None where there is none yet (under vmap or jit).

    >>> import numpy as np, funcgrad as fg
    >>> float(fg.grad(lambda x: x * known_value(x))(3.0))  # (grad's tracer has a value)
    3.0
    >>> fg.vmap(lambda x: x if known_value(x) is None else -x)(np.ones(2))
    array([1., 1.])
    """
    try:
        return concrete(x)
    except ConcretizationError:
        return None


# Values the root cannot compute with directly.  Tracers reaching the root have
# escaped; other special types (the eager Tensor, GPU arrays) register a handler.
_special_handlers: dict = {}  # exact class -> handler


def register_special_type(cls, handler):
    """Let the root interpreter hand operations on ``cls`` values to ``handler``.

    ``handler(prim, args, params)`` returns the result, or ``NotImplemented``.
    Subclasses of ``cls`` are handled too once they register (``add_special_subclass``).
    """
    _special_classes.add(cls)
    _special_handlers[cls] = handler


def add_special_subclass(cls, base):
    """Route a subclass of a registered special type to its base's handler."""
    _special_classes.add(cls)
    _special_handlers[cls] = _special_handlers[base]


def _process_special(prim, args, params):
    tried = set()
    for a in args:
        handler = _special_handlers.get(type(a))
        if handler is None or handler in tried:
            continue
        tried.add(handler)
        out = handler(prim, args, params)
        if out is not NotImplemented:
            return out
    for a in args:
        if isinstance(a, Tracer):
            raise EscapedTracerError(escaped_message(a))
    raise TypeError(f"{prim.name}: cannot compute with arguments of types "
                    f"{[type(a).__name__ for a in args]}")

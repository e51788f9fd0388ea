"""How an elementwise primitive is made from its one declaration.

A declaration (:func:`elementwise`, used by :mod:`funcgrad.primitives.elementwise`) gives
the primitive's name, its CPU kernel (a NumPy ufunc, or None to generate one), its
*scalar definition* (:mod:`.scalar`: how one element is computed, which the GPU, ``jit``
and generated kernels compile) and, per argument, its *linear rule*
``lin(g, *args, out)``: ``g`` times the partial derivative of the output with respect to
that argument.  Because an elementwise derivative is a pointwise product, one rule gives
both the JVP (applied to a tangent, then broadcast to the output) and the VJP (applied to
a cotangent, then summed back to the argument's shape): forward and reverse mode cannot
disagree.  ``None`` marks an argument with no derivative (a mask).

Everything else is derived here: the abstract evaluation, the batching rule, the JVP and
VJP, which residuals the VJP reads (for the eager ``Tensor``), and the fused first-order
VJP kernel: each linear rule is captured once on scalars and compiled into one pass over
the arrays (:class:`Elementwise.fused_rule`), bit for bit the rule's own arithmetic.
"""
import numpy as np
from numpy import ndarray

from ..kernels._broadcast import broadcast_shapes
from ..core import (SHAPES_ONLY, Primitive, ShapedArray, _state, dtype_of, weak_operand,
                    weak_result_type)
from ..kernels import cpu
from . import scalar as sc
from ._elementwise_kernels import _build_fused, _build_fused_sum, _cpu_impl, _used_inputs
from .linear_rules import identity, negated, times_first, times_second
from .structural import fit, moveaxis, reshape, unbroadcast

__all__ = ["Elementwise", "elementwise", "elementwise_batch", "register_fused_backend",
           "identity", "negated", "times_second", "times_first"]

_EMPTY: dict = {}
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_BOOL = np.dtype(np.bool_)
_MISSING = object()

COMPUTE = ("arith", "compare", "logic", "predicate", "select")
"""How an elementwise primitive reads its inputs: "arith", in the output dtype (add,
sin...); "compare", promoted together, boolean result; "logic", as truth values;
"predicate", each in its own dtype (isnan); "select", a truth value then two values in
the output dtype (where)."""


class Elementwise:
    """The declaration of an elementwise primitive, kept as ``Primitive.elementwise``."""

    __slots__ = ("prim", "scalar", "lins", "compute", "linear", "cpu_kernel",
                 "vector_forward", "fusable", "_fused", "_fused32", "_fused64", "_reads",
                 "_forward", "small_unary", "large_unary", "impl_flat", "_sums", "small_sum")

    def __init__(self, scalar, lins, compute, linear, cpu_kernel, vector_forward):
        if compute not in COMPUTE:
            raise ValueError(f"compute must be one of {COMPUTE}, got {compute!r}")
        self.prim = None
        self.scalar = scalar
        self.lins = lins
        self.compute = compute
        self.linear = linear
        self.cpu_kernel = cpu_kernel
        self.vector_forward = vector_forward
        self._fused = {_F32: [_MISSING] * len(lins), _F64: [_MISSING] * len(lins)}
        self._fused32, self._fused64 = self._fused[_F32], self._fused[_F64]
        # Per argument: may its rule have a fused kernel on some backend?  Cleared once the
        # rule is seen to be one operation (already one pass), so its VJP skips the lookup.
        self.fusable = [lin is not None for lin in lins]
        self._reads = {}
        self._forward = None
        # float64's and float32's (the loaded small ufunc of a unary rule, which of (g, x,
        # out) it reads: 1 = g, x; 2 = g, out; 3 = all), or None: the unary VJP calls it
        # without fused_vjp's call
        self.small_unary = [None, None]
        # the same for arrays of at least numba_min elements: (the rule's kernel, which
        # it reads), for cpu.apply, once fused_vjp has given it a large array
        self.large_unary = [None, None]
        # A unary rule's kernel with the sum into an earlier cotangent (see summed_vjp):
        # float64's and float32's FusedRule (None: there is none), and its loaded small ufunc
        self._sums = [_MISSING, _MISSING]
        self.small_sum = [None, None]
        # The forward computation on operands of fewer than two dimensions, where the CPU
        # kernel is a wrapper whose own dispatch only 2-d arrays take (add, subtract,
        # multiply: NumPy's ufunc, the same bits); None where the impl is already that.
        # The reverse tape's record calls it without the wrapper's frame (about 1,000
        # instructions of a recorded x * 0.5's 5,000 in NumPy, callgrind).
        self.impl_flat = getattr(cpu_kernel, "below_2d", None)

    def compute_dtypes(self, operands, out_dtype):
        """The dtype each operand is computed in (operands: avals, arrays or Python
        scalars, which stay weak as in NumPy)."""
        n = len(operands)
        c = self.compute
        if c == "arith":
            return [np.dtype(out_dtype)] * n
        if c == "compare":
            return [weak_result_type(*operands)] * n
        if c == "logic":
            return [_BOOL] * n
        if c == "predicate":
            return [dtype_of(operands[0])]
        return [_BOOL, np.dtype(out_dtype), np.dtype(out_dtype)]

    # --- the fused first-order VJP kernels ---------------------------------------------------

    def fused_rule(self, i, dtype):
        """The generated kernel of argument ``i``'s rule in ``dtype`` (float32/float64), or
        None where fusing gains nothing: a rule of one operation (already one pass), or
        one that calls a C-library function NumPy vectorises and a loop would call one
        element at a time (``sinh``, ``power``...)."""
        rule = self._fused[dtype][i]
        if rule is _MISSING:
            rule = self._fused[dtype][i] = _build_fused(self, i, dtype)
        return rule

    def fused_vjp(self, i, g, args, out):
        """The cotangent of argument ``i`` by its fused kernel, or None (then the rule runs):
        for float32/float64 arrays of one dtype (and Python scalars), on the CPU or on a
        device whose arrays registered their own kernels (:func:`register_fused_backend`)."""
        if type(g) is not ndarray:
            backend = _FUSED_BACKENDS.get(type(g))
            return None if backend is None else backend(self.prim, i, g, args, out)
        if not g.ndim:
            return None
        dt = g.dtype
        if dt is _F64:
            rule = self._fused64[i]
        elif dt is _F32:
            rule = self._fused32[i]
        else:
            return None
        if rule is _MISSING:
            rule = self.fused_rule(i, dt)
        if rule is None:
            return None
        operands = rule.pick((g, *args, out))
        if not _of_dtype(operands, dt):
            return None
        # g has the output's shape, the broadcast of every operand: the largest of them
        n = g.size
        config = cpu.config
        if n < config.numba_min:
            if n < config.ufunc_min:
                return None
            small = rule.small
            if small is None:
                small = cpu.small_kernel(rule.kernel, dt)
                if small is None:  # loading in the background: its NumPy twin meanwhile
                    return cpu.apply(rule.kernel, dt, n, *operands)
                rule.small = small
                if len(self.lins) == 1 and rule.reads in _UNARY_READS:
                    self.small_unary[dt is _F32] = (small, _UNARY_READS[rule.reads])
            return small(*operands)
        if len(self.lins) == 1 and rule.reads in _UNARY_READS:
            self.large_unary[dt is _F32] = (rule.kernel, _UNARY_READS[rule.reads])
        return cpu.apply(rule.kernel, dt, n, *operands)

    def summed_vjp(self, prev, g, x, out):
        """``prev`` plus the cotangent of a unary primitive's argument ``x``, in one pass of
        a generated kernel (:func:`._elementwise_kernels._build_fused_sum`), where ``prev``
        is that argument's cotangent so far: or None (then the rule runs and the walk adds).
        For float32/float64 arrays of one dtype and shape, on the CPU; the result is a new
        array.

        >>> import numpy as np
        >>> from funcgrad.primitives.elementwise import sin_p
        >>> x, g, prev = np.array([0.0, 1.0]), np.ones(2), np.array([10.0, 20.0])
        >>> total = sin_p.elementwise.summed_vjp(prev, g, x, np.sin(x))
        >>> bool(np.allclose(total, prev + g * np.cos(x), rtol=1e-15))
        True
        """
        # (the checks in line, not a helper's call: every unary node of a walk comes here)
        if type(g) is not ndarray or type(x) is not ndarray or type(out) is not ndarray \
                or type(prev) is not ndarray:
            return None
        dt = g.dtype
        k = 0 if dt is _F64 else 1 if dt is _F32 else -1
        if k < 0 or x.dtype is not dt or out.dtype is not dt or prev.dtype is not dt:
            return None
        shape = g.shape
        if not shape or shape != x.shape or shape != prev.shape:
            return None
        n = g.size
        config = cpu.config
        if n >= config.numba_min:
            rule = self._sums[k]
            if rule is _MISSING:
                rule = self._sums[k] = _build_fused_sum(self, dt)
            if rule is None:
                return None
            return cpu.apply(rule.kernel, dt, n, *rule.pick((prev, g, x, out)))
        if n < config.ufunc_min:
            return None
        known = self.small_sum[k]
        if known is None:
            rule = self._sums[k]
            if rule is _MISSING:
                rule = self._sums[k] = _build_fused_sum(self, dt)
            # (None while it loads in the background: the rule and the walk's sum meanwhile)
            small = None if rule is None else cpu.small_kernel(rule.kernel, dt)
            if small is None:
                return None
            known = self.small_sum[k] = (small, _SUM_READS.get(rule.reads, 0))
            if not known[1]:
                return small(*rule.pick((prev, g, x, out)))
        small, reads = known
        return small(prev, g, x) if reads == 1 else small(prev, g, out) if reads == 2 else \
            small(prev, g, x, out) if reads == 3 else small(prev, g) if reads == 4 else None

    # --- the kernels those calls reach, for code that calls them again ------------------------
    # (funcgrad.interpreters.walk_programs: the same kernel on operands of the same kinds,
    # shapes and dtypes, without the checks that chose it; None where the route is another)

    def small_rule(self, i, g, args, out):
        """``(ufunc, reads)``: the small arrays' kernel :meth:`fused_vjp` (and a unary
        ``vjp_plain``) calls for argument ``i``'s cotangent on these operands, reading the
        positions ``reads`` of ``(g, *args, out)``; None where it calls none.

        >>> import numpy as np
        >>> from funcgrad.primitives.elementwise import sin_p
        >>> x = np.array([0.0, 1.0])
        >>> c = sin_p.elementwise.fused_vjp(0, np.ones(2), (x,), np.sin(x))
        >>> sin_p.elementwise.small_rule(0, np.ones(2), (x,), np.sin(x))[1]
        (0, 1)
        """
        if type(g) is not ndarray or not g.ndim:
            return None
        dt = g.dtype
        rule = self._fused64[i] if dt is _F64 else self._fused32[i] if dt is _F32 else None
        n, config = g.size, cpu.config
        if rule is None or rule is _MISSING or rule.small is None or not (
                config.ufunc_min <= n < config.numba_min):
            return None
        if not _of_dtype(rule.pick((g, *args, out)), dt):
            return None
        return rule.small, rule.reads

    def small_summed(self, g):
        """``(ufunc, reads)``: the small arrays' kernel :meth:`summed_vjp` called on operands
        it just summed (``g`` their cotangent), reading the positions ``reads`` of ``(prev,
        g, x, out)``; None where it called none."""
        config = cpu.config
        if not config.ufunc_min <= g.size < config.numba_min:
            return None
        k = 0 if g.dtype is _F64 else 1
        known, rule = self.small_sum[k], self._sums[k]
        if known is None or rule is None or rule is _MISSING:
            return None
        return known[0], rule.reads

    # --- facts ----------------------------------------------------------------------------------

    def vjp_reads(self, needs, **params):
        """Which inputs, and whether the output, the rules of the wanted cotangents read
        (seen by capturing each rule once)."""
        reads = self._reads.get(needs)
        if reads is None:
            n = len(self.lins)
            used = set()
            for i, (lin, need) in enumerate(zip(self.lins, needs)):
                if need and lin is not None:
                    used |= _used_inputs(sc.capture(lin, n + 2, _F64))
            reads = self._reads[needs] = (tuple(1 + k in used for k in range(n)), n + 1 in used)
        return reads


def _of_dtype(operands, dt):
    """Whether a fused rule's operands are arrays of ``dt`` or Python numbers (its kernel's
    loop is of ``dt``)."""
    for v in operands:
        t = type(v)
        if t is ndarray:
            if v.dtype is not dt:
                return False
        elif t is not float and t is not int:
            return False
    return True


_FUSED_BACKENDS: dict = {}  # array type -> fused_vjp(prim, i, g, args, out)
_UNARY_READS = {(0, 1): 1, (0, 2): 2, (0, 1, 2): 3}  # (see Elementwise.small_unary)
_SUM_READS = {(0, 1, 2): 1, (0, 1, 3): 2, (0, 1, 2, 3): 3, (0, 1): 4}  # (see Elementwise.summed_vjp)


def register_fused_backend(array_type, fused_vjp):
    """Let cotangents of ``array_type`` (GPU arrays) take first-order elementwise VJPs in
    one generated kernel: ``fused_vjp(prim, i, g, args, out)`` returns the cotangent of
    argument ``i``, or None where the rule should run as it is."""
    _FUSED_BACKENDS[array_type] = fused_vjp


# --- the primitive --------------------------------------------------------------------------------

def _abstract_elementwise(prim):
    probe = _forward_dtype_probe(prim)

    def abstract_eval(*avals, **params):
        shape = broadcast_shapes(*[getattr(a, "shape", ()) for a in avals])
        samples = [_sample(a) if isinstance(a, ShapedArray) else a for a in avals]
        with np.errstate(all="ignore"):
            dtype = np.result_type(probe(*samples, **params))
        return ShapedArray(shape, dtype)
    return abstract_eval


def _sample(aval):
    """A value standing for ``aval`` in a probe: a weak one as a Python number (NumPy then
    types it weakly), any other a 0-d array of its dtype."""
    return weak_operand(aval) if aval.weak else np.zeros((), aval.dtype)


def _forward_dtype_probe(prim):
    """A function with the primitive's result dtype: its CPU kernel, or for a generated
    one (float32/float64 loops) NumPy's choice among those, without compiling anything."""
    decl = prim.elementwise
    if decl.cpu_kernel is not None:
        return decl.cpu_kernel

    def probe(*samples):
        # Python scalars stay weak, as in NumPy: zeta(2.0, x) of float32 x is float32
        dtypes = [s if isinstance(s, (bool, int, float)) else s.dtype for s in samples]
        if all(isinstance(s, (bool, int, float)) for s in samples):
            # Python numbers alone take the float64 loop, as eagerly (erf(0.5) is
            # float64); against float32 they made a weak input's erf float32 under jit
            return np.zeros((), _F64)
        return np.zeros((), np.result_type(np.float32, *dtypes))
    return probe


def elementwise_batch(prim):
    """Batch rule of any elementwise primitive: align batch axes at the front."""
    def batch(args, dims, **params):
        ranks = [len(a.shape) - (d is not None) if hasattr(a, "shape") else 0
                 for a, d in zip(args, dims)]
        rank = max(ranks)
        moved = []
        for a, d, r in zip(args, dims, ranks):
            if d is not None:
                a = moveaxis(a, d, 0)
                if r < rank:
                    a = reshape(a, a.shape[:1] + (1,) * (rank - r) + a.shape[1:])
            moved.append(a)
        return _state.interpreter.process(prim, moved, params), 0
    return batch


def _refit(c, x):
    """Must cotangent ``c`` be unbroadcast to argument ``x`` (did broadcasting or promotion
    happen)?  Always for a Python number (weakly typed: an argument of grad/vjp)."""
    try:
        return c.shape != x.shape or c.dtype != x.dtype
    except AttributeError:
        return True


def _fit_ct(c, x):
    """Unbroadcast a cotangent only when broadcasting or promotion happened."""
    return unbroadcast(c, x) if _refit(c, x) else c


def _no_jvp(primals, tangents, **params):  # never called: not differentiable
    raise AssertionError("non-differentiable primitive reached a JVP rule")


def _no_vjp(needs, g, out, *args, **params):
    raise AssertionError("non-differentiable primitive reached a VJP rule")


def elementwise(name, cpu_kernel, scalar, *lins, compute="arith", differentiable=True,
                linear=False, vector_forward=False, **facts):
    """Declare an elementwise primitive (see the module docstring).

    ``cpu_kernel``: the eager CPU computation (a NumPy ufunc, or a faster kernel of
    :mod:`funcgrad.kernels.cpu`); None generates a ufunc from ``scalar``.  ``scalar``: the
    scalar definition (:mod:`.scalar`).  ``lins``: one linear rule per argument.
    ``linear``: the primitive is linear in its arguments jointly (add, subtract), so with
    every tangent present the output tangent is the primitive applied to them.
    ``vector_forward``: compute float64 arrays with the scalar definition on
    :mod:`funcgrad.kernels.cpu.vmath` (faster than NumPy's own loop: sin, cos).
    ``facts``: more :class:`~funcgrad.core.Primitive` facts (``grad_fn_name``...).
    """
    decl = Elementwise(scalar, lins, compute, linear, cpu_kernel, vector_forward)
    fusable = decl.fusable

    def jvp(primals, tangents, **params):
        out = _state.interpreter.process(prim, primals, params)
        return out, jvp_tangent(primals, tangents, out, **params)

    def jvp_tangent(primals, tangents, out, **params):  # the tangent half of ``jvp``
        if linear and tangents[0] is not None and tangents[1] is not None:
            return fit(_state.interpreter.process(prim, tangents, params), out)
        t_out = None
        for lin, t in zip(lins, tangents):
            if t is None or lin is None:
                continue
            c = lin(t, *primals, out, **params)
            t_out = c if t_out is None else t_out + c
        return None if t_out is None else fit(t_out, out)

    # First order on plain arrays, each cotangent is one pass of its fused kernel
    # (``fused_vjp``); otherwise (higher order, tracers, other devices) the rule runs.  An
    # ``identity`` rule passes ``g`` on without a call; a cotangent is unbroadcast only
    # where broadcasting or promotion happened (the checks of ``_refit``, inlined: they
    # run for every cotangent of every elementwise operation; a ``try`` costs nothing
    # until it catches; equal dtypes are nearly always one object, which ``is`` sees
    # without NumPy's comparison).  The rules of one and two arguments are ``vjp_plain``,
    # without ``**params`` (see Primitive.vjp_plain: CPython builds an empty dict for every
    # call of a function that takes ``**``); ``vjp`` adds the case with parameters.
    passes = [lin is identity for lin in lins]
    if len(lins) == 1:
        lin_x, = lins
        pass_x, = passes
        small_unary, large_unary, config = decl.small_unary, decl.large_unary, cpu.config
        apply = cpu.apply

        def vjp_plain(needs, g, out, x):
            if pass_x:
                c = g
            elif not fusable[0]:
                c = lin_x(g, x, out)
            else:
                # fused_vjp's usual cases inline (arrays of one float dtype, its kernel
                # seen): its call, three tuples and a loop cost about as much as a small
                # kernel (W3's tanh VJP on 128 x 256: ~100 of its ~350 bytecodes)
                c = None
                if type(g) is ndarray and type(x) is ndarray and type(out) is ndarray:
                    dt = g.dtype
                    k = 0 if dt is _F64 else 1 if dt is _F32 else -1
                    shape = g.shape if k >= 0 and x.dtype is dt and out.dtype is dt else ()
                    if shape:  # (not 0-d)
                        n = g.size
                        if n >= config.numba_min:
                            known = large_unary[k]
                            if known is not None:
                                kernel, reads = known
                                c = apply(kernel, dt, n, g, x) if reads == 1 else \
                                    apply(kernel, dt, n, g, out) if reads == 2 else \
                                    apply(kernel, dt, n, g, x, out)
                        elif n >= config.ufunc_min:
                            known = small_unary[k]
                            if known is not None:
                                kernel, reads = known
                                c = kernel(g, x) if reads == 1 else kernel(g, out) \
                                    if reads == 2 else kernel(g, x, out)
                        # A kernel of dtype dt on operands of dt and of x's shape (out has
                        # it: the operation is unary) gives dt in that shape: nothing to
                        # refit, and the check's four reads of NumPy attributes (~370
                        # instructions each, callgrind) skipped.
                        if c is not None and shape == x.shape:
                            return (c,)
                if c is None:
                    c = decl.fused_vjp(0, g, (x,), out)
                    if c is None:
                        c = lin_x(g, x, out)
            try:
                refit = c.shape != x.shape or (c.dtype is not x.dtype
                                               and c.dtype != x.dtype)
            except AttributeError:  # x is a Python number (see _refit)
                refit = True
            if refit:
                c = unbroadcast(c, x)
            return (c,)
    elif len(lins) == 2:
        lin_x, lin_y = lins
        pass_x, pass_y = passes
        # A product's rules (times_second, times_first) are computed here as they read: a
        # call of a one-line function costs about as much as its product of small arrays.
        times_x, times_y = lin_x is times_second, lin_y is times_first
        negated_y = lin_y is negated  # (subtract's: -g without a call nor a dispatch)
        both_pass = pass_x and pass_y  # (add's: g itself to both)

        def vjp_plain(needs, g, out, x, y):
            if both_pass and needs[0] and needs[1]:
                # the two checks below with g's shape and dtype read once: each read of a
                # NumPy attribute costs ~370 instructions (callgrind), a sixth of a node's
                try:
                    shape, dt = g.shape, g.dtype
                except AttributeError:  # (as the checks would find it)
                    return unbroadcast(g, x), unbroadcast(g, y)
                try:
                    fit = shape == x.shape and (dt is x.dtype or dt == x.dtype)
                except AttributeError:  # x is a Python number (see _refit)
                    fit = False
                cx = g if fit else unbroadcast(g, x)
                try:
                    fit = shape == y.shape and (dt is y.dtype or dt == y.dtype)
                except AttributeError:
                    fit = False
                return cx, (g if fit else unbroadcast(g, y))
            cx = cy = None
            if needs[0]:
                if pass_x:
                    cx = g
                elif times_x:
                    cx = g * y
                else:
                    cx = decl.fused_vjp(0, g, (x, y), out) if fusable[0] else None
                    if cx is None:
                        cx = lin_x(g, x, y, out)
                try:
                    refit = cx.shape != x.shape or (cx.dtype is not x.dtype
                                                    and cx.dtype != x.dtype)
                except AttributeError:  # x is a Python number (see _refit)
                    refit = True
                if refit:
                    cx = unbroadcast(cx, x)
                if times_x and x is y and needs[1]:
                    # x * x: both cotangents are g * x, the same bits: one product, given
                    # twice (the walk adds them as two contributions: the sums unchanged)
                    return cx, cx
            if needs[1]:
                if pass_y:
                    cy = g
                elif times_y:
                    cy = g * x
                elif negated_y:
                    cy = -g
                else:
                    cy = decl.fused_vjp(1, g, (x, y), out) if fusable[1] else None
                    if cy is None:
                        cy = lin_y(g, x, y, out)
                try:
                    refit = cy.shape != y.shape or (cy.dtype is not y.dtype
                                                    and cy.dtype != y.dtype)
                except AttributeError:  # y is a Python number (see _refit)
                    refit = True
                if refit:
                    cy = unbroadcast(cy, y)
            return cx, cy
    else:
        vjp_plain = None

    def vjp(needs, g, out, *args, **params):
        if vjp_plain is not None and not params:
            return vjp_plain(needs, g, out, *args)
        cts = []
        for i, (lin, x, need) in enumerate(zip(lins, args, needs)):
            c = None
            if need:
                c = decl.fused_vjp(i, g, args, out) if fusable[i] else None
                c = _fit_ct(lin(g, *args, out, **params) if c is None else c, x)
            cts.append(c)
        return cts

    if not differentiable:
        facts.setdefault("vjp_reads", SHAPES_ONLY)
    prim = Primitive(name, None, jvp=jvp if differentiable else _no_jvp,
                     vjp=vjp if differentiable else _no_vjp,
                     vjp_plain=vjp_plain if differentiable else None,
                     jvp_tangent=jvp_tangent if differentiable else None,
                     differentiable=differentiable, elementwise=decl,
                     vjp_reads=facts.pop("vjp_reads", decl.vjp_reads), **facts)
    decl.prim = prim
    prim.impl = _cpu_impl(decl)
    prim.abstract_eval = _abstract_elementwise(prim)
    prim.batch = elementwise_batch(prim)
    return prim

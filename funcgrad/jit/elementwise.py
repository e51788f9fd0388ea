"""How a jitted kernel computes an elementwise equation: from the primitive's one scalar
definition (:mod:`funcgrad.primitives.scalar`), as an expression in a fused loop.

A one-line definition ``r = <expr>`` becomes that expression, inline; a longer one (an
``if`` chain: sign, mod, logaddexp...) becomes a small ``@njit`` helper function of the
generated module, which LLVM inlines (Numba's own inliner would make each branch a block,
and long chains overflow its SSA pass).  Leaves are the C library's
(:mod:`funcgrad.kernels.cpu.leaves`), or inside loops the vectorisable ones
(:mod:`funcgrad.kernels.cpu.vmath`), as the eager kernels use them: the same bits.
"""
import numpy as np

from . import complexloop
from ..core import weak_operand
from ..interpreters.graph import Var
from ..kernels.cpu import leaves as cpu_leaves
from ..primitives import scalar as sc
from ..primitives.elementwise import clip_p, power_p
from ..primitives.structural import broadcast_to_p, convert_element_type_p, stop_gradient_p

__all__ = ["is_elementwise", "computation_dtypes", "Writer", "uses_vector_math", "uses_trig",
           "KERNEL_DTYPES", "SCALARS"]

KERNEL_DTYPES = {np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.int32, np.int64,
                                        np.uint8, np.uint16, np.uint32, np.uint64,
                                        np.float32, np.float64)}
SCALARS = (bool, int, float)  # the Python scalars a kernel takes (not complex)
# structural primitives that a fused loop computes as the identity (or a cast)
IDENTITY = frozenset({broadcast_to_p, convert_element_type_p, stop_gradient_p})


def _weak(x):
    """What ``np.result_type`` should see for an operand: Python numbers, and the values
    standing for them (weakly typed arguments: :func:`funcgrad.core.is_weak`), stay weak."""
    if isinstance(x, Var):
        return weak_operand(x.aval)
    if isinstance(x, SCALARS):
        return x
    return np.asarray(x).dtype


def _exact_integers(operands):
    """The dtype that holds every value of ``operands`` when a Python integer meets integer
    arrays (or None): NumPy compares such an integer with the array's values exactly
    (``uint8 array < 300`` is True, not a wrapped 44), and ``np.clip`` clamps with it
    exactly, where a cast to the array's dtype would wrap."""
    if not any(type(x) is int for x in operands):
        return None
    strong = []
    for x in operands:
        if type(x) is float or type(x) is complex:
            return None
        if type(x) is not int and type(x) is not bool:
            if np.dtype(x).kind not in "biu":
                return None
            strong.append(x)
    wide = np.result_type(np.int64, *strong)
    return wide if wide.kind == "i" else None  # (uint64 and int64 meet in float64)


def computation_dtypes(eqn):
    """Per operand, the dtype the operation computes in (None: use it as it is)."""
    out = eqn.outvars[0].aval.dtype
    if complexloop.is_complex(eqn):
        return complexloop.computation_dtypes(eqn)
    if eqn.prim in IDENTITY:
        return [out if eqn.prim is convert_element_type_p else None]
    decl = eqn.prim.elementwise
    if decl.compute == "predicate":
        return [None]
    operands = [_weak(x) for x in eqn.inputs]
    if decl.compute == "compare" or eqn.prim is clip_p:
        wide = _exact_integers(operands)
        if wide is not None:
            return [wide] * len(operands)
    return decl.compute_dtypes(operands, out)


def _body_dtype(eqn, comp):
    """The dtype the definition computes in (picks it, types its constants)."""
    decl = eqn.prim.elementwise
    if decl.compute == "select":
        return comp[-1]
    if comp[0] is None:  # a predicate: the operand's own dtype
        x = eqn.inputs[0]
        return x.aval.dtype if isinstance(x, Var) else np.result_type(x)
    return comp[0]


def is_elementwise(eqn):
    """Can a fused loop compute ``eqn`` exactly as the primitive's impl does?"""
    if len(eqn.outvars) != 1 or (eqn.prim.elementwise is None and eqn.prim not in IDENTITY):
        return False
    if complexloop.is_complex(eqn):  # (definitions of their own, NumPy's bits checked)
        return complexloop.supports(eqn)
    if eqn.outvars[0].aval.dtype not in KERNEL_DTYPES:
        return False
    for x in eqn.inputs:
        if isinstance(x, Var):
            if x.aval.dtype not in KERNEL_DTYPES:
                return False
        elif isinstance(x, np.ndarray):
            if x.dtype not in KERNEL_DTYPES:
                return False
        elif not isinstance(x, (SCALARS, np.generic)) or isinstance(x, complex) or (
                isinstance(x, np.generic) and x.dtype not in KERNEL_DTYPES):
            return False
    if eqn.prim in IDENTITY:
        return True
    dtype = _body_dtype(eqn, computation_dtypes(eqn))
    if eqn.prim is power_p and dtype.kind != "f":
        return False  # NumPy raises for a negative integer exponent; a kernel cannot
    return sc.body_for(eqn.prim.elementwise.scalar, dtype) is not None


def _leaves(eqn):
    decl = eqn.prim.elementwise
    if decl is None or complexloop.is_complex(eqn):  # (an identity, a pad; complex: none)
        return set()
    return sc.leaves_of(sc.body_for(decl.scalar, _body_dtype(eqn, computation_dtypes(eqn))))


def uses_vector_math(eqn):
    """Does ``eqn`` call a vectorisable maths function (their number bounds a loop)?"""
    return bool(_leaves(eqn) & cpu_leaves.VECTOR)


def uses_trig(eqn):
    """Does ``eqn`` call the range-limited vectorised sin/cos (on its first operand)?"""
    return eqn.outvars[0].aval.dtype.kind == "f" and bool(_leaves(eqn) & cpu_leaves.CHECKED)


class Writer:
    """Writes elementwise equations for one generated module; collects its helpers.

    ``mode``: "vector" (inside a loop: vectorisable maths), "exact" (the C library) or
    "scalar" (outside loops: sin/cos check their argument and branch).
    """

    def __init__(self, vector_math):
        self.vector_math = vector_math
        self._emitters = {}
        self.helpers = {}  # source of a helper -> its name

    def _emitter(self, mode):
        emitter = self._emitters.get(mode)
        if emitter is None:  # (one per mode: it keeps the expressions it wrote)
            emitter = self._emitters[mode] = self._new_emitter(mode)
        return emitter

    def _new_emitter(self, mode):
        if mode == "complex":
            return complexloop.emitter()

        def leaf(name, dtype):
            if (mode != "exact" and self.vector_math and name in cpu_leaves.VECTOR
                    and np.dtype(dtype).kind == "f"):
                if name in cpu_leaves.CHECKED and mode == "scalar":
                    return f"_vm.{name}_checked"
                return f"_vm.{name}"
            return f"_lf.{name}"
        return sc.Emitter(leaf, sc.literal, sc.cast)

    def expression(self, eqn, args, mode):
        """The expression of ``eqn`` on the operand expressions ``args`` (already in the
        computation dtypes)."""
        out = eqn.outvars[0].aval.dtype
        if eqn.prim in IDENTITY:
            return args[0]
        if complexloop.is_complex(eqn):
            return self._complex(eqn, args)
        comp = computation_dtypes(eqn)
        dtype = _body_dtype(eqn, comp)
        body = sc.body_for(eqn.prim.elementwise.scalar, dtype)
        emitter = self._emitter(mode)
        expr = emitter.expression(body, args, dtype)
        if expr is None:
            expr = f"{self._helper(body, len(args), dtype, mode)}({', '.join(args)})"
        if sc.needs_cast(dtype, out) and not _natural(out, dtype):
            expr = f"np.{out.name}({expr})"
        return expr

    def _complex(self, eqn, args):
        """A complex equation's expression: its parts in the precision of its complex
        computation dtype, which is the result's (or, for ``abs``/``real``/``imag``, the
        result's precision): no cast after it."""
        dtype = computation_dtypes(eqn)[-1]
        body = complexloop.body(eqn.prim, dtype)
        expr = self._emitter("complex").expression(body, args, dtype)
        if expr is None:
            expr = f"{self._helper(body, len(args), dtype, 'complex')}({', '.join(args)})"
        return expr

    def _helper(self, body, n, dtype, mode):
        emitter = self._emitter(mode)
        params = [f"x{k}" for k in range(n)]
        lines = emitter.statements(body, params, "r", dtype)
        source = "".join(f"    {line}\n" for line in lines)
        source = (f"(error_model=\"numpy\", cache=True)\ndef {{name}}({', '.join(params)}):\n"
                  f"{source}    return r\n")
        name = self.helpers.get(source)
        if name is None:
            name = self.helpers[source] = f"_ew{len(self.helpers)}"
        return name

    def helper_source(self):
        """The helpers' definitions, for the top of the generated module."""
        return "".join(f"\n@njit{src.format(name=name)}" for src, name in self.helpers.items())


def _natural(out, dtype):
    """Does a definition computed in ``dtype`` already give ``out`` (int64, float64)?"""
    return out == dtype and out in (np.dtype(np.float64), np.dtype(np.int64))

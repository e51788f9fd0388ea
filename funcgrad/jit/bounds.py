"""NumPy 2's OverflowError for a Python integer beyond the range of the integer array it
meets (``np.array([1], np.uint8) + 300``: "Python integer 300 out of bounds for uint8"),
kept by compiled code.

A Python int passed to ``jit`` is weakly typed: it takes the array's dtype, so a kernel
casts it to that dtype, and a cast wraps (300 becomes 44) where NumPy raises.  Which weak
integers meet which integer dtypes is read from the graph once; the arguments of a
compiled graph are checked against those ranges when it is called.  A weak integer
computed from them (``x + (n + 1)``) is found by evaluating the few scalar equations it
takes: a weak value is only ever computed from weak values and constants.

Comparisons, ``np.clip`` and ``np.where`` raise nothing in NumPy: the first two compute
with the integer exactly (:func:`funcgrad.jit.elementwise.computation_dtypes`), and
``where`` casts it as a kernel does.
"""
import numpy as np

from ..interpreters.graph import Graph, Var, eval_graph
from ..primitives.elementwise import clip_p
from .derive import as_root
from .elementwise import computation_dtypes
from .passes import dce

__all__ = ["range_check", "RangeCheck"]


class RangeCheck:
    """Raises NumPy's OverflowError for inputs of a compiled graph (as it is called with
    them) whose weak integers fall outside an integer dtype they meet.

    ``direct``: ``(input position, dtype)`` per weak integer input and dtype it meets;
    ``computed``: ``(graph of the inputs, dtypes)``, the weak integers computed from the
    inputs and, per output of that graph, the dtype it meets.
    """

    __slots__ = ("direct", "computed", "dtypes")

    def __init__(self, direct, computed, dtypes):
        self.direct = [(k, *_bounds(dtype)) for k, dtype in direct]
        self.computed = computed
        self.dtypes = [_bounds(dtype) for dtype in dtypes]

    def __call__(self, inputs):
        for k, lo, hi, dtype in self.direct:
            if not lo <= inputs[k] <= hi:
                raise _overflow(inputs[k], dtype)
        if self.computed is not None:
            values = as_root(eval_graph, self.computed, *inputs)
            for value, (lo, hi, dtype) in zip(values, self.dtypes):
                if not lo <= value <= hi:
                    raise _overflow(value, dtype)


def _bounds(dtype):
    info = np.iinfo(dtype)
    return int(info.min), int(info.max), dtype


def _overflow(value, dtype):
    # NumPy's own words first, so that code catching its message behaves the same
    return OverflowError(f"Python integer {int(value)} out of bounds for {dtype} (NumPy 2 "
                         f"refuses to wrap a Python int into a {dtype} array's dtype; "
                         f"widen the array, e.g. x.astype(np.int64), to compute with it)")


def _meetings(graph):
    """``[(var, dtype)]``, in the order the equations run: each weak integer variable and
    each narrower integer dtype an arithmetic equation computes it in."""
    found = []
    for eqn in graph.eqns:
        decl = eqn.prim.elementwise
        if decl is None or decl.compute != "arith" or eqn.prim is clip_p:
            continue
        if not any(isinstance(x, Var) and x.aval.weak for x in eqn.inputs):
            continue
        for x, comp in zip(eqn.inputs, computation_dtypes(eqn)):
            if (isinstance(x, Var) and x.aval.weak and x.aval.dtype.kind in "iu"
                    and comp is not None and comp.kind in "iu"
                    and not np.can_cast(x.aval.dtype, comp) and (x, comp) not in found):
                found.append((x, comp))
    return found


def range_check(graph):
    """The :class:`RangeCheck` of ``graph``'s inputs, or None where no weak integer meets
    a narrower integer dtype (nearly always: then calls check nothing)."""
    found = _meetings(graph)
    if not found:
        return None
    position = {id(v): k for k, v in enumerate(graph.invars)}
    direct = [(position[id(v)], dtype) for v, dtype in found if id(v) in position]
    computed = [(v, dtype) for v, dtype in found if id(v) not in position]
    sub = None
    if computed:
        sub = dce(Graph(list(graph.invars), list(graph.eqns), [v for v, _ in computed]))
    return RangeCheck(direct, sub, [dtype for _, dtype in computed])

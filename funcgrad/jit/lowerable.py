"""Which equations a Numba kernel computes, and primitives lowered as the ones they are made of.

:func:`can_lower` decides, per equation, between a kernel and a call of the primitive's own
``impl`` from Python between kernels (:mod:`funcgrad.jit.lower`): a kernel is used only
where it computes exactly what the impl would, bits included.  Elementwise primitives are
decided from their scalar definition (:mod:`funcgrad.jit.elementwise`); the others by a
rule in :data:`LOWERABLE`, keyed by the primitive object (the code that lowers them is
:data:`funcgrad.jit.block.LOWERINGS`).

:func:`expand` rewrites primitives that a kernel computes as a few others
(``logsumexp`` as max, shift, exp, sum, log, add: its impl's own steps).
"""
import importlib.util
import math
import os

import numpy as np

from ..core import aval_of
from ..interpreters.graph import Eqn, Graph, Var
from ..lax import cond_p, scan_p, while_loop_p
from ..primitives.elementwise import add_p, exp_p, isfinite_p, log_p, subtract_p, where_p
from ..primitives.indexing import gather_p, scatter_p
from ..primitives.linalg import matmul_p
from ..primitives.reductions import logsumexp_p, reduce_max_p, reduce_min_p
from ..primitives.structural import (concatenate_p, reduce_sum_p, reshape_p, split_p,
                                     transpose_p)
from .elementwise import KERNEL_DTYPES, SCALARS, is_elementwise, uses_vector_math
from .passes import optimize, subgraphs

__all__ = ["can_lower", "LOWERABLE", "expand", "reduce_pattern", "is_float32_or_64",
           "SLICE_UPDATE", "KERNEL_MAX_DIMS"]

# A kernel loops over each axis in a nested ``for``, and Python compiles at most 20
# nested blocks ("too many statically nested blocks"): arrays of more dimensions (NumPy
# allows 64) are NumPy calls between kernels.
KERNEL_MAX_DIMS = 16
# Matrix products below this many multiply-adds run inside kernels (np.dot: Numba's BLAS,
# single-threaded at these sizes); larger ones are NumPy calls between kernels, on NumPy's
# BLAS, as in eager code: two multithreaded OpenBLAS pools in one process (NumPy's and the
# one Numba calls through SciPy) fight over the cores and can be 10-50x slower.
BLAS_IN_KERNEL_MAX = int(os.environ.get("FUNCGRAD_JIT_BLAS_IN_KERNEL_MAX", 1 << 18))
# Numba reaches BLAS through SciPy: without SciPy, np.dot inside a kernel aborts the
# process ("BLAS wrapper returned with an error"), so matrix products stay NumPy calls.
try:
    _NUMBA_HAS_BLAS = importlib.util.find_spec("scipy") is not None
except (ImportError, ValueError):  # pragma: no cover
    _NUMBA_HAS_BLAS = False

# The scatter modes a slice assignment computes, by its operator.
SLICE_UPDATE = {"set": "=", "add": "+=", "multiply": "*="}
# float32 results of at least this many elements of exp, log, log1p, tanh (the vector
# maths' functions whose eager impl is NumPy's own ufunc) are that ufunc's call between
# kernels: NumPy's float32 loops are SIMD in float32, the eager bits and several times
# faster than the vector maths, which compute a float32 in float64 (W3's tanh on
# 128x256: 87 us in a kernel, 9 us by np.tanh, on an AVX-512 Xeon).
NUMPY_FLOAT32_MATH_MIN = int(os.environ.get("FUNCGRAD_JIT_NUMPY_FLOAT32_MATH_MIN", 4096))


def is_float32_or_64(dtype):
    """float32 or float64 (the dtypes of BLAS and of fused sums)."""
    return dtype in (np.dtype(np.float32), np.dtype(np.float64))


def reduce_pattern(shape, axes):
    """How NumPy orders a sum over ``axes``: "all", "trailing", "leading", "none" or None.

    Axes of length 1 do not count (NumPy's iterator drops them)."""
    flags = [i in axes for i, d in enumerate(shape) if d != 1]
    if not any(flags):
        return "none"
    if all(flags):
        return "all"
    k = flags.index(True)
    if all(flags[k:]) and not any(flags[:k]):
        return "trailing"
    k = flags.index(False)
    if all(flags[:k]) and not any(flags[k:]):
        return "leading"
    return None


def can_lower(eqn):
    """Can a kernel compute ``eqn`` (exactly as the primitive's impl would)?"""
    if _too_many_dims(eqn):
        return False
    if is_elementwise(eqn):
        return not _numpy_float32_math(eqn)
    rule = LOWERABLE.get(eqn.prim)
    if rule is None or not _avals_ok(eqn):
        return False
    ins = [x.aval if isinstance(x, Var) else aval_of(np.asarray(x)) for x in eqn.inputs]
    return rule(eqn, ins, eqn.outvars[0].aval if eqn.outvars else None, **eqn.params)


def _numpy_float32_math(eqn):
    """Is ``eqn`` a large float32 call of vector maths that NumPy's own ufunc computes
    eagerly (see :data:`NUMPY_FLOAT32_MATH_MIN`)?"""
    out = eqn.outvars[0].aval
    if out.dtype != np.float32 or math.prod(out.shape) < NUMPY_FLOAT32_MATH_MIN:
        return False
    impl = eqn.prim.impl
    return (isinstance(impl, np.ufunc) and getattr(np, impl.__name__, None) is impl
            and uses_vector_math(eqn))


def _too_many_dims(eqn):
    """Has ``eqn`` an array of more dimensions than a kernel's loop nest may have?"""
    return any(np.ndim(x.aval if isinstance(x, Var) else x) > KERNEL_MAX_DIMS
               for x in list(eqn.inputs) + list(eqn.outvars))


def _avals_ok(eqn):
    for x in list(eqn.inputs) + list(eqn.outvars):
        if isinstance(x, Var) and x.aval.dtype not in KERNEL_DTYPES:
            return False
        if isinstance(x, np.ndarray) and x.dtype not in KERNEL_DTYPES:
            return False
        if isinstance(x, complex):
            return False
    return True


def _graph_lowerable(graph):
    return all(can_lower(e) for e in expand(optimize(graph)).eqns)


# --- the rules: (eqn, input avals, first output aval, **params) -> bool ----------------------

def _reduction(eqn, ins, out, *, axes, keepdims):
    x = ins[0]
    if not isinstance(eqn.inputs[0], Var):
        return False
    is_sum = eqn.prim is reduce_sum_p
    if any(x.shape[a] == 0 for a in axes):
        return is_sum and out.dtype.kind in "fiu" and x.size == 0
    if is_sum:
        return out.dtype.kind in "fiu" and reduce_pattern(x.shape, axes) is not None
    return x.dtype.kind in "fiu"


def _matmul(eqn, ins, out):
    a, b = ins
    return (_NUMBA_HAS_BLAS and all(isinstance(x, Var) for x in eqn.inputs)
            and a.dtype == b.dtype
            and is_float32_or_64(a.dtype) and 1 <= a.ndim <= 2 and 1 <= b.ndim <= 2
            and 0 not in a.shape and 0 not in b.shape
            and a.size * (b.shape[-1] if b.ndim == 2 else 1) < BLAS_IN_KERNEL_MAX)


def _of_a_variable(eqn, ins, out, **params):
    return isinstance(eqn.inputs[0], Var)


def _basic_gather(eqn, ins, out, *, spec):
    return (len(eqn.inputs) == 1 and isinstance(eqn.inputs[0], Var)
            and all(e[0] in "sin" for e in spec) and ins[0].ndim > 0)


def _slice_update(eqn, ins, out, *, spec, mode):
    """x.at[basic index].set/add/multiply: a copy and a slice update."""
    return (len(eqn.inputs) == 2 and isinstance(eqn.inputs[0], Var) and ins[0].ndim > 0
            and mode in SLICE_UPDATE
            and all(e[0] in "si" for e in spec)
            and (isinstance(eqn.inputs[1], Var) or ins[1].ndim == 0))


def _concatenate(eqn, ins, out, *, axis):
    return all(isinstance(x, Var) and x.aval.ndim > 0 for x in eqn.inputs)


def _control_flow(eqn, ins, out, **params):
    """cond, scan, while_loop: their bodies lower, and their operands are values a kernel
    takes (not, say, a complex constant)."""
    return all(_graph_lowerable(g) for g in subgraphs(eqn)) and all(
        isinstance(x, (Var, np.generic) + SCALARS) or type(x) is np.ndarray
        for x in eqn.inputs)


# When a kernel computes a primitive that is not elementwise (block.LOWERINGS: how).
LOWERABLE = {
    reduce_sum_p: _reduction, reduce_max_p: _reduction, reduce_min_p: _reduction,
    matmul_p: _matmul,
    reshape_p: _of_a_variable, transpose_p: _of_a_variable, split_p: _of_a_variable,
    gather_p: _basic_gather, scatter_p: _slice_update,
    concatenate_p: _concatenate,
    cond_p: _control_flow, scan_p: _control_flow, while_loop_p: _control_flow,
}


# --- decompositions: primitives written as other primitives --------------------------------

def _logsumexp_eqns(eqn):
    """``logsumexp`` as its impl computes it: max, shift, exp, sum, log, add."""
    x = eqn.inputs[0]
    axes, keepdims = eqn.params["axes"], eqn.params["keepdims"]
    if not isinstance(x, Var) or x.aval.dtype.kind != "f" or any(
            x.aval.shape[a] == 0 for a in axes):
        return None
    eqns = []

    def emit(prim, inputs, **params):
        out = prim.abstract_eval(*[v.aval if isinstance(v, Var) else v for v in inputs],
                                 **params)
        var = Var(out)
        eqns.append(Eqn(prim, list(inputs), params, [var]))
        return var

    m = emit(reduce_max_p, [x], axes=axes, keepdims=True)
    shift = emit(where_p, [emit(isfinite_p, [m]), m, 0.0])  # (as the VJP's softmax: one CSE)
    total = emit(reduce_sum_p, [emit(exp_p, [emit(subtract_p, [x, shift])])], axes=axes,
                 keepdims=True)
    out = emit(add_p, [emit(log_p, [total]), shift])
    if not keepdims:
        out = emit(reshape_p, [out], shape=eqn.outvars[0].aval.shape)
    eqns[-1] = Eqn(eqns[-1].prim, eqns[-1].inputs, eqns[-1].params, eqn.outvars)
    return eqns


_EXPANSIONS = {logsumexp_p: _logsumexp_eqns}


def expand(graph):
    """``graph`` with decomposable primitives replaced by the primitives they are made of."""
    if not any(e.prim in _EXPANSIONS for e in graph.eqns):
        return graph
    eqns = []
    for eqn in graph.eqns:
        rule = _EXPANSIONS.get(eqn.prim)
        new = rule(eqn) if rule is not None else None
        eqns.extend(new if new is not None else [eqn])
    return Graph(graph.invars, eqns, graph.outvars)

"""A compiled graph's cost estimate: what ``Compiled.cost_analysis()`` returns.

JAX users read ``compiled.cost_analysis()["flops"]`` (to compute a utilisation, or to
compare two formulations) and ``["bytes accessed"]``; XLA estimates both from its
optimised graph and JAX's contract calls them estimates whose detail may change.  So
does this module, from the optimised :class:`~funcgrad.interpreters.graph.Graph`:

* ``"flops"``: one per element of each elementwise result and per element reduced (sums,
  extrema, cumulative sums and products, ``logsumexp``), ``2*m*n*k`` per matrix product and
  twice the product of all index sizes per ``einsum``; a ``scan`` body times its length, a ``cond``
  its costlier branch, a ``while_loop`` body once (its trip count is only known when it
  runs, and XLA counts it once too).  LAPACK routines, FFTs, sorting, indexing and data
  movement count nothing: a lower bound where the graph holds them.
* ``"bytes accessed"``: the bytes of the arguments, constants and results, which a call
  reads or writes at least (fusion keeps most intermediates out of memory).
"""
import numpy as np

from ..interpreters.graph import Var
from ..lax import cond_p, scan_p, while_loop_p
from ..primitives.linalg import einsum_p, matmul_p
from ..primitives.reductions import cumprod_p, cumsum_p, logsumexp_p, reduce_max_p, \
    reduce_min_p, reduce_prod_p
from ..primitives.structural import reduce_sum_p
from .passes import graph_consts

__all__ = ["cost_analysis"]

_REDUCTIONS = frozenset([reduce_sum_p, reduce_max_p, reduce_min_p, reduce_prod_p, cumsum_p,
                         cumprod_p, logsumexp_p])


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _shape(x):
    return x.aval.shape if isinstance(x, Var) else np.shape(x)


def _flops(graph):
    total = 0
    for eqn in graph.eqns:
        prim = eqn.prim
        if prim.elementwise is not None:
            total += sum(_size(v.aval.shape) for v in eqn.outvars)
        elif prim in _REDUCTIONS:
            total += _size(_shape(eqn.inputs[0]))
        elif prim is matmul_p:
            total += 2 * _size(eqn.outvars[0].aval.shape) * _shape(eqn.inputs[0])[-1]
        elif prim is einsum_p:
            ins = eqn.params["subscripts"].split("->")[0].split(",")
            sizes = {c: d for spec, x in zip(ins, eqn.inputs) for c, d in zip(spec, _shape(x))}
            total += 2 * _size(sizes.values())
        elif prim is scan_p:
            total += eqn.params["length"] * _flops(eqn.params["body"])
        elif prim is cond_p:
            total += max((_flops(g) for g in eqn.params["branches"]), default=0)
        elif prim is while_loop_p:
            total += _flops(eqn.params["cond"]) + _flops(eqn.params["body"])
    return total


def cost_analysis(graph, in_avals, out_avals):
    """``{"flops": ..., "bytes accessed": ...}`` of the optimised ``graph`` called with
    arguments of ``in_avals`` (see the module's notes for what is counted)."""
    nbytes = sum(_size(a.shape) * a.dtype.itemsize for a in list(in_avals) + list(out_avals))
    nbytes += sum(np.asarray(c).nbytes for c in graph_consts(graph))
    return {"flops": float(_flops(graph)), "bytes accessed": float(nbytes)}

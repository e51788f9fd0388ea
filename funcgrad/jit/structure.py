"""Rewrites from the structure of the values derivatives build, before lowering.

* :func:`unit_moves` turns a transpose that moves only axes of length 1 into a reshape
  (the elements keep their order), merges chains of reshapes and drops reshapes to the
  shape a value already has.  ``jacrev`` and ``vmap`` wrap a batched matrix product in
  such a chain (``(n, n, 1) -> (n, 1, n) -> (n, n)``); lowered as written, each step is a
  copy of the matrix.
* :func:`diagonal_products` computes a matrix product with a diagonal matrix ``d * I``
  (the identity basis of ``jacrev``/``jacfwd`` scaled by an elementwise derivative) as a
  scaling of the other operand's rows or columns: ``n**2`` multiplications instead of a
  GEMM's ``n**3``.  The product has the GEMM's values wherever the other operand is
  finite (each entry is the one nonzero term plus exact zeros; a zero entry may be -0.0
  where the GEMM's sum of zeros gives 0.0), and the basis' zeros stay exact zeros where
  it is not (``0 * inf`` poisons no entry, as with the eager rules' symbolic zeros).
"""
import numpy as np

from ..core import ShapedArray
from ..interpreters.graph import Eqn, Var
from ..primitives.elementwise import multiply_p
from ..primitives.linalg import matmul_p
from ..primitives.structural import reshape_p, transpose_p
from .fusion import band
from .passes import _rewritten

__all__ = ["unit_moves", "diagonal_products"]


def _keeps_order(shape, perm):
    """Does transposing ``shape`` by ``perm`` keep the elements' C order (only axes of
    length 1 move)?"""
    moved = [p for p in perm if shape[p] != 1]
    return moved == sorted(moved)


def unit_moves(graph):
    """``graph`` with order-keeping transposes as reshapes and reshape chains merged."""
    source = {}  # id(reshape result) -> the value it reshapes (itself no reshape's result)

    def rewrite(eqn, inputs):
        if eqn.prim is transpose_p:
            x = inputs[0]
            if not isinstance(x, Var) or not _keeps_order(x.aval.shape, eqn.params["perm"]):
                return None
        elif eqn.prim is not reshape_p or not isinstance(inputs[0], Var):
            return None
        x = source.get(id(inputs[0]), inputs[0])
        out = eqn.outvars[0]
        if x.aval.shape == out.aval.shape:
            return [], [x]
        source[id(out)] = x
        return [Eqn(reshape_p, [x], {"shape": tuple(out.aval.shape)}, [out])], [out]

    if not any(e.prim is transpose_p or e.prim is reshape_p for e in graph.eqns):
        return graph
    return _rewritten(graph, rewrite)


def _diagonal(x, producers):
    """``(eqns, d)``: equations computing the diagonal ``d`` (shape ``(n,)``, or a scalar)
    of ``x`` when ``x`` is ``C * e`` for a constant ``C = c * I`` (n x n, n large enough
    for :func:`~funcgrad.jit.fusion.band`) and ``e`` a scalar or a vector along either
    axis; else None."""
    made = producers.get(id(x)) if isinstance(x, Var) else None
    if made is None or made[0] is not multiply_p:
        return None
    a, b = made[1]
    k = 0 if type(a) is np.ndarray else 1 if type(b) is np.ndarray else None
    if k is None:
        return None
    c, e = made[1][k], made[1][1 - k]
    n = x.aval.shape[0]
    if c.shape != (n, n) or c.dtype != x.aval.dtype:
        return None
    found = band(c)
    if found is None or found[1:] != (0, 0, n):
        return None
    e_shape = e.aval.shape if isinstance(e, Var) else np.shape(e)
    if np.result_type(e.aval.dtype if isinstance(e, Var) else e) != x.aval.dtype:
        return None
    eqns = []
    if e_shape in ((1, n), (n, 1)):
        flat = Var(ShapedArray((n,), e.aval.dtype))
        eqns.append(Eqn(reshape_p, [e], {"shape": (n,)}, [flat]))
        e = flat
    elif e_shape not in ((), (n,)):
        return None
    value = x.aval.dtype.type(found[0])
    if value == 1 and isinstance(e, Var):  # (1 * e is e, bit for bit)
        return eqns, e
    d = Var(ShapedArray((n,) if e_shape else (), x.aval.dtype))
    eqns.append(Eqn(multiply_p, [value, e] if k == 0 else [e, value], {}, [d]))
    return eqns, d


def diagonal_products(graph):
    """``graph`` with matrix products of a diagonal matrix (see the module's docstring)
    computed as scalings."""
    producers = {}  # id(Var) -> (primitive, inputs) of the (rewritten) equation making it

    def rewrite(eqn, inputs):
        for v in eqn.outvars:
            producers[id(v)] = (eqn.prim, inputs)
        if eqn.prim is not matmul_p:
            return None
        a, b = inputs
        out = eqn.outvars[0].aval
        if out.dtype.kind != "f" or not all(
                isinstance(x, (Var, np.ndarray)) and len(_aval_shape(x)) == 2
                and _dtype(x) == out.dtype for x in (a, b)):
            return None
        for side, (diag, other) in enumerate(((a, b), (b, a))):
            found = _diagonal(diag, producers)
            if found is None:
                continue
            eqns, d = found
            if d.aval.shape:  # rows of `other` (diag @ other), or its columns
                n = d.aval.shape[0]
                col = Var(ShapedArray((n, 1) if side == 0 else (1, n), d.aval.dtype))
                eqns.append(Eqn(reshape_p, [d], {"shape": col.aval.shape}, [col]))
                d = col
            result = Var(out)
            eqns.append(Eqn(multiply_p, [d, other] if side == 0 else [other, d], {},
                            [result]))
            return eqns, [result]
        return None

    if not any(e.prim is matmul_p for e in graph.eqns):
        return graph
    return _rewritten(graph, rewrite)


def _aval_shape(x):
    return x.aval.shape if isinstance(x, Var) else x.shape


def _dtype(x):
    return x.aval.dtype if isinstance(x, Var) else x.dtype

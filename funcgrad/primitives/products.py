"""Products of arrays: ``matmul`` (NumPy's ``@``: 1-d operands promoted, stacks
broadcast) and ``einsum`` (explicit subscripts, a pure contraction once diagonals and
lonely sums are taken), with ``swap`` (the last two axes exchanged), which every matrix
rule uses.  BLAS stays underneath (NumPy's).
"""
import string

import numpy as np
from numpy import ndarray as _ndarray

from ..kernels._broadcast import broadcast_shapes
from ..core import Primitive, ShapedArray, _state, reads_the_others
from .structural import (broadcast_to, moveaxis, reduce_sum, reshape, to_front, transpose,
                         unbroadcast)


def _shape(x):
    # (a Python float operand is weakly typed and stays one: a cotangent of a Python float
    # argument reaches the VJP rules as it is)
    return getattr(x, "shape", ())


def swap(x):
    """Swap the last two axes."""
    n = x.ndim
    return transpose(x, tuple(range(n - 2)) + (n - 1, n - 2))


# --- matmul ----------------------------------------------------------------------------

def _matmul_shape(sa, sb):
    a2 = sa if len(sa) > 1 else (1,) + sa
    b2 = sb if len(sb) > 1 else sb + (1,)
    if a2[-1] != b2[-2]:
        raise ValueError(f"matmul: shapes {sa} and {sb} do not align: {a2[-1]} != {b2[-2]}")
    batch = broadcast_shapes(a2[:-2], b2[:-2])
    out = batch + (a2[-2], b2[-1])
    if len(sa) == 1:
        out = out[:-2] + out[-1:]
    if len(sb) == 1:
        out = out[:-1]
    return out


def _matmul_vjp(needs, g, out, a, b):
    if type(g) is _ndarray and type(a) is _ndarray and type(b) is _ndarray \
            and a.ndim == 2 and b.ndim == 2 and a.dtype is b.dtype is g.dtype:
        # Plain matrices of one dtype (a first-order gradient's): the two products the
        # general path below computes, the same NumPy calls on the same views, without
        # its dispatches (swap, reshape, unbroadcast, matmul: ~10 a node, several
        # microseconds where a small layer's products take a few)
        return (np.matmul(g, b.T) if needs[0] else None,
                np.matmul(a.T, g) if needs[1] else None)
    a2 = a if a.ndim > 1 else reshape(a, (1,) + a.shape)
    b2 = b if b.ndim > 1 else reshape(b, b.shape + (1,))
    g2 = g
    if a.ndim == 1:
        g2 = reshape(g2, g2.shape[:-1] + (1,) + g2.shape[-1:]) if b.ndim > 1 else g2
    if b.ndim == 1:
        g2 = reshape(g2, g2.shape + (1,))
    if a.ndim == 1 and b.ndim == 1:
        g2 = reshape(g, (1, 1))
    ga = gb = None
    if needs[0]:
        ga = unbroadcast(reshape(unbroadcast(matmul(g2, swap(b2)), a2), a.shape), a)
    if needs[1]:
        gb = unbroadcast(reshape(unbroadcast(matmul(swap(a2), g2), b2), b.shape), b)
    return ga, gb


def _matmul_jvp(primals, tangents):
    a, b = primals
    ta, tb = tangents
    out = matmul(a, b)
    t = None
    if ta is not None:
        t = matmul(ta, b)
    if tb is not None:
        t2 = matmul(a, tb)
        t = t2 if t is None else t + t2
    return out, t


def _matmul_batch(args, dims):
    (a, b), (da, db) = args, dims
    a, b = to_front(a, da), to_front(b, db)
    ra = a.ndim - (da is not None)
    rb = b.ndim - (db is not None)
    # A batch of vectors or matrices times one unbatched matrix (jacfwd/jacrev of
    # ``A @ x``): fold the batch into the rows of a single matrix product, one BLAS
    # call, instead of a stack of matrix-vector products (about 2x faster).
    if db is None and b.ndim == 2 and ra in (1, 2):
        if ra == 1:                                  # (B, k) @ (k, m)
            return matmul(a, b), 0
        size, n, k = a.shape                         # (B*n, k) @ (k, m)
        return reshape(matmul(reshape(a, (size * n, k)), b), (size, n, b.shape[1])), 0
    if da is None and a.ndim == 2 and rb in (1, 2):
        if rb == 1:                                  # a @ b_i = b_i @ a.T
            return matmul(b, swap(a)), 0
        size, k, m = b.shape                         # (B*m, k) @ a.T, then back
        out = matmul(reshape(swap(b), (size * m, k)), swap(a))
        return swap(reshape(out, (size, m, a.shape[0]))), 0
    squeeze = []
    if ra == 1 and da is not None:
        a = reshape(a, a.shape[:1] + (1,) + a.shape[1:])
        ra = 2
        squeeze.append(-2)
    if rb == 1 and (db is not None or squeeze):
        b = reshape(b, b.shape + (1,))
        rb = 2
        squeeze.append(-1)
    stack = max(ra, rb) - 2
    if da is not None and ra - 2 < stack:
        a = reshape(a, a.shape[:1] + (1,) * (stack - ra + 2) + a.shape[1:])
    if db is not None and rb - 2 < stack:
        b = reshape(b, b.shape[:1] + (1,) * (stack - rb + 2) + b.shape[1:])
    if da is None and ra >= 2:
        a = reshape(a, (1,) * (stack - ra + 3) + a.shape)
    if db is None and rb >= 2:
        b = reshape(b, (1,) * (stack - rb + 3) + b.shape)
    out = matmul(a, b)
    for axis in squeeze:
        shape = list(out.shape)
        del shape[axis if axis == -1 else len(shape) - 2]
        out = reshape(out, tuple(shape))
    return out, 0


matmul_p = Primitive("matmul", np.matmul, abstract_eval=lambda a, b: ShapedArray(
    _matmul_shape(a.shape, b.shape), np.result_type(a.dtype, b.dtype)),
    jvp=_matmul_jvp, vjp=_matmul_vjp, batch=_matmul_batch, vjp_reads=reads_the_others,
    grad_fn_name="MmBackward0", saved_names={1: "mat2"})


def matmul(a, b):
    """NumPy's ``a @ b``: 1-d operands promoted, stacks broadcast."""
    # process2: a product has two arguments and no parameters, which reverse mode records
    # without process's argument tuple and checks (a layer's product: ~30 bytecodes less)
    return _state.interpreter.process2(matmul_p, a, b)


# --- einsum -----------------------------------------------------------------------------

def _parse(subscripts):
    ins, out = subscripts.split("->")
    return ins.split(","), out


def _einsum_impl(*operands, subscripts):
    big = sum(np.size(o) for o in operands) > 4096 or len(operands) > 2
    return np.einsum(subscripts, *operands, optimize=big)


def _einsum_abstract(*operands, subscripts):
    ins, out = _parse(subscripts)
    sizes = {}
    for spec, op in zip(ins, operands):
        for c, d in zip(spec, op.shape):
            sizes[c] = d
    return ShapedArray(tuple(sizes[c] for c in out),
                       np.result_type(*[o.dtype for o in operands]))


def _einsum_jvp(primals, tangents, *, subscripts):
    out = einsum_p.bind(*primals, subscripts=subscripts)
    t_out = None
    for i, t in enumerate(tangents):
        if t is None:
            continue
        ops = list(primals)
        ops[i] = t
        c = einsum_p.bind(*ops, subscripts=subscripts)
        t_out = c if t_out is None else t_out + c
    return out, t_out


def _einsum_vjp(needs, g, out, *operands, subscripts):
    ins, out_spec = _parse(subscripts)
    cts = []
    for i, (spec, need) in enumerate(zip(ins, needs)):
        if not need:
            cts.append(None)
            continue
        others = [s for j, s in enumerate(ins) if j != i]
        ops = [g] + [o for j, o in enumerate(operands) if j != i]
        ct = einsum(",".join([out_spec] + others) + "->" + spec, *ops)
        cts.append(unbroadcast(ct, operands[i]))
    return cts


def _einsum_batch(args, dims, *, subscripts):
    ins, out = _parse(subscripts)
    used = set(subscripts)
    letter = next(c for c in string.ascii_letters if c not in used)
    new_ins, ops = [], []
    for spec, a, d in zip(ins, args, dims):
        if d is None:
            new_ins.append(spec)
            ops.append(a)
        else:
            new_ins.append(letter + spec)
            ops.append(moveaxis(a, d, 0))
    return einsum_p.bind(*ops, subscripts=",".join(new_ins) + "->" + letter + out), 0


einsum_p = Primitive("einsum", _einsum_impl, abstract_eval=_einsum_abstract, jvp=_einsum_jvp,
                     vjp=_einsum_vjp, batch=_einsum_batch, vjp_reads=reads_the_others)


def einsum(subscripts, *operands):
    """Einstein summation over explicit subscripts (``"ij,jk->ik"``, no ``...``).

    Letters repeated inside one operand (diagonals) and letters that appear in
    only one operand and not the output (plain sums) are taken care of first,
    so that the primitive itself is a pure contraction whose VJP is again one.
    """
    from .indexing import diagonal
    ins, out = _parse(subscripts.replace(" ", ""))
    if len(ins) != len(operands):
        raise ValueError(f"einsum: {len(ins)} operand subscripts for {len(operands)} operands")
    ops = list(operands)
    for i, spec in enumerate(ins):
        if len(spec) != len(_shape(ops[i])):
            raise ValueError(f"einsum: operand {i} has {len(_shape(ops[i]))} axes but "
                             f"subscripts {spec!r} name {len(spec)}")
        while len(set(spec)) < len(spec):  # a repeated letter: take that diagonal
            c = next(c for c in spec if spec.count(c) > 1)
            p, q = spec.index(c), spec.index(c, spec.index(c) + 1)
            ops[i] = diagonal(ops[i], 0, p, q)
            spec = "".join(s for k, s in enumerate(spec) if k not in (p, q)) + c
        counts = {c: sum(s.count(c) for s in ins[:i] + [spec] + ins[i + 1:]) + out.count(c)
                  for c in spec}
        lonely = tuple(k for k, c in enumerate(spec) if counts[c] == 1)
        if lonely:
            ops[i] = reduce_sum(ops[i], lonely)
            spec = "".join(c for k, c in enumerate(spec) if k not in lonely)
        ins[i] = spec
    sizes = {}
    for spec, op in zip(ins, ops):
        for c, d in zip(spec, _shape(op)):
            if sizes.setdefault(c, d) != d:
                if d != 1 and sizes[c] != 1:
                    raise ValueError(f"einsum: letter {c!r} has sizes {sizes[c]} and {d}")
                if sizes[c] == 1:  # size 1 broadcasts to the other size, 0 included
                    sizes[c] = d
    for i, (spec, op) in enumerate(zip(ins, ops)):  # size-1 axes broadcast, as in NumPy
        full = tuple(sizes[c] for c in spec)
        if _shape(op) != full:
            ops[i] = broadcast_to(op, full)
    if len(ops) == 1 and ins[0] == out:
        return ops[0]
    if len(ops) == 1 and sorted(ins[0]) == sorted(out):
        return transpose(ops[0], tuple(ins[0].index(c) for c in out))
    return einsum_p.bind(*ops, subscripts=",".join(ins) + "->" + out)

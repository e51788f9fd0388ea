"""Linear algebra primitives: matmul, einsum, inv, solve, det, slogdet, cholesky.

All accept stacks of matrices (leading axes), as NumPy does, which is also
what their batching rules use.  BLAS/LAPACK stay underneath (NumPy's).
"""
import string

import numpy as np
from numpy import ndarray as _ndarray

from ..core import Primitive, ShapedArray, _state, reads_inputs_and_output, reads_the_others
from ..kernels.cpu import lapack
from .elementwise import conj, imag, negative, real
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
    batch = np.broadcast_shapes(a2[:-2], b2[:-2])
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


# --- matrix functions ---------------------------------------------------------------------

def _stack_batch(fn):
    def batch(args, dims, **params):
        return fn(moveaxis(args[0], dims[0], 0), **params), 0
    return batch


def _square_abstract(x, **_):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"expected square matrices (..., n, n), got shape {x.shape}")
    return ShapedArray(x.shape, np.result_type(x.dtype, np.float16))


def _explained(lapack_fn, explanation):
    """``lapack_fn`` whose LinAlgError says what went wrong and what to do
    (``explanation`` is formatted with the original message as ``{e}``)."""
    def impl(a):
        try:
            return lapack_fn(a)
        except np.linalg.LinAlgError as e:
            raise np.linalg.LinAlgError(explanation.format(e=e)) from None
    return impl


_inv_impl = _explained(
    np.linalg.inv,
    "inv: singular matrix ({e}): it has no inverse. Derivatives of det, slogdet and solve "
    "need the inverse too: at an exactly singular matrix they exist only for det in first "
    "order on plain arrays (grad/jvp); perturb the matrix (add a small multiple of the "
    "identity) to differentiate there under vmap, jit or higher order.")


inv_p = Primitive(
    "inv", _inv_impl, abstract_eval=_square_abstract, vjp_reads=reads_inputs_and_output,
    jvp=lambda primals, tangents: _inv_jvp(primals[0], tangents[0]),
    vjp=lambda needs, g, out, a: (negative(matmul(swap(out), matmul(g, swap(out)))),),
    batch=None)


def _inv_jvp(a, t):
    out = inv(a)
    return out, negative(matmul(out, matmul(t, out)))


def inv(a):
    """Inverse of square matrices (a stack of them)."""
    _check_square("inv", a)
    return inv_p.bind(a)


inv_p.batch = _stack_batch(inv)


def _check_square(name, a):
    shape = getattr(a, "shape", ())
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"{name}: expected square matrices with shape (..., n, n), got shape "
                         f"{shape}. Reshape the input into a (stack of) square matrices.")


def _solve_impl(a, b):
    return np.linalg.solve(a, b)


def _solve_abstract(a, b):
    if b.ndim == 1:
        shape = np.broadcast_shapes(a.shape[:-2], ()) + (a.shape[-1],)
    else:
        shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:]
    return ShapedArray(shape, np.result_type(a.dtype, b.dtype, np.float16))


def _as_matrix_rhs(b, x):
    """(b, x) with a vector right-hand side turned into one column."""
    if b.ndim == 1:
        return reshape(x, x.shape + (1,))
    return x


def _solve_vjp(needs, g, out, a, b):
    # With a 1-d b and a stack of matrices a, out and g are stacks of vectors: solve
    # them as one-column matrices (a 2-d g would be read as a matrix right-hand side).
    return _solve_cotangents(needs, solve(swap(a), _as_matrix_rhs(b, g)), out, a, b)


def _solve_cotangents(needs, gb2, x, a, b):
    """``(a's, b's)`` cotangents of ``x = solve(a, b)`` from ``gb2 = solve(a^T, g)``
    (``g`` as matrix right-hand sides): ``-gb2 x^T`` and ``gb2``, unbroadcast."""
    ga = gb = None
    if needs[0]:
        ga = unbroadcast(negative(matmul(gb2, swap(_as_matrix_rhs(b, x)))), a)
    if needs[1]:
        gb = reshape(gb2, gb2.shape[:-1]) if b.ndim == 1 else gb2
        gb = unbroadcast(gb, b)
    return ga, gb


def _solve_jvp(primals, tangents):
    a, b = primals
    ta, tb = tangents
    out = solve(a, b)
    t = solve(a, _tangent_rhs(ta, tb, out, b))
    return out, (reshape(t, t.shape[:-1]) if b.ndim == 1 else t)


def _tangent_rhs(ta, tb, x, b):
    """``tb - ta x`` (as matrix right-hand sides): ``a`` times the tangent of ``x =
    solve(a, b)``."""
    rhs = None if tb is None else _as_matrix_rhs(b, tb)
    if ta is not None:
        ax = matmul(ta, _as_matrix_rhs(b, x))
        rhs = negative(ax) if rhs is None else rhs - ax
    return rhs


def _solve_batch(args, dims):
    (a, b), (da, db) = args, dims
    vector = b.ndim - (db is not None) == 1
    a, b = to_front(a, da), to_front(b, db)
    if vector:
        b = reshape(b, b.shape + (1,))
    ra = a.ndim - (da is not None)
    rb = b.ndim - (db is not None)
    stack = max(ra, rb) - 2
    if da is not None:
        a = reshape(a, a.shape[:1] + (1,) * (stack - ra + 2) + a.shape[1:])
    else:
        a = reshape(a, (1,) * (stack - ra + 3) + a.shape)
    if db is not None:
        b = reshape(b, b.shape[:1] + (1,) * (stack - rb + 2) + b.shape[1:])
    else:
        b = reshape(b, (1,) * (stack - rb + 3) + b.shape)
    n_batch = max(a.shape[0], b.shape[0])
    b = broadcast_to(b, (n_batch,) + b.shape[1:])
    out = solve(a, b)
    if vector:
        out = reshape(out, out.shape[:-1])
    return out, 0


solve_p = Primitive("solve", _solve_impl, abstract_eval=_solve_abstract, jvp=_solve_jvp,
                    vjp=_solve_vjp, batch=_solve_batch, vjp_reads=reads_inputs_and_output)


def solve(a, b):
    """Solve ``a @ x = b`` (NumPy 2 semantics: ``b`` is a vector only when 1-d)."""
    _check_square("solve", a)
    if _factor_once(a, b):
        return solve_lu_p.bind(a, b)[0]
    return solve_p.bind(a, b)


# --- solve keeping its LU factors ------------------------------------------------------
# ``solve_lu(a, b) -> (x, lu, piv)`` is LAPACK's gesv, the call np.linalg.solve makes (its
# bits), keeping the factors of ``a``; ``lu_solve(a, lu, piv, b, transpose)`` solves with
# them.  Every derivative with respect to ``a`` is carried by the ``a`` argument of both
# (the rules are those of ``a^-1 b``): ``lu`` and ``piv`` are ``a``'s factors, read for
# their values only, with no tangent or cotangent of their own, as JAX's solve reads
# ``lu(stop_gradient(a))``.  So the gradient's transposed solve, the JVP's solve and every
# higher order reuse the forward's factorization: one LU instead of one per solve.

LU_MIN = 32
"""The smallest ``n`` that :func:`solve` factors once for: below it a stack of matrices
costs more in the per-matrix calls of :mod:`funcgrad.kernels.cpu.lapack` (a few
microseconds each, from Python) than in the second factorization NumPy's loop makes."""


def _factor_once(a, b):
    """Does :func:`solve` go through ``solve_lu_p``?  (LAPACK reachable, a supported dtype,
    matrices of at least ``LU_MIN`` rows, nothing empty: the rest keeps ``solve_p``.)"""
    b_dtype = getattr(b, "dtype", None)
    if (a.shape[-1] < LU_MIN or 0 in a.shape or 0 in _shape(b) or b_dtype is None
            or not lapack.available()):
        return False
    dtype = np.result_type(a.dtype, b_dtype, np.float16)
    return dtype.kind in "fc" and dtype.itemsize in ((4, 8) if dtype.kind == "f" else (8, 16))


def _solve_lu_impl(a, b):
    dtype = np.result_type(a.dtype, b.dtype, np.float16)
    if b.ndim == 1:
        x, lu, piv = lapack.gesv(a, b[:, None], dtype)
        return x[..., 0], lu, piv
    return lapack.gesv(a, b, dtype)


def _solve_lu_abstract(a, b):
    x = _solve_abstract(a, b)
    n = a.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2] if b.ndim > 1 else ())
    return (x, ShapedArray(batch + (n, n), lapack.computation_dtype(x.dtype)),
            ShapedArray(batch + (n,), lapack.pivot_dtype()))


def _solve_lu_jvp(primals, tangents):
    a, b = primals
    ta, tb = tangents
    x, lu, piv = solve_lu_p.bind(a, b)
    t = lu_solve(a, lu, piv, _tangent_rhs(ta, tb, x, b), False)
    return (x, lu, piv), (reshape(t, t.shape[:-1]) if b.ndim == 1 else t, None, None)


def _solve_lu_vjp(needs, gs, outs, a, b):
    g, x, lu, piv = gs[0], outs[0], outs[1], outs[2]
    if g is None:  # (only the factors' cotangents, which nothing gives: see above)
        return None, None
    return _solve_cotangents(needs, lu_solve(a, lu, piv, _as_matrix_rhs(b, g), True), x, a, b)


def _solve_lu_batch(args, dims):
    (a, b), (da, db) = args, dims
    vector = b.ndim - (db is not None) == 1
    if vector:
        b, db = to_front(b, db), (None if db is None else 0)
        b = reshape(b, b.shape + (1,))
    (a, b), _ = _align_stacks((a, b), (da, db), (2, 2))
    x, lu, piv = solve_lu_p.bind(a, b)
    return (reshape(x, x.shape[:-1]) if vector else x, lu, piv), (0, 0, 0)


def _align_stacks(args, dims, core_ranks):
    """``args`` with their batch axis first and their stacks of the same rank (unit axes
    where one has fewer: they broadcast), and the batch size."""
    ranks = [x.ndim - (d is not None) - c for x, d, c in zip(args, dims, core_ranks)]
    stack = max(ranks)
    out = []
    for x, d, r in zip(args, dims, ranks):
        if d is None:
            out.append(reshape(x, (1,) * (stack - r + 1) + x.shape))
        else:
            x = to_front(x, d)
            out.append(reshape(x, x.shape[:1] + (1,) * (stack - r) + x.shape[1:]))
    return out, max(x.shape[0] for x in out)


solve_lu_p = Primitive("solve_lu", _solve_lu_impl, abstract_eval=_solve_lu_abstract,
                       jvp=_solve_lu_jvp, vjp=_solve_lu_vjp, batch=_solve_lu_batch,
                       multiple_results=True, vjp_reads=reads_inputs_and_output,
                       grad_fn_name="LinalgSolveExBackward0")


def _lu_solve_impl(a, lu, piv, b, *, transpose):
    dtype = np.result_type(a.dtype, b.dtype, np.float16)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return lapack.getrs(lu, piv, np.broadcast_to(b, batch + b.shape[-2:]), transpose, dtype)


def _lu_solve_abstract(a, lu, piv, b, *, transpose):
    batch = np.broadcast_shapes(a.shape[:-2], lu.shape[:-2], piv.shape[:-1], b.shape[:-2])
    return ShapedArray(batch + b.shape[-2:], np.result_type(a.dtype, b.dtype, np.float16))


def _op(a, transpose):
    return swap(a) if transpose else a


def _lu_solve_jvp(primals, tangents, *, transpose):
    # (the factors' tangents are None: their dependence on ``a`` is ``ta``'s term)
    a, lu, piv, b = primals
    ta, tb = tangents[0], tangents[3]
    x = lu_solve(a, lu, piv, b, transpose)
    rhs = tb
    if ta is not None:
        ax = matmul(_op(ta, transpose), x)
        rhs = negative(ax) if rhs is None else rhs - ax
    return x, lu_solve(a, lu, piv, rhs, transpose)


def _lu_solve_vjp(needs, g, x, a, lu, piv, b, *, transpose):
    # x = op(a)^-1 b: gb = op(a)^-T g, and ga = -gb x^T, transposed back when op is
    gb = lu_solve(a, lu, piv, g, not transpose)
    ga = None
    if needs[0]:
        ga = unbroadcast(negative(matmul(x, swap(gb)) if transpose else matmul(gb, swap(x))), a)
    return ga, None, None, (unbroadcast(gb, b) if needs[3] else None)


def _lu_solve_batch(args, dims, *, transpose):
    aligned, _ = _align_stacks(args, dims, (2, 2, 1, 2))
    return lu_solve(*aligned, transpose), 0


lu_solve_p = Primitive("lu_solve", _lu_solve_impl, abstract_eval=_lu_solve_abstract,
                       jvp=_lu_solve_jvp, vjp=_lu_solve_vjp, batch=_lu_solve_batch,
                       vjp_reads=reads_inputs_and_output)


def lu_solve(a, lu, piv, b, transpose):
    """``x`` with ``a @ x = b`` (``a.T @ x = b`` when ``transpose``; ``b`` a stack of
    matrices) from ``(lu, piv)``, the factors :data:`solve_lu_p` returned with ``a``;
    differentiable in ``a`` and ``b``."""
    return lu_solve_p.bind(a, lu, piv, b, transpose=bool(transpose))


def _slogdet_impl(a):
    sign, logdet = np.linalg.slogdet(a)
    return sign, logdet


def _slogdet_abstract(a):
    _square_abstract(a)
    dtype = np.result_type(a.dtype, np.float16)
    return ShapedArray(a.shape[:-2], dtype), ShapedArray(a.shape[:-2], dtype)


def _inv_t(a):
    return swap(inv(a))


def _slogdet_jvp(primals, tangents):
    # d log det a = tr(a^-1 da) = tau: log|det| moves by Re tau and, for complex a, the
    # sign (det / |det|) by sign * i Im tau (for real a the sign is locally constant).
    a, = primals
    sign, logdet = slogdet(a)
    tau = _trace_solve(a, tangents[0])
    if np.dtype(a.dtype).kind != "c":
        return (sign, logdet), (None, tau)
    return (sign, logdet), (sign * (imag(tau) * 1j), real(tau))


def _trace_solve(a, t):
    """trace(a^-1 t) over the last two axes: the derivative of log|det a| along t."""
    eye = np.eye(a.shape[-1], dtype=a.dtype)
    return reduce_sum(solve(a, t) * eye, (a.ndim - 2, a.ndim - 1))


def _slogdet_vjp(needs, gs, outs, a):
    # The transpose of the JVP above: (g_log + i Im(g_sign * sign)) a^-T.
    g_sign, g = gs
    if np.dtype(a.dtype).kind == "c" and g_sign is not None:
        turn = imag(g_sign * outs[0]) * 1j
        g = turn if g is None else g + turn
    if g is None:
        return (None,)
    return (reshape(g, g.shape + (1, 1)) * _inv_t(a),)


slogdet_p = Primitive("slogdet", _slogdet_impl, abstract_eval=_slogdet_abstract,
                      jvp=_slogdet_jvp, vjp=_slogdet_vjp, multiple_results=True,
                      vjp_reads=reads_inputs_and_output)


def slogdet(a):
    """``(sign, log|det|)`` of square matrices (the sign has a derivative for complex
    matrices only; for real ones it is locally constant)."""
    _check_square("slogdet", a)
    return tuple(slogdet_p.bind(a))


slogdet_p.batch = lambda args, dims: (slogdet(moveaxis(args[0], dims[0], 0)), (0, 0))


def _det_jvp(primals, tangents):
    a, = primals
    t = tangents[0]
    out = det(a)
    if type(a) is np.ndarray and type(t) is np.ndarray:
        try:  # first order on plain arrays: det(a) trace(a^-1 t), or via the cofactors
            return out, out * _trace_solve(a, t)
        except np.linalg.LinAlgError:
            return out, np.sum(_cofactors(a) * t, axis=(-2, -1))
    return out, out * _trace_solve(a, t)


def _det_vjp(needs, g, out, a):
    if type(a) is np.ndarray and isinstance(g, (np.ndarray, np.generic, float)):
        try:  # first order on plain arrays: det(a) a^-T, or the cofactors where a is singular
            return (np.reshape(g * out, np.shape(out) + (1, 1)) * _inv_t(a),)
        except np.linalg.LinAlgError:
            return (np.reshape(g, np.shape(g) + (1, 1)) * _cofactors(a),)
    return (reshape(g * out, out.shape + (1, 1)) * _inv_t(a),)


def _cofactors(a):
    """The cofactor matrix of ``a`` (``det(a) a^-T`` where that exists), finite for
    singular matrices too: with ``a = u diag(s) vh`` it is ``det(u) det(vh) u diag(p) vh``,
    ``p[i]`` the product of the singular values other than ``s[i]``.  (A plain-NumPy value:
    the derivative of det at a singular matrix is first order only; higher orders go
    through ``inv`` and raise there.)"""
    u, s, vh = np.linalg.svd(a)
    ones = np.ones(s.shape[:-1] + (1,), s.dtype)
    left = np.cumprod(np.concatenate([ones, s[..., :-1]], axis=-1), axis=-1)
    right = np.cumprod(np.concatenate([ones, s[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    sign = np.linalg.det(u) * np.linalg.det(vh)
    return (sign[..., None, None] * u * (left * right)[..., None, :]) @ vh


det_p = Primitive(
    "det", np.linalg.det, vjp_reads=reads_inputs_and_output,
    abstract_eval=lambda a: ShapedArray(a.shape[:-2], np.result_type(a.dtype, np.float16)),
    jvp=_det_jvp, vjp=_det_vjp)


def det(a):
    """Determinant of square matrices (a stack of them)."""
    _check_square("det", a)
    return det_p.bind(a)


det_p.batch = _stack_batch(det)


def _phi(x):
    """Lower triangle with the diagonal halved."""
    n = x.shape[-1]
    mask = np.tril(np.ones((n, n)), -1) + 0.5 * np.eye(n)
    return x * mask.astype(x.dtype)


def _conj(x):
    """The complex conjugate (``x`` itself for real dtypes: no operation recorded)."""
    return conj(x) if np.dtype(x.dtype).kind == "c" else x


def _adjoint(x):
    """The conjugate transpose of the last two axes."""
    return _conj(swap(x))


def _herm(x):
    """The Hermitian (for real dtypes, symmetric) part of the last two axes."""
    return (x + _adjoint(x)) * 0.5


def _cholesky_jvp(primals, tangents):
    # A = L L^H: L^-1 dA L^-H = X + X^H with X = L^-1 dL lower triangular, whose diagonal
    # is real (L's is): X = phi(L^-1 herm(dA) L^-H), dL = L X.
    a, = primals
    low = cholesky(a)
    l_inv = inv(low)
    s = _herm(tangents[0])
    return low, matmul(low, _phi(matmul(l_inv, matmul(s, _adjoint(l_inv)))))


def _cholesky_vjp(needs, g, low, a):
    # Transpose of the JVP above under the pairing Re sum(a * b) (JAX's convention):
    # P = phi(L^T G); A_bar = herm(L^-T P conj(L^-1)).
    l_inv = inv(low)
    p = _phi(matmul(swap(low), g))
    return (_herm(matmul(swap(l_inv), matmul(p, _conj(l_inv)))),)


_cholesky_impl = _explained(
    np.linalg.cholesky,
    "cholesky: the matrix is not positive definite ({e}). Cholesky needs a symmetric "
    "positive-definite matrix; add a small multiple of the identity if it is only "
    "semi-definite.")


cholesky_p = Primitive("cholesky", _cholesky_impl, abstract_eval=_square_abstract,
                       jvp=_cholesky_jvp, vjp=_cholesky_vjp, vjp_reads=reads_inputs_and_output)


def cholesky(a):
    """Lower Cholesky factor ``L`` with ``a = L @ L^H`` (``a`` Hermitian, or real symmetric,
    positive definite)."""
    _check_square("cholesky", a)
    return cholesky_p.bind(a)


cholesky_p.batch = _stack_batch(cholesky)

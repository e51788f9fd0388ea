"""Linear solves: ``solve`` (``a^-1 b``, NumPy 2's semantics for a vector ``b``) and the
pair that keeps LAPACK's LU factors, ``solve_lu`` (``gesv``) and ``lu_solve`` (``getrs``),
so that a gradient's transposed solve and every higher order reuse one factorization.
"""
import numpy as np

from ..kernels._broadcast import broadcast_shapes
from ..core import Primitive, ShapedArray, reads_inputs_and_output
from ..kernels.cpu import lapack
from .elementwise import negative
from .products import _shape, matmul, swap
from .structural import broadcast_to, reshape, to_front, unbroadcast


def _check_square(name, a):
    shape = getattr(a, "shape", ())
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise np.linalg.LinAlgError(  # (a ValueError, as NumPy's)
            f"{name}: expected square matrices with shape (..., n, n), got shape {shape}. "
            f"Reshape the input into a (stack of) square matrices.")


def _solve_impl(a, b):
    return np.linalg.solve(a, b)


def _solve_abstract(a, b):
    if b.ndim == 1:
        shape = broadcast_shapes(a.shape[:-2], ()) + (a.shape[-1],)
    else:
        shape = broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:]
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
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2] if b.ndim > 1 else ())
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
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return lapack.getrs(lu, piv, np.broadcast_to(b, batch + b.shape[-2:]), transpose, dtype)


def _lu_solve_abstract(a, lu, piv, b, *, transpose):
    batch = broadcast_shapes(a.shape[:-2], lu.shape[:-2], piv.shape[:-1], b.shape[:-2])
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

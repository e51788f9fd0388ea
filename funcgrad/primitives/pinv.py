"""The Moore-Penrose pseudo-inverse primitive, ``pinv``, with NumPy's cutoff (singular
values at most ``rcond * largest`` count as 0), and its derivative where no singular value
crosses the cutoff: Golub and Pereyra's, plus the turn of the kept singular vectors
towards the dropped ones when the cutoff drops nonzero singular values.

Complex matrices and stacks as in :mod:`.decompositions`, whose helpers and ``svd`` it
uses.
"""
import numpy as np

from ..core import (ConcretizationError, Primitive, ShapedArray, Tracer, concrete,
                    reads_inputs_and_output)
from .decompositions import (_adj, _as_col, _as_row, _cj, _eye, _matrix_abstract, _tolerance,
                             svd)
from .elementwise import abs as _abs, greater, where
from .linalg import matmul, swap
from .reductions import reduce_max
from .structural import convert_element_type, moveaxis, stop_gradient


# --- pinv ---------------------------------------------------------------------------------
# Golub & Pereyra (1973) give the derivative of the pseudo-inverse where the rank is locally
# constant, exact when the cutoff drops only zero singular values.  A cutoff that drops
# nonzero ones makes pinv(a) the pseudo-inverse of the truncation sum_k s_k u_k v_k^H, whose
# kept singular vectors also turn towards the dropped ones.  As for any V diag(f(s)) U^H,
# in the SVD basis (om = U^H da V) the pair (kept k, dropped d) of dP's coordinates has
# the divided differences of 1/s at (s_k, s_d) and (s_k, -s_d) where their rule has
# 1/s_k^2 (it reads s_d as 0): the difference is om * c + om^H * e (transposed), with
#     c = s_d / (s_k (s_k^2 - s_d^2)),  e = s_d^2 / (s_k^2 (s_k^2 - s_d^2)).
# c's first term s_d / s_k^3 sums to p p^H p da t^H + t^H da p p^H p with t = a - a p a
# (the dropped part): smooth in a, zero singular values included, so it carries the
# second derivative at a rank-deficient matrix; the rest (c - s_d / s_k^3 and e) is
# O(s_d^2), computed from the SVD, whose vectors of a zero group it multiplies by 0.
#   Its own derivative (a second derivative of pinv) goes through svd's rule, which gives
# each singular value of a repeated group its own ds_i = Re(om_ii): right for functions
# symmetric in the group, not for the weights c(s_k, s_d), e(s_k, s_d) of a group paired
# across the cutoff.  A group's values move by the eigenvalues of the Hermitian block of om
# on it, so the weights move by (dc/ds_row) (D om) + (dc/ds_col) (om D) with D that block;
# svd's rule keeps D's diagonal, and :func:`_group_turns` adds the rest, as a term that is 0
# (its value) with that derivative.  (Not beyond: a third derivative of pinv at such a
# group is still off by a few percent, the slopes being held fixed.)

def _golub_pereyra_jvp(a, p, da, full=(False, False)):
    m, n = a.shape[-2:]
    pt, dat = _adj(p), _adj(da)
    dp = -matmul(p, matmul(da, p))
    if not full[0]:
        dp = dp + matmul(matmul(p, pt), matmul(dat, _eye(m, p.dtype) - matmul(a, p)))
    if not full[1]:
        dp = dp + matmul(_eye(n, p.dtype) - matmul(p, a), matmul(dat, matmul(pt, p)))
    return dp


# Where every matrix has full row rank, a p = I and the term with I - a p is 0 on a whole
# neighbourhood, and so are all its derivatives (full column rank: p a = I, the same for
# the term with I - p a; either: nothing is dropped, no truncation).  Computed, such a term
# is 0 only to rounding, eps cond(a)^2 with p from an SVD, and a derivative of the rule
# multiplies that by p's size again: pinv(x.T @ x)'s second derivative at cond 2e4 came out
# 7e-2 off from inv's.  So the rules leave those terms out wherever a's value is known
# (a plain array, or a tracer with a concrete value); under jit and vmap they stay.

def _known_spectrum(a):
    """The singular values of ``a``'s value, or None where it is not known here."""
    if min(a.shape[-2:]) == 0:
        return None
    value = a
    if isinstance(a, Tracer):
        try:
            value = concrete(a)
        except ConcretizationError:  # (jit and vmap trace without one value)
            return None
    if type(value) is not np.ndarray:  # (a GPU array: not worth a copy to the host)
        return None
    return np.linalg.svd(value, compute_uv=False)


def _full_ranks(s, shape, rcond):
    """``(rows, columns)``: whether every matrix has full row rank and full column rank
    under the cutoff, by its singular values ``s`` (None: not known, both False)."""
    if s is None:
        return False, False
    rank = np.sum(s > rcond * np.max(s, axis=-1, keepdims=True), axis=-1)
    m, n = shape[-2:]
    return bool(np.all(rank == m)), bool(np.all(rank == n))


def _pairs(s, rcond):
    """``(row_big, big, small)``, (..., r, r): which pairs (kept, dropped) have the kept
    value in their row, and each pair's kept and dropped values (1 and 0 off the pairs, a
    double where: no 0 / 0 there)."""
    fixed = stop_gradient(s)
    cutoff = reduce_max(fixed, (s.ndim - 1,), keepdims=True) * rcond  # (NumPy's test)
    kept = convert_element_type(greater(fixed, cutoff), s.dtype)
    row_kept, col_kept = _as_col(kept), _as_row(kept)
    kept_row = row_kept * (1.0 - col_kept)  # (the pairs whose row is the kept one)
    pair = greater(kept_row + (1.0 - row_kept) * col_kept, 0.5)
    row_big = greater(kept_row, 0.5)
    big = where(row_big, _as_col(s), _as_row(s))  # the pair's kept value
    small = _as_col(s) + _as_row(s) - big
    return (row_big, where(pair, big, np.ones((), s.dtype)),
            where(pair, small, np.zeros((), s.dtype)))


def _truncation_weights(s, rcond):
    """``(c_rest, e)``, (..., r, r): the weights of ``om`` and ``om^H`` in the correction
    beyond its first term; zero but for the (kept, dropped) pairs of singular values."""
    _, big, small = _pairs(s, rcond)
    big2, small2 = big * big, small * small
    gap = big2 * (big2 - small2)  # > 0: big > cutoff >= small >= 0 on the pairs
    return small2 * small / (big * gap), small2 / gap


def _weight_slopes(s, rcond):
    """``(c_row, c_col, e_row, e_col)``: the derivatives of ``c_rest`` and ``e`` with
    respect to the singular value of each pair's row and of its column (0 off the pairs),
    at fixed ``s``: they multiply :func:`_group_turns`, whose value is 0."""
    row_big, b, d = _pairs(stop_gradient(s), rcond)
    b2, d2 = b * b, d * d
    gap2 = (b2 - d2) * (b2 - d2)
    c_b = -d2 * d * (5.0 * b2 - 3.0 * d2) / (b2 * b2 * gap2)
    c_d = d2 * (3.0 * b2 - d2) / (b2 * b * gap2)
    e_b = -2.0 * d2 * (2.0 * b2 - d2) / (b2 * b * gap2)
    e_d = 2.0 * d / gap2
    return (where(row_big, c_b, c_d), where(row_big, c_d, c_b),
            where(row_big, e_b, e_d), where(row_big, e_d, e_b))


def _group_turns(a, u, s, v):
    """The off-diagonal blocks of ``u^H a v`` inside each group of repeated nonzero
    singular values, less their value: 0, whose derivative is the part of the group's
    Hermitian block of ``om`` that svd's rule leaves out of ``ds``."""
    m, n = a.shape[-2:]
    fixed = stop_gradient(s)
    tol = _tolerance(s, max(m, n))
    apart = greater(_abs(_as_row(fixed) - _as_col(fixed)), tol)
    inside = (1.0 - convert_element_type(apart, s.dtype)) * (
        convert_element_type(greater(_as_col(fixed), tol), s.dtype)
        - _eye(s.shape[-1], s.dtype))
    x = matmul(_adj(u), matmul(a, v))
    return (x - stop_gradient(x)) * convert_element_type(greater(inside, 0.5), a.dtype)


def _turned(x, turns, slopes):
    """The derivative :func:`_group_turns` adds to ``x * c_rest + x^H * e``."""
    c_row, c_col, e_row, e_col = slopes
    xh = _adj(x)
    return (c_row * matmul(turns, x) + c_col * matmul(x, turns)
            + e_row * matmul(turns, xh) + e_col * matmul(xh, turns))


def _truncation(a, p, rcond, s):
    """``(q, t, u, v, c_rest, e, turns, slopes)`` for the correction, or None on plain arrays where the
    cutoff drops no singular value large enough to matter (all 0, or ``s_d <= eps (s_k -
    s_d)`` for the smallest kept ``s_k``: below rounding, relative to the rest), where
    Golub & Pereyra's rule alone is exact.  (Traced, it is always computed: a derivative
    of the rule needs it wherever something is dropped.)"""
    m, n = a.shape[-2:]
    if min(m, n) == 0:
        return None
    if type(a) is np.ndarray:  # (s: its singular values, from _known_spectrum)
        large = s > rcond * np.max(s, axis=-1, keepdims=True)
        dropped = np.max(np.where(large, 0.0, s), axis=-1)
        smallest_kept = np.min(np.where(large, s, np.inf), axis=-1)
        if np.all(dropped <= np.finfo(s.dtype).eps * (smallest_kept - dropped)):
            return None
    u, s, vh = svd(a)
    v = _adj(vh)
    c_rest, e = _truncation_weights(s, rcond)
    dropped_part = a - matmul(a, matmul(p, a))
    slopes = tuple(convert_element_type(w, a.dtype) for w in _weight_slopes(s, rcond))
    return (matmul(p, matmul(_adj(p), p)), _adj(dropped_part), u, v,
            convert_element_type(c_rest, a.dtype), convert_element_type(e, a.dtype),
            _group_turns(a, u, s, v), slopes)


def _pinv_jvp(primals, tangents, *, rcond, hermitian):
    a, = primals
    da = tangents[0]
    p = pinv(a, rcond, hermitian)
    s = _known_spectrum(a)
    full = _full_ranks(s, a.shape, rcond)
    dp = _golub_pereyra_jvp(a, p, da, full)
    truncation = None if any(full) else _truncation(a, p, rcond, s)
    if truncation is not None:
        q, t, u, v, c_rest, e, turns, slopes = truncation
        om = matmul(_adj(u), matmul(da, v))
        dp = (dp + matmul(q, matmul(da, t)) + matmul(t, matmul(da, q))
              + matmul(v, matmul(om * c_rest + _adj(om) * e + _turned(om, turns, slopes),
                                 _adj(u))))
    return p, dp


def _pinv_vjp(needs, g, p, a, *, rcond, hermitian):
    # the Hermitian adjoint of the JVP at conj(g), conjugated (JAX's convention)
    m, n = a.shape[-2:]
    pt, gt = _adj(p), swap(g)  # (gt: the adjoint of conj(g))
    gc = _cj(g)
    s = _known_spectrum(a)
    full = _full_ranks(s, a.shape, rcond)
    ga = -matmul(pt, matmul(gc, pt))
    if not full[0]:
        ga = ga + matmul(_eye(m, p.dtype) - matmul(a, p), matmul(gt, matmul(p, pt)))
    if not full[1]:
        ga = ga + matmul(matmul(pt, p), matmul(gt, _eye(n, p.dtype) - matmul(p, a)))
    truncation = None if any(full) else _truncation(a, p, rcond, s)
    if truncation is not None:
        q, t, u, v, c_rest, e, turns, slopes = truncation
        h = matmul(_adj(v), matmul(gc, u))
        ga = (ga + matmul(_adj(q), matmul(gc, _adj(t))) + matmul(_adj(t), matmul(gc, _adj(q)))
              + matmul(u, matmul(h * c_rest + _adj(h) * e + _turned(h, turns, slopes),
                                 _adj(v))))
    return (_cj(ga),)


pinv_p = Primitive(
    "pinv", lambda a, *, rcond, hermitian: np.linalg.pinv(a, rcond=rcond, hermitian=hermitian),
    jvp=_pinv_jvp, vjp=_pinv_vjp, vjp_reads=reads_inputs_and_output,
    abstract_eval=lambda a, *, rcond, hermitian: ShapedArray(
        a.shape[:-2] + (a.shape[-1], a.shape[-2]), _matrix_abstract(a)[3]))


def pinv(a, rcond=1e-15, hermitian=False):
    """Moore-Penrose pseudo-inverse; singular values below ``rcond * largest`` count as 0.
    (``hermitian=True``: LAPACK reads ``a`` as Hermitian, so ``a`` must be Hermitian here:
    the front mirrors the lower triangle first.)"""
    return pinv_p.bind(a, rcond=float(rcond), hermitian=bool(hermitian))


pinv_p.batch = lambda args, dims, *, rcond, hermitian: (
    pinv(moveaxis(args[0], dims[0], 0), rcond, hermitian), 0)

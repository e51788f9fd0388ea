"""Matrix decompositions: svd, svdvals, eigh, eigvalsh, qr (eig: :mod:`.eig`, pinv:
:mod:`.pinv`).

Forward values are NumPy's (LAPACK's sign and ordering conventions included); the rules
are written with differentiable primitives, so every order of derivative, ``vmap`` and
``jit`` work.  All accept stacks of matrices (leading axes), which is also how they batch.

Where a derivative does not exist the rules return finite values, and say which:

* equal singular values / eigenvalues (within ``max(m, n) * eps * largest``): the
  singular or eigen vectors of that group are not differentiable (they may rotate
  freely inside the group's subspace).  The rules leave out the within-group rotation
  (as if ``1 / (s_i - s_j)`` were 0 there), which is exact for functions that do not
  depend on the basis chosen inside a group: symmetric functions of a group's values
  (their sum, norms) and the projector onto a group's whole subspace (``U_g @ U_g.T``);
* zero singular values: the vectors of the zero group (beyond what orthogonality to the
  others fixes) and the singular values themselves (a kink, like ``abs`` at 0) have no
  derivative; the rules drop the terms that divide by them;
* QR of a matrix whose first ``min(m, n)`` columns are linearly dependent (a zero on R's
  diagonal): ``Q`` is not determined by ``a`` there.  First derivatives on plain arrays
  raise ``LinAlgError`` saying so; inside jit/vmap/higher order the solve with ``R`` raises
  at an exact zero (and near one the derivative is as large as it truly is);
* QR where one of LAPACK's Householder reflectors is the identity (a column already zero
  below the diagonal when its turn comes, e.g. any upper-triangular one; complex: with a
  real diagonal entry too), or where a column's diagonal entry is zero with nonzero entries
  below (e.g. ``[[0, 1], [1, 1]]``): LAPACK's Q and R jump there (a sign flips).  Q1 and R
  get the derivative of the branch with those signs held fixed: right for functions of
  them the flips leave alone (least-squares solutions, projectors), one-sided for Q1 and R
  themselves.  The extra columns of a complete QR have no such branch: first derivatives
  on known values raise ``LinAlgError`` there (not under jit/vmap).

Complex matrices follow JAX's and PyTorch's conventions: the rules are the real ones with
transposes replaced by conjugate transposes, and each VJP is the transpose of its JVP under
the real pairing ``Re sum(a * b)`` (JAX's; computed as ``conj(L^H(conj(g)))`` with ``L^H``
the Hermitian adjoint).  Complex singular and eigen vectors are determined only up to a
phase each (``u_i -> u_i e^{i phi}``, for svd with ``v_i`` turning alike): the derivatives
are those of the gauge with ``Im(u_i^H du_i) = 0`` (eigh, eig; svd splits the phase
equally between ``u_i`` and ``v_i``), so only functions that do not depend on the phases
(``|v|``, ``v_i v_i^H``, ``u_i v_i^H``, the eigenvalues) have well-defined derivatives,
as PyTorch documents; as PyTorch's, first-order VJPs on plain arrays refuse a cotangent
that turns the phases (``_check_phase_free``).  QR's phases are fixed by R's real diagonal, so it has none.
"""
import numpy as np

from ..core import Primitive, ShapedArray, reads_inputs_and_output
from .elementwise import abs as _abs, conj, greater, real, where
from .indexing import index
from .linalg import matmul, solve, swap
from . import qr_complement
from .reductions import reduce_max
from .structural import (concatenate, convert_element_type, moveaxis, reduce_sum, reshape,
                         stop_gradient)


# --- helpers ------------------------------------------------------------------------------

def _float_dtype(dtype):
    return np.result_type(dtype, np.float16)


def _real_dtype(dtype):
    """float32 for float32 and complex64, float64 for float64 and complex128."""
    return np.finfo(_float_dtype(dtype)).dtype


def _is_complex(x):
    return np.dtype(x.dtype).kind == "c"


def _cj(x):
    """The complex conjugate (``x`` itself for real values: nothing recorded)."""
    return conj(x) if _is_complex(x) else x


def _re(x):
    return real(x) if _is_complex(x) else x


def _adj(x):
    """The conjugate transpose of the last two axes (the transpose for real values)."""
    return _cj(swap(x))


def _eye(n, dtype):
    return np.eye(n, dtype=dtype)


def _diag_part(x):
    """``x[..., i, i]`` as a (..., k) array."""
    return reduce_sum(x * _eye(x.shape[-1], x.dtype), (x.ndim - 1,))


def _diag_embed(d):
    """(..., k) -> (..., k, k) with ``d`` on the diagonal."""
    return reshape(d, d.shape + (1,)) * _eye(d.shape[-1], d.dtype)


def _as_row(s):
    """(..., k) -> (..., 1, k): ``s[j]`` along columns (scales the columns of a matrix)."""
    return reshape(s, s.shape[:-1] + (1, s.shape[-1]))


def _as_col(s):
    return reshape(s, s.shape + (1,))


def _tolerance(values, size):
    """``size * eps * max|values|`` per matrix, shaped (..., 1, 1): below it two values
    count as equal (LAPACK returns repeated values only up to rounding)."""
    big = reduce_max(_abs(stop_gradient(values)), (values.ndim - 1,), keepdims=True)
    return _as_row(big * (size * np.finfo(values.dtype).eps))


def _safe_reciprocal(d, tol):
    """``1 / d`` where ``|d| > tol``, else 0 (a double where: no inf in any derivative)."""
    keep = greater(_abs(d), tol)
    return where(keep, 1.0 / where(keep, d, np.ones((), d.dtype)), np.zeros((), d.dtype))


def _cols(x, start, stop):
    return index(x, (Ellipsis, slice(None), slice(start, stop)))


def _rows(x, start, stop):
    return index(x, (Ellipsis, slice(start, stop), slice(None)))


def _stacked(fn, n_out):
    def batch(args, dims, **params):
        return fn(moveaxis(args[0], dims[0], 0), **params), (0,) * n_out
    return batch


def _complement_tangent(q1, dq1, q2):
    """Tangent of the columns ``q2`` completing the orthonormal ``q1`` (a basis of the rest,
    not determined by ``a``): the one that does not rotate inside their span,
    ``q2^H @ dq2 = 0``, and keeps ``[q1 q2]`` orthogonal."""
    return -matmul(q1, matmul(_adj(dq1), q2))


def _complement_cotangent(q1, g2, q2):
    """The Hermitian adjoint of :func:`_complement_tangent` in ``dq1``."""
    return -matmul(q2, matmul(_adj(g2), q1))


def _check_phase_free(name, v, gv, vh=None, gvh=None):
    """First order on plain arrays, as PyTorch: refuse, saying why, a loss that depends
    on the phases of complex vectors (``v_i -> v_i e^{i phi}``, and for svd ``vh``'s rows
    ``e^{-i phi}``), which the matrix does not determine: its derivative along a phase,
    ``-Im(v_i^T g_i) + Im(vh_i g_vh_i)``, must be 0."""
    pairs = [(x, g, sign) for x, g, sign in ((v, gv, -1.0), (vh, gvh, 1.0)) if g is not None]
    if not pairs or not _is_complex(v) or not all(
            type(x) is np.ndarray and type(g) is np.ndarray for x, g, _ in pairs):
        return
    axes = {-1.0: -2, 1.0: -1}  # v's columns, vh's rows
    turn = sum(sign * np.imag(np.sum(x * g, axis=axes[sign])) for x, g, sign in pairs)
    size = sum(np.sqrt(np.sum(np.abs(g) ** 2, axis=axes[sign])) for _, g, sign in pairs)
    tol = 1e-6 if np.finfo(v.dtype).eps < 1e-10 else 1e-2  # (complex64: PyTorch's 1e-2)
    if np.any(np.abs(turn) > tol * size):
        what = "singular" if name == "svd" else "eigen"
        raise ValueError(
            f"{name}: the function differentiated depends on the phases of the complex "
            f"{what} vectors (v_i -> v_i e^(i phi)), which the matrix does not determine, "
            f"so it has no derivative. Differentiate a quantity that does not depend on "
            f"them: abs(v), v_i v_i^H{', u_i vh_i, U diag(s) Vh' if name == 'svd' else ''}"
            f" or the {what} values (as PyTorch requires).")


def _matrix_abstract(a):
    if a.ndim < 2:
        raise ValueError(f"expected matrices with shape (..., m, n), got shape {a.shape}")
    return a.shape[:-2], a.shape[-2], a.shape[-1], _float_dtype(a.dtype)


# --- svd ----------------------------------------------------------------------------------

def _svd_abstract(a, *, full_matrices):
    batch, m, n, dtype = _matrix_abstract(a)
    k = min(m, n)
    ku, kv = (m, n) if full_matrices else (k, k)
    return (ShapedArray(batch + (m, ku), dtype), ShapedArray(batch + (k,), _real_dtype(dtype)),
            ShapedArray(batch + (kv, n), dtype))


def _svd_impl(a, *, full_matrices):
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return u, s, vh


def _svd_parts(a, u, s, vh):
    """The pieces both rules use: the reduced factors and the reciprocals that stand for
    ``1/(s_j - s_i)``, ``1/(s_j + s_i)`` and ``1/s`` (0 where they do not exist)."""
    m, n = a.shape[-2:]
    k = min(m, n)
    u1, vh1 = _cols(u, 0, k), _rows(vh, 0, k)
    tol = _tolerance(s, max(m, n))
    sj, si = _as_row(s), _as_col(s)
    return (u1, _adj(vh1), _safe_reciprocal(sj - si, tol), _safe_reciprocal(sj + si, tol),
            _safe_reciprocal(_as_row(s), tol))


def _svd_jvp(primals, tangents, *, full_matrices):
    a, = primals
    da, = tangents
    u, s, vh = svd(a, full_matrices)
    m, n = a.shape[-2:]
    k = min(m, n)
    if k == 0:
        return (u, s, vh), (u * 0.0, s * 0.0, vh * 0.0)
    u1, v1, f_minus, f_plus, s_inv = _svd_parts(a, u, s, vh)
    dp = matmul(_adj(u1), matmul(da, v1))
    ds = _re(_diag_part(dp))
    # (complex: the diagonal of the skew part, i Im(dp_ii), is the phase shared by u_i
    # and v_i; f_plus = 1/(2 s_i) there splits it equally between them)
    sym, skew = (dp + _adj(dp)) * 0.5, (dp - _adj(dp)) * 0.5
    du = matmul(u1, sym * f_minus + skew * f_plus)
    dv = matmul(v1, sym * f_minus - skew * f_plus)
    if m > k:  # the part of dA's columns outside the range of U
        dav = matmul(da, v1)
        du = du + (dav - matmul(u1, matmul(_adj(u1), dav))) * s_inv
    if n > k:
        dau = matmul(_adj(da), u1)
        dv = dv + (dau - matmul(v1, matmul(_adj(v1), dau))) * s_inv
    if full_matrices and m > k:
        du = concatenate([du, _complement_tangent(u1, du, _cols(u, k, m))], u.ndim - 1)
    if full_matrices and n > k:
        v2 = _adj(_rows(vh, k, n))
        dv = concatenate([dv, _complement_tangent(v1, dv, v2)], dv.ndim - 1)
    return (u, s, vh), (du, ds, _adj(dv))


def _svd_vjp(needs, gs, outs, a, *, full_matrices):
    # the Hermitian adjoint of the JVP at the conjugated cotangents, conjugated (JAX's)
    u, s, vh = outs
    gu, gs_, gvh = gs
    m, n = a.shape[-2:]
    k = min(m, n)
    if k == 0:
        return (a * 0.0,)
    if gu is not None or gvh is not None:
        _check_phase_free("svd", _cols(u, 0, k), None if gu is None else _cols(gu, 0, k),
                          _rows(vh, 0, k), None if gvh is None else _rows(gvh, 0, k))
    u1, v1, f_minus, f_plus, s_inv = _svd_parts(a, u, s, vh)
    gu = None if gu is None else _cj(gu)
    gv = None if gvh is None else swap(gvh)  # (the adjoint of dvh = dv^H, conjugated)
    if gu is not None and full_matrices and m > k:
        gu = _cols(gu, 0, k) + _complement_cotangent(u1, _cols(gu, k, m), _cols(u, k, m))
    if gv is not None and full_matrices and n > k:
        v2 = _adj(_rows(vh, k, n))
        gv = _cols(gv, 0, k) + _complement_cotangent(v1, _cols(gv, k, n), v2)
    ga = 0.0
    g_dp = 0.0 if gs_ is None else _diag_embed(convert_element_type(gs_, a.dtype))
    g_ou = 0.0 if gu is None else matmul(_adj(u1), gu)
    g_ov = 0.0 if gv is None else matmul(_adj(v1), gv)
    if gu is not None or gv is not None:
        g_sym = (g_ou + g_ov) * f_minus
        g_skew = (g_ou - g_ov) * f_plus
        g_dp = g_dp + (g_sym + _adj(g_sym)) * 0.5 + (g_skew - _adj(g_skew)) * 0.5
    if gu is not None and m > k:
        ga = ga + matmul((gu - matmul(u1, g_ou)) * s_inv, _adj(v1))
    if gv is not None and n > k:
        ga = ga + matmul(u1, _adj((gv - matmul(v1, g_ov)) * s_inv))
    if not isinstance(g_dp, float):
        ga = ga + matmul(u1, matmul(g_dp, _adj(v1)))
    return (_cj(ga) if not isinstance(ga, float) else a * 0.0,)


svd_p = Primitive("svd", _svd_impl, abstract_eval=_svd_abstract, jvp=_svd_jvp, vjp=_svd_vjp,
                  multiple_results=True, vjp_reads=reads_inputs_and_output,
                  grad_fn_name="LinalgSvdBackward0")


def svd(a, full_matrices=False):
    """``(u, s, vh)`` with ``a = u @ diag(s) @ vh`` (NumPy's, stacks too)."""
    return tuple(svd_p.bind(a, full_matrices=bool(full_matrices)))


svd_p.batch = _stacked(svd, 3)


def _svdvals_jvp(primals, tangents):
    a, = primals
    u, _, vh = svd(a)
    dp = reduce_sum(_cj(u) * matmul(tangents[0], _adj(vh)), (a.ndim - 2,))
    return svdvals(a), _re(dp)


def _svdvals_vjp(needs, g, out, a):
    u, _, vh = svd(a)
    return (_cj(matmul(u * _as_row(convert_element_type(g, a.dtype)), vh)),)


svdvals_p = Primitive(
    "svdvals", lambda a: np.linalg.svd(a, compute_uv=False), jvp=_svdvals_jvp,
    vjp=_svdvals_vjp, vjp_reads=reads_inputs_and_output,
    abstract_eval=lambda a: ShapedArray(a.shape[:-2] + (min(a.shape[-2:]),),
                                        _real_dtype(_matrix_abstract(a)[3])))


def svdvals(a):
    """Singular values, largest first: ``ds = Re diag(u^H @ da @ v)``."""
    return svdvals_p.bind(a)


svdvals_p.batch = lambda args, dims: (svdvals(moveaxis(args[0], dims[0], 0)), 0)


# --- eigh ---------------------------------------------------------------------------------

def _triangle_masks(n, lower, dtype):
    full = np.tril(np.ones((n, n), dtype)) if lower else np.triu(np.ones((n, n), dtype))
    return full, full - np.eye(n, dtype=dtype)


def _read_triangle(da, lower):
    """The tangent of the Hermitian matrix LAPACK reads: one strict triangle of ``a``
    mirrored (conjugated), and the real part of the diagonal (LAPACK ignores its
    imaginary part)."""
    full, strict = _triangle_masks(da.shape[-1], lower, da.dtype)
    if not _is_complex(da):
        return da * full + swap(da * strict)
    diag = convert_element_type(real(da), da.dtype) * _eye(da.shape[-1], da.dtype)
    return da * strict + diag + _adj(da * strict)


def _read_triangle_t(g, lower):
    """The transpose of :func:`_read_triangle` (the real pairing)."""
    full, strict = _triangle_masks(g.shape[-1], lower, g.dtype)
    if not _is_complex(g):
        return g * full + swap(g) * strict
    diag = convert_element_type(real(g), g.dtype) * _eye(g.shape[-1], g.dtype)
    return g * strict + diag + _adj(g) * strict


def _eigh_abstract(a, *, lower):
    batch, m, n, dtype = _matrix_abstract(a)
    if m != n:
        raise np.linalg.LinAlgError(f"expected square matrices (..., n, n), got shape "
                                    f"{a.shape}")
    return ShapedArray(batch + (n,), _real_dtype(dtype)), ShapedArray(a.shape, dtype)


def _eigh_impl(a, *, lower):
    w, v = np.linalg.eigh(a, UPLO="L" if lower else "U")
    return w, v


def _eigh_jvp(primals, tangents, *, lower):
    a, = primals
    w, v = eigh(a, lower)
    if a.shape[-1] == 0:
        return (w, v), (w * 0.0, v * 0.0)
    dp = matmul(_adj(v), matmul(_read_triangle(tangents[0], lower), v))
    f = _safe_reciprocal(_as_row(w) - _as_col(w), _tolerance(w, a.shape[-1]))
    return (w, v), (_re(_diag_part(dp)), matmul(v, dp * f))


def _eigh_vjp(needs, gs, outs, a, *, lower):
    # the Hermitian adjoint of the JVP at the conjugated cotangents, conjugated (JAX's)
    w, v = outs
    gw, gv = gs
    if a.shape[-1] == 0:
        return (a * 0.0,)
    g_dp = 0.0 if gw is None else _diag_embed(convert_element_type(gw, a.dtype))
    if gv is not None:
        _check_phase_free("eigh", v, gv)
        f = _safe_reciprocal(_as_row(w) - _as_col(w), _tolerance(w, a.shape[-1]))
        g_dp = g_dp + matmul(_adj(v), _cj(gv)) * f
    return (_read_triangle_t(_cj(matmul(v, matmul(g_dp, _adj(v)))), lower),)


eigh_p = Primitive("eigh", _eigh_impl, abstract_eval=_eigh_abstract, jvp=_eigh_jvp,
                   vjp=_eigh_vjp, multiple_results=True, vjp_reads=reads_inputs_and_output,
                   grad_fn_name="LinalgEighBackward0")


def eigh(a, lower=True):
    """``(w, v)`` of a Hermitian (real: symmetric) matrix whose ``lower`` (else upper)
    triangle is read."""
    return tuple(eigh_p.bind(a, lower=bool(lower)))


eigh_p.batch = _stacked(eigh, 2)


def _eigvalsh_jvp(primals, tangents, *, lower):
    a, = primals
    _, v = eigh(a, lower)
    dp = matmul(_adj(v), matmul(_read_triangle(tangents[0], lower), v))
    return eigvalsh(a, lower), _re(_diag_part(dp))


def _eigvalsh_vjp(needs, g, out, a, *, lower):
    _, v = eigh(a, lower)
    g = convert_element_type(g, a.dtype)
    return (_read_triangle_t(_cj(matmul(v * _as_row(g), _adj(v))), lower),)


eigvalsh_p = Primitive(
    "eigvalsh", lambda a, *, lower: np.linalg.eigvalsh(a, UPLO="L" if lower else "U"),
    abstract_eval=lambda a, *, lower: _eigh_abstract(a, lower=lower)[0],
    jvp=_eigvalsh_jvp, vjp=_eigvalsh_vjp, vjp_reads=reads_inputs_and_output)


def eigvalsh(a, lower=True):
    """Eigenvalues (ascending) of a symmetric matrix read from one triangle."""
    return eigvalsh_p.bind(a, lower=bool(lower))


eigvalsh_p.batch = lambda args, dims, *, lower: (
    eigvalsh(moveaxis(args[0], dims[0], 0), lower), 0)


# --- qr -----------------------------------------------------------------------------------

def _qr_abstract(a, *, complete):
    batch, m, n, dtype = _matrix_abstract(a)
    kq = m if complete else min(m, n)
    return ShapedArray(batch + (m, kq), dtype), ShapedArray(batch + (kq, n), dtype)


def _qr_impl(a, *, complete):
    q, r = np.linalg.qr(a, mode="complete" if complete else "reduced")
    return q, r


def _check_independent_columns(r, k):
    """First order on plain arrays: refuse, saying why, where Q is not determined by a."""
    if type(r) is not np.ndarray or k == 0 or r.size == 0:
        return
    lead = r[..., :k, :k]
    d = np.abs(np.diagonal(lead, axis1=-2, axis2=-1))
    tol = max(r.shape[-2:]) * np.finfo(r.dtype).eps * np.max(np.abs(r), axis=(-2, -1))
    if np.any(d <= tol[..., None]):
        raise np.linalg.LinAlgError(
            "qr: the derivative does not exist here: the first min(m, n) columns of the "
            "matrix are linearly dependent (R has a zero on its diagonal), so the columns "
            "of Q there are not determined by the matrix. Differentiate at a matrix of full "
            "column rank (e.g. add a small multiple of the identity), or use svd/pinv.")


# LAPACK's QR jumps where a Householder reflector is the identity (a column already zero
# below the diagonal when its turn comes; complex: with a real diagonal entry too) and where
# a column's diagonal entry (its real part) crosses 0 with entries below it (larfg's sign
# choice, e.g. at [[0, 1], [1, 1]]): the sign of R's row and Q's column flips.  Q1 and R's
# rules give the derivative of the branch with those signs held fixed: that of every
# function of Q1 and R the flips leave alone (Q1 R^-H, Q1 Q1^H, a least-squares solution
# R^-1 Q1^H b; funcgrad's own spline fits solve through this QR at banded matrices, where
# columns are often zero below the diagonal), one-sided for Q1 and R themselves.  The extra
# columns of a complete QR have no such branch (see :mod:`.qr_complement`).


def _strict_lower(x):
    k = x.shape[-1]
    return x * np.tril(np.ones((k, k), x.dtype), -1)


def _imag_diag(x):
    """``i Im(x_ii)`` on the diagonal, 0 elsewhere (0 for real values)."""
    return (x - convert_element_type(real(x), x.dtype)) * _eye(x.shape[-1], x.dtype)


def _qr_square_jvp(q1, r1, dx):
    """dQ1, dR1 of ``x = q1 @ r1`` (q1: m x k orthonormal, r1: k x k upper triangular, its
    diagonal real)."""
    x_rinv = _adj(solve(_adj(r1), _adj(dx)))         # dx @ r1^-1
    qt = matmul(_adj(q1), x_rinv)
    low = _strict_lower(qt)
    omega = low - _adj(low)                          # skew-Hermitian, so Q stays unitary
    if _is_complex(qt):  # ... with the imaginary diagonal that keeps R's diagonal real
        omega = omega + _imag_diag(qt)
    return matmul(q1, omega - qt) + x_rinv, matmul(qt - omega, r1)


def _qr_square_vjp(q1, r1, gq, gr):
    """The Hermitian adjoint of :func:`_qr_square_jvp` (the transpose for real values)."""
    g_x, g_omega, g_qt = 0.0, 0.0, 0.0
    if gq is not None:
        qtg = matmul(_adj(q1), gq)
        g_x, g_omega, g_qt = gq, qtg, -qtg
    if gr is not None:
        grr = matmul(gr, _adj(r1))
        g_qt, g_omega = g_qt + grr, g_omega - grr
    g_qt = g_qt + _strict_lower(g_omega - _adj(g_omega))
    if _is_complex(q1):
        g_qt = g_qt + _imag_diag(g_omega)
    g_x = g_x + matmul(q1, g_qt)
    return _adj(solve(r1, _adj(g_x)))                # g_x @ r1^-H


def _qr_jvp(primals, tangents, *, complete):
    a, = primals
    da, = tangents
    q, r = qr(a, complete)
    m, n = a.shape[-2:]
    k = min(m, n)
    if k == 0:
        return (q, r), (q * 0.0, r * 0.0)
    _check_independent_columns(r, k)
    q1 = _cols(q, 0, k)
    dq, dr = _qr_square_jvp(q1, _cols(_rows(r, 0, k), 0, k), _cols(da, 0, k))
    if n > k:  # a wide matrix: R = [R1, Q^H @ Y] with Y the columns past the m-th
        y, dy = _cols(a, k, n), _cols(da, k, n)
        dr2 = matmul(_adj(dq), y) + matmul(_adj(q1), dy)
        dr = concatenate([dr, dr2], dr.ndim - 1)
    if complete and m > k:  # LAPACK's extra columns (see :mod:`.qr_complement`)
        qr_complement.check_reflectors(a)
        dq = concatenate([dq, qr_complement.complement_tangent(q1, dq)], dq.ndim - 1)
        dr = concatenate([dr, np.zeros(dr.shape[:-2] + (m - k, n), dr.dtype)], dr.ndim - 2)
    return (q, r), (dq, dr)


def _qr_vjp(needs, gs, outs, a, *, complete):
    q, r = outs
    gq, gr = gs
    m, n = a.shape[-2:]
    k = min(m, n)
    if k == 0:
        return (a * 0.0,)
    _check_independent_columns(r, k)
    q1 = _cols(q, 0, k)
    # the Hermitian adjoint of the JVP at the conjugated cotangents, conjugated (JAX's)
    gq = None if gq is None else _cj(gq)
    gr = None if gr is None else _cj(gr)
    if gq is not None and complete and m > k:
        qr_complement.check_reflectors(a)
        gq = _cols(gq, 0, k) + qr_complement.complement_cotangent(q1, _cols(gq, k, m))
    if gr is not None and complete and m > k:
        gr = _rows(gr, 0, k)
    g_y = None
    if gr is not None and n > k:
        gr2, gr = _cols(gr, k, n), _cols(gr, 0, k)
        gq_y = matmul(_cols(a, k, n), _adj(gr2))
        gq = gq_y if gq is None else gq + gq_y
        g_y = matmul(q1, gr2)
    g_x = _qr_square_vjp(q1, _cols(_rows(r, 0, k), 0, k), gq, gr)
    if n > k:
        if g_y is None:
            g_y = np.zeros(g_x.shape[:-1] + (n - k,), g_x.dtype)
        g_x = concatenate([g_x, g_y], g_x.ndim - 1)
    return (_cj(g_x),)


qr_p = Primitive("qr", _qr_impl, abstract_eval=_qr_abstract, jvp=_qr_jvp, vjp=_qr_vjp,
                 multiple_results=True, vjp_reads=reads_inputs_and_output,
                 grad_fn_name="LinalgQrBackward0")


def qr(a, complete=False):
    """``(q, r)`` with ``a = q @ r`` (NumPy's ``mode='reduced'``, or ``'complete'``)."""
    return tuple(qr_p.bind(a, complete=bool(complete)))


qr_p.batch = _stacked(qr, 2)

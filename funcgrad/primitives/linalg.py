"""Matrix functions: ``inv``, ``det``, ``slogdet`` and ``cholesky``, and the namespace of
the linear algebra primitives (the products of :mod:`.products` and the solves of
:mod:`.solves` are importable from here too, as they were before those had modules of
their own).

All accept stacks of matrices (leading axes), as NumPy does, which is also
what their batching rules use.  BLAS/LAPACK stay underneath (NumPy's).
"""
import numpy as np

from ..core import Primitive, ShapedArray, reads_inputs_and_output
from .elementwise import conj, imag, negative, real
from .products import einsum, einsum_p, matmul, matmul_p, swap
from .solves import LU_MIN, _check_square, lu_solve, lu_solve_p, solve, solve_lu_p, solve_p
from .structural import moveaxis, reduce_sum, reshape

__all__ = ["inv", "inv_p", "det", "det_p", "slogdet", "slogdet_p", "cholesky", "cholesky_p",
           # (from .products and .solves)
           "einsum", "einsum_p", "matmul", "matmul_p", "swap", "LU_MIN", "_check_square",
           "lu_solve", "lu_solve_p", "solve", "solve_lu_p", "solve_p"]


# --- matrix functions ---------------------------------------------------------------------

def _stack_batch(fn):
    def batch(args, dims, **params):
        return fn(moveaxis(args[0], dims[0], 0), **params), 0
    return batch


def _square_abstract(x, **_):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise np.linalg.LinAlgError(  # (a ValueError, as NumPy's)
            f"expected square matrices (..., n, n), got shape {x.shape}")
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

"""``funcgrad.numpy.linalg``'s factorizations and what is built on them: svd, svdvals,
eigh, eigvalsh, eig, eigvals, qr, pinv, lstsq, matrix_rank.

Forward values are NumPy's (LAPACK's signs and orderings).  What the derivatives return
where they do not exist (equal singular values or eigenvalues, zero singular values,
rank-deficient QR) is said in :mod:`funcgrad.primitives.decompositions` and in each
docstring below.
"""
from collections import namedtuple
from typing import Any

import numpy as np

from ..core import internal
from ..primitives import decompositions as _dec
from ..primitives import pinv as _pinv
from ..primitives import eig as _eig_prim
from ..primitives import linalg as _la
from ._convert import asarray, concrete_values, is_concrete
from .constructors import astype, stop_gradient
from .indexing import argsort, sort, take_along_axis
from .manipulation import broadcast_to, expand_dims, flip, reshape
from .reductions import max as _max, sum as _sum
from .ufuncs import abs as _abs, abs_square, conj, greater, sign
from ..typing import Array, ArrayLike

SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
LstsqResult = namedtuple("LstsqResult", ["x", "residuals", "rank", "singular_values"])

_NO_VALUE = object()


def _float(a):
    return astype(a, np.float64) if a.dtype.kind in "biu" else a


def _matrices(name, a, square=False):
    """``a`` as a float array of (stacked) matrices, or NumPy's LinAlgError, with the fix."""
    a = _float(asarray(a))
    if a.ndim < 2:
        raise np.linalg.LinAlgError(
            f"{name}: {a.ndim}-dimensional array given. Array must be at least "
            f"two-dimensional: a matrix (..., M, N); reshape a vector with x[None, :] or "
            f"x[:, None].")
    if square and a.shape[-1] != a.shape[-2]:
        raise np.linalg.LinAlgError(
            f"{name}: last 2 dimensions of the array must be square, got shape {a.shape}")
    return a


@internal  # its triangle masks may move to a device
def _mirrored(a, lower=True):
    """The symmetric matrix LAPACK sees when told ``a`` is symmetric: one triangle of
    ``a`` mirrored (so the other triangle gets an exact zero derivative)."""
    return _dec._read_triangle(a, lower)


def svd(a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True,
        hermitian: bool = False) -> SVDResult | Array:
    """Singular value decomposition ``a = U @ diag(S) @ Vh`` (stacks too), NumPy's values.

    Derivatives: ``dS = diag(U.T @ da @ V)``; the singular vectors' derivatives exist where
    the singular values are distinct and nonzero (for a square matrix one zero is fine).
    Where some are equal (within ``max(M, N) * eps * S.max()``), the rotation inside the
    group is left out (finite, and exact for group-invariant functions: the sum of a
    group's values, the projector ``U_g @ U_g.T`` onto its subspace; not for products
    pairing a group's vectors with its individual values, such as ``U @ diag(S) @ Vh``
    itself, which no rule through the vectors gets right there); where some are 0, the
    terms dividing by them are left out.  The columns past ``min(M, N)`` of
    ``full_matrices=True`` (any basis of the rest) get the derivative that does not
    rotate them among themselves.  Sign conventions are LAPACK's, so use functions that
    do not depend on a vector's sign (``U[:, i] ** 2``, ``U @ diag(S) @ Vh``).  Complex
    matrices: ``dS = Re diag(U^H @ da @ V)``; each pair ``u_i, v_i`` is determined only up
    to a common phase ``e^{i phi}``, so only functions that do not depend on it (``abs(U)``,
    ``U[:, i:i+1] * Vh[i:i+1]``, ``U @ diag(S) @ Vh``) have well-defined derivatives, as
    PyTorch documents; the rules split the phase's derivative equally between ``u_i`` and
    ``v_i``.  Gradients of real functions of complex inputs follow JAX's convention.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> a = np.array([[3.0, 0.0], [0.0, -2.0]])
    >>> fnp.linalg.svd(a).S
    array([3., 2.])
    >>> fg.grad(lambda a: fnp.linalg.svd(a).S[1])(a)
    array([[ 0.,  0.],
           [ 0., -1.]])
    """
    a = _matrices("svd", a, square=hermitian)
    if hermitian:
        return _hermitian_svd(a, compute_uv)
    if not compute_uv:
        return _dec.svdvals(a)
    return SVDResult(*_dec.svd(a, full_matrices))


def _hermitian_svd(a, compute_uv):
    """NumPy's route for ``hermitian=True``: the eigenvalues' magnitudes, largest first."""
    if not compute_uv:
        return flip(sort(_abs(_dec.eigvalsh(a)), axis=-1), axis=-1)
    w, u = _dec.eigh(a)
    order = flip(argsort(_abs(w), axis=-1), axis=-1)
    w = take_along_axis(w, order, axis=-1)
    u = take_along_axis(u, broadcast_to(expand_dims(order, -2), u.shape), axis=-1)
    vh = _la.swap(u * expand_dims(sign(w), -2))
    return SVDResult(u, _abs(w), conj(vh) if vh.dtype.kind == "c" else vh)


def svdvals(x: ArrayLike, /) -> Array:
    """Singular values, largest first, of (stacked) matrices: ``svd(x, compute_uv=False)``.

    Derivative ``diag(U.T @ dx @ V)``: exact for a group of equal values taken together
    (e.g. the nuclear norm ``sum(svdvals(x))``); at a zero value (a kink, like ``abs``
    at 0) it is LAPACK's choice of singular vectors' value.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.linalg.svdvals(x)))(np.array([[2.0, 0.0], [0.0, 3.0]]))
    array([[1., 0.],
           [0., 1.]])
    """
    return _dec.svdvals(_matrices("svdvals", x))


def _uplo(name, UPLO):
    if UPLO not in ("L", "U"):
        raise ValueError(f"{name}: UPLO argument must be 'L' or 'U', got {UPLO!r}")
    return UPLO == "L"


def eigh(a: ArrayLike, UPLO: str = "L", *, symmetrize_input: bool = False) -> EighResult:
    """Eigenvalues (ascending) and unit eigenvectors of symmetric (complex: Hermitian)
    matrices, read from the ``UPLO`` triangle (the other triangle, and the imaginary part
    of the diagonal, are ignored as LAPACK ignores them: their derivative is 0).  JAX's
    ``symmetrize_input=True`` (its default; NumPy's behaviour is this one's) reads
    ``(a + a^H) / 2`` instead, so both triangles count.

    ``dw = Re diag(V^H @ da @ V)``, ``dV = V @ (F * (V^H @ da @ V))`` with
    ``F[i, j] = 1 / (w[j] - w[i])`` (a complex eigenvector's phase is not determined: the
    rule keeps ``Im(v_i^H dv_i) = 0``, JAX's and PyTorch's gauge; use functions that do
    not depend on it, such as ``abs(V)`` or ``V @ diag(w) @ V^H``).  For equal eigenvalues (within ``n * eps * |w|.max()``)
    the eigenvectors are not differentiable; ``F`` is 0 inside such a group, which is
    exact for functions that do not depend on the basis inside it (the group's projector
    ``V_g @ V_g.T``, ``sum`` of its eigenvalues) and finite always.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.linalg.eigh(np.array([[2.0, 1.0], [1.0, 2.0]])).eigenvalues
    array([1., 3.])
    >>> fg.grad(lambda a: fnp.linalg.eigh(a).eigenvalues[1])(np.array([[2.0, 1.0], [1.0, 2.0]]))
    array([[0.5, 0. ],
           [1. , 0.5]])
    """
    lower = _uplo("eigh", UPLO)
    a = _matrices("eigh", a, square=True)
    return EighResult(*_dec.eigh(_hermitian_part(a) if symmetrize_input else a, lower))


def _hermitian_part(a):
    t = _la.swap(a)  # (the last two axes)
    return (a + (conj(t) if a.dtype.kind == "c" else t)) / 2


def eigvalsh(a: ArrayLike, UPLO: str = "L", *, symmetrize_input: bool = False) -> Array:
    """Eigenvalues (ascending) of symmetric matrices read from the ``UPLO`` triangle (of
    ``(a + a^H) / 2`` with JAX's ``symmetrize_input=True``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.eigvalsh(np.array([[2.0, 1.0], [1.0, 2.0]]))
    array([1., 3.])
    """
    lower = _uplo("eigvalsh", UPLO)
    a = _matrices("eigvalsh", a, square=True)
    return _dec.eigvalsh(_hermitian_part(a) if symmetrize_input else a, lower)


def _eig(name, a):
    """``(w, v)`` with NumPy's result type: complex for complex ``a`` and for a real ``a``
    with complex eigenvalues (known from its values; under vmap/jit, where they are not
    known, a real ``a`` is taken to have real eigenvalues and raises if it has not)."""
    a = _matrices(name, a, square=True)
    complex_out = a.dtype.kind == "c"
    if not complex_out and is_concrete(a) and a.size:
        complex_out = np.iscomplexobj(np.linalg.eigvals(concrete_values(a, name, "")))
    return _eig_prim.eig(a, complex_out)


def eig(a: ArrayLike) -> EigResult:
    """Eigenvalues and unit eigenvectors of general square matrices (``a @ v = v * w``),
    NumPy's values and result type (complex where some eigenvalue is, or ``a`` is).

    ``dw = diag(V^-1 da V)``, ``dV = V (E * (V^-1 da V))`` with ``E[i, j] = 1 / (w[j] -
    w[i])`` (0 for equal eigenvalues, as in :func:`eigh`), less the part along each ``v_i``
    that would change its norm: PyTorch's and JAX's convention.  A complex eigenvector is
    determined only up to a phase ``v_i e^{i phi}`` (LAPACK makes its largest entry real;
    the derivative keeps ``Im(v_i^H dv_i) = 0`` instead), so only functions that do not
    depend on the phases (the eigenvalues, ``abs(v)``, ``v_i v_i^H``) have well-defined
    derivatives, as PyTorch documents.  Under ``vmap``/``jit`` a real matrix is taken to
    have real eigenvalues (its values are not known when the result type is chosen): pass
    ``a.astype(complex)`` there for complex ones.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> a = np.array([[2.0, 1.0], [0.0, 3.0]])
    >>> fnp.linalg.eig(a).eigenvalues
    array([2., 3.])
    >>> fg.grad(lambda a: fnp.linalg.eig(a).eigenvalues[1])(a)
    array([[0., 0.],
           [1., 1.]])
    >>> rotation = np.array([[0.0, -1.0], [1.0, 0.0]])  # eigenvalues +-i
    >>> fg.grad(lambda a: fnp.sum(fnp.linalg.eigvals(a).imag ** 2))(rotation)
    array([[ 0., -2.],
           [ 2.,  0.]])
    """
    if type(asarray(a)) is np.ndarray:  # no derivative to carry: NumPy's own
        return np.linalg.eig(a)
    return EigResult(*_eig("eig", a))


def eigvals(a: ArrayLike) -> Array:
    """Eigenvalues of general square matrices: :func:`eig`'s (derivatives included).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.eigvals(np.array([[2.0, 1.0], [0.0, 3.0]]))
    array([2., 3.])
    """
    if type(asarray(a)) is np.ndarray:  # no derivative to carry: NumPy's own
        return np.linalg.eigvals(a)
    return _eig("eigvals", a)[0]


def qr(a: ArrayLike, mode: str = "reduced") -> QRResult | Array:
    """QR factorization ``a = Q @ R`` of (stacked) matrices: ``mode`` ``'reduced'``,
    ``'complete'`` or ``'r'`` (R only), NumPy's values.

    Differentiable where the first ``min(M, N)`` columns of ``a`` are linearly independent
    (complex ones too: LAPACK's R has a real diagonal, which fixes Q's phases); where they
    are not (a zero on R's diagonal) Q is not determined by ``a`` and the derivative raises
    ``LinAlgError`` (see :mod:`funcgrad.primitives.decompositions`).  Where a column is
    already zero below the diagonal when LAPACK reduces it (e.g. any real upper-triangular
    ``a``), or its diagonal entry is zero with nonzero entries below (``[[0, 1], [1, 1]]``),
    LAPACK's Q and R jump: a perturbation flips the sign of a row of R and the column of Q.
    There the derivative is that of the branch with those signs held fixed: the true one of
    any function of Q and R the flips leave alone (``solve(r, q.T @ b)``, ``q @ q.T``), the
    one-sided one of Q and R themselves (differentiate at a nearby matrix for those).
    ``mode='complete'`` with M > N: the extra columns of Q are LAPACK's (its Householder
    reflectors' product), a smooth function of ``a`` with its own derivative (see
    :mod:`funcgrad.primitives.qr_complement`), except where a column is already zero below
    the diagonal (there the derivative raises ``LinAlgError``).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> q, r = fnp.linalg.qr(np.array([[3.0, 1.0], [4.0, 2.0]]))
    >>> np.round(r, 6)
    array([[-5. , -2.2],
           [ 0. ,  0.4]])
    >>> fg.grad(lambda a: fnp.linalg.qr(a, mode="r")[0, 0])(np.array([[3.0, 1.0], [4.0, 2.0]]))
    array([[-0.6,  0. ],
           [-0.8,  0. ]])
    """
    if mode not in ("reduced", "complete", "r"):
        if mode == "raw":
            raise NotImplementedError(
                "qr: mode='raw' (LAPACK's Householder reflectors) is not differentiable in "
                "funcgrad; use mode='reduced' or 'complete'")
        raise ValueError(f"qr: unrecognized mode {mode!r}; use 'reduced', 'complete' or 'r'")
    q, r = _dec.qr(_matrices("qr", a), mode == "complete")
    return r if mode == "r" else QRResult(q, r)


def pinv(a: ArrayLike, rcond: ArrayLike | None = None, hermitian: bool = False, *,
         rtol: Any = _NO_VALUE) -> Array:
    """Moore-Penrose pseudo-inverse (NumPy's cutoff: singular values at most
    ``rcond * largest`` count as zero; ``rcond`` defaults to 1e-15, ``rtol=None`` to
    ``max(M, N) * eps``).

    The derivative is exact wherever no singular value crosses the cutoff: Golub and
    Pereyra's where only zeros are dropped, plus the turn of the kept singular vectors
    towards the dropped ones where the cutoff drops nonzero singular values; finite
    everywhere.  (Second derivatives with such a cutoff have svd's limit at repeated
    singular values: the turns inside a group of equal values are left out.)

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.linalg.pinv(np.array([[2.0, 0.0], [0.0, 0.0]]))
    array([[0.5, 0. ],
           [0. , 0. ]])
    >>> fg.grad(lambda a: fnp.linalg.pinv(a)[0, 0])(np.array([[2.0, 0.0], [0.0, 0.0]]))
    array([[-0.25,  0.  ],
           [ 0.  ,  0.  ]])
    """
    a = _matrices("pinv", a, square=hermitian)
    if rcond is None:
        rcond = 1e-15 if rtol is _NO_VALUE else (
            max(a.shape[-2:]) * np.finfo(a.dtype).eps if rtol is None else rtol)
    elif rtol is not _NO_VALUE:
        raise ValueError("pinv: `rtol` and `rcond` can't be both set.")
    if np.ndim(rcond) != 0:
        raise NotImplementedError("pinv: one rcond per matrix is not supported; pass a "
                                  "single number (or call pinv on each matrix)")
    return _pinv.pinv(_mirrored(a) if hermitian else a, float(rcond), bool(hermitian))


def lstsq(a: ArrayLike, b: ArrayLike, rcond: ArrayLike | None = None) -> LstsqResult:
    """Least-squares solution of ``a @ x = b`` (NumPy's result: ``x``, residuals, rank,
    singular values).  ``x = pinv(a) @ b`` with lstsq's cutoff (``rcond`` defaults to
    ``eps * max(M, N)``), so its derivative is the pseudo-inverse's; the residuals are
    differentiable too, the rank is an integer.

    NumPy's residuals are empty unless ``M > N`` and ``a`` has full rank.  Under ``jit`` and
    ``vmap`` the rank is not known when the result's shape is chosen, so for ``M > N``
    they are the squared residual norms whatever the rank (as ``jax.numpy.linalg.lstsq``).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> a, b = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]), np.array([1.0, 2.0, 4.0])
    >>> np.round(fnp.linalg.lstsq(a, b).x, 6)
    array([0.833333, 1.5     ])
    """
    a, b = _float(asarray(a)), _float(asarray(b))
    if a.ndim != 2 or b.ndim not in (1, 2):
        raise np.linalg.LinAlgError(
            f"lstsq: a must be two-dimensional and b one- or two-dimensional, got shapes "
            f"{a.shape} and {b.shape} (for stacks of matrices use pinv(a) @ b)")
    m, n = a.shape
    if b.shape[0] != m:
        raise np.linalg.LinAlgError(f"lstsq: incompatible dimensions: a has {m} rows, b has "
                                    f"{b.shape[0]}")
    dtype = np.result_type(a.dtype, b.dtype)  # (NumPy solves, singular values included, in
    a, b = astype(a, dtype), astype(b, dtype)  # the common dtype: float32 a, float64 b: f64)
    if rcond is None:
        rcond = np.finfo(dtype).eps * max(m, n)
    s = _dec.svdvals(a)
    rank = _count_above(stop_gradient(s), rcond)
    x = _la.matmul(_pinv.pinv(a, float(rcond)), b)
    full_rank = int(rank) == n if is_concrete(rank) else True  # (see the docstring)
    if full_rank and m > n:
        # (|r|^2: real, and right, for complex systems)
        residuals = _sum(abs_square(b - _la.matmul(a, x)), axis=0)
        residuals = reshape(residuals, (1,)) if b.ndim == 1 else residuals
    else:
        residuals = np.array([], np.finfo(dtype).dtype)
    # (int32: NumPy's type for the rank)
    rank = np.int32(rank) if is_concrete(rank) else astype(rank, np.int32)
    return LstsqResult(x, residuals, rank, s)


def _count_above(s, rtol, tol=None):
    """The number of singular values above ``tol`` (default ``rtol * largest``)."""
    if tol is None:
        big = _max(s, axis=-1, keepdims=True) if s.shape[-1] else 0.0
        tol = big * rtol
    return _sum(astype(greater(s, tol), np.intp), axis=-1)


def matrix_rank(A: ArrayLike, tol: ArrayLike | None = None, hermitian: bool = False, *,
                rtol: ArrayLike | None = None) -> Array:
    """The number of singular values above ``tol`` (default ``S.max() * max(M, N) * eps``);
    an integer, with no derivative.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> int(fnp.linalg.matrix_rank(np.array([[1.0, 2.0], [2.0, 4.0]])))
    1
    """
    if rtol is not None and tol is not None:
        raise ValueError("matrix_rank: `tol` and `rtol` can't be both set.")
    A = _float(asarray(A))
    if A.ndim < 2:
        return astype(greater(_sum(_abs(stop_gradient(A))), 0), np.intp) \
            if type(A) is not np.ndarray else int(not np.all(A == 0))
    S = stop_gradient(svd(A, compute_uv=False, hermitian=hermitian))
    if tol is not None:
        return _count_above(S, None, expand_dims(asarray(tol), -1))
    if rtol is None:
        rtol = max(A.shape[-2:]) * np.finfo(S.dtype).eps
    else:
        rtol = expand_dims(asarray(rtol), -1)
    return _count_above(S, rtol)


__all__ = ["svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals", "qr", "pinv", "lstsq",
           "matrix_rank", "SVDResult", "EighResult", "EigResult", "QRResult"]

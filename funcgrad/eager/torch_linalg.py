"""PyTorch's ``torch.linalg`` on Tensors, as ``fg.linalg``: PyTorch's signatures
(``dim=``, ``keepdim=``, ``ord=``, ``left=``, ``upper=``, ``UPLO=``), Tensors out, with
their gradients.  The computations are funcgrad.numpy's ``linalg`` (NumPy's names and
``axis=``), which a Tensor goes through as through any NumPy function; the functions
here only translate PyTorch's arguments and results (named tuples with PyTorch's field
names: ``Q, R = fg.linalg.qr(A)``, ``fg.linalg.eigh(A).eigenvalues``).

>>> import funcgrad as fg
>>> A = fg.tensor([[3.0, 1.0], [1.0, 2.0]], requires_grad=True)
>>> fg.linalg.norm(A, dim=1)
tensor([3.1622777, 2.236068 ], grad_fn=<LinalgVectorNormBackward0>)
>>> fg.linalg.solve(A, fg.tensor([9.0, 8.0]))
tensor([2., 3.], grad_fn=<...>)
>>> fg.linalg.det(A).backward(); A.grad
tensor([[ 2., -1.],
        [-1.,  3.]])
"""
from collections import namedtuple
from typing import Any, Sequence

import numpy as np

from .. import numpy as fnp
from ._torch_linalg_args import _as_tensor, _info, _square, _tensor
from .tensor import Tensor
from .torch_lu import lu, lu_factor, lu_factor_ex, lu_solve

__all__ = ["norm", "vector_norm", "matrix_norm", "det", "slogdet", "inv", "inv_ex", "pinv",
           "solve", "solve_ex", "solve_triangular", "cholesky", "cholesky_ex", "qr", "eigh",
           "eigvalsh", "eig", "eigvals", "svd", "svdvals", "matrix_power", "matrix_rank",
           "matrix_exp", "lstsq", "cross", "multi_dot", "vecdot", "matmul", "diagonal", "cond",
           "tensorinv", "tensorsolve", "vander", "lu", "lu_factor", "lu_factor_ex", "lu_solve"]

# PyTorch's named tuples (torch.return_types.linalg_*), by their fields
SlogdetResult = namedtuple("SlogdetResult", "sign logabsdet")
QRResult = namedtuple("QRResult", "Q R")
EighResult = namedtuple("EighResult", "eigenvalues eigenvectors")
EigResult = namedtuple("EigResult", "eigenvalues eigenvectors")
SVDResult = namedtuple("SVDResult", "U S Vh")
LstsqResult = namedtuple("LstsqResult", "solution residuals rank singular_values")
InvExResult = namedtuple("InvExResult", "inverse info")
CholeskyExResult = namedtuple("CholeskyExResult", "L info")
SolveExResult = namedtuple("SolveExResult", "result info")


def vector_norm(x: Any, ord: Any = 2, dim: int | Sequence[int] | None = None,  # noqa: A002
                keepdim: bool = False, *, dtype: Any = None) -> Any:
    """The ``ord``-norm of ``x`` as a vector over ``dim`` (all elements by default):
    ``ord`` a number, ``inf``, ``-inf`` or ``0`` (the count of nonzeros).

    >>> import funcgrad as fg
    >>> fg.linalg.vector_norm(fg.tensor([[3.0, 4.0], [6.0, 8.0]]), dim=-1)
    tensor([ 5., 10.])
    """
    x = _tensor("vector_norm", x)
    if dtype is not None:
        x = x.to(dtype)
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.vector_norm: ord must be a number, got {ord!r}")
    return x.norm(p=ord, dim=dim, keepdim=keepdim)


def matrix_norm(A: Any, ord: Any = "fro", dim: tuple[int, int] = (-2, -1),  # noqa: A002
                keepdim: bool = False, *, dtype: Any = None) -> Any:
    """The ``ord``-norm of the matrices of ``A`` over ``dim``: ``'fro'``, ``'nuc'``,
    ``inf``, ``-inf``, ``1``, ``-1``, ``2``, ``-2``.

    >>> import funcgrad as fg
    >>> fg.linalg.matrix_norm(fg.tensor([[1.0, -2.0], [3.0, 4.0]]), ord=1)
    tensor(6.)
    """
    A = _tensor("matrix_norm", A)
    if dtype is not None:
        A = A.to(dtype)
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if ord == "fro":
        return A.norm(p="fro", dim=tuple(dim), keepdim=keepdim)
    return fnp.linalg.norm(A, ord=ord, axis=tuple(dim), keepdims=keepdim)


def norm(A: Any, ord: Any = None, dim: int | Sequence[int] | None = None,  # noqa: A002
         keepdim: bool = False, *, dtype: Any = None) -> Any:
    """A vector norm (``dim`` an int, or ``A`` flattened when ``ord`` and ``dim`` are
    None) or a matrix norm (``dim`` two axes, or ``A`` 2-D with an ``ord``).

    >>> import funcgrad as fg
    >>> A = fg.tensor([[1.0, 2.0], [2.0, 1.0]])
    >>> fg.linalg.norm(A), fg.linalg.norm(A, ord=2)
    (tensor(3.1622777), tensor(3.))
    """
    A = _tensor("norm", A)
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None and len(dim) == 2 or dim is None and ord is not None and A.ndim == 2:
        return matrix_norm(A, "fro" if ord is None else ord,
                           (-2, -1) if dim is None else (dim[0], dim[1]), keepdim, dtype=dtype)
    if dim is None and ord is not None and A.ndim != 1:
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must "
                           f"be 1D or 2D. Got {A.ndim}D.")
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def det(A: Any) -> Any:
    """The determinants of the matrices of ``A``.

    >>> import funcgrad as fg
    >>> fg.linalg.det(fg.tensor([[2.0, 1.0], [1.0, 3.0]]))
    tensor(5.)
    """
    return _square("det", A).det()


def slogdet(A: Any) -> Any:
    """``(sign, logabsdet)`` of the determinants of the matrices of ``A``.

    >>> import funcgrad as fg
    >>> fg.linalg.slogdet(fg.tensor([[0.0, 2.0], [1.0, 0.0]]))
    SlogdetResult(sign=tensor(-1.), logabsdet=tensor(0.6931472))
    """
    return SlogdetResult(*_square("slogdet", A).slogdet())


def inv(A: Any) -> Any:
    """The inverses of the matrices of ``A``.

    >>> import funcgrad as fg
    >>> fg.linalg.inv(fg.tensor([[2.0, 0.0], [0.0, 4.0]]))
    tensor([[0.5 , 0.  ],
            [0.  , 0.25]])
    """
    return _square("inv", A).inverse()


def inv_ex(A: Any, *, check_errors: bool = False) -> Any:
    """``(inverse, info)``: :func:`inv` and zeros (funcgrad raises on a singular matrix).

    >>> import funcgrad as fg
    >>> fg.linalg.inv_ex(fg.eye(2)).info
    tensor(0, dtype=int32)
    """
    return InvExResult(inv(A), _info(A))


def pinv(A: Any, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> Any:
    """The pseudo-inverses of the matrices of ``A`` (singular values under
    ``max(atol, rtol * largest)`` are taken as zero).

    >>> import funcgrad as fg
    >>> fg.linalg.pinv(fg.tensor([[1.0, 0.0], [0.0, 0.0]]))
    tensor([[1., 0.],
            [0., 0.]])
    """
    A = _tensor("pinv", A)
    if hermitian:
        # the value from A's lower triangle, PyTorch's gradient: that of the pinv of any
        # matrix (not restricted to Hermitian changes)
        A = _square("pinv", A)
        read = A.tril()
        value = pinv(read + read.mH - read.diagonal(0, -2, -1).real.diag_embed(), atol=atol,
                     rtol=rtol)
        if not A.requires_grad:
            return value
        general = pinv(A, atol=atol, rtol=rtol)
        return general + (value - general).detach()
    if atol is None and rtol is None:
        return fnp.linalg.pinv(A)
    s = np.linalg.svd(np.asarray(A.detach()), compute_uv=False)
    top = s[..., :1] if s.shape[-1] else np.zeros(s.shape[:-1] + (1,))
    cut = np.maximum(0.0 if atol is None else np.asarray(atol)[..., None],
                     (0.0 if rtol is None else np.asarray(rtol)[..., None]) * top)
    # NumPy's rcond is relative to the largest singular value
    rcond = np.where(top > 0, cut / np.where(top > 0, top, 1.0), 0.0)[..., 0]
    return fnp.linalg.pinv(A, rcond=rcond)


def _vector_rhs(A, B):
    """Whether ``B`` is a (batch of) vector(s) for ``A``, by PyTorch's rule."""
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and B.shape == A.shape[:-1])


def solve(A: Any, B: Any, *, left: bool = True) -> Any:
    """``X`` with ``A @ X = B`` (``left=False``: ``X @ A = B``); ``B`` a vector or matrices.

    >>> import funcgrad as fg
    >>> fg.linalg.solve(fg.tensor([[2.0, 0.0], [0.0, 4.0]]), fg.tensor([2.0, 2.0]))
    tensor([1. , 0.5])
    """
    A = _square("solve", A)
    B = _as_tensor(B)
    if not left:
        return solve(A.mT, B.mT).mT
    if _vector_rhs(A, B):
        return fnp.linalg.solve(A, B[..., None])[..., 0]
    return fnp.linalg.solve(A, B)


def solve_ex(A: Any, B: Any, *, left: bool = True, check_errors: bool = False) -> Any:
    """``(result, info)``: :func:`solve` and zeros (funcgrad raises on a singular matrix).

    >>> import funcgrad as fg
    >>> fg.linalg.solve_ex(fg.eye(2), fg.tensor([1.0, 2.0])).result
    tensor([1., 2.])
    """
    return SolveExResult(solve(A, B, left=left), _info(A))


def solve_triangular(A: Any, B: Any, *, upper: bool, left: bool = True,
                     unitriangular: bool = False) -> Any:
    """``X`` with ``A @ X = B`` (``left=False``: ``X @ A = B``) reading only ``A``'s upper
    or lower triangle (and ones on its diagonal with ``unitriangular``): the other
    elements get a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> A = fg.tensor([[2.0, 7.0], [1.0, 4.0]])
    >>> fg.linalg.solve_triangular(A, fg.tensor([[2.0], [6.0]]), upper=False)
    tensor([[1.  ],
            [1.25]])
    """
    A = _square("solve_triangular", A)
    B = _as_tensor(B)
    if B.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least "
                           "2 dimensions.")
    T = A.triu(1 if unitriangular else 0) if upper else A.tril(-1 if unitriangular else 0)
    if unitriangular:
        T = T + fnp.eye(A.shape[-1], dtype=A.dtype)
    return solve(T, B, left=left)


def cholesky(A: Any, *, upper: bool = False) -> Any:
    """The Cholesky factors ``L`` (``A = L @ L.mH``) of the matrices of ``A``; ``upper``:
    ``L.mH``.

    >>> import funcgrad as fg
    >>> fg.linalg.cholesky(fg.tensor([[4.0, 2.0], [2.0, 2.0]]))
    tensor([[2., 0.],
            [1., 1.]])
    """
    return _square("cholesky", A).cholesky(upper=upper)


def cholesky_ex(A: Any, *, upper: bool = False, check_errors: bool = False) -> Any:
    """``(L, info)``: :func:`cholesky` and zeros (funcgrad raises where it fails).

    >>> import funcgrad as fg
    >>> fg.linalg.cholesky_ex(fg.eye(2)).L
    tensor([[1., 0.],
            [0., 1.]])
    """
    return CholeskyExResult(cholesky(A, upper=upper), _info(A))


def qr(A: Any, mode: str = "reduced") -> Any:
    """``(Q, R)`` with ``A = Q @ R``; ``mode`` ``'reduced'``, ``'complete'`` or ``'r'``
    (``Q`` empty).

    >>> import funcgrad as fg
    >>> Q, R = fg.linalg.qr(fg.tensor([[3.0, 1.0], [4.0, 2.0]]))
    >>> (Q @ R).allclose(fg.tensor([[3.0, 1.0], [4.0, 2.0]]))
    True
    """
    A = _tensor("qr", A)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           f"'reduced' (default), 'r', or 'complete'")
    if mode == "r":
        return QRResult(Tensor(np.zeros((0,), A.dtype)), fnp.linalg.qr(A, mode="r"))
    return QRResult(*fnp.linalg.qr(A, mode=mode))


def _hermitian(A: Any, UPLO: str) -> Any:
    """``A`` read as Hermitian from its ``UPLO`` triangle, with PyTorch's gradient: the
    Hermitian part of the gradient for every element (NumPy's and JAX's eigh put it all
    on the triangle read).  The value is the triangle's; the gradient flows through
    ``(A + A^H) / 2``, which has that value when ``A`` is Hermitian."""
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    half = (A + A.mH) / 2
    if not half.requires_grad:
        return A
    read = A.tril() if UPLO == "L" else A.triu()
    triangle = read + read.mH - read.diagonal(0, -2, -1).real.diag_embed()
    return half + (triangle - half).detach()


def eigh(A: Any, UPLO: str = "L") -> Any:
    """``(eigenvalues, eigenvectors)`` of the Hermitian matrices of ``A`` (read from the
    ``UPLO`` triangle), eigenvalues in ascending order.

    >>> import funcgrad as fg
    >>> fg.linalg.eigh(fg.tensor([[2.0, 1.0], [1.0, 2.0]])).eigenvalues
    tensor([1., 3.])
    """
    return EighResult(*fnp.linalg.eigh(_hermitian(_square("eigh", A), UPLO), UPLO=UPLO))


def eigvalsh(A: Any, UPLO: str = "L") -> Any:
    """The eigenvalues of the Hermitian matrices of ``A``, ascending.

    >>> import funcgrad as fg
    >>> fg.linalg.eigvalsh(fg.tensor([[2.0, 1.0], [1.0, 2.0]]))
    tensor([1., 3.])
    """
    return fnp.linalg.eigvalsh(_hermitian(_square("eigvalsh", A), UPLO), UPLO=UPLO)


def eig(A: Any) -> Any:
    """``(eigenvalues, eigenvectors)`` of the matrices of ``A``, complex.

    >>> import funcgrad as fg
    >>> fg.linalg.eig(fg.tensor([[2.0, 0.0], [0.0, 3.0]])).eigenvalues
    tensor([2.+0.j, 3.+0.j])
    """
    A = _square("eig", A)
    w, v = fnp.linalg.eig(A)
    complex_dtype = np.result_type(A.dtype, np.complex64)
    return EigResult(fnp.astype(w, complex_dtype), fnp.astype(v, complex_dtype))


def eigvals(A: Any) -> Any:
    """The eigenvalues of the matrices of ``A``, complex.

    >>> import funcgrad as fg
    >>> fg.linalg.eigvals(fg.tensor([[2.0, 0.0], [0.0, 3.0]]))
    tensor([2.+0.j, 3.+0.j])
    """
    return eig(A).eigenvalues


def svd(A: Any, full_matrices: bool = True, *, driver: Any = None) -> Any:
    """``(U, S, Vh)`` with ``A = U @ diag(S) @ Vh``, ``S`` descending.

    >>> import funcgrad as fg
    >>> fg.linalg.svd(fg.tensor([[3.0, 0.0], [0.0, -2.0]])).S
    tensor([3., 2.])
    """
    return SVDResult(*fnp.linalg.svd(_tensor("svd", A), full_matrices=full_matrices))


def svdvals(A: Any, *, driver: Any = None) -> Any:
    """The singular values of the matrices of ``A``, descending.

    >>> import funcgrad as fg
    >>> fg.linalg.svdvals(fg.tensor([[3.0, 0.0], [0.0, -2.0]]))
    tensor([3., 2.])
    """
    return fnp.linalg.svd(_tensor("svdvals", A), compute_uv=False)


def matrix_power(A: Any, n: int) -> Any:
    """``A`` multiplied by itself ``n`` times (``n < 0``: its inverse ``-n`` times).

    >>> import funcgrad as fg
    >>> fg.linalg.matrix_power(fg.tensor([[1.0, 1.0], [0.0, 1.0]]), 3)
    tensor([[1., 3.],
            [0., 1.]])
    """
    return _square("matrix_power", A).matrix_power(n)


def matrix_rank(A: Any, *, atol: Any = None, rtol: Any = None, hermitian: bool = False) -> Any:
    """The numbers of singular values over the tolerance (an int64 Tensor).

    >>> import funcgrad as fg
    >>> fg.linalg.matrix_rank(fg.tensor([[1.0, 2.0], [2.0, 4.0]]))
    tensor(1)
    """
    A = _tensor("matrix_rank", A).detach()
    s = np.abs(np.linalg.eigvalsh(np.asarray(A))) if hermitian else \
        np.linalg.svd(np.asarray(A), compute_uv=False)
    top = s.max(axis=-1, initial=0.0)
    if rtol is None:
        rtol = 0.0 if atol is not None and np.any(np.asarray(atol) > 0) else \
            max(A.shape[-2:]) * np.finfo(s.dtype).eps
    cut = np.maximum(0.0 if atol is None else np.asarray(atol), np.asarray(rtol) * top)
    return Tensor(np.asarray((s > np.asarray(cut)[..., None]).sum(axis=-1), np.int64))


def matrix_exp(A: Any) -> Any:
    """The matrix exponentials of the matrices of ``A``.

    >>> import funcgrad as fg
    >>> fg.linalg.matrix_exp(fg.zeros(2, 2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    return _square("matrix_exp", A).matrix_exp()


def lstsq(A: Any, B: Any, rcond: Any = None, *, driver: Any = None) -> Any:
    """``(solution, residuals, rank, singular_values)`` of ``min |A @ X - B|``; like
    PyTorch's default driver on the CPU (``'gelsy'``) only ``solution`` and ``rank``
    are filled in, the others empty.

    >>> import funcgrad as fg
    >>> A = fg.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> fg.linalg.lstsq(A, fg.tensor([[1.0], [2.0], [3.0]])).solution
    tensor([[1.],
            [2.]])
    """
    A, B = _tensor("lstsq", A), _as_tensor(B)
    vector = B.ndim == A.ndim - 1
    if vector:  # (PyTorch wants B with the matrices' number of dimensions)
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be equal to other.dim(); "
                           "make B a column: B.unsqueeze(-1)")
    X = fnp.matmul(fnp.linalg.pinv(A), B) if A.ndim > 2 or B.ndim > 2 else \
        fnp.linalg.lstsq(A, B, rcond=rcond)[0]
    rank = matrix_rank(A)
    empty = Tensor(np.zeros((0,), A.dtype))
    return LstsqResult(X, empty, rank, empty)


def cross(input: Any, other: Any, *, dim: int = -1) -> Any:  # noqa: A002
    """The cross products of the 3-vectors along ``dim`` (broadcast).

    >>> import funcgrad as fg
    >>> fg.linalg.cross(fg.tensor([1.0, 0.0, 0.0]), fg.tensor([0.0, 1.0, 0.0]))
    tensor([0., 0., 1.])
    """
    input, other = fnp.broadcast_arrays(_tensor("cross", input), _as_tensor(other))
    return input.cross(other, dim=dim)


def multi_dot(tensors: Sequence[Any]) -> Any:
    """The product of the matrices (the first and last may be vectors), in the cheapest
    order.

    >>> import funcgrad as fg
    >>> fg.linalg.multi_dot([fg.tensor([1.0, 2.0]), fg.eye(2), fg.tensor([3.0, 4.0])])
    tensor(11.)
    """
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got "
                           f"{len(tensors)}")
    return fnp.linalg.multi_dot(list(tensors))


def vecdot(x: Any, y: Any, *, dim: int = -1) -> Any:
    """The dot products ``sum(x.conj() * y)`` along ``dim`` (broadcast).

    >>> import funcgrad as fg
    >>> fg.linalg.vecdot(fg.tensor([[1.0, 2.0]]), fg.tensor([3.0, 4.0]))
    tensor([11.])
    """
    x = _tensor("vecdot", x)
    return (x.conj() * _as_tensor(y)).sum(dim)


def matmul(input: Any, other: Any) -> Any:  # noqa: A002
    """``input @ other``, as :func:`fg.matmul`.

    >>> import funcgrad as fg
    >>> fg.linalg.matmul(fg.eye(2), fg.tensor([1.0, 2.0]))
    tensor([1., 2.])
    """
    return _tensor("matmul", input) @ _as_tensor(other)


def diagonal(A: Any, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:
    """The diagonals of the matrices of ``A`` (a view), as ``A.diagonal``.

    >>> import funcgrad as fg
    >>> fg.linalg.diagonal(fg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([1., 4.])
    """
    return _tensor("diagonal", A).diagonal(offset, dim1, dim2)


def cond(A: Any, p: Any = None) -> Any:
    """The condition numbers of the matrices of ``A`` in the ``p``-norm (2 by default).

    >>> import funcgrad as fg
    >>> fg.linalg.cond(fg.tensor([[2.0, 0.0], [0.0, 0.5]]))
    tensor(4.)
    """
    return fnp.linalg.cond(_tensor("cond", A), p)


def tensorinv(A: Any, ind: int = 2) -> Any:
    """The inverse of ``A`` as a linear map from its last dimensions to its first ``ind``.

    >>> import funcgrad as fg
    >>> fg.linalg.tensorinv(fg.eye(4).reshape(4, 2, 2), ind=1).shape
    fg.Size([2, 2, 4])
    """
    return fnp.linalg.tensorinv(_tensor("tensorinv", A), ind=ind)


def tensorsolve(A: Any, B: Any, dims: Any = None) -> Any:
    """``X`` with ``tensordot(A, X, X.ndim) = B``.

    >>> import funcgrad as fg
    >>> fg.linalg.tensorsolve(fg.eye(4).reshape(2, 2, 4), fg.ones(2, 2)).shape
    fg.Size([4])
    """
    return fnp.linalg.tensorsolve(_tensor("tensorsolve", A), _as_tensor(B), axes=dims)


def vander(x: Any, *, N: int | None = None) -> Any:
    """The Vandermonde matrix of ``x``: columns ``x ** 0, x ** 1, ..., x ** (N - 1)``
    (increasing powers, PyTorch's order; NumPy's ``vander`` decreases).

    >>> import funcgrad as fg
    >>> fg.linalg.vander(fg.tensor([2.0, 3.0]), N=3)
    tensor([[1., 2., 4.],
            [1., 3., 9.]])
    """
    x = _tensor("vander", x)
    n = x.shape[-1] if N is None else N
    if n < 1:
        raise RuntimeError("N must be greater than 1.")
    return fnp.stack([x ** k for k in range(n)], axis=-1)

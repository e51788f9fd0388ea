"""PyTorch's linear-algebra Tensor methods beyond ``matmul``/``mm``/``bmm``/``dot``/``mv``:
``norm``, ``dist``, ``renorm``, ``outer``, ``inner``, ``kron``, ``vdot``, ``cross``, ``addmm``/``addmv``/``addr``/
``addbmm``/``baddbmm``, ``det``, ``logdet``, ``slogdet``, ``inverse``, ``pinverse``,
``matrix_exp``, ``matrix_power``, ``cholesky``, ``qr`` and ``svd``.

They compute with funcgrad.numpy.linalg (whose rules give the gradients) under PyTorch's
names and conventions: ``slogdet`` returns ``(sign, logabsdet)``, ``logdet`` is NaN for
a negative determinant, ``svd`` returns ``V`` (not NumPy's ``Vh``), ``beta=0`` in the
``add*`` products ignores ``self`` (a NaN there is not propagated).

>>> import funcgrad as fg
>>> a = fg.tensor([[2.0, 0.0], [0.0, 4.0]], requires_grad=True)
>>> a.det()
tensor(8., grad_fn=<LinalgDetBackward0>)
>>> a.inverse().sum().backward()
>>> a.grad
tensor([[-0.25  , -0.125 ],
        [-0.125 , -0.0625]])
"""
from collections import namedtuple
from typing import Any, Sequence

import numpy as np

from ..kernels._broadcast import broadcast_shapes
from .. import numpy as fnp
from ..numpy import linalg as fla
from ..numpy.ufuncs import abs_square
from ..scipy import linalg as fsl
from ..primitives import elementwise as ew
from ..primitives import linalg as _la
from ..primitives.structural import stop_gradient
from .inplace import _FALSE
from .tensor import Tensor
from .named import Named, record_as
from .pointwise import constant
from .values import axis_index
from .scalar_dims import scalar_dims

NORM = Named("norm", "LinalgVectorNormBackward0")
_NEVER = np.zeros((), bool)

__all__ = ["attach"]

_NODES = {name: Named(name, node) for name, node in [
    ("outer", "MulBackward0"), ("inner", "DotBackward0"), ("kron", "KronBackward0"),
    ("vdot", "DotBackward0"), ("cross", "LinalgCrossBackward0"), ("addmm", "AddmmBackward0"),
    ("addmv", "AddmvBackward0"), ("addr", "AddrBackward0"), ("addbmm", "AddbmmBackward0"),
    ("baddbmm", "BaddbmmBackward0"), ("det", "LinalgDetBackward0"),
    ("logdet", "LogdetBackward0"), ("slogdet", "LinalgSlogdetBackward0"),
    ("inverse", "LinalgInvExBackward0"), ("pinverse", "LinalgPinvBackward0"),
    ("matrix_exp", "LinalgMatrixExpBackward0"), ("cholesky", "LinalgCholeskyExBackward0")]}

SlogdetResult = namedtuple("slogdet", ["sign", "logabsdet"])  # type: ignore[name-match]
QRResult = namedtuple("qr", ["Q", "R"])  # type: ignore[name-match]
SVDResult = namedtuple("svd", ["U", "S", "V"])  # type: ignore[name-match]


def _expect(what, t, ndim):
    if t.ndim != ndim:
        raise RuntimeError(f"{what}: Expected {ndim}-D argument, but got {t.ndim}-D with "
                           f"shape {list(t.shape)}")


def _square(what, t):
    if t.ndim < 2 or t.shape[-1] != t.shape[-2]:
        raise RuntimeError(f"linalg.{what}: A must be batches of square matrices, but they "
                           f"are {t.shape[-2] if t.ndim > 1 else t.ndim} by "
                           f"{t.shape[-1] if t.ndim else 0} matrices")


def outer(self: Any, vec2: Any) -> Any:
    """``self[i] * vec2[j]`` for two 1-D Tensors (also ``ger``)."""
    _expect("outer", self, 1)
    _expect("outer", vec2, 1)
    return record_as(_NODES["outer"], lambda a, b: a[:, None] * b[None, :], self, vec2)


def inner(self: Any, other: Any) -> Any:
    """Sums of products over the last axes (a product by a 0-d Tensor)."""
    return record_as(_NODES["inner"], fnp.inner, self, other)


def kron(self: Any, other: Any) -> Any:
    """The Kronecker product."""
    return record_as(_NODES["kron"], fnp.kron, self, other)


def vdot(self: Any, other: Any) -> Any:
    """``sum(conj(self) * other)`` of two 1-D Tensors."""
    _expect("vdot", self, 1)
    _expect("vdot", other, 1)
    return record_as(_NODES["vdot"], fnp.vdot, self, other)


def cross(self: Any, other: Any, dim: int | None = None) -> Any:
    """The cross product along ``dim`` (the first axis of size 3 without it)."""
    if dim is None:
        dim = next((i for i, n in enumerate(broadcast_shapes(self.shape, other.shape))
                    if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return record_as(_NODES["cross"], fnp.cross, self, other, axis=dim)


def _scaled_sum(self, product, beta, alpha):
    """``beta * self + alpha * product``; ``self`` is not read when ``beta`` is 0."""
    scaled = product if alpha == 1 else product * alpha
    if beta == 0:  # self's gradient is zero (not absent), as in PyTorch
        return ew.where(_FALSE, self, scaled)
    return (self if beta == 1 else self * beta) + scaled


def _add_product(name, product, self, a, b, beta, alpha):
    return record_as(_NODES[name], lambda s, a, b: _scaled_sum(s, product(a, b), beta, alpha),
                     self, a, b)


def addmm(self: Any, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * self + alpha * (mat1 @ mat2)`` for 2-D ``mat1`` and ``mat2``."""
    _expect("addmm", mat1, 2)
    _expect("addmm", mat2, 2)
    return _add_product("addmm", fnp.matmul, self, mat1, mat2, beta, alpha)


def addmv(self: Any, mat: Any, vec: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * self + alpha * (mat @ vec)``."""
    _expect("addmv", mat, 2)
    _expect("addmv", vec, 1)
    return _add_product("addmv", fnp.matmul, self, mat, vec, beta, alpha)


def addr(self: Any, vec1: Any, vec2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * self + alpha * outer(vec1, vec2)``."""
    _expect("addr", vec1, 1)
    _expect("addr", vec2, 1)
    return _add_product("addr", lambda a, b: a[:, None] * b[None, :], self, vec1, vec2,
                        beta, alpha)


def addbmm(self: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * self + alpha * sum_b(batch1[b] @ batch2[b])``."""
    _expect("addbmm", batch1, 3)
    _expect("addbmm", batch2, 3)
    return _add_product("addbmm", lambda a, b: fnp.sum(fnp.matmul(a, b), axis=0), self,
                        batch1, batch2, beta, alpha)


def baddbmm(self: Any, batch1: Any, batch2: Any, *, beta: Any = 1, alpha: Any = 1) -> Any:
    """``beta * self + alpha * (batch1 @ batch2)`` for 3-D batches."""
    _expect("baddbmm", batch1, 3)
    _expect("baddbmm", batch2, 3)
    return _add_product("baddbmm", fnp.matmul, self, batch1, batch2, beta, alpha)


def det(self: Any) -> Any:
    """The determinant (of each matrix in the last two axes)."""
    _square("det", self)
    return record_as(_NODES["det"], fla.det, self)


def slogdet(self: Any) -> Any:
    """``(sign, logabsdet)``: the determinant's sign and the log of its absolute value."""
    _square("slogdet", self)
    # the sign: recorded with a zero gradient, as PyTorch's
    sign = constant(_NODES["slogdet"], fla.slogdet(self.detach())[0], self)
    # (minus a zero: one node of one output, which record_as can name; of logabsdet's
    # dtype, real for a complex matrix too, as PyTorch's)
    logabsdet = record_as(_NODES["slogdet"], lambda t: _minus_zero(fla.slogdet(t)[1]), self)
    return SlogdetResult(sign, logabsdet)


def _minus_zero(x):
    return x - np.zeros((), x.dtype)


def logdet(self: Any) -> Any:
    """The log of the determinant (NaN where it is negative, -inf where it is 0); for a
    complex matrix the complex logarithm ``log|det| + i angle(det)``, as PyTorch.

    >>> import numpy as np, funcgrad as fg
    >>> fg.Tensor(np.array([[2.0, 0.0], [0.0, 3.0]])).logdet()
    tensor(1.79175947, dtype=float64)
    >>> fg.Tensor(np.array([[-1 + 0j, 0], [0, 1]])).logdet()
    tensor(0.+3.14159265j, dtype=complex128)
    """
    _square("logdet", self)

    def compute(t):
        sign, logabs = fla.slogdet(t)
        if sign.dtype.kind == "c":  # |sign| = 1, so log(sign) = i angle(det), differentiable
            return fnp.add(fnp.log(sign), logabs)
        sign = np.asarray(sign.detach() if hasattr(sign, "detach") else sign)
        return fnp.where(sign < 0, np.asarray(np.nan, logabs.dtype), logabs)
    return record_as(_NODES["logdet"], compute, self)


def inverse(self: Any) -> Any:
    """The inverse matrix (an error for a singular one)."""
    _square("inv", self)
    return record_as(_NODES["inverse"], fla.inv, self)


def pinverse(self: Any, rcond: float = 1e-15) -> Any:
    """The Moore-Penrose pseudo-inverse (singular values below ``rcond`` times the
    largest dropped)."""
    return record_as(_NODES["pinverse"], fla.pinv, self, rcond=rcond)


def matrix_exp(self: Any) -> Any:
    """The matrix exponential ``sum_k A^k / k!``."""
    _square("matrix_exp", self)
    return record_as(_NODES["matrix_exp"], fsl.expm, self)


def matrix_power(self: Any, n: int) -> Any:
    """The matrix to the integer power ``n`` (the inverse's for negative ``n``)."""
    _square("matrix_power", self)
    return fla.matrix_power(self, n)


def cholesky(self: Any, upper: bool = False) -> Any:
    """The Cholesky factor ``L`` (``L @ L^H = self``), or ``L^H`` when ``upper``."""
    _square("cholesky", self)
    # (the primitive itself: its derivative counts a tangent through its Hermitian part,
    # PyTorch's convention, where numpy.linalg.cholesky's reads the lower triangle only)
    factor = record_as(_NODES["cholesky"], _la.cholesky, self)
    return factor.mH if upper else factor


def qr(self: Any, some: bool = True) -> Any:
    """``(Q, R)`` with ``Q`` orthonormal and ``R`` upper triangular (``some=False``:
    complete)."""
    q, r = fla.qr(self, mode="reduced" if some else "complete")
    return QRResult(q, r)


def svd(self: Any, some: bool = True, compute_uv: bool = True) -> Any:
    """``(U, S, V)`` with ``self = U @ diag(S) @ V^H`` (PyTorch returns ``V``, not
    NumPy's ``Vh``)."""
    if not compute_uv:
        s = fla.svd(self, compute_uv=False)
        m, n = self.shape[-2:]
        zeros = np.zeros(self.shape[:-2] + ((m, m) if not some else (m, min(m, n))),
                         self.dtype)
        return SVDResult(Tensor(zeros), s, Tensor(np.zeros(
            self.shape[:-2] + ((n, n) if not some else (n, min(m, n))), self.dtype)))
    u, s, vh = fla.svd(self, full_matrices=not some)
    return SVDResult(u, s, vh.mH)


@scalar_dims
def norm(self: Any, p: Any = "fro", dim: int | Sequence[int] | None = None,
         keepdim: bool = False) -> Any:
    """The vector ``p``-norm over ``dim`` (all elements by default; ``p`` a number,
    ``inf``, ``-inf``, ``0`` (the count of nonzeros) or ``"fro"``; ``"nuc"``: the nuclear
    norm of matrices).  Real also for a complex Tensor.  The gradient of the 2-norm at
    zero is 0, as in PyTorch (``LinalgVectorNormBackward0``).

    >>> import funcgrad as fg
    >>> fg.tensor([3.0, 4.0], requires_grad=True).norm()
    tensor(5., grad_fn=<LinalgVectorNormBackward0>)
    """
    return record_as(NORM, _norm, self, p=p, dim=dim, keepdim=keepdim)


def _norm(t, p, dim, keepdim):
    axis = tuple(dim) if isinstance(dim, (tuple, list)) else dim
    if p == "nuc":
        return fnp.linalg.norm(t, "nuc", axis=(-2, -1) if axis is None else axis,
                               keepdims=keepdim)
    if p in ("fro", 2, 2.0):
        s = fnp.sum(abs_square(t), axis=axis, keepdims=keepdim)  # |t|**2: real for complex t
        ok = s > 0
        # the double-where idiom: sqrt never sees 0, so the masked branch's derivative is 0
        return ew.where(ok, fnp.sqrt(ew.where(ok, s, np.ones((), s.dtype))),
                        np.zeros((), s.dtype))
    if t.dtype.kind == "c":
        t = fnp.abs(t)
    if p == 0:  # the number of nonzero elements: a step, with a zero gradient
        count = fnp.astype(fnp.sum(t != 0, axis=axis, keepdims=keepdim), t.dtype)
        return ew.where(_NEVER, fnp.sum(t, axis=axis, keepdims=keepdim), count)
    if p in (np.inf, -np.inf):
        return _extreme_norm(t, fnp.max if p > 0 else fnp.min, axis, keepdim)
    if p == 1:
        return fnp.sum(fnp.abs(t), axis=axis, keepdims=keepdim)
    s = fnp.sum(fnp.abs(t) ** p, axis=axis, keepdims=keepdim)
    if p < 1:
        return s ** (1.0 / p)
    ok = s > 0  # a zero norm's gradient is 0, as for p=2 (the root's is infinite there)
    return ew.where(ok, ew.where(ok, s, np.ones((), s.dtype)) ** (1.0 / p), np.zeros((), s.dtype))


def _extreme_norm(t, extreme, axis, keepdim):
    """``extreme`` (max or min) of ``|t|``; where that is NaN (a NaN element) the gradient
    is 0, as PyTorch's, not the NaN of ties shared among no element: those slices are
    taken as zeros by the differentiated branch."""
    nan = ew.isnan(extreme(stop_gradient(fnp.abs(t)), axis=axis, keepdims=True))
    out = extreme(fnp.abs(ew.where(nan, np.zeros((), t.dtype), t)), axis=axis,
                  keepdims=keepdim)
    return ew.where(fnp.reshape(nan, out.shape), np.nan, out)


def dist(self: Any, other: Any, p: Any = 2) -> Any:
    """The ``p``-norm of ``self - other`` (broadcast).

    >>> import funcgrad as fg
    >>> fg.tensor([1.0, 2.0]).dist(fg.tensor([4.0, 6.0]))
    tensor(5.)
    """
    return (self - other).norm(p)


def renorm(self: Any, p: Any, dim: int, maxnorm: Any) -> Any:
    """Each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm``, scaled down to norm
    ``maxnorm`` (PyTorch's ``maxnorm / (norm + 1e-7)``); the others unchanged.

    >>> import funcgrad as fg
    >>> fg.tensor([[3.0, 4.0], [0.3, 0.4]]).renorm(2, 0, 1.0)
    tensor([[0.6, 0.8],
            [0.3, 0.4]])
    """
    others = tuple(a for a in range(self.ndim) if a != axis_index(dim, self.ndim))
    norms = self.norm(p, others, keepdim=True)
    over = norms > maxnorm
    # (the inner where keeps the untaken branch finite: a zero norm gives no 0/0 there)
    return self * fnp.where(over, maxnorm / (fnp.where(over, norms, 1.0) + 1e-7), 1.0)


_METHODS = [norm, dist, renorm, outer, inner, kron, vdot, cross, addmm, addmv, addr, addbmm, baddbmm, det,
            slogdet, logdet, inverse, pinverse, matrix_exp, matrix_power, cholesky, qr, svd]


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in _METHODS:
        setattr(cls, fn.__name__, fn)

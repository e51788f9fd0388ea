"""``scipy.linalg``'s special matrices, differentiable in their array arguments:
``toeplitz``, ``circulant``, ``hankel``, ``leslie``, ``companion``, ``fiedler``,
``fiedler_companion``, ``convolution_matrix``, ``khatri_rao``, ``diagsvd``; the
constructors of a size alone (``hadamard``, ``helmert``, ``hilbert``, ``invhilbert``,
``pascal``, ``invpascal``, ``dft``) return plain NumPy arrays of SciPy's values and dtypes;
``bandwidth``, ``issymmetric`` and ``ishermitian`` read the structure from the values.

Matrices built from a vector are a gather from it (``take`` with a table of indices), so
their derivative is the matching scatter-add; where a matrix also holds constants (the
ones of a companion matrix), the vector is extended by them first.  Stacks follow SciPy
1.17: batched where SciPy batches (``toeplitz``, ``leslie``, ``circulant``, ``companion``,
``fiedler``, ``khatri_rao``, ``diagsvd``, and the row-wise ``convolution_matrix`` and
``fiedler_companion``), raveled with SciPy's ``FutureWarning`` in ``hankel``.
"""
import math
import warnings
from typing import Literal, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike, DTypeLike
from ._linalg_tools import over_batch

__all__ = ["toeplitz", "circulant", "hankel", "hadamard", "leslie", "companion", "helmert",
           "hilbert", "invhilbert", "pascal", "invpascal", "dft", "fiedler",
           "fiedler_companion", "convolution_matrix", "khatri_rao", "diagsvd", "bandwidth",
           "issymmetric", "ishermitian"]


def _atleast_1d(x: ArrayLike) -> Array:
    x = asarray(x)
    return fnp.reshape(x, (1,)) if x.ndim == 0 else x


def _gather(values, table):
    """``values[..., table]``: the matrix whose entry ``(i, j)`` is ``values[table[i, j]]``."""
    return fnp.take(values, np.asarray(table, np.intp), axis=-1)


def _constants(values, *consts):
    """``values`` with the constants appended (at indices ``n, n + 1, ...``), in its dtype."""
    tail = np.broadcast_to(np.asarray(consts, values.dtype), values.shape[:-1] + (len(consts),))
    return fnp.concatenate([values, tail], axis=-1)


def toeplitz(c: ArrayLike, r: Optional[ArrayLike] = None) -> Array:
    """The Toeplitz matrix with first column ``c`` and first row ``r`` (``r[0]`` ignored;
    default ``conj(c)``), as ``scipy.linalg.toeplitz``; leading dimensions of ``c`` and
    ``r`` are batch dimensions (SciPy 1.17).  Differentiable in ``c`` and ``r``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.toeplitz(np.array([1.0, 2.0, 3.0]), np.array([1.0, 4.0]))
    array([[1., 4.],
           [2., 1.],
           [3., 2.]])
    """
    c = _atleast_1d(c)
    r = fnp.conj(c) if r is None else _atleast_1d(r)
    return _toeplitz(c, r)


@over_batch(("c", 1), ("r", 1))
def _toeplitz(c, r):
    dtype = np.result_type(c.dtype, r.dtype)
    values = fnp.concatenate([fnp.astype(c[::-1], dtype), fnp.astype(r[1:], dtype)])
    m, n = c.shape[0], r.shape[0]
    return _gather(values, m - 1 - np.arange(m)[:, None] + np.arange(n)[None, :])


def circulant(c: ArrayLike) -> Array:
    """The circulant matrix with first column ``c`` (``scipy.linalg.circulant``): entry
    ``(i, j)`` is ``c[(i - j) % n]``; leading dimensions are batch dimensions.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.circulant(np.array([1.0, 2.0, 3.0]))
    array([[1., 3., 2.],
           [2., 1., 3.],
           [3., 2., 1.]])
    """
    c = _atleast_1d(c)
    n = c.shape[-1]
    return _gather(c, (np.arange(n)[:, None] - np.arange(n)[None, :]) % max(n, 1))


def hankel(c: ArrayLike, r: Optional[ArrayLike] = None) -> Array:
    """The Hankel matrix with first column ``c`` and last row ``r`` (``r[0]`` ignored;
    default zeros), as ``scipy.linalg.hankel``.  As SciPy 1.17, multidimensional inputs
    are raveled, with SciPy's ``FutureWarning``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.hankel(np.array([1.0, 2.0, 3.0]), np.array([3.0, 4.0]))
    array([[1., 2.],
           [2., 3.],
           [3., 4.]])
    """
    c = asarray(c)
    r = fnp.zeros_like(c) if r is None else asarray(r)
    if c.ndim > 1 or r.ndim > 1:
        warnings.warn("hankel: from SciPy 1.19 multidimensional input is a batch, not "
                      "raveled; ravel the arguments before passing them to keep this "
                      "behaviour and silence this warning", FutureWarning, stacklevel=2)
    c, r = fnp.ravel(c), fnp.ravel(r)
    dtype = np.result_type(c.dtype, r.dtype)
    values = fnp.concatenate([fnp.astype(c, dtype), fnp.astype(r[1:], dtype)])
    m, n = c.shape[0], r.shape[0]
    return _gather(values, np.arange(m)[:, None] + np.arange(n)[None, :])


@over_batch(("f", 1), ("s", 1))
def leslie(f: ArrayLike, s: ArrayLike) -> Array:
    """The Leslie matrix of fecundities ``f`` (first row) and survival rates ``s`` (the
    subdiagonal), as ``scipy.linalg.leslie``; leading dimensions are batch dimensions.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.leslie(np.array([0.1, 2.0, 1.0]), np.array([0.2, 0.8]))
    array([[0.1, 2. , 1. ],
           [0.2, 0. , 0. ],
           [0. , 0.8, 0. ]])
    """
    f, s = _atleast_1d(f), _atleast_1d(s)
    if f.shape[-1] != s.shape[-1] + 1:
        raise ValueError(f"leslie: s must be one shorter than f (the length of s along the "
                         f"last axis must be one less than that of f); got {f.shape[-1]} "
                         f"and {s.shape[-1]}")
    if s.shape[-1] == 0:
        raise ValueError("leslie: the length of s must be at least 1")
    n = f.shape[-1]
    dtype = np.result_type(f.dtype, s.dtype)
    values = _constants(fnp.concatenate([fnp.astype(f, dtype), fnp.astype(s, dtype)]), 0)
    table = np.full((n, n), 2 * n - 1)
    table[0] = np.arange(n)
    table[np.arange(1, n), np.arange(n - 1)] = n + np.arange(n - 1)
    return _gather(values, table)


def companion(a: ArrayLike) -> Array:
    """The companion matrix of the polynomial with coefficients ``a`` (highest degree
    first; ``a[0] != 0``), as ``scipy.linalg.companion``: first row ``-a[1:] / a[0]``,
    ones on the subdiagonal; leading dimensions are batch dimensions.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.companion(np.array([1.0, -10.0, 31.0, -30.0]))
    array([[ 10., -31.,  30.],
           [  1.,   0.,   0.],
           [  0.,   1.,   0.]])
    """
    a = _atleast_1d(a)
    n = a.shape[-1]
    if n < 2:
        raise ValueError(f"companion: a needs at least 2 coefficients along its last axis, "
                         f"got {n}")
    if is_concrete(a) and np.any(concrete_values(a, "companion", "")[..., 0] == 0):
        raise ValueError("companion: the first coefficient(s) of a (a[..., 0]) must not be "
                         "zero")
    first_row = -a[..., 1:] / (1.0 * a[..., 0:1])
    values = _constants(first_row, 0, 1)
    table = np.full((n - 1, n - 1), n - 1)
    table[0] = np.arange(n - 1)
    table[np.arange(1, n - 1), np.arange(n - 2)] = n
    return _gather(values, table)


def fiedler(a: ArrayLike) -> Array:
    """The Fiedler matrix ``|a[i] - a[j]|`` of a sequence (``scipy.linalg.fiedler``);
    leading dimensions are batch dimensions.  Its derivative is ``abs``'s (0 at ties).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.fiedler(np.array([1.0, 4.0, 12.0]))
    array([[ 0.,  3., 11.],
           [ 3.,  0.,  8.],
           [11.,  8.,  0.]])
    """
    a = _atleast_1d(a)
    if a.size == 0:
        return np.asarray([], np.float64)
    if a.size == 1:
        return np.asarray([[0.0]])
    return fnp.abs(a[..., :, None] - a[..., None, :])


def fiedler_companion(a: ArrayLike) -> Array:
    """The Fiedler companion matrix of the polynomial with coefficients ``a`` (highest
    degree first), as ``scipy.linalg.fiedler_companion``: a pentadiagonal matrix with the
    polynomial's roots as eigenvalues; leading dimensions are batch dimensions.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.fiedler_companion(np.array([1.0, -6.0, 11.0, -6.0]))
    array([[  6., -11.,   1.],
           [  1.,   0.,   0.],
           [  0.,   6.,   0.]])
    """
    a = _atleast_1d(a)
    if a.ndim > 1:
        return _over_rows(a, fiedler_companion)
    if a.shape[0] <= 2:
        if a.shape[0] == 2:
            return fnp.reshape(-(a / a[0])[-1], (1, 1))
        return np.array([], dtype=a.dtype)
    if is_concrete(a) and concrete_values(a, "fiedler_companion", "")[0] == 0:
        raise ValueError("fiedler_companion: the leading coefficient a[0] is zero")
    a = a / a[0]
    n = a.shape[0] - 1
    values = _constants(-a, 0, 1)  # -a[k] at k, 0 at n + 1, 1 at n + 2
    table = np.full((n, n), n + 1)
    table[range(3, n, 2), range(1, n - 2, 2)] = n + 2
    table[range(2, n, 2), range(1, n - 1, 2)] = np.arange(3, n + 1, 2)
    table[range(0, n - 2, 2), range(2, n, 2)] = n + 2
    table[range(0, n - 1, 2), range(1, n, 2)] = np.arange(2, n + 1, 2)
    table[0, 0], table[1, 0] = 1, n + 2
    return _gather(values, table)


def _over_rows(a, fn):
    """``fn`` on each 1-d row of ``a`` (its last axis), stacked (NumPy's
    ``apply_along_axis(fn, -1, a)`` for results of one shape)."""
    rows = fnp.reshape(a, (-1, a.shape[-1]))
    outs = fnp.stack([fn(rows[i]) for i in range(rows.shape[0])])
    return fnp.reshape(outs, a.shape[:-1] + tuple(outs.shape[1:]))


def convolution_matrix(a: ArrayLike, n: int, mode: Literal["full", "valid", "same"] = "full"
                       ) -> Array:
    """The Toeplitz matrix ``A`` with ``A @ v == np.convolve(a, v, mode)`` for ``v`` of
    length ``n`` (``scipy.linalg.convolution_matrix``); leading dimensions of ``a`` are
    batch dimensions.  Differentiable in ``a``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.convolution_matrix(np.array([1.0, 2.0]), 3)
    array([[1., 0., 0.],
           [2., 1., 0.],
           [0., 2., 1.],
           [0., 0., 2.]])
    """
    if n <= 0:
        raise ValueError(f"convolution_matrix: n must be a positive integer, got {n}")
    a = asarray(a)
    if a.size == 0:
        raise ValueError("convolution_matrix: len(a) must be at least 1")
    if mode not in ("full", "valid", "same"):
        raise ValueError(f"convolution_matrix: mode must be one of ('full', 'valid', "
                         f"'same'), got {mode!r}")
    if a.ndim > 1:
        return _over_rows(a, lambda row: convolution_matrix(row, n, mode))
    a = _atleast_1d(a)
    zeros = fnp.zeros((n - 1,), a.dtype)
    az = fnp.concatenate([a, zeros])
    raz = fnp.concatenate([a[::-1], zeros])
    if mode == "full":
        return toeplitz(az, raz[-n:])
    trim = min(n, a.shape[0]) - 1
    head = trim // 2 if mode == "same" else trim
    tail = trim - head if mode == "same" else trim
    col0 = az[head:az.shape[0] - tail]
    row0 = raz[raz.shape[0] - n - head:raz.shape[0] - head]
    return toeplitz(col0, row0)


@over_batch(("a", 2), ("b", 2))
def khatri_rao(a: ArrayLike, b: ArrayLike) -> Array:
    """The Khatri-Rao product (column-wise Kronecker product) of ``a`` (n, k) and ``b``
    (m, k): column ``j`` is ``kron(a[:, j], b[:, j])`` (``scipy.linalg.khatri_rao``);
    leading dimensions are batch dimensions.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.khatri_rao(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 10.0]]))
    array([[ 1., 20.],
           [ 3., 40.]])
    """
    a, b = asarray(a), asarray(b)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"khatri_rao: both arrays must be 2-dimensional, got shapes "
                         f"{a.shape} and {b.shape}")
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"khatri_rao: a and b must have the same number of columns, got "
                         f"{a.shape[1]} and {b.shape[1]}")
    if a.size == 0 or b.size == 0:  # (SciPy's: an empty array of a's dtype)
        return np.empty((a.shape[0] * b.shape[0], a.shape[1]), a.dtype)
    return fnp.reshape(a[:, None, :] * b[None, :, :], (-1, a.shape[1]))


@over_batch(("s", 1))
def diagsvd(s: ArrayLike, M: int, N: int) -> Array:
    """The (M, N) matrix with ``s`` on its diagonal (``scipy.linalg.diagsvd``), for
    rebuilding ``a = U @ diagsvd(s, M, N) @ Vh``; ``len(s)`` must be ``M`` or ``N``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.diagsvd(np.array([3.0, 2.0]), 2, 3)
    array([[3., 0., 0.],
           [0., 2., 0.]])
    """
    s = asarray(s)
    part = fnp.diag(s)
    k = s.shape[0]
    if k == M:
        return fnp.concatenate([part, fnp.zeros((M, N - M), part.dtype)], axis=1)
    if k == N:
        return fnp.concatenate([part, fnp.zeros((M - N, N), part.dtype)], axis=0)
    raise ValueError(f"diagsvd: the length of s ({k}) must be M ({M}) or N ({N})")


# --- constructors of a size: plain NumPy arrays -----------------------------------------------

def hadamard(n: int, dtype: DTypeLike = int) -> np.ndarray:
    """The (n, n) Hadamard matrix of Sylvester's construction (``n`` a power of 2), as
    ``scipy.linalg.hadamard``.

    >>> import funcgrad.scipy.linalg as fsl
    >>> fsl.hadamard(2)
    array([[ 1,  1],
           [ 1, -1]])
    """
    log2 = 0 if n < 1 else int(math.log(n, 2))
    if 2 ** log2 != n:
        raise ValueError(f"hadamard: n must be a positive power of 2, got {n}")
    h = np.array([[1]], dtype=dtype)
    for _ in range(log2):
        h = np.vstack((np.hstack((h, h)), np.hstack((h, -h))))
    return h


def helmert(n: int, full: bool = False) -> np.ndarray:
    """The (n, n) Helmert matrix (orthogonal; its first row constant), without that first
    row unless ``full`` (``scipy.linalg.helmert``).

    >>> import funcgrad.scipy.linalg as fsl
    >>> fsl.helmert(2, full=True) ** 2
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """
    h = np.tril(np.ones((n, n)), -1) - np.diag(np.arange(n))
    d = np.arange(n) * np.arange(1, n + 1)
    h[0] = 1
    d[0] = n
    h = h / np.sqrt(d)[:, None]
    return h if full else h[1:]


def hilbert(n: int) -> np.ndarray:
    """The (n, n) Hilbert matrix ``1 / (i + j + 1)`` (``scipy.linalg.hilbert``).

    >>> import funcgrad.scipy.linalg as fsl
    >>> fsl.hilbert(2)
    array([[1.        , 0.5       ],
           [0.5       , 0.33333333]])
    """
    values = 1.0 / (1.0 + np.arange(max(2 * n - 1, 0)))
    return values[np.arange(n)[:, None] + np.arange(n)[None, :]]


def invhilbert(n: int, exact: bool = False) -> np.ndarray:
    """The inverse of the (n, n) Hilbert matrix (``scipy.linalg.invhilbert``): float64, or
    with ``exact`` its integers (int64 up to n = 14, Python ints in an object array after).

    >>> import funcgrad.scipy.linalg as fsl
    >>> fsl.invhilbert(2, exact=True)
    array([[ 4, -6],
           [-6, 12]])
    """
    dtype = (np.int64 if n <= 14 else object) if exact else np.float64
    comb = math.comb if exact else (lambda a, b: float(math.comb(a, b)))
    out = np.empty((n, n), dtype=dtype)
    for i in range(n):
        for j in range(i + 1):
            s = i + j
            out[i, j] = out[j, i] = ((-1) ** s * (s + 1) * comb(n + i, n - j - 1)
                                     * comb(n + j, n - i - 1) * comb(s, i) ** 2)
    return out


_KINDS = ("symmetric", "lower", "upper")


def pascal(n: int, kind: Literal["symmetric", "lower", "upper"] = "symmetric",
           exact: bool = True) -> np.ndarray:
    """The (n, n) Pascal matrix of binomial coefficients (``scipy.linalg.pascal``):
    ``kind`` 'symmetric', 'lower' or 'upper'; uint64 (object past n = 34) with ``exact``,
    else float64.

    >>> import funcgrad.scipy.linalg as fsl
    >>> fsl.pascal(3)
    array([[1, 1, 1],
           [1, 2, 3],
           [1, 3, 6]], dtype=uint64)
    """
    if kind not in _KINDS:
        raise ValueError(f"pascal: kind must be 'symmetric', 'lower', or 'upper', got "
                         f"{kind!r}")
    if exact:
        low = np.zeros((n, n), dtype=object if n >= 35 else np.uint64)
        for i in range(n):
            for j in range(i + 1):
                low[i, j] = math.comb(i, j)
    else:
        low = np.array([[float(math.comb(i, j)) if j <= i else 0.0 for j in range(n)]
                        for i in range(n)], dtype=np.float64).reshape(n, n)
    if kind == "lower":
        return low
    if kind == "upper":
        return low.T
    return np.dot(low, low.T)


def invpascal(n: int, kind: Literal["symmetric", "lower", "upper"] = "symmetric",
              exact: bool = True) -> np.ndarray:
    """The inverse of ``pascal(n, kind, exact)`` (``scipy.linalg.invpascal``): int64
    (object past n = 34) with ``exact``, else float64.

    >>> import funcgrad.scipy.linalg as fsl
    >>> fsl.invpascal(3, kind="lower")
    array([[ 1,  0,  0],
           [-1,  1,  0],
           [ 1, -2,  1]])
    """
    if kind not in _KINDS:
        raise ValueError(f"invpascal: kind must be 'symmetric', 'lower' or 'upper', got "
                         f"{kind!r}")
    comb = math.comb if exact else (lambda a, b: float(math.comb(a, b)))
    if kind == "symmetric":
        out = np.empty((n, n), dtype=(object if n > 34 else np.int64) if exact else np.float64)
        for i in range(n):
            for j in range(i + 1):
                v = sum(comb(i + k, k) * comb(i + k, i + k - j) for k in range(n - i))
                out[i, j] = out[j, i] = (-1) ** (i - j) * v
        return out
    out = pascal(n, kind=kind, exact=exact)
    if out.dtype == np.uint64:  # (entries well below 2**63 for these kinds)
        out = out.view(np.int64)
    signs = (-1) ** np.abs(np.arange(n)[:, None] - np.arange(n)[None, :])
    return out * signs.astype(out.dtype)


def dft(n: int, scale: Optional[Literal["sqrtn", "n"]] = None) -> np.ndarray:
    """The (n, n) discrete Fourier transform matrix ``exp(-2 pi i j k / n)``
    (``scipy.linalg.dft``): ``dft(n) @ x == np.fft.fft(x)``; ``scale`` None, 'sqrtn'
    (unitary) or 'n'.  (To differentiate a transform, multiply by it: ``m @ x``.)

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> np.round(fsl.dft(2), 12)
    array([[ 1.+0.j,  1.+0.j],
           [ 1.+0.j, -1.-0.j]])
    """
    if scale not in (None, "sqrtn", "n"):
        raise ValueError(f"dft: scale must be None, 'sqrtn', or 'n'; {scale!r} is not valid")
    omegas = np.exp(-2j * np.pi * np.arange(n) / n).reshape(-1, 1)
    m = omegas ** np.arange(n)
    if scale == "sqrtn":
        m /= math.sqrt(n)
    elif scale == "n":
        m /= n
    return m


# --- recognizing structure: values only --------------------------------------------------------

def _known(name, a):
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError(f"{name}: the input array must be a 2-d array, got shape {a.shape}")
    return concrete_values(a, name, f"{name} answers from the values (a Python bool or int): "
                                    f"call it outside vmap/jit.")


@over_batch(("a", 2))
def bandwidth(a: ArrayLike) -> tuple[int, int]:
    """``(lower, upper)``: how many subdiagonals and superdiagonals of ``a`` hold nonzero
    entries (``scipy.linalg.bandwidth``); 0 for a triangular side.  Read from the values.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.bandwidth(np.array([[1.0, 2.0, 0.0], [3.0, 4.0, 5.0], [0.0, 0.0, 6.0]]))
    (1, 1)
    """
    values = _known("bandwidth", a)
    rows, cols = np.nonzero(values)
    offsets = rows - cols
    return (int(max(np.max(offsets, initial=0), 0)), int(max(-np.min(offsets, initial=0), 0)))


def _same_across(name, a, atol, rtol, hermitian):
    values = _known(name, a)
    if values.shape[0] != values.shape[1]:
        raise ValueError(f"{name}: the input array must be square, got shape {values.shape}")
    other = values.T.conj() if hermitian else values.T
    if atol is not None or rtol is not None:  # (SciPy's: numpy.allclose, the other 0)
        return bool(np.allclose(values, other, atol=atol or 0.0, rtol=rtol or 0.0))
    off = ~np.eye(values.shape[0], dtype=bool)  # (exact: the diagonal is not compared...)
    same = bool(np.all(values[off] == other[off]))
    if hermitian and values.dtype.kind == "c":  # (... but a Hermitian one is real)
        same = same and bool(np.all(np.diagonal(values).imag == 0))
    return same


@over_batch(("a", 2))
def issymmetric(a: ArrayLike, atol: Optional[float] = None, rtol: Optional[float] = None
                ) -> bool:
    """Whether ``a == a.T`` (``scipy.linalg.issymmetric``): exactly (the diagonal not
    compared), or with ``atol``/``rtol`` as ``numpy.allclose``.  Read from the values.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.issymmetric(np.array([[1.0, 2.0], [2.0, 3.0]]))
    True
    """
    return _same_across("issymmetric", a, atol, rtol, hermitian=False)


@over_batch(("a", 2))
def ishermitian(a: ArrayLike, atol: Optional[float] = None, rtol: Optional[float] = None
                ) -> bool:
    """Whether ``a == a^H`` (``scipy.linalg.ishermitian``): exactly (off the diagonal; the
    diagonal real), or with ``atol``/``rtol`` as ``numpy.allclose``.  Read from the values.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.ishermitian(np.array([[1.0, 2.0 + 3.0j], [2.0 - 3.0j, 4.0]]))
    True
    """
    return _same_across("ishermitian", a, atol, rtol, hermitian=True)

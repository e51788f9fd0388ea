"""``expm`` of a sparse matrix without densifying it.  The value is SciPy's (its sparse
``expm``, through ``fg.pure_callback``, so also under ``jit``), stored on the structural
pattern of ``exp(A)``: every position reachable in the graph of ``A`` plus the diagonal,
the entries that a perturbation of ``A.data`` can make nonzero (SciPy's own result may
omit some whose value cancels to zero; keeping them keeps their derivatives).

The derivative is the Frechet derivative ``L(A, dA)``, the upper-right block of
``exp([[A, dA], [0, A]])``, computed sparse by scaling and squaring: with ``B = A / 2^s``
(``|B|_1 <= 1/2``), Taylor terms ``P_j = B^j`` and ``Q_j = B Q_{j-1} + dB P_{j-1}`` give
``exp(B)`` and ``L(B, dB)``, and each squaring maps ``(X, Y)`` to ``(X X, X Y + Y X)``.
These are funcgrad's sparse products, differentiable in ``A.data`` too, so second
derivatives are exact.  Where the pattern is nearly full the products cost ``O(n^3)``:
above a work limit the derivative raises, naming the dense route."""
import math

import numpy as np

from ... import numpy as fnp
from ...callback import pure_callback
from ...custom import custom_jvp
from ...numpy._convert import concrete_values

__all__ = ["sparse_expm"]

_WORK_LIMIT = 5e7  # scalar products in the derivative's sparse products


def _closure(a):
    """The structural pattern of ``exp(a)`` as a boolean SciPy CSR matrix."""
    import scipy.sparse as sp
    n = a.shape[0]
    reach = (sp.csr_array((np.ones(a.nnz, bool), (a._row, a._col)), shape=a.shape)
             + sp.eye_array(n, dtype=bool, format="csr")).astype(bool)
    while True:
        grown = (reach @ reach).astype(bool)
        if grown.nnz == reach.nnz:
            return reach
        reach = grown


def _frechet(a, e, norm, dtype, identity):
    """``(exp(a), L(a, e))`` by sparse scaling and squaring (module docstring)."""
    s = max(0, math.ceil(math.log2(max(norm, 1e-300) / 0.5)))
    terms = 14 if np.dtype(dtype).itemsize >= 8 and np.dtype(dtype) != np.complex64 else 8
    b, db = a * (0.5 ** s), e * (0.5 ** s)
    power, frechet = b, db
    x, y = identity + b, db
    factorial = 1.0
    for j in range(2, terms + 1):
        factorial *= j
        frechet = b @ frechet + db @ power
        power = b @ power
        x, y = x + power * (1.0 / factorial), y + frechet * (1.0 / factorial)
    for _ in range(s):
        x, y = x @ x, x @ y + y @ x
    return x, y


def sparse_expm(a):
    """SciPy's ``expm`` of the square sparse ``a`` (CSC stays CSC, else CSR, as SciPy's)."""
    fmt = "csc" if a.format == "csc" else "csr"
    a = a.asformat(fmt)
    n = a.shape[0]
    dtype = np.result_type(a.dtype, np.float32)
    reach = _closure(a).tocoo()
    zero = a._kind(fmt)((np.zeros(reach.nnz, dtype), (reach.row, reach.col)), shape=a.shape)
    row, col = zero._row, zero._col
    keys = row.astype(np.int64) * n + col
    counts = np.bincount(col, minlength=n) * np.bincount(row, minlength=n)
    work = float(np.sum(counts)) * 3 * 14  # (a bound per product, times the products)

    def host(data):
        import scipy.sparse as sp
        import scipy.sparse.linalg as sl
        matrix = sp.csc_array((np.asarray(data), (a._row, a._col)), shape=a.shape)
        value = sl.expm(matrix).tocoo()
        values = np.zeros(len(keys), dtype)
        found = np.searchsorted(keys, value.row.astype(np.int64) * n + value.col,
                                sorter=np.argsort(keys))
        values[np.argsort(keys)[found]] = value.data
        return values

    @custom_jvp
    def stored(data):
        return pure_callback(host, np.empty(len(keys), dtype), data, vmap_method="sequential")

    @stored.defjvp
    def stored_jvp(primals, tangents):
        data, = primals
        ddata, = tangents
        concrete = concrete_values(data, "the derivative of a sparse expm (its number of "
                                   "squarings)", "Differentiate outside jit/vmap")
        norm = float(np.max(np.bincount(a._col, np.abs(concrete), minlength=n)))
        squarings = max(0, math.ceil(math.log2(max(norm, 1e-300) / 0.5)))
        if work * (1 + squarings / 14) > _WORK_LIMIT:
            raise NotImplementedError(
                f"expm: the derivative of this sparse exponential (a {n} x {n} result with "
                f"{len(keys)} structurally nonzero entries) would take about "
                f"{work * (1 + squarings / 14):.2g} sparse products' multiplications; "
                f"differentiate the dense route instead, expm(A.toarray()), if it fits")
        identity = a._kind(fmt)((np.ones(n, dtype), (np.arange(n), np.arange(n))),
                                shape=a.shape)
        _, frechet = _frechet(a._like(data), a._like(ddata), norm, dtype, identity)
        frechet = (frechet + zero._like(fnp.zeros(len(keys), dtype))).asformat(fmt)
        if not (np.array_equal(frechet._row, row) and np.array_equal(frechet._col, col)):
            raise AssertionError("expm: the Frechet derivative left the pattern of exp(A)")
        return stored(data), fnp.astype(frechet.data, dtype)

    return zero._like(stored(fnp.astype(a.data, dtype)))

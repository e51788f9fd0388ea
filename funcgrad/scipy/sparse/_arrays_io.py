"""``scipy.sparse``'s random sparse arrays, its ``.npz`` file format, its index-dtype
helpers and its warning classes.  The random arrays are SciPy's draws (SciPy makes them,
imported when called); the files are read and written with NumPy in SciPy's layout, so
either library reads what the other wrote."""
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np

from ._arrays_base import values_of
from ._arrays_core import CLASSES, coerce, from_scipy
from ._arrays_formats import ARRAYS, MATRICES, issparse, sparray

__all__ = ["random", "random_array", "rand", "save_npz", "load_npz", "get_index_dtype",
           "safely_cast_index_arrays", "SparseWarning", "SparseEfficiencyWarning"]


class SparseWarning(Warning):
    """``scipy.sparse.SparseWarning`` (funcgrad's own class: importing funcgrad loads no
    SciPy)."""


class SparseEfficiencyWarning(SparseWarning):
    """``scipy.sparse.SparseEfficiencyWarning``: an operation that is slow on this format."""


def _drawn(scipy_result, family):
    out = from_scipy(scipy_result)
    return family[out.format]._make(out.data, out._row, out._col, out.shape)


def random_array(shape: Tuple[int, int], *, density: float = 0.01, format: str = "coo",  # noqa: A002
                 dtype: Any = None, rng: Any = None, data_sampler: Optional[Callable] = None,
                 random_state: Any = None) -> Any:
    """A random sparse array, SciPy's draw for the same ``rng`` (``scipy.sparse.random_array``;
    formats ``'coo'``, ``'csr'``, ``'csc'``).

    >>> import funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.random_array((3, 4), density=0.5, rng=0)
    >>> type(A).__name__, A.nnz
    ('coo_array', 6)
    """
    import scipy.sparse as sp
    kwargs = {} if random_state is None else {"random_state": random_state}
    drawn = sp.random_array(shape, density=density, format="coo", dtype=dtype, rng=rng,
                            data_sampler=data_sampler, **kwargs)
    return _drawn(drawn, ARRAYS).asformat(format)


def random(m: int, n: int, density: float = 0.01, format: str = "coo", dtype: Any = None,  # noqa: A002
           rng: Any = None, data_rvs: Optional[Callable] = None, *,
           random_state: Any = None) -> Any:
    """A random sparse matrix, SciPy's draw (``scipy.sparse.random``).

    >>> import funcgrad.scipy.sparse as fsparse
    >>> type(fsparse.random(3, 4, density=0.5, rng=0)).__name__
    'coo_matrix'
    """
    import scipy.sparse as sp
    kwargs = {} if random_state is None else {"random_state": random_state}
    drawn = sp.random(m, n, density=density, format="coo", dtype=dtype, rng=rng,
                      data_rvs=data_rvs, **kwargs)
    return _drawn(drawn, MATRICES).asformat(format)


def rand(m: int, n: int, density: float = 0.01, format: str = "coo", dtype: Any = None,  # noqa: A002
         rng: Any = None, *, random_state: Any = None) -> Any:
    """A random sparse matrix with values uniform on [0, 1), SciPy's draw
    (``scipy.sparse.rand``).

    >>> import funcgrad.scipy.sparse as fsparse
    >>> fsparse.rand(3, 4, density=0.5, rng=0, format="csr").format
    'csr'
    """
    import scipy.sparse as sp
    kwargs = {} if random_state is None else {"random_state": random_state}
    drawn = sp.rand(m, n, density=density, format="coo", dtype=dtype, rng=rng, **kwargs)
    return _drawn(drawn, MATRICES).asformat(format)


def save_npz(file: Any, matrix: Any, compressed: bool = True) -> None:
    """Write ``matrix`` (funcgrad's or SciPy's) to ``file`` in SciPy's ``.npz`` layout
    (``scipy.sparse.save_npz``); the values must be concrete.

    >>> import io, numpy as np, funcgrad.scipy.sparse as fsparse
    >>> f = io.BytesIO(); fsparse.save_npz(f, fsparse.csr_array(np.eye(2))); _ = f.seek(0)
    >>> fsparse.load_npz(f).toarray()
    array([[1., 0.],
           [0., 1.]])
    """
    if not issparse(matrix):
        raise TypeError(f"save_npz: expected a sparse array or matrix, got "
                        f"{type(matrix).__name__}")
    if matrix.format not in ("dia", "bsr"):
        matrix = coerce(matrix)
    parts = {"format": np.array(matrix.format.encode()), "shape": np.array(matrix.shape),
             "data": values_of(matrix, "save_npz")}
    if matrix.format == "dia":
        parts["offsets"] = np.asarray(matrix.offsets)
    elif matrix.format == "bsr":
        parts.update(indices=np.asarray(matrix.indices), indptr=np.asarray(matrix.indptr))
    elif matrix.format == "coo":
        parts.update(row=matrix.row, col=matrix.col)
    else:
        parts.update(indices=matrix.indices, indptr=matrix.indptr)
    if isinstance(matrix, sparray):
        parts["_is_array"] = np.array(True)
    (np.savez_compressed if compressed else np.savez)(file, **parts)


def load_npz(file: Any) -> Any:
    """Read a sparse array or matrix written by :func:`save_npz` or SciPy's
    (``scipy.sparse.load_npz``), in any of SciPy's formats funcgrad has.

    >>> import io, numpy as np, funcgrad.scipy.sparse as fsparse
    >>> f = io.BytesIO(); fsparse.save_npz(f, fsparse.coo_matrix(np.eye(2))); _ = f.seek(0)
    >>> type(fsparse.load_npz(f)).__name__
    'coo_matrix'
    """
    with np.load(file, allow_pickle=False) as stored:
        fmt = stored["format"].item()
        fmt = fmt.decode() if isinstance(fmt, bytes) else str(fmt)
        family = ARRAYS if "_is_array" in stored.files and stored["_is_array"] else MATRICES
        shape = tuple(int(d) for d in stored["shape"])
        if fmt == "coo":
            coords = (stored["row"], stored["col"]) if "row" in stored.files else \
                tuple(stored["coords"])
            return family["coo"]((stored["data"], coords), shape=shape)
        if fmt in ("csr", "csc"):
            return family[fmt]((stored["data"], stored["indices"], stored["indptr"]),
                               shape=shape)
        if fmt == "bsr":
            return CLASSES["array" if family is ARRAYS else "matrix", "bsr"](
                (stored["data"], stored["indices"], stored["indptr"]), shape=shape)
        if fmt == "dia":
            return CLASSES["array" if family is ARRAYS else "matrix", "dia"](
                (stored["data"], stored["offsets"]), shape=shape)
    import scipy.sparse as sp
    if hasattr(file, "seek"):
        file.seek(0)
    return _drawn(sp.load_npz(file), family)


def get_index_dtype(arrays: Sequence[Any] = (), maxval: Optional[int] = None,
                    check_contents: bool = False) -> type:
    """The index dtype SciPy would use: ``np.int32`` unless ``maxval`` or an array (its
    dtype, or with ``check_contents`` its values) needs ``np.int64``
    (``scipy.sparse.get_index_dtype``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.get_index_dtype(maxval=10), fsparse.get_index_dtype(maxval=2**40)
    (<class 'numpy.int32'>, <class 'numpy.int64'>)
    """
    limit = np.iinfo(np.int32)
    if maxval is not None and int(maxval) > limit.max:
        return np.int64
    if isinstance(arrays, np.ndarray):
        arrays = (arrays,)
    for a in arrays:
        a = np.asarray(a)
        if np.can_cast(a.dtype, np.int32):
            continue
        if check_contents and (a.size == 0 or (a.dtype.kind in "iu" and
                                               limit.min <= a.min() and a.max() <= limit.max)):
            continue
        return np.int64
    return np.int32


def safely_cast_index_arrays(A: Any, idx_dtype: Any = np.int32,
                             msg: str = "") -> Tuple[np.ndarray, ...]:
    """``A``'s index arrays (``(row, col)`` for COO, ``(indices, indptr)`` for CSR/CSC) in
    ``idx_dtype``, raising ``ValueError`` if a value does not fit
    (``scipy.sparse.safely_cast_index_arrays``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.safely_cast_index_arrays(fsparse.csr_array(np.eye(2)), np.int64)
    (array([0, 1]), array([0, 1, 2]))
    """
    a = coerce(A)
    if a is None:
        raise TypeError(f"safely_cast_index_arrays: expected a sparse array, got "
                        f"{type(A).__name__}")
    arrays = (a.row, a.col) if a.format == "coo" else (a.indices, a.indptr)
    limit = np.iinfo(idx_dtype)
    for x in arrays:
        if x.size and (x.max() > limit.max or x.min() < limit.min):
            raise ValueError(f"safely_cast_index_arrays: index values too large for "
                             f"{np.dtype(idx_dtype)}{': ' + msg if msg else ''}")
    return tuple(x.astype(idx_dtype) for x in arrays)



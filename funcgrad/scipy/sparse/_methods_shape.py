"""The sparse arrays' shape and diagonal changes, once for every format, through its COO
form: ``reshape`` (a new array), and ``resize`` and ``setdiag``, which change the array in
place, as SciPy's do.  The stored values move with their positions (a gather), so they
stay differentiable; in place means the object takes the new parts (its ``data`` may then
be a traced value), which funcgrad's sparse objects allow since only their ``data`` is
traced, never the object."""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray

__all__ = ["ShapeMethods", "checked_shape"]


def checked_shape(obj: Any, args: tuple, name: str, unknown: bool) -> tuple:
    """The 2-d shape that ``args`` name (``(M, N)`` or ``M, N``; one -1 when ``unknown``),
    or SciPy's error; a 1-d or n-d shape of a sparse array raises NotImplementedError,
    funcgrad's sparse arrays being 2-d."""
    shape = args[0] if len(args) == 1 and not isinstance(args[0], (int, np.integer)) \
        else args
    try:
        shape = tuple(int(d) for d in shape)
    except TypeError:
        raise TypeError(f"{name}: the shape must be a tuple of integers, got {args!r}") \
            from None
    size = obj.shape[0] * obj.shape[1]
    if unknown and shape.count(-1) == 1:
        known = int(np.prod([d for d in shape if d != -1]))
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        shape = tuple(size // known if d == -1 else d for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"{name}: negative dimensions are not allowed: {shape}")
    if len(shape) != 2:
        if obj._family == "matrix":
            raise ValueError(f"shape must have length in (2,). Got new_shape={shape}")
        raise NotImplementedError(
            f"{name} to shape {shape}: SciPy gives a {len(shape)}-d sparse array, which "
            f"funcgrad does not have (its sparse arrays are 2-d); keep two dimensions, "
            f"e.g. {name}((1, {int(np.prod(shape))})), or work on A.toarray()")
    return shape


class ShapeMethods:
    """``reshape``, ``resize`` and ``setdiag`` (every format has them, as in SciPy).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> A.setdiag(5.0, k=1); A.toarray()
    array([[1., 5.],
           [0., 2.]])
    """

    format: str
    shape: Any
    dtype: Any
    _family: str
    copy: Any  # (each format's own)
    tocoo: Any

    def _become(self, other: Any) -> None:
        """Take ``other``'s parts (an array of this class): SciPy's in-place change."""
        parts = dict(vars(other))
        vars(self).clear()
        vars(self).update(parts)

    def _in_own_format(self, coo: Any) -> Any:
        """A COO array of this family as this array's format (BSR keeps its blocksize
        where it still divides the shape)."""
        if self.format == "bsr":
            r, c = getattr(self, "blocksize")
            fits = coo.shape[0] % r == 0 and coo.shape[1] % c == 0
            return coo.tobsr((r, c) if fits else None)
        return coo.asformat(self.format)

    def reshape(self, *args: Any, **kwargs: Any) -> Any:
        """The array with shape ``shape`` (``reshape(shape, order='C', copy=False)``), the
        entries in C (or Fortran) order as NumPy's; a COO array, or LIL for LIL, as
        SciPy's (itself when the shape is the same); differentiable.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
        >>> B = A.reshape((1, 4)); B.format, B.toarray()
        ('coo', array([[1., 0., 0., 2.]]))
        """
        order = kwargs.pop("order", "C")
        copy = kwargs.pop("copy", False)
        if "shape" in kwargs:
            args = (kwargs.pop("shape"),)
        if kwargs:
            raise TypeError(f"reshape() got unexpected keyword argument(s) "
                            f"{', '.join(sorted(kwargs))}")
        if order not in ("C", "F"):
            raise ValueError(f"reshape: order must be 'C' or 'F', got {order!r}")
        shape = checked_shape(self, args, "reshape", True)
        if shape == tuple(self.shape):
            return self.copy() if copy else self
        if shape[0] * shape[1] != self.shape[0] * self.shape[1]:
            raise ValueError(f"cannot reshape array of size {self.shape[0] * self.shape[1]} "
                             f"into shape {shape}")
        coo = self.tocoo()
        m, n = self.shape
        if order == "C":
            flat = coo._row.astype(np.int64) * n + coo._col
            row, col = flat // max(shape[1], 1), flat % max(shape[1], 1)
        else:
            flat = coo._col.astype(np.int64) * m + coo._row
            row, col = flat % max(shape[0], 1), flat // max(shape[0], 1)
        out = coo._kind("coo")._make(coo.data, row.astype(np.intp), col.astype(np.intp),
                                     shape)
        return out.tolil() if self.format == "lil" else out

    def resize(self, *shape: Any) -> None:
        """Change the shape in place: entries outside the new shape are dropped, new rows
        and columns are empty (SciPy's ``resize(*shape)``); the values kept keep their
        derivatives.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_array(np.array([[1.0, 2.0], [3.0, 4.0]]))
        >>> A.resize((1, 3)); A.toarray()
        array([[1., 2., 0.]])
        """
        m, n = checked_shape(self, shape, "resize", False)
        coo = self.tocoo()
        keep = np.nonzero((coo._row < m) & (coo._col < n))[0]
        out = coo._kind("coo")._make(fnp.take(coo.data, keep), coo._row[keep], coo._col[keep],
                                     (m, n))
        self._become(self._in_own_format(out))

    def setdiag(self, values: Any, k: int = 0) -> None:
        """Set the ``k``-th diagonal in place (``values`` a scalar for all of it, or the
        first ``len(values)`` entries); as SciPy's, CSR, CSC, COO, DIA and BSR store a
        zero given, DOK and LIL drop it.  Differentiable in ``values`` and in the
        entries kept.

        >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
        >>> def f(v):
        ...     A = fsparse.csr_array(np.ones((2, 2))); A.setdiag(v); return A.sum()
        >>> fg.grad(f)(np.array([3.0, 4.0]))
        array([1., 1.])
        """
        m, n = self.shape
        k = int(k)
        if (k > 0 and k >= n) or (k < 0 and -k >= m):
            raise ValueError("k exceeds array dimensions")
        length = min(m + min(k, 0), n - max(k, 0))
        values = asarray(values)
        if values.ndim == 0:
            values = fnp.broadcast_to(values, (length,))
        else:
            values = fnp.reshape(values, (-1,))[:length]
        values = fnp.astype(values, self.dtype)
        rows = np.arange(values.shape[0]) + max(0, -k)
        cols = np.arange(values.shape[0]) + max(0, k)
        if self.format in ("dok", "lil"):  # (their assignment: a zero is not stored)
            for p, (i, j) in enumerate(zip(rows.tolist(), cols.tolist())):
                self[i, j] = values[p]
            return
        coo = self.tocoo()
        keep = np.nonzero(~np.isin(coo._row.astype(np.int64) * n + coo._col,
                                   rows.astype(np.int64) * n + cols))[0]
        data = fnp.concatenate([fnp.take(coo.data, keep), values])
        out = coo._kind("coo")._make(data, np.concatenate([coo._row[keep], rows]),
                                     np.concatenate([coo._col[keep], cols]), self.shape)
        self._become(self._in_own_format(out))

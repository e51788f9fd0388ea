"""The sparse arrays' extrema: ``max``, ``min``, ``nanmax``, ``nanmin`` over every entry
(the implicit zeros too) or, with ``explicit=True``, over the stored ones; ``argmax`` and
``argmin``; and the elementwise ``maximum`` and ``minimum``.  One implementation for
every format, through its COO form.

Derivatives.  A reduction is a segment maximum (``fnp.at(start)[line].max(values)``) of
the stored values, duplicates summed first, into a start of 0 for a line that has an
implicit zero (the implicit zeros are one constant contender) or -inf for a full line.
So, as funcgrad's dense ``max`` with ``initial=``, tied values share the derivative
equally, the implicit zeros taking one share, which is dropped (they are constants): a
line whose extremum is an implicit zero gets no derivative, and a stored value tied with
implicit zeros gets half, which is also what a central difference of SciPy's ``max``
gives there.  ``nanmax``/``nanmin`` give NaN entries no derivative (they are skipped).
``maximum``/``minimum`` are funcgrad's elementwise ones (ties share equally) on the union
of the patterns, an absent entry a constant zero.

Where SciPy drops a zero result (a line whose extremum is 0, a zero of ``maximum``), a
traced result keeps it as a stored zero, so that no derivative is lost; the values are
SciPy's either way.  ``argmax``/``argmin`` are integers with no derivative: they are
SciPy's own, computed on the concrete values.  Integer, boolean and complex arrays take
SciPy's ``max``/``min`` on their concrete values too (there is no derivative to keep).
"""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...core import Tracer
from ...numpy._convert import asarray
from ._arrays_base import canonical_order, segment_sum, values_of
from ._arrays_ops import _as_sparse

__all__ = ["ExtremaReductions", "ElementwiseExtrema"]


def _summed_coo(self):
    """``(coo, data, row, col)``: the array's entries in canonical order, duplicates summed."""
    coo = self.tocoo()
    order, slots, new = canonical_order(coo._row, coo._col)
    if new.all():
        data = fnp.take(coo.data, order)
    else:
        data = segment_sum(fnp.take(coo.data, order), slots, int(new.sum()))
    return coo, data, coo._row[order][new], coo._col[order][new]


def _scipy_twin(self, what):
    """SciPy's COO array (or matrix) with this one's concrete values."""
    import scipy.sparse as sp
    coo = self.tocoo()
    cls = sp.coo_array if self._family == "array" else sp.coo_matrix
    return cls((values_of(coo, what), (coo._row, coo._col)), shape=coo.shape)


def _checked_axis(self, axis, out, name):
    if out is not None:
        raise ValueError(f"Sparse {name} does not support an 'out' parameter.")
    if axis is None:
        return None
    if isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]
    if axis not in (0, 1, -1, -2):
        raise ValueError(f"{name}: axis {axis!r} is out of bounds for a 2-d sparse array")
    return int(axis) % 2


class ExtremaReductions:
    """``max``, ``min``, ``nanmax``, ``nanmin``, ``argmax``, ``argmin`` (SciPy's
    ``_minmax_mixin``; COO, CSR, CSC and BSR have them, as in SciPy).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csr_array(np.array([[0.0, 2.0], [-3.0, 1.0]]))
    >>> A.max(), A.min(), A.argmin()
    (np.float64(2.0), np.float64(-3.0), 2)
    >>> fg.grad(lambda A: A.max())(A).data
    array([1., 0., 0.])
    """

    _family: str

    def _reduce(self, name, sign, skip_nan, axis, out, explicit):
        axis = _checked_axis(self, axis, out, name)
        m, n = self.shape
        if axis is None and 0 in self.shape or axis is not None and self.shape[axis] == 0:
            raise ValueError("zero-size array to reduction operation")
        if axis is not None and self._family == "array":
            raise NotImplementedError(
                f"{name}(axis={axis}) of a sparse array is a 1-d sparse array in SciPy, which "
                f"funcgrad does not have (its sparse arrays are 2-d).  Take it of the matrix, "
                f"fsparse.csr_matrix(A).{name}(axis={axis}) (a 2-d coo_matrix), or of the "
                f"dense array, fnp.{name}(A.toarray(), axis={axis})")
        if np.dtype(self.dtype).kind != "f":
            result = getattr(_scipy_twin(self, name), name)(axis=axis, explicit=explicit)
            return result if axis is None else self.tocoo()._kind("coo")(result)
        coo, data, row, col = _summed_coo(self)
        if axis is None:
            lines, count, size = np.zeros(len(data), np.intp), 1, m * n
        else:
            lines, count, size = (col, n, m) if axis == 0 else (row, m, n)
        stored = np.bincount(lines, minlength=count)
        closed = (stored == size) | bool(explicit)  # (no implicit zero takes part)
        values = data * sign
        if skip_nan:
            values = fnp.where(fnp.isnan(values), -np.inf, values)
        start = np.where(closed, -np.inf, 0.0).astype(values.dtype)
        best = fnp.at(start)[lines].max(values)
        best = fnp.where(stored == 0, 0.0, best)  # (an empty line under explicit: 0)
        if skip_nan:  # an all-NaN line with no implicit zero is NaN (NumPy's fmax)
            numbers = segment_sum(fnp.where(fnp.isnan(data), 0.0, 1.0), lines, count)
            best = fnp.where((numbers == 0) & (stored > 0) & closed, np.nan, best)
        best = fnp.astype(best * sign, self.dtype)
        if axis is None:
            return best[0]
        if isinstance(data, Tracer):  # (keep the lines that may carry a derivative)
            keep = np.nonzero(stored > 0)[0]
        else:
            keep = np.nonzero(np.asarray(best) != 0)[0]
        zeros = np.zeros(len(keep), np.intp)
        rows, cols, shape = (zeros, keep, (1, n)) if axis == 0 else (keep, zeros, (m, 1))
        return coo._kind("coo")._make(fnp.take(best, keep), rows, cols, shape)

    def max(self, axis: Any = None, out: Any = None, *, explicit: bool = False) -> Any:
        """The largest entry (the implicit zeros too, unless ``explicit``), or, for a
        ``*_matrix``, along ``axis`` as a ``coo_matrix``; differentiable, tied values
        sharing the derivative (see the module's docstring).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_matrix(np.array([[-1.0, 0.0], [-2.0, -3.0]]))
        >>> A.max(), A.max(explicit=True), A.max(axis=1).toarray()
        (np.float64(0.0), np.float64(-1.0), array([[ 0.],
               [-2.]]))
        """
        return self._reduce("max", 1.0, False, axis, out, explicit)

    def min(self, axis: Any = None, out: Any = None, *, explicit: bool = False) -> Any:
        """The smallest entry (the implicit zeros too, unless ``explicit``), or, for a
        ``*_matrix``, along ``axis`` as a ``coo_matrix``; differentiable.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.coo_array(np.array([[1.0, 0.0], [2.0, 3.0]])).min(explicit=True)
        np.float64(1.0)
        """
        return self._reduce("min", -1.0, False, axis, out, explicit)

    def nanmax(self, axis: Any = None, out: Any = None, *, explicit: bool = False) -> Any:
        """As ``max``, NaN entries skipped.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[np.nan, -1.0]])).nanmax(explicit=True)
        np.float64(-1.0)
        """
        return self._reduce("nanmax", 1.0, True, axis, out, explicit)

    def nanmin(self, axis: Any = None, out: Any = None, *, explicit: bool = False) -> Any:
        """As ``min``, NaN entries skipped.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[np.nan, 1.0]])).nanmin(explicit=True)
        np.float64(1.0)
        """
        return self._reduce("nanmin", -1.0, True, axis, out, explicit)

    def _arg(self, name, axis, out, explicit):
        _checked_axis(self, axis, out, name)
        result = getattr(_scipy_twin(self, name), name)(axis=axis, explicit=explicit)
        return result if axis is None else np.asarray(result)

    def argmax(self, axis: Any = None, out: Any = None, *, explicit: bool = False) -> Any:
        """SciPy's index of the largest entry (flat, or per line along ``axis``; 2-d for a
        ``*_matrix``), from the concrete values (an index has no derivative).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_array(np.array([[0.0, 2.0], [3.0, 0.0]]))
        >>> A.argmax(), A.argmax(axis=0)
        (2, array([1, 0]))
        """
        return self._arg("argmax", axis, out, explicit)

    def argmin(self, axis: Any = None, out: Any = None, *, explicit: bool = False) -> Any:
        """SciPy's index of the smallest entry (flat, or per line along ``axis``).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1.0, 2.0], [3.0, 0.0]])).argmin()
        3
        """
        return self._arg("argmin", axis, out, explicit)


class ElementwiseExtrema:
    """``maximum`` and ``minimum`` with a scalar, a dense or a sparse operand (every
    format has them, with SciPy's result formats).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csr_array(np.array([[1.0, -2.0]]))
    >>> A.maximum(fsparse.csr_array(np.array([[0.0, 3.0]]))).toarray()
    array([[1., 3.]])
    """

    format: str
    shape: Any

    def _elementwise(self, other, function, fills):
        """``function`` (fnp.maximum or minimum) of this array and ``other``; ``fills(c)``
        says whether a scalar ``c`` fills every entry (SciPy then keeps the format)."""
        fmt = "csc" if self.format == "csc" else "csr"
        coo, data, row, col = _summed_coo(self)
        m, n = self.shape
        if np.ndim(other) == 0 and not hasattr(other, "format"):
            if fills(np.asarray(values_of(_Held(other), function.__name__))):
                flat = fnp.reshape(function(coo.toarray(), other), (-1,))
                grid = np.arange(m * n)
                full = coo._kind("coo")._make(flat, grid // max(n, 1), grid % max(n, 1),
                                              self.shape)
                return full.asformat(self.format) if self.format != "bsr" else \
                    full.tobsr(getattr(self, "blocksize", None))
            result = coo._kind(fmt)._make(function(data, other), row, col, self.shape)
            return result.asformat(fmt)
        other_coo = _as_sparse(other)
        if other_coo is None:
            return function(coo.toarray(), asarray(other))
        if other_coo.shape != self.shape:
            raise ValueError(f"{function.__name__}: inconsistent shapes {self.shape} and "
                             f"{other_coo.shape}")
        _, odata, orow, ocol = _summed_coo(other_coo)
        keys, okeys = row.astype(np.int64) * n + col, orow.astype(np.int64) * n + ocol
        union = np.union1d(keys, okeys)
        mine = segment_sum(data, np.searchsorted(union, keys), len(union))
        theirs = segment_sum(odata, np.searchsorted(union, okeys), len(union))
        values = function(mine, theirs)
        if not (isinstance(data, Tracer) or isinstance(odata, Tracer)):
            keep = np.nonzero(np.asarray(values) != 0)[0]  # (SciPy drops zero results)
            union, values = union[keep], fnp.take(values, keep)
        result = coo._kind("coo")._make(values, (union // max(n, 1)).astype(np.intp),
                                        (union % max(n, 1)).astype(np.intp), self.shape)
        return result.asformat(fmt)

    def maximum(self, other: Any) -> Any:
        """The elementwise maximum with ``other`` (a scalar, a dense or a sparse array):
        dense for a dense ``other``, else sparse in SciPy's format (CSR, CSC for CSC;
        this array's format when a positive scalar fills every entry); differentiable,
        ties sharing the derivative.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1.0, -2.0]])).maximum(-1.0).data
        array([ 1., -1.])
        """
        return self._elementwise(other, fnp.maximum, lambda c: bool(c > 0))

    def minimum(self, other: Any) -> Any:
        """The elementwise minimum with ``other`` (as ``maximum``; a negative scalar
        fills every entry).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1.0, -2.0]])).minimum(0.5).data
        array([ 0.5, -2. ])
        """
        return self._elementwise(other, fnp.minimum, lambda c: bool(c < 0))


class _Held:
    """A scalar in the role of a sparse array's data, for :func:`values_of`."""
    __slots__ = ("data",)

    def __init__(self, data):
        self.data = data


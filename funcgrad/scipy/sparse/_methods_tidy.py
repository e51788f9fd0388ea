"""The compressed formats' housekeeping: ``prune`` and ``check_format`` (CSR, CSC, BSR),
and BSR's ``sort_indices``, ``sorted_indices``, ``sum_duplicates``, ``eliminate_zeros``,
``has_sorted_indices`` and ``has_canonical_format``, in place as SciPy's.  Moving blocks
is a gather of ``data`` and summing duplicates a segment sum, so the values stay
differentiable; dropping zero blocks is refused on traced values (their derivatives would
be lost), as CSR's ``eliminate_zeros`` refuses."""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ._arrays_base import compress, expand_indptr, is_traced, segment_sum, values_of

__all__ = ["CompressedTidy", "BlockTidy"]


def _only_compressed(obj, name):
    if obj.format not in ("csr", "csc", "bsr"):
        raise AttributeError(f"{type(obj).__name__} has no attribute {name!r} (it is CSR's, "
                             f"CSC's and BSR's); convert with tocsr()")


class CompressedTidy:
    """``prune`` and ``check_format`` (funcgrad's index arrays always have exactly one
    entry per stored block or value, so there is never anything to prune).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csr_array(np.eye(2)); A.prune(); A.check_format(); A.nnz
    2
    """

    format: str

    def prune(self) -> None:
        """Trim the index arrays to the stored entries (in place; nothing to trim here).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csc_array(np.eye(2)).prune()
        """
        _only_compressed(self, "prune")

    def check_format(self, full_check: bool = True) -> None:
        """Check the structure (index bounds, ``indptr`` non-decreasing and ending at the
        number of entries, one value per entry); raise ValueError if it is broken.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).check_format(full_check=True)
        """
        _only_compressed(self, "check_format")
        indptr, indices = np.asarray(self.indptr), np.asarray(self.indices)  # type: ignore
        m, n = self.shape  # type: ignore[attr-defined]
        if self.format == "bsr":
            r, c = getattr(self, "blocksize")
            major, minor, entries = m // r, n // c, int(np.shape(self.data)[0])  # type: ignore
        else:
            major, minor = (m, n) if self.format == "csr" else (n, m)
            entries = int(np.shape(self.data)[0])  # type: ignore[attr-defined]
        if len(indptr) != major + 1 or indptr[0] != 0 or np.any(np.diff(indptr) < 0):
            raise ValueError(f"check_format: indptr should have {major + 1} entries, start "
                             f"at 0 and never decrease")
        if indptr[-1] != len(indices) or len(indices) != entries:
            raise ValueError("check_format: indices, data and indptr[-1] disagree in length")
        if full_check and len(indices) and (indices.min() < 0 or indices.max() >= minor):
            raise ValueError(f"check_format: an index is out of bounds (0 to {minor - 1})")


class BlockTidy:
    """BSR's sorting and tidying of its blocks, in place (SciPy's).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.bsr_array((np.ones((2, 1, 1)), [1, 0], [0, 2]), shape=(1, 2))
    >>> A.has_sorted_indices, A.sorted_indices().indices
    (False, array([0, 1], dtype=int32))
    """

    data: Any
    _indices: Any
    _indptr: Any
    _shape: Any
    _set: Any  # (BSR's: data, indices, indptr, shape)

    def _order(self):
        """``(block rows, the permutation sorting each block row by block column)``."""
        rows = expand_indptr(self._indptr)
        return rows, np.lexsort((self._indices, rows))

    @property
    def has_sorted_indices(self) -> bool:
        """Are the blocks of each block row in increasing block column?"""
        rows, order = self._order()
        return bool(np.array_equal(order, np.arange(len(order))))

    @property
    def has_canonical_format(self) -> bool:
        """Sorted, and no block position stored twice?"""
        rows, order = self._order()
        twice = np.any((np.diff(rows) == 0) & (np.diff(self._indices) == 0)) \
            if len(rows) > 1 else False
        return bool(np.array_equal(order, np.arange(len(order))) and not twice)

    def sort_indices(self) -> None:
        """Sort the blocks of each block row by block column, in place.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.bsr_array((np.arange(2.0).reshape(2, 1, 1), [1, 0], [0, 2]))
        >>> A.sort_indices(); A.data.ravel()
        array([1., 0.])
        """
        rows, order = self._order()
        self._set(fnp.take(self.data, order, axis=0), self._indices[order], self._indptr,
                  self._shape)

    def sorted_indices(self) -> Any:
        """A copy with sorted blocks.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).sorted_indices().has_sorted_indices
        True
        """
        out = self.copy()  # type: ignore[attr-defined]
        out.sort_indices()
        return out

    def sum_duplicates(self) -> None:
        """Sort the blocks and add those stored twice at one position, in place
        (differentiable: each sum's derivative reaches all its parts).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.bsr_array((np.ones((2, 1, 1)), [0, 0], [0, 2]), shape=(1, 1))
        >>> A.sum_duplicates(); A.data.ravel()
        array([2.])
        """
        rows, order = self._order()
        rows, cols = rows[order], self._indices[order]
        new = np.ones(len(order), bool)
        new[1:] = (np.diff(rows) != 0) | (np.diff(cols) != 0)
        data = fnp.take(self.data, order, axis=0)
        if not new.all():
            data = segment_sum(data, np.cumsum(new) - 1, int(new.sum()))
        self._set(data, cols[new], compress(rows[new], len(self._indptr) - 1), self._shape)

    def eliminate_zeros(self) -> None:
        """Drop the blocks that are all zero, in place (needs concrete values, and refuses
        traced ones: a dropped block's derivative would be lost).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.bsr_array((np.array([[[0.0]], [[2.0]]]), [0, 1], [0, 2]))
        >>> A.eliminate_zeros(); A.nnz
        1
        """
        if is_traced(self.data):
            raise TypeError("eliminate_zeros: the stored values are being differentiated; "
                            "dropping the zero blocks would drop their derivatives.  Call it "
                            "before the transform (on concrete values), or keep the zeros")
        values = values_of(self, "eliminate_zeros")
        keep = np.nonzero(values.reshape(len(values), -1).any(axis=1))[0]
        rows = expand_indptr(self._indptr)[keep]
        self._set(fnp.take(self.data, keep, axis=0), self._indices[keep],
                  compress(rows, len(self._indptr) - 1), self._shape)

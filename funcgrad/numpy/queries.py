"""NumPy's questions about dtypes and memory, answered for traced values.

``np.result_type``, ``np.can_cast``, ``np.min_scalar_type``, ``np.common_type``,
``np.shares_memory`` and ``np.may_share_memory`` look at an array's dtype (or, for a 0-d
one, its value) and its memory, never at a derivative.  Given a traced value, NumPy hands
them to ``__array_function__``, which finds the answers here (:data:`ANSWERS`, keyed by
the NumPy function): NumPy's own function, asked about a stand-in with the traced value's
dtype.  ``funcgrad.numpy`` re-exports NumPy's functions under their names, so
``fnp.result_type(x, np.float32)`` reaches the same answers.

>>> import numpy as np, funcgrad as fg
>>> fg.grad(lambda x: np.sum(x.astype(np.result_type(x, np.float32)) ** 2))(
...     np.array([1.0, 2.0], np.float32))
array([2., 4.], dtype=float32)
"""
from typing import Any

import numpy as _np

from ..core import Tracer, weak_operand
from . import _convert
from ._convert import concrete_values

__all__ = ["ANSWERS", "result_type", "can_cast", "min_scalar_type", "common_type",
           "shares_memory", "may_share_memory", "isdtype"]


def _funcgrad_array(x):
    """Is ``x`` an array NumPy cannot read by itself (traced, on a GPU...)?"""
    return isinstance(x, Tracer) or isinstance(x, _convert._extra_array_types)


def _dtype_stand_in(x):
    """What NumPy's dtype rules should see for ``x``: a funcgrad array's dtype (a Python
    number of its kind where it stands for one, so that it stays weakly typed, as the
    number would), anything else as it is."""
    return weak_operand(x) if _funcgrad_array(x) else x


def result_type(*arrays_and_dtypes):
    """``np.result_type``, traced values counted by their dtypes.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: np.zeros(2, np.result_type(x, np.float32)) + x)(np.ones(2))
    array([[1., 1.],
           [1., 1.]])
    >>> float(fg.grad(lambda x: x * (np.result_type(x, np.float32) == np.float32))(1.5))
    1.0
    """
    return _np.result_type(*[_dtype_stand_in(x) for x in arrays_and_dtypes])


def can_cast(from_, to, casting="safe"):
    """``np.can_cast`` of a traced value's dtype (NumPy 2 asks arrays about their dtype,
    not their values).

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: x * np.can_cast(x, np.float32))(np.ones((2, 3), np.float32))[0]
    array([1., 1., 1.], dtype=float32)
    """
    if _funcgrad_array(from_):
        from_ = from_.dtype
    return _np.can_cast(from_, to, casting)


def min_scalar_type(a):
    """``np.min_scalar_type``: an array's dtype, or for a 0-d one the smallest dtype that
    holds its value (that value is needed: under ``vmap`` and ``jit`` it raises
    :class:`~funcgrad.ConcretizationError`).

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: x * (np.min_scalar_type(x) == np.float64))(np.ones((2, 2)))[0]
    array([1., 1.])
    """
    if not _funcgrad_array(a):
        return _np.min_scalar_type(a)
    if a.ndim:
        return a.dtype
    return _np.min_scalar_type(concrete_values(
        a, "np.min_scalar_type of a 0-d array", "Ask about its dtype instead: "
        "np.min_scalar_type(x.dtype.type(0)) or x.dtype."))


def common_type(*arrays):
    """``np.common_type``: the inexact scalar type of the arrays' dtypes together.

    >>> import numpy as np, funcgrad as fg
    >>> fg.grad(lambda x: np.sum(x.astype(np.common_type(x, np.ones(1, np.float32))) ** 2))(
    ...     np.array([3.0], np.float16))
    array([6.], dtype=float16)
    """
    return _np.common_type(*[_np.empty(0, x.dtype) if _funcgrad_array(x) else x
                             for x in arrays])


def shares_memory(a, b, max_work=None):
    """``np.shares_memory`` for funcgrad's arrays: only a value shares memory with itself.

    Traced values (and GPU arrays) are immutable: no write can go through one of them, so
    whether two of them alias cannot be observed, and NumPy code asks in order to decide
    whether a write would show through the other.  The answer is False unless ``a`` and
    ``b`` are the very same object.

    >>> import numpy as np, funcgrad as fg
    >>> fg.grad(lambda x: np.sum(x * np.shares_memory(x, x) + x * np.shares_memory(x, x[1:])))(
    ...     np.ones(2))
    array([1., 1.])
    """
    return a is b


def may_share_memory(a, b, max_work=None):
    """``np.may_share_memory``, answered as :func:`shares_memory` (same reason).

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: x * np.may_share_memory(x, x + 0.0))(np.ones(2))
    array([0., 0.])
    """
    return a is b


# The array API's kinds of dtype, as NumPy 2's and JAX's isdtype name them (bool is not
# "numeric" there, unlike np.issubdtype(bool, np.number)'s cousins).
_KINDS = {"bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
          "real floating": "f", "complex floating": "c", "numeric": "iufc"}


def isdtype(dtype: Any, kind: Any) -> bool:
    """``isdtype(dtype, kind)`` (NumPy 2's, JAX's and the array API's): is ``dtype`` of
    ``kind`` -- a dtype, one of ``'bool'``, ``'signed integer'``, ``'unsigned integer'``,
    ``'integral'``, ``'real floating'``, ``'complex floating'``, ``'numeric'``, or a tuple
    of those (any of them).  Written here because NumPy 1.26 lacks it.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.isdtype(np.float32, "real floating"), fnp.isdtype(np.bool_, "numeric")
    (True, False)
    >>> fnp.isdtype(np.int8, ("complex floating", np.int8))
    True
    """
    dtype = _np.dtype(dtype)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str) and k in _KINDS:
            if dtype.kind in _KINDS[k]:
                return True
            continue
        if isinstance(k, str) or isinstance(k, (type, _np.dtype)):
            try:
                if dtype == _np.dtype(k):
                    return True
                continue
            except TypeError:
                pass
            raise ValueError(f"isdtype: unrecognised kind={k!r}; expected a dtype or one of "
                             f"{sorted(_KINDS)}")
        raise TypeError(f"isdtype: kind must be a dtype, a string naming a kind of dtype, "
                        f"or a tuple of those; got {k!r}")
    return False


ANSWERS = {_np.result_type: result_type, _np.can_cast: can_cast,
           _np.min_scalar_type: min_scalar_type, _np.common_type: common_type,
           _np.shares_memory: shares_memory, _np.may_share_memory: may_share_memory}
"""NumPy function -> the function answering it for funcgrad's arrays."""

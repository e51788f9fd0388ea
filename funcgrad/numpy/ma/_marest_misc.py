"""Selection, aliases, fill values and constructors of :mod:`funcgrad.numpy.ma` (NumPy's
``np.ma`` names), with data that may be traced."""
from typing import Any

import numpy as _np

from ...core import Tracer, concrete
from .. import ufuncs as _fu
from .._convert import stack as _stack
from ..building import diagflat as _diagflat, resize as _resize
from ..manipulation import hsplit as _hsplit
from ..building import compress as _compress
from ..indexing import take as _take
from ..manipulation import repeat as _repeat
from ._core import MaskedArray, filled, getdata, getmask, getmaskarray, make_mask, nomask
from ._reductions import all as _all, any as _any, max as _max, min as _min
from ._ufuncs import _wrap

__all__ = ["amin", "amax", "alltrue", "sometrue", "MAError", "bool_", "masked_singleton",
           "is_mask", "make_mask_none", "take", "repeat", "compress", "nonzero",
           "set_fill_value", "common_fill_value", "identity", "arange", "empty",
           "diagflat", "hsplit", "resize", "copy", "left_shift", "right_shift"]

MAError = _np.ma.MAError
bool_ = _np.bool_
masked_singleton = _np.ma.masked_singleton


def amin(a: Any, axis: Any = None, out: None = None, keepdims: bool = False) -> Any:
    """``np.ma.amin``: the smallest unmasked entry (along ``axis``), as :func:`min`.

    >>> from funcgrad.numpy import ma
    >>> float(ma.amin(ma.masked_array([1.0, 2.0, 3.0], mask=[1, 0, 0])))
    2.0
    """
    return _min(a, axis=axis, keepdims=keepdims)


def amax(a: Any, axis: Any = None, out: None = None, keepdims: bool = False) -> Any:
    """``np.ma.amax``: the largest unmasked entry (along ``axis``), as :func:`max`.

    >>> from funcgrad.numpy import ma
    >>> float(ma.amax(ma.masked_array([1.0, 2.0, 3.0], mask=[0, 0, 1])))
    2.0
    """
    return _max(a, axis=axis, keepdims=keepdims)


def alltrue(target: Any, axis: Any = 0, dtype: Any = None) -> Any:
    """``np.ma.alltrue`` (NumPy's ``logical_and.reduce``): whether every unmasked entry
    along ``axis`` (0 by default) is true; masked where all are masked.

    >>> from funcgrad.numpy import ma
    >>> ma.alltrue(ma.masked_array([[1.0, 0.0], [1.0, 1.0]], mask=[[0, 1], [0, 0]]))
    masked_array(data=[True, True],
                 mask=[False, False],
           fill_value=True)
    """
    return _all(target, axis=axis)


def sometrue(target: Any, axis: Any = 0, dtype: Any = None) -> Any:
    """``np.ma.sometrue`` (NumPy's ``logical_or.reduce``): whether any unmasked entry
    along ``axis`` (0 by default) is true; masked where all are masked.

    >>> from funcgrad.numpy import ma
    >>> ma.sometrue(ma.masked_array([[1.0, 0.0], [0.0, 0.0]], mask=[[0, 0], [0, 0]]))
    masked_array(data=[True, False],
                 mask=[False, False],
           fill_value=True)
    """
    return _any(target, axis=axis)


def is_mask(m: Any) -> bool:
    """``np.ma.is_mask``: whether ``m`` is a boolean NumPy array (a valid mask).

    >>> from funcgrad.numpy import ma
    >>> ma.is_mask(ma.make_mask([0, 1], shrink=False)), ma.is_mask([True])
    (True, False)
    """
    return _np.ma.is_mask(m)


def make_mask_none(newshape: Any, dtype: Any = None) -> Any:
    """``np.ma.make_mask_none``: a mask of ``newshape`` with nothing masked.

    >>> from funcgrad.numpy import ma
    >>> ma.make_mask_none((2,))
    array([False, False])
    """
    return _np.ma.make_mask_none(newshape, dtype)


def _as_masked(a):
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _result(out):
    """A 0-d result as NumPy's: the value, or ``masked``."""
    if out.ndim == 0:
        return _wrap(out._data, out._mask)
    return out


def take(a: Any, indices: Any, axis: Any = None, out: None = None,
         mode: str = "raise") -> Any:
    """``np.ma.take``: the entries at ``indices`` (along ``axis``), mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.take(ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0]), [2, 1])
    masked_array(data=[3.0, --],
                 mask=[False,  True],
           fill_value=1e+20)
    """
    return _result(_as_masked(a)._map(_take, indices, axis=axis, mode=mode))


def repeat(a: Any, repeats: Any, axis: Any = None) -> MaskedArray:
    """``np.ma.repeat``: each entry repeated ``repeats`` times, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.repeat(ma.masked_array([1.0, 2.0], mask=[0, 1]), 2).mask
    array([False, False,  True,  True])
    """
    return _as_masked(a)._map(_repeat, repeats, axis=axis)


def compress(condition: Any, a: Any, axis: Any = None, out: None = None) -> MaskedArray:
    """``np.ma.compress``: the entries (slices along ``axis``) where ``condition``,
    mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.compress([True, False], ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]]), axis=0)
    masked_array(data=[[1.0, --]],
                 mask=[[False,  True]],
           fill_value=1e+20)
    """
    return _as_masked(a)._map(lambda x: _compress(condition, x, axis=axis))


def nonzero(a: Any) -> tuple:
    """``np.ma.nonzero``: the indices of the unmasked nonzero entries (needs the values).

    >>> from funcgrad.numpy import ma
    >>> ma.nonzero(ma.masked_array([0.0, 2.0, 3.0], mask=[0, 0, 1]))
    (array([1]),)
    """
    return _np.nonzero(_np.asarray(concrete(filled(a, 0))))


def set_fill_value(a: Any, fill_value: Any) -> None:
    """``np.ma.set_fill_value``: set a masked array's fill value in place (nothing for
    other inputs, as NumPy's).

    >>> from funcgrad.numpy import ma
    >>> x = ma.masked_array([1.0, 2.0], mask=[0, 1])
    >>> ma.set_fill_value(x, -1.0)
    >>> x.filled()
    array([ 1., -1.])
    """
    if isinstance(a, (MaskedArray, _np.ma.MaskedArray)):
        a.fill_value = fill_value


def common_fill_value(a: Any, b: Any) -> Any:
    """``np.ma.common_fill_value``: the fill value of ``a`` and ``b`` if they share one,
    else None.

    >>> from funcgrad.numpy import ma
    >>> float(ma.common_fill_value(ma.masked_array([1.0]), ma.masked_array([2.0])))
    1e+20
    """
    t1, t2 = _as_masked(a).fill_value, _as_masked(b).fill_value
    return t1 if t1 == t2 else None


def identity(n: int, dtype: Any = None, *, fill_value: Any = None,
             hardmask: bool = False) -> MaskedArray:
    """``np.ma.identity``: the ``n`` by ``n`` identity, nothing masked.

    >>> from funcgrad.numpy import ma
    >>> ma.identity(2).filled()
    array([[1., 0.],
           [0., 1.]])
    """
    return MaskedArray(_np.identity(n, dtype), fill_value=fill_value, hard_mask=hardmask)


def arange(start_or_stop: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
           fill_value: Any = None, hardmask: bool = False) -> MaskedArray:
    """``np.ma.arange``: evenly spaced values, nothing masked.

    >>> from funcgrad.numpy import ma
    >>> ma.arange(3).filled()
    array([0, 1, 2])
    """
    data = _np.arange(start_or_stop, stop, step, dtype=dtype) if stop is not None else \
        _np.arange(start_or_stop, step=step, dtype=dtype)
    return MaskedArray(data, fill_value=fill_value, hard_mask=hardmask)


def empty(shape: Any, dtype: Any = None, order: str = "C", *, fill_value: Any = None,
          hardmask: bool = False) -> MaskedArray:
    """``np.ma.empty``: an array of ``shape`` whose values are not to be relied on
    (zeros here), nothing masked.

    >>> from funcgrad.numpy import ma
    >>> ma.empty((2,)).mask is ma.nomask
    True
    """
    return MaskedArray(_np.zeros(shape, float if dtype is None else dtype),
                       fill_value=fill_value, hard_mask=hardmask)



def _single(fn, npfn, a):
    """NumPy's ``_fromnxfunction_single``: ``fn`` on the data and on the full mask (a
    list result, as ``hsplit``'s, stacked into one array as NumPy's)."""
    data = fn(getdata(a))
    m = getmaskarray(a)
    mask = fn(m) if isinstance(m, Tracer) else npfn(m)
    if isinstance(data, list):
        data = _stack(data)
        mask = _stack(mask) if isinstance(m, Tracer) else _np.asarray(mask)
    return MaskedArray(data, mask=make_mask(mask, shrink=False))


def diagflat(v: Any, k: int = 0) -> MaskedArray:
    """``np.ma.diagflat``: a 2-d array with the flattened ``v`` on its ``k``-th diagonal,
    mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.diagflat(ma.masked_array([1.0, 2.0], mask=[0, 1])).mask
    array([[False, False],
           [False,  True]])
    """
    return _single(lambda x: _diagflat(x, k), lambda x: _np.diagflat(x, k), v)


def hsplit(ary: Any, indices_or_sections: Any) -> MaskedArray:
    """``np.ma.hsplit``: the column-wise pieces, stacked into one masked array (NumPy's
    ``np.ma.hsplit`` returns them so, not as a list).

    >>> from funcgrad.numpy import ma
    >>> ma.hsplit(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]]), 2).shape
    (2, 2, 1)
    """
    return _single(lambda x: _hsplit(x, indices_or_sections),
                   lambda x: _np.hsplit(x, indices_or_sections), ary)


def resize(x: Any, new_shape: Any) -> MaskedArray:
    """``np.ma.resize``: the entries repeated (or cut) to fill ``new_shape``, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.resize(ma.masked_array([1.0, 2.0], mask=[0, 1]), (3,)).mask
    array([False,  True, False])
    """
    m = getmask(x)
    if m is not nomask:
        m = _resize(m, new_shape) if isinstance(m, Tracer) else _np.resize(m, new_shape)
    return MaskedArray(_resize(getdata(x), new_shape), mask=m)


def copy(a: Any) -> MaskedArray:
    """``np.ma.copy``: a copy of ``a``, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.copy(ma.masked_array([1.0, 2.0], mask=[0, 1])).mask
    array([False,  True])
    """
    return _as_masked(a).copy()


def _shift(fn, a, n):
    m = getmask(a)
    if m is nomask:
        return MaskedArray(fn(filled(a), getdata(n)))
    return MaskedArray(fn(filled(a, 0), getdata(n)), mask=m)


def left_shift(a: Any, n: Any) -> MaskedArray:
    """``np.ma.left_shift``: the integer data shifted left by ``n`` bits (masked entries
    as zeros), mask kept.

    >>> from funcgrad.numpy import ma
    >>> ma.left_shift(ma.masked_array([1, 2], mask=[0, 1]), 2).filled(-1)
    array([ 4, -1])
    """
    return _shift(_fu.left_shift, a, n)


def right_shift(a: Any, n: Any) -> MaskedArray:
    """``np.ma.right_shift``: the integer data shifted right by ``n`` bits (masked
    entries as zeros), mask kept.

    >>> from funcgrad.numpy import ma
    >>> ma.right_shift(ma.masked_array([8, 2], mask=[0, 1]), 2).filled(-1)
    array([ 2, -1])
    """
    return _shift(_fu.right_shift, a, n)

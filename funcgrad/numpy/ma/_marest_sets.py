"""The set functions of :mod:`funcgrad.numpy.ma` (NumPy's ``np.ma.extras`` ``unique``,
``intersect1d``, ``union1d``, ``setdiff1d``, ``setxor1d``, ``in1d``, ``isin``), with data
that may be traced.

Which values come back, and which are masked, depends on the values: these compute
NumPy's own result on the data's values (known under ``grad``, ``jvp`` and ``vjp``; under
``vmap`` and ``jit`` a ConcretizationError says so), and then gather each unmasked value
from the inputs, so that it carries the derivative of the *first* unmasked input entry
equal to it -- funcgrad.numpy's convention for its set functions.  Masked results carry no
derivative.
"""
from typing import Any

import numpy as _np

from ...core import Tracer, concrete
from ..constructors import astype
from ..indexing import take
from ..manipulation import concatenate as _concatenate
from ..searching import where
from .._shapes import ravel
from ._core import MaskedArray, getdata, getmask, getmaskarray

__all__ = ["unique", "intersect1d", "union1d", "setdiff1d", "setxor1d", "in1d", "isin"]


def _numpy(a):
    """``a`` as NumPy's masked array, from its values (the mask kept)."""
    data = getdata(a)
    if isinstance(data, Tracer):
        data = concrete(data)  # (raises ConcretizationError under vmap/jit)
    m = getmask(a)
    if isinstance(m, Tracer):
        m = concrete(m)
    return _np.ma.MaskedArray(_np.asarray(data), mask=m)


def _gathered(result, *sources):
    """NumPy's masked ``result`` as a funcgrad one, its unmasked values gathered from the
    first equal unmasked entry of ``sources`` (flattened, in order)."""
    datas = [ravel(getdata(s)) for s in sources]
    if not any(isinstance(d, Tracer) for d in datas):
        return _from_numpy(result)
    flat = _concatenate(datas) if len(datas) > 1 else datas[0]
    values = _np.concatenate([_np.ravel(_np.asarray(concrete(d))) for d in datas])
    hidden = _np.concatenate([_np.ravel(_np.asarray(concrete(getmaskarray(s))))
                              for s in sources])
    rdata = _np.asarray(result.data)
    rmask = _np.ma.getmaskarray(result)
    index = _np.zeros(rdata.shape, _np.intp)
    for i, v in enumerate(rdata):
        if rmask[i]:
            continue
        same = (values == v) | (_np.isnan(values) & _np.isnan(v)) if values.dtype.kind in "fc" \
            else values == v
        index[i] = _np.flatnonzero(same & ~hidden)[0]
    data = astype(take(flat, index), rdata.dtype)
    if rmask.any():
        data = where(rmask, rdata, data)
    out = MaskedArray(data, mask=result.mask)
    out._fill_value = result._fill_value
    return out


def _from_numpy(result):
    if not isinstance(result, _np.ma.MaskedArray):
        return result
    out = MaskedArray(_np.asarray(result.data), mask=result.mask)
    out._fill_value = result._fill_value
    return out


def unique(ar1: Any, return_index: bool = False, return_inverse: bool = False) -> Any:
    """``np.ma.unique``: the sorted unique unmasked values, the masked entries as one
    masked value at the end (with ``return_index``/``return_inverse``: NumPy's indices).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.numpy import ma
    >>> ma.unique(ma.masked_array([3.0, 1.0, 3.0, 7.0], mask=[0, 0, 0, 1]))
    masked_array(data=[1.0, 3.0, --],
                 mask=[False, False,  True],
           fill_value=1e+20)
    >>> fg.grad(lambda d: ma.unique(ma.masked_array(d, mask=[0, 0, 0, 1])).sum())(np.ones(4) * [3, 1, 3, 7])
    array([1., 1., 0., 0.])
    """
    out = _np.ma.unique(_numpy(ar1), return_index, return_inverse)
    if isinstance(out, tuple):
        return (_gathered(out[0], ar1),) + tuple(out[1:])
    return _gathered(out, ar1)


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> MaskedArray:
    """``np.ma.intersect1d``: the sorted values in both arrays (masked entries count as
    one value).

    >>> from funcgrad.numpy import ma
    >>> ma.intersect1d(ma.masked_array([1.0, 3.0, 5.0], mask=[0, 0, 1]), [3.0, 5.0])
    masked_array(data=[3.0],
                 mask=[False],
           fill_value=1e+20)
    """
    out = _np.ma.intersect1d(_numpy(ar1), _numpy(ar2),
                             assume_unique)
    return _gathered(out, ar1, ar2)


def union1d(ar1: Any, ar2: Any) -> MaskedArray:
    """``np.ma.union1d``: the sorted unique values of both arrays.

    >>> from funcgrad.numpy import ma
    >>> ma.union1d(ma.masked_array([1.0, 3.0], mask=[0, 1]), [3.0, 5.0])
    masked_array(data=[1.0, 3.0, 5.0, --],
                 mask=[False, False, False,  True],
           fill_value=1e+20)
    """
    out = _np.ma.union1d(_numpy(ar1), _numpy(ar2))
    return _gathered(out, ar1, ar2)


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> MaskedArray:
    """``np.ma.setdiff1d``: the sorted unique values of ``ar1`` not in ``ar2``.

    >>> from funcgrad.numpy import ma
    >>> ma.setdiff1d(ma.masked_array([1.0, 3.0, 4.0], mask=[0, 0, 1]), [3.0])
    masked_array(data=[1.0, --],
                 mask=[False,  True],
           fill_value=1e+20)
    """
    out = _np.ma.setdiff1d(_numpy(ar1), _numpy(ar2), assume_unique)
    return _gathered(out, ar1)


def setxor1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> MaskedArray:
    """``np.ma.setxor1d``: the sorted unique values in exactly one of the arrays.

    >>> from funcgrad.numpy import ma
    >>> ma.setxor1d(ma.masked_array([1.0, 3.0], mask=[0, 0]), [3.0, 5.0])
    masked_array(data=[1., 5.],
                 mask=False,
           fill_value=1e+20)
    """
    out = _np.ma.setxor1d(_numpy(ar1), _numpy(ar2), assume_unique)
    return _gathered(out, ar1, ar2)


def in1d(ar1: Any, ar2: Any, assume_unique: bool = False, invert: bool = False) -> Any:
    """``np.ma.in1d``: for each entry of flattened ``ar1``, whether it is in ``ar2``
    (a masked entry is in ``ar2`` when ``ar2`` has one), as a boolean masked array.

    >>> from funcgrad.numpy import ma
    >>> ma.in1d(ma.masked_array([1.0, 3.0, 4.0], mask=[0, 0, 1]), [3.0]).filled()
    array([False,  True, False])
    """
    return _from_numpy(_np.ma.in1d(_numpy(ar1), _numpy(ar2),
                                   assume_unique, invert))


def isin(element: Any, test_elements: Any, assume_unique: bool = False,
         invert: bool = False) -> Any:
    """``np.ma.isin``: :func:`in1d` in the shape of ``element``.

    >>> from funcgrad.numpy import ma
    >>> ma.isin(ma.masked_array([[1.0, 3.0]], mask=[[0, 0]]), [3.0]).filled()
    array([[False,  True]])
    """
    return _from_numpy(_np.ma.isin(_numpy(element), _numpy(test_elements),
                                   assume_unique, invert))


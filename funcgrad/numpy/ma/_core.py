"""The masked array of :mod:`funcgrad.numpy.ma`: data that may be traced, and a mask.

NumPy's ``np.ma.MaskedArray`` is an ndarray subclass, which a traced value cannot be; this
one holds the data (a NumPy array or a traced one) and the mask beside it.  The mask is a
plain boolean NumPy array whenever its values are known (always under ``grad``, ``jvp``
and ``vjp``), or NumPy's ``nomask`` when nothing is masked; under ``vmap`` and ``jit`` a
mask computed from the data is a traced boolean array.  NumPy's ``masked`` and ``nomask``
are used as they are, so ``x[i] is np.ma.masked`` holds for both libraries' arrays.
"""
from typing import Any

import numpy as _np

from ...core import ConcretizationError, Tracer, concrete
from ..constructors import asarray, astype
from ..indexing import at, take
from ..reductions import sum as _sum
from ..searching import where
from .._shapes import broadcast_to, ravel, reshape, transpose
from .. import ufuncs as _u
from ...typing import Array, ArrayLike, DTypeLike

masked = _np.ma.masked
nomask = _np.ma.nomask
MaskError = _np.ma.MaskError
MaskType = _np.bool_


def _known(x):
    """``x`` as a plain NumPy array when its values are known (a boolean has no derivative
    to lose), else ``x`` itself (traced, under vmap or jit)."""
    if isinstance(x, Tracer):
        try:
            x = concrete(x)
        except ConcretizationError:
            return x
    return _np.asarray(x)


def make_mask(m: Any, shrink: bool = True) -> Any:
    """``np.ma.make_mask``: ``m`` as a boolean mask; ``nomask`` when it masks nothing and
    ``shrink`` (a traced mask, under vmap or jit, is kept whole).

    >>> from funcgrad.numpy import ma
    >>> ma.make_mask([0, 1, 0])
    array([False,  True, False])
    >>> ma.make_mask([0, 0]) is ma.nomask
    True
    """
    if m is nomask:
        return nomask
    m = _known(m)
    if isinstance(m, Tracer):
        return astype(m, bool)
    m = m.astype(bool)
    if shrink and not m.any():
        return nomask
    return m


def _full_mask(m, shape):
    """The mask as a full boolean array of ``shape``."""
    if m is nomask:
        return _np.zeros(shape, bool)
    if isinstance(m, Tracer):
        return broadcast_to(m, shape)
    return _np.broadcast_to(m, shape)


def mask_or(m1: Any, m2: Any, copy: bool = False, shrink: bool = True) -> Any:
    """``np.ma.mask_or``: the union of two masks (``nomask`` stands for none masked).

    >>> from funcgrad.numpy import ma
    >>> ma.mask_or([True, False], [False, False])
    array([ True, False])
    """
    if m1 is nomask or m1 is False:
        return make_mask(m2, shrink)
    if m2 is nomask or m2 is False:
        return make_mask(m1, shrink)
    return make_mask(_u.logical_or(_known(m1), _known(m2)), shrink)


def is_traced(x):
    return isinstance(x, Tracer)


def getmask(a: Any) -> Any:
    """``np.ma.getmask``: the mask of ``a``, ``nomask`` where none (plain arrays too).

    >>> from funcgrad.numpy import ma
    >>> ma.getmask(ma.masked_array([1.0, 2.0], mask=[0, 1]))
    array([False,  True])
    >>> ma.getmask([1.0, 2.0]) is ma.nomask
    True
    """
    if isinstance(a, MaskedArray):
        return a._mask
    if isinstance(a, _np.ma.MaskedArray):
        return _np.ma.getmask(a)
    return nomask


def getmaskarray(arr: Any) -> Any:
    """``np.ma.getmaskarray``: the mask as a full boolean array.

    >>> from funcgrad.numpy import ma
    >>> ma.getmaskarray(ma.masked_array([1.0, 2.0]))
    array([False, False])
    """
    return _full_mask(getmask(arr), _np.shape(getdata(arr)))


def getdata(a: Any, subok: bool = True) -> Array:
    """``np.ma.getdata``: the data of ``a`` under its mask (``a`` itself as an array if
    it is not masked); traced data stay traced.

    >>> from funcgrad.numpy import ma
    >>> ma.getdata(ma.masked_array([1.0, 2.0], mask=[0, 1]))
    array([1., 2.])
    """
    if isinstance(a, MaskedArray):
        return a._data
    if isinstance(a, _np.ma.MaskedArray):
        return _np.ma.getdata(a)
    return asarray(a)


def is_masked(x: Any) -> bool:
    """``np.ma.is_masked``: whether ``x`` has any masked entry (needs the mask's values).

    >>> from funcgrad.numpy import ma
    >>> ma.is_masked(ma.masked_array([1.0, 2.0], mask=[0, 1]))
    True
    """
    m = getmask(x)
    if m is nomask:
        return False
    return bool(_concrete_mask(m, "is_masked").any())


def _concrete_mask(m, what):
    m = _known(m)
    if isinstance(m, Tracer):
        raise ConcretizationError(
            f"funcgrad.numpy.ma.{what} needs the mask's values, which here (under vmap or "
            f"jit) were computed from traced data and are not known: build the mask outside "
            f"the transform, or use filled(...) and fnp.where instead")
    return m


def _fill_value(dtype, fill_value=None):
    """NumPy's fill value for ``dtype`` (its defaults: 1e20, 999999, True...), checked."""
    probe = _np.ma.MaskedArray(_np.zeros(0, dtype), fill_value=fill_value)
    return probe.fill_value


class MaskedArray:
    """``np.ma.MaskedArray(data, mask=nomask, dtype=None, copy=False, fill_value=None,
    keep_mask=True, hard_mask=False, shrink=True, ndmin=0)``: an array whose masked
    entries are left out of computations, with data that may be traced.

    Arithmetic, the ufuncs of :mod:`funcgrad.numpy.ma`, reductions and indexing work as
    NumPy's (the same values, masks and fill values); derivatives are with respect to the
    data, and masked entries get zero cotangent.  A NumPy ``np.ma`` array passed in keeps
    its mask.  Items are set functionally (``x[i] = ma.masked`` rebinds the data and mask
    of ``x``; the arrays it was made from are not written to).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.numpy import ma
    >>> x = ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    >>> x.sum()
    np.float64(4.0)
    >>> fg.grad(lambda d: ma.masked_array(d, mask=[0, 1, 0]).sum())(np.ones(3))
    array([1., 0., 1.])
    """

    __array_priority__ = 15
    _data: Any
    _mask: Any
    _fill_value: Any
    _hardmask: bool

    def __init__(self, data: ArrayLike = None, mask: Any = nomask, dtype: DTypeLike | None = None,
                 copy: bool = False, subok: bool = True, ndmin: int = 0,
                 fill_value: Any = None, keep_mask: bool = True, hard_mask: bool = False,
                 shrink: bool = True, order: Any = None):
        if data is None:
            raise TypeError("MaskedArray needs data: pass an array (or a list) of values")
        given = getmask(data) if keep_mask else nomask
        if fill_value is None and isinstance(data, (MaskedArray, _np.ma.MaskedArray)):
            fill_value = data._fill_value if isinstance(data, MaskedArray) else \
                data.fill_value
        values = getdata(data)
        values = asarray(values, dtype) if dtype is not None else asarray(values)
        while values.ndim < ndmin:
            values = reshape(values, (1,) + values.shape)
        self._data = values
        if mask is nomask or mask is None:
            m = given
            if m is not nomask and _np.shape(m) != values.shape:
                m = _full_mask(m, values.shape)
            if not shrink:
                m = _full_mask(m, values.shape)
        else:
            m = make_mask(mask, shrink=False)
            if _np.shape(m) != values.shape:
                if _np.size(m) == values.size:
                    m = reshape(m, values.shape) if is_traced(m) else m.reshape(values.shape)
                else:
                    m = _full_mask(m, values.shape) if _np.ndim(m) == 0 else None
                    if m is None:
                        raise MaskError(f"Mask and data not compatible: data size is "
                                        f"{values.size}, mask size is {_np.size(mask)}.")
            if given is not nomask:
                m = _u.logical_or(_known(m), _known(given))
            if not is_traced(m):
                m = _np.array(m, bool)
        self._mask = m
        self._fill_value = None if fill_value is None else _fill_value(values.dtype, fill_value)
        self._hardmask = bool(hard_mask)

    # --- what it holds -----------------------------------------------------------------------

    @property
    def data(self) -> Array:
        """The data, masked entries included (traced data stay traced)."""
        return self._data

    @property
    def mask(self) -> Any:
        """The mask: a boolean array, or ``nomask`` when nothing is masked."""
        return self._mask

    @mask.setter
    def mask(self, value):
        self._mask = _full_mask(make_mask(value, shrink=False), self.shape).copy() \
            if not is_traced(value) else broadcast_to(astype(value, bool), self.shape)

    @property
    def fill_value(self) -> Any:
        """The value masked entries take in :meth:`filled` (NumPy's defaults: 1e20 for
        floats, 999999 for integers, True for booleans)."""
        if self._fill_value is None:
            self._fill_value = _fill_value(self.dtype)
        return self._fill_value

    @fill_value.setter
    def fill_value(self, value):
        self._fill_value = _fill_value(self.dtype, value)

    @property
    def hardmask(self) -> bool:
        return self._hardmask

    shape = property(lambda self: self._data.shape)
    ndim = property(lambda self: self._data.ndim)
    size = property(lambda self: self._data.size)
    dtype = property(lambda self: self._data.dtype)
    T = property(lambda self: self.transpose())

    def __len__(self):
        return len(self._data)

    def _same_mask(self, data, mask):
        out = MaskedArray.__new__(MaskedArray)
        out._data, out._mask, out._hardmask = data, mask, self._hardmask
        out._fill_value = self._fill_value
        return out

    def filled(self, fill_value: Any = None) -> Array:
        """The data with masked entries replaced by ``fill_value`` (this array's
        :attr:`fill_value` by default).

        >>> from funcgrad.numpy import ma
        >>> ma.masked_array([1.0, 2.0], mask=[0, 1]).filled(0.0)
        array([1., 0.])
        """
        if self._mask is nomask:
            return self._data
        fill = self.fill_value if fill_value is None else _fill_value(self.dtype, fill_value)
        return where(self._mask, _np.asarray(fill, self.dtype), self._data)

    def compressed(self) -> Array:
        """The unmasked entries, as a flat array (needs the mask's values).

        >>> from funcgrad.numpy import ma
        >>> ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0]).compressed()
        array([1., 3.])
        """
        flat = ravel(self._data)
        if self._mask is nomask:
            return flat
        keep = ~_concrete_mask(self._mask, "compressed").ravel()
        return take(flat, _np.flatnonzero(keep))

    def count(self, axis: Any = None, keepdims: bool = False) -> Any:
        """The number of unmasked entries (along ``axis``).

        >>> from funcgrad.numpy import ma
        >>> ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0]).count()
        np.int64(2)
        """
        m = _full_mask(self._mask, self.shape)
        if is_traced(m):
            return _sum(_u.logical_not(m), axis=axis, keepdims=keepdims, dtype=_np.intp)
        return _np.sum(~m, axis=axis, keepdims=keepdims, dtype=_np.intp)

    # --- shape -------------------------------------------------------------------------------

    def _map(self, fn, *args, **kwargs):
        m = self._mask
        if m is not nomask:
            m = fn(m, *args, **kwargs) if is_traced(m) else _np.asarray(
                fn(m, *args, **kwargs))
        return self._same_mask(fn(self._data, *args, **kwargs), m)

    def reshape(self, *shape: Any, order: str = "C") -> "MaskedArray":
        """The same entries in a new shape, mask and all.

        >>> from funcgrad.numpy import ma
        >>> ma.masked_array([1.0, 2.0], mask=[0, 1]).reshape(2, 1).mask
        array([[False],
               [ True]])
        """
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = tuple(shape[0])
        return self._map(reshape, shape, order=order)

    def ravel(self, order: str = "C") -> "MaskedArray":
        """The entries as a flat masked array."""
        return self._map(ravel, order=order)

    flatten = ravel

    def transpose(self, *axes: Any) -> "MaskedArray":
        """The axes reversed (or permuted as ``axes`` says), mask and all."""
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            axes = axes[0]
        return self._map(transpose, axes or None)

    def __getitem__(self, key):
        key = _plain_key(key)
        data = self._data[key]
        m = self._mask
        if m is not nomask:
            m = m[key]
            if not is_traced(m) and _np.ndim(m) == 0:
                return masked if m else data
        if _np.ndim(data) == 0:
            return data
        return self._same_mask(data, m)

    def __setitem__(self, key, value):
        key = _plain_key(key)
        m = _full_mask(self._mask, self.shape)
        if value is masked:
            self._mask = _set(m, key, True)
            return
        vm = getmask(value)
        data = at(self._data)[key].set(astype(getdata(value), self.dtype))
        if self._hardmask:  # masked entries keep their data and stay masked
            self._data = where(m, self._data, data) if self._mask is not nomask else data
            return
        self._data = data
        self._mask = make_mask(_set(m, key, False if vm is nomask else vm), shrink=False)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # --- conversions -------------------------------------------------------------------------

    def __array__(self, dtype=None, copy=None):
        return _np.asarray(self._data, dtype=dtype)  # (a traced value says why it cannot)

    def __float__(self):
        if self._mask is not nomask and self.size == 1 and _np.all(_known(self._mask)):
            raise MaskError("Cannot convert masked element to a Python float.")
        return float(self._data)

    def __bool__(self):
        return bool(self._data)

    def tolist(self, fill_value: Any = None) -> Any:
        """The values as nested lists, ``None`` where masked (as NumPy's)."""
        return _np.ma.MaskedArray(_np.asarray(self._data), mask=_known(self._mask)).tolist(
            fill_value)

    def __repr__(self):
        data = self._data
        if is_traced(data) or is_traced(self._mask):
            return f"MaskedArray(data={data!r}, mask={self._mask!r})"
        return repr(_np.ma.MaskedArray(data, mask=self._mask,
                                       fill_value=self._fill_value))

    def __str__(self):
        if is_traced(self._data) or is_traced(self._mask):
            return repr(self)
        return str(_np.ma.MaskedArray(self._data, mask=self._mask))

    def __hash__(self):
        raise TypeError("unhashable type: 'MaskedArray'")


def _plain_key(key):
    """An index as NumPy takes it (a masked index uses its data, as NumPy's does)."""
    if isinstance(key, tuple):
        return tuple(_plain_key(k) for k in key)
    if isinstance(key, (MaskedArray, _np.ma.MaskedArray)):
        return getdata(key)
    return key


def _set(m, key, value):
    if is_traced(m) or is_traced(value):
        return at(m)[key].set(value)
    m = _np.array(m, bool)
    m[key] = _known(value)
    return m


def asdata(x):
    """``x``'s data as an operand (a Python number stays a number)."""
    if isinstance(x, (MaskedArray, _np.ma.MaskedArray)):
        return getdata(x)
    if isinstance(x, (int, float, complex, Tracer, _np.ndarray, _np.generic)):
        return x
    return asarray(x)


def safe(x, m, value):
    """``x`` with ``value`` where ``m``: the input an operation sees at masked entries, so
    that their zero cotangent never meets an infinite slope (the double-where idiom)."""
    if m is nomask:
        return x
    dtype = _np.result_type(x)
    return where(m, _np.asarray(value).astype(dtype), x)


# (np.ma.masked_array is the class itself, np.ma.MaskedArray)
masked_array = MaskedArray


def array(data: ArrayLike, dtype: DTypeLike | None = None, copy: bool = False,
          order: Any = None, mask: Any = nomask, fill_value: Any = None,
          keep_mask: bool = True, hard_mask: bool = False, shrink: bool = True,
          subok: bool = True, ndmin: int = 0) -> MaskedArray:
    """``np.ma.array``: a :class:`MaskedArray` of ``data`` (NumPy's argument order).

    >>> from funcgrad.numpy import ma
    >>> ma.array([1.0, 2.0, 3.0], mask=[1, 0, 0]).max()
    np.float64(3.0)
    """
    return MaskedArray(data, mask=mask, dtype=dtype, copy=copy, fill_value=fill_value,
                       keep_mask=keep_mask, hard_mask=hard_mask, shrink=shrink, ndmin=ndmin)


def filled(a: Any, fill_value: Any = None) -> Array:
    """``np.ma.filled``: ``a``'s data with masked entries replaced by ``fill_value``.

    >>> from funcgrad.numpy import ma
    >>> ma.filled(ma.masked_array([1.0, 2.0], mask=[0, 1]), -1.0)
    array([ 1., -1.])
    """
    if isinstance(a, MaskedArray):
        return a.filled(fill_value)
    if isinstance(a, _np.ma.MaskedArray):
        return MaskedArray(a).filled(fill_value)
    return asarray(a)


def compressed(x: Any) -> Array:
    """``np.ma.compressed``: the unmasked entries of ``x``, flat.

    >>> from funcgrad.numpy import ma
    >>> ma.compressed(ma.masked_array([1.0, 2.0], mask=[0, 1]))
    array([1.])
    """
    return MaskedArray(x).compressed()


def count(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """``np.ma.count``: the number of unmasked entries (along ``axis``).

    >>> from funcgrad.numpy import ma
    >>> ma.count(ma.masked_array([[1.0, 2.0]], mask=[[0, 1]]), axis=1)
    array([1])
    """
    return MaskedArray(a).count(axis, keepdims)

"""The rest of NumPy's ``np.ma.MaskedArray`` methods and properties for funcgrad's
:class:`~funcgrad.numpy.ma.MaskedArray`, attached by :func:`attach_array_methods`.

Those that move or combine the data carry its derivatives: ``real``/``imag``/``conj``,
``fill``, ``flat`` (reading and setting), ``choose``, ``compress``, ``take``, ``repeat``,
``put``, ``partition``, ``mT``, ``view()``.  Those whose result is integer positions
(``argpartition``, ``searchsorted``, ``nonzero``) need the data's values (so not under
vmap/jit) and have no derivative to lose.  Those about bytes, memory and structured records
(``tobytes``, ``byteswap``, ``toflex``, ``ctypes``, ``flags``, ``getfield``, ``dumps``...)
are NumPy's own on concrete data and refuse traced data, naming why: a derivative cannot
follow a value through its bytes.  ``item`` is the array's own: on traced data it is the
explicit way to drop a derivative, as on funcgrad's arrays.
"""
import pickle
import warnings

import numpy as _np

from ...core import ConcretizationError, Tracer
from ..building import choose as _choose
from ..constructors import astype
from ..indexing import at, take_along_axis
from ..manipulation import reshape, swapaxes
from .._shapes import broadcast_to, ravel
from .. import ufuncs as _u
from ._core import MaskedArray, _concrete_mask, _fill_value, _known, getdata, getmask, \
    getmaskarray, masked, nomask
from ._marest_misc import compress as _compress, nonzero as _nonzero, repeat as _repeat, \
    take as _take
from ._marest_names import put as _put, refuse_traced

__all__ = ["attach_array_methods"]


def _values(self, what):
    """The data's values, for a result of integer positions (no derivative to lose)."""
    data = _known(self._data)
    if isinstance(data, Tracer):
        raise ConcretizationError(
            f"MaskedArray.{what} depends on the data's values, which under vmap or jit are "
            f"a batch or not known yet: call it outside the transform.")
    return data


def _twin(self, what, why):
    """NumPy's ``np.ma.MaskedArray`` with this one's (concrete) data, mask and fill value."""
    data = refuse_traced(self._data, f"MaskedArray.{what}", why)
    mask = refuse_traced(_known(self._mask), f"MaskedArray.{what}", "its mask is traced")
    return _np.ma.MaskedArray(data, mask=mask, fill_value=self._fill_value)


def _ours(result):
    """A NumPy masked array result as funcgrad's (other results as they are)."""
    if isinstance(result, _np.ma.MaskedArray) and result is not masked:
        return MaskedArray(result.data, mask=result._mask, fill_value=result._fill_value)
    return result


_BYTES = "it reads the data's bytes"
_MEMORY = "it describes the memory the data live in"


def _byte_method(name, why=_BYTES, wrap=True):
    def method(self, *args, **kwargs):
        out = getattr(_twin(self, name, why), name)(*args, **kwargs)
        return _ours(out) if wrap else out
    method.__name__ = name
    method.__doc__ = (f"NumPy's ``MaskedArray.{name}`` on the concrete data ({why}: traced "
                      f"data is refused, having no derivative there).\n\n"
                      f"    >>> from funcgrad.numpy import ma\n"
                      f"    >>> callable(ma.masked_array([1.0]).{name})\n    True\n")
    return method


def _memory_property(name):
    def get(self):
        return getattr(refuse_traced(self._data, f"MaskedArray.{name}", _MEMORY), name)
    return property(get, doc=f"NumPy's ``{name}`` of the concrete data ({_MEMORY}).")


# --- positions ---------------------------------------------------------------------------------

def argpartition(self, kth, axis=-1, kind="introselect", order=None):
    """The indices that partition the data (NumPy's ``argpartition``, which ignores the
    mask and warns so), masked as this array; integer positions, no derivative."""
    twin = _np.ma.MaskedArray(_values(self, "argpartition"), mask=_known(self._mask),
                              fill_value=self._fill_value)
    return _ours(twin.argpartition(kth, axis=axis, kind=kind, order=order))


def partition(self, kth, axis=-1, kind="introselect", order=None):
    """Partition the data in place around ``kth`` (NumPy's, which ignores the mask and
    warns so; the mask stays where it was); the data's derivatives move with them."""
    warnings.warn(f"Warning: 'partition' will ignore the 'mask' of the "
                  f"{type(self).__name__}.", stacklevel=2)
    positions = _np.argpartition(_values(self, "partition"), kth, axis, kind, order)
    self._data = take_along_axis(self._data, positions, axis=axis)


def searchsorted(self, v, side="left", sorter=None):
    """Where ``v`` would go in the (sorted) data, mask ignored as NumPy's; integer
    positions, no derivative."""
    twin = _np.ma.MaskedArray(_values(self, "searchsorted"), mask=_known(self._mask))
    return _ours(twin.searchsorted(_known(getdata(v)), side=side, sorter=sorter))


# --- the data's parts and copies -----------------------------------------------------------------

def _part(fn):
    def get(self):
        out = self._same_mask(fn(self._data), self._mask)
        out._fill_value = None  # (the part's own dtype's default, as NumPy's)
        return out
    return get


_real, _imag = _part(_u.real), _part(_u.imag)
real = property(_real, doc="The real part, masked as this array (differentiable).")
imag = property(_imag, doc="The imaginary part, masked as this array (differentiable).")


def get_real(self):
    """The real part, masked as this array (differentiable)."""
    return _real(self)


def get_imag(self):
    """The imaginary part, masked as this array (differentiable)."""
    return _imag(self)


def conjugate(self):
    """The complex conjugate of all the data (masked entries too, as NumPy's ndarray
    method), masked as this array (differentiable)."""
    return self._same_mask(_u.conjugate(self._data), self._mask)


def fill(self, value):
    """Set every entry's data to ``value`` (cast to the dtype), in place; the mask is
    kept.  A traced ``value`` carries its derivative into every entry."""
    value = getdata(value)
    if isinstance(value, Tracer):
        self._data = broadcast_to(astype(value, self.dtype), self.shape)
    else:
        self._data = _np.full(self.shape, value, self.dtype)


def view(self, dtype=None, type=None, fill_value=None):  # noqa: A002 - NumPy's names
    """A new masked array of the same data and mask (``view()``), or the data themselves
    (``view(np.ndarray)``); another dtype reinterprets the bytes (concrete data only)."""
    if dtype is not None and type is None and isinstance(dtype, _builtin_type) and \
            issubclass(dtype, _np.ndarray):
        dtype, type = None, dtype
    if type is not None and not issubclass(type, _np.ma.MaskedArray):
        if dtype is not None and _np.dtype(dtype) != self.dtype:
            return refuse_traced(self._data, "view(dtype)", _BYTES).view(dtype, type)
        return self._data if type is _np.ndarray else _np.asarray(self._data).view(type)
    if dtype is None or _np.dtype(dtype) == self.dtype:
        out = self._same_mask(self._data, self._mask)
    else:
        out = _ours(_twin(self, "view", _BYTES).view(dtype))
    if fill_value is not None:
        out.fill_value = fill_value
    return out


_builtin_type = type


def mT(self):  # noqa: N802 - NumPy's name
    if self.ndim < 2:
        raise ValueError("matrix transpose with ndim < 2 is undefined")
    return _own_fill(self._map(swapaxes, -1, -2))


# --- selecting ------------------------------------------------------------------------------------

def choose(self, choices, out=None, mode="raise"):
    """Entry ``i`` from ``choices[self[i]]`` (this array holds the indices), masked as
    this array, as NumPy's ndarray method; differentiable in the choices."""
    if out is not None:
        raise TypeError("MaskedArray.choose: out= is not supported; use the returned array")
    data = _choose(_known(self._data), [getdata(c) for c in choices], mode=mode)
    return MaskedArray(data, mask=self._mask)


def compress(self, condition, axis=None, out=None):
    """The entries (slices along ``axis``) where ``condition``, mask and all."""
    return _compress(condition, self, axis=axis)


def _own_fill(out):
    """NumPy's result of a method through the plain data: the dtype's fill value."""
    if isinstance(out, MaskedArray):
        out._fill_value = None
    return out


def take(self, indices, axis=None, out=None, mode="raise"):
    """The entries at ``indices`` (along ``axis``), mask and all."""
    return _own_fill(_take(self, indices, axis=axis, mode=mode))


def repeat(self, repeats, axis=None):
    """Each entry repeated ``repeats`` times, mask and all."""
    return _repeat(self, repeats, axis=axis)


def nonzero(self):
    """The indices of the unmasked nonzero entries (needs the values)."""
    return _nonzero(self)


def put(self, indices, values, mode="raise"):
    """Set the flat entries ``indices`` to ``values``, in place (see ``ma.put``)."""
    _put(self, indices, values, mode)


def resize(self, newshape, refcheck=True, order=False):
    """Refused, as NumPy's: a masked array does not own its data."""
    raise ValueError("A masked array does not own its data and therefore cannot be "
                     "resized.\nUse the numpy.ma.resize function instead.")


def item(self, *args):
    """The entry as a Python scalar, as the data's own ``item`` (masked entries give
    their data, as NumPy's); on traced data it drops the derivative, by request."""
    return self._data.item(*args)


class _FlatIterator:
    """``x.flat``: the entries in flat order; indexing reads them (masked ones as
    ``masked``) and sets them (in place, by rebinding the array's data and mask)."""

    def __init__(self, array):
        self._array = array

    def __len__(self):
        return self._array.size

    def __getitem__(self, key):
        a = self._array
        data = ravel(a._data)[key]
        m = a._mask
        if m is not nomask:
            m = _known(ravel(m)[key]) if isinstance(m, Tracer) else _np.ravel(m)[key]
            if not isinstance(m, Tracer) and _np.ndim(m) == 0:
                return masked if m else data
        if _np.ndim(data) == 0:
            return data
        out = MaskedArray.__new__(MaskedArray)
        out._data, out._mask, out._fill_value, out._hardmask = data, m, None, False
        return out

    def __setitem__(self, key, value):
        a = self._array
        flat = at(ravel(a._data))[key].set(astype(getdata(value), a.dtype))
        a._data = reshape(flat, a.shape)
        if a._mask is not nomask:
            m = _np.array(_np.ravel(_concrete_mask(a._mask, "flat")))
            m[key] = _concrete_mask(getmaskarray(value), "flat") if \
                getmask(value) is not nomask else False
            a._mask = m.reshape(a.shape)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


# --- masks, fill values, devices ------------------------------------------------------------------

def shrink_mask(self):
    """Replace a mask that masks nothing by ``nomask``, in place; returns the array."""
    m = _known(self._mask)
    if m is not nomask and not isinstance(m, Tracer) and not m.any():
        self._mask = nomask
    return self


def unshare_mask(self):
    """Give the array its own copy of the mask; returns the array."""
    if isinstance(self._mask, _np.ndarray) and self._mask is not nomask:
        self._mask = self._mask.copy()
    return self


def get_fill_value(self):
    """The fill value (NumPy's default for the dtype unless set)."""
    return self.fill_value


def set_fill_value(self, value=None):
    """Set the fill value (``None``: the dtype's default)."""
    self._fill_value = _fill_value(self.dtype, value)


def to_device(self, device, /, *, stream=None):
    """The array on ``device``: only ``'cpu'``, where it is (as NumPy's)."""
    if device != "cpu":
        raise ValueError(f"Unsupported device {device!r}: funcgrad's masked arrays are on "
                         f"'cpu' (use fg.device_put on the data for a GPU)")
    return self


def ids(self):
    """The memory addresses of the data and the mask (``id(nomask)`` for no mask)."""
    data = refuse_traced(self._data, "MaskedArray.ids", _MEMORY)
    m = self._mask
    if m is nomask:
        return (data.ctypes.data, id(nomask))
    return (data.ctypes.data, refuse_traced(m, "MaskedArray.ids", _MEMORY).ctypes.data)


def iscontiguous(self):
    """Whether the data are contiguous in memory (NumPy's ``flags['CONTIGUOUS']``)."""
    return refuse_traced(self._data, "MaskedArray.iscontiguous", _MEMORY).flags["CONTIGUOUS"]


def setfield(self, val, dtype, offset=0):
    """Write ``val`` into a field of the data's bytes (NumPy's ``setfield``; the data are
    rebound to a written copy); concrete data and values only."""
    data = _np.array(refuse_traced(self._data, "MaskedArray.setfield", _BYTES))
    data.setfield(refuse_traced(getdata(val), "MaskedArray.setfield", _BYTES), dtype, offset)
    self._data = data


def setflags(self, write=None, align=None, uic=None):
    """Set the data's flags (NumPy's ``setflags``, on a view of the concrete data)."""
    data = refuse_traced(self._data, "MaskedArray.setflags", _MEMORY).view()
    data.setflags(write, align, uic)
    self._data = data


def dumps(self):
    """The pickle of NumPy's masked array of these values (``pickle.loads`` gives NumPy's
    ``np.ma.MaskedArray``)."""
    return pickle.dumps(_twin(self, "dumps", _BYTES), protocol=2)


def dump(self, file):
    """Pickle NumPy's masked array of these values to ``file`` (a path or an open file)."""
    _twin(self, "dump", _BYTES).dump(file)


_METHODS = {
    "argpartition": argpartition, "partition": partition, "searchsorted": searchsorted,
    "get_real": get_real, "get_imag": get_imag, "conj": conjugate, "conjugate": conjugate,
    "fill": fill, "view": view, "choose": choose, "compress": compress, "take": take,
    "repeat": repeat, "nonzero": nonzero, "put": put, "resize": resize, "item": item,
    "shrink_mask": shrink_mask, "unshare_mask": unshare_mask,
    "get_fill_value": get_fill_value, "set_fill_value": set_fill_value,
    "to_device": to_device, "ids": ids, "iscontiguous": iscontiguous, "setfield": setfield,
    "setflags": setflags, "dumps": dumps, "dump": dump,
    "byteswap": _byte_method("byteswap"), "getfield": _byte_method("getfield"),
    "tobytes": _byte_method("tobytes", wrap=False), "tofile": _byte_method("tofile"),
    "toflex": _byte_method("toflex", "it builds structured records of the data"),
    "torecords": _byte_method("torecords", "it builds structured records of the data"),
}
_PROPERTIES = {
    "real": real, "imag": imag,
    "mT": property(mT, doc="The last two axes swapped, mask and all."),
    "flat": property(_FlatIterator, doc="The entries in flat order (an iterator that "
                                        "indexes and sets)."),
    "base": property(lambda self: self._data, doc="The array whose data this one holds."),
    "baseclass": property(lambda self: _np.ndarray, doc="The class of the data: ndarray."),
    "device": property(lambda self: "cpu", doc="Where the array is: 'cpu'."),
    "itemsize": property(lambda self: self.dtype.itemsize, doc="Bytes per entry."),
    "nbytes": property(lambda self: self.size * self.dtype.itemsize,
                       doc="Bytes of all the entries."),
    "recordmask": property(lambda self: self._mask, doc="The mask (per record: for a "
                                                        "plain dtype, the mask itself)."),
    "sharedmask": property(lambda self: False, doc="False: funcgrad's masks are never "
                                                   "written in place, so none is shared."),
    "ctypes": _memory_property("ctypes"), "flags": _memory_property("flags"),
    "strides": _memory_property("strides"),
}


def attach_array_methods(cls: type) -> None:
    """Give ``cls`` (funcgrad's MaskedArray) the methods and properties above."""
    for name, method in _METHODS.items():
        setattr(cls, name, method)
    for name, prop in _PROPERTIES.items():
        setattr(cls, name, prop)

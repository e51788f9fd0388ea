"""ndarray's memory-layout attributes on traced arrays: ``flags``, ``strides``, ``base``,
``flat``, ``device``, ``view()``, ``setflags()``, and clear refusals for ``data``,
``ctypes`` and the byte-level methods (``tobytes``, ``byteswap``, ``getfield``...).

While a transform runs, a traced array has no memory of its own; NumPy code that asks
about its layout gets the answers for the array it stands for, laid out as NumPy lays out
a new result: C-contiguous, owning its data, no ``base``.  It is not writeable (traced
arrays are immutable: ``x = x.at[i].set(v)``).  ``x.flat`` reads (iteration, indexing,
``len``) and keeps derivatives; it cannot be written through.
"""
import builtins

import numpy as np

from . import manipulation

__all__ = ["TracedFlags", "TracedFlatIter", "attach_layout"]

_IMMUTABLE = ("arrays traced by funcgrad are immutable; write x = x.at[i].set(v) (for a "
              "flat index i: x = x.ravel().at[i].set(v).reshape(x.shape))")


def c_strides(shape, itemsize):
    """The strides NumPy gives a new C-contiguous array (all zero when it is empty)."""
    if any(d == 0 for d in shape):
        return (0,) * len(shape)
    strides, step = [], itemsize
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


class TracedFlags:
    """``x.flags`` of a traced array: NumPy's flags of a new C-contiguous array, read-only.

    >>> import numpy as np, funcgrad as fg
    >>> def f(x):
    ...     assert x.flags.c_contiguous and x.flags["C"] and not x.flags.writeable
    ...     return np.sum(x ** 2)
    >>> fg.grad(f)(np.array([1.0, 2.0]))
    array([2., 4.])
    """

    __slots__ = ("_shape",)
    _NAMES = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
              "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
              "OWNDATA": "owndata", "O": "owndata", "WRITEABLE": "writeable", "W": "writeable",
              "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy",
              "X": "writebackifcopy", "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved",
              "B": "behaved", "CARRAY": "carray", "CA": "carray", "FARRAY": "farray",
              "FA": "farray"}
    c_contiguous = forc = owndata = aligned = True
    writeable = writebackifcopy = fnc = behaved = carray = farray = False

    def __init__(self, shape):
        object.__setattr__(self, "_shape", tuple(shape))

    @property
    def f_contiguous(self):  # (NumPy's: at most one axis longer than 1, or empty)
        return 0 in self._shape or sum(d > 1 for d in self._shape) <= 1

    def __getitem__(self, key):
        try:
            return getattr(self, self._NAMES[str(key).upper()])
        except KeyError:
            raise KeyError(f"Unknown flag {key!r}; NumPy's flags are "
                           f"{sorted(set(self._NAMES) - set('COWAXBF'))}") from None

    def __setattr__(self, name, value):
        if name == "writeable" and not value:
            return  # (already read-only: code that protects its arrays runs unchanged)
        raise ValueError(f"cannot set flag {name!r} of a traced array: {_IMMUTABLE}")

    def __setitem__(self, key, value):
        self.__setattr__(self._NAMES.get(str(key).upper(), str(key)), value)

    def __repr__(self):
        return "".join(f"  {name} : {self[name]}\n" for name in
                       ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED",
                        "WRITEBACKIFCOPY"))


class TracedFlatIter:
    """``x.flat`` of a traced array: its elements in C order, read by iteration or
    indexing (derivatives kept); writing through it raises, naming ``.at``.

    >>> import numpy as np, funcgrad as fg
    >>> fg.grad(lambda x: x.flat[3] * sum(x.flat))(np.arange(4.0).reshape(2, 2))
    array([[3., 3.],
           [3., 9.]])
    """

    __slots__ = ("base",)

    def __init__(self, base):
        self.base = base

    def __getitem__(self, key):
        return manipulation.ravel(self.base)[key]

    def __setitem__(self, key, value):
        raise TypeError(f"x.flat[...] = v writes into x, and {_IMMUTABLE}")

    def __iter__(self):
        return iter(manipulation.ravel(self.base))

    def __len__(self):
        return self.base.size

    def copy(self):
        """``x.flat.copy()``: the elements as a 1-d array (``x.ravel()``)."""
        return manipulation.ravel(self.base)

    def __array__(self, dtype=None, copy=None):
        return manipulation.ravel(self.base).__array__(dtype)


def _no_buffer(name):
    def refuse(self):
        raise AttributeError(
            f"x.{name}: a traced array has no memory buffer while a transform runs (its "
            f"values are computed, or not known yet). Use x itself with NumPy or "
            f"funcgrad.numpy functions, or read the buffer of the plain array outside the "
            f"transform (np.asarray(fg.stop_gradient(x)) where its value is concrete).")
    return property(refuse)


def _set_flat(self, value):
    raise TypeError(f"x.flat = v writes into x, and {_IMMUTABLE}")


builtins_type = builtins.type  # (view's parameter is named type, as NumPy's)


def _view(self, dtype=None, type=None):
    """``x.view()``: a traced array is immutable, so a view of it is the array itself; a
    view as another dtype (its bytes read as other numbers) has no derivative."""
    if type is not None and type is not np.ndarray:
        raise TypeError(f"x.view(type={type!r}): a traced array cannot become an ndarray "
                        f"subclass while a transform runs; wrap the function's result instead")
    if isinstance(dtype, builtins_type) and issubclass(dtype, np.ndarray):  # (x.view(cls))
        return _view(self, None, dtype)
    if dtype is None or np.dtype(dtype) == np.dtype(self.dtype):
        return self
    raise TypeError(
        f"x.view({np.dtype(dtype)}) reads the bytes of a traced {np.dtype(self.dtype)} array "
        f"as other numbers, which has no derivative (and a traced array has no bytes while a "
        f"transform runs). Convert the values instead, x.astype({np.dtype(dtype)}), or view "
        f"the plain array outside the transform.")


def _setflags(self, write=None, align=None, uic=None):
    """``x.setflags(write=False)`` is what a traced array is already; nothing else is
    possible on it."""
    if write:
        raise ValueError(f"x.setflags(write=True): {_IMMUTABLE}")
    if uic:
        raise ValueError("x.setflags(uic=True): a traced array has no WRITEBACKIFCOPY base")


def _to_device(self, device, /, *, stream=None):
    """``x.to_device("cpu")``: the array itself (a traced NumPy array is on the CPU)."""
    if device != "cpu":
        raise ValueError(f"x.to_device({device!r}): NumPy arrays live on 'cpu' only; use "
                         f"funcgrad's device arrays (fg.device_put) for a GPU")
    if stream is not None:
        raise ValueError("x.to_device(..., stream=...): NumPy arrays have no streams")
    return self


def _no_bytes(name, instead):
    def refuse(self, *args, **kwargs):
        raise TypeError(
            f"x.{name}(...): a traced array has no bytes while a transform runs (its values "
            f"are computed, or not known yet), and bytes carry no derivative. {instead}")
    refuse.__name__ = name
    return refuse


_BYTE_METHODS = {
    "tobytes": "Return the value from the function and call .tobytes() on the result.",
    "tofile": "Return the value from the function and save the result.",
    "dump": "Return the value from the function and pickle the result.",
    "dumps": "Return the value from the function and pickle the result.",
    "byteswap": "Swap the bytes of the plain input before the transform.",
    "getfield": "Convert the values instead (x.astype(dtype)) or read the field of the "
                "plain array outside the transform.",
    "setfield": _IMMUTABLE[0].upper() + _IMMUTABLE[1:] + ".",
}


def attach_layout(cls):
    """Give the traced-array class ``cls`` the layout attributes NumPy code reads."""
    cls.device = property(lambda self: "cpu")
    cls.to_device = _to_device
    cls.view = _view
    cls.setflags = _setflags
    for name, instead in _BYTE_METHODS.items():
        setattr(cls, name, _no_bytes(name, instead))
    cls.flags = property(lambda self: TracedFlags(self.shape))
    cls.strides = property(lambda self: c_strides(self.shape, np.dtype(self.dtype).itemsize))
    cls.base = property(lambda self: None)
    cls.flat = property(TracedFlatIter, _set_flat)
    cls.data = _no_buffer("data")
    cls.ctypes = _no_buffer("ctypes")

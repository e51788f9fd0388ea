"""PyTorch's dtype names and its default dtype: ``fg.float32``, ``fg.double``...,
``fg.set_default_dtype`` / ``fg.get_default_dtype``.

Decisions:

* **The dtype names are NumPy's scalar types** (``fg.float32 is np.float32``), so
  ``t.dtype == fg.float32`` holds and they work wherever NumPy takes a dtype.
* **Default dtype float32**, as PyTorch's: Python floats given to ``fg.tensor``,
  ``fg.Tensor`` and the factories (``fg.randn``, ``fg.zeros``, ``fg.arange(0., 1.)``...)
  become float32 (Python complex numbers complex64); Python ints int64, bools bool.
  NumPy arrays and NumPy scalars keep their dtype (as ``torch.tensor(array)`` and
  ``torch.from_numpy`` do), so ``fg.tensor(np.array([1.0]))`` is float64.
  The functional transforms (``fg.grad``...) never consult it: plain arrays in, plain
  arrays of the same dtype out.
* **Per thread, not per process.**  PyTorch's default dtype is process-wide; funcgrad
  keeps no global mutable state (its design allows thread-local modes only), so
  ``fg.set_default_dtype`` changes the calling thread's default.  A new thread starts
  with float32, whatever its parent set: call ``fg.set_default_dtype`` in the thread
  (or pass ``dtype=``) where another default is wanted.

>>> import funcgrad as fg
>>> fg.get_default_dtype() == fg.float32, fg.tensor([2.0, 3.0]).dtype == fg.float32
(True, True)
"""
import threading
from typing import Any

import numpy as np

__all__ = ["DTYPES", "set_default_dtype", "get_default_dtype", "default_float", "floating",
           "python_data_dtype", "quiet_dtypes"]

# PyTorch's dtype names, as NumPy's scalar types.
DTYPES = {"float32": np.float32, "float": np.float32, "float64": np.float64,
          "double": np.float64, "float16": np.float16, "half": np.float16,
          "int64": np.int64, "long": np.int64, "int32": np.int32, "int": np.int32,
          "int16": np.int16, "short": np.int16, "int8": np.int8, "uint8": np.uint8,
          "bool": np.bool_, "complex64": np.complex64, "complex128": np.complex128,
          "cfloat": np.complex64, "cdouble": np.complex128}

_COMPLEX_OF = {np.dtype(np.float16): np.complex64, np.dtype(np.float32): np.complex64,
               np.dtype(np.float64): np.complex128}


class _Default(threading.local):
    def __init__(self):
        self.dtype = np.float32


_default = _Default()


def set_default_dtype(d: Any) -> None:
    """Make ``d`` (``fg.float32``, ``fg.float64`` or ``fg.float16``) the dtype of floating
    Tensors made from Python numbers, on the calling thread (see the module docstring:
    per thread, unlike PyTorch's process-wide default).

    >>> import funcgrad as fg
    >>> fg.set_default_dtype(fg.float64)
    >>> fg.tensor([1.0]).dtype == fg.float64, fg.tensor([1j]).dtype == fg.complex128
    (True, True)
    >>> fg.set_default_dtype(fg.float32)
    """
    try:
        dtype = np.dtype(d)
    except TypeError:
        dtype = None
    if dtype is None or dtype.kind != "f":
        raise TypeError(f"only floating-point types are supported as the default type, got "
                        f"{d!r}; use fg.float32 (PyTorch's default) or fg.float64")
    _default.dtype = dtype.type


def get_default_dtype() -> type[np.floating[Any]]:
    """The calling thread's default floating dtype (``fg.float32`` unless
    :func:`set_default_dtype` changed it).

    >>> import funcgrad as fg
    >>> fg.get_default_dtype() is fg.float32
    True
    """
    return _default.dtype


def floating(t):
    """``t``, or its values in the default float dtype when they are integers or booleans
    (a floating function of an integer Tensor is float32 in PyTorch, float64 in NumPy).

    >>> import funcgrad as fg
    >>> floating(fg.tensor([1, 2])).dtype
    dtype('float32')
    """
    if t.dtype.kind in "fc":
        return t
    from .. import numpy as fnp  # (the NumPy front loads after this module)
    return fnp.astype(t, default_float())


def default_float(dtype=None):
    """``dtype`` as a NumPy dtype, or the default floating dtype when it is None.

    >>> default_float(), default_float(np.int64)
    (dtype('float32'), dtype('int64'))
    """
    return np.dtype(_default.dtype if dtype is None else dtype)


def quiet_dtypes():
    """The dtypes a Tensor's repr leaves unsaid, as PyTorch's: the default floating dtype,
    its complex twin, int64 and bool.

    >>> sorted(d.name for d in quiet_dtypes())
    ['bool', 'complex64', 'float32', 'int64']
    """
    dtype = np.dtype(_default.dtype)
    return (dtype, np.dtype(_COMPLEX_OF[dtype]), np.dtype(np.int64), np.dtype(bool))


def _holds_numpy_floats(data):
    if isinstance(data, (np.ndarray, np.generic)):
        return data.dtype.kind in "fc"
    if isinstance(data, (list, tuple)):
        return any(_holds_numpy_floats(d) for d in data)
    return False


def python_data_dtype(data, array):
    """The dtype PyTorch gives ``data`` (Python numbers, nested lists) that NumPy turned
    into ``array``: floats the default dtype, complex numbers its complex twin; None
    where NumPy's dtype stands (integers, bools, NumPy arrays and scalars).

    >>> python_data_dtype([1.0], np.asarray([1.0])), python_data_dtype([1], np.asarray([1]))
    (dtype('float32'), None)
    """
    kind = array.dtype.kind
    if kind not in "fc" or _holds_numpy_floats(data):
        return None
    dtype = np.dtype(_default.dtype)
    return dtype if kind == "f" else np.dtype(_COMPLEX_OF[dtype])

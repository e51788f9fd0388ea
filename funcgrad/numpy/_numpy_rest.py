"""NumPy's own helpers for plain values, re-exported as they are so that code written for
``import numpy as np`` runs with ``import funcgrad.numpy as np``: dates and business days,
records, strings, C types, files, iterators, printing and configuration, ``np.matrix``
(NumPy's matrix rules, plain values only), and the extended-precision types where NumPy
has them.  None is differentiable; a traced value passed to one is refused with an error
that names it (see :mod:`funcgrad.numpy._numpy_calls`).
"""
import numpy as _np
from numpy import (asmatrix, bmat, broadcast, busday_count, busday_offset, busdaycalendar,
                   char, ctypeslib, datetime_as_string, datetime_data, dtypes, exceptions,
                   flatiter, get_include, info, is_busday, isnat, matrix, memmap, nditer,
                   nested_iters, rec, recarray, record, show_config, show_runtime, strings,
                   typing, ufunc)

__all__ = ["asmatrix", "bmat", "broadcast", "busday_count", "busday_offset",
           "busdaycalendar", "char", "ctypeslib", "datetime_as_string", "datetime_data",
           "dtypes", "exceptions", "flatiter", "get_include", "info", "is_busday", "isnat",
           "matrix", "memmap", "nditer", "nested_iters", "rec", "recarray", "record",
           "show_config", "show_runtime", "strings", "typing", "ufunc"]

# (float128 and complex256 exist where long double is 80- or 128-bit: x86-64 Linux)
_EXTENDED = {name: getattr(_np, name) for name in ("float128", "complex256")
             if hasattr(_np, name)}
globals().update(_EXTENDED)
__all__ += list(_EXTENDED)


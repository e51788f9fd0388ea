"""NumPy's own helpers for plain values, re-exported as they are so that code written for
``import numpy as np`` runs with ``import funcgrad.numpy as np``: dates and business days,
records, strings, C types, files, iterators, printing and configuration, ``np.matrix``
(NumPy's matrix rules, plain values only), and the extended-precision types where NumPy
has them.  None is differentiable; a traced value passed to one is refused with an error
that names it (see :mod:`funcgrad.numpy._numpy_calls`).
"""
import sys
from typing import Any, Optional

import numpy as _np
from numpy import (asmatrix, broadcast, busday_count, busday_offset, busdaycalendar,
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


def bmat(obj: Any, ldict: Optional[dict] = None, gdict: Optional[dict] = None) -> Any:
    """NumPy's ``np.bmat``: a ``np.matrix`` built from blocks (a string, or nested lists of
    arrays), plain values only -- NumPy's returns None for an object it does not know,
    so a traced value is refused here, naming the traced alternative.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.bmat([[np.eye(2), np.zeros((2, 1))]]).shape
    (2, 3)
    >>> a = np.eye(2)
    >>> fnp.bmat("a, a").shape
    (2, 4)
    """
    from .. import tree  # (the package's own tree utilities; imported late: no cycle)
    from ..core import Tracer, is_special
    if any(isinstance(leaf, Tracer) or is_special(leaf) for leaf in tree.flatten(obj)[0]):
        raise TypeError("numpy.bmat is not differentiable: NumPy's own, it builds an "
                        "np.matrix of plain values and was given a traced value. Build the "
                        "blocks with funcgrad.numpy.block([[a, b], [c, d]]) instead, which "
                        "keeps values traced.")
    if isinstance(obj, str) and gdict is None:  # (NumPy reads its caller's names: ours)
        frame = sys._getframe(1)
        ldict, gdict = frame.f_locals, frame.f_globals
    return _np.bmat(obj, ldict, gdict)


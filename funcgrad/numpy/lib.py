"""``funcgrad.numpy.lib``: the parts of ``np.lib`` that funcgrad mirrors.

``stride_tricks`` and ``scimath`` (the same as ``funcgrad.numpy.emath``) are funcgrad's,
differentiable; the rest is NumPy's own, for plain values and Python code around them:
``NumpyVersion``, ``Arrayterator``, the ``array_utils``, ``format``, ``introspect``,
``mixins`` and ``npyio`` modules, ``add_docstring``, ``add_newdoc`` and
``tracemalloc_domain``.

>>> import numpy as np, funcgrad.numpy as fnp
>>> fnp.lib.stride_tricks.sliding_window_view(np.arange(3.0), 2).shape
(2, 2)
>>> fnp.lib.NumpyVersion("2.1.0") >= "1.26.0"
True
"""
from numpy.lib import (Arrayterator, NumpyVersion, add_docstring, add_newdoc,  # noqa: F401
                       array_utils, format, introspect, mixins, npyio, tracemalloc_domain)

from . import emath as scimath
from . import stride_tricks

__all__ = ["stride_tricks", "scimath", "Arrayterator", "NumpyVersion", "add_docstring",
           "add_newdoc", "array_utils", "format", "introspect", "mixins", "npyio",
           "tracemalloc_domain"]

"""``funcgrad.numpy.lib``: the parts of ``np.lib`` that funcgrad mirrors.

>>> import numpy as np, funcgrad.numpy as fnp
>>> fnp.lib.stride_tricks.sliding_window_view(np.arange(3.0), 2).shape
(2, 2)
"""
from . import stride_tricks

__all__ = ["stride_tricks"]

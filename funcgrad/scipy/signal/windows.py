"""``funcgrad.scipy.signal.windows``: SciPy's window functions, differentiable in their
continuous parameters (kaiser's ``beta``, gaussian's ``std``, tukey's ``alpha``, ...);
the implementations are in :mod:`funcgrad.scipy._signalmore_windows` and
:mod:`funcgrad.scipy._signalmore_windows_design`.
"""
from .._signalmore_getwindow import get_window  # noqa: F401
from .._signalmore_windows import (barthann, bartlett, blackman,  # noqa: F401
                                   blackmanharris, bohman, boxcar, cosine, exponential,
                                   flattop, gaussian, general_cosine, general_gaussian,
                                   general_hamming, hamming, hann, kaiser,
                                   kaiser_bessel_derived, lanczos, nuttall, parzen, triang,
                                   tukey)
from .._signalmore_windows_design import chebwin, dpss, taylor  # noqa: F401

__all__ = ["general_cosine", "boxcar", "triang", "parzen", "bohman", "blackman", "nuttall",
           "blackmanharris", "flattop", "bartlett", "hann", "tukey", "barthann",
           "general_hamming", "hamming", "kaiser", "kaiser_bessel_derived", "gaussian",
           "general_gaussian", "chebwin", "cosine", "exponential", "lanczos", "get_window",
           "taylor", "dpss"]

"""``funcgrad.scipy.signal.windows``: SciPy's window functions, differentiable in their
continuous parameters (kaiser's ``beta``, gaussian's ``std``, tukey's ``alpha``, ...);
the implementations are in :mod:`funcgrad.scipy._signalmore_windows`.
"""
from .._signalmore_windows import (barthann, bartlett, blackman,  # noqa: F401
                                   blackmanharris, bohman, boxcar, chebwin, cosine,
                                   exponential, flattop, gaussian, general_cosine,
                                   general_gaussian, general_hamming, get_window, hamming,
                                   hann, kaiser, kaiser_bessel_derived, lanczos, nuttall,
                                   parzen, taylor, triang, tukey)

__all__ = ["general_cosine", "boxcar", "triang", "parzen", "bohman", "blackman", "nuttall",
           "blackmanharris", "flattop", "bartlett", "hann", "tukey", "barthann",
           "general_hamming", "hamming", "kaiser", "kaiser_bessel_derived", "gaussian",
           "general_gaussian", "chebwin", "cosine", "exponential", "lanczos", "get_window",
           "taylor"]

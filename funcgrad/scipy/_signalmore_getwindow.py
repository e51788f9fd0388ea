"""``get_window`` for :mod:`funcgrad.scipy.signal`: any of the windows of
:mod:`funcgrad.scipy.signal.windows` by name (SciPy's names and aliases), with its
parameters in a tuple, periodic by default (``fftbins=True``).
"""
from typing import Any, Union

import numpy as np

from ..core import Tracer
from ..typing import Array
from ._signalmore_windows import (barthann, bartlett, blackman, blackmanharris, bohman,
                                  boxcar, cosine, exponential, flattop, gaussian,
                                  general_cosine, general_gaussian, general_hamming,
                                  hamming, hann, kaiser, kaiser_bessel_derived, lanczos,
                                  nuttall, parzen, triang, tukey)
from ._signalmore_windows_design import chebwin, dpss, taylor
from ._signal_xp import check_xp_device

__all__ = ["get_window"]

# name -> (function, how many parameters it needs)
_WINDOWS = {}
for _names, _fn, _needs in [
        (("barthann", "brthan", "bth"), barthann, 0),
        (("bartlett", "bart", "brt"), bartlett, 0),
        (("blackman", "black", "blk"), blackman, 0),
        (("blackmanharris", "blackharr", "bkh"), blackmanharris, 0),
        (("bohman", "bman", "bmn"), bohman, 0),
        (("boxcar", "box", "ones", "rect", "rectangular"), boxcar, 0),
        (("chebwin", "cheb"), chebwin, 1),
        (("cosine", "halfcosine"), cosine, 0),
        (("dpss",), dpss, 1),
        (("exponential", "poisson"), exponential, 0),
        (("flattop", "flat", "flt"), flattop, 0),
        (("gaussian", "gauss", "gss"), gaussian, 1),
        (("general cosine", "general_cosine"), general_cosine, 1),
        (("general gaussian", "general_gaussian", "general gauss", "general_gauss",
          "ggs"), general_gaussian, 2),
        (("general hamming", "general_hamming"), general_hamming, 1),
        (("hamming", "hamm", "ham"), hamming, 0),
        (("hann", "han"), hann, 0),
        (("kaiser", "ksr"), kaiser, 1),
        (("kaiser bessel derived", "kbd"), kaiser_bessel_derived, 1),
        (("lanczos", "sinc"), lanczos, 0),
        (("nuttall", "nutl", "nut"), nuttall, 0),
        (("parzen", "parz", "par"), parzen, 0),
        (("triangle", "triang", "tri"), triang, 0),
        (("taylor", "taylorwin"), taylor, 0),
        (("tukey", "tuk"), tukey, 0)]:
    for _name in _names:
        _WINDOWS[_name] = (_fn, _needs)


def get_window(window: Union[str, tuple, float], Nx: int, fftbins: bool = True,
               *, xp: Any = None, device: Any = None) -> Array:
    """A window of ``Nx`` samples by name (``scipy.signal.get_window``): a string
    ('hann'), a tuple of the name and its parameters (``('kaiser', 8.0)``, ``('tukey',
    0.25)``: differentiable in them), or a number, the ``beta`` of a Kaiser window.
    ``fftbins=True`` gives the periodic window (``sym=False``), for spectral analysis.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.get_window("hann", 4)
    array([0. , 0.5, 1. , 0.5])
    """
    check_xp_device(xp, device, "get_window")
    sym = not fftbins
    if isinstance(window, tuple):
        if not window:
            raise ValueError("get_window: the window tuple is empty; give a name and its "
                             "parameters, e.g. ('kaiser', 8.0)")
        name, args = window[0], tuple(window[1:])
    elif isinstance(window, str):
        name, args = window, ()
    elif isinstance(window, (int, float, np.number, Tracer)) and not isinstance(window,
                                                                             bool):
        name, args = "kaiser", (window,)
    else:
        raise ValueError(f"{type(window)} as window type is not supported.")
    if not isinstance(name, str) or name.lower() not in _WINDOWS:
        raise ValueError(f"Unknown window type. ({name!r}; the names are "
                         f"{sorted({f.__name__ for f, _ in _WINDOWS.values()})})")
    fn, needs = _WINDOWS[name.lower()]
    if len(args) < needs:
        raise ValueError(f"The '{name}' window needs one or more parameters -- pass a "
                         f"tuple.")
    return fn(Nx, *args, sym=sym)

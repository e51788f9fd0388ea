"""The last of :mod:`funcgrad.scipy.signal`'s design helpers (re-exported there): the 2-d
FIR design ``firwin_2d``, the band-stop order objective ``band_stop_obj`` and the
wavelet peak finder ``find_peaks_cwt``, with SciPy's signatures and values.

``firwin_2d`` is built from :func:`firwin` (an outer product of two 1-d filters, or one
filter spun around the centre by linear interpolation), so it differentiates in the
cutoff ``fc``; ``band_stop_obj`` is a closed form (with complete elliptic integrals for
'ellip'), differentiable in the edges and the gains.  ``find_peaks_cwt`` returns
positions (integers), computed by SciPy.
"""
from typing import Any, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._signalmore_fir import firwin

__all__ = ["firwin_2d", "band_stop_obj", "find_peaks_cwt"]


def firwin_2d(hsize: Sequence[int], window: Any, *, fc: Optional[ArrayLike] = None,
              fs: float = 2, circular: bool = False, pass_zero: Any = True,
              scale: bool = True) -> Array:
    """A 2-d FIR filter of shape ``hsize`` by the window method
    (``scipy.signal.firwin_2d``): the outer product of the :func:`firwin` filters of
    the two lengths with the windows ``window = (row window, column window)``, or with
    ``circular=True`` one filter of length ``8 max(hsize)`` spun around the centre.
    ``pass_zero`` and ``scale`` go to :func:`firwin` (SciPy 1.17 ignores them: its
    results are those of the defaults).  Differentiable in ``fc``.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.firwin_2d((3, 3), ("boxcar", "boxcar"), fc=0.5).round(6)
    array([[0.078428, 0.123194, 0.078428],
           [0.123194, 0.193513, 0.123194],
           [0.078428, 0.123194, 0.078428]])
    """
    if len(hsize) != 2:
        raise ValueError(f"firwin_2d: hsize must be a 2-element tuple or list, got {hsize!r}")
    if fc is None:
        raise ValueError("firwin_2d: the cutoff frequency fc must be provided")
    options = dict(fs=fs, pass_zero=pass_zero, scale=scale)
    if circular:
        length = max(hsize[0], hsize[1]) * 8
        radial = firwin(length, fc, window=window, **options)
        f1, f2 = np.meshgrid(np.linspace(-1, 1, hsize[0]), np.linspace(-1, 1, hsize[1]))
        radius = np.sqrt(f1 ** 2 + f2 ** 2)
        return fnp.interp(radius, np.linspace(0, 1, length), radial)
    if isinstance(window, str) or len(window) != 2:
        raise ValueError(f"firwin_2d: window must be a 2-element tuple or list, got "
                         f"{window!r}")
    rows = firwin(hsize[0], fc, window=window[0], **options)
    columns = firwin(hsize[1], fc, window=window[1], **options)
    return fnp.outer(rows, columns)


def _gains(gpass, gstop):
    """SciPy's checks of the pass and stop band losses (positive, pass below stop)."""
    gp = float(concrete_values(asarray(gpass), "band_stop_obj's check of gpass", ""))
    gs = float(concrete_values(asarray(gstop), "band_stop_obj's check of gstop", ""))
    if gp <= 0.0:
        raise ValueError(f"band_stop_obj: gpass should be larger than 0.0, got {gp}")
    if gs <= 0.0:
        raise ValueError(f"band_stop_obj: gstop should be larger than 0.0, got {gs}")
    if gp > gs:
        raise ValueError(f"band_stop_obj: gpass should be smaller than gstop, got {gp} > "
                         f"{gs}")


def band_stop_obj(wp: ArrayLike, ind: int, passb: ArrayLike, stopb: ArrayLike,
                  gpass: ArrayLike, gstop: ArrayLike, type: str) -> Array:  # noqa: A002
    """The (non-integer) order of the band-stop filter whose passband edge ``ind`` is
    moved to ``wp`` (``scipy.signal.band_stop_obj``, the objective that the order
    selection minimises): ``type`` 'butter', 'cheby' or 'ellip'.  Differentiable in
    ``wp``, the band edges and the gains.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> float(fss.band_stop_obj(0.25, 0, np.array([0.2, 0.5]), np.array([0.3, 0.4]), 3.0,
    ...                         40.0, "butter")).__round__(6)
    6.04547
    """
    if type not in ("butter", "cheby", "ellip"):
        raise ValueError(f"band_stop_obj: incorrect type {type!r}: 'butter', 'cheby' or "
                         f"'ellip'")
    _gains(gpass, gstop)
    passb, stopb, wp = (fnp.astype(asarray(v), np.float64) for v in (passb, stopb, wp))
    moved = fnp.where(np.arange(passb.shape[0]) == ind, wp, passb)
    nat = stopb * (moved[0] - moved[1]) / (stopb ** 2 - moved[0] * moved[1])
    nat = fnp.min(fnp.abs(nat))
    if type == "ellip":
        from ._special_inverse import ellipk  # (the complete elliptic integral, K(m))
        stop, pass_ = 10 ** (0.1 * asarray(gstop)), 10 ** (0.1 * asarray(gpass))
        arg1 = fnp.sqrt((pass_ - 1.0) / (stop - 1.0))
        arg0 = 1.0 / nat
        return (ellipk(arg0 ** 2) * ellipk(1 - arg1 ** 2)
                / (ellipk(1 - arg0 ** 2) * ellipk(arg1 ** 2)))
    stop = 10 ** (0.1 * fnp.abs(asarray(gstop)))
    pass_ = 10 ** (0.1 * fnp.abs(asarray(gpass)))
    if type == "butter":
        return fnp.log10((stop - 1.0) / (pass_ - 1.0)) / (2 * fnp.log10(nat))
    return fnp.arccosh(fnp.sqrt((stop - 1.0) / (pass_ - 1.0))) / fnp.arccosh(nat)


def find_peaks_cwt(vector: ArrayLike, widths: Any, wavelet: Any = None,
                   max_distances: Any = None, gap_thresh: Any = None, min_length: Any = None,
                   min_snr: float = 1, noise_perc: float = 10,
                   window_size: Optional[int] = None) -> np.ndarray:
    """The positions of the peaks of ``vector`` found by ridge lines in its continuous
    wavelet transform at ``widths`` (``scipy.signal.find_peaks_cwt``), computed by SciPy
    on the values: integers, no derivative (differentiate the values at the positions).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> x = np.sin(np.linspace(0, 4 * np.pi, 200))
    >>> fss.find_peaks_cwt(x, np.arange(1, 20))
    array([ 25, 125])
    """
    import scipy.signal  # (here: importing funcgrad never loads SciPy)
    values = concrete_values(asarray(vector), "find_peaks_cwt", "Pass a plain array.")
    return scipy.signal.find_peaks_cwt(values, widths, wavelet, max_distances, gap_thresh,
                                       min_length, min_snr, noise_perc, window_size)

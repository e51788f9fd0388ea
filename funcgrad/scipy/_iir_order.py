"""IIR order selection (``buttord``, ``cheb1ord``, ``cheb2ord``, ``ellipord``) and the
complete design from band edges and gains (``iirdesign``), as SciPy's.

The order ``N`` is the ceiling of a real number: an integer, a step function of the
band edges ``wp``/``ws`` and the gains ``gpass``/``gstop``, with no derivative; it is
computed from their values (so under ``vmap``/``jit`` a ``ConcretizationError`` says
that the order needs them).  The natural frequencies ``Wn`` are, at that fixed order,
smooth functions of the inputs, written here with funcgrad operations in SciPy's order
of arithmetic: the pre-warped passband edges (all four families), the 3 dB frequency
``(10**(gpass/10) - 1)**(-1/(2N))`` (``buttord``) or the frequency where the response
is ``-gpass`` dB, ``1/cosh(acosh(sqrt((10**(gstop/10) - 1)/(10**(gpass/10) - 1)))/N)``
(``cheb2ord``), carried back through the low-pass-to-band transforms.  So ``Wn`` is
differentiable in ``wp`` (and in ``gpass``, ``gstop`` and ``ws`` where it depends on
them).  Band-stop designs first move the passband edges by SciPy's bounded
minimisation of the order (``fminbound``, tolerance ``1e-5``): those edges are
SciPy's numbers, and band-stop inputs that carry a derivative raise ``TypeError``.
"""
import math
import warnings
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values
from ..typing import ArrayLike
from ._bspline import on_device_of
from ._iir_design import Design, _plain, iirfilter

__all__ = ["buttord", "cheb1ord", "cheb2ord", "ellipord", "iirdesign"]

_FIX = "Compute the order outside vmap/jit and pass N and Wn to the design function."


def _gains(name, gpass, gstop):
    known = [float(concrete_values(asarray(g), f"{name}'s order", _FIX))
             for g in (gpass, gstop)]
    if known[0] <= 0.0:
        raise ValueError(f"{name}: gpass should be larger than 0.0")
    if known[1] <= 0.0:
        raise ValueError(f"{name}: gstop should be larger than 0.0")
    if known[0] > known[1]:
        raise ValueError(f"{name}: gpass should be smaller than gstop")
    return known


def _edges(name, wp, ws, fs, analog):
    """``wp``, ``ws`` as float64 1-d arrays (normalised by Nyquist with ``fs``), their
    values, and SciPy's band type: 1 low, 2 high, 3 stop, 4 pass."""
    _plain(name, fs=fs)
    wp = fnp.astype(fnp.atleast_1d(asarray(wp)), np.float64)
    ws = fnp.astype(fnp.atleast_1d(asarray(ws)), np.float64)
    if fs is not None:
        if analog:
            raise ValueError(f"{name}: fs cannot be specified for an analog filter")
        wp, ws = 2 * wp / fs, 2 * ws / fs
    if wp.ndim != 1 or wp.shape != ws.shape or wp.shape[0] not in (1, 2):
        raise ValueError(f"{name}: wp and ws must have one or two elements each, and the "
                         f"same shape, got {tuple(wp.shape)} and {tuple(ws.shape)}")
    known_wp = concrete_values(wp, f"{name}'s order", _FIX)
    known_ws = concrete_values(ws, f"{name}'s order", _FIX)
    band = 2 * (wp.shape[0] - 1) + 1 + (1 if known_wp[0] >= known_ws[0] else 0)
    return wp, ws, known_wp, known_ws, band


def _warped(edges, analog):
    return edges if analog else fnp.tan(np.pi * edges / 2.0)


def _natural(name, family, passb, stopb, gpass, gstop, band, traced):
    """SciPy's ``nat`` (the prototype's stopband edge, a plain number: it only sets the
    order) and the passband edges, moved for a band-stop design as SciPy moves them."""
    from scipy import optimize, signal  # (here: importing funcgrad never loads SciPy)
    p, s = (np.asarray(concrete_values(v, f"{name}'s order", _FIX)) for v in (passb, stopb))
    if band == 1:
        nat = s / p
    elif band == 2:
        nat = p / s
    elif band == 4:
        nat = (s ** 2 - p[0] * p[1]) / (s * (p[0] - p[1]))
    else:
        if traced:
            raise TypeError(f"{name}: a band-stop design moves its passband edges by "
                            f"SciPy's bounded minimisation of the order (fminbound, to "
                            f"1e-5), so Wn has no derivative in wp, ws, gpass or gstop "
                            f"there; pass them as plain numbers")
        objective = signal.band_stop_obj
        edge0 = optimize.fminbound(objective, p[0], s[0] - 1e-12,
                                   args=(0, p, s, gpass, gstop, family), disp=0)
        edge1 = optimize.fminbound(objective, s[1] + 1e-12, p[1],
                                   args=(1, p, s, gpass, gstop, family), disp=0)
        p = np.array([float(edge0), float(edge1)])
        passb = on_device_of(p, passb)
        nat = (s * (p[0] - p[1])) / (s ** 2 - p[0] * p[1])
    return float(np.min(np.abs(nat))), passb


def _finish(WN, analog, fs):
    wn = WN if analog else fnp.arctan(WN) * 2.0 / np.pi
    if wn.shape[0] == 1:
        wn = wn[0]
    return wn * fs / 2 if fs is not None else wn


def _start(name, family, wp, ws, gpass, gstop, analog, fs):
    traced = any(isinstance(v, Tracer) for v in (wp, ws, gpass, gstop)) or any(
        isinstance(v, Tracer) for seq in (wp, ws) if isinstance(seq, (list, tuple))
        for v in seq)
    known_gpass, known_gstop = _gains(name, gpass, gstop)
    wp, ws, _, _, band = _edges(name, wp, ws, fs, analog)
    passb, stopb = _warped(wp, analog), _warped(ws, analog)
    nat, passb = _natural(name, family, passb, stopb, known_gpass, known_gstop, band,
                          traced)
    return passb, nat, band, known_gpass, known_gstop


def _db_ratio(gpass, gstop):
    """``(10**(gstop/10) - 1) / (10**(gpass/10) - 1)``, differentiable in both."""
    return (10.0 ** (0.1 * fnp.abs(_float(gstop))) - 1.0) / (
        10.0 ** (0.1 * fnp.abs(_float(gpass))) - 1.0)


def _float(value):
    if isinstance(value, (int, float, np.number)):  # (a plain number stays one: it
        # then joins data on any device)
        return float(value)
    return fnp.astype(asarray(value), np.float64)


def buttord(wp: ArrayLike, ws: ArrayLike, gpass: float, gstop: float, analog: bool = False,
            fs: Optional[float] = None) -> tuple[int, Any]:
    """The lowest order of a Butterworth filter that loses no more than ``gpass`` dB in
    the passband ``wp`` and at least ``gstop`` dB in the stopband ``ws``, and its 3 dB
    frequency (``scipy.signal.buttord``): ``(N, Wn)``.  ``N`` is an integer (no
    derivative); ``Wn`` is differentiable in ``wp`` and ``gpass`` at that ``N`` (not
    for band-stop edges: see the module docstring).

    >>> import funcgrad as fg, funcgrad.scipy.signal as fs
    >>> N, Wn = fs.buttord(0.2, 0.3, 3, 40)
    >>> N, round(float(Wn), 6)
    (11, 0.20004)
    >>> round(float(fg.grad(lambda wp: fs.buttord(wp, 0.3, 3, 40)[1])(0.2)), 6)
    1.000175
    """
    passb, nat, band, known_gpass, known_gstop = _start("buttord", "butter", wp, ws, gpass,
                                                        gstop, analog, fs)
    big_stop = 10 ** (0.1 * abs(known_gstop))
    big_pass = 10 ** (0.1 * abs(known_gpass))
    order = int(math.ceil(math.log10((big_stop - 1.0) / (big_pass - 1.0))
                          / (2 * math.log10(nat))))
    if order == 0:  # (as SciPy's: a warning, and the prototype's own cutoff)
        warnings.warn("buttord: Order is zero...check input parameters.", RuntimeWarning,
                      stacklevel=2)
        w0: Any = 1.0
    else:
        w0 = (10.0 ** (0.1 * fnp.abs(_float(gpass))) - 1.0) ** (-1.0 / (2.0 * order))
    if band == 1:
        WN = w0 * passb
    elif band == 2:
        WN = passb / w0
    elif band == 3:
        discr = fnp.sqrt((passb[1] - passb[0]) ** 2 + 4 * w0 ** 2 * passb[0] * passb[1])
        WN = fnp.sort(fnp.abs(fnp.stack([((passb[1] - passb[0]) + discr) / (2 * w0),
                                         ((passb[1] - passb[0]) - discr) / (2 * w0)])))
    else:
        one = fnp.ones_like(passb[0])  # (on the edges' device)
        w0 = fnp.stack([-one, one]) * w0
        WN = fnp.sort(fnp.abs(-w0 * (passb[1] - passb[0]) / 2.0 + fnp.sqrt(
            w0 ** 2 / 4.0 * (passb[1] - passb[0]) ** 2 + passb[0] * passb[1])))
    return order, _finish(WN, analog, fs)


def cheb1ord(wp: ArrayLike, ws: ArrayLike, gpass: float, gstop: float,
             analog: bool = False, fs: Optional[float] = None) -> tuple[int, Any]:
    """The lowest order of a Chebyshev type I filter meeting ``gpass``/``gstop`` on
    ``wp``/``ws`` and its natural frequencies, the passband edges
    (``scipy.signal.cheb1ord``): ``(N, Wn)``; ``Wn`` differentiable in ``wp`` (not for
    band-stop edges).

    >>> import funcgrad.scipy.signal as fs
    >>> N, Wn = fs.cheb1ord(0.2, 0.3, 3, 40)
    >>> N, float(Wn)
    (6, 0.2)
    """
    passb, nat, band, known_gpass, known_gstop = _start("cheb1ord", "cheby", wp, ws, gpass,
                                                        gstop, analog, fs)
    ripple = math.acosh(math.sqrt((10 ** (0.1 * abs(known_gstop)) - 1.0)
                                  / (10 ** (0.1 * abs(known_gpass)) - 1.0)))
    order = int(np.ceil(ripple / np.arccosh(nat)))
    return order, _finish(passb, analog, fs)


def cheb2ord(wp: ArrayLike, ws: ArrayLike, gpass: float, gstop: float,
             analog: bool = False, fs: Optional[float] = None) -> tuple[int, Any]:
    """The lowest order of a Chebyshev type II filter meeting ``gpass``/``gstop`` on
    ``wp``/``ws`` and its natural frequencies, where the response is ``-gstop`` dB
    (``scipy.signal.cheb2ord``): ``(N, Wn)``; ``Wn`` differentiable in ``wp``,
    ``gpass`` and ``gstop`` at that ``N`` (not for band-stop edges).

    >>> import funcgrad.scipy.signal as fs
    >>> N, Wn = fs.cheb2ord(0.2, 0.3, 3, 40)
    >>> N, round(float(Wn), 6)
    (6, 0.274564)
    """
    passb, nat, band, known_gpass, known_gstop = _start("cheb2ord", "cheby", wp, ws, gpass,
                                                        gstop, analog, fs)
    ripple = math.acosh(math.sqrt((10 ** (0.1 * abs(known_gstop)) - 1.0)
                                  / (10 ** (0.1 * abs(known_gpass)) - 1.0)))
    order = int(np.ceil(ripple / np.arccosh(nat)))
    # where the prototype's response is -gpass dB, moved back to the band
    new_freq = 1.0 / fnp.cosh(1.0 / order * fnp.arccosh(fnp.sqrt(_db_ratio(gpass, gstop))))
    if band == 1:
        nat_out = passb / new_freq
    elif band == 2:
        nat_out = passb * new_freq
    else:
        if band == 3:
            first = (new_freq / 2.0 * (passb[0] - passb[1]) + fnp.sqrt(
                new_freq ** 2 * (passb[1] - passb[0]) ** 2 / 4.0 + passb[1] * passb[0]))
        else:
            first = (1.0 / (2.0 * new_freq) * (passb[0] - passb[1]) + fnp.sqrt(
                (passb[1] - passb[0]) ** 2 / (4.0 * new_freq ** 2) + passb[1] * passb[0]))
        nat_out = fnp.stack([first, passb[1] * passb[0] / first])
    return order, _finish(nat_out, analog, fs)


def ellipord(wp: ArrayLike, ws: ArrayLike, gpass: float, gstop: float,
             analog: bool = False, fs: Optional[float] = None) -> tuple[int, Any]:
    """The lowest order of an elliptic filter meeting ``gpass``/``gstop`` on
    ``wp``/``ws`` and its natural frequencies, the passband edges
    (``scipy.signal.ellipord``): ``(N, Wn)``; ``Wn`` differentiable in ``wp`` (not for
    band-stop edges).

    >>> import funcgrad.scipy.signal as fs
    >>> N, Wn = fs.ellipord(0.2, 0.3, 3, 40)
    >>> N, float(Wn)
    (4, 0.2)
    """
    from scipy import special  # (here: importing funcgrad never loads SciPy)
    passb, nat, band, known_gpass, known_gstop = _start("ellipord", "ellip", wp, ws, gpass,
                                                        gstop, analog, fs)
    ratio = math.expm1(math.log(10) * 0.1 * known_gpass) / math.expm1(
        math.log(10) * 0.1 * known_gstop)
    modulus = np.asarray(1.0 / nat) ** 2
    order = int(np.ceil(special.ellipk(modulus) * special.ellipkm1(ratio)
                        / (special.ellipkm1(modulus) * special.ellipk(ratio))))
    return order, _finish(passb, analog, fs)


_ORDERS = {**dict.fromkeys(("butter", "butterworth"), buttord),
           **dict.fromkeys(("cauer", "elliptic", "ellip"), ellipord),
           **dict.fromkeys(("cheby1", "chebyshev1", "chebyshevi"), cheb1ord),
           **dict.fromkeys(("cheby2", "chebyshev2", "chebyshevii"), cheb2ord)}


def iirdesign(wp: ArrayLike, ws: ArrayLike, gpass: float, gstop: float, analog: bool = False,
              ftype: str = "ellip", output: str = "ba", fs: Optional[float] = None
              ) -> Design:
    """The IIR filter of lowest order of the family ``ftype`` that loses at most
    ``gpass`` dB on the passband ``wp`` and at least ``gstop`` dB on the stopband ``ws``
    (``scipy.signal.iirdesign``): the ``*ord`` function's ``(N, Wn)`` given to
    :func:`iirfilter` with ``rp=gpass``, ``rs=gstop``.  Differentiable in ``wp`` and
    ``ws`` through ``Wn`` at the fixed order (``gpass``/``gstop`` set the prototype,
    which is SciPy's: plain numbers).

    >>> import numpy as np, funcgrad.scipy.signal as fs
    >>> b, a = fs.iirdesign(0.2, 0.3, 1, 40, ftype="cheby1")
    >>> b.shape, a.shape
    ((7,), (7,))
    """
    if ftype in ("bessel", "bessel_phase", "bessel_delay", "bessel_mag"):
        raise ValueError(f"iirdesign: {ftype} does not have order selection. Use iirfilter "
                         f"function.")
    if ftype not in _ORDERS:
        raise ValueError(f"iirdesign: Invalid IIR filter type: {ftype}")
    known_gpass, known_gstop = _gains("iirdesign", gpass, gstop)
    _, _, known_wp, known_ws, band = _edges("iirdesign", wp, ws, None, analog)
    if fs is not None:
        known_wp, known_ws = known_wp * 2 / fs, known_ws * 2 / fs
    if np.any(known_wp <= 0) or np.any(known_ws <= 0):
        raise ValueError("iirdesign: Values for wp, ws must be greater than 0")
    if not analog:
        if fs is None and (np.any(known_wp >= 1) or np.any(known_ws >= 1)):
            raise ValueError("iirdesign: Values for wp, ws must be less than 1")
        if fs is not None and (np.any(known_wp >= 1) or np.any(known_ws >= 1)):
            raise ValueError(f"iirdesign: Values for wp, ws must be less than fs/2 (fs={fs} "
                             f"-> fs/2={fs / 2})")
    if known_wp.shape[0] == 2 and not (
            (known_ws[0] < known_wp[0] and known_wp[1] < known_ws[1])
            or (known_wp[0] < known_ws[0] and known_ws[1] < known_wp[1])):
        raise ValueError("iirdesign: Passband must lie strictly inside stopband or vice "
                         "versa")
    btype = {1: "lowpass", 2: "highpass", 3: "bandstop", 4: "bandpass"}[band]
    N, Wn = _ORDERS[ftype](wp, ws, gpass, gstop, analog=analog, fs=fs)
    return iirfilter(N, Wn, rp=gpass, rs=gstop, analog=analog, btype=btype, ftype=ftype,
                     output=output, fs=fs)

"""IIR filter design for ``funcgrad.scipy.signal``: ``iirfilter`` and its front ends
``butter``, ``cheby1``, ``cheby2``, ``ellip`` and ``bessel``, with SciPy's signatures and
values, differentiable in the critical frequencies ``Wn``.

A design is an analog low-pass prototype of unit cutoff (its zeros, poles and gain:
SciPy's ``buttap``, ``cheb1ap``, ``cheb2ap``, ``ellipap``, ``besselap``, which depend on
the order and the ripples only, so they are plain numbers from SciPy), moved to the
requested band by a substitution in ``s`` and, for a digital filter, to the z-plane by
the bilinear transform after pre-warping ``Wn``.  Those two steps are where ``Wn`` enters;
they are written here with funcgrad operations, in the order SciPy computes them, so the
values equal SciPy's to rounding and the derivative in ``Wn`` is exact:

* low-pass ``s -> s / w``: roots times ``w``; high-pass ``s -> w / s``: ``w`` over the
  roots, the missing zeros at the origin;
* band-pass ``s -> (s^2 + w0^2) / (s bw)``: each root ``r`` becomes the two roots of
  ``s^2 - r bw s + w0^2``; band-stop likewise from ``bw / (2 r)``, the missing zeros at
  ``+-j w0``;
* bilinear ``z = (4 + s) / (4 - s)`` (SciPy designs at ``fs = 2`` after pre-warping
  ``Wn`` by ``4 tan(pi Wn / 2)``), the missing zeros at ``z = -1``.

'ba' multiplies the roots out (``np.poly``'s recursion; the roots come in conjugate
pairs, so the coefficients are real).  'sos' needs SciPy's pairing of poles with zeros,
a choice made on the values: SciPy's ``zpk2sos`` pairs the known roots, the sections are
rebuilt from the paired funcgrad roots, and the rebuilt sections are checked against
SciPy's (so a pairing that cannot be followed raises rather than differentiating the
wrong sections).  Under ``jit``/``vmap`` the pairing has no values to read: 'sos' then
raises ``ConcretizationError``; 'ba' and 'zpk' trace.  The prototypes are not
differentiable in ``N``, ``rp`` and ``rs`` (traced values raise ``TypeError``); the
results are float64 (complex128 roots), as SciPy's whatever ``Wn``'s dtype.
"""
from typing import Optional, Union

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, internal
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike

__all__ = ["iirfilter", "butter", "cheby1", "cheby2", "ellip", "bessel"]

_BANDS = {**dict.fromkeys(("band", "bandpass", "pass", "bp"), "bandpass"),
          **dict.fromkeys(("bs", "bandstop", "bands", "stop"), "bandstop"),
          **dict.fromkeys(("l", "low", "lowpass", "lp"), "lowpass"),
          **dict.fromkeys(("h", "high", "highpass", "hp"), "highpass")}
_FAMILIES = {**dict.fromkeys(("butter", "butterworth"), "butter"),
             **dict.fromkeys(("cauer", "elliptic", "ellip"), "ellip"),
             **dict.fromkeys(("cheby1", "chebyshev1", "chebyshevi"), "cheby1"),
             **dict.fromkeys(("cheby2", "chebyshev2", "chebyshevii"), "cheby2"),
             "bessel": "bessel_phase", "bessel_phase": "bessel_phase",
             "bessel_delay": "bessel_delay", "bessel_mag": "bessel_mag"}

Design = Union[tuple[Array, Array], tuple[Array, Array, Array], Array]


def _plain(name, **values):
    for label, value in values.items():
        if isinstance(value, Tracer) or (isinstance(value, (list, tuple)) and any(
                isinstance(v, Tracer) for v in value)):
            raise TypeError(f"{name}: {label} is a traced value, but the analog prototype "
                            f"is SciPy's, designed on plain numbers, so it has no "
                            f"derivative in {label}; pass {label} as a plain number (only "
                            f"Wn is differentiable)")


def _prototype(family, N, rp, rs):
    """The analog low-pass prototype of unit cutoff, from SciPy: ``(z, p, k)``."""
    import scipy.signal as ss  # (here: importing funcgrad never loads SciPy)
    if family == "butter":
        return ss.buttap(N)
    if family.startswith("bessel"):
        return ss.besselap(N, norm=family[len("bessel_"):])
    if family == "cheby1":
        if rp is None:
            raise ValueError("passband ripple (rp) must be provided to design a Chebyshev "
                             "I filter.")
        return ss.cheb1ap(N, rp)
    if family == "cheby2":
        if rs is None:
            raise ValueError("stopband attenuation (rs) must be provided to design an "
                             "Chebyshev II filter.")
        return ss.cheb2ap(N, rs)
    if rs is None or rp is None:
        raise ValueError("Both rp and rs must be provided to design an elliptic filter.")
    return ss.ellipap(N, rp, rs)


def _critical(Wn, fs, analog):
    """``Wn`` as float64, normalised by Nyquist when ``fs`` is given; SciPy's checks on
    known values."""
    Wn = asarray(Wn)
    if Wn.dtype.kind == "c":
        raise TypeError("iirfilter: Wn must be real critical frequencies, got a complex "
                        "array")
    Wn = fnp.astype(Wn, np.float64)
    if fs is not None:
        if analog:
            raise ValueError("fs cannot be specified for an analog filter")
        Wn = Wn / (fs / 2)
    if Wn.ndim > 1 or Wn.size > 2:
        raise ValueError(f"Wn must be a scalar or a length-2 sequence, got shape "
                         f"{tuple(Wn.shape)}")
    if is_concrete(Wn):
        values = concrete_values(Wn, "", "")
        if np.any(values <= 0):
            raise ValueError("filter critical frequencies must be greater than 0")
        if values.size > 1 and not values[0] < values[1]:
            raise ValueError("Wn[0] must be less than Wn[1]")
        if not analog and np.any(values >= 1):
            if fs is not None:
                raise ValueError(f"Digital filter critical frequencies must be 0 < Wn < "
                                 f"fs/2 (fs={fs} -> fs/2={fs / 2})")
            raise ValueError("Digital filter critical frequencies must be 0 < Wn < 1")
    return Wn


def _band_roots(r, half_bw, wo):
    """The roots ``r +- sqrt(r^2 - wo^2)`` of ``s^2 - 2 r s + wo^2`` for each of ``r`` (in
    ``half_bw``'s scale): the band substitutions' shift of a root to ``+-wo``."""
    r = fnp.astype(r, np.complex128)
    root = fnp.sqrt(r ** 2 - wo ** 2)
    return fnp.concatenate([r + root, r - root])


def _transform(z, p, k, warped, btype):
    """The prototype's roots and gain moved to the band (SciPy's ``lp2*_zpk``)."""
    degree = p.shape[0] - z.shape[0]
    if btype in ("lowpass", "highpass"):
        if warped.ndim != 0 and warped.size != 1:
            raise ValueError("Must specify a single critical frequency Wn for lowpass or "
                             "highpass filter")
        wo = fnp.reshape(warped, ())
        if btype == "lowpass":
            return wo * z, wo * p, k * wo ** degree
        gain = k * fnp.real(fnp.prod(-z) / fnp.prod(-p))
        return (fnp.concatenate([wo / z, np.zeros(degree)]), wo / p,
                fnp.astype(gain, np.float64))
    if warped.ndim != 1 or warped.shape[0] != 2:
        raise ValueError("Wn must specify start and stop frequencies for bandpass or "
                         "bandstop filter")
    bw = warped[1] - warped[0]
    wo = fnp.sqrt(warped[0] * warped[1])
    if btype == "bandpass":
        zeros = fnp.concatenate([_band_roots(z * bw / 2, bw, wo), np.zeros(degree)])
        return zeros, _band_roots(p * bw / 2, bw, wo), k * bw ** degree
    centre = fnp.astype(1j * wo, np.complex128)
    zeros = fnp.concatenate([_band_roots((bw / 2) / z, bw, wo),
                             fnp.broadcast_to(centre, (degree,)),
                             fnp.broadcast_to(fnp.conj(centre), (degree,))])
    gain = k * fnp.real(fnp.prod(-z) / fnp.prod(-p))
    return zeros, _band_roots((bw / 2) / p, bw, wo), fnp.astype(gain, np.float64)


def _bilinear(z, p, k, fs2):
    """The analog roots and gain mapped by ``z = (fs2 + s) / (fs2 - s)`` (SciPy's
    ``bilinear_zpk``); zeros at infinity go to -1."""
    degree = p.shape[0] - z.shape[0]
    zeros = fnp.concatenate([(fs2 + z) / (fs2 - z), -np.ones(degree)])
    gain = k * fnp.real(fnp.prod(fs2 - z) / fnp.prod(fs2 - p))
    return zeros, (fs2 + p) / (fs2 - p), gain


@internal  # (the prototype's roots and the added zeros follow Wn to its device)
def _moved(z, p, k, Wn, analog, btype):
    """The prototype moved to the band and, digital, to the z-plane."""
    warped = Wn if analog else 4.0 * fnp.tan(np.pi * Wn / 2.0)
    z, p, k = _transform(z, p, k, warped, btype)
    return _bilinear(z, p, k, 4.0) if not analog else (z, p, k)


@internal  # (its starting coefficient follows the roots to their device)
def _poly(roots):
    """The monic polynomial with ``roots``, highest power first (``np.poly``'s recursion,
    one factor ``(s - r)`` at a time); real when the roots are complex, as these designs'
    come in conjugate pairs."""
    coefficients = fnp.ones((1,), roots.dtype)
    for i in range(roots.shape[0]):
        coefficients = (fnp.concatenate([coefficients, fnp.zeros((1,), roots.dtype)])
                        - roots[i] * fnp.concatenate([fnp.zeros((1,), roots.dtype),
                                                      coefficients]))
    return fnp.real(coefficients) if roots.dtype.kind == "c" else coefficients


def _paired(roots, known, free, targets, what):
    """For each of ``targets`` (the roots of one of SciPy's sections), the entry of
    ``roots`` whose known value it is, taken out of ``free`` (each is used once), or 0
    for a root SciPy put at the origin to fill the section."""
    chosen = []
    for target in targets:
        scale = 1e-6 * (1.0 + abs(target))
        distance = np.abs(known[free] - target) if free else np.zeros(0)
        if distance.size and distance.min() <= scale:
            chosen.append(roots[free.pop(int(np.argmin(distance)))])
        elif abs(target) <= scale:
            chosen.append(fnp.zeros((), roots.dtype))
        else:
            raise RuntimeError(f"zpk2sos: a {what} of SciPy's sections ({target}) is none "
                               f"of the filter's; cannot follow its pairing")
    poly = _poly(fnp.stack(chosen) if chosen else fnp.zeros((0,), roots.dtype))
    return fnp.pad(poly, (3 - poly.shape[0], 0))


def _sections(z, p, k, analog, pairing=None):
    """Second-order sections: SciPy's pairing of the known roots, each section rebuilt from
    the paired (differentiable) roots, the gain in the first."""
    import scipy.signal as ss
    fix = "Pass Wn as a plain number, or use output='ba' or 'zpk', which trace."
    known = [concrete_values(v, "the pairing of poles and zeros into second-order "
                             "sections", fix) for v in (z, p, k)]
    try:
        reference = ss.zpk2sos(*known, pairing=pairing, analog=analog)
    except IndexError as e:  # (SciPy 1.17's 'minimal' pairing fails on some analog
        # band-pass designs of odd order: cheby2 from N=9, ellip from N=3)
        raise ValueError("SciPy's zpk2sos cannot pair this analog filter's poles and zeros "
                         "into sections; use output='zpk' or 'ba'") from e
    z, p = fnp.astype(z, np.complex128), fnp.astype(p, np.complex128)
    known_z, known_p = (v.astype(np.complex128) for v in known[:2])
    free_z, free_p = list(range(z.shape[0])), list(range(p.shape[0]))
    rows = []
    for s, row in enumerate(reference):
        b = _paired(z, known_z, free_z, np.roots(row[:3]), "zero")
        a = _paired(p, known_p, free_p, np.roots(row[3:]), "pole")
        rows.append(fnp.concatenate([b * k if s == 0 else b, a]))
    sos = fnp.stack(rows)
    scale = max(1.0, float(np.max(np.abs(reference))))
    if free_z or free_p or not np.allclose(concrete_values(sos, "", ""), reference,
                                           rtol=1e-9, atol=1e-12 * scale):
        raise RuntimeError("zpk2sos: the sections rebuilt from SciPy's pairing differ from "
                           "SciPy's; cannot follow its pairing")
    return sos


def iirfilter(N: int, Wn: ArrayLike, rp: Optional[float] = None, rs: Optional[float] = None,
              btype: str = "band", analog: bool = False, ftype: str = "butter",
              output: str = "ba", fs: Optional[float] = None) -> Design:
    """An IIR filter of order ``N`` of the family ``ftype`` ('butter', 'cheby1', 'cheby2',
    'ellip', 'bessel'; SciPy's aliases too) with critical frequencies ``Wn``
    (``scipy.signal.iirfilter``): ``(b, a)``, ``(z, p, k)`` or ``sos`` as ``output``
    says, analog or digital (``Wn`` in half-cycles per sample, or in the units of ``fs``).
    ``rp``/``rs``: the pass-band ripple and stop-band attenuation in dB.  Differentiable
    in ``Wn`` (see the module docstring: 'sos' needs known values, so not under
    ``jit``/``vmap``).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> import funcgrad.scipy.signal as fss
    >>> b, a = fss.iirfilter(2, 0.5, btype="low", ftype="butter")
    >>> np.round(b, 6), np.round(a, 6) + 0.0
    (array([0.292893, 0.585786, 0.292893]), array([1.      , 0.      , 0.171573]))
    >>> numerator_sum = lambda w: fnp.sum(fss.iirfilter(2, w, btype="low")[0])
    >>> round(float(fg.grad(numerator_sum)(0.5)), 6)
    3.680605
    """
    _plain("iirfilter", N=N, rp=rp, rs=rs, fs=fs)
    ftype, btype, output = (str(v).lower() for v in (ftype, btype, output))
    if btype not in _BANDS:
        raise ValueError(f"'{btype}' is an invalid bandtype for filter.")
    if ftype not in _FAMILIES:
        raise ValueError(f"'{ftype}' is not a valid basic IIR filter.")
    if output not in ("ba", "zpk", "sos"):
        raise ValueError(f"'{output}' is not a valid output form.")
    if rp is not None and rp < 0:
        raise ValueError("passband ripple (rp) must be positive")
    if rs is not None and rs < 0:
        raise ValueError("stopband attenuation (rs) must be positive")
    Wn = _critical(Wn, fs, analog)
    z, p, k = _prototype(_FAMILIES[ftype], N, rp, rs)
    z, p, k = _moved(np.atleast_1d(z), np.atleast_1d(p), k, Wn, analog, _BANDS[btype])
    if output == "zpk":
        return z, p, k
    if output == "ba":
        return k * _poly(z), _poly(p)
    return _sections(z, p, k, analog)


def _front(name, N, Wn, rp, rs, btype, analog, output, fs, ftype):
    _plain(name, N=N, rp=rp, rs=rs, fs=fs)
    return iirfilter(N, Wn, rp=rp, rs=rs, btype=btype, analog=analog, output=output,
                     ftype=ftype, fs=fs)


def butter(N: int, Wn: ArrayLike, btype: str = "low", analog: bool = False,
           output: str = "ba", fs: Optional[float] = None) -> Design:
    """A Butterworth filter (``scipy.signal.butter``): maximally flat pass band.
    ``(b, a)``, ``(z, p, k)`` or ``sos``; differentiable in ``Wn`` (:func:`iirfilter`).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> b, a = fss.butter(1, 0.5)
    >>> b, np.round(a, 12) + 0.0
    (array([0.5, 0.5]), array([1., 0.]))
    """
    return _front("butter", N, Wn, None, None, btype, analog, output, fs, "butter")


def cheby1(N: int, rp: float, Wn: ArrayLike, btype: str = "low", analog: bool = False,
           output: str = "ba", fs: Optional[float] = None) -> Design:
    """A Chebyshev type I filter (``scipy.signal.cheby1``): ripple of ``rp`` dB in the
    pass band.  Differentiable in ``Wn`` (:func:`iirfilter`).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> b, a = fss.cheby1(2, 1.0, 0.3)
    >>> np.round(a, 6)
    array([ 1.      , -0.773503,  0.393869])
    """
    return _front("cheby1", N, Wn, rp, None, btype, analog, output, fs, "cheby1")


def cheby2(N: int, rs: float, Wn: ArrayLike, btype: str = "low", analog: bool = False,
           output: str = "ba", fs: Optional[float] = None) -> Design:
    """A Chebyshev type II filter (``scipy.signal.cheby2``): at least ``rs`` dB of
    attenuation in the stop band, which starts at ``Wn``.  Differentiable in ``Wn``
    (:func:`iirfilter`).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> z, p, k = fss.cheby2(2, 40.0, 0.3, output="zpk")
    >>> np.round(np.abs(z), 12)  # (its zeros lie on the unit circle)
    array([1., 1.])
    """
    return _front("cheby2", N, Wn, None, rs, btype, analog, output, fs, "cheby2")


def ellip(N: int, rp: float, rs: float, Wn: ArrayLike, btype: str = "low",
          analog: bool = False, output: str = "ba", fs: Optional[float] = None) -> Design:
    """An elliptic (Cauer) filter (``scipy.signal.ellip``): ``rp`` dB of ripple in the
    pass band, at least ``rs`` dB of attenuation in the stop band.  Differentiable in
    ``Wn`` (:func:`iirfilter`).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> sos = fss.ellip(4, 1.0, 40.0, [0.2, 0.4], btype="bandpass", output="sos")
    >>> sos.shape
    (4, 6)
    """
    return _front("ellip", N, Wn, rp, rs, btype, analog, output, fs, "ellip")


def bessel(N: int, Wn: ArrayLike, btype: str = "low", analog: bool = False,
           output: str = "ba", norm: str = "phase", fs: Optional[float] = None) -> Design:
    """A Bessel/Thomson filter (``scipy.signal.bessel``): maximally flat group delay,
    ``norm`` 'phase', 'delay' or 'mag' saying what ``Wn`` fixes.  Differentiable in
    ``Wn`` (:func:`iirfilter`).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> b, a = fss.bessel(1, 1.0, analog=True)
    >>> b, a
    (array([1.]), array([1., 1.]))
    """
    if norm not in ("phase", "delay", "mag"):
        raise ValueError(f"bessel: norm must be 'phase', 'delay' or 'mag', got {norm!r}")
    return _front("bessel", N, Wn, None, None, btype, analog, output, fs, "bessel_" + norm)


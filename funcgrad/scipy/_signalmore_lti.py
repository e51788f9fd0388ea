"""Filter representations and transformations for :mod:`funcgrad.scipy.signal`
(re-exported there): ``normalize``, ``tf2zpk``, ``zpk2tf``, ``tf2sos``, ``sos2tf``,
``zpk2sos``, ``sos2zpk``, ``bilinear``, ``bilinear_zpk``, ``lp2lp``, ``lp2hp``,
``lp2bp``, ``lp2bs`` and the
``_zpk`` forms ``lp2lp_zpk``, ``lp2hp_zpk``, ``lp2bp_zpk``, ``lp2bs_zpk``, and the
second-order designs ``iirnotch`` and ``iirpeak``, with SciPy's signatures and values.

All are written with funcgrad operations, so they differentiate in the coefficients,
roots, gains and frequencies.  Roots of polynomials (``tf2zpk``, ``sos2zpk``) go through
``funcgrad.numpy.roots`` (the implicit function theorem: exact at simple roots,
infinite at a multiple one).  What depends on the values is decided on them: the
leading zeros ``normalize`` trims, and the pairing of roots into sections (``zpk2sos``,
``tf2sos``: SciPy's pairing followed on the differentiable roots, as the IIR designs'
``output='sos'``), so those need concrete values (not under ``jit``/``vmap``).
"""
import warnings
from math import comb
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._iir_design import _sections
from ._signal_xp import check_xp_device

__all__ = ["normalize", "tf2zpk", "zpk2tf", "tf2sos", "sos2tf", "zpk2sos", "sos2zpk",
           "bilinear", "bilinear_zpk", "lp2lp", "lp2hp", "lp2bp", "lp2bs", "lp2lp_zpk", "lp2hp_zpk",
           "lp2bp_zpk", "lp2bs_zpk", "iirnotch", "iirpeak"]


def _float(x):
    x = fnp.atleast_1d(asarray(x))
    return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x


def normalize(b: ArrayLike, a: ArrayLike) -> tuple[Array, Array]:
    """The transfer function ``b / a`` with ``a``'s leading zeros trimmed and ``a[0] = 1``
    (``scipy.signal.normalize``); numerator leading coefficients below 1e-14 are trimmed
    with SciPy's ``BadCoefficients`` warning.  Differentiable in ``b`` and ``a``.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.normalize([2.0, 4.0], [0.0, 2.0, 1.0])
    (array([1., 2.]), array([1. , 0.5]))
    """
    den, num = _float(a), _float(b)
    if den.ndim != 1:
        raise ValueError("Denominator polynomial must be rank-1 array.")
    if num.ndim > 2:
        raise ValueError("Numerator polynomial must be rank-1 or rank-2 array.")
    rows = num if num.ndim == 2 else num[None, :]
    den_values = concrete_values(den, "normalize (which leading zeros to trim)",
                                 "Pass the coefficients as plain numbers.")
    if np.all(den_values == 0):
        raise ValueError("Denominator must have at least on nonzero element.")
    den = den[int(np.argmax(den_values != 0)):]
    rows, den = rows / den[0], den / den[0]
    values = concrete_values(rows, "normalize (which leading zeros to trim)",
                             "Pass the coefficients as plain numbers.")
    leading = 0
    for j in range(values.shape[-1]):
        if np.all(np.abs(values[:, j]) <= 1e-14):
            leading += 1
        else:
            break
    if leading:
        from scipy.signal import BadCoefficients  # (SciPy's warning class, when it warns)
        warnings.warn("Badly conditioned filter coefficients (numerator): the results may "
                      "be meaningless", BadCoefficients, stacklevel=2)
        rows = rows[:, min(leading, rows.shape[1] - 1):]
    return (rows[0] if rows.shape[0] == 1 else rows), den


def tf2zpk(b: ArrayLike, a: ArrayLike) -> tuple[Array, Array, Any]:
    """The zeros, poles and gain of the transfer function ``b / a``
    (``scipy.signal.tf2zpk``), through ``funcgrad.numpy.roots``: differentiable in ``b``
    and ``a`` at simple roots.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.tf2zpk([2.0, -2.0], [1.0, -0.25])
    (array([1.]), array([0.25]), np.float64(2.0))
    """
    b, a = normalize(b, a)
    if b.ndim != 1:
        raise ValueError("tf2zpk: b must be 1-d (one numerator)")
    k = b[0]
    return fnp.roots(b / b[0]), fnp.roots(a), k


def zpk2tf(z: ArrayLike, p: ArrayLike, k: ArrayLike) -> tuple[Array, Array]:
    """The transfer function ``(b, a)`` of the zeros ``z``, poles ``p`` and gain ``k``
    (``scipy.signal.zpk2tf``): ``k poly(z)`` over ``poly(p)`` (real when the roots come in
    conjugate pairs).  Differentiable in all three.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.zpk2tf([1.0], [0.5], 2.0)
    (array([ 2., -2.]), array([ 1. , -0.5]))
    """
    z, p = fnp.atleast_1d(asarray(z)), fnp.atleast_1d(asarray(p))
    if z.ndim > 1:
        raise ValueError("zpk2tf: z must be 1-d (several numerators are not supported)")
    k = asarray(k)
    if k.dtype.kind in "biu":
        k = fnp.astype(k, np.float64)
    num: Any = fnp.atleast_1d(k) * fnp.poly(z)
    den: Any = fnp.atleast_1d(fnp.poly(p))
    return num, den


def zpk2sos(z: ArrayLike, p: ArrayLike, k: ArrayLike, pairing: Optional[str] = None, *,
            analog: bool = False) -> Array:
    """Second-order sections of the zeros, poles and gain (``scipy.signal.zpk2sos``):
    SciPy's pairing ('nearest', 'keep_odd', 'minimal'), each section rebuilt from the
    paired roots, so the sections differentiate in ``z``, ``p`` and ``k``.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.zpk2sos([-1.0], [0.5], 2.0)
    array([[ 2. ,  2. ,  0. ,  1. , -0.5,  0. ]])
    """
    z, p = _float(z), _float(p)
    k = fnp.astype(asarray(k), np.float64) if asarray(k).dtype.kind in "biu" else asarray(k)
    return _sections(z, p, k, analog, pairing)


def tf2sos(b: ArrayLike, a: ArrayLike, pairing: Optional[str] = None, *,
           analog: bool = False) -> Array:
    """Second-order sections of the transfer function ``b / a`` (``scipy.signal.tf2sos``):
    ``zpk2sos(*tf2zpk(b, a))``.  Differentiable in ``b`` and ``a``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.tf2sos([1.0, 2.0, 1.0], [1.0, -0.5, 0.06]), 12) + 0.0
    array([[ 1.  ,  2.  ,  1.  ,  1.  , -0.5 ,  0.06]])
    """
    return zpk2sos(*tf2zpk(b, a), pairing=pairing, analog=analog)


def _check_sos(sos: ArrayLike) -> Any:
    sos = asarray(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    return fnp.astype(sos, np.float64) if sos.dtype.kind in "biu" else sos


def sos2tf(sos: ArrayLike) -> tuple[Array, Array]:
    """The transfer function ``(b, a)`` of second-order sections
    (``scipy.signal.sos2tf``): the products of the sections' polynomials.
    Differentiable in ``sos``.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.sos2tf([[1.0, 1.0, 0.0, 1.0, -0.5, 0.0], [1.0, -1.0, 0.0, 1.0, 0.5, 0.0]])
    (array([ 1.,  0., -1.,  0.,  0.]), array([ 1.  ,  0.  , -0.25,  0.  ,  0.  ]))
    """
    sections = _check_sos(sos)
    b, a = np.ones(1, sections.dtype), np.ones(1, sections.dtype)
    for row in range(sections.shape[0]):
        b, a = fnp.convolve(b, sections[row, :3]), fnp.convolve(a, sections[row, 3:])
    return b, a


def sos2zpk(sos: ArrayLike) -> tuple[Array, Array, Any]:
    """The zeros, poles and gain of second-order sections (``scipy.signal.sos2zpk``): two
    of each per section (a section of lower order gets zeros at the origin).
    Differentiable in ``sos`` at simple roots.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.sos2zpk([[2.0, 2.0, 0.0, 1.0, -0.5, 0.0]])
    (array([-1.+0.j,  0.+0.j]), array([0.5+0.j, 0. +0.j]), np.float64(2.0))
    """
    sections = _check_sos(sos)
    zeros, poles, k = [], [], 1.0
    for row in range(sections.shape[0]):
        z, p, gain = tf2zpk(sections[row, :3], sections[row, 3:])
        zeros += [fnp.astype(z, np.complex128), np.zeros(2 - z.shape[0], np.complex128)]
        poles += [fnp.astype(p, np.complex128), np.zeros(2 - p.shape[0], np.complex128)]
        k = k * gain
    return fnp.concatenate(zeros), fnp.concatenate(poles), k


def _degree(z, p):
    degree = p.shape[0] - z.shape[0]
    if degree < 0:
        raise ValueError("Improper transfer function. Must have at least as many poles as "
                         "zeros.")
    return degree


def _zpk(z, p):
    return fnp.atleast_1d(asarray(z)), fnp.atleast_1d(asarray(p))


def bilinear_zpk(z: ArrayLike, p: ArrayLike, k: ArrayLike, fs: ArrayLike
                 ) -> tuple[Any, Any, Any]:
    """The digital filter of the analog ``(z, p, k)`` by the bilinear transform
    ``s = 2 fs (z - 1) / (z + 1)`` (``scipy.signal.bilinear_zpk``); zeros at infinity go
    to -1.  Differentiable in all four.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.bilinear_zpk([], [-1.0], 1.0, fs=0.5)
    (array([-1.]), array([0.]), np.float64(0.5))
    """
    z, p = _zpk(z, p)
    degree = _degree(z, p)
    fs2 = 2.0 * fs
    zeros = fnp.concatenate([(fs2 + z) / (fs2 - z), -np.ones(degree)])
    gain = k * fnp.real(fnp.prod(fs2 - z) / fnp.prod(fs2 - p))
    return zeros, (fs2 + p) / (fs2 - p), gain


def lp2lp_zpk(z: ArrayLike, p: ArrayLike, k: ArrayLike, wo: ArrayLike = 1.0
              ) -> tuple[Any, Any, Any]:
    """A low-pass prototype moved to the cutoff ``wo``, ``s -> s / wo``
    (``scipy.signal.lp2lp_zpk``).  Differentiable in all four.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.lp2lp_zpk([], [-1.0], 1.0, wo=3.0)
    (array([], dtype=float64), array([-3.]), 3.0)
    """
    z, p = _zpk(z, p)
    degree = _degree(z, p)
    return wo * z, wo * p, k * wo ** degree


def lp2hp_zpk(z: ArrayLike, p: ArrayLike, k: ArrayLike, wo: ArrayLike = 1.0
              ) -> tuple[Any, Any, Any]:
    """A low-pass prototype turned into a high-pass of cutoff ``wo``, ``s -> wo / s``
    (``scipy.signal.lp2hp_zpk``).  Differentiable in all four.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.lp2hp_zpk([], [-1.0], 1.0, wo=3.0)
    (array([0.]), array([-3.]), np.float64(1.0))
    """
    z, p = _zpk(z, p)
    degree = _degree(z, p)
    gain = k * fnp.real(fnp.prod(-z) / fnp.prod(-p))
    return fnp.concatenate([wo / z, np.zeros(degree)]), wo / p, gain


def _pairs(r, wo):
    r = fnp.astype(r, np.complex128)
    root = fnp.sqrt(r ** 2 - wo ** 2)
    return fnp.concatenate([r + root, r - root])


def lp2bp_zpk(z: ArrayLike, p: ArrayLike, k: ArrayLike, wo: ArrayLike = 1.0,
              bw: ArrayLike = 1.0) -> tuple[Array, Array, Any]:
    """A low-pass prototype turned into a band-pass of centre ``wo`` and width ``bw``,
    ``s -> (s^2 + wo^2) / (s bw)`` (``scipy.signal.lp2bp_zpk``).  Differentiable in all
    five.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> z, p, k = fss.lp2bp_zpk([], [-1.0], 1.0, wo=2.0, bw=1.0)
    >>> z, np.round(p, 6), k
    (array([0.+0.j]), array([-0.5-1.936492j, -0.5+1.936492j]), 1.0)
    """
    z, p = _zpk(z, p)
    degree = _degree(z, p)
    zeros = fnp.concatenate([_pairs(z * bw / 2, wo), np.zeros(degree)])
    return zeros, _pairs(p * bw / 2, wo), k * bw ** degree


def lp2bs_zpk(z: ArrayLike, p: ArrayLike, k: ArrayLike, wo: ArrayLike = 1.0,
              bw: ArrayLike = 1.0) -> tuple[Array, Array, Any]:
    """A low-pass prototype turned into a band-stop of centre ``wo`` and width ``bw``,
    ``s -> s bw / (s^2 + wo^2)`` (``scipy.signal.lp2bs_zpk``).  Differentiable in all
    five.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> z, p, k = fss.lp2bs_zpk([], [-1.0], 1.0, wo=2.0, bw=1.0)
    >>> z, np.round(p, 6), k
    (array([0.+2.j, 0.-2.j]), array([-0.5-1.936492j, -0.5+1.936492j]), np.float64(1.0))
    """
    z, p = _zpk(z, p)
    degree = _degree(z, p)
    centre = fnp.astype(1j * wo, np.complex128)
    zeros = fnp.concatenate([_pairs((bw / 2) / z, wo), fnp.broadcast_to(centre, (degree,)),
                             fnp.broadcast_to(fnp.conj(centre), (degree,))])
    gain = k * fnp.real(fnp.prod(-z) / fnp.prod(-p))
    return zeros, _pairs((bw / 2) / p, wo), gain


def _wo(wo):
    wo = asarray(wo)
    return fnp.reshape(wo, (-1,))[0] if wo.ndim else wo


def lp2lp(b: ArrayLike, a: ArrayLike, wo: ArrayLike = 1.0) -> tuple[Array, Array]:
    """A low-pass prototype ``b / a`` moved to the cutoff ``wo``, ``s -> s / wo``
    (``scipy.signal.lp2lp``).  Differentiable in all three.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.lp2lp([1.0], [1.0, 1.0], wo=3.0)
    (array([3.]), array([1., 3.]))
    """
    b, a = _float(b), _float(a)
    wo = _wo(wo)
    d, n = a.shape[0], b.shape[0]
    M = max(d, n)
    powers = wo ** np.arange(M - 1, -1, -1).astype(np.float64)
    start1, start2 = max(n - d, 0), max(d - n, 0)
    b = b * powers[start1] / powers[start2:]
    a = a * powers[start1] / powers[start1:]
    return normalize(b, a)


def lp2hp(b: ArrayLike, a: ArrayLike, wo: ArrayLike = 1.0) -> tuple[Array, Array]:
    """A low-pass prototype ``b / a`` turned into a high-pass of cutoff ``wo``,
    ``s -> wo / s`` (``scipy.signal.lp2hp``).  Differentiable in all three.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.lp2hp([1.0], [1.0, 1.0], wo=3.0)
    (array([1., 0.]), array([1., 3.]))
    """
    b, a = _float(b), _float(a)
    wo = _wo(wo)
    d, n = a.shape[0], b.shape[0]
    powers = wo ** np.arange(max(d, n)).astype(np.float64)
    out_a: Any
    out_b: Any
    if d >= n:
        out_a = a[::-1] * powers
        out_b = fnp.concatenate([b[::-1] * powers[:n], np.zeros(d - n)])
    else:
        out_b = b[::-1] * powers
        out_a = fnp.concatenate([a[::-1] * powers[:d], np.zeros(n - d)])
    return normalize(out_b, out_a)


def _substituted(c, length, term):
    """``out[length - 1 - j] = sum of term(i, k, c[len(c) - 1 - i])`` over the ``(i, k)``
    that ``term`` keeps for ``j`` (the band substitutions' expansion, in SciPy's order)."""
    order = c.shape[0] - 1
    out = []
    for j in range(length):
        total = fnp.zeros((), c.dtype)
        for i in range(order + 1):
            for value in term(j, i, c[order - i]):
                total = total + value
        out.append(total)
    return fnp.stack(out[::-1])


def lp2bp(b: ArrayLike, a: ArrayLike, wo: ArrayLike = 1.0, bw: ArrayLike = 1.0
          ) -> tuple[Array, Array]:
    """A low-pass prototype ``b / a`` turned into a band-pass of centre ``wo`` and width
    ``bw``, ``s -> (s^2 + wo^2) / (s bw)`` (``scipy.signal.lp2bp``).  Differentiable in
    all four.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.lp2bp([1.0], [1.0, 1.0], wo=2.0, bw=1.0)
    (array([1., 0.]), array([1., 1., 4.]))
    """
    b, a = _float(b), _float(a)
    wo, bw = _wo(wo), _wo(bw)
    ma = max(b.shape[0], a.shape[0]) - 1
    wosq = wo * wo

    def term(j, i, coefficient):
        return [comb(i, k) * coefficient * wosq ** (i - k) / bw ** i
                for k in range(i + 1) if ma - i + 2 * k == j]
    return normalize(_substituted(b, b.shape[0] + ma, term),
                     _substituted(a, a.shape[0] + ma, term))


def lp2bs(b: ArrayLike, a: ArrayLike, wo: ArrayLike = 1.0, bw: ArrayLike = 1.0
          ) -> tuple[Array, Array]:
    """A low-pass prototype ``b / a`` turned into a band-stop of centre ``wo`` and width
    ``bw``, ``s -> s bw / (s^2 + wo^2)`` (``scipy.signal.lp2bs``).  Differentiable in
    all four.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.lp2bs([1.0], [1.0, 1.0], wo=2.0, bw=1.0)
    (array([1., 0., 4.]), array([1., 1., 4.]))
    """
    b, a = _float(b), _float(a)
    wo, bw = _wo(wo), _wo(bw)
    M = max(b.shape[0], a.shape[0]) - 1
    wosq = wo * wo

    def term(j, i, coefficient):
        return [comb(M - i, k) * coefficient * wosq ** (M - i - k) * bw ** i
                for k in range(M - i + 1) if i + 2 * k == j]
    return normalize(_substituted(b, 2 * M + 1, term), _substituted(a, 2 * M + 1, term))


def bilinear(b: ArrayLike, a: ArrayLike, fs: float = 1.0) -> tuple[Array, Array]:
    """The digital filter of the analog ``b / a`` by the bilinear transform at the
    sampling frequency ``fs`` (``scipy.signal.bilinear``): the new coefficients are a
    fixed linear map of the old ones.  Differentiable in ``b`` and ``a``.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.bilinear([1.0], [1.0, 1.0], fs=0.5)
    (array([0.5, 0.5]), array([1., 0.]))
    """
    if np.ndim(fs) != 0 or not np.isfinite(fs) or fs <= 0:
        raise ValueError(f"Sampling frequency fs must be a single finite positive number, "
                         f"got {fs!r}")
    b, a = _float(b), _float(a)
    N, D = b.shape[0] - 1, a.shape[0] - 1
    M = max(N, D)

    def mapping(order):
        """Row j, column i: the weight of the coefficient of s^i (``c[order - i]``) in
        the j-th new coefficient, ``sum_{k + l = j} C(i, k) C(M - i, l) (2 fs)^i (-1)^k``."""
        W = np.zeros((M + 1, order + 1))
        for i in range(order + 1):
            for k in range(i + 1):
                for l in range(M - i + 1):
                    W[k + l, order - i] += comb(i, k) * comb(M - i, l) * (2 * fs) ** i * (-1) ** k
        return W
    return normalize(fnp.tensordot(mapping(N), b, axes=1),
                     fnp.tensordot(mapping(D), a, axes=1))


def _notch_peak(name, w0, Q, fs, notch):
    fs = float(fs)
    if not np.isfinite(fs) or fs <= 0:
        raise ValueError(f"Sampling frequency fs must be a single finite positive number, "
                         f"got {fs!r}")
    w0 = 2 * w0 / fs
    value = float(concrete_values(w0, f"{name}'s check of w0", "Pass w0 as a plain number."))
    if value > 1.0 or value < 0.0:
        raise ValueError("w0 should be such that 0 < w0 < 1")
    bw = w0 / Q * np.pi
    w0 = w0 * np.pi
    gain = 1.0 / (1.0 + fnp.tan(bw / 2.0))
    one = np.array([1.0, 0.0, 0.0])
    if notch:
        b = gain * (one + np.array([0.0, -2.0, 0.0]) * fnp.cos(w0) + np.array([0, 0, 1.0]))
    else:
        b = (1.0 - gain) * np.array([1.0, 0.0, -1.0])
    a = one + np.array([0.0, -2.0, 0.0]) * gain * fnp.cos(w0) + np.array([0, 0, 1.0]) * (
        2.0 * gain - 1.0)
    return b, a


def iirnotch(w0: ArrayLike, Q: ArrayLike, fs: float = 2.0,
             *, xp: Any = None, device: Any = None) -> tuple[Array, Array]:
    """A second-order IIR notch filter at ``w0`` (in the units of ``fs``) of quality
    factor ``Q`` (``scipy.signal.iirnotch``).  Differentiable in ``w0`` and ``Q``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> b, a = fss.iirnotch(0.5, 10.0)
    >>> np.round(b, 6) + 0.0, np.round(a, 6) + 0.0
    (array([0.92704, 0.     , 0.92704]), array([1.      , 0.      , 0.854081]))
    """
    check_xp_device(xp, device, "iirnotch")
    return _notch_peak("iirnotch", w0, Q, fs, True)


def iirpeak(w0: ArrayLike, Q: ArrayLike, fs: float = 2.0,
            *, xp: Any = None, device: Any = None) -> tuple[Array, Array]:
    """A second-order IIR peak (resonator) filter at ``w0`` (in the units of ``fs``) of
    quality factor ``Q`` (``scipy.signal.iirpeak``).  Differentiable in ``w0`` and ``Q``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> b, a = fss.iirpeak(0.5, 10.0)
    >>> np.round(b, 6) + 0.0, np.round(a, 6) + 0.0
    (array([ 0.07296,  0.     , -0.07296]), array([1.      , 0.      , 0.854081]))
    """
    check_xp_device(xp, device, "iirpeak")
    return _notch_peak("iirpeak", w0, Q, fs, False)

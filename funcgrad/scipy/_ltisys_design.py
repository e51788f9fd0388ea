"""Analog low-pass prototypes and pole placement for :mod:`funcgrad.scipy.signal`
(re-exported there): ``buttap``, ``cheb1ap``, ``cheb2ap``, ``ellipap``, ``besselap`` and
``place_poles``, with SciPy's signatures and values.

The Butterworth and Chebyshev prototypes are closed forms in the ripple, written with
funcgrad operations (SciPy's formulas, so the values agree to rounding): ``cheb1ap`` is
differentiable in ``rp`` and ``cheb2ap`` in ``rs``.  The elliptic prototype (SciPy's
iterative solution of the degree equation) and the Bessel prototype (roots of a Bessel
polynomial, a function of the order only) are SciPy's numbers; a traced ``rp``/``rs`` for
``ellipap`` raises ``TypeError``.  ``place_poles`` is SciPy's (its robust methods choose
the gain by an iteration, and for several inputs the gain is not even determined by the
poles), so traced inputs raise ``TypeError`` rather than a derivative that would be
wrong; the order ``N`` is an integer and never differentiable.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray
from ..typing import ArrayLike
from ._signal_xp import check_xp_device

__all__ = ["buttap", "cheb1ap", "cheb2ap", "ellipap", "besselap", "place_poles"]


def _order(N):
    if isinstance(N, Tracer) or abs(int(N)) != N:
        raise ValueError("Filter order must be a nonnegative integer")
    return int(N)


def _scalar(x):
    return x[()] if type(x) is np.ndarray else x  # (a 0-d array as NumPy's scalar)


def _traced(value):
    if isinstance(value, Tracer):
        return True
    if isinstance(value, (list, tuple)):
        return any(_traced(v) for v in value)
    return type(asarray(value)) is not np.ndarray if value is not None else False


def _untraced(name, fix, **values):
    for label, value in values.items():
        if _traced(value):
            raise TypeError(f"{name}: {label} carries a derivative, but {fix}; pass "
                            f"{label} as plain numbers")


def buttap(N: int, *, xp: Any = None, device: Any = None) -> tuple[np.ndarray, Any, float]:
    """The zeros, poles and gain of the order-``N`` Butterworth analog low-pass prototype
    (``scipy.signal.buttap``): poles evenly spaced on the left half of the unit circle.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> z, p, k = fss.buttap(2)
    >>> z, np.round(p, 6), k
    (array([], dtype=float64), array([-0.707107+0.707107j, -0.707107-0.707107j]), 1.0)
    """
    check_xp_device(xp, device, "buttap")
    N = _order(N)
    m = np.arange(-N + 1, N, 2, dtype=np.float64)
    return np.array([], np.float64), -np.exp(1j * np.pi * m / (2 * N)), 1.0


def cheb1ap(N: int, rp: ArrayLike,
            *, xp: Any = None, device: Any = None) -> tuple[np.ndarray, Any, Any]:
    """The zeros, poles and gain of the order-``N`` Chebyshev type I analog low-pass
    prototype with ``rp`` dB of pass-band ripple (``scipy.signal.cheb1ap``).
    Differentiable in ``rp``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.signal as fss
    >>> z, p, k = fss.cheb1ap(2, 1.0)
    >>> np.round(p, 6), np.round(k, 6)
    (array([-0.548867+0.895129j, -0.548867-0.895129j]), np.float64(0.982613))
    >>> round(float(fg.grad(lambda rp: fss.cheb1ap(2, rp)[2])(1.0)), 6)
    -0.550039
    """
    check_xp_device(xp, device, "cheb1ap")
    N = _order(N)
    rp = asarray(rp)
    if N == 0:
        return np.array([], np.float64), np.array([], np.complex128), 10 ** (-rp / 20)
    eps = fnp.sqrt(10 ** (0.1 * rp) - 1.0)
    mu = fnp.arcsinh(1 / eps) / N
    theta = np.pi * np.arange(-N + 1, N, 2, dtype=np.float64) / (2 * N)
    p = -fnp.sinh(mu + 1j * theta)
    k = fnp.real(fnp.prod(-p))
    if N % 2 == 0:
        k = k / fnp.sqrt(1 + eps * eps)
    return np.array([], np.float64), p, _scalar(k)


def cheb2ap(N: int, rs: ArrayLike,
            *, xp: Any = None, device: Any = None) -> tuple[np.ndarray, Any, Any]:
    """The zeros, poles and gain of the order-``N`` Chebyshev type II analog low-pass
    prototype, ``rs`` dB down in the stop band (``scipy.signal.cheb2ap``).
    Differentiable in ``rs``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> z, p, k = fss.cheb2ap(2, 40.0)
    >>> np.round(np.abs(z), 6), np.round(k, 6)
    (array([1.414214, 1.414214]), np.float64(0.01))
    """
    check_xp_device(xp, device, "cheb2ap")
    N = _order(N)
    if N == 0:
        return np.array([], np.complex128), np.array([], np.complex128), 1.0
    rs = asarray(rs)
    de = 1.0 / fnp.sqrt(10 ** (0.1 * rs) - 1)
    mu = fnp.arcsinh(1.0 / de) / N
    if N % 2:
        m = np.concatenate([np.arange(-N + 1, 0, 2), np.arange(2, N, 2)]).astype(np.float64)
    else:
        m = np.arange(-N + 1, N, 2, dtype=np.float64)
    z = 1j / np.sin(m * np.pi / (2 * N))
    theta = np.pi * np.arange(-N + 1, N, 2, dtype=np.float64) / (2 * N)
    p = -1 / fnp.sinh(mu + 1j * theta)
    k = fnp.real(fnp.prod(-p) / np.prod(-z))
    return z, p, _scalar(k)


def ellipap(N: int, rp: float, rs: float,
            *, xp: Any = None, device: Any = None) -> tuple[np.ndarray, np.ndarray, float]:
    """The zeros, poles and gain of the order-``N`` elliptic (Cauer) analog low-pass
    prototype, ``rp`` dB of ripple in the pass band, ``rs`` dB down in the stop band
    (``scipy.signal.ellipap``): SciPy's values (not differentiable in ``rp``, ``rs``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> z, p, k = fss.ellipap(2, 1.0, 40.0)
    >>> np.round(np.abs(z), 6), np.round(k, 6)
    (array([9.937627, 9.937627]), np.float64(0.01))
    """
    check_xp_device(xp, device, "ellipap")
    _untraced("ellipap", "the elliptic prototype is SciPy's iterative solution of the "
              "degree equation, with no derivative here", rp=rp, rs=rs)
    import scipy.signal  # (here: importing funcgrad never loads SciPy)
    return scipy.signal.ellipap(_order(N), rp, rs)


def besselap(N: int, norm: str = "phase",
             *, xp: Any = None, device: Any = None) -> tuple[np.ndarray, np.ndarray, float]:
    """The zeros, poles and gain of the order-``N`` Bessel/Thomson analog low-pass
    prototype (``scipy.signal.besselap``), ``norm`` 'phase', 'delay' or 'mag': SciPy's
    values (they depend on the order only).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> z, p, k = fss.besselap(2, norm="delay")
    >>> np.round(p, 6), k
    (array([-1.5+0.866025j, -1.5-0.866025j]), 3.0)
    """
    check_xp_device(xp, device, "besselap")
    import scipy.signal
    return scipy.signal.besselap(_order(N), norm=norm)


def place_poles(A: ArrayLike, B: ArrayLike, poles: ArrayLike, method: str = "YT",
                rtol: float = 1e-3, maxiter: int = 30) -> Any:
    """The state-feedback gain ``K`` that puts the eigenvalues of ``A - B K`` at
    ``poles`` (``scipy.signal.place_poles``), by SciPy's 'YT' or 'KNV0' robust placement:
    SciPy's result object (``gain_matrix``, ``computed_poles``, ``requested_poles``,
    ``X``, ``rtol``, ``nb_iter``).  Not differentiable: traced inputs raise ``TypeError``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    >>> result = fss.place_poles(A, B, [-1.0, -2.0])
    >>> np.round(result.gain_matrix, 12) + 0.0
    array([[2., 3.]])
    """
    _untraced("place_poles", "the robust placement chooses the gain by an iteration (and "
              "with several inputs the poles do not determine it), so it has no "
              "derivative here", A=A, B=B, poles=poles)
    import scipy.signal
    return scipy.signal.place_poles(A, B, poles, method=method, rtol=rtol, maxiter=maxiter)

"""Riemann's zeta below 1 (``zeta(x)`` with ``q=None`` for ``x < 1``), SciPy's analytic
continuation: the Hurwitz primitive (Cephes' Euler-Maclaurin sum) is defined for
``x > 1`` only.

* ``-1/2 <= x < 1``: ``zeta(x) = eta(x) / (1 - 2**(1-x))`` with Dirichlet's eta summed
  by Borwein's algorithm (``n = 24`` terms: error below ``3 / (3 + sqrt 8)**24``, 1e-18;
  the reflection below would need the primitive next to its pole at 1, 1e-10 there).
* ``x < -1/2``: the reflection ``zeta(x) = 2**x pi**(x-1) sin(pi x/2) Gamma(1-x) zeta(1-x)``,
  in logs (``Gamma(1 - x)`` overflows beyond ``x = -170`` where the product does not),
  exactly 0 at the trivial zeros ``-2, -4, ...`` as SciPy's (NaN at ``-inf``).

Written with differentiable operations, so the derivatives in ``x`` are those of the
formulas, the Hurwitz primitive's included (:mod:`funcgrad.primitives.zeta`); at ``x = 0``
and at the trivial zeros, where the values are set exactly, the derivatives still flow
(``zeta'(0) = -log(2 pi)/2``; ``zeta'(-2n) = (-1)**n (2n)! zeta(2n+1) / (2 (2 pi)**(2n))``).
"""
import math

import numpy as np

from .. import numpy as fnp
from ..primitives import special as _sp

__all__ = ["riemann_zeta_below_one"]

_N = 24


def _borwein_coefficients(n):
    """``c_k = (-1)**k (d_k - d_n) / d_n`` of Borwein's eta: ``eta(s) = -sum c_k (k+1)**-s``."""
    d, total = [], 0.0
    for i in range(n + 1):
        total += (math.factorial(n + i - 1) * 4.0 ** i
                  / (math.factorial(n - i) * math.factorial(2 * i)))
        d.append(n * total)
    return [(-1) ** k * (d[k] - d[n]) / d[n] for k in range(n)]


_ETA = _borwein_coefficients(_N)
_LOG_2, _LOG_PI = math.log(2.0), math.log(math.pi)


def _eta(s):
    total = 0.0
    for k, c in enumerate(_ETA):
        total = total - c * fnp.exp(-s * math.log(k + 1.0))
    return total


def _log_max(x):
    """Just below the log of ``x``'s dtype's largest number (its exp is finite)."""
    dtype = np.dtype(getattr(x, "dtype", np.float64))
    return float(np.log(np.finfo(dtype if dtype.kind == "f" else np.float64).max)) - 1e-4


def riemann_zeta_below_one(x):
    """``zeta(x)`` for ``x < 1`` (any value elsewhere is a stand-in: callers select)."""
    low = fnp.less(x, -0.5)
    # -1/2 <= x < 1 (the double-where idiom: each branch sees arguments it is defined at)
    s = fnp.where(low, 0.5, x)
    near = _eta(s) / -fnp.expm1((1.0 - s) * _LOG_2)
    # (exactly -1/2 at 0, as SciPy's: the sum rounds; the correction is exact, near being
    # within an ulp of -1/2, and carries no derivative, so zeta'(0) = -log(2 pi)/2 flows)
    near = near + fnp.where(fnp.equal(s, 0), fnp.stop_gradient(-0.5 - near), 0.0)
    # x < -1/2: the reflection, |.| in logs, the sign of sin(pi x/2) apart
    r = fnp.where(low, x, -2.5)
    half = r * 0.5
    trivial = fnp.equal(half, fnp.floor(half))  # (sin(pi x/2) = 0: the trivial zeros)
    sine = fnp.sin(math.pi * (half - 2.0 * fnp.floor(half * 0.5)))  # (reduced: exact sign)
    log_size = (r * _LOG_2 + (r - 1.0) * _LOG_PI + _sp.gammaln(1.0 - r)
                + fnp.log(fnp.abs(fnp.where(trivial, 1.0, sine))))
    riemann = _sp.zeta(1.0 - r, 1.0)
    # At the trivial zeros 0 exactly, with the derivatives of sin(pi x/2) times the rest:
    # sin(pi h) = (-1)**k sin(pi (h - k)), k the integer nearest h, is sin(0) = 0 there
    # (and its rest, clipped below overflow: beyond, the slope overflows to inf as it
    # should, from x ~ -260 in float64, -68 in float32).
    h = half - 2.0 * fnp.floor(half * 0.5)
    k = fnp.floor(h + 0.5)
    signed_sine = (1.0 - 2.0 * (k - 2.0 * fnp.floor(k * 0.5))) * fnp.sin(math.pi * (h - k))
    rest_log = fnp.minimum(r * _LOG_2 + (r - 1.0) * _LOG_PI + _sp.gammaln(1.0 - r),
                           _log_max(r))
    # (+ 0.0: the zero is SciPy's +0.0 whatever the sign of the sine's factor)
    at_zero = signed_sine * fnp.exp(rest_log) * riemann + 0.0
    far = fnp.where(trivial, at_zero, fnp.sign(sine) * fnp.exp(log_size) * riemann)
    far = fnp.where(fnp.isinf(r), math.nan, far)
    return fnp.where(low, far, near)

"""The raw moments of :mod:`funcgrad.scipy.stats`' ``studentized_range(k, df)``, for its
``stats``, ``mean``, ``var`` and ``moment`` (SciPy integrates a triple integral for each,
seconds apiece; here a few milliseconds).

The statistic is ``Q = R / sqrt(V / df)``: ``R`` the range of ``k`` standard normal
draws and ``V`` an independent chi-square with ``df`` degrees of freedom, so ``E[Q**j] =
E[R**j] E[(V / df)**(-j/2)]``, the second factor in closed form, ``(df/2)**(j/2)
Gamma((df - j)/2) / Gamma(df/2)`` (``inf`` for ``df <= j``, where the moment diverges;
SciPy's quadrature returns a finite number there).  The first is ``j int_0^inf r**(j-1)
P(R > r) dr`` with ``P(R <= r) = k int phi(x) (Phi(x + r) - Phi(x))**(k-1) dx``: the
inner integral by the trapezoidal rule on ``[-9, 9]`` (step 1/16: geometric convergence
for the smooth, Gaussian-weighted integrand), the outer by 16-point Gauss-Legendre on unit
pieces up to where ``P(R > r) <= k**2 exp(-r**2/4)`` is below 1e-22.  ``Phi(x + r) -
Phi(x)`` is taken from the upper tails where ``x > 0`` (no cancellation of two numbers
near 1).

Written with funcgrad's array operations, so the moments differentiate in ``k`` and
``df`` (real, as SciPy's shapes), though the distribution's own functions (SciPy's values)
do not.  ``k`` must be a plain value (the grid's length depends on it).
"""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..primitives.structural import stop_gradient
from . import special as sp

__all__ = ["studentized_range_munp"]

_X = np.arange(-144, 145) / 16.0
_DX = 1.0 / 16.0
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(16)
_LOG_TAIL = math.log(1e-22)


def _range_tail(r, k):
    """``P(R > r)`` for the range ``R`` of ``k`` standard normals, at the plain nodes
    ``r`` (last axis) for each ``k`` (``k`` with two trailing axes of length 1 added)."""
    from scipy.special import ndtr  # (plain nodes: the gaps do not depend on k)
    x = _X[:, None]
    # Phi(x + r) - Phi(x), from the upper tails where x > 0
    gap = np.where(x > 0, ndtr(-x) - ndtr(-x - r), ndtr(x + r) - ndtr(x))
    log_phi = -0.5 * x * x - 0.5 * math.log(2.0 * math.pi)
    inner = fnp.exp(log_phi + (k - 1.0) * np.log(np.maximum(gap, 1e-300)))
    within = fnp.sum(inner, axis=-2) * _DX * k[..., 0]
    return 1.0 - within


def studentized_range_munp(n, k, df):
    """``E[Q**n]`` of ``studentized_range(k, df)`` (``n`` a plain integer; see the module
    docstring)."""
    if n == 0:
        return 1.0 + 0.0 * (k + df)
    k_plain = np.asarray(concrete_values(
        stop_gradient(k), "studentized_range's moments (a grid whose length k sets)",
        "call stats, mean, var or moment outside jit and vmap"), float)
    with np.errstate(invalid="ignore"):
        k_top = float(np.nanmax(np.where(k_plain > 1, k_plain, 2.0), initial=2.0))
    top = math.ceil(math.sqrt(4.0 * (2.0 * math.log(k_top) - _LOG_TAIL)))
    starts = np.arange(float(top))[:, None]
    r = (starts + 0.5 * (1.0 + _NODES)).ravel()
    w = np.tile(0.5 * _WEIGHTS, top)
    shape = fnp.broadcast_shapes(fnp.shape(k), fnp.shape(df))
    kk = fnp.expand_dims(fnp.broadcast_to(fnp.asarray(k, dtype=float), shape), -1)
    tail = _range_tail(r, fnp.expand_dims(kk, -1))
    range_moment = n * fnp.sum(w * r ** (n - 1) * tail, axis=-1)
    diverges = fnp.less_equal(df, n)
    safe_df = fnp.where(diverges, n + 1.0, df)
    scale = fnp.exp(0.5 * n * fnp.log(0.5 * safe_df) + sp.gammaln(0.5 * (safe_df - n))
                    - sp.gammaln(0.5 * safe_df))
    return fnp.where(diverges, math.inf, range_moment * scale)

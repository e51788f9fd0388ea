"""The values of the ``hyp0f1`` primitive: SciPy's, repaired where SciPy's are wrong.

For ``z < 0`` SciPy 1.17 computes ``0F1(; v; z)`` as the product
``(-z)**((1 - v)/2) * Gamma(v) * J_{v-1}(2 sqrt(-z))``, whose factors leave the range of
a double long before the value does: ``Gamma(v)`` overflows past ``v = 171.6``, the power
over- or underflows once ``|(1 - v) log sqrt(-z)| > 709``, and ``J`` underflows (or, for
``v < 0``, overflows) far from its turning point.  Then SciPy returns inf, NaN, 0 or a
value that lost digits in a subnormal factor, where the truth is ordinary:
``hyp0f1(179.628, -39.1115)`` is inf in SciPy, 0.80423 in truth (mpmath);
``hyp0f1(287.116, -0.0670401)`` NaN (0.99977); ``hyp0f1(100.001, -9.02317e7)`` 0
(2.8323e-241).  (Found by a sweep against mpmath: ``benchmarks/results/session26-hyp0f1.md``.)

Those elements (the factors are checked, so SciPy's values are kept bit for bit wherever
its product is computed in range) are computed here instead, with ``nu = v - 1``,
``x = 2 sqrt(-z)``:

* ``v > 0``, ``|z| <= v/4``: the power series (:mod:`funcgrad.kernels.cpu.hyp0f1`), each
  term at most a quarter of the one before;
* ``v > 0``, ``x < nu`` with ``nu (a - tanh a) > DEBYE_FROM`` (``cosh a = nu/x``, where
  ``J_nu(x) < ~exp(-600)``): Debye's expansion of ``J_nu(nu sech a)`` (DLMF 10.19.3,
  terms to ``U_4``) with Stirling's series of ``Gamma``, their large exponents cancelled
  in closed form: ``log 0F1 = nu g(a) - log(tanh a)/2 + stirling(nu) + log(sum U_k/nu**k)``
  with ``g = log(1 + e**-2a) + tanh a - 1`` (its expansion parameter there is at most
  ``~1/(3 DEBYE_FROM)``: relative error ~1e-14 against mpmath);
* ``v > 0`` otherwise: SciPy's ``J_{v-1}(x)`` (in range there) times
  ``exp(log Gamma(v) - nu log(x/2))``, that exponent written as
  ``nu (log(2 nu/x) - 1) + log(2 pi nu)/2 + stirling(nu)`` for ``nu >= 50``, so that
  its rounding is that of ``log 0F1`` itself, not of ``log Gamma(v)``;
* ``v < 0`` (not an integer): the power series where its terms' magnitudes sum to less
  than ``CANCEL`` times the result (SciPy's value was NaN there), else NaN.

Relative error against mpmath, sweeps of ``v`` up to 3e4 and ``|z|`` up to 1e9: series
~1e-16, Debye ~1e-13, the Bessel route up to ~1e-12 (of the order of the value's own
condition number times the rounding of ``z``).  ``z >= 0`` and complex arguments:
SciPy's, untouched.  float32 arguments are computed in float64 and rounded, as SciPy's
float32 loop does.
"""
import math

import numpy as np

__all__ = ["repaired", "DEBYE_FROM", "CANCEL"]

DEBYE_FROM = 600.0
CANCEL = 1.0e3
# (the normal doubles span exp(-708.40) to exp(709.78): a factor or partial product whose
# log is past +-708 may have over- or underflowed, or lost digits as a subnormal)
_LOG_RANGE = 708.0
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def _stirling(n):
    """``log Gamma(n + 1) - ((n + 1/2) log n - n + log(2 pi)/2)`` for ``n >= 50``."""
    r = 1.0 / (n * n)
    return (1 / 12 - r * (1 / 360 - r * (1 / 1260 - r * (1 / 1680 - r / 1188)))) / n


def _debye_sum(p, nu):
    """``sum_k U_k(p) / nu**k``, ``k = 0..4`` (DLMF 10.41.10)."""
    p2 = p * p
    u1 = p * (3 - 5 * p2) / 24
    u2 = p2 * (81 + p2 * (-462 + 385 * p2)) / 1152
    u3 = p2 * p * (30375 + p2 * (-369603 + p2 * (765765 - 425425 * p2))) / 414720
    u4 = p2 * p2 * (4465125 + p2 * (-94121676 + p2 * (349922430 + p2 * (
        -446185740 + 185910725 * p2)))) / 39813120
    return 1 + (u1 + (u2 + (u3 + u4 / nu) / nu) / nu) / nu


def _log_debye(nu, x):
    """``log 0F1(; nu + 1; -x**2/4)`` for ``x < nu`` far from the turning point."""
    w = nu / x  # cosh a
    s = np.sqrt((w - 1.0) * (w + 1.0))  # sinh a
    ws = w + s  # e**a
    # g = log(2 cosh a) - 1 + tanh a - a = log1p(e**-2a) - (1 - tanh a), with
    # 1 - tanh a = 1/(w (w + s)): no cancellation as a grows
    g = np.log1p(1.0 / (ws * ws)) - 1.0 / (w * ws)
    tanh = s / w
    return nu * g - 0.5 * np.log(tanh) + _stirling(nu) + np.log(_debye_sum(1.0 / tanh, nu))


def _log_scale(v, nu, x, gammaln):
    """``log(Gamma(v) (x/2)**-nu)``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = gammaln(v) - nu * np.log(0.5 * x)
        big = np.maximum(nu, 50.0)
        merged = (big * (np.log(2.0 * big / x) - 1.0) + 0.5 * np.log(big) + _HALF_LOG_2PI
                  + _stirling(big))
    return np.where(nu >= 50.0, merged, direct)


def _positive(v, z, bessel_j, gammaln, series):
    """``0F1(; v; z)`` for ``v > 0``, ``z < 0`` (flat float64 arrays; ``bessel_j`` is
    SciPy's ``J_{v-1}(2 sqrt(-z))`` there)."""
    out = np.empty_like(z)
    near = -z <= 0.25 * v
    if near.any():
        out[near] = series(v[near], z[near])[0]
    far = ~near
    nu, x = v[far] - 1.0, 2.0 * np.sqrt(-z[far])
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.arccosh(np.maximum(nu / x, 1.0))
        debye = (x < nu) & (nu * (a - np.tanh(a)) > DEBYE_FROM)
        j = bessel_j[far]
        log_value = np.where(debye, _log_debye(np.where(debye, nu, 2.0), np.where(debye, x, 1.0)),
                             _log_scale(v[far], nu, x, gammaln) + np.log(np.abs(j)))
        out[far] = np.where(debye, 1.0, np.sign(j)) * np.exp(log_value)
    return out


def _negative(v, z, series):
    """``0F1(; v; z)`` for non-integer ``v < 0``, ``z < 0``: the series where it keeps its
    digits, else NaN."""
    total, size = series(v, z)
    with np.errstate(invalid="ignore"):
        kept = size <= CANCEL * np.abs(total)
    return np.where(kept, total, np.nan)


def _scipy_in_range(v, z, jv, gammaln):
    """(mask: SciPy's three factors and their product are all in range, SciPy's
    ``J_{v-1}(2 sqrt(-z))``) for ``z < 0``."""
    root = np.sqrt(-z)
    bessel_j = jv(v - 1.0, 2.0 * root)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        log_power = (1.0 - v) * np.log(root)
        log_gamma = gammaln(v)
        log_j = np.log(np.abs(bessel_j))
        # (SciPy multiplies left to right: power * Gamma, then * J)
        ok = ((np.abs(log_power) < _LOG_RANGE) & (np.abs(log_gamma) < _LOG_RANGE)
              & (np.abs(log_power + log_gamma) < _LOG_RANGE)
              & (log_j > -_LOG_RANGE) & (log_j < _LOG_RANGE)
              & (np.abs(log_power + log_gamma + log_j) < _LOG_RANGE))
    return ok, bessel_j


def repaired(scipy_hyp0f1):
    """``scipy_hyp0f1`` (SciPy's ufunc ``(v, z, **ufunc_keywords)``) with its values
    replaced where they are wrong (the module docstring): the ``hyp0f1`` primitive's CPU
    computation."""
    def hyp0f1(v, z):
        if any(np.iscomplexobj(a) for a in (v, z)):
            return scipy_hyp0f1(v, z)  # (SciPy's complex loop)
        v64, z64 = np.broadcast_arrays(*(np.asarray(a, dtype=np.float64) for a in (v, z)))
        with np.errstate(invalid="ignore"):
            # (SciPy's own branches: its poles, and |z| < 1e-6 (1 + |v|), where it sums
            # the series to z**2 itself)
            candidate = (np.isfinite(v64) & np.isfinite(z64) & (z64 < 0.0)
                         & (np.abs(z64) >= 1e-6 * (1.0 + np.abs(v64)))
                         & ~((v64 <= 0.0) & (v64 == np.floor(v64))))
        if not candidate.any():
            return scipy_hyp0f1(v, z)
        import scipy.special as special  # (funcgrad's import never loads SciPy)
        vc, zc = v64[candidate], z64[candidate]
        fine, bessel_j = _scipy_in_range(vc, zc, special.jv, special.gammaln)
        if fine.all():
            return scipy_hyp0f1(v, z)
        mine = np.zeros(v64.shape, dtype=bool)
        mine[candidate] = ~fine
        values = scipy_hyp0f1(v, z, where=~mine, out=None)
        from ..kernels.cpu import hyp0f1 as kernel  # (imports Numba: on first use)
        out = np.array(values, copy=True)
        vm, zm, jm = vc[~fine], zc[~fine], bessel_j[~fine]
        computed = np.empty_like(zm)
        up = vm > 0.0
        computed[up] = _positive(vm[up], zm[up], jm[up], special.gammaln, kernel.series)
        computed[~up] = _negative(vm[~up], zm[~up], kernel.series)
        out[mine] = computed
        return out if isinstance(values, np.ndarray) and out.ndim else out[()]
    hyp0f1.__name__ = hyp0f1.__qualname__ = "hyp0f1"
    return hyp0f1

"""The one-sided Kolmogorov-Smirnov distribution: ``smirnov(n, d) = P(D+_n > d)`` and its
inverse ``smirnovi(n, p)``, whose values are SciPy's ufuncs (as
:mod:`.special_scipy`: SciPy imported on the first call, ``jit`` calls SciPy), and
``smirnov_derivative(n, d, k)``, the ``k``-th derivative in ``d``, a generated kernel
(its scalar definition below: CPU, GPU and ``jit`` loops).

The derivatives come from the finite sum (Birnbaum and Tingey)
``smirnov(n, d) = sum_{j=0}^{floor(n(1-d))} C(n, j) d x_j**(j-1) y_j**(n-j)``,
``x_j = d + j/n``, ``y_j = 1 - x_j``, differentiated term by term.  A term enters the
sum as ``d`` falls through ``(n - j)/n``, at ``y_j = 0``, with value 0 but not always
with slope 0 (``j = n - 1``: the slope jumps by 1 at ``d = 1/n``); there, as at
``d = 0``, the derivatives here are the right-hand ones (the terms with ``y_j > 0``),
as SciPy's density is for ``n >= 5``.  With ``f_j = x_j**(j-1) y_j**(n-j)`` (``j >= 1``),
``D**k (d f_j) = d D**k f_j + k D**(k-1) f_j`` and by Leibniz
``D**a f_j = sum_i C(a, i) (j-1)_i (n-j)_(a-i) (-1)**(a-i) x_j**(j-1-i) y_j**(n-j-a+i)``
(falling factorials; ``dx/dd = 1``, ``dy/dd = -1``); the ``j = 0`` term is ``(1-d)**n``.
Each product is summed as one ``exp`` of log-gammas (``C(n, j)`` overflows far below
SciPy's largest ``n``), for any ``k``: the derivative of ``smirnov_derivative(n, d, k)``
in ``d`` is ``smirnov_derivative(n, d, k + 1)``, so derivatives of every order follow.
The rules compute it in float64 for float32 operands (then cast back), as SciPy
computes float32 ``smirnov``: in float32 the log-gammas (about ``n log n``) keep too few
digits.  ``smirnovi``'s
derivative is one over ``smirnov``'s at the result (the inverse function theorem).  None
in the integer ``n``: ``NotImplementedError`` naming it.  Outside SciPy's domain
(``n < 1``, ``d`` outside ``[0, 1]``, NaN) the derivatives are NaN, as the values.
"""
import numpy as np

from ..core import weak_result_type
from ._elementwise import elementwise
from .structural import convert_element_type
from .special_scipy import _call, _declare, _not_implemented

# x0 = n (truncated, as SciPy's float loop), x1 = d, x2 = k.  No log of 0 even in a branch
# not taken (the compiler may compute it early: a divide-by-zero warning at every
# breakpoint d = j/n).  The sum over j >= 1 of
# D**a f_j, a = k and a = k - 1 ("high", "low"), term by term: log C(n, j) + log of the
# falling factorials = lgamma(n+1) - log j - lgamma(j-i) - lgamma(n-j-a+i+1) (the
# lgamma(n-j+1) of C(n, j) cancels that of (n-j)_(a-i)), plus log C(a, i).
_BODY = """n = F.floor(x0)
d = x1
k = F.floor(x2)
if n >= C(1) and d >= C(0) and d <= C(1) and k >= C(0):
    lgn = F.lgamma(n + C(1))
    kpar = k - C(2) * F.floor(k * C(0.5))
    total = C(0)
    if k <= n:
        y0 = C(1) - d
        t0 = C(1)
        if n > k:
            t0 = y0 ** (n - k)
        t0 = t0 * F.exp(lgn - F.lgamma(n - k + C(1)))
        total = t0 if kpar == C(0) else -t0
    m = F.floor(n * (C(1) - d))
    if m > n - C(1):
        m = n - C(1)
    high = C(0)
    low = C(0)
    j = C(1)
    while j <= m:
        x = d + j / n
        y = (n - j) / n - d
        lx = F.log(x)
        ly = y
        if y <= C(0):
            ly = C(1)
        ly = F.log(ly)
        base = lgn - F.log(j)
        a = k - C(1)
        while a <= k and y > C(0):
            if a >= C(0):
                lga = F.lgamma(a + C(1))
                s = C(0)
                i = C(0)
                while i <= a:
                    ex = j - C(1) - i
                    ey = n - j - a + i
                    if ex >= C(0) and ey >= C(0):
                        lt = base + lga - F.lgamma(i + C(1)) - F.lgamma(a - i + C(1))
                        lt = lt - F.lgamma(ex + C(1)) - F.lgamma(ey + C(1))
                        t = F.exp(lt + ex * lx + ey * ly)
                        odd = (a - i) - C(2) * F.floor((a - i) * C(0.5))
                        s = s + (t if odd == C(0) else -t)
                    i = i + C(1)
                if a == k:
                    high = high + s
                else:
                    low = low + s
            a = a + C(1)
        j = j + C(1)
    r = total + d * high + k * low
else:
    r = C(F.NAN)"""


def _slope(n, d, k):
    """``smirnov_derivative(n, d, k)`` computed in float64 and given back in its own
    dtype: in float32 the log-gammas of the terms (about ``n log n``) keep too few digits
    (10% wrong at ``n = 1000``, ``d = 0``; 0.3% at ``n = 10**4`` where the density
    peaks); in float64, ~1e-9 at ``n = 10**6``."""
    dtype = weak_result_type(n, d, k)
    if dtype != np.float32:
        return smirnov_derivative(n, d, k)
    wide = smirnov_derivative(convert_element_type(n, np.float64),
                              convert_element_type(d, np.float64), k)
    return convert_element_type(wide, np.float32)


def _derivative_lin_d(g, n, d, k, out):
    return g * _slope(n, d, k + 1)


def _smirnov_lin_d(g, n, d, out):
    return g * _slope(n, d, 1)


def _smirnovi_lin_p(g, n, p, d):
    return g / _slope(n, d, 1)


def _smirnovc_lin_d(g, n, d, out):
    return g * -_slope(n, d, 1)


def _smirnovci_lin_p(g, n, p, d):
    return g / -_slope(n, d, 1)


def _private_scipy(name):
    """SciPy's private ufunc ``scipy.special._ufuncs.<name>`` (``scipy.stats.ksone``'s
    own), imported on the first call."""
    def kernel(*args):
        try:
            from scipy.special import _ufuncs
            f = getattr(_ufuncs, name)
        except (ImportError, AttributeError) as e:
            raise ImportError(f"funcgrad's {name[1:]} takes its values from SciPy's "
                              f"scipy.special._ufuncs.{name}, which this SciPy lacks: "
                              f"pip install 'scipy>=1.2'") from e
        return f(*args)
    kernel.__name__ = kernel.__qualname__ = name[1:]
    return kernel


def smirnov_density(n, d):
    """``-d/dd smirnov(n, d)``, the density of ``D+_n`` (``scipy.stats.ksone.pdf``),
    computed as the rules compute the slope (float64 for float32 operands)."""
    return -_slope(n, d, 1)


smirnov_derivative_p = elementwise(
    "smirnov_derivative", None, {"f": _BODY},
    _not_implemented("smirnov_derivative(n, d, k)", "n", "d"), _derivative_lin_d, None)
smirnov_p = _declare("smirnov", _not_implemented("smirnov(n, d)", "n", "d"), _smirnov_lin_d)
smirnovi_p = _declare("smirnovi", _not_implemented("smirnovi(n, p)", "n", "p"),
                      _smirnovi_lin_p)
# the complements, for ksone's cdf and ppf: P(D+_n <= d) and its inverse, accurate where
# it is small (1 - smirnov would round it away)
smirnovc_p = _declare("smirnovc", _not_implemented("smirnovc(n, d)", "n", "d"),
                      _smirnovc_lin_d, kernel=_private_scipy("_smirnovc"))
smirnovci_p = _declare("smirnovci", _not_implemented("smirnovci(n, p)", "n", "p"),
                       _smirnovci_lin_p, kernel=_private_scipy("_smirnovci"))
smirnov_derivative, smirnov, smirnovi, smirnovc, smirnovci = map(_call, (
    smirnov_derivative_p, smirnov_p, smirnovi_p, smirnovc_p, smirnovci_p))

__all__ = ["smirnov", "smirnovi", "smirnovc", "smirnovci", "smirnov_derivative",
           "smirnov_density"]

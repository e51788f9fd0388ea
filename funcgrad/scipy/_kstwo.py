"""``kstwo(n)``: the distribution of the two-sided Kolmogorov-Smirnov statistic ``D_n`` of
``n`` samples (SciPy's ``kstwo``), whose values are SciPy's (imported on the first call;
concrete values only, so not under ``jit``/``vmap``).

Differentiable once in the statistic (or the probability): the CDF's derivative is the
density, the quantile's one over the density there, both SciPy's.  The density's own
derivative is not available, so a second derivative raises rather than treating the
density as a constant; ``n``, an integer, has none.
"""
import numpy as np

from .. import numpy as fnp
from ..custom import custom_jvp
from ..numpy._convert import concrete_values
from ._distn import _all, rv_continuous

__all__ = ["kstwo"]


def _scipys(method, z, n):
    """SciPy's ``kstwo.<method>(z, n)`` in ``z``'s float type."""
    from scipy import stats
    what = f"kstwo.{method} (SciPy's values)"
    fix = "call it outside jit and vmap"
    zc, nc = concrete_values(z, what, fix), concrete_values(n, what, fix)
    dtype = zc.dtype if zc.dtype.kind == "f" else np.float64
    return np.asarray(getattr(stats.kstwo, method)(zc, nc), dtype)


def _first_order(method, slope):
    """SciPy's ``method`` as a function of ``(z, n)`` whose derivative in ``z`` is
    ``slope(z, n, value)`` (``n`` takes none)."""
    @custom_jvp
    def f(z, n):
        return _scipys(method, z, n)

    @f.defjvp
    def f_jvp(primals, tangents):
        z, n = primals
        dz, dn = tangents
        value = f(z, n)
        return value, slope(z, n, value) * dz
    f.__name__ = f"kstwo_{method}"
    return f


@custom_jvp
def _density(z, n):
    return _scipys("pdf", z, n)


@_density.defjvp
def _density_jvp(primals, tangents):
    raise NotImplementedError(
        "kstwo: the derivative of the density (a second derivative of the distribution "
        "function, or a first one of the density) is not available; differentiate once")


_cdf = _first_order("cdf", lambda z, n, value: _density(z, n))
_sf = _first_order("sf", lambda z, n, value: -_density(z, n))
_ppf = _first_order("ppf", lambda q, n, x: 1.0 / _density(x, n))
_isf = _first_order("isf", lambda q, n, x: -1.0 / _density(x, n))


def _logpdf(z, n):
    density = _density(z, n)
    positive = fnp.greater(density, 0)
    return fnp.where(positive, fnp.log(fnp.where(positive, density, 1.0)), -np.inf)


kstwo = rv_continuous(
    "kstwo", shapes=("n",),
    _valid=lambda n: _all(fnp.greater_equal(n, 1), fnp.equal(n, fnp.floor(n))),
    _logpdf=_logpdf, _cdf=_cdf, _sf=_sf, _ppf=_ppf, _isf=_isf)
kstwo.__doc__ = """SciPy's ``kstwo`` distribution (parameters: n, loc, scale): the two-sided
Kolmogorov-Smirnov statistic of ``n`` samples; SciPy's values, differentiable once in
``x`` (or ``q``), concrete values only (see :mod:`funcgrad.scipy._kstwo`).

>>> import funcgrad as fg
>>> from funcgrad.scipy.stats import kstwo
>>> round(float(kstwo.sf(0.3, 10)), 12)
0.2705355748
>>> bool(abs(fg.grad(lambda d: kstwo.cdf(d, 10))(0.3) - kstwo.pdf(0.3, 10)) < 1e-12)
True
"""

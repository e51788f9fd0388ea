"""The von Mises CDF for :mod:`funcgrad.scipy.stats`' ``vonmises`` (which had a log-density
only) and ``vonmises_line``, SciPy's von Mises cut to ``[-pi, pi]`` (re-exported there).

The CDF is SciPy's ``von_mises_cdf``: below ``kappa = 50`` the backward recurrence of the
Fourier series ``1/2 + x/(2 pi) + sum_n I_n(k)/I_0(k) sin(n x)/(n pi)``, the Bessel ratios
by their continued fraction ``R_n = k / (2n + k R_{n+1})``; above it the normal
approximation ``ndtr(sqrt(2/pi) sin(x/2) / i0e(k))``.  SciPy stops the series at a count
that grows with ``k`` (at most 52 terms); here every element runs SciPy's count for the
largest ``k`` of the array (52 when ``k`` is traced), which only adds terms below
rounding for the others and keeps the arrays whole (no per-element loop: jit and vmap
work).  Both branches are smooth in ``x`` and ``kappa``, so the CDF differentiates in
both (its derivative in ``x`` is the series' density; in ``kappa`` the recurrence's).
``vonmises``' CDF counts whole turns, as SciPy's (``cdf(x + 2 pi) = cdf(x) + 1``); the
series value is clipped to [0, 1] before the turns are added, as SciPy's.  The sf is
``1 - cdf`` and the quantiles of ``vonmises_line`` invert the CDF on ``[-pi, pi]``
numerically (:mod:`._statsdists_quantiles`), as SciPy's generic ones.  The entropy is
SciPy's closed form ``-k i1e(k)/i0e(k) + log(2 pi i0e(k)) + k``; ``vonmises_line``'s
mean is 0 (SciPy's); its variance is the moments' quadrature (``stats``).  ``kappa >= 0``
(0: the uniform distribution), as SciPy's.
"""
import math


from .. import numpy as fnp
from ._distn import _all, _support, rv_continuous
from ._distn_more import _vonmises_logpdf
from ._vonmises_cdf import vonmises_cdf, vonmises_entropy
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["vonmises_line"]

def _on_line(z):
    return _all(fnp.greater_equal(z, -math.pi), fnp.less_equal(z, math.pi))


def _line_cdf(z, kappa):
    return vonmises_cdf(fnp.clip(z, -math.pi, math.pi), kappa)


vonmises_line = rv_continuous(
    "vonmises_line", shapes=("kappa",), _valid=lambda kappa: fnp.greater_equal(kappa, 0),
    _logpdf=lambda z, kappa: _support(_on_line(z), _vonmises_logpdf(z, kappa)),
    _cdf=_line_cdf, _sf=lambda z, kappa: 1.0 - _line_cdf(z, kappa),
    _mean=lambda kappa: 0.0 * kappa,
    _entropy=vonmises_entropy)
vonmises_line._ppf, vonmises_line._isf = numeric_quantiles(vonmises_line, (-math.pi, math.pi))

vonmises_line.__doc__ = """SciPy's ``vonmises_line`` distribution (parameters: kappa, loc,
scale), the von Mises density cut to ``[-pi, pi]``; its CDF is SciPy's series (normal
approximation from ``kappa = 50``), differentiable in ``x`` and ``kappa``.

>>> import funcgrad as fg
>>> float(vonmises_line.cdf(0.0, 2.0)), float(vonmises_line.cdf(4.0, 2.0))
(0.5, 1.0)
>>> g = fg.grad(vonmises_line.cdf)(0.7, 2.0)
>>> round(float(g), 12) == round(float(vonmises_line.pdf(0.7, 2.0)), 12)
True
"""

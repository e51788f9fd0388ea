"""The von Mises CDF and entropy (SciPy's ``von_mises_cdf`` and closed form), for
``vonmises`` (:mod:`._distn_more`) and ``vonmises_line`` (:mod:`._statsdists4_vonmises`,
whose docstring describes them)."""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete
from ..lax import stop_gradient
from . import special as sp

_TWO_PI = 2.0 * math.pi
_TERMS = 52  # SciPy's count int(1 + 28 + k/2 - 100/(k + 5)) just below k = 50
_LARGE = 50.0  # SciPy's switch to the normal approximation


def _terms(k):
    """SciPy's term count for the largest ``k`` (plain values), else the most it uses."""
    if not is_concrete(k):
        return _TERMS
    largest = float(np.max(concrete_values(k, "vonmises", "kappa"), initial=0.0))
    return int(min(_TERMS, max(1.0, 1.0 + 28.0 + 0.5 * largest - 100.0 / (largest + 5.0))))


def vonmises_cdf(z, kappa):
    turns = stop_gradient(fnp.round(z / _TWO_PI))  # (a step: no derivative)
    x = z - turns * _TWO_PI
    small = fnp.less(kappa, _LARGE)
    k = fnp.where(small, kappa, 1.0)  # (the double-where idiom: each branch its safe input)
    ratio, total = 0.0, 0.0
    for n in range(_terms(k) - 1, 0, -1):
        ratio = k / (2.0 * n + k * ratio)
        total = ratio * (fnp.sin(n * x) / n + total)
    series = fnp.clip(0.5 + x / _TWO_PI + total / math.pi, 0.0, 1.0)
    big = fnp.where(small, _LARGE, kappa)
    normal = sp.ndtr(math.sqrt(2.0 / math.pi) / sp.i0e(big) * fnp.sin(0.5 * x))
    return fnp.where(small, series, normal) + turns


def vonmises_entropy(kappa):
    return -kappa * sp.i1e(kappa) / sp.i0e(kappa) + fnp.log(_TWO_PI * sp.i0e(kappa)) + kappa

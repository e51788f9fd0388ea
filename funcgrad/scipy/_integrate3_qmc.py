"""``qmc_quad``: SciPy's quasi-Monte Carlo integral over a box, differentiable.

The points are SciPy's own: ``scipy.integrate.qmc_quad`` is run on the unit cube with an
integrand that only records the points it is given (the draws depend on the engine and the
dimension, not on the box), so the same ``qrng`` (the same seed) gives SciPy's points,
engine re-seeding between estimates included.  The estimates are then formed here as
SciPy forms them, ``sum f(x) * volume / n_points`` on the points moved into the box: a
smooth function of the limits and of what ``func`` depends on, differentiated as it stands
(the derivative of the estimate is the same quasi-Monte Carlo estimate of the integral's
derivative).  Only the draws need SciPy; the integrand runs under any transform.
"""
import math
import warnings
from collections import namedtuple
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ..typing import ArrayLike
from ._integrate3_elementwise import scipy_function

QMCQuadResult = namedtuple("QMCQuadResult", ["integral", "standard_error"])


def _unit_samples(dim, n_estimates, n_points, qrng):
    """SciPy's points on the unit cube, one ``(dim, n_points)`` array per estimate."""
    seen = []

    def record(x):
        seen.append(np.array(x, copy=True))
        return np.zeros(np.shape(x)[1:])

    scipy_function("qmc_quad")(record, np.zeros(dim), np.ones(dim),
                               n_estimates=n_estimates, n_points=n_points, qrng=qrng)
    return seen[-n_estimates:] if n_estimates else []  # (after SciPy's two trial calls)


def _logsumexp(v):
    top = stop_gradient(fnp.max(v))
    top = fnp.where(fnp.isfinite(top), top, 0.0)
    return fnp.log(fnp.sum(fnp.exp(v - top))) + top


def qmc_quad(func: Callable[..., ArrayLike], a: ArrayLike, b: ArrayLike, *,
             n_estimates: int = 8, n_points: int = 1024, qrng: Any = None,
             log: bool = False) -> QMCQuadResult:
    """The integral of ``func`` over the box ``[a, b]`` by quasi-Monte Carlo, as
    ``scipy.integrate.qmc_quad``: the mean of ``n_estimates`` estimates on ``n_points``
    points each (a scrambled Halton sequence by default, or the engine ``qrng`` of
    ``scipy.stats.qmc``, re-seeded from its own generator between estimates) and its
    standard error, as ``QMCQuadResult(integral, standard_error)``.  ``func(x)`` takes
    ``x`` of shape ``(len(a), n_points)`` and returns ``n_points`` values; ``log=True``
    takes and gives logarithms (a ``func`` that fails on many points at once is called
    on each point, with SciPy's warning).  The same engine (the same seed) gives SciPy's
    points and values, to rounding.

    Differentiable in ``a``, ``b`` and whatever ``func`` depends on (arguments it
    captures), in both modes: the derivative of the estimate, itself the quasi-Monte Carlo
    estimate of the integral's derivative on the same points.  Runs under ``jit`` and
    ``vmap`` (the points are drawn when it is traced) except with ``log=True``, whose sign
    handling needs concrete limits.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.integrate as fsi
    >>> from scipy.stats import qmc
    >>> def box(s):  # the integral of exp(-s x0) x1 over [0, 1]^2: (1 - e^-s) / (2 s)
    ...     return fsi.qmc_quad(lambda x: np.exp(-s * x[0]) * x[1], [0.0, 0.0], [1.0, 1.0],
    ...                         qrng=qmc.Halton(2, rng=1)).integral
    >>> # at s = 1: 0.31606..., and its derivative (2 e^-1 - 1) / 2 = -0.13212...
    >>> round(float(box(1.0)), 4), round(float(fg.grad(box)(1.0)), 4)
    (0.3161, -0.1321)
    """
    if not callable(func):
        raise TypeError("`func` must be callable.")
    if log not in (True, False):
        raise TypeError("`log` must be boolean (`True` or `False`).")
    if int(n_points) != n_points:
        raise TypeError("`n_points` must be an integer.")
    if int(n_estimates) != n_estimates:
        raise TypeError("`n_estimates` must be an integer.")
    a, b = asarray(a), asarray(b)
    dtype = np.result_type(a.dtype, b.dtype)
    dtype = dtype if dtype.kind == "f" else np.dtype(np.float64)
    a, b = fnp.atleast_1d(fnp.astype(a, dtype)), fnp.atleast_1d(fnp.astype(b, dtype))
    shape = np.broadcast_shapes(a.shape, b.shape)
    a, b = fnp.broadcast_to(a, shape), fnp.broadcast_to(b, shape)
    samples = _unit_samples(shape[0], int(n_estimates), int(n_points), qrng)
    ends = [stop_gradient(x) for x in (a, b)]
    concrete = not any(isinstance(x, Tracer) for x in ends)
    if concrete and np.any(np.asarray(ends[0]) == np.asarray(ends[1])):
        if any(isinstance(x, Tracer) or is_special(x) for x in (a, b)):
            raise NotImplementedError(
                "qmc_quad: a lower limit equals an upper limit, where SciPy returns 0 "
                "without evaluating func, so the derivative in the limits (a face "
                "integral) is not available; move the limits apart")
        warnings.warn("A lower limit was equal to an upper limit, so the value of the "
                      "integral is zero by definition.", stacklevel=2)
        return QMCQuadResult(np.asarray(-np.inf if log else 0.0, dtype),
                             np.asarray(0.0, dtype))
    if log and not concrete:
        raise TypeError("qmc_quad(log=True) needs concrete limits (the sign of a reversed "
                        "box makes the result complex); call it outside jit and vmap")
    try:  # (as SciPy: a func that cannot take many points is called on each)
        func(fnp.transpose(fnp.stack([a, b])))
        vfunc = func
    except Exception as error:
        warnings.warn(f"Exception encountered when attempting vectorized call to `func`: "
                      f"{error}. For better performance, `func` should accept two-"
                      f"dimensional array `x` with shape `(len(a), n_points)` and return an "
                      f"array of the integrand value at each of the `n_points`.",
                      stacklevel=2)

        def vfunc(x):
            return fnp.stack([asarray(func(x[:, j])) for j in range(x.shape[1])])
    # (SciPy swaps reversed limits and carries the sign)
    lo, hi = fnp.minimum(a, b), fnp.maximum(a, b)
    sign = fnp.prod(fnp.where(b < a, -1.0, 1.0))
    d_volume = fnp.prod(hi - lo) / n_points
    per_draw = []
    for unit in samples:
        x = fnp.transpose(fnp.asarray(unit.T.astype(dtype)) * (hi - lo) + lo)
        values = asarray(vfunc(x))
        per_draw.append(_logsumexp(values) + fnp.log(d_volume) if log else
                        fnp.sum(values * d_volume))
    estimates = fnp.stack(per_draw)
    n = len(samples)
    if log:
        integral = _logsumexp(estimates) - math.log(n)
        # log of the estimates' standard deviation, as SciPy's: on exp(estimate - mean)
        spread = fnp.sum((fnp.exp(estimates - integral) - 1.0) ** 2) / (n - 1)
        standard_error = integral + 0.5 * fnp.log(spread) - 0.5 * math.log(n)
        if float(np.asarray(stop_gradient(sign))) < 0:
            integral = integral + 1j * math.pi
    else:
        integral = fnp.mean(estimates)
        standard_error = fnp.std(estimates, ddof=1) / math.sqrt(n)
        integral = integral * fnp.astype(sign, dtype)
    return QMCQuadResult(integral, standard_error)

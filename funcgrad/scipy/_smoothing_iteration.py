"""FITPACK's smoothing spline on given knots, replayed with funcgrad operations: the
iteration for the smoothing parameter ``p`` (``fp(p) = s``, FITPACK's ``fpcurf`` with
SciPy's ``root_rati``), its branches decided on the values as FITPACK's, each step a
penalised least-squares solve.  So ``p`` is the same function of the data as SciPy's,
and derivatives of the coefficients are those of SciPy's result (holding ``p`` at its
final value would leave out how it moves with the data: a few % off in the gradient).
Shared by ``splrep``/``UnivariateSpline``/``splprep`` (:mod:`._bspline_fit`) and
``make_splrep``/``make_splprep`` (:mod:`._interpmore2_splrep`).
"""
import math
import warnings
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import concrete_values
from ._bspline import basis_matrix

# FITPACK's constants (curfit.f, fpcurf.f): relative tolerance on fp and iteration cap
_TOL, _MAXIT = 0.001, 20

_FIX = "Call it outside vmap/jit: SciPy's knots depend on the values of the data."


@internal  # (the zero rows, unit weights and SciPy's jumps follow the data's device)
def least_squares(a, w, y2d, penalty=None):
    """The coefficients minimising ``||w (y - a c)||**2 (+ ||penalty c||**2)``: a QR
    solve of the stacked system (no normal equations: their condition is squared)."""
    system = a * w[:, None]
    rhs = y2d * fnp.astype(w[:, None], y2d.dtype)
    if penalty is not None:
        system = fnp.concatenate([system, penalty])
        rhs = fnp.concatenate([rhs, fnp.zeros((penalty.shape[0], y2d.shape[1]), y2d.dtype)])
    q, r = fnp.linalg.qr(system)
    return fnp.linalg.solve(fnp.astype(r, y2d.dtype),
                            fnp.matmul(fnp.astype(fnp.transpose(q), y2d.dtype), rhs))


def _value(v):
    """A scalar's value, for the branches of the iteration (no derivative needed)."""
    if isinstance(v, float):
        return v
    return float(concrete_values(v, "the smoothing iteration's branch", _FIX))


def _infinite(p):
    return isinstance(p, float) and p == math.inf


def _jumps(t, k):
    """FITPACK's discontinuity rows, differentiable in the knots: row ``l`` holds the
    jumps of the ``k``-th derivatives of the B-splines at the interior knot ``t[k + 1 +
    l]`` (``(t[i + k + 1] - t[i]) / prod_{s != j} (t_j - t_s)`` over ``B_i``'s knots),
    scaled by ``(span / pieces)**k`` as FITPACK's (its normalisation of ``p``)."""
    n = t.shape[0]
    pieces = n - 2 * k - 1
    count = n - k - 1
    rows = np.arange(pieces - 1)
    at = fnp.take(t, rows + k + 1)
    out = None
    for offset in range(k + 2):
        first = rows + offset  # (B_first: knots first .. first + k + 1)
        product = None
        for s in range(k + 2):
            if s != k + 1 - offset:
                step = at - fnp.take(t, first + s)
                product = step if product is None else product * step
        entry = (fnp.take(t, first + k + 1) - fnp.take(t, first)) / product
        term = entry[:, None] * np.eye(count)[first]
        out = term if out is None else out + term
    return out * ((t[n - k - 1] - t[k]) / pieces) ** k


def _fit(a, w, y2d, penalty=None):
    """The (penalised) least-squares coefficients and the weighted residual sum."""
    c = least_squares(a, w, y2d, penalty)
    residual = w[:, None] * (y2d - fnp.matmul(a, c))
    return c, fnp.sum(residual * residual)


def _rational_root(p1, f1, p2, f2, p3, f3):
    """The root of ``r(p) = (u p + v) / (p + w)`` through three points (FITPACK's
    fprati; ``p3`` may be infinite)."""
    h1, h2, h3 = f1 * (f2 - f3), f2 * (f3 - f1), f3 * (f1 - f2)
    if _infinite(p3):
        return -(p2 * h1 + p1 * h2) / h3
    return -(p1 * p2 * h3 + p2 * p3 * h1 + p1 * p3 * h2) / (p1 * h1 + p2 * h2 + p3 * h3)


_MESSAGES = {
    2: "error. a theoretically impossible result was found during the iteration process "
       "for finding a smoothing spline with fp = s. probably causes : s too small. there "
       "is an approximation returned but the corresponding weighted sum of squared "
       "residuals does not satisfy the condition abs(fp-s)/s < tol.",
    3: "error. the maximal number of iterations maxit (set to 20 by the program) allowed "
       "for finding a smoothing spline with fp=s has been reached. probably causes : s "
       "too small there is an approximation returned but the corresponding weighted sum "
       "of squared residuals does not satisfy the condition abs(fp-s)/s < tol.",
}


@internal  # (the sites, knots and jumps, plain arrays, join the data's device)
def _smoothing_fit(x, y2d, w, t, k, s, xb, xe):
    """The coefficients ``(len(t) - k - 1, d)`` of SciPy's smoothing spline on the knots
    ``t``: FITPACK's iteration for ``p`` (SciPy's ``root_rati``), replayed on funcgrad
    values with its branches decided as SciPy's."""
    a = basis_matrix(t, k, x)
    count = t.shape[0] - k - 1
    if t.shape[0] == 2 * (k + 1):  # (no interior knot: nothing to smooth)
        return _fit(a, w, y2d)[0]
    acc = s * _TOL
    jumps = _jumps(t, k)
    weighted = a * w[:, None]
    # FITPACK's first p: the count over the trace of R (A'W'WA = R'R)
    p = count / fnp.sum(fnp.diagonal(fnp.linalg.cholesky(
        fnp.matmul(fnp.transpose(weighted), weighted))))
    f3 = _fit(a, w, y2d)[1] - s
    polynomial = fnp.concatenate([xb] * (k + 1) + [xe] * (k + 1))
    f1 = _fit(basis_matrix(polynomial, k, x), w, y2d)[1] - s
    p1: Any = 0.0
    p3: Any = math.inf
    ich1 = ich3 = 0
    ier = 3
    c = None
    for _ in range(_MAXIT):
        p2 = p
        c, fp = _fit(a, w, y2d, jumps / p)
        f2 = fp - s
        value2 = _value(f2)
        if abs(value2) < acc:
            ier = 0
            break
        if ich3 == 0:
            if value2 - _value(f3) <= acc:  # (p too large)
                p3, f3 = p2, f2
                p = p * 0.04
                if _value(p) <= _value(p1):
                    p = p1 * 0.9 + p2 * 0.1
                continue
            if value2 < 0:
                ich3 = 1
        if ich1 == 0:
            if _value(f1) - value2 <= acc:  # (p too small)
                p1, f1 = p2, f2
                p = p / 0.04
                if not _infinite(p3) and _value(p) <= _value(p3):
                    p = p2 * 0.1 + p3 * 0.9
                continue
            if value2 > 0:
                ich1 = 1
        if _value(f1) <= value2 or value2 <= _value(f3):  # (fp(p) must decrease)
            ier = 2
            break
        p = _rational_root(p1, f1, p2, f2, p3, f3)
        if value2 < 0:
            p3, f3 = p2, f2
        else:
            p1, f1 = p2, f2
    if ier:
        warnings.warn(RuntimeWarning(_MESSAGES[ier]), stacklevel=3)
    return c



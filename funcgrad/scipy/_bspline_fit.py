"""Fitted (not interpolating) splines: the least-squares spline on given knots
(``make_lsq_spline``), FITPACK's smoothing spline (the fit behind ``splrep`` with ``s >
0`` and ``UnivariateSpline``) and the GCV smoothing spline (``make_smoothing_spline``).

A least-squares spline minimises ``sum_j (w_j (y_j - s(x_j)))**2``; the coefficients are
one QR solve of the weighted design matrix (the B-splines at the sites), so they are
differentiable in ``x``, ``y``, ``w`` and the knots.

FITPACK's smoothing spline with ``s > 0`` is found by a search on the data: knots are
added one at a time where the residuals are largest, then a scalar ``p`` is iterated
until the residual sum is close to ``s``.  The knots are SciPy's (a choice made on the
values, piecewise constant in them); on them FITPACK's iteration for ``p`` is replayed
with funcgrad operations (:mod:`._smoothing_iteration`), so ``p`` moves with the data as
SciPy's does and the derivatives in ``y`` and ``w`` are those of SciPy's result.  Where
the replay does not reproduce SciPy's coefficients, SciPy's values are returned and a
derivative in ``y`` or ``w`` raises.  The knots are data sites, so the result has no
derivative in ``x`` (a traced ``x`` raises).

``make_smoothing_spline`` solves SciPy's system in the basis of natural cubic splines,
``(X + lam W^-1 E) c = y``, dense; with ``lam=None`` the GCV choice of ``lam`` is
SciPy's own search on the values, with no derivative (it raises).
"""
import operator
import warnings
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import ArrayLike
from ._banded import _dense
from ..core import Tracer, internal
from ._bspline import BSpline, basis_matrix, on_device_of, real_promoted
from ._smoothing_iteration import _smoothing_fit, least_squares
from ..lax import stop_gradient

__all__ = ["make_lsq_spline", "make_smoothing_spline"]


def design(x, t, k):
    """The B-splines on the knots ``t`` at the sites ``x``: ``(len(x), len(t) - k - 1)``."""
    return basis_matrix(t, k, x)


def schoenberg_whitney(name, x, t, k):
    """Raise unless each B-spline can take its own site strictly inside its support
    (else the least-squares system is singular)."""
    sites = concrete_values(x, "", "")
    knots = concrete_values(t, "", "")
    count = knots.shape[0] - k - 1
    i = 0
    for j in range(count):
        low, high = knots[j], knots[j + k + 1]
        while i < sites.shape[0] and not (sites[i] > low or (j == 0 and sites[i] >= low)):
            i += 1
        if i == sites.shape[0] or not (sites[i] < high or (j == count - 1
                                                            and sites[i] <= high)):
            raise ValueError(f"{name}: the knots and the data do not satisfy the "
                             f"Schoenberg-Whitney conditions (B-spline {j} has no data "
                             f"site of its own inside its support): the least-squares "
                             f"problem is singular; use fewer interior knots")
        i += 1


def _weights(name, w, m, dtype):
    if w is None:
        return fnp.ones((m,), dtype)
    w = asarray(w)
    if w.ndim != 1 or w.shape[0] != m:
        raise ValueError(f"{name}: Shapes of x ({m},) and w {tuple(w.shape)} are "
                         f"incompatible")
    return fnp.astype(w, dtype) if w.dtype != dtype else w


def make_lsq_spline(x: ArrayLike, y: ArrayLike, t: ArrayLike, k: int = 3,
                    w: Optional[ArrayLike] = None, axis: int = 0, check_finite: bool = True,
                    *, method: str = "qr") -> BSpline:
    """The least-squares spline of degree ``k`` on the knots ``t``
    (``scipy.interpolate.make_lsq_spline``): the coefficients minimise ``sum_j (w_j
    (y_j - s(x_j)))**2``.  Differentiable in ``x``, ``y``, ``t`` and ``w`` (one QR solve
    whatever ``method`` says: 'qr' and 'norm-eq' give the same spline).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(0.0, 4.0, 9)
    >>> t = np.array([0.0] * 4 + [2.0] + [4.0] * 4)
    >>> spl = fi.make_lsq_spline(x, x ** 3, t)  # (a cubic: fitted exactly)
    >>> np.round(spl(np.array([1.0, 3.0])), 12)
    array([ 1., 27.])
    """
    if method not in ("qr", "norm-eq"):
        raise ValueError(f"make_lsq_spline: Unknown method = {method!r}; use 'qr' or "
                         f"'norm-eq'")
    k = operator.index(k)
    if k < 0:
        raise ValueError("make_lsq_spline: Expect non-negative k.")
    x, y, t = asarray(x), asarray(y), asarray(t)
    if y.ndim == 0:
        raise ValueError("make_lsq_spline: y must have at least one dimension")
    axis = int(axis) % y.ndim
    if x.ndim != 1 or x.shape[0] != y.shape[axis]:
        raise ValueError(f"make_lsq_spline: Shapes of x {tuple(x.shape)} and y "
                         f"{tuple(y.shape)} are incompatible")
    x, y = real_promoted(x, y)
    t = fnp.astype(t, x.dtype) if t.dtype != x.dtype else t
    if t.ndim != 1:
        raise ValueError("make_lsq_spline: Expect t to be a 1D strictly increasing "
                         "sequence.")
    if t.shape[0] < 2 * k + 2:
        raise ValueError(f"make_lsq_spline: need at least {2 * k + 2} knots for degree {k}")
    m = x.shape[0]
    w = _weights("make_lsq_spline", w, m, x.dtype)
    if is_concrete(x) and is_concrete(t):
        sites, knots = concrete_values(x, "", ""), concrete_values(t, "", "")
        if np.any(np.diff(knots) < 0):
            raise ValueError("make_lsq_spline: Expect t to be a 1D strictly increasing "
                             "sequence.")
        if np.any(np.diff(sites) < 0) or (method == "norm-eq"
                                          and np.any(np.diff(sites) <= 0)):
            raise ValueError("make_lsq_spline: Expect x to be a 1D non-decreasing "
                             "sequence." if method == "qr" else "make_lsq_spline: Expect "
                             "x to be a 1D strictly increasing sequence.")
        if k > 0 and (sites[0] < knots[k] or sites[-1] > knots[-k]):
            raise ValueError(f"make_lsq_spline: Out of bounds w/ x = {sites}: the sites "
                             f"must lie in [t[k], t[-k]]")
        schoenberg_whitney("make_lsq_spline", x, t, k)
    if check_finite and is_concrete(y) and not np.all(np.isfinite(concrete_values(y, "",
                                                                                  ""))):
        raise ValueError("make_lsq_spline: array must not contain infs or NaNs")
    moved = fnp.moveaxis(y, axis, 0)
    trailing = tuple(moved.shape[1:])
    c = least_squares(design(x, t, k), w, fnp.reshape(moved, (m, -1)))
    return BSpline(t, fnp.reshape(c, (c.shape[0],) + trailing), k, True, axis)


def _no_derivative(name, **values):
    for label, value in values.items():
        if isinstance(value, Tracer):
            raise TypeError(f"{name}: {label} carries a derivative, but FITPACK's smoothing "
                            f"spline places its knots at data sites (and its ends at "
                            f"xb/xe) by a search on the values, so it has none in "
                            f"{label}; pass {label} as plain numbers (derivatives in y and "
                            f"w are given)")


def fitpack_smoothing(name, x, y2d, w, xb, xe, k, s, search="splrep"):
    """FITPACK's smoothing spline (task 0) through ``(x, y2d)`` (``y2d`` ``(m, d)``;
    ``d > 1`` only for ``search='splprep'``, a curve) with weights ``w``: ``(t, c, fp,
    ier, message)``, ``t`` SciPy's knots (constants), ``c`` (``(len(t) - k - 1, d)``)
    FITPACK's coefficients by the replayed iteration (see the module docstring), ``fp``
    the weighted residual sum.  ``search`` names SciPy's caller whose
    knots to take: ``splrep``, ``UnivariateSpline`` and ``splprep`` start FITPACK with
    different room for knots, and so can end with different knots."""
    from scipy import interpolate as scipy_interpolate  # (not at import: funcgrad
    # loads no SciPy)
    _no_derivative(name, x=x, xb=xb, xe=xe)
    fix = "Pass the data outside vmap/jit: the knots depend on their values."
    sites = np.asarray(concrete_values(x, f"{name}'s knot search", fix), np.float64)
    values = np.asarray(concrete_values(y2d, f"{name}'s knot search", fix), np.float64)
    weights = np.asarray(concrete_values(w, f"{name}'s knot search", fix), np.float64)
    xb, xe = (None if v is None else float(concrete_values(asarray(v), "", ""))
              for v in (xb, xe))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the callers warn, naming themselves)
        if search == "splrep":
            (t, c_ref, _), _, ier, message = scipy_interpolate.splrep(
                sites, values[:, 0], weights, xb, xe, k, s=s, full_output=1)
            c_ref = c_ref[:, None]
        elif search == "splprep":
            ((t, c_ref, _), _), _, ier, message = scipy_interpolate.splprep(
                list(values.T), weights, sites, xb, xe, k, s=s, full_output=1)
            c_ref = np.stack(c_ref, axis=1)
        else:
            reference = scipy_interpolate.UnivariateSpline(sites, values[:, 0], weights,
                                                           [xb, xe], k, s)
            t, c_ref, _ = reference._eval_args
            c_ref = c_ref[:, None]
            ier = reference._data[-1]
            message = getattr(scipy_interpolate._fitpack2, "_curfit_messages", {}).get(
                ier, f"ier={ier}")
    if ier > 0 and ier not in (1, 2, 3):
        raise ValueError(f"{name}: {message}")
    c_ref = c_ref[:t.shape[0] - k - 1]
    ends = [np.array([sites[0] if xb is None else xb]), np.array([sites[-1] if xe is None
                                                                  else xe])]
    x64 = fnp.astype(asarray(x), np.float64)
    y64 = fnp.astype(y2d, np.result_type(y2d.dtype, np.float64))
    w64 = fnp.astype(asarray(w), np.float64)
    knots = on_device_of(t, y2d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the callers warn, naming themselves)
        c = _smoothing_fit(x64, y64, w64, knots, k, float(s), *ends)
    replayed = np.asarray(concrete_values(c, "", ""))
    if not np.allclose(replayed, c_ref, rtol=1e-9, atol=1e-12 * max(np.abs(c_ref).max(), 1.0)):
        # (FITPACK ended where the replay does not follow it: SciPy's values, no slope)
        for label, value in (("y", y2d), ("w", w)):
            if isinstance(value, Tracer):
                raise TypeError(f"{name}: FITPACK's search for p ended in a state the "
                                f"differentiable replay does not reproduce (ier={ier}), so "
                                f"there is no derivative in {label}; pass {label} as plain "
                                f"numbers, or change s")
        c = on_device_of(c_ref, y2d)
    else:  # (SciPy's very coefficients, with the replay's derivative)
        c = c - stop_gradient(c) + on_device_of(c_ref.astype(replayed.dtype), y2d)
    return on_device_of(t, y2d), c, _residual_sum(x64, y64, w64, knots, k, c), ier, message


@internal  # (the sites and knots, plain arrays, join the data's device)
def _residual_sum(x, y2d, w, t, k, c):
    residual = w[:, None] * (y2d - fnp.matmul(design(x, t, k), c))
    return fnp.sum(residual * residual)


def _divided_difference_weights(points):
    """The weights of the divided difference over the columns of ``points`` (``(m,
    q)``): ``1 / prod_{s != r} (points[:, r] - points[:, s])`` for each column ``r``."""
    q = points.shape[1]
    columns = []
    for r in range(q):
        product = None
        for s in range(q):
            if s != r:
                step = points[:, r] - points[:, s]
                product = step if product is None else product * step
        columns.append(1.0 / product)
    return fnp.stack(columns, axis=1)


@internal  # (its 0/1 change of basis follows the sites to their device)
def _natural_system(x, w):
    """SciPy's ``X`` (the natural cubic splines at the sites) and ``W^-1 E`` (the
    penalty), dense ``(n, n)``: built from the same entries SciPy puts in its band
    storage, so the banded and dense solves see one matrix."""
    n = x.shape[0]
    t = fnp.concatenate([x[:1]] * 3 + [x] + [x[n - 1:]] * 3)
    b = design(x, t, 3)  # (n, n + 2)
    # natural basis -> B-spline coefficients (SciPy's equations (2.2.10))
    head = fnp.stack([t[5] + t[4] - 2 * t[3], t[5] - t[3]])
    tail = fnp.stack([t[n + 2] - t[n], 2 * t[n + 2] - t[n + 1] - t[n]])
    change = fnp.concatenate([
        fnp.pad(fnp.stack([head, fnp.ones_like(head)], axis=1), ((0, 0), (0, n - 2))),
        fnp.pad(fnp.eye(n - 2, dtype=x.dtype), ((0, 0), (1, 1))),
        fnp.pad(fnp.stack([fnp.ones_like(tail), tail], axis=1), ((0, 0), (n - 2, 0)))])
    design_natural = fnp.matmul(b, change)
    # the penalty's band columns (rows ``i - j + 2`` of LAPACK's storage)
    first = _divided_difference_weights(fnp.reshape(x[:3], (1, 3)))[0] / w[:3]
    second = _divided_difference_weights(fnp.reshape(x[:4], (1, 4)))[0] / w[:4]
    windows = fnp.stack([x[r:n - 4 + r] for r in range(5)], axis=1)
    weights = fnp.stack([w[r:n - 4 + r] for r in range(5)], axis=1)
    middle = ((x[4:] - x[:n - 4])[:, None] * _divided_difference_weights(windows)
              / weights)
    before_last = -_divided_difference_weights(fnp.reshape(x[n - 4:], (1, 4)))[0] / w[n - 4:]
    last = _divided_difference_weights(fnp.reshape(x[n - 3:], (1, 3)))[0] / w[n - 3:]
    columns = ([fnp.pad(first, (2, 0)), fnp.pad(second, (1, 0))] + [middle]
               + [fnp.pad(before_last, (0, 1))[None], fnp.pad(last, (0, 2))[None]])
    band = fnp.transpose(fnp.concatenate([columns[0][None], columns[1][None]] + columns[2:]))
    return design_natural, _dense(band * 6, 2, 2), change


def _band_storage(a):
    """``a`` (dense, 5 diagonals) in LAPACK's band storage ``(5, n)``, for SciPy's GCV."""
    n = a.shape[0]
    band = np.zeros((5, n))
    for j in range(n):
        for i in range(max(0, j - 2), min(n, j + 3)):
            band[2 + i - j, j] = a[i, j]
    return band


def make_smoothing_spline(x: ArrayLike, y: ArrayLike, w: Optional[ArrayLike] = None,
                          lam: Any = None, *, axis: int = 0) -> BSpline:
    """The cubic smoothing spline (``scipy.interpolate.make_smoothing_spline``): the
    minimiser of ``sum_j w_j (y_j - f(x_j))**2 + lam * integral f''(u)**2 du``, a natural
    cubic spline with knots at the sites.  ``lam=None`` picks ``lam`` by generalized
    cross-validation, as SciPy's (per column of a 2-d ``y``).  Differentiable in ``y``,
    ``w``, ``x`` and a given ``lam``; with ``lam=None`` the choice of ``lam`` moves with
    the data and has no derivative here, so a derivative in ``x``, ``y`` or ``w`` raises
    (pass ``lam``).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(0.0, 1.0, 6)
    >>> spl = fi.make_smoothing_spline(x, 2 * x + 1, lam=0.1)  # (a line is not smoothed)
    >>> spl(np.array([0.25, 0.5]))
    array([1.5, 2. ])
    """
    x, y = asarray(x), asarray(y)
    x = fnp.astype(x, np.float64) if x.dtype != np.float64 else x
    y = fnp.astype(y, np.float64) if y.dtype != np.float64 else y
    if y.ndim == 0:
        raise ValueError("make_smoothing_spline: y must have at least one dimension")
    axis = int(axis) % y.ndim
    if x.ndim != 1 or x.shape[0] != y.shape[axis]:
        raise ValueError(f"make_smoothing_spline: ``x`` should be 1D and x.shape = "
                         f"{tuple(x.shape)} == y.shape = {tuple(y.shape)}")
    n = x.shape[0]
    if is_concrete(x) and np.any(np.diff(concrete_values(x, "", "")) <= 0):
        raise ValueError("make_smoothing_spline: ``x`` should be an ascending array")
    w = _weights("make_smoothing_spline", w, n, np.float64)
    if is_concrete(w) and np.any(concrete_values(w, "", "") <= 0):
        raise ValueError("make_smoothing_spline: Invalid vector of weights")
    if n <= 4:
        raise ValueError("make_smoothing_spline: ``x`` and ``y`` length must be at least 5")
    moved = fnp.moveaxis(y, axis, 0)
    trailing = tuple(moved.shape[1:])
    y2d = fnp.reshape(moved, (n, -1))
    design_natural, penalty, change = _natural_system(x, w)
    if lam is None:
        # SciPy's own GCV search on SciPy's own design matrix: the search stops at a
        # tolerance, so B-spline values a rounding apart could stop it at another lam
        from scipy.interpolate import BSpline as ScipyBSpline, _bsplines
        fix = "Pass lam, or call outside vmap/jit: the GCV choice depends on the values."
        values = np.asarray(concrete_values(y2d, "make_smoothing_spline's GCV search", fix))
        sites = np.asarray(concrete_values(x, "make_smoothing_spline's GCV search", fix))
        knots = np.r_[[sites[0]] * 3, sites, [sites[-1]] * 3]
        scipy_design = ScipyBSpline.design_matrix(sites, knots, 3).toarray()
        chosen = _bsplines._compute_optimal_gcv_parameter(
            _band_storage(scipy_design @ concrete_values(change, "", fix)),
            _band_storage(concrete_values(penalty, "", fix)),
            values[:, 0] if not trailing else values,
            np.asarray(concrete_values(w, "", fix)))
        lams = [float(v) for v in np.atleast_1d(chosen)]
        for label, value in (("x", x), ("y", y2d), ("w", w)):
            # (SciPy's lam moves with the data: the spline at the chosen lam held fixed
            # would be a derivative that is silently wrong, so none is given)
            if isinstance(value, Tracer):
                raise TypeError(f"make_smoothing_spline: {label} carries a derivative, but "
                                f"with lam=None the generalized cross-validation choice of "
                                f"lam depends on {label}, and its derivative is not "
                                f"given; pass lam as a number to differentiate the spline "
                                f"at that lam, or pass {label} as plain numbers")
    else:
        lam = asarray(lam)
        if lam.ndim != 0:
            raise ValueError("make_smoothing_spline: lam must be a scalar")
        if is_concrete(lam) and concrete_values(lam, "", "") < 0:
            raise ValueError("make_smoothing_spline: Regularization parameter should be "
                             "non-negative")
        lams = [lam] * y2d.shape[1]
    c = fnp.stack([fnp.linalg.solve(design_natural + value * penalty, y2d[:, i])
                   for i, value in enumerate(lams)], axis=1)
    t = fnp.concatenate([x[:1]] * 3 + [x] + [x[n - 1:]] * 3)
    # back to the B-spline basis (SciPy's equations (2.2.10))
    c0, c1, last, before = c[:1], c[1:2], c[n - 1:], c[n - 2:n - 1]
    c = fnp.concatenate([c0 * (t[5] + t[4] - 2 * t[3]) + c1, c0 * (t[5] - t[3]) + c1,
                         c[1:n - 1], last * (t[n + 2] - t[n]) + before,
                         last * (2 * t[n + 2] - t[n + 1] - t[n]) + before])
    return BSpline(t, fnp.reshape(c, (n + 2,) + trailing), 3, True, axis)

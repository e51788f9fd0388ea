"""Barycentric rational interpolants: ``FloaterHormannInterpolator`` and ``AAA``
(``scipy.interpolate``'s, SciPy 1.15).

Both evaluate ``r(z) = sum_j w_j f_j / (z - z_j) / sum_j w_j / (z - z_j)``.  Near a support
point that form is ``inf / inf``; it is evaluated instead with numerator and
denominator multiplied by ``z - z_k`` for ``z_k`` the support point nearest the query
(chosen on the values, no derivative): ``(w_k f_k + (z - z_k) sum_{j != k} ...) / (w_k +
(z - z_k) sum_{j != k} ...)``, the same rational function, smooth at ``z = z_k``, so a
query on a support point has the value ``f_k`` and every derivative of ``r`` there,
without NaN.

Floater-Hormann's weights are sums of products of ``1 / |x_k - x_j|``: differentiable in
the points.  AAA chooses its support points greedily on the values (SciPy's choice, held
fixed: it is piecewise constant in the data); its weights are the right singular vector
of the smallest singular value of the Loewner matrix, a funcgrad SVD (in the phase of
SciPy's), so they and the approximation are differentiable in ``x`` and ``y``.  The
choice stays put only for perturbations smaller than the gap to the next tie of its
greedy arg-max, which for data that a small rational function fits to ``rtol`` can be
tiny (perturbing such data by 1e-6 makes SciPy pick a new, larger support set): the
derivative given is that of the approximation on the chosen support points.
"""
import operator
import warnings
from typing import Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._conversions import carried_derivative
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike

__all__ = ["AAA", "FloaterHormannInterpolator"]


def _float(a):
    a = asarray(a)
    return fnp.astype(a, np.float64) if a.dtype.kind in "biu" else a


def _carries(*values):
    return any(isinstance(v, Tracer) and carried_derivative(v) is not None for v in values)


def evaluate(points, values, weights, z):
    """The barycentric form at the flat queries ``z``: ``(len(z),) + values.shape[1:]``."""
    trailing = tuple(values.shape[1:])
    flat_values = fnp.reshape(values, (values.shape[0], -1))
    nearest = fnp.argmin(fnp.abs(z[:, None] - points[None, :]), axis=1)
    own = fnp.arange(points.shape[0])[None, :] == nearest[:, None]
    gap = z[:, None] - points[None, :]
    safe = fnp.where(own, fnp.ones_like(gap), gap)  # (no 0 divided: the double where)
    share = fnp.where(own, fnp.zeros_like(gap), weights[None, :] / safe)
    offset = fnp.take(points, nearest) - z  # (z_k - z, times -1 below)
    w_k = fnp.take(weights, nearest)
    f_k = fnp.take(flat_values, nearest, axis=0)
    numerator = w_k[:, None] * f_k - offset[:, None] * fnp.matmul(share, flat_values)
    denominator = w_k - offset * fnp.sum(share, axis=1)
    out = numerator / denominator[:, None]
    return fnp.reshape(out, (z.shape[0],) + trailing)


class _BarycentricRational:
    """What the two share: the data cleaned as SciPy's (non-finite values dropped,
    points sorted and made unique), evaluation, ``poles``, ``residues``, ``roots``."""

    _support_points: Array
    _support_values: Array
    weights: Array
    _axis: int

    def _prepare(self, name, x, y, axis):
        x, y = _float(x), _float(y)
        if x.ndim != 1:
            raise ValueError(f"{name}: `x` must be 1-D.")
        if y.ndim < 1:
            raise ValueError(f"{name}: `y` must be at least 1-D.")
        if x.shape[0] != y.shape[axis]:
            raise ValueError(f"{name}: `x` be of size {y.shape[axis]} but got size "
                             f"{x.shape[0]}.")
        y = fnp.moveaxis(y, axis, 0)
        if is_concrete(x):
            points = concrete_values(x, "", "")
            if not np.all(np.isfinite(points)):
                raise ValueError(f"{name}: `x` must be finite.")
            keep = np.arange(points.shape[0])
            if is_concrete(y):
                finite = np.isfinite(concrete_values(y, "", "")).reshape(y.shape[0], -1)
                keep = keep[finite.all(axis=1)]
            _, unique = np.unique(points[keep], return_index=True)
            keep = keep[unique]
            if keep.shape[0] != points.shape[0] or np.any(np.diff(keep) < 0):
                x, y = fnp.take(x, keep), fnp.take(y, keep, axis=0)
        return x, y

    def __call__(self, z: ArrayLike) -> Array:
        """The rational function at ``z`` (any shape; ``z.shape`` in place of the
        interpolation axis, as SciPy's)."""
        z = _float(z)
        shape = tuple(z.shape)
        dtype = np.result_type(z.dtype, self._support_points.dtype)
        flat = fnp.astype(fnp.reshape(z, (-1,)), dtype)
        out = evaluate(fnp.astype(self._support_points, dtype), self._support_values,
                       self.weights, flat)
        out = fnp.reshape(out, shape + tuple(self._support_values.shape[1:]))
        return fnp.moveaxis(out, 0, self._axis) if len(shape) > 0 else out

    def _plain(self):
        fix = "Call it outside vmap/jit."
        return tuple(np.asarray(concrete_values(v, "the poles and zeros", fix))
                     for v in (self._support_points, self._support_values, self.weights))

    def _eigenvalues(self, top):
        from scipy.linalg import eigvals  # (here: importing funcgrad never loads SciPy)
        points, _, weights = self._plain()
        m = weights.size
        b = np.eye(m + 1, dtype=weights.dtype)
        b[0, 0] = 0
        e = np.zeros_like(b, dtype=np.result_type(weights, points, top))
        e[0, 1:], e[1:, 0] = top, 1
        np.fill_diagonal(e[1:, 1:], points)
        found = eigvals(e, b)
        return found[np.isfinite(found)]

    def poles(self) -> Array:
        """The poles (SciPy's generalized eigenvalue problem, on the values: no
        derivative; a traced spline raises)."""
        if any(_carries(v) for v in (self._support_points, self._support_values,
                                      self.weights)):
            raise TypeError(f"{type(self).__name__}.poles: the approximation carries a "
                            f"derivative, and the poles' is not implemented; compute "
                            f"them from plain data")
        return self._eigenvalues(self._plain()[2])

    def residues(self) -> Array:
        """The residues at :meth:`poles` (plain values, as :meth:`poles`)."""
        if self._support_values.ndim > 1:
            raise NotImplementedError("Residues not implemented for multi-dimensional "
                                      "data.")
        points, values, weights = self._plain()
        poles = self.poles()
        with np.errstate(divide="ignore", invalid="ignore"):
            cauchy = 1 / np.subtract.outer(poles, points)
            return (cauchy @ (values * weights)) / (-(cauchy ** 2) @ weights)

    def roots(self) -> Array:
        """The zeros (plain values, as :meth:`poles`)."""
        if self._support_values.ndim > 1:
            raise NotImplementedError("Roots not implemented for multi-dimensional data.")
        self.poles()  # (the same refusal of derivatives)
        _, values, weights = self._plain()
        return self._eigenvalues(weights * values)


class FloaterHormannInterpolator(_BarycentricRational):
    """Floater and Hormann's barycentric rational interpolant
    (``scipy.interpolate.FloaterHormannInterpolator``): it blends the ``n - d``
    polynomials of degree ``d`` through consecutive points, with no real poles.
    ``weights`` as SciPy's; differentiable in ``points``, ``values`` and the queries
    (a query on a point has that value and the interpolant's derivatives there).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(-5.0, 5.0, 11)
    >>> r = fi.FloaterHormannInterpolator(x, 1 / (1 + x ** 2))
    >>> np.round(r(np.array([0.0, 0.5])), 6)
    array([1.      , 0.834931])
    >>> round(float(fg.grad(lambda z: r(z))(1.0)), 6)  # (on a point, no NaN)
    -0.637104
    """

    def __init__(self, points: ArrayLike, values: ArrayLike, *, d: int = 3,
                 axis: int = 0) -> None:
        d = operator.index(d)
        self._axis = axis
        x, y = self._prepare("FloaterHormannInterpolator", points, values, axis)
        if not 0 <= d < _float(points).shape[0]:
            raise ValueError("FloaterHormannInterpolator: `d` must satisfy 0 <= d < n")
        n = x.shape[0]
        real = np.result_type(x.dtype, 1.0)
        # w_k = (-1)**(k - d) sum over the windows i..i+d holding k of prod 1/|x_k - x_j|
        windows = fnp.stack([x[s:n - d + s] for s in range(d + 1)], axis=1)
        weights = None
        for r in range(d + 1):
            product = fnp.ones_like(fnp.real(windows[:, 0]))
            for s in range(d + 1):
                if s != r:
                    product = product * fnp.abs(windows[:, r] - windows[:, s])
            term = fnp.pad(1.0 / product, (r, d - r))
            weights = term if weights is None else weights + term
        signs = ((-1.0) ** (np.arange(n) - d)).astype(real)
        self.weights = fnp.astype(weights * signs, real)
        self._support_points, self._support_values = x, y


class AAA(_BarycentricRational):
    """The AAA rational approximation of ``y = f(x)`` (``scipy.interpolate.AAA``, real
    or complex): support points added greedily where the error is largest until it is
    below ``rtol * max|y|``, weights from the smallest singular vector of the Loewner
    matrix, and (``clean_up``) Froissart doublets removed, all as SciPy's.  The support
    points are SciPy's choice on the values (held fixed: the choice is piecewise
    constant in the data); the weights and the approximation are differentiable in
    ``x`` and ``y`` and the queries.  ``support_points``, ``support_values``,
    ``weights``, ``errors``, ``poles``, ``residues``, ``roots``, ``clean_up`` as
    SciPy's.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(-1.0, 1.0, 50)
    >>> r = fi.AAA(x, np.exp(x) / (x - 2.0))
    >>> bool(abs(r(0.3) - np.exp(0.3) / (0.3 - 2.0)) < 1e-12)
    True
    >>> poles = r.poles()
    >>> round(float(poles[np.argmin(abs(poles - 2.0))].real), 4)  # (the pole at 2)
    2.0
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, *, rtol: Optional[float] = None,
                 max_terms: int = 100, clean_up: bool = True,
                 clean_up_tol: float = 1e-13) -> None:
        max_terms = operator.index(max_terms)
        if max_terms < 1:
            raise ValueError("AAA: `max_terms` must be an integer value greater than or "
                             "equal to one.")
        if _float(y).ndim != 1:
            raise ValueError("AAA: `y` must be 1-D.")
        self._axis = 0
        self._x, self._y = self._prepare("AAA", x, y, 0)
        from scipy.interpolate import AAA as ScipyAAA  # (here: importing funcgrad never
        # loads SciPy)
        fix = "Call it outside vmap/jit: AAA's support points depend on the values."
        plain_x = np.asarray(concrete_values(self._x, "AAA's choice of support points", fix))
        plain_y = np.asarray(concrete_values(self._y, "AAA's choice of support points", fix))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (warned below, naming the caller)
            self._reference = ScipyAAA(plain_x, plain_y, rtol=rtol, max_terms=max_terms,
                                       clean_up=False)
        if self._reference.errors.size == max_terms:
            warnings.warn(f"AAA failed to converge within {max_terms} iterations.",
                          RuntimeWarning, stacklevel=2)
        self.errors = self._reference.errors
        # (SciPy drops support points whose weight came out exactly 0, and keeps them
        # out of the least-squares rows: which they were is not in its result)
        dropped = self._reference.support_points.size != self.errors.size
        self._fit(self._reference.support_points, self._reference.weights, given=dropped)
        if clean_up:
            self.clean_up(clean_up_tol)

    @property
    def support_points(self) -> Array:
        """The support points (a subset of ``x``)."""
        return self._support_points

    @property
    def support_values(self) -> Array:
        """``y`` at the support points."""
        return self._support_values

    def _fit(self, chosen, reference_weights, normalise=None, given=False):
        """The support points ``chosen`` (plain values, a subset of ``x``) and their
        weights: the smallest right singular vector of the Loewner matrix over the other
        points (with SciPy's column scaling where SciPy's weights are of that problem),
        in the phase of ``reference_weights``."""
        plain_x = np.asarray(concrete_values(self._x, "", ""))
        index = np.array([int(np.flatnonzero(plain_x == v)[0]) for v in chosen], np.int64)
        rest = np.setdiff1d(np.arange(plain_x.shape[0]), index)
        points, values = fnp.take(self._x, index), fnp.take(self._y, index)
        dtype = np.result_type(self._x.dtype, self._y.dtype, 1.0)
        if rest.shape[0] < index.shape[0] or given:  # (SciPy's null space: not unique)
            if _carries(self._x, self._y):
                raise NotImplementedError("AAA: the weights are not determined by the "
                                          "support points (fewer remaining points than "
                                          "support points, or a support point of zero "
                                          "weight dropped): no derivative is given; "
                                          "pass more points or a looser rtol")
            weights = fnp.asarray(reference_weights)
        else:
            x_rest, y_rest = fnp.take(self._x, rest), fnp.take(self._y, rest)
            cauchy = 1 / (fnp.astype(x_rest, dtype)[:, None] - points[None, :])
            loewner = (fnp.astype(y_rest, dtype)[:, None] - values[None, :]) * cauchy
            # (which of SciPy's two problems, plain or columns scaled, gave its weights:
            # decided on the values, with NumPy; funcgrad's SVD only for a derivative)
            plain = np.asarray(concrete_values(loewner, "", ""))
            candidates = {}
            for scaled in ((False, True) if normalise is None else (normalise,)):
                scale = np.linalg.norm(plain, axis=0) if scaled else np.ones(plain.shape[1])
                vh = np.linalg.svd(plain / scale, full_matrices=False)[2]
                candidates[scaled] = np.conj(vh[-1]) / scale
            scaled = min(candidates, key=lambda k: _misfit(candidates[k], reference_weights))
            if _carries(self._x, self._y):
                scale = (fnp.sqrt(fnp.sum(fnp.abs(loewner) ** 2, axis=0)) if scaled
                         else fnp.ones(loewner.shape[1], np.empty(0, dtype).real.dtype))
                _, _, vh = fnp.linalg.svd(loewner / scale[None, :], full_matrices=False)
                weights = fnp.conj(vh[vh.shape[0] - 1]) / scale
            else:
                weights = asarray(candidates[scaled].astype(dtype))
            weights = weights * _phase(weights, reference_weights)
        self._support_points, self._support_values = points, values
        self.weights = fnp.astype(weights, dtype)

    def clean_up(self, cleanup_tol: float = 1e-13) -> int:
        """Remove Froissart doublets (poles with negligible residues), refitting the
        weights on the remaining support points, as SciPy's: the number removed.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> x = np.linspace(-1.0, 1.0, 50)
        >>> fi.AAA(x, np.exp(x) / (x - 2.0), clean_up=False).clean_up()  # (none here)
        0
        """
        from scipy.stats import gmean  # (here: importing funcgrad never loads SciPy)
        plain_x = np.asarray(concrete_values(self._x, "", ""))
        plain_y = np.asarray(concrete_values(self._y, "", ""))
        points = np.asarray(concrete_values(self._support_points, "", ""))
        plain = _PlainCopy(self)
        poles, residues = plain.poles(), plain.residues()
        distances = np.min(np.abs(np.subtract.outer(poles, plain_x)), axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            spurious = np.nonzero(np.abs(residues) / distances
                                  < cleanup_tol * gmean(np.abs(plain_y)))[0]
        if spurious.size == 0:
            return 0
        warnings.warn(f"{spurious.size} Froissart doublets detected.", RuntimeWarning,
                      stacklevel=2)
        closest = np.argmin(np.abs(np.subtract.outer(points, poles[spurious])), axis=0)
        kept = np.delete(points, closest)
        # (SciPy's refit: the last right singular vector over the points left)
        values = plain_y[[int(np.flatnonzero(plain_x == v)[0]) for v in kept]]
        rest = np.logical_and.reduce(np.not_equal.outer(plain_x, kept), axis=1)
        cauchy = 1 / np.subtract.outer(plain_x[rest], kept)
        _, _, vh = np.linalg.svd(plain_y[rest][:, None] * cauchy - cauchy * values)
        self._fit(kept, np.conj(vh[kept.size - 1, :]), normalise=False)
        return int(spurious.size)


class _PlainCopy(_BarycentricRational):
    """The approximation's values without their derivatives (for the choices of
    ``clean_up``, which are made on values)."""

    def __init__(self, source):
        self._support_points, self._support_values, self.weights = (
            asarray(v) for v in source._plain())

    def _poles_only(self):
        return self.poles()

    def _residues_only(self):
        return self.residues()


def _misfit(weights, reference):
    """How far ``weights`` is from ``reference`` up to a phase (plain numbers)."""
    w = np.asarray(concrete_values(weights, "", ""))
    ref = np.asarray(reference)
    if w.shape != ref.shape:
        return np.inf
    return float(np.linalg.norm(w * complex(_phase_value(w, ref)) - ref))


def _phase_value(w, reference):
    dot = np.vdot(w, reference)
    return dot / abs(dot) if abs(dot) else 1.0


def _phase(weights, reference):
    """The unit constant that turns ``weights`` towards ``reference`` (a sign for real
    weights), as plain numbers: SciPy's singular vector's phase, no derivative."""
    value = _phase_value(np.asarray(concrete_values(weights, "", "")), np.asarray(reference))
    if np.iscomplexobj(value) and not np.iscomplexobj(np.asarray(reference)):
        value = float(np.sign(value.real))
    return value

"""Radial basis function interpolation (``scipy.interpolate.RBFInterpolator``).

The interpolant is ``f(x) = sum_i a_i phi(eps |x - y_i|) + sum_j b_j p_j(x_hat)`` with
``p_j`` the monomials of total degree up to ``degree`` in the coordinates shifted and
scaled to ``[-1, 1]`` (``x_hat``, SciPy's), and ``(a, b)`` the solution of SciPy's
saddle-point system ``[[K + diag(smoothing), P], [P^T, 0]] [a; b] = [d; 0]``: one dense
solve whose rules differentiate it in the data values ``d``, the sites ``y``, the
smoothing and ``epsilon``; the query points enter the kernel row only.

Every kernel is written as a function of the squared distance ``s = (eps r)**2``, so
that the distance's square root is never differentiated at ``r = 0`` (a query on a data
site, and every diagonal entry of ``K``): there the kernels smooth in ``s`` have their
derivative, and ``linear`` (``-r``, a cone) gets the subgradient 0.
"""
import itertools
import warnings
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike

__all__ = ["RBFInterpolator"]

_SCALE_INVARIANT = ("linear", "thin_plate_spline", "cubic", "quintic")
_MIN_DEGREE = {"multiquadric": 0, "linear": 0, "thin_plate_spline": 1, "cubic": 1,
               "quintic": 2}


def _root(s):
    """``sqrt(s)`` with a finite derivative everywhere it is used: at ``s = 0`` the
    kernels that need ``r`` vanish faster than ``r``'s slope grows (or are the cone)."""
    positive = s > 0
    return fnp.where(positive, fnp.sqrt(fnp.where(positive, s, fnp.ones_like(s))),
                     fnp.zeros_like(s))


def _kernel(name, s):
    """``phi`` at ``r = sqrt(s)`` (SciPy's signs: the conditionally positive definite
    kernels negated where SciPy negates them)."""
    if name == "linear":
        return -_root(s)
    if name == "thin_plate_spline":  # (r**2 log r = s log(s) / 2; 0 at r = 0)
        positive = s > 0
        safe = fnp.where(positive, s, fnp.ones_like(s))
        return fnp.where(positive, 0.5 * safe * fnp.log(safe), fnp.zeros_like(s))
    if name == "cubic":
        return s * _root(s)
    if name == "quintic":
        return -(s * s) * _root(s)
    if name == "multiquadric":
        return -fnp.sqrt(s + 1)
    if name == "inverse_multiquadric":
        return 1 / fnp.sqrt(s + 1)
    if name == "inverse_quadratic":
        return 1 / (s + 1)
    return fnp.exp(-s)  # gaussian


_KERNELS = ("linear", "thin_plate_spline", "cubic", "quintic", "multiquadric",
            "inverse_multiquadric", "inverse_quadratic", "gaussian")


def _monomial_powers(ndim, degree):
    """The exponents of the monomials of total degree up to ``degree``, in SciPy's order
    (by degree, then the variables' combinations with replacement)."""
    rows = []
    for total in range(degree + 1):
        for combo in itertools.combinations_with_replacement(range(ndim), total):
            row = [0] * ndim
            for var in combo:
                row[var] += 1
            rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(-1, ndim)


def _polynomial(xhat, powers):
    """``(n, R)``: each monomial at each (shifted and scaled) point."""
    columns = []
    for row in powers:
        column = fnp.ones_like(xhat[:, 0])
        for var, power in enumerate(row):
            for _ in range(int(power)):
                column = column * xhat[:, var]
        columns.append(column)
    if not columns:
        return fnp.zeros((xhat.shape[0], 0), xhat.dtype)
    return fnp.stack(columns, axis=1)


def _squared_distances(a, b):
    """``(len(a), len(b))`` squared distances, by differences (not the expanded form,
    which loses digits and can go negative)."""
    diff = a[:, None, :] - b[None, :, :]
    return fnp.sum(diff * diff, axis=2)


class RBFInterpolator:
    """Radial basis function interpolation in any number of dimensions
    (``scipy.interpolate.RBFInterpolator``): data sites ``y`` ``(p, ndim)``, values
    ``d`` ``(p, ...)``; ``kernel`` one of 'thin_plate_spline' (the default), 'linear',
    'cubic', 'quintic', 'multiquadric', 'inverse_multiquadric', 'inverse_quadratic',
    'gaussian'; ``epsilon`` (required but for the first four, default 1);
    ``smoothing`` (a scalar or one per site; 0 interpolates); ``degree`` of the added
    polynomial (default the kernel's least, SciPy's).  Calling it at ``x`` ``(n,
    ndim)`` gives ``(n, ...)``.  Differentiable in ``d``, ``y``, ``x``, ``epsilon`` and
    ``smoothing``.  ``neighbors`` (SciPy's local interpolation) raises
    ``NotImplementedError``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> y = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.5]])
    >>> d = y[:, 0] + 2 * y[:, 1]  # (a plane: the degree-1 polynomial takes it exactly)
    >>> f = fi.RBFInterpolator(y, d)
    >>> np.round(f(np.array([[0.25, 0.75]])), 12)
    array([1.75])
    >>> np.round(fg.grad(lambda x: f(x)[0])(np.array([[0.25, 0.75]])), 10)
    array([[1., 2.]])
    """

    def __init__(self, y: ArrayLike, d: ArrayLike, neighbors: Optional[int] = None,
                 smoothing: Any = 0.0, kernel: str = "thin_plate_spline",
                 epsilon: Any = None, degree: Optional[int] = None) -> None:
        if neighbors is not None:
            raise NotImplementedError("RBFInterpolator: neighbors (local interpolation on "
                                      "the nearest sites) is not implemented; pass "
                                      "neighbors=None")
        y, d = asarray(y), asarray(d)
        if y.dtype.kind in "biu":
            y = fnp.astype(y, np.float64)
        if d.dtype.kind in "biu":
            d = fnp.astype(d, np.float64)
        if y.ndim != 2:
            raise ValueError("RBFInterpolator: `y` must be a 2-dimensional array.")
        p, ndim = y.shape
        if d.ndim == 0 or d.shape[0] != p:
            raise ValueError(f"RBFInterpolator: Expected the first axis of `d` to have "
                             f"length {p}.")
        kernel = str(kernel).lower()
        if kernel not in _KERNELS:
            raise ValueError(f"RBFInterpolator: `kernel` must be one of {set(_KERNELS)}.")
        if epsilon is None:
            if kernel not in _SCALE_INVARIANT:
                raise ValueError(f"RBFInterpolator: `epsilon` must be specified if "
                                 f"`kernel` is not one of {set(_SCALE_INVARIANT)}.")
            epsilon = 1.0
        smoothing = asarray(smoothing)
        if smoothing.ndim and tuple(smoothing.shape) != (p,):
            raise ValueError(f"RBFInterpolator: Expected `smoothing` to be a scalar or "
                             f"have shape ({p},).")
        min_degree = _MIN_DEGREE.get(kernel, -1)
        if degree is None:
            degree = max(min_degree, 0)
        else:
            degree = int(degree)
            if degree < -1:
                raise ValueError("RBFInterpolator: `degree` must be at least -1.")
            if -1 < degree < min_degree:
                warnings.warn(f"RBFInterpolator: `degree` should not be below "
                              f"{min_degree} except -1 when `kernel` is '{kernel}'. The "
                              f"interpolant may not be uniquely solvable, and the "
                              f"smoothing parameter may have an unintuitive effect.",
                              UserWarning, stacklevel=2)
        powers = _monomial_powers(ndim, degree)
        if powers.shape[0] > p:
            raise ValueError(f"RBFInterpolator: At least {powers.shape[0]} data points are "
                             f"required when `degree` is {degree} and the number of "
                             f"dimensions is {ndim}.")
        real = np.result_type(y.dtype, np.empty(0, d.dtype).real.dtype, np.float32)
        y = fnp.astype(y, real)
        epsilon = fnp.astype(asarray(epsilon), real)
        low, high = fnp.min(y, axis=0), fnp.max(y, axis=0)
        shift = (high + low) / 2
        half = (high - low) / 2
        scale = fnp.where(half == 0, fnp.ones_like(half), half)
        kernel_matrix = _kernel(kernel, epsilon * epsilon * _squared_distances(y, y))
        kernel_matrix = kernel_matrix + fnp.diag(fnp.broadcast_to(
            fnp.astype(smoothing, real), (p,)))
        poly = _polynomial((y - shift) / scale, powers)
        r = powers.shape[0]
        lhs = fnp.concatenate([fnp.concatenate([kernel_matrix, poly], axis=1),
                               fnp.concatenate([fnp.transpose(poly),
                                                fnp.zeros((r, r), real)], axis=1)])
        values = fnp.reshape(d, (p, -1))
        rhs = fnp.concatenate([values, fnp.zeros((r, values.shape[1]), values.dtype)])
        if is_concrete(lhs) and not np.all(np.isfinite(concrete_values(lhs, "", ""))):
            raise ValueError("RBFInterpolator: the kernel matrix is not finite; check y, "
                             "epsilon and smoothing")
        self._coeffs = fnp.linalg.solve(fnp.astype(lhs, rhs.dtype), rhs)
        self._shift, self._scale = shift, scale
        self.y, self.d, self.d_shape = y, d, tuple(d.shape[1:])
        self.kernel, self.epsilon, self.smoothing = kernel, epsilon, smoothing
        self.powers, self.neighbors = powers, neighbors

    def __call__(self, x: ArrayLike) -> Array:
        """The interpolant at the points ``x`` ``(n, ndim)``: ``(n,) + d.shape[1:]``."""
        x = asarray(x)
        if x.dtype.kind in "biu":
            x = fnp.astype(x, np.float64)
        if x.ndim != 2:
            raise ValueError("RBFInterpolator: `x` must be a 2-dimensional array.")
        if x.shape[1] != self.y.shape[1]:
            raise ValueError(f"RBFInterpolator: Expected the second axis of `x` to have "
                             f"length {self.y.shape[1]}.")
        x = fnp.astype(x, np.result_type(x.dtype, self.y.dtype))
        s = self.epsilon * self.epsilon * _squared_distances(x, self.y)
        row = fnp.concatenate([_kernel(self.kernel, s),
                               _polynomial((x - self._shift) / self._scale, self.powers)],
                              axis=1)
        out = fnp.matmul(fnp.astype(row, self._coeffs.dtype), self._coeffs)
        return fnp.reshape(out, (x.shape[0],) + self.d_shape)

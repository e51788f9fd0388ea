"""``RotationSpline``: cubic interpolation of rotations with continuous angular rate and
acceleration (``scipy.spatial.transform.RotationSpline``), differentiable in the
rotations and the times.

As SciPy: between neighbours the rotation vector of ``r_i^-1 r`` is a cubic in time; the
angular rates at the inner knots solve a block-tridiagonal system whose right-hand side
depends on them (the acceleration's nonlinear term), iterated to SciPy's tolerance (all
ten iterations where the values are not known, under ``jit``).  The derivative is the
iteration's own: it converges with the values.  Each coefficient ``k(|w|)`` of the
kinematics has SciPy's series below ``|w|`` = 1e-4, taken on ``|w|^2`` (no square root
at 0) with the closed form at a safe norm (the double-where idiom).
"""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete
from ...typing import ArrayLike
from ._rotation import Rotation

__all__ = ["RotationSpline"]

_SWITCH = 1e-4  # (SciPy's: below this norm, the series)


def _norms(w):
    """``(|w|^2, a safe |w|, which are small)`` of ``(n, 3)`` vectors."""
    squared = fnp.sum(w * w, axis=-1)
    small = squared <= _SWITCH * _SWITCH
    return squared, fnp.sqrt(fnp.where(small, 1.0, squared)), small


def _skew(v):
    zero = fnp.zeros_like(v[..., 0])
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    rows = [[zero, -z, y], [z, zero, -x], [-y, x, zero]]
    return fnp.stack([fnp.stack(r, axis=-1) for r in rows], axis=-2)


def _rate_to_rotvec_dot(w):
    """The matrices taking the angular rate to the rotation vector's derivative."""
    sq, nm, small = _norms(w)
    k = fnp.where(small, 1.0 / 12.0 + sq / 720.0, (1.0 - 0.5 * nm / fnp.tan(0.5 * nm)) / nm ** 2)
    s = _skew(w)
    return np.eye(3) + 0.5 * s + k[:, None, None] * fnp.matmul(s, s)


def _rotvec_dot_to_rate(w):
    """The matrices taking the rotation vector's derivative to the angular rate."""
    sq, nm, small = _norms(w)
    k1 = fnp.where(small, 0.5 - sq / 24.0, (1.0 - fnp.cos(nm)) / nm ** 2)
    k2 = fnp.where(small, 1.0 / 6.0 - sq / 120.0, (nm - fnp.sin(nm)) / nm ** 3)
    s = _skew(w)
    return np.eye(3) - k1[:, None, None] * s + k2[:, None, None] * fnp.matmul(s, s)


def _nonlinear_term(w, w_dot):
    """The angular acceleration's term quadratic in the rotation vector's derivative."""
    sq, nm, small = _norms(w)
    dp = fnp.sum(w * w_dot, axis=1)[:, None]
    cp = fnp.cross(w, w_dot)
    ccp, dccp = fnp.cross(w, cp), fnp.cross(w_dot, cp)
    k1 = fnp.where(small, 1.0 / 12.0 - sq / 180.0,
                   (-nm * fnp.sin(nm) - 2.0 * (fnp.cos(nm) - 1.0)) / nm ** 4)
    k2 = fnp.where(small, -1.0 / 60.0 + sq / 12604.0,
                   (-2.0 * nm + 3.0 * fnp.sin(nm) - nm * fnp.cos(nm)) / nm ** 5)
    k3 = fnp.where(small, 1.0 / 6.0 - sq / 120.0, (nm - fnp.sin(nm)) / nm ** 3)
    return dp * (k1[:, None] * cp + k2[:, None] * ccp) + k3[:, None] * dccp


def _times_vectors(a, b):
    return fnp.einsum("ijk,ik->ij", a, b)


def _block_tridiagonal(lower, upper, diag):
    """The dense ``3m x 3m`` matrix with ``diag[i] * I`` on the diagonal blocks,
    ``lower[i]`` below block i+1's diagonal and ``upper[i]`` right of block i's."""
    m = diag.shape[0]
    rows = []
    for i in range(m):
        blocks = [fnp.zeros((3, 3))] * m
        blocks[i] = diag[i] * np.eye(3)
        if i > 0:
            blocks[i - 1] = lower[i - 1]
        if i < m - 1:
            blocks[i + 1] = upper[i]
        rows.append(fnp.concatenate(blocks, axis=1))
    return fnp.concatenate(rows, axis=0)


class RotationSpline:
    """Interpolate rotations with continuous angular rate and acceleration (SciPy's
    ``RotationSpline``): ``spline(t)`` a :class:`Rotation`, ``spline(t, 1)`` the angular
    rate, ``spline(t, 2)`` the angular acceleration; differentiable in the rotations and
    the times.

    >>> import numpy as np
    >>> r = Rotation.from_euler("z", np.array([0.0, 90.0, 90.0]), degrees=True)
    >>> spline = RotationSpline(np.array([0.0, 1.0, 2.0]), r)
    >>> np.round(spline(np.array([0.0, 1.0, 2.0])).as_euler("zyx", degrees=True)[:, 0], 9)
    array([ 0., 90., 90.])
    """

    MAX_ITER = 10
    TOL = 1e-9

    def __init__(self, times: ArrayLike, rotations: Rotation) -> None:
        if rotations.single:
            raise ValueError("`rotations` must be a sequence of rotations.")
        if len(rotations) == 1:
            raise ValueError("`rotations` must contain at least 2 rotations.")
        t = asarray(times)
        t = fnp.astype(t, np.float64) if t.dtype.kind in "biu" else t
        if t.ndim != 1:
            raise ValueError("`times` must be 1-dimensional.")
        if t.shape[0] != len(rotations):
            raise ValueError(f"Expected number of rotations to be equal to number of "
                             f"timestamps given, got {len(rotations)} rotations and "
                             f"{t.shape[0]} timestamps.")
        knots = np.asarray(concrete_values(t, "RotationSpline", "give plain times (the "
                                           "intervals are found on their values)"), float)
        if np.any(np.diff(knots) <= 0):
            raise ValueError("Values in `times` must be in a strictly increasing order.")
        dt = t[1:] - t[:-1]
        rotvecs = (rotations[:-1].inv() * rotations[1:]).as_rotvec()
        rates = rotvecs / dt[:, None]
        if len(rotations) == 2:
            rotvecs_dot = rates
        else:
            rates, rotvecs_dot = self._solve_for_angular_rates(dt, rates, rotvecs)
        dt = dt[:, None]
        self._coeffs = (
            (-2.0 * rotvecs + dt * rates + dt * rotvecs_dot) / dt ** 3,
            (3.0 * rotvecs - 2.0 * dt * rates - dt * rotvecs_dot) / dt ** 2,
            rates)
        self.times = t
        self._knots = knots
        self.rotations = rotations

    def _solve_for_angular_rates(self, dt, rates, rotvecs):
        first = rates[0]
        a = _rate_to_rotvec_dot(rotvecs)
        a_inv = _rotvec_dot_to_rate(rotvecs)
        m = _block_tridiagonal(2.0 * a_inv[1:-1] / dt[1:-1, None, None],
                               2.0 * a[1:-1] / dt[1:-1, None, None],
                               4.0 * (1.0 / dt[:-1] + 1.0 / dt[1:]))
        b0 = 6.0 * (rotvecs[:-1] * dt[:-1, None] ** -2 + rotvecs[1:] * dt[1:, None] ** -2)
        rows = b0.shape[0]  # (one when there are three rotations: both ends' row)
        b0 = (b0 - np.eye(rows, 1) * (2.0 / dt[0] * fnp.matmul(a_inv[0], first))
              - np.eye(rows, 1, 1 - rows) * (2.0 / dt[-1] * fnp.matmul(a[-1], rates[-1])))
        last = rates[-1:]
        inner = rates[:-1]
        for _ in range(self.MAX_ITER):
            dot = _times_vectors(a[:-1], inner)
            new = fnp.reshape(fnp.linalg.solve(m, fnp.reshape(b0 - _nonlinear_term(
                rotvecs[:-1], dot), (-1,))), (-1, 3))
            converged = None
            if is_concrete(new) and is_concrete(inner):
                n_val = np.asarray(concrete_values(new, "RotationSpline", ""))
                delta = np.abs(n_val - np.asarray(concrete_values(inner, "RotationSpline", "")))
                converged = bool(np.all(delta < self.TOL * (1.0 + np.abs(n_val))))
            inner = new
            if converged:
                break
        rates = fnp.concatenate([inner, last], axis=0)
        rotvecs_dot = _times_vectors(a, rates)
        return fnp.concatenate([first[None], inner], axis=0), rotvecs_dot

    def __call__(self, times: ArrayLike, order: int = 0) -> Any:
        """The rotations (``order`` 0), angular rates (1) or angular accelerations (2) at
        ``times`` (a number or a 1-d array); beyond the knots, the end cubics continue."""
        if order not in (0, 1, 2):
            raise ValueError("`order` must be 0, 1 or 2.")
        t = asarray(times)
        t = fnp.astype(t, np.float64) if t.dtype.kind in "biu" else t
        if t.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        single = t.ndim == 0
        t = fnp.reshape(t, (-1,))
        at = np.asarray(concrete_values(t, "RotationSpline", "give plain times (the "
                                        "interval of each is found on its value)"), float)
        index = np.clip(np.searchsorted(self._knots, at, side="right") - 1, 0,
                        len(self._knots) - 2)
        x = (t - fnp.take(self.times, index))[:, None]
        c0, c1, c2 = (fnp.take(c, index, axis=0) for c in self._coeffs)
        rotvecs = ((c0 * x + c1) * x + c2) * x
        if order == 0:
            result: Any = self.rotations[index] * Rotation.from_rotvec(rotvecs)
        else:
            dot = (3.0 * c0 * x + 2.0 * c1) * x + c2
            if order == 1:
                result = _times_vectors(_rotvec_dot_to_rate(rotvecs), dot)
            else:
                dot_dot = 6.0 * c0 * x + 2.0 * c1
                result = _times_vectors(_rotvec_dot_to_rate(rotvecs), dot_dot) \
                    + _nonlinear_term(rotvecs, dot)
        return result[0] if single else result

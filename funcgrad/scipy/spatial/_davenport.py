"""Davenport angles: rotations about three axes, each orthogonal to the next (Euler
angles are the case of coordinate axes), for ``Rotation.from_davenport`` and
``as_davenport``; SciPy's conventions and its quaternion method (the axes turned so that
the first and last meet at the angle ``lambda``, then the angles from four components of
the turned quaternion), written with funcgrad operations so both directions differentiate.
"""
import math
import warnings

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete


def _float(x):
    x = asarray(x)
    return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x


def _extrinsic(order):
    if order in ("e", "extrinsic"):
        return True
    if order in ("i", "intrinsic"):
        return False
    raise ValueError("order should be 'e'/'extrinsic' for extrinsic sequences or "
                     f"'i'/'intrinsic' for intrinsic sequences, got {order}")


def _unit_axes(axes, count_ok):
    axes = _float(axes)
    if axes.shape[-1] != 3:
        raise ValueError("Axes must be vectors of length 3.")
    axes = fnp.reshape(axes, (1, 3)) if axes.ndim == 1 else axes
    if axes.ndim != 2 or not count_ok(axes.shape[0]):
        raise ValueError(f"Expected up to 3 axes, got {axes.shape[0]}" if axes.ndim == 2
                         else f"Expected axes of shape (3,) or (n, 3), got {axes.shape}")
    axes = axes / fnp.sqrt(fnp.sum(axes * axes, axis=-1, keepdims=True))
    if is_concrete(axes):
        plain = np.asarray(concrete_values(axes, "Rotation davenport", ""))
        if any(abs(float(plain[k] @ plain[k + 1])) > 1e-7 for k in range(len(plain) - 1)):
            raise ValueError("Consecutive axes must be orthogonal.")
    return axes


def from_davenport(rotation_class, axes, order, angles, degrees=False):
    """The rotations of :meth:`Rotation.from_davenport` (a quaternion array)."""
    extrinsic = _extrinsic(order)
    axes = _unit_axes(axes, lambda n: 1 <= n <= 3)
    a = _float(angles)
    a = fnp.reshape(a, (1,)) if a.ndim == 0 else a
    if degrees:
        a = a * (math.pi / 180.0)
    if a.shape[-1] != axes.shape[0] or a.ndim > 2:
        raise ValueError(f"Expected `angles` to match number of axes, got {tuple(a.shape)} "
                         f"angles and {tuple(axes.shape)} axes.")
    q = None
    for i in range(axes.shape[0]):
        qi = rotation_class.from_rotvec(a[..., i, None] * axes[i])
        q = qi if q is None else (qi * q if extrinsic else q * qi)
    return q


def as_davenport(quat, axes, order, degrees=False, suppress_warnings=False):
    """The angles of :meth:`Rotation.as_davenport`."""
    extrinsic = _extrinsic(order)
    axes = _unit_axes(axes, lambda n: n == 3)
    n1, n2, n3 = axes[0], axes[1], axes[2]
    if not extrinsic:
        n1, n3 = n3, n1
    n_cross = fnp.cross(n1, n2)
    lamb = fnp.arctan2(fnp.sum(n3 * n_cross), fnp.sum(n3 * n1))
    flip = lamb < 0  # (then the middle axis reversed, and the middle angle's sign)
    sign = fnp.where(flip, -1.0, 1.0)
    n2, n_cross, lamb = n2 * sign, n_cross * sign, lamb * sign
    quat_lamb = fnp.concatenate([fnp.sin(lamb / 2) * n2, fnp.cos(lamb / 2)[None]])
    lv, lw = quat_lamb[:3], quat_lamb[3]
    qv, qw = quat[..., :3], quat[..., 3:]
    turned_v = lw * qv + qw * lv + fnp.cross(lv, qv)
    a = lw * qw[..., 0] - fnp.sum(lv * qv, axis=-1)
    b = fnp.sum(turned_v * n1, axis=-1)
    c = fnp.sum(turned_v * n2, axis=-1)
    d = fnp.sum(turned_v * n_cross, axis=-1)
    half_sum, half_diff = fnp.arctan2(b, a), fnp.arctan2(d, c)
    middle = 2.0 * fnp.arctan2(fnp.hypot(c, d), fnp.hypot(a, b))
    eps = 1e-7
    at_zero, at_pi = fnp.abs(middle) <= eps, fnp.abs(middle - math.pi) <= eps
    regular = fnp.logical_not(fnp.logical_or(at_zero, at_pi))
    if not suppress_warnings and is_concrete(regular) and not np.all(
            np.asarray(concrete_values(regular, "as_davenport", ""))):
        warnings.warn("Gimbal lock detected. Setting third angle to zero since it is not "
                      "possible to uniquely determine all angles.", stacklevel=3)
    locked = fnp.where(at_zero, 2.0 * half_sum, (-2.0 if extrinsic else 2.0) * half_diff)
    zero = 0.0 * half_sum
    if extrinsic:
        first = fnp.where(regular, half_sum - half_diff, locked)
        third = fnp.where(regular, half_sum + half_diff, zero)
    else:
        first = fnp.where(regular, half_sum + half_diff, locked)
        third = fnp.where(regular, half_sum - half_diff, zero)
    first, middle, third = (fnp.mod(x + math.pi, 2 * math.pi) - math.pi
                            for x in (first, middle - lamb, third))
    out = fnp.stack([first, middle * sign, third], axis=-1)
    return out * (180.0 / math.pi) if degrees else out

"""``Rotation.align_vectors``: the rotation that best maps vectors ``b`` onto ``a``
(Wahba's problem), as SciPy solves it, differentiable in the vectors and the weights.

Finite weights: the Kabsch solution ``C = U diag(1, 1, +-1) V^T`` of the SVD of
``B = sum w a b^T`` (its derivative is the SVD's, defined while B's singular values are
distinct, which a rotation that is uniquely defined needs anyway).  One infinite weight
(or a single pair): the smallest rotation taking the primary ``b`` onto the primary ``a``
(its rotation vector's ``theta / sin(theta)`` by its series below 1e-3, and a flip by pi
near antiparallel vectors, as SciPy), then the rotation about the primary vector that best
aligns the others (an ``atan2`` of weighted sums).
"""
import math
import warnings

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete


def _float(x):
    x = asarray(x)
    return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x


def _plain(x, what):
    return np.asarray(concrete_values(x, "Rotation.align_vectors", what))


def align_vectors(rotation_class, a, b, weights=None, return_sensitivity=False):
    """``(rotation, rssd[, sensitivity])`` of :meth:`Rotation.align_vectors`."""
    a0, b0 = _float(a), _float(b)
    a2 = fnp.reshape(a0, (1, -1)) if a0.ndim == 1 else a0
    b2 = fnp.reshape(b0, (1, -1)) if b0.ndim == 1 else b0
    if a2.shape[-1] != 3:
        raise ValueError(f"Expected input `a` to have shape (3,) or (N, 3), got "
                         f"{tuple(a0.shape)}")
    if b2.shape[-1] != 3:
        raise ValueError(f"Expected input `b` to have shape (3,) or (N, 3), got "
                         f"{tuple(b0.shape)}")
    if a2.shape != b2.shape:
        raise ValueError(f"Expected inputs `a` and `b` to have same shapes, got "
                         f"{tuple(a0.shape)} and {tuple(b0.shape)} respectively.")
    if a2.ndim > 2:
        raise ValueError(f"Expected inputs `a` and `b` to have shape (3,) or (N, 3), got "
                         f"{tuple(a0.shape)} and {tuple(b0.shape)} respectively.")
    n = a2.shape[0]
    if weights is None:
        w = np.ones(n)
    else:
        w = _float(weights)
        if w.ndim != 1:
            raise ValueError(f"Expected `weights` to be 1 dimensional, got shape "
                             f"{tuple(w.shape)}.")
        if n > 1 and w.shape[0] != n:
            raise ValueError(f"Expected `weights` to have number of values equal to number "
                             f"of input vectors, got {w.shape[0]} values and {n} vectors.")
    plain_w = _plain(w, "give plain weights (which are infinite decides the method)")
    if np.any(plain_w < 0):
        raise ValueError("`weights` may not contain negative values")
    infinite = np.array([True]) if n == 1 else np.isinf(plain_w)
    if infinite.sum() > 1:
        raise ValueError("Only one infinite weight is allowed")
    if infinite.any():
        if return_sensitivity:
            raise ValueError("Cannot return sensitivity matrix with an infinite weight or "
                             "one vector pair")
        quat, rssd = _fixed(rotation_class, a2, b2, w, plain_w, infinite)
        return rotation_class(quat, False), rssd
    c, rssd, sensitivity = _kabsch(a2, b2, w)
    out = rotation_class.from_matrix(c, assume_valid=True)
    return (out, rssd, sensitivity) if return_sensitivity else (out, rssd)


def _kabsch(a, b, w):
    big = fnp.matmul(fnp.swapaxes(w[:, None] * a, 0, 1), b)
    u, s, vh = fnp.linalg.svd(big)
    if is_concrete(s):
        plain_s = _plain(s, "")
        if plain_s[1] + plain_s[2] < 1e-16 * plain_s[0]:
            warnings.warn("Optimal rotation is not uniquely or poorly defined for the given "
                          "sets of vectors.", UserWarning, stacklevel=4)
    flip = fnp.linalg.det(fnp.matmul(u, vh)) < 0
    sign = fnp.where(flip, -1.0, 1.0)
    s = fnp.concatenate([s[:2], s[2:] * sign])
    u = fnp.concatenate([u[:, :2], u[:, 2:] * sign], axis=1)
    c = fnp.matmul(u, vh)
    ssd = fnp.sum(w * fnp.sum(b * b + a * a, axis=-1)) - 2.0 * fnp.sum(s)
    rssd = fnp.sqrt(fnp.maximum(ssd, 0.0))
    zeta = (s[0] + s[1]) * (s[1] + s[2]) * (s[2] + s[0])
    kappa = s[0] * s[1] + s[1] * s[2] + s[2] * s[0]
    sensitivity = fnp.mean(w) / zeta * (kappa * np.eye(3) + fnp.matmul(big, fnp.swapaxes(big, 0, 1)))
    return c, rssd, sensitivity


def _fixed(rotation_class, a, b, w, plain_w, infinite):
    n = a.shape[0]
    k = int(np.argmax(infinite))
    order = [k] + [i for i in range(n) if i != k]
    a_s, b_s = fnp.take(a, order, axis=0), fnp.take(b, order, axis=0)
    a_norm = fnp.sqrt(fnp.sum(a_s[0] * a_s[0]))
    b_norm = fnp.sqrt(fnp.sum(b_s[0] * b_s[0]))
    if float(_plain(a_norm, "")) == 0 or float(_plain(b_norm, "")) == 0:
        raise ValueError("Cannot align zero length primary vectors")
    a_pri, b_pri = a_s[0] / a_norm, b_s[0] / b_norm
    cross = fnp.cross(b_pri, a_pri)
    cross_sq = fnp.sum(cross * cross)
    crossed = float(_plain(cross_sq, "")) > 0
    cross_norm = fnp.sqrt(cross_sq) if crossed else cross_sq  # (exactly 0: parallel)
    theta = fnp.arctan2(cross_norm, fnp.sum(a_pri * b_pri))
    plain_theta = float(_plain(theta, ""))
    tolerance = 1e-3
    q_flip = np.array([0.0, 0.0, 0.0, 1.0])
    if math.pi - plain_theta < tolerance:  # (antiparallel: rotate by pi, then back a little)
        if not crossed:
            i = int(np.argmin(np.abs(_plain(a_pri, ""))))
            parts = [0.0, 0.0, 0.0]
            parts[i - 1], parts[i - 2] = a_pri[i - 2], -a_pri[i - 1]
            r = fnp.stack([fnp.asarray(p) * 1.0 for p in parts])
        else:
            r = cross
        r_norm = fnp.sqrt(fnp.sum(r * r))
        q_flip = rotation_class.from_rotvec(r / r_norm * math.pi).as_quat()
        theta, cross = math.pi - theta, -cross
        plain_theta = math.pi - plain_theta
    theta2 = theta * theta
    if abs(plain_theta) < tolerance:
        r = cross * (1.0 + theta2 / 6.0 + theta2 * theta2 * 7.0 / 360.0)
    else:
        r = cross * theta / fnp.sin(theta)
    q_pri = rotation_class.from_rotvec(r) * rotation_class(q_flip, False)
    if n == 1:
        q_opt = q_pri
    else:
        a_sec, b_sec, w_sec = a_s[1:], b_s[1:], fnp.take(w, order[1:])
        c_sec = q_pri.apply(b_sec)
        sin_term = fnp.sum(fnp.cross(c_sec, a_sec) * a_pri, axis=-1)
        cos_term = fnp.sum(c_sec * a_sec, axis=-1) - (
            fnp.sum(c_sec * a_pri, axis=-1) * fnp.sum(a_sec * a_pri, axis=-1))
        phi = fnp.arctan2(fnp.sum(w_sec * sin_term), fnp.sum(w_sec * cos_term))
        q_opt = rotation_class.from_rotvec(phi * a_pri) * q_pri
    # the infinitely weighted pair aligns exactly: its error counts zero
    zeroed = fnp.where(fnp.asarray(infinite if (n > 1 or np.isinf(plain_w[0]))
                                   else np.zeros(n, bool)), 0.0, w)
    a_est = q_opt.apply(b)
    rssd = fnp.sqrt(fnp.sum(fnp.matmul(zeroed, (a - a_est) ** 2)))
    return q_opt.as_quat(), rssd

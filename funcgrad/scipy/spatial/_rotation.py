"""``Rotation`` and ``Slerp`` of :mod:`funcgrad.scipy.spatial.transform` (which
describes them).
"""
import math
import warnings
from typing import Any, Optional, Sequence, Union

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete
from ...lax import stop_gradient
from ...typing import Array, ArrayLike
from . import _davenport
from ._align import align_vectors as _align_vectors
from .. import linalg as _linalg

__all__ = ["Rotation", "Slerp"]


def _float(x):
    x = asarray(x)
    return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x


def _product(p, q):
    """The Hamilton product ``p q`` of ``(..., 4)`` quaternions, scalar last."""
    pv, pw, qv, qw = p[..., :3], p[..., 3:], q[..., :3], q[..., 3:]
    w = pw * qw - fnp.sum(pv * qv, axis=-1, keepdims=True)
    v = pw * qv + qw * pv + fnp.cross(pv, qv)
    return fnp.concatenate([v, w], axis=-1)


def _safe_norm(v):
    """``(|v|, |v|**2)`` along the last axis, with a finite derivative at 0."""
    squared = fnp.sum(v * v, axis=-1, keepdims=True)
    positive = squared > 0
    return fnp.where(positive, fnp.sqrt(fnp.where(positive, squared, 1.0)), 0.0), squared


def _nearest_rotation(m):
    """SciPy's values (``m`` where it is orthogonal within 1e-12, else its polar factor
    ``U V^T``), with the polar factor's derivative everywhere: Markley's formulas on an
    unorthogonal matrix would give other slopes off the rotations than SciPy's function."""
    if is_concrete(m):
        det = np.linalg.det(np.asarray(concrete_values(m, "Rotation.from_matrix", "")))
        bad = np.flatnonzero(np.atleast_1d(det <= 0))
        if bad.size:
            raise ValueError(f"Non-positive determinant (left-handed or null coordinate "
                             f"frame) in rotation matrix {int(bad[0])}: "
                             f"{np.asarray(m).reshape(-1, 3, 3)[bad[0]]}.")
    polar = _linalg.polar(m)[0]
    gram = fnp.matmul(m, fnp.swapaxes(m, -1, -2))
    orthogonal = fnp.all(fnp.isclose(gram, np.eye(3), rtol=1e-05, atol=1e-12), axis=(-2, -1))
    chosen = fnp.where(orthogonal[..., None, None], m, polar)
    return polar + stop_gradient(chosen - polar)


def _axis_index(name, seq):
    if not isinstance(seq, str) or len(seq) != 3:
        raise ValueError(f"{name}: seq must be three of 'xyz' (extrinsic) or 'XYZ' "
                         f"(intrinsic), got {seq!r}")
    intrinsic = seq.isupper()
    if not (intrinsic or seq.islower()) or any(c not in "xyz" for c in seq.lower()):
        raise ValueError(f"{name}: seq must be all lower case (extrinsic) or all upper case "
                         f"(intrinsic) letters of xyz, got {seq!r}")
    axes = ["xyz".index(c) for c in seq.lower()]
    if axes[0] == axes[1] or axes[1] == axes[2]:
        raise ValueError(f"{name}: consecutive axes of seq must differ, got {seq!r}")
    return axes, intrinsic


class Rotation:
    """Rotations in 3 dimensions (``scipy.spatial.transform.Rotation``): build with the
    ``from_*`` class methods, convert with ``as_*``, compose with ``*``, ``apply`` to
    vectors; differentiable throughout.

    >>> import numpy as np, funcgrad as fg
    >>> r = Rotation.from_rotvec(np.array([0.0, 0.0, np.pi / 2]))
    >>> np.round(r.apply(np.array([1.0, 0.0, 0.0])), 12) + 0.0
    array([0., 1., 0.])
    >>> float(fg.grad(lambda a: Rotation.from_euler("z", a).apply(np.array([1.0, 0, 0]))[1])(0.0))
    1.0
    """

    def __init__(self, quat: ArrayLike, normalize: bool = True, copy: bool = True, *,
                 scalar_first: bool = False) -> None:
        q = _float(quat)
        if q.ndim not in (1, 2) or q.shape[-1] != 4:
            raise ValueError(f"Rotation: expected a quaternion of shape (4,) or (N, 4), got "
                             f"shape {tuple(q.shape)}")
        if scalar_first:
            q = fnp.concatenate([q[..., 1:], q[..., :1]], axis=-1)
        if normalize:
            q = q / fnp.sqrt(fnp.sum(q * q, axis=-1, keepdims=True))
        self._quat = q

    # --- construction -------------------------------------------------------------------

    @classmethod
    def from_quat(cls, quat: ArrayLike, *, scalar_first: bool = False) -> "Rotation":
        """From quaternions ``(x, y, z, w)`` (``scalar_first``: ``(w, x, y, z)``),
        normalized."""
        return cls(quat, scalar_first=scalar_first)

    @classmethod
    def from_matrix(cls, matrix: ArrayLike, *, assume_valid: bool = False) -> "Rotation":
        """From rotation matrices ``(3, 3)`` or ``(N, 3, 3)`` (Markley's method: the best
        conditioned of four formulas, chosen by the largest of the diagonal and trace).
        Unless ``assume_valid``, a matrix that is not orthogonal (its Gram matrix off the
        identity by more than 1e-12) is replaced by the nearest rotation, its polar factor,
        as SciPy's; the derivative is always the polar factor's (the nearest rotation's),
        whose slope off the rotations is SciPy's function's."""
        m = _float(matrix)
        if m.ndim not in (2, 3) or m.shape[-2:] != (3, 3):
            raise ValueError(f"Rotation.from_matrix: expected shape (3, 3) or (N, 3, 3), got "
                             f"{tuple(m.shape)}")
        if not assume_valid:
            m = _nearest_rotation(m)
        d = [m[..., 0, 0], m[..., 1, 1], m[..., 2, 2]]
        trace = d[0] + d[1] + d[2]
        candidates = []
        for i in range(3):
            j, k = (i + 1) % 3, (i + 2) % 3
            parts: list = [None] * 4
            parts[i] = 1.0 - trace + 2.0 * d[i]
            parts[j] = m[..., j, i] + m[..., i, j]
            parts[k] = m[..., k, i] + m[..., i, k]
            parts[3] = m[..., k, j] - m[..., j, k]
            candidates.append(fnp.stack(parts, axis=-1))
        candidates.append(fnp.stack([m[..., 2, 1] - m[..., 1, 2], m[..., 0, 2] - m[..., 2, 0],
                                     m[..., 1, 0] - m[..., 0, 1], 1.0 + trace], axis=-1))
        choice = fnp.argmax(fnp.stack(d + [trace], axis=-1), axis=-1)
        q = candidates[3]
        for i in range(3):
            q = fnp.where((choice == i)[..., None], candidates[i], q)
        return cls(q)

    @classmethod
    def from_rotvec(cls, rotvec: ArrayLike, degrees: bool = False) -> "Rotation":
        """From rotation vectors (axis times angle; ``degrees`` for degrees)."""
        v = _float(rotvec)
        if v.ndim not in (1, 2) or v.shape[-1] != 3:
            raise ValueError(f"Rotation.from_rotvec: expected shape (3,) or (N, 3), got "
                             f"{tuple(v.shape)}")
        if degrees:
            v = v * (math.pi / 180.0)
        angle, squared = _safe_norm(v)
        small = angle <= 1e-3
        big = fnp.where(small, 1.0, angle)
        # sin(angle / 2) / angle, by its series near 0
        scale = fnp.where(small, 0.5 - squared / 48.0 + squared * squared / 3840.0,
                          fnp.sin(big * 0.5) / big)
        return cls(fnp.concatenate([scale * v, fnp.cos(angle * 0.5)], axis=-1), False)

    @classmethod
    def from_mrp(cls, mrp: ArrayLike) -> "Rotation":
        """From modified Rodrigues parameters ``axis * tan(angle / 4)``."""
        p = _float(mrp)
        if p.ndim not in (1, 2) or p.shape[-1] != 3:
            raise ValueError(f"Rotation.from_mrp: expected shape (3,) or (N, 3), got "
                             f"{tuple(p.shape)}")
        squared = fnp.sum(p * p, axis=-1, keepdims=True)
        return cls(fnp.concatenate([2.0 * p, 1.0 - squared], axis=-1) / (1.0 + squared),
                   False)

    @classmethod
    def from_euler(cls, seq: str, angles: ArrayLike, degrees: bool = False) -> "Rotation":
        """From Euler angles about the axes of ``seq`` (1 to 3 letters; lower case:
        extrinsic, about the fixed axes; upper case: intrinsic, about the moving ones)."""
        if not isinstance(seq, str) or not 1 <= len(seq) <= 3 or not (
                seq.isupper() or seq.islower()) or any(c not in "xyz" for c in seq.lower()):
            raise ValueError(f"Rotation.from_euler: seq must be 1 to 3 of 'xyz' (extrinsic) "
                             f"or of 'XYZ' (intrinsic), got {seq!r}")
        if any(seq[n] == seq[n + 1] for n in range(len(seq) - 1)):
            raise ValueError(f"Rotation.from_euler: consecutive axes of seq must differ, got "
                             f"{seq!r}")
        intrinsic = seq.isupper()
        a = _float(angles)
        if degrees:
            a = a * (math.pi / 180.0)
        single = a.ndim == 0 or (a.ndim == 1 and len(seq) > 1)
        a = fnp.reshape(a, (-1, len(seq)))
        quats = []
        for n, c in enumerate(seq.lower()):
            half = a[:, n:n + 1] * 0.5
            axis = np.zeros(3)
            axis["xyz".index(c)] = 1.0
            quats.append(fnp.concatenate([fnp.sin(half) * axis.astype(half.dtype),
                                          fnp.cos(half)], axis=-1))
        q = quats[0]
        for nxt in quats[1:]:  # (intrinsic: q1 q2 q3; extrinsic: q3 q2 q1)
            q = _product(q, nxt) if intrinsic else _product(nxt, q)
        return cls(q[0] if single else q, False)

    @classmethod
    def identity(cls, num: Optional[int] = None) -> "Rotation":
        """The identity rotation (``num`` of them, stacked)."""
        q = np.array([0.0, 0.0, 0.0, 1.0])
        return cls(q if num is None else np.tile(q, (num, 1)), False)

    @classmethod
    def random(cls, num: Optional[int] = None, rng: Any = None, *,
               random_state: Any = None) -> "Rotation":
        """Uniformly random rotations (normalized normal quaternions) from
        ``np.random.default_rng(rng)``; not differentiable (plain values)."""
        gen = np.random.default_rng(rng if rng is not None else random_state)
        return cls(gen.standard_normal(4 if num is None else (num, 4)))

    @classmethod
    def concatenate(cls, rotations: Union["Rotation", Sequence["Rotation"]]) -> "Rotation":
        """The rotations stacked into one."""
        if isinstance(rotations, Rotation):
            return rotations
        return cls(fnp.concatenate([fnp.reshape(r.as_quat(), (-1, 4)) for r in rotations]),
                   False)

    @classmethod
    def from_davenport(cls, axes: ArrayLike, order: str, angles: ArrayLike,
                       degrees: bool = False) -> "Rotation":
        """From Davenport angles: rotations by ``angles`` about up to three ``axes``, each
        orthogonal to the next (``order`` 'e'/'extrinsic': about the fixed axes, 'i'/
        'intrinsic': about the moving ones); Euler angles when the axes are coordinate
        axes.

        >>> import numpy as np
        >>> r = Rotation.from_davenport(np.eye(3), "e", np.array([10.0, 20.0, 30.0]),
        ...                             degrees=True)
        >>> np.round(r.as_euler("xyz", degrees=True), 9)
        array([10., 20., 30.])
        """
        return _davenport.from_davenport(cls, axes, order, angles, degrees)

    @classmethod
    def create_group(cls, group: str, axis: str = "Z") -> "Rotation":
        """The rotations of a 3-d symmetry group (``'I'``, ``'O'``, ``'T'``, ``'Dn'``,
        ``'Cn'``; ``axis`` of the cyclic and dihedral ones), SciPy's (plain values).

        >>> len(Rotation.create_group("O"))
        24
        """
        from scipy.spatial.transform import Rotation as scipy_rotation
        return cls(scipy_rotation.create_group(group, axis).as_quat(), False)

    def reduce(self, left: Optional["Rotation"] = None, right: Optional["Rotation"] = None,
               return_indices: bool = False) -> Any:
        """``l * self * r`` of the smallest angle, ``l`` from ``left`` and ``r`` from
        ``right`` (rotation groups, say), each rotation's own (with ``return_indices``:
        and their indices, None for a group not given).  The choice is SciPy's, on the
        values; the product differentiates in this rotation and the groups.

        >>> import numpy as np
        >>> r = Rotation.from_euler("z", 100.0, degrees=True)
        >>> round(float(np.degrees(r.reduce(Rotation.create_group("C4")).magnitude())), 9)
        10.0
        """
        from scipy.spatial.transform import Rotation as scipy_rotation
        if left is None and right is None:
            out = Rotation(self._quat, False)
            return (out, None, None) if return_indices else out

        def plain(q):
            return np.asarray(concrete_values(q, "Rotation.reduce", "give plain rotations "
                                              "(the group elements are chosen on values)"))
        groups = [None if g is None else scipy_rotation(plain(g.as_quat()), normalize=False)
                  for g in (left, right)]
        _, li, ri = scipy_rotation(plain(self._quat), normalize=False).reduce(
            groups[0], groups[1], return_indices=True)
        q = fnp.reshape(self._quat, (-1, 4))
        if right is not None:
            q = _product(q, fnp.take(fnp.reshape(right.as_quat(), (-1, 4)),
                                     np.atleast_1d(ri), axis=0))
        if left is not None:
            q = _product(fnp.take(fnp.reshape(left.as_quat(), (-1, 4)), np.atleast_1d(li),
                                  axis=0), q)
        out = Rotation(q[0] if self.single else q, False)
        return (out, li, ri) if return_indices else out

    @classmethod
    def align_vectors(cls, a: ArrayLike, b: ArrayLike, weights: Optional[ArrayLike] = None,
                      return_sensitivity: bool = False) -> tuple:
        """``(rotation, rssd)`` (and the sensitivity matrix with ``return_sensitivity``):
        the rotation best mapping vectors ``b`` onto ``a`` (weighted least squares, SciPy's
        method: Kabsch's SVD; with one infinite weight or one pair, the primary pair
        aligned exactly, then the rest about it); differentiable in ``a``, ``b`` and the
        finite weights.

        >>> import numpy as np
        >>> a = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])
        >>> r, rssd = Rotation.align_vectors(a, np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))
        >>> np.round(r.as_euler("xyz", degrees=True), 9) + 0.0, round(float(rssd), 9)
        (array([ 0.,  0., 90.]), 0.0)
        """
        return _align_vectors(cls, a, b, weights, return_sensitivity)

    # --- conversion ---------------------------------------------------------------------

    @property
    def single(self) -> bool:
        """Whether this is one rotation (not a stack)."""
        return self._quat.ndim == 1

    def __len__(self) -> int:
        if self.single:
            raise TypeError("a single rotation has no len(); it is not a stack")
        return self._quat.shape[0]

    def __getitem__(self, index: Any) -> "Rotation":
        if self.single:
            raise TypeError("a single rotation is not subscriptable; it is not a stack")
        return Rotation(self._quat[index], False)

    def as_quat(self, canonical: bool = False, *, scalar_first: bool = False) -> Array:
        """The unit quaternions ``(x, y, z, w)`` (``canonical``: the one of ``q, -q`` with
        ``w >= 0``, as SciPy's)."""
        q = self._quat
        if canonical:
            q = fnp.where(fnp.less(q[..., 3:], 0), -q, q)
        if scalar_first:
            q = fnp.concatenate([q[..., 3:], q[..., :3]], axis=-1)
        return q

    def as_matrix(self) -> Array:
        """The rotation matrices, ``(3, 3)`` or ``(N, 3, 3)``."""
        x, y, z, w = (self._quat[..., i] for i in range(4))
        rows = [[w * w + x * x - y * y - z * z, 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), w * w - x * x + y * y - z * z, 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), w * w - x * x - y * y + z * z]]
        return fnp.stack([fnp.stack(r, axis=-1) for r in rows], axis=-2)

    def as_rotvec(self, degrees: bool = False) -> Array:
        """The rotation vectors, axis times angle in ``[0, pi]``."""
        q = self.as_quat(canonical=True)
        v, w = q[..., :3], q[..., 3:]
        sine, squared = _safe_norm(v)
        angle = 2.0 * fnp.arctan2(sine, w)
        small = angle <= 1e-3
        big = fnp.where(small, 1.0, angle)
        a2 = angle * angle
        # angle / sin(angle / 2), by its series near 0
        scale = fnp.where(small, 2.0 + a2 / 12.0 + 7.0 * a2 * a2 / 2880.0,
                          big / fnp.sin(big * 0.5))
        out = scale * v
        return out * (180.0 / math.pi) if degrees else out

    def as_davenport(self, axes: ArrayLike, order: str, degrees: bool = False, *,
                     suppress_warnings: bool = False) -> Array:
        """The Davenport angles about three ``axes`` (each orthogonal to the next;
        ``order`` as :meth:`from_davenport`): the first and third in ``[-pi, pi)``; at
        gimbal lock the third is set to 0, with SciPy's warning.

        >>> import numpy as np
        >>> r = Rotation.from_euler("xyz", np.array([10.0, 20.0, 30.0]), degrees=True)
        >>> np.round(r.as_davenport(np.eye(3), "e", degrees=True), 9)
        array([10., 20., 30.])
        """
        return _davenport.as_davenport(self._quat, axes, order, degrees, suppress_warnings)

    def as_mrp(self) -> Array:
        """Modified Rodrigues parameters, of norm at most 1."""
        q = self.as_quat(canonical=True)
        return q[..., :3] / (1.0 + q[..., 3:])

    def as_euler(self, seq: str, degrees: bool = False, *,
                 suppress_warnings: bool = False) -> Array:
        """Euler angles about the axes of ``seq`` (three letters; lower case extrinsic,
        upper case intrinsic): the first and third in ``[-pi, pi]``, the second in
        ``[0, pi]`` for proper Euler sequences (``'zxz'``...), ``[-pi/2, pi/2]`` else."""
        axes, intrinsic = _axis_index("Rotation.as_euler", seq)
        if intrinsic:
            axes = axes[::-1]
        i, j, k = axes
        symmetric = i == k
        if symmetric:
            k = 3 - i - j
        sign = (i - j) * (j - k) * (k - i) // 2
        q = self._quat
        if symmetric:
            a, b, c, d = q[..., 3], q[..., i], q[..., j], q[..., k] * sign
        else:
            a, b = q[..., 3] - q[..., j], q[..., i] + q[..., k] * sign
            c, d = q[..., j] + q[..., 3], q[..., k] * sign - q[..., i]
        middle = 2.0 * fnp.arctan2(fnp.hypot(c, d), fnp.hypot(a, b))
        half_sum, half_diff = fnp.arctan2(b, a), fnp.arctan2(d, c)
        eps = 1e-7
        at_zero, at_pi = fnp.abs(middle) <= eps, fnp.abs(middle - math.pi) <= eps
        regular = fnp.logical_not(fnp.logical_or(at_zero, at_pi))
        # gimbal lock: the angle applied last is set to 0 and the other takes the whole
        # turn about the (then common) axis, as SciPy
        locked = fnp.where(at_zero, 2.0 * half_sum,
                           (2.0 if intrinsic else -2.0) * half_diff)
        first = fnp.where(regular, half_sum - half_diff, 0.0 * half_sum)
        third = fnp.where(regular, half_sum + half_diff, 0.0 * half_sum)
        if intrinsic:   # (the axes were reversed: the outer angles trade places)
            outer_first, outer_last = fnp.where(regular, third, locked), first
            if not symmetric:
                outer_first = outer_first * sign
        else:
            outer_first, outer_last = fnp.where(regular, first, locked), third
            if not symmetric:
                outer_last = outer_last * sign
        if not symmetric:
            middle = middle - math.pi / 2
        # (the outer angles into [-pi, pi); the middle one is in range by construction)
        outer_first, outer_last = (fnp.mod(x + math.pi, 2 * math.pi) - math.pi
                                   for x in (outer_first, outer_last))
        out = fnp.stack([outer_first, middle, outer_last], axis=-1)
        return out * (180.0 / math.pi) if degrees else out

    # --- action -------------------------------------------------------------------------

    def apply(self, vectors: ArrayLike, inverse: bool = False) -> Array:
        """The rotated vectors, ``(3,)`` or ``(N, 3)`` (``inverse``: rotated back)."""
        v = _float(vectors)
        if v.ndim not in (1, 2) or v.shape[-1] != 3:
            raise ValueError(f"Rotation.apply: expected vectors of shape (3,) or (N, 3), got "
                             f"{tuple(v.shape)}")
        m = self.as_matrix()
        if inverse:
            m = fnp.swapaxes(m, -1, -2)
        out = fnp.matmul(m, v[..., None])[..., 0]
        return out

    def inv(self) -> "Rotation":
        """The inverse rotations (conjugate quaternions)."""
        q = self._quat
        return Rotation(fnp.concatenate([-q[..., :3], q[..., 3:]], axis=-1), False)

    def magnitude(self) -> Array:
        """The rotation angles in ``[0, pi]``."""
        sine, _ = _safe_norm(self._quat[..., :3])
        return 2.0 * fnp.arctan2(sine[..., 0], fnp.abs(self._quat[..., 3]))

    def mean(self, weights: Optional[ArrayLike] = None) -> "Rotation":
        """The mean rotation: the eigenvector of ``sum w q q^T`` with the largest
        eigenvalue (SciPy's)."""
        q = fnp.reshape(self._quat, (-1, 4))
        w = np.ones(q.shape[0]) if weights is None else _float(weights)
        k = fnp.einsum("n,ni,nj->ij", w, q, q)
        return Rotation(fnp.linalg.eigh(k)[1][:, -1], False)

    def __mul__(self, other: "Rotation") -> "Rotation":
        """The composition: ``(p * q).apply(v) == p.apply(q.apply(v))``."""
        if not isinstance(other, Rotation):
            return NotImplemented
        return Rotation(_product(self._quat, other._quat), False)

    def __pow__(self, n: Any, modulus: None = None) -> "Rotation":
        """The rotation applied ``n`` times (any real ``n``: the rotation vector scaled, so
        the angle stays in ``[0, pi]`` first; ``n`` = 0, 1, -1 exactly, as SciPy)."""
        if modulus is not None:
            raise NotImplementedError("modulus not supported")
        if is_concrete(n):
            value = np.asarray(concrete_values(n, "Rotation.__pow__", ""))
            if value.shape not in ((), (1,)):
                raise ValueError("Array exponent must be a scalar")
            power = float(value.reshape(()))
            if power == 0:
                return Rotation.identity(None if self.single else len(self))
            if power == 1:
                return Rotation(self._quat, False)
            if power == -1:
                return self.inv()
        return Rotation.from_rotvec(self.as_rotvec() * n)

    def approx_equal(self, other: "Rotation", atol: Optional[float] = None,
                     degrees: bool = False) -> Array:
        """Whether ``other`` is within ``atol`` (radians; ``degrees``: degrees; default
        1e-8 radians) of this rotation: the angle of ``other * self.inv()``."""
        if atol is None:
            if degrees:
                warnings.warn("atol must be set to use the degrees flag, defaulting to "
                              "1e-8 radians.", stacklevel=2)
            atol = 1e-8
        elif degrees:
            atol = math.radians(atol)
        return (other * self.inv()).magnitude() < atol

    @property
    def shape(self) -> tuple:
        """``()`` for one rotation, ``(N,)`` for a stack."""
        return tuple(self._quat.shape[:-1])

    def __repr__(self) -> str:
        return f"Rotation.from_quat({self._quat!r})"


class Slerp:
    """Spherical linear interpolation of ``rotations`` (a stack) at increasing ``times``
    (``scipy.spatial.transform.Slerp``): constant angular velocity between neighbours;
    differentiable in the rotations and the times.

    >>> import numpy as np
    >>> s = Slerp(np.array([0.0, 1.0]), Rotation.from_euler("z", np.array([0.0, 90.0]),
    ...                                                        degrees=True))
    >>> np.round(s(np.array([0.5])).as_euler("zyx", degrees=True), 9) + 0.0
    array([[45.,  0.,  0.]])
    """

    def __init__(self, times: ArrayLike, rotations: Rotation) -> None:
        if rotations.single or len(rotations) < 2:
            raise ValueError("Slerp: rotations must be a stack of at least two")
        knots = _float(times)
        if knots.ndim != 1 or knots.shape[0] != len(rotations):
            raise ValueError(f"Slerp: one time per rotation ({len(rotations)}), got shape "
                             f"{tuple(knots.shape)}")
        if np.any(np.diff(np.asarray(concrete_values(knots, "Slerp", "give plain times"))) <= 0):
            raise ValueError("Slerp: times must be strictly increasing")
        self.times = knots
        self.rotations = rotations
        self._steps = (rotations[:-1].inv() * rotations[1:]).as_rotvec()

    def __call__(self, times: ArrayLike) -> Rotation:
        """The interpolated rotations at ``times`` (within the given range)."""
        t = _float(times)
        single = t.ndim == 0
        t = fnp.reshape(t, (-1,))
        n = self.times.shape[0]
        # the interval: how many interior knots lie at or below t
        index = fnp.sum(fnp.astype(t[:, None] >= self.times[None, 1:n - 1], np.int64), axis=1)
        start = fnp.take(self.times, index)
        fraction = (t - start) / (fnp.take(self.times, index + 1) - start)
        base = Rotation(fnp.take(self.rotations.as_quat(), index, axis=0), False)
        step = Rotation.from_rotvec(fnp.take(self._steps, index, axis=0) * fraction[:, None])
        out = base * step
        return out[0] if single else out

"""``RigidTransform`` (SciPy 1.16's ``scipy.spatial.transform.RigidTransform``): rotations
and translations in 3 dimensions, held as ``(4, 4)`` homogeneous matrices (or a stack
``(N, 4, 4)``) whose entries may be traced, so every conversion, composition and
``apply`` differentiates.

The exponential coordinates ``(rotation vector, v)`` map to the translation by the matrix
``I + k1 [w]x + k2 [w]x^2`` of the rotation vector ``w`` and back by its closed-form
inverse, each with SciPy's series below an angle of 1e-3; the series and the closed forms
are each computed at a safe angle (the double-where idiom), so no NaN reaches a derivative
at the identity.
"""
from typing import Any, Iterable, Optional, Union

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete
from ...typing import Array, ArrayLike
from ._rotation import Rotation, _product

__all__ = ["RigidTransform"]


def _float(x):
    x = asarray(x)
    return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x


def _skew(v):
    """The cross-product matrices ``[v]x`` of ``(..., 3)`` vectors."""
    zero = fnp.zeros_like(v[..., 0])
    x, y, z = v[..., 0], v[..., 1], v[..., 2]
    rows = [[zero, -z, y], [z, zero, -x], [-y, x, zero]]
    return fnp.stack([fnp.stack(r, axis=-1) for r in rows], axis=-2)


def _angle(w):
    """``(|w|^2, |w| with 1 where it is below 1e-3, which rows are small)``: the series
    read the square (no square root at 0, whose slope is infinite), the closed forms a
    safe angle."""
    squared = fnp.sum(w * w, axis=-1, keepdims=True)
    small = squared < 1e-6  # (SciPy's switch: an angle of 1e-3)
    return squared, fnp.sqrt(fnp.where(small, 1.0, squared)), small


def _exp_translation(w):
    """``I + k1 [w]x + k2 [w]x^2``: the exponential coordinates' v to the translation."""
    t2, safe, small = _angle(w)
    k1 = fnp.where(small, 0.5 - t2 / 24.0 + t2 * t2 / 720.0,
                   (1.0 - fnp.cos(safe)) / (safe * safe))
    k2 = fnp.where(small, 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0,
                   (safe - fnp.sin(safe)) / (safe * safe * safe))
    s = _skew(w)
    return np.eye(3) + k1[..., None] * s + k2[..., None] * fnp.matmul(s, s)


def _log_translation(w):
    """The inverse of :func:`_exp_translation`, in closed form."""
    t2, safe, small = _angle(w)
    k = fnp.where(small, 1.0 / 12.0 + t2 / 720.0 + t2 * t2 / 30240.0,
                  (1.0 - 0.5 * safe / fnp.tan(0.5 * safe)) / (safe * safe))
    s = _skew(w)
    return np.eye(3) - 0.5 * s + k[..., None] * fnp.matmul(s, s)


def _assemble(translation, rotmat):
    """The ``(..., 4, 4)`` matrices of translations ``(..., 3)`` and rotation matrices."""
    top = fnp.concatenate([rotmat, translation[..., None]], axis=-1)
    bottom = fnp.broadcast_to(np.array([0.0, 0.0, 0.0, 1.0]).astype(top.dtype),
                              top.shape[:-2] + (1, 4))
    return fnp.concatenate([top, bottom], axis=-2)


def _check_stack(name, x, tail):
    if x.ndim not in (len(tail), len(tail) + 1) or tuple(x.shape[-len(tail):]) != tail:
        want = ", ".join(map(str, tail))
        raise ValueError(f"RigidTransform.{name}: expected shape ({want}) or (N, {want}), "
                         f"got {tuple(x.shape)}")


class RigidTransform:
    """Rigid transformations (a rotation, then a translation) in 3 dimensions, as SciPy's
    ``RigidTransform``: build with the ``from_*`` class methods, convert with ``as_*``,
    compose with ``*`` (``(p * q).apply(v) == p.apply(q.apply(v))``), raise to powers with
    ``**``, ``apply`` to vectors; differentiable throughout.  ``matrix``: ``(4, 4)`` or
    ``(N, 4, 4)``, last row exactly ``[0, 0, 0, 1]``; ``normalize`` makes the rotation part
    orthonormal (through its quaternion, as SciPy).

    >>> import numpy as np, funcgrad as fg
    >>> tf = RigidTransform.from_components(np.array([1.0, 0.0, 0.0]),
    ...                                     Rotation.from_euler("z", 90, degrees=True))
    >>> np.round(tf.apply(np.array([1.0, 0.0, 0.0])), 12) + 0.0
    array([1., 1., 0.])
    >>> f = lambda e: RigidTransform.from_exp_coords(e).translation[1]
    >>> fg.grad(f)(np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0]))  # at the identity
    array([0. , 0. , 0.5, 0. , 1. , 0. ])
    """

    def __init__(self, matrix: ArrayLike, normalize: bool = True, copy: bool = True) -> None:
        m = _float(matrix)
        _check_stack("__init__", m, (4, 4))
        last = np.asarray(concrete_values(m[..., 3, :], "RigidTransform",
                                          "keep the last row plain [0, 0, 0, 1]")
                          ) if is_concrete(m) else None
        if last is not None and not np.all(last == np.array([0.0, 0.0, 0.0, 1.0])):
            raise ValueError(f"Expected last row of transformation matrix to be exactly "
                             f"[0, 0, 0, 1], got {last}")
        if normalize:
            rot = Rotation.from_matrix(m[..., :3, :3]).as_matrix()
            m = _assemble(m[..., :3, 3], rot)
        self._matrix = m

    # --- construction -------------------------------------------------------------------

    @classmethod
    def from_matrix(cls, matrix: ArrayLike) -> "RigidTransform":
        """From ``(4, 4)`` homogeneous matrices (the rotation part made orthonormal)."""
        return cls(matrix)

    @classmethod
    def from_rotation(cls, rotation: Rotation) -> "RigidTransform":
        """A pure rotation (no translation)."""
        rot = rotation.as_matrix()
        return cls(_assemble(fnp.zeros_like(rot[..., 0]), rot), normalize=False)

    @classmethod
    def from_translation(cls, translation: ArrayLike) -> "RigidTransform":
        """A pure translation, ``(3,)`` or ``(N, 3)``."""
        t = _float(translation)
        _check_stack("from_translation", t, (3,))
        eye = fnp.broadcast_to(np.eye(3).astype(t.dtype), t.shape[:-1] + (3, 3))
        return cls(_assemble(t, eye), normalize=False)

    @classmethod
    def from_components(cls, translation: ArrayLike, rotation: Rotation) -> "RigidTransform":
        """The rotation, then the translation: ``x -> R x + t``."""
        return cls.from_translation(translation) * cls.from_rotation(rotation)

    @classmethod
    def from_exp_coords(cls, exp_coords: ArrayLike) -> "RigidTransform":
        """From exponential coordinates ``(rotation vector, v)``, ``(6,)`` or ``(N, 6)``:
        the rotation of the rotation vector, the translation ``V(w) v``."""
        e = _float(exp_coords)
        _check_stack("from_exp_coords", e, (6,))
        w = e[..., :3]
        t = fnp.matmul(_exp_translation(w), e[..., 3:, None])[..., 0]
        return cls(_assemble(t, Rotation.from_rotvec(w).as_matrix()), normalize=False)

    @classmethod
    def from_dual_quat(cls, dual_quat: ArrayLike, *, scalar_first: bool = False
                       ) -> "RigidTransform":
        """From unit dual quaternions ``(real, dual)``, ``(8,)`` or ``(N, 8)`` (normalized
        first: a unit real part, a dual part orthogonal to it, as SciPy)."""
        d = _float(dual_quat)
        _check_stack("from_dual_quat", d, (8,))
        real, dual = d[..., :4], d[..., 4:]
        if scalar_first:
            real = fnp.concatenate([real[..., 1:], real[..., :1]], axis=-1)
            dual = fnp.concatenate([dual[..., 1:], dual[..., :1]], axis=-1)
        squared = fnp.sum(real * real, axis=-1, keepdims=True)
        zero = squared == 0.0
        real = fnp.where(zero, np.array([0.0, 0.0, 0.0, 1.0]), real)
        norm = fnp.sqrt(fnp.where(zero, 1.0, squared))
        real, dual = real / norm, dual / norm
        dual = dual - fnp.sum(real * dual, axis=-1, keepdims=True) * real
        conjugate = fnp.concatenate([-real[..., :3], real[..., 3:]], axis=-1)
        t = 2.0 * _product(dual, conjugate)[..., :3]
        return cls(_assemble(t, Rotation(real, False).as_matrix()), normalize=False)

    @classmethod
    def identity(cls, num: Optional[int] = None) -> "RigidTransform":
        """The identity (``num`` of them, stacked)."""
        eye = np.eye(4)
        return cls(eye if num is None else np.tile(eye, (num, 1, 1)), normalize=False)

    @classmethod
    def concatenate(cls, transforms: Union["RigidTransform", Iterable["RigidTransform"]]
                    ) -> "RigidTransform":
        """The transforms stacked into one."""
        if isinstance(transforms, RigidTransform):
            return cls(transforms._matrix, normalize=False)
        return cls(fnp.concatenate([fnp.reshape(t._matrix, (-1, 4, 4)) for t in transforms]),
                   normalize=False)

    # --- conversion ---------------------------------------------------------------------

    def as_matrix(self) -> Array:
        """The ``(4, 4)`` (or ``(N, 4, 4)``) homogeneous matrices."""
        return self._matrix

    def as_components(self) -> tuple:
        """``(translation, rotation)``: ``x -> rotation.apply(x) + translation``."""
        return self.translation, self.rotation

    def as_exp_coords(self) -> Array:
        """The exponential coordinates ``(rotation vector, v)``, ``(6,)`` or ``(N, 6)``."""
        w = self.rotation.as_rotvec()
        v = fnp.matmul(_log_translation(w), self._matrix[..., :3, 3, None])[..., 0]
        return fnp.concatenate([w, v], axis=-1)

    def as_dual_quat(self, *, scalar_first: bool = False) -> Array:
        """The unit dual quaternions ``(real, dual)``, ``(8,)`` or ``(N, 8)``."""
        real = Rotation.from_matrix(self._matrix[..., :3, :3]).as_quat()
        t = self._matrix[..., :3, 3]
        pure = fnp.concatenate([t, fnp.zeros_like(t[..., :1])], axis=-1)
        dual = 0.5 * _product(pure, real)
        if scalar_first:
            real = fnp.concatenate([real[..., 3:], real[..., :3]], axis=-1)
            dual = fnp.concatenate([dual[..., 3:], dual[..., :3]], axis=-1)
        return fnp.concatenate([real, dual], axis=-1)

    @property
    def rotation(self) -> Rotation:
        """The rotation part."""
        return Rotation.from_matrix(self._matrix[..., :3, :3])

    @property
    def translation(self) -> Array:
        """The translation part, ``(3,)`` or ``(N, 3)``."""
        return self._matrix[..., :3, 3]

    @property
    def single(self) -> bool:
        """Whether this is one transform (not a stack)."""
        return self._matrix.ndim == 2

    @property
    def shape(self) -> tuple:
        """``()`` for one transform, ``(N,)`` for a stack."""
        return tuple(self._matrix.shape[:-2])

    def __len__(self) -> int:
        if self.single:
            raise TypeError("Single transform has no len")
        return self._matrix.shape[0]

    def __getitem__(self, index: Any) -> "RigidTransform":
        if self.single:
            raise TypeError("Single transform is not subscriptable")
        return RigidTransform(self._matrix[index], normalize=False)

    # --- action -------------------------------------------------------------------------

    def apply(self, vector: ArrayLike, inverse: bool = False) -> Array:
        """The transformed vectors ``R v + t`` (``inverse``: ``R^T (v - t)``), broadcast
        as SciPy: one transform and N vectors, N and one, or N and N."""
        v = _float(vector)
        _check_stack("apply", v, (3,))
        m = self.inv()._matrix if inverse else self._matrix
        out = fnp.matmul(m[..., :3, :3], v[..., None])[..., 0] + m[..., :3, 3]
        return out

    def inv(self) -> "RigidTransform":
        """The inverse transforms: ``x -> R^T (x - t)``."""
        r = fnp.swapaxes(self._matrix[..., :3, :3], -1, -2)
        t = -fnp.matmul(r, self._matrix[..., :3, 3, None])[..., 0]
        return RigidTransform(_assemble(t, r), normalize=False)

    def mean(self, weights: Optional[ArrayLike] = None) -> "RigidTransform":
        """The mean transform: the rotations' mean (:meth:`Rotation.mean`) and the
        translations' (weighted) mean."""
        if self.single:
            return RigidTransform(self._matrix, normalize=False)
        t = self._matrix[..., :3, 3]
        if weights is None:
            rot, t_mean = self.rotation.mean(), fnp.mean(t, axis=0)
        else:
            w = _float(weights)
            if w.shape != (len(self),):
                raise ValueError(f"Expected `weights` to match transform shape, got shape "
                                 f"{tuple(w.shape)} for ({len(self)},) transformations.")
            if is_concrete(w) and np.any(np.asarray(concrete_values(w, "mean", "")) < 0):
                raise ValueError("`weights` must be non-negative.")
            rot = self.rotation.mean(w)
            t_mean = fnp.sum(t * w[:, None], axis=0) / fnp.sum(w)
        return RigidTransform(_assemble(t_mean, rot.as_matrix()), normalize=False)

    def __mul__(self, other: "RigidTransform") -> "RigidTransform":
        """The composition: ``other`` first, then ``self``."""
        if not isinstance(other, RigidTransform):
            return NotImplemented
        a, b = self._matrix, other._matrix
        if a.ndim == 3 and b.ndim == 3 and a.shape[0] != b.shape[0]:
            raise ValueError(f"Expected equal number of transforms in both or a single "
                             f"transform in either object, got {a.shape[0]} transforms in "
                             f"first and {b.shape[0]} transforms in second object.")
        return RigidTransform(fnp.matmul(a, b), normalize=False)

    def __pow__(self, n: Any) -> "RigidTransform":
        """The transform applied ``n`` times (any real ``n``: through the exponential
        coordinates; ``n`` = 0, 1, -1 exactly)."""
        if is_concrete(n):
            value = float(np.asarray(concrete_values(n, "RigidTransform.__pow__", "")))
            if value == 0:
                return RigidTransform.identity(None if self.single else len(self))
            if value == 1:
                return RigidTransform(self._matrix, normalize=False)
            if value == -1:
                return self.inv()
        return RigidTransform.from_exp_coords(self.as_exp_coords() * n)

    def __repr__(self) -> str:
        return f"RigidTransform.from_matrix({self._matrix!r})"


"""``funcgrad.scipy.spatial.transform``: ``Rotation``, ``Slerp`` and ``RigidTransform``
with SciPy's names and conventions (unit quaternions ``(x, y, z, w)``, scalar last; ``p * q`` applies ``q``
first; Euler sequences in lower case extrinsic, upper case intrinsic), differentiable
through every conversion, ``apply``, composition and interpolation.

A rotation holds one quaternion ``(4,)`` or a stack ``(N, 4)``.  The conversions are
closed forms written with funcgrad operations; where a formula has a removable
singularity (``from_rotvec``/``as_rotvec`` at angle 0) a Taylor series is taken there
and the double-where idiom keeps NaN out of the derivatives.  ``as_euler`` at gimbal
lock (the middle angle 0 or pi) sets the third angle to 0 as SciPy does; its derivative
there is undefined.  ``mean`` is the eigenvector of ``sum w q q^T`` with the largest
eigenvalue (SciPy's), through ``eigh``.  ``RigidTransform`` holds ``(4, 4)`` matrices
(see :mod:`._rigid`); ``RotationSpline`` interpolates with continuous angular rate and
acceleration.

>>> import numpy as np
>>> r = Rotation.from_euler("z", 90, degrees=True)
>>> np.round(RigidTransform.from_components(np.ones(3), r).apply(np.array([1.0, 0, 0])), 12)
array([1., 2., 1.])
"""
from ._rigid import RigidTransform
from ._rotation import Rotation, Slerp
from ._rotation_spline import RotationSpline

__all__ = ["Rotation", "Slerp", "RigidTransform", "RotationSpline"]

"""``funcgrad.scipy.spatial``: ``transform``'s ``Rotation`` and ``Slerp`` (as
``jax.scipy.spatial``), differentiable.

>>> import numpy as np, funcgrad.scipy.spatial as fsp
>>> float(fsp.transform.Rotation.from_rotvec(np.array([0.0, 0.3, 0.4])).magnitude())
0.5
"""
from . import transform  # noqa: F401

__all__ = ["transform"]

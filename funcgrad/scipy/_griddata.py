"""``griddata`` (``scipy.interpolate``'s): scattered data interpolated at given points by
the interpolator its ``method`` names."""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..typing import Array, ArrayLike
from ._interpmore_clough import CloughTocher2DInterpolator
from ._interpmore_nd import LinearNDInterpolator, NearestNDInterpolator, _sites

__all__ = ["griddata"]


def griddata(points: Any, values: ArrayLike, xi: Any, method: str = "linear",
             fill_value: float = np.nan, rescale: bool = False) -> Array:
    """Interpolation of scattered data at ``xi`` (``scipy.interpolate.griddata``):
    ``method`` 'nearest' (:class:`NearestNDInterpolator`) or 'linear'
    (:class:`LinearNDInterpolator`); 1-d data go through :func:`interp1d` ('nearest'
    extrapolates, as SciPy's), where 'cubic' works too; 'cubic' in 2-d is
    :class:`CloughTocher2DInterpolator`.  Differentiable in ``values``, for 'linear' in
    ``points`` and ``xi``, for 'cubic' in ``xi``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> fi.griddata(x, x.sum(axis=1), np.array([[0.5, 0.25]]))
    array([0.75])
    """
    from ._interp1d import interp1d
    points, values = _sites("griddata", points, values)
    ndim = points.shape[1]
    if ndim == 1 and method in ("nearest", "linear", "cubic"):
        if isinstance(xi, tuple):
            if len(xi) != 1:
                raise ValueError("griddata: invalid number of dimensions in xi")
            xi, = xi
        order = np.argsort(np.asarray(concrete_values(points[:, 0], "griddata's sort of "
                                                      "the points", "Call it outside jit.")))
        line = interp1d(fnp.take(points[:, 0], order), fnp.take(values, order, axis=0),
                        kind=method, axis=0, bounds_error=False,
                        fill_value="extrapolate" if method == "nearest" else fill_value)
        return line(xi)
    if method == "nearest":
        return NearestNDInterpolator(points, values, rescale=rescale)(xi)
    if method == "linear":
        return LinearNDInterpolator(points, values, fill_value=fill_value,
                                    rescale=rescale)(xi)
    if method == "cubic" and ndim == 2:
        return CloughTocher2DInterpolator(points, values, fill_value=fill_value,
                                          rescale=rescale)(xi)
    raise ValueError(f"griddata: Unknown interpolation method {method!r} for {ndim} "
                     f"dimensional data")

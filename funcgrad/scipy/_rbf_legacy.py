"""``Rbf``: SciPy's legacy radial basis function interpolator (``scipy.interpolate.Rbf``,
which SciPy keeps for older code; :class:`RBFInterpolator` is the newer one).

The weights solve ``(phi(r_ij) - smooth I) w = d`` over the nodes, and a query's value is
``sum_j phi(|x - x_j|) w_j``: written with differentiable operations in SciPy's order,
so the values are SciPy's to rounding and differentiate in the data values, the node
coordinates, ``epsilon`` and the query points.  A distance of zero (a query at a node)
differentiates as the kernel does at 0: its slope there is 0 for every built-in kernel
but ``linear``, whose kink gets 0 too (the symmetric choice, as ``abs`` at 0).
"""
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array

__all__ = ["Rbf"]

_ALIASES = {"inverse": "inverse_multiquadric", "inverse multiquadric": "inverse_multiquadric",
            "thin-plate": "thin_plate"}


def _euclidean(a, b):
    """``|a_i - b_j|`` for columns of ``a`` ``(d, m)`` and ``b`` ``(d, n)``: ``(m, n)``,
    with slope 0 where the distance is 0 (no 0 * inf from the square root's)."""
    diff = a.T[:, None, :] - b.T[None, :, :]
    squares = (diff * diff).sum(axis=2)
    positive = squares > 0
    return fnp.where(positive, fnp.sqrt(fnp.where(positive, squares, 1.0)), 0.0)


class Rbf:
    """A radial basis function interpolator of scattered n-d data
    (``scipy.interpolate.Rbf``): ``Rbf(x, y, ..., d, function="multiquadric",
    epsilon=None, smooth=0, norm="euclidean", mode="1-D")``; call it with one array per
    coordinate.  ``function``: ``"multiquadric"``, ``"inverse"``, ``"gaussian"``,
    ``"linear"``, ``"cubic"``, ``"quintic"``, ``"thin_plate"``, or a callable of ``r``
    (or of ``self, r``).  Differentiable in the data values, the coordinates, a given
    ``epsilon`` and the query points.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(0, 3, 7)
    >>> f = fi.Rbf(x, np.sin(x))
    >>> round(float(f(np.array(1.1))), 6)
    0.889749
    >>> round(float(fg.grad(lambda q: f(q))(1.1)), 4)   # ~ cos(1.1)
    0.4441
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) < 2:
            raise TypeError("Rbf needs the coordinate arrays and the data values: "
                            "Rbf(x, y, ..., d)")
        coords = [fnp.ravel(fnp.astype(asarray(a), np.float64)) for a in args[:-1]]
        self.mode = kwargs.pop("mode", "1-D")
        if self.mode == "1-D":
            self.di = fnp.ravel(asarray(args[-1]))
            self._target_dim = 1
        elif self.mode == "N-D":
            self.di = asarray(args[-1])
            self._target_dim = self.di.shape[-1]
        else:
            raise ValueError("Rbf: mode has to be '1-D' or 'N-D'")
        if not all(c.shape[0] == self.di.shape[0] for c in coords):
            raise ValueError("Rbf: all arrays must be equal length (one value per node)")
        self.xi = fnp.stack(coords)
        self.N = self.xi.shape[-1]
        self.norm = kwargs.pop("norm", "euclidean")
        self.epsilon = kwargs.pop("epsilon", None)
        if self.epsilon is None:
            # (SciPy's default: the side of the bounding box's volume per node)
            edges = fnp.max(self.xi, axis=1) - fnp.min(self.xi, axis=1)
            nonzero = np.nonzero(concrete_values(edges, "Rbf's default epsilon",
                                                 "pass epsilon"))[0]
            edges = edges[nonzero]
            self.epsilon = fnp.power(fnp.prod(edges) / self.N, 1.0 / edges.size)
        self.smooth = kwargs.pop("smooth", 0.0)
        self.function = kwargs.pop("function", "multiquadric")
        for item, value in kwargs.items():
            setattr(self, item, value)
        self._function = self._kernel()
        a = self.A
        if self._target_dim > 1:
            self.nodes = fnp.linalg.solve(a, self.di)
        else:
            self.nodes = fnp.linalg.solve(a, self.di[:, None])[:, 0]

    def _kernel(self) -> Callable[[Any], Any]:
        eps = self.epsilon
        kernels = {
            "multiquadric": lambda r: fnp.sqrt((1.0 / eps * r) ** 2 + 1),
            "inverse_multiquadric": lambda r: 1.0 / fnp.sqrt((1.0 / eps * r) ** 2 + 1),
            "gaussian": lambda r: fnp.exp(-(1.0 / eps * r) ** 2),
            "linear": lambda r: r,
            "cubic": lambda r: r ** 3,
            "quintic": lambda r: r ** 5,
            # (r**2 log r, 0 at r = 0, as SciPy's xlogy)
            "thin_plate": lambda r: fnp.where(r > 0, r ** 2 * fnp.log(fnp.where(r > 0, r, 1.0)),
                                              0.0),
        }
        function = self.function
        if isinstance(function, str):
            name = _ALIASES.get(function.lower(), function.lower())
            if name not in kernels:
                raise ValueError("Rbf: function must be a callable or one of "
                                 + ", ".join(sorted(kernels)))
            self.function = name
            return kernels[name]
        if not callable(function):
            raise ValueError("Rbf: function must be a callable or the name of a kernel")
        code = getattr(function, "__code__", None)
        if code is None:
            code = getattr(getattr(function, "__call__", None), "__func__", None)
            code = getattr(code, "__code__", None)
        if code is None:
            raise ValueError("Rbf: cannot determine the number of arguments of function")
        count = code.co_argcount - (0 if hasattr(function, "__code__") else 1)
        if count == 1:
            return function
        if count == 2:
            return lambda r: function(self, r)
        raise ValueError("Rbf: function must take 1 or 2 arguments (r, or self and r)")

    def _distances(self, a, b):
        if self.norm == "euclidean":
            return _euclidean(a, b)
        from .spatial.distance import cdist
        return cdist(a.T, b.T, self.norm)

    @property
    def A(self) -> Array:  # noqa: N802 (SciPy's name)
        """The interpolation matrix ``phi(r_ij) - smooth I``."""
        r = self._distances(self.xi, self.xi)
        a0 = self._function(r)
        if tuple(a0.shape) != tuple(r.shape):
            raise ValueError("Rbf: the function must take an array and return one of the "
                             "same shape")
        return a0 - np.eye(self.N) * self.smooth

    def __call__(self, *args: Any) -> Array:
        """The interpolant at the points given as one array per coordinate (of one
        shape): that shape (``+ (m,)`` in ``"N-D"`` mode)."""
        coords = [asarray(a) for a in args]
        if not all(tuple(x.shape) == tuple(coords[0].shape) for x in coords):
            raise ValueError("Rbf: array lengths must be equal (one shape for every "
                             "coordinate)")
        shape = tuple(coords[0].shape) + ((self._target_dim,) if self._target_dim > 1 else ())
        xa = fnp.stack([fnp.ravel(fnp.astype(a, np.float64)) for a in coords])
        r = self._distances(xa, self.xi)
        return fnp.reshape(fnp.dot(self._function(r), self.nodes), shape)

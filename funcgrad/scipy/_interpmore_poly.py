"""Polynomial interpolation through points (``scipy.interpolate``'s
``BarycentricInterpolator``, ``KroghInterpolator``, ``lagrange``,
``approximate_taylor_polynomial``, ``pade`` and the functions beside them).

Every coefficient is arithmetic on the nodes and values (products, divided differences,
one dense solve for ``pade``), so the interpolants differentiate in the nodes ``xi``, the
values ``yi`` and the query points.  The barycentric formula divides by ``x - xi``;
at a query equal to a node it switches to the product form of the same polynomial, so
the derivative in the query is the polynomial's there too, never a dropped one.
"""
import math
import operator
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._sigrest_random_state import rng_or_random_state

__all__ = ["BarycentricInterpolator", "barycentric_interpolate", "KroghInterpolator",
           "krogh_interpolate", "lagrange", "approximate_taylor_polynomial", "pade",
           "Poly1d"]


class Poly1d:
    """A polynomial by its coefficients, highest power first: what :func:`lagrange`,
    :func:`pade` and :func:`approximate_taylor_polynomial` return where SciPy returns a
    ``numpy.poly1d`` (funcgrad's coefficients may carry derivatives, which a NumPy
    ``poly1d`` cannot hold).  ``coeffs`` (alias ``c``), ``order`` and calling it, as
    ``poly1d``'s; ``numpy.poly1d(p.coeffs)`` makes a NumPy one from known values.

    >>> import numpy as np
    >>> from funcgrad.scipy.interpolate import lagrange
    >>> p = lagrange(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 4.0]))
    >>> p.coeffs, p.order, p(3.0)
    (array([1., 0., 0.]), 2, np.float64(9.0))
    """

    def __init__(self, coeffs: ArrayLike) -> None:
        self.coeffs = asarray(coeffs)

    @property
    def c(self) -> Array:
        """The coefficients, highest power first (``poly1d.c``)."""
        return self.coeffs

    @property
    def order(self) -> int:
        """The degree: the number of coefficients less one."""
        return int(self.coeffs.shape[0]) - 1

    def __call__(self, x: ArrayLike) -> Array:
        """The polynomial at ``x`` (Horner's rule)."""
        x = asarray(x)
        out: Any = fnp.zeros_like(x * self.coeffs[:1][0])
        for i in range(self.coeffs.shape[0]):
            out = out * x + self.coeffs[i]
        return out

    def __repr__(self) -> str:
        return f"Poly1d({self.coeffs!r})"


def _nodes_and_values(name, xi, yi, axis):
    xi = asarray(xi)
    if xi.dtype.kind in "biu":
        xi = fnp.astype(xi, np.float64)
    if xi.dtype.kind == "c":
        raise ValueError(f"{name}: the nodes xi must be real")
    xi = fnp.reshape(xi, (-1,))
    yi = asarray(yi)
    if yi.dtype.kind in "biu":
        yi = fnp.astype(yi, np.float64)
    if yi.ndim == 0:
        raise ValueError(f"{name}: yi must have at least one dimension")
    axis = int(axis) % yi.ndim
    if yi.shape[axis] != xi.shape[0]:
        raise ValueError(f"{name}: xi and yi need to have the same length: {xi.shape[0]} "
                         f"nodes but yi has {yi.shape[axis]} along axis {axis}")
    dtype = np.result_type(xi.dtype, yi.dtype, np.float32)
    yi = fnp.astype(fnp.moveaxis(yi, axis, 0), dtype)
    real = np.empty(0, dtype).real.dtype
    return fnp.astype(xi, real), yi, axis


def _query(x, real):
    x = asarray(x)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, real)
    return x


def _place(out, shape, axis, trailing):
    """``(q, *trailing)`` values as ``x.shape`` inserted at ``axis`` (SciPy's layout)."""
    out = fnp.reshape(out, tuple(shape) + tuple(trailing))
    if axis:
        order = list(range(out.ndim))
        m = len(shape)
        out = fnp.transpose(out, order[m:m + axis] + order[:m] + order[m + axis:])
    return out


class _Nodes:
    """What an interpolator through nodes ``xi`` with values ``yi`` reports of them."""

    xi: Any
    yi: Any

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the values (and so of the results)."""
        return np.dtype(self.yi.dtype)

    @property
    def n(self) -> int:
        """The number of nodes."""
        return int(self.xi.shape[0])

    @property
    def r(self) -> int:
        """The number of values at each node (the product of ``yi``'s other axes)."""
        return int(np.prod(self.yi.shape[1:], dtype=np.int64))


class BarycentricInterpolator(_Nodes):
    """The polynomial through ``(xi, yi)`` in barycentric form
    (``scipy.interpolate.BarycentricInterpolator``): ``p(x) = sum_i w_i y_i / (x - x_i)
    / sum_i w_i / (x - x_i)`` with ``w_i = 1 / prod_{j != i} C (x_i - x_j)`` and ``C`` 4
    over the nodes' range (SciPy's scale), or the weights ``wi`` given.  ``yi`` may
    have more axes (``axis`` is the nodes'); ``rng`` and its legacy twin
    ``random_state`` are accepted for SciPy's signature (the weights here do not depend
    on an order).  Differentiable in ``xi``, ``yi``,
    ``wi`` and the query points.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> p = fi.BarycentricInterpolator(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 7.0]))
    >>> p(np.array([0.5, 3.0]))  # 1 + x + x**2
    array([ 1.75, 13.  ])
    >>> fg.grad(p)(1.0)  # (at a node: the polynomial's slope, 1 + 2 x)
    np.float64(3.0)
    """

    def __init__(self, xi: ArrayLike, yi: Optional[ArrayLike] = None, axis: int = 0, *,
                 wi: Optional[ArrayLike] = None, rng: Any = None,
                 random_state: Any = None) -> None:
        rng_or_random_state(rng, random_state, "BarycentricInterpolator")  # (checked only)
        xi = asarray(xi)
        if yi is None:
            raise NotImplementedError("BarycentricInterpolator: yi=None (values set later "
                                      "by set_yi) is not implemented; pass yi")
        self.xi, self.yi, self.axis = _nodes_and_values("BarycentricInterpolator", xi, yi,
                                                        axis)
        n = self.xi.shape[0]
        if is_concrete(self.xi):
            nodes = concrete_values(self.xi, "", "")
            if np.unique(nodes).size != nodes.size:
                raise ValueError("BarycentricInterpolator: Interpolation points xi must be "
                                 "distinct.")
        if wi is not None:
            self.wi = fnp.astype(fnp.reshape(asarray(wi), (-1,)), self.xi.dtype)
            if self.wi.shape[0] != n:
                raise ValueError(f"BarycentricInterpolator: wi has {self.wi.shape[0]} "
                                 f"weights for {n} nodes")
            return
        # (SciPy's scale, kept: nodes added later are weighed with it, as SciPy's)
        self._capacity = 4.0 / (fnp.max(self.xi) - fnp.min(self.xi)) if n > 1 else 1.0
        self.wi = _weights(self.xi, self._capacity)

    def set_yi(self, yi: ArrayLike, axis: Optional[int] = None) -> None:
        """Replace the values at the nodes (the weights depend on the nodes only), as
        SciPy's ``set_yi``; ``axis`` (default: the current one) is ``yi``'s node axis.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.BarycentricInterpolator(np.array([0.0, 1.0]), np.array([0.0, 1.0]))
        >>> p.set_yi(np.array([2.0, 4.0]))
        >>> p(0.5)
        array(3.)
        """
        if yi is None:
            raise NotImplementedError("BarycentricInterpolator.set_yi(None) (values to be "
                                      "given later) is not implemented; pass the values")
        axis = self.axis if axis is None else axis
        _, self.yi, self.axis = _nodes_and_values("BarycentricInterpolator.set_yi", self.xi,
                                                  yi, axis)

    def add_xi(self, xi: ArrayLike, yi: Optional[ArrayLike] = None) -> None:
        """Add nodes ``xi`` with their values ``yi`` (``yi``'s node axis is the
        interpolator's), as SciPy's ``add_xi``: the weights are recomputed with the
        first nodes' scale, as SciPy updates them.  Differentiable in the new nodes and
        values too.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.BarycentricInterpolator(np.array([0.0, 1.0]), np.array([0.0, 1.0]))
        >>> p.add_xi(np.array([2.0]), np.array([4.0]))  # now x**2
        >>> p(np.array([1.5, 3.0]))
        array([2.25, 9.  ])
        """
        if yi is None:
            raise ValueError("No update to yi provided!")
        if not hasattr(self, "_capacity"):
            raise ValueError("BarycentricInterpolator.add_xi: the weights wi were given, "
                             "so there is no rule for the new nodes' weights; build a new "
                             "interpolator with all the nodes")
        new_x, new_y, _ = _nodes_and_values("BarycentricInterpolator.add_xi", xi, yi,
                                            self.axis)
        if tuple(new_y.shape[1:]) != tuple(self.yi.shape[1:]):
            raise ValueError(f"BarycentricInterpolator.add_xi: yi's other axes "
                             f"{tuple(new_y.shape[1:])} differ from the interpolator's "
                             f"{tuple(self.yi.shape[1:])}")
        dtype = np.result_type(self.yi.dtype, new_y.dtype)
        self.xi = fnp.concatenate([self.xi, fnp.astype(new_x, self.xi.dtype)])
        self.yi = fnp.concatenate([fnp.astype(self.yi, dtype), fnp.astype(new_y, dtype)])
        nodes = concrete_values(self.xi, "", "") if is_concrete(self.xi) else None
        if nodes is not None and np.unique(nodes).size != nodes.size:
            raise ValueError("BarycentricInterpolator: Interpolation points xi must be "
                             "distinct.")
        self.wi = _weights(self.xi, self._capacity)

    def _krogh(self):
        """The same polynomial in Newton form, whose derivatives are exact products."""
        return KroghInterpolator(self.xi, fnp.moveaxis(self.yi, 0, self.axis), self.axis)

    def derivatives(self, x: ArrayLike, der: Optional[int] = None) -> Array:
        """The value and the first ``der - 1`` derivatives at ``x`` (``n`` of them by
        default), stacked on a new first axis, as SciPy's ``derivatives``; computed from
        the same polynomial's Newton form (so the nodes must be known: not under
        ``jit``), differentiable in the nodes, the values and ``x``.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.BarycentricInterpolator(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 7.0]))
        >>> p.derivatives(1.0)  # 1 + x + x**2
        array([3., 3., 2.])
        """
        return self._krogh().derivatives(x, der)

    def derivative(self, x: ArrayLike, der: int = 1) -> Array:
        """The ``der``-th derivative at ``x`` (see :meth:`derivatives`).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.BarycentricInterpolator(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 7.0]))
        >>> p.derivative(np.array([0.0, 2.0]))  # 1 + 2 x
        array([1., 5.])
        """
        return self._krogh().derivative(x, der)

    def __call__(self, x: ArrayLike) -> Array:
        """The polynomial at ``x``: shape ``x.shape`` inserted at ``axis`` in ``yi``'s
        other axes."""
        x = _query(x, self.xi.dtype)
        shape = tuple(x.shape)
        flat = fnp.astype(fnp.reshape(x, (-1,)), self.xi.dtype)
        n = self.xi.shape[0]
        y = fnp.reshape(self.yi, (n, -1))
        diff = flat[:, None] - self.xi[None, :]
        at_node = diff == 0
        hit = fnp.any(at_node, axis=1, keepdims=True)
        safe = fnp.where(at_node, fnp.ones_like(diff), diff)
        ratio = fnp.where(hit, fnp.ones_like(diff), self.wi[None, :] / safe)
        value = fnp.matmul(fnp.astype(ratio, y.dtype), y) / fnp.astype(
            fnp.sum(ratio, axis=1, keepdims=True), y.dtype)
        if n > 1:  # (a query at a node: the product form, smooth there)
            eye = np.eye(n, dtype=bool)[None]
            factors = fnp.where(eye, fnp.ones_like(diff[:, None, :]), diff[:, None, :])
            weights = fnp.prod(factors, axis=2) * self.wi[None, :]
            exact = fnp.matmul(fnp.astype(weights, y.dtype), y) / fnp.astype(
                fnp.sum(weights, axis=1, keepdims=True), y.dtype)
            value = fnp.where(hit, exact, value)
        return _place(value, shape, self.axis, self.yi.shape[1:])


def _weights(xi, capacity):
    """``w_i = 1 / prod_{j != i} capacity (x_i - x_j)``, SciPy's barycentric weights."""
    n = xi.shape[0]
    gaps = capacity * (xi[:, None] - xi[None, :])
    gaps = gaps + fnp.astype(fnp.asarray(np.eye(n)), gaps.dtype)  # (j == i: 1)
    return 1.0 / fnp.prod(gaps, axis=1)


def barycentric_interpolate(xi: ArrayLike, yi: ArrayLike, x: ArrayLike, axis: int = 0, *,
                            der: int = 0, rng: Any = None) -> Array:
    """``BarycentricInterpolator(xi, yi, axis=axis)(x)``
    (``scipy.interpolate.barycentric_interpolate``); ``der`` other than 0 raises
    ``NotImplementedError`` (differentiate with ``fg.grad``).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> fi.barycentric_interpolate(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 4.0]), 1.5)
    array(2.25)
    """
    if der:
        raise NotImplementedError("barycentric_interpolate: der > 0 is not implemented; "
                                  "differentiate the interpolant with fg.grad or fg.jvp")
    return BarycentricInterpolator(xi, yi, axis)(x)


class KroghInterpolator(_Nodes):
    """The polynomial through ``(xi, yi)`` in Newton form
    (``scipy.interpolate.KroghInterpolator``); a node repeated ``s + 1`` times takes the
    value and then the first ``s`` derivatives there from the following ``yi`` (Hermite
    interpolation).  The nodes' pattern of repeats is read from their values (a traced
    ``xi`` under ``jit`` raises).  Differentiable in ``xi``, ``yi`` and the query.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> p = fi.KroghInterpolator(np.array([0.0, 0.0, 1.0]), np.array([1.0, 2.0, 4.0]))
    >>> p(np.array([0.5]))  # 1 + 2 x + x**2: p(0) = 1, p'(0) = 2, p(1) = 4
    array([2.25])
    >>> p.derivatives(0.5)
    array([2.25, 3.  , 2.  ])
    """

    def __init__(self, xi: ArrayLike, yi: ArrayLike, axis: int = 0) -> None:
        self.xi, self.yi, self.axis = _nodes_and_values("KroghInterpolator", xi, yi, axis)
        nodes = np.asarray(concrete_values(self.xi, "KroghInterpolator's nodes (their "
                                           "repeats fix the form)", "Build it outside "
                                           "jit, or pass xi as a constant."))
        n = self.xi.shape[0]
        y = fnp.reshape(self.yi, (n, -1))
        coeffs = [y[0]]
        column: list = [None] * n
        for k in range(1, n):
            s = 0
            while s <= k and nodes[k - s] == nodes[k]:
                s += 1
            s -= 1
            column[0] = y[k] / math.factorial(s)
            for i in range(k - s):
                if nodes[i] == nodes[k]:
                    raise ValueError("KroghInterpolator: Elements of `xi` can't be equal "
                                     "unless they are consecutive.")
                gap = fnp.astype(self.xi[i] - self.xi[k], y.dtype)
                if s == 0:
                    column[i + 1] = (coeffs[i] - column[i]) / gap
                else:
                    column[i + 1] = (column[i + 1] - column[i]) / gap
            coeffs.append(column[k - s])
        self.c = fnp.stack(coeffs)
        self._trailing = tuple(self.yi.shape[1:])

    def _flat(self, x):
        x = _query(x, self.xi.dtype)
        return tuple(x.shape), fnp.astype(fnp.reshape(x, (-1,)), self.xi.dtype)

    def __call__(self, x: ArrayLike) -> Array:
        """The polynomial at ``x``: shape ``x.shape`` inserted at ``axis``."""
        shape, flat = self._flat(x)
        n = self.c.shape[0]
        value = self.c[n - 1][None, :] * fnp.ones((flat.shape[0], 1), self.c.dtype)
        for k in range(n - 2, -1, -1):  # (nested multiplication of the Newton form)
            step = fnp.astype(flat - self.xi[k], self.c.dtype)[:, None]
            value = value * step + self.c[k][None, :]
        return _place(value, shape, self.axis, self._trailing)

    def derivatives(self, x: ArrayLike, der: Optional[int] = None) -> Array:
        """The value and the first ``der - 1`` derivatives at ``x`` (all ``n`` by
        default; those above the degree are 0), stacked on a new first axis."""
        shape, flat = self._flat(x)
        n = self.c.shape[0]
        der = n if der is None else operator.index(der)
        dtype = self.c.dtype
        one = fnp.ones((flat.shape[0],), dtype)
        steps = [fnp.astype(flat - self.xi[k], dtype) for k in range(n - 1)]
        steps.append(fnp.zeros_like(one))  # (SciPy's last factor: never reached but read)
        products = [one]  # (the Newton basis prod_{i<k} (x - x_i))
        for k in range(1, n):
            products.append(steps[k - 1] * products[k - 1])
        value = sum(products[k][:, None] * self.c[k][None, :] for k in range(n))
        rows: list = [value] + [self.c[k][None, :] * fnp.ones((flat.shape[0], 1), dtype)
                               for k in range(1, n)]
        padded = fnp.concatenate([self.c, fnp.zeros_like(self.c[:1])])  # (c[n] = 0)
        # (the Taylor coefficients at x by the synthetic division of the Newton form)
        for k in range(1, n):
            for i in range(1, n - k + 1):
                products[i] = steps[k + i - 1] * products[i - 1] + products[i]
                rows[k] = rows[k] + products[i][:, None] * padded[k + i][None, :]
            rows[k] = rows[k] * math.factorial(k)
        zero = fnp.zeros_like(value)
        rows = (rows + [zero] * der)[:der]
        return fnp.stack([_place(r, shape, self.axis, self._trailing) for r in rows])

    def derivative(self, x: ArrayLike, der: int = 1) -> Array:
        """The ``der``-th derivative at ``x``."""
        return self.derivatives(x, der + 1)[der, ...]  # (0-d: an array, as SciPy's)


def krogh_interpolate(xi: ArrayLike, yi: ArrayLike, x: ArrayLike, der: Any = 0,
                      axis: int = 0) -> Array:
    """The Krogh interpolant's value at ``x`` (``der=0``), its ``der``-th derivative, or
    those of the orders in the list ``der`` stacked (``scipy.interpolate.krogh_interpolate``).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> fi.krogh_interpolate(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 4.0]), 3.0, der=1)
    array(6.)
    """
    p = KroghInterpolator(xi, yi, axis=axis)
    if np.ndim(der) == 0:
        return p(x) if der == 0 else p.derivative(x, der=operator.index(der))
    orders = np.asarray(der, dtype=np.int64)
    return p.derivatives(x, der=int(orders.max()) + 1)[orders]


def _polymul(a, b):
    """The coefficients (highest first) of the product of two polynomials."""
    n, m = a.shape[0], b.shape[0]
    out = fnp.zeros((n + m - 1,), np.result_type(a.dtype, b.dtype))
    for i in range(n):
        out = out + fnp.pad(a[i] * b, (i, n - 1 - i))
    return out


def lagrange(x: ArrayLike, w: ArrayLike) -> Poly1d:
    """The Lagrange interpolating polynomial through ``(x, w)``
    (``scipy.interpolate.lagrange``), as a :class:`Poly1d` whose ``coeffs`` are SciPy's
    ``poly1d`` coefficients (highest power first).  Ill-conditioned beyond ~20 points,
    as SciPy's.  Differentiable in ``x`` and ``w``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> fi.lagrange(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 7.0])).coeffs
    array([1., 1., 1.])
    """
    x, w = asarray(x), asarray(w)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    if w.dtype.kind in "biu":
        w = fnp.astype(w, np.float64)
    if x.ndim != 1 or w.shape != x.shape:
        raise ValueError(f"lagrange: x and w must be 1-d of one length, got shapes "
                         f"{tuple(x.shape)} and {tuple(w.shape)}")
    n = x.shape[0]
    total: Any = fnp.zeros((max(n, 1),), np.result_type(x.dtype, w.dtype))
    for j in range(n):
        term = fnp.reshape(w[j], (1,))
        for m in range(n):
            if m != j:
                gap = x[j] - x[m]
                term = _polymul(term, fnp.stack([1.0 / gap, -x[m] / gap]))
        total = total + term
    return Poly1d(total)


def approximate_taylor_polynomial(f: Any, x: ArrayLike, degree: int, scale: ArrayLike,
                                  order: Optional[int] = None) -> Poly1d:
    """The Taylor polynomial of ``f`` at ``x`` of ``degree``, estimated from
    ``order + 1`` (default ``degree + 1``) Chebyshev points within ``scale`` of ``x``
    (``scipy.interpolate.approximate_taylor_polynomial``), as a :class:`Poly1d` in
    powers of ``(t - x)``.  Differentiable in ``x``, ``scale`` and what ``f`` closes over.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> p = fi.approximate_taylor_polynomial(np.exp, 0.0, 2, 1.0, order=14)
    >>> np.round(p.coeffs, 8)
    array([0.5, 1. , 1. ])
    """
    degree = operator.index(degree)
    order = degree if order is None else operator.index(order)
    n = order + 1
    x, scale = asarray(x), asarray(scale)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    # (endpoint=n % 1, i.e. False, as SciPy's)
    points = scale * np.cos(np.linspace(0, np.pi, n, endpoint=False)) + x
    p = KroghInterpolator(points, f(points))
    d = p.derivatives(x, der=degree + 1)
    factorials = np.array([math.factorial(i) for i in range(degree + 1)], np.float64)
    return Poly1d(fnp.flip(d / fnp.astype(fnp.asarray(factorials), d.dtype)))


def pade(an: ArrayLike, m: int, n: Optional[int] = None) -> Any:
    """The Padé approximant ``p/q`` with ``q`` of degree ``m`` and ``p`` of degree ``n``
    (default ``len(an) - 1 - m``) to the Taylor coefficients ``an`` (lowest first)
    (``scipy.interpolate.pade``): ``(p, q)`` as :class:`Poly1d`, ``q(0) = 1``.
    Differentiable in ``an``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> p, q = fi.pade(np.array([1.0, 1.0, 0.5, 1.0 / 6]), 1)  # exp(x) ~ p / q
    >>> round(float(p(0.1) / q(0.1)), 6)  # (exp(0.1) = 1.1051709...)
    1.105172
    """
    an = asarray(an)
    if an.dtype.kind in "biu":
        an = fnp.astype(an, np.float64)
    an = fnp.reshape(an, (-1,))
    m = operator.index(m)
    if n is None:
        n = an.shape[0] - 1 - m
        if n < 0:
            raise ValueError("pade: Order of q <m> must be smaller than len(an)-1.")
    n = operator.index(n)
    if n < 0:
        raise ValueError("pade: Order of p <n> must be greater than 0.")
    total = m + n
    if total > an.shape[0] - 1:
        raise ValueError("pade: Order of q+p <m+n> must be smaller than len(an).")
    an = an[:total + 1]
    columns = [fnp.astype(fnp.asarray(np.eye(total + 1, n + 1)), an.dtype)]
    for row in range(1, m + 1):  # (the column of q_row: -an shifted down by row)
        columns.append(-fnp.reshape(fnp.pad(an[:total + 1 - row], (row, 0)), (-1, 1)))
    system = fnp.concatenate(columns, axis=1)
    pq = fnp.linalg.solve(system, an)
    p = pq[:n + 1]
    q = fnp.concatenate([fnp.ones((1,), pq.dtype), pq[n + 1:]])
    return Poly1d(fnp.flip(p)), Poly1d(fnp.flip(q))

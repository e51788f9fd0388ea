"""A cubic spline's B-spline coefficients from its power-basis pieces
(``scipy.interpolate.BSpline.from_power_basis``).

The knots are the breakpoints with SciPy's end conditions ('not-a-knot', 'natural' /
'clamped', 'periodic').  Each coefficient is the de Boor–Fix dual functional applied to
the piece it is read on: ``c_j = sum_m (k - m)! / k! * a_m (-1)^(k - m) D^m psi_j(x_i)``
with ``psi_j(y) = prod_r (y - t[j + r])``, ``r = 1..k`` (Lyche and Mørken, *Spline
Methods*, 3.1.2).  Every term is a product of the piece's coefficients and knot
differences, so the result differentiates in the coefficients and the breakpoints.
"""
from itertools import combinations
from math import factorial
from typing import Any

from .. import numpy as fnp

__all__ = ["cubic_power_to_bspline"]


def _knots(x, k, bc_type):
    n = x.shape[0]
    first, last = x[:1], x[n - 1:]
    if bc_type == "not-a-knot":  # (k odd: the sites but the (k + 1) // 2 at each end)
        half = (k + 1) // 2
        return fnp.concatenate([first] * (k + 1) + [x[half:n - half]] + [last] * (k + 1))
    if bc_type in ("natural", "clamped"):
        return fnp.concatenate([first] * k + [x] + [last] * k)
    if bc_type == "periodic":  # (the steps repeated around the circle at both ends)
        dx = fnp.diff(x)
        left, right = [x[:1]], [last]
        for i in range(k):
            left.insert(0, left[0] - dx[n - 2 - i % (n - 1):n - 1 - i % (n - 1)])
            right.append(right[-1] + dx[i % (n - 1):i % (n - 1) + 1])
        return fnp.concatenate(left[:-1] + [x] + right[1:])
    raise TypeError(f"Unknown boundary condition: {bc_type}")


def _dual_derivative(j, k, y, d, t):
    """The ``d``-th derivative at ``y`` of ``prod_{r=1..k} (y - t[j + r])``."""
    if d == k:
        return float(factorial(k))
    out: Any = 0.0
    for removed in combinations(range(j + 1, j + k + 1), d):
        term: Any = float(factorial(d))
        for p in range(j + 1, j + k + 1):
            if p not in removed:
                term = term * (y - t[p])
        out = out + term
    return out


def cubic_power_to_bspline(x: Any, coef: Any, bc_type: str) -> Any:
    """``(t, c)`` of the cubic whose power-basis pieces ``coef`` (``(4, n - 1, ...)``)
    sit on the breakpoints ``x``, with SciPy's knots for ``bc_type``."""
    k = coef.shape[0] - 1
    n = x.shape[0]
    t = _knots(x, k, bc_type)
    extra = t.shape[0] - (n + k + 1)  # (SciPy's "number of derivatives at the ends")
    rows = []
    for j in range(n + extra):
        i = j if j < n - 2 else n - 2  # (the last coefficients are read on piece n - 2)
        total: Any = None
        for m in range(k + 1):
            weight = factorial(k - m) / factorial(k) * (-1) ** (k - m)
            term = coef[m, i] * (weight * _dual_derivative(j, k, x[i], m, t))
            total = term if total is None else total + term
        rows.append(total)
    return t, fnp.stack(rows)

"""The real solutions of ``p(x) = y`` for a piecewise polynomial in the power basis
(``scipy.interpolate.PPoly.solve`` and ``roots``): SciPy's roots, differentiated
implicitly in the coefficients, the breakpoints and ``y``.

SciPy finds the roots on the concrete values (their number depends on the values, so
there is nothing to find under ``jit`` or ``vmap``: a clear error says so).  A root ``r``
found on the piece ``i`` satisfies ``F(r) = p_i(r - x[i]) - y = 0``, so ``dr = -(dF/dc dc
+ dF/dx dx - dy) / p_i'(r - x[i])`` (``lax.custom_root``: exact to every order).  With
``discontinuity=True`` SciPy also reports a breakpoint where the polynomial jumps across
``y``; that root *is* the breakpoint (``F(r) = r - x[j]``), and moves with it.

A double root, or any root where ``p'`` (nearly) vanishes, has no derivative: the root
splits or disappears as the coefficients move.  So does a piece on which ``p = y``
identically (SciPy reports its left end and a NaN).  Differentiating through such roots
raises, naming them; their values are returned as SciPy's.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..lax import custom_root, stop_gradient
from ..numpy._convert import concrete_values

__all__ = ["piecewise_solve"]

# |p'(r)| below this fraction of the sum of the magnitudes of p''s terms at r: a double
# root (computed double roots of SciPy's show p' ~ 1e-8 of that; a simple root that close
# to double has a derivative amplified beyond ~1e6, which is not worth returning)
_DOUBLE = 1e-6

_FIX = ("Call roots/solve outside jit and vmap (grad, jvp and vjp are fine: the values "
        "are known there)")


def _polyvals(coeffs, t):
    """``sum_m coeffs[m] t ** (k - m)`` (Horner), and the sum of ``|terms|`` of its
    derivative, for ``coeffs`` ``(k + 1, R)`` and ``t`` ``(R,)`` (plain NumPy)."""
    k = coeffs.shape[0] - 1
    value = np.zeros_like(t)
    slope = np.zeros_like(t)
    size = np.zeros_like(t)
    for m in range(k + 1):
        value = value * t + coeffs[m]
        power = k - m
        if power >= 1:
            slope = slope + power * coeffs[m] * t ** (power - 1)
            size = size + np.abs(power * coeffs[m] * t ** (power - 1))
    return value, slope, size


def _classify(cv, xv, yv, roots, col):
    """For the roots of column ``col``: the piece each solves ``p = y`` on (``-1`` for a
    breakpoint where ``p`` jumps across ``y``, and for NaN), that breakpoint's index, and
    whether the root is simple (has a derivative)."""
    m = xv.shape[0] - 1
    count = roots.shape[0]
    piece = np.full(count, -1, np.int64)
    jump_at = np.zeros(count, np.int64)
    simple = np.zeros(count, bool)
    right = np.clip(np.searchsorted(xv[1:-1], roots, side="right"), 0, m - 1)

    def residual_slope_size(i, r):
        value, slope, size = _polyvals(cv[:, i, col:col + 1], np.array([r - xv[i]]))
        return value[0] - yv, slope[0], size[0]

    for j in np.nonzero(np.isfinite(roots))[0]:
        r, i = roots[j], right[j]
        here = residual_slope_size(i, r)
        if i > 0 and r == xv[i]:  # (a breakpoint: the piece on its left ends here too)
            left = residual_slope_size(i - 1, r)
            if left[0] * here[0] < 0:  # (SciPy's discontinuity root: p jumps across y)
                jump_at[j], simple[j] = i, True
                continue
            if abs(left[0]) < abs(here[0]):
                i, here = i - 1, left
        piece[j] = i
        simple[j] = abs(here[1]) > _DOUBLE * here[2]
    return piece, jump_at, simple


def piecewise_solve(name: str, c: Any, x: Any, y: Any, discontinuity: bool,
                    extrapolate: Any) -> Any:
    """The real ``r`` with ``p(r) = y`` for ``p`` of coefficients ``c`` (``(k + 1, m,
    ...)``) on the breakpoints ``x``: a 1-d array when ``c`` is 2-d, else an object array
    of them of shape ``c.shape[2:]``, as SciPy's ``PPoly.solve``."""
    import scipy.interpolate as si

    if np.dtype(c.dtype).kind == "c":
        raise ValueError(f"{name}: root finding is only for real-valued polynomials; solve "
                         f"the real and imaginary parts separately")
    cv = concrete_values(stop_gradient(c), f"{name} (the number of roots)", _FIX)
    xv = concrete_values(stop_gradient(x), f"{name} (the number of roots)", _FIX)
    yv = float(concrete_values(stop_gradient(fnp.asarray(y)), f"{name}", _FIX))
    trailing = tuple(cv.shape[2:])
    flat_c = cv.reshape(cv.shape[0], cv.shape[1], -1)
    scipy_roots = si.PPoly.construct_fast(flat_c, xv).solve(
        yv, discontinuity=bool(discontinuity), extrapolate=bool(extrapolate))
    if flat_c.shape[2] == 1 and not isinstance(scipy_roots[0], np.ndarray):
        per_column = [np.asarray(scipy_roots, dtype=float)]
    else:
        per_column = [np.asarray(r, dtype=float) for r in scipy_roots]
    traced = any(isinstance(v, Tracer) for v in (c, x, y))
    if traced and sum(r.shape[0] for r in per_column):
        per_column = _differentiable(name, c, x, y, cv, xv, yv, per_column)
    if not trailing:
        return per_column[0]
    out = np.empty(len(per_column), dtype=object)
    for i, r in enumerate(per_column):
        out[i] = r
    return out.reshape(trailing)


def _differentiable(name, c, x, y, cv, xv, yv, per_column):
    """The roots of every column as one ``custom_root``: each root's equation is its own
    (the Jacobian is diagonal), so the tangent solve is a division by the slopes."""
    flat_c = cv.reshape(cv.shape[0], cv.shape[1], -1)
    pieces, jumps, simple, cols = [], [], [], []
    for col, roots in enumerate(per_column):
        piece, jump_at, ok = _classify(flat_c, xv, yv, roots, col)
        pieces.append(piece)
        jumps.append(jump_at)
        simple.append(ok)
        cols.append(np.full(roots.shape[0], col, np.int64))
    piece, jump_at = np.concatenate(pieces), np.concatenate(jumps)
    simple, col = np.concatenate(simple), np.concatenate(cols)
    roots = np.concatenate(per_column)
    on_piece = piece >= 0
    safe_piece = np.where(on_piece, piece, 0)
    c_cols = fnp.reshape(c, (cv.shape[0], cv.shape[1], -1))
    local = c_cols[:, safe_piece, col]  # (k + 1, R): each root's own polynomial

    def equations(r):
        t = r - fnp.take(x, safe_piece)
        value: Any = None
        for m in range(local.shape[0]):
            value = local[m] if value is None else value * t + local[m]
        return fnp.where(on_piece, value - y, r - fnp.take(x, jump_at))

    def tangent_solve(linear, rhs):
        if not np.all(simple):
            bad = roots[~simple]
            raise ValueError(
                f"{name}: the root(s) {bad[:5].tolist()} are not simple (a double root, "
                f"p' = 0 there, or a piece on which p equals y throughout): they have no "
                f"derivative in the coefficients. Differentiate only functions of simple "
                f"roots, or apply fg.stop_gradient to the coefficients")
        return rhs / linear(fnp.ones_like(rhs))

    solved = custom_root(equations, roots, lambda f, guess: guess, tangent_solve)
    out, start = [], 0
    for r in per_column:
        out.append(solved[start:start + r.shape[0]])
        start += r.shape[0]
    return out

"""Carlson's symmetric elliptic integrals of :mod:`funcgrad.scipy.special` (re-exported
there): ``elliprf``, ``elliprd``, ``elliprj``, ``elliprc``, ``elliprg``, Legendre's
incomplete integrals ``ellipkinc``, ``ellipeinc`` through them, and the
arithmetic-geometric mean ``agm`` (``K(m) = pi / (2 agm(1, sqrt(1 - m)))``).

Each is Carlson's duplication algorithm (DLMF 19.36.1-2; Carlson, Numer. Algorithms 10,
1995) written with :mod:`funcgrad.numpy` operations: every step is smooth in the
arguments, so every transform works and the derivatives, of any order, are those of the
algorithm, which converge with its values (they agree with the closed forms, e.g.
``dR_F/dz = -R_D(x, y, z)/6``, to ~1e-13).  Real arguments (complex ones raise
``TypeError``: ``scipy.special.elliprf`` on values takes them).  With concrete values the
iteration stops when the arguments agree to ``_CLOSE`` (their Taylor series then has
error below 1e-17); under ``vmap``/``jit`` it runs ``_STEPS`` times (one loop), enough
for every float64 argument (the spread falls fourfold a step once the arguments are
within a factor of each other, and their ratio is square-rooted a step until then).

The limits are SciPy's: ``inf`` where the integral diverges (two zero arguments of
``R_F``, a zero ``z`` of ``R_D`` or ``p`` of ``R_J``), 0 where an argument is ``inf``,
NaN for negative ``x``, ``y``, ``z``; ``R_J``'s negative ``p`` is the Cauchy principal
value (DLMF 19.20.14); ``R_C``'s negative ``y`` too (DLMF 19.2.20).  At a zero argument
the derivative in that argument is infinite (``dR_F/dx ~ -1/sqrt(x)``): ``-inf`` or NaN
there, as ``sqrt``'s at 0; the others are finite.
"""
import math
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..custom import custom_jvp
from ..numpy._convert import concrete_values, is_concrete, operand as _operand
from ..primitives.structural import stop_gradient as _stop_gradient
from ..typing import Array, ArrayLike
from ._special_inverse import ellipe, ellipk

__all__ = ["elliprf", "elliprd", "elliprj", "elliprc", "elliprg", "ellipkinc", "ellipeinc",
           "agm"]

_CLOSE = 2e-3  # (|1 - x_n/A_n| below this: the series' first omitted term is ~1e-19)
_STEPS = 40
_AGM_STEPS = 12  # (a ratio of 1e616 is square-rooted to 1 + 1e-16 in about 11 steps)
_INF, _NAN = math.inf, math.nan


def _real(name: str, args: tuple) -> tuple:
    args = tuple(_operand(a) for a in args)
    for a in args:
        dtype = a.dtype if hasattr(a, "dtype") else np.result_type(a)
        if dtype.kind == "c":
            raise TypeError(f"{name}: complex arguments are not supported by funcgrad's "
                            f"{name} (real ones are); scipy.special.{name} takes them on "
                            f"values, without derivatives")
    return args


def _out_dtype(*args: Any) -> np.dtype:
    dtype = np.result_type(*[a.dtype if hasattr(a, "dtype") else a for a in args])
    return np.dtype(np.float32 if dtype == np.float32 else np.float64)


def _stopped(step: int, spread: Any, mean: Any) -> bool:
    """Whether the duplication of concrete values can stop at this step: every finite
    element's ``4**-step * spread`` is below ``_CLOSE * |A_step|``, or _STEPS are done."""
    if step >= _STEPS:
        return True
    a = np.abs(concrete_values(mean, "", ""))
    s = np.asarray(spread) * 0.25 ** step
    live = np.isfinite(a) & np.isfinite(s) & (a > 0)
    return bool(np.all(s[live] < _CLOSE * a[live]))


def _duplicate(step: Any, state: tuple, count: int) -> tuple:
    """``(state, n)`` after ``n`` duplication steps ``state = step(k, state)`` (``k`` the
    step's index; the mean ``A`` is ``state[0]``, the ``count`` arguments follow, then the
    sums the steps carry): with concrete values until :func:`_stopped` (the arguments'
    spread about the mean decides); else ``_STEPS`` of them as one loop (a scan: every
    transform goes through it, and ``jit`` compiles one step, where 40 written out took
    it 30 s for ``R_J``)."""
    mean, args = state[0], state[1:count + 1]
    if is_concrete(mean):
        a0 = concrete_values(mean, "", "")
        with np.errstate(invalid="ignore"):
            spread = np.max([np.abs(a0 - concrete_values(x, "", "")) for x in
                             np.broadcast_arrays(*args)], axis=0)
        n = 0
        while not _stopped(n, spread, state[0]):
            state, n = step(n, state), n + 1
        return state, n
    from ..lax import fori_loop
    state = tuple(fnp.broadcast_arrays(*state))  # (a loop's carry keeps its shapes)
    return fori_loop(0, _STEPS, step, state), _STEPS


def _lambda(sx: Any, sy: Any, sz: Any) -> Any:
    return sx * sy + sy * sz + sz * sx


def _rc_unit(e: Any) -> Any:
    """``R_C(1, 1 + e)`` for ``e > -1``: ``atan(sqrt e)/sqrt e``, ``atanh(sqrt -e)/sqrt -e``,
    its series ``sum (-e)**k / (2k + 1)`` for ``|e| < 1e-3`` (where both lose digits)."""
    small = fnp.less(fnp.abs(e), 1e-3)
    es = fnp.where(small, e, 0.0)
    series = 0.0
    for k in range(6, -1, -1):
        series = series * -es + 1.0 / (2 * k + 1)
    above = fnp.greater(e, 0.0)
    ep = fnp.sqrt(fnp.where(fnp.logical_and(above, ~small), e, 1.0))
    em = fnp.sqrt(fnp.where(fnp.logical_and(~above, ~small), -e, 0.5))
    return fnp.where(small, series, fnp.where(above, fnp.arctan(ep) / ep,
                                              fnp.arctanh(em) / em))


def _rf(x: Any, y: Any, z: Any) -> Any:
    def step(k: Any, state: tuple) -> tuple:
        mean, x, y, z = state
        lam = _lambda(fnp.sqrt(x), fnp.sqrt(y), fnp.sqrt(z))
        x, y, z = (x + lam) * 0.25, (y + lam) * 0.25, (z + lam) * 0.25
        return (mean + lam) * 0.25, x, y, z
    (mean, x, y, z), _ = _duplicate(step, ((x + y + z) / 3.0, x, y, z), 3)
    dx, dy = 1.0 - x / mean, 1.0 - y / mean
    dz = -(dx + dy)
    e2, e3 = dx * dy - dz * dz, dx * dy * dz
    series = (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0
              - 5.0 * e2 ** 3 / 208.0 + 3.0 * e3 * e3 / 104.0 + e2 * e2 * e3 / 16.0)
    return series / fnp.sqrt(mean)


def _third_kind_series(e2: Any, e3: Any, e4: Any, e5: Any) -> Any:
    return (1.0 - 3.0 * e2 / 14.0 + e3 / 6.0 + 9.0 * e2 * e2 / 88.0 - 3.0 * e4 / 22.0
            - 9.0 * e2 * e3 / 52.0 + 3.0 * e5 / 26.0)


def _rd(x: Any, y: Any, z: Any) -> Any:
    mean = (x + y + 3.0 * z) / 5.0

    def step(k: Any, state: tuple) -> tuple:
        mean, x, y, z, total = state
        sx, sy, sz = fnp.sqrt(x), fnp.sqrt(y), fnp.sqrt(z)
        lam = _lambda(sx, sy, sz)
        total = total + 0.25 ** k / (sz * (z + lam))
        x, y, z = (x + lam) * 0.25, (y + lam) * 0.25, (z + lam) * 0.25
        return (mean + lam) * 0.25, x, y, z, total
    (mean, x, y, z, total), n = _duplicate(step, (mean, x, y, z, 0.0), 3)
    scale = 0.25 ** n
    dx, dy = 1.0 - x / mean, 1.0 - y / mean
    dz = -(dx + dy) / 3.0
    xy, zz = dx * dy, dz * dz
    e2, e3 = xy - 6.0 * zz, (3.0 * xy - 8.0 * zz) * dz
    e4, e5 = 3.0 * (xy - zz) * zz, xy * zz * dz
    return scale * _third_kind_series(e2, e3, e4, e5) / (mean * fnp.sqrt(mean)) + 3.0 * total


def _rj_positive(x: Any, y: Any, z: Any, p: Any) -> Any:
    mean = (x + y + z + 2.0 * p) / 5.0
    delta = (p - x) * (p - y) * (p - z)

    def step(k: Any, state: tuple) -> tuple:
        mean, x, y, z, p, total = state
        scale = 0.25 ** k
        sx, sy, sz, sp = fnp.sqrt(x), fnp.sqrt(y), fnp.sqrt(z), fnp.sqrt(p)
        lam = _lambda(sx, sy, sz)
        d = (sp + sx) * (sp + sy) * (sp + sz)
        total = total + scale * _rc_unit(delta * scale ** 3 / (d * d)) / d
        x, y, z, p = (x + lam) * 0.25, (y + lam) * 0.25, (z + lam) * 0.25, (p + lam) * 0.25
        return (mean + lam) * 0.25, x, y, z, p, total
    (mean, x, y, z, p, total), n = _duplicate(step, (mean, x, y, z, p, 0.0), 4)
    scale = 0.25 ** n
    dx, dy, dz = 1.0 - x / mean, 1.0 - y / mean, 1.0 - z / mean
    dp = -(dx + dy + dz) * 0.5
    e2 = dx * dy + dx * dz + dy * dz - 3.0 * dp * dp
    xyz = dx * dy * dz
    e3 = xyz + 2.0 * e2 * dp + 4.0 * dp ** 3
    e4 = (2.0 * xyz + e2 * dp + 3.0 * dp ** 3) * dp
    e5 = xyz * dp * dp
    return scale * _third_kind_series(e2, e3, e4, e5) / (mean * fnp.sqrt(mean)) + 6.0 * total


def _rc(x: Any, y: Any) -> Any:
    """``R_C(x, y)`` for ``x >= 0``, ``y > 0``: ``acos(sqrt(x/y)) / sqrt(y - x)`` below
    ``y``, ``log((sqrt x + sqrt(x - y)) / sqrt y) / sqrt(x - y)`` above (no ratio to
    overflow), the series of ``R_C(1, 1 + e) / sqrt x`` where ``|e| = |y/x - 1|`` is
    small (both forms are 0/0 there)."""
    near = fnp.less(fnp.abs(y - x), 1e-3 * x)
    xs = fnp.where(near, x, 1.0)
    series = _rc_unit(fnp.where(near, (y - xs) / xs, 0.0)) / fnp.sqrt(xs)
    below = fnp.logical_and(fnp.less(x, y), fnp.logical_not(near))
    above = fnp.logical_and(fnp.greater(x, y), fnp.logical_not(near))
    xb, yb = fnp.where(below, x, 0.5), fnp.where(below, y, 1.0)
    xa, ya = fnp.where(above, x, 2.0), fnp.where(above, y, 1.0)
    low = fnp.arccos(fnp.sqrt(xb / yb)) / fnp.sqrt(yb - xb)
    high = fnp.log((fnp.sqrt(xa) + fnp.sqrt(xa - ya)) / fnp.sqrt(ya)) / fnp.sqrt(xa - ya)
    return fnp.where(near, series, fnp.where(below, low, high))


def _edges(args: tuple, infinite: Any, diverges: Any, diverges_first: Any = False) -> tuple:
    """``(regular, edge)``: the arguments the duplication takes, and SciPy's value at the
    others: NaN for a NaN or negative argument, ``inf`` where the integral diverges
    (``diverges_first``: also where an argument is ``inf``), else 0 where one is."""
    bad = fnp.logical_or(fnp.isnan(args[0]), fnp.less(args[0], 0.0))
    for a in args[1:]:
        bad = fnp.logical_or(bad, fnp.logical_or(fnp.isnan(a), fnp.less(a, 0.0)))
    regular = fnp.logical_not(fnp.logical_or(bad, fnp.logical_or(infinite, diverges)))
    return regular, fnp.where(bad, _NAN, fnp.where(diverges_first, _INF, fnp.where(
        infinite, 0.0, _INF)))


def _zeros(*args: Any) -> Any:
    count = fnp.equal(args[0], 0.0).astype(np.int8)
    for a in args[1:]:
        count = count + fnp.equal(a, 0.0).astype(np.int8)
    return count


def _any_inf(*args: Any) -> Any:
    out = fnp.isinf(args[0])
    for a in args[1:]:
        out = fnp.logical_or(out, fnp.isinf(a))
    return out


def _finish(value: Any, dtype: np.dtype) -> Array:
    return fnp.astype(value, dtype)


def elliprf(x: ArrayLike, y: ArrayLike, z: ArrayLike) -> Array:
    """Carlson's symmetric integral of the first kind, ``R_F(x, y, z) = 1/2 integral over
    t >= 0 of ((t + x)(t + y)(t + z))**-1/2`` (``scipy.special.elliprf``), for
    ``x, y, z >= 0`` with at most one zero.  Derivatives ``-R_D(y, z, x)/6``... (to any
    order, through the duplication).

    >>> import math, funcgrad as fg
    >>> round(float(elliprf(1.0, 2.0, 0.0)), 13)  # K(1/2) / sqrt(2)
    1.3110287771461
    >>> round(float(fg.grad(elliprf, 2)(1.0, 1.0, 1.0)), 15) == round(-1 / 6, 15)
    True
    """
    x, y, z = _real("elliprf", (x, y, z))
    dtype = _out_dtype(x, y, z)
    x, y, z = (fnp.astype(a, np.float64) for a in (x, y, z))
    regular, edge = _edges((x, y, z), _any_inf(x, y, z), fnp.greater(_zeros(x, y, z), 1))
    value = _rf(*(fnp.where(regular, a, 1.0) for a in (x, y, z)))
    return _finish(fnp.where(regular, value, edge), dtype)


def elliprd(x: ArrayLike, y: ArrayLike, z: ArrayLike) -> Array:
    """Carlson's ``R_D(x, y, z) = 3/2 integral of ((t + x)(t + y))**-1/2 (t + z)**-3/2``
    (``scipy.special.elliprd``; symmetric in ``x``, ``y`` only), for ``x, y >= 0`` (at most
    one zero) and ``z > 0``.

    >>> round(float(elliprd(1.0, 1.0, 1.0)), 15)  # R_D(x, x, x) = x**-3/2
    1.0
    """
    x, y, z = _real("elliprd", (x, y, z))
    dtype = _out_dtype(x, y, z)
    x, y, z = (fnp.astype(a, np.float64) for a in (x, y, z))
    diverges = fnp.logical_or(fnp.greater(_zeros(x, y), 1), fnp.equal(z, 0.0))
    regular, edge = _edges((x, y, z), _any_inf(x, y, z), diverges, fnp.equal(z, 0.0))
    value = _rd(*(fnp.where(regular, a, 1.0) for a in (x, y, z)))
    return _finish(fnp.where(regular, value, edge), dtype)


def elliprc(x: ArrayLike, y: ArrayLike) -> Array:
    """The degenerate ``R_C(x, y) = R_F(x, y, y)`` (``scipy.special.elliprc``), for
    ``x >= 0`` and ``y != 0`` (NaN at ``y = 0``, as SciPy's): ``acos(sqrt(x/y)) /
    sqrt(y - x)`` below ``y``, ``acosh(sqrt(x/y)) / sqrt(x - y)`` above (their series
    where ``x`` is near ``y``); for ``y < 0`` the Cauchy principal value
    ``sqrt(x/(x - y)) R_C(x - y, -y)`` (0 at ``x = inf``, where SciPy gives NaN).

    >>> import math
    >>> float(elliprc(0.0, 1.0)) == math.pi / 2, round(float(elliprc(1.0, 1.0)), 15)
    (True, 1.0)
    """
    x, y = _real("elliprc", (x, y))
    dtype = _out_dtype(x, y)
    x, y = fnp.astype(x, np.float64), fnp.astype(y, np.float64)
    below = fnp.less(y, 0.0)
    xs = fnp.where(below, x - y, x)
    ys = fnp.where(below, -y, y)
    # (y = 0: no limit, +inf from above and the principal value's -inf from below)
    regular, edge = _edges((x, fnp.abs(y)), _any_inf(x, y), fnp.equal(y, 0.0))
    edge = fnp.where(fnp.logical_and(fnp.equal(y, 0.0), fnp.logical_not(fnp.isnan(x))),
                     _NAN, edge)
    xs, ys = fnp.where(regular, xs, 1.0), fnp.where(regular, ys, 1.0)
    value = _rc(xs, ys)
    ratio = fnp.where(below, x, 1.0) / fnp.where(below, xs, 1.0)
    value = fnp.where(below, fnp.sqrt(ratio) * value, value)
    return _finish(fnp.where(regular, value, edge), dtype)


def elliprj(x: ArrayLike, y: ArrayLike, z: ArrayLike, p: ArrayLike) -> Array:
    """Carlson's symmetric integral of the third kind ``R_J(x, y, z, p) = 3/2 integral of
    ((t + x)(t + y)(t + z))**-1/2 / (t + p)`` (``scipy.special.elliprj``), for
    ``x, y, z >= 0`` (at most one zero) and ``p != 0``; a negative ``p`` gives the Cauchy
    principal value (DLMF 19.20.14).

    >>> round(float(elliprj(1.0, 1.0, 1.0, 1.0)), 15), round(float(elliprj(0.0, 1.0, 2.0, 1.0)), 12)
    (1.0, 1.797210352103)
    """
    x, y, z, p = _real("elliprj", (x, y, z, p))
    dtype = _out_dtype(x, y, z, p)
    x, y, z, p = (fnp.astype(a, np.float64) for a in (x, y, z, p))
    two = fnp.greater(_zeros(x, y, z), 1)
    regular, edge = _edges((x, y, z, fnp.abs(p)), _any_inf(x, y, z, p),
                           fnp.logical_or(two, fnp.equal(p, 0.0)), two)
    # (p = 0: no limit, +inf from above and the principal value's -inf from below; 0
    # where x, y or z is inf, as SciPy's)
    edge = fnp.where(fnp.logical_and(fnp.equal(p, 0.0), fnp.logical_not(fnp.isnan(edge))),
                     fnp.where(_any_inf(x, y, z), 0.0, _NAN), edge)
    x, y, z, p = (fnp.where(regular, a, 1.0) for a in (x, y, z, p))
    pv = fnp.less(p, 0.0)
    if not is_concrete(p) or np.any(concrete_values(p, "", "") < 0):
        # DLMF 19.20.14 with x <= y <= z sorted (y - p > 0, q > 0, -p q > 0):
        # (y - p) R_J(x, y, z, p) = (q - y) R_J(x, y, z, q) - 3 R_F(x, y, z)
        #                           + 3 sqrt(x y z / (x z - p q)) R_C(x z - p q, -p q)
        lo, hi = fnp.minimum(fnp.minimum(x, y), z), fnp.maximum(fnp.maximum(x, y), z)
        mid = fnp.maximum(fnp.minimum(x, y), fnp.minimum(fnp.maximum(x, y), z))
        ps = fnp.where(pv, p, -1.0)
        q = mid + (hi - mid) * (mid - lo) / (mid - ps)
        q = fnp.where(pv, q, 1.0)
        pq, xz = -ps * q, lo * hi
        principal = ((q - mid) * _rj_positive(lo, mid, hi, q) - 3.0 * _rf(lo, mid, hi)
                     + 3.0 * fnp.sqrt(lo * mid * hi / (xz + pq)) * _rc(xz + pq, pq)
                     ) / (mid - ps)
        value = fnp.where(pv, principal, _rj_positive(x, y, z, fnp.where(pv, 1.0, p)))
    else:
        value = _rj_positive(x, y, z, p)
    return _finish(fnp.where(regular, value, edge), dtype)


@custom_jvp
def _rg(lo: Any, mid: Any, hi: Any) -> Any:
    """``R_G`` of sorted arguments, ``mid > 0``: DLMF 19.21.10 with the middle one as
    ``z`` (every term non-negative), scaled so that ``mid`` and ``hi`` are reciprocal (it
    is homogeneous of degree 1/2: no overflow or underflow in ``R_D``'s terms)."""
    scale = fnp.sqrt(mid) * fnp.sqrt(hi)
    a, m, b = lo / scale, mid / scale, hi / scale
    return (m * _rf(a, b, m) - (a - m) * (b - m) * _rd(a, b, m) / 3.0
            + fnp.sqrt(a * b / m)) * (0.5 * fnp.sqrt(scale))


@_rg.defjvp
def _rg_jvp(primals: tuple, tangents: tuple) -> tuple:
    """``dR_G/dz = R_F(x, y, z)/4 - z R_D(x, y, z)/12`` (DLMF 19.18), not the formula's
    derivative: in its smallest argument that is a difference of terms ~sqrt(hi/(lo mid))
    (1e-11 lost at ratios of 1e6).  ``z R_D -> 0`` as ``z -> 0``."""
    lo, mid, hi = primals
    quarter = _rf(lo, mid, hi) / 4.0

    def slope(a: Any, b: Any, c: Any) -> Any:
        zero = fnp.equal(c, 0.0)
        cs = fnp.where(zero, 1.0, c)
        return quarter - fnp.where(zero, 0.0, cs * _rd(a, b, cs) / 12.0)
    return _rg(lo, mid, hi), (slope(mid, hi, lo) * tangents[0] + slope(lo, hi, mid)
                              * tangents[1] + slope(lo, mid, hi) * tangents[2])


def elliprg(x: ArrayLike, y: ArrayLike, z: ArrayLike) -> Array:
    """Carlson's completely symmetric integral of the second kind ``R_G(x, y, z)``
    (``scipy.special.elliprg``), for ``x, y, z >= 0``: ``(z R_F - (x - z)(y - z) R_D / 3
    + sqrt(x y / z)) / 2`` with ``z`` the middle argument (DLMF 19.21.10; every term
    non-negative), ``sqrt(z)/2`` when two are 0.

    >>> import math
    >>> round(float(elliprg(0.0, 1.0, 1.0)), 15) == round(math.pi / 4, 15)
    True
    """
    x, y, z = _real("elliprg", (x, y, z))
    dtype = _out_dtype(x, y, z)
    x, y, z = (fnp.astype(a, np.float64) for a in (x, y, z))
    lo, hi = fnp.minimum(fnp.minimum(x, y), z), fnp.maximum(fnp.maximum(x, y), z)
    mid = fnp.maximum(fnp.minimum(x, y), fnp.minimum(fnp.maximum(x, y), z))
    regular = fnp.logical_and(fnp.logical_and(fnp.greater(mid, 0.0), fnp.greater_equal(lo, 0.0)),
                              fnp.isfinite(hi))
    value = _rg(*(fnp.where(regular, v, 1.0) for v in (lo, mid, hi)))
    two_zeros = fnp.logical_and(fnp.equal(mid, 0.0), fnp.greater_equal(lo, 0.0))
    edge = fnp.where(two_zeros, fnp.sqrt(fnp.where(two_zeros, hi, 1.0)) * 0.5,
                     fnp.where(fnp.logical_or(fnp.less(lo, 0.0), fnp.isnan(hi)), _NAN, _INF))
    return _finish(fnp.where(regular, value, edge), dtype)


def ellipkinc(phi: ArrayLike, m: ArrayLike) -> Array:
    """Legendre's incomplete elliptic integral of the first kind ``F(phi | m)``
    (``scipy.special.ellipkinc``, parameter ``m = k**2``): ``sin(phi) R_F(cos(phi)**2,
    1 - m sin(phi)**2, 1)`` on ``|phi| <= pi/2``, and ``F(phi + k pi) = F(phi) + 2k K(m)``.

    >>> import math, funcgrad as fg
    >>> round(float(ellipkinc(1.0, 0.5)), 15), round(float(fg.grad(ellipkinc)(0.5, 0.0)), 15)
    (1.083216772845169, 1.0)
    """
    return _legendre_form("ellipkinc", phi, m, False)


def ellipeinc(phi: ArrayLike, m: ArrayLike) -> Array:
    """Legendre's incomplete elliptic integral of the second kind ``E(phi | m)``
    (``scipy.special.ellipeinc``): ``s R_F(c**2, 1 - m s**2, 1) - m s**3 R_D(c**2,
    1 - m s**2, 1) / 3`` (``s = sin(phi)``, ``c = cos(phi)``) on ``|phi| <= pi/2``, and
    ``E(phi + k pi) = E(phi) + 2k E(m)``.

    >>> import math, funcgrad as fg
    >>> round(float(ellipeinc(0.5, 0.0)), 15), round(float(fg.grad(ellipeinc)(0.5, 0.0)), 15)
    (0.5, 1.0)
    """
    return _legendre_form("ellipeinc", phi, m, True)


def _legendre_form(name: str, phi: Any, m: Any, second: bool) -> Array:
    phi, m = _real(name, (phi, m))
    dtype = _out_dtype(phi, m)
    phi, m = fnp.astype(phi, np.float64), fnp.astype(m, np.float64)
    # phi = k pi + r with |r| <= pi/2: the integrand has period pi, so each half-turn adds
    # the complete integral twice (k a constant: piecewise, its derivative is 0)
    turns = _stop_gradient(fnp.round(phi / math.pi))
    r = phi - turns * math.pi
    s, c = fnp.sin(r), fnp.cos(r)
    delta = 1.0 - m * s * s
    value = s * elliprf(c * c, delta, 1.0)
    if second:
        value = value - m * s ** 3 * elliprd(c * c, delta, 1.0) / 3.0
    if is_concrete(turns) and not np.any(concrete_values(turns, "", "")):
        return _finish(value, dtype)
    whole = ellipe(m) if second else ellipk(m)
    return _finish(value + 2.0 * turns * whole, dtype)


def agm(a: ArrayLike, b: ArrayLike) -> Array:
    """The arithmetic-geometric mean of ``a`` and ``b`` (``scipy.special.agm``): the common
    limit of ``a' = (a + b)/2``, ``b' = sqrt(a b)``, which converge quadratically (to the
    last digit with concrete values, ``_AGM_STEPS`` steps under ``vmap``/``jit``: enough
    for any two float64 numbers).  Both negative: ``-agm(-a, -b)``; of opposite signs:
    NaN; 0 where one is 0 (NaN against ``inf``), as SciPy's.  Differentiable (the
    iteration's derivative converges with it; infinite in ``b`` at ``b = 0``).

    >>> import math, funcgrad as fg
    >>> round(float(agm(24.0, 6.0)), 13), round(float(fg.grad(agm)(1.0, 1.0)), 15)
    (13.4581714817256, 0.5)
    """
    a, b = _real("agm", (a, b))
    dtype = _out_dtype(a, b)
    a, b = fnp.astype(a, np.float64), fnp.astype(b, np.float64)
    sign = fnp.where(fnp.less(a, 0.0), -1.0, 1.0)
    same = fnp.greater(a * b, 0.0)
    regular = fnp.logical_and(same, fnp.logical_and(fnp.isfinite(a), fnp.isfinite(b)))
    x, y = fnp.where(regular, a * sign, 1.0), fnp.where(regular, b * sign, 1.0)
    for step in range(_AGM_STEPS):
        if is_concrete(x):
            xv, yv = concrete_values(x, "", ""), concrete_values(y, "", "")
            if np.all(np.abs(xv - yv) <= 2e-16 * xv):
                break
        x, y = (x + y) * 0.5, fnp.sqrt(x) * fnp.sqrt(y)
    zero = fnp.logical_or(fnp.equal(a, 0.0), fnp.equal(b, 0.0))
    infinite = fnp.logical_and(same, fnp.logical_not(regular))  # (inf with a same-sign one)
    edge = fnp.where(fnp.logical_and(zero, fnp.isfinite(a + b)), 0.0,
                     fnp.where(infinite, sign * _INF, _NAN))
    return _finish(fnp.where(regular, sign * (x + y) * 0.5, edge), dtype)

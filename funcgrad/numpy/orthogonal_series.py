"""NumPy's orthogonal series (``numpy.polynomial.chebyshev``, ``legendre``, ``hermite``,
``hermite_e``, ``laguerre``: coefficients lowest degree first), differentiable in the
coefficients and in ``x``.

NumPy's functions there convert their arguments with ``np.array``, which a traced value
cannot go through; call these instead, with the same arguments:
``funcgrad.numpy.polynomial.chebyshev.chebval(x, c)`` for
``np.polynomial.chebyshev.chebval(x, c)``.  Each family is its three-term recurrence:
evaluation by Clenshaw's backward recurrence, Vandermonde matrices by the forward one,
derivatives and integrals by NumPy's coefficient recurrences, in NumPy's order of
operations (so values agree to the last bit), and fits by NumPy's least squares through
the Vandermonde matrix.  Evaluation, ``*der``, ``*vander``, ``*fit`` and the 2-d and 3-d
evaluations work under every transform; ``*int`` of a one-coefficient series needs to
know whether it is zero (NumPy's result is shorter then).
"""
import types
from typing import Any

import numpy as _np

from ._convert import asarray, concrete_values
from .manipulation import moveaxis, reshape, stack
from .ufuncs import add
from . import power_series as ps
from ..typing import Array, ArrayLike

__all__: list[str] = []  # (filled below: chebval, chebder... for each family)


# --- the recurrences, one family each (NumPy's expressions, in NumPy's order) -----------

def _cheb_clenshaw(x, c):
    x2 = 2 * x
    c0, c1 = c[-2], c[-1]
    for i in range(3, len(c) + 1):
        c0, c1 = c[-i] - c1, c0 + c1 * x2
    return c0 + c1 * x


def _leg_clenshaw(x, c):
    nd, c0, c1 = len(c), c[-2], c[-1]
    for i in range(3, len(c) + 1):
        nd -= 1
        c0, c1 = c[-i] - c1 * ((nd - 1) / nd), c0 + c1 * x * ((2 * nd - 1) / nd)
    return c0 + c1 * x


def _herm_clenshaw(x, c):
    x2 = x * 2
    nd, c0, c1 = len(c), c[-2], c[-1]
    for i in range(3, len(c) + 1):
        nd -= 1
        c0, c1 = c[-i] - c1 * (2 * (nd - 1)), c0 + c1 * x2
    return c0 + c1 * x2


def _herme_clenshaw(x, c):
    nd, c0, c1 = len(c), c[-2], c[-1]
    for i in range(3, len(c) + 1):
        nd -= 1
        c0, c1 = c[-i] - c1 * (nd - 1), c0 + c1 * x
    return c0 + c1 * x


def _lag_clenshaw(x, c):
    nd, c0, c1 = len(c), c[-2], c[-1]
    for i in range(3, len(c) + 1):
        nd -= 1
        c0, c1 = c[-i] - (c1 * (nd - 1)) / nd, c0 + (c1 * ((2 * nd - 1) - x)) / nd
    return c0 + c1 * (1 - x)


def _cheb_der(c, n):
    """One derivative of ``c`` (rows ``0..n``), ``n`` rows out."""
    der = [None] * n
    for j in range(n, 2, -1):
        der[j - 1] = (2 * j) * c[j]
        c[j - 2] = c[j - 2] + (j * c[j]) / (j - 2)
    if n > 1:
        der[1] = 4 * c[2]
    der[0] = c[1]
    return der


def _leg_der(c, n):
    der = [None] * n
    for j in range(n, 2, -1):
        der[j - 1] = (2 * j - 1) * c[j]
        c[j - 2] = c[j - 2] + c[j]
    if n > 1:
        der[1] = 3 * c[2]
    der[0] = c[1]
    return der


def _herm_der(c, n):
    return [(2 * j) * c[j] for j in range(1, n + 1)]


def _herme_der(c, n):
    return [j * c[j] for j in range(1, n + 1)]


def _lag_der(c, n):
    der = [None] * n
    for j in range(n, 1, -1):
        der[j - 1] = -c[j]
        c[j - 1] = c[j - 1] + c[j]
    der[0] = -c[1]
    return der


def _cheb_int(c, n):
    """One antiderivative of ``c`` (``n`` rows), ``n + 1`` rows out, before the constant."""
    tmp = [c[0] * 0, c[0]] + [None] * (n - 1)
    if n > 1:
        tmp[2] = c[1] / 4
    for j in range(2, n):
        tmp[j + 1] = c[j] / (2 * (j + 1))
        tmp[j - 1] = tmp[j - 1] - c[j] / (2 * (j - 1))
    return tmp


def _leg_int(c, n):
    tmp = [c[0] * 0, c[0]] + [None] * (n - 1)
    if n > 1:
        tmp[2] = c[1] / 3
    for j in range(2, n):
        t = c[j] / (2 * j + 1)
        tmp[j + 1] = t
        tmp[j - 1] = tmp[j - 1] - t
    return tmp


def _herm_int(c, n):
    return [c[0] * 0, c[0] / 2] + [c[j] / (2 * (j + 1)) for j in range(1, n)]


def _herme_int(c, n):
    return [c[0] * 0, c[0]] + [c[j] / (j + 1) for j in range(1, n)]


def _lag_int(c, n):
    tmp = [c[0], -c[0]] + [None] * (n - 1)
    for j in range(1, n):
        tmp[j] = tmp[j] + c[j]
        tmp[j + 1] = -c[j]
    return tmp


def _cheb_vander(x, v, i):
    return v[i - 1] * (2 * x) - v[i - 2]


def _leg_vander(x, v, i):
    return (v[i - 1] * x * (2 * i - 1) - v[i - 2] * (i - 1)) / i


def _herm_vander(x, v, i):
    return v[i - 1] * (x * 2) - v[i - 2] * (2 * (i - 1))


def _herme_vander(x, v, i):
    return v[i - 1] * x - v[i - 2] * (i - 1)


def _lag_vander(x, v, i):
    return (v[i - 1] * (2 * i - 1 - x) - v[i - 2] * (i - 1)) / i


# --- what every family shares ------------------------------------------------------------

def _coefficients(c):
    c = ps._as_float(asarray(c))
    return reshape(c, (1,)) if c.ndim == 0 else c


def _val(clenshaw, first, x, c, tensor=True):
    """``first``: the degree-one function (x; 2x for Hermite; 1 - x for Laguerre), with
    which NumPy's recurrence ends (and so its two-coefficient case)."""
    c = _coefficients(c)
    if isinstance(x, (tuple, list)):
        x = asarray(x)
    if tensor and hasattr(x, "ndim"):
        c = reshape(c, c.shape + (1,) * x.ndim)
    if c.shape[0] == 1:
        return c[0] + 0 * x
    if c.shape[0] == 2:
        return c[0] + c[1] * first(x)
    return clenshaw(x, c)


def _der(step, c, m=1, scl=1, axis=0):
    c = _coefficients(c)
    cnt = ps._count(m, "the order of derivation")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    axis = ps._axis(axis, c.ndim)
    if cnt == 0:
        return c
    c = moveaxis(c, axis, 0)
    n = c.shape[0]
    if cnt >= n:
        return moveaxis(c[:1] * 0, 0, axis)
    for _ in range(cnt):
        n -= 1
        c = c * scl
        c = stack(step([c[j] for j in range(n + 1)], n))
    return moveaxis(c, 0, axis)


def _int(step, clenshaw, first, c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006 - NumPy's
    c = _coefficients(c)
    k, cnt, axis = ps._integration_args(k, m, lbnd, scl, axis, c.ndim)
    if cnt == 0:
        return c
    c = moveaxis(c, axis, 0)
    for i in range(cnt):
        n = c.shape[0]
        c = c * scl
        if n == 1 and _np.all(concrete_values(
                c[0], "integrating a one-coefficient series (NumPy's result is shorter when "
                      "it is zero)",
                "Pass a coefficient array of length 2 or more (append a zero).") == 0):
            c = c + k[i]
            continue
        tmp = step([c[j] for j in range(n)], n)
        tmp[0] = tmp[0] + (k[i] - _val(clenshaw, first, lbnd, stack(tmp)))
        c = stack(tmp)
    return moveaxis(c, 0, axis)


def _vander(step, first, x, deg):
    degree = ps._count(deg, "deg")
    if degree < 0:
        raise ValueError("deg must be non-negative")
    x = add(asarray(x), 0.0)
    x = reshape(x, (1,)) if x.ndim == 0 else x
    v = [x * 0 + 1]
    if degree > 0:
        v.append(first(x))
        for i in range(2, degree + 1):
            v.append(step(x, v, i))
    return moveaxis(stack(v), 0, -1)


# --- the public functions, made per family -----------------------------------------------

_FAMILIES = {  # prefix: NumPy's module, Clenshaw, derivative, integral, Vandermonde, P_1
    "cheb": ("chebyshev", _cheb_clenshaw, _cheb_der, _cheb_int, _cheb_vander, None),
    "leg": ("legendre", _leg_clenshaw, _leg_der, _leg_int, _leg_vander, None),
    "herm": ("hermite", _herm_clenshaw, _herm_der, _herm_int, _herm_vander, lambda x: x * 2),
    "herme": ("hermite_e", _herme_clenshaw, _herme_der, _herme_int, _herme_vander, None),
    "lag": ("laguerre", _lag_clenshaw, _lag_der, _lag_int, _lag_vander, lambda x: 1 - x),
}


def _example(module, call, shown):
    """A docstring example whose expected output is NumPy's own result."""
    want = eval(shown, {"np": _np, "N": getattr(_np.polynomial, module)})  # noqa: S307
    lines = [line or "<BLANKLINE>" for line in repr(want).split("\n")]
    return (f"    >>> import numpy as np\n"
            f"    >>> from funcgrad.numpy.polynomial import {module} as F\n"
            f"    >>> {call}\n" + "".join(f"    {line}\n" for line in lines))


def _public(prefix, module, name, fn, summary, call):
    fn.__name__ = fn.__qualname__ = f"{prefix}{name}"
    fn.__module__ = __name__
    numpy_call = call.replace("F.", "N.")
    fn.__doc__ = (f"``np.polynomial.{module}.{prefix}{name}``: {summary}\n\n"
                  + _example(module, call, numpy_call))
    return fn


def _identity(x):
    return x


def _family(prefix, module, clenshaw, der_step, int_step, vander_step, first):
    first = first or _identity

    def val(x: ArrayLike, c: ArrayLike, tensor: bool = True) -> Array:
        return _val(clenshaw, first, x, c, tensor)

    def val2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> Array:
        x, y = ps._same_shape(f"{prefix}val2d", (x, y))
        return val(y, val(x, c), tensor=False)

    def val3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> Array:
        x, y, z = ps._same_shape(f"{prefix}val3d", (x, y, z))
        return val(z, val(y, val(x, c), tensor=False), tensor=False)

    def grid2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> Array:
        return val(y, val(x, c))

    def grid3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> Array:
        return val(z, val(y, val(x, c)))

    def der(c: ArrayLike, m: int = 1, scl: ArrayLike = 1, axis: int = 0) -> Array:
        return _der(der_step, c, m, scl, axis)

    def integ(c: ArrayLike, m: int = 1, k: Any = [], lbnd: ArrayLike = 0,  # noqa: B006
              scl: ArrayLike = 1, axis: int = 0) -> Array:
        return _int(int_step, clenshaw, first, c, m, k, lbnd, scl, axis)

    def vander(x: ArrayLike, deg: int) -> Array:
        return _vander(vander_step, first, x, deg)

    def fit(x: ArrayLike, y: ArrayLike, deg: Any, rcond: float | None = None,
            full: bool = False, w: ArrayLike | None = None) -> Array:
        return ps.fit_by(vander, f"{prefix}fit", x, y, deg, rcond, full, w)

    c, xs = "np.array([1.0, -2.0, 0.5])", "np.array([0.25, 0.5])"
    made = [
        ("val", val, "the series ``sum_i c[i] P_i(x)`` by Clenshaw's recurrence; ``c``'s "
         "trailing axes hold several series (``tensor``: each at every ``x``).",
         f"F.{prefix}val({xs}, {c})"),
        ("val2d", val2d, "the 2-d series ``sum_ij c[i, j] P_i(x) P_j(y)`` at the points.",
         f"F.{prefix}val2d({xs}, {xs}, np.ones((2, 2)))"),
        ("val3d", val3d, "the 3-d series at the points ``(x, y, z)``.",
         f"F.{prefix}val3d({xs}, {xs}, {xs}, np.ones((2, 2, 2)))"),
        ("grid2d", grid2d, "the 2-d series on the grid ``x`` by ``y``.",
         f"F.{prefix}grid2d({xs}, {xs}, np.ones((2, 2)))"),
        ("grid3d", grid3d, "the 3-d series on the grid ``x`` by ``y`` by ``z``.",
         f"F.{prefix}grid3d({xs}, {xs}, {xs}, np.ones((2, 2, 2)))"),
        ("der", der, "the coefficients of the ``m``-th derivative, each step multiplied "
         "by ``scl`` (differentiable in ``c`` and ``scl``).", f"F.{prefix}der({c})"),
        ("int", integ, "the coefficients of the ``m``-th integral, with constants ``k`` "
         "(the values at ``lbnd``), each step multiplied by ``scl``; differentiable in "
         "``c``, ``k``, ``lbnd`` and ``scl``.", f"F.{prefix}int({c}, k=2.0)"),
        ("vander", vander, "the pseudo-Vandermonde matrix ``V[..., i] = P_i(x)``, by the "
         "forward recurrence.", f"F.{prefix}vander({xs}, 2)"),
        ("fit", fit, "least-squares coefficients through the Vandermonde matrix (columns "
         "scaled to unit norm, then lstsq), differentiable in ``x``, ``y`` and ``w``; "
         "``full=True`` is not supported.",
         f"F.{prefix}fit(np.linspace(0.0, 1.0, 4), np.linspace(0.0, 1.0, 4) * 2.0 + 1.0, 1)"
         f".round(10) + 0.0"),
    ]
    namespace = types.SimpleNamespace(__name__=f"funcgrad.numpy.polynomial.{module}",
                                      __doc__=f"``np.polynomial.{module}`` on traced values.")
    for name, fn, summary, call in made:
        fn = _public(prefix, module, name, fn, summary, call)
        setattr(namespace, fn.__name__, fn)
        globals()[fn.__name__] = fn
        __all__.append(fn.__name__)
    return namespace


chebyshev, legendre, hermite, hermite_e, laguerre = (
    _family(prefix, *spec) for prefix, spec in _FAMILIES.items())

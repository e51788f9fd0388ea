"""More of ``funcgrad.scipy.special`` (re-exported there): the Lambert W function, the
Struve functions and the spherical Bessel functions, whose values are SciPy's
(:mod:`funcgrad.primitives.special_scipy_more`, SciPy imported on the first call) and
whose derivatives in the argument hold at every order.  An order or branch (``v``,
``n``, ``k``) has no derivative: asking for one raises ``NotImplementedError``."""
from typing import Callable

import numpy as np

from ..numpy._convert import operand as _operand
from ..primitives import special_scipy_more as _sm
from ..typing import Array, ArrayLike

__all__ = ["lambertw", "struve", "modstruve", "spherical_jn", "spherical_yn", "spherical_in",
           "spherical_kn"]


def lambertw(z: ArrayLike, k: ArrayLike = 0, tol: float = 1e-8) -> Array:
    """The Lambert W function, the inverse of ``w exp(w)``, on branch ``k`` (an integer):
    complex, as SciPy's (``.real`` for the real branches).  Derivative in ``z``:
    ``exp(-W) / (1 + W)``; in ``k`` and ``tol`` none (``NotImplementedError``).

    >>> import numpy as np, funcgrad as fg
    >>> complex(lambertw(np.e))
    (1+0j)
    >>> float(fg.grad(lambda z: lambertw(z).real)(0.0))
    1.0
    """
    if isinstance(k, (int, float, np.ndarray, np.generic, list, tuple)):
        k = np.asarray(k, dtype=np.dtype("long"))  # (SciPy's cast of the branch)
    return _sm.lambertw(_operand(z), _operand(k), _operand(tol))


def struve(v: ArrayLike, x: ArrayLike) -> Array:
    """The Struve function ``H_v(x)``.  Derivative in ``x``: ``(H_{v-1} - H_{v+1}) / 2 +
    (x/2)**v / (2 sqrt(pi) Gamma(v + 3/2))``; in ``v`` none (``NotImplementedError``).

    >>> import funcgrad as fg
    >>> float(struve(0.0, 0.0)), round(float(fg.grad(struve, 1)(0.0, 0.0)), 15)
    (0.0, 0.636619772367581)
    """
    return _sm.struve(_operand(v), _operand(x))


def modstruve(v: ArrayLike, x: ArrayLike) -> Array:
    """The modified Struve function ``L_v(x)``.  Derivative in ``x``: ``(L_{v-1} +
    L_{v+1}) / 2 + (x/2)**v / (2 sqrt(pi) Gamma(v + 3/2))``; in ``v`` none.

    >>> import funcgrad as fg
    >>> round(float(fg.grad(modstruve, 1)(1.0, 0.0)), 15)
    0.0
    """
    return _sm.modstruve(_operand(v), _operand(x))


def _spherical(name: str, doc: str) -> Callable[..., Array]:
    f, d = getattr(_sm, name), getattr(_sm, name + "_d")

    def spherical(n: ArrayLike, z: ArrayLike, derivative: bool = False) -> Array:
        return (d if derivative else f)(_operand(n), _operand(z))
    spherical.__name__ = spherical.__qualname__ = name
    spherical.__doc__ = doc
    spherical.primitives = (f.primitive, d.primitive)  # type: ignore[attr-defined]
    return spherical


spherical_jn = _spherical("spherical_jn", """The spherical Bessel function of the first
    kind ``j_n(z)`` (an integer order ``n``), or its derivative with
    ``derivative=True``, as SciPy's.  Differentiable in ``z`` at every order
    (``j_n' = (n j_{n-1} - (n + 1) j_{n+1}) / (2n + 1)``); in ``n`` none.

    >>> import funcgrad as fg
    >>> float(spherical_jn(0, 0.0)), float(fg.grad(spherical_jn, 1)(1, 0.0))
    (1.0, 0.3333333333333333)
    """)
spherical_yn = _spherical("spherical_yn", """The spherical Bessel function of the second
    kind ``y_n(z)``, or its derivative with ``derivative=True``, as SciPy's;
    differentiable in ``z``.

    >>> import math, funcgrad as fg
    >>> float(spherical_yn(0, math.pi)) == -math.cos(math.pi) / math.pi
    True
    """)
spherical_in = _spherical("spherical_in", """The modified spherical Bessel function of the
    first kind ``i_n(z)``, or its derivative with ``derivative=True``, as SciPy's;
    differentiable in ``z`` (``i_n' = (n i_{n-1} + (n + 1) i_{n+1}) / (2n + 1)``).

    >>> import funcgrad as fg
    >>> float(spherical_in(0, 0.0)), float(fg.grad(spherical_in, 1)(1, 0.0))
    (1.0, 0.3333333333333333)
    """)
spherical_kn = _spherical("spherical_kn", """The modified spherical Bessel function of the
    second kind ``k_n(z)``, or its derivative with ``derivative=True``, as SciPy's;
    differentiable in ``z`` (``k_n' = -(n k_{n-1} + (n + 1) k_{n+1}) / (2n + 1)``).

    >>> import math, funcgrad as fg
    >>> float(spherical_kn(0, 1.0)) == math.pi / 2 * math.exp(-1.0)
    True
    """)

# (the primitives each front binds, as the other special functions say theirs)
for _front, _bound in ((lambertw, _sm.lambertw), (struve, _sm.struve),
                       (modstruve, _sm.modstruve)):
    _front.primitive = _bound.primitive

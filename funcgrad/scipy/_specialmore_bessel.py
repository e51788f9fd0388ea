"""More Bessel functions for ``funcgrad.scipy.special`` (re-exported there): the scaled
``jve`` and ``yve``, the Hankel functions ``hankel1``, ``hankel2`` and their scaled
``hankel1e``, ``hankel2e`` (SciPy's values: :mod:`funcgrad.primitives.special_scipy_extra`),
and the derivatives of order ``n`` ``jvp``, ``yvp``, ``ivp``, ``kvp``, ``h1vp``, ``h2vp``,
written with the Bessel primitives by the binomial form of the recurrence
``C_v' = (C_{v-1} -+ C_{v+1}) / 2`` (DLMF 10.6.7, 10.29.5), so they differentiate again."""
import math
from typing import Any, Callable

import numpy as np

from ..core import Tracer as _Tracer
from ..numpy._convert import operand as _operand
from ..primitives import special_scipy_extra as _sx
from ..typing import Array, ArrayLike
from ._special_more import _front, iv, jv, kv, yv
from ._special_real import reject_complex as _reject_complex

_FRONTS_NEED = (_operand, _reject_complex, Array, ArrayLike)  # (the compiled fronts' names)

# (SciPy's ufuncs: funcgrad.scipy.special gives them out=)
UFUNCS = ["jve", "yve", "hankel1", "hankel1e", "hankel2", "hankel2e"]
__all__ = UFUNCS + ["jvp", "yvp", "ivp", "kvp", "h1vp", "h2vp"]

jve = _front(_sx.jve, "v, z", """The scaled Bessel function ``jv(v, z) exp(-|Im z|)``
    (``jv`` itself for a real ``z``); derivative in a real ``z``: ``(jve(v - 1, z) -
    jve(v + 1, z))/2``.  In ``v`` it raises ``NotImplementedError``, and for a complex
    ``z`` too (not holomorphic).

    >>> import funcgrad as fg
    >>> float(jve(0.0, 0.0)), float(fg.grad(jve, 1)(1.0, 0.0))
    (1.0, 0.5)
    """, home=globals(), module="_sx")
yve = _front(_sx.yve, "v, z", """The scaled Bessel function ``yv(v, z) exp(-|Im z|)``
    (``yv`` itself for a real ``z``); derivative in a real ``z``: ``(yve(v - 1, z) -
    yve(v + 1, z))/2``.

    >>> round(float(yve(0.5, 2.0)) / float(yv(0.5, 2.0)), 12)
    1.0
    """, home=globals(), module="_sx")
hankel1 = _front(_sx.hankel1, "v, z", """The Hankel function of the first kind
    ``H1_v(z) = J_v(z) + i Y_v(z)``, complex (of a real ``z`` too, as SciPy's);
    holomorphic in ``z``: ``(hankel1(v - 1, z) - hankel1(v + 1, z))/2``.  In ``v`` it
    raises ``NotImplementedError``.

    >>> import funcgrad as fg
    >>> d = fg.grad(lambda z: hankel1(0.0, z), holomorphic=True)(2.0 + 0j)  # -H1_1
    >>> abs(complex(d) + complex(hankel1(1.0, 2.0))) < 1e-15
    True
    """, home=globals(), module="_sx")
hankel2 = _front(_sx.hankel2, "v, z", """The Hankel function of the second kind
    ``H2_v(z) = J_v(z) - i Y_v(z)``, complex; holomorphic in ``z``: ``(hankel2(v - 1, z)
    - hankel2(v + 1, z))/2``.

    >>> complex(hankel2(0.5, 1.0)) == complex(hankel1(0.5, 1.0)).conjugate()
    True
    """, home=globals(), module="_sx")
hankel1e = _front(_sx.hankel1e, "v, z", """The scaled ``hankel1(v, z) exp(-iz)``;
    holomorphic in ``z``: ``(hankel1e(v - 1, z) - hankel1e(v + 1, z))/2 - i hankel1e(v,
    z)``.

    >>> import cmath
    >>> abs(complex(hankel1e(0.0, 3.0)) - complex(hankel1(0.0, 3.0)) * cmath.exp(-3j)) < 1e-15
    True
    """, home=globals(), module="_sx")
hankel2e = _front(_sx.hankel2e, "v, z", """The scaled ``hankel2(v, z) exp(iz)``;
    holomorphic in ``z``: ``(hankel2e(v - 1, z) - hankel2e(v + 1, z))/2 + i hankel2e(v,
    z)``.

    >>> import cmath
    >>> abs(complex(hankel2e(0.0, 3.0)) - complex(hankel2(0.0, 3.0)) * cmath.exp(3j)) < 1e-15
    True
    """, home=globals(), module="_sx")


def _order(function: str, n: Any) -> int:
    if isinstance(n, _Tracer):
        raise TypeError(f"{function}(v, z, n): the derivative's order n is an integer and has "
                        f"no derivative; pass a plain int")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{function}(v, z, n): n must be a non-negative integer, got {n!r}")
    return int(n)


def _derivative(name: str, f: Callable[..., Array], sign: float, outer: float,
                doc: str) -> Callable[..., Array]:
    def derivative(v: ArrayLike, z: ArrayLike, n: int = 1) -> Array:
        k_max = _order(name, n)
        v, z = _operand(v), _operand(z)
        if k_max == 0:
            return f(v, z)
        # d^n C_v = outer**n 2**-n sum_k sign**k binom(n, k) C_{v - n + 2k}
        terms = [f(v + float(2 * k - k_max), z) * (
            math.comb(k_max, k) * sign ** k * (outer / 2.0) ** k_max) for k in range(k_max + 1)]
        total = terms[0]
        for term in terms[1:]:
            total = total + term
        return total
    derivative.__name__ = derivative.__qualname__ = name
    derivative.__doc__ = doc
    return derivative


jvp = _derivative("jvp", jv, -1.0, 1.0, """The ``n``-th derivative of ``jv(v, z)`` in
    ``z`` (SciPy's ``jvp``: a binomial sum of ``jv`` at the orders ``v - n`` to ``v + n``);
    differentiable in ``z`` again.

    >>> import funcgrad as fg
    >>> float(jvp(0.0, 1.0)) == -float(jv(1.0, 1.0)), float(fg.grad(jvp, 1)(0.0, 0.0))
    (True, -0.5)
    """)
yvp = _derivative("yvp", yv, -1.0, 1.0, """The ``n``-th derivative of ``yv(v, z)`` in
    ``z``; differentiable in ``z`` again.

    >>> float(yvp(0.0, 2.0)) == -float(yv(1.0, 2.0))
    True
    """)
ivp = _derivative("ivp", iv, 1.0, 1.0, """The ``n``-th derivative of ``iv(v, z)`` in
    ``z``; differentiable in ``z`` again.

    >>> float(ivp(0.0, 0.0, 2))
    0.5
    """)
kvp = _derivative("kvp", kv, 1.0, -1.0, """The ``n``-th derivative of ``kv(v, z)`` in
    ``z``: ``(-1)**n 2**-n sum binom(n, k) kv(v - n + 2k, z)``; differentiable in ``z``
    again.

    >>> float(kvp(0.0, 1.0)) == -float(kv(1.0, 1.0))
    True
    """)
h1vp = _derivative("h1vp", hankel1, -1.0, 1.0, """The ``n``-th derivative of
    ``hankel1(v, z)`` in ``z`` (complex); holomorphic in ``z``.

    >>> abs(complex(h1vp(0.0, 2.0)) + complex(hankel1(1.0, 2.0))) < 1e-15
    True
    """)
h2vp = _derivative("h2vp", hankel2, -1.0, 1.0, """The ``n``-th derivative of
    ``hankel2(v, z)`` in ``z`` (complex); holomorphic in ``z``.

    >>> abs(complex(h2vp(0.0, 2.0)) + complex(hankel2(1.0, 2.0))) < 1e-15
    True
    """)

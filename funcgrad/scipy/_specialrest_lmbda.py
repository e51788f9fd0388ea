"""The lambda functions of :mod:`funcgrad.scipy.special`: ``lmbda(v, x)``,
``Lambda_w(x) = Gamma(w + 1) J_w(x) / (x/2)**w`` for the orders ``w = v0 + k``
(``v0 = v - int(v)``, ``k = 0..int(v)``) and their derivatives.  Values are SciPy's
(through ``fg.pure_callback`` under ``jit``/``vmap``); in ``x`` the derivative is SciPy's
second output, whose own derivative comes from the equation ``Lambda_w`` solves,
``y'' + (2w + 1)/x y' + y = 0`` (Bessel's equation for ``x**-w J_w``).  The order ``v``
is a plain number, with no derivative.
"""
import functools
import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..core import Tracer as _Tracer
from ..custom._decorators import _casting_custom_jvp as _custom_jvp  # (own rules: cast)
from ..typing import Array, ArrayLike

__all__ = ["lmbda"]


@functools.partial(_custom_jvp, nondiff_argnums=(0,))
def _table(v, x):
    """``(Lambda, Lambda')`` of SciPy's ``lmbda(v, x)``, each ``int(v) + 1`` long."""
    def scipys(x):
        import scipy.special  # (here: importing funcgrad never loads SciPy)
        vl, dl = scipy.special.lmbda(v, float(x))
        return np.asarray(vl, np.float64), np.asarray(dl, np.float64)
    like = np.zeros(int(v) + 1)
    return pure_callback(scipys, (like, like), x, vmap_method="sequential")


@_table.defjvp
def _table_jvp(v, primals, tangents):
    x, = primals
    t, = tangents
    value, slope = _table(v, x)
    orders = (v - int(v)) + np.arange(int(v) + 1)
    curvature = -((2.0 * orders + 1.0) * slope / x + value)
    return (value, slope), (slope * t, curvature * t)


def lmbda(v: float, x: ArrayLike) -> tuple[Array, Array]:
    """``(vl, dl)``: the lambda functions ``Gamma(w + 1) J_w(x) / (x/2)**w`` of the orders
    ``w = v - int(v) + k``, ``k = 0..int(v)``, and their derivatives, as
    ``scipy.special.lmbda`` (``v >= 0`` and ``x`` scalars; SciPy's values).
    Differentiable in ``x`` (every order); ``v`` is a plain number.

    >>> import funcgrad as fg
    >>> vl, dl = lmbda(1, 2.0)
    >>> round(float(vl[0]), 12), round(float(fg.grad(lambda x: lmbda(1, x)[0][0])(2.0)), 12)
    (0.223890779141, -0.576724807757)
    """
    if isinstance(v, _Tracer):
        raise TypeError("lmbda(v, x): the order v has no derivative here; pass it as a "
                        "plain number (differentiate in x)")
    if np.ndim(v) or np.ndim(x):
        raise ValueError("lmbda(v, x): v and x must be scalars, as SciPy's; for arrays of x "
                         "use fg.vmap")
    v = float(v)
    if v < 0:
        raise ValueError(f"lmbda(v, x): v must be >= 0, got {v!r}")
    x = fnp.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("lmbda(v, x): complex x is not supported, as in scipy.special")
    return _table(v, fnp.astype(x, np.float64))

"""NumPy's functions about complex numbers (``angle``, ``iscomplex``, ``sort_complex``...),
built on the ``real``, ``imag`` and ``conj`` primitives.

Derivatives follow JAX's convention (README "Complex numbers"): ``fg.grad`` of a real
function of ``z = x + iy`` is ``df/dx - i df/dy``.
"""
import math

import numpy as _np

from ..primitives import elementwise as _ew
from ..primitives.structural import stop_gradient
from ._convert import asarray, concrete_values, operand
from .constructors import astype
from .indexing import argsort, take_along_axis
from ._ufunc_wrappers import ufunc_dtype
from .ufuncs import arctan2, imag, real
from ..typing import Array, ArrayLike

__all__ = ["angle", "real_if_close", "iscomplex", "isreal", "iscomplexobj", "isrealobj",
           "sort_complex"]


def _dtype(x):
    return x.dtype if hasattr(x, "dtype") else _np.result_type(x)


def angle(z: ArrayLike, deg: bool = False) -> Array:
    """The argument of ``z`` (``arctan2(imag, real)``), in radians or ``deg``-rees.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fnp.angle(1j))
    1.5707963267948966
    >>> complex(fg.grad(fnp.angle)(1j))   # d/dx - i d/dy of atan2(y, x) at (0, 1)
    (-1+0j)
    >>> float(fg.grad(fnp.angle)(0.0))    # 0 at 0, as in PyTorch (not atan2's 0/0)
    0.0
    """
    z = operand(z)
    y, x = imag(z), real(z)
    # At z = 0 the derivative of atan2(y, x) is 0/0; the angle's is 0 there, as in
    # PyTorch; a real input's angle is piecewise constant, so its derivative is 0 at
    # inf and NaN too.  The double-where idiom: the differentiated atan2 never sees those
    # points, and the value there (NumPy's, signed zeros included) is a constant.
    at_zero = _ew.logical_and(_ew.equal(x, 0.0), _ew.equal(y, 0.0))
    if _dtype(z).kind != "c":
        at_zero = _ew.logical_or(at_zero, _ew.logical_not(_ew.isfinite(x)))
    one = _np.ones((), _dtype(x))
    safe = arctan2(_ew.where(at_zero, one, y), _ew.where(at_zero, one, x))
    out = _ew.where(at_zero, stop_gradient(arctan2(y, x)), safe)
    if _dtype(z).kind in "biu":  # NumPy's arctan2(0, z): bool gives float64, int8 float16
        out = astype(out, ufunc_dtype(_np.arctan2, 0, z))
    return out * (180.0 / math.pi) if deg else out


def real_if_close(a: ArrayLike, tol: ArrayLike = 100) -> Array:
    """The real part when every imaginary part is within ``tol`` machine epsilons of zero,
    else ``a`` unchanged (which one depends on the values, so not under vmap or jit).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.real_if_close(np.array([2.0 + 1e-15j, 1.0]))
    array([2., 1.])
    """
    a = asarray(a)
    if _dtype(a).kind != "c":
        return a
    values = concrete_values(imag(a), "real_if_close",
                             "Take fnp.real(a) explicitly if the imaginary part is known small.")
    if tol > 1:
        tol = _np.finfo(values.dtype).eps * tol
    return real(a) if _np.all(_np.abs(values) < tol) else a


def iscomplex(x: ArrayLike) -> Array:
    """Where the imaginary part is non-zero (booleans: no derivative).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.iscomplex(np.array([1 + 1j, 2.0 + 0j]))
    array([ True, False])
    """
    return _ew.not_equal(imag(operand(x)), 0.0)


def isreal(x: ArrayLike) -> Array:
    """Where the imaginary part is zero (booleans: no derivative).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.isreal(np.array([1 + 1j, 2.0 + 0j]))
    array([False,  True])
    """
    return _ew.equal(imag(operand(x)), 0.0)


def iscomplexobj(x: ArrayLike) -> bool:
    """Whether ``x`` has a complex dtype (a Python bool).

    >>> import funcgrad.numpy as fnp
    >>> fnp.iscomplexobj(1j), fnp.iscomplexobj(1.0)
    (True, False)
    """
    return _dtype(operand(x)).kind == "c"


def isrealobj(x: ArrayLike) -> bool:
    """Whether ``x`` does not have a complex dtype (a Python bool).

    >>> import funcgrad.numpy as fnp
    >>> fnp.isrealobj(1.0)
    True
    """
    return not iscomplexobj(x)


def sort_complex(a: ArrayLike) -> Array:
    """Sort by real part, then imaginary part; the result is complex (NumPy's rule).  Each
    element's derivative follows it to its sorted place.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.sort_complex(np.array([2 + 1j, 1 - 1j, 2 - 3j]))
    array([1.-1.j, 2.-3.j, 2.+1.j])
    """
    a = asarray(a)
    if _dtype(a).kind != "c":
        a = a.astype(_np.result_type(_dtype(a), _np.complex64))
    # lexicographic order: a stable sort by real part of the order by imaginary part
    by_imag = argsort(imag(a), axis=-1, kind="stable")
    by_real = argsort(take_along_axis(real(a), by_imag, axis=-1), axis=-1, kind="stable")
    return take_along_axis(a, take_along_axis(by_imag, by_real, axis=-1), axis=-1)


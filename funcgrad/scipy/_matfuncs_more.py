"""More matrix functions of ``funcgrad.scipy.linalg``: the trigonometric and hyperbolic
ones (``cosm``, ``sinm``, ``tanm``, ``coshm``, ``sinhm``, ``tanhm``), ``signm``,
``fractional_matrix_power``, ``expm_frechet`` and ``expm_cond``, composed of
differentiable funcgrad operations.

* The trigonometric and hyperbolic functions are SciPy's formulas on :func:`expm`
  (``cosm(A) = Re expm(iA)`` for a real ``A``, ``(expm(iA) + expm(-iA)) / 2`` for a
  complex one; ``tanm = cosm^-1 sinm``...), so their derivatives are ``expm``'s: the
  Fréchet derivative of the Padé approximant, to any order, stacks and ``vmap`` included.
* ``signm`` and ``fractional_matrix_power`` go through the eigendecomposition as ``funm``
  (``V f(w) V^-1``, Daleckii-Krein derivatives; (nearly) defective matrices raise).  On
  plain arrays (nothing to differentiate) they return SciPy's own values.
* ``expm_frechet(A, E)`` is the JVP of ``expm`` at ``A`` along ``E``: Al-Mohy and
  Higham's algorithm is exactly the derivative of the scaled Padé approximant, and so is
  this, differentiable again in ``A`` and ``E``.  ``expm_cond`` builds the Kronecker form
  of that derivative column by column (``n^2`` JVPs: small matrices).
"""
from typing import Any, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..forward_mode import jvp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._linalg_tools import as_float, is_plain, over_batch
from ._matfuncs import _through_eig, expm

__all__ = ["cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm", "signm",
           "fractional_matrix_power", "expm_frechet", "expm_cond"]


def _square(name, a):
    a = as_float(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: expected a square matrix (or a stack of them, (..., n, n)), "
                         f"got shape {a.shape}")
    return a


def _exp_i(a):
    """``(expm(iA), expm(-iA))``: what the trigonometric functions are made of."""
    ia = a * 1j
    return expm(ia), expm(-ia)


def cosm(A: ArrayLike) -> Array:
    """The matrix cosine (``scipy.linalg.cosm``): ``Re expm(iA)`` for a real ``A``,
    ``(expm(iA) + expm(-iA)) / 2`` for a complex one; stacks too.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> fsl.cosm(np.zeros((2, 2)))
    array([[1., 0.],
           [0., 1.]])
    >>> round(float(fg.grad(lambda t: fsl.cosm(t * np.eye(2))[0, 0])(0.5)), 12)  # -sin
    -0.479425538604
    """
    a = _square("cosm", A)
    if a.dtype.kind == "c":
        plus, minus = _exp_i(a)
        return 0.5 * (plus + minus)
    return fnp.real(expm(a * 1j))


def sinm(A: ArrayLike) -> Array:
    """The matrix sine (``scipy.linalg.sinm``): ``Im expm(iA)`` for a real ``A``,
    ``-i (expm(iA) - expm(-iA)) / 2`` for a complex one; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> np.round(fsl.sinm(np.pi / 2 * np.eye(2)), 12)
    array([[1., 0.],
           [0., 1.]])
    """
    a = _square("sinm", A)
    if a.dtype.kind == "c":
        plus, minus = _exp_i(a)
        return -0.5j * (plus - minus)
    return fnp.imag(expm(a * 1j))


def tanm(A: ArrayLike) -> Array:
    """The matrix tangent ``cosm(A)^-1 sinm(A)`` (``scipy.linalg.tanm``); stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> np.round(fsl.tanm(np.pi / 4 * np.eye(2)), 12)
    array([[1., 0.],
           [0., 1.]])
    """
    a = _square("tanm", A)
    return fnp.linalg.solve(cosm(a), sinm(a))


def coshm(A: ArrayLike) -> Array:
    """The hyperbolic matrix cosine ``(expm(A) + expm(-A)) / 2`` (``scipy.linalg.coshm``);
    stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.coshm(np.zeros((2, 2)))
    array([[1., 0.],
           [0., 1.]])
    """
    a = _square("coshm", A)
    return 0.5 * (expm(a) + expm(-a))


def sinhm(A: ArrayLike) -> Array:
    """The hyperbolic matrix sine ``(expm(A) - expm(-A)) / 2`` (``scipy.linalg.sinhm``);
    stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.sinhm(np.zeros((2, 2)))
    array([[0., 0.],
           [0., 0.]])
    """
    a = _square("sinhm", A)
    return 0.5 * (expm(a) - expm(-a))


def tanhm(A: ArrayLike) -> Array:
    """The hyperbolic matrix tangent ``coshm(A)^-1 sinhm(A)`` (``scipy.linalg.tanhm``);
    stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.tanhm(np.zeros((2, 2)))
    array([[0., 0.],
           [0., 0.]])
    """
    a = _square("tanhm", A)
    return fnp.linalg.solve(coshm(a), sinhm(a))


# --- through the eigendecomposition ------------------------------------------------------------

def _check_sign_defined(values):
    # (SciPy's rounded_sign takes real parts below 1e3 eps max(w) as 0: a sign with no
    # derivative, and none for a perturbation to pick)
    eps = np.finfo(np.result_type(values.dtype, np.float32)).eps
    if values.size and np.any(np.abs(values.real) <= 1e3 * eps * np.max(np.abs(values))):
        raise ValueError("signm: the matrix has an eigenvalue on (or within rounding of) the "
                         "imaginary axis, where the sign function is not defined (SciPy "
                         "returns 0 for it) and has no derivative; shift the matrix, or call "
                         "signm on plain values")


@over_batch(("A", 2))
def signm(A: ArrayLike, disp: bool = True) -> Union[Array, tuple[Array, float]]:
    """The matrix sign function (``scipy.linalg.signm``): ``V sign(Re w) V^-1``, real for a
    real ``A``; its derivative the Fréchet derivative (which is not zero: eigenvectors
    move).  Differentiable where no eigenvalue is on the imaginary axis and ``A`` is not
    (nearly) defective; on plain arrays SciPy's own values.  ``disp=False`` also returns
    the error estimate ``|S^2 - I|_1`` (SciPy's own on plain arrays).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> fsl.signm(np.array([[2.0, 1.0], [0.0, -3.0]]))
    array([[ 1. ,  0.4],
           [ 0. , -1. ]])
    >>> np.round(fg.grad(lambda a: fsl.signm(a)[0, 1])(np.array([[2.0, 1.0], [0.0, -3.0]])),
    ...          12)
    array([[-0.08 ,  0.4  ],
           [-0.032,  0.08 ]])
    """
    if is_plain(A):
        import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
        return scipy.linalg.signm(A) if disp else scipy.linalg.signm(A, disp=False)
    a = _square("signm", A)
    out, _ = _through_eig("signm", a, lambda w: fnp.astype(fnp.sign(fnp.real(w)), w.dtype),
                          _check_sign_defined)
    if disp:
        return out
    err = concrete_values(fnp.stop_gradient(out), "signm(disp=False)", "")
    return out, float(np.linalg.norm(err @ err - np.eye(len(err)), 1))


def _check_power(values):
    if np.any(values == 0):
        raise ValueError("fractional_matrix_power: the matrix is singular (an eigenvalue is "
                         "0), where a fractional power has no derivative; call it on plain "
                         "values for SciPy's result")


def _power(w, t):
    return w ** t


@over_batch(("A", 2))
def fractional_matrix_power(A: ArrayLike, t: Any) -> Array:
    """``A ** t``, the principal fractional power (``scipy.linalg.fractional_matrix_power``):
    ``matrix_power`` for an integer ``t`` (a plain number), else ``V w^t V^-1`` through
    the eigendecomposition.  As SciPy's, the result is real for a real ``A`` whose
    eigenvalues are all positive, complex otherwise.  Differentiable in ``A`` and in ``t``
    (for a diagonalizable, nonsingular ``A``); on plain arrays SciPy's own values.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> np.round(fsl.fractional_matrix_power(np.array([[4.0, 0.0], [0.0, 9.0]]), 0.5), 12)
    array([[2., 0.],
           [0., 3.]])
    >>> f = lambda t: fsl.fractional_matrix_power(np.diag([1.0, np.e]), t)[1, 1]  # e^t
    >>> round(float(fg.grad(f)(2.0)), 12)
    7.389056098931
    """
    if is_plain(A, t):
        import scipy.linalg
        return scipy.linalg.fractional_matrix_power(A, t)
    a = _square("fractional_matrix_power", A)
    if a.ndim != 2:
        raise ValueError(f"fractional_matrix_power: expected a square matrix, got shape "
                         f"{a.shape}")
    if is_plain(t) and np.ndim(t) == 0 and float(t) == int(t):
        return fnp.linalg.matrix_power(asarray(A), int(t))
    real_out = False
    if a.dtype.kind != "c":
        values = concrete_values(
            a, "fractional_matrix_power of a real matrix (whose result is real or complex, "
            "as its eigenvalues decide)", "Pass a complex matrix (a.astype(complex)).")
        w = np.linalg.eigvals(values)
        real_out = bool(np.all((w.imag == 0) & (w.real > 0)))
    out, _ = _through_eig("fractional_matrix_power", a, _power, _check_power,
                          maybe_real=False, params=(asarray(t),))
    return fnp.real(out) if real_out else out


# --- the Fréchet derivative of expm --------------------------------------------------------------

@over_batch(("A", 2), ("E", 2))
def expm_frechet(A: ArrayLike, E: ArrayLike, method: Optional[str] = None,
                 compute_expm: bool = True, check_finite: bool = True
                 ) -> Union[Array, tuple[Array, Array]]:
    """``(expm(A), L(A, E))``, the matrix exponential and its Fréchet derivative at ``A``
    along ``E`` (``scipy.linalg.expm_frechet``; ``compute_expm=False``: ``L`` alone).
    ``L`` is the JVP of :func:`expm` (see the module docstring), differentiable again in
    both arguments.  ``method`` 'SPS' (default) and 'blockEnlarge' give the same values.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> a, e = np.diag([0.0, 1.0]), np.eye(2)
    >>> round(float(fsl.expm_frechet(a, e, compute_expm=False)[1, 1]), 12)  # e^1
    2.718281828459
    """
    if method not in (None, "SPS", "blockEnlarge"):
        raise ValueError(f"expm_frechet: unknown method {method!r}; use 'SPS' or "
                         f"'blockEnlarge'")
    a, e = as_float(A), as_float(E)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"expm_frechet: expected A to be a square matrix, got {a.shape}")
    if e.ndim != 2 or e.shape[0] != e.shape[1]:
        raise ValueError(f"expm_frechet: expected E to be a square matrix, got {e.shape}")
    if a.shape != e.shape:
        raise ValueError(f"expm_frechet: expected A and E to have one shape, got {a.shape} "
                         f"and {e.shape}")
    dtype = np.result_type(a.dtype, e.dtype)
    value, frechet = jvp(expm, (fnp.astype(a, dtype),), (fnp.astype(e, dtype),))
    return (value, frechet) if compute_expm else frechet


@over_batch(("A", 2))
def expm_cond(A: ArrayLike, check_finite: bool = True) -> Array:
    """The relative condition number of the matrix exponential in the Frobenius norm
    (``scipy.linalg.expm_cond``): ``|K|_2 |A|_F / |expm(A)|_F`` with ``K`` the Kronecker
    form of the Fréchet derivative (built from ``n^2`` JVPs: for small matrices).
    Differentiable where ``K``'s largest singular value is simple.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> round(float(fsl.expm_cond(np.diag([1.0, 2.0]))), 12)
    2.098567461362
    """
    a = as_float(A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"expm_cond: expected a square matrix, got shape {a.shape}")
    n = a.shape[0]
    if n == 0:
        raise ValueError("expm_cond: the matrix is empty (0 x 0); it has no condition number")
    columns = []
    for j in range(n):  # SciPy's column order (vec stacks columns); the 2-norm ignores it
        for i in range(n):
            unit = np.zeros((n, n), a.dtype)
            unit[i, j] = 1
            value, frechet = jvp(expm, (a,), (unit,))
            columns.append(fnp.ravel(fnp.swapaxes(frechet, 0, 1)))
    k = fnp.stack(columns, axis=1)
    big = fnp.linalg.svd(k, compute_uv=False)[0]
    return big * fnp.linalg.norm(a, "fro") / fnp.linalg.norm(value, "fro")

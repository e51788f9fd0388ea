"""More of ``funcgrad.scipy.linalg``'s matrix functions (re-exported there), written with
:mod:`._matfuncs`' ``expm`` and ``solve_sylvester``, so that they differentiate through
them:

* ``cosm``, ``sinm``, ``tanm``, ``coshm``, ``sinhm``, ``tanhm``: from ``expm(i A)`` and
  ``expm(+-A)``, as SciPy's (a real ``A`` gives a real result);
* ``expm_frechet``: the directional derivative of ``expm`` at ``A`` along ``E``, which is
  funcgrad's ``jvp`` of ``expm`` (so it differentiates again, in ``A`` and ``E``);
* ``solve_continuous_lyapunov`` (and SciPy's older name ``solve_lyapunov``) and
  ``solve_discrete_lyapunov``: Sylvester-type equations, solved in their Kronecker form
  (``n**2`` unknowns: meant for small matrices, as ``solve_sylvester``).
"""
from typing import Optional, Union

import numpy as np

from .. import numpy as fnp
from ..api import jvp
from ..numpy._convert import asarray
from ..primitives import linalg as _la
from ..typing import Array, ArrayLike
from ._matfuncs import expm, solve_sylvester

__all__ = ["cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm", "expm_frechet",
           "solve_continuous_lyapunov", "solve_lyapunov", "solve_discrete_lyapunov"]


def _square(name, a):
    a = asarray(a)
    if a.dtype.kind in "biu":
        a = fnp.astype(a, np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"{name}: expected a square matrix, got shape {a.shape}")
    return a


def _real_for_real(a, out):
    """SciPy's convention: a real matrix gives a real result."""
    return fnp.real(out) if a.dtype.kind != "c" else out


def cosm(A: ArrayLike) -> Array:
    """The matrix cosine ``(expm(iA) + expm(-iA)) / 2`` (``scipy.linalg.cosm``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.cosm(np.zeros((2, 2)))
    array([[1., 0.],
           [0., 1.]])
    """
    a = _square("cosm", A)
    if a.dtype.kind != "c":
        return fnp.real(expm(a * 1j))
    return (expm(a * 1j) + expm(a * -1j)) * 0.5


def sinm(A: ArrayLike) -> Array:
    """The matrix sine ``(expm(iA) - expm(-iA)) / 2i`` (``scipy.linalg.sinm``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.sinm(np.zeros((2, 2)))
    array([[0., 0.],
           [0., 0.]])
    """
    a = _square("sinm", A)
    if a.dtype.kind != "c":
        return fnp.imag(expm(a * 1j))
    return (expm(a * 1j) - expm(a * -1j)) * -0.5j


def tanm(A: ArrayLike) -> Array:
    """The matrix tangent ``cosm(A)^-1 sinm(A)`` (``scipy.linalg.tanm``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> np.round(fsl.tanm(np.diag([0.5, 1.0])), 6)
    array([[0.546302, 0.      ],
           [0.      , 1.557408]])
    """
    a = _square("tanm", A)
    return _la.solve(cosm(a), sinm(a))


def coshm(A: ArrayLike) -> Array:
    """The hyperbolic matrix cosine ``(expm(A) + expm(-A)) / 2`` (``scipy.linalg.coshm``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.coshm(np.zeros((2, 2)))
    array([[1., 0.],
           [0., 1.]])
    """
    a = _square("coshm", A)
    return (expm(a) + expm(-a)) * 0.5


def sinhm(A: ArrayLike) -> Array:
    """The hyperbolic matrix sine ``(expm(A) - expm(-A)) / 2`` (``scipy.linalg.sinhm``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.sinhm(np.zeros((2, 2)))
    array([[0., 0.],
           [0., 0.]])
    """
    a = _square("sinhm", A)
    return (expm(a) - expm(-a)) * 0.5


def tanhm(A: ArrayLike) -> Array:
    """The hyperbolic matrix tangent ``coshm(A)^-1 sinhm(A)`` (``scipy.linalg.tanhm``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> np.round(fsl.tanhm(np.diag([0.5, 1.0])), 6)
    array([[0.462117, 0.      ],
           [0.      , 0.761594]])
    """
    a = _square("tanhm", A)
    return _la.solve(coshm(a), sinhm(a))


def expm_frechet(A: ArrayLike, E: ArrayLike, method: Optional[str] = None,
                 compute_expm: bool = True, check_finite: bool = True
                 ) -> Union[Array, tuple[Array, Array]]:
    """The Fréchet derivative of ``expm`` at ``A`` along ``E``, with ``expm(A)`` first
    unless ``compute_expm=False`` (``scipy.linalg.expm_frechet``): funcgrad's ``jvp`` of
    :func:`expm`, so differentiable in ``A`` and ``E`` (``method`` is accepted and
    unused; the derivative is that of ``expm``'s Padé approximant).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.expm_frechet(np.zeros((2, 2)), np.eye(2), compute_expm=False)
    array([[1., 0.],
           [0., 1.]])
    """
    if method not in (None, "SPS", "blockEnlarge"):
        raise ValueError(f"expm_frechet: unknown method {method!r}; use 'SPS' or "
                         f"'blockEnlarge' (funcgrad computes the same derivative either way)")
    a, e = _square("expm_frechet", A), _square("expm_frechet", E)
    if a.shape != e.shape:
        raise ValueError(f"expm_frechet: A and E must have the same shape, got {a.shape} and "
                         f"{e.shape}")
    dtype = np.result_type(a.dtype, e.dtype)
    value, frechet = jvp(expm, (fnp.astype(a, dtype),), (fnp.astype(e, dtype),))
    return (value, frechet) if compute_expm else frechet


def solve_continuous_lyapunov(a: ArrayLike, q: ArrayLike) -> Array:
    """``X`` with ``a @ X + X @ a^H == q`` (``scipy.linalg.solve_continuous_lyapunov``):
    ``solve_sylvester(a, a^H, q)``, differentiable in ``a`` and ``q``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.solve_continuous_lyapunov(-np.eye(2), -2 * np.eye(2)) + 0.0  # (no -0.0)
    array([[1., 0.],
           [0., 1.]])
    """
    a = _square("solve_continuous_lyapunov", a)
    return solve_sylvester(a, fnp.conj(fnp.swapaxes(a, 0, 1)), q)


solve_lyapunov = solve_continuous_lyapunov  # (SciPy's older name, still exported)


def solve_discrete_lyapunov(a: ArrayLike, q: ArrayLike, method: Optional[str] = None) -> Array:
    """``X`` with ``a @ X @ a^H - X + q == 0`` (``scipy.linalg.solve_discrete_lyapunov``):
    ``(I - a ⊗ conj(a)) vec(X) = vec(q)``, differentiable in ``a`` and ``q``.  ``method``
    (SciPy's ``'direct'`` or ``'bilinear'``) is checked; this is always the direct
    Kronecker solve (``n**2`` unknowns: for small matrices).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.solve_discrete_lyapunov(0.5 * np.eye(2), 0.75 * np.eye(2))
    array([[1., 0.],
           [0., 1.]])
    """
    if method not in (None, "direct", "bilinear"):
        raise ValueError(f"solve_discrete_lyapunov: unknown method {method!r}; use 'direct' "
                         f"or 'bilinear'")
    a = _square("solve_discrete_lyapunov", a)
    q = asarray(q)
    n = a.shape[0]
    if q.shape != (n, n):
        raise ValueError(f"solve_discrete_lyapunov: q must have shape {(n, n)} for a "
                         f"{a.shape}, got {q.shape}")
    dtype = np.result_type(a.dtype, q.dtype, np.float64 if q.dtype.kind in "biu" else q.dtype)
    a, q = fnp.astype(a, dtype), fnp.astype(q, dtype)
    # (row-major vec: vec(a X a^H) = (a ⊗ conj(a)) vec(X))
    big = np.eye(n * n, dtype=dtype) - fnp.kron(a, fnp.conj(a))
    return fnp.reshape(_la.solve(big, fnp.reshape(q, (n * n,))), (n, n))

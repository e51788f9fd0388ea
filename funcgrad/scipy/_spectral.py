"""``scipy.linalg``'s ``eig``, ``schur`` and ``pinvh``, composed of funcgrad's
differentiable operations (no new primitives).

* ``eig``: on plain arrays SciPy's own result.  On traced values the eigenvalues and right
  eigenvectors are :func:`funcgrad.numpy.linalg.eig`'s (PyTorch's and JAX's derivative
  conventions), of ``solve(b, a)`` for the generalized problem; the left eigenvectors are
  the rows of ``V^-1`` conjugated (times ``b^-H`` for the generalized problem), scaled to
  unit norm.  Where the values are known
  (not under ``vmap``/``jit``) the order and phases are set to SciPy's by constant factors
  (``stop_gradient``: a phase is not determined, so this changes no derivative of a
  function that does not depend on it).  Under ``vmap``/``jit`` only ``b=None`` and
  ``left=False`` are taken: otherwise the order (``ggev``'s) and the phases of the left
  vectors are LAPACK's choices, known only from the values.
* ``schur``: values only.  Neither JAX nor PyTorch defines its derivative (the Schur
  vectors are not unique, and the real form jumps where eigenvalues meet), so traced
  inputs raise, naming the differentiable alternatives.
* ``pinvh``: ``U diag(1/w) U^H`` over the eigenvalues above SciPy's cutoff, through
  ``eigh``: differentiable where the rank is locally constant.
"""
import functools
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._linalg_tools import as_float, over_batch

__all__ = ["eig", "schur", "pinvh"]



def _square(name, a, what="a"):
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"{name}: expected a square matrix for {what}, got shape {a.shape}")


def _unit_columns(v):
    return v / fnp.sqrt(fnp.sum(fnp.abs(v) ** 2, axis=0))


def _phases(ours, theirs):
    """Constant factors turning each column of ``ours`` into the one of ``theirs`` (they
    differ by a phase: a sign for real vectors)."""
    inner = np.sum(np.conj(ours) * theirs, axis=0)
    if np.iscomplexobj(ours):
        return inner / np.maximum(np.abs(inner), np.finfo(float).tiny)
    return np.where(inner.real < 0, -1.0, 1.0).astype(ours.dtype)


def _order(ours, theirs):
    """The permutation of ``ours`` (eigenvalues) nearest to ``theirs``."""
    free = np.ones(len(ours), bool)
    perm = []
    for w in theirs:
        gap = np.where(free, np.abs(ours - w), np.inf)
        i = int(np.argmin(gap))
        free[i] = False
        perm.append(i)
    return np.array(perm, np.intp)


@over_batch(("a", 2), ("b", 2))
def eig(a: ArrayLike, b: Optional[ArrayLike] = None, left: bool = False, right: bool = True,
        overwrite_a: bool = False, overwrite_b: bool = False, check_finite: bool = True,
        homogeneous_eigvals: bool = False) -> Union[Array, tuple[Array, ...]]:
    """Eigenvalues (complex, as SciPy's) and, with ``right``/``left``, unit right
    eigenvectors ``a @ vr = vr * w`` and left ones ``vl^H @ a = w * vl^H``
    (``scipy.linalg.eig``); with ``b``, the generalized problem ``a @ vr = b @ vr * w``.

    Derivatives as :func:`funcgrad.numpy.linalg.eig` (see the module docstring): only
    functions that do not depend on the phase of each vector (``abs(vr)``,
    ``vr[:, i:i+1] * vl[:, i:i+1].conj().T``, the eigenvalues) have them.  Under
    ``vmap``/``jit``: ``b=None`` and ``left=False`` only, and a real ``a`` is taken to have
    real eigenvalues (pass ``a.astype(complex)`` there otherwise).  The left vectors are
    unit vectors always (SciPy leaves the generalized problem's unnormalized past the
    first when ``right=False``).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> fsl.eig(np.array([[2.0, 0.0], [0.0, 3.0]]))[0]
    array([2.+0.j, 3.+0.j])
    >>> a = np.array([[1.0, -2.0], [3.0, 0.5]])
    >>> fg.grad(lambda a: np.sum(np.abs(fsl.eig(a, right=False)) ** 2))(a)
    array([[ 1., -6.],
           [ 4.,  2.]])
    """
    a = as_float(a)
    _square("eig", a)
    if b is not None:
        b = as_float(b)
        _square("eig", b, "b")
        if b.shape != a.shape:
            raise ValueError(f"eig: a and b must have the same shape, got {a.shape} and "
                             f"{b.shape}")
    if all(type(x) is np.ndarray for x in (a, b) if x is not None):  # SciPy's own
        import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
        return scipy.linalg.eig(a, b, left=left, right=right,
                                homogeneous_eigvals=homogeneous_eigvals)
    if homogeneous_eigvals and b is not None:
        raise NotImplementedError(
            "eig: homogeneous_eigvals=True with b returns LAPACK's scaling of (alpha, beta), "
            "which funcgrad does not reproduce; use homogeneous_eigvals=False (w = alpha / "
            "beta)")
    c = a if b is None else fnp.linalg.solve(b, a)
    w, vr = fnp.linalg.eig(c)
    vl = None
    if left:  # y^H c = w y^H for the rows y^H of inv(vr); the pencil's: b^-H y
        vl = fnp.conj(fnp.linalg.inv(vr)).T
        vl = _unit_columns(vl if b is None else fnp.linalg.solve(fnp.conj(b).T, vl))
    known = is_concrete(c)
    if not known and (left or b is not None):
        raise NotImplementedError(
            "eig: under vmap/jit, left=True and the generalized problem (b) are not "
            "supported: the order of the generalized eigenvalues and the phases of the "
            "left eigenvectors are LAPACK's choices, known only from the values. Use "
            "fnp.linalg.eig(solve(b, a)) for the right eigenvectors, and inv(vr) for the "
            "left ones.")
    if known and a.shape[0]:
        import scipy.linalg
        values = [concrete_values(x, "eig", "") for x in (a, b) if x is not None]
        ws, vls, vrs = scipy.linalg.eig(*values, left=True, right=True)
        perm = _order(concrete_values(w, "eig", ""), ws)
        w, vr = w[perm], vr[:, perm]
        vr = vr * _phases(concrete_values(vr, "eig", ""), vrs)
        if left:
            vl = vl[:, perm]
            vl = vl * _phases(concrete_values(vl, "eig", ""), vls)
    w = fnp.astype(w, np.result_type(w.dtype, np.complex64))
    if homogeneous_eigvals:
        w = fnp.stack([w, fnp.ones_like(w)])
    if not (left or right):
        return w
    return (w,) + ((vl,) if vl is not None else ()) + ((vr,) if right else ())


def schur(a: ArrayLike, output: str = "real", lwork: Optional[int] = None,
          overwrite_a: bool = False, sort: Union[None, str, Callable[..., bool]] = None,
          check_finite: bool = True) -> tuple[Any, ...]:
    """Schur decomposition ``a = Z @ T @ Z^H`` (``scipy.linalg.schur``), SciPy's values.
    Not differentiable (see the module docstring): traced inputs raise.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> t, z = fsl.schur(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> t
    array([[1., 2.],
           [0., 3.]])
    """
    if output not in ("real", "complex", "r", "c"):
        raise ValueError(f"schur: output must be 'real' or 'complex', got {output!r}")
    a = asarray(a)
    if type(a) is not np.ndarray:
        raise NotImplementedError(
            "schur: funcgrad has no derivative of the Schur decomposition (nor do JAX and "
            "PyTorch: the Schur vectors are not unique, and the real form changes shape "
            "where eigenvalues meet). Call it on plain arrays, outside grad/jvp/vmap/jit; "
            "for differentiable spectral quantities use eig/eigvals (or eigh for "
            "Hermitian matrices), and qr for orthonormal bases.")
    import scipy.linalg
    return scipy.linalg.schur(a, output=output, lwork=lwork, sort=sort)


def pinvh(a: ArrayLike, atol: Optional[float] = None, rtol: Optional[float] = None,
          lower: bool = True, return_rank: bool = False, check_finite: bool = True
          ) -> Union[Array, tuple[Array, Array]]:
    """Pseudo-inverse of a Hermitian (real: symmetric) matrix read from its ``lower``
    (default) triangle (``scipy.linalg.pinvh``): eigenvalues at most ``atol + rtol *
    max|w|`` count as zero (``atol`` defaults to 0, ``rtol`` to ``n * eps``).  Its
    derivative is exact where the rank is locally constant.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> fsl.pinvh(np.array([[2.0, 0.0], [0.0, 0.0]]))
    array([[0.5, 0. ],
           [0. , 0. ]])
    >>> fg.grad(lambda a: fsl.pinvh(a)[0, 0])(np.array([[2.0, 0.0], [0.0, 0.0]]))
    array([[-0.25,  0.  ],
           [ 0.  ,  0.  ]])
    """
    a = as_float(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"pinvh: expected a square matrix, got shape {a.shape}")
    atol = 0.0 if atol is None else atol
    rtol = a.shape[-1] * np.finfo(a.dtype).eps if rtol is None else rtol
    if atol < 0.0 or rtol < 0.0:
        raise ValueError("pinvh: atol and rtol values must be positive.")
    out = _pinvh(a, lower, atol, rtol)
    if return_rank:  # (the kept eigenvalues, counted on values: no derivative)
        keep = _pinvh_parts(fnp.stop_gradient(a), lower, atol, rtol)[1][2]
        return out, fnp.sum(keep, axis=-1)
    return out


def _pinvh_parts(a, lower, atol, rtol):
    """``(U diag(1/w kept, 0 dropped) U^H, (w, U, keep, 1/w kept))``."""
    w, u = fnp.linalg.eigh(a, UPLO="L" if lower else "U")
    size = fnp.abs(fnp.stop_gradient(w))
    big = fnp.max(size, axis=-1, keepdims=True) if w.shape[-1] else 0.0
    keep = size > atol + big * rtol
    inv_w = fnp.where(keep, 1.0 / fnp.where(keep, w, 1.0), 0.0)
    out = (u * inv_w[..., None, :]) @ fnp.conj(fnp.swapaxes(u, -1, -2))
    return out, (w, u, keep, inv_w)


@functools.partial(custom_jvp, nondiff_argnums=(1, 2, 3))
def _pinvh(a, lower, atol, rtol):
    return _pinvh_parts(a, lower, atol, rtol)[0]


@_pinvh.defjvp
def _pinvh_jvp(lower, atol, rtol, primals, tangents):
    # Daleckii-Krein for f(w) = 1/w on the kept eigenvalues, 0 on the dropped ones (no
    # eigenvalue crosses the cutoff nearby): U (G * (U^H dA U)) U^H, with G[i, j] the
    # divided difference of f, -1/(w_i w_j) for two kept ones (exact at ties too, where
    # going through eigh's own derivative lost the rotation inside a repeated
    # eigenvalue's eigenspace and gave a wrong derivative).
    (a,), (da,) = primals, tangents
    out, (w, u, keep, inv_w) = _pinvh_parts(a, lower, atol, rtol)
    tri = fnp.tril(da, -1) if lower else fnp.triu(da, 1)  # (eigh reads one triangle)
    diag = fnp.real(fnp.diagonal(da, axis1=-2, axis2=-1))
    n = da.shape[-1]
    dh = (tri + fnp.conj(fnp.swapaxes(tri, -1, -2))
          + diag[..., None] * np.eye(n, dtype=diag.dtype))
    uh = fnp.conj(fnp.swapaxes(u, -1, -2))
    ki, kj = keep[..., :, None], keep[..., None, :]
    fi, fj = inv_w[..., :, None], inv_w[..., None, :]
    gap = w[..., :, None] - w[..., None, :]
    across = ki != kj  # one kept, one dropped: |w_i| != |w_j|, so gap != 0
    g = fnp.where(ki & kj, -fi * fj,
                  fnp.where(across, (fi - fj) / fnp.where(across, gap, 1.0), 0.0))
    return out, u @ (g * (uh @ fnp.astype(dh, u.dtype) @ u)) @ uh

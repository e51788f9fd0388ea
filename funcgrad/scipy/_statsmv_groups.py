"""``ortho_group``, ``special_ortho_group``, ``unitary_group`` and
``random_correlation`` of :mod:`funcgrad.scipy.stats` (re-exported there): SciPy's
random matrices, the same draws for the same ``random_state``.

The groups have no parameters but their dimension: their draws are plain NumPy arrays
(SciPy's algorithm: the QR factorization of a normal matrix, the signs of ``R``'s diagonal
moved into ``Q``).  ``random_correlation.rvs(eigs)`` differentiates in ``eigs``: SciPy's
``Q diag(eigs) Q'`` is carried through its Givens rotations to a unit diagonal, each
rotation's cosine and sine a formula of the current matrix (which pair each step turns,
and the signs in the formula, are SciPy's choices on the values, held fixed).
"""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..custom import custom_jvp
from ..typing import Array, ArrayLike
from ._statsmv_common import frozen, known
from ._statsmv_common import random_state as _random_state

__all__ = ["ortho_group", "special_ortho_group", "unitary_group", "random_correlation"]


def _dim(name, dim):
    if (dim is None or not np.isscalar(dim) or isinstance(dim, (bool, str)) or dim < 0
            or dim != int(dim)):
        raise ValueError(f"{name}: dim must be a non-negative integer, got {dim!r}")
    return int(dim)


def _haar(z):
    """``Q`` of ``z = QR`` with the signs of ``R``'s diagonal moved into it."""
    q, r = np.linalg.qr(z)
    d = r.diagonal(offset=0, axis1=-2, axis2=-1)
    return q * (d / abs(d))[..., np.newaxis, :]


class _group:
    """A random matrix group: ``rvs(dim, size=1, random_state=None)`` and the frozen
    ``group(dim, seed)``."""

    name = ""

    def __call__(self, dim: Optional[int] = None, seed: Any = None) -> frozen:
        """The distribution with ``dim`` fixed, as SciPy's ``<group>(dim, seed)``."""
        return frozen(self, (_dim(self.name, dim),), seed)

    def __repr__(self) -> str:
        return f"<funcgrad.scipy.stats.{self.name}>"


class _ortho_group(_group):
    """``ortho_group.rvs(dim, size=1, random_state=None)``: Haar-distributed orthogonal
    matrices (O(N)), SciPy's draws; no parameters to differentiate.

    >>> q = ortho_group.rvs(3, random_state=0)
    >>> bool(np.allclose(q @ q.T, np.eye(3)))
    True
    """

    name = "ortho_group"

    def rvs(self, dim: int, size: int = 1, random_state: Any = None) -> Array:
        """``size`` matrices (one, ``(dim, dim)``, for ``size=1``)."""
        rng = _random_state(random_state)
        size = int(size)
        dim = _dim(self.name, dim)
        return _haar(rng.normal(size=((size,) if size > 1 else ()) + (dim, dim)))


class _special_ortho_group(_group):
    """``special_ortho_group.rvs(dim, size=1, random_state=None)``: Haar-distributed
    rotations (SO(N)), SciPy's draws (``ortho_group``'s, the first row divided by the
    determinant); no parameters to differentiate.

    >>> round(float(np.linalg.det(special_ortho_group.rvs(3, random_state=0))), 12)
    1.0
    """

    name = "special_ortho_group"

    def rvs(self, dim: int, size: int = 1, random_state: Any = None) -> Array:
        """``size`` matrices (one, ``(dim, dim)``, for ``size=1``)."""
        q = ortho_group.rvs(_dim(self.name, dim), size, _random_state(random_state))
        if dim:
            q[..., 0, :] /= np.linalg.det(q)[..., np.newaxis]
        return q


class _unitary_group(_group):
    """``unitary_group.rvs(dim, size=1, random_state=None)``: Haar-distributed unitary
    matrices (U(N)), SciPy's draws; no parameters to differentiate.

    >>> u = unitary_group.rvs(2, random_state=0)
    >>> bool(np.allclose(u @ u.conj().T, np.eye(2)))
    True
    """

    name = "unitary_group"

    def rvs(self, dim: int, size: int = 1, random_state: Any = None) -> Array:
        """``size`` matrices (one, ``(dim, dim)``, for ``size=1``)."""
        rng = _random_state(random_state)
        size = int(size)
        shape = ((size,) if size > 1 else ()) + (_dim(self.name, dim),) * 2
        return _haar(1 / math.sqrt(2) * (rng.normal(size=shape) + 1j * rng.normal(size=shape)))


_FLAT = 1e-12


@custom_jvp
def _without_derivative(value, discriminant):
    return value


@_without_derivative.defjvp
def _without_derivative_jvp(primals, tangents):
    raise NotImplementedError(
        "random_correlation.rvs: a Givens rotation of this draw is degenerate (a diagonal "
        "entry already 1, or a vanishing discriminant: the matrix is nearly the identity, "
        "e.g. eigs all 1), where the rotation jumps as eigs move: no derivative in eigs "
        "there; differentiate at other eigenvalues")


def _givens(aii, ajj, aij, values):
    """SciPy's ``_givens_to_1``: ``(c, s)`` of the rotation putting 1 at ``(i, i)``,
    from the traced entries, with SciPy's branches taken on their ``values``."""
    vii, vjj, vij = values
    if vjj - 1.0 == 0:  # (ajj = 1: the swap, whose neighbours rotate instead)
        return _without_derivative(0.0 * ajj, ajj), 1.0
    discriminant = fnp.square(aij) - (aii - 1.0) * (ajj - 1.0)
    if vij ** 2 - (vii - 1.0) * (vjj - 1.0) > _FLAT:
        root = fnp.sqrt(discriminant)
    else:  # (SciPy's value; the square root's slope is unbounded there)
        root = _without_derivative(fnp.sqrt(fnp.maximum(fnp.stop_gradient(discriminant), 0.0)),
                                   discriminant)
    t = (aij + math.copysign(1.0, vij) * root) / (ajj - 1.0)
    c = 1.0 / fnp.sqrt(1.0 + t * t)
    if float(np.asarray(fnp.stop_gradient(c))) == 0:
        return c, 1.0  # (underflow, as SciPy)
    return c, c * t


def _to_correlation(m):
    """SciPy's ``_to_corr``: Givens rotations ``m <- G' m G`` until the diagonal is 1."""
    d = m.shape[0]
    for i in range(d - 1):
        values = np.asarray(fnp.stop_gradient(m))
        if values[i, i] == 1:  # (no rotation here, one nearby: no derivative)
            m = _without_derivative(m, m)
            continue
        j = d - 1  # (SciPy's loop leaves j at the last index when nothing breaks it)
        for j in range(i + 1, d):
            if (values[j, j] < 1) if values[i, i] > 1 else (values[j, j] > 1):
                break
        c, s = _givens(m[i, i], m[j, j], m[i, j], (values[i, i], values[j, j], values[i, j]))
        basis = np.zeros((4, d, d))
        basis[0] = np.eye(d)
        basis[0, i, i] = basis[0, j, j] = 0.0
        basis[1, i, i] = basis[1, j, j] = 1.0
        basis[2, i, j] = 1.0
        basis[3, j, i] = 1.0
        g = basis[0] + c * basis[1] + s * (basis[2] - basis[3])
        m = fnp.swapaxes(g, 0, 1) @ m @ g
    return m


class _random_correlation:
    """``random_correlation.rvs(eigs, random_state=None, tol=1e-13, diag_tol=1e-7)``: a
    random correlation matrix with eigenvalues ``eigs`` (which sum to their count), SciPy's
    draw for the same ``random_state``, differentiable in ``eigs`` (see
    :mod:`funcgrad.scipy._statsmv_groups`).

    >>> import numpy as np
    >>> c = random_correlation.rvs(np.array([0.5, 1.0, 1.5]), random_state=0)
    >>> np.round(np.diag(c), 12)
    array([1., 1., 1.])
    """

    name = "random_correlation"

    @staticmethod
    def _eigs(eigs, tol):
        eigs = fnp.asarray(eigs)
        eigs = fnp.asarray(eigs, eigs.dtype if eigs.dtype.kind == "f" else np.float64)
        dim = eigs.shape[0] if eigs.ndim == 1 else 0
        if eigs.ndim != 1 or dim <= 1:
            raise ValueError(f"random_correlation: eigs must be a vector of length greater "
                             f"than 1; got shape {tuple(eigs.shape)}")
        values = known(eigs)
        if values is None:
            raise ValueError("random_correlation: the draw's rotations are chosen on the "
                             "values of eigs; call it outside vmap and jit")
        if abs(np.sum(values) - dim) > tol:
            raise ValueError(f"random_correlation: the eigenvalues must sum to their count "
                             f"({dim}); they sum to {np.sum(values)}")
        if np.any(values < -tol):
            raise ValueError("random_correlation: all eigenvalues must be non-negative")
        return dim, eigs

    def rvs(self, eigs: ArrayLike, random_state: Any = None, tol: float = 1e-13,
            diag_tol: float = 1e-7) -> Array:
        """One ``(d, d)`` correlation matrix; ``RuntimeError`` (SciPy's) where the
        rotations leave a diagonal entry further than ``diag_tol`` from 1."""
        dim, eigs = self._eigs(eigs, tol)
        q = ortho_group.rvs(dim, random_state=_random_state(random_state))
        m = _to_correlation((q * eigs) @ q.T)
        if np.abs(np.diag(np.asarray(fnp.stop_gradient(m))) - 1).max() > diag_tol:
            raise RuntimeError("random_correlation: failed to generate a valid correlation "
                               "matrix (the diagonal is not 1 within diag_tol)")
        return m

    def __call__(self, eigs: ArrayLike, seed: Any = None, tol: float = 1e-13,
                 diag_tol: float = 1e-7) -> "_frozen_correlation":
        """The distribution with ``eigs`` fixed, as SciPy's ``random_correlation(eigs,
        seed, tol, diag_tol)``."""
        self._eigs(eigs, tol)
        return _frozen_correlation(self, eigs, seed, tol, diag_tol)

    def __repr__(self) -> str:
        return "<funcgrad.scipy.stats.random_correlation>"


class _frozen_correlation(frozen):
    """A frozen ``random_correlation``: ``rvs(random_state=None)``.

    >>> import numpy as np
    >>> random_correlation(np.array([0.5, 1.5]), seed=1).rvs().shape
    (2, 2)
    """

    def __init__(self, dist: Any, eigs: Any, seed: Any, tol: float, diag_tol: float) -> None:
        super().__init__(dist, (eigs,), seed)
        self._tolerances = {"tol": tol, "diag_tol": diag_tol}

    def rvs(self, random_state: Any = None) -> Array:  # type: ignore[override]
        rng = self._random_state if random_state is None else random_state
        return self.dist.rvs(*self.args, random_state=rng, **self._tolerances)


ortho_group = _ortho_group()
special_ortho_group = _special_ortho_group()
unitary_group = _unitary_group()
random_correlation = _random_correlation()

"""``funm_multiply_krylov``: SciPy's restarted Krylov method for ``f(t A) b`` (Afanasjew,
Eiermann, Ernst and Guettel), written with funcgrad's operations so that it
differentiates.  Each cycle builds ``m`` Arnoldi (or, for a Hermitian ``A``, Lanczos)
vectors by products with ``A`` (a sparse array is never densified) and applies ``f`` to
the small Hessenberg matrix of all cycles so far; the cycles stop on SciPy's test, read
from the concrete values (so this runs under ``grad``/``jvp``, not under ``jit``).

The derivative is that of the iteration, which converges to the derivative of ``f(t A) b``
with the value (every step is smooth while the Krylov space grows): it reaches ``A``
(its stored values, or whatever a LinearOperator closes over), ``b`` and ``t``, and ``f``
must be written with funcgrad's operations (``funcgrad.scipy.linalg.expm``, products...).
Where the Krylov space of ``b`` is invariant before it fills the space (an exact
breakdown), the iteration no longer sees the directions out of it, so the derivative is
refused there with an error; SciPy's own code fails at that point too (an IndexError or a
shape error), and funcgrad returns the exact value.
"""
from typing import Any, Callable, Optional

import numpy as np

from ... import numpy as fnp
from ...core import Tracer, concrete
from ...numpy._convert import asarray
from ._arrays_base import segment_sum
from ._krylov import _operator

__all__ = ["funm_multiply_krylov"]


def _dot(u, v):
    """SciPy's ``vdot`` (conjugating ``u``) for complex vectors, ``dot`` for real ones."""
    return fnp.sum(fnp.conj(u) * v) if u.dtype.kind == "c" else fnp.sum(u * v)


def _norm(v):
    return fnp.sqrt(fnp.real(_dot(v, v)))


def _value(x):
    return float(np.abs(np.asarray(concrete(x))))


class _Krylov:
    """The basis vectors of the current cycle and every entry of the Hessenberg matrix."""

    def __init__(self, matvec, dtype, hermitian, size):
        self.matvec, self.dtype, self.hermitian = matvec, dtype, hermitian
        self.tol = float(np.finfo(dtype).eps) ** 2
        self.entries = []  # (i, j, value) of H
        self.size = size

    def cycle(self, start, scale, m, offset):
        """Arnoldi/Lanczos from ``start / scale``: ``(broke down, steps, vectors)``, H's
        entries appended at rows/columns from ``offset``."""
        vectors = [start / scale]
        for k in range(m):
            w = self.matvec(vectors[k])
            w = fnp.astype(asarray(w), self.dtype)
            if self.hermitian:
                if k > 0:
                    w = w - self._last_subdiagonal * vectors[k - 1]
                h = _dot(w, vectors[k])
                w = w - h * vectors[k]
                self.entries.append((offset + k, offset + k, h))
            else:
                for i in range(k + 1):
                    h = _dot(vectors[i], w)
                    w = w - h * vectors[i]
                    self.entries.append((offset + i, offset + k, h))
            below = _norm(w)
            if _value(below) < self.tol:
                return True, k, vectors
            self.entries.append((offset + k + 1, offset + k, below))
            if self.hermitian and k < m - 1:
                self.entries.append((offset + k, offset + k + 1, below))
            self._last_subdiagonal = below
            vectors.append(w / below)
        return False, m, vectors

    def hessenberg(self, end):
        """The leading ``end`` by ``end`` block of H."""
        kept = [(i, j, v) for i, j, v in self.entries if i < end and j < end]
        if not kept:
            return fnp.zeros((end, end), self.dtype)
        flat = np.array([i * end + j for i, j, _ in kept])
        values = fnp.stack([fnp.astype(v, self.dtype) for _, _, v in kept])
        return fnp.reshape(segment_sum(values, flat, end * end), (end, end))


def funm_multiply_krylov(f: Callable[..., Any], A: Any, b: Any, *,
                         assume_a: str = "general", t: Any = 1.0, atol: float = 0.0,
                         rtol: float = 1e-6, restart_every_m: Optional[int] = None,
                         max_restarts: int = 20) -> Any:
    """``f(t A) @ b`` by SciPy's restarted Krylov method
    (``scipy.sparse.linalg.funm_multiply_krylov``), by products with ``A`` (a sparse
    array, dense matrix or LinearOperator); differentiable in ``A``, ``b`` and ``t`` when
    ``f`` is written with funcgrad's operations (see the module's docstring).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> from funcgrad.scipy.linalg import expm
    >>> A = fsparse.csr_array(np.array([[3.0, 2.0, 0.0], [1.0, -1.0, 0.0], [0.0, 5.0, 1.0]]))
    >>> b = np.array([2.0, 4.0, -1.0])
    >>> np.round(fsparse.linalg.funm_multiply_krylov(expm, A, b, t=0.1), 6)
    array([3.616491, 3.884215, 0.960735])
    >>> g = fg.grad(lambda b: fsparse.linalg.funm_multiply_krylov(expm, A, b, t=0.1)[0])(b)
    >>> np.round(g[:2], 6)  # the first row of expm(0.1 A)
    array([1.361743, 0.223251])
    """
    name = "scipy.sparse.linalg.funm_multiply_krylov"
    if assume_a not in {"hermitian", "general", "her", "gen"}:
        raise ValueError(f"{name}: {assume_a} is not a recognized matrix structure")
    hermitian = assume_a in ("her", "hermitian")
    b = asarray(b)
    if b.ndim != 1:
        raise ValueError(f"{name}: argument 'b' must be a 1D array.")
    n = b.shape[0]
    m = int(min(20, n) if restart_every_m is None else restart_every_m)
    max_restarts = int(max_restarts)
    if m <= 0:
        raise ValueError(f"{name}: argument 'restart_every_m' must be positive.")
    if max_restarts <= 0:
        raise ValueError(f"{name}: argument 'max_restarts' must be positive.")
    max_restarts = min(max_restarts, int(n / m) + 1)
    matvec = _operator("funm_multiply_krylov", "A", A)
    a_dtype = getattr(A, "dtype", np.float64)
    dtype = np.result_type(a_dtype, b.dtype)  # (SciPy's np.common_type)
    if dtype.kind not in "fc":
        dtype = np.dtype(np.float64)
    b = fnp.astype(b, dtype)
    bnorm = _norm(b)
    atol = max(float(atol), float(rtol) * _value(bnorm))
    if _value(bnorm) == 0:
        return b
    traced = any(isinstance(x, Tracer) for x in (b, t, A, getattr(A, "data", None)))
    krylov = _Krylov(matvec, dtype, hermitian, n)

    def broke(steps, end):
        if traced and end < n:
            raise NotImplementedError(
                f"{name}: the Krylov space of b is invariant under A after {end} of {n} "
                f"dimensions (an exact breakdown), so the iteration does not see the "
                f"directions out of it and its derivative would be wrong; differentiate "
                f"the dense route, f(t * A.toarray()) @ b, instead")

    breakdown, steps, vectors = krylov.cycle(b, bnorm, m, 0)
    end = steps + 1 if breakdown else steps
    if breakdown:
        broke(steps, end)
    fH = f(t * krylov.hessenberg(end))
    y = bnorm * (fnp.stack(vectors[:end], axis=1) @ fH[:, 0])
    if breakdown:
        return y
    update = _value(bnorm) * float(np.linalg.norm(np.asarray(concrete(fH[:, 0]))))
    restart = 1
    while restart < max_restarts and update > atol:
        begin = restart * m
        breakdown, steps, vectors = krylov.cycle(vectors[m], 1.0, m, begin)
        count = steps + 1 if breakdown else m
        if breakdown:
            broke(steps, begin + count)
        fH = f(t * krylov.hessenberg(begin + count))
        part = fH[begin:begin + count, 0]
        y = y + bnorm * (fnp.stack(vectors[:count], axis=1) @ part)
        if breakdown:
            return y
        update = _value(bnorm) * float(np.linalg.norm(np.asarray(concrete(part))))
        restart += 1
    return y

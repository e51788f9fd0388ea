"""State-space conversions for :mod:`funcgrad.scipy.signal` (re-exported there):
``abcd_normalize``, ``tf2ss``, ``ss2tf``, ``zpk2ss``, ``ss2zpk`` and ``cont2discrete``,
with SciPy's signatures and values.

All are written with funcgrad operations, so they differentiate in the coefficients and
matrices (and in ``dt`` for ``cont2discrete``).  ``tf2ss`` is the controller canonical
form (SciPy's): the companion matrix of the normalised denominator.  ``ss2tf`` takes the
characteristic polynomials ``det(sI - A)`` and ``det(sI - A + B C_k)`` through
``funcgrad.numpy.poly`` (NumPy's eigenvalue route on plain matrices, the
Faddeev-LeVerrier recursion on traced ones: no eigenvalues, so it traces under ``jit``
and ``vmap``).  ``zpk2ss`` and ``ss2zpk`` go through the transfer function as SciPy's
do; ``ss2zpk``'s roots need concrete values (``funcgrad.numpy.roots``: exact derivative
at simple roots).  ``cont2discrete`` uses ``funcgrad.scipy.linalg.expm`` of SciPy's
augmented matrices ('zoh', 'foh', 'impulse') or linear solves (the generalised bilinear
family).

Unlike SciPy, which mixes float64 zero blocks into float32 systems, float32 inputs give
float32 matrices throughout (the design rule: float32 stays float32).
"""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._matfuncs import expm
from ._signalmore_lti import normalize, tf2zpk, zpk2tf

__all__ = ["abcd_normalize", "tf2ss", "ss2tf", "zpk2ss", "ss2zpk", "cont2discrete"]


def _floating(x: Any) -> Any:
    x = asarray(x)
    return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x


def abcd_normalize(A: Optional[ArrayLike] = None, B: Optional[ArrayLike] = None,
                   C: Optional[ArrayLike] = None, D: Optional[ArrayLike] = None
                   ) -> tuple[Array, Array, Array, Array]:
    """The state-space matrices as 2-d arrays of consistent shapes
    (``scipy.signal.abcd_normalize``): a missing (``None`` or empty) matrix becomes zeros
    of the size the others imply; shapes that disagree raise ``ValueError``.

    >>> import funcgrad.scipy.signal as fss
    >>> A, B, C, D = fss.abcd_normalize(A=[[1.0, 2.0], [3.0, 4.0]], B=[[1.0], [0.0]], C=[[1.0, 0.0]])
    >>> D
    array([[0.]])
    """
    if A is None and B is None and C is None:
        raise ValueError("Dimension n is undefined for parameters A = B = C = None!")
    if B is None and D is None:
        raise ValueError("Dimension p is undefined for parameters B = D = None!")
    if C is None and D is None:
        raise ValueError("Dimension q is undefined for parameters C = D = None!")
    matrices: list[Any] = [fnp.atleast_2d(asarray(M)) if M is not None else np.zeros((0, 0))
                           for M in (A, B, C, D)]
    a, b, c, d = matrices
    for name, M in zip("ABCD", matrices):
        if M.ndim != 2:
            raise ValueError(f"Parameter {name} must be at most 2-d, got shape {M.shape}")
    n = a.shape[0] or b.shape[0] or c.shape[1] or 0
    p = b.shape[1] or d.shape[1] or 0
    q = c.shape[0] or d.shape[0] or 0
    a = np.zeros((n, n)) if a.size == 0 else a
    b = np.zeros((n, p)) if b.size == 0 else b
    c = np.zeros((q, n)) if c.size == 0 else c
    d = np.zeros((q, p)) if d.size == 0 else d
    for name, M, shape in (("A", a, (n, n)), ("B", b, (n, p)), ("C", c, (q, n)),
                           ("D", d, (q, p))):
        if tuple(M.shape) != shape:
            raise ValueError(f"Parameter {name} has shape {tuple(M.shape)} but should be "
                             f"{shape}!")
    return a, b, c, d


def tf2ss(num: ArrayLike, den: ArrayLike) -> tuple[Array, Array, Array, Array]:
    """The state-space form ``(A, B, C, D)`` of the transfer function ``num / den``
    (``scipy.signal.tf2ss``), the controller canonical form; ``num`` may be 2-d (one
    numerator per output).  Differentiable in both.

    >>> import funcgrad.scipy.signal as fss
    >>> A, B, C, D = fss.tf2ss([1.0, 3.0, 3.0], [1.0, 2.0, 1.0])
    >>> A, B, C, D
    (array([[-2., -1.],
           [ 1.,  0.]]), array([[1.],
           [0.]]), array([[1., 2.]]), array([[1.]]))
    """
    num, den = normalize(num, den)
    if num.ndim == 1:
        num = num[None, :]
    M, K = num.shape[1], den.shape[0]
    if M > K:
        raise ValueError("Improper transfer function. `num` is longer than `den`.")
    dtype = np.result_type(num.dtype, den.dtype)
    if M == 0 or K == 0:
        empty = np.array([], float)
        return empty, empty, empty, empty
    num = fnp.concatenate([np.zeros((num.shape[0], K - M), dtype), fnp.astype(num, dtype)],
                          axis=1)
    D = num[:, :1]
    if K == 1:
        return (np.zeros((1, 1), dtype), np.zeros((1, 1), dtype),
                np.zeros((num.shape[0], 1), dtype), D)
    tail = fnp.astype(den[1:], dtype)
    A = fnp.concatenate([-tail[None, :], np.eye(K - 2, K - 1, dtype=dtype)], axis=0)
    B = np.eye(K - 1, 1, dtype=dtype)
    C = num[:, 1:] - num[:, :1] * tail[None, :]
    return A, B, C, D


def _system_matrices(A: Any, B: Any, C: Any, D: Any) -> tuple[Any, Any, Any, Any]:
    A, B, C, D = abcd_normalize(A, B, C, D)
    A, B, C, D = (_floating(M) for M in (A, B, C, D))
    return A, B, C, D


def ss2tf(A: ArrayLike, B: ArrayLike, C: ArrayLike, D: ArrayLike, input: int = 0  # noqa: A002
          ) -> tuple[Array, Any]:
    """The transfer function ``(num, den)`` from input ``input`` of the state-space system
    (``scipy.signal.ss2tf``): ``den = det(sI - A)``, one row of ``num`` per output.
    Differentiable in the four matrices, under ``jit``/``vmap`` too (the characteristic
    polynomials need no eigenvalues; see the module docstring).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> num, den = fss.ss2tf([[-2.0, -1.0], [1.0, 0.0]], [[1.0], [0.0]], [[1.0, 2.0]], [[1.0]])
    >>> np.round(num, 12) + 0.0, np.round(den, 12) + 0.0
    (array([[1., 3., 3.]]), array([1., 2., 1.]))
    """
    a, b, c, d = _system_matrices(A, B, C, D)
    nout, nin = d.shape
    if input >= nin:
        raise ValueError("System does not have the input specified.")
    b, d = b[:, input:input + 1], d[:, input:input + 1]
    den: Any
    try:
        den = fnp.poly(a)
    except ValueError:
        den = 1
    if b.size == 0 and c.size == 0:
        num = fnp.ravel(d)
        if d.size == 0 and a.size == 0:
            den = []
        return num, den
    rows = [fnp.poly(a - b @ c[k:k + 1, :]) + (d[k] - 1) * den for k in range(nout)]
    return fnp.stack(rows), den


def zpk2ss(z: ArrayLike, p: ArrayLike, k: ArrayLike) -> tuple[Array, Array, Array, Array]:
    """The state-space form of the zeros, poles and gain (``scipy.signal.zpk2ss``):
    ``tf2ss(*zpk2tf(z, p, k))``.  Differentiable in all three.

    >>> import funcgrad.scipy.signal as fss
    >>> A, B, C, D = fss.zpk2ss([-1.0], [-2.0, -3.0], 2.0)
    >>> A, C
    (array([[-5., -6.],
           [ 1.,  0.]]), array([[2., 2.]]))
    """
    return tf2ss(*zpk2tf(z, p, k))


def ss2zpk(A: ArrayLike, B: ArrayLike, C: ArrayLike, D: ArrayLike, input: int = 0  # noqa: A002
           ) -> tuple[Array, Array, Any]:
    """The zeros, poles and gain from input ``input`` of the state-space system
    (``scipy.signal.ss2zpk``): ``tf2zpk(*ss2tf(...))``.  Differentiable at simple roots
    (the roots need concrete values: not under ``jit``/``vmap``).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> z, p, k = fss.ss2zpk([[-5.0, -6.0], [1.0, 0.0]], [[1.0], [0.0]], [[2.0, 2.0]], 0.0)
    >>> np.round(z, 12) + 0.0, np.round(p, 12) + 0.0, np.round(k, 12) + 0.0
    (array([-1.]), array([-3., -2.]), np.float64(2.0))
    """
    return tf2zpk(*ss2tf(A, B, C, D, input=input))


_GBT_ALPHA = {"bilinear": 0.5, "tustin": 0.5, "euler": 0.0, "forward_diff": 0.0,
              "backward_diff": 1.0}


def _discretised(a, b, c, d, dt, method, alpha):
    n, m = a.shape[0], b.shape[1]
    dtype = np.result_type(a.dtype, b.dtype)
    if method in _GBT_ALPHA:
        method, alpha = "gbt", _GBT_ALPHA[method]
    if method == "gbt":
        if alpha is None:
            raise ValueError("Alpha parameter must be specified for the generalized "
                             "bilinear transform (gbt) method")
        if not 0 <= float(concrete_values(asarray(alpha), "cont2discrete's check of alpha",
                                          "Pass alpha as a plain number.")) <= 1:
            raise ValueError("Alpha parameter must be within the interval [0,1] for the "
                             "gbt method")
        eye = np.eye(n, dtype=dtype)
        ima = eye - alpha * dt * a
        ad = fnp.linalg.solve(ima, eye + (1.0 - alpha) * dt * a)
        bd = fnp.linalg.solve(ima, dt * b)
        cd = fnp.transpose(fnp.linalg.solve(fnp.transpose(ima), fnp.transpose(c)))
        return ad, bd, cd, d + alpha * (c @ bd)
    if method == "zoh":
        # expm([[A, B], [0, 0]] dt) = [[e^{A dt}, int_0^dt e^{A s} ds B], [0, I]]
        em = fnp.concatenate([fnp.concatenate([a, b], axis=1),
                              np.zeros((m, n + m), dtype)], axis=0)
        ms = expm(dt * em)[:n]
        return ms[:, :n], ms[:, n:], c, d
    if method == "foh":
        # the third block column integrates the input's linear ramp between samples
        top = fnp.concatenate([a * dt, b * dt, np.zeros((n, m), dtype)], axis=1)
        middle = np.concatenate([np.zeros((m, n + m), dtype), np.eye(m, dtype=dtype)], axis=1)
        em = fnp.concatenate([top, middle, np.zeros((m, n + 2 * m), dtype)], axis=0)
        ms = expm(em)[:n]
        ms11, ms12, ms13 = ms[:, :n], ms[:, n:n + m], ms[:, n + m:]
        return ms11, ms12 - ms13 + ms11 @ ms13, c, d + c @ ms13
    if method == "impulse":
        values = concrete_values(d, "cont2discrete's check that D is zero ('impulse')",
                                 "Pass D as plain numbers.")
        if not np.allclose(values, 0):
            raise ValueError("Impulse method is only applicable to strictly proper systems")
        ad = expm(a * dt)
        return ad, ad @ b * dt, c, c @ b * dt
    raise ValueError(f"Unknown transformation method '{method}'")


def cont2discrete(system: Any, dt: ArrayLike, method: str = "zoh",
                  alpha: Optional[float] = None) -> tuple[Any, ...]:
    """The discrete-time system of the continuous ``system`` (``(num, den)``,
    ``(z, p, k)``, ``(A, B, C, D)`` or an ``lti``) sampled every ``dt``
    (``scipy.signal.cont2discrete``): ``method`` 'zoh', 'foh', 'impulse', 'gbt' (with
    ``alpha``), 'bilinear'/'tustin', 'euler'/'forward_diff', 'backward_diff'.  Returns
    the same representation with ``dt`` appended.  Differentiable in the system and
    ``dt``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> Ad, Bd, Cd, Dd, dt = fss.cont2discrete(([[-1.0]], [[1.0]], [[1.0]], [[0.0]]), 0.5)
    >>> np.round(Ad, 6), np.round(Bd, 6), dt
    (array([[0.606531]]), array([[0.393469]]), 0.5)
    """
    if hasattr(system, "to_discrete") and callable(system.to_discrete):
        return system.to_discrete(dt=dt, method=method, alpha=alpha)
    if len(system) == 2:
        sysd = cont2discrete(tf2ss(system[0], system[1]), dt, method=method, alpha=alpha)
        return ss2tf(*sysd[:4]) + (dt,)
    if len(system) == 3:
        sysd = cont2discrete(zpk2ss(*system), dt, method=method, alpha=alpha)
        return ss2zpk(*sysd[:4]) + (dt,)
    if len(system) != 4:
        raise ValueError("First argument must either be a tuple of 2 (tf), 3 (zpk), or 4 "
                         "(ss) arrays.")
    a, b, c, d = _system_matrices(*system)
    return _discretised(a, b, c, d, dt, method, alpha) + (dt,)

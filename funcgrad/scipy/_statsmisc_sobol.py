"""``sobol_indices`` of :mod:`funcgrad.scipy.stats` (re-exported there): Sobol's global
sensitivity indices by Saltelli's estimators, as ``scipy.stats.sobol_indices``.

The sample is SciPy's own (its scrambled Sobol' sequence in ``2 d`` dimensions, from the
same ``rng``, split into the matrices ``A`` and ``B``), mapped through each distribution's
``ppf``: with funcgrad's distributions (``funcgrad.scipy.stats.uniform(loc, scale)``...)
that map is differentiable in their parameters.  The function is then called on ``A``,
``B`` and the mixed matrices in funcgrad, and the estimators (Saltelli 2010: a first-order
and a total-order ratio of means to the output's variance) are written in funcgrad, so the
indices are differentiable in whatever the function closes over (its parameters) and in
the distributions' parameters; with ``func`` a dict of outputs, in those outputs.  The
bootstrap intervals are SciPy's, on the values (resampled BCa intervals: no derivative; a
traced result raises there).
"""
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray
from ._sigrest_random_state import rng_or_random_state

__all__ = ["sobol_indices"]


def saltelli_2010(f_A: Any, f_B: Any, f_AB: Any) -> tuple:
    """Saltelli's (2010) estimators of the first and total order indices from outputs
    centred on their mean (``f_A``, ``f_B`` of shape ``(s, n)``, ``f_AB`` ``(d, s,
    n)``): ``mean(f_B (f_AB - f_A)) / var`` and ``mean((f_A - f_AB)**2) / (2 var)``, the
    variance that of ``f_A`` and ``f_B`` together; each ``(s, d)``.

    >>> import numpy as np
    >>> f = np.array([[1.0, -1.0, 2.0, -2.0]])
    >>> s, st = saltelli_2010(f, -f, np.stack([f, -f]))
    >>> s.shape, st.shape
    ((1, 2), (1, 2))
    """
    var = fnp.var(fnp.concatenate([f_A, f_B], axis=-1), axis=-1)
    s = fnp.mean(f_B * (f_AB - f_A), axis=-1) / var
    st = 0.5 * fnp.mean(fnp.square(f_A - f_AB), axis=-1) / var
    return fnp.transpose(s), fnp.transpose(st)


@dataclass
class SobolResult:
    """:func:`sobol_indices`'s result, as SciPy's: ``first_order`` and ``total_order``
    (``(s, d)``, squeezed) and ``bootstrap(confidence_level=0.95, n_resamples=999)``.

    >>> import numpy as np
    >>> import funcgrad.scipy.stats as fst
    >>> res = sobol_indices(func=lambda x: x[0] + 2.0 * x[1], n=64,
    ...                     dists=[fst.uniform(), fst.uniform()], rng=0)
    >>> np.round(res.first_order, 1)
    array([0.2, 0.8])
    """

    first_order: Any
    total_order: Any
    _indices_method: Callable
    _f_A: Any
    _f_B: Any
    _f_AB: Any
    _A: Any = None
    _B: Any = None
    _AB: Any = None
    _bootstrap_result: Any = None

    def bootstrap(self, confidence_level: float = 0.95, n_resamples: int = 999) -> Any:
        """SciPy's BCa bootstrap intervals of the indices (``BootstrapSobolResult``),
        resampling the function's outputs: values only (a traced result raises)."""
        from scipy.stats._sensitivity_analysis import SobolResult as ScipySobolResult
        outputs = [self._f_A, self._f_B, self._f_AB]
        if any(isinstance(f, Tracer) for f in outputs):
            raise TypeError("sobol_indices: bootstrap() resamples the outputs and gives no "
                            "derivative; call it on a result computed outside the "
                            "differentiated function")
        plain = [np.asarray(f, dtype=np.float64) for f in outputs]

        def method(f_A, f_B, f_AB):
            return tuple(np.asarray(v) for v in self._indices_method(f_A, f_B, f_AB))
        theirs = ScipySobolResult(np.asarray(self.first_order), np.asarray(self.total_order),
                                  method, *plain, _bootstrap_result=self._bootstrap_result)
        out = theirs.bootstrap(confidence_level=confidence_level, n_resamples=n_resamples)
        self._bootstrap_result = theirs._bootstrap_result
        return out


def _rows(v):
    """``np.atleast_2d``: one row for a 0-d or 1-d output."""
    return fnp.reshape(v, (1, -1)) if v.ndim < 2 else v


def _sample(n, dists, rng):
    """SciPy's ``A`` and ``B`` (each ``(d, n)``): its Sobol' points through the ppfs."""
    from scipy.stats import qmc
    from scipy.stats._qmc import check_random_state
    d = len(dists)
    points = qmc.Sobol(d=2 * d, seed=check_random_state(rng), bits=64).random(n).T
    points = points.reshape(2, d, -1)
    rows = []
    for i, dist in enumerate(dists):
        if not hasattr(dist, "ppf"):
            raise ValueError("sobol_indices: each distribution in dists must have a ppf "
                             "method")
        rows.append(asarray(dist.ppf(points[:, i])))
    dtype = np.result_type(*[r.dtype for r in rows])
    sample = fnp.stack([fnp.astype(r, dtype) if r.dtype != dtype else r for r in rows],
                       axis=1)
    return sample[0], sample[1]


def sobol_indices(*, func: Any, n: int, dists: Optional[Any] = None,
                  method: Any = "saltelli_2010", rng: Any = None,
                  random_state: Any = None) -> SobolResult:
    """Sobol's first and total order sensitivity indices of ``func`` (called on a ``(d,
    n)`` array of inputs, one column per point, returning ``(s, n)`` or ``(n,)``
    outputs) to its ``d`` inputs, independent with the distributions ``dists`` (objects
    with a ``ppf``), from ``n`` (a power of 2) of SciPy's scrambled Sobol' points drawn
    with ``rng``, as ``scipy.stats.sobol_indices``; ``func`` may instead be a dict of
    outputs ``{'f_A', 'f_B', 'f_AB'}``, and ``method`` a callable of ``(f_A, f_B,
    f_AB)``.  The indices are differentiable in the parameters ``func`` closes over and in
    the parameters of funcgrad distributions (see the module's notes).
    ``random_state`` is SciPy's legacy keyword beside ``rng`` (give one; either seeds the
    Sobol' engine the same way, as SciPy 1.17).

    >>> import numpy as np, funcgrad as fg
    >>> import funcgrad.scipy.stats as fst
    >>> dists = [fst.uniform(loc=-np.pi, scale=2 * np.pi)] * 3
    >>> def first(a):   # Ishigami's function with a in place of 7
    ...     f = lambda x: np.sin(x[0]) + a * np.sin(x[1]) ** 2 + 0.1 * x[2] ** 4 * np.sin(x[0])
    ...     return sobol_indices(func=f, n=256, dists=dists, rng=1).first_order[1]
    >>> g = fg.grad(first)(7.0)   # how the second input's share grows with a
    """
    rng = rng_or_random_state(rng, random_state, "sobol_indices", legacy=False)
    n_ = int(n)
    if n != n_ or n_ <= 0 or n_ & (n_ - 1):
        raise ValueError(f"sobol_indices: n must be a power of 2 (the balance properties of "
                         f"Sobol' points need it), got {n}")
    n = n_
    if callable(method):
        if set(inspect.signature(method).parameters) != {"f_A", "f_B", "f_AB"}:
            raise ValueError("sobol_indices: a callable method must take the keyword "
                             "arguments f_A, f_B and f_AB (as saltelli_2010)")
        given = method
    elif isinstance(method, str) and method.lower() == "saltelli_2010":
        given = saltelli_2010
    else:
        raise ValueError(f"sobol_indices: method must be 'saltelli_2010' or a callable, got "
                         f"{method!r}")

    def indices_method(f_A, f_B, f_AB):
        return tuple(fnp.squeeze(asarray(v)) for v in given(f_A=f_A, f_B=f_B, f_AB=f_AB))

    samples: dict = {}
    if callable(func):
        if dists is None:
            raise ValueError("sobol_indices: dists must be given when func is a callable")
        A, B = _sample(n, dists, rng)
        d = A.shape[0]
        # (AB[i] is A with its row i from B)
        AB = fnp.where(np.eye(d, dtype=bool)[:, :, None], B[None, :, :], A[None, :, :])
        f_A = _rows(asarray(func(A)))
        if f_A.shape[1] != n:
            raise ValueError(f"sobol_indices: func's output must have shape (s, n) (one "
                             f"column per point, n = {n}), got {tuple(f_A.shape)}")
        f_B = _rows(asarray(func(B)))
        # (one call on all the mixed points, d n columns: point j of AB[i] at j d + i)
        flat = fnp.reshape(fnp.moveaxis(AB, 0, -1), (d, n * d))
        f_AB = fnp.moveaxis(fnp.reshape(_rows(asarray(func(flat))), (-1, n, d)),
                            -1, 0)
        samples = {"_A": A, "_B": B, "_AB": AB}
    else:
        try:
            f_A, f_B, f_AB = (asarray(func[k]) for k in ("f_A", "f_B", "f_AB"))
        except (KeyError, TypeError):
            raise ValueError("sobol_indices: func must be a callable, or a dict with keys "
                             "'f_A', 'f_B' (shape (s, n)) and 'f_AB' (shape (d, s, n))"
                             ) from None
        f_A, f_B, f_AB = _rows(f_A), _rows(f_B), _rows(f_AB)
        if (f_A.shape[1] != n or f_A.shape != f_B.shape or f_AB.shape == f_A.shape
                or f_AB.shape[-1] % n != 0):
            raise ValueError("sobol_indices: the dict's 'f_A' and 'f_B' must have shape "
                             "(s, n) and 'f_AB' shape (d, s, n)")
    # (centred on the outputs' mean: Sobol' and Levitan's variance reduction, as SciPy's)
    mean = fnp.reshape(fnp.mean(fnp.concatenate([f_A, f_B], axis=-1), axis=-1), (-1, 1))
    f_A, f_B, f_AB = f_A - mean, f_B - mean, f_AB - mean
    with np.errstate(divide="ignore", invalid="ignore"):
        first, total = indices_method(f_A, f_B, f_AB)
    # (an output without variance has no share to give: indices 0, as SciPy's)
    first = fnp.where(fnp.isfinite(fnp.stop_gradient(first)), first, 0.0)
    total = fnp.where(fnp.isfinite(fnp.stop_gradient(total)), total, 0.0)
    if not isinstance(first, Tracer):
        first, total = np.asarray(first), np.asarray(total)
    return SobolResult(first, total, indices_method, f_A, f_B, f_AB, **samples)



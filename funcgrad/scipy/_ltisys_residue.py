"""Partial fractions for :mod:`funcgrad.scipy.signal` (re-exported there): ``residue``,
``residuez``, their inverses ``invres``, ``invresz``, and ``unique_roots``, with SciPy's
signatures, values and order.

Which poles count as one (within ``tol``) and their order (by modulus) are decided on the
values, as SciPy decides them; the numbers are then computed with funcgrad operations, so
they differentiate:

* ``unique_roots``: a group's representative is its mean (``rtype='avg'``) or the member
  SciPy's ``min``/``max`` picks, so it moves with the roots;
* ``residue``/``residuez`` with simple poles: the poles are ``funcgrad.numpy.roots`` of
  the denominator (the implicit function theorem), the direct term a polynomial division,
  and the residue at ``p`` is ``b(p) / prod_{q != p} (p - q)`` over the leading
  coefficient.  A repeated pole (two roots within ``tol``) is not a differentiable
  function of the coefficients (it splits under a perturbation, and the residues of the
  parts blow up), so traced coefficients with a repeated pole raise ``ValueError``;
  plain coefficients get SciPy's values whatever the poles;
* ``invres``/``invresz``: products and sums of polynomials in the residues, poles and
  direct term, differentiable in all three for any multiplicities.

Zero coefficients SciPy trims (leading for ``residue``/``invres``, trailing for
``residuez``/``invresz``) are trimmed on the values; when they carry a derivative,
``DerivativeDroppedError`` says so rather than dropping it.  Polynomial roots need
concrete values: not under ``jit``/``vmap``.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy._conversions import refuse_trimming
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike

__all__ = ["unique_roots", "residue", "residuez", "invres", "invresz"]

_REDUCTIONS = {"max": "max", "maximum": "max", "min": "min", "minimum": "min",
               "avg": "mean", "mean": "mean"}
_FIX = "Call it outside vmap/jit."


def _reduction(rtype):
    if rtype not in _REDUCTIONS:
        raise ValueError("`rtype` must be one of {'max', 'maximum', 'min', 'minimum', "
                         "'avg', 'mean'}")
    return _REDUCTIONS[rtype]


def _values(x, what):
    return np.asarray(concrete_values(x, what, _FIX))


def _representative(roots, known, group, reduction):
    if reduction == "mean":
        return fnp.mean(fnp.take(roots, np.asarray(group)))
    pick = np.argmin if reduction == "min" else np.argmax  # (complex: NumPy's order)
    return roots[group[int(pick(known[group]))]]


def unique_roots(p: ArrayLike, tol: float = 1e-3, rtype: str = "min"
                 ) -> tuple[Array, np.ndarray]:
    """The distinct values among the roots ``p`` and their multiplicities
    (``scipy.signal.unique_roots``): roots within ``tol`` of a root not yet grouped form one
    group, represented by the 'min', 'max' or 'avg' of its members (``rtype``).
    Differentiable in ``p``.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.unique_roots([1.0, 2.0, 1.0005, 3.0], tol=1e-3, rtype="avg")
    (array([1.00025, 2.     , 3.     ]), array([2, 1, 1]))
    """
    reduction = _reduction(rtype)
    p = fnp.atleast_1d(asarray(p))
    known = _values(p, "unique_roots (which roots are one)")
    used = np.zeros(known.shape[0], bool)
    unique, multiplicity = [], []
    for i in range(known.shape[0]):
        if used[i]:
            continue
        group = [j for j in np.flatnonzero(~used) if abs(known[j] - known[i]) <= tol]
        unique.append(_representative(p, known, group, reduction))
        multiplicity.append(len(group))
        used[group] = True
    values = fnp.stack(unique) if unique else np.asarray([])
    return values, np.asarray(multiplicity)


def _coefficients(b, a):
    b, a = fnp.atleast_1d(asarray(b)), fnp.atleast_1d(asarray(a))
    dtype = complex if b.dtype.kind == "c" or a.dtype.kind == "c" else float
    return fnp.astype(b, dtype), fnp.astype(a, dtype)


def _trimmed(name, c, front):
    """``np.trim_zeros(c, 'f' or 'b')`` (the count is decided on the values); zeros that
    carry a derivative are not dropped silently (the result moves with them)."""
    nonzero = np.flatnonzero(_values(c, "the trimming of zero coefficients"))
    kept = c[:0] if nonzero.size == 0 else (
        c[int(nonzero[0]):] if front else c[:int(nonzero[-1]) + 1])
    if kept.shape[0] < c.shape[0]:
        refuse_trimming(c, f"{name} (SciPy trims {'leading' if front else 'trailing'} "
                        f"zero coefficients)", "Pass the coefficients without those zeros.")
    return kept


def _plain(*arrays):
    return all(type(x) is np.ndarray for x in arrays)


def _simple_residues(numerator, poles):
    """``numerator(p) / prod_{q != p} (p - q)`` for each of the distinct ``poles``."""
    out = []
    for i in range(poles.shape[0]):
        value = fnp.zeros((), np.result_type(numerator.dtype, poles.dtype))
        for c in range(numerator.shape[0]):
            value = value * poles[i] + numerator[c]
        others = [poles[i] - poles[j] for j in range(poles.shape[0]) if j != i]
        out.append(value / fnp.prod(fnp.stack(others)) if others else value)
    return fnp.stack(out)


def _simple_poles(name, a, tol, rtype):
    """The roots of ``a``, distinct (within ``tol``: checked on their values before they
    are differentiated), in SciPy's order (by modulus)."""
    _, multiplicity = unique_roots(np.roots(_values(a, name)), tol=tol, rtype=rtype)
    if np.any(multiplicity > 1):
        raise ValueError(f"{name}: the denominator has a repeated pole (roots within "
                         f"tol={tol}), whose residues are not differentiable functions of "
                         f"the coefficients (the pole splits under any change); pass plain "
                         f"arrays for SciPy's values")
    poles = fnp.roots(a)
    return fnp.take(poles, np.argsort(np.abs(_values(poles, name))))


def residue(b: ArrayLike, a: ArrayLike, tol: float = 1e-3, rtype: str = "avg"
            ) -> tuple[Array, Array, Array]:
    """The partial-fraction expansion ``b(s) / a(s) = sum r_i / (s - p_i) + k(s)``
    (``scipy.signal.residue``): ``(r, p, k)``, poles in order of modulus, a pole repeated
    (within ``tol``) listed once per power.  Differentiable in ``b`` and ``a`` where the
    poles are simple (see the module docstring).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> import funcgrad.scipy.signal as fss
    >>> r, p, k = fss.residue([1.0, 0.0], [1.0, 3.0, 2.0])  # s / ((s + 1)(s + 2))
    >>> r, p, k
    (array([-1.,  2.]), array([-1., -2.]), array([], dtype=float64))
    >>> fg.grad(lambda b: fss.residue(b, np.array([1.0, 3.0, 2.0]))[0][0])(np.array([1.0, 0.0]))
    array([-1.,  1.])
    """
    b, a = _coefficients(b, a)
    if _plain(b, a):
        import scipy.signal  # (plain numbers: SciPy's own, repeated poles too)
        return scipy.signal.residue(b, a, tol=tol, rtype=rtype)
    _reduction(rtype)
    b, a = _trimmed("residue", b, True), _trimmed("residue", a, True)
    if a.shape[0] == 0:
        raise ValueError("Denominator `a` is zero.")
    poles = _simple_poles("residue", a, tol, rtype)
    if b.shape[0] == 0:
        return np.zeros(poles.shape), poles, np.array([])
    k: Any = np.empty(0)
    if b.shape[0] >= a.shape[0]:
        k, b = fnp.polydiv(b, a)
    return _simple_residues(b, poles) / a[0], poles, k


def residuez(b: ArrayLike, a: ArrayLike, tol: float = 1e-3, rtype: str = "avg"
             ) -> tuple[Array, Array, Array]:
    """The partial-fraction expansion in ``z^-1``, ``b(z) / a(z) = sum r_i / (1 - p_i
    z^-1) + k(z^-1)`` (``scipy.signal.residuez``): ``(r, p, k)``.  Differentiable in ``b``
    and ``a`` where the poles are simple.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> r, p, k = fss.residuez([1.0], [1.0, -0.75, 0.125])
    >>> np.round(r, 12) + 0.0, p, k
    (array([-1.,  2.]), array([0.25, 0.5 ]), array([], dtype=float64))
    """
    b, a = _coefficients(b, a)
    if _plain(b, a):
        import scipy.signal
        return scipy.signal.residuez(b, a, tol=tol, rtype=rtype)
    _reduction(rtype)
    b, a = _trimmed("residuez", b, False), _trimmed("residuez", a, False)
    if a.shape[0] == 0:
        raise ValueError("Denominator `a` is zero.")
    if _values(a[0], "residuez") == 0:
        raise ValueError("First coefficient of determinant `a` must be non-zero.")
    poles = _simple_poles("residuez", a, tol, rtype)
    if b.shape[0] == 0:
        return np.zeros(poles.shape), poles, np.array([])
    b_rev, a_rev = b[::-1], a[::-1]
    k_rev: Any = np.empty(0)
    if b_rev.shape[0] >= a_rev.shape[0]:
        k_rev, b_rev = fnp.polydiv(b_rev, a_rev)
    residues = _simple_residues(b_rev, 1 / poles) * (-poles) / a_rev[0]
    return residues, poles, k_rev[::-1]


def _group_poles(p, tol, rtype):
    """SciPy's grouping for the inverses: consecutive poles within ``tol`` of a group's
    first are that pole again."""
    _reduction(rtype)
    known = _values(p, "the grouping of the poles")
    unique, multiplicity = [], []
    for i in range(known.shape[0]):
        if multiplicity and abs(known[i] - known[unique[-1]]) <= tol:
            multiplicity[-1] += 1
        else:
            unique.append(i)
            multiplicity.append(1)
    return [p[i] for i in unique], multiplicity


def _factors(poles, multiplicity):
    """SciPy's ``_compute_factors(..., include_powers=True)``: for each pole and power,
    the denominator with that power of the pole divided out; and the denominator."""
    def monomial(pole):
        return fnp.stack([fnp.ones((), pole.dtype), -pole])
    suffixes = [np.ones(1)]
    for pole, mult in zip(poles[-1:0:-1], multiplicity[-1:0:-1]):
        current = suffixes[-1]
        for _ in range(mult):
            current = fnp.convolve(current, monomial(pole))
        suffixes.append(current)
    suffixes = suffixes[::-1]
    factors, current = [], np.ones(1)
    for pole, mult, suffix in zip(poles, multiplicity, suffixes):
        block = []
        for _ in range(mult):
            block.append(fnp.convolve(current, suffix))
            current = fnp.convolve(current, monomial(pole))
        factors.extend(reversed(block))
    return factors, current


def _inverse(name, r, p, k, tol, rtype, reverse):
    r, p = fnp.atleast_1d(asarray(r)), fnp.atleast_1d(asarray(p))
    k = _trimmed(name, fnp.atleast_1d(asarray(k)), not reverse)
    if p.shape[0] == 0:
        raise ValueError(f"{name}: p must hold at least one pole")
    flip = (lambda c: c[::-1]) if reverse else (lambda c: c)
    factors, denominator = _factors(*_group_poles(p, tol, rtype))
    numerator: Any = 0 if k.shape[0] == 0 else fnp.polymul(flip(k), flip(denominator))
    for i, factor in enumerate(factors):
        numerator = fnp.polyadd(numerator, r[i] * flip(factor))
    return flip(numerator), denominator


def invres(r: ArrayLike, p: ArrayLike, k: ArrayLike, tol: float = 1e-3, rtype: str = "avg"
           ) -> tuple[Array, Array]:
    """The transfer function ``(b, a)`` of the partial fractions ``sum r_i / (s - p_i) +
    k(s)`` (``scipy.signal.invres``; poles within ``tol`` of the one before are the same
    pole, to the next power).  Differentiable in ``r``, ``p`` and ``k``.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.invres([-1.0, 2.0], [-1.0, -2.0], [])
    (array([1., 0.]), array([1., 3., 2.]))
    """
    return _inverse("invres", r, p, k, tol, rtype, False)


def invresz(r: ArrayLike, p: ArrayLike, k: ArrayLike, tol: float = 1e-3, rtype: str = "avg"
            ) -> tuple[Array, Array]:
    """The transfer function ``(b, a)`` of the partial fractions ``sum r_i / (1 - p_i
    z^-1) + k(z^-1)`` (``scipy.signal.invresz``).  Differentiable in ``r``, ``p`` and
    ``k``.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.invresz([-1.0, 2.0], [0.25, 0.5], [])
    (array([1., 0.]), array([ 1.   , -0.75 ,  0.125]))
    """
    return _inverse("invresz", r, p, k, tol, rtype, True)

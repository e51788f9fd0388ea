"""The inverses of SciPy's noncentral distribution functions in
:mod:`funcgrad.scipy.special` (re-exported there): ``chndtrix``, ``chndtridf``,
``chndtrinc`` (of ``chndtr``), ``nctdtrit``, ``nctdtridf``, ``nctdtrinc`` (of
``nctdtr``), ``ncfdtri``, ``ncfdtridfd``, ``ncfdtridfn``, ``ncfdtrinc`` (of ``ncfdtr``).

Values are SciPy's own (its ufunc of the same name, imported on the first call; under
``jit`` and ``vmap`` through :func:`funcgrad.pure_callback`): the quantiles ``chndtrix``,
``nctdtrit``, ``ncfdtri`` bit for bit (Boost's, SciPy's ``ppf``); the inverses in a
degree of freedom or the noncentrality (CDFLIB's searches, which stop up to ~1e-6 in
``p`` from the root) polished by up to three Newton steps on the series, each kept only
where it lowers the residual: so these differ from SciPy's by up to ~1e-5 relative (1e-3
where the distribution function is flat in the unknown, as ``ncfdtridfn`` at large
``dfn``), and are the closer to the true root (checked against mpmath's root of the
forward series at 40 digits: ours within 1e-11, SciPy's 1e-10 to 1e-3 off; the report
``benchmarks/results/session26-specialgaps.md`` has the points).  SciPy's conventions
where no root exists (``1e-100``, ``1e100``...) are kept.  Each SciPy inverse takes the
forward function's arguments with the probability ``p`` in the place of the unknown, so
``forward(..., x, ...) = p``; the derivative is the implicit function theorem's on that
equation, through :mod:`._special_noncentral`'s differentiable series: ``dx = (dp -
sum_i dF/da_i da_i) / (dF/dx)`` at the result (NaN where the result misses ``p`` by more
than 1e-3 of the smaller tail; 0 where the result is an end of CDFLIB's search range,
``0`` or ``1e100``, SciPy's constant answer where it finds no root), with ``x``
itself differentiable, so higher orders follow (as far as the series' own rules go: a second derivative in a
degree of freedom raises ``gammainc``'s/``betainc``'s NotImplementedError).  Arguments
given as plain numbers are constants and cost nothing.
"""
import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..core import Tracer
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..numpy._convert import concrete_values, is_concrete, operand as _operand
from ..typing import Array, ArrayLike
from ._special_noncentral import chndtr, ncfdtr, nctdtr

__all__ = ["chndtrix", "chndtridf", "chndtrinc", "nctdtrit", "nctdtridf", "nctdtrinc",
           "ncfdtri", "ncfdtridfd", "ncfdtridfn", "ncfdtrinc"]


def _scipy_values(name, args):
    """SciPy's ``name(*args)`` on the values of ``args`` (host code under jit/vmap)."""
    def host(*plain):
        try:
            import scipy.special  # (here: importing funcgrad never loads SciPy)
        except ImportError as e:
            raise ImportError(f"funcgrad.scipy.special.{name} takes its values from SciPy, "
                              f"which is not installed: pip install scipy") from e
        return np.asarray(getattr(scipy.special, name)(*plain))
    if all(is_concrete(a) for a in args):
        return host(*[concrete_values(a, name, "") for a in args])
    shape = np.broadcast_shapes(*[np.shape(a) for a in args])
    dtype = np.result_type(*[a.dtype if hasattr(a, "dtype") else a for a in args])
    dtype = np.float32 if dtype == np.float32 else np.float64
    return pure_callback(host, np.zeros(shape, dtype), *args, vmap_method="broadcast_all")


_POLISH_STEPS = 3


def _polished(x, forward, position, values):
    """``x`` after Newton steps on ``forward(..., x, ...) = p`` (each kept only where it
    brings the residual down; none where ``x`` is no root at all: SciPy's stand-ins)."""
    from ..forward_mode import _jvp
    p = values[position]

    def residual_and_slope(u):
        args = list(values)
        args[position] = u
        return _jvp(lambda v: forward(*args[:position], v, *args[position + 1:]) - p, (u,),
                    (fnp.ones_like(u),), False, "jvp")
    with np.errstate(all="ignore"):
        root = _is_root(x, forward, position, values)
        # (the steps run where SciPy's answer is a root; elsewhere, at its stand-in such as
        # 1e100, the series' slope is not even defined: they run at 1.0 there, and are
        # dropped)
        given, x = x, fnp.where(root, x, 1.0)
        residual, slope = residual_and_slope(x)
        for _ in range(_POLISH_STEPS):
            step = fnp.where(fnp.logical_and(root, slope != 0), residual / slope, 0.0)
            new = x - step
            new_residual, new_slope = residual_and_slope(new)
            better = fnp.logical_and(fnp.isfinite(new_residual),
                                     fnp.abs(new_residual) < fnp.abs(residual))
            x = fnp.where(better, new, x)
            residual = fnp.where(better, new_residual, residual)
            slope = fnp.where(better, new_slope, slope)
    return fnp.where(root, x, given)


# (CDFLIB's searches end at +-1e100 (a degree of freedom, nc): an answer there is its
# "no root in range", never a root; the forward is not even evaluated there, where the
# series would need ~sqrt(1e100) terms)
_SEARCH_END = 1e99


def _is_root(x, forward, position, values):
    """Where ``x`` solves ``forward(..., x, ...) = p`` to 1e-3 of the smaller tail: not
    SciPy's stand-ins (``0``, ``1e100``...) where its search found no root."""
    p = values[position]
    args = list(values)
    beyond = fnp.greater_equal(fnp.abs(x), _SEARCH_END)
    args[position] = fnp.where(beyond, 1.0, x)
    near = fnp.abs(forward(*args) - p) <= 1e-3 * fnp.minimum(p, 1.0 - p)
    return fnp.logical_and(near, fnp.logical_not(beyond))


def _stand_in(x, root):
    """Where ``x`` is no root and one end of CDFLIB's search range (``0``, ``+-1e100``):
    SciPy's constant answer for "no root in range", constant nearby too."""
    end = fnp.logical_or(fnp.equal(x, 0.0), fnp.greater_equal(fnp.abs(x), _SEARCH_END))
    return fnp.logical_and(end, fnp.logical_not(root))


def _inverse(name, forward, position, args, polish=None):
    """SciPy's ``name(*args)``: the ``x`` with ``forward(*args, args[position] := x) =
    args[position]``, differentiable by the implicit function theorem; ``polish``:
    SciPy's value refined by Newton steps on ``forward`` (SciPy's CDFLIB searches in a
    degree of freedom or the noncentrality stop ~1e-6 from the root)."""
    args = [_operand(a) for a in args]
    moving = [isinstance(a, Tracer) for a in args]

    def full(traced, x=None):
        it = iter(traced)
        values = [next(it) if m else a for a, m in zip(args, moving)]
        if x is not None:
            values[position] = x
        return values

    @custom_jvp
    def inverse(*traced):
        x = fnp.asarray(_scipy_values(name, full(traced)))
        return x if polish is None else _polished(x, forward, position, full(traced))

    @inverse.defjvp
    def _jvp_rule(primals, tangents):
        from ..forward_mode import _jvp
        x = inverse(*primals)
        values = full(primals)
        # (where SciPy's answer is no root, as its 1e-100 or 1e100 when none lies in its
        # search range, the theorem does not apply: NaN, not a slope of something else;
        # the slopes are taken at 1.0 there, where the series has them)
        with np.errstate(all="ignore"):
            root = _is_root(x, forward, position, values)
        x_at = fnp.where(root, x, 1.0)
        slope = _jvp(lambda u: forward(*full(primals, u)), (x_at,), (fnp.ones_like(x),),
                     False, "jvp")[1]
        index = [i for i, m in enumerate(moving) if m]
        dp = 0.0
        others = []
        for i, t in zip(index, tangents):
            if is_concrete(t) and not np.any(np.asarray(t)):
                continue  # (a zero tangent: nothing to compute)
            if i == position:
                dp = t
            else:
                others.append((i, t))
        d_rest = 0.0
        if others:
            def forward_of(*moved):
                v = list(values)
                v[position] = x_at
                for (i, _), m in zip(others, moved):
                    v[i] = m
                return forward(*v)
            d_rest = _jvp(forward_of, tuple(values[i] for i, _ in others),
                          tuple(t for _, t in others), False, "jvp")[1]
        # (a factor, not a where: a linear map has no constant branch to carry the NaN;
        # at SciPy's search-range ends, where its answer is a constant, the slope is 0)
        constant = _stand_in(x, root)
        factor = fnp.where(root, 1.0, fnp.where(constant, 0.0, np.nan))
        return x, (dp - d_rest) / fnp.where(constant, 1.0, slope) * factor

    return inverse(*[a for a, m in zip(args, moving) if m])


def chndtrix(p: ArrayLike, df: ArrayLike, nc: ArrayLike) -> Array:
    """The inverse of ``chndtr(x, df, nc)`` in ``x``: the ``p`` quantile of the noncentral
    chi-square.  Differentiable in ``p``, ``df`` and ``nc``.

    >>> import math, funcgrad as fg
    >>> round(float(chndtrix(0.5, 2.0, 0.0)), 13) == round(2 * math.log(2), 13)
    True
    >>> round(float(fg.grad(chndtrix)(0.5, 2.0, 0.0)), 12)  # 1 / pdf = 2 / (1 - p)
    4.0
    """
    return _inverse("chndtrix", chndtr, 0, (p, df, nc))


def chndtridf(x: ArrayLike, p: ArrayLike, nc: ArrayLike) -> Array:
    """The inverse of ``chndtr(x, df, nc)`` in ``df``.  Differentiable in ``x``, ``p``
    and ``nc``.

    >>> round(float(chndtridf(1.3862943611198906, 0.5, 0.0)), 8)  # the median of chi2(2)
    2.0
    """
    return _inverse("chndtridf", chndtr, 1, (x, p, nc), polish=True)


def chndtrinc(x: ArrayLike, df: ArrayLike, p: ArrayLike) -> Array:
    """The inverse of ``chndtr(x, df, nc)`` in ``nc``.  Differentiable in ``x``, ``df``
    and ``p``.

    >>> p = float(chndtr(3.0, 2.0, 1.5))
    >>> round(float(chndtrinc(3.0, 2.0, p)), 8)
    1.5
    """
    return _inverse("chndtrinc", chndtr, 2, (x, df, p), polish=True)


def nctdtrit(df: ArrayLike, nc: ArrayLike, p: ArrayLike) -> Array:
    """The inverse of ``nctdtr(df, nc, t)`` in ``t``: the ``p`` quantile of the noncentral
    t.  Differentiable in ``df``, ``nc`` and ``p``.

    >>> round(float(nctdtrit(1.0, 0.0, 0.75)), 8)  # Cauchy: tan(pi/4)
    1.0
    """
    return _inverse("nctdtrit", nctdtr, 2, (df, nc, p))


def nctdtridf(p: ArrayLike, nc: ArrayLike, t: ArrayLike) -> Array:
    """The inverse of ``nctdtr(df, nc, t)`` in ``df``.  Differentiable in ``p``, ``nc``
    and ``t``.  Values: SciPy's, polished (closer to the true root than SciPy's CDFLIB
    value).

    >>> p = float(nctdtr(3.0, 1.0, 0.5))
    >>> round(float(nctdtridf(p, 1.0, 0.5)), 6)
    3.0
    """
    return _inverse("nctdtridf", nctdtr, 0, (p, nc, t), polish=True)


def nctdtrinc(df: ArrayLike, p: ArrayLike, t: ArrayLike) -> Array:
    """The inverse of ``nctdtr(df, nc, t)`` in ``nc``.  Differentiable in ``df``, ``p``
    and ``t``.  Values: SciPy's, polished (closer to the true root than SciPy's CDFLIB
    value).

    >>> p = float(nctdtr(3.0, 1.0, 0.5))
    >>> round(float(nctdtrinc(3.0, p, 0.5)), 6)
    1.0
    """
    return _inverse("nctdtrinc", nctdtr, 1, (df, p, t), polish=True)


def ncfdtri(dfn: ArrayLike, dfd: ArrayLike, nc: ArrayLike, p: ArrayLike) -> Array:
    """The inverse of ``ncfdtr(dfn, dfd, nc, f)`` in ``f``: the ``p`` quantile of the
    noncentral F.  Differentiable in all four.

    >>> round(float(ncfdtri(2.0, 2.0, 0.0, 0.5)), 8)  # the median of F(2, 2)
    1.0
    """
    return _inverse("ncfdtri", ncfdtr, 3, (dfn, dfd, nc, p))


def ncfdtridfd(dfn: ArrayLike, p: ArrayLike, nc: ArrayLike, f: ArrayLike) -> Array:
    """The inverse of ``ncfdtr(dfn, dfd, nc, f)`` in ``dfd``.  Differentiable in all four.
    Values: SciPy's, polished (closer to the true root than SciPy's CDFLIB value).

    >>> p = float(ncfdtr(2.0, 5.0, 1.0, 1.5))
    >>> round(float(ncfdtridfd(2.0, p, 1.0, 1.5)), 6)
    5.0
    """
    return _inverse("ncfdtridfd", ncfdtr, 1, (dfn, p, nc, f), polish=True)


def ncfdtridfn(p: ArrayLike, dfd: ArrayLike, nc: ArrayLike, f: ArrayLike) -> Array:
    """The inverse of ``ncfdtr(dfn, dfd, nc, f)`` in ``dfn``.  Differentiable in all four.
    Values: SciPy's, polished (closer to the true root than SciPy's CDFLIB value).

    >>> p = float(ncfdtr(8.0, 5.0, 1.0, 1.5))  # (ncfdtr is not monotone in dfn below 2)
    >>> round(float(ncfdtridfn(p, 5.0, 1.0, 1.5)), 6)
    8.0
    """
    return _inverse("ncfdtridfn", ncfdtr, 0, (p, dfd, nc, f), polish=True)


def ncfdtrinc(dfn: ArrayLike, dfd: ArrayLike, p: ArrayLike, f: ArrayLike) -> Array:
    """The inverse of ``ncfdtr(dfn, dfd, nc, f)`` in ``nc``.  Differentiable in all four.
    Values: SciPy's, polished (closer to the true root than SciPy's CDFLIB value).

    >>> p = float(ncfdtr(2.0, 5.0, 1.0, 1.5))
    >>> round(float(ncfdtrinc(2.0, 5.0, p, 1.5)), 6)
    1.0
    """
    return _inverse("ncfdtrinc", ncfdtr, 2, (dfn, dfd, p, f), polish=True)

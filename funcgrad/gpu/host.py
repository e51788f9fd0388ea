"""Primitives with no GPU kernel that run on a host copy: LAPACK's tridiagonal solve
(``?gtsv``), the IIR filter's recursion (``all_pole``, sequential in time), the
reductions to Hessenberg and tridiagonal form (``?gehrd``, ``?sytrd``/``?hetrd``), and
``cumprod`` (NumPy's sequential product: a parallel scan reassociates it, and overflow then
gives NaN where NumPy gives inf).  Their operands are copied to the host, the CPU
implementation runs, and the results are copied back: the CPU's values, at the price of the
copies (these are ``O(m)`` or one-off reductions, where a GPU kernel would gain little)."""
from ..primitives import condensed as _condensed
from ..primitives import recurrence as _recurrence
from ..primitives import reductions as _reductions
from ..primitives import tridiagonal as _tridiagonal
from .array import GpuArray, to_host, upload

__all__ = ["host_impls"]


def _on_host(prim):
    def impl(*args, **params):
        out = prim.impl(*(to_host(a) if isinstance(a, GpuArray) else a for a in args),
                        **params)
        return tuple(upload(o) for o in out) if prim.multiple_results else upload(out)
    return impl


def host_impls():
    """``{primitive: implementation on a host copy}``.

    >>> sorted(p.name for p in host_impls())                  # doctest: +SKIP
    ['all_pole', 'cumprod', 'hessenberg', 'tridiagonal', 'tridiagonal_solve']
    """
    return {p: _on_host(p) for p in (_tridiagonal.tridiagonal_solve_p,
                                     _condensed.hessenberg_p, _condensed.tridiagonal_p,
                                     _recurrence.all_pole_p, _reductions.cumprod_p)}

"""Reductions to condensed form, in LAPACK's packed output: ``hessenberg`` (``?gehrd``:
``a = Q H Q^H`` with ``H`` upper Hessenberg) and ``tridiagonal`` (``?sytrd``/``?hetrd``:
``a = Q T Q^H`` for Hermitian ``a``, ``T`` real tridiagonal).  Each returns the reduced
matrix with the Householder vectors stored below (or above) it, and their scalar factors
``taus``: the convention of JAX's ``jax.lax.linalg`` (whose CPU kernels call the same
routines), read with ``householder_product``.

Values only: neither JAX nor PyTorch defines their derivatives (the Householder vectors
of a reduction are not smooth functions of the matrix where LAPACK's sign choices flip),
so the JVP and VJP rules raise, naming the function, instead of dropping a derivative.
The routines are SciPy's (``scipy.linalg.lapack``), imported on first use.
"""
import numpy as np

from ..core import Primitive, ShapedArray
from .structural import moveaxis

__all__ = ["hessenberg", "hessenberg_p", "tridiagonal", "tridiagonal_p"]

_LAPACK = {np.dtype(t): p for t, p in ((np.float32, "s"), (np.float64, "d"),
                                       (np.complex64, "c"), (np.complex128, "z"))}


def _routine(name, dtype):
    try:
        from scipy.linalg import lapack
    except ImportError:
        raise ImportError(f"lax.linalg: the {name} reduction calls LAPACK through SciPy "
                          f"(scipy.linalg.lapack), which is not installed; install scipy"
                          ) from None
    prefix = _LAPACK[np.dtype(dtype)]
    if name == "tridiagonal":
        name = "hetrd" if prefix in "cz" else "sytrd"
    else:
        name = "gehrd"
    return getattr(lapack, prefix + name)


def _checked(name, info):
    if info != 0:  # (only a bad argument sets it: a bug here, not the user's)
        raise np.linalg.LinAlgError(f"lax.linalg.{name}: LAPACK reported info={info}")


def _no_derivative(name):
    def rule(*_, **__):
        raise NotImplementedError(
            f"lax.linalg.{name} has no derivative in funcgrad (nor in JAX, which raises "
            f"'Differentiation rule for {name!r} not implemented'): the Householder "
            f"reflectors of a reduction are not differentiable where LAPACK's sign choices "
            f"change. Differentiate a quantity that does not depend on them (the "
            f"eigenvalues: funcgrad.numpy.linalg.eigh/eigvals), or apply "
            f"funcgrad.stop_gradient to the input if no derivative is wanted.")
    return rule


def _stacked(fn, a, outs):
    """``fn`` (one matrix -> tuple) over the stack ``a``, results stacked in ``outs``."""
    results = [np.empty(o.shape, o.dtype) for o in outs]
    for i in np.ndindex(a.shape[:-2]):
        for r, v in zip(results, fn(a[i])):
            r[i] = v
    return tuple(results)


def _batch(bind):
    def batch(args, dims, **params):
        outs = bind(moveaxis(args[0], dims[0], 0), **params)
        return outs, (0,) * len(outs)
    return batch


# --- hessenberg -------------------------------------------------------------------------------

def _hessenberg_abstract(a):
    n = a.shape[-1]
    return (ShapedArray(a.shape, a.dtype),
            ShapedArray(a.shape[:-2] + (max(n - 1, 0),), a.dtype))


def _hessenberg_impl(a):
    gehrd = _routine("hessenberg", a.dtype)

    def one(m):
        if m.shape[-1] == 0:
            return m, np.zeros(0, m.dtype)
        h, taus, info = gehrd(m)
        _checked("hessenberg", info)
        return h, taus
    return _stacked(one, a, _hessenberg_abstract(a))


hessenberg_p = Primitive("hessenberg", _hessenberg_impl, abstract_eval=_hessenberg_abstract,
                         jvp=_no_derivative("hessenberg"), vjp=_no_derivative("hessenberg"),
                         multiple_results=True)


def hessenberg(a):
    """``(h, taus)`` of LAPACK's ``?gehrd`` for square matrices ``a`` (float32/64,
    complex64/128; a stack of them)."""
    return tuple(hessenberg_p.bind(a))


hessenberg_p.batch = _batch(hessenberg)


# --- tridiagonal ------------------------------------------------------------------------------

def _tridiagonal_abstract(a, *, lower):
    n = a.shape[-1]
    real = np.dtype(a.dtype).type(0).real.dtype
    batch = a.shape[:-2]
    return (ShapedArray(a.shape, a.dtype), ShapedArray(batch + (n,), real),
            ShapedArray(batch + (max(n - 1, 0),), real),
            ShapedArray(batch + (max(n - 1, 0),), a.dtype))


def _tridiagonal_impl(a, *, lower):
    sytrd = _routine("tridiagonal", a.dtype)
    outs = _tridiagonal_abstract(a, lower=lower)

    def one(m):
        if m.shape[-1] == 0:
            return tuple(np.zeros(o.shape[len(a.shape) - 2:], o.dtype) for o in outs)
        c, d, e, taus, info = sytrd(m, lower=int(lower))
        _checked("tridiagonal", info)
        return c, d, e, taus
    return _stacked(one, a, outs)


tridiagonal_p = Primitive("tridiagonal", _tridiagonal_impl,
                          abstract_eval=_tridiagonal_abstract,
                          jvp=_no_derivative("tridiagonal"), vjp=_no_derivative("tridiagonal"),
                          multiple_results=True)


def tridiagonal(a, lower=True):
    """``(a, d, e, taus)`` of LAPACK's ``?sytrd`` (real) or ``?hetrd`` (complex) for
    Hermitian matrices ``a``, reading the ``lower`` (else upper) triangle."""
    return tuple(tridiagonal_p.bind(a, lower=bool(lower)))


tridiagonal_p.batch = _batch(tridiagonal)

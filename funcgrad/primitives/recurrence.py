"""``all_pole``: the recursion of an IIR filter, ``y`` with ``sum_k a[k] y[n - k] = f[n]``
along the last axis (``y`` is zero before the start), the core of
``funcgrad.scipy.signal.lfilter`` (which forms ``f`` from ``b``, ``x`` and ``zi``).

In matrix form ``A y = f``, ``A`` the lower-triangular Toeplitz matrix with ``a`` down
its diagonals, so the rules are a triangular solve's, each solve one more run of the
recursion (``O(N K)``, no matrix and no per-sample node):

* tangent: ``A dy = df - dA y``, and ``dA y`` is the causal convolution of ``da`` with
  ``y``;
* cotangent of ``f``: ``A^T gf = g``.  Reversing time turns ``A^T`` back into ``A``
  (a Toeplitz matrix is symmetric about its anti-diagonal), so ``gf`` is the filter run
  backwards: ``reverse(all_pole(a, reverse(g)))``;
* cotangent of ``a``: ``ga[k] = -sum_n gf[n] y[n - k]``, the correlation of ``gf`` with
  ``y``.

Complex values follow the linear transpose (no conjugation), as the other primitives.
``a`` and ``f`` broadcast over their leading (batch) axes.
"""
import numpy as np

from ..core import Primitive, ShapedArray, reads_inputs_and_output
from .elementwise import negative
from .structural import concatenate, reduce_sum, reshape, to_front, unbroadcast

__all__ = ["all_pole", "all_pole_p"]


def _dtype(a, f):
    dtype = np.result_type(a.dtype, f.dtype)
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def _impl(a, f):
    from ..kernels.cpu import recurrence  # (imports Numba: on first use)
    dtype = _dtype(a, f)
    batch = np.broadcast_shapes(a.shape[:-1], f.shape[:-1])
    a = np.broadcast_to(np.asarray(a, dtype), batch + a.shape[-1:])
    f = np.broadcast_to(np.asarray(f, dtype), batch + f.shape[-1:])
    return recurrence.all_pole(a, f)


def _abstract(a, f):
    batch = np.broadcast_shapes(a.shape[:-1], f.shape[:-1])
    return ShapedArray(batch + f.shape[-1:], _dtype(a, f))


def _reverse(x):
    return x[..., ::-1]


def _delayed(y, k):
    """``y`` delayed by ``k`` samples along the last axis (zeros entering)."""
    n = y.shape[-1]
    if k == 0:
        return y
    return concatenate([np.zeros(y.shape[:-1] + (k,), y.dtype), y[..., :n - k]], y.ndim - 1)


def _jvp(primals, tangents):
    a, f = primals
    ta, tf = tangents
    y = all_pole(a, f)
    rhs = tf
    if ta is not None:
        n = y.shape[-1]
        for k in range(min(a.shape[-1], n)):  # (dA y)[n] = sum_k da[k] y[n - k]
            term = ta[..., k:k + 1] * _delayed(y, k)
            rhs = negative(term) if rhs is None else rhs - term
    if rhs is None:
        return y, None
    return y, all_pole(a, rhs)


def _vjp(needs, g, y, a, f):
    gf = _reverse(all_pole(a, _reverse(g)))
    ga = None
    if needs[0]:
        n, last = y.shape[-1], y.ndim - 1
        taps = []
        for k in range(a.shape[-1]):
            if k < n:
                tap = reduce_sum(gf[..., k:] * y[..., :n - k], (last,))
                taps.append(reshape(tap, tap.shape + (1,)))
            else:  # (a tap longer than the signal touches nothing)
                taps.append(np.zeros(y.shape[:-1] + (1,), y.dtype))
        ga = unbroadcast(negative(concatenate(taps, last)), a)
    return ga, (unbroadcast(gf, f) if needs[1] else None)


def _batch(args, dims):
    # the batch axis first, and both operands of one rank (unit axes broadcast)
    ranks = [x.ndim - (d is not None) for x, d in zip(args, dims)]
    rank = max(ranks)
    front = []
    for x, d, r in zip(args, dims, ranks):
        if d is None:
            x = reshape(x, (1,) * (rank - r + 1) + x.shape)
        else:
            x = to_front(x, d)
            x = reshape(x, x.shape[:1] + (1,) * (rank - r) + x.shape[1:])
        front.append(x)
    return all_pole(*front), 0  # (a unit batch axis broadcasts against the other's)


all_pole_p = Primitive("all_pole", _impl, abstract_eval=_abstract, jvp=_jvp, vjp=_vjp,
                       batch=_batch, vjp_reads=reads_inputs_and_output,
                       grad_fn_name="LfilterBackward0")


def all_pole(a, f):
    """``y`` with ``sum_k a[..., k] y[..., n - k] = f[..., n]`` (``y`` zero before the
    start): ``lfilter([1], a, f)`` along the last axis, ``a`` and ``f`` broadcasting over
    their leading axes; differentiable in both."""
    if a.ndim < 1 or f.ndim < 1 or a.shape[-1] == 0:
        raise ValueError(f"all_pole: a (shape {a.shape}) must be non-empty along its last "
                         f"axis, and f (shape {f.shape}) must have one")
    return all_pole_p.bind(a, f)

"""PyTorch's Tensor methods added in funcgrad.eager's pointwise, reducing, selecting,
pieces and linear modules.

One table drives every check.  Each case is a call written once for both libraries
(``fn(lib, *tensors)``, with ``lib`` torch or funcgrad) and a NumPy reference of the value.
Without torch: the value is compared with the NumPy reference and the gradient with
finite differences (``fg.gradcheck``), in float64.  With torch: value, dtype, shape,
namedtuple fields and gradient are compared with torch's, in float64 and float32.
"""
import numpy as np
import pytest
import scipy.special as sps

import funcgrad as fg

try:
    import torch
except ImportError:  # CI without torch: the NumPy and finite-difference checks still run
    torch = None

rng = np.random.default_rng(7)
A = np.array([[0.3, -1.2, 2.0, 0.9], [1.5, 0.7, -0.4, -2.2], [-0.6, 1.1, 0.2, 1.8]])
B = np.array([[1.3, 0.4, -0.5, 2.5], [-0.9, 1.6, 0.8, -1.4], [0.45, -1.7, 1.2, 0.35]])
P = np.abs(A) + 0.25                       # positive
Q = A * 3 + 0.0137                         # no integer quotient with B, no integer
U = (np.tanh(A) + 1.05) / 2.2              # in (0, 1)
M = np.array([[2.0, 0.5, -0.3], [0.4, 1.5, 0.2], [-0.1, 0.3, 1.8]])  # well conditioned
SPD = M @ M.T + np.eye(3)
V3, W3 = A[0, :3], B[1, :3]
T3 = rng.normal(size=(2, 3, 4))
IDX = np.array([[2, 0, 1, 1], [0, 0, 2, 1]])          # rows of A along dim 0
IDX1 = np.array([[3, 0], [1, 1], [2, 0]])             # along dim 1
MASK = A > 0.25
TIE = np.where(MASK, A, B)                            # equal to A where MASK
ODD = np.array([1.0, -np.inf, np.nan, np.inf, -0.0])
REPS = np.array([[1.0, 2.0, 2.0, 0.5], [3.0, 3.0, 1.0, 3.0]])  # ties for mode


class Case:
    def __init__(self, name, fn, args, ref, grad=True, torch_grad_fn=True, grads=None):
        self.name, self.fn, self.args, self.ref = name, fn, args, ref
        self.grad = grad  # whether the float arguments are differentiated
        # at a kink or tie, the gradients by hand (PyTorch's convention), from the inputs
        # and the weights of the output; elsewhere finite differences check them
        self.grads = grads
        self.torch_grad_fn = torch_grad_fn  # whether grad_fn's name is torch's


def _lerp(x, y):
    return x + 0.3 * (y - x)


def _gather(a, i, dim):
    return np.take_along_axis(a, i, axis=dim)


def _scatter(a, dim, i, src, op="set"):
    out = a.copy()
    for pos in np.ndindex(i.shape):
        target = list(pos)
        target[dim] = i[pos]
        if op == "set":
            out[tuple(target)] = src[pos]
        elif op == "add":
            out[tuple(target)] += src[pos]
        elif op == "max":
            out[tuple(target)] = max(out[tuple(target)], src[pos])
    return out


def _put(a, key, v, add=False):
    out = a.copy()
    if add:
        np.add.at(out, key, v)
    else:
        out[key] = v
    return out


def _masked_scatter(a, mask, s):
    out = a.copy()
    out[mask] = s.ravel()[:mask.sum()]
    return out


def _mode(a):
    vals, idx = [], []
    for row in a:
        v, c = np.unique(row, return_counts=True)
        best = v[np.argmax(c)]
        vals.append(best)
        idx.append(np.flatnonzero(row == best)[-1])
    return vals, idx


def _cummax(a, axis):
    vals = np.maximum.accumulate(a, axis=axis)
    idx = np.zeros(a.shape, np.int64)
    for r in range(a.shape[0]):
        for c in range(a.shape[1]):
            col = a[:r + 1, c] if axis == 0 else a[r, :c + 1]
            idx[r, c] = np.flatnonzero(col == col.max())[-1]
    return vals, idx


def _logcumsumexp(a, axis):
    return np.log(np.cumsum(np.exp(a), axis=axis))


def _diag_embed(a):
    return np.stack([np.diag(row, 1) for row in a])


def _picked(shape, idx, dim, w):
    """The gradient of values gathered at ``idx`` along ``dim`` with weights ``w``."""
    g = np.zeros(shape)
    for pos in np.ndindex(idx.shape):
        target = list(pos)
        target[dim] = idx[pos]
        g[tuple(target)] += w[pos]
    return g


C = Case
CASES = [
    # --- pointwise ---------------------------------------------------------------------------
    C("add_alpha", lambda m, x, y: x.add(y, alpha=2.5), [A, B], lambda x, y: x + 2.5 * y),
    C("sub_alpha", lambda m, x, y: x.sub(y, alpha=-2), [A, B], lambda x, y: x + 2 * y),
    C("subtract", lambda m, x, y: x.subtract(y), [A, B], lambda x, y: x - y),
    C("mul", lambda m, x, y: x.mul(y).multiply(x), [A, B], lambda x, y: x * y * x),
    C("div", lambda m, x, y: x.div(y).divide(2.0), [A, B], lambda x, y: x / y / 2),
    C("true_divide", lambda m, x, y: x.true_divide(y), [A, B], lambda x, y: x / y),
    C("div_trunc", lambda m, x, y: x.div(y, rounding_mode="trunc"), [Q, B],
      lambda x, y: np.trunc(x / y)),
    C("div_floor", lambda m, x, y: x.div(y, rounding_mode="floor"), [Q, B],
      lambda x, y: np.floor(x / y)),
    C("neg", lambda m, x: x.neg() + x.negative(), [A], lambda x: -2 * x),
    C("reciprocal", lambda m, x: x.reciprocal(), [A], lambda x: 1 / x),
    C("rsqrt", lambda m, x: x.rsqrt(), [P], lambda x: 1 / np.sqrt(x)),
    C("square", lambda m, x: x.square(), [A], lambda x: x * x, torch_grad_fn=False),
    C("exp2", lambda m, x: x.exp2(), [A], np.exp2),
    C("expm1", lambda m, x: x.expm1(), [A], np.expm1),
    C("log1p", lambda m, x: x.log1p(), [P], np.log1p),
    C("log2", lambda m, x: x.log2(), [P], np.log2),
    C("log10", lambda m, x: x.log10(), [P], np.log10),
    C("tan", lambda m, x: x.tan(), [A / 2], np.tan),
    C("sinh", lambda m, x: x.sinh(), [A], np.sinh),
    C("cosh", lambda m, x: x.cosh(), [A], np.cosh),
    C("asin", lambda m, x: x.asin() + x.arcsin(), [U], lambda x: 2 * np.arcsin(x),
      torch_grad_fn=False),
    C("acos", lambda m, x: x.acos(), [U], np.arccos),
    C("atan", lambda m, x: x.atan(), [A], np.arctan),
    C("arctan", lambda m, x: x.arctan(), [A], np.arctan),
    C("asinh", lambda m, x: x.asinh(), [A], np.arcsinh),
    C("acosh", lambda m, x: x.acosh(), [P + 1], np.arccosh),
    C("atanh", lambda m, x: x.atanh(), [U], np.arctanh),
    C("arccosh", lambda m, x: x.arccosh(), [P + 1], np.arccosh),
    C("atan2", lambda m, x, y: x.atan2(y), [A, B], np.arctan2),
    C("arctan2", lambda m, x, y: x.arctan2(y), [A, B], np.arctan2),
    C("hypot", lambda m, x, y: x.hypot(y), [A, B], np.hypot),
    C("erf", lambda m, x: x.erf(), [A], sps.erf),
    C("erfc", lambda m, x: x.erfc(), [A], sps.erfc),
    C("erfinv", lambda m, x: x.erfinv(), [U], sps.erfinv),
    C("lgamma", lambda m, x: x.lgamma(), [A], sps.gammaln),
    C("digamma", lambda m, x: x.digamma(), [A], sps.digamma),
    C("polygamma", lambda m, x: x.polygamma(2), [P], lambda x: sps.polygamma(2, x)),
    C("mvlgamma", lambda m, x: x.mvlgamma(2), [P + 1], lambda x: sps.multigammaln(x, 2)
      if np.ndim(x) == 0 else np.vectorize(lambda v: sps.multigammaln(v, 2))(x)),
    C("i0", lambda m, x: x.i0(), [A], np.i0),
    C("sinc", lambda m, x: x.sinc(), [A], np.sinc),
    C("sinc_at_zero", lambda m, x: x.sinc(), [np.array([0.0, 0.5])], np.sinc),
    C("logit", lambda m, x: x.logit(), [U], sps.logit),
    C("logit_eps", lambda m, x: x.logit(eps=0.2), [U], lambda x: sps.logit(np.clip(x, .2, .8))),
    C("xlogy", lambda m, x, y: x.xlogy(y), [A, P], lambda x, y: x * np.log(y)),
    C("sgn", lambda m, x: x.sgn() * x, [A], lambda x: np.sign(x) * x, torch_grad_fn=False),
    C("frac", lambda m, x: x.frac(), [Q], lambda x: x - np.trunc(x)),
    C("fmod", lambda m, x, y: x.fmod(y), [Q, B], np.fmod),
    C("remainder", lambda m, x, y: x.remainder(y), [Q, B], np.remainder),
    C("fmod_scalar", lambda m, x: x.fmod(0.7), [Q], lambda x: np.fmod(x, 0.7)),
    C("float_power", lambda m, x: x.float_power(3), [A], lambda x: x ** 3),
    # ties: maximum and minimum share the gradient, fmax and fmin give it to self
    C("maximum_ties", lambda m, x, y: x.maximum(y), [A, TIE], np.maximum,
      grads=lambda x, y, w: [w * ((x > y) + (x == y) / 2), w * ((y > x) + (x == y) / 2)]),
    C("minimum_ties", lambda m, x, y: x.minimum(y), [A, TIE], np.minimum,
      grads=lambda x, y, w: [w * ((x < y) + (x == y) / 2), w * ((y < x) + (x == y) / 2)]),
    C("fmax_ties", lambda m, x, y: x.fmax(y), [A, TIE], np.fmax,
      grads=lambda x, y, w: [w * (x >= y), w * (y > x)]),
    C("fmin_ties", lambda m, x, y: x.fmin(y), [A, TIE], np.fmin,
      grads=lambda x, y, w: [w * (x <= y), w * (y < x)]),
    # at the bound (A holds 0.3) the gradient is 1, as PyTorch's
    C("clamp_min", lambda m, x: x.clamp_min(0.3), [A], lambda x: np.maximum(x, 0.3),
      grads=lambda x, w: [w * (x >= 0.3)]),
    C("clamp_max", lambda m, x: x.clamp_max(0.3), [A], lambda x: np.minimum(x, 0.3),
      grads=lambda x, w: [w * (x <= 0.3)]),
    C("lerp", lambda m, x, y: x.lerp(y, 0.3), [A, B], _lerp),
    C("lerp_tensor", lambda m, x, y, w: x.lerp(y, w), [A, B, U],
      lambda x, y, w: x + w * (y - x)),
    C("addcmul", lambda m, x, y, z: x.addcmul(y, z, value=0.5), [A, B, P],
      lambda x, y, z: x + 0.5 * y * z),
    C("addcdiv", lambda m, x, y, z: x.addcdiv(y, z, value=2), [A, B, P],
      lambda x, y, z: x + 2 * y / z),
    C("logaddexp", lambda m, x, y: x.logaddexp(y), [A, B], np.logaddexp),
    C("logaddexp2", lambda m, x, y: x.logaddexp2(y), [A, B], np.logaddexp2),
    C("copysign", lambda m, x, y: x.copysign(y), [A, B], np.copysign),
    C("deg2rad", lambda m, x: x.deg2rad() + x.rad2deg(), [A],
      lambda x: np.deg2rad(x) + np.rad2deg(x), torch_grad_fn=False),
    C("nan_to_num", lambda m, x: x.nan_to_num(posinf=5.0), [np.array([1.0, np.nan, np.inf])],
      lambda x: np.nan_to_num(x, posinf=5.0)),
    C("where", lambda m, x, y: x.where(x > 0.5, y), [A, B], lambda x, y: np.where(x > .5, x, y)),
    C("masked_fill", lambda m, x: x.masked_fill(x > 0.5, -1.0), [A],
      lambda x: np.where(x > .5, -1.0, x)),
    C("masked_fill_tensor", lambda m, x, v: x.masked_fill(x > 0.5, v), [A, np.array(2.5)],
      lambda x, v: np.where(x > .5, v, x)),
    # comparisons and predicates (no gradient)
    C("eq", lambda m, x, y: x.eq(y), [A, TIE], np.equal, grad=False),
    C("ne", lambda m, x, y: x.ne(y).logical_xor(x.not_equal(y)), [A, TIE],
      lambda x, y: np.zeros(x.shape, bool), grad=False),
    C("gt_ge_lt_le", lambda m, x, y: x.gt(y).logical_and(x.ge(y)).logical_or(x.lt(y)
                                                                                .logical_not()),
      [A, B], lambda x, y: (x > y) | ~(x < y), grad=False),
    C("greater_less", lambda m, x: x.greater(0).logical_and(x.less_equal(1.0)), [A],
      lambda x: (x > 0) & (x <= 1), grad=False),
    *[C(name, lambda m, x, name=name: getattr(x, name)(), [ODD], getattr(np, name),
        grad=False) for name in ("isnan", "isinf", "isfinite", "isposinf", "isneginf",
                                 "signbit", "isreal")],
    C("isclose", lambda m, x, y: x.isclose(y, atol=0.5), [A, B],
      lambda x, y: np.isclose(x, y, atol=.5), grad=False),
    # --- reductions and scans ----------------------------------------------------------------
    # amax and amin share the gradient evenly among equal elements
    C("amax", lambda m, x: x.amax(), [REPS], lambda x: x.max(),
      grads=lambda x, w: [w * (x == x.max()) / np.sum(x == x.max())]),
    C("amax_dim", lambda m, x: x.amax(dim=1, keepdim=True), [REPS],
      lambda x: x.max(1, keepdims=True), grads=lambda x, w: [
          w * (x == x.max(1, keepdims=True)) / np.sum(x == x.max(1, keepdims=True), 1,
                                                        keepdims=True)]),
    C("amin_dims", lambda m, x: x.amin((0, 1)), [REPS], lambda x: x.min(),
      grads=lambda x, w: [w * (x == x.min()) / np.sum(x == x.min())]),
    C("aminmax", lambda m, x: x.aminmax(dim=0), [A], lambda x: (x.min(0), x.max(0))),
    C("logsumexp", lambda m, x: x.logsumexp(1), [A], lambda x: sps.logsumexp(x, 1)),
    C("logsumexp_keep", lambda m, x: x.logsumexp((0, 1), keepdim=True), [A],
      lambda x: sps.logsumexp(x, keepdims=True)),
    C("logcumsumexp", lambda m, x: x.logcumsumexp(1), [A * 2], lambda x: _logcumsumexp(x, 1)),
    C("logcumsumexp0", lambda m, x: x.logcumsumexp(0), [A], lambda x: _logcumsumexp(x, 0)),
    C("nansum", lambda m, x: x.nansum(1), [np.where(MASK, np.nan, A)],
      lambda x: np.nansum(x, 1)),
    C("nanmean", lambda m, x: x.nanmean(0, keepdim=True), [np.where(MASK, np.nan, A)],
      lambda x: np.nanmean(x, 0, keepdims=True)),
    C("median", lambda m, x: x.median(), [A], lambda x: np.sort(x.ravel())[5]),
    C("median_dim", lambda m, x: x.median(1), [A],
      lambda x: (np.sort(x, 1)[:, 1], np.argsort(x, 1)[:, 1])),
    C("nanmedian_dim", lambda m, x: x.nanmedian(0), [np.where(A > 1.4, np.nan, A)],
      lambda x: (np.array([-0.6, 0.7, -0.4, -2.2]), np.array([2, 1, 1, 1]))),
    C("median_nan", lambda m, x: x.median(1).values, [np.where(A > 1.7, np.nan, A)],
      lambda x: np.array([np.nan, -0.4, np.nan])),
    C("nanmedian_all", lambda m, x: x.nanmedian(), [np.where(A > 1.4, np.nan, A)],
      lambda x: np.array(0.2)),
    C("kthvalue", lambda m, x: x.kthvalue(3, 1, True), [A],
      lambda x: (np.sort(x, 1)[:, 2:3], np.argsort(x, 1)[:, 2:3])),
    C("mode", lambda m, x: x.mode(1), [REPS], lambda x: _mode(x),
      grads=lambda x, w: [_picked(x.shape, np.array(_mode(x)[1])[:, None], 1, w[:, None])]),
    C("topk", lambda m, x: x.topk(2), [A],
      lambda x: (-np.sort(-x, 1)[:, :2], np.argsort(-x, 1)[:, :2])),
    C("topk_smallest_dim0", lambda m, x: x.topk(2, dim=0, largest=False), [A],
      lambda x: (np.sort(x, 0)[:2], np.argsort(x, 0)[:2])),
    C("cummax", lambda m, x: x.cummax(1), [REPS], lambda x: _cummax(x, 1),
      grads=lambda x, w: [_picked(x.shape, _cummax(x, 1)[1], 1, w)]),
    C("cummin", lambda m, x: x.cummin(0), [-REPS.T],
      lambda x: tuple(-v if k == 0 else v for k, v in enumerate(_cummax(-x, 0))),
      grads=lambda x, w: [_picked(x.shape, _cummax(-x, 0)[1], 0, w)]),
    C("cummax_distinct", lambda m, x: x.cummax(0), [A], lambda x: _cummax(x, 0)),
    C("count_nonzero", lambda m, x: x.count_nonzero(1), [np.where(MASK, 0.0, A)],
      lambda x: np.count_nonzero(x, 1), grad=False),
    C("quantile", lambda m, x: x.quantile(0.3, dim=1), [A], lambda x: np.quantile(x, .3, 1)),
    C("quantile_q", lambda m, x, q: x.quantile(q), [A, np.array([0.1, 0.5, 0.95])],
      lambda x, q: np.quantile(x, q), grad=False),
    C("nanquantile", lambda m, x: x.nanquantile(0.6, dim=0, keepdim=True),
      [np.where(A > 1.4, np.nan, A)], lambda x: np.nanquantile(x, .6, 0, keepdims=True)),
    C("cov", lambda m, x: x.cov(), [A], np.cov),
    C("cov_weights", lambda m, x, a: x.cov(correction=0, aweights=a), [A, P[0]],
      lambda x, a: np.cov(x, ddof=0, aweights=a), grad=False),
    C("corrcoef", lambda m, x: x.corrcoef(), [A], np.corrcoef),
    # (NumPy's methods read x.prod(1, True)'s True as a dtype and x.argsort(1, True)'s as
    # a sort kind, ignored: ascending where PyTorch sorts descending)
    C("prod_dim_keepdim", lambda m, x: x.prod(1, True), [A],
      lambda x: x.prod(1, keepdims=True), torch_grad_fn=False),
    C("prod_dim_kw", lambda m, x: x.prod(dim=0), [A], lambda x: x.prod(0), torch_grad_fn=False),
    C("cumsum_dim", lambda m, x: x.cumsum(dim=1), [A], lambda x: x.cumsum(1)),
    C("cumprod_dim", lambda m, x: x.cumprod(dim=0), [A], lambda x: x.cumprod(0),
      torch_grad_fn=False),
    C("all_any_dim", lambda m, x: x.all(1, True).logical_xor(x.any(dim=0)), [MASK * A],
      lambda x: np.logical_xor(x.all(1, keepdims=True), x.any(0)), grad=False),
    C("argsort_descending", lambda m, x: x.argsort(1, True), [A],
      lambda x: np.argsort(-x, axis=1), grad=False),
    C("argsort_dim0", lambda m, x: x.argsort(dim=0), [A], lambda x: np.argsort(x, axis=0),
      grad=False),
    C("nonzero", lambda m, x: x.nonzero(), [MASK * A], np.argwhere, grad=False),
    C("nonzero_as_tuple", lambda m, x: x.nonzero(as_tuple=True), [MASK * A], np.nonzero,
      grad=False),
    C("diagonal_dims", lambda m, x: x.diagonal(1, dim1=-1, dim2=0), [T3],
      lambda x: np.diagonal(x, 1, 2, 0), torch_grad_fn=False),
    C("norm_of_complex_is_real", lambda m, x: (x * (1 + 2j)).norm(dim=1), [A],
      lambda x: np.sqrt(5) * np.linalg.norm(x, axis=1)),
    C("norm_of_complex_p3", lambda m, x: (x * 1j + 0.5).norm(3), [A],
      lambda x: np.sum(np.abs(x * 1j + 0.5) ** 3) ** (1 / 3)),
    C("norm_0_counts_nonzeros", lambda m, x: x.norm(0, dim=0), [np.where(MASK, 0.0, A)],
      lambda x: np.count_nonzero(x, axis=0).astype(float), grad=False),
    C("norm_nuc", lambda m, x: x.norm(p="nuc"), [A], lambda x: np.linalg.norm(x, "nuc"),
      torch_grad_fn=False),
    C("norm_minus_inf", lambda m, x: x.norm(float("-inf"), dim=1), [A],
      lambda x: np.abs(x).min(1)),
    # --- picking and placing -----------------------------------------------------------------
    C("gather", lambda m, x, i: x.gather(0, i), [A, IDX], lambda x, i: _gather(x, i, 0)),
    C("gather_smaller", lambda m, x, i: x.gather(1, i), [A, IDX1[:, :1]],
      lambda x, i: _gather(x, i, 1)),
    C("scatter", lambda m, x, i, s: x.scatter(1, i, s), [A, np.array([[3, 0], [1, 2], [2, 0]]),
                                                           B[:, :2]],
      lambda x, i, s: _scatter(x, 1, i, s)),
    C("scatter_value", lambda m, x, i: x.scatter(0, i, value=7.0), [A, IDX[:1]],
      lambda x, i: _scatter(x, 0, i, np.full(i.shape, 7.0))),
    C("scatter_add", lambda m, x, i, s: x.scatter_add(0, i, s), [A, IDX, B[:2]],
      lambda x, i, s: _scatter(x, 0, i, s, "add")),
    C("scatter_reduce_sum", lambda m, x, i, s: x.scatter_reduce(0, i, s, "sum",
                                                                 include_self=False),
      [A, IDX, B[:2]], lambda x, i, s: _scatter(np.where(_hit(x, 0, i), 0, x), 0, i, s, "add")),
    C("scatter_reduce_amax", lambda m, x, i, s: x.scatter_reduce(0, i, s, "amax"),
      [A, IDX, B[:2]], lambda x, i, s: _scatter(x, 0, i, s, "max")),
    C("scatter_reduce_mean", lambda m, x, i, s: x.scatter_reduce(0, i, s, "mean"),
      [A, IDX, B[:2]], lambda x, i, s: _scatter(x, 0, i, s, "add") / (1 + _count(x, 0, i))),
    C("scatter_reduce_prod", lambda m, x, i, s: x.scatter_reduce(0, i, s, "prod"),
      [A, IDX, B[:2]], lambda x, i, s: _scatter_prod(x, 0, i, s)),
    C("index_select", lambda m, x, i: x.index_select(1, i), [A, np.array([3, 0, 3])],
      lambda x, i: x[:, i]),
    C("index_add", lambda m, x, i, s: x.index_add(0, i, s, alpha=2), [A, np.array([2, 0, 2]), B],
      lambda x, i, s: _index_add(x, i, 2 * s)),
    C("index_fill", lambda m, x, i: x.index_fill(1, i, -1.0), [A, np.array([1, 3])],
      lambda x, i: _set_cols(x, i, -1.0)),
    C("index_copy", lambda m, x, i, s: x.index_copy(1, i, s), [A, np.array([1, 3]), B[:, :2]],
      lambda x, i, s: _set_cols(x, i, s)),
    C("masked_select", lambda m, x: x.masked_select(x > 0.5), [A], lambda x: x[x > .5]),
    C("take_along_dim", lambda m, x, i: x.take_along_dim(i, 1), [A, IDX1],
      lambda x, i: _gather(x, i, 1)),
    C("take_along_dim_flat", lambda m, x, i: x.take_along_dim(i), [A, np.array([11, 0, 5])],
      lambda x, i: x.ravel()[i]),
    C("flip", lambda m, x: x.flip(0, 1) + x.flip([1]).fliplr() + x.flipud().flip(0), [A],
      lambda x: x[::-1, ::-1] + 2 * x),
    C("roll", lambda m, x: x.roll(1, 1) + x.roll((1, -1), (0, 1)) + x.roll(2), [A],
      lambda x: np.roll(x, 1, 1) + np.roll(x, (1, -1), (0, 1)) + np.roll(x, 2)),
    C("rot90", lambda m, x: x.rot90(3, [1, 0]), [A], lambda x: np.rot90(x, 3, (1, 0))),
    C("tril_triu", lambda m, x: x.tril(-1) + 2 * x.triu(1), [T3],
      lambda x: np.tril(x, -1) + 2 * np.triu(x, 1)),
    C("diag", lambda m, x: x.diag(1), [A], lambda x: np.diag(x, 1)),
    C("diag_of_vector", lambda m, x: x.diag(-1), [V3], lambda x: np.diag(x, -1)),
    C("diag_embed", lambda m, x: x.diag_embed(1), [A], _diag_embed),
    C("diag_embed_dims", lambda m, x: x.diag_embed(0, 0, 2), [A[:2, :3]],
      lambda x: np.moveaxis(np.stack([np.diag(r) for r in x]), (1, 2), (0, 2))),
    C("index_put", lambda m, x, v: x.index_put((m.tensor([0, 2]), m.tensor([1, 3])), v),
      [A, B[0, :2]], lambda x, v: _put(x, ([0, 2], [1, 3]), v)),
    C("index_put_accumulate", lambda m, x, v: x.index_put((m.tensor([0, 0, 2]),), v,
                                                         accumulate=True), [A, B],
      lambda x, v: _put(x, ([0, 0, 2],), v, add=True)),
    C("masked_scatter", lambda m, x, s: x.masked_scatter(x > 0.5, s), [A, B],
      lambda x, s: _masked_scatter(x, x > 0.5, s)),
    C("diagflat", lambda m, x: x.diagflat(1), [A[:2, :2]], lambda x: np.diagflat(x, 1),
      torch_grad_fn=False),
    # --- cutting and re-axing ----------------------------------------------------------------
    C("split", lambda m, x: x.split(3, dim=1), [A], lambda x: (x[:, :3], x[:, 3:])),
    C("split_sizes", lambda m, x: x.split([1, 2]), [A], lambda x: (x[:1], x[1:])),
    C("chunk", lambda m, x: x.chunk(3, 1), [A], lambda x: (x[:, :2], x[:, 2:])),
    C("tensor_split", lambda m, x: x.tensor_split(3, dim=1), [A],
      lambda x: (x[:, :2], x[:, 2:3], x[:, 3:])),
    C("tensor_split_at", lambda m, x: x.tensor_split([1, 3], dim=1), [A],
      lambda x: (x[:, :1], x[:, 1:3], x[:, 3:])),
    C("hsplit", lambda m, x: x.hsplit(2), [A], lambda x: (x[:, :2], x[:, 2:])),
    C("unbind", lambda m, x: x.unbind(1), [A], lambda x: tuple(x.T)),
    C("narrow", lambda m, x: x.narrow(1, -3, 2), [A], lambda x: x[:, 1:3]),
    C("select", lambda m, x: x.select(0, -1), [A], lambda x: x[-1]),
    C("movedim", lambda m, x: x.movedim((0, 1), (2, 0)) * 1 + x.moveaxis(0, -1), [T3],
      lambda x: np.moveaxis(x, (0, 1), (2, 0)) + np.moveaxis(x, 0, -1)),
    C("swapdims", lambda m, x: x.swapdims(0, 2), [T3], lambda x: np.swapaxes(x, 0, 2)),
    C("tile", lambda m, x: x.tile(2, 1, 2), [A], lambda x: np.tile(x, (2, 1, 2))),
    C("unflatten", lambda m, x: x.unflatten(1, (2, -1)), [A], lambda x: x.reshape(3, 2, 2)),
    C("unfold", lambda m, x: x.unfold(1, 2, 1), [A], lambda x: np.moveaxis(
        np.lib.stride_tricks.sliding_window_view(x, 2, axis=1), 1, 1), torch_grad_fn=False),
    C("unfold_step", lambda m, x: x.unfold(0, 2, 1).unfold(1, 3, 2), [A], lambda x: np.array(
        [[x[r:r + 2, 2 * c:2 * c + 3] for c in range(1)] for r in range(2)]),
      torch_grad_fn=False),
    C("sum_to_size", lambda m, x: x.sum_to_size(3, 1), [T3],
      lambda x: x.sum(axis=(0, 2)).reshape(3, 1), torch_grad_fn=False),
    C("sum_to_size_keep", lambda m, x: x.sum_to_size(1, 3, 1), [T3],
      lambda x: x.sum((0, 2)).reshape(1, 3, 1)),
    C("diff", lambda m, x: x.diff(dim=0), [A], lambda x: np.diff(x, axis=0),
      torch_grad_fn=False),
    C("diff_append", lambda m, x, y: x.diff(2, 1, append=y), [A, B],
      lambda x, y: np.diff(np.concatenate([x, y], 1), 2, 1), torch_grad_fn=False),
    C("H", lambda m, x: x.H + x.mH.mH.t() + x.adjoint().t().t(), [A],
      lambda x: 3 * x.T, torch_grad_fn=False),
    C("type_as", lambda m, x, y: x.type_as(y), [A, IDX1], lambda x, y: x.astype(np.int64),
      grad=False),
    C("msort", lambda m, x: x.msort(), [A], lambda x: np.sort(x, 0), torch_grad_fn=False),
    # --- linear algebra ----------------------------------------------------------------------
    C("dist", lambda m, x, y: x.dist(y) + x.dist(y, 3), [A, B],
      lambda x, y: np.linalg.norm((x - y).ravel()) + np.sum(np.abs(x - y) ** 3) ** (1 / 3),
      torch_grad_fn=False),
    C("renorm", lambda m, x: x.renorm(2, 0, 2.0), [A],
      lambda x: x * np.minimum(1, 2.0 / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-7)),
      torch_grad_fn=False),
    C("outer", lambda m, x, y: x.outer(y) + x.ger(y), [V3, W3],
      lambda x, y: 2 * np.outer(x, y), torch_grad_fn=False),
    C("inner", lambda m, x, y: x.inner(y), [A, B], np.inner),
    C("kron", lambda m, x, y: x.kron(y), [M, A[:2, :2]], np.kron),
    C("vdot", lambda m, x, y: x.vdot(y), [V3, W3], np.vdot, torch_grad_fn=False),
    C("cross", lambda m, x, y: x.cross(y, dim=1), [A[:, :3], B[:, :3]],
      lambda x, y: np.cross(x, y, axis=1)),
    C("addmm", lambda m, s, a, b: s.addmm(a, b, beta=0.5, alpha=2), [M, A[:, :2], B[:2, :3]],
      lambda s, a, b: 0.5 * s + 2 * a @ b),
    C("addmv", lambda m, s, a, v: s.addmv(a, v), [V3, M, W3], lambda s, a, v: s + a @ v),
    C("addr", lambda m, s, a, b: s.addr(a, b, alpha=3), [M, V3, W3],
      lambda s, a, b: s + 3 * np.outer(a, b)),
    C("baddbmm", lambda m, s, a, b: s.baddbmm(a, b, beta=0), [T3[:, :, :2], T3,
                                                              T3.transpose(0, 2, 1)[:, :, :2]],
      lambda s, a, b: a @ b),
    C("baddbmm_beta", lambda m, s, a, b: s.baddbmm(a, b, beta=0.5, alpha=-1),
      [T3[:, :, :2], T3, T3.transpose(0, 2, 1)[:, :, :2]], lambda s, a, b: s / 2 - a @ b),
    C("addbmm", lambda m, s, a, b: s.addbmm(a, b), [T3[0, :, :3], T3, T3.transpose(0, 2, 1)[
        :, :, :3] * 0 + np.ones((2, 4, 3))], lambda s, a, b: s + (a @ b).sum(0)),
    C("det", lambda m, x: x.det(), [M], np.linalg.det),
    C("logdet", lambda m, x: x.logdet(), [SPD], lambda x: np.log(np.linalg.det(x))),
    C("logdet_negative", lambda m, x: x.logdet(), [-M], lambda x: np.array(np.nan),
      grad=False),
    C("slogdet", lambda m, x: x.slogdet(), [-M], lambda x: tuple(np.linalg.slogdet(x))),
    C("inverse", lambda m, x: x.inverse(), [M], np.linalg.inv),
    C("pinverse", lambda m, x: x.pinverse(), [A], np.linalg.pinv),
    C("matrix_exp", lambda m, x: x.matrix_exp(), [M / 2], lambda x: _expm(x)),
    C("matrix_power", lambda m, x: x.matrix_power(3), [M],
      lambda x: np.linalg.matrix_power(x, 3), torch_grad_fn=False),
    C("cholesky", lambda m, x: ((x + x.mT) / 2).cholesky(), [SPD], np.linalg.cholesky,
      torch_grad_fn=False),
    C("cholesky_upper", lambda m, x: ((x + x.mT) / 2).cholesky(upper=True), [SPD],
      lambda x: np.linalg.cholesky(x).T, torch_grad_fn=False),
]
BY_NAME = {c.name: c for c in CASES}
# torch's result comes from a composition of its own (or a node of several outputs): the
# grad_fn names differ (torch's SqueezeBackward4 for quantile, UnsafeViewBackward0 for kron)
TORCH_COMPOSES = {"tensor_split", "tensor_split_at", "hsplit", "split_sizes", "unbind",
                  "quantile", "nanquantile", "cov", "corrcoef", "inner", "kron", "logdet",
                  "diag", "aminmax"}
assert len(BY_NAME) == len(CASES), "case names are unique"


def _hit(x, dim, i):
    return _count(x, dim, i) > 0


def _count(x, dim, i):
    count = np.zeros(x.shape)
    for pos in np.ndindex(i.shape):
        target = list(pos)
        target[dim] = i[pos]
        count[tuple(target)] += 1
    return count


def _scatter_prod(x, dim, i, s):
    out = x.copy()
    for pos in np.ndindex(i.shape):
        target = list(pos)
        target[dim] = i[pos]
        out[tuple(target)] *= s[pos]
    return out


def _index_add(x, i, s):
    out = x.copy()
    np.add.at(out, i, s)
    return out


def _set_cols(x, i, v):
    out = x.copy()
    out[:, i] = v
    return out


def _expm(x):
    out, term = np.eye(len(x)), np.eye(len(x))
    for k in range(1, 30):
        term = term @ x / k
        out = out + term
    return out


def _outputs(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


def _weights(shape):
    n = int(np.prod(shape))
    return (np.cos(np.arange(n) * 1.7) + 1.5).reshape(shape)


def _scalar(lib, out):
    """A scalar of the floating outputs with fixed weights (no symmetric cancellation)."""
    total = 0
    for o in _outputs(out):
        if o.dtype in (np.float32, np.float64) or str(o.dtype) in ("torch.float32",
                                                                  "torch.float64"):
            w = lib.tensor(_weights(tuple(o.shape)), dtype=o.dtype)
            total = total + (o * w).nansum() if hasattr(o, "nansum") else total
    return total


def _tensors(lib, case, dtype, grad):
    ts = []
    for a in case.args:
        floating = a.dtype.kind == "f"
        t = lib.tensor(a.astype(dtype) if floating else a)
        if floating and grad and case.grad:
            t.requires_grad_(True)
        ts.append(t)
    return ts


def _np(t):
    return np.asarray(t.detach().numpy() if hasattr(t, "detach") else t)


@pytest.mark.parametrize("name", list(BY_NAME))
def test_value_matches_numpy_and_gradient_matches_finite_differences(name):
    case = BY_NAME[name]
    ts = _tensors(fg, case, np.float64, grad=False)
    out = case.fn(fg, *ts)
    expected = case.ref(*case.args)
    got, want = _outputs(out), _outputs(expected)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, fg.Tensor)
        np.testing.assert_allclose(_np(g), np.asarray(w), rtol=1e-7, atol=1e-9,
                                   err_msg=f"{name}")
    if case.grads is not None:
        ts = _tensors(fg, case, np.float64, grad=True)
        _scalar(fg, case.fn(fg, *ts)).backward()
        w = _weights(tuple(_outputs(out)[0].shape))
        floats = [a for a in case.args if a.dtype.kind == "f"]
        expected = case.grads(*floats, w)
        for t, e in zip([t for t in ts if t.requires_grad], expected, strict=True):
            np.testing.assert_allclose(t.grad.numpy(), e, rtol=1e-12, atol=1e-12,
                                       err_msg=f"{name} gradient")
    elif case.grad:
        inputs = tuple(fg.tensor(a, requires_grad=True) if a.dtype.kind == "f" else fg.tensor(a)
                       for a in case.args)
        assert fg.gradcheck(lambda *ts: _scalar(fg, case.fn(fg, *ts)), inputs, eps=1e-6,
                            atol=1e-5, rtol=1e-4)


def _torch_case(case, dtype):
    def run(lib):
        ts = _tensors(lib, case, dtype, grad=True)
        out = case.fn(lib, *ts)
        names = [o.grad_fn.name() if o.grad_fn is not None else None for o in _outputs(out)]
        leaves = [t for t in ts if t.requires_grad]
        if leaves and any(getattr(o, "requires_grad", False) for o in _outputs(out)):
            _scalar(lib, out).backward()
        return out, [t.grad for t in leaves], names
    return run(torch), run(fg)


# (without torch, one skipped test for the whole table rather than one per row)
TORCH_ROWS = [] if torch is None else [
    pytest.param(name, dtype, id=f"{name}-{np.dtype(dtype).name}")
    for name in BY_NAME for dtype in (np.float64, np.float32)]


@pytest.mark.parametrize("name, dtype", TORCH_ROWS)
def test_value_dtype_shape_and_gradient_match_torch(name, dtype):
    case = BY_NAME[name]
    (t_out, t_grads, t_names), (f_out, f_grads, f_names) = _torch_case(case, dtype)
    assert type(f_out).__name__ == type(t_out).__name__
    for field in getattr(f_out, "_fields", ()):  # torch.return_types: fields by name
        assert getattr(f_out, field) is not None and getattr(t_out, field) is not None
    tol = dict(rtol=1e-9, atol=1e-12) if dtype == np.float64 else dict(rtol=2e-4, atol=1e-5)
    if case.torch_grad_fn and name not in TORCH_COMPOSES:
        assert [f_names[k] for k, t in enumerate(t_names) if t] == [t for t in t_names if t]
    for f, t in zip(_outputs(f_out), _outputs(t_out), strict=True):
        assert str(f.dtype) == str(t.dtype).replace("torch.", ""), name
        assert tuple(f.shape) == tuple(t.shape), name
        np.testing.assert_allclose(_np(f), t.detach().numpy(), **tol, err_msg=name)
        assert f.requires_grad == t.requires_grad, name
    for f, t in zip(f_grads, t_grads, strict=True):
        assert (f is None) == (t is None), name
        if t is not None:
            assert str(f.dtype) == str(t.dtype).replace("torch.", "")
            np.testing.assert_allclose(_np(f), t.numpy(), **tol, err_msg=f"{name} gradient")


# --- beyond the table: in-place forms, errors, dtypes, descriptions --------------------------

@pytest.mark.parametrize("name, args, expected", [
    ("expm1_", (), np.expm1([0.5, -1.0])), ("mul_", (3.0,), [1.5, -3.0]),
    ("clamp_min_", (0.0,), [0.5, 0.0]), ("masked_fill_", (np.array([True, False]), 2.0),
                                         [2.0, -1.0]),
    ("eq_", (0.5,), [1.0, 0.0]), ("lerp_", (np.array([1.5, 1.0]), 0.5), [1.0, 0.0])])
def test_inplace_forms_write_the_value_bump_the_version_and_refuse_grad_leaves(name, args,
                                                                              expected):
    args = tuple(fg.tensor(a) if isinstance(a, np.ndarray) else a for a in args)
    x = fg.tensor([0.5, -1.0], dtype=np.float64)
    version = x._version
    assert getattr(x, name)(*args) is x
    np.testing.assert_allclose(x.numpy(), expected)
    assert x._version == version + 1 and x.dtype == np.float64
    leaf = fg.tensor([0.5, -1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        getattr(leaf, name)(*args)
    y = leaf * 1  # not a leaf: recorded, with the in-place node as its grad_fn
    getattr(y, name)(*args)
    assert y.requires_grad and y.grad_fn is not None


def test_inplace_refuses_a_result_dtype_the_tensor_cannot_hold():
    with pytest.raises(RuntimeError, match="can't be cast"):
        fg.tensor([1, 2]).expm1_()


@pytest.mark.parametrize("op", [lambda x: x.floor_divide(2.0), lambda x: x.heaviside(
    fg.tensor(0.5, dtype=np.float64)), lambda x: x.unique()])
def test_operations_torch_cannot_differentiate_raise_in_the_backward_pass(op):
    x = fg.tensor([1.5, -2.5, 1.5], requires_grad=True, dtype=np.float64)
    y = op(x)
    assert y.requires_grad
    with pytest.raises(RuntimeError, match="derivative for .* is not implemented"):
        y.sum().backward()


def test_rounded_division_has_a_zero_gradient_and_keeps_integers():
    x = fg.tensor([7.0, -7.0], requires_grad=True)
    x.div(2.0, rounding_mode="trunc").sum().backward()
    assert x.grad.numpy().tolist() == [0.0, 0.0]
    a, b = fg.tensor([7, -7]), fg.tensor([2, 2])
    assert a.div(b, rounding_mode="trunc").tolist() == [3, -3]
    assert a.div(b, rounding_mode="floor").tolist() == [3, -4]
    assert a.floor_divide(b).dtype == np.int64 and a.true_divide(b).dtype == np.float32


@pytest.mark.parametrize("method", ["expm1", "erf", "lgamma", "rsqrt", "log2", "sinc",
                                    "deg2rad", "logit"])
def test_floating_functions_give_integers_the_default_float_dtype(method):
    assert getattr(fg.tensor([1, 2]), method)().dtype == np.float32
    assert fg.tensor([1, 2]).atan2(fg.tensor([3, 4])).dtype == np.float32


def test_comparisons_predicates_and_float_power_dtypes():
    x = fg.tensor([1.0, 2.0])
    assert x.gt(1).dtype == bool and x.isnan().dtype == bool and x.isclose(x).dtype == bool
    assert x.float_power(2).dtype == np.float64 and x.square().dtype == np.float32
    assert fg.tensor([3, 4]).square().dtype == np.int64


def test_unique_and_unique_consecutive_return_what_is_asked():
    x = fg.tensor([3, 1, 3, 3, 2, 1])
    values, inverse, counts = x.unique(return_inverse=True, return_counts=True)
    assert values.tolist() == [1, 2, 3] and inverse.tolist() == [2, 0, 2, 2, 1, 0]
    assert counts.tolist() == [2, 1, 3]
    values, counts = x.unique_consecutive(return_counts=True)
    assert values.tolist() == [3, 1, 3, 2, 1] and counts.tolist() == [1, 1, 2, 1, 1]
    assert x.argwhere().tolist() == [[0], [1], [2], [3], [4], [5]]


def test_new_tensors_and_descriptions():
    x = fg.tensor([[1.0, 2.0]], dtype=np.float64)
    assert x.new_zeros(2, 3).dtype == np.float64 and x.new_ones((2,)).tolist() == [1.0, 1.0]
    assert x.new_full((2,), 7, dtype=np.int64).tolist() == [7, 7]
    t = x.new_tensor([1, 2], requires_grad=False)
    assert t.dtype == np.float64 and t.is_leaf and x.new_empty(3).shape == (3,)
    assert (x.nelement(), x.element_size(), x.itemsize, x.nbytes) == (2, 8, 8, 16)
    assert x.is_contiguous() and not x.is_complex() and x.is_signed()
    assert x.is_same_size(fg.ones(1, 2)) and fg.tensor([2.0]).is_nonzero()
    assert x.type_as(fg.tensor([1])).dtype == np.int64


def test_errors_name_the_problem():
    x = fg.tensor([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(RuntimeError, match="int64 for index"):
        x.gather(1, fg.tensor([[0], [1]], dtype=np.int16))  # (int32 is taken: PyTorch 2.13)
    with pytest.raises(IndexError, match="out of bounds"):
        x.gather(1, fg.tensor([[2], [0]]))
    with pytest.raises(RuntimeError, match="sum exactly to 2"):
        x.split([1, 2])
    with pytest.raises(ValueError, match="rounding_mode"):
        x.div(2, rounding_mode="round")
    with pytest.raises(IndexError, match="out of range"):
        x.kthvalue(3)


def test_where_promotes_as_pytorch():
    """A 0-d float64 Tensor, a number or a NumPy scalar does not widen a float32 Tensor
    (PyTorch's promotion); a float64 Tensor with dimensions does."""
    t = fg.tensor([1.0, -2.0], requires_grad=True)
    for other, dtype in [(fg.tensor(1.5, dtype=fg.float64), np.float32), (2, np.float32),
                         (np.float64(3.0), np.float32),
                         (fg.tensor([1.5, 2.5], dtype=fg.float64), np.float64)]:
        r = t.where(t > 0, other)
        assert r.dtype == dtype
        np.testing.assert_allclose(r.detach().numpy(), np.where([True, False], [1.0, -2.0],
                                   np.asarray(getattr(other, "detach", lambda: other)())))
    r.sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), [1.0, 0.0])


def test_the_zero_norm_counts_nonzeros_with_a_zero_gradient():
    # (torch leaves .grad None here; the count is a step, so zero is its derivative)
    x = fg.tensor([[0.0, 2.0], [-3.0, 0.0], [1.0, 1.0]], requires_grad=True)
    n = x.norm(0)
    assert n.item() == 4.0 and n.requires_grad
    n.backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((3, 2)))


def test_fill_diagonal_and_bitwise_not_in_place():
    z = fg.tensor(A, requires_grad=True) * 1.0
    z.fill_diagonal_(0.5)
    expected = A.copy()
    np.fill_diagonal(expected, 0.5)
    np.testing.assert_array_equal(_np(z), expected)
    tall = fg.zeros(7, 2).fill_diagonal_(1.0, wrap=True)
    expected = np.zeros((7, 2))
    np.fill_diagonal(expected, 1.0, wrap=True)
    np.testing.assert_array_equal(_np(tall), expected)
    assert fg.tensor([1, -2]).bitwise_not_().tolist() == [-2, 1]
    with pytest.raises(RuntimeError, match="bitwise operations take integer or bool"):
        fg.tensor([1.0]).bitwise_not()


def test_softmax_and_log_softmax_compute_in_the_dtype_asked():
    x = fg.tensor(A, requires_grad=True)
    y = x.softmax(1, dtype=fg.float32)
    z = x.log_softmax(0, fg.float32)
    assert y.dtype == np.float32 and z.dtype == np.float32
    np.testing.assert_allclose(_np(y), np.exp(A) / np.exp(A).sum(1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(_np(z), A - np.log(np.exp(A).sum(0)), rtol=1e-6)
    (z[0] * 1).sum().backward()  # the gradient comes back in x's dtype
    assert x.grad.dtype == np.float64


def test_relu_passes_nan_through_and_norms_and_logit_at_their_edges():
    x = fg.tensor([np.nan, -1.0, 0.0, 2.0], requires_grad=True)
    y = x.relu()
    np.testing.assert_array_equal(_np(y), [np.nan, 0.0, 0.0, 2.0])  # (it gave 0 for NaN)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 0.0, 0.0, 1.0])
    z = fg.tensor([[0.0, 0.0], [3.0, -4.0]], requires_grad=True)
    z.norm(3, dim=1).sum().backward()  # a zero row's gradient is 0 (it was NaN), as p=2's
    g = np.abs([3.0, 4.0]) ** 2 * np.sign([3.0, -4.0]) / (27 + 64) ** (2 / 3)
    np.testing.assert_allclose(z.grad.numpy(), [[0.0, 0.0], g])
    p = fg.tensor([0.0, 1.0, 0.25], requires_grad=True)
    p.logit().sum().backward()  # 1 / (p (1 - p)): infinite at 0 and 1 (it was NaN)
    np.testing.assert_allclose(p.grad.numpy(), [np.inf, np.inf, 1 / (0.25 * 0.75)])


def test_tril_and_triu_refuse_vectors_as_torch():
    """torch: "tril: input tensor must have at least 2 dimensions" (NumPy's tril would
    make a 3 x 3 matrix of a 3-vector)."""
    for name in ("tril", "triu"):
        with pytest.raises(RuntimeError, match=f"{name}: input tensor must have at least 2"):
            getattr(fg.zeros(3), name)()
        assert getattr(fg.ones(2, 2), name)().shape == (2, 2)


def test_tensor_methods_work_inside_transforms_as_in_torch_func():
    """torch.func.grad(lambda x: x.sin().sum())(t): the function receives the traced value,
    which has the Tensor methods NumPy's arrays lack (x.sin(), x.relu(), x.pow(2)...)."""
    t = fg.tensor([0.5, 2.0], dtype=np.float64)
    g = fg.grad(lambda x: x.sin().sum())(t)
    np.testing.assert_allclose(np.asarray(g.numpy()), np.cos([0.5, 2.0]), rtol=1e-15)
    v = fg.vmap(lambda x: x.sigmoid().pow(2))(t)
    np.testing.assert_allclose(np.asarray(v.numpy()), (1 / (1 + np.exp(-t.numpy()))) ** 2,
                               rtol=1e-14)
    x = np.array([1.0, 2.0, -1.0])
    np.testing.assert_array_equal(fg.grad(lambda x: x.pow(2).clamp(0, 3).relu().sum())(x),
                                  [2.0, 0.0, -2.0])  # (x = 2: clamped at 3)
    np.testing.assert_allclose(fg.jit(lambda x: x.tanh().exp())(x), np.exp(np.tanh(x)),
                               rtol=1e-14)
    # NumPy's names keep NumPy's meaning on traced values
    assert fg.grad(lambda x: x.sum())(x).tolist() == [1.0, 1.0, 1.0]


def test_a_tensors_flags_are_its_values_and_scipy_reads_them():
    """SciPy asks x.flags before reading an array (scipy.fftpack.dct): a Tensor answers
    with its values' layout, as the NumPy array it converts to (it said it was traced)."""
    import scipy.fftpack
    x = fg.zeros(2, 3)
    assert x.flags.c_contiguous and not x.t().flags.c_contiguous and x.t().flags.f_contiguous
    t = fg.tensor([1.0, 2.0, 4.0])
    np.testing.assert_array_equal(scipy.fftpack.dct(t), scipy.fftpack.dct(t.numpy()))

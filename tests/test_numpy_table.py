"""DESIGN.md's correctness bar, one row per differentiable ``funcgrad.numpy`` function.

Every public function of ``funcgrad.numpy``, ``funcgrad.numpy.linalg`` and
``funcgrad.numpy.fft`` is found by enumerating their ``__all__``; each one either has a
row in ``ROWS`` or a reason in ``EXEMPT`` (integer/boolean results, values that do not
depend on the input, helpers), and ``test_every_function_has_a_row_or_a_reason`` fails
for a function added without either (a ratchet).

A row is ``fn(m, *arrays)`` written once for both modules: ``fn(numpy, ...)`` is the
reference (or ``ref=`` where NumPy has no such call), ``fn(funcgrad.numpy, ...)`` is
checked.  Each row is checked for

* forward values, shapes and dtypes equal NumPy's;
* JVP against central differences *of NumPy's function*, along a random direction;
* the dot-product test ``<u, J v> == <J^T u, v>`` (reverse mode is forward mode's
  transpose);
* second order: ``jvp`` of ``grad`` against central differences of ``grad``;
* ``vmap(f)`` over a batch of two equals NumPy's results stacked (or ``novmap=`` with the
  reason: lengths that depend on the values);
* float32 in: NumPy's float32 output dtypes, and float32 gradients.

Complex outputs are checked through their real and imaginary parts; integer and boolean
outputs beside float ones (indices, counts) are compared as values only.  Inputs are tiny
and fixed, away from kinks and ties; tests/test_primitives.py holds the hypothesis-drawn
shapes for the primitives underneath.
"""
import warnings

import numpy as np
import pytest
from helpers import assert_close

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import tree

R = np.random.default_rng(2028)
X = R.uniform(0.2, 0.9, (2, 3))
Y = R.uniform(0.2, 0.9, (2, 3))
V = R.uniform(0.2, 0.9, 4)
V3 = R.uniform(0.2, 0.9, 3)
SC = np.array(0.37)
OFF = np.array([[-1.3, 0.27, 1.62], [2.38, -0.71, 0.84]])  # away from the jumps of floor & co.
NZX = X * np.array([1.0, -1.0, 1.0])  # both signs, away from 0
SQ = np.eye(3) * 1.5 + R.uniform(-0.4, 0.4, (3, 3))  # well conditioned
_Q = np.linalg.qr(R.standard_normal((3, 3)))[0]
SYM = (_Q * np.array([-1.2, 0.2, 0.9])) @ _Q.T  # symmetric, eigenvalues apart
SPD = (_Q * np.array([0.7, 1.4, 2.1])) @ _Q.T
RECT = np.linalg.qr(R.standard_normal((4, 3)))[0] * np.array([1.0, 1.6, 2.3]) @ _Q  # s apart
IDX = np.array([2, 0, 1, 1])
MASK = np.array([[True, False, True], [False, True, True]])
XN = X.copy()
XN[0, 1] = np.nan
SPECIAL = np.array([[1.0, np.nan, -1.0], [np.inf, -np.inf, -0.0]])
_V = np.eye(3) + 0.3 * R.uniform(-1.0, 1.0, (3, 3))
REAL_SPECTRUM = (_V * np.array([-1.2, 0.2, 0.9])) @ np.linalg.inv(_V)


class Row:
    """One function's checks: ``fn(m, *args)``; ``ref(*args)`` when ``fn(numpy, ...)`` is not
    NumPy's answer; ``novmap`` the reason vmap cannot apply; ``eps``/``rtol`` for the finite
    differences; ``vtol`` for values against NumPy; ``single`` the reason float32 in gives
    single precision out where NumPy widens."""

    def __init__(self, name, fn, *args, ref=None, novmap=None, eps=1e-6, rtol=1e-5,
                 vtol=1e-10, single=None):
        self.name, self.fn, self.args = name, fn, tuple(np.asarray(a) for a in args)
        self.ref, self.novmap, self.eps, self.rtol, self.vtol = ref, novmap, eps, rtol, vtol
        self.single = single

    def ours(self, *args):
        return self.fn(fnp, *args)

    def numpy(self, *args):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return self.ref(*args) if self.ref is not None else self.fn(np, *args)


def _deprecated(fn, *args):
    """``fn(*args)`` for a form NumPy still computes but warns about (2-vector cross)."""
    with pytest.deprecated_call():
        return fn(*args)


def row(name, fn, *args, **opts):
    return Row(name, fn, *args, **opts)


def unary(names, x=X, **opts):
    return [Row(n, lambda m, a, n=n: getattr(m, n)(a), x, **opts) for n in names.split()]


def binary(names, x=X, y=V3, **opts):
    return [Row(n, lambda m, a, b, n=n: getattr(m, n)(a, b), x, y, **opts) for n in names.split()]


def parts(m, z):
    """A complex result as its real and imaginary parts."""
    return m.real(z), m.imag(z)


def written(fn):
    """NumPy's in-place ``fn`` as a function returning the written copy."""
    def reference(a, *args, **kwargs):
        out = np.array(a, copy=True)
        fn(out, *args, **kwargs)
        return out
    return reference


def svd_gauge(m, x):
    """svd's outputs through functions that do not depend on each vector's sign."""
    u, s, vh = m.linalg.svd(x, full_matrices=False)
    return u * u[:1, :], s, vh * vh[:, :1]


def eig_gauge(m, x):
    w, v = m.linalg.eigh(x)
    return w, v * v[:1, :]


def shuffled(m, x):
    """The values of ``x`` in another order (set functions see repeats built from x)."""
    return m.concatenate([m.ravel(x), m.ravel(x)[[0, 2]]])


LINEAR_RANGE = dict(eps=1e-6)

ROWS = [
    # --- elementwise, unary --------------------------------------------------------------
    *unary("abs absolute fabs negative positive sin cos tan sinh cosh tanh arcsin arccos "
           "arctan arcsinh arctanh asin acos atan asinh atanh exp exp2 expm1 log log2 log10 "
           "log1p sqrt cbrt square reciprocal deg2rad degrees rad2deg radians sinc i0 "
           "real imag conj conjugate angle real_if_close nan_to_num"),
    *unary("arccosh acosh", 1.0 + X),
    *unary("ceil floor rint fix trunc sign spacing", OFF),
    row("round", lambda m, x: m.round(x, 1), OFF / 10 + 0.013),
    row("around", lambda m, x: m.around(x, 1), OFF / 10 + 0.013),
    row("abs-negative", lambda m, x: m.abs(x), NZX),
    row("sort_complex", lambda m, x: parts(m, m.sort_complex(x)), V,
        single="complex64 (float32 stays single precision, DESIGN.md, as jax.numpy); NumPy "
               "widens float32 to complex128"),
    row("nan_to_num-nan", lambda m, x: m.nan_to_num(x, nan=2.5, posinf=3.0), SPECIAL),
    row("modf", lambda m, x: m.modf(x), OFF),
    row("frexp", lambda m, x: m.frexp(x), OFF),
    row("ldexp", lambda m, x: m.ldexp(x, np.array([1, -2, 3])), X),
    row("i0-negative", lambda m, x: m.i0(x), NZX * 2.0),
    # --- elementwise, binary (broadcasting) ----------------------------------------------
    *binary("add subtract multiply divide true_divide maximum minimum fmax fmin arctan2 atan2 "
            "hypot logaddexp logaddexp2 copysign float_power power pow"),
    *binary("mod remainder fmod floor_divide divmod", OFF, np.array([0.7, -1.1, 1.9])),
    row("heaviside", lambda m, x, y: m.heaviside(x, y), NZX, V3),
    row("nextafter", lambda m, x: m.nextafter(x, 2.0) * x, X),
    row("power-negative-base", lambda m, x: m.power(x, 3.0), NZX),
    # --- comparisons and logic select between differentiable branches --------------------
    *[row(n, lambda m, x, y, n=n: m.where(getattr(m, n)(x, y), x * y, x - y), X, Y)
      for n in "less less_equal greater greater_equal equal not_equal".split()],
    *[row(n, lambda m, x, y, n=n: m.where(getattr(m, n)(x > 0.5, y > 0.5), x * y, x - y), X, Y)
      for n in "logical_and logical_or logical_xor".split()],
    row("logical_not", lambda m, x: m.where(m.logical_not(x > 0.5), x, 2.0 * x), X),
    # (the predicate sees the special values; the branches stay finite, see the where trap)
    *[row(n, lambda m, x, n=n: m.where(getattr(m, n)(x * SPECIAL), x, x * x), X)
      for n in "isnan isinf isfinite isneginf isposinf signbit iscomplex isreal".split()],
    row("isclose", lambda m, x, y: m.where(m.isclose(x, y, atol=0.3), x, y), X, Y),
    row("where", lambda m, x, y: m.where(x > 0.5, x, y), X, Y),
    row("clip", lambda m, x: m.clip(x, 0.3, 0.7), X),
    row("clip-bounds", lambda m, x, lo: m.clip(x, lo, 0.8), X, V3 * 0.5),
    # --- reductions ----------------------------------------------------------------------
    *[row(n, lambda m, x, n=n: getattr(m, n)(x, axis=1), X)
      for n in "sum prod mean var std max min amax amin ptp median cumsum cumprod".split()],
    row("sum-all", lambda m, x: m.sum(x), X),
    row("var-ddof", lambda m, x: m.var(x, axis=0, ddof=1), X),
    row("cumulative_sum", lambda m, x: m.cumulative_sum(x, axis=1, include_initial=True), X),
    row("cumulative_prod", lambda m, x: m.cumulative_prod(x, axis=0), X),
    row("logsumexp", lambda m, x: fnp.logsumexp(x, axis=0),
        X, ref=lambda x: np.log(np.sum(np.exp(x), axis=0))),
    row("average", lambda m, x, w: m.average(x, axis=1, weights=w), X, V3),
    row("quantile", lambda m, x: m.quantile(x, [0.3, 0.8], axis=1), X),
    row("percentile", lambda m, x: m.percentile(x, 40.0), X),
    *[row(n, lambda m, x, n=n: getattr(m, n)(x, axis=1), XN)
      for n in "nansum nanprod nanmean nanvar nanstd nanmax nanmin nancumsum nancumprod "
               "nanmedian".split()],
    row("nanquantile", lambda m, x: m.nanquantile(x, 0.4, axis=1), XN),
    row("nanpercentile", lambda m, x: m.nanpercentile(x, [10.0, 70.0]), XN),
    # --- shapes and building -------------------------------------------------------------
    row("reshape", lambda m, x: m.reshape(x, (3, 2)), X),
    row("ravel", lambda m, x: m.ravel(x), X),
    row("transpose", lambda m, x: m.transpose(x), X),
    row("permute_dims", lambda m, x: m.permute_dims(x, (1, 0)), X),
    row("matrix_transpose", lambda m, x: m.matrix_transpose(x), X),
    row("swapaxes", lambda m, x: m.swapaxes(x, 0, 1), X),
    row("moveaxis", lambda m, x: m.moveaxis(x[None], 0, -1), X),
    row("rollaxis", lambda m, x: m.rollaxis(x, 1), X),
    row("expand_dims", lambda m, x: m.expand_dims(x, (0, 2)), X),
    row("squeeze", lambda m, x: m.squeeze(x[:, None]), X),
    row("atleast_1d", lambda m, x: m.atleast_1d(x[0, 0]), X),
    row("atleast_2d", lambda m, x: m.atleast_2d(x[0]), X),
    row("atleast_3d", lambda m, x: m.atleast_3d(x), X),
    row("broadcast_to", lambda m, x: m.broadcast_to(x, (2, 2, 3)), X),
    row("broadcast_arrays", lambda m, x, v: m.broadcast_arrays(x, v), X, V3),
    row("copy", lambda m, x: m.copy(x), X),
    row("array", lambda m, x: m.array(x) * 1.0, X),
    row("asarray", lambda m, x: m.asarray(x), X),
    row("asanyarray", lambda m, x: m.asanyarray(x), X),
    row("ascontiguousarray", lambda m, x: m.ascontiguousarray(x), X),
    row("asfortranarray", lambda m, x: m.asfortranarray(x), X),
    row("astype", lambda m, x: m.astype(x, np.float32) * 2.0, X, eps=1e-3, rtol=1e-3,
        vtol=1e-7),
    row("concatenate", lambda m, x, y: m.concatenate([x, y], axis=1), X, Y),
    row("concat", lambda m, x, y: m.concat([x, y]), X, Y),
    row("stack", lambda m, x, y: m.stack([x, y], axis=1), X, Y),
    *[row(n, lambda m, x, y, n=n: getattr(m, n)([x, y]), X, Y)
      for n in "hstack vstack dstack column_stack row_stack".split()],
    row("block", lambda m, x, y: m.block([[x, y], [y, x]]), X, Y),
    row("append", lambda m, x, y: m.append(x, y, axis=0), X, Y),
    row("insert", lambda m, x, v: m.insert(x, 1, v[:2], axis=1), X, V3),
    row("delete", lambda m, x: m.delete(x, [0, 2], axis=1), X),
    row("split", lambda m, x: m.split(x, 3, axis=1), X),
    row("array_split", lambda m, x: m.array_split(x, 2, axis=1), X),
    row("hsplit", lambda m, x: m.hsplit(x, [1]), X),
    row("vsplit", lambda m, x: m.vsplit(x, 2), X),
    row("dsplit", lambda m, x: m.dsplit(x[None], [1]), X),
    row("unstack", lambda m, x: m.unstack(x, axis=1), X),
    row("tile", lambda m, x: m.tile(x, (2, 1)), X),
    row("repeat", lambda m, x: m.repeat(x, [1, 0, 2], axis=1), X),
    row("resize", lambda m, x: m.resize(x, (4, 2)), X),
    row("flip", lambda m, x: m.flip(x, 1), X),
    row("fliplr", lambda m, x: m.fliplr(x), X),
    row("flipud", lambda m, x: m.flipud(x), X),
    row("roll", lambda m, x: m.roll(x, 1, axis=1), X),
    row("rot90", lambda m, x: m.rot90(x, 3), X),
    row("pad", lambda m, x: m.pad(x, ((1, 0), (0, 2)), constant_values=0.5), X),
    row("pad-reflect-odd", lambda m, x: m.pad(x, ((5, 0), (4, 7)), "reflect", reflect_type="odd"),
        X),
    row("pad-wrap", lambda m, x: m.pad(x, {1: (8, 2)}, "wrap"), X),
    row("pad-linear_ramp", lambda m, x: m.pad(x, 2, "linear_ramp", end_values=(0.5, -1.0)), X),
    row("pad-median", lambda m, x: m.pad(x, ((1, 2), (3, 1)), "median", stat_length=2), X),
    row("pad-mean", lambda m, x: m.pad(x, 3, "mean"), X),
    row("tril", lambda m, x: m.tril(x, 0), X),
    row("triu", lambda m, x: m.triu(x, 1), X),
    row("diag", lambda m, x: m.diag(x, 1), X),
    row("diag-vector", lambda m, v: m.diag(v, -1), V3),
    row("diagflat", lambda m, x: m.diagflat(x), V3),
    row("diagonal", lambda m, x: m.diagonal(x, 1), X),
    row("trace", lambda m, x: m.trace(x), X),
    row("trim_zeros", lambda m, v: m.trim_zeros(m.concatenate([[0.0], v, [0.0, 0.0]])), V,
        novmap="the trimmed length depends on the values"),
    # --- indexing and selecting ----------------------------------------------------------
    row("take", lambda m, x: m.take(x, [2, 0, 0], axis=1), X),
    row("take_along_axis", lambda m, x: m.take_along_axis(x, np.array([[2, 0], [1, 1]]),
                                                          axis=1), X),
    row("choose", lambda m, x, y: m.choose(np.array([[0, 1, 1], [1, 0, 1]]), [x, y]), X, Y),
    row("compress", lambda m, x: m.compress([True, False, True], x, axis=1), X),
    row("extract", lambda m, x: m.extract(MASK, x), X),
    row("select", lambda m, x: m.select([x < 0.4, x > 0.7], [x ** 2, -x], 0.1), X),
    row("piecewise", lambda m, x: m.piecewise(x, [x < 0.5], [lambda t: t ** 2, lambda t: -t]),
        X),
    row("place", lambda m, x, v: fnp.place(x, MASK, v[:2]), X, V3,
        ref=lambda x, v: written(np.place)(x, MASK, v[:2])),
    row("put", lambda m, x, v: fnp.put(x, [0, 4, 4], v[:2]), X, V3,
        ref=lambda x, v: written(np.put)(x, [0, 4, 4], v[:2])),
    row("put_along_axis", lambda m, x, v: fnp.put_along_axis(x, np.array([[1], [2]]),
                                                             v[:2, None], axis=1), X, V3,
        ref=lambda x, v: written(np.put_along_axis)(x, np.array([[1], [2]]), v[:2, None], 1)),
    row("fill_diagonal", lambda m, x, v: fnp.fill_diagonal(x, v[:2]), X, V3,
        ref=lambda x, v: written(np.fill_diagonal)(x, v[:2])),
    row("at", lambda m, x, v: fnp.at(x)[[0, 1, 0], [1, 2, 1]].add(v), X, V3,
        ref=lambda x, v: (lambda o: (np.add.at(o, ([0, 1, 0], [1, 2, 1]), v), o)[1])(x.copy())),
    row("partition", lambda m, x: m.partition(x, 1, axis=1), X),
    row("sort", lambda m, x: m.sort(x, axis=1), X),
    row("apply_along_axis", lambda m, x: m.apply_along_axis(
        lambda r: m.stack([m.sum(r ** 2), r[0] * r[-1]]), 1, x), X),
    row("apply_over_axes", lambda m, x: m.apply_over_axes(m.sum, x, [1]), X),
    row("stop_gradient", lambda m, x: x * fnp.stop_gradient(x), X, ref=lambda x: x * x,
        eps=None),
    # --- products ------------------------------------------------------------------------
    row("dot", lambda m, x, y: m.dot(x, y.T), X, Y),
    row("vdot", lambda m, x, y: m.vdot(x, y), X, Y),
    row("inner", lambda m, x, y: m.inner(x, y), X, Y),
    row("outer", lambda m, x, v: m.outer(x, v), V, V3),
    row("matmul", lambda m, x, y: m.matmul(x, y.T), X, Y),
    row("matvec", lambda m, x, v: m.matvec(x, v), X, V3),
    row("vecmat", lambda m, v, x: m.vecmat(v, x.T), V3, X),
    row("vecdot", lambda m, x, y: m.vecdot(x, y), X, Y),
    row("tensordot", lambda m, x, y: m.tensordot(x, y, ([1], [1])), X, Y),
    row("einsum", lambda m, x, y: m.einsum("ij,kj->ik", x, y), X, Y),
    row("kron", lambda m, x, y: m.kron(x, y[:, :2]), X, Y),
    row("cross", lambda m, x, y: m.cross(x, y), X, Y),
    row("cross-axes", lambda m, x, y: m.cross(x.T, y, axisa=0, axisc=0), X, Y),
    row("cross-axis", lambda m, x, y: m.cross(x.T, y.T, axis=0), X, Y),
    row("cross-2d", lambda m, x, y: _deprecated(m.cross, x[:, :2], y), X, Y),
    row("cross-2d-second", lambda m, x, y: _deprecated(m.cross, x, y[:, 1:]), X, Y),
    row("cross-2d-both", lambda m, x, y: _deprecated(m.cross, x[:, :2], y[:, 1:]), X, Y),
    # --- signal and calculus -------------------------------------------------------------
    row("convolve", lambda m, x, v: m.convolve(x, v, mode="same"), V, V3),
    row("correlate", lambda m, x, v: m.correlate(x, v, mode="full"), V, V3),
    row("diff", lambda m, x: m.diff(x, n=2, axis=1), X),
    row("ediff1d", lambda m, x: m.ediff1d(x, to_begin=-1.0, to_end=[2.0]), X),
    row("gradient", lambda m, x: m.gradient(x), X),
    row("gradient-coords", lambda m, v, c: m.gradient(v, m.cumsum(c)), V, V),
    row("trapezoid", lambda m, x: m.trapezoid(x, dx=0.3), X),
    row("trapezoid-x", lambda m, y, c: m.trapezoid(y, m.cumsum(c)), V, V),
    row("interp", lambda m, x, xp, fp: m.interp(x, m.cumsum(xp), fp), V3 * 2.0, V, V),
    row("unwrap", lambda m, x: m.unwrap(x * 5.0), V),
    # --- statistics and histograms -------------------------------------------------------
    row("cov", lambda m, x: m.cov(x), X),
    row("corrcoef", lambda m, x: m.corrcoef(x), X),
    row("bincount", lambda m, w: m.bincount(IDX, weights=w, minlength=4), V),
    row("histogram", lambda m, w: m.histogram(X, bins=3, range=(0.0, 1.0), weights=w), X),
    row("histogram-density", lambda m, x: m.histogram(x, bins=3, density=True), X),
    row("histogram_bin_edges", lambda m, x: m.histogram_bin_edges(x, bins=3), X),
    row("histogram2d", lambda m, w: m.histogram2d(V, V[::-1], bins=2, weights=w,
                                                  range=[[0.0, 1.0], [0.0, 1.0]]), V),
    row("histogramdd", lambda m, s: m.histogramdd(s, bins=(2, 3)), X.T),
    # --- polynomials ---------------------------------------------------------------------
    row("polyval", lambda m, p, x: m.polyval(p, x), V, V3),
    row("polyadd", lambda m, p, q: m.polyadd(p, q), V, V3),
    row("polysub", lambda m, p, q: m.polysub(p, q), V, V3),
    row("polymul", lambda m, p, q: m.polymul(p, q), V, V3,
        novmap="NumPy drops leading zero coefficients: the length depends on the values"),
    row("polyder", lambda m, p: m.polyder(p, 2), V),
    row("polyint", lambda m, p: m.polyint(p, 1, 0.5), V),
    row("polyfit", lambda m, y: m.polyfit(np.arange(4.0), y, 2), V, vtol=1e-8),
    row("polydiv", lambda m, u, v: m.polydiv(u, v), V, V3 + np.array([1.0, 0.0, 0.0]),
        novmap="the quotient's length depends on the divisor's leading zeros"),
    row("poly", lambda m, r: m.poly(r), V3),
    row("roots", lambda m, r: m.roots(m.poly(r + np.array([0.0, 0.5, 1.0]))), V3, vtol=1e-8,
        novmap="the number of roots depends on the leading zeros"),
    row("vander", lambda m, x: m.vander(x, 3), V),
    # --- sets and searching: the float results --------------------------------------------
    *[row(n, lambda m, x, n=n: getattr(m, n)(shuffled(m, x)), V,
          novmap="the number of distinct values depends on the values")
      for n in "unique unique_values".split()],
    row("unique-all", lambda m, x: m.unique(shuffled(m, x), True, True, True), V,
        novmap="the number of distinct values depends on the values"),
    *[row(n, lambda m, x, n=n: tuple(getattr(m, n)(shuffled(m, x))), V,
          novmap="the number of distinct values depends on the values")
      for n in "unique_counts unique_inverse unique_all".split()],
    *[row(n, lambda m, x, n=n: getattr(m, n)(shuffled(m, x), m.concatenate([[0.05], x[1:3]])),
          V, novmap="the length of the result depends on the values")
      for n in "union1d intersect1d setdiff1d setxor1d".split()],
    # --- constructors whose values come from arguments -----------------------------------
    row("full", lambda m, v: m.full((2, 3), v), SC),
    row("full_like", lambda m, v: m.full_like(X, v), SC),
    row("linspace", lambda m, a, b: m.linspace(a, b, 5), SC, SC + 1.0),
    row("logspace", lambda m, a, b: m.logspace(a, b, 4), SC, SC + 1.0),
    row("geomspace", lambda m, a, b: m.geomspace(a, b, 4), SC + 0.5, SC + 2.0),
    row("fromfunction", lambda m, s: m.fromfunction(lambda i, j: i * s + j * s ** 2, (2, 3)),
        SC),
    row("meshgrid", lambda m, x, v: m.meshgrid(x, v), V3, V),
    row("ix_", lambda m, x, v: m.ix_(x, v), V3, V),
    # --- linalg --------------------------------------------------------------------------
    row("linalg.inv", lambda m, a: m.linalg.inv(a), SQ),
    row("linalg.solve", lambda m, a, b: m.linalg.solve(a, b), SQ, X.T),
    row("linalg.det", lambda m, a: m.linalg.det(a), SQ),
    row("linalg.slogdet", lambda m, a: m.linalg.slogdet(a), SQ),
    row("linalg.cholesky", lambda m, a: m.linalg.cholesky((a + a.T) / 2.0), SPD),
    row("linalg.norm", lambda m, x: m.linalg.norm(x), X),
    row("linalg.norm-nuc", lambda m, x: m.linalg.norm(x, "nuc"), RECT),
    row("linalg.matrix_norm", lambda m, x: m.linalg.matrix_norm(x, ord=1), NZX),
    row("linalg.vector_norm", lambda m, x: m.linalg.vector_norm(x, ord=3, axis=1), X),
    row("linalg.cond", lambda m, x: m.linalg.cond(x), RECT),
    row("linalg.svd", svd_gauge, RECT),
    row("linalg.svdvals", lambda m, x: m.linalg.svdvals(x), RECT),
    row("linalg.eigh", eig_gauge, SYM),
    row("linalg.eigvalsh", lambda m, x: m.linalg.eigvalsh(x), SYM),
    row("linalg.eig", lambda m, x: (lambda w, v: (w, v * v[:1, :]))(*m.linalg.eig(x)),
        REAL_SPECTRUM),
    row("linalg.eigvals", lambda m, x: m.linalg.eigvals(x), REAL_SPECTRUM),
    row("linalg.qr", lambda m, x: m.linalg.qr(x), RECT),
    row("linalg.pinv", lambda m, x: m.linalg.pinv(x), RECT),
    # (under vmap the residuals are kept whatever the rank, as JAX: RECT has full rank)
    row("linalg.lstsq", lambda m, a, b: m.linalg.lstsq(a, b)[:3], RECT, V),
    row("linalg.matrix_power", lambda m, a: m.linalg.matrix_power(a, 3), SQ),
    row("linalg.multi_dot", lambda m, a, b, c: m.linalg.multi_dot([a, b, c]), X, SQ, Y.T),
    row("linalg.tensorsolve", lambda m, a, b: m.linalg.tensorsolve(a.reshape(3, 3), b), SQ, V3),
    row("linalg.tensorinv", lambda m, a: m.linalg.tensorinv(a.reshape(3, 3), ind=1), SQ),
    row("linalg.cross", lambda m, x, y: m.linalg.cross(x, y), X, Y),
    row("linalg.outer", lambda m, x, v: m.linalg.outer(x, v), V, V3),
    row("linalg.trace", lambda m, x: m.linalg.trace(x, offset=1), X),
    row("linalg.diagonal", lambda m, x: m.linalg.diagonal(x), X),
    row("linalg.matmul", lambda m, x, y: m.linalg.matmul(x, y.T), X, Y),
    row("linalg.tensordot", lambda m, x, y: m.linalg.tensordot(x, y, axes=2), X, Y),
    row("linalg.vecdot", lambda m, x, y: m.linalg.vecdot(x, y), X, Y),
    row("linalg.matrix_transpose", lambda m, x: m.linalg.matrix_transpose(x), X),
    # --- fft -----------------------------------------------------------------------------
    *[row(f"fft.{n}", lambda m, x, n=n: parts(m, getattr(m.fft, n)(x)), X)
      for n in "fft ifft rfft fft2 ifft2 rfft2 fftn ifftn rfftn ihfft".split()],
    *[row(f"fft.{n}", lambda m, x, n=n: getattr(m.fft, n)(x), X)
      for n in "irfft hfft irfft2 irfftn fftshift ifftshift".split()],
    row("fft.fft-n-norm", lambda m, x: parts(m, m.fft.fft(x, 5, axis=0, norm="ortho")), X),
    row("fft.irfft-complex", lambda m, x, y: m.fft.irfft(x + 1j * y, 4), X, Y),
    # --- conversions, iteration, Python functions over arrays ------------------------------
    row("require", lambda m, x: m.require(x, None, ["C", "A"]), X),
    row("asarray_chkfinite", lambda m, x: m.asarray_chkfinite(x), X,
        novmap="it reads the values to check them, which under vmap are a batch"),
    row("fromiter", lambda m, x: m.fromiter(iter(x), x.dtype), V),
    row("ndenumerate", lambda m, x: m.stack([v * (i + 2 * j + 1) for (i, j), v in
                                             m.ndenumerate(x)]), X),
    row("frompyfunc", lambda m, x, y: m.frompyfunc(lambda u, v: u * v + u, 2, 1)(x, y), X, V3,
        ref=lambda x, y: x * y + x),
]

EXEMPT = {  # name -> why no derivative check applies
    **dict.fromkeys("argmax argmin nanargmax nanargmin argsort argpartition argwhere nonzero "
                    "flatnonzero searchsorted digitize lexsort count_nonzero unravel_index "
                    "ravel_multi_index".split(),
                    "integer indices or counts: piecewise constant, no derivative to check"),
    **dict.fromkeys("bitwise_and bitwise_or bitwise_xor invert bitwise_not bitwise_invert "
                    "left_shift right_shift bitwise_left_shift bitwise_right_shift gcd lcm "
                    "bitwise_count".split(),
                    "integer or boolean operands and results: bits, no derivative"),
    **dict.fromkeys("all any array_equal array_equiv allclose isin iscomplexobj isrealobj "
                    "issubdtype".split(), "a boolean answer"),
    "kaiser": ("NumPy's own function, re-exported: M is an integer and beta a window "
               "parameter (a traced beta raises DerivativeDroppedError, naming the rewrite)"),
    **dict.fromkeys("zeros ones empty zeros_like ones_like empty_like eye identity tri arange "
                    "bartlett blackman hamming hanning indices diag_indices diag_indices_from "
                    "mask_indices tril_indices triu_indices tril_indices_from "
                    "triu_indices_from fft.fftfreq fft.rfftfreq linalg.matrix_rank".split(),
                    "the values do not depend on a float input (shapes, sizes, ranks, "
                    "indices)"),
    **dict.fromkeys("shape size ndim result_type can_cast min_scalar_type common_type "
                    "isdtype promote_types shares_memory may_share_memory broadcast_shapes "
                    "einsum_path normalize_axis one_axis operand".split(),
                    "a helper about shapes, dtypes or arguments, not a function of values"),
    **dict.fromkeys("packbits unpackbits binary_repr base_repr".split(),
                    "integer bits: no derivative"),
    **dict.fromkeys("putmask copyto".split(),
                    "NumPy's in-place writes into plain arrays (on a traced one they raise, "
                    "naming fnp.where: tests/test_numpy_names.py)"),
    **dict.fromkeys("array2string array_repr array_str format_float_positional "
                    "format_float_scientific save savez savez_compressed savetxt".split(),
                    "text or a file out: no array result"),
    **dict.fromkeys("load loadtxt genfromtxt fromfile fromregex frombuffer fromstring "
                    "from_dlpack".split(), "NumPy's readers: constants from outside"),
    **dict.fromkeys("asmatrix bmat busday_count busday_offset datetime_as_string "
                    "datetime_data get_include info is_busday isnat nested_iters show_config "
                    "show_runtime".split(),
                    "NumPy's own helpers for plain values, re-exported (np.matrix, dates, "
                    "iterators, configuration): a traced value raises, naming it "
                    "(tests/test_numpy_rest.py)"),
    **dict.fromkeys("isscalar iterable isfortran mintypecode typename printoptions "
                    "get_printoptions set_printoptions seterr geterr seterrcall geterrcall "
                    "getbufsize setbufsize".split(),
                    "a question about a value's kind, or NumPy's own settings"),
}


def _names():
    """Every public function of funcgrad.numpy, .linalg and .fft (NumPy's own ones that it
    re-exports included; its classes, dtypes and constants left out)."""
    out = set()
    for prefix, module in (("", fnp), ("linalg.", fnp.linalg), ("fft.", fnp.fft)):
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not isinstance(obj, type):
                out.add(prefix + name)
    return out


def _base(name):
    """The function a row is for: ``sum-all`` -> ``sum``, ``fft.fft-n-norm`` -> ``fft.fft``."""
    return name.split("-")[0]


def test_every_function_has_a_row_or_a_reason():
    names = _names()
    rowed = {_base(r.name) for r in ROWS}
    missing = sorted(names - rowed - set(EXEMPT))
    assert not missing, (f"funcgrad.numpy functions with neither a row in ROWS nor a reason in "
                         f"EXEMPT: {missing}")
    both = sorted(rowed & set(EXEMPT))
    assert not both, f"in both ROWS and EXEMPT: {both}"
    stale = sorted((rowed | set(EXEMPT)) - names)
    assert not stale, f"rows or exemptions for names funcgrad.numpy no longer has: {stale}"


# --- the checks -------------------------------------------------------------------------------

def _split(out):
    """Leaves of ``out``, complex ones as (real, imaginary): ``(floats, others)``."""
    floats, others = [], []
    for o in tree.leaves(out):
        kind = o.dtype.kind if hasattr(o, "dtype") else np.asarray(o).dtype.kind
        if kind == "c":
            floats += [fnp.real(o), fnp.imag(o)]
        elif kind == "f":
            floats.append(o)
        else:
            others.append(o)
    return floats, others


def _float_fn(fn):
    return lambda *args: _split(fn(*args))[0]


def _arrays(values):
    return [np.asarray(v) for v in values]


def _same_values(got, want, rtol, what):
    assert len(got) == len(want), f"{what}: {len(got)} outputs, NumPy gives {len(want)}"
    for j, (g, w) in enumerate(zip(_arrays(got), _arrays(want))):
        assert (g.shape, g.dtype) == (w.shape, w.dtype), (
            f"{what}: output {j} is {g.dtype}{g.shape}, NumPy gives {w.dtype}{w.shape}")
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=f"{what}: output {j}")
        else:
            assert_close(g, w, rtol, 1e-12, what=f"{what}: output {j}", equal_nan=True)


def _dot(a, b):
    return float(np.sum(np.asarray(a, np.float64) * np.asarray(b, np.float64)))


def _shifted(args, vs, step):
    return [a + step * v for a, v in zip(args, vs)]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (inf and NaN inputs, on purpose)
@pytest.mark.parametrize("r", ROWS, ids=[r.name for r in ROWS])
def test_row_meets_the_correctness_bar(r):
    rng = np.random.default_rng(7)
    args = r.args
    ours, theirs = _float_fn(r.ours), _float_fn(r.numpy)

    # values: floats and the integer/boolean outputs beside them
    got, want = _split(r.ours(*args)), _split(r.numpy(*args))
    assert want[0], f"{r.name}: no float output to differentiate (exempt it instead)"
    _same_values(got[0], want[0], r.vtol, f"{r.name} value")
    _same_values(got[1], want[1], 0, f"{r.name} integer value")
    want = _arrays(want[0])

    # first order: JVP vs central differences of NumPy's function, and the dot-product test
    vs = [rng.standard_normal(a.shape) for a in args]
    us = [rng.standard_normal(w.shape) for w in want]
    out, vjp_fn = fg.vjp(ours, *args)
    cts = _arrays(vjp_fn(us))
    _, tangents = fg.jvp(ours, tuple(args), tuple(vs))
    tangents = _arrays(tangents)
    for i, (c, a) in enumerate(zip(cts, args)):
        assert (c.shape, c.dtype) == (a.shape, a.dtype), (
            f"{r.name}: cotangent {i} is {c.dtype}{c.shape}, input {a.dtype}{a.shape}")
    if r.eps is not None:
        plus, minus = theirs(*_shifted(args, vs, r.eps)), theirs(*_shifted(args, vs, -r.eps))
        for j, (t, p, m, w) in enumerate(zip(tangents, plus, minus, want)):
            fd = (np.asarray(p) - np.asarray(m)) / (2 * r.eps)
            scale = max(1.0, float(np.max(np.abs(fd), initial=0.0)),
                        float(np.max(np.abs(w), initial=0.0)))
            assert_close(t, fd, r.rtol, 1e-6, scale=scale,
                         what=f"{r.name}: JVP of output {j} vs central differences of NumPy")
    lhs = sum(_dot(c, v) for c, v in zip(cts, vs))
    rhs = sum(_dot(u, t) for u, t in zip(us, tangents))
    scale = sum(abs(_dot(np.abs(c), np.abs(v))) for c, v in zip(cts, vs)) + 1e-300
    tol = max([1e-10] + [100 * np.finfo(o.dtype).eps for o in want])
    assert abs(lhs - rhs) <= tol * scale, (
        f"{r.name}: dot-product test <J^T u, v> = {lhs!r} but <u, J v> = {rhs!r}")

    # second order: jvp of grad vs central differences of grad
    def g(*a):
        total = 0.0
        for o, u in zip(ours(*a), us):
            total = total + fnp.sum(o * u)
        return total
    nums = tuple(range(len(args)))
    grad_g = fg.grad(g, argnums=nums)
    hv = _arrays(fg.jvp(grad_g, tuple(args), tuple(vs))[1])
    if r.eps is not None:
        plus = _arrays(grad_g(*_shifted(args, vs, r.eps)))
        minus = _arrays(grad_g(*_shifted(args, vs, -r.eps)))
        grads = _arrays(grad_g(*args))
        for i, (h, p, m, g0) in enumerate(zip(hv, plus, minus, grads)):
            fd = (p - m) / (2 * r.eps)
            scale = max(1.0, float(np.max(np.abs(fd), initial=0.0)),
                        float(np.max(np.abs(g0), initial=0.0)))
            assert_close(h, fd, r.rtol, 1e-6, scale=scale,
                         what=f"{r.name}: H v (jvp of grad) vs central differences of grad, "
                              f"argument {i}")

    # vmap over a batch of two equals NumPy's results stacked
    batch = [np.stack([a, 0.9 * a + 0.05]) for a in args]
    if r.novmap is None:
        got = _arrays(fg.vmap(ours)(*batch))
        members = [_arrays(theirs(*[b[k] for b in batch])) for k in range(2)]
        assert len(got) == len(members[0]), f"{r.name}: vmap gives {len(got)} outputs"
        for j, gj in enumerate(got):
            w = np.stack([m[j] for m in members])
            assert gj.dtype == w.dtype, f"{r.name}: vmap output {j} is {gj.dtype}, not {w.dtype}"
            assert_close(gj, w, max(r.vtol, 1e-10), 1e-12, what=f"{r.name}: vmap output {j}")
    else:
        with pytest.raises(fg.ConcretizationError):
            fg.vmap(ours)(*batch)

    # float32 in: NumPy's output dtypes, float32 gradients
    args32 = [a.astype(np.float32) for a in args]
    got32, want32 = _arrays(ours(*args32)), _arrays(theirs(*args32))
    want_dtypes = [np.float32] * len(got32) if r.single else [o.dtype for o in want32]
    assert [o.dtype for o in got32] == want_dtypes, (
        f"{r.name}: float32 in gives {[o.dtype for o in got32]}, NumPy gives "
        f"{[o.dtype for o in want32]}")
    us32 = [rng.standard_normal(o.shape).astype(np.float32) for o in got32]
    g32 = _arrays(fg.grad(lambda *a: sum(fnp.sum(fnp.astype(o, np.float32) * u)
                                         for o, u in zip(ours(*a), us32)), argnums=nums)(*args32))
    assert all(gr.dtype == np.float32 for gr in g32), (
        f"{r.name}: float32 in gives gradients of dtypes {[gr.dtype for gr in g32]}")


# --- regressions found by the table ------------------------------------------------------------

@pytest.mark.parametrize("p", [np.poly([1.8, 1.05, 0.3]), np.array([1.0, 0.4, 2.0, 0.7])],
                         ids=["real-roots", "complex-pair"])
def test_roots_second_derivative_equals_central_differences_of_the_gradient(p):
    """roots' JVP rule evaluated p'(r) at NumPy's plain roots, so the tangent did not move
    with r: the Hessian was wrong (not even symmetric)."""
    w_re, w_im = np.array([0.3, -1.0, 0.7]), np.array([1.0, 0.2, -0.5])

    def loss(q):
        r = fnp.roots(q)
        return fnp.sum(fnp.real(r) * w_re + fnp.imag(r) * w_im)
    grad = fg.grad(loss)
    eps = 1e-5
    fd = np.array([(grad(p + eps * e) - grad(p - eps * e)) / (2 * eps) for e in np.eye(4)])
    assert_close(fg.jacfwd(grad)(p), fd, 1e-6, what="fwd-over-rev Hessian of roots")
    assert_close(fg.jacrev(grad)(p), fd, 1e-6, what="rev-over-rev Hessian of roots")

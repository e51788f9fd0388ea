"""The systematic property suite: one line per operation, expanded into every check.

Each :class:`Op` line names an operation written against a NumPy-like module ``m``
(``lambda m, x: m.sin(x)``), the shapes its arguments may take (drawn by hypothesis,
with broadcasting, size-0 and size-1 axes and 0-d arrays where the operation allows
them) and the domain its values come from.  ``kw`` lists keyword variants, each its
own test case; ``draw`` lists keyword values hypothesis picks per example.  Pytest
expands every case into every check (as HIPS autograd's ``combo_check``):

=========================  ==========================================================
``value``                  ``m=funcgrad.numpy`` on plain arrays equals ``m=numpy``
``jvp_fd``                 ``fg.jvp`` equals central finite differences
``dot``                    ``<vjp(u), v> == <u, jvp(v)>`` (reverse = transpose of forward)
``second_order``           H v by fwd-over-rev, rev-over-rev, rev-over-fwd, fwd-over-fwd
                           and finite differences of ``grad`` all agree
``vmap``                   ``vmap`` of f, of ``grad`` and of ``jvp`` equal stacking them
``float32``                float32 in -> float32 out, tangents and gradients
``graph``                  ``make_graph`` (every ``abstract_eval``) evaluates to f
``numpy_route``            ``m=numpy`` on traced values (``__array_ufunc__`` /
                           ``__array_function__``) gives the same derivatives
=========================  ==========================================================

A new primitive gets all of this by adding one line; the registry tests at the end fail
until it has every rule and appears in some line.

``FUNCGRAD_HYPOTHESIS_PROFILE=thorough`` runs 200 examples per property instead of 8.
"""
import itertools
import math
import string

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fsp
from funcgrad.core import REGISTRY
from funcgrad.primitives import incomplete as primitive_incomplete
from funcgrad.primitives import linalg as primitive_linalg
from funcgrad.primitives import smirnov as primitive_smirnov
from funcgrad.primitives import special_scipy_extra as primitive_extra
from funcgrad.primitives.recurrence import all_pole as primitive_all_pole
from funcgrad.primitives import zeta as primitive_zeta
from helpers import (check_dot_product, check_float32, check_graph, check_jvp_fd,
                     check_second_order, check_value, check_vmap, leaves)

INF = np.inf


def _mpmath_zeta(order):
    """``d^order/ds^order zeta(s, q)`` by mpmath, elementwise."""
    mpmath = pytest.importorskip("mpmath")
    return np.vectorize(lambda s, q: float(mpmath.zeta(s, q, derivative=order)), otypes=[float])


# --- argument shapes ------------------------------------------------------------------------

class Shapes:
    """A hypothesis strategy of a tuple of argument shapes, plus one typical tuple
    (used, without hypothesis, to trace every line for the registry coverage test)."""

    def __init__(self, strategy, typical):
        self.strategy = strategy
        self.typical = tuple(tuple(s) for s in typical)


def _typical(min_dims, max_dims, min_side):
    return tuple(max(min_side, 2 + i) for i in range(min(max(2, min_dims), max_dims)))


def one(min_dims=0, max_dims=3, min_side=0, max_side=3):
    """One array of any shape."""
    s = hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                         max_side=max_side)
    return Shapes(s.map(lambda shape: (shape,)), [_typical(min_dims, max_dims, min_side)])


def bcast(n, min_dims=0, max_dims=3, min_side=0, max_side=3):
    """``n`` arrays whose shapes broadcast together."""
    s = hnp.mutually_broadcastable_shapes(num_shapes=n, min_dims=min_dims, max_dims=max_dims,
                                          min_side=min_side, max_side=max_side)
    return Shapes(s.map(lambda b: b.input_shapes), [(2, 3), (3,), (2, 1), ()][:n])


def L(spec, lo=0, hi=3, sizes=None):
    """Shapes named by letters, one operand per comma: ``L("mn,nk")`` draws a size per
    letter (``lo..hi``, or ``sizes[letter]``); a digit is a fixed size; a leading
    ``...`` is a batch shape, broadcast across the operands that have one."""
    sizes = sizes or {}
    operands = spec.split(",")
    letters = sorted({c for c in spec if c in string.ascii_letters})
    n_batch = sum(op.startswith("...") for op in operands)

    @st.composite
    def strategy(draw):
        size = {c: draw(st.integers(*sizes.get(c, (lo, hi)))) for c in letters}
        batch = iter(draw(hnp.mutually_broadcastable_shapes(
            num_shapes=n_batch, min_dims=0, max_dims=2, min_side=0, max_side=2)).input_shapes
            if n_batch else ())
        return tuple((next(batch) if op.startswith("...") else ()) + tuple(
            int(c) if c.isdigit() else size[c] for c in op.replace("...", ""))
            for op in operands)

    typical_size = {c: max(sizes.get(c, (lo, hi))[0], 2 + i) for i, c in enumerate(letters)}
    typical = [((2,) if op.startswith("...") else ()) + tuple(
        int(c) if c.isdigit() else typical_size[c] for c in op.replace("...", ""))
        for op in operands]
    return Shapes(strategy(), typical)


# --- argument values --------------------------------------------------------------------------

def U(lo, hi):
    """Uniform in ``(lo, hi)``."""
    return lambda rng, shape: rng.uniform(lo, hi, shape)


def NZ(lo, hi):
    """Uniform magnitude in ``(lo, hi)`` with a random sign: away from 0."""
    return lambda rng, shape: rng.uniform(lo, hi, shape) * rng.choice([-1.0, 1.0], shape)


def CHOICE(*values):
    return lambda rng, shape: rng.choice(np.asarray(values, np.float64), shape)


POS = U(0.3, 2.0)


def scipy_special(name):
    """SciPy's ``scipy.special.<name>``, imported when a reference value is needed."""
    def ref(*args):
        import scipy.special
        return getattr(scipy.special, name)(*args)
    return ref


def weighted(values):
    """``sum_k values[k] / (k + 2)``: one output of many, each with its own weight."""
    return sum(v * (1.0 / (k + 2)) for k, v in enumerate(values))


def outputs(result):
    return result if isinstance(result, tuple) else (result,)


MODIFIED_MATHIEU = ("mathieu_modcem1", "mathieu_modcem2", "mathieu_modsem1", "mathieu_modsem2")
# (x in each function's domain, where SciPy's second kinds are accurate: c x > 2)
SPHEROIDAL = (("pro_ang1", lambda x: x), ("obl_ang1", lambda x: -x),
              ("pro_rad1", lambda x: x * 2.0 + 2.0), ("pro_rad2", lambda x: x * 2.0 + 2.0),
              ("obl_rad1", lambda x: x), ("obl_rad2", lambda x: x * 2.0 + 2.0))
SPHEROIDAL_CV = {"pro": 6.9447848136442785, "obl": 5.015885665256057}  # (c = 1.5, m, n = 1, 2)
INTEGRALS = ("itairy", "iti0k0", "itj0y0", "it2i0k0", "it2j0y0", "itstruve0", "it2struve0",
             "itmodstruve0")


def OFFGRID(rng, shape):
    """``n + f`` with ``f`` in (0.1, 0.4) or (0.6, 0.9): away from the jumps of floor,
    ceil, trunc, rint and integer casts."""
    frac = rng.uniform(0.1, 0.4, shape) + 0.5 * rng.integers(0, 2, shape)
    return rng.integers(-2, 2, shape) + frac


def OFFGRID_TENTHS(rng, shape):
    """Away from the jumps of rounding to one decimal."""
    return OFFGRID(rng, shape) / 10


def SPD(rng, shape):
    """Symmetric positive definite (a stack of them), eigenvalues >= 0.5."""
    a = rng.standard_normal(shape)
    n = shape[-1]
    return a @ np.swapaxes(a, -1, -2) / max(n, 1) + 0.5 * np.eye(n)


def _orthogonal(rng, n):
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.sign(np.diagonal(r) + 0.5)


def SEPARATED(rng, shape):
    """Singular values 1, 1.5, 2... in random order: full rank, no two close (the
    singular vectors' derivatives divide by the gaps)."""
    m, n = shape[-2:]
    out = np.zeros(shape)
    for i in np.ndindex(shape[:-2]):
        k = min(m, n)
        s = 1.0 + 0.5 * rng.permutation(k)
        out[i] = (_orthogonal(rng, m)[:, :k] * s) @ _orthogonal(rng, n)[:k]
    return out


def SYM_SEPARATED(rng, shape):
    """Symmetric with eigenvalues -1.2, -0.5, 0.2, 0.9... (gaps 0.7)."""
    n = shape[-1]
    out = np.zeros(shape)
    for i in np.ndindex(shape[:-2]):
        q = _orthogonal(rng, n)
        out[i] = (q * (-1.2 + 0.7 * rng.permutation(n))) @ q.T
    return out


def REAL_SPECTRUM(rng, shape):
    """Non-symmetric with real eigenvalues -1.2, -0.5, 0.2... (well conditioned vectors)."""
    n = shape[-1]
    out = np.zeros(shape)
    for i in np.ndindex(shape[:-2]):
        v = np.eye(n) + 0.3 * rng.uniform(-1.0, 1.0, (n, n))
        out[i] = (v * (-1.2 + 0.7 * rng.permutation(n))) @ np.linalg.inv(v)
    return out


def svd_gauge(m, x, full):
    """svd's outputs through functions that do not depend on each vector's sign (and,
    for ``full_matrices=True``, on the basis chosen for the columns past min(M, N))."""
    u, s, vh = m.linalg.svd(x, full_matrices=full)
    k = s.shape[-1]
    u1, v1 = u[..., :k], vh[..., :k, :]
    out = [u1 * u1[..., :1, :], s, v1 * v1[..., :, :1]]
    if full:
        u2, v2 = u[..., k:], vh[..., k:, :]
        out += [u2 @ m.swapaxes(u2, -1, -2), m.swapaxes(v2, -1, -2) @ v2]
    return out


def qr_gauge(m, x, mode):
    out = m.linalg.qr(x, mode=mode)
    if mode != "complete":
        return out
    q, r = out
    q2 = q[..., min(x.shape[-2:]):]
    return q[..., :min(x.shape[-2:])], r, q2 @ m.swapaxes(q2, -1, -2)


def WELL(rng, shape):
    """Well conditioned (diagonally dominant, condition < 10) with random signs of det."""
    n = shape[-1]
    a = np.eye(n) * 1.5 + rng.uniform(-0.4, 0.4, shape)
    return a * rng.choice([-1.0, 1.0], shape[:-1] + (1,))


class Joint:
    """Values drawn for all arguments together: ``gen(rng, shapes) -> list``."""

    def __init__(self, gen):
        self.gen = gen


def _distinct(rng, shapes):
    """Distinct magnitudes (gaps >= 0.04, all >= 0.27) with random signs, over all the
    arguments together: no ties for max/min/sort, no kinks of abs."""
    sizes = [int(np.prod(s)) for s in shapes]
    n = sum(sizes)
    mags = 0.3 + 0.1 * rng.permutation(n) + rng.uniform(-0.03, 0.03, n)
    vals = mags * rng.choice([-1.0, 1.0], n)
    out, k = [], 0
    for s, m in zip(shapes, sizes):
        out.append(vals[k:k + m].reshape(s))
        k += m
    return out


DISTINCT = Joint(_distinct)


# --- the table's machinery --------------------------------------------------------------------

CHECKS = ("value", "jvp_fd", "dot", "second_order", "vmap", "float32", "graph", "numpy_route")


class Op:
    """One line of the table.

    ``fn(m, *arrays, **kw)``; ``shapes`` a :class:`Shapes` or ``shapes(**kw)``; ``dom`` a
    value generator for every argument, a list of them (one per argument) or a
    :class:`Joint`; ``ref(*arrays, **kw)`` the NumPy reference when ``fn(numpy, ...)`` is
    not one (then the ``numpy_route`` check is skipped too); ``skip`` checks that do not
    apply (say why in a comment); ``dtypes`` per-argument dtypes (default float64);
    ``fd`` options for the finite-difference checks (``eps``, ``rtol``); ``xfail`` maps a
    check to the known bug that fails it (strict: the fix turns it into a failure, so
    the marker gets removed); ``vmap`` a fixed ``(in_axes, batch size)`` for the vmap
    check instead of drawn ones.
    """

    def __init__(self, name, fn, shapes=None, dom=U(-2.0, 2.0), kw=None, draw=None, ref=None,
                 skip=(), dtypes=None, fd=None, xfail=None, vmap=None):
        self.name, self.fn, self.dom = name, fn, dom
        self.shapes = shapes if shapes is not None else one()
        self.kw, self.draw = kw or {}, draw or {}
        self.ref = ref
        self.skip = set(skip) | ({"numpy_route"} if ref is not None else set())
        unknown = self.skip - set(CHECKS) - {"fd"}
        assert not unknown, f"{name}: unknown checks {unknown}"
        self.dtypes, self.fd = dtypes, fd or {}
        self.xfail = xfail or {}  # check -> reason: a known bug, strict (fixing it fails)
        self.vmap = vmap  # fixed (in_axes, batch size) instead of drawn ones

    def cases(self):
        names = list(self.kw)
        for values in itertools.product(*[self.kw[n] for n in names]):
            yield Case(self, dict(zip(names, values)))


class Case:
    """One keyword variant of an :class:`Op`: what a test is parametrised by."""

    def __init__(self, op, kw):
        self.op, self.kw = op, kw
        self.id = op.name + ("[" + ",".join(f"{k}={v!r}" for k, v in kw.items()) + "]"
                             if kw else "")

    def shapes(self):
        s = self.op.shapes
        return s if isinstance(s, Shapes) else s(**self.kw)

    def values(self, rng, shapes):
        dom = self.op.dom
        if isinstance(dom, Joint):
            args = dom.gen(rng, shapes)
        elif isinstance(dom, (list, tuple)):
            assert len(dom) == len(shapes), f"{self.id}: {len(dom)} domains, {len(shapes)} args"
            args = [d(rng, s) for d, s in zip(dom, shapes)]
        else:
            args = [dom(rng, s) for s in shapes]
        args = [np.asarray(a, np.float64) for a in args]
        if self.op.dtypes:
            args = [a.astype(d) for a, d in zip(args, self.op.dtypes)]
        return args

    def draw(self, data):
        """``(shapes, args, kw, rng)`` for one hypothesis example."""
        shapes = data.draw(self.shapes().strategy, label="shapes")
        kw = dict(self.kw)
        for name, choices in self.op.draw.items():
            kw[name] = data.draw(st.sampled_from(choices), label=name)
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
        return shapes, self.values(rng, shapes), kw, rng

    def typical(self):
        shapes = self.shapes().typical
        kw = dict(self.kw, **{name: choices[0] for name, choices in self.op.draw.items()})
        return self.values(np.random.default_rng(0), shapes), kw

    def f(self, kw, m=fnp):
        fn = self.op.fn

        def f(*args):
            return fn(m, *args, **kw)
        return f

    def reference(self, kw):
        if self.op.ref is not None:
            return lambda *args: self.op.ref(*args, **kw)
        return self.f(kw, np)


# --- helpers the lines use --------------------------------------------------------------------

def unary(name, dom=U(-2.0, 2.0), **opts):
    return Op(name, lambda m, x: getattr(m, name)(x), one(), dom, **opts)


def binary(name, dom=U(-2.0, 2.0), **opts):
    return Op(name, lambda m, x, y: getattr(m, name)(x, y), bcast(2), dom, **opts)


def compare(name, dom=DISTINCT):
    """A boolean-valued operation, made differentiable by selecting with it."""
    return Op(name, lambda m, x, y: m.where(getattr(m, name)(x, y), x * y, x - y), bcast(2),
              dom)


def bits(name, arity=2):
    """An operation on integers (``floor(2 x)`` of OFFGRID values: away from the casts'
    jumps), made differentiable by selecting with its result's parity."""
    def fn(m, *xs):
        ints = [m.astype(m.floor(x * 2.0), np.int64) for x in xs]
        return m.where(getattr(m, name)(*ints) % 2 == 0, xs[0] * xs[-1], xs[0] - xs[-1])
    return Op(name, fn, bcast(arity) if arity > 1 else one(), OFFGRID)


def solve_keeping_lu(m, a, b):
    """``solve(a, b)`` through ``solve_lu`` (NumPy's ``solve`` for the reference)."""
    if m is np:
        return np.linalg.solve(a, b)
    return primitive_linalg.solve_lu_p.bind(a, b)[0]


def solve_with_lu(m, a, b, transpose):
    """``a^-1 b`` or ``a^-T b`` by ``lu_solve`` from ``solve_lu``'s factors of ``a``."""
    if m is np:
        return np.linalg.solve(np.swapaxes(a, -1, -2) if transpose else a, b)
    _, lu, piv = primitive_linalg.solve_lu_p.bind(a, b)
    return primitive_linalg.lu_solve(a, lu, piv, b, transpose)


def tridiagonal_solve(m, dl, d, du, b):
    """``lax.linalg.tridiagonal_solve`` (``np.linalg.solve`` of the dense matrix for the
    reference, and on traced values for the NumPy route)."""
    if m is not np:
        return fg.lax.linalg.tridiagonal_solve(dl, d, du, b)
    n = d.shape[-1]
    a = sum(v[..., :, None] * np.eye(n, k=k) for k, v in ((0, d), (1, du), (-1, dl)))
    return np.linalg.solve(a, b)


def all_pole(m, a, f):
    """``y`` with ``sum_k a[k] y[n - k] = f[n]`` (the recursion of ``lfilter``), ``a[0]``
    moved to (2, 3) so that the filter is stable; the reference solves the dense
    lower-triangular Toeplitz system."""
    a = a + 2.5 * np.eye(a.shape[-1], dtype=a.dtype)[0]
    if m is not np:
        return primitive_all_pole(a, f)
    n = f.shape[-1]
    matrix = sum(a[..., k, None, None] * np.eye(n, k=-k) for k in range(a.shape[-1]))
    return np.linalg.solve(matrix, f[..., None])[..., 0]


def lapack_reduction(x, name, lower=True):
    """SciPy's ``?gehrd`` (``hessenberg``) or ``?sytrd`` (``tridiagonal``) on each matrix
    of the stack ``x``: the reference of ``lax.linalg``'s packed reductions."""
    from scipy.linalg import lapack
    n = x.shape[-1]
    if name == "hessenberg":
        outs = [np.empty(x.shape), np.empty(x.shape[:-2] + (n - 1,))]
        call = lambda a: lapack.dgehrd(a)[:2]  # noqa: E731
    else:
        outs = [np.empty(x.shape), np.empty(x.shape[:-1])] + [
            np.empty(x.shape[:-2] + (n - 1,)) for _ in range(2)]
        call = lambda a: lapack.dsytrd(a, lower=int(lower))[:4]  # noqa: E731
    for i in np.ndindex(x.shape[:-2]):
        for out, value in zip(outs, call(x[i])):
            out[i] = value
    return tuple(outs)


def sym(m, x):
    return (x + m.swapaxes(x, -1, -2)) * 0.5


def const_mask(shape):
    """A fixed boolean mask of ``shape`` (every other element, in C order)."""
    return np.arange(int(np.prod(shape))).reshape(shape) % 2 == 0


def along_index(shape, axis):
    """A fixed index array for take_along_axis: 2 picks per slice, repeats allowed."""
    shape = list(shape)
    n = shape[axis]
    shape[axis] = 2
    return (np.arange(int(np.prod(shape))).reshape(shape) * 7) % max(n, 1)


def np_at(x, idx, y, mode):
    """NumPy reference for ``x.at[idx].set/add/multiply(y)``."""
    out = np.array(x, copy=True)
    if mode == "set":
        out[idx] = y
    elif mode == "add":
        np.add.at(out, idx, y)
    else:
        out[idx] = out[idx] * y
    return out


def logsumexp_ref(x, axis=None, keepdims=False):
    return np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims))


@fg.custom_jvp
def softplus_custom_jvp(x, y):
    return fnp.logaddexp(x, 0.0) * y


@softplus_custom_jvp.defjvp
def _softplus_jvp(primals, tangents):
    (x, y), (tx, ty) = primals, tangents
    return softplus_custom_jvp(x, y), tx * y / (1.0 + fnp.exp(-x)) + ty * fnp.logaddexp(x, 0.0)


@fg.custom_vjp
def softplus_custom_vjp(x, y):
    return fnp.logaddexp(x, 0.0) * y


def _softplus_fwd(x, y):
    return softplus_custom_vjp(x, y), (x, y)


def sum_to(g, shape):
    """Sum a broadcast cotangent back to ``shape`` (what a correct bwd rule returns)."""
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and g.shape[lead + i] != 1)
    return fnp.reshape(fnp.sum(g, axis=axes), shape) if axes else g


def _softplus_bwd(residuals, g):
    x, y = residuals
    return (sum_to(g * y / (1.0 + fnp.exp(-x)), fnp.shape(x)),
            sum_to(g * fnp.logaddexp(x, 0.0), fnp.shape(y)))


softplus_custom_vjp.defvjp(_softplus_fwd, _softplus_bwd)
softplus_custom_vjp.defjvp(_softplus_jvp)


def softplus_ref(x, y):
    return np.logaddexp(x, 0.0) * y


def scan_step(carry, x):
    return carry * fnp.sin(x) + x, carry * x


def scan_ref(init, xs, reverse=False):
    carry, ys = init, []
    for x in (xs[::-1] if reverse else xs):
        carry, y = carry * np.sin(x) + x, carry * x
        ys.append(y)
    ys = np.stack(ys[::-1] if reverse else ys) if ys else np.zeros(xs.shape, xs.dtype)
    return carry, ys


def while_ref(x):
    for _ in range(3):
        x = np.sin(x) * 1.5 + 0.1
    return x


def fori_ref(x):
    for i in range(3):
        x = x * np.cos(x) + i
    return x


# One compiled function, called on one signature (compiling takes seconds per signature).
jitted = fg.jit(lambda a, b: fnp.sin(a) * b + a)
JIT_SHAPES = Shapes(st.just(((2, 3), (3,))), [(2, 3), (3,)])


ANY_AXIS = {"axis": [0, -1, (0, 2)]}
KEEPDIMS = {"keepdims": [False, True]}
MATMUL_SHAPES = {"vv": L("n,n"), "mv": L("mn,n"), "vm": L("n,nk"), "mm": L("mn,nk"),
                 "batched": L("...mn,...nk")}
SQUARE = L("...nn", sizes={"n": (1, 3)})
BROADCAST_TO = Shapes(hnp.mutually_broadcastable_shapes(
    num_shapes=2, min_dims=0, max_dims=3, min_side=0, max_side=3).map(
        lambda b: (b.input_shapes[0], b.result_shape)), [(3,), (2, 3)])


# --- the table --------------------------------------------------------------------------------

OPS = [
    # unary elementwise, each on its domain
    unary("negative"),
    unary("abs", NZ(0.1, 2.0)),
    unary("exp"),
    unary("exp2"),
    unary("expm1"),
    unary("log", POS),
    unary("log2", POS),
    unary("log10", POS),
    unary("log1p", U(-0.7, 2.0)),
    unary("sqrt", POS),
    unary("cbrt", NZ(0.2, 2.0)),
    unary("square"),
    unary("reciprocal", NZ(0.3, 2.0)),
    unary("sin", U(-3.0, 3.0)),
    unary("cos", U(-3.0, 3.0)),
    unary("tan", U(-1.2, 1.2)),
    unary("arcsin", U(-0.8, 0.8)),
    unary("arccos", U(-0.8, 0.8)),
    unary("arctan", U(-3.0, 3.0)),
    unary("sinh"),
    unary("cosh"),
    unary("tanh"),
    unary("arcsinh", U(-3.0, 3.0)),
    unary("arccosh", U(1.2, 3.0)),
    unary("arctanh", U(-0.8, 0.8)),
    Op("erf", lambda m, x: fsp.erf(x), ref=np.vectorize(math.erf, otypes=[float])),
    Op("erfc", lambda m, x: fsp.erfc(x), ref=np.vectorize(math.erfc, otypes=[float])),
    Op("expit", lambda m, x: fsp.expit(x), dom=U(-6.0, 6.0), ref=lambda x: 1 / (1 + np.exp(-x))),
    # special functions (funcgrad.primitives.special), against SciPy's values
    Op("gammaln", lambda m, x: fsp.gammaln(x), dom=U(0.2, 5.0), ref=scipy_special("gammaln")),
    Op("gamma", lambda m, x: fsp.gamma(x), dom=U(0.2, 4.0), ref=scipy_special("gamma")),
    Op("digamma", lambda m, x: fsp.digamma(x), dom=NZ(0.2, 4.0), ref=scipy_special("digamma")),
    Op("zeta", lambda m, q: fsp.zeta(3.0, q), dom=U(0.3, 4.0),
       ref=lambda q: scipy_special("zeta")(3.0, q)),
    # zeta's derivatives in its exponent (s, q both for orders 1, 2: order 3's second
    # derivative in s would be the fifth, which raises), against mpmath's
    Op("zeta_ds1", lambda m, s, q: primitive_zeta.zeta_ds1(s, q), bcast(2),
       [U(1.5, 4.0), U(0.5, 4.0)], ref=_mpmath_zeta(1)),
    Op("zeta_ds2", lambda m, s, q: primitive_zeta.zeta_ds2(s, q), bcast(2),
       [U(1.5, 4.0), U(0.5, 4.0)], ref=_mpmath_zeta(2)),
    Op("zeta_ds3", lambda m, q: primitive_zeta.zeta_ds3(2.5, q), dom=U(0.5, 4.0),
       ref=lambda q: _mpmath_zeta(3)(2.5, q)),
    Op("zeta_ds4", lambda m, q: primitive_zeta.zeta_ds4(2.5, q), dom=U(0.5, 4.0),
       ref=lambda q: _mpmath_zeta(4)(2.5, q)),
    Op("erfinv", lambda m, y: fsp.erfinv(y), dom=U(-0.95, 0.95), ref=scipy_special("erfinv")),
    Op("erfcinv", lambda m, c: fsp.erfcinv(c), dom=U(0.05, 1.95), ref=scipy_special("erfcinv")),
    Op("log_ndtr", lambda m, x: fsp.log_ndtr(x), dom=U(-30.0, 8.0),
       ref=scipy_special("log_ndtr")),
    Op("i0e", lambda m, x: fsp.i0e(x), dom=NZ(0.1, 30.0), ref=scipy_special("i0e")),
    Op("i1e", lambda m, x: fsp.i1e(x), dom=NZ(0.1, 30.0), ref=scipy_special("i1e")),
    Op("gammainc", lambda m, x: fsp.gammainc(1.7, x), dom=U(0.3, 5.0),
       ref=lambda x: scipy_special("gammainc")(1.7, x)),
    Op("gammaincc", lambda m, x: fsp.gammaincc(2.5, x), dom=U(0.3, 6.0),
       ref=lambda x: scipy_special("gammaincc")(2.5, x)),
    Op("betainc", lambda m, x: fsp.betainc(1.5, 2.5, x), dom=U(0.05, 0.95),
       ref=lambda x: scipy_special("betainc")(1.5, 2.5, x)),
    Op("betaincc", lambda m, x: fsp.betaincc(1.5, 2.5, x), dom=U(0.05, 0.95),
       ref=lambda x: scipy_special("betaincc")(1.5, 2.5, x)),
    # their derivatives in the shapes, where those have closed forms: dP/da at a = 1 is
    # -(exp(-x) (log x + Euler's gamma) + E1(x)); I_x(a, 1) = x**a, I_x(1, b) = 1 - (1-x)**b
    Op("gammainc_da", lambda m, x: primitive_incomplete.gammainc_da(1.0, x), dom=U(0.3, 5.0),
       ref=lambda x: -(np.exp(-x) * (np.log(x) + np.euler_gamma) + scipy_special("exp1")(x))),
    Op("betainc_da", lambda m, x: primitive_incomplete.betainc_da(1.5, 1.0, x),
       dom=U(0.05, 0.95), ref=lambda x: x ** 1.5 * np.log(x)),
    Op("betainc_db", lambda m, x: primitive_incomplete.betainc_db(1.0, 2.5, x),
       dom=U(0.05, 0.95), ref=lambda x: -(1 - x) ** 2.5 * np.log1p(-x)),
    # special functions whose values are SciPy's (funcgrad.primitives.special_scipy)
    Op("erfcx", lambda m, x: fsp.erfcx(x), dom=U(-2.0, 5.0), ref=scipy_special("erfcx")),
    Op("dawsn", lambda m, x: fsp.dawsn(x), dom=U(-4.0, 4.0), ref=scipy_special("dawsn")),
    Op("exp1", lambda m, x: fsp.exp1(x), dom=U(0.2, 5.0), ref=scipy_special("exp1")),
    Op("expi", lambda m, x: fsp.expi(x), dom=NZ(0.2, 4.0), ref=scipy_special("expi")),
    # (n a float: SciPy computes expn(int, float32) in float64, its "ld->d" loop)
    Op("expn", lambda m, x, n: fsp.expn(n, x), dom=U(0.2, 4.0), kw={"n": [0.0, 1.0, 3.0]},
       ref=lambda x, n: scipy_special("expn")(n, x)),
    Op("spence", lambda m, z: fsp.spence(z), dom=U(0.05, 3.0), ref=scipy_special("spence")),
    Op("loggamma", lambda m, x: fsp.loggamma(x), dom=U(0.2, 5.0), ref=scipy_special("loggamma")),
    # piecewise constant: zero derivative (multiplied by x so the output stays traced)
    Op("gammasgn", lambda m, x: x * fsp.gammasgn(x), dom=OFFGRID,
       ref=lambda x: x * scipy_special("gammasgn")(x)),
    Op("sici", lambda m, x: fsp.sici(x), dom=NZ(0.1, 6.0), ref=scipy_special("sici")),
    Op("fresnel", lambda m, z: fsp.fresnel(z), dom=U(-2.0, 2.0), ref=scipy_special("fresnel")),
    # (complex128 for float32 arguments too, as SciPy's wofz)
    Op("wofz", lambda m, x: fnp.real(fsp.wofz(x)) - fnp.imag(fsp.wofz(x)) * 2.0,
       dom=U(-3.0, 3.0), ref=lambda x: np.real(scipy_special("wofz")(x))
       - np.imag(scipy_special("wofz")(x)) * 2.0, skip=("float32",)),
    # (erf and erfc of a complex argument: z = x (1 + 0.5i), through real and imaginary parts)
    Op("erf_complex", lambda m, x: fnp.real(fsp.erf(x * (1 + 0.5j)))
       - fnp.imag(fsp.erf(x * (1 + 0.5j))) * 2.0, dom=U(-2.0, 2.0),
       ref=lambda x: np.real(scipy_special("erf")(x * (1 + 0.5j)))
       - np.imag(scipy_special("erf")(x * (1 + 0.5j))) * 2.0, skip=("float32",)),
    Op("erfc_complex", lambda m, x: fnp.real(fsp.erfc(x * (1 + 0.5j)))
       - fnp.imag(fsp.erfc(x * (1 + 0.5j))) * 2.0, dom=U(-2.0, 2.0),
       ref=lambda x: np.real(scipy_special("erfc")(x * (1 + 0.5j)))
       - np.imag(scipy_special("erfc")(x * (1 + 0.5j))) * 2.0, skip=("float32",)),
    # (gamma, digamma and log_ndtr of a complex argument, the same way)
    *[Op(f"{name}_complex", (lambda f: lambda m, x: fnp.real(f(x * (1 + 0.5j) + 0.5))
                             - fnp.imag(f(x * (1 + 0.5j) + 0.5)) * 2.0)(getattr(fsp, name)),
         dom=U(-2.0, 2.0), skip=("float32",),
         ref=(lambda f: lambda x: np.real(f(x * (1 + 0.5j) + 0.5))
              - np.imag(f(x * (1 + 0.5j) + 0.5)) * 2.0)(scipy_special(name)))
      for name in ("gamma", "digamma", "log_ndtr", "rgamma")],
    # (degree 3, order 1; complex128 for float32 angles too, as SciPy's)
    Op("sph_harm_y", lambda m, t, p: fnp.real(fsp.sph_harm_y(3, 1, t, p))
       + fnp.imag(fsp.sph_harm_y(3, 1, t, p)) * 0.5, bcast(2), [U(0.2, 2.9), U(-3.0, 3.0)],
       ref=lambda t, p: np.real(scipy_special("sph_harm_y")(3, 1, t, p))
       + np.imag(scipy_special("sph_harm_y")(3, 1, t, p)) * 0.5, skip=("float32",)),
    # (an integer order: J_v of a negative argument is NaN for other v)
    Op("jv", lambda m, x: fsp.jv(2.0, x), dom=U(-6.0, 6.0),
       ref=lambda x: scipy_special("jv")(2.0, x)),
    Op("yv", lambda m, x: fsp.yv(1.5, x), dom=U(0.5, 6.0),
       ref=lambda x: scipy_special("yv")(1.5, x)),
    Op("iv", lambda m, x: fsp.iv(2.0, x), dom=U(-3.0, 3.0),
       ref=lambda x: scipy_special("iv")(2.0, x)),
    # (away from 0, where exp(-|z|) has its kink)
    Op("ive", lambda m, x: fsp.ive(2.0, x), dom=NZ(0.2, 3.0),
       ref=lambda x: scipy_special("ive")(2.0, x)),
    Op("kv", lambda m, x: fsp.kv(1.5, x), dom=U(0.3, 4.0),
       ref=lambda x: scipy_special("kv")(1.5, x)),
    Op("kve", lambda m, x: fsp.kve(1.5, x), dom=U(0.3, 4.0),
       ref=lambda x: scipy_special("kve")(1.5, x)),
    Op("k0", lambda m, x: fsp.k0(x), dom=U(0.3, 4.0), ref=scipy_special("k0")),
    Op("k1", lambda m, x: fsp.k1(x), dom=U(0.3, 4.0), ref=scipy_special("k1")),
    Op("k0e", lambda m, x: fsp.k0e(x), dom=U(0.3, 4.0), ref=scipy_special("k0e")),
    Op("k1e", lambda m, x: fsp.k1e(x), dom=U(0.3, 4.0), ref=scipy_special("k1e")),
    Op("poch", lambda m, z, k: fsp.poch(z, k), bcast(2), [U(0.5, 3.0), U(-0.4, 2.0)],
       ref=scipy_special("poch")),
    Op("boxcox", lambda m, x, lm: fsp.boxcox(x, lm), bcast(2), [U(0.2, 3.0), U(-1.5, 1.5)],
       ref=scipy_special("boxcox")),
    # lmbda where the derivative in lmbda is its Taylor series (|lmbda log x| < 0.01)
    Op("boxcox_small_lmbda", lambda m, x, lm: fsp.boxcox(x, lm), bcast(2),
       [U(0.5, 2.0), U(-0.01, 0.01)], ref=scipy_special("boxcox")),
    Op("boxcox1p", lambda m, x, lm: fsp.boxcox1p(x, lm), bcast(2), [U(-0.8, 3.0), U(-1.5, 1.5)],
       ref=scipy_special("boxcox1p")),
    Op("owens_t", lambda m, h, a: fsp.owens_t(h, a), bcast(2), [U(-3.0, 3.0), U(-2.0, 2.0)],
       ref=scipy_special("owens_t")),
    # (funcgrad.primitives.special_scipy_more: inverses, erfi, complete elliptic integrals)
    Op("inv_boxcox", lambda m, y, lm: fsp.inv_boxcox(y, lm), bcast(2),
       [U(0.1, 2.0), U(-0.4, 1.5)], ref=scipy_special("inv_boxcox")),
    Op("inv_boxcox1p", lambda m, y, lm: fsp.inv_boxcox1p(y, lm), bcast(2),
       [U(0.1, 2.0), U(-0.4, 1.5)], ref=scipy_special("inv_boxcox1p")),
    # (a in y's dtype: SciPy's gammaincinv(float, float32) is float64, as for hyp2f1)
    Op("gammaincinv", lambda m, y: fsp.gammaincinv(np.asarray(1.7, y.dtype), y),
       dom=U(0.1, 0.9), ref=lambda y: scipy_special("gammaincinv")(1.7, y)),
    Op("gammainccinv", lambda m, y: fsp.gammainccinv(np.asarray(2.5, y.dtype), y),
       dom=U(0.1, 0.9),
       ref=lambda y: scipy_special("gammainccinv")(2.5, y)),
    Op("betaincinv", lambda m, y: fsp.betaincinv(1.5, 2.5, y), dom=U(0.1, 0.9),
       ref=lambda y: scipy_special("betaincinv")(1.5, 2.5, y)),
    Op("ndtri_exp", lambda m, y: fsp.ndtri_exp(y), dom=U(-5.0, -0.1),
       ref=scipy_special("ndtri_exp")),
    Op("erfi", lambda m, x: fsp.erfi(x), dom=U(-2.0, 2.0), ref=scipy_special("erfi")),
    # (kolmogorov: both of its slope's forms, split at 0.6)
    Op("kolmogorov", lambda m, y: fsp.kolmogorov(y), dom=U(0.3, 2.0),
       ref=scipy_special("kolmogorov")),
    Op("kolmogi", lambda m, p: fsp.kolmogi(p), dom=U(0.05, 0.95), ref=scipy_special("kolmogi")),
    # (n a float, as expn's: SciPy truncates it; n = 1 is 1 - d, n = 7 has kinks at j/7
    # that finite differences cross with probability ~1e-6; smirnov_derivative's order k:
    # 0 is SciPy's value, 1 SciPy's private _smirnovp, the negative density)
    Op("smirnov", lambda m, d, n: fsp.smirnov(n, d), dom=U(0.02, 0.98),
       kw={"n": [1.0, 3.0, 7.0]}, ref=lambda d, n: scipy_special("smirnov")(n, d)),
    Op("smirnovi", lambda m, p, n: fsp.smirnovi(n, p), dom=U(0.05, 0.95),
       kw={"n": [2.0, 7.0]}, ref=lambda p, n: scipy_special("smirnovi")(n, p)),
    # (ksone's cdf and ppf: SciPy's private _smirnovc and _smirnovci)
    Op("smirnovc", lambda m, d: primitive_smirnov.smirnovc(4.0, d), dom=U(0.02, 0.98),
       ref=lambda d: 1 - scipy_special("smirnov")(4.0, d)),
    Op("smirnovci", lambda m, p: primitive_smirnov.smirnovci(4.0, p), dom=U(0.05, 0.95),
       ref=lambda p: scipy_special("smirnovi")(4.0, 1 - p)),
    Op("smirnov_derivative", lambda m, d, k: primitive_smirnov.smirnov_derivative(6.0, d, k),
       dom=U(0.02, 0.98), kw={"k": [0, 1]},
       ref=lambda d, k: scipy_special("smirnov")(6.0, d) if k == 0 else __import__(
           "scipy.special._ufuncs", fromlist=["_smirnovp"])._smirnovp(6.0, d)),
    Op("ellipk", lambda m, x: fsp.ellipk(x), dom=U(-2.0, 0.9), ref=scipy_special("ellipk")),
    # (|m| < 5e-3: the derivatives' Taylor series)
    Op("ellipk_small_m", lambda m, x: fsp.ellipk(x), dom=U(-0.004, 0.004),
       ref=scipy_special("ellipk")),
    Op("ellipe", lambda m, x: fsp.ellipe(x), dom=U(-2.0, 0.9), ref=scipy_special("ellipe")),
    Op("ellipkm1", lambda m, p: fsp.ellipkm1(p), dom=U(0.05, 2.0), ref=scipy_special("ellipkm1")),
    # (funcgrad.primitives.special_scipy_more: Lambert W, Struve, spherical Bessel functions;
    # orders fixed, the derivative in the argument)
    # (lambertw is complex128 and the spherical functions float64 for float32 inputs, in
    # SciPy too; Struve's order in x's dtype, as SciPy keeps float32 only then)
    Op("lambertw", lambda m, x: fsp.lambertw(x).real, dom=U(-0.3, 3.0),
       ref=lambda x: scipy_special("lambertw")(x).real, skip=("float32",)),
    Op("struve", lambda m, x: fsp.struve(np.asarray(1.5, x.dtype), x), dom=U(0.5, 4.0),
       ref=lambda x: scipy_special("struve")(1.5, x)),
    Op("modstruve", lambda m, x: fsp.modstruve(np.asarray(1.5, x.dtype), x), dom=U(0.5, 4.0),
       ref=lambda x: scipy_special("modstruve")(1.5, x)),
    *[Op(f"{name}{'_d' if d else ''}",
         lambda m, x, name=name, d=d: getattr(fsp, name)(2, x, derivative=d), dom=U(0.5, 4.0),
         ref=lambda x, name=name, d=d: scipy_special(name)(2, x, d), skip=("float32",))
      for name in ("spherical_jn", "spherical_yn", "spherical_in", "spherical_kn")
      for d in (False, True)],
    Op("hyp0f1", lambda m, z: fsp.hyp0f1(np.asarray(1.7, z.dtype), z), dom=U(-3.0, 3.0),
       ref=lambda z: scipy_special("hyp0f1")(1.7, z)),
    Op("hyp1f1", lambda m, x: fsp.hyp1f1(0.7, 1.9, x), dom=U(-3.0, 3.0),
       ref=lambda x: scipy_special("hyp1f1")(0.7, 1.9, x)),
    # (a, b, c in z's dtype: SciPy's hyp2f1(float, float, float, float32) is float64)
    Op("hyp2f1", lambda m, z: fsp.hyp2f1(*[np.asarray(v, z.dtype) for v in (0.6, 1.3, 2.1)], z),
       dom=U(-0.9, 0.9),
       ref=lambda z: scipy_special("hyp2f1")(0.6, 1.3, 2.1, z)),
    # (funcgrad.primitives.special_scipy_extra: orders and fixed parameters in x's dtype,
    # as SciPy keeps float32 only then; the complex Hankel functions through a real mix of
    # their parts)
    *[Op(name, lambda m, x, name=name: fsp.__dict__[name](np.asarray(1.5, x.dtype), x),
         dom=U(0.5, 4.0), ref=lambda x, name=name: scipy_special(name)(1.5, x))
      for name in ("jve", "yve")],
    *[Op(name, lambda m, x, name=name: (lambda h: fnp.real(h) - fnp.imag(h) * 0.5)(
        fsp.__dict__[name](np.asarray(1.5, x.dtype), x)), dom=U(0.5, 4.0),
         ref=lambda x, name=name: (lambda h: h.real - h.imag * 0.5)(scipy_special(name)(1.5, x)))
      for name in ("hankel1", "hankel1e", "hankel2", "hankel2e")],
    Op("powm1", lambda m, x, y: fsp.powm1(x, y), bcast(2), [U(0.2, 3.0), U(-2.0, 2.0)],
       ref=scipy_special("powm1")),
    *[Op(name, lambda m, x, name=name: fsp.__dict__[name](x), dom=U(lo, hi),
         ref=scipy_special(name))
      for name, lo, hi in (("sindg", -200.0, 200.0), ("cosdg", -200.0, 200.0),
                           ("tandg", -80.0, 80.0), ("cotdg", 10.0, 170.0))],
    Op("shichi_shi", lambda m, x: fsp.shichi(x)[0], dom=U(-3.0, 3.0),
       ref=lambda x: scipy_special("shichi")(x)[0]),
    Op("shichi_chi", lambda m, x: fsp.shichi(x)[1], dom=U(0.2, 3.0),
       ref=lambda x: scipy_special("shichi")(x)[1]),
    Op("hyperu", lambda m, x: fsp.hyperu(*[np.asarray(v, x.dtype) for v in (0.7, 1.3)], x),
       dom=U(0.3, 3.0), ref=lambda x: scipy_special("hyperu")(0.7, 1.3, x)),
    # (the primitives themselves: funcgrad.scipy.special.ellipj wraps them in a custom_jvp
    # for its derivative in m; tests/test_scipy_specialmore.py checks that)
    *[Op(f"ellipj_{part}", lambda m, u, part=part: getattr(primitive_extra, "ellipj_" + part)(
        u, np.asarray(0.4, u.dtype)), ref=lambda u, i=i: scipy_special("ellipj")(u, 0.4)[i])
      for i, part in enumerate(("sn", "cn", "dn", "ph"))],
    *[Op(f"airy_{part}", lambda m, x, i=i: fsp.airy(x)[i], dom=U(-3.0, 3.0),
         ref=lambda x, i=i: scipy_special("airy")(x)[i])
      for i, part in enumerate(("ai", "aip", "bi", "bip"))],
    # (the scaled Ai is NaN below 0, and the scale's slope sqrt(x) infinite at 0)
    *[Op(f"airye_{part}", lambda m, x, i=i: fsp.airye(x)[i], dom=U(0.2, 3.0),
         ref=lambda x, i=i: scipy_special("airye")(x)[i])
      for i, part in enumerate(("ai", "aip", "bi", "bip"))],
    Op("wrightomega", lambda m, x: fsp.wrightomega(x), dom=U(-2.0, 3.0),
       ref=scipy_special("wrightomega")),
    Op("tklmbda", lambda m, x, lm: fsp.tklmbda(x, lm), bcast(2), [U(-1.5, 1.5), U(0.05, 0.5)],
       ref=scipy_special("tklmbda")),
    # (funcgrad.primitives.special_scipy_kelvin and _rest, whose values are SciPy's: one line
    # per family, a weighted sum of every output binding each primitive once (each function
    # on its own: tests/test_scipy_special_rest.py); the parabolic cylinder functions'
    # orders and Wright's parameters in x's dtype, as SciPy keeps float32 only then; SciPy's
    # itairy is good to ~1e-8 only, so its family's differences take a wider step)
    Op("kelvin_family", lambda m, x: weighted([fsp.__dict__[name](x) for name in (
        "ber", "bei", "ker", "kei", "berp", "beip", "kerp", "keip")]), dom=U(0.3, 4.0),
       ref=lambda x: weighted([scipy_special(name)(x) for name in (
           "ber", "bei", "ker", "kei", "berp", "beip", "kerp", "keip")])),
    Op("parabolic_cylinder_family", lambda m, x: weighted(
        [out for name in ("pbdv", "pbvv", "pbwa")
         for out in fsp.__dict__[name](np.asarray(0.7, x.dtype), x)]), dom=U(-3.0, 3.0),
       ref=lambda x: weighted([out for name in ("pbdv", "pbvv", "pbwa")
                               for out in scipy_special(name)(0.7, x)])),
    Op("integral_family", lambda m, x: weighted(
        [out for name in INTEGRALS for out in outputs(fsp.__dict__[name](x))]),
       dom=U(0.3, 4.0), fd={"eps": 1e-3, "rtol": 1e-4},
       ref=lambda x: weighted([out for name in INTEGRALS
                               for out in outputs(scipy_special(name)(x))])),
    Op("modfresnel_family", lambda m, x: weighted(
        [part(h) for name in ("modfresnelp", "modfresnelm") for h in fsp.__dict__[name](x)
         for part in (fnp.real, fnp.imag)]), dom=U(0.3, 3.0),
       ref=lambda x: weighted([part(h) for name in ("modfresnelp", "modfresnelm")
                               for h in scipy_special(name)(x) for part in (np.real, np.imag)])),
    Op("mathieu_family", lambda m, x: weighted(
        [out for name in ("mathieu_cem", "mathieu_sem") for out in fsp.__dict__[name](
            *[np.asarray(v, x.dtype) for v in (2.0, 1.5)], x * 40.0)]
        + [out for name in MODIFIED_MATHIEU for out in fsp.__dict__[name](
            *[np.asarray(v, x.dtype) for v in (2.0, 1.5)], x)]), dom=U(0.3, 1.5),
       ref=lambda x: weighted(
           [out for name in ("mathieu_cem", "mathieu_sem")
            for out in scipy_special(name)(2.0, 1.5, x * 40.0)]
           + [out for name in MODIFIED_MATHIEU for out in scipy_special(name)(2.0, 1.5, x)])),
    # (no derivative in m or q: tests/test_scipy_special_rest.py checks that it raises)
    Op("mathieu_characteristic", lambda m, q: fsp.mathieu_a(np.asarray(2.0, q.dtype), q)
       + fsp.mathieu_b(np.asarray(3.0, q.dtype), q), dom=U(0.3, 3.0),
       ref=lambda q: scipy_special("mathieu_a")(2.0, q) + scipy_special("mathieu_b")(3.0, q),
       skip=("jvp_fd", "dot", "second_order", "vmap", "float32")),
    Op("spheroidal_family", lambda m, x: weighted(
        [out for name, t in SPHEROIDAL for out in fsp.__dict__[name](
            *[np.asarray(v, x.dtype) for v in (1.0, 2.0, 1.5)], t(x))]), dom=U(0.3, 0.8),
       ref=lambda x: weighted(
           [out for name, t in SPHEROIDAL for out in scipy_special(name)(1.0, 2.0, 1.5, t(x))])),
    Op("spheroidal_cv_family", lambda m, x: weighted(
        [out for name, t in SPHEROIDAL for out in fsp.__dict__[name + "_cv"](
            *[np.asarray(v, x.dtype) for v in (1.0, 2.0, 1.5)],
            np.asarray(SPHEROIDAL_CV[name[:3]], x.dtype), t(x))]), dom=U(0.3, 0.8),
       ref=lambda x: weighted([out for name, t in SPHEROIDAL for out in scipy_special(
           name + "_cv")(1.0, 2.0, 1.5, SPHEROIDAL_CV[name[:3]], t(x))]),
       skip=("second_order", "vmap", "float32")),
    # (no derivative in m, n or c: tests/test_scipy_spheroidal.py checks that it raises)
    Op("spheroidal_characteristic", lambda m, c: fsp.pro_cv(*[np.asarray(v, c.dtype)
                                                               for v in (1.0, 2.0)], c)
       + fsp.obl_cv(*[np.asarray(v, c.dtype) for v in (0.0, 3.0)], c), dom=U(0.3, 3.0),
       ref=lambda c: scipy_special("pro_cv")(1.0, 2.0, c) + scipy_special("obl_cv")(0.0, 3.0, c),
       skip=("jvp_fd", "dot", "second_order", "vmap", "float32")),
    Op("wright_besselpoly_family", lambda m, x: weighted(
        [fsp.__dict__[name](*[np.asarray(v, x.dtype) for v in (0.6, 1.3)], x)
         for name in ("wright_bessel", "log_wright_bessel")]
        + [fsp.besselpoly(x, *[np.asarray(v, x.dtype) for v in (0.5, 1.5)])]),
       dom=U(0.2, 3.0),
       ref=lambda x: weighted([scipy_special(name)(0.6, 1.3, x)
                               for name in ("wright_bessel", "log_wright_bessel")]
                              + [scipy_special("besselpoly")(x, 0.5, 1.5)])),
    # piecewise constant: zero derivative (multiplied by x so the output stays traced)
    Op("sign", lambda m, x: x * m.sign(x), dom=NZ(0.1, 2.0)),
    # complex parts, on real arrays (tests/test_complex.py checks them on complex ones)
    Op("real", lambda m, x: m.real(x)),
    Op("imag", lambda m, x: x * m.imag(x)),
    Op("conj", lambda m, x: m.conj(x)),
    # numpy.fft on real signals back to real values (tests/test_complex.py: complex ones)
    Op("fft", lambda m, x: m.real(m.fft.ifft(m.fft.fft(x, axis=0) * 0.5, axis=0)), one(1, 3, 1)),
    Op("rfft_irfft", lambda m, x: m.fft.irfft(m.fft.rfft(x, 5) * 0.5, 5), one(1, 3, 1)),
    Op("floor", lambda m, x: x * m.floor(x), dom=OFFGRID),
    Op("ceil", lambda m, x: x * m.ceil(x), dom=OFFGRID),
    Op("rint", lambda m, x: x * m.rint(x), dom=OFFGRID),
    Op("trunc", lambda m, x: x * m.trunc(x), dom=OFFGRID),
    Op("round", lambda m, x: x * m.round(x, 1), dom=OFFGRID_TENTHS),
    # binary elementwise, broadcasting
    binary("add"),
    binary("subtract"),
    binary("multiply"),
    binary("divide", [U(-2.0, 2.0), NZ(0.3, 2.0)]),
    binary("power", [POS, U(-2.0, 2.0)]),
    Op("power_int_exponent", lambda m, x: m.power(x, 3), dom=U(-2.0, 2.0)),
    Op("power_float_exponent", lambda m, x: x ** 2.5, dom=POS),
    Op("power_scalar_base", lambda m, x: 2.0 ** x),
    binary("maximum", DISTINCT),
    binary("minimum", DISTINCT),
    binary("fmax", DISTINCT),
    binary("fmin", DISTINCT),
    binary("arctan2", NZ(0.3, 2.0)),
    binary("hypot", NZ(0.3, 2.0)),
    binary("logaddexp"),
    binary("logaddexp2"),
    binary("mod", [OFFGRID, CHOICE(-2.0, -1.0, 1.0, 2.0)]),
    Op("floor_divide", lambda m, x, y: x * m.floor_divide(x, y), bcast(2),
       [OFFGRID, CHOICE(-2.0, -1.0, 1.0, 2.0)]),
    Op("operators", lambda m, x, y: (x + y) * (2.0 - x) / (y * y + 1.0) + (-x) ** 2
       - 1.0 / (x * x + 2.0) + abs(y) * 0.5 + x % 1.5, bcast(2), [OFFGRID, NZ(0.1, 2.0)]),
    Op("operator_pow", lambda m, x, y: x ** y, bcast(2), [POS, U(-2.0, 2.0)]),
    # comparisons and logic select between differentiable branches
    compare("less"),
    compare("less_equal"),
    compare("greater"),
    compare("greater_equal"),
    Op("equal", lambda m, x, y: m.where(m.equal(m.rint(x), m.rint(y)), x * y, x - y),
       bcast(2), OFFGRID),
    Op("not_equal", lambda m, x, y: m.where(m.not_equal(m.rint(x), m.rint(y)), x * y, x - y),
       bcast(2), OFFGRID),
    # the constants sit in the gaps between DISTINCT's values
    Op("comparison_operators", lambda m, x, y: m.where(((x < y) & (x <= 1.05)) | ~(y > 0.55),
                                                       x * y, x - y), bcast(2), DISTINCT),
    Op("logical_and", lambda m, x, y: m.where(m.logical_and(x > 0, y > 0), x * y, x - y),
       bcast(2), NZ(0.1, 2.0)),
    Op("logical_or", lambda m, x, y: m.where(m.logical_or(x > 0, y > 0), x * y, x - y),
       bcast(2), NZ(0.1, 2.0)),
    Op("logical_xor", lambda m, x, y: m.where(m.logical_xor(x > 0, y > 0), x * y, x - y),
       bcast(2), NZ(0.1, 2.0)),
    Op("logical_not", lambda m, x: m.where(m.logical_not(x > 0), x, x * 2.0), dom=NZ(0.1, 2.0)),
    # bits of integers (a float mask's & | ^ ~ are comparison_operators' above)
    bits("bitwise_and"),
    bits("bitwise_or"),
    bits("bitwise_xor"),
    bits("invert", 1),
    bits("left_shift"),
    bits("right_shift"),
    bits("gcd"),
    bits("lcm"),
    Op("integer_operators", lambda m, x, y: (lambda i, j: m.where(
        (((i << 2) >> 1) & j | ~i ^ (j >> 1)) % 3 == 0, x * y, x - y))(
        m.astype(m.floor(x * 2.0), np.int64), m.astype(m.floor(y * 2.0), np.int64)),
       bcast(2), OFFGRID),
    Op("isnan", lambda m, x: m.where(m.isnan(x), 0.0, x * x)),
    Op("isinf", lambda m, x: m.where(m.isinf(x), 0.0, x * x)),
    Op("isfinite", lambda m, x: m.where(m.isfinite(x), x * x, 0.0)),
    # selection
    Op("where", lambda m, c, x, y: m.where(c > 0, x, y), bcast(3), NZ(0.1, 2.0)),
    Op("where_scalar_branch", lambda m, c, x: m.where(c > 0, x * x, 0.0), bcast(2),
       NZ(0.1, 2.0)),
    Op("clip", lambda m, x: m.clip(x, -0.45, 0.75), dom=DISTINCT),
    Op("clip_upper_only", lambda m, x: m.clip(x, None, 0.75), dom=DISTINCT),
    Op("clip_array_bounds", lambda m, x, lo, hi: m.clip(x, lo, hi), bcast(3),
       [U(-2.0, 2.0), U(-1.5, -0.2), U(0.2, 1.5)]),
    # reductions
    Op("sum", lambda m, x: m.sum(x)),
    Op("sum", lambda m, x, **kw: m.sum(x, **kw), one(3, 3), kw=ANY_AXIS, draw=KEEPDIMS),
    Op("mean", lambda m, x: m.mean(x), one(min_side=1)),
    Op("mean", lambda m, x, **kw: m.mean(x, **kw), one(3, 3, 1), kw=ANY_AXIS, draw=KEEPDIMS),
    Op("prod", lambda m, x: m.prod(x), dom=U(-1.5, 1.5)),
    Op("prod", lambda m, x, **kw: m.prod(x, **kw), one(3, 3), U(-1.5, 1.5), kw=ANY_AXIS,
       draw=KEEPDIMS),
    Op("max", lambda m, x: m.max(x), one(min_side=1), DISTINCT),
    Op("max", lambda m, x, **kw: m.max(x, **kw), one(3, 3, 1), DISTINCT, kw=ANY_AXIS,
       draw=KEEPDIMS),
    Op("min", lambda m, x: m.min(x), one(min_side=1), DISTINCT),
    Op("min", lambda m, x, **kw: m.min(x, **kw), one(3, 3, 1), DISTINCT, kw=ANY_AXIS,
       draw=KEEPDIMS),
    Op("var", lambda m, x: m.var(x), one(min_side=1)),
    Op("var", lambda m, x, **kw: m.var(x, **kw), one(3, 3, 2), kw=ANY_AXIS,
       draw={"keepdims": [False, True], "ddof": [0, 1]}),
    Op("std", lambda m, x, **kw: m.std(x, **kw), one(3, 3, 2), kw=ANY_AXIS, draw=KEEPDIMS),
    Op("logsumexp", lambda m, x: m.logsumexp(x), one(min_side=1), ref=logsumexp_ref),
    Op("logsumexp", lambda m, x, **kw: m.logsumexp(x, **kw), one(3, 3, 1), kw=ANY_AXIS,
       draw=KEEPDIMS, ref=logsumexp_ref),
    Op("cumsum", lambda m, x, **kw: m.cumsum(x, **kw), one(), kw={"axis": [None]}),
    Op("cumsum", lambda m, x, **kw: m.cumsum(x, **kw), one(2, 3), kw={"axis": [0, -1]}),
    Op("cumprod", lambda m, x, **kw: m.cumprod(x, **kw), one(), U(-1.5, 1.5),
       kw={"axis": [None]}),
    Op("cumprod", lambda m, x, **kw: m.cumprod(x, **kw), one(2, 3), U(-1.5, 1.5),
       kw={"axis": [0, -1]}),
    Op("argmax", lambda m, x: m.ravel(x)[m.argmax(x)], one(min_side=1), DISTINCT),
    Op("argmax", lambda m, x, axis: m.take_along_axis(
        x, m.expand_dims(m.argmax(x, axis=axis), axis), axis=axis), one(2, 3, 1), DISTINCT,
       kw={"axis": [0, -1]}),
    Op("argmin", lambda m, x: m.ravel(x)[m.argmin(x)], one(min_side=1), DISTINCT),
    Op("argmin", lambda m, x, axis: m.squeeze(m.take_along_axis(
        x, m.argmin(x, axis=axis, keepdims=True), axis=axis), axis), one(2, 3, 1), DISTINCT,
       kw={"axis": [0, -1]}),
    Op("all", lambda m, x: m.where(m.all(x > 0, axis=-1, keepdims=True), x, -x),
       one(1, 3), NZ(0.1, 2.0)),
    Op("any", lambda m, x: m.where(m.any(x > 0, axis=0), x, -x), one(1, 3), NZ(0.1, 2.0)),
    Op("diff", lambda m, x, **kw: m.diff(x, **kw), one(1, 3), kw={"axis": [0, -1]},
       draw={"n": [1, 2]}),
    # linear algebra
    Op("matmul", lambda m, x, y, kind: m.matmul(x, y),
       lambda kind: MATMUL_SHAPES[kind], kw={"kind": list(MATMUL_SHAPES)}),
    Op("matmul_operator", lambda m, x, y: x @ y, L("...mn,...nk")),
    Op("dot", lambda m, x, y, shapes: m.dot(x, y), lambda shapes: L(shapes),
       kw={"shapes": [",mn", "n,n", "mn,n", "n,nk", "mn,nk", "mn,pnk"]}),
    Op("tensordot", lambda m, x, y, axes: m.tensordot(x, y, axes), L("mn,nk"),
       kw={"axes": [1]}),
    Op("tensordot", lambda m, x, y, axes: m.tensordot(x, y, axes), L("pnk,nkq"),
       kw={"axes": [2]}),
    Op("tensordot", lambda m, x, y, axes: m.tensordot(x, y, axes), L("pqr,qps"),
       kw={"axes": [([1, 0], [0, 1])]}),
    Op("inner", lambda m, x, y, shapes: m.inner(x, y), lambda shapes: L(shapes),
       kw={"shapes": ["n,n", "mn,kn", ",mn"]}),
    Op("outer", lambda m, x, y: m.outer(x, y), L("a,b")),
    Op("outer_flattens", lambda m, x, y: m.outer(x, y), L("ab,c")),
    Op("trace", lambda m, x, offset: m.trace(x, offset), L("mn"), kw={"offset": [0, 1, -1]}),
    Op("trace_axes", lambda m, x: m.trace(x, axis1=1, axis2=2), L("amn")),
    Op("diag", lambda m, x, k: m.diag(x, k), L("n"), kw={"k": [0, 1, -2]}),
    Op("diag_of_matrix", lambda m, x, k: m.diag(x, k), L("mn"), kw={"k": [0, -1]}),
    Op("diagonal", lambda m, x, args: m.diagonal(x, *args), L("abc"),
       kw={"args": [(0, 0, 1), (1, 1, 2), (-1, 0, 2), (0, 2, 0)]}),
    Op("inv", lambda m, x: m.linalg.inv(x), SQUARE, WELL),
    Op("solve", lambda m, a, b, shapes: m.linalg.solve(a, b), lambda shapes: L(
        shapes, sizes={"n": (1, 3)}), [WELL, U(-2.0, 2.0)],
       kw={"shapes": ["nn,n", "nn,nk", "...nn,...nk", "bnn,n"]}),
    # (solve takes these two from LU_MIN rows up: here they are called at every size)
    Op("solve_lu", lambda m, a, b, shapes: solve_keeping_lu(m, a, b), lambda shapes: L(
        shapes, sizes={"n": (1, 3)}), [WELL, U(-2.0, 2.0)],
       kw={"shapes": ["nn,n", "nn,nk", "...nn,...nk", "bnn,n"]}),
    Op("lu_solve", lambda m, a, b, shapes, transpose: solve_with_lu(m, a, b, transpose),
       lambda shapes, transpose: L(shapes, sizes={"n": (1, 3)}), [WELL, U(-2.0, 2.0)],
       kw={"shapes": ["nn,nk", "...nn,...nk"], "transpose": [False, True]}),
    Op("tridiagonal_solve", lambda m, dl, d, du, b, shapes: tridiagonal_solve(m, dl, d, du, b),
       lambda shapes: L(shapes), [U(-0.5, 0.5), NZ(2.0, 3.0), U(-0.5, 0.5), U(-2.0, 2.0)],
       kw={"shapes": ["m,m,m,mn", "bm,bm,bm,bmn"]}),
    Op("all_pole", all_pole, L("...k,...n", sizes={"k": (1, 3), "n": (0, 4)}),
       [U(-0.5, 0.5), U(-2.0, 2.0)]),
    # (values only: no derivative, as JAX's; test_lax_linalg_householder checks they raise)
    Op("hessenberg", lambda m, x: fg.lax.linalg.hessenberg(x), SQUARE,
       ref=lambda x: lapack_reduction(x, "hessenberg"),
       skip=("jvp_fd", "fd", "dot", "second_order", "vmap", "float32")),
    Op("tridiagonal", lambda m, x, lower: fg.lax.linalg.tridiagonal(x, lower=lower), SQUARE,
       kw={"lower": [True, False]}, ref=lambda x, lower: lapack_reduction(
           x, "tridiagonal", lower), skip=("jvp_fd", "fd", "dot", "second_order", "vmap",
                                           "float32")),
    Op("det", lambda m, x: m.linalg.det(x), SQUARE, WELL),
    Op("slogdet", lambda m, x: m.linalg.slogdet(x), SQUARE, WELL),
    Op("slogdet_logabsdet_only", lambda m, x: m.linalg.slogdet(x)[1], SQUARE, WELL),
    # numpy's cholesky reads one triangle: symmetrise so that every direction is valid
    Op("cholesky", lambda m, x: m.linalg.cholesky(sym(m, x)), SQUARE, SPD),
    Op("svd", svd_gauge, L("...mn"), SEPARATED, kw={"full": [False, True]}),
    Op("svdvals", lambda m, x: m.linalg.svdvals(x), L("...mn"), SEPARATED),
    Op("eigh", lambda m, x, UPLO: (lambda w, v: (w, v * v[..., :1, :]))(
        *m.linalg.eigh(x, UPLO)), SQUARE, SYM_SEPARATED, draw={"UPLO": ["L", "U"]}),
    Op("eigvalsh", lambda m, x, UPLO: m.linalg.eigvalsh(x, UPLO), SQUARE, SYM_SEPARATED,
       draw={"UPLO": ["L", "U"]}),
    Op("eig_real_spectrum", lambda m, x: (lambda w, v: (w, v * v[..., :1, :]))(
        *m.linalg.eig(x)), SQUARE, REAL_SPECTRUM),
    Op("qr", qr_gauge, L("...mn"), SEPARATED, draw={"mode": ["reduced", "complete", "r"]}),
    Op("pinv", lambda m, x: m.linalg.pinv(x), L("...mn"), SEPARATED),
    Op("norm", lambda m, x: m.linalg.norm(x), one(min_side=1), NZ(0.1, 2.0)),
    Op("norm_vector", lambda m, x, ord: m.linalg.norm(x, ord), L("n", 1), DISTINCT,
       kw={"ord": [1, 2, 3, INF, -INF]}),
    Op("norm_matrix", lambda m, x, ord: m.linalg.norm(x, ord), L("mn", 1), DISTINCT,
       kw={"ord": ["fro", 1, -1, INF, -INF]}),
    Op("norm_matrix_singular", lambda m, x, ord: m.linalg.norm(x, ord), L("mn", 1),
       SEPARATED, kw={"ord": [2, -2, "nuc"]}),
    Op("norm_axis", lambda m, x, **kw: m.linalg.norm(x, **kw), L("abc", 1), DISTINCT,
       kw={"axis": [1, (0, 2)]}, draw=KEEPDIMS),
    Op("einsum", lambda m, *xs, s: m.einsum(s, *xs), lambda s: L(s.split("->")[0]),
       kw={"s": ["ij,jk->ik", "i,i->", "ii->i", "ii", "ij->", "ij,ij->ij", "i,j->ij",
                 "bij,bjk->bik", "ijk,kj->i", "ij,jk,kl->il", "...ij,...jk->...ik",
                 "ijk->kij"]}),
    Op("cross", lambda m, x, y: m.cross(x, y), L("...3,...3")),
    # shapes
    Op("reshape", lambda m, x: m.reshape(x, x.shape[::-1])),
    Op("reshape_infer", lambda m, x: m.reshape(x, (x.shape[0], -1)), one(3, 3, 1)),
    Op("reshape_method", lambda m, x: x.reshape(-1, 1)),
    Op("ravel", lambda m, x: m.ravel(x)),
    Op("flatten_method", lambda m, x: x.flatten()),
    Op("transpose", lambda m, x: m.transpose(x)),
    Op("transpose_perm", lambda m, x: m.transpose(x, (1, 0, 2)), one(3, 3)),
    Op("T_property", lambda m, x: x.T),
    Op("swapaxes", lambda m, x: m.swapaxes(x, 0, -1), one(1, 3)),
    Op("moveaxis", lambda m, x, src, dst: m.moveaxis(x, src, dst), one(3, 3),
       kw={"src": [0], "dst": [-1]}),
    Op("moveaxis", lambda m, x, src, dst: m.moveaxis(x, src, dst), one(3, 3),
       kw={"src": [[0, 1]], "dst": [[-1, 0]]}),
    Op("expand_dims", lambda m, x, axis: m.expand_dims(x, axis), one(1, 3),
       kw={"axis": [1, (0, -1)]}),
    Op("squeeze", lambda m, x: m.squeeze(x), L("1a1b")),
    Op("squeeze_axes", lambda m, x: m.squeeze(x, axis=(0, -1)), L("1ab1")),
    # the second argument only gives the target shape (and gets a zero cotangent)
    Op("broadcast_to", lambda m, x, t: m.broadcast_to(x, m.shape(t)), BROADCAST_TO),
    Op("concatenate", lambda m, x, y, z, axis: m.concatenate([x, y, z], axis),
       lambda axis: L({0: "ab,cb,db", -1: "ab,ac,ad", None: "ab,c,"}[axis]),
       kw={"axis": [0, -1, None]}),
    Op("stack", lambda m, x, y, z, axis: m.stack([x, y, z], axis), L("ab,ab,ab"),
       kw={"axis": [0, -1]}),
    Op("hstack", lambda m, x, y, shapes: m.hstack([x, y]), lambda shapes: L(shapes),
       kw={"shapes": ["a,b", "ab,ac"]}),
    Op("vstack", lambda m, x, y, shapes: m.vstack([x, y]), lambda shapes: L(shapes),
       kw={"shapes": ["a,a", "ab,cb"]}),
    Op("split", lambda m, x, sections, axis: m.split(x, sections, axis), L("6a3"),
       kw={"sections": [2, [1, 4], [2, 9]], "axis": [0]}),
    Op("split_last_axis", lambda m, x: m.split(x, 3, axis=-1), L("a6")),
    Op("split_first_piece_only", lambda m, x: m.split(x, [1], axis=0)[0], L("ab", 1)),
    Op("array_split", lambda m, x: m.array_split(x, 2, axis=1), L("ab", 1)),
    Op("tile", lambda m, x, reps: m.tile(x, reps), one(), kw={"reps": [2, (2, 1, 2)]}),
    Op("repeat", lambda m, x, **kw: m.repeat(x, 2, **kw), one(1, 3),
       kw={"axis": [None, 0, -1]}),
    Op("repeat_counts", lambda m, x: m.repeat(x, [1, 0, 2], axis=-1), L("a3")),
    Op("flip", lambda m, x, **kw: m.flip(x, **kw), one(2, 3), kw={"axis": [None, 1]}),
    Op("roll", lambda m, x, shift, axis: m.roll(x, shift, axis), one(2, 3),
       kw={"shift": [1], "axis": [None]}),
    Op("roll", lambda m, x, shift, axis: m.roll(x, shift, axis), one(2, 3),
       kw={"shift": [-1], "axis": [0]}),
    Op("roll", lambda m, x, shift, axis: m.roll(x, shift, axis), one(2, 3),
       kw={"shift": [(1, 2)], "axis": [(0, 1)]}),
    Op("triu", lambda m, x, k: m.triu(x, k), one(2, 3), kw={"k": [0, 1, -1]}),
    Op("tril", lambda m, x, k: m.tril(x, k), one(2, 3), kw={"k": [0, -1]}),
    Op("sort", lambda m, x, **kw: m.sort(x, **kw), one(1, 3), DISTINCT,
       kw={"axis": [-1, 0, None]}),
    Op("argsort", lambda m, x: m.take_along_axis(x, m.argsort(x, axis=0), axis=0), one(1, 3),
       DISTINCT),
    Op("pad", lambda m, x: m.pad(x, ((1, 0), (0, 2)), constant_values=0.5), one(2, 2)),
    # indexing
    Op("slice", lambda m, x: x[1:], one(1, 3)),
    Op("slice_negative_step", lambda m, x: x[::-1], one(1, 3)),
    Op("slice_steps", lambda m, x: x[::-2, 1::2], one(2, 3)),
    Op("integer", lambda m, x: x[-1], one(1, 3, 1)),
    Op("integer_and_slices", lambda m, x: x[1, :, 0], L("abc", 1, 3, {"a": (2, 3)})),
    Op("ellipsis_and_newaxis", lambda m, x: x[None, ..., -1, None], one(1, 3, 1)),
    Op("int_array_repeats", lambda m, x: x[[0, 0, 1]], one(1, 3, 2)),
    Op("int_array_2d", lambda m, x: x[np.array([[0, 1], [1, 0]])], one(1, 3, 2)),
    Op("int_array_second_axis", lambda m, x: x[:, [1, 0, 1]], one(2, 3, 2)),
    Op("int_arrays_adjacent", lambda m, x: x[[0, 1], [1, 0]], one(2, 3, 2)),
    Op("int_arrays_apart", lambda m, x: x[[0, 1], :, [1, 0]], one(3, 3, 2)),
    Op("int_and_int_array", lambda m, x: x[1, [0, 1, 1]], one(2, 3, 2)),
    Op("negative_int_array", lambda m, x: x[..., [-1, 0]], one(1, 3, 1)),
    Op("bool_mask_constant", lambda m, x: x[const_mask(x.shape)], one(1, 3)),
    Op("bool_mask_row", lambda m, x: x[np.array([True, False, True])], L("3b")),
    # a mask computed from the traced values needs concrete values: not under vmap/make_graph
    Op("bool_mask_traced", lambda m, x: x[x > 0], one(1, 3), NZ(0.1, 2.0),
       skip=("vmap", "graph")),
    Op("take", lambda m, x, **kw: m.take(x, [2, 0, 0], **kw), one(1, 3, 3),
       kw={"axis": [None, -1]}),
    Op("take_along_axis", lambda m, x, axis: m.take_along_axis(
        x, along_index(x.shape, axis), axis=axis), one(2, 3, 1), kw={"axis": [0, -1]}),
    Op("at_set", lambda m, x, y: fnp.at(x)[1:].set(y), L("ab,b", 1),
       ref=lambda x, y: np_at(x, slice(1, None), y, "set")),
    Op("at_set_scalar", lambda m, x: fnp.at(x)[0, 1].set(2.0), L("ab", 2),
       ref=lambda x: np_at(x, (0, 1), 2.0, "set")),
    Op("at_add_repeats", lambda m, x, y: fnp.at(x)[[0, 2, 0]].add(y), L("ab,3b", 3),
       ref=lambda x, y: np_at(x, [0, 2, 0], y, "add")),
    Op("at_multiply", lambda m, x, y: fnp.at(x)[:, 1].multiply(y), L("ab,a", 2),
       ref=lambda x, y: np_at(x, (slice(None), 1), y, "multiply")),
    Op("at_set_mask", lambda m, x, y: fnp.at(x)[const_mask(x.shape)].set(y), L("ab,"),
       ref=lambda x, y: np_at(x, const_mask(x.shape), y, "set")),
    # types and gradient control
    Op("astype_to_float32", lambda m, x: m.astype(x, np.float32) * 2.0, fd={"eps": 1e-2,
                                                                          "rtol": 1e-3}),
    Op("astype_from_float32", lambda m, x: m.astype(x, np.float64) * 2.0, dtypes=[np.float32],
       fd={"eps": 1e-2, "rtol": 1e-3},
       skip=("float32",)),  # float64 out by design
    Op("astype_to_int", lambda m, x: x * m.astype(x, np.int16), dom=OFFGRID),
    Op("astype_from_bool", lambda m, x: x * m.astype(x > 0, x.dtype), dom=NZ(0.1, 2.0)),
    Op("mixed_precision", lambda m, x, y: x * y, bcast(2), dtypes=[np.float32, np.float64],
       fd={"eps": 1e-2, "rtol": 1e-3}, skip=("float32",)),  # promotes to float64 by design
    # stop_gradient is not a function of its input's value: no finite differences; the
    # derivative itself is pinned down by test_stop_gradient_derivative below
    Op("stop_gradient", lambda m, x: x * fg.stop_gradient(x), ref=lambda x: x * x,
       skip=("jvp_fd", "fd")),
    # user-defined rules (the custom_call primitive), with broadcasting arguments
    Op("custom_jvp", lambda m, x, y: softplus_custom_jvp(x, y), bcast(2), ref=softplus_ref),
    Op("custom_vjp", lambda m, x, y: softplus_custom_vjp(x, y), bcast(2), ref=softplus_ref),
    Op("checkpoint", lambda m, x, y: fg.checkpoint(lambda a, b: fnp.sin(a) * b)(x, y),
       bcast(2), ref=lambda x, y: np.sin(x) * y),
    # control flow (fg.lax) and compiled functions (fg.jit)
    Op("cond", lambda m, p, x, y: fg.lax.cond(p > 0, lambda a, b: fnp.sin(a) * b,
                                              lambda a, b: a - b, x, y),
       L(",ab,b"), [NZ(0.5, 1.0), U(-2.0, 2.0), U(-2.0, 2.0)],
       ref=lambda p, x, y: np.sin(x) * y if p > 0 else x - y),
    Op("scan", lambda m, c, xs, reverse: fg.lax.scan(scan_step, c, xs, reverse=reverse),
       L("ab,tab"), U(-1.5, 1.5), kw={"reverse": [False, True]}, ref=scan_ref),
    # the loop index is an int64 array: cast it, or float32 + int64 widens the carry
    Op("fori_loop", lambda m, x: fg.lax.fori_loop(
        0, 3, lambda i, c: c * fnp.cos(c) + fnp.astype(i, c.dtype), x), ref=fori_ref),
    Op("while_loop", lambda m, x: fg.lax.while_loop(
        lambda c: c[0] < 3, lambda c: (c[0] + 1, fnp.sin(c[1]) * 1.5 + 0.1), (0, x))[1],
       ref=while_ref),
    Op("jit", lambda m, x, y: jitted(x, y), JIT_SHAPES, vmap=([1, None], 2),
       ref=lambda x, y: np.sin(x) * y + x),
    # a host callback has no derivative: its argument is stop_gradient-ed, so transforms
    # see a constant (finite differences would see the callback's slope)
    Op("pure_callback", lambda m, x: x * fg.pure_callback(
        np.cos, x, fg.stop_gradient(x), vmap_method="expand_dims"),
       ref=lambda x: x * np.cos(x), skip=("jvp_fd", "fd")),
    Op("name", lambda m, x: fg.checkpoint_name(x * 2.0, "h"), ref=lambda x: x * 2.0),
    # debug.callback traced: an equation with no result, kept for its effect
    Op("debug_callback", lambda m, x: (fg.debug.callback(lambda v: None, x), x * 2.0)[1],
       ref=lambda x: x * 2.0),
    # collectives over a named vmap: an operand it does not batch puts the primitive itself
    # in the graph (a batched one the vmap reduces; tests/test_jax_names.py tests that)
    Op("psum", lambda m, x, y: fg.vmap(lambda a: a * fg.lax.psum(y, "i"), axis_name="i")(x),
       L("ab,b"), ref=lambda x, y: x * (y * x.shape[0])),
    Op("pmax", lambda m, x, y: fg.vmap(lambda a: a * fg.lax.pmax(y, "i"), axis_name="i")(x),
       L("ab,b"), ref=lambda x, y: x * y),
    Op("pmin", lambda m, x, y: fg.vmap(lambda a: a * fg.lax.pmin(y, "i"), axis_name="i")(x),
       L("ab,b"), ref=lambda x, y: x * y),
    Op("all_gather", lambda m, x, y: fg.vmap(
        lambda a: a * fnp.sum(fg.lax.all_gather(y, "i"), axis=0), axis_name="i")(x),
       L("ab,b"), ref=lambda x, y: x * (y * x.shape[0])),
    # (each example gets its own slice even of a shared operand, so the vmap always expands
    # psum_scatter: it never reaches a graph's top level, which the graph check reads)
    Op("psum_scatter", lambda m, x: fg.vmap(
        lambda a: fg.lax.psum_scatter(a, "i", scatter_dimension=1), axis_name="i")(x),
       L("bab"), ref=lambda x: np.swapaxes(x.sum(0), 0, 1), skip=("graph",)),
    # (the same: example i receives piece i even of a shared operand)
    Op("all_to_all", lambda m, x: fg.vmap(
        lambda a: fg.lax.all_to_all(a, "i", 0, 1), axis_name="i")(x),
       L("aab"), ref=lambda x: np.transpose(x, (1, 2, 0)), skip=("graph",)),
]

CASES = [case for op in OPS for case in op.cases()]
assert len({c.id for c in CASES}) == len(CASES), "two lines give the same test id"


def cases(check):
    return [pytest.param(c, id=c.id, marks=[pytest.mark.xfail(
        strict=True, reason=c.op.xfail[check])] if check in c.op.xfail else [])
        for c in CASES if check not in c.op.skip]


def property_test(check):
    """``body(case, data)`` as a test parametrised by every case the check applies to,
    each run with hypothesis; a case with a known bug (``xfail``) runs one example and
    is not shrunk, which would only take time."""
    def decorate(body):
        every_example = given(data=st.data())(body)
        one_example = settings(max_examples=1, phases=[Phase.generate])(
            given(data=st.data())(body))

        @pytest.mark.parametrize("case", cases(check))
        def test(case):
            (one_example if check in case.op.xfail else every_example)(case)

        test.__name__ = test.__qualname__ = body.__name__
        test.__doc__ = body.__doc__
        return test
    return decorate


# --- the checks, one test each ----------------------------------------------------------------

@property_test("value")
def test_value(case, data):
    _, args, kw, _ = case.draw(data)
    check_value(case.f(kw), case.reference(kw), args)


@property_test("jvp_fd")
def test_jvp_fd(case, data):
    _, args, kw, rng = case.draw(data)
    check_jvp_fd(case.f(kw), args, rng, **case.op.fd)


@property_test("dot")
def test_dot_product(case, data):
    _, args, kw, rng = case.draw(data)
    check_dot_product(case.f(kw), args, rng)


@property_test("second_order")
def test_second_order(case, data):
    _, args, kw, rng = case.draw(data)
    check_second_order(case.f(kw), args, rng, fd="fd" not in case.op.skip, **case.op.fd)


@property_test("vmap")
def test_vmap(case, data):
    shapes, _, kw, rng = case.draw(data)
    if case.op.vmap is not None:
        in_axes, size = case.op.vmap
    else:
        in_axes = [data.draw(st.sampled_from([None] + list(range(len(s) + 1)) + [-1]),
                             label=f"in_axes[{i}]") for i, s in enumerate(shapes)]
        if all(ax is None for ax in in_axes):
            in_axes[0] = 0
        size = data.draw(st.integers(1, 3), label="batch size")
    samples = [case.values(rng, shapes) for _ in range(size)]
    args = [samples[0][i] if ax is None else np.stack([s[i] for s in samples], axis=ax)
            for i, ax in enumerate(in_axes)]
    check_vmap(case.f(kw), args, in_axes, rng)


@property_test("float32")
def test_float32(case, data):
    _, args, kw, rng = case.draw(data)
    check_float32(case.f(kw), args, rng, graph="graph" not in case.op.skip)


@property_test("graph")
def test_graph(case, data):
    _, args, kw, _ = case.draw(data)
    check_graph(case.f(kw), args)


@property_test("numpy_route")
def test_numpy_route(case, data):
    """Plain ``numpy`` calls on traced values differentiate like ``funcgrad.numpy``."""
    _, args, kw, rng = case.draw(data)
    f_np, f_fnp = case.f(kw, np), case.f(kw, fnp)
    vs = tuple(rng.standard_normal(a.shape).astype(a.dtype) for a in args)
    (out_np, t_np), (out_fnp, t_fnp) = (fg.jvp(f, tuple(args), vs) for f in (f_np, f_fnp))
    for a, b in zip(leaves(out_np) + leaves(t_np), leaves(out_fnp) + leaves(t_fnp)):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    out, vjp_np = fg.vjp(f_np, *args)
    us = fg.tree.tree_map(lambda o: rng.standard_normal(np.shape(o)), out)
    for a, b in zip(vjp_np(us), fg.vjp(f_fnp, *args)[1](us)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-14)


# --- targeted tests for what the table cannot say ---------------------------------------------

@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite", "sign", "floor", "ceil",
                                  "rint", "trunc", "abs", "negative"])
def test_predicates_and_rounding_on_special_values(name):
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.5, 0.5, 3.0])
    got, want = getattr(fnp, name)(x), getattr(np, name)(x)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_stop_gradient_derivative():
    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_array_equal(fg.grad(lambda x: fnp.sum(x * fg.stop_gradient(x)))(x), x)
    _, t = fg.jvp(lambda x: x * fg.stop_gradient(x), (x,), (np.ones(3),))
    np.testing.assert_array_equal(t, x)


@pytest.mark.parametrize("f", [
    lambda x: fnp.sum(x), lambda x: fnp.sin(x) * 2.0, lambda x: fnp.cumsum(x, axis=0),
    lambda x: fnp.concatenate([x, x], 0), lambda x: x[::-1], lambda x: fnp.reshape(x, (0, 2)),
    lambda x: fnp.transpose(x), lambda x: fnp.matmul(x.T, x), lambda x: fnp.mean(x, axis=1),
], ids=["sum", "sin", "cumsum", "concatenate", "flip", "reshape", "transpose", "matmul",
        "mean_nonempty_axis"])
def test_size_zero_inputs(f):
    """Every check on a (0, 2) input: derivatives of empty arrays are empty arrays."""
    x = np.zeros((0, 2))
    rng = np.random.default_rng(0)
    check_jvp_fd(f, [x], rng)
    check_dot_product(f, [x], rng)
    check_second_order(f, [x], rng)
    check_vmap(f, [np.zeros((2, 0, 2))], [0], rng)
    check_graph(f, [x])


def test_vmap_over_an_empty_batch():
    f = lambda x: fnp.sin(x) * fnp.sum(x)  # noqa: E731
    out = fg.vmap(f)(np.zeros((0, 3)))
    assert out.shape == (0, 3)


# --- the registry -----------------------------------------------------------------------------

def test_every_primitive_has_all_its_rules():
    missing = []
    for name, prim in sorted(REGISTRY.items()):
        rules = ["impl", "abstract_eval", "batch"]
        if prim.differentiable is not False:
            rules += ["jvp", "vjp"]
        missing += [f"{name}.{rule}" for rule in rules if getattr(prim, rule, None) is None]
    assert not missing, f"primitives without a rule: {missing}"


def primitives_by_line():
    """``{case id: primitive names in its graph}``, tracing each line on typical shapes."""
    table = {}
    for case in CASES:
        if "graph" in case.op.skip:
            continue
        args, kw = case.typical()
        table[case.id] = check_graph(case.f(kw), args)
    return table


def test_every_primitive_has_a_property_test():
    table = primitives_by_line()
    empty = [cid for cid, names in table.items() if not names]
    assert not empty, f"lines whose function binds no primitive: {empty}"
    covered = set().union(*table.values())
    # (no graph holds it at its top level: see its line)
    covered |= {op.name for op in OPS if op.name in ("psum_scatter", "all_to_all")}
    missing = sorted(set(REGISTRY) - covered)
    assert not missing, (f"primitives with no line in the property table: {missing}; add a "
                         f"line to OPS in {__file__} that uses each")

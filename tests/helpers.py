"""Reusable derivative checkers for functions of float arrays.

Each checker takes ``f`` (positional arrays in, an array or a tuple/namedtuple of
arrays out) and its input arrays, and raises ``AssertionError`` with a message
naming what disagreed.  References come only from outside the code under test:
finite differences, NumPy, or another route through funcgrad whose agreement is
the property (``<vjp(u), v> == <u, jvp(v)>``, fwd-over-rev == rev-over-rev).

Random directions come from ``rng`` (a ``numpy.random.Generator``); the tests
seed it from hypothesis, so a failure replays.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x = np.array([0.3, -1.2])
    >>> check_jvp_fd(fnp.sin, [x]); check_dot_product(fnp.sin, [x])
"""
import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import tree

__all__ = ["check_value", "check_jvp_fd", "check_dot_product", "check_second_order",
           "check_vmap", "check_float32", "check_graph", "assert_close", "leaves",
           "c_library_exp2", "numpy_exp2_is_c_library"]

FD_EPS = 1e-6


# --- small utilities -----------------------------------------------------------------------

def c_library_exp2(x):
    """The C library's ``exp2f``/``exp2`` of each element of a float32/float64 array (what
    the kernels' exp2 leaf calls), computed outside funcgrad and NumPy, through ctypes."""
    import ctypes
    import ctypes.util
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    c_type = ctypes.c_float if x.dtype == np.float32 else ctypes.c_double
    fn = libm.exp2f if x.dtype == np.float32 else libm.exp2
    fn.restype, fn.argtypes = c_type, [c_type]
    return np.array([fn(float(v)) for v in x.ravel()], x.dtype).reshape(x.shape)


def numpy_exp2_is_c_library():
    """Does NumPy's exp2 give the C library's bits on this CPU?  Not where NumPy dispatches
    it to its AVX-512 (SVML) loops, which differ from the C library in the last bit on
    about a fifth of float32 arguments."""
    x = np.linspace(-30.0, 30.0, 2001)
    return all(np.exp2(x.astype(t)).tobytes() == c_library_exp2(x.astype(t)).tobytes()
               for t in (np.float32, np.float64))


def leaves(out):
    """The output's leaves as NumPy arrays (0-d NumPy scalars become 0-d arrays)."""
    return [np.asarray(o) for o in tree.leaves(out)]


def assert_same(got, want, rtol=1e-10, what=""):
    """Same structure, shapes and dtypes as ``want`` (JAX's outputs, say); integers and
    booleans equal, floats close."""
    got, want = leaves(got), leaves(want)
    assert len(got) == len(want), f"{what}: {len(got)} outputs, JAX gives {len(want)}"
    for g, w in zip(got, want):
        assert g.shape == w.shape, f"{what}: shape {g.shape}, JAX {w.shape}"
        assert g.dtype == w.dtype, f"{what}: dtype {g.dtype}, JAX {w.dtype}"
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=what)
        else:
            np.testing.assert_allclose(g, w, rtol, 1e-12, err_msg=what)


def leaf(lib, values=(1.0, 2.0, 3.0)):
    """A leaf Tensor requiring grad, of ``lib`` (funcgrad or torch: the ``lib`` fixture)."""
    return lib.tensor(list(values), requires_grad=True)


def values(t):
    """A Tensor's (funcgrad's or torch's) values as a NumPy array."""
    return np.asarray(t.detach().numpy())


def _rng(rng):
    return rng if rng is not None else np.random.default_rng(0)


def _normal(rng, like, dtype=np.float64):
    return rng.standard_normal(np.shape(like)).astype(dtype)


def _finfo_eps(*arrays):
    """Machine epsilon of the least precise float dtype among ``arrays``."""
    return max(np.finfo(a.dtype).eps if a.dtype.kind == "f" else 0.0 for a in arrays)


def _abs_max(*arrays):
    return max([float(np.max(np.abs(a))) for a in arrays if np.size(a)] + [0.0])


def assert_close(actual, expected, rtol, atol=0.0, what="", scale=None, equal_nan=False):
    """``|actual - expected| <= atol + rtol * scale`` elementwise, with ``scale`` the
    largest magnitude of ``expected`` (at least 1): errors are judged relative to
    the size of the whole result, so entries that cancel to ~0 are not held to a
    relative tolerance they cannot meet."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, (
        f"{what}: shape {actual.shape}, expected {expected.shape}")
    if scale is None:
        scale = max(1.0, _abs_max(expected[np.isfinite(expected)]))
    err = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
    bad = ~(err <= atol + rtol * scale)  # also catches NaN
    if equal_nan:
        bad &= ~(np.isnan(actual) & np.isnan(expected))
    if np.any(bad):
        i = tuple(np.argwhere(bad)[0])
        raise AssertionError(
            f"{what}: {int(bad.sum())} of {bad.size} entries differ (rtol={rtol:g}, "
            f"atol={atol:g}, scale={scale:g}); first at {i}: got {actual[i]!r}, expected "
            f"{expected[i]!r}\n got:\n{actual}\n expected:\n{expected}")


def _check_float_outputs(outs, what):
    for j, o in enumerate(outs):
        assert o.dtype.kind == "f", (
            f"{what}: output {j} has dtype {o.dtype}; the checkers need float outputs (wrap "
            f"a boolean or integer result, e.g. fnp.where(cond, x, y))")


def _dot(a, b):
    return float(np.sum(np.asarray(a, np.float64) * np.asarray(b, np.float64)))


def _dot_scale(a, b):
    return float(np.sum(np.abs(np.asarray(a, np.float64) * np.asarray(b, np.float64))))


def scalarize(f, weights):
    """``g(*args) = sum_j sum(f(*args)[j] * weights[j])``: a scalar function whose
    derivatives see every output of ``f`` (weights fixed, so nothing cancels)."""
    def g(*args):
        total = None
        for o, w in zip(tree.leaves(f(*args)), weights):
            s = fnp.sum(o * w)
            total = s if total is None else total + s
        return total
    return g


# --- values --------------------------------------------------------------------------------

def check_value(f, ref, args, rtol=1e-10, atol=1e-12):
    """``f(*args)`` equals the reference ``ref(*args)`` (NumPy): shapes, dtypes, values."""
    got, want = leaves(f(*args)), leaves(ref(*args))
    assert len(got) == len(want), f"value: {len(got)} outputs, NumPy gives {len(want)}"
    for j, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape, f"value: output {j} has shape {g.shape}, NumPy {w.shape}"
        assert g.dtype == w.dtype, f"value: output {j} has dtype {g.dtype}, NumPy {w.dtype}"
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=f"value: output {j}")
        else:
            assert_close(g, w, rtol, atol, what=f"value: output {j}", equal_nan=True)


# --- first order -----------------------------------------------------------------------------

def check_jvp_fd(f, args, rng=None, eps=FD_EPS, rtol=1e-5, atol=1e-6):
    """``fg.jvp`` against central finite differences along random directions.

    The directions are random normal vectors (all arguments at once), so one check
    covers every argument and every mix of them.  Errors are judged relative to the
    largest of the tangent and the output: a central difference loses about
    ``ulp(f) / eps`` to rounding, which scales with the output, not the tangent.
    """
    rng = _rng(rng)
    args = [np.asarray(a) for a in args]
    vs = [_normal(rng, a, a.dtype) for a in args]
    out, tangent = fg.jvp(f, tuple(args), tuple(vs))
    outs, tangents = leaves(out), leaves(tangent)
    want = leaves(f(*args))
    _check_float_outputs(want, "jvp")
    for j, (o, w) in enumerate(zip(outs, want)):
        assert_close(o, w, 1e-12, what=f"jvp primal output {j} vs f(*args)")
    plus = leaves(f(*[a + eps * v for a, v in zip(args, vs)]))
    minus = leaves(f(*[a - eps * v for a, v in zip(args, vs)]))
    for j, (t, p, m, w) in enumerate(zip(tangents, plus, minus, want)):
        assert t.shape == w.shape, f"jvp: tangent {j} has shape {t.shape}, output {w.shape}"
        assert t.dtype == w.dtype, f"jvp: tangent {j} has dtype {t.dtype}, output {w.dtype}"
        fd = (p.astype(np.float64) - m.astype(np.float64)) / (2 * eps)
        scale = max(1.0, _abs_max(fd), _abs_max(w))
        assert_close(t, fd, rtol, atol, what=f"jvp tangent {j} vs central differences",
                     scale=scale)


def check_dot_product(f, args, rng=None, rtol=1e-10):
    """``<vjp(u), v> == <u, jvp(v)>`` for random ``u`` and ``v``: reverse mode is the
    transpose of forward mode.  Also: cotangents have the inputs' shapes and dtypes."""
    rng = _rng(rng)
    args = [np.asarray(a) for a in args]
    out, vjp_fn = fg.vjp(f, *args)
    outs, out_tree = tree.flatten(out)
    outs = [np.asarray(o) for o in outs]
    _check_float_outputs(outs, "vjp")
    us = [_normal(rng, o, o.dtype) for o in outs]
    cts = vjp_fn(tree.unflatten(out_tree, us))
    assert isinstance(cts, tuple) and len(cts) == len(args), (
        f"vjp_fn returned {type(cts).__name__} of {len(cts)}, expected a tuple of {len(args)}")
    cts = [np.asarray(c) for c in cts]
    for i, (c, a) in enumerate(zip(cts, args)):
        assert c.shape == a.shape, f"vjp: cotangent {i} has shape {c.shape}, input {a.shape}"
        assert c.dtype == a.dtype, f"vjp: cotangent {i} has dtype {c.dtype}, input {a.dtype}"
    vs = [_normal(rng, a, a.dtype) for a in args]
    _, tangent = fg.jvp(f, tuple(args), tuple(vs))
    tangents = leaves(tangent)
    lhs = sum(_dot(c, v) for c, v in zip(cts, vs))
    rhs = sum(_dot(u, t) for u, t in zip(us, tangents))
    scale = sum(_dot_scale(c, v) for c, v in zip(cts, vs)) + sum(
        _dot_scale(u, t) for u, t in zip(us, tangents))
    tol = max(rtol, 100 * _finfo_eps(*args, *outs)) * scale + 1e-300
    assert abs(lhs - rhs) <= tol, (
        f"dot-product test: <vjp(u), v> = {lhs!r} but <u, jvp(v)> = {rhs!r} "
        f"(difference {abs(lhs - rhs):g}, allowed {tol:g})")


# --- second order -----------------------------------------------------------------------------

def check_second_order(f, args, rng=None, fd=True, eps=FD_EPS, rtol=1e-5, atol=1e-6):
    """Hessian-vector products of ``g = sum(f(*args) * w)`` agree in all four orders:
    fwd-over-rev (``jvp`` of ``grad``), rev-over-rev (``vjp`` of ``grad``, H symmetric),
    rev-over-fwd (``grad`` of ``jvp``), fwd-over-fwd (``u . H v`` by ``jvp`` of ``jvp``),
    and (``fd=True``) central differences of ``grad`` along ``v`` — a gradgradcheck.
    """
    rng = _rng(rng)
    args = tuple(np.asarray(a) for a in args)
    outs = leaves(f(*args))
    _check_float_outputs(outs, "second order")
    g = scalarize(f, [_normal(rng, o, o.dtype) for o in outs])
    nums = tuple(range(len(args)))
    grad_g = fg.grad(g, argnums=nums)
    vs = tuple(_normal(rng, a, a.dtype) for a in args)
    us = tuple(_normal(rng, a, a.dtype) for a in args)

    hv_fr = [np.asarray(h) for h in fg.jvp(grad_g, args, vs)[1]]
    hv_rr = [np.asarray(h) for h in fg.vjp(grad_g, *args)[1](vs)]

    def g_dir(*a):
        return fg.jvp(g, a, vs)[1]

    hv_rf = [np.asarray(h) for h in fg.grad(g_dir, argnums=nums)(*args)]
    uhv_ff = float(fg.jvp(g_dir, args, us)[1])

    scale = max([1.0] + [_abs_max(h) for h in hv_fr])
    tight = max(1e-9, 1e3 * _finfo_eps(*args))
    for i, (a, b, c, x) in enumerate(zip(hv_fr, hv_rr, hv_rf, args)):
        assert a.shape == x.shape and a.dtype == x.dtype, (
            f"fwd-over-rev: H v block {i} is {a.dtype}{a.shape}, input {x.dtype}{x.shape}")
        assert_close(b, a, tight, what=f"rev-over-rev vs fwd-over-rev, argument {i}",
                     scale=scale)
        assert_close(c, a, tight, what=f"rev-over-fwd vs fwd-over-rev, argument {i}",
                     scale=scale)
    uhv = sum(_dot(u, h) for u, h in zip(us, hv_fr))
    uhv_scale = sum(_dot_scale(u, h) for u, h in zip(us, hv_fr)) + 1.0
    assert abs(uhv_ff - uhv) <= tight * uhv_scale, (
        f"fwd-over-fwd u.Hv = {uhv_ff!r}, fwd-over-rev gives {uhv!r}")
    if fd:
        plus = grad_g(*[a + eps * v for a, v in zip(args, vs)])
        minus = grad_g(*[a - eps * v for a, v in zip(args, vs)])
        grads = grad_g(*args)
        for i, (p, m, h, g0) in enumerate(zip(plus, minus, hv_fr, grads)):
            fd_hv = (np.asarray(p, np.float64) - np.asarray(m, np.float64)) / (2 * eps)
            s = max(1.0, _abs_max(fd_hv), _abs_max(np.asarray(g0)))
            assert_close(h, fd_hv, rtol, atol, scale=s,
                         what=f"H v (fwd-over-rev) vs central differences of grad, argument {i}")


# --- vmap -------------------------------------------------------------------------------------

def _member(args, in_axes, i):
    return [a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)]


def _stack_leaves(per_member, j):
    return np.stack([m[j] for m in per_member])


def check_vmap(f, args, in_axes, rng=None, rtol=1e-10):
    """``fg.vmap(f, in_axes)(*args)`` equals stacking ``f`` over the batch; so do ``vmap``
    of ``grad`` (batching the VJP rules) and ``vmap`` of ``jvp`` with unbatched tangents
    (batching the JVP rules)."""
    rng = _rng(rng)
    args = [np.asarray(a) for a in args]
    in_axes = tuple(in_axes)
    size = next(a.shape[ax] for a, ax in zip(args, in_axes) if ax is not None)
    members = [_member(args, in_axes, i) for i in range(size)]

    def compare(batched_fn, member_fn, what):
        got = leaves(batched_fn(*args))
        want = [leaves(member_fn(*m)) for m in members]
        assert len(got) == len(want[0]) if want else True
        for j, gj in enumerate(got):
            if size == 0:
                assert gj.shape[0] == 0, f"{what}: output {j} has shape {gj.shape}"
                continue
            w = _stack_leaves(want, j)
            assert gj.dtype == w.dtype, f"{what}: output {j} has dtype {gj.dtype}, not {w.dtype}"
            assert_close(gj, w, rtol, 1e-13, what=f"{what}: output {j}")

    compare(fg.vmap(f, in_axes=in_axes), f, f"vmap(f) with in_axes={in_axes}")

    sample = members[0] if members else [
        np.zeros(np.delete(a.shape, ax) if ax is not None else a.shape, a.dtype)
        for a, ax in zip(args, in_axes)]
    outs = leaves(f(*sample))
    g = scalarize(f, [_normal(rng, o, o.dtype) for o in outs])
    grad_g = fg.grad(g, argnums=tuple(range(len(args))))
    compare(fg.vmap(grad_g, in_axes=in_axes), grad_g, f"vmap(grad(g)) with in_axes={in_axes}")

    vs = tuple(_normal(rng, s, s.dtype) for s in sample)

    def tangent(*a):
        return fg.jvp(f, a, vs)[1]

    compare(fg.vmap(tangent, in_axes=in_axes), tangent,
            f"vmap(jvp(f)) with in_axes={in_axes}")


# --- float32 ----------------------------------------------------------------------------------

def _float64_factors(eqn, var, wide_inputs):
    """Is ``var`` float64 by design in a float32 computation?  The LU factors
    ``solve_lu`` keeps: NumPy's ``solve`` computes float32 in float64, and the factors of
    that computation are what the gradient's solve reuses (its solutions are float32).
    And smirnov's slope (``smirnov_derivative``) and the casts of its operands
    (``wide_inputs``, their ids): its float32 terms' log-gammas lose all digits for large ``n``, so
    its rules compute it in float64, as SciPy computes float32 smirnov (the result is
    cast back)."""
    return (eqn.prim.name == "solve_lu" and var is eqn.outvars[1]
            or eqn.prim.name == "smirnov_derivative"
            or eqn.prim.name == "convert_element_type" and id(var) in wide_inputs)


def check_float32(f, args, rng=None, rtol=2e-3, graph=True):
    """float32 in -> float32 out, float32 tangents and float32 gradients, close to the
    float64 results; with ``graph=True`` also no float64 value anywhere inside the
    captured graphs of ``jvp`` and ``grad`` (the API's final cast would hide a rule that
    silently widens to float64)."""
    rng = _rng(rng)
    args64 = [np.asarray(a, np.float64) for a in args]
    args32 = [a.astype(np.float32) for a in args64]
    outs32, outs64 = leaves(f(*args32)), leaves(f(*args64))
    for j, (o32, o64) in enumerate(zip(outs32, outs64)):
        assert o32.dtype == np.float32, f"float32: output {j} has dtype {o32.dtype}"
        assert_close(o32, o64, rtol, what=f"float32 output {j} vs float64")
    vs = [_normal(rng, a, np.float32) for a in args32]
    _, tangent = fg.jvp(f, tuple(args32), tuple(vs))
    for j, t in enumerate(leaves(tangent)):
        assert t.dtype == np.float32, f"float32: jvp tangent {j} has dtype {t.dtype}"
    ws = [_normal(rng, o) for o in outs64]
    nums = tuple(range(len(args)))
    g32 = fg.grad(scalarize(f, [w.astype(np.float32) for w in ws]), argnums=nums)(*args32)
    g64 = fg.grad(scalarize(f, ws), argnums=nums)(*args64)
    for i, (a, b) in enumerate(zip(g32, g64)):
        a = np.asarray(a)
        assert a.dtype == np.float32, f"float32: gradient {i} has dtype {a.dtype}"
        assert_close(a, b, rtol, what=f"float32 gradient {i} vs float64")
    if graph:
        w32 = [w.astype(np.float32) for w in ws]
        for what, fn in [("jvp", lambda *a: fg.jvp(f, a, tuple(vs))[1]),
                         ("grad", fg.grad(scalarize(f, w32), argnums=nums))]:
            eqns = fg.make_graph(fn)(*args32).eqns
            wide_inputs = {id(v) for eqn in eqns if eqn.prim.name == "smirnov_derivative"
                           for v in eqn.inputs}
            wide = sorted({eqn.prim.name for eqn in eqns
                           for v in eqn.outvars if v.aval.dtype == np.float64
                           and not _float64_factors(eqn, v, wide_inputs)})
            assert not wide, f"float32: the graph of {what} computes float64 values in {wide}"


# --- graph capture ----------------------------------------------------------------------------

def check_graph(f, args):
    """``fg.make_graph(f)(*args)`` evaluates to ``f(*args)``, and every equation's
    abstract value (from the primitive's ``abstract_eval``) has the shape and dtype of
    the value the primitive computes.  Returns the primitive names in the graph."""
    args = [np.asarray(a) for a in args]
    graph = fg.make_graph(f)(*args)
    want = leaves(f(*args))
    env = {id(v): a for v, a in zip(graph.invars, args)}

    def read(x):
        return env[id(x)] if id(x) in env else x

    for eqn in graph.eqns:
        out = eqn.prim.bind(*[read(x) for x in eqn.inputs], **eqn.params)
        outs = list(out) if eqn.prim.multiple_results else [out]
        assert len(outs) == len(eqn.outvars), f"{eqn.prim.name}: output count"
        for v, o in zip(eqn.outvars, outs):
            o = np.asarray(o)
            assert (o.shape, o.dtype) == (v.aval.shape, v.aval.dtype), (
                f"abstract_eval of {eqn.prim.name}{eqn.params} says "
                f"{v.aval.str_short()}, but the primitive computes {o.dtype}{list(o.shape)}")
            env[id(v)] = o
    got = leaves(graph(*args))
    assert len(got) == len(want), f"graph: {len(got)} outputs, f gives {len(want)}"
    for j, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype, f"graph output {j}: dtype {g.dtype}, f gives {w.dtype}"
        assert_close(g, w, 1e-12, what=f"graph output {j} vs f")
    return {eqn.prim.name for eqn in graph.eqns}


def numpy_and_funcgrad(expr, env):
    """``expr`` evaluated with ``m`` NumPy, then funcgrad.numpy, each on fresh copies of
    the arrays in ``env``: ``[(value, names), ...]``, or ``(exception type, None)``."""
    results = []
    for m in (np, fnp):
        names = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in env.items()}
        try:
            results.append((eval(expr, {"m": m, "np": np, **names}), names))
        except Exception as e:  # noqa: BLE001 - the exception's type is what is compared
            results.append((type(e), None))
    return results

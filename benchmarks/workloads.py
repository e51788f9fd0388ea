"""Workloads W1-W6 of the benchmark suite (issue 11), for every library, and W8
(FFT and linear algebra, in w8.py).

Each workload is written once, against a small NumPy-like namespace ``xp``
(``sin``, ``sum``, ``tanh``, ``lse`` = logsumexp over axis 1, ...) that each
library provides, so every library computes the same function.  A workload
yields one or more :class:`Task` objects (e.g. W3 gives "forward" and
"value_and_grad"); a task knows its expected result (a closed form, or NumPy
in float64) and how to build, for each library, a zero-argument callable that
does one unit of work and returns that library's result.

Libraries (table columns)

=================  ==========================================================
``funcgrad (fnp)``  funcgrad eager, the function written with ``funcgrad.numpy``
``funcgrad (np)``   funcgrad eager, the function written with plain ``numpy``
``funcgrad.jit``    ``fg.jit`` of the transformed function (skipped while
                    funcgrad has no ``jit``)
``jax``             JAX eager (op by op), float64 (float32 for W3)
``jax.jit``         ``jax.jit`` of the transformed function
``torch``           PyTorch eager: tensors with ``requires_grad`` and
                    ``torch.autograd.grad`` / ``torch.autograd.functional``
``torch.func``      PyTorch function transforms (``torch.func.grad``, ...)
``autograd``        HIPS autograd
``reference``       hand-written NumPy (closed-form derivative), or a floor;
                    not ranked
=================  ==========================================================

Peers are imported lazily, inside the builders: importing this module needs
only NumPy, so the smoke test runs without jax, torch or autograd.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

FG, FG_NP, FG_JIT = "funcgrad (fnp)", "funcgrad (np)", "funcgrad.jit"
JAX, JAX_JIT = "jax", "jax.jit"
TORCH, TORCH_FUNC = "torch", "torch.func"
AUTOGRAD = "autograd"
REF = "reference"

#: table column order
LIBRARIES = [FG, FG_NP, FG_JIT, JAX, JAX_JIT, TORCH, TORCH_FUNC, AUTOGRAD, REF]
FUNCGRAD_LIBS = [FG, FG_NP, FG_JIT]
#: the libraries funcgrad is compared against ("fastest peer")
PEERS = [JAX, JAX_JIT, TORCH, TORCH_FUNC, AUTOGRAD]
#: peers that do not compile (for the "fastest eager library" targets)
EAGER_PEERS = [JAX, TORCH, TORCH_FUNC, AUTOGRAD]
#: --libs accepts these group names as well as single labels
GROUPS = {
    "funcgrad": FUNCGRAD_LIBS,
    "jax": [JAX, JAX_JIT],
    "torch": [TORCH, TORCH_FUNC],
    "autograd": [AUTOGRAD],
    "reference": [REF],
}
#: distribution whose version is reported for each label
DISTRIBUTION = {FG: "funcgrad", FG_NP: "funcgrad", FG_JIT: "funcgrad", JAX: "jax",
                JAX_JIT: "jax", TORCH: "torch", TORCH_FUNC: "torch",
                AUTOGRAD: "autograd", REF: "numpy"}

#: problem sizes: "full" is the issue's specification, "tiny" is for the smoke test
SIZES = {
    "full": {"w1_n": 16, "w2_n": 8, "w2_steps": 200,
             "w3": (128, 784, 256, 10), "w4_n": 1_000_000,
             "w5_n": (100, 400), "w6_n": 200,
             "w8_fft_n": 4096, "w8_fft_large_n": 2**20, "w8_la": (200, 10)},
    "tiny": {"w1_n": 16, "w2_n": 8, "w2_steps": 5,
             "w3": (4, 12, 8, 3), "w4_n": 1000,
             "w5_n": (5, 7), "w6_n": 6,
             "w8_fft_n": 16, "w8_fft_large_n": 64, "w8_la": (5, 2)},
}


class Skip(Exception):
    """The library (or this variant of it) is not available: skipped, with a note."""


class NotApplicable(Exception):
    """The library has no such operation (e.g. autograd's forward-mode Jacobian)."""


# --------------------------------------------------------------------------
# Libraries
# --------------------------------------------------------------------------


class _Namespace:
    """``base``'s attributes, with some overridden (e.g. ``lse``)."""

    def __init__(self, base, **overrides):
        self._base = base
        self.__dict__.update(overrides)

    def __getattr__(self, name):
        # Kept on the instance: the next lookup is a plain attribute read, not a failed
        # one (an AttributeError raised and caught, ~1-3 us) that the library's row would
        # pay for every ``xp.`` name its workload calls (W3: three a call).
        value = getattr(self._base, name)
        setattr(self, name, value)
        return value


def _np_lse(z):
    """logsumexp over axis 1 in plain NumPy (max-shifted)."""
    m = np.max(z, axis=1, keepdims=True)
    return (m + np.log(np.sum(np.exp(z - m), axis=1, keepdims=True)))[:, 0]


@dataclass
class Lib:
    """A loaded library: its module(s), its ``xp`` namespace and converters."""

    label: str
    mod: Any                       # funcgrad / jax / torch / autograd / numpy
    xp: Any                        # NumPy-like namespace the workloads use
    native: Callable[[np.ndarray], Any] = lambda a: a   # NumPy array -> native array
    extra: dict = field(default_factory=dict)

    def tree(self, obj):
        """``native`` over a dict/tuple/list of arrays."""
        if isinstance(obj, dict):
            return {k: self.tree(v) for k, v in obj.items()}
        if isinstance(obj, (tuple, list)):
            return type(obj)(self.tree(v) for v in obj)
        return self.native(obj)


@functools.cache
def load(label: str) -> Lib:
    """Import and configure a library; :class:`Skip` if it is not installed."""
    try:
        return _LOADERS[label]()
    except ImportError as exc:
        raise Skip(f"{DISTRIBUTION[label]} not installed ({exc})") from exc


def _load_funcgrad() -> Lib:
    import funcgrad as fg
    import funcgrad.numpy as fnp

    return Lib(FG, fg, _Namespace(fnp, lse=lambda z: fnp.logsumexp(z, axis=1)))


def _load_funcgrad_np() -> Lib:
    import funcgrad as fg

    return Lib(FG_NP, fg, _Namespace(np, lse=_np_lse))


def _load_funcgrad_jit() -> Lib:
    lib = _load_funcgrad()
    if not hasattr(lib.mod, "jit"):
        raise Skip("funcgrad has no `jit` yet (fg.jit does not exist)")
    lib.label = FG_JIT
    return lib


def _load_jax() -> Lib:
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)  # float64; W3 passes float32 arrays
    xp = _Namespace(jnp, lse=lambda z: jax.nn.logsumexp(z, axis=1))
    return Lib(JAX, jax, xp, native=jnp.asarray)


def _load_torch() -> Lib:
    import torch

    torch.set_num_threads(1)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # only allowed before any inter-op work
        pass

    def tsum(a, axis=None):
        return torch.sum(a) if axis is None else torch.sum(a, dim=axis)

    xp = _Namespace(torch, sum=tsum, lse=lambda z: torch.logsumexp(z, dim=1))
    return Lib(TORCH, torch, xp, native=lambda a: torch.tensor(np.asarray(a)))


def _load_autograd() -> Lib:
    import autograd
    import autograd.numpy as anp
    from autograd.scipy.special import logsumexp

    return Lib(AUTOGRAD, autograd, _Namespace(anp, lse=lambda z: logsumexp(z, axis=1)))


def _load_reference() -> Lib:
    return Lib(REF, np, _Namespace(np, lse=_np_lse))


_LOADERS = {FG: _load_funcgrad, FG_NP: _load_funcgrad_np, FG_JIT: _load_funcgrad_jit,
            JAX: _load_jax, JAX_JIT: _load_jax, TORCH: _load_torch, TORCH_FUNC: _load_torch,
            AUTOGRAD: _load_autograd, REF: _load_reference}


def to_numpy(obj):
    """A library's result as NumPy arrays (dict/tuple/list structure kept)."""
    if isinstance(obj, dict):
        return {k: to_numpy(v) for k, v in obj.items()}
    if isinstance(obj, (tuple, list)):
        return [to_numpy(v) for v in obj]
    if hasattr(obj, "detach"):  # torch
        obj = obj.detach().cpu().numpy()
    return np.asarray(obj)


def _leaves(obj, path=""):
    if isinstance(obj, dict):
        for k in sorted(obj):
            yield from _leaves(obj[k], f"{path}.{k}")
    elif isinstance(obj, (tuple, list)):
        for i, v in enumerate(obj):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, obj


def compare(got, expected, rtol: float, atol_rel: float, dtype=None) -> str | None:
    """``None`` if ``got`` matches ``expected``, else what is wrong.

    Per leaf: the same shape, the dtype ``dtype`` (if given: float32 in must
    give float32 out), and ``|got - expected| <= atol + rtol |expected|`` with
    ``atol = atol_rel * max|expected leaf|`` (scale-aware, so a tiny but
    right gradient is not accepted as zero by a fixed absolute tolerance).
    """
    got_leaves = list(_leaves(to_numpy(got)))
    exp_leaves = list(_leaves(expected))
    if len(got_leaves) != len(exp_leaves):
        return f"structure: {len(got_leaves)} leaves, expected {len(exp_leaves)}"
    for (path, g), (_, e) in zip(got_leaves, exp_leaves):
        if dtype is not None and np.asarray(g).dtype != dtype:
            return f"dtype{path}: {np.asarray(g).dtype}, expected {np.dtype(dtype)}"
        kind = np.complex128 if np.iscomplexobj(g) or np.iscomplexobj(e) else np.float64
        g, e = np.asarray(g, dtype=kind), np.asarray(e, dtype=kind)
        if g.shape != e.shape:
            return f"shape{path}: {g.shape}, expected {e.shape}"
        if not np.all(np.isfinite(g)):
            return f"non-finite values{path}"
        scale = float(np.max(np.abs(e))) if e.size else 0.0
        err = np.abs(g - e)
        bad = err > atol_rel * scale + rtol * np.abs(e)
        if np.any(bad):
            worst = float(np.max(err / (np.abs(e) + atol_rel * scale + 1e-300)))
            return f"values{path}: {int(bad.sum())}/{e.size} off, worst rel. err {worst:.2e}"
    return None


# --------------------------------------------------------------------------
# Tasks
# --------------------------------------------------------------------------


@dataclass
class Task:
    """One timed row: an operation of a workload, for every library."""

    key: str                 # "W1.grad"
    workload: str            # "W1"
    label: str               # row label in the table
    unit: str                # "µs" or "ms"
    expected: Any            # NumPy result (or pytree of them) every library must match
    builders: dict[str, Callable[[Lib], Callable[[], Any]]]
    rtol: float = 1e-9
    atol_rel: float = 1e-12
    dtype: Any = np.float64          # every result leaf must have this dtype
    primitives: int | None = None    # W2: primitives per call (for µs/primitive)
    reference_only: bool = False     # a floor row: only the reference column
    note: str = ""


def _block(jax, out):
    return jax.block_until_ready(out)


def _standard(fg_op=None, jax_op=None, torch_eager=None, torch_func=None, autograd_op=None,
              reference=None):
    """Builders for every library from a few per-family recipes.

    ``fg_op(fg, xp) -> (fn, args)``: funcgrad (fnp), funcgrad (np) and
    ``fg.jit(fn)``.  ``jax_op(jax, xp) -> (fn, args)`` with NumPy ``args``:
    JAX eager and ``jax.jit(fn)``.  ``torch_eager(torch, xp, lib)``,
    ``torch_func(torch, xp, lib)``, ``autograd_op(autograd, xp)`` and
    ``reference()`` return the zero-argument callable directly.  A recipe
    left ``None`` (or raising :class:`NotApplicable`) gives an "n/a" cell.
    """
    builders = {}
    if fg_op is not None:
        def fg_eager(lib):
            fn, args = fg_op(lib.mod, lib.xp)
            return lambda: fn(*args)

        def fg_jit(lib):
            fn, args = fg_op(lib.mod, lib.xp)
            jfn = lib.mod.jit(fn)

            def run():
                return jfn(*args)
            run.jitted = jfn  # for benchmarks/startup.py: block_until_compiled()
            return run

        builders.update({FG: fg_eager, FG_NP: fg_eager, FG_JIT: fg_jit})
    if jax_op is not None:
        def jax_eager(lib):
            fn, args = jax_op(lib.mod, lib.xp)
            args = lib.tree(args)
            return lambda: _block(lib.mod, fn(*args))

        def jax_jit(lib):
            fn, args = jax_op(lib.mod, lib.xp)
            args = lib.tree(args)
            jfn = lib.mod.jit(fn)
            return lambda: _block(lib.mod, jfn(*args))

        builders.update({JAX: jax_eager, JAX_JIT: jax_jit})
    if torch_eager is not None:
        builders[TORCH] = lambda lib: torch_eager(lib.mod, lib.xp, lib)
    if torch_func is not None:
        builders[TORCH_FUNC] = lambda lib: torch_func(lib.mod, lib.xp, lib)
    if autograd_op is not None:
        builders[AUTOGRAD] = lambda lib: autograd_op(lib.mod, lib.xp)
    if reference is not None:
        builders[REF] = lambda lib: reference()
    return builders


def _torch_grad(torch, f, xt):
    """One eager ``grad``: a fresh leaf, forward, ``torch.autograd.grad``."""
    def run():
        a = xt.detach().requires_grad_()
        return torch.autograd.grad(f(a), a)[0]
    return run


# ---- W1: small elementwise function ---------------------------------------


def w1_f(xp):
    def f(x):
        return xp.sum(xp.sin(x) * xp.cos(x) + xp.exp(-x * x) + xp.log1p(x * x)
                      + xp.tanh(x) / (1 + x * x))
    return f


def w1_grad_closed(x):
    """d/dx of W1's summand, elementwise (closed form)."""
    t, q = np.tanh(x), 1 + x * x
    return (np.cos(2 * x) - 2 * x * np.exp(-x * x) + 2 * x / q
            + (1 - t * t) / q - 2 * x * t / (q * q))


def w1(size) -> list[Task]:
    x = np.linspace(-1.0, 1.0, size["w1_n"])
    return [Task(
        "W1.grad", "W1", f"W1 grad, {x.size} elements", "µs", w1_grad_closed(x),
        _standard(
            fg_op=lambda fg, xp: (fg.grad(w1_f(xp)), (x,)),
            jax_op=lambda jax, xp: (jax.grad(w1_f(xp)), (x,)),
            torch_eager=lambda torch, xp, lib: _torch_grad(torch, w1_f(xp), lib.native(x)),
            torch_func=lambda torch, xp, lib: functools.partial(
                torch.func.grad(w1_f(xp)), lib.native(x)),
            autograd_op=lambda ag, xp: functools.partial(ag.grad(w1_f(xp)), x),
            reference=lambda: functools.partial(w1_grad_closed, x),
        ))]


# ---- W2: deep elementwise chain -------------------------------------------

W2_PRIMS_PER_STEP = 4  # sin, mul, mul, add


def w2_f(xp, steps):
    def f(x):
        y = x
        for _ in range(steps):
            y = xp.sin(y) * 0.5 + y * 0.9
        return xp.sum(y)
    return f


def w2_grad_closed(x, steps):
    """Hand-written reverse pass: the chain is elementwise, so the adjoint is a
    product of the local derivatives 0.5 cos(y_k) + 0.9."""
    ys = [x]
    for _ in range(steps):
        ys.append(np.sin(ys[-1]) * 0.5 + ys[-1] * 0.9)
    g = np.ones_like(x)
    for y in reversed(ys[:-1]):
        g = g * (0.5 * np.cos(y) + 0.9)
    return g


def w2(size) -> list[Task]:
    n, steps = size["w2_n"], size["w2_steps"]
    x = np.linspace(-1.0, 1.0, n)
    return [Task(
        "W2.grad", "W2", f"W2 grad, {steps}-step chain", "µs", w2_grad_closed(x, steps),
        _standard(
            fg_op=lambda fg, xp: (fg.grad(w2_f(xp, steps)), (x,)),
            jax_op=lambda jax, xp: (jax.grad(w2_f(xp, steps)), (x,)),
            torch_eager=lambda torch, xp, lib: _torch_grad(torch, w2_f(xp, steps),
                                                           lib.native(x)),
            torch_func=lambda torch, xp, lib: functools.partial(
                torch.func.grad(w2_f(xp, steps)), lib.native(x)),
            autograd_op=lambda ag, xp: functools.partial(ag.grad(w2_f(xp, steps)), x),
            reference=lambda: functools.partial(w2_grad_closed, x, steps),
        ),
        # the true gradient is ~1e-64 (the chain contracts): relative checks only
        rtol=1e-9, atol_rel=1e-12, primitives=W2_PRIMS_PER_STEP * steps)]


# ---- W3: MLP, float32 ------------------------------------------------------


def w3_loss(xp):
    """Softmax cross-entropy of a 1-hidden-layer tanh MLP, through logsumexp."""
    def loss(p, x, y1h):
        h = xp.tanh(x @ p["W1"] + p["b1"])
        z = h @ p["W2"] + p["b2"]
        return xp.mean(xp.lse(z) - xp.sum(z * y1h, axis=1))
    return loss


def w3_data(batch, d_in, d_hidden, d_out, dtype=np.float32):
    rng = np.random.default_rng(3)
    params = {
        "W1": rng.normal(size=(d_in, d_hidden)) / math.sqrt(d_in),
        "b1": rng.normal(size=d_hidden) * 0.1,
        "W2": rng.normal(size=(d_hidden, d_out)) / math.sqrt(d_hidden),
        "b2": rng.normal(size=d_out) * 0.1,
    }
    x = rng.normal(size=(batch, d_in))
    y1h = np.eye(d_out)[rng.integers(0, d_out, batch)]
    return ({k: v.astype(dtype) for k, v in params.items()}, x.astype(dtype),
            y1h.astype(dtype))


def w3_manual(p, x, y1h, grad=True):
    """Hand-written forward (and backward) pass in NumPy, in ``x``'s dtype."""
    loss, h, dz, da = _w3_pass(p, x, y1h, grad)
    if not grad:
        return loss
    return loss, {"W1": x.T @ da, "b1": np.sum(da, axis=0),
                  "W2": h.T @ dz, "b2": np.sum(dz, axis=0)}


def _w3_pass(p, x, y1h, grad=True):
    """The loss, the hidden activations and (with ``grad``) the two cotangents the
    backward GEMMs multiply."""
    h = np.tanh(x @ p["W1"] + p["b1"])
    z = h @ p["W2"] + p["b2"]
    m = np.max(z, axis=1, keepdims=True)
    e = np.exp(z - m)
    s = np.sum(e, axis=1, keepdims=True)
    loss = np.mean(m[:, 0] + np.log(s[:, 0]) - np.sum(z * y1h, axis=1))
    if not grad:
        return loss, h, None, None
    dz = (e / s - y1h) / x.shape[0]
    return loss, h, dz, (dz @ p["W2"].T) * (1 - h * h)


def _torch_value_and_grad(torch, loss, params, x, y1h):
    def run():
        p = {k: v.detach().requires_grad_() for k, v in params.items()}
        value = loss(p, x, y1h)
        grads = torch.autograd.grad(value, list(p.values()))
        return value, dict(zip(p, grads))
    return run


def _torch_func_value_and_grad(torch, loss, params, x, y1h):
    gv = torch.func.grad_and_value(loss)

    def run():
        g, v = gv(params, x, y1h)
        return v, g
    return run


def _not_applicable(why):
    def build(*_):
        raise NotApplicable(why)
    return build


def w3(size) -> list[Task]:
    batch, d_in, d_hidden, d_out = size["w3"]
    p, x, y = w3_data(batch, d_in, d_hidden, d_out)
    p64 = {k: v.astype(np.float64) for k, v in p.items()}
    value64, grads64 = w3_manual(p64, x.astype(np.float64), y.astype(np.float64))
    shape = f"{batch}x{d_in}->{d_hidden}->{d_out}"
    args = (p, x, y)
    # float32 results against a float64 reference
    tol = {"rtol": 2e-3, "atol_rel": 2e-4, "dtype": np.float32}
    forward = Task(
        "W3.forward", "W3", f"W3 MLP forward, {shape} f32", "ms", value64,
        _standard(
            fg_op=lambda fg, xp: (w3_loss(xp), args),
            jax_op=lambda jax, xp: (w3_loss(xp), args),
            torch_eager=lambda torch, xp, lib: functools.partial(w3_loss(xp),
                                                                 *lib.tree(args)),
            torch_func=_not_applicable("torch.func has no forward of its own: see torch"),
            autograd_op=lambda ag, xp: functools.partial(w3_loss(xp), *args),
            reference=lambda: functools.partial(w3_manual, *args, grad=False),
        ), **tol)
    value_and_grad = Task(
        "W3.value_and_grad", "W3", f"W3 MLP value_and_grad, {shape} f32", "ms",
        (value64, grads64),
        _standard(
            fg_op=lambda fg, xp: (fg.value_and_grad(w3_loss(xp)), args),
            jax_op=lambda jax, xp: (jax.value_and_grad(w3_loss(xp)), args),
            torch_eager=lambda torch, xp, lib: _torch_value_and_grad(
                torch, w3_loss(xp), *lib.tree(args)),
            torch_func=lambda torch, xp, lib: _torch_func_value_and_grad(
                torch, w3_loss(xp), *lib.tree(args)),
            autograd_op=lambda ag, xp: functools.partial(ag.value_and_grad(w3_loss(xp)),
                                                         *args),
            reference=lambda: functools.partial(w3_manual, *args),
        ), **tol)
    # The floor issue 21 measures jit against: the five matrix products of the forward
    # and backward pass alone (BLAS sgemm), on the intermediates they multiply.
    _, h, dz, da = _w3_pass(p, x, y)
    gemm_inputs = ((x, p["W1"]), (h, p["W2"]), (dz, p["W2"].T), (x.T, da), (h.T, dz))
    gemms64 = tuple(a.astype(np.float64) @ b.astype(np.float64) for a, b in gemm_inputs)
    floor = Task(
        "W3.floor.gemm", "W3", "W3 floor: the 5 GEMMs alone (f32)", "ms", gemms64,
        {REF: lambda lib: lambda: tuple(a @ b for a, b in gemm_inputs)},
        reference_only=True, note="x@W1, h@W2 forward; dz@W2.T, x.T@da, h.T@dz backward",
        **tol)
    return [forward, value_and_grad, floor]


# ---- W4: large elementwise -------------------------------------------------


def _import_floors():
    if __package__:
        from . import _floors
    else:  # benchmarks/ itself is on sys.path (python benchmarks/suite.py)
        import _floors  # type: ignore[no-redef]
    return _floors


def w4_f(xp):
    def f(x):
        return xp.sum(xp.exp(xp.sin(x)) * xp.cos(x) ** 2 + xp.sqrt(1 + x * x))
    return f


def w4_grad_closed(x):
    s, c = np.sin(x), np.cos(x)
    return np.exp(s) * c * (c * c - 2 * s) + x / np.sqrt(1 + x * x)


def w4(size) -> list[Task]:
    _floors = _import_floors()  # Numba only when W4 is run

    n = size["w4_n"]
    x = np.linspace(-3.0, 3.0, n)
    f = w4_f(np)
    value, grad = f(x), w4_grad_closed(x)
    tasks = [
        Task("W4.forward", "W4", f"W4 forward, {n:.0e} elements", "ms", value, _standard(
            fg_op=lambda fg, xp: (w4_f(xp), (x,)),
            jax_op=lambda jax, xp: (w4_f(xp), (x,)),
            torch_eager=lambda torch, xp, lib: functools.partial(w4_f(xp), lib.native(x)),
            torch_func=_not_applicable("torch.func has no forward of its own: see torch"),
            autograd_op=lambda ag, xp: functools.partial(w4_f(xp), x),
            reference=lambda: functools.partial(f, x),
        ), rtol=1e-9),
        Task("W4.grad", "W4", f"W4 grad, {n:.0e} elements", "ms", grad, _standard(
            fg_op=lambda fg, xp: (fg.grad(w4_f(xp)), (x,)),
            jax_op=lambda jax, xp: (jax.grad(w4_f(xp)), (x,)),
            torch_eager=lambda torch, xp, lib: _torch_grad(torch, w4_f(xp), lib.native(x)),
            torch_func=lambda torch, xp, lib: functools.partial(torch.func.grad(w4_f(xp)),
                                                                lib.native(x)),
            autograd_op=lambda ag, xp: functools.partial(ag.grad(w4_f(xp)), x),
            reference=lambda: functools.partial(w4_grad_closed, x),
        ), note="reference: the closed-form gradient in NumPy (unfused)"),
    ]
    out = np.empty_like(x)
    floors = [
        ("W4.floor.memory", "W4 floor: memory streaming", x,
         lambda: functools.partial(np.copyto, out, x),
         "read x, write the gradient: np.copyto of 8 bytes in, 8 out per element"),
        ("W4.floor.compute", "W4 floor: compute, fused Numba", grad,
         lambda: _floors.fused_grad(x),
         "hand-fused Numba loop of the closed-form gradient, scalar libm"),
        ("W4.floor.vectorised", "W4 floor: compute, fused Numba, vectorised", grad,
         lambda: _floors.fused_grad(x, vectorised=True),
         "as above with funcgrad's vectorisable sin/cos/exp (kernels/cpu/vmath.py)"),
    ]
    for key, label, expected, build, note in floors:
        check = (lambda o=out: o) if key == "W4.floor.memory" else None

        def builder(lib, build=build, check=check):
            try:
                run = build()
            except ImportError as exc:  # e.g. funcgrad without kernels/cpu/vmath.py
                raise Skip(f"not available ({exc})") from exc
            if check is None:
                return run
            return lambda: (run(), check())[1]

        tasks.append(Task(key, "W4", label, "ms", expected, {REF: builder},
                          rtol=1e-9, reference_only=True, note=note))
    return tasks


# ---- W5: Hessian of Rosenbrock --------------------------------------------


def w5_f(xp):
    def rosen(x):
        return xp.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    return rosen


def w5_hessian_closed(x):
    """Rosenbrock's Hessian: tridiagonal."""
    n = x.size
    d = np.zeros(n)
    d[:-1] += 1200 * x[:-1] ** 2 - 400 * x[1:] + 2
    d[1:] += 200
    H = np.diag(d)
    i = np.arange(n - 1)
    H[i, i + 1] = H[i + 1, i] = -400 * x[:-1]
    return H


def w5_hvp_closed(x, v):
    """``H @ v`` from the three diagonals, without forming H."""
    d = np.zeros_like(x)
    d[:-1] += 1200 * x[:-1] ** 2 - 400 * x[1:] + 2
    d[1:] += 200
    off = -400 * x[:-1]
    out = d * v
    out[:-1] += off * v[1:]
    out[1:] += off * v[:-1]
    return out


def _w5_data(n):
    rng = np.random.default_rng(5)
    return rng.uniform(-1.5, 1.5, n), rng.normal(size=n)


def w5(size) -> list[Task]:
    tasks = []
    for n in size["w5_n"]:
        x, _ = _w5_data(n)
        tasks.append(Task(
            f"W5.hessian.{n}", "W5", f"W5 hessian, Rosenbrock n={n}", "ms",
            w5_hessian_closed(x),
            _standard(
                fg_op=lambda fg, xp, x=x: (fg.hessian(w5_f(xp)), (x,)),
                jax_op=lambda jax, xp, x=x: (jax.hessian(w5_f(xp)), (x,)),
                torch_eager=lambda torch, xp, lib, x=x: functools.partial(
                    torch.autograd.functional.hessian, w5_f(xp), lib.native(x),
                    vectorize=True),
                torch_func=lambda torch, xp, lib, x=x: functools.partial(
                    torch.func.hessian(w5_f(xp)), lib.native(x)),
                autograd_op=lambda ag, xp, x=x: functools.partial(ag.hessian(w5_f(xp)), x),
                reference=lambda x=x: functools.partial(w5_hessian_closed, x),
            ), note="torch: torch.autograd.functional.hessian(vectorize=True)"))
    for n in size["w5_n"]:
        x, v = _w5_data(n)
        tasks.append(Task(
            f"W5.hvp.{n}", "W5", f"W5 hvp, Rosenbrock n={n}", "ms", w5_hvp_closed(x, v),
            _standard(
                fg_op=lambda fg, xp, x=x, v=v: (
                    lambda a, b, f=w5_f(xp): fg.hvp(f, (a,), (b,))[1][0], (x, v)),
                jax_op=lambda jax, xp, x=x, v=v: (
                    lambda a, b, f=w5_f(xp): jax.jvp(jax.grad(f), (a,), (b,))[1], (x, v)),
                torch_eager=lambda torch, xp, lib, x=x, v=v: (
                    lambda f=w5_f(xp), a=lib.native(x), b=lib.native(v):
                    torch.autograd.functional.hvp(f, a, b)[1]),
                torch_func=lambda torch, xp, lib, x=x, v=v: (
                    lambda f=w5_f(xp), a=lib.native(x), b=lib.native(v):
                    torch.func.jvp(torch.func.grad(f), (a,), (b,))[1]),
                autograd_op=lambda ag, xp, x=x, v=v: functools.partial(
                    ag.hessian_vector_product(w5_f(xp)), x, v),
                reference=lambda x=x, v=v: functools.partial(w5_hvp_closed, x, v),
            ), note="fwd-over-rev where the library offers it; torch: "
                    "torch.autograd.functional.hvp; autograd: hessian_vector_product"))
    return tasks


# ---- W6: Jacobian of tanh(A @ x) -------------------------------------------


def w6_f(xp, A):
    def f(x):
        return xp.tanh(A @ x)
    return f


def w6_jacobian_closed(A, x):
    t = np.tanh(A @ x)
    return (1 - t * t)[:, None] * A


def w6(size) -> list[Task]:
    n = size["w6_n"]
    rng = np.random.default_rng(6)
    A = rng.normal(size=(n, n)) / math.sqrt(n)
    x = rng.normal(size=n)
    expected = w6_jacobian_closed(A, x)
    tasks = []
    for mode in ("jacfwd", "jacrev"):
        strategy = "forward-mode" if mode == "jacfwd" else "reverse-mode"
        tasks.append(Task(
            f"W6.{mode}", "W6", f"W6 {mode}, tanh(A @ x), A {n}x{n}", "ms", expected,
            _standard(
                fg_op=lambda fg, xp, mode=mode: (getattr(fg, mode)(w6_f(xp, A)), (x,)),
                jax_op=lambda jax, xp, mode=mode: (
                    getattr(jax, mode)(w6_f(xp, jax.numpy.asarray(A))), (x,)),
                torch_eager=lambda torch, xp, lib, strategy=strategy: functools.partial(
                    torch.autograd.functional.jacobian, w6_f(xp, lib.native(A)),
                    lib.native(x), vectorize=True, strategy=strategy),
                torch_func=lambda torch, xp, lib, mode=mode: functools.partial(
                    getattr(torch.func, mode)(w6_f(xp, lib.native(A))), lib.native(x)),
                autograd_op=(
                    (lambda ag, xp: functools.partial(ag.jacobian(w6_f(xp, A)), x))
                    if mode == "jacrev" else
                    _not_applicable("autograd has no forward-mode Jacobian")),
                reference=lambda: functools.partial(w6_jacobian_closed, A, x),
            ), note=f"torch: torch.autograd.functional.jacobian(vectorize=True, "
                    f"strategy={strategy!r})"))
    return tasks


def w8(size) -> list[Task]:
    """W8, FFT and linear algebra: benchmarks/w8.py (which builds on this module)."""
    if __package__:
        from . import w8 as module
    else:  # benchmarks/ itself is on sys.path (python benchmarks/suite.py)
        import w8 as module  # type: ignore[no-redef]
    return module.w8(size)


#: workload name -> task factory (W7, start-up, lives in startup.py)
WORKLOADS: dict[str, Callable[[dict], list[Task]]] = {
    "W1": w1, "W2": w2, "W3": w3, "W4": w4, "W5": w5, "W6": w6, "W8": w8,
}
